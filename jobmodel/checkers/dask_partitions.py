"""The explorer's partitions (jobmodel.checkers.parallel) as actors on a Dask cluster: the engine
of `jobmodel explore --engine dask[=ADDRESS]` (the `dask` extra: `pip install 'jobmodel[dask]'`).

Without an address, a `distributed.LocalCluster` of one worker process per partition (by
default one per core), bound to 127.0.0.1 (no dashboard), lives as long as the search; with one,
the search connects to that scheduler and leaves its cluster running, and there are by default as
many partitions as the cluster has workers: a worker runs its actors' calls one at a time, on one
thread, whatever its `nthreads`, so more partitions than workers would only take turns. Each
partition is an actor built on its worker from the configuration's JSON (systems hold closures,
so they do not travel) and starts from the beginning: the owner of the initial world seeds it.

Owners are chosen by `hash`, which must agree between the workers: strings are salted per
interpreter (`PYTHONHASHSEED`), and before Python 3.12 `hash(None)` is the object's address.
The local cluster's workers are forked from one server process (`forkserver`), so they agree;
the workers of an existing cluster need one `PYTHONHASHSEED` on Python 3.12 or later, or to be
forked from one server too (docs/performance.md).
Each actor reports its hashes, and workers that disagree are an error, never a wrong result.
"""

from __future__ import annotations

import contextlib
import logging
import traceback
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from jobmodel.checkers.explorer import explored_states_kept
from jobmodel.checkers.parallel import (
    Driver,
    Engine,
    Partition,
    Pool,
    WorkerError,
    local_cores,
    owner,
)
from jobmodel.checkers.system import System
from jobmodel.checkers.trace import CONFIGS, Config

CONNECT_TIMEOUT = 10.0  # seconds to reach a scheduler (and for it to have a worker)
# Seconds for a worker to build its partition: a spawned worker imports jobmodel and builds the
# system first, which took over 10 s on a loaded machine.
PLACE_TIMEOUT = 60.0


class EngineError(RuntimeError):
    """The Dask cluster cannot run the search (unreachable, a worker lost, workers that hash
    differently); the message is one line."""


class PartitionActor:
    """A partition on a Dask worker. Every call goes through `run`, which returns (True, result)
    or (False, traceback): an error of the model is told from an error of the engine."""

    def __init__(self, kind: str, config: Mapping[str, Any], index: int, partitions: int, liveness: bool) -> None:
        self.kind, self.config = kind, config
        self.index, self.partitions, self.liveness = index, partitions, liveness
        self.partition: Partition[Any] | None = None
        self.kept = contextlib.ExitStack()
        self.keep: Callable[[], None] = lambda: None

    def start(self) -> tuple[int, int, int]:
        """Build the system and the partition (seeded if it owns the initial world); returns the
        hashes the owners depend on: None's, a string's and the initial world's."""
        # The collector tuned as in the other engines, until `close`.
        self.keep = self.kept.enter_context(explored_states_kept())
        system: System[Any, Any] = CONFIGS[self.kind].from_json(self.config).system()
        self.partition = Partition(system, self.index, self.partitions, liveness=self.liveness)
        root = system.start()
        if owner(root, self.partitions) == self.index:
            self.partition.seed(root)
        return hash(None), hash("jobmodel"), hash(root)

    def run(self, method: str, *args: Any) -> tuple[bool, Any]:
        try:
            if method == "start":
                return True, self.start()
            if method == "close":
                self.partition = None
                self.kept.close()
                return True, None
            result = getattr(self.partition, method)(*args)
        except Exception:  # reported to the coordinator, which raises it
            return False, traceback.format_exc()
        if method == "absorb":
            self.keep()
        return True, result


class ActorDriver:
    """A `PartitionActor` driven from the coordinator."""

    def __init__(self, actor: Any, worker: str) -> None:
        self.actor, self.worker = actor, worker
        self.future: Any = None

    def send(self, method: str, *args: Any) -> None:
        try:
            self.future = self.actor.run(method, *args)
        except Exception as e:
            raise lost(self.worker, e) from None

    def receive(self) -> Any:
        try:
            ok, value = self.future.result()
        except Exception as e:
            raise lost(self.worker, e) from None
        if not ok:
            raise WorkerError(value)
        return value

    def close(self) -> None:
        with contextlib.suppress(Exception):  # a lost worker has nothing left to close
            self.actor.run("close").result(timeout=CONNECT_TIMEOUT)


