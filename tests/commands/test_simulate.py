"""`jobmodel simulate`: the options of the default script, and what --script leaves to the script."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobmodel.cli import main
from jobmodel.simulation.job import MAX_POD_SECONDS

REPO = Path(__file__).resolve().parents[2]
PI = str(REPO / "specs" / "examples" / "pi.yaml")


@pytest.fixture
def script(tmp_path: Path) -> str:
    path = tmp_path / "script.yaml"
    path.write_text("- do: advance\n  seconds: 10\n")
    return str(path)


@pytest.mark.parametrize(
    ("options", "named"),
    [(["--fail", "all"], "--fail"), (["--slow", "all,seconds=5"], "--slow"), (["--run-seconds", "5"], "--run-seconds"),
     (["--run-seconds", "0"], "--run-seconds")],
)  # fmt: skip
def test_default_script_options_are_refused_with_a_script(
    options: list[str], named: str, script: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """They would be ignored: a script's steps say what each pod does."""
    assert main(["simulate", PI, "--script", script, *options]) == 2
    assert capsys.readouterr().err.startswith(f"error: {named}: belongs to the default script")


def test_a_script_alone_runs(script: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", PI, "--script", script]) == 0
    assert "not finished at +10s" in capsys.readouterr().out


@pytest.mark.parametrize("seconds", ["1e18", "-1", "nan", "inf", str(MAX_POD_SECONDS + 1)])
def test_run_seconds_out_of_range_names_the_option(seconds: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", PI, "--run-seconds", seconds]) == 2
    assert capsys.readouterr().err.startswith(f"error: --run-seconds: expected 0 to {MAX_POD_SECONDS} seconds")


def test_run_seconds_sets_when_pods_finish(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", PI, "--run-seconds", "45"]) == 0
    assert "Complete (CompletionsReached) at +45s" in capsys.readouterr().out


def test_a_script_may_create_the_job_again_once_it_is_gone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "recreate.yaml"
    job = "{apiVersion: batch/v1, kind: Job, metadata: {name: pi}, spec: {template: {spec: {restartPolicy: Never, containers: [{name: pi, image: perl}]}}}}"
    path.write_text(
        "- do: settle\n- do: deleteJob\n  propagationPolicy: Background\n"
        f"- do: createJob\n  jobUid: second-uid\n  job: {job}\n- do: settle\n"
    )
    assert main(["simulate", PI, "--script", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    created = [i for i, line in enumerate(lines) if "createJob (uid second-uid)" in line]
    assert len(created) == 1
    assert "create 1 pod(s)" in lines[created[0] + 1]  # the replacement's own pod, at once


def test_tunables_reach_the_simulation_and_bad_ones_name_the_flag(capsys: pytest.CaptureFixture[str]) -> None:
    # A back-off of 0.5 s: the replacement comes 1 s after the failure (enqueueSyncJobWithDelay
    # waits at least syncJobBatchPeriod), not 10 s, and succeeds 5 s later.
    assert main(["simulate", PI, "--fail", "pod=0", "--run-seconds", "5", "--tunable", "podFailureBackOffSeconds=0.5"]) == 0
    assert "Complete (CompletionsReached) at +11s" in capsys.readouterr().out
    assert main(["simulate", PI, "--tunable", "maxUncountedPods=0"]) == 2
    assert capsys.readouterr().err.startswith("error: --tunable maxUncountedPods: expected a whole number from 1")
