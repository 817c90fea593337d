"""jobmodel.transitions.sync_cronjob: one sync of the CronJob controller, on hand-built snapshots."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import attrs
from hypothesis import given
from hypothesis import strategies as st

from jobmodel.actions import CreateJob, DeleteJob, RecordEvent, Requeue, UpdateCronJobStatus
from jobmodel.features import FeatureGates
from jobmodel.frozen import FrozenDict
from jobmodel.schedule.cron import parse_standard
from jobmodel.state import (
    CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION,
    CronJob,
    CronJobFaults,
    CronJobSpec,
    CronJobStatus,
    CronJobSyncInput,
    Job,
    JobCondition,
    JobStatus,
    JobTemplateSpec,
    ObjectMeta,
    ObjectReference,
    OwnerReference,
)
from jobmodel.transitions.sync_cronjob import (
    CronJobSyncResult,
    by_job_start_time_key,
    format_rfc3339,
    get_job_name,
    get_jobs_to_be_reconciled,
    sync_cronjob,
)

TOP = datetime(2016, 5, 19, 10, 0, tzinfo=UTC)
NS = "ns"


def cronjob(
    policy: str = "Allow",
    active: tuple[str, ...] = (),
    last: datetime | None = None,
    **spec: object,
) -> CronJob:
    meta = ObjectMeta(name="cj", namespace=NS, uid="cj-uid", creation_timestamp=TOP - timedelta(hours=2))
    template = JobTemplateSpec(labels=FrozenDict({"a": "b"}), annotations=FrozenDict({"x": "y"}))
    fields: dict[str, object] = {"schedule": "0 * * * *", "concurrency_policy": policy, "job_template": template}
    fields.update(spec)
    status = CronJobStatus(
        active=tuple(ObjectReference(name=n, namespace=NS, uid=f"{n}-uid") for n in active), last_schedule_time=last
    )
    return CronJob(metadata=meta, spec=CronJobSpec(**fields), status=status)  # type: ignore[arg-type]


def job(name: str, finished: str | None = None, start: datetime | None = None, owner: str = "cj", owner_uid: str = "cj-uid") -> Job:
    conditions = (JobCondition(type=finished, status="True"),) if finished else ()
    meta = ObjectMeta(
        name=name,
        namespace=NS,
        uid=f"{name}-uid",
        owner_references=(OwnerReference("batch/v1", "CronJob", owner, owner_uid, controller=True),),
    )
    status = JobStatus(conditions=conditions, start_time=start, completion_time=start + timedelta(minutes=1) if start and finished else None)
    return Job(metadata=meta, status=status)


NO_FAULTS = CronJobFaults()


V1_32 = FeatureGates.for_release(32)


def sync(
    cj: CronJob, jobs: tuple[Job, ...], now: datetime, faults: CronJobFaults = NO_FAULTS, gates: FeatureGates = V1_32
) -> CronJobSyncResult:
    return sync_cronjob(CronJobSyncInput(cron_job=cj, jobs=jobs, now=now, faults=faults, gates=gates))


def reasons(actions: tuple[object, ...]) -> list[str]:
    return [a.reason for a in actions if isinstance(a, RecordEvent)]


def test_gone_cronjob_does_nothing() -> None:
    result = sync_cronjob(CronJobSyncInput(cron_job=None, jobs=(), now=TOP))
    assert result.actions == () and result.error is None and result.requeue_after is None


def test_creates_the_due_job_with_name_annotation_and_owner() -> None:
    result = sync(cronjob(), (), TOP + timedelta(minutes=1))
    created = [a for a in result.actions if isinstance(a, CreateJob)]
    assert len(created) == 1
    made = created[0].job
    assert made.metadata.name == "cj-24394200"  # 2016-05-19T10:00Z in Unix minutes
    assert made.metadata.annotations == {"x": "y", CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION: "2016-05-19T10:00:00Z"}
    assert made.metadata.owner_references[0].uid == "cj-uid" and made.metadata.owner_references[0].block_owner_deletion
    assert reasons(result.actions) == ["SuccessfulCreate"]
    assert result.cron_job is not None
    assert [r.name for r in result.cron_job.status.active] == ["cj-24394200"]
    assert result.cron_job.status.last_schedule_time == TOP
    assert result.requeue_after == 59 * 60 + 0.1


def test_replace_deletes_the_running_job_before_creating() -> None:
    running = job("cj-24394140", start=TOP - timedelta(hours=1))
    cj = cronjob("Replace", active=("cj-24394140",), last=TOP - timedelta(hours=1))
    result = sync(cj, (running,), TOP + timedelta(seconds=5))
    kinds = [type(a).__name__ for a in result.actions if isinstance(a, CreateJob | DeleteJob)]
    assert kinds == ["DeleteJob", "CreateJob"]
    assert reasons(result.actions) == ["SuccessfulDelete", "SuccessfulCreate"]
    assert result.cron_job is not None
    assert [r.name for r in result.cron_job.status.active] == ["cj-24394200"]


def test_replace_stops_at_a_refused_delete_and_keeps_the_job_listed() -> None:
    running = job("cj-24394140", start=TOP - timedelta(hours=1))
    cj = cronjob("Replace", active=("cj-24394140",), last=TOP - timedelta(hours=1))
    result = sync(cj, (running,), TOP + timedelta(seconds=5), CronJobFaults(job_delete_error="unavailable"))
    assert [a.accepted for a in result.actions if isinstance(a, DeleteJob)] == [False]
    assert not any(isinstance(a, CreateJob) for a in result.actions)
    assert reasons(result.actions) == ["FailedDelete"]
    assert result.error == "could not replace job ns/cj-24394140"
    assert result.cron_job is not None and [r.name for r in result.cron_job.status.active] == ["cj-24394140"]


def test_history_limit_deletes_refused_keep_the_jobs() -> None:
    jobs = tuple(job(f"j{i}", "Complete", start=TOP - timedelta(hours=i)) for i in (1, 3, 2))
    cj = cronjob(suspend=True, successful_jobs_history_limit=1)
    result = sync(cj, jobs, TOP, CronJobFaults(job_delete_error="unavailable"))
    assert [(a.name, a.accepted) for a in result.actions if isinstance(a, DeleteJob)] == [("j3", False), ("j2", False)]
    assert reasons(result.actions) == ["FailedDelete", "FailedDelete"]
    # The status written is the one the deletes would have left (they change nothing in it).
    deleted = sync(cj, jobs, TOP)
    assert [a for a in result.actions if isinstance(a, UpdateCronJobStatus)] == [a for a in deleted.actions if isinstance(a, UpdateCronJobStatus)]


def test_a_refused_status_write_is_the_syncs_error_and_drops_its_requeue() -> None:
    cj = cronjob(last=TOP - timedelta(hours=1))
    written = sync(cj, (), TOP + timedelta(seconds=5))
    refused = sync(cj, (), TOP + timedelta(seconds=5), CronJobFaults(status_update_error="etcdserver: request timed out"))
    assert written.error is None and written.requeue_after is not None
    assert refused.error == "etcdserver: request timed out" and refused.requeue_after is None
    assert not any(isinstance(a, Requeue) for a in refused.actions)
    # The same calls, the status write sent and refused.
    sent = [a for a in written.actions if isinstance(a, UpdateCronJobStatus)]
    assert [a for a in refused.actions if isinstance(a, UpdateCronJobStatus)] == [attrs.evolve(a, accepted=False) for a in sent]
    assert [a for a in refused.actions if isinstance(a, CreateJob)] == [a for a in written.actions if isinstance(a, CreateJob)]


def test_a_sync_with_no_status_to_write_meets_no_status_error() -> None:
    running = job("cj-24394140", start=TOP - timedelta(hours=1))
    cj = cronjob("Forbid", active=("cj-24394140",), last=TOP - timedelta(hours=1))
    result = sync(cj, (running,), TOP + timedelta(seconds=5), CronJobFaults(status_update_error="etcdserver: request timed out"))
    assert result.error is None and result.requeue_after is not None
    assert not any(isinstance(a, UpdateCronJobStatus) for a in result.actions)


def test_forbid_skips_while_a_job_runs() -> None:
    running = job("cj-24394140", start=TOP - timedelta(hours=1))
    cj = cronjob("Forbid", active=("cj-24394140",), last=TOP - timedelta(hours=1))
    result = sync(cj, (running,), TOP + timedelta(seconds=5))
    assert not any(isinstance(a, CreateJob) for a in result.actions)
    assert reasons(result.actions) == ["JobAlreadyActive"]
    assert result.requeue_after is not None


def test_history_limit_deletes_oldest_first() -> None:
    jobs = tuple(job(f"j{i}", "Complete", start=TOP - timedelta(hours=i)) for i in (1, 3, 2))
    cj = cronjob(suspend=True, successful_jobs_history_limit=1)
    result = sync(cj, jobs, TOP)
    assert [a.name for a in result.actions if isinstance(a, DeleteJob)] == ["j3", "j2"]


def test_jobs_without_start_time_sort_last_then_by_name() -> None:
    early = job("z", start=TOP)
    assert sorted([job("b"), job("a"), early], key=by_job_start_time_key)[0].metadata.name == "z"
    assert [j.metadata.name for j in sorted([job("b"), job("a")], key=by_job_start_time_key)] == ["a", "b"]


def test_starting_deadline_passed_creates_nothing_and_records_nothing() -> None:
    # The deadline already moved the earliest time to now - 10 s, so the 10:00 start is not
    # even found: the MissSchedule branch is not reached (see docs/cron.md).
    cj = cronjob(starting_deadline_seconds=10)
    result = sync(cj, (), TOP + timedelta(seconds=11))
    assert reasons(result.actions) == []
    assert not any(isinstance(a, CreateJob) for a in result.actions)
    assert result.requeue_after == 3600 - 11 + 0.1


def test_finished_active_job_leaves_the_list_and_sets_last_successful_time() -> None:
    done = job("cj-24394140", "Complete", start=TOP - timedelta(hours=1))
    cj = cronjob(active=("cj-24394140",), last=TOP - timedelta(hours=1))
    result = sync(cj, (done,), TOP - timedelta(minutes=1))
    assert reasons(result.actions) == ["SawCompletedJob"]
    updates = [a for a in result.actions if isinstance(a, UpdateCronJobStatus)]
    assert len(updates) == 1
    assert updates[0].status.active == ()
    assert updates[0].status.last_successful_time == TOP - timedelta(minutes=59)


def test_missing_active_job_is_dropped() -> None:
    cj = cronjob(active=("cj-gone",), last=TOP - timedelta(hours=1))
    result = sync(cj, (), TOP - timedelta(minutes=1))
    assert reasons(result.actions) == ["MissingJob"]
    assert result.cron_job is not None and result.cron_job.status.active == ()


def test_unknown_running_job_is_reported() -> None:
    stray = job("stray", start=TOP)
    result = sync(cronjob(last=TOP - timedelta(hours=1)), (stray,), TOP - timedelta(minutes=1))
    assert reasons(result.actions) == ["UnexpectedJob"]


def test_a_refused_read_of_the_cronjob_stops_the_sync_at_an_unknown_running_job() -> None:
    # A finished Job first (it leaves status.active), then one the status lacks: the read of
    # the CronJob for it fails, and the sync returns with what it changed so far, written.
    done = job("cj-24394080", "Complete", start=TOP - timedelta(hours=2))
    stray = job("stray", start=TOP)
    cj = cronjob(active=("cj-24394080",), last=TOP - timedelta(hours=1))
    result = sync(cj, (done, stray), TOP + timedelta(seconds=5), CronJobFaults(cron_job_get_error="timed out"))
    assert result.error == "timed out" and result.requeue_after is None
    assert reasons(result.actions) == ["SawCompletedJob"]  # no UnexpectedJob, no run started
    assert not any(isinstance(a, CreateJob) for a in result.actions)
    (update,) = [a for a in result.actions if isinstance(a, UpdateCronJobStatus)]
    assert update.status.active == ()


def test_edits_after_adopting_the_api_copy_are_not_written() -> None:
    # A running Job missing from the cached active list but present in the API server's copy:
    # syncCronJob continues on that copy, yet sync() writes its own copy, so the creation made
    # afterwards is not recorded in the status upstream writes.
    running = job("cj-24394140", start=TOP - timedelta(hours=1))
    cached = cronjob(last=TOP - timedelta(hours=1))
    fresh = cronjob(active=("cj-24394140",), last=TOP - timedelta(hours=1))
    result = sync(cached, (running,), TOP + timedelta(seconds=5), CronJobFaults(api_cron_job=fresh))
    assert any(isinstance(a, CreateJob) for a in result.actions)
    updates = [a for a in result.actions if isinstance(a, UpdateCronJobStatus)]
    assert len(updates) == 1
    assert updates[0].status == cached.status


def test_name_conflict_reads_the_existing_job_in_the_empty_namespace_and_fails() -> None:
    # Upstream v1.32 reads the conflicting Job in jobReq's (empty) namespace: the read finds
    # nothing, whoever owns the Job (kubernetes/kubernetes#136918).
    for existing in (job("cj-24394200", owner="other", owner_uid="other-uid"), job("cj-24394200", start=TOP)):
        faults = CronJobFaults(job_create_error="AlreadyExists", api_jobs=(existing,))
        result = sync(cronjob(), (), TOP + timedelta(seconds=5), faults)
        assert result.error == 'jobs.batch "cj-24394200" not found'
        assert not any(isinstance(a, UpdateCronJobStatus) for a in result.actions)
        assert reasons(result.actions) == []


def test_name_conflict_reads_the_existing_job_in_the_cron_jobs_namespace_from_1_37() -> None:
    """1.37 reads the conflicting Job in the CronJob's namespace (syncCronJob): its own Job joins
    the active list; another owner's Job is left alone, without an error."""
    gates = FeatureGates.for_release(37)
    own = job("cj-24394200", start=TOP)
    faults = CronJobFaults(job_create_error="AlreadyExists", api_jobs=(own,))
    result = sync(cronjob(), (), TOP + timedelta(seconds=5), faults, gates)
    assert result.error is None
    updates = [a for a in result.actions if isinstance(a, UpdateCronJobStatus)]
    assert [r.name for r in updates[-1].status.active] == ["cj-24394200"]
    assert updates[-1].status.last_schedule_time == TOP
    other = job("cj-24394200", owner="other", owner_uid="other-uid")
    faults = CronJobFaults(job_create_error="AlreadyExists", api_jobs=(other,))
    result = sync(cronjob(), (), TOP + timedelta(seconds=5), faults, gates)
    assert result.error is None and not any(isinstance(a, UpdateCronJobStatus) for a in result.actions)


