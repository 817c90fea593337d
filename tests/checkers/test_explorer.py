"""The exhaustive explorer: exact reachable-state counts for fixed configurations (so a change in
semantics shows up; each also found by a plain search, `configs.plain_search`), no violation on
the model, every broken variant caught with a shortest
counterexample, and symmetry reduction that shrinks the space without changing verdicts."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from jobmodel.checkers.explorer import Successors, explore
from jobmodel.checkers.system import System
from jobmodel.checkers.trace import run_moves
from jobmodel.transitions.job_environment import World, enabled_moves
from tests.checkers.configs import (
    ALL_MUTATION_CASES,
    BROKEN_CASES,
    FAIL_INDEX_ON_42,
    FAIL_JOB_ON_42,
    IGNORE_DISRUPTION,
    broken_config,
    config,
    job_manifest,
    mutation_config,
    plain_search,
)

PAIR = job_manifest(2, 2, 1)


@pytest.mark.parametrize(
    ("symmetry", "states"),
    [(True, 206), (False, 401)],
)
def test_reachable_states_of_a_small_job_are_pinned(symmetry: bool, states: int) -> None:
    system = config(PAIR, symmetry=symmetry, failures=1).system()
    result = explore(system, depth=40)
    assert result.counterexample is None
    assert result.exhausted
    assert result.states == states == plain_search(system, 40)


def test_symmetry_reduction_keeps_every_reachable_job_status() -> None:
    # At the default release, 1.37 (at 1.32: 546 and 1065).
    states = {True: 526, False: 1026}

    def statuses(symmetry: bool) -> set[object]:
        seen: set[object] = set()

        def keep(world: World) -> None:
            job = world.job()
            assert job is not None
            u = job.status.uncounted_terminated_pods
            sizes = (len(u.succeeded), len(u.failed)) if u is not None else None
            seen.add((attrs.evolve(job.status, uncounted_terminated_pods=None), sizes))

        system = config(PAIR, symmetry=symmetry, failures=1, stale=1).system()
        result = explore(system, depth=40, on_state=keep)
        assert result.exhausted and result.states == states[symmetry] == plain_search(system, 40)
        return seen

    assert statuses(True) == statuses(False)


def test_every_sometimes_property_is_reached_somewhere() -> None:
    pair = explore(config(job_manifest(2, 2, 1), failures=1).system(), depth=40)
    single = explore(config(job_manifest(1, 1, 0), failures=1).system(), depth=40)
    assert (pair.states, single.states) == (206, 13)
    reached = pair.reached | single.reached
    assert reached == {"a Job completes", "a Job fails", "a pod is recreated after back-off"}


@pytest.mark.parametrize(
    ("manifest", "budget", "states"),
    [
        # 1.32 breaks no-over-creation-on-stale-cache here (test_catalogue shows how): 1.37 only.
        (job_manifest(1, 1, 1), {"failures": 1, "stale": 1, "expiries": 1}, {"1.37": 91}),
        (job_manifest(2, 2, 1), {"failures": 1, "stale": 1}, {"1.32": 546, "1.37": 526}),
        (job_manifest(2, 2, 1, indexed=True), {"failures": 1}, {"1.32": 401, "1.37": 401}),
        (job_manifest(1, 2, 1), {"failures": 1, "faults": 1, "restarts": 1}, {"1.32": 693, "1.37": 693}),
        (job_manifest(2, 2, 0), {"failures": 1, "evictions": 1, "deletions": 1}, {"1.32": 312, "1.37": 312}),
        (job_manifest(2, 3, 1), {"edits": ("suspend=true", "parallelism=1")}, {"1.32": 629, "1.37": 627}),
        (job_manifest(2, 2, 1, indexed=True), {"edits": ("completions=1",)}, {"1.32": 161, "1.37": 161}),
        (job_manifest(2, 2, 1, indexed=True), {"failures": 1, "edits": ("completions=1",)}, {"1.32": 1443, "1.37": 1425}),
        (
            job_manifest(2, 2, 6, indexed=True, backoffLimitPerIndex=1, maxFailedIndexes=1),
            {"failures": 2},
            {"1.32": 2481, "1.37": 2668},
        ),
        (
            job_manifest(1, 2, 1, podFailurePolicy={"rules": [FAIL_JOB_ON_42, IGNORE_DISRUPTION]}),
            {"failures": 2, "deletions": 1, "gc": 1},
            {"1.32": 5949, "1.37": 5949},
        ),
        (
            job_manifest(1, 1, 2, activeDeadlineSeconds=30, podReplacementPolicy="Failed"),
            {"failures": 1, "deletions": 1},
            {"1.32": 780, "1.37": 780},
        ),
        (
            job_manifest(2, 2, 6, indexed=True, backoffLimitPerIndex=0, podFailurePolicy={"rules": [FAIL_INDEX_ON_42]}),
            {"failures": 2},
            {"1.32": 167, "1.37": 167},
        ),
        (job_manifest(2, 2, 1, restart_policy="OnFailure"), {"failures": 2, "stale_pod_writes": 1}, {"1.32": 1615, "1.37": 1885}),
    ],
    ids=[
        "stale-expiry", "stale", "indexed", "faults-restart", "evict-delete", "suspend-scale", "elastic", "elastic-fail",
        "per-index", "pod-failure-policy", "deadline-replace-failed", "fail-index", "on-failure",
    ],
)
def test_the_model_breaks_no_invariant(manifest: dict[str, Any], budget: dict[str, Any], states: dict[str, int]) -> None:
    """No violation, in a pinned number of states (to depth 16) per release: a change of the
    model's semantics or of the environment's moves shows up as a changed count. (1.37 waits on
    its own writes with the consistency store, and keeps active pods during the back-off: fewer
    or other states than 1.32.)"""
    for release, count in states.items():
        system = config(manifest, kube_version=release, **budget).system()
        result = explore(system, depth=16)
        assert result.counterexample is None, (release, result.counterexample)
        assert result.states == count == plain_search(system, 16), release


def test_an_on_failure_job_fails_by_its_container_restarts_alone() -> None:
    """With restartPolicy OnFailure a failed container restarts in place: no pod fails on its
    own, yet the Job fails (backoffLimit), its running pods deleted."""
    kinds: set[str] = set()
    restarts: set[int] = set()

    def keep(world: World) -> None:
        kinds.update(m.kind for m in enabled_moves(world))
        restarts.update(c.restart_count for p in world.own_pods() for c in p.status.container_statuses)

    result = explore(config(job_manifest(2, 2, 1, restart_policy="OnFailure"), failures=2).system(), depth=16, on_state=keep)
    assert result.exhausted and result.counterexample is None
    assert "a Job fails" in result.reached
    assert "restart-container" in kinds and "fail" not in kinds
    assert restarts == {0, 1, 2}


@pytest.mark.parametrize("name", sorted(BROKEN_CASES))
@pytest.mark.parametrize("symmetry", [True, False])
def test_every_broken_variant_is_caught_with_a_shortest_trace(name: str, symmetry: bool) -> None:
    cfg, invariant = broken_config(name, symmetry)
    result = explore(cfg.system(), depth=8)
    assert result.counterexample is not None
    assert result.counterexample.violation.invariant == invariant
    # The trace replays to the same violation at its last step, and nowhere before.
    records = run_moves(cfg.system(), result.counterexample.moves)
    assert records[-1].violations[0].invariant == invariant
    assert not any(r.violations for r in records[:-1])
    # Breadth-first: no shorter run breaks an invariant.
    shorter = explore(cfg.system(), depth=len(result.counterexample.moves) - 1)
    assert shorter.counterexample is None


def test_liveness_holds_from_every_state_of_a_small_job() -> None:
    result = explore(config(job_manifest(2, 2, 1), failures=1, stale=1).system(), depth=8, liveness=True)
    assert result.counterexample is None
    assert result.states == 186  # 187 at 1.32



def expanded_both_ways(system: System[Any, Any], depth: int) -> int:
    """Breadth-first to `depth`, every state's successors made move by move and by Successors,
    which must agree (the states, in order, and the step violations); the moves it answered."""
    successors = Successors(system)
    frontier = [system.start()]
    seen = set(frontier)
    for _ in range(depth):
        next_frontier = []
        for state in frontier:
            made = []
            for move in system.enabled_moves(state):
                after, transition = system.successor(state, move)
                made.append((move, after, system.laws.check_step(transition)))
            assert list(successors.of(state)) == made
            for _move, after, _violations in made:
                if after not in seen:
                    seen.add(after)
                    next_frontier.append(after)
        successors.next_level()
        frontier = next_frontier
    return successors.answered


@pytest.mark.parametrize("name", sorted(ALL_MUTATION_CASES))
def test_a_move_answered_for_another_budget_is_the_move_made(name: str) -> None:
    """Successors answers a move of a state from the expansion of a state equal but in its budget:
    on every state of each broken variant's exploration and the model's on its configuration
    (Job and CronJob, to the case's depth), every answer is the state and the step violations
    that making the move gives."""
    for broken in (True, False):
        expanded_both_ways(mutation_config(name, broken=broken).system(), ALL_MUTATION_CASES[name].depth)


@pytest.mark.parametrize(
    ("cfg", "depth"),
    [
        (config(job_manifest(2, 3, 1, indexed=True), failures=1, stale=1, faults=1, restarts=1), 6),
        (config(job_manifest(2, 3, 1), edits=("parallelism=1", "suspend=true"), stale=1, expiries=1), 6),
        (mutation_config("cron_name_by_sync_time", broken=False), 8),
    ],
    ids=["job-faults", "job-edits", "cron-crash"],
)
def test_moves_are_answered_where_budgets_differ(cfg: Any, depth: int) -> None:
    """Where hostile moves are spent (a lagging cache caught up, a failed call retried, a
    restart, a Job edit), states equal but in their budget are met and their moves answered;
    each answer is the move made, and the exploration finds the same as without answers."""
    system = cfg.system()
    assert expanded_both_ways(system, depth) > 0
    answered, made = explore(system, depth), explore(attrs.evolve(system, budget=None), depth)
    assert attrs.evolve(answered, seconds=0) == attrs.evolve(made, seconds=0)
