"""`jobmodel live run|check` from the command line: the errors that need no cluster, and
`live check` on traces (the runs on the real control plane: tests/adapters/test_live.py and
tests/commands/test_live_cluster.py)."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from jobmodel.adapters.live import (
    LiveCluster,
    LiveError,
    parse_warning_header,
    server_with_scheme,
    warnings_of,
)
from tests.conftest import REPO_ROOT

PI = str(REPO_ROOT / "specs" / "examples" / "pi.yaml")


def run_cli(*args: str, timeout: float = 120, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))  # the package, from any working directory
    return subprocess.run([sys.executable, "-m", "jobmodel", *args], capture_output=True, text=True, timeout=timeout, cwd=cwd, env=env)


def error_lines(proc: subprocess.CompletedProcess[str]) -> list[str]:
    """What the command printed on stderr, less the build's progress lines."""
    return [line for line in proc.stderr.splitlines() if not line.startswith("jobmodel: ")]


def test_an_unreachable_cluster_is_one_clear_line(tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once closed
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(
        json.dumps(
            {
                "apiVersion": "v1",
                "kind": "Config",
                "clusters": [{"name": "c", "cluster": {"server": f"https://127.0.0.1:{port}", "insecure-skip-tls-verify": True}}],
                "users": [{"name": "u", "user": {"token": "t"}}],
                "contexts": [{"name": "c", "context": {"cluster": "c", "user": "u"}}],
                "current-context": "c",
            }
        )
    )
    proc = run_cli("live", "run", PI, "--kubeconfig", str(kubeconfig), "--trace", str(tmp_path / "t.jsonl"))
    assert proc.returncode == 2
    lines = error_lines(proc)
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"error: cluster: cannot reach the cluster at https://127.0.0.1:{port}")
    assert "Connection refused" in lines[0]


def _kubeconfig_of(server: str, path: Path) -> Path:
    config = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": "c", "cluster": {"server": server}}],
        "users": [{"name": "u", "user": {"token": "t"}}],
        "contexts": [{"name": "c", "context": {"cluster": "c", "user": "u"}}],
        "current-context": "c",
    }
    path.write_text(json.dumps(config))
    return path


@contextlib.contextmanager
def answering(answer: str) -> Iterator[int]:
    """A loopback HTTP server answering every GET with `answer` as JSON; its port."""
    import http.server
    import threading

    class Answer(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(answer.encode())

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Answer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ("<html>a proxy's page</html>", "error: cluster: cannot read the server version: the server at http://127.0.0.1:{port} answered with no Kubernetes object: \"<html>a proxy's page</html>\""),
        ("[1, 2]", "error: cluster: cannot read the server version: the server at http://127.0.0.1:{port} answered with no Kubernetes object: '[1, 2]'"),
        ('{"gitVersion": "v1.38.0"}', "error: --kube-version: the cluster at http://127.0.0.1:{port} runs Kubernetes 1.38 (v1.38.0); the model follows 1.32,"),
        ('{"major": "1"}', "error: --kube-version: the cluster at http://127.0.0.1:{port} reports version '', which names no release"),
    ],
    ids=["html", "no-object", "newer-release", "no-git-version"],
)
def test_a_server_that_answers_no_release_the_model_follows_is_one_clear_line(tmp_path: Path, answer: str, message: str) -> None:
    """Whatever a server given by kubeconfig answers when asked its version (a page that is no
    JSON, JSON that is no object, a release the model does not follow, none), one line."""
    with answering(answer) as port:
        kubeconfig = _kubeconfig_of(f"http://127.0.0.1:{port}", tmp_path / "kubeconfig")
        for command in (["live", "run", PI, "--trace", str(tmp_path / "t.jsonl")], ["conformance", "--engine", "live"]):
            proc = run_cli(*command, "--kubeconfig", str(kubeconfig))
            assert proc.returncode == 2
            lines = error_lines(proc)
            assert len(lines) == 1, proc.stderr
            assert lines[0].startswith(message.format(port=port)), lines[0]
    assert not (tmp_path / "t.jsonl").exists()


