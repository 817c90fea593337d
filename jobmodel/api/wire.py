"""Kubernetes wire format (`batch/v1` Job and CronJob, `v1` Pod, as `kubectl get -o json` prints
them) to snapshots and back.

Reading goes through the one strict decoder (`jobmodel.api.schema`): unknown fields and wrong
types are refused there, naming the field, and the snapshot is built from the decoded object.
The few fields a snapshot cannot do without (an owner reference's uid, a condition's type, ...)
are `required` here. The parts the model only copies (a pod's spec, the fields of a pod's status
it does not read) are kept as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, TypeVar

from jobmodel.api import field as fe
from jobmodel.api import schema
from jobmodel.frozen import FrozenDict, freeze, thaw
from jobmodel.state import (
    Condition,
    ContainerStateTerminated,
    ContainerStatus,
    CronJob,
    CronJobSpec,
    CronJobStatus,
    Job,
    JobCondition,
    JobSpec,
    JobStatus,
    JobTemplateSpec,
    LabelSelector,
    LabelSelectorRequirement,
    ObjectMeta,
    ObjectReference,
    OnExitCodesRequirement,
    OnPodConditionsPattern,
    OwnerReference,
    Pod,
    PodCondition,
    PodFailurePolicy,
    PodFailurePolicyRule,
    PodStatus,
    PodTemplateSpec,
    SuccessPolicy,
    SuccessPolicyRule,
    UncountedTerminatedPods,
)
from jobmodel.timeutil import format_time, is_zero, parse_time

JSON = dict[str, Any]
Decoded = Mapping[str, Any]
T = TypeVar("T")
C = TypeVar("C", bound=Condition)

# --- reading: snapshots from decoded objects ---------------------------------------------------


def _required(m: Decoded, key: str, path: str) -> Any:
    """A string field the object needs: absent, it is Go's zero value "" (the controller then
    meets it as upstream's code does, e.g. a selector operator "" that is not valid)."""
    return m.get(key, "")


def _time(m: Decoded, key: str, path: str) -> datetime | None:
    value = m.get(key)
    return None if value is None else parse_time(value, fe.child(path, key))


def _items(m: Decoded, key: str, path: str, item: Callable[[Decoded, str], T]) -> tuple[T, ...]:
    """A list member, each item read by `item(decoded, path)`."""
    return tuple(item(v, fe.index(fe.child(path, key), i)) for i, v in enumerate(m.get(key, ())))


def _object_meta(m: Decoded, path: str) -> ObjectMeta:
    """metav1.ObjectMeta."""
    return ObjectMeta(
        name=m.get("name", ""),
        namespace=m.get("namespace", ""),
        uid=m.get("uid", ""),
        generate_name=m.get("generateName", ""),
        labels=FrozenDict(m.get("labels")),
        annotations=FrozenDict(m.get("annotations")),
        finalizers=tuple(m.get("finalizers", ())),
        owner_references=_items(m, "ownerReferences", path, _owner_reference),
        creation_timestamp=_time(m, "creationTimestamp", path),
        deletion_timestamp=_time(m, "deletionTimestamp", path),
        deletion_grace_period_seconds=m.get("deletionGracePeriodSeconds"),
        generation=m.get("generation", 0),
        resource_version=m.get("resourceVersion", ""),
        extra=freeze({k: v for k, v in m.items() if k in ("selfLink", "managedFields")}),
    )


def _owner_reference(m: Decoded, path: str) -> OwnerReference:
    return OwnerReference(
        api_version=_required(m, "apiVersion", path),
        kind=_required(m, "kind", path),
        name=_required(m, "name", path),
        uid=_required(m, "uid", path),
        controller=m.get("controller", False),
        block_owner_deletion=m.get("blockOwnerDeletion", False),
    )


def _label_selector(m: Decoded, path: str) -> LabelSelector:
    def requirement(r: Decoded, p: str) -> LabelSelectorRequirement:
        return LabelSelectorRequirement(
            key=_required(r, "key", p), operator=_required(r, "operator", p), values=tuple(r.get("values", ()))
        )

    return LabelSelector(
        match_labels=FrozenDict(m.get("matchLabels")),
        match_expressions=_items(m, "matchExpressions", path, requirement),
    )


