"""`jobmodel cron next` and `jobmodel cron simulate` (jobmodel/commands/cron.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jobmodel.cli import main

MANIFEST = {
    "apiVersion": "batch/v1",
    "kind": "CronJob",
    "metadata": {
        "name": "report",
        "namespace": "default",
        "uid": "u1",
        "creationTimestamp": "2024-01-01T00:00:00Z",
    },
    "spec": {
        "schedule": "0 * * * *",
        "concurrencyPolicy": "Forbid",
        "successfulJobsHistoryLimit": 1,
        "jobTemplate": {
            "spec": {"template": {"spec": {"containers": [{"name": "c", "image": "busybox"}], "restartPolicy": "OnFailure"}}}
        },
    },
}


def lines(capsys: pytest.CaptureFixture[str]) -> list[str]:
    return capsys.readouterr().out.strip().splitlines()


def test_next_prints_run_times_in_utc_and_the_zone(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "cron",
            "next",
            "30 2 * * *",
            "--time-zone",
            "America/New_York",
            "--from",
            "2024-03-09T12:00:00Z",
            "-n",
            "2",
        ]
    )
    assert code == 0
    out = lines(capsys)
    # 02:30 on 2024-03-10 does not exist in New York: the run is skipped.
    assert out[0].startswith("2024-03-11T06:30:00Z  2024-03-11T02:30:00-04:00")
    assert out[1].startswith("2024-03-12T06:30:00Z")


def test_next_reports_a_schedule_that_never_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cron", "next", "0 0 30 2 *", "--from", "2024-01-01T00:00:00Z"]) == 0
    assert "gives up" in lines(capsys)[0]


def test_next_rejects_what_robfig_rejects(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cron", "next", "0 0 * * 7"]) == 2
    assert "schedule: end of range (7) above maximum (6)" in capsys.readouterr().err
    assert main(["cron", "next", "* * * * *", "--time-zone", "Mars/Olympus"]) == 2
    assert "--time-zone" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("zone", "reason"),
    [("Local", "timeZone must be an explicit time zone"), ("local", "timeZone must be an explicit time zone"),
     ("", "timeZone must be nil or non-empty string"), ("../etc", "unknown time zone ../etc")],
)  # fmt: skip
def test_next_refuses_a_zone_spec_time_zone_refuses(zone: str, reason: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Local (the machine's zone) and "" fell back to UTC; the API server refuses them as spec.timeZone."""
    assert main(["cron", "next", "* * * * *", "--time-zone", zone]) == 2
    assert capsys.readouterr().err.startswith(f"error: --time-zone: {reason}")


def test_simulate_forbid_with_long_jobs_and_an_outage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cj.json"
    path.write_text(json.dumps(MANIFEST))
    code = main(
        [
            "cron",
            "simulate",
            str(path),
            "--start",
            "2024-01-01T00:00:00Z",
            "--end",
            "2024-01-01T06:30:00Z",
            "--job-duration",
            "5400",
            "--outage",
            "2024-01-01T03:10:00Z/2024-01-01T05:20:00Z",
        ]
    )
    assert code == 0
    out = lines(capsys)
    creates = [line.split()[2].rstrip(":") for line in out if " create " in line]
    # 01:00's Job runs until 02:30, so Forbid holds 02:00 back; when that Job finishes the
    # CronJob is synced and 02:00, still the most recent unmet time, starts late at 02:30.
    # 03:00 is held back too (02:00's Job runs until 04:00), and the outage hides 04:00 and
    # 05:00 until 05:20, when only the most recent missed time, 05:00, starts.
    assert creates == ["report-28401180", "report-28401240", "report-28401420"]
    assert "2024-01-01T02:30:00Z  create report-28401240: scheduled for 2024-01-01T02:00:00+00:00" in out
    assert sum("JobAlreadyActive" in line for line in out) == 3
    deletes = [line for line in out if " delete " in line]
    assert deletes == ["2024-01-01T05:20:00Z  delete report-28401180: history limit"]
    assert out[-1].startswith("3 created, 1 deleted")


def test_simulate_bad_window(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cj.json"
    path.write_text(json.dumps(MANIFEST))
    assert (
        main(
            [
                "cron",
                "simulate",
                str(path),
                "--start",
                "2024-01-02T00:00:00Z",
                "--end",
                "2024-01-01T00:00:00Z",
            ]
        )
        == 2
    )
    assert "--end" in capsys.readouterr().err


def test_simulate_reads_yaml_from_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import io

    import yaml

    monkeypatch.setattr("sys.stdin", io.StringIO(yaml.safe_dump(MANIFEST)))
    assert main(["cron", "simulate", "-", "--start", "2024-01-01T00:00:00Z", "--end", "2024-01-01T01:30:00Z"]) == 0
    assert lines(capsys)[0] == "2024-01-01T01:00:00Z  create report-28401180: scheduled for 2024-01-01T01:00:00+00:00"


def test_simulate_needs_exactly_one_cronjob(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "two.json"
    path.write_text(json.dumps({"kind": "List", "items": [MANIFEST, MANIFEST]}))
    assert main(["cron", "simulate", str(path), "--start", "2024-01-01T00:00:00Z", "--end", "2024-01-02T00:00:00Z"]) == 2
    assert "expected exactly one CronJob in the manifest, found 2" in capsys.readouterr().err
