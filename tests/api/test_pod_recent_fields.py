"""The validation of the pod fields added after 1.32 (jobmodel/api/pod_recent_fields.py).

Every expected error (field path, type and whole message) is taken from upstream's code, not
from the model: k8s.io/kubernetes `pkg/apis/core/validation/validation.go` (validatePodHostName,
validateWorkloadReference, validateSchedulingGroup, ValidateVolumeMounts and
validateBindMountOptions, ValidatePodSpec), `pkg/apis/core/v1/validation.go` and
`zz_generated.validations.go` (the declarative evictionResponders rules) of v1.34.4 ... v1.37.2,
with the message texts of apimachinery `pkg/util/validation` (IsDNS1123Subdomain,
IsDNS1123Label, RegexError, MaxLenError), `pkg/util/validation/field/errors.go` (TooLong,
TooMany, NotSupported, ErrorBody) and `pkg/api/validate` (content.IsLabelKey, Minimum, Maximum).
Where upstream has a unit test of the rule, its cases are mirrored and named.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from jobmodel.api import strategy
from jobmodel.api.field import FieldError
from jobmodel.api.pod_recent_fields import (
    is_prefixed_label_key,
    validate_bind_mount_options,
    validate_eviction_responders_declaratively,
    validate_forbidden_reserved_domain_suffixes,
    validate_pod_host_name,
    validate_recent_pod_fields,
    validate_scheduling_group,
    validate_workload_reference,
)
from jobmodel.api.schema import decode_object
from jobmodel.conformance.validation import model_outcome
from jobmodel.features import gates_for
from tests.api.helpers import cron_job, job

# apimachinery pkg/util/validation/validation.go: RegexError(dns1123SubdomainErrorMsg, ...) and
# RegexError(dns1123LabelErrMsg, ..., "my-name", "123-abc") (the two spaces before "or" are
# RegexError's: each example is followed by "', " and the next one preceded by " or ").
SUBDOMAIN = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
    "and must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
    "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)
LABEL = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must "
    "start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for "
    "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
)
RESERVED = "domain names *.k8s.io, *.kubernetes.io are reserved"
RESERVED_PRIORITY = "priorities 0-999 are reserved for responders with *.k8s.io suffix"
BIND_OPTIONS = 'supported values: "nodev", "noexec", "nosuid"'
VECTORS = Path(__file__).resolve().parents[1] / "differential" / "vectors"


def shown(errors: list[FieldError]) -> list[tuple[str, str]]:
    """Each error's type and whole message (`field.Error.Error()`: path, type, value, detail)."""
    return [(e.type, str(e)) for e in errors]


# ---------------------------------------------------------------------------- hostnameOverride
# validatePodHostName: v1.34.4 validation.go:3907, v1.35.4:3999, v1.36.3:4001, v1.37.2:4120;
# cases of TestValidatePodHostName (validation_test.go, v1.34.4:26084 ... v1.37.2:27898), whose
# path is field.NewPath("spec").

H = "spec.hostnameOverride"


@pytest.mark.parametrize(
    "spec",
    [
        {"hostnameOverride": "a"},  # "Set HostnameOverride, less than 64 characters"
        {"hostnameOverride": "custom-host"},  # "HostnameOverride is set should not error"
        {"hostnameOverride": "a" * 64},  # "Set HostnameOverride, equal 64 characters"
        {"hostnameOverride": "custom-host", "setHostnameAsFQDN": False},
        {"hostnameOverride": "custom-host", "hostNetwork": False},
        {"setHostnameAsFQDN": True, "hostNetwork": True},  # HostnameOverride nil: nothing checked
    ],
)
def test_a_host_name_override_is_accepted(spec: dict[str, Any]) -> None:
    """TestValidatePodHostName's accepted cases give no error."""
    assert validate_pod_host_name(spec, "spec") == []


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        (  # "Set HostnameOverride, but empty string"
            {"hostnameOverride": ""},
            [("FieldValueInvalid", f'{H}: Invalid value: "": {SUBDOMAIN}')],
        ),
        (  # "Set HostnameOverride, but longer than 64 characters"
            {"hostnameOverride": "a" * 65},
            [("FieldValueTooLong", f"{H}: Too long: may not be more than 64 bytes")],
        ),
        (  # "Set HostnameOverride, but not RFC 1123 DNS subdomain should error"
            {"hostnameOverride": "Not-RFC1123"},
            [("FieldValueInvalid", f'{H}: Invalid value: "Not-RFC1123": {SUBDOMAIN}')],
        ),
        (  # "SetHostnameAsFQDN=true and HostnameOverride is set should error"
            {"hostnameOverride": "custom-host", "setHostnameAsFQDN": True},
            [("FieldValueForbidden", f"{H}: Forbidden: may not be specified when setHostnameAsFQDN is true")],
        ),
        (  # "HostNetwork=true and HostnameOverride is set should error"
            {"hostnameOverride": "custom-host", "hostNetwork": True},
            [("FieldValueForbidden", f"{H}: Forbidden: may not be specified when hostNetwork is true")],
        ),
    ],
)
def test_a_host_name_override_is_refused(spec: dict[str, Any], expected: list[tuple[str, str]]) -> None:
    """TestValidatePodHostName's refused cases, with upstream's whole messages."""
    assert shown(validate_pod_host_name(spec, "spec")) == expected


