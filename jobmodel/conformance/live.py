"""The `live` engine: the `job-scenario` suite on a real control plane
(jobmodel.simulation.live_scenario), for `jobmodel conformance --engine live`."""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from jobmodel.adapters.controlplane import (
    CONTROL_PLANE_RELEASE,
    CONTROL_PLANE_RELEASES,
    ControlPlane,
)
from jobmodel.conformance.engines import PerReleaseEngine, Unsupported
from jobmodel.errors import InputError
from jobmodel.features import VECTOR_DEFAULT_RELEASE, parse_kube_version
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
            self._runner = None  # a later file starts planes again

    def __enter__(self) -> LiveEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class PerReleaseLiveEngine(PerReleaseEngine[LiveEngine]):
    """`--engine live` on local control planes with no release asked for: each case on planes of
    its own release (its `kubeVersion`, which the runner fills in), as `--engine upstream` runs
    each release's own code. A file's cases are run release by release, oldest first, each
    release's planes stopped before the next start; a case of a release no local plane is built
    for goes to the planes of the vectors' line, which say so (unsupported)."""

    def __init__(self, trace_dir: Path | None = None, *, log: Any = progress, planes: int = LOCAL_PLANES) -> None:
        super().__init__("live", self._release_engine)
        self.log = log
        self.planes = planes
        self.trace_dir = trace_dir

    def _release_engine(self, release: str) -> LiveEngine:
        engine = LiveEngine(trace_dir=self.trace_dir, log=self.log, planes=self.planes, release=release)
        self.trace_dir = engine.trace_dir  # one directory for every release's traces
        return engine

    def release_of(self, case: Mapping[str, Any]) -> str:
        return plane_release_of(case)

    def request_of(self, case: Mapping[str, Any]) -> Mapping[str, Any]:
        return case  # the very case `prepare` ran (its outcome is kept by the case's identity)

    def prepare(self, suite: str, cases: Sequence[Mapping[str, Any]]) -> None:
        by_release: dict[str, list[Mapping[str, Any]]] = {}
        for case in cases:
            by_release.setdefault(self.release_of(case), []).append(case)
        for release in sorted(by_release, key=lambda r: int(r.split(".")[1])):
            engine = self.engine(release)
            engine.prepare(suite, by_release[release])
            if suite == "job-scenario":
                engine.close()  # its cases have run: their outcomes are kept


def plane_release_of(case: Mapping[str, Any]) -> str:
    """The release of the local planes a case runs on: its own when a plane is built for it,
    else the vectors' line (whose planes report the case unsupported, with the reason)."""
    try:
        release = f"1.{parse_kube_version(str(case.get('kubeVersion') or VECTOR_DEFAULT_RELEASE), 'kubeVersion')}"
    except InputError:
        return VECTOR_DEFAULT_RELEASE
    return release if release in CONTROL_PLANE_RELEASES else VECTOR_DEFAULT_RELEASE
