"""Probes and lifecycle handlers as core validation checks them (`validateLivenessProbe`,
`validateReadinessProbe`, `validateStartupProbe`, `validateProbe`, `validateHandler`,
`validateLifecycle` and the actions' validators, `pkg/apis/core/validation/validation.go`), and
their defaults (`SetDefaults_Probe`, `SetDefaults_HTTPGetAction`, the gRPC service).

Where they apply is pod_validation's (regular containers and sidecars; other init containers
and ephemeral containers may not set them). Release differences: a `sleep` of 0 seconds is
refused at 1.32 (PodLifecycleSleepActionAllowZero off, unless the old template has one);
`lifecycle.stopSignal` is checked from 1.33 (forbidden without `spec.os.name`); the httpGet
`protocol` and the gRPC `mode` exist from 1.37.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any, Final

from jobmodel.api import field as fe
from jobmodel.api import meta_validation as mv
from jobmodel.api.field import FieldError
from jobmodel.api.pod_util import visit_containers_with_path

URI_SCHEMES: Final = ("HTTP", "HTTPS")  # sets.List order
HTTP_PROTOCOLS: Final = ("HTTP1", "HTTP2")
GRPC_PROBE_MODES: Final = ("Plaintext", "TLS")
_LINUX_SIGNALS: Final = ["SIGABRT", "SIGALRM", "SIGBUS", "SIGCHLD", "SIGCLD", "SIGCONT", "SIGFPE", "SIGHUP", "SIGILL", "SIGINT", "SIGIO", "SIGIOT", "SIGKILL", "SIGPIPE", "SIGPOLL", "SIGPROF", "SIGPWR", "SIGQUIT", "SIGSEGV", "SIGSTKFLT", "SIGSTOP", "SIGSYS", "SIGTERM", "SIGTRAP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGUSR1", "SIGUSR2", "SIGVTALRM", "SIGWINCH", "SIGXCPU", "SIGXFSZ", "SIGRTMIN"] + [f"SIGRTMIN+{i}" for i in range(1, 16)] + [f"SIGRTMAX-{i}" for i in range(14, 0, -1)] + ["SIGRTMAX"]
# supportedStopSignalsLinux/Windows as sets.List lists them (sorted).
LINUX_STOP_SIGNALS: Final = tuple(sorted(_LINUX_SIGNALS))
WINDOWS_STOP_SIGNALS: Final = ("SIGKILL", "SIGTERM")
PROBE_KINDS: Final = ("livenessProbe", "readinessProbe", "startupProbe")
_HTTP_HEADER_NAME_FMT: Final = "[-A-Za-z0-9]+"
_HTTP_HEADER_NAME_RE: Final = re.compile(_HTTP_HEADER_NAME_FMT)


def validate_port_num_or_name(port: Any, path: str) -> list[FieldError]:
    """ValidatePortNumOrName: an int port (absent: 0) in 1..65535, a string one a port name."""
    if isinstance(port, str):
        return [fe.invalid(path, port, m) for m in mv.is_valid_port_name(port)]
    number = port or 0
    return [fe.invalid(path, number, m) for m in mv.is_valid_port_num(number)]


def validate_http_get_action(http: Mapping[str, Any], path: str, release: int) -> list[FieldError]:
    """validateHTTPGetAction (the protocol from 1.37)."""
    errs: list[FieldError] = []
    if not http.get("path"):
        errs.append(fe.required(fe.child(path, "path")))
    errs.extend(validate_port_num_or_name(http.get("port"), fe.child(path, "port")))
    scheme = http.get("scheme") or ""
    if scheme not in URI_SCHEMES:
        errs.append(fe.not_supported(fe.child(path, "scheme"), fe.named(scheme, release), URI_SCHEMES))
    for header in http.get("httpHeaders") or []:
        name = header.get("name") or ""
        if _HTTP_HEADER_NAME_RE.fullmatch(name) is None:
            message = mv.regex_error("a valid HTTP header must consist of alphanumeric characters or '-'", _HTTP_HEADER_NAME_FMT, "X-Header-Name")
            errs.append(fe.invalid(fe.child(path, "httpHeaders"), name, message))
    protocol = http.get("protocol")
    if release >= 37 and protocol is not None:
        if protocol not in HTTP_PROTOCOLS:
            errs.append(fe.not_supported(fe.child(path, "protocol"), fe.named(protocol, release), HTTP_PROTOCOLS))
        elif protocol == "HTTP2" and scheme != "HTTP":
            errs.append(fe.invalid(fe.child(path, "protocol"), fe.named(protocol, release), "is only supported with HTTP (H2C)"))
        elif protocol == "HTTP2" and http.get("host"):
            errs.append(fe.invalid(fe.child(path, "host"), http["host"], 'must be empty when `protocol` is "HTTP2"'))
    return errs


def validate_grpc_action(grpc: Mapping[str, Any], path: str, release: int) -> list[FieldError]:
    """validateGRPCAction (the mode from 1.37)."""
    errs = validate_port_num_or_name(grpc.get("port") or 0, fe.child(path, "port"))
    mode = grpc.get("mode")
    if release >= 37 and mode is not None and mode not in GRPC_PROBE_MODES:
        errs.append(fe.not_supported(fe.child(path, "mode"), fe.named(mode, release), GRPC_PROBE_MODES))
    return errs


def validate_sleep_action(sleep: Mapping[str, Any], grace_period: int | None, path: str, allow_zero: bool) -> list[FieldError]:
    """validateSleepAction: at most the pod's grace period; 0 only with
    PodLifecycleSleepActionAllowZero (on from 1.33)."""
    seconds = sleep.get("seconds") or 0
    if grace_period is None:
        return []
    if allow_zero:
        if 0 <= seconds <= grace_period:
            return []
        return [fe.invalid(path, seconds, f"must be non-negative and less than terminationGracePeriodSeconds ({grace_period})")]
    if 0 < seconds <= grace_period:
        return []
    return [
        fe.invalid(
            path,
            seconds,
            f"must be greater than 0 and less than terminationGracePeriodSeconds ({grace_period}). "
            "Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.",
        )
    ]


def validate_handler(
    handler: Mapping[str, Any],
    grace_period: int | None,
    path: str,
    release: int,
    allow_sleep_zero: bool,
    kinds: tuple[str, ...],
) -> list[FieldError]:
    """validateHandler: exactly one of `kinds` (handlerFromProbe's or handlerFromLifecycle's),
    each validated; the others Forbidden."""
    errs: list[FieldError] = []
    count = 0
    for kind in ("exec", "httpGet", "tcpSocket", "grpc", "sleep"):
        action = handler.get(kind)
        if kind not in kinds or action is None:
            continue
        kind_path = fe.child(path, kind)
        if count:
            errs.append(fe.forbidden(kind_path, "may not specify more than 1 handler type"))
            continue
        count += 1
        if kind == "exec":
            if not action.get("command"):
                errs.append(fe.required(fe.child(kind_path, "command")))  # validateExecAction
        elif kind == "httpGet":
            errs.extend(validate_http_get_action(action, kind_path, release))
        elif kind == "tcpSocket":
            errs.extend(validate_port_num_or_name(action.get("port"), fe.child(kind_path, "port")))
        elif kind == "grpc":
            errs.extend(validate_grpc_action(action, kind_path, release))
        else:
            errs.extend(validate_sleep_action(action, grace_period, kind_path, allow_sleep_zero))
    if not count:
        errs.append(fe.required(path, "must specify a handler type"))
    return errs


def validate_probe(probe: Mapping[str, Any], grace_period: int | None, path: str, release: int) -> list[FieldError]:
    """validateProbe: one probe handler, non-negative numbers, a positive grace period."""
    errs = validate_handler(probe, grace_period, path, release, True, ("exec", "httpGet", "tcpSocket", "grpc"))
    for key in ("initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold"):
        value = probe.get(key) or 0
        if value < 0:
            errs.append(fe.invalid(fe.child(path, key), value, mv.IS_NEGATIVE_ERROR_MSG))
    grace = probe.get("terminationGracePeriodSeconds")
    if grace is not None and grace <= 0:
        errs.append(fe.invalid(fe.child(path, "terminationGracePeriodSeconds"), grace, "must be greater than 0"))
    return errs


def validate_container_probes(ctr: Mapping[str, Any], grace_period: int | None, path: str, release: int) -> list[FieldError]:
    """validateLivenessProbe, validateReadinessProbe and validateStartupProbe of one container:
    liveness and startup probes succeed once (successThreshold 1); a readiness probe has no
    grace period of its own."""
    errs: list[FieldError] = []
    for kind in PROBE_KINDS:
        probe = ctr.get(kind)
        if probe is None:
            continue
        probe_path = fe.child(path, kind)
        errs.extend(validate_probe(probe, grace_period, probe_path, release))
        if kind != "readinessProbe" and (probe.get("successThreshold") or 0) != 1:
            errs.append(fe.invalid(fe.child(probe_path, "successThreshold"), probe.get("successThreshold") or 0, "must be 1"))
        if kind == "readinessProbe" and probe.get("terminationGracePeriodSeconds") is not None:
            errs.append(
                fe.invalid(
                    fe.child(probe_path, "terminationGracePeriodSeconds"),
                    probe["terminationGracePeriodSeconds"],
                    "must not be set for readinessProbes",
                )
            )
    return errs


def validate_stop_signal(signal: str, path: str, os: Mapping[str, Any] | None, release: int) -> list[FieldError]:
    """validateStopSignal (1.33+)."""
    if os is None:
        return [fe.forbidden(path, "may not be set for containers with empty `spec.os.name`")]
    allowed = {"windows": WINDOWS_STOP_SIGNALS, "linux": LINUX_STOP_SIGNALS}.get(os.get("name") or "")
    if allowed is None or signal in allowed:
        return []
    return [fe.not_supported(path, fe.named(signal, release), allowed)]


def validate_lifecycle(
    lifecycle: Mapping[str, Any], grace_period: int | None, path: str, release: int, allow_sleep_zero: bool, os: Mapping[str, Any] | None
) -> list[FieldError]:
    """validateLifecycle: postStart and preStop handlers (exec, httpGet, tcpSocket, sleep); the
    stop signal from 1.33."""
    errs: list[FieldError] = []
    for hook in ("postStart", "preStop"):
        if lifecycle.get(hook) is not None:
            errs.extend(
                validate_handler(
                    lifecycle[hook], grace_period, fe.child(path, hook), release, allow_sleep_zero, ("exec", "httpGet", "tcpSocket", "sleep")
                )
            )
    if release >= 33 and lifecycle.get("stopSignal") is not None:
        errs.extend(validate_stop_signal(lifecycle["stopSignal"], fe.child(path, "stopSignal"), os, release))
    return errs


def _sleeps(spec: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    for ctr, _ in visit_containers_with_path(spec):
        for hook in ("postStart", "preStop"):
            sleep = ((ctr.get("lifecycle") or {}).get(hook) or {}).get("sleep")
            if sleep is not None:
                yield sleep


def allow_pod_lifecycle_sleep_action_zero_value(release: int, old_pod_spec: Mapping[str, Any] | None) -> bool:
    """AllowPodLifecycleSleepActionZeroValue: PodLifecycleSleepActionAllowZero (on from 1.33),
    or the old template sleeps 0 seconds (podLifecycleSleepActionZeroValueInUse)."""
    return release >= 33 or any(not s.get("seconds") for s in _sleeps(old_pod_spec or {}))


def validate_probes_and_lifecycle(
    ctr: Mapping[str, Any], spec: Mapping[str, Any], path: str, release: int, allow_sleep_zero: bool
) -> list[FieldError]:
    """What validateContainers (and validateInitContainers for a sidecar) check of a container's
    lifecycle and probes, with the pod's grace period and os."""
    grace = spec.get("terminationGracePeriodSeconds")
    errs: list[FieldError] = []
    if ctr.get("lifecycle") is not None:
        errs.extend(validate_lifecycle(ctr["lifecycle"], grace, fe.child(path, "lifecycle"), release, allow_sleep_zero, spec.get("os")))
    errs.extend(validate_container_probes(ctr, grace, path, release))
    return errs


