"""Kubernetes wire format (`batch/v1` Job, `v1` Pod, as `kubectl get -o json` prints them) to snapshots and back.

Every read names the field it reads, so malformed input is reported as `field: reason`.
Unknown fields of the parts the controllers read are errors; the parts the model only
copies (a pod's containers, say) are kept as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, TypeVar

from jobmodel.errors import InputError
from jobmodel.frozen import EMPTY, FrozenDict, freeze, thaw
from jobmodel.state import (
    ContainerStateTerminated,
    ContainerStatus,
    Job,
    JobCondition,
    JobSpec,
    JobStatus,
    LabelSelector,
    LabelSelectorRequirement,
    ObjectMeta,
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

T = TypeVar("T")
JSON = dict[str, Any]

# --- reading --------------------------------------------------------------------------------


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def obj(value: object, path: str) -> Mapping[str, Any]:
    """The value as a JSON object (null counts as empty)."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InputError(path, f"expected an object, got {_type_name(value)}")
    return value


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "a list"
    return "an object"


def check_known(value: Mapping[str, Any], known: set[str] | frozenset[str], path: str) -> None:
    """Unknown keys are errors, named with their path."""
    for key in value:
        if key not in known:
            raise InputError(_join(path, key), "unknown field")


def opt_str(m: Mapping[str, Any], key: str, path: str) -> str | None:
    value = m.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise InputError(_join(path, key), f"expected a string, got {_type_name(value)}")
    return value


def req_str(m: Mapping[str, Any], key: str, path: str) -> str:
    value = opt_str(m, key, path)
    if value is None:
        raise InputError(_join(path, key), "required")
    return value


def opt_int(m: Mapping[str, Any], key: str, path: str) -> int | None:
    value = m.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or int(value) != value:
        raise InputError(_join(path, key), f"expected an integer, got {_type_name(value)}")
    return int(value)


def opt_bool(m: Mapping[str, Any], key: str, path: str) -> bool | None:
    value = m.get(key)
    if value is None:
        return None
    if not isinstance(value, bool):
        raise InputError(_join(path, key), f"expected true or false, got {_type_name(value)}")
    return value


def opt_time(m: Mapping[str, Any], key: str, path: str) -> datetime | None:
    value = m.get(key)
    if value is None:
        return None
    return parse_time(value, _join(path, key))


def str_map(m: Mapping[str, Any], key: str, path: str) -> FrozenDict:
    value = obj(m.get(key), _join(path, key))
    for k, v in value.items():
        if not isinstance(v, str):
            raise InputError(_join(_join(path, key), k), f"expected a string, got {_type_name(v)}")
    return FrozenDict(value)


def list_of(
    m: Mapping[str, Any], key: str, path: str, item: Callable[[Any, str], T]
) -> tuple[T, ...]:
    value = m.get(key)
    if value is None:
        return ()
    if not isinstance(value, list | tuple):
        raise InputError(_join(path, key), f"expected a list, got {_type_name(value)}")
    return tuple(item(v, _join(_join(path, key), i)) for i, v in enumerate(value))


