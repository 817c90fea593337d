"""Benchmark: the explorer's distinct states per second, before and after, on one core and on
several; symmetry reduction; the Hypothesis machine's steps per second.

    .venv/bin/python benchmarks/bench_explorer.py [--baseline REV] [--rounds N] [--workers N] [--deep]

Configurations, each explored by the model with every invariant on every transition:
- `pair`: a NonIndexed Job (parallelism 2, completions 2, backoffLimit 1) with one pod failure
  and one lagging-cache sync allowed, explored to exhaustion (546 states);
- `indexed`: specs/examples/indexed.yaml (Indexed, completions 5, parallelism 3) with one failure
  and one lagging-cache sync, to depth 9 (4,740 states).

Ratios are against baselines measured in the same run, so that the load of other processes
(recorded as the load average) touches both sides alike:
1. before/after: the same exploration by the code of git revision `--baseline` (by default the
   revision before the explorer's speed-ups), unpacked into a temporary directory; each side runs
   in its own process, the rounds alternate, and each side's best CPU time counts
   (`time.process_time`: on a shared machine wall time mostly measures the neighbours);
2. where the time goes: `indexed` with every law and without the laws' invariants (fresh
   processes): the laws' share, and how far the whole run is from 15,000 states/s;
3. symmetry: the same explorer without symmetry reduction (every naming of the pods a state);
4. workers: `explore --workers N` against one process, in wall time (the only one that shows
   parallelism; meaningful only on idle cores);
5. the Hypothesis machine's steps per second against the explorer's transitions per second;
6. with `--deep` (about two minutes more), the deep run a user waits for: `jobmodel explore
   specs/examples/indexed.yaml --failures 1 --stale 1 --depth 16` with `--workers N` and with
   one process, in wall time, against the target of 60 s.

Profile (cProfile of `pair`, before the speed-ups; cumulative shares of the run): canonical
renaming 25% (attrs.evolve of every pod of every state: 20 evolve calls a transition), the
invariants 28% (of which `World.job()` scanned the cluster 19 times a transition, and the
status checks' memo compared Jobs field by field), the sync 16% (57% of its calls repeat an
input already seen: the same cluster with another budget, a sync and a stale sync), deep hashing
12% (worlds, Jobs and pods hashed again at every lookup); state invariants ran again on every
transition into an already-known state. After (docs/performance.md lists the mechanisms):
hashes cached on the snapshots, pods and Jobs of canonical worlds interned, renaming only the
pods whose name changes, a world's Job and pods read once, syncs, clusters after a sync and
canonical forms remembered, state invariants once per state. What remains (`indexed`, shares
of CPU): canonical renaming ~30% (sorting pods by content), the sync ~20% (the model's own
work ~12%), the other moves ~18% (about nine new attrs objects a transition), the step
invariants ~14%.

Second profile (`indexed`, CPU shares, after the above): the sync moves 28% (of which the sync
step itself about half, the rest the cache, applying its actions and the memo's lookups),
canonical renaming 20%, the invariants 17% (step 13%, state 4%), the pod moves 12% (new attrs
objects: `attrs.evolve` costs about 1 us over the constructor it calls, some 7 a transition),
the explorer's own loop with hashing new worlds and the memos ~20%. No part is large enough
that removing it would give more than a fifth; the changes of this round (canonical renaming
sorts by pod content alone when no pod is hidden, uncounted or awaiting a finalizer removal, and
leaves empty uncounted lists alone; budgets and tunables keep their hash; a pod replaced by name
without a closure) give about 1.1x on `indexed`. The next step is a cheaper representation of a
state (docs/performance.md).

Third profile (`indexed` without the invariants, at bb7ff7f: 0.73 s CPU, ~65 us a transition):
the moves 55% (the sync moves 35% though the sync memo answered half of them, the sync step 20%,
pod writes 10%), `attrs.evolve` 24% (97,714 calls: a fields lookup, a getattr per field and a
keyword call each), canonical renaming 22%, hashing and comparing worlds and clusters ~10%, the
enabled moves 5%; at depth 14 the rate fell by 45% (the sync memo, full at depth 13, was
cleared; a memo of canonical forms held 65,536 worlds; the collector walked each level's
states). After (docs/performance.md, third round): a generated evolve per class, identity-first
equality, pod moves remembered per pod and instant, renaming plans remembered, a world's Job and
pods in plain slots: 0.42 s without the invariants (1.7x), 1.44x the whole `indexed`
exploration, 1.35x `pair`; depth 14 of indexed.yaml 40 s -> 25 s CPU. With the guarded step
laws as well: `indexed` 1.85x, `pair` 1.64x, depth 14 21 s. What remains (shares of the whole
`indexed` exploration): step invariants 30%, the sync step 16%, canonical renaming 14%, the
sync's bookkeeping 12%, other moves 9%, the explorer's loop and hashing 12%.

Fourth round (from 60bf0df; docs/performance.md, "Fourth round"): the step laws on syncs read
each world's pods once (a census remembered by the pods tuple) and what a transition is once
(0.184 -> 0.112 s), `sync_job` on small Jobs 56 -> 42 us a call, renaming and the moves ~4%:
`indexed` 1.22x, `pair` 1.36x. What remains: the moves alone (no law) run at ~12,000 states/s,
and the laws take a third of the whole.

Fifth round (from 72c7edb; docs/performance.md, "a move made once per state less its budget"):
a state equal to one expanded in its own level or the one before but in its budget of hostile
moves takes that expansion's results, respent (21% of the transitions of `indexed`, 32% of
`pair`): `indexed` 1.06x, `pair` 1.16x, configurations with API faults 1.18x (instructions).

Sixth profile (by move kind, docs/performance.md "where a transition's time goes, by move"): the
plain syncs, a sixth of the transitions, take half the time (144 us each: the sync step 65 us
when computed, its ~30 step laws 44 us); a pod move 15-22 us; renaming 8.5 us a transition.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, settings  # noqa: E402
from hypothesis.stateful import run_state_machine_as_test  # noqa: E402

from jobmodel.checkers.explorer import ExploreResult, explore  # noqa: E402
from jobmodel.checkers.job import CheckConfig  # noqa: E402
from jobmodel.checkers.machines import state_machine  # noqa: E402
from jobmodel.checkers.parallel import explore_parallel  # noqa: E402
from jobmodel.checkers.trace import StepRecord  # noqa: E402
from jobmodel.frozen import freeze  # noqa: E402
from jobmodel.invariants import catalogue  # noqa: E402
from jobmodel.transitions.job_environment import Budget  # noqa: E402

BASELINE = "43379eb"  # the revision before the explorer's speed-ups
PAIR = {
    "apiVersion": "batch/v1",
    "kind": "Job",
    "metadata": {"name": "bench", "namespace": "default"},
    "spec": {
        "parallelism": 2,
        "completions": 2,
        "backoffLimit": 1,
        "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "main", "image": "busybox"}]}},
    },
}
INDEXED = {
    "apiVersion": "batch/v1",
    "kind": "Job",
    "metadata": {"name": "indexed", "namespace": "default"},
    "spec": {
        "completions": 5,
        "parallelism": 3,
        "completionMode": "Indexed",
        "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "worker", "image": "busybox"}]}},
    },
}
# name -> (manifest, budget, depth)
CONFIGS: dict[str, tuple[dict[str, Any], dict[str, Any], int]] = {
    "pair": (PAIR, {"failures": 1, "stale": 1}, 60),
    "indexed": (INDEXED, {"failures": 1, "stale": 1}, 9),
}
MACHINE_RUNS, MACHINE_STEPS = 30, 25

# Run in a fresh interpreter with the code under test first on sys.path: one exploration, its
# counts and CPU seconds as JSON. Written against the API both revisions share.
MEASURE = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from jobmodel.checkers.explorer import explore
from jobmodel.checkers.job import CheckConfig
from jobmodel.frozen import freeze
from jobmodel.transitions.job_environment import Budget
manifest, budget, depth = json.loads(sys.argv[2])
system = CheckConfig(freeze(manifest), Budget(**budget)).system()
started = time.process_time()
result = explore(system, depth)
print(json.dumps({"states": result.states, "transitions": result.transitions, "cpu": time.process_time() - started}))
"""


