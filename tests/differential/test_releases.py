"""Which releases the differential tests run (conftest.differential_releases): every supported
release by default, the oldest and the newest for the live tests, or those JOBMODEL_KUBE_VERSIONS
names."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jobmodel.features import NEWEST_RELEASE, SUPPORTED_MINORS, parse_kube_version
from tests.differential.conftest import EveryRelease, differential_releases

OLDEST = f"1.{SUPPORTED_MINORS[0]}"
EVERY = [f"1.{m}" for m in SUPPORTED_MINORS]


@pytest.fixture(autouse=True)
def no_selection(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JOBMODEL_KUBE_VERSIONS", raising=False)


def test_by_default_every_supported_release_oldest_first() -> None:
    assert differential_releases() == EVERY
    assert sorted(EVERY, key=parse_kube_version) == EVERY
    assert EVERY[0] == OLDEST and EVERY[-1] == NEWEST_RELEASE and len(EVERY) >= 3


def test_the_live_selection_is_the_oldest_and_the_newest() -> None:
    assert differential_releases(every=False) == [OLDEST, NEWEST_RELEASE]


def test_an_explicit_selection_is_taken_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JOBMODEL_KUBE_VERSIONS", "1.36,1.34")
    assert differential_releases() == differential_releases(every=False) == ["1.36", "1.34"]
    monkeypatch.setenv("JOBMODEL_KUBE_VERSIONS", "all")
    assert differential_releases() == differential_releases(every=False) == EVERY


class _Release:
    """A stand-in with only the release: EveryRelease reads nothing else."""

    def __init__(self, release: str) -> None:
        self.release = release


def test_a_case_failing_at_one_release_is_reported_with_that_release() -> None:
    every = EveryRelease([_Release(r) for r in EVERY])  # type: ignore[misc]
    failing_at = EVERY[1]
    seen: list[str] = []

    @settings(database=None, max_examples=5)
    @given(st.integers())
    def check(_n: int) -> None:
        for upstream in every:
            seen.append(upstream.release)
            assert upstream.release != failing_at

    with pytest.raises(AssertionError) as failure:
        check()
    notes = getattr(failure.value, "__notes__", [])
    assert f"at Kubernetes {failing_at}" in notes
    assert f"at Kubernetes {EVERY[2]}" not in notes
    assert seen[:2] == EVERY[:2]
