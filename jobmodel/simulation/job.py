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
from jobmodel.adapters.picture import IGNORED_FAILURE, Segment
from jobmodel.errors import InputError, quote
from jobmodel.features import DEFAULT_GATES, FeatureGates
from jobmodel.frozen import thaw
from jobmodel.invariants.upstream_bugs import known_upstream_bug
from jobmodel.simulation.scenario import (
    ScenarioState,
    StepFailed,
    chosen_pods,
    job_pods,
    run_step,
    start,
)
from jobmodel.state import (
    FAILED,
    JOB_COMPLETION_INDEX_ANNOTATION,
    PENDING,
    RUNNING,
    SUCCEEDED,
    Job,
    JobControllerTunables,
    Pod,
)
from jobmodel.timeutil import add_seconds, format_time, parse_time
from jobmodel.transitions.cluster import set_pod_status
from jobmodel.transitions.indexes import UNKNOWN_COMPLETION_INDEX
from jobmodel.transitions.indexes import pod_index as completion_index
from jobmodel.transitions.pod_failure_policy import match_pod_failure_policy
from jobmodel.transitions.pod_utils import restarts_on_failure
from jobmodel.transitions.sync_job import JobSyncResult, is_job_finished

DEFAULT_START = "2025-01-01T00:00:00Z"
DEFAULT_UID = "00000000-0000-4000-8000-000000000001"
MAX_CYCLES = 500


@attrs.frozen
class PodOutcome:
    """How chosen pods end: which pods (`index` N, the `pod` created N-th, or all), after how long
    (`seconds`; None: the simulation's run time), whether they succeed, or else how they fail
    (`exit_code` of `container`, by default the first, or a pod `condition` such as
    DisruptionTarget), and for how many pods (`times`; None: every matching pod)."""

    index: int | None = None
    pod: int | None = None
    succeed: bool = False
    exit_code: int = 1
    condition: str | None = None
    times: int | None = None
    seconds: float | None = None
    container: str | None = None
    # How the user wrote it, for messages (not part of what the outcome is).
    text: str = attrs.field(default="", eq=False)
    option: str = attrs.field(default="--fail", eq=False)

    def matches(self, pod: Pod, creation_position: int) -> bool:
        if self.index is not None:
            return pod.metadata.annotations.get(JOB_COMPLETION_INDEX_ANNOTATION) == str(self.index)
        if self.pod is not None:
            return creation_position == self.pod
        return True


_OUTCOME_KEYS = ("index", "pod", "exit", "container", "condition", "times", "seconds")


def parse_pod_outcome(text: str, *, succeed: bool = False, option: str = "--fail") -> PodOutcome:
    """`index=2`, `pod=0,exit=42`, `all,condition=DisruptionTarget,times=3`, `index=1,seconds=90`,
    `all,container=sidecar,exit=3`."""
    fields: dict[str, Any] = {"succeed": succeed, "text": text, "option": option}
    for part in (p.strip() for p in text.split(",")):
        if part == "all":
            continue
        key, sep, value = part.partition("=")
        if not sep:
            raise InputError(option, f"{quote(part)}: expected key=value ({', '.join(_OUTCOME_KEYS)}) or 'all'")
        if key in ("condition", "container"):
            fields[key] = value
            continue
        if key not in _OUTCOME_KEYS:
            raise InputError(option, f"unknown key {quote(key)} ({', '.join(_OUTCOME_KEYS)})")
        fields["exit_code" if key == "exit" else key] = _outcome_number(option, key, value)
    if "index" in fields and "pod" in fields:
        raise InputError(option, "give index or pod, not both")
    if "pod" in fields and "times" not in fields:
        fields["times"] = 1
    return PodOutcome(**fields)


# The largest run time a pod may be given: ten years (beyond it the simulated clock would leave
# the calendar).
MAX_POD_SECONDS = 10 * 365 * 24 * 3600
DEFAULT_RUN_SECONDS = 30.0  # how long a pod of the default script runs


def _outcome_number(option: str, key: str, value: str) -> float | int:
    """A number of a pod outcome: seconds from 0 to MAX_POD_SECONDS; an exit code an int32; an
    index, a pod position or a count from 0 to 2**31 - 1."""
    try:
        number: float | int = float(value) if key == "seconds" else int(value)
    except ValueError:
        raise InputError(f"{option} {key}", f"expected a number, got {quote(value)}") from None
    low, high = (0, MAX_POD_SECONDS) if key == "seconds" else (-(2**31), 2**31 - 1) if key == "exit" else (0, 2**31 - 1)
    if not low <= number <= high:  # NaN is in no range
        raise InputError(f"{option} {key}", f"expected {low} to {high}, got {quote(value)}")
    return number


