"""A Job's `spec.scheduling` (batch/v1 JobSchedulingConfiguration, 1.37, gate WorkloadWithJob):
what the API server does with it while the gate is off (the model refuses the gate on, see
jobmodel.features.NOT_MODELLED).

- PrepareForCreate / PrepareForUpdate of Jobs and of a CronJob's jobTemplate drop it unless the
  old object used it (`DropDisabledFields`, `pkg/api/job/util.go`);
- hand-written validation (`pkg/apis/batch/validation/validation.go`) checks it whatever the
  gate: the gang minCount against parallelism, the resolved policy and disruption mode
  (`validateJobScheduling`, the workloadbuilder's controller-policy checks), and on update the
  basic/gang variant;
- declarative validation (`zz_generated.validations.go` of `pkg/apis/batch/v1`,
  `+k8s:ifDisabled(WorkloadWithJob)=+k8s:forbidden`, `+k8s:update=NoSet,NoUnset`) forbids it and
  refuses setting or clearing it on update; unchanged on update, it is not revalidated.

Before 1.37 the release's types lack the field: the decoder refuses it (jobmodel.api.schema).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jobmodel.api import field as fe
from jobmodel.api.equality import semantic_equal
from jobmodel.api.field import FieldError


def drop_disabled_fields(
    spec: dict[str, Any], old_spec: Mapping[str, Any] | None, workload_with_job: bool
) -> None:
    """DropDisabledFields (`pkg/api/job/util.go`), in place: scheduling dropped with the gate off
    unless the old spec used it (schedulingInUse)."""
    if workload_with_job or (old_spec is not None and old_spec.get("scheduling") is not None):
        return
    spec.pop("scheduling", None)


def _gang(spec: Mapping[str, Any]) -> Mapping[str, Any] | None:
    policy = (spec.get("scheduling") or {}).get("schedulingPolicy")
    return None if policy is None else policy.get("gang")


def validate_gang_min_count(spec: Mapping[str, Any], path: str) -> list[FieldError]:
    """validateGangMinCount: an explicit gang minCount may not exceed parallelism (1 when unset)."""
    if spec.get("scheduling") is None:
        return []
    gang = _gang(spec)
    min_count = None if gang is None else gang.get("minCount")
    parallelism = spec.get("parallelism", 1)
    if min_count is None or min_count <= parallelism:
        return []
    return [
        fe.invalid(
            fe.child(path, "schedulingPolicy", "gang", "minCount"),
            min_count,
            f"must not be greater than parallelism ({parallelism})",
        )
    ]


def _resolved_basic(scheduling: Mapping[str, Any]) -> bool:
    """Whether the resolved policy is Basic (resolveSchedulingConfig: the Job's default is Basic;
    mapSchedulingPolicy reads basic before gang and maps a policy with neither to none)."""
    policy = scheduling.get("schedulingPolicy")
    if policy is None or policy.get("basic") is not None:
        return True
    return policy.get("gang") is None


def _resolved_all(scheduling: Mapping[str, Any]) -> bool:
    """Whether the resolved disruption mode is All (mapDisruptionMode reads single first)."""
    mode = scheduling.get("disruptionMode")
    return mode is not None and mode.get("single") is None and mode.get("all") is not None


def validate_job_scheduling(spec: Mapping[str, Any], path: str) -> list[FieldError]:
    """validateJobScheduling: the workloadbuilder's controller-policy checks (declarative ones
    disabled); a Job allows both policies and both disruption modes, so only
    validateDisruptionModeCompatibleWithSchedulingPolicy can fail."""
    scheduling = spec.get("scheduling")
    if scheduling is None or not (_resolved_basic(scheduling) and _resolved_all(scheduling)):
        return []
    return [
        fe.invalid(
            fe.child(path, "disruptionMode"),
            "",
            "the disruptionMode `all` is not supported with the Basic scheduling policy",
        )
    ]


def validate_job_scheduling_update(
    spec: Mapping[str, Any], old: Mapping[str, Any], path: str
) -> list[FieldError]:
    """validateJobSchedulingUpdate: the basic/gang variant of a policy set before and after is frozen."""
    new_policy = (spec.get("scheduling") or {}).get("schedulingPolicy")
    old_policy = (old.get("scheduling") or {}).get("schedulingPolicy")
    if new_policy is None or old_policy is None:
        return []
    if (new_policy.get("basic") is None) == (old_policy.get("basic") is None):
        return []
    return [
        fe.invalid(
            fe.child(path, "schedulingPolicy"),
            None,
            "the basic/gang policy variant is immutable after creation; only schedulingPolicy.gang.minCount may be updated",
        )
    ]


def validate_scheduling_declaratively(
    spec: Mapping[str, Any], old: Mapping[str, Any] | None, path: str
) -> list[FieldError]:
    """Validate_JobSpec's rules for `scheduling` with WorkloadWithJob off: unchanged on update it
    is not revalidated; set, it is Forbidden; on update, NoSet and NoUnset (the building blocks'
    own rules are short-circuited by the errors above)."""
    value = spec.get("scheduling")
    old_value = None if old is None else old.get("scheduling")
    if old is not None and semantic_equal(value, old_value):
        return []
    errs = [] if value is None else [fe.forbidden(path, "")]
    if old is not None:
        if old_value is None and value is not None:
            errs.append(fe.invalid(path, None, "field cannot be set once created"))
        if old_value is not None and value is None:
            errs.append(fe.invalid(path, None, "field cannot be cleared once set"))
    return errs
