"""`jobmodel cluster build|up|down|status` (jobmodel/commands/cluster.py) without a control plane:
its argument and state errors, what it prints for a directory with no plane or a stopped one, and
what `up` and `build` hand to the control plane and the build (both replaced by fakes here)."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest

from jobmodel.adapters import controlplane, gobuild
from jobmodel.adapters.controlplane import BUILD_SCRIPT, ControllerConfig, ControlPlane
from jobmodel.cli import main
from jobmodel.commands import progress
from jobmodel.commands.cluster import _directory, _print_up
from jobmodel.errors import InputError

SUPPORTED = "1.32, 1.33, 1.34, 1.35, 1.36, 1.37"  # README: the releases the model follows
NEWEST = "1.37"
# The gates Kubernetes 1.37 registers (jobmodel/features.py GATE_RELEASES), sorted.
GATES_137 = "JobManagedBy, MutablePodResourcesForSuspendedJobs, MutableSchedulingDirectivesForSuspendedJobs, StaleControllerConsistencyJob, WorkloadWithJob"


def _refuse(*args: object, **kwargs: object) -> Any:
    raise AssertionError("a test of `jobmodel cluster` tried to build or start a control plane")


@pytest.fixture(autouse=True)
def nothing_starts(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No Go build and no process: every way the command has to start one fails the test
    (main reports it as an internal error, exit 3); the default directory is under tmp_path."""
    monkeypatch.setattr(ControlPlane, "start", staticmethod(_refuse))
    monkeypatch.setattr(controlplane, "build_binaries", _refuse)
    monkeypatch.setattr(gobuild, "run_build_script", _refuse)
    monkeypatch.setattr(subprocess, "call", _refuse)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "runtime"))
    monkeypatch.setenv(progress.ENV, "0")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Exit code, standard output and standard error of `jobmodel ARGV` (no traceback in it)."""
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, err
    return code, out, err


def _usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The last line argparse prints for `jobmodel ARGV`, which must exit 2 with nothing on stdout."""
    capsys.readouterr()
    with pytest.raises(SystemExit) as caught:
        main(list(argv))
    out, err = capsys.readouterr()
    assert caught.value.code == 2
    assert out == "" and "Traceback" not in err
    return err.splitlines()[-1]


class FakePlane:
    """What `up` reads of a running or started plane."""

    def __init__(self, directory: Path, release: str = NEWEST, config: ControllerConfig | None = None) -> None:
        self.release = release
        self.config = config if config is not None else ControllerConfig()
        self.server = "https://127.0.0.1:6443"
        self.kubeconfig = directory / "admin.kubeconfig"


def _record_start(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Replace ControlPlane.start by a fake returning a FakePlane; the calls' arguments are listed."""
    calls: list[dict[str, Any]] = []

    def start(config: ControllerConfig, *, directory: Path, detached: bool, release: str) -> FakePlane:
        calls.append({"config": config, "directory": directory, "detached": detached, "release": release})
        return FakePlane(directory, release)

    monkeypatch.setattr(ControlPlane, "start", staticmethod(start))
    return calls


def _stopped_plane(directory: Path, release: str | None = "1.35") -> None:
    """The state a plane leaves whose one process (etcd) has stopped (PID 0: never signalled)."""
    directory.mkdir(parents=True)
    state: dict[str, Any] = {
        "binaries": "/nonexistent/bin",
        "ports": {"etcd": 2379, "etcd-peer": 2380, "kube-apiserver": 6443, "kube-controller-manager": 10257},
        "processes": {"etcd": {"pid": 0, "binary": "/nonexistent/bin/etcd"}},
    }
    if release is not None:
        state["release"] = release
    (directory / "state.json").write_text(json.dumps(state))


# --- malformed command lines (argparse) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "last_line"),
    [
        (["cluster"], "jobmodel cluster: error: the following arguments are required: ACTION"),
        (["cluster", "down", "--kube-version", "1.37"], "jobmodel: error: unrecognized arguments: --kube-version 1.37"),
        (["cluster", "status", "--feature-gates", "A=true"], "jobmodel: error: unrecognized arguments: --feature-gates A=true"),
        (["cluster", "build", "--dir", "/tmp/x"], "jobmodel: error: unrecognized arguments: --dir /tmp/x"),
        (["cluster", "up", "--garbage-collector=yes"], "jobmodel cluster up: error: argument --garbage-collector: ignored explicit argument 'yes'"),
    ],
)
def test_a_malformed_command_line_is_a_usage_error(capsys: pytest.CaptureFixture[str], argv: list[str], last_line: str) -> None:
    """A missing action, an option another action has, a value to a flag: exit 2 and argparse's line."""
    assert _usage_error(capsys, *argv) == last_line


