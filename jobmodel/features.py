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

# gate -> its versioned specs, oldest first: {minor: stage from that version on}, as every
# release's pkg/features/kube_features.go lists them (the releases 1.32..1.37 agree on each
# gate's history; a release that removed a gate drops the whole list). At emulation version 1.V
# a gate has the spec of its newest entry <= V, and none (PreAlpha: off, not settable) before
# its first (featuregate's featureSpecAtEmulationAndMinCompatVersion).
GATE_SPECS: Mapping[str, Mapping[int, GateStage]] = {
    "JobPodFailurePolicy": {25: _A_OFF, 26: _B_ON, 31: _GA},
    "ElasticIndexedJob": {27: _B_ON, 31: _GA},
    "JobBackoffLimitPerIndex": {28: _A_OFF, 29: _B_ON, 33: _GA},
    "JobPodReplacementPolicy": {28: _A_OFF, 29: _B_ON, 34: _GA},
    "JobSuccessPolicy": {30: _A_OFF, 31: _B_ON, 33: _GA},
    "PodIndexLabel": {28: _B_ON, 32: _GA},
    "CronJobsScheduledAnnotation": {28: _B_ON, 32: _GA},
    "JobManagedBy": {30: _A_OFF, 32: _B_ON, 35: _GA},
    "SidecarContainers": {28: _A_OFF, 29: _B_ON, 33: _GA},
    "MutableSchedulingDirectivesForSuspendedJobs": {35: _A_OFF, 36: _B_ON},
    "MutablePodResourcesForSuspendedJobs": {35: _A_OFF, 36: _B_ON},
    "StaleControllerConsistencyJob": {36: _B_ON},
    "WorkloadWithJob": {36: _A_OFF},
}

# gate -> the supported releases that register it (before: its code is not there, the value
# is False; after: removed, its code is unconditional, the value is True).
GATE_RELEASES: Mapping[str, range] = {
    "JobPodFailurePolicy": range(32, 33),
    "ElasticIndexedJob": range(32, 34),
    "JobBackoffLimitPerIndex": range(32, 37),
    "JobPodReplacementPolicy": range(32, 37),
    "JobSuccessPolicy": range(32, 37),
    "PodIndexLabel": range(32, 35),
    "CronJobsScheduledAnnotation": range(32, 35),
    "JobManagedBy": range(32, 38),
    "SidecarContainers": range(32, 37),
    "MutableSchedulingDirectivesForSuspendedJobs": range(35, 38),
    "MutablePodResourcesForSuspendedJobs": range(35, 38),
    "StaleControllerConsistencyJob": range(36, 38),
    "WorkloadWithJob": range(36, 38),
}


def spec_at(name: str, version: int) -> GateStage | None:
    """A gate's spec at emulation version 1.<version>: its newest entry not after it (None: PreAlpha)."""
    entries = [v for v in GATE_SPECS[name] if v <= version]
    return GATE_SPECS[name][max(entries)] if entries else None


# gate -> {minor: stage} for the releases that register it (each at its own version).
GATE_TABLE: Mapping[str, Mapping[int, GateStage]] = {
    name: {minor: stage for minor in GATE_RELEASES[name] if (stage := spec_at(name, minor)) is not None} for name in GATE_SPECS
}