def parse_failure(text: str) -> PodOutcome:
    """A `--fail` spec: the chosen pods fail."""
    return parse_pod_outcome(text)


def parse_slow(text: str) -> PodOutcome:
    """A `--slow` spec: the chosen pods succeed after `seconds`."""
    outcome = parse_pod_outcome(text, succeed=True, option="--slow")
    if outcome.seconds is None:
        raise InputError("--slow", "give seconds=S")
    return outcome


@attrs.frozen
class TimelineEntry:
    """One step: when, who acted (controller, kubelet, clock, user), what happened, and the cluster after it."""

    time: datetime
    actor: str
    what: str
    state: ScenarioState
    syncs: tuple[JobSyncResult, ...] = ()


@attrs.frozen
class Timeline:
    start: datetime
    entries: tuple[TimelineEntry, ...]
    differences: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def final(self) -> ScenarioState:
        return self.entries[-1].state

    def final_job(self) -> Job | None:
        return self.final.job()


def pod_index(pod: Pod) -> int | None:
    """The pod's completion index (Indexed Jobs), as the controller reads its annotation
    (getCompletionIndex); None when it has none it can read."""
    index = completion_index(pod)
    return None if index == UNKNOWN_COMPLETION_INDEX else index


def failure_counted(job: Job | None, pod: Pod, gates: FeatureGates) -> bool:
    """Whether a failed pod counts against the Job's back-off limit: not when a podFailurePolicy
    rule ignores it (a disruption, say)."""
    if job is None:
        return True
    return match_pod_failure_policy(job.spec.pod_failure_policy, pod, gates).count_failed


def pod_look(job: Job | None, pod: Pod, gates: FeatureGates) -> str:
    """How a pod is drawn: its phase, with a failure ignored by the podFailurePolicy apart."""
    phase = pod.phase or "Pending"
    if phase == FAILED and not failure_counted(job, pod, gates):
        return IGNORED_FAILURE
    return phase


def pod_segments(timeline: Timeline) -> list[Segment]:
    """Cut each pod's life into segments of constant look and terminating state; a pod that is
    deleted ends with a `deleted` mark at the moment it goes."""
    offsets = [(e.time - timeline.start).total_seconds() for e in timeline.entries]
    end_of_time = max(offsets[-1], 1.0) * 1.05 if offsets else 1.0
    open_segments: dict[str, Segment] = {}
    done: list[Segment] = []
    created: dict[str, int] = {}  # pod name -> creation position (the cluster keeps pods in that order)
    for offset, entry in zip(offsets, timeline.entries, strict=True):
        seen = set()
        job = entry.state.job()
        gates = entry.state.cluster.features
        for pod in entry.state.cluster.pods:
            seen.add(pod.name)
            created.setdefault(pod.name, len(created))
            look = pod_look(job, pod, gates)
            terminating = pod.metadata.deletion_timestamp is not None
            current = open_segments.get(pod.name)
            if current is not None and (current.phase, current.terminating) == (look, terminating):
                continue
            if current is not None:
                done.append(attrs.evolve(current, end=offset))
            open_segments[pod.name] = Segment(pod.name, offset, offset, look, terminating, index=pod_index(pod))
        for name in [n for n in open_segments if n not in seen]:
            done.append(attrs.evolve(open_segments.pop(name), end=offset, deleted=True))
    done.extend(attrs.evolve(s, end=end_of_time) for s in open_segments.values())
    kept = [s for s in done if s.end > s.start or s.end == end_of_time or s.deleted]
    return sorted(kept, key=lambda s: (created[s.pod], s.start))


def condition_marks(timeline: Timeline) -> list[tuple[float, str]]:
    """(seconds, condition type) where a Job condition first turns True."""
    marks: list[tuple[float, str]] = []
    seen: set[str] = set()
    for entry in timeline.entries:
        job = entry.state.job()
        if job is None:
            continue
        for cond in job.status.conditions:
            if cond.status == "True" and cond.type not in seen:
                seen.add(cond.type)
                marks.append(((entry.time - timeline.start).total_seconds(), cond.type))
    return marks


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
        bug = known_upstream_bug(result.error)
        label = f" (known upstream bug {bug.issue}, fixed by {bug.fix}: {bug.what})" if bug else ""
        parts.append(f"error{label}: {result.error}")
    return "; ".join(parts)