def _condition(cls: type[C], m: Decoded, path: str) -> C:
    """A PodCondition or JobCondition (the fields the model keeps are the same)."""
    return cls(
        type=_required(m, "type", path),
        status=m.get("status", ""),
        reason=m.get("reason", ""),
        message=m.get("message", ""),
        last_probe_time=_time(m, "lastProbeTime", path),
        last_transition_time=_time(m, "lastTransitionTime", path),
    )


def _container_status(m: Decoded, path: str) -> ContainerStatus:
    state = m.get("state", {})
    terminated = None
    if "terminated" in state:
        t, tp = state["terminated"], fe.child(path, "state", "terminated")
        terminated = ContainerStateTerminated(
            exit_code=t.get("exitCode", 0),
            finished_at=_time(t, "finishedAt", tp),
            started_at=_time(t, "startedAt", tp),
            reason=t.get("reason", ""),
            message=t.get("message", ""),
            signal=t.get("signal", 0),
        )
    return ContainerStatus(
        name=m.get("name", ""),
        restart_count=m.get("restartCount", 0),
        terminated=terminated,
        other_state=freeze({k: v for k, v in state.items() if k != "terminated"}),
        extra=freeze({k: v for k, v in m.items() if k not in ("name", "restartCount", "state")}),
    )


_POD_STATUS_TYPED = frozenset({"phase", "conditions", "containerStatuses", "initContainerStatuses", "startTime"})


def _pod_status(m: Decoded, path: str) -> PodStatus:
    return PodStatus(
        phase=m.get("phase", ""),
        conditions=_items(m, "conditions", path, lambda c, p: _condition(PodCondition, c, p)),
        container_statuses=_items(m, "containerStatuses", path, _container_status),
        init_container_statuses=_items(m, "initContainerStatuses", path, _container_status),
        start_time=_time(m, "startTime", path),
        extra=freeze({k: v for k, v in m.items() if k not in _POD_STATUS_TYPED}),
    )


def _pod(m: Decoded, path: str) -> Pod:
    return Pod(
        metadata=_object_meta(m.get("metadata", {}), fe.child(path, "metadata")),
        spec=freeze(m.get("spec", {})),
        status=_pod_status(m.get("status", {}), fe.child(path, "status")),
    )


def _pod_template(m: Decoded, path: str) -> PodTemplateSpec:
    meta = m.get("metadata", {})
    return PodTemplateSpec(
        labels=FrozenDict(meta.get("labels")),
        annotations=FrozenDict(meta.get("annotations")),
        finalizers=tuple(meta.get("finalizers", ())),
        metadata_extra=freeze({k: v for k, v in meta.items() if k not in ("labels", "annotations", "finalizers")}),
        spec=freeze(m.get("spec", {})),
    )


def _pod_failure_policy(m: Decoded, path: str) -> PodFailurePolicy:
    def rule(r: Decoded, p: str) -> PodFailurePolicyRule:
        on_exit = None
        if "onExitCodes" in r:
            e = r["onExitCodes"]
            on_exit = OnExitCodesRequirement(
                operator=_required(e, "operator", fe.child(p, "onExitCodes")),
                values=tuple(e.get("values", ())),
                container_name=e.get("containerName"),
            )
        on_conditions = None
        if "onPodConditions" in r:
            # Decoded as Go does (no defaulting): a pattern without status matches only a pod
            # condition whose status is empty too (matchOnPodConditions compares them as given).
            on_conditions = _items(
                r, "onPodConditions", p, lambda c, cp: OnPodConditionsPattern(_required(c, "type", cp), c.get("status", ""))
            )
        return PodFailurePolicyRule(action=_required(r, "action", p), on_exit_codes=on_exit, on_pod_conditions=on_conditions)

    return PodFailurePolicy(rules=_items(m, "rules", path, rule))


