"""`jobmodel explore MANIFEST --depth N`: every interleaving of the controller with a hostile
environment, breadth-first to a depth, every invariant checked, on `--workers` processes (default:
the cores; jobmodel.checkers.parallel) or Dask actors (`--engine dask[=ADDRESS]`, by default one
per core, or one per worker of the cluster at ADDRESS; jobmodel.checkers.dask_partitions) with the
progress after each level on a terminal; prints
the states explored, the rate, and "no violation" or the shortest counterexample (as a step
table; --save writes it as JSON for `jobmodel replay`)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from jobmodel.checkers.cron import CronConfig
from jobmodel.checkers.dask_partitions import EngineError, on_dask
from jobmodel.checkers.explorer import Counterexample, ExploreResult, explore
from jobmodel.checkers.job import CheckConfig, explored_tunable
from jobmodel.checkers.parallel import Engine, explore_parallel, local_cores
from jobmodel.checkers.reachable import RecordingSync, recording_cron_sync, recording_job_sync
from jobmodel.checkers.system import System
from jobmodel.checkers.trace import Config, format_table, run_moves, save_trace
from jobmodel.commands.common import (
    FINDING,
    INPUT_ERROR,
    OK,
    add_object_options,
    add_tunable_option,
    check_output_path,
    gate_overrides,
    gates_of,
    load_object,
    tunables_of,
)
from jobmodel.commands.conformance import check_timeout, engine_choice, make_engine
from jobmodel.commands.oracle import divergences_json, print_divergences
from jobmodel.commands.output import add_output_option, print_json, wants_json
from jobmodel.commands.progress import Task, progress
from jobmodel.errors import InputError, printable, quote
from jobmodel.frozen import freeze
from jobmodel.timeutil import parse_clock
from jobmodel.transitions import job_environment as env
from jobmodel.transitions.cron_environment import CronBudget

if TYPE_CHECKING:
    from jobmodel.checkers.oracle_check import CheckResult

# Budget flags: --NAME N for each count of hostile moves.
BUDGET_FLAGS = {
    "failures": "pod failures (each exit code and pod condition the podFailurePolicy names, and one it does not; with restartPolicy OnFailure, container restarts in place)",
    "evictions": "pod evictions (DisruptionTarget)",
    "deletions": "pod deletions by someone else (graceful: the pod terminates later)",
    "gc": "removals of finished pods that no finalizer holds (pod garbage collection)",
    "stale": "syncs whose created pods reach the informer cache late",
    "stale_patches": "syncs whose removals of the tracking finalizer reach the informer cache late (Job)",
    "stale_deletions": "syncs whose pod deletions reach the informer cache late (Job)",
    "stale_status": "syncs whose Job status writes reach the informer cache late: later syncs read the Job as it was, and their status writes conflict (Job)",
    "stale_edits": "of the --edit edits and --job-deletions deletions that reach the informer cache late: syncs act on the Job as it was before, and their status writes conflict or find no Job (Job)",
    "stale_pod_writes": "pod writes of the kubelet, the pod garbage collector or someone else (a start, readiness, an end, an eviction, a deletion, a removal) that reach the informer cache late (Job)",
    "faults": "syncs with a failing API call (a Job's: a pod or status call; a CronJob's: its Job creates, deletes or reads, its read of the CronJob, or its status write)",
    "restarts": "controller restarts",
    "expiries": "clock jumps past the 5-minute expectations timeout",
    "job_deletions": "deletions of the Job",
    "recreations": "creations of the deleted Job again, under its name and from its manifest (a new uid)",
    "ticks": "minutes passing (CronJob)",
    "crashes": "controller crashes between creating a Job and writing the status (CronJob)",
    "outages": "10-minute controller outages (CronJob)",
    "late": "syncs that come 5 or 40 seconds late (CronJob)",
    "dst": "clock jumps to a minute before the next daylight-saving change of the timeZone (CronJob)",
}


# Bounds of the flags: far beyond what an exploration can finish, small enough to stay integers
# the model's arithmetic takes.
MAX_DEPTH = 10_000
MAX_BUDGET = 10_000
MAX_WORKERS = 256


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "explore",
        help="check every interleaving of the Job or CronJob controller with its environment, to a depth",
        description=(
            "Explore breadth-first every interleaving of controller syncs with environment moves "
            "(pods starting, succeeding, failing; the hostile moves allowed by the flags) for one "
            "Job or CronJob, checking every invariant of docs/invariants.md after each move."
        ),
    )
    parser.add_argument("manifest", help="a Job or CronJob manifest (YAML or JSON; - for standard input)")
    parser.add_argument("--depth", type=int, required=True, help="the number of moves to explore to")
    parser.add_argument(
        "--impl", default=None, help="the sync step to check: package.module:function, or 'cmd:PROGRAM ARGS' speaking the oracle protocol (docs/oracle-protocol.md); default: the model"
    )
    for name, what in BUDGET_FLAGS.items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=int, default=0, metavar="N", help=f"allow N {what}")
    parser.add_argument(
        "--edit", action="append", default=[], metavar="FIELD=VALUE",
        help="allow this Job edit once: parallelism=N, completions=N (elastic), suspend=true|false",
    )
    add_tunable_option(parser)
    add_object_options(parser)
    parser.add_argument(
        "--start", default=None, metavar="TIME",
        help="the clock at the start, RFC 3339 (default 2025-01-01T00:00:00Z); the CronJob is created then",
    )
    parser.add_argument("--no-symmetry", action="store_true", help="do not reduce states by renaming pods")
    parser.add_argument("--liveness", action="store_true", help="also check bounded liveness from every state")
    parser.add_argument("--save", type=Path, metavar="TRACE", help="write the counterexample (JSON) here")
    parser.add_argument(
        "--workers", type=int, default=None, metavar="N",
        help=(
            "partitions exploring side by side, the states partitioned by hash (default: the machine's "
            "cores; with --engine dask=ADDRESS, the cluster's workers)"
        ),
    )
    parser.add_argument(
        "--engine", default="processes", metavar="ENGINE",
        help=(
            "where the --workers partitions run: processes (this machine's, the default), dask (a "
            "local Dask cluster on 127.0.0.1, a worker per partition) or dask=ADDRESS (the Dask "
            "scheduler at ADDRESS, e.g. tcp://127.0.0.1:8786; without --workers, a partition per "
            "worker of its cluster); dask needs the dask extra (docs/performance.md)"
        ),
    )
    parser.add_argument(
        "--against", default=None, type=engine_choice, metavar="upstream|'cmd:PROGRAM ARGS'",
        help=(
            "also put every sync step the exploration reaches to this engine and judge its answer "
            "against the model's: upstream's own code of --kube-version (built and cached), or a "
            "program speaking the oracle protocol; in one process"
        ),
    )
    parser.add_argument(
        "--out", type=Path, default=None, metavar="FILE",
        help="with --against: the vector file divergences are written to (default divergences.json)",
    )
    parser.add_argument(
        "--timeout", type=float, default=None, metavar="SECONDS",
        help="with --against: the longest wait for one answer (default 60)",
    )
    add_output_option(parser)
    parser.set_defaults(func=run)


def load_manifest(args: argparse.Namespace) -> dict[str, Any]:
    """The one Job or CronJob of the manifest, as sent (its namespace filled in) once the API
    server accepts it."""
    return load_object(
        args.manifest, ("Job", "CronJob"), args.namespace, gates_of(args), field_validation=args.field_validation
    ).request


def budget_values(args: argparse.Namespace, budget: type[Any], kind: str) -> dict[str, int]:
    """The counts of hostile moves the flags allow, for a budget class; a flag the kind has no
    such move for is an error."""
    fields = {f.name for f in attrs.fields(budget)}
    values: dict[str, int] = {}
    for name in BUDGET_FLAGS:
        value = getattr(args, name)
        flag = f"--{name.replace('_', '-')}"
        if not 0 <= value <= MAX_BUDGET:
            raise InputError(flag, f"expected 0 to {MAX_BUDGET}, got {value}")
        if name in fields:
            values[name] = value
        elif value:
            raise InputError(flag, f"does not apply to a {kind}")
    return values


def config_from_args(args: argparse.Namespace, manifest: dict[str, Any]) -> Config:
    """The Job's or the CronJob's configuration the flags describe."""
    start = parse_clock(args.start, "--start") if args.start is not None else None
    if manifest.get("kind") == "CronJob":
        for flag, given in (("--edit", args.edit), ("--tunable", args.tunable)):
            if given:
                raise InputError(flag, "applies to Job manifests only")
        budget = CronBudget(**budget_values(args, CronBudget, "CronJob"))
        cron = CronConfig(freeze(manifest), budget, kube_version=f"1.{gates_of(args).release}")
        if start is not None:
            cron = attrs.evolve(cron, start=start)
        return cron if args.impl is None else attrs.evolve(cron, impl=args.impl)
    for edit in args.edit:
        env.validate_edit(edit)
    if args.stale_edits and not (args.edit or args.job_deletions):
        raise InputError(
            "--stale-edits", "needs the Job writes to make late: give them with --edit FIELD=VALUE or --job-deletions N"
        )
    job = CheckConfig(
        manifest=freeze(manifest),
        budget=env.Budget(**budget_values(args, env.Budget, "Job"), edits=tuple(args.edit)),
        features=freeze(gate_overrides(args)),
        symmetry=not args.no_symmetry,
        kube_version=f"1.{gates_of(args).release}",
        tunables=tunables_of(args.tunable, explored_tunable),
    )
    if start is not None:
        job = attrs.evolve(job, start=start)
    return job if args.impl is None else attrs.evolve(job, impl=args.impl)


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.depth <= MAX_DEPTH:
        raise InputError("--depth", f"expected 0 to {MAX_DEPTH}, got {args.depth}")
    workers: int | None = args.workers
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise InputError("--workers", f"expected 1 to {MAX_WORKERS}, got {workers}")
    check_output_path(args.save, "--save")
    config = config_from_args(args, load_manifest(args))
    recorder = against_recorder(args, config, workers)
    system: System[Any, Any] = config.system(recorder)
    config.initial_world()  # a rejected manifest is reported before exploring
    engine = engine_of(args.engine, config)
    if recorder is not None:
        workers = 1
    with progress(f"exploring to depth {args.depth}", args.depth) as task:
        levels = LevelProgress(task)
        if engine is None and (local_cores() if workers is None else workers) == 1:
            result = explore(system, args.depth, liveness=args.liveness, on_level=levels.single)
        else:
            try:
                result = explore_parallel(
                    system, args.depth, workers=workers, liveness=args.liveness, on_level=levels, engine=engine
                )
            except EngineError as e:
                raise InputError("--engine", str(e)) from None
    found = result.counterexample
    compared = None if recorder is None else compare_reached(args, recorder, f"1.{gates_of(args).release}")
    if wants_json(args):
        records = run_moves(system, found.moves) if found is not None else []
        document = explore_json(system, result, records)
        if compared is not None:
            document["against"] = against_json(args, compared)
        print_json("ExploreResult", document)
    else:
        print_result(result, sometimes_names(system))
        if found is not None:
            print(format_table(system, run_moves(system, found.moves)))
        if compared is not None:
            print_against(args, compared)
    if found is not None and args.save is not None:
        save_trace(args.save, config, found.moves, found.violation)
        if not wants_json(args):
            print(f"trace written to {args.save}")
    if compared is not None and compared.aborted is not None:
        print(printable(f"error: --against: {compared.aborted}"), file=sys.stderr)
        return INPUT_ERROR
    return FINDING if found is not None or (compared is not None and compared.divergences) else OK


def against_recorder(args: argparse.Namespace, config: Config, workers: int | None) -> RecordingSync[Any, Any] | None:
    """With --against: the configuration's sync step, keeping every input it is given (the
    exploration then runs in one process, where it can keep them)."""
    if args.against is None:
        for flag, given in (("--out", args.out), ("--timeout", args.timeout)):
            if given is not None:
                raise InputError(flag, "only with --against (it names where divergences go and how long to wait for an answer)")
        return None
    # The default applied here, so that --out given without --against can be told from it.
    args.out = Path("divergences.json") if args.out is None else args.out
    if args.against in ("model", "live"):
        raise InputError("--against", f"expected upstream or cmd:PROGRAM [ARGS...], got {args.against}")
    if workers not in (None, 1) or args.engine != "processes":
        raise InputError("--workers", "--against explores in one process (it keeps the sync steps the model computes)")
    if args.timeout is not None:  # else make_engine's default
        check_timeout(args.timeout)
    check_output_path(args.out, "--out")
    if isinstance(config, CheckConfig):
        return recording_job_sync(config.sync_impl())
    return recording_cron_sync(config.sync_impl())


def compare_reached(args: argparse.Namespace, recorder: RecordingSync[Any, Any], release: str) -> CheckResult:
    """Every distinct sync step the exploration reached, put to the --against engine and judged;
    upstream's own code is the reference (asked again where its answer depends on its cache's
    order), a program is judged against the model."""
    from jobmodel.checkers.oracle_check import check_cases

    cases = recorder.reached()
    engine = make_engine(args.against, args)
    try:
        with progress(f"comparing {len(cases)} sync steps with {args.against}", len(cases)) as task:
            return check_cases(
                engine, recorder.suite, cases, args.out,
                lambda p: task.update(completed=p.cases, note=f"{p.divergences} divergences"),
                engine_is_reference=args.against == "upstream", release=release,
            )
    finally:
        close = getattr(engine, "close", None)
        if close is not None:
            close()


def print_against(args: argparse.Namespace, compared: CheckResult) -> None:
    """The comparison for people: each divergence and what differs, then the verdict line."""
    print_divergences(compared)
    steps = f"{compared.cases} sync steps reached"
    unsupported = f" ({compared.unsupported} unsupported)" if compared.unsupported else ""
    if compared.aborted is not None:
        print(f"the comparison with {args.against} stopped at reached sync step {compared.cases}; the case that caused it is in {args.out}")
    elif not compared.divergences:
        print(f"{args.against} agrees with the model on all {steps}{unsupported}")
    else:
        count = len(compared.divergences)
        print(f"{count} divergence{'s' if count > 1 else ''} from {args.against} in the {steps}{unsupported}: minimal cases written to {args.out}")


def against_json(args: argparse.Namespace, compared: CheckResult) -> dict[str, Any]:
    """The comparison for programs (docs/output.md)."""
    written = bool(compared.divergences) or compared.aborted is not None
    return {
        "engine": args.against,
        "cases": compared.cases,
        "unsupported": compared.unsupported,
        "divergences": divergences_json(compared),
        "out": str(args.out) if written else None,
        "aborted": compared.aborted,
    }


def engine_of(spec: str, config: Config) -> Engine | None:
    """The engine `--engine` names (None: this machine's processes)."""
    if spec == "processes":
        return None
    if spec == "dask":
        return on_dask(config)
    if spec.startswith("dask=") and spec != "dask=":
        return on_dask(config, spec.removeprefix("dask="))
    raise InputError("--engine", f"expected processes, dask or dask=ADDRESS, got {quote(spec)}")


class LevelProgress:
    """The exploration's progress after each level on the progress display (jobmodel.commands.
    progress): the depth reached, and the states, states/s and queue of new states as its note."""

    def __init__(self, task: Task) -> None:
        self.task = task
        self.started = time.perf_counter()
        self.states = 1  # the initial world

    def __call__(self, depth: int, states: int, queue: int, seconds: float) -> None:
        rate = states / seconds if seconds > 0 else 0.0
        self.task.update(completed=depth, note=f"{states} states, {rate:.0f} states/s, queue {queue}")

    def single(self, depth: int, states: int) -> None:
        """The single-process explorer's report (the queue is the level's new states)."""
        queue, self.states = states - self.states, states
        self(depth, states, queue, time.perf_counter() - self.started)


def sometimes_names(system: System[Any, Any]) -> list[str]:
    """The system's `sometimes` properties, in the catalogue's order."""
    return [prop.name for prop in system.laws.sometimes]


def print_result(result: ExploreResult, sometimes: list[str] | None = None) -> Counterexample | None:
    """The summary lines every exploration prints; returns the counterexample, if any. With the
    system's `sometimes` properties, says which were reached and warns when none was: a pass
    that never reached an interesting state says little."""
    scope = "all reachable states" if result.exhausted else f"to depth {result.depth}"
    spread = f" on {result.partitions} partitions" if result.partitions > 1 else ""
    print(
        f"explored {result.states} states, {result.transitions} transitions ({scope}) "
        f"in {result.seconds:.2f}s: {result.states_per_second:.0f} states/s{spread}"
    )
    names = sometimes if sometimes is not None else sorted(result.reached)
    reached = [n for n in names if n in result.reached]
    missed = [n for n in names if n not in result.reached]
    if reached:
        print(f"reached ({len(reached)} of {len(names)} sometimes properties): " + ", ".join(reached))
    if missed and sometimes is not None:
        print("not reached: " + ", ".join(missed))
    found = result.counterexample
    if found is None:
        print("no violation")
        if sometimes and not reached:
            print(
                "warning: no sometimes property was reached, so the invariants held only on uninteresting "
                "states; explore deeper (--depth) or allow more moves (e.g. --ticks for a CronJob)",
                file=sys.stderr,
            )
        return None
    print(f"violation: {found.violation} (shortest counterexample, {len(found.moves)} moves)")
    return found


def explore_json(system: System[Any, Any], result: ExploreResult, records: list[Any]) -> dict[str, Any]:
    """The exploration for programs (docs/output.md)."""
    found = result.counterexample
    return {
        "states": result.states,
        "transitions": result.transitions,
        "depth": result.depth,
        "exhausted": result.exhausted,
        "seconds": round(result.seconds, 3),
        "partitions": result.partitions,
        "sometimes": [
            {"name": prop.name, "reached": prop.name in result.reached, "description": prop.doc}
            for prop in system.laws.sometimes
        ],
        "violation": None
        if found is None
        else {"invariant": found.violation.invariant, "message": found.violation.message},
        "counterexample": None if found is None else steps_json(system, records),
    }


def steps_json(system: System[Any, Any], records: list[Any]) -> list[dict[str, Any]]:
    """Each step of a run: the move, the system's columns after it, the invariants it broke."""
    return [
        {
            "step": i,
            "move": rec.move.to_json(),
            "state": dict(zip(system.columns, system.describe(rec.world), strict=True)),
            "violations": [{"invariant": v.invariant, "message": v.message} for v in rec.violations],
        }
        for i, rec in enumerate(records, 1)
    ]
