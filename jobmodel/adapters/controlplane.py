"""The local control plane: etcd, kube-apiserver and kube-controller-manager on 127.0.0.1.

The binaries are built by `harness/controlplane/build.py` (cached by a digest of their pins);
this module runs them. Everything lives in one directory made for the purpose (mode 0700):
generated credentials (a CA, the API server's serving certificate for 127.0.0.1, a
service-account key pair, a token file with an admin in `system:masters` and a user without any
permission), the kubeconfigs, etcd's data, the logs, and `state.json` with the processes' PIDs,
so that another process (`jobmodel cluster down`) can stop them by PID.

The choices, and why:
- etcd with `--unsafe-no-fsync`: a throw-away store, and fsync is most of etcd's latency.
- kube-apiserver with `--watch-cache=false` and `--etcd-compaction-interval=0`: watches are
  served from etcd's history, which is never compacted while the control plane runs, so a watch
  that reconnects after an API server restart resumes from its last resourceVersion and loses
  nothing (with the watch cache, a restarted server answers 410 Gone to any older version).
- kube-controller-manager runs only the controllers a Job's life involves (the Job and CronJob
  controllers, the service-account controllers without which no pod can be created, the
  namespace controller for clean-up, and the garbage collector when asked for), with leader
  election off. There is no scheduler and no kubelet: the client plays them (jobmodel.adapters.live).
"""

from __future__ import annotations

import contextlib
import ctypes
import datetime as dt
import json
import os
import secrets
import signal
import socket
import ssl
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, Any

import attrs
import yaml

from jobmodel.adapters.gobuild import HARNESS_ROOT, run_build_script
from jobmodel.errors import InputError
from jobmodel.features import NEWEST_RELEASE, SUPPORTED_MINORS

BUILD_SCRIPT = HARNESS_ROOT / "controlplane" / "build.py"
COMPONENTS = ("etcd", "kube-apiserver", "kube-controller-manager")
# The releases harness/controlplane builds (go.mod; releases/<pin>.mod): every supported one; and
# the one a control plane runs unless asked for another, the newest, as for the model, which runs
# beside a plane at the plane's release.
CONTROL_PLANE_RELEASES = tuple(f"1.{minor}" for minor in SUPPORTED_MINORS)
CONTROL_PLANE_RELEASE = NEWEST_RELEASE
# What planes saved and traces written before the release was recorded ran.
UNRECORDED_RELEASE = "1.32"
BASE_CONTROLLERS = (
    "job-controller",
    "cronjob-controller",
    "serviceaccount-controller",
    "serviceaccount-token-controller",
    "namespace-controller",
)
GARBAGE_COLLECTOR = "garbage-collector-controller"
ADMIN_USER = "jobmodel-admin"
NOBODY_USER = "jobmodel-nobody"
READY_TIMEOUT = 90.0
STOP_TIMEOUT = 10.0
# kube-controller-manager reads these (harness/controlplane/cmd/kube-controller-manager): the
# Job controller tunables upstream's integration tests set.
TUNABLE_ENV = {
    "podFailureBackOffSeconds": "JOBMODEL_POD_FAILURE_BACKOFF",
    "maxPodFailureBackOffSeconds": "JOBMODEL_MAX_POD_FAILURE_BACKOFF",
    "maxUncountedPods": "JOBMODEL_MAX_UNCOUNTED_PODS",
    "maxPodCreateDeletePerSync": "JOBMODEL_MAX_POD_CREATE_DELETE_PER_SYNC",
}
DURATION_TUNABLES = frozenset({"podFailureBackOffSeconds", "maxPodFailureBackOffSeconds"})


class ControlPlaneError(InputError):
    """The control plane could not be built, started or reached; the message says which part."""

    def __init__(self, reason: str) -> None:
        super().__init__("control plane", reason)


