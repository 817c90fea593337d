"""The explorer on several processes: the frontier partitioned by state hash.

Each `Partition` owns the states whose hash falls to it (`owner`): it remembers them, checks the
state invariants, the liveness property and the `sometimes` properties of the new ones, and
expands its share of each level's frontier (successors and step invariants). A level is two
phases, run by every partition side by side: `expand` (the successors of its frontier, sorted
into one outbox per owner) and `absorb` (the successors other partitions found for it, deduplicated
against what it owns). The coordinator (`explore_parallel`) only carries the outboxes from
partition to partition and decides, level by level, whether to stop.

Exploration stays breadth-first and deterministic: every state carries a key, the indexes of
the moves (in `enabled_moves` order) of the least path to it, compared lexicographically, which
is the order the single-process explorer (jobmodel.checkers.explorer) meets states in. Of the
violations found in a level, the one with the least key (a step invariant before a state
invariant of the same transition) is the one the single-process explorer stops at, and the
counterexample is that key replayed from the initial world. The reachable states are the same;
the counts a run stops with when it finds a violation may differ (it finishes the level).

Where the partitions run is the `Engine`'s choice; the coordinator drives them through the
same three calls (`Driver`: `send`, `receive`, `close`) whatever it is. `processes()` (the
default): a search starts as one partition in this process and forks only once a level's
frontier reaches `fork_at` states (small searches never pay for processes); each process then
keeps its share of what was explored (`Partition.narrow`: fork copies the partition, nothing is
sent). `jobmodel.checkers.dask_partitions.on_dask`: the partitions are actors on a Dask
cluster, each built from the configuration's JSON and starting from the beginning. The number of
partitions is the caller's, or else the engine's: this machine's cores, or the workers of an
existing Dask cluster.

Owners are chosen by Python's `hash`, which for strings is salted per interpreter (and, before
Python 3.12, is an address for None): forked processes share the parent's; the Dask engine
checks that its workers agree.
"""

from __future__ import annotations

import contextlib
import gc
import io
import multiprocessing
import os
import pickle
import time
import traceback
from collections.abc import Callable, Hashable, Iterator, Sequence
from multiprocessing.connection import Connection
from typing import Any, Generic, Protocol, TypeVar

import attrs

from jobmodel.checkers.explorer import (
    FREEZE_EVERY,
    Counterexample,
    ExploreResult,
    Successors,
    explored_states_kept,
)
from jobmodel.checkers.system import System
from jobmodel.features import FeatureGates
from jobmodel.frozen import interned
from jobmodel.invariants.laws import Violation
from jobmodel.state import Job, JobControllerTunables, Pod
from jobmodel.transitions.move import Move

S = TypeVar("S", bound=Hashable)
Key = tuple[int, ...]
# A successor on its way to its owner: the least key found for it so far, and the state.
Arrival = tuple[Key, Any]


@attrs.frozen(order=True)
class Candidate:
    """A transition that breaks a law: its key (the path's move indexes), 0 for a step
    invariant and 1 for a state invariant or liveness (the order of the single-process
    explorer), and the violation."""

    key: Key
    rank: int
    violation: Violation = attrs.field(order=False)


def least(*candidates: Candidate | None) -> Candidate | None:
    found = [c for c in candidates if c is not None]
    return min(found) if found else None


@attrs.frozen
class Expansion:
    """What one partition's `expand` found: one outbox per owner (encoded for it; its own is
    empty: those stay), the least step violation, the transitions tried."""

    outboxes: list[bytes]
    candidate: Candidate | None
    transitions: int


@attrs.frozen
class Absorption:
    """What one partition's `absorb` found: its new states, the least state or liveness
    violation among them, the `sometimes` properties they reach."""

    new_states: int
    candidate: Candidate | None
    reached: frozenset[str]


def _rebuilt(cls: type[Any], fields: tuple[Any, ...]) -> Any:
    return interned(cls(*fields))


def _reduce_interned(value: Any) -> tuple[Any, ...]:
    return _rebuilt, (type(value), attrs.astuple(value, recurse=False))


# Snapshots shared by many states arrive as the receiver's own interned objects, so that states
# from other partitions compare with its own by identity (not field by field).
INTERNED_ON_ARRIVAL = {cls: _reduce_interned for cls in (Pod, Job, FeatureGates, JobControllerTunables)}


