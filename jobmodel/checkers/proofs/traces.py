"""Counterexamples as real traces: a run of the relation made concrete in the executable model.

`concretize(proof, path)` turns a run found by `induction.search_path` into a trace of
`jobmodel replay`: a Job manifest and tunables from the run's initial state, and environment moves
that the executable model (the proof's `impl`) carries out. It goes move by move: each relation
move becomes the environment move it covers, on a pod of the right kind (pods are started first,
as the kubelet would, so that they can succeed, fail or be deleted while running); after each
move the world is read back through the abstraction, and if the model took another branch than
the run (the relation allows more than one), the rest of the run is searched again from where the
model is. At the end the catalogue, checked on the replayed trace, must report the proof's
invariant as broken (a claim the catalogue does not state is read on the replayed run itself,
state by state or step by step: `claim_violation`): the counterexample is then the executable
model's, not the encoding's.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import z3

from jobmodel.checkers.job import CheckConfig
from jobmodel.checkers.proofs import indexed_relation as ir
from jobmodel.checkers.proofs import job_relation as jr
from jobmodel.checkers.proofs.abstraction import OutsideAbstraction
from jobmodel.checkers.proofs.induction import (
    Invariant,
    Path,
    PathStep,
    Proof,
    StepClaim,
    search_path,
)
from jobmodel.checkers.proofs.symbolic import Record
from jobmodel.checkers.trace import run_moves
from jobmodel.frozen import freeze
from jobmodel.invariants.laws import Violation
from jobmodel.state import FAILED, SUCCEEDED, JobControllerTunables, Pod
from jobmodel.transitions import indexes as ix
from jobmodel.transitions import job_environment as env
from jobmodel.transitions.move import Move
from jobmodel.transitions.pod_utils import has_job_tracking_finalizer, restarts_on_failure

JOB_NAME = "proof"
# A trace's podFailurePolicy: a failure with exit code 42 fails the Job, one with 43 is ignored, with
# backoffLimitPerIndex one with 44 fails its index; any other counts (the kubelet's SIGTERM of a pod
# being deleted, 143, too).
FAILURE_EXIT_CODES = {"count": 1, "ignore": 43, "fail-job": 42, "fail-index": 44}
POD_FAILURE_POLICY = {
    "rules": [
        {"action": "FailJob", "onExitCodes": {"operator": "In", "values": [FAILURE_EXIT_CODES["fail-job"]]}},
        {"action": "Ignore", "onExitCodes": {"operator": "In", "values": [FAILURE_EXIT_CODES["ignore"]]}},
    ]
}
FAIL_INDEX_RULE = {"action": "FailIndex", "onExitCodes": {"operator": "In", "values": [FAILURE_EXIT_CODES["fail-index"]]}}
# A trace's successPolicy: met once any index completed (indexed_concretizable holds the
# relation's syncs to that).
SUCCESS_POLICY = {"rules": [{"succeededCount": 1}]}
DEADLINE_SECONDS = 365 * 24 * 3600  # a Job's active deadline in a trace: never passed (job_concretizable)
SMALL_JOB = 12  # the size of the Jobs searched first (parallelism, completions, limits, optional fields set)
SMALL_TUNABLES = 3
MAX_REPLANS = 12


class NotReproduced(Exception):
    """The executable model does not follow the relation's run (the encoding over-approximates)."""


@attrs.frozen
class Trace:
    """A replayable counterexample: the config, the moves, and the violation the catalogue reports."""

    config: CheckConfig
    moves: tuple[Move, ...]
    violation: Violation


@attrs.frozen
class Concretizer:
    """How one relation is made concrete: the abstraction of a world, the manifest and tunables of an
    initial state, which environment move carries out a relation move, and how the search keeps to
    runs the executable model can make."""

    abstract: Callable[[env.World], dict[str, int | bool]]
    manifest: Callable[[dict[str, int | bool]], dict[str, Any]]
    tunables: Callable[[dict[str, int | bool]], JobControllerTunables]
    moves_for: Callable[[env.World, PathStep], list[Move]]
    concretizable: Callable[[Record, str, Any], Any]
    default_tunables: Callable[[Record], Any]
    small_tunables: Callable[[Record], Any]
    size: Callable[[Record], Any]
    matches: Callable[[dict[str, int | bool], dict[str, int | bool]], bool]
    steps: Callable[[env.World, Move, jr.Controller], dict[str, jr.Step]]
    unusual: Callable[[str, Any], Any] | None = None


