"""Writes tests/conformance/vectors/job_sync_newer_extra.json: the syncJob-level cases of upstream's
pkg/controller/job/job_controller_test.go that a release after v1.32.3 added or changed, each pinned
(`kubeVersion`) to the earliest harness release whose test has the case in that form.

Each case starts from the v1.32.3 translation of the same table entry (the shared
job_sync_core.json / job_sync_policies.json or the project's job_sync_extra.json) and makes exactly
the changes upstream made to the entry (`_edit` functions say which), so what stays is what the
v1.32.3 translation was checked for. The expectations are the newer table's own fields, never an
engine's answer. Which entries changed was found by listing every table case of the test at v1.32.3
and at each pinned release and comparing them (docs/conformance.md says which the format cannot
state, and why).

    .venv/bin/python -m tests.conformance.gen.job_sync_newer_extra [SHARED_CONFORMANCE_DIR]
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import attrs

from tests.conformance.gen import shared_dir_argument, write_vectors
from tests.conformance.gen.job_sync_extra import OUT as EXTRA_OUT

Json = dict[str, Any]
TEST_FILE = "kubernetes pkg/controller/job/job_controller_test.go"
OUT = Path(__file__).parent.parent / "vectors" / "job_sync_newer_extra.json"
PINS = {"1.33": "v1.33.13", "1.34": "v1.34.4", "1.35": "v1.35.4", "1.36": "v1.36.3", "1.37": "v1.37.2"}


@attrs.frozen
class Newer:
    """One added or changed table entry: its test, its name in `release`, the release, the name of
    the v1.32.3 translation it starts from (the same entry, or the one it was renamed from), and the
    changes upstream made."""

    test: str
    name: str
    release: str
    since: str
    edit: Callable[[Json], None]


def _at_137_managed_by(status: Json) -> Callable[[Json], None]:
    """v1.37 removed the gates JobPodReplacementPolicy, JobSuccessPolicy and JobBackoffLimitPerIndex
    (always on) and with them the entries' fields for them; the test sets only JobManagedBy (on:
    no emulation version) and expects the status fields given."""

    def edit(case: Json) -> None:
        case["features"] = {"JobManagedBy": True}
        case["expect"]["status"].update(status)

    return edit


def _at_137_managed_by_off(conditions: list[Json] | None = None, status: Json | None = None) -> Callable[[Json], None]:
    """v1.37's entries that run with JobManagedBy off: the test sets an emulation version (1.32,
    1.33 or 1.34) and JobManagedBy off; `features` turns it off, which puts the gates at 1.34 (the
    newest emulation version where it is settable), where every gate the v1.37 code reads
    (JobManagedBy, the Mutable* gates, StaleControllerConsistencyJob, WorkloadWithJob,
    GenericWorkload) has the value it has at 1.32 and 1.33. JobPodReplacementPolicy and the other
    removed gates are always on. `conditions` replaces the expected conditions (the table's
    own list), `status` updates the expected status fields."""

    def edit(case: Json) -> None:
        case["features"] = {"JobManagedBy": False}
        if conditions is not None:
            case["expect"]["conditions"] = conditions
        case["expect"]["status"].update(status or {})

    return edit


def _owned_pod(case: Json, name: str, uid: str, status: Json, annotations: Json | None = None) -> Json:
    """A pod of the case's Job with the tracking finalizer, as the tests' pod builders make it."""
    job = case["job"]["metadata"]
    metadata: Json = {
        "name": name,
        "namespace": job["namespace"],
        "uid": uid,
        "labels": dict(case["job"]["spec"]["selector"]["matchLabels"]),
        "ownerReferences": [
            {"apiVersion": "batch/v1", "kind": "Job", "name": job["name"], "uid": job["uid"], "controller": True, "blockOwnerDeletion": True}
        ],
        "finalizers": ["batch.kubernetes.io/job-tracking"],
    }
    if annotations:
        metadata["annotations"] = annotations
    return {"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "status": status}


def _csj_back_off_with_running_pod(case: Json) -> None:
    """v1.36's "too few active pods and active back-off with running pods", from "too few active
    pods and active back-off": parallelism and completions 2, one Running and ready pod
    (setPodsStatuses: newPodList's terminated container state at testFinishedAt, then the Ready
    condition), expectedActive and expectedReady 1. The gates as at v1.32.3 (jobSuccessPolicy
    unset: the test sets emulation version 1.32, which `features` reaches too)."""
    case["job"]["spec"].update({"parallelism": 2, "completions": 2})
    status = {
        "phase": "Running",
        "containerStatuses": [{"state": {"terminated": {"exitCode": 0, "finishedAt": "0001-01-01T00:00:01Z"}}}],
        "conditions": [{"type": "Ready", "status": "True"}],
    }
    case["pods"] = [_owned_pod(case, "pod-running-0", "pod-running-0", status)]
    case["expect"]["status"].update({"active": 1, "ready": 1})


def _blpi_delayed_while_another_index_runs(case: Json) -> None:
    """v1.36's "replacement pod creation delayed by per-index backoff while another index runs",
    from "single failed pod, not counted as the replacement pod creation is delayed": pod a
    (index 0) Running, pod b (index 1) Failed with container x terminated at `now`, both with
    index failure count 0; wantStatus Active 1. The test sets emulation version 1.34 with
    JobManagedBy off (JobBackoffLimitPerIndex and JobPodReplacementPolicy on)."""
    index = "batch.kubernetes.io/job-completion-index"
    failures = "batch.kubernetes.io/job-index-failure-count"
    failed = {"phase": "Failed", "containerStatuses": [{"name": "x", "state": {"terminated": {"exitCode": 0, "finishedAt": case["now"]}}}]}
    case["pods"] = [
        _owned_pod(case, "mypod-0", "a", {"phase": "Running"}, {index: "0", failures: "0"}),
        _owned_pod(case, "mypod-1", "b", failed, {index: "1", failures: "0"}),
    ]
    case["expect"]["status"]["active"] = 1


def _both(first: Callable[[Json], None], then: Callable[[Json], None]) -> Callable[[Json], None]:
    """Two edits, in order."""

    def edit(case: Json) -> None:
        first(case)
        then(case)

    return edit


def _at_137(edit: Callable[[Json], None]) -> Callable[[Json], None]:
    """An entry v1.37 keeps but for the gates it no longer sets (removed): JobManagedBy off."""
    return _both(edit, _at_137_managed_by_off())


def _cond(kind: str, reason: str, message: str) -> Json:
    """A True condition as the tables list it (type, reason, message)."""
    return {"type": kind, "status": "True", "reason": reason, "message": message}


DEADLINE = "Job was active longer than specified deadline"
BACKOFF = "Job has reached the specified backoff limit"
COMPLETIONS = "Reached expected number of succeeded pods"

CSJ = "TestControllerSyncJob"
PFP = "TestSyncJobWithJobPodFailurePolicy"
SP = "TestSyncJobWithJobSuccessPolicy"
BLPI = "TestSyncJobWithJobBackoffLimitPerIndex"
PD = "TestSyncJobPastDeadline"
OF = "TestJobBackoffForOnFailure"
SP_RUNNING = (
    "job with successPolicy; JobManagedBy feature enabled; job has SuccessCriteriaMet condition when job meets to "
    "successPolicy and some pods still are running"
)
SP_WITHOUT = "job without successPolicy; {}job got SuccessCriteriaMet and Completion with CompletionsReached reason conditions"

SP_JPRP = "jobPodReplacementPolicy feature enabled; "
SP_FAILED_INDEXES = (
    "job with successPolicy; {}job has both Complete and SuccessCriteriaMet condition when job meets to successPolicy and all "
    "pods have been already removed",
    "job with successPolicy; {}job has SuccessCriteriaMet condition when job meets to successPolicy and some pods still are running",
)
SP_RENAMED = (
    "job with successPolicy; {}job has SuccessCriteriaMet condition if job meets to successPolicy and some indexes fail",
    "job with podFailurePolicy and successPolicy; {}job has SuccessCriteriaMet condition if job meets to successPolicy and "
    "doesn't meet to podFailurePolicy",
    "job with backoffLimitPerIndex and successPolicy; {}job has SuccessCriteriaMet condition if job meets to successPolicy "
    "and doesn't meet backoffLimitPerIndex",
    *SP_FAILED_INDEXES,
    "job with successPolicy and podFailurePolicy; {}job has a failed condition when job meets to both successPolicy and "
    "podFailurePolicy",
    "job with successPolicy and backoffLimitPerIndex; {}job has a failed condition when job meets to both successPolicy and "
    "backoffLimitPerIndex",
    "job with successPolicy and backoffLimit; {}job has a failed condition when job meets to both successPolicy and backoffLimit",
    "job with successPolicy and podFailurePolicy; {}job with SuccessCriteriaMet has never been transitioned to FailureTarget "
    "and Failed even if job meets podFailurePolicy",
    "job with successPolicy and backoffLimitPerIndex; {}job with SuccessCriteriaMet has never been transitioned to "
    "FailureTarget and Failed even if job meet backoffLimitPerIndex",
    "job with successPolicy and backoffLimit; {}job with SuccessCriteriaMet has never been transitioned to FailureTarget and "
    "Failed even if job meets backoffLimit",
    "job with successPolicy and podFailureTarget; {}job with FailureTarget has never been transitioned to SuccessCriteriaMet "
    "even if job meets successPolicy",
)

BLPI_UNCHANGED = (
    "successful job after a single failure within index",
    "single failed pod, not counted as the replacement pod creation is delayed",
    "single failed pod replaced already",
    "single failed index due to exceeding the backoff limit per index, the job continues",
    "single failed index due to FailIndex action, the job continues",
    "job failed index due to FailJob action",
    "job pod failure ignored due to matching Ignore action",
    "job failed due to exceeding backoffLimit before backoffLimitPerIndex",
    "job failed due to failed indexes",
    "job failed due to exceeding max failed indexes",
)

BLPI_DELAYED = "replacement pod creation delayed by per-index backoff while another index runs"

# TestControllerSyncJob at v1.37: the entries that run with JobManagedBy off (the test sets
# emulation version 1.33) and changed from v1.32.3 in what they expect: expectedTerminating
# (added, or kept where jobPodReplacementPolicy was set, which v1.37 dropped) and, for some,
# the conditions (SuccessCriteriaMet before Complete, FailureTarget first or alone).
CSJ_137: tuple[tuple[str, int], ...] = (
    ("job start", 0),
    ("WQ job start", 0),
    ("pending pods", 0),
    ("correct # of pods", 0),
    ("WQ job: correct # of pods", 0),
    ("too few active pods", 0),
    ("WQ job: recreate pods when failed", 1),
    ("WQ job: turn on PodReplacementPolicy but not set PodReplacementPolicy", 1),
    ("WQ job: recreate pods when terminating or failed", 1),
    ("more terminating pods than parallelism", 5),
    ("more terminating pods than parallelism; PodFailurePolicy used", 5),
    ("too few active pods and active back-off", 0),
    ("too few active pods and no back-offs", 0),
    ("too few active pods with a dynamic job", 0),
    ("too few active pods, with controller error", 0),
    ("too many active pods", 1),
    ("too many active pods, with controller error", 0),
    ("count ready pods when too many active pods", 1),
    ("failed + succeed pods: reset backoff delay", 0),
    ("new failed pod", 0),
    ("no new pod; possible finalizer update of failed pod", 0),
    ("only new failed pod with controller error", 0),
    ("job finish", 0),
    ("WQ job finishing", 0),
    ("WQ job all finished", 0),
    ("WQ job all finished despite one failure", 0),
    ("more active pods than parallelism", 8),
    ("more active pods than remaining completions", 1),
    ("status change", 0),
    ("deleting job", 0),
    ("limited pods", 0),
    ("too many job failures", 0),
    ("job failures, unsatisfied expectations", 0),
    ("indexed job start", 0),
    ("indexed job with some pods deleted, podReplacementPolicy Failed", 1),
    ("indexed job with some pods deleted, podReplacementPolicy TerminatingOrFailed", 1),
    ("indexed job completed", 0),
    ("indexed job failed", 1),
    ("count ready pods when job fails", 2),
    ("indexed job repeated completed index", 0),
    ("indexed job some running and completed pods", 0),
    ("indexed job some failed pods", 0),
    ("indexed job some pods without index", 3),
    ("indexed job repeated indexes", 2),
    ("indexed job with indexes outside of range", 2),
    ("suspending a job with satisfied expectations", 2),
    ("suspending a job with satisfied expectations; PodReplacementPolicy enabled", 2),
    ("count ready pods when suspending a job with satisfied expectations", 2),
    ("suspending a job with unsatisfied expectations", 0),
    ("count ready pods when suspending a job with unsatisfied expectations", 0),
    ("suspending a job with unsatisfied expectations; PodReplacementPolicy enabled", 0),
    ("resuming a suspended job", 0),
    ("suspending a deleted job", 0),
    ("FailureTarget=False condition added manually is ignored", 0),
    ("SuccessCriteriaMet=False condition added manually is ignored", 0),
)
CSJ_137_CONDITIONS: Mapping[str, list[Json]] = {
    "job finish": [_cond("SuccessCriteriaMet", "CompletionsReached", COMPLETIONS), _cond("Complete", "CompletionsReached", COMPLETIONS)],
    "WQ job all finished": [_cond("SuccessCriteriaMet", "CompletionsReached", COMPLETIONS), _cond("Complete", "CompletionsReached", COMPLETIONS)],
    "WQ job all finished despite one failure": [_cond("SuccessCriteriaMet", "CompletionsReached", COMPLETIONS), _cond("Complete", "CompletionsReached", COMPLETIONS)],
    "too many job failures": [_cond("FailureTarget", "BackoffLimitExceeded", BACKOFF), _cond("Failed", "BackoffLimitExceeded", BACKOFF)],
    "indexed job completed": [_cond("SuccessCriteriaMet", "CompletionsReached", COMPLETIONS), _cond("Complete", "CompletionsReached", COMPLETIONS)],
    "indexed job failed": [_cond("FailureTarget", "BackoffLimitExceeded", BACKOFF)],
    "count ready pods when job fails": [_cond("FailureTarget", "BackoffLimitExceeded", BACKOFF)],
}


def _csj_137(terminating: int, conditions: list[Json] | None) -> Callable[[Json], None]:
    """A TestControllerSyncJob entry at v1.37: expectedTerminating, and the conditions when they changed."""
    return _at_137_managed_by_off(conditions, {"terminating": terminating})


def _pod_replacement_policy_failed(case: Json) -> None:
    """v1.37 gives "more terminating pods than parallelism; PodFailurePolicy used" podReplacementPolicy
    Failed (the policy a podFailurePolicy requires)."""
    case["job"]["spec"]["podReplacementPolicy"] = "Failed"

NEWER: list[Newer] = [
    # v1.36 added these two.
    Newer(CSJ, "too few active pods and active back-off with running pods", "1.36", "too few active pods and active back-off",
          _csj_back_off_with_running_pod),
    Newer(BLPI, BLPI_DELAYED, "1.36", f"{BLPI}: single failed pod, not counted as the replacement pod creation is delayed",
          _blpi_delayed_while_another_index_runs),
    *(
        Newer(CSJ, name, "1.37", name, _csj_137(terminating, CSJ_137_CONDITIONS.get(name)))
        for name, terminating in CSJ_137
        if name != "more terminating pods than parallelism; PodFailurePolicy used"
    ),
    Newer(CSJ, "more terminating pods than parallelism; PodFailurePolicy used", "1.37",
          "more terminating pods than parallelism; PodFailurePolicy used",
          _both(_pod_replacement_policy_failed, _csj_137(5, None))),
    # Renamed from "... and PodReplacementPolicy enabled" (jobPodReplacementPolicy dropped).
    Newer(CSJ, "count terminating pods when indexed job fails", "1.37",
          "count terminating pods when indexed job fails and PodReplacementPolicy enabled", _at_137_managed_by_off()),
    # v1.36's entry at v1.37: expectedTerminating 0 added.
    Newer(CSJ, "too few active pods and active back-off with running pods", "1.37", "too few active pods and active back-off",
          _both(_csj_back_off_with_running_pod, _csj_137(0, None))),
    # v1.37 dropped enableJobBackoffLimitPerIndex and enableJobPodReplacementPolicy from it.
    Newer(BLPI, BLPI_DELAYED, "1.37", f"{BLPI}: single failed pod, not counted as the replacement pod creation is delayed",
          _at_137(_blpi_delayed_while_another_index_runs)),
    # expectedTerminating: 1 added (the Running pod of index 2 is deleted).
    Newer(CSJ, "backoff limit exceeded; JobManagedBy enabled", "1.37", "backoff limit exceeded; JobManagedBy enabled",
          _at_137_managed_by({"terminating": 1})),
    # wantStatusTerminating: 1 added (the Running pod is deleted).
    Newer(PFP, "fail job with multiple pods; JobManagedBy enabled delays setting terminal condition", "1.37",
          f"{PFP}: fail job with multiple pods; JobManagedBy enabled delays setting terminal condition",
          _at_137_managed_by({"terminating": 1})),
    # enableJobSuccessPolicy and enableJobPodReplacementPolicy dropped; Terminating 2 (the two
    # Running pods) and FailedIndexes "" (backoffLimitPerIndex is set and the gate is gone).
    Newer(SP, SP_RUNNING, "1.37", f"{SP}: {SP_RUNNING}", _at_137_managed_by({"terminating": 2, "failedIndexes": ""})),
    # Renamed from "...; jobSuccessPolicy is enabled; ..." (enableJobSuccessPolicy dropped); Terminating 0.
    Newer(SP, SP_WITHOUT.format(""), "1.37", f"{SP}: {SP_WITHOUT.format('jobSuccessPolicy is enabled; ')}",
          _at_137_managed_by({"terminating": 0})),
    # enableJobBackoffLimitPerIndex dropped; Terminating 0.
    Newer(BLPI, "job failed due to failed indexes; JobManagedBy enabled", "1.37",
          f"{BLPI}: job failed due to failed indexes; JobManagedBy enabled", _at_137_managed_by({"terminating": 0})),
    # enableJobBackoffLimitPerIndex dropped; Terminating 1 (the Running pod of index 3 is deleted).
    Newer(BLPI, "job failed due to exceeding max failed indexes; JobManagedBy enabled", "1.37",
          f"{BLPI}: job failed due to exceeding max failed indexes; JobManagedBy enabled",
          _at_137_managed_by({"terminating": 1})),
    # v1.37 entries that turn JobManagedBy off (see _at_137_managed_by_off); the changes are the
    # expected conditions (FailureTarget first, or alone while pods terminate; SuccessCriteriaMet
    # before Complete) and, where the test checks it, `terminating`.
    # TestSyncJobPastDeadline: enableJobPodReplacementPolicy dropped (it checks no terminating).
    Newer(PD, "activeDeadlineSeconds less than single pod execution", "1.37",
          f"{PD}: activeDeadlineSeconds less than single pod execution",
          _at_137_managed_by_off([_cond("FailureTarget", "DeadlineExceeded", DEADLINE)])),
    Newer(PD, "activeDeadlineSeconds bigger than single pod execution", "1.37",
          f"{PD}: activeDeadlineSeconds bigger than single pod execution",
          _at_137_managed_by_off([_cond("FailureTarget", "DeadlineExceeded", DEADLINE)])),
    Newer(PD, "activeDeadlineSeconds times-out before any pod starts", "1.37",
          f"{PD}: activeDeadlineSeconds times-out before any pod starts",
          _at_137_managed_by_off([_cond("FailureTarget", "DeadlineExceeded", DEADLINE), _cond("Failed", "DeadlineExceeded", DEADLINE)])),
    Newer(PD, "activeDeadlineSeconds with backofflimit reach", "1.37", f"{PD}: activeDeadlineSeconds with backofflimit reach",
          _at_137_managed_by_off([_cond("FailureTarget", "BackoffLimitExceeded", BACKOFF), _cond("Failed", "BackoffLimitExceeded", BACKOFF)])),
    # Renamed from "...; JobPodReplacementPolicy enabled" (enableJobPodReplacementPolicy dropped).
    Newer(PD, "activeDeadlineSeconds exceeded", "1.37", f"{PD}: activeDeadlineSeconds exceeded; JobPodReplacementPolicy enabled",
          _at_137_managed_by_off([_cond("FailureTarget", "DeadlineExceeded", DEADLINE)])),
    # TestJobBackoffForOnFailure (it checks no terminating).
    *(
        Newer(OF, name, "1.37", f"{OF}: {name}", _at_137_managed_by_off([_cond("FailureTarget", "BackoffLimitExceeded", BACKOFF)]))
        for name in (
            "backoffLimit 1 with restartCount 1 and podRunning should have 0 pod active",
            "backoffLimit 1 with restartCount 1 and podPending should have 0 pod active",
            "too many job failures with podRunning - single pod",
            "too many job failures with podPending - single pod",
            "too many job failures with podPending - multiple pods",
            "too many job failures with podRunning - multiple pods",
        )
    ),
    Newer(OF, "finished job", "1.37", f"{OF}: finished job",
          _at_137_managed_by_off([_cond("SuccessCriteriaMet", "CompletionsReached", COMPLETIONS), _cond("Complete", "CompletionsReached", COMPLETIONS)])),
    # TestSyncJobWithJobPodFailurePolicy (emulation version 1.33 in the test): it compares
    # terminating as ptr.Deref(.., 0), so an entry without wantStatusTerminating expects 0.
    Newer(PFP, "fail job with multiple pods", "1.37", f"{PFP}: fail job with multiple pods",
          _at_137_managed_by_off(
              [_cond("FailureTarget", "PodFailurePolicy",
                     "Container main-container for pod default/mypod-1 failed with exit code 5 matching FailJob rule at index 1")],
              {"terminating": 1},
          )),
    Newer(PFP, "default job based on OnExitCodes", "1.37", f"{PFP}: default job based on OnExitCodes",
          _at_137_managed_by_off([_cond("FailureTarget", "BackoffLimitExceeded", BACKOFF), _cond("Failed", "BackoffLimitExceeded", BACKOFF)],
                                 {"terminating": 0})),
    # Renamed from "... is enabled and used"; wantStatusTerminating 1 added.
    Newer(PFP, "terminating Pod not considered failed when JobPodFailurePolicy is used", "1.37",
          f"{PFP}: terminating Pod not considered failed when JobPodFailurePolicy is enabled and used",
          _at_137_managed_by_off(status={"terminating": 1})),
    # TestSyncJobWithJobSuccessPolicy (it compares the whole status): each renamed from the entry
    # with "jobPodReplacementPolicy feature enabled; " in its name (enableJobSuccessPolicy,
    # enableJobPodReplacementPolicy and enableBackoffLimitPerIndex dropped); two also expect
    # FailedIndexes "".
    *(
        Newer(SP, name.format(""), "1.37", f"{SP}: {name.format(SP_JPRP)}",
              _at_137_managed_by_off(status={"failedIndexes": ""} if name in SP_FAILED_INDEXES else None))
        for name in SP_RENAMED
    ),
    # TestSyncJobWithJobBackoffLimitPerIndex (it compares the whole status): only
    # enableJobBackoffLimitPerIndex and enableJobPodReplacementPolicy dropped.
    *(Newer(BLPI, name, "1.37", f"{BLPI}: {name}", _at_137_managed_by_off()) for name in BLPI_UNCHANGED),
    # Added beside the entries of the same name without the suffix, which they repeat (the
    # status's fields listed in another order).
    *(
        Newer(BLPI, f"{name}; JobManagedBy disabled", "1.37", f"{BLPI}: {name}", _at_137_managed_by_off())
        for name in ("job failed due to failed indexes", "job failed due to exceeding max failed indexes")
    ),
]


def newer_case(entry: Newer, sibling: Json) -> Json:
    """The entry as a `job-sync` vector, from the v1.32.3 translation `sibling`."""
    case = copy.deepcopy(sibling)
    entry.edit(case)
    label = entry.name if entry.test == CSJ else f"{entry.test}: {entry.name}"
    head = {
        "name": f"{label} ({entry.release})",
        "origin": f"{TEST_FILE} at {PINS[entry.release]} {entry.test}: {entry.name}",
        "kubeVersion": entry.release,
    }
    return {**head, **{k: v for k, v in case.items() if k not in head}}


def document(shared_dir: Path) -> Json:
    """The file's document; shared_dir holds the shared job_sync_core.json and job_sync_policies.json."""
    translations: dict[str, Json] = {}
    for path in (shared_dir / "job_sync_core.json", shared_dir / "job_sync_policies.json", EXTRA_OUT):
        translations.update((c["name"], c) for c in json.loads(path.read_text())["cases"])
    return {
        "format": "jobmodel-conformance/1",
        "suite": "job-sync",
        "source": (
            "kubernetes/kubernetes pkg/controller/job/job_controller_test.go at the releases each case's "
            "kubeVersion names (v1.33.13, v1.34.4, v1.35.4, v1.36.3, v1.37.2): the syncJob-level table "
            "entries added or changed after v1.32.3 that the format can state, each built from the "
            "v1.32.3 translation of the same entry; generated by tests/conformance/gen/job_sync_newer_extra.py"
        ),
        "cases": [newer_case(entry, translations[entry.since]) for entry in NEWER],
    }


def main() -> None:
    write_vectors(OUT, document(shared_dir_argument()))


if __name__ == "__main__":
    main()
