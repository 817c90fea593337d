"""jobmodel.simulation.live_scenario without a cluster: the case's frame (real objects seen as the
case's), the time shift of pod status patches, and which cases a real cluster can run.
(The cases on the real control plane: tests/conformance/test_job_scenario_live.py.)"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from jobmodel.adapters.controlplane import ControllerConfig
from jobmodel.adapters.live import View
from jobmodel.errors import InputError
from jobmodel.features import DEFAULT_GATES
from jobmodel.simulation import live_scenario
from jobmodel.simulation.live_scenario import (
    CaseBatch,
    CaseFrame,
    LiveScenarioRunner,
    as_written,
    case_batches,
    changed_since,
    model_variant_reason,
    observed_state,
    predicted_sync_writes,
    restarts_components,
    shift_times,
    with_clock_drift,
)
from jobmodel.simulation.scenario import chosen_pods, run_scenario

START = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)
REAL = datetime(2026, 1, 1, 8, 30, tzinfo=UTC)
REAL_UID = "11111111-2222-4333-8444-555555555555"
CASE_UID = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee"


def frame() -> CaseFrame:
    return CaseFrame("indexed", "indexed-1a2b3c4d", "work", CASE_UID, START, REAL, real_uid=REAL_UID)


def real_pod(name: str, index: int, rv: int, phase: str = "Pending") -> dict[str, object]:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "name": name,
            "namespace": "indexed-1a2b3c4d",
            "uid": f"pod-{name}",
            "resourceVersion": str(rv),
            "creationTimestamp": "2026-01-01T08:30:00Z",
            "labels": {"batch.kubernetes.io/controller-uid": REAL_UID, "batch.kubernetes.io/job-name": "work"},
            "annotations": {"batch.kubernetes.io/job-completion-index": str(index)},
            "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": "work", "uid": REAL_UID, "controller": True}],
            "finalizers": ["batch.kubernetes.io/job-tracking"],
        },
        "spec": {"containers": [{"name": "c", "image": "x"}], "restartPolicy": "Never"},
        "status": {"phase": phase},
    }


def real_job() -> dict[str, object]:
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "work", "namespace": "indexed-1a2b3c4d", "uid": REAL_UID, "resourceVersion": "10"},
        "spec": {
            "completions": 3,
            "parallelism": 3,
            "completionMode": "Indexed",
            "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": REAL_UID}},
            "template": {
                "metadata": {"labels": {"batch.kubernetes.io/controller-uid": REAL_UID}},
                "spec": {"containers": [{"name": "c", "image": "x"}], "restartPolicy": "Never"},
            },
        },
        "status": {"active": 3},
    }


def test_real_objects_are_seen_in_the_cases_frame() -> None:
    view = View()
    view.apply("jobs", "ADDED", real_job())
    # Created out of name order: the frame numbers pods by when the watches first saw them.
    view.apply("pods", "ADDED", real_pod("work-2-zzzzz", 2, 12))
    view.apply("pods", "ADDED", real_pod("work-0-qqqqq", 0, 11))
    view.first_seen_rv["pod-work-2-zzzzz"] = 12
    view.first_seen_rv["pod-work-0-qqqqq"] = 11
    f = frame()
    state, names = observed_state(view, f)
    job = state.job()
    assert job is not None and job.uid == CASE_UID and job.namespace == "indexed"
    assert job.spec.selector is not None and dict(job.spec.selector.match_labels) == {"batch.kubernetes.io/controller-uid": CASE_UID}
    assert [p.name for p in state.cluster.pods] == ["work-0", "work-1"]
    assert names == {"work-0": "work-0-qqqqq", "work-1": "work-2-zzzzz"}
    pods = chosen_pods(state, {"where": {"index": 2}}, "step")
    assert [names[p.name] for p in pods] == ["work-2-zzzzz"]
    # A later pod gets the next number; earlier ones keep theirs.
    view.apply("pods", "ADDED", real_pod("work-1-aaaaa", 1, 13))
    view.first_seen_rv["pod-work-1-aaaaa"] = 13
    _, names = observed_state(view, f)
    assert names["work-2"] == "work-1-aaaaa" and names["work-0"] == "work-0-qqqqq"


def test_the_pods_a_message_names_are_named_as_the_case_names_them() -> None:
    """The controller names a pod as namespace/name in its messages (a pod failure policy's):
    seen in the case's frame, that is the case's namespace and the pod's model name."""
    job = real_job()
    message = "Container c for pod indexed-1a2b3c4d/work-0-qqqqq failed with exit code 42 matching FailJob rule at index 0"
    job["status"] = {"conditions": [{"type": "FailureTarget", "status": "True", "reason": "PodFailurePolicy", "message": message}]}
    view = View()
    view.apply("jobs", "ADDED", real_job())
    view.apply("pods", "ADDED", real_pod("work-1-zzzzz", 1, 11))  # made by an earlier sync: work-0
    view.apply("jobs", "MODIFIED", with_rv(job, 12))
    view.apply("pods", "ADDED", real_pod("work-0-qqqqq", 0, 13))
    state, names = observed_state(view, frame())
    assert names["work-1"] == "work-0-qqqqq"
    seen = state.job()
    assert seen is not None
    assert [c.message for c in seen.status.conditions] == [
        "Container c for pod indexed/work-1 failed with exit code 42 matching FailJob rule at index 0"
    ]


def with_rv(obj: dict[str, Any], rv: int) -> dict[str, Any]:
    return {**obj, "metadata": {**cast(dict[str, Any], obj["metadata"]), "resourceVersion": str(rv)}}


def test_the_pods_of_one_sync_are_numbered_by_index_and_the_syncs_in_turn() -> None:
    """Upstream creates a sync's pods at once (etcd's order among them is chance) and writes the
    Job's status after them; the model makes them in index order: the frame numbers the pods
    between two Job writes by index, and those of a later interval after them."""
    view = View()
    view.apply("jobs", "ADDED", real_job())
    for name, index, rv in [("work-2-c", 2, 11), ("work-0-a", 0, 12), ("work-1-b", 1, 13)]:
        view.apply("pods", "ADDED", real_pod(name, index, rv))
    view.apply("jobs", "MODIFIED", with_rv(real_job(), 14))
    view.apply("pods", "ADDED", real_pod("work-1-d", 1, 15))  # a later sync's replacement of index 1
    view.apply("pods", "ADDED", real_pod("work-0-e", 0, 16))
    _, names = observed_state(view, frame())
    assert names == {"work-0": "work-0-a", "work-1": "work-1-b", "work-2": "work-2-c", "work-3": "work-0-e", "work-4": "work-1-d"}
    # Without a Job write between them, pods are one sync's: by index, whatever their etcd order.
    other = View()
    other.apply("jobs", "ADDED", real_job())
    for name, index, rv in [("work-1-b", 1, 11), ("work-0-a", 0, 12)]:
        other.apply("pods", "ADDED", real_pod(name, index, rv))
    assert observed_state(other, frame())[1] == {"work-0": "work-0-a", "work-1": "work-1-b"}


def test_pod_status_times_move_to_the_real_clock() -> None:
    patch: dict[str, Any] = {
        "phase": "Failed",
        "containerStatuses": [{"name": "", "state": {"terminated": {"exitCode": 1, "finishedAt": "2024-06-01T12:00:05Z"}}}],
        "conditions": [{"type": "DisruptionTarget", "status": "True", "lastTransitionTime": "2024-06-01T12:00:00Z"}],
    }
    shifted = shift_times(patch, frame())
    assert shifted["phase"] == "Failed"
    assert shifted["containerStatuses"][0]["state"]["terminated"]["finishedAt"] == "2026-01-01T08:30:05Z"
    assert shifted["conditions"][0]["lastTransitionTime"] == "2026-01-01T08:30:00Z"
    assert patch["conditions"][0]["lastTransitionTime"] == "2024-06-01T12:00:00Z"  # the case is not changed
    assert frame().to_real_time(START + timedelta(seconds=90)) == REAL + timedelta(seconds=90)


def test_clock_drift_goes_around_every_settle_and_sync() -> None:
    steps = [{"do": "settle"}, {"do": "setPods"}, {"do": "sync"}, {"do": "expect"}]
    before = with_clock_drift(steps, 2, "before")
    after = with_clock_drift(steps, 2, "after")
    assert [s["do"] for s in before] == ["advance", "settle", "setPods", "advance", "sync", "expect"]
    assert [s["do"] for s in after] == ["settle", "advance", "setPods", "sync", "advance", "expect"]
    assert all(s["seconds"] == 2 for s in before if s["do"] == "advance")
    within = with_clock_drift(steps, 2, "within")
    assert [s["do"] for s in within] == ["settle", "advance", "settle", "setPods", "sync", "expect"]


def test_a_deadline_that_falls_due_within_a_real_settle_is_not_a_case_for_a_real_cluster() -> None:
    """A Job with a one-second deadline: a real settle waits out its quiet spell, the deadline's
    requeue comes due within it, and the Job fails before the expectation that follows (found by
    a mutated TestPastDeadlineJobFinished vector on the 1.32 plane). Drift before or after the
    settle does not show it; drift within it (a settle's own second or two) does."""
    job = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "d", "namespace": "default"}, "spec": {
        "parallelism": 1, "completions": 1, "backoffLimit": 0, "activeDeadlineSeconds": 1,
        "template": {"spec": {"containers": [{"name": "c", "image": "i"}], "restartPolicy": "Never"}},
    }}
    case = {"name": "deadline", "start": "2024-06-01T12:00:00Z", "job": job, "jobUid": "dde50b8a-9637-592d-b462-1c0b6083f757", "steps": [
        {"do": "settle"}, {"do": "expect", "status": {"active": 1, "failed": 0}, "conditions": []},
    ]}
    assert run_scenario(case) == []
    reason = model_variant_reason(case)
    assert reason is not None and "within a settle" in reason, reason


