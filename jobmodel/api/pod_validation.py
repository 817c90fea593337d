"""The part of core pod-template validation (`pkg/apis/core/validation`) that Job and CronJob
validation reaches in practice: labels and annotations of the template, the pod's restart and
DNS policies and DNS config (pod_dns), security contexts (pod_security), probes and lifecycle
handlers (pod_probes), termination grace period, volumes with their mounts and devices
(pod_volumes), containers and init containers (names, images, pull and termination-message
policies, ports, env and envFrom (`pod_env`), sidecar restart policy, resources:
`jobmodel.api.pod_resources`), the
pod's overhead and pod-level resources, ephemeral containers (forbidden in a template, and each
still validated as upstream does), host-network ports, node selector, node affinity,
tolerations, host aliases, scheduling and readiness gates, the service account (and its deprecated alias),
node, priority-class and runtime-class names, the preemption policy, pod affinity (`pod_affinity`),
topology spread constraints (`pod_topology`), the OS-specific rules (`pod_os`), the pod-specific
annotations (`pod_annotations`, the tolerations one read as Go reads JSON: `go_json`) and resource
claims (`pod_claims`).

Nothing is left out: `NOT_CHECKED` below is empty (`jobmodel validate` names what it holds on
every "valid" verdict, should a release add checks that are not modelled yet).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from jobmodel.api import field as fe
from jobmodel.api import meta_validation as mv
from jobmodel.api import pod_affinity, pod_annotations, pod_claims, pod_env, pod_os, pod_topology
from jobmodel.api import pod_probes as pp
from jobmodel.api import pod_security as ps
from jobmodel.api import pod_volumes as pv
from jobmodel.api.field import FieldError
from jobmodel.api.pod_dns import use_relaxed_dns_search_validation, validate_pod_dns_config
from jobmodel.api.pod_drop import restart_all_containers_action_in_use
from jobmodel.api.pod_recent_fields import validate_recent_pod_fields
from jobmodel.api.pod_resources import (
    uses_indivisible_huge_pages_values,
    validate_container_resource_requirements,
    validate_overhead,
    validate_pod_resources,
)
from jobmodel.features import NEWEST_MINOR
from jobmodel.util.goquote import go_quote
from jobmodel.util.gostrings import go_parse_int, go_trim_space

# What the API server checks in a pod template and this model does not (docs/validation.md).
NOT_CHECKED: Final[tuple[str, ...]] = ()
RESTART_POLICIES: Final = ("Always", "OnFailure", "Never")
DNS_POLICIES: Final = ("ClusterFirstWithHostNet", "ClusterFirst", "Default", "None")
PULL_POLICIES: Final = ("Always", "IfNotPresent", "Never")
TERMINATION_MESSAGE_POLICIES: Final = ("File", "FallbackToLogsOnError")
PORT_PROTOCOLS: Final = ("SCTP", "TCP", "UDP")
# In validateTaintEffect's order, which its NotSupported message lists.
TOLERATION_EFFECTS: Final = ("NoSchedule", "PreferNoSchedule", "NoExecute")
PREEMPTION_POLICIES: Final = ("PreemptLowerPriority", "Never")
NODE_SELECTOR_OPERATORS: Final = ("DoesNotExist", "Exists", "Gt", "In", "Lt", "NotIn")


def container_restart_rules_in_use(pod_spec: Mapping[str, Any] | None) -> bool:
    """containerRestartRulesInUse (`pkg/api/pod/util.go`, 1.34+)."""
    if pod_spec is None:
        return False
    return any(
        c.get("restartPolicy") not in (None, "Always") or bool(c.get("restartPolicyRules"))
        for c in pod_spec.get("initContainers") or []
    ) or any(c.get("restartPolicy") is not None for c in pod_spec.get("containers") or [])


@attrs.frozen
class PodValidationOptions:
    """The PodValidationOptions that differ between the releases modelled (GetValidationOptionsFromPodTemplate)."""

    release: int = NEWEST_MINOR  # words the label and qualified-name errors
    # ContainerRestartRules (1.34 alpha off, on from 1.35), or the old template already uses them.
    allow_container_restart_policy_rules: bool = True
    allow_restart_all_containers: bool = True  # RestartAllContainersOnContainerExits (on from 1.36)
    # 1.32 never checks required node-affinity values; from 1.33 only when the old template has none invalid.
    allow_invalid_label_value_in_required_node_affinity: bool = False
    allow_relaxed_dns_search_validation: bool = True  # RelaxedDNSSearchValidation (on from 1.33)
    security: ps.PodSecurityOptions = ps.PodSecurityOptions()
    allow_pod_lifecycle_sleep_action_zero_value: bool = True  # PodLifecycleSleepActionAllowZero (on from 1.33)
    # EnvFiles (1.34 alpha off, on from 1.35), or the old template reads a file: worded in valueFrom's error.
    allow_env_files_validation: bool = True
    allow_indivisible_huge_pages_values: bool = False  # the old template already has such a value
    topology: pod_topology.TopologyOptions = pod_topology.TopologyOptions()
    allow_invalid_pod_deletion_cost: bool = False  # AllowInvalidPodDeletionCost: the old template's is invalid
    allow_invalid_label_value_in_selector: bool = False  # the old template's affinity selectors are invalid
    # AllowTaintTolerationComparisonOperators (1.35+): the gate (alpha, off) or the old template uses Lt/Gt.
    allow_taint_toleration_comparison_operators: bool = False
    volumes: pv.VolumeOptions = pv.VolumeOptions()
    # InPlacePodVerticalScaling (off at 1.32, on from 1.33), or the old template's sidecar has a resizePolicy.
    allow_sidecar_resize_policy: bool = True
    # The old template has a non-sidecar init container resized with RestartContainer (checked from 1.36).
    allow_existing_restart_container_for_non_sidecar_init_container: bool = False


DEFAULT_POD_OPTIONS: Final = PodValidationOptions()
EMPTY: Final[Mapping[str, Mapping[str, Any]]] = {}


def pod_validation_options(
    release: int, old_pod_spec: Mapping[str, Any] | None, old_pod_meta: Mapping[str, Any] | None = None
) -> PodValidationOptions:
    """GetValidationOptionsFromPodTemplate's restart-rule options at a release (`old_pod_spec`,
    `old_pod_meta`: the stored template's spec and metadata on update)."""
    return PodValidationOptions(
        release=release,
        allow_container_restart_policy_rules=release >= 35
        or (release == 34 and container_restart_rules_in_use(old_pod_spec)),
        allow_restart_all_containers=release >= 36 or (release == 35 and restart_all_containers_action_in_use(old_pod_spec)),
        allow_invalid_label_value_in_required_node_affinity=release <= 32
        or has_invalid_label_value_in_required_node_affinity(old_pod_spec, release),
        allow_relaxed_dns_search_validation=use_relaxed_dns_search_validation(release, old_pod_spec),
        security=ps.pod_security_options(release, old_pod_spec),
        allow_pod_lifecycle_sleep_action_zero_value=pp.allow_pod_lifecycle_sleep_action_zero_value(release, old_pod_spec),
        allow_env_files_validation=release >= 35 or (release == 34 and pod_env.pod_file_key_ref_in_use(old_pod_spec)),
        allow_indivisible_huge_pages_values=uses_indivisible_huge_pages_values(old_pod_spec),
        topology=pod_topology.topology_options(release, old_pod_spec),
        allow_invalid_label_value_in_selector=pod_affinity.has_invalid_label_value_in_affinity_selector(old_pod_spec, release),
        allow_taint_toleration_comparison_operators=taint_toleration_comparison_operators_in_use(old_pod_spec),
        allow_invalid_pod_deletion_cost=old_pod_meta is not None
        and not pod_annotations.deletion_cost_is_valid(old_pod_meta.get("annotations") or {}),
        volumes=pv.volume_options(old_pod_spec),
        allow_sidecar_resize_policy=release >= 33 or has_restartable_init_container_resize_policy(old_pod_spec),
        allow_existing_restart_container_for_non_sidecar_init_container=has_restart_container_for_non_sidecar_init_container(
            old_pod_spec
        ),
    )


