"""The `job-scenario` steps on a real control plane (`conformance --engine live`, `live run --script`).

Each case runs in a namespace of its own against the real kube-apiserver and Job controller,
step by step, and each `expect` step is judged by the model's own comparison
(`jobmodel.simulation.scenario.check_expect`) on the objects the watches recorded, seen in the case's frame
(the case's namespace, `jobUid` for the real uid, pods named `<job>-<n>` in creation order).

How the steps map onto a real cluster:
- `settle`: wait until no object of the namespace changed for SETTLE_QUIET seconds (the Job
  controller batches its syncs for 1 s, so a quiet spell longer than that means no sync is due).
- `sync`: wait for the controller's next burst of writes and judge the state right after it
  (the first syncJob after the step; the following `settle` runs the rest). The burst ends once
  it holds as many pod and Job writes as the model's syncJob of the observed state makes
  (`predicted_sync_writes`) and then SYNC_BURST passes quietly: a controller short of CPU may
  space one sync's writes further apart than its next sync follows them.
- `advance`: the real clock moves: wait that many real seconds.
- `setPods`, `deletePods`, `updateJob`, `deleteJob`, `createJob`: the same API calls, over the
  wire; the scenario's absolute times in a pod status are moved to the real clock by the offset between the
  case's `start` and the moment the Job was created.
- `setFeatures`: kube-apiserver and kube-controller-manager restart with the new
  `--feature-gates` (a real controller reads its gates at start only, so it also loses its
  in-memory state); `restartController`: kube-controller-manager restarts.
- `controller` tunables: kube-controller-manager starts with the Job controller variables that
  upstream's integration tests set (harness/controlplane/cmd/kube-controller-manager).

A real clock does not stand still: every settle lets 1 to 4 real seconds pass where the scenario's
clock does not move. Before running a case live, the model runs it again with that much time
added at every settle; a case whose outcome changes (it checks a state inside a back-off or
deadline window) needs a clock the real cluster does not have, and is reported unsupported
with the difference the model found. So is a case that turns a gate off that the release locks
on, and a `setFeatures` whose outcome depends on the controller keeping its memory across the
change (checked the same way: the model runs the case with a controller restart at that step).
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import json
import re
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import attrs

from jobmodel.actions import RecordEvent
from jobmodel.adapters.controlplane import ControllerConfig, ControlPlane
from jobmodel.adapters.live import (
    LiveError,
    Recorder,
    Rejected,
    Session,
    View,
    open_session,
    rv_number,
)
from jobmodel.api.field import FieldError
from jobmodel.api.schema import obj
from jobmodel.api.wire import job_from_json, pod_from_json
from jobmodel.errors import InputError, quote
from jobmodel.features import (
    GATE_TABLE,
    VECTOR_DEFAULT_RELEASE,
    FeatureGates,
    parse_kube_version,
    unsettable,
    vector_gates,
)
from jobmodel.simulation.scenario import (
    STEP_KEYS,
    ScenarioState,
    StepFailed,
    check_expect,
    chosen_pods,
    errors_include,
    replacement_job,
    run_scenario,
)
from jobmodel.state import LabelSelector
from jobmodel.timeutil import format_time, parse_time
from jobmodel.transitions import cluster as cl
from jobmodel.transitions.indexes import get_completion_index

SETTLE_QUIET = 1.6
SETTLE_TIMEOUT = 90.0
SYNC_WAIT = 5.0
SYNC_BURST = 0.4
SEEN_TIMEOUT = 10.0
# After a settle, an expectation that does not hold yet waits this long for the controller to act
# again (then settles and judges again, at most LATE_SETTLES times): a controller starved of CPU
# may act after SETTLE_QUIET has passed (its pod updates are batched for a second).
LATE_SYNC_WAIT = 10.0
LATE_SETTLES = 3
# Real seconds a settle may take beyond the scenario's clock; the model checks each.
CLOCK_DRIFTS = (1, 2, 4)
# Real seconds a settle itself lasts before the expectation after it: its quiet spell
# (SETTLE_QUIET) and the controller's reaction; a longer delay falls before or after a settle.
WITHIN_DRIFTS = (1, 2)
# Cases run at once on one control plane (run_many); each mostly waits (quiet spells, advances).
PARALLEL_CASES = 6
TIME_FIELDS = frozenset({"finishedAt", "startedAt", "lastTransitionTime", "lastProbeTime", "startTime"})


class NotFaithful(Exception):
    """A case a real cluster cannot run faithfully; the message says why."""


# --- which cases can run for real -------------------------------------------------------------------


def unsupported_reason(case: Mapping[str, Any], *, release: str, reconfigurable: bool = True) -> str | None:
    """Why a real control plane of `release` cannot run the case faithfully, or None."""
    minor = parse_kube_version(release, "release")
    wanted = parse_kube_version(str(case.get("kubeVersion") or VECTOR_DEFAULT_RELEASE), "kubeVersion")
    if wanted != minor:
        return f"the case is of Kubernetes 1.{wanted}; the control plane runs {release}"
    steps = case.get("steps")
    gate_sets = [obj(case.get("features"), "features")] + [
        obj(s.get("features"), f"steps[{i}].features")
        for i, s in enumerate(steps if isinstance(steps, list) else [])
        if isinstance(s, Mapping) and s.get("do") == "setFeatures"
    ]
    for gates in gate_sets:
        for name, value in gates.items():
            # kube-apiserver refuses a gate the release locks or does not register (no emulation
            # version is set: the release's own gates).
            why = unsettable(name, value, minor) if name in GATE_TABLE and isinstance(value, bool) else None
            if why is not None:
                setting = f"--feature-gates={name}={str(value).lower()}"
                return f"the case sets {name} to {str(value).lower()}, and v{release} refuses {setting}: {why}"
    if not reconfigurable and (any(gate_sets) or case.get("controller") or case.get("garbageCollector")):
        return (
            "the case sets feature gates, controller tunables or a garbage collector, which a cluster given by "
            "--kubeconfig cannot be restarted with (the local control plane can)"
        )
    return model_variant_reason(case)


def model_variant_reason(case: Mapping[str, Any]) -> str | None:
    """Run the case through the model as the real cluster will run it (the controller reacting
    at once to the Job's creation and to each API write; time passing at each settle; a
    controller restart at each setFeatures); the reason if the outcome then differs."""
    try:
        base = run_scenario(case)
    except InputError:
        return None  # malformed: the live run reports it the same way
    if base:
        return None  # the model does not pass the case itself: the real run is the judge
    steps = list(case.get("steps") or [])
    def first_difference(varied: list[Any]) -> str | None:
        differences = run_scenario({**case, "steps": varied})
        return as_written(differences[0], varied, steps) if differences else None

    if any(isinstance(s, Mapping) and s.get("do") == "setFeatures" for s in steps):
        difference = first_difference(with_restart_at_set_features(steps))
        if difference:
            return (
                "a real controller reads its feature gates at start only, so setFeatures restarts it and it loses "
                f"its in-memory state; the model's outcome then differs: {difference}"
            )
    for written, varied in with_a_settle_after_a_write(steps):
        difference = first_difference(varied)
        if difference:
            return (
                f"the case goes on right after an API write, {written}, with no settle between, which a real controller "
                f"races (it reacts within milliseconds of a write); with a settle after the write, the model's own outcome differs: {difference}"
            )
    for drift in CLOCK_DRIFTS:
        for where in ("before", "within", "after") if drift in WITHIN_DRIFTS else ("before", "after"):
            difference = first_difference(with_clock_drift(steps, drift, where))
            if difference:
                return (
                    f"the case needs a clock that stands still: with {drift}s of real time passing {where} a settle "
                    f"(a real settle takes that long), the model's own outcome differs: {difference}"
                )
    return None


def as_written(difference: str, varied: Sequence[Any], steps: Sequence[Any]) -> str:
    """A difference of a varied case (steps added to the case's own, which keep their objects)
    with each step it names numbered as in the case as written, or called an added step."""
    written = {id(step): i for i, step in enumerate(steps)}

    def renumbered(match: re.Match[str]) -> str:
        k = int(match[1])
        i = written.get(id(varied[k])) if k < len(varied) else None
        return f"steps[{i}]" if i is not None else "an added step"

    return re.sub(r"steps\[(\d+)\]", renumbered, difference)


def wait_delivered(recorder: Recorder, result: Mapping[str, Any], resource: str, *, created: bool = False) -> None:
    """Wait until the watches have delivered the write whose result this is (for a creation, the
    object itself; otherwise an object gone since counts too)."""
    meta = result.get("metadata") or {}
    key = f"{meta.get('namespace', '')}/{meta.get('name', '')}"
    want = rv_number(meta.get("resourceVersion"))

    def seen(view: View) -> bool:
        obj = view.objects[resource].get(key)
        if obj is None:
            return not created
        return rv_number(obj["metadata"].get("resourceVersion")) >= want

    recorder.wait_until(seen, SEEN_TIMEOUT)


def with_clock_drift(steps: Sequence[Any], seconds: int, where: str) -> list[Any]:
    """The steps with `advance seconds` before, within or after every settle and sync: within,
    the settle runs again once the time has passed, as a real settle waits out its quiet spell
    while the controller's requeues (an active deadline's) come due."""
    out: list[Any] = []
    for step in steps:
        drift = {"do": "advance", "seconds": seconds}
        is_settle = isinstance(step, Mapping) and step.get("do") in ("settle", "sync")
        if is_settle and where == "before":
            out.append(drift)
        out.append(step)
        if is_settle and where == "within" and step.get("do") == "settle":
            out.extend([drift, step])
        if is_settle and where == "after":
            out.append(drift)
    return out


# Steps that write to the API server: a real controller may act on the write before the next step.
WRITE_STEPS = frozenset({"setPods", "deletePods", "updateJob", "deleteJob", "createJob"})


def with_a_settle_after_a_write(steps: Sequence[Any]) -> list[tuple[str, list[Any]]]:
    """Each API write that the next step does not settle (the Job's creation before the first
    step, then the write steps), named, with the steps given a settle right after it: the
    controller reacting to that write at once."""
    varied = []
    for i, (step, after) in enumerate(itertools.pairwise([{"do": "create the Job"}, *steps])):
        if (i == 0 or _does(step) in WRITE_STEPS) and _does(after) not in ("settle", "sync"):
            written = "the Job's creation (the case judges the Job before the controller's first sync)" if i == 0 else f"steps[{i - 1}] ({_does(step)})"
            varied.append((written, [*steps[:i], {"do": "settle"}, *steps[i:]]))
    return varied


def _does(step: Any) -> Any:
    return step.get("do") if isinstance(step, Mapping) else None


def with_restart_at_set_features(steps: Sequence[Any]) -> list[Any]:
    out: list[Any] = []
    for step in steps:
        out.append(step)
        if isinstance(step, Mapping) and step.get("do") == "setFeatures":
            out.append({"do": "restartController"})
    return out


def config_of(case: Mapping[str, Any]) -> ControllerConfig:
    """The control plane's start-up configuration a case needs."""
    return ControllerConfig(
        dict(obj(case.get("features"), "features")),
        dict(obj(case.get("controller"), "controller")),
        bool(case.get("garbageCollector")),
    )


