"""The seccomp and AppArmor annotations of a pod template (jobmodel/api/pod_annotations.py);
cases from upstream's TestValidateSeccompAnnotationsAndFieldsMatch, TestValidatePodTemplateSpecSeccomp,
TestValidateAppArmorProfileFormat and the code of ValidatePodSpecificAnnotations."""

from __future__ import annotations

from typing import Any

import pytest

from jobmodel.api.pod_annotations import (
    get_tolerations_from_pod_annotations,
    validate_app_armor_annotations_and_fields_match_on_create,
    validate_app_armor_pod_annotations,
    validate_app_armor_profile_format,
    validate_pod_specific_annotations,
    validate_seccomp_annotations_and_fields_match,
    validate_seccomp_pod_annotations,
)
from jobmodel.api.pod_validation import pod_validation_options, validate_pod_template_spec
from tests.api.helpers import pairs, pod_template

A = "annotations"
SECCOMP_POD = "seccomp.security.alpha.kubernetes.io/pod"
SECCOMP_CTR = "container.seccomp.security.alpha.kubernetes.io/"
APPARMOR_CTR = "container.apparmor.security.beta.kubernetes.io/"
MISMATCH = "seccomp type in annotation and field must match"
PROFILE_MISMATCH = "seccomp profile in annotation and field must match"


@pytest.mark.parametrize(
    ("annotation", "field", "want"),
    [
        ("unconfined", {"type": "Unconfined"}, None),
        ("runtime/default", {"type": "RuntimeDefault"}, None),
        ("docker/default", {"type": "RuntimeDefault"}, None),
        ("localhost/test.json", {"type": "Localhost", "localhostProfile": "test.json"}, None),
        ("localhost/test.json", {"type": "Localhost"}, (".localhostProfile", PROFILE_MISMATCH)),
        ("localhost/test.json", {"type": "Localhost", "localhostProfile": "different.json"}, (".localhostProfile", PROFILE_MISMATCH)),
        ("localhost/test.json", {"type": "Unconfined"}, (".type", MISMATCH)),
        ("localhost/test.json", {"type": "RuntimeDefault"}, (".type", MISMATCH)),
        ("runtime/default", {"type": "Localhost", "localhostProfile": "x"}, (".type", MISMATCH)),
    ],
)
def test_seccomp_annotations_and_fields_match(annotation: str, field: dict[str, Any], want: tuple[str, str] | None) -> None:
    errors = validate_seccomp_annotations_and_fields_match(annotation, field, "p")
    assert [(e.field, e.type, e.detail) for e in errors] == ([] if want is None else [(f"p{want[0]}", "FieldValueForbidden", want[1])])


def test_seccomp_annotation_values() -> None:
    ok = {SECCOMP_POD: "runtime/default", SECCOMP_CTR + "a": "docker/default", SECCOMP_CTR + "b": "unconfined", SECCOMP_CTR + "c": "localhost/p.json"}
    assert validate_seccomp_pod_annotations(ok, A) == []
    errors = validate_seccomp_pod_annotations({SECCOMP_POD: "bogus", SECCOMP_CTR + "a": "localhost//abs", SECCOMP_CTR + "b": "localhost/../x", "other": "bogus"}, A)
    assert {str(e) for e in errors} == {
        f'{A}.{SECCOMP_POD}: Invalid value: "bogus": must be a valid seccomp profile',
        f'{A}.{SECCOMP_CTR}a: Invalid value: "/abs": must be a relative path',
        f'{A}.{SECCOMP_CTR}b: Invalid value: "../x": must not contain \'..\'',
    }


@pytest.mark.parametrize(("profile", "valid"), [("", True), ("runtime/default", True), ("unconfined", True), ("baz", False), ("localhost//usr/sbin/ntpd", True), ("localhost/foo-bar", True)])
def test_app_armor_profile_format(profile: str, valid: bool) -> None:
    assert (validate_app_armor_profile_format(profile) is None) == valid


