"""Go's encoding/json syntax errors and type errors (jobmodel/api/go_json.py); the messages are
those of Go's scanner.go and decode.go (its TestSyntaxErrors / unmarshal tests list the same)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from jobmodel.api.go_json import (
    MAX_INT_DIGITS,
    GoNumber,
    GoObject,
    GoSyntaxError,
    NumberTooLong,
    check_valid,
    dumps_keeping_literals,
    fold_name,
    json_kind,
    literal_float,
    literal_int,
    loads_checked,
    quote_char,
)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("tru", "invalid character ' ' in literal true (expecting 'e')"),
        ("x", "invalid character 'x' looking for beginning of value"),
        ("[1,]", "invalid character ']' looking for beginning of value"),
        ('{"a" 1}', "invalid character '1' after object key"),
        ('{"a":1 "b"}', "invalid character '\"' after object key:value pair"),
        ("[1 2]", "invalid character '2' after array element"),
        ('["a\\x"]', "invalid character 'x' in string escape code"),
        ('["\\u12g4"]', "invalid character 'g' in \\u hexadecimal character escape"),
        ("[-]", "invalid character ']' in numeric literal"),
        ("[1.]", "invalid character ']' after decimal point in numeric literal"),
        ("[1e+]", "invalid character ']' in exponent of numeric literal"),
        ("[01]", "invalid character '1' after array element"),
        ('"abc', "unexpected end of JSON input"),
        ('[{"a":1}', "unexpected end of JSON input"),
        ("[] x", "invalid character 'x' after top-level value"),
        ("  ", "unexpected end of JSON input"),
        ('{"a":"\x1f"}', "invalid character '\\x1f' in string literal"),
        ("{1:2}", "invalid character '1' looking for beginning of object key string"),
        ("nul", "invalid character ' ' in literal null (expecting 'l')"),
        ("'", "invalid character '\\'' looking for beginning of value"),
    ],
)
def test_syntax_errors(text: str, message: str) -> None:
    with pytest.raises(GoSyntaxError) as err:
        check_valid(text.encode())
    assert str(err.value) == message


def _plain(value: Any) -> Any:
    """A decoded value with its objects as dicts and its numbers as Python's json module reads
    their text."""
    if isinstance(value, GoObject):
        return {k: _plain(v) for k, v in value}
    if isinstance(value, GoNumber):
        return json.loads(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _numbers(value: Any) -> list[str]:
    """The number literals of a decoded value, in order."""
    if isinstance(value, GoNumber):
        return [str(value)]
    if isinstance(value, GoObject):
        return [n for _, v in value for n in _numbers(v)]
    if isinstance(value, list):
        return [n for v in value for n in _numbers(v)]
    return []


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("null", []),
        ("[]", []),
        (" [1, 2.5e-3, -0, true, false, null, \"\\u00e9\"] ", ["1", "2.5e-3", "-0"]),
        ('{"a": {"b": []}}', []),
        ("0", ["0"]),
        ('""', []),
    ],
)
def test_valid(text: str, numbers: list[str]) -> None:
    check_valid(text.encode())  # raises on invalid input
    # The value is the one any JSON decoder reads, with each number kept as its literal text.
    value = loads_checked(text)
    assert _plain(value) == json.loads(text)
    assert _numbers(value) == numbers


def test_nesting_depth() -> None:
    check_valid(b"[" * 10000 + b"]" * 10000)
    with pytest.raises(GoSyntaxError, match="invalid character '\\[' exceeded max depth"):
        check_valid(b"[" * 10001 + b"]" * 10001)


def test_quote_char_of_a_byte() -> None:
    # strconv.Quote of string(rune(b)): a UTF-8 lead byte shows as the Latin-1 character.
    assert [quote_char(c) for c in (0x00, 0x0A, 0x5C, 0x7F, 0x85, 0xA0, 0xC3)] == ["'\\x00'", "'\\n'", "'\\\\'", "'\\x7f'", "'\\u0085'", "'\\u00a0'", "'Ã'"]


def test_values_keep_kinds_and_number_text() -> None:
    value = loads_checked('[{"a": 1.50}, 2, "2", true, null, []]')
    assert isinstance(value[0], GoObject) and value[0] == [("a", "1.50")] and isinstance(value[0][0][1], GoNumber)
    assert [json_kind(v) for v in value[:4]] + [json_kind(value[5])] == ["object", "number", "string", "bool", "array"]


def test_fold_name() -> None:
    assert fold_name("key") == fold_name("KEY") == fold_name("kEy") == "KEY"
    assert fold_name("\u212aey") == "KEY" and fold_name("ſ") == "S"


def test_fold_name_maps_each_rune_to_one_rune() -> None:
    """foldName is unicode.ToUpper(unicode.SimpleFold(r)) rune by rune: the ligature U+FB00 stays
    itself (so `e\ufb00ect` is no `Effect` to Go), `ß` folds to `ẞ`, `å` to the Angstrom sign;
    Python's upper() would write `FF`, `SS` and `Å`."""
    assert fold_name("e\ufb00ect") == "E\ufb00ECT"
    assert [fold_name(c) for c in "\u00df\u00e5\u0130\u03c9"] == ["\u1e9e", "\u212b", "\u0130", "\u2126"]


def test_lone_surrogate_escapes_decode_to_the_replacement_character() -> None:
    """decode.go's unquote (Go 1.26): a `\\ud800` that is not half of a pair is U+FFFD; a pair is
    its rune (json.loads keeps the lone surrogate)."""
    value = loads_checked(r'["\ud800x\ud83d\ude00\ud800\ud800\udc00", {"\udfff": "\udc00"}]')
    assert value == ["\ufffdx\U0001f600\ufffd\U00010000", [("\ufffd", "\ufffd")]]


def test_numbers_read_with_their_literal_are_written_as_that_literal() -> None:
    value = {"a": [literal_float("1E3"), literal_float("0.1000000000000000000001"), literal_int("-0"), 1.5], "b": "\x00"}
    assert dumps_keeping_literals(value, separators=(",", ":")) == '{"a":[1E3,0.1000000000000000000001,-0,1.5],"b":"\\u0000"}'
    # A string holding the marker: the numbers are written plain, never a string swapped.
    value["b"] = "\x00jobmodel-literal-0\x00"
    assert json.loads(dumps_keeping_literals(value)) == {"a": [1000.0, 0.1, 0, 1.5], "b": value["b"]}


@pytest.mark.parametrize("text", ["1" * 5000, "-" + "9" * 5000, "7" * MAX_INT_DIGITS])
def test_a_literal_integer_past_ints_digit_limit_keeps_its_value_and_text(text: str) -> None:
    """int() stops at 4300 digits; encoding/json reads any number."""
    number = literal_int(text)
    assert number.literal == text
    assert number == (-1 if text[0] == "-" else 1) * (10 ** len(text.lstrip("-")) - 1) // 9 * int(text[-1])


def test_a_literal_integer_past_the_models_bound_is_refused() -> None:
    with pytest.raises(NumberTooLong, match=f"an integer of {MAX_INT_DIGITS + 1} digits"):
        literal_int("1" * (MAX_INT_DIGITS + 1))
