"""The API server's handling of Job and CronJob writes: the registry strategies
(upstream `pkg/registry/batch/job/strategy.go`, `pkg/registry/batch/cronjob/strategy.go`) and the
entry points that chain decoding, defaulting, preparation and validation.

Entry points (objects are `batch/v1` wire-format dicts; each returns the object as the API server
would store it and the list of `FieldError`s, empty when the write is accepted; malformed input —
unknown fields, wrong types — raises `jobmodel.errors.InputError` naming the field):

- `create_job(obj, uid, gates)`: decode defaults, the uid the server assigns, PrepareForCreate
  (selector generation, status cleared, generation 1, fields of disabled gates dropped), Validate;
- `update_job(obj, old, gates)`: decode defaults of `obj` (a full object, e.g. `old` with a merge
  patch applied; a missing resourceVersion is taken from `old`, as for any unconditional update),
  PrepareForUpdate against the stored `old`, ValidateUpdate (ValidateJob + ValidateJobUpdate);
- `update_job_status(obj, old, gates)`: the `status` subresource: spec kept from `old`,
  ValidateJobUpdateStatus with the options of getStatusValidationOptions;
- `create_cron_job(obj, uid, gates)`, `update_cron_job(obj, old, gates)`: the same for CronJobs.

An accepted write gets a new `metadata.resourceVersion` (the model's storage counts from 1); an
update that leaves the stored object as it is keeps its version (etcd3 writes nothing).
`prepare_job_for_create` / `prepare_job_for_update` are `create_job` / `update_job` under the
names the simulator uses.
"""

from __future__ import annotations

import copy
import json
import uuid
from collections.abc import Mapping, Sequence
from typing import Any, Final

from jobmodel.api import field as fe
from jobmodel.api import validation as bv
from jobmodel.api.defaults import set_defaults_cron_job, set_defaults_job
from jobmodel.api.equality import semantic_equal
from jobmodel.api.field import FieldError
from jobmodel.api.go_json import dumps_keeping_literals, literal_float
from jobmodel.api.job_scheduling import drop_disabled_fields, validate_scheduling_declaratively
from jobmodel.api.meta_validation import (
    dedup_owner_references,
    label_selector_has_invalid_label_value,
)
from jobmodel.api.names import name_generated_before_create
from jobmodel.api.pod_claims import drop_disabled_dynamic_resource_allocation_fields
from jobmodel.api.pod_drop import drop_disabled_pod_fields
from jobmodel.api.pod_env import drop_file_key_ref, pod_file_key_ref_in_use
from jobmodel.api.pod_recent_fields import validate_eviction_responders_declaratively
from jobmodel.api.pod_resources import drop_disabled_pod_level_resources
from jobmodel.api.pod_security import drop_disabled_security_fields
from jobmodel.api.pod_validation import container_restart_rules_in_use, pod_validation_options
from jobmodel.api.pod_volumes import drop_disabled_volume_fields
from jobmodel.api.schema import decode_object, without_unknown_fields
from jobmodel.api.warnings import handler_warnings
from jobmodel.errors import InputError, describe, printable
from jobmodel.features import DEFAULT_GATES, FeatureGates
from jobmodel.util.goquote import go_quote
from jobmodel.util.gostrings import decimal_successor

Obj = dict[str, Any]


# ---------------------------------------------------------------------------- Job strategy


def generate_selector(job: Obj) -> None:
    """generateSelector (in place): the job-name and controller-uid labels (both spellings) on the
    template unless the user set them, and `batch.kubernetes.io/controller-uid` in the selector."""
    meta = job.get("metadata") or {}
    spec = job.setdefault("spec", {})
    template_meta = spec.setdefault("template", {}).setdefault("metadata", {})
    labels = template_meta.get("labels")
    if labels is None:
        labels = template_meta["labels"] = {}
    # A label the user set is kept even when it conflicts; validation rejects the conflict.
    for key in (bv.LEGACY_JOB_NAME_LABEL, bv.JOB_NAME_LABEL):
        labels.setdefault(key, str(meta.get("name") or ""))
    for key in (bv.LEGACY_CONTROLLER_UID_LABEL, bv.CONTROLLER_UID_LABEL):
        labels.setdefault(key, str(meta.get("uid") or ""))
    selector = spec.get("selector")
    if selector is None:
        selector = spec["selector"] = {}
    match_labels = selector.get("matchLabels")
    if match_labels is None:
        match_labels = selector["matchLabels"] = {}
    match_labels.setdefault(bv.CONTROLLER_UID_LABEL, str(meta.get("uid") or ""))