def test_jobs_are_the_cron_jobs_by_controller_uid_from_1_37() -> None:
    """getCronJobJobsByIndexer (1.37) selects by the controller's uid, getJobsToBeReconciled
    (up to 1.36) by its name: a Job of an earlier CronJob of the same name, or one whose
    reference has the uid under another name, is seen by one and not the other."""
    earlier = job("cj-24394100", owner="cj", owner_uid="earlier-uid")
    renamed = job("cj-24394160", owner="renamed", owner_uid="cj-uid")
    jobs = (earlier, renamed)
    assert get_jobs_to_be_reconciled(cronjob(), jobs, V1_32) == (earlier,)
    assert get_jobs_to_be_reconciled(cronjob(), jobs, FeatureGates.for_release(37)) == (renamed,)


def test_jobs_are_listed_and_read_in_the_cron_jobs_namespace_only() -> None:
    """jobLister.Jobs(cronJob.Namespace) (up to 1.36) is the informer's namespace index, and
    GetJob(namespace, name) an exact read: a Job of no namespace is neither listed nor read in
    the CronJob's (up to 1.36 the model had taken "" as any namespace; 1.37 lists by uid)."""
    stray = attrs.evolve(job("cj-24394200", start=TOP), metadata=attrs.evolve(job("cj-24394200").metadata, namespace=""))
    assert get_jobs_to_be_reconciled(cronjob(), (stray,), V1_32) == ()
    assert get_jobs_to_be_reconciled(cronjob(), (stray,), FeatureGates.for_release(37)) == (stray,)
    faults = CronJobFaults(job_create_error="AlreadyExists", api_jobs=(stray,))
    result = sync(cronjob(), (), TOP + timedelta(seconds=5), faults, FeatureGates.for_release(37))
    assert result.error == 'jobs.batch "cj-24394200" not found'