class Encoder:
    """One partition's messages to another, pickled with a memo kept from message to message:
    an object sent before (a pod, a Job, a spec shared by many states) goes as a reference."""

    def __init__(self) -> None:
        self.out = io.BytesIO()
        self.pickler = pickle.Pickler(self.out, protocol=pickle.HIGHEST_PROTOCOL)
        self.pickler.dispatch_table = INTERNED_ON_ARRIVAL  # type: ignore[assignment]

    def encode(self, value: Any) -> bytes:
        self.out.seek(0)
        self.out.truncate()
        self.pickler.dump(value)
        return self.out.getvalue()


class Decoder:
    """The receiving end of an `Encoder`: messages must be decoded in the order encoded."""

    def __init__(self) -> None:
        self.buffer = io.BytesIO()
        self.unpickler = pickle.Unpickler(self)

    def read(self, size: int = -1) -> bytes:
        return self.buffer.read(size)

    def readline(self) -> bytes:
        return self.buffer.readline()

    def readinto(self, target: bytearray) -> int:
        return self.buffer.readinto(target)

    def decode(self, data: bytes) -> Any:
        self.buffer = io.BytesIO(data)
        return self.unpickler.load()


def owner(state: Hashable, partitions: int) -> int:
    """The partition that owns a state."""
    return hash(state) % partitions


class Partition(Generic[S]):
    """One share of the explored states (see the module docstring)."""

    def __init__(self, system: System[S, Any], index: int, partitions: int, *, liveness: bool = False) -> None:
        self.system = system
        self.index = index
        self.partitions = partitions
        self.liveness = liveness
        self.owned = 0
        # States this partition owns, and those it already sent to their owners: either way a
        # transition reaching one again brings its owner nothing new.
        self.known: set[S] = set()
        self.frontier: list[tuple[Key, S]] = []
        self.local: list[Arrival] = []
        self.encoders = [Encoder() for _ in range(partitions)]
        self.decoders = [Decoder() for _ in range(partitions)]
        self.successors = Successors(system, self._kept)

    def narrow(self, index: int, partitions: int) -> None:
        """Become partition `index` of `partitions`, keeping only the states it owns (a
        partition that explored alone so far, copied into each process by fork, is split so)."""
        self.index, self.partitions = index, partitions
        self.known = {s for s in self.known if owner(s, partitions) == index}
        self.owned = len(self.known)
        self.frontier = [(k, s) for k, s in self.frontier if owner(s, partitions) == index]
        self.encoders = [Encoder() for _ in range(partitions)]
        self.decoders = [Decoder() for _ in range(partitions)]
        self.successors = Successors(self.system, self._kept)  # its moves so far: of states now another's

    def _kept(self, state: S) -> S | None:
        """`state` if it is new here (kept from now on), None if an equal one is known."""
        return None if state in self.known else state

    def seed(self, root: S) -> None:
        """Own the initial world (already checked by the coordinator)."""
        self.known.add(root)
        self.owned += 1
        self.frontier = [((), root)]

    def expand(self) -> Expansion:
        """The successors of this partition's frontier, in key order, and their step invariants.
        Expansion stops at the first step violation: every later transition has a greater key."""
        outboxes: list[list[Arrival]] = [[] for _ in range(self.partitions)]
        transitions = kept = 0
        found: Candidate | None = None
        for key, state in self.frontier:
            for i, (_move, after, violations) in enumerate(self.successors.of(state)):
                transitions += 1
                if violations:
                    found = Candidate((*key, i), 0, violations[0])
                    break
                if after in self.known:
                    continue
                to = owner(after, self.partitions)
                if to != self.index:
                    self.known.add(after)  # sent away: its owner has it from now on
                outboxes[to].append(((*key, i), after))
                kept += 1
                if kept % FREEZE_EVERY == 0:
                    gc.freeze()  # as the explorer does: the successors kept, out of older collections' walks
            if found is not None:
                break
        self.successors.next_level()
        # This partition's own successors stay here.
        self.local, outboxes[self.index] = outboxes[self.index], []
        encoded = [b"" if j == self.index else self.encoders[j].encode(box) for j, box in enumerate(outboxes)]
        return Expansion(encoded, found, transitions)

    def absorb(self, inboxes: Sequence[bytes]) -> Absorption:
        """Take the successors found for this partition (by the others, in `inboxes` by sender,
        and by itself): those not owned yet, each with its least key, become the next frontier;
        each is checked once."""
        system = self.system
        new: dict[S, Key] = {}
        arrivals = [self.decoders[i].decode(box) for i, box in enumerate(inboxes) if i != self.index]
        for inbox in (*arrivals, self.local):
            for key, state in inbox:
                if state in self.known:
                    continue
                if state not in new or key < new[state]:
                    new[state] = key
        self.local = []
        found: Candidate | None = None
        reached: set[str] = set()
        for state, key in new.items():
            violations = system.laws.check_state(state)
            if not violations and self.liveness and system.liveness is not None:
                late = system.liveness(state)
                violations = [late] if late is not None else []
            if violations:
                found = least(found, Candidate(key, 1, violations[0]))
            for prop in system.laws.sometimes:
                if prop.name not in reached and prop.holds(state):
                    reached.add(prop.name)
        self.known |= new.keys()
        self.owned += len(new)
        self.frontier = sorted(((key, state) for state, key in new.items()), key=lambda entry: entry[0])
        return Absorption(len(new), found, frozenset(reached))