def test_app_armor_annotations_name_a_container() -> None:
    spec = {"containers": [{"name": "main"}], "initContainers": [{"name": "init"}]}
    assert validate_app_armor_pod_annotations({APPARMOR_CTR + "main": "runtime/default", APPARMOR_CTR + "init": "localhost/x"}, spec, A) == []
    errors = validate_app_armor_pod_annotations({APPARMOR_CTR + "nope": "baz"}, spec, A)
    assert [str(e) for e in errors] == [
        f'{A}[{APPARMOR_CTR}nope]: Invalid value: "nope": container not found',
        f'{A}[{APPARMOR_CTR}nope]: Invalid value: "baz": invalid AppArmor profile name: "baz"',
    ]


def test_app_armor_annotations_and_fields_on_create() -> None:
    spec: dict[str, Any] = {
        "securityContext": {"appArmorProfile": {"type": "RuntimeDefault"}},
        "containers": [{"name": "a"}, {"name": "b", "securityContext": {"appArmorProfile": {"type": "Localhost", "localhostProfile": "p"}}}, {"name": "c"}],
    }
    annotations = {APPARMOR_CTR + "a": "unconfined", APPARMOR_CTR + "b": "localhost/q", APPARMOR_CTR + "c": "runtime/default"}
    errors = validate_app_armor_annotations_and_fields_match_on_create(annotations, spec, "spec")
    assert [str(e) for e in errors] == [
        "spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match",
        "spec.containers[1].securityContext.appArmorProfile.localhostProfile: Forbidden: apparmor profile in annotation and field must match",
    ]
    assert validate_app_armor_annotations_and_fields_match_on_create(annotations, {**spec, "os": {"name": "windows"}}, "spec") == []
    assert validate_app_armor_annotations_and_fields_match_on_create(annotations, {"containers": spec["containers"][:1]}, "spec") == []


def test_seccomp_field_and_container_annotation_in_a_template() -> None:
    # TestValidatePodTemplateSpecSeccomp's first case: the second container's field against its annotation.
    template = pod_template()
    template["metadata"]["annotations"] = {SECCOMP_CTR + "test2": "unconfined"}
    template["spec"]["containers"] = [
        {**template["spec"]["containers"][0], "name": "test1"},
        {**template["spec"]["containers"][0], "name": "test2", "securityContext": {"seccompProfile": {"type": "RuntimeDefault"}}},
    ]
    errors = validate_pod_template_spec(template, "template", pod_validation_options(32, None))
    assert pairs(errors) == {("template.spec.containers[1].securityContext.seccompProfile.type", "FieldValueForbidden")}
    template["spec"]["securityContext"] = {"seccompProfile": {"type": "Unconfined"}}
    template["metadata"]["annotations"][SECCOMP_POD] = "runtime/default"
    errors = validate_pod_template_spec(template, "template", pod_validation_options(37, None))
    assert pairs(errors) == {
        ("template.spec.containers[1].securityContext.seccompProfile.type", "FieldValueForbidden"),
        ("template.spec.securityContext.seccompProfile.type", "FieldValueForbidden"),
    }


@pytest.mark.parametrize(("cost", "valid"), [("0", True), ("10", True), ("-10", True), ("-05", True), ("2147483647", True), ("-2147483648", True),
                                             ("2147483648", False), ("+10", False), ("008", False), ("", False), ("-", False), ("1.5", False), ("a", False),
                                             ("1_0", False), ("1" * 5000, False)])  # fmt: skip
def test_deletion_cost_is_a_32_bit_integer(cost: str, valid: bool) -> None:
    # GetDeletionCostFromPodAnnotations: validFirstDigit, then strconv.ParseInt(value, 10, 32).
    annotations = {"controller.kubernetes.io/pod-deletion-cost": cost}
    errors = validate_pod_specific_annotations(annotations, {}, A)
    assert [str(e) for e in errors] == ([] if valid else [f'{A}[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "{cost}": must be a 32bit integer'])
    assert validate_pod_specific_annotations(annotations, {}, A, allow_invalid_pod_deletion_cost=True) == []


