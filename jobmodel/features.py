"""Feature gates of the Job and CronJob controllers and the API server's batch code, per release.

A `FeatureGates` value is the gate set of one supported Kubernetes release (`release`, its minor
version): the release fixes which gates exist, their defaults and which are locked (GA), and the
code paths that no gate governs (transitions read `gates.release`). The table below is read from
each release's `pkg/features/kube_features.go` (docs/versions.md).
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from jobmodel.errors import InputError, quote

OLDEST_MINOR = 32
NEWEST_MINOR = 37
SUPPORTED_MINORS = tuple(range(OLDEST_MINOR, NEWEST_MINOR + 1))
NEWEST_RELEASE = f"1.{NEWEST_MINOR}"

# The k8s.io/kubernetes release each minor follows (harness/upstream/build.py builds the same).
RELEASE_PINS: Mapping[int, str] = {
    32: "v1.32.3",
    33: "v1.33.13",
    34: "v1.34.4",
    35: "v1.35.4",
    36: "v1.36.3",
    37: "v1.37.2",
}


@attrs.frozen
class GateStage:
    """A gate in one release: its default, whether it is locked to it, and its maturity."""

    default: bool
    locked: bool
    stage: str  # Alpha, Beta, GA


_A_OFF = GateStage(False, False, "Alpha")
_B_ON = GateStage(True, False, "Beta")
_GA = GateStage(True, True, "GA")

# gate -> {minor: stage} for the releases that register it; a release absent from a gate's row
# either predates the gate (its code is not there: the value is False) or removed it (the code
# is unconditional: the value is True).
GATE_TABLE: Mapping[str, Mapping[int, GateStage]] = {
    "JobPodFailurePolicy": {32: _GA},
    "ElasticIndexedJob": {32: _GA, 33: _GA},
    "JobBackoffLimitPerIndex": {32: _B_ON, 33: _GA, 34: _GA, 35: _GA, 36: _GA},
    "JobPodReplacementPolicy": {32: _B_ON, 33: _B_ON, 34: _GA, 35: _GA, 36: _GA},
    "JobSuccessPolicy": {32: _B_ON, 33: _GA, 34: _GA, 35: _GA, 36: _GA},
    "PodIndexLabel": {32: _GA, 33: _GA, 34: _GA},
    "CronJobsScheduledAnnotation": {32: _GA, 33: _GA, 34: _GA},
    "JobManagedBy": {32: _B_ON, 33: _B_ON, 34: _B_ON, 35: _GA, 36: _GA, 37: _GA},
    "SidecarContainers": {32: _B_ON, 33: _GA, 34: _GA, 35: _GA, 36: _GA},
    "MutableSchedulingDirectivesForSuspendedJobs": {35: _A_OFF, 36: _B_ON, 37: _B_ON},
    "MutablePodResourcesForSuspendedJobs": {35: _A_OFF, 36: _B_ON, 37: _B_ON},
    "StaleControllerConsistencyJob": {36: _B_ON, 37: _B_ON},
    "WorkloadWithJob": {36: _A_OFF, 37: _A_OFF},
}

# Gates the model registers but does not model: turning one on is refused.
NOT_MODELLED = {"WorkloadWithJob": "Workload and PodGroup objects for gang scheduling are not modelled"}


def gate_stage(name: str, minor: int) -> GateStage | None:
    return GATE_TABLE[name].get(minor)


def gate_value_when_unregistered(name: str, minor: int) -> bool:
    """Before a gate exists its code is absent (False); after its removal the code is always on."""
    return minor > max(GATE_TABLE[name])


def release_defaults(minor: int) -> dict[str, bool]:
    """Every gate's value in a release with no overrides."""
    values: dict[str, bool] = {}
    for name in GATE_TABLE:
        stage = gate_stage(name, minor)
        values[name] = stage.default if stage is not None else gate_value_when_unregistered(name, minor)
    return values