def restarts_components(case: Mapping[str, Any]) -> bool:
    """The case restarts kube-apiserver or kube-controller-manager (so it cannot share them)."""
    steps = case.get("steps")
    return isinstance(steps, list) and any(
        isinstance(s, Mapping) and s.get("do") in ("setFeatures", "restartController") for s in steps
    )


@attrs.frozen
class CaseBatch:
    """Cases run together on one control plane: `config` set once for all of them, or None for
    one case that configures (and restarts) the plane itself."""

    config: ControllerConfig | None
    members: tuple[int, ...]


def case_batches(cases: Sequence[tuple[int, Mapping[str, Any]]], *, shared: bool) -> list[CaseBatch]:
    """The (index, case) pairs in batches: the cases that restart a component, or all of them
    when the plane is not ours to configure (`shared` false), one by one, first (they take
    longest); then one batch per configuration, the largest first."""
    alone: list[CaseBatch] = []
    groups: dict[str, list[int]] = {}  # configuration (as JSON) -> cases
    for i, case in cases:
        if not shared or restarts_components(case):
            alone.append(CaseBatch(None, (i,)))
        else:
            groups.setdefault(json.dumps(config_of(case).to_json(), sort_keys=True), []).append(i)
    together = [CaseBatch(ControllerConfig.from_json(json.loads(k)), tuple(v)) for k, v in groups.items()]
    return alone + sorted(together, key=lambda b: -len(b.members))


