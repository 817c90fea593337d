"""Pod and container security contexts as core validation checks them
(`pkg/apis/core/validation/validation.go`: validatePodSpecSecurityContext,
validateShareProcessNamespace, ValidateSecurityContext and the field validators they call).

Release differences: the seLinuxChangePolicy accepts only `Recursive` unless SELinuxMount is on
(GA and on in 1.37) or the old template already sets one; from 1.37 the internal PodSpec keeps
the host namespaces itself, so the shareProcessNamespace/hostPID conflict is reported on the
spec (`spec.shareProcessNamespace`) rather than on `spec.securityContext.shareProcessNamespace`,
and an update may keep a container's CAP_SYS_ADMIN with allowPrivilegeEscalation false when the
old template has one (useAllowSysAdminWhenPrivilegeEscalationFalse).

seLinuxOptions are checked only by the OS-specific rules (validateWindows: jobmodel.api.pod_os).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

import attrs

from jobmodel.api import field as fe
from jobmodel.api import meta_validation as mv
from jobmodel.api.field import FieldError
from jobmodel.api.pod_util import visit_containers_with_path
from jobmodel.features import NEWEST_MINOR
from jobmodel.util.gostrings import go_len, go_trim_space

MAX_ID: Final = 2**31 - 1
ID_RANGE_ERROR: Final = mv.inclusive_range_error(0, MAX_ID)
# sets.List order (sorted) where upstream lists a set.
FS_GROUP_CHANGE_POLICIES: Final = ("Always", "OnRootMismatch")
SUPPLEMENTAL_GROUPS_POLICIES: Final = ("Merge", "Strict")
SELINUX_CHANGE_POLICIES: Final = ("MountOption", "Recursive")
SECCOMP_PROFILE_TYPES: Final = ("Localhost", "RuntimeDefault", "Unconfined")
APPARMOR_PROFILE_TYPES: Final = ("Localhost", "RuntimeDefault", "Unconfined")
PROC_MOUNT_TYPES: Final = ("Default", "Unmasked")
MAX_APPARMOR_LOCALHOST_PROFILE: Final = 4095
MAX_GMSA_CREDENTIAL_SPEC_KIB: Final = 64
MAX_RUN_AS_USER_NAME_DOMAIN: Final = 256
MAX_RUN_AS_USER_NAME_USER: Final = 104

_CTRL_RE: Final = re.compile(r"[\x00-\x1f\x7f]")
_NETBIOS_RE: Final = re.compile(r'[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}')
_WIN_DNS_LABEL: Final = r"[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?"
_WIN_DNS_RE: Final = re.compile(rf"{_WIN_DNS_LABEL}(?:\.{_WIN_DNS_LABEL})*")
_USER_NAME_CHARS_RE: Final = re.compile(r'["/\\:;|=,+*?<>@\[\]]')
_USER_NAME_DOTS_SPACES_RE: Final = re.compile(r"[. ]+")


@attrs.frozen
class PodSecurityOptions:
    """The PodValidationOptions of the security checks (GetValidationOptionsFromPodTemplate)."""

    only_recursive_selinux_change_policy: bool = False  # AllowOnlyRecursiveSELinuxChangePolicy
    allow_sys_admin_when_privilege_escalation_false: bool = False
    allow_user_namespaces_host_network: bool = False  # AllowUserNamespacesHostNetworkSupport (1.35+)
    allow_user_namespaces_with_volume_devices: bool = False  # AllowUserNamespacesWithVolumeDevices (1.34+)
    allow_namespaced_sysctls_for_host_net_and_host_ipc: bool = False  # the old template has such a sysctl


def pod_security_options(release: int, old_pod_spec: Mapping[str, Any] | None) -> PodSecurityOptions:
    """The security options at a release (`old_pod_spec`: the stored template's spec on update);
    the gates they read are at their defaults (SELinuxMount on in 1.37 only,
    UserNamespacesHostNetworkSupport off)."""
    old = old_pod_spec or {}
    user_namespaces = old_pod_spec is not None and old.get("hostUsers") is False
    return PodSecurityOptions(
        only_recursive_selinux_change_policy=use_only_recursive_selinux_change_policy(release, old_pod_spec),
        allow_sys_admin_when_privilege_escalation_false=use_allow_sys_admin_when_privilege_escalation_false(release, old_pod_spec),
        # useAllowUserNamespacesHostNetworkSupport
        allow_user_namespaces_host_network=release >= 35 and user_namespaces and bool(old.get("hostNetwork")),
        # hasUserNamespacesWithVolumeDevices
        allow_user_namespaces_with_volume_devices=user_namespaces
        and any(c.get("volumeDevices") for c, _ in visit_containers_with_path(old, "")),
        allow_namespaced_sysctls_for_host_net_and_host_ipc=old_pod_spec is not None
        and any(
            validate_host_sysctl(str(s.get("name") or ""), old, "")
            for s in (old.get("securityContext") or {}).get("sysctls") or []
        ),
    )


def drop_disabled_security_fields(spec: dict[str, Any], old_spec: Mapping[str, Any] | None, release: int) -> None:
    """dropDisabledFields' security part (`pkg/api/pod/util.go`), in place: at 1.32
    UserNamespacesSupport, SupplementalGroupsPolicy, SELinuxChangePolicy and ProcMountType are
    off, so hostUsers, supplementalGroupsPolicy and seLinuxChangePolicy are dropped, and a
    procMount is forced to `Default` (dropDisabledProcMountField), unless the old template uses
    them (hostUsersInUse, supplementalGroupsPolicyInUse, seLinuxChangePolicyInUse, procMountInUse)."""
    if release != 32:
        return
    old = old_spec or {}
    old_sc = old.get("securityContext") or {}
    if old.get("hostUsers") is None:
        spec.pop("hostUsers", None)
    sc = spec.get("securityContext")
    for key in ("supplementalGroupsPolicy", "seLinuxChangePolicy"):
        if isinstance(sc, dict) and old_sc.get(key) is None:
            sc.pop(key, None)
    old_proc_mounts = ((c.get("securityContext") or {}).get("procMount") for c, _ in visit_containers_with_path(old, ""))
    if not any(m is not None and m != "Default" for m in old_proc_mounts):
        for ctr, _ in visit_containers_with_path(spec, ""):
            ctr_sc = ctr.get("securityContext")
            if isinstance(ctr_sc, dict) and ctr_sc.get("procMount") is not None:
                ctr_sc["procMount"] = "Default"


def validate_windows_host_process_pod(spec: Mapping[str, Any], path: str) -> list[FieldError]:
    """validateWindowsHostProcessPod: a container's hostProcess agrees with the pod's; with any
    host-process container all are, the pod uses the host network, and the API server refuses it
    without --allow-privileged (as the harness's does)."""
    pod_host_process = ((spec.get("securityContext") or {}).get("windowsOptions") or {}).get("hostProcess")
    errs: list[FieldError] = []
    count = host_process_count = 0
    for ctr, ctr_path in visit_containers_with_path(spec, path):
        count += 1
        host_process = ((ctr.get("securityContext") or {}).get("windowsOptions") or {}).get("hostProcess")
        if pod_host_process is not None and host_process is not None and pod_host_process != host_process:
            errs.append(
                fe.invalid(
                    fe.child(ctr_path, "securityContext", "windowsOptions", "hostProcess"),
                    host_process,
                    f"pod hostProcess value must be identical if both are specified, was {'true' if pod_host_process else 'false'}",
                )
            )
        if host_process or (host_process is None and pod_host_process):
            host_process_count += 1
    if host_process_count:
        if host_process_count != count:
            errs.append(fe.invalid(path, "", "If pod contains any hostProcess containers then all containers must be HostProcess containers"))
        if not spec.get("hostNetwork"):
            errs.append(fe.invalid(fe.child(path, "hostNetwork"), False, "hostNetwork must be true if pod contains any hostProcess containers"))
        errs.append(fe.forbidden(path, "hostProcess containers are disallowed by cluster policy"))
    return errs


def validate_host_users(spec: Mapping[str, Any], path: str, release: int, opts: PodSecurityOptions) -> list[FieldError]:
    """validateHostUsers: a pod without host users (`hostUsers: false`) shares no host namespace
    (the network one allowed with AllowUserNamespacesHostNetworkSupport) and, from 1.34, has no
    volume devices. Up to 1.33 the detail names `pod.Spec.HostUsers`."""
    if spec.get("hostUsers") is not False:
        return []
    detail = "when `hostUsers` is false" if release >= 34 else "when `pod.Spec.HostUsers` is false"
    errs: list[FieldError] = []
    if spec.get("hostNetwork") and not opts.allow_user_namespaces_host_network:
        errs.append(fe.forbidden(fe.child(path, "hostNetwork"), detail))
    # Upstream's own spelling of these two paths.
    if spec.get("hostPID"):
        errs.append(fe.forbidden(fe.child(path, "HostPID"), detail))
    if spec.get("hostIPC"):
        errs.append(fe.forbidden(fe.child(path, "HostIPC"), detail))
    if release >= 34 and not opts.allow_user_namespaces_with_volume_devices:
        errs.extend(
            fe.forbidden(fe.child(ctr_path, "volumeDevices"), detail)
            for ctr, ctr_path in visit_containers_with_path(spec, path)
            if ctr.get("volumeDevices")
        )
    return errs


SYSCTL_MAX_LENGTH: Final = 253
_SYSCTL_SEGMENT_FMT: Final = "[a-z0-9]([-_a-z0-9]*[a-z0-9])?"
_SYSCTL_CONTAIN_SLASH_FMT: Final = "(" + _SYSCTL_SEGMENT_FMT + "[\\./])*" + _SYSCTL_SEGMENT_FMT
_SYSCTL_RE: Final = re.compile(_SYSCTL_CONTAIN_SLASH_FMT)
# GetNamespace's tables (k8s.io/component-helpers/node/util/sysctl): the two namespaces a host
# network or IPC namespace shares.
_IPC_SYSCTLS: Final = frozenset(
    {"kernel.sem", "kernel.shmall", "kernel.shmmax", "kernel.shmmni", "kernel.shm_rmid_forced", "kernel.shm",
     "kernel.msgmax", "kernel.msgmnb", "kernel.msgmni", "kernel.msg"}
)  # fmt: skip


def sysctl_namespace(sysctl: str) -> str:
    """GetNamespace (component-helpers `node/util/sysctl`), `Net`, `IPC` or "" for the others:
    NormalizeName (a `/`-separated name made `.`-separated), cut at the first `*`."""
    sep = next((i for i, c in enumerate(sysctl) if c in "./"), -1)
    if sep != -1 and sysctl[sep] == "/":
        sysctl = sysctl.translate(str.maketrans("./", "/."))
    name = sysctl.split("*", 1)[0]
    if name in _IPC_SYSCTLS or name.startswith("fs.mqueue."):
        return "IPC"
    return "Net" if name.startswith("net.") else ""


def validate_host_sysctl(sysctl: str, spec: Mapping[str, Any], path: str) -> list[FieldError]:
    """ValidateHostSysctl: no network sysctl with the host's network, no IPC one with its IPC."""
    ns = sysctl_namespace(sysctl)
    if spec.get("hostNetwork") and ns == "Net":
        return [fe.invalid(path, sysctl, "may not be specified when 'hostNetwork' is true")]
    if spec.get("hostIPC") and ns == "IPC":
        return [fe.invalid(path, sysctl, "may not be specified when 'hostIPC' is true")]
    return []


def validate_sysctls(spec: Mapping[str, Any], path: str, allow_namespaced_for_host: bool) -> list[FieldError]:
    """validateSysctls: names given, valid (IsValidSysctlName), unique; none of a namespace the pod
    shares with the host unless the old template has one (AllowNamespacedSysctlsForHostNetAndHostIPC)."""
    errs: list[FieldError] = []
    names: set[str] = set()
    for i, sysctl in enumerate((spec.get("securityContext") or {}).get("sysctls") or []):
        name = sysctl.get("name") or ""
        name_path = fe.child(fe.index(path, i), "name")
        if not name:
            errs.append(fe.required(name_path))
        elif go_len(name) > SYSCTL_MAX_LENGTH or _SYSCTL_RE.fullmatch(name) is None:
            errs.append(
                fe.invalid(
                    name_path, name, f"must have at most {SYSCTL_MAX_LENGTH} characters and match regex ^{_SYSCTL_CONTAIN_SLASH_FMT}$"
                )
            )
        elif name in names:
            errs.append(fe.duplicate(name_path, name))
        if not allow_namespaced_for_host:
            errs.extend(validate_host_sysctl(name, spec, name_path))
        names.add(name)
    return errs


def _ids(value: Any, path: str) -> list[FieldError]:
    """IsValidUserID / IsValidGroupID on a set pointer."""
    return [] if value is None or 0 <= value <= MAX_ID else [fe.invalid(path, value, ID_RANGE_ERROR)]


def _enum(value: str, allowed: tuple[str, ...], path: str, release: int) -> list[FieldError]:
    """field.NotSupported of a value of a named string type (core.ProcMountType, ...)."""
    return [] if value in allowed else [fe.not_supported(path, fe.named(value, release), allowed)]


def use_only_recursive_selinux_change_policy(release: int, old_pod_spec: Mapping[str, Any] | None) -> bool:
    """useOnlyRecursiveSELinuxChangePolicy (`pkg/api/pod/util.go`): SELinuxMount off (up to
    1.36) and no policy in the old template."""
    old_policy = ((old_pod_spec or {}).get("securityContext") or {}).get("seLinuxChangePolicy")
    return release <= 36 and old_policy is None


def has_sys_admin_and_privilege_escalation_false(sc: Mapping[str, Any] | None) -> bool:
    """hasSysAdminAndPrivilegeEscalationFalse (`pkg/api/pod/util.go`, 1.37)."""
    if not sc or sc.get("allowPrivilegeEscalation") is True or sc.get("capabilities") is None:
        return False
    return "CAP_SYS_ADMIN" in ((sc.get("capabilities") or {}).get("add") or [])


def use_allow_sys_admin_when_privilege_escalation_false(release: int, old_pod_spec: Mapping[str, Any] | None) -> bool:
    """useAllowSysAdminWhenPrivilegeEscalationFalse (1.37, on update only)."""
    return (
        release >= 37
        and old_pod_spec is not None
        and any(has_sys_admin_and_privilege_escalation_false(c.get("securityContext")) for c, _ in visit_containers_with_path(old_pod_spec, ""))
    )


def validate_local_descending_path(target: str, path: str) -> list[FieldError]:
    """validateLocalDescendingPath: relative (path.IsAbs), without a `..` element (validatePathNoBacksteps)."""
    errs = [fe.invalid(path, target, "must be a relative path")] if target.startswith("/") else []
    if ".." in target.split("/"):
        errs.append(fe.invalid(path, target, "must not contain '..'"))
    return errs


def validate_seccomp_profile_field(profile: Mapping[str, Any] | None, path: str, release: int = NEWEST_MINOR) -> list[FieldError]:
    """validateSeccompProfileField (with validateSeccompProfileType)."""
    if profile is None:
        return []
    kind, localhost = profile.get("type") or "", profile.get("localhostProfile")
    errs: list[FieldError] = []
    type_path, local_path = fe.child(path, "type"), fe.child(path, "localhostProfile")
    if not kind:
        errs.append(fe.required(type_path, "type is required when seccompProfile is set"))
    elif kind not in SECCOMP_PROFILE_TYPES:
        errs.append(fe.not_supported(type_path, fe.named(kind, release), SECCOMP_PROFILE_TYPES))
    if kind == "Localhost":
        if localhost is None:
            errs.append(fe.required(local_path, "must be set when seccomp type is Localhost"))
        else:
            errs.extend(validate_local_descending_path(localhost, local_path))
    elif localhost is not None:
        # The internal *core.SeccompProfile (Go field names; up to 1.33 %#v prints the
        # LocalhostProfile pointer's address, where the model prints the 1.34 form).
        bad = fe.GoStruct((("Type", fe.Marshalled(kind)), ("LocalhostProfile", localhost)))
        errs.append(fe.invalid(local_path, bad, "can only be set when seccomp type is Localhost"))
    return errs


def validate_app_armor_profile_field(profile: Mapping[str, Any] | None, path: str, release: int = NEWEST_MINOR) -> list[FieldError]:
    """ValidateAppArmorProfileField."""
    if profile is None:
        return []
    kind, localhost = profile.get("type") or "", profile.get("localhostProfile")
    local_path = fe.child(path, "localhostProfile")
    if kind == "Localhost":
        if localhost is None:
            return [fe.required(local_path, "must be set when AppArmor type is Localhost")]
        errs: list[FieldError] = []
        if go_trim_space(localhost) != localhost:
            errs.append(fe.invalid(local_path, localhost, "must not be padded with whitespace"))
        elif not localhost:
            errs.append(fe.required(local_path, "must be set when AppArmor type is Localhost"))
        if go_len(localhost) > MAX_APPARMOR_LOCALHOST_PROFILE:
            errs.append(fe.too_long(local_path, MAX_APPARMOR_LOCALHOST_PROFILE))
        return errs
    if kind in ("RuntimeDefault", "Unconfined"):
        if localhost is not None:
            return [fe.invalid(local_path, fe.named(localhost, release), "can only be set when AppArmor type is Localhost")]
        return []
    if not kind:
        return [fe.required(fe.child(path, "type"), "type is required when appArmorProfile is set")]
    return [fe.not_supported(fe.child(path, "type"), fe.named(kind, release), APPARMOR_PROFILE_TYPES)]


def _run_as_user_name_errors(name: str) -> list[str]:
    """validateWindowsSecurityContextOptions' runAsUserName rules ("DOMAIN\\USER")."""
    if not name:
        return ["runAsUserName cannot be an empty string"]
    if _CTRL_RE.search(name):
        return ["runAsUserName cannot contain control characters"]
    parts = name.split("\\")
    if len(parts) > 2:
        return ["runAsUserName cannot contain more than one backslash"]
    domain, user = ("", parts[0]) if len(parts) == 1 else (parts[0], parts[1])
    msgs: list[str] = []
    if go_len(domain) >= MAX_RUN_AS_USER_NAME_DOMAIN:
        msgs.append(f"runAsUserName's Domain length must be under {MAX_RUN_AS_USER_NAME_DOMAIN} characters")
    if len(parts) == 2 and not (_NETBIOS_RE.fullmatch(domain) or _WIN_DNS_RE.fullmatch(domain)):
        msgs.append("runAsUserName's Domain doesn't match the NetBios nor the DNS format")
    if not user:
        msgs.append("runAsUserName's User cannot be empty")
    elif go_len(user) > MAX_RUN_AS_USER_NAME_USER:
        msgs.append(f"runAsUserName's User length must not be longer than {MAX_RUN_AS_USER_NAME_USER} characters")
    if _USER_NAME_DOTS_SPACES_RE.fullmatch(user):
        msgs.append("runAsUserName's User cannot contain only periods or spaces")
    if _USER_NAME_CHARS_RE.search(user):
        msgs.append('runAsUserName\'s User cannot contain the following characters: "/\\:;|=,+*?<>@[]')
    return msgs


def validate_windows_security_context_options(
    options: Mapping[str, Any] | None, path: str, release: int = NEWEST_MINOR
) -> list[FieldError]:
    """validateWindowsSecurityContextOptions (the bad values are *string: fe.named)."""
    if options is None:
        return []
    errs: list[FieldError] = []
    name = options.get("gmsaCredentialSpecName")
    if name is not None:
        errs.extend(fe.invalid(fe.child(path, "gmsaCredentialSpecName"), fe.named(name, release), m) for m in mv.is_dns1123_subdomain(name))
    spec = options.get("gmsaCredentialSpec")
    if spec is not None:
        size = go_len(spec)
        if size == 0:
            errs.append(fe.invalid(fe.child(path, "gmsaCredentialSpec"), fe.named(spec, release), "gmsaCredentialSpec cannot be an empty string"))
        elif size > MAX_GMSA_CREDENTIAL_SPEC_KIB * 1024:
            errs.append(
                fe.invalid(
                    fe.child(path, "gmsaCredentialSpec"), fe.named(spec, release), f"gmsaCredentialSpec size must be under {MAX_GMSA_CREDENTIAL_SPEC_KIB} KiB"
                )
            )
    user = options.get("runAsUserName")
    if user is not None:
        errs.extend(fe.invalid(fe.child(path, "runAsUserName"), fe.named(user, release), m) for m in _run_as_user_name_errors(user))
    return errs


def validate_pod_spec_security_context(
    spec: Mapping[str, Any], path: str, release: int, opts: PodSecurityOptions = PodSecurityOptions()
) -> list[FieldError]:
    """validatePodSpecSecurityContext (up to 1.36 also validateShareProcessNamespace's check, on
    the security context's path; the internal security context always exists)."""
    sc = spec.get("securityContext") or {}
    sc_path = fe.child(path, "securityContext")
    errs = _ids(sc.get("fsGroup"), fe.child(sc_path, "fsGroup"))
    errs.extend(_ids(sc.get("runAsUser"), fe.child(sc_path, "runAsUser")))
    errs.extend(_ids(sc.get("runAsGroup"), fe.child(sc_path, "runAsGroup")))
    for i, gid in enumerate(sc.get("supplementalGroups") or []):
        errs.extend(_ids(gid, fe.index(fe.child(sc_path, "supplementalGroups"), i)))
    if spec.get("shareProcessNamespace") and spec.get("hostPID"):
        errs.append(
            fe.invalid(
                fe.child(path if release >= 37 else sc_path, "shareProcessNamespace"),
                True,
                "ShareProcessNamespace and HostPID cannot both be enabled",
            )
        )
    errs.extend(validate_sysctls(spec, fe.child(sc_path, "sysctls"), opts.allow_namespaced_sysctls_for_host_net_and_host_ipc))
    if sc.get("fsGroupChangePolicy") is not None:
        errs.extend(_enum(sc["fsGroupChangePolicy"], FS_GROUP_CHANGE_POLICIES, fe.child(sc_path, "fsGroupChangePolicy"), release))
    errs.extend(validate_seccomp_profile_field(sc.get("seccompProfile"), fe.child(sc_path, "seccompProfile"), release))
    errs.extend(validate_windows_security_context_options(sc.get("windowsOptions"), fe.child(sc_path, "windowsOptions"), release))
    errs.extend(validate_app_armor_profile_field(sc.get("appArmorProfile"), fe.child(sc_path, "appArmorProfile"), release))
    if sc.get("supplementalGroupsPolicy") is not None:
        errs.extend(
            _enum(sc["supplementalGroupsPolicy"], SUPPLEMENTAL_GROUPS_POLICIES, fe.child(sc_path, "supplementalGroupsPolicy"), release)
        )
    if sc.get("seLinuxChangePolicy") is not None:
        # validateSELinuxChangePolicy
        allowed = ("Recursive",) if opts.only_recursive_selinux_change_policy else SELINUX_CHANGE_POLICIES
        errs.extend(_enum(sc["seLinuxChangePolicy"], allowed, fe.child(sc_path, "seLinuxChangePolicy"), release))
    return errs


def internal_security_context(sc: Mapping[str, Any]) -> fe.GoStruct:
    """The internal *core.SecurityContext (`pkg/apis/core/types.go`, the same fields 1.32 … 1.37)
    as json.Marshal prints it: Go field names in declaration order, nil pointers as null. Up to
    1.33 `%#v` prints its set pointers' addresses (allowPrivilegeEscalation is set wherever it is
    reported): the model prints this form."""

    def struct(value: Mapping[str, Any] | None, names: tuple[tuple[str, str, Any], ...]) -> fe.GoStruct | None:
        if value is None:
            return None
        return fe.GoStruct(tuple((go, value.get(wire, zero)) for go, wire, zero in names))

    capabilities = struct(sc.get("capabilities"), (("Add", "add", None), ("Drop", "drop", None)))
    se_linux = struct(sc.get("seLinuxOptions"), tuple((w.capitalize(), w, "") for w in ("user", "role", "type", "level")))
    windows = struct(
        sc.get("windowsOptions"),
        (
            ("GMSACredentialSpecName", "gmsaCredentialSpecName", None),
            ("GMSACredentialSpec", "gmsaCredentialSpec", None),
            ("RunAsUserName", "runAsUserName", None),
            ("HostProcess", "hostProcess", None),
        ),
    )
    profile = (("Type", "type", ""), ("LocalhostProfile", "localhostProfile", None))
    return fe.GoStruct(
        (
            ("Capabilities", capabilities),
            ("Privileged", sc.get("privileged")),
            ("SELinuxOptions", se_linux),
            ("WindowsOptions", windows),
            ("RunAsUser", sc.get("runAsUser")),
            ("RunAsGroup", sc.get("runAsGroup")),
            ("RunAsNonRoot", sc.get("runAsNonRoot")),
            ("ReadOnlyRootFilesystem", sc.get("readOnlyRootFilesystem")),
            ("AllowPrivilegeEscalation", sc.get("allowPrivilegeEscalation")),
            ("ProcMount", sc.get("procMount")),
            ("SeccompProfile", struct(sc.get("seccompProfile"), profile)),
            ("AppArmorProfile", struct(sc.get("appArmorProfile"), profile)),
        )
    )


def validate_security_context(
    sc: Mapping[str, Any] | None,
    path: str,
    host_users: bool,
    allow_sys_admin_when_privilege_escalation_false: bool,
    release: int = NEWEST_MINOR,
) -> list[FieldError]:
    """ValidateSecurityContext. Privileged containers are refused as by an API server without
    --allow-privileged (capabilities.Get's default, and the harness's)."""
    if sc is None:
        return []
    errs: list[FieldError] = []
    if sc.get("privileged"):
        errs.append(fe.forbidden(fe.child(path, "privileged"), "disallowed by cluster policy"))
    errs.extend(_ids(sc.get("runAsUser"), fe.child(path, "runAsUser")))
    errs.extend(_ids(sc.get("runAsGroup"), fe.child(path, "runAsGroup")))
    proc_mount = sc.get("procMount")
    if proc_mount is not None:
        errs.extend(_enum(proc_mount, PROC_MOUNT_TYPES, fe.child(path, "procMount"), release))
        if host_users and proc_mount == "Unmasked":
            errs.append(fe.invalid(fe.child(path, "procMount"), fe.named(proc_mount, release), "`hostUsers` must be false to use `Unmasked`"))
    errs.extend(validate_seccomp_profile_field(sc.get("seccompProfile"), fe.child(path, "seccompProfile"), release))
    if sc.get("allowPrivilegeEscalation") is False:
        if sc.get("privileged"):
            errs.append(fe.invalid(path, internal_security_context(sc), "cannot set `allowPrivilegeEscalation` to false and `privileged` to true"))
        if not allow_sys_admin_when_privilege_escalation_false and sc.get("capabilities") is not None:
            errs.extend(
                fe.invalid(path, internal_security_context(sc), "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN")
                for cap in (sc["capabilities"].get("add") or [])
                if cap == "CAP_SYS_ADMIN"
            )
    errs.extend(validate_windows_security_context_options(sc.get("windowsOptions"), fe.child(path, "windowsOptions"), release))
    errs.extend(validate_app_armor_profile_field(sc.get("appArmorProfile"), fe.child(path, "appArmorProfile"), release))
    return errs


def validate_pod_security(
    spec: Mapping[str, Any], path: str, release: int, opts: PodSecurityOptions = PodSecurityOptions()
) -> list[FieldError]:
    """ValidatePodSpec's security checks: validatePodSpecSecurityContext (and the shared
    process namespace), validateHostUsers, validateWindowsHostProcessPod, and each container's
    ValidateSecurityContext (validateContainerCommon)."""
    errs = validate_pod_spec_security_context(spec, path, release, opts)
    errs.extend(validate_host_users(spec, path, release, opts))
    errs.extend(validate_windows_host_process_pod(spec, path))
    host_users = spec.get("hostUsers") is not False
    for ctr, ctr_path in visit_containers_with_path(spec, path):
        errs.extend(
            validate_security_context(
                ctr.get("securityContext"),
                fe.child(ctr_path, "securityContext"),
                host_users,
                opts.allow_sys_admin_when_privilege_escalation_false,
                release,
            )
        )
    return errs
