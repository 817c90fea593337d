"""Every proof of the project, run one by one: proved, a counterexample (a replayable trace), or unknown.

The proofs: the single-sync arithmetic of `manageJob` (`jobmodel/checkers/proofs/manage_job.py`)
and the inductive proofs over the transition relations (`job_proofs`). A proof whose induction
fails is not yet a counterexample: `find_trace` searches for a real run of the relation that
breaks the claim and replays it in the executable model; only then is it reported as one, with
the trace file. Dropping assumptions (`drop`) is how the counterexamples that the assumptions rule
out are shown.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import attrs

from jobmodel.checkers.proofs import (
    DEFAULT_PROOF_RELEASE,
    indexed_proofs,
    job_proofs,
    manage_job,
    traces,
)
from jobmodel.checkers.proofs import job_relation as jr
from jobmodel.checkers.proofs.abstraction import OutsideAbstraction
from jobmodel.checkers.proofs.induction import Proof, check
from jobmodel.checkers.trace import save_trace
from jobmodel.features import FeatureGates, parse_kube_version
from jobmodel.transitions import job_environment as env
from jobmodel.transitions.move import Move

MAX_DEPTH = 10
SEARCH_SECONDS = 20.0


@attrs.frozen
class Result:
    """One property's outcome: `proved`, `counterexample` (with the trace file, when the proof is
    over a transition relation, or the counts, for single-sync arithmetic) or `unknown` (with the
    reason); its time; the assumptions it was proved under and those dropped."""

    name: str
    status: str
    seconds: float
    detail: str = ""
    trace: str | None = None
    assumptions: tuple[str, ...] = ()
    dropped: tuple[str, ...] = ()
    catalogue: str = ""

    def to_json(self) -> dict[str, object]:
        return {
            "property": self.name,
            "status": self.status,
            "seconds": round(self.seconds, 3),
            "detail": self.detail,
            "trace": self.trace,
            "assumptions": list(self.assumptions),
            "dropped": list(self.dropped),
            "catalogue": self.catalogue or None,
        }


@attrs.frozen
class Entry:
    """A named proof to run: `run(drop, traces_dir, search_seconds)` gives its result (a
    counterexample searched for at most `search_seconds`)."""

    name: str
    assumptions: tuple[str, ...]
    run: Callable[[Sequence[str], Path | None, float], Result]


def _manage_job_entry(prop: manage_job.Property) -> Entry:
    name = f"manage-job/{prop.name}"

    def run(drop: Sequence[str], traces_dir: Path | None, search_seconds: float) -> Result:
        start = time.perf_counter()
        outcome = manage_job.prove(prop)
        seconds = time.perf_counter() - start
        if outcome.proved:
            return Result(name, "proved", seconds, prop.why)
        if outcome.counterexample is not None and "reason" in outcome.counterexample:
            return Result(name, "unknown", seconds, str(outcome.counterexample["reason"]))
        return Result(name, "counterexample", seconds, f"counts {outcome.counterexample}")

    return Entry(name, (), run)


def _relation_entry(proof: Proof, concretizer: Callable[[], traces.Concretizer]) -> Entry:
    name = proof.qualified_name

    def run(drop: Sequence[str], traces_dir: Path | None, search_seconds: float) -> Result:
        start = time.perf_counter()
        dropped = tuple(a.name for a in proof.assumptions if a.name in drop)
        narrowed = proof.without(dropped)
        kept = tuple(a.name for a in narrowed.assumptions)
        verdict = check(narrowed)
        base = Result(name, verdict.status, 0.0, assumptions=kept, dropped=dropped, catalogue=proof.catalogue)
        if verdict.status == "proved":
            return attrs.evolve(base, seconds=time.perf_counter() - start, detail=proof.claim.doc)
        if verdict.status == "unknown":
            return attrs.evolve(base, seconds=time.perf_counter() - start, detail=verdict.reason)
        assert verdict.failure is not None
        deadline = time.perf_counter() + search_seconds
        found, reason = traces.find_trace(narrowed, concretizer(), max_depth=MAX_DEPTH, deadline=deadline)
        seconds = time.perf_counter() - start
        if found is None:
            detail = f"not inductive ({verdict.failure.describe()}) and no real run found: {reason}"
            if time.perf_counter() >= deadline:
                detail += f" (searched for {search_seconds:g} s: --search-seconds gives the search longer)"
            return attrs.evolve(base, status="unknown", seconds=seconds, detail=detail)
        violation = found.violation
        path = None
        if traces_dir is not None:
            traces_dir.mkdir(parents=True, exist_ok=True)
            suffix = "".join(f"-without-{d}" for d in dropped)
            file = traces_dir / f"{_slug(name)}{suffix}.json"
            save_trace(file, found.config, found.moves, violation)
            path = str(file)
        moves = ", ".join(map(str, found.moves))
        detail = f"{violation} (moves: {moves})"
        return attrs.evolve(base, status="counterexample", seconds=seconds, detail=detail, trace=path)

    return Entry(name, tuple(a.name for a in proof.assumptions), run)


def claim_violation(name: str, worlds: Sequence[env.World], moves: Sequence[Move]) -> str | None:
    """For a violation recorded in a trace under a proof's name (a claim the catalogue does not
    state): None when the run (`worlds[i] -moves[i]-> worlds[i + 1]`) keeps the claim, else how it
    breaks it. KeyError when `name` is no such proof."""
    for proof, concretizer in _relation_proofs(f"1.{worlds[0].cluster.features.release}"):
        if proof.qualified_name == name and not proof.catalogue:
            try:
                return traces.claim_violation(proof, concretizer(), worlds, moves)
            except OutsideAbstraction:
                return None
    raise KeyError(name)


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9.-]+", "-", name).strip("-")


def entries(release: str = DEFAULT_PROOF_RELEASE) -> list[Entry]:
    """Every proof at `release` (one of PROOF_RELEASES), in the order `jobmodel prove` prints them."""
    out = [_manage_job_entry(p) for p in manage_job.PROPERTIES]
    out += [_relation_entry(proof, concretizer) for proof, concretizer in _relation_proofs(release)]
    return out


def at_release(proof: Proof, release: str) -> Proof:
    """The proof over the relation of `release`'s controller (its counterexamples replayed there)."""
    gates = FeatureGates.for_release(parse_kube_version(release))
    controller = attrs.evolve(jr.Controller.of(gates), expectations=proof.system.controller.expectations)
    system = attrs.evolve(proof.system, controller=controller, kube_version=release)
    return attrs.evolve(proof, system=system)


