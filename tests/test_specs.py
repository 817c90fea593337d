"""Every claim of specs/claims.yaml holds, through the command line; every example validates."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest
import yaml

from jobmodel.cli import main

SPECS = Path(__file__).resolve().parent.parent / "specs"
CLAIMS: list[dict[str, Any]] = yaml.safe_load((SPECS / "claims.yaml").read_text())["claims"]
EXAMPLES = sorted((SPECS / "examples").glob("*.yaml"))


def run_cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(list(argv))
    return code, out.getvalue()


@pytest.mark.parametrize("claim", CLAIMS, ids=[f"{c['example']} {' '.join(c['args'])}" for c in CLAIMS])
def test_claim(claim: dict[str, Any]) -> None:
    code, out = run_cli("simulate", str(SPECS / "examples" / claim["example"]), *claim["args"], "-o", "json")
    assert code == 0
    entries = json.loads(out)["entries"]
    final = entries[-1]["status"]
    finished = [c for c in final.get("conditions", []) if c["type"] in ("Complete", "Failed") and c["status"] == "True"]
    assert [(c["type"], c.get("reason")) for c in finished] == [(claim["finished"]["type"], claim["finished"]["reason"])]
    for key, want in claim["status"].items():
        assert final.get(key, 0 if key in ("succeeded", "failed") else "") == want, key
    if "seconds" in claim:
        assert entries[-1]["offsetSeconds"] == claim["seconds"]


def test_every_example_has_a_claim() -> None:
    assert {p.name for p in EXAMPLES} == {c["example"] for c in CLAIMS}


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_validates(example: Path) -> None:
    code, out = run_cli("validate", str(example))
    assert code == 0, out


@pytest.mark.parametrize("example", [p for p in EXAMPLES if "kind: Job" in p.read_text()], ids=lambda p: p.name)
def test_example_simulates_with_a_picture(example: Path, tmp_path: Path) -> None:
    picture = tmp_path / "timeline.svg"
    code, out = run_cli("simulate", str(example), "--picture", str(picture))
    assert code == 0
    assert "TIME" in out.splitlines()[0]
    assert picture.read_text().lstrip().startswith(("<?xml", "<svg"))


CRONJOBS = sorted((SPECS / "cronjobs").glob("*.yaml"))


@pytest.mark.parametrize("cronjob", CRONJOBS, ids=[p.name for p in CRONJOBS])
def test_cronjob_example_validates_and_keeps_every_law_across_its_zones_clock_changes(cronjob: Path) -> None:
    assert run_cli("validate", str(cronjob))[0] == 0
    code, out = run_cli("explore", str(cronjob), "--depth", "5", "--dst", "2", "--ticks", "1", "--late", "1", "--liveness")
    assert code == 0, out
    assert "sometimes properties): a CronJob run is created" in out  # a run across a clock change, not a vacuous pass
    assert out.rstrip().endswith("no violation")
