"""Field errors as upstream's `k8s.io/apimachinery/pkg/util/validation/field` reports them.

A `FieldError` carries the upstream type name (`FieldValueInvalid`, ...), the JSON path of the
field (`spec.template.metadata.labels[job-name]`), the offending value and a detail; `str()`
renders it as `field.Error.Error()` does, which is what `kubectl` prints.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

import attrs

from jobmodel.errors import InputError
from jobmodel.util.goquote import go_json_string, go_quote

REQUIRED: Final = "FieldValueRequired"
INVALID: Final = "FieldValueInvalid"
FORBIDDEN: Final = "FieldValueForbidden"
NOT_SUPPORTED: Final = "FieldValueNotSupported"
DUPLICATE: Final = "FieldValueDuplicate"
TOO_LONG: Final = "FieldValueTooLong"
TOO_MANY: Final = "FieldValueTooMany"
NOT_FOUND: Final = "FieldValueNotFound"

# ErrorType.String() of each type.
_TYPE_TEXT: Final = {
    REQUIRED: "Required value",
    INVALID: "Invalid value",
    FORBIDDEN: "Forbidden",
    NOT_SUPPORTED: "Unsupported value",
    DUPLICATE: "Duplicate value",
    TOO_LONG: "Too long",
    TOO_MANY: "Too many",
    NOT_FOUND: "Not found",
}
# Types whose rendering never shows the value (ErrorBody's first case).
_VALUELESS: Final = frozenset({REQUIRED, FORBIDDEN, TOO_LONG})


class _Omit:
    """field.OmitValueType: the error is rendered without a value."""

    def __repr__(self) -> str:
        return "OMIT"


OMIT: Final = _Omit()


class ServerPanic(InputError):
    """Input on which upstream's code panics: the API server recovers and answers
    500 Internal Server Error instead of a validation result (docs/validation.md, "Upstream bugs")."""

    def __init__(self, field: str, upstream_function: str, panic: str | None = None) -> None:
        cause = (
            f"upstream's {upstream_function} panics: {panic}"
            if panic is not None
            else f"unset, and upstream's {upstream_function} dereferences it (a nil-pointer panic)"
        )
        super().__init__(field, f"{cause}; the API server answers 500 Internal Server Error")
        self.upstream_function = upstream_function


@attrs.frozen
class FieldError:
    """One validation error: upstream type name, field path, bad value, detail."""

    type: str
    field: str
    bad_value: Any = attrs.field(default=OMIT, eq=False)
    detail: str = ""

    def body(self) -> str:
        """ErrorBody: the message without the field name."""
        text = _TYPE_TEXT.get(self.type, self.type)
        if self.type not in _VALUELESS and self.bad_value is not OMIT:
            text = f"{text}: {render_value(self.bad_value)}"
        return f"{text}: {self.detail}" if self.detail else text

    def __str__(self) -> str:
        return f"{self.field}: {self.body()}"

    def as_pair(self) -> dict[str, str]:
        return {"field": self.field, "type": self.type}


@attrs.frozen
class GoStruct:
    """A bad value of an internal Go struct, which has no json tags: json.Marshal writes its Go
    field names in declaration order (a nil pointer as `null`), not the wire names. With its Go
    type (`batch.SuccessPolicy`) and its fields' (`*string`, `[]batch.SuccessPolicyRule`) it can
    also be printed with `%#v` (`go_struct`)."""

    fields: tuple[tuple[str, Any], ...]
    go_type: str = ""
    types: tuple[str, ...] = ()


def go_struct(value: GoStruct, release: int) -> Any:
    """A struct bad value as ErrorBody prints it at `release`: json.Marshal from v1.34; before,
    `%#v` (a top-level pointer dereferenced), unless it holds a set pointer, whose address `%#v`
    prints and no model can repeat: the model then prints the 1.34 form."""
    if release >= 34:
        return value
    text = go_syntax_value(value, value.go_type)
    return value if text is None else GoSyntax(text)


def go_syntax_value(value: Any, go_type: str) -> str | None:
    """`%#v` of a value of `go_type` (a struct given as a GoStruct with its types, a slice, a
    pointer, a string or named string type, an integer, a bool), or None where it would print a
    set pointer's address."""
    if isinstance(value, Marshalled):
        value = value.value
    if go_type.startswith("*"):
        return f"({go_type})(nil)" if value is None else None
    if go_type.startswith("[]"):
        if value is None:
            return f"{go_type}(nil)"
        items = [go_syntax_value(v, go_type[2:]) for v in value]
        return None if None in items else go_type + "{" + ", ".join(i for i in items if i is not None) + "}"
    if isinstance(value, GoStruct):
        if not value.go_type or len(value.types) != len(value.fields):
            return None
        shown = [(n, go_syntax_value(v, t)) for (n, v), t in zip(value.fields, value.types, strict=True)]
        if any(text is None for _, text in shown):
            return None
        return value.go_type + "{" + ", ".join(f"{n}:{text}" for n, text in shown) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return go_quote(value)
    if isinstance(value, int):
        return str(value)
    return None


