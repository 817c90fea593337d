"""Compute resources of a pod template (`pkg/apis/core/validation/validation.go`, the same in 1.32
... 1.37): each container's (init and ephemeral ones too) `resources` limits and requests, and
the pod's `overhead` (validated as limits). Names: a qualified name, standard for containers
(cpu, memory, ephemeral-storage, hugepages-*) when not prefixed, extended-resource rules when
prefixed; quantities: not negative, whole numbers for extended resources, hugepages a multiple
of the page size and only beside cpu or memory; requests not above limits, and equal to them for
resources that cannot be overcommitted.

The pod-level `spec.resources` (PodLevelResources: beta and on by default from 1.34, off before)
from 1.34: cpu, memory and hugepages only, no claims, not on Windows, requests not below the
containers' aggregate requests (AggregateContainerRequests), hugepage limits not below theirs,
and no container limit above the pod's.

Quantities arrive decoded (a bad one is refused by the decoder: `jobmodel.api.quantity`).
Containers' `resources.claims` (and the pod's resourceClaims): jobmodel.api.pod_claims.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, Final

from jobmodel.api import field as fe
from jobmodel.api import meta_validation as mv
from jobmodel.api.field import FieldError, ServerPanic
from jobmodel.api.pod_util import visit_containers_with_path
from jobmodel.api.quantity import (
    Quantity,
    QuantityError,
    milli_value,
    parse_quantity,
    quantity_of,
    quantity_string,
    value_of,
)

RESOURCE_DEFAULT_NAMESPACE_PREFIX: Final = "kubernetes.io/"
DEFAULT_RESOURCE_REQUESTS_PREFIX: Final = "requests."
RESOURCE_HUGE_PAGES_PREFIX: Final = "hugepages-"
RESOURCE_REQUESTS_HUGE_PAGES_PREFIX: Final = "requests.hugepages-"
STANDARD_CONTAINER_RESOURCES: Final = frozenset({"cpu", "memory", "ephemeral-storage"})
# helper.standardResources and integerResources.
STANDARD_RESOURCES: Final = frozenset(
    {
        "cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory", "requests.ephemeral-storage",
        "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods", "resourcequotas", "services",
        "replicationcontrollers", "secrets", "configmaps", "persistentvolumeclaims", "storage",
        "requests.storage", "services.nodeports", "services.loadbalancers",
    }
)  # fmt: skip
INTEGER_RESOURCES: Final = frozenset(
    {
        "pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps",
        "persistentvolumeclaims", "services.nodeports", "services.loadbalancers",
    }
)  # fmt: skip
QOS_COMPUTE_RESOURCES: Final = frozenset({"cpu", "memory"})
IS_NOT_INTEGER_ERROR_MSG: Final = "must be an integer"

SUPPORTED_POD_LEVEL_RESOURCES: Final = ("cpu", "hugepages-", "memory")  # sets.List: sorted
POD_LEVEL_RESOURCES_RELEASE: Final = 34  # PodLevelResources on by default

NameValidator = Callable[[str, str, int], list[FieldError]]


def is_huge_page_resource_name(name: str) -> bool:
    """helper.IsHugePageResourceName."""
    return name.startswith(RESOURCE_HUGE_PAGES_PREFIX)


def is_native_resource(name: str) -> bool:
    """helper.IsNativeResource: unprefixed, or in the kubernetes.io/ namespace."""
    return "/" not in name or RESOURCE_DEFAULT_NAMESPACE_PREFIX in name


def is_extended_resource_name(name: str) -> bool:
    """helper.IsExtendedResourceName."""
    if is_native_resource(name) or name.startswith(DEFAULT_RESOURCE_REQUESTS_PREFIX):
        return False
    return not mv.is_qualified_name(DEFAULT_RESOURCE_REQUESTS_PREFIX + name)


def is_overcommit_allowed(name: str) -> bool:
    """helper.IsOvercommitAllowed."""
    return is_native_resource(name) and not is_huge_page_resource_name(name)


def is_integer_resource_name(name: str) -> bool:
    """helper.IsIntegerResourceName."""
    return name in INTEGER_RESOURCES or is_extended_resource_name(name)


def is_standard_resource_name(name: str) -> bool:
    """helper.IsStandardResourceName (with IsQuotaHugePageResourceName)."""
    return (
        name in STANDARD_RESOURCES
        or name.startswith(RESOURCE_HUGE_PAGES_PREFIX)
        or name.startswith(RESOURCE_REQUESTS_HUGE_PAGES_PREFIX)
    )


def is_huge_page_resource_value_divisible(name: str, quantity: Quantity) -> bool:
    """helper.IsHugePageResourceValueDivisible: the page size is the quantity after `hugepages-`."""
    if not is_huge_page_resource_name(name):
        return False
    try:
        page = parse_quantity(name.removeprefix(RESOURCE_HUGE_PAGES_PREFIX))
    except QuantityError:
        return False
    if page.value <= 0 or _go_rem(milli_value(page), 1000) != 0:
        return False
    page_value = value_of(page)
    if page_value == 0:
        # A page size beyond int64 (hugepages-100E): Value() overflows to 0 and Go divides by it.
        raise ServerPanic(name, "helper.IsHugePageResourceValueDivisible", "runtime error: integer divide by zero")
    return _go_rem(value_of(quantity), page_value) == 0


def _go_rem(a: int, b: int) -> int:
    """Go's % (the sign of the dividend)."""
    r = abs(a) % abs(b)
    return -r if a < 0 else r


