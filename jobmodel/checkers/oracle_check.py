"""`jobmodel oracle check`: another implementation against the model on generated cases.

Hypothesis draws cases of one suite (`jobmodel.strategies`); each goes to the implementation
(through the oracle protocol) and to the model, and `jobmodel.conformance.agreement.judge`
compares the two outcomes on what upstream defines, accepting any of the model's answers where
upstream's result depends on its cache's order. A divergence is shrunk by Hypothesis, then
reduced further by removing list elements one at a time (`reduced`: Hypothesis's shrinker can stop
at a list whose elements only go together, e.g. pods that only matter as a group); divergences
that differ in which outcome fields disagree are told apart and shrunk each on its own. Every divergence is written to the output file as soon as it is found, and
rewritten as it shrinks: a conformance vector file whose cases pass against the model and fail
against the implementation.

A protocol failure (the implementation crashes, hangs, or answers malformed messages) ends the
check at once with an error naming the request; the case that caused it is written too.
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import json
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import attrs
from hypothesis import HealthCheck, Phase, given, reject, settings
from hypothesis import seed as hypothesis_seed

from jobmodel.adapters.files import write_atomically
from jobmodel.adapters.oracle import CaseError, OracleError
from jobmodel.conformance.agreement import Verdict, expectation, judge
from jobmodel.conformance.engines import Engine
from jobmodel.conformance.suites import case_at_release, suite_module
from jobmodel.errors import InputError, Unsupported
from jobmodel.features import NEWEST_RELEASE
from jobmodel.strategies import cases

FORMAT = "jobmodel-conformance/1"
MAX_REDUCTION_PROBES = 300  # cases tried when reducing one divergence after Hypothesis's shrinking


@attrs.define
class Progress:
    """What the check has done so far (the progress line shows it)."""

    cases: int = 0  # put to the implementation by Hypothesis (generated and shrunk)
    unsupported: int = 0  # of `cases`, the ones the implementation declined
    divergences: int = 0  # distinct divergences
    shrink_steps: int = 0

    def line(self, suite: str) -> str:
        text = f"oracle check {suite}: {self.cases} cases, {self.divergences} divergence{'s' if self.divergences != 1 else ''}"
        if self.unsupported:
            text += f", {self.unsupported} unsupported"
        if self.divergences:
            text += f", shrinking ({self.shrink_steps} smaller cases tried)"
        return text


@attrs.frozen
class Divergence:
    """One distinct divergence at its smallest so far: the case, the model's and the
    implementation's outcomes and what differs."""

    signature: str
    case: Mapping[str, Any]
    model: Mapping[str, Any]
    implementation: Mapping[str, Any]
    verdict: Verdict


@attrs.frozen
class CheckResult:
    cases: int
    unsupported: int
    divergences: tuple[Divergence, ...]
    aborted: str | None  # the protocol failure that ended the check
    release: str = NEWEST_RELEASE  # the release the cases were at


class _Diverged(Exception):
    """A generated case on which the implementation diverges (raised for Hypothesis to shrink)."""


class _Abort(BaseException):
    """A protocol failure: not an Exception, so Hypothesis stops at once instead of shrinking."""


_DIVERGENCE_KINDS: dict[str, type[_Diverged]] = {}


def _kind(signature: str) -> type[_Diverged]:
    """One exception class per signature, so that Hypothesis tells the divergences apart."""
    if signature not in _DIVERGENCE_KINDS:
        _DIVERGENCE_KINDS[signature] = type(f"Diverged[{signature}]", (_Diverged,), {})
    return _DIVERGENCE_KINDS[signature]


def signature_of(verdict: Verdict) -> str:
    """The first outcome field that differs, in the order of the suite's canonical outcome (the
    fields that follow often differ because of it): divergences with one signature are one."""
    fields = [d.split(":", 1)[0].split(".", 1)[0].split("[", 1)[0] for d in verdict.differences]
    order = list(verdict.reference)
    return min(fields, key=lambda f: order.index(f) if f in order else len(order), default=verdict.path)