def build_binaries(release: str = CONTROL_PLANE_RELEASE) -> Path:
    """The directory of the release's three binaries, built (or found in the cache) first."""
    if release not in CONTROL_PLANE_RELEASES:
        raise ControlPlaneError(f"the local control plane is built for Kubernetes {', '.join(CONTROL_PLANE_RELEASES)}, not {release}")
    try:
        return run_build_script(BUILD_SCRIPT, f"the control plane of Kubernetes {release}", "control plane", args=["--kube-version", release])
    except InputError as err:
        raise ControlPlaneError(err.reason) from None


def _sorted(mapping: Mapping[str, Any]) -> dict[str, Any]:
    return dict(sorted(mapping.items()))


@attrs.frozen
class ControllerConfig:
    """How kube-apiserver and kube-controller-manager are started: feature gates (name -> value,
    only those given are passed), the Job controller tunables (FORMAT.md `controller` keys) and
    whether the garbage collector runs."""

    feature_gates: Mapping[str, bool] = attrs.field(factory=dict, converter=_sorted)
    tunables: Mapping[str, float] = attrs.field(factory=dict, converter=_sorted)
    garbage_collector: bool = False

    def gates_flag(self) -> list[str]:
        if not self.feature_gates:
            return []
        value = ",".join(f"{k}={'true' if v else 'false'}" for k, v in self.feature_gates.items())
        return [f"--feature-gates={value}"]

    def controllers(self) -> str:
        names = [*BASE_CONTROLLERS, *([GARBAGE_COLLECTOR] if self.garbage_collector else [])]
        return ",".join(names)

    def environment(self) -> dict[str, str]:
        env: dict[str, str] = {}
        for key, value in self.tunables.items():
            if key not in TUNABLE_ENV:
                raise InputError(f"controller.{key}", f"unknown tunable (known: {', '.join(TUNABLE_ENV)})")
            if key in DURATION_TUNABLES:
                env[TUNABLE_ENV[key]] = f"{round(float(value) * 1000)}ms"
            else:
                env[TUNABLE_ENV[key]] = str(int(value))
        return env

    def to_json(self) -> dict[str, Any]:
        return {
            "featureGates": dict(self.feature_gates),
            "tunables": dict(self.tunables),
            "garbageCollector": self.garbage_collector,
        }

    @staticmethod
    def from_json(value: Mapping[str, Any]) -> ControllerConfig:
        return ControllerConfig(
            value.get("featureGates") or {}, value.get("tunables") or {}, bool(value.get("garbageCollector"))
        )


# --- credentials ---------------------------------------------------------------------------------


def write_credentials(pki: Path) -> None:
    """A CA, a serving certificate for 127.0.0.1/localhost signed by it, and a service-account
    key pair (ECDSA P-256), written as PEM files under `pki` (private keys mode 0600)."""
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    pki.mkdir(mode=0o700, parents=True, exist_ok=True)
    now = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=5)
    later = now + dt.timedelta(days=30)

    def key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
        return key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )

    def write(name: str, data: bytes, private: bool = False) -> None:
        path = pki / name
        path.write_bytes(data)
        path.chmod(0o600 if private else 0o644)

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "jobmodel-ca")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now)
        .not_valid_after(later)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    server_key = ec.generate_private_key(ec.SECP256R1())
    server = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "kube-apiserver")]))
        .issuer_name(ca_name)
        .public_key(server_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now)
        .not_valid_after(later)
        .add_extension(
            x509.SubjectAlternativeName(
                [
                    x509.DNSName("localhost"),
                    x509.DNSName("kubernetes.default.svc"),
                    x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                ]
            ),
            critical=False,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    sa_key = ec.generate_private_key(ec.SECP256R1())
    write("ca.crt", ca.public_bytes(serialization.Encoding.PEM))
    write("ca.key", key_pem(ca_key), private=True)
    write("apiserver.crt", server.public_bytes(serialization.Encoding.PEM))
    write("apiserver.key", key_pem(server_key), private=True)
    write("sa.key", key_pem(sa_key), private=True)
    write(
        "sa.pub",
        sa_key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo),
    )


def kubeconfig(server: str, ca_file: Path, user: str, token: str) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": "jobmodel", "cluster": {"server": server, "certificate-authority": str(ca_file)}}],
        "users": [{"name": user, "user": {"token": token}}],
        "contexts": [{"name": "jobmodel", "context": {"cluster": "jobmodel", "user": user}}],
        "current-context": "jobmodel",
    }