def is_restartable_init_container(ctr: Mapping[str, Any]) -> bool:
    """IsRestartableInitContainer: restartPolicy Always (a sidecar)."""
    return ctr.get("restartPolicy") == "Always"


def has_restartable_init_container_resize_policy(pod_spec: Mapping[str, Any] | None) -> bool:
    """hasRestartableInitContainerResizePolicy (`pkg/api/pod/util.go`): a sidecar has a resizePolicy."""
    return pod_spec is not None and any(
        is_restartable_init_container(c) and bool(c.get("resizePolicy")) for c in pod_spec.get("initContainers") or []
    )


def has_restart_container_for_non_sidecar_init_container(pod_spec: Mapping[str, Any] | None) -> bool:
    """hasRestartContainerForNonSidecarInitContainer (`pkg/api/pod/util.go`, 1.36+)."""
    return pod_spec is not None and any(
        not is_restartable_init_container(c) and any(p.get("restartPolicy") == "RestartContainer" for p in c.get("resizePolicy") or [])
        for c in pod_spec.get("initContainers") or []
    )


def taint_toleration_comparison_operators_in_use(pod_spec: Mapping[str, Any] | None) -> bool:
    """taintTolerationComparisonOperatorsInUse (`pkg/api/pod/util.go`, 1.35+): a toleration with `Lt` or `Gt`."""
    return any(t.get("operator") in ("Lt", "Gt") for t in (pod_spec or {}).get("tolerations") or [])


def has_invalid_label_value_in_required_node_affinity(
    pod_spec: Mapping[str, Any] | None, release: int = NEWEST_MINOR
) -> bool:
    """hasInvalidLabelValueInRequiredNodeAffinity (`pkg/api/pod/util.go`, 1.33+), with
    HasInvalidLabelValueInNodeSelectorTerms: a match expression's value that is no label value."""
    affinity = (pod_spec or {}).get("affinity") or {}
    required = (affinity.get("nodeAffinity") or {}).get("requiredDuringSchedulingIgnoredDuringExecution")
    if required is None:
        return False
    return any(
        mv.is_valid_label_value(value, release)
        for term in required.get("nodeSelectorTerms") or []
        for expression in term.get("matchExpressions") or []
        for value in expression.get("values") or []
    )


def validate_pod_template_spec(
    template: Mapping[str, Any], path: str, opts: PodValidationOptions = DEFAULT_POD_OPTIONS
) -> list[FieldError]:
    """ValidatePodTemplateSpec."""
    meta = template.get("metadata") or {}
    spec = template.get("spec") or {}
    errs = mv.validate_labels(meta.get("labels"), fe.child(path, "labels"), opts.release)
    annotations = meta.get("annotations") or {}
    errs.extend(mv.validate_annotations(meta.get("annotations"), fe.child(path, "annotations"), opts.release))
    errs.extend(
        pod_annotations.validate_pod_specific_annotations(
            annotations,
            spec,
            fe.child(path, "annotations"),
            opts.allow_invalid_pod_deletion_cost,
        )
    )
    errs.extend(
        validate_tolerations_in_pod_annotations(
            annotations, fe.child(path, "annotations"), opts.release, opts.allow_taint_toleration_comparison_operators
        )
    )
    errs.extend(validate_pod_spec(spec, fe.child(path, "spec"), opts))
    errs.extend(pod_annotations.validate_seccomp_annotations_and_fields(annotations, spec, fe.child(path, "spec")))
    errs.extend(pod_annotations.validate_app_armor_annotations_and_fields_match_on_create(annotations, spec, fe.child(path, "spec")))
    if spec.get("ephemeralContainers"):
        errs.append(
            fe.forbidden(
                fe.child(path, "spec", "ephemeralContainers"),
                "ephemeral containers not allowed in pod template",
            )
        )
    return errs


