from __future__ import annotations

from jobmodel.util.goquote import go_json_string, go_quote, go_time_quote


def test_go_quote_is_strconv_quote() -> None:
    """Go's %q: quotes and backslashes escaped, the short escapes, \\x for other ASCII controls,
    \\u / \\U for the other runes strconv.IsPrint refuses; printable runes as they are."""
    assert go_quote('a"b\\c') == '"a\\"b\\\\c"'
    assert go_quote("\t\n\x00\x7f") == '"\\t\\n\\x00\\x7f"'
    assert go_quote("\u00a0\u2028\U000e0001") == '"\\u00a0\\u2028\\U000e0001"'
    assert go_quote("é ٣😀") == '"é ٣😀"'


def test_go_quote_knows_the_runes_of_unicode_15() -> None:
    """strconv.IsPrint is Go's Unicode 15.0: U+1E030 (Cyrillic Extended-D) and U+31350 (CJK
    Extension H) are printed as they are (Go 1.26's `%q`), though Python 3.11 has them unassigned;
    U+0378, unassigned in both, is escaped."""
    assert go_quote("\U0001e030\U00031350") == '"\U0001e030\U00031350"'
    assert go_quote("\u0378") == '"\\u0378"'


def test_go_time_quote_escapes_the_bytes_of_non_ascii_runes() -> None:
    """time's quote (ParseDuration's errors): each UTF-8 byte of a rune at or past 0x80 or below
    space as \\xNN, quotes and backslashes escaped, DEL kept."""
    assert go_time_quote("\u00a0") == '"\\xc2\\xa0"'
    assert go_time_quote('a"b\\\t\x7f') == '"a\\"b\\\\\\x09\x7f"'


def test_go_json_string_is_json_marshal_of_a_string() -> None:
    """json.Marshal of a string, HTML-escaping as Marshal does. The expected texts are Go 1.26's
    output (`fmt.Printf("%s", must(json.Marshal(s)))` for each input, run for this test)."""
    assert go_json_string("<&>") == '"\\u003c\\u0026\\u003e"'
    assert go_json_string("a\u2028b\u2029c") == '"a\\u2028b\\u2029c"'
    assert go_json_string("\x00\x01\x08\x09\x0a\x0c\x0d\x1f\x7f") == '"\\u0000\\u0001\\b\\t\\n\\f\\r\\u001f\x7f"'
    # Runes strconv.Quote escapes (not printable) are written as they are.
    assert go_json_string("\u00a0\u00ad\ufeff\U000e0001") == '"\u00a0\u00ad\ufeff\U000e0001"'
    assert go_json_string('"\\/') == '"\\"\\\\/"'
    assert go_json_string("é€😀") == '"é€😀"'
    # Go's "\xed\xa0\x80" (a surrogate's UTF-8 bytes, invalid) gives "\ufffd\ufffd\ufffd".
    assert go_json_string("\ud800") == '"\\ufffd\\ufffd\\ufffd"'
