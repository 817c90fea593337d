"""jobmodel.conformance.suites: cases put at a release keep only the gates it lets them set."""

from __future__ import annotations

from jobmodel.conformance.suites import case_at_release, gate_settable


def test_a_gate_locked_since_the_release_is_dropped_without_emulation() -> None:
    case = {"features": {"PodIndexLabel": False, "JobManagedBy": False}}
    assert case_at_release(case, "1.32")["features"] == {"JobManagedBy": False}


def test_with_emulation_a_gate_locked_since_the_release_is_kept() -> None:
    # PodIndexLabel went GA (locked) in 1.32: upstream's 1.32 tests turn it off at emulation 1.31.
    case = {"features": {"PodIndexLabel": False, "JobManagedBy": False}}
    assert case_at_release(case, "1.32", emulation=True)["features"] == {"PodIndexLabel": False, "JobManagedBy": False}
    assert gate_settable("1.32", "PodIndexLabel", False, emulation=True)
    assert not gate_settable("1.32", "PodIndexLabel", False)


def test_with_emulation_a_gate_locked_before_the_release_is_still_dropped() -> None:
    # JobPodFailurePolicy was GA already in 1.31; PodIndexLabel's code is always on from 1.35.
    case = {"features": {"JobPodFailurePolicy": False, "PodIndexLabel": False}}
    assert case_at_release(case, "1.32", emulation=True)["features"] == {"PodIndexLabel": False}
    assert "features" not in case_at_release(case, "1.35", emulation=True)


def test_with_emulation_gates_the_previous_release_lacks_fall_back_to_no_emulation() -> None:
    # JobManagedBy is locked since 1.35, MutableSchedulingDirectivesForSuspendedJobs new in 1.35:
    # at emulation 1.34 the latter would be PreAlpha, so the case keeps the release's own gates.
    case = {"features": {"JobManagedBy": False, "MutableSchedulingDirectivesForSuspendedJobs": False}}
    assert case_at_release(case, "1.35", emulation=True)["features"] == {"MutableSchedulingDirectivesForSuspendedJobs": False}
    assert case_at_release({"features": {"JobManagedBy": False}}, "1.35", emulation=True)["features"] == {"JobManagedBy": False}
