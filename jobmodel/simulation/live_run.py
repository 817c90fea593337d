"""`jobmodel live run`: a Job manifest on a real cluster, beside the model's prediction.

The cluster is the one of `--kubeconfig`, else the local control plane of `jobmodel cluster up`,
else a local control plane started for the run (and stopped after it). With the simulated
kubelet (the default), this client plays the scheduler and the kubelet as `jobmodel simulate`'s
default script does: each pod is bound to a Node, started and made Ready, runs `run_seconds` of
real time and then succeeds or fails as the `--fail` and `--slow` specs say; a pod being deleted
is stopped and removed, as a kubelet does. With `--kubelet real` the cluster's own kubelets run
the pods. With `--script`, the steps of the `job-scenario` vocabulary run as in
`conformance --engine live`.

The model simulates the same manifest with the same outcomes; both timelines are reduced to the
sequence of the Job's status, aligned, printed side by side, and drawn in one picture.
"""

from __future__ import annotations

import difflib
import re
import secrets
import time
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import attrs

from jobmodel.adapters.controlplane import (
    CONTROL_PLANE_RELEASE,
    ControlPlane,
    default_directory,
    running_plane,
)
from jobmodel.adapters.live import (
    LiveError,
    Recorder,
    Rejected,
    Session,
    View,
    iter_events,
    open_session,
    read_trace,
    rv_number,
)
from jobmodel.features import gates_for
from jobmodel.simulation.job import (
    DEFAULT_START,
    DEFAULT_UID,
    PodOutcome,
    Timeline,
    TimelineEntry,
    describe_failure,
    outcome_for,
    pod_start_time,
    restarted_status,
    restarts_in_place,
    simulate_default,
    simulate_script,
    terminal_status,
    with_restarts,
)
from jobmodel.simulation.live_scenario import (
    AsWritten,
    CaseFrame,
    LiveScenarioRunner,
    changed_since,
    in_namespace,
    observed_state,
    unsupported_reason,
)
from jobmodel.timeutil import format_time, parse_time

FINISH_QUIET = 1.6
TERMINAL = ("Succeeded", "Failed")


@attrs.frozen
class LiveRunResult:
    """Both timelines, the trace, where the real run and the model disagree, and the API
    server's warnings on the Job's create."""

    model: Timeline
    real: Timeline
    trace: Path
    server: str
    namespace: str
    differences: tuple[str, ...]
    notes: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


def cluster_for_run(kubeconfig: Path | None, stack: ExitStack, release: str = CONTROL_PLANE_RELEASE) -> tuple[Path, ControlPlane | None]:
    """The kubeconfig to use, and the local control plane of `release` if this run owns or found one."""
    if kubeconfig is not None:
        return kubeconfig, None
    running = running_plane(default_directory())
    if running is not None and running.release == release:
        return running.kubeconfig, running
    plane = ControlPlane.start(release=release)
    stack.callback(plane.remove)
    return plane.kubeconfig, plane


def run_live(
    manifest: Mapping[str, Any],
    *,
    outcomes: Sequence[PodOutcome] = (),
    script: Sequence[Mapping[str, Any]] | None = None,
    kubeconfig: Path | None = None,
    kubelet: str = "simulated",
    run_seconds: float = 3.0,
    namespace: str | None = None,
    trace: Path | None = None,
    timeout: float = 600.0,
    give_up_seconds: float = 60.0,
    release: str = CONTROL_PLANE_RELEASE,
    as_written: AsWritten | None = None,
) -> LiveRunResult:
    """Run the Job for real and in the model (at `release`, the local control plane's when it
    runs one); see the module's docstring. `manifest` is the Job as the API server decodes it;
    the cluster is sent `as_written` (by default the manifest itself, under Strict)."""
    sent = as_written or AsWritten(manifest)
    job_name = str((manifest.get("metadata") or {}).get("name") or "")
    if not job_name:
        raise LiveError("the manifest's Job has no metadata.name (generateName is not supported by live run)")
    start = parse_time(DEFAULT_START, "start")
    with ExitStack() as stack:
        config_path, plane = cluster_for_run(kubeconfig, stack, release)
        namespace = namespace or default_namespace(job_name)
        trace = trace or default_trace_path(namespace)
        try:
            return _run_recorded(
                manifest, outcomes, script, config_path, plane, kubelet, run_seconds, namespace, trace, timeout,
                give_up_seconds, start, stack, release, sent,
            )
        except LiveError as err:
            if trace.exists():
                # What was recorded until the cluster failed stays readable (`live check`).
                raise LiveError(f"{err.reason} (the trace recorded so far: {trace})", err.status) from None
            raise
    raise AssertionError("unreachable")  # pragma: no cover