def test_a_case_that_races_the_controller_after_a_write_is_not_a_case_for_a_real_cluster() -> None:
    """An Indexed Job scaled down to one completion and its other pod made Succeeded at once,
    with no settle between (a mutated TestDelayTerminalPhaseCondition vector, found on the 1.32
    plane): a real controller deletes the out-of-range pod first, whose blocking finalizer keeps
    it terminating. With a settle after the scale-down the model too leaves it terminating."""
    job = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "scale", "namespace": "default"}, "spec": {
        "parallelism": 2, "completions": 2, "completionMode": "Indexed",
        "template": {"metadata": {"finalizers": ["fake.example.com/blockDeletion"]},
                     "spec": {"containers": [{"name": "c", "image": "i"}], "restartPolicy": "Never"}},
    }}
    succeeded = {"phase": "Succeeded", "containerStatuses": [{"name": "c", "state": {"terminated": {"exitCode": 0, "finishedAt": "2024-06-01T12:00:00Z"}}}]}
    steps: list[dict[str, Any]] = [
        {"do": "settle"},
        {"do": "setPods", "where": {"index": 0}, "count": 1, "status": succeeded},
        {"do": "updateJob", "patch": {"spec": {"parallelism": 1, "completions": 1}}},
        {"do": "setPods", "where": {"phase": ["Pending", "Running"]}, "status": succeeded},
        {"do": "settle"},
        {"do": "expect", "podCount": [{"where": {"terminating": True}, "count": 0}]},
    ]
    case = {"name": "race", "start": "2024-06-01T12:00:00Z", "job": job, "jobUid": "dde50b8a-9637-592d-b462-1c0b6083f757", "steps": steps}
    assert run_scenario(case) == []
    reason = model_variant_reason(case)
    assert reason is not None and "API write, steps[2] (updateJob)," in reason and "steps[5]" in reason, reason
    # With the settle the upstream test has after the scale-down (the pod then stays terminating),
    # nothing races.
    expect_terminating = {"do": "expect", "podCount": [{"where": {"terminating": True}, "count": 1}]}
    settled = {**case, "steps": [*steps[:3], {"do": "settle"}, *steps[3:5], expect_terminating]}
    assert run_scenario(settled) == []
    assert model_variant_reason(settled) is None


