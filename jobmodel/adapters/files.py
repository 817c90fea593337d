"""Output files written atomically: a reader (or a run killed half-way) sees the old file or the
whole new one, never a part."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from jobmodel.errors import InputError


@contextlib.contextmanager
def atomic_target(path: Path, option: str = "") -> Iterator[Path]:
    """A temporary file beside `path` to write to; renamed over `path` when the block ends
    without an error, removed otherwise."""
    try:
        fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=path.suffix)
    except OSError as err:
        raise InputError(option or str(path), f"cannot write {path}: {err.strerror or err}") from None
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_atomically(path: Path, text: str, option: str = "") -> None:
    """Write `text` to `path` (UTF-8) through a temporary file and a rename."""
    with atomic_target(path, option) as tmp:
        tmp.write_text(text, encoding="utf-8", errors="backslashreplace")
