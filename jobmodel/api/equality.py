"""`apiequality.Semantic.DeepEqual` on wire-format values.

Upstream compares Go structs, where an absent non-pointer field and its zero value are the same
thing and a nil slice or map equals an empty one; a pointer field that is nil differs from one
pointing at a zero value (`affinity: {}` is a change). On JSON we get there by dropping, before
comparing, nulls, empty lists, empty maps, empty structs that are values, and the zero values
(false, "", 0) of keys that are not pointers upstream.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Final

from jobmodel.api.quantity import quantity_of
from jobmodel.errors import InputError
from jobmodel.timeutil import GO_ZERO_TIME, UNIX_EPOCH, parse_time_nanos

# Fields that are pointers (or have no zero-value elision) in the batch/v1 and core/v1 types that
# Job validation compares: their zero values are kept.
POINTER_FIELDS: Final = frozenset(
    {
        # batch/v1 JobSpec and friends
        "parallelism", "completions", "activeDeadlineSeconds", "backoffLimit", "backoffLimitPerIndex",
        "maxFailedIndexes", "manualSelector", "ttlSecondsAfterFinished", "completionMode", "suspend",
        "podReplacementPolicy", "managedBy", "succeededCount", "succeededIndexes", "containerName",
        "startingDeadlineSeconds", "timeZone", "successfulJobsHistoryLimit", "failedJobsHistoryLimit",
        # core/v1 PodSpec, Container, SecurityContext, probes, volumes
        "terminationGracePeriodSeconds", "automountServiceAccountToken", "shareProcessNamespace",
        "priority", "enableServiceLinks", "setHostnameAsFQDN", "hostUsers", "runtimeClassName",
        "preemptionPolicy", "restartPolicy", "runAsUser", "runAsGroup", "runAsNonRoot", "privileged",
        "readOnlyRootFilesystem", "allowPrivilegeEscalation", "fsGroup", "tolerationSeconds",
        "optional", "defaultMode", "mode", "procMount", "hostnameOverride", "seLinuxChangePolicy",
        "supplementalGroupsPolicy", "fsGroupChangePolicy", "recursiveReadOnly", "mountPropagation",
        "sizeLimit", "stopSignal",
        # batch/v1 JobSchedulingConfiguration (1.37) and its scheduling/v1alpha3 parts
        "scheduling", "schedulingPolicy", "schedulingConstraints", "disruptionMode", "basic", "gang", "minCount",
        "single", "all", "resourceClaimName", "resourceClaimTemplateName",
    }
)  # fmt: skip


# The ResourceList fields: their quantities compare by value (Quantity's equality, Cmp == 0), so
# `1k` and `1e3`, or `+1` and `1`, are equal although their kept strings differ.
QUANTITY_MAPS: Final = frozenset({"limits", "requests", "overhead"})

# The map[string]string fields: an entry is there even when its value is "" (a map with one
# entry never equals a nil one), so their entries are kept as given.
STRING_MAPS: Final = frozenset(
    {"labels", "annotations", "nodeSelector", "matchLabels", "volumeAttributes", "options", "userAnnotations"}
)


# The metav1.Time fields: Semantic compares them as instants (`a.UTC() == b.UTC()`), so
# `00:00:00Z`, `01:00:00+01:00` and `00:00:00.000Z` are equal; those that are values (not
# pointers) holding Go's zero time equal absence.
TIME_FIELDS: Final = frozenset({"creationTimestamp", "deletionTimestamp", "lastProbeTime", "lastTransitionTime", "startTime", "completionTime"})
VALUE_TIMES: Final = frozenset({"creationTimestamp", "lastProbeTime", "lastTransitionTime"})
_ZERO_NANOS: Final = (GO_ZERO_TIME - UNIX_EPOCH) // timedelta(microseconds=1) * 1000


# Struct fields that are not pointers: an empty one equals absence. Every other struct field of
# the Job and Pod types is a pointer (`securityContext`, `affinity`, probes, volume sources, label
# selectors, policies, ...): nil differs from a pointer to an empty struct, so `{}` is kept.
VALUE_STRUCTS: Final = frozenset({"metadata", "spec", "template", "jobTemplate", "status", "preference", "podAffinityTerm"})


def _pointer_struct(key: str, holder: tuple[str | None, ...]) -> bool:
    """Whether the struct field `key` of the object at `holder` (the keys leading to it, None for
    a list item or the top) is a pointer. `resources` is one in a PodSpec only: a container's and a
    claim template's are values."""
    if key in VALUE_STRUCTS or key in STRING_MAPS or key in QUANTITY_MAPS:
        return False
    if key == "resources":
        return holder == (None,) or (holder[-1] == "spec" and holder[-2:-1] != ("volumeClaimTemplate",))
    return True


def normalize(value: Any, key: str | None = None, where: tuple[str | None, ...] = ()) -> Any:
    """The value with Go's zero values and empty collections removed (see the module docstring);
    `where` is the keys leading to the object holding `key`."""
    if key in QUANTITY_MAPS and isinstance(value, dict):
        return {k: _quantity_value(v) for k, v in value.items()}
    if key in STRING_MAPS and isinstance(value, dict):
        return dict(value)
    if key in TIME_FIELDS and isinstance(value, str):
        return _instant(value, key)
    if isinstance(value, dict):
        holder = (*where, key)
        out = {}
        for k, v in value.items():
            n = normalize(v, k, holder)
            if n is None or (isinstance(n, list) and not n and k not in POINTER_FIELDS):
                continue
            if isinstance(n, dict) and not n and k not in POINTER_FIELDS and not _pointer_struct(k, holder):
                continue
            if k not in POINTER_FIELDS and (n is False or n == "" or (isinstance(n, int) and n == 0)):
                continue
            out[k] = n
        return out
    if isinstance(value, list):
        return [normalize(v, None, (*where, key)) for v in value]
    return value


def semantic_equal(a: Any, b: Any, key: str | None = None) -> bool:
    """Semantic.DeepEqual on wire-format values (numbers, quantities and times compare by value);
    `key` is the field the values are of."""
    return bool(normalize(a, key) == normalize(b, key))


def _instant(value: str, key: str) -> Any:
    try:
        nanos = parse_time_nanos(value, key)
    except InputError:
        return value
    return None if nanos == _ZERO_NANOS and key in VALUE_TIMES else ("time", nanos)


def _quantity_value(value: Any) -> Any:
    try:
        return ("quantity", quantity_of(value, "").value)
    except ValueError:
        return value