def test_namespace_terminating_is_an_error_without_event() -> None:
    result = sync(cronjob(), (), TOP + timedelta(seconds=5), CronJobFaults(job_create_error="NamespaceTerminating"))
    assert result.error is not None and reasons(result.actions) == []


def test_other_create_error_is_a_warning() -> None:
    result = sync(cronjob(), (), TOP + timedelta(seconds=5), CronJobFaults(job_create_error="quota exceeded"))
    assert result.error == "quota exceeded" and reasons(result.actions) == ["FailedCreate"]


def test_time_zone_schedules_and_annotates_in_the_zone() -> None:
    cj = cronjob(schedule="0 12 * * *", time_zone="Europe/Rome")
    result = sync(cj, (), datetime(2016, 5, 19, 10, 0, 30, tzinfo=UTC))
    created = [a.job for a in result.actions if isinstance(a, CreateJob)]
    assert created[0].metadata.annotations[CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION] == "2016-05-19T12:00:00+02:00"


def test_suspended_and_bad_zone_do_not_requeue() -> None:
    assert sync(cronjob(suspend=True), (), TOP + timedelta(seconds=5)).requeue_after is None
    bad = sync(cronjob(time_zone="Mars/Olympus"), (), TOP + timedelta(seconds=5))
    assert reasons(bad.actions) == ["UnknownTimeZone"] and bad.requeue_after is None


