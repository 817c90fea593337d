"""Errors for bad input: each names the field and the reason; values echoed in a message are
shortened and quoted as JSON (`quote`)."""

from __future__ import annotations

import json
from typing import Final

# How much of a value a message echoes.
QUOTE_LIMIT: Final = 60


class InputError(ValueError):
    """Input that cannot be taken: `field` is a JSON path such as `spec.completions`."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}" if field else reason)
        self.field = field
        self.reason = reason


def printable(text: str) -> str:
    """`text` with what UTF-8 cannot encode (lone surrogates) written as escapes."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """A value as a message echoes it: JSON, at most `limit` characters (then `...`)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 256:
        return f"(an integer of {value.bit_length()} bits)"
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (ValueError, RecursionError):
        return "(a value too large to show)"
    text = printable(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Unsupported(Exception):
    """An engine cannot run this case faithfully (e.g. a real cluster has no clock that stands
    still, another implementation does not answer a suite); the message says why. The case is
    reported as unsupported, neither passed nor failed."""


def describe(value: object) -> str:
    """A JSON value as the decoder's messages name it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    literal = getattr(value, "literal", None)
    if isinstance(value, int):
        return f"the integer {literal or quote(value)}"
    if isinstance(value, float):
        return f"the number {literal or quote(value)}"
    if isinstance(value, str):
        return f"the string {quote(value)}"
    if isinstance(value, list):
        return "a list"
    return "an object"
