"""jobmodel.simulation.live_run without a cluster: the Job's status rows, their alignment, the
final comparison, when a Job is finished, the real timeline read from a hand-written trace, the
simulated kubelet's moves against a fake API, and the defaults `live run` derives.
(The same on the real control plane: tests/adapters/test_live.py, tests/commands/test_live_cluster.py.)"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from jobmodel.adapters.controlplane import ControlPlane
from jobmodel.adapters.live import TRACE_FORMAT, LiveError, Recorder, Rejected, Session, View
from jobmodel.api.meta_validation import is_dns1123_label
from jobmodel.simulation import live_run
from jobmodel.simulation.job import PodOutcome, Timeline, TimelineEntry
from jobmodel.simulation.live_run import (
    FINISH_QUIET,
    LiveRunResult,
    Row,
    SimulatedKubelet,
    aligned_rows,
    cluster_for_run,
    compare_final,
    default_trace_path,
    final_summary,
    job_finished,
    owned_pods,
    status_rows,
    timeline_from_trace,
    wait_finished,
)
from jobmodel.simulation.live_scenario import CaseFrame
from jobmodel.simulation.scenario import ScenarioState
from jobmodel.transitions.cluster import Cluster
from tests.builders import make_job

START = datetime(2025, 1, 1, tzinfo=UTC)
REAL = datetime(2026, 1, 1, 8, 30, tzinfo=UTC)
REAL_NS = "jobmodel-work-1a2b3c"
REAL_UID = "11111111-2222-4333-8444-555555555555"
CASE_UID = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee"


# --- builders ------------------------------------------------------------------------------------


def cond(ctype: str, reason: str = "", status: str = "True") -> dict[str, str]:
    """A Job condition in wire format."""
    return {"type": ctype, "status": status, "reason": reason}


def state(status: dict[str, Any] | None) -> ScenarioState:
    """The followed Job `default/foobar` with `status`; None: the Job is gone."""
    jobs = () if status is None else (make_job(status=status),)
    return ScenarioState(Cluster(now=START, jobs=jobs), "default", "foobar", None)


def timeline(*steps: tuple[float, dict[str, Any] | None]) -> Timeline:
    """A Timeline of (seconds after START, the Job's status or None) steps."""
    entries = tuple(TimelineEntry(START + timedelta(seconds=s), "controller", "step", state(st)) for s, st in steps)
    return Timeline(START, entries)


def frame(real_uid: str = REAL_UID) -> CaseFrame:
    """The frame of the Job `work` run in REAL_NS, seen as `default/work`."""
    return CaseFrame("default", REAL_NS, "work", CASE_UID, START, REAL, real_uid=real_uid)


def real_job(status: dict[str, Any] | None = None) -> dict[str, Any]:
    """The real Job `work` in REAL_NS, as the API server returns it."""
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "work", "namespace": REAL_NS, "uid": REAL_UID, "resourceVersion": "10"},
        "spec": {
            "completions": 2,
            "parallelism": 1,
            "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": REAL_UID}},
            "template": {
                "metadata": {"labels": {"batch.kubernetes.io/controller-uid": REAL_UID}},
                "spec": {"containers": [{"name": "c", "image": "x"}], "restartPolicy": "Never"},
            },
        },
        "status": status or {},
    }


def real_pod(
    name: str,
    rv: int,
    phase: str = "Pending",
    *,
    node: bool = True,
    deleting: bool = False,
    owner: str = REAL_UID,
) -> dict[str, Any]:
    """A real pod of the Job (of `owner`'s), seen at resourceVersion `rv`."""
    meta: dict[str, Any] = {
        "name": name,
        "namespace": REAL_NS,
        "uid": f"uid-{name}",
        "resourceVersion": str(rv),
        "creationTimestamp": "2026-01-01T08:30:00Z",
        "labels": {"batch.kubernetes.io/controller-uid": owner},
        "finalizers": ["batch.kubernetes.io/job-tracking"],
    }
    if owner:
        meta["ownerReferences"] = [{"apiVersion": "batch/v1", "kind": "Job", "name": "work", "uid": owner, "controller": True}]
    if deleting:
        meta["deletionTimestamp"] = "2026-01-01T08:31:00Z"
    spec: dict[str, Any] = {"containers": [{"name": "c", "image": "x"}], "restartPolicy": "Never"}
    if node:
        spec["nodeName"] = "jobmodel-node"
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec, "status": {"phase": phase}}


def view_of(*pods: dict[str, Any]) -> View:
    """A View holding the pods, applied in the order given."""
    view = View()
    for pod in pods:
        view.apply("pods", "ADDED", pod)
    return view


# --- status_rows ---------------------------------------------------------------------------------


def test_status_rows_keep_each_distinct_successive_status_at_its_offset() -> None:
    """A status repeated by the next entry is one row; each row is at its offset from the start."""
    done = {"succeeded": 2, "conditions": [cond("SuccessCriteriaMet", "CompletionsReached"), cond("Complete", "CompletionsReached")]}
    t = timeline((0, {}), (1, {"active": 2}), (2, {"active": 2}), (3, {"active": 1, "ready": 1, "succeeded": 1}), (5, done))
    assert status_rows(t) == [
        (0.0, (0, 0, 0, 0, 0), ""),
        (1.0, (2, 0, 0, 0, 0), ""),
        (3.0, (1, 1, 1, 0, 0), ""),
        (5.0, (0, 0, 2, 0, 0), "SuccessCriteriaMet(CompletionsReached),Complete(CompletionsReached)"),
    ]