def messages(actions: tuple[object, ...]) -> dict[str, str]:
    return {a.reason: a.message for a in actions if isinstance(a, RecordEvent)}


def test_warnings_quote_the_values_as_go_does() -> None:
    # cronjob_controllerv2.go: "invalid timeZone: %q: %s", "unparseable schedule: %q : %s", and
    # formatSchedule's "CRON_TZ or TZ used in schedule %q is not officially supported, see
    # https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details".
    zone = messages(sync(cronjob(time_zone="Mars/Olympus"), (), TOP).actions)["UnknownTimeZone"]
    assert zone == 'invalid timeZone: "Mars/Olympus": unknown time zone Mars/Olympus'
    bad = messages(sync(cronjob(schedule="it's\tbad"), (), TOP).actions)["UnparseableSchedule"]
    assert bad.startswith('unparseable schedule: "it\'s\\tbad" : ')
    tz = messages(sync(cronjob(schedule="TZ=UTC 0 * * * *"), (), TOP).actions)["UnsupportedSchedule"]
    assert tz == (
        'CRON_TZ or TZ used in schedule "TZ=UTC 0 * * * *" is not officially supported, '
        "see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details"
    )


def test_jobs_are_matched_to_the_cronjob_by_controller_name_only() -> None:
    same_name_other_uid = job("old", owner_uid="previous-incarnation")
    other = job("x", owner="another")
    assert get_jobs_to_be_reconciled(cronjob(), (same_name_other_uid, other), V1_32) == (same_name_other_uid,)


