"""dropDisabledFields of the gates off by default in a release that has their fields, and the
restart-all-containers option of 1.35: expectations from `pkg/api/pod/util.go` and
`pkg/features/kube_features.go` of v1.32.3 ... v1.37.2."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from jobmodel.api import strategy
from jobmodel.api.pod_drop import drop_disabled_pod_fields, restart_all_containers_action_in_use
from jobmodel.api.pod_validation import pod_validation_options
from jobmodel.features import gates_for
from tests.api.helpers import UID, job


def ctr(**fields: Any) -> dict[str, Any]:
    return {"name": "main", "image": "busybox", **fields}


# (name, template spec using the field, the releases that drop it when the old template does not use it)
GATED = [
    ("resizePolicy", {"containers": [ctr(resizePolicy=[{"resourceName": "cpu", "restartPolicy": "NotRequired"}])]}, {32}),
    ("stopSignal", {"containers": [ctr(lifecycle={"stopSignal": "SIGTERM"})]}, {33, 34, 35, 36, 37}),
    ("hostnameOverride", {"hostnameOverride": "h"}, {34}),
    ("workloadRef", {"workloadRef": {"name": "w", "podGroup": "g"}}, {35}),
    ("schedulingGroup", {"schedulingGroup": {"podGroupName": "g"}}, {36, 37}),
    ("evictionResponders", {"evictionResponders": [{"name": "example.com/r", "priority": 1000}]}, {37}),
    ("protocol", {"containers": [ctr(livenessProbe={"httpGet": {"port": 80, "protocol": "HTTP1"}})]}, {37}),
    ("mode", {"containers": [ctr(startupProbe={"grpc": {"port": 80, "mode": "TLS"}})]}, {37}),
    ("bindMountOptions", {"containers": [ctr(volumeMounts=[{"name": "v", "mountPath": "/v", "bindMountOptions": ["nosuid"]}])]}, {37}),
]  # fmt: skip


@pytest.mark.parametrize(("name", "spec", "dropped_at"), GATED)
@pytest.mark.parametrize("release", range(32, 38))
def test_a_field_of_a_gate_off_is_dropped_unless_the_old_template_uses_it(
    name: str, spec: dict[str, Any], dropped_at: set[int], release: int
) -> None:
    new = copy.deepcopy(spec)
    drop_disabled_pod_fields(new, None, release)
    assert (name in str(new)) is (release not in dropped_at)
    kept = copy.deepcopy(spec)
    drop_disabled_pod_fields(kept, spec, release)
    assert kept == spec


def test_a_lifecycle_left_empty_is_dropped_with_the_stop_signal() -> None:
    spec = {"containers": [ctr(lifecycle={"stopSignal": "SIGTERM"}), ctr(lifecycle={"stopSignal": "SIGTERM", "preStop": {"sleep": {"seconds": 1}}})]}
    drop_disabled_pod_fields(spec, None, 33)
    assert "lifecycle" not in spec["containers"][0]
    assert spec["containers"][1]["lifecycle"] == {"preStop": {"sleep": {"seconds": 1}}}


def test_only_a_regular_containers_resize_policy_keeps_them_at_1_32() -> None:
    """inPlacePodVerticalScalingInUse visits the regular containers only."""
    old = {"initContainers": [ctr(resizePolicy=[{"resourceName": "cpu", "restartPolicy": "NotRequired"}])]}
    spec = copy.deepcopy(old)
    drop_disabled_pod_fields(spec, old, 32)
    assert "resizePolicy" not in spec["initContainers"][0]


def test_the_job_strategy_drops_them_on_create() -> None:
    manifest = job()
    manifest["spec"]["template"]["spec"]["hostnameOverride"] = "h"
    stored = strategy.job_prepare_for_create(manifest, gates_for("1.34"))
    assert "hostnameOverride" not in stored["spec"]["template"]["spec"]
    stored = strategy.job_prepare_for_create(manifest, gates_for("1.35"))
    assert stored["spec"]["template"]["spec"]["hostnameOverride"] == "h"
    assert strategy.create_job(manifest, UID, gates_for("1.34"))[0]["spec"]["template"]["spec"].get("hostnameOverride") is None


RESTART_ALL = {"action": "RestartAllContainers", "exitCodes": {"operator": "In", "values": [1]}}


@pytest.mark.parametrize(
    ("old", "in_use"),
    [
        (None, False),
        ({"containers": [ctr(restartPolicyRules=[RESTART_ALL])]}, True),
        ({"containers": [ctr(restartPolicyRules=[{**RESTART_ALL, "action": "Restart"}])]}, False),
        ({"initContainers": [ctr(restartPolicyRules=[RESTART_ALL])]}, True),
        ({"initContainers": [ctr(restartPolicy="Always", restartPolicyRules=[{**RESTART_ALL, "action": "Restart"}])]}, True),
        ({"initContainers": [ctr(restartPolicy="Always")]}, False),
    ],
)
def test_restart_all_containers_action_in_use(old: dict[str, Any] | None, in_use: bool) -> None:
    assert restart_all_containers_action_in_use(old) is in_use


def test_an_old_template_using_restart_all_containers_keeps_it_allowed_at_1_35() -> None:
    old = {"containers": [ctr(restartPolicyRules=[RESTART_ALL])]}
    assert pod_validation_options(35, None).allow_restart_all_containers is False
    assert pod_validation_options(35, old).allow_restart_all_containers is True
    assert pod_validation_options(34, old).allow_restart_all_containers is False  # no such action yet
    assert pod_validation_options(36, None).allow_restart_all_containers is True
