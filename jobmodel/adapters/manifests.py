"""Reading manifests: YAML (one or many documents) or JSON, a `List` expanded, from a file or stdin;
and the JSON files around them (vectors, traces). YAML scalars are read as kubectl reads them
(util/goyaml: go-yaml v2's resolution, sigs.k8s.io/yaml's JSON), JSON numbers keep their text.

Reading is bounded and total: a document larger than its limit, nested deeper than MAX_DEPTH,
holding more than MAX_VALUES values once YAML aliases are expanded, a string longer than
MAX_STRING, an integer wider than 64 bits or a number beyond float64 (in a vector or a trace: a
manifest's numbers keep their text, see _Limits), a YAML string that is not valid Unicode, a
YAML key JSON cannot have (null), or an object that gives a key twice
(the strict decoder's `duplicate field`) raises `InputError` naming the file and the field path
(or the line and column of a syntax error)."""

from __future__ import annotations

import base64
import json
import math
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, BinaryIO, Final, TextIO

import yaml

from jobmodel.adapters.goyaml_scanner import GoScanningLoader
from jobmodel.api import field as fe
from jobmodel.api.go_json import LiteralFloat, LiteralInt, NumberTooLong, literal_float, literal_int
from jobmodel.errors import InputError, quote
from jobmodel.features import NEWEST_MINOR
from jobmodel.util import goyaml
from jobmodel.util.gostrings import GO_SPACE, go_trim_space

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
# The bytes kubectl peeks at to tell a JSON stream from YAML (NewYAMLOrJSONDecoder's bufferSize).
_JSON_GUESS_BYTES: Final = 4096


class _Limits:
    """The budget of one document's walk (values seen so far), and how its scalars came: from
    YAML (keys and floats become what sigs.k8s.io/yaml writes) or from JSON (a lone surrogate
    becomes U+FFFD, as encoding/json decodes it). A manifest's numbers may be wider than 64 bits
    or beyond float64 (`wide_numbers`): they keep their text, which a quantity reads, and the
    decoder of an integer field refuses them there, naming the field."""

    def __init__(self, name: str, *, from_yaml: bool, wide_numbers: bool = False) -> None:
        self.name = name
        self.values = 0
        self.from_yaml = from_yaml
        self.wide_numbers = wide_numbers

    def error(self, path: str, reason: str) -> InputError:
        if len(path) > MAX_SHOWN_PATH:
            half = MAX_SHOWN_PATH // 2
            path = f"{path[:half]}...{path[-half:]}"
        return InputError(self.name, f"{path}: {reason}" if path else reason)


def _check_string(text: str, path: str, limits: _Limits) -> str:
    if len(text) > MAX_STRING:
        raise limits.error(path, f"a string of {len(text)} characters (at most {MAX_STRING})")
    # JSON (YAML refuses both: the reader such a byte, the scanner such an escape): decode.go's
    # unquote makes a lone `\uD800` escape, or a byte that is not UTF-8 (surrogate-escaped by
    # read_text), U+FFFD.
    return _SURROGATE.sub("\ufffd", text)


def _key(key: Any, path: str, limits: _Limits) -> str:
    if isinstance(key, str):
        return _check_string(key, path, limits)
    try:
        return goyaml.json_key(key)
    except ValueError as err:
        raise limits.error(path, str(err)) from None


def _yaml_number(value: float, path: str, limits: _Limits) -> LiteralInt | LiteralFloat:
    """A YAML float as kubectl passes it on: the JSON encoding/json writes for it, read back
    (`1e3` and `1.0` are the integers 1000 and 1)."""
    try:
        text = goyaml.json_float_text(value)
    except ValueError as err:
        raise limits.error(path, str(err)) from None
    return literal_float(text) if any(c in text for c in ".eE") else literal_int(text)


