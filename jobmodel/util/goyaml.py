"""How kubectl turns a YAML manifest into JSON: go-yaml v2 resolves a plain scalar (YAML 1.1's
words, Go's number syntax, no sexagesimal numbers, a timestamp kept as written), and
sigs.k8s.io/yaml writes the result with encoding/json (map keys as strings, floats in Go's
format). Python's YAML libraries resolve by YAML 1.1's or 1.2's own rules, so `y`, `0o17`,
`1e3`, `1:20` and `08` would all be read otherwise."""

from __future__ import annotations

import calendar
import math
import re
import struct
from decimal import Decimal
from typing import Final

# resolveMapList (go-yaml v2 resolve.go): the words with a meaning of their own.
_WORDS: Final[dict[str, bool | float | None]] = {
    **dict.fromkeys(("y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"), True),
    **dict.fromkeys(("n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"), False),
    **dict.fromkeys(("", "~", "null", "Null", "NULL"), None),
    **dict.fromkeys((".nan", ".NaN", ".NAN"), math.nan),
    **dict.fromkeys((".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"), math.inf),
    **dict.fromkeys(("-.inf", "-.Inf", "-.INF"), -math.inf),
}
# resolveTable: the first byte's hint; a scalar without one is a string.
_HINTS: Final[dict[str, str]] = {
    "+": "S", "-": "S", ".": ".", **dict.fromkeys("0123456789", "D"), **dict.fromkeys("yYnNtTfFoO~", "M"),
}
_YAML_STYLE_FLOAT: Final = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\Z")
# strconv.ParseFloat of a text starting with `.`: digits (and `_`) with an optional exponent.
_DOT_FLOAT: Final = re.compile(r"\.[0-9_]*[0-9][0-9_]*([eE][-+]?[0-9][0-9_]*)?\Z")
_BASE_PREFIXES: Final = {"b": 2, "o": 8, "x": 16}
YAML_TAG: Final = "tag:yaml.org,2002:"

Scalar = bool | int | float | str | None


def _digit(ch: str) -> int:
    """strconv's digit value of one character (36 for anything that is no digit in any base)."""
    if "0" <= ch <= "9":
        return ord(ch) - ord("0")
    if "a" <= ch.lower() <= "z" and ch.isascii():
        return ord(ch.lower()) - ord("a") + 10
    return 36


def parse_uint(text: str, base: int, bit_size: int = 64) -> int | None:
    """strconv.ParseUint (None where it returns an error); base 0 reads a `0b`, `0o`, `0x` or `0`
    prefix. Underscores are not read: go-yaml has already dropped them."""
    if not text:
        return None
    if base == 0:
        base = 10
        if text[0] == "0":
            if len(text) >= 3 and text[1].lower() in _BASE_PREFIXES:
                base, text = _BASE_PREFIXES[text[1].lower()], text[2:]
            else:
                base, text = 8, text[1:]
    value = 0
    for ch in text:
        digit = _digit(ch)
        if digit >= base:
            return None
        value = value * base + digit
        if value >= 1 << bit_size:
            return None
    return value


def parse_int(text: str, base: int, bit_size: int = 64) -> int | None:
    """strconv.ParseInt (None where it returns an error): an optional sign, then ParseUint."""
    if not text:
        return None
    negative = text[0] == "-"
    magnitude = parse_uint(text[1:] if text[0] in "+-" else text, base, bit_size)
    if magnitude is None:
        return None
    cutoff = 1 << (bit_size - 1)
    if magnitude > cutoff or (magnitude == cutoff and not negative):
        return None
    return -magnitude if negative else magnitude


def underscore_ok(text: str) -> bool:
    """strconv's underscoreOK: each `_` stands between two digits (a base prefix counts as one)."""
    saw, i = "^", 0
    if text[:1] in ("+", "-") and text:
        text = text[1:]
    hexadecimal = False
    if len(text) >= 2 and text[0] == "0" and text[1].lower() in _BASE_PREFIXES:
        i, saw, hexadecimal = 2, "0", text[1].lower() == "x"
    for ch in text[i:]:
        if "0" <= ch <= "9" or (hexadecimal and "a" <= ch.lower() <= "f" and ch.isascii()):
            saw = "0"
        elif ch == "_":
            if saw != "0":
                return False
            saw = "_"
        elif saw == "_":
            return False
        else:
            saw = "!"
    return saw != "_"


def _finite(text: str) -> float | None:
    value = float(text)
    # strconv.ParseFloat's range error: a value beyond float64 is an error, not an infinity.
    return value if math.isfinite(value) else None