def test_a_case_that_judges_the_job_before_the_controllers_first_sync_is_not_a_case_for_a_real_cluster() -> None:
    """TestUpdateJobPodResources' "non-suspended job" (v1.35) expects `active: 0` right after
    the creation, before any settle: upstream's test reads the Job a millisecond after creating
    it; a real controller has often created the pod by the time the live engine judges (found on
    the 1.35 and 1.37 planes). With a settle first the model's outcome differs, so the case is
    not run; one that settles first is."""
    job = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "r", "namespace": "default"}, "spec": {
        "parallelism": 1, "completions": 1,
        "template": {"spec": {"containers": [{"name": "c", "image": "i"}], "restartPolicy": "Never"}},
    }}
    steps: list[dict[str, Any]] = [{"do": "expect", "status": {"active": 0}}, {"do": "settle"}, {"do": "expect", "status": {"active": 1}}]
    early = {"name": "early", "start": "2024-06-01T12:00:00Z", "job": job, "jobUid": "dde50b8a-9637-592d-b462-1c0b6083f757", "steps": steps}
    assert run_scenario(early) == []
    reason = model_variant_reason(early)
    assert reason is not None and "before the controller's first sync" in reason, reason
    # The step named is the case's own first one (steps[1] of the case with the settle added).
    assert reason.endswith("the model's own outcome differs: steps[0] (expect).status.active: expected 0, got 1"), reason
    settled_first = {**early, "steps": steps[1:]}
    assert run_scenario(settled_first) == [] and model_variant_reason(settled_first) is None


