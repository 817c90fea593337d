"""The Hypothesis state machines: no violation on the model; every broken variant caught."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import Phase, settings
from hypothesis.stateful import run_state_machine_as_test

from jobmodel.checkers.machines import InvariantViolation, state_machine
from jobmodel.state import JobControllerTunables
from tests.checkers.configs import (
    BROKEN_CASES,
    FAIL_INDEX_ON_42,
    FAIL_JOB_ON_42,
    IGNORE_DISRUPTION,
    broken_config,
    config,
    job_manifest,
)

# The loaded profile ("ci", or "long" with ./dev test --long) with fewer, shorter runs: each
# step is a whole controller sync.
# (ci: 200 // 4 = 50 runs; long: 1250 runs).
MACHINE_SETTINGS = settings(settings(), max_examples=max(settings().max_examples // 4, 1), stateful_step_count=25)
# Shrinking a stateful run replays whole controller runs thousands of times; the explorer gives
# the shortest counterexample, so the broken-variant runs stop at the first failure found.
BROKEN_SETTINGS = settings(
    MACHINE_SETTINGS,
    max_examples=max(settings().max_examples // 2, 1),
    phases=[Phase.explicit, Phase.generate],
    report_multiple_bugs=False,
)

SMALL_CAPS = JobControllerTunables(max_uncounted_pods=2, max_pod_create_delete_per_sync=2)
MODEL_CONFIGS = {
    "nonindexed": config(
        job_manifest(2, 3, 2),
        failures=2,
        evictions=1,
        deletions=1,
        stale=1,
        stale_patches=1,
        stale_deletions=1,
        stale_pod_writes=1,
        stale_status=1,
        stale_edits=2,
        faults=1,
        restarts=1,
        expiries=1,
        edits=("parallelism=1", "suspend=true", "suspend=false"),
    ),
    "indexed": config(
        job_manifest(2, 3, 1, indexed=True), failures=2, stale=1, stale_status=1, faults=1, restarts=1, deletions=1, job_deletions=1, recreations=1
    ),
    "elastic": config(job_manifest(3, 3, 1, indexed=True), failures=1, stale=1, stale_edits=1, edits=("completions=2", "completions=3")),
    "per-index": config(
        job_manifest(2, 3, 6, indexed=True, backoffLimitPerIndex=1, maxFailedIndexes=1), failures=2, faults=1
    ),
    # The failures a podFailurePolicy tells apart, graceful deletions, pod GC, an active deadline.
    "policy": config(
        job_manifest(2, 3, 2, podFailurePolicy={"rules": [FAIL_JOB_ON_42, IGNORE_DISRUPTION]}, activeDeadlineSeconds=60),
        failures=3,
        evictions=1,
        deletions=1,
        gc=2,
        stale=1,
    ),
    "fail-index": config(
        job_manifest(2, 3, 6, indexed=True, backoffLimitPerIndex=1, podFailurePolicy={"rules": [FAIL_INDEX_ON_42]}),
        failures=3,
        deletions=1,
        gc=1,
    ),
    # Container restarts in place (restartPolicy OnFailure) against backoffLimit, with evictions,
    # deletions, a stale cache and suspension.
    "on-failure": config(
        job_manifest(2, 3, 3, restart_policy="OnFailure"),
        failures=4,
        evictions=1,
        deletions=1,
        stale=1,
        stale_pod_writes=1,
        edits=("suspend=true", "suspend=false"),
    ),
    "replace-failed": config(job_manifest(2, 2, 1, podReplacementPolicy="Failed"), failures=1, deletions=2, gc=1),
    # A Job created again under its name at 1.36, where its predecessor's expectations outlive it
    # (the known upstream bug the laws and liveness accept there); its deletion or an edit may
    # reach the controller's cache late.
    "recreated-1.36": config(
        job_manifest(2, 2, 1),
        failures=1,
        stale=1,
        faults=1,
        job_deletions=1,
        stale_edits=1,
        recreations=1,
        edits=("suspend=true", "suspend=false"),
        kube_version="1.36",
    ),
    # Controller caps smaller than the Job: a sync records only some finished pods
    # (MaxUncountedPods) and makes only some of its pod calls (MaxPodCreateDeletePerSync).
    "small-caps": attrs.evolve(
        config(job_manifest(3, 4, 2), failures=3, deletions=1, stale=1, faults=1, edits=("parallelism=1", "parallelism=3")),
        tunables=SMALL_CAPS,
    ),
    "small-caps-indexed": attrs.evolve(
        config(job_manifest(3, 3, 2, indexed=True), failures=3, deletions=1, stale=1, faults=1, edits=("completions=2",)),
        tunables=SMALL_CAPS,
    ),
}


@pytest.mark.parametrize("name", sorted(MODEL_CONFIGS))
def test_the_model_keeps_every_invariant(name: str) -> None:
    run_state_machine_as_test(state_machine(MODEL_CONFIGS[name].system()), settings=MACHINE_SETTINGS)


@pytest.mark.parametrize("name", sorted(BROKEN_CASES))
def test_every_broken_variant_is_caught(name: str) -> None:
    cfg, invariant = broken_config(name)
    with pytest.raises(InvariantViolation) as caught:
        run_state_machine_as_test(state_machine(cfg.system()), settings=BROKEN_SETTINGS)
    assert caught.value.violation.invariant == invariant
    # The message is the run's step table.
    assert "step" in str(caught.value) and "move" in str(caught.value)


def test_the_machine_finds_the_over_creation_on_a_lagging_job_status_up_to_1_35() -> None:
    """A Job cache behind the controller's status write (`stale_status`): the sync that reads the
    older Job replaces a success it counts nowhere. Upstream up to 1.35 does this; the explorer
    finds it too (tests/invariants/test_catalogue.py), and from 1.36 neither finds it (the
    `nonindexed` and `indexed` configurations above have the move)."""
    cfg = config(job_manifest(2, 2, 1), stale_status=1, kube_version="1.35")
    with pytest.raises(InvariantViolation) as caught:
        run_state_machine_as_test(state_machine(cfg.system()), settings=BROKEN_SETTINGS)
    assert caught.value.violation.invariant == "no-over-creation-on-stale-cache"
    assert "sync-stale-status" in str(caught.value)
