"""Go's `sort.Sort` and `sort.Slice`, whose order of equal elements the controllers' results depend on.

Both are unstable (pattern-defeating quicksort since Go 1.19), so which of several equal pods
the Job controller deletes or processes first follows from the exact algorithm; this module is
a step-for-step port of Go's `src/sort/zsortinterface.go` (`pdqsort` and its helpers) and
`sort.go`, with `Less(i, j)` read as `less(data[i], data[j])` and `Swap` as a list swap.

One function serves both entry points: `sort.Slice` runs `pdqsort_func` from `zsortfunc.go`,
which is generated from the same template as `zsortinterface.go` (the two files are identical
up to names in every Go release checked), with the same limit `bits.Len(uint(n))`; `sort.Sort`
only adds an early return for n <= 1, where pdqsort's insertion sort changes nothing either.

Go version: Kubernetes v1.32 is built with Go 1.23 (`.go-version`: 1.23.3 in v1.32.0, 1.23.6
in v1.32.3). Go 1.24 changed `xorshift.Next` (golang/go#70144), the generator `breakPatterns`
uses to pick the elements it swaps, from the shifts 13/17/5 to 13/7/17; nothing else in the
sort package's pdqsort differs between the releases checked (1.23.3, 1.23.12, 1.24.0, 1.26.8).
The default here is Go 1.23's; `XORSHIFT_GO1_24` gives the later order, which differs only for
inputs that hit an unbalanced partition (and only in where equal elements end up).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Any, Final, Protocol, TypeVar

T = TypeVar("T")


class _Ordered(Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


K = TypeVar("K", bound=_Ordered)

Less = Callable[[T, T], bool]
XorshiftShifts = tuple[int, int, int]

# The shifts of `xorshift.Next`: (left, right, left) on a uint64.
XORSHIFT_GO1_23: Final[XorshiftShifts] = (13, 17, 5)  # Go 1.23.x (releases before 1.23 not checked)
XORSHIFT_GO1_24: Final[XorshiftShifts] = (13, 7, 17)  # Go 1.24 and later

_MAX_INSERTION: Final = 12  # pdqsort's maxInsertion
_SHORTEST_NINTHER: Final = 50  # choosePivot's shortestNinther
_MAX_SWAPS: Final = 4 * 3  # choosePivot's maxSwaps
_MAX_STEPS: Final = 5  # partialInsertionSort's maxSteps
_SHORTEST_SHIFTING: Final = 50  # partialInsertionSort's shortestShifting
_UINT64: Final = (1 << 64) - 1

# sortedHint
_UNKNOWN_HINT: Final = 0
_INCREASING_HINT: Final = 1
_DECREASING_HINT: Final = 2


def shifts_for_release(minor: int) -> XorshiftShifts:
    """The sort of the Go that builds Kubernetes 1.`minor` (its `.go-version`): v1.32.3 Go 1.23.6,
    v1.33.13 Go 1.25.11, v1.34.4 Go 1.24.12, v1.35.4 Go 1.25.9, v1.36.3 Go 1.26.5, v1.37.2 Go 1.26.10."""
    return XORSHIFT_GO1_23 if minor <= 32 else XORSHIFT_GO1_24


def go_sort(items: Sequence[T], less: Less[T], shifts: XorshiftShifts = XORSHIFT_GO1_23) -> list[T]:
    """sort.Sort / sort.Slice: a new list in the order Go's pdqsort leaves the slice (Go 1.23's
    unless `shifts` names another Go's, `shifts_for_release`)."""
    data = list(items)
    n = len(data)
    if n <= _MAX_INSERTION:
        # What pdqsort does for short slices; skips the set-up the model pays on every sync.
        insertion_sort(data, less, 0, n)
        return data
    pdqsort(data, less, 0, n, n.bit_length(), shifts)
    return data


def go_sort_by_key(
    items: Sequence[T], key: Callable[[T], K], shifts: XorshiftShifts = XORSHIFT_GO1_23
) -> tuple[list[T], list[K]]:
    """go_sort with `less` comparing `key(a) < key(b)`, each key computed once; also returns the
    sorted items' keys. Items already in order (no key less than the one before) come back as
    they are, without the sort: pdqsort leaves such a slice unchanged (choosePivot counts no
    swaps, so the increasing hint, and partialInsertionSort finds it sorted)."""
    keys = [key(item) for item in items]
    if not any(b < a for a, b in pairwise(keys)):  # also 0 or 1 items (most of a sync's sorts)
        return list(items), keys
    if len(keys) <= _MAX_INSERTION:
        # insertion_sort (what go_sort does for short slices) on the keys, moving the items along.
        data = list(items)
        for i in range(1, len(keys)):
            j = i
            while j > 0 and keys[j] < keys[j - 1]:
                keys[j], keys[j - 1] = keys[j - 1], keys[j]
                data[j], data[j - 1] = data[j - 1], data[j]
                j -= 1
        return data, keys
    by_id = {id(item): k for item, k in zip(items, keys, strict=True)}
    ordered = go_sort(items, lambda a, b: by_id[id(a)] < by_id[id(b)], shifts)
    return ordered, [by_id[id(item)] for item in ordered]


