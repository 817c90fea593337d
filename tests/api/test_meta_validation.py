"""Names, labels, selectors and metadata as apimachinery validates them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jobmodel.api import meta_validation as mv
from jobmodel.api.field import render_value
from jobmodel.util.gostrings import go_len


@pytest.mark.parametrize("name", ["a", "my-job", "0abc", "a" * 63])
def test_dns1123_label_accepts(name: str) -> None:
    assert mv.is_dns1123_label(name) == []


@pytest.mark.parametrize("name", ["", "-a", "a-", "A", "a.b", "a_b", "a" * 64, "a\n"])
def test_dns1123_label_refuses(name: str) -> None:
    assert mv.is_dns1123_label(name)


def test_dns_label_with_dots_says_so() -> None:
    assert mv.is_dns1123_label("a.b") == ["must not contain dots"]


@pytest.mark.parametrize("name", ["job-name", "batch.kubernetes.io/job-name", "A_b.c", "x/y"])
def test_qualified_name_accepts(name: str) -> None:
    assert mv.is_qualified_name(name) == []


@pytest.mark.parametrize("name", ["", "/a", "a/", "a/b/c", "-a", "Example.com/a", "a" * 64])
def test_qualified_name_refuses(name: str) -> None:
    assert mv.is_qualified_name(name)


def test_label_value_may_be_empty_but_not_too_long() -> None:
    assert mv.is_valid_label_value("") == []
    assert mv.is_valid_label_value("a" * 64, 32) == ["must be no more than 63 characters"]


@pytest.mark.parametrize(("release", "unit"), [(34, "characters"), (35, "bytes"), (37, "bytes")])
def test_label_lengths_are_bytes_from_1_35(release: int, unit: str) -> None:
    """1.35's apimachinery checks labels with content.IsLabelKey/IsLabelValue, whose MaxLenError
    counts bytes (api/validate/content/errors.go); Go's len is in bytes in every release."""
    assert mv.is_valid_label_value("é" * 32, release)[0] == f"must be no more than 63 {unit}"
    assert mv.is_qualified_name("a" * 64, release)[0] == f"name part must be no more than 63 {unit}"


@pytest.mark.parametrize(("release", "start"), [(34, "a qualified name "), (35, "a valid label key ")])
def test_label_key_with_two_slashes_by_release(release: int, start: str) -> None:
    assert mv.is_qualified_name("a/b/c", release)[0].startswith(start)


_REF = {"apiVersion": "", "kind": "", "name": "n", "uid": "u"}


@pytest.mark.parametrize(
    ("release", "expected"),
    [
        (33, [("metadata.ownerReferences.apiVersion", "FieldValueInvalid", "version must not be empty"),
              ("metadata.ownerReferences.kind", "FieldValueInvalid", "kind must not be empty")]),
        (34, [("metadata.ownerReferences.apiVersion", "FieldValueInvalid", "version must not be empty"),
              ("metadata.ownerReferences.kind", "FieldValueInvalid", "must not be empty")]),
        (37, [("metadata.ownerReferences[0].apiVersion", "FieldValueRequired", "must not be empty"),
              ("metadata.ownerReferences[0].kind", "FieldValueRequired", "must not be empty")]),
    ],
)
def test_owner_reference_messages_by_release(release: int, expected: list[tuple[str, str, str]]) -> None:
    """validateOwnerReference: apimachinery v0.33, v0.34 and v0.37 `api/validation/objectmeta.go`."""
    errors = mv.validate_owner_references([_REF], "metadata.ownerReferences", release)
    assert [(e.field, e.type, e.detail) for e in errors] == expected


def test_owner_reference_api_version_without_version_in_1_37() -> None:
    errors = mv.validate_owner_references([{**_REF, "apiVersion": "g/", "kind": "K"}], "m", 37)
    assert [(e.field, e.detail) for e in errors] == [("m[0].apiVersion", "must be <group>/<version> or <version>")]


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        ("acme.io/foo", True),
        ("acme.io/foo/bar", True),
        ("foo", False),
        ("/foo", False),
        ("acme.io/", False),
    ],
)
def test_domain_prefixed_path(value: str, ok: bool) -> None:
    assert (mv.is_domain_prefixed_path("spec.managedBy", value) == []) is ok


