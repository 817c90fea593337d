"""Go's `strings`, `unicode` and `strconv` functions whose rules differ from Python's str and int:
Unicode classes and case mappings, byte lengths, and integer parsing.

Go's `unicode` tables are Unicode 15.0.0 (Go 1.21 ... 1.26, every toolchain the releases modelled
are built with); Python 3.11's `unicodedata` is 14.0.0. Where a function leans on Python's tables
(str.isprintable, str.lower, str.upper), the differences were checked rune by rune against Go's
(`unicode.IsPrint`, `ToLower`, `ToUpper`, `SimpleFold`): what is left is written out here.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Final

# unicode.IsSpace, which strings.Fields and strings.TrimSpace use (Python's isspace differs).
GO_SPACE: Final = frozenset("\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")


def go_fields(text: str) -> list[str]:
    """strings.Fields: split around runs of Go whitespace."""
    out: list[str] = []
    current: list[str] = []
    for ch in text:
        if ch in GO_SPACE:
            if current:
                out.append("".join(current))
                current = []
        else:
            current.append(ch)
    if current:
        out.append("".join(current))
    return out


def go_trim_space(text: str) -> str:
    """strings.TrimSpace."""
    start, end = 0, len(text)
    while start < end and text[start] in GO_SPACE:
        start += 1
    while end > start and text[end - 1] in GO_SPACE:
        end -= 1
    return text[start:end]


def go_len(text: str) -> int:
    """Go's len of a string: its UTF-8 bytes, not its runes (a lone surrogate, U+FFFD once
    decoded, is 3 too)."""
    return len(text.encode("utf-8", "surrogatepass"))


def go_prefix(text: str, size: int) -> str:
    """`s[:size]` of a Go string: its first `size` bytes. A rune cut in two leaves Go invalid
    UTF-8, which a str cannot hold: its bytes are dropped."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= size:
        return text
    for end in range(size, max(size - 4, -1), -1):
        try:
            return data[:end].decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            continue
    raise AssertionError("unreachable: a UTF-8 rune is at most 4 bytes")  # pragma: no cover


def go_prefix_as_written(text: str, size: int) -> str:
    """`s[:size]` as Go's JSON writes it: a rune cut in two leaves invalid bytes, each written as
    U+FFFD (where `go_prefix` drops them)."""
    kept = go_prefix(text, size)
    return kept + "\ufffd" * (min(size, go_len(text)) - go_len(kept))


# --- unicode.IsPrint (strconv.IsPrint, which strconv.Quote and %q use) ----------------------------

# The letters, marks, numbers, punctuation and symbols Unicode 15.0 added: printable to Go, not yet
# assigned (so not printable) in Python 3.11's tables. Nothing else differs.
_UNICODE_15_0_GRAPHIC_RANGES: Final = (
    (0x0CF3, 0x0CF3), (0x0ECE, 0x0ECE), (0x10EFD, 0x10EFF), (0x1123F, 0x11241), (0x11B00, 0x11B09),
    (0x11F00, 0x11F10), (0x11F12, 0x11F3A), (0x11F3E, 0x11F59), (0x1342F, 0x1342F), (0x13440, 0x13455),
    (0x1B132, 0x1B132), (0x1B155, 0x1B155), (0x1D2C0, 0x1D2D3), (0x1DF25, 0x1DF2A), (0x1E030, 0x1E06D),
    (0x1E08F, 0x1E08F), (0x1E4D0, 0x1E4F9), (0x1F6DC, 0x1F6DC), (0x1F774, 0x1F776), (0x1F77B, 0x1F77F),
    (0x1F7D9, 0x1F7D9), (0x1FA75, 0x1FA77), (0x1FA87, 0x1FA88), (0x1FAAD, 0x1FAAF), (0x1FABB, 0x1FABD),
    (0x1FABF, 0x1FABF), (0x1FACE, 0x1FACF), (0x1FADA, 0x1FADB), (0x1FAE8, 0x1FAE8), (0x1FAF7, 0x1FAF8),
    (0x2B739, 0x2B739), (0x31350, 0x323AF),
)  # fmt: skip
_UNICODE_15_0_GRAPHIC: Final = frozenset(chr(c) for lo, hi in _UNICODE_15_0_GRAPHIC_RANGES for c in range(lo, hi + 1))


def go_is_print(ch: str) -> bool:
    """unicode.IsPrint (and strconv.IsPrint): a letter, mark, number, punctuation or symbol, or
    the ASCII space. str.isprintable draws the same line, from an older Unicode."""
    return ch.isprintable() or ch in _UNICODE_15_0_GRAPHIC


# --- case mappings ---------------------------------------------------------------------------------


def go_to_lower(text: str) -> str:
    """strings.ToLower, rune by rune (Go maps U+0130 to a plain `i`; Python adds a dot)."""
    out = []
    for ch in text:
        low = "i" if ch == "\u0130" else ch.lower()
        out.append(low if len(low) == 1 else ch)
    return "".join(out)


# unicode.ToUpper is the simple mapping; str.upper the full one, several characters where Unicode's
# SpecialCasing says so. Where the simple mapping is another rune, it is one of these Greek letters
# with a iota below, whose simple uppercase is the titlecase letter 8 (or 9) code points on.
_GREEK_IOTA_SUBSCRIPT_UPPER: Final = {
    **{chr(c): chr(c + 8) for start in (0x1F80, 0x1F90, 0x1FA0) for c in range(start, start + 8)},
    "\u1fb3": "\u1fbc", "\u1fc3": "\u1fcc", "\u1ff3": "\u1ffc",
}  # fmt: skip