# Ports are chosen from here, below the kernel's ephemeral range where it leaves room: the
# kernel gives ports of that range to every outgoing connection (and to bind(0)), so a port
# chosen there may be taken by a connection in the seconds before the component binds it.
LOWEST_PORT = 10000
EPHEMERAL_RANGE = Path("/proc/sys/net/ipv4/ip_local_port_range")
# A component whose port was taken after all starts again on another port, this many times.
BIND_ATTEMPTS = 3
ADDRESS_IN_USE = "address already in use"


def ephemeral_low() -> int:
    """The first port of the kernel's ephemeral range (32768 where it cannot be read)."""
    try:
        return int(EPHEMERAL_RANGE.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_port() -> int:
    """A loopback TCP port that nothing holds now, outside the ephemeral range when possible."""
    low = ephemeral_low()
    for _ in range(100 if low > LOWEST_PORT + 1000 else 0):
        candidate = LOWEST_PORT + secrets.randbelow(low - LOWEST_PORT)
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("127.0.0.1", candidate))
            except OSError:
                continue
            return candidate
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


# --- processes -----------------------------------------------------------------------------------


def _die_with_parent() -> None:
    """Runs in the child before exec: SIGKILL it when the process that started it dies (Linux).
    Not SIGTERM: a kube-apiserver left to its graceful shutdown outlived its killed run by over
    30 s once in CI (likely waiting on its etcd, going down too), and a killed run's plane holds
    nothing worth a graceful stop."""
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


_SPAWNER: ThreadPoolExecutor | None = None
_SPAWNER_LOCK = threading.Lock()


def spawn_dying_with_us(argv: list[str], **popen: Any) -> subprocess.Popen[bytes]:
    """Popen a child that is killed when this process dies. PR_SET_PDEATHSIG fires when the
    *thread* that forked the child ends, so every such child is forked by one thread that lives as
    long as the process: a component (re)started from a short-lived worker thread would otherwise
    die when that thread does."""
    global _SPAWNER
    with _SPAWNER_LOCK:
        if _SPAWNER is None:
            _SPAWNER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="jobmodel-spawner")
        spawner = _SPAWNER

    def fork() -> subprocess.Popen[bytes]:
        return subprocess.Popen(argv, preexec_fn=_die_with_parent, **popen)

    return spawner.submit(fork).result()


