"""Environment variables, container port names and host aliases in a pod template, as
`pkg/apis/core/validation/validation.go` checks them release by release: ValidateEnv (names and
`valueFrom`: fieldRef, resourceFieldRef with its divisor, configMapKeyRef, secretKeyRef, and
fileKeyRef from 1.34), ValidateEnvFrom, IsValidPortName (validateContainerPorts) and
ValidateHostAliases (IsValidIP up to 1.32, IsValidIPForLegacyField from 1.33, strict from 1.36).

Release differences: 1.32 and 1.33 have no `fileKeyRef` (Go's decoder drops the unknown field);
1.34 validates it, and names it in the "must specify one of" message only when the old template
uses it (EnvFiles alpha, useAllowEnvFilesValidation), 1.35+ always (beta, on). Env names are
checked with the relaxed rule at every release (RelaxedEnvironmentVariableValidation is on from
1.32). Host-alias IPs reject leading zeros and IPv4-mapped IPv6 from 1.36 (StrictIPCIDRValidation
beta, on).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

from jobmodel.api import field as fe
from jobmodel.api import meta_validation as mv
from jobmodel.api.field import FieldError
from jobmodel.api.ip import STRICT_IP_RELEASE, is_valid_ip_for_legacy_field
from jobmodel.api.pod_util import visit_containers_with_path
from jobmodel.api.quantity import decode_quantity
from jobmodel.util.gostrings import go_len, go_to_lower

if TYPE_CHECKING:
    from jobmodel.api.pod_validation import PodValidationOptions

FILE_KEY_REF_RELEASE: Final = 34  # FileKeySelector exists (EnvFiles alpha); on by default from 1.35
ENV_FILES_ON_RELEASE: Final = 35
LEGACY_IP_RELEASE: Final = 33  # IsValidIPForLegacyField

RELAXED_ENV_VAR_NAME_MSG: Final = (
    "a valid environment variable name must consist only of printable ASCII characters other than '='"
)
# validEnvDownwardAPIFieldPathExpressions, validContainerResourceFieldPathExpressions (sets.List: sorted).
ENV_DOWNWARD_API_FIELD_PATHS: Final = (
    "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName",
    "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs",
)  # fmt: skip
CONTAINER_RESOURCE_FIELD_PATHS: Final = (
    "limits.cpu", "limits.ephemeral-storage", "limits.memory",
    "requests.cpu", "requests.ephemeral-storage", "requests.memory",
)  # fmt: skip
HUGEPAGES_PREFIXES: Final = ("requests.hugepages-", "limits.hugepages-")
# ConvertDownwardAPIFieldLabel (`pkg/apis/core/pods/helpers.go`): the labels a v1 field selector may name.
DOWNWARD_API_FIELD_LABELS: Final = frozenset(
    {
        "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid",
        "spec.nodeName", "spec.restartPolicy", "spec.serviceAccountName", "spec.schedulerName", "status.phase",
        "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs",
    }
)  # fmt: skip
_BYTE_DIVISORS: Final = frozenset({"1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei"})
_BYTE_DIVISORS_MSG: Final = "1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei"


def has_ch_dir_prefix(value: str) -> list[str]:
    """hasChDirPrefix."""
    if value == ".":
        return ["must not be '.'"]
    if value == "..":
        return ["must not be '..'"]
    return ["must not start with '..'"] if value.startswith("..") else []


def is_relaxed_env_var_name(value: str) -> list[str]:
    """IsRelaxedEnvVarName: printable ASCII but '='."""
    errs = ["environment variable name must be non-empty"] if not value else []
    if any(not 32 <= ord(c) <= 126 or c == "=" for c in value):
        errs.append(RELAXED_ENV_VAR_NAME_MSG)
    return errs


_CONFIG_MAP_KEY_FMT: Final = "[-._a-zA-Z0-9]+"
_CONFIG_MAP_KEY_RE: Final = re.compile(_CONFIG_MAP_KEY_FMT)


def is_config_map_key(value: str) -> list[str]:
    """IsConfigMapKey."""
    errs = [mv.max_len_error(mv.DNS1123_SUBDOMAIN_MAX_LENGTH)] if go_len(value) > mv.DNS1123_SUBDOMAIN_MAX_LENGTH else []
    if not _CONFIG_MAP_KEY_RE.fullmatch(value):
        errs.append(
            mv.regex_error(
                "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
                _CONFIG_MAP_KEY_FMT,
                "key.name",
                "KEY_NAME",
                "key-name",
            )
        )
    return errs + has_ch_dir_prefix(value)


def validate_env(env: list[Mapping[str, Any]], path: str, opts: PodValidationOptions) -> list[FieldError]:
    """ValidateEnv (with AllowRelaxedEnvironmentVariableValidation, on at every release modelled)."""
    errs: list[FieldError] = []
    for i, var in enumerate(env):
        idx = fe.index(path, i)
        name = var.get("name") or ""
        if not name:
            errs.append(fe.required(fe.child(idx, "name")))
        else:
            errs.extend(fe.invalid(fe.child(idx, "name"), name, m) for m in is_relaxed_env_var_name(name))
        errs.extend(validate_env_var_value_from(var, fe.child(idx, "valueFrom"), opts))
    return errs


def validate_env_var_value_from(var: Mapping[str, Any], path: str, opts: PodValidationOptions) -> list[FieldError]:
    """validateEnvVarValueFrom: exactly one source, and none beside a non-empty `value`."""
    source = var.get("valueFrom")
    if source is None:
        return []
    errs: list[FieldError] = []
    checks: list[tuple[str, Callable[[Mapping[str, Any], str, int], list[FieldError]]]] = [
        ("fieldRef", validate_object_field_selector),
        ("resourceFieldRef", validate_container_resource_field_selector),
        ("configMapKeyRef", validate_key_selector),
        ("secretKeyRef", validate_key_selector),
    ]
    if opts.release >= FILE_KEY_REF_RELEASE:  # older releases drop the unknown field on decoding
        checks.append(("fileKeyRef", validate_file_key_selector))
    sources = 0
    for key, check in checks:
        if source.get(key) is not None:
            sources += 1
            errs.extend(check(source[key], fe.child(path, key), opts.release))
    if sources == 0:
        errs.append(
            fe.invalid(
                path,
                "",
                "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`"
                if opts.allow_env_files_validation
                else "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`",
            )
        )
    elif var.get("value"):
        errs.append(fe.invalid(path, "", "may not be specified when `value` is not empty"))
    elif sources > 1:
        errs.append(fe.invalid(path, "", "may not have more than one field specified at a time"))
    return errs


def split_maybe_subscripted_path(field_path: str) -> tuple[str, str, bool]:
    """SplitMaybeSubscriptedPath (`pkg/fieldpath`): `metadata.labels['key']` into path and subscript."""
    if not field_path.endswith("']"):
        return field_path, "", False
    parts = field_path[: -len("']")].split("['", 1)
    if len(parts) < 2 or not parts[0]:
        return field_path, "", False
    return parts[0], parts[1], True


def convert_downward_api_field_label(version: str, label: str) -> tuple[str, str]:
    """ConvertDownwardAPIFieldLabel (`pkg/apis/core/pods/helpers.go`): the internal field path, or
    "" and the error."""
    if version != "v1":
        return "", f"unsupported pod version: {version}"
    path, _, subscripted = split_maybe_subscripted_path(label)
    if subscripted:
        if path in ("metadata.annotations", "metadata.labels"):
            return label, ""
        return "", f"field label does not support subscript: {label}"
    if label in DOWNWARD_API_FIELD_LABELS:
        return label, ""
    if label == "spec.host":  # old v1 clients
        return "spec.nodeName", ""
    return "", f"field label not supported: {label}"


def validate_object_field_selector(
    fs: Mapping[str, Any], path: str, release: int, expressions: tuple[str, ...] = ENV_DOWNWARD_API_FIELD_PATHS
) -> list[FieldError]:
    """validateObjectFieldSelector (`expressions`: an env var's, or a volume file's)."""
    api_version, field_path = fs.get("apiVersion") or "", fs.get("fieldPath") or ""
    if not api_version:
        return [fe.required(fe.child(path, "apiVersion"))]
    if not field_path:
        return [fe.required(fe.child(path, "fieldPath"))]
    internal, error = convert_downward_api_field_label(api_version, field_path)
    if error:
        return [fe.invalid(fe.child(path, "fieldPath"), field_path, f"error converting fieldPath: {error}")]
    prefix, subscript, subscripted = split_maybe_subscripted_path(internal)
    if subscripted:
        if prefix == "metadata.annotations":
            return mv.validate_qualified_name(go_to_lower(subscript), path, release)
        if prefix == "metadata.labels":
            return mv.validate_qualified_name(subscript, path, release)
        return [fe.invalid(path, prefix, "does not support subscript")]
    if prefix not in expressions:
        return [fe.not_supported(fe.child(path, "fieldPath"), prefix, expressions)]
    return []


def validate_container_resource_field_selector(
    fs: Mapping[str, Any], path: str, release: int, volume: bool = False
) -> list[FieldError]:
    """validateContainerResourceFieldSelector with the hugepages prefixes; a volume file's (`volume`)
    names its container."""
    del release
    resource = fs.get("resource") or ""
    errs: list[FieldError] = []
    if volume and not fs.get("containerName"):
        errs.append(fe.required(fe.child(path, "containerName")))
    elif not resource:
        errs.append(fe.required(fe.child(path, "resource")))
    elif resource not in CONTAINER_RESOURCE_FIELD_PATHS and not resource.startswith(HUGEPAGES_PREFIXES):
        errs.append(fe.not_supported(fe.child(path, "resource"), resource, CONTAINER_RESOURCE_FIELD_PATHS))
    return errs + validate_container_resource_divisor(resource, fs.get("divisor"), path)


def validate_container_resource_divisor(resource: str, divisor: Any, path: str) -> list[FieldError]:
    """validateContainerResourceDivisor: the divisor's canonical form among the allowed units."""
    if divisor is None:
        return []
    text = decode_quantity(divisor, fe.child(path, "divisor"))
    if text == "0":  # zero: not checked
        return []
    if resource in ("limits.cpu", "requests.cpu"):
        if text not in ("1m", "1"):
            return [fe.invalid(fe.child(path, "divisor"), resource, "only divisor's values 1m and 1 are supported with the cpu resource")]
    elif resource in ("limits.memory", "requests.memory", "limits.ephemeral-storage", "requests.ephemeral-storage"):
        what = "memory" if resource.endswith("memory") else "local ephemeral storage"
        if text not in _BYTE_DIVISORS:
            return [fe.invalid(fe.child(path, "divisor"), resource, f"only divisor's values {_BYTE_DIVISORS_MSG} are supported with the {what} resource")]
    if resource.startswith(HUGEPAGES_PREFIXES) and text not in _BYTE_DIVISORS:
        return [fe.invalid(fe.child(path, "divisor"), resource, f"only divisor's values {_BYTE_DIVISORS_MSG} are supported with the hugepages resource")]
    return []


