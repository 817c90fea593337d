"""Go's encoding/json where validation reads JSON from a string (the tolerations annotation):
checkValid's scanner (`encoding/json/scanner.go`) with its SyntaxError messages, and the
UnmarshalTypeError messages of decoding into a Go value (`decode.go`)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, Final

from jobmodel.util.gostrings import SHORT_DIGITS, decimal_digits_value, go_simple_fold, go_to_upper

MAX_NESTING_DEPTH: Final = 10000
_SPACE: Final = frozenset(b" \t\r\n")
_LONE_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_HEX: Final = frozenset(b"0123456789abcdefABCDEF")
_NAMED_ESCAPES: Final = {7: "\\a", 8: "\\b", 12: "\\f", 10: "\\n", 13: "\\r", 9: "\\t", 11: "\\v", 92: "\\\\"}


class GoSyntaxError(ValueError):
    """json.SyntaxError: its Error() is the message."""


def quote_char(c: int) -> str:
    """quoteChar: a byte as the scanner's messages show it (strconv.Quote of string(rune(c)))."""
    if c == ord("'"):
        return "'\\''"
    if c == ord('"'):
        return "'\"'"
    if c in _NAMED_ESCAPES:
        return f"'{_NAMED_ESCAPES[c]}'"
    if c < 0x20 or c == 0x7F:
        return f"'\\x{c:02x}'"
    if 0x80 <= c <= 0xA0 or c == 0xAD:  # not strconv.IsPrint
        return f"'\\u{c:04x}'"
    return f"'{chr(c)}'"


def check_valid(data: bytes) -> None:
    """checkValid: raise GoSyntaxError with Go's message unless `data` is one JSON value."""
    stack: list[str] = []  # "key", "value" (in an object), "array"
    state: Callable[[int], None]

    def error(c: int, context: str) -> None:
        raise GoSyntaxError(f"invalid character {quote_char(c)} {context}")

    def push(c: int, kind: str) -> None:
        stack.append(kind)
        if len(stack) > MAX_NESTING_DEPTH:
            error(c, "exceeded max depth")

    def set_state(next_state: Callable[[int], None]) -> None:
        nonlocal state
        state = next_state

    def begin_value(c: int) -> None:
        if c in _SPACE:
            return
        if c == ord("{"):
            push(c, "key")
            set_state(begin_string_or_empty)
        elif c == ord("["):
            push(c, "array")
            set_state(begin_value_or_empty)
        elif c == ord('"'):
            set_state(in_string)
        elif c == ord("-"):
            set_state(neg)
        elif c == ord("0"):
            set_state(zero)
        elif ord("1") <= c <= ord("9"):
            set_state(digits)
        elif c in b"tfn":
            set_state(literal({ord("t"): "true", ord("f"): "false", ord("n"): "null"}[c], 1))
        else:
            error(c, "looking for beginning of value")

    def begin_value_or_empty(c: int) -> None:
        if c in _SPACE:
            return
        if c == ord("]"):
            end_value(c)
        else:
            begin_value(c)

    def begin_string_or_empty(c: int) -> None:
        if c in _SPACE:
            return
        if c == ord("}"):
            stack[-1] = "value"
            end_value(c)
        else:
            begin_string(c)

    def begin_string(c: int) -> None:
        if c in _SPACE:
            return
        if c == ord('"'):
            set_state(in_string)
        else:
            error(c, "looking for beginning of object key string")

    def end_value(c: int) -> None:
        if not stack:
            set_state(end_top)
            end_top(c)
            return
        if c in _SPACE:
            set_state(end_value)
            return
        kind = stack[-1]
        if kind == "key":
            if c == ord(":"):
                stack[-1] = "value"
                set_state(begin_value)
                return
            error(c, "after object key")
        elif kind == "value":
            if c == ord(","):
                stack[-1] = "key"
                set_state(begin_string)
                return
            if c == ord("}"):
                stack.pop()
                set_state(end_value)
                return
            error(c, "after object key:value pair")
        else:
            if c == ord(","):
                set_state(begin_value)
                return
            if c == ord("]"):
                stack.pop()
                set_state(end_value)
                return
            error(c, "after array element")

    def end_top(c: int) -> None:
        if c not in _SPACE:
            error(c, "after top-level value")

    def in_string(c: int) -> None:
        if c == ord('"'):
            set_state(end_value)
        elif c == ord("\\"):
            set_state(in_string_esc)
        elif c < 0x20:
            error(c, "in string literal")

    def in_string_esc(c: int) -> None:
        if c in b'bfnrt\\/"':
            set_state(in_string)
        elif c == ord("u"):
            set_state(hex_digits(4))
        else:
            error(c, "in string escape code")

    def hex_digits(left: int) -> Callable[[int], None]:
        def step(c: int) -> None:
            if c not in _HEX:
                error(c, "in \\u hexadecimal character escape")
            set_state(in_string if left == 1 else hex_digits(left - 1))

        return step

    def neg(c: int) -> None:
        if c == ord("0"):
            set_state(zero)
        elif ord("1") <= c <= ord("9"):
            set_state(digits)
        else:
            error(c, "in numeric literal")

    def digits(c: int) -> None:
        if ord("0") <= c <= ord("9"):
            return
        zero(c)

    def zero(c: int) -> None:
        if c == ord("."):
            set_state(dot)
        elif c in b"eE":
            set_state(exp)
        else:
            end_value(c)

    def dot(c: int) -> None:
        if ord("0") <= c <= ord("9"):
            set_state(dot_digits)
        else:
            error(c, "after decimal point in numeric literal")

    def dot_digits(c: int) -> None:
        if ord("0") <= c <= ord("9"):
            return
        if c in b"eE":
            set_state(exp)
        else:
            end_value(c)

    def exp(c: int) -> None:
        if c in b"+-":
            set_state(exp_sign)
        else:
            exp_sign(c)

    def exp_sign(c: int) -> None:
        if ord("0") <= c <= ord("9"):
            set_state(exp_digits)
        else:
            error(c, "in exponent of numeric literal")

    def exp_digits(c: int) -> None:
        if not ord("0") <= c <= ord("9"):
            end_value(c)

    def literal(word: str, at: int) -> Callable[[int], None]:
        def step(c: int) -> None:
            if c != ord(word[at]):
                error(c, f"in literal {word} (expecting {quote_char(ord(word[at]))})")
            set_state(end_value if at == len(word) - 1 else literal(word, at + 1))

        return step

    state = begin_value
    for c in data:
        state(c)
    # scanner.eof: one more space ends a number; then the value must have ended.
    state(ord(" "))
    if not (state is end_top or (state is end_value and not stack)):
        raise GoSyntaxError("unexpected end of JSON input")