def test_mirror_pod_annotation_needs_a_node_name() -> None:
    annotations = {"kubernetes.io/config.mirror": "x"}
    errors = validate_pod_specific_annotations(annotations, {}, A)
    assert [str(e) for e in errors] == [f'{A}[kubernetes.io/config.mirror]: Invalid value: "x": must set spec.nodeName if mirror pod annotation is set']
    assert validate_pod_specific_annotations(annotations, {"nodeName": "n"}, A) == []


def test_an_invalid_deletion_cost_kept_on_update() -> None:
    template = pod_template()
    template["metadata"]["annotations"] = {"controller.kubernetes.io/pod-deletion-cost": "+1"}
    assert pairs(validate_pod_template_spec(template, "t", pod_validation_options(37, None))) == {
        ("t.annotations[controller.kubernetes.io/pod-deletion-cost]", "FieldValueInvalid")
    }
    opts = pod_validation_options(37, template["spec"], template["metadata"])
    assert validate_pod_template_spec(template, "t", opts) == []


@pytest.mark.parametrize(
    ("value", "want"),
    [
        ('[{"KEY": "k", "Operator": "Exists", "unknown": 1, "tolerationSeconds": null}]', [{"key": "k", "operator": "Exists"}]),
        ("null", []),
        ('[null, {"key": null, "value": "v"}]', [{}, {"value": "v"}]),
        ('[{"tolerationSeconds": 5}]', [{"tolerationSeconds": 5}]),
        # foldName (Go 1.26's json.Unmarshal): the Kelvin sign folds to K, the ligature U+FB00 to no `FF`.
        ('[{"e\ufb00ect": "NoSchedule", "\u212aey": "k"}]', [{"key": "k"}]),
        # A lone surrogate escape is U+FFFD to Go.
        (r'[{"key": "\ud800x\ud83d\ude00"}]', [{"key": "\ufffdx\U0001f600"}]),
    ],
)
def test_tolerations_annotation_decoded(value: str, want: list[dict[str, Any]]) -> None:
    assert get_tolerations_from_pod_annotations({"scheduler.alpha.kubernetes.io/tolerations": value}) == want


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("{}", "json: cannot unmarshal object into Go value of type []core.Toleration"),
        ('["a"]', "json: cannot unmarshal string into Go value of type core.Toleration"),
        ('[{"key": 5}]', "json: cannot unmarshal number into Go struct field Toleration.Key of type string"),
        ('[{"operator": true}, {"key": []}]', "json: cannot unmarshal bool into Go struct field Toleration.Operator of type core.TolerationOperator"),
        ('[{"tolerationSeconds": 1.5}]', "json: cannot unmarshal number 1.5 into Go struct field Toleration.TolerationSeconds of type int64"),
        ('[{"tolerationSeconds": "5"}]', "json: cannot unmarshal string into Go struct field Toleration.TolerationSeconds of type int64"),
        ("[1 2]", "invalid character '2' after array element"),
        # strconv.ParseInt refuses it as out of range, however many digits (int() stops at 4300).
        ('[{"tolerationSeconds": ' + "1" * 5000 + "}]",
         "json: cannot unmarshal number " + "1" * 5000 + " into Go struct field Toleration.TolerationSeconds of type int64"),
    ],
)  # fmt: skip
def test_tolerations_annotation_refused(value: str, message: str) -> None:
    with pytest.raises(ValueError) as err:
        get_tolerations_from_pod_annotations({"scheduler.alpha.kubernetes.io/tolerations": value})
    assert str(err.value) == message


def test_app_armor_profile_format_error_quotes_as_go() -> None:
    """ValidateAppArmorProfileFormat's %q: strconv.Quote (DEL as \\x7f, U+00A0 as \\u00a0, é kept)."""
    assert validate_app_armor_profile_format("é\u00a0\x7f") == 'invalid AppArmor profile name: "é\\u00a0\\x7f"'
