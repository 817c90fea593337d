"""Job and CronJob validation as upstream's `pkg/apis/batch/validation/validation.go` does it
(v1.32 line; differences in later lines are noted where the model follows them).

Objects are wire-format dicts (`batch/v1`), already type-checked by `jobmodel.api.schema`.
Each function returns the list of `FieldError`s in upstream's order.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping
from typing import Any, Final

import attrs

from jobmodel.api import field as fe
from jobmodel.api import meta_validation as mv
from jobmodel.api.cron import schedule_error
from jobmodel.api.field import FieldError
from jobmodel.api.job_scheduling import (
    validate_gang_min_count,
    validate_job_scheduling,
    validate_job_scheduling_update,
)
from jobmodel.api.pod_validation import (
    DEFAULT_POD_OPTIONS,
    PodValidationOptions,
    internal_pod_security_context,
    internal_service_account,
    pod_validation_options,
    validate_pod_template_spec,
)
from jobmodel.api.timezones import load_location_error
from jobmodel.features import DEFAULT_GATES, NEWEST_MINOR, FeatureGates
from jobmodel.timeutil import parse_time_nanos
from jobmodel.util.goquote import go_quote
from jobmodel.util.gostrings import go_len, go_parse_int

MAX_PARALLELISM_FOR_INDEXED_JOB: Final = 100_000
MAX_FAILED_INDEXES_FOR_INDEXED_JOB: Final = 100_000
COMPLETIONS_SOFT_LIMIT: Final = 100_000
PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS: Final = 10_000
MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS: Final = 10_000
MAX_POD_FAILURE_POLICY_RULES: Final = 20
MAX_POD_FAILURE_POLICY_ON_EXIT_CODES_VALUES: Final = 255
MAX_POD_FAILURE_POLICY_ON_POD_CONDITIONS_PATTERNS: Final = 20
MAX_MANAGED_BY_LENGTH: Final = 63
MAX_SUCCEEDED_INDEXES_LENGTH: Final = 64 * 1024
MAX_SUCCESS_POLICY_RULES: Final = 20

POD_FAILURE_POLICY_ACTIONS: Final = ("Count", "FailIndex", "FailJob", "Ignore")
ON_EXIT_CODES_OPERATORS: Final = ("In", "NotIn")
CONDITION_STATUSES: Final = ("False", "True", "Unknown")
POD_REPLACEMENT_POLICIES: Final = ("Failed", "TerminatingOrFailed")
CONCURRENCY_POLICIES: Final = ("Allow", "Forbid", "Replace")

CONTROLLER_UID_LABEL: Final = "batch.kubernetes.io/controller-uid"
JOB_NAME_LABEL: Final = "batch.kubernetes.io/job-name"
LEGACY_CONTROLLER_UID_LABEL: Final = "controller-uid"
LEGACY_JOB_NAME_LABEL: Final = "job-name"


@attrs.frozen
class JobValidationOptions:
    """JobValidationOptions (the pod-validation options that matter here are folded in; `pod`
    carries the release and its restart-rule options)."""

    allow_mutable_scheduling_directives: bool = False
    require_prefixed_labels: bool = True
    allow_invalid_label_value_in_selector: bool = False
    allow_mutable_pod_resources: bool = False
    pod: PodValidationOptions = DEFAULT_POD_OPTIONS

    @property
    def release(self) -> int:
        """The release whose error messages are given (not upstream's)."""
        return self.pod.release


# ---------------------------------------------------------------------------- Job create


def validate_generated_selector(
    job: Mapping[str, Any], validate_batch_labels: bool, release: int = NEWEST_MINOR
) -> list[FieldError]:
    """validateGeneratedSelector: an automatic selector must be the generated one."""
    spec = job.get("spec") or {}
    if spec.get("manualSelector") is True or spec.get("selector") is None:
        return []
    meta = job.get("metadata") or {}
    uid, name = str(meta.get("uid") or ""), str(meta.get("name") or "")
    errs: list[FieldError] = []
    if not uid:
        errs.append(fe.required("metadata.uid"))
    template_meta = (spec.get("template") or {}).get("metadata") or {}
    tpath = "spec.template.metadata"
    errs.extend(mv.validate_has_label(template_meta, tpath, LEGACY_CONTROLLER_UID_LABEL, uid, release))
    errs.extend(mv.validate_has_label(template_meta, tpath, LEGACY_JOB_NAME_LABEL, name, release))
    expected: dict[str, str] = {}
    if validate_batch_labels:
        errs.extend(mv.validate_has_label(template_meta, tpath, CONTROLLER_UID_LABEL, uid, release))
        errs.extend(mv.validate_has_label(template_meta, tpath, JOB_NAME_LABEL, name, release))
        expected = {CONTROLLER_UID_LABEL: uid, JOB_NAME_LABEL: name}
    expected |= {LEGACY_CONTROLLER_UID_LABEL: uid, LEGACY_JOB_NAME_LABEL: name}
    if mv.label_selector_matches(spec["selector"], expected) is False:
        errs.append(fe.invalid("spec.selector", mv.label_selector_value(spec["selector"], release), "`selector` not auto-generated"))
    return errs


def validate_job(job: Mapping[str, Any], opts: JobValidationOptions) -> list[FieldError]:
    """ValidateJob."""
    meta = job.get("metadata") or {}
    spec = job.get("spec") or {}
    errs = mv.validate_object_meta(meta, release=opts.release)
    errs.extend(validate_generated_selector(job, opts.require_prefixed_labels, opts.release))
    errs.extend(validate_job_spec(spec, "spec", opts))
    errs.extend(validate_name_allows_completions(job))
    return errs


def validate_name_allows_completions(job: Mapping[str, Any]) -> list[FieldError]:
    """validateNameAllowsCompletions (inside ValidateJob up to 1.36): the controller appends
    `-<index>` to the hostname of an Indexed Job's pods."""
    meta, spec = job.get("metadata") or {}, job.get("spec") or {}
    completions = spec.get("completions")
    if spec.get("completionMode") == "Indexed" and completions is not None and completions > 0:
        hostname = f"{meta.get('name', '')}-{completions - 1}"
        if mv.is_dns1123_label(hostname):
            return [
                fe.invalid(
                    "metadata.name",
                    meta.get("name", ""),
                    f"will not able to create pod with invalid DNS label: {hostname}",
                )
            ]
    return []


def validate_job_spec(
    spec: Mapping[str, Any], path: str, opts: JobValidationOptions
) -> list[FieldError]:
    """ValidateJobSpec: the spec rules, the selector, and the selector matching the template labels."""
    errs = _validate_job_spec(spec, path, opts.pod)
    selector = spec.get("selector")
    if selector is None:
        errs.append(fe.required(fe.child(path, "selector")))
    else:
        errs.extend(
            mv.validate_label_selector(
                selector,
                fe.child(path, "selector"),
                opts.allow_invalid_label_value_in_selector,
                opts.release,
            )
        )
    labels = ((spec.get("template") or {}).get("metadata") or {}).get("labels")
    if mv.label_selector_matches(selector, labels) is False:
        errs.append(
            fe.invalid(
                fe.child(path, "template", "metadata", "labels"),
                fe.string_map(labels, opts.release),
                "`selector` does not match template `labels`",
            )
        )
    return errs


def _validate_job_spec(
    spec: Mapping[str, Any], path: str, pod_opts: PodValidationOptions = DEFAULT_POD_OPTIONS
) -> list[FieldError]:
    """validateJobSpec: counts, limits, completion mode, policies and the pod template."""
    release = pod_opts.release
    errs: list[FieldError] = []
    for name in (
        "parallelism",
        "completions",
        "activeDeadlineSeconds",
        "backoffLimit",
        "ttlSecondsAfterFinished",
        "backoffLimitPerIndex",
    ):
        if spec.get(name) is not None:
            errs.extend(mv.validate_nonnegative_field(spec[name], fe.child(path, name)))
    per_index = spec.get("backoffLimitPerIndex")
    max_failed = spec.get("maxFailedIndexes")
    if max_failed is not None:
        errs.extend(mv.validate_nonnegative_field(max_failed, fe.child(path, "maxFailedIndexes")))
        if per_index is None:
            errs.append(
                fe.required(
                    fe.child(path, "backoffLimitPerIndex"), "when maxFailedIndexes is specified"
                )
            )
    managed_by = spec.get("managedBy")
    if managed_by is not None:
        errs.extend(mv.is_domain_prefixed_path(fe.child(path, "managedBy"), managed_by))
        if go_len(managed_by) > MAX_MANAGED_BY_LENGTH:
            errs.append(fe.too_long(fe.child(path, "managedBy"), MAX_MANAGED_BY_LENGTH))
    mode = spec.get("completionMode")
    if mode is not None:
        if mode not in ("NonIndexed", "Indexed"):
            errs.append(
                fe.not_supported(fe.child(path, "completionMode"), fe.named(mode, release), ["NonIndexed", "Indexed"])
            )
        if mode == "Indexed":
            errs.extend(_validate_indexed_limits(spec, path))
    if mode is None or mode == "NonIndexed":
        if per_index is not None:
            errs.append(
                fe.invalid(
                    fe.child(path, "backoffLimitPerIndex"),
                    per_index,
                    "requires indexed completion mode",
                )
            )
        if max_failed is not None:
            errs.append(
                fe.invalid(
                    fe.child(path, "maxFailedIndexes"),
                    max_failed,
                    "requires indexed completion mode",
                )
            )
    if spec.get("podFailurePolicy") is not None:
        errs.extend(validate_pod_failure_policy(spec, fe.child(path, "podFailurePolicy"), release))
    if spec.get("successPolicy") is not None:
        if mode != "Indexed":
            errs.append(
                fe.invalid(
                    fe.child(path, "successPolicy"),
                    fe.go_struct(internal_success_policy(spec["successPolicy"]), release),
                    "requires indexed completion mode",
                )
            )
        else:
            errs.extend(validate_success_policy(spec, fe.child(path, "successPolicy")))
    errs.extend(validate_pod_replacement_policy(spec, fe.child(path, "podReplacementPolicy"), release))
    errs.extend(validate_gang_min_count(spec, fe.child(path, "scheduling")))
    errs.extend(validate_job_scheduling(spec, fe.child(path, "scheduling")))
    template = spec.get("template") or {}
    errs.extend(validate_pod_template_spec(template, fe.child(path, "template"), pod_opts))
    restart = (template.get("spec") or {}).get("restartPolicy", "")
    restart_path = fe.child(path, "template", "spec", "restartPolicy")
    # An unset restartPolicy is defaulted to Always, so both are refused the same way.
    if restart in ("Always", ""):
        errs.append(fe.required(restart_path, 'valid values: "OnFailure", "Never"'))
    elif restart not in ("OnFailure", "Never"):
        errs.append(fe.not_supported(restart_path, fe.named(restart, release), ["OnFailure", "Never"]))
    elif spec.get("podFailurePolicy") is not None and restart != "Never":
        errs.append(
            fe.invalid(
                restart_path,
                fe.named(restart, release),
                'only "Never" is supported when podFailurePolicy is specified',
            )
        )
    return errs


def _at_most(path: str, value: int | None, limit: int | None, suffix: str = "", bound: str | None = None) -> list[FieldError]:
    """Invalid when both are set and `value` is above `limit`: "must be less than or equal to"
    the limit (or `bound`, upstream's name for it), then `suffix`."""
    if value is None or limit is None or value <= limit:
        return []
    detail = f"must be less than or equal to {limit if bound is None else bound}"
    return [fe.invalid(path, value, f"{detail} {suffix}" if suffix else detail)]


def _validate_indexed_limits(spec: Mapping[str, Any], path: str) -> list[FieldError]:
    """The Indexed branch of validateJobSpec: completions required, caps on parallelism and failed indexes."""
    errs: list[FieldError] = []
    parallelism, completions = spec.get("parallelism"), spec.get("completions")
    per_index, max_failed = spec.get("backoffLimitPerIndex"), spec.get("maxFailedIndexes")
    if completions is None:
        errs.append(fe.required(fe.child(path, "completions"), "when completion mode is Indexed"))
    errs += _at_most(fe.child(path, "parallelism"), parallelism, MAX_PARALLELISM_FOR_INDEXED_JOB, "when completion mode is Indexed")
    errs += _at_most(fe.child(path, "maxFailedIndexes"), max_failed, completions, bound="completions")
    errs += _at_most(fe.child(path, "maxFailedIndexes"), max_failed, MAX_FAILED_INDEXES_FOR_INDEXED_JOB)
    if completions is not None and completions > COMPLETIONS_SOFT_LIMIT and per_index is not None:
        suffix = f"when completions are above {COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index"
        if max_failed is None:
            errs.append(
                fe.required(
                    fe.child(path, "maxFailedIndexes"),
                    f"must be specified when completions is above {COMPLETIONS_SOFT_LIMIT}",
                )
            )
        errs += _at_most(fe.child(path, "parallelism"), parallelism, PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS, suffix)
        errs += _at_most(fe.child(path, "maxFailedIndexes"), max_failed, MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS, suffix)
    return errs


def validate_pod_failure_policy(
    spec: Mapping[str, Any], path: str, release: int = NEWEST_MINOR
) -> list[FieldError]:
    """validatePodFailurePolicy."""
    rules = (spec.get("podFailurePolicy") or {}).get("rules") or []
    rules_path = fe.child(path, "rules")
    errs: list[FieldError] = []
    if len(rules) > MAX_POD_FAILURE_POLICY_RULES:
        errs.append(fe.too_many(rules_path, len(rules), MAX_POD_FAILURE_POLICY_RULES))
    pod_spec = (spec.get("template") or {}).get("spec") or {}
    names = {
        c.get("name", "")
        for c in (pod_spec.get("containers") or []) + (pod_spec.get("initContainers") or [])
    }
    for i, rule in enumerate(rules):
        errs.extend(
            validate_pod_failure_policy_rule(spec, rule, fe.index(rules_path, i), names, release)
        )
    return errs


def validate_pod_replacement_policy(spec: Mapping[str, Any], path: str, release: int = NEWEST_MINOR) -> list[FieldError]:
    """validatePodReplacementPolicy: only `Failed` together with a podFailurePolicy."""
    policy = spec.get("podReplacementPolicy")
    if policy is None:
        return []
    if spec.get("podFailurePolicy") is not None:
        return [] if policy == "Failed" else [fe.not_supported(path, fe.named(policy, release), ["Failed"])]
    return (
        []
        if policy in POD_REPLACEMENT_POLICIES
        else [fe.not_supported(path, fe.named(policy, release), POD_REPLACEMENT_POLICIES)]
    )


def _quoted_list(values: tuple[str, ...]) -> str:
    """Go's `%q` of a []string: `["a" "b"]`."""
    return "[" + " ".join(f'"{v}"' for v in values) + "]"


def _one_of(value: str, path: str, valid: tuple[str, ...], release: int) -> list[FieldError]:
    """Required (naming the valid values) when empty, NotSupported when not one of them (the
    value is of a named string type)."""
    if value == "":
        return [fe.required(path, f"valid values: {_quoted_list(valid)}")]
    return [] if value in valid else [fe.not_supported(path, fe.named(value, release), valid)]


def validate_pod_failure_policy_rule(
    spec: Mapping[str, Any],
    rule: Mapping[str, Any],
    path: str,
    container_names: set[str],
    release: int = NEWEST_MINOR,
) -> list[FieldError]:
    """validatePodFailurePolicyRule."""
    errs: list[FieldError] = []
    action = rule.get("action", "")
    action_path = fe.child(path, "action")
    errs.extend(_one_of(action, action_path, POD_FAILURE_POLICY_ACTIONS, release))
    if action == "FailIndex" and spec.get("backoffLimitPerIndex") is None:
        errs.append(fe.invalid(action_path, fe.named(action, release), "requires the backoffLimitPerIndex to be set"))
    on_exit = rule.get("onExitCodes")
    on_conditions = rule.get("onPodConditions") or []
    if on_exit is not None:
        errs.extend(
            validate_pod_failure_policy_rule_on_exit_codes(
                on_exit, fe.child(path, "onExitCodes"), container_names, release
            )
        )
    if on_conditions:
        errs.extend(
            validate_pod_failure_policy_rule_on_pod_conditions(
                on_conditions, fe.child(path, "onPodConditions"), release
            )
        )
    if on_exit is not None and on_conditions:
        errs.append(
            fe.invalid(
                path, fe.OMIT, "specifying both OnExitCodes and OnPodConditions is not supported"
            )
        )
    if on_exit is None and not on_conditions:
        errs.append(
            fe.invalid(
                path, fe.OMIT, "specifying one of OnExitCodes and OnPodConditions is required"
            )
        )
    return errs


def validate_pod_failure_policy_rule_on_pod_conditions(
    patterns: list[Mapping[str, Any]], path: str, release: int = NEWEST_MINOR
) -> list[FieldError]:
    """validatePodFailurePolicyRuleOnPodConditions."""
    errs: list[FieldError] = []
    if len(patterns) > MAX_POD_FAILURE_POLICY_ON_POD_CONDITIONS_PATTERNS:
        errs.append(
            fe.too_many(path, len(patterns), MAX_POD_FAILURE_POLICY_ON_POD_CONDITIONS_PATTERNS)
        )
    for j, pattern in enumerate(patterns):
        pattern_path = fe.index(path, j)
        errs.extend(
            mv.validate_qualified_name(pattern.get("type", ""), fe.child(pattern_path, "type"), release)
        )
        errs.extend(_one_of(pattern.get("status", ""), fe.child(pattern_path, "status"), CONDITION_STATUSES, release))
    return errs


def validate_pod_failure_policy_rule_on_exit_codes(
    on_exit: Mapping[str, Any], path: str, container_names: set[str], release: int = NEWEST_MINOR
) -> list[FieldError]:
    """validatePodFailurePolicyRuleOnExitCodes."""
    errs: list[FieldError] = []
    operator = on_exit.get("operator", "")
    errs.extend(_one_of(operator, fe.child(path, "operator"), ON_EXIT_CODES_OPERATORS, release))
    container = on_exit.get("containerName")
    if container is not None and container not in container_names:
        errs.append(
            fe.invalid(
                fe.child(path, "containerName"),
                container,
                "must be one of the container or initContainer names in the pod template",
            )
        )
    values: list[int] = on_exit.get("values") or []
    values_path = fe.child(path, "values")
    if not values:
        errs.append(fe.invalid(values_path, fe.go_slice(on_exit.get("values"), "[]int32", release), "at least one value is required"))
    elif len(values) > MAX_POD_FAILURE_POLICY_ON_EXIT_CODES_VALUES:
        errs.append(
            fe.too_many(values_path, len(values), MAX_POD_FAILURE_POLICY_ON_EXIT_CODES_VALUES)
        )
    seen: set[int] = set()
    ordered = True
    for j, value in enumerate(values):
        value_path = fe.index(values_path, j)
        if operator == "In" and value == 0:
            errs.append(fe.invalid(value_path, value, "must not be 0 for the In operator"))
        errs.extend(fe.unique(value_path, value, seen))
        if j > 0 and values[j - 1] > value:
            ordered = False
    if not ordered:
        errs.append(fe.invalid(values_path, fe.go_slice(values, "[]int32", release), "must be ordered"))
    return errs


def internal_pod_failure_policy(policy: Mapping[str, Any]) -> fe.GoStruct:
    """The internal batch.PodFailurePolicy (`pkg/apis/batch/types.go`, no json tags), printed with
    `fe.go_struct` (json.Marshal from v1.34, `%#v` before unless an onExitCodes pointer is set)."""

    def on_exit(req: Mapping[str, Any] | None) -> fe.GoStruct | None:
        if req is None:
            return None
        return fe.GoStruct((("ContainerName", req.get("containerName")), ("Operator", req.get("operator", "")), ("Values", req.get("values"))))  # behind a pointer: %#v prints its address

    def rule(r: Mapping[str, Any]) -> fe.GoStruct:
        patterns = r.get("onPodConditions")
        shown = (
            None
            if patterns is None
            else [
                fe.GoStruct((("Type", p.get("type", "")), ("Status", p.get("status", ""))), "batch.PodFailurePolicyOnPodConditionsPattern", ("api.PodConditionType", "api.ConditionStatus"))
                for p in patterns
            ]
        )
        return fe.GoStruct(
            (("Action", r.get("action", "")), ("OnExitCodes", on_exit(r.get("onExitCodes"))), ("OnPodConditions", shown)),
            "batch.PodFailurePolicyRule",
            ("batch.PodFailurePolicyAction", "*batch.PodFailurePolicyOnExitCodesRequirement", "[]batch.PodFailurePolicyOnPodConditionsPattern"),
        )

    rules = policy.get("rules")
    return fe.GoStruct((("Rules", None if rules is None else [rule(r) for r in rules]),), "batch.PodFailurePolicy", ("[]batch.PodFailurePolicyRule",))


def internal_success_policy(policy: Mapping[str, Any]) -> fe.GoStruct:
    """The internal batch.SuccessPolicy (`pkg/apis/batch/types.go`) that validateJobSpec reports as
    the bad value, printed with `fe.go_struct` (json.Marshal from v1.34, `%#v` before)."""
    rules = policy.get("rules")
    internal_rules = (
        None
        if rules is None
        else [
            fe.GoStruct(
                (("SucceededIndexes", rule.get("succeededIndexes")), ("SucceededCount", rule.get("succeededCount"))),
                "batch.SuccessPolicyRule",
                ("*string", "*int32"),
            )
            for rule in rules
        ]
    )
    return fe.GoStruct((("Rules", internal_rules),), "batch.SuccessPolicy", ("[]batch.SuccessPolicyRule",))


def validate_success_policy(spec: Mapping[str, Any], path: str) -> list[FieldError]:
    """validateSuccessPolicy."""
    rules = (spec.get("successPolicy") or {}).get("rules") or []
    rules_path = fe.child(path, "rules")
    errs: list[FieldError] = []
    if not rules:
        errs.append(
            fe.required(
                rules_path,
                "at least one rules must be specified when the successPolicy is specified",
            )
        )
    if len(rules) > MAX_SUCCESS_POLICY_RULES:
        errs.append(fe.too_many(rules_path, len(rules), MAX_SUCCESS_POLICY_RULES))
    for i, rule in enumerate(rules):
        errs.extend(validate_success_policy_rule(spec, rule, fe.index(rules_path, i)))
    return errs


def validate_success_policy_rule(
    spec: Mapping[str, Any], rule: Mapping[str, Any], path: str
) -> list[FieldError]:
    """validateSuccessPolicyRule."""
    errs: list[FieldError] = []
    count, indexes = rule.get("succeededCount"), rule.get("succeededIndexes")
    if count is None and indexes is None:
        return [
            fe.required(
                path, "at least one of succeededCount or succeededIndexes must be specified"
            )
        ]
    completions = spec.get("completions")
    if completions is None:
        # Upstream reads *spec.Completions unguarded (every line up to v1.35): a panic.
        raise fe.ServerPanic(fe.child(_spec_path(path), "completions"), "validateSuccessPolicyRule")
    total = 0
    if indexes is not None:
        indexes_path = fe.child(path, "succeededIndexes")
        if go_len(indexes) > MAX_SUCCEEDED_INDEXES_LENGTH:
            errs.append(fe.too_long(indexes_path, MAX_SUCCEEDED_INDEXES_LENGTH))
        try:
            total = validate_indexes_format(indexes, completions)
        except IndexesFormatError as err:
            errs.append(fe.invalid(indexes_path, indexes, f"error parsing succeededIndexes: {err}"))
    if count is not None:
        count_path = fe.child(path, "succeededCount")
        errs.extend(mv.validate_nonnegative_field(count, count_path))
        errs += _at_most(count_path, count, completions, "(the number of specified completions)")
        if indexes is not None:
            errs += _at_most(count_path, count, total, "(the number of indexes in the specified succeededIndexes field)")
    return errs


def _spec_path(rule_path: str) -> str:
    """`spec` (or `spec.jobTemplate.spec`) from a success-policy rule's path."""
    return rule_path.rsplit(".successPolicy", 1)[0]


# ---------------------------------------------------------------------------- index strings


class IndexesFormatError(ValueError):
    """A malformed index-interval string (`1,3-5`), with upstream's message."""


def parse_index_interval(interval: str, completions: int) -> tuple[int, int]:
    """parseIndexInterval: `x` or `x-y`, each below completions, x < y (the fragments `%q`-quoted)."""
    limits = interval.split("-")
    if len(limits) > 2:
        raise IndexesFormatError(
            f"the fragment {go_quote(interval)} violates the requirement that an index interval can have at most two parts separated by '-'"
        )
    try:
        x = go_parse_int(limits[0])
    except ValueError:
        raise IndexesFormatError(
            f"cannot convert string to integer for index: {go_quote(limits[0])}"
        ) from None
    if x >= completions:
        raise IndexesFormatError(f"too large index: {go_quote(limits[0])}")
    if len(limits) == 1:
        return x, x
    try:
        y = go_parse_int(limits[1])
    except ValueError:
        raise IndexesFormatError(
            f"cannot convert string to integer for index: {go_quote(limits[1])}"
        ) from None
    if y >= completions:
        raise IndexesFormatError(f"too large index: {go_quote(limits[1])}")
    if x >= y:
        raise IndexesFormatError(f"non-increasing order, previous: {x}, current: {y}")
    return x, y


def validate_indexes_format(indexes: str, completions: int) -> int:
    """validateIndexesFormat: the number of indexes in the string; raises IndexesFormatError."""
    if not indexes:
        return 0
    last: int | None = None
    total = 0
    for interval in indexes.split(","):
        x, y = parse_index_interval(interval, completions)
        if last is not None and last >= x:
            raise IndexesFormatError(f"non-increasing order, previous: {last}, current: {x}")
        total += y - x + 1
        last = y
    return total


def validate_failed_indexes_not_overlap_completed(
    completed: str, failed: str, completions: int
) -> str | None:
    """validateFailedIndexesNotOverlapCompleted: the overlap message, or None."""
    if not completed or not failed:
        return None

    def parsed(items: list[str]) -> list[tuple[int, int]]:
        out = []
        for item in items:
            try:
                out.append(parse_index_interval(item, completions))
            except IndexesFormatError:
                continue  # reported when the format is validated
        return out

    cs, fs = parsed(completed.split(",")), parsed(failed.split(","))
    ci = fi = 0
    while ci < len(cs) and fi < len(fs):
        (cx, cy), (fx, fy) = cs[ci], fs[fi]
        if cx <= fy and fx <= cy:
            return f"failedIndexes and completedIndexes overlap at index: {max(cx, fx)}"
        if cx <= fx:
            ci += 1
        else:
            fi += 1
    return None


# ---------------------------------------------------------------------------- Job update


def validate_job_update(
    job: Mapping[str, Any], old: Mapping[str, Any], opts: JobValidationOptions
) -> list[FieldError]:
    """ValidateJobUpdate."""
    errs = mv.validate_object_meta_update(
        job.get("metadata") or {}, old.get("metadata") or {}, release=opts.release
    )
    errs.extend(
        validate_job_spec_update(job.get("spec") or {}, old.get("spec") or {}, "spec", opts)
    )
    return errs


def validate_job_spec_update(
    spec: Mapping[str, Any], old: Mapping[str, Any], path: str, opts: JobValidationOptions
) -> list[FieldError]:
    """ValidateJobSpecUpdate: the spec again, then the immutable fields."""
    errs = validate_job_spec(spec, path, opts)
    errs.extend(validate_completions(spec, old, fe.child(path, "completions"), opts.release))
    release = opts.release
    errs.extend(
        mv.validate_immutable_field(
            spec.get("selector"), old.get("selector"), fe.child(path, "selector"),
            shown=lambda s: fe.pointer(None if s is None else mv.label_selector_value(s, release), release),
        )
    )
    errs.extend(validate_pod_template_update(spec, old, path, opts))
    # Each field's bad value as its Go type prints (all pointers: nil is fe.pointer's).
    shown: dict[str, Callable[[Any], Any]] = {
        "completionMode": lambda v: fe.pointer(fe.named(v, release), release),
        "podFailurePolicy": lambda v: fe.pointer(None if v is None else fe.go_struct(internal_pod_failure_policy(v), release), release),
        "backoffLimitPerIndex": lambda v: fe.pointer(v, release),
        "managedBy": lambda v: fe.pointer(fe.named(v, release), release),  # a *string
        "successPolicy": lambda v: fe.pointer(None if v is None else fe.go_struct(internal_success_policy(v), release), release),
    }
    for name, show in shown.items():
        errs.extend(mv.validate_immutable_field(spec.get(name), old.get(name), fe.child(path, name), shown=show))
    errs.extend(validate_job_scheduling_update(spec, old, fe.child(path, "scheduling")))
    return errs


def validate_completions(
    spec: Mapping[str, Any], old: Mapping[str, Any], path: str, release: int = NEWEST_MINOR
) -> list[FieldError]:
    """validateCompletions: immutable, except that an Indexed Job scales completions with parallelism."""
    new_c, old_c = spec.get("completions"), old.get("completions")
    if spec.get("completionMode") != "Indexed":
        return mv.validate_immutable_field(new_c, old_c, path, shown=lambda v: fe.pointer(v, release))  # a *int32
    if new_c == old_c or new_c is None:
        return []
    if spec.get("parallelism") is None:
        # Upstream compares with *spec.Parallelism unguarded; decoding always defaults it, so only
        # an object validated without defaults gets here.
        raise fe.ServerPanic(path.rsplit(".", 1)[0] + ".parallelism", "validateCompletions")
    if new_c != spec.get("parallelism"):
        return [fe.invalid(path, new_c, "can only be modified in tandem with spec.parallelism")]
    return []


def validate_pod_template_update(
    spec: Mapping[str, Any], old: Mapping[str, Any], path: str, opts: JobValidationOptions
) -> list[FieldError]:
    """validatePodTemplateUpdate: the template is immutable, but a suspended Job that never started may
    change its scheduling directives (node affinity, node selector, tolerations, labels, annotations,
    scheduling gates), and from 1.35 (MutablePodResourcesForSuspendedJobs) a suspended Job whose
    options allow it only its pod spec is compared, but for the containers' resources."""
    template: dict[str, Any] = copy.deepcopy(dict(spec.get("template") or {}))
    old_template: dict[str, Any] = copy.deepcopy(dict(old.get("template") or {}))
    # Upstream compares the internal templates: the service account's alias is resolved, and up to
    # 1.36 the pod's security context is always there.
    for pod_template in (template, old_template):
        if opts.release < 37 and pod_template.get("spec") is None:
            pod_template["spec"] = {}  # converted from the zero v1 PodSpec all the same
        if isinstance(pod_template.get("spec"), dict):
            internal_service_account(pod_template["spec"], opts.release)
            internal_pod_security_context(pod_template["spec"], opts.release)
    if opts.allow_mutable_scheduling_directives:
        new_pod = template.setdefault("spec", {})
        old_pod = old_template.setdefault("spec", {})
        new_aff, old_aff = new_pod.get("affinity"), old_pod.get("affinity")
        if new_aff is None and old_aff is not None:
            old_aff.pop("nodeAffinity", None)
            if not old_aff:
                old_pod.pop("affinity")
        elif new_aff is not None and old_aff is None:
            old_pod["affinity"] = {"nodeAffinity": new_aff.get("nodeAffinity")}
        elif new_aff is not None and old_aff is not None:
            old_aff["nodeAffinity"] = new_aff.get("nodeAffinity")
        for key in ("nodeSelector", "tolerations", "schedulingGates"):
            _copy_key(new_pod, old_pod, key)
        new_meta = template.setdefault("metadata", {})
        old_meta = old_template.setdefault("metadata", {})
        for key in ("annotations", "labels"):
            _copy_key(new_meta, old_meta, key)
    if old.get("suspend") is True and opts.allow_mutable_pod_resources:
        return validate_pod_resource_updates_only(
            template.get("spec") or {}, old_template.get("spec") or {}, fe.child(path, "template.spec")
        )
    return mv.validate_immutable_field(template, old_template, fe.child(path, "template"))


def validate_pod_resource_updates_only(
    new_pod: Mapping[str, Any], old_pod: Mapping[str, Any], path: str
) -> list[FieldError]:
    """validatePodResourceUpdatesOnly (1.35+): the pod spec is immutable but for the resources of
    the containers (and init containers) whose list keeps its length and whose name is unchanged."""
    old_copy: dict[str, Any] = copy.deepcopy(dict(old_pod))
    for key in ("containers", "initContainers"):
        new_list, old_list = new_pod.get(key) or [], old_copy.get(key) or []
        if len(new_list) == len(old_list):
            for new_ctr, old_ctr in zip(new_list, old_list, strict=True):
                if old_ctr.get("name") == new_ctr.get("name"):
                    _copy_key(new_ctr, old_ctr, "resources")
    return mv.validate_immutable_field(new_pod, old_copy, path)


def _copy_key(src: Mapping[str, Any], dst: dict[str, Any], key: str) -> None:
    if key in src:
        dst[key] = copy.deepcopy(src[key])
    else:
        dst.pop(key, None)


# ---------------------------------------------------------------------------- Job status


def is_condition_true(job: Mapping[str, Any], ctype: str) -> bool:
    """IsConditionTrue."""
    conditions = (job.get("status") or {}).get("conditions") or []
    return any(c.get("type") == ctype and c.get("status") == "True" for c in conditions)


def is_job_finished(job: Mapping[str, Any]) -> bool:
    """IsJobFinished."""
    return is_condition_true(job, "Complete") or is_condition_true(job, "Failed")


@attrs.frozen
class JobStatusValidationOptions:
    """JobStatusValidationOptions; `release` (not upstream's) picks the release's error messages."""

    release: int = NEWEST_MINOR

    reject_decreasing_succeeded_counter: bool = False
    reject_decreasing_failed_counter: bool = False
    reject_disabling_terminal_condition: bool = False
    reject_invalid_completed_indexes: bool = False
    reject_invalid_failed_indexes: bool = False
    reject_failed_indexes_overlapping_completed: bool = False
    reject_completed_indexes_for_non_indexed_job: bool = False
    reject_failed_indexes_for_no_backoff_limit_per_index: bool = False
    reject_failed_job_without_failure_target: bool = False
    reject_complete_job_without_success_criteria_met: bool = False
    reject_finished_job_with_active_pods: bool = False
    reject_finished_job_without_start_time: bool = False
    reject_finished_job_with_uncounted_terminated_pods: bool = False
    reject_start_time_update_for_unsuspended_job: bool = False
    reject_completion_time_before_start_time: bool = False
    reject_mutating_completion_time: bool = False
    reject_complete_job_without_completion_time: bool = False
    reject_not_complete_job_with_completion_time: bool = False
    reject_complete_job_with_failed_condition: bool = False
    reject_complete_job_with_failure_target_condition: bool = False
    allow_for_success_criteria_met_in_extended_scope: bool = False
    reject_more_ready_than_active_pods: bool = False
    reject_finished_job_with_terminating_pods: bool = False


def _validate_uncounted(status: Mapping[str, Any], path: str) -> list[FieldError]:
    uncounted = status.get("uncountedTerminatedPods")
    if uncounted is None:
        return []
    errs: list[FieldError] = []
    seen: set[str] = set()
    for kind in ("succeeded", "failed"):
        for i, uid in enumerate(uncounted.get(kind) or []):
            p = fe.index(fe.child(path, "uncountedTerminatedPods", kind), i)
            if uid == "":
                errs.append(fe.invalid(p, uid, "must not be empty"))
            else:
                errs.extend(fe.unique(p, uid, seen))
    return errs


def status_time(status: Mapping[str, Any], name: str) -> int | None:
    """A metav1.Time of the status as a point in time (compared as times, not strings), at Go's
    nanosecond precision: 1 ns apart is a change, and before (immutability, order)."""
    value = status.get(name)
    return None if value is None else parse_time_nanos(value, f"status.{name}")


def status_time_value(status: Mapping[str, Any], name: str, release: int) -> Any:
    """A status time (*metav1.Time) as a bad value (meta_validation.time_value)."""
    return mv.time_value(status_time(status, name), release, pointer=True)


def uncounted_value(uncounted: Mapping[str, Any], release: int) -> Any:
    """The internal *batch.UncountedTerminatedPods bad value as ErrorBody prints it: `%#v` before
    v1.34, json.Marshal (Go field names, no json tags) from v1.34."""
    succeeded, failed = uncounted.get("succeeded"), uncounted.get("failed")
    if release >= 34:
        return fe.GoStruct((("Succeeded", succeeded), ("Failed", failed)))
    return fe.GoSyntax(
        f"batch.UncountedTerminatedPods{{Succeeded:{fe.go_syntax_slice(succeeded, '[]types.UID')}, "
        f"Failed:{fe.go_syntax_slice(failed, '[]types.UID')}}}"
    )


def validate_job_status(
    job: Mapping[str, Any], path: str, opts: JobStatusValidationOptions
) -> list[FieldError]:
    """validateJobStatus."""
    status = job.get("status") or {}
    spec = job.get("spec") or {}
    errs: list[FieldError] = []
    active = status.get("active") or 0
    for name in ("active", "succeeded", "failed"):
        errs.extend(mv.validate_nonnegative_field(status.get(name) or 0, fe.child(path, name)))
    for name in ("ready", "terminating"):
        if status.get(name) is not None:
            errs.extend(mv.validate_nonnegative_field(status[name], fe.child(path, name)))
    errs.extend(_validate_uncounted(status, path))
    complete, failed = is_condition_true(job, "Complete"), is_condition_true(job, "Failed")
    failure_target = is_condition_true(job, "FailureTarget")
    success_met = is_condition_true(job, "SuccessCriteriaMet")
    finished = complete or failed
    conditions = fe.child(path, "conditions")
    start, completion = status_time(status, "startTime"), status_time(status, "completionTime")
    if opts.reject_complete_job_with_failed_condition and complete and failed:
        errs.append(
            fe.invalid(conditions, fe.OMIT, "cannot set Complete=True and Failed=true conditions")
        )
    if opts.reject_complete_job_with_failure_target_condition and complete and failure_target:
        errs.append(
            fe.invalid(
                conditions, fe.OMIT, "cannot set Complete=True and FailureTarget=true conditions"
            )
        )
    if (
        opts.reject_not_complete_job_with_completion_time
        and completion is not None
        and not complete
    ):
        errs.append(
            fe.invalid(
                fe.child(path, "completionTime"),
                status_time_value(status, "completionTime", opts.release),
                "cannot set completionTime when there is no Complete=True condition",
            )
        )
    if opts.reject_complete_job_without_completion_time and completion is None and complete:
        errs.append(
            fe.required(
                fe.child(path, "completionTime"), "completionTime is required for Complete jobs"
            )
        )
    if (
        opts.reject_completion_time_before_start_time
        and start is not None
        and completion is not None
        and completion < start
    ):
        errs.append(
            fe.invalid(
                fe.child(path, "completionTime"),
                status_time_value(status, "completionTime", opts.release),
                "must be equal to or after `startTime`" if opts.release >= 34 else "completionTime cannot be set before startTime",
            )
        )
    if opts.reject_failed_job_without_failure_target and failed and not failure_target:
        errs.append(
            fe.invalid(
                conditions,
                fe.OMIT,
                "cannot set Failed=True condition without the FailureTarget=true condition",
            )
        )
    if opts.reject_complete_job_without_success_criteria_met and complete and not success_met:
        errs.append(
            fe.invalid(
                conditions,
                fe.OMIT,
                "cannot set Complete=True condition without the SuccessCriteriaMet=true condition",
            )
        )
    if opts.reject_finished_job_with_active_pods and active > 0 and finished:
        errs.append(
            fe.invalid(fe.child(path, "active"), active, "active>0 is invalid for finished job")
        )
    if opts.reject_finished_job_without_start_time and start is None and finished:
        errs.append(
            fe.required(fe.child(path, "startTime"), "startTime is required for finished job")
        )
    uncounted = status.get("uncountedTerminatedPods") or {}
    if (
        opts.reject_finished_job_with_uncounted_terminated_pods
        and finished
        and (uncounted.get("failed") or uncounted.get("succeeded"))
    ):
        errs.append(
            fe.invalid(
                fe.child(path, "uncountedTerminatedPods"),
                uncounted_value(uncounted, opts.release),
                "must be empty for finished job" if opts.release >= 34 else "uncountedTerminatedPods needs to be empty for finished job",
            )
        )
    completions = spec.get("completions")
    completed_indexes = status.get("completedIndexes") or ""
    failed_indexes = status.get("failedIndexes")
    if opts.reject_invalid_completed_indexes and completions is not None:
        try:
            validate_indexes_format(completed_indexes, completions)
        except IndexesFormatError as err:
            errs.append(
                fe.invalid(
                    fe.child(path, "completedIndexes"),
                    completed_indexes,
                    f"error parsing completedIndexes: {err}",
                )
            )
    if (
        opts.reject_invalid_failed_indexes
        and completions is not None
        and spec.get("backoffLimitPerIndex") is not None
        and failed_indexes is not None
    ):
        try:
            validate_indexes_format(failed_indexes, completions)
        except IndexesFormatError as err:
            errs.append(
                fe.invalid(
                    fe.child(path, "failedIndexes"),
                    fe.named(failed_indexes, opts.release),  # a *string
                    f"error parsing failedIndexes: {err}",
                )
            )
    indexed = spec.get("completionMode") == "Indexed"
    if opts.reject_completed_indexes_for_non_indexed_job and completed_indexes and not indexed:
        errs.append(
            fe.invalid(
                fe.child(path, "completedIndexes"),
                completed_indexes,
                "cannot set non-empty completedIndexes when non-indexed completion mode",
            )
        )
    if (
        opts.reject_failed_indexes_for_no_backoff_limit_per_index
        and spec.get("backoffLimitPerIndex") is None
        and failed_indexes is not None
    ):
        errs.append(
            fe.invalid(
                fe.child(path, "failedIndexes"),
                failed_indexes,
                "cannot set non-null failedIndexes when backoffLimitPerIndex is null",
            )
        )
    if (
        opts.reject_failed_indexes_overlapping_completed
        and completions is not None
        and failed_indexes is not None
    ):
        overlap = validate_failed_indexes_not_overlap_completed(
            completed_indexes, failed_indexes, completions
        )
        if overlap:
            errs.append(fe.invalid(fe.child(path, "failedIndexes"), failed_indexes, overlap))
    terminating = status.get("terminating")
    if (
        opts.reject_finished_job_with_terminating_pods
        and terminating is not None
        and terminating > 0
        and finished
    ):
        errs.append(
            fe.invalid(
                fe.child(path, "terminating"),
                terminating,
                "terminating>0 is invalid for finished job",
            )
        )
    ready = status.get("ready")
    if opts.reject_more_ready_than_active_pods and ready is not None and ready > active:
        errs.append(
            fe.invalid(fe.child(path, "ready"), ready, "cannot set more ready pods than active")
        )
    extended = opts.allow_for_success_criteria_met_in_extended_scope
    if not extended and not indexed and success_met:
        errs.append(
            fe.invalid(conditions, fe.OMIT, "cannot set SuccessCriteriaMet to NonIndexed Job")
        )
    if success_met and failed:
        errs.append(
            fe.invalid(
                conditions, fe.OMIT, "cannot set SuccessCriteriaMet=True and Failed=true conditions"
            )
        )
    if success_met and failure_target:
        errs.append(
            fe.invalid(
                conditions,
                fe.OMIT,
                "cannot set SuccessCriteriaMet=True and FailureTarget=true conditions",
            )
        )
    if not extended and spec.get("successPolicy") is None and success_met:
        errs.append(
            fe.invalid(
                conditions,
                fe.OMIT,
                "cannot set SuccessCriteriaMet=True for Job without SuccessPolicy",
            )
        )
    if spec.get("successPolicy") is not None and not success_met and complete:
        errs.append(
            fe.invalid(
                conditions,
                fe.OMIT,
                "cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True",
            )
        )
    return errs


def validate_job_update_status(
    job: Mapping[str, Any], old: Mapping[str, Any], opts: JobStatusValidationOptions
) -> list[FieldError]:
    """ValidateJobUpdateStatus."""
    errs = mv.validate_object_meta_update(
        job.get("metadata") or {}, old.get("metadata") or {}, release=opts.release
    )
    errs.extend(validate_job_status_update(job, old, opts))
    return errs


def validate_job_status_update(
    job: Mapping[str, Any], old: Mapping[str, Any], opts: JobStatusValidationOptions
) -> list[FieldError]:
    """ValidateJobStatusUpdate: the status rules, then the rules on the transition from the old status."""
    path = "status"
    errs = validate_job_status(job, path, opts)
    status, old_status = job.get("status") or {}, old.get("status") or {}
    conditions = fe.child(path, "conditions")
    if opts.reject_disabling_terminal_condition:
        for ctype in ("Failed", "Complete", "FailureTarget"):
            if is_condition_true(old, ctype) and not is_condition_true(job, ctype):
                errs.append(
                    fe.invalid(
                        conditions, fe.OMIT, f"cannot disable the terminal {ctype}=True condition"
                    )
                )
    for name, enabled in (
        ("failed", opts.reject_decreasing_failed_counter),
        ("succeeded", opts.reject_decreasing_succeeded_counter),
    ):
        if enabled and (status.get(name) or 0) < (old_status.get(name) or 0):
            errs.append(
                fe.invalid(
                    fe.child(path, name),
                    status.get(name) or 0,
                    f"cannot decrease the {name} counter",
                )
            )
    completion, old_completion = (
        status_time(status, "completionTime"),
        status_time(old_status, "completionTime"),
    )
    if (
        opts.reject_mutating_completion_time
        and completion is not None
        and old_completion is not None
        and completion != old_completion
    ):
        errs.append(
            fe.invalid(
                fe.child(path, "completionTime"),
                status_time_value(status, "completionTime", opts.release),
                "field is immutable" if opts.release >= 34 else "completionTime cannot be mutated",
            )
        )
    start, old_start = status_time(status, "startTime"), status_time(old_status, "startTime")
    suspended = (job.get("spec") or {}).get("suspend") is True
    if (
        opts.reject_start_time_update_for_unsuspended_job
        and old_start is not None
        and start != old_start
        and not suspended
    ):
        if opts.release >= 36:
            errs.append(
                fe.invalid(
                    fe.child(path, "startTime"), status_time_value(status, "startTime", opts.release), "field is immutable for unsuspended job once set"
                )
            )
        else:
            errs.append(
                fe.required(
                    fe.child(path, "startTime"), "startTime cannot be removed for unsuspended job"
                )
            )
    if is_condition_true(old, "SuccessCriteriaMet") and not is_condition_true(
        job, "SuccessCriteriaMet"
    ):
        errs.append(
            fe.invalid(conditions, fe.OMIT, "cannot disable the SuccessCriteriaMet=True condition")
        )
    if (
        is_condition_true(old, "Complete")
        and not is_condition_true(old, "SuccessCriteriaMet")
        and is_condition_true(job, "SuccessCriteriaMet")
    ):
        errs.append(
            fe.invalid(
                conditions,
                fe.OMIT,
                "cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions",
            )
        )
    return errs


# ---------------------------------------------------------------------------- CronJob


def validate_cron_job_create(cron_job: Mapping[str, Any], gates: FeatureGates = DEFAULT_GATES) -> list[FieldError]:
    """ValidateCronJobCreate: metadata, spec, and a name short enough for the Jobs it creates."""
    meta = cron_job.get("metadata") or {}
    errs = mv.validate_object_meta(meta, release=gates.release)
    errs.extend(validate_cron_job_spec(cron_job.get("spec") or {}, None, "spec", gates))
    name = str(meta.get("name") or "")
    # The controller appends an 11-character `-<timestamp>` to name its Jobs (at most 63 long).
    if go_len(name) > mv.DNS1035_LABEL_MAX_LENGTH - 11:
        errs.append(fe.invalid("metadata.name", name, "must be no more than 52 characters"))
    return errs


def validate_cron_job_update(
    cron_job: Mapping[str, Any], old: Mapping[str, Any], gates: FeatureGates = DEFAULT_GATES
) -> list[FieldError]:
    """ValidateCronJobUpdate (no 52-character limit, so that old long-named CronJobs stay editable)."""
    errs = mv.validate_object_meta_update(
        cron_job.get("metadata") or {}, old.get("metadata") or {}, release=gates.release
    )
    errs.extend(validate_cron_job_spec(cron_job.get("spec") or {}, old.get("spec") or {}, "spec", gates))
    return errs


def validate_cron_job_spec(
    spec: Mapping[str, Any], old: Mapping[str, Any] | None, path: str, gates: FeatureGates = DEFAULT_GATES
) -> list[FieldError]:
    """validateCronJobSpec."""
    errs: list[FieldError] = []
    schedule = spec.get("schedule") or ""
    if not schedule:
        errs.append(fe.required(fe.child(path, "schedule")))
    else:
        allow_tz = old is not None and "TZ" in (old.get("schedule") or "")
        errs.extend(
            validate_schedule_format(
                schedule, allow_tz, spec.get("timeZone"), fe.child(path, "schedule"), gates
            )
        )
    if spec.get("startingDeadlineSeconds") is not None:
        errs.extend(
            mv.validate_nonnegative_field(
                spec["startingDeadlineSeconds"], fe.child(path, "startingDeadlineSeconds")
            )
        )
    if old is None or old.get("timeZone") != spec.get("timeZone"):
        errs.extend(validate_time_zone(spec.get("timeZone"), fe.child(path, "timeZone")))
    errs.extend(
        validate_concurrency_policy(
            spec.get("concurrencyPolicy") or "", fe.child(path, "concurrencyPolicy"), gates.release
        )
    )
    errs.extend(
        validate_job_template_spec(
            spec.get("jobTemplate") or {},
            fe.child(path, "jobTemplate"),
            pod_validation_options(gates.release, _template_pod_spec(old), _template_pod_meta(old)),
        )
    )
    for name in ("successfulJobsHistoryLimit", "failedJobsHistoryLimit"):
        if spec.get(name) is not None:
            errs.extend(mv.validate_nonnegative_field(spec[name], fe.child(path, name)))
    return errs


def validate_concurrency_policy(policy: str, path: str, release: int = NEWEST_MINOR) -> list[FieldError]:
    """validateConcurrencyPolicy."""
    if policy in CONCURRENCY_POLICIES:
        return []
    if policy == "":
        return [fe.required(path)]
    return [fe.not_supported(path, fe.named(policy, release), CONCURRENCY_POLICIES)]


def validate_schedule_format(
    schedule: str, allow_tz: bool, time_zone: str | None, path: str, gates: FeatureGates = DEFAULT_GATES
) -> list[FieldError]:
    """validateScheduleFormat: robfig/cron ParseStandard (its panics recovered from 1.35), and no
    TZ=/CRON_TZ= unless the old schedule had one."""
    errs: list[FieldError] = []
    parse_error = schedule_error(schedule, path, recover_panics=gates.at_least(35))
    if parse_error is not None:
        errs.append(fe.invalid(path, schedule, parse_error))
    if allow_tz and "TZ" in schedule and time_zone is not None:
        errs.append(
            fe.invalid(
                path, schedule, "cannot use both timeZone field and TZ or CRON_TZ in schedule"
            )
        )
    elif not allow_tz and "TZ" in schedule:
        errs.append(
            fe.invalid(
                path, schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"
            )
        )
    return errs


_TZ_COMPONENT: Final = re.compile(r"[A-Za-z.\-_0-9+]{1,14}")


def validate_time_zone(time_zone: str | None, path: str) -> list[FieldError]:
    """validateTimeZone: an IANA name (checked against the `tzdata` package), never `Local`."""
    if time_zone is None:
        return []
    if time_zone == "":
        return [fe.invalid(path, time_zone, "timeZone must be nil or non-empty string")]
    for part in time_zone.split("/"):
        if part in (".", "..") or part.startswith("-") or not _TZ_COMPONENT.fullmatch(part):
            return [fe.invalid(path, time_zone, f"unknown time zone {time_zone}")]
    errs: list[FieldError] = []
    # strings.EqualFold(timeZone, "Local"): the name is ASCII by now, where lower() folds as Go does.
    if time_zone.lower() == "local":
        errs.append(
            fe.invalid(
                path,
                time_zone,
                "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones",
            )
        )
    load_error = load_location_error(time_zone)
    if load_error is not None:
        errs.append(fe.invalid(path, time_zone, load_error))
    return errs


def _template_pod_spec(cron_spec: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """The pod spec of a CronJob spec's job template (None without an old CronJob)."""
    if cron_spec is None:
        return None
    return (((cron_spec.get("jobTemplate") or {}).get("spec") or {}).get("template") or {}).get("spec") or {}


def _template_pod_meta(cron_spec: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """The pod template metadata of a CronJob spec's job template (None without an old CronJob)."""
    if cron_spec is None:
        return None
    return (((cron_spec.get("jobTemplate") or {}).get("spec") or {}).get("template") or {}).get("metadata") or {}


def validate_job_template_spec(
    template: Mapping[str, Any], path: str, pod_opts: PodValidationOptions = DEFAULT_POD_OPTIONS
) -> list[FieldError]:
    """ValidateJobTemplateSpec: the Job spec rules; the selector is always generated."""
    spec = template.get("spec") or {}
    errs = _validate_job_spec(spec, fe.child(path, "spec"), pod_opts)
    if spec.get("selector") is not None:
        errs.append(
            fe.invalid(
                fe.child(path, "spec", "selector"),
                mv.label_selector_value(spec["selector"], pod_opts.release),
                "`selector` will be auto-generated",
            )
        )
    if spec.get("manualSelector") is True:
        errs.append(
            fe.not_supported(fe.child(path, "spec", "manualSelector"), True, ["nil", "false"])
        )
    return errs