def test_status_rows_count_in_the_order_active_ready_succeeded_failed_terminating() -> None:
    """Each counter lands in its own place of the row's tuple."""
    t = timeline((0, {"active": 1, "ready": 2, "succeeded": 3, "failed": 4, "terminating": 5}))
    assert status_rows(t) == [(0.0, (1, 2, 3, 4, 5), "")]


def test_status_rows_name_only_true_conditions_and_a_reasonless_one_bare() -> None:
    """Conditions not True are left out; one without a reason is its type alone."""
    t = timeline((0, {"conditions": [cond("Failed", "BackoffLimitExceeded", "False"), cond("Complete")]}))
    assert status_rows(t) == [(0.0, (0, 0, 0, 0, 0), "Complete")]


def test_status_rows_take_a_return_to_an_earlier_status_as_a_new_row() -> None:
    """Rows are distinct from their predecessor only, not from every earlier row."""
    t = timeline((0, {"active": 1}), (1, {"active": 1, "ready": 1}), (2, {"active": 1}))
    assert [r[1] for r in status_rows(t)] == [(1, 0, 0, 0, 0), (1, 1, 0, 0, 0), (1, 0, 0, 0, 0)]


def test_status_rows_read_absent_ready_and_terminating_as_zero() -> None:
    """An absent ready or terminating count is the same row as a count of 0."""
    t = timeline((0, {"active": 1}), (1, {"active": 1, "ready": 0, "terminating": 0}))
    assert status_rows(t) == [(0.0, (1, 0, 0, 0, 0), "")]


def test_status_rows_skip_entries_without_the_job() -> None:
    """Entries where the Job does not exist make no row; a timeline without it has none."""
    assert status_rows(timeline((0, None), (1, {"active": 1}), (2, None))) == [(1.0, (1, 0, 0, 0, 0), "")]
    assert status_rows(timeline((0, None), (1, None))) == []


# --- final_summary and compare_final -------------------------------------------------------------


def test_final_summary_holds_the_compared_fields_of_the_last_entry() -> None:
    """The summary: True conditions as sorted (type, reason), succeeded, failed, active, completed indexes."""
    last = {
        "succeeded": 3,
        "failed": 1,
        "ready": 0,
        "terminating": 0,
        "completedIndexes": "0-2",
        "conditions": [cond("SuccessCriteriaMet", "CompletionsReached"), cond("Complete", "CompletionsReached"), cond("Suspended", "JobResumed", "False")],
    }
    assert final_summary(timeline((0, {"active": 3}), (9, last))) == {
        "conditions": [("Complete", "CompletionsReached"), ("SuccessCriteriaMet", "CompletionsReached")],
        "succeeded": 3,
        "failed": 1,
        "active": 0,
        "completedIndexes": "0-2",
    }


def test_final_summary_of_a_job_gone_at_the_end_says_so() -> None:
    """A Job that existed but is gone at the last entry is summarized as gone."""
    assert final_summary(timeline((0, {"active": 1}), (1, None))) == {"job": "gone"}


def test_the_same_final_status_reached_otherwise_is_no_difference() -> None:
    """Only the final status counts: other timing and interim rows, condition order and False conditions do not."""
    model = timeline((0, {"active": 1}), (3, {"succeeded": 1, "conditions": [cond("SuccessCriteriaMet", "CompletionsReached"), cond("Complete", "CompletionsReached")]}))
    real = timeline(
        (0, {"active": 1}),
        (2, {"active": 1, "ready": 1}),
        (4, {"succeeded": 1, "conditions": [cond("Complete", "CompletionsReached"), cond("Failed", "x", "False"), cond("SuccessCriteriaMet", "CompletionsReached")]}),
    )
    assert compare_final(model, real) == []


def test_fields_outside_the_compared_ones_make_no_difference() -> None:
    """ready and terminating are not among the compared final fields."""
    model = timeline((0, {"active": 1, "ready": 1, "terminating": 0}))
    real = timeline((0, {"active": 1, "ready": 0, "terminating": 2}))
    assert compare_final(model, real) == []


def test_a_differing_count_is_reported_naming_the_field_and_both_values() -> None:
    """One differing counter is one difference, with the model's value and the real one."""
    model = timeline((0, {"succeeded": 2}))
    real = timeline((0, {"succeeded": 1}))
    assert compare_final(model, real) == ["final succeeded: the model predicts 2, the real controller reached 1"]


def test_complete_against_failed_reports_each_differing_field_in_name_order() -> None:
    """A Job predicted Complete that really Failed differs in conditions, failed and succeeded, in that order."""
    model = timeline((0, {"succeeded": 1, "conditions": [cond("Complete", "CompletionsReached")]}))
    real = timeline((0, {"failed": 1, "conditions": [cond("Failed", "BackoffLimitExceeded")]}))
    assert compare_final(model, real) == [
        "final conditions: the model predicts [('Complete', 'CompletionsReached')], the real controller reached [('Failed', 'BackoffLimitExceeded')]",
        "final failed: the model predicts 0, the real controller reached 1",
        "final succeeded: the model predicts 1, the real controller reached 0",
    ]