def validate_pod_spec(
    spec: Mapping[str, Any], path: str, opts: PodValidationOptions = DEFAULT_POD_OPTIONS
) -> list[FieldError]:
    """ValidatePodSpec (the modelled part)."""
    release = opts.release
    errs: list[FieldError] = []
    if spec.get("terminationGracePeriodSeconds") is None:
        errs.append(fe.required(fe.child(path, "terminationGracePeriodSeconds")))
    volume_errs, volumes = pv.validate_volumes(spec.get("volumes") or [], fe.child(path, "volumes"), opts)
    errs.extend(volume_errs)
    errs.extend(pod_claims.validate_pod_claims(spec, path, release))
    containers = spec.get("containers") or []
    restart_policy = spec.get("restartPolicy") or ""
    errs.extend(validate_containers(containers, fe.child(path, "containers"), volumes, opts, restart_policy))
    errs.extend(
        validate_init_containers(
            spec.get("initContainers") or [], containers, fe.child(path, "initContainers"), volumes, opts, restart_policy
        )
    )
    errs.extend(
        validate_ephemeral_containers(
            spec.get("ephemeralContainers") or [],
            containers,
            spec.get("initContainers") or [],
            fe.child(path, "ephemeralContainers"),
            volumes,
            opts,
            restart_policy,
        )
    )
    errs.extend(validate_pod_host_network_deps(spec, path))
    errs.extend(validate_pod_resources(spec, path, opts.release, opts.allow_indivisible_huge_pages_values))
    errs.extend(validate_overhead(spec.get("overhead"), fe.child(path, "overhead"), opts.release, opts.allow_indivisible_huge_pages_values))
    errs.extend(
        _validate_enum(
            spec.get("restartPolicy", ""), RESTART_POLICIES, fe.child(path, "restartPolicy"), opts.release
        )
    )
    errs.extend(
        _validate_enum(spec.get("dnsPolicy", ""), DNS_POLICIES, fe.child(path, "dnsPolicy"), opts.release)
    )
    errs.extend(
        validate_pod_dns_config(
            spec.get("dnsConfig"),
            spec.get("dnsPolicy", ""),
            fe.child(path, "dnsConfig"),
            release,
            opts.allow_relaxed_dns_search_validation,
        )
    )
    errs.extend(mv.validate_labels(spec.get("nodeSelector"), fe.child(path, "nodeSelector"), release))
    errs.extend(ps.validate_pod_security(spec, path, release, opts.security))
    errs.extend(pp.validate_pod_probes(spec, path, release, opts.allow_pod_lifecycle_sleep_action_zero_value))
    errs.extend(
        validate_affinity(
            spec.get("affinity"),
            fe.child(path, "affinity"),
            release,
            opts.allow_invalid_label_value_in_required_node_affinity,
            opts.allow_invalid_label_value_in_selector,
        )
    )
    errs.extend(
        # validateReadinessGates (ValidatePodSpec checks it before the scheduling gates)
        e
        for i, gate in enumerate(spec.get("readinessGates") or [])
        for e in mv.validate_qualified_name(
            gate.get("conditionType") or "",
            fe.child(fe.index(fe.child(path, "readinessGates"), i), "conditionType"),
            release,
        )
    )
    errs.extend(
        validate_scheduling_gates(
            spec.get("schedulingGates") or [], fe.child(path, "schedulingGates"), release
        )
    )
    errs.extend(
        pod_topology.validate_topology_spread_constraints(
            spec.get("topologySpreadConstraints") or [], fe.child(path, "topologySpreadConstraints"), release, opts.topology
        )
    )
    errs.extend(validate_service_account(spec, path, release))
    for name in ("nodeName", "priorityClassName"):
        # ValidateNodeName, ValidatePriorityClassName: NameIsDNSSubdomain.
        if spec.get(name):
            errs.extend(
                fe.invalid(fe.child(path, name), spec[name], m)
                for m in mv.is_dns1123_subdomain(spec[name])
            )
    deadline = spec.get("activeDeadlineSeconds")
    if deadline is not None and not 1 <= deadline <= 2**31 - 1:
        errs.append(
            fe.invalid(
                fe.child(path, "activeDeadlineSeconds"),
                deadline,
                mv.inclusive_range_error(1, 2**31 - 1),
            )
        )
    for name in ("hostname", "subdomain"):
        if spec.get(name):
            errs.extend(mv.validate_dns1123_label(spec[name], fe.child(path, name)))
    errs.extend(
        validate_tolerations(
            spec.get("tolerations") or [], fe.child(path, "tolerations"), release, opts.allow_taint_toleration_comparison_operators
        )
    )
    errs.extend(pod_env.validate_host_aliases(spec.get("hostAliases") or [], fe.child(path, "hostAliases"), release))
    if spec.get("runtimeClassName") is not None:
        # ValidateRuntimeClassName: NameIsDNSSubdomain, also when empty (a set pointer).
        errs.extend(
            fe.invalid(fe.child(path, "runtimeClassName"), spec["runtimeClassName"], m)
            for m in mv.is_dns1123_subdomain(spec["runtimeClassName"])
        )
    if spec.get("preemptionPolicy") is not None:
        # ValidatePreemptionPolicy
        errs.extend(
            _validate_enum(
                spec["preemptionPolicy"], PREEMPTION_POLICIES, fe.child(path, "preemptionPolicy"), opts.release
            )
        )
    errs.extend(pod_os.validate_pod_os(spec, path, release))
    errs.extend(pod_env.validate_file_key_ref_volumes(spec, path, release))
    errs.extend(validate_recent_pod_fields(spec, path, release, volumes))
    return errs


def validate_service_account(spec: Mapping[str, Any], path: str, release: int) -> list[FieldError]:
    """ValidatePodSpec's service account. Up to 1.36 the internal PodSpec has no deprecated
    `serviceAccount`: Convert_v1_PodSpec_To_core_PodSpec makes it the `serviceAccountName` when
    that is empty. From 1.37 the internal type keeps it (DeprecatedServiceAccount, synced only by
    SetDefaults_PodSpec) and validation requires the two to be equal."""
    name, deprecated = spec.get("serviceAccountName") or "", spec.get("serviceAccount") or ""
    account = internal_service_account_name(spec, release)
    errs = [
        fe.invalid(fe.child(path, "serviceAccountName"), account, m)
        for m in mv.is_dns1123_subdomain(account)
    ] if account else []
    if release >= 37 and deprecated != name:
        errs.append(
            fe.invalid(
                fe.child(path, "deprecatedServiceAccount"),
                deprecated,
                f"must be the same as serviceAccountName: {go_quote(name)}",
            )
        )
    return errs


def internal_service_account_name(spec: Mapping[str, Any], release: int) -> str:
    """The internal PodSpec's ServiceAccountName: up to 1.36 Convert_v1_PodSpec_To_core_PodSpec
    fills an empty one from the deprecated `serviceAccount`; from 1.37 it is as written."""
    name = spec.get("serviceAccountName") or ""
    return name if release >= 37 else name or spec.get("serviceAccount") or ""


