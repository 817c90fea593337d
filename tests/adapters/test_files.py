"""Output files written atomically (jobmodel/adapters/files.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobmodel.adapters.files import atomic_target, write_atomically
from jobmodel.errors import InputError


def test_the_new_file_replaces_the_old_one_whole(tmp_path: Path) -> None:
    path = tmp_path / "trace.json"
    path.write_text("old")
    write_atomically(path, "new")
    assert path.read_text() == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["trace.json"]


def test_a_write_that_fails_leaves_the_old_file_and_no_temporary_one(tmp_path: Path) -> None:
    path = tmp_path / "picture.svg"
    path.write_text("old")
    with pytest.raises(RuntimeError), atomic_target(path) as tmp:
        tmp.write_text("half")
        raise RuntimeError("killed half-way")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["picture.svg"]


def test_a_directory_that_does_not_exist_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="--save: cannot write"):
        write_atomically(tmp_path / "missing" / "t.json", "x", "--save")