def test_a_condition_reason_alone_is_a_difference() -> None:
    """The same condition type with another reason is reported as a conditions difference."""
    model = timeline((0, {"conditions": [cond("Failed", "BackoffLimitExceeded")]}))
    real = timeline((0, {"conditions": [cond("Failed", "DeadlineExceeded")]}))
    assert compare_final(model, real) == [
        "final conditions: the model predicts [('Failed', 'BackoffLimitExceeded')], the real controller reached [('Failed', 'DeadlineExceeded')]"
    ]


def test_completed_indexes_and_active_are_compared() -> None:
    """completedIndexes and active are among the compared fields."""
    model = timeline((0, {"active": 1, "completedIndexes": "0-2"}))
    real = timeline((0, {"active": 0, "completedIndexes": "0,2"}))
    assert compare_final(model, real) == [
        "final active: the model predicts 1, the real controller reached 0",
        "final completedIndexes: the model predicts '0-2', the real controller reached '0,2'",
    ]


def test_a_job_gone_on_one_side_only_is_a_difference_and_gone_on_both_is_none() -> None:
    """A Job gone from the real cluster but not from the model's (or the reverse) is reported; gone on both sides is agreement."""
    finished = timeline((0, {"succeeded": 1, "conditions": [cond("Complete", "CompletionsReached")]}))
    gone = timeline((0, {"active": 1}), (1, None))
    assert "final job: the model predicts None, the real controller reached 'gone'" in compare_final(finished, gone)
    assert "final job: the model predicts 'gone', the real controller reached None" in compare_final(gone, finished)
    assert compare_final(gone, gone) == []


# --- aligned_rows --------------------------------------------------------------------------------


def test_equal_sequences_align_row_by_row_whatever_their_times() -> None:
    """Rows with the same counts and conditions agree even at other offsets; each side keeps its own."""
    model = timeline((0, {"active": 1}), (3, {"succeeded": 1, "conditions": [cond("Complete", "CompletionsReached")]}))
    real = timeline((0.5, {"active": 1}), (4.5, {"succeeded": 1, "conditions": [cond("Complete", "CompletionsReached")]}))
    assert aligned_rows(model, real) == [
        ((0.0, (1, 0, 0, 0, 0), ""), (0.5, (1, 0, 0, 0, 0), ""), True),
        ((3.0, (0, 0, 1, 0, 0), "Complete(CompletionsReached)"), (4.5, (0, 0, 1, 0, 0), "Complete(CompletionsReached)"), True),
    ]


def test_an_interim_real_row_stands_beside_none() -> None:
    """A status only the real controller wrote stands beside None and disagrees; the rows around it agree."""
    model = timeline((0, {"active": 1}), (3, {"succeeded": 1, "conditions": [cond("Complete", "CompletionsReached")]}))
    real = timeline(
        (0, {"active": 1}),
        (2, {"active": 0, "conditions": [cond("SuccessCriteriaMet", "CompletionsReached")]}),
        (3, {"succeeded": 1, "conditions": [cond("Complete", "CompletionsReached")]}),
    )
    first: Row = (0.0, (1, 0, 0, 0, 0), "")
    interim: Row = (2.0, (0, 0, 0, 0, 0), "SuccessCriteriaMet(CompletionsReached)")
    last: Row = (3.0, (0, 0, 1, 0, 0), "Complete(CompletionsReached)")
    assert aligned_rows(model, real) == [(first, first, True), (None, interim, False), (last, last, True)]


def test_a_row_only_the_model_has_stands_beside_none() -> None:
    """A status only the model predicts stands on the left, None on the right, disagreeing."""
    model = timeline((0, {"active": 2}), (1, {"active": 1, "succeeded": 1}), (2, {"succeeded": 2}))
    real = timeline((0, {"active": 2}), (2, {"succeeded": 2}))
    assert aligned_rows(model, real) == [
        ((0.0, (2, 0, 0, 0, 0), ""), (0.0, (2, 0, 0, 0, 0), ""), True),
        ((1.0, (1, 0, 1, 0, 0), ""), None, False),
        ((2.0, (0, 0, 2, 0, 0), ""), (2.0, (0, 0, 2, 0, 0), ""), True),
    ]


def test_differing_runs_of_rows_pair_up_and_the_longer_side_pads_with_none() -> None:
    """Where both sides differ they are paired in order, disagreeing; the side with more rows has None beside its extra ones."""
    model = timeline((0, {"active": 2}), (1, {"active": 1, "failed": 1}), (2, {"failed": 2}))
    real = timeline((0, {"active": 2}), (1, {"active": 1, "ready": 1}), (1.5, {"active": 1, "terminating": 1}), (2, {"failed": 2}))
    assert aligned_rows(model, real) == [
        ((0.0, (2, 0, 0, 0, 0), ""), (0.0, (2, 0, 0, 0, 0), ""), True),
        ((1.0, (1, 0, 0, 1, 0), ""), (1.0, (1, 1, 0, 0, 0), ""), False),
        (None, (1.5, (1, 0, 0, 0, 1), ""), False),
        ((2.0, (0, 0, 0, 2, 0), ""), (2.0, (0, 0, 0, 2, 0), ""), True),
    ]