def _string_item(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise InputError(path, f"expected a string, got {_type_name(value)}")
    return value


def _int_item(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(path, f"expected an integer, got {_type_name(value)}")
    return value


_META_TYPED = frozenset(
    {
        "name",
        "namespace",
        "uid",
        "generateName",
        "labels",
        "annotations",
        "finalizers",
        "ownerReferences",
        "creationTimestamp",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
        "generation",
        "resourceVersion",
    }
)
_META_OTHER = frozenset({"selfLink", "managedFields"})


def object_meta_from_json(value: object, path: str) -> ObjectMeta:
    """metav1.ObjectMeta."""
    m = obj(value, path)
    check_known(m, _META_TYPED | _META_OTHER, path)
    return ObjectMeta(
        name=opt_str(m, "name", path) or "",
        namespace=opt_str(m, "namespace", path) or "",
        uid=opt_str(m, "uid", path) or "",
        generate_name=opt_str(m, "generateName", path) or "",
        labels=str_map(m, "labels", path),
        annotations=str_map(m, "annotations", path),
        finalizers=list_of(m, "finalizers", path, _string_item),
        owner_references=list_of(m, "ownerReferences", path, owner_reference_from_json),
        creation_timestamp=opt_time(m, "creationTimestamp", path),
        deletion_timestamp=opt_time(m, "deletionTimestamp", path),
        deletion_grace_period_seconds=opt_int(m, "deletionGracePeriodSeconds", path),
        generation=opt_int(m, "generation", path) or 0,
        resource_version=opt_str(m, "resourceVersion", path) or "",
        extra=freeze({k: v for k, v in m.items() if k in _META_OTHER}),
    )


def owner_reference_from_json(value: object, path: str) -> OwnerReference:
    m = obj(value, path)
    check_known(m, {"apiVersion", "kind", "name", "uid", "controller", "blockOwnerDeletion"}, path)
    return OwnerReference(
        api_version=req_str(m, "apiVersion", path),
        kind=req_str(m, "kind", path),
        name=req_str(m, "name", path),
        uid=req_str(m, "uid", path),
        controller=bool(opt_bool(m, "controller", path)),
        block_owner_deletion=bool(opt_bool(m, "blockOwnerDeletion", path)),
    )


def label_selector_from_json(value: object, path: str) -> LabelSelector:
    m = obj(value, path)
    check_known(m, {"matchLabels", "matchExpressions"}, path)

    def requirement(v: Any, p: str) -> LabelSelectorRequirement:
        r = obj(v, p)
        check_known(r, {"key", "operator", "values"}, p)
        return LabelSelectorRequirement(
            key=req_str(r, "key", p),
            operator=req_str(r, "operator", p),
            values=list_of(r, "values", p, _string_item),
        )

    return LabelSelector(
        match_labels=str_map(m, "matchLabels", path),
        match_expressions=list_of(m, "matchExpressions", path, requirement),
    )


# --- pods -----------------------------------------------------------------------------------


def pod_condition_from_json(value: object, path: str) -> PodCondition:
    m = obj(value, path)
    check_known(
        m,
        {"type", "status", "reason", "message", "lastTransitionTime", "lastProbeTime", "observedGeneration"},
        path,
    )
    return PodCondition(
        type=req_str(m, "type", path),
        status=opt_str(m, "status", path) or "",
        reason=opt_str(m, "reason", path) or "",
        message=opt_str(m, "message", path) or "",
        last_transition_time=opt_time(m, "lastTransitionTime", path),
        last_probe_time=opt_time(m, "lastProbeTime", path),
    )


_CONTAINER_STATUS_TYPED = frozenset({"name", "restartCount", "state"})


def container_status_from_json(value: object, path: str) -> ContainerStatus:
    m = obj(value, path)
    state = obj(m.get("state"), _join(path, "state"))
    terminated = None
    if state.get("terminated") is not None:
        tp = _join(_join(path, "state"), "terminated")
        t = obj(state["terminated"], tp)
        check_known(t, {"exitCode", "finishedAt", "startedAt", "reason", "message", "signal", "containerID"}, tp)
        terminated = ContainerStateTerminated(
            exit_code=opt_int(t, "exitCode", tp) or 0,
            finished_at=opt_time(t, "finishedAt", tp),
            started_at=opt_time(t, "startedAt", tp),
            reason=opt_str(t, "reason", tp) or "",
            message=opt_str(t, "message", tp) or "",
            signal=opt_int(t, "signal", tp) or 0,
        )
    return ContainerStatus(
        name=opt_str(m, "name", path) or "",
        restart_count=opt_int(m, "restartCount", path) or 0,
        terminated=terminated,
        other_state=freeze({k: v for k, v in state.items() if k != "terminated"}),
        extra=freeze({k: v for k, v in m.items() if k not in _CONTAINER_STATUS_TYPED}),
    )


_POD_STATUS_TYPED = frozenset({"phase", "conditions", "containerStatuses", "initContainerStatuses", "startTime"})


def pod_status_from_json(value: object, path: str) -> PodStatus:
    m = obj(value, path)
    return PodStatus(
        phase=opt_str(m, "phase", path) or "",
        conditions=list_of(m, "conditions", path, pod_condition_from_json),
        container_statuses=list_of(m, "containerStatuses", path, container_status_from_json),
        init_container_statuses=list_of(m, "initContainerStatuses", path, container_status_from_json),
        start_time=opt_time(m, "startTime", path),
        extra=freeze({k: v for k, v in m.items() if k not in _POD_STATUS_TYPED}),
    )


def pod_from_json(value: object, path: str = "") -> Pod:
    """A `v1` Pod."""
    m = object_envelope(value, path, "Pod", "v1")
    return Pod(
        metadata=object_meta_from_json(m.get("metadata"), _join(path, "metadata")),
        spec=freeze(obj(m.get("spec"), _join(path, "spec"))),
        status=pod_status_from_json(m.get("status"), _join(path, "status")),
    )


# --- jobs -----------------------------------------------------------------------------------


def pod_template_from_json(value: object, path: str) -> PodTemplateSpec:
    m = obj(value, path)
    check_known(m, {"metadata", "spec"}, path)
    mp = _join(path, "metadata")
    meta = obj(m.get("metadata"), mp)
    typed = {"labels", "annotations", "finalizers"}
    return PodTemplateSpec(
        labels=str_map(meta, "labels", mp),
        annotations=str_map(meta, "annotations", mp),
        finalizers=list_of(meta, "finalizers", mp, _string_item),
        metadata_extra=freeze({k: v for k, v in meta.items() if k not in typed}),
        spec=freeze(obj(m.get("spec"), _join(path, "spec"))),
    )


def pod_failure_policy_from_json(value: object, path: str) -> PodFailurePolicy:
    m = obj(value, path)
    check_known(m, {"rules"}, path)

    def rule(v: Any, p: str) -> PodFailurePolicyRule:
        r = obj(v, p)
        check_known(r, {"action", "onExitCodes", "onPodConditions"}, p)
        on_exit = None
        if r.get("onExitCodes") is not None:
            ep = _join(p, "onExitCodes")
            e = obj(r["onExitCodes"], ep)
            check_known(e, {"containerName", "operator", "values"}, ep)
            on_exit = OnExitCodesRequirement(
                operator=req_str(e, "operator", ep),
                values=list_of(e, "values", ep, _int_item),
                container_name=opt_str(e, "containerName", ep),
            )

        def pattern(pv: Any, pp: str) -> OnPodConditionsPattern:
            c = obj(pv, pp)
            check_known(c, {"type", "status"}, pp)
            return OnPodConditionsPattern(type=req_str(c, "type", pp), status=opt_str(c, "status", pp) or "True")

        on_conditions = None
        if r.get("onPodConditions") is not None:
            on_conditions = list_of(r, "onPodConditions", p, pattern)
        return PodFailurePolicyRule(
            action=req_str(r, "action", p), on_exit_codes=on_exit, on_pod_conditions=on_conditions
        )

    return PodFailurePolicy(rules=list_of(m, "rules", path, rule))


def success_policy_from_json(value: object, path: str) -> SuccessPolicy:
    m = obj(value, path)
    check_known(m, {"rules"}, path)

    def rule(v: Any, p: str) -> SuccessPolicyRule:
        r = obj(v, p)
        check_known(r, {"succeededIndexes", "succeededCount"}, p)
        return SuccessPolicyRule(
            succeeded_indexes=opt_str(r, "succeededIndexes", p), succeeded_count=opt_int(r, "succeededCount", p)
        )

    return SuccessPolicy(rules=list_of(m, "rules", path, rule))


_JOB_SPEC_FIELDS = frozenset(
    {
        "template",
        "parallelism",
        "completions",
        "activeDeadlineSeconds",
        "podFailurePolicy",
        "successPolicy",
        "backoffLimit",
        "backoffLimitPerIndex",
        "maxFailedIndexes",
        "selector",
        "manualSelector",
        "ttlSecondsAfterFinished",
        "completionMode",
        "suspend",
        "podReplacementPolicy",
        "managedBy",
    }
)


def job_spec_from_json(value: object, path: str) -> JobSpec:
    m = obj(value, path)
    check_known(m, _JOB_SPEC_FIELDS, path)
    return JobSpec(
        template=pod_template_from_json(m.get("template"), _join(path, "template")),
        parallelism=opt_int(m, "parallelism", path),
        completions=opt_int(m, "completions", path),
        active_deadline_seconds=opt_int(m, "activeDeadlineSeconds", path),
        pod_failure_policy=(
            None
            if m.get("podFailurePolicy") is None
            else pod_failure_policy_from_json(m["podFailurePolicy"], _join(path, "podFailurePolicy"))
        ),
        success_policy=(
            None
            if m.get("successPolicy") is None
            else success_policy_from_json(m["successPolicy"], _join(path, "successPolicy"))
        ),
        backoff_limit=opt_int(m, "backoffLimit", path),
        backoff_limit_per_index=opt_int(m, "backoffLimitPerIndex", path),
        max_failed_indexes=opt_int(m, "maxFailedIndexes", path),
        selector=(
            None if m.get("selector") is None else label_selector_from_json(m["selector"], _join(path, "selector"))
        ),
        manual_selector=opt_bool(m, "manualSelector", path),
        ttl_seconds_after_finished=opt_int(m, "ttlSecondsAfterFinished", path),
        completion_mode=opt_str(m, "completionMode", path),
        suspend=opt_bool(m, "suspend", path),
        pod_replacement_policy=opt_str(m, "podReplacementPolicy", path),
        managed_by=opt_str(m, "managedBy", path),
    )


def job_condition_from_json(value: object, path: str) -> JobCondition:
    m = obj(value, path)
    check_known(m, {"type", "status", "reason", "message", "lastProbeTime", "lastTransitionTime"}, path)
    return JobCondition(
        type=req_str(m, "type", path),
        status=opt_str(m, "status", path) or "",
        reason=opt_str(m, "reason", path) or "",
        message=opt_str(m, "message", path) or "",
        last_probe_time=opt_time(m, "lastProbeTime", path),
        last_transition_time=opt_time(m, "lastTransitionTime", path),
    )


_JOB_STATUS_FIELDS = frozenset(
    {
        "conditions",
        "startTime",
        "completionTime",
        "active",
        "succeeded",
        "failed",
        "terminating",
        "completedIndexes",
        "failedIndexes",
        "uncountedTerminatedPods",
        "ready",
    }
)


def job_status_from_json(value: object, path: str) -> JobStatus:
    m = obj(value, path)
    check_known(m, _JOB_STATUS_FIELDS, path)
    uncounted = None
    if m.get("uncountedTerminatedPods") is not None:
        up = _join(path, "uncountedTerminatedPods")
        u = obj(m["uncountedTerminatedPods"], up)
        check_known(u, {"succeeded", "failed"}, up)
        uncounted = UncountedTerminatedPods(
            succeeded=list_of(u, "succeeded", up, _string_item), failed=list_of(u, "failed", up, _string_item)
        )
    return JobStatus(
        conditions=list_of(m, "conditions", path, job_condition_from_json),
        start_time=opt_time(m, "startTime", path),
        completion_time=opt_time(m, "completionTime", path),
        active=opt_int(m, "active", path) or 0,
        succeeded=opt_int(m, "succeeded", path) or 0,
        failed=opt_int(m, "failed", path) or 0,
        terminating=opt_int(m, "terminating", path),
        completed_indexes=opt_str(m, "completedIndexes", path) or "",
        failed_indexes=opt_str(m, "failedIndexes", path),
        uncounted_terminated_pods=uncounted,
        ready=opt_int(m, "ready", path),
    )


def object_envelope(value: object, path: str, kind: str, api_version: str) -> Mapping[str, Any]:
    """A Kubernetes object's top level: only apiVersion, kind, metadata, spec and status, of the
    expected kind and version (either may be left out)."""
    m = obj(value, path)
    check_known(m, {"apiVersion", "kind", "metadata", "spec", "status"}, path)
    if m.get("kind") not in (None, kind):
        raise InputError(_join(path, "kind"), f"expected {kind}, got {m.get('kind')!r}")
    if m.get("apiVersion") not in (None, api_version):
        raise InputError(_join(path, "apiVersion"), f"expected {api_version}, got {m.get('apiVersion')!r}")
    return m


def job_from_json(value: object, path: str = "") -> Job:
    """A `batch/v1` Job."""
    m = object_envelope(value, path, "Job", "batch/v1")
    return Job(
        metadata=object_meta_from_json(m.get("metadata"), _join(path, "metadata")),
        spec=job_spec_from_json(m.get("spec"), _join(path, "spec")),
        status=job_status_from_json(m.get("status"), _join(path, "status")),
    )


# --- writing --------------------------------------------------------------------------------


def _put(out: JSON, key: str, value: object) -> None:
    """Set a key unless the value is unset (None, empty map, empty list, empty string)."""
    if value is None or value == "" or value == {} or value == [] or value == ():
        return
    out[key] = value


def _time(value: datetime | None) -> str | None:
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
    _put(out, "creationTimestamp", _time(meta.creation_timestamp))
    _put(out, "deletionTimestamp", _time(meta.deletion_timestamp))
    if meta.deletion_grace_period_seconds is not None:
        out["deletionGracePeriodSeconds"] = meta.deletion_grace_period_seconds
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


def pod_condition_to_json(cond: PodCondition) -> JSON:
    out: JSON = {"type": cond.type, "status": cond.status}
    _put(out, "reason", cond.reason)
    _put(out, "message", cond.message)
    _put(out, "lastProbeTime", _time(cond.last_probe_time))
    _put(out, "lastTransitionTime", _time(cond.last_transition_time))
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
        _put(term, "startedAt", _time(t.started_at))
        _put(term, "finishedAt", _time(t.finished_at))
        state["terminated"] = term
    _put(out, "state", state)
    out.update(thaw(status.extra))
    return out


def pod_status_to_json(status: PodStatus) -> JSON:
    out: JSON = {}
    _put(out, "phase", status.phase)
    _put(out, "conditions", [pod_condition_to_json(c) for c in status.conditions])
    _put(out, "startTime", _time(status.start_time))
    _put(out, "initContainerStatuses", [container_status_to_json(c) for c in status.init_container_statuses])
    _put(out, "containerStatuses", [container_status_to_json(c) for c in status.container_statuses])
    out.update(thaw(status.extra))
    return out


def pod_to_json(pod: Pod) -> JSON:
    """A `v1` Pod in wire format."""
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": object_meta_to_json(pod.metadata),
        "spec": thaw(pod.spec),
        "status": pod_status_to_json(pod.status),
    }


def pod_template_to_json(template: PodTemplateSpec) -> JSON:
    meta: JSON = thaw(template.metadata_extra)
    _put(meta, "labels", dict(template.labels))
    _put(meta, "annotations", dict(template.annotations))
    _put(meta, "finalizers", list(template.finalizers))
    out: JSON = {}
    _put(out, "metadata", meta)
    out["spec"] = thaw(template.spec)
    return out


def pod_failure_policy_to_json(policy: PodFailurePolicy) -> JSON:
    rules = []
    for rule in policy.rules:
        r: JSON = {"action": rule.action}
        if rule.on_exit_codes is not None:
            e: JSON = {"operator": rule.on_exit_codes.operator, "values": list(rule.on_exit_codes.values)}
            if rule.on_exit_codes.container_name is not None:
                e["containerName"] = rule.on_exit_codes.container_name
            r["onExitCodes"] = e
        if rule.on_pod_conditions is not None:
            r["onPodConditions"] = [{"type": p.type, "status": p.status} for p in rule.on_pod_conditions]
        rules.append(r)
    return {"rules": rules}


def success_policy_to_json(policy: SuccessPolicy) -> JSON:
    rules = []
    for rule in policy.rules:
        r: JSON = {}
        if rule.succeeded_indexes is not None:
            r["succeededIndexes"] = rule.succeeded_indexes
        if rule.succeeded_count is not None:
            r["succeededCount"] = rule.succeeded_count
        rules.append(r)
    return {"rules": rules}


def job_spec_to_json(spec: JobSpec) -> JSON:
    out: JSON = {}
    for key, value in (
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
    ):
        if value is not None:
            out[key] = value
    if spec.pod_failure_policy is not None:
        out["podFailurePolicy"] = pod_failure_policy_to_json(spec.pod_failure_policy)
    if spec.success_policy is not None:
        out["successPolicy"] = success_policy_to_json(spec.success_policy)
    if spec.selector is not None:
        out["selector"] = label_selector_to_json(spec.selector)
    out["template"] = pod_template_to_json(spec.template)
    return out


def job_condition_to_json(cond: JobCondition) -> JSON:
    out: JSON = {"type": cond.type, "status": cond.status}
    _put(out, "lastProbeTime", _time(cond.last_probe_time))
    _put(out, "lastTransitionTime", _time(cond.last_transition_time))
    _put(out, "reason", cond.reason)
    _put(out, "message", cond.message)
    return out


def job_status_to_json(status: JobStatus) -> JSON:
    """batch.JobStatus in wire format (omitempty fields left out, pointer fields kept when set)."""
    out: JSON = {}
    _put(out, "conditions", [job_condition_to_json(c) for c in status.conditions])
    _put(out, "startTime", _time(status.start_time))
    _put(out, "completionTime", _time(status.completion_time))
    for key, value in (("active", status.active), ("succeeded", status.succeeded), ("failed", status.failed)):
        if value:
            out[key] = value
    if status.terminating is not None:
        out["terminating"] = status.terminating
    _put(out, "completedIndexes", status.completed_indexes)
    if status.failed_indexes is not None:
        out["failedIndexes"] = status.failed_indexes
    if status.uncounted_terminated_pods is not None:
        u: JSON = {}
        _put(u, "succeeded", list(status.uncounted_terminated_pods.succeeded))
        _put(u, "failed", list(status.uncounted_terminated_pods.failed))
        out["uncountedTerminatedPods"] = u
    if status.ready is not None:
        out["ready"] = status.ready
    return out


def job_to_json(job: Job) -> JSON:
    """A `batch/v1` Job in wire format."""
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": object_meta_to_json(job.metadata),
        "spec": job_spec_to_json(job.spec),
        "status": job_status_to_json(job.status),
    }


def frozen_or_empty(value: object) -> FrozenDict:
    return value if isinstance(value, FrozenDict) else EMPTY
