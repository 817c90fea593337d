"""Writes tests/conformance/vectors/defaulting_newer_extra.json: the `defaulting` cases upstream
changed or added after v1.32.3 in pkg/apis/batch/v1/defaults_test.go (TestSetDefaultJob) and
pkg/registry/batch/job/strategy_test.go (TestJobStrategy_PrepareForCreate,
TestJobStrategy_PrepareForUpdate), pinned to v1.37.2, the first pinned release with them in that form.

At v1.37 JobPodReplacementPolicy, JobSuccessPolicy and JobBackoffLimitPerIndex are gone (their code
always on): TestSetDefaultJob expects `podReplacementPolicy` defaulted in every Job case, and the
strategy tests' gate-named cases are renamed without their gate. Each such case is the v1.32.3
translation (the shared defaulting.json, or tests/conformance/vectors/defaulting_extra.json) with
the test's v1.37 name and expectations and no gates; the spec.scheduling cases are new.

    .venv/bin/python -m tests.conformance.gen.defaulting_newer_extra [SHARED_CONFORMANCE_DIR]
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from tests.conformance.gen import shared_dir_argument, write_vectors

Json = dict[str, Any]

OUT = Path(__file__).parent.parent / "vectors" / "defaulting_newer_extra.json"
PROJECT_EXTRA = Path(__file__).parent.parent / "vectors" / "defaulting_extra.json"
RELEASE = "1.37"
PIN = "v1.37.2"
DEFAULTS = "pkg/apis/batch/v1/defaults_test.go"
STRATEGY = "pkg/registry/batch/job/strategy_test.go"

# TestSetDefaultJob: v1.37 name -> the podReplacementPolicy v1.37 expects (the name is v1.32.3's)
SET_DEFAULT_JOB = {
    "Pod failure policy with some field values unspecified -> set default values": "Failed",
    "Pod failure policy and defaulting for pod replacement policy": "Failed",
    "All unspecified -> sets all to default values": "TerminatingOrFailed",
    "suspend set, everything else is defaulted": "TerminatingOrFailed",
    "All unspecified -> all pointers are defaulted and no default labels": "TerminatingOrFailed",
    "WQ: Parallelism explicitly 0 and completions unset -> BackoffLimit is defaulted": "TerminatingOrFailed",
    "WQ: Parallelism explicitly 2 and completions unset -> BackoffLimit is defaulted": "TerminatingOrFailed",
    "Completions explicitly 2 and others unset -> parallelism and BackoffLimit are defaulted": "TerminatingOrFailed",
    "BackoffLimit explicitly 5 and others unset -> parallelism and completions are defaulted": "TerminatingOrFailed",
    "BackoffLimitPerIndex specified, but no BackoffLimit -> default BackoffLimit to max int32": "TerminatingOrFailed",
    "BackoffLimitPerIndex and BackoffLimit specified -> no change": "TerminatingOrFailed",
}

# v1.37 name -> the v1.32.3 case it renames (same objects and expectations, the gate gone)
PREPARE_FOR_CREATE = {
    "create job with a new field and successPolicy": "create job with a new field; JobSuccessPolicy enabled",
    "create job with a new field and failedIndexes": "create job with a new fields; JobBackoffLimitPerIndex enabled",
    "create job with a new field and failurePolicy": "create job with a new field",
    "create job with a new field": "create job with a new field; JobPodReplacementPolicy enabled",
}
PREPARE_FOR_UPDATE = {
    "update job with a new field and successPolicy": "update job with a new field; updated when JobSuccessPolicy enabled",
    "update pre-existing field": "update pre-existing field; updated when JobSuccessPolicy enabled",
    "update job with a new field and failedIndexes": "update job with a new field; updated when JobBackoffLimitPerIndex enabled",
    "update job with a new field; updated": "update job with a new field; updated when JobPodReplacementPolicy enabled",
}


def _cases(conformance_dir: Path) -> dict[str, Json]:
    out: dict[str, Json] = {}
    for path in (conformance_dir / "defaulting.json", PROJECT_EXTRA):
        for c in json.loads(path.read_text())["cases"]:
            out.setdefault(c["name"], c)
    return out


def _renamed(source: Json, path: str, test: str, name: str) -> Json:
    body = {k: copy.deepcopy(v) for k, v in source.items() if k in ("kind", "object", "oldObject", "expect")}
    return {
        "name": f"{test}: {name}",
        "origin": f"kubernetes {path} {PIN} {test}: {name}",
        **body,
        "kubeVersion": RELEASE,
    }


def set_default_job_cases(cases: dict[str, Json]) -> list[Json]:
    out = []
    for name, policy in SET_DEFAULT_JOB.items():
        c = _renamed(cases[f"TestSetDefaultJob: {name}"], DEFAULTS, "TestSetDefaultJob", name)
        c["expect"]["object"]["spec"]["podReplacementPolicy"] = policy
        out.append(c)
    return out


def prepare_cases(cases: dict[str, Json]) -> list[Json]:
    out = []
    for test, renames in (
        ("TestJobStrategy_PrepareForCreate", PREPARE_FOR_CREATE),
        ("TestJobStrategy_PrepareForUpdate", PREPARE_FOR_UPDATE),
    ):
        for name, old in renames.items():
            out.append(_renamed(cases[f"{test}: {old}"], STRATEGY, test, name))
    return out


def _gang(min_count: int) -> Json:
    return {"schedulingPolicy": {"gang": {"minCount": min_count}}}


def scheduling_cases(cases: dict[str, Json]) -> list[Json]:
    """PrepareForUpdate with WorkloadWithJob off (its default): scheduling kept when the old Job has
    it, dropped otherwise (dropDisabledFields). The case with the gate on is left out (not modelled)."""
    test = "TestJobStrategy_PrepareForUpdate"
    base = cases[f"{test}: update job with a new field: not update when JobSuccessPolicy disabled"]

    def job(scheduling: Json | None) -> Json:
        out: Json = copy.deepcopy(base["oldObject"])
        if scheduling is not None:
            out["spec"]["scheduling"] = scheduling
        return out

    selector = {"matchLabels": {"a": "b"}}
    template = {"metadata": {"labels": {"a": "b"}}}

    def one(name: str, old: Json, new: Json, generation: int | None, scheduling: Json | None) -> Json:
        return {
            "name": f"{test}: {name}",
            "origin": f"kubernetes {STRATEGY} {PIN} {test}: {name}",
            "kind": "Job",
            "object": new,
            "oldObject": old,
            "expect": {
                "object": {
                    "metadata": {"generation": generation},
                    "spec": {"scheduling": scheduling, "selector": selector, "template": template},
                }
            },
            "features": {"WorkloadWithJob": False},
            "kubeVersion": RELEASE,
        }

    return [
        one(
            "scheduling retained on update when feature gate disabled and old value set",
            job(_gang(2)),
            job(_gang(4)),
            1,
            _gang(4),
        ),
        one(
            "scheduling dropped on update when feature gate disabled and old value unset",
            job(None),
            job(_gang(2)),
            None,
            None,
        ),
    ]


def document(conformance_dir: Path) -> Json:
    cases = _cases(conformance_dir)
    return {
        "format": "jobmodel-conformance/1",
        "suite": "defaulting",
        "source": (
            "defaulting cases upstream changed or added after v1.32.3: TestSetDefaultJob "
            "(pkg/apis/batch/v1/defaults_test.go), TestJobStrategy_PrepareForCreate and "
            "TestJobStrategy_PrepareForUpdate (pkg/registry/batch/job/strategy_test.go), at v1.37.2; "
            "written by tests/conformance/gen/defaulting_newer_extra.py"
        ),
        "cases": [*set_default_job_cases(cases), *prepare_cases(cases), *scheduling_cases(cases)],
    }


def main() -> None:
    write_vectors(OUT, document(shared_dir_argument()))


if __name__ == "__main__":
    main()
