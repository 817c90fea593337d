"""`jobmodel replay TRACE`: replay a saved counterexample of a Job or a CronJob (from `jobmodel
explore --save`), checking every invariant again, and print it as a step table."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Final

import attrs

from jobmodel.checkers.trace import (
    StepRecord,
    format_table,
    load_trace,
    recorded_violation,
    run_moves,
)
from jobmodel.commands.explore import steps_json
from jobmodel.commands.output import add_output_option, print_json, wants_json
from jobmodel.errors import InputError, quote
from jobmodel.features import parse_kube_version
from jobmodel.invariants.laws import Violation

# The modules of the sync steps jobmodel ships (the model's; the proofs' variants, which `jobmodel
# prove --traces` names): the only ones a trace file may choose.
SHIPPED_IMPL_MODULES: Final = (
    "jobmodel.transitions.sync_job",
    "jobmodel.transitions.sync_cronjob",
    "jobmodel.checkers.proofs.variants",
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="replay a saved counterexample trace, checking every invariant",
        description="Replay a trace saved by `jobmodel explore --save`, checking every invariant after each move.",
    )
    parser.add_argument("trace", type=Path, help="the trace (JSON)")
    parser.add_argument(
        "--impl",
        default=None,
        help="check this sync step, package.module:function or cmd:PROGRAM (a trace that names another"
        " than jobmodel's own is replayed only when the command line names it: a file does not choose what runs)",
    )
    parser.add_argument(
        "--kube-version", default=None, metavar="X.Y", help="replay at this release instead of the trace's own (its kubeVersion)"
    )
    add_output_option(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    config, moves = load_trace(args.trace)
    if args.impl is not None:
        config = attrs.evolve(config, impl=args.impl)
    elif config.impl.partition(":")[0] not in SHIPPED_IMPL_MODULES:
        # Importing a module or starting a program because a file says so would run whatever a
        # trace from elsewhere names.
        raise InputError(
            f"{args.trace}: config.impl",
            f"the trace was checked with {quote(config.impl)}; replay runs only an implementation the"
            f" command line names: --impl {quote(config.impl)} to run it, --impl {config.DEFAULT_IMPL} for the model's",
        )
    if args.kube_version is not None:
        config = attrs.evolve(config, kube_version=f"1.{parse_kube_version(args.kube_version)}")
    system = config.system()
    records = run_moves(system, moves)
    broken = [v for r in records for v in r.violations]
    recorded = recorded_violation(args.trace)
    if recorded is not None:
        # The violation the trace was saved for first, when it is reproduced.
        same = [v for v in broken if v.invariant == recorded.invariant]
        broken = same or _proof_claim_violations(recorded, system.start(), records) or broken
    if wants_json(args):
        first = broken[0] if broken else None
        print_json(
            "ReplayResult",
            {
                "withoutAssumptions": bool(system.without_assumptions),
                "steps": steps_json(system, records),
                "violation": None if first is None else {"invariant": first.invariant, "message": first.message},
            },
        )
        return 1 if broken else 0
    if system.without_assumptions:
        print("(the invariants are checked outside their assumptions too: the trace breaks one)")
    print(format_table(system, records))
    if broken:
        print(f"violation reproduced: {broken[0]}")
        return 1
    print("no violation")
    return 0


def _proof_claim_violations(recorded: Violation, start: Any, records: list[StepRecord]) -> list[Violation]:
    """A trace of `jobmodel prove` may end by breaking a proof's claim that the catalogue does not
    state (named `<relation>/<proof>`); it is checked on every state or step of the replay."""
    if "/" not in recorded.invariant:
        return []
    from jobmodel.checkers.proofs.suite import claim_violation  # Z3 only for such traces

    worlds = [start, *(r.world for r in records)]
    try:
        message = claim_violation(recorded.invariant, worlds, [r.move for r in records])
    except KeyError:
        return []
    return [Violation(recorded.invariant, message)] if message is not None else []