def find_trace(
    proof: Proof, concretizer: Concretizer, *, max_depth: int, deadline: float
) -> tuple[Trace | None, str]:
    """The shortest run breaking the proof's claim, made concrete; None and why when there is none."""
    system = proof.system

    def small(s: Record) -> Any:
        return concretizer.size(s) <= SMALL_JOB

    # Readable runs: a small Job with the default tunables, else with small ones (short runs reach
    # MaxUncountedPods and MaxPodCreateDeletePerSync with few pods), else any; within each, the
    # shortest run, the smallest Job and the fewest unusual moves (search_path's preferences).
    attempts = (
        ("a small Job with the default tunables", lambda s: z3.And(system.initial(s), small(s), concretizer.default_tunables(s))),
        ("a small Job with small tunables", lambda s: z3.And(system.initial(s), small(s), concretizer.small_tunables(s))),
        ("any Job", system.initial),
    )
    reasons: list[str] = []
    for label, start in attempts:
        if time.perf_counter() > deadline:
            reasons.append(f"{label}: not searched (out of time)")
            continue
        path, reason = search_path(
            proof,
            max_depth,
            start=start,
            restrict=concretizer.concretizable,
            avoid=concretizer.unusual,
            size=concretizer.size,
            deadline=deadline,
        )
        if path is None:
            reasons.append(f"{label}: {reason}")
            continue
        try:
            return concretize(proof, path, concretizer, max_depth=max_depth, deadline=deadline), ""
        except (NotReproduced, OutsideAbstraction) as err:
            reasons.append(f"{label}: a run of the relation breaks it, but the executable model does not follow it: {err}")
    return None, "; ".join(reasons)


def concretize(
    proof: Proof, path: Path, concretizer: Concretizer, *, max_depth: int, deadline: float
) -> Trace:
    """The run as a trace of the executable model (see the module docstring)."""
    spec = path.initial
    config = CheckConfig(
        freeze(concretizer.manifest(spec)),
        env.Budget(failures=99, evictions=99, deletions=99, stale=99, faults=99, restarts=99, expiries=99, stale_status=99),
        symmetry=False,
        tunables=concretizer.tunables(spec),
        impl=proof.system.impl,
        without_assumptions=any(a.in_catalogue for a in proof.dropped),
        kube_version=proof.system.kube_version,
    )
    world = config.initial_world()
    moves: list[Move] = []
    plan = list(path.steps)
    replans = 0
    while plan:
        if time.perf_counter() > deadline:
            raise NotReproduced("out of time")
        step = plan.pop(0)
        for move in concretizer.moves_for(world, step):
            world, _ = env.apply_move(world, move, config.sync_impl())
            world = config.normalise(world)
            moves.append(move)
        actual = concretizer.abstract(world)
        if concretizer.matches(actual, step.after):
            continue
        replans += 1
        if replans > MAX_REPLANS:
            raise NotReproduced(f"the model keeps leaving the run (last at {actual})")
        here = Record.values(proof.system.schema, actual)
        found, reason = search_path(
            proof,
            max(max_depth - len(path.steps) + len(plan), 1),
            start=here.equals,
            restrict=concretizer.concretizable,
            avoid=concretizer.unusual,
            deadline=deadline,
        )
        if found is None:
            raise NotReproduced(f"after {', '.join(map(str, moves))} the model is at {actual}: {reason}")
        plan = list(found.steps)
    config = attrs.evolve(config, budget=budget_for(moves))
    if not any(m.kind in ("fail", "evict", "delete-pod") for m in moves):
        # No failure, so the back-off never matters: keep the default.
        default = JobControllerTunables().pod_failure_backoff_seconds
        config = attrs.evolve(config, tunables=attrs.evolve(config.tunables, pod_failure_backoff_seconds=default))
    system = config.system()
    records = run_moves(system, moves)
    if not proof.catalogue:
        message = claim_violation(proof, concretizer, [system.start(), *(r.world for r in records)], moves)
        if message is None:
            raise NotReproduced(f"replaying {', '.join(map(str, moves))} keeps {proof.name}")
        return Trace(config, tuple(moves), Violation(proof.qualified_name, message))
    broken = [v for v in records[-1].violations if v.invariant == proof.catalogue]
    if not broken:
        seen = "; ".join(str(v) for r in records for v in r.violations) or "no violation"
        raise NotReproduced(f"replaying {', '.join(map(str, moves))} gives {seen}, not {proof.catalogue}")
    return Trace(config, tuple(moves), broken[0])