def test_requeue_action_matches_the_result() -> None:
    result = sync(cronjob(), (), TOP - timedelta(minutes=1))
    assert [a for a in result.actions if isinstance(a, Requeue)] == [Requeue(60.1)]


def test_names_and_go_rfc3339() -> None:
    assert get_job_name(cronjob(), datetime(1, 1, 1, tzinfo=UTC)) == "cj--1035593280"
    assert format_rfc3339(datetime(2016, 1, 1, tzinfo=UTC).astimezone(ZoneInfo("Asia/Kolkata"))) == "2016-01-01T05:30:00+05:30"


def test_a_schedule_upstream_would_hang_on_is_an_error() -> None:
    cj = cronjob(schedule="0 0 29 2 *")
    cj = CronJob(metadata=ObjectMeta(name="cj", namespace=NS, uid="cj-uid", creation_timestamp=datetime(2096, 3, 1, tzinfo=UTC)), spec=cj.spec)
    result = sync(cj, (), datetime(2097, 6, 1, tzinfo=UTC))
    assert result.error is not None and "does not terminate" in result.error
    assert result.requeue_after is None


# --- properties -----------------------------------------------------------------------------

SCHEDULES = ["0 * * * *", "*/5 * * * *", "30 6-16/4 * * 1-5", "@every 90m", "0 0 */2 * 1", "0 0 29 2 *"]