# The oldest emulation version: the first release that has one (k8s.io/apiserver
# pkg/util/compatibility minimumKubeEmulationVersion). kube-apiserver and kube-controller-manager
# accept 1.<R-3> at the oldest, but upstream's own tests set the emulation version with no floor
# (featuregatetesting.SetFeatureGateEmulationVersionDuringTest; DefaultKubeEffectiveVersionForTest:
# floor 0.0) and go as far back as 1.32 at 1.37, so the fallback goes back to this one.
OLDEST_EMULATION_MINOR = 31

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
    if len(parts) in (2, 3) and parts[0] == "1" and all(p.isascii() and p.isdigit() for p in parts[1:]):
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
        value is refused, unless `emulation_fallback`: then the gates are set at the newest
        earlier emulation version (back to OLDEST_EMULATION_MINOR) where every value asked for is
        settable, and every other gate takes its default there, as upstream's tests do
        (SetFeatureGateEmulationVersionDuringTest) and the upstream harness does for vectors.
        """
        changes: dict[str, bool] = {}
        registered = release_gates(self.release)
        for name, value in overrides.items():
            if not isinstance(value, bool):
                raise InputError(f"{field}.{name}", "a feature gate value must be true or false")
            if name not in GATE_TABLE or gate_stage(name, self.release) is None:
                raise InputError(
                    f"{field}.{name}",
                    f"unrecognized feature gate in Kubernetes {self.kube_version} "
                    f"(its gates: {', '.join(sorted(registered))})",
                )
            if value and name in NOT_MODELLED:
                raise InputError(f"{field}.{name}", f"not modelled: {NOT_MODELLED[name]}")
            changes[name] = value
        version = emulation_version(self.release, changes, field, fallback=emulation_fallback)
        if version == self.release:
            return attrs.evolve(self, **changes)
        # A gate this value already set (it differs from the release's default: a scenario's
        # earlier step) keeps its value where the emulation version lets it be set, as featuregate
        # re-applies the values it was given at a new emulation version.
        release = release_defaults(self.release)
        kept = {
            n: v
            for n in release_gates(self.release)
            if (v := getattr(self, n)) != release[n] and unsettable(n, v, version) is None
        }
        return attrs.evolve(self, **{**defaults_at_emulation(self.release, version), **kept, **changes})


def unsettable(name: str, value: bool, version: int) -> str | None:
    """Why a registered gate cannot be set to `value` at emulation version 1.<version> (None: it
    can): PreAlpha there whatever the value, or locked to the other value (featuregate's
    unsafeSetFromMap)."""
    spec = spec_at(name, version)
    if spec is None:
        return f"feature is PreAlpha at emulated version 1.{version}"
    if spec.locked and spec.default != value:
        return f"feature is locked to {str(spec.default).lower()}"
    return None


def emulation_version(minor: int, changes: Mapping[str, bool], field: str = "features", *, fallback: bool = True) -> int:
    """The emulation version the gates of Kubernetes 1.<minor> are set at for `changes` (gates
    the release registers): the release's own when every value is settable there, else (with
    `fallback`) the newest earlier one, back to OLDEST_EMULATION_MINOR, where every value is;
    otherwise an error naming the gate and the reason."""
    refused = {n: why for n, v in changes.items() if (why := unsettable(n, v, minor)) is not None}
    if not refused:
        return minor
    name, why = next(iter(refused.items()))
    locked_error = InputError(
        f"{field}.{name}",
        f"cannot set feature gate {name} to {str(changes[name]).lower()}, {why} in Kubernetes 1.{minor} "
        f"({GATE_TABLE[name][minor].stage})",
    )
    if not fallback:
        raise locked_error
    for version in range(minor - 1, OLDEST_EMULATION_MINOR - 1, -1):
        if all(unsettable(n, v, version) is None for n, v in changes.items()):
            return version
    # None works: the gates locked in the release alone, if some version allows them, have the
    # others refused there; else the first of them cannot be turned at any version.
    for version in range(minor - 1, OLDEST_EMULATION_MINOR - 1, -1):
        if all(unsettable(n, changes[n], version) is None for n in refused):
            other, reason = next((n, r) for n, v in changes.items() if (r := unsettable(n, v, version)) is not None)
            raise InputError(
                f"{field}.{other}",
                f"cannot set feature gate {other} to {str(changes[other]).lower()}, {reason}, where setting "
                f"{name} to {str(changes[name]).lower()} puts Kubernetes 1.{minor}",
            )
    raise InputError(
        locked_error.field,
        f"{locked_error.reason}, and at every emulation version back to 1.{OLDEST_EMULATION_MINOR}",
    )


def defaults_at_emulation(minor: int, version: int) -> dict[str, bool]:
    """The values of Kubernetes 1.<minor>'s gates at emulation version 1.<version>: each gate the
    release registers at its spec's default there (off when PreAlpha), the others as in the release."""
    values = release_defaults(minor)
    for name in release_gates(minor):
        spec = spec_at(name, version)
        values[name] = spec is not None and spec.default
    return values


# The Kubernetes release whose controllers the model reproduces (the oracle protocol's handshake
# names it).
MODEL_RELEASE = "v1.32.3"


DEFAULT_GATES = FeatureGates.for_release(NEWEST_MINOR)


def gates_for(kube_version: str | None, option: str = "--kube-version") -> FeatureGates:
    """The default gates of the release named (the newest when None)."""
    return FeatureGates.for_release(NEWEST_MINOR if kube_version is None else parse_kube_version(kube_version, option))


# A conformance case (or file) without `kubeVersion` describes this release: the shared vectors' line.
VECTOR_DEFAULT_RELEASE = "1.32"


def vector_gates(kube_version: object, features: object) -> FeatureGates:
    """The gates a vector case runs with: its release's defaults (`kubeVersion`, 1.32 when absent),
    then its `features`, set as upstream's tests set them (a gate the release locked at the newest
    earlier emulation version that has it settable, the other gates at their defaults there)."""
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