def claim_violation(
    proof: Proof, concretizer: Concretizer, worlds: Sequence[env.World], moves: Sequence[Move]
) -> str | None:
    """The proof's claim (one the catalogue does not state) read along a run of the executable
    model (`worlds[i] -moves[i]-> worlds[i + 1]`): None when it holds everywhere, else how the first
    state or step that breaks it does."""
    for before, move, after in zip(worlds, moves, worlds[1:], strict=False):
        if isinstance(proof.claim, Invariant):
            message = state_claim_violation(proof, concretizer, after)
        else:
            message = step_claim_violation(proof, concretizer, before, move, after)
        if message is not None:
            return message
    return None


def state_claim_violation(proof: Proof, concretizer: Concretizer, world: env.World) -> str | None:
    """A state claim read at a world of the executable model: None when it holds, else the values
    that break it."""
    assert isinstance(proof.claim, Invariant)
    values = concretizer.abstract(world)
    holds = z3.simplify(proof.claim.holds(Record.values(proof.system.schema, values)))
    if z3.is_true(holds):
        return None
    shown = ", ".join(f"{k}={v}" for k, v in values.items() if v not in (0, False))
    return f"{proof.claim.name} is broken at {shown}"


def step_claim_violation(
    proof: Proof, concretizer: Concretizer, before: env.World, move: Move, after: env.World
) -> str | None:
    """A step claim read on a step of the executable model: None when it holds for some move of
    the relation that lands where the model does (or none does: the step is outside the
    relation), else the counts the step changed."""
    assert isinstance(proof.claim, StepClaim)
    was, now = concretizer.abstract(before), concretizer.abstract(after)
    pre, post = Record.values(proof.system.schema, was), Record.values(proof.system.schema, now)
    for name, step in concretizer.steps(before, move, proof.system.controller).items():
        solver = z3.Solver()
        solver.set("timeout", 10_000)
        solver.add(step.guard, step.after.equals(post))
        solver.push()
        solver.add(proof.claim.holds(pre, name, step))
        if solver.check() == z3.sat:
            return None
        solver.pop()
        if solver.check() == z3.sat:
            changed = ", ".join(f"{k} {was[k]}->{now[k]}" for k in now if now[k] != was[k])
            return f"{proof.claim.name} is broken by {move} ({changed or 'no count changes'})"
    return None


def budget_for(moves: list[Move]) -> env.Budget:
    """The smallest budget of hostile moves that lets the trace replay."""
    spend = {
        "fail": "failures",
        "restart-container": "failures",
        "evict": "evictions",
        "delete-pod": "deletions",
        "sync-stale": "stale",
        "sync-stale-patches": "stale_patches",
        "sync-stale-deletions": "stale_deletions",
        "sync-stale-status": "stale_status",
        "sync-pod-error": "faults",
        "sync-status-error": "faults",
        "restart": "restarts",
        "expire-expectations": "expiries",
        "edit-stale": "stale_edits",
    }
    budget = env.Budget()
    for move in moves:
        if move.kind in ("edit", "edit-stale"):
            budget = attrs.evolve(budget, edits=(*budget.edits, move.arg))
        name = spend.get(move.kind)
        if name is not None:
            budget = attrs.evolve(budget, **{name: getattr(budget, name) + 1})
    return budget


