"""Reading manifests: YAML (one or many documents) or JSON, a `List` expanded, from a file or stdin.

Malformed input raises `InputError` naming the file and the place (line and column)."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

import yaml

from jobmodel.errors import InputError


def _plain(value: Any) -> Any:
    """YAML values as JSON would give them (timestamps become RFC 3339 strings)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dt.datetime):
        value = value.astimezone(dt.UTC) if value.tzinfo else value.replace(tzinfo=dt.UTC)
        return value.strftime("%Y-%m-%dT%H:%M:%SZ")
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def load_documents(name: str, text: str) -> list[Any]:
    """The objects of one manifest: YAML documents, or one JSON value (a `List` is expanded)."""
    docs: list[Any]
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        try:
            docs = [json.loads(text)]
        except json.JSONDecodeError as err:
            raise InputError(
                name, f"not JSON: {err.msg} at line {err.lineno} column {err.colno}"
            ) from None
    else:
        try:
            docs = [_plain(d) for d in yaml.safe_load_all(text)]
        except yaml.YAMLError as err:
            mark = getattr(err, "problem_mark", None)
            where = f" at line {mark.line + 1} column {mark.column + 1}" if mark is not None else ""
            problem = getattr(err, "problem", None) or str(err)
            raise InputError(name, f"malformed YAML{where}: {problem}") from None
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


def read_manifest(name: str, stdin: TextIO) -> str:
    if name == "-":
        return stdin.read()
    try:
        return Path(name).read_text()
    except OSError as err:
        raise InputError(name, f"cannot read: {err.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(name, "not a text file") from None


def read_json_file(path: Path) -> Any:
    """A JSON document from a file (vector files, traces); errors name the file and the place."""
    try:
        return json.loads(path.read_text())
    except OSError as err:
        raise InputError(str(path), f"cannot read: {err.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(str(path), "not a text file") from None
    except json.JSONDecodeError as err:
        raise InputError(str(path), f"not JSON: {err.msg} at line {err.lineno} column {err.colno}") from None
