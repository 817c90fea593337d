"""The YAML scanner of go-yaml v2 where PyYAML's differs (jobmodel/adapters/goyaml_scanner.py).
kubectl's readings of the same texts are compared in tests/differential/test_manifests.py."""

from __future__ import annotations

import re

import pytest
import yaml
from hypothesis import example, given
from hypothesis import strategies as st

from jobmodel.adapters.goyaml_scanner import GoScanningLoader


def tokens(text: str, loader: type[yaml.SafeLoader] = GoScanningLoader) -> list[tuple[str, object]]:
    return [(type(t).__name__, getattr(t, "value", None)) for t in yaml.scan(text, Loader=loader)]


def scalars(text: str) -> list[object]:
    return [value for kind, value in tokens(text) if kind == "ScalarToken"]


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("a:\tb\n", ["a", "b"]),  # after a key's `:` no simple key may start: a tab separates
        ("a: b\tc\n", ["a", "b\tc"]),  # a tab between words of a plain scalar
        ("a: b\t# c\n", ["a", "b"]),  # trailing blanks are no part of it
        ("a: b\n  \tc\n", ["a", "b c"]),  # past the indentation, a tab is a blank
        ("{a:\t1,\tb: 2}\n", ["a", "1", "b", "2"]),  # the flow context takes tabs anywhere
        ("a: |\t# c\n  x\n", ["a", "x\n"]),
        ("a: |#c\n  x\n", ["a", "x\n"]),  # indicators need no blank before a comment
        ("a: >-2\n   x\n", ["a", " x"]),
    ],
)
def test_a_tab_is_a_blank_where_it_cannot_be_indentation(text: str, values: list[str]) -> None:
    assert scalars(text) == values
    assert "\t" not in text or _pyyaml_refuses(text)  # what the scanner is for


def _pyyaml_refuses(text: str) -> bool:
    try:
        tokens(text, yaml.SafeLoader)
    except yaml.YAMLError:
        return True
    return False


def test_double_quoted_escapes_are_go_yaml_s() -> None:
    assert scalars('a: "\\\'\\e\\x41\\u00e9\\U0010FFFF\\N\\_"\n') == ["a", "'\x1bA\u00e9\U0010ffff\x85\xa0"]


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("!!str a", ("!!", "str")),
        ("!e!x a", ("!e!", "x")),
        ("!foo a", ("!", "foo")),
        ("!~!!! a", ("!", "~!!!")),  # no handle (a handle is letters, digits, `_`, `-`): a URI
        ("!a-b_c a", ("!", "a-b_c")),
        ("!<tag:x> a", (None, "tag:x")),
        ("! a", (None, "!")),
    ],
)
def test_tag_handles_are_go_yaml_s(text: str, tag: tuple[str | None, str]) -> None:
    assert ("TagToken", tag) in tokens(text)


def first_document(text: str) -> object:
    loader = GoScanningLoader(text)
    try:
        return loader.get_data()
    finally:
        loader.dispose()


def test_after_an_empty_flow_collection_the_scanner_reads_one_token_on() -> None:
    """go-yaml forgets the key of the token that opened an empty collection, so the document
    ends before the bad escape two tokens on; after `[1]` it looks on for a `:` and fails."""
    assert first_document('[]"a""\\y"') == []
    with pytest.raises(yaml.scanner.ScannerError, match="found unknown escape character"):
        first_document('[1]"a""\\y"')
    assert ("KeyToken", None) in tokens("[]: x\n")  # a `:` still makes the collection a key


def test_a_tag_ends_at_a_tab() -> None:
    assert ("TagToken", ("!!", "str")) in tokens("a: !!str\tb\n")
    assert ("TagToken", (None, "!")) in tokens("a: !\tb\n")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("a: x\n\ty\n", "found a tab character that violates indentation"),
        ("a: |\n \ty\n", "found a tab character where an indentation space is expected"),
        ("a: |\n  x\n \ty\n", "found a tab character where an indentation space is expected"),
        ("a: |0\n  x\n", "found an indentation indicator equal to 0"),
        ("a: |x\n  x\n", "expected a comment or a line break"),
        ("a: !!str{b\n", "expected ' ', but found '{'"),
        ('a: "\\/"\n', "found unknown escape character"),  # PyYAML reads it as `/`
        ('a: "\\ud800"\n', "found invalid Unicode character escape code"),
        ('a: "\\U00110000"\n', "found invalid Unicode character escape code"),
        ('a: "\\x4"\n', "did not find expected hexdecimal number"),
    ],
)
def test_what_go_yaml_refuses(text: str, problem: str) -> None:
    with pytest.raises(yaml.scanner.ScannerError, match=re.escape(problem)):
        tokens(text)


# Texts of YAML's indicators, words and line structure, without tabs; a `:` is never followed by
# a flow indicator (PyYAML ends a plain scalar there in the flow context, go-yaml v2 does not),
# and no flow collection is empty (go-yaml then looks ahead less: `[]: ` is `[]` there).
YAMLISH = st.lists(st.sampled_from(["a", "b1", " ", "  ", "\n", ": ", ":", "- ", "#", " #", "[", "]", "{", "}", ", ", "|", ">", "-", "+", "2", "!", "!!str ", "&x ", "*x", "'", '"', "? ", "---", "..."]), max_size=14).map("".join)


@given(YAMLISH.filter(lambda t: not re.search(r":[\[\]{},]|[\[{] *[\]}]", t)))
@example("a: b\n  c\n\n  d\n")
@example("- a\n- [b, {c: d}]\n")
@example("a: |+\n  x\n\n")
def test_without_tabs_the_scanner_is_pyyaml_s(text: str) -> None:
    """Where PyYAML scans a text without tabs, go-yaml's rules give the same tokens."""
    try:
        expected = tokens(text, yaml.SafeLoader)
    except yaml.YAMLError:
        return
    assert tokens(text) == expected
