"""The modelled part of pod-template validation."""

from __future__ import annotations

from jobmodel.api.pod_validation import validate_pod_template_spec
from tests.api.helpers import pairs, pod_template


def _errors(**spec: object) -> set[tuple[str, str]]:
    template = pod_template()
    template["spec"].update(spec)
    return pairs(validate_pod_template_spec(template, "spec.template"))


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
    assert _errors(initContainers=[{**init, "restartPolicy": "Never"}]) == {
        ("spec.template.spec.initContainers[0].restartPolicy", "FieldValueNotSupported")
    }


def test_tolerations_and_gates() -> None:
    assert _errors(tolerations=[{"operator": "Equal", "value": "x"}]) == {
        ("spec.template.spec.tolerations[0].operator", "FieldValueInvalid")
    }
    assert _errors(schedulingGates=[{"name": "g"}, {"name": "g"}]) == {
        ("spec.template.spec.schedulingGates[1]", "FieldValueDuplicate")
    }


def test_required_node_affinity_needs_terms() -> None:
    affinity = {
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