def internal_service_account(spec: dict[str, Any], release: int) -> None:
    """Convert_v1_PodSpec_To_core_PodSpec's alias, in place on a v1 pod spec: up to 1.36 the
    internal PodSpec has only the service account's name, the deprecated `serviceAccount` when
    `serviceAccountName` is empty (so templates differing only in which of the two holds it are
    equal); from 1.37 it keeps both as written (validate_service_account)."""
    if release >= 37:
        return
    account = internal_service_account_name(spec, release)
    spec.pop("serviceAccount", None)
    if account:
        spec["serviceAccountName"] = account
    else:
        spec.pop("serviceAccountName", None)


def internal_pod_security_context(spec: dict[str, Any], release: int) -> None:
    """Convert_v1_PodSpec_To_core_PodSpec, in place on a v1 pod spec: up to 1.36 it allocates the
    internal PodSpec's SecurityContext (to carry the host namespaces), so no security context and
    an empty one are the same internal template; from 1.37 nil stays nil."""
    if release < 37 and spec.get("securityContext") is None:
        spec["securityContext"] = {}


def validate_pull_policy(policy: str, path: str, release: int = NEWEST_MINOR) -> list[FieldError]:
    """validatePullPolicy."""
    return _validate_enum(policy, PULL_POLICIES, path, release)


def _validate_enum(value: str, allowed: tuple[str, ...], path: str, release: int) -> list[FieldError]:
    """The shape shared by validateRestartPolicy, validateDNSPolicy, validatePullPolicy: "" is
    Required; the value is of a named string type (core.RestartPolicy, ...)."""
    if value in allowed:
        return []
    if value == "":
        return [fe.required(path)]
    return [fe.not_supported(path, fe.named(value, release), allowed)]


def validate_container_common(
    ctr: Mapping[str, Any],
    path: str,
    volumes: Mapping[str, Mapping[str, Any]] = EMPTY,
    opts: PodValidationOptions = DEFAULT_POD_OPTIONS,
    pod_restart_policy: str = "",
) -> list[FieldError]:
    """validateContainerCommon (the modelled part; the security context is pod_security's);
    `volumes`: the valid volumes by name."""
    errs: list[FieldError] = []
    name = ctr.get("name") or ""
    if not name:
        errs.append(fe.required(fe.child(path, "name")))
    else:
        errs.extend(mv.validate_dns1123_label(name, fe.child(path, "name")))
    if not ctr.get("image"):
        errs.append(fe.required(fe.child(path, "image")))
    errs.extend(
        _validate_enum(
            ctr.get("terminationMessagePolicy", ""),
            TERMINATION_MESSAGE_POLICIES,
            fe.child(path, "terminationMessagePolicy"),
            opts.release,
        )
    )
    errs.extend(validate_container_ports(ctr.get("ports") or [], fe.child(path, "ports"), opts.release))
    errs.extend(pod_env.validate_env(ctr.get("env") or [], fe.child(path, "env"), opts))
    errs.extend(pod_env.validate_env_from(ctr.get("envFrom") or [], fe.child(path, "envFrom"), opts))
    errs.extend(pv.validate_volume_mounts(ctr, volumes, fe.child(path, "volumeMounts"), opts))
    errs.extend(pv.validate_volume_devices(ctr, volumes, fe.child(path, "volumeDevices")))
    errs.extend(
        _validate_enum(
            ctr.get("imagePullPolicy", ""), PULL_POLICIES, fe.child(path, "imagePullPolicy"), opts.release
        )
    )
    errs.extend(
        validate_container_resource_requirements(
            ctr.get("resources"), fe.child(path, "resources"), opts.release, opts.allow_indivisible_huge_pages_values
        )
    )
    errs.extend(validate_resize_policy(ctr.get("resizePolicy") or [], fe.child(path, "resizePolicy"), pod_restart_policy, opts.release))
    return errs


RESIZE_RESOURCES: Final = ("cpu", "memory")  # supportedResizeResources (sets.List: sorted)
RESIZE_POLICIES: Final = ("NotRequired", "RestartContainer")  # supportedResizePolicies


def validate_resize_policy(
    policies: Sequence[Mapping[str, Any]], path: str, pod_restart_policy: str, release: int = NEWEST_MINOR
) -> list[FieldError]:
    """validateResizePolicy: each resource (cpu or memory) once, a known restart policy, and
    only NotRequired in a pod whose restartPolicy is Never."""
    errs: list[FieldError] = []
    seen: set[str] = set()
    subject = "pod `restartPolicy`" if release >= 36 else "`restartPolicy`"
    for i, policy in enumerate(policies):
        resource, restart = policy.get("resourceName") or "", policy.get("restartPolicy") or ""
        if resource in seen:
            errs.append(fe.duplicate(fe.index(path, i), fe.stringer(resource, release)))
        seen.add(resource)
        if not resource:
            errs.append(fe.required(path))
        elif resource not in RESIZE_RESOURCES:
            errs.append(fe.not_supported(path, fe.stringer(resource, release), RESIZE_RESOURCES))
        if not restart:
            errs.append(fe.required(path))
        elif restart not in RESIZE_POLICIES:
            errs.append(fe.not_supported(path, fe.named(restart, release), RESIZE_POLICIES))
        if pod_restart_policy == "Never" and restart != "NotRequired":
            errs.append(fe.invalid(path, fe.named(restart, release), f"must be 'NotRequired' when {subject} is 'Never'"))
    return errs


def accumulate_unique_host_ports(containers: Sequence[Mapping[str, Any]], path: str, seen: set[str]) -> list[FieldError]:
    """AccumulateUniqueHostPorts: a host port (by protocol, host IP and port) used once."""
    errs: list[FieldError] = []
    for i, ctr in enumerate(containers):
        ports_path = fe.child(fe.index(path, i), "ports")
        for j, port in enumerate(ctr.get("ports") or []):
            host_port = port.get("hostPort") or 0
            if host_port == 0:
                continue
            key = f"{port.get('protocol') or ''}/{port.get('hostIP') or ''}/{host_port}"
            if key in seen:
                errs.append(fe.duplicate(fe.child(fe.index(ports_path, j), "hostPort"), key))
            else:
                seen.add(key)
    return errs


