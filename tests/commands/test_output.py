"""`-o json` on every command (jobmodel/commands/output.py), documented in docs/output.md."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from pathlib import Path

from jobmodel.cli import build_parser

DOCS = Path(__file__).resolve().parents[2] / "docs" / "output.md"


def leaf_commands(parser: argparse.ArgumentParser, prefix: str = "") -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Every runnable command with its parser: `simulate`, `cron next`, `cluster up`, ..."""
    subparsers = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subparsers:
        yield prefix.strip(), parser
        return
    for name, sub in subparsers[0].choices.items():
        yield from leaf_commands(sub, f"{prefix} {name}")


def test_every_command_has_json_output() -> None:
    commands = dict(leaf_commands(build_parser()))
    assert len(commands) >= 13
    missing = [
        name
        for name, parser in commands.items()
        if not any("--output" in a.option_strings and a.choices and "json" in a.choices for a in parser._actions)
    ]
    assert missing == []


def test_every_command_has_its_schema_documented() -> None:
    documented = set(re.findall(r"^### `jobmodel ([a-z -]+?)`", DOCS.read_text(), flags=re.MULTILINE))
    assert set(dict(leaf_commands(build_parser()))) <= documented
