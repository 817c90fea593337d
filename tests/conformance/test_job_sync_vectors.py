"""The shared `job-sync` vectors, case by case, through the model (jobmodel/conformance/job_sync.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jobmodel.conformance.engines import ModelEngine
from jobmodel.conformance.runner import run_case
from tests.conftest import find_conformance_dir

FILES = ("job_sync_core.json", "job_sync_policies.json")


def _cases() -> list[tuple[str, dict[str, object]]]:
    found = find_conformance_dir()
    if found is None:
        return []
    out: list[tuple[str, dict[str, object]]] = []
    for name in FILES:
        doc = json.loads((found / name).read_text())
        out.extend((f"{name}:{case['name']}", case) for case in doc["cases"])
    return out


CASES = _cases()


def test_vector_files_are_present(conformance_dir: Path) -> None:
    for name in FILES:
        assert (conformance_dir / name).is_file()
    assert len(CASES) >= 100


@pytest.mark.parametrize(("case_id", "case"), CASES, ids=[c[0] for c in CASES])
def test_job_sync_vector(case_id: str, case: dict[str, object]) -> None:
    differences = run_case("job-sync", case, ModelEngine())
    assert differences == (), "\n".join(differences)
