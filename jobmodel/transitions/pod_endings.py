"""How the checkers' pods end: the ways a pod of a Job can fail, read from the Job's
podFailurePolicy, and the container statuses a pod has once it succeeded, failed or was killed.

A failure is named by a short string (the `fail` move's argument), so that traces can be saved
and read: `""` is the failure of a Job without a podFailurePolicy (the first container exits 1);
`exit=42@main` is exit code 42 in container `main`; `cond=DisruptionTarget` is a pod condition
(status True; `cond=ConfigIssue:False` names another status) with an exit code that no rule
matches. `failure_modes(job)` lists every failure the policy's rules name (each exit code in the
container a rule names, and, where the pod has another container, the same code there, which the
rule must not match), each pod condition (and the same condition with the other status, which the
rule must not match), and one failure that no rule matches.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from functools import lru_cache

import attrs

from jobmodel.errors import InputError
from jobmodel.state import (
    ContainerStateTerminated,
    ContainerStatus,
    Job,
    OnExitCodesRequirement,
    PodCondition,
    PodFailurePolicy,
)
from jobmodel.util.gostrings import go_parse_int

DEFAULT_EXIT_CODE = 1
SIGTERM_EXIT_CODE = 143  # the kubelet stops a deleted pod's containers with SIGTERM
MAX_CODES_PER_RULE = 2  # the first values of an `In` rule: enough to tell rules apart
MAX_MODES = 8


@attrs.frozen
class Failure:
    """One way a pod fails: an exit code in a container (an init container when `init`), and
    the pod conditions it gets."""

    exit_code: int = DEFAULT_EXIT_CODE
    container: str | None = None  # None: the pod's first container
    conditions: tuple[tuple[str, str], ...] = ()  # (type, status)


def container_names(job: Job) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The names of the Job's pod template's init containers and containers."""
    spec = job.spec.template.spec

    def names(key: str) -> tuple[str, ...]:
        items = spec.get(key) or ()
        return tuple(str(c.get("name", "")) for c in items if isinstance(c, Mapping))

    return names("initContainers"), names("containers")


@lru_cache(maxsize=1 << 10)
def failure_modes(job: Job | None) -> tuple[str, ...]:
    """The `fail` move's arguments for this Job (see the module docstring)."""
    policy = job.spec.pod_failure_policy if job is not None else None
    if job is None or policy is None or not policy.rules:
        return ("",)
    inits, containers = container_names(job)
    first = containers[0] if containers else "main"
    neutral = _neutral_exit_code(policy, (*inits, *containers))
    modes: list[str] = []
    for rule in policy.rules:
        if rule.on_exit_codes is not None:
            req = rule.on_exit_codes
            for code in _codes_named(req):
                named = req.container_name or first
                if named in inits or named in containers:
                    modes.append(f"exit={code}@{named}")
                others = [c for c in containers if c != named]
                if req.container_name is not None and others:
                    modes.append(f"exit={code}@{others[0]}")
        for pattern in rule.on_pod_conditions or ():
            modes.append(_condition_mode(pattern.type, pattern.status))
            # The same condition with the other status, which the pattern must not match.
            modes.append(_condition_mode(pattern.type, "False" if pattern.status == "True" else "True"))
    if neutral is not None:
        modes.append(f"exit={neutral}@{first}")
    return tuple(dict.fromkeys(modes))[:MAX_MODES]


def _condition_mode(ctype: str, status: str) -> str:
    return f"cond={ctype}" if status == "True" else f"cond={ctype}:{status}"


def _codes_named(req: OnExitCodesRequirement) -> list[int]:
    """The exit codes a rule names: the first values of `In`; for `NotIn`, the smallest
    non-zero code it does not list (a code the rule matches)."""
    if req.operator == "In":
        return [v for v in req.values if v != 0][:MAX_CODES_PER_RULE]
    code = next(c for c in range(1, 256) if c not in req.values)
    return [code]


def _neutral_exit_code(policy: PodFailurePolicy, containers: Iterable[str]) -> int | None:
    """The smallest non-zero exit code that no onExitCodes rule matches in any container."""
    names = tuple(containers)
    for code in range(1, 256):
        if not any(
            rule.on_exit_codes is not None and _matches(rule.on_exit_codes, code, name)
            for rule in policy.rules
            for name in names
        ):
            return code
    return None


def _matches(req: OnExitCodesRequirement, code: int, container: str) -> bool:
    if req.container_name is not None and req.container_name != container:
        return False
    return code in req.values if req.operator == "In" else code not in req.values


def parse_failure(job: Job | None, arg: str) -> Failure:
    """The failure a `fail` move's argument names; a malformed one is an InputError."""
    if arg == "":
        return Failure()
    kind, sep, value = arg.partition("=")
    if kind == "exit" and sep:
        code, _, container = value.partition("@")
        try:
            exit_code = go_parse_int(code, 32)  # an int32, as the container status holds it
        except ValueError:
            raise InputError("move.arg", f"{arg!r}: the exit code is an integer") from None
        return Failure(exit_code, container or None)
    if kind == "cond" and sep and value:
        ctype, _, status = value.partition(":")
        policy = job.spec.pod_failure_policy if job is not None else None
        neutral = _neutral_exit_code(policy, [n for group in container_names(job) for n in group]) if job and policy else None
        return Failure(neutral or DEFAULT_EXIT_CODE, None, ((ctype, status or "True"),))
    raise InputError("move.arg", f"{arg!r}: expected exit=CODE@CONTAINER or cond=TYPE[:STATUS]")


def terminated_statuses(
    job: Job | None, now: datetime, failure: Failure | None = None, all_code: int = 0
) -> tuple[tuple[ContainerStatus, ...], tuple[ContainerStatus, ...]]:
    """(init container statuses, container statuses) of a pod whose containers all ended: with
    `all_code` (0: it succeeded), except the failing container of `failure`. A failure in an init
    container leaves the regular containers without a status (they never started)."""
    inits, containers = container_names(job) if job is not None else ((), ())
    if not containers:
        containers = ("main",)
    failing = None
    if failure is not None:
        failing = failure.container or containers[0]

    def status(name: str) -> ContainerStatus:
        code = failure.exit_code if failure is not None and name == failing else all_code
        return ContainerStatus(name=name, terminated=ContainerStateTerminated(exit_code=code, finished_at=now))

    if failing is not None and failing in inits:
        # An init container failed: the later ones and the regular containers never ran.
        return tuple(status(n) for n in inits[: inits.index(failing) + 1]), ()
    if failing is not None and failing not in containers:
        raise InputError("move.arg", f"the pod has no container {failing!r}")
    return tuple(status(n) for n in inits), tuple(status(n) for n in containers)


def failure_conditions(failure: Failure, now: datetime) -> tuple[PodCondition, ...]:
    return tuple(PodCondition(ctype, status, last_transition_time=now) for ctype, status in failure.conditions)
