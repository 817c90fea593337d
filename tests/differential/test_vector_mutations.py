"""The model against upstream's code on small mutations of upstream's own sync test cases (the
job-sync and cronjob-sync conformance vectors: TestControllerSyncJob, TestSyncJobWith*,
TestControllerV2SyncCronJob, ...), so that the neighbourhood of the cases upstream thought worth
testing, built as its tests build them, is compared too: a pod's phase, exit code, index,
deletion or finalizer changed, a pod repeated or dropped, a gate flipped, the Job suspended,
resized or past its deadline, expectations and back-off records; a CronJob's policy, deadline,
history limits, time zone, clock, Jobs finished or gone, create errors.

A divergence is written to tests/differential/found/ as a vector of upstream's answer.

And the same for upstream's API test cases (the validation and defaulting vectors: TestValidateJob,
TestValidateCronJobSpec, TestJobStrategy_*, TestSetDefaultJob, ...): a value changed, a field
removed, a list's element dropped or repeated, a field grafted from another vector's object,
compared as tests/differential/test_api.py compares generated manifests (validation messages
whole).
"""

from __future__ import annotations

import copy
import functools
import json
import os
import re
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from jobmodel.conformance import cronjob_sync, job_sync
from jobmodel.conformance.agreement import judge
from jobmodel.errors import InputError
from jobmodel.features import GATE_TABLE
from jobmodel.timeutil import format_time, parse_time
from tests.conformance import Cases, vector_cases, vector_inputs
from tests.differential.conftest import EveryRelease, ReleaseUpstream
from tests.differential.test_api import check_defaulting, check_validation
from tests.json_paths import Path_, get_at, paths

HERE = Path(__file__).resolve().parent
EXAMPLES = 10_000 if os.environ.get("HYPOTHESIS_PROFILE") == "long" else 1000
GATES = ("JobPodReplacementPolicy", "JobSuccessPolicy", "JobManagedBy", "JobBackoffLimitPerIndex", "PodIndexLabel")


def vectors(*names: str) -> list[dict[str, Any]]:
    """The cases of the bundled and extra vector files of a suite written for upstream's tests
    of the model's reference release (no other `kubeVersion`)."""
    cases = vector_cases(*names)
    return Cases({k: v for k, v in c.items() if k != "expect"} for c in cases if c.get("kubeVersion") in (None, "1.32"))


# (The cases of a Job gone from the cache have nothing to mutate.)
JOB_SYNC = Cases(c for c in vectors("job_sync_core.json", "job_sync_policies.json", "job_sync_extra.json") if c.get("job"))
CRONJOB_SYNC = vectors("cronjob_sync.json", "cronjob_sync_extra.json")


def shifted(value: str, seconds: int) -> str:
    try:
        return format_time(parse_time(value, "time") + timedelta(seconds=seconds))
    except OverflowError:
        return value


def twin_suffix(name: str, taken: list[str]) -> str:
    """A suffix giving a repeated pod a fresh name: once a pod was dropped, an earlier twin may
    hold the obvious one (a case with two pods of one name describes no cluster, and the model
    refuses it)."""
    n = len(taken)
    while f"{name}-{n}" in taken:
        n += 1
    return f"-{n}"