def generate_selector_if_needed(job: Obj) -> None:
    """generateSelectorIfNeeded: only when manualSelector is not true."""
    if (job.get("spec") or {}).get("manualSelector") is not True:
        generate_selector(job)


def drop_container_restart_rules(pod_spec: dict[str, Any]) -> None:
    """dropContainerRestartRules (in place): an init container keeps only `restartPolicy: Always`;
    no container keeps `restartPolicyRules`, and a regular one no `restartPolicy`."""
    for ctr in pod_spec.get("initContainers") or []:
        if ctr.get("restartPolicy") not in (None, "Always"):
            ctr.pop("restartPolicy")
        ctr.pop("restartPolicyRules", None)
    for key in ("containers", "ephemeralContainers"):
        for ctr in pod_spec.get(key) or []:
            ctr.pop("restartPolicy", None)
            ctr.pop("restartPolicyRules", None)


def drop_disabled_template_fields(
    template: Mapping[str, Any] | None, old: Mapping[str, Any] | None, gates: FeatureGates
) -> None:
    """DropDisabledTemplateFields (`pkg/api/pod/util.go`), in place; the part that differs between
    the releases modelled: ContainerRestartRules (alpha, off in 1.34; on from 1.35, where
    validation judges the fields) drops container restart rules not already in use; EnvFiles
    (alpha, off in 1.34) drops env vars' fileKeyRef (dropFileKeyRefInUse), which older releases'
    types lack (their decoder refuses it); PodLevelResources (off before 1.34) the pod-level
    resources; the security fields of gates off at 1.32 (drop_disabled_security_fields);
    DynamicResourceAllocation (off before 1.34) the resource claims
    (drop_disabled_dynamic_resource_allocation_fields); the other gates off by default in a
    release that has their fields (pod_drop); the volume fields (drop_disabled_volume_fields)."""
    if template is None or not isinstance(template.get("spec"), dict):
        return
    old_spec = None if old is None else old.get("spec")
    drop_disabled_security_fields(template["spec"], old_spec, gates.release)
    if gates.release == 34 and not pod_file_key_ref_in_use(old_spec):
        drop_file_key_ref(template["spec"])
    drop_disabled_pod_level_resources(template["spec"], old_spec, gates.release)
    drop_disabled_dynamic_resource_allocation_fields(template["spec"], old_spec, gates.release)
    drop_disabled_volume_fields(template["spec"], old_spec, gates.release)
    if gates.release == 34 and not container_restart_rules_in_use(old_spec):
        drop_container_restart_rules(template["spec"])
    drop_disabled_pod_fields(template["spec"], old_spec, gates.release)


def job_prepare_for_create(job: Mapping[str, Any], gates: FeatureGates = DEFAULT_GATES) -> Obj:
    """jobStrategy.PrepareForCreate."""
    out: Obj = copy.deepcopy(dict(job))
    generate_selector_if_needed(out)
    out.pop("status", None)
    out.setdefault("metadata", {})["generation"] = 1
    spec = out.setdefault("spec", {})
    if not gates.JobManagedBy:
        spec.pop("managedBy", None)
    if not gates.JobSuccessPolicy:
        spec.pop("successPolicy", None)
    if not gates.JobBackoffLimitPerIndex:
        spec.pop("backoffLimitPerIndex", None)
        spec.pop("maxFailedIndexes", None)
        policy = spec.get("podFailurePolicy")
        if policy is not None:
            policy["rules"] = [
                r for r in policy.get("rules") or [] if r.get("action") != "FailIndex"
            ]
    if not gates.JobPodReplacementPolicy:
        spec.pop("podReplacementPolicy", None)
    drop_disabled_fields(spec, None, gates.WorkloadWithJob)
    drop_disabled_template_fields(spec.get("template"), None, gates)
    return out


