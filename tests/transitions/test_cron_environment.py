"""The CronJob's environment (jobmodel/transitions/cron_environment.py): which moves are enabled,
and what the API server answers the controller."""

from __future__ import annotations

from datetime import UTC, datetime

import attrs

from jobmodel.actions import CreateJob, DeleteJob, RecordEvent
from jobmodel.checkers.cron import cron_manifest
from jobmodel.state import CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION
from jobmodel.transitions.cron_environment import (
    CREATE_ERROR,
    CRON_JOB_GET_ERROR,
    GET_ERROR,
    START,
    STATUS_ERROR,
    CronBudget,
    CronWorld,
    apply_cron_move,
    enabled_cron_moves,
    initial_cron_world,
    without_budget,
)
from jobmodel.transitions.move import Move, respent
from jobmodel.transitions.sync_cronjob import sync_cronjob


def run(world: CronWorld, *kinds: str) -> CronWorld:
    for kind in kinds:
        assert Move(kind) in enabled_cron_moves(world), kind
        world, _ = apply_cron_move(world, Move(kind), sync_cronjob)
    return world


def test_the_cronjob_is_created_through_the_api() -> None:
    world = initial_cron_world(cron_manifest("*/2 * * * *"))
    assert world.now == START and world.cron_job.metadata.namespace == "default"
    assert world.cron_job.spec.successful_jobs_history_limit == 3  # defaulted by the API server
    assert enabled_cron_moves(world) == [Move("sync")]


def test_the_create_handler_drops_duplicate_owner_references_before_validation() -> None:
    owner = {"apiVersion": "v1", "kind": "ConfigMap", "name": "owner", "uid": "owner-uid", "controller": True}
    manifest = cron_manifest("*/2 * * * *")
    manifest = {**manifest, "metadata": {**manifest["metadata"], "ownerReferences": [owner, dict(owner)]}}
    world = initial_cron_world(manifest)  # two controller references would be refused
    assert [ref.uid for ref in world.cron_job.metadata.owner_references] == ["owner-uid"]


def test_hostile_moves_are_enabled_while_the_budget_lasts() -> None:
    world = initial_cron_world(cron_manifest("*/2 * * * *"), CronBudget(ticks=2, stale=1, crashes=1, outages=1))
    assert [m.kind for m in enabled_cron_moves(world)] == ["sync", "sync-stale", "sync-crash", "tick", "outage"]
    world = run(world, "tick", "tick")
    assert "tick" not in [m.kind for m in enabled_cron_moves(world)]


def test_a_run_recreated_after_a_crash_gets_already_exists() -> None:
    world = initial_cron_world(cron_manifest("*/2 * * * *"), CronBudget(ticks=2, crashes=1))
    world = run(world, "tick", "tick", "sync-crash")
    (job,) = world.owned()
    assert not world.cron_job.status.active  # the crash came before the status write
    world = run(world, "sync")
    assert world.owned() == [job]
    assert job.metadata.annotations[CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION] == "2025-01-01T00:02:00Z"
    assert [m for m in enabled_cron_moves(world) if m.pod] == [Move("job-completes", job.metadata.name)]


def test_a_refused_create_records_no_run_and_the_next_sync_tries_it_again() -> None:
    world = initial_cron_world(cron_manifest("*/2 * * * *"), CronBudget(ticks=2, faults=1))
    world = run(world, "tick", "tick")
    assert "sync-create-error" in [m.kind for m in enabled_cron_moves(world)]
    world, result = apply_cron_move(world, Move("sync-create-error"), sync_cronjob)
    assert result is not None and result.error == CREATE_ERROR
    assert [a.accepted for a in result.actions if isinstance(a, CreateJob)] == [False]
    assert [e.reason for e in result.actions if isinstance(e, RecordEvent)] == ["FailedCreate"]
    assert world.owned() == [] and world.cron_job.status.last_schedule_time is None
    assert world.budget.faults == 0 and "sync-create-error" not in [m.kind for m in enabled_cron_moves(world)]
    world = run(world, "sync")
    (job,) = world.owned()
    assert job.metadata.annotations[CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION] == "2025-01-01T00:02:00Z"


def test_replace_deletes_the_running_job_before_the_create_the_api_server_refuses() -> None:
    world = initial_cron_world(cron_manifest("*/2 * * * *", "Replace"), CronBudget(ticks=4, faults=1))
    world = run(world, "tick", "tick", "sync")
    (running,) = world.owned()
    world = run(world, "tick", "tick", "sync-create-error")
    assert world.owned() == []  # deleted, and no run in its place
    assert world.cron_job.status.active == ()
    assert world.cron_job.status.last_schedule_time == running.metadata.creation_timestamp


