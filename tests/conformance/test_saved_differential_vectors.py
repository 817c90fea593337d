"""The vectors the differential tests saved (tests/differential/vectors: upstream's own outcomes,
each at its release, of inputs where the model once diverged or that reach unusual renderings)
hold in the model, without Go: what they pin stays checked where the harness cannot run."""

from __future__ import annotations

import io
import json
from pathlib import Path

from jobmodel.conformance.engines import ModelEngine
from jobmodel.conformance.runner import run_files

SAVED = sorted((Path(__file__).resolve().parents[1] / "differential" / "vectors").glob("*.json"))


def test_every_saved_differential_vector_holds_in_the_model() -> None:
    out = io.StringIO()
    passed, failed = run_files(SAVED, out, ModelEngine())
    assert failed == 0, out.getvalue()
    assert passed == sum(len(json.loads(path.read_text())["cases"]) for path in SAVED) > 300
