"""`jobmodel cluster ...`, `jobmodel live run|check` and `conformance --engine live` as a user runs
them, on the real control plane."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from jobmodel.adapters.controlplane import ControlPlane, pid_alive
from jobmodel.adapters.live import LiveCluster, read_trace
from tests.commands.test_live import PI, pi_with_unknown_field, run_cli
from tests.conftest import REPO_ROOT, find_conformance_dir

pytestmark = pytest.mark.live


def test_cluster_up_status_down(newest_plane: ControlPlane, tmp_path: Path) -> None:
    directory = tmp_path / "cluster"
    try:  # from `up` on: an interrupt while it starts still takes its detached plane down
        up = run_cli("cluster", "up", "--dir", str(directory))
        assert up.returncode == 0, up.stderr
        kubeconfig = Path(up.stdout.strip().splitlines()[-1])
        assert kubeconfig.is_file() and (kubeconfig.stat().st_mode & 0o777) == 0o600
        config = yaml.safe_load(kubeconfig.read_text())
        assert config["clusters"][0]["cluster"]["server"].startswith("https://127.0.0.1:")
        cluster = LiveCluster.connect(kubeconfig)
        assert cluster.version() == "v1.37.2"  # the newest release the model follows (the default), stamped at build time
        cluster.close()
        again = run_cli("cluster", "up", "--dir", str(directory))
        assert again.returncode == 0 and again.stdout.strip() == str(kubeconfig) and "already running" in again.stderr
        status = run_cli("cluster", "status", "--dir", str(directory))
        assert status.returncode == 0
        for name in ("etcd", "kube-apiserver", "kube-controller-manager"):
            assert f"{name}" in status.stdout and "healthy" in status.stdout
        assert "release     Kubernetes 1.37" in status.stdout
        assert json.loads(run_cli("cluster", "status", "--dir", str(directory), "-o", "json").stdout)["kubeVersion"] == "1.37"
        other = run_cli("cluster", "up", "--dir", str(directory), "--kube-version", "1.32")
        assert other.returncode == 2 and "a control plane of Kubernetes 1.37 is running" in other.stderr
        pids = json.loads((directory / "state.json").read_text())["processes"]
    finally:
        down = run_cli("cluster", "down", "--dir", str(directory))
    assert down.returncode == 0
    assert not directory.exists()
    assert not any(pid_alive(p["pid"], p["binary"]) for p in pids.values())
    status = run_cli("cluster", "status", "--dir", str(directory))
    assert status.returncode == 1 and "no control plane" in status.stdout


def test_live_run_completes_a_real_job_beside_the_model(plane: ControlPlane, tmp_path: Path) -> None:
    trace = tmp_path / "pi.jsonl"
    picture = tmp_path / "pi.svg"
    proc = run_cli("live", "run", PI, "--kubeconfig", str(plane.kubeconfig), "--trace", str(trace), "--run-seconds", "1", "--picture", str(picture), timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert json.loads(trace.read_text().splitlines()[0])["kubeVersion"] == "1.32"  # the cluster's, not the default
    assert "MODEL (simulated cluster)" in proc.stdout and "REAL (https://127.0.0.1:" in proc.stdout
    assert "The real Job ends as the model predicts" in proc.stdout
    assert "Complete(CompletionsReached)" in proc.stdout
    svg = picture.read_text()
    assert "model: Job pi" in svg and "real cluster: Job pi" in svg
    check = run_cli("live", "check", str(trace))
    assert check.returncode == 0, check.stdout
    assert "0 divergences, 0 violations" in check.stdout


def test_live_run_on_a_cluster_of_the_newest_release_follows_that_release(newest_plane: ControlPlane, tmp_path: Path) -> None:
    """A cluster of 1.37 given by kubeconfig (its API server says so), without --kube-version:
    the model beside it at 1.37, which the cluster reports, and the trace's check at 1.37 (its
    header records the release)."""
    import ssl
    import urllib.request

    request = urllib.request.Request(f"{newest_plane.server}/version", headers={"Authorization": f"Bearer {newest_plane.admin_token}"})
    context = ssl.create_default_context(cafile=str(newest_plane.dir / "pki" / "ca.crt"))
    with urllib.request.urlopen(request, timeout=10, context=context) as response:
        assert json.loads(response.read())["gitVersion"] == "v1.37.2"
    trace = tmp_path / "pi.jsonl"
    args = ("--kubeconfig", str(newest_plane.kubeconfig), "--trace", str(trace), "--run-seconds", "1", "--fail", "pod=0,exit=3")
    proc = run_cli("live", "run", PI, *args, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "warning" not in proc.stderr
    assert "The real Job ends as the model predicts" in proc.stdout
    assert json.loads(trace.read_text().splitlines()[0])["kubeVersion"] == "1.37"
    check = run_cli("live", "check", str(trace))
    assert check.returncode == 0 and "0 divergences, 0 violations" in check.stdout, check.stdout
    mismatch = run_cli("live", "check", str(trace), "--kube-version", "1.32")
    assert mismatch.returncode == 2 and "the trace is of a cluster of Kubernetes 1.37" in mismatch.stderr


def test_live_run_uses_the_running_cluster_up_plane_at_its_release(session_plane: ControlPlane, tmp_path: Path) -> None:
    """Without --kubeconfig or --kube-version, `live run` uses the plane `cluster up` started
    (here of 1.32, not the default release) and follows its release; the plane keeps running."""
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "XDG_RUNTIME_DIR": str(tmp_path / "runtime")}
    (tmp_path / "runtime").mkdir()

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "jobmodel", *args], capture_output=True, text=True, timeout=300, env=env)

    try:
        up = cli("cluster", "up", "--kube-version", "1.32")
        assert up.returncode == 0, up.stderr
        trace = tmp_path / "pi.jsonl"
        proc = cli("live", "run", PI, "--trace", str(trace), "--run-seconds", "1")
        assert proc.returncode == 0, proc.stdout + proc.stderr
        header = json.loads(trace.read_text().splitlines()[0])
        status = cli("cluster", "status", "-o", "json")
        assert status.returncode == 0
        running = json.loads(status.stdout)
        assert header["kubeVersion"] == running["kubeVersion"] == "1.32"
        assert header["server"] == running["server"]  # that plane, not one of the run's own
    finally:
        assert cli("cluster", "down").returncode == 0


def test_live_run_with_a_failure_follows_the_back_off(plane: ControlPlane, tmp_path: Path) -> None:
    trace = tmp_path / "fail.jsonl"
    proc = run_cli("live", "run", PI, "--kubeconfig", str(plane.kubeconfig), "--trace", str(trace), "--run-seconds", "1", "--fail", "pod=0,exit=3", timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # The first pod fails, its replacement waits out the controller's 10 s back-off and succeeds.
    rows = [line.split("|")[1] for line in proc.stdout.splitlines() if "|" in line and "+" in line.split("|")[1]]
    assert any(row.split()[4] == "1" for row in rows)  # FAI 1
    assert "Complete(CompletionsReached)" in proc.stdout
    check = run_cli("live", "check", str(trace))
    assert check.returncode == 0, check.stdout


def test_live_run_of_an_on_failure_job_restarts_containers_in_place_on_both(plane: ControlPlane, tmp_path: Path) -> None:
    """The simulated kubelet restarts the failing containers in their pods, and the real
    controller, as the model, counts the restarts against backoffLimit (pastBackoffLimitOnFailure)."""
    trace = tmp_path / "on-failure.jsonl"
    example = str(REPO_ROOT / "specs" / "examples" / "on-failure.yaml")
    proc = run_cli("live", "run", example, "--kubeconfig", str(plane.kubeconfig), "--trace", str(trace), "--run-seconds", "1", "--fail", "all", timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "The real Job ends as the model predicts" in proc.stdout
    assert "Failed(BackoffLimitExceeded)" in proc.stdout
    _header, records = read_trace(trace)
    pods = [r["object"] for r in records if r.get("kind") == "event" and r.get("resource") == "pods"]
    restarts = {c.get("restartCount", 0) for p in pods for c in (p.get("status") or {}).get("containerStatuses") or []}
    assert 1 in restarts and all(p["status"].get("phase") != "Failed" or p["metadata"].get("deletionTimestamp") for p in pods)
    check = run_cli("live", "check", str(trace))
    assert check.returncode == 0, check.stdout


def create_action(trace: Path) -> dict[str, object]:
    """The trace's record of the Job's create."""
    _header, records = read_trace(trace)
    return next(r for r in records if r.get("kind") == "action" and r.get("what") == "create the Job")


def test_live_run_sends_the_job_as_written_under_the_validate_directive(plane: ControlPlane, tmp_path: Path) -> None:
    """--validate warn: the API server decodes the manifest as written, unknown field and all,
    and warns as the model does; the Job runs as the model predicts without the field."""
    manifest = str(pi_with_unknown_field(tmp_path))
    trace = tmp_path / "warn.jsonl"
    proc = run_cli("live", "run", manifest, "--kubeconfig", str(plane.kubeconfig), "--validate", "warn", "--trace", str(trace), "--run-seconds", "1", timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert 'Warning: unknown field "spec.retries"' in proc.stderr  # the model's, printed before the run
    assert "warnings on the create differ" not in proc.stdout
    assert "The real Job ends as the model predicts" in proc.stdout
    created = create_action(trace)
    assert created["fieldValidation"] == "Warn" and created["warnings"] == ['unknown field "spec.retries"']  # the server's
    # --script creates the Job through the scenario runner: the same request, here under Ignore.
    script = tmp_path / "script.yaml"
    script.write_text(yaml.safe_dump([{"do": "settle"}, {"do": "expect", "status": {"active": 1}}]))
    trace = tmp_path / "ignore.jsonl"
    proc = run_cli("live", "run", manifest, "--kubeconfig", str(plane.kubeconfig), "--validate", "ignore", "--script", str(script), "--trace", str(trace), "-o", "json", timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Warning" not in proc.stderr and json.loads(proc.stdout)["warnings"] == []
    created = create_action(trace)
    assert created["fieldValidation"] == "Ignore" and created["warnings"] == []


def test_live_check_reports_a_write_the_model_cannot_reach(plane: ControlPlane, tmp_path: Path) -> None:
    trace = tmp_path / "pi.jsonl"
    proc = run_cli("live", "run", PI, "--kubeconfig", str(plane.kubeconfig), "--trace", str(trace), "--run-seconds", "1", timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = [json.loads(line) for line in trace.read_text().splitlines()]
    own = {r.get("rv") for r in lines if r.get("kind") == "action"}
    writes = [r for r in lines if r.get("kind") == "event" and r.get("resource") == "jobs" and r.get("rv") not in own]
    writes[-1]["object"]["status"]["failed"] = 3  # as if the controller had counted failures that never were
    doctored = tmp_path / "doctored.jsonl"
    doctored.write_text("".join(json.dumps(r) + "\n" for r in lines))
    check = run_cli("live", "check", str(doctored))
    assert check.returncode == 1
    assert "DIVERGENCE" in check.stdout and "failed=3" in check.stdout and "differing: failed" in check.stdout


def test_conformance_engine_live_from_the_command_line(tmp_path: Path) -> None:
    found = find_conformance_dir()
    if found is None:
        pytest.skip("shared conformance vectors not found")
    doc = json.loads((found / "job_scenario.json").read_text())
    wanted = ["TestManagedBy: the Job controller reconciles jobs without the managedBy", "TestJobPodsCreatedWithExponentialBackoff"]
    doc["cases"] = [c for c in doc["cases"] if any(c["name"].startswith(w) for w in wanted)][:2]
    assert len(doc["cases"]) == 2
    # And a case of the newest release, which runs on a control plane of that release.
    newer = json.loads((REPO_ROOT / "tests" / "conformance" / "vectors" / "job_scenario_newer_extra.json").read_text())
    doc["cases"] += [c for c in newer["cases"] if c["name"] == "TestSuccessPolicy: all indexes succeeded (1.37)"]
    assert len(doc["cases"]) == 3
    vectors = tmp_path / "three.json"
    vectors.write_text(json.dumps(doc))
    env_dir = tmp_path / "traces"
    proc = run_cli("conformance", "--engine", "live", "--trace-dir", str(env_dir), str(vectors), timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[-1] == "2 passed, 0 failed"
    assert "1 unsupported by the live engine" in lines[-2]
    assert "UNSUPPORTED three.json: TestJobPodsCreatedWithExponentialBackoff" in proc.stdout
    assert "clock that stands still" in proc.stdout
    # The cases that ran left their traces, each of a plane of the case's release.
    releases = sorted(str(read_trace(trace)[0].get("kubeVersion")) for trace in env_dir.iterdir())
    assert releases == ["1.32", "1.37"]


def test_conformance_engine_live_on_a_cluster_given_runs_the_cases_of_its_release(plane: ControlPlane, tmp_path: Path) -> None:
    """--kubeconfig without --kube-version: the cases of the release the cluster reports (1.32,
    not the default 1.37) run on it; a case of another release is unsupported, with the reason."""
    bundled = json.loads((REPO_ROOT / "jobmodel" / "conformance" / "vectors" / "job_scenario.json").read_text())
    ours = [c for c in bundled["cases"] if c["name"] == "TestNodeSelectorUpdate"]  # no gates or tunables to restart with
    newer = json.loads((REPO_ROOT / "tests" / "conformance" / "vectors" / "job_scenario_newer_extra.json").read_text())
    other = [c for c in newer["cases"] if c["name"] == "TestSuccessPolicy: all indexes succeeded (1.37)"]
    assert len(ours) == len(other) == 1
    vectors = tmp_path / "two.json"
    vectors.write_text(json.dumps({**bundled, "cases": [*ours, *other]}))
    proc = run_cli("conformance", "--engine", "live", "--kubeconfig", str(plane.kubeconfig), str(vectors), timeout=600)
    lines = proc.stdout.strip().splitlines()
    assert lines[-1] == "1 passed, 0 failed", proc.stdout + proc.stderr
    assert "UNSUPPORTED two.json: TestSuccessPolicy: all indexes succeeded (1.37)" in proc.stdout
    assert "the case is of Kubernetes 1.37; the control plane runs 1.32" in proc.stdout
    assert "warning" not in proc.stderr


def _new_planes(before: set[Path]) -> list[Path]:
    import tempfile

    return [p for p in Path(tempfile.gettempdir()).glob("jobmodel-cluster-*") if p not in before and (p / "state.json").is_file()]


# The run as started in a terminal's foreground, where Ctrl-C reaches it: a test process started in
# the background without job control (`cmd &` in a script) ignores SIGINT, and its children would
# inherit that (the same process then execs the command, so its pid is the run's).
AS_IN_A_TERMINAL = "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.executable, [sys.executable, *sys.argv[1:]])"


def _start_run_with_its_own_plane(tmp_path: Path) -> tuple[subprocess.Popen[str], Path, dict[str, dict[str, object]]]:
    """`live run` without a kubeconfig or `cluster up`: it starts a control plane of its own."""
    import tempfile
    import time

    before = set(Path(tempfile.gettempdir()).glob("jobmodel-cluster-*"))
    env = {**os.environ, "XDG_RUNTIME_DIR": str(tmp_path / "runtime")}  # no `cluster up` there
    proc = subprocess.Popen(
        [sys.executable, "-c", AS_IN_A_TERMINAL, "-m", "jobmodel", "live", "run", PI, "--run-seconds", "120", "--trace", str(tmp_path / "t.jsonl")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for plane in _new_planes(before):
            # Its own: another test may start a plane meanwhile (parallel test workers).
            state = json.loads((plane / "state.json").read_text())
            ours = all(_parent_pid(int(p["pid"])) == proc.pid for p in state["processes"].values())
            if ours and len(state["processes"]) == 3 and (tmp_path / "t.jsonl").exists():
                return proc, plane, state["processes"]
        time.sleep(0.2)
    proc.kill()
    raise AssertionError("the run did not start its control plane")


def _parent_pid(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[1])  # the field after the state, past the command name


def _wait_gone(processes: dict[str, dict[str, object]], timeout: float = 30) -> list[str]:
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        alive = [n for n, p in processes.items() if pid_alive(int(str(p["pid"])), str(p["binary"]))]
        if not alive:
            return []
        time.sleep(0.1)
    return alive


def test_ctrl_c_stops_every_process_of_the_run(tmp_path: Path) -> None:
    proc, directory, processes = _start_run_with_its_own_plane(tmp_path)
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "interrupted" in stderr and "Traceback" not in stderr
    assert _wait_gone(processes) == []
    assert not directory.exists()


def test_a_killed_run_takes_its_control_plane_with_it(tmp_path: Path) -> None:
    import shutil

    proc, directory, processes = _start_run_with_its_own_plane(tmp_path)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    try:
        assert _wait_gone(processes) == []  # PR_SET_PDEATHSIG: no orphan keeps running
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def test_live_run_with_a_script_creates_the_job_again_on_both(plane: ControlPlane, tmp_path: Path) -> None:
    """A `createJob` step mid-script: the Job, deleted, is created again under its name (sent as
    written, decoded strictly as the model decodes it), and both controllers give it its pod."""
    job = yaml.safe_load(Path(PI).read_text())
    script = tmp_path / "again.yaml"
    script.write_text(
        yaml.safe_dump(
            [
                {"do": "settle"},
                {"do": "deleteJob", "propagationPolicy": "Background"},
                {"do": "createJob", "job": job, "jobUid": "uid-2"},
                {"do": "settle"},
                {"do": "expect", "status": {"active": 1}},
            ]
        )
    )
    trace = tmp_path / "again.jsonl"
    proc = run_cli("live", "run", PI, "--kubeconfig", str(plane.kubeconfig), "--script", str(script), "--trace", str(trace), timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "DIFFERENCE" not in proc.stdout
    _header, records = read_trace(trace)
    again = [r for r in records if r.get("kind") == "action" and r.get("what") == "create the Job again"]
    assert len(again) == 1 and again[0].get("fieldValidation") == "Strict"


def test_live_run_with_a_script_runs_the_steps_on_both(plane: ControlPlane, tmp_path: Path) -> None:
    script = tmp_path / "script.yaml"
    script.write_text(
        yaml.safe_dump(
            [
                {"do": "settle"},
                {"do": "expect", "status": {"active": 1}},
                {"do": "setPods", "status": {"phase": "Failed"}},
                {"do": "settle"},
                {"do": "expect", "status": {"failed": 1, "active": 0}},
                {"do": "advance", "seconds": 11},
                {"do": "settle"},
                {"do": "expect", "status": {"failed": 1, "active": 1}},
                {"do": "setPods", "where": {"phase": "Pending"}, "status": {"phase": "Succeeded"}},
                {"do": "settle"},
                {"do": "expect", "conditionsInclude": [{"type": "Complete", "status": "True"}]},
            ]
        )
    )
    trace = tmp_path / "script.jsonl"
    proc = run_cli("live", "run", PI, "--kubeconfig", str(plane.kubeconfig), "--script", str(script), "--trace", str(trace), timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "DIFFERENCE" not in proc.stdout
    assert "Complete(CompletionsReached)" in proc.stdout
    failing = tmp_path / "wrong.yaml"
    failing.write_text(yaml.safe_dump([{"do": "settle"}, {"do": "expect", "status": {"active": 2}}]))
    proc = run_cli("live", "run", PI, "--kubeconfig", str(plane.kubeconfig), "--script", str(failing), "--trace", str(tmp_path / "w.jsonl"), timeout=300)
    assert proc.returncode == 1
    assert "DIFFERENCE: real cluster: steps[1] (expect).status" in proc.stdout
    assert "DIFFERENCE: model: steps[1].status.active: expected 2, got 1" in proc.stdout
