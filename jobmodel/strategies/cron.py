"""Hypothesis strategies for the `schedule` and `cronjob-sync` suites, in the vector format:
schedules (a fixed list of awkward ones, generated five-field expressions, `TZ=` prefixes), time
zones (real, odd and unknown), deadlines, and CronJobs with their Jobs in every state, named as
the controller names them or freely, owned or not, with injected API errors."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import strategies as st

from jobmodel.timeutil import format_time

BASE = datetime(2024, 3, 9, 12, 0, tzinfo=UTC)  # a day before New York's spring-forward

SCHEDULES = [
    "0 * * * *", "*/5 * * * *", "*/7 * * * *", "30 2 * * *", "30 1 * * *", "0 0 * * *",
    "30 6-16/4 * * 1-5", "30 10,11,12 * * 1-5", "0 0 */2 * 1", "0 0 13 * 5", "@hourly",
    "@every 1h", "@every 90m", "@every 7s", "59 23 31 2 *", "0 0 29 2 *", "* * * * *",
    "0 0 * * 7", "5-2 * * * *", "0 0 L * *", "TZ=UTC 0 * * * *", "", "bad",
    # Read by Go's rules, not Python's: unicode.IsSpace, ToLower (U+0130 is i), strconv.Atoi.
    "0\u00a00 * * * *", "0\x1c0 * * * *", "0 0 * * FR\u0130", "1_0 * * * *", "\u0663 * * * *", "99999999999999999999x * * * *",
]
# Valid schedules of SCHEDULES that give a time every day at least.
FREQUENT_SCHEDULES = [
    "0 * * * *", "*/5 * * * *", "*/7 * * * *", "30 2 * * *", "0 0 * * *", "@hourly", "@every 1h", "@every 90m",
    "@every 7s", "* * * * *", "TZ=UTC 0 * * * *",
]  # fmt: skip
# The period in seconds of those that give their times on multiples of it (in UTC).
SCHEDULE_PERIODS = {"0 * * * *": 3600, "*/5 * * * *": 300, "0 0 * * *": 86400, "@hourly": 3600, "* * * * *": 60, "TZ=UTC 0 * * * *": 3600}

# robfig/cron's standard parser at its edges: descriptors in any case (and ones it lacks), month
# and weekday names and their ranges, `?`, steps of every form, values out of range, field counts,
# blanks, huge numbers, `@every` durations Go's time.ParseDuration reads or not (below a second,
# fractions, negative, the largest), Quartz's L, W and # that it does not, TZ prefixes.
SCHEDULE_EDGES = [
    "@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@reboot", "@Daily", "@every 0s",
    "@every -1m", "@every 1.5h", "@every", "@every 1h30m", "@every 1d", "@every 500ms", "0 0 * JAN MON",
    "0 0 * jan-mar mon-fri", "0 0 * * SUN-SAT", "0 0 * FOO *", "0 0 ? * *", "0 0 * * ?", "0 0 * DEC-JAN *",
    "0 0 * * 8", "0 0 * 13 *", "0 0 0 * *", "0 0 32 * *", "0 24 * * *", "*/0 * * * *", "0/15 * * * *",
    "5/15 * * * *", "1-5/0 * * * *", "*/61 * * * *", "1-2-3 * * * *", ",1 * * * *", "1,,2 * * * *", "-1 * * * *",
    "* * * * * *", "  0 0 * * *  ", "0\t0 * * *\t*", "0 0 1/2 * *", "1-60 * * * *", "a-b * * * *", "1/2/3 * * * *",
    "*/2-3 * * * *", "0 0 * * mon,WED", "0 0 * * MON-7", "99999999999999999999 * * * *", "0 0 * * 1-", "0 0 L * *",
    "0 0 * * 5L", "0 0 * * 1#2", "TZ=", "CRON_TZ=UTC", "TZ=Mars/Olympus 0 * * * *", "0 0 * * * TZ",
    "tz=UTC 0 * * * *", "0 0 ** * *", "0 0 * */13 *", "0 0 * * */8", "0 0 * 2-FEB *", "0 0 * * sat-sun",
    "0\n0 * * *", "@EVERY 1h", "@Hourly", "@every 1h30m10s", "@every 1us", "@every 2562047h", "@every 1e3s",
    "@every 1m0.5s", "@every 61s", "@every  5m", "@every 2h ", "0 0 * JAN-MAR MON-FRI", "0 0 1 jan *", "0 0 * * sun",
    "0 0 * * mon-FRI", "0 0 * feb-jan *", "0 0 * DEC/2 *", "0 0 * * SAT,SUN", "0 0 ? ? ?", "0 0 1-31/0 * *",
    "0-59/60 * * * *", "0 0 * * */7", "0 0 * * 0/3", "4-4/2 * * * *", "0 0 * * 7-1", "60 * * * *", "0 0 * 0 *",
    "0 0 31 4 *", "0 0 30 2 *", "0 0 31 */2 *", "0 0 1 1 */8", "0 0 L-3 * *", "0 0 W * *", "0 0 * *", " 0 0 * * * ",
    "0\t0 * * *", "0 0 * * *\n", "0,,1 * * * *", "1- * * * *", "+5 * * * *", "0x1 * * * *", "00005 * * * *",
    "*/5,*/7 * * * *", "*,1 * * * *",
]  # fmt: skip


def cron_field(lo: int, hi: int) -> st.SearchStrategy[str]:
    """One field of a standard cron expression: *, a value, a range, steps, a list."""
    value = st.integers(lo, hi)
    return st.one_of(
        st.just("*"),
        value.map(str),
        st.builds(lambda a, b: f"{a}-{b}", value, value),
        st.builds(lambda n: f"*/{n}", st.integers(1, max(1, hi - lo))),
        st.builds(lambda a, b, n: f"{a}-{b}/{n}", value, value, st.integers(1, 5)),
        st.lists(value, min_size=2, max_size=3).map(lambda xs: ",".join(map(str, xs))),
    )


GENERATED_SCHEDULES = st.builds(
    lambda *parts: " ".join(parts), cron_field(0, 59), cron_field(0, 23), cron_field(1, 31), cron_field(1, 12), cron_field(0, 7)
)
ZONES = [None, None, "America/New_York", "Europe/London", "Australia/Lord_Howe", "Asia/Kolkata", "Mars/Olympus", "Africa/Casablanca"]
# Names time.LoadLocation reads as paths (a trailing "/" or "/." is ENOTDIR), a file that is no
# zone, a directory, and names only the machine's zoneinfo may hold (the harness looks there too).
ODD_ZONES = [
    "", "Local", "UTC", "Etc/GMT+5", "America/../UTC", "-UTC", "America/Argentina/ComodRivadavia", "Asia/Calcutta", "EST5EDT",
    "America/New_York/", "America/New_York/.", "America//New_York", "zone.tab", "America", "posixrules",
]
# Schedules whose walk over centuries upstream finishes quickly, in UTC (where the model bisects).
FAR_SCHEDULES = ["0 * * * *", "15,45 * * * *", "30 2 * * *", "30 6-16/4 * * 1-5", "0 0 1 * *", "@hourly", "@every 90m"]


def when(offset_seconds: int) -> str:
    return format_time(BASE + timedelta(seconds=offset_seconds))


# `TZ=`/`CRON_TZ=` prefixes, with the space robfig needs and without it (robfig panics there).
TZ_PREFIXED_SCHEDULES = st.builds(
    lambda key, zone, sep, rest: f"{key}={zone}{sep}{rest}",
    st.sampled_from(["TZ", "CRON_TZ"]),
    st.sampled_from(["UTC", "America/New_York", "Mars/Olympus", ""]),
    st.sampled_from([" ", "", "  ", "\t"]),
    st.one_of(st.sampled_from(["", "0 * * * *", "@daily", "bad"]), GENERATED_SCHEDULES),
)


# The prefixed schedules an API server stores: robfig panics on a prefix without its space, and
# the request fails (1.32 to 1.34: the handler chain recovers the panic; later: refused).
STORABLE_TZ_PREFIXED_SCHEDULES = st.builds(
    lambda key, zone, rest: f"{key}={zone} {rest}",
    st.sampled_from(["TZ", "CRON_TZ"]),
    st.sampled_from(["UTC", "America/New_York", "Mars/Olympus"]),
    st.one_of(st.sampled_from(["0 * * * *", "@daily", "bad"]), GENERATED_SCHEDULES),
)


def _far_schedule_case(draw: st.DrawFn) -> dict[str, Any]:
    """Centuries between the earliest time and now, on either side of where the missed-starts
    estimate saturates (a Go duration's 292.47 years: 292 of 365 days fall 172 days short of it,
    293 go 193 days past it), or an earliest time centuries ahead (the wake-up delay saturates,
    keeping a fraction of a second). Past the saturation upstream walks the schedule from there
    to now one start at a time: half a year of hourly starts is 4,600 steps, where 300 years
    (about 66,000) made these cases nine tenths of the upstream harness's time (the saved
    divergence vectors of tests/differential/vectors keep walks of 300 years and more)."""
    earliest = draw(st.integers(-40 * 86400, 0))
    years = draw(st.sampled_from([293, 292, -376]))  # negative: the earliest time is ahead
    now = earliest + max(years, 0) * 365 * 86400 + draw(st.integers(0, 86400))
    return {
        "name": "generated",
        "schedule": draw(st.sampled_from(FAR_SCHEDULES)),
        "earliestTime": when(earliest - years * 365 * 86400 if years < 0 else earliest),
        "now": when(now),
        "expect": {},
    }


@st.composite
def schedule_cases(draw: st.DrawFn) -> dict[str, Any]:
    if draw(st.integers(0, 19)) == 0:
        return _far_schedule_case(draw)
    earliest = draw(st.integers(-40 * 86400, 0))
    case: dict[str, Any] = {
        "name": "generated",
        "schedule": draw(
            st.one_of(st.sampled_from(SCHEDULES), st.sampled_from(SCHEDULE_EDGES), GENERATED_SCHEDULES, TZ_PREFIXED_SCHEDULES)
        ),
        "earliestTime": when(earliest),
        "now": when(earliest + draw(st.integers(0, 45 * 86400))),
        "expect": {},
    }
    zone = draw(st.sampled_from(ZONES + ODD_ZONES))
    if zone is not None:
        case["timeZone"] = zone
    deadline = draw(st.sampled_from([None, None, 0, 10, 300, 7200, 10**10, -1]))
    if deadline is not None:
        case["startingDeadlineSeconds"] = deadline
    return case


EXTRA_JOB_CONDITIONS = [
    ("Complete", "False"), ("Failed", "False"), ("Failed", "True"), ("Complete", "True"),
    ("SuccessCriteriaMet", "True"), ("FailureTarget", "True"), ("Suspended", "True"),
]


def _job(draw: st.DrawFn, name: str, owner: str) -> dict[str, Any]:
    state = draw(st.sampled_from(["running", "Complete", "Failed"]))
    # Now and then on the hour: Jobs started at the same time are ordered by name (byJobStartTime).
    started = draw(st.one_of(st.integers(-3 * 86400, 0), st.sampled_from([-7200, -3600])))
    status: dict[str, Any] = {}
    if draw(st.booleans()):
        status["startTime"] = when(started)
    conditions = [{"type": state, "status": "True"}] if state != "running" else []
    if draw(st.integers(0, 3)) == 3:
        # Conditions that do not finish a Job (a False one, the interim ones of the Job
        # controller), or both finishing ones (a cache may hold them): the first decides.
        extra = draw(st.lists(st.sampled_from(EXTRA_JOB_CONDITIONS), min_size=1, max_size=2, unique=True))
        conditions += [{"type": t, "status": s} for t, s in extra]
        conditions = draw(st.permutations(conditions))
    if conditions:
        status["conditions"] = list(conditions)
    if state == "Complete" and draw(st.booleans()):
        status["completionTime"] = when(started + draw(st.integers(0, 7200)))
    meta: dict[str, Any] = {"name": name, "namespace": "ns", "uid": f"{name}-uid"}
    if owner != "none":
        uid = "cj-uid" if owner in ("cj", "not controller") else "other-uid"
        # An owner reference to the CronJob that is not the controller's: not one of its Jobs.
        meta["ownerReferences"] = [
            {"apiVersion": "batch/v1", "kind": "CronJob", "name": "cj" if owner != "other" else "other", "uid": uid, "controller": owner != "not controller"}
        ]
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": meta, "spec": {"template": {"spec": {}}}, "status": status}


def _controlled_by_cron_job(job: dict[str, Any]) -> bool:
    """A Job of `_job` whose controller is the generated CronJob (one of its children)."""
    refs = job["metadata"].get("ownerReferences") or []
    return any(ref["uid"] == "cj-uid" and ref["controller"] for ref in refs)


@st.composite
def cronjob_sync_cases(draw: st.DrawFn) -> dict[str, Any]:
    now_offset = draw(st.integers(0, 2 * 86400))
    now = BASE + timedelta(seconds=now_offset)
    # In a third of the cases a CronJob whose sync gets as far as the Job's create when a time is
    # due (not suspended or being deleted, a zone that loads, a deadline that leaves the missed
    # time in reach): each of the other draws alone stops most syncs before it.
    due = draw(st.integers(0, 2)) == 0
    spec: dict[str, Any] = {
        # Now and then a generated or TZ-prefixed schedule, as the schedule suite draws them.
        "schedule": draw(st.sampled_from(FREQUENT_SCHEDULES))
        if due
        else draw(st.sampled_from(SCHEDULES))
        if draw(st.integers(0, 5))
        else draw(st.one_of(GENERATED_SCHEDULES, STORABLE_TZ_PREFIXED_SCHEDULES)),
        "concurrencyPolicy": draw(st.sampled_from(["Allow", "Forbid", "Replace"])),
        "suspend": False if due else draw(st.sampled_from([False, False, True])),
        "jobTemplate": {"metadata": {"labels": {"a": "b"}, "annotations": {"x": "y"}}, "spec": {"template": {"spec": {}}}},
    }
    zones: list[str | None] = [z for z in ZONES if z != "Mars/Olympus"] if due else [*ZONES, *ODD_ZONES]
    zone = draw(st.sampled_from(zones))
    if zone is not None:
        spec["timeZone"] = zone
    for key, values in (
        # 2^54 s and its odd multiples: the product with a second that is its own negation
        # (MissSchedule: too late by 292 years).
        ("startingDeadlineSeconds", [None] * 4 + [7200] * 4 + [10**10, 2**54] if due else [None, None, 0, 10, 300, 7200, 10**10, -1, 3 * 2**54]),
        ("successfulJobsHistoryLimit", [None, 0, 1, 3]),
        ("failedJobsHistoryLimit", [None, 0, 1]),
    ):
        value = draw(st.sampled_from(values))
        if value is not None:
            spec[key] = value
    # Jobs named as the controller names them (some for times the schedule may give) or freely.
    names = draw(
        st.lists(
            st.one_of(
                st.integers(-3 * 24, 2 * 24).map(lambda h: f"cj-{int((BASE + timedelta(hours=h)).timestamp()) // 60}"),
                st.sampled_from(["manual", "other-run"]),
            ),
            unique=True,
            max_size=4,
        )
    )
    due_named = draw(st.integers(0, 2)) == 0 or (due and draw(st.booleans()))
    if due_named:
        # A Job named for a time the schedule may just have given (the last multiple of its period
        # at or before now, or the one before; of a minute, five minutes or an hour where the
        # period is not known): the sync then meets the Job it would create, in its active list
        # by name (nothing to do) or on the API server (AlreadyExists adopts it).
        period = SCHEDULE_PERIODS.get(spec["schedule"])
        if period is not None and spec.get("timeZone") not in (None, "America/New_York", "Europe/London", "Africa/Casablanca"):
            period = None  # a zone whose offset is not whole hours moves the hours
        elif period is not None and period > 3600 and "timeZone" in spec:
            period = None  # nor is midnight there midnight in UTC
        step = period or draw(st.sampled_from([60, 300, 3600]))
        due_time = int(now.timestamp()) // step * step - step * draw(st.sampled_from([0, 0, 1]))
        if f"cj-{due_time // 60}" not in names:
            names.append(f"cj-{due_time // 60}")
    owners = ["cj", "cj", "cj", "other", "stale-uid", "none", "not controller"]
    # The Job named for the due time mostly the CronJob's own (the one AlreadyExists adopts).
    due_name = f"cj-{due_time // 60}" if due_named else None
    jobs = [_job(draw, n, draw(st.sampled_from(owners[:1] if n == due_name and draw(st.booleans()) else owners))) for n in names]
    # Now and then a Job of the same name in another namespace (a delete frees a name in its own
    # namespace only; from 1.37 the CronJob's Jobs are found in every namespace).
    twins = [n for n in names if draw(st.integers(0, 5)) == 0]
    for n in twins:
        twin = _job(draw, n, "cj")
        twin["metadata"].update(namespace="other-ns", uid=f"{n}-twin-uid")
        jobs.append(twin)
    # In some due cases every active reference names one of the CronJob's own Jobs as the lister
    # holds it: the sync reads none of them from the API server before Replace.
    listed_only = due and draw(st.integers(0, 3)) == 0
    if listed_only:
        if draw(st.integers(0, 2)):
            spec["concurrencyPolicy"] = "Replace"  # the policy that reads and deletes them
        # A run of two hours ago still running among them: the Job a due time finds active
        # (Forbid waits, Replace deletes it).
        earlier = f"cj-{(int(now.timestamp()) - 7200) // 60}"
        if earlier not in names:
            running = _job(draw, earlier, "cj")
            running["status"].pop("conditions", None)
            running["status"].pop("completionTime", None)
            jobs.append(running)
        own = [j for j in jobs if j["metadata"]["namespace"] == "ns" and _controlled_by_cron_job(j)]
        active = draw(st.lists(st.sampled_from(own), min_size=1, unique_by=lambda j: j["metadata"]["name"])) if own else []
        active_names = [j["metadata"]["name"] for j in active]
        uids = {n: f"{n}-uid" for n in active_names}
    else:
        active_names = [n for n in names if draw(st.booleans())]
        active_names += draw(st.lists(st.sampled_from(["gone-1", "gone-2"]), unique=True, max_size=1))
        # Now and then a reference to an earlier Job of the name, since re-created (another UID).
        uids = {n: draw(st.sampled_from([f"{n}-uid", f"{n}-uid", f"{n}-old-uid"])) for n in active_names}
    status: dict[str, Any] = {
        "active": [{"kind": "Job", "apiVersion": "batch/v1", "namespace": "ns", "name": n, "uid": uids[n]} for n in active_names]
    }
    status["active"] += [
        {"kind": "Job", "apiVersion": "batch/v1", "namespace": "other-ns", "name": n, "uid": f"{n}-twin-uid"}
        for n in twins
        if draw(st.booleans())
    ]
    last = draw(st.one_of(st.none(), st.integers(-3 * 86400, now_offset)))
    if last is not None:
        # On the minute as the controller writes it, now and then not (an edited status).
        status["lastScheduleTime"] = when(last - last % 60 if draw(st.integers(0, 5)) else last)
    if draw(st.booleans()):
        status["lastSuccessfulTime"] = when(draw(st.integers(-3 * 86400, 0)))
    if not status["active"]:
        del status["active"]
    meta: dict[str, Any] = {"name": "cj", "namespace": "ns", "uid": "cj-uid", "creationTimestamp": when(-draw(st.integers(0, 5 * 86400)))}
    if last is None and "timeZone" not in spec and draw(st.integers(0, 9)) == 0:
        # No creationTimestamp: counted from the zero time, the walk spans 1,700 years after the
        # saturated estimate; upstream finishes it quickly for these schedules.
        del meta["creationTimestamp"]
        spec["schedule"] = draw(st.sampled_from(["0 0 1 * *", "@monthly", "0 0 1 1 *", "0 0 1 */3 *"]))
    if not due and draw(st.integers(0, 9)) == 0:
        meta["deletionTimestamp"] = format_time(now)
    for key in ("concurrencyPolicy", "suspend"):
        if draw(st.integers(0, 9)) == 9:
            # Unset, as upstream's controller tests leave them (Allow, not suspended).
            del spec[key]
    cron_job = {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": meta, "spec": spec, "status": status}
    controller: dict[str, Any] = {}
    refusals = ["AlreadyExists", "NamespaceTerminating", "quota exceeded"]
    # Fewer refused creates where every active Job is listed: Replace's whole path needs the create.
    error = draw(st.sampled_from([None] * (9 if listed_only else 3) + refusals))
    if due_named and draw(st.integers(0, 2)):
        error = "AlreadyExists"  # the create of a Job the API server may hold already
        if draw(st.integers(0, 2)):
            # Created by an earlier sync that crashed before its status write: the CronJob's own,
            # not listed (the adoption of 1.37).
            for job in jobs:
                if job["metadata"]["name"] == due_name and job["metadata"]["namespace"] == "ns":
                    job["metadata"]["ownerReferences"] = [
                        {"apiVersion": "batch/v1", "kind": "CronJob", "name": "cj", "uid": "cj-uid", "controller": True}
                    ]
            unlisted = [ref for ref in status.get("active") or [] if ref["name"] != due_name]
            if unlisted:
                status["active"] = unlisted
            else:
                status.pop("active", None)
    if error is not None:
        controller["jobCreateError"] = error
    # A failing read of a Job: it stops the sync at an active Job missing from the lister, or,
    # every active Job listed, at Replace's read of the Job it deletes (FailedGet).
    if (listed_only or not due) and draw(st.integers(0, 3 if listed_only else 7)) == 0:
        controller["jobGetError"] = "request is invalid"
    if draw(st.integers(0, 11)) == 0:
        # Failing deletes (jobmodel's own key): the history limits' and Replace's (FailedDelete).
        controller["jobDeleteError"] = "the server is currently unable to handle the request"
    # Upstream walks the Jobs in its lister's order, a Go map's: after adopting the API
    # server's copy the result depends on it, so that copy is only given with one Job.
    if len(jobs) <= 1 and draw(st.integers(0, 2)) == 0:
        fresh = json.loads(json.dumps(cron_job))
        fresh["status"]["active"] = [
            {"kind": "Job", "apiVersion": "batch/v1", "namespace": "ns", "name": n, "uid": f"{n}-uid"} for n in names
        ]
        controller["apiCronJob"] = fresh
    if draw(st.integers(0, 4)) == 0:
        controller["apiJobs"] = [j for j in jobs if draw(st.booleans())]
    case: dict[str, Any] = {"name": "generated", "now": format_time(now), "cronJob": cron_job, "jobs": jobs, "expect": {}}
    if controller:
        case["controller"] = controller
    if draw(st.integers(0, 5)) == 0:
        case["features"] = {"CronJobsScheduledAnnotation": False}
    if draw(st.integers(0, 7)) == 0:
        # A failing status update (jobmodel's own key): sync returns its error, and no requeue.
        case.setdefault("controller", {})["statusUpdateError"] = "etcdserver: request timed out"
    if draw(st.integers(0, 9)) == 0:
        # A failing read of the CronJob (jobmodel's own key): the one syncCronJob makes when it
        # meets a running Job of its own that status.active lacks.
        case.setdefault("controller", {})["cronJobGetError"] = "the server was unable to return a response in the time allotted"
    return case