def default_namespace(job_name: str) -> str:
    """A new namespace for one run of `job_name`: a DNS-1123 label (a Job's name may hold dots,
    which a namespace's may not), unique by a random suffix."""
    label = re.sub(r"[^a-z0-9-]+", "-", job_name[:40]).strip("-")
    return f"jobmodel-{label}-{secrets.token_hex(3)}" if label else f"jobmodel-{secrets.token_hex(3)}"


def default_trace_path(namespace: str) -> Path:
    """Where a run in `namespace` writes its trace when not told: the working directory."""
    return Path.cwd() / f"{namespace}.trace.jsonl"


def _run_recorded(
    manifest: Mapping[str, Any],
    outcomes: Sequence[PodOutcome],
    script: Sequence[Mapping[str, Any]] | None,
    config_path: Path,
    plane: ControlPlane | None,
    kubelet: str,
    run_seconds: float,
    namespace: str,
    trace: Path,
    timeout: float,
    give_up_seconds: float,
    start: datetime,
    stack: ExitStack,
    release: str,
    sent: AsWritten,
) -> LiveRunResult:
    """The run of `run_live` once the cluster, namespace and trace file are chosen."""
    job_name = str(manifest["metadata"]["name"])
    if script is not None:
        return _run_script(manifest, script, config_path, plane, namespace, trace, start, release, sent)
    model = simulate_default(manifest, outcomes, run_seconds=run_seconds, now=start, gates=gates_for(release))
    session = open_session(
        config_path, namespace, trace, {"job": job_name, "kubeVersion": release, "kubelet": kubelet, "runSeconds": run_seconds},
        give_up_seconds=give_up_seconds,
    )
    stack.callback(session.cluster.close)
    stack.callback(session.recorder.stop)
    try:
        created, warned = session.cluster.create_job_as_written(namespace, in_namespace(sent.document, namespace), sent.field_validation)
    except Rejected as err:
        raise LiveError(f"the API server rejects the Job: {err}") from None
    session.recorder.action("user", "create the Job", created, fieldValidation=sent.field_validation, warnings=warned)
    frame = CaseFrame(
        str(manifest["metadata"].get("namespace") or "default"),
        namespace,
        job_name,
        DEFAULT_UID,
        start,
        datetime.now(UTC),
        real_uid=str(created["metadata"]["uid"]),
    )
    if kubelet == "simulated":
        session.cluster.ensure_node()
        SimulatedKubelet(session, frame, outcomes, run_seconds).run(timeout)
    else:
        wait_finished(session.recorder, frame, timeout)
    session.recorder.stop()
    real = timeline_from_trace(trace, frame)
    return LiveRunResult(model, real, trace, session.cluster.server, namespace, tuple(compare_final(model, real)), warnings=tuple(warned))