def _bounded(value: Any, path: str, depth: int, limits: _Limits) -> Any:
    """The value as JSON would give it (YAML keys strings, YAML floats as encoding/json writes
    them), within the limits."""
    limits.values += 1
    if limits.values > MAX_VALUES:
        raise limits.error(path, f"more than {MAX_VALUES} values (YAML aliases expand to too many)")
    if depth > MAX_DEPTH:
        raise limits.error(path, f"nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, dict):
        if isinstance(value, _RepeatedKey):
            raise limits.error(fe.child(path, value.key), "duplicate field")
        # Keys first: YAML keys that differ may be one JSON key (1 and "1", 0.0 and 1e-46).
        keys: dict[str, Any] = {}
        for k, v in value.items():
            key = _key(k, path, limits)
            if key in keys:
                raise limits.error(fe.child(path, key), "duplicate field")
            keys[key] = v
        return {key: _bounded(v, fe.child(path, key), depth + 1, limits) for key, v in keys.items()}
    if isinstance(value, list):
        return [_bounded(v, fe.index(path, i), depth + 1, limits) for i, v in enumerate(value)]
    if isinstance(value, str):
        return _check_string(value, path, limits)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        if not -_INT64_BOUND < value < _INT64_BOUND and not limits.wide_numbers:
            raise limits.error(path, "an integer wider than 64 bits")
        return value
    if isinstance(value, float):
        if limits.from_yaml:
            return _yaml_number(value, path, limits)
        if not math.isfinite(value) and not limits.wide_numbers:
            raise limits.error(path, f"not a finite number: {value}")
        return value
    # YAML's other safe types (binary, set): not JSON.
    raise limits.error(path, f"not a JSON value: {type(value).__name__}")


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


# A plain (unquoted, untagged) scalar: resolved by go-yaml v2's rules, not YAML 1.1's.
_GO_PLAIN_TAG: Final = "tag:jobmodel,2026:go-plain"
_MERGE_TAG: Final = goyaml.YAML_TAG + "merge"
# A scalar whose tag go-yaml does not resolve (`!foo`, `!!set`, `!`): its text.
_GO_TEXT_TAG: Final = "tag:jobmodel,2026:go-text"
_GO_SCALAR_TAGS: Final = frozenset(
    goyaml.YAML_TAG + t for t in ("str", "int", "float", "bool", "null", "timestamp", "binary", "merge")
)


class _Loader(GoScanningLoader):
    """The safe loader scanning and resolving scalars as go-yaml v2 does, with a mapping key
    given twice refused as a YAML error."""

    def __init__(self, stream: str, lines_before: int = 0) -> None:
        super().__init__(stream)
        self._keys_checked: set[yaml.Node] = set()
        self._composing: set[str] = set()  # the anchors of the nodes being composed
        self._lines_before = lines_before

    def compose_node(self, parent: Any, index: Any) -> yaml.Node | None:
        # An anchor given again names the later node from there on (go-yaml's parser.anchor):
        # PyYAML refuses it. An alias inside its anchor's node is refused as go-yaml's decoder
        # refuses it (decoder.alias), rather than expanded until too deep.
        event = self.peek_event()  # type: ignore[no-untyped-call]
        if isinstance(event, yaml.AliasEvent):
            if event.anchor in self._composing:
                raise yaml.composer.ComposerError(None, None, f"anchor '{event.anchor}' value contains itself", event.start_mark)  # type: ignore[arg-type]
            return super().compose_node(parent, index)
        anchor = event.anchor
        if anchor is None:
            return super().compose_node(parent, index)
        self.anchors.pop(anchor, None)
        self._composing.add(anchor)
        try:
            return super().compose_node(parent, index)
        finally:
            self._composing.discard(anchor)

    def compose_scalar_node(self, anchor: Any) -> yaml.ScalarNode:
        # go-yaml resolves the tags of _GO_SCALAR_TAGS (`!!merge` only on a `<<`, isMerge); any
        # other tag, `!` included, leaves a scalar the text written.
        event = self.peek_event()  # type: ignore[no-untyped-call]
        if event.tag == "!" and event.value == "<<":
            event.tag = _MERGE_TAG  # `!` counts as implicit, and an implicit `<<` is a merge key
        elif event.tag is not None and (event.tag not in _GO_SCALAR_TAGS or (event.tag == _MERGE_TAG and event.value != "<<")):
            event.tag = _GO_TEXT_TAG
        return super().compose_scalar_node(anchor)

    def compose_sequence_node(self, anchor: Any) -> yaml.SequenceNode:
        self.peek_event().tag = None  # type: ignore[no-untyped-call]  # go-yaml reads no tag of a collection
        return super().compose_sequence_node(anchor)

    def compose_mapping_node(self, anchor: Any) -> yaml.MappingNode:
        self.peek_event().tag = None  # type: ignore[no-untyped-call]
        return super().compose_mapping_node(anchor)

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        if kind is yaml.ScalarNode and implicit[0]:
            return _MERGE_TAG if value == "<<" else _GO_PLAIN_TAG
        return super().resolve(kind, value, implicit)  # type: ignore[no-untyped-call]

    def flatten_mapping(self, node: yaml.MappingNode) -> None:
        # Checked before the merge keys (`<<`) are flattened into the node: a key may override a
        # merged one. Once per node: a merged mapping is flattened again where it is merged.
        if node not in self._keys_checked:
            self._keys_checked.add(node)
            seen: dict[Any, yaml.Node] = {}
            for key_node, _ in node.value:
                if key_node.tag == _MERGE_TAG:
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
                        f"duplicate field {quote(key)} (first at line {self._lines_before + first.start_mark.line + 1})",
                        key_node.start_mark,
                    )
        node.value = list(self._merged_in_place(node))

    def _merged_in_place(self, node: yaml.MappingNode) -> Iterator[tuple[yaml.Node, yaml.Node]]:
        """The mapping's pairs with each merge key replaced by the pairs it merges, where it
        stands: go-yaml's decoder sets keys in order, so a merge overrides the keys before it
        and the keys after it override the merge (PyYAML's explicit keys would win wherever they
        stand). Of a list of mappings the earlier take precedence (decoder.merge)."""
        for key_node, value_node in node.value:
            if key_node.tag != _MERGE_TAG:
                yield key_node, value_node
                continue
            merged = value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node]
            for mapping in reversed(merged):
                if not isinstance(mapping, yaml.MappingNode):
                    raise yaml.constructor.ConstructorError(
                        None, None, "map merge requires map or sequence of maps as the value", mapping.start_mark
                    )
                self.flatten_mapping(mapping)
                yield from mapping.value

    def construct_go_plain(self, node: yaml.ScalarNode) -> Any:
        return goyaml.resolve_plain(self.construct_scalar(node))

    def construct_go_tagged(self, node: yaml.ScalarNode) -> Any:
        try:
            return goyaml.resolve_tagged(node.tag, self.construct_scalar(node))
        except ValueError as err:
            raise yaml.constructor.ConstructorError(None, None, str(err), node.start_mark) from None


    def construct_go_binary(self, node: yaml.ScalarNode) -> str:
        """!!binary: base64 (line breaks ignored) whose bytes are a string; a byte that is not
        UTF-8 is U+FFFD once encoding/json writes it."""
        text = self.construct_scalar(node).replace("\n", "").replace("\r", "")
        try:
            data = base64.b64decode(text, validate=True)
        except ValueError:
            raise yaml.constructor.ConstructorError(
                None, None, "!!binary value contains invalid base64 data", node.start_mark
            ) from None
        return _SURROGATE.sub("\ufffd", data.decode("utf-8", "surrogateescape"))

    def construct_go_text(self, node: yaml.ScalarNode) -> str:
        return self.construct_scalar(node)


