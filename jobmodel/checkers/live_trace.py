"""Checking a recorded live trace (jobmodel.adapters.live) against the model.

Two checks, on the trace's events replayed in the order of their resourceVersions (etcd's
revisions: the order in which the API server stored every write):

1. **Every Job status the real controller wrote is one the model can reach.** For each write of
   the Job's status that this client did not make, the model starts from each state observed
   since the controller's previous status write (the controller acted on one of them: its cache
   lags the API server by an unknown amount) and explores the controller's own moves (`sync`,
   `timer-fires`, `orphan-cleanup`, breadth-first to MAX_DEPTH), with the controller's unknown
   in-memory state in each of its plausible forms (none, as after a restart; a pod-failure
   back-off record rebuilt from the pods; expectations still pending, so that it only counts).
   Every status written on the way counts, so a sync that writes twice is followed. The Job's
   and the pods' informers lag separately, so where no observed state reaches a write, the Job of
   one state of the window with the pods of another is tried too (the pods also as they were
   before each earlier write of the window: a pod informer that has not delivered the deletions
   its own finalizer removals caused, with those removals awaited), and last the latest Job
   with the pods of any earlier state of the window (an informer behind by any number of
   events). A write no
   explored path reaches is a divergence, reported with the state before, the state written,
   and the path whose last status comes closest.
2. **Every invariant of the catalogue holds on every observed state**, and every step invariant
   on each observed change (the move is `observed`: invariants about the controller's own syncs
   do not apply to it).

Times are the real ones (the trace's start plus each line's offset), so back-off and deadline
arithmetic runs on the clock the controller had. Feature gates are those of the trace's header,
changed where an action line records new ones (`setFeatures`). The catalogue states properties of
the controllers with every gate at its default (on); states observed with a gate off, and changes
across a gate change, are outside its scope and are counted, not checked. Which terminated pods
go into `uncountedTerminatedPods` when there are more than MaxUncountedPods follows the informer's
map order upstream, so that field is compared by its counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

import attrs

from jobmodel.actions import UpdateJobStatus
from jobmodel.adapters.controlplane import UNRECORDED_RELEASE
from jobmodel.adapters.live import RESOURCES, View, iter_events
from jobmodel.api.wire import job_from_json, job_status_to_json, pod_from_json
from jobmodel.errors import InputError, describe
from jobmodel.features import FeatureGates, gates_for
from jobmodel.invariants.catalogue import (
    STATE_INVARIANTS,
    STEP_INVARIANTS,
    Transition,
    check_state,
    check_step,
)
from jobmodel.invariants.laws import Violation
from jobmodel.simulation.scenario import tunables_from
from jobmodel.state import BackoffRecord, Expectations, JobControllerState, JobStatus, Pod
from jobmodel.timeutil import parse_clock
from jobmodel.transitions import cluster as cl
from jobmodel.transitions import job_environment as env
from jobmodel.transitions.move import Move
from jobmodel.transitions.pod_utils import has_job_tracking_finalizer

MAX_DEPTH = 2
MAX_CANDIDATES = 40
RECENT_CANDIDATES = 12
MAX_LAGGING = 200  # the pod states lagging_pod_states tries: a burst of 100 removals twice over
WRITES_PER_SYNC = 3
CONTROLLER_MOVES = frozenset({"sync", "timer-fires", "orphan-cleanup"})
COMPARED_FIELDS = ("active", "ready", "succeeded", "failed", "terminating", "completedIndexes", "failedIndexes", "uncountedTerminatedPods")


@attrs.frozen
class Observation:
    """The cluster as the watches showed it after one recorded event."""

    seq: int
    rv: str
    time: datetime
    actor: str  # who made the write: this client's actor (kubelet, user, ...) or "controller"
    resource: str
    world: env.World
    # A state put together from two observations (skewed_states): the pods whose tracking
    # finalizer the pods' view shows and the Job's view no longer does, whose removal a
    # controller acting on it may still await (uidTrackingExpectations).
    awaited: frozenset[str] = frozenset()


@attrs.frozen
class Divergence:
    """A controller status write the model cannot reach."""

    observation: Observation
    before: Observation
    written: dict[str, Any]
    closest_path: tuple[str, ...]
    closest_status: dict[str, Any]
    differing: tuple[str, ...]

    def describe(self) -> str:
        lines = [
            f"the controller wrote the Job's status at resourceVersion {self.observation.rv} (trace line {self.observation.seq}):",
            f"  before (resourceVersion {self.before.rv}): {summarize(self.before.world)}",
            f"  written: {render_status(self.written)}",
            f"  closest model path: {' -> '.join(self.closest_path) or '(none)'}",
            f"  which writes: {render_status(self.closest_status)}",
            f"  differing: {', '.join(self.differing)}",
        ]
        return "\n".join(lines)


@attrs.frozen
class TraceCheck:
    events: int
    observations: int
    status_writes: int
    divergences: tuple[Divergence, ...]
    violations: tuple[tuple[Observation, Violation], ...]
    out_of_scope: int = 0  # observed states with a gate off: invariants not checked

    @property
    def ok(self) -> bool:
        return not self.divergences and not self.violations


def check_trace(header: Mapping[str, Any], records: Sequence[Mapping[str, Any]]) -> TraceCheck:
    """Both checks on a trace (see the module's docstring)."""
    observations = observe(header, records)
    release_gates = trace_gates(header)
    divergences: list[Divergence] = []
    violations: list[tuple[Observation, Violation]] = []
    status_writes = 0
    out_of_scope = 0
    writes: list[int] = []  # the index of the observation before each controller status write
    for i, obs in enumerate(observations):
        in_scope = obs.world.cluster.features == release_gates
        if in_scope:
            violations.extend((obs, v) for v in check_state(obs.world))
        else:
            out_of_scope += 1
        if i == 0:
            continue
        before = observations[i - 1]
        move = Move("observed", arg=obs.actor)
        if in_scope and before.world.cluster.features == release_gates:
            violations.extend((obs, v) for v in check_step(Transition(before.world, move, obs.world)))
        if obs.actor != "controller" or obs.resource != "jobs":
            continue
        old, new = _status(before.world), _status(obs.world)
        if new is None or old == new:
            continue
        status_writes += 1
        # The controller acted on a state seen since it last wrote, or, when this is a later
        # write of one sync (a sync writes up to three times), on what an earlier write saw.
        start = writes[-WRITES_PER_SYNC] if len(writes) >= WRITES_PER_SYNC else 0
        divergence = reach(candidate_states(observations, start, i, writes), obs)
        if (
            divergence is not None
            and reach(skewed_states(observations, start, i, writes), obs) is not None
            and reach(lagging_pod_states(observations, start, i), obs) is not None
        ):
            divergences.append(divergence)
        writes.append(i - 1)
    events = sum(1 for r in records if r.get("kind") == "event")
    return TraceCheck(events, len(observations), status_writes, tuple(divergences), tuple(violations), out_of_scope)


def recent_indexes(start: int, end: int) -> list[int]:
    """The indexes of the states before the write at `end`, back to `start`, latest first, at
    most RECENT_CANDIDATES."""
    return list(range(end - 1, max(start, end - RECENT_CANDIDATES) - 1, -1))


def candidate_states(observations: Sequence[Observation], start: int, end: int, writes: Sequence[int]) -> list[Observation]:
    """The states the controller may have acted on for the write at `end`: the most recent
    ones, the state before each of its earlier writes, and the state after each change made by
    someone else (a sync starts after the change that queued it); at most MAX_CANDIDATES."""
    recent = recent_indexes(start, end)
    before_writes = [w for w in reversed(writes) if start <= w < end]
    after_others = [j for j in range(end - 1, start - 1, -1) if observations[j].actor != "controller"]
    # Tried in this order: the latest states, then the likeliest starts of a sync that wrote before.
    order = list(dict.fromkeys([*recent[:3], *before_writes, *recent[3:], *after_others]))
    return [observations[j] for j in order[:MAX_CANDIDATES]]


def trace_gates(header: Mapping[str, Any]) -> FeatureGates:
    """The gates of the release the traced cluster runs (`kubeVersion` of the header; a trace
    written before it was recorded is of UNRECORDED_RELEASE, what the local control plane then
    ran), every one at its default: the gates the catalogue's invariants are stated for."""
    release = header.get("kubeVersion", UNRECORDED_RELEASE)
    if not isinstance(release, str):
        raise InputError("trace header.kubeVersion", f'expected a release as a string, e.g. "1.37", got {describe(release)}')
    return gates_for(release, "trace header.kubeVersion")

# --- observations ---------------------------------------------------------------------------------


def check_trace_shape(header: Mapping[str, Any], records: Sequence[Mapping[str, Any]]) -> None:
    """The fields the check reads have the shapes the recorder writes; InputError naming the
    trace line and the field otherwise (a trace edited or written by another program)."""
    controller = header.get("controller")
    if controller is not None and not isinstance(controller, Mapping):
        raise InputError("trace header.controller", f"expected an object, got {describe(controller)}")
    for name in ("featureGates", "tunables"):
        value = (controller or {}).get(name)
        if value is not None and not isinstance(value, Mapping):
            raise InputError(f"trace header.controller.{name}", f"expected an object, got {describe(value)}")
    if not isinstance(header.get("job"), str | None):
        raise InputError("trace header.job", f"expected a string, got {describe(header.get('job'))}")
    last_seq, last_t = None, 0.0
    for number, record in enumerate(records, 2):
        where = f"trace line {number}"
        if "format" in record:
            raise InputError(where, "a second recording's header: a trace file holds one recording")
        seq, t = record.get("seq", 0), record.get("t", 0.0)
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise InputError(f"{where}.seq", f"expected an integer, got {describe(seq)}")
        if isinstance(t, bool) or not isinstance(t, int | float) or not 0 <= t <= MAX_TRACE_SECONDS:
            raise InputError(f"{where}.t", f"expected seconds from 0 to {MAX_TRACE_SECONDS:g}, got {describe(t)}")
        # The recorder numbers its lines and times them by one monotonic clock, under one lock:
        # the gate changes are placed by `seq`, the observed clock read from `t`.
        if last_seq is not None and seq <= last_seq:
            raise InputError(f"{where}.seq", f"{seq} after {last_seq}: the lines of a trace are numbered in increasing order")
        if t < last_t:
            raise InputError(f"{where}.t", f"{t:g} after {last_t:g}: the lines of a trace are in the order of their times")
        last_seq, last_t = seq, t
        for name in ("kind", "resource", "type", "actor"):
            if not isinstance(record.get(name), str | None):
                raise InputError(f"{where}.{name}", f"expected a string, got {describe(record.get(name))}")
        if record.get("kind") != "event":
            continue
        obj = record.get("object")
        if not isinstance(obj, Mapping):
            raise InputError(f"{where}.object", f"expected an object, got {describe(obj)}")
        meta = obj.get("metadata")
        if not isinstance(meta, Mapping):
            raise InputError(f"{where}.object.metadata", f"expected an object, got {describe(meta)}")
        for name, value in meta.items():
            if name in ("name", "namespace", "uid", "resourceVersion") and not isinstance(value, str | None):
                raise InputError(f"{where}.object.metadata.{name}", f"expected a string, got {describe(value)}")
        if record.get("resource") not in RESOURCES:
            raise InputError(f"{where}.resource", f"expected one of {', '.join(RESOURCES)}, got {describe(record.get('resource'))}")


# A trace line's `t` (seconds since the recording started): at most ten years.
MAX_TRACE_SECONDS = 10 * 365 * 24 * 3600.0


def skewed_states(observations: Sequence[Observation], start: int, end: int, writes: Sequence[int] = ()) -> list[Observation]:
    """The controller's Job and pod informers are separate watches, each behind the API server by
    its own amount: the Job as one state of the window showed it with the pods as another did
    (e.g. a user's scale-down seen before a pod's success), or as they were before an earlier
    write of the window (a pod informer behind the deletions that the controller's own finalizer
    removals caused, seen under churn: those removals are then awaited, `Observation.awaited`).
    Tried only when no consistent state reaches the write; the latest Jobs first, at most
    MAX_CANDIDATES."""
    window = recent_indexes(start, end)
    pod_window = list(dict.fromkeys([*window, *(w for w in reversed(writes) if start <= w < end)]))
    out: list[Observation] = []
    for j in window:
        job_obs = observations[j]
        for k in pod_window:
            pods_obs = observations[k]
            if pods_obs.world.cluster.pods == job_obs.world.cluster.pods or pods_obs.world.cluster.jobs == job_obs.world.cluster.jobs:
                continue
            out.append(job_with_pods_of(job_obs, pods_obs))
            if len(out) == MAX_CANDIDATES:
                return out
    return out


def lagging_pod_states(observations: Sequence[Observation], start: int, end: int) -> list[Observation]:
    """The latest Job with the pods as any earlier state of the window showed them, latest first
    (at most MAX_LAGGING): a pod informer further behind than the recent states, as after a burst
    of the controller's own finalizer removals (each pod's removal one event, delivered late),
    those removals awaited. Tried only when neither the states nor the skewed ones reach the write."""
    if end - 1 < start:
        return []
    job_obs = observations[end - 1]
    out: list[Observation] = []
    for k in range(end - 2, start - 1, -1):
        pods_obs = observations[k]
        if pods_obs.world.cluster.pods == job_obs.world.cluster.pods:
            continue
        out.append(job_with_pods_of(job_obs, pods_obs))
        if len(out) == MAX_LAGGING:
            break
    return out


def job_with_pods_of(job_obs: Observation, pods_obs: Observation) -> Observation:
    """The Job as `job_obs` showed it with the pods as `pods_obs` did; the controller awaits the
    finalizer removals the pods' view does not show yet (those the Job's view shows made)."""
    cluster = attrs.evolve(job_obs.world.cluster, pods=pods_obs.world.cluster.pods)
    world = env.World(cluster, job_obs.world.job_key, job_obs.world.job_uid)
    awaited = _tracked_uids(pods_obs.world) - _tracked_uids(job_obs.world)
    return attrs.evolve(job_obs, rv=f"{job_obs.rv}, pods as at rv {pods_obs.rv}", world=world, awaited=awaited)


def observe(header: Mapping[str, Any], records: Sequence[Mapping[str, Any]]) -> list[Observation]:
    """Replay the trace: one Observation per recorded change of the Job or its pods."""
    check_trace_shape(header, records)
    started = parse_clock(header.get("started"), "trace header.started")
    controller = header.get("controller") or {}
    release_gates = trace_gates(header)
    initial = release_gates.with_overrides(controller.get("featureGates") or {}, "controller.featureGates")
    gate_changes = [
        (int(r.get("seq", 0)), release_gates.with_overrides(r["features"], f"trace line {r.get('seq')} features"))
        for r in records
        if r.get("kind") == "action" and isinstance(r.get("features"), Mapping)
    ]
    tunables = tunables_from(controller.get("tunables") or {}, "controller.tunables")
    job_name = str(header.get("job") or "")
    own = {str(r.get("rv")): str(r.get("actor")) for r in records if r.get("kind") == "action" and r.get("rv")}
    view = View()
    out: list[Observation] = []
    job_uid = ""
    job_key = ""
    parsed: dict[tuple[str, str], Any] = {}
    for record in iter_events(records):
        resource = str(record.get("resource"))
        obj = record.get("object") or {}
        view.apply(resource, str(record.get("type")), obj)
        meta = obj.get("metadata") or {}
        if resource == "jobs" and not job_uid and (not job_name or meta.get("name") == job_name):
            job_uid, job_key = str(meta.get("uid", "")), f"{meta.get('namespace', '')}/{meta.get('name', '')}"
        if resource not in ("jobs", "pods") or not job_uid:
            continue
        now = started + timedelta(seconds=float(record.get("t", 0.0)))
        seq = int(record.get("seq", 0))
        gates = next((g for s, g in reversed(gate_changes) if s < seq), initial)
        world = world_of(view, job_key, job_uid, now, gates, tunables, parsed)
        actor = own.get(str(record.get("rv")), "controller")
        out.append(Observation(int(record.get("seq", 0)), str(record.get("rv")), now, actor, resource, world))
    return out


def world_of(
    view: View, job_key: str, job_uid: str, now: datetime, gates: Any, tunables: Any, parsed: dict[tuple[str, str], Any]
) -> env.World:
    """The view as the model's World; `parsed` keeps each object version decoded once."""

    def decode(obj: Mapping[str, Any], kind: str) -> Any:
        meta = obj.get("metadata") or {}
        key = (str(meta.get("uid", "")), str(meta.get("resourceVersion", "")))
        if key not in parsed:
            parsed[key] = job_from_json(obj, "observed Job") if kind == "job" else pod_from_json(obj, "observed pod")
        return parsed[key]

    jobs = tuple(decode(j, "job") for key, j in view.objects["jobs"].items() if key == job_key)
    namespace = job_key.split("/", 1)[0]
    pods = tuple(
        decode(p, "pod")
        for p in sorted(view.objects["pods"].values(), key=lambda p: view.first_seen_rv.get(p["metadata"].get("uid", ""), 0))
        if p["metadata"].get("namespace") == namespace
    )
    cluster = cl.Cluster(now=now, jobs=jobs, pods=pods, features=gates, tunables=tunables)
    return env.World(cluster, job_key, job_uid)


def _status(world: env.World) -> dict[str, Any] | None:
    job = world.job()
    return None if job is None else comparable(job.status)


def comparable(status: JobStatus) -> dict[str, Any]:
    """The status fields compared: counters, indexes, uncounted pods, and the conditions
    (type, status, reason); times are the real clock's and are left out."""
    data = job_status_to_json(status)
    out = {k: data.get(k) for k in COMPARED_FIELDS}
    for key in ("active", "succeeded", "failed"):
        out[key] = out[key] or 0
    out["completedIndexes"] = out["completedIndexes"] or ""
    if out["uncountedTerminatedPods"] is not None:
        uncounted = out["uncountedTerminatedPods"]
        out["uncountedTerminatedPods"] = {k: len(v) for k, v in uncounted.items() if v} or None
    out["conditions"] = sorted((c["type"], c["status"], c.get("reason", "")) for c in data.get("conditions") or [])
    out["startTime"] = "startTime" in data
    out["completionTime"] = "completionTime" in data
    return out


def summarize(world: env.World) -> str:
    job = world.job()
    phases: dict[str, int] = {}
    for pod in world.pods():
        key = (pod.phase or "Pending") + (" terminating" if pod.metadata.deletion_timestamp else "")
        phases[key] = phases.get(key, 0) + 1
    pods = ", ".join(f"{n} {k}" for k, n in sorted(phases.items())) or "no pods"
    return f"{render_status(comparable(job.status)) if job else 'Job gone'}; pods: {pods}"


def render_status(status: Mapping[str, Any]) -> str:
    parts = [f"{k}={v}" for k, v in status.items() if k != "conditions" and v not in (None, 0, "", False)]
    conditions = ",".join(f"{t}({r})" if r else t for t, s, r in status.get("conditions") or [] if s == "True")
    return " ".join(parts) + (f" conditions={conditions}" if conditions else "")


# --- reaching a write -------------------------------------------------------------------------------


def _tracked_uids(world: env.World) -> frozenset[str]:
    """The uids of the Job's pods that hold the tracking finalizer."""
    return frozenset(p.uid for p in world.own_pods() if has_job_tracking_finalizer(p))


def controller_states(world: env.World, awaited: frozenset[str] = frozenset()) -> list[tuple[str, JobControllerState]]:
    """The controller's in-memory state for the Job in its plausible forms (with `awaited`, also
    awaiting those finalizer removals)."""
    out = [("fresh controller", JobControllerState())]
    record = rebuilt_backoff(world.pods())
    if record is not None:
        out.append(("with back-off record", JobControllerState(backoff=record)))
    out.append(("expectations pending", JobControllerState(expectations=Expectations(add=1, timestamp=world.cluster.now))))
    if awaited:
        out.append(("awaiting its finalizer removals", JobControllerState(expected_finalizer_removals=awaited)))
    return out


def rebuilt_backoff(pods: Iterable[Pod]) -> BackoffRecord | None:
    """podBackoffStore's record as the pods show it: failures since the last success."""
    finished: list[tuple[datetime, bool]] = []
    for pod in pods:
        if pod.phase not in ("Succeeded", "Failed"):
            continue
        times = [c.terminated.finished_at for c in pod.status.container_statuses if c.terminated and c.terminated.finished_at]
        at = max(times) if times else pod.metadata.creation_timestamp
        if at is not None:
            finished.append((at, pod.phase == "Failed"))
    failures = 0
    last: datetime | None = None
    for at, failed in sorted(finished, key=lambda x: x[0]):
        if failed:
            failures += 1
            last = at
        else:
            failures, last = 0, None
    return BackoffRecord(failures, last) if failures else None


def reach(candidates: Sequence[Observation], target: Observation) -> Divergence | None:
    """None when some controller path from a candidate writes the target's status."""
    wanted = _status(target.world)
    assert wanted is not None
    best: tuple[int, tuple[str, ...], dict[str, Any]] | None = None
    for base in candidates:
        for label, state in controller_states(base.world, base.awaited):
            # The controller that wrote runs with the gates of the write's moment.
            moment = attrs.evolve(base.world.cluster, now=target.time, features=target.world.cluster.features)
            cluster = cl.with_controller_state(moment, base.world.job_key, state)
            start = attrs.evolve(base.world, cluster=cluster)
            found, closest = _search(start, wanted, (f"from rv {base.rv} ({label})",))
            if found:
                return None
            if closest is not None and (best is None or closest[0] < best[0]):
                best = closest
    before = candidates[0] if candidates else target
    distance, path, status = best if best is not None else (0, (), {})
    differing = tuple(k for k in wanted if status.get(k) != wanted.get(k))
    del distance
    return Divergence(target, before, wanted, path, status, differing)


def _search(start: env.World, wanted: Mapping[str, Any], prefix: tuple[str, ...]) -> tuple[bool, tuple[int, tuple[str, ...], dict[str, Any]] | None]:
    frontier: list[tuple[env.World, tuple[str, ...]]] = [(start, prefix)]
    closest: tuple[int, tuple[str, ...], dict[str, Any]] | None = None
    for _ in range(MAX_DEPTH):
        next_frontier: list[tuple[env.World, tuple[str, ...]]] = []
        for world, path in frontier:
            for move in env.enabled_moves(world):
                if move.kind not in CONTROLLER_MOVES:
                    continue
                after, result = env.apply_move(world, move)
                written = [a.status for a in (result.actions if result else ()) if isinstance(a, UpdateJobStatus) and a.accepted]
                job = after.job()
                statuses = [comparable(s) for s in written] + ([comparable(job.status)] if job is not None else [])
                step_path = (*path, str(move))
                for status in statuses:
                    distance = sum(1 for k in wanted if status.get(k) != wanted.get(k))
                    if distance == 0:
                        return True, None
                    if closest is None or distance < closest[0]:
                        closest = (distance, step_path, status)
                next_frontier.append((after, step_path))
        frontier = next_frontier
    return False, closest


def invariant_count() -> int:
    return len(STATE_INVARIANTS) + len(STEP_INVARIANTS)
