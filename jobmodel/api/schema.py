"""Strict decoding of `batch/v1` Job and CronJob wire objects: unknown fields and wrong types are
refused with an `InputError` naming the field, as the API server's strict decoder does
(`strict decoding error: unknown field "spec.foo"`).

The schema covers every field of Job, CronJob, ObjectMeta and the pod template's PodSpec and
Container; the inside of fields the model does not interpret (resources, probes, volume
sources, security contexts, ...) is only checked to be of the right JSON kind.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from jobmodel.api.pod_validation import VOLUME_SOURCES
from jobmodel.errors import InputError
from jobmodel.timeutil import parse_time

# A type is: "str", "int32", "int64", "bool", "object" (any JSON object), "list" (any JSON list),
# "any"; ("map", T): an object whose values are T; ("list", T): a list of T; or a dict: a struct.
Type = Any

STR: Final = "str"
I32: Final = "int32"
I64: Final = "int64"
BOOL: Final = "bool"
OBJ: Final = "object"
LIST: Final = "list"
ANY: Final = "any"
TIME: Final = "time"  # metav1.Time: an RFC 3339 string

OWNER_REFERENCE: Final = {
    "apiVersion": STR,
    "kind": STR,
    "name": STR,
    "uid": STR,
    "controller": BOOL,
    "blockOwnerDeletion": BOOL,
}
OBJECT_META: Final = {
    "name": STR, "generateName": STR, "namespace": STR, "selfLink": STR, "uid": STR, "resourceVersion": STR,
    "generation": I64, "creationTimestamp": TIME, "deletionTimestamp": TIME, "deletionGracePeriodSeconds": I64,
    "labels": ("map", STR), "annotations": ("map", STR), "ownerReferences": ("list", OWNER_REFERENCE),
    "finalizers": ("list", STR), "managedFields": ("list", OBJ),
}  # fmt: skip
LABEL_SELECTOR: Final = {
    "matchLabels": ("map", STR),
    "matchExpressions": ("list", {"key": STR, "operator": STR, "values": ("list", STR)}),
}
CONTAINER_PORT: Final = {
    "name": STR,
    "hostPort": I32,
    "containerPort": I32,
    "protocol": STR,
    "hostIP": STR,
}
ENV_VAR: Final = {"name": STR, "value": STR, "valueFrom": OBJ}
CONTAINER: Final = {
    "name": STR, "image": STR, "command": ("list", STR), "args": ("list", STR), "workingDir": STR,
    "ports": ("list", CONTAINER_PORT), "envFrom": ("list", OBJ), "env": ("list", ENV_VAR), "resources": OBJ,
    "resizePolicy": ("list", OBJ), "restartPolicy": STR, "restartPolicyRules": ("list", OBJ),
    "volumeMounts": ("list", OBJ), "volumeDevices": ("list", OBJ), "livenessProbe": OBJ, "readinessProbe": OBJ,
    "startupProbe": OBJ, "lifecycle": OBJ, "terminationMessagePath": STR, "terminationMessagePolicy": STR,
    "imagePullPolicy": STR, "securityContext": OBJ, "stdin": BOOL, "stdinOnce": BOOL, "tty": BOOL,
}  # fmt: skip
TOLERATION: Final = {
    "key": STR,
    "operator": STR,
    "value": STR,
    "effect": STR,
    "tolerationSeconds": I64,
}
NODE_SELECTOR_REQUIREMENT: Final = {"key": STR, "operator": STR, "values": ("list", STR)}
NODE_SELECTOR: Final = {
    "nodeSelectorTerms": (
        "list",
        {
            "matchExpressions": ("list", NODE_SELECTOR_REQUIREMENT),
            "matchFields": ("list", NODE_SELECTOR_REQUIREMENT),
        },
    )
}
AFFINITY: Final = {
    "nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": NODE_SELECTOR,
        "preferredDuringSchedulingIgnoredDuringExecution": ("list", OBJ),
    },
    "podAffinity": OBJ,
    "podAntiAffinity": OBJ,
}
VOLUME: Final = {"name": STR, **dict.fromkeys(VOLUME_SOURCES, OBJ)}
POD_SPEC: Final = {
    "volumes": ("list", VOLUME), "initContainers": ("list", CONTAINER), "containers": ("list", CONTAINER),
    "ephemeralContainers": ("list", OBJ), "restartPolicy": STR, "terminationGracePeriodSeconds": I64,
    "activeDeadlineSeconds": I64, "dnsPolicy": STR, "nodeSelector": ("map", STR), "serviceAccountName": STR,
    "serviceAccount": STR, "automountServiceAccountToken": BOOL, "nodeName": STR, "hostNetwork": BOOL,
    "hostPID": BOOL, "hostIPC": BOOL, "shareProcessNamespace": BOOL, "securityContext": OBJ,
    "imagePullSecrets": ("list", OBJ), "hostname": STR, "subdomain": STR, "affinity": AFFINITY,
    "schedulerName": STR, "tolerations": ("list", TOLERATION), "hostAliases": ("list", OBJ),
    "priorityClassName": STR, "priority": I32, "dnsConfig": OBJ, "readinessGates": ("list", OBJ),
    "runtimeClassName": STR, "enableServiceLinks": BOOL, "preemptionPolicy": STR, "overhead": ("map", ANY),
    "topologySpreadConstraints": ("list", OBJ), "setHostnameAsFQDN": BOOL, "os": OBJ, "hostUsers": BOOL,
    "schedulingGates": ("list", {"name": STR}), "resourceClaims": ("list", OBJ), "resources": OBJ,
    "hostnameOverride": STR,
}  # fmt: skip
POD_TEMPLATE_SPEC: Final = {"metadata": OBJECT_META, "spec": POD_SPEC}
POD_FAILURE_POLICY: Final = {
    "rules": (
        "list",
        {
            "action": STR,
            "onExitCodes": {"containerName": STR, "operator": STR, "values": ("list", I32)},
            "onPodConditions": ("list", {"type": STR, "status": STR}),
        },
    )
}
JOB_SPEC: Final = {
    "parallelism": I32, "completions": I32, "activeDeadlineSeconds": I64, "podFailurePolicy": POD_FAILURE_POLICY,
    "successPolicy": {"rules": ("list", {"succeededIndexes": STR, "succeededCount": I32})},
    "backoffLimit": I32, "backoffLimitPerIndex": I32, "maxFailedIndexes": I32, "selector": LABEL_SELECTOR,
    "manualSelector": BOOL, "template": POD_TEMPLATE_SPEC, "ttlSecondsAfterFinished": I32,
    "completionMode": STR, "suspend": BOOL, "podReplacementPolicy": STR, "managedBy": STR,
}  # fmt: skip
JOB_CONDITION: Final = {
    "type": STR,
    "status": STR,
    "lastProbeTime": TIME,
    "lastTransitionTime": TIME,
    "reason": STR,
    "message": STR,
}
JOB_STATUS: Final = {
    "conditions": ("list", JOB_CONDITION), "startTime": TIME, "completionTime": TIME, "active": I32,
    "succeeded": I32, "failed": I32, "terminating": I32, "completedIndexes": STR, "failedIndexes": STR,
    "uncountedTerminatedPods": {"succeeded": ("list", STR), "failed": ("list", STR)}, "ready": I32,
}  # fmt: skip
JOB: Final = {
    "apiVersion": STR,
    "kind": STR,
    "metadata": OBJECT_META,
    "spec": JOB_SPEC,
    "status": JOB_STATUS,
}
CRON_JOB_SPEC: Final = {
    "schedule": STR, "timeZone": STR, "startingDeadlineSeconds": I64, "concurrencyPolicy": STR, "suspend": BOOL,
    "jobTemplate": {"metadata": OBJECT_META, "spec": JOB_SPEC}, "successfulJobsHistoryLimit": I32,
    "failedJobsHistoryLimit": I32,
}  # fmt: skip
CRON_JOB_STATUS: Final = {
    "active": ("list", OBJ),
    "lastScheduleTime": TIME,
    "lastSuccessfulTime": TIME,
}
CRON_JOB: Final = {
    "apiVersion": STR,
    "kind": STR,
    "metadata": OBJECT_META,
    "spec": CRON_JOB_SPEC,
    "status": CRON_JOB_STATUS,
}

KINDS: Final = {"Job": JOB, "CronJob": CRON_JOB}
_JSON_KIND: Final = {
    STR: "a string",
    TIME: "an RFC 3339 time string",
    I32: "an integer",
    I64: "an integer",
    BOOL: "a boolean",
    OBJ: "an object",
    LIST: "a list",
}


def check_object(obj: Any, kind: str) -> None:
    """Raise InputError for the first unknown field or mistyped value of a `kind` object."""
    decode_object(obj, kind)


def decode_object(obj: Any, kind: str) -> dict[str, Any]:
    """The object as Go's strict decoder sees it: unknown fields and mistyped values raise
    InputError; a null field is dropped (absent) and a null list item becomes its zero value."""
    if not isinstance(obj, Mapping):
        raise InputError("", f"a {kind} must be an object, got {_describe(obj)}")
    if obj.get("apiVersion") not in (None, "batch/v1"):
        raise InputError("apiVersion", f'expected "batch/v1", got {obj.get("apiVersion")!r}')
    decoded: dict[str, Any] = check_value(obj, KINDS[kind], "")
    return decoded


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return f"the integer {value}"
    if isinstance(value, float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _zero(typ: Type) -> Any:
    """Go's zero value of a list element of this type."""
    if isinstance(typ, dict) or typ == OBJ or (isinstance(typ, tuple) and typ[0] == "map"):
        return {}
    if isinstance(typ, tuple) or typ == LIST:
        return []
    return {STR: "", TIME: "", I32: 0, I64: 0, BOOL: False}.get(typ)


