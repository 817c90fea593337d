"""Scenarios: a Job's life in the simulated cluster, step by step (the `job-scenario` vocabulary of
FORMAT.md: settle, sync, advance, setPods, deletePods, updateJob, deleteJob, setFeatures,
restartController, expect; and createJob, which FORMAT.md does not have: the Job created again
once it is gone, as upstream's recreation tests do).

The conformance suite `job-scenario` and `jobmodel simulate` scripts both run through
`run_step`; each step is a pure function from one `ScenarioState` to the next.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

import attrs

from jobmodel.api.field import FieldError
from jobmodel.api.schema import ANY, BOOL, I32, OBJ, OTHER, STR, check_known, check_value, obj
from jobmodel.api.wire import job_status_to_json, pod_to_json
from jobmodel.errors import InputError, describe, quote
from jobmodel.features import DEFAULT_GATES, FeatureGates, vector_gates
from jobmodel.state import (
    JOB_COMPLETION_INDEX_ANNOTATION,
    Job,
    JobControllerTunables,
    LabelSelector,
    Pod,
    checked_tunable,
    selector_matches,
)
from jobmodel.timeutil import parse_clock
from jobmodel.transitions import cluster as cl
from jobmodel.transitions.pod_utils import has_job_tracking_finalizer, is_pod_ready
from jobmodel.transitions.sync_job import JobSyncResult
from jobmodel.util.gostrings import go_atoi
from jobmodel.util.jsondiff import STATUS_ZERO_VALUES, conditions_diff, status_diff, subset_diff

# Which pods a step means: every key given must hold.
WHERE: dict[str, Any] = {"phase": ANY, "index": ANY, "terminating": BOOL, "finalizer": BOOL, "ready": BOOL}
# An expected field error (FORMAT.md: `field` and `type`, optionally `detail`, a substring of its
# message), in `updateJob` steps and in the validation suite; other keys are left alone.
FIELD_ERROR_PAIR: dict[str, Any] = {"field": STR, "type": STR, "detail": STR, OTHER: ANY}
# The fields of each step and their types (jobmodel.api.schema's vocabulary).
STEP_TYPES: dict[str, dict[str, Any]] = {
    "settle": {},
    "sync": {},
    "advance": {"seconds": ANY},
    "setPods": {"where": WHERE, "count": ANY, "status": OBJ},
    "deletePods": {"where": WHERE, "count": ANY},
    "updateJob": {"patch": OBJ, "rejected": BOOL, "errorsInclude": ("list", FIELD_ERROR_PAIR)},
    "deleteJob": {"propagationPolicy": STR},
    "createJob": {"job": OBJ, "jobUid": STR},
    "setFeatures": {"features": OBJ},
    "restartController": {},
    "expect": {
        "status": OBJ,
        "conditions": ("list", OBJ),
        "conditionsInclude": ("list", OBJ),
        "podCount": ("list", {"where": WHERE, "count": I32}),
        "activeIndexes": ("list", I32),
        "podsMatch": ("list", {"where": WHERE, "match": OBJ}),
        "eventsInclude": ("list", STR),
    },
}
STEP_KEYS: dict[str, frozenset[str]] = {do: frozenset(types) for do, types in STEP_TYPES.items()}
WHERE_KEYS = frozenset(WHERE)
# The longest a step may move the clock: ten years.
MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600
TUNABLE_KEYS = {
    "podFailureBackOffSeconds": "pod_failure_backoff_seconds",
    "maxPodFailureBackOffSeconds": "max_pod_failure_backoff_seconds",
    "maxUncountedPods": "max_uncounted_pods",
    "maxPodCreateDeletePerSync": "max_pod_create_delete_per_sync",
}


@attrs.frozen
class ScenarioState:
    """The cluster, and which Job the scenario follows (its selector is kept once it is gone)."""

    cluster: cl.Cluster
    namespace: str
    name: str
    selector: LabelSelector | None

    def job(self) -> Job | None:
        return self.cluster.job(self.namespace, self.name)


@attrs.frozen
class StepOutcome:
    """What one step did: its differences from the step's expectations, and the syncs it ran."""

    state: ScenarioState
    differences: tuple[str, ...] = ()
    syncs: tuple[JobSyncResult, ...] = ()


class StepFailed(Exception):
    """A step that cannot be carried out (e.g. fewer matching pods than asked for)."""