def test_a_release_named_that_the_cluster_does_not_run_is_taken_with_a_warning(tmp_path: Path) -> None:
    """--kube-version beside a cluster that reports another release: that release, with a warning
    on standard error; without it, the cluster's release, the manifest from standard input read
    again at it (first read at the default, before the cluster was asked)."""
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    with answering('{"gitVersion": "v1.35.0"}') as port:
        kubeconfig = _kubeconfig_of(f"http://127.0.0.1:{port}", tmp_path / "kubeconfig")
        runs = [
            subprocess.run(
                [sys.executable, "-m", "jobmodel", "live", "run", "-", "--kubeconfig", str(kubeconfig), *release,
                 "--trace", str(tmp_path / f"t{i}.jsonl")],
                input=Path(PI).read_text(), capture_output=True, text=True, timeout=120, env=env,
            )
            for i, release in enumerate([["--kube-version", "1.33"], []])
        ]
    warning = (
        f"jobmodel: warning: the cluster at http://127.0.0.1:{port} runs Kubernetes 1.35 (v1.35.0); it is compared "
        "with the model of 1.33 (--kube-version)"
    )
    assert warning in runs[0].stderr.splitlines(), runs[0].stderr
    assert "warning" not in runs[1].stderr
    for proc in runs:
        # The server is no API server: it takes no namespace, which is where each run stops.
        assert proc.returncode == 2 and error_lines(proc)[-1].startswith("error: cluster: "), proc.stderr
        assert "STDIN" not in proc.stderr


def test_a_server_address_without_a_scheme_is_read_as_client_go_reads_it(tmp_path: Path) -> None:
    """`server: 127.0.0.1:PORT` (kubectl takes it): http, or https where the cluster entry
    configures TLS (client-go's DefaultServerURL); no warning of the HTTP library either way."""
    with answering('{"gitVersion": "v1.38.0"}') as port:
        kubeconfig = _kubeconfig_of(f"127.0.0.1:{port}", tmp_path / "kubeconfig")
        proc = run_cli("live", "run", PI, "--kubeconfig", str(kubeconfig))
        assert proc.returncode == 2
        assert error_lines(proc) == [
            f"error: --kube-version: the cluster at http://127.0.0.1:{port} runs Kubernetes 1.38 (v1.38.0); the model "
            "follows 1.32, 1.33, 1.34, 1.35, 1.36, 1.37: name the release to compare it with"
        ], proc.stderr
    assert server_with_scheme("127.0.0.1:6443", tls=False) == "http://127.0.0.1:6443"
    assert server_with_scheme("127.0.0.1:6443", tls=True) == "https://127.0.0.1:6443"
    assert server_with_scheme("https://127.0.0.1:6443", tls=False) == "https://127.0.0.1:6443"


@pytest.mark.parametrize(
    "text",
    ["{{{ not yaml", "apiVersion: v1\nkind: Config\nclusters: 7\n", "apiVersion: v1\nkind: Config\n"],
    ids=["not-yaml", "wrong-shape", "no-context"],
)
def test_a_malformed_kubeconfig_is_one_clear_line(tmp_path: Path, text: str) -> None:
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(text)
    proc = run_cli("live", "run", PI, "--kubeconfig", str(kubeconfig), "--trace", str(tmp_path / "t.jsonl"))
    assert proc.returncode == 2
    lines = error_lines(proc)
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"error: cluster: kubeconfig {kubeconfig}")


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--fail", "index=0"], "not Indexed"), (["--picture", "out.gif"], "svg or .png")],
)
def test_impossible_options_are_refused_before_any_cluster(tmp_path: Path, args: list[str], message: str) -> None:
    absent = tmp_path / "absent-kubeconfig"  # would be an error of its own, later
    proc = run_cli("live", "run", PI, "--kubeconfig", str(absent), *args)
    assert proc.returncode == 2
    assert message in proc.stderr and "kubeconfig" not in proc.stderr


