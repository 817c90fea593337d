"""`jobmodel prove`: every proof proved (CI runs this), one line per property, JSON output, and the
counterexample traces of dropped assumptions, which `jobmodel replay` reproduces."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from jobmodel.checkers.proofs import PROOF_RELEASES, suite
from jobmodel.cli import main
from jobmodel.features import SUPPORTED_MINORS
from tests.checkers.proofs.walks import WALK_RELEASES

LINE = re.compile(r"^(proved|counterexample|unknown)\s+(\S+)\s+(\d+\.\d\d)s")


@pytest.mark.parametrize("release", WALK_RELEASES)
def test_every_property_is_proved(release: str, capsys: pytest.CaptureFixture[str]) -> None:
    """At every release whose relations the walks check in this run (every release, the newest
    always, unless JOBMODEL_KUBE_VERSIONS says otherwise)."""
    assert main(["prove", "--kube-version", release]) == 0
    lines = capsys.readouterr().out.splitlines()
    names = [e.name for e in suite.entries(release)]
    found = [LINE.match(line) for line in lines[:-2]]
    assert all(found), lines
    assert lines[-2].startswith(f"not modelled at {release}, so not in the claims' runs: "), lines[-2]
    assert [m.group(2) for m in found if m] == names
    assert {m.group(1) for m in found if m} == {"proved"}
    assert re.fullmatch(rf"{len(names)} of {len(names)} proved at {re.escape(release)} in \d+\.\ds", lines[-1])
    # Every family: the single-sync arithmetic and the relations.
    assert {n.split("/")[0] for n in names} >= {"manage-job", "nonindexed"}


def test_the_default_release_is_the_newest(capsys: pytest.CaptureFixture[str]) -> None:
    """Without --kube-version the relations are the newest release's (whose whole run the test
    above makes)."""
    assert PROOF_RELEASES[-1] in WALK_RELEASES
    assert main(["prove", "--only", "indexed/success-policy"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith(f"1 of 1 proved at {PROOF_RELEASES[-1]} in ")


def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", "-o", "json", "--only", "nonindexed"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["proved"] == data["total"] == len(data["results"]) > 0
    first = data["results"][0]
    assert set(first) == {"property", "status", "seconds", "detail", "trace", "assumptions", "dropped", "catalogue"}
    by_name = {r["property"]: r for r in data["results"]}
    assert by_name["nonindexed/no-over-creation"]["assumptions"] == ["lag-covered", "expectations"]
    assert by_name["nonindexed/no-over-creation"]["catalogue"] == "no-over-creation"


def test_the_moves_outside_the_relations_are_named_by_release(capsys: pytest.CaptureFixture[str]) -> None:
    """A sync over an older Job status is in the relations only where the controller waits for its
    status writes (1.36+); the user's edits but of parallelism and suspend (seen at once or late) and
    the orphan worker are in none."""
    for release, stale_status_outside in (("1.35", True), ("1.37", False)):
        assert main(["prove", "-o", "json", "--only", "nonindexed/backoff", "--kube-version", release]) == 0
        outside = json.loads(capsys.readouterr().out)["movesNotModelled"]
        assert ("sync-stale-status" in outside) == stale_status_outside, release
        expected = {"edit of completions", "delete-job", "delete-job-stale", "orphan-cleanup", "start-stale"}
        assert expected <= set(outside), release
        assert not {"sync", "sync-stale", "restart", "succeed", "cache-catch-up", "edit", "edit-stale", "edit of parallelism", "edit of suspend", "pod-gc", "deadline-passes"} & set(outside), release
    assert main(["prove", "--only", "nonindexed/backoff", "--kube-version", "1.35"]) == 0
    line = capsys.readouterr().out.splitlines()[-2]
    assert "sync-stale-status" in line and "the pod moves seen late (*-stale)" in line and "start-stale" not in line
    assert "delete-job-stale" in line and "edit of completions" in line and "edit of suspend" not in line and "edit-stale" not in line


def test_dropping_an_assumption_gives_a_trace_that_replay_reproduces(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["prove", "--kube-version", "1.32", "--only", "nonindexed/no-over-creation", "--drop", "lag-covered"]
    assert main([*args, "--traces", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("counterexample  nonindexed/no-over-creation")
    assert "moves: sync-stale, expire-expectations, sync" in out
    assert out.splitlines()[-1].startswith("0 of 1 proved at 1.32 without lag-covered")
    (trace,) = tmp_path.iterdir()
    assert str(trace) in out
    assert main(["replay", str(trace)]) == 1
    assert "violation reproduced: no-over-creation" in capsys.readouterr().out


def test_json_names_the_trace(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["prove", "-o", "json", "--kube-version", "1.32", "--only", "nonindexed/no-over-creation"]
    assert main([*args, "--drop", "expectations", "--traces", str(tmp_path)]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["kubeVersion"] == "1.32"
    (result,) = data["results"]
    assert result["status"] == "counterexample"
    assert result["dropped"] == ["expectations"]
    assert Path(result["trace"]).parent == tmp_path
    # The trace names the controller without expectations; replay runs that controller.
    assert main(["replay", result["trace"]]) == 1
    assert "violation reproduced: no-over-creation" in capsys.readouterr().out


def test_at_1_37_the_consistency_store_covers_the_stale_cache(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The run that breaks no-over-creation at 1.32 without lag-covered (the expectations expire
    while the cache lags) does not exist at 1.37: the sync waits for the pods it created; so do
    the runs without expectations."""
    only = ["--only", "nonindexed/no-over-creation", "--only", "indexed/no-over-creation"]
    args = ["prove", *only, "--drop", "lag-covered", "--traces", str(tmp_path)]
    assert main([*args, "--kube-version", "1.37"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1].startswith("2 of 2 proved at 1.37 without lag-covered")
    assert main([*args, "--kube-version", "1.32"]) == 1
    assert "counterexample  nonindexed/no-over-creation" in capsys.readouterr().out
    # Nor does the controller need its expectations there: only its own creations are ever hidden.
    assert main([*args, "--drop", "expectations", "--kube-version", "1.37"]) == 0
    assert main([*args, "--drop", "expectations", "--kube-version", "1.32"]) == 1
    capsys.readouterr()


def test_every_supported_release_is_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    assert tuple(f"1.{m}" for m in SUPPORTED_MINORS) == PROOF_RELEASES
    for minor in SUPPORTED_MINORS:
        assert main(["prove", "--list", "--kube-version", f"1.{minor}"]) == 0
        assert "nonindexed/no-over-creation" in capsys.readouterr().out


@pytest.mark.parametrize("release", ["1.31", "1.38", "1.99", "two"])
def test_an_unsupported_release_is_refused(release: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", "--kube-version", release]) == 2
    err = capsys.readouterr()
    assert "--kube-version" in err.err
    assert len(err.err.strip().splitlines()) == 1 and "Traceback" not in err.err
    assert err.out == ""


def test_list_and_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", "--list"]) == 0
    out = capsys.readouterr().out
    assert "nonindexed/no-over-creation  (assumes lag-covered, expectations)" in out
    assert main(["prove", "--drop", "no-such-thing"]) == 2
    assert "--drop" in capsys.readouterr().err
    assert main(["prove", "--only", "no-such-property"]) == 2


def test_a_bad_traces_directory_fails_before_proving(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a_file = tmp_path / "out"
    a_file.write_text("")
    assert main(["prove", "--traces", str(a_file)]) == 2
    err = capsys.readouterr()
    assert "--traces" in err.err and "not a directory" in err.err
    assert err.out == ""
    assert main(["prove", "--traces", str(a_file / "below")]) == 2
    assert "--traces: cannot create" in capsys.readouterr().err


def test_without_z3_it_says_what_to_install() -> None:
    blocked = "import sys; sys.modules['z3'] = None; from jobmodel.cli import main; sys.exit(main(['prove']))"
    done = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert "jobmodel[check]" in done.stderr
    assert "Traceback" not in done.stderr


def test_only_picks_by_family_or_name() -> None:
    assert suite.selected("indexed/no-over-creation", ["indexed"])
    assert not suite.selected("nonindexed/no-over-creation", ["indexed"])
    assert suite.selected("nonindexed/no-over-creation", ["no-over"])
    assert suite.selected("manage-job/create-or-delete", [])


def test_a_counterexample_at_1_37_is_a_trace_of_1_37(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The trace records the release it was found at, and replay reproduces the proof's claim there."""
    args = ["prove", "--only", "nonindexed/pod-counted", "--drop", "counted-failures-stay-failed"]
    assert main([*args, "--kube-version", "1.37", "--traces", str(tmp_path)]) == 1
    capsys.readouterr()
    (trace,) = tmp_path.iterdir()
    assert json.loads(trace.read_text())["config"]["kubeVersion"] == "1.37"
    assert main(["replay", str(trace)]) == 1
    assert "violation reproduced: nonindexed/pod-counted-exactly-once" in capsys.readouterr().out


def test_a_longer_search_finds_the_run_a_short_one_runs_out_of_time_for(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """completed-and-failed-indexes-disjoint at 1.32 without lag-covered is broken only by a run of
    nine moves (the stale creation, then a duplicate pod of index 0 that fails while the other
    succeeds): a second of search ends `unknown`, naming the option; a longer search finds the run,
    and replay reproduces it."""
    args = ["prove", "--kube-version", "1.32", "--only", "indexed/completed-and-failed", "--drop", "lag-covered"]
    assert main([*args, "--search-seconds", "1"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("unknown  ") and "--search-seconds gives the search longer" in out
    assert main([*args, "--search-seconds", "600", "--traces", str(tmp_path)]) == 1  # a bound, not a speed target
    assert capsys.readouterr().out.startswith("counterexample  indexed/completed-and-failed-indexes-disjoint")
    (trace,) = tmp_path.iterdir()
    assert main(["replay", str(trace)]) == 1
    assert "violation reproduced: completed-and-failed-indexes-disjoint" in capsys.readouterr().out


@pytest.mark.parametrize("value", ["0", "-3", "nan", "inf", "soon"])
def test_a_search_time_that_is_no_positive_number_is_refused(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["prove", "--search-seconds", value])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "--search-seconds" in err and repr(value) in err
    assert "Traceback" not in err


def test_the_documented_default_search_time_is_the_suite_s(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["prove", "--help"])
    assert f"(default {suite.SEARCH_SECONDS:g})" in " ".join(capsys.readouterr().out.split())
