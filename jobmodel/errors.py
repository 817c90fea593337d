"""Errors for bad input: each names the field and the reason."""

from __future__ import annotations


class InputError(ValueError):
    """Input that cannot be taken: `field` is a JSON path such as `spec.completions`."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}" if field else reason)
        self.field = field
        self.reason = reason
