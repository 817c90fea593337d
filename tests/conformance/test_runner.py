"""The conformance runner (jobmodel/conformance/runner.py) on good, failing and malformed vector files."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from jobmodel.conformance.runner import run_files
from tests.builders import job_json, pod_json


def write(tmp_path: Path, doc: Any, name: str = "v.json") -> Path:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return path


def case(**expect: Any) -> dict[str, Any]:
    return {"name": "start", "now": "2024-06-01T12:00:00Z", "job": job_json(), "pods": [], "expect": expect}


def doc(*cases: dict[str, Any], suite: str = "job-sync") -> dict[str, Any]:
    return {"format": "jobmodel-conformance/1", "suite": suite, "source": "test", "cases": list(cases)}


def test_passing_and_failing_cases_are_counted(tmp_path: Path) -> None:
    out = io.StringIO()
    path = write(tmp_path, doc(case(creations=2), {**case(creations=3), "name": "another"}))
    assert run_files([path], out) == (1, 1)
    assert "creations: expected 3, got 2" in out.getvalue()


def test_a_repeated_or_non_string_name_is_a_malformed_case_and_the_others_run(tmp_path: Path) -> None:
    """A name is unique within a file (FORMAT.md): a repeated one, or one that is no string, is
    a failing case naming the field, and is not run; the file's other cases are."""
    cases = [case(creations=2), case(creations=2), {**case(creations=2), "name": 7}, {**case(creations=3), "name": "last"}]
    out = io.StringIO()
    assert run_files([write(tmp_path, doc(*cases))], out) == (1, 3)
    text = out.getvalue()
    assert 'FAIL v.json: cases[1]\n  cases[1].name: "start" repeats cases[0] (a name is unique within a file)' in text
    assert "FAIL v.json: cases[2]\n  cases[2].name: expected a string, got the integer 7" in text
    assert "FAIL v.json: last\n  creations: expected 3, got 2" in text


def test_malformed_file_is_a_failure_with_a_reason(tmp_path: Path) -> None:
    out = io.StringIO()
    assert run_files([write(tmp_path, "{not json")], out) == (0, 1)
    assert "not JSON" in out.getvalue()


def test_wrong_format_is_reported(tmp_path: Path) -> None:
    out = io.StringIO()
    bad = doc(case(creations=2))
    bad["format"] = "other/2"
    assert run_files([write(tmp_path, bad)], out) == (0, 1)
    assert "format" in out.getvalue()


def test_malformed_case_fails_with_the_field_named(tmp_path: Path) -> None:
    broken = case(creations=2)
    broken["job"]["spec"]["completions"] = "many"
    out = io.StringIO()
    assert run_files([write(tmp_path, doc(broken))], out) == (0, 1)
    assert "job.spec.completions: expected an integer" in out.getvalue()


def test_two_pods_of_one_name_are_refused_with_the_field_named(tmp_path: Path) -> None:
    twice = case(creations=0)
    twice["pods"] = [pod_json("a"), pod_json("b"), pod_json("a")]
    out = io.StringIO()
    assert run_files([write(tmp_path, doc(twice))], out) == (0, 1)
    assert "pods[2].metadata.name: 'a' repeats pods[0]" in out.getvalue()


def test_unknown_expect_key_fails(tmp_path: Path) -> None:
    out = io.StringIO()
    assert run_files([write(tmp_path, doc(case(creatons=2)))], out) == (0, 1)
    assert "expect.creatons: unknown field" in out.getvalue()


def test_unimplemented_suite_is_a_failure_not_a_skip(tmp_path: Path) -> None:
    out = io.StringIO()
    assert run_files([write(tmp_path, doc(case(), suite="no-such-suite"))], out) == (0, 1)
    assert "not implemented" in out.getvalue()


def test_an_unimplemented_suite_fails_even_without_cases(tmp_path: Path) -> None:
    """A misspelt suite in a file with no cases: one failure naming the suite, not `0 passed`."""
    out = io.StringIO()
    assert run_files([write(tmp_path, doc(suite="job-snyc"))], out) == (0, 1)
    assert 'v.json: suite "job-snyc" is not implemented by the model yet (it implements job-sync,' in out.getvalue()
    assert run_files([write(tmp_path, doc(suite="job-sync"))], io.StringIO()) == (0, 0)


def test_a_case_the_tool_fails_on_is_reported_and_the_run_goes_on(
    tmp_path: Path, monkeypatch: Any, capsys: Any
) -> None:
    from jobmodel.cli import main
    from jobmodel.conformance import job_sync

    real = job_sync.compare

    def compare(case: Any, outcome: Any) -> Any:
        if case.get("name") == "broken":
            raise ZeroDivisionError("division by zero")
        return real(case, outcome)

    monkeypatch.setattr(job_sync, "compare", compare)
    good, broken = case(creations=2), {**case(creations=2), "name": "broken"}
    path = write(tmp_path, doc(broken, good))
    assert main(["conformance", str(path), str(tmp_path / "missing.json")]) == 3
    out, err = capsys.readouterr()
    assert out.splitlines()[-1] == "1 passed, 2 failed"
    assert "internal error: ZeroDivisionError: division by zero" in out
    assert f"internal error: {path}: broken: ZeroDivisionError: division by zero\n" in err
    assert f"error: {tmp_path / 'missing.json'}: cannot read" in err
    monkeypatch.setattr(job_sync, "compare", real)
    assert main(["conformance", str(write(tmp_path, doc(good), "good.json")), str(tmp_path / "missing.json")]) == 2