# --- NonIndexed Jobs (job_relation) -------------------------------------------------------------


def job_manifest(spec: dict[str, int | bool]) -> dict[str, Any]:
    """The NonIndexed Job of a relation state's spec."""
    body: dict[str, Any] = {
        "parallelism": spec["parallelism"],
        "backoffLimit": spec["backoff_limit"],
        "template": {
            "spec": {"restartPolicy": "OnFailure" if spec.get("on_failure") else "Never", "containers": [{"name": "main", "image": "busybox"}]}
        },
    }
    if spec["has_completions"]:
        body["completions"] = spec["completions"]
    if spec["suspended"]:
        body["suspend"] = True
    if spec.get("replace_failed_only"):  # (job_relation's only)
        body["podReplacementPolicy"] = "Failed"
    if spec.get("pod_failure_policy"):  # (job_relation's only)
        body["podFailurePolicy"] = POD_FAILURE_POLICY
    if spec["has_deadline"]:
        body["activeDeadlineSeconds"] = DEADLINE_SECONDS
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": JOB_NAME, "namespace": "default"}, "spec": body}


def job_tunables(spec: dict[str, int | bool]) -> JobControllerTunables:
    """The state's caps; no pod-recreation back-off (the runs are searched without it)."""
    return JobControllerTunables(
        pod_failure_backoff_seconds=0.0,
        max_pod_create_delete_per_sync=int(spec["max_create_delete"]),
        max_uncounted_pods=int(spec["max_uncounted"]),
    )


def start_pending(world: env.World) -> list[Move]:
    """Start every pod the cache shows Pending (a relation move on a pod needs it running)."""
    return [
        Move("start", p.name)
        for p in world.visible_pods()
        if p.phase == "Pending" and p.metadata.deletion_timestamp is None
    ]


def _running(world: env.World, source: str, index: Callable[[Pod], bool] = lambda _: True) -> Pod:
    """A running pod of the kind job_relation.RUNNING_SOURCES names (a released pod of any index:
    the relations count those Job-wide)."""
    job = world.job()
    uncounted = job.status.uncounted_terminated_pods if job is not None else None
    failed = set(uncounted.failed) if uncounted is not None else set()
    released = source == "released"
    for pod in world.visible_pods():
        if pod.phase in (SUCCEEDED, FAILED) or has_job_tracking_finalizer(pod) == released:
            continue
        deleting = pod.metadata.deletion_timestamp is not None
        if released:
            if deleting:
                return pod
        elif index(pod) and deleting == (source != "active") and (pod.uid in failed) == (source == "terminating_uf"):
            return pod
    raise NotReproduced("no pod of the kind the run moves")


def job_moves_for(world: env.World, step: PathStep, index: Callable[[Pod], bool] = lambda _: True) -> list[Move]:
    """The environment moves that carry out one move of job_relation (or of indexed_relation, whose
    pod moves pick a pod by `index`)."""
    move = step.move
    if move == "stutter":
        return []
    moves = start_pending(world)
    for m in moves:
        world, _ = env.apply_move(world, m)
    if move == jr.ANY_SYNC:
        return [*moves, Move(jr.SYNC_KINDS[int(step.choices["kind"])])]
    if move in jr.SYNC_MOVES or move in ("cache-catch-up", "restart"):
        return [*moves, Move(jr.environment_kind(move))]
    if move == "time":
        return [*moves, Move("expire-expectations")]
    if move in ("delete-pod", "restart-container"):
        return [*moves, Move(move, _running(world, "active", index).name)]
    if move in ("edit", "edit-stale"):
        return [*moves, *edits_for(world, move, step.after)]
    pod = _running(world, jr.RUNNING_SOURCES[int(step.choices["source"])], index)
    job = world.job()
    if move == "fail" and restarts_on_failure(pod):
        return [*moves, Move("evict", pod.name)]  # the kubelet restarts a failed container instead
    if move == "fail" and job is not None and job.spec.pod_failure_policy is not None:
        # The exit code of the rule of the action chosen (without a policy: the default failure).
        code = FAILURE_EXIT_CODES[ir.POLICY_ACTIONS[int(step.choices["action"])]]  # (job_relation's a prefix)
        return [*moves, Move(move, pod.name, f"exit={code}@main")]
    return [*moves, Move(move, pod.name)]


