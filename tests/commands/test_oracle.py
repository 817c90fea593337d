"""`jobmodel oracle serve` and `jobmodel oracle check` with `-o json` (docs/output.md)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from jobmodel.cli import main

BROKEN = f"cmd:{sys.executable} {Path(__file__).resolve().parents[1] / 'oracle_impls' / 'broken_ranking.py'}"


def test_serve_speaks_the_protocol_with_or_without_o_json(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    outputs = []
    for argv in (["oracle", "serve"], ["oracle", "serve", "-o", "json"]):
        monkeypatch.setattr(sys, "stdin", io.StringIO("not a request\n"))
        assert main(argv) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    handshake, answer = (json.loads(line) for line in outputs[0].splitlines())
    assert "protocol" in handshake and "kind" not in handshake
    assert answer["id"] is None and answer["error"].startswith("request: not JSON")


def test_serve_has_no_text_form(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["oracle", "serve", "-o", "text"])
    assert exit_.value.code == 2
    assert "invalid choice: 'text'" in capsys.readouterr().err


def test_check_json_without_divergence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "d.json"
    argv = ["oracle", "check", "--engine", "model", "--suite", "schedule", "--examples", "20", "--seed", "7", "--out", str(out), "-o", "json"]
    assert main(argv) == 0
    printed = capsys.readouterr()
    result = json.loads(printed.out)  # the whole of standard output is the document
    assert result["schema"] == "jobmodel/v1" and result["kind"] == "OracleCheckResult"
    assert result["seed"] == 7 and result["suite"] == "schedule" and result["engine"] == "model"
    assert result["cases"] >= 20 and result["divergences"] == [] and result["out"] is None and result["aborted"] is None
    assert "seed 7" in printed.err and not out.exists()


def test_check_json_names_each_divergence_and_the_vector_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], run_seed: int) -> None:
    out = tmp_path / "d.json"
    argv = ["oracle", "check", "--engine", BROKEN, "--suite", "job-sync", "--examples", "500", "--seed", str(run_seed), "--out", str(out), "-o", "json"]
    assert main(argv) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["out"] == str(out) and result["divergences"]
    written = json.loads(out.read_text())
    assert len(written["cases"]) >= len(result["divergences"])
    assert all(d["differences"] and d["signature"] for d in result["divergences"])
    assert any("deletedPods" in diff for d in result["divergences"] for diff in d["differences"])


def test_serve_answers_every_line_and_exits_3_after_a_request_the_model_fails_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from jobmodel.commands import oracle

    def broken(line: str, features: object, minor: int) -> dict[str, object]:
        if "boom" in line:
            raise KeyError("boom")
        return {"id": None, "error": "fine"}

    monkeypatch.setattr(oracle, "answer_line", broken)
    monkeypatch.setattr(sys, "stdin", io.StringIO("boom\nnext\n"))
    assert main(["oracle", "serve"]) == 3
    out, err = capsys.readouterr()
    answers = [json.loads(line) for line in out.splitlines()[1:]]
    assert answers[0]["error"].startswith("internal error of the model: KeyError") and answers[1]["error"] == "fine"
    assert err.startswith("internal error: request line 1: KeyError")


def test_serve_refuses_lines_that_are_not_utf8_or_too_long(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from jobmodel.adapters.manifests import MAX_MANIFEST_BYTES

    raw = b"\xff\n" + b"[" * (MAX_MANIFEST_BYTES + 10) + b"\n" + b'{"id": 7}\n'
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))
    assert main(["oracle", "serve"]) == 0
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()[1:]]
    assert [a.get("error", "")[:40] for a in answers[:2]] == ["request: not UTF-8", f"request: a line longer than {MAX_MANIFEST_BYTES} bytes"[:40]]
    assert answers[2]["id"] == 7 and "suite: required" in answers[2]["error"]


def test_check_of_a_suite_the_implementation_does_not_answer_checks_nothing_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every case unsupported was reported as "no divergence"."""
    scripted = f"cmd:{sys.executable} {Path(__file__).resolve().parents[1] / 'oracle_impls' / 'scripted.py'} job-sync-only"
    argv = ["oracle", "check", "--engine", scripted, "--suite", "schedule", "--examples", "5", "--seed", "1", "--out", str(tmp_path / "d.json")]
    assert main(argv) == 2
    assert "supports none of the" in capsys.readouterr().err


def test_check_refuses_the_live_engine_which_runs_scenarios_only(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["oracle", "check", "--engine", "live", "--suite", "job-sync"]) == 2
    assert capsys.readouterr().err.startswith("error: --engine: live runs job-scenario vectors only")