def validate_pod_probes(spec: Mapping[str, Any], path: str, release: int, allow_sleep_zero: bool) -> list[FieldError]:
    """The lifecycle and probes of the regular containers and of the sidecars (init containers
    with restartPolicy Always) that validateContainers and validateInitContainers validate."""
    errs: list[FieldError] = []
    for key in ("initContainers", "containers"):
        for i, ctr in enumerate(spec.get(key) or []):
            if key == "containers" or ctr.get("restartPolicy") == "Always":
                errs.extend(validate_probes_and_lifecycle(ctr, spec, fe.index(fe.child(path, key), i), release, allow_sleep_zero))
    return errs


def set_defaults_probes(container: dict[str, Any]) -> None:
    """SetDefaults_Probe, SetDefaults_HTTPGetAction and the gRPC service's default (in place)."""
    for kind in PROBE_KINDS:
        probe = container.get(kind)
        if not isinstance(probe, dict):
            continue
        for key, default in (("timeoutSeconds", 1), ("periodSeconds", 10), ("successThreshold", 1), ("failureThreshold", 3)):
            if not probe.get(key):
                probe[key] = default
        _set_defaults_http_get(probe.get("httpGet"))
        grpc = probe.get("grpc")
        if isinstance(grpc, dict) and grpc.get("service") is None:
            grpc["service"] = ""
    for hook in ("postStart", "preStop"):
        _set_defaults_http_get(((container.get("lifecycle") or {}).get(hook) or {}).get("httpGet"))


def _set_defaults_http_get(http: Any) -> None:
    """SetDefaults_HTTPGetAction."""
    if isinstance(http, dict):
        if not http.get("path"):
            http["path"] = "/"
        if not http.get("scheme"):
            http["scheme"] = "HTTP"