def test_the_same_counts_under_other_conditions_disagree() -> None:
    """Conditions are part of a row: equal counters with other conditions do not agree."""
    model = timeline((0, {"succeeded": 1, "conditions": [cond("Complete", "CompletionsReached")]}))
    real = timeline((0, {"succeeded": 1}))
    assert aligned_rows(model, real) == [
        ((0.0, (0, 0, 1, 0, 0), "Complete(CompletionsReached)"), (0.0, (0, 0, 1, 0, 0), ""), False),
    ]


# --- job_finished ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("job", "finished"),
    [
        ({"status": {"conditions": [cond("Complete", "CompletionsReached")]}}, True),
        ({"status": {"conditions": [cond("SuccessCriteriaMet", "CompletionsReached"), cond("Failed", "BackoffLimitExceeded")]}}, True),
        ({"status": {"conditions": [cond("Complete", "CompletionsReached", "False")]}}, False),
        ({"status": {"conditions": [cond("FailureTarget", "BackoffLimitExceeded")]}}, False),
        ({"status": {"conditions": [cond("SuccessCriteriaMet", "CompletionsReached")]}}, False),
        ({"status": {"active": 1}}, False),
        ({"status": {"conditions": None}}, False),
        ({"status": None}, False),
        ({}, False),
        (None, False),
    ],
    ids=[
        "complete", "failed", "complete-false", "failure-target", "success-criteria-met",
        "no-conditions", "null-conditions", "null-status", "no-status", "no-job",
    ],
)
def test_a_job_is_finished_only_by_a_true_complete_or_failed_condition(job: dict[str, Any] | None, finished: bool) -> None:
    """Complete or Failed with status True finish a Job; interim conditions, False ones, or no Job do not."""
    assert job_finished(job) is finished


# --- default_trace_path, cluster_for_run, run_live's defaults ------------------------------------


def test_default_trace_path_is_the_namespace_in_the_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --trace the trace is ./<namespace>.trace.jsonl."""
    monkeypatch.chdir(tmp_path)
    assert default_trace_path("jobmodel-pi-0a1b2c") == tmp_path / "jobmodel-pi-0a1b2c.trace.jsonl"


def test_a_given_kubeconfig_is_used_as_is_without_a_local_plane(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With --kubeconfig no local control plane is looked for or started, and nothing is left to stop."""

    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("a local control plane was looked for")

    monkeypatch.setattr(live_run, "running_plane", refuse)
    monkeypatch.setattr(ControlPlane, "start", refuse)
    kubeconfig = tmp_path / "kubeconfig"
    stack = ExitStack()
    assert cluster_for_run(kubeconfig, stack) == (kubeconfig, None)
    stack.close()


Captured = dict[str, Any]
RESULT = cast(LiveRunResult, object())  # what the faked recorded run returns


def fake_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, then: Callable[[Captured], None] | None = None) -> Captured:
    """run_live's seams replaced: no cluster; the namespace and trace it chose are captured."""
    captured: Captured = {}

    def cluster(kubeconfig: Path | None, stack: ExitStack, release: str = "") -> tuple[Path, None]:
        return tmp_path / "kubeconfig", None

    def recorded(*args: Any) -> LiveRunResult:
        # _run_recorded(manifest, outcomes, script, config_path, plane, kubelet, run_seconds, namespace, trace, ...)
        captured["namespace"], captured["trace"] = args[7], args[8]
        if then is not None:
            then(captured)
        return RESULT

    monkeypatch.setattr(live_run, "cluster_for_run", cluster)
    monkeypatch.setattr(live_run, "_run_recorded", recorded)
    return captured


def manifest(name: str) -> dict[str, Any]:
    """A Job manifest named `name`."""
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": name}, "spec": {}}


def test_the_default_namespace_and_trace_are_derived_from_the_jobs_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Defaults: namespace jobmodel-<job>-<hex>, trace ./<namespace>.trace.jsonl."""
    monkeypatch.chdir(tmp_path)
    captured = fake_run(monkeypatch, tmp_path)
    assert live_run.run_live(manifest("pi")) is RESULT
    namespace = captured["namespace"]
    assert namespace.startswith("jobmodel-pi-")
    suffix = namespace.removeprefix("jobmodel-pi-")
    assert suffix and all(c in "0123456789abcdef" for c in suffix)
    assert captured["trace"] == tmp_path / f"{namespace}.trace.jsonl"
    # A new namespace each run.
    live_run.run_live(manifest("pi"))
    assert captured["namespace"] != namespace


def test_a_long_jobs_name_still_makes_a_namespace_within_a_labels_length(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Job name of 63 characters gives a namespace that is a valid DNS-1123 label, beginning with the name's first 40."""
    monkeypatch.chdir(tmp_path)
    captured = fake_run(monkeypatch, tmp_path)
    name = "a" * 63
    live_run.run_live(manifest(name))
    assert captured["namespace"].startswith(f"jobmodel-{'a' * 40}-")
    assert is_dns1123_label(captured["namespace"]) == []


