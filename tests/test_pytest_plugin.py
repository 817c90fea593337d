"""jobmodel.pytest_plugin: the documented example suite runs as an implementer runs it (through
the installed `pytest11` entry point), against the model and against a program speaking the
protocol; a wrong outcome fails with the differences listed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "docs" / "examples" / "oracle_pytest"


def run_pytest(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider", *args],
        cwd=cwd, capture_output=True, text=True, check=False, timeout=600,
    )


def test_the_example_passes_against_the_model(tmp_path: Path) -> None:
    done = run_pytest(str(EXAMPLE), cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout


def test_the_example_passes_against_the_model_served_through_cmd(tmp_path: Path) -> None:
    engine = f"cmd:{sys.executable} -m jobmodel oracle serve"
    done = run_pytest(str(EXAMPLE), f"--jobmodel-engine={engine}", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout
    # The engine named is the one asked: a program that never answers fails both tests.
    mute = f"cmd:{sys.executable} -c pass"
    done = run_pytest(str(EXAMPLE), f"--jobmodel-engine={mute}", cwd=tmp_path)
    assert done.returncode == 1 and "2 failed" in done.stdout
    assert "exited (0) before answering the handshake" in done.stdout


def test_a_wrong_outcome_fails_with_the_differences(tmp_path: Path) -> None:
    test = tmp_path / "test_wrong.py"
    test.write_text(
        (EXAMPLE / "test_my_controller.py").read_text().replace(
            "start = min(spec[\"parallelism\"], spec[\"completions\"])", "start = spec[\"completions\"]"
        )
    )
    done = run_pytest(str(test), cwd=tmp_path)
    assert done.returncode == 1
    assert "job-sync: the outcome differs from model's" in done.stdout
    assert "creations: candidate 5 != reference 2" in done.stdout
