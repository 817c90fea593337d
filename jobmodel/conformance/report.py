"""Conformance verdicts for programs: the JSON report of `jobmodel conformance -o json` and a
JUnit XML report (`--junit FILE`) for CI systems."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from jobmodel.conformance.runner import CaseResult


def verdict(result: CaseResult) -> str:
    if result.unsupported is not None:
        return "unsupported"
    return "passed" if result.passed else "failed"


def case_json(result: CaseResult) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "file": Path(result.file).name,
        "name": result.name,
        "origin": result.origin,
        "result": verdict(result),
        "differences": list(result.differences),
    }
    if result.unsupported is not None:
        doc["reason"] = result.unsupported
    return doc


def report_json(engine: str, results: Sequence[CaseResult]) -> dict[str, Any]:
    """The whole run: counts, then every case with its verdict (docs/output.md)."""
    verdicts = [verdict(r) for r in results]
    return {
        "engine": engine,
        "passed": verdicts.count("passed"),
        "failed": verdicts.count("failed"),
        "unsupported": verdicts.count("unsupported"),
        "cases": [case_json(r) for r in results],
    }


def junit_xml(engine: str, results: Sequence[CaseResult]) -> str:
    """A JUnit XML document: one <testsuite> per vector file, one <testcase> per case; a failing
    case carries its differences in <failure>, an unsupported one is <skipped> with the reason."""
    suites = ET.Element("testsuites", name=f"jobmodel conformance ({engine} engine)")
    by_file: dict[str, list[CaseResult]] = {}
    for result in results:
        by_file.setdefault(result.file, []).append(result)
    for file, cases in by_file.items():
        stem = Path(file).stem
        verdicts = [verdict(r) for r in cases]
        suite = ET.SubElement(
            suites,
            "testsuite",
            name=stem,
            tests=str(len(cases)),
            failures=str(verdicts.count("failed")),
            skipped=str(verdicts.count("unsupported")),
            errors="0",
        )
        for result, outcome in zip(cases, verdicts, strict=True):
            case = ET.SubElement(suite, "testcase", classname=f"conformance.{stem}", name=result.name)
            if outcome == "failed":
                first = result.differences[0] if result.differences else "failed"
                failure = ET.SubElement(case, "failure", message=first)
                failure.text = "\n".join((*((f"origin: {result.origin}",) if result.origin else ()), *result.differences))
            elif outcome == "unsupported":
                ET.SubElement(case, "skipped", message=result.unsupported or "")
    suites.set("tests", str(len(results)))
    suites.set("failures", str(sum(1 for r in results if verdict(r) == "failed")))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"
