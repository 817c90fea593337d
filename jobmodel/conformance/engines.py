"""Engines a vector can be run through: the model itself, or another implementation that answers
the same requests (upstream's own code, for differential testing)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from jobmodel.conformance.suites import VECTOR_DEFAULT_RELEASE, suite_module
from jobmodel.errors import Unsupported
from jobmodel.features import parse_kube_version

__all__ = ["Engine", "ModelEngine", "PerReleaseEngine", "Unsupported"]


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


class PerReleaseEngine:
    """An engine per Kubernetes release, made when a case of that release first comes: each case
    goes to the engine of its `kubeVersion` (which the runner fills in) without that key, for
    engines such as upstream's code that are built for one release."""

    def __init__(self, name: str, make: Callable[[str], Engine]) -> None:
        self.name = name
        self._make = make
        self._engines: dict[str, Engine] = {}

    def engine(self, release: str) -> Engine:
        if release not in self._engines:
            self._engines[release] = self._make(release)
        return self._engines[release]

    def outcome(self, suite: str, case: Mapping[str, Any]) -> dict[str, Any]:
        release = str(case.get("kubeVersion") or VECTOR_DEFAULT_RELEASE)
        inputs = {k: v for k, v in case.items() if k != "kubeVersion"}
        return self.engine(f"1.{parse_kube_version(release, 'kubeVersion')}").outcome(suite, inputs)

    def close(self) -> None:
        for engine in self._engines.values():
            close = getattr(engine, "close", None)
            if close is not None:
                close()
        self._engines.clear()