def release_gates(minor: int) -> list[str]:
    """The gates a release registers (that `--feature-gates` may name), in table order."""
    return [name for name, stages in GATE_TABLE.items() if minor in stages]


def parse_kube_version(text: str, option: str = "--kube-version") -> int:
    """`1.37` (or `v1.37`, `1.37.2`) -> 37; unsupported releases are errors naming the supported ones."""
    supported = ", ".join(f"1.{m}" for m in SUPPORTED_MINORS)
    parts = text.strip().removeprefix("v").split(".")
    if len(parts) in (2, 3) and parts[0] == "1" and all(p.isdigit() for p in parts[1:]):
        minor = int(parts[1])
        if minor in SUPPORTED_MINORS:
            return minor
    raise InputError(option, f"unsupported Kubernetes release {text!r} (supported: {supported})")


@attrs.frozen(cache_hash=True)
class FeatureGates:
    """The gate values of one release (`release`: its minor version). Construct with `for_release`;
    the field defaults are the newest release's defaults."""

    release: int = NEWEST_MINOR
    JobPodReplacementPolicy: bool = True
    JobSuccessPolicy: bool = True
    JobManagedBy: bool = True
    JobBackoffLimitPerIndex: bool = True
    JobPodFailurePolicy: bool = True
    PodIndexLabel: bool = True
    ElasticIndexedJob: bool = True
    SidecarContainers: bool = True
    CronJobsScheduledAnnotation: bool = True
    MutableSchedulingDirectivesForSuspendedJobs: bool = True
    MutablePodResourcesForSuspendedJobs: bool = True
    StaleControllerConsistencyJob: bool = True
    WorkloadWithJob: bool = False

    @classmethod
    def for_release(cls, minor: int) -> FeatureGates:
        """The release's defaults."""
        return cls(release=minor, **release_defaults(minor))

    @property
    def kube_version(self) -> str:
        return f"1.{self.release}"

    def at_least(self, minor: int) -> bool:
        """Whether the modelled release is 1.<minor> or later (code paths no gate governs)."""
        return self.release >= minor

    def with_overrides(
        self, overrides: Mapping[str, object], field: str = "features", *, emulation_fallback: bool = True
    ) -> FeatureGates:
        """A copy with the given gates set, checked as the release's gate flag parsing does.

        A gate the release does not register is `unrecognized`; a locked gate set to the other
        value is refused, unless `emulation_fallback` and the gate was not yet locked one release
        earlier: then it is set as at emulation version 1.<release-1>, as upstream's tests do
        (SetFeatureGateEmulationVersionDuringTest) and the upstream harness does for vectors.
        """
        changes: dict[str, bool] = {}
        registered = release_gates(self.release)
        for name, value in overrides.items():
            if not isinstance(value, bool):
                raise InputError(f"{field}.{name}", "a feature gate value must be true or false")
            stage = gate_stage(name, self.release) if name in GATE_TABLE else None
            if stage is None:
                raise InputError(
                    f"{field}.{name}",
                    f"unrecognized feature gate in Kubernetes {self.kube_version} "
                    f"(its gates: {', '.join(sorted(registered))})",
                )
            settable_earlier = emulation_fallback and _was_unlocked_before(name, self.release)
            if stage.locked and value != stage.default and not settable_earlier:
                raise InputError(
                    f"{field}.{name}",
                    f"cannot set feature gate {name} to {str(value).lower()}, feature is locked to "
                    f"{str(stage.default).lower()} in Kubernetes {self.kube_version} ({stage.stage})",
                )
            if value and name in NOT_MODELLED:
                raise InputError(f"{field}.{name}", f"not modelled: {NOT_MODELLED[name]}")
            changes[name] = value
        _check_emulated_together(self.release, changes, field)
        return attrs.evolve(self, **changes)


