"""`jobmodel explore` and `jobmodel replay`: what they print, the trace file, exit codes, errors."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml

from jobmodel.checkers import dask_partitions
from jobmodel.checkers.cron import cron_manifest
from jobmodel.cli import main
from tests.checkers.configs import job_manifest

BROKEN = "tests.checkers.broken.ignore_expectations:sync_job"
SERVE_SYNC = Path(__file__).resolve().parents[1] / "oracle_impls" / "serve_sync.py"


@pytest.fixture
def manifest(tmp_path: Path) -> Path:
    path = tmp_path / "job.yaml"
    path.write_text(yaml.safe_dump(job_manifest(2, 2, 1)))
    return path


def test_explore_prints_states_rate_and_no_violation(manifest: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", str(manifest), "--depth", "40", "--failures", "1"]) == 0
    out = capsys.readouterr().out
    assert "explored 206 states" in out and "all reachable states" in out and "states/s" in out
    assert out.rstrip().endswith("no violation")


def test_explore_finds_saves_and_replay_reproduces_a_counterexample(
    manifest: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = tmp_path / "trace.json"
    argv = ["explore", str(manifest), "--depth", "5", "--stale", "1", "--impl", BROKEN, "--save", str(trace), "--kube-version", "1.35"]
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert "violation: no-over-creation" in out and "2 moves" in out
    assert "sync-stale" in out
    saved = json.loads(trace.read_text())
    assert [m["kind"] for m in saved["moves"]] == ["sync-stale", "sync"]
    assert saved["violation"]["invariant"] == "no-over-creation"
    assert main(["replay", str(trace), "--impl", BROKEN]) == 1
    assert "violation reproduced: no-over-creation" in capsys.readouterr().out
    # The same trace against the model: no violation.
    assert main(["replay", str(trace), "--impl", "jobmodel.transitions.sync_job:sync_job"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("no violation")


def test_explore_lowers_a_controller_tunable_and_the_trace_keeps_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A controller that ignores MaxPodCreateDeletePerSync passes at upstream's default (500)
    and is caught once --tunable lowers it below parallelism; replay runs with the saved value."""
    path = tmp_path / "job.yaml"
    path.write_text(yaml.safe_dump(job_manifest(3, 3, 0)))
    broken = "tests.checkers.broken.job_bugs:creations_not_capped"
    assert main(["explore", str(path), "--depth", "3", "--impl", broken, "--workers", "1"]) == 0
    capsys.readouterr()
    trace = tmp_path / "trace.json"
    argv = ["explore", str(path), "--depth", "3", "--impl", broken, "--tunable", "maxPodCreateDeletePerSync=2", "--save", str(trace)]
    assert main(argv) == 1
    assert "violation: pod-creations-within-cap: 3 pod creations in one sync, MaxPodCreateDeletePerSync is 2" in capsys.readouterr().out
    assert json.loads(trace.read_text())["config"]["tunables"]["max_pod_create_delete_per_sync"] == 2
    assert main(["replay", str(trace), "--impl", broken]) == 1
    assert "violation reproduced: pod-creations-within-cap" in capsys.readouterr().out
    # The model at the same tunable creates two pods, then the third a sync later.
    assert main(["explore", str(path), "--depth", "8", "--tunable", "maxPodCreateDeletePerSync=2", "--failures", "1"]) == 0


