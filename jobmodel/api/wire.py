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
from jobmodel.errors import InputError
from jobmodel.frozen import FrozenDict, freeze, thaw
from jobmodel.state import (
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
from jobmodel.timeutil import format_time, parse_time

JSON = dict[str, Any]
Decoded = Mapping[str, Any]
T = TypeVar("T")
Condition = TypeVar("Condition", PodCondition, JobCondition)

# --- reading: snapshots from decoded objects ---------------------------------------------------


def _required(m: Decoded, key: str, path: str) -> Any:
    if key not in m:
        raise InputError(fe.child(path, key), "required")
    return m[key]


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


def _condition(cls: type[Condition], m: Decoded, path: str) -> Condition:
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
            on_conditions = _items(
                r, "onPodConditions", p, lambda c, cp: OnPodConditionsPattern(_required(c, "type", cp), c.get("status", "True"))
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


def _put(out: JSON, key: str, value: object) -> None:
    """Set a key unless the value is unset (None, empty map, empty list, empty string)."""
    if value is None or value == "" or value == {} or value == [] or value == ():
        return
    out[key] = value


def _put_set(out: JSON, fields: tuple[tuple[str, object], ...]) -> None:
    """Set each pointer field that is not nil (None), whatever its value."""
    for key, value in fields:
        if value is not None:
            out[key] = value


def _format(value: datetime | None) -> str | None:
    return None if value is None else format_time(value)


def object_meta_to_json(meta: ObjectMeta) -> JSON:
    out: JSON = {}
    _put(out, "name", meta.name)
    _put(out, "generateName", meta.generate_name)
    _put(out, "namespace", meta.namespace)
    _put(out, "uid", meta.uid)
    _put(out, "resourceVersion", meta.resource_version)
    if meta.generation:
        out["generation"] = meta.generation
    _put(out, "creationTimestamp", _format(meta.creation_timestamp))
    _put(out, "deletionTimestamp", _format(meta.deletion_timestamp))
    _put_set(out, (("deletionGracePeriodSeconds", meta.deletion_grace_period_seconds),))
    _put(out, "labels", dict(meta.labels))
    _put(out, "annotations", dict(meta.annotations))
    _put(out, "ownerReferences", [owner_reference_to_json(r) for r in meta.owner_references])
    _put(out, "finalizers", list(meta.finalizers))
    out.update(thaw(meta.extra))
    return out


def owner_reference_to_json(ref: OwnerReference) -> JSON:
    out: JSON = {"apiVersion": ref.api_version, "kind": ref.kind, "name": ref.name, "uid": ref.uid}
    if ref.controller:
        out["controller"] = True
    if ref.block_owner_deletion:
        out["blockOwnerDeletion"] = True
    return out


def label_selector_to_json(selector: LabelSelector) -> JSON:
    out: JSON = {}
    _put(out, "matchLabels", dict(selector.match_labels))
    exprs = []
    for r in selector.match_expressions:
        e: JSON = {"key": r.key, "operator": r.operator}
        _put(e, "values", list(r.values))
        exprs.append(e)
    _put(out, "matchExpressions", exprs)
    return out


def condition_to_json(cond: PodCondition | JobCondition) -> JSON:
    """A PodCondition or JobCondition, in Go's field order."""
    out: JSON = {"type": cond.type, "status": cond.status}
    _put(out, "lastProbeTime", _format(cond.last_probe_time))
    _put(out, "lastTransitionTime", _format(cond.last_transition_time))
    _put(out, "reason", cond.reason)
    _put(out, "message", cond.message)
    return out


def container_status_to_json(status: ContainerStatus) -> JSON:
    out: JSON = {}
    _put(out, "name", status.name)
    out["restartCount"] = status.restart_count  # not omitempty upstream
    state: JSON = thaw(status.other_state)
    if status.terminated is not None:
        t = status.terminated
        term: JSON = {"exitCode": t.exit_code}
        _put(term, "reason", t.reason)
        _put(term, "message", t.message)
        if t.signal:
            term["signal"] = t.signal
        _put(term, "startedAt", _format(t.started_at))
        _put(term, "finishedAt", _format(t.finished_at))
        state["terminated"] = term
    _put(out, "state", state)
    out.update(thaw(status.extra))
    return out


def pod_status_to_json(status: PodStatus) -> JSON:
    out: JSON = {}
    _put(out, "phase", status.phase)
    _put(out, "conditions", [condition_to_json(c) for c in status.conditions])
    _put(out, "startTime", _format(status.start_time))
    _put(out, "initContainerStatuses", [container_status_to_json(c) for c in status.init_container_statuses])
    _put(out, "containerStatuses", [container_status_to_json(c) for c in status.container_statuses])
    out.update(thaw(status.extra))
    return out


def pod_to_json(pod: Pod) -> JSON:
    """A `v1` Pod in wire format."""
    return _envelope("v1", "Pod", object_meta_to_json(pod.metadata), thaw(pod.spec), pod_status_to_json(pod.status))


def _template_to_json(meta: JSON, spec: JSON) -> JSON:
    out: JSON = {}
    _put(out, "metadata", meta)
    out["spec"] = spec
    return out


def pod_template_to_json(template: PodTemplateSpec) -> JSON:
    meta: JSON = thaw(template.metadata_extra)
    _put(meta, "labels", dict(template.labels))
    _put(meta, "annotations", dict(template.annotations))
    _put(meta, "finalizers", list(template.finalizers))
    return _template_to_json(meta, thaw(template.spec))


def pod_failure_policy_to_json(policy: PodFailurePolicy) -> JSON:
    rules = []
    for rule in policy.rules:
        r: JSON = {"action": rule.action}
        if rule.on_exit_codes is not None:
            e: JSON = {"operator": rule.on_exit_codes.operator, "values": list(rule.on_exit_codes.values)}
            _put_set(e, (("containerName", rule.on_exit_codes.container_name),))
            r["onExitCodes"] = e
        if rule.on_pod_conditions is not None:
            r["onPodConditions"] = [{"type": p.type, "status": p.status} for p in rule.on_pod_conditions]
        rules.append(r)
    return {"rules": rules}


def success_policy_to_json(policy: SuccessPolicy) -> JSON:
    rules = []
    for rule in policy.rules:
        r: JSON = {}
        _put_set(r, (("succeededIndexes", rule.succeeded_indexes), ("succeededCount", rule.succeeded_count)))
        rules.append(r)
    return {"rules": rules}


def job_spec_to_json(spec: JobSpec) -> JSON:
    out: JSON = {}
    _put_set(
        out,
        (
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
        ),
    )
    if spec.pod_failure_policy is not None:
        out["podFailurePolicy"] = pod_failure_policy_to_json(spec.pod_failure_policy)
    if spec.success_policy is not None:
        out["successPolicy"] = success_policy_to_json(spec.success_policy)
    if spec.selector is not None:
        out["selector"] = label_selector_to_json(spec.selector)
    out["template"] = pod_template_to_json(spec.template)
    return out


def job_status_to_json(status: JobStatus) -> JSON:
    """batch.JobStatus in wire format (omitempty fields left out, pointer fields kept when set)."""
    out: JSON = {}
    _put(out, "conditions", [condition_to_json(c) for c in status.conditions])
    _put(out, "startTime", _format(status.start_time))
    _put(out, "completionTime", _format(status.completion_time))
    for key, value in (("active", status.active), ("succeeded", status.succeeded), ("failed", status.failed)):
        if value:
            out[key] = value
    _put_set(out, (("terminating", status.terminating),))
    _put(out, "completedIndexes", status.completed_indexes)
    _put_set(out, (("failedIndexes", status.failed_indexes),))
    if status.uncounted_terminated_pods is not None:
        u: JSON = {}
        _put(u, "succeeded", list(status.uncounted_terminated_pods.succeeded))
        _put(u, "failed", list(status.uncounted_terminated_pods.failed))
        out["uncountedTerminatedPods"] = u
    _put_set(out, (("ready", status.ready),))
    return out


def _envelope(api_version: str, kind: str, metadata: JSON, spec: JSON, status: JSON) -> JSON:
    return {"apiVersion": api_version, "kind": kind, "metadata": metadata, "spec": spec, "status": status}


def job_to_json(job: Job) -> JSON:
    """A `batch/v1` Job in wire format."""
    return _envelope(
        "batch/v1", "Job", object_meta_to_json(job.metadata), job_spec_to_json(job.spec), job_status_to_json(job.status)
    )


def object_reference_to_json(ref: ObjectReference) -> JSON:
    out: JSON = {}
    _put(out, "kind", ref.kind)
    _put(out, "namespace", ref.namespace)
    _put(out, "name", ref.name)
    _put(out, "uid", ref.uid)
    _put(out, "apiVersion", ref.api_version)
    _put(out, "resourceVersion", ref.resource_version)
    return out


def job_template_to_json(template: JobTemplateSpec) -> JSON:
    meta: JSON = thaw(template.metadata_extra)
    _put(meta, "labels", dict(template.labels))
    _put(meta, "annotations", dict(template.annotations))
    return _template_to_json(meta, job_spec_to_json(template.spec))


def cron_job_spec_to_json(spec: CronJobSpec) -> JSON:
    out: JSON = {"schedule": spec.schedule}
    _put_set(
        out,
        (
            ("timeZone", spec.time_zone),
            ("startingDeadlineSeconds", spec.starting_deadline_seconds),
            ("suspend", spec.suspend),
            ("successfulJobsHistoryLimit", spec.successful_jobs_history_limit),
            ("failedJobsHistoryLimit", spec.failed_jobs_history_limit),
        ),
    )
    _put(out, "concurrencyPolicy", spec.concurrency_policy)
    out["jobTemplate"] = job_template_to_json(spec.job_template)
    return out


def cron_job_status_to_json(status: CronJobStatus) -> JSON:
    out: JSON = {}
    _put(out, "active", [object_reference_to_json(r) for r in status.active])
    _put(out, "lastScheduleTime", _format(status.last_schedule_time))
    _put(out, "lastSuccessfulTime", _format(status.last_successful_time))
    return out


def cron_job_to_json(cron_job: CronJob) -> JSON:
    """A `batch/v1` CronJob in wire format."""
    return _envelope(
        "batch/v1",
        "CronJob",
        object_meta_to_json(cron_job.metadata),
        cron_job_spec_to_json(cron_job.spec),
        cron_job_status_to_json(cron_job.status),
    )
