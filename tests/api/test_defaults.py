"""Decoding defaults of Jobs, CronJobs and pod templates (SetDefaults_Job, SetDefaults_CronJob, SetDefaults_PodSpec)."""

from __future__ import annotations

from typing import Any

import pytest

from jobmodel.api.defaults import (
    image_tag,
    set_defaults_cron_job,
    set_defaults_job,
    set_defaults_pod_spec,
)
from jobmodel.features import FeatureGates, gates_for


def test_job_defaults_when_everything_is_unset() -> None:
    spec = set_defaults_job({"spec": {"template": {"metadata": {"labels": {"a": "b"}}}}})["spec"]
    assert (spec["completions"], spec["parallelism"], spec["backoffLimit"]) == (1, 1, 6)
    assert (spec["completionMode"], spec["suspend"], spec["manualSelector"]) == (
        "NonIndexed",
        False,
        False,
    )
    assert spec["podReplacementPolicy"] == "TerminatingOrFailed"


def test_job_labels_come_from_the_template_when_unset() -> None:
    obj = set_defaults_job({"spec": {"template": {"metadata": {"labels": {"a": "b"}}}}})
    assert obj["metadata"]["labels"] == {"a": "b"}
    kept = set_defaults_job(
        {
            "metadata": {"labels": {"x": "y"}},
            "spec": {"template": {"metadata": {"labels": {"a": "b"}}}},
        }
    )
    assert kept["metadata"]["labels"] == {"x": "y"}


def test_work_queue_keeps_completions_unset() -> None:
    spec = set_defaults_job({"spec": {"parallelism": 2}})["spec"]
    assert "completions" not in spec
    assert spec["parallelism"] == 2


def test_backoff_limit_with_per_index_limit_is_max_int32() -> None:
    assert (
        set_defaults_job({"spec": {"backoffLimitPerIndex": 1}})["spec"]["backoffLimit"] == 2**31 - 1
    )


def test_pod_replacement_policy_follows_pod_failure_policy_and_gate() -> None:
    policy = {"rules": [{"action": "FailJob", "onPodConditions": [{"type": "DisruptionTarget"}]}]}
    spec = set_defaults_job({"spec": {"podFailurePolicy": policy}})["spec"]
    assert spec["podReplacementPolicy"] == "Failed"
    assert spec["podFailurePolicy"]["rules"][0]["onPodConditions"][0]["status"] == "True"
    gated = FeatureGates.for_release(32).with_overrides({"JobPodReplacementPolicy": False})
    assert "podReplacementPolicy" not in set_defaults_job({"spec": {}}, gated)["spec"]


def test_input_is_not_modified() -> None:
    original = {"spec": {"template": {"spec": {"containers": [{"name": "a", "image": "x"}]}}}}
    set_defaults_job(original)
    assert original == {
        "spec": {"template": {"spec": {"containers": [{"name": "a", "image": "x"}]}}}
    }


def test_cron_job_defaults() -> None:
    spec = set_defaults_cron_job({"spec": {}})["spec"]
    pod_spec = spec.pop("jobTemplate")["spec"]["template"]["spec"]
    # Go defaults the zero PodSpec of an absent template too.
    assert (pod_spec["restartPolicy"], pod_spec["dnsPolicy"]) == ("Always", "ClusterFirst")
    assert spec == {
        "concurrencyPolicy": "Allow",
        "suspend": False,
        "successfulJobsHistoryLimit": 3,
        "failedJobsHistoryLimit": 1,
    }
    given = {
        "concurrencyPolicy": "Forbid",
        "suspend": True,
        "successfulJobsHistoryLimit": 5,
        "failedJobsHistoryLimit": 5,
    }
    got = set_defaults_cron_job({"spec": given})["spec"]
    got.pop("jobTemplate")
    assert got == given


def test_job_without_pod_spec_gets_pod_spec_defaults() -> None:
    pod_spec = set_defaults_job({"spec": {"template": {}}})["spec"]["template"]["spec"]
    assert pod_spec["restartPolicy"] == "Always"
    assert pod_spec["terminationGracePeriodSeconds"] == 30
    assert pod_spec["schedulerName"] == "default-scheduler"


def test_job_labels_share_the_template_labels() -> None:
    """Upstream assigns the template's label map to the Job: a later addition shows on both."""
    obj = set_defaults_job({"spec": {"template": {"metadata": {"labels": {"a": "b"}}}}})
    obj["spec"]["template"]["metadata"]["labels"]["job-name"] = "j"
    assert obj["metadata"]["labels"] == {"a": "b", "job-name": "j"}
    empty = set_defaults_job({"spec": {"template": {"metadata": {"labels": {}}}}})
    empty["spec"]["template"]["metadata"]["labels"]["x"] = "y"
    assert empty["metadata"]["labels"] == {"x": "y"}


