"""The modelled part of pod-template validation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from jobmodel.api.pod_validation import (
    DEFAULT_POD_OPTIONS,
    PodValidationOptions,
    check_host_port_conflicts,
    pod_validation_options,
    validate_ephemeral_containers,
    validate_init_containers,
    validate_pod_template_spec,
    validate_pull_policy,
    validate_resize_policy,
    validate_tolerations,
)
from tests.api.helpers import pairs, pod_template


def _errors(opts: PodValidationOptions = DEFAULT_POD_OPTIONS, **spec: object) -> set[tuple[str, str]]:
    template = pod_template()
    template["spec"].update(spec)
    return pairs(validate_pod_template_spec(template, "spec.template", opts))


def test_defaulted_template_is_valid() -> None:
    assert _errors() == set()


def test_required_defaults_missing() -> None:
    assert _errors(terminationGracePeriodSeconds=None, dnsPolicy="") == {
        ("spec.template.spec.terminationGracePeriodSeconds", "FieldValueRequired"),
        ("spec.template.spec.dnsPolicy", "FieldValueRequired"),
    }


def test_no_containers() -> None:
    assert _errors(containers=[]) == {("spec.template.spec.containers", "FieldValueRequired")}


def test_volume_without_source() -> None:
    assert _errors(volumes=[{"name": "v"}]) == {
        ("spec.template.spec.volumes[0]", "FieldValueRequired")
    }


def test_host_network_port_must_match_when_given() -> None:
    container = {
        "name": "a",
        "image": "i",
        "imagePullPolicy": "Never",
        "terminationMessagePolicy": "File",
        "ports": [{"containerPort": 80, "protocol": "TCP"}],
    }
    assert _errors(hostNetwork=True, containers=[container]) == set()
    container["ports"] = [{"containerPort": 80, "hostPort": 81, "protocol": "TCP"}]
    assert _errors(hostNetwork=True, containers=[container]) == {
        ("spec.template.spec.containers[0].ports[0].hostPort", "FieldValueInvalid")
    }


def test_sidecar_restart_policy() -> None:
    init = {
        "name": "side",
        "image": "i",
        "imagePullPolicy": "Never",
        "terminationMessagePolicy": "File",
        "restartPolicy": "Always",
    }
    assert _errors(initContainers=[init]) == set()
    assert _errors(pod_validation_options(34, None), initContainers=[{**init, "restartPolicy": "Never"}]) == {
        ("spec.template.spec.initContainers[0].restartPolicy", "FieldValueNotSupported")
    }


def _init(**fields: Any) -> dict[str, Any]:
    return {"name": "init", "image": "i", "imagePullPolicy": "Never", "terminationMessagePolicy": "File", **fields}


@pytest.mark.parametrize(("release", "accepted"), [(32, False), (33, False), (34, False), (35, True), (37, True)])
def test_init_container_restart_policy_never_by_release(release: int, accepted: bool) -> None:
    """ContainerRestartRules: alpha (off) in 1.34, beta (on) from 1.35 (kube_features.go);
    without it validateInitContainerRestartPolicy supports `Always` alone."""
    errors = _errors(pod_validation_options(release, None), initContainers=[_init(restartPolicy="Never")])
    assert errors == (set() if accepted else {("spec.template.spec.initContainers[0].restartPolicy", "FieldValueNotSupported")})


def test_restart_rules_in_use_in_the_old_template_stay_allowed_in_1_34() -> None:
    old = {"initContainers": [_init(restartPolicy="Never")]}
    assert _errors(pod_validation_options(34, old), initContainers=[_init(restartPolicy="Never")]) == set()


@pytest.mark.parametrize(("release", "required"), [(34, False), (35, True), (37, True)])
def test_init_container_rules_without_a_policy_are_refused_from_1_35(release: int, required: bool) -> None:
    """1.34's validateInitContainers calls validateInitContainerRestartPolicy only for a container
    with a restart policy; from 1.35 it is called for every init container."""
    old = {"initContainers": [_init(restartPolicy="Never")]}  # rules allowed at 1.34 too
    rules = [{"action": "Restart", "exitCodes": {"operator": "In", "values": [42]}}]
    errors = _errors(pod_validation_options(release, old), initContainers=[_init(restartPolicyRules=rules)])
    assert errors == ({("spec.template.spec.initContainers[0].restartPolicy", "FieldValueRequired")} if required else set())


def test_container_restart_rules_are_validated_from_1_35() -> None:
    rules = [{"action": "Bogus", "exitCodes": {"operator": "In", "values": [1]}}, {"action": "Restart"}]
    ctr = {**pod_template()["spec"]["containers"][0], "restartPolicyRules": rules}
    assert _errors(pod_validation_options(35, None), containers=[ctr]) == {
        ("spec.template.spec.containers[0].restartPolicy", "FieldValueRequired"),
        ("spec.template.spec.containers[0].restartPolicyRules[0].action", "FieldValueNotSupported"),
        ("spec.template.spec.containers[0].restartPolicyRules[1].exitCodes", "FieldValueRequired"),
    }
    assert _errors(pod_validation_options(34, None), containers=[{**ctr, "restartPolicy": "Never"}]) == {
        ("spec.template.spec.containers[0].restartPolicy", "FieldValueForbidden")
    }


def test_tolerations_and_gates() -> None:
    assert _errors(tolerations=[{"operator": "Equal", "value": "x"}]) == {
        ("spec.template.spec.tolerations[0].operator", "FieldValueInvalid")
    }
    assert _errors(schedulingGates=[{"name": "g"}, {"name": "g"}]) == {
        ("spec.template.spec.schedulingGates[1]", "FieldValueDuplicate")
    }


def test_required_node_affinity_needs_terms() -> None:
    affinity: dict[str, Any] = {
        "nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": []}
        }
    }
    assert _errors(affinity=affinity) == {
        (
            "spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms",
            "FieldValueRequired",
        )
    }


def _required_affinity(*values: str) -> dict[str, Any]:
    expression = {"key": "zone", "operator": "In", "values": list(values)}
    return {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [expression]}]}}}


AFFINITY_VALUE = "spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values[0]"


@pytest.mark.parametrize(("release", "old_values", "checked"), [(32, None, False), (33, None, True), (33, ["a"], True), (33, ["bad value!"], False), (35, ["x" * 64], False), (37, None, True)])
def test_required_node_affinity_values_by_release_and_old_template(release: int, old_values: list[str] | None, checked: bool) -> None:
    """v1.32.3 validateNodeAffinity passes `true` (values never checked); from v1.33
    GetValidationOptionsFromPodSpecAndMeta allows them only when the old template's required
    node affinity already has a value IsValidLabelValue refuses (hasInvalidLabelValueInRequiredNodeAffinity)."""
    old = None if old_values is None else {"affinity": _required_affinity(*old_values)}
    errors = _errors(pod_validation_options(release, old), affinity=_required_affinity("bad value!"))
    assert errors == ({(AFFINITY_VALUE, "FieldValueInvalid")} if checked else set())


def test_match_fields_are_node_field_selectors() -> None:
    """ValidateNodeFieldSelectorRequirement: `In`/`NotIn` with exactly one value, the one key
    `metadata.name` (nodeFieldSelectorValidators), its values node names (DNS-1123 subdomains);
    no label-key check."""
    path = "spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields"
    fields = [
        {"key": "metadata.name", "operator": "In", "values": ["node-1"]},
        {"key": "metadata.name", "operator": "NotIn", "values": ["a", "b"]},
        {"key": "metadata.name", "operator": "Exists"},
        {"key": "spec.nodeName", "operator": "In", "values": ["x"]},
        {"key": "metadata.name", "operator": "In", "values": ["Bad_Node"]},
    ]
    affinity = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchFields": fields}]}}}
    assert _errors(affinity=affinity) == {
        (f"{path}[1].values", "FieldValueRequired"),
        (f"{path}[2].operator", "FieldValueInvalid"),
        (f"{path}[3].key", "FieldValueInvalid"),
        (f"{path}[4].values[0]", "FieldValueInvalid"),
    }


@pytest.mark.parametrize(
    ("release", "spec", "errors"),
    [
        (36, {"serviceAccount": "Bad_SA"}, {("spec.template.spec.serviceAccountName", "FieldValueInvalid")}),
        (36, {"serviceAccountName": "a", "serviceAccount": "b"}, set()),
        (37, {"serviceAccount": "Bad_SA"}, {("spec.template.spec.deprecatedServiceAccount", "FieldValueInvalid")}),
        (37, {"serviceAccountName": "a"}, {("spec.template.spec.deprecatedServiceAccount", "FieldValueInvalid")}),
        (37, {"serviceAccountName": "a", "serviceAccount": "a"}, set()),
    ],
)
def test_service_account_alias_by_release(release: int, spec: dict[str, str], errors: set[tuple[str, str]]) -> None:
    """Up to v1.36 Convert_v1_PodSpec_To_core_PodSpec turns `serviceAccount` into an empty
    `serviceAccountName`, which ValidatePodSpec checks; v1.37's ValidatePodSpec requires
    DeprecatedServiceAccount to equal ServiceAccountName (the validation suite does not default)."""
    assert _errors(pod_validation_options(release, None), **spec) == errors


def test_service_account_mismatch_quotes_the_name_as_go() -> None:
    """v1.37's "must be the same as serviceAccountName: %q": strconv.Quote (U+00A0 escaped, é not)."""
    template = pod_template()
    template["spec"].update(serviceAccountName="é\u00a0", serviceAccount="b")
    errs = validate_pod_template_spec(template, "spec.template", pod_validation_options(37, None))
    details = [e.detail for e in errs if e.field.endswith("deprecatedServiceAccount")]
    assert details == ['must be the same as serviceAccountName: "é\\u00a0"']


