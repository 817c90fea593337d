"""Go's strings functions: where Go's Unicode rules differ from Python's str methods."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from jobmodel.util.gostrings import (
    ERR_RANGE,
    ERR_SYNTAX,
    decimal_digits_value,
    decimal_successor,
    decimal_text,
    go_atoi,
    go_fields,
    go_is_print,
    go_len,
    go_parse_int,
    go_prefix,
    go_prefix_as_written,
    go_simple_fold,
    go_to_lower,
    go_to_upper,
    go_trim_space,
)


def test_fields_split_on_go_whitespace_only() -> None:
    """strings.Fields splits on unicode.IsSpace: tabs, NBSP, newlines; not U+001C."""
    assert go_fields("0\t0\u00a0* *\n*") == ["0", "0", "*", "*", "*"]
    # U+001C is whitespace to Python's str.split but not to Go.
    assert go_fields("0\x1c0") == ["0\x1c0"]
    assert go_fields(" \u3000 ") == []


def test_trim_space_keeps_what_go_does_not_call_space() -> None:
    """strings.TrimSpace removes unicode.IsSpace runes at both ends, and keeps U+001C-U+001F
    (which Python's str.strip removes)."""
    assert go_trim_space("\u00a0 a b\t\u2028") == "a b"
    assert go_trim_space("x\x1c") == "x\x1c"
    assert go_trim_space("\x1f\x1d") == "\x1f\x1d"
    assert go_trim_space(" \x85 ") == ""


def test_to_lower_maps_capital_dotted_i_to_plain_i() -> None:
    """strings.ToLower maps U+0130 to `i` (unicode.ToLower); Python's lower() gives `i` and U+0307."""
    assert go_to_lower("X.K8S.\u0130O") == "x.k8s.io"
    assert "\u0130".lower() != go_to_lower("\u0130")
    assert go_to_lower("ÄÖ") == "äö"


def test_len_counts_utf8_bytes() -> None:
    """Go's len: bytes. `é` is 2, a lone surrogate (U+FFFD once decoded) 3."""
    assert [go_len(t) for t in ("", "a", "\u00e9", "\u20ac", "\U0001f600", "\ud800")] == [0, 1, 2, 3, 4, 3]


def test_prefix_cuts_bytes_not_characters() -> None:
    """`s[:58]` takes 58 bytes: 29 `é` of 40 (Python's slice would keep all 40); a rune the cut
    splits is dropped (Go keeps its first byte, invalid UTF-8)."""
    assert go_prefix("\u00e9" * 40, 58) == "\u00e9" * 29
    assert go_prefix("a" + "\u00e9" * 40, 58) == "a" + "\u00e9" * 28
    assert go_prefix("abc", 58) == "abc"
    assert go_prefix("\U0001f600" * 2, 7) == "\U0001f600"


@pytest.mark.parametrize(
    ("ch", "printable"),
    [
        (" ", True), ("a", True), ("\u00e9", True), ("\x1c", False), ("\u00a0", False), ("\u00ad", False),
        ("\u2028", False), ("\u0378", False), ("\ue000", False),
        # Unicode 15.0 (Go's tables): Kannada U+0CF3, Cyrillic Extended-D, Kawi, CJK Extension H.
        ("\u0cf3", True), ("\U0001e030", True), ("\U00011f00", True), ("\U00031350", True),
        # Unicode 15.1, after Go's tables: CJK Extension I is not printable to Go.
        ("\U0002ebf0", False),
    ],
)  # fmt: skip
def test_is_print_follows_go_unicode_15(ch: str, printable: bool) -> None:
    """unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space, by Go's
    Unicode 15.0 tables (Python 3.11's are 14.0: U+1E030 is unassigned there)."""
    assert go_is_print(ch) is printable


def test_to_upper_is_the_simple_mapping() -> None:
    """unicode.ToUpper maps a rune to one rune: `ß` and `ﬀ` stay, the Greek letters with a iota
    below become their titlecase form; Python's upper() writes `SS`, `FF` and two letters."""
    assert go_to_upper("a\u00df\ufb00\u0149") == "A\u00df\ufb00\u0149"
    assert go_to_upper("\u1f80\u1fb3\u1ff3") == "\u1f88\u1fbc\u1ffc"
    assert go_to_upper("\u00e9\u0131\u017f") == "\u00c9IS"


@pytest.mark.parametrize(
    ("ch", "folded"),
    [
        ("A", "a"), ("a", "A"), ("1", "1"), ("k", "\u212a"), ("\u212a", "K"), ("s", "\u017f"), ("\u017f", "S"),
        ("\u00e5", "\u212b"), ("\u00df", "\u1e9e"), ("\u1e9e", "\u00df"), ("\u0130", "\u0130"), ("\u0131", "\u0131"),
        ("\u03c3", "\u03a3"), ("\u00e9", "\u00c9"), ("\ufb00", "\ufb00"), ("\u1f88", "\u1f80"),
    ],
)  # fmt: skip
def test_simple_fold_walks_the_case_orbit(ch: str, folded: str) -> None:
    """unicode.SimpleFold: the next rune of the orbit in code-point order, wrapping around."""
    assert go_simple_fold(ch) == folded


@pytest.mark.parametrize(
    ("text", "bits", "want"),
    [
        ("0", 64, 0), ("+12", 64, 12), ("-9223372036854775808", 64, -(2**63)), ("9223372036854775807", 64, 2**63 - 1),
        ("9223372036854775808", 64, ERR_RANGE), ("-9223372036854775808", 32, ERR_RANGE), ("2147483647", 32, 2**31 - 1),
        ("", 64, ERR_SYNTAX), ("+", 64, ERR_SYNTAX), ("1_0", 64, ERR_SYNTAX), (" 1", 64, ERR_SYNTAX), ("1\n", 64, ERR_SYNTAX),
        ("\u0663", 64, ERR_SYNTAX), ("\u00b2", 64, ERR_SYNTAX), ("0x10", 64, ERR_SYNTAX),
        # ParseUint gives up as soon as the digits pass the unsigned range: what follows is not read.
        ("99999999999999999999x", 64, ERR_RANGE), ("9223372036854775808x", 64, ERR_SYNTAX),
        ("9223372036854775808x", 32, ERR_RANGE), ("4294967296x", 32, ERR_RANGE), ("4294967295x", 32, ERR_SYNTAX),
        ("1" * 5000, 64, ERR_RANGE),
    ],
)  # fmt: skip
def test_parse_int_as_strconv(text: str, bits: int, want: int | str) -> None:
    """strconv.ParseInt(text, 10, bits) (Go 1.26's answers): ASCII digits only, where int() also
    takes `_`, blanks, a trailing newline and other scripts' digits, and refuses 4300 digits."""
    if isinstance(want, int):
        assert go_parse_int(text, bits) == want
    else:
        with pytest.raises(ValueError, match=f"^{want}$"):
            go_parse_int(text, bits)


def test_decimal_numbers_of_any_length() -> None:
    """big.Int's decimal text both ways, past int()'s and str()'s 4300 digits; ASCII digits only."""
    assert decimal_digits_value("7" * 5000) % 1000 == 777
    assert decimal_text(decimal_digits_value("1" + "0" * 5000)) == "1" + "0" * 5000
    assert decimal_text(-(10**5000)) == "-1" + "0" * 5000
    assert decimal_text(12) == "12" and decimal_digits_value("007") == 7
    for bad in ("", "1_0", " 1", "\u0663", "+1", "1.0"):
        with pytest.raises(ValueError):
            decimal_digits_value(bad)


def test_a_cut_rune_is_written_as_go_writes_its_bytes() -> None:
    """`s[:n]` through Go's JSON: each byte left of a rune cut in two is U+FFFD; a whole cut or
    a short text is as go_prefix gives it."""
    assert go_prefix_as_written("a" + "\u00e9" * 40, 58) == "a" + "\u00e9" * 28 + "\ufffd"
    assert go_prefix_as_written("\U0001f600" * 2, 7) == "\U0001f600" + "\ufffd" * 3
    assert go_prefix_as_written("\u00e9" * 40, 58) == "\u00e9" * 29
    assert go_prefix_as_written("abc", 58) == "abc"


def test_atoi_is_none_where_strconv_errs() -> None:
    """go_atoi: the value, or None for a syntax or range error (at the bit size asked)."""
    assert go_atoi("+7") == 7
    assert go_atoi("2147483648") == 2147483648
    assert go_atoi("2147483648", 32) is None
    assert go_atoi("1_0") is None
    assert go_atoi("\u0663") is None


@given(st.text(alphabet="0123456789", min_size=1, max_size=30))
@example("0")
@example("0999")
@example("999")
@example("000")
def test_decimal_successor_is_the_number_plus_one(digits: str) -> None:
    assert decimal_successor(digits) == str(int(digits) + 1)


@pytest.mark.parametrize("text", ["", "1a", "\u00b2", "-1", "+1"])
def test_decimal_successor_takes_ascii_digits_only(text: str) -> None:
    with pytest.raises(ValueError):
        decimal_successor(text)


def test_decimal_successor_of_a_long_number() -> None:
    assert decimal_successor("9" * 900_000) == "1" + "0" * 900_000
