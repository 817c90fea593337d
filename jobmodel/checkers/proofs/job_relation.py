"""The Job controller and its environment as a Z3 transition relation over pod counts (NonIndexed Jobs).

A state counts the Job's pods by what the controller can tell apart: phase (still running,
Succeeded, Failed), being deleted, whether the cache has seen them, whether their UID is listed in
`uncountedTerminatedPods`; beside them the Job's status, its spec and the controller's creation and
deletion expectations. Every count is an unbounded integer, so a proof over this relation covers
every parallelism, every completions count and any number of pods and steps.

The moves are those of `jobmodel.transitions.job_environment` (`MOVE_OF` maps each of its move kinds
to one here) and the sync is upstream v1.32's `syncJob` as `jobmodel.transitions.sync_job` models
it, branch by branch: the expectations check, `getNewFinishedPods`, the finished condition
(SuccessCriteriaMet, FailureTarget, `exceedsBackoffLimit`, `pastActiveDeadline`),
`deleteActivePods`, `manageJob` (`wantActive`, deletions first, `MaxPodCreateDeletePerSync`, the
pod-recreation back-off; a suspended Job's every active pod deleted, uncapped;
`onlyReplaceFailedPods` with podReplacementPolicy Failed) and
`trackJobStatusAndRemoveFinalizers` (clean the uncounted lists, record finished pods, the
`MaxUncountedPods` cut-off, flush, remove finalizers, `enactJobFinished`), with the API failures
of the environment's fault moves; with `Controller.of(gates)`, what later releases change (1.36+:
the consistency store's wait for the controller's own writes, `waits_for_the_cache`). What the
relation does not know (the back-off clock, the order in which the cache lists pods, which
untracked status fields changed) is a choice: the relation
allows every outcome the model can take, so what holds for the relation holds for the model.
`tests/checkers/proofs/test_job_relation.py` checks that every move of the executable
environment is a move of the relation.

A podFailurePolicy is a choice of each failure (`fail`, `terminate`): the action of the rule it
matches (POLICY_ACTIONS). An ignored failure is never counted and its pod replaced
(nonIgnoredFailedPodsCount; trackJobStatusAndRemoveFinalizers removes its finalizer and lists it
nowhere); a FailJob one is counted, and while its pod is in the cache every sync of a Job not yet
failing or succeeding takes the FailureTarget path (getFailJobMessage), whether or not the pod
still holds the finalizer. A running pod that an Ignore rule matches is outside the relation.

With restartPolicy OnFailure (`on_failure`) a failed container restarts in its pod
(`restart-container`): the relation counts the restarts of the pods the cache shows running, which
a sync reads (pastBackoffLimitOnFailure) and a pod that ends takes along (how many: a choice).

Fixed: the default feature gates, never deleted; of the user's edits only
`parallelism`'s and `suspend`'s, the cache seeing them at once (`edit`) or late (`edit-stale`: the
syncs read the older spec and their status writes conflict).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import z3

from jobmodel.checkers.proofs.symbolic import (
    BOOL,
    INT,
    Record,
    Schema,
    ite,
    maximum,
    minimum,
    total,
)
from jobmodel.features import FeatureGates

SPEC: Schema = (
    ("parallelism", INT),
    ("has_completions", BOOL),
    ("completions", INT),
    ("backoff_limit", INT),
    ("max_create_delete", INT),  # MaxPodCreateDeletePerSync
    ("max_uncounted", INT),  # MaxUncountedPods
    ("suspended", BOOL),  # spec.suspend
    ("has_deadline", BOOL),  # spec.activeDeadlineSeconds is set
    # podReplacementPolicy: Failed (onlyReplaceFailedPods): a pod being deleted is no failure
    # until it is Failed, and is replaced only then.
    ("replace_failed_only", BOOL),
    # spec.podFailurePolicy is set (podReplacementPolicy is then Failed): a failure its rules
    # ignore is not counted, one matching a FailJob rule fails the Job.
    ("pod_failure_policy", BOOL),
    # restartPolicy OnFailure: the kubelet restarts a failed container in its pod (no pod fails
    # but by eviction or deletion), and the restarts count against backoffLimit.
    ("on_failure", BOOL),
)
# The Job's pods that hold the tracking finalizer, by what the controller tells apart; a pod without
# the finalizer is invisible to every count the controller keeps (it is neither active nor new).
PODS: Schema = (
    ("hidden", INT),  # created, not yet in the controller's cache (always Pending)
    ("active", INT),  # not terminal, not being deleted
    ("terminating", INT),  # being deleted, not terminal (isPodFailed with TerminatingOrFailed)
    ("terminating_uf", INT),  # ... already listed in uncountedTerminatedPods.failed
    ("succeeded", INT),  # Succeeded, not listed
    ("succeeded_us", INT),  # Succeeded, listed in uncounted.succeeded
    ("succeeded_uf", INT),  # Succeeded, listed in uncounted.failed (it was terminating when listed)
    ("failed", INT),  # Failed, not listed
    ("ignored", INT),  # Failed, not listed, its failure matches an Ignore rule (never counted)
    ("failed_uf", INT),  # Failed, listed in uncounted.failed
    ("gone_us", INT),  # UIDs in uncounted.succeeded whose pod no longer holds the finalizer
    ("gone_uf", INT),  # ... in uncounted.failed
)
# Pods without the finalizer that the controller still counts: running pods being deleted whose
# finalizer it removed (graceful deletion: the kubelet's `terminate` ends them). They are only
# `terminating` (CountTerminatingPods), which delays the Job's final condition (enactJobFinished).
RELEASED: Schema = (("released", INT),)
# The Failed pods the cache shows, holding the finalizer or not, whose failure matches a FailJob
# rule of the podFailurePolicy (each also counted by its kind above, if any): while one is there,
# every sync of a Job not yet failing or succeeding sets FailureTarget (getFailJobMessage).
FAIL_JOB: Schema = (("fail_job", INT),)
# The container restarts of the running and pending pods the cache shows, together
# (pastBackoffLimitOnFailure sums them); with restartPolicy Never none.
RESTARTS: Schema = (("restarts", INT),)
STATUS: Schema = (
    ("status_succeeded", INT),
    ("status_failed", INT),
    ("failure_target", BOOL),
    ("failed_condition", BOOL),
    ("success_criteria_met", BOOL),
    ("complete", BOOL),
)
CONTROLLER: Schema = (
    ("has_expectations", BOOL),  # a ControlleeExpectations record exists
    ("expect_add", INT),
    ("expect_delete", INT),
    ("expired", BOOL),  # older than ExpectationsTimeout
    # The Job cache shows the Job before a status write of the controller's (sync-stale-status;
    # 1.36+ only: every sync then waits for it).
    ("status_hidden", BOOL),
    # The Job cache shows the Job before a user's edit of its spec (edit-stale): the syncs read
    # the spec shown, and their status writes conflict. Without one, the shown spec is the Job's.
    ("spec_lags", BOOL),
    ("shown_parallelism", INT),
    ("shown_suspended", BOOL),
)
STATE: Schema = SPEC + PODS + RELEASED + FAIL_JOB + RESTARTS + STATUS + CONTROLLER
POD_FIELDS = tuple(name for name, _ in PODS + RELEASED + FAIL_JOB)

# The finished condition a sync works with (syncJobCtx.finishedCondition).
NONE, SUCCESS, NEW_FAILURE_TARGET, FAILED, COMPLETE = range(5)

SYNC_KINDS = ("sync", "sync-stale", "sync-pod-error", "sync-status-error", "sync-stale-status")  # the environment's
# A sync whose status write is refused is three moves, one per write that can be the refused one
# (the first, when there is something to record; the last; none, when nothing needs writing).
STATUS_ERROR_OUTCOMES = {
    "sync-status-error": "first",
    "sync-status-error-late": "last",
    "sync-status-error-unwritten": "none",
}
SYNC_MOVES = ("sync", "sync-stale", "sync-pod-error", *STATUS_ERROR_OUTCOMES, "sync-stale-status")
# Every environment move kind -> the moves of the relation that cover it.
MOVE_OF: dict[str, tuple[str, ...]] = {
    "sync": ("sync",),
    "sync-stale": ("sync-stale",),
    "sync-pod-error": ("sync-pod-error",),
    "sync-status-error": tuple(STATUS_ERROR_OUTCOMES),
    "sync-stale-status": ("sync-stale-status",),
    "cache-catch-up": ("cache-catch-up",),
    "restart": ("restart",),
    "expire-expectations": ("time",),
    "timer-fires": ("time",),
    "deadline-passes": ("time",),
    "start": ("stutter",),
    "ready": ("stutter",),
    "succeed": ("succeed",),
    "fail": ("fail",),
    "restart-container": ("restart-container",),
    "evict": ("fail",),
    "terminate": ("terminate",),
    "delete-pod": ("delete-pod",),
    "pod-gc": ("pod-gc",),
    "edit": ("edit",),  # of the EDITED fields (abstraction.relation_moves refuses the others)
    "edit-stale": ("edit-stale",),
}
EDITED = ("parallelism", "suspend")  # the spec fields whose user edits the relations have


# The searches for counterexample runs use one sync move whose kind is a choice (one encoding of
# syncJob per step instead of six); the proofs use the six, each a smaller query.
ANY_SYNC = "sync-any"
ANY_SYNC_CHOICES: Schema = (("kind", INT),)  # an index into SYNC_KINDS
OUTCOMES = ("first", "last", "none")


def models(kind: str, controller: Controller) -> bool:
    """Whether the relation under `controller` has moves for the environment's move `kind`
    (sync-stale-status only where the controller waits for its status writes: status_late_allowed)."""
    return kind in MOVE_OF and (kind != "sync-stale-status" or controller.waits_for_own_writes)


def environment_kind(move: str) -> str:
    """The environment move kind a sync move of the relation is (itself for the others)."""
    return "sync-status-error" if move in STATUS_ERROR_OUTCOMES else move


def is_sync(move: str) -> bool:
    return move in SYNC_MOVES or move == ANY_SYNC


@attrs.frozen
class SyncKind:
    """What kind of sync a move is: Python booleans for the proofs' moves, terms of the choices for
    ANY_SYNC (`outcome` is then an index into OUTCOMES, else its name)."""

    pod_calls_ok: Any
    stale: Any
    status_error: Any
    outcome: Any
    bounds: Any = True
    status_late: Any = False  # its status writes reach the cache late (sync-stale-status)

    @staticmethod
    def of(move: str, choices: Record, spec_lags: Any = False) -> SyncKind:
        """The kind of `move` from a state whose Job cache may lag behind a user's edit
        (`spec_lags`): then its status writes conflict, as a refused write's (the outcome a
        choice); a refused write's move is the same either way."""
        if move != ANY_SYNC:
            kind = environment_kind(move)
            if kind == "sync-status-error":
                return SyncKind(True, False, True, STATUS_ERROR_OUTCOMES[move])
            return SyncKind(
                kind != "sync-pod-error",
                kind == "sync-stale",
                spec_lags,
                choices.outcome,
                z3.And(choices.outcome >= 0, choices.outcome < len(OUTCOMES)),
                status_late=kind == "sync-stale-status",
            )
        k = choices.kind
        return SyncKind(
            k != SYNC_KINDS.index("sync-pod-error"),
            k == SYNC_KINDS.index("sync-stale"),
            z3.Or(k == SYNC_KINDS.index("sync-status-error"), spec_lags),
            choices.outcome,
            z3.And(k >= 0, k < len(SYNC_KINDS), choices.outcome >= 0, choices.outcome < len(OUTCOMES)),
            k == SYNC_KINDS.index("sync-stale-status"),
        )

    def select(self, acted: dict[str, tuple[Record, Any]], removal_refused: Any, listed_kept: Record) -> tuple[Record, Any]:
        """The state after the sync and the condition of its outcome, given the outcomes of a refused
        status write (`acted`, by OUTCOMES name) and of refused pod calls. With both refused (pod
        calls of a sync over a lagging spec), nothing but manageJob's calls happened: a status
        write that would list or count pods is refused, and so are the finalizer removals, which
        leave nothing to clean."""
        done = acted["none"][0]
        pod_error = negate(self.pod_calls_ok)
        if isinstance(self.outcome, str):
            assert self.status_error is True
            return acted[self.outcome]
        refused = done
        for i, name in reversed(list(enumerate(OUTCOMES))):
            refused = select(self.outcome == i, acted[name][0], refused)
        condition = z3.And(
            *[z3.Implies(z3.And(self.status_error, self.outcome == i), acted[name][1]) for i, name in enumerate(OUTCOMES)]
        )
        after = select(
            pod_error,
            select(self.status_error, acted["first"][0], select(removal_refused, listed_kept, done)),
            select(self.status_error, refused, done),
        )
        return after, condition


