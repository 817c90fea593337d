"""`jobmodel conformance FILE...`: run vector files, print a block per failing case, end with `N passed, M failed`."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

import attrs

from jobmodel.adapters.manifests import read_json_file
from jobmodel.conformance.engines import Engine, ModelEngine, Unsupported
from jobmodel.conformance.suites import SUITES, VECTOR_DEFAULT_RELEASE, check_case, suite_module
from jobmodel.errors import InputError, describe, printable, quote
from jobmodel.features import parse_kube_version

FORMAT = "jobmodel-conformance/1"


@attrs.frozen
class CaseResult:
    """One case's verdict: `differences` empty means passed; `unsupported` gives the engine's
    reason for not running the case (neither passed nor failed)."""

    file: str
    name: str
    origin: str
    differences: tuple[str, ...]
    unsupported: str | None = None
    # The model (or the engine) raised an unexpected exception on the case: a defect of the
    # tool, reported among the results so the run goes on.
    internal: bool = False
    # The file could not be read (an input error): one result stands for the whole file.
    unreadable: bool = False

    @property
    def passed(self) -> bool:
        return not self.differences and self.unsupported is None


def load_vector_file(path: Path) -> Mapping[str, Any]:
    """Read and check the document envelope of a vector file."""
    doc = read_json_file(path)
    if not isinstance(doc, dict):
        raise InputError(str(path), "a vector file is a JSON object")
    if doc.get("format") != FORMAT:
        raise InputError(f"{path}: format", f"expected {quote(FORMAT)}, got {quote(doc.get('format'))}")
    if not isinstance(doc.get("suite"), str):
        raise InputError(f"{path}: suite", "required (a string)")
    if not isinstance(doc.get("cases"), list):
        raise InputError(f"{path}: cases", "required (a list)")
    if "kubeVersion" in doc and not isinstance(doc["kubeVersion"], str):
        raise InputError(f"{path}: kubeVersion", 'expected a release as a string, e.g. "1.37"')
    return doc


def with_release(case: Mapping[str, Any], doc: Mapping[str, Any], release: str | None) -> Mapping[str, Any]:
    """The case with the release it runs at in `kubeVersion`: `release` when given (run every case
    at one release), else the case's own, else the file's, else the vectors' line (1.32)."""
    chosen = release or case.get("kubeVersion") or doc.get("kubeVersion") or VECTOR_DEFAULT_RELEASE
    return {**case, "kubeVersion": chosen}


def run_case(suite: str, case: Mapping[str, Any], engine: Engine) -> tuple[str, ...]:
    """The differences of one case; malformed cases and unimplemented features are differences too.
    Raises Unsupported when the engine cannot run the case."""
    module = suite_module(suite)
    if module is None:
        return (unknown_suite(suite),)
    if not isinstance(case.get("expect"), Mapping) and suite != "job-scenario":
        return ("case: expect: required (an object)",)
    try:
        check_case(module, case)
        outcome = engine.outcome(suite, case)
        return tuple(module.compare(case, outcome))
    except InputError as err:
        return (f"cannot run the case: {err}",)
    except NotImplementedError as err:
        return (f"not implemented: {err}",)


def unknown_suite(suite: str) -> str:
    return f"suite {quote(suite)} is not implemented by the model yet (it implements {', '.join(SUITES)})"


def run_file(path: Path, engine: Engine, release: str | None = None) -> Iterator[CaseResult]:
    return run_document(path, load_vector_file(path), engine, release)


