"""Tests for jobmodel.util.gosort: properties that need no Go, orders recorded from Go, and a
differential test against Go itself (harness/gosort, built here with `go build`)."""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from jobmodel.util import gosort
from jobmodel.util.gosort import (
    XORSHIFT_GO1_23,
    XORSHIFT_GO1_24,
    XorshiftShifts,
    go_slice_sort,
    go_sort,
    go_sort_by_key,
    go_sort_with,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
HARNESS = REPO_ROOT / "harness" / "gosort"
# The Go that builds Kubernetes v1.32.0 (its .go-version); every 1.23.x has the same sort package.
KUBERNETES_GO = "go1.23.3"
MAX_LEN = 200


# ---------------------------------------------------------------------------------------------
# Inputs


def permutation(keys: list[int], shifts: XorshiftShifts | None = None) -> list[int]:
    """The original positions of `keys` in the order go_sort (or go_sort_with shifts) leaves them."""
    positions = list(range(len(keys)))
    if shifts is None:
        return go_sort(positions, lambda i, j: keys[i] < keys[j])
    return go_sort_with(positions, lambda i, j: keys[i] < keys[j], shifts)


@functools.cache
def adversary_keys(n: int) -> tuple[int, ...]:
    """Distinct keys that drive pdqsort into unbalanced partitions down to its heapsort fallback.

    McIlroy's "killer adversary": every key starts as unknown ("gas", above all known keys);
    when two unknown keys are compared the first operand is fixed to the next smallest value,
    so each pivot comes out near the minimum. Replaying the fixed keys repeats the comparisons.
    """
    gas = n
    values = [gas] * n
    fixed = 0

    def less(x: int, y: int) -> bool:
        nonlocal fixed
        if values[x] == gas and values[y] == gas:
            values[x] = fixed
            fixed += 1
        return values[x] < values[y]

    go_sort(list(range(n)), less)
    # At most one key is never fixed; any value above the fixed ones replays the same answers.
    return tuple(v if v != gas else fixed for v in values)


def pattern_keys(name: str, n: int, m: int) -> list[int]:
    """Keys of length n in one of the shapes that steer pdqsort's branches; m is a small parameter."""
    if name == "sorted":
        return [i // m for i in range(n)]
    if name == "reversed":
        return [(n - i) // m for i in range(n)]
    if name == "equal":
        return [0] * n
    if name == "sawtooth":
        return [i % m for i in range(n)]
    if name == "reversed-sawtooth":
        return [(n - i) % m for i in range(n)]
    if name == "organ-pipe":
        return [min(i, n - i) // m for i in range(n)]
    if name == "push-front":
        return [n // m, *(i // m for i in range(n - 1))][:n]
    if name == "push-middle":
        keys = [i // m for i in range(n)]
        return [*keys[: n // 2], n, *keys[n // 2 : -1]] if n else []
    if name == "adversary":
        # Clamping the large keys keeps the bad pivots (all small) and adds many ties.
        return [min(v, n // m) for v in adversary_keys(n)]
    raise AssertionError(name)


PATTERNS = (
    "sorted",
    "reversed",
    "equal",
    "sawtooth",
    "reversed-sawtooth",
    "organ-pipe",
    "push-front",
    "push-middle",
    "adversary",
)

tie_heavy_keys = st.integers(0, 8).flatmap(
    lambda top: st.lists(st.integers(0, top), max_size=MAX_LEN)
)
patterned_keys = st.builds(
    pattern_keys, st.sampled_from(PATTERNS), st.integers(0, MAX_LEN), st.integers(1, 12)
)


@st.composite
def nearly_sorted_keys(draw: st.DrawFn) -> list[int]:
    """Sorted or reversed keys with a few swaps (the partialInsertionSort paths)."""
    keys = draw(patterned_keys.filter(lambda k: len(k) >= 2))
    if draw(st.booleans()):
        keys.sort()
    for _ in range(draw(st.integers(0, 6))):
        i = draw(st.integers(0, len(keys) - 1))
        j = draw(st.integers(0, len(keys) - 1))
        keys[i], keys[j] = keys[j], keys[i]
    return keys


def corpus() -> list[list[int]]:
    """A fixed corpus: every pattern at every length up to MAX_LEN with a few parameters."""
    cases = [
        pattern_keys(name, n, m)
        for name in PATTERNS
        for n in range(MAX_LEN + 1)
        for m in (1, 2, 3, 7)
    ]
    cases += [pattern_keys("adversary", n, m) for n in (300, 500, 1000) for m in (1, 2, 4)]
    return cases


# ---------------------------------------------------------------------------------------------
# Properties that need no Go


@given(st.lists(st.integers(0, 3), max_size=12))
def test_short_lists_sort_stably(keys: list[int]) -> None:
    """Up to 12 elements Go uses insertion sort, which keeps equal elements in order."""
    assert permutation(keys) == sorted(range(len(keys)), key=lambda i: keys[i])


@given(st.one_of(tie_heavy_keys, patterned_keys, st.lists(st.integers(), max_size=400)))
def test_result_is_a_sorted_permutation(keys: list[int]) -> None:
    result = go_sort(keys, lambda a, b: a < b)
    assert result == sorted(keys)
    order = permutation(keys)
    assert sorted(order) == list(range(len(keys)))
    assert [keys[i] for i in order] == sorted(keys)


@given(st.one_of(tie_heavy_keys, patterned_keys, nearly_sorted_keys(), st.lists(st.integers(0, 5), max_size=120).map(sorted)))
def test_sort_by_key_is_go_sort_by_the_key(keys: list[int]) -> None:
    """go_sort_by_key, which skips the sort for items already in order, leaves the same items
    (not just equal keys: distinct objects with tied keys) where go_sort leaves them."""
    items = [(key, position) for position, key in enumerate(keys)]
    ordered, ordered_keys = go_sort_by_key(items, lambda item: item[0])
    assert ordered == go_sort(items, lambda a, b: a[0] < b[0])
    assert ordered_keys == [item[0] for item in ordered]


def test_input_is_not_changed() -> None:
    items = [3, 1, 2] * 10
    before = list(items)
    assert go_sort(tuple(items), lambda a, b: a < b) == sorted(before)
    assert items == before


def test_slice_sort_is_the_same_function() -> None:
    """sort.Slice runs the same generated pdqsort as sort.Sort."""
    assert go_slice_sort is go_sort


def test_less_sees_elements_not_positions() -> None:
    pods = [("b", 2), ("a", 1), ("c", 3)] * 6
    result = go_sort(pods, lambda p, q: p[1] < q[1])
    assert [p[1] for p in result] == sorted(p[1] for p in pods)


def test_xorshift_by_hand() -> None:
    """State 1: 1 ^ 1<<13 = 8193; >>17 adds nothing; 8193 ^ 8193<<5 = 270369 (Go 1.23 shifts)."""
    assert gosort.xorshift_next(1, XORSHIFT_GO1_23) == 270369
    # Go 1.24: 8193 ^ 8193>>7 = 8193 ^ 64 = 8257; 8257<<17 = 1082261504 shares no bit with 8257.
    assert gosort.xorshift_next(1, XORSHIFT_GO1_24) == 1082261504 + 8257
    # uint64 wrap-around: the top bit shifted left is lost.
    assert gosort.xorshift_next(1 << 63, XORSHIFT_GO1_23) < 1 << 64


def test_next_power_of_two_doubles_powers_of_two() -> None:
    assert [gosort.next_power_of_two(n) for n in (7, 8, 13, 16, 200)] == [8, 16, 16, 32, 256]


# Orders printed by harness/gosort built with Go 1.23.3 (and 1.26.8 for the last one).
GO_1_23_ORDERS = [
    pytest.param(
        [1, 0, 2] * 6 + [1, 0],
        [7, 1, 19, 16, 4, 13, 10, 15, 9, 6, 12, 0, 3, 18, 8, 11, 5, 14, 17, 2],
        id="ties-partition",
    ),
    pytest.param(
        [1, 1, 3, 0, 2, 4, 4, 1, 2, 0, 1, 0, 0, 0],
        [9, 13, 3, 12, 11, 0, 1, 7, 10, 8, 4, 2, 6, 5],
        id="break-patterns",
    ),
]


@pytest.mark.parametrize(("keys", "expected"), GO_1_23_ORDERS)
def test_known_go_1_23_orders(keys: list[int], expected: list[int]) -> None:
    assert permutation(keys) == expected


def test_known_go_1_24_order_differs_only_through_break_patterns() -> None:
    keys = [1, 1, 3, 0, 2, 4, 4, 1, 2, 0, 1, 0, 0, 0]
    assert permutation(keys, XORSHIFT_GO1_24) == [9, 12, 13, 3, 11, 10, 1, 0, 7, 8, 4, 2, 5, 6]


def count_calls(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    """Counts the calls of gosort.<name> (pdqsort looks it up in the module at each call)."""
    calls = [0]
    original: Callable[..., None] = getattr(gosort, name)

    def counted(*args: object) -> None:
        calls[0] += 1
        original(*args)

    monkeypatch.setattr(gosort, name, counted)
    return calls


@pytest.mark.parametrize("n", [30, 100, 200, 1000])
def test_adversary_reaches_heapsort_with_ties(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    """The corpus does exercise the fallback (and on keys with ties, where it matters)."""
    heap_sorts = count_calls(monkeypatch, "heap_sort")
    keys = pattern_keys("adversary", n, 2)
    assert len(set(keys)) < n
    assert go_sort(keys, lambda a, b: a < b) == sorted(keys)
    assert heap_sorts[0] >= 1


def test_corpus_tells_go_versions_apart() -> None:
    """Enough cases reach breakPatterns that the Go 1.23 and 1.24 generators give other orders."""
    differing = [
        k for k in corpus() if permutation(k, XORSHIFT_GO1_23) != permutation(k, XORSHIFT_GO1_24)
    ]
    assert len(differing) > 100


# ---------------------------------------------------------------------------------------------
# Differential test against Go


def build_harness(toolchain: str, name: str) -> Path:
    """go build harness/gosort with GOTOOLCHAIN=toolchain; a failure fails the test with Go's output."""
    go = shutil.which("go")
    if go is None:
        pytest.fail("`go` is not on PATH: the differential test of jobmodel.util.gosort needs it")
    binary = HARNESS / "bin" / name
    env = {**os.environ, "GOTOOLCHAIN": toolchain}
    try:
        proc = subprocess.run(
            [go, "build", "-buildvcs=false", "-o", str(binary), "."],
            cwd=HARNESS,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"go build (GOTOOLCHAIN={toolchain}) timed out: {exc}")
    if proc.returncode != 0:
        pytest.fail(f"go build (GOTOOLCHAIN={toolchain}) failed:\n{proc.stdout}{proc.stderr}")
    return binary


def shifts_for(go_version: str) -> XorshiftShifts:
    """The xorshift a Go release's sort package uses: Go 1.24 changed it (golang/go#70144)."""
    major, minor = (int(part) for part in go_version.removeprefix("go").split(".")[:2])
    return XORSHIFT_GO1_24 if (major, minor) >= (1, 24) else XORSHIFT_GO1_23


class GoSorter:
    """One running harness process, asked one input at a time."""

    def __init__(self, binary: Path) -> None:
        self.proc = subprocess.Popen(
            [str(binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.version = self.orders([])[0]
        # The model's own entry point for Kubernetes' Go; the generic one for any other.
        self.shifts = None if self.version == KUBERNETES_GO else shifts_for(self.version)

    def orders(self, keys: list[int]) -> tuple[str, list[int], list[int]]:
        """(Go version, sort.Sort's permutation, sort.Slice's permutation)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"keys": keys}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            pytest.fail(f"harness exited with {self.proc.wait()}")
        answer = json.loads(line)
        return answer["go"], answer["sort"], answer["slice"]

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


@pytest.fixture(scope="module")
def go_sorters() -> Iterator[list[GoSorter]]:
    """The harness built with Kubernetes v1.32's Go and with the machine's own Go."""
    sorters = [
        GoSorter(build_harness(KUBERNETES_GO, "gosort-kubernetes")),
        GoSorter(build_harness("local", "gosort-local")),
    ]
    assert sorters[0].version == KUBERNETES_GO
    yield sorters
    for sorter in sorters:
        sorter.close()


def examples(at_least: int) -> int:
    """At least `at_least` examples, more under a profile that asks for more ("long")."""
    profile = settings.default
    return max(at_least, profile.max_examples if profile is not None else 0)


def differences(sorters: list[GoSorter], keys: list[int]) -> list[str]:
    problems = []
    for sorter in sorters:
        expected = permutation(keys, sorter.shifts)
        _, by_sort, by_slice = sorter.orders(keys)
        if by_sort != expected:
            problems.append(f"{sorter.version} sort.Sort: {by_sort}, model: {expected}")
        if by_slice != expected:
            problems.append(f"{sorter.version} sort.Slice: {by_slice}, model: {expected}")
    return problems


@settings(max_examples=examples(1500))
@given(tie_heavy_keys)
@example([1, 1, 3, 0, 2, 4, 4, 1, 2, 0, 1, 0, 0, 0])
def test_matches_go_on_ties(go_sorters: list[GoSorter], keys: list[int]) -> None:
    assert differences(go_sorters, keys) == []


@settings(max_examples=examples(1000))
@given(st.one_of(patterned_keys, nearly_sorted_keys()))
def test_matches_go_on_patterns(go_sorters: list[GoSorter], keys: list[int]) -> None:
    assert differences(go_sorters, keys) == []


def test_matches_go_on_corpus(go_sorters: list[GoSorter]) -> None:
    cases = corpus()
    problems = [(keys, p) for keys in cases for p in differences(go_sorters, keys)]
    assert problems[:3] == []