def expectations_after(
    s: Record, deleting: Any, creating: Any, created: Any, stale: Any, choices: Record
) -> tuple[dict[str, Any], Any]:
    """The controller's expectations after a sync, and the bound on the deletion expectations
    (a choice): ExpectDeletions / ExpectCreations replace the record; the step's own calls are
    observed at once (failed calls by the step, accepted ones by the informer), except creations of
    a stale sync, which the cache has not seen; later deletions in the sync only lower them."""
    touched = z3.Or(deleting, creating)
    has = z3.Or(touched, s.has_expectations)
    after = {
        "has_expectations": has,
        "expect_add": z3.If(deleting, 0, z3.If(creating, ite(stale, created, 0), s.expect_add)),
        "expect_delete": z3.If(has, choices.expect_delete, 0),
        "expired": z3.And(z3.Not(touched), s.expired),
    }
    bound = z3.Implies(has, choices.expect_delete <= z3.If(touched, 0, s.expect_delete))
    return after, bound


def status_write_outcomes(
    first_write: Any, last_write: Any, write_refused: Record, last_write_refused: Record, done: Record
) -> dict[str, tuple[Record, Any]]:
    """A sync whose status writes are refused, by the write that is: its state and when it happens."""
    return {
        "first": (write_refused, first_write),
        "last": (last_write_refused, z3.And(z3.Not(first_write), last_write)),
        "none": (done, z3.And(z3.Not(first_write), z3.Not(last_write))),
    }


