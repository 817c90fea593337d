"""Go's `strings` functions whose Unicode rules differ from Python's str methods."""

from __future__ import annotations

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


def go_to_lower(text: str) -> str:
    """strings.ToLower, rune by rune (Go maps U+0130 to a plain `i`; Python adds a dot)."""
    out = []
    for ch in text:
        low = "i" if ch == "\u0130" else ch.lower()
        out.append(low if len(low) == 1 else ch)
    return "".join(out)
