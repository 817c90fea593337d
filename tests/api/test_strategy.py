"""Registry strategies and the create/update entry points, and the broken manifests under
tests/api/manifests (each states its expected errors in `# expect: FIELD TYPE` lines)."""

from __future__ import annotations

import copy
import itertools
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import example, given
from hypothesis import strategies as st

from jobmodel.api import schema, strategy
from jobmodel.api.field import FieldError
from jobmodel.errors import InputError
from jobmodel.features import FeatureGates
from tests.api.helpers import UID, cron_job, job, pairs

MANIFESTS = Path(__file__).parent / "manifests"
EXPECT = re.compile(r"^# expect: (\S+) (FieldValue\w+)\s*$", re.MULTILINE)


def test_generate_selector_adds_all_four_labels_and_keeps_user_labels() -> None:
    obj: dict[str, Any] = {
        "metadata": {"name": "myjob", "uid": UID},
        "spec": {"template": {"metadata": {"labels": {"job-name": "mine"}}}},
    }
    strategy.generate_selector(obj)
    labels = obj["spec"]["template"]["metadata"]["labels"]
    assert labels == {
        "job-name": "mine",
        "batch.kubernetes.io/job-name": "myjob",
        "controller-uid": UID,
        "batch.kubernetes.io/controller-uid": UID,
    }
    assert obj["spec"]["selector"] == {"matchLabels": {"batch.kubernetes.io/controller-uid": UID}}


def test_manual_selector_is_left_alone() -> None:
    obj = job(manualSelector=True, selector={"matchLabels": {"a": "b"}})
    prepared = strategy.job_prepare_for_create(obj)
    assert prepared["spec"]["selector"] == {"matchLabels": {"a": "b"}}


def test_prepare_for_create_clears_status_sets_generation_and_drops_gated_fields() -> None:
    obj = job(managedBy="example.com/x", backoffLimitPerIndex=1)
    obj["status"] = {"active": 3}
    obj["metadata"]["generation"] = 9
    gates = FeatureGates.for_release(32).with_overrides({"JobManagedBy": False, "JobBackoffLimitPerIndex": False})
    prepared = strategy.job_prepare_for_create(obj, gates)
    assert "status" not in prepared
    assert prepared["metadata"]["generation"] == 1
    assert "managedBy" not in prepared["spec"] and "backoffLimitPerIndex" not in prepared["spec"]


def _with_init_restart_policy(obj: dict[str, Any], policy: str) -> dict[str, Any]:
    init = {"name": "init", "image": "i", "restartPolicy": policy, "restartPolicyRules": [{"action": "Restart"}]}
    obj["spec"]["template"]["spec"]["initContainers"] = [init]
    return obj


@pytest.mark.parametrize(("release", "kept"), [(33, True), (34, False), (35, True), (37, True)])
def test_container_restart_rules_are_dropped_on_create_in_1_34_only(release: int, kept: bool) -> None:
    """dropContainerRestartRules (pkg/api/pod/util.go): ContainerRestartRules is off in 1.34 only
    (alpha; beta on from 1.35); before 1.34 there is nothing to drop, validation refuses it."""
    prepared = strategy.job_prepare_for_create(_with_init_restart_policy(job(), "Never"), FeatureGates.for_release(release))
    init = prepared["spec"]["template"]["spec"]["initContainers"][0]
    assert ("restartPolicy" in init) is kept
    assert ("restartPolicyRules" in init) is kept


def test_container_restart_rules_drop_keeps_always_and_what_the_old_object_uses() -> None:
    gates = FeatureGates.for_release(34)
    created = strategy.job_prepare_for_create(_with_init_restart_policy(job(), "Always"), gates)
    assert created["spec"]["template"]["spec"]["initContainers"][0]["restartPolicy"] == "Always"
    old = _with_init_restart_policy(job(), "Never")
    updated = strategy.job_prepare_for_update(_with_init_restart_policy(job(), "OnFailure"), old, gates)
    assert updated["spec"]["template"]["spec"]["initContainers"][0]["restartPolicy"] == "OnFailure"
    cron = cron_job()
    cron["spec"]["jobTemplate"]["spec"] = _with_init_restart_policy(job(), "Never")["spec"]
    prepared = strategy.cron_job_prepare_for_create(cron, gates)
    assert "restartPolicy" not in prepared["spec"]["jobTemplate"]["spec"]["template"]["spec"]["initContainers"][0]