def check_host_port_conflicts(containers: Sequence[Mapping[str, Any]], path: str) -> list[FieldError]:
    """checkHostPortConflicts: host ports unique across `containers`."""
    return accumulate_unique_host_ports(containers, path, set())


def validate_containers(
    containers: list[Mapping[str, Any]],
    path: str,
    volumes: Mapping[str, Mapping[str, Any]] = EMPTY,
    opts: PodValidationOptions = DEFAULT_POD_OPTIONS,
    pod_restart_policy: str = "",
) -> list[FieldError]:
    """validateContainers: at least one; names unique; a regular container's restartPolicy only
    with ContainerRestartRules (validateContainerRestartPolicy), Forbidden without; host ports
    unique across the containers."""
    if not containers:
        return [fe.required(path)]
    errs: list[FieldError] = []
    names: set[str] = set()
    for i, ctr in enumerate(containers):
        idx = fe.index(path, i)
        errs.extend(validate_container_common(ctr, idx, volumes, opts, pod_restart_policy))
        errs.extend(fe.unique(fe.child(idx, "name"), ctr.get("name") or "", names))
        if opts.allow_container_restart_policy_rules:
            errs.extend(validate_container_restart_policy(ctr, idx, opts))
        elif ctr.get("restartPolicy") is not None:
            errs.append(
                fe.forbidden(
                    fe.child(idx, "restartPolicy"), "may not be set for non-init containers"
                )
            )
    errs.extend(check_host_port_conflicts(containers, path))
    return errs


# supportedContainerRestartPolicies, ...Operators, ...RuleActions (sets.List order: sorted).
CONTAINER_RESTART_POLICIES: Final = ("Always", "Never", "OnFailure")
CONTAINER_RESTART_RULE_OPERATORS: Final = ("In", "NotIn")
MAX_CONTAINER_RESTART_RULES: Final = 20
MAX_CONTAINER_RESTART_RULE_EXIT_CODES: Final = 255


def container_restart_rule_actions(opts: PodValidationOptions) -> tuple[str, ...]:
    """The rule actions allowed: `Restart`, and `RestartAllContainers` with RestartAllContainersOnContainerExits."""
    return ("Restart", "RestartAllContainers") if opts.allow_restart_all_containers else ("Restart",)


def validate_container_restart_policy(
    ctr: Mapping[str, Any], path: str, opts: PodValidationOptions
) -> list[FieldError]:
    """validateContainerRestartPolicy (core validation, 1.34+): the container's restartPolicy and
    restartPolicyRules. 1.35 words the list limits TooLong, 1.36+ TooMany and lists the actions
    allowed (1.35: `Restart` only, whatever is allowed)."""
    policy, rules = ctr.get("restartPolicy"), ctr.get("restartPolicyRules") or []
    policy_path, rules_path = fe.child(path, "restartPolicy"), fe.child(path, "restartPolicyRules")
    errs: list[FieldError] = []
    if policy is None:
        if not rules:
            return []
        errs.append(fe.required(policy_path, "must specify restartPolicy when restart rules are used"))
    elif policy not in CONTAINER_RESTART_POLICIES:
        errs.append(fe.not_supported(policy_path, fe.named(policy, opts.release), CONTAINER_RESTART_POLICIES))
    if len(rules) > MAX_CONTAINER_RESTART_RULES:
        errs.append(_too_many(rules_path, len(rules), MAX_CONTAINER_RESTART_RULES, opts.release))
    allowed = container_restart_rule_actions(opts)
    listed = allowed if opts.release >= 36 else ("Restart",)
    for i, rule in enumerate(rules):
        rule_path = fe.index(rules_path, i)
        action = rule.get("action", "")
        if action not in allowed:
            errs.append(fe.not_supported(fe.child(rule_path, "action"), fe.named(action, opts.release), listed))
        exit_codes = rule.get("exitCodes")
        if exit_codes is None:
            errs.append(fe.required(fe.child(rule_path, "exitCodes"), "must be specified"))
            continue
        codes_path = fe.child(rule_path, "exitCodes")
        operator = exit_codes.get("operator", "")
        if operator not in CONTAINER_RESTART_RULE_OPERATORS:
            errs.append(fe.not_supported(fe.child(codes_path, "operator"), fe.named(operator, opts.release), CONTAINER_RESTART_RULE_OPERATORS))
        values = exit_codes.get("values") or []
        if len(values) > MAX_CONTAINER_RESTART_RULE_EXIT_CODES:
            errs.append(
                _too_many(fe.child(codes_path, "values"), len(values), MAX_CONTAINER_RESTART_RULE_EXIT_CODES, opts.release)
            )
    return errs


def _too_many(path: str, actual: int, limit: int, release: int) -> FieldError:
    """A list over its limit: TooLong in 1.35's validateContainerRestartPolicy, TooMany from 1.36."""
    return fe.too_many(path, actual, limit) if release >= 36 else fe.too_long(path, limit)


def validate_init_container_restart_policy(
    ctr: Mapping[str, Any], path: str, opts: PodValidationOptions
) -> list[FieldError]:
    """validateInitContainerRestartPolicy: without ContainerRestartRules only `Always` (sidecars);
    with it any container restart policy, and rules (for `Always` only with RestartAllContainersOnContainerExits)."""
    policy, rules = ctr.get("restartPolicy"), ctr.get("restartPolicyRules") or []
    if policy is None:
        # 1.34 calls it only for a container with a restart policy: rules alone pass.
        if rules and opts.release >= 35:
            return [fe.required(fe.child(path, "restartPolicy"), "must specify restartPolicy when restart rules are used")]
        return []
    if not opts.allow_container_restart_policy_rules:
        return [] if policy == "Always" else [fe.not_supported(fe.child(path, "restartPolicy"), fe.named(policy, opts.release), ["Always"])]
    if policy != "Always" or opts.allow_restart_all_containers:
        return validate_container_restart_policy(ctr, path, opts)
    if rules:
        return [
            fe.forbidden(
                fe.child(path, "restartPolicyRules"),
                "restartPolicyRules are not allowed for init containers with restart policy Always",
            )
        ]
    return []