# --- the case's frame ---------------------------------------------------------------------------------


@attrs.define
class CaseFrame:
    """How the real objects map onto the case: namespace, Job uid, pod names, clock."""

    case_namespace: str
    real_namespace: str
    job_name: str
    case_uid: str
    case_start: datetime
    real_start: datetime
    real_uid: str = ""
    earlier_uids: dict[str, str] = attrs.field(factory=dict)  # real -> the case's, of Jobs re-created since
    clock: datetime = attrs.field(default=None)
    pod_numbers: dict[str, int] = attrs.field(factory=dict)  # real pod uid -> n
    pod_keys: dict[str, str] = attrs.field(factory=dict)  # real namespace/name -> the case's
    selector: LabelSelector | None = None

    def __attrs_post_init__(self) -> None:
        if self.clock is None:
            self.clock = self.case_start

    def to_real_time(self, scenario_time: datetime) -> datetime:
        return self.real_start + (scenario_time - self.case_start)

    def translate(self, obj: Mapping[str, Any]) -> dict[str, Any]:
        """A real object in the case's frame: its namespace, the case's Job uid, and the pods
        its text names as namespace/name (the controller's messages, e.g. a pod failure
        policy's) named as the case names them."""
        text = json.dumps(obj)
        for real, case in [(self.real_uid, self.case_uid), *self.earlier_uids.items()]:
            if real:
                text = text.replace(real, case)
        for real, case in sorted(self.pod_keys.items(), key=lambda item: -len(item[0])):
            if real in text:
                text = text.replace(real, case)
        out: dict[str, Any] = json.loads(text)
        meta = out.setdefault("metadata", {})
        if meta.get("namespace") == self.real_namespace:
            meta["namespace"] = self.case_namespace
        return out

    def number_pods(self, view: View) -> None:
        pods = [p for p in view.objects["pods"].values() if p["metadata"].get("namespace") == self.real_namespace]
        new = [p for p in pods if p["metadata"].get("uid") not in self.pod_numbers]
        new.sort(key=lambda p: self.creation_order(view, p))
        for pod in new:
            self.pod_numbers[pod["metadata"]["uid"]] = len(self.pod_numbers)
            real_key = json.dumps(f"{self.real_namespace}/{pod['metadata'].get('name', '')}")[1:-1]
            self.pod_keys[real_key] = json.dumps(f"{self.case_namespace}/{self.model_name(pod)}")[1:-1]

    def creation_order(self, view: View, pod: Mapping[str, Any]) -> tuple[int, int, int, str]:
        """The model's creation order of real pods: the syncs' in turn (their Job writes part
        them), and within one sync by completion index, as the model (and the format) makes a
        sync's pods; upstream creates a batch's pods at once, so etcd's order within it is chance."""
        meta = pod["metadata"]
        rv = view.first_seen_rv.get(meta["uid"], -1)
        index = get_completion_index(meta.get("annotations") or {})
        return (view.sync_of(self.real_namespace, rv), index, rv, str(meta.get("creationTimestamp", "")))

    def model_name(self, pod: Mapping[str, Any]) -> str:
        return f"{self.job_name}-{self.pod_numbers[pod['metadata']['uid']]}"


