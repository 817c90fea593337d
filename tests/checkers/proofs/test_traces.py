"""Counterexamples are real traces (jobmodel/checkers/proofs/traces.py): without an assumption a
proof's claim is broken by a run of the relation that `jobmodel replay` reproduces in the
executable model; a run the model does not follow is not reported as a counterexample."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from typing import Any

import attrs
import pytest
import z3

from jobmodel.adapters.upstream import UpstreamEngine
from jobmodel.checkers.proofs import indexed_proofs as ip
from jobmodel.checkers.proofs import job_proofs as jp
from jobmodel.checkers.proofs import job_relation as jr
from jobmodel.checkers.proofs import traces
from jobmodel.checkers.proofs.induction import Invariant, PathStep, Proof
from jobmodel.checkers.trace import run_moves, save_trace
from jobmodel.cli import main
from jobmodel.conformance.runner import run_files
from jobmodel.frozen import freeze
from jobmodel.invariants import catalogue as cat
from jobmodel.invariants.laws import Transition, Violation
from jobmodel.state import COMPLETE, SUCCESS_CRITERIA_MET, JobControllerTunables
from jobmodel.transitions import job_environment as env
from jobmodel.transitions.move import Move
from tests.checkers.configs import config, job_manifest
from tests.checkers.proofs.conftest import DROPPED
from tests.checkers.proofs.test_job_relation import one_more_pod

HERE = Path(__file__).parent


@pytest.mark.parametrize(
    ("proof", "assumption"), [(p, a) for p, a, _ in DROPPED], ids=lambda v: v if isinstance(v, str) else v.qualified_name
)
def test_replay_reproduces_the_counterexample(
    proof: Any, assumption: str, dropped_traces: dict[tuple[str, str], Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    narrowed, trace = dropped_traces[(proof.qualified_name, assumption)]
    path = tmp_path / "trace.json"
    save_trace(path, trace.config, trace.moves, trace.violation)
    assert main(["replay", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"violation reproduced: {proof.catalogue or proof.qualified_name}" in out
    assert json.loads(path.read_text())["config"]["impl"] == narrowed.system.impl


def test_a_counterexample_s_job_sets_only_the_optional_fields_its_run_needs(dropped_traces: dict[tuple[str, str], Any]) -> None:
    """The search counts the optional fields a Job sets in its size (traces.optional_fields_set):
    no counterexample carries an active deadline, a replacement, failure or success policy, or a
    suspend it does not use; failedIndexes need backoffLimitPerIndex."""
    needed = {"indexed/completed-and-failed-indexes-disjoint": {"backoffLimitPerIndex"}}
    required = {"parallelism", "backoffLimit", "template", "completions", "completionMode"}
    for (name, assumption), (_, trace) in dropped_traces.items():
        optional = set(trace.config.manifest["spec"]) - required
        assert optional == needed.get(name, set()), (name, assumption, optional)


def test_the_documented_stale_cache_over_creation_is_found(dropped_traces: dict[tuple[str, str], Any]) -> None:
    """docs/invariants.md: `sync-stale, expire-expectations, sync` over-creates."""
    _, trace = dropped_traces[("nonindexed/no-over-creation", "lag-covered")]
    assert [m.kind for m in trace.moves] == ["sync-stale", "expire-expectations", "sync"]
    assert trace.config.without_assumptions
    assert trace.config.impl == jp.MODEL_IMPL


def test_without_expectations_the_trace_runs_a_controller_without_them(dropped_traces: dict[tuple[str, str], Any]) -> None:
    _, trace = dropped_traces[("nonindexed/no-over-creation", "expectations")]
    assert trace.config.impl == jp.WITHOUT_EXPECTATIONS_IMPL
    assert not trace.config.without_assumptions  # the catalogue's assumption holds: the controller is at fault
    assert "expire-expectations" not in [m.kind for m in trace.moves]


def test_a_run_the_model_does_not_follow_is_no_counterexample() -> None:
    """A broken encoding breaks the claim with a run of its own, which the model does not make."""
    proof = next(p for p in jp.PROOFS if p.name == "no-over-creation")
    system = attrs.evolve(proof.system, moves={**proof.system.moves, "sync": one_more_pod}, search_moves=None)
    broken = attrs.evolve(proof, system=system)
    trace, reason = traces.find_trace(broken, traces.job_concretizer(), max_depth=4, deadline=time.perf_counter() + 300)  # a bound, not a speed target
    assert trace is None
    assert "does not follow" in reason


@pytest.mark.parametrize(
    ("kind", "arg"), [("fail_job", f"exit={traces.FAILURE_EXIT_CODES['fail-job']}@main"), ("ignored", f"exit={traces.FAILURE_EXIT_CODES['ignore']}@main")]
)
def test_a_run_failing_pods_by_the_pod_failure_policy_is_carried_out_in_the_model(kind: str, arg: str) -> None:
    """A claim that no pod ever matches a FailJob (an Ignore) rule is broken by a run of the
    relation whose Job has a podFailurePolicy; the trace fails a pod with the exit code of the
    trace policy's rule, and the claim is broken on the model's replayed run."""
    claim = Invariant(f"no-{kind}", "", lambda s: getattr(s, kind) == 0)
    proof = Proof(f"no-{kind}", jp.SYSTEM, claim)
    trace, reason = traces.find_trace(proof, traces.job_concretizer(), max_depth=4, deadline=time.perf_counter() + 300)  # a bound, not a speed target
    assert trace is not None, reason
    assert Move("fail", trace.moves[-1].pod, arg) == trace.moves[-1]
    assert trace.config.manifest["spec"]["podFailurePolicy"] == freeze(traces.POD_FAILURE_POLICY)


def test_a_run_restarting_containers_is_carried_out_in_the_model() -> None:
    """A claim that no container restarts is broken by a run of the relation whose Job has
    restartPolicy OnFailure; the trace's Job has it, a pod's container restarts in the model, and
    the claim is broken on the replayed run."""
    proof = Proof("no-restarts", jp.SYSTEM, Invariant("no-restarts", "", lambda s: s.restarts == 0))
    trace, reason = traces.find_trace(proof, traces.job_concretizer(), max_depth=4, deadline=time.perf_counter() + 300)  # a bound, not a speed target
    assert trace is not None, reason
    assert trace.config.manifest["spec"]["template"]["spec"]["restartPolicy"] == "OnFailure"
    assert trace.moves[-1].kind == "restart-container"


def test_a_failure_of_an_on_failure_run_is_an_eviction() -> None:
    """With restartPolicy OnFailure a failed container restarts in its pod: a `fail` of a searched
    run becomes the eviction of a running pod, which the environment has enabled."""
    spec = {"parallelism": 1, "backoff_limit": 1, "has_completions": False, "completions": 0, "suspended": False,
            "has_deadline": False, "on_failure": True}
    world = config(traces.job_manifest(spec), evictions=1).initial_world()
    for move in (Move("sync"), Move("start", f"{traces.JOB_NAME}-0")):
        world, _ = env.apply_move(world, move)
    (move,) = traces.job_moves_for(world, PathStep("fail", {"source": 0, "action": 0}, {}))
    assert move == Move("evict", f"{traces.JOB_NAME}-0") and move in env.enabled_moves(world)


def test_a_run_meeting_the_success_policy_is_carried_out_in_the_model() -> None:
    """A claim that no Indexed Job meets its successPolicy is broken by a run of the relation whose
    Job has one; the trace's policy is met once an index completed, as the relation's run has it,
    and the claim is broken on the model's replayed run."""
    proof = Proof("policy-never-met", ip.SYSTEM, Invariant("policy-never-met", "", lambda s: z3.Not(s.policy_met)))
    trace, reason = traces.find_trace(proof, traces.indexed_concretizer(), max_depth=5, deadline=time.perf_counter() + 300)  # a bound, not a speed target
    assert trace is not None, reason
    assert trace.config.manifest["spec"]["successPolicy"] == freeze(traces.SUCCESS_POLICY)
    assert trace.moves[-1].kind == "sync" and any(m.kind == "succeed" for m in trace.moves)


