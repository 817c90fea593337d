"""Env vars, port names and host aliases in a pod template (jobmodel.api.pod_env), against the
rules and messages of `pkg/apis/core/validation/validation.go` at each release."""

from __future__ import annotations

from typing import Any

import pytest

from jobmodel.api import pod_env
from jobmodel.api.defaults import set_defaults_container
from jobmodel.api.pod_validation import pod_validation_options, validate_pod_template_spec
from jobmodel.api.quantity import decode_quantity
from jobmodel.api.strategy import drop_disabled_template_fields
from jobmodel.errors import InputError
from jobmodel.features import FeatureGates
from tests.api.helpers import pod_template

CTR = "spec.template.spec.containers[0]"


def _messages(release: int = 37, old: dict[str, Any] | None = None, **container: Any) -> set[str]:
    template = pod_template()
    template["spec"]["containers"][0].update(container)
    return {str(e) for e in validate_pod_template_spec(template, "spec.template", pod_validation_options(release, old))}


def _pod_messages(release: int = 37, **spec: Any) -> set[str]:
    template = pod_template()
    template["spec"].update(spec)
    return {str(e) for e in validate_pod_template_spec(template, "spec.template", pod_validation_options(release, None))}


NO_SOURCE_OLD = "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"
NO_SOURCE_NEW = "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`"


def test_value_beside_a_source_and_two_sources() -> None:
    ref = {"configMapKeyRef": {"name": "cfg", "key": "k"}}
    assert _messages(env=[{"name": "A", "value": "v", "valueFrom": ref}]) == {
        f'{CTR}.env[0].valueFrom: Invalid value: "": may not be specified when `value` is not empty'
    }
    two = {**ref, "secretKeyRef": {"name": "s", "key": "k"}}
    assert _messages(env=[{"name": "A", "valueFrom": two}]) == {
        f'{CTR}.env[0].valueFrom: Invalid value: "": may not have more than one field specified at a time'
    }


@pytest.mark.parametrize(
    ("release", "old_reads_a_file", "message"),
    [(32, False, NO_SOURCE_OLD), (34, False, NO_SOURCE_OLD), (34, True, NO_SOURCE_NEW), (35, False, NO_SOURCE_NEW), (37, False, NO_SOURCE_NEW)],
)
def test_no_source_wording_follows_env_files(release: int, old_reads_a_file: bool, message: str) -> None:
    """useAllowEnvFilesValidation: EnvFiles is alpha (off) in 1.34, beta (on) from 1.35; 1.34
    allows it when the old template reads a file."""
    file_ref = {"fileKeyRef": {"volumeName": "data", "path": "p", "key": "K"}}
    old = {"containers": [{"name": "c", "env": [{"name": "A", "valueFrom": file_ref}]}]} if old_reads_a_file else None
    assert _messages(release, old, env=[{"name": "A", "valueFrom": {}}]) == {f'{CTR}.env[0].valueFrom: Invalid value: "": {message}'}


def test_file_key_ref_is_unknown_before_1_34_and_checked_after() -> None:
    bad = {"fileKeyRef": {"volumeName": "Data", "path": "a/../b", "key": "A=B"}}
    assert _messages(33, env=[{"name": "A", "valueFrom": bad}]) == {f'{CTR}.env[0].valueFrom: Invalid value: "": {NO_SOURCE_OLD}'}
    assert {m.split(":")[0] for m in _messages(34, env=[{"name": "A", "valueFrom": bad}])} == {
        f"{CTR}.env[0].valueFrom.fileKeyRef.key",
        f"{CTR}.env[0].valueFrom.fileKeyRef.volumeName",
        f"{CTR}.env[0].valueFrom.fileKeyRef.path",
    }


def test_file_key_ref_dropped_at_1_34_unless_in_use() -> None:
    """dropFileKeyRefInUse (1.34, EnvFiles off); older releases' types lack the field (the
    decoder refuses it: tests/api/test_schema.py)."""
    def template() -> dict[str, Any]:
        return {"spec": {"containers": [{"name": "c", "env": [{"name": "A", "valueFrom": {"fileKeyRef": {"key": "K"}}}]}]}}

    for release, kept in ((34, False), (35, True)):
        new = template()
        drop_disabled_template_fields(new, None, FeatureGates.for_release(release))
        assert ("fileKeyRef" in new["spec"]["containers"][0]["env"][0]["valueFrom"]) == kept
    new = template()
    drop_disabled_template_fields(new, template(), FeatureGates.for_release(34))
    assert "fileKeyRef" in new["spec"]["containers"][0]["env"][0]["valueFrom"]