# Releases before 1.32 as far as the emulation fallback needs them: the gates that became GA
# (locked) in 1.32 itself (PodIndexLabel, CronJobsScheduledAnnotation); JobPodFailurePolicy and
# ElasticIndexedJob were GA already in 1.31.
_GA_SINCE: Mapping[str, int] = {
    "JobPodFailurePolicy": 31,
    "ElasticIndexedJob": 31,
    "PodIndexLabel": 32,
    "CronJobsScheduledAnnotation": 32,
    "JobBackoffLimitPerIndex": 33,
    "JobSuccessPolicy": 33,
    "SidecarContainers": 33,
    "JobPodReplacementPolicy": 34,
    "JobManagedBy": 35,
}

# The Kubernetes release whose controllers the model reproduces (the oracle protocol's handshake
# names it).
MODEL_RELEASE = "v1.32.3"


def _check_emulated_together(minor: int, changes: Mapping[str, bool], field: str) -> None:
    """At the previous emulation version (a GA gate turned off) every gate of the request is set
    there, as featuregate's SetEmulationVersion re-applies them: one the release introduced is
    PreAlpha there and refused, whatever its value."""
    fallback = [n for n, v in changes.items() if (st := gate_stage(n, minor)) is not None and st.locked and v != st.default]
    if not fallback or minor - 1 < OLDEST_MINOR:
        return
    for name, value in changes.items():
        if gate_stage(name, minor - 1) is None and min(GATE_TABLE[name]) > minor - 1:
            raise InputError(
                f"{field}.{name}",
                f"cannot set feature gate {name} to {str(value).lower()}, feature is PreAlpha at emulated version "
                f"1.{minor - 1}, where turning off {fallback[0]} puts Kubernetes 1.{minor}",
            )


def _was_unlocked_before(name: str, minor: int) -> bool:
    """Whether the gate was still settable at emulation version 1.<minor-1>."""
    return _GA_SINCE.get(name, minor + 1) >= minor


DEFAULT_GATES = FeatureGates.for_release(NEWEST_MINOR)


def gates_for(kube_version: str | None, option: str = "--kube-version") -> FeatureGates:
    """The default gates of the release named (the newest when None)."""
    return FeatureGates.for_release(NEWEST_MINOR if kube_version is None else parse_kube_version(kube_version, option))


# A conformance case (or file) without `kubeVersion` describes this release: the shared vectors' line.
VECTOR_DEFAULT_RELEASE = "1.32"


def vector_gates(kube_version: object, features: object) -> FeatureGates:
    """The gates a vector case runs with: its release's defaults (`kubeVersion`, 1.32 when absent),
    then its `features`, set as upstream's tests set them (a gate GA in that very release at the
    previous emulation version)."""
    if kube_version is None:
        kube_version = VECTOR_DEFAULT_RELEASE
    if not isinstance(kube_version, str):
        raise InputError("kubeVersion", 'expected a release as a string, e.g. "1.37"')
    if features is None:
        features = {}
    if not isinstance(features, Mapping):
        raise InputError("features", "expected an object of gate names to true or false")
    return FeatureGates.for_release(parse_kube_version(kube_version, "kubeVersion")).with_overrides(features)


def parse_gate_overrides(text: str, option: str = "--feature-gates", base: FeatureGates = DEFAULT_GATES) -> dict[str, bool]:
    """`A=true,B=false` (as kube components take `--feature-gates`) -> overrides checked against
    the release of `base` (strictly: locked gates cannot be changed)."""
    overrides: dict[str, object] = {}
    for item in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = item.partition("=")
        if not sep or value.lower() not in ("true", "false"):
            raise InputError(option, f"expected NAME=true or NAME=false, got {quote(item)}")
        overrides[name] = value.lower() == "true"
    base.with_overrides(overrides, option, emulation_fallback=False)
    return {k: bool(v) for k, v in overrides.items()}


def gates_from_options(kube_version: str | None, feature_gates: str) -> FeatureGates:
    """The gates a command runs with: the release's defaults, then `--feature-gates`."""
    base = gates_for(kube_version)
    return base.with_overrides(parse_gate_overrides(feature_gates, base=base), "--feature-gates", emulation_fallback=False)