def pid_alive(pid: int, binary: str) -> bool:
    """The PID is a live process running `binary` (not a reused PID, not a zombie)."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode()
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return cmdline == binary and state != "Z"


def stop_pid(pid: int, binary: str, timeout: float = STOP_TIMEOUT, sig: int = signal.SIGTERM) -> None:
    """Stop one process by PID: `sig`, then SIGKILL after `timeout` seconds."""
    if not pid_alive(pid, binary):
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, sig)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        _reap(pid)
        if not pid_alive(pid, binary):
            return
        time.sleep(0.05)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    while pid_alive(pid, binary):
        _reap(pid)
        time.sleep(0.05)


def _reap(pid: int) -> None:
    with contextlib.suppress(ChildProcessError, OSError):
        os.waitpid(pid, os.WNOHANG)


@attrs.define
class Component:
    """One running binary: its PID, command line and log."""

    name: str
    binary: str
    args: list[str]
    env: dict[str, str]
    pid: int = 0
    proc: subprocess.Popen[bytes] | None = None

    def alive(self) -> bool:
        """A child of this process is judged by its handle: for a moment after exec, while the
        kernel is still setting up the new image, /proc/PID/cmdline reads empty."""
        if self.pid == 0:
            return False
        if self.proc is not None and self.proc.pid == self.pid:
            return self.proc.poll() is None
        return pid_alive(self.pid, self.binary)

    def exit_code(self) -> int | None:
        return self.proc.returncode if self.proc is not None and self.proc.pid == self.pid else None


class ControlPlane:
    """The three processes and their directory. Use `start()`/`stop()`, or `with ControlPlane.start(...)`.

    `detached` processes outlive this Python process (for `jobmodel cluster up`); otherwise each
    is stopped when it exits, even by a signal (PR_SET_PDEATHSIG), and `stop()` runs at exit.
    """

    def __init__(
        self, directory: Path, binaries: Path, config: ControllerConfig, *, detached: bool = False, release: str = CONTROL_PLANE_RELEASE
    ) -> None:
        self.dir = directory
        self.binaries = binaries
        self.config = config
        self.detached = detached
        self.release = release  # the Kubernetes release its binaries are built from
        self.components: dict[str, Component] = {}
        self.ports: dict[str, int] = {}
        self.admin_token = ""
        self.nobody_token = ""

    # files
    @property
    def kubeconfig(self) -> Path:
        return self.dir / "admin.kubeconfig"

    @property
    def nobody_kubeconfig(self) -> Path:
        """A kubeconfig whose user authenticates but has no permission at all."""
        return self.dir / "nobody.kubeconfig"

    @property
    def server(self) -> str:
        return f"https://127.0.0.1:{self.ports['kube-apiserver']}"

    def log(self, name: str) -> Path:
        return self.dir / "logs" / f"{name}.log"

    # life cycle
    @classmethod
    def start(
        cls,
        config: ControllerConfig | None = None,
        *,
        directory: Path | None = None,
        binaries: Path | None = None,
        detached: bool = False,
        release: str = CONTROL_PLANE_RELEASE,
    ) -> ControlPlane:
        """Build (or find) the release's binaries, make the directory and credentials, start and wait."""
        binaries = binaries or build_binaries(release)
        if directory is None:
            directory = Path(tempfile.mkdtemp(prefix="jobmodel-cluster-"))
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        plane = cls(directory, binaries, config or ControllerConfig(), detached=detached, release=release)
        try:
            plane._prepare()
            for name in COMPONENTS:
                # Nothing depends on the ports yet: a component whose port was taken moves.
                plane.start_component(name, movable=True)
        except BaseException:
            plane.stop()
            raise
        if not detached:
            import atexit

            atexit.register(plane.stop)
        return plane

    def _prepare(self) -> None:
        (self.dir / "logs").mkdir(exist_ok=True)
        write_credentials(self.dir / "pki")
        self.admin_token = secrets.token_hex(24)
        nobody_token = secrets.token_hex(24)
        tokens = self.dir / "tokens.csv"
        tokens.write_text(
            f'{self.admin_token},{ADMIN_USER},{ADMIN_USER},"system:masters"\n{nobody_token},{NOBODY_USER},{NOBODY_USER}\n'
        )
        tokens.chmod(0o600)
        self.nobody_token = nobody_token
        self.ports = {"etcd": free_port(), "etcd-peer": free_port(), "kube-apiserver": free_port(), "kube-controller-manager": free_port()}
        self._write_kubeconfigs()

    def _write_kubeconfigs(self) -> None:
        ca = self.dir / "pki" / "ca.crt"
        for path, user, token in (
            (self.kubeconfig, ADMIN_USER, self.admin_token),
            (self.nobody_kubeconfig, NOBODY_USER, self.nobody_token),
        ):
            path.write_text(yaml.safe_dump(kubeconfig(self.server, ca, user, token), sort_keys=False))
            path.chmod(0o600)

    def _move(self, name: str) -> None:
        """New ports for a component whose port another process took (etcd: both of its own)."""
        for port in (name, "etcd-peer") if name == "etcd" else (name,):
            self.ports[port] = free_port()
        if name == "kube-apiserver":
            self._write_kubeconfigs()

    def _command(self, name: str) -> tuple[list[str], dict[str, str]]:
        pki = self.dir / "pki"
        p = self.ports
        if name == "etcd":
            client, peer = f"http://127.0.0.1:{p['etcd']}", f"http://127.0.0.1:{p['etcd-peer']}"
            return [
                "--name=jobmodel",
                f"--data-dir={self.dir / 'etcd-data'}",
                f"--listen-client-urls={client}",
                f"--advertise-client-urls={client}",
                f"--listen-peer-urls={peer}",
                f"--initial-advertise-peer-urls={peer}",
                f"--initial-cluster=jobmodel={peer}",
                "--unsafe-no-fsync",
                "--log-level=warn",
            ], {}
        if name == "kube-apiserver":
            return [
                f"--etcd-servers=http://127.0.0.1:{p['etcd']}",
                "--bind-address=127.0.0.1",
                "--advertise-address=127.0.0.1",
                f"--secure-port={p['kube-apiserver']}",
                f"--tls-cert-file={pki / 'apiserver.crt'}",
                f"--tls-private-key-file={pki / 'apiserver.key'}",
                f"--client-ca-file={pki / 'ca.crt'}",
                f"--token-auth-file={self.dir / 'tokens.csv'}",
                "--authorization-mode=RBAC",
                "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
                f"--service-account-key-file={pki / 'sa.pub'}",
                f"--service-account-signing-key-file={pki / 'sa.key'}",
                "--service-cluster-ip-range=10.0.0.0/24",
                "--endpoint-reconciler-type=none",
                "--watch-cache=false",
                "--etcd-compaction-interval=0",
                "--profiling=false",
                *self.config.gates_flag(),
            ], {}
        if name == "kube-controller-manager":
            return [
                f"--kubeconfig={self.kubeconfig}",
                f"--authentication-kubeconfig={self.kubeconfig}",
                f"--authorization-kubeconfig={self.kubeconfig}",
                "--bind-address=127.0.0.1",
                f"--secure-port={p['kube-controller-manager']}",
                f"--controllers={self.config.controllers()}",
                f"--service-account-private-key-file={pki / 'sa.key'}",
                f"--root-ca-file={pki / 'ca.crt'}",
                "--leader-elect=false",
                "--profiling=false",
                # No client-side throttling, as upstream's Job integration tests configure their
                # controller (test/integration/job/job_test.go restConfigQPS, restConfigBurst):
                # at the default 20 requests/s a 100-pod Job waits seconds between requests, and
                # a settle's quiet spell would end in the middle of a sync.
                "--kube-api-qps=10000",
                "--kube-api-burst=10000",
                *self.config.gates_flag(),
            ], self.config.environment()
        raise ValueError(name)

    def start_component(self, name: str, *, movable: bool = False) -> None:
        """Start one component (again) and wait until it is ready. When another process took its
        port, it starts again on another one if it is `movable` (nothing depends on its port yet)
        or kube-controller-manager (whose port only its health check uses)."""
        for attempt in range(1, BIND_ATTEMPTS + 1):
            try:
                self._start_component_once(name)
                return
            except ControlPlaneError as err:
                if ADDRESS_IN_USE not in str(err) or attempt == BIND_ATTEMPTS or not (movable or name == "kube-controller-manager"):
                    raise
                self.stop_component(name)
                self._move(name)

    def _start_component_once(self, name: str) -> None:
        args, extra_env = self._command(name)
        binary = str(self.binaries / name)
        env = {k: v for k, v in os.environ.items() if not k.startswith("JOBMODEL_")}
        env.update(extra_env)
        log: IO[bytes]
        with self.log(name).open("ab") as log:
            options: dict[str, Any] = {
                "stdin": subprocess.DEVNULL,
                "stdout": log,
                "stderr": subprocess.STDOUT,
                "env": env,
                "cwd": self.dir,
                "start_new_session": True,
            }
            proc = subprocess.Popen([binary, *args], **options) if self.detached else spawn_dying_with_us([binary, *args], **options)
        component = Component(name, binary, args, extra_env, proc.pid, proc)
        self.components[name] = component
        self._save_state()
        self._wait_ready(component)
        if name == "kube-controller-manager":
            self._wait_job_controller()

    def stop_component(self, name: str, *, kill: bool = False) -> None:
        """Stop one component by its PID (SIGKILL at once with `kill`: a crash)."""
        component = self.components.get(name)
        if component is None or component.pid == 0:
            return
        stop_pid(component.pid, component.binary, sig=signal.SIGKILL if kill else signal.SIGTERM)
        if component.proc is not None:
            with contextlib.suppress(Exception):
                component.proc.wait(timeout=1)
        component.pid = 0
        self._save_state()

    def restart_component(self, name: str, *, kill: bool = False) -> None:
        self.stop_component(name, kill=kill)
        self.start_component(name)

    def reconfigure(self, config: ControllerConfig) -> bool:
        """Restart kube-apiserver and kube-controller-manager with another configuration (the
        API server only when the feature gates change); False when nothing changed."""
        if config == self.config:
            return False
        gates_changed = config.feature_gates != self.config.feature_gates
        self.config = config
        if gates_changed:
            self.stop_component("kube-controller-manager")
            self.restart_component("kube-apiserver")
            self.start_component("kube-controller-manager")
        else:
            self.restart_component("kube-controller-manager")
        return True

    def stop(self) -> None:
        """Stop every component by PID, newest layer first. Safe to call twice."""
        for name in reversed(COMPONENTS):
            self.stop_component(name)

    def remove(self) -> None:
        """Stop, then delete the directory (credentials, data, logs)."""
        import shutil

        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> ControlPlane:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()

    # readiness
    def _wait_ready(self, component: Component) -> None:
        deadline = time.monotonic() + READY_TIMEOUT
        last = ""
        while time.monotonic() < deadline:
            if not component.alive():
                code = component.exit_code()
                how = "exited" if code is None else f"exited with code {code}"
                raise ControlPlaneError(
                    f"{component.name} {how} while starting; the end of {self.log(component.name)}:\n{self._log_tail(component.name)}"
                )
            ok, last = self._probe(component.name)
            if ok and component.alive():  # not another process answering on a port it took
                return
            time.sleep(0.1)
        raise ControlPlaneError(
            f"{component.name} not ready after {READY_TIMEOUT:g}s ({last}); the end of its log:\n{self._log_tail(component.name)}"
        )

    def _wait_job_controller(self) -> None:
        """Wait until the Job controller acts: a suspended probe Job in kube-system gets its
        Suspended condition, then is deleted. kube-controller-manager answers /healthz before its
        controllers have synced their informers, and a Job created in that gap waits for them: on
        a busy machine a run's first settle (a quiet spell) could end before the first sync."""
        path = "/apis/batch/v1/namespaces/kube-system/jobs"
        name = f"jobmodel-ready-{secrets.token_hex(4)}"
        probe = {
            "apiVersion": "batch/v1",
            "kind": "Job",
            "metadata": {"name": name},
            "spec": {"suspend": True, "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "none"}]}}},
        }
        self._api("POST", path, probe)
        try:
            deadline = time.monotonic() + READY_TIMEOUT
            manager = self.components["kube-controller-manager"]
            while time.monotonic() < deadline:
                if not manager.alive():
                    raise ControlPlaneError(
                        f"kube-controller-manager exited while starting; the end of its log:\n{self._log_tail(manager.name)}"
                    )
                conditions = (self._api("GET", f"{path}/{name}").get("status") or {}).get("conditions") or []
                if any(c.get("type") == "Suspended" for c in conditions):
                    return
                time.sleep(0.05)
            raise ControlPlaneError(
                f"the Job controller did not act within {READY_TIMEOUT:g}s of kube-controller-manager's start; "
                f"the end of its log:\n{self._log_tail('kube-controller-manager')}"
            )
        finally:
            with contextlib.suppress(ControlPlaneError):
                self._api("DELETE", f"{path}/{name}?propagationPolicy=Background")

    def _api(self, method: str, path: str, body: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """One call to kube-apiserver as the admin user; ControlPlaneError naming the call otherwise."""
        context = ssl.create_default_context(cafile=str(self.dir / "pki" / "ca.crt"))
        data = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {self.admin_token}", "Content-Type": "application/json"}
        request = urllib.request.Request(f"{self.server}{path}", data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=10, context=context) as response:
                out: dict[str, Any] = json.loads(response.read() or b"{}")
                return out
        except (urllib.error.URLError, OSError, ValueError) as err:
            raise ControlPlaneError(f"{method} {path}: {err}") from None

    def _probe(self, name: str) -> tuple[bool, str]:
        if name == "etcd":
            url, context, headers = f"http://127.0.0.1:{self.ports['etcd']}/health", None, {}
        elif name == "kube-apiserver":
            url, context = f"{self.server}/readyz", ssl.create_default_context(cafile=str(self.dir / "pki" / "ca.crt"))
            headers = {"Authorization": f"Bearer {self.admin_token}"}
        else:
            url = f"https://127.0.0.1:{self.ports['kube-controller-manager']}/healthz"
            context = ssl._create_unverified_context()  # its own self-signed certificate; loopback only
            headers = {}
        try:
            request = urllib.request.Request(url, headers=headers)
            with urllib.request.urlopen(request, timeout=2, context=context) as response:
                body = response.read().decode(errors="replace")
                return response.status == 200, body[:200]
        except (urllib.error.URLError, OSError) as err:
            return False, str(err)

    def healthy(self) -> dict[str, bool]:
        """Each component: alive and answering its health check."""
        return {name: c.alive() and self._probe(name)[0] for name, c in self.components.items()}

    def _log_tail(self, name: str, lines: int = 30) -> str:
        try:
            return "\n".join(self.log(name).read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    # state for other processes
    def _save_state(self) -> None:
        state = {
            "kubeconfig": str(self.kubeconfig),
            "server": self.server,
            "binaries": str(self.binaries),
            "release": self.release,
            "ports": self.ports,
            "config": self.config.to_json(),
            "processes": {n: {"pid": c.pid, "binary": c.binary} for n, c in self.components.items()},
        }
        path = self.dir / "state.json"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(state, indent=1) + "\n")
        tmp.replace(path)

    @classmethod
    def attach(cls, directory: Path) -> ControlPlane:
        """The control plane whose state is saved in `directory` (started by another process)."""
        try:
            state = json.loads((directory / "state.json").read_text())
        except (OSError, ValueError) as err:
            raise ControlPlaneError(f"no control plane in {directory}: {err}") from None
        try:
            plane = cls._from_state(directory, state)
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            what = f"no {err.args[0]!r}" if isinstance(err, KeyError) else str(err)
            raise ControlPlaneError(f"no control plane in {directory}: its state.json is malformed ({what})") from None
        plane.admin_token = _token_of(plane.kubeconfig)
        plane.nobody_token = _token_of(plane.nobody_kubeconfig)
        return plane

    @classmethod
    def _from_state(cls, directory: Path, state: Any) -> ControlPlane:
        config = ControllerConfig.from_json(state.get("config") or {})
        release = str(state.get("release") or UNRECORDED_RELEASE)
        plane = cls(directory, Path(state["binaries"]), config, detached=True, release=release)
        plane.ports = {k: int(v) for k, v in state["ports"].items()}
        for name in ("etcd", "kube-apiserver", "kube-controller-manager"):  # read by `healthy` and `server`
            if name not in plane.ports:
                raise KeyError(f"ports.{name}")
        for name, proc in state["processes"].items():
            args, env = plane._command(name)
            plane.components[name] = Component(name, proc["binary"], args, env, int(proc["pid"]))
        return plane


def _token_of(path: Path) -> str:
    try:
        doc = yaml.safe_load(path.read_text())
        return str(doc["users"][0]["user"]["token"])
    except (OSError, yaml.YAMLError, KeyError, IndexError, TypeError):
        return ""


def running_plane(directory: Path) -> ControlPlane | None:
    """The control plane saved in `directory` if all its processes are alive, else None."""
    if not (directory / "state.json").is_file():
        return None
    try:
        plane = ControlPlane.attach(directory)
    except ControlPlaneError:
        return None
    return plane if plane.components and all(c.alive() for c in plane.components.values()) else None


def default_directory() -> Path:
    """Where `jobmodel cluster up` keeps its control plane: one per user, under the runtime dir."""
    base = os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()
    return Path(base) / f"jobmodel-cluster-{os.getuid()}"