@st.composite
def situations(draw: st.DrawFn) -> tuple[CronJob, tuple[Job, ...], datetime]:
    schedule = draw(st.sampled_from(SCHEDULES))
    policy = draw(st.sampled_from(["Allow", "Forbid", "Replace", ""]))
    last_offset = draw(st.none() | st.integers(0, 30 * 24 * 3600))
    now = TOP + timedelta(seconds=draw(st.integers(0, 30 * 24 * 3600)))
    last = None if last_offset is None else TOP - timedelta(seconds=last_offset)
    names = draw(st.lists(st.sampled_from(["j1", "j2", "j3"]), unique=True, max_size=3))
    jobs = tuple(
        job(n, draw(st.sampled_from([None, "Complete", "Failed"])), start=TOP - timedelta(hours=i + 1))
        for i, n in enumerate(names)
    )
    active = tuple(n for n in names if draw(st.booleans()))
    deadline = draw(st.none() | st.integers(0, 7200))
    cj = cronjob(policy, active=active, last=last, schedule=schedule, starting_deadline_seconds=deadline)
    return cj, jobs, now


@given(situations())
def test_at_most_one_job_is_created_and_it_is_due(situation: tuple[CronJob, tuple[Job, ...], datetime]) -> None:
    cj, jobs, now = situation
    result = sync(cj, jobs, now)
    created = [a.job for a in result.actions if isinstance(a, CreateJob)]
    assert len(created) <= 1
    for made in created:
        scheduled = made.metadata.creation_timestamp
        assert scheduled is not None and scheduled <= now
        assert made.metadata.name == get_job_name(cj, scheduled)
        assert result.cron_job is not None and result.cron_job.status.last_schedule_time == scheduled
        # The scheduled time is one the schedule gives, after the previous run.
        previous = cj.status.last_schedule_time or cj.metadata.creation_timestamp
        assert previous is not None and scheduled > previous
        assert parse_standard(cj.spec.schedule).next(scheduled - timedelta(seconds=1)) == scheduled or cj.spec.schedule.startswith("@every")


@given(situations())
def test_forbid_never_creates_beside_a_running_job(situation: tuple[CronJob, tuple[Job, ...], datetime]) -> None:
    cj, jobs, now = situation
    cj = attrs.evolve(cj, spec=attrs.evolve(cj.spec, concurrency_policy="Forbid"))
    result = sync(cj, jobs, now)
    running_active = [
        ref for ref in cj.status.active if any(j.metadata.uid == ref.uid and not j.status.conditions for j in jobs)
    ]
    if running_active:
        assert not any(isinstance(a, CreateJob) for a in result.actions)


@given(situations())
def test_status_update_at_most_once_and_requeue_is_positive(situation: tuple[CronJob, tuple[Job, ...], datetime]) -> None:
    cj, jobs, now = situation
    result = sync(cj, jobs, now)
    assert sum(isinstance(a, UpdateCronJobStatus) for a in result.actions) <= 1
    if result.requeue_after is not None:
        assert result.requeue_after > 0


# --- Forbid and Replace while a Job is still active (syncCronJob's concurrency branch) ----------


def test_forbid_while_a_job_runs_keeps_the_status() -> None:
    running = job("cj-24394140", start=TOP - timedelta(hours=1))
    cj = cronjob("Forbid", active=("cj-24394140",), last=TOP - timedelta(hours=1))
    result = sync(cj, (running,), TOP + timedelta(seconds=5))
    assert result.cron_job is not None
    assert [r.name for r in result.cron_job.status.active] == ["cj-24394140"]
    assert result.cron_job.status.last_schedule_time == TOP - timedelta(hours=1)
    assert not any(isinstance(a, DeleteJob) for a in result.actions)


