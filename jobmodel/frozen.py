"""Immutable, hashable JSON values for the parts of Kubernetes objects the model copies but does not read."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable, ItemsView, Iterator, KeysView, Mapping, ValuesView
from typing import Any, TypeVar, cast, overload

import attrs

# A JSON value as the model stores it: FrozenDict for objects, tuple for arrays.
Frozen = Any


class FrozenDict(Mapping[str, Frozen]):
    """A read-only, hashable mapping (the JSON objects inside snapshots)."""

    __slots__ = ("_data", "_hash")

    def __init__(self, data: Mapping[str, Frozen] | None = None) -> None:
        self._data: dict[str, Frozen] = dict(data or {})
        self._hash: int | None = None

    def __getitem__(self, key: str) -> Frozen:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    # Straight to the dict: the Mapping mixins go through __getitem__ and cost several calls.
    def __contains__(self, key: object) -> bool:
        return key in self._data

    @overload
    def get(self, key: str, /) -> Frozen | None: ...

    @overload
    def get(self, key: str, default: Frozen, /) -> Frozen: ...

    def get(self, key: str, default: Frozen = None, /) -> Frozen:
        return self._data.get(key, default)

    def keys(self) -> KeysView[str]:
        return self._data.keys()

    def items(self) -> ItemsView[str, Frozen]:
        return self._data.items()

    def values(self) -> ValuesView[Frozen]:
        return self._data.values()

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._data.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if isinstance(other, FrozenDict):
            return self._data == other._data
        if isinstance(other, Mapping):
            return self._data == dict(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"FrozenDict({self._data!r})"

    def set(self, key: str, value: Frozen) -> FrozenDict:
        """A copy with `key` set to `value`."""
        data = dict(self._data)
        data[key] = value
        return FrozenDict(data)

    def without(self, key: str) -> FrozenDict:
        """A copy without `key`."""
        data = dict(self._data)
        data.pop(key, None)
        return FrozenDict(data)


EMPTY = FrozenDict()


def freeze(value: Any) -> Frozen:
    """Turn plain JSON (dicts, lists, scalars) into FrozenDict/tuple form."""
    if isinstance(value, FrozenDict):
        return value
    if isinstance(value, Mapping):
        return FrozenDict({str(k): freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Frozen) -> Any:
    """Turn a frozen value back into plain JSON (dicts and lists)."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value


def str_map(value: Mapping[str, str] | None) -> FrozenDict:
    """A frozen string-to-string map (labels, annotations, selectors)."""
    return FrozenDict(value or {})


# --- interning -------------------------------------------------------------------------------------

# Weak: a pod or Job no state holds any more is forgotten. An id in INTERNED_IDS may outlive its
# object and name a new one: that object is then taken as interned, which only costs sharing.
_INTERNED: weakref.WeakValueDictionary[object, Any] = weakref.WeakValueDictionary()
INTERNED_IDS: set[int] = set()
INTERNED_LIMIT = 1 << 18
H = TypeVar("H", bound=Hashable)


def interned(value: H) -> H:
    """The one object standing for every value equal to `value` (hash-consing): the pods and
    Jobs of canonical worlds (jobmodel.transitions.job_symmetry) and the pods the environment's
    moves make compare by identity, so the explorer's table and the memos keyed by them compare
    worlds cheaply."""
    if id(value) in INTERNED_IDS:
        return value
    if len(INTERNED_IDS) >= INTERNED_LIMIT:
        _INTERNED.clear()  # only costs sharing, never correctness
        INTERNED_IDS.clear()
    found: H = _INTERNED.setdefault(value, value)
    INTERNED_IDS.add(id(found))
    return found


# --- evolve ---------------------------------------------------------------------------------------

T = TypeVar("T")
_UNCHANGED: Any = object()
_EVOLVERS: dict[type, Callable[..., Any]] = {}


def evolve(inst: T, **changes: Any) -> T:
    """`attrs.evolve(inst, **changes)`: a new instance through the class's constructor (so its
    validators and converters run and a cached hash starts afresh), by a function generated once
    per class; attrs.evolve looks up the fields and reads each one by name on every call, which
    costs twice as much on the checkers' hot paths."""
    fn = _EVOLVERS.get(inst.__class__)
    if fn is None:
        fn = evolver(inst.__class__)
    result: T = fn(inst, **changes)
    return result


def evolver(cls: type[T]) -> Callable[..., T]:
    """The class's own `evolve(inst, **changes)` (see `evolve`), for the hottest call sites."""
    known = _EVOLVERS.get(cls)
    if known is not None:
        return known
    fields = [f for f in attrs.fields(cast(Any, cls)) if f.init]
    for f in fields:
        if not (f.alias.isidentifier() and f.name.isidentifier()):
            raise TypeError(f"cannot generate evolve for {cls.__name__}.{f.name}")
    params = ", ".join(f"{f.alias}=_UNCHANGED" for f in fields)
    # Positional arguments first (attrs puts keyword-only fields after them in __init__).
    args = ", ".join(
        f"{f.alias + '=' if f.kw_only else ''}inst.{f.name} if {f.alias} is _UNCHANGED else {f.alias}"
        for f in sorted(fields, key=lambda f: f.kw_only)
    )
    namespace: dict[str, Any] = {"_UNCHANGED": _UNCHANGED, "cls": cls}
    exec(f"def evolve(inst, *, {params}):\n    return cls({args})\n", namespace)
    fn: Callable[..., T] = namespace["evolve"]
    fn.__qualname__ = f"{cls.__qualname__}.evolve"
    _EVOLVERS[cls] = fn
    return fn


# --- equality -------------------------------------------------------------------------------------

A = TypeVar("A", bound=type)


def identity_first_eq(cls: A) -> A:
    """Give an attrs class an `__eq__` that takes identical fields as equal without calling their
    `__eq__` (as tuples and dicts compare their items). attrs' own compares every field with `==`,
    which for a field holding the very same snapshot walks it field by field; the checkers' worlds
    share most of their parts (interned pods and Jobs, one set of gates), so this is where their
    comparisons go. The same answer for every value that equals itself."""
    fields = [f for f in attrs.fields(cls) if f.eq]
    if any(f.eq_key is not None for f in fields):
        raise TypeError(f"{cls.__name__}: a field compares by a key")
    body = " and ".join(f"(self.{f.name} is other.{f.name} or self.{f.name} == other.{f.name})" for f in fields)
    source = (
        "def __eq__(self, other):\n"
        "    if self is other:\n"
        "        return True\n"
        "    if other.__class__ is not self.__class__:\n"
        "        return NotImplemented\n"
        f"    return {body or 'True'}\n"
    )
    namespace: dict[str, Any] = {}
    exec(source, namespace)
    eq = namespace["__eq__"]
    eq.__qualname__ = f"{cls.__qualname__}.__eq__"
    cls.__eq__ = eq  # type: ignore[method-assign]  # attrs' __ne__ calls it; the hash stays attrs'
    return cls