# sort.Slice runs the same algorithm (pdqsort_func is generated from the same template).
go_slice_sort = go_sort


def go_sort_with(items: Sequence[T], less: Less[T], shifts: XorshiftShifts) -> list[T]:
    """sort.Sort as built by a Go whose `xorshift.Next` uses `shifts` (see XORSHIFT_GO1_24)."""
    data = list(items)
    n = len(data)
    if n > 1:  # sort.Sort's early return
        pdqsort(data, less, 0, n, n.bit_length(), shifts)
    return data


def insertion_sort(data: list[T], less: Less[T], a: int, b: int) -> None:
    """insertionSort: sorts data[a:b], moving each element left past greater ones."""
    for i in range(a + 1, b):
        j = i
        while j > a and less(data[j], data[j - 1]):
            data[j], data[j - 1] = data[j - 1], data[j]
            j -= 1


def sift_down(data: list[T], less: Less[T], lo: int, hi: int, first: int) -> None:
    """siftDown: restores the max-heap property of data[first+lo : first+hi] from root lo."""
    root = lo
    while True:
        child = 2 * root + 1
        if child >= hi:
            return
        if child + 1 < hi and less(data[first + child], data[first + child + 1]):
            child += 1
        if not less(data[first + root], data[first + child]):
            return
        data[first + root], data[first + child] = data[first + child], data[first + root]
        root = child