def status_late_allowed(s: Record, how: SyncKind, controller: Controller) -> Any:
    """When a sync-stale-status may happen: from a Job the cache shows as it is, and only where the
    controller waits for its status writes (1.36+): the relations do not model a sync that reads an
    older status (up to 1.35 the move is not theirs)."""
    return z3.Implies(how.status_late, z3.And(controller.waits_for_own_writes, z3.Not(s.status_hidden), z3.Not(s.spec_lags)))


def spec_read(s: Record) -> Record:
    """The state with the spec the controller's cache shows (job_facts.spec_read): the spec before
    a user's edit it has not delivered. Read for what the sync decides; the state it leaves keeps
    the API server's spec."""
    return s.replace(
        parallelism=z3.If(s.spec_lags, s.shown_parallelism, s.parallelism),
        suspended=z3.If(s.spec_lags, s.shown_suspended, s.suspended),
    )


def shown_late(acted: Record, how: SyncKind, written: Any) -> Record:
    """The state after a sync whose status writes (`written`: some were made) the Job cache shows
    late (sync-stale-status: a clean sync, so all of them went through)."""
    if how.status_late is False:
        return acted
    return acted.replace(status_hidden=z3.Or(acted.status_hidden, z3.And(how.status_late, written)))


def negate(value: Any) -> Any:
    return (not value) if isinstance(value, bool) else z3.Not(value)


def select(condition: Any, then: Record, otherwise: Record) -> Record:
    """Field by field, `then` where the condition holds, else `otherwise` (a Python bool picks one)."""
    if isinstance(condition, bool):
        return then if condition else otherwise
    return Record(then.schema, {name: z3.If(condition, term, getattr(otherwise, name)) for name, term in then})


def symbols(prefix: str) -> Record:
    return Record.symbols(STATE, prefix)


def domain(s: Record) -> Any:
    """What the API server and the environment guarantee of any state: counts are not negative,
    the tunables are positive, a Job without completions has none, no record means no counts."""
    return z3.And(
        *[getattr(s, name) >= 0 for name in POD_FIELDS],
        s.parallelism >= 0,
        s.completions >= 0,
        z3.Implies(z3.Not(s.has_completions), s.completions == 0),
        s.backoff_limit >= 0,
        s.max_create_delete >= 1,
        s.max_uncounted >= 1,
        s.status_succeeded >= 0,
        s.status_failed >= 0,
        z3.Implies(z3.Not(s.has_expectations), z3.And(s.expect_add == 0, s.expect_delete == 0, z3.Not(s.expired))),
        shown_spec_domain(s),
        policy_domain(s),
        restarts_domain(s),
    )


def restarts_domain(s: Record) -> Any:
    """Restarts are counted; only with restartPolicy OnFailure are there any, and such a Job has no
    podFailurePolicy (the API server accepts one with restartPolicy Never only)."""
    return z3.And(
        s.restarts >= 0,
        z3.Implies(z3.Not(s.on_failure), s.restarts == 0),
        z3.Implies(s.on_failure, z3.Not(s.pod_failure_policy)),
    )


def policy_domain(s: Record) -> Any:
    """A podFailurePolicy makes podReplacementPolicy Failed (the API server accepts no other);
    without one no failure is ignored or fails the Job."""
    return z3.And(
        z3.Implies(s.pod_failure_policy, s.replace_failed_only),
        z3.Implies(z3.Not(s.pod_failure_policy), z3.And(s.ignored == 0, s.fail_job == 0)),
    )


def shown_spec_domain(s: Record) -> Any:
    """The spec the cache shows is a valid one, and the Job's own while no edit lags."""
    return z3.And(
        s.shown_parallelism >= 0,
        z3.Implies(z3.Not(s.spec_lags), z3.And(s.shown_parallelism == s.parallelism, s.shown_suspended == s.suspended)),
    )


def initial(s: Record) -> Any:
    """A Job just created: no pods, an empty status, no expectations."""
    return z3.And(
        *[getattr(s, name) == 0 for name in POD_FIELDS],
        s.restarts == 0,
        s.status_succeeded == 0,
        s.status_failed == 0,
        z3.Not(decided(s)),
        z3.Not(s.has_expectations),
        z3.Not(s.status_hidden),
        z3.Not(s.spec_lags),
    )


# --- what the catalogue and the proofs read ----------------------------------------------------


def finished(s: Record) -> Any:
    """util.IsJobFinished."""
    return z3.Or(s.complete, s.failed_condition)


def decided(s: Record) -> Any:
    """job_facts.decided: the Job is failing or succeeding (an interim condition or a final one)."""
    return z3.Or(s.failure_target, s.failed_condition, s.success_criteria_met, s.complete)


def api_active(s: Record) -> Any:
    """Active pods as the API server holds them (the cache's and those it has not seen)."""
    return s.active + s.hidden


def succeeded_so_far(s: Record) -> Any:
    """catalogue.succeeded_so_far: the counter, the uncounted list, and succeeded pods still holding
    the finalizer that the succeeded list does not name."""
    return s.status_succeeded + s.succeeded_us + s.gone_us + s.succeeded + s.succeeded_uf


def failed_so_far(s: Record) -> Any:
    """catalogue.failed_so_far: the counter, the uncounted list, and pods isPodFailed counts (Failed,
    or deleted before succeeding but with podReplacementPolicy Failed) still holding the finalizer
    that the failed list does not name."""
    uncounted = s.terminating_uf + s.succeeded_uf + s.failed_uf + s.gone_uf
    return s.status_failed + uncounted + s.failed + failed_terminating(s, s.terminating)


def recorded_failures(s: Record) -> Any:
    """status.failed plus the UIDs in uncountedTerminatedPods.failed (what backoff-limit-enforced reads)."""
    return s.status_failed + s.terminating_uf + s.succeeded_uf + s.failed_uf + s.gone_uf


