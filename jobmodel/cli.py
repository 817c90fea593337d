"""The `jobmodel` command line: a thin shell over the commands in `jobmodel.commands`."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from jobmodel.errors import InputError

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
)


# The upstream release whose controllers the model follows (docs/sync-job.md).
MODELLED_RELEASE = "v1.32.3"


def version_text() -> str:
    """`jobmodel --version`: the package's version and the release it models."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        mine = version("jobmodel")
    except PackageNotFoundError:  # run from a checkout that was never installed
        mine = "unknown"
    return f"jobmodel {mine} (the Job and CronJob controllers of Kubernetes {MODELLED_RELEASE})"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="jobmodel",
        description="An executable reference model of the Kubernetes Job and CronJob controllers.",
    )
    parser.add_argument("--version", action="version", version=version_text())
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
    except InputError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 1
    except KeyboardInterrupt:
        # Whatever the command started (a local control plane) was stopped on the way out.
        print("interrupted", file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