def _success_policy(m: Decoded, path: str) -> SuccessPolicy:
    def rule(r: Decoded, p: str) -> SuccessPolicyRule:
        return SuccessPolicyRule(succeeded_indexes=r.get("succeededIndexes"), succeeded_count=r.get("succeededCount"))

    return SuccessPolicy(rules=_items(m, "rules", path, rule))


def _optional(m: Decoded, key: str, path: str, read: Callable[[Decoded, str], T]) -> T | None:
    return None if key not in m else read(m[key], fe.child(path, key))


def _job_spec(m: Decoded, path: str) -> JobSpec:
    return JobSpec(
        template=_pod_template(m.get("template", {}), fe.child(path, "template")),
        parallelism=m.get("parallelism"),
        completions=m.get("completions"),
        active_deadline_seconds=m.get("activeDeadlineSeconds"),
        pod_failure_policy=_optional(m, "podFailurePolicy", path, _pod_failure_policy),
        success_policy=_optional(m, "successPolicy", path, _success_policy),
        backoff_limit=m.get("backoffLimit"),
        backoff_limit_per_index=m.get("backoffLimitPerIndex"),
        max_failed_indexes=m.get("maxFailedIndexes"),
        selector=_optional(m, "selector", path, _label_selector),
        manual_selector=m.get("manualSelector"),
        ttl_seconds_after_finished=m.get("ttlSecondsAfterFinished"),
        completion_mode=m.get("completionMode"),
        suspend=m.get("suspend"),
        pod_replacement_policy=m.get("podReplacementPolicy"),
        managed_by=m.get("managedBy"),
    )


def _job_status(m: Decoded, path: str) -> JobStatus:
    uncounted = m.get("uncountedTerminatedPods")
    return JobStatus(
        conditions=_items(m, "conditions", path, lambda c, p: _condition(JobCondition, c, p)),
        start_time=_time(m, "startTime", path),
        completion_time=_time(m, "completionTime", path),
        active=m.get("active", 0),
        succeeded=m.get("succeeded", 0),
        failed=m.get("failed", 0),
        terminating=m.get("terminating"),
        completed_indexes=m.get("completedIndexes", ""),
        failed_indexes=m.get("failedIndexes"),
        uncounted_terminated_pods=(
            None
            if uncounted is None
            else UncountedTerminatedPods(tuple(uncounted.get("succeeded", ())), tuple(uncounted.get("failed", ())))
        ),
        ready=m.get("ready"),
    )


def _job(m: Decoded, path: str) -> Job:
    return Job(
        metadata=_object_meta(m.get("metadata", {}), fe.child(path, "metadata")),
        spec=_job_spec(m.get("spec", {}), fe.child(path, "spec")),
        status=_job_status(m.get("status", {}), fe.child(path, "status")),
    )


def _object_reference(m: Decoded, path: str) -> ObjectReference:
    """v1.ObjectReference."""
    return ObjectReference(
        name=_required(m, "name", path),
        namespace=m.get("namespace", ""),
        uid=m.get("uid", ""),
        api_version=m.get("apiVersion", ""),
        kind=m.get("kind", ""),
        resource_version=m.get("resourceVersion", ""),
    )


def _job_template(m: Decoded, path: str) -> JobTemplateSpec:
    """batch.JobTemplateSpec."""
    meta = m.get("metadata", {})
    return JobTemplateSpec(
        labels=FrozenDict(meta.get("labels")),
        annotations=FrozenDict(meta.get("annotations")),
        metadata_extra=freeze({k: v for k, v in meta.items() if k not in ("labels", "annotations")}),
        spec=_job_spec(m.get("spec", {}), fe.child(path, "spec")),
    )


