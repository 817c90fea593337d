"""Feature gates of the Job and CronJob controllers and the API server's batch code."""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from jobmodel.errors import InputError, quote


@attrs.frozen(cache_hash=True)
class FeatureGates:
    """Gate values; every gate defaults to on, as in the newest releases where they are GA."""

    JobPodReplacementPolicy: bool = True
    JobSuccessPolicy: bool = True
    JobManagedBy: bool = True
    JobBackoffLimitPerIndex: bool = True
    JobPodFailurePolicy: bool = True
    PodIndexLabel: bool = True
    ElasticIndexedJob: bool = True
    SidecarContainers: bool = True
    CronJobsScheduledAnnotation: bool = True

    def with_overrides(self, overrides: Mapping[str, object], field: str = "features") -> FeatureGates:
        """A copy with the given gates set; unknown names and non-boolean values are errors."""
        known = {a.name for a in attrs.fields(FeatureGates)}
        changes: dict[str, bool] = {}
        for name, value in overrides.items():
            if name not in known:
                raise InputError(f"{field}.{name}", f"unknown feature gate (known: {', '.join(sorted(known))})")
            if not isinstance(value, bool):
                raise InputError(f"{field}.{name}", "a feature gate value must be true or false")
            changes[name] = value
        return attrs.evolve(self, **changes)


DEFAULT_GATES = FeatureGates()

# The Kubernetes release whose controllers the model reproduces (the oracle protocol's handshake
# names it).
MODEL_RELEASE = "v1.32.3"


def parse_gate_overrides(text: str, option: str = "--feature-gates") -> dict[str, bool]:
    """`A=true,B=false` (as kube components take `--feature-gates`) -> checked overrides."""
    overrides: dict[str, object] = {}
    for item in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = item.partition("=")
        if not sep or value.lower() not in ("true", "false"):
            raise InputError(option, f"expected NAME=true or NAME=false, got {quote(item)}")
        overrides[name] = value.lower() == "true"
    DEFAULT_GATES.with_overrides(overrides, option)  # rejects unknown gates
    return {k: bool(v) for k, v in overrides.items()}