def test_node_and_priority_class_names_are_dns_subdomains() -> None:
    """ValidatePodSpec: ValidateNodeName and ValidatePriorityClassName (NameIsDNSSubdomain)."""
    assert _errors(nodeName="Bad_Node", priorityClassName="Bad_PC") == {
        ("spec.template.spec.nodeName", "FieldValueInvalid"),
        ("spec.template.spec.priorityClassName", "FieldValueInvalid"),
    }
    assert _errors(nodeName="node-1", priorityClassName="high") == set()


def test_readiness_gates_runtime_class_and_preemption_policy() -> None:
    """ValidatePodSpec: validateReadinessGates (qualified names), ValidateRuntimeClassName (a DNS
    subdomain, "" included: the field is a pointer), ValidatePreemptionPolicy."""
    spec: dict[str, Any] = {"readinessGates": [{"conditionType": "example.com/ready"}, {"conditionType": "bad type!"}], "runtimeClassName": "", "preemptionPolicy": "Sometimes"}
    assert _errors(**spec) == {
        ("spec.template.spec.readinessGates[1].conditionType", "FieldValueInvalid"),
        ("spec.template.spec.runtimeClassName", "FieldValueInvalid"),
        ("spec.template.spec.preemptionPolicy", "FieldValueNotSupported"),
    }
    assert _errors(runtimeClassName="gvisor", preemptionPolicy="Never") == set()