def _cron_job_spec(m: Decoded, path: str) -> CronJobSpec:
    return CronJobSpec(
        schedule=m.get("schedule", ""),
        time_zone=m.get("timeZone"),
        starting_deadline_seconds=m.get("startingDeadlineSeconds"),
        concurrency_policy=m.get("concurrencyPolicy", ""),
        suspend=m.get("suspend"),
        job_template=_job_template(m.get("jobTemplate", {}), fe.child(path, "jobTemplate")),
        successful_jobs_history_limit=m.get("successfulJobsHistoryLimit"),
        failed_jobs_history_limit=m.get("failedJobsHistoryLimit"),
    )


def _cron_job_status(m: Decoded, path: str) -> CronJobStatus:
    return CronJobStatus(
        active=_items(m, "active", path, _object_reference),
        last_schedule_time=_time(m, "lastScheduleTime", path),
        last_successful_time=_time(m, "lastSuccessfulTime", path),
    )


def _cron_job(m: Decoded, path: str) -> CronJob:
    return CronJob(
        metadata=_object_meta(m.get("metadata", {}), fe.child(path, "metadata")),
        spec=_cron_job_spec(m.get("spec", {}), fe.child(path, "spec")),
        status=_cron_job_status(m.get("status", {}), fe.child(path, "status")),
    )


def pod_from_json(value: object, path: str = "") -> Pod:
    """A `v1` Pod."""
    return _pod(schema.decode_object(value, "Pod", path), path)


def job_from_json(value: object, path: str = "") -> Job:
    """A `batch/v1` Job."""
    return _job(schema.decode_object(value, "Job", path), path)


def cron_job_from_json(value: object, path: str = "") -> CronJob:
    """A `batch/v1` CronJob."""
    return _cron_job(schema.decode_object(value, "CronJob", path), path)


def pod_status_from_json(value: object, path: str) -> PodStatus:
    """v1.PodStatus."""
    return _pod_status(schema.check_value(schema.obj(value, path), schema.POD_STATUS, path), path)


def label_selector_from_json(value: object, path: str) -> LabelSelector:
    """metav1.LabelSelector."""
    return _label_selector(schema.check_value(schema.obj(value, path), schema.LABEL_SELECTOR, path), path)


def pod_failure_policy_from_json(value: object, path: str) -> PodFailurePolicy:
    """batch.PodFailurePolicy."""
    return _pod_failure_policy(schema.check_value(schema.obj(value, path), schema.POD_FAILURE_POLICY, path), path)


# --- writing --------------------------------------------------------------------------------


def _omitempty(*fields: tuple[str, object]) -> JSON:
    """The fields Go's `omitempty` keeps: all but None and empty strings, maps and lists (a
    caller passes `x or None` where a zero number or false is left out too)."""
    return {k: v for k, v in fields if not (v is None or v == "" or v == {} or v == [] or v == ())}


def _pointers(*fields: tuple[str, object]) -> JSON:
    """The pointer fields that are not nil (None), whatever their value."""
    return {k: v for k, v in fields if v is not None}


def time_to_json(value: datetime | None) -> str | None:
    """A metav1.Time as MarshalJSON writes it: the zero time as null (absent)."""
    return None if value is None or is_zero(value) else format_time(value)


def object_meta_to_json(meta: ObjectMeta) -> JSON:
    return {
        **_omitempty(
            ("name", meta.name),
            ("generateName", meta.generate_name),
            ("namespace", meta.namespace),
            ("uid", meta.uid),
            ("resourceVersion", meta.resource_version),
            ("generation", meta.generation or None),
            ("creationTimestamp", time_to_json(meta.creation_timestamp)),
            ("deletionTimestamp", time_to_json(meta.deletion_timestamp)),
            ("deletionGracePeriodSeconds", meta.deletion_grace_period_seconds),
            ("labels", dict(meta.labels)),
            ("annotations", dict(meta.annotations)),
            ("ownerReferences", [owner_reference_to_json(r) for r in meta.owner_references]),
            ("finalizers", list(meta.finalizers)),
        ),
        **thaw(meta.extra),
    }


def owner_reference_to_json(ref: OwnerReference) -> JSON:
    return {
        "apiVersion": ref.api_version,
        "kind": ref.kind,
        "name": ref.name,
        "uid": ref.uid,
        **_omitempty(("controller", ref.controller or None), ("blockOwnerDeletion", ref.block_owner_deletion or None)),
    }


