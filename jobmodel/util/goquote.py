"""Go's quoting of strings in messages: strconv.Quote (`%q`, strconv's NumError), the time
package's own `quote` (time.ParseDuration's errors) and encoding/json's (json.Marshal of a string)."""

from __future__ import annotations

from typing import Final

from jobmodel.util.gostrings import go_is_print

_JSON_ESCAPES: Final = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_GO_ESCAPES: Final = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v"}


def go_quote(text: str) -> str:
    """strconv.Quote (Go's `%q` of a string): `"` and `\\` escaped, and every rune strconv.IsPrint
    refuses (go_is_print) as `\\t`, `\\x7f`, `\\u00a0` or `\\U000e0001`."""
    out = ['"']
    for char in text:
        code = ord(char)
        if char in '"\\':
            out.append("\\" + char)
        elif go_is_print(char):
            out.append(char)
        elif char in _GO_ESCAPES:
            out.append(_GO_ESCAPES[char])
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\x{code:02x}")
        else:
            out.append(f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    out.append('"')
    return "".join(out)


def go_time_quote(text: str) -> str:
    """The time package's quote: `"` and `\\` escaped, every byte of a non-ASCII or control
    (below space) rune as `\\xNN`; DEL as it is."""
    out = ['"']
    for char in text:
        if char >= "\x80" or char < " ":
            out.extend(f"\\x{byte:02x}" for byte in char.encode("utf-8", "surrogatepass"))
        else:
            out.append("\\" + char if char in '"\\' else char)
    out.append('"')
    return "".join(out)


def go_json_string(text: str) -> str:
    """encoding/json's appendString as json.Marshal calls it (escapeHTML): `"`, `\\` and the short
    escapes, other controls below space, `<`, `>`, `&`, U+2028 and U+2029 as `\\uXXXX`; invalid
    UTF-8 (a lone surrogate's three bytes) as one `\\ufffd` a byte; everything else as it is."""
    out = ['"']
    for char in text:
        code = ord(char)
        if char in _JSON_ESCAPES:
            out.append(_JSON_ESCAPES[char])
        elif code < 0x20 or char in "<>&" or code in (0x2028, 0x2029):
            out.append(f"\\u{code:04x}")
        elif 0xD800 <= code <= 0xDFFF:
            out.append("\\ufffd" * len(char.encode("utf-8", "surrogatepass")))
        else:
            out.append(char)
    out.append('"')
    return "".join(out)
