"""Pod predicates and orderings (jobmodel/transitions/pod_utils.py), checked against upstream.

Expected values come from upstream Kubernetes' own tests (v1.32.3, unchanged in v1.37.2 for every
helper modelled here), translated case by case:

- pkg/controller/controller_utils_test.go: TestCountTerminatingPods, TestActivePodFiltering,
  TestSortingActivePods, TestSortingActivePodsWithRanks (the cases ActivePods.Less decides alike);
- pkg/api/v1/pod/util_test.go: TestIsPodTerminal, TestIsPodAvailable (minReadySeconds 0, where
  IsPodAvailable is IsPodReady), TestGetContainersReadyCondition, TestIsContainersReadyConditionTrue.

Where upstream has no direct test (IsPodActive's deletion clause, countReadyPods,
hasJobTrackingFinalizer) the expectation is read off upstream's code, cited at each test.
"""

from __future__ import annotations

import functools
import itertools
import random
from typing import Any

import pytest

from jobmodel.api.wire import pod_from_json
from jobmodel.state import Pod, PodCondition
from jobmodel.timeutil import parse_time
from jobmodel.transitions import pod_utils as pu
from tests.builders import NOW, pod_json

# Upstream's `now` and the times it derives from it: now.AddDate(0, -1, 0), now.Add(-2h), ...
THEN = "2024-05-01T12:00:00Z"
THEN_2_HOURS = "2024-06-01T10:00:00Z"
THEN_5_HOURS = "2024-06-01T07:00:00Z"
THEN_8_HOURS = "2024-06-01T04:00:00Z"
# batch.JobTrackingFinalizer (pkg/apis/batch/types.go): labelPrefix + "job-tracking".
UPSTREAM_JOB_TRACKING_FINALIZER = "batch.kubernetes.io/job-tracking"


def _pod(
    name: str,
    phase: str = "",
    *,
    node: str = "",
    created: str | None = None,
    deleted: str | None = None,
    conditions: list[dict[str, Any]] | None = None,
    restarts: list[int] | None = None,
    sidecar: bool = False,
    sidecar_restarts: int | None = None,
    finalizers: list[str] | None = None,
) -> Pod:
    """A pod as an upstream test writes it: the builders' pod, with no owner, no finalizer and
    only the fields upstream sets (an unset node name or creation time is left out, so zero)."""
    raw = pod_json(
        name, phase, finalizer=False, owner_uid="", node=node or None, deleted=deleted,
        conditions=conditions,
    )
    if created is None:
        del raw["metadata"]["creationTimestamp"]
    else:
        raw["metadata"]["creationTimestamp"] = created
    if finalizers is not None:
        raw["metadata"]["finalizers"] = finalizers
    if restarts is not None:
        raw["status"]["containerStatuses"] = [{"restartCount": n} for n in restarts]
    if sidecar:
        raw["spec"]["initContainers"] = [
            {"name": "sidecar", "image": "foo/bar", "restartPolicy": "Always"}
        ]
    if sidecar_restarts is not None:
        raw["status"]["initContainerStatuses"] = [
            {"name": "sidecar", "restartCount": sidecar_restarts}
        ]
    return pod_from_json(raw)


def _ready(since: str | None) -> list[dict[str, Any]]:
    """[]v1.PodCondition{{Type: v1.PodReady, Status: v1.ConditionTrue, LastTransitionTime: since}}."""
    cond: dict[str, Any] = {"type": "Ready", "status": "True"}
    if since is not None:
        cond["lastTransitionTime"] = since
    return [cond]


def _names(pods: list[Pod]) -> list[str]:
    return [p.name for p in pods]


# --- IsPodTerminal (pkg/api/v1/pod/util_test.go: TestIsPodTerminal) ------------------------


@pytest.mark.parametrize(
    ("phase", "expected"),
    [
        ("Failed", True),
        ("Succeeded", True),
        ("Unknown", False),
        ("Pending", False),
        ("Running", False),
        ("", False),
    ],
)
def test_is_pod_terminal(phase: str, expected: bool) -> None:
    """TestIsPodTerminal: newPod(now, true, 0) (a Ready pod) with each phase."""
    pod = _pod("p", phase, conditions=_ready(NOW))
    assert pu.is_pod_terminal(pod) is expected