@pytest.mark.parametrize("policy", [False, True])
def test_a_failure_of_a_run_is_a_move_the_environment_can_make(policy: bool) -> None:
    """A `fail` of a searched run becomes a `fail` move the environment has enabled: with the
    trace's podFailurePolicy, the exit code of the rule of each action; without one, the default
    failure (the action is then always Count)."""
    spec = {"parallelism": 1, "backoff_limit": 1, "has_completions": False, "completions": 0, "suspended": False,
            "has_deadline": False, "replace_failed_only": policy, "pod_failure_policy": policy}
    world = config(traces.job_manifest(spec), failures=9).initial_world()
    for move in (Move("sync"), Move("start", f"{traces.JOB_NAME}-0")):
        world, _ = env.apply_move(world, move)
    for action in jr.POLICY_ACTIONS if policy else ("count",):
        step = PathStep("fail", {"source": 0, "action": jr.POLICY_ACTIONS.index(action)}, {})
        (move,) = traces.job_moves_for(world, step)
        assert move in env.enabled_moves(world), move
        assert move.arg == (f"exit={traces.FAILURE_EXIT_CODES[action]}@main" if policy else "")


def test_backoff_limit_after_success_criteria_met_is_not_a_violation(capsys: pytest.CaptureFixture[str]) -> None:
    """Found by the proof of backoff-limit-enforced: pods deleted after SuccessCriteriaMet count as
    failed, past backoffLimit, and the Job rightly completes; the catalogue now says so. (The run
    starts with 1.32's stale-cache over-creation, the one law 1.32 breaks there.)"""
    path = HERE / "traces" / "backoff-limit-after-success-criteria-met.json"
    main(["replay", str(path)])
    assert "violation reproduced: no-over-creation-on-stale-cache" in capsys.readouterr().out
    from jobmodel.checkers.trace import load_trace

    cfg, moves = load_trace(path)
    records = run_moves(cfg.system(), moves)
    assert {v.invariant for r in records for v in r.violations} == {"no-over-creation-on-stale-cache"}
    job = records[-1].world.job()
    assert job is not None
    assert cat.condition_true(job, SUCCESS_CRITERIA_MET) and not cat.condition_true(job, COMPLETE)
    assert job.status.failed > (job.spec.backoff_limit or 0)


