"""jobmodel.checkers.oracle_check and `jobmodel oracle check`: the three engines through one path.

The model checked against itself through `cmd:` (a subprocess speaking the protocol) and the
upstream harness find nothing; a deliberately broken implementation (tests/oracle_impls/
broken_ranking.py: ready pods deleted first) is found, shrunk to a minimal vector, and that vector
fails against it and passes against the model; a crashing implementation ends the check with an
error naming the request, the case already on disk.
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from jobmodel.adapters.oracle import ProtocolEngine
from jobmodel.checkers import oracle_check
from jobmodel.checkers.oracle_check import (
    Divergence,
    check_implementation,
    reduced,
    without_one_element,
    without_one_field,
)
from jobmodel.cli import main
from jobmodel.conformance.agreement import Verdict

IMPLS = Path(__file__).resolve().parents[1] / "oracle_impls"
SERVED_MODEL = [sys.executable, "-m", "jobmodel", "oracle", "serve"]
BROKEN = [sys.executable, str(IMPLS / "broken_ranking.py")]


@pytest.mark.parametrize(("suite", "examples"), [("job-sync", 60), ("cronjob-sync", 40), ("schedule", 40), ("validation", 40), ("defaulting", 30)])
def test_the_model_through_cmd_finds_no_divergence_with_itself(suite: str, examples: int, tmp_path: Path) -> None:
    out = tmp_path / "divergences.json"
    with ProtocolEngine(SERVED_MODEL) as engine:
        result = check_implementation(engine, suite, examples, out, seed=5)
    assert result.divergences == () and result.aborted is None
    assert result.cases >= examples
    assert not out.exists()


@pytest.mark.upstream
def test_the_upstream_harness_through_the_same_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if shutil.which("go") is None:
        pytest.skip("Go is not installed: the upstream harness cannot be built")
    code = main(["oracle", "check", "--engine", "upstream", "--suite", "job-sync", "--examples", "60", "--seed", "3", "--out", str(tmp_path / "d.json")])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "no divergence in" in out.splitlines()[-1]


# 1791525112: Hypothesis's shrinking stopped at five pods (three Pending that only mattered as a
# group); the reduction after it removes them one at a time.
@pytest.mark.parametrize("seed", [None, 1791525112], ids=["run-seed", "seed-1791525112"])
def test_a_broken_implementation_is_found_and_shrunk_to_a_minimal_vector(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], run_seed: int, seed: int | None
) -> None:
    out = tmp_path / "divergences.json"
    seed = run_seed if seed is None else seed
    code = main(["oracle", "check", "--engine", "cmd:" + " ".join(BROKEN), "--suite", "job-sync", "--examples", "500", "--seed", str(seed), "--out", str(out)])
    printed = capsys.readouterr()
    assert code == 1, printed.out
    assert f"minimal cases written to {out}" in printed.out
    assert "oracle check job-sync:" in printed.err  # the progress line
    doc = json.loads(out.read_text())
    assert doc["format"] == "jobmodel-conformance/1" and doc["suite"] == "job-sync" and doc["cases"]
    for case in doc["cases"]:
        # Small: a few active pods, one of them ready, and nothing the divergence does not need.
        assert len(case["pods"]) <= 3, case["pods"]
        ready = ["conditions" in p["status"] for p in case["pods"]]
        assert ready.count(True) == 1
        assert "podFailurePolicy" not in case["job"]["spec"] and "successPolicy" not in case["job"]["spec"]
        assert "deletedPods" in case["expect"]
    # The vector fails against the broken implementation and passes against the model.
    assert main(["conformance", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"{len(doc['cases'])} passed, 0 failed"
    assert main(["conformance", "--engine", "cmd:" + " ".join(BROKEN), str(out)]) == 1
    failing = capsys.readouterr().out
    assert "deletedPods" in failing and failing.splitlines()[-1] == f"0 passed, {len(doc['cases'])} failed"


def test_a_crashing_implementation_ends_the_check_with_the_case_on_disk(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "divergences.json"
    engine = f"cmd:{sys.executable} {IMPLS / 'scripted.py'} crash"
    code = main(["oracle", "check", "--engine", engine, "--suite", "schedule", "--examples", "20", "--seed", "1", "--out", str(out)])
    printed = capsys.readouterr()
    assert code == 2
    assert "exited (3) before answering request 1 (schedule: generated)" in printed.err
    assert "Traceback" not in printed.err + printed.out
    saved = json.loads(out.read_text())["cases"]
    assert len(saved) == 1 and saved[0]["name"] == "divergence 1: protocol failure" and "schedule" in saved[0]


def check_failing_while_reducing(
    mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *options: str
) -> tuple[int, Path, Path]:
    """`oracle check` of tests/oracle_impls/fails_while_reducing.py in `mode`, told when the
    reduction starts; returns the exit code, the vector file and the implementation's log."""
    reducing, out = tmp_path / "reducing", tmp_path / "divergences.json"
    real_reduced = oracle_check.reduced

    def reduced_told(*args: Any) -> Divergence:
        reducing.touch()
        return real_reduced(*args)

    monkeypatch.setattr(oracle_check, "reduced", reduced_told)
    engine = f"cmd:{sys.executable} {IMPLS / 'fails_while_reducing.py'} {mode} {reducing}"
    argv = ["oracle", "check", "--engine", engine, "--suite", "job-sync", "--examples", "30", "--seed", "2", "--out", str(out)]
    return main([*argv, *options]), out, reducing


