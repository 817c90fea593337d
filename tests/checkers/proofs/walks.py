"""Runs of the executable environment for the cross-checks: small Jobs, every modelled move."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import attrs
import z3
from hypothesis import strategies as st

from jobmodel.checkers.proofs import PROOF_GATES
from jobmodel.checkers.proofs import job_relation as jr
from jobmodel.checkers.proofs.symbolic import Record
from jobmodel.features import NEWEST_RELEASE, OLDEST_MINOR, FeatureGates, parse_kube_version
from jobmodel.invariants.catalogue import Transition  # a step of the Job's environment
from jobmodel.invariants.job_facts import decided
from jobmodel.state import RUNNING, JobControllerTunables
from jobmodel.timeutil import parse_time
from jobmodel.transitions import job_environment as env
from jobmodel.transitions.move import Move
from jobmodel.transitions.sync_job import sync_job
from tests.checkers.configs import job_manifest
from tests.differential.conftest import differential_releases

START = parse_time("2025-01-01T00:00:00Z", "start")
NEWEST = FeatureGates.for_release(37)
# ConsistencyStore.EnsureReady's error (1.36+): the cache has not seen the controller's own writes.
CACHE_BEHIND = "is not as new as written version"
# The releases whose relations the walks check: the oldest and the newest always, and the others
# the differential tests' selection holds (by default every one; JOBMODEL_KUBE_VERSIONS).
WALK_RELEASES = sorted({f"1.{OLDEST_MINOR}", NEWEST_RELEASE, *differential_releases()}, key=parse_kube_version)
# Those past the proofs' own release, whose walks the coverage tests (at PROOF_GATES) do not run.
LATER_WALK_RELEASES = [r for r in WALK_RELEASES if parse_kube_version(r) > PROOF_GATES.release]
HOSTILE = env.Budget(
    failures=6,
    evictions=2,
    deletions=4,
    stale=3,
    faults=4,
    restarts=2,
    expiries=3,
    stale_status=2,
    gc=2,
    edits=("parallelism=1", "parallelism=4", "parallelism=0"),
)


@attrs.frozen
class JobSetting:
    """A Job (Indexed when `indexed`, with backoffLimitPerIndex when `per_index` is set), the
    controller's caps and its pod-recreation back-off, and the release's gates (the proofs' by default)."""

    parallelism: int
    completions: int | None
    backoff_limit: int
    max_create_delete: int
    max_uncounted: int
    indexed: bool = False
    per_index: int | None = None
    backoff_seconds: float = 10.0
    gates: FeatureGates = PROOF_GATES
    suspended: bool = False  # created with spec.suspend
    suspend_edits: tuple[str, ...] = ()  # edits of suspend, besides HOSTILE's
    stale_edits: int = 0  # edits the Job informer may deliver late (edit-stale)
    deadline: int | None = None  # activeDeadlineSeconds
    max_failed: int | None = None  # maxFailedIndexes (with backoffLimitPerIndex only)
    replace_failed: bool = False  # podReplacementPolicy: Failed
    failure_policy: str | None = None  # a podFailurePolicy of FAILURE_POLICIES
    success_policy: str | None = None  # a successPolicy of SUCCESS_POLICIES (Indexed Jobs)
    restart_policy: str = "Never"  # OnFailure: failed containers restart in their pods (no podFailurePolicy)

    def world(self) -> env.World:
        tunables = JobControllerTunables(
            max_pod_create_delete_per_sync=self.max_create_delete,
            max_uncounted_pods=self.max_uncounted,
            pod_failure_backoff_seconds=self.backoff_seconds,
        )
        extra: dict[str, Any] = {} if self.per_index is None else {"backoffLimitPerIndex": self.per_index}
        if self.suspended:
            extra["suspend"] = True
        if self.deadline is not None:
            extra["activeDeadlineSeconds"] = self.deadline
        if self.max_failed is not None and self.per_index is not None:
            extra["maxFailedIndexes"] = self.max_failed
        if self.replace_failed:
            extra["podReplacementPolicy"] = "Failed"
        if self.failure_policy is not None:
            extra["podFailurePolicy"] = {**FAILURE_POLICIES, **PER_INDEX_FAILURE_POLICIES}[self.failure_policy]
        if self.success_policy is not None:
            extra["successPolicy"] = SUCCESS_POLICIES[self.success_policy](self.completions or 1)
        manifest = job_manifest(
            self.parallelism, self.completions, self.backoff_limit, indexed=self.indexed, restart_policy=self.restart_policy, **extra
        )
        budget = attrs.evolve(HOSTILE, edits=(*HOSTILE.edits, *self.suspend_edits), stale_edits=self.stale_edits)
        return env.initial_world(manifest, budget, now=START, tunables=tunables, features=self.gates)


# podFailurePolicies of the walks: FailJob, Ignore and Count rules on exit codes and on
# the DisruptionTarget condition of evictions; one ignores the kubelet's SIGTERM of a pod being
# deleted, one fails the Job on almost any exit code.
FAILURE_POLICIES: dict[str, Any] = {
    "fail-job-or-ignore": {
        "rules": [
            {"action": "FailJob", "onExitCodes": {"operator": "In", "values": [42]}},
            {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]},
        ]
    },
    "ignore-sigterm": {
        "rules": [
            {"action": "Ignore", "onExitCodes": {"operator": "In", "values": [143]}},
            {"action": "Count", "onExitCodes": {"operator": "In", "values": [1]}},
        ]
    },
    "fail-job-unless-3": {"rules": [{"action": "FailJob", "onExitCodes": {"operator": "NotIn", "values": [3]}}]},
}
# The podFailurePolicy of the walks with backoffLimitPerIndex (FailIndex is valid only there).
PER_INDEX_FAILURE_POLICIES: dict[str, Any] = {
    "fail-index-ignore-or-fail-job": {
        "rules": [
            {"action": "FailIndex", "onExitCodes": {"operator": "In", "values": [42]}},
            {"action": "Ignore", "onExitCodes": {"operator": "In", "values": [43]}},
            {"action": "FailJob", "onExitCodes": {"operator": "In", "values": [3]}},
        ]
    },
}
PER_INDEX_POLICY = "fail-index-ignore-or-fail-job"
# successPolicies of the walks (Indexed Jobs), by the Job's completions: a rule on the lowest
# index, one on a count of any indexes, and two rules: the last index, or two of all indexes.
SUCCESS_POLICIES: dict[str, Callable[[int], dict[str, Any]]] = {
    "index-0": lambda completions: {"rules": [{"succeededIndexes": "0"}]},
    "all-but-one": lambda completions: {"rules": [{"succeededCount": max(1, completions - 1)}]},
    "last-or-count": lambda completions: {
        "rules": [
            {"succeededIndexes": f"{completions - 1}"},
            {"succeededIndexes": f"0-{completions - 1}" if completions > 1 else "0", "succeededCount": min(2, completions)},
        ]
    },
}
# The focused podFailurePolicy cases of both relations' tests (fail-job-or-ignore): a failure, the
# action it matches, and backoffLimit: 1 for FailJob (which fails the Job within it), 0 for the
# others (so that an ignored failure counted by mistake would fail the Job).
POLICY_CASES = [("exit=42@main", "fail-job", 1), ("cond=DisruptionTarget", "ignore", 0), ("exit=1@main", "count", 0)]
# activeDeadlineSeconds by the seed of a walk, modulo 10 (expire-expectations passes 60 s).
DEADLINES = {1: 60, 8: 600}
# Suspend edits by the seed of a walk, modulo 10.
SUSPEND_EDITS: dict[int, tuple[str, ...]] = {2: ("suspend=false",), 7: ("suspend=true", "suspend=false")}