@st.composite
def job_sync_mutation(draw: st.DrawFn, case: dict[str, Any]) -> str:
    """One change to a job-sync case (in place); its name, for event()."""
    job = case["job"]
    pods = case["pods"] = case.get("pods") or []
    status = job["status"] = job.get("status") or {}
    spec = job["spec"]
    kinds = ["gate", "suspend", "parallelism", "failed", "expectations", "backoffLimit", "deadline", "backoff", "graft spec", "graft status"]
    kinds += ["phase", "drop pod", "repeat pod", "terminating", "no finalizer", "exit code", "disruption", "index", "graft pod"] if pods else []
    kind = draw(st.sampled_from(kinds))
    pod = draw(st.sampled_from(pods)) if pods else {}
    if kind.startswith("graft"):
        return graft_from_another_job_sync_case(draw, case, kind)
    if kind == "gate":
        features = dict(case.get("features") or {})
        gate = draw(st.sampled_from(GATES))
        features[gate] = not features.get(gate, True)
        case["features"] = features
    elif kind == "suspend":
        spec["suspend"] = not spec.get("suspend", False)
    elif kind == "parallelism":
        spec["parallelism"] = draw(st.integers(0, 5))
    elif kind == "failed":
        status["failed"] = draw(st.integers(0, 7))
    elif kind == "expectations":
        case.setdefault("controller", {})["expectations"] = {"add": draw(st.integers(0, 2)), "del": draw(st.integers(0, 2))}
    elif kind == "backoffLimit":
        spec["backoffLimit"] = draw(st.integers(0, 3))
    elif kind == "deadline":
        status["startTime"] = shifted(case["now"], -draw(st.sampled_from([5, 60, 7200])))
        spec["activeDeadlineSeconds"] = draw(st.sampled_from([10, 100, 10000]))
    elif kind == "backoff":
        failures = draw(st.integers(0, 3))
        case.setdefault("controller", {})["backoff"] = {"failuresAfterLastSuccess": failures, "lastFailureTime": shifted(case["now"], -10)}
    elif kind == "phase":
        pod["status"]["phase"] = draw(st.sampled_from(["Pending", "Running", "Succeeded", "Failed", "Unknown"]))
    elif kind == "drop pod":
        pods.remove(pod)
    elif kind == "repeat pod":
        twin = copy.deepcopy(pod)
        suffix = twin_suffix(pod["metadata"]["name"], [p["metadata"]["name"] for p in pods])
        twin["metadata"]["name"] += suffix
        twin["metadata"]["uid"] = str(twin["metadata"].get("uid", "")) + suffix
        pods.append(twin)
    elif kind == "terminating":
        pod["metadata"]["deletionTimestamp"] = case["now"]
    elif kind == "no finalizer":
        pod["metadata"].pop("finalizers", None)
    elif kind == "exit code":
        code = draw(st.sampled_from([0, 1, 5, 42, 137]))
        for container in pod["status"].get("containerStatuses") or []:
            if "terminated" in (container.get("state") or {}):
                container["state"]["terminated"]["exitCode"] = code
    elif kind == "disruption":
        condition = {"type": "DisruptionTarget", "status": "True", "lastTransitionTime": case["now"]}
        pod["status"]["conditions"] = [*(pod["status"].get("conditions") or []), condition]
    else:
        pod["metadata"].setdefault("annotations", {})["batch.kubernetes.io/job-completion-index"] = str(draw(st.integers(0, 4)))
    return kind


def graft_from_another_job_sync_case(draw: st.DrawFn, case: dict[str, Any], kind: str) -> str:
    """A field of another case's Job spec or status (a pod failure policy, a success policy, a
    per-index limit, a completion mode, counters, conditions, index sets), or another case's pod
    made one of this Job's (its owner reference and labels), put in this case: features upstream's
    tests exercise one at a time meet. Its name, for event()."""
    donor = draw(st.sampled_from(JOB_SYNC))
    if kind == "graft pod":
        donated = copy.deepcopy(draw(st.sampled_from(donor.get("pods") or [None])))
        if donated is None:
            return "graft pod (none)"
        pods = case["pods"]
        mine = draw(st.sampled_from(pods))["metadata"]
        meta = donated["metadata"]
        for key in ("ownerReferences", "labels", "namespace"):
            if key in mine:
                meta[key] = copy.deepcopy(mine[key])
        suffix = twin_suffix(meta.get("name", "pod"), [p["metadata"].get("name", "") for p in pods])
        meta["name"] = meta.get("name", "pod") + suffix
        meta["uid"] = str(meta.get("uid", "")) + suffix
        pods.append(donated)
        return kind
    part = "spec" if kind == "graft spec" else "status"
    fields = sorted(k for k in (donor["job"].get(part) or {}) if k not in ("selector", "template"))
    if not fields:
        return f"{kind} (none)"
    key = draw(st.sampled_from(fields))
    # An Indexed Job has its completions (API validation requires them; the controller reads them).
    keys = [key, "completions"] if key == "completionMode" and "completions" in donor["job"][part] else [key]
    for k in keys:
        case["job"].setdefault(part, {})[k] = copy.deepcopy(donor["job"][part][k])
    return f"{kind} {key}"


