"""Semantic equality on wire values: Go zero values and empty collections equal absence."""

from __future__ import annotations

from typing import Any

from jobmodel.api.equality import semantic_equal


def test_zero_values_of_non_pointer_fields_equal_absence() -> None:
    assert semantic_equal({"hostNetwork": False, "labels": {}}, {})
    assert semantic_equal(
        {"containers": [{"name": "a", "args": []}]}, {"containers": [{"name": "a"}]}
    )


def test_pointer_fields_keep_their_zero_values() -> None:
    assert not semantic_equal({"suspend": False}, {})
    assert not semantic_equal({"completions": 0}, {})
    assert not semantic_equal({"terminationGracePeriodSeconds": 0}, {})


def test_real_differences_are_seen() -> None:
    assert not semantic_equal({"nodeSelector": {"a": "b"}}, {"nodeSelector": {"a": "c"}})
    assert not semantic_equal(None, {})


def test_map_entries_with_empty_values_are_there() -> None:
    """A map[string]string with one entry, even an empty value, is not a nil map."""
    assert not semantic_equal({"metadata": {"annotations": {"extra": ""}}}, {"metadata": {}})
    assert not semantic_equal({"nodeSelector": {"disk": ""}}, {"nodeSelector": {}})
    assert not semantic_equal({"labels": {"a": "b", "team": ""}}, {"labels": {"a": "b"}})
    assert semantic_equal({"labels": {}}, {})


def test_pointers_to_empty_structs_differ_from_nil() -> None:
    """Semantic.DeepEqual: a nil *Affinity is not &Affinity{}; value structs (a container's
    resources, an object's metadata) equal their zero value."""
    assert not semantic_equal({"template": {"spec": {"affinity": {}}}}, {"template": {"spec": {}}})
    assert not semantic_equal({"containers": [{"name": "a", "livenessProbe": {}}]}, {"containers": [{"name": "a"}]})
    assert not semantic_equal({"volumes": [{"name": "v", "emptyDir": {}}]}, {"volumes": [{"name": "v"}]})
    assert not semantic_equal({"successPolicy": {"rules": []}}, {})
    assert semantic_equal({"containers": [{"name": "a", "resources": {}}]}, {"containers": [{"name": "a"}]})
    assert semantic_equal({"template": {"metadata": {}, "spec": {}}}, {})


def test_resources_is_a_pointer_in_a_pod_spec_only() -> None:
    """PodSpec.Resources is a *ResourceRequirements; Container.Resources and a claim template's
    spec.resources are values."""
    assert not semantic_equal({"template": {"spec": {"resources": {}}}}, {"template": {"spec": {}}})
    assert not semantic_equal({"resources": {}}, {})  # a pod spec compared on its own
    claim: dict[str, Any] = {"volumeClaimTemplate": {"spec": {"resources": {}}}}
    assert semantic_equal({"ephemeral": claim}, {"ephemeral": {"volumeClaimTemplate": {}}})


def test_times_compare_as_instants_at_nanosecond_precision() -> None:
    """Semantic's metav1.Time equality is `a.UTC() == b.UTC()`: the same instant written with
    another offset or trailing zeros is equal, 1 ns apart is not; a value field's zero time is absence."""
    assert semantic_equal({"metadata": {"creationTimestamp": "2024-01-01T00:00:00Z"}}, {"metadata": {"creationTimestamp": "2024-01-01T01:00:00.000+01:00"}})
    assert not semantic_equal({"creationTimestamp": "2024-01-01T00:00:00Z"}, {"creationTimestamp": "2024-01-01T00:00:00.000000001Z"})
    assert semantic_equal({"metadata": {"creationTimestamp": "0001-01-01T00:00:00Z"}}, {"metadata": {}})
    assert not semantic_equal({"deletionTimestamp": "0001-01-01T00:00:00Z"}, {})  # a pointer
    assert semantic_equal("2024-01-01T00:00:00Z", "2024-01-01T01:00:00+01:00", "deletionTimestamp")
    assert not semantic_equal("2024-01-01T00:00:00Z", "2024-01-01T01:00:00+01:00")  # not a time field
