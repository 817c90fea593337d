"""The conformance vectors that ship with the package (`jobmodel/conformance/vectors/`).

They are a verbatim copy of the shared vectors (`../shared/conformance`), made by `./dev vectors`;
tests/conformance/test_bundled_vectors.py fails when the copy differs. `jobmodel conformance`
without files runs them (docs/conformance.md).
"""

from __future__ import annotations

from pathlib import Path

VECTORS_DIR = Path(__file__).resolve().parent / "vectors"


def bundled_vector_files() -> list[Path]:
    """The bundled vector files, by name."""
    return sorted(VECTORS_DIR.glob("*.json"))
