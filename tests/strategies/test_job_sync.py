"""jobmodel.strategies.job_sync: the generated job-sync cases reach every feature the
differential tests must cover, each in at least its stated share of cases, and are valid input
for the model."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings

from jobmodel.adapters import protocol
from jobmodel.conformance.job_sync import sync_input_from_case
from jobmodel.strategies.job_sync import FEATURE_SHARES, case_features, job_sync_cases

SAMPLES = 600


def test_every_feature_reaches_its_share_of_cases() -> None:
    seen: Counter[str] = Counter()
    total = 0

    @settings(max_examples=SAMPLES, phases=[Phase.generate], database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(job_sync_cases())
    def collect(case: dict[str, Any]) -> None:
        nonlocal total
        total += 1
        seen.update(case_features(case))
        # Every generated case is a valid request and valid input for the model.
        assert protocol.problems(protocol.request(1, "job-sync", case), "request") == []
        sync_input_from_case(case)

    collect()
    shares = {name: seen[name] / total for name in FEATURE_SHARES}
    short = {name: f"{share:.3f} < {FEATURE_SHARES[name]}" for name, share in shares.items() if share < FEATURE_SHARES[name]}
    assert not short, f"features generated too rarely in {total} cases: {short}"


def test_case_features_names_what_a_case_has() -> None:
    case: dict[str, Any] = {
        "job": {
            "spec": {"completionMode": "Indexed", "completions": 2, "template": {"spec": {"containers": [{"name": "a"}, {"name": "b"}]}}},
            "status": {"completedIndexes": "0,3", "uncountedTerminatedPods": {"failed": ["u"]}},
        },
        "pods": [
            {"metadata": {"creationTimestamp": "t"}, "status": {"phase": "Unknown"}},
            {"metadata": {"creationTimestamp": "t"}, "status": {"phase": "Running", "conditions": [{"type": "DisruptionTarget", "status": "False"}]}},
        ],
    }
    assert case_features(case) == {
        "several containers",
        "Unknown pod phase",
        "equal creation timestamps",
        "completedIndexes beyond completions",
        "uncounted pods of an Indexed Job",
        "pod condition other than DisruptionTarget=True",
    }