def test_a_varied_cases_difference_names_the_steps_as_written() -> None:
    steps: list[dict[str, Any]] = [{"do": "settle"}, {"do": "expect", "status": {"active": 1}}]
    varied = with_clock_drift(steps, 5, "within")  # settle, advance, settle again, expect
    assert [s["do"] for s in varied] == ["settle", "advance", "settle", "expect"]
    difference = "steps[3] (expect).status.active: expected 1, got 0 (after steps[1] (advance) and steps[2] (settle))"
    assert as_written(difference, varied, steps) == (
        "steps[1] (expect).status.active: expected 1, got 0 (after an added step (advance) and steps[0] (settle))"
    )


def test_cases_that_restart_components_run_alone() -> None:
    assert restarts_components({"steps": [{"do": "settle"}, {"do": "restartController"}]})
    assert restarts_components({"steps": [{"do": "setFeatures", "features": {}}]})
    assert not restarts_components({"steps": [{"do": "settle"}, {"do": "advance", "seconds": 1}]})


def test_batches_put_restarting_cases_alone_first_then_one_batch_per_configuration_largest_first() -> None:
    plain: dict[str, Any] = {"steps": [{"do": "settle"}]}
    gated: dict[str, Any] = {"features": {"JobManagedBy": False}, "steps": [{"do": "settle"}]}
    restarting: dict[str, Any] = {"steps": [{"do": "restartController"}]}
    cases = [(0, gated), (1, plain), (2, restarting), (3, plain), (4, gated), (5, plain)]
    assert case_batches(cases, shared=True) == [
        CaseBatch(None, (2,)),
        CaseBatch(ControllerConfig(), (1, 3, 5)),
        CaseBatch(ControllerConfig({"JobManagedBy": False}), (0, 4)),
    ]