def json_kind(value: Any) -> str:
    """The JSON kind UnmarshalTypeError names: string, number, bool, array, object."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, GoNumber):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, GoObject):
        return "object"
    if isinstance(value, list):
        return "array"
    return "number"


def loads_checked(text: str) -> Any:
    """json.Unmarshal's first step: checkValid, then the value (numbers kept as their text)."""
    data = text.encode("utf-8", "surrogatepass")
    check_valid(data)
    return _replace_lone_surrogates(json.loads(text, parse_float=GoNumber, parse_int=GoNumber, object_pairs_hook=GoObject))


def _replace_lone_surrogates(value: Any) -> Any:
    """decode.go's unquote: a `\\uXXXX` surrogate escape that is not half of a pair becomes
    U+FFFD (json.loads keeps the lone surrogate)."""
    if isinstance(value, str) and not isinstance(value, GoNumber):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, GoObject):
        return GoObject((_replace_lone_surrogates(k), _replace_lone_surrogates(v)) for k, v in value)
    if isinstance(value, list):
        return [_replace_lone_surrogates(v) for v in value]
    return value


class GoNumber(str):
    """A JSON number's literal text (decode.go's literalStore parses it for the target type)."""


class LiteralInt(int):
    """A JSON integer read as a Python int that keeps its literal text (Quantity.UnmarshalJSON
    reads the literal)."""

    literal: str


class LiteralFloat(float):
    """A JSON number with a fraction or exponent read as a Python float that keeps its literal
    text (`1E3` and `0.1000000000000000000001` are quantities of their own to Go)."""

    literal: str


# int() refuses more than 4300 digits; Go's decoder reads any number. The model reads integers
# of up to MAX_INT_DIGITS digits (a longer one is refused: NumberTooLong).
MAX_INT_DIGITS: Final = 100_000


class NumberTooLong(ValueError):
    """A JSON integer of more than MAX_INT_DIGITS digits."""


def literal_int(text: str) -> LiteralInt:
    """json.loads' parse_int keeping the text."""
    if len(text) <= SHORT_DIGITS:
        number = LiteralInt(text)
    else:
        digits = text.removeprefix("-")
        if len(digits) > MAX_INT_DIGITS:
            raise NumberTooLong(f"an integer of {len(digits)} digits: the model reads integers of up to {MAX_INT_DIGITS} digits")
        magnitude = decimal_digits_value(digits)
        number = LiteralInt(-magnitude if text.startswith("-") else magnitude)
    number.literal = text
    return number


def literal_float(text: str) -> LiteralFloat:
    """json.loads' parse_float keeping the text."""
    number = LiteralFloat(text)
    number.literal = text
    return number


def dumps_keeping_literals(value: Any, **options: Any) -> str:
    """json.dumps, a number read with its literal (LiteralInt, LiteralFloat) written as that
    literal (`1E3` stays `1E3`, not `1000.0`), so that a case passed on reads as it was read."""
    literals: list[str] = []
    marker = "\x00jobmodel-literal-"

    def marked(item: Any) -> Any:
        if isinstance(item, str) and marker in item:
            raise _MarkerInText
        if isinstance(item, dict):
            return {k: marked(v) for k, v in item.items()}
        if isinstance(item, list | tuple):
            return [marked(v) for v in item]
        literal = getattr(item, "literal", None)
        if isinstance(item, int | float) and isinstance(literal, str) and literal != json.dumps(item):
            literals.append(literal)
            return f"{marker}{len(literals) - 1}\x00"
        return item

    try:
        text = json.dumps(marked(value), **options)
    except _MarkerInText:
        return json.dumps(value, **options)
    for index, literal in enumerate(literals):
        text = text.replace(f'"\\u0000jobmodel-literal-{index}\\u0000"', literal, 1)
    return text


class _MarkerInText(Exception):
    """A string of the value holds dumps_keeping_literals' marker: the numbers are written plain."""


class GoObject(list[tuple[str, Any]]):
    """A JSON object as its members in order, repeated keys kept (Go assigns each in turn)."""


def fold_name(name: str) -> str:
    """foldName: ASCII upper-cased, other runes folded (unicode.ToUpper(unicode.SimpleFold(r)): one
    rune each, so `ﬀ` stays itself where Python's upper() writes `FF`)."""
    return "".join(c.upper() if c.isascii() else go_to_upper(go_simple_fold(c)) for c in name)
