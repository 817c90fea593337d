"""Writes tests/conformance/vectors/validation_status_extra.json: Job status-update validation as
upstream v1.32.3 tests it, which the shared validation.json does not hold:
pkg/registry/batch/job/strategy_test.go TestStatusStrategy_ValidateUpdate (every case) and
pkg/apis/batch/validation/validation_test.go TestValidateJobUpdateStatus (every case).

Each case is an update of the `status` subresource (StatusStrategy.ValidateUpdate on the objects as
given). TestStatusStrategy_ValidateUpdate sets JobManagedBy, JobSuccessPolicy and
JobPodReplacementPolicy in every case (false unless the case enables them): all three are in
`features`. TestValidateJobUpdateStatus calls ValidateJobUpdateStatus with zero options; through
the status subresource that is JobManagedBy off (getStatusValidationOptions then enables no
transition rule). Both tests compare the error lists ignoring BadValue and Detail: `errors` is the
exact set of field/type pairs (the format compares sets, so a pair upstream expects several times,
listed as often here, is checked once). Upstream's `metav1.Now()` is NOW. Pinned to 1.32, where
every gate the tests set can still be set.

    .venv/bin/python -m tests.conformance.gen.validation_status_extra
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

Json = dict[str, Any]

OUT = Path(__file__).parent.parent / "vectors" / "validation_status_extra.json"
NOW = "2024-06-01T12:00:00Z"
NOW_PLUS_MINUTE = "2024-06-01T12:01:00Z"
STRATEGY_TEST = "kubernetes pkg/registry/batch/job/strategy_test.go TestStatusStrategy_ValidateUpdate"
VALIDATION_TEST = "kubernetes pkg/apis/batch/validation/validation_test.go TestValidateJobUpdateStatus"
RELEASE = "1.32"

VALID_SELECTOR = {"matchLabels": {"a": "b"}}
VALID_TEMPLATE = {
    "metadata": {"labels": {"a": "b"}},
    "spec": {
        "restartPolicy": "OnFailure",
        "dnsPolicy": "ClusterFirst",
        "containers": [
            {"name": "abc", "image": "image", "imagePullPolicy": "IfNotPresent", "terminationMessagePolicy": "File"}
        ],
    },
}
VALID_SUCCESS_POLICY = {"rules": [{"succeededIndexes": "0-2"}]}
INDEXED_10 = {"completionMode": "Indexed", "completions": 10, "successPolicy": VALID_SUCCESS_POLICY}


def meta(name: str = "myjob", resource_version: str = "10") -> Json:
    return {"name": name, "namespace": "default", "resourceVersion": resource_version}


def job(status: Json | None = None, spec: Json | None = None, metadata: Json | None = None) -> Json:
    """A batch/v1 Job; absent spec and status are Go's zero values."""
    out: Json = {"apiVersion": "batch/v1", "kind": "Job", "metadata": metadata or meta()}
    if spec is not None:
        out["spec"] = spec
    if status is not None:
        out["status"] = status
    return out


def cond(ctype: str, status: str = "True") -> Json:
    return {"type": ctype, "status": status}


def err(field: str, etype: str = "FieldValueInvalid") -> Json:
    return {"field": field, "type": etype}


def required(field: str) -> Json:
    return err(field, "FieldValueRequired")


def strategy_case(
    name: str,
    old: Json,
    new: Json,
    errors: list[Json] | None = None,
    *,
    managed_by: bool = False,
    success_policy: bool = False,
    pod_replacement_policy: bool = False,
) -> Json:
    return {
        "name": f"TestStatusStrategy_ValidateUpdate: {name}",
        "origin": f"{STRATEGY_TEST}: {name}",
        "kind": "Job",
        "operation": "update",
        "subresource": "status",
        "object": new,
        "oldObject": old,
        "features": {
            "JobManagedBy": managed_by,
            "JobSuccessPolicy": success_policy,
            "JobPodReplacementPolicy": pod_replacement_policy,
        },
        "expect": {"valid": not errors, **({"errors": errors} if errors else {})},
        "kubeVersion": RELEASE,
    }