@st.composite
def cronjob_sync_mutation(draw: st.DrawFn, case: dict[str, Any]) -> str:
    """One change to a cronjob-sync case (in place); its name, for event()."""
    cron_job = case["cronJob"]
    jobs = case["jobs"] = case.get("jobs") or []
    status = cron_job["status"] = cron_job.get("status") or {}
    spec = cron_job["spec"]
    kinds = ["policy", "suspend", "deadline", "clock", "no active", "history", "zone", "last schedule", "create error", "last success", "graft spec"]
    kinds += ["finish job", "drop job"] if jobs else []
    kind = draw(st.sampled_from(kinds))
    if kind == "graft spec":
        # A field of another case's CronJob spec (its schedule, zone, deadline, policy, limits).
        donor = draw(st.sampled_from(CRONJOB_SYNC))["cronJob"].get("spec") or {}
        fields = sorted(k for k in donor if k != "jobTemplate")
        if fields:
            key = draw(st.sampled_from(fields))
            spec[key] = copy.deepcopy(donor[key])
            return f"graft spec {key}"
        return "graft spec (none)"
    if kind == "policy":
        spec["concurrencyPolicy"] = draw(st.sampled_from(["Allow", "Forbid", "Replace"]))
    elif kind == "suspend":
        spec["suspend"] = not spec.get("suspend", False)
    elif kind == "deadline":
        spec["startingDeadlineSeconds"] = draw(st.sampled_from([0, 10, 100, 3600, 200000]))
    elif kind == "clock":
        case["now"] = shifted(case["now"], draw(st.sampled_from([-3600, -61, -1, 1, 59, 3600, 86400])))
    elif kind == "no active":
        status.pop("active", None)
    elif kind == "history":
        spec["successfulJobsHistoryLimit"], spec["failedJobsHistoryLimit"] = draw(st.integers(0, 2)), draw(st.integers(0, 2))
    elif kind == "zone":
        spec["timeZone"] = draw(st.sampled_from(["America/New_York", "Asia/Kolkata", "UTC"]))
    elif kind == "last schedule":
        if status.get("lastScheduleTime"):
            status["lastScheduleTime"] = shifted(status["lastScheduleTime"], draw(st.sampled_from([-86400, -3600, 60])))
    elif kind == "create error":
        case.setdefault("controller", {})["jobCreateError"] = draw(st.sampled_from(["AlreadyExists", "quota exceeded"]))
    elif kind == "last success":
        status["lastSuccessfulTime"] = shifted(case["now"], -draw(st.sampled_from([0, 600, 7200])))
    elif kind == "finish job":
        job = draw(st.sampled_from(jobs))
        job.setdefault("status", {})["conditions"] = [{"type": draw(st.sampled_from(["Complete", "Failed"])), "status": "True"}]
        if draw(st.booleans()):
            job["status"]["completionTime"] = case["now"]
    else:
        jobs.remove(draw(st.sampled_from(jobs)))
    return kind


def walks_from_the_year_1(case: dict[str, Any]) -> bool:
    """A CronJob with no creation or last schedule time: its earliest time is the year 1, and
    upstream's walk of the missed starts from there runs for minutes unless the schedule is one
    it steps over quickly in UTC (the strategies draw such walks on purpose, with those schedules
    only: jobmodel/strategies/cron.py FAR_SCHEDULES)."""
    cron_job = case.get("cronJob") or {}
    earliest = (cron_job.get("status") or {}).get("lastScheduleTime") or (cron_job.get("metadata") or {}).get("creationTimestamp")
    return not earliest


@st.composite
def mutated(draw: st.DrawFn, cases: list[dict[str, Any]], mutation: Callable[[dict[str, Any]], st.SearchStrategy[str]]) -> dict[str, Any]:
    case: dict[str, Any] = copy.deepcopy(draw(st.sampled_from(cases)))
    for _ in range(draw(st.integers(1, 3))):
        event(f"mutation: {draw(mutation(case))}")
    case["name"] = f"mutated: {case['name']}"
    return case


def check(upstream: ReleaseUpstream, suite: str, case: dict[str, Any], model: dict[str, Any]) -> None:
    verdict = judge(suite, case, model, lambda c: upstream.outcome(suite, c))
    event(f"{suite}: {verdict.path}")
    if not verdict.agrees:
        found = HERE / "found"
        found.mkdir(exist_ok=True)
        path = found / f"{suite}-mutation-divergence.json"
        doc = {"format": "jobmodel-conformance/1", "suite": suite, "source": "tests/differential", "cases": [{**case, "expect": dict(verdict.reference)}]}
        path.write_text(json.dumps(doc, indent=1))
        pytest.fail(f"model != upstream ({verdict.path}): {list(verdict.differences)}; case saved in {path}")