def test_every_host_name_override_error_in_upstreams_order() -> None:
    """validatePodHostName appends setHostnameAsFQDN, hostNetwork, length, then the subdomain format."""
    spec = {"hostnameOverride": "A" * 65, "setHostnameAsFQDN": True, "hostNetwork": True}
    assert shown(validate_pod_host_name(spec, "spec")) == [
        ("FieldValueForbidden", f"{H}: Forbidden: may not be specified when setHostnameAsFQDN is true"),
        ("FieldValueForbidden", f"{H}: Forbidden: may not be specified when hostNetwork is true"),
        ("FieldValueTooLong", f"{H}: Too long: may not be more than 64 bytes"),
        ("FieldValueInvalid", f'{H}: Invalid value: "{"A" * 65}": {SUBDOMAIN}'),
    ]


def test_the_host_name_length_is_counted_in_bytes() -> None:
    """`len(*spec.HostnameOverride) > 64` is Go's len: 33 two-byte characters are too long."""
    errors = validate_pod_host_name({"hostnameOverride": "é" * 33}, "spec")
    assert [e.type for e in errors] == ["FieldValueTooLong", "FieldValueInvalid"]
    assert validate_pod_host_name({"hostnameOverride": "é" * 32}, "spec")[0].type == "FieldValueInvalid"


@pytest.mark.parametrize(("release", "errors"), [(33, 0), (34, 1), (37, 1)])
def test_the_host_name_override_is_validated_from_1_34(release: int, errors: int) -> None:
    """v1.33.13 has no hostnameOverride nor validatePodHostName; ValidatePodSpec calls it from
    v1.34.4 (validation.go:4544)."""
    assert len(validate_recent_pod_fields({"hostnameOverride": "Bad"}, "spec", release, {})) == errors


# ---------------------------------------------------------------------------- workloadRef
# validateWorkloadReference, v1.35.4 validation.go:9586 (name: NameIsDNSSubdomain, podGroup and
# podGroupReplicaKey: NameIsDNSLabel, validation.go:345-355); cases of TestValidateWorkloadReference
# (v1.35.4 validation_test.go:30280), which validate a pod at field.NewPath("field").

W = "field.workloadRef"


@pytest.mark.parametrize(
    "ref",
    [
        {"name": "workload", "podGroup": "group", "podGroupReplicaKey": "replica"},  # "correct"
        {"name": "workload", "podGroup": "group", "podGroupReplicaKey": ""},  # "no replica key"
        {"name": "workload.example", "podGroup": "group"},  # the name is a subdomain
    ],
)
def test_a_workload_reference_is_accepted(ref: dict[str, str]) -> None:
    """TestValidateWorkloadReference's success cases give no error."""
    assert validate_workload_reference(ref, W) == []


def _ref(**fields: str) -> dict[str, str]:
    return {"name": "workload", "podGroup": "group", "podGroupReplicaKey": "replica", **fields}


