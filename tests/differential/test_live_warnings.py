"""The API server's warnings: the model's (jobmodel/api/warnings.py, through the recorder that
builds the response's `Warning` headers) against a real kube-apiserver's, on dry-run creates of
generated Jobs and CronJobs that are valid but warned of, on the control planes of 1.32 and of
the newest release. The harness's differential test (test_api.py::test_warnings_agree) calls the
strategies; this one goes through the wire: decoding, defaulting, admission, the recorder."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jobmodel.adapters.controlplane import ControlPlane
from jobmodel.adapters.live import LiveCluster, Rejected
from jobmodel.api import strategy
from jobmodel.api.warnings import handler_warnings, recorded_warnings, warnings_on_create
from jobmodel.features import gates_for
from jobmodel.strategies.api import warned_cron_jobs, warned_jobs

pytestmark = pytest.mark.live

SEEN: list[int] = []  # warnings per accepted create, for the check at the end


@pytest.fixture(params=["plane", "newest_plane"])
def cluster(request: pytest.FixtureRequest) -> Iterator[tuple[str, LiveCluster]]:
    plane: ControlPlane = request.getfixturevalue(request.param)
    live = LiveCluster.connect(plane.kubeconfig)
    yield plane.release, live
    live.close()


def model_create(release: str, manifest: dict[str, Any]) -> tuple[bool, list[str]]:
    """The model's verdict on the create, and the warnings its response would carry."""
    kind, stored, errors = strategy.create_object(manifest, "default", None, gates_for(release))
    if errors:
        return False, []
    return True, recorded_warnings(handler_warnings(manifest) + warnings_on_create(kind, stored, gates_for(release).release))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture], derandomize=True)
@given(st.one_of(warned_jobs(), warned_cron_jobs()))
def test_a_real_api_server_warns_as_the_model_does(cluster: tuple[str, LiveCluster], manifest: dict[str, Any]) -> None:
    release, live = cluster
    valid, warned = model_create(release, manifest)
    try:
        _, real = live.create_dry_run(manifest["kind"], "default", manifest)
    except Rejected as refused:
        assert not valid, f"the API server refuses what the model accepts: {refused}"
        return
    assert valid, f"the API server accepts what the model refuses: {manifest}"
    # The node selector is a map: upstream walks it in random order.
    assert sorted(real) == sorted(warned)
    SEEN.append(len(real))


def test_the_creates_above_were_warned_of() -> None:
    """Not vacuous: most accepted creates carried warnings, and some several."""
    if not SEEN:
        pytest.skip("the comparison above did not run")
    assert sum(1 for n in SEEN if n) > len(SEEN) // 2 and max(SEEN) >= 3, SEEN