def uncounted_listed(s: Record) -> Any:
    """The UIDs in the Job's uncountedTerminatedPods, those whose pod is gone included."""
    return s.succeeded_us + s.succeeded_uf + s.failed_uf + s.terminating_uf + s.gone_us + s.gone_uf


def satisfied(s: Record) -> Any:
    """ControllerExpectations.SatisfiedExpectations: no record, fulfilled, or expired."""
    return z3.Or(z3.Not(s.has_expectations), z3.And(s.expect_add <= 0, s.expect_delete <= 0), s.expired)


def lag_covered(s: Record) -> Any:
    """job_environment.lag_covered: every pod the cache has not seen is covered by unexpired creation
    expectations."""
    return z3.Or(s.hidden == 0, z3.And(s.has_expectations, z3.Not(s.expired), s.expect_add >= s.hidden))


# --- moves -----------------------------------------------------------------------------------------


@attrs.frozen
class Step:
    """One move of the relation from a state: when it may happen, the state after it, the choices
    it made (fresh symbols; a model of a trace names them), and, for a sync, the pods its accepted
    API calls created and deleted."""

    guard: Any
    after: Record
    choices: Record
    created: Any = z3.IntVal(0)
    deleted: Any = z3.IntVal(0)
    clean_sync: Any = False  # a sync without API failures (`sync`, `sync-stale`)
    # The UIDs in uncountedTerminatedPods of the sync's first status write (written or not): no
    # status it writes lists more (the flush that follows empties the lists).
    listed: Any = z3.IntVal(0)


@attrs.frozen
class Controller:
    """Which controller the relation models: the model's, or (to show what the expectations are
    for) one that drops its expectations before every sync; and what manageJob reports as active
    while the back-off defers creations: 0 up to 1.35 (kubernetes#139428), the running pods from
    1.36 (the steps are the same either way, tests/checkers/proofs/test_job_relation.py); and
    whether a sync first waits for the controller's own writes to reach its cache (the consistency
    store, StaleControllerConsistencyJob, 1.36+)."""

    expectations: bool = True
    backoff_keeps_active: bool = False
    waits_for_own_writes: bool = False

    @staticmethod
    def of(gates: FeatureGates) -> Controller:
        """The model's controller at the release (and gates) `gates` describes."""
        return Controller(
            backoff_keeps_active=gates.at_least(36), waits_for_own_writes=gates.StaleControllerConsistencyJob
        )


MODEL = Controller()


def waits_for_the_cache(s: Record, controller: Controller) -> Any:
    """ConsistencyStore.EnsureReady fails (v1.37.2 job_controller.go:934): the pod informer has not
    caught up with the controller's own writes. The hidden pods are exactly the controller's creations
    the cache has not shown (job_environment.informer_versions), and every creation is recorded as a
    write (RealPodControl.OnWrite), so the sync waits exactly while some pod is hidden; or the Job
    informer has not caught up with the controller's status write (`status_hidden`, recorded by
    updateJobStatus)."""
    return z3.And(controller.waits_for_own_writes, z3.Or(s.hidden > 0, s.status_hidden))


def job_cached_unfinished(s: Record) -> Any:
    """The Job the controller's cache shows is unfinished: the Job, or while a status write lags
    the Job before it, which a sync that did something wrote (a finished Job's sync does nothing)."""
    return z3.Or(z3.Not(finished(s)), s.status_hidden)


SYNC_CHOICES: Schema = (
    ("outcome", INT),  # the write refused when the status writes conflict (an index into OUTCOMES)
    ("past_deadline", BOOL),  # the clock is past the Job's active deadline (see past_active_deadline)
    ("backoff", BOOL),  # the pod-recreation back-off is still running (manageJob waits)
    ("other_status_change", BOOL),  # active, ready or terminating in status differ (a write is due)
    ("reached_max_uncounted", BOOL),
    ("expect_delete", INT),  # the deletion expectations after the step's deletions are observed
    # Pods of each kind trackJobStatusAndRemoveFinalizers gets to before MaxUncountedPods stops it.
    ("got_succeeded", INT),
    ("got_succeeded_us", INT),
    ("got_succeeded_uf", INT),
    ("got_failed", INT),
    ("got_failed_uf", INT),
    ("got_terminating", INT),
    ("got_terminating_uf", INT),
    ("got_active", INT),
    # Of the pods the sync releases while they run on (see released_bounds), those that stay.
    ("released_removed", INT),
    ("released_tracked", INT),
)

# The pods of the kind a podFailurePolicy adds that trackJobStatusAndRemoveFinalizers gets to.
POLICY_SYNC_CHOICES: Schema = (("got_ignored", INT),)

# The pod kinds trackJobStatusAndRemoveFinalizers takes the finalizer from (besides active pods of
# a finishing Job), in both relations.
TRACKED_KINDS = ("succeeded", "succeeded_uf", "failed", "failed_uf", "terminating", "terminating_uf")


def past_active_deadline(s: Record, spec: Record, choices: Record) -> Any:
    """pastActiveDeadline (a DeadlineExceeded FailureTarget, as exceeding backoffLimit gives a
    BackoffLimitExceeded one): a Job with activeDeadlineSeconds that is not suspended (as the
    sync reads it) may be past its deadline, a choice (the clock is not counted; an
    activeDeadlineSeconds past int64 nanoseconds is past it from the sync that starts the Job)."""
    return z3.And(choices.past_deadline, s.has_deadline, z3.Not(spec.suspended))


def new_failure_target(s: Record, failed: Any, spec: Record, choices: Record) -> Any:
    """A Job without SuccessCriteriaMet or FailureTarget gets a FailureTarget: a failed pod in the
    cache matches a FailJob rule (getFailJobMessage, checked first), `failed` (the sync's count)
    is past backoffLimit (exceedsBackoffLimit), or its pods' container restarts are
    (pastBackoffLimitOnFailure), or the active deadline passed."""
    return z3.Or(s.fail_job > 0, failed > s.backoff_limit, past_backoff_limit_on_failure(s), past_active_deadline(s, spec, choices))


def past_backoff_limit_on_failure(s: Record) -> Any:
    """pastBackoffLimitOnFailure: with restartPolicy OnFailure, the restarts of the running and
    pending pods the cache shows reach backoffLimit (any restart, with backoffLimit 0)."""
    return z3.And(s.on_failure, z3.If(s.backoff_limit == 0, s.restarts > 0, s.restarts >= s.backoff_limit))


def manage_deletions(s: Record, scale_down: Any) -> Any:
    """The active pods manageJob deletes: a suspended Job's every one (uncapped), else the
    scale-down's."""
    return z3.If(s.suspended, s.active, scale_down)


def manage_deletes(manage: Any, s: Record, to_delete: Any) -> Any:
    """Whether manageJob takes its deleting branch, which replaces the expectations
    (ExpectDeletions): a suspended Job's always, even with no active pod; else when it deletes."""
    return z3.And(manage, z3.Or(s.suspended, to_delete > 0))