# --- CountTerminatingPods / FilterTerminatingPods (TestCountTerminatingPods) ---------------


def _count_terminating_pods() -> list[Pod]:
    """newPodList(nil, 7, v1.PodRunning, rc) edited as TestCountTerminatingPods edits it."""
    phases = ["Succeeded", "Failed", "Pending", "Running", "Running", "Running", "Running"]
    deleted = {2, 3}
    return [
        _pod(f"pod{i}", phase, deleted=NOW if i in deleted else None)
        for i, phase in enumerate(phases)
    ]


def test_count_terminating_pods() -> None:
    """TestCountTerminatingPods: assert.Equal(t, int32(2), CountTerminatingPods(pods))."""
    assert pu.count_terminating_pods(_count_terminating_pods()) == 2


def test_filter_terminating_pods() -> None:
    """TestCountTerminatingPods: assert.Len(t, FilterTerminatingPods(pods), 2); the two are the
    pods with a deletion timestamp and a non-terminal phase (IsPodTerminating)."""
    got = pu.filter_terminating_pods(_count_terminating_pods())
    assert len(got) == 2
    assert _names(got) == ["pod2", "pod3"]


@pytest.mark.parametrize(
    ("index", "expected"),
    [(0, False), (1, False), (2, True), (3, True), (4, False), (5, False), (6, False)],
)
def test_is_pod_terminating(index: int, expected: bool) -> None:
    """controller.IsPodTerminating (!IsPodTerminal && DeletionTimestamp != nil) over
    TestCountTerminatingPods' pods."""
    assert pu.is_pod_terminating(_count_terminating_pods()[index]) is expected


@pytest.mark.parametrize(
    ("phase", "expected"),
    [("Succeeded", False), ("Failed", False), ("Unknown", True), ("", True)],
)
def test_deleted_pod_is_terminating_unless_terminal(phase: str, expected: bool) -> None:
    """controller.IsPodTerminating is `!podutil.IsPodTerminal(p) && p.DeletionTimestamp != nil`:
    a deleted pod counts unless its phase is Succeeded or Failed (TestCountTerminatingPods
    deletes only pending and running pods)."""
    pods = [_pod("p", phase, deleted=NOW)]
    assert pu.is_pod_terminating(pods[0]) is expected
    assert pu.count_terminating_pods(pods) == int(expected)
    assert pu.filter_terminating_pods(pods) == (pods if expected else [])


# --- FilterActivePods / IsPodActive (TestActivePodFiltering) -------------------------------


def test_filter_active_pods() -> None:
    """TestActivePodFiltering "Filters active pods": wantPodNames pod-3, pod-4, pod-5."""
    pods = [
        _pod("pod-1", "Succeeded"),
        _pod("pod-2", "Failed"),
        _pod("pod-3", "Running"),
        _pod("pod-4", "Running"),
        _pod("pod-5", "Running"),
    ]
    assert sorted(_names(pu.filter_active_pods(pods))) == ["pod-3", "pod-4", "pod-5"]


@pytest.mark.parametrize(
    ("phase", "deleted", "expected"),
    [
        ("Pending", False, True),
        ("Running", False, True),
        ("Unknown", False, True),
        ("Succeeded", False, False),
        ("Failed", False, False),
        ("Pending", True, False),
        ("Running", True, False),
        ("Succeeded", True, False),
    ],
)
def test_is_pod_active(phase: str, deleted: bool, expected: bool) -> None:
    """controller.IsPodActive: phase neither Succeeded nor Failed, and DeletionTimestamp nil;
    filter_active_pods keeps exactly those pods."""
    pod = _pod("p", phase, deleted=NOW if deleted else None)
    assert pu.is_pod_active(pod) is expected
    assert pu.filter_active_pods([pod]) == ([pod] if expected else [])


# --- ActivePods.Less (TestSortingActivePods) -----------------------------------------------


