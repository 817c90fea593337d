"""The explorer on several processes (jobmodel/checkers/parallel.py): the same reachable states,
the same `sometimes` properties and the same shortest counterexample as the single-process
explorer, whatever the number of partitions."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

from jobmodel.checkers import dask_partitions, parallel
from jobmodel.checkers.explorer import explore
from jobmodel.checkers.parallel import Partition, WorkerError, explore_parallel, owner
from jobmodel.checkers.system import System
from jobmodel.invariants.laws import Laws
from jobmodel.transitions.move import Move
from tests.checkers.configs import BROKEN_CASES, broken_config, config, job_manifest
from tests.checkers.test_cron import cron_config
from tests.checkers.test_system import toy


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_the_same_states_and_properties_as_the_single_process_explorer(workers: int) -> None:
    system = config(job_manifest(2, 2, 1), failures=1, stale=1).system()
    single = explore(system, depth=40)
    parallel = explore_parallel(system, depth=40, workers=workers, fork_at=1)
    assert single.states == 526  # at the default release, 1.37 (546 at 1.32)
    assert (parallel.states, parallel.transitions, parallel.depth, parallel.exhausted) == (
        single.states,
        single.transitions,
        single.depth,
        single.exhausted,
    )
    assert parallel.reached == single.reached and parallel.counterexample is None


def test_without_a_number_of_partitions_there_is_one_per_core(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "local_cores", lambda: 3)
    system = config(job_manifest(2, 2, 1), failures=1).system()
    single, parallel_result = explore(system, depth=40), explore_parallel(system, depth=40, fork_at=1)
    assert parallel_result.partitions == 3 and single.partitions == 1
    assert (parallel_result.states, parallel_result.transitions) == (single.states, single.transitions)


def test_a_search_too_small_to_fork_stays_one_partition() -> None:
    system = config(job_manifest(2, 2, 1), failures=1).system()
    assert explore_parallel(system, depth=40, workers=2).partitions == 1


def test_an_unfinished_depth_counts_the_same_states() -> None:
    system = config(job_manifest(2, 3, 1, indexed=True), failures=1).system()
    single, parallel = explore(system, depth=6), explore_parallel(system, depth=6, workers=2, fork_at=20)
    assert (parallel.states, parallel.exhausted) == (single.states, False)
    assert single.states == 86


@pytest.mark.parametrize("name", sorted(BROKEN_CASES))
@pytest.mark.parametrize("workers", [1, 2, 3])
def test_the_same_shortest_counterexample(name: str, workers: int) -> None:
    cfg, invariant = broken_config(name)
    single = explore(cfg.system(), depth=8).counterexample
    parallel = explore_parallel(cfg.system(), depth=8, workers=workers, fork_at=1).counterexample
    assert single is not None and parallel is not None
    assert parallel == single and parallel.violation.invariant == invariant


def test_ties_between_shortest_counterexamples_go_to_the_first_in_move_order() -> None:
    # Both counters reaching 3 breaks the law; many shortest runs do: the explorers pick the same.
    system = toy(limit=6)
    single = explore(system, depth=20).counterexample
    for workers in (1, 2, 3, 4):
        assert explore_parallel(system, depth=20, workers=workers, fork_at=1).counterexample == single
    assert single is not None and [str(m) for m in single.moves][:1] == [str(Move("up", "0"))]


def test_a_broken_initial_world_is_a_counterexample_of_no_move() -> None:
    found = explore_parallel(toy(limit=0), depth=5, workers=2, fork_at=1).counterexample
    assert found is not None and found.moves == () and found.violation.invariant == "sum-below-limit"


def test_liveness_is_checked_from_every_new_state() -> None:
    system = config(job_manifest(1, 1, 0), failures=1).system()
    assert explore_parallel(system, depth=6, workers=2, liveness=True, fork_at=1).counterexample is None


def test_every_state_has_one_owner_and_each_partition_keeps_only_its_own() -> None:
    system = config(job_manifest(2, 2, 1), failures=1).system()
    root = system.start()
    partitions = [Partition(system, i, 2) for i in range(2)]
    partitions[owner(root, 2)].seed(root)
    for _ in range(6):
        expansions = [p.expand() for p in partitions]
        for j, p in enumerate(partitions):
            p.absorb([e.outboxes[j] for e in expansions])
        assert all(e.outboxes[i] == b"" for i, e in enumerate(expansions))
    for p in partitions:
        mine = [s for s in p.known if owner(s, 2) == p.index]
        assert len(mine) == p.owned and all(owner(s, 2) == p.index for _k, s in p.frontier)


def test_a_failing_partition_process_is_reported_with_its_traceback() -> None:
    def moves(world: int) -> list[Move]:
        return [Move("up")]

    def apply(world: int, move: Move) -> tuple[int, None]:
        if world == 3:
            raise ValueError("the step broke at 3")
        return world + 1, None

    system: System[int, Any] = System(
        kind="Counter",
        initial_world=lambda: 0,
        enabled_moves=moves,
        apply_move=apply,
        laws=Laws(),
        columns=("n",),
        describe=lambda world: (str(world),),
    )
    # hash(n) == n: state 3 is expanded by partition 1, a forked process.
    with pytest.raises(WorkerError, match="the step broke at 3"):
        explore_parallel(system, depth=10, workers=2, fork_at=1)


def test_progress_is_reported_after_every_level() -> None:
    heard: list[tuple[int, int, int]] = []
    explore_parallel(
        config(job_manifest(1, 1, 0)).system(),
        depth=30,
        workers=2,
        fork_at=1,
        on_level=lambda level, states, queue, _seconds: heard.append((level, states, queue)),
    )
    assert [h[0] for h in heard] == list(range(1, len(heard) + 1))
    assert heard[-1][2] == 0 and all(a[1] <= b[1] for a, b in itertools.pairwise(heard))


def test_the_cronjob_system_explores_alike_on_several_processes() -> None:
    system = attrs.evolve(cron_config("Allow"), kube_version="1.32").system()  # the count test_cron pins
    single, parallel = explore(system, depth=40), explore_parallel(system, depth=40, workers=2, fork_at=1)
    assert (parallel.states, parallel.exhausted, parallel.reached) == (single.states, True, single.reached) == (444, True, parallel.reached)


# --- on a Dask cluster (jobmodel/checkers/dask_partitions.py) --------------------------------------


@pytest.fixture(scope="module")
def dask_scheduler() -> Iterator[str]:
    """The address of a local Dask cluster of two workers, shared by this module's tests (a start
    costs about a second); its workers are forked from one server, as the engine's own are."""
    with dask_partitions.local_cluster(2) as cluster:
        yield cluster.scheduler_address


