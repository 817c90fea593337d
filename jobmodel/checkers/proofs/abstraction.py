"""From the executable model's worlds to the relations' states: what each count stands for.

`job_state(world)` reads a `World` of `jobmodel.transitions.environment` as a state of
`job_relation`; `admits(before, move, after)` says whether a move of the executable environment is
a move of the relation (Z3 picks the choices). A world outside the abstraction (a Job the relation
does not model, pending finalizer removals) is an `OutsideAbstraction` error naming the reason.
"""

from __future__ import annotations

from typing import Any

import z3

from jobmodel.checkers.proofs import job_relation as jr
from jobmodel.checkers.proofs.symbolic import Record
from jobmodel.state import (
    COMPLETE,
    FAILED,
    FAILED_CONDITION,
    FAILURE_TARGET,
    NON_INDEXED,
    SUCCEEDED,
    SUCCESS_CRITERIA_MET,
    TERMINATING_OR_FAILED,
    Job,
)
from jobmodel.transitions.environment import Move, World
from jobmodel.transitions.pod_utils import has_job_tracking_finalizer


class OutsideAbstraction(Exception):
    """The world is not one the relation describes."""


def _true(job: Job, ctype: str) -> bool:
    cond = job.status.condition(ctype)
    return cond is not None and cond.status == "True"


def check_job_in_scope(job: Job) -> None:
    """The Jobs job_relation models (its module docstring): a reason when not."""
    spec = job.spec
    reasons = [
        (spec.completion_mode not in (None, NON_INDEXED), "an Indexed Job"),
        (spec.pod_failure_policy is not None, "a podFailurePolicy"),
        (spec.pod_replacement_policy not in (None, TERMINATING_OR_FAILED), "podReplacementPolicy Failed"),
        (spec.template.restart_policy == "OnFailure", "restartPolicy OnFailure"),
        (spec.active_deadline_seconds is not None, "activeDeadlineSeconds"),
        (bool(spec.suspend), "a suspended Job"),
        (spec.backoff_limit_per_index is not None, "backoffLimitPerIndex"),
        (job.metadata.deletion_timestamp is not None, "a Job being deleted"),
        (spec.managed_by not in (None, "kubernetes.io/job-controller"), "a Job managed elsewhere"),
    ]
    for outside, reason in reasons:
        if outside:
            raise OutsideAbstraction(f"{reason} is not modelled")


def job_state(world: World) -> dict[str, int | bool]:
    """The counts of job_relation for this world."""
    job = world.job()
    if job is None:
        raise OutsideAbstraction("the Job is gone")
    check_job_in_scope(job)
    spec, status = job.spec, job.status
    tunables = world.cluster.tunables
    controller = world.cluster.controller_state(world.job_key)
    if controller.expected_finalizer_removals:
        raise OutsideAbstraction("finalizer removals not yet observed")
    uncounted = status.uncounted_terminated_pods
    listed_s = set(uncounted.succeeded) if uncounted is not None else set()
    listed_f = set(uncounted.failed) if uncounted is not None else set()
    counts = dict.fromkeys(jr.POD_FIELDS, 0)
    with_finalizer = set()
    for pod in world.pods():
        if not has_job_tracking_finalizer(pod):
            if pod.phase not in (SUCCEEDED, FAILED):
                raise OutsideAbstraction(f"running pod {pod.name} without the tracking finalizer")
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
            counts["failed_uf" if pod.uid in listed_f else "failed"] += 1
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
    exp = controller.expectations
    values: dict[str, int | bool] = {
        "parallelism": spec.parallelism or 0,
        "has_completions": spec.completions is not None,
        "completions": spec.completions or 0,
        "backoff_limit": spec.backoff_limit or 0,
        "max_create_delete": tunables.max_pod_create_delete_per_sync,
        "max_uncounted": tunables.max_uncounted_pods,
        **counts,
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
    }
    return values


def job_record(world: World) -> Record:
    return Record.values(jr.STATE, job_state(world))


def relation_move(move: Move) -> str:
    """The move of job_relation that covers an environment move."""
    name = jr.MOVE_OF.get(move.kind)
    if name is None:
        raise OutsideAbstraction(f"move {move.kind!r} is not modelled")
    return name


def job_step(before: World, move: Move, controller: jr.Controller = jr.MODEL) -> jr.Step:
    """The relation's move that covers `move`, from the abstraction of `before`."""
    return jr.MOVES[relation_move(move)](job_record(before), "choice", controller)


def admitting(
    before: World, move: Move, after: World, controller: jr.Controller = jr.MODEL
) -> tuple[z3.ModelRef | None, str]:
    """Choices with which the relation's move lands on the abstraction of `after` (a model of
    them), or None and a message saying what the relation gives instead."""
    post = job_record(after)
    step = job_step(before, move, controller)
    solver = z3.Solver()
    solver.set("timeout", 10_000)
    solver.add(step.guard, step.after.equals(post))
    if solver.check() == z3.sat:
        return solver.model(), ""
    return None, _explain(post, step)


def admits(
    before: World, move: Move, after: World, controller: jr.Controller = jr.MODEL
) -> tuple[bool, str]:
    """Whether the relation has the environment's step `before -move-> after`, and a message when not."""
    model, message = admitting(before, move, after, controller)
    return model is not None, message


def _explain(post: Record, step: jr.Step) -> str:
    """Which fields the relation cannot match (with the choices Z3 finds for the guard alone)."""
    solver = z3.Solver()
    solver.add(step.guard)
    if solver.check() != z3.sat:
        return "the relation's guard does not hold"
    model = solver.model()
    wrong = step.after.differing(post, model)
    got: dict[str, Any] = {name: model.eval(getattr(step.after, name), model_completion=True) for name in wrong}
    want = {name: getattr(post, name) for name in wrong}
    return f"relation gives {got}, model has {want} (choices {step.choices.evaluate(model)})"