@pytest.mark.parametrize(
    ("ref", "expected"),
    [
        (_ref(name=""), f'{W}.name: Invalid value: "": {SUBDOMAIN}'),  # "empty workload name"
        (_ref(name=".workload"), f'{W}.name: Invalid value: ".workload": {SUBDOMAIN}'),  # "incorrect workload name"
        (  # "too long workload name"
            _ref(name="w" * 254),
            f'{W}.name: Invalid value: "{"w" * 254}": must be no more than 253 characters',
        ),
        (_ref(podGroup=""), f'{W}.podGroup: Invalid value: "": {LABEL}'),  # "empty pod group"
        (_ref(podGroup=".group"), f'{W}.podGroup: Invalid value: ".group": {LABEL}'),  # "incorrect pod group"
        (  # "too long pod group"
            _ref(podGroup="g" * 64),
            f'{W}.podGroup: Invalid value: "{"g" * 64}": must be no more than 63 characters',
        ),
        (  # "incorrect replica key"
            _ref(podGroupReplicaKey=".replica"),
            f'{W}.podGroupReplicaKey: Invalid value: ".replica": {LABEL}',
        ),
        (  # "too long replica key"
            _ref(podGroupReplicaKey="r" * 64),
            f'{W}.podGroupReplicaKey: Invalid value: "{"r" * 64}": must be no more than 63 characters',
        ),
        # IsDNS1123Label: a valid subdomain that is no label "must not contain dots".
        (_ref(podGroup="a.b"), f'{W}.podGroup: Invalid value: "a.b": must not contain dots'),
    ],
)
def test_a_workload_reference_is_refused(ref: dict[str, str], expected: str) -> None:
    """TestValidateWorkloadReference's failure cases, each with upstream's one error."""
    assert shown(validate_workload_reference(ref, W)) == [("FieldValueInvalid", expected)]


@pytest.mark.parametrize(("release", "errors"), [(34, 0), (35, 1), (36, 0)])
def test_the_workload_reference_is_validated_in_1_35_only(release: int, errors: int) -> None:
    """Only v1.35.4 has workloadRef (ValidatePodSpec, validation.go:4728); v1.36.3's types
    tombstone it (api core/v1/types.go: "replaced with the SchedulingGroup field")."""
    spec = {"workloadRef": {"name": "w", "podGroup": "Bad"}}
    assert len(validate_recent_pod_fields(spec, "spec", release, {})) == errors


# ---------------------------------------------------------------------------- schedulingGroup
# validateSchedulingGroup: v1.36.3 validation.go:9703, v1.37.2:10068 (ValidatePodGroupName is
# NameIsDNSSubdomain from 1.36, validation.go:348 / :355); cases of TestValidatePodSchedulingGroup
# (v1.36.3 validation_test.go:31085, v1.37.2:32779), at field.NewPath("field").

G = "field.schedulingGroup.podGroupName"


@pytest.mark.parametrize("name", ["group", "group.example"])
def test_a_scheduling_group_is_accepted(name: str) -> None:
    """TestValidatePodSchedulingGroup's "correct"; a podGroupName is a subdomain (dots allowed)."""
    assert validate_scheduling_group({"podGroupName": name}, "field.schedulingGroup") == []


@pytest.mark.parametrize(
    ("group", "expected"),
    [
        ({}, f"{G}: Invalid value: null: must specify one of: `podGroupName`"),  # "nil pod group name"
        ({"podGroupName": ""}, f'{G}: Invalid value: "": {SUBDOMAIN}'),  # "empty pod group name"
        ({"podGroupName": ".podGroup"}, f'{G}: Invalid value: ".podGroup": {SUBDOMAIN}'),  # "incorrect pod group name"
        (  # "too long pod group name"
            {"podGroupName": "w" * 254},
            f'{G}: Invalid value: "{"w" * 254}": must be no more than 253 characters',
        ),
    ],
)
def test_a_scheduling_group_is_refused(group: dict[str, str], expected: str) -> None:
    """TestValidatePodSchedulingGroup's failure cases, with upstream's whole messages."""
    assert shown(validate_scheduling_group(group, "field.schedulingGroup")) == [("FieldValueInvalid", expected)]


@pytest.mark.parametrize(("release", "errors"), [(35, 0), (36, 1), (37, 1)])
def test_the_scheduling_group_is_validated_from_1_36(release: int, errors: int) -> None:
    """ValidatePodSpec validates spec.SchedulingGroup from v1.36.3 (validation.go:4734); v1.35.4's
    types have no such field."""
    assert len(validate_recent_pod_fields({"schedulingGroup": {}}, "spec", release, {})) == errors