def check_value(value: Any, typ: Type, path: str) -> Any:
    """Check one value against a schema type; returns the decoded value (see decode_object)."""
    if value is None or typ == ANY:
        return value
    if isinstance(typ, dict):
        if not isinstance(value, Mapping):
            raise InputError(path, f"expected an object, got {_describe(value)}")
        out: dict[str, Any] = {}
        for k, v in value.items():
            sub = f"{path}.{k}" if path else str(k)
            if k not in typ:
                raise InputError(sub, "unknown field")
            if v is not None:
                out[k] = check_value(v, typ[k], sub)
        return out
    if isinstance(typ, tuple):
        container, inner = typ
        if container == "map":
            if not isinstance(value, Mapping):
                raise InputError(path, f"expected an object, got {_describe(value)}")
            return {
                k: _zero(inner) if v is None else check_value(v, inner, f"{path}[{k}]")
                for k, v in value.items()
            }
        if not isinstance(value, list):
            raise InputError(path, f"expected a list, got {_describe(value)}")
        return [
            _zero(inner) if v is None else check_value(v, inner, f"{path}[{i}]")
            for i, v in enumerate(value)
        ]
    _check_scalar(value, typ, path)
    return value


def _check_scalar(value: Any, typ: str, path: str) -> None:
    if typ == TIME:
        parse_time(value, path)
        return
    ok = {
        STR: isinstance(value, str),
        BOOL: isinstance(value, bool),
        I32: isinstance(value, int) and not isinstance(value, bool),
        I64: isinstance(value, int) and not isinstance(value, bool),
        OBJ: isinstance(value, Mapping),
        LIST: isinstance(value, list),
    }[typ]
    if not ok:
        raise InputError(path, f"expected {_JSON_KIND[typ]}, got {_describe(value)}")
    bits = {I32: 31, I64: 63}.get(typ)
    if bits is not None and not -(2**bits) <= value < 2**bits:
        raise InputError(path, f"the integer {value} does not fit in {typ}")
