"""The drops of `pkg/api/pod/util.go`'s dropDisabledFields (run by DropDisabledTemplateFields on a
Job's or a CronJob's pod template) for the gates whose default is off in a release that has
their field, and the in-use look at the old template that keeps a field, or allows an action
(the other gates' drops: pod_security, pod_env, pod_resources, strategy.drop_container_restart_rules).

Gate defaults per release (`pkg/features/kube_features.go` of each release):

- InPlacePodVerticalScaling: off at 1.32 (containers' resizePolicy), on from 1.33;
- ContainerStopSignals: off from 1.33, where lifecycle.stopSignal appears, through 1.37;
- HostnameOverride: off at 1.34 (hostnameOverride), on from 1.35;
- GenericWorkload: off at 1.35 (workloadRef) and 1.36, 1.37 (schedulingGroup);
- EvictionRequestAPI, H2CContainerProbe, GRPCContainerProbeTLS, VolumeBindMountOptions: off at 1.37,
  where evictionResponders, the httpGet protocol, the gRPC mode and bindMountOptions appear;
- RestartAllContainersOnContainerExits: off at 1.35, on from 1.36.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from jobmodel.api.pod_util import CONTAINER_KINDS, visit_containers_with_path

Spec = Mapping[str, Any] | None


def _containers(spec: Spec, kinds: tuple[str, ...] = CONTAINER_KINDS) -> Iterator[Any]:
    """The containers of `kinds` (VisitContainers' order), without their paths."""
    for key in kinds:
        yield from (spec or {}).get(key) or []


def in_place_pod_vertical_scaling_in_use(spec: Spec) -> bool:
    """inPlacePodVerticalScalingInUse (1.32): a regular container has a resizePolicy."""
    return any(c.get("resizePolicy") for c in _containers(spec, ("containers",)))


def container_stop_signals_in_use(spec: Spec) -> bool:
    """containerStopSignalsInUse (1.33+)."""
    return any((c.get("lifecycle") or {}).get("stopSignal") is not None for c, _ in visit_containers_with_path(spec))


def drop_container_stop_signals(spec: Mapping[str, Any]) -> None:
    """dropContainerStopSignals' drop: no stopSignal, and a lifecycle left empty is dropped."""
    for ctr in _containers(spec):
        lifecycle = ctr.get("lifecycle")
        if isinstance(lifecycle, dict) and lifecycle.pop("stopSignal", None) is not None and not lifecycle:
            ctr.pop("lifecycle")


_PROBES = ("livenessProbe", "readinessProbe", "startupProbe")
_HANDLERS = ("postStart", "preStop")


def _http_gets(ctr: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """The httpGet actions of a container's probes and lifecycle handlers."""
    lifecycle = ctr.get("lifecycle") or {}
    for holder in [ctr.get(p) for p in _PROBES] + [lifecycle.get(h) for h in _HANDLERS]:
        if isinstance(holder, dict) and isinstance(holder.get("httpGet"), dict):
            yield holder["httpGet"]


def http_probe_protocol_in_use(spec: Spec) -> bool:
    """httpProbeProtocolInUse (1.37)."""
    return any(h.get("protocol") is not None for c in _containers(spec) for h in _http_gets(c))


def _grpcs(ctr: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    for probe in (ctr.get(p) for p in _PROBES):
        if isinstance(probe, dict) and isinstance(probe.get("grpc"), dict):
            yield probe["grpc"]


def grpc_probe_mode_in_use(spec: Spec) -> bool:
    """grpcProbeModeInUse (1.37)."""
    return any(g.get("mode") is not None for c in _containers(spec) for g in _grpcs(c))


def bind_mount_options_in_use(spec: Spec) -> bool:
    """bindMountOptionsInUse (1.37)."""
    return any(m.get("bindMountOptions") for c in _containers(spec) for m in c.get("volumeMounts") or [])


def _drop_each(items: Iterator[dict[str, Any]], key: str) -> None:
    for item in items:
        item.pop(key, None)


def drop_disabled_pod_fields(spec: dict[str, Any], old: Spec, release: int) -> None:
    """dropDisabledFields' drops of the gates above at a release (their defaults), in place: a
    field is dropped unless the old template uses it."""
    if release == 32 and not in_place_pod_vertical_scaling_in_use(old):
        _drop_each(_containers(spec), "resizePolicy")
    if release >= 33 and not container_stop_signals_in_use(old):
        drop_container_stop_signals(spec)
    if release == 34 and (old or {}).get("hostnameOverride") is None:
        spec.pop("hostnameOverride", None)
    if release == 35 and (old or {}).get("workloadRef") is None:
        spec.pop("workloadRef", None)
    if release >= 36 and (old or {}).get("schedulingGroup") is None:
        spec.pop("schedulingGroup", None)
    if release >= 37:
        if not (old or {}).get("evictionResponders"):
            spec.pop("evictionResponders", None)
        if not http_probe_protocol_in_use(old):
            _drop_each((h for c in _containers(spec) for h in _http_gets(c)), "protocol")
        if not grpc_probe_mode_in_use(old):
            _drop_each((g for c in _containers(spec) for g in _grpcs(c)), "mode")
        if not bind_mount_options_in_use(old):
            _drop_each((m for c in _containers(spec) for m in c.get("volumeMounts") or []), "bindMountOptions")


def restart_all_containers_action_in_use(old: Spec) -> bool:
    """restartAllContainersActionInUse (1.35): a rule of a regular or init container restarts all
    containers, or a sidecar (init container with restartPolicy Always) has rules."""
    if old is None:
        return False
    for key in ("containers", "initContainers"):
        for ctr in old.get(key) or []:
            if any(rule.get("action") == "RestartAllContainers" for rule in ctr.get("restartPolicyRules") or []):
                return True
            if key == "initContainers" and ctr.get("restartPolicy") == "Always" and ctr.get("restartPolicyRules"):
                return True
    return False
