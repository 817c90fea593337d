"""Dynamic resource allocation's claims in a pod template as core validation checks them
(`pkg/apis/core/validation/validation.go`: validatePodResourceClaims for `spec.resourceClaims`,
validateResourceClaimNames for each container's `resources.claims`), and their drop while
DynamicResourceAllocation is off (`pkg/api/pod/util.go` dropDisabledDynamicResourceAllocationFields).

Release differences: DynamicResourceAllocation is off up to 1.33 (beta, off by default), so
both lists are dropped before validation unless the old template has pod claims
(dynamicResourceAllocationInUse); GA and on from 1.34. A template is no mirror pod (ValidatePodSpec
gets no pod metadata), so the static-pod rule of 1.33+ never applies.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jobmodel.api import field as fe
from jobmodel.api import meta_validation as mv
from jobmodel.api.field import NOT_FOUND, FieldError
from jobmodel.api.pod_resources import POD_LEVEL_RESOURCES_RELEASE
from jobmodel.api.pod_util import visit_containers_with_path
from jobmodel.features import NEWEST_MINOR


def dynamic_resource_allocation_in_use(spec: Mapping[str, Any] | None) -> bool:
    """dynamicResourceAllocationInUse: the pod claims only (containers cannot name others)."""
    return bool((spec or {}).get("resourceClaims"))


def drop_disabled_dynamic_resource_allocation_fields(spec: dict[str, Any], old_spec: Mapping[str, Any] | None, release: int) -> None:
    """dropDisabledDynamicResourceAllocationFields, in place: before 1.34 the containers' claims
    and the pod's resourceClaims, unless the old template has pod claims."""
    if release >= 34 or dynamic_resource_allocation_in_use(old_spec):
        return
    for ctr, _ in visit_containers_with_path(spec):
        resources = ctr.get("resources")
        if isinstance(resources, dict):
            resources.pop("claims", None)
    spec.pop("resourceClaims", None)


def _internal_claim(claim: Mapping[str, Any], release: int) -> Any:
    """The internal core.PodResourceClaim as the bad value (fe.go_struct: json.Marshal with its Go
    field names from v1.34, `%#v` before unless a source pointer is set)."""
    fields = (
        ("Name", claim.get("name") or ""),
        ("ResourceClaimName", claim.get("resourceClaimName")),
        ("ResourceClaimTemplateName", claim.get("resourceClaimTemplateName")),
    )
    return fe.go_struct(fe.GoStruct(fields, "core.PodResourceClaim", ("string", "*string", "*string")), release)


def validate_pod_resource_claim(claim: Mapping[str, Any], names: set[str], path: str, release: int) -> list[FieldError]:
    """validatePodResourceClaim: a unique DNS-label name, exactly one source, each a DNS subdomain."""
    errs: list[FieldError] = []
    name = claim.get("name") or ""
    if not name:
        errs.append(fe.required(fe.child(path, "name")))
    elif name in names:
        errs.append(fe.duplicate(fe.child(path, "name"), name))
    else:
        errs.extend(mv.validate_dns1123_label(name, fe.child(path, "name")))
        names.add(name)
    claim_name, template_name = claim.get("resourceClaimName"), claim.get("resourceClaimTemplateName")
    if claim_name is not None and template_name is not None:
        errs.append(fe.invalid(path, _internal_claim(claim, release), "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified"))
    if claim_name is None and template_name is None:
        errs.append(fe.invalid(path, _internal_claim(claim, release), "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`"))
    for key, value in (("resourceClaimName", claim_name), ("resourceClaimTemplateName", template_name)):
        if value is not None:
            # ValidateResourceClaimName, ValidateResourceClaimTemplateName: NameIsDNSSubdomain
            errs.extend(fe.invalid(fe.child(path, key), value, m) for m in mv.name_is_dns_subdomain(value, False))
    return errs


def validate_pod_resource_claims(claims: list[Mapping[str, Any]], path: str, release: int) -> list[FieldError]:
    """validatePodResourceClaims."""
    names: set[str] = set()
    return [e for i, claim in enumerate(claims) for e in validate_pod_resource_claim(claim, names, fe.index(path, i), release)]


def gather_pod_resource_claim_names(claims: list[Mapping[str, Any]]) -> set[str]:
    """gatherPodResourceClaimNames."""
    return {str(c.get("name")) for c in claims if c.get("name")}


def validate_resource_claim_names(claims: list[Mapping[str, Any]], pod_claim_names: set[str], path: str) -> list[FieldError]:
    """validateResourceClaimNames: a container's claims name pod claims, each claim or request once."""
    errs: list[FieldError] = []
    names: set[str] = set()
    for i, claim in enumerate(claims):
        idx, name, request = fe.index(path, i), claim.get("name") or "", claim.get("request") or ""
        if not name:
            errs.append(fe.required(idx))
            continue
        if name in names:
            errs.append(fe.duplicate(idx, name))  # all requests of that claim already referenced
        else:
            key = name
            if request:
                errs.extend(mv.validate_dns1123_label(request, fe.child(idx, "request")))
                key += "/" + request
            if key in names:
                errs.append(fe.duplicate(idx, key))
            elif not request:
                # A whole claim after one of its requests: one error per such request.
                errs.extend(fe.duplicate(idx, name) for k in names if "/" in k and k.split("/", 1)[0] == name)
            names.add(key)
        if name not in pod_claim_names:
            listed = ": " + ", ".join(sorted(pod_claim_names)) if pod_claim_names else " which is empty"
            errs.append(FieldError(NOT_FOUND, idx, name, "must be one of the names in pod.spec.resourceClaims" + listed))
    return errs


def validate_pod_claims(spec: Mapping[str, Any], path: str, release: int = NEWEST_MINOR) -> list[FieldError]:
    """ValidatePodSpec's claims: validatePodResourceClaims, then validateResourceClaimNames
    (validateResourceRequirements' last check) for each container and for the pod-level resources
    where validatePodResources checks them (from 1.34, not for a Windows pod)."""
    pod_claims = spec.get("resourceClaims") or []
    errs = validate_pod_resource_claims(pod_claims, fe.child(path, "resourceClaims"), release)
    pod_claim_names = gather_pod_resource_claim_names(pod_claims)
    requirements = [((ctr.get("resources") or {}), fe.child(ctr_path, "resources")) for ctr, ctr_path in visit_containers_with_path(spec, path)]
    pod_resources = spec.get("resources")
    if pod_resources is not None and release >= POD_LEVEL_RESOURCES_RELEASE and (spec.get("os") or {}).get("name") != "windows":
        requirements.append((pod_resources, fe.child(path, "resources")))
    for resources, resources_path in requirements:
        errs.extend(validate_resource_claim_names(resources.get("claims") or [], pod_claim_names, fe.child(resources_path, "claims")))
    return errs