def label_selector_to_json(selector: LabelSelector) -> JSON:
    exprs = [{"key": r.key, "operator": r.operator, **_omitempty(("values", list(r.values)))} for r in selector.match_expressions]
    return _omitempty(("matchLabels", dict(selector.match_labels)), ("matchExpressions", exprs))


def condition_to_json(cond: Condition) -> JSON:
    """A PodCondition or JobCondition, in Go's field order."""
    return {
        "type": cond.type,
        "status": cond.status,
        **_omitempty(
            ("lastProbeTime", time_to_json(cond.last_probe_time)),
            ("lastTransitionTime", time_to_json(cond.last_transition_time)),
            ("reason", cond.reason),
            ("message", cond.message),
        ),
    }


def container_status_to_json(status: ContainerStatus) -> JSON:
    state: JSON = thaw(status.other_state)
    t = status.terminated
    if t is not None:
        state["terminated"] = {
            "exitCode": t.exit_code,
            **_omitempty(
                ("reason", t.reason),
                ("message", t.message),
                ("signal", t.signal or None),
                ("startedAt", time_to_json(t.started_at)),
                ("finishedAt", time_to_json(t.finished_at)),
            ),
        }
    return {
        **_omitempty(("name", status.name)),
        "restartCount": status.restart_count,  # not omitempty upstream
        **_omitempty(("state", state)),
        **thaw(status.extra),
    }


def pod_status_to_json(status: PodStatus) -> JSON:
    return {
        **_omitempty(
            ("phase", status.phase),
            ("conditions", [condition_to_json(c) for c in status.conditions]),
            ("startTime", time_to_json(status.start_time)),
            ("initContainerStatuses", [container_status_to_json(c) for c in status.init_container_statuses]),
            ("containerStatuses", [container_status_to_json(c) for c in status.container_statuses]),
        ),
        **thaw(status.extra),
    }


def pod_to_json(pod: Pod) -> JSON:
    """A `v1` Pod in wire format."""
    return _envelope("v1", "Pod", object_meta_to_json(pod.metadata), thaw(pod.spec), pod_status_to_json(pod.status))


def pod_template_to_json(template: PodTemplateSpec) -> JSON:
    meta = {
        **thaw(template.metadata_extra),
        **_omitempty(
            ("labels", dict(template.labels)),
            ("annotations", dict(template.annotations)),
            ("finalizers", list(template.finalizers)),
        ),
    }
    return {**_omitempty(("metadata", meta)), "spec": thaw(template.spec)}


def pod_failure_policy_to_json(policy: PodFailurePolicy) -> JSON:
    rules = []
    for rule in policy.rules:
        r: JSON = {"action": rule.action}
        if rule.on_exit_codes is not None:
            e = rule.on_exit_codes
            r["onExitCodes"] = {"operator": e.operator, "values": list(e.values), **_pointers(("containerName", e.container_name))}
        if rule.on_pod_conditions is not None:
            r["onPodConditions"] = [{"type": p.type, "status": p.status} for p in rule.on_pod_conditions]
        rules.append(r)
    return {"rules": rules}


def success_policy_to_json(policy: SuccessPolicy) -> JSON:
    return {
        "rules": [
            _pointers(("succeededIndexes", r.succeeded_indexes), ("succeededCount", r.succeeded_count))
            for r in policy.rules
        ]
    }


