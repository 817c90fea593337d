"""jobmodel.checkers.live_trace: a recorded trace checked against the model and the catalogue.

The traces here are written from runs of the model's own environment (a run the model makes is
one it can reach, so the check must pass it), then altered where a real controller would have
gone wrong (the check must then name the write, the two states and the differing field). The
same check on traces of the real control plane: tests/adapters/test_live.py.
"""

from __future__ import annotations

import copy
import gzip
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from jobmodel.adapters.live import TRACE_FORMAT, read_trace
from jobmodel.api.wire import job_to_json, pod_to_json
from jobmodel.checkers.live_trace import (
    Observation,
    candidate_states,
    check_trace,
    comparable,
    lagging_pod_states,
    observe,
    reach,
    rebuilt_backoff,
    skewed_states,
)
from jobmodel.errors import InputError
from jobmodel.state import (
    FAILED,
    SUCCEEDED,
    ContainerStateTerminated,
    ContainerStatus,
    ObjectMeta,
    Pod,
    PodStatus,
)
from jobmodel.timeutil import format_time
from jobmodel.transitions import job_environment as env

START = datetime(2025, 1, 1, tzinfo=UTC)
MANIFEST = {
    "apiVersion": "batch/v1",
    "kind": "Job",
    "metadata": {"name": "work", "namespace": "ns"},
    "spec": {
        "parallelism": 2,
        "completions": 3,
        "backoffLimit": 2,
        "template": {"spec": {"containers": [{"name": "c", "image": "x"}], "restartPolicy": "Never"}},
    },
}


def model_run(moves_wanted: list[str]) -> list[env.World]:
    """Worlds of a run: each wanted move kind is applied to the first pod (or controller) it fits."""
    world = env.initial_world(MANIFEST, now=START, uid="job-uid")
    worlds = [world]
    for kind in moves_wanted:
        move = next((m for m in env.enabled_moves(world) if m.kind == kind), None)
        assert move is not None, f"{kind} not enabled"
        world, _ = env.apply_move(world, move)
        worlds.append(world)
    return worlds


