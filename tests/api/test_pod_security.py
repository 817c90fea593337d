"""Pod and container security contexts (jobmodel/api/pod_security.py)."""

from __future__ import annotations

from typing import Any

import pytest

from jobmodel.api.pod_security import (
    PodSecurityOptions,
    drop_disabled_security_fields,
    pod_security_options,
    validate_app_armor_profile_field,
    validate_pod_security,
    validate_seccomp_profile_field,
    validate_security_context,
    validate_windows_security_context_options,
)
from tests.api.helpers import pairs

S = "spec"


def _pod(release: int = 37, opts: PodSecurityOptions | None = None, **spec: Any) -> set[tuple[str, str]]:
    spec.setdefault("containers", [{"name": "a"}])
    return pairs(validate_pod_security(spec, S, release, opts or pod_security_options(release, None)))


def test_id_ranges() -> None:
    sc = {"runAsUser": -1, "runAsGroup": 2**31, "fsGroup": 2**31 - 1, "supplementalGroups": [0, -5]}
    assert _pod(securityContext=sc) == {
        (f"{S}.securityContext.runAsUser", "FieldValueInvalid"),
        (f"{S}.securityContext.runAsGroup", "FieldValueInvalid"),
        (f"{S}.securityContext.supplementalGroups[1]", "FieldValueInvalid"),
    }
    errors = validate_security_context({"runAsUser": -1}, "c", True, False)
    assert [e.detail for e in errors] == ["must be between 0 and 2147483647, inclusive"]


def test_share_process_namespace_with_host_pid_moves_in_1_37() -> None:
    spec: dict[str, Any] = {"shareProcessNamespace": True, "hostPID": True}
    assert _pod(36, **spec) == {(f"{S}.securityContext.shareProcessNamespace", "FieldValueInvalid")}
    assert _pod(37, **spec) == {(f"{S}.shareProcessNamespace", "FieldValueInvalid")}
    assert _pod(37, shareProcessNamespace=False, hostPID=True) == set()


def test_selinux_change_policy_only_recursive_before_selinux_mount() -> None:
    sc = {"seLinuxChangePolicy": "MountOption"}
    assert _pod(36, securityContext=sc) == {(f"{S}.securityContext.seLinuxChangePolicy", "FieldValueNotSupported")}
    assert _pod(37, securityContext=sc) == set()
    old = {"securityContext": {"seLinuxChangePolicy": "Recursive"}}
    assert _pod(36, pod_security_options(36, old), securityContext=sc) == set()


def test_policies() -> None:
    sc = {"fsGroupChangePolicy": "Bogus", "supplementalGroupsPolicy": ""}
    assert _pod(securityContext=sc) == {
        (f"{S}.securityContext.fsGroupChangePolicy", "FieldValueNotSupported"),
        (f"{S}.securityContext.supplementalGroupsPolicy", "FieldValueNotSupported"),
    }


@pytest.mark.parametrize(
    ("profile", "expected"),
    [
        ({"type": "RuntimeDefault"}, set()),
        ({"type": ""}, {("p.type", "FieldValueRequired")}),
        ({"type": "Bogus"}, {("p.type", "FieldValueNotSupported")}),
        ({"type": "Localhost"}, {("p.localhostProfile", "FieldValueRequired")}),
        ({"type": "Localhost", "localhostProfile": "/a/../b"}, {("p.localhostProfile", "FieldValueInvalid")}),
        ({"type": "Unconfined", "localhostProfile": "x"}, {("p.localhostProfile", "FieldValueInvalid")}),
    ],
)
def test_seccomp_profile(profile: dict[str, Any], expected: set[tuple[str, str]]) -> None:
    assert pairs(validate_seccomp_profile_field(profile, "p")) == expected


@pytest.mark.parametrize(
    ("profile", "expected"),
    [
        ({"type": "Localhost", "localhostProfile": "prof"}, set()),
        ({"type": "Localhost", "localhostProfile": " prof"}, {("p.localhostProfile", "FieldValueInvalid")}),
        ({"type": "Localhost", "localhostProfile": ""}, {("p.localhostProfile", "FieldValueRequired")}),
        ({"type": "Localhost", "localhostProfile": "a" * 4096}, {("p.localhostProfile", "FieldValueTooLong")}),
        ({"type": ""}, {("p.type", "FieldValueRequired")}),
        ({"type": "RuntimeDefault", "localhostProfile": "x"}, {("p.localhostProfile", "FieldValueInvalid")}),
    ],
)
def test_app_armor_profile(profile: dict[str, Any], expected: set[tuple[str, str]]) -> None:
    assert pairs(validate_app_armor_profile_field(profile, "p")) == expected


