"""The CronJob catalogue (jobmodel/invariants/cron.py): each predicate holds on the model's
steps and fails on a world or step that breaks it."""

from __future__ import annotations

from datetime import timedelta

import attrs

from jobmodel.checkers.cron import cron_manifest
from jobmodel.invariants import cron
from jobmodel.invariants.laws import Transition
from jobmodel.state import COMPLETE, JobCondition
from jobmodel.transitions.cron_environment import (
    CronBudget,
    CronWorld,
    apply_cron_move,
    initial_cron_world,
)
from jobmodel.transitions.move import Move
from jobmodel.transitions.sync_cronjob import sync_cronjob


def step(world: CronWorld, kind: str) -> cron.CronTransition:
    after, result = apply_cron_move(world, Move(kind), sync_cronjob)
    return Transition(world, Move(kind), after, result)


def one_run(policy: str = "Forbid", **spec: object) -> cron.CronTransition:
    world = initial_cron_world(cron_manifest("*/2 * * * *", policy, **spec), CronBudget(ticks=2))
    for kind in ("tick", "tick"):
        world, _ = apply_cron_move(world, Move(kind), sync_cronjob)
    return step(world, "sync")


def test_the_models_step_keeps_every_law() -> None:
    t = one_run()
    assert len(t.after.owned()) == 1
    assert cron.CRON_LAWS.check_step(t) == [] and cron.CRON_LAWS.check_state(t.after) == []


def test_two_jobs_for_one_scheduled_time_break_one_job_per_scheduled_time() -> None:
    world = one_run().after
    (job,) = world.owned()
    twin = attrs.evolve(job, metadata=attrs.evolve(job.metadata, name=job.metadata.name + "-again", uid="twin"))
    message = cron.one_job_per_scheduled_time(attrs.evolve(world, jobs=(*world.jobs, twin)))
    assert message is not None and "both run the schedule time" in message


def test_a_second_running_job_under_forbid_breaks_forbid_never_two_active() -> None:
    t = one_run()
    (job,) = t.after.owned()
    twin = attrs.evolve(job, metadata=attrs.evolve(job.metadata, name="cj-other", uid="other"))
    broken = attrs.evolve(t, after=attrs.evolve(t.after, jobs=(*t.after.jobs, twin)))
    message = cron.forbid_never_two_active(broken)
    assert message == f"Forbid, yet {[job.metadata.name, 'cj-other']} run together"


def test_finished_jobs_above_the_limit_break_history_limits() -> None:
    t = one_run(successfulJobsHistoryLimit=0)
    (job,) = t.after.owned()
    done = attrs.evolve(job, status=attrs.evolve(job.status, conditions=(JobCondition(COMPLETE, "True"),)))
    broken = attrs.evolve(t, after=attrs.evolve(t.after, jobs=(done,)))
    assert cron.history_limits_hold(broken) == "1 Complete Jobs kept, the limit is 0"


def test_an_earlier_last_schedule_time_breaks_never_goes_back() -> None:
    t = one_run()
    last = t.after.cron_job.status.last_schedule_time
    assert last is not None
    earlier = attrs.evolve(t.after.cron_job.status, last_schedule_time=last - timedelta(minutes=2))
    back: cron.CronTransition = Transition(t.after, Move("sync"), attrs.evolve(t.after, cron_job=attrs.evolve(t.after.cron_job, status=earlier)))
    assert cron.last_schedule_time_never_goes_back(back) == f"lastScheduleTime went back from {last} to {earlier.last_schedule_time}"
