"""The API server's warnings (jobmodel/api/warnings.py): upstream's own pod-template cases
(pod_warnings_upstream.json, from pkg/api/pod/warnings_test.go), and the strategies' rules."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from jobmodel.api.warnings import (
    cron_job_warnings_on_create,
    cron_job_warnings_on_update,
    handler_warnings,
    job_warnings_on_create,
    job_warnings_on_update,
    recorded_warnings,
    warnings_for_pod_template,
)

UPSTREAM = json.loads((Path(__file__).parent / "pod_warnings_upstream.json").read_text())["cases"]
TZ_WARNING = (
    "cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see "
    "https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details"
)
SOFT_LIMITS = (
    "In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, "
    "Kubernetes might not be able to track completedIndexes when a big number of indexes fail"
)


def _git_repo_driver(case: dict[str, Any]) -> bool | None:
    """The gate upstream's test sets (TestWarnings runs at emulation version 1.33 with the
    GitRepoVolumeDriver gate on unless the case disables the plugin)."""
    if case.get("gitRepoPluginDisabled"):
        return False
    gate: bool | None = case.get("knobs", {}).get("featureGates", {}).get("GitRepoVolumeDriver")
    return gate


@pytest.mark.parametrize("case", UPSTREAM, ids=[f"{c['release']}-{c['test']}-{c['index']}-{c['name']}" for c in UPSTREAM])
def test_upstream_pod_template_cases(case: dict[str, Any]) -> None:
    """Each case's warnings as upstream's test expects them (as a multiset, as upstream compares
    them), and in the order upstream emits them where that order is fixed."""
    got = warnings_for_pod_template(case.get("fieldPath", ""), case["template"], case["release"], _git_repo_driver(case))
    assert Counter(got) == Counter(case["expected"])
    if not case.get("unordered"):
        assert got == case.get("emittedOrder", case["expected"])


def test_the_upstream_cases_cover_both_releases_and_every_warning_kind() -> None:
    """Not vacuous: the file holds upstream's tables, not a handful of cases."""
    assert len(UPSTREAM) >= 80
    assert {c["release"] for c in UPSTREAM} == {32, 37}
    texts = " ".join(w for c in UPSTREAM for w in c["expected"])
    for kind in ("deprecated since", "overlapping paths", "fractional byte value", "hides previous definition", "duplicate port", "null labelSelector"):
        assert kind in texts, kind


def _job(name: str = "pi", **spec: Any) -> dict[str, Any]:
    template = {"spec": {"restartPolicy": "Never", "containers": [{"name": "main", "image": "busybox"}]}}
    return {"metadata": {"name": name, "generation": 1}, "spec": {"template": template, **spec}}


def _cron(schedule: str = "0 * * * *", name: str = "pi") -> dict[str, Any]:
    job = _job(name)
    return {"metadata": job["metadata"], "spec": {"schedule": schedule, "jobTemplate": {"spec": job["spec"]}}}


@pytest.mark.parametrize(
    ("completions", "parallelism", "warned"),
    [(100_001, 10_001, True), (100_000, 10_001, False), (100_001, 10_000, False), (None, 20_000, False)],
)
def test_indexed_soft_limits_are_warned_of_above_both(completions: int | None, parallelism: int, warned: bool) -> None:
    """WarningsForJobSpec: only above both limits (strictly), only in Indexed mode."""
    job = _job(completionMode="Indexed", completions=completions, parallelism=parallelism)
    assert job_warnings_on_create(job, 37) == ([f"spec: {SOFT_LIMITS}"] if warned else [])
    non_indexed = _job(completionMode="NonIndexed", completions=completions, parallelism=parallelism)
    assert job_warnings_on_create(non_indexed, 37) == []


@pytest.mark.parametrize(("name", "warned"), [("pi", False), ("pi.example", True), ("a" * 63, False), ("a" * 64, True)])
def test_a_name_that_is_no_dns_label_is_warned_of(name: str, warned: bool) -> None:
    """Job and CronJob names become pods' names and hostnames (TestJobStrategy_WarningsOnCreate)."""
    for got in (job_warnings_on_create(_job(name), 37), cron_job_warnings_on_create(_cron(name=name), 37)):
        assert len(got) == int(warned)
        assert all(w.startswith("metadata.name: this is used in Pod names and hostnames") for w in got)


def test_an_update_warns_of_the_template_only_in_a_new_generation() -> None:
    """WarningsOnUpdate: the spec's warnings when the generation changed, never the name's."""
    old = _job("pi.example")
    old["spec"]["template"]["spec"]["terminationGracePeriodSeconds"] = -1
    same = json.loads(json.dumps(old))
    assert job_warnings_on_update(same, old, 37) == []
    newer = json.loads(json.dumps(old))
    newer["metadata"]["generation"] = 2
    assert job_warnings_on_update(newer, old, 37) == [
        "spec.template.spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1"
    ]