# The same, with the laws' invariants left out (only the `sometimes` properties kept): what the
# moves, the sync and canonical renaming cost alone.
WITHOUT_LAWS = MEASURE.replace(
    "system = CheckConfig(freeze(manifest), Budget(**budget)).system()",
    "import attrs\n"
    "from jobmodel.invariants.laws import Laws\n"
    "system = CheckConfig(freeze(manifest), Budget(**budget)).system()\n"
    "system = attrs.evolve(system, laws=Laws([], [], list(system.laws.sometimes)))",
)
TARGET_STATES_PER_SECOND = 15_000


def measure(code: Path, config: str, script: str = MEASURE) -> dict[str, Any]:
    """One exploration of `config` by the code under `code`, in a fresh interpreter."""
    out = subprocess.run(
        [sys.executable, "-c", script, str(code), json.dumps(CONFIGS[config])],
        check=True,
        capture_output=True,
        text=True,
    )
    return dict(json.loads(out.stdout))


def unpack(revision: str, into: Path) -> Path:
    """The `jobmodel` package of a git revision, unpacked (without touching any checkout)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision, "jobmodel"], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def before_after(revision: str, rounds: int) -> None:
    print(f"before/after: revision {revision} against this checkout; best CPU seconds of {rounds} alternating rounds")
    with tempfile.TemporaryDirectory(prefix="jobmodel-baseline-") as tmp:
        old = unpack(revision, Path(tmp))
        for config in CONFIGS:
            best: dict[str, dict[str, Any]] = {}
            for _ in range(rounds):
                for side, code in (("before", old), ("after", ROOT)):
                    run = measure(code, config)
                    if side not in best or run["cpu"] < best[side]["cpu"]:
                        best[side] = run
            b, a = best["before"], best["after"]
            rate_b, rate_a = b["states"] / b["cpu"], a["states"] / a["cpu"]
            # The model's state space may have changed since an old baseline (a new move, fresh
            # UIDs): then both counts are shown and the ratio compares states per second.
            states = f"{a['states']:>6}" if a["states"] == b["states"] else f"{b['states']}->{a['states']}"
            print(
                f"  {config:<8} {states} states  before {b['cpu']:6.2f}s {rate_b:7.0f} states/s   "
                f"after {a['cpu']:6.2f}s {rate_a:7.0f} states/s   ratio {rate_a / rate_b:5.2f}x"
            )


def laws_share(rounds: int) -> None:
    """Where the time of `indexed` goes: the exploration with every law and without the laws'
    invariants, each in fresh interpreters (cold memos, as a user's run), best CPU of `rounds`;
    the laws' share, and what the target rate leaves for the whole run."""
    best: dict[str, dict[str, Any]] = {}
    for _ in range(rounds):
        for side, script in (("every law", MEASURE), ("no law", WITHOUT_LAWS)):
            run = measure(ROOT, "indexed", script)
            if side not in best or run["cpu"] < best[side]["cpu"]:
                best[side] = run
    print(f"where the time goes (indexed, CPU seconds, best of {rounds} fresh processes):")
    for side, run in best.items():
        print(f"  {side:<10} {run['cpu']:6.2f}s {run['states'] / run['cpu']:7.0f} states/s")
    whole, moves = best["every law"]["cpu"], best["no law"]["cpu"]
    states = best["every law"]["states"]
    print(
        f"  the laws' share: {(whole - moves) / whole:.0%}; {TARGET_STATES_PER_SECOND:,} states/s needs the whole run "
        f"in {states / TARGET_STATES_PER_SECOND:.2f}s (now {whole:.2f}s: {whole * TARGET_STATES_PER_SECOND / states:.2f}x to go)"
    )


def cpu_best(fn: Callable[[], ExploreResult], rounds: int) -> tuple[ExploreResult, float]:
    best: tuple[ExploreResult, float] | None = None
    for _ in range(rounds):
        catalogue.forget_cached_checks()  # each run starts cold
        started = time.process_time()
        result = fn()
        seconds = time.process_time() - started
        if best is None or seconds < best[1]:
            best = (result, seconds)
    assert best is not None
    return best


def system_of(config: str, symmetry: bool = True) -> Any:
    manifest, budget, _depth = CONFIGS[config]
    return CheckConfig(freeze(manifest), Budget(**budget), symmetry=symmetry).system()


def symmetry_ratio(rounds: int) -> None:
    depth = CONFIGS["pair"][2]
    plain, plain_s = cpu_best(lambda: explore(system_of("pair", symmetry=False), depth), rounds)
    reduced, reduced_s = cpu_best(lambda: explore(system_of("pair"), depth), rounds)
    print("symmetry (pair, CPU seconds):")
    for name, result, seconds in (("without symmetry", plain, plain_s), ("with symmetry", reduced, reduced_s)):
        print(f"  {name:<17} {result.states:>6} states {result.transitions:>6} transitions {seconds:6.2f}s {result.states / seconds:7.0f} states/s")
    print(f"  time ratio without/with: {plain_s / reduced_s:.2f}x; states ratio: {plain.states / reduced.states:.2f}x")


def cpu_with_children() -> float:
    """CPU seconds of this process and its finished children."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def workers_ratio(workers: int, rounds: int) -> None:
    depth = CONFIGS["indexed"][2] + 1
    walls: dict[int, float] = {}
    cpus: dict[int, float] = {}
    for _ in range(rounds):
        for n in (1, workers):
            started, cpu = time.perf_counter(), cpu_with_children()
            result = explore(system_of("indexed"), depth) if n == 1 else explore_parallel(system_of("indexed"), depth, workers=n)
            walls[n] = min(walls.get(n, float("inf")), time.perf_counter() - started)
            cpus[n] = min(cpus.get(n, float("inf")), cpu_with_children() - cpu)
    print(f"workers (indexed to depth {depth}, {result.states} states, best of {rounds}; wall time shows parallelism only on idle cores):")
    for n in walls:
        print(
            f"  {n} process{'es' if n > 1 else ''}: wall {walls[n]:6.2f}s {result.states / walls[n]:7.0f} states/s, "
            f"CPU of all processes {cpus[n]:6.2f}s"
        )
    print(f"  wall speed-up with {workers}: {walls[1] / walls[workers]:.2f}x; CPU spent: {cpus[workers] / cpus[1]:.2f}x")


DEEP_COMMAND = ["explore", "specs/examples/indexed.yaml", "--failures", "1", "--stale", "1", "--depth", "16", "-o", "json"]
DEEP_TARGET_SECONDS = 60.0


def deep_run(workers: int) -> None:
    """The issue's deep run, as a user types it: `jobmodel explore specs/examples/indexed.yaml
    --failures 1 --stale 1 --depth 16` with `--workers N` and with one process, in wall time
    (what the user waits for; meaningful on idle cores), against the target of 60 s."""
    walls: dict[int, float] = {}
    for n in (workers, 1):
        started, cpu = time.perf_counter(), cpu_with_children()
        out = subprocess.run(
            [sys.executable, "-m", "jobmodel", *DEEP_COMMAND, "--workers", str(n)], cwd=ROOT, check=True, capture_output=True, text=True
        )
        walls[n] = time.perf_counter() - started
        states = json.loads(out.stdout)["states"]
        print(
            f"deep: jobmodel {' '.join(DEEP_COMMAND[:-2])} --workers {n}: {states} states, wall {walls[n]:6.1f}s "
            f"({states / walls[n]:6.0f} states/s), CPU {cpu_with_children() - cpu:6.1f}s; target under {DEEP_TARGET_SECONDS:.0f}s"
        )
    print(f"  wall speed-up with {workers}: {walls[1] / walls[workers]:.2f}x")


def machine_ratio() -> None:
    manifest, budget, depth = CONFIGS["pair"]
    steps: list[StepRecord] = []
    machine = state_machine(CheckConfig(freeze(manifest), Budget(**budget)).system(), on_step=steps.append)
    started = time.process_time()
    run_state_machine_as_test(
        machine,
        settings=settings(
            max_examples=MACHINE_RUNS,
            stateful_step_count=MACHINE_STEPS,
            derandomize=True,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        ),
    )
    seconds = time.process_time() - started
    result, explore_s = cpu_best(lambda: explore(system_of("pair"), depth), 1)
    print(f"hypothesis machine (pair): {len(steps)} steps in {seconds:.2f}s: {len(steps) / seconds:.0f} steps/s")
    print(
        f"  explorer: {result.states / explore_s:.0f} distinct states/s, {result.transitions / explore_s:.0f} transitions/s; "
        f"explorer states/s over machine steps/s: {result.states / explore_s / (len(steps) / seconds):.2f}x"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="the explorer's states per second, before and after")
    parser.add_argument("--baseline", default=BASELINE, help=f"git revision to compare with (default {BASELINE})")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per side (default 3)")
    parser.add_argument("--workers", type=int, default=2, help="processes for the parallel run (default 2)")
    parser.add_argument("--deep", action="store_true", help="also time the deep run to depth 16 (about two minutes)")
    args = parser.parse_args(argv)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} cores")
    for name, (manifest, budget, depth) in CONFIGS.items():
        spec = manifest["spec"]
        shape = f"parallelism {spec['parallelism']}, completions {spec['completions']}, {spec.get('completionMode', 'NonIndexed')}"
        print(f"  {name}: {shape}; budget {budget}; depth {depth}")
    before_after(args.baseline, args.rounds)
    laws_share(args.rounds)
    symmetry_ratio(args.rounds)
    workers_ratio(args.workers, args.rounds)
    machine_ratio()
    if args.deep:
        deep_run(args.workers)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
