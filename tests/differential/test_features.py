"""The model's gate resolution (jobmodel/features.py `vector_gates`) against upstream's featuregate
(the harness's `--resolve-features`, harness/upstream/features.go) for every combination of the
Job and CronJob gates a release registers, each off or on, and each gate alone: the same emulation
version (a locked gate turned at the newest earlier one that has it settable, back to 1.31), the
same value of every gate there, and a refusal on both sides when no version takes them."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from jobmodel.errors import InputError
from jobmodel.features import (
    GATE_TABLE,
    NOT_MODELLED,
    emulation_version,
    parse_kube_version,
    release_gates,
    vector_gates,
)
from tests.differential.conftest import differential_releases, harness_answers


def requests(minor: int) -> list[dict[str, bool]]:
    """Every gate of the release set off or on, all at once and each alone (a gate the model does
    not model is left off: turning it on is the model's own refusal, not upstream's)."""
    names = release_gates(minor)
    choices = [(False,) if n in NOT_MODELLED else (False, True) for n in names]
    every = [dict(zip(names, values, strict=True)) for values in itertools.product(*choices)]
    alone = [{n: v} for n, c in zip(names, choices, strict=True) for v in c]
    return [{}, *alone, *every]


def upstream_resolutions(release: str, cases: list[dict[str, bool]]) -> list[dict[str, Any]]:
    return harness_answers(release, "--resolve-features", [{"features": c, "gates": list(GATE_TABLE)} for c in cases])


@pytest.mark.parametrize("release", differential_releases())
def test_the_model_resolves_every_gate_combination_as_upstream(release: str) -> None:
    minor = parse_kube_version(release)
    cases = requests(minor)
    answers = upstream_resolutions(release, cases)
    assert len(answers) == len(cases)
    emulated = 0
    for case, answer in zip(cases, answers, strict=True):
        try:
            gates = vector_gates(release, case)
        except InputError as err:
            assert "error" in answer, f"{case}: the model refuses ({err}), upstream takes it: {answer}"
            continue
        assert "error" not in answer, f"{case}: upstream refuses ({answer['error']}), the model takes it"
        version = emulation_version(minor, case)
        emulated += version != minor
        assert answer["emulationVersion"] == f"1.{version}", case
        assert answer["gates"] == {n: getattr(gates, n) for n in release_gates(minor)}, case
    assert emulated > 0  # every release has a locked gate an earlier version lets turn