# Container fields an ephemeral container may not set (allowedEphemeralContainerFields false or
# absent): pointers and lists count as set when present, the resources struct when not empty.
EPHEMERAL_FORBIDDEN_FIELDS: Final = (
    "ports",
    "resources",
    "resizePolicy",
    "restartPolicy",
    "restartPolicyRules",  # 1.34+: a field of EphemeralContainerCommon the allow list lacks
    "livenessProbe",
    "readinessProbe",
    "startupProbe",
    "lifecycle",
)
EPHEMERAL_FORBIDDEN: Final = "cannot be set for an Ephemeral Container"


def validate_container_only_for_pod(ctr: Mapping[str, Any], path: str) -> list[FieldError]:
    """validateContainerOnlyForPod: no whitespace around the image."""
    image = str(ctr.get("image") or "")
    if image != go_trim_space(image):
        return [
            fe.invalid(
                fe.child(path, "image"), image, "must not have leading or trailing whitespace"
            )
        ]
    return []


def validate_ephemeral_containers(
    ephemeral: list[Mapping[str, Any]],
    containers: list[Mapping[str, Any]],
    init_containers: list[Mapping[str, Any]],
    path: str,
    volumes: Mapping[str, Mapping[str, Any]] = EMPTY,
    opts: PodValidationOptions = DEFAULT_POD_OPTIONS,
    pod_restart_policy: str = "",
) -> list[FieldError]:
    """validateEphemeralContainers (the pod template also forbids the list as a whole)."""
    errs: list[FieldError] = []
    other = {str(c.get("name") or "") for c in [*containers, *init_containers]}
    names = set(other)
    for i, ctr in enumerate(ephemeral):
        idx = fe.index(path, i)
        errs.extend(validate_container_common(ctr, idx, volumes, opts, pod_restart_policy))
        errs.extend(validate_container_only_for_pod(ctr, idx))
        errs.extend(fe.unique(fe.child(idx, "name"), str(ctr.get("name") or ""), names))
        target = ctr.get("targetContainerName") or ""
        if target and target not in other:
            errs.append(fe.not_found(fe.child(idx, "targetContainerName"), target))
        errs.extend(
            fe.forbidden(fe.child(idx, key), EPHEMERAL_FORBIDDEN)
            for key in EPHEMERAL_FORBIDDEN_FIELDS
            if ctr.get(key) is not None and not (key == "resources" and ctr[key] == {})
        )
        for j, mount in enumerate(ctr.get("volumeMounts") or []):
            for key in ("subPath", "subPathExpr"):
                if mount.get(key):
                    errs.append(
                        fe.forbidden(
                            fe.child(fe.index(fe.child(idx, "volumeMounts"), j), key),
                            EPHEMERAL_FORBIDDEN,
                        )
                    )
    return errs


def validate_init_containers(
    containers: list[Mapping[str, Any]],
    regular: list[Mapping[str, Any]],
    path: str,
    volumes: Mapping[str, Mapping[str, Any]] = EMPTY,
    opts: PodValidationOptions = DEFAULT_POD_OPTIONS,
    pod_restart_policy: str = "",
) -> list[FieldError]:
    """validateInitContainers: names unique among all containers; host ports unique within each
    (init containers run one by one: upstream checks each as a one-element list, so the path
    says `[0]`); the restart policy (validateInitContainerRestartPolicy); the resize policy."""
    errs: list[FieldError] = []
    names = {c.get("name") or "" for c in regular}
    for i, ctr in enumerate(containers):
        idx = fe.index(path, i)
        errs.extend(validate_container_common(ctr, idx, volumes, opts, pod_restart_policy))
        restart = ctr.get("restartPolicy")
        errs.extend(validate_init_container_restart_policy(ctr, idx, opts))
        name = ctr.get("name") or ""
        if name in names:
            errs.append(fe.duplicate(fe.child(idx, "name"), name))
        elif name:
            names.add(name)
        errs.extend(check_host_port_conflicts([ctr], path))
        if restart != "Always":
            for key in ("lifecycle", "livenessProbe", "readinessProbe", "startupProbe"):
                if ctr.get(key) is not None:
                    errs.append(
                        fe.forbidden(
                            fe.child(idx, key),
                            "may not be set for init containers without restartPolicy=Always",
                        )
                    )
        errs.extend(_validate_init_container_resize_policy(ctr, idx, opts))
    return errs


def _validate_init_container_resize_policy(ctr: Mapping[str, Any], path: str, opts: PodValidationOptions) -> list[FieldError]:
    """validateInitContainers' resize rules: no resizePolicy without AllowSidecarResizePolicy;
    from 1.36 no RestartContainer for a non-sidecar unless the old template has one."""
    errs: list[FieldError] = []
    policies = ctr.get("resizePolicy") or []
    if not opts.allow_sidecar_resize_policy and policies:
        errs.append(fe.invalid(fe.child(path, "resizePolicy"), _resize_policy_value(policies, opts.release), "must not be set for init containers"))
    if opts.release >= 36 and not is_restartable_init_container(ctr) and not opts.allow_existing_restart_container_for_non_sidecar_init_container:
        errs.extend(
            fe.invalid(
                fe.child(fe.index(fe.child(path, "resizePolicy"), j), "restartPolicy"),
                fe.named(p.get("restartPolicy") or "", opts.release),
                "must not be set to 'RestartContainer' for non-sidecar initContainers",
            )
            for j, p in enumerate(policies)
            if p.get("restartPolicy") == "RestartContainer"
        )
    return errs


def _resize_policy_value(policies: list[Mapping[str, Any]], release: int) -> Any:
    """A []core.ContainerResizePolicy bad value as ErrorBody prints it (internal type: Go field names)."""
    items = [
        fe.GoStruct(
            (("ResourceName", p.get("resourceName") or ""), ("RestartPolicy", p.get("restartPolicy") or "")),
            "core.ContainerResizePolicy",
            ("core.ResourceName", "core.ResourceResizeRestartPolicy"),
        )
        for p in policies
    ]
    if release >= 34:
        return items
    return fe.GoSyntax(fe.go_syntax_value(items, "[]core.ContainerResizePolicy") or "")