RESPONDER = {"name": "foo.example.com/test", "priority": 10000}
BESIDE = "spec.schedulingGroup: Forbidden: may not be set when evictionResponders is set"


def test_a_scheduling_group_beside_eviction_responders_is_forbidden_in_1_37() -> None:
    """v1.37.2 validation.go:4887-4890, after validateSchedulingGroup's own errors; the case
    "schedulingGroup not supported" of RunDeclarativeValidateEvictionRespondersTestCases
    (test/declarative_validation/core/pod/eviction_responders.go)."""
    spec = {"schedulingGroup": {"podGroupName": "blue"}, "evictionResponders": [RESPONDER]}
    assert shown(validate_recent_pod_fields(spec, "spec", 37, {})) == [("FieldValueForbidden", BESIDE)]
    spec["schedulingGroup"] = {}
    assert shown(validate_recent_pod_fields(spec, "spec", 37, {})) == [
        ("FieldValueInvalid", "spec.schedulingGroup.podGroupName: Invalid value: null: must specify one of: `podGroupName`"),
        ("FieldValueForbidden", BESIDE),
    ]


@pytest.mark.parametrize(
    ("release", "responders"),
    [(36, [RESPONDER]), (37, []), (37, None)],
)
def test_a_scheduling_group_without_eviction_responders_is_accepted(release: int, responders: list[Any] | None) -> None:
    """`len(spec.EvictionResponders) > 0` (v1.37.2 validation.go:4887); v1.36.3 has no such check."""
    spec = {"schedulingGroup": {"podGroupName": "blue"}, "evictionResponders": responders}
    assert validate_recent_pod_fields(spec, "spec", release, {}) == []


# ---------------------------------------------------------------------------- bindMountOptions
# validateBindMountOptions and its call in ValidateVolumeMounts, v1.37.2 validation.go:3221-3253
# (supportedBindMountOptions listed with sets.List: sorted); cases of TestValidateBindMountOptions
# (v1.37.2 validation_test.go:8200), whose mounts are at field.NewPath("field").Index(0).

B = "field[0].bindMountOptions"


@pytest.mark.parametrize(
    "options",
    [["noexec"], ["noexec", "nodev", "nosuid"], []],  # "valid single option", "valid multiple options", "empty options"
)
def test_bind_mount_options_are_accepted(options: list[str]) -> None:
    """TestValidateBindMountOptions' accepted options give no error."""
    assert validate_bind_mount_options(options, B) == []


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (["rw"], [("FieldValueNotSupported", f'{B}[0]: Unsupported value: "rw": {BIND_OPTIONS}')]),  # "invalid option"
        (  # "mix of valid and invalid"
            ["noexec", "sync"],
            [("FieldValueNotSupported", f'{B}[1]: Unsupported value: "sync": {BIND_OPTIONS}')],
        ),
        (["noexec", "noexec"], [("FieldValueDuplicate", f'{B}[1]: Duplicate value: "noexec"')]),  # "duplicate option"
        (  # "duplicate invalid option": NotSupported, then Duplicate, for each index
            ["rw", "rw"],
            [
                ("FieldValueNotSupported", f'{B}[0]: Unsupported value: "rw": {BIND_OPTIONS}'),
                ("FieldValueNotSupported", f'{B}[1]: Unsupported value: "rw": {BIND_OPTIONS}'),
                ("FieldValueDuplicate", f'{B}[1]: Duplicate value: "rw"'),
            ],
        ),
    ],
)
def test_bind_mount_options_are_refused(options: list[str], expected: list[tuple[str, str]]) -> None:
    """TestValidateBindMountOptions' refused options, with upstream's whole messages."""
    assert shown(validate_bind_mount_options(options, B)) == expected


IMAGE = {"name": "image", "image": {"reference": "busybox:latest", "pullPolicy": "Always"}}
EMPTY_DIR = {"name": "foo", "emptyDir": {}}


def _mounting(volume: str, options: list[str] | None, kind: str = "containers") -> dict[str, Any]:
    mount: dict[str, Any] = {"name": volume, "mountPath": "/m"}
    if options is not None:
        mount["bindMountOptions"] = options
    return {kind: [{"name": "c", "image": "i", "volumeMounts": [mount]}], "volumes": [IMAGE, EMPTY_DIR]}