def failed_terminating(s: Record, pods: Any) -> Any:
    """Of `pods` being deleted and not terminal, those isPodFailed counts: all of them, but with
    podReplacementPolicy Failed."""
    return z3.If(s.replace_failed_only, 0, pods)


def not_yet_failed(s: Record) -> Any:
    """The pods being deleted that isPodFailed does not count yet (with podReplacementPolicy
    Failed: all of them, until they are Failed or a failing Job counts them)."""
    return s.terminating - failed_terminating(s, s.terminating)


def pods_being_deleted_tracked(s: Record, fc: Any) -> Any:
    """trackJobStatusAndRemoveFinalizers gets to the pods being deleted that have not ended: those
    isPodFailed counts, or all once the Job finishes."""
    return z3.Or(z3.Not(s.replace_failed_only), fc != NONE)


def terminating_count(s: Record, finishing: Any, deleted_active: Any, removed: Any) -> Any:
    """jobCtx.terminating after the sync's deletions (CountTerminatingPods, plus the pods the sync
    deleted): every pod being deleted that has not ended, holding the finalizer or not."""
    return s.terminating + s.terminating_uf + s.released + z3.If(finishing, deleted_active, removed)


def released_bounds(choices: Record, removed: Any, tracked_running: Any) -> Any:
    """How many of the running pods the sync releases stay, running, until the kubelet ends them
    (a pod already on a node has a grace period; an unscheduled one is gone once no finalizer holds
    it): of the pods manageJob deleted (deleteJobPods removes the finalizer first), and of the pods
    being deleted whose finalizer trackJobStatusAndRemoveFinalizers removed."""
    return z3.And(
        choices.released_removed >= 0,
        choices.released_removed <= removed,
        choices.released_tracked >= 0,
        choices.released_tracked <= tracked_running,
    )


def finalizers_removed(
    s: Record, got: dict[str, Any], finishing: Any, deleted_active: Any, prefix: str = ""
) -> dict[str, Any]:
    """The pod counts (fields `prefix + kind`) once the pods trackJobStatusAndRemoveFinalizers got
    to (`got`, by kind) lost their finalizer: they leave their kind; the active pods a finishing sync
    deleted are terminating, but for those it got to."""
    out = {f"{prefix}{kind}": getattr(s, f"{prefix}{kind}") - got[kind] for kind in TRACKED_KINDS}
    out[f"{prefix}terminating"] += z3.If(finishing, deleted_active - got["active"], 0)
    return out


def failures_counted(s: Record, got: dict[str, Any], active_failed: Any) -> Any:
    """status.failed after the flush: the listed UIDs whose pod is gone, and every pod counted as
    failed that the sync got to (listed before, or listed now)."""
    counted = ("failed", "failed_uf", "succeeded_uf", "terminating", "terminating_uf")
    return s.status_failed + s.gone_uf + total(got[kind] for kind in counted) + active_failed


def interim_conditions(s: Record, fc: Any, succeeding: Any) -> dict[str, Any]:
    """FailureTarget and SuccessCriteriaMet after a sync that writes its status."""
    return {
        "failure_target": z3.Or(s.failure_target, fc == NEW_FAILURE_TARGET),
        "success_criteria_met": z3.Or(s.success_criteria_met, succeeding),
    }


def final_conditions(s: Record, fc: Any, succeeding: Any, enact: Any, final_condition: Any) -> dict[str, Any]:
    """interim_conditions, and Complete or Failed once enactJobFinished adds it."""
    return {
        **interim_conditions(s, fc, succeeding),
        "complete": z3.Or(s.complete, z3.And(enact, final_condition == COMPLETE)),
        "failed_condition": z3.Or(s.failed_condition, z3.And(enact, final_condition == FAILED)),
    }