def test_on_dask_the_same_states_transitions_and_properties(dask_scheduler: str) -> None:
    cfg = config(job_manifest(2, 2, 1), failures=1, stale=1)
    single = explore(cfg.system(), depth=40)
    on_dask = explore_parallel(cfg.system(), depth=40, workers=2, engine=dask_partitions.on_dask(cfg, dask_scheduler))
    assert (on_dask.states, on_dask.transitions, on_dask.exhausted, on_dask.reached) == (
        single.states,
        single.transitions,
        True,
        single.reached,
    )


@pytest.mark.parametrize("name", sorted(BROKEN_CASES))
def test_on_dask_the_same_shortest_counterexample(dask_scheduler: str, name: str) -> None:
    cfg, invariant = broken_config(name)
    single = explore(cfg.system(), depth=8).counterexample
    engine = dask_partitions.on_dask(cfg, dask_scheduler)
    # Three partitions on two workers: one worker holds two.
    found = explore_parallel(cfg.system(), depth=8, workers=3, engine=engine).counterexample
    assert found is not None and found == single and found.violation.invariant == invariant


def test_on_dask_a_cronjob_explores_alike(dask_scheduler: str) -> None:
    cfg = attrs.evolve(cron_config("Allow"), kube_version="1.32")  # built on the workers from its JSON
    single = explore(cfg.system(), depth=40)
    on_dask = explore_parallel(cfg.system(), depth=40, workers=2, engine=dask_partitions.on_dask(cfg, dask_scheduler))
    assert (on_dask.states, on_dask.transitions, on_dask.reached) == (single.states, single.transitions, single.reached)
    assert on_dask.exhausted and on_dask.counterexample is None


def test_on_dask_a_lost_worker_is_an_engine_error(dask_scheduler: str) -> None:
    cfg = config(job_manifest(1, 1, 0), impl="tests.checkers.broken.exit_process:sync_job")
    with pytest.raises(dask_partitions.EngineError, match="lost the Dask worker"):
        explore_parallel(cfg.system(), depth=3, workers=2, engine=dask_partitions.on_dask(cfg, dask_scheduler))


def test_on_dask_workers_that_hash_differently_are_an_engine_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # Spawned, each worker draws its own string salt.
    monkeypatch.delenv("PYTHONHASHSEED", raising=False)
    cfg = config(job_manifest(1, 1, 0))
    with (
        dask_partitions.local_cluster(2, start_method="spawn") as cluster,
        pytest.raises(dask_partitions.EngineError, match="PYTHONHASHSEED"),
    ):
        explore_parallel(cfg.system(), depth=3, workers=2, engine=dask_partitions.on_dask(cfg, cluster.scheduler_address))


def test_on_dask_an_unreachable_scheduler_is_an_engine_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dask_partitions, "CONNECT_TIMEOUT", 0.5)
    cfg = config(job_manifest(1, 1, 0))
    with pytest.raises(dask_partitions.EngineError, match=r"could not reach the Dask scheduler at tcp://127\.0\.0\.1:1\b"):
        explore_parallel(cfg.system(), depth=3, workers=2, engine=dask_partitions.on_dask(cfg, "tcp://127.0.0.1:1"))


def test_on_dask_without_the_extra_is_an_engine_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` fails
    cfg = config(job_manifest(1, 1, 0))
    with pytest.raises(dask_partitions.EngineError, match=r"jobmodel\[dask\]"):
        explore_parallel(cfg.system(), depth=3, workers=2, engine=dask_partitions.on_dask(cfg))
