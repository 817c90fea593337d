"""The pod-specific annotations of a pod template as core validation checks them
(`pkg/apis/core/validation/validation.go`): ValidatePodSpecificAnnotations (the mirror-pod
annotation needs a node name, the deletion cost is a 32-bit integer unless the old template's is
not, and the deprecated seccomp and AppArmor annotations: ValidateSeccompPodAnnotations and
ValidateAppArmorPodAnnotations, each value a profile name, an AppArmor annotation naming a
container of the pod, the tolerations annotation decoded as Go's encoding/json decodes it:
jobmodel.api.go_json), and, after the spec, ValidatePodTemplateSpec's agreement of those
annotations with the security-context fields when both are given
(validateSeccompAnnotationsAndFields, validateAppArmorAnnotationsAndFieldsMatchOnCreate, the
latter skipped for a Windows pod). The same in every release modelled; no release drops them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from jobmodel.api import field as fe
from jobmodel.api import go_json
from jobmodel.api.field import FieldError
from jobmodel.api.pod_security import validate_local_descending_path
from jobmodel.api.pod_util import visit_containers_with_path
from jobmodel.util.goquote import go_quote
from jobmodel.util.gostrings import go_atoi

MIRROR_POD_ANNOTATION: Final = "kubernetes.io/config.mirror"
TOLERATIONS_ANNOTATION: Final = "scheduler.alpha.kubernetes.io/tolerations"
# The internal core.Toleration's fields (no json tags: matched by foldName) and their Go types.
_TOLERATION_FIELDS: Final = {
    go_json.fold_name(name): (name, wire, go_type)
    for name, wire, go_type in (
        ("Key", "key", "string"), ("Operator", "operator", "core.TolerationOperator"), ("Value", "value", "string"),
        ("Effect", "effect", "core.TaintEffect"), ("TolerationSeconds", "tolerationSeconds", "int64"),
    )
}  # fmt: skip
POD_DELETION_COST_ANNOTATION: Final = "controller.kubernetes.io/pod-deletion-cost"
SECCOMP_POD_ANNOTATION: Final = "seccomp.security.alpha.kubernetes.io/pod"
SECCOMP_CONTAINER_ANNOTATION_PREFIX: Final = "container.seccomp.security.alpha.kubernetes.io/"
APPARMOR_CONTAINER_ANNOTATION_PREFIX: Final = "container.apparmor.security.beta.kubernetes.io/"
RUNTIME_DEFAULT: Final = "runtime/default"
DOCKER_DEFAULT: Final = "docker/default"  # DeprecatedSeccompProfileDockerDefault
SECCOMP_UNCONFINED: Final = "unconfined"
APPARMOR_UNCONFINED: Final = "unconfined"
LOCALHOST_PREFIX: Final = "localhost/"
SECCOMP_MISMATCH: Final = "seccomp type in annotation and field must match"
SECCOMP_PROFILE_MISMATCH: Final = "seccomp profile in annotation and field must match"
APPARMOR_MISMATCH: Final = "apparmor type in annotation and field must match"
APPARMOR_PROFILE_MISMATCH: Final = "apparmor profile in annotation and field must match"


def deletion_cost_is_valid(annotations: Mapping[str, str]) -> bool:
    """GetDeletionCostFromPodAnnotations without an error: absent, or an int32 in base 10 whose
    first character is `-` or a non-zero digit, or exactly "0" (validFirstDigit)."""
    if POD_DELETION_COST_ANNOTATION not in annotations:
        return True
    value = annotations[POD_DELETION_COST_ANNOTATION]
    first_digit_ok = value[:1] == "-" or value == "0" or value[:1] in set("123456789")
    return first_digit_ok and go_atoi(value, 32) is not None


def _decode_toleration(item: Any, errors: list[str]) -> dict[str, Any]:
    """One element of []core.Toleration as json.Unmarshal fills it; type errors appended."""
    toleration: dict[str, Any] = {}
    if item is None:
        return toleration
    if not isinstance(item, go_json.GoObject):
        errors.append(f"json: cannot unmarshal {go_json.json_kind(item)} into Go value of type core.Toleration")
        return toleration
    for key, value in item:
        field = _TOLERATION_FIELDS.get(go_json.fold_name(key))
        if field is None:
            continue  # unknown fields are ignored
        name, wire, go_type = field
        kind = go_json.json_kind(value) if value is not None else "null"
        if kind == "null":
            if go_type == "int64":
                toleration.pop(wire, None)  # a nil pointer; a null string is left as it is
        elif go_type != "int64" and kind == "string":
            toleration[wire] = value
        elif go_type == "int64" and kind == "number" and (number := go_atoi(value)) is not None:
            toleration[wire] = number  # literalStore's strconv.ParseInt
        else:
            # literalStore names the number an integer field cannot hold, not one for a string field.
            shown = f"number {value}" if kind == "number" and go_type == "int64" else kind
            errors.append(f"json: cannot unmarshal {shown} into Go struct field Toleration.{name} of type {go_type}")
    return toleration


def get_tolerations_from_pod_annotations(annotations: Mapping[str, str]) -> list[Mapping[str, Any]]:
    """GetTolerationsFromPodAnnotations (`pkg/apis/core/helper`): json.Unmarshal into
    []core.Toleration; a ValueError carries Go's error (a syntax error, else the first type error)."""
    text = annotations.get(TOLERATIONS_ANNOTATION) or ""
    if not text:
        return []
    value = go_json.loads_checked(text)
    if value is None:
        return []
    if isinstance(value, go_json.GoObject) or not isinstance(value, list):
        raise ValueError(f"json: cannot unmarshal {go_json.json_kind(value)} into Go value of type []core.Toleration")
    errors: list[str] = []
    tolerations: list[Mapping[str, Any]] = [_decode_toleration(item, errors) for item in value]
    if errors:
        raise ValueError(errors[0])
    return tolerations


