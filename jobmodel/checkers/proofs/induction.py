"""Proofs by induction over a transition relation, and bounded search for real counterexamples.

A `Proof` claims a property of every reachable state (or of every step) of a `System`, under named
`Assumption`s about the environment, with supporting invariants that make it inductive:

- **initiation**: every initial state satisfies the supporting invariants and a state claim;
- **consecution**: for every move, a state satisfying them (and the assumptions) steps to a state
  that satisfies them again (and the assumptions are asked of the state after, too);
- **the claim**: a step claim holds on every step from such a state.

Together these prove the claim for every run of any length. When an obligation fails, Z3's model
is a counterexample to induction: a state and a move. That state may be unreachable (the
invariants are too weak) or reachable (the claim is false); `search_path` decides it by bounded
model checking from the initial states, and a path it finds is a real run.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import z3

from jobmodel.checkers.proofs import PROOF_RELEASE
from jobmodel.checkers.proofs.symbolic import Record, Schema

StepFn = Callable[[Record, str, Any], Any]  # (state, symbol prefix, controller) -> Step


@attrs.frozen
class System:
    """A transition relation: its name (it prefixes its proofs' names), its state schema, the
    states' domain, the initial states, the moves (each a function of the state before, a prefix
    for its choice symbols, and the controller), the controller it models, the executable sync
    step (import path) that is that controller, and the moves that are the controller's."""

    name: str
    schema: Schema
    domain: Callable[[Record], Any]
    initial: Callable[[Record], Any]
    moves: dict[str, StepFn]
    controller: Any
    impl: str
    controller_moves: frozenset[str] = frozenset()
    # The moves the searches for runs use (the same relation in fewer, larger moves).
    search_moves: dict[str, StepFn] | None = None
    # The release whose controller `controller` is (its counterexamples are replayed there).
    kube_version: str = PROOF_RELEASE


@attrs.frozen
class Invariant:
    """A state predicate: `holds(state)`."""

    name: str
    doc: str
    holds: Callable[[Record], Any]


@attrs.frozen
class StepClaim:
    """A predicate on one step: `holds(before, move name, step)`."""

    name: str
    doc: str
    holds: Callable[[Record, str, Any], Any]


@attrs.frozen
class Assumption:
    """What the environment is assumed to do: a predicate on every state (`state`), and/or on every
    step (`step(before, move name, step)`)."""

    name: str
    doc: str
    state: Callable[[Record], Any] | None = None
    step: Callable[[Record, str, Any], Any] | None = None
    # An assumption about the controller itself: dropping it changes the system.
    drop: Callable[[System], System] | None = None
    # The catalogue's predicate makes the same assumption (a run breaking it is replayed with the
    # invariants checked outside their assumptions).
    in_catalogue: bool = False

    @property
    def environmental(self) -> bool:
        return self.drop is None


@attrs.frozen
class Proof:
    """A claim (a state invariant or a step claim) of a system, the catalogue invariant it states,
    its assumptions and the supporting invariants that make it inductive."""

    name: str
    system: System
    claim: Invariant | StepClaim
    support: tuple[Invariant, ...] = ()
    assumptions: tuple[Assumption, ...] = ()
    catalogue: str = ""
    dropped: tuple[Assumption, ...] = ()

    @property
    def qualified_name(self) -> str:
        return f"{self.system.name}/{self.name}"

    def without(self, names: Sequence[str]) -> Proof:
        """The same proof with some assumptions dropped."""
        system = self.system
        for assumption in self.assumptions:
            if assumption.name in names and assumption.drop is not None:
                system = assumption.drop(system)
        kept = tuple(a for a in self.assumptions if a.name not in names)
        gone = tuple(a for a in self.assumptions if a.name in names)
        return attrs.evolve(self, system=system, assumptions=kept, dropped=self.dropped + gone)


@attrs.frozen
class Failure:
    """A failed obligation: which one, the move (None: initiation), the broken predicates, and the
    values of the state before and after and of the move's choices in Z3's model."""

    obligation: str
    move: str | None
    broken: tuple[str, ...]
    before: dict[str, int | bool]
    after: dict[str, int | bool]
    choices: dict[str, int | bool]

    def describe(self) -> str:
        where = "initially" if self.move is None else f"after move {self.move}"
        return f"{', '.join(self.broken)} fails {where}"


@attrs.frozen
class Verdict:
    """`proved`, `failed` (with the failed obligation) or `unknown` (with the solver's reason)."""

    status: str
    seconds: float
    failure: Failure | None = None
    reason: str = ""