def test_a_refused_delete_leaves_the_job_running_and_listed() -> None:
    world = initial_cron_world(cron_manifest("*/2 * * * *", "Replace"), CronBudget(ticks=4, faults=1))
    world = run(world, "tick", "tick", "sync", "tick", "tick")
    (running,) = world.owned()
    assert [m.kind for m in enabled_cron_moves(world)][:3] == ["sync", "sync-create-error", "sync-delete-error"]
    world, result = apply_cron_move(world, Move("sync-delete-error"), sync_cronjob)
    assert result is not None and result.error == f"could not replace job default/{running.metadata.name}"
    assert [e.reason for e in result.actions if isinstance(e, RecordEvent)] == ["FailedDelete"]
    assert world.owned() == [running]  # not replaced, and no second run beside it
    assert [ref.name for ref in world.cron_job.status.active] == [running.metadata.name]
    world = run(world, "sync")
    (replacement,) = world.owned()
    assert replacement.metadata.name != running.metadata.name


def test_replace_leaves_a_job_it_cannot_read_running_and_starts_nothing() -> None:
    world = initial_cron_world(cron_manifest("*/2 * * * *", "Replace"), CronBudget(ticks=4, faults=1))
    world = run(world, "tick", "tick", "sync", "tick", "tick")
    (running,) = world.owned()
    assert "sync-get-error" in [m.kind for m in enabled_cron_moves(world)]
    world, result = apply_cron_move(world, Move("sync-get-error"), sync_cronjob)
    assert result is not None and result.error == GET_ERROR
    assert [e.reason for e in result.actions if isinstance(e, RecordEvent)] == ["FailedGet"]
    assert not [a for a in result.actions if isinstance(a, CreateJob | DeleteJob)]
    assert world.owned() == [running] and [ref.name for ref in world.cron_job.status.active] == [running.metadata.name]
    assert world.budget.faults == 0


def test_a_refused_read_keeps_the_reference_to_a_job_that_is_gone_until_a_read_says_not_found() -> None:
    # A crash after Replace's delete and create, before the status write, leaves the deleted
    # Job in status.active; only a read that says NotFound drops it.
    world = initial_cron_world(cron_manifest("*/2 * * * *", "Replace"), CronBudget(ticks=4, crashes=1, faults=1))
    world = run(world, "tick", "tick", "sync", "tick", "tick", "sync-crash")
    (gone,) = world.cron_job.status.active
    assert gone.uid not in {j.metadata.uid for j in world.jobs}
    world, result = apply_cron_move(world, Move("sync-get-error"), sync_cronjob)
    assert result is not None and result.error == GET_ERROR
    assert world.cron_job.status.active == (gone,)
    world, result = apply_cron_move(world, Move("sync"), sync_cronjob)
    assert result is not None and "MissingJob" in [e.reason for e in result.actions if isinstance(e, RecordEvent)]
    assert gone not in world.cron_job.status.active


def test_a_refused_read_of_the_cronjob_leaves_a_forgotten_job_unadopted_and_starts_nothing() -> None:
    # A crash after the create and before the status write leaves a running Job that
    # status.active lacks: the next sync reads the CronJob to tell a forgotten Job from a
    # listing its cache has not seen yet, and without an answer it stops there.
    world = initial_cron_world(cron_manifest("*/2 * * * *"), CronBudget(ticks=4, crashes=1, faults=1))
    world = run(world, "tick", "tick")
    assert "sync-cronjob-get-error" not in [m.kind for m in enabled_cron_moves(world)]  # no read to refuse
    world = run(world, "sync-crash", "tick", "tick")
    (forgotten,) = world.owned()
    assert world.cron_job.status.active == ()
    assert "sync-cronjob-get-error" in [m.kind for m in enabled_cron_moves(world)]
    world, result = apply_cron_move(world, Move("sync-cronjob-get-error"), sync_cronjob)
    assert result is not None and result.error == CRON_JOB_GET_ERROR and result.requeue_after is None
    assert not [a for a in result.actions if isinstance(a, CreateJob | RecordEvent)]
    assert world.owned() == [forgotten] and world.cron_job.status.active == ()
    assert world.budget.faults == 0
    # The retry reads it: the Job is reported (UnexpectedJob; upstream does not list it in
    # status.active) and the due run starts beside it (Allow).
    world, result = apply_cron_move(world, Move("sync"), sync_cronjob)
    assert result is not None and "UnexpectedJob" in [e.reason for e in result.actions if isinstance(e, RecordEvent)]
    assert len(world.owned()) == 2 and forgotten.metadata.uid not in {ref.uid for ref in world.cron_job.status.active}