def validate_key_selector(s: Mapping[str, Any], path: str, release: int) -> list[FieldError]:
    """validateConfigMapKeySelector and validateSecretKeySelector (the same checks): the name a
    DNS subdomain (also when empty), the key required and a config key."""
    del release
    name, key = s.get("name") or "", s.get("key") or ""
    errs = [fe.invalid(fe.child(path, "name"), name, m) for m in mv.name_is_dns_subdomain(name, False)]
    if not key:
        errs.append(fe.required(fe.child(path, "key")))
    else:
        errs.extend(fe.invalid(fe.child(path, "key"), key, m) for m in is_config_map_key(key))
    return errs


def validate_file_key_selector(s: Mapping[str, Any], path: str, release: int) -> list[FieldError]:
    """validateFileKeySelector (1.34+): key an env var name, volumeName a DNS label, path without `..`."""
    del release
    key, volume, file_path = s.get("key") or "", s.get("volumeName") or "", s.get("path") or ""
    errs: list[FieldError] = []
    if not key:
        errs.append(fe.required(fe.child(path, "key")))
    else:
        errs.extend(fe.invalid(fe.child(path, "key"), key, m) for m in is_relaxed_env_var_name(key))
    if not volume:
        errs.append(fe.required(fe.child(path, "volumeName")))
    else:
        errs.extend(mv.validate_dns1123_label(volume, fe.child(path, "volumeName")))
    if not file_path:
        errs.append(fe.required(fe.child(path, "path")))
    elif ".." in file_path.split("/"):  # validatePathNoBacksteps
        errs.append(fe.invalid(fe.child(path, "path"), file_path, "must not contain '..'"))
    return errs