@pytest.mark.parametrize("release", [32, 34])
def test_toleration_comparison_operators_unknown_before_1_35(release: int) -> None:
    errors = validate_tolerations([{"key": "k", "operator": "Lt", "value": "5"}], "t", release)
    assert [str(e) for e in errors] == ['t[0].operator: Unsupported value: "Lt": supported values: "Equal", "Exists"']


@pytest.mark.parametrize("release", [32, 37])
def test_exists_toleration_reports_its_value(release: int) -> None:
    """ValidateTolerations reports toleration.Value (a string, %q), not the toleration (upstream's
    message at 1.32 and 1.37)."""
    errors = validate_tolerations([{"key": "k", "operator": "Exists", "value": "<v>"}], "t", release)
    assert [str(e) for e in errors] == ['t[0].operator: Invalid value: "<v>": value must be empty when `operator` is \'Exists\'']


@pytest.mark.parametrize(
    ("release", "shown"),
    [(33, r'"<&>\u2028\x01"'), (34, '"\\u003c\\u0026\\u003e\\u2028\\u0001"')],
)
def test_a_named_enum_bad_value_is_marshalled_from_1_34(release: int, shown: str) -> None:
    """validatePullPolicy's core.PullPolicy: `%#v` (as %q) up to 1.33, json.Marshal from 1.34
    (upstream's messages for the same characters at 1.32 and 1.37)."""
    errors = validate_pull_policy("<&>\u2028\x01", "p", release)
    assert [str(e) for e in errors] == [f'p: Unsupported value: {shown}: supported values: "Always", "IfNotPresent", "Never"']