def validate_container_ports(ports: list[Mapping[str, Any]], path: str, release: int = NEWEST_MINOR) -> list[FieldError]:
    """validateContainerPorts: names IANA service names (IsValidPortName) and unique."""
    errs: list[FieldError] = []
    names: set[str] = set()
    for i, port in enumerate(ports):
        idx = fe.index(path, i)
        name = port.get("name") or ""
        if name:
            name_errs = mv.is_valid_port_name(name)
            errs.extend(fe.invalid(fe.child(idx, "name"), name, m) for m in name_errs)
            errs.extend([] if name_errs else fe.unique(fe.child(idx, "name"), name, names))
        container_port = port.get("containerPort") or 0
        if container_port == 0:
            errs.append(fe.required(fe.child(idx, "containerPort")))
        else:
            errs.extend(fe.invalid(fe.child(idx, "containerPort"), container_port, m) for m in mv.is_valid_port_num(container_port))
        host_port = port.get("hostPort") or 0
        if host_port:
            errs.extend(fe.invalid(fe.child(idx, "hostPort"), host_port, m) for m in mv.is_valid_port_num(host_port))
        protocol = port.get("protocol") or ""
        if not protocol:
            errs.append(fe.required(fe.child(idx, "protocol")))
        elif protocol not in PORT_PROTOCOLS:
            errs.append(fe.not_supported(fe.child(idx, "protocol"), fe.named(protocol, release), PORT_PROTOCOLS))
    return errs


def validate_pod_host_network_deps(spec: Mapping[str, Any], path: str) -> list[FieldError]:
    """validatePodHostNetworkDeps: in a template a host port, when given, must equal the container port."""
    if not spec.get("hostNetwork"):
        return []
    errs: list[FieldError] = []
    for i, ctr in enumerate(spec.get("containers") or []):
        for j, port in enumerate(ctr.get("ports") or []):
            host, cont = port.get("hostPort") or 0, port.get("containerPort") or 0
            if host != 0 and host != cont:
                port_path = fe.index(
                    fe.child(fe.index(fe.child(path, "containers"), i), "ports"), j
                )
                errs.append(
                    fe.invalid(
                        fe.child(port_path, "hostPort"),
                        host,
                        "must match `containerPort` when `hostNetwork` is true",
                    )
                )
    return errs


def validate_affinity(
    affinity: Mapping[str, Any] | None,
    path: str,
    release: int = NEWEST_MINOR,
    allow_invalid_label_value: bool = False,
    allow_invalid_label_value_in_selector: bool = False,
) -> list[FieldError]:
    """validateAffinity: validateNodeAffinity (required terms, ValidatePreferredSchedulingTerms),
    pod affinity and anti-affinity (pod_affinity)."""
    if not affinity:
        return []
    node = affinity.get("nodeAffinity") or {}
    required = node.get("requiredDuringSchedulingIgnoredDuringExecution")
    errs = [] if required is None else validate_node_selector(
        required,
        fe.child(path, "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution"),
        release,
        allow_invalid_label_value,
    )
    errs.extend(
        validate_preferred_scheduling_terms(
            node.get("preferredDuringSchedulingIgnoredDuringExecution") or [],
            fe.child(path, "nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution"),
            release,
        )
    )
    errs.extend(pod_affinity.validate_pod_affinities(affinity, path, allow_invalid_label_value_in_selector, release))
    return errs


def validate_preferred_scheduling_terms(terms: list[Mapping[str, Any]], path: str, release: int = NEWEST_MINOR) -> list[FieldError]:
    """ValidatePreferredSchedulingTerms: a weight in 1..100, the preference's requirements
    (ValidateNodeSelectorTerm with any label value allowed)."""
    errs: list[FieldError] = []
    for i, term in enumerate(terms):
        idx = fe.index(path, i)
        weight = term.get("weight") or 0
        if not 1 <= weight <= 100:
            errs.append(fe.invalid(fe.child(idx, "weight"), weight, pod_affinity.WEIGHT_RANGE))
        preference = term.get("preference") or {}
        pref_path = fe.child(idx, "preference")
        for j, req in enumerate(preference.get("matchExpressions") or []):
            errs.extend(validate_node_selector_requirement(req, fe.index(fe.child(pref_path, "matchExpressions"), j), release, True))
        for j, req in enumerate(preference.get("matchFields") or []):
            errs.extend(validate_node_field_selector_requirement(req, fe.index(fe.child(pref_path, "matchFields"), j), release))
    return errs


def validate_node_selector(
    selector: Mapping[str, Any],
    path: str,
    release: int = NEWEST_MINOR,
    allow_invalid_label_value: bool = False,
) -> list[FieldError]:
    """ValidateNodeSelector."""
    terms = selector.get("nodeSelectorTerms") or []
    terms_path = fe.child(path, "nodeSelectorTerms")
    if not terms:
        return [fe.required(terms_path, "must have at least one node selector term")]
    errs: list[FieldError] = []
    for i, term in enumerate(terms):
        term_path = fe.index(terms_path, i)
        for j, req in enumerate(term.get("matchExpressions") or []):
            errs.extend(
                validate_node_selector_requirement(
                    req,
                    fe.index(fe.child(term_path, "matchExpressions"), j),
                    release,
                    allow_invalid_label_value,
                )
            )
        for j, req in enumerate(term.get("matchFields") or []):
            errs.extend(
                validate_node_field_selector_requirement(
                    req, fe.index(fe.child(term_path, "matchFields"), j), release
                )
            )
    return errs


# nodeFieldSelectorValidators: the one field a node field selector may name, and ValidateNodeName.
NODE_FIELD_SELECTOR_KEYS: Final = ("metadata.name",)


def validate_node_field_selector_requirement(req: Mapping[str, Any], path: str, release: int = NEWEST_MINOR) -> list[FieldError]:
    """ValidateNodeFieldSelectorRequirement: `In`/`NotIn` with exactly one value, `metadata.name`
    only, each value a DNS-1123 subdomain (ValidateNodeName)."""
    errs: list[FieldError] = []
    op, values = req.get("operator", ""), req.get("values") or []
    if op in ("In", "NotIn"):
        if len(values) != 1:
            errs.append(
                fe.required(
                    fe.child(path, "values"),
                    "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
                )
            )
    else:
        errs.append(fe.invalid(fe.child(path, "operator"), fe.named(op, release), "not a valid selector operator"))
    key = req.get("key", "")
    if key not in NODE_FIELD_SELECTOR_KEYS:
        errs.append(fe.invalid(fe.child(path, "key"), key, "not a valid field selector key"))
    else:
        errs.extend(
            fe.invalid(fe.index(fe.child(path, "values"), i), v, m)
            for i, v in enumerate(values)
            for m in mv.is_dns1123_subdomain(v)
        )
    return errs