def test_forbid_creates_once_the_active_job_has_finished() -> None:
    done = job("cj-24394140", "Complete", start=TOP - timedelta(hours=1))
    cj = cronjob("Forbid", active=("cj-24394140",), last=TOP - timedelta(hours=1))
    result = sync(cj, (done,), TOP + timedelta(seconds=5))
    created = [a.job.metadata.name for a in result.actions if isinstance(a, CreateJob)]
    assert created == ["cj-24394200"]
    assert "JobAlreadyActive" not in reasons(result.actions)
    assert result.cron_job is not None
    assert [r.name for r in result.cron_job.status.active] == ["cj-24394200"]


def test_replace_deletes_every_active_job_before_creating() -> None:
    older = job("cj-24394080", start=TOP - timedelta(hours=2))
    running = job("cj-24394140", start=TOP - timedelta(hours=1))
    cj = cronjob("Replace", active=("cj-24394080", "cj-24394140"), last=TOP - timedelta(hours=1))
    result = sync(cj, (older, running), TOP + timedelta(seconds=5))
    calls = [(type(a).__name__, a.name if isinstance(a, DeleteJob) else a.job.metadata.name) for a in result.actions if isinstance(a, CreateJob | DeleteJob)]
    assert sorted(calls[:2]) == [("DeleteJob", "cj-24394080"), ("DeleteJob", "cj-24394140")]
    assert calls[2:] == [("CreateJob", "cj-24394200")]
    assert result.cron_job is not None
    assert [r.name for r in result.cron_job.status.active] == ["cj-24394200"]


def test_a_delete_frees_the_name_in_its_own_namespace_only() -> None:
    """deleteJob deletes in the Job's namespace (jobControl.DeleteJob(job.Namespace, job.Name)):
    after Replace deletes `x` in one namespace, GetJob still finds `x` in another."""
    here = job("x", start=TOP - timedelta(hours=1))
    there = attrs.evolve(here, metadata=attrs.evolve(here.metadata, namespace="other-ns", uid="x2-uid"))
    cj = cronjob("Replace", active=("x",), last=TOP - timedelta(hours=1))
    refs = (*cj.status.active, ObjectReference(name="x", namespace="other-ns", uid="x2-uid"))
    cj = attrs.evolve(cj, status=attrs.evolve(cj.status, active=refs))
    result = sync(cj, (), TOP + timedelta(seconds=5), CronJobFaults(api_jobs=(here, there)))
    assert result.error is None
    assert [a.name for a in result.actions if isinstance(a, DeleteJob)] == ["x", "x"]
    assert "FailedGet" not in reasons(result.actions)
    assert [a.job.metadata.name for a in result.actions if isinstance(a, CreateJob)] == ["cj-24394200"]


def test_replace_deletes_nothing_once_the_active_job_has_finished() -> None:
    done = job("cj-24394140", "Failed", start=TOP - timedelta(hours=1))
    cj = cronjob("Replace", active=("cj-24394140",), last=TOP - timedelta(hours=1))
    result = sync(cj, (done,), TOP + timedelta(seconds=5))
    assert not any(isinstance(a, DeleteJob) for a in result.actions)
    assert [a.job.metadata.name for a in result.actions if isinstance(a, CreateJob)] == ["cj-24394200"]


def test_allow_runs_beside_an_active_job() -> None:
    running = job("cj-24394140", start=TOP - timedelta(hours=1))
    cj = cronjob("Allow", active=("cj-24394140",), last=TOP - timedelta(hours=1))
    result = sync(cj, (running,), TOP + timedelta(seconds=5))
    assert not any(isinstance(a, DeleteJob) for a in result.actions)
    assert result.cron_job is not None
    assert sorted(r.name for r in result.cron_job.status.active) == ["cj-24394140", "cj-24394200"]
