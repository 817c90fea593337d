"""Differential test: jobmodel.schedule.cron against the real robfig/cron v3.0.1 (harness/robfig).

The Go harness is built with `go build` into harness/robfig/bin/ (git-ignored). Without Go or
the module the test fails with the tool's own error: it never passes silently. Both sides read
the same IANA data: the harness gets ZONEINFO = the `tzdata` package's zoneinfo directory, the
model loads its zones from there too, and TZ=UTC makes Go's time.Local UTC as the model assumes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from jobmodel.schedule.cron import CronParseError, parse_standard
from jobmodel.schedule.gotime import (
    Zone,
    from_unix,
    load_location,
    tzdata_zoneinfo_dir,
    unix_seconds,
)
from jobmodel.timeutil import GO_ZERO_TIME

HARNESS = Path(__file__).resolve().parents[2] / "harness" / "robfig"
STEPS = 6
EXAMPLES = 15_000 if os.environ.get("HYPOTHESIS_PROFILE") == "long" else 1500

# Zones with DST rules of every kind: northern and southern hemisphere, a half-hour DST shift
# (Lord_Howe), half-hour and 45-minute offsets (Kolkata, St_Johns, Kathmandu, Chatham), a zone
# that abolished DST (Sao_Paulo), negative DST in tzdata (Dublin, Casablanca), a two-hour DST
# shift (Troll), a zone that skipped a whole day (Apia, 2011), and UTC.
ZONES = (
    "America/New_York",
    "Europe/London",
    "Australia/Lord_Howe",
    "Asia/Kolkata",
    "Pacific/Chatham",
    "America/Sao_Paulo",
    "Europe/Dublin",
    "Australia/Sydney",
    "America/Santiago",
    "Asia/Tehran",
    "Asia/Kathmandu",
    "America/St_Johns",
    "Africa/Casablanca",
    "Pacific/Apia",
    "Antarctica/Troll",
    "UTC",
)


class Harness:
    """The running Go program: one JSON query per line, one JSON answer per line."""

    def __init__(self, binary: Path) -> None:
        env = dict(os.environ, ZONEINFO=str(tzdata_zoneinfo_dir()), TZ="UTC")
        self.proc = subprocess.Popen(
            [str(binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, bufsize=1
        )

    def ask(self, spec: str, unix: int, loc: str, steps: int = STEPS) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"spec": spec, "unix": unix, "loc": loc, "steps": steps}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            pytest.fail("the robfig harness exited")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def harness() -> Iterator[Harness]:
    go = shutil.which("go")
    if go is None:
        pytest.fail("`go` not found on PATH: the robfig differential test needs Go to build harness/robfig")
    binary = HARNESS / "bin" / "robfig"
    build = subprocess.run(
        [go, "build", "-buildvcs=false", "-o", str(binary), "."], cwd=HARNESS, capture_output=True, text=True, timeout=600
    )
    if build.returncode != 0:
        pytest.fail(f"go build of harness/robfig failed:\n{build.stderr}")
    running = Harness(binary)
    yield running
    running.close()


def model_answer(spec: str, unix: int, loc: str, steps: int = STEPS) -> dict[str, Any]:
    """What the model says, in the harness's answer shape."""
    try:
        schedule = parse_standard(spec)
    except CronParseError as err:
        return {"error": err.message}
    t: datetime = from_unix(unix, load_location(loc))
    out: list[int | None] = []
    for _ in range(steps):
        t = schedule.next(t)
        if t == GO_ZERO_TIME:
            out.append(None)
            break
        out.append(unix_seconds(t)[0])
    return {"next": out}


def check(harness: Harness, spec: str, unix: int, loc: str, record: bool = True) -> None:
    want = harness.ask(spec, unix, loc)
    got = model_answer(spec, unix, loc)
    if record:
        event("rejected" if "error" in want else ("never" if None in want["next"] else "accepted"))
    if "error" in want and want["error"].startswith("panic:"):
        assert "error" in got and "panics" in got["error"], (spec, want, got)
        return
    assert got == want, (spec, unix, loc)