def managed(name: str, old: Json, new: Json, errors: list[Json] | None = None) -> Json:
    """A case with enableJobManagedBy: true (the other two gates off)."""
    return strategy_case(name, old, new, errors, managed_by=True)


def success(name: str, old: Json, new: Json, errors: list[Json] | None = None) -> Json:
    """A case with enableJobSuccessPolicy: true (the other two gates off)."""
    return strategy_case(name, old, new, errors, success_policy=True)


def status_strategy_cases() -> list[Json]:
    spec4 = {"selector": VALID_SELECTOR, "template": VALID_TEMPLATE, "parallelism": 4}
    c5 = {"completions": 5}
    non_indexed5 = {"completions": 5, "completionMode": "NonIndexed"}
    indexed5 = {"completions": 5, "completionMode": "Indexed"}
    per_index5 = {"completions": 5, "completionMode": "Indexed", "backoffLimitPerIndex": 1}
    started = {"startTime": NOW}
    both_times = {"startTime": NOW, "completionTime": NOW}
    conditions = "status.conditions"
    return [
        strategy_case(
            "incoming resource version on update should not be mutated",
            job(spec=spec4, metadata=meta(resource_version="10")),
            job(spec=spec4, metadata=meta(resource_version="9")),
        ),
        strategy_case(
            "invalid addition of both Failed=True and Complete=True; allowed because feature gate disabled",
            job(),
            job({**both_times, "conditions": [cond("Complete"), cond("Failed")]}),
        ),
        managed(
            "invalid addition of both Failed=True and Complete=True",
            job(),
            job({**both_times, "conditions": [cond("Complete"), cond("Failed")]}),
            [err(conditions), err(conditions), err(conditions)],
        ),
        managed(
            "invalid addition of Complete=True without SuccessCriteriaMet=True",
            job(),
            job({**both_times, "conditions": [cond("Complete")]}),
            [err(conditions)],
        ),
        managed(
            "invalid addition of Failed=True without FailureTarget=True",
            job(),
            job({**started, "conditions": [cond("Failed")]}),
            [err(conditions)],
        ),
        managed(
            "completionTime can be removed to fix still running job",
            job(both_times),
            job(started),
        ),
        managed(
            "invalid attempt to transition to Failed=True without startTime",
            job({"conditions": [cond("FailureTarget")]}),
            job({"conditions": [cond("FailureTarget"), cond("Failed")]}),
            [required("status.startTime")],
        ),
        managed(
            "invalid attempt to transition to Complete=True without startTime",
            job({"conditions": [cond("SuccessCriteriaMet")]}),
            job({"completionTime": NOW, "conditions": [cond("SuccessCriteriaMet"), cond("Complete")]}),
            [required("status.startTime")],
        ),
        managed(
            "invalid attempt to transition to Complete=True with active > 0",
            job({**started, "active": 1, "conditions": [cond("SuccessCriteriaMet")]}),
            job({**both_times, "active": 1, "conditions": [cond("SuccessCriteriaMet"), cond("Complete")]}),
            [err("status.active")],
        ),
        managed(
            "invalid attempt to transition to Failed=True with terminating > 0",
            job({**started, "conditions": [cond("FailureTarget")], "terminating": 1}),
            job({**started, "conditions": [cond("FailureTarget"), cond("Failed")], "terminating": 1}),
            [err("status.terminating")],
        ),
        managed(
            "invalid attempt to transition to Failed=True with active > 0",
            job({**started, "conditions": [cond("FailureTarget")], "active": 1}),
            job({**started, "conditions": [cond("FailureTarget"), cond("Failed")], "active": 1}),
            [err("status.active")],
        ),
        managed(
            "invalid attempt to transition to Failed=True with uncountedTerminatedPods.Failed>0",
            job({**started, "uncountedTerminatedPods": {"failed": ["a"]}, "conditions": [cond("FailureTarget")]}),
            job(
                {
                    **started,
                    "uncountedTerminatedPods": {"failed": ["a"]},
                    "conditions": [cond("FailureTarget"), cond("Failed")],
                }
            ),
            [err("status.uncountedTerminatedPods")],
        ),
        managed(
            "invalid attempt to update uncountedTerminatedPods.Succeeded for Complete job",
            job({**both_times, "uncountedTerminatedPods": {"failed": ["a"]}, "conditions": [cond("Complete")]}),
            job({**both_times, "uncountedTerminatedPods": {"failed": ["b"]}, "conditions": [cond("Complete")]}),
            [err("status.uncountedTerminatedPods")],
        ),
        managed(
            "non-empty uncountedTerminatedPods for complete job, unrelated update",
            job({**both_times, "uncountedTerminatedPods": {"failed": ["a"]}, "conditions": [cond("Complete")]}),
            job(
                {
                    **both_times,
                    "uncountedTerminatedPods": {"failed": ["a"]},
                    "conditions": [cond("Complete"), cond("CustomJobCondition")],
                }
            ),
        ),
        managed(
            "invalid attempt to transition to Complete=True with uncountedTerminatedPods.Succeeded>0",
            job({**started, "uncountedTerminatedPods": {"succeeded": ["a"]}, "conditions": [cond("SuccessCriteriaMet")]}),
            job(
                {
                    **both_times,
                    "uncountedTerminatedPods": {"succeeded": ["a"]},
                    "conditions": [cond("SuccessCriteriaMet"), cond("Complete")],
                }
            ),
            [err("status.uncountedTerminatedPods")],
        ),
        managed(
            "invalid addition Complete=True without setting CompletionTime",
            job({**started, "conditions": [cond("SuccessCriteriaMet")]}),
            job({**started, "conditions": [cond("SuccessCriteriaMet"), cond("Complete")]}),
            [required("status.completionTime")],
        ),
        managed(
            "invalid attempt to remove completionTime",
            job({"completionTime": NOW, "conditions": [cond("Complete")]}),
            job({**started, "conditions": [cond("Complete")]}),
            [required("status.completionTime")],
        ),
        managed(
            "verify startTime can be cleared for suspended job",
            job(started, spec={"suspend": True}),
            job({}, spec={"suspend": True}),
        ),
        managed(
            "verify startTime cannot be removed for unsuspended job",
            job(started),
            job({}),
            [required("status.startTime")],
        ),
        managed(
            "verify startTime cannot be updated for unsuspended job",
            job(started),
            job({"startTime": NOW_PLUS_MINUTE}),
            [required("status.startTime")],
        ),
        managed(
            "invalid attempt to set completionTime before startTime",
            job({"startTime": NOW_PLUS_MINUTE, "conditions": [cond("SuccessCriteriaMet")]}),
            job(
                {
                    "startTime": NOW_PLUS_MINUTE,
                    "completionTime": NOW,
                    "conditions": [cond("SuccessCriteriaMet"), cond("Complete")],
                }
            ),
            [err("status.completionTime")],
        ),
        managed(
            "invalid attempt to modify completionTime",
            job({"completionTime": NOW, "conditions": [cond("Complete")]}),
            job({"completionTime": NOW_PLUS_MINUTE, "startTime": NOW, "conditions": [cond("Complete")]}),
            [err("status.completionTime")],
        ),
        managed(
            "invalid removal of terminal condition Failed=True",
            job({"conditions": [cond("Failed")]}),
            job(),
            [err(conditions)],
        ),
        managed(
            "invalid removal of terminal condition Complete=True",
            job({"conditions": [cond("Complete")]}),
            job(),
            [err(conditions)],
        ),
        managed(
            "invalid removal of terminal condition FailureTarget=True",
            job({"conditions": [cond("FailureTarget")]}),
            job(),
            [err(conditions)],
        ),
        managed(
            "invalid addition of FailureTarget=True when Complete=True",
            job({**both_times, "conditions": [cond("Complete")]}),
            job({**both_times, "conditions": [cond("Complete"), cond("FailureTarget")]}),
            [err(conditions)],
        ),
        managed(
            "invalid attempt setting of CompletionTime when there is no Complete condition",
            job(),
            job({"completionTime": NOW}),
            [err("status.completionTime")],
        ),
        managed(
            "invalid CompletionTime when there is no Complete condition, but allowed",
            job({"completionTime": NOW}),
            job({"completionTime": NOW, "active": 1}),
        ),
        managed(
            "invalid attempt setting CompletedIndexes when non-indexed completion mode is used",
            job(spec=non_indexed5),
            job({**started, "completedIndexes": "0"}, spec=non_indexed5),
            [err("status.completedIndexes")],
        ),
        managed(
            "invalid because CompletedIndexes set when non-indexed completion mode is used; but allowed",
            job({"completedIndexes": "0"}, spec=non_indexed5),
            job({"completedIndexes": "0", "active": 1}, spec=non_indexed5),
        ),
        managed(
            "invalid attempt setting FailedIndexes when not backoffLimitPerIndex",
            job(spec=indexed5),
            job({"failedIndexes": "0"}, spec=indexed5),
            [err("status.failedIndexes")],
        ),
        managed(
            "invalid attempt to decrease the failed counter",
            job({"failed": 3}, spec=c5),
            job({"failed": 1}, spec=c5),
            [err("status.failed")],
        ),
        managed(
            "invalid attempt to decrease the succeeded counter",
            job({"succeeded": 3}, spec=c5),
            job({"succeeded": 1}, spec=c5),
            [err("status.succeeded")],
        ),
        managed(
            "invalid attempt to set bad format for CompletedIndexes",
            job(spec=indexed5),
            job({"completedIndexes": "invalid format"}, spec=indexed5),
            [err("status.completedIndexes")],
        ),
        managed(
            "invalid format for CompletedIndexes, but allowed",
            job({"completedIndexes": "invalid format"}, spec=indexed5),
            job({"completedIndexes": "invalid format", "active": 1}, spec=indexed5),
        ),
        managed(
            "invalid attempt to set bad format for FailedIndexes",
            job(spec=per_index5),
            job({"failedIndexes": "invalid format"}, spec=per_index5),
            [err("status.failedIndexes")],
        ),
        managed(
            "invalid format for FailedIndexes, but allowed",
            job({"failedIndexes": "invalid format"}, spec=per_index5),
            job({"failedIndexes": "invalid format", "active": 1}, spec=per_index5),
        ),
        managed(
            "more ready pods than active, but allowed",
            job({"active": 1, "ready": 2}, spec=c5),
            job({"active": 1, "ready": 2, "succeeded": 1}, spec=c5),
        ),
        managed(
            "invalid addition of both FailureTarget=True and Complete=True",
            job(),
            job({**both_times, "conditions": [cond("Complete"), cond("FailureTarget")]}),
            [err(conditions), err(conditions)],
        ),
        managed(
            "invalid failedIndexes, which overlap with completedIndexes",
            job({"failedIndexes": "0,2", "completedIndexes": "3-4"}, spec=indexed5),
            job({"failedIndexes": "0,2", "completedIndexes": "2-4"}, spec=indexed5),
            [err("status.failedIndexes")],
        ),
        managed(
            "failedIndexes overlap with completedIndexes, unrelated field change",
            job({"failedIndexes": "0,2", "completedIndexes": "2-4"}, spec=indexed5),
            job({"failedIndexes": "0,2", "completedIndexes": "2-4", "active": 1}, spec=indexed5),
        ),
        success(
            "invalid addition of SuccessCriteriaMet for NonIndexed Job",
            job(spec={"successPolicy": VALID_SUCCESS_POLICY}),
            job({"conditions": [cond("SuccessCriteriaMet")]}, spec={"successPolicy": VALID_SUCCESS_POLICY}),
            [err(conditions)],
        ),
        success(
            "valid update of Job if SuccessCriteriaMet already present for NonIndexed Jobs; JobSuccessPolicy"
            " enabled, while JobManagedBy and JobPodReplacementPolicy disabled",
            job({"conditions": [cond("SuccessCriteriaMet")]}, spec={}),
            job({"conditions": [cond("SuccessCriteriaMet"), cond("Complete")]}, spec={}),
        ),
        success(
            "invalid addition of SuccessCriteriaMet for Job with Failed",
            job({"conditions": [cond("Failed")]}, spec=INDEXED_10),
            job({"conditions": [cond("Failed"), cond("SuccessCriteriaMet")]}, spec=INDEXED_10),
            [err(conditions)],
        ),
        success(
            "invalid addition of Failed for Job with SuccessCriteriaMet",
            job({"conditions": [cond("SuccessCriteriaMet")]}, spec=INDEXED_10),
            job({"conditions": [cond("SuccessCriteriaMet"), cond("Failed")]}, spec=INDEXED_10),
            [err(conditions)],
        ),
        success(
            "invalid addition of SuccessCriteriaMet for Job with FailureTarget",
            job({"conditions": [cond("FailureTarget")]}, spec=INDEXED_10),
            job({"conditions": [cond("FailureTarget"), cond("SuccessCriteriaMet")]}, spec=INDEXED_10),
            [err(conditions)],
        ),
        success(
            "invalid addition of FailureTarget for Job with SuccessCriteriaMet",
            job({"conditions": [cond("SuccessCriteriaMet")]}, spec=INDEXED_10),
            job({"conditions": [cond("SuccessCriteriaMet"), cond("FailureTarget")]}, spec=INDEXED_10),
            [err(conditions)],
        ),
        success(
            "invalid addition of SuccessCriteriaMet for Job with Complete",
            job({"conditions": [cond("Complete")]}, spec=INDEXED_10),
            job({"conditions": [cond("Complete"), cond("SuccessCriteriaMet")]}, spec=INDEXED_10),
            [err(conditions)],
        ),
        success(
            "valid addition of Complete for Job with SuccessCriteriaMet",
            job({"conditions": [cond("SuccessCriteriaMet")]}, spec=INDEXED_10),
            job({"conditions": [cond("SuccessCriteriaMet"), cond("Complete")]}, spec=INDEXED_10),
        ),
        success(
            "invalid addition of SuccessCriteriaMet for Job without SuccessPolicy",
            job(spec={"completionMode": "Indexed", "completions": 10}),
            job({"conditions": [cond("SuccessCriteriaMet")]}, spec={"completionMode": "Indexed", "completions": 10}),
            [err(conditions)],
        ),
        success(
            "invalid addition of Complete for Job with SuccessPolicy unless SuccessCriteriaMet",
            job(spec=INDEXED_10),
            job({"conditions": [cond("Complete")]}, spec=INDEXED_10),
            [err(conditions)],
        ),
        success(
            "invalid disabling of SuccessCriteriaMet for Job",
            job({"conditions": [cond("SuccessCriteriaMet")]}, spec=INDEXED_10),
            job({"conditions": [cond("Complete", "False")]}, spec=INDEXED_10),
            [err(conditions)],
        ),
        success(
            "invalid removing of SuccessCriteriaMet for Job",
            job({"conditions": [cond("SuccessCriteriaMet")]}, spec=INDEXED_10),
            job(spec=INDEXED_10),
            [err(conditions)],
        ),
        managed(
            "valid addition of SuccessCriteriaMet when JobManagedBy is enabled",
            job(),
            job({"conditions": [cond("SuccessCriteriaMet")]}),
        ),
        strategy_case(
            "valid addition of SuccessCriteriaMet when JobPodReplacementPolicy is enabled",
            job(),
            job({"conditions": [cond("SuccessCriteriaMet")]}),
            pod_replacement_policy=True,
        ),
        managed(
            "invalid attempt to set more ready pods than active",
            job(spec=c5),
            job({"active": 1, "ready": 2}, spec=c5),
            [err("status.ready")],
        ),
    ]