def test_pod_spec_defaults() -> None:
    spec = set_defaults_pod_spec(
        {
            "containers": [{"name": "a", "image": "busybox", "ports": [{"containerPort": 80}]}],
            "volumes": [{"name": "v"}],
        }
    )
    assert (spec["restartPolicy"], spec["dnsPolicy"], spec["terminationGracePeriodSeconds"]) == (
        "Always",
        "ClusterFirst",
        30,
    )
    container = spec["containers"][0]
    assert (container["imagePullPolicy"], container["terminationMessagePolicy"]) == (
        "Always",
        "File",
    )
    assert container["terminationMessagePath"] == "/dev/termination-log"
    assert container["ports"][0]["protocol"] == "TCP"
    assert spec["volumes"][0] == {"name": "v", "emptyDir": {}}


@pytest.mark.parametrize(
    ("image", "tag"),
    [
        ("busybox", "latest"),
        ("busybox:1.36", "1.36"),
        ("registry:5000/busybox", "latest"),
        ("a/b@sha256:abc", ""),
        ("x:latest", "latest"),
    ],
)
def test_image_tag(image: str, tag: str) -> None:
    assert image_tag(image) == tag


@pytest.mark.parametrize(
    ("given", "account"),
    [({"serviceAccount": "old"}, "old"), ({"serviceAccountName": "new"}, "new"), ({"serviceAccountName": "new", "serviceAccount": "old"}, "new"), ({"serviceAccount": ""}, None)],
)
def test_service_account_alias_is_synced(given: dict[str, str], account: str | None) -> None:
    """v1.37 SetDefaults_PodSpec (before: Convert_v1_PodSpec_To_core_PodSpec and back): the
    deprecated `serviceAccount` fills an empty `serviceAccountName`, then takes its value."""
    spec = set_defaults_pod_spec(given)
    assert (spec.get("serviceAccountName"), spec.get("serviceAccount")) == (account, account)


def test_topology_spread_constraint_fields_without_omitempty_are_written() -> None:
    # TopologySpreadConstraint's maxSkew, topologyKey and whenUnsatisfiable have no omitempty.
    spec = set_defaults_pod_spec({"topologySpreadConstraints": [{"minDomains": 1}]})
    assert spec["topologySpreadConstraints"] == [{"minDomains": 1, "maxSkew": 0, "topologyKey": "", "whenUnsatisfiable": ""}]


def test_pod_os_name_without_omitempty_is_written() -> None:
    assert set_defaults_pod_spec({"os": {}})["os"] == {"name": ""}
    assert set_defaults_pod_spec({"os": {"name": "linux"}})["os"] == {"name": "linux"}
    assert "os" not in set_defaults_pod_spec({})


def test_a_resource_field_refs_zero_divisor_is_written() -> None:
    # ResourceFieldSelector.Divisor is a resource.Quantity struct: omitempty leaves no struct out,
    # so the stored object has "0" (env valueFrom and downwardAPI volume items alike).
    ref = {"resource": "limits.cpu"}
    spec = set_defaults_pod_spec(
        {
            "containers": [{"name": "c", "env": [{"name": "CPU", "valueFrom": {"resourceFieldRef": ref}}]}],
            "volumes": [{"name": "v", "downwardAPI": {"items": [{"path": "cpu", "resourceFieldRef": ref}]}}],
        }
    )
    assert spec["containers"][0]["env"][0]["valueFrom"]["resourceFieldRef"] == {"resource": "limits.cpu", "divisor": "0"}
    assert spec["volumes"][0]["downwardAPI"]["items"][0]["resourceFieldRef"] == {"resource": "limits.cpu", "divisor": "0"}
    kept = set_defaults_pod_spec({"containers": [{"name": "c", "env": [{"name": "M", "valueFrom": {"resourceFieldRef": {"resource": "limits.memory", "divisor": "1Mi"}}}]}]})
    assert kept["containers"][0]["env"][0]["valueFrom"]["resourceFieldRef"]["divisor"] == "1Mi"


def test_a_cron_jobs_pod_condition_patterns_are_defaulted_from_1_34() -> None:
    """SetObjectDefaults_CronJob calls SetDefaults_PodFailurePolicyOnPodConditionsPattern from
    v1.34 (pkg/apis/batch/v1/zz_generated.defaults.go; v1.33's has no such call)."""
    policy = {"rules": [{"action": "FailJob", "onPodConditions": [{"type": "DisruptionTarget"}]}]}
    cron = {"spec": {"jobTemplate": {"spec": {"podFailurePolicy": policy}}}}

    def status(release: str) -> Any:
        spec = set_defaults_cron_job(cron, gates_for(release))["spec"]["jobTemplate"]["spec"]
        return spec["podFailurePolicy"]["rules"][0]["onPodConditions"][0].get("status")

    assert status("1.33") is None
    assert status("1.34") == "True"