_Loader.add_constructor(_GO_PLAIN_TAG, _Loader.construct_go_plain)
_Loader.add_constructor(_GO_TEXT_TAG, _Loader.construct_go_text)
_Loader.add_constructor(_MERGE_TAG, _Loader.construct_go_text)  # a `<<` that is not a key
_Loader.add_constructor(goyaml.YAML_TAG + "binary", _Loader.construct_go_binary)
for _tag in ("int", "float", "bool", "null", "timestamp"):
    _Loader.add_constructor(goyaml.YAML_TAG + _tag, _Loader.construct_go_tagged)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


class _JSONError(InputError):
    """A JSON text that does not parse: `values` were read before the failure, and the last of
    them ends at `start`."""

    start = 0
    values: tuple[Any, ...] = ()


def _json_error(name: str, err: json.JSONDecodeError, values: list[Any] | None = None, start: int = 0) -> InputError:
    # Some of json's messages end in "at" ("Unterminated string starting at"): the place follows once.
    error = _JSONError(name, f"not JSON: {err.msg.removesuffix(' at')} at line {err.lineno} column {err.colno}")
    error.values, error.start = tuple(values or ()), start
    return error


def _json_decoder() -> json.JSONDecoder:
    # Numbers keep their literal text: Quantity.UnmarshalJSON reads `1E3` as written.
    return json.JSONDecoder(
        parse_int=literal_int,
        parse_float=literal_float,
        parse_constant=_refuse_constant,
        object_pairs_hook=_object_pairs,
    )


