"""jobmodel/commands/release.py: which release a cluster given by kubeconfig is compared with
(the runs against real clusters: tests/commands/test_live_cluster.py)."""

from __future__ import annotations

import pytest

from jobmodel.commands.release import release_for_cluster, release_of_server
from jobmodel.errors import InputError
from jobmodel.features import NEWEST_MINOR, OLDEST_MINOR

WHERE = "https://127.0.0.1:6443"


@pytest.mark.parametrize(
    ("git_version", "release"),
    [
        ("v1.32.3", "1.32"),
        ("v1.37.2", "1.37"),
        ("v1.35.4+k3s1", "1.35"),
        ("v1.34.1-gke.1200", "1.34"),
        ("1.33.0", "1.33"),
        ("v1.38.0-alpha.1", "1.38"),
        ("v2.0", "2.0"),
        ("", None),
        ("unknown", None),
        ("v1", None),
        ("v1.x.3", None),
    ],
)
def test_the_release_a_server_reports(git_version: str, release: str | None) -> None:
    assert release_of_server(git_version) == release


@pytest.mark.parametrize("minor", range(OLDEST_MINOR, NEWEST_MINOR + 1))
def test_a_cluster_of_a_release_the_model_follows_is_compared_with_that_release(minor: int) -> None:
    assert release_for_cluster(None, f"v1.{minor}.1", WHERE) == (f"1.{minor}", None)


@pytest.mark.parametrize("git_version", [f"v1.{OLDEST_MINOR - 1}.9", f"v1.{NEWEST_MINOR + 1}.0"])
def test_a_cluster_of_another_release_asks_for_the_release_to_compare_with(git_version: str) -> None:
    with pytest.raises(InputError) as err:
        release_for_cluster(None, git_version, WHERE)
    assert err.value.field == "--kube-version"
    assert WHERE in err.value.reason and git_version in err.value.reason
    assert f"1.{OLDEST_MINOR}" in err.value.reason and f"1.{NEWEST_MINOR}" in err.value.reason
    # Named, it is taken, with a warning that the cluster runs another release.
    release, warning = release_for_cluster(f"1.{NEWEST_MINOR}", git_version, WHERE)
    assert release == f"1.{NEWEST_MINOR}"
    assert warning is not None and git_version in warning and WHERE in warning


def test_a_version_that_names_no_release_asks_for_one() -> None:
    with pytest.raises(InputError, match="names no release") as err:
        release_for_cluster(None, "custom-build", WHERE)
    assert err.value.field == "--kube-version"
    release, warning = release_for_cluster(f"1.{OLDEST_MINOR}", "custom-build", WHERE)
    assert release == f"1.{OLDEST_MINOR}" and warning is not None and "'custom-build'" in warning


def test_the_release_named_is_taken_silently_when_the_cluster_runs_it() -> None:
    assert release_for_cluster(f"v1.{NEWEST_MINOR}", f"v1.{NEWEST_MINOR}.2", WHERE) == (f"1.{NEWEST_MINOR}", None)


def test_a_release_named_that_the_model_does_not_follow_is_refused_whatever_the_cluster() -> None:
    with pytest.raises(InputError) as err:
        release_for_cluster("1.31", "v1.31.0", WHERE)
    assert err.value.field == "--kube-version"
