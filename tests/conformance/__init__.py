"""Tests of the conformance runner and suites, and the one way tests read the vector files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SCENARIO_FILES = ("job_scenario.json", "job_scenario_extra.json", "job_scenario_newer_extra.json")


class Cases(list[dict[str, Any]]):
    """Vector cases, shown by their number (where Hypothesis shows a strategy's arguments)."""

    def __repr__(self) -> str:
        return f"<{len(self)} vector cases>"


def vector_cases(*names: str) -> Cases:
    """The cases of the vector files of these names: the bundled ones (jobmodel/conformance/
    vectors) and the extra ones (tests/conformance/vectors)."""
    folders = (ROOT / "jobmodel" / "conformance" / "vectors", ROOT / "tests" / "conformance" / "vectors")
    files = [folder / name for folder in folders for name in names]
    return Cases(dict(c) for f in files if f.exists() for c in json.loads(f.read_text())["cases"])


def scenario_vectors(release: str) -> Cases:
    """The job-scenario cases of `release` (those without a `kubeVersion` are of the vectors' 1.32)."""
    return Cases(c for c in vector_cases(*SCENARIO_FILES) if c.get("kubeVersion", "1.32") == release)


def vector_inputs(*names: str) -> Cases:
    """The cases of these vector files without their expectations and releases: inputs to put
    at any release (a field a release's types lack is then refused by both decoders)."""
    return Cases({k: v for k, v in c.items() if k not in ("expect", "kubeVersion")} for c in vector_cases(*names))