def tunables_to_json(tunables: JobControllerTunables) -> dict[str, float | int]:
    """The tunables other than upstream's defaults, under a case's `controller` keys."""
    default = JobControllerTunables()
    return {key: getattr(tunables, attr) for key, attr in TUNABLE_KEYS.items() if getattr(tunables, attr) != getattr(default, attr)}


def tunables_from(value: object, path: str) -> JobControllerTunables:
    """A case's `controller` tunables (TUNABLE_KEYS), each absent one at upstream's default."""
    m = obj(value, path)
    check_known(m, set(TUNABLE_KEYS), path)
    changes: dict[str, Any] = {}
    for key, attr in TUNABLE_KEYS.items():
        if key in m:
            changes[attr] = checked_tunable(attr, m[key], f"{path}.{key}")
    return attrs.evolve(JobControllerTunables(), **changes)


def start(
    job_manifest: Mapping[str, Any],
    job_uid: str,
    now: datetime,
    *,
    features: Mapping[str, Any] | None = None,
    tunables: JobControllerTunables = JobControllerTunables(),
    garbage_collector: bool = False,
    gates: FeatureGates = DEFAULT_GATES,
    pod_names: str = "counter",
) -> ScenarioState:
    """Create the cluster with the Job submitted at `now` (defaulted, selector generated, validated),
    with `gates` and then `features` set on them (as a vector's features are set); `pod_names` is
    the cluster's naming of created pods (jobmodel.transitions.cluster.Cluster)."""
    gates = gates.with_overrides(features or {})
    cluster = cl.Cluster(
        now=now, features=gates, tunables=tunables, garbage_collector=garbage_collector, pod_names=pod_names
    )
    cluster, errors = cl.create_job(cluster, job_manifest, job_uid)
    if errors:
        raise InputError("job", "the API server rejects the Job: " + "; ".join(str(e) for e in errors))
    job = cluster.jobs[-1]
    return ScenarioState(cluster, job.namespace, job.name, job.spec.selector)


def job_pods(state: ScenarioState) -> list[Pod]:
    """The Job's pods: its namespace's pods matching its (last known) selector, in creation order."""
    pods = [
        p
        for p in state.cluster.pods
        if p.metadata.namespace == state.namespace and selector_matches(state.selector, p.metadata.labels)
    ]
    return sorted(pods, key=cl.creation_order)


def pod_matches_where(pod: Pod, where: Mapping[str, Any], path: str) -> bool:
    """Every key of `where` holds for the pod."""
    check_known(where, WHERE_KEYS, path)
    if "phase" in where:
        phases = where["phase"] if isinstance(where["phase"], list) else [where["phase"]]
        if pod.phase not in phases:
            return False
    if "index" in where and go_atoi(pod.metadata.annotations.get(JOB_COMPLETION_INDEX_ANNOTATION, "")) != where["index"]:
        return False
    if "terminating" in where and (pod.metadata.deletion_timestamp is not None) != bool(where["terminating"]):
        return False
    if "finalizer" in where and has_job_tracking_finalizer(pod) != bool(where["finalizer"]):
        return False
    return not ("ready" in where and is_pod_ready(pod) != bool(where["ready"]))


def pod_count(state: ScenarioState, where: Mapping[str, Any], path: str) -> int:
    """`podCount`: how many of the Job's pods `where` chooses."""
    return sum(1 for p in job_pods(state) if pod_matches_where(p, where, path))


def chosen_pods(state: ScenarioState, step: Mapping[str, Any], path: str) -> list[Pod]:
    """The first `count` pods chosen by `where` (all when `count` is absent), in creation order."""
    where = obj(step.get("where"), f"{path}.where")
    pods = [p for p in job_pods(state) if pod_matches_where(p, where, f"{path}.where")]
    count = step.get("count")
    if count is None:
        return pods
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise InputError(f"{path}.count", "expected a non-negative integer")
    if len(pods) < count:
        raise StepFailed(f"{path}: {count} pods wanted, only {len(pods)} match {dict(where)}")
    return pods[:count]


def run_step(state: ScenarioState, step: Mapping[str, Any], path: str) -> StepOutcome:
    """Carry out one step; an `expect` step reports its differences."""
    if not isinstance(step, Mapping):
        raise InputError(path, f"a step is an object, got {describe(step)}")
    do = step.get("do")
    if not isinstance(do, str) or do not in STEP_KEYS:
        raise InputError(f"{path}.do", f"unknown step {quote(do)} (known: {', '.join(STEP_KEYS)})")
    decoded = check_value(dict(step), {"do": STR, **STEP_TYPES[do]}, path)
    handler = _HANDLERS[do]
    return handler(state, decoded, path)


