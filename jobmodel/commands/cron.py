"""`jobmodel cron`: when a schedule runs (`cron next`), and what the CronJob controller does with
a CronJob through a time window (`cron simulate`)."""

from __future__ import annotations

import argparse
import math
import sys
from datetime import UTC, datetime, tzinfo
from typing import Any

import attrs

from jobmodel.api.validation import validate_time_zone
from jobmodel.api.wire import cron_job_from_json
from jobmodel.commands.common import OK, add_object_options, gates_of, load_object
from jobmodel.commands.output import add_output_option, print_json, wants_json
from jobmodel.commands.progress import progress
from jobmodel.errors import InputError, quote
from jobmodel.features import FeatureGates
from jobmodel.schedule.cron import CronParseError, parse_standard
from jobmodel.schedule.gotime import load_location
from jobmodel.simulation.cronjob import MAX_JOB_SECONDS, MAX_SYNCS, LogEntry, Outage, simulate
from jobmodel.state import CronJob
from jobmodel.timeutil import GO_ZERO_TIME, LATEST_CLOCK, format_time, parse_clock

# `cron next -n`: at most this many run times.
MAX_COUNT = 1000


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "cron",
        help="cron schedules as Kubernetes computes them; simulate the CronJob controller",
        description="Cron schedules exactly as the CronJob controller computes them (robfig/cron v3.0.1).",
    )
    sub = parser.add_subparsers(dest="cron_command", required=True, metavar="ACTION")

    nxt = sub.add_parser("next", help="print the next run times of a schedule")
    nxt.add_argument("schedule", help='a cron schedule, e.g. "30 2 * * *" or "@every 90m"')
    nxt.add_argument("--time-zone", help="spec.timeZone: an IANA zone name (default: UTC)")
    nxt.add_argument("-n", "--count", type=int, default=5, help="how many run times (default 5)")
    nxt.add_argument("--from", dest="start", help="RFC 3339 start time (default: now)")
    add_output_option(nxt)
    nxt.set_defaults(func=run_next)

    sim = sub.add_parser("simulate", help="run the controller model through a time window")
    sim.add_argument("manifest", help="a file holding one batch/v1 CronJob (JSON or YAML), or - for stdin")
    sim.add_argument("--start", required=True, help="RFC 3339 start of the window")
    sim.add_argument("--end", required=True, help="RFC 3339 end of the window")
    sim.add_argument("--job-duration", type=float, default=60.0, help="seconds each Job runs (default 60)")
    sim.add_argument("--job-fails", action="store_true", help="Jobs end Failed instead of Complete")
    sim.add_argument(
        "--outage",
        action="append",
        default=[],
        metavar="START/END",
        help="the controller is down in this window (RFC 3339 times); may be repeated",
    )
    add_object_options(sim)
    add_output_option(sim)
    sim.set_defaults(func=run_simulate)


def run_next(args: argparse.Namespace) -> int:
    if not 1 <= args.count <= MAX_COUNT:
        raise InputError("--count", f"expected 1 to {MAX_COUNT}, got {args.count}")
    spec = args.schedule
    zone: tzinfo = UTC
    if args.time_zone is not None:
        errors = validate_time_zone(args.time_zone, "--time-zone")  # as spec.timeZone is validated
        if errors:
            raise InputError("--time-zone", errors[0].detail)
        zone = load_location(args.time_zone)
        if "TZ" not in spec:
            spec = f"TZ={args.time_zone} {spec}"
    try:
        schedule = parse_standard(spec)
    except CronParseError as err:
        raise InputError("schedule", err.message) from None
    t = parse_clock(args.start, "--from") if args.start else datetime.now(UTC)
    times: list[datetime] = []
    gave_up = past_end = False
    for _ in range(args.count):
        t = schedule.next(t)
        if t >= LATEST_CLOCK:
            # Go's times run on for billions of years; the model's clocks end here.
            past_end = True
            break
        if t == GO_ZERO_TIME:
            gave_up = True
            break
        times.append(t)
    if wants_json(args):
        print_json(
            "CronSchedule",
            {
                "schedule": args.schedule,
                "timeZone": args.time_zone,
                "times": [
                    {"time": format_time(t), "local": t.astimezone(zone).isoformat(), "weekday": t.astimezone(zone).strftime("%a")}
                    for t in times
                ],
                "gaveUp": gave_up,
                "pastModelClock": past_end,
            },
        )
        return 0
    for t in times:
        local = t.astimezone(zone)
        print(f"{format_time(t)}  {local.isoformat()}  {local.strftime('%a')}")
    if gave_up:
        print("(no further run time within five years: robfig/cron gives up)")
    if past_end:
        print(f"(the next run time is past {format_time(LATEST_CLOCK)}, where the model's clock ends)")
    return OK


