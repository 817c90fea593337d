"""Records of Z3 terms: the symbolic states and move choices of the transition relations.

A `Record` is a named tuple of Z3 terms with a fixed schema (field name -> `int` or `bool`).
The same record holds fresh symbols (for the proofs), concrete values (to evaluate an encoding
at a point drawn from the executable model) or the terms a move computes (the next state).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import z3

INT, BOOL = "int", "bool"
Schema = tuple[tuple[str, str], ...]


class Record:
    """Z3 terms by field name, for one schema; fields read as attributes (`state.active`)."""

    __slots__ = ("_schema", "_terms")

    def __init__(self, schema: Schema, terms: Mapping[str, Any]) -> None:
        names = {name for name, _ in schema}
        if set(terms) != names:
            missing, extra = sorted(names - set(terms)), sorted(set(terms) - names)
            raise ValueError(f"record fields: missing {missing}, unknown {extra}")
        self._schema = schema
        self._terms = dict(terms)

    @staticmethod
    def symbols(schema: Schema, prefix: str) -> Record:
        """Fresh constants `<prefix>.<field>`."""
        return Record(schema, {name: _constant(f"{prefix}.{name}", sort) for name, sort in schema})

    @staticmethod
    def values(schema: Schema, values: Mapping[str, int | bool]) -> Record:
        """Concrete values as Z3 literals."""
        return Record(schema, {name: _literal(values[name], sort) for name, sort in schema})

    def __getattr__(self, name: str) -> Any:
        try:
            return self._terms[name]
        except KeyError:
            raise AttributeError(name) from None

    def __iter__(self) -> Iterator[tuple[str, Any]]:
        return iter(self._terms.items())

    @property
    def schema(self) -> Schema:
        return self._schema

    def replace(self, **changes: Any) -> Record:
        """A record with some fields replaced; Python ints and bools become literals."""
        unknown = set(changes) - set(self._terms)
        if unknown:
            raise ValueError(f"unknown fields {sorted(unknown)}")
        sorts = dict(self._schema)
        terms = dict(self._terms)
        for name, value in changes.items():
            terms[name] = _literal(value, sorts[name]) if isinstance(value, bool | int) else value
        return Record(self._schema, terms)

    def equals(self, other: Record) -> Any:
        """The conjunction of field-wise equalities."""
        return z3.And(*[self._terms[name] == getattr(other, name) for name, _ in self._schema])

    def differing(self, other: Record, model: z3.ModelRef) -> list[str]:
        """Fields whose values differ in a model (for messages)."""
        return [
            name
            for name, _ in self._schema
            if not z3.is_true(model.eval(self._terms[name] == getattr(other, name), model_completion=True))
        ]

    def evaluate(self, model: z3.ModelRef) -> dict[str, int | bool]:
        """The record's values in a model."""
        return {name: python_value(model.eval(term, model_completion=True)) for name, term in self._terms.items()}


def _constant(name: str, sort: str) -> Any:
    return z3.Int(name) if sort == INT else z3.Bool(name)


def _literal(value: int | bool, sort: str) -> Any:
    if sort == BOOL:
        return z3.BoolVal(bool(value))
    if isinstance(value, bool):
        raise TypeError(f"expected an integer, got {value!r}")
    return z3.IntVal(value)


def python_value(term: Any) -> int | bool:
    """A Z3 literal as a Python int or bool."""
    if z3.is_bool(term):
        return bool(z3.is_true(term))
    return int(term.as_long())


def minimum(a: Any, b: Any) -> Any:
    return z3.If(a < b, a, b)


def maximum(a: Any, b: Any) -> Any:
    return z3.If(a > b, a, b)


def total(terms: Iterable[Any]) -> Any:
    """The sum of integer terms (0 for none)."""
    items = list(terms)
    return z3.Sum(*items) if items else z3.IntVal(0)


def ite(condition: Any, then: Any, otherwise: Any) -> Any:
    """z3.If that also takes a Python bool for the condition (fixed by the move's kind)."""
    if isinstance(condition, bool):
        return then if condition else otherwise
    return z3.If(condition, then, otherwise)


def check_at(formula: Any, timeout_ms: int = 10_000) -> z3.CheckSatResult:
    """Satisfiability of a formula over concrete points (cheap: everything but choices is fixed)."""
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(formula)
    return solver.check()


# Z3 operators a compiled term may use, as Python expressions over the operands' names.
_BINARY = {
    z3.Z3_OP_LT: "<",
    z3.Z3_OP_LE: "<=",
    z3.Z3_OP_GT: ">",
    z3.Z3_OP_GE: ">=",
    z3.Z3_OP_EQ: "==",
}
_VARIADIC = {z3.Z3_OP_ADD: " + ", z3.Z3_OP_MUL: " * ", z3.Z3_OP_AND: " and ", z3.Z3_OP_OR: " or "}


def compile_term(term: Any, inputs: Iterable[Any]) -> Callable[..., Any]:
    """A Z3 term over integer and Boolean constants as a Python function of their values, in
    `inputs` order: the same term Z3 proves things about, evaluated at Python speed (a cross-check
    that runs it at every point of a range). Each shared subterm is computed once; an operator
    outside linear integer arithmetic and Boolean logic is refused."""
    names: dict[int, str] = {}
    lines: list[str] = []
    by_constant = {str(c): f"_in{i}" for i, c in enumerate(inputs)}

    def name_of(t: Any) -> str:
        key = t.get_id()
        if key in names:
            return names[key]
        names[key] = expression = _expression(t, name_of, by_constant)
        if t.num_args() > 0:
            names[key] = f"_t{len(lines)}"
            lines.append(f"    {names[key]} = {expression}")
        return names[key]

    result = name_of(term)
    source = "def _compiled({}):\n{}\n    return {}\n".format(
        ", ".join(by_constant.values()), "\n".join(lines) or "    pass", result
    )
    scope: dict[str, Any] = {}
    exec(compile(source, "<compiled z3 term>", "exec"), scope)
    compiled: Callable[..., Any] = scope["_compiled"]
    return compiled


def _expression(t: Any, name_of: Any, by_constant: Mapping[str, str]) -> str:
    kind = t.decl().kind()
    args = [name_of(a) for a in t.children()]
    if z3.is_int_value(t):
        return str(t.as_long())
    if z3.is_true(t) or z3.is_false(t):
        return str(z3.is_true(t))
    if kind == z3.Z3_OP_UNINTERPRETED and t.num_args() == 0:
        if str(t) not in by_constant:
            raise ValueError(f"the term's constant {t} is not among the inputs")
        return by_constant[str(t)]
    if kind == z3.Z3_OP_ITE:
        return f"({args[1]} if {args[0]} else {args[2]})"
    if kind == z3.Z3_OP_IMPLIES:
        return f"(not {args[0]} or {args[1]})"
    if kind in _BINARY:
        return f"({args[0]} {_BINARY[kind]} {args[1]})"
    if kind in _VARIADIC:
        return "(" + _VARIADIC[kind].join(args) + ")"
    if kind == z3.Z3_OP_SUB:
        return "(" + " - ".join(args) + ")"
    if kind == z3.Z3_OP_UMINUS:
        return f"(-{args[0]})"
    if kind == z3.Z3_OP_NOT:
        return f"(not {args[0]})"
    if kind == z3.Z3_OP_DISTINCT:
        return f"(len({{{', '.join(args)}}}) == {len(args)})"
    raise ValueError(f"cannot compile the Z3 operator {t.decl()} (in {t})")