def _sorting_active_pods() -> list[Pod]:
    """TestSortingActivePods "Sorts by active pod": the pods, in upstream's wantOrder."""
    ready_then = _ready(THEN)
    return [
        _pod("unscheduled", "Pending", node=""),
        _pod("scheduledButPending", "Pending", node="bar"),
        _pod("unknownPhase", "Unknown", node="foo"),
        _pod("runningButNotReady", "Running", node="foo"),
        _pod("runningNoLastTransitionTime", "Running", node="foo", conditions=_ready(None),
             restarts=[3, 0]),
        _pod("runningWithLastTransitionTime", "Running", node="foo", conditions=_ready(NOW),
             restarts=[3, 0]),
        _pod("runningLongerTime", "Running", node="foo", conditions=ready_then, restarts=[3, 0]),
        _pod("lowerSidecarContainerRestartCount", "Running", node="foo", created=NOW,
             conditions=ready_then, restarts=[2, 1], sidecar=True, sidecar_restarts=2),
        _pod("lowerContainerRestartCount", "Running", node="foo", created=NOW,
             conditions=ready_then, restarts=[2, 1]),
        _pod("oldest", "Running", node="foo", created=THEN, conditions=ready_then,
             restarts=[2, 1]),
    ]


SORTING_WANT_ORDER = [
    "unscheduled",
    "scheduledButPending",
    "unknownPhase",
    "runningButNotReady",
    "runningNoLastTransitionTime",
    "runningWithLastTransitionTime",
    "runningLongerTime",
    "lowerSidecarContainerRestartCount",
    "lowerContainerRestartCount",
    "oldest",
]


def _compare(a: Pod, b: Pod) -> int:
    if pu.active_pods_less(a, b):
        return -1
    if pu.active_pods_less(b, a):
        return 1
    return 0


@pytest.mark.parametrize("seed", range(20))
def test_sorting_active_pods(seed: int) -> None:
    """TestSortingActivePods: 20 random permutations, each sorted to wantOrder."""
    pods = _sorting_active_pods()
    random.Random(seed).shuffle(pods)
    got = sorted(pods, key=functools.cmp_to_key(_compare))
    assert _names(got) == SORTING_WANT_ORDER


@pytest.mark.parametrize(
    ("i", "j"),
    list(itertools.combinations(range(len(SORTING_WANT_ORDER)), 2)),
    ids=lambda k: SORTING_WANT_ORDER[k],
)
def test_sorting_active_pods_pairwise(i: int, j: int) -> None:
    """TestSortingActivePods' wantOrder is strict: every earlier pod is Less than every later one
    (each pair is decided by one of ActivePods.Less's rules), never the reverse."""
    pods = _sorting_active_pods()
    assert pu.active_pods_less(pods[i], pods[j])
    assert not pu.active_pods_less(pods[j], pods[i])


# --- ActivePods.Less on TestSortingActivePodsWithRanks' pods -------------------------------


def _ranked_pod(
    name: str, node: str, phase: str, ready: bool, restarts: int, side_restarts: int,
    ready_since: str | None, created: str | None,
) -> Pod:
    """The `pod` closure of TestSortingActivePodsWithRanks (None for zeroTime)."""
    return _pod(
        name, phase, node=node, created=created, sidecar=True,
        conditions=_ready(ready_since) if ready else None,
        restarts=[restarts] if ready else None,
        sidecar_restarts=side_restarts if ready else None,
    )