def validate_resource_name(name: str, path: str, release: int) -> list[FieldError]:
    """validateResourceName: a qualified name, and a standard one when not prefixed."""
    bad = fe.stringer(name, release)  # a core.ResourceName
    errs = [fe.invalid(path, bad, m) for m in mv.is_qualified_name(name, release)]
    if errs:
        return errs
    if "/" not in name and not is_standard_resource_name(name):
        return [fe.invalid(path, bad, "must be a standard resource type or fully qualified")]
    return []


def validate_container_resource_name(name: str, path: str, release: int) -> list[FieldError]:
    """validateContainerResourceName (ValidateContainerResourceName from 1.37)."""
    errs = validate_resource_name(name, path, release)
    if "/" not in name:
        if name not in STANDARD_CONTAINER_RESOURCES and not is_huge_page_resource_name(name):
            errs.append(fe.invalid(path, fe.stringer(name, release), "must be a standard resource for containers"))
    elif not is_native_resource(name) and not is_extended_resource_name(name):
        errs.append(fe.invalid(path, fe.stringer(name, release), "doesn't follow extended resource name standard"))
    return errs


def validate_nonnegative_quantity(value: Quantity, path: str) -> list[FieldError]:
    """ValidateNonnegativeQuantity."""
    if value.value < 0:
        return [fe.invalid(path, quantity_string(value), mv.IS_NEGATIVE_ERROR_MSG)]
    return []


def validate_resource_quantity_value(name: str, value: Quantity, path: str) -> list[FieldError]:
    """ValidateResourceQuantityValue: not negative; a whole number for integer resources."""
    errs = validate_nonnegative_quantity(value, path)
    if is_integer_resource_name(name) and _go_rem(milli_value(value), 1000) != 0:
        errs.append(fe.invalid(path, quantity_string(value), IS_NOT_INTEGER_ERROR_MSG))
    return errs


def validate_resource_quantity_huge_page_value(
    name: str, value: Quantity, allow_indivisible: bool
) -> str | None:
    """validateResourceQuantityHugePageValue: the error text, or None."""
    if not is_huge_page_resource_name(name) or allow_indivisible:
        return None
    if is_huge_page_resource_value_divisible(name, value):
        return None
    return f"{quantity_string(value)} is not positive integer multiple of {name}"


def _huge_page_value_errors(name: str, value: Quantity, path: str, allow_indivisible: bool) -> list[FieldError]:
    wrong = validate_resource_quantity_huge_page_value(name, value, allow_indivisible)
    return [] if wrong is None else [fe.invalid(path, quantity_string(value), wrong)]


