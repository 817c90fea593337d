"""`jobmodel simulate`: a Job manifest run through the model in the simulated cluster.

Without a script, the default script plays a kubelet that starts every pod and, after it ran
for `run_seconds`, ends it: with success, or with the failures the user injects (an exit code or
a pod condition, for chosen indexes or pods). The clock then moves to whenever the controller
asked to be woken (pod-recreation back-off, deadlines), until the Job is finished.

With a script (the `job-scenario` step vocabulary, as YAML), the steps run as written.
Both produce a `Timeline`: every step, what the controller and the cluster did, and the
cluster after it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import attrs

from jobmodel.actions import CreatePod, DeletePod, PatchPod, RecordEvent, UpdateJobStatus
from jobmodel.errors import InputError
from jobmodel.scenario import ScenarioState, StepFailed, job_pods, run_step, start
from jobmodel.state import (
    FAILED,
    JOB_COMPLETION_INDEX_ANNOTATION,
    PENDING,
    RUNNING,
    SUCCEEDED,
    Job,
    Pod,
)
from jobmodel.timeutil import format_time, parse_time
from jobmodel.transitions.sync_job import JobSyncResult, is_job_finished

DEFAULT_START = "2025-01-01T00:00:00Z"
DEFAULT_UID = "00000000-0000-4000-8000-000000000001"
MAX_CYCLES = 500


@attrs.frozen
class Failure:
    """An injected pod failure: which pods (`index` N, the `pod` created N-th, or `all`), how
    (`exit_code`, or a pod `condition` such as DisruptionTarget), and for how many pods (`times`;
    None: every matching pod)."""

    index: int | None = None
    pod: int | None = None
    exit_code: int = 1
    condition: str | None = None
    times: int | None = None

    def matches(self, pod: Pod, creation_position: int) -> bool:
        if self.index is not None:
            return pod.metadata.annotations.get(JOB_COMPLETION_INDEX_ANNOTATION) == str(self.index)
        if self.pod is not None:
            return creation_position == self.pod
        return True


def parse_failure(text: str) -> Failure:
    """`index=2`, `pod=0,exit=42`, `all,condition=DisruptionTarget,times=3`."""
    fields: dict[str, Any] = {}
    for part in (p.strip() for p in text.split(",")):
        if part == "all":
            continue
        key, sep, value = part.partition("=")
        if not sep:
            raise InputError("--fail", f"{part!r}: expected key=value (index, pod, exit, condition, times) or 'all'")
        if key == "condition":
            fields["condition"] = value
            continue
        if key not in ("index", "pod", "exit", "times"):
            raise InputError("--fail", f"unknown key {key!r} (index, pod, exit, condition, times)")
        try:
            number = int(value)
        except ValueError:
            raise InputError(f"--fail {key}", f"expected an integer, got {value!r}") from None
        fields["exit_code" if key == "exit" else key] = number
    if "index" in fields and "pod" in fields:
        raise InputError("--fail", "give index or pod, not both")
    if "pod" in fields and "times" not in fields:
        fields["times"] = 1
    return Failure(**fields)


@attrs.frozen
class TimelineEntry:
    """One step: when, who acted (controller, kubelet, clock, user), what happened, and the cluster after it."""

    time: datetime
    actor: str
    what: str
    state: ScenarioState


@attrs.frozen
class Timeline:
    start: datetime
    entries: tuple[TimelineEntry, ...]
    differences: tuple[str, ...] = ()

    @property
    def final(self) -> ScenarioState:
        return self.entries[-1].state

    def final_job(self) -> Job | None:
        return self.final.job()


def describe_sync(result: JobSyncResult) -> str:
    """The controller's accepted API calls and events of one sync, in a line."""
    created = [a for a in result.actions if isinstance(a, CreatePod) and a.accepted]
    deleted = [a.name for a in result.actions if isinstance(a, DeletePod) and a.accepted]
    patched = [a.name for a in result.actions if isinstance(a, PatchPod) and a.accepted]
    updates = [a for a in result.actions if isinstance(a, UpdateJobStatus) and a.accepted]
    events = [a.reason for a in result.actions if isinstance(a, RecordEvent)]
    parts = []
    if created:
        indexes = [a.index for a in created if a.index is not None]
        parts.append(f"create {len(created)} pod(s)" + (f" for indexes {indexes}" if indexes else ""))
    if deleted:
        parts.append("delete " + ", ".join(deleted))
    if patched:
        parts.append("remove finalizer from " + ", ".join(patched))
    if updates:
        parts.append(f"update status ({len(updates)}x)")
    if events:
        parts.append("events " + ", ".join(events))
    if result.requeue_after_seconds is not None:
        parts.append(f"requeue after {result.requeue_after_seconds:g}s")
    if result.error:
        parts.append(f"error: {result.error}")
    return "; ".join(parts)