def heap_sort(data: list[T], less: Less[T], a: int, b: int) -> None:
    """heapSort: pdqsort's fallback once too many bad pivots were chosen."""
    first = a
    hi = b - a
    for i in range((hi - 1) // 2, -1, -1):
        sift_down(data, less, i, hi, first)
    for i in range(hi - 1, -1, -1):
        data[first], data[first + i] = data[first + i], data[first]
        sift_down(data, less, 0, i, first)


def pdqsort(
    data: list[T], less: Less[T], a: int, b: int, limit: int, shifts: XorshiftShifts
) -> None:
    """pdqsort: sorts data[a:b]; limit is the number of bad pivots allowed before heapsort."""
    was_balanced = True
    was_partitioned = True
    while True:
        length = b - a
        if length <= _MAX_INSERTION:
            insertion_sort(data, less, a, b)
            return
        if limit == 0:
            heap_sort(data, less, a, b)
            return
        if not was_balanced:
            break_patterns(data, a, b, shifts)
            limit -= 1

        pivot, hint = choose_pivot(data, less, a, b)
        if hint == _DECREASING_HINT:
            reverse_range(data, a, b)
            # The pivot keeps its element: it is now as far from the end as it was from the start.
            pivot = (b - 1) - (pivot - a)
            hint = _INCREASING_HINT

        if (
            was_balanced
            and was_partitioned
            and hint == _INCREASING_HINT
            and partial_insertion_sort(data, less, a, b)
        ):
            return

        # data[a-1] was an earlier pivot, so nothing here is smaller than it: if the new pivot
        # is not greater, it equals it, and the run of equal elements is split off in one pass.
        if a > 0 and not less(data[a - 1], data[pivot]):
            a = partition_equal(data, less, a, b, pivot)
            continue

        mid, was_partitioned = partition(data, less, a, b, pivot)
        left_len, right_len = mid - a, b - mid
        balance_threshold = length // 8
        if left_len < right_len:
            was_balanced = left_len >= balance_threshold
            pdqsort(data, less, a, mid, limit, shifts)
            a = mid + 1
        else:
            was_balanced = right_len >= balance_threshold
            pdqsort(data, less, mid + 1, b, limit, shifts)
            b = mid


def partition(data: list[T], less: Less[T], a: int, b: int, pivot: int) -> tuple[int, bool]:
    """partition: one quicksort pass around data[pivot]; returns its new index and whether no swap was needed."""
    data[a], data[pivot] = data[pivot], data[a]
    p = data[a]
    i, j = a + 1, b - 1
    while i <= j and less(data[i], p):
        i += 1
    while i <= j and not less(data[j], p):
        j -= 1
    if i > j:
        data[j], data[a] = data[a], data[j]
        return j, True
    data[i], data[j] = data[j], data[i]
    i += 1
    j -= 1
    while True:
        while i <= j and less(data[i], p):
            i += 1
        while i <= j and not less(data[j], p):
            j -= 1
        if i > j:
            break
        data[i], data[j] = data[j], data[i]
        i += 1
        j -= 1
    data[j], data[a] = data[a], data[j]
    return j, False


def partition_equal(data: list[T], less: Less[T], a: int, b: int, pivot: int) -> int:
    """partitionEqual: moves the elements equal to data[pivot] before the greater ones; returns the split."""
    data[a], data[pivot] = data[pivot], data[a]
    p = data[a]
    i, j = a + 1, b - 1
    while True:
        while i <= j and not less(p, data[i]):
            i += 1
        while i <= j and less(p, data[j]):
            j -= 1
        if i > j:
            return i
        data[i], data[j] = data[j], data[i]
        i += 1
        j -= 1


def partial_insertion_sort(data: list[T], less: Less[T], a: int, b: int) -> bool:
    """partialInsertionSort: fixes up to 5 out-of-order pairs; True if data[a:b] ends sorted."""
    i = a + 1
    for _ in range(_MAX_STEPS):
        while i < b and not less(data[i], data[i - 1]):
            i += 1
        if i == b:
            return True
        if b - a < _SHORTEST_SHIFTING:
            return False
        data[i], data[i - 1] = data[i - 1], data[i]
        # Shift the smaller one to the left. Go's loop runs down to index 1, not a+1; the
        # element before a is an earlier pivot, never greater, so the bound is never reached.
        if i - a >= 2:
            for j in range(i - 1, 0, -1):
                if not less(data[j], data[j - 1]):
                    break
                data[j], data[j - 1] = data[j - 1], data[j]
        # Shift the greater one to the right.
        if b - i >= 2:
            for j in range(i + 1, b):
                if not less(data[j], data[j - 1]):
                    break
                data[j], data[j - 1] = data[j - 1], data[j]
    return False


def xorshift_next(state: int, shifts: XorshiftShifts) -> int:
    """xorshift.Next: the next state (and value) of the uint64 generator."""
    left1, right, left2 = shifts
    state ^= (state << left1) & _UINT64
    state ^= state >> right
    state ^= (state << left2) & _UINT64
    return state


def next_power_of_two(length: int) -> int:
    """nextPowerOfTwo: 1 << bits.Len(length), which is 2*length when length is a power of two."""
    return 1 << length.bit_length()


def break_patterns(data: list[T], a: int, b: int, shifts: XorshiftShifts) -> None:
    """breakPatterns: swaps the three middle elements with ones picked by xorshift seeded from the length."""
    length = b - a
    if length < 8:
        return
    random = length
    mask = next_power_of_two(length) - 1
    middle = a + (length // 4) * 2
    for idx in range(middle - 1, middle + 2):
        random = xorshift_next(random, shifts)
        other = random & mask
        if other >= length:
            other -= length
        data[idx], data[a + other] = data[a + other], data[idx]


def choose_pivot(data: list[T], less: Less[T], a: int, b: int) -> tuple[int, int]:
    """choosePivot: median of three (Tukey's ninther from 50 elements); returns (pivot, sortedHint)."""
    length = b - a
    swaps = 0
    i = a + length // 4 * 1
    j = a + length // 4 * 2
    k = a + length // 4 * 3
    if length >= 8:
        if length >= _SHORTEST_NINTHER:
            i, s1 = median_adjacent(data, less, i)
            j, s2 = median_adjacent(data, less, j)
            k, s3 = median_adjacent(data, less, k)
            swaps += s1 + s2 + s3
        j, s4 = median(data, less, i, j, k)
        swaps += s4
    if swaps == 0:
        return j, _INCREASING_HINT
    if swaps == _MAX_SWAPS:
        return j, _DECREASING_HINT
    return j, _UNKNOWN_HINT


def order2(data: list[T], less: Less[T], a: int, b: int) -> tuple[int, int, int]:
    """order2: (x, y, swaps) with data[x] <= data[y], {x, y} = {a, b}; swaps is 1 if reversed."""
    if less(data[b], data[a]):
        return b, a, 1
    return a, b, 0


def median(data: list[T], less: Less[T], a: int, b: int, c: int) -> tuple[int, int]:
    """median: (index of the median of data[a], data[b], data[c], swaps counted by order2)."""
    a, b, s1 = order2(data, less, a, b)
    b, c, s2 = order2(data, less, b, c)
    a, b, s3 = order2(data, less, a, b)
    return b, s1 + s2 + s3


def median_adjacent(data: list[T], less: Less[T], a: int) -> tuple[int, int]:
    """medianAdjacent: the median of data[a-1], data[a], data[a+1], with its swaps."""
    return median(data, less, a - 1, a, a + 1)


def reverse_range(data: list[T], a: int, b: int) -> None:
    """reverseRange: reverses data[a:b] in place."""
    data[a:b] = data[a:b][::-1]
