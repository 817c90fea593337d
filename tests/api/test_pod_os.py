"""The OS-specific rules (jobmodel/api/pod_os.py); expectations from upstream's validateOS,
validateLinux and validateWindows (`pkg/apis/core/validation/validation.go`) and its
TestValidateWindowsPodSecurityContext / TestValidateOSFields cases."""

from __future__ import annotations

from typing import Any

import pytest

from jobmodel.api.pod_os import validate_pod_os
from jobmodel.api.pod_validation import pod_validation_options, validate_pod_template_spec
from tests.api.helpers import pairs, pod_template

S = "spec"


def _errs(release: int = 37, **spec: Any) -> set[tuple[str, str]]:
    spec.setdefault("containers", [{"name": "a"}])
    return pairs(validate_pod_os(spec, S, release))


def test_no_os_no_rules() -> None:
    assert _errs(securityContext={"windowsOptions": {}, "seLinuxOptions": {}}, hostPID=True) == set()


@pytest.mark.parametrize(("release", "detail"), [(32, "cannot be empty"), (33, "cannot be empty"), (34, ""), (37, "")])
def test_os_name_required(release: int, detail: str) -> None:
    errors = validate_pod_os({"os": {}, "securityContext": {"seLinuxOptions": {}}}, S, release)
    assert [(e.field, e.type, e.detail) for e in errors] == [(f"{S}.os.name", "FieldValueRequired", detail)]


def test_unknown_os_stops_the_os_rules() -> None:
    errors = validate_pod_os({"os": {"name": "plan9"}, "securityContext": {"seLinuxOptions": {}}}, S)
    assert [str(e) for e in errors] == [f'{S}.os: Unsupported value: "plan9": supported values: "linux", "windows"']
    # The name is case-sensitive.
    assert _errs(os={"name": "Linux"}) == {(f"{S}.os", "FieldValueNotSupported")}


def test_linux_forbids_windows_options() -> None:
    ctr = {"name": "a", "securityContext": {"windowsOptions": {"runAsUserName": "u"}, "seLinuxOptions": {"user": "x"}}}
    spec = {"os": {"name": "linux"}, "securityContext": {"windowsOptions": {}, "seLinuxOptions": {}}, "initContainers": [ctr], "containers": [{"name": "b"}]}
    errors = validate_pod_os(spec, S)
    assert [str(e) for e in errors] == [
        f"{S}.securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod",
        f"{S}.initContainers[0].securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod",
    ]


def test_windows_forbids_linux_only_pod_fields() -> None:
    sc = {"appArmorProfile": {"type": "RuntimeDefault"}, "seLinuxOptions": {}, "seccompProfile": {"type": "RuntimeDefault"}, "fsGroup": 0,
          "fsGroupChangePolicy": "Always", "sysctls": [{"name": "a", "value": "b"}], "runAsUser": 0, "runAsGroup": 0, "supplementalGroups": [1],
          "supplementalGroupsPolicy": "Merge", "seLinuxChangePolicy": "Recursive", "runAsNonRoot": True, "windowsOptions": {}}  # fmt: skip
    got = _errs(os={"name": "windows"}, securityContext=sc, hostUsers=True, hostPID=True, hostIPC=True, shareProcessNamespace=False)
    allowed = {"runAsNonRoot", "windowsOptions"}
    assert got == {(f"{S}.securityContext.{k}", "FieldValueForbidden") for k in sc if k not in allowed} | {
        (f"{S}.{k}", "FieldValueForbidden") for k in ("hostUsers", "hostPID", "hostIPC", "shareProcessNamespace")
    }
    # Host namespaces only when true; an empty sysctl list is allowed.
    assert _errs(os={"name": "windows"}, hostPID=False, hostIPC=False, securityContext={"sysctls": []}) == set()


def test_windows_forbids_linux_only_container_fields() -> None:
    sc = {"appArmorProfile": {}, "seLinuxOptions": {}, "seccompProfile": {}, "capabilities": {}, "readOnlyRootFilesystem": False, "privileged": False,
          "allowPrivilegeEscalation": False, "procMount": "Default", "runAsUser": 1, "runAsGroup": 1, "runAsNonRoot": True, "windowsOptions": {}}  # fmt: skip
    got = _errs(os={"name": "windows"}, containers=[{"name": "a"}, {"name": "b", "securityContext": sc}])
    assert got == {(f"{S}.containers[1].securityContext.{k}", "FieldValueForbidden") for k in sc if k not in ("runAsNonRoot", "windowsOptions")}


def test_in_a_job_template() -> None:
    template = pod_template()
    template["spec"]["os"] = {"name": "windows"}
    template["spec"]["securityContext"] = {"seLinuxOptions": {"level": "s0"}}
    errors = validate_pod_template_spec(template, "t", pod_validation_options(37, None))
    assert pairs(errors) == {("t.spec.securityContext.seLinuxOptions", "FieldValueForbidden")}
