"""Input errors and the values they echo (jobmodel/errors.py)."""

from __future__ import annotations

from jobmodel.errors import printable, quote


def test_values_are_quoted_as_json_and_shortened() -> None:
    assert quote("pi") == '"pi"'
    assert quote(3) == "3"
    assert quote(None) == "null"
    long = quote("x" * 500)
    assert len(long) == 60 and long.startswith('"xxx') and long.endswith("...")
    assert quote(10**5000) == "(an integer of 16610 bits)"


def test_what_utf8_cannot_encode_is_escaped() -> None:
    assert printable("a\udcffb") == "a\\udcffb"
    assert quote("a\ud800") == '"a\\ud800"'
    printable(quote("\ud800")).encode("utf-8")