def check_implementation(
    engine: Engine,
    suite: str,
    examples: int,
    out: Path,
    seed: int,
    on_progress: Callable[[Progress], None] = lambda p: None,
    release: str = NEWEST_RELEASE,
) -> CheckResult:
    """Run the check with the cases at `release` (`case_at_release`); divergences are written to
    `out` as they are found and as they shrink."""
    module = suite_module(suite)
    if module is None:
        raise InputError("--suite", f"unknown suite {suite!r}")
    progress = Progress()
    found: dict[str, Divergence] = {}
    aborted: list[str] = []

    def record(divergence: Divergence) -> None:
        if divergence.signature not in found:
            progress.divergences += 1
        else:
            progress.shrink_steps += 1
        found[divergence.signature] = divergence
        write_divergences(out, suite, engine.name, list(found.values()))

    @hypothesis_seed(seed)
    @settings(
        max_examples=examples,
        database=None,
        deadline=None,
        derandomize=False,
        phases=[Phase.generate, Phase.shrink],
        report_multiple_bugs=True,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )
    @given(cases(suite).map(lambda case: case_at_release(case, release)))
    def probe(case: dict[str, Any]) -> None:
        if aborted:
            return
        progress.cases += 1
        on_progress(progress)
        try:
            divergence = diverging(case)
        except Unsupported:
            progress.unsupported += 1  # counted with the cases: the reduction's probes are neither
            return
        if divergence is None:
            return
        record(divergence)
        raise _kind(divergence.signature)(divergence.signature)

    def diverging(case: Mapping[str, Any]) -> Divergence | None:
        """The divergence on this case (None: the implementation agrees, or the case is not one
        to judge it by; Unsupported: the implementation does not take it); a protocol failure is
        recorded and aborts the check."""
        try:
            return judged(case)
        except InputError:
            reject()  # not a case the model takes: not one to judge an implementation by

    def judged(case: Mapping[str, Any]) -> Divergence | None:
        """`diverging`, with a case the model does not take an InputError."""
        try:
            return divergence_on(engine, suite, case)
        except _ProtocolFailure as failure:
            aborted.append(failure.reason)
            record(failure.divergence)
            raise _Abort from None

    def same_divergence(signature: str) -> Callable[[Mapping[str, Any]], Divergence | None]:
        def probe_reduced(case: Mapping[str, Any]) -> Divergence | None:
            progress.shrink_steps += 1
            on_progress(progress)
            try:
                divergence = judged(case)
            except (InputError, Unsupported):
                return None
            return divergence if divergence is not None and divergence.signature == signature else None

        return probe_reduced

    try:
        probe()
    except _Abort:
        pass
    except _Diverged:
        pass
    except BaseExceptionGroup as group:  # several distinct divergences, each shrunk
        _, rest = group.split((_Diverged, _Abort))
        if rest is not None:
            raise rest from None
    # A protocol failure while reducing ends the check as one while generating does (recorded).
    with contextlib.suppress(_Abort):
        for signature, divergence in [] if aborted else list(found.items()):
            smaller = reduced(divergence, same_divergence(signature))
            if smaller is not divergence:
                found[signature] = smaller
                write_divergences(out, suite, engine.name, list(found.values()))
    on_progress(progress)
    return CheckResult(progress.cases, progress.unsupported, tuple(found.values()), aborted[0] if aborted else None, release)


class _ProtocolFailure(Exception):
    """The implementation failed the protocol on a case (recorded as a divergence of its own)."""

    def __init__(self, reason: str, divergence: Divergence) -> None:
        super().__init__(reason)
        self.reason = reason
        self.divergence = divergence


def divergence_on(engine: Engine, suite: str, case: Mapping[str, Any], engine_is_reference: bool = False) -> Divergence | None:
    """The implementation's divergence from the model on one case (None: it agrees). The model
    is the reference (asked again with the objects in other orders where its answer depends on
    them) unless `engine_is_reference` (upstream's own code: then upstream is asked again, as the
    differential tests do). Raises InputError for a case the model does not take, Unsupported for
    one the implementation declines, _ProtocolFailure when the implementation fails the protocol."""
    module = suite_module(suite)
    if module is None:
        raise InputError("--suite", f"unknown suite {suite!r}")
    model = module.model_outcome(case)
    try:
        implementation = engine.outcome(suite, case)
    except CaseError as err:
        implementation = {"errorAnswer": err.reason}
    except OracleError as err:
        failure = Divergence("protocol failure", case, model, {}, Verdict(False, "protocol failure", (str(err),)))
        raise _ProtocolFailure(str(err), failure) from None
    if "errorAnswer" in implementation:
        verdict = Verdict(False, "error answer", (f"(outcome): the implementation answered an error: {implementation['errorAnswer']}",))
        return Divergence("error answer", case, model, implementation, verdict)
    if engine_is_reference:
        verdict = judge(suite, case, model, lambda c: engine.outcome(suite, c), reference_outcome=implementation)
    else:
        verdict = judge(suite, case, implementation, module.model_outcome, reference_outcome=model)
    return None if verdict.agrees else Divergence(signature_of(verdict), case, model, implementation, verdict)