VALID_VOLUMES = {"image": IMAGE, "foo": EMPTY_DIR}


@pytest.mark.parametrize("kind", ["containers", "initContainers", "ephemeralContainers"])
def test_bind_mount_options_on_an_image_volume_are_refused(kind: str) -> None:
    """TestValidateBindMountOptions' "bind mount options with image volume": the Invalid value is
    the options (validation.go:3224), in every kind of container (validateContainerCommon)."""
    at = f"field.{kind}[0].volumeMounts[0].bindMountOptions"
    errors = validate_recent_pod_fields(_mounting("image", ["noexec"], kind), "field", 37, VALID_VOLUMES)
    assert shown(errors) == [
        ("FieldValueInvalid", f'{at}: Invalid value: ["noexec"]: bindMountOptions may not be used with image volumes')
    ]


@pytest.mark.parametrize(
    ("volume", "options", "valid"),
    [
        ("foo", ["noexec"], VALID_VOLUMES),  # "valid single option" on an emptyDir
        ("image", None, VALID_VOLUMES),  # "nil options"
        ("image", [], VALID_VOLUMES),  # `len(mnt.BindMountOptions) > 0`
        ("image", ["noexec"], {"foo": EMPTY_DIR}),  # `volumes[mnt.Name]`: only the valid volumes
    ],
)
def test_bind_mount_options_beside_an_image_volume_are_accepted(volume: str, options: list[str] | None, valid: dict[str, Any]) -> None:
    """The image check needs options and a valid image volume of the mount's name."""
    assert validate_recent_pod_fields(_mounting(volume, options), "field", 37, valid) == []


@pytest.mark.parametrize(("release", "errors"), [(36, 0), (37, 1)])
def test_bind_mount_options_are_validated_from_1_37(release: int, errors: int) -> None:
    """v1.36.3 has no bindMountOptions; v1.37.2's ValidateVolumeMounts validates them."""
    spec = _mounting("foo", ["rw"])
    assert len(validate_recent_pod_fields(spec, "field", release, VALID_VOLUMES)) == errors


@pytest.mark.parametrize(
    ("volumes", "expected"),
    [
        (  # the image volume is the valid one: the mount is refused
            [{**IMAGE, "name": "v"}, {**EMPTY_DIR, "name": "v"}],
            [
                'spec.template.spec.volumes[1].name: Duplicate value: "v"',
                'spec.template.spec.containers[0].volumeMounts[0].bindMountOptions: Invalid value: ["noexec"]: '
                "bindMountOptions may not be used with image volumes",
            ],
        ),
        (  # the emptyDir is the valid one: the mount is accepted
            [{**EMPTY_DIR, "name": "v"}, {**IMAGE, "name": "v"}],
            ['spec.template.spec.volumes[1].name: Duplicate value: "v"'],
        ),
    ],
)
def test_the_image_check_uses_the_first_valid_volume_of_a_repeated_name(volumes: list[dict[str, Any]], expected: list[str]) -> None:
    """ValidateVolumes maps a repeated name to its first valid volume, which decides the image check."""
    manifest = job()
    spec = manifest["spec"]["template"]["spec"]
    spec["volumes"] = copy.deepcopy(volumes)
    spec["containers"][0]["volumeMounts"] = [{"name": "v", "mountPath": "/v", "bindMountOptions": ["noexec"]}]
    errors = strategy.job_validate(decode_object(manifest, "Job", release=37), gates_for("1.37"))
    assert [str(e) for e in errors] == expected


# ---------------------------------------------------------------------------- evictionResponders
# The declarative rules of v1.37.2: Validate_PodSpec and Validate_EvictionResponder
# (pkg/apis/core/v1/zz_generated.validations.go:393-470, 1363-1402), their custom rules
# (pkg/apis/core/v1/validation.go:31-71); the cases of RunDeclarativeValidateEvictionRespondersTestCases
# (test/declarative_validation/core/pod/eviction_responders.go), which test/declarative_validation/
# batch/job and batch/cronjob run at spec.template.spec and spec.jobTemplate.spec.template.spec.

S = "spec.template.spec"
E = f"{S}.evictionResponders"