def test_explore_creates_a_deleted_job_again_and_replay_does_too(
    manifest: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = tmp_path / "trace.json"
    broken = "tests.checkers.broken.job_bugs:expectations_never_expire"
    budget = ["--stale", "1", "--job-deletions", "1", "--recreations", "1", "--expiries", "1", "--kube-version", "1.36"]
    assert main(["explore", str(manifest), "--depth", "5", *budget, "--impl", broken, "--save", str(trace)]) == 1
    out = capsys.readouterr().out
    assert "violation: new-job-starts-clean" in out
    saved = json.loads(trace.read_text())
    assert "recreate-job" in [m["kind"] for m in saved["moves"]] and saved["config"]["budget"]["recreations"] == 1
    assert main(["replay", str(trace), "--impl", broken]) == 1
    assert "violation reproduced: new-job-starts-clean" in capsys.readouterr().out
    assert main(["replay", str(trace), "--impl", "jobmodel.transitions.sync_job:sync_job"]) == 0


def test_explore_lets_status_writes_reach_the_cache_late_and_finds_the_over_creation_up_to_1_35(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = tmp_path / "two.json"
    manifest.write_text(json.dumps(job_manifest(2, 2, 0)))
    trace = tmp_path / "trace.json"
    budget = ["--stale-status", "1", "--kube-version", "1.35"]
    assert main(["explore", str(manifest), "--depth", "6", *budget, "--save", str(trace)]) == 1
    out = capsys.readouterr().out
    assert "violation: no-over-creation-on-stale-cache" in out and "(cache: active=2 ready=0 succeeded=0 failed=0)" in out
    saved = json.loads(trace.read_text())
    assert "sync-stale-status" in [m["kind"] for m in saved["moves"]] and saved["config"]["budget"]["stale_status"] == 1
    assert main(["replay", str(trace)]) == 1
    assert "violation reproduced: no-over-creation-on-stale-cache" in capsys.readouterr().out
    assert main(["explore", str(manifest), "--depth", "6", "--stale-status", "1", "--kube-version", "1.36"]) == 0
    assert "no violation" in capsys.readouterr().out


@pytest.mark.parametrize("write", [["--edit", "suspend=true"], ["--job-deletions", "1"]], ids=["edit", "deletion"])
def test_explore_lets_a_users_job_writes_reach_the_cache_late(tmp_path: Path, capsys: pytest.CaptureFixture[str], write: list[str]) -> None:
    manifest = tmp_path / "two.json"
    manifest.write_text(json.dumps(job_manifest(2, 2, 0)))
    argv = ["explore", str(manifest), "--depth", "5", "--workers", "1", *write, "-o", "json"]
    assert main(argv) == 0
    at_once = json.loads(capsys.readouterr().out)
    assert main([*argv, "--stale-edits", "1"]) == 0
    late = json.loads(capsys.readouterr().out)
    # More states: syncs over the unsuspended spec while the API server has the Job suspended,
    # or of the Job the cache still shows after its deletion.
    assert late["violation"] is None and late["states"] > at_once["states"]


def test_explore_refuses_late_job_writes_without_the_writes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = tmp_path / "two.json"
    manifest.write_text(json.dumps(job_manifest(2, 2, 0)))
    assert main(["explore", str(manifest), "--depth", "5", "--stale-edits", "1"]) == 2
    assert "--stale-edits: needs the Job writes to make late" in capsys.readouterr().err


def test_explore_lets_finalizer_removals_reach_the_cache_late_and_replay_does_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = tmp_path / "two.json"
    manifest.write_text(json.dumps(job_manifest(2, 2, 0)))
    trace = tmp_path / "trace.json"
    broken = "tests.checkers.broken.job_bugs:finalizer_removals_not_awaited"
    budget = ["--stale-patches", "1", "--kube-version", "1.35"]
    assert main(["explore", str(manifest), "--depth", "5", *budget, "--impl", broken, "--save", str(trace)]) == 1
    out = capsys.readouterr().out
    assert "violation: complete-meets-success-criteria" in out and "(cache: Succeeded+fin)" in out
    saved = json.loads(trace.read_text())
    assert "sync-stale-patches" in [m["kind"] for m in saved["moves"]] and saved["config"]["budget"]["stale_patches"] == 1
    assert main(["replay", str(trace), "--impl", broken]) == 1
    assert "violation reproduced: complete-meets-success-criteria" in capsys.readouterr().out
    assert main(["replay", str(trace), "--impl", "jobmodel.transitions.sync_job:sync_job"]) == 0
    # The flag names the controller it applies to.
    cron = tmp_path / "cron.json"
    cron.write_text(json.dumps(cron_manifest("* * * * *", "Allow")))
    assert main(["explore", str(cron), "--depth", "2", "--stale-patches", "1"]) == 2
    assert "--stale-patches: does not apply to a CronJob" in capsys.readouterr().err


@pytest.mark.parametrize("workers", ["1", "2"])
def test_explore_on_several_processes_finds_the_same_states_and_reports_progress(
    manifest: Path, workers: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["explore", str(manifest), "--depth", "40", "--failures", "1", "--workers", workers]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "explored 206 states" in captured.out and captured.out.rstrip().endswith("no violation")
    assert captured.err == ""  # no progress display off a terminal
    monkeypatch.setenv("JOBMODEL_PROGRESS", "1")
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "explored 206 states" in captured.out and "\x1b[" not in captured.out
    # The display's last frame: the whole search, its queue empty.
    assert "exploring to depth 40" in captured.err and "206 states" in captured.err and "queue 0" in captured.err


def test_explore_on_two_processes_finds_the_same_counterexample(manifest: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", str(manifest), "--depth", "5", "--stale", "1", "--impl", BROKEN, "--workers", "2", "--kube-version", "1.32"]) == 1
    out = capsys.readouterr().out
    assert "violation: no-over-creation" in out and "2 moves" in out and "sync-stale" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["--depth", "40", "--failures", "1"],
        ["--depth", "5", "--stale", "1", "--impl", BROKEN, "--kube-version", "1.32"],
    ],
)
def test_explore_on_a_local_dask_cluster_finds_what_one_process_finds(
    manifest: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["explore", str(manifest), *argv, "--workers", "1", "-o", "json"])
    alone = json.loads(capsys.readouterr().out)
    assert main(["explore", str(manifest), *argv, "--workers", "2", "--engine", "dask", "-o", "json"]) == code
    captured = capsys.readouterr()
    on_dask = json.loads(captured.out)
    # At a violation the partitions finish the level, so they may count more (docs/performance.md).
    counts = {"seconds", "partitions"} if code == 0 else {"seconds", "partitions", "states", "transitions"}
    assert {k: v for k, v in on_dask.items() if k not in counts} == {k: v for k, v in alone.items() if k not in counts}
    assert on_dask["states"] > 1 and (code == 0) == (on_dask["violation"] is None)
    assert (alone["partitions"], on_dask["partitions"]) == (1, 2)
    assert captured.err == ""  # the cluster's own logs stay silent


def test_explore_on_a_dask_cluster_without_workers_runs_a_partition_per_worker(
    manifest: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["explore", str(manifest), "--depth", "40", "--failures", "1"]
    assert main([*argv, "--workers", "1", "-o", "json"]) == 0
    alone = json.loads(capsys.readouterr().out)
    with dask_partitions.local_cluster(3) as cluster:  # not as many workers as this machine's cores
        assert main([*argv, "--engine", f"dask={cluster.scheduler_address}", "-o", "json"]) == 0
        on_dask = json.loads(capsys.readouterr().out)
        assert main([*argv, "--engine", f"dask={cluster.scheduler_address}"]) == 0
        printed = capsys.readouterr().out
    assert on_dask["partitions"] == 3
    same = ("states", "transitions", "exhausted", "sometimes", "violation")
    assert [on_dask[k] for k in same] == [alone[k] for k in same]
    assert f"explored {alone['states']} states" in printed and "on 3 partitions" in printed.splitlines()[0]


def test_explore_with_an_unreachable_dask_scheduler_is_a_one_line_error(
    manifest: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dask_partitions, "CONNECT_TIMEOUT", 0.5)
    assert main(["explore", str(manifest), "--depth", "3", "--engine", "dask=tcp://127.0.0.1:1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: --engine: could not reach the Dask scheduler at tcp://127.0.0.1:1")
    assert "\n" not in err


@pytest.mark.parametrize(
    ("argv", "field"),
    [
        (["--impl", "nomodule"], "--impl"),
        (["--impl", "jobmodel.nothing_here:sync"], "--impl"),
        (["--edit", "replicas=2"], "edits"),
        (["--stale-edits", "1"], "--stale-edits"),
        (["--feature-gates", "JobManagedBy"], "--feature-gates"),
        (["--depth", "-1"], "--depth"),
        (["--workers", "0"], "--workers"),
        (["--engine", "ray"], "--engine"),
        (["--engine", "dask="], "--engine"),
        (["--tunable", "maxUncountedPods=0"], "--tunable maxUncountedPods"),
        (["--tunable", "maxUncountedPods"], "--tunable"),
        (["--tunable", "burst=3"], "--tunable"),
        (["--tunable", "podFailureBackOffSeconds=soon"], "--tunable podFailureBackOffSeconds"),
        (["--tunable", "podFailureBackOffSeconds=0.5"], "--tunable podFailureBackOffSeconds: expected whole seconds"),
        (["--tunable", "maxUncountedPods=2", "--tunable", "maxUncountedPods=3"], "--tunable"),
    ],
)
def test_explore_input_errors_name_the_field(
    manifest: Path, argv: list[str], field: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["explore", str(manifest), "--depth", "1", *argv] if "--depth" not in argv else ["explore", str(manifest), *argv]
    assert main(args) == 2
    assert field in capsys.readouterr().err


@pytest.mark.parametrize("impl", ["builtins:print", "sys:exit"])
@pytest.mark.parametrize("kind", ["Job", "CronJob"])
def test_an_implementation_that_returns_no_sync_result_or_exits_is_its_failure(
    manifest: Path, tmp_path: Path, impl: str, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found by fuzzing: a function returning None made an internal error of the checker's, and
    sys.exit escaped it."""
    path = manifest
    if kind == "CronJob":
        path = tmp_path / "cj.yaml"
        path.write_text(CRONJOB)
    assert main(["explore", str(path), "--depth", "2", "--workers", "1", "--impl", impl]) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    result = "JobSyncResult" if kind == "Job" else "CronJobSyncResult"
    expected = f'returned NoneType, not a {result}' if impl == "builtins:print" else "raised SystemExit"
    assert err.startswith(f'error: --impl: "{impl}" ') and expected in err, err


@pytest.mark.parametrize("start", ["9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z", "1899-12-31T23:59:59Z", "9000-01-01T00:00:00Z"])
def test_a_cronjob_explored_or_replayed_from_a_clock_out_of_range_is_an_input_error(
    tmp_path: Path, start: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found by fuzzing: a start at the ends of the datetime range overflowed the cron arithmetic;
    the range is `cron simulate`'s (timeutil.parse_clock)."""
    path = tmp_path / "cj.yaml"
    path.write_text(CRONJOB)
    expected = f'"{start}" is out of range (from 1900-01-01T00:00:00Z to before 9000-01-01T00:00:00Z)'
    assert main(["explore", str(path), "--depth", "1", "--workers", "1", "--start", start]) == 2
    assert capsys.readouterr().err.strip() == f"error: --start: {expected}"
    trace = tmp_path / "trace.json"
    trace.write_text(json.dumps({"kind": "CronJob", "config": {"manifest": yaml.safe_load(CRONJOB), "start": start}, "moves": []}))
    assert main(["replay", str(trace)]) == 2
    assert capsys.readouterr().err.strip() == f"error: {trace}: config.start: {expected}"


def test_replay_of_a_bad_trace_is_an_input_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"config": {"manifest": job_manifest(1, 1, 1)}, "moves": [{"kind": "dance"}]}))
    assert main(["replay", str(bad)]) == 2
    assert "moves[0].kind" in capsys.readouterr().err
    bad.write_text(json.dumps({"config": {"manifest": job_manifest(1, 1, 1)}, "moves": [{"kind": "succeed", "pod": "j-0"}]}))
    assert main(["replay", str(bad)]) == 2
    assert "not enabled" in capsys.readouterr().err


CRONJOB = """\
apiVersion: batch/v1
kind: CronJob
metadata: {name: cj}
spec:
  schedule: "*/2 * * * *"
  concurrencyPolicy: Forbid
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: main, image: busybox}]
"""


def test_explore_checks_a_cronjob_manifest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cj.yaml"
    path.write_text(CRONJOB)
    # 1.32: 1.37's CronJob breaks cron-active-lists-running-jobs after a crash (docs/versions.md).
    assert main(["explore", str(path), "--depth", "30", "--ticks", "4", "--crashes", "1", "--kube-version", "1.32"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("no violation")
    broken = "tests.checkers.broken.cron_name_by_sync_time:sync_cronjob"
    trace = tmp_path / "trace.json"
    argv = ["explore", str(path), "--depth", "10", "--ticks", "3", "--crashes", "1", "--impl", broken, "--save", str(trace), "--kube-version", "1.32"]
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert "violation: cron-one-job-per-scheduled-time" in out and "cronjob status" in out
    saved = json.loads(trace.read_text())
    assert saved["kind"] == "CronJob"
    assert [m["kind"] for m in saved["moves"]][:3] == ["tick", "tick", "sync-crash"]
    # The same code replays a CronJob trace as a Job's: the violation again, and none on the model.
    assert main(["replay", str(trace), "--impl", broken]) == 1
    assert "violation reproduced: cron-one-job-per-scheduled-time" in capsys.readouterr().out
    assert main(["replay", str(trace), "--impl", "jobmodel.transitions.sync_cronjob:sync_cronjob"]) == 0
    capsys.readouterr()
    assert main(["explore", str(path), "--depth", "3", "--evictions", "1"]) == 2
    assert "does not apply to a CronJob" in capsys.readouterr().err
    assert main(["explore", str(path), "--depth", "3", "--tunable", "maxUncountedPods=2"]) == 2
    assert "--tunable: applies to Job manifests only" in capsys.readouterr().err


def test_explore_a_cronjob_whose_job_creates_the_api_server_refuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cj.yaml"
    path.write_text(CRONJOB)
    assert main(["explore", str(path), "--depth", "8", "--ticks", "2", "--faults", "1"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("no violation")
    broken = "tests.checkers.broken.cron_bugs:refused_run_recorded"
    trace = tmp_path / "trace.json"
    assert main(["explore", str(path), "--depth", "8", "--ticks", "2", "--faults", "1", "--impl", broken, "--save", str(trace)]) == 1
    assert "violation: cron-refused-run-not-recorded" in capsys.readouterr().out
    assert [m["kind"] for m in json.loads(trace.read_text())["moves"]][-1] == "sync-create-error"
    assert main(["replay", str(trace), "--impl", "jobmodel.transitions.sync_cronjob:sync_cronjob"]) == 0


def test_explore_a_cronjob_with_a_time_zone_late_syncs_and_dst_from_a_chosen_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cj.yaml"
    path.write_text(CRONJOB.replace("concurrencyPolicy: Forbid", "concurrencyPolicy: Forbid\n  timeZone: Europe/Berlin"))
    assert "timeZone: Europe/Berlin" in path.read_text()
    argv = ["explore", str(path), "--depth", "5", "--ticks", "2", "--late", "1", "--dst", "1", "--liveness"]
    assert main([*argv, "--start", "2025-03-30T00:57:00Z"]) == 0
    assert "no violation" in capsys.readouterr().out
    # Bounded liveness: a controller that skips the runs of late syncs is caught from a state.
    broken = ["--impl", "tests.checkers.broken.cron_bugs:due_run_only_on_time"]
    assert main([*argv, *broken]) == 1
    assert "violation: cron-bounded-liveness" in capsys.readouterr().out
    assert main([*argv, "--start", "yesterday"]) == 2
    assert "--start" in capsys.readouterr().err


DAILY_CRON_JOB = {
    "apiVersion": "batch/v1",
    "kind": "CronJob",
    "metadata": {"name": "daily", "namespace": "default"},
    "spec": {
        "schedule": "0 3 * * *",
        "jobTemplate": {"spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "busybox"}]}}}},
    },
}


def test_a_vacuous_pass_is_warned_about(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "daily.yaml"
    path.write_text(yaml.safe_dump(DAILY_CRON_JOB))
    assert main(["explore", str(path), "--depth", "5", "--ticks", "3"]) == 0
    captured = capsys.readouterr()
    assert "not reached: a CronJob run is created, a finished run is cleaned up" in captured.out
    assert "warning: no sometimes property was reached" in captured.err


def test_explore_says_which_sometimes_properties_were_reached(manifest: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", str(manifest), "--depth", "40", "--failures", "1"]) == 0
    captured = capsys.readouterr()
    assert "reached (2 of 3 sometimes properties): a Job completes, a pod is recreated after back-off" in captured.out
    assert "not reached: a Job fails" in captured.out and captured.err == ""


def test_explore_and_replay_json(manifest: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace = tmp_path / "trace.json"
    argv = ["explore", str(manifest), "--depth", "5", "--stale", "1", "--impl", BROKEN, "--save", str(trace), "-o", "json", "--kube-version", "1.32"]
    assert main(argv) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["kind"] == "ExploreResult" and result["violation"]["invariant"] == "no-over-creation"
    assert [s["move"]["kind"] for s in result["counterexample"]] == ["sync-stale", "sync"]
    assert {p["name"] for p in result["sometimes"]} == {"a Job completes", "a Job fails", "a pod is recreated after back-off"}
    assert main(["replay", str(trace), "--impl", BROKEN, "-o", "json"]) == 1
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["violation"]["invariant"] == "no-over-creation"
    assert replayed["steps"][-1]["violations"][0]["invariant"] == "no-over-creation"


def test_explore_an_external_implementation_through_the_protocol(manifest: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The model served through `cmd:` takes every sync step: the same states as the model itself
    (the answers carry everything the environment needs), and no violation."""
    impl = f"cmd:{sys.executable} -m jobmodel oracle serve"
    assert main(["explore", str(manifest), "--depth", "40", "--failures", "1", "--impl", impl]) == 0
    out = capsys.readouterr().out
    assert "explored 206 states" in out and out.rstrip().endswith("no violation")


def test_explore_finds_a_broken_external_implementation(manifest: Path, capsys: pytest.CaptureFixture[str]) -> None:
    impl = f"cmd:{sys.executable} {SERVE_SYNC} {BROKEN}"
    assert main(["explore", str(manifest), "--depth", "5", "--stale", "1", "--impl", impl, "--kube-version", "1.32"]) == 1
    out = capsys.readouterr().out
    assert "violation: no-over-creation" in out and "2 moves" in out


# --- explore --against: every sync step reached, put to another engine -------------------------

SERVED_MODEL = f"cmd:{sys.executable} -m jobmodel oracle serve --kube-version 1.37"
BROKEN_RANKING = f"cmd:{sys.executable} {SERVE_SYNC.parent / 'broken_ranking.py'} 1.37"


@pytest.fixture
def scaled_down(tmp_path: Path) -> Path:
    """A Job whose parallelism may drop from 2 to 1 while both pods run, one of them ready."""
    path = tmp_path / "scaled.yaml"
    path.write_text(yaml.safe_dump(job_manifest(2, 4, 1)))
    return path


def test_explore_against_the_model_through_the_protocol_agrees(scaled_down: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "divergences.json"
    argv = ["explore", str(scaled_down), "--depth", "6", "--edit", "parallelism=1", "--failures", "1", "--against", SERVED_MODEL, "--out", str(out)]
    assert main(argv) == 0
    last = capsys.readouterr().out.rstrip().splitlines()[-1]
    steps = int(last.split("all ")[1].split(" sync steps")[0])
    assert last.endswith("sync steps reached") and "agrees with the model" in last and steps > 20
    assert not out.exists()


def test_explore_against_a_broken_program_writes_its_divergence(scaled_down: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The program that deletes ready pods first diverges on a scale-down the exploration reaches;
    the vector written holds the model's answer: it passes against the model, fails against the
    program."""
    out = tmp_path / "divergences.json"
    argv = ["explore", str(scaled_down), "--depth", "6", "--edit", "parallelism=1", "--against", BROKEN_RANKING, "--out", str(out), "-o", "json"]
    assert main(argv) == 1
    against = json.loads(capsys.readouterr().out)["against"]
    assert against["engine"] == BROKEN_RANKING and against["out"] == str(out) and against["aborted"] is None
    assert [d["signature"] for d in against["divergences"]] == ["deletedPods"]
    assert main(["conformance", str(out)]) == 0
    assert main(["conformance", "--engine", BROKEN_RANKING, str(out)]) == 1


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        (["--against", "model"], "--against"),
        (["--against", "live"], "--against"),
        (["--against", SERVED_MODEL, "--workers", "2"], "--workers"),
        (["--against", SERVED_MODEL, "--timeout", "0"], "--timeout"),
        (["--out", "divergences.json"], "--out"),
        (["--timeout", "5"], "--timeout"),
    ],
    ids=["model", "live", "workers", "timeout", "out-without-against", "timeout-without-against"],
)
def test_explore_against_refuses_what_it_cannot_do(manifest: Path, capsys: pytest.CaptureFixture[str], extra: list[str], field: str) -> None:
    assert main(["explore", str(manifest), "--depth", "2", *extra]) == 2
    assert field in capsys.readouterr().err


def test_explore_against_compares_a_cronjob_s_syncs_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cron.yaml"
    path.write_text(yaml.safe_dump(cron_manifest("*/2 * * * *", "Forbid")))
    out = tmp_path / "divergences.json"
    assert main(["explore", str(path), "--depth", "6", "--ticks", "3", "--crashes", "1", "--against", SERVED_MODEL, "--out", str(out), "-o", "json"]) == 0
    against = json.loads(capsys.readouterr().out)["against"]
    assert against["cases"] > 10 and against["divergences"] == [] and against["out"] is None
    assert not out.exists()