def check_cases(
    engine: Engine,
    suite: str,
    cases: list[dict[str, Any]],
    out: Path,
    on_progress: Callable[[Progress], None] = lambda p: None,
    engine_is_reference: bool = False,
    release: str = NEWEST_RELEASE,
) -> CheckResult:
    """`cases` (given, not generated: the sync steps `explore --against` reached) put to the model and
    to the implementation; the first case of each distinct divergence is kept, reduced (`reduced`),
    and written to `out` (as a vector of the reference's answer) as it is found."""
    progress = Progress()
    found: dict[str, Divergence] = {}
    aborted: str | None = None

    def write() -> None:
        write_divergences(out, suite, engine.name, list(found.values()), not engine_is_reference, "explore --against")

    def diverging(case: Mapping[str, Any]) -> Divergence | None:
        try:
            return divergence_on(engine, suite, case, engine_is_reference)
        except (InputError, Unsupported):
            return None

    for case in cases:
        progress.cases += 1
        on_progress(progress)
        try:
            divergence = divergence_on(engine, suite, case, engine_is_reference)
        except Unsupported:
            progress.unsupported += 1
            continue
        except _ProtocolFailure as failure:
            aborted = failure.reason
            found[failure.divergence.signature] = failure.divergence
            write()
            break
        if divergence is not None and divergence.signature not in found:
            progress.divergences += 1
            found[divergence.signature] = divergence
            write()
    if aborted is None:
        for signature, divergence in list(found.items()):

            def same(case: Mapping[str, Any], signature: str = signature) -> Divergence | None:
                progress.shrink_steps += 1
                on_progress(progress)
                smaller = diverging(case)
                return smaller if smaller is not None and smaller.signature == signature else None

            try:
                found[signature] = reduced(divergence, same)
            except _ProtocolFailure as failure:
                aborted = failure.reason
                break
            write()
    on_progress(progress)
    return CheckResult(progress.cases, progress.unsupported, tuple(found.values()), aborted, release)


def reduced(divergence: Divergence, diverging: Callable[[Mapping[str, Any]], Divergence | None]) -> Divergence:
    """The divergence on the smallest case found by removing list elements of its case, then
    fields of its object's spec, one at a time while it still diverges the same way
    (`diverging`), until no removal does or MAX_REDUCTION_PROBES cases were tried."""
    probes = 0
    smaller = True
    while smaller and probes < MAX_REDUCTION_PROBES:
        smaller = False
        for candidate in itertools.chain(without_one_element(divergence.case), without_one_field(divergence.case)):
            probes += 1
            found = diverging(candidate)
            if found is not None:
                divergence, smaller = found, True
                break
            if probes >= MAX_REDUCTION_PROBES:
                break
    return divergence


def without_one_element(case: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """The case with one element of one of its lists removed, for each list (outer ones first)
    and each of its elements (the last first)."""
    paths = sorted(_list_paths(case, ()), key=len)
    for path in paths:
        items = _at(case, path)
        for i in reversed(range(len(items))):
            candidate = copy.deepcopy(dict(case))
            del _at(candidate, path)[i]
            yield candidate


SPEC_OWNERS = ("job", "cronJob", "object")  # the case keys that hold the object under test


def without_one_field(case: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """The case with one field of its object's spec removed (Hypothesis's shrinking keeps a field
    that other draws depend on), for each field (the last first). A case the model then refuses
    (a field it needs) is no candidate: `diverging` rejects it before the implementation is asked."""
    for owner in SPEC_OWNERS:
        spec = case.get(owner, {}).get("spec") if isinstance(case.get(owner), Mapping) else None
        if not isinstance(spec, Mapping):
            continue
        for key in reversed(list(spec)):
            candidate = copy.deepcopy(dict(case))
            del candidate[owner]["spec"][key]
            yield candidate


def _list_paths(value: Any, path: tuple[str | int, ...]) -> Iterator[tuple[str | int, ...]]:
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield from _list_paths(item, (*path, key))
    elif isinstance(value, list):
        if value:
            yield path
        for i, item in enumerate(value):
            yield from _list_paths(item, (*path, i))


def _at(value: Any, path: tuple[str | int, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def vector_case(suite: str, divergence: Divergence, number: int, model_is_reference: bool = True) -> dict[str, Any]:
    """A divergence as a conformance case: its inputs and the reference's outcome as `expect` (the
    model's, or the implementation's when that is upstream's own code)."""
    case = {k: v for k, v in divergence.case.items() if k not in ("name", "expect", "origin")}
    named = {
        "name": f"divergence {number}: {divergence.signature}",
        "origin": "jobmodel oracle check: " + "; ".join(divergence.verdict.differences)[:2000],
        **case,
    }
    if divergence.signature == "protocol failure":
        named["expect"] = {}
    else:
        reference, candidate = (divergence.model, divergence.implementation) if model_is_reference else (divergence.implementation, divergence.model)
        named["expect"] = expectation(suite, divergence.case, reference, candidate)
    return named


def write_divergences(
    out: Path, suite: str, engine_name: str, divergences: list[Divergence], model_is_reference: bool = True, command: str = "oracle check --engine"
) -> None:
    """The vector file of the divergences (written whole to a temporary file, then renamed)."""
    source = (
        f"jobmodel {command} {engine_name!r}: each case is the model's answer where the implementation diverged"
        if model_is_reference
        else f"jobmodel {command} {engine_name!r}: each case is {engine_name}'s answer where the model diverged"
    )
    doc = {
        "format": FORMAT,
        "suite": suite,
        "source": source,
        "cases": [vector_case(suite, d, i + 1, model_is_reference) for i, d in enumerate(divergences)],
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(out, json.dumps(doc, indent=1) + "\n", "--out")