def test_toleration_comparison_operators_from_1_35() -> None:
    # ValidateTolerations (1.35+): Lt/Gt named but refused while TaintTolerationComparisonOperators is off ...
    errors = validate_tolerations([{"key": "k", "operator": "Gt", "value": "5"}], "t", 35)
    assert [str(e) for e in errors] == ['t[0].operator: Unsupported value: "Gt": supported values: "Equal", "Exists", "Lt", "Gt"']
    # ... and, when the old template uses them, a decimal integer in canonical form within int64.
    tolerations: list[Mapping[str, Any]] = [{"key": "k", "operator": "Lt", "value": v} for v in ("5", "-0", "", "+1", "99999999999999999999")]
    errors = validate_tolerations(tolerations, "t", 37, allow_comparison_operators=True)
    assert [(e.field, e.detail) for e in errors] == [
        ("t[1].value", "must be a valid decimal integer in canonical form"),
        ("t[2].value", "must be non-empty"),
        ("t[2].value", 'strconv.ParseInt: parsing "": invalid syntax'),
        ("t[3].value", "must be a valid decimal integer in canonical form"),
        ("t[4].value", 'strconv.ParseInt: parsing "99999999999999999999": value out of range'),
    ]


def test_toleration_value_parse_error_quotes_as_strconv() -> None:
    """strconv.NumError quotes the value with strconv.Quote: é as it is, DEL as \\x7f."""
    tolerations: list[Mapping[str, Any]] = [{"key": "k", "operator": "Lt", "value": v} for v in ("é", "\x7f")]
    errors = validate_tolerations(tolerations, "t", 37, allow_comparison_operators=True)
    assert [e.detail for e in errors if e.detail.startswith("strconv")] == [
        'strconv.ParseInt: parsing "é": invalid syntax',
        'strconv.ParseInt: parsing "\\x7f": invalid syntax',
    ]


def test_toleration_value_out_of_range_before_what_follows() -> None:
    """strconv.ParseInt (Go 1.26) stops at the digit that overflows: `99999999999999999999x` is out of
    range, not a syntax error; a 5000-digit value is out of range too (int() refuses to read it);
    `1_0` and Arabic-Indic digits are syntax errors (int() takes them)."""
    values = ("99999999999999999999x", "1" * 5000, "1_0", "\u0663")
    tolerations: list[Mapping[str, Any]] = [{"key": "k", "operator": "Lt", "value": v} for v in values]
    errors = validate_tolerations(tolerations, "t", 37, allow_comparison_operators=True)
    assert [e.detail for e in errors if e.detail.startswith("strconv")] == [
        'strconv.ParseInt: parsing "99999999999999999999x": value out of range',
        f'strconv.ParseInt: parsing "{"1" * 5000}": value out of range',
        'strconv.ParseInt: parsing "1_0": invalid syntax',
        'strconv.ParseInt: parsing "\u0663": invalid syntax',
    ]


def test_tolerations_annotation_in_a_template() -> None:
    template = pod_template()
    key = "scheduler.alpha.kubernetes.io/tolerations"
    template["metadata"]["annotations"] = {key: '[{"key": "bad key!", "operator": "Exists"}]'}
    assert pairs(validate_pod_template_spec(template, "t", pod_validation_options(37, None))) == {(f"t.annotations.{key}[0].key", "FieldValueInvalid")}
    template["metadata"]["annotations"] = {key: "tru"}
    errors = validate_pod_template_spec(template, "t", pod_validation_options(37, None))
    assert [str(e) for e in errors] == [f"t.annotations: Invalid value: \"{key}\": invalid character ' ' in literal true (expecting 'e')"]


def test_ephemeral_container_restart_rules_are_forbidden() -> None:
    """validateFieldAllowList: RestartPolicyRules (1.34+) is not in allowedEphemeralContainerFields,
    and an empty list is set (not the nil zero value); reported in the struct's field order."""
    ephemeral: list[Mapping[str, Any]] = [{"name": "d", "image": "b", "restartPolicy": "Always", "restartPolicyRules": [], "livenessProbe": {}}]
    errs = validate_ephemeral_containers(ephemeral, [{"name": "main"}], [], "e")
    forbidden = [e.field for e in errs if e.type == "FieldValueForbidden"]
    assert forbidden == ["e[0].restartPolicy", "e[0].restartPolicyRules", "e[0].livenessProbe"]


def test_readiness_gates_are_checked_before_scheduling_gates() -> None:
    """ValidatePodSpec: validateReadinessGates, then validateSchedulingGates (every release)."""
    template = pod_template()
    template["spec"]["readinessGates"] = [{"conditionType": "bad type!"}]
    template["spec"]["schedulingGates"] = [{"name": "bad gate!"}]
    fields = [e.field for e in validate_pod_template_spec(template, "t", DEFAULT_POD_OPTIONS)]
    gates = [f for f in fields if "Gates" in f]
    assert gates[0].startswith("t.spec.readinessGates") and gates[-1].startswith("t.spec.schedulingGates")


