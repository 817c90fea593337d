"""The Job and CronJob validation rules, each named and checked against upstream's field paths and types."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from jobmodel.api import validation as bv
from jobmodel.api.field import ServerPanic, render_value
from jobmodel.api.pod_validation import pod_validation_options
from jobmodel.api.validation import JobValidationOptions
from tests.api.helpers import cron_job, job, pairs, pod_template

OPTS = JobValidationOptions()


def test_minimal_job_is_valid() -> None:
    assert bv.validate_job(job(), OPTS) == []


@pytest.mark.parametrize(
    "name",
    [
        "parallelism",
        "completions",
        "activeDeadlineSeconds",
        "backoffLimit",
        "ttlSecondsAfterFinished",
    ],
)
def test_counts_must_be_nonnegative(name: str) -> None:
    errs = bv.validate_job(job(**{name: -1}), OPTS)
    assert pairs(errs) == {(f"spec.{name}", "FieldValueInvalid")}
    assert errs[0].detail == "must be greater than or equal to 0"


def test_restart_policy_always_or_unset_is_required_error() -> None:
    for policy in ("Always", ""):
        spec = job()["spec"]
        spec["template"]["spec"]["restartPolicy"] = policy
        errs = bv.validate_job({**job(), "spec": spec}, OPTS)
        assert ("spec.template.spec.restartPolicy", "FieldValueRequired") in pairs(errs)


def test_pod_failure_policy_requires_never() -> None:
    template = pod_template("OnFailure")
    policy = {"rules": [{"action": "FailJob", "onExitCodes": {"operator": "In", "values": [1]}}]}
    errs = bv.validate_job(job(template=template, podFailurePolicy=policy), OPTS)
    assert pairs(errs) == {("spec.template.spec.restartPolicy", "FieldValueInvalid")}


def test_exit_code_rules() -> None:
    policy = {
        "rules": [{"action": "Count", "onExitCodes": {"operator": "In", "values": [0, 3, 3, 2]}}]
    }
    errs = bv.validate_job(job(podFailurePolicy=policy), OPTS)
    path = "spec.podFailurePolicy.rules[0].onExitCodes.values"
    assert pairs(errs) == {
        (f"{path}[0]", "FieldValueInvalid"),
        (f"{path}[2]", "FieldValueDuplicate"),
        (path, "FieldValueInvalid"),
    }


def test_fail_index_needs_backoff_limit_per_index() -> None:
    policy = {"rules": [{"action": "FailIndex", "onExitCodes": {"operator": "In", "values": [1]}}]}
    errs = bv.validate_job(job(podFailurePolicy=policy), OPTS)
    assert pairs(errs) == {("spec.podFailurePolicy.rules[0].action", "FieldValueInvalid")}


def test_pod_replacement_policy_with_pod_failure_policy_only_failed() -> None:
    policy = {
        "rules": [
            {
                "action": "Ignore",
                "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}],
            }
        ]
    }
    errs = bv.validate_job(
        job(podFailurePolicy=policy, podReplacementPolicy="TerminatingOrFailed"), OPTS
    )
    assert pairs(errs) == {("spec.podReplacementPolicy", "FieldValueNotSupported")}


def test_indexed_limits() -> None:
    spec = {
        "completionMode": "Indexed",
        "completions": 200_000,
        "parallelism": 20_000,
        "backoffLimitPerIndex": 1,
    }
    errs = bv.validate_job(job(**spec), OPTS)
    assert pairs(errs) == {
        ("spec.maxFailedIndexes", "FieldValueRequired"),
        ("spec.parallelism", "FieldValueInvalid"),
    }


def test_indexed_hostname_must_be_a_dns_label() -> None:
    long_job = job(completionMode="Indexed", completions=10, parallelism=1)
    long_job["metadata"]["name"] = "a" * 62
    errs = bv.validate_job(long_job, OPTS)
    assert ("metadata.name", "FieldValueInvalid") in pairs(errs)


def test_success_policy_rules() -> None:
    spec = {
        "completionMode": "Indexed",
        "completions": 5,
        "parallelism": 5,
        "successPolicy": {"rules": [{"succeededIndexes": "1-3", "succeededCount": 4}]},
    }
    errs = bv.validate_job(job(**spec), OPTS)
    assert pairs(errs) == {("spec.successPolicy.rules[0].succeededCount", "FieldValueInvalid")}
    assert "(the number of indexes in the specified succeededIndexes field)" in errs[0].detail


def test_a_success_policy_without_indexed_mode_shows_the_internal_struct() -> None:
    # v1.34.4 validation_test.go TestValidateJob: 'spec.successPolicy: Invalid value: {"Rules":[]}: ...'
    errs = bv.validate_job(job(successPolicy={"rules": []}), OPTS)
    assert [str(e) for e in errs] == ['spec.successPolicy: Invalid value: {"Rules":[]}: requires indexed completion mode']
    rule = {"rules": [{"succeededIndexes": "0-2"}]}
    [err] = bv.validate_job(job(successPolicy=rule), OPTS)
    assert '{"Rules":[{"SucceededIndexes":"0-2","SucceededCount":null}]}' in str(err)


def test_generated_selector_needs_uid_and_labels() -> None:
    obj = job()
    obj["metadata"]["uid"] = ""
    errs = bv.validate_job(obj, OPTS)
    assert ("metadata.uid", "FieldValueRequired") in pairs(errs)


def test_prefixed_labels_optional_when_not_required() -> None:
    obj = job()
    labels = obj["spec"]["template"]["metadata"]["labels"]
    del labels["batch.kubernetes.io/job-name"], labels["batch.kubernetes.io/controller-uid"]
    obj["spec"]["selector"] = {"matchLabels": {"controller-uid": "1a2b3c"}}
    assert bv.validate_job(obj, JobValidationOptions(require_prefixed_labels=False)) == []
    assert (
        "spec.template.metadata.labels[batch.kubernetes.io/job-name]",
        "FieldValueRequired",
    ) in pairs(bv.validate_job(obj, OPTS))


@given(st.lists(st.integers(0, 50), max_size=8))
@example([3, 1])
def test_indexes_format_counts_sorted_disjoint_indexes(values: list[int]) -> None:
    text = ",".join(str(v) for v in values)
    if values == sorted(set(values)):
        assert bv.validate_indexes_format(text, 51) == len(values)
    else:
        with pytest.raises(bv.IndexesFormatError):
            bv.validate_indexes_format(text, 51)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "1--3",
            "the fragment \"1--3\" violates the requirement that an index interval can have at most two parts separated by '-'",
        ),
        ("0,", 'cannot convert string to integer for index: ""'),
        ("0,0", "non-increasing order, previous: 0, current: 0"),
        ("7", 'too large index: "7"'),
        (" 1", 'cannot convert string to integer for index: " 1"'),
    ],
)
def test_indexes_format_messages(text: str, message: str) -> None:
    with pytest.raises(bv.IndexesFormatError, match="^" + __import__("re").escape(message) + "$"):
        bv.validate_indexes_format(text, 5)


def test_overlap_of_failed_and_completed() -> None:
    assert (
        bv.validate_failed_indexes_not_overlap_completed("0-2,5", "3,5", 10)
        == "failedIndexes and completedIndexes overlap at index: 5"
    )
    assert bv.validate_failed_indexes_not_overlap_completed("0-2", "3-4", 10) is None


# ---------------------------------------------------------------------------- updates


def test_immutable_fields_on_update() -> None:
    old = job(completions=2)
    new = job(completions=3, backoffLimitPerIndex=None)
    new["spec"]["template"]["spec"]["containers"][0]["image"] = "other"
    errs = bv.validate_job_update(new, old, OPTS)
    assert pairs(errs) == {
        ("spec.completions", "FieldValueInvalid"),
        ("spec.template", "FieldValueInvalid"),
    }


def test_elastic_indexed_job_scales_completions_with_parallelism() -> None:
    old = job(completionMode="Indexed", completions=2, parallelism=2)
    assert (
        bv.validate_job_update(
            job(completionMode="Indexed", completions=4, parallelism=4), old, OPTS
        )
        == []
    )
    errs = bv.validate_job_update(
        job(completionMode="Indexed", completions=4, parallelism=3), old, OPTS
    )
    assert pairs(errs) == {("spec.completions", "FieldValueInvalid")}


def test_suspended_job_may_change_scheduling_directives() -> None:
    old = job(suspend=True)
    new = job(suspend=True)
    new["spec"]["template"]["spec"]["nodeSelector"] = {"zone": "a"}
    new["spec"]["template"]["spec"]["tolerations"] = [
        {"key": "k", "operator": "Exists", "effect": "NoSchedule"}
    ]
    assert (
        bv.validate_job_update(
            new, old, JobValidationOptions(allow_mutable_scheduling_directives=True)
        )
        == []
    )
    assert pairs(bv.validate_job_update(new, old, OPTS)) == {("spec.template", "FieldValueInvalid")}


@pytest.mark.parametrize(
    ("release", "old_account", "new_account", "errors"),
    [
        (36, {"serviceAccount": "a"}, {"serviceAccountName": "a"}, set()),
        (32, {"serviceAccountName": "a", "serviceAccount": "a"}, {"serviceAccountName": "a"}, set()),
        (36, {"serviceAccount": "a"}, {"serviceAccount": "b"}, {("spec.template", "FieldValueInvalid")}),
        (
            37,
            {"serviceAccount": "a"},
            {"serviceAccountName": "a"},
            {("spec.template", "FieldValueInvalid"), ("spec.template.spec.deprecatedServiceAccount", "FieldValueInvalid")},
        ),
    ],
)
def test_template_update_compares_the_service_account_as_converted(
    release: int, old_account: dict[str, str], new_account: dict[str, str], errors: set[tuple[str, str]]
) -> None:
    """Upstream compares the internal templates: up to v1.36 Convert_v1_PodSpec_To_core_PodSpec
    makes `serviceAccount` the (empty) `serviceAccountName`, so moving the name from one field to
    the other changes nothing; v1.37's internal PodSpec keeps both fields as written."""
    old, new = job(), job()
    old["spec"]["template"]["spec"].update(old_account)
    new["spec"]["template"]["spec"].update(new_account)
    opts = JobValidationOptions(pod=pod_validation_options(release, None))
    assert pairs(bv.validate_job_update(new, old, opts)) == errors


