"""Strict decoding: unknown fields and wrong types name the place."""

from __future__ import annotations

from typing import Any

import pytest

from jobmodel.api.schema import UnknownFieldsError, check_object, decode_object
from jobmodel.errors import InputError
from tests.api.helpers import cron_job, job


def test_valid_objects_pass() -> None:
    check_object(job(), "Job")
    check_object(cron_job(), "CronJob")
    # Decoded as given: every field is known and well typed, so nothing is dropped or changed.
    assert decode_object(job(), "Job") == job()
    assert decode_object(cron_job(), "CronJob") == cron_job()
    # A null field is absent (Go's decoder leaves the pointer nil), the rest unchanged.
    assert decode_object(job(completions=None, parallelism=2), "Job") == job(parallelism=2)


@pytest.mark.parametrize(
    ("patch", "field", "reason"),
    [
        ({"foo": 1}, "spec.foo", "unknown field"),
        ({"completions": "3"}, "spec.completions", 'expected an integer, got the string "3"'),
        ({"completions": 2**31}, "spec.completions", "does not fit in int32"),
        ({"suspend": "yes"}, "spec.suspend", "expected a boolean"),
        ({"completions": 1.5}, "spec.completions", "expected an integer, got the number 1.5"),
        (
            {"template": {"spec": {"containers": [{"name": "a", "imagee": "x"}]}}},
            "spec.template.spec.containers[0].imagee",
            "unknown field",
        ),
        (
            {"selector": {"matchLabels": {"a": 1}}},
            "spec.selector.matchLabels[a]",
            "expected a string",
        ),
        (
            {"template": {"spec": {"containers": [{"name": "a", "livenessProbe": {"tcpSocket": {"port": [80]}}}]}}},
            "spec.template.spec.containers[0].livenessProbe.tcpSocket.port",
            "expected an integer or a string, got a list",
        ),
        (
            {"template": {"spec": {"containers": [{"name": "a", "readinessProbe": {"httpGet": {"port": 2**31}}}]}}},
            "spec.template.spec.containers[0].readinessProbe.httpGet.port",
            "",
        ),
        (
            {"template": {"spec": {"securityContext": {"runAsUser": "root"}, "containers": [{"name": "a"}]}}},
            "spec.template.spec.securityContext.runAsUser",
            "expected an integer",
        ),
        (
            {"template": {"spec": {"dnsConfig": {"options": [{"name": 1}]}, "containers": [{"name": "a"}]}}},
            "spec.template.spec.dnsConfig.options[0].name",
            "expected a string",
        ),
    ],
)
def test_errors_name_the_field(patch: dict[str, object], field: str, reason: str) -> None:
    with pytest.raises(InputError) as info:
        check_object(job(**patch), "Job")
    assert info.value.field == field
    assert reason in info.value.reason


def test_not_an_object() -> None:
    with pytest.raises(InputError, match="expected an object, got a list"):
        check_object([1], "Job")


def test_nulls_decode_to_absent_fields_and_zero_items() -> None:
    from jobmodel.api.schema import decode_object

    obj = job(completions=None, selector={"matchLabels": {"a": None}})
    obj["metadata"]["finalizers"] = [None]
    decoded = decode_object(obj, "Job")
    assert "completions" not in decoded["spec"]
    assert decoded["spec"]["selector"]["matchLabels"] == {"a": ""}
    assert decoded["metadata"]["finalizers"] == [""]


def test_volume_names_are_typed() -> None:
    obj = job()
    obj["spec"]["template"]["spec"]["volumes"] = [{"name": 5, "emptyDir": {}}]
    with pytest.raises(InputError, match=r"volumes\[0\]\.name"):
        check_object(obj, "Job")


@pytest.mark.parametrize(
    ("volume", "mounts", "field"),
    [
        ({"name": "a", "secret": {"defaultMode": "0644"}}, [], r"volumes\[0\]\.secret\.defaultMode"),
        ({"name": "a", "projected": {"sources": ["s"]}}, [], r"volumes\[0\]\.projected\.sources\[0\]"),
        ({"name": "a", "emptyDir": {"sizeLimit": "1Gb"}}, [], r"volumes\[0\]\.emptyDir\.sizeLimit"),
        ({"name": "a", "emptyDir": {}}, [{"name": "a", "mountPath": "/a", "readOnly": "yes"}], r"volumeMounts\[0\]\.readOnly"),
    ],
)
def test_volume_sources_and_mounts_are_typed(volume: dict[str, object], mounts: list[object], field: str) -> None:
    obj = job()
    obj["spec"]["template"]["spec"]["volumes"] = [volume]
    obj["spec"]["template"]["spec"]["containers"][0]["volumeMounts"] = mounts
    with pytest.raises(InputError, match=field):
        check_object(obj, "Job")


def test_times_must_be_rfc3339() -> None:
    obj = job()
    obj["status"] = {"startTime": "yesterday"}
    with pytest.raises(InputError) as info:
        check_object(obj, "Job")
    assert info.value.field == "status.startTime"


