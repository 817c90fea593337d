"""jobmodel.adapters.controlplane: how the control plane is configured (the runs themselves:
tests/adapters/test_live.py and tests/commands/test_live_cluster.py)."""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from jobmodel.adapters.controlplane import (
    ControllerConfig,
    ControlPlane,
    ControlPlaneError,
    _die_with_parent,
    build_binaries,
    free_port,
    spawn_dying_with_us,
    write_credentials,
)
from jobmodel.errors import InputError


def test_gates_are_passed_sorted_and_only_when_given() -> None:
    assert ControllerConfig().gates_flag() == []
    config = ControllerConfig({"JobSuccessPolicy": False, "JobManagedBy": True})
    assert config.gates_flag() == ["--feature-gates=JobManagedBy=true,JobSuccessPolicy=false"]
    assert config == ControllerConfig({"JobManagedBy": True, "JobSuccessPolicy": False})  # order does not matter


def test_tunables_become_the_controller_managers_environment() -> None:
    config = ControllerConfig(tunables={"podFailureBackOffSeconds": 0.1, "maxUncountedPods": 10})
    assert config.environment() == {"JOBMODEL_POD_FAILURE_BACKOFF": "100ms", "JOBMODEL_MAX_UNCOUNTED_PODS": "10"}
    with pytest.raises(InputError, match=r"controller\.speed: unknown tunable"):
        ControllerConfig(tunables={"speed": 2}).environment()


def test_the_garbage_collector_runs_only_when_asked_for() -> None:
    assert "garbage-collector-controller" not in ControllerConfig().controllers()
    assert "garbage-collector-controller" in ControllerConfig(garbage_collector=True).controllers()
    assert "job-controller" in ControllerConfig().controllers()


def test_configuration_round_trips_through_json() -> None:
    config = ControllerConfig({"JobManagedBy": False}, {"maxPodCreateDeletePerSync": 10}, True)
    assert ControllerConfig.from_json(config.to_json()) == config


def test_credentials_are_private_and_the_certificate_names_loopback(tmp_path: Path) -> None:
    from cryptography import x509

    write_credentials(tmp_path / "pki")
    for key in ("ca.key", "apiserver.key", "sa.key"):
        assert (tmp_path / "pki" / key).stat().st_mode & 0o077 == 0
    cert = x509.load_pem_x509_certificate((tmp_path / "pki" / "apiserver.crt").read_bytes())
    names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert "127.0.0.1" in [str(ip) for ip in names.get_values_for_type(x509.IPAddress)]


def test_prepared_directory_has_two_users_and_loopback_ports(tmp_path: Path) -> None:
    plane = ControlPlane(tmp_path, tmp_path / "bin", ControllerConfig())
    plane._prepare()
    admin = yaml.safe_load(plane.kubeconfig.read_text())
    nobody = yaml.safe_load(plane.nobody_kubeconfig.read_text())
    assert admin["clusters"][0]["cluster"]["server"] == f"https://127.0.0.1:{plane.ports['kube-apiserver']}"
    assert admin["users"][0]["user"]["token"] != nobody["users"][0]["user"]["token"]
    tokens = (tmp_path / "tokens.csv").read_text()
    assert "system:masters" in tokens.splitlines()[0] and "system:masters" not in tokens.splitlines()[1]
    assert all(p > 0 for p in plane.ports.values()) and len(set(plane.ports.values())) == len(plane.ports)
    args, _ = plane._command("kube-apiserver")
    assert "--bind-address=127.0.0.1" in args and "--watch-cache=false" in args
    # The controller is not throttled on its side, as in upstream's Job integration tests.
    args, _ = plane._command("kube-controller-manager")
    assert "--kube-api-qps=10000" in args and "--kube-api-burst=10000" in args


def test_free_port_is_free() -> None:
    import socket

    port = free_port()
    with socket.socket() as s:
        s.bind(("127.0.0.1", port))


def test_a_started_child_is_judged_by_its_handle_not_its_command_line() -> None:
    import subprocess

    from jobmodel.adapters.controlplane import Component

    # Right after exec, /proc/PID/cmdline can read empty: a child must not count as exited then.
    proc = subprocess.Popen(["sleep", "30"])
    component = Component("etcd", "/nowhere/etcd", [], {}, proc.pid, proc)
    try:
        assert component.alive()
    finally:
        proc.kill()
        proc.wait()
    assert not component.alive()
    assert component.exit_code() == -9


def test_a_component_that_exits_while_starting_names_its_exit_code_and_log(tmp_path: Path) -> None:
    from jobmodel.adapters.controlplane import ControlPlaneError

    binaries = tmp_path / "bin"
    binaries.mkdir()
    etcd = binaries / "etcd"
    etcd.write_text("#!/bin/sh\necho 'etcdmain: bad flag' >&2\nexit 3\n")
    etcd.chmod(0o755)
    plane = ControlPlane(tmp_path, binaries, ControllerConfig())
    plane._prepare()
    with pytest.raises(ControlPlaneError, match=r"etcd exited with code 3 while starting(.|\n)*etcdmain: bad flag"):
        plane.start_component("etcd")


