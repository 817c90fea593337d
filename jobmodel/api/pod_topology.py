"""Topology spread constraints as core validation checks them
(`pkg/apis/core/validation/validation.go`: validateTopologySpreadConstraints and the validators it
calls).

Release differences: up to 1.33 `matchLabelKeys` are checked by the legacy rule
(ValidateMatchLabelKeysInTopologySpread: a key may not also be a key of the label selector).
From 1.34 MatchLabelKeysInPodTopologySpreadSelectorMerge (beta, on) makes it the preferred rule
(ValidateMatchLabelKeysAndMismatchLabelKeys: a key is refused only when the selector names it
both in `matchLabels` and in `matchExpressions`, as after the merge a pod's create does), unless
the old template already breaks the preferred rule. On update an old template whose selector is
invalid lets the new one keep an invalid selector (AllowInvalidTopologySpreadConstraintLabelSelector).
NodeInclusionPolicyInPodTopologySpread and MatchLabelKeysInPodTopologySpread are on in every
release modelled, so no field is dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs

from jobmodel.api import field as fe
from jobmodel.api import meta_validation as mv
from jobmodel.api.field import FieldError
from jobmodel.features import NEWEST_MINOR

# sets.List order (sorted) of supportedScheduleActions and supportedPodTopologySpreadNodePolicies.
WHEN_UNSATISFIABLE: Final = ("DoNotSchedule", "ScheduleAnyway")
NODE_INCLUSION_POLICIES: Final = ("Honor", "Ignore")
IS_NOT_POSITIVE: Final = "must be greater than zero"
BOTH_IN_SELECTOR: Final = "exists in both matchLabelKeys and labelSelector"
NO_SELECTOR: Final = "must not be specified when labelSelector is not set"


@attrs.frozen
class TopologyOptions:
    """The PodValidationOptions of validateTopologySpreadConstraints (GetValidationOptionsFromPodSpecAndMeta)."""

    allow_invalid_label_selector: bool = False  # AllowInvalidTopologySpreadConstraintLabelSelector
    selector_merge: bool = True  # AllowMatchLabelKeysInPodTopologySpreadSelectorMerge (1.34+)
    old_violates_match_label_keys: bool = False  # OldPodViolatesMatchLabelKeysValidation


def topology_options(release: int, old_pod_spec: Mapping[str, Any] | None) -> TopologyOptions:
    """The topology options at a release (`old_pod_spec`: the stored template's spec on update)."""
    old = (old_pod_spec or {}).get("topologySpreadConstraints") or []
    selector_merge = release >= 34
    return TopologyOptions(
        allow_invalid_label_selector=old_pod_spec is not None and has_invalid_topology_spread_constraint_label_selector(old, release),
        selector_merge=selector_merge,
        old_violates_match_label_keys=old_pod_spec is not None
        and selector_merge
        and has_invalid_topology_spread_constrain_match_label_keys(old, release),
    )


def has_invalid_topology_spread_constraint_label_selector(constraints: list[Mapping[str, Any]], release: int) -> bool:
    """hasInvalidTopologySpreadConstraintLabelSelector (`pkg/api/pod/util.go`)."""
    return any(mv.validate_label_selector(c.get("labelSelector"), "", False, release) for c in constraints)


def has_invalid_topology_spread_constrain_match_label_keys(constraints: list[Mapping[str, Any]], release: int) -> bool:
    """hasInvalidTopologySpreadConstrainMatchLabelKeys (`pkg/api/pod/util.go`, 1.34+)."""
    return any(
        validate_match_label_keys_and_mismatch_label_keys("", c.get("matchLabelKeys") or [], [], c.get("labelSelector"), release)
        for c in constraints
    )


def validate_positive_field(value: int, path: str) -> list[FieldError]:
    """ValidatePositiveField (ValidateMaxSkew up to 1.32: the same error)."""
    return [fe.invalid(path, value, IS_NOT_POSITIVE)] if value <= 0 else []


def validate_min_domains(min_domains: int | None, action: str, path: str) -> list[FieldError]:
    """validateMinDomains: positive, and only with whenUnsatisfiable DoNotSchedule."""
    if min_domains is None:
        return []
    errs = validate_positive_field(min_domains, path)
    if action != "DoNotSchedule":
        errs.append(fe.invalid(path, min_domains, f"can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {action}"))
    return errs


def validate_spread_constraint_not_repeat(
    constraint: Mapping[str, Any], resting: list[Mapping[str, Any]], path: str
) -> list[FieldError]:
    """ValidateSpreadConstraintNotRepeat: one error for a {topologyKey, whenUnsatisfiable} repeated later."""
    key, action = constraint.get("topologyKey") or "", constraint.get("whenUnsatisfiable") or ""
    for other in resting:
        if (other.get("topologyKey") or "", other.get("whenUnsatisfiable") or "") == (key, action):
            return [fe.duplicate(path, f"{{{key}, {action}}}")]
    return []


def validate_node_inclusion_policy(policy: str | None, path: str, release: int = NEWEST_MINOR) -> list[FieldError]:
    """validateNodeInclusionPolicy."""
    if policy is None or policy in NODE_INCLUSION_POLICIES:
        return []
    return [fe.not_supported(path, fe.named(policy, release), NODE_INCLUSION_POLICIES)]


def _selector_keys(selector: Mapping[str, Any]) -> list[str]:
    return [*(selector.get("matchLabels") or {}), *(e.get("key") or "" for e in selector.get("matchExpressions") or [])]


def validate_match_label_keys_in_topology_spread(
    keys: list[str], selector: Mapping[str, Any] | None, path: str, release: int = NEWEST_MINOR
) -> list[FieldError]:
    """ValidateMatchLabelKeysInTopologySpread (the legacy rule): label names, none a key of the selector."""
    if not keys:
        return []
    errs = [] if selector is not None else [fe.forbidden(path, NO_SELECTOR)]
    selector_keys = set(_selector_keys(selector or {}))
    for i, key in enumerate(keys):
        errs.extend(mv.validate_label_name(key, fe.index(path, i), release))
        if key in selector_keys:
            errs.append(fe.invalid(fe.index(path, i), key, BOTH_IN_SELECTOR))
    return errs


def validate_label_keys(keys: list[str], selector: Mapping[str, Any] | None, path: str, release: int) -> list[FieldError]:
    """validateLabelKeys: label names, only with a selector."""
    if not keys:
        return []
    if selector is None:
        return [fe.forbidden(path, NO_SELECTOR)]
    return [e for i, key in enumerate(keys) for e in mv.validate_label_name(key, fe.index(path, i), release)]


def validate_match_label_keys_and_mismatch_label_keys(
    path: str, match: list[str], mismatch: list[str], selector: Mapping[str, Any] | None, release: int = NEWEST_MINOR
) -> list[FieldError]:
    """ValidateMatchLabelKeysAndMismatchLabelKeys (the preferred rule). Its selector error is on
    `path[i]` (upstream indexes the constraint's own path)."""
    errs = validate_label_keys(match, selector, fe.child(path, "matchLabelKeys"), release)
    errs.extend(validate_label_keys(mismatch, selector, fe.child(path, "mismatchLabelKeys"), release))
    if selector is not None:
        positions = {key: i for i, key in enumerate(match)}  # the last index of a repeated key
        seen = set(selector.get("matchLabels") or {})
        for expression in selector.get("matchExpressions") or []:
            key = expression.get("key") or ""
            if key in positions and key in seen:
                errs.append(fe.invalid(fe.index(path, positions[key]), key, BOTH_IN_SELECTOR))
            seen.add(key)
    errs.extend(
        fe.invalid(fe.index(fe.child(path, "matchLabelKeys"), i), key, "exists in both matchLabelKeys and mismatchLabelKeys")
        for i, key in enumerate(match)
        if key in set(mismatch)
    )
    return errs


def validate_topology_spread_constraints(
    constraints: list[Mapping[str, Any]], path: str, release: int = NEWEST_MINOR, opts: TopologyOptions = TopologyOptions()
) -> list[FieldError]:
    """validateTopologySpreadConstraints."""
    errs: list[FieldError] = []
    for i, constraint in enumerate(constraints):
        idx = fe.index(path, i)
        action = constraint.get("whenUnsatisfiable") or ""
        errs.extend(validate_positive_field(constraint.get("maxSkew") or 0, fe.child(idx, "maxSkew")))
        if not constraint.get("topologyKey"):
            # ValidateTopologyKey
            errs.append(fe.required(fe.child(idx, "topologyKey"), "can not be empty"))
        if action not in WHEN_UNSATISFIABLE:
            # ValidateWhenUnsatisfiable
            errs.append(fe.not_supported(fe.child(idx, "whenUnsatisfiable"), fe.named(action, release), WHEN_UNSATISFIABLE))
        errs.extend(validate_spread_constraint_not_repeat(constraint, constraints[i + 1 :], fe.child(idx, "{topologyKey, whenUnsatisfiable}")))
        errs.extend(validate_min_domains(constraint.get("minDomains"), action, fe.child(idx, "minDomains")))
        for key in ("nodeAffinityPolicy", "nodeTaintsPolicy"):
            errs.extend(validate_node_inclusion_policy(constraint.get(key), fe.child(idx, key), release))
        keys, selector = constraint.get("matchLabelKeys") or [], constraint.get("labelSelector")
        if opts.selector_merge and not opts.old_violates_match_label_keys:
            errs.extend(validate_match_label_keys_and_mismatch_label_keys(idx, keys, [], selector, release))
        else:
            errs.extend(validate_match_label_keys_in_topology_spread(keys, selector, fe.child(idx, "matchLabelKeys"), release))
        if not opts.allow_invalid_label_selector:
            errs.extend(mv.validate_label_selector(selector, fe.child(idx, "labelSelector"), False, release))
    return errs