def test_a_pod_status_keeps_the_fields_the_model_does_not_read() -> None:
    from jobmodel.api.schema import decode_object

    pod: dict[str, Any] = {"apiVersion": "v1", "kind": "Pod", "status": {"phase": "Running", "podIP": "10.0.0.1", "hostIPs": [{"ip": "x"}]}}
    assert decode_object(pod, "Pod")["status"]["podIP"] == "10.0.0.1"
    pod["status"]["phase"] = 3
    with pytest.raises(InputError) as info:
        check_object(pod, "Pod")
    assert (info.value.field, info.value.reason) == ("status.phase", "expected a string, got the integer 3")


@pytest.mark.parametrize(("key", "value"), [("kind", "CronJob"), ("apiVersion", "batch/v2")])
def test_the_kind_and_version_must_be_the_objects(key: str, value: str) -> None:
    with pytest.raises(InputError) as info:
        check_object({**job(), key: value}, "Job")
    assert info.value.field == key and f"the string \"{value}\"" in info.value.reason


def test_the_formats_around_objects_say_the_same_as_the_decoder() -> None:
    from jobmodel.api.schema import I32, check_known, member

    with pytest.raises(InputError) as decoded:
        check_object(job(completions="3"), "Job")
    with pytest.raises(InputError) as read:
        member({"completions": "3"}, "completions", I32, "spec")
    assert str(read.value) == str(decoded.value)
    with pytest.raises(InputError) as unknown:
        check_known({"foo": 1}, {"bar"}, "spec")
    assert str(unknown.value) == "spec.foo: unknown field"


# Fields added after 1.32, with the first release whose k8s.io/api types have them (core/v1 and
# batch/v1 types.go of v0.32.3 ... v0.37.2); 1.35's PodSpec.workloadRef is gone in 1.36.
RELEASE_FIELDS: list[tuple[dict[str, Any], str, int, int | None]] = [
    ({"template": {"spec": {"containers": [{"name": "a", "lifecycle": {"stopSignal": "SIGTERM"}}]}}}, "spec.template.spec.containers[0].lifecycle.stopSignal", 33, None),
    ({"template": {"spec": {"hostnameOverride": "h"}}}, "spec.template.spec.hostnameOverride", 34, None),
    ({"template": {"spec": {"containers": [{"name": "a", "restartPolicyRules": []}]}}}, "spec.template.spec.containers[0].restartPolicyRules", 34, None),
    ({"template": {"spec": {"containers": [{"name": "a", "env": [{"name": "E", "valueFrom": {"fileKeyRef": {}}}]}]}}},
     "spec.template.spec.containers[0].env[0].valueFrom.fileKeyRef", 34, None),
    ({"template": {"spec": {"workloadRef": {"name": "w", "podGroup": "g"}}}}, "spec.template.spec.workloadRef", 35, 35),
    ({"template": {"spec": {"schedulingGroup": {"podGroupName": "g"}}}}, "spec.template.spec.schedulingGroup", 36, None),
    ({"template": {"spec": {"evictionResponders": [{"name": "r", "priority": 1}]}}}, "spec.template.spec.evictionResponders", 37, None),
    ({"template": {"spec": {"containers": [{"name": "a", "volumeMounts": [{"name": "v", "mountPath": "/m", "bindMountOptions": ["ro"]}]}]}}},
     "spec.template.spec.containers[0].volumeMounts[0].bindMountOptions", 37, None),
    ({"template": {"spec": {"containers": [{"name": "a", "livenessProbe": {"httpGet": {"port": 80, "protocol": "HTTP"}}}]}}},
     "spec.template.spec.containers[0].livenessProbe.httpGet.protocol", 37, None),
    ({"template": {"spec": {"containers": [{"name": "a", "livenessProbe": {"grpc": {"port": 80, "mode": "x"}}}]}}},
     "spec.template.spec.containers[0].livenessProbe.grpc.mode", 37, None),
    ({"scheduling": {}}, "spec.scheduling", 37, None),
]  # fmt: skip


@pytest.mark.parametrize(("patch", "field", "first", "last"), RELEASE_FIELDS)
@pytest.mark.parametrize("release", range(32, 38))
def test_a_field_is_unknown_to_the_releases_whose_types_lack_it(
    patch: dict[str, Any], field: str, first: int, last: int | None, release: int
) -> None:
    obj = job(**patch)
    if first <= release and (last is None or release <= last):
        assert decode_object(obj, "Job", release=release) == job(**patch)  # known: kept as given
        return
    with pytest.raises(InputError) as err:
        decode_object(obj, "Job", release=release)
    assert (err.value.field, err.value.reason) == (field, "unknown field")


def test_without_a_release_every_field_is_known() -> None:
    decoded = 0
    for patch, field, *_ in RELEASE_FIELDS:
        value = decode_object(job(**patch), "Job")
        assert value == job(**patch), field  # kept as given, the field with it
        decoded += 1
    assert decoded == len(RELEASE_FIELDS) > 0


