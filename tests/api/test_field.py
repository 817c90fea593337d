"""FieldError rendering matches field.Error.Error() and kubectl's StatusError message."""

from __future__ import annotations

from jobmodel.api import field as fe


def test_invalid_int_renders_value_and_detail() -> None:
    err = fe.invalid("spec.completions", -1, "must be greater than or equal to 0")
    assert str(err) == "spec.completions: Invalid value: -1: must be greater than or equal to 0"
    assert err.type == "FieldValueInvalid"


def test_string_values_are_quoted_and_objects_are_json() -> None:
    assert str(fe.invalid("a", "x y", "bad")) == 'a: Invalid value: "x y": bad'
    assert str(fe.invalid("a", {"b": 1}, "bad")) == 'a: Invalid value: {"b":1}: bad'
    assert str(fe.invalid("a", True, "bad")) == "a: Invalid value: true: bad"


# Characters %q and json.Marshal write differently.
ODD = "<&>\u2028\u00a0\x01\x7f"


def test_a_string_is_quoted_as_percent_q_and_anything_else_marshalled() -> None:
    """ErrorBody: `%q` for a string (strconv.Quote: HTML characters as they are, controls and
    unprintable runes escaped), json.Marshal for maps and lists (HTML characters escaped). The
    expected texts are upstream's messages (harness/upstream at 1.37, a succeededIndexes and a
    template-labels map with these characters)."""
    assert fe.render_value(ODD) == r'"<&>\u2028\u00a0\x01\x7f"'
    assert fe.render_value({"k": "<uid&>"}) == r'{"k":"\u003cuid\u0026\u003e"}'
    assert fe.render_value(["<"]) == r'["\u003c"]'


def test_a_named_string_type_is_marshalled_from_1_34() -> None:
    """A value of a named string type (batch.CompletionMode) misses ErrorBody's `case string`:
    `%#v` (strconv.Quote) up to 1.33, json.Marshal from 1.34 (upstream's messages at 1.33 and
    1.34 for a completionMode of these characters)."""
    assert fe.render_value(fe.named(ODD, 33)) == r'"<&>\u2028\u00a0\x01\x7f"'
    assert fe.render_value(fe.named(ODD, 34)) == '"\\u003c\\u0026\\u003e\\u2028\u00a0\\u0001\x7f"'
    assert fe.named(ODD, 34) != ODD
    assert fe.named(ODD, 33) == ODD


def test_an_internal_struct_keeps_its_go_field_order_and_maps_their_sorted_keys() -> None:
    value = fe.GoStruct((("Zeta", None), ("Alpha", [fe.GoStruct((("M", {"b": 1, "a": "x"}),))])))
    assert fe.render_value(value) == '{"Zeta":null,"Alpha":[{"M":{"a":"x","b":1}}]}'


def test_an_internal_struct_escapes_html_as_json_marshal_does() -> None:
    """Upstream's message at 1.37 for a NonIndexed Job's successPolicy with succeededIndexes "<&>"."""
    value = fe.GoStruct((("Rules", [fe.GoStruct((("SucceededIndexes", "<&>"), ("SucceededCount", None)))]),))
    assert fe.render_value(value) == r'{"Rules":[{"SucceededIndexes":"\u003c\u0026\u003e","SucceededCount":null}]}'


def test_required_and_forbidden_never_show_a_value() -> None:
    assert str(fe.required("spec.selector")) == "spec.selector: Required value"
    assert str(fe.required("x", "why")) == "x: Required value: why"
    assert str(fe.forbidden("x", "no")) == "x: Forbidden: no"


def test_omitted_value() -> None:
    assert (
        str(fe.invalid("spec.rules[0]", fe.OMIT, "need one"))
        == "spec.rules[0]: Invalid value: need one"
    )


def test_not_supported_lists_quoted_values() -> None:
    err = fe.not_supported("p", "x", ["Failed", "TerminatingOrFailed"])
    assert (
        str(err) == 'p: Unsupported value: "x": supported values: "Failed", "TerminatingOrFailed"'
    )


def test_too_long_and_too_many() -> None:
    assert (
        str(fe.too_long("spec.managedBy", 63))
        == "spec.managedBy: Too long: may not be more than 63 bytes"
    )
    assert str(fe.too_many("r", 21, 20)) == "r: Too many: 21: must have at most 20 items"