def _run_script(
    manifest: Mapping[str, Any],
    script: Sequence[Mapping[str, Any]],
    kubeconfig: Path,
    plane: ControlPlane | None,
    namespace: str,
    trace: Path,
    start: datetime,
    release: str,
    sent: AsWritten,
) -> LiveRunResult:
    model = simulate_script(manifest, script, now=start, gates=gates_for(release))
    case = {"name": "live run", "kubeVersion": release, "job": dict(manifest), "jobUid": DEFAULT_UID, "start": DEFAULT_START, "steps": list(script)}
    notes = []
    reason = unsupported_reason(case, release=release)
    if reason is not None:
        notes.append(f"note: the real run may differ for a reason of the clock, not of the controller: {reason}")
    runner = LiveScenarioRunner(kubeconfig, plane, trace.parent, release=release, as_written=sent)
    differences = runner.run(case, trace=trace, check_support=False)
    header, records = read_trace(trace)
    created = next((r for r in records if r.get("kind") == "action" and r.get("what") == "create the Job"), {})
    frame = CaseFrame(
        str(manifest["metadata"].get("namespace") or "default"),
        str(header.get("namespace")),
        str(manifest["metadata"]["name"]),
        DEFAULT_UID,
        start,
        datetime.now(UTC),
    )
    real = timeline_from_trace(trace, frame)
    expectation = [f"real cluster: {d}" for d in differences] + [f"model: {d}" for d in model.differences]
    return LiveRunResult(model, real, trace, str(header.get("server")), str(header.get("namespace")), tuple(expectation), tuple(notes), tuple(created.get("warnings") or ()))


# --- the kubelet ---------------------------------------------------------------------------------


def job_finished(job: Mapping[str, Any] | None) -> bool:
    conditions = ((job or {}).get("status") or {}).get("conditions") or []
    return any(c.get("type") in ("Complete", "Failed") and c.get("status") == "True" for c in conditions)


def owned_pods(view: View, frame: CaseFrame) -> list[dict[str, Any]]:
    """The Job's pods, in creation order."""
    frame.number_pods(view)
    pods = [
        p
        for p in view.objects["pods"].values()
        if any(ref.get("uid") == frame.real_uid for ref in p["metadata"].get("ownerReferences") or [])
    ]
    return sorted(pods, key=lambda p: frame.pod_numbers.get(p["metadata"]["uid"], 1 << 30))


def wait_finished(recorder: Recorder, frame: CaseFrame, timeout: float) -> None:
    key = f"{frame.real_namespace}/{frame.job_name}"
    if not recorder.wait_until(lambda v: job_finished(v.objects["jobs"].get(key)), timeout):
        raise LiveError(f"the Job did not finish within {timeout:g}s; the trace keeps what was recorded: {recorder.trace.path}")
    recorder.wait_quiet(FINISH_QUIET, timeout)