TIMEOUT_MS = 20_000


def _named_conjuncts(name: str, formula: Any) -> list[tuple[str, Any]]:
    """The conjuncts of a conjunction, named `name[i]` (so that a failure says which one)."""
    if z3.is_and(formula):
        return [(f"{name}[{i}]", c) for i, c in enumerate(formula.children())]
    return [(name, formula)]


def _state_predicates(proof: Proof) -> list[Invariant]:
    claims = [proof.claim] if isinstance(proof.claim, Invariant) else []
    return [*proof.support, *claims]


def _assumed(proof: Proof, s: Record) -> list[Any]:
    return [a.state(s) for a in proof.assumptions if a.state is not None]


def _assumed_step(proof: Proof, s: Record, move: str, step: Any) -> list[Any]:
    return [a.step(s, move, step) for a in proof.assumptions if a.step is not None]


def check(proof: Proof, timeout_ms: int = TIMEOUT_MS) -> Verdict:
    """Every obligation of the proof; the first failure or unknown ends it."""
    start = time.perf_counter()
    system = proof.system
    predicates = _state_predicates(proof)
    s = Record.symbols(system.schema, "s")
    obligations: list[tuple[str, str | None, list[Any], list[tuple[str, Any]], Any]] = []
    obligations.append(
        ("initiation", None, [system.domain(s), system.initial(s)], [(p.name, p.holds(s)) for p in predicates], None)
    )
    for move, fn in system.moves.items():
        step = fn(s, "c", system.controller)
        # The environment is assumed to keep the assumptions; the controller must keep them.
        by_controller = move in system.controller_moves
        hypotheses = [
            system.domain(s),
            *[p.holds(s) for p in predicates],
            *_assumed(proof, s),
            step.guard,
            *([] if by_controller else _assumed(proof, step.after)),
            *_assumed_step(proof, s, move, step),
        ]
        goals = [(p.name, p.holds(step.after)) for p in predicates]
        goals += _named_conjuncts("domain", system.domain(step.after))
        if by_controller:
            goals += [(a.name, a.state(step.after)) for a in proof.assumptions if a.state is not None]
        if isinstance(proof.claim, StepClaim):
            goals.append((proof.claim.name, proof.claim.holds(s, move, step)))
        obligations.append(("consecution", move, hypotheses, goals, step))
    for kind, where, hypotheses, goals, step in obligations:
        solver = z3.Solver()
        solver.set("timeout", timeout_ms)
        solver.add(*hypotheses)
        solver.add(z3.Not(z3.And(*[g for _, g in goals])))
        verdict = solver.check()
        if verdict == z3.unsat:
            continue
        seconds = time.perf_counter() - start
        if verdict == z3.unknown:
            return Verdict("unknown", seconds, reason=f"{kind} of {where or 'the initial states'}: {solver.reason_unknown()}")
        model = solver.model()
        broken = tuple(name for name, g in goals if not z3.is_true(model.eval(g, model_completion=True)))
        after = step.after.evaluate(model) if step is not None else {}
        choices = step.choices.evaluate(model) if step is not None else {}
        return Verdict("failed", seconds, Failure(kind, where, broken, s.evaluate(model), after, choices))
    return Verdict("proved", time.perf_counter() - start)


# --- bounded model checking -----------------------------------------------------------------------


@attrs.frozen
class PathStep:
    """One step of a path found by `search_path`: the move, its choices, the state after."""

    move: str
    choices: dict[str, int | bool]
    after: dict[str, int | bool]


@attrs.frozen
class Path:
    """A run of the relation from an initial state to a state (or step) that breaks the claim."""

    initial: dict[str, int | bool]
    steps: tuple[PathStep, ...]


StepRestriction = Callable[[Record, str, Any], Any]