def validate_pod_specific_annotations(
    annotations: Mapping[str, str],
    spec: Mapping[str, Any],
    path: str,
    allow_invalid_pod_deletion_cost: bool = False,
) -> list[FieldError]:
    """ValidatePodSpecificAnnotations, but for the tolerations annotation
    (pod_validation.validate_tolerations_in_pod_annotations, beside ValidateTolerations)."""
    errs: list[FieldError] = []
    if MIRROR_POD_ANNOTATION in annotations and not spec.get("nodeName"):
        errs.append(
            fe.invalid(fe.key(path, MIRROR_POD_ANNOTATION), annotations[MIRROR_POD_ANNOTATION], "must set spec.nodeName if mirror pod annotation is set")
        )
    if not allow_invalid_pod_deletion_cost and not deletion_cost_is_valid(annotations):
        errs.append(fe.invalid(fe.key(path, POD_DELETION_COST_ANNOTATION), annotations[POD_DELETION_COST_ANNOTATION], "must be a 32bit integer"))
    errs.extend(validate_seccomp_pod_annotations(annotations, path))
    errs.extend(validate_app_armor_pod_annotations(annotations, spec, path))
    return errs


def validate_seccomp_profile(profile: str, path: str) -> list[FieldError]:
    """ValidateSeccompProfile: an annotation's profile name."""
    if profile in (RUNTIME_DEFAULT, DOCKER_DEFAULT, SECCOMP_UNCONFINED):
        return []
    if profile.startswith(LOCALHOST_PREFIX):
        return validate_local_descending_path(profile.removeprefix(LOCALHOST_PREFIX), path)
    return [fe.invalid(path, profile, "must be a valid seccomp profile")]


def validate_seccomp_pod_annotations(annotations: Mapping[str, str], path: str) -> list[FieldError]:
    """ValidateSeccompPodAnnotations: on `path.<key>` (Path.Child, not Key)."""
    errs: list[FieldError] = []
    if SECCOMP_POD_ANNOTATION in annotations:
        errs.extend(validate_seccomp_profile(annotations[SECCOMP_POD_ANNOTATION], fe.child(path, SECCOMP_POD_ANNOTATION)))
    for key, profile in annotations.items():
        if key.startswith(SECCOMP_CONTAINER_ANNOTATION_PREFIX):
            errs.extend(validate_seccomp_profile(profile, fe.child(path, key)))
    return errs


def validate_app_armor_profile_format(profile: str) -> str | None:
    """ValidateAppArmorProfileFormat: the error's text, or None."""
    if profile in ("", RUNTIME_DEFAULT, APPARMOR_UNCONFINED) or profile.startswith(LOCALHOST_PREFIX):
        return None
    return f"invalid AppArmor profile name: {go_quote(profile)}"


def pod_spec_has_container(spec: Mapping[str, Any], name: str) -> bool:
    """podSpecHasContainer: any container, init or ephemeral one included."""
    return any((c.get("name") or "") == name for c, _ in visit_containers_with_path(spec))


