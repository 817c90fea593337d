"""Validation of the pod fields added after 1.32 that ValidatePodSpec and the declarative rules of
core/v1 check (`pkg/apis/core/validation/validation.go`, `pkg/apis/core/v1/validation.go` and
`zz_generated.validations.go` of each release), in the releases whose types have them:

- `hostnameOverride` (1.34+, validatePodHostName);
- `workloadRef` (1.35 only, validateWorkloadReference);
- `schedulingGroup` (1.36+, validateSchedulingGroup; 1.37 forbids it beside evictionResponders);
- a volume mount's `bindMountOptions` (1.37, validateBindMountOptions);
- `evictionResponders` (1.37): declarative only (Validate_PodSpec, Validate_EvictionResponder and
  their custom rules), run by the API server after the hand-written checks, with ratcheting on
  update (strategy.validate_declaratively).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from jobmodel.api import field as fe
from jobmodel.api import meta_validation as mv
from jobmodel.api.equality import semantic_equal
from jobmodel.api.field import FieldError
from jobmodel.api.pod_util import visit_containers_with_path
from jobmodel.util.gostrings import go_len, go_to_lower, go_trim_space

HOSTNAME_OVERRIDE_MAX_LENGTH: Final = 64
BIND_MOUNT_OPTIONS: Final = ("nodev", "noexec", "nosuid")  # sets.List order
MAX_POD_EVICTION_RESPONDERS: Final = 10
RESERVED_RESPONDER_SUFFIXES: Final = (".k8s.io", ".kubernetes.io")


def validate_pod_host_name(spec: Mapping[str, Any], path: str) -> list[FieldError]:
    """validatePodHostName (1.34+): hostnameOverride is no DNS subdomain longer than 64, and not
    beside setHostnameAsFQDN or hostNetwork."""
    override = spec.get("hostnameOverride")
    if override is None:
        return []
    at = fe.child(path, "hostnameOverride")
    errs: list[FieldError] = []
    if spec.get("setHostnameAsFQDN") is True:
        errs.append(fe.forbidden(at, "may not be specified when setHostnameAsFQDN is true"))
    if spec.get("hostNetwork") is True:
        errs.append(fe.forbidden(at, "may not be specified when hostNetwork is true"))
    if go_len(override) > HOSTNAME_OVERRIDE_MAX_LENGTH:
        errs.append(fe.too_long(at, HOSTNAME_OVERRIDE_MAX_LENGTH))
    errs.extend(fe.invalid(at, override, m) for m in mv.is_dns1123_subdomain(override))
    return errs


def validate_workload_reference(ref: Mapping[str, Any], path: str) -> list[FieldError]:
    """validateWorkloadReference (1.35): the name a DNS subdomain, the pod group and its replica
    key (when set) DNS labels."""
    name, group, key = str(ref.get("name", "")), str(ref.get("podGroup", "")), str(ref.get("podGroupReplicaKey", ""))
    errs = [fe.invalid(fe.child(path, "name"), name, m) for m in mv.is_dns1123_subdomain(name)]
    errs.extend(fe.invalid(fe.child(path, "podGroup"), group, m) for m in mv.is_dns1123_label(group))
    if key:
        errs.extend(fe.invalid(fe.child(path, "podGroupReplicaKey"), key, m) for m in mv.is_dns1123_label(key))
    return errs


def validate_scheduling_group(group: Mapping[str, Any], path: str) -> list[FieldError]:
    """validateSchedulingGroup (1.36+): a podGroupName, a DNS subdomain (ValidatePodGroupName)."""
    at = fe.child(path, "podGroupName")
    name = group.get("podGroupName")
    if name is None:
        return [fe.invalid(at, None, "must specify one of: `podGroupName`")]
    return [fe.invalid(at, name, m) for m in mv.is_dns1123_subdomain(name)]


def validate_bind_mount_options(options: list[str], path: str) -> list[FieldError]:
    """validateBindMountOptions (1.37): supported and not repeated."""
    errs: list[FieldError] = []
    seen: set[str] = set()
    for i, option in enumerate(options):
        if option not in BIND_MOUNT_OPTIONS:
            errs.append(fe.not_supported(fe.index(path, i), option, BIND_MOUNT_OPTIONS))
        errs.extend(fe.unique(fe.index(path, i), option, seen))
    return errs


def _bind_mounts(spec: Mapping[str, Any], path: str, volumes: Mapping[str, Mapping[str, Any]]) -> list[FieldError]:
    """ValidateVolumeMounts' bindMountOptions of every container (1.37); an image volume takes
    none (read from the valid volumes by name: of a repeated name, the first valid one)."""
    errs: list[FieldError] = []
    for ctr, ctr_path in visit_containers_with_path(spec, path):
        for i, mount in enumerate(ctr.get("volumeMounts") or []):
            options = mount.get("bindMountOptions") or []
            at = fe.child(fe.index(fe.child(ctr_path, "volumeMounts"), i), "bindMountOptions")
            errs.extend(validate_bind_mount_options(options, at))
            name = str(mount.get("name") or "")
            if options and name in volumes and volumes[name].get("image") is not None:
                errs.append(fe.invalid(at, options, "bindMountOptions may not be used with image volumes"))
    return errs


def validate_recent_pod_fields(
    spec: Mapping[str, Any], path: str, release: int, volumes: Mapping[str, Mapping[str, Any]]
) -> list[FieldError]:
    """ValidatePodSpec's checks of the fields above (`volumes`: the valid volumes by name)."""
    errs: list[FieldError] = []
    if release >= 34:
        errs.extend(validate_pod_host_name(spec, path))
    if release == 35 and spec.get("workloadRef") is not None:
        errs.extend(validate_workload_reference(spec["workloadRef"], fe.child(path, "workloadRef")))
    if release >= 36 and spec.get("schedulingGroup") is not None:
        errs.extend(validate_scheduling_group(spec["schedulingGroup"], fe.child(path, "schedulingGroup")))
        if release >= 37 and spec.get("evictionResponders"):
            errs.append(fe.forbidden(fe.child(path, "schedulingGroup"), "may not be set when evictionResponders is set"))
    if release >= 37:
        errs.extend(_bind_mounts(spec, path, volumes))
    return errs


