"""Bugs of the upstream release that the model reproduces, by the status error each causes (the
signatures `jobmodel.invariants.catalogue` accepts): so that a simulation labels the API server's
refusal with the issue rather than showing a bare error (docs/invariants.md)."""

from __future__ import annotations

import attrs

from jobmodel.invariants.catalogue import (
    NO_START_TIME_WHEN_FINISHED,
    READY_ABOVE_ACTIVE,
    START_TIME_ON_RESUME,
)


@attrs.frozen
class UpstreamBug:
    """The signature of the status error, the issue, its fix, and what happens."""

    signature: str
    issue: str
    fix: str
    what: str


KNOWN_UPSTREAM_BUGS = (
    UpstreamBug(
        READY_ABOVE_ACTIVE,
        "kubernetes#139428",
        "kubernetes#139457",
        "manageJob writes active=0 while it defers pod creation for the back-off, and ready keeps the running pods",
    ),
    UpstreamBug(
        START_TIME_ON_RESUME,
        "kubernetes#134521",
        "kubernetes#134769 (in 1.32 by #135128)",
        "a resumed Job gets a new startTime, which the status validation rejects for an unsuspended Job",
    ),
    UpstreamBug(
        NO_START_TIME_WHEN_FINISHED,
        "v1.32's status validation",
        "later releases, which allow it",
        "a Job created suspended with completions: 0 completes without a startTime",
    ),
)


def known_upstream_bug(error: str) -> UpstreamBug | None:
    """The known upstream bug whose signature the error message carries, if any."""
    return next((bug for bug in KNOWN_UPSTREAM_BUGS if bug.signature in error), None)
