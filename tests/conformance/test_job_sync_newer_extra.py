"""The generator of tests/conformance/vectors/job_sync_newer_extra.json (the syncJob-level upstream
cases added or changed after v1.32.3; tests/conformance/gen/job_sync_newer_extra.py).
test_extra_vectors runs the file through the model and through upstream's own code of each case's
release."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from jobmodel.conformance.engines import ModelEngine
from jobmodel.conformance.runner import run_case
from jobmodel.features import RELEASE_PINS, gate_stage
from tests.conformance.gen.job_sync_newer_extra import NEWER, OUT, document

DOC = json.loads(OUT.read_text())
# The number of added or changed entries, pinned by the generator's NEWER table (one per entry);
# the loops below check they went through that many cases, so none of them passes on no case.
CASES = 105


def test_the_file_is_what_the_generator_writes(conformance_dir: Path) -> None:
    assert document(conformance_dir) == DOC
    assert len(DOC["cases"]) == len(NEWER) == CASES


def test_each_case_is_pinned_to_a_newer_release_and_names_it_in_its_origin() -> None:
    checked = 0
    for case in DOC["cases"]:
        minor = int(case["kubeVersion"].removeprefix("1."))
        assert minor > 32
        assert f" at {RELEASE_PINS[minor]} " in case["origin"]
        assert case["name"].endswith(f"({case['kubeVersion']})")
        checked += 1
    assert checked == CASES


def test_each_case_sets_only_gates_its_release_registers() -> None:
    # A gate the release removed would be refused: upstream's newer tests no longer set it.
    checked = 0
    for case in DOC["cases"]:
        minor = int(case["kubeVersion"].removeprefix("1."))
        assert all(gate_stage(name, minor) is not None for name in case["features"]), case["name"]
        checked += 1
    assert checked == CASES


def test_the_names_are_new(conformance_dir: Path) -> None:
    older = {
        c["name"]
        for path in (conformance_dir / "job_sync_core.json", conformance_dir / "job_sync_policies.json",
                     OUT.parent / "job_sync_extra.json")
        for c in json.loads(path.read_text())["cases"]
    }
    names = [c["name"] for c in DOC["cases"]]
    assert older.isdisjoint(names)
    assert len(set(names)) == len(names) == CASES
    assert older, "no v1.32.3 translation read"


def test_each_change_matters_at_its_release(conformance_dir: Path) -> None:
    # Each case with the status fields or conditions upstream changed put back as the v1.32.3
    # translation has them (a field it did not check: another value) fails in the model at the
    # newer release; a case whose expectations did not change is one whose gate fields v1.37
    # dropped.
    older = {
        c["name"]: c
        for path in (conformance_dir / "job_sync_core.json", conformance_dir / "job_sync_policies.json",
                     OUT.parent / "job_sync_extra.json")
        for c in json.loads(path.read_text())["cases"]
    }
    kinds: dict[str, int] = {"status": 0, "conditions": 0, "gates only": 0}
    for entry, case in zip(NEWER, DOC["cases"], strict=True):
        old = older[entry.since]
        old_status = old["expect"]["status"]
        changed = {k: v for k, v in case["expect"]["status"].items() if old_status.get(k, "unset") != v}
        for key, value in changed.items():
            back = old_status.get(key, 0 if value != 0 else 1)
            reverted = copy.deepcopy(case)
            reverted["expect"]["status"][key] = back
            assert run_case("job-sync", reverted, ModelEngine()) != (), (entry.name, key)
        conditions_changed = case["expect"].get("conditions") != old["expect"].get("conditions")
        if conditions_changed:
            reverted = copy.deepcopy(case)
            reverted["expect"]["conditions"] = old["expect"].get("conditions", [])
            assert run_case("job-sync", reverted, ModelEngine()) != (), (entry.name, "conditions")
        if not changed and not conditions_changed:
            # Only the gate fields changed: v1.37 dropped the removed gates' (always on), and
            # the test turns JobManagedBy off at an emulation version.
            assert entry.release == "1.37" and case["features"] == {"JobManagedBy": False}, entry.name
        kinds["status"] += bool(changed)
        kinds["conditions"] += conditions_changed
        kinds["gates only"] += not changed and not conditions_changed
        assert run_case("job-sync", case, ModelEngine()) == (), entry.name
    # Every case was run, and each kind of change occurs (the checks of each branch ran).
    assert len(NEWER) == CASES
    assert all(count > 0 for count in kinds.values()), kinds
