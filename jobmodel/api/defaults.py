"""Decoding defaults of `batch/v1` Job and CronJob (upstream `pkg/apis/batch/v1/defaults.go`) and
the `core/v1` pod-template defaults (`pkg/apis/core/v1/defaults.go`) that validation relies on.

Each function returns a new dict; inputs are not modified.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, Final

from jobmodel.api.image_reference import parse_image_name
from jobmodel.api.pod_affinity import encoded_pod_affinity
from jobmodel.api.pod_probes import set_defaults_probes
from jobmodel.api.pod_util import CONTAINER_KINDS
from jobmodel.api.pod_volumes import encoded_resource_field_ref, set_defaults_volume_source
from jobmodel.api.quantity import set_defaults_resource_list
from jobmodel.api.schema import VOLUME_SOURCES
from jobmodel.features import DEFAULT_GATES, NEWEST_MINOR, FeatureGates

MAX_INT32: Final = 2**31 - 1
DEFAULT_BACKOFF_LIMIT: Final = 6
DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS: Final = 30
TERMINATION_MESSAGE_PATH_DEFAULT: Final = "/dev/termination-log"


def set_defaults_job(job: Mapping[str, Any], gates: FeatureGates = DEFAULT_GATES) -> dict[str, Any]:
    """SetObjectDefaults_Job: SetDefaults_Job, then the pod template and pod-failure-policy defaults."""
    out: dict[str, Any] = copy.deepcopy(dict(job))
    spec = out.setdefault("spec", {})
    meta = out.setdefault("metadata", {})
    # A Job that leaves both unset runs one pod to one completion.
    if spec.get("completions") is None and spec.get("parallelism") is None:
        spec["completions"] = 1
        spec["parallelism"] = 1
    if spec.get("parallelism") is None:
        spec["parallelism"] = 1
    if spec.get("backoffLimit") is None:
        # With a per-index limit the global one is effectively off.
        spec["backoffLimit"] = (
            MAX_INT32 if spec.get("backoffLimitPerIndex") is not None else DEFAULT_BACKOFF_LIMIT
        )
    template = spec.setdefault("template", {})
    template_labels = (template.get("metadata") or {}).get("labels")
    if template_labels is not None and not meta.get("labels"):
        # The same dict, not a copy: upstream assigns the map, so the labels generateSelector adds
        # to the template later in the request show on the Job too (storage then separates them).
        meta["labels"] = template_labels
    if spec.get("completionMode") is None:
        spec["completionMode"] = "NonIndexed"
    if spec.get("suspend") is None:
        spec["suspend"] = False
    if gates.JobPodReplacementPolicy and spec.get("podReplacementPolicy") is None:
        spec["podReplacementPolicy"] = (
            "Failed" if spec.get("podFailurePolicy") is not None else "TerminatingOrFailed"
        )
    if spec.get("manualSelector") is None:
        spec["manualSelector"] = False
    for rule in (spec.get("podFailurePolicy") or {}).get("rules") or []:
        for pattern in rule.get("onPodConditions") or []:
            set_defaults_pod_failure_policy_on_pod_conditions_pattern(pattern)
    # Go always has a (zero) PodSpec to default, even when the template gives none.
    template["spec"] = set_defaults_pod_spec(template.get("spec") or {}, gates.release)
    return out


def set_defaults_pod_failure_policy_on_pod_conditions_pattern(pattern: dict[str, Any]) -> None:
    """SetDefaults_Job's loop over pod-condition patterns (v1.34 moved it to
    SetDefaults_PodFailurePolicyOnPodConditionsPattern): status defaults to True (in place)."""
    if not pattern.get("status"):
        pattern["status"] = "True"


def set_defaults_cron_job(
    cron_job: Mapping[str, Any], gates: FeatureGates = DEFAULT_GATES
) -> dict[str, Any]:
    """SetObjectDefaults_CronJob: SetDefaults_CronJob, then the job template's nested defaults.

    The job template gets the pod-template defaults but not SetDefaults_Job (that runs when the
    controller's Job is created), so in v1.32 not its pod-failure-policy defaults either."""
    out: dict[str, Any] = copy.deepcopy(dict(cron_job))
    spec = out.setdefault("spec", {})
    if not spec.get("concurrencyPolicy"):
        spec["concurrencyPolicy"] = "Allow"
    if spec.get("suspend") is None:
        spec["suspend"] = False
    if spec.get("successfulJobsHistoryLimit") is None:
        spec["successfulJobsHistoryLimit"] = 3
    if spec.get("failedJobsHistoryLimit") is None:
        spec["failedJobsHistoryLimit"] = 1
    job_spec = spec.setdefault("jobTemplate", {}).setdefault("spec", {})
    # Up to 1.33 a pod-condition pattern's status is defaulted only in SetDefaults_Job: a
    # CronJob's job template keeps an empty status, which its validation then rejects
    # (docs/validation.md). From 1.34 the generated SetObjectDefaults_CronJob defaults it too.
    if gates.at_least(34):
        for rule in (job_spec.get("podFailurePolicy") or {}).get("rules") or []:
            for pattern in rule.get("onPodConditions") or []:
                set_defaults_pod_failure_policy_on_pod_conditions_pattern(pattern)
    # Go always has a (zero) PodSpec to default, even when the template gives none.
    template = job_spec.setdefault("template", {})
    template["spec"] = set_defaults_pod_spec(template.get("spec") or {}, gates.release)
    return out


def set_defaults_pod_spec(spec: Mapping[str, Any], release: int = NEWEST_MINOR) -> dict[str, Any]:
    """SetDefaults_PodSpec and the defaults of the containers, ports and volumes inside."""
    out: dict[str, Any] = copy.deepcopy(dict(spec))
    # The deprecated `serviceAccount` is an alias: `serviceAccountName` wins, and both are written
    # (up to 1.36 by the v1/internal conversions, from 1.37 here in SetDefaults_PodSpec).
    account = out.get("serviceAccountName") or out.get("serviceAccount") or ""
    for key in ("serviceAccountName", "serviceAccount"):
        if account:
            out[key] = account
        else:
            out.pop(key, None)
    if not out.get("dnsPolicy"):
        out["dnsPolicy"] = "ClusterFirst"
    if not out.get("restartPolicy"):
        out["restartPolicy"] = "Always"
    if out.get("securityContext") is None:
        out["securityContext"] = {}
    if out.get("terminationGracePeriodSeconds") is None:
        out["terminationGracePeriodSeconds"] = DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS
    if not out.get("schedulerName"):
        out["schedulerName"] = "default-scheduler"
    for key in CONTAINER_KINDS:
        for container in out.get(key) or []:
            set_defaults_container(container)
    set_defaults_resource_list(out.get("overhead"))
    set_defaults_resource_requirements(out.get("resources"))
    for volume in out.get("volumes") or []:
        set_defaults_volume(volume, release)
    for constraint in out.get("topologySpreadConstraints") or []:
        encoded_topology_spread_constraint(constraint)
    if out.get("os") is not None:
        out["os"].setdefault("name", "")  # PodOS.name has no omitempty either
    for claim in out.get("resourceClaims") or []:
        claim.setdefault("name", "")  # PodResourceClaim.name has no omitempty
    encoded_pod_affinity(out.get("affinity"))
    return out


def encoded_topology_spread_constraint(constraint: dict[str, Any]) -> None:
    """The fields TopologySpreadConstraint's JSON always writes (no omitempty), in place: the
    stored object has them, zero when left out."""
    for key, zero in (("maxSkew", 0), ("topologyKey", ""), ("whenUnsatisfiable", "")):
        constraint.setdefault(key, zero)


def set_defaults_container(container: dict[str, Any]) -> None:
    """SetDefaults_Container, SetDefaults_ContainerPort, SetDefaults_ResourceList, an env var's
    SetDefaults_ObjectFieldSelector, fileKeyRef `optional` and resourceFieldRef divisor (in place),
    and the probes' defaults."""
    if not container.get("imagePullPolicy"):
        container["imagePullPolicy"] = (
            "Always" if image_tag(str(container.get("image") or "")) == "latest" else "IfNotPresent"
        )
    if not container.get("terminationMessagePath"):
        container["terminationMessagePath"] = TERMINATION_MESSAGE_PATH_DEFAULT
    if not container.get("terminationMessagePolicy"):
        container["terminationMessagePolicy"] = "File"
    for port in container.get("ports") or []:
        if not port.get("protocol"):
            port["protocol"] = "TCP"
    for var in container.get("env") or []:
        field_ref = (var.get("valueFrom") or {}).get("fieldRef")
        if field_ref is not None and not field_ref.get("apiVersion"):
            field_ref["apiVersion"] = "v1"  # SetDefaults_ObjectFieldSelector
        encoded_resource_field_ref((var.get("valueFrom") or {}).get("resourceFieldRef"))
        file_ref = (var.get("valueFrom") or {}).get("fileKeyRef")
        if file_ref is not None and file_ref.get("optional") is None:
            file_ref["optional"] = False  # +default=false (1.34+; older releases drop the field)
    set_defaults_resource_requirements(container.get("resources"))
    set_defaults_probes(container)


def set_defaults_resource_requirements(resources: Mapping[str, Any] | None) -> None:
    """SetDefaults_ResourceList of a ResourceRequirements' limits and requests (in place); its
    claims' names written."""
    for key in ("limits", "requests"):
        set_defaults_resource_list((resources or {}).get(key))
    for claim in (resources or {}).get("claims") or []:
        claim.setdefault("name", "")  # ResourceClaim.name has no omitempty


def set_defaults_volume(volume: dict[str, Any], release: int = NEWEST_MINOR) -> None:
    """SetDefaults_Volume (a volume without a source is an emptyDir),
    SetDefaults_HostPathVolumeSource and the other sources' defaults (in place)."""
    if not any(volume.get(k) is not None for k in VOLUME_SOURCES):
        volume["emptyDir"] = {}
    host_path = volume.get("hostPath")
    if isinstance(host_path, dict) and host_path.get("type") is None:
        host_path["type"] = ""  # SetDefaults_HostPathVolumeSource: HostPathUnset
    set_defaults_volume_source(volume, release)


def image_tag(image: str) -> str:
    """The tag of an image reference as parsers.ParseImageName gives it (see image_reference)."""
    return parse_image_name(image)
