"""Probes and lifecycle handlers (jobmodel/api/pod_probes.py)."""

from __future__ import annotations

from typing import Any

from jobmodel.api.pod_probes import (
    LINUX_STOP_SIGNALS,
    allow_pod_lifecycle_sleep_action_zero_value,
    set_defaults_probes,
    validate_container_probes,
    validate_lifecycle,
    validate_pod_probes,
)
from tests.api.helpers import pairs

C = "c"


def _probes(release: int = 37, grace: int | None = 30, **ctr: Any) -> set[tuple[str, str]]:
    return pairs(validate_container_probes(ctr, grace, C, release))


def test_exactly_one_handler() -> None:
    ok = {"exec": {"command": ["true"]}, "successThreshold": 1}
    assert _probes(livenessProbe=ok) == set()
    assert _probes(readinessProbe={}) == {(f"{C}.readinessProbe", "FieldValueRequired")}
    two = {"exec": {"command": ["true"]}, "tcpSocket": {"port": 80}, "grpc": {"port": 1}}
    assert _probes(readinessProbe=two) == {
        (f"{C}.readinessProbe.tcpSocket", "FieldValueForbidden"),
        (f"{C}.readinessProbe.grpc", "FieldValueForbidden"),
    }
    # A probe has no sleep handler (handlerFromProbe): alone it is no handler at all.
    assert _probes(readinessProbe={"sleep": {"seconds": 1}}) == {(f"{C}.readinessProbe", "FieldValueRequired")}


def test_liveness_and_startup_succeed_once() -> None:
    handler = {"exec": {"command": ["true"]}}
    assert _probes(livenessProbe=handler, startupProbe={**handler, "successThreshold": 2}) == {
        (f"{C}.livenessProbe.successThreshold", "FieldValueInvalid"),  # absent is 0
        (f"{C}.startupProbe.successThreshold", "FieldValueInvalid"),
    }
    assert _probes(readinessProbe={**handler, "successThreshold": 3}) == set()


def test_numbers_and_grace_period() -> None:
    probe = {"exec": {"command": ["x"]}, "periodSeconds": -1, "initialDelaySeconds": -2, "terminationGracePeriodSeconds": 0}
    assert _probes(readinessProbe=probe) == {
        (f"{C}.readinessProbe.periodSeconds", "FieldValueInvalid"),
        (f"{C}.readinessProbe.initialDelaySeconds", "FieldValueInvalid"),
        (f"{C}.readinessProbe.terminationGracePeriodSeconds", "FieldValueInvalid"),
    }
    errors = validate_container_probes({"readinessProbe": {"exec": {"command": ["x"]}, "terminationGracePeriodSeconds": 5}}, 30, C, 37)
    assert [e.detail for e in errors] == ["must not be set for readinessProbes"]


def test_http_get() -> None:
    http = {"port": "Bad_Port", "scheme": "FTP", "httpHeaders": [{"name": "bad header"}]}
    assert _probes(readinessProbe={"httpGet": http}) == {
        (f"{C}.readinessProbe.httpGet.path", "FieldValueRequired"),
        (f"{C}.readinessProbe.httpGet.port", "FieldValueInvalid"),
        (f"{C}.readinessProbe.httpGet.scheme", "FieldValueNotSupported"),
        (f"{C}.readinessProbe.httpGet.httpHeaders", "FieldValueInvalid"),
    }
    h2 = {"path": "/", "port": 80, "scheme": "HTTPS", "protocol": "HTTP2"}
    assert _probes(37, readinessProbe={"httpGet": h2}) == {(f"{C}.readinessProbe.httpGet.protocol", "FieldValueInvalid")}
    assert _probes(36, readinessProbe={"httpGet": h2}) == set()


def test_tcp_and_grpc_ports() -> None:
    assert _probes(readinessProbe={"tcpSocket": {}}) == {(f"{C}.readinessProbe.tcpSocket.port", "FieldValueInvalid")}
    assert _probes(readinessProbe={"grpc": {"port": 70000, "mode": "Bogus"}}) == {
        (f"{C}.readinessProbe.grpc.port", "FieldValueInvalid"),
        (f"{C}.readinessProbe.grpc.mode", "FieldValueNotSupported"),
    }
    assert _probes(36, readinessProbe={"grpc": {"port": 1, "mode": "Bogus"}}) == set()


def test_sleep_against_the_grace_period() -> None:
    def errors(seconds: int, allow_zero: bool = True, grace: int | None = 30) -> list[str]:
        hook = {"preStop": {"sleep": {"seconds": seconds}}}
        return [e.detail for e in validate_lifecycle(hook, grace, "l", 37, allow_zero, None)]

    assert errors(30) == []
    assert errors(0) == []
    assert errors(31) == ["must be non-negative and less than terminationGracePeriodSeconds (30)"]
    assert errors(0, allow_zero=False)[0].startswith("must be greater than 0 and less than terminationGracePeriodSeconds (30).")
    assert errors(99, grace=None) == []


def test_sleep_zero_allowed_from_1_33_or_in_use() -> None:
    assert allow_pod_lifecycle_sleep_action_zero_value(33, None)
    assert not allow_pod_lifecycle_sleep_action_zero_value(32, None)
    old = {"containers": [{"lifecycle": {"preStop": {"sleep": {"seconds": 0}}}}]}
    assert allow_pod_lifecycle_sleep_action_zero_value(32, old)


def test_stop_signal() -> None:
    def errors(release: int, os: dict[str, Any] | None, signal: str = "SIGTERM") -> set[tuple[str, str]]:
        return pairs(validate_lifecycle({"stopSignal": signal}, 30, "l", release, True, os))

    assert errors(33, None) == {("l.stopSignal", "FieldValueForbidden")}
    assert errors(32, None) == set()
    assert errors(37, {"name": "windows"}, "SIGINT") == {("l.stopSignal", "FieldValueNotSupported")}
    assert errors(37, {"name": "linux"}, "SIGRTMAX-3") == set()
    assert len(LINUX_STOP_SIGNALS) == 65


def test_where_probes_are_validated() -> None:
    bad: dict[str, Any] = {"readinessProbe": {}}
    spec = {"containers": [{"name": "a", **bad}], "initContainers": [{"name": "s", "restartPolicy": "Always", **bad}, {"name": "i", **bad}]}
    assert pairs(validate_pod_probes(spec, "spec", 37, True)) == {
        ("spec.containers[0].readinessProbe", "FieldValueRequired"),
        ("spec.initContainers[0].readinessProbe", "FieldValueRequired"),
    }


def test_defaults() -> None:
    ctr: dict[str, Any] = {
        "livenessProbe": {"httpGet": {"port": 80}, "periodSeconds": 5},
        "readinessProbe": {"grpc": {"port": 1}},
        "lifecycle": {"preStop": {"httpGet": {"port": 80, "path": "/x"}}},
    }
    set_defaults_probes(ctr)
    assert ctr["livenessProbe"] == {
        "httpGet": {"port": 80, "path": "/", "scheme": "HTTP"},
        "periodSeconds": 5,
        "timeoutSeconds": 1,
        "successThreshold": 1,
        "failureThreshold": 3,
    }
    assert ctr["readinessProbe"]["grpc"] == {"port": 1, "service": ""}
    assert ctr["lifecycle"]["preStop"]["httpGet"] == {"port": 80, "path": "/x", "scheme": "HTTP"}
