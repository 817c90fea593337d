"""Pod predicates and orderings shared by the controllers (upstream pkg/controller/controller_utils.go, pkg/api/v1/pod)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from jobmodel.state import (
    FAILED,
    JOB_TRACKING_FINALIZER,
    PENDING,
    RUNNING,
    SUCCEEDED,
    UNKNOWN,
    Pod,
    PodCondition,
)
from jobmodel.timeutil import is_zero

_TERMINAL = frozenset({SUCCEEDED, FAILED})


def is_pod_active(pod: Pod) -> bool:
    """controller.IsPodActive: not terminal and not being deleted."""
    return pod.phase not in (SUCCEEDED, FAILED) and pod.metadata.deletion_timestamp is None


def is_pod_terminal(pod: Pod) -> bool:
    """podutil.IsPodTerminal."""
    return pod.phase in (SUCCEEDED, FAILED)


def is_pod_terminating(pod: Pod) -> bool:
    """controller.IsPodTerminating: being deleted but not yet terminal."""
    return not is_pod_terminal(pod) and pod.metadata.deletion_timestamp is not None


def filter_active_pods(pods: Iterable[Pod]) -> list[Pod]:
    """controller.FilterActivePods (is_pod_active, written out: a sync runs it over every pod)."""
    return [p for p in pods if p.status.phase not in _TERMINAL and p.metadata.deletion_timestamp is None]


def filter_terminating_pods(pods: Iterable[Pod]) -> list[Pod]:
    """controller.FilterTerminatingPods."""
    return [p for p in pods if is_pod_terminating(p)]


def count_terminating_pods(pods: Iterable[Pod]) -> int:
    """controller.CountTerminatingPods (is_pod_terminating, written out: a sync runs it over every pod)."""
    return sum(1 for p in pods if p.metadata.deletion_timestamp is not None and p.status.phase not in _TERMINAL)


def get_pod_condition(pod: Pod, ctype: str) -> PodCondition | None:
    """podutil.GetPodCondition: the first condition of the given type."""
    for cond in pod.status.conditions:
        if cond.type == ctype:
            return cond
    return None


def restarts_on_failure(pod: Pod) -> bool:
    """The kubelet restarts the pod's failed containers in place (`restartPolicy: OnFailure`)."""
    return pod.spec.get("restartPolicy") == "OnFailure"


def is_pod_ready(pod: Pod) -> bool:
    """podutil.IsPodReady: the Ready condition is True."""
    cond = get_pod_condition(pod, "Ready")
    return cond is not None and cond.status == "True"


def count_ready_pods(pods: Iterable[Pod]) -> int:
    """countReadyPods (job_controller.go)."""
    return sum(1 for p in pods if is_pod_ready(p))


def has_job_tracking_finalizer(pod: Pod) -> bool:
    """hasJobTrackingFinalizer (tracking_utils.go)."""
    return JOB_TRACKING_FINALIZER in pod.metadata.finalizers


_PHASE_ORDINAL = {PENDING: 0, UNKNOWN: 1, RUNNING: 2}


def _pod_ready_time(pod: Pod) -> datetime | None:
    """podReadyTime: when the Ready condition turned True (zero when not ready)."""
    if is_pod_ready(pod):
        for cond in pod.status.conditions:
            if cond.type == "Ready" and cond.status == "True":
                return cond.last_transition_time
    return None


def _after_or_zero(t1: datetime | None, t2: datetime | None) -> bool:
    """afterOrZero: a zero time sorts first, then later before earlier."""
    if is_zero(t1) or is_zero(t2):
        return is_zero(t1)
    assert t1 is not None and t2 is not None
    return t1 > t2


def _max_container_restarts(pod: Pod) -> tuple[int, int]:
    """maxContainerRestarts: the highest restart count of regular and of sidecar containers."""
    regular = max((c.restart_count for c in pod.status.container_statuses), default=0)
    sidecars = pod.restartable_init_container_names()
    sidecar = max(
        (c.restart_count for c in pod.status.init_container_statuses if c.name in sidecars), default=0
    )
    return max(regular, 0), max(sidecar, 0)


def _compare_max_container_restarts(pi: Pod, pj: Pod) -> bool | None:
    """compareMaxContainerRestarts: more restarts sort first; sidecar restarts break ties."""
    regular_i, sidecar_i = _max_container_restarts(pi)
    regular_j, sidecar_j = _max_container_restarts(pj)
    if regular_i != regular_j:
        return regular_i > regular_j
    if sidecar_i != sidecar_j:
        return sidecar_i > sidecar_j
    return None


def active_pods_less(pi: Pod, pj: Pod) -> bool:
    """controller.ActivePods.Less: the pods to delete first sort first."""
    ni, nj = pi.node_name, pj.node_name
    if ni != nj and (ni == "" or nj == ""):
        return ni == ""
    oi = _PHASE_ORDINAL.get(pi.phase, 0)
    oj = _PHASE_ORDINAL.get(pj.phase, 0)
    if oi != oj:
        return oi < oj
    ri, rj = is_pod_ready(pi), is_pod_ready(pj)
    if ri != rj:
        return not ri
    if ri and rj:
        ti, tj = _pod_ready_time(pi), _pod_ready_time(pj)
        if _normalise_zero(ti) != _normalise_zero(tj):
            return _after_or_zero(ti, tj)
    restarts = _compare_max_container_restarts(pi, pj)
    if restarts is not None:
        return restarts
    ci, cj = pi.metadata.creation_timestamp, pj.metadata.creation_timestamp
    if _normalise_zero(ci) != _normalise_zero(cj):
        return _after_or_zero(ci, cj)
    return False


def _normalise_zero(value: datetime | None) -> datetime | None:
    return None if is_zero(value) else value