def test_a_cron_job_update_warns_of_a_time_zone_in_the_schedule_in_any_generation() -> None:
    """cronJobStrategy.WarningsOnUpdate (upstream names the field spec.spec.schedule), on update
    only: a create with one is refused by validation."""
    old = _cron("CRON_TZ=UTC 0 * * * *")
    assert cron_job_warnings_on_update(old, old, 37) == [TZ_WARNING]
    assert cron_job_warnings_on_update(_cron(), old, 37) == []
    assert cron_job_warnings_on_create(old, 37) == []
    newer = _cron("TZ=UTC 0 * * * *")
    newer["metadata"]["generation"] = 2
    newer["spec"]["jobTemplate"]["spec"]["template"]["metadata"] = {"annotations": {"scheduler.alpha.kubernetes.io/critical-pod": ""}}
    assert cron_job_warnings_on_update(newer, old, 37) == [
        'spec.jobTemplate.spec.template.metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead',
        TZ_WARNING,
    ]


def test_projected_sources_up_to_1_33_reuse_the_paths_of_the_source_before() -> None:
    """Up to 1.33 a projected source the switch names no paths for (a ConfigMap without items)
    checks the paths of the source before it again, which meet themselves; from 1.34 it has none."""
    template = {"spec": {"volumes": [{"name": "p", "projected": {"sources": [
        {"configMap": {"name": "m", "items": [{"key": "a", "path": "x"}]}}, {"configMap": {"name": "n"}}]}}]}}  # fmt: skip
    self_overlap = 'volume "p" (Projected): overlapping paths: "x" (ConfigMap "m") with "x" (ConfigMap "m")'
    assert warnings_for_pod_template("spec.template", template, 33) == [self_overlap]
    assert warnings_for_pod_template("spec.template", template, 34) == []


def test_release_dependent_warnings() -> None:
    """What 1.33 added (duplicate port names, label values in preferred node terms, IP forms)
    and what 1.34 changed (an AppArmor annotation the pod's profile matches)."""
    spec = {
        "containers": [{"name": "a", "image": "i", "ports": [{"name": "http", "containerPort": 80}]},
                       {"name": "b", "image": "i", "ports": [{"name": "http", "containerPort": 81}]}],
        "hostAliases": [{"ip": "2001:DB8::1"}],
        "securityContext": {"appArmorProfile": {"type": "RuntimeDefault"}},
        "affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 1, "preference": {"matchExpressions": [{"key": "k", "operator": "In", "values": ["a b"]}]}}]}},
    }  # fmt: skip
    annotations = {"container.apparmor.security.beta.kubernetes.io/a": "runtime/default"}
    template = {"metadata": {"annotations": annotations}, "spec": spec}
    at_32 = warnings_for_pod_template("t", template, 32)
    at_33 = warnings_for_pod_template("t", template, 33)
    at_34 = warnings_for_pod_template("t", template, 34)
    assert at_32 == []  # the pod's profile counts as the container's field
    added = [w for w in at_33 if w not in at_32]
    assert [w.split(":")[0] for w in added] == [
        "t.spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].values[0]",
        "t.spec.containers[1].ports[0]",
        "t.spec.hostAliases[0].ip",
    ]
    assert at_34 == at_33  # the annotation agrees with the pod's profile
    annotations["container.apparmor.security.beta.kubernetes.io/a"] = "unconfined"
    assert warnings_for_pod_template("t", template, 33) == at_33
    apparmor = 't.metadata.annotations[container.apparmor.security.beta.kubernetes.io/a]: deprecated since v1.30; use the "appArmorProfile" field instead'
    assert Counter(warnings_for_pod_template("t", template, 34)) == Counter([*at_33, apparmor])


@pytest.mark.parametrize(
    ("texts", "expected"),
    [  # apiserver's Test_recorder_AddWarning (the agent is always "-" here)
        ([], []),
        ([""], []),
        (["mytext"], ["mytext"]),
        (["mytext", "mytext"], ["mytext"]),
        (["mytext1", "mytext2", "mytext3"], ["mytext1", "mytext2", "mytext3"]),
        (["my\ntext"], []),
        (["a\x85b", "ok"], ["ok"]),  # a C1 control character is one too
    ],
)
def test_the_recorder_sends_each_warning_once_and_none_with_a_control_character(texts: list[str], expected: list[str]) -> None:
    assert recorded_warnings(texts) == expected


def test_the_recorder_truncates_past_its_total() -> None:
    """apiserver's TestTruncation, with its limits (25 characters in all, 5 a warning)."""
    first = ["aaaaaaaaaa", "aaaaaaaaaa", "bb", "ccc", "Iñtërnâtiô"]
    assert recorded_warnings(first, total=25, item=5) == ["aaaaaaaaaa", "bb", "ccc", "Iñtërnâtiô"]
    more = [*first, "e", "ffffffffff", "ffffffffff", "gggggggggg", "h"]
    assert recorded_warnings(more, total=25, item=5) == ["aaaaa", "bb", "ccc", "Iñtër", "e", "fffff", "ggggg"]


def test_the_create_handler_warns_of_owner_references_it_dropped() -> None:
    """dedupOwnerReferencesAndAddWarning: the dropped references' uids, joined by ", "."""
    ref = {"apiVersion": "v1", "kind": "ConfigMap", "name": "o", "uid": "u-1"}
    assert handler_warnings({"metadata": {"ownerReferences": [ref]}}) == []
    assert handler_warnings({"metadata": {"ownerReferences": [ref, {**ref, "uid": "u-2"}, ref, {**ref, "uid": "u-2"}]}}) == [
        ".metadata.ownerReferences contains duplicate entries; API server dedups owner references in 1.20+, and may reject "
        "such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: u-1, u-2"
    ]
