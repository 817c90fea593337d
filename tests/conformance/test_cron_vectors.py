"""The shared `cronjob-sync` and `schedule` vectors, case by case, through the model
(jobmodel/conformance/cronjob_sync.py and jobmodel/conformance/schedule.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jobmodel.conformance.engines import ModelEngine
from jobmodel.conformance.runner import run_case
from jobmodel.conformance.schedule import compare as schedule_compare
from jobmodel.conformance.schedule import format_rfc3339_nano
from jobmodel.conformance.schedule import model_outcome as schedule_model_outcome
from tests.conftest import find_conformance_dir

FILES = {"cronjob_sync.json": "cronjob-sync", "schedule.json": "schedule"}


def _cases() -> list[tuple[str, str, dict[str, object]]]:
    found = find_conformance_dir()
    if found is None:
        return []
    out: list[tuple[str, str, dict[str, object]]] = []
    for name, suite in FILES.items():
        doc = json.loads((found / name).read_text())
        assert doc["suite"] == suite
        out.extend((f"{name}:{case['name']}", suite, case) for case in doc["cases"])
    return out


CASES = _cases()


def test_vector_files_are_present(conformance_dir: Path) -> None:
    for name in FILES:
        assert (conformance_dir / name).is_file()
    assert len(CASES) >= 53 + 12


@pytest.mark.parametrize(("case_id", "suite", "case"), CASES, ids=[c[0] for c in CASES])
def test_cron_vector(case_id: str, suite: str, case: dict[str, object]) -> None:
    differences = run_case(suite, case, ModelEngine())
    assert differences == (), "\n".join(differences)


def test_schedule_compare_reports_a_wrong_most_recent_time() -> None:
    case = {"expect": {"mostRecent": "2016-05-19T15:00:00Z", "tooManyMissed": False}}
    outcome = {"error": False, "mostRecent": "2016-05-19T14:00:00Z", "tooManyMissed": False}
    assert schedule_compare(case, outcome) == ['mostRecent: expected "2016-05-19T15:00:00Z", got "2016-05-19T14:00:00Z"']


def test_a_rejected_schedule_matches_an_expected_null() -> None:
    # FORMAT.md: a rejected schedule computed nothing, so `mostRecent: null` holds of it.
    case = {"expect": {"error": True, "mostRecent": None}}
    assert schedule_compare(case, {"error": True, "reason": "API validation: bad"}) == []


def test_schedule_compare_reports_a_rejected_schedule_where_a_time_was_expected() -> None:
    case = {"expect": {"mostRecent": "2016-05-19T15:00:00Z"}}
    (diff,) = schedule_compare(case, {"error": True})
    assert diff.startswith("mostRecent: expected '2016-05-19T15:00:00Z', but the engine rejected")


def test_schedule_compare_reports_a_computed_schedule_where_a_rejection_was_expected() -> None:
    case = {"expect": {"error": True, "mostRecent": None}}
    outcome = {"error": False, "mostRecent": "2016-05-19T14:00:00Z", "tooManyMissed": False}
    assert schedule_compare(case, outcome) == [
        "error: expected true, got false",
        'mostRecent: expected null, got "2016-05-19T14:00:00Z"',
    ]


@pytest.mark.parametrize("prefix", ["TZ=UTC", "CRON_TZ=UTC", "TZ=", "CRON_TZ=Europe/Berlin"])
def test_a_tz_prefix_without_a_space_fails_the_request_as_the_panicking_api_server_does(
    prefix: str,
) -> None:
    case = {"schedule": prefix, "earliestTime": "2016-05-19T10:00:00Z", "now": "2016-05-19T12:00:00Z"}
    outcome = schedule_model_outcome(case)
    assert outcome["error"] is True
    assert "panic" in outcome["reason"] and "slice bounds out of range" in outcome["reason"]


def test_a_tz_prefix_with_a_space_is_refused_by_validation_not_a_panic() -> None:
    case = {
        "schedule": "TZ=UTC 0 * * * *",
        "earliestTime": "2016-05-19T10:00:00Z",
        "now": "2016-05-19T12:00:00Z",
    }
    outcome = schedule_model_outcome(case)
    assert outcome["error"] is True
    assert "use timeZone field instead" in outcome["reason"] and "panic" not in outcome["reason"]


def test_a_negative_starting_deadline_fails_create_validation() -> None:
    case = {"schedule": "0 * * * *", "earliestTime": "2024-03-01T00:00:00Z", "now": "2024-03-10T12:00:00Z", "startingDeadlineSeconds": -1}
    outcome = schedule_model_outcome(case)
    assert outcome["error"] is True
    assert "startingDeadlineSeconds" in outcome["reason"]
    assert schedule_model_outcome({**case, "startingDeadlineSeconds": 0})["error"] is False


@pytest.mark.parametrize(
    ("nanos", "text"),
    [(0, "1970-01-01T00:00:00Z"), (1_500_000_000, "1970-01-01T00:00:01.5Z"), (-1, "1969-12-31T23:59:59.999999999Z"), (10**9 + 7, "1970-01-01T00:00:01.000000007Z")],
)
def test_next_is_written_as_go_writes_rfc3339nano(nanos: int, text: str) -> None:
    assert format_rfc3339_nano(nanos) == text
