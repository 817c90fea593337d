"""Reading manifests: YAML (one or many documents) or JSON, a `List` expanded, from a file or stdin;
and the JSON files around them (vectors, traces).

Reading is bounded and total: a document larger than its limit, nested deeper than MAX_DEPTH,
holding more than MAX_VALUES values once YAML aliases are expanded, a string longer than
MAX_STRING, an integer wider than 64 bits, a number that is not finite, a string that is not
valid Unicode, a YAML timestamp outside the years 1 to 9999, or an object that gives a key twice
(the strict decoder's `duplicate field`) raises `InputError` naming the file and the field path
(or the line and column of a syntax error)."""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, BinaryIO, Final, TextIO

import yaml

from jobmodel.api import field as fe
from jobmodel.errors import InputError, quote

# The API server refuses requests above 3 MiB; files of vectors and traces may be larger.
MAX_MANIFEST_BYTES: Final = 3 * 1024 * 1024
MAX_JSON_FILE_BYTES: Final = 64 * 1024 * 1024
MAX_DEPTH: Final = 100
MAX_VALUES: Final = 100_000
MAX_STRING: Final = 1024 * 1024
_INT64_BOUND: Final = 2**64
# A field path longer than this is shown by its two ends.
MAX_SHOWN_PATH: Final = 80
_SURROGATE: Final = re.compile("[\ud800-\udfff]")


class _Limits:
    """The budget of one document's walk (values seen so far)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.values = 0

    def error(self, path: str, reason: str) -> InputError:
        if len(path) > MAX_SHOWN_PATH:
            half = MAX_SHOWN_PATH // 2
            path = f"{path[:half]}...{path[-half:]}"
        return InputError(self.name, f"{path}: {reason}" if path else reason)


def _check_string(text: str, path: str, limits: _Limits) -> None:
    if len(text) > MAX_STRING:
        raise limits.error(path, f"a string of {len(text)} characters (at most {MAX_STRING})")
    if _SURROGATE.search(text):
        raise limits.error(path, "not valid Unicode (a lone surrogate)")


def _bounded(value: Any, path: str, depth: int, limits: _Limits) -> Any:
    """The value as JSON would give it (YAML timestamps become RFC 3339 strings, keys strings),
    within the limits."""
    limits.values += 1
    if limits.values > MAX_VALUES:
        raise limits.error(path, f"more than {MAX_VALUES} values (YAML aliases expand to too many)")
    if depth > MAX_DEPTH:
        raise limits.error(path, f"nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, dict):
        if isinstance(value, _RepeatedKey):
            raise limits.error(fe.child(path, value.key), "duplicate field")
        out: dict[str, Any] = {}
        for k, v in value.items():
            key = k if isinstance(k, str) else _yaml_key(k)
            _check_string(key, path, limits)
            if key in out:  # YAML keys that differ but are one JSON key (1 and "1")
                raise limits.error(fe.child(path, key), "duplicate field")
            out[key] = _bounded(v, fe.child(path, key), depth + 1, limits)
        return out
    if isinstance(value, list):
        return [_bounded(v, fe.index(path, i), depth + 1, limits) for i, v in enumerate(value)]
    if isinstance(value, str):
        _check_string(value, path, limits)
        return value
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        if not -_INT64_BOUND < value < _INT64_BOUND:
            raise limits.error(path, "an integer wider than 64 bits")
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise limits.error(path, f"not a finite number: {value}")
        return value
    if isinstance(value, dt.datetime):
        try:
            value = value.astimezone(dt.UTC) if value.tzinfo else value.replace(tzinfo=dt.UTC)
        except OverflowError:
            raise limits.error(path, "a timestamp out of range (years 1 to 9999 in UTC)") from None
        return value.strftime("%Y-%m-%dT%H:%M:%SZ").rjust(20, "0")
    if isinstance(value, dt.date):
        return value.isoformat()
    # YAML's other safe types (binary): not JSON.
    raise limits.error(path, f"not a JSON value: {type(value).__name__}")


def _yaml_key(key: Any) -> str:
    """A YAML key that is not a string (a number, a boolean, null) as sigs.k8s.io/yaml writes it."""
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    return str(key)


class _RepeatedKey(dict[str, Any]):
    """A JSON object that gives `key` more than once (the strict decoder's `duplicate field`):
    refused by `_bounded`, which knows its path."""

    key: str


def _object_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) == len(pairs):
        return value
    repeated = _RepeatedKey(value)
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            repeated.key = key
            break
        seen.add(key)
    return repeated


class _Loader(yaml.SafeLoader):
    """The safe loader, with timestamps outside Python's range and a mapping key given twice
    refused as a YAML error."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._keys_checked: set[yaml.Node] = set()

    def flatten_mapping(self, node: yaml.MappingNode) -> None:
        # Checked before the merge keys (`<<`) are flattened into the node: a key may override a
        # merged one. Once per node: a merged mapping is flattened again where it is merged.
        if node not in self._keys_checked:
            self._keys_checked.add(node)
            seen: dict[Any, yaml.Node] = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    first = seen.setdefault(key, key_node)
                except TypeError:  # an unhashable key: construct_mapping refuses it
                    continue
                if first is not key_node:
                    raise yaml.constructor.ConstructorError(
                        None,
                        None,
                        f"duplicate field {quote(key)} (first at line {first.start_mark.line + 1})",
                        key_node.start_mark,
                    )
        super().flatten_mapping(node)

    def construct_yaml_timestamp(self, node: yaml.ScalarNode) -> Any:
        try:
            return super().construct_yaml_timestamp(node)
        except (OverflowError, ValueError):
            raise yaml.constructor.ConstructorError(
                None, None, "a timestamp out of range (years 1 to 9999)", node.start_mark
            ) from None

    def construct_yaml_int(self, node: yaml.ScalarNode) -> Any:
        # Python refuses to convert integers of more than 4300 digits.
        try:
            return super().construct_yaml_int(node)
        except ValueError:
            raise yaml.constructor.ConstructorError(
                None, None, "an integer wider than 64 bits", node.start_mark
            ) from None


_Loader.add_constructor("tag:yaml.org,2002:timestamp", _Loader.construct_yaml_timestamp)
_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_yaml_int)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _json_error(name: str, err: json.JSONDecodeError) -> InputError:
    return InputError(name, f"not JSON: {err.msg} at line {err.lineno} column {err.colno}")


