"""`jobmodel conformance` (jobmodel/commands/conformance.py): the bundled suite, -o json, --junit."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

import jobmodel
from jobmodel.cli import main
from jobmodel.conformance.bundled import bundled_vector_files
from tests.builders import job_json


def vector_file(tmp_path: Path) -> Path:
    """One passing and one failing job-sync case."""
    case: dict[str, Any] = {"name": "start", "now": "2024-06-01T12:00:00Z", "job": job_json(), "pods": []}
    doc = {
        "format": "jobmodel-conformance/1",
        "suite": "job-sync",
        "source": "test",
        "cases": [
            {**case, "name": "two pods", "expect": {"creations": 2}},
            {**case, "name": "three pods", "origin": "made up", "expect": {"creations": 3}},
        ],
    }
    path = tmp_path / "v.json"
    path.write_text(json.dumps(doc))
    return path


def test_without_files_the_bundled_suite_runs(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["conformance", "-o", "json"])
    report = json.loads(capsys.readouterr().out)
    expected_files = {p.name for p in bundled_vector_files()}
    assert {c["file"] for c in report["cases"]} == expected_files
    assert report["passed"] == len(report["cases"]) and report["failed"] == 0
    assert code == 0


def test_json_report_gives_every_case_and_its_differences(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["conformance", str(vector_file(tmp_path)), "-o", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1
    assert (report["kind"], report["passed"], report["failed"]) == ("ConformanceReport", 1, 1)
    failing = [c for c in report["cases"] if c["result"] == "failed"]
    assert [c["name"] for c in failing] == ["three pods"]
    assert any("creations: expected 3, got 2" in d for d in failing[0]["differences"])


def test_junit_report_marks_the_failing_case(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junit = tmp_path / "report.xml"
    main(["conformance", str(vector_file(tmp_path)), "--junit", str(junit)])
    assert capsys.readouterr().out.strip().endswith("1 passed, 1 failed")
    root = ET.parse(junit).getroot()
    suite = root.find("testsuite")
    assert suite is not None and (suite.get("tests"), suite.get("failures")) == ("2", "1")
    failures = {c.get("name"): c.find("failure") for c in suite.iter("testcase")}
    assert failures["two pods"] is None
    failure = failures["three pods"]
    assert failure is not None and "creations: expected 3, got 2" in (failure.get("message") or "")
    assert "origin: made up" in (failure.text or "")


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.startswith(f"jobmodel {jobmodel.__version__} (")


def test_progress_is_drawn_on_request_and_never_on_stdout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JOBMODEL_PROGRESS", "1")
    main(["conformance", str(vector_file(tmp_path))])
    captured = capsys.readouterr()
    assert "conformance (model engine)" in captured.err
    assert captured.out.strip().endswith("1 passed, 1 failed") and "\x1b[" not in captured.out


def test_a_run_stopped_half_way_keeps_the_verdicts_so_far_in_the_junit_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An engine that stops the run (a cluster gone, ^C) after the first case: the JUnit report
    still holds that case."""
    from jobmodel.conformance import engines

    calls = 0
    outcome = engines.ModelEngine.outcome

    def stopping(self: Any, suite: str, case: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls > 1:
            raise KeyboardInterrupt
        return outcome(self, suite, case)

    monkeypatch.setattr(engines.ModelEngine, "outcome", stopping)
    junit = tmp_path / "report.xml"
    assert main(["conformance", str(vector_file(tmp_path)), "--junit", str(junit)]) == 130
    cases = ET.parse(junit).getroot().findall(".//testcase")
    assert len(cases) == 1


def test_a_bad_kube_version_leaves_an_earlier_junit_report_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bad option is an input error found before the run: it does not overwrite the report of
    an earlier run with an empty one."""
    junit = tmp_path / "report.xml"
    junit.write_text("<testsuites>an earlier run</testsuites>")
    vectors = str(vector_file(tmp_path))
    assert main(["conformance", vectors, "--junit", str(junit), "--kube-version", "1.31"]) == 2
    assert "error: --kube-version: unsupported Kubernetes release '1.31'" in capsys.readouterr().err
    assert junit.read_text() == "<testsuites>an earlier run</testsuites>"


def test_with_json_output_an_unreadable_file_is_also_an_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """-o json: the report names the file, and standard error says the input error in one
    `error: ` line, as in text output (docs/output.md)."""
    path = tmp_path / "cut.json"
    path.write_text('{"format": ')
    assert main(["conformance", str(path), "-o", "json"]) == 2
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["cases"][0]["result"] == "failed"
    error = f"error: {path}: not JSON: Expecting value at line 1 column 12"
    assert error in captured.err.splitlines()


@pytest.mark.parametrize("option", ["--kubeconfig", "--trace-dir"])
def test_live_engine_options_are_refused_with_another_engine(option: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """They were ignored: the model engine has no cluster and records no trace."""
    assert main(["conformance", option, str(tmp_path / "x")]) == 2
    assert capsys.readouterr().err.startswith(f"error: {option}: belongs to --engine live")