@pytest.mark.parametrize(
    ("argv", "start"),
    [
        (["cluster", "restart"], "jobmodel cluster: error: argument ACTION: invalid choice: 'restart' "),
        (["cluster", "status", "-o", "yaml"], "jobmodel cluster status: error: argument -o/--output: invalid choice: 'yaml' "),
    ],
)
def test_an_unknown_choice_is_a_usage_error(capsys: pytest.CaptureFixture[str], argv: list[str], start: str) -> None:
    """An action or output format not offered: exit 2, naming the argument and the value (the
    list of choices after it is worded differently by different Pythons)."""
    assert _usage_error(capsys, *argv).startswith(start)


# --- releases and feature gates ----------------------------------------------------------------


@pytest.mark.parametrize("action", ["up", "build"])
@pytest.mark.parametrize("release", ["1.31", "1.38", "2.0", "latest"])
def test_an_unsupported_release_is_refused_before_anything_starts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, action: str, release: str
) -> None:
    """`--kube-version` outside 1.32..1.37: exit 2, one line naming the option, the value and the
    supported releases; no build, no plane (the fixture would make it exit 3), no directory."""
    directory = tmp_path / "plane"
    extra = ["--dir", str(directory)] if action == "up" else []
    code, out, err = _run(capsys, "cluster", action, "--kube-version", release, *extra)
    assert code == 2 and out == ""
    assert err == f"error: --kube-version: unsupported Kubernetes release {release!r} (supported: {SUPPORTED})\n"
    assert not directory.exists()


@pytest.mark.parametrize(
    ("gates", "line"),
    [
        ("JobManagedBy", 'error: --feature-gates: expected NAME=true or NAME=false, got "JobManagedBy"'),
        ("JobManagedBy=yes", 'error: --feature-gates: expected NAME=true or NAME=false, got "JobManagedBy=yes"'),
        ("NoSuchGate=true", f"error: --feature-gates.NoSuchGate: unrecognized feature gate in Kubernetes 1.37 (its gates: {GATES_137})"),
        ("JobManagedBy=false", "error: --feature-gates.JobManagedBy: cannot set feature gate JobManagedBy to false, feature is locked to true in Kubernetes 1.37 (GA)"),
        ("WorkloadWithJob=true", "error: --feature-gates.WorkloadWithJob: not modelled: Workload and PodGroup objects for gang scheduling are not modelled"),
    ],
)
def test_feature_gates_the_release_refuses_are_an_input_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, gates: str, line: str
) -> None:
    """Malformed, unknown, locked or unmodelled gates: exit 2 with the field and reason, nothing started."""
    directory = tmp_path / "plane"
    code, out, err = _run(capsys, "cluster", "up", "--dir", str(directory), "--feature-gates", gates)
    assert (code, out, err) == (2, "", line + "\n")
    assert not directory.exists()