def edits_for(world: env.World, kind: str, spec: dict[str, Any]) -> list[Move]:
    """The user's edit (of `kind`, `edit` or `edit-stale`) that gives the Job the spec of the
    relation's move, which changes one field at most (job_concretizable): suspend's where it
    changes, else parallelism's."""
    job = world.job()
    if job is not None and bool(job.spec.suspend) != bool(spec["suspended"]):
        return [Move(kind, arg=f"suspend={'true' if spec['suspended'] else 'false'}")]
    return [Move(kind, arg=f"parallelism={spec['parallelism']}")]


def job_concretizable(before: Record, move: str, step: Any) -> Any:
    """Moves the executable environment can make as the relation describes them: syncs outside the
    back-off (the trace sets it to 0) and before the active deadline (a year away), the clock
    jumping only over pending expectations, edits of one field, and edits seen late that change
    it (an update that changes nothing the relations count may or may not change the Job)."""
    if jr.is_sync(move):
        return z3.And(z3.Not(step.choices.backoff), z3.Not(step.choices.past_deadline))
    if move in ("edit", "edit-stale"):
        # One field a move, as the user's edits are made (the relation's edit may change both).
        edits_parallelism, edits_suspend = step.choices.parallelism != before.parallelism, step.choices.suspended != before.suspended
        one_field = z3.Not(z3.And(edits_parallelism, edits_suspend))
        if move == "edit":
            return one_field
        return z3.And(one_field, z3.Or(edits_parallelism, edits_suspend), z3.Not(step.choices.rewritten))
    if move == "time":
        pending = z3.Or(before.expect_add > 0, before.expect_delete > 0)
        return z3.And(step.choices.five_minutes_pass, before.has_expectations, z3.Not(before.expired), pending)
    if move == "terminate" and any(name == "action" for name, _ in step.choices.schema):
        return step.choices.action == jr.POLICY_ACTIONS.index("count")  # exit code 143 matches no rule
    if move == "fail":
        # An OnFailure pod fails only by eviction, which takes a pod not being deleted.
        return z3.Implies(before.on_failure, step.choices.source == jr.RUNNING_SOURCES.index("active"))
    if move in ("stutter", "pod-gc"):  # pod-gc: the relation does not count the bare pods it removes
        return z3.BoolVal(False)
    return z3.BoolVal(True)


def job_default_tunables(s: Record) -> Any:
    defaults = JobControllerTunables()
    return z3.And(
        s.max_create_delete == defaults.max_pod_create_delete_per_sync,
        s.max_uncounted == defaults.max_uncounted_pods,
    )


def job_small_tunables(s: Record) -> Any:
    return z3.And(s.max_create_delete <= SMALL_TUNABLES, s.max_uncounted <= SMALL_TUNABLES)


# The spec's optional fields (as the relations' booleans): a counterexample's Job sets those its
# run needs, each counted in its size.
OPTIONAL_FIELDS = (
    "suspended", "has_deadline", "replace_failed_only", "pod_failure_policy", "on_failure", "has_per_index", "has_max_failed", "success_policy"
)


def optional_fields_set(s: Record) -> Any:
    """How many of OPTIONAL_FIELDS the state's Job sets (those of its relation's schema)."""
    names = {name for name, _ in s.schema}
    return z3.Sum(*[z3.If(getattr(s, name), 1, 0) for name in OPTIONAL_FIELDS if name in names])


def job_size(s: Record) -> Any:
    return s.parallelism + s.completions + s.backoff_limit + optional_fields_set(s)


