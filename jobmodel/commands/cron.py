"""`jobmodel cron`: when a schedule runs (`cron next`), and what the CronJob controller does with
a CronJob through a time window (`cron simulate`)."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime, tzinfo
from typing import Any

import attrs

from jobmodel.adapters.manifests import load_documents, read_manifest
from jobmodel.api.wire import cron_job_from_json
from jobmodel.commands.output import add_output_option, print_json, wants_json
from jobmodel.commands.progress import progress
from jobmodel.errors import InputError
from jobmodel.features import DEFAULT_GATES, parse_gate_overrides
from jobmodel.schedule.cron import CronParseError, parse_standard
from jobmodel.schedule.gotime import LocationError, load_location
from jobmodel.simulation.cronjob import Outage, simulate
from jobmodel.state import CronJob
from jobmodel.timeutil import GO_ZERO_TIME, format_time, parse_time


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
    sim.add_argument("--feature-gates", default="", metavar="A=true,B=false", help="gates that differ from the default (all on)")
    add_output_option(sim)
    sim.set_defaults(func=run_simulate)


def run_next(args: argparse.Namespace) -> int:
    if args.count < 1:
        raise InputError("--count", "must be at least 1")
    spec = args.schedule
    zone: tzinfo = UTC
    if args.time_zone is not None:
        try:
            zone = load_location(args.time_zone)
        except LocationError as err:
            raise InputError("--time-zone", str(err)) from None
        if "TZ" not in spec:
            spec = f"TZ={args.time_zone} {spec}"
    try:
        schedule = parse_standard(spec)
    except CronParseError as err:
        raise InputError("schedule", err.message) from None
    t = parse_time(args.start, "--from") if args.start else datetime.now(UTC)
    times: list[datetime] = []
    gave_up = False
    for _ in range(args.count):
        t = schedule.next(t)
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
            },
        )
        return 0
    for t in times:
        local = t.astimezone(zone)
        print(f"{format_time(t)}  {local.isoformat()}  {local.strftime('%a')}")
    if gave_up:
        print("(no further run time within five years: robfig/cron gives up)")
    return 0


def _load_cron_job(name: str) -> CronJob:
    """The one CronJob of a manifest (file or `-` for stdin, JSON or YAML)."""
    docs = load_documents(name, read_manifest(name, sys.stdin))
    found = [d for d in docs if isinstance(d, dict) and d.get("kind") == "CronJob"]
    if len(found) != 1:
        raise InputError(name, f"expected exactly one CronJob, found {len(found)}")
    return cron_job_from_json(found[0])


def _outage(text: str) -> Outage:
    start, sep, end = text.partition("/")
    if not sep:
        raise InputError("--outage", f"expected START/END, got {text!r}")
    outage = Outage(parse_time(start, "--outage"), parse_time(end, "--outage"))
    if outage.end <= outage.start:
        raise InputError("--outage", f"ends before it starts: {text!r}")
    return outage


def run_simulate(args: argparse.Namespace) -> int:
    cron_job = _load_cron_job(args.manifest)
    gates = DEFAULT_GATES.with_overrides(parse_gate_overrides(args.feature_gates), "--feature-gates")
    start, end = parse_time(args.start, "--start"), parse_time(args.end, "--end")
    if end <= start:
        raise InputError("--end", "must be after --start")
    if args.job_duration < 0:
        raise InputError("--job-duration", "must not be negative")
    if cron_job.metadata.creation_timestamp is None:
        # A CronJob created at the start of the window.
        cron_job = attrs.evolve(cron_job, metadata=attrs.evolve(cron_job.metadata, creation_timestamp=start))
    outages = tuple(_outage(o) for o in args.outage)
    window = (end - start).total_seconds()
    with progress("simulating the CronJob controller", window) as task:

        def synced(now: datetime) -> None:
            task.update(completed=(now - start).total_seconds(), note=format_time(now))

        result = simulate(cron_job, start, end, args.job_duration, args.job_fails, outages, gates=gates, on_sync=synced)
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
            },
        )
        return 0
    for entry in result.log:
        name = f" {entry.name}" if entry.name else ""
        print(f"{format_time(entry.at)}  {entry.what}{name}: {entry.why}")
    print(f"{created} created, {deleted} deleted, {result.syncs} syncs", file=sys.stdout)
    return 0