# --- running the partitions -------------------------------------------------------------------


class Driver(Protocol):
    """A partition at work somewhere: `send` starts a call of one of its methods, `receive`
    waits for the result (calls go out to every partition before any result is awaited)."""

    def send(self, method: str, *args: Any) -> None: ...

    def receive(self) -> Any: ...

    def close(self) -> None: ...


class Pool(Protocol):
    """The partitions of one search, as drivers; `grow` hears, before each level, the size of
    its frontier (a pool may add partitions then: `Forking`)."""

    drivers: list[Driver]

    def grow(self, frontier: int) -> None: ...


# Where the partitions run: given the system, its initial world (checked), the number of
# partitions (None: as many as the engine runs side by side) and whether liveness is checked, a
# pool of partitions that own the initial world between them; leaving the context ends them.
Engine = Callable[[System[Any, Any], Any, int | None, bool], contextlib.AbstractContextManager[Pool]]


def local_cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


class InProcess:
    """A partition driven in this process."""

    def __init__(self, partition: Partition[Any]) -> None:
        self.partition = partition

    def send(self, method: str, *args: Any) -> None:
        self._result = getattr(self.partition, method)(*args)

    def receive(self) -> Any:
        return self._result

    def close(self) -> None:
        pass


class WorkerError(RuntimeError):
    """A partition's process failed; the message is its traceback."""


class Forked:
    """A partition in a forked process, driven over a pipe (`send` a call, `receive` its result)."""

    def __init__(self, context: Any, partition: Partition[Any], index: int, partitions: int) -> None:
        self.conn, child = context.Pipe()
        # Forked, the process starts from a copy of `partition` (nothing is pickled), narrowed.
        self.process = context.Process(
            target=_serve, args=(child, partition, index, partitions), daemon=True, name=f"explore-{index}"
        )
        self.process.start()
        child.close()

    def send(self, method: str, *args: Any) -> None:
        self.conn.send((method, args))

    def receive(self) -> Any:
        try:
            ok, value = self.conn.recv()
        except EOFError:
            raise WorkerError(f"partition process {self.process.name} died (exit code {self.process.exitcode})") from None
        if not ok:
            raise WorkerError(value)
        return value

    def close(self) -> None:
        with contextlib.suppress(BrokenPipeError, OSError):
            self.conn.send(None)
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join()
        self.conn.close()


def _serve(conn: Connection, partition: Partition[Any], index: int, partitions: int) -> None:
    partition.narrow(index, partitions)
    with explored_states_kept() as keep:
        while True:
            try:
                request = conn.recv()
            except EOFError:
                return
            if request is None:
                return
            method, args = request
            try:
                conn.send((True, getattr(partition, method)(*args)))
            except Exception:  # reported to the coordinator, which raises it
                conn.send((False, traceback.format_exc()))
            if method == "absorb":
                keep()


FORK_AT = 1000  # frontier states from which exploring on several processes pays


