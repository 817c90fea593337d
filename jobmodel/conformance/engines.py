"""Engines a vector can be run through: the model itself, or another implementation that answers
the same requests (upstream's own code, for differential testing)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, Protocol, TypeVar

from jobmodel.conformance.suites import VECTOR_DEFAULT_RELEASE, suite_module
from jobmodel.errors import Unsupported
from jobmodel.features import parse_kube_version

__all__ = ["Engine", "ModelEngine", "PerReleaseEngine", "Unsupported"]


class Engine(Protocol):
    """Answers one conformance request (a case's inputs) with the outcome in the shape `expect` uses."""

    name: str

    def outcome(self, suite: str, case: Mapping[str, Any]) -> dict[str, Any]: ...


E = TypeVar("E", bound=Engine)


class ModelEngine:
    """The model."""

    name = "model"

    def outcome(self, suite: str, case: Mapping[str, Any]) -> dict[str, Any]:
        module = suite_module(suite)
        if module is None:
            raise NotImplementedError(f"suite {suite!r} is not implemented by the model yet")
        return module.model_outcome(case)


class PerReleaseEngine(Generic[E]):
    """An engine per Kubernetes release, made when a case of that release first comes: each case
    goes to the engine of its `kubeVersion` (which the runner fills in) without that key, for
    engines such as upstream's code that are built for one release."""

    def __init__(self, name: str, make: Callable[[str], E]) -> None:
        self.name = name
        self._make = make
        self._engines: dict[str, E] = {}

    def engine(self, release: str) -> E:
        if release not in self._engines:
            self._engines[release] = self._make(release)
        return self._engines[release]

    def release_of(self, case: Mapping[str, Any]) -> str:
        """The release whose engine answers `case`."""
        return f"1.{parse_kube_version(str(case.get('kubeVersion') or VECTOR_DEFAULT_RELEASE), 'kubeVersion')}"

    def request_of(self, case: Mapping[str, Any]) -> Mapping[str, Any]:
        """What that engine is asked: the case without the release, which the engine is built for."""
        return {k: v for k, v in case.items() if k != "kubeVersion"}

    def outcome(self, suite: str, case: Mapping[str, Any]) -> dict[str, Any]:
        return self.engine(self.release_of(case)).outcome(suite, self.request_of(case))

    def close(self) -> None:
        for engine in self._engines.values():
            close = getattr(engine, "close", None)
            if close is not None:
                close()
        self._engines.clear()