@pytest.mark.parametrize(
    ("name", "details"),
    [
        ("ContainerUser", []),
        ("DOMAIN\\user", []),
        ("example.com\\user", []),
        ("", ["runAsUserName cannot be an empty string"]),
        ("a\tb", ["runAsUserName cannot contain control characters"]),
        ("a\\b\\c", ["runAsUserName cannot contain more than one backslash"]),
        (".dom\\u", ["runAsUserName's Domain doesn't match the NetBios nor the DNS format"]),
        ("d\\", ["runAsUserName's User cannot be empty"]),
        ("..", ["runAsUserName's User cannot contain only periods or spaces"]),
        ("u@x", ['runAsUserName\'s User cannot contain the following characters: "/\\:;|=,+*?<>@[]']),
        ("x" * 105, ["runAsUserName's User length must not be longer than 104 characters"]),
    ],
)
def test_windows_run_as_user_name(name: str, details: list[str]) -> None:
    assert [e.detail for e in validate_windows_security_context_options({"runAsUserName": name}, "w")] == details


def test_gmsa() -> None:
    errors = validate_windows_security_context_options({"gmsaCredentialSpecName": "Bad_Name", "gmsaCredentialSpec": ""}, "w")
    assert pairs(errors) == {("w.gmsaCredentialSpecName", "FieldValueInvalid"), ("w.gmsaCredentialSpec", "FieldValueInvalid")}


def test_container_privilege_rules() -> None:
    assert pairs(validate_security_context({"privileged": True}, "c", True, False)) == {("c.privileged", "FieldValueForbidden")}
    both = {"privileged": True, "allowPrivilegeEscalation": False}
    assert pairs(validate_security_context(both, "c", True, False)) == {
        ("c.privileged", "FieldValueForbidden"),
        ("c", "FieldValueInvalid"),
    }
    sys_admin = {"allowPrivilegeEscalation": False, "capabilities": {"add": ["CAP_SYS_ADMIN"]}}
    assert pairs(validate_security_context(sys_admin, "c", True, False)) == {("c", "FieldValueInvalid")}
    assert validate_security_context(sys_admin, "c", True, True) == []
    assert validate_security_context({"capabilities": {"add": ["CAP_SYS_ADMIN"]}}, "c", True, False) == []


def test_sys_admin_kept_on_update_from_1_37() -> None:
    old = {"containers": [{"name": "a", "securityContext": {"capabilities": {"add": ["CAP_SYS_ADMIN"]}}}]}
    assert pod_security_options(37, old).allow_sys_admin_when_privilege_escalation_false
    assert not pod_security_options(36, old).allow_sys_admin_when_privilege_escalation_false
    assert not pod_security_options(37, None).allow_sys_admin_when_privilege_escalation_false


def test_proc_mount() -> None:
    assert pairs(validate_security_context({"procMount": "Bogus"}, "c", True, False)) == {("c.procMount", "FieldValueNotSupported")}
    assert pairs(validate_security_context({"procMount": "Unmasked"}, "c", True, False)) == {("c.procMount", "FieldValueInvalid")}
    assert validate_security_context({"procMount": "Unmasked"}, "c", False, False) == []
    container = {"name": "a", "securityContext": {"procMount": "Unmasked"}}
    assert _pod(containers=[container], hostUsers=False) == set()


def test_host_users_false_forbids_host_namespaces() -> None:
    spec: dict[str, Any] = {"hostUsers": False, "hostNetwork": True, "hostPID": True, "hostIPC": True}
    assert _pod(**spec) == {
        (f"{S}.hostNetwork", "FieldValueForbidden"),
        (f"{S}.HostPID", "FieldValueForbidden"),
        (f"{S}.HostIPC", "FieldValueForbidden"),
    }
    old = {"hostUsers": False, "hostNetwork": True}
    assert (f"{S}.hostNetwork", "FieldValueForbidden") not in _pod(35, pod_security_options(35, old), **spec)
    assert (f"{S}.hostNetwork", "FieldValueForbidden") in _pod(34, pod_security_options(34, old), **spec)
    details = {e.detail for e in validate_pod_security({**spec, "containers": []}, S, 33)}
    assert details == {"when `pod.Spec.HostUsers` is false"}