@pytest.mark.parametrize(
    ("release", "errors"),
    [(36, set()), (37, {("spec.template", "FieldValueInvalid")})],
)
def test_template_update_compares_the_pod_security_context_as_converted(
    release: int, errors: set[tuple[str, str]]
) -> None:
    """Up to v1.36 Convert_v1_PodSpec_To_core_PodSpec always allocates the internal pod's
    SecurityContext, so adding an empty one changes nothing; from v1.37 nil stays nil, and
    Semantic.DeepEqual tells it from a pointer to an empty struct."""
    old, new = job(), job()
    old["spec"]["template"]["spec"].pop("securityContext", None)
    new["spec"]["template"]["spec"]["securityContext"] = {}
    opts = JobValidationOptions(pod=pod_validation_options(release, None))
    assert pairs(bv.validate_job_update(new, old, opts)) == errors


def test_template_update_sees_an_empty_affinity() -> None:
    """A nil *Affinity differs from &Affinity{} (Semantic.DeepEqual), in every release."""
    old, new = job(), job()
    new["spec"]["template"]["spec"]["affinity"] = {}
    assert pairs(bv.validate_job_update(new, old, OPTS)) == {("spec.template", "FieldValueInvalid")}


# ---------------------------------------------------------------------------- status


def test_status_rules() -> None:
    obj = job()
    obj["status"] = {"active": 1, "ready": 2, "conditions": [{"type": "Failed", "status": "True"}]}
    opts = bv.JobStatusValidationOptions(
        reject_more_ready_than_active_pods=True,
        reject_failed_job_without_failure_target=True,
        reject_finished_job_with_active_pods=True,
        reject_finished_job_without_start_time=True,
    )
    errs = bv.validate_job_status(obj, "status", opts)
    assert pairs(errs) == {
        ("status.ready", "FieldValueInvalid"),
        ("status.conditions", "FieldValueInvalid"),
        ("status.active", "FieldValueInvalid"),
        ("status.startTime", "FieldValueRequired"),
    }


