"""Engines a vector can be run through: the model itself, or another implementation that answers
the same requests (upstream's own code, for differential testing)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from jobmodel.conformance.suites import suite_module
from jobmodel.errors import Unsupported

__all__ = ["Engine", "ModelEngine", "Unsupported"]


class Engine(Protocol):
    """Answers one conformance request (a case's inputs) with the outcome in the shape `expect` uses."""

    name: str

    def outcome(self, suite: str, case: Mapping[str, Any]) -> dict[str, Any]: ...


class ModelEngine:
    """The model."""

    name = "model"

    def outcome(self, suite: str, case: Mapping[str, Any]) -> dict[str, Any]:
        module = suite_module(suite)
        if module is None:
            raise NotImplementedError(f"suite {suite!r} is not implemented by the model yet")
        return module.model_outcome(case)