def test_a_dotted_jobs_name_makes_a_valid_namespace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A valid Job name with a dot (pi.v1) still gives a namespace the API server accepts."""
    monkeypatch.chdir(tmp_path)
    captured = fake_run(monkeypatch, tmp_path)
    live_run.run_live(manifest("pi.v1"))
    assert is_dns1123_label(captured["namespace"]) == []
    assert captured["namespace"].startswith("jobmodel-pi-v1-")


@pytest.mark.parametrize(
    "job_name",
    ["a" * 39 + ".b", "x.." + "y" * 60, "1.2.3", "z" * 253],
)
def test_the_default_namespace_is_a_dns_label_for_any_job_name(job_name: str) -> None:
    """Cut to 40 characters, a dot at the cut or runs of dots still give a DNS-1123 label."""
    namespace = live_run.default_namespace(job_name)
    assert is_dns1123_label(namespace) == []
    assert namespace != live_run.default_namespace(job_name)  # a new one each run


def test_a_given_namespace_and_trace_are_used_as_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--namespace and --trace are taken as given; without --trace the path follows the given namespace."""
    monkeypatch.chdir(tmp_path)
    captured = fake_run(monkeypatch, tmp_path)
    trace = tmp_path / "runs" / "mine.jsonl"
    live_run.run_live(manifest("pi"), namespace="mine", trace=trace)
    assert captured == {"namespace": "mine", "trace": trace}
    live_run.run_live(manifest("pi"), namespace="mine")
    assert captured["trace"] == tmp_path / "mine.trace.jsonl"


