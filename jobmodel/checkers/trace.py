"""Runs of a system with every law checked, and the traces people read: a step table, a JSON
file, and its replay.

A trace is a configuration (`jobmodel.checkers.job.CheckConfig` or
`jobmodel.checkers.cron.CronConfig`) and a list of moves. `run_moves` replays moves from the
system's initial world, checking every state and step invariant after each move.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from jobmodel.adapters.files import write_atomically
from jobmodel.adapters.manifests import read_json_file
from jobmodel.api.schema import OBJ, STR, check_value, member
from jobmodel.checkers.cron import CronConfig
from jobmodel.checkers.job import CheckConfig
from jobmodel.checkers.system import System
from jobmodel.errors import InputError, quote
from jobmodel.invariants.laws import Violation
from jobmodel.transitions.move import Move

Config = CheckConfig | CronConfig
CONFIGS: dict[str, type[CheckConfig] | type[CronConfig]] = {c.KIND: c for c in (CheckConfig, CronConfig)}


@attrs.frozen
class StepRecord:
    """One checked step: the move, the world after it, and the invariants it broke."""

    move: Move
    world: Any
    violations: tuple[Violation, ...]


def run_moves(system: System[Any, Any], moves: Sequence[Move]) -> list[StepRecord]:
    """Replay moves from the initial world; a move that is not enabled is an InputError."""
    world = system.start()
    records = []
    for i, move in enumerate(moves):
        if move not in system.enabled_moves(world):
            raise InputError(f"moves[{i}]", f"{move} is not enabled in that state")
        world, _t, violations = system.step(world, move)
        records.append(StepRecord(move, world, tuple(violations)))
    return records


def format_table(system: System[Any, Any], records: Sequence[StepRecord]) -> str:
    """The run as a step-by-step table: the move, the system's columns, broken invariants."""
    rows = [("step", "move", *system.columns)]
    rows.append(("0", "(start)", *system.describe(system.start())))
    for i, rec in enumerate(records, 1):
        rows.append((str(i), str(rec.move), *system.describe(rec.world)))
    notes = ["violations", "", *("; ".join(str(v) for v in rec.violations) for rec in records)]
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    lines = []
    for row, note in zip(rows, notes, strict=True):
        lines.append("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)) + ("  " + note if note else ""))
    return "\n".join(line.rstrip() for line in lines)


# --- saving and loading ------------------------------------------------------------------------------


def trace_to_json(config: Config, moves: Sequence[Move], violation: Violation | None) -> dict[str, Any]:
    return {
        "kind": config.KIND,
        "config": config.to_json(),
        "moves": [m.to_json() for m in moves],
        "violation": None if violation is None else {"invariant": violation.invariant, "message": violation.message},
    }


def save_trace(path: Path, config: Config, moves: Sequence[Move], violation: Violation | None) -> None:
    write_atomically(path, json.dumps(trace_to_json(config, moves, violation), indent=2) + "\n", "--save")


def recorded_violation(path: Path) -> Violation | None:
    """The violation a saved trace says it ends with (None when it records none)."""
    data = read_json_file(path)
    found = data.get("violation") if isinstance(data, Mapping) else None
    if not isinstance(found, Mapping) or not isinstance(found.get("invariant"), str):
        return None
    return Violation(found["invariant"], str(found.get("message", "")))


def load_trace(path: Path) -> tuple[Config, list[Move]]:
    """A saved trace (of a Job when it names no kind); errors name the file and the field."""
    data = read_json_file(path)  # its errors name the file
    try:
        return _trace_of(data)
    except InputError as err:
        raise InputError(str(path), str(err)) from None


def _trace_of(data: Any) -> tuple[Config, list[Move]]:
    if not isinstance(data, Mapping) or not isinstance(data.get("config"), Mapping):
        raise InputError("config", "a trace is an object with `config` and `moves`")
    kind = data.get("kind", CheckConfig.KIND)
    if not isinstance(kind, str) or kind not in CONFIGS:
        raise InputError("kind", f"expected one of {', '.join(CONFIGS)}, got {quote(kind)}")
    config_class = CONFIGS[kind]
    config = config_class.from_json(data["config"])
    moves = []
    for i, m in enumerate(member(data, "moves", ("list", OBJ), "") or []):
        move = check_value(m, MOVE, f"moves[{i}]")
        if move.get("kind") not in config_class.MOVE_KINDS:
            raise InputError(f"moves[{i}].kind", f"expected one of {', '.join(config_class.MOVE_KINDS)}")
        moves.append(Move(move["kind"], move.get("pod", ""), move.get("arg", "")))
    return config, moves


# A move as a trace writes it (Move.to_json).
MOVE = {"kind": STR, "pod": STR, "arg": STR}