def _json_values(name: str, text: str, *, stream: bool) -> list[Any]:
    """The JSON values of a text: exactly one, or (a stream, as encoding/json's Decoder reads
    it) any number separated by white space; a failure is a _JSONError."""
    decoder, at, end, start = _json_decoder(), 0, 0, 0
    values: list[Any] = []
    try:
        while True:
            at = _skip_json_space(text, at)
            if values and (at == len(text) or not stream):
                break
            start = at
            value, at = decoder.raw_decode(text, start)
            if _number_cut_short(text, start, at):
                raise json.JSONDecodeError("invalid character in numeric literal", text, at)
            values.append(value)
            end = at
    except json.JSONDecodeError as err:
        raise _json_error(name, err, values, end) from None
    except RecursionError:
        raise InputError(name, f"nested deeper than {MAX_DEPTH} levels") from None
    except NumberTooLong as err:
        raise InputError(name, str(err)) from None
    except ValueError as err:  # NaN or Infinity: to Go an invalid character, in this value
        raise _json_error(name, json.JSONDecodeError(f"{err}, in the value starting", text, start), values, end) from None
    if at != len(text):
        raise _json_error(name, json.JSONDecodeError("Extra data", text, at), values, end)
    return values


def _number_cut_short(text: str, start: int, end: int) -> bool:
    """A top-level number that Python's decoder ends where Go's scanner reads on and fails (`1e"`,
    `1.x`: an exponent or a fraction begun but not finished): that value fails, not the next one
    (which decides whether a stream goes on as YAML)."""
    following = text[end : end + 1]
    if following not in ("e", "E", ".") or text[start] not in "-0123456789":
        return False
    literal = text[start:end]  # a number: short
    return "e" not in literal and "E" not in literal and (following != "." or "." not in literal)


