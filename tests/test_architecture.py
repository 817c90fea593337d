"""The layers of docs/architecture.md hold: every module of the package is in exactly one layer,
and every import (at the top of a file or inside a function) goes to the same layer or below."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "jobmodel"
DOC = REPO / "docs" / "architecture.md"


def layers() -> list[tuple[str, list[str]]]:
    """The doc's layer table, top to bottom: (layer, the paths of its row)."""
    rows = []
    for line in DOC.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[1].startswith("`jobmodel"):
            rows.append((cells[0], re.findall(r"`(jobmodel[^`]*)`", cells[1])))
    return rows


def layer_of(path: str, table: list[tuple[str, list[str]]]) -> int:
    """The index of the layer whose row names this file or a folder holding it (-1: none)."""
    found = [
        (len(prefix), i)
        for i, (_name, prefixes) in enumerate(table)
        for prefix in prefixes
        if path == prefix or (prefix.endswith("/") and path.startswith(prefix))
    ]
    return max(found)[1] if found else -1


def module_file(name: str) -> str | None:
    """The file of a `jobmodel...` module or package, relative to the repository."""
    base = REPO / Path(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate.relative_to(REPO).as_posix()
    return None


def imported_modules(source: str, package: str) -> Iterator[tuple[int, str]]:
    """(line, file) of each jobmodel module the source imports; `from pkg import name` counts
    as the submodule `pkg.name` when there is one, else as `pkg`; relative imports are resolved
    against `package`."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            names = [f"{base}.{a.name}" if module_file(f"{base}.{a.name}") else base for a in node.names]
        else:
            continue
        for name in names:
            if name == "jobmodel" or name.startswith("jobmodel."):
                found = module_file(name)
                assert found is not None, f"line {node.lineno}: no module {name}"
                yield node.lineno, found


def upward_imports(path: str, source: str, table: list[tuple[str, list[str]]]) -> list[str]:
    """The imports of one module that reach a layer above its own."""
    package = ".".join(Path(path).with_suffix("").parts[:-1])
    own = layer_of(path, table)
    return [
        f"{path}:{line} ({table[own][0]}) imports {target} ({table[layer_of(target, table)][0]})"
        for line, target in imported_modules(source, package)
        if layer_of(target, table) < own
    ]


def package_files() -> list[str]:
    return sorted(p.relative_to(REPO).as_posix() for p in PACKAGE.rglob("*.py"))


def test_the_doc_lists_the_layers_top_to_bottom() -> None:
    names = [name for name, _paths in layers()]
    assert names[0] == "commands" and names[-1] == "utilities"
    assert {"checkers", "adapters", "invariants", "transitions", "api"} <= set(names)
    for _name, paths in layers():
        for path in paths:
            assert (REPO / path).exists(), f"{path} is in docs/architecture.md but not in the package"


@pytest.mark.parametrize("path", package_files())
def test_every_module_is_in_one_layer_and_imports_downwards(path: str) -> None:
    table = layers()
    assert layer_of(path, table) >= 0, f"{path} is in no layer of docs/architecture.md"
    assert upward_imports(path, (REPO / path).read_text(), table) == []


def test_no_core_module_imports_an_adapter() -> None:
    core = [p for p in package_files() if p.startswith(("jobmodel/transitions/", "jobmodel/invariants/", "jobmodel/api/"))]
    assert core
    for path in core:
        targets = [t for _line, t in imported_modules((REPO / path).read_text(), "jobmodel")]
        assert not [t for t in targets if t.startswith("jobmodel/adapters/")], path


def test_an_upward_import_is_caught_wherever_it_stands() -> None:
    table = layers()
    source = "from jobmodel.state import Job\n\ndef f():\n    from jobmodel.checkers import explorer\n"
    (found,) = upward_imports("jobmodel/transitions/example.py", source, table)
    assert found == "jobmodel/transitions/example.py:4 (transitions) imports jobmodel/checkers/explorer.py (checkers)"
    assert upward_imports("jobmodel/api/example.py", "from ..adapters import manifests\n", table) != []
    assert upward_imports("jobmodel/commands/example.py", "import jobmodel.state\n", table) == []