def counted_lines(lines: Sequence[str]) -> list[str]:
    """The distinct non-empty lines in first-seen order, each said once with how many syncs did
    it when several did (a settle's syncs often repeat one another: status updates, the batches of
    a capped creation)."""
    counts: dict[str, int] = {}
    for line in lines:
        if line:
            counts[line] = counts.get(line, 0) + 1
    return [line if n == 1 else f"{line} ({n} syncs)" for line, n in counts.items()]


class _Recorder:
    """Collects timeline entries while a simulation runs (the shell of an otherwise pure loop)."""

    def __init__(self, state: ScenarioState) -> None:
        self.state = state
        self.entries: list[TimelineEntry] = [TimelineEntry(state.cluster.now, "user", "create the Job", state)]
        self.differences: list[str] = []
        self.wakeups: set[datetime] = set()

    def step(self, step: Mapping[str, Any], actor: str, what: str, path: str) -> None:
        outcome = run_step(self.state, step, path)
        self.state = outcome.state
        self.differences.extend(outcome.differences)
        now = self.state.cluster.now
        for sync in outcome.syncs:
            if sync.requeue_after_seconds is not None and sync.requeue_after_seconds > 0:
                self.wakeups.add(add_seconds(now, sync.requeue_after_seconds))
        if outcome.syncs:
            lines = counted_lines([describe_sync(s) for s in outcome.syncs])
            if not lines and not outcome.differences:
                return  # a settle with nothing to do is not worth a line
            what = "; ".join(lines)
        if outcome.differences:
            what += "  [" + "; ".join(outcome.differences) + "]"
        self.entries.append(TimelineEntry(now, actor, what, self.state, tuple(outcome.syncs)))

    def set_pod_status(self, pod: Pod, status: Mapping[str, Any], what: str) -> None:
        """A kubelet's write to one pod's status."""
        cluster = set_pod_status(self.state.cluster, pod, status)
        self.state = attrs.evolve(self.state, cluster=cluster)
        self.entries.append(TimelineEntry(cluster.now, "kubelet", what, self.state))

    def next_wakeup(self) -> datetime | None:
        """The soonest time the controller asked to be woken at, after now."""
        now = self.state.cluster.now
        self.wakeups = {t for t in self.wakeups if t > now}
        return min(self.wakeups) if self.wakeups else None


def simulate_default(
    manifest: Mapping[str, Any],
    outcomes: Sequence[PodOutcome] = (),
    *,
    run_seconds: float = DEFAULT_RUN_SECONDS,
    now: datetime | None = None,
    job_uid: str = DEFAULT_UID,
    gates: FeatureGates = DEFAULT_GATES,
    tunables: JobControllerTunables = JobControllerTunables(),
) -> Timeline:
    """The default script: every pod starts when created, runs `run_seconds` (or its outcome's
    `seconds`), then succeeds or fails as its outcome says; the clock moves to the next pod finish or the next time the controller
    asked to be woken (back-off, deadline), whichever comes first."""
    begin = now or parse_time(DEFAULT_START, "start")
    rec = _Recorder(start(manifest, job_uid, begin, gates=gates, tunables=tunables, pod_names="generated"))
    initial = rec.state.job()
    assert initial is not None
    check_outcomes(initial, outcomes)
    used: dict[int, int] = {}
    for cycle in range(MAX_CYCLES):
        rec.step({"do": "settle"}, "controller", "", f"cycle {cycle} settle")
        job = rec.state.job()
        if job is None or is_job_finished(job):
            break
        pending = [p for p in job_pods(rec.state) if p.phase in (PENDING, "") and p.metadata.deletion_timestamp is None]
        if pending:
            _start_pods(rec, pending)
            rec.step({"do": "settle"}, "controller", "", f"cycle {cycle} settle")
        finishes = [_finish_time(p, _pod_seconds(rec.state, p, outcomes, run_seconds)) for p in _running(rec.state)]
        candidates = [t for t in (*finishes, rec.next_wakeup()) if t is not None]
        if not candidates:
            raise InputError("simulate", "nothing left to happen, but the Job is not finished")
        target = min(candidates)
        wait = (target - rec.state.cluster.now).total_seconds()
        if wait > 0:
            rec.step({"do": "advance", "seconds": wait}, "clock", f"+{wait:g}s", f"cycle {cycle} advance")
        _finish_pods(rec, outcomes, used, run_seconds)
    else:
        raise InputError("simulate", f"the Job did not finish within {MAX_CYCLES} cycles")
    created = len(job_pods(rec.state)) if rec.state.job() is not None else rec.state.cluster.pod_counter
    notes = tuple(
        f"{o.option} {o.text}: matched no pod (the Job created {created} pods)"
        for i, o in enumerate(outcomes)
        if not o.succeed and used.get(i, 0) == 0
    )
    return Timeline(begin, tuple(rec.entries), tuple(rec.differences), notes)