class _Recorder:
    """Collects timeline entries while a simulation runs (the shell of an otherwise pure loop)."""

    def __init__(self, state: ScenarioState) -> None:
        self.state = state
        self.entries: list[TimelineEntry] = [TimelineEntry(state.cluster.now, "user", "create the Job", state)]
        self.differences: list[str] = []
        self.last_requeue: float | None = None

    def step(self, step: Mapping[str, Any], actor: str, what: str, path: str) -> None:
        outcome = run_step(self.state, step, path)
        self.state = outcome.state
        self.differences.extend(outcome.differences)
        requeues = [s.requeue_after_seconds for s in outcome.syncs if s.requeue_after_seconds is not None]
        self.last_requeue = min(requeues) if requeues else None
        if outcome.syncs:
            lines = [d for d in (describe_sync(s) for s in outcome.syncs) if d]
            if not lines and not outcome.differences:
                return  # a settle with nothing to do is not worth a line
            what = "; ".join(lines)
        if outcome.differences:
            what += "  [" + "; ".join(outcome.differences) + "]"
        self.entries.append(TimelineEntry(self.state.cluster.now, actor, what, self.state))


def simulate_default(
    manifest: Mapping[str, Any],
    failures: Sequence[Failure] = (),
    *,
    run_seconds: float = 30,
    now: datetime | None = None,
    job_uid: str = DEFAULT_UID,
    features: Mapping[str, Any] | None = None,
) -> Timeline:
    """The default script: every pod starts, runs `run_seconds`, then succeeds or fails as injected."""
    begin = now or parse_time(DEFAULT_START, "start")
    rec = _Recorder(start(manifest, job_uid, begin, features=features))
    used: dict[int, int] = {}
    for cycle in range(MAX_CYCLES):
        rec.step({"do": "settle"}, "controller", "", f"cycle {cycle} settle")
        job = rec.state.job()
        if job is None or is_job_finished(job):
            break
        pending = [p for p in job_pods(rec.state) if p.phase in (PENDING, "") and p.metadata.deletion_timestamp is None]
        if pending:
            _start_pods(rec, pending, cycle)
            rec.step({"do": "settle"}, "controller", "", f"cycle {cycle} settle")
            rec.step({"do": "advance", "seconds": run_seconds}, "clock", f"+{run_seconds:g}s", f"cycle {cycle} advance")
            _finish_pods(rec, failures, used, cycle)
            continue
        running = [p for p in job_pods(rec.state) if p.phase == RUNNING]
        if running:
            _finish_pods(rec, failures, used, cycle)
            continue
        wait = rec.last_requeue if rec.last_requeue is not None and rec.last_requeue > 0 else 1.0
        rec.step({"do": "advance", "seconds": wait}, "clock", f"+{wait:g}s (the controller's requeue)", f"cycle {cycle} wait")
    else:
        raise InputError("simulate", f"the Job did not finish within {MAX_CYCLES} cycles")
    return Timeline(begin, tuple(rec.entries), tuple(rec.differences))


