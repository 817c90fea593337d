"""`jobmodel simulate`'s default script and scripts (jobmodel/simulation/job.py)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from jobmodel.actions import CreatePod
from jobmodel.adapters.picture import IGNORED_FAILURE
from jobmodel.errors import InputError
from jobmodel.features import FeatureGates
from jobmodel.simulation.job import (
    PodOutcome,
    condition_marks,
    parse_failure,
    parse_slow,
    pod_index,
    pod_segments,
    restarted_status,
    simulate_default,
    simulate_script,
    terminal_status,
)
from jobmodel.state import JOB_COMPLETION_INDEX_ANNOTATION, JobControllerTunables
from tests.builders import make_pod

EXAMPLES = Path(__file__).resolve().parents[2] / "specs" / "examples"


def manifest(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = yaml.safe_load((EXAMPLES / name).read_text())
    return doc


def finished_condition(timeline: Any) -> tuple[str, str]:
    job = timeline.final_job()
    assert job is not None
    (cond,) = [c for c in job.status.conditions if c.type in ("Complete", "Failed") and c.status == "True"]
    return cond.type, cond.reason


def test_pi_completes() -> None:
    timeline = simulate_default(manifest("pi.yaml"))
    assert finished_condition(timeline) == ("Complete", "CompletionsReached")
    job = timeline.final_job()
    assert job is not None and (job.status.succeeded, job.status.failed) == (1, 0)


def test_pi_failing_beyond_the_backoff_limit_fails() -> None:
    timeline = simulate_default(manifest("pi.yaml"), [parse_failure("all")])
    assert finished_condition(timeline) == ("Failed", "BackoffLimitExceeded")
    job = timeline.final_job()
    # backoffLimit 4: the fifth failure exceeds it.
    assert job is not None and job.status.failed == 5


def test_pod_recreation_waits_for_the_backoff() -> None:
    timeline = simulate_default(manifest("pi.yaml"), [parse_failure("pod=0")], run_seconds=5)
    assert finished_condition(timeline) == ("Complete", "CompletionsReached")
    # The replacement pod is created only after the 10 s back-off.
    creations = [e for e in timeline.entries if e.actor == "controller" and "create 1 pod" in e.what]
    assert len(creations) == 2
    assert (creations[1].time - creations[0].time).total_seconds() >= 5 + 10


def test_lowered_tunables_batch_the_creations_and_shorten_the_backoff() -> None:
    """MaxPodCreateDeletePerSync 2: five pods in syncs of 2, 2 and 1, each line saying how many
    syncs did it; a back-off of 1 s instead of 10 s."""
    five = {**manifest("pi.yaml"), "spec": {**manifest("pi.yaml")["spec"], "parallelism": 5, "completions": 5}}
    timeline = simulate_default(five, tunables=JobControllerTunables(max_pod_create_delete_per_sync=2))
    first = next(e for e in timeline.entries if e.actor == "controller")
    created = [sum(1 for a in sync.actions if isinstance(a, CreatePod)) for sync in first.syncs]
    assert [n for n in created if n] == [2, 2, 1]
    assert first.what.startswith("create 2 pod(s); update status (1x) (2 syncs); create 1 pod(s)")
    quick = simulate_default(manifest("pi.yaml"), [parse_failure("pod=0")], run_seconds=5, tunables=JobControllerTunables(pod_failure_backoff_seconds=1))
    creations = [e for e in quick.entries if e.actor == "controller" and "create 1 pod" in e.what]
    assert (creations[1].time - creations[0].time).total_seconds() == 5 + 1


def test_indexed_job_completes_every_index() -> None:
    timeline = simulate_default(manifest("indexed.yaml"), [parse_failure("index=3,times=1")])
    assert finished_condition(timeline) == ("Complete", "CompletionsReached")
    job = timeline.final_job()
    assert job is not None and job.status.completed_indexes == "0-4"
    assert job.status.failed == 1


def test_parse_failure_forms() -> None:
    assert parse_failure("index=2,exit=42") == PodOutcome(index=2, exit_code=42)
    assert parse_failure("pod=1") == PodOutcome(pod=1, times=1)
    assert parse_failure("all,condition=DisruptionTarget,times=3") == PodOutcome(condition="DisruptionTarget", times=3)
    assert parse_slow("index=1,seconds=90") == PodOutcome(index=1, succeed=True, seconds=90)
    for bad in ("index=x", "color=red", "index=1,pod=2", "nonsense"):
        with pytest.raises(InputError):
            parse_failure(bad)
    with pytest.raises(InputError, match="seconds"):
        parse_slow("index=1")


def test_deadline_wakes_the_controller_between_pod_finishes() -> None:
    timeline = simulate_default(manifest("active-deadline.yaml"))
    assert finished_condition(timeline) == ("Failed", "DeadlineExceeded")
    job = timeline.final_job()
    assert job is not None
    # The second pod is deleted at the 45 s deadline, 15 s into its 30 s run.
    assert (job.status.succeeded, job.status.failed) == (1, 1)
    assert (timeline.entries[-1].time - timeline.start).total_seconds() == 45


def test_success_policy_terminates_the_remaining_workers() -> None:
    slow_workers = [parse_slow(f"index={i},seconds=100") for i in (1, 2, 3)]
    timeline = simulate_default(manifest("success-policy.yaml"), slow_workers, run_seconds=30)
    assert finished_condition(timeline) == ("Complete", "SuccessPolicy")
    job = timeline.final_job()
    assert job is not None and (job.status.succeeded, job.status.failed) == (1, 0)
    assert (timeline.entries[-1].time - timeline.start).total_seconds() == 30
    # The workers were deleted; the leader's pod is named as upstream names it: <job>-<index>-<suffix>.
    [leader] = timeline.final.cluster.pods
    assert re.fullmatch(r"leader-0-[bcdfghjklmnpqrstvwxz2456789]{5}", leader.name)


def test_script_runs_steps_and_reports_failed_expectations() -> None:
    steps: list[dict[str, Any]] = [
        {"do": "settle"},
        {"do": "expect", "status": {"active": 1}},
        {"do": "setPods", "status": {"phase": "Succeeded"}},
        {"do": "settle"},
        {"do": "expect", "conditionsInclude": [{"type": "Complete", "status": "True"}]},
        {"do": "expect", "status": {"succeeded": 2}},
    ]
    timeline = simulate_script(manifest("pi.yaml"), steps)
    assert len(timeline.differences) == 1
    assert "succeeded: expected 2, got 1" in timeline.differences[0]


def test_invalid_manifest_is_rejected_with_field_errors() -> None:
    bad = manifest("pi.yaml")
    bad["spec"]["completions"] = -1
    with pytest.raises(InputError, match=r"spec\.completions"):
        simulate_default(bad)


def test_segments_follow_each_pods_phases() -> None:
    timeline = simulate_default(manifest("pi.yaml"), [parse_failure("pod=0")], run_seconds=20)
    segments = pod_segments(timeline)
    names = [p.name for p in timeline.final.cluster.pods]
    assert len(names) == 2 and all(re.fullmatch(r"pi-[a-z0-9]{5}", n) for n in names)
    first = [s for s in segments if s.pod == names[0]]
    # The kubelet starts the pod the moment it is created: its Pending segment has no length.
    assert [s.phase for s in first] == ["Running", "Failed"]
    running = first[0]
    assert running.end - running.start == pytest.approx(20)
    assert {s.pod for s in segments} == set(names)


def test_condition_marks_are_where_conditions_turn_true() -> None:
    timeline = simulate_default(manifest("pi.yaml"), run_seconds=20)
    assert [c for _, c in condition_marks(timeline)] == ["SuccessCriteriaMet", "Complete"]
    assert all(t == pytest.approx(20) for t, _ in condition_marks(timeline))


def two_container_job(**spec: Any) -> dict[str, Any]:
    """A Job whose pods run an init container `setup`, then `log` and `app`; a podFailurePolicy
    fails the Job on exit code 42 of `app` and ignores exit code 7 of `setup`."""
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "multi", "namespace": "default"},
        "spec": {
            "completions": 2,
            "parallelism": 2,
            "backoffLimit": 3,
            "podFailurePolicy": {
                "rules": [
                    {"action": "FailJob", "onExitCodes": {"containerName": "app", "operator": "In", "values": [42]}},
                    {"action": "Ignore", "onExitCodes": {"containerName": "setup", "operator": "In", "values": [7]}},
                ]
            },
            "template": {
                "spec": {
                    "restartPolicy": "Never",
                    "initContainers": [{"name": "setup", "image": "busybox"}],
                    "containers": [{"name": "log", "image": "busybox"}, {"name": "app", "image": "busybox"}],
                }
            },
            **spec,
        },
    }


def test_a_policy_on_a_named_container_fires_only_for_that_container() -> None:
    on_app = simulate_default(two_container_job(), [parse_failure("pod=0,exit=42,container=app")])
    assert finished_condition(on_app) == ("Failed", "PodFailurePolicy")
    # The same exit code from the first container (the default) matches no rule: counted, retried.
    on_log = simulate_default(two_container_job(), [parse_failure("pod=0,exit=42")])
    assert finished_condition(on_log) == ("Complete", "CompletionsReached")
    job = on_log.final_job()
    assert job is not None and job.status.failed == 1


def test_failed_pods_report_every_container_of_the_template() -> None:
    timeline = simulate_default(two_container_job(), [parse_failure("pod=0,exit=42,container=app")])
    failed = next(p for e in timeline.entries for p in e.state.cluster.pods if p.phase == "Failed")
    codes = {c.name: c.terminated.exit_code for c in failed.status.container_statuses if c.terminated}
    assert codes == {"log": 0, "app": 42}
    assert [c.name for c in failed.status.init_container_statuses] == ["setup"]


def test_a_failing_init_container_is_what_the_policy_reads() -> None:
    timeline = simulate_default(two_container_job(), [parse_failure("pod=0,exit=7,container=setup")])
    assert finished_condition(timeline) == ("Complete", "CompletionsReached")
    job = timeline.final_job()
    assert job is not None and job.status.failed == 0  # ignored by the rule on `setup`


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("index=1", "not Indexed"),
        ("pod=0,container=nope", "no container 'nope'"),
    ],
)
def test_a_selector_that_can_match_no_pod_is_refused(spec: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        simulate_default(two_container_job(), [parse_failure(spec)])


def test_an_index_past_completions_is_refused() -> None:
    with pytest.raises(InputError, match="indexes are 0 to 4"):
        simulate_default(manifest("indexed.yaml"), [parse_failure("index=5")])


def test_a_pod_number_never_reached_is_noted() -> None:
    timeline = simulate_default(manifest("pi.yaml"), [parse_failure("pod=3")])
    assert timeline.notes == ("--fail pod=3: matched no pod (the Job created 1 pods)",)


def test_indexed_pods_are_named_as_upstream_names_them() -> None:
    timeline = simulate_default(manifest("indexed.yaml"), [parse_failure("index=3,times=2")])
    pods = {p.name: p for e in timeline.entries for p in e.state.cluster.pods}
    for name, pod in pods.items():
        index = pod.metadata.annotations["batch.kubernetes.io/job-completion-index"]
        assert re.fullmatch(rf"indexed-{index}-[bcdfghjklmnpqrstvwxz2456789]{{5}}", name)
    assert sum(1 for n in pods if n.startswith("indexed-3-")) == 3  # two failures and a success


def test_the_ready_above_active_refusal_is_labelled_with_its_upstream_issue() -> None:
    job = two_container_job(podFailurePolicy=None)
    del job["spec"]["podFailurePolicy"]
    outcomes = [parse_failure("pod=0"), parse_slow("pod=1,seconds=100")]
    timeline = simulate_default(job, outcomes, gates=FeatureGates.for_release(32))
    refused = [e.what for e in timeline.entries if "cannot set more ready pods than active" in e.what]
    assert refused and all("known upstream bug kubernetes#139428" in what for what in refused)
    # Fixed in 1.36: the status written during the back-off keeps the active pods.
    fixed = simulate_default(job, outcomes, gates=FeatureGates.for_release(36))
    assert not [e.what for e in fixed.entries if "cannot set more ready pods than active" in e.what]


def test_a_script_index_no_pod_can_have_is_refused_before_the_run() -> None:
    steps: list[dict[str, Any]] = [{"do": "settle"}, {"do": "setPods", "where": {"index": 0}, "status": {"phase": "Failed"}}]
    with pytest.raises(InputError, match=r"steps\[1\]\.where\.index"):
        simulate_script(manifest("pi.yaml"), steps)


def test_a_script_step_choosing_no_pod_stops_with_a_difference() -> None:
    steps: list[dict[str, Any]] = [{"do": "settle"}, {"do": "setPods", "where": {"phase": "Running"}, "status": {"phase": "Failed"}}, {"do": "settle"}]
    timeline = simulate_script(manifest("pi.yaml"), steps)
    assert len(timeline.differences) == 1 and "matches none of the Job's pods" in timeline.differences[0]
    assert [e.actor for e in timeline.entries] == ["user", "controller"]  # what ran before is kept


def test_segments_tell_ignored_failures_and_deleted_pods_apart() -> None:
    ignored = simulate_default(manifest("pod-failure-policy.yaml"), [parse_failure("all,condition=DisruptionTarget,times=2")])
    looks = {s.phase for s in pod_segments(ignored)}
    assert IGNORED_FAILURE in looks and "Failed" not in looks
    counted = simulate_default(manifest("pod-failure-policy.yaml"), [parse_failure("all,exit=1,times=2")])
    assert "Failed" in {s.phase for s in pod_segments(counted)}
    slow_workers = [parse_slow(f"index={i},seconds=100") for i in (1, 2, 3)]
    success = simulate_default(manifest("success-policy.yaml"), slow_workers)
    deleted = [s for s in pod_segments(success) if s.deleted]
    assert Counter(s.index for s in deleted) == Counter((1, 2, 3))  # each once, none without an index
    assert all(s.end == 30 for s in deleted)


def test_a_pods_index_is_read_as_the_controller_reads_it() -> None:
    """The picture's index of a pod is getCompletionIndex's: strconv.Atoi of the annotation, so
    `\u0663` (an Arabic-Indic 3, a digit to Python) is no index."""
    assert pod_index(make_pod("p", annotations={JOB_COMPLETION_INDEX_ANNOTATION: "3"})) == 3
    assert pod_index(make_pod("p", annotations={JOB_COMPLETION_INDEX_ANNOTATION: "\u0663"})) is None
    assert pod_index(make_pod("p", annotations={JOB_COMPLETION_INDEX_ANNOTATION: "\u00b2"})) is None
    assert pod_index(make_pod("p")) is None


# --- restartPolicy OnFailure: failed containers restart in their pods -------------------------------


def on_failure(backoff_limit: int, **template: Any) -> dict[str, Any]:
    doc = manifest("on-failure.yaml")
    doc["spec"].update(parallelism=1, completions=1, backoffLimit=backoff_limit)
    doc["spec"]["template"]["spec"].update(template)
    return doc


def pods_seen(timeline: Any) -> list[Any]:
    return [p for e in timeline.entries for p in e.state.cluster.pods]


def test_an_on_failure_container_restarts_in_its_pod_until_the_restarts_reach_the_backoff_limit() -> None:
    timeline = simulate_default(on_failure(3), [parse_failure("all")])
    assert finished_condition(timeline) == ("Failed", "BackoffLimitExceeded")
    # One pod for the whole run: no pod ever Failed on its own, its container restarted three
    # times (30 s apart), and the Job failed at the third restart (restarts >= backoffLimit).
    assert {p.name for p in pods_seen(timeline)} == {pods_seen(timeline)[0].name}
    assert not [p for p in pods_seen(timeline) if p.phase == "Failed" and p.metadata.deletion_timestamp is None]
    assert max(c.restart_count for p in pods_seen(timeline) for c in p.status.container_statuses) == 3
    assert (timeline.entries[-1].time - timeline.start).total_seconds() == 90


def test_a_restarted_container_runs_its_time_again_and_may_succeed() -> None:
    timeline = simulate_default(on_failure(3), [parse_failure("all,times=2")])
    assert finished_condition(timeline) == ("Complete", "CompletionsReached")
    job = timeline.final_job()
    assert job is not None and (job.status.succeeded, job.status.failed) == (1, 0)
    assert (timeline.entries[-1].time - timeline.start).total_seconds() == 90  # two restarts, then 30 s more
    # The pod ends as it ran: its container's restarts and last exit stay in its status.
    [ended] = [p for p in timeline.final.cluster.pods if p.phase == "Succeeded"]
    assert ended.status.container_statuses[0].restart_count == 2
    assert ended.status.container_statuses[0].extra["lastState"]["terminated"]["exitCode"] == 1
    # What a kubelet writes of such a pod goes over the wire as JSON (live run): plain values.
    restarted = [p for e in timeline.entries for p in e.state.cluster.pods if p.phase == "Running" and p.status.container_statuses[0].restart_count]
    for status in (terminal_status(timeline.start, None, restarted[-1]), restarted_status(timeline.start, parse_failure("all"), restarted[-1])[0]):
        assert json.loads(json.dumps(status))["containerStatuses"][0]["lastState"]["terminated"]["exitCode"] == 1


def test_a_pod_condition_still_fails_an_on_failure_pod() -> None:
    timeline = simulate_default(on_failure(3), [parse_failure("pod=0,condition=DisruptionTarget")])
    assert finished_condition(timeline) == ("Complete", "CompletionsReached")
    job = timeline.final_job()
    assert job is not None and (job.status.succeeded, job.status.failed) == (1, 1)


def test_a_failed_init_container_restarts_with_its_pod_back_in_pending() -> None:
    init = [{"name": "setup", "image": "busybox:1.36"}]
    timeline = simulate_default(on_failure(3, initContainers=init), [parse_failure("pod=0,container=setup")])
    assert finished_condition(timeline) == ("Complete", "CompletionsReached")
    restarted = [p for p in pods_seen(timeline) if any(c.restart_count for c in p.status.init_container_statuses)]
    assert restarted and restarted[0].phase == "Pending"
    assert all(c.restart_count == 0 for p in restarted for c in p.status.container_statuses)
    assert len({p.name for p in pods_seen(timeline)}) == 1