def _dot_float(text: str) -> float | None:
    """strconv.ParseFloat(text, 64) of a text whose first character is `.` (no sign, no hex)."""
    if not _DOT_FLOAT.match(text) or ("_" in text and not underscore_ok(text)):
        return None
    return _finite(text.replace("_", ""))


def resolve_plain(text: str) -> Scalar:
    """resolve (go-yaml v2 resolve.go) of an untagged plain scalar, as decoded into interface{}:
    a timestamp stays the text it was (decode.go keeps it a string for interface{})."""
    hint = "N" if not text else _HINTS.get(text[0])
    if hint is None:
        return text
    if text in _WORDS:
        return _WORDS[text]
    if hint == ".":
        value = _dot_float(text)
        return text if value is None else value
    if hint in ("D", "S"):
        plain = text.replace("_", "")
        number: int | float | None = parse_int(plain, 0)
        if number is None:
            number = parse_uint(plain, 0)
        if number is None and _YAML_STYLE_FLOAT.match(plain):
            number = _finite(plain)
        if number is None and plain.startswith("0b"):
            number = parse_int(plain[2:], 2)
            if number is None:
                number = parse_uint(plain[2:], 2)
        elif number is None and plain.startswith("-0b"):
            number = parse_int("-" + plain[3:], 2)
        if number is not None:
            return number
    return text


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(YAML_TAG):] if tag.startswith(YAML_TAG) else tag


def _tag_of(value: Scalar) -> str:
    if value is None:
        return YAML_TAG + "null"
    if isinstance(value, bool):
        return YAML_TAG + "bool"
    if isinstance(value, int):
        return YAML_TAG + "int"
    if isinstance(value, float):
        return YAML_TAG + "float"
    return YAML_TAG + "str"


def resolve_tagged(tag: str, text: str) -> Scalar:
    """resolve of a scalar with an explicit tag (`!!int 12`): the value must be of that tag (an
    integer may be a float); otherwise ValueError with go-yaml's message."""
    if tag == YAML_TAG + "str":
        return text
    value = resolve_plain(text)
    if tag == YAML_TAG + "timestamp" and isinstance(value, str) and parse_timestamp(text):
        return text
    found = _tag_of(value)
    if found == tag:
        return value
    # An int or int64 becomes a float; a uint64 (ParseUint's reading of a value beyond int64) does not.
    if tag == YAML_TAG + "float" and found == YAML_TAG + "int" and value < 1 << 63:  # type: ignore[operator]
        return float(value)  # type: ignore[arg-type]
    raise ValueError(f"cannot decode {_short_tag(found)} `{text}` as a {_short_tag(tag)}")


def parse_timestamp(text: str) -> bool:
    """parseTimestamp (go-yaml v2 resolve.go): whether time.Parse reads the text with one of its
    layouts, 2006-1-2T15:4:5.999999999Z07:00, the same with `t`, 2006-1-2 15:4:5.999999999, or
    2006-1-2, ranges checked (a month of 1-12, a day of that month, an hour of 0-23, ...)."""
    if len(text) < 5 or not all("0" <= c <= "9" for c in text[:4]) or text[4] != "-":
        return False
    return any(_layout_reads(text, separator) for separator in ("T", "t", " ", ""))


def _getnum(text: str) -> tuple[int | None, str]:
    """time's getnum(s, false): one or two ASCII digits."""
    digits = 0
    while digits < 2 and digits < len(text) and "0" <= text[digits] <= "9":
        digits += 1
    return (int(text[:digits]), text[digits:]) if digits else (None, text)


def _fields(text: str, separators: str, limits: tuple[int, ...]) -> tuple[list[int], str] | None:
    """Numbers of one or two digits, each below its limit, joined by the separators."""
    values: list[int] = []
    for i, limit in enumerate(limits):
        if i and not text.startswith(separators[i - 1]):
            return None
        value, text = _getnum(text[1:] if i else text)
        if value is None or value >= limit:
            return None
        values.append(value)
    return values, text


def _layout_reads(text: str, separator: str) -> bool:
    """time.Parse of one of parseTimestamp's layouts: a date, and after `separator` (none: the
    date alone) a time, with a zone unless the separator is a space (where a run of spaces is one)."""
    date = _fields(text[5:], "-", (13, 32))
    if date is None:
        return False
    (month, day), rest = date
    if separator:
        if not rest.startswith(separator):
            return False
        clock = _fields(rest.lstrip(" ") if separator == " " else rest[1:], "::", (24, 60, 60))
        if clock is None:
            return False
        rest = clock[1]
        if len(rest) >= 2 and rest[0] in ".," and "0" <= rest[1] <= "9":
            rest = rest[1:].lstrip("0123456789")  # stdFracSecond9 takes every digit
        if separator != " ":
            after_zone = _after_zone(rest)
            if after_zone is None:
                return False
            rest = after_zone
    days = _MONTH_DAYS[month] + (month == 2 and calendar.isleap(int(text[:4])))
    return rest == "" and month >= 1 and 1 <= day <= days