def sync(s: Record, prefix: str, move: str, controller: Controller = MODEL) -> Step:
    """syncJob (sync_job.sync_job) over the controller's cache; `move` is one of SYNC_MOVES."""
    ch = Record.symbols(SYNC_CHOICES + POLICY_SYNC_CHOICES + (ANY_SYNC_CHOICES if move == ANY_SYNC else ()), prefix)
    how = SyncKind.of(move, ch, s.spec_lags)
    pod_calls_ok, stale = how.pod_calls_ok, how.stale
    if not controller.expectations:
        s = s.replace(has_expectations=False, expect_add=0, expect_delete=0, expired=False)
    spec = spec_read(s)

    # syncJob: the counts of this sync (getNewFinishedPods; uncounted UIDs count as well).
    sat = satisfied(s)
    uncounted_s = s.succeeded_us + s.gone_us
    uncounted_f = s.terminating_uf + s.succeeded_uf + s.failed_uf + s.gone_uf
    succeeded = s.status_succeeded + s.succeeded + s.succeeded_uf + uncounted_s
    failed = s.status_failed + s.failed + failed_terminating(s, s.terminating) + uncounted_f
    failing_now = new_failure_target(s, failed, spec, ch)
    fc0 = z3.If(s.success_criteria_met, SUCCESS, z3.If(s.failure_target, FAILED, z3.If(failing_now, NEW_FAILURE_TARGET, NONE)))

    # A finishing Job: deleteActivePods, and the condition waits until every delete went through.
    finishing = fc0 != NONE
    deleted_active = ite(z3.And(finishing, pod_calls_ok), s.active, 0)
    keep_condition = z3.And(deleted_active == s.active, sat)

    # Otherwise manageJob, with satisfied expectations.
    manage = z3.And(z3.Not(finishing), sat)
    want = z3.If(
        s.has_completions,
        maximum(0, minimum(s.completions - succeeded, spec.parallelism)),
        z3.If(succeeded > 0, s.active, spec.parallelism),
    )
    to_delete = manage_deletions(spec, minimum(maximum(0, s.active - want), s.max_create_delete))
    deleting = manage_deletes(manage, spec, to_delete)
    removed = ite(pod_calls_ok, z3.If(deleting, to_delete, 0), 0)
    diff = want - z3.If(s.replace_failed_only, terminating_count(s, False, 0, 0), 0) - s.active
    wants_more = z3.And(manage, z3.Not(spec.suspended), to_delete == 0, diff > 0)
    creating = z3.And(wants_more, z3.Not(ch.backoff))
    created = ite(pod_calls_ok, z3.If(creating, minimum(diff, s.max_create_delete), 0), 0)
    # manageJob returns 0 active pods while it waits for the back-off up to 1.35 (kubernetes#139428).
    waiting_active = s.active if controller.backoff_keeps_active else 0
    active_after_manage = z3.If(
        deleting, s.active - removed, z3.If(z3.And(wants_more, ch.backoff), waiting_active, s.active + created)
    )
    active_after = z3.If(manage, active_after_manage, s.active)
    complete_now = z3.And(
        z3.Not(finishing),
        z3.If(s.has_completions, succeeded >= s.completions, succeeded > 0),
        active_after == 0,
    )
    fc = z3.If(finishing, z3.If(keep_condition, fc0, NONE), z3.If(complete_now, SUCCESS, NONE))
    failing = z3.Or(fc == NEW_FAILURE_TARGET, fc == FAILED)
    succeeding = fc == SUCCESS

    controller_after, bound_delete = expectations_after(s, deleting, creating, created, stale, ch)

    # trackJobStatusAndRemoveFinalizers: which pods it gets to (a prefix in cache order; all of
    # them unless MaxUncountedPods stops it).
    eligible = {
        "got_succeeded": s.succeeded,
        "got_succeeded_us": s.succeeded_us,
        "got_succeeded_uf": s.succeeded_uf,
        "got_failed": s.failed,
        "got_ignored": s.ignored,  # its finalizer removed, its UID listed nowhere
        "got_failed_uf": s.failed_uf,
        "got_terminating": z3.If(pods_being_deleted_tracked(s, fc), s.terminating, 0),
        "got_terminating_uf": z3.If(pods_being_deleted_tracked(s, fc), s.terminating_uf, 0),
        "got_active": z3.If(fc != NONE, s.active, 0),
    }
    got = {name: getattr(ch, name) for name in eligible}
    of = {name.removeprefix("got_"): term for name, term in got.items()}  # by pod kind
    active_failed = z3.If(failing, of["active"], 0)
    # The pods being deleted that it counts as failed (isPodFailed, or the Job is failing).
    counted = {**of, "terminating": z3.If(failing, of["terminating"], failed_terminating(s, of["terminating"]))}
    listed_before = s.succeeded_us + s.succeeded_uf + s.failed_uf + s.terminating_uf
    newly_listed = of["succeeded"] + of["failed"] + counted["terminating"] + active_failed
    processed = total(got.values())
    listed_after = listed_before + newly_listed
    reached = ch.reached_max_uncounted
    cut_off = z3.And(
        *[z3.And(got[name] >= 0, got[name] <= bound) for name, bound in eligible.items()],
        z3.Implies(
            reached,
            z3.And(
                processed >= 1,
                z3.Or(
                    z3.And(listed_before < s.max_uncounted, listed_after == s.max_uncounted),
                    z3.And(listed_before >= s.max_uncounted, processed == 1),
                ),
            ),
        ),
        z3.Implies(
            z3.Not(reached),
            z3.And(
                *[got[name] == bound for name, bound in eligible.items()],
                z3.Or(listed_after < s.max_uncounted, total(eligible.values()) == 0),
            ),
        ),
    )

    cleaned = s.gone_us + s.gone_uf > 0
    new_condition = z3.Or(fc == NEW_FAILURE_TARGET, z3.And(succeeding, z3.Not(s.success_criteria_met)))
    first_write = z3.Or(newly_listed > 0, cleaned, new_condition, ch.other_status_change)
    final_condition = z3.If(failing, FAILED, z3.If(succeeding, COMPLETE, NONE))
    terminating_now = terminating_count(s, finishing, deleted_active, removed)
    # A refused finalizer removal ends the sync before enactJobFinished.
    removal_refused = z3.And(negate(pod_calls_ok), processed > 0)
    enact = z3.And(z3.Not(removal_refused), final_condition != NONE, z3.Not(reached), terminating_now == 0)
    removed_listed = of["succeeded_us"] + of["succeeded_uf"] + of["failed_uf"] + of["terminating_uf"]
    last_write = z3.Or(removed_listed + newly_listed > 0, enact)
    bound_released = released_bounds(ch, removed, of["terminating"] + of["terminating_uf"] + of["active"])

    # Pods after manageJob / deleteActivePods.
    pods_after_manage = s.replace(
        hidden=s.hidden + ite(stale, created, 0),
        active=s.active - z3.If(finishing, deleted_active, removed) + ite(stale, 0, created),
        terminating=s.terminating + deleted_active,
        released=s.released + ch.released_removed,
    )

    # Outcome 1: the first status write is refused (sync-status-error): only manageJob's calls happened.
    write_refused = pods_after_manage.replace(**controller_after)

    # Outcome 2: pod calls refused (sync-pod-error): the status lists the new pods, finalizers stay.
    listed_kept = s.replace(
        succeeded=s.succeeded - of["succeeded"],
        succeeded_us=s.succeeded_us + of["succeeded"],
        failed=s.failed - of["failed"],
        failed_uf=s.failed_uf + of["failed"],
        terminating=s.terminating - counted["terminating"],
        terminating_uf=s.terminating_uf + counted["terminating"],
        gone_us=0,
        gone_uf=0,
        status_succeeded=s.status_succeeded + s.gone_us,
        status_failed=s.status_failed + s.gone_uf,
        **interim_conditions(s, fc, succeeding),
        **controller_after,
    )

    # Outcome 3: the sync goes through; the pods it got to lose their finalizer and are counted.
    pods_done = pods_after_manage.replace(
        **finalizers_removed(s, of, finishing, deleted_active),
        ignored=s.ignored - of["ignored"],
        succeeded_us=s.succeeded_us - of["succeeded_us"],
        released=pods_after_manage.released + ch.released_tracked,
    )
    done = pods_done.replace(
        gone_us=0,
        gone_uf=0,
        status_succeeded=s.status_succeeded + s.gone_us + of["succeeded"] + of["succeeded_us"],
        status_failed=failures_counted(s, counted, active_failed),
        **final_conditions(s, fc, succeeding, enact, final_condition),
        **controller_after,
    )
    # ... unless the last status write is refused: the finalizers are gone, the status is as it was.
    last_write_refused = pods_done.replace(
        gone_us=s.gone_us + of["succeeded_us"],
        gone_uf=s.gone_uf + of["succeeded_uf"] + of["failed_uf"] + of["terminating_uf"],
        **controller_after,
    )

    acted, outcome = how.select(
        status_write_outcomes(first_write, last_write, write_refused, last_write_refused, done), removal_refused, listed_kept
    )
    acted = shown_late(acted, how, z3.Or(first_write, last_write))
    # A sync that waits for the cache or finds the Job finished changes nothing.
    nothing = z3.Or(waits_for_the_cache(s, controller), finished(s))
    after = select(nothing, s, acted)
    guard = z3.And(how.bounds, status_late_allowed(s, how, controller), z3.Or(nothing, z3.And(cut_off, bound_delete, bound_released, outcome)))
    deleted = z3.If(finishing, deleted_active, removed)
    clean = z3.And(negate(how.status_error), pod_calls_ok, z3.Not(waits_for_the_cache(s, controller)))
    return Step(guard, after, ch, z3.If(nothing, 0, created), z3.If(nothing, 0, deleted), clean, z3.If(nothing, 0, listed_after))