def observed_state(view: View, frame: CaseFrame) -> tuple[ScenarioState, dict[str, str]]:
    """The recorded objects as the model's ScenarioState in the case's frame, and the map from
    the pods' model names to their real names."""
    frame.number_pods(view)
    jobs = []
    real_job = view.objects["jobs"].get(f"{frame.real_namespace}/{frame.job_name}")
    if real_job is not None:
        job = job_from_json(frame.translate(real_job), "observed Job")
        jobs.append(job)
        frame.selector = job.spec.selector
    pods = []
    names: dict[str, str] = {}
    for real in view.objects["pods"].values():
        if real["metadata"].get("namespace") != frame.real_namespace:
            continue
        translated = frame.translate(real)
        model_name = frame.model_name(real)
        translated["metadata"]["name"] = model_name
        names[model_name] = real["metadata"]["name"]
        pods.append(pod_from_json(translated, f"observed pod {real['metadata']['name']}"))
    pods.sort(key=cl.creation_order)
    events = []
    for event in sorted(view.objects["events"].values(), key=lambda e: rv_number(e["metadata"].get("resourceVersion"))):
        involved = event.get("involvedObject") or event.get("regarding") or {}
        if involved.get("kind") == "Job" and involved.get("name") == frame.job_name:
            events.append(
                cl.ClusterEvent(
                    f"{frame.case_namespace}/{frame.job_name}", str(event.get("type", "")), str(event.get("reason", "")), str(event.get("message", ""))
                )
            )
    cluster = cl.Cluster(now=frame.clock, jobs=tuple(jobs), pods=tuple(pods), events=tuple(events))
    return ScenarioState(cluster, frame.case_namespace, frame.job_name, frame.selector), names


def shift_times(value: Any, frame: CaseFrame) -> Any:
    """A pod status patch with the scenario's absolute times moved to the real clock."""
    if isinstance(value, Mapping):
        out = {}
        for key, item in value.items():
            if key in TIME_FIELDS and isinstance(item, str):
                out[key] = format_time(frame.to_real_time(parse_time(item, key)))
            else:
                out[key] = shift_times(item, frame)
        return out
    if isinstance(value, list):
        return [shift_times(v, frame) for v in value]
    return value


# --- running a case ------------------------------------------------------------------------------------


CaseOutcome = list[str] | Exception  # the differences, or why the case did not run


STEP_FIELD_VALIDATION = "Strict"  # how the model decodes a step's object (strategy.handler_request)