class Forking:
    """The partitions on this machine's processes: the search runs in this process alone until
    a level's frontier reaches `fork_at` states (small searches never pay for processes); then
    it forks, and each process keeps its share (fork copies what was explored)."""

    def __init__(self, system: System[Any, Any], root: Any, workers: int, liveness: bool, fork_at: int) -> None:
        self.workers, self.fork_at = workers, fork_at
        self.local: Partition[Any] = Partition(system, 0, 1, liveness=liveness)
        self.local.seed(root)
        self.drivers: list[Driver] = [InProcess(self.local)]

    def grow(self, frontier: int) -> None:
        if len(self.drivers) < self.workers and frontier >= self.fork_at:
            context = multiprocessing.get_context("fork")
            self.drivers += [Forked(context, self.local, i, self.workers) for i in range(1, self.workers)]
            self.local.narrow(0, self.workers)

    def close(self) -> None:
        for d in self.drivers:
            d.close()


def processes(fork_at: int = FORK_AT) -> Engine:
    """The engine of forked processes on this machine (`Forking`), by default one per core."""

    @contextlib.contextmanager
    def pool(system: System[Any, Any], root: Any, workers: int | None, liveness: bool) -> Iterator[Pool]:
        forking = Forking(system, root, local_cores() if workers is None else workers, liveness, fork_at)
        try:
            yield forking
        finally:
            forking.close()

    return pool


Progress = Callable[[int, int, int, float], None]  # depth, states, queue, seconds


def explore_parallel(
    system: System[S, Any],
    depth: int,
    *,
    workers: int | None = None,
    liveness: bool = False,
    on_level: Progress | None = None,
    fork_at: int = FORK_AT,
    engine: Engine | None = None,
) -> ExploreResult:
    """Breadth-first search to `depth` moves over `workers` partitions (None: the engine's
    default), stopping at the level of the first violation; `on_level` hears (depth, states,
    queue, seconds) after each level. The partitions run where `engine` puts them: by default on
    this machine's processes (`processes(fork_at)`), or on a Dask cluster
    (jobmodel.checkers.dask_partitions). The result counts the partitions that took part."""
    if workers is not None and workers < 1:
        raise ValueError("workers must be at least 1")
    started = time.perf_counter()
    root = system.start()
    root_violations = system.laws.check_state(root)
    if root_violations:
        return ExploreResult(1, 0, 0, time.perf_counter() - started, Counterexample((), root_violations[0]), frozenset(), False)
    reached = {p.name for p in system.laws.sometimes if p.holds(root)}
    run_on = engine if engine is not None else processes(fork_at)
    with explored_states_kept() as keep, run_on(system, root, workers, liveness) as pool:
        states, transitions, new = 1, 0, 1
        for level in range(1, depth + 1):
            pool.grow(new)
            drivers = pool.drivers
            for d in reversed(drivers):  # a local partition last: the others work meanwhile
                d.send("expand")
            expansions: list[Expansion] = [d.receive() for d in drivers]
            transitions += sum(e.transitions for e in expansions)
            for j, d in reversed(list(enumerate(drivers))):
                d.send("absorb", [e.outboxes[j] for e in expansions])
            absorptions: list[Absorption] = [d.receive() for d in drivers]
            keep()
            new = sum(a.new_states for a in absorptions)
            states += new
            for a in absorptions:
                reached |= a.reached
            found = least(*(e.candidate for e in expansions), *(a.candidate for a in absorptions))
            seconds = time.perf_counter() - started
            if on_level is not None:
                on_level(level, states, new, seconds)
            if found is not None:
                moves = replay_key(system, root, found.key)
                counterexample = Counterexample(moves, found.violation)
                return ExploreResult(states, transitions, level, seconds, counterexample, frozenset(reached), False, len(drivers))
            if new == 0:
                return ExploreResult(states, transitions, level, seconds, None, frozenset(reached), True, len(drivers))
        seconds = time.perf_counter() - started
        return ExploreResult(states, transitions, depth, seconds, None, frozenset(reached), False, len(pool.drivers))


def replay_key(system: System[S, Any], root: S, key: Key) -> tuple[Move, ...]:
    """The moves a key names, from the initial world."""
    moves: list[Move] = []
    state = root
    for i in key:
        move = system.enabled_moves(state)[i]
        moves.append(move)
        state, _t = system.successor(state, move)
    return tuple(moves)