def test_selector_matching() -> None:
    sel = {
        "matchLabels": {"a": "b"},
        "matchExpressions": [{"key": "c", "operator": "In", "values": ["d"]}],
    }
    assert mv.label_selector_matches(sel, {"a": "b", "c": "d"}) is True
    assert mv.label_selector_matches(sel, {"a": "b"}) is False
    assert mv.label_selector_matches(None, {"a": "b"}) is False  # a nil selector selects nothing
    assert mv.label_selector_matches({}, {}) is True
    bad = {"matchExpressions": [{"key": "c", "operator": "In", "values": []}]}
    assert mv.label_selector_matches(bad, {}) is None


def test_selector_requirement_errors() -> None:
    sel = {
        "matchExpressions": [
            {"key": "c", "operator": "Exists", "values": ["x"]},
            {"key": "d", "operator": "Maybe"},
        ]
    }
    errs = mv.validate_label_selector(sel, "spec.selector")
    assert [(e.field, e.type) for e in errs] == [
        ("spec.selector.matchExpressions[0].values", "FieldValueForbidden"),
        ("spec.selector.matchExpressions[1].operator", "FieldValueInvalid"),
    ]


def test_object_meta_requires_name_and_namespace() -> None:
    errs = mv.validate_object_meta({})
    assert {(e.field, e.type) for e in errs} == {
        ("metadata.name", "FieldValueRequired"),
        ("metadata.namespace", "FieldValueRequired"),
    }


def test_object_meta_update_immutable_name_and_resource_version() -> None:
    errs = mv.validate_object_meta_update(
        {"name": "b", "namespace": "ns"}, {"name": "a", "namespace": "ns"}
    )
    assert {(e.field, e.type) for e in errs} == {
        ("metadata.resourceVersion", "FieldValueInvalid"),
        ("metadata.name", "FieldValueInvalid"),
    }


def test_object_meta_update_compares_timestamps_as_instants() -> None:
    """ValidateImmutableField uses Semantic.DeepEqual, whose metav1.Time equality is `a.UTC() == b.UTC()`."""
    old = {"name": "a", "namespace": "ns", "resourceVersion": "1", "creationTimestamp": "2024-01-01T00:00:00Z",
           "deletionTimestamp": "2024-01-01T00:00:00Z"}
    same = {**old, "creationTimestamp": "2024-01-01T01:00:00+01:00", "deletionTimestamp": "2024-01-01T00:00:00.000Z"}
    assert mv.validate_object_meta_update(same, old) == []
    moved = {**old, "creationTimestamp": "2024-01-01T00:00:00.000000001Z"}
    assert [(e.field, e.detail) for e in mv.validate_object_meta_update(moved, old)] == [("metadata.creationTimestamp", "field is immutable")]
    zero = {**old, "creationTimestamp": "0001-01-01T00:00:00Z"}
    assert mv.validate_object_meta_update(zero, {**old, "creationTimestamp": None}) == []


@pytest.mark.parametrize(
    ("release", "creation", "removed", "deletion"),
    [
        # apimachinery v0.32/0.33 ErrorBody: a metav1.Time is a fmt.Stringer (time.Time.String, in the
        # server's zone, UTC); a nil *metav1.Time becomes the string "null", quoted.
        (32, "2024-01-02 00:00:00.5 +0000 UTC", "0001-01-01 00:00:00 +0000 UTC", '"null"'),
        # v0.34+: json.Marshal (metav1.Time.MarshalJSON: RFC 3339, whole seconds; zero and nil as null).
        (34, '"2024-01-02T00:00:00Z"', "null", "null"),
    ],
)
def test_immutable_metadata_times_print_as_their_go_type(release: int, creation: str, removed: str, deletion: str) -> None:
    """ValidateObjectMetaUpdate's immutable creationTimestamp (a metav1.Time) and deletionTimestamp
    (a *metav1.Time), as ErrorBody prints them at each release."""
    old = {"name": "a", "namespace": "ns", "resourceVersion": "1", "creationTimestamp": "2024-01-01T00:00:00Z", "deletionTimestamp": "2024-01-01T00:00:00Z"}

    def message(new: Mapping[str, Any], name: str) -> str:
        (error,) = [e for e in mv.validate_object_meta_update(new, old, release=release) if e.field == f"metadata.{name}"]
        return str(error)

    changed = {**old, "creationTimestamp": "2024-01-02T01:00:00.5+01:00"}
    assert message(changed, "creationTimestamp") == f"metadata.creationTimestamp: Invalid value: {creation}: field is immutable"
    without = {k: v for k, v in old.items() if k not in ("creationTimestamp", "deletionTimestamp")}
    assert message(without, "creationTimestamp") == f"metadata.creationTimestamp: Invalid value: {removed}: field is immutable"
    assert message(without, "deletionTimestamp") == f"metadata.deletionTimestamp: Invalid value: {deletion}: field is immutable"


