"""The upstream engine: conformance requests answered by the real Kubernetes code.

`harness/upstream/` is a Go program that runs upstream's own Job and CronJob controllers,
validation and defaulting as a library (docs/differential-testing.md). This module builds it
(`build_harness`), starts one process and speaks its protocol: one JSON line
`{"suite": ..., "case": ...}` in, one JSON line `{"outcome": {...}}` or `{"error": "..."}` out.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any

from jobmodel.adapters.gobuild import HARNESS_ROOT, run_build_script
from jobmodel.errors import InputError

HARNESS_DIR = HARNESS_ROOT / "upstream"
BUILD_SCRIPT = HARNESS_DIR / "build.py"

# The suites the harness answers (the others are reported as errors by the harness itself).
SUPPORTED_SUITES = frozenset({"job-sync", "validation", "defaulting", "schedule", "cronjob-sync"})


class HarnessError(InputError):
    """The harness could not be built or run; the message carries the tool's own output.

    An InputError on the `--engine upstream` choice, so that the CLI reports it as one clear
    error (and the runner as a failing case when the harness dies mid-run), never a traceback.
    """

    def __init__(self, reason: str) -> None:
        super().__init__("--engine upstream", reason)


def build_harness(on_line: Callable[[str], None] | None = None) -> Path:
    """The harness binary, built into the shared build cache if its sources changed; the build's
    progress lines go to `on_line` (else to standard error).

    Raises HarnessError with Go's own output when Go, the module proxy or the build fails.
    """
    try:
        return run_build_script(BUILD_SCRIPT, "the upstream harness", "--engine upstream", on_line)
    except InputError as err:
        raise HarnessError(err.reason) from None


class UpstreamEngine:
    """An Engine (jobmodel.conformance.engines) backed by one harness process."""

    name = "upstream"

    def __init__(self, binary: Path | None = None) -> None:
        self._binary = binary or build_harness()
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[str] | None = None
        # A file, not a pipe: nobody reads stderr while requests run, and a full pipe would block.
        self._stderr: IO[str] = tempfile.TemporaryFile("w+")  # noqa: SIM115 (lives as long as the engine; closed in close())

    def _process(self) -> subprocess.Popen[str]:
        if self._proc is None or self._proc.poll() is not None:
            try:
                self._proc = subprocess.Popen(
                    [str(self._binary)],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=self._stderr,
                    text=True,
                    bufsize=1,
                )
            except OSError as err:
                raise HarnessError(
                    f"cannot start the upstream harness {self._binary}: {err}"
                ) from None
        return self._proc

    def request(self, suite: str, case: Mapping[str, Any]) -> dict[str, Any]:
        """The harness's raw answer to one request: {"outcome": ...} or {"error": ...}."""
        line = json.dumps({"suite": suite, "case": case}, separators=(",", ":")) + "\n"
        with self._lock:
            proc = self._process()
            stdin, stdout = _pipes(proc)
            try:
                stdin.write(line)
                stdin.flush()
                answer = stdout.readline()
            except BrokenPipeError:
                answer = ""
            if not answer:
                self._proc = None
                raise HarnessError(
                    f"the upstream harness exited ({proc.wait()}):\n{self._stderr_text()}"
                )
        reply = json.loads(answer)
        if not isinstance(reply, dict):
            raise HarnessError(f"the upstream harness answered a non-object: {answer!r}")
        return reply

    def outcome(self, suite: str, case: Mapping[str, Any]) -> dict[str, Any]:
        """The outcome upstream's code gives for the case, in the shape of its `expect`."""
        reply = self.request(suite, case)
        if "error" in reply:
            # Same category as a model that cannot run a case: reported as a failing case.
            raise NotImplementedError(f"upstream harness: {reply['error']}")
        outcome = reply.get("outcome")
        if not isinstance(outcome, dict):
            raise HarnessError(f"the upstream harness answered without an outcome: {reply!r}")
        return outcome

    def _stderr_text(self) -> str:
        self._stderr.seek(0)
        return self._stderr.read()[-20000:]

    def close(self) -> None:
        with self._lock:
            if self._proc is not None:
                _pipes(self._proc)[0].close()
                self._proc.wait()
                self._proc = None
            self._stderr.close()

    def __enter__(self) -> UpstreamEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _pipes(proc: subprocess.Popen[str]) -> tuple[IO[str], IO[str]]:
    assert proc.stdin is not None and proc.stdout is not None  # both are PIPE
    return proc.stdin, proc.stdout