def test_prepare_for_update_keeps_status_and_bumps_generation_on_spec_change() -> None:
    old = job(parallelism=1)
    old["metadata"]["generation"] = 3
    old["status"] = {"active": 1}
    new = job(parallelism=2)
    new["status"] = {"active": 7}
    prepared = strategy.job_prepare_for_update(new, old)
    assert prepared["status"] == {"active": 1}
    assert prepared["metadata"]["generation"] == 4
    assert strategy.job_prepare_for_update(old, old)["metadata"]["generation"] == 3


def test_validation_options_for_update() -> None:
    old = job(suspend=True)
    assert strategy.validation_options_for_job(job(), old).allow_mutable_scheduling_directives
    old["status"] = {"startTime": "2024-01-01T00:00:00Z"}
    assert not strategy.validation_options_for_job(job(), old).allow_mutable_scheduling_directives
    del old["spec"]["template"]["metadata"]["labels"]["batch.kubernetes.io/job-name"]
    assert not strategy.validation_options_for_job(job(), old).require_prefixed_labels


def test_create_job_defaults_generates_and_validates() -> None:
    raw = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "pi", "namespace": "default"},
        "spec": {
            "template": {
                "spec": {"containers": [{"name": "pi", "image": "perl"}], "restartPolicy": "Never"}
            }
        },
    }
    stored, errors = strategy.create_job(raw, "u-1")
    assert errors == []
    assert stored["metadata"]["uid"] == "u-1"
    assert stored["spec"]["selector"] == {
        "matchLabels": {"batch.kubernetes.io/controller-uid": "u-1"}
    }
    assert stored["spec"]["template"]["metadata"]["labels"]["job-name"] == "pi"


def test_update_job_rejects_selector_change() -> None:
    stored, _ = strategy.create_job(job(), UID)
    stored["metadata"]["resourceVersion"] = "1"
    changed = {
        **stored,
        "spec": {
            **stored["spec"],
            "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": UID, "x": "y"}},
        },
    }
    _, errors = strategy.update_job(changed, stored)
    assert ("spec.selector", "FieldValueInvalid") in pairs(errors)


def test_status_update_of_terminal_job() -> None:
    old = job()
    old["status"] = {
        "startTime": "2024-01-01T00:00:00Z",
        "conditions": [
            {"type": "FailureTarget", "status": "True"},
            {"type": "Failed", "status": "True"},
        ],
    }
    new = job(parallelism=5)
    new["status"] = {
        "startTime": "2024-01-01T00:00:00Z",
        "active": 2,
        "conditions": old["status"]["conditions"],
    }
    stored, errors = strategy.update_job_status(new, old)
    assert (
        "parallelism" not in stored["spec"]
    )  # the spec cannot change through the status subresource
    assert pairs(errors) == {("status.active", "FieldValueInvalid")}


def test_cron_job_create_and_update() -> None:
    stored, errors = strategy.create_cron_job(cron_job(), "u-2")
    assert errors == []
    assert stored["metadata"]["generation"] == 1
    changed = {**stored, "spec": {**stored["spec"], "schedule": "*/5 * * * *"}}
    updated, errors = strategy.update_cron_job(changed, stored)
    assert errors == []
    assert updated["metadata"]["generation"] == 2


@pytest.mark.parametrize("path", sorted(MANIFESTS.glob("*.yaml")), ids=lambda p: p.stem)
def test_broken_manifest_gives_the_expected_field_errors(path: Path) -> None:
    text = path.read_text()
    expected = set(EXPECT.findall(text))
    assert expected, f"{path.name} states no expected errors"
    obj = yaml.safe_load(text)
    obj["metadata"].setdefault("namespace", "default")
    create = strategy.create_job if obj["kind"] == "Job" else strategy.create_cron_job
    _, errors = create(obj, "0b9a6a1e-0000-4000-8000-000000000001")
    assert pairs(errors) == expected


# ---------------------------------------------------------------------------- robustness

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
FUZZ_PATHS = (
    [("spec", k) for k in schema.JOB_SPEC]
    + [("metadata", k) for k in schema.OBJECT_META]
    + [("spec", "template", "spec", k) for k in schema.POD_SPEC]
    + [("spec", "template", "spec", "containers", 0, k) for k in schema.CONTAINER]
    + [
        ("spec", "podFailurePolicy", "rules", 0, k)
        for k in ("action", "onExitCodes", "onPodConditions")
    ]
    + [("spec", "successPolicy", "rules", 0, k) for k in ("succeededIndexes", "succeededCount")]
)


