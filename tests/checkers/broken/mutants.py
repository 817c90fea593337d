"""Broken controllers written as one-line edits of the model's own source.

A `Mutant` is the model's sync step with a few lines of its modules replaced (the bugs upstream
has shipped are mostly such lines: `>` for `>=`, a forgotten condition, a field read from the
wrong place). The edited modules are compiled afresh on first use; the step's module
(`sync_job` or `sync_cronjob`) is copied too, so that it calls the edited helpers. A mutant is
callable with the sync step's signature, so the checkers take it by import path like any other
implementation: `--impl tests.checkers.broken.job_bugs:backoff_limit_off_by_one`.
"""

from __future__ import annotations

import importlib
import inspect
import sys
import types
from typing import Any

SYNC_JOB = "jobmodel.transitions.sync_job"
SYNC_CRONJOB = "jobmodel.transitions.sync_cronjob"


class MutationError(ValueError):
    """An edit whose old text is not found exactly once in its module: the model moved on."""


def _compiled(module_name: str, edits: tuple[tuple[str, str], ...], label: str) -> types.ModuleType:
    original = importlib.import_module(module_name)
    source = inspect.getsource(original)
    for old, new in edits:
        found = source.count(old)
        if found != 1:
            raise MutationError(f"{label}: {old!r} occurs {found} times in {module_name}, not once")
        source = source.replace(old, new)
    copy = types.ModuleType(f"{__name__}.{label}.{module_name.rsplit('.', 1)[-1]}")
    copy.__file__ = original.__file__
    sys.modules[copy.__name__] = copy  # attrs and dataclass-like machinery look classes up by module
    exec(compile(source, f"<{label}: edited {module_name}>", "exec"), copy.__dict__)
    return copy


class Mutant:
    """The model's sync step (`entry` of `step_module`) with `edits` applied: each edit is
    (module, old text, new text), the old text found exactly once in the module's source."""

    def __init__(self, doc: str, *edits: tuple[str, str, str], step_module: str = SYNC_JOB, entry: str = "") -> None:
        self.__doc__ = doc
        self.edits = edits
        self.step_module = step_module
        self.entry = entry or step_module.rsplit(".", 1)[-1]
        self.label = "mutant"
        self._step: Any = None

    def build(self, label: str | None = None) -> Any:
        """Compile the edited modules; returns the edited sync step."""
        if self._step is not None:
            return self._step
        label = label or self.label
        by_module: dict[str, list[tuple[str, str]]] = {}
        for module, old, new in self.edits:
            by_module.setdefault(module, []).append((old, new))
        edited = {m: _compiled(m, tuple(e), label) for m, e in by_module.items() if m != self.step_module}
        step = _compiled(self.step_module, tuple(by_module.get(self.step_module, ())), label)
        for module_name, copy in edited.items():
            original = importlib.import_module(module_name)
            for name, value in list(vars(step).items()):
                if getattr(original, name, None) is value and hasattr(copy, name):
                    setattr(step, name, getattr(copy, name))
        self._step = getattr(step, self.entry)
        return self._step

    def __call__(self, inp: Any) -> Any:
        return self.build()(inp)


def name_mutants(namespace: dict[str, Any]) -> None:
    """Label every Mutant of a module with its variable name (the label of its compiled copies)."""
    for name, value in namespace.items():
        if isinstance(value, Mutant):
            value.label = name