def _load_cron_job(args: argparse.Namespace, gates: FeatureGates) -> CronJob:
    """The one CronJob of a manifest (file or `-` for stdin, JSON or YAML), as the API server
    stores it (defaulted: history limits 3 and 1, concurrency Allow, ...)."""
    admitted = load_object(args.manifest, ("CronJob",), args.namespace, gates, field_validation=args.field_validation)
    return cron_job_from_json(admitted.stored)


def _outage(text: str) -> Outage:
    start, sep, end = text.partition("/")
    if not sep:
        raise InputError("--outage", f"expected START/END, got {quote(text)}")
    outage = Outage(parse_clock(start, "--outage"), parse_clock(end, "--outage"))
    if outage.end <= outage.start:
        raise InputError("--outage", f"ends before it starts: {quote(text)}")
    return outage


def run_simulate(args: argparse.Namespace) -> int:
    gates = gates_of(args)
    start, end = parse_clock(args.start, "--start"), parse_clock(args.end, "--end")
    if end <= start:
        raise InputError("--end", "must be after --start")
    if not math.isfinite(args.job_duration) or not 0 <= args.job_duration <= MAX_JOB_SECONDS:
        raise InputError("--job-duration", f"expected seconds from 0 to {MAX_JOB_SECONDS}, got {args.job_duration}")
    cron_job = _load_cron_job(args, gates)
    if cron_job.metadata.creation_timestamp is None:
        # A CronJob created at the start of the window.
        cron_job = attrs.evolve(cron_job, metadata=attrs.evolve(cron_job.metadata, creation_timestamp=start))
    outages = tuple(_outage(o) for o in args.outage)
    window = (end - start).total_seconds()
    with progress("simulating the CronJob controller", window) as task:

        def synced(now: datetime) -> None:
            task.update(completed=(now - start).total_seconds(), note=format_time(now))

        result = simulate(
            cron_job, start, end, args.job_duration, args.job_fails, outages, gates=gates, max_syncs=MAX_SYNCS, on_sync=synced
        )
    created = sum(1 for e in result.log if e.what == "create")
    deleted = sum(1 for e in result.log if e.what == "delete")
    if wants_json(args):
        print_json(
            "CronSimulation",
            {
                "cronJob": cron_job.metadata.name,
                "start": format_time(start),
                "end": format_time(end),
                "log": [{"time": format_time(e.at), "what": e.what, "name": e.name, "why": e.why} for e in result.log],
                "created": created,
                "deleted": deleted,
                "syncs": result.syncs,
                "cutShort": None if result.cut_short is None else format_time(result.cut_short),
            },
        )
        return OK
    _print_log(result.log)
    print(f"{created} created, {deleted} deleted, {result.syncs} syncs", file=sys.stdout)
    if result.cut_short is not None:
        print(
            f"cut short at {format_time(result.cut_short)}: the window needs more than "
            f"{MAX_SYNCS} syncs; the rest of the window was not simulated"
        )
    return OK


def _print_log(log: tuple[LogEntry, ...]) -> None:
    """One line per entry; a year of a minutely schedule has over a million, so the lines go
    out in chunks and a time is formatted once for the entries that share it."""
    last_at, stamp = None, ""
    chunk: list[str] = []
    for entry in log:
        if entry.at != last_at:
            last_at, stamp = entry.at, format_time(entry.at)
        name = f" {entry.name}" if entry.name else ""
        chunk.append(f"{stamp}  {entry.what}{name}: {entry.why}\n")
        if len(chunk) >= 10_000:
            sys.stdout.write("".join(chunk))
            chunk.clear()
    sys.stdout.write("".join(chunk))