def test_paths() -> None:
    assert fe.child("", "spec", "template") == "spec.template"
    assert fe.index("spec.rules", 2) == "spec.rules[2]"
    assert fe.key("labels", "job-name") == "labels[job-name]"


def test_render_errors_one_and_many() -> None:
    one = [fe.invalid("spec.completions", -1, "must be greater than or equal to 0")]
    assert fe.render_errors("Job", "pi", one) == (
        'The Job "pi" is invalid: spec.completions: Invalid value: -1: must be greater than or equal to 0'
    )
    many = [*one, fe.required("spec.selector")]
    text = fe.render_errors("Job", "pi", many)
    assert text.splitlines()[1:] == [
        "* spec.completions: Invalid value: -1: must be greater than or equal to 0",
        "* spec.selector: Required value",
    ]


def test_render_errors_quotes_the_name_as_go_does() -> None:
    # kubectl's `The %s %q is invalid`: a name with a control character is escaped, not printed raw.
    text = fe.render_errors("Job", "a\x00b", [fe.required("spec.selector")])
    assert text.startswith('The Job "a\\x00b" is invalid: ') and "\x00" not in text


def test_invalid_status_message_is_the_api_servers_own() -> None:
    # apierrors.NewInvalid: `<Kind>.<group> %q is invalid: ` and ErrorList.ToAggregate's text.
    one = fe.invalid("status.ready", 2, "must be less than or equal to active")
    other = fe.required("status.startTime")
    assert fe.invalid_status_message("Job.batch", "pi", [one]) == f'Job.batch "pi" is invalid: {one}'
    assert fe.invalid_status_message("Job.batch", "pi", [one, other, one]) == (
        f'Job.batch "pi" is invalid: [{one}, {other}]'
    )
    assert fe.invalid_status_message("Job.batch", "pi", [one, one]) == f'Job.batch "pi" is invalid: {one}'



def test_a_string_map_is_printed_with_percent_sharp_v_before_1_34() -> None:
    """ErrorBody of a map[string]string: `%#v` up to 1.33, json.Marshal from 1.34; a nil map is
    `map[string]string(nil)`, then `null` (upstream's messages at 1.32 and 1.37 for a Job's
    template labels that miss the selector, and that are absent)."""
    labels = {"job-name": "job", "controller-uid": "<uid&>"}
    assert fe.render_value(fe.string_map(labels, 33)) == 'map[string]string{"controller-uid":"<uid&>", "job-name":"job"}'
    assert fe.render_value(fe.string_map(labels, 34)) == r'{"controller-uid":"\u003cuid\u0026\u003e","job-name":"job"}'
    assert fe.render_value(fe.string_map(None, 32)) == "map[string]string(nil)"
    assert fe.render_value(fe.string_map(None, 37)) == "null"
    assert fe.render_value(fe.string_map({}, 32)) == "map[string]string{}"


def test_a_wire_struct_keeps_its_declaration_order_and_omits_empty_omitempty_fields() -> None:
    """json.Marshal of a struct with json tags (metav1.OwnerReference): declaration order, an
    omitempty *bool left out only when nil; an absent string field written as ""."""
    names = ("apiVersion", "kind", "name", "uid", "controller", "blockOwnerDeletion")
    ref = fe.json_struct({"uid": "u", "kind": "K", "blockOwnerDeletion": False}, names, frozenset(names[4:]))
    assert fe.render_value(ref) == '{"apiVersion":"","kind":"K","name":"","uid":"u","blockOwnerDeletion":false}'


def test_a_slice_is_printed_with_percent_sharp_v_before_1_34() -> None:
    """Upstream's messages (harness at 1.32 and 1.37) for finalizers orphan and foregroundDeletion
    and for onExitCodes values that are empty or out of order."""
    finalizers = ["orphan", "foregroundDeletion"]
    assert fe.render_value(fe.go_slice(finalizers, "[]string", 32)) == '[]string{"orphan", "foregroundDeletion"}'
    assert fe.render_value(fe.go_slice(finalizers, "[]string", 37)) == '["orphan","foregroundDeletion"]'
    assert fe.render_value(fe.go_slice([], "[]int32", 32)) == "[]int32{}"
    assert fe.render_value(fe.go_slice([3, 1], "[]int32", 32)) == "[]int32{3, 1}"
    assert fe.render_value(fe.go_slice(None, "[]int32", 32)) == "[]int32(nil)"
    assert fe.render_value(fe.go_slice(None, "[]int32", 37)) == "null"