def job_prepare_for_update(
    new: Mapping[str, Any], old: Mapping[str, Any], gates: FeatureGates = DEFAULT_GATES
) -> Obj:
    """jobStrategy.PrepareForUpdate: status kept, fields of disabled gates dropped unless already
    in use, generation bumped when the spec changed."""
    out: Obj = copy.deepcopy(dict(new))
    old_spec = old.get("spec") or {}
    _set_or_pop(out, "status", old.get("status"))
    spec = out.setdefault("spec", {})
    if not gates.JobSuccessPolicy and old_spec.get("successPolicy") is None:
        spec.pop("successPolicy", None)
    if not gates.JobBackoffLimitPerIndex:
        for name in ("backoffLimitPerIndex", "maxFailedIndexes"):
            if old_spec.get(name) is None:
                spec.pop(name, None)
    if not gates.JobPodReplacementPolicy and old_spec.get("podReplacementPolicy") is None:
        spec.pop("podReplacementPolicy", None)
    drop_disabled_fields(spec, old_spec, gates.WorkloadWithJob)
    drop_disabled_template_fields(spec.get("template"), old_spec.get("template"), gates)
    if not semantic_equal(spec, old_spec):
        old_generation = int((old.get("metadata") or {}).get("generation") or 0)
        out.setdefault("metadata", {})["generation"] = old_generation + 1
    return out


def _set_or_pop(obj: Obj, key: str, value: Any) -> None:
    if value is None:
        obj.pop(key, None)
    else:
        obj[key] = copy.deepcopy(value)


def validation_options_for_job(
    new: Mapping[str, Any], old: Mapping[str, Any] | None, gates: FeatureGates = DEFAULT_GATES
) -> bv.JobValidationOptions:
    """validationOptionsForJob (the gates' release also words the errors)."""
    if old is None:
        return bv.JobValidationOptions(pod=pod_validation_options(gates.release, None))
    old_spec = old.get("spec") or {}
    old_status = old.get("status") or {}
    suspended = old_spec.get("suspend") is True
    not_started = old_status.get("startTime") is None
    idle = not old_status.get("active")
    has_suspended_condition = bv.is_condition_true(old, "Suspended")
    if gates.at_least(36):
        # shouldAllowMutablePodTemplate
        mutable_template = suspended and (not_started or has_suspended_condition) and idle
        mutable_resources = mutable_template
        mutable_directives = mutable_template
    else:
        # 1.35's gates read the Suspended condition alone.
        mutable_resources = has_suspended_condition and idle
        mutable_directives = suspended and has_suspended_condition and idle
    old_labels = ((old_spec.get("template") or {}).get("metadata") or {}).get("labels") or {}
    return bv.JobValidationOptions(
        allow_mutable_scheduling_directives=mutable_directives
        if gates.MutableSchedulingDirectivesForSuspendedJobs
        else suspended and not_started,
        allow_mutable_pod_resources=gates.MutablePodResourcesForSuspendedJobs and mutable_resources,
        # Jobs created before the prefixed labels existed keep validating without them.
        require_prefixed_labels=bv.JOB_NAME_LABEL in old_labels
        and bv.CONTROLLER_UID_LABEL in old_labels,
        allow_invalid_label_value_in_selector=label_selector_has_invalid_label_value(
            old_spec.get("selector")
        ),
        pod=pod_validation_options(
            gates.release, (old_spec.get("template") or {}).get("spec") or {}, (old_spec.get("template") or {}).get("metadata") or {}
        ),
    )


def to_aggregate(errs: list[FieldError]) -> list[FieldError]:
    """ErrorList.ToAggregate (apimachinery `util/validation/field/errors.go`): an error whose
    message repeats an earlier one's is dropped."""
    seen: set[str] = set()
    kept: list[FieldError] = []
    for err in errs:
        if str(err) not in seen:
            seen.add(str(err))
            kept.append(err)
    return kept


def validate_declaratively(
    errs: list[FieldError],
    gates: FeatureGates,
    job_spec: Mapping[str, Any],
    old_job_spec: Mapping[str, Any] | None,
    path: str,
    own: Sequence[FieldError] = (),
) -> list[FieldError]:
    """What the API server's declarative validation does to a Job or CronJob strategy's errors
    (`rest.ValidateDeclarativelyWithMigrationChecks`, run by BeforeCreate/BeforeUpdate from 1.37):
    its FilterCoveredHandwrittenErrors passes them through ErrorList.Filter, hence ToAggregate,
    which drops repeated messages (1.36's CronJob strategy returns before filtering); then its own
    errors are appended. The declarative rules of their own in the fields the model validates
    are those of the Job spec's (at `path`) `scheduling` and of its pod template's
    `evictionResponders`, after `own`: those of the object's own fields before its Job spec's
    (a CronJob's `schedule`)."""
    if not gates.at_least(37):
        return errs
    pod_spec = (job_spec.get("template") or {}).get("spec") or {}
    old_pod_spec = None if old_job_spec is None else (old_job_spec.get("template") or {}).get("spec") or {}
    return (
        to_aggregate(errs)
        + list(own)
        + validate_scheduling_declaratively(job_spec, old_job_spec, fe.child(path, "scheduling"))
        + validate_eviction_responders_declaratively(pod_spec, old_pod_spec, fe.child(path, "template", "spec"))
    )


