"""Go's strings functions: where Go's Unicode rules differ from Python's str methods."""

from __future__ import annotations

from jobmodel.util.gostrings import go_fields, go_to_lower, go_trim_space


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