def test_a_terminating_pod_counted_as_failed_that_succeeds_completes_the_job_short() -> None:
    """The counterexample of pod-counted-exactly-once without counted-failures-stay-failed, with one
    completion: upstream (v1.32 to v1.37) counts the pod in `uncountedTerminatedPods.failed` and
    then, once it succeeded, as a new success for `complete`: the Job completes with no succeeded
    pod. The catalogue accepts this known upstream bug under the same assumption; checked outside
    its assumptions it reports it, and the proof's claim, read on the run, is broken by the sync."""
    cfg = attrs.evolve(config(job_manifest(1, 1, 3), deletions=1, faults=1, symmetry=False))
    moves = [
        Move("sync"),
        Move("start", "j-0"),
        Move("delete-pod", "j-0"),
        Move("sync-pod-error"),  # lists the pod as failed; its finalizer stays
        Move("succeed", "j-0"),
        Move("sync"),
    ]
    system = cfg.system()
    records = run_moves(system, moves)
    job = records[-1].world.job()
    assert job is not None and cat.condition_true(job, COMPLETE)
    assert (job.status.succeeded, job.status.failed) == (0, 1)
    assert not any(r.violations for r in records)
    strict = run_moves(attrs.evolve(cfg, without_assumptions=True).system(), moves)
    assert [[v.invariant for v in r.violations] for r in strict] == [[]] * 5 + [["complete-meets-success-criteria"]]
    proof = next(p for p in jp.PROOFS if p.name == "pod-counted-exactly-once")
    worlds = [system.start(), *(r.world for r in records)]
    message = traces.claim_violation(proof, traces.job_concretizer(), worlds, moves)
    assert message is not None and message.startswith("pod-counted-exactly-once is broken by sync ("), message
    assert traces.claim_violation(proof, traces.job_concretizer(), worlds[:-1], moves[:-1]) is None


def test_the_proof_s_counterexample_is_the_known_upstream_bug_checked_outside_the_assumptions(
    dropped_traces: dict[tuple[str, str], Any],
) -> None:
    """The proof's counterexample runs into the known upstream bug (a sync sees a pod it listed as
    failed succeeded) and is saved to be checked outside the catalogue's assumptions, where that
    bug gets no excuse."""
    _, trace = dropped_traces[("nonindexed/pod-counted-exactly-once", "counted-failures-stay-failed")]
    assert trace.violation.invariant == "nonindexed/pod-counted-exactly-once"
    assert trace.config.without_assumptions
    system = trace.config.system()
    worlds = [system.start(), *(r.world for r in run_moves(system, trace.moves))]
    steps: list[cat.Transition] = [Transition(b, m, a) for b, m, a in zip(worlds, trace.moves, worlds[1:], strict=False)]
    assert any(cat.succeeded_yet_recorded_failed(t) for t in steps)


