"""Bad input never crashes the tool: every command, fed malformed manifests, schedules, vectors,
scripts, protocol lines, traces and kubeconfigs, ends cleanly (exit 0, 1 or 2; an input error on
a line starting `error: `; never a traceback, an internal error or a hang).

Each surface is a Hypothesis test run in-process through `jobmodel.cli.main`, with a time limit
per input. The CI profile runs CI_EXAMPLES inputs per surface; the `long` profile runs each
surface's own count (`fuzz(N)`), 106,000 inputs in all:

    HYPOTHESIS_PROFILE=long nice .venv/bin/python -m pytest tests/commands/test_fuzz.py -s

(`-s` shows the count of inputs per surface at the end; JOBMODEL_FUZZ_EXAMPLES overrides every
count; JOBMODEL_FUZZ_PROGRESS=FILE writes the counts so far to FILE as they grow.) Every defect
found is kept below as an `@example` of its surface.

Runs of 2026-11-29 (nice, beside a long differential run on the other core): 1,000 inputs a
surface found two internal errors of `conformance` (a job-scenario case whose `job` or
`features` is no object; a validation vector whose expected error's `detail` is a list), both
fixed and kept below; then 1,500 a surface (19,578 inputs, 9 minutes) and the full long profile
(106,078 inputs, 32 minutes: validate 16,015, simulate 10,008, simulate --script 4,005, cron next
30,006, cron simulate 15,006, conformance 5,012, explore 4,004, replay 8,007, oracle serve 5,005,
live check 4,006, live run 2,002, conformance --engine 3,002) found nothing more.

2026-12-02, fuzzing the installed command out of process (about 116,000 runs, the inputs of
every surface above plus CronJob traces and `explore --start`): three internal errors, fixed and
kept in tests/commands/test_explore.py: a CronJob explored or replayed from a clock at the ends
of the datetime range (now `cron simulate`'s range, 1900 to 9000), and an `--impl` function that
returns no sync result or calls sys.exit (both now the implementation's failure, exit 2); the
two functions are among IMPLS here.

2026-12-02 (later), after `live run` and `conformance --engine live` began asking a cluster given
by kubeconfig its version: 800 inputs a surface (10,478) failed nothing, but a kubeconfig whose
server has no scheme (`127.0.0.1:6443`, which kubectl takes) printed urllib3's FutureWarning on
standard error; such an address is now read as client-go reads it
(tests/commands/test_live.py).
"""

from __future__ import annotations

import collections
import copy
import io
import json
import os
import signal
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import attrs
import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from jobmodel.cli import main
from tests.conftest import find_conformance_dir

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
# Inputs per surface: CI_EXAMPLES in CI; in the long profile each surface's own count (given to
# `fuzz`), more for the fast surfaces: 106,000 inputs in all (validate runs two per example).
CI_EXAMPLES = 50
EXAMPLES_OVERRIDE = os.environ.get("JOBMODEL_FUZZ_EXAMPLES")
# Seconds of CPU one input may take before it counts as a hang (CPU, not wall-clock, time: a
# run on a busy machine is not a hang).
TIME_LIMIT = float(os.environ.get("JOBMODEL_FUZZ_TIME_LIMIT", "15"))
# When set, the counts so far are written to this file every PROGRESS_EVERY inputs (a long run
# cut short still tells how far it got).
PROGRESS_FILE = os.environ.get("JOBMODEL_FUZZ_PROGRESS")
PROGRESS_EVERY = 250



def fuzz(long_examples: int) -> settings:
    """A surface's settings: `long_examples` inputs in the long profile, CI_EXAMPLES otherwise
    (JOBMODEL_FUZZ_EXAMPLES overrides both)."""
    examples = int(EXAMPLES_OVERRIDE) if EXAMPLES_OVERRIDE else long_examples if PROFILE == "long" else CI_EXAMPLES
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None if PROFILE == "ci" else settings().database,
    )

COUNTS: collections.Counter[str] = collections.Counter()


@pytest.fixture(scope="module", autouse=True)
def _report_counts() -> Iterator[None]:
    yield
    if COUNTS:
        total = sum(COUNTS.values())
        detail = ", ".join(f"{k} {v}" for k, v in sorted(COUNTS.items()))
        print(f"\nfuzzed inputs: {total} ({detail})")


# --- running the command line in-process, with a time limit -----------------------------------


class Hang(BaseException):
    """An input ran past TIME_LIMIT (a BaseException, so that no `except Exception` hides it)."""


@attrs.frozen
class Outcome:
    code: int
    out: str
    err: str


def _alarm(_signum: int, _frame: FrameType | None) -> None:
    raise Hang(f"no answer within {TIME_LIMIT}s of CPU")