def _relation_proofs(release: str = DEFAULT_PROOF_RELEASE) -> list[tuple[Proof, Callable[[], traces.Concretizer]]]:
    return [
        *((at_release(p, release), traces.job_concretizer) for p in job_proofs.PROOFS),
        *((at_release(p, release), traces.indexed_concretizer) for p in indexed_proofs.PROOFS),
    ]


def moves_outside(release: str = DEFAULT_PROOF_RELEASE) -> list[str]:
    """The environment's move kinds the relations of `release` do not have, and `edit of FIELD`
    for the fields whose edits they do not have: the relations' claims are about runs without
    them (docs/proofs.md, "Not modelled")."""
    controller = jr.Controller.of(FeatureGates.for_release(parse_kube_version(release)))
    kinds = [kind for kind in env.MOVE_KINDS if not jr.models(kind, controller)]
    return [*kinds, *(f"edit of {field}" for field in env.EDIT_FIELDS if field not in jr.EDITED)]


def assumption_names() -> list[str]:
    """Every assumption some proof makes (what `--drop` takes)."""
    names: list[str] = []
    for entry in entries():
        names += [a for a in entry.assumptions if a not in names]
    return names


def selected(name: str, only: Sequence[str]) -> bool:
    """Whether `only` picks the property: its name, or the part after the family, starts with one
    of them (`indexed` picks indexed/*, `no-over` picks */no-over-creation)."""
    short = name.split("/", 1)[-1]
    return not only or any(name.startswith(o) or short.startswith(o) for o in only)


def run_all(
    only: Sequence[str] = (),
    drop: Sequence[str] = (),
    traces_dir: Path | None = None,
    on_result: Callable[[Result], None] | None = None,
    release: str = DEFAULT_PROOF_RELEASE,
    search_seconds: float = SEARCH_SECONDS,
) -> list[Result]:
    """Run the proofs `only` selects (all when empty) at `release`, with `drop`ped assumptions; a
    claim that is not inductive gets a counterexample searched for at most `search_seconds`."""
    results = []
    for entry in entries(release):
        if not selected(entry.name, only):
            continue
        result = entry.run(drop, traces_dir, search_seconds)
        results.append(result)
        if on_result is not None:
            on_result(result)
    return results