def parse_json(name: str, text: str) -> Any:
    """One JSON document, within the limits; errors name the file and the place."""
    try:
        value = json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_object_pairs)
    except json.JSONDecodeError as err:
        raise _json_error(name, err) from None
    except RecursionError:
        raise InputError(name, f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as err:
        # An integer of more than 4300 digits, NaN or Infinity.
        raise InputError(name, f"not JSON: {err}") from None
    return _bounded(value, "", 0, _Limits(name))


def _parse_yaml(name: str, text: str) -> list[Any]:
    try:
        docs = list(yaml.load_all(text, Loader=_Loader))
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f" at line {mark.line + 1} column {mark.column + 1}" if mark is not None else ""
        problem = getattr(err, "problem", None) or str(err)
        raise InputError(name, f"malformed YAML{where}: {problem}") from None
    except RecursionError:
        raise InputError(name, f"nested deeper than {MAX_DEPTH} levels") from None
    limits = _Limits(name)
    return [
        _bounded(d, "" if len(docs) == 1 else f"(document {i + 1})", 0, limits)
        for i, d in enumerate(docs)
    ]


def load_documents(name: str, text: str) -> list[Any]:
    """The objects of one manifest: YAML documents, or one JSON value (a `List` is expanded)."""
    stripped = text.lstrip()
    docs = [parse_json(name, text)] if stripped.startswith(("{", "[")) else _parse_yaml(name, text)
    out: list[Any] = []
    for doc in docs:
        if isinstance(doc, list):
            out.extend(doc)
        elif (
            isinstance(doc, Mapping)
            and doc.get("kind") == "List"
            and isinstance(doc.get("items"), list)
        ):
            out.extend(doc["items"])
        elif doc is not None:
            out.append(doc)
    return out


def _decode(name: str, data: bytes, limit: int) -> str:
    if len(data) > limit:
        raise InputError(name, f"larger than {limit} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(name, "not a text file (not UTF-8)") from None


def _read_limited(stream: BinaryIO, limit: int) -> bytes:
    return stream.read(limit + 1)


def read_text(name: str, limit: int, stdin: TextIO | None = None) -> str:
    """A text file (or standard input for `-`), at most `limit` bytes of UTF-8."""
    if name == "-" and stdin is not None:
        buffer = getattr(stdin, "buffer", None)
        if buffer is not None:
            return _decode(source_name(name), _read_limited(buffer, limit), limit)
        text = stdin.read(limit + 1)
        return _decode(source_name(name), text.encode("utf-8", "surrogatepass"), limit)
    try:
        with Path(name).open("rb") as stream:
            return _decode(name, _read_limited(stream, limit), limit)
    except OSError as err:
        raise InputError(name, f"cannot read: {err.strerror or err}") from None


def source_name(name: str) -> str:
    """How messages name a file: standard input (`-`) is `STDIN`, as kubectl names it."""
    return "STDIN" if name == "-" else name


def read_manifest(name: str, stdin: TextIO) -> str:
    """A manifest's text (`-`: standard input), at most MAX_MANIFEST_BYTES."""
    return read_text(name, MAX_MANIFEST_BYTES, stdin)


def read_json_file(path: Path) -> Any:
    """A JSON document from a file (vector files, traces); errors name the file and the place."""
    return parse_json(str(path), read_text(str(path), MAX_JSON_FILE_BYTES))