@settings(max_examples=EXAMPLES)
@given(mutated(JOB_SYNC, job_sync_mutation))
def test_mutated_job_sync_vectors_agree_with_upstream(upstreams: EveryRelease, mutant: dict[str, Any]) -> None:
    for upstream in upstreams:
        case = upstream.case(mutant, emulation=True)
        check(upstream, "job-sync", case, job_sync.model_outcome(case))


@settings(max_examples=EXAMPLES)
@given(mutated(CRONJOB_SYNC, cronjob_sync_mutation))
def test_mutated_cronjob_sync_vectors_agree_with_upstream(upstreams: EveryRelease, mutant: dict[str, Any]) -> None:
    assume(not walks_from_the_year_1(mutant))
    for upstream in upstreams:
        case = upstream.case(mutant)
        check(upstream, "cronjob-sync", case, cronjob_sync.model_outcome(case))


def test_a_repeated_pod_takes_a_name_no_pod_has() -> None:
    # Found by the long profile: repeat pod-0 (pod-0-2), drop pod-1, repeat pod-0 again.
    assert twin_suffix("pod-0", ["pod-0", "pod-0-2"]) == "-3"
    assert twin_suffix("pod-0", ["pod-0", "pod-1"]) == "-2"


def test_the_vectors_are_found() -> None:
    assert len(JOB_SYNC) > 100 and len(CRONJOB_SYNC) > 50


# --- validation and defaulting: upstream's own objects, mutated ------------------------------------

API_FILES = ("validation.json", "validation_extra.json", "validation_newer_extra.json", "validation_status_extra.json")


VALIDATION = vector_inputs(*API_FILES)  # at the run's release
DEFAULTING = vector_inputs("defaulting.json", "defaulting_extra.json")

# Values upstream's validation tells apart: bounds of int32 fields and of the Job's limits, names
# and label values at their length limits, the enumerations of batch/v1 and core/v1 the vectors
# use, completion-index ranges, schedules and time zones.
INTS = (-1, 0, 1, 2, 3, 5, 10, 100, 10_000, 100_000, 100_001, 2_147_483_647)
WORDS = (
    "", "a", "A", "a-b", "a_b", "-a", "a.b", "x" * 63, "x" * 64, "x" * 253, "x" * 254,
    "Never", "OnFailure", "Always", "Indexed", "NonIndexed", "Ignore", "FailJob", "FailIndex", "Count",
    "In", "NotIn", "DisruptionTarget", "Ready", "True", "False", "Unknown", "TerminatingOrFailed", "Failed",
    "Complete", "SuccessCriteriaMet", "FailureTarget", "Suspended", "kubernetes.io/job-controller",
    "example.com/controller", "0", "1", "0-2", "0,2-4", "3-1", "1,1", "-1", "0-", "*/5 * * * *", "@hourly",
    "TZ=UTC 0 * * * *", "0 0 31 2 *", "Allow", "Forbid", "Replace", "UTC", "Etc/UTC", "Local",
    "America/New_York",
)


QUANTITY = re.compile(r"[0-9.]+(m|Ki|Mi|Gi|k|M|G)?")
QUANTITIES = ("0", "1", "100m", "0.5", "1Gi", "500Mi", "2", "1k")


def is_time(text: str) -> bool:
    try:
        parse_time(text, "time")
    except InputError:
        return False
    return True


def graft(into: Any, donor: Any, path: Path_) -> None:
    """The donor's value at `path` put in `into`: at the first part of the path `into` lacks
    (the donor's whole subtree there), else at the path itself."""
    for depth, key in enumerate(path):
        here = get_at(into, path[:depth])
        present = key in here if isinstance(here, dict) else isinstance(key, int) and key < len(here)
        if not present or depth == len(path) - 1:
            value = copy.deepcopy(get_at(donor, path[: depth + 1]))
            if isinstance(here, dict) and isinstance(key, str):
                here[key] = value
            elif isinstance(here, list) and isinstance(key, int):
                here.insert(min(key, len(here)), value)  # an element more (or replaced, below)
                if present:
                    del here[key + 1]
            return
        if not isinstance(get_at(into, path[: depth + 1]), (dict, list)):
            return


