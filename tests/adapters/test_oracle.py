"""jobmodel.adapters.oracle: a program speaking the oracle protocol as a conformance engine.

The model itself, served through `jobmodel oracle serve` in a subprocess, agrees with every
shared vector of the protocol's suites; programs that break the protocol (a wrong version, a
malformed answer, a crash, a hang) are clear errors naming the request, and the engine carries on
with a fresh process afterwards.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from jobmodel.adapters import protocol
from jobmodel.adapters.oracle import CaseError, OracleError, ProtocolEngine, parse_cmd
from jobmodel.cli import main
from jobmodel.conformance.runner import run_files
from jobmodel.errors import InputError

HERE = Path(__file__).resolve().parent
SCRIPTED = HERE.parent / "oracle_impls" / "scripted.py"
CASE: dict[str, Any] = {"name": "start", "now": "2024-06-01T12:00:00Z", "job": None, "pods": []}


def scripted(mode: str, timeout: float = 20.0) -> ProtocolEngine:
    return ProtocolEngine([sys.executable, str(SCRIPTED), mode], timeout=timeout)


def served_model(release: str = "1.32") -> ProtocolEngine:
    """The model served at a release (the shared vectors are 1.32 cases)."""
    return ProtocolEngine([sys.executable, "-m", "jobmodel", "oracle", "serve", "--kube-version", release])


def test_parse_cmd_splits_like_a_shell() -> None:
    assert parse_cmd("cmd:./impl --flag 'a b'") == ["./impl", "--flag", "a b"]
    with pytest.raises(InputError, match="cmd:PROGRAM"):
        parse_cmd("cmd:")


def test_the_served_model_agrees_with_every_vector_of_the_protocol_suites(conformance_dir: Path) -> None:
    files = [p for p in sorted(conformance_dir.glob("*.json")) if "scenario" not in p.name]
    out = io.StringIO()
    with served_model() as engine:
        assert engine.handshake()["implementation"] == "jobmodel"
        passed, failed = run_files(files, out, engine)
    assert failed == 0, out.getvalue()
    assert passed > 500


def test_the_handshake_of_a_served_model_names_the_release_and_gates() -> None:
    command = [sys.executable, "-m", "jobmodel", "oracle", "serve", "--kube-version", "1.34", "--feature-gates", "JobManagedBy=false"]
    with ProtocolEngine(command) as engine:
        hello = engine.handshake()
    assert protocol.problems(hello, "handshake") == []
    assert hello["kubernetesVersion"] == "v1.34.4"
    assert hello["features"] == {"JobManagedBy": False}


def test_a_served_model_answers_as_the_newest_release_by_default_and_refuses_other_releases_cases() -> None:
    with ProtocolEngine([sys.executable, "-m", "jobmodel", "oracle", "serve"]) as engine:
        assert engine.handshake()["kubernetesVersion"] == "v1.37.2"
        assert "outcome" in engine.answer("job-sync", {**CASE, "kubeVersion": "1.37"})
        refused = engine.answer("job-sync", {**CASE, "kubeVersion": "1.32"})
    assert "Kubernetes 1.32 case" in refused["unsupported"] and "v1.37.2" in refused["unsupported"]


def test_a_gate_the_served_release_locked_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["oracle", "serve", "--kube-version", "1.37", "--feature-gates", "JobManagedBy=false"]) == 2
    assert "JobManagedBy" in capsys.readouterr().err


def test_a_suite_outside_the_protocol_is_unsupported_not_failed(conformance_dir: Path) -> None:
    out = io.StringIO()
    unsupported: list[object] = []
    with served_model() as engine:
        passed, failed = run_files([conformance_dir / "job_scenario.json"], out, engine, unsupported)  # type: ignore[arg-type]
    assert (passed, failed) == (0, 0)
    assert unsupported and "UNSUPPORTED" in out.getvalue()


def test_a_protocol_version_mismatch_is_an_error() -> None:
    with scripted("version") as engine, pytest.raises(OracleError, match=r"jobmodel-oracle/0.*jobmodel-oracle/1"):
        engine.outcome("job-sync", CASE)


def test_a_malformed_handshake_is_an_error() -> None:
    with scripted("bad-handshake") as engine, pytest.raises(OracleError, match="malformed handshake: suites"):
        engine.outcome("job-sync", CASE)


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("malformed", r"malformed answer to request 1 \(job-sync: start\): outcome.deletions: expected an integer, got the string \"three\""),
        ("wrong-id", r"request 1 \(job-sync: start\): id: -1 answers another request"),
        ("not-json", r"request 1 \(job-sync: start\): not a JSON line: 'hello"),
        ("crash", r"(?s)exited \(3\) before answering request 1 \(job-sync: start\).*boom: the implementation fell over"),
    ],
)
def test_a_broken_answer_is_an_error_naming_the_request(mode: str, message: str) -> None:
    with scripted(mode) as engine:
        with pytest.raises(OracleError, match=message):
            engine.outcome("job-sync", CASE)
        # The next request starts the program afresh (and meets the same fault).
        with pytest.raises(OracleError, match="request 2"):
            engine.outcome("job-sync", CASE)


def test_a_hanging_implementation_times_out_per_request() -> None:
    with scripted("hang") as engine:
        engine.handshake()  # started with time to spare (a loaded machine imports slowly)
        engine.timeout = 1.0
        with pytest.raises(OracleError, match=r"no answer within 1s to request 1 \(job-sync: start\)"):
            engine.outcome("job-sync", CASE)


def test_an_error_answer_is_a_case_error() -> None:
    with scripted("error") as engine, pytest.raises(CaseError, match="cannot take this case"):
        engine.outcome("job-sync", CASE)


def test_a_malformed_request_is_refused_before_it_is_sent() -> None:
    with scripted("model") as engine, pytest.raises(InputError, match=r"request 1 \(job-sync: bad\): case.now"):
        engine.outcome("job-sync", {**CASE, "name": "bad", "now": "yesterday"})


def test_conformance_with_a_broken_engine_reports_failing_cases_not_a_traceback(
    conformance_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = json.loads((conformance_dir / "job_sync_core.json").read_text())
    doc["cases"] = doc["cases"][:3]
    vectors = tmp_path / "three.json"
    vectors.write_text(json.dumps(doc))
    engine = f"cmd:{sys.executable} {SCRIPTED} malformed"
    code = main(["conformance", "--engine", engine, str(vectors)])
    out = capsys.readouterr().out
    assert code == 1
    # Each case is a failure naming its request; the program is started afresh for the next.
    assert [f"malformed answer to request {n}" in out for n in (1, 2, 3)] == [True, True, True]
    assert out.splitlines()[-1] == "0 passed, 3 failed" and "Traceback" not in out


def test_conformance_engine_cmd_through_the_command_line(conformance_dir: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "jobmodel", "conformance", "--engine", f"cmd:{sys.executable} -m jobmodel oracle serve --kube-version 1.32",
         str(conformance_dir / "schedule.json")],
        capture_output=True, text=True, check=False, timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1].endswith(" passed, 0 failed")