def unusual(move: str, step: Any) -> Any:
    """Moves a readable trace has only when it needs them: API failures and stale syncs."""
    if move == jr.ANY_SYNC:
        return step.choices.kind != jr.SYNC_KINDS.index("sync")
    return z3.BoolVal(move in ("sync-pod-error", "sync-stale") or move in jr.STATUS_ERROR_OUTCOMES)


def job_matches(actual: dict[str, int | bool], expected: dict[str, int | bool]) -> bool:
    """Same counts; deletion expectations agree on what the controller reads of them (fulfilled)."""
    for name, value in expected.items():
        if name == "expect_delete":
            if (actual[name] <= 0) != (value <= 0):
                return False
        elif actual[name] != value:
            return False
    return True


def job_concretizer() -> Concretizer:
    from jobmodel.checkers.proofs.abstraction import job_state, job_steps

    return Concretizer(
        abstract=job_state,
        manifest=job_manifest,
        tunables=job_tunables,
        moves_for=job_moves_for,
        concretizable=job_concretizable,
        default_tunables=job_default_tunables,
        small_tunables=job_small_tunables,
        size=job_size,
        matches=job_matches,
        steps=job_steps,
        unusual=unusual,
    )


# --- Indexed Jobs (indexed_relation), with index 0 as the relation's index k -------------------------

INDEX_K = 0  # the lowest index: the first that firstPendingIndexes gives a pod


def indexed_manifest(spec: dict[str, int | bool]) -> dict[str, Any]:
    """The Indexed Job of an indexed_relation state's spec."""
    manifest = job_manifest({**spec, "has_completions": True})
    manifest["spec"]["completionMode"] = "Indexed"
    if spec["has_per_index"]:
        manifest["spec"]["backoffLimitPerIndex"] = spec["per_index_limit"]
        if spec["pod_failure_policy"]:
            manifest["spec"]["podFailurePolicy"] = {"rules": [*POD_FAILURE_POLICY["rules"], FAIL_INDEX_RULE]}
    if spec["has_max_failed"]:
        manifest["spec"]["maxFailedIndexes"] = spec["max_failed"]
    if spec["success_policy"]:
        manifest["spec"]["successPolicy"] = SUCCESS_POLICY
    return manifest


def indexed_concretizable(before: Record, move: str, step: Any) -> Any:
    """job_concretizable, and what index 0 being k means: no index is held back (the trace has no
    back-off), and a sync that creates gives k, the lowest index, a pod when it is pending; the
    trace's successPolicy is met once an index completed."""
    allowed = job_concretizable(before, move, step)
    if not jr.is_sync(move):
        return allowed
    lowest = z3.Implies(z3.And(step.created >= 1, ir.k_pending_after_counting(before)), step.choices.k_created)
    completed = before.completed_count + step.choices.fresh_completed
    policy = step.choices.policy_met == z3.And(before.success_policy, completed >= 1)
    return z3.And(allowed, z3.Not(step.choices.held), lowest, policy)


def indexed_moves_for(world: env.World, step: PathStep) -> list[Move]:
    """The environment moves that carry out one move of indexed_relation (k is index 0)."""
    at_k = bool(step.choices.get("at_k", True))
    return job_moves_for(world, step, lambda pod: (ix.pod_index(pod) == INDEX_K) == at_k)


def indexed_size(s: Record) -> Any:
    return s.parallelism + s.completions + s.backoff_limit + s.per_index_limit + optional_fields_set(s)


def indexed_concretizer() -> Concretizer:
    from jobmodel.checkers.proofs.abstraction import indexed_state, indexed_steps

    return Concretizer(
        abstract=lambda world: indexed_state(world, INDEX_K),
        manifest=indexed_manifest,
        tunables=job_tunables,
        moves_for=indexed_moves_for,
        concretizable=indexed_concretizable,
        default_tunables=job_default_tunables,
        small_tunables=job_small_tunables,
        size=indexed_size,
        matches=job_matches,
        steps=lambda world, move, controller: indexed_steps(world, INDEX_K, move, controller),
        unusual=unusual,
    )