def search_path(
    proof: Proof,
    max_depth: int,
    *,
    start: Callable[[Record], Any] | None = None,
    restrict: StepRestriction | None = None,
    avoid: Callable[[str, Any], Any] | None = None,
    size: Callable[[Record], Any] | None = None,
    timeout_ms: int = TIMEOUT_MS,
    deadline: float | None = None,
) -> tuple[Path | None, str]:
    """The shortest run (up to `max_depth` moves) of the relation, under the proof's assumptions,
    that ends by breaking its claim; among the shortest, the one with the smallest `size` of its
    first state and then the fewest moves that `avoid(name, step)` marks. It starts from the
    states `start` describes (the initial states by default); `restrict(before, move, step)`
    narrows the moves (to ones the executable model can make). Returns the path, or None and why
    not. Each call of the search stops at `deadline` (a time.perf_counter() value) at the latest,
    after `timeout_ms` otherwise; the preference among the shortest runs may run until `deadline`."""
    system = proof.system
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    states = [Record.symbols(system.schema, "p0")]
    solver.add(system.domain(states[0]), *_assumed(proof, states[0]))
    solver.add(start(states[0]) if start is not None else system.initial(states[0]))
    chosen: list[tuple[Any, list[tuple[str, Any]]]] = []  # per depth: move index symbol, (move, step)
    for depth in range(max_depth + 1):
        if deadline is not None:
            left_ms = int((deadline - time.perf_counter()) * 1000)
            if left_ms <= 0:
                return None, f"out of time after searching runs of up to {max(depth - 1, 0)} moves"
            solver.set("timeout", min(timeout_ms, left_ms))
        current = states[-1]
        solver.push()
        if isinstance(proof.claim, Invariant):
            solver.add(z3.Not(proof.claim.holds(current)))
        else:
            if depth == 0:
                solver.pop()
                _extend(solver, proof, states, chosen, restrict)
                continue
            which, steps = chosen[-1]
            prev = states[-2]
            solver.add(
                z3.Or(*[z3.And(which == i, z3.Not(proof.claim.holds(prev, name, st))) for i, (name, st) in enumerate(steps)])
            )
        verdict = solver.check()
        if verdict == z3.sat:
            # The preferred run may take longer, up to the deadline: on a loaded machine the
            # optimisation ran past its 20 s and the run came back unminimised.
            preferring_ms = timeout_ms if deadline is None else max(timeout_ms, int((deadline - time.perf_counter()) * 1000))
            model = _preferred(solver, states, chosen, avoid, size, preferring_ms) or solver.model()
            return _path(model, states, chosen), ""
        solver.pop()
        if verdict == z3.unknown:
            return None, f"the solver gave up on runs of {depth} moves: {solver.reason_unknown()}"
        if depth < max_depth:
            _extend(solver, proof, states, chosen, restrict)
    return None, f"no run of up to {max_depth} moves breaks it"


def _extend(
    solver: z3.Solver,
    proof: Proof,
    states: list[Record],
    chosen: list[tuple[Any, list[tuple[str, Any]]]],
    restrict: StepRestriction | None,
) -> None:
    system = proof.system
    depth = len(states) - 1
    before = states[-1]
    after = Record.symbols(system.schema, f"p{depth + 1}")
    which = z3.Int(f"move{depth}")
    steps = []
    options = []
    for i, (name, fn) in enumerate((system.search_moves or system.moves).items()):
        step = fn(before, f"m{depth}.{name}", system.controller)
        steps.append((name, step))
        narrowed = [restrict(before, name, step)] if restrict is not None else []
        kept = [] if name in system.controller_moves else _assumed(proof, after)
        options.append(
            z3.And(
                which == i,
                step.guard,
                step.after.equals(after),
                *_assumed_step(proof, before, name, step),
                *narrowed,
                *kept,
            )
        )
    solver.add(z3.Or(*options), system.domain(after))
    states.append(after)
    chosen.append((which, steps))


def _preferred(
    solver: z3.Solver,
    states: list[Record],
    chosen: list[tuple[Any, list[tuple[str, Any]]]],
    avoid: Callable[[str, Any], Any] | None,
    size: Callable[[Record], Any] | None,
    timeout_ms: int,
) -> z3.ModelRef | None:
    """A model of the same run length with the smallest size, then the fewest avoided moves."""
    if avoid is None and size is None:
        return None
    opt = z3.Optimize()
    opt.set("timeout", timeout_ms)
    opt.add(*solver.assertions())
    avoided = [
        z3.If(z3.Or(*[z3.And(which == i, avoid(name, step)) for i, (name, step) in enumerate(steps)]), 1, 0)
        for which, steps in chosen
        if avoid is not None
    ]
    if size is not None:
        opt.minimize(size(states[0]))
    if avoided:
        opt.minimize(z3.Sum(*avoided))
    return opt.model() if opt.check() == z3.sat else None


def _path(model: z3.ModelRef, states: list[Record], chosen: list[tuple[Any, list[tuple[str, Any]]]]) -> Path:
    steps = []
    for depth, (which, options) in enumerate(chosen):
        index = model.eval(which, model_completion=True).as_long()
        name, step = options[index]
        steps.append(PathStep(name, step.choices.evaluate(model), states[depth + 1].evaluate(model)))
    return Path(states[0].evaluate(model), tuple(steps))