def json_struct(value: Mapping[str, Any], names: Sequence[str], omitempty: frozenset[str] = frozenset()) -> GoStruct:
    """A wire struct (json tags) as json.Marshal writes it: its fields in declaration order
    (`names`), an `omitempty` one left out when nil or an empty string, slice or map (the ones
    modelled are pointers, strings, slices and maps), any other absent one as "" (strings)."""
    fields = [(n, value.get(n)) for n in names]
    return GoStruct(tuple((n, "" if v is None else v) for n, v in fields if not (n in omitempty and v in (None, "", [], {}))))


@attrs.frozen
class Marshalled:
    """A bad value ErrorBody prints with json.Marshal although it is a string: a value of a named
    string type (batch.CompletionMode) or a *string, which its `case string` does not take."""

    value: Any


def named(value: Any, release: int) -> Any:
    """A bad value of a named Go string type (or a *string) as ErrorBody prints it at `release`:
    with `%#v` (quoted as `%q`) or, dereferenced, `%q` before v1.34; with json.Marshal from v1.34
    (apimachinery `pkg/util/validation/field/errors.go`)."""
    return Marshalled(value) if release >= 34 and isinstance(value, str) else value


def pointer(value: Any, release: int) -> Any:
    """A pointer bad value as ErrorBody prints it at `release`: a nil one as `null` (json.Marshal)
    from v1.34; before, ErrorBody replaces it by the string "null", which it quotes (`"null"`)."""
    return "null" if value is None and release < 34 else value


@attrs.frozen
class GoSyntax:
    """A bad value ErrorBody prints as a text before v1.34 (`%#v`, or a fmt.Stringer's String()):
    that text."""

    text: str


def stringer(value: str, release: int) -> Any:
    """A bad value of a named string type with a String() method (core.ResourceName) as ErrorBody
    prints it at `release`: its String(), unquoted, before v1.34 (the `fmt.Stringer` case comes
    before `%#v`); json.Marshal from v1.34, as any named string type (`named`)."""
    return GoSyntax(value) if release < 34 else named(value, release)


def string_map(value: Mapping[str, str] | None, release: int) -> Any:
    """A map[string]string bad value as ErrorBody prints it at `release`: `%#v` before v1.34
    (`map[string]string{"k":"v", ...}`, nil as `map[string]string(nil)`), json.Marshal from v1.34
    (nil as `null`)."""
    if release >= 34:
        return None if value is None else dict(value)
    return GoSyntax(go_syntax_string_map(value))


def go_slice(values: Sequence[Any] | None, go_type: str, release: int) -> Any:
    """A slice bad value (`[]int32`, `[]string`) as ErrorBody prints it: `%#v` before v1.34,
    json.Marshal from v1.34 (nil as `null`)."""
    if release >= 34:
        return None if values is None else list(values)
    return GoSyntax(go_syntax_slice(values, go_type))


def go_syntax_slice(values: Sequence[Any] | None, go_type: str) -> str:
    """`%#v` of a slice of strings (or of a named string type) or integers: `[]int32{1, 2}`,
    nil as `[]int32(nil)`."""
    if values is None:
        return f"{go_type}(nil)"
    return go_type + "{" + ", ".join(go_quote(v) if isinstance(v, str) else str(v) for v in values) + "}"


def go_syntax_string_map(value: Mapping[str, str] | None) -> str:
    """`%#v` of a map[string]string: keys sorted, nil as `map[string]string(nil)`."""
    if value is None:
        return "map[string]string(nil)"
    pairs = ", ".join(f"{go_quote(k)}:{go_quote(value[k])}" for k in sorted(value))
    return f"map[string]string{{{pairs}}}"


