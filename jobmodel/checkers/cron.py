"""The CronJob controller as a system under check: its environment
(jobmodel.transitions.cron_environment) and its laws (jobmodel.invariants.cron), run by the same
explorer, Hypothesis machine and trace replay as the Job's.

A `CronConfig` fixes what is checked: the CronJob manifest, the hostile moves allowed, the clock
at the start, and the implementation under check by import path.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from functools import partial
from typing import Any, ClassVar, cast

import attrs

from jobmodel.api.schema import STR, member
from jobmodel.checkers.external import is_external
from jobmodel.checkers.system import (
    BudgetSplit,
    System,
    budget_from_json,
    budget_to_json,
    load_impl,
    manifest_from_json,
    trace_release,
)
from jobmodel.errors import InputError
from jobmodel.features import NEWEST_RELEASE, gates_for
from jobmodel.frozen import FrozenDict, thaw
from jobmodel.invariants.cron import CRON_LAWS, check_cron_liveness
from jobmodel.timeutil import format_time, parse_clock
from jobmodel.transitions.cron_environment import (
    CRON_MOVE_KINDS,
    START,
    CronBudget,
    CronSyncImpl,
    CronWorld,
    apply_cron_move,
    enabled_cron_moves,
    initial_cron_world,
    without_budget,
)
from jobmodel.transitions.move import budget_left, respent
from jobmodel.transitions.sync_cronjob import CronJobSyncResult, is_job_finished, sync_cronjob

DEFAULT_CRON_IMPL = "jobmodel.transitions.sync_cronjob:sync_cronjob"


@attrs.frozen
class CronConfig:
    """A CronJob manifest (frozen JSON), the budget, the implementation by import path."""

    KIND: ClassVar[str] = "CronJob"
    MOVE_KINDS: ClassVar[tuple[str, ...]] = CRON_MOVE_KINDS
    DEFAULT_IMPL: ClassVar[str] = DEFAULT_CRON_IMPL

    manifest: FrozenDict
    budget: CronBudget = CronBudget()
    impl: str = DEFAULT_CRON_IMPL
    kube_version: str = NEWEST_RELEASE
    start: datetime = START

    def initial_world(self) -> CronWorld:
        return initial_cron_world(thaw(self.manifest), self.budget, self.start, gates_for(self.kube_version))

    def sync_impl(self) -> CronSyncImpl:
        if is_external(self.impl):
            raise InputError("--impl", "a cmd: implementation takes the Job controller's step; CronJob manifests are checked with package.module:function")
        if self.impl == DEFAULT_CRON_IMPL:
            return sync_cronjob
        return cast(CronSyncImpl, load_impl(self.impl, returns=CronJobSyncResult))

    def system(self, impl: CronSyncImpl | None = None) -> System[CronWorld, CronJobSyncResult]:
        """The CronJob system checking `impl` (by default the config's `impl`)."""
        sync_impl = impl or self.sync_impl()
        return System(
            kind=self.KIND,
            initial_world=self.initial_world,
            enabled_moves=enabled_cron_moves,
            apply_move=partial(_apply, sync_impl),
            laws=CRON_LAWS,
            columns=("cronjob status", "jobs"),
            describe=lambda world: (describe_cron_job(world), describe_jobs(world)),
            liveness=partial(check_cron_liveness, sync_impl),
            budget=BudgetSplit(without_budget, budget_left, respent),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "manifest": thaw(self.manifest),
            "budget": budget_to_json(self.budget),
            "impl": self.impl,
            "start": format_time(self.start),
            "kubeVersion": self.kube_version,
        }

    @staticmethod
    def from_json(value: Mapping[str, Any], path: str = "config") -> CronConfig:
        return CronConfig(
            manifest=manifest_from_json(value, path, "CronJob"),
            budget=budget_from_json(CronBudget, value.get("budget") or {}, f"{path}.budget"),
            impl=member(value, "impl", STR, path) or DEFAULT_CRON_IMPL,
            kube_version=trace_release(value, path),
            start=parse_clock(value.get("start", format_time(START)), f"{path}.start"),
        )


def _apply(impl: CronSyncImpl, world: CronWorld, move: Any) -> tuple[CronWorld, CronJobSyncResult | None]:
    return apply_cron_move(world, move, impl)


def cron_manifest(schedule: str, policy: str = "Allow", **spec: Any) -> dict[str, Any]:
    """A small CronJob manifest for the checkers' configurations."""
    job_spec = {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "main", "image": "busybox"}]}}}
    body: Mapping[str, Any] = {"schedule": schedule, "concurrencyPolicy": policy, "jobTemplate": {"spec": job_spec}, **spec}
    return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": "cj", "namespace": "default"}, "spec": body}


# --- a world in a step table ------------------------------------------------------------------------


def describe_cron_job(world: CronWorld) -> str:
    status = world.cron_job.status
    last = format_time(status.last_schedule_time) if status.last_schedule_time else "-"
    text = f"now={format_time(world.now)} active={len(status.active)} lastSchedule={last}"
    return text + (" (cache stale)" if world.cached is not None else "")


def describe_jobs(world: CronWorld) -> str:
    out = []
    for job in world.owned():
        done, ctype = is_job_finished(job)
        out.append(f"{job.metadata.name}:{ctype if done else 'Running'}")
    return " ".join(out) or "-"