def spec_draws() -> dict[str, st.SearchStrategy[Any]]:
    """The draws of the spec fields and edits both kinds of Job have."""
    return {
        "suspended": st.booleans(),
        "suspend_edits": st.sampled_from([(), ("suspend=true",), ("suspend=false",), ("suspend=true", "suspend=false")]),
        "stale_edits": st.sampled_from([0, 0, 1, 2]),
        "deadline": st.sampled_from([None, None, 30, 600]),
    }


def job_settings() -> st.SearchStrategy[JobSetting]:
    caps = st.sampled_from([1, 2, 3, 500])
    return st.builds(
        JobSetting,
        st.integers(0, 3),
        st.none() | st.integers(0, 4),
        st.integers(0, 3),
        caps,
        caps,
        **spec_draws(),
        replace_failed=st.booleans(),
        failure_policy=st.none() | st.sampled_from(sorted(FAILURE_POLICIES)),
        restart_policy=st.sampled_from(["Never", "Never", "OnFailure"]),
    ).map(without_policy_on_failure)


def without_policy_on_failure(setting: JobSetting) -> JobSetting:
    """A podFailurePolicy needs restartPolicy Never (the API server refuses it with OnFailure)."""
    return attrs.evolve(setting, failure_policy=None) if setting.restart_policy == "OnFailure" else setting