def _set(obj: Any, path: tuple[Any, ...], value: Any) -> None:
    for step, nxt in itertools.pairwise(path):
        if isinstance(step, int):
            while len(obj) <= step:
                obj.append({})
            obj = obj[step]
        else:
            obj = obj.setdefault(step, [] if isinstance(nxt, int) else {})
    obj[path[-1]] = value


@given(
    path=st.sampled_from(FUZZ_PATHS),
    value=JSON_VALUES,
    completion_mode=st.sampled_from([None, "Indexed"]),
)
@example(
    path=("spec", "successPolicy", "rules", 0, "succeededCount"), value=3, completion_mode="Indexed"
)
@example(path=("spec", "completions"), value=None, completion_mode="Indexed")
def test_any_input_gives_errors_or_an_input_error_never_a_crash(
    path: tuple[Any, ...], value: Any, completion_mode: str | None
) -> None:
    obj = job(
        podFailurePolicy={
            "rules": [{"action": "Count", "onExitCodes": {"operator": "In", "values": [1]}}]
        }
    )
    if completion_mode:
        obj["spec"]["completionMode"] = completion_mode
    _set(obj, path, value)
    try:
        stored, errors = strategy.create_job(obj, UID)
    except InputError as err:
        assert err.field
        return
    assert all(isinstance(e, FieldError) and str(e) for e in errors)
    _, errors = strategy.update_job(
        {**stored, "metadata": {**stored["metadata"], "resourceVersion": "2"}}, stored
    )
    assert all(str(e) for e in errors)


CRON_FUZZ_PATHS = [("spec", k) for k in schema.CRON_JOB_SPEC] + [
    ("spec", "jobTemplate", "spec", k) for k in schema.JOB_SPEC
]


@given(
    path=st.sampled_from(CRON_FUZZ_PATHS),
    value=JSON_VALUES | st.sampled_from(["@every 5m", "TZ=x * * * * *", "../x", "Etc/GMT+1"]),
)
def test_any_cron_job_input_gives_errors_or_an_input_error(
    path: tuple[Any, ...], value: Any
) -> None:
    obj = cron_job()
    _set(obj, path, value)
    try:
        stored, errors = strategy.create_cron_job(obj, UID)
    except InputError as err:
        assert err.field
        return
    assert all(isinstance(e, FieldError) and str(e) for e in errors)
    _, errors = strategy.update_cron_job(stored, stored)
    assert all(str(e) for e in errors)


def test_accepted_writes_get_resource_versions_and_updates_may_omit_it() -> None:
    stored, errors = strategy.create_job(job(), UID)
    assert errors == [] and stored["metadata"]["resourceVersion"] == "1"
    request = {
        **stored,
        "metadata": {k: v for k, v in stored["metadata"].items() if k != "resourceVersion"},
    }
    request["spec"] = {**stored["spec"], "suspend": True}
    updated, errors = strategy.update_job(request, stored)
    assert errors == []
    assert updated["metadata"]["resourceVersion"] == "2"
    assert updated["metadata"]["generation"] == 2


def test_a_stored_resource_version_of_other_digits_restarts_the_count() -> None:
    """The model counts resource versions in ASCII digits: a stored `²` (str.isdigit() but not
    int()) or `٣` is no count, the next is "1"; a count of thousands of digits goes on."""
    stored, _ = strategy.create_job(job(), UID)
    for previous, following in (("\u00b2", "1"), ("\u0663", "1"), ("9" * 5000, "1" + "0" * 5000)):
        old = {**stored, "metadata": {**stored["metadata"], "resourceVersion": previous}}
        updated, errors = strategy.update_job({**old, "spec": {**old["spec"], "suspend": True}}, old)
        assert errors == [] and updated["metadata"]["resourceVersion"] == following


def test_an_update_that_changes_nothing_keeps_the_resource_version() -> None:
    """etcd3's GuaranteedUpdate stores nothing when the object is unchanged (no new version, no
    watch event); a status write is an update too."""
    stored, _ = strategy.create_job(job(), UID)
    request = {**stored, "metadata": {k: v for k, v in stored["metadata"].items() if k != "resourceVersion"}}
    for update in (strategy.update_job, strategy.update_job_status):
        updated, errors = update(request, stored)
        assert errors == [] and updated == stored
    changed, _ = strategy.update_job_status({**request, "status": {"active": 1}}, stored)
    assert changed["metadata"]["resourceVersion"] == "2"


