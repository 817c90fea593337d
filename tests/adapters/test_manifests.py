"""Reading manifests (jobmodel/adapters/manifests.py)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from jobmodel.adapters.manifests import MAX_MANIFEST_BYTES, load_documents, read_manifest
from jobmodel.errors import InputError


def test_json_list_and_kube_list_are_expanded() -> None:
    assert len(load_documents("x", '[{"kind": "Job"}, {"kind": "CronJob"}]')) == 2
    assert len(load_documents("x", "kind: List\nitems: [{kind: Job}]\n")) == 1


def test_several_yaml_documents_and_empty_ones() -> None:
    assert [d["kind"] for d in load_documents("x", "kind: Job\n---\n---\nkind: CronJob\n")] == ["Job", "CronJob"]


def test_yaml_timestamps_stay_rfc3339_strings() -> None:
    (doc,) = load_documents("x", "t: 2024-06-01T12:00:00Z\n")
    assert doc["t"] == "2024-06-01T12:00:00Z"


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
        ("&a [*a]", "nested deeper than 100 levels"),
        ('{"spec": {"parallelism": ' + "1" * 5000 + "}}", "m.yaml: not JSON: Exceeds the limit (4300 digits)"),
        ("spec: {parallelism: " + "1" * 5000 + "}\n", "m.yaml: malformed YAML at line 1 column 21: an integer wider than 64 bits"),
        ('{"spec": {"parallelism": 18446744073709551616}}', "m.yaml: spec.parallelism: an integer wider than 64 bits"),
        ('{"a": NaN}', "m.yaml: not JSON: NaN is not JSON"),
        ('{"a": 1e999}', "m.yaml: a: not a finite number: inf"),
        ("a: .inf\n", "m.yaml: a: not a finite number: inf"),
        ('{"kind": "\\ud800"}', "m.yaml: kind: not valid Unicode (a lone surrogate)"),
        ("t: 0001-01-01T00:00:00+01:00\n", "m.yaml: t: a timestamp out of range (years 1 to 9999 in UTC)"),
        ("a: !!binary aGVsbG8=\n", "m.yaml: a: not a JSON value: bytes"),
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
        read_manifest("-", io.TextIOWrapper(io.BytesIO(b"\xff\xfe")))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"spec": {"b": 1, "b": 2}}', "m.yaml: spec.b: duplicate field"),
        ('[{"kind": "Job"}, {"kind": "Job", "kind": "Job"}]', "m.yaml: [1].kind: duplicate field"),
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


def test_a_yaml_merge_key_may_be_overridden() -> None:
    text = "base: &b {x: 1, y: 2}\nd:\n  <<: *b\n  x: 3\ne:\n  <<: [*b, {x: 4}]\n"
    (doc,) = load_documents("m.yaml", text)
    assert doc["d"] == {"x": 3, "y": 2} and doc["e"] == {"x": 1, "y": 2}
