"""From the executable model's worlds to the relations' states: what each count stands for.

`job_state(world)` reads a `World` of `jobmodel.transitions.job_environment` as a state of
`job_relation`; `admits(before, move, after)` says whether a move of the executable environment is
a move of the relation (Z3 picks the choices). A world outside the abstraction (a Job the relation
does not model, pending finalizer removals, a Job status write the cache has not shown) is an
`OutsideAbstraction` error naming the reason.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Mapping
from typing import Any

import attrs
import z3

from jobmodel.actions import CreatePod, DeletePod, UpdateJobStatus
from jobmodel.checkers.proofs import indexed_relation as ir
from jobmodel.checkers.proofs import job_relation as jr
from jobmodel.checkers.proofs.symbolic import Record
from jobmodel.features import FeatureGates
from jobmodel.frozen import evolve
from jobmodel.invariants.job_facts import success_policy_met
from jobmodel.state import (
    COMPLETE,
    FAILED,
    FAILED_CONDITION,
    FAILURE_TARGET,
    INDEXED,
    NON_INDEXED,
    PENDING,
    RUNNING,
    SUCCEEDED,
    SUCCESS_CRITERIA_MET,
    Job,
    JobControllerState,
    Pod,
)
from jobmodel.transitions import indexes as ix
from jobmodel.transitions.job_environment import (
    World,
    cache_behind_own_writes,
    status_write_lags,
    validate_edit,
)
from jobmodel.transitions.move import Move
from jobmodel.transitions.pod_failure_policy import (
    FAIL_INDEX,
    FAIL_JOB,
    IGNORE,
    match_pod_failure_policy,
)
from jobmodel.transitions.pod_utils import has_job_tracking_finalizer
from jobmodel.transitions.sync_job import JobSyncResult


class OutsideAbstraction(Exception):
    """The world is not one the relation describes."""


def _true(job: Job, ctype: str) -> bool:
    cond = job.status.condition(ctype)
    return cond is not None and cond.status == "True"


def _check_scope(job: Job, reasons: list[tuple[bool, str]]) -> None:
    """What neither relation models, and `reasons` (a reason when the Job has one)."""
    spec = job.spec
    common = [
        (job.metadata.deletion_timestamp is not None, "a Job being deleted"),
        (spec.managed_by not in (None, "kubernetes.io/job-controller"), "a Job managed elsewhere"),
    ]
    for outside, reason in [*reasons, *common]:
        if outside:
            raise OutsideAbstraction(f"{reason} is not modelled")


def check_job_in_scope(job: Job) -> None:
    """The Jobs job_relation models (its module docstring): a reason when not."""
    spec = job.spec
    _check_scope(
        job,
        [
            (spec.completion_mode not in (None, NON_INDEXED), "an Indexed Job"),
            (spec.backoff_limit_per_index is not None, "backoffLimitPerIndex"),
        ],
    )


def _released(pod: Pod) -> bool:
    """A pod the controller released while it runs on: being deleted, not terminal, without the
    tracking finalizer (the relations' `released`). Any other pod without the finalizer that has
    not ended is outside the abstraction."""
    if has_job_tracking_finalizer(pod) or pod.phase in (SUCCEEDED, FAILED):
        return False
    if pod.metadata.deletion_timestamp is None:
        raise OutsideAbstraction(f"running pod {pod.name} without the tracking finalizer")
    return True


def _status_and_controller(world: World, job: Job) -> dict[str, int | bool]:
    """The fields both relations read alike: the caps, the counters, the conditions, the
    expectations."""
    status = job.status
    tunables = world.cluster.tunables
    exp = world.cluster.controller_state(world.job_key).expectations
    shown = job if world.job_shown is None else world.job_shown
    shown_spec = (shown.spec.parallelism or 0, bool(shown.spec.suspend))
    spec = (job.spec.parallelism or 0, bool(job.spec.suspend))
    status_hidden = status_write_lags(world)
    return {
        "parallelism": spec[0],
        "backoff_limit": job.spec.backoff_limit or 0,
        "max_create_delete": tunables.max_pod_create_delete_per_sync,
        "max_uncounted": tunables.max_uncounted_pods,
        "suspended": spec[1],
        "has_deadline": job.spec.active_deadline_seconds is not None,
        "status_succeeded": status.succeeded,
        "status_failed": status.failed,
        "failure_target": _true(job, FAILURE_TARGET),
        "failed_condition": _true(job, FAILED_CONDITION),
        "success_criteria_met": _true(job, SUCCESS_CRITERIA_MET),
        "complete": _true(job, COMPLETE),
        "has_expectations": exp is not None,
        "expect_add": exp.add if exp is not None else 0,
        "expect_delete": exp.delete if exp is not None else 0,
        "expired": exp is not None and exp.expired(world.cluster.now),
        "status_hidden": status_hidden,
        # An edit lags: the cache shows an older Job (its status writes conflict) with the same
        # status, or with an older status (which the syncs wait for) and another spec.
        "spec_lags": world.job_shown is not None and (not status_hidden or shown_spec != spec),
        "shown_parallelism": shown_spec[0],
        "shown_suspended": shown_spec[1],
    }


def refuse_unobserved_writes(world: World, controller: JobControllerState) -> None:
    """The relations read a cache that has observed the controller's finalizer removals, and that
    shows the Job as the API server holds it but for a user's edit of a spec field they model
    (`spec_lags`) or, from 1.36, a status write the controller waits for (`status_hidden`)."""
    if controller.expected_finalizer_removals:
        raise OutsideAbstraction("finalizer removals not yet observed")
    if status_write_lags(world) and not cache_behind_own_writes(world):
        raise OutsideAbstraction("the Job's status write not yet observed")
    shown, job = world.job_shown, world.job()
    if shown is not None and job is not None:
        modelled = {"parallelism": job.spec.parallelism, "suspend": job.spec.suspend}
        if evolve(shown.spec, **modelled) != job.spec:
            raise OutsideAbstraction("an edit of a spec field the relations do not model not yet observed")


def job_state(world: World) -> dict[str, int | bool]:
    """The counts of job_relation for this world."""
    job = world.job()
    if job is None:
        raise OutsideAbstraction("the Job is gone")
    check_job_in_scope(job)
    spec, status = job.spec, job.status
    controller = world.cluster.controller_state(world.job_key)
    refuse_unobserved_writes(world, controller)
    uncounted = status.uncounted_terminated_pods
    listed_s = set(uncounted.succeeded) if uncounted is not None else set()
    listed_f = set(uncounted.failed) if uncounted is not None else set()
    counts = dict.fromkeys(jr.POD_FIELDS, 0)
    with_finalizer = set()
    gates = world.cluster.features
    for pod in world.pods():
        action = _policy_action(job, pod, gates)
        counts["fail_job"] += int(pod.phase == FAILED and pod.name not in world.hidden and action == FAIL_JOB)
        if not has_job_tracking_finalizer(pod):
            counts["released"] += int(_released(pod))
            continue
        with_finalizer.add(pod.uid)
        deleting = pod.metadata.deletion_timestamp is not None
        if pod.name in world.hidden:
            if deleting or pod.phase in (SUCCEEDED, FAILED) or pod.uid in listed_s | listed_f:
                raise OutsideAbstraction(f"unseen pod {pod.name} is not a fresh creation")
            counts["hidden"] += 1
        elif pod.phase == SUCCEEDED:
            counts["succeeded_us" if pod.uid in listed_s else "succeeded_uf" if pod.uid in listed_f else "succeeded"] += 1
        elif pod.phase == FAILED:
            if pod.uid in listed_s:
                raise OutsideAbstraction(f"failed pod {pod.name} listed as succeeded")
            counts["failed_uf" if pod.uid in listed_f else "ignored" if action == IGNORE else "failed"] += 1
        elif deleting:
            if pod.uid in listed_s:
                raise OutsideAbstraction(f"terminating pod {pod.name} listed as succeeded")
            counts["terminating_uf" if pod.uid in listed_f else "terminating"] += 1
        else:
            if pod.uid in listed_s | listed_f:
                raise OutsideAbstraction(f"active pod {pod.name} listed as finished")
            counts["active"] += 1
    counts["gone_us"] = len(listed_s - with_finalizer)
    counts["gone_uf"] = len(listed_f - with_finalizer)
    return {
        **_status_and_controller(world, job),
        "has_completions": spec.completions is not None,
        "completions": spec.completions or 0,
        "replace_failed_only": spec.pod_replacement_policy == "Failed",
        "pod_failure_policy": spec.pod_failure_policy is not None,
        **restarts_seen(world, job),
        **counts,
    }


def restarts_seen(world: World, job: Job) -> dict[str, int | bool]:
    """Both relations' `on_failure` and `restarts`: the container restarts of the running and pending
    pods the cache shows, which pastBackoffLimitOnFailure sums."""
    pods = (p for p in world.pods() if p.phase in (RUNNING, PENDING) and p.name not in world.hidden)
    restarts = sum(c.restart_count for p in pods for c in (*p.status.init_container_statuses, *p.status.container_statuses))
    return {"on_failure": job.spec.template.restart_policy == "OnFailure", "restarts": restarts}


def _policy_action(job: Job, pod: Pod, gates: FeatureGates) -> str | None:
    """The action of the podFailurePolicy rule that the pod matches (matchPodFailurePolicy). A pod
    that has not ended and that an Ignore rule matches (by a pod condition) is outside the
    relation, which counts as failed every running pod of a failing Job."""
    match = match_pod_failure_policy(job.spec.pod_failure_policy, pod, gates)
    if match.action == IGNORE and pod.phase not in (SUCCEEDED, FAILED):
        raise OutsideAbstraction(f"running pod {pod.name} matches an Ignore rule")
    return match.action


def job_record(world: World) -> Record:
    return Record.values(jr.STATE, job_state(world))


def check_indexed_job_in_scope(job: Job) -> None:
    """The Jobs indexed_relation models (its module docstring): a reason when not."""
    spec = job.spec
    _check_scope(
        job,
        [
            (spec.completion_mode != INDEXED, "a NonIndexed Job"),
            (not spec.completions, "an Indexed Job without indexes"),
        ],
    )


def _pod_kind(pod: Pod, hidden: bool, listed_f: set[str]) -> str:
    """The kind of pod (a field of the relations' pod counts) of a pod holding the finalizer."""
    deleting = pod.metadata.deletion_timestamp is not None
    if hidden:
        if deleting or pod.phase in (SUCCEEDED, FAILED) or pod.uid in listed_f:
            raise OutsideAbstraction(f"unseen pod {pod.name} is not a fresh creation")
        return "hidden"
    listed = pod.uid in listed_f
    if pod.phase == SUCCEEDED:
        return "succeeded_uf" if listed else "succeeded"
    if pod.phase == FAILED:
        return "failed_uf" if listed else "failed"
    if deleting:
        return "terminating_uf" if listed else "terminating"
    if listed:
        raise OutsideAbstraction(f"active pod {pod.name} listed as failed")
    return "active"


def indexed_state(world: World, index: int) -> dict[str, int | bool]:
    """The counts of indexed_relation for this world, with `index` as its index k."""
    job = world.job()
    if job is None:
        raise OutsideAbstraction("the Job is gone")
    check_indexed_job_in_scope(job)
    spec, status = job.spec, job.status
    completions = spec.completions or 0
    if not 0 <= index < completions:
        raise OutsideAbstraction(f"index {index} is not one of the Job's")
    controller = world.cluster.controller_state(world.job_key)
    refuse_unobserved_writes(world, controller)
    uncounted = status.uncounted_terminated_pods
    if uncounted is not None and uncounted.succeeded:
        raise OutsideAbstraction("an Indexed Job with succeeded pods in uncountedTerminatedPods")
    listed_f = set(uncounted.failed) if uncounted is not None else set()
    counts = dict.fromkeys(ir.KINDS, 0)
    k_counts = dict.fromkeys(ir.KINDS, 0)
    live_counts: list[int] = []
    failed_counts: list[int] = []
    terminating_counts: list[int] = []  # with podReplacementPolicy Failed: no failures yet (isPodFailed)
    replace_failed = spec.pod_replacement_policy == "Failed"
    with_finalizer = set()
    released = ignored = fail_job = 0
    k_fail_index = False  # a Failed pod of the index holding the finalizer matched a FailIndex rule
    per_index = spec.backoff_limit_per_index is not None
    ignored_counts: list[int] = []  # the index's ignored failures (backoffLimitPerIndex)
    line: list[_InLine] = []  # the index's pods holding the finalizer
    gates = world.cluster.features
    for pod in world.pods():
        action = _policy_action(job, pod, gates)
        fail_job += int(pod.phase == FAILED and pod.name not in world.hidden and action == FAIL_JOB)
        if not has_job_tracking_finalizer(pod):
            released += int(_released(pod))
            continue
        with_finalizer.add(pod.uid)
        pod_index = ix.pod_index(pod)
        if not 0 <= pod_index < completions:
            raise OutsideAbstraction(f"pod {pod.name} has no index of the Job")
        kind = _pod_kind(pod, pod.name in world.hidden, listed_f)
        is_ignored = kind == "failed" and action == IGNORE
        if pod_index == index:
            moving = kind in ir.LIVE_KINDS or kind in ir.TERMINATING_KINDS
            line.append(_InLine(ix.index_absolute_failure_count(pod), ix.index_failure_count(pod), pod.phase == FAILED and not is_ignored, moving))
        if is_ignored:
            ignored += 1  # Job-wide, and with backoffLimitPerIndex at its index
            if per_index and pod_index == index:
                ignored_counts.append(ix.index_failure_count(pod))
            continue
        counts[kind] += 1
        if pod_index == index:
            k_counts[kind] += 1
            k_fail_index |= kind in ("failed", "failed_uf") and action == FAIL_INDEX
            if kind in ir.LIVE_KINDS:
                live_counts.append(ix.index_failure_count(pod))
            elif replace_failed and kind in ir.TERMINATING_KINDS:
                terminating_counts.append(ix.index_failure_count(pod))
            elif kind in ir.FAILED_KINDS:
                failed_counts.append(ix.index_failure_count(pod))
    completed = _index_set(status.completed_indexes, completions)
    failed_indexes = _index_set(status.failed_indexes or "", completions)
    policy = spec.success_policy if gates.JobSuccessPolicy else None  # matchSuccessPolicy reads it only then
    return {
        **_status_and_controller(world, job),
        "completions": completions,
        "has_per_index": spec.backoff_limit_per_index is not None,
        "per_index_limit": spec.backoff_limit_per_index or 0,
        "replace_failed_only": replace_failed,
        "has_max_failed": spec.max_failed_indexes is not None,
        "max_failed": spec.max_failed_indexes or 0,
        **counts,
        "gone_uf": len(listed_f - with_finalizer),
        "released": released,
        "ignored": ignored,
        "fail_job": fail_job,
        "pod_failure_policy": spec.pod_failure_policy is not None,
        "success_policy": policy is not None,
        **restarts_seen(world, job),
        "policy_met": success_policy_met(policy, completions, completed),
        "completed_count": len(completed),
        "failed_index_count": len(failed_indexes),
        **{f"k_{kind}": n for kind, n in k_counts.items()},
        "k_completed": index in completed,
        "k_failed_index": index in failed_indexes,
        "k_live_low": min(live_counts, default=0),
        "k_live_high": max(live_counts, default=0),
        "k_failed_high": max(failed_counts, default=0),
        "k_terminating_high": max(terminating_counts, default=0),
        "k_fail_index": k_fail_index,
        "k_ignored": len(ignored_counts),
        "k_ignored_high": max(ignored_counts, default=0),
        "k_chain": not (per_index and spec.pod_failure_policy is not None) or _in_line(line),
    }


@attrs.frozen(order=True)
class _InLine:
    """What a line of replacements reads of one of an index's pods holding the finalizer."""

    failures_and_ignored: int  # the absolute failure count (getIndexAbsoluteFailureCount)
    failures: int
    counted: bool  # a failure that counts (not one an Ignore rule matched)
    moving: bool  # running or being deleted


def _in_line(pods: list[_InLine]) -> bool:
    """An index's pods holding the finalizer are one line of replacements (indexed_relation's
    `k_chain`): their absolute failure counts differ, each carries a failure count no lower than
    the one before it's plus one if that one's failure counted, and only the last may be running
    or being deleted."""
    ordered = sorted(pods)
    if len({p.failures_and_ignored for p in ordered}) < len(ordered) or any(p.moving for p in ordered[:-1]):
        return False
    return all(later.failures >= earlier.failures + earlier.counted for earlier, later in itertools.pairwise(ordered))


def _index_set(text: str, completions: int) -> frozenset[int]:
    return frozenset(i for first, last in ix.parse_indexes_from_string(text, completions) for i in range(first, last + 1))


def indexed_record(world: World, index: int) -> Record:
    return Record.values(ir.STATE, indexed_state(world, index))


def relation_moves(move: Move) -> tuple[str, ...]:
    """The moves of the relations that cover an environment move."""
    names = jr.MOVE_OF.get(move.kind)
    if names is None:
        raise OutsideAbstraction(f"move {move.kind!r} is not modelled")
    if move.kind in ("edit", "edit-stale") and (field := validate_edit(move.arg)[0]) not in jr.EDITED:
        raise OutsideAbstraction(f"an edit of {field} is not modelled")
    return names


def job_steps(before: World, move: Move, controller: jr.Controller = jr.MODEL) -> dict[str, jr.Step]:
    """The relation's moves that cover `move`, from the abstraction of `before`, by name."""
    return _steps(jr.MOVES, job_record(before), relation_moves(move), controller)


def indexed_steps(before: World, index: int, move: Move, controller: jr.Controller = jr.MODEL) -> dict[str, jr.Step]:
    """indexed_relation's moves that cover `move`, from the abstraction of `before` at `index`."""
    return _steps(ir.MOVES, indexed_record(before, index), relation_moves(move), controller)


def _steps(moves: Mapping[str, Callable[[Record, str, jr.Controller], jr.Step]], pre: Record, names: tuple[str, ...], controller: jr.Controller) -> dict[str, jr.Step]:
    return {name: moves[name](pre, "choice", controller) for name in names}


@attrs.frozen
class SyncCalls:
    """What a sync's API calls did, as the relations' steps count it: the pods it created and
    deleted (accepted by the API server), and the most UIDs a status it wrote lists in
    uncountedTerminatedPods."""

    created: int
    deleted: int
    listed: int

    @staticmethod
    def of(result: JobSyncResult | None) -> SyncCalls | None:
        """The calls of a sync's result (None: the move was no sync)."""
        if result is None:
            return None
        created = deleted = listed = 0
        for action in result.actions:
            if isinstance(action, CreatePod) and action.accepted:
                created += 1
            elif isinstance(action, DeletePod) and action.accepted:
                deleted += 1
            elif isinstance(action, UpdateJobStatus) and action.accepted:
                uncounted = action.status.uncounted_terminated_pods
                if uncounted is not None:
                    listed = max(listed, len(uncounted.succeeded) + len(uncounted.failed))
        return SyncCalls(created, deleted, listed)

    def agree(self, step: jr.Step) -> Any:
        """The step counts these calls: the same pods created and deleted, and a written list no
        longer than the step's `listed` (which its claims bound)."""
        return z3.And(step.created == self.created, step.deleted == self.deleted, step.listed >= self.listed)


def admitting(
    before: World,
    move: Move,
    after: World,
    controller: jr.Controller = jr.MODEL,
    index: int | None = None,
    calls: SyncCalls | None = None,
) -> tuple[tuple[str, jr.Step, z3.ModelRef] | None, str]:
    """A move of the relation (indexed_relation's at `index` when given) that lands on the
    abstraction of `after`, with the sync's `calls` when given: its name, the step and a model of
    its choices; or None and what the relation gives instead."""
    names = relation_moves(move)
    if index is None:
        pre, post = job_state(before), job_state(after)
    else:
        pre, post = indexed_state(before, index), indexed_state(after, index)
    return _admitting_abstractions(tuple(pre.items()), tuple(post.items()), names, controller, index is not None, calls)


@functools.lru_cache(maxsize=8192)
def _admitting_abstractions(
    pre: tuple[tuple[str, int | bool], ...],
    post: tuple[tuple[str, int | bool], ...],
    names: tuple[str, ...],
    controller: jr.Controller,
    indexed: bool,
    calls: SyncCalls | None,
) -> tuple[tuple[str, jr.Step, z3.ModelRef] | None, str]:
    """`admitting` as the pure function of the two abstractions it is, remembered: walks meet the
    same abstract step again and again (at other indexes, in other walks: about a quarter of an
    Indexed walk's checks are distinct), and each check is a solver run."""
    relation, schema = (ir, ir.STATE) if indexed else (jr, jr.STATE)
    after = Record.values(schema, dict(post))
    messages = []
    for name, step in _steps(relation.MOVES, Record.values(schema, dict(pre)), names, controller).items():
        solver = z3.Solver()
        solver.set("timeout", 10_000)
        solver.add(step.guard, step.after.equals(after))
        if calls is not None:
            solver.add(calls.agree(step))
        if solver.check() == z3.sat:
            return (name, step, solver.model()), ""
        messages.append(f"{name}: {_explain(after, step, calls)}")
    return None, "; ".join(messages)


def admits(
    before: World,
    move: Move,
    after: World,
    controller: jr.Controller = jr.MODEL,
    index: int | None = None,
    calls: SyncCalls | None = None,
) -> tuple[bool, str]:
    """Whether the relation has the environment's step `before -move-> after` (with the sync's
    `calls` when given), and a message when not."""
    found, message = admitting(before, move, after, controller, index, calls)
    return found is not None, message


def _explain(post: Record, step: jr.Step, calls: SyncCalls | None = None) -> str:
    """The fewest fields the relation cannot match, whatever its choices."""
    solver = z3.Optimize()
    solver.set("timeout", 10_000)
    solver.add(step.guard)
    if calls is not None:
        solver.add_soft(calls.agree(step))
    for name, term in step.after:
        solver.add_soft(term == getattr(post, name))
    if solver.check() != z3.sat:
        return "the relation's guard does not hold"
    model = solver.model()
    wrong = step.after.differing(post, model)
    got: dict[str, Any] = {name: model.eval(getattr(step.after, name), model_completion=True) for name in wrong}
    want = {name: getattr(post, name) for name in wrong}
    return f"relation gives {got}, model has {want} (choices {step.choices.evaluate(model)})"
