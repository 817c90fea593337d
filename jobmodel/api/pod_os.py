"""The OS-specific rules of core validation (`pkg/apis/core/validation/validation.go`:
ValidatePodSpec's `spec.os` switch, validateOS, validateLinux, validateWindows): a pod for
`linux` sets no Windows options, a pod for `windows` none of the Linux-only security fields
(seLinuxOptions are checked only here: their content is never validated).

Release differences: up to 1.33 a missing OS name is "Required value: cannot be empty", from
1.34 "Required value". Up to 1.36 validateWindows reads the host namespaces from the internal
security context (which the conversion always creates), from 1.37 from the spec; the paths are
the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from jobmodel.api import field as fe
from jobmodel.api.field import FieldError
from jobmodel.api.pod_util import visit_containers_with_path
from jobmodel.features import NEWEST_MINOR

VALID_OS: Final = ("linux", "windows")  # sets.List(validOS)
NOT_FOR_WINDOWS: Final = "cannot be set for a windows pod"
NOT_FOR_LINUX: Final = "windows options cannot be set for a linux pod"
# validateWindows' checks in its order: the pod security context's pointer fields (set when
# present), then each container's.
WINDOWS_FORBIDDEN_POD_SECURITY: Final = (
    "appArmorProfile", "seLinuxOptions", "seccompProfile", "fsGroup", "fsGroupChangePolicy", "sysctls", "runAsUser",
    "runAsGroup", "supplementalGroups", "supplementalGroupsPolicy", "seLinuxChangePolicy",
)  # fmt: skip
WINDOWS_FORBIDDEN_CONTAINER_SECURITY: Final = (
    "appArmorProfile", "seLinuxOptions", "seccompProfile", "capabilities", "readOnlyRootFilesystem", "privileged",
    "allowPrivilegeEscalation", "procMount", "runAsUser", "runAsGroup",
)  # fmt: skip


def validate_os(os: Mapping[str, Any], path: str, release: int = NEWEST_MINOR) -> list[FieldError]:
    """validateOS: a name, `linux` or `windows`."""
    name = os.get("name") or ""
    if not name:
        return [fe.required(fe.child(path, "name"), "cannot be empty" if release <= 33 else "")]
    return [] if name in VALID_OS else [fe.not_supported(path, fe.named(name, release), VALID_OS)]


def validate_linux(spec: Mapping[str, Any], path: str) -> list[FieldError]:
    """validateLinux: no Windows options in the pod's or a container's security context."""
    errs: list[FieldError] = []
    if (spec.get("securityContext") or {}).get("windowsOptions") is not None:
        errs.append(fe.forbidden(fe.child(path, "securityContext", "windowsOptions"), NOT_FOR_LINUX))
    errs.extend(
        fe.forbidden(fe.child(ctr_path, "securityContext", "windowsOptions"), NOT_FOR_LINUX)
        for ctr, ctr_path in visit_containers_with_path(spec, path)
        if (ctr.get("securityContext") or {}).get("windowsOptions") is not None
    )
    return errs


def validate_windows(spec: Mapping[str, Any], path: str) -> list[FieldError]:
    """validateWindows: none of the Linux-only fields of the pod, its security context or a
    container's; `sysctls` only when not empty, the host namespaces only when true (hostUsers
    and shareProcessNamespace when set)."""
    sc = spec.get("securityContext") or {}
    sc_path = fe.child(path, "securityContext")
    errs = [
        fe.forbidden(fe.child(sc_path, key), NOT_FOR_WINDOWS)
        for key in WINDOWS_FORBIDDEN_POD_SECURITY
        if (bool(sc.get(key)) if key == "sysctls" else sc.get(key) is not None)
    ]
    for key in ("hostUsers", "hostPID", "hostIPC", "shareProcessNamespace"):
        value = spec.get(key)
        if (value is not None) if key in ("hostUsers", "shareProcessNamespace") else bool(value):
            errs.append(fe.forbidden(fe.child(path, key), NOT_FOR_WINDOWS))
    for ctr, ctr_path in visit_containers_with_path(spec, path):
        ctr_sc = ctr.get("securityContext")
        if ctr_sc is None:
            continue
        errs.extend(
            fe.forbidden(fe.child(ctr_path, "securityContext", key), NOT_FOR_WINDOWS)
            for key in WINDOWS_FORBIDDEN_CONTAINER_SECURITY
            if ctr_sc.get(key) is not None
        )
    return errs


def validate_pod_os(spec: Mapping[str, Any], path: str, release: int = NEWEST_MINOR) -> list[FieldError]:
    """ValidatePodSpec's `spec.os` switch: validateOS's errors, else validateLinux or validateWindows."""
    os = spec.get("os")
    if os is None:
        return []
    errs = validate_os(os, fe.child(path, "os"), release)
    if errs:
        return errs
    return validate_linux(spec, path) if os.get("name") == "linux" else validate_windows(spec, path)