NO_CHOICES: Schema = ()
SOURCE_CHOICES: Schema = (("source", INT),)  # which running pod: an index into RUNNING_SOURCES
# ... and which action of the podFailurePolicy its failure matches (an index into POLICY_ACTIONS;
# no rule matching is "count", as a Count rule's; FailIndex is for backoffLimitPerIndex only).
ACTION_CHOICES: Schema = (("action", INT),)
FAILURE_CHOICES: Schema = (*SOURCE_CHOICES, *ACTION_CHOICES)
POLICY_ACTIONS = ("count", "ignore", "fail-job")
TIME_CHOICES: Schema = (("five_minutes_pass", BOOL),)
RESTARTS_LEFT_CHOICES: Schema = (("restarts_left", INT),)  # the restarts of the pods still running after a pod ends
EDIT_CHOICES: Schema = (("parallelism", INT), ("suspended", BOOL))  # the new spec.parallelism and spec.suspend
EDIT_STALE_CHOICES: Schema = (*EDIT_CHOICES, ("rewritten", BOOL))  # the update changed the Job otherwise


def job_delivered(s: Record) -> dict[str, Any]:
    """The fields of a Job cache that shows the Job as it is (environment.deliver_job)."""
    return {"status_hidden": False, "spec_lags": False, "shown_parallelism": s.parallelism, "shown_suspended": s.suspended}


def cache_catch_up(s: Record, prefix: str, controller: Controller = MODEL) -> Step:
    """environment.cache_catch_up: the cache shows the Job's status and the pods it missed; each
    pod lowers the creation expectations."""
    after = s.replace(
        hidden=0,
        active=s.active + s.hidden,
        expect_add=z3.If(s.has_expectations, s.expect_add - s.hidden, s.expect_add),
        **job_delivered(s),
    )
    return Step(z3.Or(s.hidden > 0, s.status_hidden, s.spec_lags), after, Record(NO_CHOICES, {}))


def restart(s: Record, prefix: str, controller: Controller = MODEL) -> Step:
    """environment.restart: expectations lost, the cache listed afresh."""
    after = s.replace(
        hidden=0,
        active=s.active + s.hidden,
        has_expectations=False,
        expect_add=0,
        expect_delete=0,
        expired=False,
        **job_delivered(s),
    )
    return Step(z3.BoolVal(True), after, Record(NO_CHOICES, {}))


def time_passes(s: Record, prefix: str, controller: Controller = MODEL) -> Step:
    """expire-expectations, timer-fires, deadline-passes: the clock moves; expectations may pass
    ExpectationsTimeout (the active deadline is a choice of each sync: past_active_deadline)."""
    ch = Record.symbols(TIME_CHOICES, prefix)
    after = s.replace(expired=z3.And(s.has_expectations, z3.Or(s.expired, ch.five_minutes_pass)))
    return Step(z3.BoolVal(True), after, ch)


def edit(s: Record, prefix: str, controller: Controller = MODEL) -> Step:
    """environment.edit_job of `parallelism` or `suspend` (one move here may change both): the API
    server takes any parallelism >= 0 and either suspend (a refused edit keeps the old value); the
    cache shows the edit at once, so the writes lagging before it too (environment.deliver_job:
    the controller's status write, an earlier edit); Controller.updateJob only queues the Job."""
    ch = Record.symbols(EDIT_CHOICES, prefix)
    after = s.replace(
        parallelism=ch.parallelism,
        suspended=ch.suspended,
        status_hidden=False,
        spec_lags=False,
        shown_parallelism=ch.parallelism,
        shown_suspended=ch.suspended,
    )
    return Step(ch.parallelism >= 0, after, ch)


def edit_stale(s: Record, prefix: str, controller: Controller = MODEL) -> Step:
    """environment.edit_job_seen_late: the same edit, which the Job informer delivers late: the
    cache keeps showing the Job it showed (the Job before the edit, unless an earlier edit or a
    status write of the controller's lags too). A Job the update changed lags from then on,
    until the cache catches up: its resourceVersion is new, so the syncs' status writes
    conflict, even where a later edit restores the spec shown (the update may change what the
    relations do not count, a label: a choice); behind a status write, which the syncs wait for,
    only a spec that differs from the one shown lags (the abstraction's reading: no sync can tell)."""
    ch = Record.symbols(EDIT_STALE_CHOICES, prefix)
    shown = spec_read(s)
    differs_from_shown = z3.Or(ch.parallelism != shown.parallelism, ch.suspended != shown.suspended)
    changed = z3.Or(ch.parallelism != s.parallelism, ch.suspended != s.suspended, ch.rewritten)
    lags = z3.If(s.status_hidden, differs_from_shown, z3.Or(s.spec_lags, changed))
    after = s.replace(
        parallelism=ch.parallelism,
        suspended=ch.suspended,
        spec_lags=lags,
        shown_parallelism=z3.If(lags, shown.parallelism, ch.parallelism),
        shown_suspended=z3.If(lags, shown.suspended, ch.suspended),
    )
    return Step(ch.parallelism >= 0, after, ch)


def stutter(s: Record, prefix: str, controller: Controller = MODEL) -> Step:
    """start, ready: nothing the relation counts changes."""
    return Step(z3.BoolVal(True), s, Record(NO_CHOICES, {}))


# The running pods a pod move may end, by its `source` choice: active, being deleted (listed in
# uncountedTerminatedPods.failed or not), released (being deleted, its finalizer gone).
RUNNING_SOURCES = ("active", "terminating", "terminating_uf", "released")


def deletion_updates(s: Record, source: Any, updates: int) -> Any:
    """The deletion expectations once the informer saw `updates` events of a pod being deleted
    (each is a deletion to it: updatePod -> deletePod, as is the pod's final removal), for an
    unfinished Job with expectations; an active pod's update is none."""
    observed = z3.And(source != RUNNING_SOURCES.index("active"), s.has_expectations, job_cached_unfinished(s))
    return z3.If(observed, s.expect_delete - updates, s.expect_delete)