@st.composite
def leaf_value(draw: st.DrawFn, old: Any) -> Any:
    """Another value of the same JSON type as `old` (a boolean flipped, a number or text from
    the tables or the old one changed)."""
    if isinstance(old, bool):
        return not old
    if isinstance(old, int):
        # Within int32: how each decoder words an overflow is not what is compared here.
        return draw(st.sampled_from([v for v in (*INTS, old - 1, old + 1, -old) if -(2**31) <= v < 2**31]))
    if isinstance(old, str) and is_time(old):
        # A time stays a time: how each decoder words a malformed one is not what is compared here.
        return shifted(old, draw(st.sampled_from([-86_400, -1, 1, 3600])))
    if isinstance(old, str) and QUANTITY.fullmatch(old):
        return draw(st.sampled_from(QUANTITIES))
    if isinstance(old, str):
        return draw(st.sampled_from([*WORDS, old.upper(), f"{old}-", old[:1], old + "x" * 60, f" {old}"]))
    return draw(st.sampled_from([*INTS, *WORDS]))


@st.composite
def api_mutation(draw: st.DrawFn, case: dict[str, Any], corpus: list[dict[str, Any]]) -> str:
    """One change to a validation or defaulting case (in place): a value changed, a field
    removed, a list's element dropped or repeated, or a field taken from another vector's object
    of the same kind (so that the features upstream's tests exercise one at a time meet); for an
    update, to the new object, the old one, or the new made the old. Its name, for event()."""
    if draw(st.integers(0, 7)) == 0:
        # A gate of the model's table flipped (dropped at the run's release where it cannot be set).
        gate = draw(st.sampled_from(sorted(GATE_TABLE)))
        features = case["features"] = dict(case.get("features") or {})
        features[gate] = not features.get(gate, True)
        return f"gate {gate}"
    side = "object"
    if "oldObject" in case and draw(st.integers(0, 3)) == 0:
        if draw(st.booleans()):
            case["oldObject"] = copy.deepcopy(case["object"])
            return "old = new"
        side = "oldObject"
    obj = case[side]
    kind = draw(st.sampled_from(["value", "value", "remove", "list", "graft", "graft"]))
    if kind == "graft":
        donors = [c for c in corpus if c.get("kind") == case.get("kind") and isinstance(c.get("object"), dict)]
        donor = draw(st.sampled_from(donors))["object"]
        donated = [p for p in paths(donor) if p[0] in ("spec", "status", "metadata")]
        if donated:
            path = draw(st.sampled_from(donated))
            graft(obj, donor, path)
            return f"graft {path[0]}.{path[1] if len(path) > 1 else ''}"
        return "graft (none)"
    # The object's apiVersion and kind stay: they choose the decoder, not what validation checks.
    candidates = [p for p in paths(obj) if p[0] not in ("apiVersion", "kind")]
    if kind == "list":
        candidates = [p for p in candidates if isinstance(get_at(obj, p), list) and get_at(obj, p)]
    elif kind == "value":
        candidates = [p for p in candidates if not isinstance(get_at(obj, p), (dict, list))]
    else:
        candidates = [p for p in candidates if isinstance(p[-1], str)]
    if not candidates:
        return f"{kind} (none)"
    path = draw(st.sampled_from(candidates))
    parent = get_at(obj, path[:-1])
    if kind == "value":
        parent[path[-1]] = draw(leaf_value(get_at(obj, path)))
    elif kind == "remove":
        del parent[path[-1]]
    else:
        items = get_at(obj, path)
        i = draw(st.integers(0, len(items) - 1))
        if draw(st.booleans()):
            items.append(copy.deepcopy(items[i]))
        else:
            del items[i]
    return f"{kind} {path[0]}"


@settings(max_examples=EXAMPLES)
@given(mutated(VALIDATION, functools.partial(api_mutation, corpus=VALIDATION)))
def test_mutated_validation_vectors_agree_with_upstream(upstreams: EveryRelease, case: dict[str, Any]) -> None:
    for upstream in upstreams:
        check_validation(upstream, case)


@settings(max_examples=EXAMPLES // 2)
@given(mutated(DEFAULTING, functools.partial(api_mutation, corpus=DEFAULTING)))
def test_mutated_defaulting_vectors_agree_with_upstream(upstreams: EveryRelease, case: dict[str, Any]) -> None:
    for upstream in upstreams:
        check_defaulting(upstream, case)