def validate_env_from(env_from: list[Mapping[str, Any]], path: str, opts: PodValidationOptions) -> list[FieldError]:
    """ValidateEnvFrom: the prefix an env var name, exactly one of configMapRef and secretRef
    (whose count errors upstream puts on the list, not the item)."""
    del opts  # the relaxed names are on at every release modelled
    errs: list[FieldError] = []
    for i, source in enumerate(env_from):
        idx = fe.index(path, i)
        prefix = source.get("prefix") or ""
        if prefix:
            errs.extend(fe.invalid(fe.child(idx, "prefix"), prefix, m) for m in is_relaxed_env_var_name(prefix))
        sources = 0
        for key in ("configMapRef", "secretRef"):  # validateConfigMapEnvSource, validateSecretEnvSource
            ref = source.get(key)
            if ref is None:
                continue
            sources += 1
            name, name_path = ref.get("name") or "", fe.child(idx, key, "name")
            if not name:
                errs.append(fe.required(name_path))
            else:
                errs.extend(fe.invalid(name_path, name, m) for m in mv.name_is_dns_subdomain(name, True))
        if sources == 0:
            errs.append(fe.invalid(path, "", "must specify one of: `configMapRef` or `secretRef`"))
        elif sources > 1:
            errs.append(fe.invalid(path, "", "may not have more than one field specified at a time"))
    return errs