def check_outcomes_for_manifest(manifest: Mapping[str, Any], outcomes: Sequence[PodOutcome]) -> None:
    """`check_outcomes` on the Job the API server makes of the manifest (before a long run)."""
    job = start(manifest, DEFAULT_UID, parse_time(DEFAULT_START, "start")).job()
    assert job is not None
    check_outcomes(job, outcomes)


def check_outcomes(job: Job, outcomes: Sequence[PodOutcome]) -> None:
    """Refuse a --fail/--slow selector that can match no pod of the Job, or a container the pods
    do not have."""
    indexed = job.spec.completion_mode == "Indexed"
    containers = _container_names(job.spec.template.spec, "containers")
    init_containers = _container_names(job.spec.template.spec, "initContainers")
    for outcome in outcomes:
        where = f"{outcome.option} {outcome.text}"
        if outcome.index is not None:
            if not indexed:
                raise InputError(where, f"index={outcome.index} matches no pod: Job {job.name} is not Indexed (use pod=N)")
            completions = job.spec.completions
            if outcome.index < 0 or (completions is not None and outcome.index >= completions):
                raise InputError(where, f"index={outcome.index} matches no pod: the indexes are 0 to {(completions or 0) - 1}")
        if outcome.pod is not None and outcome.pod < 0:
            raise InputError(where, "pod=N counts pods from 0")
        if outcome.container is not None and outcome.container not in (*containers, *init_containers):
            raise InputError(
                where,
                f"no container {outcome.container!r} in the pod template (containers: {', '.join(containers)}"
                + (f"; initContainers: {', '.join(init_containers)}" if init_containers else "")
                + ")",
            )


def _container_names(spec: Mapping[str, Any], key: str) -> list[str]:
    return [str(c.get("name", "")) for c in spec.get(key, ()) or () if isinstance(c, Mapping)]


def _running(state: ScenarioState) -> list[Pod]:
    return [p for p in job_pods(state) if p.phase == RUNNING and p.metadata.deletion_timestamp is None]


def _finish_time(pod: Pod, run_seconds: float) -> datetime:
    """When the pod's run ends: `run_seconds` after it started, or after its containers last
    started (restarted_status)."""
    started = pod.status.start_time or pod.metadata.creation_timestamp
    assert started is not None
    for container in pod.status.container_statuses:
        running = container.other_state.get("running")
        if isinstance(running, Mapping) and isinstance(running.get("startedAt"), str):
            started = max(started, parse_time(running["startedAt"], "startedAt"))
    return add_seconds(started, run_seconds)


def _start_pods(rec: _Recorder, pods: Sequence[Pod]) -> None:
    now = format_time(rec.state.cluster.now)
    for pod in pods:
        status = {
            "phase": RUNNING,
            "startTime": pod_start_time(pod) or now,
            "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": now}],
            **with_restarts(pod, container_statuses(pod, now, None)),
        }
        rec.set_pod_status(pod, status, f"{pod.name} Running")


def pod_start_time(pod: Pod) -> str | None:
    """The pod's startTime, once the kubelet set it (a pod back in Pending to restart an init
    container keeps it)."""
    return format_time(pod.status.start_time) if pod.status.start_time is not None else None


def restarts_in_place(pod: Pod, failure: PodOutcome) -> bool:
    """With restartPolicy OnFailure the kubelet restarts a container that exits non-zero, in its
    pod (kubelet: computePodActions); a pod condition such as DisruptionTarget still fails the pod."""
    return restarts_on_failure(pod) and not failure.condition