def _start_pods(rec: _Recorder, pods: Sequence[Pod], cycle: int) -> None:
    now = format_time(rec.state.cluster.now)
    status = {
        "phase": RUNNING,
        "startTime": now,
        "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": now}],
    }
    for pod in pods:
        step = {"do": "setPods", "where": {"phase": [PENDING], "terminating": False}, "count": 1, "status": status}
        rec.step(step, "kubelet", f"{pod.name} Running", f"cycle {cycle} start {pod.name}")


def _finish_pods(rec: _Recorder, failures: Sequence[Failure], used: dict[int, int], cycle: int) -> None:
    pods = job_pods(rec.state)
    for position, pod in enumerate(pods):
        if pod.phase != RUNNING or pod.metadata.deletion_timestamp is not None:
            continue
        failure = _failure_for(pod, position, failures, used)
        status = _terminal_status(rec.state.cluster.now, failure)
        outcome = SUCCEEDED if failure is None else FAILED
        label = outcome if failure is None else _describe_failure(failure)
        step = {"do": "setPods", "where": {"phase": [RUNNING], "terminating": False}, "count": 1, "status": status}
        # setPods picks the first running pod in creation order, which is this one.
        rec.step(step, "kubelet", f"{pod.name} {label}", f"cycle {cycle} finish {pod.name}")
    rec.step({"do": "settle"}, "controller", "", f"cycle {cycle} settle")


def _failure_for(pod: Pod, position: int, failures: Sequence[Failure], used: dict[int, int]) -> Failure | None:
    for i, failure in enumerate(failures):
        if failure.matches(pod, position) and (failure.times is None or used.get(i, 0) < failure.times):
            used[i] = used.get(i, 0) + 1
            return failure
    return None


def _describe_failure(failure: Failure) -> str:
    if failure.condition:
        return f"Failed (condition {failure.condition}, exit code {failure.exit_code})"
    return f"Failed (exit code {failure.exit_code})"


def _terminal_status(now: datetime, failure: Failure | None) -> dict[str, Any]:
    at = format_time(now)
    code = 0 if failure is None else failure.exit_code
    status: dict[str, Any] = {
        "phase": SUCCEEDED if failure is None else FAILED,
        "conditions": [{"type": "Ready", "status": "False", "lastTransitionTime": at}],
        "containerStatuses": [{"name": "main", "state": {"terminated": {"exitCode": code, "finishedAt": at}}}],
    }
    if failure is not None and failure.condition:
        status["conditions"].append({"type": failure.condition, "status": "True", "lastTransitionTime": at})
    return status


def simulate_script(
    manifest: Mapping[str, Any],
    steps: Sequence[Mapping[str, Any]],
    *,
    now: datetime | None = None,
    job_uid: str = DEFAULT_UID,
    features: Mapping[str, Any] | None = None,
) -> Timeline:
    """Run a script of scenario steps (settle, sync, advance, setPods, ..., expect) on the Job."""
    begin = now or parse_time(DEFAULT_START, "start")
    rec = _Recorder(start(manifest, job_uid, begin, features=features))
    for i, step in enumerate(steps):
        if not isinstance(step, Mapping):
            raise InputError(f"steps[{i}]", "a step is an object")
        do = str(step.get("do"))
        actor = {"settle": "controller", "sync": "controller", "advance": "clock", "setPods": "kubelet"}.get(do, "user")
        try:
            rec.step(step, actor, _describe_step(step), f"steps[{i}]")
        except StepFailed as err:
            rec.differences.append(str(err))
            break
    return Timeline(begin, tuple(rec.entries), tuple(rec.differences))


def _describe_step(step: Mapping[str, Any]) -> str:
    do = step.get("do")
    details = {k: v for k, v in step.items() if k != "do"}
    return f"{do} {details}" if details else str(do)