def test_new_finalizers_of_a_deleted_object_are_listed_as_go_prints_them() -> None:
    """The message's %#v of the sorted []string quotes each name as strconv.Quote does."""
    old = {"name": "a", "namespace": "ns", "resourceVersion": "1", "deletionTimestamp": "2024-01-01T00:00:00Z"}
    errs = mv.validate_object_meta_update({**old, "finalizers": ["example.com/\t", 'a"b/c']}, old)
    forbidden = [e.detail for e in errs if e.field == "metadata.finalizers" and e.type == "FieldValueForbidden"]
    assert forbidden == ['no new finalizers can be added if the object is being deleted, found new finalizers []string{"a\\"b/c", "example.com/\\t"}']


def test_object_meta_update_checks_the_generation_sign_from_1_37() -> None:
    """apimachinery v0.37's ValidateObjectMetaAccessorUpdate: ValidateNonnegativeField, then the
    decrement check; v0.36 has the decrement check alone."""
    new = {"name": "a", "namespace": "ns", "resourceVersion": "1", "generation": -1}
    old = {"name": "a", "namespace": "ns", "resourceVersion": "1"}
    at_37 = mv.validate_object_meta_update(new, old, release=37)
    assert [(e.field, e.detail) for e in at_37] == [
        ("metadata.generation", "must be greater than or equal to 0"),
        ("metadata.generation", "must not be decremented"),
    ]
    at_36 = mv.validate_object_meta_update(new, old, release=36)
    assert [(e.field, e.detail) for e in at_36] == [("metadata.generation", "must not be decremented")]


def test_managed_fields_follow_validate_managed_fields() -> None:
    """ValidateManagedFields / ValidateFieldManager (apimachinery meta/v1/validation): expected
    values from their code; the operation's error changed in v0.37."""
    entries: list[Mapping[str, Any]] = [
        {"operation": "Bogus"},
        {"operation": ""},
        {"operation": "Apply", "fieldsType": "FieldsV2", "manager": "m" * 129, "subresource": "s" * 257},
        {"operation": "Update", "manager": "\u00e9\t"},
    ]
    errs = mv.validate_managed_fields(entries, "metadata.managedFields", release=37)
    assert [(e.field, e.type, e.detail) for e in errs] == [
        ("metadata.managedFields[0].operation", "FieldValueNotSupported", 'supported values: "Apply", "Update"'),
        ("metadata.managedFields[1].operation", "FieldValueRequired", "must not be empty"),
        ("metadata.managedFields[2].fieldsType", "FieldValueInvalid", "must be `FieldsV1`"),
        ("metadata.managedFields[2].manager", "FieldValueTooLong", "may not be more than 128 bytes"),
        ("metadata.managedFields[2].subresource", "FieldValueTooLong", "may not be more than 256 bytes"),
        # The rune's byte offset: the e-acute takes two bytes.
        ("metadata.managedFields[3].manager", "FieldValueInvalid", "invalid character U+0009 (at position 2)"),
    ]
    at_36 = mv.validate_managed_fields(entries[:2], "m", release=36)
    assert [(e.type, e.detail) for e in at_36] == [("FieldValueInvalid", "must be `Apply` or `Update`")] * 2


