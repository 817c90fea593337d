"""The Job controller as a system under check: its environment
(jobmodel.transitions.job_environment), its canonical form (jobmodel.transitions.job_symmetry),
its laws (jobmodel.invariants.catalogue) and bounded liveness (jobmodel.invariants.liveness).

A `CheckConfig` fixes what is checked: the Job manifest, the hostile moves allowed, the clock at
the start, the gates, the implementation under check by import path, and symmetry reduction.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from functools import partial
from typing import Any, ClassVar, cast

import attrs

from jobmodel.api.schema import BOOL, STR, member
from jobmodel.checkers.external import external_sync, is_external
from jobmodel.checkers.system import (
    BudgetSplit,
    System,
    budget_from_json,
    budget_to_json,
    features_from_json,
    load_impl,
    manifest_from_json,
    trace_release,
)
from jobmodel.errors import InputError, quote
from jobmodel.features import NEWEST_RELEASE, gates_for
from jobmodel.frozen import FrozenDict, freeze, thaw
from jobmodel.invariants.catalogue import LAWS
from jobmodel.invariants.laws import Violation
from jobmodel.invariants.liveness import check_liveness
from jobmodel.state import Job, JobControllerTunables, Pod, checked_tunable
from jobmodel.timeutil import format_time, parse_clock
from jobmodel.transitions import job_environment as env
from jobmodel.transitions.job_symmetry import canonical_world, without_events
from jobmodel.transitions.move import budget_left, respent
from jobmodel.transitions.pod_utils import has_job_tracking_finalizer, is_pod_ready
from jobmodel.transitions.sync_job import JobSyncResult, sync_job

DEFAULT_IMPL = "jobmodel.transitions.sync_job:sync_job"
DEFAULT_START = datetime(2025, 1, 1, tzinfo=UTC)


def load_sync_impl(spec: str | None) -> env.SyncImpl:
    """The sync step named `package.module:function`, or taken by a program speaking the oracle
    protocol (`cmd:PROGRAM ARGS`); the model's sync_job when None."""
    if spec is None or spec == DEFAULT_IMPL:
        return sync_job
    if is_external(spec):
        return external_sync(spec)
    return cast(env.SyncImpl, load_impl(spec, returns=JobSyncResult))


def _flag(value: Mapping[str, Any], key: str, default: bool, path: str) -> bool:
    """A trace's yes-or-no setting: a JSON boolean (a string such as "no" is an error)."""
    flag = member(value, key, BOOL, path)
    return default if flag is None else bool(flag)


@attrs.frozen
class CheckConfig:
    """What a check runs on: the Job manifest (frozen JSON), the environment's budget, the clock,
    gate overrides, the implementation's import path, whether states are reduced by symmetry, the
    controller's tunables, and whether the laws are checked outside their assumptions too."""

    KIND: ClassVar[str] = "Job"
    MOVE_KINDS: ClassVar[tuple[str, ...]] = env.MOVE_KINDS
    DEFAULT_IMPL: ClassVar[str] = DEFAULT_IMPL

    manifest: FrozenDict
    budget: env.Budget = env.Budget()
    start: datetime = DEFAULT_START
    features: FrozenDict = FrozenDict()
    impl: str = DEFAULT_IMPL
    symmetry: bool = True
    kube_version: str = NEWEST_RELEASE
    tunables: JobControllerTunables = JobControllerTunables()
    without_assumptions: bool = False

    def initial_world(self) -> env.World:
        """The cluster holding just the Job, as the checkers store it."""
        return self.normalise(self._created())

    def _created(self) -> env.World:
        gates = gates_for(self.kube_version).with_overrides(self.features, emulation_fallback=False)
        return env.initial_world(
            thaw(self.manifest), self.budget, now=self.start, features=gates, tunables=self.tunables
        )

    def normalise(self, world: env.World) -> env.World:
        """The world as the checkers store it (canonical under symmetry; without events)."""
        return canonical_world(world) if self.symmetry else without_events(world)

    def sync_impl(self) -> env.SyncImpl:
        return load_sync_impl(self.impl)

    def system(self, impl: env.SyncImpl | None = None) -> System[env.World, JobSyncResult]:
        """The Job system checking `impl` (by default the config's `impl`)."""
        # A sync is a pure function of its input, which recurs across states (the same cluster
        # with another budget, a sync and a stale sync, liveness runs): remembered per system,
        # by the cluster it runs on (job_environment.synced_cluster, keyed by this object).
        sync_impl = remembered(impl or self.sync_impl())
        return System(
            kind=self.KIND,
            initial_world=self._created,
            enabled_moves=env.enabled_moves,
            apply_move=partial(env.apply_move, impl=sync_impl),
            laws=LAWS,
            columns=("job status", "pods"),
            describe=lambda world: (describe_job(world), describe_pods(world)),
            # Not remembered: a memo of worlds before renaming hit 28% of the time at depth 14 and
            # cost more than it saved (it held 65,536 worlds and compared them field by field).
            canonical=canonical_world if self.symmetry else without_events,  # `normalise`, one call less
            liveness=partial(_liveness, sync_impl),
            without_assumptions=self.without_assumptions,
            budget=BudgetSplit(env.without_budget, budget_left, respent),
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "manifest": thaw(self.manifest),
            "budget": budget_to_json(self.budget),
            "start": format_time(self.start),
            "features": thaw(self.features),
            "impl": self.impl,
            "symmetry": self.symmetry,
            "kubeVersion": self.kube_version,
        }
        if self.tunables != JobControllerTunables():
            out["tunables"] = attrs.asdict(self.tunables)
        if self.without_assumptions:
            out["without_assumptions"] = True
        return out

    @staticmethod
    def from_json(value: Mapping[str, Any], path: str = "config") -> CheckConfig:
        return CheckConfig(
            manifest=manifest_from_json(value, path, "Job"),
            budget=budget_from_json(env.Budget, value.get("budget") or {}, f"{path}.budget", env.validate_edit),
            start=parse_clock(value.get("start", format_time(DEFAULT_START)), f"{path}.start"),
            features=freeze(features_from_json(value.get("features"), f"{path}.features", trace_release(value, path))),
            impl=member(value, "impl", STR, path) or DEFAULT_IMPL,
            symmetry=_flag(value, "symmetry", True, path),
            kube_version=trace_release(value, path),
            tunables=tunables_from_json(value.get("tunables") or {}, f"{path}.tunables"),
            without_assumptions=_flag(value, "without_assumptions", False, path),
        )