_MONTH_DAYS: Final = (0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)  # February of a common year; calendar.monthrange refuses year 0


def _after_zone(text: str) -> str | None:
    """What follows a Z07:00 zone (`Z`, or ±hh:mm of at most 24 hours and 60 minutes); None
    where there is no such zone."""
    if text.startswith("Z"):
        return text[1:]
    offset = len(text) >= 6 and text[0] in "+-" and text[3] == ":" and all("0" <= c <= "9" for c in text[1:3] + text[4:6])
    if offset and int(text[1:3]) <= 24 and int(text[4:6]) <= 60:
        return text[6:]
    return None


def _shortest(value: float, bits: int) -> tuple[str, int]:
    """The shortest decimal digits that read back as `value` at this precision (64 or 32 bits),
    and the decimal point's place (strconv's digs.d and digs.dp)."""
    if bits == 64:
        text = repr(abs(value))
    else:
        single = _to_float32(abs(value))
        text = next(t for p in range(1, 10) if _to_float32(float(t := f"{single:.{p - 1}e}")) == single)
    _, digits, exponent = Decimal(text).normalize().as_tuple()
    shown = "".join(map(str, digits))
    if shown == "0":
        return "0", 1
    assert isinstance(exponent, int)
    return shown, len(shown) + exponent


def _to_float32(value: float) -> float:
    try:
        single: float = struct.unpack("f", struct.pack("f", value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)
    return single


def _format_e(negative: bool, digits: str, point: int, pad_exponent: bool) -> str:
    mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    exponent = point - 1
    width = 2 if pad_exponent else 1
    return f"{'-' if negative else ''}{mantissa}e{'-' if exponent < 0 else '+'}{abs(exponent):0{width}d}"


def _format_f(negative: bool, digits: str, point: int) -> str:
    if point <= 0:
        text = "0." + "0" * -point + digits
    elif point >= len(digits):
        text = digits + "0" * (point - len(digits))
    else:
        text = digits[:point] + "." + digits[point:]
    return ("-" if negative else "") + text


def json_float_text(value: float) -> str:
    """encoding/json's floatEncoder (64 bits): the shortest digits, in exponent form below 1e-6 and
    from 1e21 on (`e-07` written `e-7`); ValueError for NaN and the infinities, as json.Marshal
    refuses them (`json: unsupported value: NaN`)."""
    if not math.isfinite(value):
        shown = "NaN" if math.isnan(value) else ("+Inf" if value > 0 else "-Inf")
        raise ValueError(f"json: unsupported value: {shown}")
    negative = math.copysign(1.0, value) < 0
    digits, point = _shortest(value, 64)
    magnitude = abs(value)
    if magnitude != 0 and (magnitude < 1e-6 or magnitude >= 1e21):
        return _format_e(negative, digits, point, pad_exponent=False)
    return _format_f(negative, digits, point)


def _format_float32_key(value: float) -> str:
    """strconv.FormatFloat(key, 'g', -1, 32), with go-yaml's names of the infinities and NaN."""
    if math.isnan(value):
        return ".nan"
    single = _to_float32(value)
    if math.isinf(single):
        return ".inf" if single > 0 else "-.inf"
    negative = math.copysign(1.0, value) < 0
    digits, point = _shortest(single, 32)
    if point - 1 < -4 or point - 1 >= 6:  # 'g' with the shortest digits decides at precision 6
        return _format_e(negative, digits, point, pad_exponent=True)
    return _format_f(negative, digits, point)


def json_key(key: object) -> str:
    """convertToJSONableObject's map key: a string as it is, an integer in decimal, a float as a
    32-bit 'g', a boolean as `true`/`false`; ValueError for any other key (null, an integer beyond
    int64, a list or map)."""
    if isinstance(key, str):
        return key
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, int) and -(1 << 63) <= key < 1 << 63:
        return str(key)
    if isinstance(key, float):
        return _format_float32_key(key)
    kind = "null" if key is None else ("uint64" if isinstance(key, int) else type(key).__name__)
    raise ValueError(f"unsupported map key of type {kind}")