def test_has_label() -> None:
    assert [e.type for e in mv.validate_has_label({"labels": {}}, "m", "k", "v")] == [
        "FieldValueRequired"
    ]
    assert [e.type for e in mv.validate_has_label({"labels": {"k": "w"}}, "m", "k", "v")] == [
        "FieldValueInvalid"
    ]
    assert mv.validate_has_label({"labels": {"k": "v"}}, "m", "k", "v") == []


@given(st.from_regex(r"[a-z0-9]([-a-z0-9]{0,30}[a-z0-9])?", fullmatch=True))
def test_generated_dns_labels_are_labels_and_subdomains(name: str) -> None:
    assert mv.is_dns1123_label(name) == []
    assert mv.is_dns1123_subdomain(name) == []


@pytest.mark.parametrize(
    ("port", "messages"),
    [
        ("http", []),
        ("80", ["must contain at least one letter (a-z)"]),
        ("a--b", ["must not contain consecutive hyphens"]),
        ("-a", ["must not begin or end with a hyphen"]),
        ("Bad_Port", ["must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)"]),
        ("a" * 16, ["must be no more than 15 characters"]),
    ],
)
def test_port_names(port: str, messages: list[str]) -> None:
    assert mv.is_valid_port_name(port) == messages


def test_port_name_errors_all_come() -> None:
    assert mv.is_valid_port_name("-a--" + "b" * 12) == [
        "must be no more than 15 characters",
        "must not contain consecutive hyphens",
        "must not begin or end with a hyphen",
    ]


SELECTOR = {"matchLabels": {"a": "<b>"}, "matchExpressions": [{"key": "k", "operator": "In", "values": ["v&", "w"]}, {"key": "e", "operator": "Exists"}]}


def test_a_label_selector_bad_value_as_upstream_prints_it() -> None:
    """Upstream's messages for a CronJob's jobTemplate selector (harness at 1.32 and 1.37): `%#v`
    up to 1.33, json.Marshal (declaration order, omitempty, HTML-escaped) from 1.34."""
    assert render_value(mv.label_selector_value(SELECTOR, 32)) == (
        'v1.LabelSelector{MatchLabels:map[string]string{"a":"<b>"}, MatchExpressions:[]v1.LabelSelectorRequirement{'
        'v1.LabelSelectorRequirement{Key:"k", Operator:"In", Values:[]string{"v&", "w"}}, '
        'v1.LabelSelectorRequirement{Key:"e", Operator:"Exists", Values:[]string(nil)}}}'
    )
    assert render_value(mv.label_selector_value(SELECTOR, 37)) == (
        r'{"matchLabels":{"a":"\u003cb\u003e"},"matchExpressions":[{"key":"k","operator":"In","values":["v\u0026","w"]},'
        r'{"key":"e","operator":"Exists"}]}'
    )
    assert render_value(mv.label_selector_value({"matchLabels": {}}, 32)) == (
        "v1.LabelSelector{MatchLabels:map[string]string{}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}"
    )
    assert render_value(mv.label_selector_value({"matchLabels": {}}, 37)) == "{}"


def test_owner_references_bad_value_is_json_marshal() -> None:
    """Upstream's message at 1.37 for two controller references (json tags' order, not sorted)."""
    refs: list[Mapping[str, Any]] = [
        {"apiVersion": "batch/v1", "kind": "CronJob", "name": "c<", "uid": "u1", "controller": True},
        {"apiVersion": "batch/v1", "kind": "CronJob", "name": "d", "uid": "u2", "controller": True, "blockOwnerDeletion": False},
    ]
    assert render_value(mv.owner_references_value(refs)) == (
        r'[{"apiVersion":"batch/v1","kind":"CronJob","name":"c\u003c","uid":"u1","controller":true},'
        r'{"apiVersion":"batch/v1","kind":"CronJob","name":"d","uid":"u2","controller":true,"blockOwnerDeletion":false}]'
    )