def with_restarts(pod: Pod, statuses: Mapping[str, Any]) -> dict[str, Any]:
    """`statuses` (containerStatuses, initContainerStatuses) with the restartCount and lastState
    each container of the pod has so far (they outlive the container)."""
    before = {
        (key, c.name): c
        for key, group in (("containerStatuses", pod.status.container_statuses), ("initContainerStatuses", pod.status.init_container_statuses))
        for c in group
    }
    out: dict[str, Any] = {}
    for key, group in statuses.items():
        out[key] = []
        for status in group:
            old = before.get((key, status["name"]))
            if old is not None and old.restart_count:
                last = {"lastState": thaw(old.extra["lastState"])} if "lastState" in old.extra else {}
                status = {**status, "restartCount": old.restart_count, **last}
            out[key].append(status)
    return out


def restarted_status(now: datetime, failure: PodOutcome, pod: Pod) -> tuple[dict[str, Any], str]:
    """The pod's status once its failing container (`failing_container`) exited with the failure's
    code and the kubelet started it again at once (its crash-loop back-off, 10 s doubling, is not
    simulated): that container's restartCount grows by one and its last state is the exit. A
    regular container restarts in the running pod; an init container puts the pod back in Pending,
    its later init containers and its containers waiting, until it starts again. Also the
    description of the write."""
    at = format_time(now)
    name = failing_container(pod, failure)
    init = name in _container_names(pod.spec, "initContainers")
    if init:
        statuses = container_statuses(pod, at, failure)
        for status in statuses["initContainerStatuses"]:
            if status["name"] == name:
                status["state"] = {"running": {"startedAt": at}}
    else:
        statuses = container_statuses(pod, at, None)
    statuses = with_restarts(pod, statuses)
    key = "initContainerStatuses" if init else "containerStatuses"
    restarts = 0
    for status in statuses[key]:
        if status["name"] == name:
            restarts = status.get("restartCount", 0) + 1
            exit_state = {"terminated": {"exitCode": failure.exit_code, "reason": "Error", "finishedAt": at}}
            status.update(restartCount=restarts, lastState=exit_state)
    ready = "False" if init else "True"
    status = {
        "phase": PENDING if init else RUNNING,
        "conditions": [{"type": "Ready", "status": ready, "lastTransitionTime": at}],
        **statuses,
        **({"startTime": start} if (start := pod_start_time(pod)) else {}),
    }
    return status, f"{pod.name} container {name} exit code {failure.exit_code}, restarted (restartCount {restarts})"


def _pod_seconds(state: ScenarioState, pod: Pod, outcomes: Sequence[PodOutcome], default: float) -> float:
    """How long the pod runs: the first matching outcome's `seconds`, else the default."""
    position = [p.name for p in job_pods(state)].index(pod.name)
    for outcome in outcomes:
        if outcome.seconds is not None and outcome.matches(pod, position):
            return outcome.seconds
    return default


def _finish_pods(rec: _Recorder, outcomes: Sequence[PodOutcome], used: dict[int, int], run_seconds: float) -> None:
    """End the running pods whose time is up, in creation order."""
    now = rec.state.cluster.now
    for pod in _running(rec.state):
        if _finish_time(pod, _pod_seconds(rec.state, pod, outcomes, run_seconds)) > now:
            continue
        position = [p.name for p in job_pods(rec.state)].index(pod.name)
        outcome = outcome_for(pod, position, outcomes, used)
        failure = None if outcome is None or outcome.succeed else outcome
        if failure is not None and restarts_in_place(pod, failure):
            rec.set_pod_status(pod, *restarted_status(now, failure, pod))
            continue
        label = SUCCEEDED if failure is None else describe_failure(failure, pod)
        rec.set_pod_status(pod, terminal_status(now, failure, pod), f"{pod.name} {label}")


def outcome_for(pod: Pod, position: int, outcomes: Sequence[PodOutcome], used: dict[int, int]) -> PodOutcome | None:
    """The first outcome that matches the pod and has uses left (and count the use)."""
    for i, outcome in enumerate(outcomes):
        if outcome.matches(pod, position) and (outcome.times is None or used.get(i, 0) < outcome.times):
            used[i] = used.get(i, 0) + 1
            return outcome
    return None


def describe_failure(failure: PodOutcome, pod: Pod | None = None) -> str:
    container = failing_container(pod, failure) if pod is not None else None
    code = f"exit code {failure.exit_code}" + (f" in {container}" if container else "")
    if failure.condition:
        return f"Failed (condition {failure.condition}, {code})"
    return f"Failed ({code})"


def failing_container(pod: Pod, failure: PodOutcome) -> str | None:
    """The container that exits with the failure's code: the one named, else the pod's first."""
    if failure.container is not None:
        return failure.container
    names = _container_names(pod.spec, "containers")
    return names[0] if names else None