def test_host_users_false_forbids_volume_devices_from_1_34() -> None:
    containers = [{"name": "a", "volumeDevices": [{"name": "d", "devicePath": "/dev/x"}]}]
    assert _pod(34, containers=containers, hostUsers=False) == {(f"{S}.containers[0].volumeDevices", "FieldValueForbidden")}
    assert _pod(33, containers=containers, hostUsers=False) == set()


def test_drop_disabled_security_fields_at_1_32_only() -> None:
    def dropped(release: int, old: dict[str, Any] | None = None) -> dict[str, Any]:
        spec: dict[str, Any] = {
            "hostUsers": False,
            "securityContext": {"supplementalGroupsPolicy": "Merge", "seLinuxChangePolicy": "Recursive", "runAsUser": 1},
            "containers": [{"name": "a", "securityContext": {"procMount": "Unmasked"}}],
        }
        drop_disabled_security_fields(spec, old, release)
        return spec

    at_32 = dropped(32)
    assert "hostUsers" not in at_32
    assert at_32["securityContext"] == {"runAsUser": 1}
    assert at_32["containers"][0]["securityContext"] == {"procMount": "Default"}
    assert dropped(33)["hostUsers"] is False
    in_use = {"hostUsers": True, "securityContext": {"supplementalGroupsPolicy": "Strict"}, "containers": [{"securityContext": {"procMount": "Unmasked"}}]}
    kept = dropped(32, in_use)
    assert kept["hostUsers"] is False
    assert kept["securityContext"]["supplementalGroupsPolicy"] == "Merge"
    assert "seLinuxChangePolicy" not in kept["securityContext"]
    assert kept["containers"][0]["securityContext"]["procMount"] == "Unmasked"


def test_sysctls() -> None:
    sysctls = [{"name": "kernel.pid_max"}, {"name": ""}, {"name": "Bad!"}, {"name": "kernel.pid_max"}, {"name": "net/ipv4/conf/eth0.1/rp_filter"}]
    assert _pod(securityContext={"sysctls": sysctls}, hostNetwork=True) == {
        (f"{S}.securityContext.sysctls[1].name", "FieldValueRequired"),
        (f"{S}.securityContext.sysctls[2].name", "FieldValueInvalid"),
        (f"{S}.securityContext.sysctls[3].name", "FieldValueDuplicate"),
        (f"{S}.securityContext.sysctls[4].name", "FieldValueInvalid"),  # a network sysctl with the host's network
    }
    ipc: dict[str, Any] = {"securityContext": {"sysctls": [{"name": "kernel.shm_rmid_forced"}, {"name": "fs.mqueue.msg_max"}]}, "hostIPC": True}
    assert _pod(**ipc) == {
        (f"{S}.securityContext.sysctls[0].name", "FieldValueInvalid"),
        (f"{S}.securityContext.sysctls[1].name", "FieldValueInvalid"),
    }
    assert _pod(37, pod_security_options(37, ipc), **ipc) == set()


def test_windows_host_process_pod() -> None:
    def windows(host_process: bool | None) -> dict[str, Any]:
        return {"securityContext": {"windowsOptions": {"hostProcess": host_process}}} if host_process is not None else {}

    spec: dict[str, Any] = {"securityContext": {"windowsOptions": {"hostProcess": True}}, "containers": [{"name": "a"}, {"name": "b", **windows(False)}]}
    assert _pod(**spec) == {
        (f"{S}.containers[1].securityContext.windowsOptions.hostProcess", "FieldValueInvalid"),
        (S, "FieldValueInvalid"),  # not all host-process containers
        (f"{S}.hostNetwork", "FieldValueInvalid"),
        (S, "FieldValueForbidden"),  # without --allow-privileged
    }
    assert _pod(containers=[{"name": "a", **windows(False)}]) == set()
