"""go-yaml v2's scalar resolution and encoding/json's float text (jobmodel/util/goyaml.py); the
expected values are those of go-yaml's decode_test.go, encoding/json's decode_test.go (its
golden round trips) and strconv's documentation. tests/differential/test_manifests.py compares
the whole reader with kubectl's own on generated manifests."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jobmodel.util.goyaml import (
    YAML_TAG,
    json_float_text,
    json_key,
    parse_int,
    parse_timestamp,
    parse_uint,
    resolve_plain,
    resolve_tagged,
    underscore_ok,
)

# go.yaml.in/yaml/v2 decode_test.go, the unmarshalTests decoded into interface{}.
GO_YAML_DECODE_TESTS = [
    ("hi", "hi"),
    ("true", True),
    ("10", 10),
    ("0b10", 2),
    ("0xA", 10),
    ("4294967296", 4294967296),
    ("0.1", 0.1),
    (".1", 0.1),
    (".Inf", math.inf),
    ("-.Inf", -math.inf),
    ("-10", -10),
    ("-.1", -0.1),
    ("6.8523e+5", 6.8523e5),
    ("685.230_15e+03", 685.23015e03),
    ("685_230.15", 685230.15),
    ("-.inf", -math.inf),
    ("y", True),
    ("NO", False),
    ("True", True),
    ("on", True),
    ("685230", 685230),
    ("+685_230", 685230),
    ("02472256", 685230),
    ("0x_0A_74_AE", 685230),
    ("0b1010_0111_0100_1010_1110", 685230),
    ("-0b101010", -42),
    ("-0b1000000000000000000000000000000000000000000000000000000000000000", -9223372036854775808),
    ("~", None),
    ("null", None),
    ("", None),
    ("9223372036854775807", 9223372036854775807),
    ("-9223372036854775808", -9223372036854775808),
    ("18446744073709551615", 18446744073709551615),
    ("1:20", "1:20"),  # "Base 60 floats ... are purposefully unsupported"
    ("190:20:30.15", "190:20:30.15"),
    ("2015-02-24T18:19:39Z", "2015-02-24T18:19:39Z"),  # a timestamp into interface{} stays a string
]


@pytest.mark.parametrize(("text", "value"), GO_YAML_DECODE_TESTS)
def test_plain_scalars_resolve_as_go_yaml_decodes_them(text: str, value: object) -> None:
    resolved = resolve_plain(text)
    assert resolved == value and type(resolved) is type(value)


def test_nan_is_a_float() -> None:
    assert math.isnan(resolve_plain(".NaN"))  # type: ignore[arg-type]


# encoding/json decode_test.go: the golden float64 round trips (Marshal writes `in` back).
JSON_GOLDEN_FLOATS = [
    "0.000001", "1e-7", "100000000000000000000", "1e+21", "-0.000001", "-1e-7",
    "-100000000000000000000", "-1e+21", "999999999999999900000", "9007199254740992",
]  # fmt: skip


@pytest.mark.parametrize("text", JSON_GOLDEN_FLOATS)
def test_floats_are_written_as_encoding_json_writes_them(text: str) -> None:
    assert json_float_text(float(text)) == text


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_json_refuses_what_is_not_a_number(value: float) -> None:
    with pytest.raises(ValueError, match="json: unsupported value: "):
        json_float_text(value)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_the_float_text_reads_back_as_the_same_float(value: float) -> None:
    """Shortest digits: the text is exact, and an integral value below 1e21 has no point."""
    text = json_float_text(value)
    assert float(text) == value and math.copysign(1, float(text)) == math.copysign(1, value)
    if value == int(value) and abs(value) < 1e21:
        assert text.lstrip("-").isdigit()


@pytest.mark.parametrize(
    ("key", "text"),
    [(1, "1"), (True, "true"), (False, "false"), (1000.0, "1000"), (1e6, "1e+06"), (0.1, "0.1"),
     (1234567.0, "1.234567e+06"), (0.0001, "0.0001"), (0.00001, "1e-05"), (math.inf, ".inf"),
     (-math.inf, "-.inf"), (math.nan, ".nan"), (1e-46, "0"), (16777217.0, "1.6777216e+07")],
)  # fmt: skip
def test_map_keys_are_written_as_sigs_yaml_writes_them(key: object, text: str) -> None:
    """convertToJSONableObject: strconv.FormatFloat(key, 'g', -1, 32) for a float (%e from
    exponent 6, or below -4, as strconv documents 'g' with the shortest precision)."""
    assert json_key(key) == text


@pytest.mark.parametrize("key", [None, 1 << 63, (1, 2)])
def test_keys_json_cannot_have_are_refused(key: object) -> None:
    with pytest.raises(ValueError, match="unsupported map key"):
        json_key(key)


@pytest.mark.parametrize(
    ("text", "base", "value"),
    [("0x1F", 0, 31), ("0o17", 0, 15), ("017", 0, 15), ("0b101", 0, 5), ("08", 0, None), ("0x", 0, None),
     ("0", 0, 0), ("z", 36, 35), ("Z", 16, None), ("18446744073709551616", 0, None), ("٣", 10, None)],
)  # fmt: skip
def test_parse_uint_reads_go_prefixes(text: str, base: int, value: int | None) -> None:
    assert parse_uint(text, base) == value


def test_parse_int_ranges_and_signs() -> None:
    assert parse_int("-9223372036854775808", 0) == -(1 << 63)
    assert parse_int("9223372036854775808", 0) is None
    assert parse_int("+0x10", 0) == 16 and parse_int("-0b1", 0) == -1 and parse_int("", 0) is None


@pytest.mark.parametrize(
    ("text", "ok"),
    [("1_000", True), ("_1", False), ("1_", False), ("1__0", False), ("0x_1F", True), (".5_5", True), ("._5", False)],
)
def test_underscores_stand_between_digits(text: str, ok: bool) -> None:
    assert underscore_ok(text) is ok


def test_an_explicit_tag_must_match() -> None:
    assert resolve_tagged(YAML_TAG + "float", "1") == 1.0
    assert resolve_tagged(YAML_TAG + "str", "1") == "1"
    assert resolve_tagged(YAML_TAG + "timestamp", "2024-01-01") == "2024-01-01"
    with pytest.raises(ValueError, match=r"cannot decode !!str `x` as a !!int"):
        resolve_tagged(YAML_TAG + "int", "x")


@pytest.mark.parametrize("text", ["9223372036854775807", "-9223372036854775808", "0x7FFFFFFFFFFFFFFF", "0b1", "-0b1"])
def test_a_float_tag_takes_an_int64(text: str) -> None:
    assert resolve_tagged(YAML_TAG + "float", text) == float(resolve_plain(text))  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["9223372036854775808", "18446744073709551615", "0xFFFFFFFFFFFFFFFF", "0b" + "1" * 64])
def test_a_float_tag_refuses_a_uint64(text: str) -> None:
    """resolve's deferred check converts an int or int64 to a float, never the uint64 that
    ParseUint gives for a value beyond int64."""
    with pytest.raises(ValueError, match=rf"cannot decode !!int `{text}` as a !!float"):
        resolve_tagged(YAML_TAG + "float", text)


# What kubectl (go-yaml's parseTimestamp, time.Parse) reads as `!!timestamp`, and what it refuses.
TIMESTAMPS = [
    "2024-01-01", "2024-1-1", "2024-02-29", "2000-02-29", "0000-02-29", "2024-01-01T00:00:00Z", "2024-01-01t00:00:00Z",
    "2024-01-01T1:2:3Z", "2024-01-01T01:02:03.123456789123Z", "2024-01-01T01:02:03,5Z", "2024-01-01T01:02:03+01:00",
    "2024-01-01T01:02:03+24:60", "2024-01-01 01:02:03", "2024-01-01   01:02:03", "2024-01-01 01:02:03.5", "2024-01-01 1:2:3",
]  # fmt: skip
NOT_TIMESTAMPS = [
    "2024-13-01", "2024-00-10", "2023-02-29", "1900-02-29", "2024-04-31", "2024-01-32", "2024-01-00", "2024-001-01",
    "2024-01-01T00:00:00", "2024-01-01T24:00:00Z", "2024-01-01T23:60:00Z", "2024-01-01T23:59:60Z", "2024-01-01T01:02:03.Z",
    "2024-01-01T01:02:03+25:00", "2024-01-01T01:02:03+24:61", "2024-01-01T01:02:03+0100", "2024-01-01T01:02:03z",
    "2024-01-01 01:02:03Z", "2024-01-01x", "2024-01-01T", "12024-01-01", "202-01-01", "2024-01-01T01:02Z", "2024-01-01T001:02:03Z",
]  # fmt: skip


@pytest.mark.parametrize("text", TIMESTAMPS)
def test_a_timestamp_go_yaml_reads(text: str) -> None:
    assert parse_timestamp(text)
    assert resolve_tagged(YAML_TAG + "timestamp", text) == text  # kept as written


@pytest.mark.parametrize("text", NOT_TIMESTAMPS)
def test_a_timestamp_go_yaml_refuses(text: str) -> None:
    assert not parse_timestamp(text)
    with pytest.raises(ValueError, match=r"as a !!timestamp"):
        resolve_tagged(YAML_TAG + "timestamp", text)
