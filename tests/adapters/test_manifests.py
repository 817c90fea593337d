"""Reading manifests (jobmodel/adapters/manifests.py)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from jobmodel.adapters.manifests import (
    MAX_MANIFEST_BYTES,
    load_documents,
    manifest_documents,
    parse_json,
    read_manifest,
)
from jobmodel.api.quantity import raw_text
from jobmodel.errors import InputError


def test_json_list_and_kube_list_are_expanded() -> None:
    assert len(load_documents("x", '[{"kind": "Job"}, {"kind": "CronJob"}]')) == 2
    assert len(load_documents("x", "kind: List\nitems: [{kind: Job}]\n")) == 1


def test_several_yaml_documents_and_empty_ones() -> None:
    assert [d["kind"] for d in load_documents("x", "kind: Job\n---\n---\nkind: CronJob\n")] == ["Job", "CronJob"]


def test_yaml_timestamps_stay_the_text_written() -> None:
    """go-yaml v2 keeps a timestamp a string, as written, when it decodes into interface{}."""
    (doc,) = load_documents("x", "t: 2024-06-01T12:00:00+02:00\nd: 2024-1-1\ny: 0001-01-01T00:00:00+01:00\n")
    assert doc == {"t": "2024-06-01T12:00:00+02:00", "d": "2024-1-1", "true": "0001-01-01T00:00:00+01:00"}


# (YAML, the JSON kubectl makes of it): sigs.k8s.io/yaml's YAMLToJSON on go-yaml v2, as the
# harness's `--manifests` gives it (harness/upstream/manifests.go).
KUBECTL_READS = [
    ("a: y\nb: n\nc: On\nd: NO\n", '{"a": true, "b": false, "c": true, "d": false}'),
    ("a: 1:20\nb: =\nc: 2024-01-01\nd: 1_000\n", '{"a": "1:20", "b": "=", "c": "2024-01-01", "d": 1000}'),
    ("a: 0o17\nb: 017\nc: 08\nd: 0x_1F\ne: 0b-1\n", '{"a": 15, "b": 15, "c": 8, "d": 31, "e": -1}'),
    ("a: 1e3\nb: 1.0\nc: 1e-7\nd: .5e1\ne: ._5\n", '{"a": 1000, "b": 1, "c": 1e-7, "d": 5, "e": "._5"}'),
    ("a: 18446744073709551615\nb: 18446744073709551616\nc: 1e400\n", '{"a": 18446744073709551615, "b": 18446744073709552000, "c": "1e400"}'),
    ("1e3: a\n0.1: b\n1e6: c\ny: d\n", '{"1000": "a", "0.1": "b", "1e+06": "c", "true": "d"}'),
    ("a: !!binary aGVsbG8=\nb: !!binary /w==\nc: !foo 12\nd: !!set {x, y}\ne: !!omap [x: 1]\n", '{"a": "hello", "b": "\\ufffd", "c": "12", "d": {"x": null, "true": null}, "e": [{"x": 1}]}'),
    # go-yaml reads no tag of a collection; `!`, and `!!merge` but on a merge key, leave the text.
    ("a: !!seq {b: 1}\nb: !!map [1]\nc: !!str [1]\nd: !!int {x: 1}\n", '{"a": {"b": 1}, "b": [1], "c": [1], "d": {"x": 1}}'),
    ("a: !\nb: ! 12\nc: !!merge x\nd: <<\n", '{"a": "", "b": "12", "c": "x", "d": "<<"}'),
    # A tab is a blank where it cannot be indentation (go-yaml's scanner; PyYAML's refuses it).
    ("a:\tb\nc: d\te\nf: g\t# h\ni: |\t# c\n  x\nj: !!str\t5\nk: {l:\t1}\n", '{"a": "b", "c": "d\\te", "f": "g", "i": "x\\n", "j": "5", "k": {"l": 1}}'),
]


@pytest.mark.parametrize(("text", "kubectl"), KUBECTL_READS)
def test_yaml_scalars_are_read_as_kubectl_reads_them(text: str, kubectl: str) -> None:
    (doc,) = load_documents("m.yaml", text)
    expected = parse_json("kubectl", kubectl, wide_numbers=True)
    assert doc == expected
    # Each number is the same JSON text (what a quantity reads).
    assert {k: getattr(v, "literal", str(v)) for k, v in doc.items() if isinstance(v, int | float) and not isinstance(v, bool)} == {
        k: getattr(v, "literal", str(v)) for k, v in expected.items() if isinstance(v, int | float) and not isinstance(v, bool)
    }


def test_json_numbers_keep_their_text_and_strings_their_replacement_characters() -> None:
    """encoding/json: a quantity reads `1E3` as written; a lone surrogate escape, or a byte
    that is not UTF-8, is U+FFFD (one per byte)."""
    (doc,) = load_documents("m.json", '{"cpu": 1E3, "memory": 0.1000000000000000000001, "a": "x\\ud800y"}')
    assert raw_text(doc["cpu"]) == "1E3" and raw_text(doc["memory"]) == "0.1000000000000000000001"
    assert doc["a"] == "x\ufffdy"
    text = b'{"a": "x\xe2\x82y"}'.decode("utf-8", "surrogateescape")
    assert load_documents("m.json", text) == [{"a": "x\ufffd\ufffdy"}]
    assert parse_json("v.json", '{"a": "\\udc00"}') == {"a": "\ufffd"}


@pytest.mark.parametrize(
    ("text", "documents_1_32", "documents_1_33"),
    [
        ('{"a": 1}\n---\nb: 2\n', None, [{"a": 1}, {"b": 2}]),
        ("{a: 1}\n", None, [{"a": 1}]),
        ('{"a": 1} {"b": 2} c: 3\n', None, None),  # two JSON values read: no YAML after them
        ('{"a": 1}x', None, None),  # fewer than four bytes left: consumeWhitespace's io.EOF
        ('{"a": 1}\n{"b": 2}', [{"a": 1}, {"b": 2}], [{"a": 1}, {"b": 2}]),
        # Go's scanner reads `1e"` as one number that fails: the second value, so YAML goes on.
        ('{}1e"\\ud800"0x1', None, [{}, '1e"\\ud800"0x1']),
        # NaN is no JSON (an invalid character to Go): YAML reads `NaN` as a string.
        ('{"a": NaN}', None, [{"a": "NaN"}]),
    ],
)
def test_a_json_stream_goes_on_as_yaml_from_1_33(text: str, documents_1_32: list[Any] | None, documents_1_33: list[Any] | None) -> None:
    """YAMLOrJSONDecoder (apimachinery util/yaml): 1.32 reads a text that starts with `{` as JSON
    only; from 1.33 a failure at the first or second value goes on as YAML."""
    for release, expected in ((32, documents_1_32), (33, documents_1_33), (37, documents_1_33)):
        if expected is None:
            with pytest.raises(InputError, match="not JSON"):
                manifest_documents("m", text, release)
        else:
            assert manifest_documents("m", text, release) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: x\n\ty\n", "line 2 column 1: found a tab character that violates indentation"),
        ("a: |\n \ty\n", "line 2 column 2: found a tab character where an indentation space is expected"),
    ],
)
def test_a_tab_in_indentation_is_refused_as_kubectl_refuses_it(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        load_documents("m.yaml", text)


def test_malformed_yaml_names_line_and_column() -> None:
    with pytest.raises(InputError, match=r"malformed YAML at line 2 column"):
        load_documents("m.yaml", "a: 1\n b: [\n")


ALIAS_BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(9)
)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 5000 + "]" * 5000, "m.yaml: nested deeper than 100 levels"),
        ('{"a":' * 150 + "1" + "}" * 150, "m.yaml: a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a."),
        ("a: " + "[" * 150 + "]" * 150, "m.yaml: a[0][0][0][0][0][0][0][0][0][0][0][0][0]..."),
        (ALIAS_BOMB, "more than 100000 values (YAML aliases expand to too many)"),
        ("&a [*a]", "m.yaml: malformed YAML at line 1 column 5: anchor 'a' value contains itself"),
        ("a: &x\n  b: 1\n  <<: *x\n", "m.yaml: malformed YAML at line 3 column 7: anchor 'x' value contains itself"),
        ('{"spec": {"parallelism": ' + "1" * 200_000 + "}}", "m.yaml: an integer of 200000 digits: the model reads integers of up to 100000"),
        ('{"a": "\x01"}', "m.yaml: not JSON: Invalid control character at line 1 column 8"),
        ('{"a": "b', "m.yaml: not JSON: Unterminated string starting at line 1 column 7"),
        ("a: .inf\n", "m.yaml: a: json: unsupported value: +Inf"),
        ("a:\n  ~: 1\n", "m.yaml: a: unsupported map key of type null"),
        ('kind: "\\ud800"\n', "m.yaml: malformed YAML at line 1 column 10: found invalid Unicode character escape code"),
        ("a: 1\n--- b: 2\n", "m.yaml: invalid Yaml document separator at line 2: b: 2"),
        ("a: !!binary x\n", "m.yaml: malformed YAML at line 1 column 4: !!binary value contains invalid base64 data"),
        # A control character fails the reader, before any parsing (go-yaml refuses the same set).
        ("\x00\x01", "m.yaml: malformed YAML at line 1 column 1: control characters are not allowed (U+0000)"),
        ("a: b\n---\nc: d\ne: \x7f\n", "m.yaml: malformed YAML at line 4 column 4: control characters are not allowed (U+007F)"),
    ],
)
def test_reading_is_bounded_and_names_the_file_and_the_field(text: str, message: str) -> None:
    with pytest.raises(InputError) as info:
        load_documents("m.yaml", text)
    assert str(info.value).startswith("m.yaml: ") and message in str(info.value), str(info.value)
    assert len(str(info.value)) < 200  # a long path is shown by its two ends


def test_a_file_larger_than_the_limit_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text(" " * (MAX_MANIFEST_BYTES + 1))
    with pytest.raises(InputError, match=rf"big.json: larger than {MAX_MANIFEST_BYTES} bytes"):
        read_manifest(str(path), io.StringIO())
    with pytest.raises(InputError, match=r"STDIN: not a text file \(not UTF-8\)"):
        load_documents("STDIN", read_manifest("-", io.TextIOWrapper(io.BytesIO(b"\xff\xfe"))))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"spec": {"b": 1, "b": 2}}', "m.yaml: spec.b: duplicate field"),
        ('{"a": [{"kind": "Job"}, {"kind": "Job", "kind": "Job"}]}', "m.yaml: a[1].kind: duplicate field"),
        ("1e3: a\n'1000': b\n", "m.yaml: 1000: duplicate field"),
        (
            "spec:\n  backoffLimit: 1\n  backoffLimit: 2\n",
            'm.yaml: malformed YAML at line 3 column 3: duplicate field "backoffLimit" (first at line 2)',
        ),
        (
            "x: {a: 1, a: 2}\n",
            'm.yaml: malformed YAML at line 1 column 11: duplicate field "a" (first at line 1)',
        ),
        ("spec:\n  1: a\n  '1': b\n", "m.yaml: spec.1: duplicate field"),
    ],
)
def test_a_key_given_twice_is_refused(text: str, message: str) -> None:
    """A duplicate field is an error of Kubernetes' strict decoding (and of kubectl's YAML), not
    a silent last-one-wins."""
    with pytest.raises(InputError) as info:
        load_documents("m.yaml", text)
    assert str(info.value) == message


def test_errors_in_a_later_document_give_the_files_line() -> None:
    """Each document is parsed on its own (YAMLReader), but a message counts the file's lines."""
    # The stream ends after line 4, at line 5.
    with pytest.raises(InputError, match=r"malformed YAML at line 5 column 1"):
        load_documents("m.yaml", "a: 1\n---\nb: 2\nc: [\n")
    with pytest.raises(InputError, match=r'line 5 column 1: duplicate field "c" \(first at line 4\)'):
        load_documents("m.yaml", "a: 1\n---\nb: 2\nc: 1\nc: 2\n")