def lost(worker: str, error: Exception) -> EngineError:
    return EngineError(f"lost the Dask worker {worker}: {one_line(error)}")


def one_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 200 else text[:197] + "..."


class DaskPool:
    """`workers` partition actors (None: one per worker of the cluster) spread over the
    cluster's workers, in address order."""

    def __init__(self, client: Any, config: Config, workers: int | None, liveness: bool) -> None:
        try:
            client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
            addresses = sorted(client.scheduler_info()["workers"])
            if workers is None:
                workers = len(addresses)
            placed = [addresses[i % len(addresses)] for i in range(workers)]
            futures = [
                client.submit(
                    PartitionActor, config.KIND, config.to_json(), i, workers, liveness,
                    actor=True, workers=[w], allow_other_workers=False, pure=False,
                )
                for i, w in enumerate(placed)
            ]
            actors = [f.result(timeout=PLACE_TIMEOUT) for f in futures]
        except Exception as e:
            raise EngineError(f"could not place the partitions on the Dask workers: {one_line(e)}") from None
        self.drivers: list[Driver] = [ActorDriver(a, w) for a, w in zip(actors, placed, strict=True)]
        for d in self.drivers:
            d.send("start")
        hashes = {w: d.receive() for d, w in zip(self.drivers, placed, strict=True)}
        if len(set(hashes.values())) > 1:
            raise EngineError(
                "the Dask workers hash states differently, so they cannot agree which owns which: run "
                "them on Python 3.12 or later with one PYTHONHASHSEED, or fork them from one server "
                "(docs/performance.md)"
            )

    def grow(self, frontier: int) -> None:
        pass


def on_dask(config: Config, address: str | None = None) -> Engine:
    """The engine running the partitions as actors on Dask: a local cluster of one worker
    process per partition (on 127.0.0.1; by default one per core), or the cluster whose
    scheduler is at `address` (by default one partition per worker)."""

    @contextlib.contextmanager
    def pool(system: System[Any, Any], root: Any, workers: int | None, liveness: bool) -> Iterator[Pool]:
        # A local cluster has a worker per partition; by default, one per core.
        with _client(address, local_cores() if workers is None else workers) as client:
            dask_pool = DaskPool(client, config, workers, liveness)
            try:
                yield dask_pool
            finally:
                for d in dask_pool.drivers:
                    d.close()

    return pool


@contextlib.contextmanager
def local_cluster(workers: int, start_method: str = "forkserver") -> Iterator[Any]:
    """A Dask cluster of `workers` worker processes on 127.0.0.1 (every socket, the scheduler's
    HTTP server included, on the loopback interface; no dashboard), forked from one server
    process (`start_method`), so that they hash alike (see the module docstring)."""
    dask_config, distributed = _imported()
    with (
        dask_config.config.set({"distributed.worker.multiprocessing-method": start_method}),
        distributed.LocalCluster(
            host="127.0.0.1", n_workers=workers, threads_per_worker=1, processes=True,
            dashboard_address=None, scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
            silence_logs=logging.CRITICAL,
        ) as cluster,
    ):
        yield cluster


def _imported() -> tuple[Any, Any]:
    try:
        import dask as dask_config
        import distributed
    except ImportError:
        raise EngineError("needs the dask extra: pip install 'jobmodel[dask]'") from None
    return dask_config, distributed


@contextlib.contextmanager
def _client(address: str | None, workers: int) -> Iterator[Any]:
    """A client of the scheduler at `address`, or of a local cluster of `workers` workers."""
    _dask_config, distributed = _imported()
    with contextlib.ExitStack() as stack:
        try:
            if address is None:
                cluster = stack.enter_context(local_cluster(workers))
                client = stack.enter_context(distributed.Client(cluster))
            else:
                client = stack.enter_context(distributed.Client(address, timeout=CONNECT_TIMEOUT))
        except Exception as e:
            where = "start a local Dask cluster" if address is None else f"reach the Dask scheduler at {address}"
            raise EngineError(f"could not {where}: {one_line(e)}") from None
        yield client