def test_feature_gates_are_checked_against_the_release_asked_for(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """JobSuccessPolicy is a gate of 1.32 (removed in 1.37): a 1.32 plane may be started with it."""
    calls = _record_start(monkeypatch)
    code, _, err = _run(capsys, "cluster", "up", "--dir", str(tmp_path / "p"), "--kube-version", "1.32", "--feature-gates", "JobSuccessPolicy=true")
    assert code == 0, err
    assert calls[0]["release"] == "1.32" and calls[0]["config"].feature_gates == {"JobSuccessPolicy": True}


# --- no plane in the directory -----------------------------------------------------------------


def test_down_without_a_plane_says_so_and_succeeds(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Nothing to stop is not an error: exit 0, the directory named on stderr, nothing on stdout."""
    directory = tmp_path / "plane"
    assert _run(capsys, "cluster", "down", "--dir", str(directory)) == (0, "", f"no control plane in {directory}\n")


def test_down_leaves_a_directory_without_state_alone(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Only a directory with a state.json is a plane's: another directory given by mistake is not removed."""
    directory = tmp_path / "plane"
    directory.mkdir()
    (directory / "keep.txt").write_text("mine")
    code, _, err = _run(capsys, "cluster", "down", "--dir", str(directory))
    assert (code, err) == (0, f"no control plane in {directory}\n")
    assert (directory / "keep.txt").read_text() == "mine"


def test_down_without_a_plane_as_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`-o json`: a ClusterDown document stopping nothing (docs/output.md)."""
    directory = tmp_path / "plane"
    code, out, _ = _run(capsys, "cluster", "down", "--dir", str(directory), "-o", "json")
    assert code == 0
    assert json.loads(out) == {"schema": "jobmodel/v1", "kind": "ClusterDown", "directory": str(directory), "stopped": []}


def test_status_without_a_plane_is_exit_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """No plane is a finding for `status` (exit 1), said on stdout with how to start one."""
    directory = tmp_path / "plane"
    code, out, err = _run(capsys, "cluster", "status", "--dir", str(directory))
    assert (code, out, err) == (1, f"no control plane in {directory} (start one with: jobmodel cluster up)\n", "")


def test_status_without_a_plane_as_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`-o json`: ClusterStatus with running false and no components, still exit 1."""
    directory = tmp_path / "plane"
    code, out, _ = _run(capsys, "cluster", "status", "--dir", str(directory), "-o", "json")
    assert code == 1
    assert json.loads(out) == {"schema": "jobmodel/v1", "kind": "ClusterStatus", "directory": str(directory), "running": False, "components": []}


def test_without_dir_the_plane_is_looked_for_under_xdg_runtime_dir(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The default directory is $XDG_RUNTIME_DIR/jobmodel-cluster-<uid> (set by the fixture)."""
    expected = tmp_path / "runtime" / f"jobmodel-cluster-{os.getuid()}"
    assert _run(capsys, "cluster", "down") == (0, "", f"no control plane in {expected}\n")


@pytest.mark.parametrize("action", ["down", "status"])
def test_an_unreadable_state_file_is_an_input_error(capsys: pytest.CaptureFixture[str], tmp_path: Path, action: str) -> None:
    """A state.json that is not JSON: exit 2, one line on the control plane naming the directory and why."""
    directory = tmp_path / "plane"
    directory.mkdir()
    (directory / "state.json").write_text("")
    code, out, err = _run(capsys, "cluster", action, "--dir", str(directory))
    assert (code, out) == (2, "")
    reason = f"no control plane in {directory}: Expecting value: line 1 column 1 (char 0)"
    if action == "down":  # what to do about it, since the tool cannot know the processes
        reason += f"; stop what it started (etcd, kube-apiserver, kube-controller-manager) and remove {directory} by hand"
    assert err == f"error: control plane: {reason}\n"
    assert (directory / "state.json").exists()


def test_a_state_file_missing_its_fields_is_an_input_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A state.json of valid JSON lacking the plane's fields is bad state (exit 2), not a defect (exit 3)."""
    directory = tmp_path / "plane"
    directory.mkdir()
    (directory / "state.json").write_text("{}")
    code, out, err = _run(capsys, "cluster", "down", "--dir", str(directory))
    assert (code, out) == (2, "")
    assert err.startswith(f"error: control plane: no control plane in {directory}: its state.json is malformed (no 'binaries'); ")


def test_a_state_file_without_a_components_port_is_an_input_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`status` reads every component's port: a state.json without one is bad state (exit 2) naming it."""
    directory = tmp_path / "plane"
    _stopped_plane(directory)
    state = json.loads((directory / "state.json").read_text())
    state["ports"] = {}
    (directory / "state.json").write_text(json.dumps(state))
    code, _, err = _run(capsys, "cluster", "status", "--dir", str(directory))
    assert code == 2
    assert err.endswith("its state.json is malformed (no 'ports.etcd')\n")


@pytest.mark.parametrize(
    ("release", "gates", "field_reason"),
    [
        ("1.34", "JobManagedBy=false", None),  # locked only from 1.35
        ("1.35", "JobManagedBy=false", "locked"),
        ("1.32", "StaleControllerConsistencyJob=false", "unrecognized"),  # a gate from 1.36 on
    ],
)
def test_each_release_has_its_own_gates_and_locks(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, release: str, gates: str, field_reason: str | None
) -> None:
    """`up --kube-version R --feature-gates G` accepts what release R accepts and refuses the rest."""
    calls = _record_start(monkeypatch)
    code, _, err = _run(capsys, "cluster", "up", "--dir", str(tmp_path / "p"), "--kube-version", release, "--feature-gates", gates)
    if field_reason is None:
        assert code == 0, err
        assert calls[0]["release"] == release
    else:
        assert code == 2 and calls == []
        assert err.startswith("error: --feature-gates.") and field_reason in err
        assert f"Kubernetes {release}" in err


# --- a plane whose processes have stopped ------------------------------------------------------


def test_status_of_a_stopped_plane(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Each process with its PID and state, then server, release and kubeconfig; unhealthy is exit 1."""
    directory = tmp_path / "plane"
    _stopped_plane(directory)
    code, out, err = _run(capsys, "cluster", "status", "--dir", str(directory))
    assert (code, err) == (1, "")
    assert out.splitlines() == [
        "etcd".ljust(24) + " pid " + "0".ljust(8) + " stopped",
        "server      https://127.0.0.1:6443",
        "release     Kubernetes 1.35",
        f"kubeconfig  {directory / 'admin.kubeconfig'}",
    ]


def test_status_of_a_plane_saved_without_a_release_says_1_32(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """State saved before the release was recorded is of 1.32 (controlplane.UNRECORDED_RELEASE)."""
    directory = tmp_path / "plane"
    _stopped_plane(directory, release=None)
    code, out, _ = _run(capsys, "cluster", "status", "--dir", str(directory))
    assert code == 1 and "release     Kubernetes 1.32\n" in out


def test_status_of_a_stopped_plane_as_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """ClusterStatus with every field docs/output.md lists; healthy false and exit 1."""
    directory = tmp_path / "plane"
    _stopped_plane(directory)
    code, out, _ = _run(capsys, "cluster", "status", "--dir", str(directory), "-o", "json")
    assert code == 1
    assert json.loads(out) == {
        "schema": "jobmodel/v1",
        "kind": "ClusterStatus",
        "directory": str(directory),
        "running": False,  # no process of it is alive
        "healthy": False,
        "server": "https://127.0.0.1:6443",
        "kubeconfig": str(directory / "admin.kubeconfig"),
        "kubeVersion": "1.35",
        "components": [{"name": "etcd", "pid": 0, "healthy": False, "alive": False}],
    }


@pytest.mark.parametrize("as_json", [False, True])
def test_down_removes_a_stopped_planes_directory(capsys: pytest.CaptureFixture[str], tmp_path: Path, as_json: bool) -> None:
    """`down` names the components and the directory, and the directory is gone."""
    directory = tmp_path / "plane"
    _stopped_plane(directory)
    code, out, err = _run(capsys, "cluster", "down", "--dir", str(directory), *(["-o", "json"] if as_json else []))
    assert code == 0
    assert err == f"stopped etcd and removed {directory}\n"
    assert not directory.exists()
    if as_json:
        assert json.loads(out) == {"schema": "jobmodel/v1", "kind": "ClusterDown", "directory": str(directory), "stopped": ["etcd"]}
    else:
        assert out == ""


# --- up -----------------------------------------------------------------------------------------


def test_up_refuses_when_a_plane_of_another_release_runs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A running 1.37 plane and `up --kube-version 1.34`: exit 2 on --kube-version, saying what to do."""
    directory = tmp_path / "plane"
    monkeypatch.setattr(controlplane, "running_plane", lambda d: FakePlane(d, "1.37"))
    code, out, err = _run(capsys, "cluster", "up", "--dir", str(directory), "--kube-version", "1.34")
    assert (code, out) == (2, "")
    assert err == f"error: --kube-version: a control plane of Kubernetes 1.37 is running in {directory}: stop it with `jobmodel cluster down` first\n"


@pytest.mark.parametrize("as_json", [False, True])
def test_up_when_the_same_release_runs_prints_its_kubeconfig(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, as_json: bool
) -> None:
    """A plane of the release asked for already runs: exit 0, said on stderr, nothing started."""
    directory = tmp_path / "plane"
    monkeypatch.setattr(controlplane, "running_plane", lambda d: FakePlane(d, NEWEST))
    code, out, err = _run(capsys, "cluster", "up", "--dir", str(directory), *(["-o", "json"] if as_json else []))
    assert (code, err) == (0, "already running at https://127.0.0.1:6443\n")
    kubeconfig = str(directory / "admin.kubeconfig")
    if as_json:
        assert json.loads(out) == {"schema": "jobmodel/v1", "kind": "ClusterUp", "server": "https://127.0.0.1:6443", "kubeconfig": kubeconfig, "alreadyRunning": True}
    else:
        assert out == kubeconfig + "\n"


def test_up_starts_a_detached_plane_with_the_options_given(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Gates, garbage collector and release (`v1.36` is 1.36) reach ControlPlane.start, detached, in --dir."""
    calls = _record_start(monkeypatch)
    directory = tmp_path / "plane"
    code, out, err = _run(
        capsys, "cluster", "up", "--dir", str(directory), "--kube-version", "v1.36",
        "--feature-gates", "MutablePodResourcesForSuspendedJobs=false", "--garbage-collector", "-o", "json",
    )  # fmt: skip
    assert code == 0, err
    assert calls == [
        {
            "config": ControllerConfig({"MutablePodResourcesForSuspendedJobs": False}, {}, True),
            "directory": directory,
            "detached": True,
            "release": "1.36",
        }
    ]
    assert err == "control plane https://127.0.0.1:6443 is up; stop it with: jobmodel cluster down\n"
    assert json.loads(out)["alreadyRunning"] is False


def test_up_removes_a_stale_plane_before_starting(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A saved plane that no longer runs is removed (its directory with it) before the new one
    starts; with no options the plane is the newest release, default gates, no garbage collector."""
    directory = tmp_path / "plane"
    _stopped_plane(directory)
    seen: list[bool] = []
    calls = _record_start(monkeypatch)
    recorded_start = ControlPlane.start

    def start(config: ControllerConfig, **kwargs: Any) -> Any:
        seen.append(directory.exists())
        return recorded_start(config, **kwargs)

    monkeypatch.setattr(ControlPlane, "start", staticmethod(start))
    code, out, err = _run(capsys, "cluster", "up", "--dir", str(directory))
    assert code == 0, err
    assert seen == [False]
    assert calls == [{"config": ControllerConfig({}, {}, False), "directory": directory, "detached": True, "release": NEWEST}]
    assert out == f"{directory / 'admin.kubeconfig'}\n"


# --- build --------------------------------------------------------------------------------------


def _record_build(monkeypatch: pytest.MonkeyPatch, result: Path) -> list[tuple[Any, ...]]:
    calls: list[tuple[Any, ...]] = []

    def run_build_script(*args: Any) -> Path:
        calls.append(args)
        return result

    monkeypatch.setattr(gobuild, "run_build_script", run_build_script)
    return calls


@pytest.mark.parametrize("as_json", [False, True])
def test_build_runs_the_control_plane_build_for_the_release(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, as_json: bool
) -> None:
    """The harness script is run for the release (on the `cluster build` option) and its path printed."""
    calls = _record_build(monkeypatch, Path("/cache/cp/1.33"))
    code, out, _ = _run(capsys, "cluster", "build", "--kube-version", "1.33", *(["-o", "json"] if as_json else []))
    assert code == 0
    [(script, what, option, _on_line, args)] = calls
    assert (script, what, option, args) == (BUILD_SCRIPT, "the control plane of Kubernetes 1.33", "cluster build", ["--kube-version", "1.33"])
    if as_json:
        assert json.loads(out) == {"schema": "jobmodel/v1", "kind": "ClusterBuild", "directory": "/cache/cp/1.33"}
    else:
        assert out == "/cache/cp/1.33\n"


def test_a_failed_build_is_an_input_error(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The build's InputError (no Go, a compile error) is exit 2 with its field and reason, no traceback."""

    def failing(*args: Any) -> Path:
        raise InputError("cluster build", "cannot build the control plane of Kubernetes 1.37: `go` is not on PATH (Go 1.23 or newer is needed)")

    monkeypatch.setattr(gobuild, "run_build_script", failing)
    code, out, err = _run(capsys, "cluster", "build")
    assert (code, out) == (2, "")
    assert err == "error: cluster build: cannot build the control plane of Kubernetes 1.37: `go` is not on PATH (Go 1.23 or newer is needed)\n"


def test_build_force_rebuilds_through_the_same_build_route(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """`--force` passes `--force` to the build script, through the same route as a plain build
    (Go checked, progress shown, the directory printed, -o json honoured)."""
    calls = _record_build(monkeypatch, Path("/cache/cp/1.32"))
    code, out, _ = _run(capsys, "cluster", "build", "--force", "--kube-version", "1.32", "-o", "json")
    assert code == 0
    [(script, _what, option, _on_line, args)] = calls
    assert (script, option, args) == (BUILD_SCRIPT, "cluster build", ["--kube-version", "1.32", "--force"])
    assert json.loads(out) == {"schema": "jobmodel/v1", "kind": "ClusterBuild", "directory": "/cache/cp/1.32"}


def test_up_refuses_other_options_than_the_running_planes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plane of the release runs with other gates: `up` says so instead of ignoring the options."""
    directory = tmp_path / "plane"
    monkeypatch.setattr(controlplane, "running_plane", lambda d: FakePlane(d, NEWEST))
    code, out, err = _run(capsys, "cluster", "up", "--dir", str(directory), "--feature-gates", "JobManagedBy=true")
    assert (code, out) == (2, "")
    assert err == (
        f"error: --feature-gates: the control plane running in {directory} was started with other options: "
        "stop it with `jobmodel cluster down` first\n"
    )
    code, _, err = _run(capsys, "cluster", "up", "--dir", str(directory), "--garbage-collector")
    assert code == 2 and err.startswith("error: --garbage-collector: ")


def test_up_checks_its_options_before_touching_a_stale_plane(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refused `--feature-gates` leaves a stopped plane's directory where it is."""
    calls = _record_start(monkeypatch)
    directory = tmp_path / "plane"
    _stopped_plane(directory)
    code, _, err = _run(capsys, "cluster", "up", "--dir", str(directory), "--feature-gates", "Nope=true")
    assert code == 2 and err.startswith("error: --feature-gates.Nope: unrecognized feature gate")
    assert (directory / "state.json").is_file() and calls == []


# --- helpers ------------------------------------------------------------------------------------


def test_directory_is_dir_when_given() -> None:
    """`--dir` wins over the default, and a string is taken as a path."""
    assert _directory(argparse.Namespace(dir="/srv/planes/a")) == Path("/srv/planes/a")


def test_directory_defaults_to_one_per_user_under_the_runtime_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No `--dir`: jobmodel-cluster-<uid> under $XDG_RUNTIME_DIR."""
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    assert _directory(argparse.Namespace(dir=None)) == tmp_path / f"jobmodel-cluster-{os.getuid()}"


def test_directory_falls_back_to_the_temporary_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """An empty $XDG_RUNTIME_DIR counts as unset: the system's temporary directory is used."""
    monkeypatch.setenv("XDG_RUNTIME_DIR", "")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert _directory(argparse.Namespace(dir=None)) == tmp_path / f"jobmodel-cluster-{os.getuid()}"


def test_print_up_text_is_the_kubeconfig_path_alone(capsys: pytest.CaptureFixture[str]) -> None:
    """Text output is only the path, so that `export KUBECONFIG=$(jobmodel cluster up)` works."""
    _print_up(argparse.Namespace(output="text"), "https://127.0.0.1:1", Path("/p/admin.kubeconfig"), already_running=True)
    assert capsys.readouterr() == ("/p/admin.kubeconfig\n", "")


def test_print_up_json_is_a_cluster_up_document(capsys: pytest.CaptureFixture[str]) -> None:
    """`-o json`: ClusterUp with server, kubeconfig and alreadyRunning (docs/output.md)."""
    _print_up(argparse.Namespace(output="json"), "https://127.0.0.1:1", Path("/p/admin.kubeconfig"), already_running=False)
    assert json.loads(capsys.readouterr().out) == {
        "schema": "jobmodel/v1",
        "kind": "ClusterUp",
        "server": "https://127.0.0.1:1",
        "kubeconfig": "/p/admin.kubeconfig",
        "alreadyRunning": False,
    }