def validate_node_selector_requirement(
    req: Mapping[str, Any],
    path: str,
    release: int = NEWEST_MINOR,
    allow_invalid_label_value: bool = False,
) -> list[FieldError]:
    """ValidateNodeSelectorRequirement."""
    errs: list[FieldError] = []
    op, values = req.get("operator", ""), req.get("values") or []
    values_path = fe.child(path, "values")
    if op in ("In", "NotIn"):
        if not values:
            errs.append(
                fe.required(values_path, "must be specified when `operator` is 'In' or 'NotIn'")
            )
    elif op in ("Exists", "DoesNotExist"):
        if values:
            errs.append(
                fe.forbidden(
                    values_path,
                    "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                )
            )
    elif op in ("Gt", "Lt"):
        if len(values) != 1:
            errs.append(
                fe.required(
                    values_path, "must be specified single value when `operator` is 'Lt' or 'Gt'"
                )
            )
    else:
        errs.append(fe.invalid(fe.child(path, "operator"), fe.named(op, release), "not a valid selector operator"))
    errs.extend(mv.validate_label_name(req.get("key", ""), fe.child(path, "key"), release))
    for k, v in enumerate([] if allow_invalid_label_value else values):
        errs.extend(
            fe.invalid(fe.index(values_path, k), v, m) for m in mv.is_valid_label_value(v, release)
        )
    return errs


def validate_toleration_comparison(op: str, value: str, path: str, allowed: bool, release: int = NEWEST_MINOR) -> list[FieldError]:
    """ValidateTolerations' `Lt` and `Gt` (1.35+): refused while TaintTolerationComparisonOperators
    (alpha) is off, unless the old template uses them; then a decimal integer (IsDecimalInteger)
    within int64 (strconv.ParseInt)."""
    if not allowed:
        return [fe.not_supported(fe.child(path, "operator"), fe.named(op, release), ["Equal", "Exists", "Lt", "Gt"])]
    errs: list[FieldError] = []
    if not value:
        errs.append(fe.invalid(fe.child(path, "value"), value, "must be non-empty"))
    elif re.fullmatch(r"-?(0|[1-9][0-9]*)", value) is None or value == "-0":
        errs.append(fe.invalid(fe.child(path, "value"), value, "must be a valid decimal integer in canonical form"))
    try:
        go_parse_int(value)
    except ValueError as err:
        errs.append(fe.invalid(fe.child(path, "value"), value, f"strconv.ParseInt: parsing {go_quote(value)}: {err}"))
    return errs


def validate_tolerations_in_pod_annotations(
    annotations: Mapping[str, str], path: str, release: int = NEWEST_MINOR, allow_comparison_operators: bool = False
) -> list[FieldError]:
    """ValidatePodSpecificAnnotations' ValidateTolerationsInPodAnnotations: the tolerations
    annotation, when not empty, decodes (pod_annotations.get_tolerations_from_pod_annotations)
    into valid tolerations."""
    if not annotations.get(pod_annotations.TOLERATIONS_ANNOTATION):
        return []
    try:
        tolerations = pod_annotations.get_tolerations_from_pod_annotations(annotations)
    except ValueError as err:
        return [fe.invalid(path, pod_annotations.TOLERATIONS_ANNOTATION, str(err))]
    return validate_tolerations(
        tolerations, fe.child(path, pod_annotations.TOLERATIONS_ANNOTATION), release, allow_comparison_operators
    )


def validate_tolerations(
    tolerations: list[Mapping[str, Any]], path: str, release: int = NEWEST_MINOR, allow_comparison_operators: bool = False
) -> list[FieldError]:
    """ValidateTolerations."""
    errs: list[FieldError] = []
    for i, tol in enumerate(tolerations):
        idx = fe.index(path, i)
        key, op, value, effect = (
            tol.get("key", ""),
            tol.get("operator", ""),
            tol.get("value", ""),
            tol.get("effect", ""),
        )
        if key:
            errs.extend(mv.validate_label_name(key, fe.child(idx, "key"), release))
        if not key and op != "Exists":
            errs.append(
                fe.invalid(
                    fe.child(idx, "operator"),
                    fe.named(op, release),
                    'operator must be Exists when `key` is empty, which means "match all values and all keys"',
                )
            )
        if tol.get("tolerationSeconds") is not None and effect != "NoExecute":
            errs.append(
                fe.invalid(
                    fe.child(idx, "effect"),
                    fe.named(effect, release),
                    "effect must be 'NoExecute' when `tolerationSeconds` is set",
                )
            )
        if op in ("", "Equal"):
            errs.extend(
                fe.invalid(fe.child(idx, "operator"), value, m)
                for m in mv.is_valid_label_value(value, release)
            )
        elif op == "Exists":
            if value:
                errs.append(
                    fe.invalid(
                        fe.child(idx, "operator"),
                        value,
                        "value must be empty when `operator` is 'Exists'",
                    )
                )
        elif op in ("Lt", "Gt") and release >= 35:
            errs.extend(validate_toleration_comparison(op, value, idx, allow_comparison_operators, release))
        else:
            errs.append(fe.not_supported(fe.child(idx, "operator"), fe.named(op, release), ["Equal", "Exists"]))
        if effect and effect not in TOLERATION_EFFECTS:
            errs.append(fe.not_supported(fe.child(idx, "effect"), fe.named(effect, release), TOLERATION_EFFECTS))
    return errs


def validate_scheduling_gates(
    gates: list[Mapping[str, Any]], path: str, release: int = NEWEST_MINOR
) -> list[FieldError]:
    """validateSchedulingGates: qualified names, no duplicates."""
    errs: list[FieldError] = []
    seen: set[str] = set()
    for i, gate in enumerate(gates):
        name = gate.get("name", "")
        errs.extend(mv.validate_qualified_name(name, fe.index(path, i), release))
        errs.extend(fe.unique(fe.index(path, i), name, seen))
    return errs
