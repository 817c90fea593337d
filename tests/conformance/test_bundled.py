"""The vectors that ship with the package (jobmodel/conformance/bundled.py) are the shared ones."""

from __future__ import annotations

from pathlib import Path

from jobmodel.conformance.bundled import VECTORS_DIR, bundled_vector_files


def test_bundled_vectors_are_a_verbatim_copy_of_the_shared_ones(conformance_dir: Path) -> None:
    shared = {p.name: p.read_bytes() for p in conformance_dir.iterdir() if p.suffix in (".json", ".md")}
    bundled = {p.name: p.read_bytes() for p in VECTORS_DIR.iterdir() if p.suffix in (".json", ".md")}
    assert sorted(bundled) == sorted(shared), "run ./dev vectors to copy the shared vectors into the package"
    stale = [name for name in shared if bundled[name] != shared[name]]
    assert not stale, f"bundled copies differ from the shared vectors: {stale} (run ./dev vectors)"


def test_every_suite_of_the_format_is_bundled() -> None:
    names = {p.name for p in bundled_vector_files()}
    assert {"job_sync_core.json", "job_scenario.json", "validation.json", "cronjob_sync.json"} <= names
    assert (VECTORS_DIR / "FORMAT.md").is_file()