# (YAML, what kubectl reads): go-yaml's decoder sets a mapping's keys in order, a merge where it
# stands, the earlier of a list of merged mappings taking precedence.
MERGES = [
    ("a: 1\n<<: {a: 2}\n", {"a": 2}),
    ("<<: {a: 2}\na: 1\n", {"a": 1}),
    ("<<: [{a: 1}, {a: 2, b: 2}]\n", {"a": 1, "b": 2}),
    ("a: 3\n<<: [{a: 1}, {a: 2}]\n", {"a": 1}),
    ("<<: {a: 1}\n<<: {a: 2}\n", {"a": 2}),
]


@pytest.mark.parametrize(("text", "kubectl"), MERGES)
def test_a_merge_key_counts_where_it_stands(text: str, kubectl: dict[str, int]) -> None:
    assert load_documents("m.yaml", text) == [kubectl]


@pytest.mark.parametrize(
    ("text", "kubectl"),
    [
        ("a: |\n  x", [{"a": "x\n"}]),  # YAMLReader ends the last line with a newline too
        ("a: |\r\n  x\r\n", [{"a": "x\n"}]),
        ("\ufeff\ufeffa", ["a"]),  # the reader drops one byte order mark, the scanner a second
        ("\ufeff\ufeff\ufeffa", ["\ufeffa"]),
        ("a: 1\n\ufeffb: 2", [{"a": 1, "\ufeffb": 2}]),  # elsewhere it is a character
        ("! <<: {a: 1}\n", [{"a": 1}]),  # `!` counts as implicit: a merge key
    ],
)
def test_lines_and_marks_as_kubectl_reads_them(text: str, kubectl: list[Any]) -> None:
    assert load_documents("m.yaml", text) == kubectl