def run_document(
    path: Path, doc: Mapping[str, Any], engine: Engine, release: str | None = None
) -> Iterator[CaseResult]:
    """The cases' verdicts, one at a time as each case is run. An engine with a `prepare(suite,
    cases)` method is handed the cases first (to run them ahead, several at a time). Each case
    reaches the engine with the release it runs at in `kubeVersion` (`with_release`)."""
    suite = doc["suite"]
    cases = [with_release(c, doc, release) if isinstance(c, Mapping) else c for c in doc["cases"]]
    if not cases and suite_module(suite) is None:
        # No case would carry the failure: a misspelt suite must not pass as an empty file.
        yield CaseResult(str(path), "(file)", "", (f"{path}: {unknown_suite(suite)}",), unreadable=True)
        return
    malformed = malformed_cases(cases)
    prepare = getattr(engine, "prepare", None)
    if prepare is not None:
        prepare(suite, [c for i, c in enumerate(cases) if i not in malformed])
    for i, case in enumerate(cases):
        if i in malformed:
            yield CaseResult(str(path), f"cases[{i}]", "", (malformed[i],))
            continue
        name = str(case.get("name", f"cases[{i}]"))
        origin = str(case.get("origin", ""))
        try:
            yield CaseResult(str(path), name, origin, run_case(suite, case, engine))
        except Unsupported as reason:
            yield CaseResult(str(path), name, origin, (), str(reason))
        except (Exception, RecursionError) as err:
            detail = printable(f"internal error: {type(err).__name__}: {err}")[:300]
            yield CaseResult(str(path), name, origin, (detail,), internal=True)


def malformed_cases(cases: Sequence[Any]) -> dict[int, str]:
    """The cases of a file that are no case, by position, with the reason: not an object, a name
    that is not a string, or a name an earlier case has (names are unique within a file)."""
    found: dict[int, str] = {}
    first: dict[str, int] = {}
    for i, case in enumerate(cases):
        if not isinstance(case, Mapping):
            found[i] = "a case is a JSON object"
        elif "name" in case and not isinstance(case["name"], str):
            found[i] = f"cases[{i}].name: expected a string, got {describe(case['name'])}"
        elif isinstance(case.get("name"), str):
            j = first.setdefault(case["name"], i)
            if j != i:
                found[i] = f"cases[{i}].name: {quote(case['name'])} repeats cases[{j}] (a name is unique within a file)"
    return found


def count_cases(paths: Sequence[Path]) -> int:
    """How many verdicts the files give: their cases, one for an unreadable file, one for a file
    of an unknown suite without cases (`run_document`)."""
    total = 0
    for path in paths:
        try:
            doc = load_vector_file(path)
            total += len(doc["cases"]) or int(suite_module(doc["suite"]) is None)
        except InputError:
            total += 1
    return total


def case_releases(paths: Sequence[Path], release: str | None = None) -> list[str]:
    """The releases the files' cases run at (`with_release`), oldest first; unreadable files and
    malformed cases add none."""
    found: set[int] = set()
    for path in paths:
        try:
            doc = load_vector_file(path)
        except InputError:
            continue
        for case in doc["cases"]:
            if isinstance(case, Mapping):
                try:
                    found.add(parse_kube_version(str(with_release(case, doc, release)["kubeVersion"]), "kubeVersion"))
                except InputError:
                    continue
    return [f"1.{minor}" for minor in sorted(found)]


def run_files(
    paths: Sequence[Path],
    out: TextIO,
    engine: Engine | None = None,
    unsupported: list[CaseResult] | None = None,
    release: str | None = None,
    on_result: Callable[[CaseResult], None] | None = None,
) -> tuple[int, int]:
    """Run every file (every case at `release` when given), going on after a bad file or case;
    print failing and unsupported cases to `out`; return (passed, failed), a bad file counting as
    one failure. Unsupported cases are appended to `unsupported` when given; `on_result` sees every
    verdict (a file that cannot be read is one failing result named `(file)`, marked `unreadable`)."""
    engine = engine or ModelEngine()
    passed = failed = 0
    for path in paths:
        try:
            results = run_file(path, engine, release)
        except InputError as err:
            failed += 1
            print(printable(f"FAIL {path}: {err}"), file=out)
            if on_result is not None:
                on_result(CaseResult(str(path), "(file)", "", (str(err),), unreadable=True))
            continue
        for result in results:
            if on_result is not None:
                on_result(result)
            if result.unsupported is not None:
                print(printable(f"UNSUPPORTED {Path(result.file).name}: {result.name}\n  reason: {result.unsupported}"), file=out)
                if unsupported is not None:
                    unsupported.append(result)
                continue
            if result.passed:
                passed += 1
                continue
            failed += 1
            print(printable(f"FAIL {Path(result.file).name}: {result.name}"), file=out)
            if result.origin:
                print(printable(f"  origin: {result.origin}"), file=out)
            for diff in result.differences:
                print(printable(f"  {diff}"), file=out)
    return passed, failed