def test_cases_unsupported_while_reducing_are_not_counted_as_unsupported_cases(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, reducing = check_failing_while_reducing("unsupported", tmp_path, monkeypatch, "-o", "json")
    result = json.loads(capsys.readouterr().out)
    assert code == 1 and [d["signature"] for d in result["divergences"]] == ["error answer"]
    assert reducing.read_text().count("unsupported") >= 1  # the reduction's probes were answered so
    assert result["unsupported"] == 0  # none of the generated cases was
    assert len(json.loads(out.read_text())["cases"]) == 1


def test_a_crash_while_reducing_ends_the_check_and_keeps_the_divergence_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, reducing = check_failing_while_reducing("crash", tmp_path, monkeypatch)
    printed = capsys.readouterr()
    assert code == 2 and reducing.exists()
    assert "Traceback" not in printed.err + printed.out
    errors = [line for line in printed.err.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "exited (3)" in errors[0] and "(job-sync: " in errors[0], printed.err
    # The divergence found before the reduction is reported and written, beside the case the
    # implementation crashed on.
    assert "divergence 1: error answer" in printed.out and "divergence 2: protocol failure" in printed.out
    saved = json.loads(out.read_text())["cases"]
    assert [c["name"] for c in saved] == ["divergence 1: error answer", "divergence 2: protocol failure"]
    assert saved[0]["pods"] and saved[0]["expect"]


def divergence_on(case: Mapping[str, Any]) -> Divergence:
    return Divergence("status", case, {}, {}, Verdict(False, "status", ("status: differs",)))


def test_reduction_removes_every_element_the_divergence_does_not_need() -> None:
    """A divergence that needs pods a and c, and a container list that cannot be empty."""
    case = {"pods": ["a", "b", "c", "d"], "spec": {"containers": ["main"]}, "other": [1, 2]}
    tried: list[object] = []

    def diverging(candidate: object) -> Divergence | None:
        tried.append(candidate)
        assert isinstance(candidate, dict)
        needed = {"a", "c"} <= set(candidate["pods"]) and candidate["spec"]["containers"]
        return divergence_on(candidate) if needed else None

    smallest = reduced(divergence_on(case), diverging)
    assert smallest.case == {"pods": ["a", "c"], "spec": {"containers": ["main"]}, "other": []}
    assert case["pods"] == ["a", "b", "c", "d"]  # the original is left as it was


def test_reduction_stops_after_its_budget_of_probes() -> None:
    case = {"items": list(range(1000))}
    calls = 0

    def never(candidate: object) -> Divergence | None:
        nonlocal calls
        calls += 1
        return None

    assert reduced(divergence_on(case), never).case == case
    assert calls == 300


def test_each_candidate_lacks_exactly_one_element() -> None:
    case = {"a": [1, 2], "b": {"c": [3]}}
    assert list(without_one_element(case)) == [{"a": [1], "b": {"c": [3]}}, {"a": [2], "b": {"c": [3]}}, {"a": [1, 2], "b": {"c": []}}]


def test_reduction_removes_every_spec_field_the_divergence_does_not_need() -> None:
    """The Job's spec fields go too (Hypothesis's shrinking can keep a podFailurePolicy that other
    draws depend on); one the model needs stays, as a case without it is refused."""
    spec = {"parallelism": 2, "backoffLimit": 6, "podFailurePolicy": {"rules": []}, "podReplacementPolicy": "Failed"}
    case = {"job": {"spec": spec}, "pods": ["a"]}

    def diverging(candidate: object) -> Divergence | None:
        assert isinstance(candidate, dict)
        kept = candidate["job"]["spec"]
        if "backoffLimit" not in kept:
            return None  # refused by the model (an unset field it needs)
        return divergence_on(candidate) if kept.get("parallelism") == 2 and candidate["pods"] else None

    assert reduced(divergence_on(case), diverging).case == {"job": {"spec": {"parallelism": 2, "backoffLimit": 6}}, "pods": ["a"]}
    assert [list(c["job"]["spec"]) for c in without_one_field(case)] == [
        ["parallelism", "backoffLimit", "podFailurePolicy"],
        ["parallelism", "backoffLimit", "podReplacementPolicy"],
        ["parallelism", "podFailurePolicy", "podReplacementPolicy"],
        ["backoffLimit", "podFailurePolicy", "podReplacementPolicy"],
    ]
