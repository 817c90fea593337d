"""Pod affinity, anti-affinity and preferred node affinity (jobmodel/api/pod_affinity.py,
pod_validation.validate_affinity); expectations from upstream's validatePodAffinityTerm,
validateWeightedPodAffinityTerms and ValidatePreferredSchedulingTerms and the affinity cases of
its TestValidatePodSpec / TestValidatePod (`pkg/apis/core/validation/validation_test.go`)."""

from __future__ import annotations

from typing import Any

import pytest

from jobmodel.api.defaults import set_defaults_pod_spec
from jobmodel.api.pod_affinity import (
    has_invalid_label_value_in_affinity_selector,
    validate_pod_affinity_term,
)
from jobmodel.api.pod_validation import (
    pod_validation_options,
    validate_affinity,
    validate_pod_template_spec,
)
from tests.api.helpers import pairs, pod_template

A = "affinity"
REQ = "requiredDuringSchedulingIgnoredDuringExecution"
PREF = "preferredDuringSchedulingIgnoredDuringExecution"


def _term(**extra: Any) -> dict[str, Any]:
    return {"labelSelector": {"matchLabels": {"app": "a"}}, "topologyKey": "zone", **extra}


def test_valid_terms() -> None:
    affinity = {
        "podAffinity": {REQ: [_term(namespaces=["ns"])], PREF: [{"weight": 10, "podAffinityTerm": _term(matchLabelKeys=["pod-template-hash"])}]},
        "podAntiAffinity": {PREF: [{"weight": 100, "podAffinityTerm": _term(mismatchLabelKeys=["app"])}]},
        "nodeAffinity": {PREF: [{"weight": 1, "preference": {"matchExpressions": [{"key": "disk", "operator": "In", "values": ["bad value"]}]}}]},
    }
    assert validate_affinity(affinity, A) == []


def test_pod_affinity_term_errors() -> None:
    term = {"labelSelector": {"matchLabels": {"bad key!": "a"}}, "namespaceSelector": {"matchExpressions": [{"key": "k", "operator": "Bogus"}]},
            "namespaces": ["Bad_NS"], "topologyKey": ""}  # fmt: skip
    assert pairs(validate_pod_affinity_term(term, "t", False)) == {
        ("t.labelSelector.matchLabels", "FieldValueInvalid"),
        ("t.namespaceSelector.matchExpressions[0].operator", "FieldValueInvalid"),
        ("t.namespace", "FieldValueInvalid"),
        ("t.topologyKey", "FieldValueRequired"),
        ("t.topologyKey", "FieldValueInvalid"),
    }


def test_match_and_mismatch_label_keys() -> None:
    errors = validate_pod_affinity_term(_term(matchLabelKeys=["app", "x"], mismatchLabelKeys=["x"]), "t", False)
    assert [str(e) for e in errors] == ['t.matchLabelKeys[1]: Invalid value: "x": exists in both matchLabelKeys and mismatchLabelKeys']
    no_selector = {"topologyKey": "zone", "matchLabelKeys": ["a"], "mismatchLabelKeys": ["b"]}
    assert pairs(validate_pod_affinity_term(no_selector, "t", False)) == {("t.matchLabelKeys", "FieldValueForbidden"), ("t.mismatchLabelKeys", "FieldValueForbidden")}


@pytest.mark.parametrize("weight", [0, -1, 101])
def test_weights_in_1_to_100(weight: int) -> None:
    affinity = {"podAntiAffinity": {PREF: [{"weight": weight, "podAffinityTerm": _term()}]}, "nodeAffinity": {PREF: [{"weight": weight, "preference": {}}]}}
    errors = validate_affinity(affinity, A)
    assert [str(e) for e in errors] == [
        f"{A}.nodeAffinity.{PREF}[0].weight: Invalid value: {weight}: must be in the range 1-100",
        f"{A}.podAntiAffinity.{PREF}[0].weight: Invalid value: {weight}: must be in the range 1-100",
    ]


def test_preferred_node_terms_allow_any_label_value_but_check_the_rest() -> None:
    preference = {"matchExpressions": [{"key": "bad key!", "operator": "Gt", "values": ["x y"]}], "matchFields": [{"key": "metadata.uid", "operator": "In", "values": ["a"]}]}
    errors = validate_affinity({"nodeAffinity": {PREF: [{"weight": 5, "preference": preference}]}}, A)
    assert pairs(errors) == {(f"{A}.nodeAffinity.{PREF}[0].preference.matchExpressions[0].key", "FieldValueInvalid"),
                             (f"{A}.nodeAffinity.{PREF}[0].preference.matchFields[0].key", "FieldValueInvalid")}  # fmt: skip


def test_invalid_selector_values_kept_on_update() -> None:
    template = pod_template()
    bad = {"labelSelector": {"matchExpressions": [{"key": "app", "operator": "In", "values": ["bad value"]}]}, "topologyKey": "zone"}
    template["spec"]["affinity"] = {"podAffinity": {REQ: [bad]}}
    assert has_invalid_label_value_in_affinity_selector(template["spec"])
    assert pairs(validate_pod_template_spec(template, "t", pod_validation_options(32, None))) == {
        (f"t.spec.affinity.podAffinity.{REQ}[0].labelSelector.matchExpressions[0].values[0]", "FieldValueInvalid")
    }
    assert validate_pod_template_spec(template, "t", pod_validation_options(37, template["spec"])) == []


def test_defaulting_writes_the_fields_without_omitempty() -> None:
    spec = set_defaults_pod_spec({"affinity": {"podAffinity": {PREF: [{}], REQ: [{}]}, "nodeAffinity": {PREF: [{}]}}})
    assert spec["affinity"] == {
        "podAffinity": {PREF: [{"weight": 0, "podAffinityTerm": {"topologyKey": ""}}], REQ: [{"topologyKey": ""}]},
        "nodeAffinity": {PREF: [{"weight": 0, "preference": {}}]},
    }