def run(surface: str, argv: list[str], stdin: str = "") -> Outcome:
    """`jobmodel ARGV` in this process, its standard streams strict UTF-8 as a terminal's."""
    COUNTS[surface] += 1
    if PROGRESS_FILE and sum(COUNTS.values()) % PROGRESS_EVERY == 0:
        Path(PROGRESS_FILE).write_text(f"{sum(COUNTS.values())} {dict(COUNTS)}\n")
    out_b, err_b = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(out_b, encoding="utf-8", errors="strict", write_through=True)
    err = io.TextIOWrapper(err_b, encoding="utf-8", errors="strict", write_through=True)
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8", "surrogatepass")), encoding="utf-8")
    sys.stdout, sys.stderr = out, err
    previous = signal.signal(signal.SIGPROF, _alarm)
    signal.setitimer(signal.ITIMER_PROF, TIME_LIMIT)
    try:
        try:
            code = main(argv)
        except SystemExit as stop:  # argparse's usage errors
            code = stop.code if isinstance(stop.code, int) else 2
        except Hang as hang:
            # Hypothesis does not shrink a BaseException: say which input it was.
            raise Hang(f"{hang} on {argv!r}"[:3000]) from None
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
        sys.stdin, sys.stdout, sys.stderr = saved
    return Outcome(code, out_b.getvalue().decode(), err_b.getvalue().decode())


def assert_clean(outcome: Outcome) -> None:
    """A clean end: a finding or an input error at most, said in words."""
    assert "Traceback" not in outcome.err, outcome.err
    assert outcome.code in (0, 1, 2), outcome.err[-2000:]
    if outcome.code == 2:
        # The API server's warnings on an object created before the error come first.
        first = next((line for line in outcome.err.splitlines() if not line.startswith("Warning: ")), "")
        assert first.startswith(("error: ", "usage: ")), outcome.err


# --- malformed values -------------------------------------------------------------------------------

# Values that broke reading or arithmetic once, or sit at an edge.
EDGE_STRINGS = [
    "",
    "\ud800",
    "a\udfffb",
    "x" * 300,
    "0001-01-01T00:00:00+01:00",
    "9999-12-31T23:59:59-01:00",
    "0001-01-01T00:00:00Z",
    "9999-12-31T23:59:59Z",
    "2025-01-01T00:00:00Z",
    "Job",
    "CronJob",
    "List",
    "*/5 * * * *",
    "@every 0s",
    "@every 1s",
    "TZ=" + "A" * 300 + " * * * * *",
    "CRON_TZ=Europe/Berlin 0 0 * * *",
    "NaN",
    "-1",
    "1e999",
    "default",
    "../etc",
    ".relative:module",
]
EDGE_NUMBERS: list[Any] = [0, -1, 1, 2**31 - 1, 2**31, -(2**31) - 1, 2**63, 2**64, 10**30, 0.5, 1e308, -0.0]