# ---------------------------------------------------------------------------- status subresource
# Cases from upstream pkg/registry/batch/job/strategy_test.go TestStatusStrategy_ValidateUpdate
# (v1.34), with upstream's expected {field, type} errors.

NOW, LATER = "2024-05-01T10:00:00Z", "2024-05-01T10:01:00Z"
META = {"name": "myjob", "namespace": "default", "resourceVersion": "10"}
COMPLETE = {"type": "Complete", "status": "True"}
SUCCESS_MET = {"type": "SuccessCriteriaMet", "status": "True"}
INDEXED5 = {"completions": 5, "completionMode": "Indexed"}


def _job(spec: dict[str, Any] | None = None, **status: Any) -> dict[str, Any]:
    return {"metadata": dict(META), "spec": spec or {}, "status": status}


STATUS_CASES = {
    "verify startTime can be cleared for suspended job": (
        _job({"suspend": True}, startTime=NOW),
        _job({"suspend": True}),
        set(),
    ),
    "verify startTime cannot be removed for unsuspended job": (
        _job(startTime=NOW),
        _job(),
        {("status.startTime", "FieldValueRequired")},
    ),
    "verify startTime cannot be updated for unsuspended job": (
        _job(startTime=NOW),
        _job(startTime=LATER),
        {("status.startTime", "FieldValueRequired")},
    ),
    "invalid attempt to set completionTime before startTime": (
        _job(startTime=LATER, conditions=[SUCCESS_MET]),
        _job(startTime=LATER, completionTime=NOW, conditions=[SUCCESS_MET, COMPLETE]),
        {("status.completionTime", "FieldValueInvalid")},
    ),
    "invalid attempt to modify completionTime": (
        _job(completionTime=NOW, conditions=[COMPLETE]),
        _job(completionTime=LATER, startTime=NOW, conditions=[COMPLETE]),
        {("status.completionTime", "FieldValueInvalid")},
    ),
    "invalid removal of terminal condition Failed=True": (
        _job(conditions=[{"type": "Failed", "status": "True"}]),
        _job(),
        {("status.conditions", "FieldValueInvalid")},
    ),
    "invalid addition of FailureTarget=True when Complete=True": (
        _job(startTime=NOW, completionTime=NOW, conditions=[COMPLETE]),
        _job(
            startTime=NOW,
            completionTime=NOW,
            conditions=[COMPLETE, {"type": "FailureTarget", "status": "True"}],
        ),
        {("status.conditions", "FieldValueInvalid")},
    ),
    "invalid attempt setting of CompletionTime when there is no Complete condition": (
        _job(),
        _job(completionTime=NOW),
        {("status.completionTime", "FieldValueInvalid")},
    ),
    "invalid CompletionTime when there is no Complete condition, but allowed": (
        _job(completionTime=NOW),
        _job(completionTime=NOW, active=1),
        set(),
    ),
    "invalid failedIndexes, which overlap with completedIndexes": (
        _job(INDEXED5, failedIndexes="0,2", completedIndexes="3-4"),
        _job(INDEXED5, failedIndexes="0,2", completedIndexes="2-4"),
        {("status.failedIndexes", "FieldValueInvalid")},
    ),
    "failedIndexes overlap with completedIndexes, unrelated field change": (
        _job(INDEXED5, failedIndexes="0,2", completedIndexes="2-4"),
        _job(INDEXED5, failedIndexes="0,2", completedIndexes="2-4", active=1),
        set(),
    ),
    # v1.34 accepts this (upstream's case of that name); v1.32 still requires startTime.
    "transition to Complete for suspended Job with completions=0; without startTime": (
        _job({"completions": 0, "suspend": True}),
        _job(
            {"completions": 0, "suspend": True},
            completionTime=NOW,
            conditions=[SUCCESS_MET, COMPLETE],
        ),
        {("status.startTime", "FieldValueRequired")},
    ),
}


@pytest.mark.parametrize("name", sorted(STATUS_CASES))
def test_status_update_cases_from_upstream(name: str) -> None:
    old, new, expected = STATUS_CASES[name]
    # upstream's v1.32.3 cases (later releases: test_status_update_exemptions_from_1_33)
    assert pairs(strategy.job_status_validate_update(new, old, FeatureGates.for_release(32))) == expected