@pytest.mark.parametrize("metadata", [{}, {"generateName": "pi-"}, {"name": ""}], ids=["none", "generate-name", "empty"])
def test_a_manifest_without_a_name_is_refused_before_any_cluster(metadata: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """live run needs metadata.name (generateName is not supported) and says so before touching a cluster."""

    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("a cluster was asked for")

    monkeypatch.setattr(live_run, "cluster_for_run", refuse)
    with pytest.raises(LiveError, match=r"no metadata\.name"):
        live_run.run_live({"apiVersion": "batch/v1", "kind": "Job", "metadata": metadata, "spec": {}})


def test_an_error_after_recording_began_names_the_trace_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cluster error once the trace exists points at the trace, keeping its HTTP status."""

    def fail(captured: Captured) -> None:
        captured["trace"].write_text("{}\n")
        raise LiveError("the Job did not finish within 5s", 503)

    fake_run(monkeypatch, tmp_path, fail)
    trace = tmp_path / "t.jsonl"
    with pytest.raises(LiveError) as caught:
        live_run.run_live(manifest("pi"), trace=trace)
    assert caught.value.reason == f"the Job did not finish within 5s (the trace recorded so far: {trace})"
    assert caught.value.status == 503


def test_an_error_before_any_trace_is_raised_as_it_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cluster error before the trace file exists is not said to have a trace."""

    def fail(captured: Captured) -> None:
        raise LiveError("cannot reach the cluster", 0)

    fake_run(monkeypatch, tmp_path, fail)
    with pytest.raises(LiveError) as caught:
        live_run.run_live(manifest("pi"), trace=tmp_path / "t.jsonl")
    assert caught.value.reason == "cannot reach the cluster"


# --- owned_pods, wait_finished -------------------------------------------------------------------


def test_owned_pods_are_the_jobs_in_the_order_they_were_first_seen() -> None:
    """Pods of another Job and orphans are left out; the Job's come in first-seen order, not name order."""
    view = view_of(real_pod("work-b", 11), real_pod("other-a", 12, owner="99999999-0000-4000-8000-000000000000"), real_pod("orphan", 13, owner=""), real_pod("work-a", 14))
    assert [p["metadata"]["name"] for p in owned_pods(view, frame())] == ["work-b", "work-a"]


class FakeRecorder:
    """A Recorder's waiting and recording, on a fixed View."""

    def __init__(self, view: View, finishes: bool = True) -> None:
        self.view = view
        self.finishes = finishes
        self.trace = SimpleNamespace(path=Path("run.trace.jsonl"))
        self.actions: list[tuple[str, str, Any]] = []
        self.quiet: list[tuple[float, float]] = []
        self.seen: list[bool] = []

    def wait_until(self, predicate: Callable[[View], bool], timeout: float) -> bool:
        self.seen.append(predicate(self.view))
        return self.finishes

    def wait_quiet(self, quiet: float, timeout: float) -> bool:
        self.quiet.append((quiet, timeout))
        return True

    def action(self, actor: str, what: str, result: Any = None) -> None:
        self.actions.append((actor, what, result))

    def check(self) -> None:
        """The watches run."""

    def snapshot(self) -> View:
        return self.view


def test_waiting_for_the_real_kubelets_watches_the_jobs_key_then_a_quiet_spell() -> None:
    """The wait reads the Job at <real namespace>/<name> and, once finished, waits FINISH_QUIET of quiet."""
    view = View()
    view.apply("jobs", "ADDED", real_job({"conditions": [cond("Complete", "CompletionsReached")]}))
    recorder = FakeRecorder(view)
    wait_finished(cast(Recorder, recorder), frame(), 30.0)
    assert recorder.seen == [True]
    assert recorder.quiet == [(FINISH_QUIET, 30.0)]


def test_a_job_not_finished_in_time_is_an_error_naming_the_trace() -> None:
    """When the Job does not finish within the timeout, the error says so and where the trace is; no quiet wait follows."""
    view = View()
    view.apply("jobs", "ADDED", real_job({"active": 1}))
    recorder = FakeRecorder(view, finishes=False)
    with pytest.raises(LiveError, match=r"did not finish within 7s.*run\.trace\.jsonl"):
        wait_finished(cast(Recorder, recorder), frame(), 7.0)
    assert recorder.seen == [False]
    assert recorder.quiet == []


# --- the simulated kubelet -----------------------------------------------------------------------


class FakeCluster:
    """The calls the simulated kubelet makes, recorded; each write answers with the next resourceVersion."""

    def __init__(self, refuse: Rejected | LiveError | None = None) -> None:
        self.calls: list[tuple[str, str, Any]] = []
        self.rv = 100
        self.refuse = refuse

    def _answer(self, call: str, name: str, detail: Any) -> dict[str, Any]:
        if self.refuse is not None:
            raise self.refuse
        self.calls.append((call, name, detail))
        self.rv += 1
        return {"metadata": {"name": name, "resourceVersion": str(self.rv)}}

    def bind_pod(self, namespace: str, name: str) -> dict[str, Any]:
        assert namespace == REAL_NS
        return self._answer("bind", name, None)

    def patch_pod_status(self, namespace: str, name: str, status: dict[str, Any]) -> dict[str, Any]:
        assert namespace == REAL_NS
        return self._answer("status", name, status)

    def delete_pod(self, namespace: str, name: str, grace_seconds: int, uid: str | None = None) -> dict[str, Any]:
        assert namespace == REAL_NS
        return self._answer("delete", name, {"grace_seconds": grace_seconds, "uid": uid})


def kubelet(
    view: View, outcomes: tuple[PodOutcome, ...] = (), run_seconds: float = 0.0, refuse: Rejected | LiveError | None = None
) -> tuple[SimulatedKubelet, FakeCluster, FakeRecorder]:
    """A SimulatedKubelet on a fake cluster and recorder in REAL_NS."""
    cluster, recorder = FakeCluster(refuse), FakeRecorder(view)
    session = SimpleNamespace(cluster=cluster, recorder=recorder, namespace=REAL_NS)
    return SimulatedKubelet(cast(Session, session), frame(), outcomes, run_seconds), cluster, recorder


def test_a_kubelet_call_that_keeps_failing_ends_the_run_at_its_timeout() -> None:
    """A call that fails without an answer (status 0, as an unreachable server's) is retried, but
    not past the run's timeout, even while the watches still run: one error naming the trace."""
    view = view_of(real_pod("work-a", 11))
    k, _, _ = kubelet(view, refuse=LiveError("cannot reach the cluster at https://127.0.0.1:1 while trying to update a pod"))
    with pytest.raises(LiveError, match=r"did not finish within 0\.5s: the kubelet's calls kept failing .*run\.trace\.jsonl"):
        k.run(0.5)


def test_the_kubelet_binds_an_unbound_pod_and_waits_to_see_its_bind() -> None:
    """An unscheduled pod is bound (by the scheduler); until the bind is seen the pod is left alone."""
    view = view_of(real_pod("work-a", 11, node=False))
    k, cluster, recorder = kubelet(view)
    assert k.tick(view) is True
    assert cluster.calls == [("bind", "work-a", None)]
    assert [a[:2] for a in recorder.actions] == [("scheduler", "bind work-a")]
    assert k.tick(view) is False
    assert len(cluster.calls) == 1


def test_the_kubelet_starts_a_bound_pending_pod_running_and_ready() -> None:
    """A bound Pending pod is made Running and Ready with its containers running, once."""
    view = view_of(real_pod("work-a", 11))
    k, cluster, recorder = kubelet(view, run_seconds=60.0)
    assert k.tick(view) is True
    ((call, name, status),) = cluster.calls
    assert (call, name) == ("status", "work-a")
    assert status["phase"] == "Running"
    assert {"type": "Ready", "status": "True"}.items() <= status["conditions"][0].items()
    assert [(c["name"], c["ready"], list(c["state"])) for c in status["containerStatuses"]] == [("c", True, ["running"])]
    assert [a[:2] for a in recorder.actions] == [("kubelet", "work-a Running")]
    assert k.tick(view) is False  # its own write not seen yet


def test_the_kubelet_leaves_a_running_pod_running_before_its_time() -> None:
    """A Running pod whose run time has not passed is not touched."""
    view = view_of(real_pod("work-a", 11, "Running"))
    k, cluster, _ = kubelet(view, run_seconds=3600.0)
    assert k.tick(view) is False
    assert cluster.calls == []


def test_the_kubelet_ends_pods_as_the_outcomes_say_by_creation_position() -> None:
    """After its run time a pod succeeds unless an outcome chooses it; `pod=1` fails the second seen, with its exit code."""
    view = view_of(real_pod("work-z", 11, "Running"), real_pod("work-a", 12, "Running"))
    k, cluster, recorder = kubelet(view, outcomes=(PodOutcome(pod=1, exit_code=3),), run_seconds=0.0)
    assert k.tick(view) is True
    phases = {name: status["phase"] for _, name, status in cluster.calls}
    assert phases == {"work-z": "Succeeded", "work-a": "Failed"}
    failed = next(status for _, name, status in cluster.calls if name == "work-a")
    assert [c["state"]["terminated"]["exitCode"] for c in failed["containerStatuses"]] == [3]
    assert [a[1] for a in recorder.actions] == ["work-z Succeeded", "work-a Failed (exit code 3 in c)"]


def test_the_kubelet_stops_a_deleted_running_pod_with_exit_code_143() -> None:
    """A running pod being deleted is stopped: Failed, its container exiting 143."""
    view = view_of(real_pod("work-a", 11, "Running", deleting=True))
    k, cluster, recorder = kubelet(view, run_seconds=3600.0)
    assert k.tick(view) is True
    ((call, _, status),) = cluster.calls
    assert call == "status" and status["phase"] == "Failed"
    assert [c["state"]["terminated"]["exitCode"] for c in status["containerStatuses"]] == [143]
    assert [a[:2] for a in recorder.actions] == [("kubelet", "work-a stopped (exit code 143)")]


def test_the_kubelet_removes_a_deleted_finished_pod_once() -> None:
    """A finished pod being deleted is removed at once (grace 0, by its uid) and never acted on again."""
    view = view_of(real_pod("work-a", 11, "Failed", deleting=True))
    k, cluster, recorder = kubelet(view)
    assert k.tick(view) is True
    assert cluster.calls == [("delete", "work-a", {"grace_seconds": 0, "uid": "uid-work-a"})]
    assert [a[:2] for a in recorder.actions] == [("kubelet", "work-a removed")]
    later = view_of(real_pod("work-a", 500, "Failed", deleting=True))
    assert k.tick(later) is False


def test_the_kubelet_leaves_an_unbound_pod_being_deleted_alone() -> None:
    """No kubelet runs an unscheduled pod: one being deleted is neither bound nor stopped."""
    view = view_of(real_pod("work-a", 11, node=False, deleting=True))
    k, cluster, _ = kubelet(view)
    assert k.tick(view) is False
    assert cluster.calls == []


def test_the_kubelet_leaves_pods_of_other_jobs_alone() -> None:
    """Only the Job's own pods are bound."""
    view = view_of(real_pod("other", 11, node=False, owner="99999999-0000-4000-8000-000000000000"))
    k, cluster, _ = kubelet(view)
    assert k.tick(view) is False
    assert cluster.calls == []


@pytest.mark.parametrize("status", [404, 409, 422])
def test_a_call_refused_as_gone_or_conflicting_is_passed_over(status: int) -> None:
    """404, 409 and 422 answers (the pod changed or went meanwhile) are no error and no move."""
    view = view_of(real_pod("work-a", 11, node=False))
    k, _, recorder = kubelet(view, refuse=Rejected(status, "refused"))
    assert k.tick(view) is False
    assert recorder.actions == []


def test_a_call_refused_otherwise_is_an_error_naming_the_pod() -> None:
    """Any other refusal (403, say) ends the run with an error naming the pod."""
    view = view_of(real_pod("work-a", 11, node=False))
    k, _, _ = kubelet(view, refuse=Rejected(403, "forbidden"))
    with pytest.raises(LiveError, match="the kubelet's call on work-a was refused"):
        k.tick(view)


# --- timeline_from_trace -------------------------------------------------------------------------


def write_trace(path: Path, records: list[dict[str, Any]]) -> Path:
    """A trace file: the header, then `records` one a line."""
    header = {"format": TRACE_FORMAT, "started": "2026-01-01T08:30:00Z", "server": "https://127.0.0.1:1", "namespace": REAL_NS, "job": "work"}
    path.write_text("".join(json.dumps(r) + "\n" for r in [header, *records]))
    return path


def event(seq: int, t: float, resource: str, kind: str, rv: int, obj: dict[str, Any]) -> dict[str, Any]:
    """An `event` line of a trace."""
    return {"seq": seq, "t": t, "kind": "event", "resource": resource, "type": kind, "rv": str(rv), "source": "watch", "object": obj}


def action(seq: int, t: float, actor: str, what: str, rv: int) -> dict[str, Any]:
    """An `action` line of a trace."""
    return {"seq": seq, "t": t, "kind": "action", "actor": actor, "what": what, "rv": str(rv)}


def test_a_trace_becomes_one_entry_per_job_or_pod_change_in_resource_version_order(tmp_path: Path) -> None:
    """Entries follow resourceVersions, sit at their offset from the Job's first event, are credited to the client's
    actions by rv (else to the controller), and describe the change with the pod's model name."""
    k8s_event = {"metadata": {"name": "work.1", "namespace": REAL_NS, "resourceVersion": "12"}, "involvedObject": {"kind": "Job", "name": "work"}, "type": "Normal", "reason": "SuccessfulCreate", "message": "Created pod"}
    trace = write_trace(
        tmp_path / "t.jsonl",
        [
            action(1, 0.9, "user", "create the Job", 10),
            event(2, 1.0, "jobs", "ADDED", 10, real_job()),
            event(3, 1.25, "pods", "ADDED", 11, real_pod("work-qqqqq", 11)),
            event(4, 1.3, "events", "ADDED", 12, k8s_event),
            action(5, 2.4, "kubelet", "work-qqqqq Running", 14),
            event(6, 2.5, "pods", "MODIFIED", 14, real_pod("work-qqqqq", 14, "Running")),  # before rv 13 in the file
            event(7, 2.6, "jobs", "MODIFIED", 13, real_job({"active": 1})),
            event(8, 4.0, "pods", "MODIFIED", 15, real_pod("work-qqqqq", 15, "Running", deleting=True)),
            event(9, 4.5, "pods", "DELETED", 16, real_pod("work-qqqqq", 16, "Running", deleting=True)),
        ],
    )
    f = frame(real_uid="")
    t = timeline_from_trace(trace, f)
    assert f.real_uid == REAL_UID  # learned from the Job's event
    assert t.start == START
    assert [((e.time - START).total_seconds(), e.actor, e.what) for e in t.entries] == [
        (0.0, "user", "Job added"),
        (0.25, "controller", "work-0 Pending"),
        (1.6, "controller", "Job modified"),
        (1.5, "kubelet", "work-0 Running"),
        (3.0, "controller", "work-0 Running terminating"),
        (3.5, "controller", "work-0 removed"),
    ]
    first_job = t.entries[0].state.job()
    assert first_job is not None and first_job.uid == CASE_UID and first_job.namespace == "default"
    assert [(p.name, p.phase) for p in t.entries[1].state.cluster.pods] == [("work-0", "Pending")]
    assert [p.phase for p in t.entries[2].state.cluster.pods] == ["Pending"]  # rv 13 comes before rv 14
    final = t.final_job()
    assert final is not None and final.status.active == 1
    assert t.final.cluster.pods == ()


def test_a_pod_seen_only_in_a_later_trace_line_is_named_by_its_model_number(tmp_path: Path) -> None:
    """Pods are numbered in first-seen order: the second pod seen is `work-1`, whatever its real name."""
    trace = write_trace(
        tmp_path / "t.jsonl",
        [
            event(1, 0.0, "jobs", "ADDED", 10, real_job()),
            event(2, 0.5, "pods", "ADDED", 11, real_pod("work-zzzzz", 11)),
            event(3, 0.75, "pods", "ADDED", 12, real_pod("work-aaaaa", 12)),
        ],
    )
    t = timeline_from_trace(trace, frame())
    assert [e.what for e in t.entries] == ["Job added", "work-0 Pending", "work-1 Pending"]


def test_a_trace_without_a_job_or_pod_is_an_error(tmp_path: Path) -> None:
    """A trace holding no Job or pod event makes no timeline: an error naming the trace."""
    k8s_event = {"metadata": {"name": "e", "namespace": REAL_NS, "resourceVersion": "5"}, "involvedObject": {"kind": "Job", "name": "work"}}
    trace = write_trace(tmp_path / "empty.jsonl", [event(1, 0.0, "events", "ADDED", 5, k8s_event)])
    with pytest.raises(LiveError, match="holds no Job or pod"):
        timeline_from_trace(trace, frame())


def test_a_trace_read_back_compares_with_the_model_through_its_status_rows(tmp_path: Path) -> None:
    """The real timeline's rows come from the trace's Job statuses, and its final Job compares with a model's."""
    done = {"succeeded": 2, "conditions": [cond("Complete", "CompletionsReached")]}
    trace = write_trace(
        tmp_path / "t.jsonl",
        [
            event(1, 2.0, "jobs", "ADDED", 10, real_job()),
            event(2, 3.0, "jobs", "MODIFIED", 11, real_job({"active": 1})),
            event(3, 3.5, "pods", "ADDED", 12, real_pod("work-a", 12)),
            event(4, 8.0, "jobs", "MODIFIED", 13, real_job(done)),
        ],
    )
    real = timeline_from_trace(trace, frame())
    assert status_rows(real) == [
        (0.0, (0, 0, 0, 0, 0), ""),
        (1.0, (1, 0, 0, 0, 0), ""),
        (6.0, (0, 0, 2, 0, 0), "Complete(CompletionsReached)"),
    ]
    model = Timeline(START, (TimelineEntry(START, "controller", "done", ScenarioState(Cluster(now=START, jobs=(make_job(status=done, metadata={"name": "work"}),)), "default", "work", None)),))
    assert compare_final(model, real) == []
    model_failed = Timeline(START, (TimelineEntry(START, "controller", "done", ScenarioState(Cluster(now=START, jobs=(make_job(status={"succeeded": 1}, metadata={"name": "work"}),)), "default", "work", None)),))
    assert compare_final(model_failed, real) == [
        "final conditions: the model predicts [], the real controller reached [('Complete', 'CompletionsReached')]",
        "final succeeded: the model predicts 1, the real controller reached 2",
    ]