def json_values() -> st.SearchStrategy[Any]:
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.floats(allow_nan=False, allow_infinity=False),
        st.sampled_from(EDGE_NUMBERS),
        st.text(max_size=20),
        st.sampled_from(EDGE_STRINGS),
    )
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=12), inner, max_size=4)
        ),
        max_leaves=12,
    )


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_paths(v, (*prefix, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(_paths(v, (*prefix, i)))
    return out


@st.composite
def mutated(draw: st.DrawFn, base: Any, max_edits: int = 3) -> Any:
    """`base` with a few values replaced, removed or added at random places."""
    doc = copy.deepcopy(base)
    for _ in range(draw(st.integers(0, max_edits))):
        path = draw(st.sampled_from(_paths(doc)))
        value = draw(json_values())
        if not path:
            if draw(st.booleans()):
                doc = value
            continue
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        op = draw(st.sampled_from(["replace", "remove", "add"]))
        if op == "replace":
            parent[path[-1]] = value
        elif op == "remove":
            del parent[path[-1]]
        elif isinstance(parent[path[-1]], dict):
            parent[path[-1]][draw(st.text(max_size=12))] = value
        elif isinstance(parent[path[-1]], list):
            parent[path[-1]].append(value)
    return doc


# Texts no mutation of a value reaches: nesting, alias bombs, numbers and times as YAML writes them.
ALIAS_BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(9)
)
EDGE_TEXTS = [
    "[" * 5000 + "]" * 5000,
    '{"a":' * 3000 + "1" + "}" * 3000,
    "a: " + "[" * 2000 + "]" * 2000,
    "- " * 300 + "x",
    ALIAS_BOMB,
    "&a [*a]",
    '{"kind": "Job", "spec": {"parallelism": ' + "1" * 5000 + "}}",
    "kind: Job\nspec:\n  parallelism: " + "1" * 5000 + "\n",
    "kind: Job\nmetadata:\n  creationTimestamp: 0001-01-01T00:00:00+01:00\n",
    "kind: Job\nmetadata:\n  creationTimestamp: 9999-12-31T23:59:59-01:00\n",
    '{"kind": "Job", "spec": {"parallelism": NaN}}',
    '{"kind": "Job", "spec": {"parallelism": 1e999}}',
    "kind: Job\nspec: {parallelism: .nan}\n",
    '{"kind": "\\ud800"}',
    'kind: "\\ud800"\n',
    "kind: !!binary aGVsbG8=\n",
    "? [a, b]\n: c\n",
    "\x00\x01",
    "kind: [Job]\n",
    "kind: {Job: 1}\n",
]


@st.composite
def documents(draw: st.DrawFn, base: Any) -> str:
    """A manifest's text: `base` mutated and written as JSON or YAML, or a text at an edge."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from(EDGE_TEXTS))
    doc = draw(mutated(base))
    if draw(st.booleans()):
        return json.dumps(doc)
    return yaml.safe_dump(doc, allow_unicode=True)


JOB: dict[str, Any] = {
    "apiVersion": "batch/v1",
    "kind": "Job",
    "metadata": {"name": "pi"},
    "spec": {
        "completions": 2,
        "parallelism": 2,
        "backoffLimit": 2,
        "completionMode": "Indexed",
        "template": {
            "spec": {"containers": [{"name": "pi", "image": "perl"}], "restartPolicy": "Never"}
        },
    },
}
CRON_JOB: dict[str, Any] = {
    "apiVersion": "batch/v1",
    "kind": "CronJob",
    "metadata": {"name": "tick"},
    "spec": {
        "schedule": "*/20 * * * *",
        "concurrencyPolicy": "Forbid",
        "jobTemplate": {
            "spec": {
                "template": {
                    "spec": {"containers": [{"name": "c", "image": "busybox"}], "restartPolicy": "OnFailure"}
                }
            }
        },
    },
}


def option_texts() -> st.SearchStrategy[str]:
    return st.one_of(st.text(max_size=30), st.sampled_from(EDGE_STRINGS))


def numbers_as_text() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(["nan", "inf", "-inf", "-1", "0", "1e308", "1" * 5000, "30", "0.001"]),
        st.floats().map(repr),
        st.integers().map(str),
    )


def _file(tmp: Path, name: str, text: str) -> str:
    path = tmp / name
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    return str(path)


@pytest.fixture(scope="module")
def tmp() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="jobmodel-fuzz-") as name:
        yield Path(name)


# --- the surfaces ---------------------------------------------------------------------------------------


@fuzz(8_000)
@given(text=documents(JOB) | documents(CRON_JOB), namespace=option_texts())
@example(text="kind: [Job]\n", namespace="default")
@example(text="[" * 5000 + "]" * 5000, namespace="default")
@example(text=ALIAS_BOMB, namespace="default")
@example(text='{"kind": "Job", "spec": {"parallelism": ' + "1" * 5000 + "}}", namespace="default")
@example(text="kind: Job\nmetadata:\n  creationTimestamp: 0001-01-01T00:00:00+01:00\n", namespace="default")
@example(text='{"kind": "\\ud800"}', namespace="default")
@example(text=json.dumps(JOB), namespace="\ud800")
def test_validate(tmp: Path, text: str, namespace: str) -> None:
    assert_clean(run("validate", ["validate", _file(tmp, "m.yaml", text), "-n", namespace]))
    assert_clean(run("validate", ["validate", "-", "-o", "json"], stdin=text))


@st.composite
def outcome_specs(draw: st.DrawFn) -> str:
    parts = draw(
        st.lists(
            st.one_of(
                st.sampled_from(["all", "index=1", "pod=0", "exit=42", "condition=DisruptionTarget", "times=2", "seconds=5"]),
                st.builds(lambda k, v: f"{k}={v}", st.sampled_from(["index", "pod", "exit", "times", "seconds", "x"]), numbers_as_text()),
                option_texts(),
            ),
            max_size=3,
        )
    )
    return ",".join(parts)


@fuzz(10_000)
@given(
    text=documents(JOB),
    fail=st.lists(outcome_specs(), max_size=2),
    slow=st.lists(outcome_specs(), max_size=1),
    run_seconds=numbers_as_text(),
    start=st.none() | option_texts(),
)
@example(text="\x00\x01", fail=[], slow=[], run_seconds="nan", start=None)
@example(text=json.dumps(JOB), fail=[], slow=[], run_seconds="nan", start=None)
@example(text=json.dumps(JOB), fail=[], slow=["all,seconds=nan"], run_seconds="30", start=None)
@example(text=json.dumps(JOB), fail=[], slow=["all,seconds=inf"], run_seconds="30", start=None)
@example(text=json.dumps(JOB), fail=["index=1,exit=" + "1" * 5000], slow=[], run_seconds="30", start=None)
@example(text=json.dumps(JOB), fail=[], slow=[], run_seconds="1e308", start=None)
@example(text=json.dumps(JOB), fail=[], slow=[], run_seconds="30", start="9999-12-31T23:59:59Z")
@example(text=json.dumps(JOB), fail=[], slow=[], run_seconds="30", start="0001-01-01T00:00:00+01:00")
def test_simulate(tmp: Path, text: str, fail: list[str], slow: list[str], run_seconds: str, start: str | None) -> None:
    argv = ["simulate", _file(tmp, "job.yaml", text), "--run-seconds", run_seconds]
    argv += [f"--fail={f}" for f in fail] + [f"--slow={s}" for s in slow]
    if start is not None:
        argv.append(f"--start={start}")
    assert_clean(run("simulate", argv))


def _scenario_cases() -> list[dict[str, Any]]:
    found = find_conformance_dir()
    if found is None:
        return []
    doc = json.loads((found / "job_scenario.json").read_text())
    return [c for c in doc["cases"] if isinstance(c.get("steps"), list)][:40]


SCENARIOS = _scenario_cases()
SCRIPT_BASE = SCENARIOS[0] if SCENARIOS else {"job": JOB, "steps": [{"do": "settle"}]}


@st.composite
def scripts(draw: st.DrawFn) -> tuple[dict[str, Any], Any]:
    """A job-scenario case's Job and its steps, mutated."""
    case = draw(st.sampled_from(SCENARIOS)) if SCENARIOS else SCRIPT_BASE
    steps = draw(mutated(case["steps"], 4))
    job = draw(mutated(case["job"], 1))
    return job, steps


@fuzz(4_000)
@given(script=scripts(), as_object=st.booleans())
@example(script=(SCRIPT_BASE["job"], [{"do": "advance", "seconds": float("nan")}]), as_object=False)
@example(script=(SCRIPT_BASE["job"], [{"do": "advance", "seconds": 1e300}]), as_object=False)
@example(script=(SCRIPT_BASE["job"], [{"do": "expect", "status": [1]}]), as_object=False)
@example(script=(SCRIPT_BASE["job"], [["settle"]]), as_object=False)
@example(script=(SCRIPT_BASE["job"], {"steps": 3}), as_object=False)
def test_simulate_script(tmp: Path, script: tuple[dict[str, Any], Any], as_object: bool) -> None:
    job, steps = script
    body = {"steps": steps} if as_object else steps
    script_text = yaml.safe_dump(body, allow_unicode=True) if not _has_nan(body) else json.dumps(body)
    argv = ["simulate", _file(tmp, "job.json", json.dumps(job)), "--script", _file(tmp, "s.yaml", script_text)]
    assert_clean(run("simulate --script", argv))


def _has_nan(value: Any) -> bool:
    try:
        json.dumps(value, allow_nan=False)
    except ValueError:
        return True
    return False


CRON_FIELDS = ["*", "*/5", "0", "59", "60", "1-5", "5-1", "1,2,3", "?", "L", "MON", "jan-dec", "*/0", "", "-1"]


@st.composite
def schedules(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return " ".join(draw(st.lists(st.sampled_from(CRON_FIELDS), min_size=0, max_size=7)))
    if kind == 1:
        return draw(st.sampled_from(["@hourly", "@daily", "@yearly", "@every 90m", "@every 0s", "@every -1s", "@every 1h", "@every 1000000h", "@reboot"]))
    if kind == 2:
        zone = draw(st.sampled_from(["Europe/Berlin", "America/New_York", "A" * 300, "../../etc/passwd", "", "UTC", "\ud800"]))
        return f"{draw(st.sampled_from(['TZ', 'CRON_TZ']))}={zone} 0 * * * *"
    return draw(option_texts())


@fuzz(30_000)
@given(
    schedule=schedules(),
    zone=st.none() | st.sampled_from(["Europe/Berlin", "A" * 300, "Etc/GMT+13", "/etc/passwd", "..", "\ud800", ""]) | st.text(max_size=20),
    start=st.none() | option_texts(),
    count=st.sampled_from(["1", "5", "0", "-1", "1000", "1001", "1" * 30]),
)
@example(schedule="@every 1000000h", zone=None, start=None, count="1000")
@example(schedule="0 0 * * *", zone="A" * 300, start=None, count="1")
@example(schedule="TZ=" + "A" * 300 + " 0 0 * * *", zone=None, start=None, count="1")
@example(schedule="0 0 * * *", zone=None, start="9999-12-31T23:59:59Z", count="5")
@example(schedule="0 0 * * *", zone=None, start="0001-01-01T00:00:00+01:00", count="5")
@example(schedule="\ud800", zone=None, start=None, count="1")
def test_cron_next(schedule: str, zone: str | None, start: str | None, count: str) -> None:
    argv = ["cron", "next", schedule, "-n", count]
    if zone is not None:
        argv.append(f"--time-zone={zone}")
    if start is not None:
        argv.append(f"--from={start}")
    assert_clean(run("cron next", argv))


@st.composite
def windows(draw: st.DrawFn) -> tuple[str, str]:
    if draw(st.integers(0, 4)) == 0:
        return draw(option_texts()), draw(option_texts())
    start = draw(st.integers(0, 10**9))
    length = draw(st.integers(-3600, 6 * 3600))
    from datetime import UTC, datetime, timedelta

    t0 = datetime(2000, 1, 1, tzinfo=UTC) + timedelta(seconds=start)
    t1 = t0 + timedelta(seconds=length)
    return t0.strftime("%Y-%m-%dT%H:%M:%SZ"), t1.strftime("%Y-%m-%dT%H:%M:%SZ")


@fuzz(15_000)
@given(
    text=documents(CRON_JOB),
    window=windows(),
    duration=numbers_as_text(),
    outage=st.none() | st.sampled_from(["", "x", "2000-01-01T00:00:00Z/1999-01-01T00:00:00Z"]) | st.builds("/".join, windows()),
    fails=st.booleans(),
)
@example(text=json.dumps(CRON_JOB), window=("2025-01-01T00:00:00Z", "2025-01-01T01:00:00Z"), duration="nan", outage=None, fails=False)
@example(text=json.dumps(CRON_JOB), window=("2025-01-01T00:00:00Z", "2025-01-01T01:00:00Z"), duration="inf", outage=None, fails=False)
@example(text=json.dumps(CRON_JOB), window=("2025-01-01T00:00:00Z", "2025-01-01T01:00:00Z"), duration="1e308", outage=None, fails=False)
@example(text=json.dumps(CRON_JOB), window=("9999-12-31T00:00:00Z", "9999-12-31T23:59:59Z"), duration="60", outage=None, fails=False)
@example(text=json.dumps(CRON_JOB).replace("*/20 * * * *", "TZ=" + "A" * 300 + " * * * * *"), window=("2025-01-01T00:00:00Z", "2025-01-01T01:00:00Z"), duration="60", outage=None, fails=False)
def test_cron_simulate(tmp: Path, text: str, window: tuple[str, str], duration: str, outage: str | None, fails: bool) -> None:
    argv = ["cron", "simulate", _file(tmp, "cj.yaml", text), f"--start={window[0]}", f"--end={window[1]}", f"--job-duration={duration}"]
    if outage is not None:
        argv.append(f"--outage={outage}")
    if fails:
        argv.append("--job-fails")
    assert_clean(run("cron simulate", argv))


def _vector_cases() -> list[tuple[str, dict[str, Any]]]:
    found = find_conformance_dir()
    if found is None:
        return [("validation", {"name": "x", "kind": "Job", "operation": "create", "object": JOB, "expect": {"valid": True}})]
    cases: list[tuple[str, dict[str, Any]]] = []
    for path in sorted(found.glob("*.json")):
        doc = json.loads(path.read_text())
        # A sample of each file; of the scenarios (slow; their steps are test_simulate_script's)
        # only the shortest few, for what a scenario case holds beside its steps.
        if doc["suite"] != "job-scenario":
            cases.extend((doc["suite"], c) for c in doc["cases"][:25])
        else:
            cases.extend((doc["suite"], c) for c in sorted(doc["cases"], key=lambda c: len(c["steps"]))[:5])
    return cases


VECTORS = _vector_cases()


@st.composite
def vector_files(draw: st.DrawFn) -> Any:
    suite, case = draw(st.sampled_from(VECTORS))
    doc = {"format": "jobmodel-conformance/1", "suite": suite, "cases": [case]}
    return draw(mutated(doc, 4))


@fuzz(5_000)
@given(doc=vector_files())
@example(doc={"format": "jobmodel-conformance/1", "suite": "job-sync", "cases": [{"now": "9999-12-31T23:59:59Z", "job": JOB, "expect": {}}]})
@example(doc={"format": "jobmodel-conformance/1", "suite": ["job-sync"], "cases": []})
@example(doc={"format": "jobmodel-conformance/1", "suite": "validation", "cases": [{"kind": "Job", "operation": "create", "object": JOB, "expect": {"valid": False, "errors": [None]}}]})
@example(doc={"format": "jobmodel-conformance/1", "suite": "validation", "cases": [{"kind": "Job", "operation": "create", "object": None, "expect": {"valid": True}}]})
@example(doc={"format": "jobmodel-conformance/1", "suite": "validation", "cases": [{"kind": "Job", "operation": "update", "subresource": "status", "object": JOB, "oldObject": JOB, "features": [1], "expect": {}}]})
@example(doc={"format": "jobmodel-conformance/1", "suite": "job-sync", "cases": [{"now": "2025-01-01T00:00:00Z", "job": JOB, "expect": {"statusSet": None, "status": None, "conditions": [None]}}]})
@example(doc={"format": "jobmodel-conformance/1", "suite": "cronjob-sync", "cases": [{"now": "2025-01-01T00:00:00Z", "cronJob": CRON_JOB, "expect": {"jobsCreated": [None], "status": None, "requeueAfterSeconds": "1"}}]})
@example(doc={"format": "jobmodel-conformance/1", "suite": "schedule", "cases": [{"schedule": "@every 1s", "now": "2025-01-01T00:00:00Z", "earliestTime": "0001-01-01T00:00:00Z", "expect": {}}]})
@example(doc={"format": "jobmodel-conformance/1", "suite": "validation", "cases": [{"kind": "Job", "operation": "create", "object": JOB, "expect": {"valid": False, "errors": [{"field": "metadata.namespace", "type": "FieldValueRequired", "detail": []}]}}]})
@example(doc={"format": "jobmodel-conformance/1", "suite": "job-scenario", "cases": [{"jobUid": "u", "start": "2025-01-01T00:00:00Z", "job": JOB, "steps": [{"do": "updateJob", "patch": {}, "errorsInclude": [{"field": 1}]}]}]})
@example(doc={"format": "jobmodel-conformance/1", "suite": "job-scenario", "cases": [{"jobUid": "u", "start": "2025-01-01T00:00:00Z", "job": "x", "steps": []}]})
@example(doc={"format": "jobmodel-conformance/1", "suite": "job-scenario", "cases": [{"jobUid": "u", "start": "2025-01-01T00:00:00Z", "job": JOB, "features": "x", "steps": []}]})
def test_conformance(tmp: Path, doc: Any) -> None:
    text = json.dumps(doc) if not _has_nan(doc) else "{}"
    outcome = run("conformance", ["conformance", _file(tmp, "v.json", text), _file(tmp, "empty.json", "{}")])
    assert_clean(outcome)
    # A bad file is reported among the results: the run still ends with its totals.
    assert outcome.out.splitlines()[-1].endswith(" failed"), outcome.out


IMPLS = ["jobmodel.transitions.sync_job:sync_job", ".relative:f", "..x:y", "os:getcwd", "builtins:print", "sys:exit", "nosuchmodule:f", "a b:c", ":", "x:", "\ud800:f"]


@fuzz(4_000)
@given(
    text=documents(JOB) | documents(CRON_JOB),
    # Depth 2 of a Job whose parallelism the mutation made huge is half a million moves: slow by
    # nature (the exploration is exhaustive), so the fuzzing stays at depth 1.
    depth=st.sampled_from(["0", "1", "-1", "1" * 30]),
    budget=st.sampled_from(["--failures", "--evictions", "--ticks", "--crashes", "--restarts"]),
    amount=st.sampled_from(["0", "1", "-1", "1" * 30]),
    impl=st.none() | st.sampled_from(IMPLS) | option_texts(),
    edit=st.none() | st.sampled_from(["parallelism=3", "completions=" + "9" * 5000, "suspend=maybe", "parallelism=١", "x=1"]) | option_texts(),
)
@example(text=json.dumps(JOB), depth="2", budget="--failures", amount="1", impl=None, edit="parallelism=3")
@example(text=json.dumps(JOB), depth="1", budget="--failures", amount="0", impl=".relative:f", edit=None)
@example(text=json.dumps(JOB), depth="1", budget="--failures", amount="0", impl=None, edit="completions=" + "9" * 5000)
@example(text=json.dumps(JOB), depth="1", budget="--failures", amount="0", impl=None, edit="parallelism=١")
def test_explore(tmp: Path, text: str, depth: str, budget: str, amount: str, impl: str | None, edit: str | None) -> None:
    argv = ["explore", _file(tmp, "m.yaml", text), "--depth", depth, f"{budget}={amount}", "--save", str(tmp / "t.json")]
    if impl is not None:
        argv.append(f"--impl={impl}")
    if edit is not None:
        argv.append(f"--edit={edit}")
    assert_clean(run("explore", argv))


def _base_trace() -> dict[str, Any]:
    from jobmodel.checkers.job import CheckConfig
    from jobmodel.checkers.trace import trace_to_json
    from jobmodel.frozen import freeze
    from jobmodel.transitions import job_environment as env

    config = CheckConfig(manifest=freeze({**JOB, "metadata": {"name": "pi", "namespace": "default"}}), budget=env.Budget(failures=1))
    system = config.system()
    world, moves = system.start(), []
    for _ in range(4):
        move = system.enabled_moves(world)[-1]
        world, _t, _v = system.step(world, move)
        moves.append(move)
    return trace_to_json(config, moves, None)


TRACE = _base_trace()


@fuzz(8_000)
@given(trace=mutated(TRACE, 3), impl=st.none() | st.sampled_from(IMPLS))
@example(trace={**TRACE, "moves": 3}, impl=None)
@example(trace={**TRACE, "config": {**TRACE["config"], "features": [1]}}, impl=None)
@example(trace={**TRACE, "config": {**TRACE["config"], "budget": "x"}}, impl=None)
@example(trace={**TRACE, "config": {**TRACE["config"], "impl": ".relative:f"}}, impl=None)
@example(trace={**TRACE, "config": {**TRACE["config"], "start": "9999-12-31T23:59:59Z"}}, impl=None)
@example(trace=TRACE, impl="..x:y")
def test_replay(tmp: Path, trace: Any, impl: str | None) -> None:
    text = json.dumps(trace) if not _has_nan(trace) else "{}"
    argv = ["replay", _file(tmp, "t.json", text)]
    if impl is not None:
        argv.append(f"--impl={impl}")
    assert_clean(run("replay", argv))


def test_the_base_inputs_are_good(tmp: Path) -> None:
    """The mutations start from inputs every command takes: a failure is then the mutation's."""
    checks: list[tuple[str, list[str], Callable[[Outcome], bool]]] = [
        ("validate", ["validate", _file(tmp, "j.json", json.dumps(JOB)), _file(tmp, "c.json", json.dumps(CRON_JOB))], lambda o: o.code == 0),
        ("simulate", ["simulate", _file(tmp, "j.json", json.dumps(JOB))], lambda o: o.code == 0),
        ("cron simulate", ["cron", "simulate", _file(tmp, "c.json", json.dumps(CRON_JOB)), "--start=2025-01-01T00:00:00Z", "--end=2025-01-01T02:00:00Z"], lambda o: o.code == 0),
        ("replay", ["replay", _file(tmp, "t.json", json.dumps(TRACE))], lambda o: o.code == 0),
    ]
    for surface, argv, good in checks:
        outcome = run(surface, argv)
        assert good(outcome), (surface, outcome.err)


# --- the oracle protocol, the live adapter, conformance engines -----------------------------------


def _requests() -> list[dict[str, Any]]:
    from jobmodel.adapters import protocol

    return [protocol.request(i, suite, case) for i, (suite, case) in enumerate(VECTORS) if suite in protocol.SUITES]


REQUESTS = _requests()


@st.composite
def request_lines(draw: st.DrawFn) -> str:
    """One line of the oracle protocol's input: a request mutated, or a text at an edge."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from(EDGE_TEXTS)).replace("\n", " ")
    value = draw(mutated(draw(st.sampled_from(REQUESTS)), 4))
    return json.dumps(value) if not _has_nan(value) else "{}"


@fuzz(5_000)
@given(lines=st.lists(request_lines(), min_size=1, max_size=3), gates=st.none() | st.sampled_from(["JobManagedBy=false", "x=1", "JobManagedBy=maybe"]) | option_texts())
@example(lines=["[" * 5000 + "]" * 5000], gates=None)
@example(lines=[json.dumps({"id": 1, "suite": "defaulting", "case": {"kind": "Job", "object": JOB, "features": [1]}})], gates="JobManagedBy=false")
@example(lines=['{"id": 1, "suite": "job-sync", "case": {"now": "\\ud800"}}'], gates=None)
@example(lines=["x"], gates="NoSuchGate=true")
@example(lines=[json.dumps({"id": 0, "suite": "cronjob-sync", "case": {"now": "2016-05-19T09:59:00Z", "cronJob": {"spec": {"jobTemplate": {"spec": {"template": {"spec": {"containers": [{"r\u0085\u2028": None}]}}}}}}, "jobs": []}})], gates=None)
def test_oracle_serve(lines: list[str], gates: str | None) -> None:
    argv = ["oracle", "serve"] + ([f"--feature-gates={gates}"] if gates is not None else [])
    outcome = run("oracle serve", argv, stdin="\n".join(lines) + "\n")
    assert_clean(outcome)
    if outcome.code == 0:
        # The handshake, then one answer per request, each a JSON line.
        # Lines end at "\n" only: a JSON string may hold U+2028 or U+0085, which splitlines splits at.
        answers = [json.loads(line) for line in outcome.out.split("\n") if line]
        assert len(answers) == 1 + sum(1 for line in lines if line.strip()), outcome.out


def _live_trace() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    from tests.checkers.test_live_trace import ACTORS, RUN, model_run, trace_of

    return trace_of(model_run(RUN), [ACTORS[m] for m in RUN])


LIVE_TRACE = _live_trace()


@fuzz(4_000)
@given(trace=mutated({"header": LIVE_TRACE[0], "records": LIVE_TRACE[1]}, 3), cut=st.booleans())
@example(trace={"header": {**LIVE_TRACE[0], "started": "9999-12-31T23:59:59Z"}, "records": LIVE_TRACE[1]}, cut=False)
@example(trace={"header": {**LIVE_TRACE[0], "controller": [1]}, "records": LIVE_TRACE[1]}, cut=False)
@example(trace={"header": LIVE_TRACE[0], "records": [{**LIVE_TRACE[1][0], "t": "1"}]}, cut=False)
@example(trace={"header": LIVE_TRACE[0], "records": [{**LIVE_TRACE[1][0], "object": [1]}]}, cut=False)
@example(trace={"header": LIVE_TRACE[0], "records": LIVE_TRACE[1]}, cut=True)
@example(trace={"header": LIVE_TRACE[0], "records": [{**LIVE_TRACE[1][0], "object": {}}]}, cut=False)
def test_live_check(tmp: Path, trace: Any, cut: bool) -> None:
    """`live check` of a trace file: malformed lines, fields of the wrong shape, a last line cut
    short by a kill."""
    if isinstance(trace, dict) and isinstance(trace.get("records"), list):
        lines = [trace.get("header"), *trace["records"]]
    else:
        lines = [trace]
    text = "".join((json.dumps(line) if not _has_nan(line) else "{}") + "\n" for line in lines)
    if cut:
        text = text[: len(text) * 2 // 3]
    assert_clean(run("live check", ["live", "check", _file(tmp, "t.jsonl", text)]))


KUBECONFIG: dict[str, Any] = {
    "apiVersion": "v1",
    "kind": "Config",
    "clusters": [{"name": "c", "cluster": {"server": "https://127.0.0.1:1", "insecure-skip-tls-verify": True}}],
    "users": [{"name": "u", "user": {"token": "x"}}],
    "contexts": [{"name": "x", "context": {"cluster": "c", "user": "u"}}],
    "current-context": "x",
}


def mostly(good: Any, bad: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """`good` three times in four, else a drawn bad value: one surface's input broken at a time
    gets past the others' checks."""
    return st.one_of(st.just(good), st.just(good), st.just(good), bad)


@fuzz(2_000)
@given(
    text=mostly(json.dumps(JOB), documents(JOB)),
    kubeconfig=mostly(json.dumps(KUBECONFIG), documents(KUBECONFIG)),
    option=st.sampled_from(["--run-seconds", "--timeout", "--give-up"]),
    seconds=mostly("1", numbers_as_text()),
    fail=st.lists(outcome_specs(), max_size=1),
)
@example(text=json.dumps(JOB), kubeconfig="clusters: [", option="--timeout", seconds="nan", fail=[])
@example(text=json.dumps(JOB), kubeconfig=json.dumps(KUBECONFIG), option="--give-up", seconds="0", fail=[])
def test_live_run(tmp: Path, text: str, kubeconfig: str, option: str, seconds: str, fail: list[str]) -> None:
    """`live run` against a cluster that is not there (a closed port on 127.0.0.1, or a malformed
    kubeconfig): one clear line, never a traceback; a control plane is never started."""
    argv = ["live", "run", _file(tmp, "job.yaml", text), "--kubeconfig", _file(tmp, "kc.yaml", kubeconfig)]
    argv += [f"{option}={seconds}", "--give-up=0", "--trace", str(tmp / "live.trace.jsonl")]
    argv += [f"--fail={f}" for f in fail]
    assert_clean(run("live run", argv))


ENGINES = [
    "cmd:/no/such/program",
    f"cmd:{sys.executable} -c pass",
    f"cmd:{sys.executable} -c \"print('hello')\"",
    f"cmd:{sys.executable} -c \"print('{{}}')\"",
    "cmd:",
    "cmd:'unclosed",
    "nosuchengine",
]


@fuzz(3_000)
@given(doc=vector_files(), engine=st.sampled_from(ENGINES), timeout=mostly("5", st.sampled_from(["nan", "-1", "0", "1e308"])))
@example(doc={"format": "jobmodel-conformance/1", "suite": "validation", "cases": []}, engine="cmd:'unclosed", timeout="5")
@example(doc={"format": "jobmodel-conformance/1", "suite": "validation", "cases": []}, engine="cmd:", timeout="nan")
def test_conformance_engines(tmp: Path, doc: Any, engine: str, timeout: str) -> None:
    """Vectors through implementations that cannot be started or break the protocol: each case
    fails naming the engine, the run ends with its totals."""
    text = json.dumps(doc) if not _has_nan(doc) else "{}"
    outcome = run("conformance --engine", ["conformance", _file(tmp, "v.json", text), f"--engine={engine}", f"--timeout={timeout}", "--junit", str(tmp / "j.xml")])
    assert_clean(outcome)