def test_status_update_exemptions_from_1_33() -> None:
    """v1.32.13 and 1.33+: a suspended Job with completions 0 finishes without a startTime; a
    resumed Job may get a new startTime (getStatusValidationOptions); 1.36+ words the startTime
    rule as an immutability error."""
    for name, release in (("transition to Complete for suspended Job with completions=0; without startTime", 33),):
        old, new, _ = STATUS_CASES[name]
        assert pairs(strategy.job_status_validate_update(new, old, FeatureGates.for_release(release))) == set()
    old, new, expected = STATUS_CASES["verify startTime cannot be updated for unsuspended job"]
    assert expected == {("status.startTime", "FieldValueRequired")}
    assert pairs(strategy.job_status_validate_update(new, old, FeatureGates.for_release(35))) == expected
    assert pairs(strategy.job_status_validate_update(new, old, FeatureGates.for_release(36))) == {
        ("status.startTime", "FieldValueInvalid")
    }


def test_success_criteria_met_on_non_indexed_job_without_managed_by_and_replacement_gates() -> None:
    # "invalid addition of SuccessCriteriaMet for NonIndexed Job" (JobManagedBy and
    # JobPodReplacementPolicy off): the extended scope is allowed only when the old status had it.
    gates = FeatureGates.for_release(32).with_overrides({"JobManagedBy": False, "JobPodReplacementPolicy": False})
    policy = {"successPolicy": {"rules": [{"succeededIndexes": "0-2"}]}}
    old, new = _job(policy), _job(policy, conditions=[SUCCESS_MET])
    assert pairs(strategy.job_status_validate_update(new, old, gates)) == {
        ("status.conditions", "FieldValueInvalid")
    }
    assert strategy.job_status_validate_update(new, new, gates) == []


def test_created_job_labels_carry_the_generated_labels_when_taken_from_the_template() -> None:
    """SetDefaults_Job shares the template's label map with the Job, so generateSelector's labels
    land on the Job too; storage then separates the two."""
    raw: dict[str, Any] = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "pi", "namespace": "default"},
        "spec": {
            "template": {
                "metadata": {"labels": {"app": "pi"}},
                "spec": {"containers": [{"name": "pi", "image": "perl"}], "restartPolicy": "Never"},
            }
        },
    }
    stored, errors = strategy.create_job(raw, "u-1")
    assert errors == []
    assert stored["metadata"]["labels"] == {
        "app": "pi",
        "job-name": "pi",
        "batch.kubernetes.io/job-name": "pi",
        "controller-uid": "u-1",
        "batch.kubernetes.io/controller-uid": "u-1",
    }
    stored["spec"]["template"]["metadata"]["labels"]["extra"] = "x"
    assert "extra" not in stored["metadata"]["labels"]
    own = {**raw, "metadata": {**raw["metadata"], "labels": {"team": "a"}}}
    assert strategy.create_job(own, "u-1")[0]["metadata"]["labels"] == {"team": "a"}


def _twice_relative_sub_path() -> dict[str, Any]:
    obj = job()
    mount = {"name": "v", "mountPath": "/d", "subPath": "/abs"}
    obj["spec"]["template"]["spec"]["containers"][0]["volumeMounts"] = [mount, {**mount, "mountPath": "/e"}]
    return obj


@pytest.mark.parametrize(("release", "count"), [(36, 2), (37, 1)])
def test_repeated_messages_are_dropped_from_1_37(release: int, count: int) -> None:
    """1.37's rest.ValidateDeclarativelyWithMigrationChecks filters the strategy's errors through
    ErrorList.ToAggregate, which drops a message seen before (two mounts' `volumeMounts.subPath`)."""
    errors = strategy.job_validate(_twice_relative_sub_path(), FeatureGates.for_release(release))
    sub_path = [e for e in errors if e.field.endswith("volumeMounts.subPath")]
    assert len(sub_path) == count


