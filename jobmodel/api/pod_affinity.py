"""Pod affinity and anti-affinity as core validation checks them (`pkg/apis/core/validation/validation.go`:
validatePodAffinity, validatePodAntiAffinity, validatePodAffinityTerms, validateWeightedPodAffinityTerms,
validatePodAffinityTerm, ValidatePodAffinityTermSelector), the same in every release modelled
(MatchLabelKeysInPodAffinity is on from 1.31, GA from 1.33). On update an old template whose
affinity selectors are invalid lets the new one keep invalid label values in its selectors
(AllowInvalidLabelValueInSelector: hasInvalidLabelValueInAffinitySelector, `pkg/api/pod/util.go`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final

from jobmodel.api import field as fe
from jobmodel.api import meta_validation as mv
from jobmodel.api.field import FieldError
from jobmodel.api.pod_topology import validate_match_label_keys_and_mismatch_label_keys
from jobmodel.features import NEWEST_MINOR

REQUIRED: Final = "requiredDuringSchedulingIgnoredDuringExecution"
PREFERRED: Final = "preferredDuringSchedulingIgnoredDuringExecution"
WEIGHT_RANGE: Final = "must be in the range 1-100"


def validate_pod_affinity_term_selector(term: Mapping[str, Any], path: str, allow_invalid_label_value: bool, release: int = NEWEST_MINOR) -> list[FieldError]:
    """ValidatePodAffinityTermSelector: the label and namespace selectors."""
    errs = mv.validate_label_selector(term.get("labelSelector"), fe.child(path, "labelSelector"), allow_invalid_label_value, release)
    errs.extend(mv.validate_label_selector(term.get("namespaceSelector"), fe.child(path, "namespaceSelector"), allow_invalid_label_value, release))
    return errs


def validate_pod_affinity_term(term: Mapping[str, Any], path: str, allow_invalid_label_value: bool, release: int = NEWEST_MINOR) -> list[FieldError]:
    """validatePodAffinityTerm: selectors, namespaces (DNS labels, reported on `namespace`), the
    match and mismatch label keys, a topology key that is a label name."""
    errs = validate_pod_affinity_term_selector(term, path, allow_invalid_label_value, release)
    for name in term.get("namespaces") or []:
        # ValidateNamespaceName: NameIsDNSLabel
        errs.extend(fe.invalid(fe.child(path, "namespace"), name, m) for m in mv.is_dns1123_label(name))
    errs.extend(
        validate_match_label_keys_and_mismatch_label_keys(
            path, term.get("matchLabelKeys") or [], term.get("mismatchLabelKeys") or [], term.get("labelSelector"), release
        )
    )
    key = term.get("topologyKey") or ""
    if not key:
        errs.append(fe.required(fe.child(path, "topologyKey"), "can not be empty"))
    errs.extend(mv.validate_label_name(key, fe.child(path, "topologyKey"), release))
    return errs


def validate_pod_affinity(affinity: Mapping[str, Any], path: str, allow_invalid_label_value: bool, release: int = NEWEST_MINOR) -> list[FieldError]:
    """validatePodAffinity and validatePodAntiAffinity (the same checks): validatePodAffinityTerms
    for the required terms, validateWeightedPodAffinityTerms (a weight in 1..100) for the preferred."""
    errs: list[FieldError] = []
    for i, term in enumerate(affinity.get(REQUIRED) or []):
        errs.extend(validate_pod_affinity_term(term, fe.index(fe.child(path, REQUIRED), i), allow_invalid_label_value, release))
    for i, weighted in enumerate(affinity.get(PREFERRED) or []):
        idx = fe.index(fe.child(path, PREFERRED), i)
        weight = weighted.get("weight") or 0
        if not 1 <= weight <= 100:
            errs.append(fe.invalid(fe.child(idx, "weight"), weight, WEIGHT_RANGE))
        errs.extend(validate_pod_affinity_term(weighted.get("podAffinityTerm") or {}, fe.child(idx, "podAffinityTerm"), allow_invalid_label_value, release))
    return errs


def validate_pod_affinities(affinity: Mapping[str, Any], path: str, allow_invalid_label_value: bool, release: int = NEWEST_MINOR) -> list[FieldError]:
    """validateAffinity's pod affinity and anti-affinity."""
    return [
        e
        for key in ("podAffinity", "podAntiAffinity")
        if affinity.get(key) is not None
        for e in validate_pod_affinity(affinity[key], fe.child(path, key), allow_invalid_label_value, release)
    ]


def _affinity_terms(spec: Mapping[str, Any] | None) -> Iterator[Mapping[str, Any]]:
    affinity = (spec or {}).get("affinity") or {}
    for key in ("podAffinity", "podAntiAffinity"):
        pod_affinity = affinity.get(key) or {}
        yield from pod_affinity.get(REQUIRED) or []
        yield from ((w.get("podAffinityTerm") or {}) for w in pod_affinity.get(PREFERRED) or [])


def has_invalid_label_value_in_affinity_selector(spec: Mapping[str, Any] | None, release: int = NEWEST_MINOR) -> bool:
    """hasInvalidLabelValueInAffinitySelector (`pkg/api/pod/util.go`): any selector error of a term."""
    return any(validate_pod_affinity_term_selector(term, "", False, release) for term in _affinity_terms(spec))


def encoded_pod_affinity(affinity: Mapping[str, Any] | None) -> None:
    """The fields of affinity terms the JSON always writes (no omitempty), in place: a pod
    affinity term's `topologyKey`, a weighted term's `weight` and `podAffinityTerm`, a preferred
    node term's `weight` and `preference`."""
    if not isinstance(affinity, dict):
        return
    for key in ("podAffinity", "podAntiAffinity"):
        pod_affinity = affinity.get(key) or {}
        terms = list(pod_affinity.get(REQUIRED) or [])
        for weighted in pod_affinity.get(PREFERRED) or []:
            weighted.setdefault("weight", 0)
            if weighted.get("podAffinityTerm") is None:
                weighted["podAffinityTerm"] = {}
            terms.append(weighted["podAffinityTerm"])
        for term in terms:
            term.setdefault("topologyKey", "")
    for preferred in (affinity.get("nodeAffinity") or {}).get(PREFERRED) or []:
        preferred.setdefault("weight", 0)
        if preferred.get("preference") is None:
            preferred["preference"] = {}