RANKED_PODS: dict[str, Pod] = {
    "unscheduledPod": _ranked_pod("unscheduled", "", "Pending", False, 0, 0, None, None),
    "scheduledPendingPod": _ranked_pod("pending", "node", "Pending", False, 0, 0, None, None),
    "unknownPhasePod": _ranked_pod("unknown-phase", "node", "Unknown", False, 0, 0, None, None),
    "runningNotReadyPod": _ranked_pod("not-ready", "node", "Running", False, 0, 0, None, None),
    "runningReadyNoLastTransitionTimePod": _ranked_pod(
        "ready-no-last-transition-time", "node", "Running", True, 0, 0, None, None
    ),
    "runningReadyNow": _ranked_pod("ready-now", "node", "Running", True, 0, 0, NOW, NOW),
    "runningReadyThen": _ranked_pod("ready-then", "node", "Running", True, 0, 0, THEN, THEN),
    "runningReadyNowHighRestarts": _ranked_pod(
        "ready-high-restarts", "node", "Running", True, 9001, 0, NOW, NOW
    ),
    "runningReadyNowHighSideRestarts": _ranked_pod(
        "ready-high-restarts", "node", "Running", True, 9001, 9001, NOW, NOW
    ),
    "runningReadyNowCreatedThen": _ranked_pod(
        "ready-now-created-then", "node", "Running", True, 0, 0, NOW, THEN
    ),
    "ready2Hours": _ranked_pod("ready-2-hours", "", "Running", True, 0, 0, THEN_2_HOURS, THEN),
    "ready5Hours": _ranked_pod("ready-5-hours", "", "Running", True, 0, 0, THEN_5_HOURS, THEN),
}


@pytest.mark.parametrize(
    "name",
    [
        "unscheduledPod",
        "scheduledPendingPod",
        "unknownPhasePod",
        "runningNotReadyPod",
        "runningReadyNowCreatedThen",
        "runningReadyNow",
        "runningReadyThen",
        "runningReadyNowHighRestarts",
    ],
)
def test_active_pods_less_equality(name: str) -> None:
    """TestSortingActivePodsWithRanks equalityTests with p2 == p1 (a pod is never Less than
    itself). Left out: {unscheduled5Hours, unscheduled8Hours} and {ready5Hours, ready10Hours},
    equal only under LogarithmicScaleDown, which ActivePods.Less does not apply."""
    pod = RANKED_PODS[name]
    assert not pu.active_pods_less(pod, pod)


@pytest.mark.parametrize(
    ("lesser", "greater"),
    [
        ("unscheduledPod", "scheduledPendingPod"),
        ("scheduledPendingPod", "unknownPhasePod"),
        ("unknownPhasePod", "runningNotReadyPod"),
        ("runningNotReadyPod", "runningReadyNoLastTransitionTimePod"),
        ("runningReadyNoLastTransitionTimePod", "runningReadyNow"),
        ("runningReadyNow", "runningReadyThen"),
        ("runningReadyNowHighRestarts", "runningReadyNow"),
        ("runningReadyNowHighSideRestarts", "runningReadyNowHighRestarts"),
        ("runningReadyNow", "runningReadyNowCreatedThen"),
        ("ready2Hours", "ready5Hours"),
    ],
)
def test_active_pods_less_inequality(lesser: str, greater: str) -> None:
    """TestSortingActivePodsWithRanks inequalityTests decided before the rank rule or with equal
    ranks and no deletion cost, where ActivePods.Less rules the same way (ready2Hours and
    ready5Hours fall in different logarithmic ranks, so the log scale agrees with afterOrZero).
    Left out: the cases decided by rank or by pod-deletion-cost, which ActivePods ignores."""
    a, b = RANKED_PODS[lesser], RANKED_PODS[greater]
    assert pu.active_pods_less(a, b)
    assert not pu.active_pods_less(b, a)


# --- GetPodCondition / IsPodReady / countReadyPods -----------------------------------------


def test_get_pod_condition_finds_containers_ready() -> None:
    """TestGetContainersReadyCondition "containers ready condition exists" (GetPodCondition with
    v1.ContainersReady): the whole condition comes back."""
    cond = {
        "type": "ContainersReady", "status": "True", "reason": "successfully",
        "message": "sync pod successfully", "lastProbeTime": NOW,
        "lastTransitionTime": "2024-06-01T12:00:00.000001Z",  # time.Add(1000): 1000ns later
    }
    pod = _pod("p", "Running", conditions=[cond])
    assert pu.get_pod_condition(pod, "ContainersReady") == PodCondition(
        type="ContainersReady",
        status="True",
        reason="successfully",
        message="sync pod successfully",
        last_probe_time=parse_time(NOW, "t"),
        last_transition_time=parse_time("2024-06-01T12:00:00.000001Z", "t"),
    )


