"""Feature gates per release (jobmodel/features.py)."""

from __future__ import annotations

import pytest

from jobmodel.conformance.suites import case_features
from jobmodel.errors import InputError
from jobmodel.features import (
    DEFAULT_GATES,
    FeatureGates,
    emulation_version,
    gates_from_options,
    parse_kube_version,
    vector_gates,
)


def test_the_newest_release_is_the_default() -> None:
    assert DEFAULT_GATES.release == 37 and DEFAULT_GATES.kube_version == "1.37"
    assert gates_from_options(None, "") == DEFAULT_GATES


@pytest.mark.parametrize("text", ["1.32", "v1.32", "1.32.3", " 1.32 "])
def test_release_spellings(text: str) -> None:
    assert parse_kube_version(text) == 32


@pytest.mark.parametrize("text", ["1.31", "1.38", "2.0", "latest", "1", "", "1.\u00b2", "1.\uff13\uff12"])  # `²`, fullwidth 32
def test_unsupported_releases_are_refused_with_the_supported_ones(text: str) -> None:
    with pytest.raises(InputError, match=r"supported: 1\.32, 1\.33, 1\.34, 1\.35, 1\.36, 1\.37"):
        parse_kube_version(text)


def test_defaults_follow_each_release() -> None:
    v32, v35, v36 = (FeatureGates.for_release(m) for m in (32, 35, 36))
    # Not there yet: the code path does not exist (off); later on by default.
    assert not v32.StaleControllerConsistencyJob and v36.StaleControllerConsistencyJob
    assert not v35.MutableSchedulingDirectivesForSuspendedJobs and v36.MutableSchedulingDirectivesForSuspendedJobs
    # Removed gates keep their code on.
    assert FeatureGates.for_release(37).JobPodReplacementPolicy and FeatureGates.for_release(35).PodIndexLabel
    assert not FeatureGates.for_release(37).WorkloadWithJob


def test_locked_gates_cannot_change_and_beta_ones_can() -> None:
    assert gates_from_options("1.34", "JobManagedBy=false").JobManagedBy is False
    with pytest.raises(InputError, match=r"cannot set feature gate JobManagedBy to false, feature is locked to true in Kubernetes 1\.35"):
        gates_from_options("1.35", "JobManagedBy=false")
    assert gates_from_options("1.35", "MutableSchedulingDirectivesForSuspendedJobs=true").MutableSchedulingDirectivesForSuspendedJobs


def test_gates_a_release_does_not_register_are_unrecognized() -> None:
    with pytest.raises(InputError, match=r"unrecognized feature gate in Kubernetes 1\.37"):
        gates_from_options("1.37", "JobSuccessPolicy=true")
    with pytest.raises(InputError, match=r"unrecognized feature gate in Kubernetes 1\.32"):
        gates_from_options("1.32", "StaleControllerConsistencyJob=false")


def test_workload_with_job_is_refused_as_not_modelled() -> None:
    with pytest.raises(InputError, match="not modelled"):
        gates_from_options("1.36", "WorkloadWithJob=true")
    assert not gates_from_options("1.36", "WorkloadWithJob=false").WorkloadWithJob


def test_vectors_may_turn_off_a_gate_that_became_ga_in_their_release() -> None:
    """As upstream's tests do at emulation version 1.31: PodIndexLabel (GA in 1.32), not
    JobPodFailurePolicy (GA already in 1.31)."""
    assert vector_gates(None, {"PodIndexLabel": False}).PodIndexLabel is False
    with pytest.raises(InputError, match="locked"):
        vector_gates(None, {"JobPodFailurePolicy": False})
    with pytest.raises(InputError, match="locked"):
        gates_from_options("1.32", "PodIndexLabel=false")  # the command line is strict
    assert vector_gates(None, {}).release == 32  # a vector without kubeVersion is a 1.32 case


def test_a_gate_the_release_introduced_cannot_be_set_with_a_ga_gate_turned_off() -> None:
    """Turning off JobManagedBy (GA in 1.35) puts the gates at emulation version 1.34, where a
    gate new in 1.35 is PreAlpha and refused whatever its value (upstream's featuregate)."""
    assert vector_gates("1.35", {"JobManagedBy": False}).JobManagedBy is False
    for value in (True, False):
        with pytest.raises(InputError, match=r"MutablePodResourcesForSuspendedJobs to .*PreAlpha at emulated version 1\.34"):
            vector_gates("1.35", {"JobManagedBy": False, "MutablePodResourcesForSuspendedJobs": value})
    assert vector_gates("1.35", {"MutablePodResourcesForSuspendedJobs": True}).MutablePodResourcesForSuspendedJobs