def test_terminal_condition_cannot_be_removed() -> None:
    old = job()
    old["status"] = {
        "conditions": [
            {"type": "Failed", "status": "True"},
            {"type": "FailureTarget", "status": "True"},
        ]
    }
    new = job()
    new["status"] = {"failed": 0}
    errs = bv.validate_job_status_update(
        new, old, bv.JobStatusValidationOptions(reject_disabling_terminal_condition=True)
    )
    assert [e.detail for e in errs] == [
        "cannot disable the terminal Failed=True condition",
        "cannot disable the terminal FailureTarget=True condition",
    ]


# ---------------------------------------------------------------------------- CronJob


def test_minimal_cron_job_is_valid() -> None:
    assert bv.validate_cron_job_create(cron_job()) == []


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ({"schedule": ""}, ("spec.schedule", "FieldValueRequired")),
        ({"schedule": "TZ=UTC 0 * * * *"}, ("spec.schedule", "FieldValueInvalid")),
        ({"timeZone": ""}, ("spec.timeZone", "FieldValueInvalid")),
        ({"timeZone": " Europe/Rome"}, ("spec.timeZone", "FieldValueInvalid")),
        ({"timeZone": "Local"}, ("spec.timeZone", "FieldValueInvalid")),
        ({"concurrencyPolicy": ""}, ("spec.concurrencyPolicy", "FieldValueRequired")),
        ({"startingDeadlineSeconds": -1}, ("spec.startingDeadlineSeconds", "FieldValueInvalid")),
        ({"failedJobsHistoryLimit": -1}, ("spec.failedJobsHistoryLimit", "FieldValueInvalid")),
    ],
)
def test_cron_job_rules(spec: dict[str, object], expected: tuple[str, str]) -> None:
    assert pairs(bv.validate_cron_job_create(cron_job(**spec))) == {expected}