def test_get_pod_condition_absent() -> None:
    """TestGetContainersReadyCondition "containers ready condition does not exist": nil."""
    assert pu.get_pod_condition(_pod("p", "Running", conditions=[]), "ContainersReady") is None


def test_get_pod_condition_returns_the_first_of_its_type() -> None:
    """GetPodConditionFromList returns the first condition of the type (`return i, &conditions[i]`
    in a forward loop); other types are skipped."""
    conds = [
        {"type": "PodScheduled", "status": "True"},
        {"type": "Ready", "status": "False", "reason": "first"},
        {"type": "Ready", "status": "True", "reason": "second"},
    ]
    got = pu.get_pod_condition(_pod("p", "Running", conditions=conds), "Ready")
    assert got is not None
    assert (got.status, got.reason) == ("False", "first")


@pytest.mark.parametrize(
    ("status", "expected"),
    [("True", True), ("False", False), (None, False)],
    ids=["true", "false", "empty"],
)
def test_containers_ready_condition_true(status: str | None, expected: bool) -> None:
    """TestIsContainersReadyConditionTrue: `condition != nil && condition.Status == True` over
    GetPodCondition(status, v1.ContainersReady)."""
    conds = [] if status is None else [
        {"type": "ContainersReady", "status": status, "reason": "successfully",
         "message": "sync pod successfully", "lastProbeTime": NOW}
    ]
    cond = pu.get_pod_condition(_pod("p", "Running", conditions=conds), "ContainersReady")
    assert (cond is not None and cond.status == "True") is expected


@pytest.mark.parametrize(
    ("ready", "since", "expected"),
    [(False, NOW, False), (True, NOW, True), (True, "2024-06-01T11:59:09Z", True)],
)
def test_is_pod_ready(ready: bool, since: str, expected: bool) -> None:
    """TestIsPodAvailable's pods, newPod(now, ready, beforeSec) with beforeSec 0, 0 and 51: a
    Ready condition True or False. IsPodAvailable starts with `if !IsPodReady(pod) { return
    false }` and returns true for minReadySeconds 0 (cases 0 and 2) or an available pod (case 3),
    so those cases give IsPodReady."""
    cond = {"type": "Ready", "status": "True" if ready else "False", "lastTransitionTime": since}
    assert pu.is_pod_ready(_pod("p", "Running", conditions=[cond])) is expected


def test_is_pod_ready_wants_the_ready_type() -> None:
    """IsPodReadyConditionTrue reads GetPodReadyCondition (type v1.PodReady = "Ready") only: a
    True ContainersReady condition does not make a pod ready."""
    pod = _pod("p", "Running", conditions=[{"type": "ContainersReady", "status": "True"}])
    assert not pu.is_pod_ready(pod)


def test_count_ready_pods() -> None:
    """countReadyPods (pkg/controller/job/job_controller.go) counts podutil.IsPodReady pods: of
    TestSortingActivePods' ten pods the six with a True Ready condition."""
    assert pu.count_ready_pods(_sorting_active_pods()) == 6
    assert pu.count_ready_pods([]) == 0


# --- hasJobTrackingFinalizer (pkg/controller/job/tracking_utils.go) ------------------------


@pytest.mark.parametrize(
    ("finalizers", "expected"),
    [
        ([], False),
        ([UPSTREAM_JOB_TRACKING_FINALIZER], True),
        (["example.com/other"], False),
        (["example.com/other", UPSTREAM_JOB_TRACKING_FINALIZER], True),
        (["batch.kubernetes.io/job-tracking-x"], False),
    ],
)
def test_has_job_tracking_finalizer(finalizers: list[str], expected: bool) -> None:
    """hasJobTrackingFinalizer: any finalizer equal to batch.JobTrackingFinalizer."""
    pod = _pod("p", "Running", finalizers=finalizers)
    assert pu.has_job_tracking_finalizer(pod) is expected