def _settle(state: ScenarioState, step: Mapping[str, Any], path: str) -> StepOutcome:
    syncs: list[JobSyncResult] = []
    cluster = cl.settle(state.cluster, on_sync=lambda _c, _k, result: syncs.append(result))
    return StepOutcome(attrs.evolve(state, cluster=cluster), syncs=tuple(syncs))


def _sync(state: ScenarioState, step: Mapping[str, Any], path: str) -> StepOutcome:
    cluster, result = cl.controller_sync(state.cluster, f"{state.namespace}/{state.name}")
    return StepOutcome(attrs.evolve(state, cluster=cluster), syncs=(result,))


def _advance(state: ScenarioState, step: Mapping[str, Any], path: str) -> StepOutcome:
    seconds = step.get("seconds")
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise InputError(f"{path}.seconds", "expected a number of seconds")
    if not 0 <= seconds <= MAX_ADVANCE_SECONDS:  # NaN is in no range
        raise InputError(f"{path}.seconds", f"expected 0 to {MAX_ADVANCE_SECONDS} seconds, got {quote(seconds)}")
    return StepOutcome(attrs.evolve(state, cluster=cl.advance(state.cluster, seconds)))


def _set_pods(state: ScenarioState, step: Mapping[str, Any], path: str) -> StepOutcome:
    patch = obj(step.get("status"), f"{path}.status")
    cluster = state.cluster
    for pod in chosen_pods(state, step, path):
        current = cluster.pod(pod.metadata.namespace, pod.name)
        if current is not None:
            try:
                cluster = cl.set_pod_status(cluster, current, patch)
            except InputError as err:
                raise InputError(f"{path}.{err.field}", err.reason) from None
    return StepOutcome(attrs.evolve(state, cluster=cluster))


def _delete_pods(state: ScenarioState, step: Mapping[str, Any], path: str) -> StepOutcome:
    cluster = state.cluster
    for pod in chosen_pods(state, step, path):
        current = cluster.pod(pod.metadata.namespace, pod.name)
        if current is not None:
            cluster = cl.delete_pod(cluster, current)
    return StepOutcome(attrs.evolve(state, cluster=cluster))


def _update_job(state: ScenarioState, step: Mapping[str, Any], path: str) -> StepOutcome:
    patch = obj(step.get("patch"), f"{path}.patch")
    cluster, errors = cl.update_job(state.cluster, state.namespace, state.name, patch)
    differences: list[str] = []
    if step.get("rejected"):
        if not errors:
            differences.append(f"{path}: the update was expected to be rejected, but it was accepted")
        differences.extend(errors_include(step.get("errorsInclude") or [], errors, path))
        return StepOutcome(state, tuple(differences))
    if errors:
        rendered = "; ".join(str(e) for e in errors)
        differences.append(f"{path}: the update was rejected: {rendered}")
        return StepOutcome(state, tuple(differences))
    job = cluster.job(state.namespace, state.name)
    selector = job.spec.selector if job is not None else state.selector
    return StepOutcome(attrs.evolve(state, cluster=cluster, selector=selector))


def errors_include(wanted: Sequence[Mapping[str, Any]], errors: Sequence[FieldError], path: str) -> list[str]:
    out = []
    for want in wanted:
        if not any(
            e.field == want.get("field")
            and e.type == want.get("type")
            and (want.get("detail") or "") in str(e)  # FORMAT.md: a substring of the message, as in `validation`
            for e in errors
        ):
            got = [f"{e.field} {e.type}" for e in errors]
            out.append(f"{path}.errorsInclude: missing {dict(want)}; the errors were {got}")
    return out


def _delete_job(state: ScenarioState, step: Mapping[str, Any], path: str) -> StepOutcome:
    policy = step.get("propagationPolicy", "Orphan")
    try:
        cluster = cl.delete_job(state.cluster, state.namespace, state.name, str(policy))
    except InputError as err:
        raise InputError(f"{path}.{err.field}", err.reason) from None
    return StepOutcome(attrs.evolve(state, cluster=cluster))


