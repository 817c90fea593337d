"""`jobmodel replay`: what a trace file may choose (its configuration) and what only the command
line chooses (the implementation that runs); bad traces are named by file and field."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from jobmodel.checkers.cron import DEFAULT_CRON_IMPL, cron_manifest
from jobmodel.checkers.job import DEFAULT_IMPL
from jobmodel.cli import main
from tests.checkers.configs import job_manifest


def _trace(tmp_path: Path, config: dict[str, Any], kind: str = "Job") -> Path:
    path = tmp_path / "trace.json"
    path.write_text(json.dumps({"kind": kind, "config": config, "moves": []}))
    return path


@pytest.mark.parametrize(
    "impl",
    [
        f"cmd:{sys.executable} -c open('MARK','w')",  # a program a trace from elsewhere would start
        "planted_by_trace:sync_job",  # a module (in the current directory) it would import
    ],
)
def test_a_trace_naming_an_implementation_runs_nothing_unless_the_command_line_names_it(
    impl: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "planted_by_trace.py").write_text("open('MARK', 'w')\nsync_job = None\n")
    trace = _trace(tmp_path, {"manifest": job_manifest(1, 1, 1), "impl": impl})
    assert main(["replay", str(trace)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {trace}: config.impl: the trace was checked with ")
    assert "--impl" in err and "Traceback" not in err
    assert not (tmp_path / "MARK").exists()
    assert "planted_by_trace" not in sys.modules
    # Named on the command line, the model's own sync step replays the same trace.
    assert main(["replay", str(trace), "--impl", DEFAULT_IMPL]) == 0
    assert capsys.readouterr().out.rstrip().endswith("no violation")


def test_a_cronjob_trace_naming_another_implementation_is_refused_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = _trace(tmp_path, {"manifest": cron_manifest("*/2 * * * *"), "impl": "x.y:z"}, "CronJob")
    assert main(["replay", str(trace)]) == 2
    assert "config.impl" in capsys.readouterr().err
    assert main(["replay", str(trace), "--impl", DEFAULT_CRON_IMPL]) == 0


@pytest.mark.parametrize(
    ("config", "field", "reason"),
    [
        ({"symmetry": "no"}, "config.symmetry", "expected a boolean"),
        ({"without_assumptions": 1}, "config.without_assumptions", "expected a boolean"),
        ({"impl": 7}, "config.impl", "expected a string"),
    ],
)
def test_a_bad_setting_is_an_input_error_naming_file_and_field(
    config: dict[str, Any], field: str, reason: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = _trace(tmp_path, {"manifest": job_manifest(1, 1, 1), **config})
    assert main(["replay", str(trace)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {trace}: {field}: ")
    assert reason in err


def test_a_trace_that_is_not_json_is_named_with_its_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace = tmp_path / "trace.json"
    trace.write_text('{"config": ')
    assert main(["replay", str(trace)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {trace}") and "Traceback" not in err