def test_on_a_cluster_not_ours_to_configure_every_case_runs_alone_in_order() -> None:
    plain: dict[str, Any] = {"steps": [{"do": "settle"}]}
    assert case_batches([(0, plain), (1, plain)], shared=False) == [CaseBatch(None, (0,)), CaseBatch(None, (1,))]


def test_a_lane_that_fails_unexpectedly_ends_the_run_without_the_remaining_batches(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    batches = [CaseBatch(None, (i,)) for i in range(20)]
    started: list[int] = []

    def run_batch(self: LiveScenarioRunner, batch: CaseBatch, cases: object, workers: int) -> list[tuple[int, Any]]:
        started.append(batch.members[0])
        if batch.members[0] == 0:
            raise RuntimeError("the plane will not restart")
        time.sleep(0.2)
        return [(batch.members[0], [])]

    monkeypatch.setattr(LiveScenarioRunner, "batches", lambda self, cases, unsupported=None: batches)
    monkeypatch.setattr(LiveScenarioRunner, "run_batch", run_batch)
    second = SimpleNamespace(kubeconfig=tmp_path / "second.kubeconfig", release="1.32")
    runner = LiveScenarioRunner(tmp_path / "kubeconfig", None, tmp_path, release="1.32")
    with pytest.raises(RuntimeError, match="will not restart"):
        runner.run_many([{} for _ in batches], more_planes=[cast(Any, second)])
    assert 0 in started and len(started) <= 3


def test_a_malformed_case_is_its_own_error_and_the_others_are_still_batched(tmp_path: Path) -> None:
    # Found by fuzzing: a case's `features` that is no object made the whole file's preparation fail.
    plain: dict[str, Any] = {"steps": [{"do": "settle"}]}
    runner = LiveScenarioRunner(tmp_path / "kubeconfig", None, tmp_path, release="1.32")
    unsupported: dict[int, Any] = {}
    cases = [{"features": "x", "steps": []}, plain, {"controller": [1], "steps": []}]
    assert runner.batches(cases, unsupported) == [CaseBatch(None, (1,))]
    assert sorted(unsupported) == [0, 2]
    assert isinstance(unsupported[0], InputError) and str(unsupported[0]).startswith("features: expected an object")
    assert isinstance(unsupported[2], InputError) and str(unsupported[2]).startswith("controller: expected an object")
    assert not restarts_components({"steps": 3})


def test_the_frame_names_the_pods_of_a_job_created_again_by_the_uid_of_the_job_they_belong_to() -> None:
    # After `createJob` the frame follows the replacement; the first Job's pods, left behind,
    # still name it by its own uid, which the case knows by its own `jobUid`.
    f = frame()
    f.earlier_uids[f.real_uid] = f.case_uid
    f.real_uid, f.case_uid = "99999999-2222-4333-8444-555555555555", "replacement-uid"
    old = f.translate(real_pod("work-abc", 0, 10))
    new = f.translate({**real_pod("work-def", 0, 12), "metadata": {"uid": "p", "labels": {"batch.kubernetes.io/controller-uid": f.real_uid}}})
    assert old["metadata"]["ownerReferences"][0]["uid"] == CASE_UID
    assert old["metadata"]["labels"]["batch.kubernetes.io/controller-uid"] == CASE_UID
    assert new["metadata"]["labels"]["batch.kubernetes.io/controller-uid"] == "replacement-uid"


def test_changed_since_holds_once_the_view_has_more_changes() -> None:
    """The predicate is false at the count it was made with and true after one more change."""
    view = View()
    view.apply("pods", "ADDED", real_pod("work-a", 0, 11))
    assert view.changes == 1
    assert changed_since(1)(view) is False
    assert changed_since(0)(view) is True
    predicate = changed_since(view.changes)
    view.apply("pods", "MODIFIED", real_pod("work-a", 0, 12, "Running"))
    assert predicate(view) is True


class LateController:
    """A recorder whose controller writes the Job's status only after the first quiet period
    (`late` writes: statuses, applied one per wait for a change)."""

    def __init__(self, late: list[dict[str, object]]) -> None:
        self.view = View()
        self.view.apply("jobs", "ADDED", real_job())
        self.late = late
        self.waits = 0

    def snapshot(self) -> View:
        return self.view

    def wait_quiet(self, quiet: float, timeout: float) -> bool:
        return True

    def wait_until(self, predicate: Any, timeout: float) -> bool:
        self.waits += 1
        if self.late:
            job = real_job()
            job["status"] = self.late.pop(0)
            self.view.apply("jobs", "MODIFIED", job)
        return bool(predicate(self.view))


def case_run(recorder: LateController) -> Any:
    session = SimpleNamespace(cluster=None, recorder=recorder)
    return live_scenario._CaseRun(cast(Any, None), cast(Any, session), frame(), {}, DEFAULT_GATES)


def test_an_expectation_after_a_settle_waits_for_a_controller_that_acts_late() -> None:
    # The controller's write comes after the settle's quiet period: the expectation holds once
    # it lands; one that no later write meets still fails, after the controller stops changing.
    expect = {"do": "expect", "status": {"active": 0, "succeeded": 3}}
    recorder = LateController([{"active": 0, "succeeded": 3}])
    run = case_run(recorder)
    assert run.step({"do": "settle"}, "steps[0]") == []
    assert run.step(expect, "steps[1]") == []
    assert recorder.waits == 1
    recorder = LateController([{"active": 1, "succeeded": 2}])
    run = case_run(recorder)
    run.step({"do": "settle"}, "steps[0]")
    errors = run.step(expect, "steps[1]")
    assert errors and recorder.waits == 2  # the late write, then no change


def test_an_expectation_not_after_a_settle_is_judged_at_once() -> None:
    recorder = LateController([{"active": 0, "succeeded": 3}])
    run = case_run(recorder)
    assert run.step({"do": "expect", "status": {"active": 0, "succeeded": 3}}, "steps[0]")
    assert recorder.waits == 0


class SpacedBurst:
    """A recorder whose controller makes one sync's writes one at a time, a quiet spell apart:
    each wait delivers writes until what it waits for holds (or none is left)."""

    def __init__(self, job: dict[str, object], writes: list[tuple[str, dict[str, object]]]) -> None:
        self.view = View()
        self.view.apply("jobs", "ADDED", job)
        self.writes = writes

    def snapshot(self) -> View:
        return self.view.copy()

    def wait_quiet(self, quiet: float, timeout: float) -> bool:
        return True  # the gap between two writes of the sync passes for the end of the burst

    def wait_until(self, predicate: Any, timeout: float) -> bool:
        while not predicate(self.view) and self.writes:
            resource, obj = self.writes.pop(0)
            self.view.apply(resource, "ADDED" if resource == "pods" else "MODIFIED", obj)
        return bool(predicate(self.view))


def test_a_sync_step_waits_for_every_write_the_models_sync_makes() -> None:
    # A Job with no pods yet: its sync creates 3 pods and then writes its status. The real
    # controller spaces them further apart than the burst's quiet spell; the state judged is
    # the one after all four, not after the first.
    job: dict[str, Any] = real_job()
    job["spec"] = {**job["spec"], "backoffLimit": 6, "suspend": False, "manualSelector": False}
    written = {**job, "metadata": {**job["metadata"], "resourceVersion": "14"}}
    job["status"] = {}
    pods = [real_pod(f"work-{i}-abcde", i, 11 + i) for i in range(3)]
    recorder = SpacedBurst(job, [*(("pods", pod) for pod in pods), ("jobs", written)])
    assert predicted_sync_writes(observed_state(recorder.view, frame())[0], DEFAULT_GATES) == 4
    run = case_run(cast(Any, recorder))
    assert run.step({"do": "sync"}, "steps[0]") == []
    expect = {"do": "expect", "status": {"active": 3}, "podCount": [{"where": {"phase": ["Pending"]}, "count": 3}]}
    assert run.step(expect, "steps[1]") == []