def _skip_json_space(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def parse_json(name: str, text: str, *, wide_numbers: bool = False) -> Any:
    """One JSON document, within the limits; errors name the file and the place. Numbers keep
    their literal text (go_json.LiteralInt, LiteralFloat); a lone surrogate or a byte that is
    not UTF-8 in a string is U+FFFD, as encoding/json decodes it."""
    (value,) = _json_values(name, text, stream=False)
    return _bounded(value, "", 0, _Limits(name, from_yaml=False, wide_numbers=wide_numbers))


def _bounded_documents(name: str, docs: list[Any], limits: _Limits) -> list[Any]:
    return [_bounded(d, "" if len(docs) == 1 else f"(document {i + 1})", 0, limits) for i, d in enumerate(docs)]


def _yaml_chunks(name: str, text: str) -> list[tuple[int, str]]:
    """YAMLReader.Read: the documents of a YAML stream, cut at each line that starts with `---`
    (anything but a comment after it is an error; the line starts a document that is empty),
    each with the number of the file's lines before it. Its LineReader ends every line, the last
    one too, with a `\n` (bufio's ReadLine drops a `\n` or `\r\n`)."""
    chunks: list[tuple[int, str]] = []
    buffer: list[str] = []
    first = 0
    for number, read in enumerate(re.findall(r"[^\n]*\n|[^\n]+", text)):
        line = (read[:-2] if read.endswith("\r\n") else read.removesuffix("\n")) + "\n"
        if line.startswith("---"):
            rest = go_trim_space(line[3:])
            if rest and rest[0] != "#":
                raise InputError(name, f"invalid Yaml document separator at line {number + 1}: {rest}")
            if buffer:
                chunks.append((first, "".join(buffer)))
                buffer, first = [], number + 1
                continue
        buffer.append(line)
    if buffer:
        chunks.append((first, "".join(buffer)))
    return chunks


def _parse_yaml_document(name: str, lines_before: int, chunk: str) -> Any:
    """yaml.Unmarshal of one document: its first YAML document (a `...` ends it). Errors give
    the file's line numbers (kubectl's count from the document's start)."""
    try:
        # The loader reads the whole text on construction: a control character fails there.
        loader = _Loader(chunk, lines_before)
    except yaml.reader.ReaderError as err:
        raise InputError(name, f"malformed YAML at {_reader_error_place(chunk, err.position, lines_before)}: "
                         f"control characters are not allowed (U+{err.character:04X})") from None
    try:
        return loader.get_data() if loader.check_data() else None  # type: ignore[no-untyped-call]
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f" at line {lines_before + mark.line + 1} column {mark.column + 1}" if mark is not None else ""
        problem = getattr(err, "problem", None) or str(err)
        raise InputError(name, f"malformed YAML{where}: {problem}") from None
    except RecursionError:
        raise InputError(name, f"nested deeper than {MAX_DEPTH} levels") from None
    finally:
        loader.dispose()


def _reader_error_place(chunk: str, position: int, lines_before: int) -> str:
    """`line L column C` of a character of a document, counted in the file."""
    line = lines_before + chunk.count("\n", 0, position) + 1
    column = position - (chunk.rfind("\n", 0, position) + 1) + 1
    return f"line {line} column {column}"


def _parse_yaml(name: str, text: str) -> list[Any]:
    if _SURROGATE.search(text):
        raise InputError(name, "not a text file (not UTF-8)")
    return [_parse_yaml_document(name, before, chunk) for before, chunk in _yaml_chunks(name, text)]


def _after_json_failure(text: str, start: int) -> str | None:
    """consumeWhitespace: the text after the JSON values read, its white space skipped up to and
    including the first newline; None where it fails (the JSON error stands): it reads four
    bytes at each rune, so fewer left is its io.EOF, and a rune that is not UTF-8 its error."""
    # A byte read_text could not decode is one surrogate-escaped character; one that is not
    # UTF-8 may also come as a lone surrogate of another range (three bytes when written).
    remaining = len(text[start:].encode("utf-8", "surrogatepass")) - 2 * sum(
        1 for ch in text[start:] if "\udc80" <= ch <= "\udcff"
    )
    at = start
    while remaining >= 4:
        ch = text[at]
        if ch == "\ufffd" or "\ud800" <= ch <= "\udfff":
            return None
        if ch not in GO_SPACE:
            return text[at:]
        at += 1
        remaining -= len(ch.encode("utf-8"))
        if ch == "\n":
            return text[at:]
    return None


def _looks_like_json(text: str) -> bool:
    """GuessJSONStream: within the first 4096 bytes, the first rune that is not white space is `{`."""
    rest = text.lstrip("".join(GO_SPACE))
    skipped = len(text[: len(text) - len(rest)].encode("utf-8"))
    return rest.startswith("{") and skipped < _JSON_GUESS_BYTES


def manifest_documents(name: str, text: str, release: int = NEWEST_MINOR) -> list[Any]:
    """The documents of a manifest before a `List` is expanded, as kubectl's YAMLOrJSONDecoder
    reads them: a JSON stream when the text starts with `{`, YAML documents otherwise. From 1.33,
    a JSON stream that fails at its first or second value goes on as YAML from there (the JSON
    error stands if the YAML fails too)."""
    yaml_limits = _Limits(name, from_yaml=True, wide_numbers=True)
    if not _looks_like_json(text):
        return _bounded_documents(name, _parse_yaml(name, text), yaml_limits)
    json_limits = _Limits(name, from_yaml=False, wide_numbers=True)
    try:
        return _bounded_documents(name, _json_values(name, text, stream=True), json_limits)
    except _JSONError as error:
        values = list(error.values)
        if release < 33 or len(values) > 1:
            raise
        after = _after_json_failure(text, error.start)
        if after is None:
            raise
        try:
            rest = _parse_yaml(name, after)
        except InputError:
            raise error from None
        return _bounded_documents(name, values, json_limits) + _bounded_documents(name, rest, yaml_limits)


def load_documents(name: str, text: str, release: int = NEWEST_MINOR) -> list[Any]:
    """The objects of one manifest (manifest_documents): a `List`, or a list, is expanded, and
    an empty document left out."""
    out: list[Any] = []
    for doc in manifest_documents(name, text, release):
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


def _decode(name: str, data: bytes, limit: int, lenient: bool) -> str:
    if len(data) > limit:
        raise InputError(name, f"larger than {limit} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        if lenient:
            # Each byte that is not UTF-8 becomes one lone surrogate: JSON strings read it as
            # U+FFFD, as encoding/json does, and YAML refuses it, as go-yaml does.
            return data.decode("utf-8", "surrogateescape")
        raise InputError(name, "not a text file (not UTF-8)") from None


def _read_limited(stream: BinaryIO, limit: int) -> bytes:
    return stream.read(limit + 1)


def read_text(name: str, limit: int, stdin: TextIO | None = None, *, lenient: bool = False) -> str:
    """A text file (or standard input for `-`), at most `limit` bytes of UTF-8; `lenient` reads
    a byte that is not UTF-8 as a lone surrogate (for parse_json and the manifest reader)."""
    if name == "-" and stdin is not None:
        buffer = getattr(stdin, "buffer", None)
        if buffer is not None:
            return _decode(source_name(name), _read_limited(buffer, limit), limit, lenient)
        text = stdin.read(limit + 1)
        return _decode(source_name(name), text.encode("utf-8", "surrogatepass"), limit, lenient)
    try:
        with Path(name).open("rb") as stream:
            return _decode(name, _read_limited(stream, limit), limit, lenient)
    except OSError as err:
        raise InputError(name, f"cannot read: {err.strerror or err}") from None


def source_name(name: str) -> str:
    """How messages name a file: standard input (`-`) is `STDIN`, as kubectl names it."""
    return "STDIN" if name == "-" else name


def read_manifest(name: str, stdin: TextIO) -> str:
    """A manifest's text (`-`: standard input), at most MAX_MANIFEST_BYTES."""
    return read_text(name, MAX_MANIFEST_BYTES, stdin, lenient=True)


def read_json_file(path: Path) -> Any:
    """A JSON document from a file (vector files, traces); errors name the file and the place."""
    return parse_json(str(path), read_text(str(path), MAX_JSON_FILE_BYTES, lenient=True))