def _create_job(state: ScenarioState, step: Mapping[str, Any], path: str) -> StepOutcome:
    """The followed Job created anew (a replacement of the same name, once the first is gone):
    through the API as the case's `job` is, with the step's uid; from then on the scenario
    follows it."""
    manifest, job_uid = replacement_job(state, step, path)
    if state.job() is not None:  # the API server's AlreadyExists
        return StepOutcome(state, (f"{path}: the create was rejected: a Job named {quote(state.name)} already exists",))
    cluster, errors = cl.create_job(state.cluster, manifest, job_uid)
    if errors:
        return StepOutcome(state, (f"{path}: the create was rejected: " + "; ".join(str(e) for e in errors),))
    job = cluster.jobs[-1]
    return StepOutcome(attrs.evolve(state, cluster=cluster, selector=job.spec.selector))


def replacement_job(state: ScenarioState, step: Mapping[str, Any], path: str) -> tuple[dict[str, Any], str]:
    """A `createJob` step's Job, in the scenario's namespace (it must name the followed Job), and
    its uid."""
    job_uid = step.get("jobUid")
    if not isinstance(job_uid, str) or not job_uid:
        raise InputError(f"{path}.jobUid", "required (a string)")
    if not isinstance(step.get("job"), Mapping):
        raise InputError(f"{path}.job", "required (an object): the Job to create")
    manifest = dict(step["job"])
    meta = dict(obj(manifest.get("metadata"), f"{path}.job.metadata"))
    if meta.get("name") != state.name:
        raise InputError(f"{path}.job.metadata.name", f"must name the Job the scenario follows, {quote(state.name)}")
    if meta.setdefault("namespace", state.namespace) != state.namespace:
        raise InputError(f"{path}.job.metadata.namespace", f"must be the scenario's namespace, {quote(state.namespace)}")
    manifest["metadata"] = meta
    return manifest, job_uid


def _set_features(state: ScenarioState, step: Mapping[str, Any], path: str) -> StepOutcome:
    features = obj(step.get("features"), f"{path}.features")
    gates = state.cluster.features.with_overrides(features, f"{path}.features")
    return StepOutcome(attrs.evolve(state, cluster=attrs.evolve(state.cluster, features=gates)))


def _restart_controller(state: ScenarioState, step: Mapping[str, Any], path: str) -> StepOutcome:
    return StepOutcome(attrs.evolve(state, cluster=cl.restart_controller(state.cluster)))


def _expect(state: ScenarioState, step: Mapping[str, Any], path: str) -> StepOutcome:
    return StepOutcome(state, tuple(check_expect(state, step, path)))


def check_expect(state: ScenarioState, step: Mapping[str, Any], path: str) -> list[str]:
    """The differences between an `expect` step and the cluster."""
    out: list[str] = []
    job = state.job()
    status = job_status_to_json(job.status) if job is not None else {}
    if "status" in step:
        if job is None:
            out.append(f"{path}.status: the Job is gone")
        else:
            out.extend(status_diff(step["status"], status, f"{path}.status"))
    conditions = status.get("conditions", [])
    if "conditions" in step:
        out.extend(conditions_diff(step["conditions"], conditions, f"{path}.conditions", exact=True))
    if "conditionsInclude" in step:
        out.extend(conditions_diff(step["conditionsInclude"], conditions, f"{path}.conditionsInclude", exact=False))
    for i, item in enumerate(step.get("podCount") or []):
        item_path = f"{path}.podCount[{i}]"
        where = obj(item.get("where"), f"{item_path}.where")
        got = pod_count(state, where, f"{item_path}.where")
        if got != item.get("count"):
            out.append(f"{item_path}: {dict(where)}: expected {item.get('count')} pods, got {got}")
    if "activeIndexes" in step:
        active = active_indexes(state)
        if active != step["activeIndexes"]:
            out.append(f"{path}.activeIndexes: expected {step['activeIndexes']}, got {active}")
    for i, item in enumerate(step.get("podsMatch") or []):
        item_path = f"{path}.podsMatch[{i}]"
        where = obj(item.get("where"), f"{item_path}.where")
        pods = [p for p in job_pods(state) if pod_matches_where(p, where, f"{item_path}.where")]
        if not pods:
            out.append(f"{item_path}: no pod matches {dict(where)}")
        for pod in pods:
            out.extend(subset_diff(item.get("match") or {}, pod_to_json(pod), f"{item_path}[{pod.name}]"))
    if "eventsInclude" in step:
        key = f"{state.namespace}/{state.name}"
        reasons = [e.reason for e in state.cluster.events if e.job_key == key]
        for reason in step["eventsInclude"]:
            if reason not in reasons:
                out.append(f"{path}.eventsInclude: no event {quote(reason)}; recorded: {reasons}")
    return out