def _responders(*items: dict[str, Any]) -> dict[str, Any]:
    return {"evictionResponders": [dict(i) for i in items]}


def _r(name: str, priority: int | None) -> dict[str, Any]:
    return {"name": name} if priority is None else {"name": name, "priority": priority}


@pytest.mark.parametrize(
    "spec",
    [
        _responders(),  # "none"
        _responders(_r("foo.example.com/bar", 1000)),  # "correct"
        _responders(_r("a.b.c.d.e.f.g.h.i.foo.example.com/bar", 10000)),  # "long"
        _responders(  # "long subdomains": a 253-character prefix
            _r("a" * 63 + "." + "b" * 63 + "." + "c" * 63 + "." + "d" * 49 + ".example.com/bar", 7000)
        ),
        _responders(_r("5.3.5.9/bar", 1000)),  # "numbers"
        _responders(_r("foo.example.com/test", 7500), _r("bar.example.com/baz", 7501)),  # "multiple"
        _responders(_r("foo.example.com/test", 7500), _r("bar.example.com/baz", 7500)),  # "multiple with the same priority"
    ],
)
def test_eviction_responders_are_accepted(spec: dict[str, Any]) -> None:
    """The accepted cases of RunDeclarativeValidateEvictionRespondersTestCases."""
    assert validate_eviction_responders_declaratively(spec, None, S) == []


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        (  # "max items": MaxItems(10) short-circuits
            _responders(*(_r(f"{i}-foo.example.com", 1000 + i) for i in range(11))),
            [("FieldValueTooMany", f"{E}: Too many: 11: must have at most 10 items")],
        ),
        (  # "duplicate": the bad value is the v1.EvictionResponder (json tags)
            _responders(_r("foo.example.com/test", 10000), _r("bar.example.com/test", 9000), _r("foo.example.com/test", 8000)),
            [("FieldValueDuplicate", f'{E}[2]: Duplicate value: {{"name":"foo.example.com/test","priority":8000}}')],
        ),
        (  # "empty name": RequiredValue short-circuits
            _responders(_r("", 5000), _r("foo.example.com/test", 10000)),
            [("FieldValueRequired", f"{E}[0].name: Required value")],
        ),
        (  # "one segment": content.IsPrefixedLabelKey
            _responders(_r("invalid", 10000)),
            [("FieldValueInvalid", f"{E}[0].name: Invalid value: \"invalid\": must include a prefix (e.g. 'example.com/key')")],
        ),
        (  # "underscores": content.IsLabelKey's prefix part
            _responders(_r("underscores_are_bad.example.com/bar", 10000)),
            [("FieldValueInvalid", f'{E}[0].name: Invalid value: "underscores_are_bad.example.com/bar": prefix part {SUBDOMAIN}')],
        ),
        (  # "reserved k8s.io domain"
            _responders(_r("k8s.io/key", 10000)),
            [("FieldValueInvalid", f'{E}[0].name: Invalid value: "k8s.io/key": {RESERVED}')],
        ),
        (  # "reserved kubernetes.io domain"
            _responders(_r("dev.kubernetes.io/key", 10000)),
            [("FieldValueInvalid", f'{E}[0].name: Invalid value: "dev.kubernetes.io/key": {RESERVED}')],
        ),
        (  # "priority required": RequiredPointer
            _responders(_r("foo.example.com/bar", None)),
            [("FieldValueRequired", f"{E}[0].priority: Required value")],
        ),
        (  # "negative priority": Minimum (content.MinError)
            _responders(_r("foo.example.com/bar", -1)),
            [("FieldValueInvalid", f"{E}[0].priority: Invalid value: -1: must be greater than or equal to 0")],
        ),
        (  # "priority over maximum": Maximum (content.MaxError)
            _responders(_r("foo.example.com/bar", 100001)),
            [("FieldValueInvalid", f"{E}[0].priority: Invalid value: 100001: must be less than or equal to 100000")],
        ),
        (  # "reserved priority - end"
            _responders(_r("foo.example.com/bar", 999)),
            [("FieldValueInvalid", f"{E}[0].priority: Invalid value: 999: {RESERVED_PRIORITY}")],
        ),
        (  # "reserved priority triggers unknown k8s responders"
            _responders(_r("dev.kubernetes.io/key", 0)),
            [
                ("FieldValueInvalid", f'{E}[0].name: Invalid value: "dev.kubernetes.io/key": {RESERVED}'),
                ("FieldValueInvalid", f"{E}[0].priority: Invalid value: 0: {RESERVED_PRIORITY}"),
            ],
        ),
    ],
)
def test_eviction_responders_are_refused(spec: dict[str, Any], expected: list[tuple[str, str]]) -> None:
    """The refused cases of RunDeclarativeValidateEvictionRespondersTestCases, with whole messages."""
    assert shown(validate_eviction_responders_declaratively(spec, None, S)) == expected