@pytest.mark.parametrize(
    ("field_ref", "message"),
    [
        ({"fieldPath": "metadata.name"}, f"{CTR}.env[0].valueFrom.fieldRef.apiVersion: Required value"),
        ({"apiVersion": "v1"}, f"{CTR}.env[0].valueFrom.fieldRef.fieldPath: Required value"),
        ({"apiVersion": "v1", "fieldPath": "spec.host"}, None),
        ({"apiVersion": "v1", "fieldPath": "metadata.labels['app']"}, None),
        (
            {"apiVersion": "v2", "fieldPath": "metadata.name"},
            f'{CTR}.env[0].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.name": error converting fieldPath: unsupported pod version: v2',
        ),
        (
            {"apiVersion": "v1", "fieldPath": "spec.nodeName['x']"},
            f"{CTR}.env[0].valueFrom.fieldRef.fieldPath: Invalid value: \"spec.nodeName['x']\": error converting fieldPath: field label does not support subscript: spec.nodeName['x']",
        ),
        (
            {"apiVersion": "v1", "fieldPath": "status.phase"},
            f'{CTR}.env[0].valueFrom.fieldRef.fieldPath: Unsupported value: "status.phase": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"',
        ),
    ],
)
def test_field_ref(field_ref: dict[str, str], message: str | None) -> None:
    assert _messages(env=[{"name": "A", "valueFrom": {"fieldRef": field_ref}}]) == ({message} if message else set())