def _spec(obj: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    return None if obj is None else obj.get("spec") or {}


def _job_template_spec(cron_job: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    return None if cron_job is None else ((cron_job.get("spec") or {}).get("jobTemplate") or {}).get("spec") or {}


def job_validate(job: Mapping[str, Any], gates: FeatureGates = DEFAULT_GATES) -> list[FieldError]:
    """jobStrategy.Validate."""
    errs = bv.validate_job(job, validation_options_for_job(job, None, gates))
    return validate_declaratively(errs, gates, _spec(job) or {}, None, "spec")


def job_validate_update(
    new: Mapping[str, Any], old: Mapping[str, Any], gates: FeatureGates = DEFAULT_GATES
) -> list[FieldError]:
    """jobStrategy.ValidateUpdate: up to 1.36 ValidateJob, then ValidateJobUpdate, with the same
    options; 1.37 runs ValidateJobUpdate alone (no create-time metadata and generated-selector
    checks on update, the spec checked once) with validateNameAllowsCompletions."""
    opts = validation_options_for_job(new, old, gates)
    if gates.at_least(37):
        errs = bv.validate_job_update(new, old, opts) + bv.validate_name_allows_completions(new)
        return validate_declaratively(errs, gates, _spec(new) or {}, _spec(old), "spec")
    return bv.validate_job(new, opts) + bv.validate_job_update(new, old, opts)


def job_status_prepare_for_update(new: Mapping[str, Any], old: Mapping[str, Any]) -> Obj:
    """jobStatusStrategy.PrepareForUpdate: the spec cannot change through the status subresource."""
    out: Obj = copy.deepcopy(dict(new))
    _set_or_pop(out, "spec", old.get("spec"))
    return out


def get_status_validation_options(
    new: Mapping[str, Any], old: Mapping[str, Any], gates: FeatureGates = DEFAULT_GATES
) -> bv.JobStatusValidationOptions:
    """getStatusValidationOptions: with JobManagedBy, a rule is enforced when the fields it reads changed."""
    if not gates.JobManagedBy:
        if gates.JobPodReplacementPolicy:
            return bv.JobStatusValidationOptions(
                release=gates.release, allow_for_success_criteria_met_in_extended_scope=True
            )
        return bv.JobStatusValidationOptions(
            release=gates.release,
            allow_for_success_criteria_met_in_extended_scope=bv.is_condition_true(
                old, "SuccessCriteriaMet"
            )
        )
    spec = new.get("spec") or {}
    st, old_st = new.get("status") or {}, old.get("status") or {}

    def changed(name: str, zero: Any = None) -> bool:
        return bool(st.get(name, zero) != old_st.get(name, zero))

    def cond_changed(ctype: str) -> bool:
        return bv.is_condition_true(old, ctype) != bv.is_condition_true(new, ctype)

    indexed = spec.get("completionMode") == "Indexed"
    finished_changed = bv.is_job_finished(old) != bv.is_job_finished(new)
    complete_changed, failed_changed = cond_changed("Complete"), cond_changed("Failed")
    failure_target_changed, success_met_changed = (
        cond_changed("FailureTarget"),
        cond_changed("SuccessCriteriaMet"),
    )
    completed_changed = changed("completedIndexes", "")
    failed_indexes_changed = changed("failedIndexes")
    active_changed = changed("active", 0)
    start_changed = bv.status_time(st, "startTime") != bv.status_time(old_st, "startTime")
    completion_changed = bv.status_time(st, "completionTime") != bv.status_time(old_st, "completionTime")
    uncounted_changed = not semantic_equal(
        st.get("uncountedTerminatedPods"), old_st.get("uncountedTerminatedPods")
    )
    ready_changed, terminating_changed = changed("ready"), changed("terminating")
    # v1.32.13 and 1.33+ (kubernetes/kubernetes#134521, #135128): a suspended Job with no
    # completions may finish without a startTime, and a resume may set a new one.
    suspended_with_zero_completions = spec.get("suspend") is True and spec.get("completions") == 0
    resuming = bv.is_condition_true(old, "Suspended") and _condition_false(new, "Suspended")
    return bv.JobStatusValidationOptions(
        release=gates.release,
        # Indexed Jobs with completions == parallelism may scale down, losing succeeded pods.
        reject_decreasing_succeeded_counter=not indexed
        or spec.get("completions") != spec.get("parallelism"),
        reject_decreasing_failed_counter=True,
        reject_disabling_terminal_condition=True,
        reject_invalid_completed_indexes=completed_changed,
        reject_invalid_failed_indexes=failed_indexes_changed,
        reject_completed_indexes_for_non_indexed_job=completed_changed,
        reject_failed_indexes_for_no_backoff_limit_per_index=failed_indexes_changed,
        reject_failed_indexes_overlapping_completed=failed_indexes_changed or completed_changed,
        reject_failed_job_without_failure_target=failed_changed or failed_indexes_changed,
        reject_complete_job_without_success_criteria_met=complete_changed or success_met_changed,
        reject_finished_job_with_active_pods=finished_changed or active_changed,
        reject_finished_job_without_start_time=(finished_changed or start_changed)
        and not (gates.at_least(33) and suspended_with_zero_completions),
        reject_finished_job_with_uncounted_terminated_pods=finished_changed or uncounted_changed,
        reject_start_time_update_for_unsuspended_job=start_changed and not (gates.at_least(33) and resuming),
        reject_completion_time_before_start_time=start_changed or completion_changed,
        reject_mutating_completion_time=True,
        reject_not_complete_job_with_completion_time=complete_changed or completion_changed,
        reject_complete_job_without_completion_time=complete_changed or completion_changed,
        reject_complete_job_with_failed_condition=complete_changed or failed_changed,
        reject_complete_job_with_failure_target_condition=complete_changed
        or failure_target_changed,
        allow_for_success_criteria_met_in_extended_scope=True,
        reject_more_ready_than_active_pods=ready_changed or active_changed,
        reject_finished_job_with_terminating_pods=finished_changed or terminating_changed,
    )


def _condition_false(job: Mapping[str, Any], ctype: str) -> bool:
    """IsConditionFalse: a condition of that type with status False."""
    return any(c.get("type") == ctype and c.get("status") == "False" for c in (job.get("status") or {}).get("conditions") or [])


def job_status_validate_update(
    new: Mapping[str, Any], old: Mapping[str, Any], gates: FeatureGates = DEFAULT_GATES
) -> list[FieldError]:
    """jobStatusStrategy.ValidateUpdate."""
    errs = bv.validate_job_update_status(new, old, get_status_validation_options(new, old, gates))
    return validate_declaratively(errs, gates, _spec(new) or {}, _spec(old), "spec")


# ---------------------------------------------------------------------------- CronJob strategy


def _job_template_pod_template(cron_job: Mapping[str, Any]) -> Any:
    return (((cron_job.get("spec") or {}).get("jobTemplate") or {}).get("spec") or {}).get("template")


def _drop_disabled_job_template_fields(
    cron_job: Obj, old: Mapping[str, Any] | None, gates: FeatureGates
) -> None:
    """1.37's CronJob strategy drops the job template's Job fields as the Job strategy does
    (job.DropDisabledFields)."""
    job_spec = ((cron_job.get("spec") or {}).get("jobTemplate") or {}).get("spec")
    if isinstance(job_spec, dict):
        drop_disabled_fields(job_spec, _job_template_spec(old), gates.WorkloadWithJob)


def cron_job_prepare_for_create(cron_job: Mapping[str, Any], gates: FeatureGates = DEFAULT_GATES) -> Obj:
    """cronJobStrategy.PrepareForCreate: status cleared, generation 1, fields of disabled gates dropped."""
    out: Obj = copy.deepcopy(dict(cron_job))
    out.pop("status", None)
    out.setdefault("metadata", {})["generation"] = 1
    _drop_disabled_job_template_fields(out, None, gates)
    drop_disabled_template_fields(_job_template_pod_template(out), None, gates)
    return out


def cron_job_prepare_for_update(
    new: Mapping[str, Any], old: Mapping[str, Any], gates: FeatureGates = DEFAULT_GATES
) -> Obj:
    """cronJobStrategy.PrepareForUpdate: status kept, fields of disabled gates dropped unless in use,
    generation bumped when the spec changed."""
    out: Obj = copy.deepcopy(dict(new))
    _set_or_pop(out, "status", old.get("status"))
    _drop_disabled_job_template_fields(out, old, gates)
    drop_disabled_template_fields(_job_template_pod_template(out), _job_template_pod_template(old), gates)
    if not semantic_equal(out.get("spec"), old.get("spec")):
        old_generation = int((old.get("metadata") or {}).get("generation") or 0)
        out.setdefault("metadata", {})["generation"] = old_generation + 1
    return out


def schedule_required_declaratively(
    new: Mapping[str, Any], old: Mapping[str, Any] | None, gates: FeatureGates
) -> list[FieldError]:
    """Validate_CronJobSpec's beta `+k8s:required` rule on `schedule` (pkg/apis/batch/v1/
    zz_generated.validations.go, from 1.37): Required when empty; on an update that keeps the
    schedule it does not run ("don't revalidate unchanged data")."""
    schedule = (new.get("spec") or {}).get("schedule") or ""
    kept = old is not None and ((old.get("spec") or {}).get("schedule") or "") == schedule
    if not gates.at_least(37) or schedule or kept:
        return []
    return [fe.required(fe.child("spec", "schedule"))]


def declarative_schedule_required(
    errs: list[FieldError], gates: FeatureGates, new: Mapping[str, Any], old: Mapping[str, Any] | None = None
) -> tuple[list[FieldError], list[FieldError]]:
    """1.37's validateCronJobSpec marks its `schedule` Required MarkCoveredByDeclarative, and
    the declarative rule (`schedule_required_declaratively`) takes it over: the handwritten error
    is filtered out and the declarative one comes after the handwritten list. Where the rule does
    not run (an update keeping the schedule) the handwritten error stays where it is. Returns
    (handwritten, declarative)."""
    own = schedule_required_declaratively(new, old, gates)
    if not own:
        return errs, []
    return [e for e in errs if not (e.field == "spec.schedule" and e.type == fe.REQUIRED)], own


def cron_job_validate(cron_job: Mapping[str, Any], gates: FeatureGates = DEFAULT_GATES) -> list[FieldError]:
    """cronJobStrategy.Validate."""
    errs, own = declarative_schedule_required(bv.validate_cron_job_create(cron_job, gates), gates, cron_job)
    return validate_declaratively(errs, gates, _job_template_spec(cron_job) or {}, None, "spec.jobTemplate.spec", own)


def cron_job_validate_update(
    new: Mapping[str, Any], old: Mapping[str, Any], gates: FeatureGates = DEFAULT_GATES
) -> list[FieldError]:
    """cronJobStrategy.ValidateUpdate."""
    errs, own = declarative_schedule_required(bv.validate_cron_job_update(new, old, gates), gates, new, old)
    return validate_declaratively(errs, gates, _job_template_spec(new) or {}, _job_template_spec(old), "spec.jobTemplate.spec", own)


def cron_job_status_validate_update(
    new: Mapping[str, Any], old: Mapping[str, Any], gates: FeatureGates = DEFAULT_GATES
) -> list[FieldError]:
    """cronJobStatusStrategy.ValidateUpdate (no errors of its own) and, from 1.37, the API
    server's declarative validation of the whole CronJob as given (Validate_CronJob is registered
    for "/" and "/status" alike): the schedule's rule and the job template's."""
    own = schedule_required_declaratively(new, old, gates)
    return validate_declaratively([], gates, _job_template_spec(new) or {}, _job_template_spec(old), "spec.jobTemplate.spec", own)


# ---------------------------------------------------------------------------- entry points


def _with_uid(obj: Obj, uid: str) -> Obj:
    """FillObjectMetaSystemFields: the server assigns the uid of a new object."""
    obj.setdefault("metadata", {})["uid"] = uid
    return obj


def _unconditional(obj: Obj, old: Mapping[str, Any]) -> Obj:
    """Jobs and CronJobs allow unconditional updates: a request without a resourceVersion gets
    the stored one (Store.Update), so only a stored object without one is refused."""
    meta = obj.setdefault("metadata", {})
    if not meta.get("resourceVersion") and (old.get("metadata") or {}).get("resourceVersion"):
        meta["resourceVersion"] = old["metadata"]["resourceVersion"]
    return obj


def _stored(
    obj: Obj, errors: list[FieldError], old: Mapping[str, Any] | None
) -> tuple[Obj, list[FieldError]]:
    """What storage keeps of an accepted write: a new resourceVersion (the model counts from 1).

    The object goes through JSON as through etcd, which separates dicts that defaulting shared
    (a Job's labels and its template's, see set_defaults_job)."""
    try:
        obj = json.loads(json.dumps(obj, allow_nan=False))
    except ValueError:  # a number beyond float64 in a free-form field (fieldsV1): kept as written
        obj = json.loads(dumps_keeping_literals(obj), parse_float=literal_float)
    if not errors and old is not None and _unchanged(obj, old):
        # etcd3's GuaranteedUpdate writes nothing when the encoded object is the stored one:
        # the object keeps its resourceVersion, and no watcher hears of it.
        obj.setdefault("metadata", {})["resourceVersion"] = (old.get("metadata") or {}).get("resourceVersion")
    elif not errors:
        previous = str(((old or {}).get("metadata") or {}).get("resourceVersion") or "0")
        try:
            version = decimal_successor(previous)
        except ValueError:  # not ASCII digits (isdigit() would take `²`, which int() refuses)
            version = "1"
        obj.setdefault("metadata", {})["resourceVersion"] = version
    return obj, errors


def _unchanged(obj: Mapping[str, Any], old: Mapping[str, Any]) -> bool:
    """The update stores what is stored already (the request's resourceVersion aside)."""
    return _without_version(obj) == _without_version(old)


def _without_version(obj: Mapping[str, Any]) -> dict[str, Any]:
    meta = {k: v for k, v in (obj.get("metadata") or {}).items() if k != "resourceVersion"}
    return {**obj, "metadata": meta}


def create_job(
    obj: Mapping[str, Any], uid: str, gates: FeatureGates = DEFAULT_GATES
) -> tuple[Obj, list[FieldError]]:
    """A Job create: decode with defaults, assign the uid, PrepareForCreate, Validate."""
    obj = decode_object(obj, "Job", release=gates.release)
    stored = job_prepare_for_create(_with_uid(set_defaults_job(obj, gates), uid), gates)
    return _stored(stored, job_validate(stored, gates), None)


prepare_job_for_create = create_job


def update_job(
    obj: Mapping[str, Any], old: Mapping[str, Any], gates: FeatureGates = DEFAULT_GATES
) -> tuple[Obj, list[FieldError]]:
    """A Job update: decode with defaults, PrepareForUpdate, ValidateUpdate."""
    obj = decode_object(obj, "Job", release=gates.release)
    stored = job_prepare_for_update(_unconditional(set_defaults_job(obj, gates), old), old, gates)
    return _stored(stored, job_validate_update(stored, old, gates), old)


prepare_job_for_update = update_job


def update_job_status(
    obj: Mapping[str, Any], old: Mapping[str, Any], gates: FeatureGates = DEFAULT_GATES
) -> tuple[Obj, list[FieldError]]:
    """A write to the Job's status subresource."""
    obj = decode_object(obj, "Job", release=gates.release)
    stored = job_status_prepare_for_update(_unconditional(set_defaults_job(obj, gates), old), old)
    return _stored(stored, job_status_validate_update(stored, old, gates), old)


def create_cron_job(
    obj: Mapping[str, Any], uid: str, gates: FeatureGates = DEFAULT_GATES
) -> tuple[Obj, list[FieldError]]:
    """A CronJob create: decode with defaults, assign the uid, PrepareForCreate, Validate."""
    obj = decode_object(obj, "CronJob", release=gates.release)
    stored = cron_job_prepare_for_create(_with_uid(set_defaults_cron_job(obj, gates), uid), gates)
    return _stored(stored, cron_job_validate(stored, gates), None)


def update_cron_job(
    obj: Mapping[str, Any], old: Mapping[str, Any], gates: FeatureGates = DEFAULT_GATES
) -> tuple[Obj, list[FieldError]]:
    """A CronJob update: decode with defaults, PrepareForUpdate, ValidateUpdate."""
    obj = decode_object(obj, "CronJob", release=gates.release)
    stored = cron_job_prepare_for_update(
        _unconditional(set_defaults_cron_job(obj, gates), old), old, gates
    )
    return _stored(stored, cron_job_validate_update(stored, old, gates), old)


# ---------------------------------------------------------------------------- the front door

# The resource of each kind an object may be created as (what kubectl prints: `job.batch/pi`).
RESOURCES = {"Job": "job.batch", "CronJob": "cronjob.batch"}


def default_uid(namespace: str, name: str) -> str:
    """A stable uid per object, so that repeated runs print the same selector."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, printable(f"jobmodel:{namespace}/{name}")))


def with_namespace(obj: Mapping[str, Any], namespace: str) -> Obj:
    """The object as kubectl sends it: the namespace of its context when the manifest gives none."""
    meta = obj.get("metadata")
    if meta is not None and not isinstance(meta, Mapping):
        raise InputError("metadata", f"expected an object, got {describe(meta)}")
    request = dict(obj)
    request["metadata"] = {**(meta or {})}
    if request["metadata"].get("namespace") in (None, ""):
        request["metadata"]["namespace"] = namespace
    return request


def create_request(
    kind: str, obj: Mapping[str, Any], namespace: str, release: int, field_validation: str = "Strict"
) -> tuple[Obj, list[str]]:
    """The object as the API server takes it in, and the handler's warnings: the namespace of
    kubectl's context when the manifest gives none, then the handler's part (`handler_request`),
    and a generated name when it gives only `generateName` (the name drawn from the namespace and
    prefix, so that every command names it alike)."""
    request, warned = handler_request(kind, with_namespace(obj, namespace), release, field_validation)
    meta = request["metadata"]
    return name_generated_before_create(request, f"{meta.get('namespace')}/{meta.get('generateName')}"), warned


def handler_request(
    kind: str, obj: Mapping[str, Any], release: int, field_validation: str = "Strict"
) -> tuple[Obj, list[str]]:
    """What the create, update and patch handlers do before the strategy sees an object, and
    their warnings, in their order: decode it under the fieldValidation directive
    (`decoded_under`), then drop duplicate owner references (dedupOwnerReferencesAndAddWarning:
    references are compared as decoded, so an unknown field neither tells two apart nor escapes
    the decoder by being dropped as a duplicate)."""
    decoded, warned = decoded_under(kind, obj, release, field_validation)
    return with_owner_references_deduped(decoded), warned + handler_warnings(decoded)


def with_owner_references_deduped(obj: Mapping[str, Any]) -> Obj:
    """What the create, update and patch handlers do to an object before the strategy sees it
    (dedupOwnerReferencesAndAddWarning): its owner references without duplicates."""
    meta = obj.get("metadata")
    if not isinstance(meta, Mapping) or not isinstance(refs := meta.get("ownerReferences"), list):
        return dict(obj)
    return {**obj, "metadata": {**meta, "ownerReferences": dedup_owner_references(refs)[0]}}


def create_object(
    obj: Any, namespace: str, uid: str | None = None, gates: FeatureGates = DEFAULT_GATES
) -> tuple[str, Obj, list[FieldError]]:
    """A Job or CronJob of a manifest created as `kubectl create -n NAMESPACE` would: the
    request's namespace filled in, then decoded, defaulted, prepared and validated; returns
    (kind, stored object, errors)."""
    kind = resource_kind(obj)
    return (kind, *create_requested(kind, create_request(kind, obj, namespace, gates.release)[0], uid, gates))


# The `fieldValidation` directives of a create or update (metav1.FieldValidation*): kubectl sends
# Strict unless `--validate` says otherwise.
FIELD_VALIDATIONS: Final = ("Strict", "Warn", "Ignore")


def decoded_under(kind: str, request: Mapping[str, Any], release: int, field_validation: str) -> tuple[Obj, list[str]]:
    """The handler's decoding of a request under a fieldValidation directive (the request, and
    the warnings it adds: addStrictDecodingWarnings). Strict leaves unknown fields to the strict
    decoder of the create (an InputError); Warn and Ignore leave them out, Warn with a warning for
    each (`unknown field "spec.foo"`, the decoder's error text)."""
    if field_validation == "Strict":
        decode_object(request, kind, release=release)  # its error, before anything else looks
        return dict(request), []
    decoded, unknown = without_unknown_fields(request, kind, release)
    warned = [f"unknown field {go_quote(path)}" for path in unknown] if field_validation == "Warn" else []
    return dict(decoded), warned


def resource_kind(obj: Any) -> str:
    """The kind of a manifest document this API serves (Job or CronJob); InputError otherwise."""
    if not isinstance(obj, Mapping):
        raise InputError("", f"a manifest document must be an object, got {describe(obj)}")
    kind = obj.get("kind")
    if not isinstance(kind, str) or kind not in RESOURCES:
        raise InputError("kind", f"expected Job or CronJob, got {describe(kind)}")
    return kind


def create_requested(
    kind: str, request: Mapping[str, Any], uid: str | None, gates: FeatureGates
) -> tuple[Obj, list[FieldError]]:
    """The create of a request as `create_request` makes it: (stored object, errors); the uid,
    when not given, drawn from the namespace and name."""
    meta = request["metadata"]
    the_uid = uid or default_uid(str(meta.get("namespace")), str(meta.get("name") or ""))
    create = create_job if kind == "Job" else create_cron_job
    return create(request, the_uid, gates)