@attrs.frozen
class AsWritten:
    """The Job as the user wrote it (its unknown fields included) and the fieldValidation
    directive the API server decodes it under (kubectl's --validate): what the real cluster is
    sent, where the model simulates the Job as decoded."""

    document: Mapping[str, Any]
    field_validation: str = "Strict"


def in_namespace(document: Mapping[str, Any], namespace: str) -> dict[str, Any]:
    """A manifest document moved into `namespace` (where the run happens, whatever it names)."""
    meta = document.get("metadata")
    return {**document, "metadata": {**(meta if isinstance(meta, Mapping) else {}), "namespace": namespace}}


class LiveScenarioRunner:
    """Runs `job-scenario` cases on a control plane: the local one (restarted with each case's
    gates and tunables) or, with `plane=None`, the cluster of `kubeconfig` as it is."""

    def __init__(
        self,
        kubeconfig: Path,
        plane: ControlPlane | None,
        trace_dir: Path,
        *,
        log: Callable[[str], None] | None = None,
        release: str | None = None,
        as_written: AsWritten | None = None,
    ) -> None:
        self.kubeconfig = kubeconfig
        # The Job the cluster is sent in place of the case's (`live run --script`), if any.
        self.as_written = as_written
        self.plane = plane
        # The release the cluster runs: the local plane's; for a cluster given by kubeconfig, as
        # the caller says (the live commands: the release it reports, or --kube-version).
        if plane is None and release is None:
            raise ValueError("a cluster given by kubeconfig needs the release it runs")
        self.release = plane.release if plane is not None else str(release)
        self.trace_dir = trace_dir
        self.log = log  # progress lines (one per case), for the command line

    def say(self, message: str) -> None:
        if self.log is not None:
            self.log(message)

    def run_many(
        self, cases: Sequence[Mapping[str, Any]], workers: int = PARALLEL_CASES, *, more_planes: Sequence[ControlPlane] = ()
    ) -> list[CaseOutcome]:
        """Run many cases, several at a time where they can share the control plane: those with
        the same gates, tunables and garbage collector, none of which restarts a component
        (setFeatures, restartController), run together, each in its own namespace; the others
        run one by one. With `more_planes` (local control planes besides this runner's), each
        plane takes the next batch as it frees, so batches that need different configurations
        run side by side. The outcomes are in the order of `cases`."""
        unsupported: dict[int, CaseOutcome] = {}
        batches = self.batches(cases, unsupported)
        return self.run_batches(cases, batches, unsupported, workers, more_planes=more_planes)

    def run_batches(
        self,
        cases: Sequence[Mapping[str, Any]],
        batches: Sequence[CaseBatch],
        unsupported: Mapping[int, CaseOutcome],
        workers: int = PARALLEL_CASES,
        *,
        more_planes: Sequence[ControlPlane] = (),
    ) -> list[CaseOutcome]:
        """run_many on batches already made (`batches`, with what it found `unsupported`)."""
        from concurrent.futures import ThreadPoolExecutor

        outcomes: dict[int, CaseOutcome] = dict(unsupported)
        runners = [self] + [LiveScenarioRunner(p.kubeconfig, p, self.trace_dir, log=self.log) for p in more_planes]
        pending = list(reversed(batches))  # popped from the end: the first batch first
        lock = threading.Lock()

        def next_batch() -> CaseBatch | None:
            with lock:
                return pending.pop() if pending else None

        def lane(runner: LiveScenarioRunner) -> None:
            try:
                while (batch := next_batch()) is not None:
                    for i, outcome in runner.run_batch(batch, cases, workers):
                        outcomes[i] = outcome
            except BaseException:
                with lock:  # an unexpected failure (a plane that will not restart) ends the run soon
                    pending.clear()
                raise

        with ThreadPoolExecutor(max_workers=len(runners)) as lanes:
            for future in [lanes.submit(lane, r) for r in runners]:
                future.result()
        return [outcomes[i] for i in range(len(cases))]

    def batches(self, cases: Sequence[Mapping[str, Any]], unsupported: dict[int, CaseOutcome] | None = None) -> list[CaseBatch]:
        """The batches (case_batches) of the cases this runner can run faithfully; the others
        go into `unsupported` with the reason."""
        supported = []
        for i, case in enumerate(cases):
            try:
                reason = unsupported_reason(case, reconfigurable=self.plane is not None, release=self.release)
                config_of(case)  # a malformed configuration is this case's error, not the file's
            except InputError as err:
                if unsupported is not None:
                    unsupported[i] = err
                continue
            if reason is None:
                supported.append((i, case))
            elif unsupported is not None:
                unsupported[i] = NotFaithful(reason)
        return case_batches(supported, shared=self.plane is not None)

    def run_batch(self, batch: CaseBatch, cases: Sequence[Mapping[str, Any]], workers: int) -> list[tuple[int, CaseOutcome]]:
        """Run one batch of `case_batches` on this runner's control plane: a shared one after
        configuring the plane once, its cases at once; a case alone configuring it itself."""
        from concurrent.futures import ThreadPoolExecutor

        def attempt(i: int) -> tuple[int, CaseOutcome]:
            try:
                return i, self.run(cases[i], reconfigure=batch.config is None)
            except (NotFaithful, InputError, LiveError) as err:
                return i, err

        if batch.config is None:
            return [attempt(i) for i in batch.members]
        assert self.plane is not None
        self.plane.reconfigure(batch.config)
        with ThreadPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(attempt, batch.members))

    def run(
        self, case: Mapping[str, Any], *, trace: Path | None = None, check_support: bool = True, reconfigure: bool = True
    ) -> list[str]:
        """The differences of the case's expect steps on the real cluster (empty: it passed).
        Raises NotFaithful when the case cannot run faithfully here (unless `check_support` is off).
        Without `reconfigure`, the control plane is taken as configured for the case already."""
        if check_support:
            reason = unsupported_reason(case, reconfigurable=self.plane is not None, release=self.release)
            if reason is not None:
                raise NotFaithful(reason)
        job = case.get("job")
        if not isinstance(job, Mapping) or not isinstance(job.get("metadata"), Mapping):
            raise InputError("job", "required (a Job with metadata)")
        steps = case.get("steps")
        if not isinstance(steps, list):
            raise InputError("steps", "required (a list)")
        config = config_of(case)
        if self.plane is not None:
            if reconfigure:
                self.plane.reconfigure(config)
        elif config != ControllerConfig():
            raise NotFaithful("the case sets feature gates, controller tunables or a garbage collector: only the local control plane can be restarted with them")
        case_namespace = str(job["metadata"].get("namespace") or "default")
        real_namespace = f"{case_namespace[:40]}-{secrets.token_hex(4)}"
        trace = trace or self.trace_dir / f"{real_namespace}.jsonl"
        started = time.monotonic()
        self.say(f"{case.get('name')}: running in namespace {real_namespace} (trace {trace})")
        session = open_session(
            self.kubeconfig,
            real_namespace,
            trace,
            {"case": case.get("name"), "job": str(job["metadata"].get("name", "")), "kubeVersion": self.release, "controller": config.to_json()},
        )
        try:
            differences = self._run_steps(session, case, dict(job), steps, case_namespace)
        finally:
            session.recorder.stop()
            with contextlib.suppress(LiveError, Rejected):
                session.cluster.delete_namespace(real_namespace)
            session.cluster.close()
        verdict = "passed" if not differences else f"{len(differences)} difference(s)"
        self.say(f"{case.get('name')}: {verdict} in {time.monotonic() - started:.1f}s")
        return differences

    def _run_steps(
        self, session: Session, case: Mapping[str, Any], job: dict[str, Any], steps: list[Any], case_namespace: str
    ) -> list[str]:
        manifest = in_namespace(copy.deepcopy(job), session.namespace)
        created = self._create_job(session, manifest)
        frame = CaseFrame(
            case_namespace,
            session.namespace,
            str(job["metadata"]["name"]),
            str(case.get("jobUid", "")),
            parse_time(case.get("start"), "start"),
            datetime.now(UTC),
            real_uid=str(created["metadata"]["uid"]),
        )
        features = dict(obj(case.get("features"), "features"))
        runner = _CaseRun(self, session, frame, features, vector_gates(case.get("kubeVersion"), None))
        differences: list[str] = []
        for i, step in enumerate(steps):
            if not isinstance(step, Mapping):
                raise InputError(f"steps[{i}]", "a step is an object")
            path = f"steps[{i}] ({step.get('do')})"
            if not isinstance(step.get("do"), str) or step["do"] not in STEP_KEYS:
                raise InputError(f"{path}.do", f"unknown step {quote(step.get('do'))}")
            try:
                differences.extend(runner.step(step, path))
            except StepFailed as err:
                differences.append(str(err))
                break
        return differences

    def _create_job(self, session: Session, manifest: Mapping[str, Any]) -> dict[str, Any]:
        try:
            if self.as_written is None:
                created = session.cluster.create_job(session.namespace, manifest)
                session.recorder.action("user", "create the Job", created)
            else:
                document = in_namespace(self.as_written.document, session.namespace)
                created, warned = session.cluster.create_job_as_written(session.namespace, document, self.as_written.field_validation)
                session.recorder.action("user", "create the Job", created, fieldValidation=self.as_written.field_validation, warnings=warned)
        except Rejected as err:
            raise InputError("job", f"the API server rejects the Job: {err}") from None
        # The first step may judge the Job as created (an expect before any settle).
        wait_delivered(session.recorder, created, "jobs", created=True)
        return created


