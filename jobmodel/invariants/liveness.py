"""Bounded liveness: with a well-behaved environment every Job reaches a terminal condition
within a number of steps computed from the Job.

A well-behaved environment makes no hostile move (no failures, API faults, restarts, edits,
lagging cache); it runs rounds of: the cache catches up, every pending pod starts, every running
pod succeeds, every pod being deleted terminates, the controller's requeue timer fires (back-off),
the controller syncs, orphaned finalizers are removed.
Assumption: the Job is not suspended (a suspended Job waits for the user, by design) and is
not deleted. Known upstream bugs accepted (`catalogue.held_by_its_predecessor`): a Job created
again under a deleted one's name that waits for its predecessor's expectations.
"""

from __future__ import annotations

import attrs

from jobmodel.invariants.catalogue import held_by_its_predecessor
from jobmodel.invariants.job_facts import finished
from jobmodel.invariants.laws import Violation
from jobmodel.state import PENDING, RUNNING
from jobmodel.transitions import job_environment as env
from jobmodel.transitions.move import Move

ROUNDS_SLACK = 3  # counting the last pods, writing the terminal condition, one spare


def liveness_bound(world: env.World) -> int:
    """An upper bound on the steps a well-behaved run needs from this world: one round per
    `parallelism` completions still to make, plus slack; each round at most two moves per pod."""
    job = world.job()
    if job is None:
        return 0
    parallelism = max(job.spec.parallelism or 1, 1)
    completions = job.spec.completions if job.spec.completions is not None else 1
    rounds = -(-completions // parallelism) + ROUNDS_SLACK
    per_round = 4 + 2 * (parallelism + len(world.pods()))
    return rounds * per_round


def round_moves(world: env.World) -> list[Move]:
    """The moves of one round of the well-behaved environment, in order."""
    moves: list[Move] = []
    if world.hidden or world.lagging or world.job_shown is not None:
        moves.append(Move("cache-catch-up"))
    for pod in world.pods():
        if pod.name in world.hidden:
            continue
        if pod.metadata.deletion_timestamp is not None and pod.phase in (PENDING, RUNNING):
            moves.append(Move("terminate", pod.name))
        elif pod.phase == PENDING:
            moves.append(Move("start", pod.name))
            moves.append(Move("succeed", pod.name))
        elif pod.phase == RUNNING:
            moves.append(Move("succeed", pod.name))
    return moves


def run_well_behaved(world: env.World, impl: env.SyncImpl, max_steps: int) -> tuple[env.World, int]:
    """Run the well-behaved environment until the Job finishes or `max_steps` moves were made;
    returns the world and the number of moves made."""
    world = attrs.evolve(world, budget=env.Budget())
    steps = 0
    while steps < max_steps:
        job = world.job()
        if job is None or finished(job):
            return world, steps
        moves = round_moves(world)
        if world.wake_at is not None:
            moves.append(Move("timer-fires"))
        moves.append(Move("sync"))
        for move in moves:
            world, _ = env.apply_move(world, move, impl)
            steps += 1
        if any(m.kind == "orphan-cleanup" for m in env.enabled_moves(world)):
            world, _ = env.apply_move(world, Move("orphan-cleanup"), impl)
            steps += 1
    return world, steps


def check_liveness(world: env.World, impl: env.SyncImpl) -> Violation | None:
    """From this world, a well-behaved run finishes the Job within `liveness_bound` steps."""
    job = world.job()
    if job is None or finished(job) or job.spec.suspend:
        return None
    bound = liveness_bound(world)
    end, _steps = run_well_behaved(world, impl, bound)
    job = end.job()
    if job is not None and not finished(job) and not held_by_its_predecessor(end):
        return Violation("bounded-liveness", f"the Job did not finish within {bound} well-behaved steps")
    return None