def test_a_duplicate_without_priority_shows_it_as_null() -> None:
    """ValSliceUnique's bad value is the v1 struct: `json:"priority"` without omitempty, a nil
    pointer as null (vector "1.37: a duplicate evictionResponder ..." of validation-messages.json)."""
    spec = _responders(_r("example.com/a", 1000), _r("example.com/a", None))
    assert shown(validate_eviction_responders_declaratively(spec, None, S)) == [
        ("FieldValueDuplicate", f'{E}[1]: Duplicate value: {{"name":"example.com/a","priority":null}}'),
        ("FieldValueRequired", f"{E}[1].priority: Required value"),
    ]


def test_an_update_revalidates_only_what_changed() -> None:
    """EachValSliceVal matches old items by name and skips an unchanged name or priority (vector
    "1.37: evictionResponders on update: an item of an old name is checked only in what changed"
    of validation-release-fields.json): "bad" keeps its name, its new priority is checked."""
    new = _responders(_r("bad", 6), _r("example.com/r", 200000))
    old = _responders(_r("bad", 5))
    assert shown(validate_eviction_responders_declaratively(new, old, S)) == [
        ("FieldValueInvalid", f"{E}[0].priority: Invalid value: 6: {RESERVED_PRIORITY}"),
        ("FieldValueInvalid", f"{E}[1].priority: Invalid value: 200000: must be less than or equal to 100000"),
    ]


def test_an_unchanged_list_is_not_revalidated_on_update() -> None:
    """Validate_PodSpec returns nothing when the list is Semantic.DeepEqual to the old one."""
    spec = _responders(_r("bad", 5), _r("bad", None))
    assert validate_eviction_responders_declaratively(spec, copy.deepcopy(spec), S) == []
    assert len(validate_eviction_responders_declaratively(spec, None, S)) == 5


def test_eviction_responders_of_a_job_and_a_cron_job() -> None:
    """batch/job and batch/cronjob declarative_validation_test.go run the cases through each
    strategy at 1.37: "reserved priority triggers unknown k8s responders" at both paths."""
    manifest = job()
    manifest["spec"]["template"]["spec"]["evictionResponders"] = [_r("dev.kubernetes.io/key", 0)]
    errors = strategy.job_validate(decode_object(manifest, "Job", release=37), gates_for("1.37"))
    assert [e.field for e in errors] == [f"{E}[0].name", f"{E}[0].priority"]
    cron = cron_job()
    cron["spec"]["jobTemplate"]["spec"]["template"]["spec"]["evictionResponders"] = [_r("dev.kubernetes.io/key", 0)]
    errors = strategy.cron_job_validate(decode_object(cron, "CronJob", release=37), gates_for("1.37"))
    c = "spec.jobTemplate.spec.template.spec.evictionResponders[0]"
    assert shown(errors) == [
        ("FieldValueInvalid", f'{c}.name: Invalid value: "dev.kubernetes.io/key": {RESERVED}'),
        ("FieldValueInvalid", f"{c}.priority: Invalid value: 0: {RESERVED_PRIORITY}"),
    ]


def test_a_job_with_a_scheduling_group_beside_eviction_responders() -> None:
    """"schedulingGroup not supported" through the Job strategy: the hand-written Forbidden once."""
    manifest = job()
    spec = manifest["spec"]["template"]["spec"]
    spec["schedulingGroup"] = {"podGroupName": "blue"}
    spec["evictionResponders"] = [RESPONDER]
    errors = strategy.job_validate(decode_object(manifest, "Job", release=37), gates_for("1.37"))
    assert shown(errors) == [("FieldValueForbidden", f"{S}.schedulingGroup: Forbidden: may not be set when evictionResponders is set")]