def _marshal(value: Any) -> str:
    """json.Marshal of a bad value: maps with sorted keys, GoStruct fields in their order, strings
    HTML-escaped (go_json_string)."""
    if isinstance(value, GoStruct):
        return "{" + ",".join(f"{go_json_string(k)}:{_marshal(v)}" for k, v in value.fields) + "}"
    if isinstance(value, Marshalled):
        return _marshal(value.value)
    if isinstance(value, list | tuple):
        return "[" + ",".join(_marshal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{go_json_string(k)}:{_marshal(value[k])}" for k in sorted(value)) + "}"
    if isinstance(value, str):
        return go_json_string(value)
    return json.dumps(value)


def render_value(value: Any) -> str:
    """How ErrorBody prints a bad value: `%v` for numbers and booleans, `%q` for a string,
    json.Marshal for anything else (a nil pointer prints as `null`)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return go_quote(value)
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, GoSyntax):
        return value.text
    return _marshal(value)


def required(path: str, detail: str = "") -> FieldError:
    return FieldError(REQUIRED, path, "", detail)


def invalid(path: str, value: Any, detail: str) -> FieldError:
    return FieldError(INVALID, path, value, detail)


def forbidden(path: str, detail: str) -> FieldError:
    return FieldError(FORBIDDEN, path, "", detail)


def duplicate(path: str, value: Any) -> FieldError:
    return FieldError(DUPLICATE, path, value, "")


def unique(path: str, value: Any, seen: set[Any]) -> list[FieldError]:
    """field.Duplicate when `value` is among those `seen` before; otherwise it joins them."""
    if value in seen:
        return [duplicate(path, value)]
    seen.add(value)
    return []


def not_found(path: str, value: Any) -> FieldError:
    return FieldError(NOT_FOUND, path, value, "")


def not_supported(path: str, value: Any, valid: Sequence[str]) -> FieldError:
    """field.NotSupported: the detail lists the supported values, each quoted."""
    detail = "supported values: " + ", ".join(go_quote(v) for v in valid) if valid else ""
    return FieldError(NOT_SUPPORTED, path, value, detail)


def too_long(path: str, max_length: int) -> FieldError:
    """field.TooLong as of apimachinery v0.32 (the v1.32 line)."""
    unit = "byte" if max_length == 1 else "bytes"
    return FieldError(TOO_LONG, path, OMIT, f"may not be more than {max_length} {unit}")


def too_many(path: str, actual: int, max_items: int) -> FieldError:
    unit = "item" if max_items == 1 else "items"
    return FieldError(TOO_MANY, path, actual, f"must have at most {max_items} {unit}")


def child(path: str, *names: str) -> str:
    """Path.Child: `a` + `b` -> `a.b` (no leading dot at the root)."""
    for name in names:
        path = f"{path}.{name}" if path else name
    return path


def index(path: str, i: int) -> str:
    """Path.Index: `a[3]`."""
    return f"{path}[{i}]"


def key(path: str, k: str) -> str:
    """Path.Key: `a[k]`."""
    return f"{path}[{k}]"


def render_errors(kind: str, name: str, errors: Iterable[FieldError]) -> str:
    """The API server's `StatusError` for an invalid object, as `kubectl` prints it (cmdutil's
    checkErr: `The %s %q is invalid`, then each cause)."""
    errs = list(errors)
    head = f"The {kind} {go_quote(name)} is invalid"
    if len(errs) == 1:
        return f"{head}: {errs[0]}"
    return head + ": \n" + "\n".join(f"* {e}" for e in errs)


def invalid_status_message(group_kind: str, name: str, errors: Iterable[FieldError]) -> str:
    """apierrors.NewInvalid's message, what a client such as the controller sees as the error:
    `Job.batch "pi" is invalid: ` and the errors' aggregate (ErrorList.ToAggregate drops repeated
    messages; one error alone, else `[a, b]`)."""
    texts = list(dict.fromkeys(str(e) for e in errors))
    head = f"{group_kind} {go_quote(name)} is invalid"
    if not texts:
        return head
    return f"{head}: {texts[0] if len(texts) == 1 else '[' + ', '.join(texts) + ']'}"
