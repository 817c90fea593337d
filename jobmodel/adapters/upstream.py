"""The upstream engine: conformance requests answered by the real Kubernetes code.

`harness/upstream/` is a Go program that runs upstream's own Job and CronJob controllers,
validation and defaulting as a library (docs/differential-testing.md). It speaks the oracle
protocol (docs/oracle-protocol.md) like any other implementation; this module builds it
(`build_harness`) and runs it through the same `ProtocolEngine` as any `cmd:` engine.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from jobmodel.adapters.gobuild import HARNESS_ROOT, run_build_script
from jobmodel.adapters.oracle import DEFAULT_TIMEOUT_SECONDS, OracleError, ProtocolEngine
from jobmodel.errors import InputError
from jobmodel.schedule.gotime import tzdata_zoneinfo_dir

HARNESS_DIR = HARNESS_ROOT / "upstream"
BUILD_SCRIPT = HARNESS_DIR / "build.py"

# The suites the harness answers (the others are reported as errors by the harness itself).
SUPPORTED_SUITES = frozenset({"job-sync", "validation", "defaulting", "schedule", "cronjob-sync"})


class HarnessError(OracleError):
    """The harness could not be built or run; the message carries the tool's own output.

    An InputError on the `--engine upstream` choice, so that the CLI reports it as one clear
    error (and the runner as a failing case when the harness dies mid-run), never a traceback.
    """

    def __init__(self, reason: str) -> None:
        super().__init__("--engine upstream", reason)


def build_harness(kube_version: str | None = None, on_line: Callable[[str], None] | None = None) -> Path:
    """The harness binary of a Kubernetes release (default: the newest), built into the shared
    build cache if its sources changed; the build's progress lines go to `on_line` (else to
    standard error).

    Raises HarnessError with Go's own output when Go, the module proxy or the build fails.
    """
    args = [] if kube_version is None else ["--kube-version", kube_version]
    what = "the upstream harness" + ("" if kube_version is None else f" of Kubernetes {kube_version}")
    try:
        return run_build_script(BUILD_SCRIPT, what, "--engine upstream", on_line, args)
    except InputError as err:
        raise HarnessError(err.reason) from None


def harness_environment() -> dict[str, str]:
    """The harness's environment: Go's time.LoadLocation reads the model's IANA data (ZONEINFO =
    the `tzdata` package, as docs/cron.md says) before the machine's, and time.Local is UTC, as
    the model takes it to be."""
    return {**os.environ, "ZONEINFO": str(tzdata_zoneinfo_dir()), "TZ": "UTC"}


class UpstreamEngine(ProtocolEngine):
    """An Engine (jobmodel.conformance.engines) backed by one harness process: the harness speaks
    the oracle protocol, so it is a ProtocolEngine whose failures are HarnessErrors."""

    def __init__(
        self,
        binary: Path | None = None,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        kube_version: str | None = None,
    ) -> None:
        super().__init__([str(binary or build_harness(kube_version))], name="upstream", timeout=timeout, env=harness_environment())

    def _error(self, reason: str) -> OracleError:
        return HarnessError(f"the upstream harness {reason}")

    def __enter__(self) -> UpstreamEngine:
        return self