def job_spec_to_json(spec: JobSpec) -> JSON:
    return _pointers(
        ("parallelism", spec.parallelism),
        ("completions", spec.completions),
        ("activeDeadlineSeconds", spec.active_deadline_seconds),
        ("backoffLimit", spec.backoff_limit),
        ("backoffLimitPerIndex", spec.backoff_limit_per_index),
        ("maxFailedIndexes", spec.max_failed_indexes),
        ("manualSelector", spec.manual_selector),
        ("ttlSecondsAfterFinished", spec.ttl_seconds_after_finished),
        ("completionMode", spec.completion_mode),
        ("suspend", spec.suspend),
        ("podReplacementPolicy", spec.pod_replacement_policy),
        ("managedBy", spec.managed_by),
        ("podFailurePolicy", None if spec.pod_failure_policy is None else pod_failure_policy_to_json(spec.pod_failure_policy)),
        ("successPolicy", None if spec.success_policy is None else success_policy_to_json(spec.success_policy)),
        ("selector", None if spec.selector is None else label_selector_to_json(spec.selector)),
        ("template", pod_template_to_json(spec.template)),
    )


def job_status_to_json(status: JobStatus) -> JSON:
    """batch.JobStatus in wire format (omitempty fields left out, pointer fields kept when set)."""
    u = status.uncounted_terminated_pods
    return {
        **_omitempty(
            ("conditions", [condition_to_json(c) for c in status.conditions]),
            ("startTime", time_to_json(status.start_time)),
            ("completionTime", time_to_json(status.completion_time)),
            ("active", status.active or None),
            ("succeeded", status.succeeded or None),
            ("failed", status.failed or None),
        ),
        **_pointers(("terminating", status.terminating)),
        **_omitempty(("completedIndexes", status.completed_indexes)),
        **_pointers(
            ("failedIndexes", status.failed_indexes),
            (
                "uncountedTerminatedPods",
                None if u is None else _omitempty(("succeeded", list(u.succeeded)), ("failed", list(u.failed))),
            ),
            ("ready", status.ready),
        ),
    }


def _envelope(api_version: str, kind: str, metadata: JSON, spec: JSON, status: JSON) -> JSON:
    return {"apiVersion": api_version, "kind": kind, "metadata": metadata, "spec": spec, "status": status}


def job_to_json(job: Job) -> JSON:
    """A `batch/v1` Job in wire format."""
    return _envelope(
        "batch/v1", "Job", object_meta_to_json(job.metadata), job_spec_to_json(job.spec), job_status_to_json(job.status)
    )


def object_reference_to_json(ref: ObjectReference) -> JSON:
    return _omitempty(
        ("kind", ref.kind),
        ("namespace", ref.namespace),
        ("name", ref.name),
        ("uid", ref.uid),
        ("apiVersion", ref.api_version),
        ("resourceVersion", ref.resource_version),
    )


def job_template_to_json(template: JobTemplateSpec) -> JSON:
    meta = {
        **thaw(template.metadata_extra),
        **_omitempty(("labels", dict(template.labels)), ("annotations", dict(template.annotations))),
    }
    return {**_omitempty(("metadata", meta)), "spec": job_spec_to_json(template.spec)}


def cron_job_spec_to_json(spec: CronJobSpec) -> JSON:
    return {
        "schedule": spec.schedule,
        **_pointers(
            ("timeZone", spec.time_zone),
            ("startingDeadlineSeconds", spec.starting_deadline_seconds),
            ("suspend", spec.suspend),
            ("successfulJobsHistoryLimit", spec.successful_jobs_history_limit),
            ("failedJobsHistoryLimit", spec.failed_jobs_history_limit),
        ),
        **_omitempty(("concurrencyPolicy", spec.concurrency_policy)),
        "jobTemplate": job_template_to_json(spec.job_template),
    }


def cron_job_status_to_json(status: CronJobStatus) -> JSON:
    return _omitempty(
        ("active", [object_reference_to_json(r) for r in status.active]),
        ("lastScheduleTime", time_to_json(status.last_schedule_time)),
        ("lastSuccessfulTime", time_to_json(status.last_successful_time)),
    )


def cron_job_to_json(cron_job: CronJob) -> JSON:
    """A `batch/v1` CronJob in wire format."""
    return _envelope(
        "batch/v1",
        "CronJob",
        object_meta_to_json(cron_job.metadata),
        cron_job_spec_to_json(cron_job.spec),
        cron_job_status_to_json(cron_job.status),
    )
