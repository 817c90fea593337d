"""Proofs over unbounded integers, with Z3, of the pod-count arithmetic of `manageJob`.

The Hypothesis machines and the explorer check small configurations; here the arithmetic that
decides how many pods one sync creates or deletes is encoded once in Z3 and proved for every
parallelism, completions, succeeded, active and terminating count. The encoding is only worth
something if it is the model's arithmetic, so `tests/checkers/proofs/test_manage_job.py` checks it
against `sync_job` itself on the same inputs.

Modelled (upstream `pkg/controller/job/job_controller.go` `manageJob`, NonIndexed Jobs with
satisfied expectations, no back-off pending, not suspended):

- `want = min(completions - succeeded, parallelism)` floored at 0, or without completions
  `parallelism` until a pod succeeded and then `active` (`want_active_pods`);
- deletions `min(max(0, active - want), MaxPodCreateDeletePerSync)`, which take precedence;
- otherwise creations `min(want - terminating - active, MaxPodCreateDeletePerSync)` when positive
  (`terminating` counts only when only failed pods are replaced).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import z3

from jobmodel.checkers.proofs.symbolic import compile_term


@attrs.frozen
class Counts:
    """The symbolic inputs of one manageJob."""

    has_completions: Any
    completions: Any
    parallelism: Any
    succeeded: Any
    active: Any
    terminating: Any
    max_per_sync: Any

    @staticmethod
    def symbols() -> Counts:
        return Counts(
            z3.Bool("has_completions"),
            z3.Int("completions"),
            z3.Int("parallelism"),
            z3.Int("succeeded"),
            z3.Int("active"),
            z3.Int("terminating"),
            z3.Int("max_per_sync"),
        )

    def domain(self) -> Any:
        """What the API server and the controller guarantee: counts are not negative, the cap is positive."""
        return z3.And(
            self.completions >= 0,
            self.parallelism >= 0,
            self.succeeded >= 0,
            self.active >= 0,
            self.terminating >= 0,
            self.max_per_sync >= 1,
        )


def _min(a: Any, b: Any) -> Any:
    return z3.If(a < b, a, b)


def _max(a: Any, b: Any) -> Any:
    return z3.If(a > b, a, b)


def want_active(c: Counts) -> Any:
    """want_active_pods."""
    with_completions = _max(0, _min(c.completions - c.succeeded, c.parallelism))
    without = z3.If(c.succeeded > 0, c.active, c.parallelism)
    return z3.If(c.has_completions, with_completions, without)


def deletions(c: Counts) -> Any:
    """How many pods one sync deletes."""
    return _min(_max(0, c.active - want_active(c)), c.max_per_sync)


def creations(c: Counts) -> Any:
    """How many pods one sync creates (none when it deletes)."""
    diff = want_active(c) - c.terminating - c.active
    return z3.If(z3.And(deletions(c) == 0, diff > 0), _min(diff, c.max_per_sync), 0)


@attrs.frozen
class Property:
    """A claim about one sync's arithmetic, for all counts in the domain."""

    name: str
    why: str
    claim: Callable[[Counts], Any]


PROPERTIES = (
    Property(
        "no-over-creation-parallelism",
        "a sync never takes the Job above parallelism (unless it already was)",
        lambda c: c.active + creations(c) <= _max(c.active, c.parallelism),
    ),
    Property(
        "no-over-creation-completions",
        "with completions, succeeded plus active pods never exceed completions through creation",
        lambda c: z3.Implies(
            c.has_completions,
            c.succeeded + c.active + creations(c) <= _max(c.succeeded + c.active, c.completions),
        ),
    ),
    Property(
        "create-or-delete",
        "a sync creates or deletes, never both",
        lambda c: z3.Or(creations(c) == 0, deletions(c) == 0),
    ),
    Property(
        "deletion-moves-to-the-target",
        "deletions never go below what is wanted, and reach it unless capped",
        lambda c: z3.And(
            c.active - deletions(c) >= _min(c.active, want_active(c)),
            z3.Implies(c.active - want_active(c) <= c.max_per_sync, c.active - deletions(c) == _min(c.active, want_active(c))),
        ),
    ),
    Property(
        "bounded-by-the-cap",
        "at most MaxPodCreateDeletePerSync pods are created or deleted per sync",
        lambda c: z3.And(creations(c) <= c.max_per_sync, deletions(c) <= c.max_per_sync),
    ),
)


@attrs.frozen
class ProofResult:
    """`proved`, or a counterexample (the counts that break the claim)."""

    name: str
    proved: bool
    counterexample: dict[str, Any] | None = None


def prove(prop: Property, encoding: Callable[[Counts], Any] | None = None) -> ProofResult:
    """Prove `prop` for all counts: the negation within the domain is unsatisfiable."""
    counts = Counts.symbols()
    solver = z3.Solver()
    solver.add(counts.domain())
    solver.add(z3.Not((encoding or prop.claim)(counts)))
    verdict = solver.check()
    if verdict == z3.unsat:
        return ProofResult(prop.name, True)
    if verdict == z3.sat:
        model = solver.model()
        values = {
            field.name: model.eval(getattr(counts, field.name), model_completion=True)
            for field in attrs.fields(Counts)
        }
        return ProofResult(prop.name, False, {k: _python(v) for k, v in values.items()})
    return ProofResult(prop.name, False, {"reason": str(solver.reason_unknown())})


def prove_all() -> list[ProofResult]:
    return [prove(p) for p in PROPERTIES]


def evaluate(expr_of: Callable[[Counts], Any], values: dict[str, Any]) -> int | bool:
    """An encoding evaluated at concrete counts (to compare it with the executable model)."""
    counts = Counts.symbols()
    pairs = [
        (getattr(counts, k), z3.BoolVal(v) if isinstance(v, bool) else z3.IntVal(v)) for k, v in values.items()
    ]
    result = z3.simplify(z3.substitute(expr_of(counts), *pairs))
    return _python(result)


def compiled(expr_of: Callable[[Counts], Any]) -> Callable[..., Any]:
    """An encoding as a Python function of the counts (positional, in `Counts` field order): the
    same Z3 term, evaluated fast enough to compare it with the model at every point of a range."""
    counts = Counts.symbols()
    return compile_term(expr_of(counts), [getattr(counts, field.name) for field in attrs.fields(Counts)])


def _python(value: Any) -> int | bool:
    if z3.is_bool(value):
        return bool(z3.is_true(value))
    return int(value.as_long())
