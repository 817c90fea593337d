"""Runs of the environment with every invariant checked, and the traces people read: a step table,
a JSON file, and its replay.

A `CheckConfig` fixes what is checked (the Job manifest, the hostile moves allowed, the clock at
the start, the gates, the implementation under check by import path); a trace is a config and a
list of moves. `run_moves` replays moves from the config's initial world, checking every state
and step invariant after each move.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

import attrs

from jobmodel.adapters.manifests import read_json_file
from jobmodel.errors import InputError
from jobmodel.features import DEFAULT_GATES
from jobmodel.frozen import FrozenDict, freeze, thaw
from jobmodel.invariants.catalogue import Transition, Violation, check_state, check_step
from jobmodel.timeutil import format_time, parse_time
from jobmodel.transitions import job_environment as env
from jobmodel.transitions.job_symmetry import canonical_world, without_events
from jobmodel.transitions.pod_utils import has_job_tracking_finalizer, is_pod_ready
from jobmodel.transitions.sync_job import sync_job

DEFAULT_IMPL = "jobmodel.transitions.sync_job:sync_job"
DEFAULT_START = datetime(2025, 1, 1, tzinfo=UTC)
BUDGET_FIELDS = tuple(f.name for f in attrs.fields(env.Budget))


def load_impl(spec: str | None) -> env.SyncImpl:
    """The sync step named `package.module:function` (the model's sync_job when None)."""
    if spec is None or spec == DEFAULT_IMPL:
        return sync_job
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise InputError("--impl", f"{spec!r}: expected package.module:function")
    if os.getcwd() not in sys.path:
        # As `python -m` would: an implementation in the current directory can be named.
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise InputError("--impl", f"cannot import {module_name!r}: {err}") from None
    fn = getattr(module, attr, None)
    if not callable(fn):
        raise InputError("--impl", f"{module_name!r} has no function {attr!r}")
    return cast(env.SyncImpl, fn)


@attrs.frozen
class CheckConfig:
    """What a check runs on: the Job manifest (frozen JSON), the environment's budget, the clock,
    gate overrides, the implementation's import path, and whether states are reduced by symmetry."""

    manifest: FrozenDict
    budget: env.Budget = env.Budget()
    start: datetime = DEFAULT_START
    features: FrozenDict = FrozenDict()
    impl: str = DEFAULT_IMPL
    symmetry: bool = True

    def initial_world(self) -> env.World:
        gates = DEFAULT_GATES.with_overrides(self.features)
        world = env.initial_world(thaw(self.manifest), self.budget, now=self.start, features=gates)
        return self.normalise(world)

    def normalise(self, world: env.World) -> env.World:
        """The world as the checkers store it (canonical under symmetry; without events)."""
        return canonical_world(world) if self.symmetry else without_events(world)

    def sync_impl(self) -> env.SyncImpl:
        return load_impl(self.impl)

    def to_json(self) -> dict[str, Any]:
        budget = {name: getattr(self.budget, name) for name in BUDGET_FIELDS}
        budget["edits"] = list(self.budget.edits)
        return {
            "manifest": thaw(self.manifest),
            "budget": budget,
            "start": format_time(self.start),
            "features": thaw(self.features),
            "impl": self.impl,
            "symmetry": self.symmetry,
        }

    @staticmethod
    def from_json(value: Mapping[str, Any], path: str = "config") -> CheckConfig:
        if not isinstance(value.get("manifest"), Mapping):
            raise InputError(f"{path}.manifest", "expected the Job manifest (an object)")
        return CheckConfig(
            manifest=freeze(value["manifest"]),
            budget=budget_from_json(value.get("budget") or {}, f"{path}.budget"),
            start=parse_time(value.get("start", format_time(DEFAULT_START)), f"{path}.start"),
            features=freeze(value.get("features") or {}),
            impl=str(value.get("impl") or DEFAULT_IMPL),
            symmetry=bool(value.get("symmetry", True)),
        )


def budget_from_json(value: Mapping[str, Any], path: str) -> env.Budget:
    unknown = set(value) - set(BUDGET_FIELDS)
    if unknown:
        raise InputError(f"{path}.{sorted(unknown)[0]}", f"unknown budget (known: {', '.join(BUDGET_FIELDS)})")
    changes: dict[str, Any] = {}
    for name, v in value.items():
        if name == "edits":
            if not isinstance(v, list) or not all(isinstance(e, str) for e in v):
                raise InputError(f"{path}.edits", "expected a list of field=value strings")
            for e in v:
                env.validate_edit(e)
            changes[name] = tuple(v)
        elif isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise InputError(f"{path}.{name}", "expected a non-negative integer")
        else:
            changes[name] = v
    return attrs.evolve(env.Budget(), **changes)


@attrs.frozen
class StepRecord:
    """One checked step: the move, the world after it, and the invariants it broke."""

    move: env.Move
    world: env.World
    violations: tuple[Violation, ...]


def check_move(
    config: CheckConfig, world: env.World, move: env.Move, impl: env.SyncImpl
) -> tuple[env.World, Transition, list[Violation]]:
    """Apply one move and check every invariant on the step and on the new state."""
    after, result = env.apply_move(world, move, impl)
    after = config.normalise(after)
    transition = Transition(world, move, after, result)
    return after, transition, [*check_step(transition), *check_state(after)]


def run_moves(config: CheckConfig, moves: Sequence[env.Move], impl: env.SyncImpl | None = None) -> list[StepRecord]:
    """Replay moves from the initial world; a move that is not enabled is an InputError."""
    impl = impl or config.sync_impl()
    world = config.initial_world()
    records = []
    for i, move in enumerate(moves):
        if move not in env.enabled_moves(world):
            raise InputError(f"moves[{i}]", f"{move} is not enabled in that state")
        world, _t, violations = check_move(config, world, move, impl)
        records.append(StepRecord(move, world, tuple(violations)))
    return records


# --- printing and saving ---------------------------------------------------------------------------


def describe_job(world: env.World) -> str:
    job = world.job()
    if job is None:
        return "(deleted)"
    s = job.status
    conds = ",".join(c.type for c in s.conditions if c.status == "True")
    text = f"active={s.active} ready={s.ready or 0} succeeded={s.succeeded} failed={s.failed}"
    if s.completed_indexes:
        text += f" done=[{s.completed_indexes}]"
    u = s.uncounted_terminated_pods
    if u is not None and (u.succeeded or u.failed):
        text += f" uncounted={len(u.succeeded)}s/{len(u.failed)}f"
    return text + (f" {conds}" if conds else "")


def describe_pods(world: env.World) -> str:
    out = []
    for pod in world.pods():
        text = f"{pod.name}:{pod.phase}"
        if is_pod_ready(pod):
            text += "+ready"
        if pod.metadata.deletion_timestamp is not None:
            text += "+deleting"
        if has_job_tracking_finalizer(pod):
            text += "+fin"
        if pod.name in world.hidden:
            text += "(unseen)"
        out.append(text)
    return " ".join(out) or "-"


def format_table(config: CheckConfig, records: Sequence[StepRecord]) -> str:
    """The trace as a step-by-step table: move, the Job's status, its pods, broken invariants."""
    rows = [("step", "move", "job status", "pods", "violations")]
    world = config.initial_world()
    rows.append(("0", "(start)", describe_job(world), describe_pods(world), ""))
    for i, rec in enumerate(records, 1):
        rows.append(
            (str(i), str(rec.move), describe_job(rec.world), describe_pods(rec.world), "; ".join(str(v) for v in rec.violations))
        )
    widths = [max(len(r[c]) for r in rows) for c in range(4)]
    lines = []
    for r in rows:
        lines.append("  ".join(r[c].ljust(widths[c]) for c in range(4)) + ("  " + r[4] if r[4] else ""))
    return "\n".join(line.rstrip() for line in lines)


def trace_to_json(config: CheckConfig, moves: Sequence[env.Move], violation: Violation | None) -> dict[str, Any]:
    return {
        "config": config.to_json(),
        "moves": [m.to_json() for m in moves],
        "violation": None if violation is None else {"invariant": violation.invariant, "message": violation.message},
    }


def save_trace(path: Path, config: CheckConfig, moves: Sequence[env.Move], violation: Violation | None) -> None:
    path.write_text(json.dumps(trace_to_json(config, moves, violation), indent=2) + "\n")


def load_trace(path: Path) -> tuple[CheckConfig, list[env.Move]]:
    """A saved trace; errors name the field."""
    data = read_json_file(path)
    if not isinstance(data, Mapping) or not isinstance(data.get("config"), Mapping):
        raise InputError("config", "a trace is an object with `config` and `moves`")
    config = CheckConfig.from_json(data["config"])
    moves = []
    for i, m in enumerate(data.get("moves") or []):
        if not isinstance(m, Mapping) or m.get("kind") not in env.MOVE_KINDS:
            raise InputError(f"moves[{i}].kind", f"expected one of {', '.join(env.MOVE_KINDS)}")
        moves.append(env.Move(str(m["kind"]), str(m.get("pod", "")), str(m.get("arg", ""))))
    return config, moves