# ---------------------------------------------------------------------------- declarative


def validate_forbidden_reserved_domain_suffixes(value: str, path: str) -> list[FieldError]:
    """ValidateForbiddenReservedDomainSuffixes (`pkg/apis/core/v1/validation.go`)."""
    clean = go_trim_space(go_to_lower(value.split("/", 1)[0])).rstrip(".")
    if any(clean.endswith(s) or clean == s.strip(".") for s in RESERVED_RESPONDER_SUFFIXES):
        reserved = ", ".join("*" + s for s in RESERVED_RESPONDER_SUFFIXES)
        return [fe.invalid(path, value, f"domain names {reserved} are reserved")]
    return []


def is_prefixed_label_key(value: str) -> list[str]:
    """content.IsPrefixedLabelKey: a label key with a prefix."""
    errs = mv.is_qualified_name(value, 37)  # content.IsLabelKey
    if errs:
        return errs
    return [] if len(value.split("/")) == 2 else ["must include a prefix (e.g. 'example.com/key')"]


def validate_eviction_responder(item: Mapping[str, Any], old: Mapping[str, Any] | None, path: str) -> list[FieldError]:
    """Validate_EvictionResponder: name and priority, each not revalidated when unchanged."""
    errs: list[FieldError] = []
    name = str(item.get("name", ""))
    name_path = fe.child(path, "name")
    if old is None or name != old.get("name", ""):
        if not name:
            errs.append(fe.required(name_path))
        else:
            errs.extend(validate_forbidden_reserved_domain_suffixes(name, name_path))
            errs.extend(fe.invalid(name_path, name, m) for m in is_prefixed_label_key(name))
    priority = item.get("priority")
    priority_path = fe.child(path, "priority")
    if old is not None and priority == old.get("priority"):
        return errs
    if priority is None:
        errs.append(fe.required(priority_path))
        return errs
    if 0 <= priority < 1000:
        errs.append(fe.invalid(priority_path, priority, "priorities 0-999 are reserved for responders with *.k8s.io suffix"))
    if priority > 100000:
        errs.append(fe.invalid(priority_path, priority, "must be less than or equal to 100000"))
    if priority < 0:
        errs.append(fe.invalid(priority_path, priority, "must be greater than or equal to 0"))
    return errs


def validate_eviction_responders_declaratively(
    spec: Mapping[str, Any], old: Mapping[str, Any] | None, path: str
) -> list[FieldError]:
    """Validate_PodSpec's evictionResponders (1.37): at most 10, names unique, each item
    (Validate_EvictionResponder) unless an old item of its name is semantically equal; the
    unchanged list is not revalidated on update."""
    items = spec.get("evictionResponders") or []
    old_items = None if old is None else old.get("evictionResponders") or []
    at = fe.child(path, "evictionResponders")
    if old_items is not None and semantic_equal(items, old_items):
        return []
    if len(items) > MAX_POD_EVICTION_RESPONDERS:
        return [fe.too_many(at, len(items), MAX_POD_EVICTION_RESPONDERS)]
    names = [item.get("name", "") for item in items]
    # The bad value is a v1.EvictionResponder: json tags without omitempty, a nil priority as null.
    errs = [
        fe.duplicate(fe.index(at, j), fe.GoStruct((("name", names[j]), ("priority", items[j].get("priority")))))
        for j in range(len(items))
        if names[j] in names[:j]
    ]
    for i, item in enumerate(items):
        match = next((o for o in old_items or [] if o.get("name", "") == names[i]), None)
        if match is not None and semantic_equal(item, match):
            continue
        errs.extend(validate_eviction_responder(item, match, fe.index(at, i)))
    return errs