def test_nan_in_json_names_the_value_it_is_in() -> None:
    """1.32 reads no YAML after JSON that fails (from 1.33 `{"a": NaN}` is YAML's `{a: NaN}`)."""
    with pytest.raises(InputError, match=r"^m.json: not JSON: NaN is not JSON, in the value starting at line 2 column 1$"):
        load_documents("m.json", '{"a": 1}\n{"b": NaN}', 32)


def test_an_anchor_given_again_names_the_later_node() -> None:
    """go-yaml's parser keeps the last node of an anchor's name (`c: &b y` is true, `y`)."""
    assert load_documents("m.yaml", "a: &b x\nc: &b y\nd: *b\n") == [{"a": "x", "c": True, "d": True}]


def test_a_yaml_merge_key_may_be_overridden() -> None:
    text = "base: &b {x: 1, z: 2}\nd:\n  <<: *b\n  x: 3\ne:\n  <<: [*b, {x: 4}]\n"
    (doc,) = load_documents("m.yaml", text)
    assert doc["d"] == {"x": 3, "z": 2} and doc["e"] == {"x": 1, "z": 2}


MANIFEST_PIECES = st.sampled_from(
    [*"{}[]:,-?!&*#|>'\"\\ \n\t.eE+_0123456789abcxyYnN~%@`=<", "---", "!!binary ", "!!set ", "!foo ", "1e3", "0x", "\u00a0", "\x85", "\ud800", "\udcff", "é"]
)


@given(st.lists(MANIFEST_PIECES, max_size=40).map("".join), st.sampled_from([32, 33, 37]))
@example("{\ud800", 33)
def test_any_text_is_read_or_refused_never_a_traceback(text: str, release: int) -> None:
    try:
        documents = load_documents("m", text, release)
    except InputError as err:
        assert str(err).startswith("m")
    else:
        assert isinstance(documents, list)


def test_a_json_integer_of_thousands_of_digits_is_read_and_a_longer_one_named() -> None:
    assert parse_json("f.json", '{"a": ' + "1" * 5000 + "}", wide_numbers=True)["a"] == (10**5000 - 1) // 9
    with pytest.raises(InputError) as err:
        parse_json("f.json", '{"a": ' + "1" * 200_000 + "}")
    assert str(err.value).startswith("f.json: an integer of 200000 digits")
    assert "sys." not in str(err.value)