def predicted_sync_writes(state: ScenarioState, gates: FeatureGates) -> int:
    """How many pod and Job writes (its accepted API calls, events aside) the model's syncJob of
    the observed state makes, on the real clock (the objects' times are real); 0 when the model
    cannot sync it (a Job the API server did not default: then the burst is its quiet spell)."""
    cluster = attrs.evolve(state.cluster, now=datetime.now(UTC), features=gates)
    if cluster.job(state.namespace, state.name) is None:
        return 0
    try:
        _, result = cl.controller_sync(cluster, f"{state.namespace}/{state.name}")
    except InputError:
        return 0
    return sum(1 for a in result.actions if not isinstance(a, RecordEvent) and getattr(a, "accepted", False))


def written_since(writes: int, count: int) -> Callable[[View], bool]:
    """The view has seen `count` more pod and Job writes than `writes`."""

    def written(view: View) -> bool:
        return view.writes - writes >= count

    return written


def changed_since(changes: int) -> Callable[[View], bool]:
    """The view has seen more changes than `changes`."""

    def changed(view: View) -> bool:
        return view.changes > changes

    return changed


class _CaseRun:
    """The steps of one case on one session."""

    def __init__(
        self, runner: LiveScenarioRunner, session: Session, frame: CaseFrame, features: dict[str, Any], gates: FeatureGates
    ) -> None:
        self.runner = runner
        self.release_gates = gates  # the case's release, before its features
        self.session = session
        self.cluster = session.cluster
        self.recorder = session.recorder
        self.frame = frame
        self.features = features
        self.frozen: ScenarioState | None = None  # the state a `sync` step observed
        self.settled = False  # the last step other than `expect` was a `settle`

    def state(self) -> tuple[ScenarioState, dict[str, str]]:
        return observed_state(self.recorder.snapshot(), self.frame)

    def step(self, step: Mapping[str, Any], path: str) -> list[str]:
        do = str(step["do"])
        if do != "expect":
            self.frozen = None
            self.settled = do == "settle"
        handlers = {
            "settle": self._settle,
            "sync": self._sync,
            "advance": self._advance,
            "setPods": self._set_pods,
            "deletePods": self._delete_pods,
            "updateJob": self._update_job,
            "deleteJob": self._delete_job,
            "createJob": self._create_job,
            "setFeatures": self._set_features,
            "restartController": self._restart_controller,
            "expect": self._expect,
        }
        return handlers[do](step, path)

    def _wait_seen(self, result: Mapping[str, Any], resource: str) -> None:
        wait_delivered(self.recorder, result, resource)

    # steps
    def _settle(self, step: Mapping[str, Any], path: str) -> list[str]:
        if not self.recorder.wait_quiet(SETTLE_QUIET, SETTLE_TIMEOUT):
            return [f"{path}: the cluster kept changing for {SETTLE_TIMEOUT:g}s"]
        return []

    def _sync(self, step: Mapping[str, Any], path: str) -> list[str]:
        view = self.recorder.snapshot()
        writes = predicted_sync_writes(observed_state(view, self.frame)[0], self.release_gates.with_overrides(self.features))
        if self.recorder.wait_until(changed_since(view.changes), SYNC_WAIT):
            self.recorder.wait_until(written_since(view.writes, writes), SYNC_WAIT)
            self.recorder.wait_quiet(SYNC_BURST, SYNC_WAIT)
        self.frozen = self.state()[0]
        return []

    def _advance(self, step: Mapping[str, Any], path: str) -> list[str]:
        seconds = step.get("seconds")
        if isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds < 0:
            raise InputError(f"{path}.seconds", "expected a non-negative number of seconds")
        self.recorder.action("clock", f"wait {seconds:g}s")
        time.sleep(float(seconds))
        self.frame.clock = self.frame.clock + timedelta(seconds=float(seconds))
        return []

    def _set_pods(self, step: Mapping[str, Any], path: str) -> list[str]:
        state, names = self.state()
        patch = step.get("status")
        if not isinstance(patch, Mapping):
            raise InputError(f"{path}.status", "required (an object)")
        real_patch = shift_times(patch, self.frame)
        for pod in chosen_pods(state, step, path):
            name = names[pod.name]
            try:
                result = self.cluster.patch_pod_status(self.session.namespace, name, real_patch)
            except Rejected as err:
                return [f"{path}: the API server refused the status of {pod.name}: {err}"]
            self.recorder.action("kubelet", f"status of {name}", result, patch=real_patch)
            self._wait_seen(result, "pods")
        return []

    def _delete_pods(self, step: Mapping[str, Any], path: str) -> list[str]:
        state, names = self.state()
        for pod in chosen_pods(state, step, path):
            name = names[pod.name]
            try:
                result = self.cluster.delete_pod(self.session.namespace, name)
            except Rejected as err:
                if err.status == 404:
                    continue
                return [f"{path}: the API server refused to delete {pod.name}: {err}"]
            self.recorder.action("user", f"delete pod {name}", result)
            self._wait_seen(result, "pods")
        return []

    def _update_job(self, step: Mapping[str, Any], path: str) -> list[str]:
        patch = step.get("patch")
        if not isinstance(patch, Mapping):
            raise InputError(f"{path}.patch", "required (an object)")
        try:
            result = self.cluster.patch_job(self.session.namespace, self.frame.job_name, patch)
        except Rejected as err:
            self.recorder.action("user", "update the Job (refused)", None, patch=dict(patch), error=str(err))
            if not step.get("rejected"):
                return [f"{path}: the update was rejected: {err}"]
            errors = [FieldError(reason, field, detail=message) for field, reason, message in err.causes]
            return errors_include(step.get("errorsInclude") or [], errors, path)
        self.recorder.action("user", "update the Job", result, patch=dict(patch))
        self._wait_seen(result, "jobs")
        if step.get("rejected"):
            return [f"{path}: the update was expected to be rejected, but it was accepted"]
        return []

    def _delete_job(self, step: Mapping[str, Any], path: str) -> list[str]:
        policy = str(step.get("propagationPolicy", "Orphan"))
        if policy not in cl.PROPAGATION_POLICIES:
            raise InputError(f"{path}.propagationPolicy", f"expected one of {', '.join(cl.PROPAGATION_POLICIES)}")
        try:
            result = self.cluster.delete_job(self.session.namespace, self.frame.job_name, policy)
        except Rejected as err:
            return [f"{path}: the API server refused to delete the Job: {err}"]
        self.recorder.action("user", f"delete the Job ({policy})", result)
        return []

    def _create_job(self, step: Mapping[str, Any], path: str) -> list[str]:
        replacement, job_uid = replacement_job(self.state()[0], step, path)
        manifest = in_namespace(replacement, self.session.namespace)
        try:
            # As written, decoded strictly as the model decodes it (cluster.create_job): the API
            # server's own default, Warn, would drop an unknown field the model refuses.
            created, warned = self.cluster.create_job_as_written(self.session.namespace, manifest, STEP_FIELD_VALIDATION)
        except Rejected as err:
            self.recorder.action("user", "create the Job again (refused)", None, error=str(err))
            return [f"{path}: the create was rejected: {err}"]
        self.recorder.action("user", "create the Job again", created, fieldValidation=STEP_FIELD_VALIDATION, warnings=warned)
        self.frame.earlier_uids[self.frame.real_uid] = self.frame.case_uid
        self.frame.real_uid, self.frame.case_uid = str(created["metadata"]["uid"]), job_uid
        wait_delivered(self.recorder, created, "jobs", created=True)
        return []

    def _set_features(self, step: Mapping[str, Any], path: str) -> list[str]:
        features = step.get("features")
        if not isinstance(features, Mapping):
            raise InputError(f"{path}.features", "required (an object)")
        plane = self.runner.plane
        assert plane is not None  # unsupported_reason refuses gates without a local control plane
        self.features.update(features)
        self.recorder.action(
            "user", f"restart kube-apiserver and kube-controller-manager with {dict(features)}", features=dict(self.features)
        )
        plane.reconfigure(attrs.evolve(plane.config, feature_gates=dict(self.features)))
        return []

    def _restart_controller(self, step: Mapping[str, Any], path: str) -> list[str]:
        plane = self.runner.plane
        if plane is None:
            raise NotFaithful("restartController needs the local control plane (it restarts kube-controller-manager)")
        self.recorder.action("user", "restart kube-controller-manager")
        plane.restart_component("kube-controller-manager")
        return []

    def _expect(self, step: Mapping[str, Any], path: str) -> list[str]:
        if self.frozen is not None:
            return check_expect(self.frozen, step, path)
        errors = check_expect(self.state()[0], step, path)
        for _ in range(LATE_SETTLES if self.settled else 0):
            if not errors:
                break
            before = self.recorder.snapshot().changes
            if not self.recorder.wait_until(changed_since(before), LATE_SYNC_WAIT):
                break
            if self._settle(step, path):
                break
            errors = check_expect(self.state()[0], step, path)
        return errors