def test_cron_job_name_limit_on_create_only() -> None:
    obj = cron_job()
    obj["metadata"]["name"] = "a" * 53
    assert pairs(bv.validate_cron_job_create(obj)) == {("metadata.name", "FieldValueInvalid")}
    assert bv.validate_cron_job_update(obj, obj) == []


def test_tz_in_schedule_kept_on_update_when_old_had_it() -> None:
    old = cron_job(schedule="TZ=UTC 0 * * * *")
    assert bv.validate_cron_job_update(cron_job(schedule="TZ=UTC 5 * * * *"), old) == []
    errs = bv.validate_cron_job_update(cron_job(schedule="TZ=UTC 5 * * * *", timeZone="UTC"), old)
    assert [e.detail for e in errs] == [
        "cannot use both timeZone field and TZ or CRON_TZ in schedule"
    ]


def test_unchanged_invalid_time_zone_is_not_revalidated() -> None:
    old = cron_job(timeZone="broken")
    assert bv.validate_cron_job_update(cron_job(timeZone="broken"), old) == []
    assert pairs(bv.validate_cron_job_update(cron_job(timeZone="still broken"), old)) == {
        ("spec.timeZone", "FieldValueInvalid")
    }


def test_completion_time_before_start_time_compares_times_not_strings() -> None:
    obj = job()
    obj["status"] = {
        "startTime": "2024-01-01T10:00:00+02:00",
        "completionTime": "2024-01-01T09:00:00Z",
    }
    opts = bv.JobStatusValidationOptions(release=32, reject_completion_time_before_start_time=True)
    assert bv.validate_job_status(obj, "status", opts) == []
    obj["status"]["completionTime"] = "2024-01-01T07:59:59Z"
    errs = bv.validate_job_status(obj, "status", opts)
    # The bad value, a *metav1.Time, as upstream prints it (harness at 1.32 and 1.37): time.Time's
    # String() up to 1.33, json.Marshal (RFC 3339 in UTC, whole seconds) from 1.34.
    assert [str(e) for e in errs] == [
        "status.completionTime: Invalid value: 2024-01-01 07:59:59 +0000 UTC: completionTime cannot be set before startTime"
    ]
    obj["status"]["completionTime"] = "2024-01-01T08:59:59.25+01:00"
    errs = bv.validate_job_status(obj, "status", opts)
    assert [str(e) for e in errs] == [
        "status.completionTime: Invalid value: 2024-01-01 07:59:59.25 +0000 UTC: completionTime cannot be set before startTime"
    ]
    errs = bv.validate_job_status(obj, "status", attrs.evolve(opts, release=37))
    assert [str(e) for e in errs] == [
        'status.completionTime: Invalid value: "2024-01-01T07:59:59Z": must be equal to or after `startTime`'
    ]