def validate_resource_requirements(
    requirements: Mapping[str, Any],
    validate_name: NameValidator,
    path: str,
    release: int,
    allow_indivisible_huge_pages: bool = False,
) -> list[FieldError]:
    """validateResourceRequirements (its claims: pod_claims.validate_resource_claim_names)."""
    errs: list[FieldError] = []
    lim_path, req_path = fe.child(path, "limits"), fe.child(path, "requests")
    limits_raw: Mapping[str, Any] = requirements.get("limits") or {}
    requests_raw: Mapping[str, Any] = requirements.get("requests") or {}
    limits = {n: quantity_of(v, fe.key(lim_path, n)) for n, v in limits_raw.items()}
    requests = {n: quantity_of(v, fe.key(req_path, n)) for n, v in requests_raw.items()}
    for name, quantity in limits.items():
        key_path = fe.key(lim_path, name)
        errs.extend(validate_name(name, key_path, release))
        errs.extend(validate_resource_quantity_value(name, quantity, key_path))
        errs.extend(_huge_page_value_errors(name, quantity, key_path, allow_indivisible_huge_pages))
    for name, quantity in requests.items():
        key_path = fe.key(req_path, name)
        errs.extend(validate_name(name, key_path, release))
        errs.extend(validate_resource_quantity_value(name, quantity, key_path))
        limit = limits.get(name)
        if limit is not None:
            if quantity.value != limit.value and not is_overcommit_allowed(name):
                errs.append(
                    fe.invalid(
                        req_path,
                        quantity_string(quantity),
                        f"must be equal to {name} limit of {quantity_string(limit)}",
                    )
                )
            elif quantity.value > limit.value:
                errs.append(
                    fe.invalid(
                        req_path,
                        quantity_string(quantity),
                        f"must be less than or equal to {name} limit of {quantity_string(limit)}",
                    )
                )
        elif not is_overcommit_allowed(name):
            errs.append(fe.required(lim_path, "Limit must be set for non overcommitable resources"))
        errs.extend(_huge_page_value_errors(name, quantity, key_path, allow_indivisible_huge_pages))
    names = [*limits, *requests]
    huge_pages = any(is_huge_page_resource_name(n) for n in names)
    compute = any(n in QOS_COMPUTE_RESOURCES for n in names)
    if huge_pages and not compute:
        errs.append(fe.forbidden(path, "HugePages require cpu or memory"))
    return errs


def validate_container_resource_requirements(
    requirements: Mapping[str, Any] | None, path: str, release: int, allow_indivisible_huge_pages: bool = False
) -> list[FieldError]:
    """ValidateContainerResourceRequirements."""
    return validate_resource_requirements(
        requirements or {}, validate_container_resource_name, path, release, allow_indivisible_huge_pages
    )


def validate_overhead(
    overhead: Mapping[str, Any] | None, path: str, release: int, allow_indivisible_huge_pages: bool = False
) -> list[FieldError]:
    """validateOverhead: the pod's overhead as a container's limits (when set)."""
    if overhead is None:
        return []
    return validate_container_resource_requirements(
        {"limits": overhead}, path, release, allow_indivisible_huge_pages
    )


def uses_indivisible_huge_pages_values(pod_spec: Mapping[str, Any] | None) -> bool:
    """usesIndivisibleHugePagesValues (`pkg/api/pod/util.go`): a container's hugepages limit or
    request, or the overhead's, that is no multiple of its page size."""
    spec = pod_spec or {}
    lists: list[Mapping[str, Any]] = []
    for ctr, _ in visit_containers_with_path(spec):
        resources = ctr.get("resources") or {}
        lists.extend([resources.get("limits") or {}, resources.get("requests") or {}])
    lists.append(spec.get("overhead") or {})
    return any(
        is_huge_page_resource_name(name) and not is_huge_page_resource_value_divisible(name, _parsed(value))
        for resources in lists
        for name, value in resources.items()
    )


def _parsed(value: Any) -> Quantity:
    return quantity_of(value, "")


def validate_pod_resource_name(name: str, path: str, release: int) -> list[FieldError]:
    """validatePodResourceName: a resource name, and one PodLevelResources supports."""
    errs = validate_resource_name(name, path, release)
    if errs:
        return errs
    if name not in ("cpu", "memory") and not is_huge_page_resource_name(name):
        return [fe.not_supported(path, fe.stringer(name, release), SUPPORTED_POD_LEVEL_RESOURCES)]
    return []


def validate_pod_resources(
    spec: Mapping[str, Any], path: str, release: int, allow_indivisible_huge_pages: bool = False
) -> list[FieldError]:
    """validatePodResources (only while PodLevelResources is on: from 1.34)."""
    resources = spec.get("resources")
    if resources is None or release < POD_LEVEL_RESOURCES_RELEASE:
        return []
    res_path = fe.child(path, "resources")
    if ((spec.get("os") or {}).get("name")) == "windows":
        return [fe.forbidden(res_path, "may not be set for a windows pod")]
    errs: list[FieldError] = []
    if resources.get("claims") is not None:
        errs.append(fe.forbidden(fe.child(res_path, "claims"), "claims may not be set for Resources at pod-level"))
    errs.extend(
        validate_resource_requirements(
            resources, validate_pod_resource_name, res_path, release, allow_indivisible_huge_pages
        )
    )
    errs.extend(validate_pod_resource_consistency(spec, res_path))
    return errs