# --- generated schedules --------------------------------------------------------------------

FIELD_BOUNDS = ((0, 59), (0, 23), (1, 31), (1, 12), (0, 6))
NAMES = ((), (), (), ("jan", "FEB", "Mar", "dec", "jun"), ("sun", "MON", "Fri", "sat", "thu"))


def number(lo: int, hi: int) -> st.SearchStrategy[str]:
    # Mostly in range, sometimes just outside it (7 as Sunday, 0 as a day, 60 as a minute).
    inside = st.integers(lo, hi).map(str)
    return st.one_of(inside, inside, inside, st.integers(max(lo - 1, 0), hi + 2).map(str))


def field_expr(index: int) -> st.SearchStrategy[str]:
    lo, hi = FIELD_BOUNDS[index]
    value = number(lo, hi) | (st.sampled_from(NAMES[index]) if NAMES[index] else number(lo, hi))
    step = st.sampled_from(["1", "2", "3", "5", "7", "13", "0", "40"])
    ordered = st.tuples(st.integers(lo, hi), st.integers(lo, hi)).map(lambda p: f"{min(p)}-{max(p)}")
    single = st.one_of(
        st.just("*"),
        st.just("?"),
        value,
        value,
        ordered,
        ordered.flatmap(lambda r: step.map(lambda s: f"{r}/{s}")),
        st.tuples(value, value).map(lambda p: f"{p[0]}-{p[1]}"),
        st.tuples(value, value, step).map(lambda p: f"{p[0]}-{p[1]}/{p[2]}"),
        step.map(lambda s: f"*/{s}"),
        st.tuples(value, step).map(lambda p: f"{p[0]}/{p[1]}"),
    )
    return st.lists(single, min_size=1, max_size=3).map(",".join)


def five_fields() -> st.SearchStrategy[str]:
    return st.tuples(*(field_expr(i) for i in range(5))).map(" ".join)


def valid_field(index: int) -> st.SearchStrategy[str]:
    lo, hi = FIELD_BOUNDS[index]
    step = st.integers(1, 13).map(str)
    ordered = st.tuples(st.integers(lo, hi), st.integers(lo, hi)).map(lambda p: f"{min(p)}-{max(p)}")
    single = st.one_of(
        st.just("*"),
        st.integers(lo, hi).map(str),
        ordered,
        st.tuples(ordered, step).map(lambda p: f"{p[0]}/{p[1]}"),
        step.map(lambda s: f"*/{s}"),
    )
    return st.lists(single, min_size=1, max_size=2).map(",".join)


def valid_five_fields() -> st.SearchStrategy[str]:
    return st.tuples(*(valid_field(i) for i in range(5))).map(" ".join)


ODD_SPECS = st.sampled_from(
    [
        "@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly",
        "@every 1h", "@every 90m", "@every 1.5h", "@every 500ms", "@every -1h", "@every 0",
        "@every 1h30m10.5s", "@every 2µs", "@every 1d", "@every", "@reboot", "@DAILY",
        "0 0 L * *", "0 0 15W * *", "0 0 * * 5#3", "0 0 * * 5L", "5-2 * * * *", "0 0 * * 7",
        "0 0 * * 5-7", "*-5 * * * *", "0 0 31 2 *", "0 0 30 2 *", "0 0 29 2 *", "1,,2 * * * *",
        "0 0 * * * *", "0 0 *", "*/0 * * * *", "+5 * * * *", "-5 * * * *", "0 0 1 1 * 2020",
        "TZ=UTC 0 * * * *", "CRON_TZ=Asia/Kolkata 30 2 * * *", "TZ=Nowhere/City 0 * * * *",
        "TZ=America/New_York", "TZ= 0 0 * * *", " 0 0 * * *", "0\t0 * * *", "0 0 * * *\u00a0",
        ", * * * *", "0 0 , * 1", "0 0 , * ,", "0 0 * * ,", "0 0 1 , *", "0 , * * *",
        "0 0 29 2 *", "0 0 29 2 1", "0 0 31 4,6,9,11 *", "0 0 31 */2 *", "@every 2562047h",
    ]
)

