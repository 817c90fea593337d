"""What every checker runs over: a system, in the manner of Stateright's `Model`.

A `System` is an initial world, the moves enabled in a world (the guards), what a move does, the
canonical form states are stored in (symmetry reduction), and the laws to check: the state and
step invariants and `sometimes` properties of a catalogue, and optionally a liveness property
checked from every new state. The explorer, the Hypothesis machines and trace replay are written
once against it; the Job (`jobmodel.checkers.job`) and the CronJob (`jobmodel.checkers.cron`) are
two instances, each over its environment in `jobmodel.transitions`.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Generic, TypeVar

import attrs

from jobmodel.api.schema import obj
from jobmodel.errors import InputError, printable, quote
from jobmodel.features import gates_for, parse_kube_version
from jobmodel.frozen import FrozenDict, freeze
from jobmodel.invariants.laws import Laws, Transition, Violation
from jobmodel.transitions.move import Move

W = TypeVar("W")
R = TypeVar("R")


def _same(world: W) -> W:
    return world


@attrs.frozen
class BudgetSplit(Generic[W]):
    """A system's worlds as a budget of hostile moves, which only enables moves and is spent by
    them (no move's effect and no law reads it), and the rest: `rest(world)`, the world less its
    budget; `left(world)`, whether any of its budget is left; `respent(after, before, other)`, a
    move's result `after` from `before` as its result from `other`, equal to `before` but in its
    budget."""

    rest: Callable[[W], Hashable]
    left: Callable[[W], bool]
    respent: Callable[[W, W, W], W]


@attrs.frozen
class System(Generic[W, R]):
    """A system under check. `describe` gives a world's columns of a step table (named by
    `columns`); `kind` names the system in traces ("Job", "CronJob")."""

    kind: str
    initial_world: Callable[[], W]
    enabled_moves: Callable[[W], Sequence[Move]]
    apply_move: Callable[[W, Move], tuple[W, R | None]]
    laws: Laws[W, R]
    columns: tuple[str, ...]
    describe: Callable[[W], tuple[str, ...]]
    canonical: Callable[[W], W] = _same
    liveness: Callable[[W], Violation | None] | None = None
    without_assumptions: bool = False  # check the laws outside their assumptions too
    # How its worlds split into a budget of hostile moves and the rest (None: they do not): the
    # explorer makes a move once per world less its budget (checkers.explorer.Successors).
    budget: BudgetSplit[W] | None = None

    def start(self) -> W:
        """The initial world, in canonical form."""
        return self.canonical(self.initial_world())

    def successor(self, world: W, move: Move) -> tuple[W, Transition[W, R]]:
        """Apply one move: the new world, in canonical form, and the transition."""
        after, result = self.apply_move(world, move)
        after = self.canonical(after)
        return after, Transition(world, move, after, result, self.without_assumptions)

    def step(self, world: W, move: Move) -> tuple[W, Transition[W, R], list[Violation]]:
        """Apply one move and check every law on the step and on the new state."""
        after, transition = self.successor(world, move)
        return after, transition, [*self.laws.check_step(transition), *self.laws.check_state(after)]


_DOTTED_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


def load_impl(spec: str, flag: str = "--impl", returns: type | None = None) -> Callable[..., Any]:
    """The function named `package.module:function` (found in the current directory too); a
    call that returns something else than `returns` (when given) is the implementation's failure."""
    module_name, sep, attr = spec.partition(":")
    if not sep or not _DOTTED_NAME.fullmatch(module_name) or not attr.isidentifier():
        raise InputError(flag, f"{quote(spec)}: expected package.module:function (an absolute module name)")
    if os.getcwd() not in sys.path:
        # As `python -m` would: an implementation in the current directory can be named.
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except Exception as err:
        # Importing runs the module: whatever it raises is the module's problem, not ours.
        raise InputError(flag, f"cannot import {quote(module_name)}: {type(err).__name__}: {err}") from None
    fn = getattr(module, attr, None)
    if not callable(fn):
        raise InputError(flag, f"{quote(module_name)} has no function {quote(attr)}")
    return _reported(fn, spec, flag, returns)


