"""Kubernetes quantities as `k8s.io/apimachinery/pkg/api/resource` reads and prints them
(quantity.go, suffix.go, amount.go: the same in v0.32 ... v0.37).

`parse_quantity` is ParseQuantity: what parses, the exact value kept (an int64Amount on the fast
path, an inf.Dec rounded up to nano units otherwise, BinarySI capped at 2^63-1), and the input
string kept when it is already canonical. `quantity_string` is String() (CanonicalizeBytes), which
both the stored object and validation messages show. A bad quantity is refused when the JSON is
decoded (Quantity.UnmarshalJSON), before validation: `decode_quantity` raises the InputError the
decoder's error becomes.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any, Final

import attrs

from jobmodel.errors import InputError
from jobmodel.util.gostrings import decimal_digits_value, decimal_text, go_atoi, go_trim_space

SPLIT_RE_STRING: Final = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$"
ERR_FORMAT_WRONG: Final = f"quantities must match the regular expression '{SPLIT_RE_STRING}'"
ERR_NUMERIC: Final = "unable to parse numeric part of quantity"
ERR_SUFFIX: Final = "unable to parse quantity's suffix"

DECIMAL_EXPONENT: Final = "DecimalExponent"
BINARY_SI: Final = "BinarySI"
DECIMAL_SI: Final = "DecimalSI"

# newSuffixer's tables: suffix -> exponent (base 10 and base 2).
DECIMAL_SUFFIXES: Final = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
BINARY_SUFFIXES: Final = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_DECIMAL_BY_EXPONENT: Final = {e: s for s, e in DECIMAL_SUFFIXES.items()}
_BINARY_BY_EXPONENT: Final = {e: s for s, e in BINARY_SUFFIXES.items()}
_SUFFIX_CHARS: Final = "eEinumkKMGTP"
MAX_INT64_FACTORS: Final = 18
# The model's bound: a quantity of more significant digits, or of 10^MAX_DIGITS or more, is refused
# (ERR_TOO_LARGE) rather than computed. Go keeps 1e100000000 as a small int64Amount, but String(),
# Cmp and the sums of validation expand it to 10^100000000 there too (seconds to hours).
MAX_DIGITS: Final = 100_000
ERR_TOO_LARGE: Final = f"the model computes quantities of fewer than {MAX_DIGITS} digits, below 10^{MAX_DIGITS}"
NANO: Final = -9
INT64_MIN: Final = -(2**63)
INT64_MAX: Final = 2**63 - 1


class QuantityError(ValueError):
    """ParseQuantity's error (ErrFormatWrong, ErrNumeric, ErrSuffix): the message is Go's."""


@attrs.frozen
class Quantity:
    """A parsed quantity: the value `unscaled * 10**exponent`, kept as an int64Amount (`small`)
    or an inf.Dec; its format; `s`, the input string when ParseQuantity keeps it as canonical."""

    unscaled: int
    exponent: int
    format: str
    s: str = ""
    small: bool = True

    @property
    def value(self) -> Fraction:
        return Fraction(self.unscaled) * Fraction(10) ** self.exponent


def _digit(c: str) -> bool:
    return "0" <= c <= "9"


def parse_quantity_string(s: str) -> tuple[bool, str, str, str, str]:
    """parseQuantityString: (positive, value, num, denom, suffix); raises ErrFormatWrong."""
    positive, pos, end = True, 0, len(s)
    if pos < end and s[0] in "+-":
        positive = s[0] == "+"
        pos += 1
    while True:  # leading zeros
        if pos >= end:
            return positive, "0", "0", "", ""
        if s[pos] != "0":
            break
        pos += 1
    i = pos
    while i < end and _digit(s[i]):
        i += 1
    if i >= end:
        return positive, s, s[pos:], "", ""
    num, pos = s[pos:i] or "0", i
    denom = ""
    if s[pos] == ".":
        pos += 1
        i = pos
        while i < end and _digit(s[i]):
            i += 1
        if i >= end:
            return positive, s, num, s[pos:], ""
        denom, pos = s[pos:i], i
    value, suffix_start = s[:pos], pos
    while pos < end and s[pos] in _SUFFIX_CHARS:
        pos += 1
    if pos >= end:
        return positive, value, num, denom, s[suffix_start:]
    if s[pos] in "-+":
        pos += 1
    while pos < end and _digit(s[pos]):
        pos += 1
    if pos >= end:
        return positive, value, num, denom, s[suffix_start:]
    raise QuantityError(ERR_FORMAT_WRONG)


def interpret_suffix(suffix: str) -> tuple[int, int, str]:
    """suffixHandler.interpret: (base, exponent, format); raises ErrSuffix."""
    if suffix in DECIMAL_SUFFIXES:
        return 10, DECIMAL_SUFFIXES[suffix], DECIMAL_SI
    if suffix in BINARY_SUFFIXES:
        return 2, BINARY_SUFFIXES[suffix], BINARY_SI
    if len(suffix) > 1 and suffix[0] in "eE":
        parsed = go_atoi(suffix[1:])  # strconv.ParseInt(s, 10, 64)
        if parsed is not None:
            return 10, (parsed + 2**31) % 2**32 - 2**31, DECIMAL_EXPONENT  # int32(parsed)
    raise QuantityError(ERR_SUFFIX)


def _inf_dec(value: str) -> tuple[int, int]:
    """inf.Dec.SetString: (unscaled, scale) of a signed decimal with at most one point; the same
    value with its trailing zeros moved into the scale (a zero has scale 0), so that only its
    significant digits are converted."""
    sign, body = (value[0], value[1:]) if value[:1] in ("+", "-") else ("", value)
    whole, dot, frac = body.partition(".")
    digits = whole + frac
    if not digits or not all("0" <= ch <= "9" for ch in digits):
        raise QuantityError(ERR_NUMERIC)
    significant = digits.lstrip("0").rstrip("0")
    if not significant:
        return 0, 0
    if len(significant) >= MAX_DIGITS:
        raise QuantityError(ERR_TOO_LARGE)
    unscaled = decimal_digits_value(significant)  # a big.Int: any number of digits
    scale = (len(frac) if dot else 0) - (len(digits.lstrip("0")) - len(significant))
    return (-unscaled if sign == "-" else unscaled), scale


def parse_quantity(s: str) -> Quantity:
    """ParseQuantity."""
    if not s:
        raise QuantityError(ERR_FORMAT_WRONG)
    if s == "0":
        return Quantity(0, 0, DECIMAL_SI, s)
    positive, value, num, denom, suffix = parse_quantity_string(s)
    base, exponent, fmt = interpret_suffix(suffix)
    mantissa, scale = 1, 0
    if fmt == BINARY_SI:
        if exponent >= 0 and not denom:
            mantissa = 1 << exponent
            precision = 15 - len(num) - exponent * 3 // 10 - 1
        else:
            precision = -1
    else:
        scale = exponent
        precision = MAX_INT64_FACTORS - (len(num) + len(denom))
    if precision >= 0:
        scale -= len(denom)
        if scale >= MAX_DIGITS:
            if int(num + denom):
                raise QuantityError(ERR_TOO_LARGE)
            scale = 0  # a zero: its scale shows nowhere (String() is "0", every value 0)
        if scale >= NANO:
            shifted = num + denom
            amount = int(shifted)
            result = amount * mantissa
            if result <= INT64_MAX:
                canonical = (
                    exponent % 10 == 0 and amount & 7 != 0
                    if fmt == BINARY_SI
                    else scale % 3 == 0 and not shifted.endswith("000") and shifted[0] != "0"
                )
                return Quantity(result if positive else -result, scale, fmt, s if canonical else "")
    unscaled, dec_scale = _inf_dec(value)
    if base == 10:
        dec_scale -= exponent
    else:
        unscaled <<= exponent
    negative, unscaled = unscaled < 0, abs(unscaled)
    if unscaled == 0:
        dec_scale = 0  # as in the fast path: a zero's scale shows nowhere
    else:
        # Round up to nano units: whoever asks for some resource gets some.
        if dec_scale + NANO > unscaled.bit_length():  # below one nano unit: 10^n > 2^n
            unscaled = 1
        elif dec_scale > -NANO:
            unscaled = -(-unscaled // 10 ** (dec_scale + NANO))
        elif -dec_scale >= MAX_DIGITS:
            raise QuantityError(ERR_TOO_LARGE)
        else:
            unscaled *= 10 ** (-NANO - dec_scale)
        dec_scale = -NANO
    magnitude = Fraction(unscaled) / Fraction(10) ** dec_scale
    if fmt == BINARY_SI and magnitude > INT64_MAX:
        unscaled, dec_scale = INT64_MAX, 0  # the cap at maxAllowed
    elif fmt == BINARY_SI and 0 < magnitude < 1:
        fmt = DECIMAL_SI
    return Quantity(-unscaled if negative else unscaled, -dec_scale, fmt, small=False)


def _remove_factors(value: int, base: int) -> tuple[int, int]:
    """removeInt64Factors / removeBigIntFactors: (value without factors of base, how many)."""
    times, magnitude = 0, abs(value)
    # By powers base^(2^i), largest first: a few divisions, not one per factor of a long number.
    powers = [base]
    while magnitude and magnitude % powers[-1] == 0 and powers[-1] <= magnitude // powers[-1]:
        powers.append(powers[-1] * powers[-1])
    for i in reversed(range(len(powers))):
        if magnitude and magnitude % powers[i] == 0:
            magnitude //= powers[i]
            times += 1 << i
    return (-magnitude if value < 0 else magnitude), times


def quantity_string(q: Quantity) -> str:
    """Quantity.String(): the kept input, or CanonicalizeBytes."""
    if q.s:
        return q.s
    value = q.value
    if value == 0:
        return "0"
    fmt = q.format
    if fmt == BINARY_SI and (-1024 < value < 1024 or value.denominator != 1):
        fmt = DECIMAL_SI  # no rounding: shown in decimal
    if fmt == BINARY_SI:
        number, times = _remove_factors(int(value), 1024)
        return f"{decimal_text(number)}{_BINARY_BY_EXPONENT.get(times * 10, '')}"
    number, exponent = _remove_factors(q.unscaled, 10)
    exponent += q.exponent
    shift = exponent % 3  # down to a multiple of 3
    number, exponent = number * 10**shift, exponent - shift
    if fmt == DECIMAL_SI:
        return f"{decimal_text(number)}{_DECIMAL_BY_EXPONENT.get(exponent, '')}"
    return f"{decimal_text(number)}e{exponent}" if exponent else decimal_text(number)


def _wrap64(value: int) -> int:
    """A Go int64 (two's complement) of an integer: big.Int.Int64, overflowing arithmetic."""
    return (value + 2**63) % 2**64 - 2**63


def _go_quo(a: int, b: int) -> int:
    """Go's integer division (truncated toward zero)."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def negative_scale_int64(base: int, scale: int) -> int:
    """negativeScaleInt64: base / 10**scale, rounded away from zero."""
    value, fraction = base, False
    for _ in range(scale):
        if not fraction and value - _go_quo(value, 10) * 10 != 0:
            fraction = True
        value = _go_quo(value, 10)
        if value == 0:
            return (1 if base > 0 else -1) if fraction else 0
    if fraction:
        value += 1 if base > 0 else -1
    return value


def positive_scale_int64(base: int, scale: int) -> int:
    """positiveScaleInt64: base * 10**scale; for the scales it names (1, 2, 3, 6, 9) Go's
    int64MultiplyScale wraps on overflow (MinInt64 gives 0), otherwise an overflow gives 0."""
    value = base * 10**scale
    if scale in (0, 1, 2, 3, 6, 9):
        return 0 if base == INT64_MIN and scale else _wrap64(value)
    return value if INT64_MIN <= value <= INT64_MAX else 0


def scaled_value(q: Quantity, scale: int) -> int:
    """Quantity.ScaledValue: the value in units of 10**scale, rounded up, as Go's int64 (an
    int64Amount that overflows gives 0; an inf.Dec wraps, as scaledValue's big.Int.Int64 does)."""
    if q.small:
        if q.exponent < scale:
            return negative_scale_int64(q.unscaled, scale - q.exponent)
        return positive_scale_int64(q.unscaled, q.exponent - scale)
    dif = scale - q.exponent  # inf.Dec's scale minus the new scale
    if dif == 0:
        return _wrap64(q.unscaled)
    if dif < 0:
        # int64(math.Pow10(n)) beyond int64 is MinInt64 on amd64.
        factor = 10**-dif if -dif <= 18 else INT64_MIN
        return _wrap64(_wrap64(q.unscaled) * factor)
    if q.unscaled < INT64_MAX and dif < 19:
        small, divide = _wrap64(q.unscaled), 10**dif
        result = _go_quo(small, divide)
        return _wrap64(result + 1 if small - result * divide != 0 else result)
    result, remainder = divmod(q.unscaled, 10**dif)  # big.Int.DivMod: Euclidean
    return _wrap64(result + 1 if remainder else result)


def value_of(q: Quantity) -> int:
    """Quantity.Value."""
    return scaled_value(q, 0)


def milli_value(q: Quantity) -> int:
    """Quantity.MilliValue."""
    return scaled_value(q, -3)


def raw_text(value: Any) -> str:
    """The bytes Quantity.UnmarshalJSON reads: a string's JSON text without its quotes (escapes
    are not undone), any other JSON value's text (a number's literal where it was read keeping
    it); then strings.TrimSpace."""
    literal = getattr(value, "literal", None)
    text = literal if isinstance(literal, str) else json.dumps(value, ensure_ascii=False)
    if isinstance(value, str):
        text = text[1:-1]
    return go_trim_space(text)


class DecodedQuantity(str):
    """A decoded quantity: the text the stored object writes (MarshalJSON: String()), carrying
    the Quantity decoded, which validation reads. The two differ beyond the suffixes (1e21 is
    written "1": DecimalSI has no suffix for 10^21) and in the representation that integer
    conversions wrap by (an int64Amount or an inf.Dec, as the text was written)."""

    quantity: Quantity

    def __copy__(self) -> DecodedQuantity:
        return self  # immutable, as a str is: copies share it (deepcopy would rebuild it)

    def __deepcopy__(self, memo: dict[int, Any]) -> DecodedQuantity:
        return self


def decoded_quantity(q: Quantity) -> DecodedQuantity:
    """`q` as a decoded object holds it (DecodedQuantity)."""
    text = DecodedQuantity(quantity_string(q))
    text.quantity = q
    return text


def decode_quantity(value: Any, path: str) -> DecodedQuantity:
    """Quantity.UnmarshalJSON; a quantity that does not parse fails the decoding with
    ParseQuantity's error."""
    try:
        return decoded_quantity(parse_quantity(raw_text(value)))
    except QuantityError as err:
        raise InputError(path, str(err)) from None


def quantity_of(value: Any, path: str) -> Quantity:
    """The quantity of a decoded value (a DecodedQuantity's own; else its text parsed)."""
    if isinstance(value, DecodedQuantity):
        return value.quantity
    try:
        return parse_quantity(raw_text(value))
    except QuantityError as err:
        raise InputError(path, str(err)) from None


def round_up(q: Quantity, scale: int) -> Quantity:
    """Quantity.RoundUp: to a multiple of 10**scale, away from zero (an int64Amount already as
    coarse keeps its kept string)."""
    if q.exponent >= scale:
        return q if q.small else attrs.evolve(q, s="")
    if q.small:
        return Quantity(negative_scale_int64(q.unscaled, scale - q.exponent), scale, q.format)
    divisor = 10 ** (scale - q.exponent)
    magnitude = -(-abs(q.unscaled) // divisor)
    return Quantity(-magnitude if q.unscaled < 0 else magnitude, scale, q.format, small=False)


def set_defaults_resource_list(resources: dict[str, Any] | None) -> None:
    """SetDefaults_ResourceList (`pkg/apis/core/v1/defaults.go`), in place on decoded quantities:
    each rounded up to milli units."""
    if not resources:
        return
    for name, value in resources.items():
        resources[name] = decoded_quantity(round_up(quantity_of(value, name), -3))