def test_every_unknown_field_is_named_first_one_first() -> None:
    """The API server's strict decoding error lists every unknown field in the document's order
    (`unknown field "spec.bogus", unknown field "spec.template.spec.containers[0].foo"`)."""
    obj = {"kind": "Job", "spec": {"bogus": 1, "template": {"spec": {"containers": [{"name": "a", "foo": "x", "bar": 2}]}}}}
    with pytest.raises(InputError) as err:
        decode_object(obj, "Job")
    assert err.value.field == "spec.bogus"
    assert err.value.reason == (
        "unknown field (also unknown: spec.template.spec.containers[0].foo, spec.template.spec.containers[0].bar)"
    )
    assert isinstance(err.value, UnknownFieldsError)
    assert err.value.fields == ["spec.bogus", "spec.template.spec.containers[0].foo", "spec.template.spec.containers[0].bar"]
    with pytest.raises(InputError) as alone:
        decode_object({"kind": "Job", "spec": {"bogus": 1}}, "Job")
    assert (alone.value.field, alone.value.reason) == ("spec.bogus", "unknown field")


def test_a_mistyped_value_is_named_before_an_unknown_field() -> None:
    """sigs.k8s.io/json UnmarshalStrict returns the decoding error and the unknown fields apart;
    the API server's serializer reports the decoding error first."""
    obj = job(template={"spec": {"hostnameOverride": "h", "containers": [{"name": "a", "resources": {"requests": {"cpu": "1Gb"}}}]}})
    with pytest.raises(InputError) as err:
        decode_object(obj, "Job", release=33)
    assert err.value.field == "spec.template.spec.containers[0].resources.requests[cpu]"
    obj["spec"]["template"]["spec"]["containers"][0]["resources"] = {}
    with pytest.raises(InputError) as err:
        decode_object(obj, "Job", release=33)
    assert err.value.field == "spec.template.spec.hostnameOverride"


@pytest.mark.parametrize(
    ("pod", "field", "reason"),
    [
        ({"readinessGates": [{"conditionType": "a", "Name": "x"}]}, "spec.template.spec.readinessGates[0].Name", "unknown field"),
        ({"readinessGates": [{"conditionType": 1}]}, "spec.template.spec.readinessGates[0].conditionType", "expected a string"),
        ({"imagePullSecrets": [{"name": "a", "key": "x"}]}, "spec.template.spec.imagePullSecrets[0].key", "unknown field"),
        ({"containers": [{"name": "a", "resizePolicy": [{"resourceName": "cpu", "x": 1}]}]},
         "spec.template.spec.containers[0].resizePolicy[0].x", "unknown field"),
        ({"ephemeralContainers": [{"name": "d", "NAME": "x"}]}, "spec.template.spec.ephemeralContainers[0].NAME", "unknown field"),
        ({"ephemeralContainers": [{"name": "d", "stdin": "yes"}]}, "spec.template.spec.ephemeralContainers[0].stdin", "expected a boolean"),
    ],
)  # fmt: skip
def test_pod_lists_items_are_typed(pod: dict[str, Any], field: str, reason: str) -> None:
    """PodReadinessGate, LocalObjectReference, ContainerResizePolicy and EphemeralContainer (a
    Container's fields and targetContainerName) are structs: Go's strict decoder refuses unknown
    fields and wrong types in them (upstream's answers, found by differential fuzzing)."""
    with pytest.raises(InputError) as err:
        decode_object(job(template={"spec": pod}), "Job", release=37)
    assert err.value.field == field
    assert reason in err.value.reason


def test_an_ephemeral_container_decodes_as_a_container() -> None:
    ephemeral = {"name": "d", "image": "b", "targetContainerName": "main", "resources": {"limits": {"cpu": "1.5"}}}
    decoded = decode_object(job(template={"spec": {"ephemeralContainers": [ephemeral]}}), "Job", release=37)
    assert decoded["spec"]["template"]["spec"]["ephemeralContainers"][0]["resources"]["limits"]["cpu"] == "1500m"


def test_without_unknown_fields_leaves_them_out_and_names_them() -> None:
    """What the decoder does under fieldValidation Warn and Ignore: the unknown fields (those a
    release's types lack among them) left out, named in the document's order; an object without
    any comes back as given."""
    from jobmodel.api.schema import without_unknown_fields

    obj = {"kind": "Job", "spec": {"bogus": None, "template": {"spec": {"hostnameOverride": "h", "containers": [{"name": "a", "x": 1}]}}}}
    pruned, unknown = without_unknown_fields(obj, "Job", release=33)
    assert unknown == ["spec.bogus", "spec.template.spec.hostnameOverride", "spec.template.spec.containers[0].x"]
    assert pruned == {"kind": "Job", "spec": {"template": {"spec": {"containers": [{"name": "a"}]}}}}
    assert decode_object(pruned, "Job", release=33) == pruned
    _, unknown_at_34 = without_unknown_fields(obj, "Job", release=34)
    assert unknown_at_34 == ["spec.bogus", "spec.template.spec.containers[0].x"]
    clean = job()
    assert without_unknown_fields(clean, "Job") == (clean, [])
    with pytest.raises(InputError) as err:
        without_unknown_fields(job(completions="3", bogus=1), "Job")
    assert err.value.field == "spec.completions"