# What `predicted_expect` states of the Job's status: the counters and the index sets. Times are
# left out (a real cluster's clock runs on), and so are uncountedTerminatedPods (pod uids).
PREDICTED_STATUS_FIELDS = ("active", "succeeded", "failed", "ready", "terminating", "completedIndexes", "failedIndexes")
POD_PHASES = ("Pending", "Running", "Succeeded", "Failed")


def predicted_expect(state: ScenarioState) -> dict[str, Any]:
    """An `expect` step that holds of `state` and states all of it that another cluster can be
    held to: the status counters and index sets (a field absent here must be absent there), the
    exact conditions with their reasons and messages, the Job's pods by phase, terminating or
    still carrying the tracking finalizer, and an Indexed Job's active indexes."""
    job = state.job()
    step: dict[str, Any] = {"do": "expect"}
    if job is not None:
        status = job_status_to_json(job.status)
        step["status"] = {key: status.get(key, STATUS_ZERO_VALUES.get(key)) for key in PREDICTED_STATUS_FIELDS}
        step["conditions"] = [
            {"type": c["type"], "status": c["status"], "reason": c.get("reason", ""), "message": c.get("message", "")}
            for c in status.get("conditions", [])
        ]
    wheres: list[dict[str, Any]] = [{"phase": phase} for phase in POD_PHASES] + [{"terminating": True}, {"finalizer": True}]
    step["podCount"] = [{"where": w, "count": pod_count(state, w, "where")} for w in wheres]
    if job is not None and job.spec.completion_mode == "Indexed":
        step["activeIndexes"] = active_indexes(state)
    return step


def active_indexes(state: ScenarioState) -> list[int]:
    """`activeIndexes`: the sorted, distinct indexes (annotation) of the Job's pods in phase
    Pending or Running, terminating or not."""
    texts = {p.metadata.annotations.get(JOB_COMPLETION_INDEX_ANNOTATION, "") for p in job_pods(state) if p.phase in ("Pending", "Running")}
    return sorted({i for i in map(go_atoi, texts) if i is not None})


_HANDLERS: dict[str, Callable[[ScenarioState, Mapping[str, Any], str], StepOutcome]] = {
    "settle": _settle,
    "sync": _sync,
    "advance": _advance,
    "setPods": _set_pods,
    "deletePods": _delete_pods,
    "updateJob": _update_job,
    "deleteJob": _delete_job,
    "createJob": _create_job,
    "setFeatures": _set_features,
    "restartController": _restart_controller,
    "expect": _expect,
}


def parse_start(value: object, path: str) -> datetime:
    return parse_clock(value, path)


CASE_KEYS = frozenset({"name", "origin", "kubeVersion", "features", "start", "job", "jobUid", "controller", "garbageCollector", "steps"})


def initial_state(case: Mapping[str, Any]) -> ScenarioState:
    """The cluster a `job-scenario` case starts from: its Job created at `start`, at the case's
    release with its `features`, `controller` tunables and garbage collector."""
    job_uid = case.get("jobUid")
    if not isinstance(job_uid, str):
        raise InputError("jobUid", "required (a string)")
    return start(
        obj(case.get("job"), "job"),
        job_uid,
        parse_clock(case.get("start"), "start"),
        features=obj(case.get("features"), "features"),
        gates=vector_gates(case.get("kubeVersion"), None),
        tunables=tunables_from(case.get("controller"), "controller"),
        garbage_collector=bool(case.get("garbageCollector")),
    )


def run_scenario(case: Mapping[str, Any]) -> list[str]:
    """Run a whole `job-scenario` case (FORMAT.md) through the simulated cluster; the differences
    of its steps (empty: the scenario passed)."""
    check_known(case, CASE_KEYS, "case")
    steps = case.get("steps")
    if not isinstance(steps, list):
        raise InputError("steps", "required (a list)")
    state = initial_state(case)
    differences: list[str] = []
    for i, step in enumerate(steps):
        path = f"steps[{i}] ({step.get('do') if isinstance(step, Mapping) else '?'})"
        try:
            outcome = run_step(state, step, path)
        except StepFailed as err:
            differences.append(str(err))
            break
        state = outcome.state
        differences.extend(outcome.differences)
    return differences
