"""Errors for bad input: each names the field and the reason."""

from __future__ import annotations


class InputError(ValueError):
    """Input that cannot be taken: `field` is a JSON path such as `spec.completions`."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}" if field else reason)
        self.field = field
        self.reason = reason


class Unsupported(Exception):
    """An engine cannot run this case faithfully (e.g. a real cluster has no clock that stands
    still, another implementation does not answer a suite); the message says why. The case is
    reported as unsupported, neither passed nor failed."""
