"""Strict decoding: unknown fields and wrong types name the place."""

from __future__ import annotations

import pytest

from jobmodel.api.schema import check_object
from jobmodel.errors import InputError
from tests.api.helpers import cron_job, job


def test_valid_objects_pass() -> None:
    check_object(job(), "Job")
    check_object(cron_job(), "CronJob")


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

    pod = {"apiVersion": "v1", "kind": "Pod", "status": {"phase": "Running", "podIP": "10.0.0.1", "hostIPs": [{"ip": "x"}]}}
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