def update_status_case(name: str, old: Json, new: Json, errors: list[Json] | None = None) -> Json:
    return {
        "name": f"TestValidateJobUpdateStatus: {name}",
        "origin": f"{VALIDATION_TEST}: {name}",
        "kind": "Job",
        "operation": "update",
        "subresource": "status",
        "object": new,
        "oldObject": old,
        # Zero JobStatusValidationOptions, as the test passes them.
        "features": {"JobManagedBy": False},
        "expect": {"valid": not errors, **({"errors": errors} if errors else {})},
        "kubeVersion": RELEASE,
    }


def validate_job_update_status_cases() -> list[Json]:
    def abc(resource_version: str) -> Json:
        return meta("abc", resource_version)

    return [
        update_status_case(
            "valid",
            job({"active": 1, "succeeded": 2, "failed": 3, "terminating": 4}, metadata=abc("1")),
            job({"active": 2, "succeeded": 3, "failed": 4, "ready": 1, "terminating": 4}, metadata=abc("1")),
        ),
        update_status_case(
            "nil ready and terminating",
            job({"active": 1, "succeeded": 2, "failed": 3}, metadata=abc("1")),
            job({"active": 2, "succeeded": 3, "failed": 4}, metadata=abc("1")),
        ),
        update_status_case(
            "negative counts",
            job({"active": 1, "succeeded": 2, "failed": 3, "terminating": 4}, metadata=abc("10")),
            job({"active": -1, "succeeded": -2, "failed": -3, "ready": -1, "terminating": -2}, metadata=abc("10")),
            [err(f"status.{f}") for f in ("active", "succeeded", "failed", "ready", "terminating")],
        ),
        update_status_case(
            "empty and duplicated uncounted pods",
            job(metadata=abc("5")),
            job(
                {"uncountedTerminatedPods": {"succeeded": ["a", "b", "c", "a", ""], "failed": ["c", "d", "e", "d", ""]}},
                metadata=abc("5"),
            ),
            [
                err("status.uncountedTerminatedPods.succeeded[3]", "FieldValueDuplicate"),
                err("status.uncountedTerminatedPods.succeeded[4]"),
                err("status.uncountedTerminatedPods.failed[0]", "FieldValueDuplicate"),
                err("status.uncountedTerminatedPods.failed[3]", "FieldValueDuplicate"),
                err("status.uncountedTerminatedPods.failed[4]"),
            ],
        ),
    ]


def document() -> Json:
    return {
        "format": "jobmodel-conformance/1",
        "suite": "validation",
        "source": (
            "Job status-update validation through the status subresource (StatusStrategy.ValidateUpdate"
            " on the objects as given), upstream v1.32.3: every case of TestStatusStrategy_ValidateUpdate"
            " (pkg/registry/batch/job/strategy_test.go), with the three gates each case sets (JobManagedBy,"
            " JobSuccessPolicy, JobPodReplacementPolicy) in `features`; every case of TestValidateJobUpdateStatus"
            " (pkg/apis/batch/validation/validation_test.go), whose zero JobStatusValidationOptions are JobManagedBy"
            " off through the subresource. The tests compare error lists ignoring value and detail: `errors` is the"
            " exact set of field/type pairs (a pair upstream expects more than once is listed as often, compared as a"
            " set). metav1.Now() is " + NOW + "; pinned to 1.32, where every gate the tests set can be set."
            " Written by tests/conformance/gen/validation_status_extra.py."
        ),
        "cases": status_strategy_cases() + validate_job_update_status_cases(),
    }


def render() -> str:
    return json.dumps(document(), indent=1) + "\n"


def main() -> None:
    OUT.write_text(render())


if __name__ == "__main__":
    main()