def _suspended_pair(**container: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    old = job(suspend=True)
    new = job(suspend=True)
    new["spec"]["template"]["spec"]["containers"][0].update(container)
    return new, old


@pytest.mark.parametrize(
    ("release", "change", "expected"),
    [
        (35, {"resources": {"limits": {"cpu": "1"}}}, {"spec.template"}),
        (36, {"resources": {"limits": {"cpu": "1"}}}, set()),
        (36, {"image": "other"}, {"spec.template.spec"}),
        (37, {"image": "other"}, {"spec.template.spec"}),
    ],
)
def test_suspended_job_pod_resources_by_release(release: int, change: dict[str, Any], expected: set[str]) -> None:
    """validatePodTemplateUpdate: with MutablePodResourcesForSuspendedJobs (on from 1.36) a
    suspended Job that never started compares only its pod spec, less the containers' resources
    (validatePodResourceUpdatesOnly, at `spec.template.spec`)."""
    new, old = _suspended_pair(**change)
    errors = strategy.job_validate_update(new, old, FeatureGates.for_release(release))
    assert {e.field for e in errors if e.field.startswith("spec.template")} == expected


def test_suspended_job_pod_resources_need_no_active_pods() -> None:
    new, old = _suspended_pair(resources={"limits": {"cpu": "1"}})
    old["status"] = {"active": 1}
    assert not strategy.validation_options_for_job(new, old, FeatureGates.for_release(36)).allow_mutable_pod_resources


@pytest.mark.parametrize(
    ("release", "order"),
    [
        (36, ["spec.schedule", "spec.concurrencyPolicy"]),
        (37, ["spec.concurrencyPolicy", "spec.schedule"]),  # the declarative rule's, after the handwritten ones
    ],
)
def test_cron_job_schedule_required_is_declarative_from_1_37(release: int, order: list[str]) -> None:
    """validateCronJobSpec's `schedule` Required is MarkCoveredByDeclarative in 1.37, and
    Validate_CronJobSpec's beta `+k8s:required` rule reports it after the handwritten errors."""
    obj = cron_job()
    obj["spec"]["schedule"] = ""
    obj["spec"]["concurrencyPolicy"] = "Bogus"
    errs = strategy.cron_job_validate(obj, FeatureGates.for_release(release))
    assert [e.field for e in errs] == order
    assert sum(e.type == "FieldValueRequired" for e in errs) == 1


def test_cron_job_schedule_required_stays_handwritten_when_the_update_keeps_it() -> None:
    """Validate_CronJobSpec does not revalidate an unchanged schedule on update, so 1.37's
    handwritten Required is not superseded and keeps its place (first of the spec's errors)."""
    old = cron_job()
    old["spec"]["schedule"] = ""
    old["metadata"]["resourceVersion"] = "1"
    new = cron_job()
    new["spec"]["schedule"] = ""
    new["spec"]["concurrencyPolicy"] = "Bogus"
    new["metadata"]["resourceVersion"] = "1"
    errs = strategy.cron_job_validate_update(new, old, FeatureGates.for_release(37))
    assert [e.field for e in errs] == ["spec.schedule", "spec.concurrencyPolicy"]


@pytest.mark.parametrize(("release", "errors"), [(36, []), (37, ["spec.schedule: Required value"])])
def test_a_cron_job_status_write_is_validated_declaratively_from_1_37(release: int, errors: list[str]) -> None:
    """cronJobStatusStrategy.ValidateUpdate has no checks, but from 1.37 the API server runs
    Validate_CronJob for "/status" too: on the object as given, a schedule emptied is Required."""
    old = cron_job()
    new = copy.deepcopy(old)
    new["spec"]["schedule"] = ""
    gates = FeatureGates.for_release(release)
    assert [str(e) for e in strategy.cron_job_status_validate_update(new, old, gates)] == errors
    assert strategy.cron_job_status_validate_update(new, new, gates) == []  # an empty schedule kept


OWNER = {"apiVersion": "v1", "kind": "ConfigMap", "name": "o", "uid": "u-1", "controller": True}


def test_the_handler_decodes_before_it_dedups_owner_references() -> None:
    """A real kube-apiserver (1.37, dry-run creates): references equal but for an unknown field
    are refused under Strict, the field named at its index as sent; under Warn the field is left
    out and warned of first, then the references are equal: one is dropped, with its warning."""
    obj = job()
    obj["metadata"]["ownerReferences"] = [OWNER, {**OWNER, "bogus": None}]
    with pytest.raises(InputError) as err:
        strategy.handler_request("Job", obj, 37)
    assert (err.value.field, err.value.reason) == ("metadata.ownerReferences[1].bogus", "unknown field")
    request, warned = strategy.handler_request("Job", obj, 37, "Warn")
    assert request["metadata"]["ownerReferences"] == [OWNER]
    assert [w.split(";")[0] for w in warned] == [
        'unknown field "metadata.ownerReferences[1].bogus"',
        ".metadata.ownerReferences contains duplicate entries",
    ]
    request, warned = strategy.handler_request("Job", obj, 37, "Ignore")
    assert request["metadata"]["ownerReferences"] == [OWNER] and [w.split(";")[0] for w in warned] == [
        ".metadata.ownerReferences contains duplicate entries"
    ]