def test_a_refused_status_write_leaves_the_run_unrecorded_and_is_the_syncs_error() -> None:
    world = initial_cron_world(cron_manifest("*/2 * * * *"), CronBudget(ticks=2, faults=1))
    world = run(world, "tick", "tick")
    world, result = apply_cron_move(world, Move("sync-status-error"), sync_cronjob)
    assert result is not None and result.error == STATUS_ERROR and result.requeue_after is None
    assert len(world.owned()) == 1  # created; the status that lists it refused
    assert world.cron_job.status.active == () and world.cron_job.status.last_schedule_time is None
    assert world.budget.faults == 0


def test_a_status_write_from_a_stale_cronjob_gets_a_conflict_which_the_sync_returns() -> None:
    world = initial_cron_world(cron_manifest("*/2 * * * *"), CronBudget(ticks=4, stale=1))
    world = run(world, "tick", "tick", "sync-stale", "tick", "tick")
    assert world.cached is not None
    after, result = apply_cron_move(world, Move("sync"), sync_cronjob)
    assert result is not None and result.error is not None and "the object has been modified" in result.error
    assert result.requeue_after is None
    assert after.cron_job.status == world.cron_job.status


def test_a_late_sync_moves_the_clock_a_few_seconds() -> None:
    world = initial_cron_world(cron_manifest("*/2 * * * *"), CronBudget(late=1))
    late = [m for m in enabled_cron_moves(world) if m.kind == "late"]
    assert [m.arg for m in late] == ["5", "40"]
    world, _ = apply_cron_move(world, late[1], sync_cronjob)
    assert (world.now - START).total_seconds() == 40 and world.budget.late == 0
    assert "late" not in [m.kind for m in enabled_cron_moves(world)]


def test_the_cronjob_is_created_at_the_chosen_start() -> None:
    start = datetime(2025, 3, 30, 0, 58, tzinfo=UTC)
    world = initial_cron_world(cron_manifest("*/2 * * * *"), start=start)
    assert world.now == start and world.cron_job.metadata.creation_timestamp == start


def test_the_clock_jumps_to_a_minute_before_the_next_daylight_saving_change_of_the_zone() -> None:
    world = initial_cron_world(cron_manifest("30 2 * * *", timeZone="Europe/Berlin"), CronBudget(dst=2, ticks=1))
    assert [m.arg for m in enabled_cron_moves(world) if m.kind == "dst"] == ["change", "run"]
    world, _ = apply_cron_move(world, Move("dst", arg="change"), sync_cronjob)
    # Berlin springs forward at 2025-03-30T01:00Z (02:00 local becomes 03:00) ...
    assert world.now == datetime(2025, 3, 30, 0, 59, tzinfo=UTC)
    world = run(world, "tick")
    world, _ = apply_cron_move(world, Move("dst", arg="run"), sync_cronjob)
    # ... and falls back at 2025-10-26T01:00Z; robfig/cron's next 02:30 after that is the second
    # one of the night (01:30Z, CET), a minute before which the clock stops.
    assert world.now == datetime(2025, 10, 26, 1, 29, tzinfo=UTC)
    utc = initial_cron_world(cron_manifest("*/2 * * * *"), CronBudget(dst=1))
    assert "dst" not in [m.kind for m in enabled_cron_moves(utc)]  # no timeZone, no change


def test_a_world_less_its_budget_is_every_other_field_of_it() -> None:
    world = run(initial_cron_world(cron_manifest("*/2 * * * *"), CronBudget(ticks=2, crashes=1)), "tick", "sync")
    others = tuple(getattr(world, f.name) for f in attrs.fields(CronWorld) if f.eq and f.name != "budget")
    assert without_budget(world) == others


def test_a_move_respent_from_a_world_with_another_budget_is_that_move_made_there() -> None:
    manifest = cron_manifest("*/2 * * * *")
    rich = initial_cron_world(manifest, CronBudget(ticks=3, crashes=1))
    poor = initial_cron_world(manifest, CronBudget(ticks=1))
    for kinds in (("tick",), ("sync",)):
        assert respent(run(rich, *kinds), rich, poor) == run(poor, *kinds)
    assert respent(run(rich, "tick"), rich, poor).budget == CronBudget(ticks=0)
