"""The `live` engine: the `job-scenario` suite on a real control plane
(jobmodel.simulation.live_scenario), for `jobmodel conformance --engine live`."""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from jobmodel.adapters.controlplane import CONTROL_PLANE_RELEASE, ControlPlane
from jobmodel.conformance.engines import Unsupported
from jobmodel.simulation.live_scenario import CaseOutcome, LiveScenarioRunner, NotFaithful

# Local control planes a file's cases may use at once: a case that restarts components needs a
# plane to itself, and cases of another configuration another restart; a second plane lets them
# run beside the rest (a plane takes ~3 s to start and a few hundred MB).
LOCAL_PLANES = 2


def progress(message: str) -> None:
    print(f"live: {message}", file=sys.stderr, flush=True)


class LiveEngine:
    """An Engine (jobmodel.conformance.engines): the `job-scenario` suite on a real control plane.

    Without a kubeconfig it starts the local control plane of `release`, and for a file whose
    cases need different configurations up to `planes - 1` more, so that those run side by side
    (all stopped in `close()`); with one it uses that cluster as it is, taken to run `release`.
    Cases of another release are unsupported, with that reason."""

    name = "live"

    def __init__(
        self,
        kubeconfig: Path | None = None,
        trace_dir: Path | None = None,
        *,
        log: Any = progress,
        planes: int = LOCAL_PLANES,
        release: str = CONTROL_PLANE_RELEASE,
    ) -> None:
        self.log = log
        self.release = release  # of the local planes it starts, or of the cluster given
        self.plane: ControlPlane | None = None
        self.planes = planes
        self.more_planes: list[ControlPlane] = []
        self.trace_dir = trace_dir or Path(tempfile.mkdtemp(prefix="jobmodel-live-traces-"))
        self.trace_dir.mkdir(parents=True, exist_ok=True)
        self._kubeconfig = kubeconfig
        self._runner: LiveScenarioRunner | None = None
        self._prepared: dict[int, CaseOutcome] = {}

    def runner(self) -> LiveScenarioRunner:
        if self._runner is None:
            if self._kubeconfig is None:
                self.plane = ControlPlane.start(release=self.release)
                self._runner = LiveScenarioRunner(self.plane.kubeconfig, self.plane, self.trace_dir, log=self.log)
            else:
                self._runner = LiveScenarioRunner(self._kubeconfig, None, self.trace_dir, log=self.log, release=self.release)
        return self._runner

    def prepare(self, suite: str, cases: Sequence[Mapping[str, Any]]) -> None:
        """Run a file's cases ahead, several at a time (LiveScenarioRunner.run_many); `outcome`
        then answers from what they gave."""
        if suite != "job-scenario":
            return
        runner = self.runner()
        unsupported: dict[int, CaseOutcome] = {}
        batches = runner.batches(cases, unsupported)
        if self.plane is not None:
            while len(self.more_planes) < min(self.planes, len(batches)) - 1:
                self.more_planes.append(ControlPlane.start(release=self.release))
        outcomes = runner.run_batches(cases, batches, unsupported, more_planes=self.more_planes)
        for case, outcome in zip(cases, outcomes, strict=True):
            self._prepared[id(case)] = outcome

    def outcome(self, suite: str, case: Mapping[str, Any]) -> dict[str, Any]:
        prepared = self._prepared.pop(id(case), None)
        if isinstance(prepared, NotFaithful):
            raise Unsupported(str(prepared))
        if isinstance(prepared, Exception):
            raise prepared
        if prepared is not None:
            return {"differences": prepared}
        if suite != "job-scenario":
            raise Unsupported(
                f"the live engine runs the job-scenario suite; {suite!r} cases are single steps of the controllers' "
                "code, which --engine upstream runs"
            )
        try:
            return {"differences": self.runner().run(case)}
        except NotFaithful as reason:
            raise Unsupported(str(reason)) from None

    def close(self) -> None:
        while self.more_planes:
            self.more_planes.pop().remove()
        if self.plane is not None:
            self.plane.remove()
            self.plane = None

    def __enter__(self) -> LiveEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
