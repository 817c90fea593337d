"""Generated `job-scenario` cases (FORMAT.md) whose expectations are the model's own predictions:
a small Job, then a few moves of the world around it (pods started, made ready, succeeding,
failing with an exit code or a disruption, deleted running or finished; time passing; the Job
suspended, resumed, scaled, and at last now and then deleted, with or without a garbage
collector, and created again once gone), each followed by `settle` and by an `expect` step
stating what the model holds then (`jobmodel.simulation.scenario.predicted_expect`). Run on
another cluster (the real control plane: `conformance --engine live`,
tests/differential/test_live_scenarios.py), a failing expectation is a difference between the
model and that cluster.

The moves are drawn from the model's state as the case is built, so each applies (a pod to fail
is one that runs), and the case is one a cluster whose clock runs on can be held to: a case whose
model outcome changes when a settle takes a few real seconds (it ends inside a back-off window)
is not drawn (`live_scenario.model_variant_reason`).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from hypothesis import assume, reject
from hypothesis import strategies as st

from jobmodel.errors import InputError
from jobmodel.simulation.scenario import (
    ScenarioState,
    StepFailed,
    initial_state,
    job_pods,
    predicted_expect,
    run_step,
)
from jobmodel.state import JOB_COMPLETION_INDEX_ANNOTATION
from jobmodel.timeutil import format_time

SCENARIO_START = "2024-06-01T12:00:00Z"
SCENARIO_JOB_UID = "6c3f8a52-2b9e-4a4e-9d7c-0a1b2c3d4e5f"
SCENARIO_REPLACEMENT_UID = "7d4a9b63-3caf-4b5f-8e8d-1b2c3d4e5f60"
CONTAINER = "c"
# Exit codes the generated pod failure policies name (FailJob, FailIndex, Ignore); others count.
FAIL_JOB_EXIT_CODE, FAIL_INDEX_EXIT_CODE, IGNORED_EXIT_CODE, COUNTED_EXIT_CODE = 42, 44, 43, 1
# Real seconds a generated case waits in all its `advance` steps, at most (a live run waits them).
MAX_ADVANCE_TOTAL = 90
ADVANCES = (5, 15, 30, 65)


@st.composite
def scenario_jobs(draw: st.DrawFn) -> dict[str, Any]:
    """A small Job of one container, NonIndexed or Indexed, with the policies that change what a
    pod's end does: a back-off limit (per index, for Indexed Jobs), a pod failure policy on exit
    codes and disruptions, a success policy, a pod replacement policy."""
    indexed = draw(st.booleans())
    completions = draw(st.integers(1, 4))
    spec: dict[str, Any] = {
        "completions": completions,
        "parallelism": draw(st.integers(1, 3)),
        "backoffLimit": draw(st.integers(0, 3)),
        "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": CONTAINER, "image": "busybox"}]}},
    }
    if indexed:
        spec["completionMode"] = "Indexed"
        if draw(st.booleans()):
            spec["backoffLimitPerIndex"] = draw(st.integers(0, 2))
            if draw(st.booleans()):
                spec["maxFailedIndexes"] = draw(st.integers(0, completions))
        if draw(st.integers(0, 3)) == 0:
            every = "0" if completions == 1 else f"0-{completions - 1}"  # "0-0" is refused (x >= y)
            rule = draw(st.sampled_from([{"succeededIndexes": "0"}, {"succeededCount": 1}, {"succeededIndexes": every, "succeededCount": completions}]))
            spec["successPolicy"] = {"rules": [rule]}
    failure_policy = draw(st.booleans())
    if failure_policy:
        rules: list[dict[str, Any]] = [
            {"action": "FailJob", "onExitCodes": {"containerName": CONTAINER, "operator": "In", "values": [FAIL_JOB_EXIT_CODE]}},
            {"action": "Ignore", "onExitCodes": {"operator": "In", "values": [IGNORED_EXIT_CODE]}},
            {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget"}]},
        ]
        if "backoffLimitPerIndex" in spec and draw(st.booleans()):
            rules.insert(0, {"action": "FailIndex", "onExitCodes": {"operator": "In", "values": [FAIL_INDEX_EXIT_CODE]}})
        spec["podFailurePolicy"] = {"rules": draw(st.permutations(rules))}
    # TerminatingOrFailed is refused beside a pod failure policy; Failed is taken by any Job.
    replacement = draw(st.sampled_from([None, "Failed"] if failure_policy else [None, "Failed", "TerminatingOrFailed"]))
    if replacement is not None:
        spec["podReplacementPolicy"] = replacement
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "work", "namespace": "default"}, "spec": spec}


def _ended_status(state: ScenarioState, phase: str, exit_code: int) -> dict[str, Any]:
    """A pod's status once its container exited, at the scenario's clock."""
    terminated = {"exitCode": exit_code, "finishedAt": format_time(state.cluster.now)}
    return {"phase": phase, "containerStatuses": [{"name": CONTAINER, "state": {"terminated": terminated}}]}


@st.composite
def scenario_moves(draw: st.DrawFn, state: ScenarioState, advanced: int) -> dict[str, Any]:
    """One move of the world around the Job, drawn from what applies in `state`."""
    job = state.job()
    pods = job_pods(state)
    running = [p for p in pods if p.phase in ("Pending", "Running") and p.metadata.deletion_timestamp is None]
    kinds = ["advance"] if advanced + min(ADVANCES) <= MAX_ADVANCE_TOTAL else []
    kinds += ["pod"] * 4 + ["delete"] if running else []
    kinds += ["collect"] if any(p.phase in ("Succeeded", "Failed") for p in pods) else []
    kinds += ["suspend"] if job is not None else []
    kinds += ["scale"] if job is not None and job.spec.completion_mode != "Indexed" else []
    if not kinds:
        return {"do": "advance", "seconds": 0}
    kind = draw(st.sampled_from(kinds))
    if kind == "advance":
        return {"do": "advance", "seconds": draw(st.sampled_from(ADVANCES).filter(lambda s: advanced + s <= MAX_ADVANCE_TOTAL))}
    if kind == "suspend":
        assert job is not None
        return {"do": "updateJob", "patch": {"spec": {"suspend": not job.spec.suspend}}}
    if kind == "scale":
        return {"do": "updateJob", "patch": {"spec": {"parallelism": draw(st.integers(0, 3))}}}
    if kind == "collect":  # a finished pod deleted, as the pod garbage collector does
        return {"do": "deletePods", "where": {"phase": ["Succeeded", "Failed"]}, "count": 1}
    where: dict[str, Any] = {"phase": ["Pending", "Running"], "terminating": False}
    indexes = sorted({int(ix) for p in running if (ix := p.metadata.annotations.get(JOB_COMPLETION_INDEX_ANNOTATION)) is not None})
    if indexes:  # an Indexed Job's: the pod of one index; else the first running pod
        where["index"] = draw(st.sampled_from(indexes))
    if kind == "delete":
        return {"do": "deletePods", "where": where, "count": 1}
    succeeded = _ended_status(state, "Succeeded", 0)
    status = draw(
        st.sampled_from(
            [
                {"phase": "Running"},
                {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]},
                succeeded,
                succeeded,  # three times as likely: a Job must get to complete within a few moves
                succeeded,
                _ended_status(state, "Failed", COUNTED_EXIT_CODE),
                _ended_status(state, "Failed", FAIL_JOB_EXIT_CODE),
                _ended_status(state, "Failed", FAIL_INDEX_EXIT_CODE),
                _ended_status(state, "Failed", IGNORED_EXIT_CODE),
                {"phase": "Failed", "conditions": [{"type": "DisruptionTarget", "status": "True"}]},
            ]
        )
    )
    return {"do": "setPods", "where": where, "count": 1, "status": status}


@st.composite
def scenario_cases(draw: st.DrawFn, max_moves: int = 6, release: str | None = None) -> dict[str, Any]:
    """A `job-scenario` case of `release` (the vectors' default when None): a generated Job,
    settled, then up to `max_moves` moves, each followed by `settle` and the model's predicted
    `expect`."""
    from jobmodel.simulation.live_scenario import model_variant_reason  # the live side's own check

    job = draw(scenario_jobs())
    case: dict[str, Any] = {"name": "generated", "origin": "jobmodel.strategies.scenario", "start": SCENARIO_START, "job": job, "jobUid": SCENARIO_JOB_UID}
    if release is not None:
        case["kubeVersion"] = release
    if draw(st.integers(0, 3)) == 0:
        case["garbageCollector"] = True
    state = initial_state(case)
    steps: list[dict[str, Any]] = []

    def settle_and_expect(state: ScenarioState) -> ScenarioState:
        state = run_step(state, {"do": "settle"}, "settle").state
        steps.extend([{"do": "settle"}, predicted_expect(state)])
        return state

    state = settle_and_expect(state)
    advanced = 0
    for _ in range(draw(st.integers(1, max_moves))):
        move = draw(scenario_moves(state, advanced))
        advanced += move.get("seconds", 0)
        steps.append(move)
        outcome = run_step(state, move, f"steps[{len(steps) - 1}]")
        assume(not outcome.differences)  # an update the API server refuses: nothing to compare
        state = settle_and_expect(outcome.state)
    if draw(st.integers(0, 3)) == 0:
        # The Job deleted at last, its dependents left to the garbage collector, if any.
        move = {"do": "deleteJob", "propagationPolicy": draw(st.sampled_from(["Orphan", "Background", "Foreground"]))}
        steps.append(move)
        state = settle_and_expect(run_step(state, move, f"steps[{len(steps) - 1}]").state)
        if state.job() is None and draw(st.booleans()):
            # Created again once gone, as upstream's recreation tests do: the replacement starts
            # from what the controller keeps of the first; the first's pods stay as left.
            move = {"do": "createJob", "job": job, "jobUid": SCENARIO_REPLACEMENT_UID}
            steps.append(move)
            state = settle_and_expect(run_step(state, move, f"steps[{len(steps) - 1}]").state)
            if draw(st.booleans()):
                move = draw(scenario_moves(state, advanced))
                steps.append(move)
                outcome = run_step(state, move, f"steps[{len(steps) - 1}]")
                assume(not outcome.differences)
                state = settle_and_expect(outcome.state)
    case["steps"] = steps
    assume(model_variant_reason(case) is None)
    return case


# Job spec fields a vector may take from another vector's Job (the template and selector stay).
GRAFTED_SPEC_FIELDS = (
    "completions", "parallelism", "backoffLimit", "backoffLimitPerIndex", "maxFailedIndexes", "completionMode",
    "podFailurePolicy", "successPolicy", "podReplacementPolicy", "activeDeadlineSeconds", "suspend",
)


@st.composite
def mutated_scenario_cases(draw: st.DrawFn, vectors: Sequence[Mapping[str, Any]], release: str) -> dict[str, Any]:
    """A `job-scenario` vector (upstream's integration tests, as the conformance files state them)
    at `release`, changed a little: its Job given a field of another vector's Job (a policy, a
    limit, the completion mode), one of its numbers changed, a step other than an `expect` dropped,
    or the exit code a `setPods` step gives changed; its own expectations replaced by the model's
    predictions after each settle (`predicted_expect`). Drawn only where every step applies in the
    model and a control plane of `release` runs the case faithfully (`unsupported_reason`)."""
    from jobmodel.conformance.suites import case_at_release
    from jobmodel.simulation.live_scenario import unsupported_reason

    vector = draw(st.sampled_from(list(vectors)))
    case = case_at_release(copy.deepcopy(dict(vector)), release)
    case["name"] = f"mutated: {vector.get('name')}"
    spec = case["job"].setdefault("spec", {})
    steps = [dict(s) for s in case.get("steps") or [] if s.get("do") != "expect"]
    for _ in range(draw(st.integers(1, 2))):
        kind = draw(st.sampled_from(["graft", "graft", "number", "drop step", "exit code"]))
        if kind == "graft":
            donor = (draw(st.sampled_from(list(vectors)))["job"].get("spec") or {})
            fields = [f for f in GRAFTED_SPEC_FIELDS if f in donor]
            if fields:
                field = draw(st.sampled_from(fields))
                spec[field] = copy.deepcopy(donor[field])
                if field == "completionMode" and "completions" in donor:
                    spec["completions"] = donor["completions"]  # an Indexed Job has its completions
        elif kind == "number":
            field = draw(st.sampled_from(["completions", "parallelism", "backoffLimit"]))
            spec[field] = draw(st.integers(0 if field != "completions" else 1, 4))
        elif kind == "drop step" and len(steps) > 1:
            del steps[draw(st.integers(1, len(steps) - 1))]  # the first settle stays
        elif kind == "exit code":
            ending = [s for s in steps if s.get("do") == "setPods" and "containerStatuses" in (s.get("status") or {})]
            if ending:
                step = draw(st.sampled_from(ending))
                text = json.dumps(step["status"])
                code = draw(st.sampled_from([0, COUNTED_EXIT_CODE, FAIL_JOB_EXIT_CODE, IGNORED_EXIT_CODE, FAIL_INDEX_EXIT_CODE, 137]))
                step["status"] = json.loads(re.sub(r'"exitCode": -?\d+', f'"exitCode": {code}', text))
    assume(sum(int(s.get("seconds") or 0) for s in steps) <= MAX_ADVANCE_TOTAL)
    try:
        state = initial_state(case)
    except InputError:
        reject()  # the Job is invalid: the API server refuses it, nothing to compare
    predicted: list[dict[str, Any]] = []
    for i, step in enumerate(steps):
        try:
            outcome = run_step(state, step, f"steps[{i}]")
        except (InputError, StepFailed):
            reject()  # a step that no longer applies (fewer pods than it counts)
        assume(not outcome.differences)  # an update the API server now refuses (or accepts)
        state = outcome.state
        predicted.append(step)
        if step.get("do") == "settle":
            predicted.append(predicted_expect(state))
    case["steps"] = predicted
    assume(unsupported_reason(case, release=release) is None)
    return case