@pytest.mark.parametrize(
    ("value", "too_long"),
    [("ü" * 31, False), ("ü" * 32, True), ("a" * 61 + "ü", False), ("a" * 62 + "ü", True), ("\ud800" * 21, False), ("\ud800" * 22, True)],
)
def test_name_lengths_count_bytes_as_go_does(value: str, too_long: bool) -> None:
    """Go's len counts UTF-8 bytes (a lone surrogate decodes to U+FFFD, three bytes): a name of
    32 `ü` is 64 bytes, beyond a DNS-1123 label's 63, though 32 characters."""
    assert (mv.max_len_error(63) in mv.is_dns1123_label(value)) is too_long
    assert go_len(value) == len(value.encode("utf-8", "surrogatepass"))


def test_field_manager_printable_by_go_unicode_tables() -> None:
    """ValidateFieldManager's unicode.IsPrint is Go's Unicode 15.0 (apimachinery v0.37.2 run with
    Go 1.26): U+1E030, unassigned in Python 3.11's tables, is printable; U+0378 is not."""
    assert mv.validate_field_manager("kubectl-\U0001e030", "m") == []
    errs = mv.validate_field_manager("kubectl-\u0378", "m")
    assert [e.detail for e in errs] == ["invalid character U+0378 (at position 8)"]


def test_port_and_label_lengths_count_bytes() -> None:
    """IsValidPortName's 15 and a label value's 63 are bytes (Go's len)."""
    assert mv.max_len_error(15) in mv.is_valid_port_name("\u00e9" * 8)
    assert mv.is_valid_label_value("\u00e9" * 32, 34) == [mv.max_len_error(63), mv.is_valid_label_value("\u00e9", 34)[0]]


def test_annotation_size_counts_bytes() -> None:
    """ValidateAnnotations' total size (256 KiB) in bytes: 131072 `ü` are 262144 bytes."""
    limit = mv.TOTAL_ANNOTATION_SIZE_LIMIT
    assert [e.type for e in mv.validate_annotations({"a": "ü" * (limit // 2)}, "metadata.annotations")] == ["FieldValueTooLong"]
    assert mv.validate_annotations({"a": "ü" * ((limit - 1) // 2)}, "metadata.annotations") == []


def test_a_prefix_is_masked_in_bytes() -> None:
    """maskTrailingDash cuts `name[:len(name)-2]` in bytes: of `é-` one byte of `é` is left, no
    DNS character, so the prefix is invalid (cut in characters it would be the valid `a`)."""
    assert mv.name_is_dns_subdomain("\u00e9-", True) != []
    assert mv.name_is_dns_subdomain("ab-", True) == []
    assert mv.name_is_dns_subdomain("a-", True) == []


_DEDUP_REF = {"apiVersion": "customresourceVersion", "kind": "customresourceKind", "name": "name", "uid": "1"}


@pytest.mark.parametrize(
    ("refs", "kept", "duplicates"),
    [  # apiserver's TestDedupOwnerReferences, and a nil pointer against one to false
        ([_DEDUP_REF, {**_DEDUP_REF, "uid": "2"}, _DEDUP_REF, _DEDUP_REF, {**_DEDUP_REF, "uid": "2"}], [_DEDUP_REF, {**_DEDUP_REF, "uid": "2"}], ["1", "1", "2"]),
        ([{**_DEDUP_REF, "name": "name1"}, {**_DEDUP_REF, "name": "name2"}], [{**_DEDUP_REF, "name": "name1"}, {**_DEDUP_REF, "name": "name2"}], []),
        ([_DEDUP_REF, {**_DEDUP_REF, "apiVersion": "v2"}], [_DEDUP_REF, {**_DEDUP_REF, "apiVersion": "v2"}], []),
        ([{**_DEDUP_REF, "controller": False, "blockOwnerDeletion": False}] * 2, [{**_DEDUP_REF, "controller": False, "blockOwnerDeletion": False}], ["1"]),
        ([_DEDUP_REF, {**_DEDUP_REF, "controller": False}], [_DEDUP_REF, {**_DEDUP_REF, "controller": False}], []),
        ([_DEDUP_REF, {**_DEDUP_REF, "controller": None, "name": "name"}], [_DEDUP_REF], ["1"]),  # null is absent
    ],
)
def test_dedup_owner_references(refs: list[dict[str, Any]], kept: list[dict[str, Any]], duplicates: list[str]) -> None:
    assert mv.dedup_owner_references(refs) == (kept, duplicates)