def _upper_rune(ch: str) -> str:
    up = ch.upper()
    return up if len(up) == 1 else _GREEK_IOTA_SUBSCRIPT_UPPER.get(ch, ch)


def go_to_upper(text: str) -> str:
    """strings.ToUpper, rune by rune (unicode.ToUpper: `ß` stays `ß`, `ﬀ` stays `ﬀ`, where
    Python's upper() writes `SS` and `FF`)."""
    return "".join(_upper_rune(ch) for ch in text)


# unicode's caseOrbit table: the case-folding classes of more than two runes (and of runes whose
# upper and lower case do not map back), each listed in code-point order.
_CASE_ORBITS: Final = (
    "Kk\u212a", "Ss\u017f", "\u00b5\u039c\u03bc", "\u00c5\u00e5\u212b", "\u00df\u1e9e", "\u0130", "\u0131",
    "\u01c4\u01c5\u01c6", "\u01c7\u01c8\u01c9", "\u01ca\u01cb\u01cc", "\u01f1\u01f2\u01f3",
    "\u0345\u0399\u03b9\u1fbe", "\u0392\u03b2\u03d0", "\u0395\u03b5\u03f5", "\u0398\u03b8\u03d1\u03f4",
    "\u039a\u03ba\u03f0", "\u03a0\u03c0\u03d6", "\u03a1\u03c1\u03f1", "\u03a3\u03c2\u03c3", "\u03a6\u03c6\u03d5",
    "\u03a9\u03c9\u2126", "\u0412\u0432\u1c80", "\u0414\u0434\u1c81", "\u041e\u043e\u1c82", "\u0421\u0441\u1c83",
    "\u0422\u0442\u1c84\u1c85", "\u042a\u044a\u1c86", "\u0462\u0463\u1c87", "\u1c88\ua64a\ua64b",
    "\u1e60\u1e61\u1e9b",
)  # fmt: skip
_NEXT_IN_ORBIT: Final = {orbit[i]: orbit[(i + 1) % len(orbit)] for orbit in _CASE_ORBITS for i in range(len(orbit))}


def go_simple_fold(ch: str) -> str:
    """unicode.SimpleFold: the next rune, in code-point order and wrapping around, that is
    equivalent to `ch` under simple case folding (`ch` itself when none is)."""
    if ch in _NEXT_IN_ORBIT:
        return _NEXT_IN_ORBIT[ch]
    low = go_to_lower(ch)
    return low if low != ch else _upper_rune(ch)


# --- strconv.ParseInt and numbers of any size --------------------------------------------------------

ERR_SYNTAX: Final = "invalid syntax"  # strconv.ErrSyntax
ERR_RANGE: Final = "value out of range"  # strconv.ErrRange


def go_parse_int(text: str, bit_size: int = 64) -> int:
    """strconv.ParseInt(text, 10, bit_size) (strconv.Atoi is bit size 64): an optional sign, then
    ASCII digits only (int() also takes `_`, blanks and other scripts' digits). A ValueError
    carries strconv's error, ERR_SYNTAX or ERR_RANGE; like ParseUint, the digits are read one by
    one and the range error comes as soon as they pass the unsigned range, whatever follows
    (`99999999999999999999x` is out of range, not a syntax error)."""
    digits = text[1:] if text[:1] in ("+", "-") else text
    if not digits:
        raise ValueError(ERR_SYNTAX)
    max_unsigned, value = (1 << bit_size) - 1, 0
    for ch in digits:
        if not "0" <= ch <= "9":
            raise ValueError(ERR_SYNTAX)
        value = value * 10 + ord(ch) - ord("0")
        if value > max_unsigned:
            raise ValueError(ERR_RANGE)
    negative, cutoff = text[0] == "-", 1 << (bit_size - 1)
    if value > cutoff or (value == cutoff and not negative):
        raise ValueError(ERR_RANGE)
    return -value if negative else value


def go_atoi(text: str, bit_size: int = 64) -> int | None:
    """`go_parse_int`, None where strconv returns an error."""
    try:
        return go_parse_int(text, bit_size)
    except ValueError:
        return None


# int() and str() of an int refuse more than 4300 decimal digits (sys.get_int_max_str_digits);
# Go's big numbers (big.Int, inf.Dec) have no such limit, and Decimal's conversions neither.
SHORT_DIGITS: Final = 4000


def decimal_digits_value(digits: str) -> int:
    """The integer a string of ASCII decimal digits spells, however many (big.Int.SetString);
    a ValueError for anything else."""
    if not digits or not all("0" <= ch <= "9" for ch in digits):
        raise ValueError(f"not decimal digits: {digits[:20]!r}")
    return int(digits) if len(digits) <= SHORT_DIGITS else int(Decimal(digits))


def decimal_text(value: int) -> str:
    """An integer in decimal, however many digits (strconv.FormatInt, big.Int.String)."""
    return str(value) if value.bit_length() <= 3 * SHORT_DIGITS else str(Decimal(value))


def decimal_successor(digits: str) -> str:
    """The decimal text of the number a string of ASCII decimal digits spells plus one, without
    leading zeros, in time linear in its length; a ValueError for anything else."""
    if not digits or not all("0" <= ch <= "9" for ch in digits):
        raise ValueError(f"not decimal digits: {digits[:20]!r}")
    number = digits.lstrip("0") or "0"
    nines = len(number) - len(number.rstrip("9"))
    head = number[: len(number) - nines]
    if not head:
        return "1" + "0" * nines
    return head[:-1] + chr(ord(head[-1]) + 1) + "0" * nines
