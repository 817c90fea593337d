"""Kubernetes wire format (`batch/v1` CronJob) to snapshots and back; Jobs use api.wire."""

from __future__ import annotations

from typing import Any

from jobmodel.api.wire import (
    JSON,
    _join,
    _put,
    _time,
    check_known,
    job_spec_from_json,
    job_spec_to_json,
    list_of,
    obj,
    object_envelope,
    object_meta_from_json,
    object_meta_to_json,
    opt_bool,
    opt_int,
    opt_str,
    opt_time,
    req_str,
    str_map,
)
from jobmodel.frozen import freeze, thaw
from jobmodel.state import (
    CronJob,
    CronJobSpec,
    CronJobStatus,
    JobTemplateSpec,
    ObjectReference,
)

_REF_FIELDS = frozenset({"apiVersion", "kind", "name", "namespace", "uid", "resourceVersion", "fieldPath"})
_SPEC_FIELDS = frozenset(
    {
        "schedule",
        "timeZone",
        "startingDeadlineSeconds",
        "concurrencyPolicy",
        "suspend",
        "jobTemplate",
        "successfulJobsHistoryLimit",
        "failedJobsHistoryLimit",
    }
)


# --- reading --------------------------------------------------------------------------------


def object_reference_from_json(value: object, path: str) -> ObjectReference:
    """v1.ObjectReference."""
    m = obj(value, path)
    check_known(m, _REF_FIELDS, path)
    return ObjectReference(
        name=req_str(m, "name", path),
        namespace=opt_str(m, "namespace", path) or "",
        uid=opt_str(m, "uid", path) or "",
        api_version=opt_str(m, "apiVersion", path) or "",
        kind=opt_str(m, "kind", path) or "",
        resource_version=opt_str(m, "resourceVersion", path) or "",
    )


def job_template_from_json(value: object, path: str) -> JobTemplateSpec:
    """batch.JobTemplateSpec."""
    m = obj(value, path)
    check_known(m, {"metadata", "spec"}, path)
    mp = _join(path, "metadata")
    meta = obj(m.get("metadata"), mp)
    return JobTemplateSpec(
        labels=str_map(meta, "labels", mp),
        annotations=str_map(meta, "annotations", mp),
        metadata_extra=freeze({k: v for k, v in meta.items() if k not in ("labels", "annotations")}),
        spec=job_spec_from_json(m.get("spec"), _join(path, "spec")),
    )


def cron_job_spec_from_json(value: object, path: str) -> CronJobSpec:
    """batch.CronJobSpec."""
    m = obj(value, path)
    check_known(m, _SPEC_FIELDS, path)
    return CronJobSpec(
        schedule=opt_str(m, "schedule", path) or "",
        time_zone=opt_str(m, "timeZone", path),
        starting_deadline_seconds=opt_int(m, "startingDeadlineSeconds", path),
        concurrency_policy=opt_str(m, "concurrencyPolicy", path) or "",
        suspend=opt_bool(m, "suspend", path),
        job_template=job_template_from_json(m.get("jobTemplate"), _join(path, "jobTemplate")),
        successful_jobs_history_limit=opt_int(m, "successfulJobsHistoryLimit", path),
        failed_jobs_history_limit=opt_int(m, "failedJobsHistoryLimit", path),
    )


def cron_job_status_from_json(value: object, path: str) -> CronJobStatus:
    """batch.CronJobStatus."""
    m = obj(value, path)
    check_known(m, {"active", "lastScheduleTime", "lastSuccessfulTime"}, path)
    return CronJobStatus(
        active=list_of(m, "active", path, object_reference_from_json),
        last_schedule_time=opt_time(m, "lastScheduleTime", path),
        last_successful_time=opt_time(m, "lastSuccessfulTime", path),
    )


def cron_job_from_json(value: object, path: str = "") -> CronJob:
    """A `batch/v1` CronJob."""
    m = object_envelope(value, path, "CronJob", "batch/v1")
    return CronJob(
        metadata=object_meta_from_json(m.get("metadata"), _join(path, "metadata")),
        spec=cron_job_spec_from_json(m.get("spec"), _join(path, "spec")),
        status=cron_job_status_from_json(m.get("status"), _join(path, "status")),
    )


# --- writing --------------------------------------------------------------------------------


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
    meta: dict[str, Any] = dict(thaw(template.metadata_extra))
    _put(meta, "labels", dict(template.labels))
    _put(meta, "annotations", dict(template.annotations))
    out: JSON = {}
    _put(out, "metadata", meta)
    out["spec"] = job_spec_to_json(template.spec)
    return out


def cron_job_spec_to_json(spec: CronJobSpec) -> JSON:
    out: JSON = {"schedule": spec.schedule}
    for key, value in (
        ("timeZone", spec.time_zone),
        ("startingDeadlineSeconds", spec.starting_deadline_seconds),
        ("suspend", spec.suspend),
        ("successfulJobsHistoryLimit", spec.successful_jobs_history_limit),
        ("failedJobsHistoryLimit", spec.failed_jobs_history_limit),
    ):
        if value is not None:
            out[key] = value
    _put(out, "concurrencyPolicy", spec.concurrency_policy)
    out["jobTemplate"] = job_template_to_json(spec.job_template)
    return out


def cron_job_status_to_json(status: CronJobStatus) -> JSON:
    out: JSON = {}
    _put(out, "active", [object_reference_to_json(r) for r in status.active])
    _put(out, "lastScheduleTime", _time(status.last_schedule_time))
    _put(out, "lastSuccessfulTime", _time(status.last_successful_time))
    return out


def cron_job_to_json(cron_job: CronJob) -> JSON:
    """A `batch/v1` CronJob in wire format."""
    return {
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "metadata": object_meta_to_json(cron_job.metadata),
        "spec": cron_job_spec_to_json(cron_job.spec),
        "status": cron_job_status_to_json(cron_job.status),
    }