def test_a_locked_gate_is_turned_at_the_newest_emulation_version_that_has_it_settable() -> None:
    """Upstream's versioned specs: JobManagedBy Beta from 1.32, GA from 1.35; JobSuccessPolicy Beta
    from 1.31, GA from 1.33; JobPodReplacementPolicy Beta from 1.29, GA from 1.34; PodIndexLabel GA
    from 1.32; the Mutable* gates Alpha from 1.35; StaleControllerConsistencyJob Beta from 1.36."""
    assert emulation_version(37, {"JobManagedBy": False}) == 34
    assert emulation_version(36, {"JobSuccessPolicy": False}) == 32
    assert emulation_version(36, {"JobPodReplacementPolicy": False}) == 33
    assert emulation_version(36, {"JobPodReplacementPolicy": False, "JobSuccessPolicy": False}) == 32
    assert emulation_version(35, {"JobManagedBy": False}) == 34
    assert emulation_version(33, {"PodIndexLabel": False}) == 31
    assert emulation_version(37, {"MutablePodResourcesForSuspendedJobs": False}) == 37  # Beta: no fallback


def test_the_other_gates_take_their_defaults_at_the_emulation_version() -> None:
    at_34 = vector_gates("1.37", {"JobManagedBy": False})
    assert at_34.release == 37 and not at_34.JobManagedBy
    # PreAlpha at 1.34: off.
    assert not at_34.MutableSchedulingDirectivesForSuspendedJobs and not at_34.MutablePodResourcesForSuspendedJobs
    assert not at_34.StaleControllerConsistencyJob
    at_32 = vector_gates("1.36", {"JobSuccessPolicy": False})
    assert at_32.JobManagedBy and at_32.JobPodReplacementPolicy and not at_32.JobSuccessPolicy
    # JobManagedBy is Alpha (off) at 1.31, where PodIndexLabel is not yet locked; set, it stays.
    assert not vector_gates("1.33", {"PodIndexLabel": False}).JobManagedBy
    assert vector_gates("1.33", {"PodIndexLabel": False, "JobManagedBy": True}).JobManagedBy


def test_no_emulation_version_back_to_1_31_takes_the_gates() -> None:
    # ElasticIndexedJob is GA since 1.31, the oldest emulation version.
    with pytest.raises(InputError, match=r"features\.ElasticIndexedJob: .*locked to true in Kubernetes 1\.33 .*back to 1\.31"):
        vector_gates("1.33", {"ElasticIndexedJob": False})
    # Turning JobSuccessPolicy off at 1.36 puts the gates at 1.32, before the Mutable* gates.
    with pytest.raises(InputError, match=r"features\.MutablePodResourcesForSuspendedJobs: .*PreAlpha at emulated version 1\.32"):
        vector_gates("1.36", {"JobSuccessPolicy": False, "MutablePodResourcesForSuspendedJobs": False})


def test_a_case_states_emulated_gates_by_the_locked_ones_and_what_differs_there() -> None:
    gates = vector_gates("1.37", {"JobManagedBy": False})
    assert case_features(gates) == {"JobManagedBy": False}
    gates = vector_gates("1.33", {"PodIndexLabel": False, "JobManagedBy": True})
    assert case_features(gates) == {"PodIndexLabel": False, "JobManagedBy": True}
    assert vector_gates("1.33", case_features(gates)) == gates


def test_a_later_step_keeps_the_gates_an_earlier_one_set_where_its_emulation_version_allows() -> None:
    """featuregate re-applies the values it was given at a new emulation version: a scenario that
    turned JobPodReplacementPolicy off (Beta at 1.33) and then PodIndexLabel (GA from 1.32) is at
    1.31, where JobPodReplacementPolicy is Beta (kept off) and JobManagedBy Alpha (off)."""
    gates = vector_gates("1.33", {"JobPodReplacementPolicy": False}).with_overrides({"PodIndexLabel": False})
    assert not gates.JobPodReplacementPolicy and not gates.PodIndexLabel and not gates.JobManagedBy
    assert gates.JobSuccessPolicy  # Beta (on) at 1.31