class SimulatedKubelet:
    """The scheduler and kubelet this client plays: bind, start, end pods; finish deletions."""

    def __init__(self, session: Session, frame: CaseFrame, outcomes: Sequence[PodOutcome], run_seconds: float) -> None:
        self.cluster = session.cluster
        self.recorder = session.recorder
        self.namespace = session.namespace
        self.frame = frame
        self.outcomes = outcomes
        self.run_seconds = run_seconds
        self.used: dict[int, int] = {}
        self.started: dict[str, float] = {}
        self.written: dict[str, int] = {}  # pod uid -> resourceVersion of this kubelet's last write

    def run(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        key = f"{self.namespace}/{self.frame.job_name}"
        while True:
            self.recorder.check()
            view = self.recorder.snapshot()
            try:
                acted = self.tick(view)
            except LiveError as err:
                if err.status != 0:
                    raise
                # The API server is away (restarting?): a kubelet retries; the recorder gives up
                # when its watches do, and check() above then raises that one error. A call that
                # keeps failing while the watches run gives up at the run's timeout.
                if time.monotonic() > deadline:
                    raise LiveError(
                        f"the Job did not finish within {timeout:g}s: the kubelet's calls kept failing ({err.reason}); "
                        f"the trace keeps what was recorded: {self.recorder.trace.path}"
                    ) from None
                time.sleep(0.2)
                continue
            pods = owned_pods(view, self.frame)
            settled = not acted and all(p["metadata"].get("deletionTimestamp") is None for p in pods)
            if settled and job_finished(view.objects["jobs"].get(key)):
                if self.recorder.wait_quiet(FINISH_QUIET, 5.0) and self.recorder.snapshot().changes == view.changes:
                    return
                continue
            if time.monotonic() > deadline:
                raise LiveError(
                    f"the Job did not finish within {timeout:g}s; the trace keeps what was recorded: {self.recorder.trace.path}"
                )
            if not acted:
                self.recorder.wait_until(changed_since(view.changes), 0.1)

    def tick(self, view: View) -> bool:
        """Make at most one move per pod that is due; True if any was made."""
        acted = False
        now = time.monotonic()
        for position, pod in enumerate(owned_pods(view, self.frame)):
            meta, status = pod["metadata"], pod.get("status") or {}
            if rv_number(meta.get("resourceVersion")) < self.written.get(meta["uid"], -1):
                continue  # this kubelet's last write to the pod is not seen yet: act on it then
            name, phase = meta["name"], status.get("phase", "Pending")
            bound = bool((pod.get("spec") or {}).get("nodeName"))
            try:
                if meta.get("deletionTimestamp") is not None:
                    if bound and phase not in TERMINAL:
                        self._write(pod, terminal_status(self._now(), PodOutcome(exit_code=143), self._model_pod(pod)), f"{name} stopped (exit code 143)")
                    elif bound:
                        result = self.cluster.delete_pod(self.namespace, name, grace_seconds=0, uid=meta.get("uid"))
                        self.recorder.action("kubelet", f"{name} removed", result)
                        self.written[meta["uid"]] = 1 << 62  # gone: nothing more to do
                    else:
                        continue
                    acted = True
                elif not bound:
                    self.cluster.bind_pod(self.namespace, name)
                    self.recorder.action("scheduler", f"bind {name}")
                    self.written[meta["uid"]] = rv_number(meta.get("resourceVersion")) + 1
                    acted = True
                elif phase == "Pending":
                    at = format_time(self._now())
                    model_pod = self._model_pod(pod)
                    self._write(
                        pod,
                        {
                            "phase": "Running",
                            "startTime": pod_start_time(model_pod) or at,
                            "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": at}],
                            **with_restarts(model_pod, {"containerStatuses": [
                                {"name": c.get("name", ""), "ready": True, "state": {"running": {"startedAt": at}}}
                                for c in (pod.get("spec") or {}).get("containers") or []
                            ]}),
                        },
                        f"{name} Running",
                    )
                    self.started[meta["uid"]] = now
                    acted = True
                elif phase == "Running":
                    began = self.started.setdefault(meta["uid"], now)
                    if now - began >= self._seconds(pod, position):
                        model_pod = self._model_pod(pod)
                        outcome = outcome_for(model_pod, position, self.outcomes, self.used)
                        failure = None if outcome is None or outcome.succeed else outcome
                        if failure is not None and restarts_in_place(model_pod, failure):
                            self._write(pod, *restarted_status(self._now(), failure, model_pod))
                            self.started[meta["uid"]] = now  # the container runs its time again
                            acted = True
                            continue
                        label = "Succeeded" if failure is None else describe_failure(failure, model_pod)
                        self._write(pod, terminal_status(self._now(), failure, model_pod), f"{name} {label}")
                        acted = True
            except Rejected as err:
                if err.status not in (404, 409, 422):
                    raise LiveError(f"the kubelet's call on {name} was refused: {err}") from None
        return acted

    def _now(self) -> datetime:
        return datetime.now(UTC)

    def _model_pod(self, pod: Mapping[str, Any]) -> Any:
        from jobmodel.api.wire import pod_from_json

        return pod_from_json(self.frame.translate(pod), "pod")

    def _seconds(self, pod: Mapping[str, Any], position: int) -> float:
        model_pod = self._model_pod(pod)
        for outcome in self.outcomes:
            if outcome.seconds is not None and outcome.matches(model_pod, position):
                return outcome.seconds
        return self.run_seconds

    def _write(self, pod: Mapping[str, Any], status: Mapping[str, Any], what: str) -> None:
        meta = pod["metadata"]
        result = self.cluster.patch_pod_status(self.namespace, meta["name"], status)
        self.recorder.action("kubelet", what, result)
        self.written[meta["uid"]] = rv_number(result.get("metadata", {}).get("resourceVersion"))


# --- the real timeline ----------------------------------------------------------------------------