def _end_pod(s: Record, prefix: str, targets: tuple[str | None, ...], updates: int, failing: bool = True) -> Step:
    """A running pod of kind RUNNING_SOURCES[i] (i: the `source` choice) reaches a terminal phase
    and becomes `targets[i]` (None: no count, a released pod); the informer sees `updates` events.
    A pod that fails matches the podFailurePolicy as the `action` choice says (POLICY_ACTIONS):
    an ignored failure not yet listed is `ignored`, and a FailJob one joins `fail_job`."""
    ch = Record.symbols(FAILURE_CHOICES if failing else SOURCE_CHOICES, prefix)
    src = ch.source
    action = ch.action if failing else z3.IntVal(POLICY_ACTIONS.index("count"))
    ignoring = action == POLICY_ACTIONS.index("ignore")
    changes: dict[str, Any] = {}
    options = []
    for i, (source, target) in enumerate(zip(RUNNING_SOURCES, targets, strict=True)):
        if source == "active" and target is None:
            continue
        chosen = src == i
        options.append(z3.And(chosen, getattr(s, source) > 0))
        changes[source] = changes.get(source, getattr(s, source)) - z3.If(chosen, 1, 0)
        if target == "failed":
            changes["ignored"] = changes.get("ignored", s.ignored) + z3.If(z3.And(chosen, ignoring), 1, 0)
            changes[target] = changes.get(target, s.failed) + z3.If(z3.And(chosen, z3.Not(ignoring)), 1, 0)
        elif target is not None:
            changes[target] = changes.get(target, getattr(s, target)) + z3.If(chosen, 1, 0)
    fail_job = s.fail_job + z3.If(action == POLICY_ACTIONS.index("fail-job"), 1, 0)
    after = s.replace(**changes, fail_job=fail_job, expect_delete=deletion_updates(s, src, updates))
    return restarts_taken(s, prefix, Step(z3.And(z3.Or(*options), policy_action_allowed(s, action)), after, ch))


def restarts_taken(s: Record, prefix: str, step: Step) -> Step:
    """`step` of a pod that ends: its container restarts leave the sum (how many it had is not
    counted: a choice, `restarts_left`). Both relations' pod endings."""
    left = Record.symbols(RESTARTS_LEFT_CHOICES, prefix).restarts_left
    choices = Record(step.choices.schema + RESTARTS_LEFT_CHOICES, {**dict(step.choices), "restarts_left": left})
    return Step(z3.And(step.guard, left >= 0, left <= s.restarts), step.after.replace(restarts=left), choices)


def policy_action_allowed(s: Record, action: Any) -> Any:
    """`action` is one of POLICY_ACTIONS, and a Job without a podFailurePolicy counts every failure."""
    return z3.And(action >= 0, action < len(POLICY_ACTIONS), z3.Or(s.pod_failure_policy, action == POLICY_ACTIONS.index("count")))


def succeed(s: Record, prefix: str, controller: Controller = MODEL) -> Step:
    """environment.succeed_pod: Succeeded."""
    return _end_pod(s, prefix, ("succeeded", "succeeded", "succeeded_uf", None), updates=1, failing=False)


def fail(s: Record, prefix: str, controller: Controller = MODEL) -> Step:
    """environment.fail_pod, evict_pod: Failed."""
    return _end_pod(s, prefix, ("failed", "failed", "failed_uf", None), updates=1)


def terminate(s: Record, prefix: str, controller: Controller = MODEL) -> Step:
    """environment.terminate_pod: a pod being deleted ends, Failed (its status, then its grace
    period, two updates); a released one is then removed (its status, then its removal)."""
    return _end_pod(s, prefix, (None, "failed", "failed_uf", None), updates=2)


def restart_container(s: Record, prefix: str, controller: Controller = MODEL) -> Step:
    """environment.restart_container: a container of a running pod the cache shows, not being
    deleted, exits and the kubelet restarts it in its pod (restartPolicy OnFailure): one restart more."""
    return Step(z3.And(s.on_failure, s.active > 0), s.replace(restarts=s.restarts + 1), Record(NO_CHOICES, {}))


def delete_pod(s: Record, prefix: str, controller: Controller = MODEL) -> Step:
    """environment.delete_pod_move: an active pod is deleted by someone else; the finalizer keeps it
    (being deleted); the informer lowers the deletion expectations of an unfinished Job."""
    observed = z3.And(s.has_expectations, job_cached_unfinished(s))
    after = s.replace(
        active=s.active - 1,
        terminating=s.terminating + 1,
        expect_delete=z3.If(observed, s.expect_delete - 1, s.expect_delete),
    )
    return Step(s.active > 0, after, Record(NO_CHOICES, {}))


def pod_gc(s: Record, prefix: str, controller: Controller = MODEL) -> Step:
    """environment.pod_gc: the pod garbage collector removes a finished pod that no finalizer
    holds, which no count of the relations holds either (the tracking finalizer is gone); the
    informer sees a deletion, which lowers the deletion expectations of an unfinished Job with
    some. Which pods are finished and bare the relations do not count: any state may have one."""
    observed = z3.And(s.has_expectations, job_cached_unfinished(s))
    after = s.replace(expect_delete=z3.If(observed, s.expect_delete - 1, s.expect_delete))
    return Step(z3.BoolVal(True), after, Record(NO_CHOICES, {}))


GC_CHOICES: Schema = (("fail_job_pod", BOOL),)  # the pod removed matched a FailJob rule


def pod_gc_of_job(s: Record, prefix: str, controller: Controller = MODEL) -> Step:
    """pod_gc, whose removed pod may be one that matched a FailJob rule (the relations do not
    count which of those still hold the finalizer: any of them may go)."""
    ch = Record.symbols(GC_CHOICES, prefix)
    step = pod_gc(s, prefix, controller)
    after = step.after.replace(fail_job=s.fail_job - z3.If(ch.fail_job_pod, 1, 0))
    return Step(z3.Implies(ch.fail_job_pod, s.fail_job > 0), after, ch)


def _sync_move(name: str) -> Callable[[Record, str, Controller], Step]:
    def move(s: Record, prefix: str, controller: Controller = MODEL) -> Step:
        return sync(s, prefix, name, controller)

    move.__doc__ = f"`{name}`: syncJob."
    return move


NON_SYNC_MOVES = (
    "cache-catch-up", "restart", "time", "stutter", "succeed", "fail", "restart-container", "terminate", "delete-pod", "pod-gc",
    "edit", "edit-stale",
)
MOVES: dict[str, Callable[[Record, str, Controller], Step]] = {
    **{name: _sync_move(name) for name in SYNC_MOVES},
    "cache-catch-up": cache_catch_up,
    "restart": restart,
    "time": time_passes,
    "stutter": stutter,
    "succeed": succeed,
    "fail": fail,
    "restart-container": restart_container,
    "terminate": terminate,
    "delete-pod": delete_pod,
    "pod-gc": pod_gc_of_job,
    "edit": edit,
    "edit-stale": edit_stale,
}

# The moves of the searches for runs (stutter changes nothing, so no shortest run has one).
SEARCH_MOVES: dict[str, Callable[[Record, str, Controller], Step]] = {
    ANY_SYNC: _sync_move(ANY_SYNC),
    **{name: MOVES[name] for name in NON_SYNC_MOVES if name != "stutter"},
}