def validate_app_armor_pod_annotations(annotations: Mapping[str, str], spec: Mapping[str, Any], path: str) -> list[FieldError]:
    """ValidateAppArmorPodAnnotations: on `path[<key>]`."""
    errs: list[FieldError] = []
    for key, profile in annotations.items():
        if not key.startswith(APPARMOR_CONTAINER_ANNOTATION_PREFIX):
            continue
        name = key.removeprefix(APPARMOR_CONTAINER_ANNOTATION_PREFIX)
        if not pod_spec_has_container(spec, name):
            errs.append(fe.invalid(fe.key(path, key), name, "container not found"))
        error = validate_app_armor_profile_format(profile)
        if error is not None:
            errs.append(fe.invalid(fe.key(path, key), profile, error))
    return errs


def validate_seccomp_annotations_and_fields_match(annotation: str, profile: Mapping[str, Any], path: str) -> list[FieldError]:
    """validateSeccompAnnotationsAndFieldsMatch."""
    kind = profile.get("type")
    if kind == "Unconfined" and annotation != SECCOMP_UNCONFINED:
        return [fe.forbidden(fe.child(path, "type"), SECCOMP_MISMATCH)]
    if kind == "RuntimeDefault" and annotation not in (RUNTIME_DEFAULT, DOCKER_DEFAULT):
        return [fe.forbidden(fe.child(path, "type"), SECCOMP_MISMATCH)]
    if kind == "Localhost":
        if not annotation.startswith(LOCALHOST_PREFIX):
            return [fe.forbidden(fe.child(path, "type"), SECCOMP_MISMATCH)]
        if annotation.removeprefix(LOCALHOST_PREFIX) != profile.get("localhostProfile"):
            return [fe.forbidden(fe.child(path, "localhostProfile"), SECCOMP_PROFILE_MISMATCH)]
    return []


def validate_seccomp_annotations_and_fields(annotations: Mapping[str, str], spec: Mapping[str, Any], path: str) -> list[FieldError]:
    """validateSeccompAnnotationsAndFields: the pod's profile against the pod annotation, each
    container's own profile against its annotation."""
    errs: list[FieldError] = []
    pod_profile = (spec.get("securityContext") or {}).get("seccompProfile")
    if pod_profile is not None and SECCOMP_POD_ANNOTATION in annotations:
        errs.extend(
            validate_seccomp_annotations_and_fields_match(
                annotations[SECCOMP_POD_ANNOTATION], pod_profile, fe.child(path, "securityContext", "seccompProfile")
            )
        )
    for ctr, ctr_path in visit_containers_with_path(spec, path):
        profile = (ctr.get("securityContext") or {}).get("seccompProfile")
        key = SECCOMP_CONTAINER_ANNOTATION_PREFIX + (ctr.get("name") or "")
        if profile is not None and key in annotations:
            errs.extend(
                validate_seccomp_annotations_and_fields_match(annotations[key], profile, fe.child(ctr_path, "securityContext", "seccompProfile"))
            )
    return errs


def validate_app_armor_annotations_and_fields_match_on_create(
    annotations: Mapping[str, str], spec: Mapping[str, Any], path: str
) -> list[FieldError]:
    """validateAppArmorAnnotationsAndFieldsMatchOnCreate: a container's profile (its own, else the
    pod's) against its annotation; not for a Windows pod."""
    if (spec.get("os") or {}).get("name") == "windows":
        return []
    errs: list[FieldError] = []
    pod_profile = (spec.get("securityContext") or {}).get("appArmorProfile")
    for ctr, ctr_path in visit_containers_with_path(spec, path):
        own = (ctr.get("securityContext") or {}).get("appArmorProfile")
        profile = own if own is not None else pod_profile
        key = APPARMOR_CONTAINER_ANNOTATION_PREFIX + (ctr.get("name") or "")
        if profile is None or key not in annotations:
            continue
        annotation, apparmor_path = annotations[key], fe.child(ctr_path, "securityContext", "appArmorProfile")
        kind = profile.get("type")
        if (kind == "Unconfined" and annotation != APPARMOR_UNCONFINED) or (kind == "RuntimeDefault" and annotation != RUNTIME_DEFAULT):
            errs.append(fe.forbidden(fe.child(apparmor_path, "type"), APPARMOR_MISMATCH))
        elif kind == "Localhost":
            if not annotation.startswith(LOCALHOST_PREFIX):
                errs.append(fe.forbidden(fe.child(apparmor_path, "type"), APPARMOR_MISMATCH))
            elif annotation.removeprefix(LOCALHOST_PREFIX) != profile.get("localhostProfile"):
                errs.append(fe.forbidden(fe.child(apparmor_path, "localhostProfile"), APPARMOR_PROFILE_MISMATCH))
    return errs
