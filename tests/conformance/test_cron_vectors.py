"""The shared `cronjob-sync` and `schedule` vectors, case by case, through the model
(jobmodel/conformance/cronjob_sync.py and jobmodel/conformance/schedule.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jobmodel.conformance.engines import ModelEngine
from jobmodel.conformance.runner import run_case
from jobmodel.conformance.schedule import compare as schedule_compare
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


def test_schedule_compare_reports_a_rejected_schedule() -> None:
    case = {"expect": {"mostRecent": None}}
    assert schedule_compare(case, {"error": True}) != []