SPECS = st.one_of(five_fields(), valid_five_fields(), ODD_SPECS)


def transitions(zone_name: str) -> list[int]:
    """The zone's offset changes between 2019 and 2031 (found day by day, then bisected)."""
    zone = Zone(load_location(zone_name))
    start = unix_seconds(datetime.fromisoformat("2019-01-01T00:00:00+00:00"))[0]
    found: list[int] = []
    for day in range(12 * 366):
        lo, hi = start + day * 86400, start + (day + 1) * 86400
        if zone.offset(lo) != zone.offset(hi):
            while hi - lo > 1:
                mid = (lo + hi) // 2
                lo, hi = (mid, hi) if zone.offset(mid) == zone.offset(lo) else (lo, mid)
            found.append(hi)
    return found


TRANSITIONS = {name: transitions(name) for name in ZONES}


@st.composite
def instant_near_transition(draw: st.DrawFn) -> tuple[str, int]:
    zone = draw(st.sampled_from(ZONES))
    points = TRANSITIONS[zone]
    if not points:
        return zone, draw(st.integers(1_546_300_800, 1_924_992_000))
    base = draw(st.sampled_from(points))
    return zone, base + draw(st.integers(-3 * 86400, 3 * 86400))


def with_zone(zone: str, spec: str) -> str:
    return spec if zone == "UTC" or spec.startswith(("TZ=", "CRON_TZ=")) else f"TZ={zone} {spec}"


@settings(max_examples=EXAMPLES)
@given(spec=SPECS, when=instant_near_transition())
@example(spec="30 2 * * *", when=("America/New_York", 1710054000))  # the skipped 02:30
@example(spec="30 1 * * *", when=("America/New_York", 1730613600))  # the repeated 01:30
@example(spec="0 0 * * *", when=("Australia/Lord_Howe", 1712413800))  # half-hour DST end
def test_next_matches_robfig_in_zones(harness: Harness, spec: str, when: tuple[str, int]) -> None:
    zone, unix = when
    check(harness, with_zone(zone, spec), unix, "UTC")


@settings(max_examples=EXAMPLES)
@given(spec=SPECS, unix=st.integers(-3_000_000_000, 7_258_118_400))  # 1875 to 2200
def test_next_matches_robfig_in_utc(harness: Harness, spec: str, unix: int) -> None:
    check(harness, spec, unix, "UTC")


@settings(max_examples=EXAMPLES // 3)
@given(spec=st.one_of(five_fields(), valid_five_fields()), when=instant_near_transition())
def test_local_schedule_follows_the_time_zone_of_its_argument(harness: Harness, spec: str, when: tuple[str, int]) -> None:
    # A schedule without TZ= runs in time.Local, which robfig takes from the time given to Next.
    zone, unix = when
    check(harness, spec, unix, zone)


GO_ZERO_UNIX = -62135596800  # time.Time{}: the controller calls Next on it after an impossible date


@pytest.mark.parametrize("zone", ZONES)
@pytest.mark.parametrize("spec", ["0 * * * *", "30 2 * * *", "0 0 29 2 *", "59 23 31 2 *", "*/7 * * * 1", "@every 1h"])
def test_next_from_go_zero_time(harness: Harness, zone: str, spec: str) -> None:
    # (Only from UTC: a Python datetime cannot hold year 0, the zero time's local date west of
    # Greenwich, so a Local schedule cannot be given that start time in such a zone.)
    check(harness, with_zone(zone, spec), GO_ZERO_UNIX, "UTC", record=False)