def tunables_from_json(value: Mapping[str, Any], path: str) -> JobControllerTunables:
    """The controller's tunables (JobControllerTunables field names); errors name the field."""
    if not isinstance(value, Mapping):
        raise InputError(path, "expected an object of tunables")
    fields = {f.name: f for f in attrs.fields(JobControllerTunables)}
    changes: dict[str, Any] = {}
    for name, v in value.items():
        if name not in fields:
            raise InputError(f"{path}.{name}", f"unknown tunable (known: {', '.join(fields)})")
        changes[name] = explored_tunable(name, v, f"{path}.{name}")
    return attrs.evolve(JobControllerTunables(), **changes)


def explored_tunable(name: str, value: object, path: str) -> float | int:
    """A tunable of an exploration (`checked_tunable`), its seconds whole: the explorer's clock
    moves by the controller's requeues, and the timestamps the cluster writes (metav1.Time) are
    whole seconds, so a back-off of a fraction would leave the clock between them."""
    checked = checked_tunable(name, value, path)
    if isinstance(getattr(JobControllerTunables(), name), float) and checked != int(checked):
        raise InputError(path, f"expected whole seconds in an exploration (its clock and the API server's timestamps are whole seconds), got {quote(value)}")
    return checked


def remembered(impl: env.SyncImpl) -> env.SyncImpl:
    """`impl` as one system's own object, whose syncs `job_environment.synced_cluster` remembers
    by the cluster they run on, and forgets with it. (An lru_cache by input here as well hashed
    every new input for nothing: the memo by cluster answers every repeat first.)"""
    return partial(impl)


def _liveness(impl: env.SyncImpl, world: env.World) -> Violation | None:
    return check_liveness(world, impl)


# --- a world in a step table ------------------------------------------------------------------------


def describe_job(world: env.World) -> str:
    """The Job's status as the API server holds it; one the controller's cache shows older (a
    status write, a user's edit or deletion it delivers late) follows as `(cache: ...)`, with
    the spec fields an edit changed since."""
    job, shown = world.job(), world.job_shown
    if job is None:
        return "(deleted)" if shown is None else f"(deleted) (cache: {_status_text(shown)})"
    text = _status_text(job)
    if shown is None:
        return text
    older = [f"{field}={getattr(shown.spec, field)}" for field in env.EDIT_FIELDS if getattr(shown.spec, field) != getattr(job.spec, field)]
    return f"{text} (cache: {' '.join([_status_text(shown), *older])})"


def _status_text(job: Job) -> str:
    s = job.status
    conds = ",".join(c.type for c in s.conditions if c.status == "True")
    text = f"active={s.active} ready={s.ready or 0} succeeded={s.succeeded} failed={s.failed}"
    if s.completed_indexes:
        text += f" done=[{s.completed_indexes}]"
    u = s.uncounted_terminated_pods
    if u is not None and (u.succeeded or u.failed):
        text += f" uncounted={len(u.succeeded)}s/{len(u.failed)}f"
    return text + (f" {conds}" if conds else "")


def describe_pods(world: env.World) -> str:
    """The Job's pods, each as `name:phase+marks`; a pod the controller's cache has not seen is
    marked (unseen), one it shows in an older version (its late writes) with that version, and
    one gone that the cache still shows is `name:gone`."""
    shown = {p.name: p for p in world.visible_pods()}
    out = []
    for pod in world.pods():
        text = f"{pod.name}:{_pod_marks(pod)}"
        cached = shown.pop(pod.name, None)
        if cached is None:
            text += "(unseen)"
        elif cached is not pod:
            text += f"(cache: {_pod_marks(cached)})"
        out.append(text)
    out.extend(f"{name}:gone(cache: {_pod_marks(pod)})" for name, pod in shown.items())  # gone from the API
    return " ".join(out) or "-"


def _pod_marks(pod: Pod) -> str:
    text = pod.phase
    if is_pod_ready(pod):
        text += "+ready"
    if pod.metadata.deletion_timestamp is not None:
        text += "+deleting"
    if has_job_tracking_finalizer(pod):
        text += "+fin"
    restarts = sum(c.restart_count for c in pod.status.container_statuses)
    if restarts:
        text += f"+restarts={restarts}"
    return text