def indexed_settings() -> st.SearchStrategy[JobSetting]:
    caps = st.sampled_from([1, 2, 500])
    return st.builds(
        JobSetting,
        st.integers(0, 3),
        st.integers(1, 3),
        st.integers(0, 3),
        caps,
        caps,
        st.just(True),
        st.none() | st.integers(0, 2),
        st.sampled_from([0.0, 10.0]),
        **spec_draws(),
        max_failed=st.none() | st.integers(0, 1),
        replace_failed=st.booleans(),
        failure_policy=st.none() | st.sampled_from(sorted(FAILURE_POLICIES)),
        success_policy=st.none() | st.sampled_from(sorted(SUCCESS_POLICIES)),
        restart_policy=st.sampled_from(["Never", "Never", "OnFailure"]),
    ).map(without_policy_on_failure).map(with_per_index_failure_policy)


def with_per_index_failure_policy(setting: JobSetting) -> JobSetting:
    """With backoffLimitPerIndex, a podFailurePolicy becomes the one with FailIndex."""
    if setting.per_index is None or setting.failure_policy is None:
        return setting
    return attrs.evolve(setting, failure_policy=PER_INDEX_POLICY)


def modelled_moves(world: env.World) -> list[Move]:
    controller = jr.Controller.of(world.cluster.features)
    return [m for m in env.enabled_moves(world) if jr.models(m.kind, controller)]


def modelled_kinds(gates: FeatureGates = PROOF_GATES) -> set[str]:
    """The environment's move kinds the relations have at `gates`' release."""
    controller = jr.Controller.of(gates)
    return {kind for kind in jr.MOVE_OF if jr.models(kind, controller)}


def relation_moves_at(moves: Iterable[str], gates: FeatureGates = PROOF_GATES) -> set[str]:
    """Of a relation's `moves`, those a walk at `gates`' release can take (the others' guards are false)."""
    modelled = modelled_kinds(gates)
    return {name for name in moves if any(name in jr.MOVE_OF[kind] for kind in modelled) or name not in jr.SYNC_MOVES}


def walk(world: env.World, pick: Callable[[int], int], steps: int) -> Iterator[Transition]:
    """`steps` moves, each chosen by `pick(number of enabled moves)`."""
    for _ in range(steps):
        moves = modelled_moves(world)
        move = moves[pick(len(moves))]
        after, result = env.apply_move(world, move)
        yield Transition(world, move, after, result)
        world = after