# An etcd that finds its port taken on its first start, and serves /health on the next.
FAKE_ETCD = """#!PYTHON
import http.server, pathlib, sys
port = int([a for a in sys.argv if a.startswith("--listen-client-urls=")][0].rsplit(":", 1)[1])
tries = pathlib.Path("tries")
tries.write_text(tries.read_text() + "x" if tries.exists() else "x")
if len(tries.read_text()) == 1:
    sys.stderr.write(f"listen tcp 127.0.0.1:{port}: bind: address already in use\\n")
    sys.exit(1)
class Health(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b'{"health":"true"}')
http.server.HTTPServer(("127.0.0.1", port), Health).serve_forever()
"""


def _fake_etcd(tmp_path: Path) -> Path:
    import sys

    binaries = tmp_path / "bin"
    binaries.mkdir()
    etcd = binaries / "etcd"
    etcd.write_text(FAKE_ETCD.replace("PYTHON", sys.executable))
    etcd.chmod(0o755)
    return binaries


def test_a_component_whose_port_was_taken_starts_again_on_another_port(tmp_path: Path) -> None:
    plane = ControlPlane(tmp_path, _fake_etcd(tmp_path), ControllerConfig())
    plane._prepare()
    first = plane.ports["etcd"]
    try:
        plane.start_component("etcd", movable=True)
        assert plane.healthy() == {"etcd": True}
        assert plane.ports["etcd"] != first and (tmp_path / "tries").read_text() == "xx"
    finally:
        plane.stop()


def test_a_component_others_depend_on_keeps_its_port_and_says_it_was_taken(tmp_path: Path) -> None:
    plane = ControlPlane(tmp_path, _fake_etcd(tmp_path), ControllerConfig())
    plane._prepare()
    first = plane.ports["etcd"]
    with pytest.raises(ControlPlaneError, match=r"etcd exited with code 1 while starting(.|\n)*address already in use"):
        plane.start_component("etcd")
    assert plane.ports["etcd"] == first


def test_ports_are_chosen_below_the_ephemeral_range() -> None:
    from jobmodel.adapters.controlplane import LOWEST_PORT, ephemeral_low

    assert all(LOWEST_PORT <= free_port() < ephemeral_low() for _ in range(20))


def _started_from_a_thread_that_ends(start: Callable[[], subprocess.Popen[bytes]]) -> subprocess.Popen[bytes]:
    children: list[subprocess.Popen[bytes]] = []
    thread = threading.Thread(target=lambda: children.append(start()))
    thread.start()
    thread.join()
    return children[0]


def _wait_exit(child: subprocess.Popen[bytes], seconds: float) -> int | None:
    with contextlib.suppress(subprocess.TimeoutExpired):
        return child.wait(timeout=seconds)
    return None


def test_a_child_forked_by_a_worker_thread_outlives_the_thread() -> None:
    """PR_SET_PDEATHSIG is about the forking thread: forked directly by a thread that then ends,
    the child is killed at once; through spawn_dying_with_us it lives on."""
    direct = _started_from_a_thread_that_ends(lambda: subprocess.Popen(["sleep", "30"], preexec_fn=_die_with_parent))
    spawned = _started_from_a_thread_that_ends(lambda: spawn_dying_with_us(["sleep", "30"]))
    try:
        assert _wait_exit(direct, 5) == -signal.SIGKILL
        assert _wait_exit(spawned, 0.5) is None
    finally:
        for child in (direct, spawned):
            child.kill()
            child.wait()


def test_the_release_a_plane_runs_is_saved_with_it(tmp_path: Path) -> None:
    """`jobmodel cluster up --kube-version 1.37` in one process, `live run` in another: the
    attached plane knows its release (a state saved before releases were chosen is of 1.32)."""
    plane = ControlPlane(tmp_path, tmp_path / "bin", ControllerConfig(), release="1.37")
    plane.ports = {"etcd": 1, "etcd-peer": 2, "kube-apiserver": 3, "kube-controller-manager": 4}
    plane._save_state()
    assert ControlPlane.attach(tmp_path).release == "1.37"
    state = json.loads((tmp_path / "state.json").read_text())
    del state["release"]
    (tmp_path / "state.json").write_text(json.dumps(state))
    assert ControlPlane.attach(tmp_path).release == "1.32"


def test_a_release_the_plane_is_not_built_for_is_refused_before_any_build() -> None:
    with pytest.raises(ControlPlaneError, match=r"built for Kubernetes 1\.32, 1\.33, 1\.34, 1\.35, 1\.36, 1\.37, not 1\.31"):
        build_binaries("1.31")