def pi_with_unknown_field(tmp_path: Path) -> Path:
    """specs/examples/pi.yaml with a field batch/v1 does not have (spec.retries)."""
    text = Path(PI).read_text().replace("spec:\n", "spec:\n  retries: 2\n", 1)
    assert "retries: 2" in text
    path = tmp_path / "pi-unknown.yaml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("validate", [[], ["--validate", "strict"], ["--validate=true"]])
def test_an_unknown_field_under_strict_validation_is_refused_before_any_cluster(tmp_path: Path, validate: list[str]) -> None:
    absent = tmp_path / "absent-kubeconfig"
    proc = run_cli("live", "run", str(pi_with_unknown_field(tmp_path)), "--kubeconfig", str(absent), "--kube-version", "1.37", *validate)
    assert proc.returncode == 2
    assert "spec.retries: unknown field" in proc.stderr and "kubeconfig" not in proc.stderr


def test_an_unknown_validate_value_is_refused(tmp_path: Path) -> None:
    proc = run_cli("live", "run", PI, "--validate", "lenient")
    assert proc.returncode == 2
    assert "--validate" in proc.stderr and "expected strict, warn or ignore" in proc.stderr


def test_missing_kubeconfig_is_one_clear_line(tmp_path: Path) -> None:
    with pytest.raises(LiveError, match="no such file"):
        LiveCluster.connect(tmp_path / "absent")


def test_an_existing_trace_file_is_refused_before_any_cluster_and_kept(tmp_path: Path) -> None:
    """A second recording appended to a trace would mix two runs' resourceVersions."""
    trace = tmp_path / "earlier.trace.jsonl"
    trace.write_text('{"format": "jobmodel-live-trace/1"}\n')
    proc = run_cli("live", "run", PI, "--kubeconfig", str(tmp_path / "absent-kubeconfig"), "--trace", str(trace))
    assert proc.returncode == 2
    assert error_lines(proc) == [f"error: --trace: {trace} exists: a trace file holds one recording (name a new file, or remove this one)"]
    assert trace.read_text() == '{"format": "jobmodel-live-trace/1"}\n'


def test_a_namespace_whose_default_trace_exists_is_refused_before_any_cluster(tmp_path: Path) -> None:
    """Without --trace the trace goes to ./<namespace>.trace.jsonl, checked before a plane starts."""
    trace = tmp_path / "mine.trace.jsonl"
    trace.write_text('{"format": "jobmodel-live-trace/1"}\n')
    proc = run_cli("live", "run", PI, "--kubeconfig", str(tmp_path / "absent-kubeconfig"), "--namespace", "mine", cwd=tmp_path)
    assert proc.returncode == 2
    assert error_lines(proc) == [f"error: --namespace: the run's trace {trace} exists: a trace file holds one recording (name a new file, or remove this one)"]
    assert trace.read_text() == '{"format": "jobmodel-live-trace/1"}\n'


@pytest.mark.parametrize(
    ("header", "text"),
    [
        ('299 - "mytext"', "mytext"),
        ('299 myagent "a \\"quoted\\" \\\\ text"', 'a "quoted" \\ text'),  # NewWarningHeader's escapes undone
        ("299 - mytext", None),  # not the form the API server writes
        ('299 - "open', None),
    ],
)
def test_a_warning_header_is_read_as_the_api_server_writes_it(header: str, text: str | None) -> None:
    assert parse_warning_header(header) == text


def test_a_response_s_warnings_are_read_in_order_as_utf8() -> None:
    """http.client hands header bytes over as ISO-8859-1; the server wrote UTF-8."""
    from urllib3 import HTTPHeaderDict

    headers = HTTPHeaderDict()
    headers.add("Warning", '299 - "first"')
    headers.add("Warning", '299 - "überall"'.encode().decode("latin-1"))
    headers.add("Warning", "not a warning")
    assert warnings_of(headers) == ["first", "überall"]