def test_indexed_findings_replay(dropped_traces: dict[tuple[str, str], Any]) -> None:
    """Without terminating-pods-do-not-succeed: a pod deleted while running is replaced at once
    (TerminatingOrFailed) and then succeeds: its replacement runs on a completed index; with
    backoffLimitPerIndex 0 the index is also failed, which the API server rejects (the catalogue's
    completed-and-failed-indexes-disjoint)."""
    _, over = dropped_traces[("indexed/no-over-creation", "terminating-pods-do-not-succeed")]
    assert over.violation.message.startswith("an active pod for completed index")
    _, overlap = dropped_traces[("indexed/completed-and-failed-indexes-disjoint", "terminating-pods-do-not-succeed")]
    assert overlap.violation.invariant == "completed-and-failed-indexes-disjoint"
    assert "both completed and failed" in overlap.violation.message


@pytest.mark.upstream
def test_the_findings_are_upstream_s_behaviour() -> None:
    """Both findings, as one syncJob each, give the same status in the model and in upstream's own
    syncJob (through harness/upstream), in the oldest and the newest release."""
    files = [HERE / "vectors" / "upstream-findings.json"]
    out = io.StringIO()
    for release in ("1.32", "1.37"):
        assert run_files(files, out, release=release) == (2, 0), out.getvalue()
        engine = UpstreamEngine(kube_version=release)  # a build failure fails the test with Go's output
        try:
            assert run_files(files, out, engine, release=release) == (2, 0), out.getvalue()
        finally:
            engine.close()


def test_with_backoff_limit_per_index_a_replacement_runs_on_a_completed_index_without_api_failures() -> None:
    """The pod deleted while running keeps its finalizer as its index's last failure (waiting for a
    replacement, which the same sync creates); when it then succeeds, its index completes under the
    running replacement, and the next sync that creates pods breaks no-over-creation."""
    manifest = job_manifest(2, 3, 6, indexed=True, backoffLimitPerIndex=1)
    cfg = attrs.evolve(
        config(manifest, deletions=1, failures=1, symmetry=False),
        tunables=JobControllerTunables(pod_failure_backoff_seconds=0.0),
    )
    moves = [
        Move("sync"),
        Move("start", "j-0"),
        Move("start", "j-1"),
        Move("delete-pod", "j-0"),
        Move("sync"),  # replaces index 0; j-0 keeps its finalizer
        Move("succeed", "j-0"),
        Move("start", "j-2"),
        Move("fail", "j-1"),
        Move("sync"),
    ]
    records = run_moves(cfg.system(), moves)
    assert all(not r.violations for r in records[:-1])
    assert [str(v) for v in records[-1].violations] == ["no-over-creation: an active pod for completed index 0"]


def test_the_trace_format_keeps_tunables_and_the_assumptions_switch(tmp_path: Path) -> None:
    from jobmodel.checkers.job import CheckConfig
    from jobmodel.checkers.trace import load_trace, recorded_violation

    cfg = attrs.evolve(
        config(job_manifest(1, 1, 0), stale=1),
        tunables=JobControllerTunables(max_uncounted_pods=2, pod_failure_backoff_seconds=0.0),
        without_assumptions=True,
    )
    path = tmp_path / "t.json"
    save_trace(path, cfg, [Move("sync")], Violation("no-over-creation", "x"))
    loaded, moves = load_trace(path)
    assert loaded == cfg and moves == [Move("sync")]
    assert recorded_violation(path) == Violation("no-over-creation", "x")
    # Defaults are left out of the file, so that older traces read the same.
    plain = config(job_manifest(1, 1, 0)).to_json()
    assert "tunables" not in plain and "without_assumptions" not in plain
    assert CheckConfig.from_json(plain) == config(job_manifest(1, 1, 0))


@pytest.mark.parametrize(
    ("tunables", "field"),
    [
        ({"max_uncounted": 2}, "config.tunables.max_uncounted"),
        ({"max_uncounted_pods": 0}, "config.tunables.max_uncounted_pods"),
        ({"pod_failure_backoff_seconds": -1}, "config.tunables.pod_failure_backoff_seconds"),
        ({"max_pod_create_delete_per_sync": True}, "config.tunables.max_pod_create_delete_per_sync"),
    ],
)
def test_bad_tunables_name_the_field(tunables: dict[str, Any], field: str) -> None:
    from jobmodel.checkers.job import CheckConfig
    from jobmodel.errors import InputError

    data = {**config(job_manifest(1, 1, 0)).to_json(), "tunables": tunables}
    with pytest.raises(InputError, match=field.replace(".", r"\.")):
        CheckConfig.from_json(data)