def trace_of(worlds: list[env.World], actors: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The worlds as a recorded trace: one event per changed object, in order; the writes of
    non-controller moves named by action lines, as the live recorder names its own calls."""
    header = {"format": TRACE_FORMAT, "started": format_time(START), "job": "work", "namespace": "ns"}
    records: list[dict[str, Any]] = []
    rv = 100
    seq = 0

    def add(kind: str, **fields: Any) -> None:
        nonlocal seq
        seq += 1
        records.append({"seq": seq, "kind": kind, **fields})

    previous: dict[str, dict[str, Any]] = {}
    for world, actor in zip(worlds, ["user", *actors], strict=True):
        t = (world.cluster.now - START).total_seconds()
        current: dict[str, dict[str, Any]] = {}
        for job in world.cluster.jobs:
            current[f"jobs/{job.name}"] = job_to_json(job)
        for pod in world.cluster.pods:
            current[f"pods/{pod.name}"] = pod_to_json(pod)
        for key in sorted(set(previous) | set(current)):
            old, new = previous.get(key), current.get(key)
            if old is not None and new is not None and _without_rv(old) == _without_rv(new):
                current[key] = old
                continue
            rv += 1
            resource, _ = key.split("/", 1)
            obj = copy.deepcopy(new if new is not None else old)
            assert obj is not None
            obj.setdefault("metadata", {})["resourceVersion"] = str(rv)
            event_type = "ADDED" if old is None else "DELETED" if new is None else "MODIFIED"
            add("event", t=t, resource=resource, type=event_type, rv=str(rv), source="watch", object=obj)
            if actor != "controller":
                add("action", t=t, actor=actor, what=f"{actor} write", rv=str(rv))
            if new is not None:
                current[key] = obj
        previous = current
    return header, records


def _without_rv(obj: dict[str, Any]) -> dict[str, Any]:
    meta = {k: v for k, v in obj.get("metadata", {}).items() if k != "resourceVersion"}
    return {**obj, "metadata": meta}


ACTORS = {"sync": "controller", "orphan-cleanup": "controller", "start": "kubelet", "succeed": "kubelet", "fail": "kubelet"}
RUN = ["sync", "start", "start", "succeed", "sync", "sync", "start", "succeed", "succeed", "sync", "sync"]


def test_a_run_of_the_model_passes() -> None:
    worlds = model_run(RUN)
    header, records = trace_of(worlds, [ACTORS[m] for m in RUN])
    result = check_trace(header, records)
    assert result.status_writes >= 3
    assert result.ok, [d.describe() for d in result.divergences] + [str(v) for _, v in result.violations]
    job = worlds[-1].job()
    assert job is not None and job.status.succeeded == 3


def test_a_status_the_model_cannot_reach_is_a_divergence() -> None:
    header, records = trace_of(model_run(RUN), [ACTORS[m] for m in RUN])
    own = {r["rv"] for r in records if r["kind"] == "action"}
    writes = [r for r in records if r["kind"] == "event" and r["resource"] == "jobs" and r["rv"] not in own]
    bad = writes[-1]
    bad["object"]["status"]["succeeded"] = 7  # a controller that overcounts
    result = check_trace(header, records)
    assert len(result.divergences) == 1
    divergence = result.divergences[0]
    assert divergence.observation.rv == bad["rv"]
    assert "succeeded" in divergence.differing
    text = divergence.describe()
    assert f"resourceVersion {bad['rv']}" in text and "succeeded=7" in text and "-> sync" in text


def test_an_invariant_broken_in_an_observed_state_is_reported() -> None:
    header, records = trace_of(model_run(RUN), [ACTORS[m] for m in RUN])
    last_job = [r for r in records if r["kind"] == "event" and r["resource"] == "jobs"][-1]
    conditions = last_job["object"]["status"]["conditions"]
    conditions.append({"type": "Failed", "status": "True", "reason": "BackoffLimitExceeded"})
    result = check_trace(header, records)
    names = {v.invariant for _, v in result.violations}
    assert "complete-and-failed-exclusive" in names


def test_writes_of_the_kubelet_are_not_the_controllers() -> None:
    header, records = trace_of(model_run(RUN), [ACTORS[m] for m in RUN])
    # Name every pod write as the controller's: a pod going Running is no status write, so the
    # count of checked status writes does not change, and nothing diverges.
    assert check_trace(header, records).status_writes == check_trace(
        header, [r for r in records if r["kind"] != "action"]
    ).status_writes


def test_gates_off_are_outside_the_catalogue() -> None:
    header, records = trace_of(model_run(RUN), [ACTORS[m] for m in RUN])
    header["controller"] = {"featureGates": {"JobSuccessPolicy": False}}
    result = check_trace(header, records)
    assert result.out_of_scope == result.observations


def test_uncounted_pods_compare_by_count() -> None:
    worlds = model_run(["sync"])
    job = worlds[-1].job()
    assert job is not None
    status = comparable(job.status)
    assert status["uncountedTerminatedPods"] in (None, {})


def _pod(phase: str, finished: int) -> Pod:
    at = START.replace(second=finished)
    return Pod(
        metadata=ObjectMeta(name=f"p{finished}", namespace="ns"),
        status=PodStatus(
            phase=phase,
            container_statuses=(ContainerStatus(name="c", terminated=ContainerStateTerminated(exit_code=0, finished_at=at)),),
        )
    )


def test_rebuilt_backoff_counts_failures_since_the_last_success() -> None:
    record = rebuilt_backoff([_pod(FAILED, 1), _pod(SUCCEEDED, 2), _pod(FAILED, 3), _pod(FAILED, 4)])
    assert record is not None
    assert record.failures_after_last_success == 2
    assert record.last_failure_time == START.replace(second=4)
    assert rebuilt_backoff([_pod(FAILED, 1), _pod(SUCCEEDED, 2)]) is None


def test_lines_out_of_their_recorded_order_are_refused() -> None:
    """The recorder numbers and times its lines in one order; a trace edited out of it (or two
    recordings in one file) would place gate changes and clocks wrongly, so it is refused,
    naming the line (lines count from 1, the header's)."""
    header, records = trace_of(model_run(RUN), [ACTORS[m] for m in RUN])
    assert check_trace(header, records).ok  # lines of one time: an equal time is no step back
    with pytest.raises(InputError, match=r"^trace line 3\.seq: 1 after 2: "):
        check_trace(header, [records[1], records[0], *records[2:]])
    with pytest.raises(InputError, match=r"^trace line 5\.t: 4 after 5: "):
        check_trace(header, [*records[:2], {**records[2], "t": 5}, {**records[3], "t": 4}, *records[4:]])
    with pytest.raises(InputError, match=rf"^trace line {len(records) + 2}: a second recording's header"):
        check_trace(header, [*records, header, *records])


# Recorded on the real control plane (1.32, the job-scenario vector "TestDelayTerminalPhaseCondition:
# job scale down to meet completions", CI 2026-12-03): the controller scaled the Job down on a pod
# cache that had not yet seen the first pod succeed, though its Job cache had the new parallelism,
# and wrote active=1 terminating=1 (trace line 14), a view no single observed state shows.
SKEWED_TRACE = Path(__file__).parent / "traces" / "pods-behind-the-job.jsonl"


def test_a_write_on_pods_older_than_the_job_is_reachable() -> None:
    header, records = read_trace(SKEWED_TRACE)
    observations = observe(header, records)
    write = next(i for i, o in enumerate(observations) if o.rv == "1020")
    written = observations[write]
    assert written.actor == "controller" and _status_of(written)["terminating"] == 1
    start = next(i for i, o in enumerate(observations) if o.rv == "1014")
    assert reach(candidate_states(observations, start, write, [start]), written) is not None  # no single state
    assert reach(skewed_states(observations, start, write), written) is None
    result = check_trace(header, records)
    assert result.ok, [d.describe() for d in result.divergences]


def test_a_skewed_view_does_not_excuse_a_wrong_count() -> None:
    header, records = read_trace(SKEWED_TRACE)
    line = next(r for r in records if r.get("kind") == "event" and r.get("rv") == "1020")
    line["object"]["status"]["terminating"] = 2  # no view of one or two pods deletes two
    result = check_trace(header, records)
    assert [d.observation.rv for d in result.divergences] == ["1020"]
    assert "terminating" in result.divergences[0].differing


# Recorded on the real control plane (1.32, the job-scenario vector
# TestFinalizersClearedWhenBackoffLimitExceeded, maxUncountedPods 50; CI 2026-12-06): a failing
# Job's 99 deleted pods counted in batches of 50. The sync after the first batch read the Job with
# that batch counted (rv 1746) and a pod cache that still showed the 50 pods its own finalizer
# removals had since deleted, awaiting those removals, and wrote terminating=99 with the second
# batch uncounted (rv 1748): the state of the pods before the first batch's write, with the Job of
# the latest one.
CHURN_TRACE = Path(__file__).parent / "traces" / "pods-behind-own-removals.jsonl.gz"


def churn_trace(tmp_path: Path, recorded: Path = CHURN_TRACE) -> Path:
    path = tmp_path / "churn.jsonl"
    path.write_bytes(gzip.decompress(recorded.read_bytes()))
    return path


def controller_write(observations: list[Observation], rv: str) -> tuple[int, list[int], int]:
    """The index of the controller's status write at `rv`, the indexes before its earlier writes,
    and the start of its window (as check_trace takes them)."""
    write = next(i for i, o in enumerate(observations) if o.rv == rv)
    assert observations[write].actor == "controller"
    writes = [i - 1 for i, o in enumerate(observations[:write]) if i and o.actor == "controller" and o.resource == "jobs"]
    return write, writes, writes[-3]


def test_a_write_on_pods_behind_the_controllers_own_removals_is_reachable(tmp_path: Path) -> None:
    header, records = read_trace(churn_trace(tmp_path))
    observations = observe(header, records)
    write, writes, start = controller_write(observations, "1748")
    written = observations[write]
    assert _status_of(written)["terminating"] == 99
    assert reach(candidate_states(observations, start, write, writes), written) is not None  # no single state
    assert reach(skewed_states(observations, start, write), written) is not None  # nor the recent pods alone
    skewed = skewed_states(observations, start, write, writes)
    assert reach(skewed, written) is None
    assert any(len(o.awaited) == 50 for o in skewed)
    result = check_trace(header, records)
    assert result.ok, [d.describe() for d in result.divergences]


def test_awaited_removals_do_not_excuse_a_wrong_count(tmp_path: Path) -> None:
    header, records = read_trace(churn_trace(tmp_path))
    line = next(r for r in records if r.get("kind") == "event" and r.get("rv") == "1748")
    line["object"]["status"]["terminating"] = 101  # more pods being deleted than the Job ever had (100)
    result = check_trace(header, records)
    assert [d.observation.rv for d in result.divergences] == ["1748"]
    assert "terminating" in result.divergences[0].differing


# Recorded on the real control plane (1.32, the same vector; CI 2026-12-06): after counting the
# second batch (rv 1637, failed=100 terminating=50), the next sync read a pod cache 26 events
# behind, in the middle of the 50 removals its own finalizer removals had caused, and wrote
# terminating=26 (rv 1639): the Job of the latest state with the pods of one 27 states earlier,
# further back than the recent states and than any earlier write.
FAR_TRACE = Path(__file__).parent / "traces" / "pods-far-behind-own-removals.jsonl.gz"


def test_a_write_on_pods_far_behind_is_reachable_with_the_latest_job(tmp_path: Path) -> None:
    header, records = read_trace(churn_trace(tmp_path, FAR_TRACE))
    observations = observe(header, records)
    write, writes, start = controller_write(observations, "1639")
    written = observations[write]
    assert _status_of(written)["terminating"] == 26
    assert reach(candidate_states(observations, start, write, writes), written) is not None
    assert reach(skewed_states(observations, start, write, writes), written) is not None
    lagging = lagging_pod_states(observations, start, write)
    assert reach(lagging, written) is None
    assert any(len(o.awaited) == 26 and "pods as at rv 1610" in o.rv for o in lagging)
    assert check_trace(header, records).ok
    # A count no earlier view of the pods shows is still a divergence.
    line = next(r for r in records if r.get("kind") == "event" and r.get("rv") == "1639")
    line["object"]["status"]["terminating"] = 51
    result = check_trace(header, records)
    assert [d.observation.rv for d in result.divergences] == ["1639"]


def _status_of(observation: Observation) -> dict[str, Any]:
    job = observation.world.job()
    assert job is not None
    return comparable(job.status)