def _add(total: dict[str, Quantity], more: Mapping[str, Quantity]) -> None:
    """addResourceList: a new name gets a copy (its kept string too); Quantity.Add clears the
    string and keeps the format of the first operand unless that is zero."""
    for name, q in more.items():
        have = total.get(name)
        if have is None:
            total[name] = q
        else:
            value = have.value + q.value
            fmt = q.format if have.value == 0 else have.format
            total[name] = _quantity(value, fmt)


def _quantity(value: Fraction, fmt: str) -> Quantity:
    """A computed quantity: an inf.Dec of nano units (every parsed quantity is a whole number of them)."""
    return Quantity(int(value * 10**9), -9, fmt, small=False)


def _max(into: dict[str, Quantity], other: Mapping[str, Quantity]) -> None:
    """maxResourceList."""
    for name, q in other.items():
        if name not in into or q.value > into[name].value:
            into[name] = q


def aggregate_container_resources(spec: Mapping[str, Any], key: str) -> dict[str, Quantity]:
    """AggregateContainerRequests / AggregateContainerLimits (`k8s.io/component-helpers/resource`,
    no status): the containers' sum, sidecars (restartable init containers) added, and at least
    each init container's peak (itself plus the sidecars started before it)."""

    def listed(ctr: Mapping[str, Any]) -> dict[str, Quantity]:
        return {n: quantity_of(v, n) for n, v in ((ctr.get("resources") or {}).get(key) or {}).items()}

    result: dict[str, Quantity] = {}
    for ctr in spec.get("containers") or []:
        _add(result, listed(ctr))
    sidecars: dict[str, Quantity] = {}
    peaks: dict[str, Quantity] = {}
    for ctr in spec.get("initContainers") or []:
        own = listed(ctr)
        if ctr.get("restartPolicy") == "Always":
            _add(result, own)
            _add(sidecars, own)
            use = dict(sidecars)
        else:
            use = {}
            _add(use, own)
            _add(use, sidecars)
        _max(peaks, use)
    _max(result, peaks)
    return result


def validate_pod_resource_consistency(spec: Mapping[str, Any], path: str) -> list[FieldError]:
    """validatePodResourceConsistency."""
    resources = spec.get("resources") or {}
    pod_requests = {n: quantity_of(v, n) for n, v in (resources.get("requests") or {}).items()}
    pod_limits = {n: quantity_of(v, n) for n, v in (resources.get("limits") or {}).items()}
    errs: list[FieldError] = []
    for name, total in aggregate_container_resources(spec, "requests").items():
        pod = pod_requests.get(name)
        if pod is not None and total.value > pod.value:
            errs.append(
                fe.invalid(
                    fe.key(fe.child(path, "requests"), name),
                    quantity_string(pod),
                    f"must be greater than or equal to aggregate container requests of {quantity_string(total)}",
                )
            )
    for name, total in aggregate_container_resources(spec, "limits").items():
        pod = pod_limits.get(name)
        if is_huge_page_resource_name(name) and pod is not None and total.value > pod.value:
            errs.append(
                fe.invalid(
                    fe.key(fe.child(path, "limits"), name),
                    quantity_string(pod),
                    f"must be greater than or equal to aggregate container limits of {quantity_string(total)}",
                )
            )
    for i, ctr in enumerate(spec.get("containers") or []):
        for name, value in ((ctr.get("resources") or {}).get("limits") or {}).items():
            limit, pod = quantity_of(value, name), pod_limits.get(name)
            if pod is not None and limit.value > pod.value:
                errs.append(
                    fe.invalid(
                        fe.child(fe.key(fe.index(fe.child(path, "containers"), i), name), "limits"),
                        quantity_string(limit),
                        f"must be less than or equal to pod limits of {quantity_string(pod)}",
                    )
                )
    return errs


def pod_level_resources_in_use(pod_spec: Mapping[str, Any] | None) -> bool:
    """podLevelResourcesInUse (`pkg/api/pod/util.go`): requests or limits at the pod level."""
    resources = (pod_spec or {}).get("resources") or {}
    return bool(resources.get("requests")) or bool(resources.get("limits"))


def drop_disabled_pod_level_resources(pod_spec: dict[str, Any], old_pod_spec: Mapping[str, Any] | None, release: int) -> None:
    """dropDisabledPodLevelResources, in place: before 1.34 (PodLevelResources off) the pod-level
    resources go unless the old template has them."""
    if release < POD_LEVEL_RESOURCES_RELEASE and not pod_level_resources_in_use(old_pod_spec):
        pod_spec.pop("resources", None)
