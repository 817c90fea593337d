"""Which releases the differential tests run (conftest.differential_releases): the oldest and the
newest always, one between them drawn by the seed, so that successive seeds reach every release."""

from __future__ import annotations

import pytest

from jobmodel.features import NEWEST_RELEASE, SUPPORTED_MINORS, parse_kube_version
from tests.differential.conftest import differential_releases

OLDEST = f"1.{SUPPORTED_MINORS[0]}"
BETWEEN = {f"1.{m}" for m in SUPPORTED_MINORS[1:-1]}


@pytest.fixture(autouse=True)
def no_selection(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JOBMODEL_KUBE_VERSIONS", raising=False)
    monkeypatch.delenv("HYPOTHESIS_SEED", raising=False)


def test_without_a_seed_the_oldest_and_the_newest() -> None:
    assert differential_releases() == [OLDEST, NEWEST_RELEASE]


def test_a_seed_draws_one_release_between_them_and_the_seeds_reach_every_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = set()
    for seed in range(2 * len(SUPPORTED_MINORS)):
        monkeypatch.setenv("HYPOTHESIS_SEED", str(seed))
        releases = differential_releases()
        assert releases[0] == OLDEST and releases[-1] == NEWEST_RELEASE and len(releases) == 3
        assert releases[1] in BETWEEN
        assert differential_releases() == releases  # the same seed, the same release
        drawn.add(releases[1])
    assert drawn == BETWEEN


def test_the_live_selection_leaves_the_drawn_release_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HYPOTHESIS_SEED", "2940693592")
    assert differential_releases(drawn=False) == [OLDEST, NEWEST_RELEASE]


@pytest.mark.parametrize("seed", [None, "7"])
def test_an_explicit_selection_is_taken_as_it_is(monkeypatch: pytest.MonkeyPatch, seed: str | None) -> None:
    if seed is not None:
        monkeypatch.setenv("HYPOTHESIS_SEED", seed)
    monkeypatch.setenv("JOBMODEL_KUBE_VERSIONS", "1.36,1.34")
    assert differential_releases() == differential_releases(drawn=False) == ["1.36", "1.34"]
    monkeypatch.setenv("JOBMODEL_KUBE_VERSIONS", "all")
    assert differential_releases() == sorted(differential_releases(), key=parse_kube_version)
    assert differential_releases() == [f"1.{m}" for m in SUPPORTED_MINORS]