def timeline_from_trace(path: Path, frame: CaseFrame) -> Timeline:
    """The recorded run as a Timeline in the model's frame: one entry per recorded change, at
    its offset from the Job's creation, with the cluster as the watches showed it then."""
    _header, records = read_trace(path)
    own = {str(r.get("rv")): str(r.get("actor")) for r in records if r.get("kind") == "action" and r.get("rv")}
    view = View()
    entries: list[TimelineEntry] = []
    created_at: float | None = None
    for record in iter_events(records):
        obj = record.get("object") or {}
        view.apply(str(record["resource"]), str(record["type"]), obj)
        if record["resource"] == "jobs" and frame.real_uid == "" and obj.get("metadata", {}).get("name") == frame.job_name:
            frame.real_uid = str(obj["metadata"].get("uid", ""))
        if record["resource"] not in ("jobs", "pods"):
            continue
        if created_at is None:
            created_at = float(record.get("t", 0.0))
        offset = float(record.get("t", 0.0)) - created_at
        state, _ = observed_state(view, frame)
        actor = own.get(str(record.get("rv")), "controller")
        entries.append(TimelineEntry(frame.case_start + timedelta(seconds=max(offset, 0.0)), actor, _describe(record, frame), state))
    if not entries:
        raise LiveError(f"the trace {path} holds no Job or pod")
    return Timeline(frame.case_start, tuple(entries))


def _describe(record: Mapping[str, Any], frame: CaseFrame) -> str:
    obj = record.get("object") or {}
    if record["resource"] == "jobs":
        return f"Job {record['type'].lower()}"
    uid = obj.get("metadata", {}).get("uid", "")
    name = f"{frame.job_name}-{frame.pod_numbers[uid]}" if uid in frame.pod_numbers else obj.get("metadata", {}).get("name")
    phase = (obj.get("status") or {}).get("phase", "Pending")
    if record["type"] == "DELETED":
        return f"{name} removed"
    terminating = " terminating" if obj.get("metadata", {}).get("deletionTimestamp") else ""
    return f"{name} {phase}{terminating}"


# --- comparing ---------------------------------------------------------------------------------


Row = tuple[float, tuple[int, int, int, int, int], str]


def status_rows(timeline: Timeline) -> list[Row]:
    """The distinct successive Job statuses: (offset, (active, ready, succeeded, failed, terminating), conditions)."""
    rows: list[Row] = []
    for entry in timeline.entries:
        job = entry.state.job()
        if job is None:
            continue
        s = job.status
        counts = (s.active, s.ready or 0, s.succeeded, s.failed, s.terminating or 0)
        conditions = ",".join(f"{c.type}" + (f"({c.reason})" if c.reason else "") for c in s.conditions if c.status == "True")
        if rows and rows[-1][1:] == (counts, conditions):
            continue
        rows.append(((entry.time - timeline.start).total_seconds(), counts, conditions))
    return rows


def final_summary(timeline: Timeline) -> dict[str, Any]:
    job = timeline.final_job()
    if job is None:
        return {"job": "gone"}
    return {
        "conditions": sorted((c.type, c.reason) for c in job.status.conditions if c.status == "True"),
        "succeeded": job.status.succeeded,
        "failed": job.status.failed,
        "active": job.status.active,
        "completedIndexes": job.status.completed_indexes,
    }


def compare_final(model: Timeline, real: Timeline) -> list[str]:
    """Where the real Job's final status differs from the model's prediction."""
    predicted, observed = final_summary(model), final_summary(real)
    return [
        f"final {key}: the model predicts {predicted.get(key)!r}, the real controller reached {observed.get(key)!r}"
        for key in sorted(set(predicted) | set(observed))
        if predicted.get(key) != observed.get(key)
    ]


def aligned_rows(model: Timeline, real: Timeline) -> list[tuple[Row | None, Row | None, bool]]:
    """The two status sequences aligned: (model row, real row, whether they agree); a row only one
    side has stands beside None."""
    model_rows, real_rows = status_rows(model), status_rows(real)
    matcher = difflib.SequenceMatcher(a=[r[1:] for r in model_rows], b=[r[1:] for r in real_rows], autojunk=False)
    out: list[tuple[Row | None, Row | None, bool]] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        left, right = model_rows[i1:i2], real_rows[j1:j2]
        for k in range(max(len(left), len(right))):
            out.append((left[k] if k < len(left) else None, right[k] if k < len(right) else None, tag == "equal"))
    return out
