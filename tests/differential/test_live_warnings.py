"""The API server's warnings: the model's (jobmodel/api/warnings.py, through the recorder that
builds the response's `Warning` headers) against a real kube-apiserver's, on dry-run creates of
generated Jobs and CronJobs that are valid but warned of, on the control planes of 1.32 and of
the newest release. The harness's differential test (test_api.py::test_warnings_agree) calls the
strategies; this one goes through the wire: decoding, defaulting, admission, the recorder."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jobmodel.adapters.controlplane import ControlPlane
from jobmodel.adapters.live import LiveCluster, Rejected
from jobmodel.api import strategy
from jobmodel.api.schema import without_unknown_fields
from jobmodel.commands import common
from jobmodel.errors import InputError
from jobmodel.features import gates_for
from jobmodel.strategies.api import warned_cron_jobs, warned_jobs, with_unknown_fields

pytestmark = pytest.mark.live

SEEN: list[int] = []  # warnings per accepted create, for the check at the end
DIRECTIVES_SEEN: list[str] = []  # the fieldValidation of each create with unknown fields compared


@pytest.fixture(params=["plane", "newest_plane"])
def cluster(request: pytest.FixtureRequest) -> Iterator[tuple[str, LiveCluster]]:
    plane: ControlPlane = request.getfixturevalue(request.param)
    live = LiveCluster.connect(plane.kubeconfig)
    yield plane.release, live
    live.close()


def model_create(release: str, manifest: dict[str, Any], field_validation: str = "Warn") -> tuple[bool, list[str]]:
    """The model's verdict on the create through the commands' front door (`admit`), and the
    warnings its response would carry; InputError when the decoder refuses the manifest. Without
    a directive the API server decodes under Warn."""
    try:
        admitted = common.admit("manifest", manifest, None, gates_for(release), None, field_validation)
    except common.Rejected:
        return False, []
    return True, list(admitted.warnings)


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


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture], derandomize=True)
@given(st.one_of(warned_jobs(), warned_cron_jobs()).flatmap(with_unknown_fields), st.sampled_from(strategy.FIELD_VALIDATIONS))
def test_a_real_api_server_decodes_unknown_fields_as_the_model_does(
    cluster: tuple[str, LiveCluster], manifest: dict[str, Any], field_validation: str
) -> None:
    """Unknown fields under each fieldValidation directive (`jobmodel validate --validate`):
    Strict refuses the create naming every one, in the document's order (`strict decoding
    error: unknown field "…", unknown field "…"`); Warn leaves them out with a warning each, before
    the other warnings; Ignore leaves them out and says nothing."""
    release, live = cluster
    unknown = without_unknown_fields(manifest, manifest["kind"], gates_for(release).release)[1]
    assert unknown, "the strategy adds unknown fields"
    try:
        valid, warned = model_create(release, manifest, field_validation)
    except InputError as error:
        assert field_validation == "Strict", error
        with pytest.raises(Rejected) as refused:
            live.create_dry_run(manifest["kind"], "default", manifest, field_validation)
        assert refused.value.status == 400 and "strict decoding error" in refused.value.message, refused.value
        named = re.findall(r'unknown field "([^"]*)"', refused.value.message)
        # The adapter keeps 300 characters of a refusal's message: a long list is cut short.
        assert named == unknown[: len(named)] and (named == unknown or refused.value.message.endswith("...")), refused.value
        assert all(path in str(error) for path in unknown), error
        DIRECTIVES_SEEN.append(field_validation)
        return
    assert field_validation != "Strict", "the model accepts unknown fields under Strict"
    try:
        _, real = live.create_dry_run(manifest["kind"], "default", manifest, field_validation)
    except Rejected as refused:
        assert not valid, f"the API server refuses what the model accepts: {refused}"
        return
    assert valid, f"the API server accepts what the model refuses: {manifest}"
    decoding = [f'unknown field "{path}"' for path in unknown] if field_validation == "Warn" else []
    assert real[: len(decoding)] == decoding
    assert sorted(real) == sorted(warned)
    DIRECTIVES_SEEN.append(field_validation)


def test_each_directive_was_compared() -> None:
    """Not vacuous: creates with unknown fields were compared under every directive."""
    if not DIRECTIVES_SEEN:
        pytest.skip("the comparison above did not run")
    assert set(DIRECTIVES_SEEN) == set(strategy.FIELD_VALIDATIONS), DIRECTIVES_SEEN
