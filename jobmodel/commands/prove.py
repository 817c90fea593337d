"""`jobmodel prove`: run every Z3 proof, one line per property (proved, a counterexample with its
replayable trace, or unknown with the reason) and its time; exit 0 only when all are proved."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from jobmodel.commands.output import print_json
from jobmodel.commands.release import add_release_options
from jobmodel.errors import InputError
from jobmodel.features import parse_kube_version

STATUS_WIDTH = len("counterexample")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "prove",
        help="prove the controller's invariants with Z3, for unbounded counts and any number of steps",
        description=(
            "Prove with Z3 the invariants of docs/invariants.md that docs/proofs.md lists: the "
            "arithmetic of one sync, and inductive invariants of the Job controller with its "
            "environment. A property that does not hold gets a counterexample trace that "
            "`jobmodel replay` reproduces in the executable model."
        ),
    )
    parser.add_argument("-o", "--output", choices=("text", "json"), default="text", help="output format")
    parser.add_argument(
        "--drop", action="append", default=[], metavar="ASSUMPTION",
        help="prove without this assumption (repeatable); the assumptions are listed by --list",
    )
    parser.add_argument(
        "--only", action="append", default=[], metavar="NAME",
        help="run the properties whose name (or its part after the family, e.g. no-over-creation) starts with NAME",
    )
    parser.add_argument(
        "--traces", type=Path, default=None, metavar="DIR",
        help="write counterexample traces here (default: a new temporary directory)",
    )
    parser.add_argument(
        "--search-seconds", type=_positive_seconds, default=None, metavar="S",
        help="search a property that is not inductive for a counterexample for at most S seconds "
        "(default 20); a longer search finds longer runs",
    )
    add_release_options(parser, gates=False)  # the relations of that release; its traces replay there
    parser.add_argument("--list", action="store_true", help="list the properties and assumptions, prove nothing")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        from jobmodel.checkers.proofs import suite  # Z3 is imported only when proving
    except ImportError as err:
        if err.name != "z3":
            raise
        raise InputError("prove", "needs Z3: pip install 'jobmodel[check]' (or z3-solver)") from None

    release = _proof_release(args.kube_version)
    known = suite.assumption_names()
    for name in args.drop:
        if name not in known:
            raise InputError("--drop", f"unknown assumption {name!r} (known: {', '.join(known)})")
    entries = suite.entries(release)
    if args.only and not any(suite.selected(e.name, args.only) for e in entries):
        raise InputError("--only", f"no property matches {args.only} (see --list)")
    if args.list:
        for entry in entries:
            assumed = f"  (assumes {', '.join(entry.assumptions)})" if entry.assumptions else ""
            print(f"{entry.name}{assumed}")
        return 0
    if args.traces is not None:
        _make_traces_dir(args.traces)
    traces_dir = args.traces if args.traces is not None else Path(tempfile.gettempdir()) / f"jobmodel-prove-{time.strftime('%Y%m%d-%H%M%S')}"
    width = max(len(e.name) for e in entries)
    text = args.output == "text"

    def line(result: suite.Result) -> None:
        if not text:
            return
        where = f"  {result.trace}" if result.trace else ""
        reason = f"  {result.detail}" if result.status != "proved" else ""
        print(f"{result.status:<{STATUS_WIDTH}}  {result.name:<{width}}  {result.seconds:6.2f}s{where}{reason}")
        sys.stdout.flush()

    start = time.perf_counter()
    search = suite.SEARCH_SECONDS if args.search_seconds is None else args.search_seconds
    results = suite.run_all(args.only, args.drop, traces_dir, on_result=line, release=release, search_seconds=search)
    seconds = time.perf_counter() - start
    proved = sum(1 for r in results if r.status == "proved")
    outside = suite.moves_outside(release)
    if text:
        print(f"not modelled at {release}, so not in the claims' runs: {_brief_moves(outside)}")
        dropped = f" without {', '.join(args.drop)}" if args.drop else ""
        print(f"{proved} of {len(results)} proved at {release}{dropped} in {seconds:.1f}s")
    else:
        payload = {
            "results": [r.to_json() for r in results],
            "proved": proved,
            "total": len(results),
            "seconds": round(seconds, 3),
            "dropped": list(args.drop),
            "kubeVersion": release,
            "movesNotModelled": outside,
        }
        print_json("ProveResult", payload)
    return 0 if proved == len(results) else 1


def _brief_moves(kinds: list[str]) -> str:
    """The move kinds, the pod moves whose write the cache shows late as one."""
    from jobmodel.transitions.job_environment import DELETE_STALE, EDIT_STALE, STALE_SUFFIX

    def pod_move_seen_late(kind: str) -> bool:
        return kind.endswith(STALE_SUFFIX) and kind not in (EDIT_STALE, DELETE_STALE)

    named = [k for k in kinds if not pod_move_seen_late(k)]
    late = [k for k in kinds if pod_move_seen_late(k)]
    return ", ".join([*named, *([f"the pod moves seen late (*{STALE_SUFFIX})"] if late else [])])


def _positive_seconds(text: str) -> float:
    """--search-seconds: a positive number of seconds."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text!r}")
    return seconds


def _proof_release(text: str) -> str:
    """`--kube-version` as one of PROOF_RELEASES (every supported release: the relations are checked
    against the model at each, docs/proofs.md)."""
    return f"1.{parse_kube_version(text)}"


def _make_traces_dir(path: Path) -> None:
    """Create the `--traces` directory before proving, so that a bad path fails before minutes of work."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise InputError("--traces", f"{path} exists and is not a directory") from None
    except OSError as err:
        raise InputError("--traces", f"cannot create {path}: {err.strerror}") from None