def pod_file_key_ref_in_use(pod_spec: Mapping[str, Any] | None) -> bool:
    """useAllowEnvFilesValidation's look at the old template (`pkg/api/pod/util.go`, 1.34+): an env
    var of any container reads a file."""
    return any(
        (var.get("valueFrom") or {}).get("fileKeyRef") is not None
        for ctr, _ in visit_containers_with_path(pod_spec)
        for var in ctr.get("env") or []
    )


def validate_file_key_ref_volumes(spec: Mapping[str, Any], path: str, release: int) -> list[FieldError]:
    """validateFileKeyRefVolumes (1.34+): a fileKeyRef's volume is one of the pod's, an emptyDir."""
    if release < FILE_KEY_REF_RELEASE:
        return []
    sources = {str(v.get("name") or ""): v for v in spec.get("volumes") or []}  # the last of a name wins
    errs: list[FieldError] = []
    for ctr, ctr_path in visit_containers_with_path(spec, path):
        for j, var in enumerate(ctr.get("env") or []):
            ref = (var.get("valueFrom") or {}).get("fileKeyRef")
            if ref is None:
                continue
            name = ref.get("volumeName") or ""
            name_path = fe.child(fe.index(fe.child(ctr_path, "env"), j), "valueFrom", "fileKeyRef", "volumeName")
            if name not in sources:
                errs.append(fe.not_found(name_path, name))
            elif sources[name].get("emptyDir") is None:
                errs.append(fe.invalid(name_path, name, "referenced volume must be of type emptyDir"))
    return errs


def drop_file_key_ref(pod_spec: Mapping[str, Any]) -> None:
    """dropFileKeyRefInUse's drop (`pkg/api/pod/util.go`, 1.34), in place: no env var keeps a fileKeyRef."""
    for ctr, _ in visit_containers_with_path(pod_spec):
        for var in ctr.get("env") or []:
            source = var.get("valueFrom")
            if isinstance(source, dict):
                source.pop("fileKeyRef", None)


def validate_host_aliases(aliases: list[Mapping[str, Any]], path: str, release: int) -> list[FieldError]:
    """ValidateHostAliases: each IP (IsValidIP up to 1.32, IsValidIPForLegacyField after), each
    hostname a DNS subdomain."""
    errs: list[FieldError] = []
    for i, alias in enumerate(aliases):
        idx = fe.index(path, i)
        errs.extend(is_valid_ip_for_legacy_field(fe.child(idx, "ip"), alias.get("ip") or "", release >= STRICT_IP_RELEASE))
        for j, hostname in enumerate(alias.get("hostnames") or []):
            errs.extend(fe.invalid(fe.index(fe.child(idx, "hostnames"), j), hostname, m) for m in mv.is_dns1123_subdomain(hostname))
    return errs