def test_field_ref_subscript_is_a_qualified_name() -> None:
    errors = _messages(env=[{"name": "A", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels['bad key!']"}}}])
    assert {m.split(": ")[0] for m in errors} == {f"{CTR}.env[0].valueFrom.fieldRef"}


@pytest.mark.parametrize(
    ("resource", "divisor", "accepted"),
    [
        ("limits.cpu", "1m", True), ("limits.cpu", "1000m", True), ("limits.cpu", "0", True), ("limits.cpu", "2", False),
        ("limits.cpu", "+1", False), ("requests.memory", "1024Ki", True), ("requests.memory", "1000", True),
        ("requests.memory", "1e3", False), ("limits.hugepages-2Mi", "1Gi", True), ("limits.hugepages-2Mi", "3", False),
        ("limits.gpu", "7", None),
    ],
)  # fmt: skip
def test_resource_field_ref_divisor(resource: str, divisor: str, accepted: bool | None) -> None:
    """validateContainerResourceDivisor compares Quantity.String() with each resource's units;
    an unknown resource is NotSupported and its divisor not checked."""
    errors = _messages(env=[{"name": "A", "valueFrom": {"resourceFieldRef": {"resource": resource, "divisor": divisor}}}])
    if accepted is None:
        assert {m.split(": ")[1] for m in errors} == {"Unsupported value"}
    else:
        assert (errors == set()) == accepted
        assert all(m.startswith(f'{CTR}.env[0].valueFrom.resourceFieldRef.divisor: Invalid value: "{resource}": only') for m in errors)


@pytest.mark.parametrize(
    ("text", "string"),
    [("1000m", "1"), ("1024Ki", "1Mi"), ("0.5", "500m"), ("1e3", "1e3"), ("+1", "+1"), ("10e-1", "1"), ("1.5Gi", "1536Mi"), ("1000", "1k"), ("01Ki", "01Ki"), ("2048", "2048"),
     ("+1Ei", "1Ei"), ("1e0", "1e0"), ("10e-1", "1"), (" 1 ", "1"), (".", "0"), ("Ki", "0"), ("1n", "1n"), ("0.0000000001", "1n"), (2, "2"), (1.5, "1500m")],
)
def test_quantity_string(text: str | float, string: str) -> None:
    """A divisor's Quantity.String() (jobmodel.api.quantity): the text ParseQuantity keeps when
    canonical, else CanonicalizeBytes."""
    assert decode_quantity(text, "divisor") == string


def test_key_selectors() -> None:
    errors = _messages(env=[{"name": "A", "valueFrom": {"configMapKeyRef": {"key": "..x"}}}, {"name": "B", "valueFrom": {"secretKeyRef": {"name": "s", "key": ""}}}])
    assert {m.split(": ")[0] for m in errors} == {
        f"{CTR}.env[0].valueFrom.configMapKeyRef.name",  # NameIsDNSSubdomain("")
        f"{CTR}.env[0].valueFrom.configMapKeyRef.key",
        f"{CTR}.env[1].valueFrom.secretKeyRef.key",
    }
    assert f"{CTR}.env[0].valueFrom.configMapKeyRef.key: Invalid value: \"..x\": must not start with '..'" in errors


def test_env_from() -> None:
    assert _messages(envFrom=[{"prefix": "P_", "configMapRef": {"name": "cfg-"}}]) == set()
    # The count errors name the list, not the item.
    assert _messages(envFrom=[{"prefix": "A=B"}, {"configMapRef": {"name": "c"}, "secretRef": {}}]) == {
        f'{CTR}.envFrom[0].prefix: Invalid value: "A=B": {pod_env.RELAXED_ENV_VAR_NAME_MSG}',
        f'{CTR}.envFrom: Invalid value: "": must specify one of: `configMapRef` or `secretRef`',
        f"{CTR}.envFrom[1].secretRef.name: Required value",
        f'{CTR}.envFrom: Invalid value: "": may not have more than one field specified at a time',
    }


def test_port_names() -> None:
    ports = [{"containerPort": 80, "protocol": "TCP", "name": n} for n in ("http", "http", "HTTP", "HTTP", "80")]
    assert _messages(ports=ports) == {
        f'{CTR}.ports[1].name: Duplicate value: "http"',
        f'{CTR}.ports[2].name: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
        f'{CTR}.ports[2].name: Invalid value: "HTTP": must contain at least one letter (a-z)',
        f'{CTR}.ports[3].name: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
        f'{CTR}.ports[3].name: Invalid value: "HTTP": must contain at least one letter (a-z)',
        f'{CTR}.ports[4].name: Invalid value: "80": must contain at least one letter (a-z)',
    }


@pytest.mark.parametrize(
    ("ip", "sloppy", "strict_error"),
    [
        ("10.0.0.1", True, None), ("2001:db8::1", True, None), ("010.1.1.1", True, "must not have leading 0s"),
        ("::ffff:1.2.3.4", True, "must not be an IPv4-mapped IPv6 address"), ("00001::1", True, "must not have leading 0s"),
        ("1.2.3", False, None), ("256.1.1.1", False, None), ("fe80::1%eth0", False, None), ("", False, None), ("1::2::3", False, None),
    ],
)  # fmt: skip
def test_host_alias_ips_by_release(ip: str, sloppy: bool, strict_error: str | None) -> None:
    """IsValidIP (1.32) and IsValidIPForLegacyField (1.33+) take what ParseIPSloppy takes;
    StrictIPCIDRValidation (on from 1.36) refuses leading zeros and IPv4-mapped IPv6."""
    path = "spec.template.spec.hostAliases[0].ip"
    sloppy_errors = set() if sloppy else {f'{path}: Invalid value: "{ip}": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'}
    for release in (32, 33, 35):
        assert _pod_messages(release, hostAliases=[{"ip": ip}]) == sloppy_errors
    strict = sloppy_errors if strict_error is None else {f'{path}: Invalid value: "{ip}": {strict_error}'}
    assert _pod_messages(36, hostAliases=[{"ip": ip}]) == strict


def test_host_alias_hostnames() -> None:
    errors = _pod_messages(hostAliases=[{"ip": "10.0.0.1", "hostnames": ["ok.example", "Bad_Host"]}])
    assert {m.split(": ")[0] for m in errors} == {"spec.template.spec.hostAliases[0].hostnames[1]"}



def test_file_key_ref_volume_must_be_an_empty_dir_from_1_34() -> None:
    """validateFileKeyRefVolumes: NotFound without the volume, Invalid when not an emptyDir."""
    env = [{"name": "A", "valueFrom": {"fileKeyRef": {"volumeName": v, "path": "p", "key": "K"}}} for v in ("data", "cfg", "nope")]
    template = pod_template()
    template["spec"]["containers"][0]["env"] = env
    template["spec"]["volumes"] = [{"name": "data", "emptyDir": {}}, {"name": "cfg", "configMap": {"name": "c"}}]
    path = f"{CTR}.env[%d].valueFrom.fileKeyRef.volumeName"
    assert {str(e) for e in validate_pod_template_spec(template, "spec.template", pod_validation_options(34, None))} == {
        f'{path % 1}: Invalid value: "cfg": referenced volume must be of type emptyDir',
        f'{path % 2}: Not found: "nope"',
    }


def test_env_defaults() -> None:
    """zz_generated.defaults.go: SetDefaults_ObjectFieldSelector (apiVersion v1) and fileKeyRef's
    `optional` (+default=false)."""
    ctr: dict[str, Any] = {"name": "c", "env": [{"name": "A", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}, {"name": "B", "valueFrom": {"fileKeyRef": {"key": "K"}}}]}
    set_defaults_container(ctr)
    assert ctr["env"][0]["valueFrom"]["fieldRef"]["apiVersion"] == "v1"
    assert ctr["env"][1]["valueFrom"]["fileKeyRef"]["optional"] is False


@pytest.mark.parametrize(("text", "reason"), [("", "quantities must match"), ("1.2.3", "quantities must match"), ("1K", "unable to parse quantity's suffix"), ("1e", "unable to parse")])
def test_unparseable_quantity_is_an_input_error(text: str, reason: str) -> None:
    """The API server refuses these when it decodes the object (ParseQuantity's errors)."""
    with pytest.raises(InputError, match=reason):
        decode_quantity(text, "divisor")
