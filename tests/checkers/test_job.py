"""The Job system (jobmodel/checkers/job.py): its configuration as saved in traces, and what
the system is made of."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from jobmodel.checkers.explorer import explore
from jobmodel.checkers.job import CheckConfig
from jobmodel.errors import InputError
from jobmodel.frozen import freeze
from jobmodel.transitions.job_environment import Budget, apply_move
from jobmodel.transitions.move import Move
from jobmodel.transitions.sync_job import sync_job
from tests.checkers.configs import job_manifest

CONFIG = CheckConfig(freeze(job_manifest(2, 2, 1)), Budget(failures=1, edits=("suspend=true",)), symmetry=False)


def test_a_configuration_survives_its_json() -> None:
    saved = CONFIG.to_json()
    assert saved["budget"]["edits"] == ["suspend=true"] and saved["budget"]["failures"] == 1
    assert CheckConfig.from_json(saved) == CONFIG


@pytest.mark.parametrize(
    ("budget", "field"),
    [
        ({"failures": -1}, "config.budget.failures"),
        ({"failures": True}, "config.budget.failures"),
        ({"ticks": 1}, "config.budget.ticks"),
        ({"edits": "suspend=true"}, "config.budget.edits"),
        ({"edits": ["replicas=2"]}, "edits"),
    ],
)
def test_a_bad_budget_names_the_field(budget: dict[str, Any], field: str) -> None:
    with pytest.raises(InputError) as err:
        CheckConfig.from_json({"manifest": job_manifest(1, 1, 1), "budget": budget})
    assert err.value.field == field


def test_the_system_starts_from_the_created_job_and_offers_its_moves() -> None:
    system = CONFIG.system()
    world = system.start()
    assert world == CONFIG.initial_world()
    assert [str(m) for m in system.enabled_moves(world)] == ["sync", "edit suspend=true"]
    assert system.columns == ("job status", "pods")
    assert system.describe(world) == ("active=0 ready=0 succeeded=0 failed=0", "-")
    assert system.liveness is not None and system.liveness(world) is None


def test_a_job_cache_behind_an_edit_is_described_with_the_older_spec() -> None:
    cfg = CheckConfig(freeze(job_manifest(2, 2, 1)), Budget(stale_edits=1, edits=("suspend=true",)), symmetry=False)
    system = cfg.system()
    assert [str(m) for m in system.enabled_moves(system.start())] == ["sync", "edit suspend=true", "edit-stale suspend=true"]
    world, _ = apply_move(system.start(), Move("edit-stale", arg="suspend=true"))
    status = "active=0 ready=0 succeeded=0 failed=0"
    assert system.describe(world)[0] == f"{status} (cache: {status} suspend=False)"


def test_a_job_whose_deletion_the_cache_has_not_delivered_is_described_as_it_shows() -> None:
    cfg = CheckConfig(freeze(job_manifest(2, 2, 1)), Budget(job_deletions=1, stale_edits=1), symmetry=False)
    world, _ = apply_move(cfg.initial_world(), Move("delete-job-stale"))
    assert cfg.system().describe(world)[0] == "(deleted) (cache: active=0 ready=0 succeeded=0 failed=0)"
    world, _ = apply_move(world, Move("cache-catch-up"))
    assert cfg.system().describe(world)[0] == "(deleted)"


def test_remembered_syncs_and_canonical_forms_change_no_verdict() -> None:
    calls: list[object] = []

    def counted(inp: Any) -> Any:
        calls.append(inp)
        return sync_job(inp)

    cfg = CheckConfig(freeze(job_manifest(2, 2, 1)), Budget(failures=1, stale=1))
    remembered = explore(cfg.system(counted), depth=40)
    plain = explore(attrs.evolve(cfg.system(counted), canonical=cfg.normalise, apply_move=_plain_apply), depth=40)
    assert (remembered.states, remembered.transitions, remembered.reached) == (plain.states, plain.transitions, plain.reached)
    assert remembered.states == 526  # at the default release, 1.37 (546 at 1.32)
    # Each distinct sync input ran once (the plain system called sync_job itself).
    assert calls and len(calls) == len(set(calls))


def _plain_apply(world: Any, move: Any) -> Any:
    return apply_move(world, move, sync_job)