def test_status_times_keep_go_nanoseconds() -> None:
    """metav1.Time keeps time.Parse's nine fractional digits: 1 ns apart is a change, and before."""
    assert bv.status_time({"startTime": "2024-01-01T00:00:00.000000001Z"}, "startTime") == 1_704_067_200_000_000_001
    assert bv.status_time({"startTime": "2024-01-01T01:00:00.5+01:00"}, "startTime") == 1_704_067_200_500_000_000
    assert bv.status_time({}, "startTime") is None
    old, new = job(), job()
    old["status"] = {"startTime": "2024-01-01T00:00:00Z"}
    new["status"] = {"startTime": "2024-01-01T00:00:00.000000001Z", "completionTime": "2023-12-31T19:00:00-05:00"}
    opts = bv.JobStatusValidationOptions(
        release=37, reject_start_time_update_for_unsuspended_job=True, reject_completion_time_before_start_time=True
    )
    assert pairs(bv.validate_job_status_update(new, old, opts)) == {
        ("status.startTime", "FieldValueInvalid"),
        ("status.completionTime", "FieldValueInvalid"),
    }
    new["status"] = {"startTime": "2024-01-01T01:00:00.000000000+01:00"}  # the same instant
    assert bv.validate_job_status_update(new, old, opts) == []


def test_index_interval_errors_quote_the_fragment_as_go_does() -> None:
    """parseIndexInterval's %q: a quote, backslash or control character in the fragment is escaped."""
    for text, shown in (('a"b', '"a\\"b"'), ("\t", '"\\t"'), ("1\\", '"1\\\\"')):
        with pytest.raises(bv.IndexesFormatError) as raised:
            bv.parse_index_interval(text, 4)
        assert str(raised.value) == f"cannot convert string to integer for index: {shown}"
    with pytest.raises(bv.IndexesFormatError) as raised:
        bv.parse_index_interval('0-1-"', 4)
    assert str(raised.value).startswith('the fragment "0-1-\\"" violates')


# Found by tests/differential/test_api.py against upstream's code (docs/validation.md).


def test_success_policy_without_completions_is_an_upstream_panic() -> None:
    """validateSuccessPolicyRule dereferences spec.completions: the API server answers 500."""
    obj = job(completionMode="Indexed", successPolicy={"rules": [{"succeededIndexes": "0"}]})
    with pytest.raises(ServerPanic) as raised:
        bv.validate_job(obj, OPTS)
    assert raised.value.field == "spec.completions"
    # A rule with neither field reports Required and reads no completions.
    obj["spec"]["successPolicy"] = {"rules": [{}]}
    assert ("spec.successPolicy.rules[0]", "FieldValueRequired") in pairs(
        bv.validate_job(obj, OPTS)
    )