def _reported(fn: Callable[..., Any], spec: str, flag: str, returns: type | None) -> Callable[..., Any]:
    """`fn`, whose exceptions (sys.exit too) and wrong results are the named implementation's
    failure, not the checker's."""

    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            result = fn(*args, **kwargs)
        except (Exception, SystemExit) as err:
            raise InputError(flag, f"{quote(spec)} raised {type(err).__name__}: {printable(str(err))[:200]}") from err
        if returns is not None and not _is_a(result, returns):
            raise InputError(flag, f"{quote(spec)} returned {type(result).__name__}, not a {returns.__name__}")
        return result

    return call


def _is_a(value: object, cls: type) -> bool:
    """isinstance, or an instance of a copy of the class (the same name and attrs fields: the
    mutation tests run edited copies of the model's modules)."""
    kind = type(value)
    if isinstance(value, cls):
        return True
    if kind.__qualname__ != cls.__qualname__ or not (attrs.has(kind) and attrs.has(cls)):
        return False
    return [f.name for f in attrs.fields(kind)] == [f.name for f in attrs.fields(cls)]


B = TypeVar("B", bound=attrs.AttrsInstance)


def trace_release(config: Mapping[str, Any], path: str) -> str:
    """The release a saved configuration was checked at; traces saved before releases were
    selectable are of the release the model followed then (1.32)."""
    value = config.get("kubeVersion", "1.32")
    if not isinstance(value, str):
        raise InputError(f"{path}.kubeVersion", 'expected a release as a string, e.g. "1.37"')
    return f"1.{parse_kube_version(value, f'{path}.kubeVersion')}"


def manifest_from_json(config: Mapping[str, Any], path: str, kind: str) -> FrozenDict:
    """A saved configuration's manifest, frozen."""
    if not isinstance(config.get("manifest"), Mapping):
        raise InputError(f"{path}.manifest", f"expected the {kind} manifest (an object)")
    manifest: FrozenDict = freeze(config["manifest"])
    return manifest


def features_from_json(value: Any, path: str, kube_version: str | None = None) -> dict[str, bool]:
    """A saved configuration's feature gates that differ from its release's defaults (checked)."""
    features = dict(obj(value, path))
    gates_for(kube_version).with_overrides(features, path, emulation_fallback=False)
    return features


def budget_to_json(budget: attrs.AttrsInstance) -> dict[str, Any]:
    """A budget (an attrs class of counts, and tuples of strings) as JSON."""
    return {f.name: list(v) if isinstance(v := getattr(budget, f.name), tuple) else v for f in attrs.fields(type(budget))}


def budget_from_json(
    cls: type[B], value: Any, path: str, check_item: Callable[[str], object] = lambda _item: None
) -> B:
    """A budget from JSON: each count a non-negative integer, each list a list of strings that
    `check_item` accepts; errors name the field."""
    fields = {f.name: f for f in attrs.fields(cls)}
    if not isinstance(value, dict):
        raise InputError(path, "expected an object")
    unknown = set(value) - set(fields)
    if unknown:
        raise InputError(f"{path}.{sorted(unknown)[0]}", f"unknown budget (known: {', '.join(fields)})")
    changes: dict[str, Any] = {}
    for name, v in value.items():
        if isinstance(fields[name].default, tuple):
            if not isinstance(v, list) or not all(isinstance(e, str) for e in v):
                raise InputError(f"{path}.{name}", "expected a list of strings")
            for e in v:
                check_item(e)
            changes[name] = tuple(v)
        elif isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise InputError(f"{path}.{name}", "expected a non-negative integer")
        else:
            changes[name] = v
    return cls(**changes)
