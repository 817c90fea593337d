"""Generators of the project's own vector files (`tests/conformance/vectors/*_extra.json`); each
runs as `.venv/bin/python -m tests.conformance.gen.NAME [SHARED_DIR]`."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

# ../shared/conformance beside the checkout, where the shared vectors are.
SHARED_CONFORMANCE = Path(__file__).parents[3].parent / "shared" / "conformance"


def shared_dir_argument() -> Path:
    """The shared vectors' directory a generator reads: its first argument, else the default."""
    return Path(sys.argv[1]) if len(sys.argv) > 1 else SHARED_CONFORMANCE


def write_vectors(out: Path, document: Any) -> None:
    """A vector file as every generator writes it (one-space indent, a final newline)."""
    out.write_text(json.dumps(document, indent=1) + "\n")