# TestValidateResizePolicy (pkg/apis/core/validation/validation_test.go, 1.37): the policies, the
# pod's restartPolicy, and the errors upstream expects (field, type, bad value, detail).
CPU_MEMORY_LIST = ["cpu", "memory"]
RESIZE_CASES: dict[str, tuple[list[dict[str, str]], str, list[tuple[str, str, str]]]] = {
    "ValidCPUandMemoryPolicies": ([{"resourceName": "cpu", "restartPolicy": "NotRequired"}, {"resourceName": "memory", "restartPolicy": "RestartContainer"}], "Always", []),
    "ValidCPUPolicy": ([{"resourceName": "cpu", "restartPolicy": "RestartContainer"}], "Always", []),
    "ValidMemoryPolicy": ([{"resourceName": "memory", "restartPolicy": "NotRequired"}], "Always", []),
    "NoPolicy": ([], "Always", []),
    "ValidCPUandInvalidMemoryPolicy": (
        [{"resourceName": "cpu", "restartPolicy": "NotRequired"}, {"resourceName": "memory", "restartPolicy": "Restarrrt"}], "Always",
        [("field", "FieldValueNotSupported", 'field: Unsupported value: "Restarrrt": supported values: "NotRequired", "RestartContainer"')],
    ),
    "ValidMemoryandInvalidCPUPolicy": (
        [{"resourceName": "cpu", "restartPolicy": "RestartNotRequirrred"}, {"resourceName": "memory", "restartPolicy": "RestartContainer"}], "Always",
        [("field", "FieldValueNotSupported", 'field: Unsupported value: "RestartNotRequirrred": supported values: "NotRequired", "RestartContainer"')],
    ),
    "InvalidResourceNameValidPolicy": (
        [{"resourceName": "cpuuu", "restartPolicy": "NotRequired"}], "Always",
        [("field", "FieldValueNotSupported", 'field: Unsupported value: "cpuuu": supported values: "cpu", "memory"')],
    ),
    "ValidResourceNameMissingPolicy": ([{"resourceName": "memory", "restartPolicy": ""}], "Always", [("field", "FieldValueRequired", "field: Required value")]),
    "RepeatedPolicies": (
        [{"resourceName": "cpu", "restartPolicy": "NotRequired"}, {"resourceName": "memory", "restartPolicy": "RestartContainer"}, {"resourceName": "cpu", "restartPolicy": "RestartContainer"}],
        "Always",
        [("field[2]", "FieldValueDuplicate", 'field[2]: Duplicate value: "cpu"')],
    ),
    "InvalidCPUPolicyWithPodRestartPolicy": (
        [{"resourceName": "cpu", "restartPolicy": "NotRequired"}, {"resourceName": "memory", "restartPolicy": "RestartContainer"}], "Never",
        [("field", "FieldValueInvalid", "field: Invalid value: \"RestartContainer\": must be 'NotRequired' when pod `restartPolicy` is 'Never'")],
    ),
    "InvalidMemoryCPUPolicyWithPodRestartPolicy": (
        [{"resourceName": "cpu", "restartPolicy": "RestartContainer"}, {"resourceName": "memory", "restartPolicy": "RestartContainer"}], "Never",
        [("field", "FieldValueInvalid", "field: Invalid value: \"RestartContainer\": must be 'NotRequired' when pod `restartPolicy` is 'Never'")] * 2,
    ),
    "ValidMemoryCPUPolicyWithPodRestartPolicy": (
        [{"resourceName": "cpu", "restartPolicy": "NotRequired"}, {"resourceName": "memory", "restartPolicy": "NotRequired"}], "Never", [],
    ),
}


@pytest.mark.parametrize("name", sorted(RESIZE_CASES))
def test_resize_policy_as_upstream_tests_it(name: str) -> None:
    policies, pod_restart_policy, expected = RESIZE_CASES[name]
    errors = validate_resize_policy(policies, "field", pod_restart_policy, 37)
    assert [(e.field, e.type, str(e)) for e in errors] == expected