def container_statuses(pod: Pod, at: str, failure: PodOutcome | None, *, finished: bool = False) -> dict[str, Any]:
    """The pod's containerStatuses and initContainerStatuses as a kubelet reports them, named as
    in the pod's spec: while running, init containers have completed (sidecars, `restartPolicy:
    Always`, run) and the containers run; when finished, every container has terminated, the
    failing one (`failing_container`) with the failure's exit code. A failing init container
    stops the pod before its containers start."""
    failed = failing_container(pod, failure) if failure is not None else None
    sidecars = pod.restartable_init_container_names()
    init_names = _container_names(pod.spec, "initContainers")
    names = _container_names(pod.spec, "containers")

    def terminated(code: int) -> dict[str, Any]:
        return {"terminated": {"exitCode": code, "reason": "Error" if code else "Completed", "finishedAt": at}}

    init_statuses = []
    init_failed = False
    for name in init_names:
        if init_failed:
            state: dict[str, Any] = {"waiting": {"reason": "PodInitializing"}}
        elif name == failed and failure is not None:
            state, init_failed = terminated(failure.exit_code), True
        elif name in sidecars and not finished:
            state = {"running": {"startedAt": at}}
        else:
            state = terminated(0)
        init_statuses.append({"name": name, "state": state})
    statuses = []
    for name in names:
        if init_failed:
            state = {"waiting": {"reason": "PodInitializing"}}
        elif not finished:
            state = {"running": {"startedAt": at}}
        else:
            state = terminated(failure.exit_code if failure is not None and name == failed else 0)
        statuses.append({"name": name, "state": state})
    result: dict[str, Any] = {"containerStatuses": statuses}
    if init_statuses:
        result["initContainerStatuses"] = init_statuses
    return result


def terminal_status(now: datetime, failure: PodOutcome | None, pod: Pod) -> dict[str, Any]:
    at = format_time(now)
    status: dict[str, Any] = {
        "phase": SUCCEEDED if failure is None else FAILED,
        "conditions": [{"type": "Ready", "status": "False", "lastTransitionTime": at}],
        **with_restarts(pod, container_statuses(pod, at, failure, finished=True)),
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
    gates: FeatureGates = DEFAULT_GATES,
    tunables: JobControllerTunables = JobControllerTunables(),
) -> Timeline:
    """Run a script of scenario steps (settle, sync, advance, setPods, ..., expect) on the Job."""
    begin = now or parse_time(DEFAULT_START, "start")
    rec = _Recorder(start(manifest, job_uid, begin, gates=gates, tunables=tunables, pod_names="generated"))
    job = rec.state.job()
    assert job is not None
    for i, step in enumerate(steps):
        if not isinstance(step, Mapping):
            raise InputError(f"steps[{i}]", "a step is an object")
        check_where_index(job, step, f"steps[{i}]")
    for i, step in enumerate(steps):
        do = str(step.get("do"))
        actor = {"settle": "controller", "sync": "controller", "advance": "clock", "setPods": "kubelet"}.get(do, "user")
        try:
            if do in ("setPods", "deletePods") and not chosen_pods(rec.state, step, f"steps[{i}]"):
                raise StepFailed(f"steps[{i}]: where {dict(step.get('where') or {})} matches none of the Job's pods now")
            rec.step(step, actor, _describe_step(step), f"steps[{i}]")
        except StepFailed as err:
            rec.differences.append(str(err))
            break
    return Timeline(begin, tuple(rec.entries), tuple(rec.differences))


def check_where_index(job: Job, step: Mapping[str, Any], path: str) -> None:
    """Refuse a `where` whose `index` no pod of the Job can have."""
    where = step.get("where")
    if not isinstance(where, Mapping) or "index" not in where:
        return
    index = where["index"]
    if job.spec.completion_mode != "Indexed":
        raise InputError(f"{path}.where.index", f"matches no pod: Job {job.name} is not Indexed")
    completions = job.spec.completions or 0
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < completions:
        raise InputError(f"{path}.where.index", f"matches no pod: the indexes are 0 to {completions - 1}, got {index!r}")


def _describe_step(step: Mapping[str, Any]) -> str:
    do = step.get("do")
    if do == "createJob":  # the manifest is the case's own again: its uid tells them apart
        return f"createJob (uid {step.get('jobUid')})"
    details = {k: v for k, v in step.items() if k != "do"}
    return f"{do} {details}" if details else str(do)
