"""Frozen JSON (jobmodel/frozen.py): a FrozenDict reads as the dict it holds, and is hashable."""

from __future__ import annotations

import attrs
import pytest

from jobmodel.frozen import FrozenDict, evolve, freeze, identity_first_eq, thaw

DATA = {"a": 1, "b": {"c": [1, 2]}, "d": None}


def test_a_frozen_dict_reads_like_its_dict() -> None:
    frozen = freeze(DATA)
    assert isinstance(frozen, FrozenDict)
    assert frozen.get("a") == 1 and frozen.get("zz") is None and frozen.get("zz", 7) == 7
    assert frozen.get("d", 7) is None  # a present null is not the default
    assert "b" in frozen and "zz" not in frozen
    assert list(frozen.keys()) == ["a", "b", "d"] and list(frozen) == ["a", "b", "d"]
    assert list(frozen.values()) == [1, freeze(DATA["b"]), None] and dict(frozen.items())[
        "b"
    ] == freeze(DATA["b"])
    assert thaw(frozen) == DATA


def test_equal_frozen_dicts_are_equal_and_hash_alike() -> None:
    one, two = freeze(DATA), freeze(DATA)
    assert one is not two and one == two and hash(one) == hash(two) and one == one
    assert one != freeze({**DATA, "a": 2}) and FrozenDict({"x": 1}) == {"x": 1}


# --- evolve ---------------------------------------------------------------------------------------


def _magnitude(value: int) -> int:
    return abs(value)


@attrs.frozen(cache_hash=True)
class _Point:
    x: int
    y: int = attrs.field(default=0, converter=_magnitude)
    z: int = attrs.field(default=0, kw_only=True)


def test_evolve_builds_through_the_constructor_like_attrs_evolve() -> None:
    point = _Point(1, 2, z=3)
    hash(point)  # a cached hash must not carry over
    for changes in ({}, {"x": 5}, {"y": -4}, {"z": 7, "x": 0}):
        moved = evolve(point, **changes)
        assert moved == attrs.evolve(point, **changes)
        assert hash(moved) == hash(attrs.evolve(point, **changes))
    assert evolve(point, y=-4).y == 4  # the converter ran


def test_evolve_rejects_an_unknown_field() -> None:
    with pytest.raises(TypeError):
        evolve(_Point(1), w=2)


# --- identity_first_eq --------------------------------------------------------------------------


class _Counted:
    """A value that counts the calls of its __eq__ (equal to every _Counted)."""

    calls = 0

    def __eq__(self, other: object) -> bool:
        _Counted.calls += 1
        return isinstance(other, _Counted)

    __hash__ = object.__hash__


@identity_first_eq
@attrs.frozen
class _Pair:
    shared: object
    other: int = 0


def test_identity_first_eq_skips_identical_fields_and_compares_the_rest() -> None:
    part = _Counted()
    _Counted.calls = 0
    assert _Pair(part, 1) == _Pair(part, 1) and _Counted.calls == 0
    assert _Pair(part, 1) == _Pair(_Counted(), 1) and _Counted.calls == 1
    assert _Pair(part, 1) != _Pair(part, 2)
    assert not _Pair(part, 1).__ne__(_Pair(part, 1))  # attrs' __ne__ answers by this __eq__
    assert _Pair(part).__eq__(part) is NotImplemented
    assert hash(_Pair(1, 2)) == hash(_Pair(1, 2))
