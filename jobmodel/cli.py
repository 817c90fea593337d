"""The `jobmodel` command line: a thin shell over the commands in `jobmodel.commands`.

Exit codes, the same for every command (README, "Exit codes"): 0 all good; 1 a finding (an
invalid object, a violation, a failed vector, an unmet expectation); 2 a usage or input error;
3 an internal error (one line, `internal error: ...`; `--debug` shows the traceback).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import sys
import traceback
from collections.abc import Sequence
from typing import TextIO

from jobmodel.commands.common import FINDING, INPUT_ERROR, INTERNAL_ERROR, INTERRUPTED, Rejected
from jobmodel.errors import InputError, printable

# Each module provides `register(subparsers)`, which adds its sub-command and sets `func`
# (args -> exit code) as the parser's default.
COMMAND_MODULES = (
    "jobmodel.commands.cluster",
    "jobmodel.commands.conformance",
    "jobmodel.commands.cron",
    "jobmodel.commands.explore",
    "jobmodel.commands.prove",
    "jobmodel.commands.live",
    "jobmodel.commands.oracle",
    "jobmodel.commands.replay",
    "jobmodel.commands.simulate",
    "jobmodel.commands.validate",
    "jobmodel.commands.version",
)


def version_text() -> str:
    """`jobmodel --version`: the package's version and the releases it models (docs/versions.md)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        mine = version("jobmodel")
    except PackageNotFoundError:  # run from a checkout that was never installed
        mine = "unknown"
    from jobmodel.features import NEWEST_RELEASE, RELEASE_PINS, SUPPORTED_MINORS

    oldest, newest = RELEASE_PINS[SUPPORTED_MINORS[0]], RELEASE_PINS[SUPPORTED_MINORS[-1]]
    return f"jobmodel {mine} (the Job and CronJob controllers of Kubernetes {oldest} to {newest}; {NEWEST_RELEASE} by default)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="jobmodel",
        description="An executable reference model of the Kubernetes Job and CronJob controllers.",
        epilog="exit codes: 0 all good, 1 a finding, 2 a usage or input error, 3 an internal error",
    )
    parser.add_argument("--version", action="version", version=version_text())
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    for command in (parser, *_leaves(subparsers)):
        command.add_argument(
            "--debug",
            action="store_true",
            default=argparse.SUPPRESS if command is not parser else False,
            help="on an internal error, print the traceback",
        )
    return parser


def _leaves(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> list[argparse.ArgumentParser]:
    """Every command's parser (`cron next`, `cron simulate`, `validate`, ...)."""
    leaves: list[argparse.ArgumentParser] = []
    for parser in dict.fromkeys(subparsers.choices.values()):
        nested = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if nested:
            for inner in nested:
                leaves.extend(_leaves(inner))
        else:
            leaves.append(parser)
    return leaves


def _tolerant(stream: TextIO) -> None:
    """Text that UTF-8 cannot encode (a lone surrogate from the command line) is escaped, not fatal."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="backslashreplace")


@functools.cache
def _parser() -> argparse.ArgumentParser:
    # Built once per process: a program calling main() many times (the tests) pays once.
    return build_parser()


def main(argv: Sequence[str] | None = None) -> int:
    _tolerant(sys.stdout)
    _tolerant(sys.stderr)
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
    except InputError as err:
        print(printable(f"error: {err}"), file=sys.stderr)
        return INPUT_ERROR
    except Rejected as err:
        print(printable(f"error: {err}"), file=sys.stderr)
        return FINDING
    except BrokenPipeError:
        return FINDING
    except KeyboardInterrupt:
        # Whatever the command started (a local control plane) was stopped on the way out.
        print("interrupted", file=sys.stderr)
        return INTERRUPTED
    except (Exception, RecursionError, MemoryError) as err:
        if args.debug:
            traceback.print_exc()
        text = str(err).splitlines()
        detail = printable(f"{type(err).__name__}: {text[0]}" if text else type(err).__name__)
        hint = "" if args.debug else " (run again with --debug for the traceback)"
        print(f"internal error: {detail[:300]}{hint}", file=sys.stderr)
        return INTERNAL_ERROR
    return code


if __name__ == "__main__":
    sys.exit(main())
