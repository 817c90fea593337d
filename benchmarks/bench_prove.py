"""Benchmark: `jobmodel prove` against an exhaustive exploration of one small Job.

    .venv/bin/python benchmarks/bench_prove.py

The proofs cover every parallelism, completions count and run length; the baseline, measured in
the same run, is the explorer checking the catalogue on one NonIndexed Job (parallelism 2,
completions 2, backoffLimit 1, one pod failure, one lagging-cache sync, one expiry) until every
reachable state is seen (as benchmarks/bench_explorer.py). Printed: each family's proving time
(wall and CPU; the machine may be shared) and its ratio to the baseline.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_explorer import PAIR
from jobmodel.checkers.explorer import explore
from jobmodel.checkers.job import CheckConfig
from jobmodel.checkers.proofs import suite
from jobmodel.frozen import freeze
from jobmodel.transitions.job_environment import Budget


def timed(run: Callable[[], object]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - wall, time.process_time() - cpu


def prove_family(family: str) -> list[suite.Result]:
    return suite.run_all(only=[f"{family}/"])


def collect(into: list[suite.Result], family: str) -> None:
    into.extend(prove_family(family))


def main() -> None:
    config = CheckConfig(freeze(PAIR), Budget(failures=1, stale=1, expiries=1))
    explored = []
    base_wall, base_cpu = timed(lambda: explored.append(explore(config.system(), 60)))
    print(f"baseline: explore one Job, {explored[0].states} states  {base_wall:6.2f}s wall {base_cpu:6.2f}s cpu")
    total_wall = total_cpu = 0.0
    for family in ("manage-job", "nonindexed", "indexed"):
        results: list[suite.Result] = []
        wall, cpu = timed(partial(collect, results, family))
        total_wall += wall
        total_cpu += cpu
        proved = sum(r.status == "proved" for r in results)
        print(
            f"prove {family + ':':12} {proved}/{len(results)} proved  {wall:6.2f}s wall {cpu:6.2f}s cpu"
            f"  ratio {cpu / base_cpu:5.2f} (cpu)"
        )
    print(f"prove, all: {total_wall:6.2f}s wall {total_cpu:6.2f}s cpu  ratio {total_cpu / base_cpu:5.2f} (cpu)")


if __name__ == "__main__":
    main()