def test_resize_policy_never_message_before_1_36() -> None:
    """Up to 1.35 the message says "`restartPolicy`" (validation.go validateResizePolicy)."""
    (error,) = validate_resize_policy([{"resourceName": "cpu", "restartPolicy": "RestartContainer"}], "f", "Never", 35)
    assert str(error) == "f: Invalid value: \"RestartContainer\": must be 'NotRequired' when `restartPolicy` is 'Never'"


def test_host_ports_conflict_across_containers_and_within_each_init_container() -> None:
    """TestValidateContainers / TestValidateInitContainers (validation_test.go, 1.37): a host port
    repeated in the same protocol and host IP is a duplicate; init containers are checked one by
    one, as a one-element list (hence `initContainers[0]`)."""
    containers = [
        {"name": "abc", "image": "image", "ports": [{"containerPort": 80, "hostPort": 80, "protocol": "TCP"}]},
        {"name": "def", "image": "image", "ports": [{"containerPort": 81, "hostPort": 80, "protocol": "TCP"}]},
    ]
    assert [(e.field, e.type) for e in check_host_port_conflicts(containers, "containers")] == [("containers[1].ports[0].hostPort", "FieldValueDuplicate")]
    other_protocol = [{"name": "abc", "ports": [{"containerPort": 80, "hostPort": 80, "protocol": "TCP"}, {"containerPort": 80, "hostPort": 80, "protocol": "UDP"}]}]
    assert check_host_port_conflicts(other_protocol, "containers") == []
    init = {"name": "init2", "image": "image", "ports": [{"containerPort": 8080, "hostPort": 8080, "protocol": "TCP"}] * 2}
    errors = validate_init_containers([{"name": "init1", "image": "image"}, init], [{"name": "main"}], "initContainers")
    assert [(e.field, str(e)) for e in errors if e.type == "FieldValueDuplicate"] == [
        ("initContainers[0].ports[1].hostPort", 'initContainers[0].ports[1].hostPort: Duplicate value: "TCP//8080"')
    ]


@pytest.mark.parametrize(("release", "old_sidecar_resized", "refused"), [(32, False, True), (32, True, False), (33, False, False)])
def test_init_container_resize_policy_needs_in_place_scaling(release: int, old_sidecar_resized: bool, refused: bool) -> None:
    """validateInitContainers: a resizePolicy on an init container is refused unless
    AllowSidecarResizePolicy (InPlacePodVerticalScaling, on from 1.33; or the old template's
    sidecar has one), its value printed with %#v at 1.32."""
    policy = [{"resourceName": "cpu", "restartPolicy": "NotRequired"}]
    old = {"initContainers": [{"name": "s", "restartPolicy": "Always", "resizePolicy": policy}]} if old_sidecar_resized else None
    errors = validate_init_containers([{"name": "s", "image": "i", "restartPolicy": "Always", "resizePolicy": policy}], [], "ic", opts=pod_validation_options(release, old))
    expected = (
        'ic[0].resizePolicy: Invalid value: []core.ContainerResizePolicy{core.ContainerResizePolicy{ResourceName:"cpu", '
        'RestartPolicy:"NotRequired"}}: must not be set for init containers'
    )
    assert [str(e) for e in errors if ".resizePolicy" in e.field] == ([expected] if refused else [])


@pytest.mark.parametrize(("release", "sidecar", "old_has_one", "refused"), [(35, False, False, False), (36, False, False, True), (36, True, False, False), (37, False, True, False)])
def test_restart_container_resize_of_a_non_sidecar_init_container(release: int, sidecar: bool, old_has_one: bool, refused: bool) -> None:
    """From 1.36 a non-sidecar init container may not be resized with RestartContainer, unless
    the old template already has one (hasRestartContainerForNonSidecarInitContainer)."""
    policy = [{"resourceName": "cpu", "restartPolicy": "RestartContainer"}]
    ctr: dict[str, Any] = {"name": "i", "image": "i", "resizePolicy": policy, **({"restartPolicy": "Always"} if sidecar else {})}
    old = {"initContainers": [{"name": "i", "resizePolicy": policy}]} if old_has_one else None
    errors = validate_init_containers([ctr], [], "spec.initContainers", opts=pod_validation_options(release, old))
    expected = "spec.initContainers[0].resizePolicy[0].restartPolicy: Invalid value: \"RestartContainer\": must not be set to 'RestartContainer' for non-sidecar initContainers"
    assert [str(e) for e in errors if ".resizePolicy" in e.field] == ([expected] if refused else [])