def seeded_walks(seeds: range, steps: int, indexed: bool = False, gates: FeatureGates = PROOF_GATES) -> Iterator[Transition]:
    """Deterministic runs over a spread of settings (for coverage checks), at `gates`' release."""
    for seed in seeds:
        rng = random.Random(seed)
        parallelism = rng.randint(0, 3)
        completions = rng.randint(1, 3) if indexed else rng.choice([None, 0, 1, 2, 3, 4])
        backoff_limit = rng.randint(0, 3)
        caps = rng.choice([1, 2, 500]), rng.choice([1, 2, 500])
        per_index = rng.choice([None, 0, 1, 2]) if indexed else None
        setting = JobSetting(
            parallelism,
            completions,
            backoff_limit,
            *caps,
            indexed,
            per_index,
            rng.choice([0.0, 10.0]),
            gates,
            # No draw: the other settings stay as they were. A tenth suspended at first, another
            # tenth suspended on the way, two tenths with edits seen late (more edits crowd out
            # the rarer moves).
            suspended=seed % 10 == 2,
            suspend_edits=SUSPEND_EDITS.get(seed % 10, ()),
            stale_edits=2 if seed % 10 in (6, 9) else 0,
            deadline=DEADLINES.get(seed % 10),
            max_failed=seed % 4 if seed % 4 < 2 else None,
            replace_failed=seed % 3 == 1,
            # Three tenths with a podFailurePolicy (more: its failure modes crowd out the rarer
            # moves); with backoffLimitPerIndex the one with FailIndex.
            failure_policy=None
            if seed % 10 not in (3, 4, 5)
            else PER_INDEX_POLICY
            if per_index is not None
            else sorted(FAILURE_POLICIES)[(seed + seed // 10) % 3],
            # A third of the Indexed Jobs with a successPolicy.
            success_policy=sorted(SUCCESS_POLICIES)[seed % 3] if indexed and seed % 7 in (1, 4, 6) else None,
            # A tenth of the Jobs restart their failed containers in place.
            restart_policy="OnFailure" if seed % 10 == 1 else "Never",
        )
        yield from walk(setting.world(), rng.randrange, steps)


def early_success_run(policy: str) -> list[Transition]:
    """An Indexed Job of two indexes with a successPolicy of SUCCESS_POLICIES: index 0 succeeds, the
    next sync finds the policy met (for index-0 and all-but-one) while index 1's pod runs, and
    once that pod ended a sync completes the Job."""
    world = JobSetting(2, 2, 0, 500, 500, True, None, 0.0, success_policy=policy).world()
    moves = [Move("sync"), Move("start", "j-0"), Move("start", "j-1"), Move("succeed", "j-0")]
    return run_of(world, [*moves, Move("sync"), Move("terminate", "j-1"), Move("sync")])


def per_index_failure_run(failure: str) -> list[Transition]:
    """An Indexed Job of two indexes with backoffLimitPerIndex 1 and PER_INDEX_POLICY: index 0's
    first pod fails with `failure` (exit=42@main matches the FailIndex rule) while index 1's runs,
    and a sync follows."""
    world = JobSetting(2, 2, 6, 500, 500, True, 1, 0.0, failure_policy=PER_INDEX_POLICY).world()
    return run_of(world, [Move("sync"), Move("start", "j-0"), Move("start", "j-1"), Move("fail", "j-0", failure), Move("sync")])


def on_failure_run(backoff_limit: int) -> list[Transition]:
    """A NonIndexed Job of two pods with restartPolicy OnFailure: j-0's container restarts (twice,
    unless the Job fails at the first) while j-1 runs, a sync follows each restart, then j-1 is
    evicted and j-0 succeeds (each terminates instead once a failing Job deleted it), a sync after each."""
    world = JobSetting(2, 2, backoff_limit, 500, 500, restart_policy="OnFailure").world()
    return restarts_then_endings(world, "j-0", (("j-1", "evict"), ("j-0", "succeed")))


def restarts_then_endings(world: env.World, restarting: str, endings: tuple[tuple[str, str], ...]) -> list[Transition]:
    """From a new Job of two pods: both start, `restarting`'s container restarts twice (once, if
    the sync after it fails the Job), a sync after each restart, then each pod of `endings` ends
    as its move says, or terminates once deleted, a sync after each."""
    run = run_of(world, [Move("sync"), Move("start", "j-0"), Move("start", "j-1"), Move("restart-container", restarting), Move("sync")])
    if not _deleting(run[-1].after, restarting):
        run += run_of(run[-1].after, [Move("restart-container", restarting), Move("sync")])
    for name, ending in endings:
        last = run[-1].after
        run += run_of(last, [Move("terminate" if _deleting(last, name) else ending, name), Move("sync")])
    return run


def ended_pod_restarts_run() -> list[Transition]:
    """restartPolicy OnFailure, backoffLimit 2: each pod's container restarts once, j-0's before it
    succeeds, j-1's after: the restarts of the pods running never reach the limit (a finished
    pod's are not counted), and the Job completes."""
    world = JobSetting(2, 2, 2, 500, 500, restart_policy="OnFailure").world()
    moves = ["sync", "start j-0", "start j-1", "restart-container j-0", "succeed j-0", "sync", "restart-container j-1", "sync"]
    return run_of(world, [Move(*m.split()) for m in (*moves, "succeed j-1", "sync")])


def restarting_runs() -> list[tuple[int, list[Transition]]]:
    """The focused runs of restartPolicy OnFailure Jobs, each with its backoffLimit."""
    return [*((limit, on_failure_run(limit)) for limit in (1, 2, 3)), (2, ended_pod_restarts_run())]


def indexed_restarting_runs() -> list[tuple[int, list[Transition]]]:
    """The same for an Indexed Job of two indexes (restarts are counted Job-wide), with
    backoffLimitPerIndex 1 for one of them: index 1's container restarts, then both succeed."""
    runs = []
    for limit, per_index in ((1, None), (2, 1)):
        world = JobSetting(2, 2, limit, 500, 500, True, per_index, 0.0, restart_policy="OnFailure").world()
        runs.append((limit, restarts_then_endings(world, "j-1", (("j-0", "succeed"), ("j-1", "succeed")))))
    return runs


def restart_syncs(transitions: list[Transition], backoff_limit: int) -> Iterator[tuple[Transition, bool]]:
    """The syncs of a Job not yet decided in a run of restarting_runs(), each with whether the
    restarts of the running pods it saw reach backoffLimit; the model's sync set FailureTarget
    exactly then (asserted)."""
    for t in transitions:
        job, after = t.before.job(), t.after.job()
        if t.move.kind != "sync" or job is None or after is None or decided(job):
            continue
        restarts = sum(c.restart_count for p in t.before.own_pods() if p.phase == RUNNING for c in p.status.container_statuses)
        reached = restarts >= backoff_limit
        assert (after.status.condition("FailureTarget") is not None) == reached, (str(t.move), restarts)
        yield t, reached


def _deleting(world: env.World, name: str) -> bool:
    return any(p.name == name and p.metadata.deletion_timestamp is not None for p in world.own_pods())


def run_of(world: env.World, moves: Iterable[Move], impl: env.SyncImpl = sync_job) -> list[Transition]:
    """The transitions of `moves` from `world`, syncs by `impl`."""
    run = []
    for move in moves:
        after, result = env.apply_move(world, move, impl)
        run.append(Transition(world, move, after, result))
        world = after
    return run


def waited_for_the_cache(t: Transition) -> bool:
    """The step is a sync the consistency store (1.36+) stopped before it read anything."""
    return t.sync is not None and t.sync.error is not None and CACHE_BEHIND in t.sync.error


def unchanged(before: Record, after: Record) -> bool:
    """Two concrete abstractions are equal."""
    return bool(z3.is_true(z3.simplify(before.equals(after))))


def release_gates(release: str) -> FeatureGates:
    """The gates of `release` ("1.34") as the model runs it."""
    return FeatureGates.for_release(parse_kube_version(release))
