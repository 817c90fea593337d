"""Topology spread constraints (jobmodel/api/pod_topology.py); the cases follow upstream's
TestValidateTopologySpreadConstraints (`pkg/apis/core/validation/validation_test.go`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from jobmodel.api.pod_topology import (
    TopologyOptions,
    topology_options,
    validate_topology_spread_constraints,
)
from jobmodel.api.pod_validation import pod_validation_options, validate_pod_template_spec
from tests.api.helpers import pairs, pod_template

P = "field"
C0 = f"{P}[0]"
LEGACY = TopologyOptions(selector_merge=False)
MERGE = TopologyOptions()


def _ok(**extra: Any) -> dict[str, Any]:
    return {"maxSkew": 1, "topologyKey": "k8s.io/zone", "whenUnsatisfiable": "DoNotSchedule", **extra}


def _errs(constraints: list[Mapping[str, Any]], opts: TopologyOptions = MERGE, release: int = 37) -> set[tuple[str, str]]:
    return pairs(validate_topology_spread_constraints(constraints, P, release, opts))


def test_all_required_fields_ok() -> None:
    assert _errs([_ok()]) == set()
    assert _errs([_ok(), _ok(topologyKey="k8s.io/node")]) == set()


@pytest.mark.parametrize("skew", [0, -1])
def test_max_skew_must_be_positive(skew: int) -> None:
    errors = validate_topology_spread_constraints([_ok(maxSkew=skew)], P)
    assert [str(e) for e in errors] == [f'{C0}.maxSkew: Invalid value: {skew}: must be greater than zero']


def test_missing_max_skew_is_zero() -> None:
    constraint = _ok()
    del constraint["maxSkew"]
    assert _errs([constraint]) == {(f"{C0}.maxSkew", "FieldValueInvalid")}


def test_min_domains() -> None:
    assert _errs([_ok(whenUnsatisfiable="ScheduleAnyway")]) == set()
    assert _errs([_ok(minDomains=3)]) == set()
    assert _errs([_ok(minDomains=-1)]) == {(f"{C0}.minDomains", "FieldValueInvalid")}
    errors = validate_topology_spread_constraints([_ok(minDomains=-1, whenUnsatisfiable="ScheduleAnyway")], P)
    assert [e.detail for e in errors] == [
        "must be greater than zero",
        "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway",
    ]


def test_topology_key_and_scheduling_mode() -> None:
    errors = validate_topology_spread_constraints([_ok(topologyKey=""), _ok(whenUnsatisfiable="N/A"), _ok(whenUnsatisfiable="")], P)
    assert [str(e) for e in errors] == [
        f"{C0}.topologyKey: Required value: can not be empty",
        f'{P}[1].whenUnsatisfiable: Unsupported value: "N/A": supported values: "DoNotSchedule", "ScheduleAnyway"',
        f'{P}[2].whenUnsatisfiable: Unsupported value: "": supported values: "DoNotSchedule", "ScheduleAnyway"',
    ]


def test_duplicate_constraints_reported_on_the_first() -> None:
    errors = validate_topology_spread_constraints([_ok(), _ok(maxSkew=2), _ok()], P)
    assert [str(e) for e in errors] == [
        f'{C0}.{{topologyKey, whenUnsatisfiable}}: Duplicate value: "{{k8s.io/zone, DoNotSchedule}}"',
        f'{P}[1].{{topologyKey, whenUnsatisfiable}}: Duplicate value: "{{k8s.io/zone, DoNotSchedule}}"',
    ]
    assert _errs([_ok(), _ok(whenUnsatisfiable="ScheduleAnyway")]) == set()


def test_node_inclusion_policies() -> None:
    assert _errs([_ok(nodeAffinityPolicy="Ignore", nodeTaintsPolicy="Honor")]) == set()
    errors = validate_topology_spread_constraints([_ok(nodeAffinityPolicy="invalid", nodeTaintsPolicy="")], P)
    assert [str(e) for e in errors] == [
        f'{C0}.nodeAffinityPolicy: Unsupported value: "invalid": supported values: "Honor", "Ignore"',
        f'{C0}.nodeTaintsPolicy: Unsupported value: "": supported values: "Honor", "Ignore"',
    ]


@pytest.mark.parametrize("opts", [MERGE, LEGACY])
def test_match_label_keys_are_label_names_and_need_a_selector(opts: TopologyOptions) -> None:
    selector = {"matchLabels": {"app": "a"}}
    assert _errs([_ok(matchLabelKeys=["/simple"], labelSelector=selector)], opts) == {(f"{C0}.matchLabelKeys[0]", "FieldValueInvalid")}
    assert _errs([_ok(matchLabelKeys=["foo"])], opts) == {(f"{C0}.matchLabelKeys", "FieldValueForbidden")}


def _foo_twice_in_expressions() -> dict[str, Any]:
    return {
        "matchExpressions": [
            {"key": "foo", "operator": "NotIn", "values": ["value1"]},
            {"key": "foo", "operator": "NotIn", "values": ["value2", "value3"]},
        ]
    }


def test_key_in_both_match_label_keys_and_selector() -> None:
    once = {"matchExpressions": [{"key": "foo", "operator": "NotIn", "values": ["value1", "value2"]}]}
    # The legacy rule refuses any selector key; the preferred one only a key the selector names
    # twice (the merge of matchLabelKeys added one), and on the constraint's own path.
    assert _errs([_ok(matchLabelKeys=["foo"], labelSelector=once)], LEGACY) == {(f"{C0}.matchLabelKeys[0]", "FieldValueInvalid")}
    assert _errs([_ok(matchLabelKeys=["foo"], labelSelector=once)], MERGE) == set()
    twice = _foo_twice_in_expressions()
    assert _errs([_ok(matchLabelKeys=["foo"], labelSelector=twice)], MERGE) == {(f"{C0}[0]", "FieldValueInvalid")}
    old_violates = TopologyOptions(old_violates_match_label_keys=True)
    assert _errs([_ok(matchLabelKeys=["foo"], labelSelector=twice)], old_violates) == {(f"{C0}.matchLabelKeys[0]", "FieldValueInvalid")}
    labels_and_expression = {"matchLabels": {"foo": "x"}, **once}
    assert _errs([_ok(matchLabelKeys=["bar", "foo"], labelSelector=labels_and_expression)], MERGE) == {(f"{C0}[1]", "FieldValueInvalid")}


def test_label_selector_checked_unless_the_old_one_is_invalid() -> None:
    bad = {"matchLabels": {"NoUppercaseOrSpecialCharsLike=Equals": "foo"}}
    assert _errs([_ok(labelSelector=bad)]) == {(f"{C0}.labelSelector.matchLabels", "FieldValueInvalid")}
    assert _errs([_ok(labelSelector=bad)], TopologyOptions(allow_invalid_label_selector=True)) == set()
    assert _errs([_ok(labelSelector={"matchLabels": {"foo": "bar"}})]) == set()


def test_options_per_release_and_old_template() -> None:
    assert topology_options(33, None) == LEGACY
    assert topology_options(34, None) == MERGE
    old = {"topologySpreadConstraints": [_ok(matchLabelKeys=["foo"], labelSelector=_foo_twice_in_expressions())]}
    assert topology_options(37, old).old_violates_match_label_keys
    assert not topology_options(33, old).old_violates_match_label_keys
    bad_selector = {"topologySpreadConstraints": [_ok(labelSelector={"matchLabels": {"a": "bad value"}})]}
    assert topology_options(32, bad_selector).allow_invalid_label_selector
    assert not topology_options(32, {"topologySpreadConstraints": [_ok()]}).allow_invalid_label_selector


@pytest.mark.parametrize(("release", "field"), [(32, "matchLabelKeys[0]"), (33, "matchLabelKeys[0]"), (34, "[0]"), (37, "[0]")])
def test_in_a_job_template_per_release(release: int, field: str) -> None:
    template = pod_template()
    both = {"matchLabels": {"foo": "a"}, "matchExpressions": [{"key": "foo", "operator": "Exists"}]}
    template["spec"]["topologySpreadConstraints"] = [_ok(matchLabelKeys=["foo"], labelSelector=both)]
    errors = validate_pod_template_spec(template, "t", pod_validation_options(release, None))
    assert pairs(errors) == {(f"t.spec.topologySpreadConstraints[0]{'.' if field[0] != '[' else ''}{field}", "FieldValueInvalid")}