def test_indexed_completions_change_without_parallelism_is_an_upstream_panic() -> None:
    old = job(completionMode="Indexed", completions=2)
    new = job(completionMode="Indexed", completions=3)
    with pytest.raises(ServerPanic):
        bv.validate_completions(new["spec"], old["spec"], "spec.completions")


def test_selector_with_an_invalid_label_value_is_not_checked_against_generated_labels() -> None:
    """LabelSelectorAsSelector fails on the value, so validateGeneratedSelector adds nothing."""
    bad = {"matchLabels": {"app": "x" * 64}}
    obj = job(selector=bad, manualSelector=False)
    assert "spec.selector" not in {f for f, _ in pairs(bv.validate_generated_selector(obj, True))}
    obj["spec"]["selector"] = {"matchLabels": {"app": "y"}}
    assert ("spec.selector", "FieldValueInvalid") in pairs(
        bv.validate_generated_selector(obj, True)
    )


def test_internal_bad_values_as_upstream_prints_them() -> None:
    """Upstream's messages (harness at 1.32 and 1.37): a finished Job's uncountedTerminatedPods
    (%#v up to 1.33, then json.Marshal with Go field names) and a changed podFailurePolicy (json.Marshal
    of the internal batch.PodFailurePolicy from 1.34)."""
    uncounted = {"failed": ["a<"], "succeeded": []}
    assert render_value(bv.uncounted_value(uncounted, 32)) == 'batch.UncountedTerminatedPods{Succeeded:[]types.UID{}, Failed:[]types.UID{"a<"}}'
    assert render_value(bv.uncounted_value(uncounted, 37)) == r'{"Succeeded":[],"Failed":["a\u003c"]}'
    policy = {"rules": [
        {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]},
        {"action": "FailJob", "onExitCodes": {"containerName": "main", "operator": "In", "values": [1, 2]}},
    ]}
    assert render_value(bv.internal_pod_failure_policy(policy)) == (
        '{"Rules":[{"Action":"Ignore","OnExitCodes":null,"OnPodConditions":[{"Type":"DisruptionTarget","Status":"True"}]},'
        '{"Action":"FailJob","OnExitCodes":{"ContainerName":"main","Operator":"In","Values":[1,2]},"OnPodConditions":null}]}'
    )


def test_cron_job_name_limit_counts_bytes() -> None:
    """ValidateCronJobCreate's 52 are Go's len, bytes: 27 `ü` (54 bytes) are too long."""
    long_name = cron_job()
    long_name["metadata"]["name"] = "ü" * 27
    details = [e.detail for e in bv.validate_cron_job_create(long_name) if e.field == "metadata.name"]
    assert "must be no more than 52 characters" in details
    short = cron_job()
    short["metadata"]["name"] = "ü" * 26
    assert "must be no more than 52 characters" not in [e.detail for e in bv.validate_cron_job_create(short)]


def test_managed_by_limit_counts_bytes() -> None:
    """validateJobSpec's managedBy limit (63) is Go's len, bytes."""
    over = job(managedBy="example.com/" + "ü" * 26)  # 12 + 52 = 64 bytes, 38 characters
    assert "FieldValueTooLong" in [e.type for e in bv.validate_job(over, OPTS) if e.field == "spec.managedBy"]
    at = job(managedBy="example.com/" + "ü" * 25 + "a")  # 63 bytes
    assert "FieldValueTooLong" not in [e.type for e in bv.validate_job(at, OPTS) if e.field == "spec.managedBy"]


def test_succeeded_indexes_limit_counts_bytes() -> None:
    """validateSuccessPolicyRule's 64 KiB are Go's len, bytes: 32769 `ü` are 65538."""
    policy = {"rules": [{"succeededIndexes": "ü" * 32769}]}
    errs = bv.validate_job(job(completionMode="Indexed", completions=3, parallelism=3, successPolicy=policy), OPTS)
    assert "FieldValueTooLong" in [e.type for e in errs if e.field.endswith("succeededIndexes")]