# ---------------------------------------------------------------------------- the custom rules
# content.IsPrefixedLabelKey and content.IsLabelKey (apimachinery v0.37.2
# pkg/api/validate/content/kube.go:43-117, MaxLenError in bytes: errors.go:40), and
# ValidateForbiddenReservedDomainSuffixes (k8s.io/kubernetes v1.37.2 pkg/apis/core/v1/validation.go:53-71).

LABEL_KEY = (
    "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
    "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation "
    "is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' "
    "(e.g. 'example.com/MyName')"
)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("example.com/key", []),
        ("key", ["must include a prefix (e.g. 'example.com/key')"]),
        ("a/b/c", [LABEL_KEY]),
        ("/key", ["prefix part must be non-empty"]),
        ("example.com/" + "k" * 64, ["name part must be no more than 63 bytes"]),
    ],
)
def test_a_prefixed_label_key(value: str, expected: list[str]) -> None:
    """content.IsPrefixedLabelKey: IsLabelKey's messages first, then the prefix requirement."""
    assert is_prefixed_label_key(value) == expected


@pytest.mark.parametrize(
    ("value", "reserved"),
    [
        ("k8s.io/key", True),  # the suffix's domain itself
        ("X.K8S.IO./r", True),  # lowered, trailing dots trimmed
        (" dev.kubernetes.io /r", True),  # spaces trimmed
        ("kubernetes.io", True),  # no '/': the whole value
        ("ak8s.io/x", False),  # no dot before the suffix
        ("example.com/k8s.io", False),  # only the prefix is looked at
    ],
)
def test_a_reserved_domain_suffix(value: str, reserved: bool) -> None:
    """ValidateForbiddenReservedDomainSuffixes on the part before the first '/'."""
    errors = validate_forbidden_reserved_domain_suffixes(value, "p")
    assert [(e.type, e.detail) for e in errors] == ([("FieldValueInvalid", RESERVED)] if reserved else [])


def test_a_dotted_capital_i_lowers_to_a_reserved_domain() -> None:
    """Go's ToLower makes "x.k8s.\u0130o" "x.k8s.io": reserved."""
    errors = validate_forbidden_reserved_domain_suffixes("x.k8s.\u0130o/r", "p")
    assert [(e.type, e.detail) for e in errors] == [("FieldValueInvalid", RESERVED)]


def test_a_trailing_information_separator_is_not_trimmed() -> None:
    """Go's TrimSpace leaves "x.k8s.io\\x1c", which does not end with ".k8s.io": not reserved."""
    assert validate_forbidden_reserved_domain_suffixes("x.k8s.io\x1c/r", "p") == []


# ---------------------------------------------------------------------------- vectors
# Cases of tests/differential/vectors whose expectations upstream's code produced (harness/upstream).


@cache
def _vector_cases(name: str) -> dict[str, dict[str, Any]]:
    cases = json.loads((VECTORS / name).read_text())["cases"]
    return {c["name"]: c for c in cases}


@pytest.mark.parametrize(
    ("vectors", "case"),
    [
        ("validation-release-fields.json", "1.34: hostnameOverride: no DNS subdomain, and beside setHostnameAsFQDN"),
        ("validation-release-fields.json", "1.35: workloadRef: the name a DNS subdomain, the pod group a DNS label"),
        ("validation-release-fields.json", "1.36: schedulingGroup without a podGroupName"),
        (
            "validation-release-fields.json",
            "1.37: evictionResponders: declarative rules (prefixed name, reserved priorities, minimum, "
            "required, unique) and schedulingGroup beside them",
        ),
        ("validation-release-fields.json", "1.37: bindMountOptions: unsupported and repeated options"),
        (
            "validation-messages.json",
            "1.37: a duplicate evictionResponder (a v1.EvictionResponder: json tags, a nil priority as null)",
        ),
    ],
)
def test_an_upstream_vector(vectors: str, case: str) -> None:
    """The model's errors of the vector are upstream's, message for message and in order."""
    vector = _vector_cases(vectors)[case]
    got = model_outcome(vector)
    expected = [(e["type"], e["message"]) for e in vector["expect"]["errors"]]
    assert [(e["type"], e["message"]) for e in got["errors"]] == expected
