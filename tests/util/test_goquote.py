from __future__ import annotations

from jobmodel.util.goquote import go_quote, go_time_quote


def test_go_quote_is_strconv_quote() -> None:
    """Go's %q: quotes and backslashes escaped, the short escapes, \\x for other ASCII controls,
    \\u / \\U for the other runes strconv.IsPrint refuses; printable runes as they are."""
    assert go_quote('a"b\\c') == '"a\\"b\\\\c"'
    assert go_quote("\t\n\x00\x7f") == '"\\t\\n\\x00\\x7f"'
    assert go_quote("\u00a0\u2028\U000e0001") == '"\\u00a0\\u2028\\U000e0001"'
    assert go_quote("é ٣😀") == '"é ٣😀"'


def test_go_time_quote_escapes_the_bytes_of_non_ascii_runes() -> None:
    """time's quote (ParseDuration's errors): each UTF-8 byte of a rune at or past 0x80 or below
    space as \\xNN, quotes and backslashes escaped, DEL kept."""
    assert go_time_quote("\u00a0") == '"\\xc2\\xa0"'
    assert go_time_quote('a"b\\\t\x7f') == '"a\\"b\\\\\\x09\x7f"'
