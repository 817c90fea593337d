"""Hypothesis strategies for the `validation` and `defaulting` suites: Job and CronJob manifests
around a valid base, with fields set to values that are valid, invalid and at the edges,
in the vector format."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

from jobmodel.api import schema
from jobmodel.strategies.cron import GENERATED_SCHEDULES, SCHEDULE_EDGES, TZ_PREFIXED_SCHEDULES

INTS = st.sampled_from([-1, 0, 1, 2, 3, 5, 10, 100_000, 2**31 - 1])
SMALL = st.one_of(st.none(), st.integers(-1, 6))
NAMES = st.sampled_from(["job", "a" * 63, "a" * 64, "Bad_Name", "x-", "job.example", "\u00fc" * 27])  # 27 'ü': 54 bytes (Go's len)
LABEL_VALUES = st.sampled_from(["a", "", "x" * 64, "bad value", "ok-1"])
# Characters Go's %q and json.Marshal print differently in a bad value (field.Error's ErrorBody).
ODD_TEXT = "<&>\u2028\u00a0\x01\x7f\x1c\u0130\U0001e030"
# 'a"b' and a tab: parseIndexInterval quotes a bad fragment with Go's %q.
INDEX_STRINGS = st.sampled_from(["0", "0-2", "1,3", "3-1", "x", "0,0", "-1", "10", "0-1,2", 'a"b', "1,\t", "+1", "01,2", "0-+2", ",0", "2,1", "1,", "0-0", " 1", "0-1-2", "1-x", "0-10", ODD_TEXT])


@st.composite
def pod_condition_pattern(draw: st.DrawFn) -> dict[str, Any]:
    pattern = {"type": draw(st.sampled_from(["DisruptionTarget", "Ready", "bad type!", "example.com/x"]))}
    status = draw(st.sampled_from(["True", "False", "Unknown", "Maybe", ODD_TEXT, None]))  # None: defaulted on decode
    if status is not None:
        pattern["status"] = status
    return pattern


@st.composite
def pod_failure_policy(draw: st.DrawFn) -> dict[str, Any]:
    rules = []
    for _ in range(draw(st.integers(0, 3))):
        rule: dict[str, Any] = {"action": draw(st.sampled_from(["FailJob", "Ignore", "Count", "FailIndex", "Bogus"]))}
        kind = draw(st.integers(0, 3))
        if kind in (0, 2):
            rule["onExitCodes"] = {
                "operator": draw(st.sampled_from(["In", "NotIn", "Bogus"])),
                "values": draw(st.one_of(st.lists(st.integers(-1, 3), max_size=3), st.just(list(range(1, 257))))),
            }
            if draw(st.booleans()):
                rule["onExitCodes"]["containerName"] = draw(st.sampled_from(["main", "nope", "init"]))
        if kind in (1, 2):
            rule["onPodConditions"] = [draw(pod_condition_pattern()) for _ in range(draw(st.integers(0, 2)))]
            if rule["onPodConditions"] and draw(st.integers(0, 20)) == 0:
                rule["onPodConditions"] *= 21  # TooMany
        rules.append(rule)
    if draw(st.integers(0, 20)) == 0:
        rules = rules[:1] * 21  # TooMany
    return {"rules": rules}


@st.composite
def success_policy(draw: st.DrawFn) -> dict[str, Any]:
    rules = []
    for _ in range(draw(st.integers(0, 2))):
        rule: dict[str, Any] = {}
        if draw(st.booleans()):
            # Now and then beyond the 64 KiB limit (a valid list, or one that also fails to parse).
            rule["succeededIndexes"] = draw(INDEX_STRINGS) if draw(st.integers(0, 30)) else draw(st.sampled_from(["0," * 33000, "1" * 65537]))
        if draw(st.booleans()):
            rule["succeededCount"] = draw(st.integers(-1, 6))
        rules.append(rule)
    if draw(st.integers(0, 20)) == 0:
        rules = [{"succeededCount": 1}] * 21  # TooMany
    return {"rules": rules}


def base_job() -> dict[str, Any]:
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "job", "namespace": "default"},
        "spec": {
            "template": {
                "spec": {
                    "restartPolicy": "Never",
                    "containers": [{"name": "main", "image": "busybox"}],
                }
            }
        },
    }


# Pod-spec defaults as a stored object carries them: validation without defaulting then reports
# only what the case changed.
STORED_POD_DEFAULTS: dict[str, Any] = {"dnsPolicy": "ClusterFirst", "terminationGracePeriodSeconds": 30, "schedulerName": "default-scheduler"}
STORED_CONTAINER_DEFAULTS: dict[str, Any] = {"imagePullPolicy": "IfNotPresent", "terminationMessagePolicy": "File", "terminationMessagePath": "/dev/termination-log"}


# Resource names and quantities (jobmodel.api.pod_resources, jobmodel.api.quantity): standard,
# hugepages and extended names, and names no container may use; quantities in every format, at
# the edges of the grammar (kept as written or canonicalized), and some the decoder refuses.
RESOURCE_NAMES = st.sampled_from(
    ["cpu", "memory", "ephemeral-storage", "hugepages-2Mi", "hugepages-1Gi", "hugepages-x", "example.com/foo",
     "kubernetes.io/bar", "requests.example.com/foo", "pods", "storage", "gpu", "bad name!", "example.com/bad name"]
)  # fmt: skip
QUANTITIES = st.sampled_from(
    ["0", "1", "2", "100m", "500m", "1.5", "+1", "1.", "-1", "-100m", "1Gi", "2Mi", "3Mi", "4Mi", "1G", "1e3", "1E3",
     "1k", "1n", "0.1n", "0.5", "1536Mi", "1000m", "129e6", "1.5Gi", "12345678901234567890", 1, 2, 0.5, 1e3,
     "1" * 5000, "1" * 5000 + "m"]  # beyond int()'s 4300 digits: big.Int has no limit
)  # fmt: skip
BAD_QUANTITIES = st.sampled_from(["1Gb", "1mi", "", "abc", "1K", " ", "1.5.5", "1e", "Gi"])


@st.composite
def quantity(draw: st.DrawFn) -> Any:
    return draw(BAD_QUANTITIES) if draw(st.integers(0, 15)) == 0 else draw(QUANTITIES)


@st.composite
def resource_list(draw: st.DrawFn, names: list[str]) -> dict[str, Any]:
    return {n: draw(quantity()) for n in names if draw(st.booleans())}


@st.composite
def resource_requirements(draw: st.DrawFn) -> dict[str, Any]:
    """A container's limits and requests, often of the same resources (requests above, below
    and equal to limits)."""
    names = draw(st.lists(RESOURCE_NAMES, min_size=1, max_size=3, unique=True))
    out: dict[str, Any] = {}
    for key in ("limits", "requests"):
        listed: dict[str, Any] = draw(resource_list(names))
        empty_kept: bool = draw(st.booleans())
        if listed or empty_kept:
            out[key] = listed
    return out


HOST_PORTS = st.sampled_from([{}, {"hostPort": 8080}, {"hostPort": 8080}, {"hostPort": 8080, "hostIP": "10.0.0.1"}, {"hostPort": 9090}])
RESIZE_POLICIES = st.fixed_dictionaries(
    {
        "resourceName": st.sampled_from(["cpu", "memory", "cpu", "", "example.com/gpu"]),
        "restartPolicy": st.sampled_from(["NotRequired", "RestartContainer", "", "Bogus"]),
    }
)


@st.composite
def container(draw: st.DrawFn, name: str) -> dict[str, Any]:
    ctr: dict[str, Any] = {"name": name, "image": "busybox"}
    if draw(st.integers(0, 3)) == 0:
        ctr["image"] = draw(st.sampled_from(["", " busybox", "busybox:1.36", "busybox@sha256:abc"]))
        if not ctr["image"]:
            del ctr["image"]
    if draw(st.integers(0, 3)) == 0:
        ctr["imagePullPolicy"] = draw(st.sampled_from(["Always", "Never", "IfNotPresent", "Sometimes", ODD_TEXT]))
    if draw(st.integers(0, 4)) == 0:
        ctr["terminationMessagePolicy"] = draw(st.sampled_from(["File", "FallbackToLogsOnError", "Bogus", ODD_TEXT]))
    if draw(st.integers(0, 3)) == 0:
        ctr["ports"] = [
            {"containerPort": draw(st.sampled_from([0, 80, 65536])), **({"protocol": draw(st.sampled_from(["TCP", "UDP", "HTTP", ODD_TEXT]))} if draw(st.booleans()) else {})}
            for _ in range(draw(st.integers(1, 2)))
        ]
        if draw(st.booleans()):
            # Host ports, few, so that two containers (or two ports of one) often collide.
            for port in ctr["ports"]:
                port.update(draw(HOST_PORTS))
    if draw(st.integers(0, 5)) == 0:
        ctr["resizePolicy"] = draw(st.lists(RESIZE_POLICIES, min_size=1, max_size=3))
    if draw(st.integers(0, 4)) == 0:
        ctr["volumeMounts"] = [
            {
                "name": draw(st.sampled_from(["data", "nope", "", "claim"])),
                "mountPath": draw(st.sampled_from(["/d", "/d", ""])),
                **draw(st.sampled_from([{}, {"subPath": "a/b"}, {"subPath": "/abs"}, {"subPath": "../up"}, {"subPathExpr": "$(X)", "subPath": "a"}, {"subPathExpr": "/x/.."}])),
            }
            for _ in range(draw(st.integers(1, 2)))
        ]
    draw(volume_mounts(ctr))
    if draw(st.integers(0, 3)) == 0:
        ctr["env"] = [{"name": draw(st.sampled_from(["A", "a.b", "1x", "", "A=B"])), "value": "v"} for _ in range(draw(st.integers(1, 2)))]
    draw(container_env(ctr))
    if draw(st.integers(0, 3)) == 0:
        ctr["resources"] = draw(resource_requirements())
    return ctr


# Env var sources (ValidateEnv's valueFrom): valid, invalid and more than one; a divisor left out
# now and then (Go writes the zero Quantity, "0": the defaulting suite compares it).
VALUE_FROM = st.sampled_from(
    [
        {"fieldRef": {"fieldPath": "metadata.name"}}, {"fieldRef": {"apiVersion": "v1", "fieldPath": "status.podIP"}},
        {"fieldRef": {"apiVersion": "v1", "fieldPath": "spec.host"}}, {"fieldRef": {"apiVersion": "v1", "fieldPath": "status.phase"}},
        {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels['app']"}}, {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.annotations['Bad Key!']"}},
        {"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}}, {"fieldRef": {"apiVersion": "v1", "fieldPath": "spec.nodeName['x']"}},
        {"fieldRef": {"apiVersion": "v2", "fieldPath": "metadata.name"}}, {"fieldRef": {"apiVersion": "v1", "fieldPath": "bogus"}}, {"fieldRef": {"apiVersion": "v1", "fieldPath": ""}},
        {"resourceFieldRef": {"resource": "limits.cpu", "divisor": "0"}}, {"resourceFieldRef": {"resource": "limits.cpu", "divisor": "1m"}},
        {"resourceFieldRef": {"resource": "requests.cpu", "divisor": "2"}}, {"resourceFieldRef": {"resource": "limits.memory", "divisor": "1Mi"}},
        {"resourceFieldRef": {"resource": "requests.memory", "divisor": "500m"}}, {"resourceFieldRef": {"resource": "limits.ephemeral-storage", "divisor": "3k"}},
        {"resourceFieldRef": {"resource": "requests.hugepages-2Mi", "divisor": "1Gi"}}, {"resourceFieldRef": {"resource": "limits.hugepages-1Gi", "divisor": "2Ki"}},
        {"resourceFieldRef": {"resource": "limits.gpu", "divisor": "0"}}, {"resourceFieldRef": {"resource": "limits.gpu", "divisor": "5"}},
        {"resourceFieldRef": {"containerName": "main", "resource": "", "divisor": "0"}}, {"resourceFieldRef": {"resource": "limits.cpu"}},
        {"configMapKeyRef": {"name": "cfg", "key": "k"}}, {"configMapKeyRef": {"key": "k"}}, {"configMapKeyRef": {"name": "Bad_Name", "key": "..x"}},
        {"configMapKeyRef": {"name": "cfg", "key": "bad key"}}, {"secretKeyRef": {"name": "s", "key": "k", "optional": True}},
        {"secretKeyRef": {"name": "s", "key": ""}}, {"secretKeyRef": {"name": "s", "key": "."}},
        {"fileKeyRef": {"volumeName": "data", "path": "env.txt", "key": "K"}}, {"fileKeyRef": {"volumeName": "Data", "path": "a/../x", "key": "A=B"}},
        {"fileKeyRef": {"volumeName": "", "path": "", "key": ""}}, {},
        {"configMapKeyRef": {"name": "cfg", "key": "k"}, "secretKeyRef": {"name": "s", "key": "k"}},
        {"fileKeyRef": {"volumeName": "data", "path": "p", "key": "K"}, "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.uid"}},
    ]
)  # fmt: skip
ENV_FROM = st.sampled_from(
    [
        {"configMapRef": {"name": "cfg"}}, {"secretRef": {"name": "s", "optional": True}}, {"prefix": "P_", "configMapRef": {"name": "cfg-"}},
        {"prefix": "A=B", "secretRef": {"name": "Bad_Name"}}, {"configMapRef": {}}, {"prefix": "P_"},
        {"configMapRef": {"name": "cfg"}, "secretRef": {"name": "s"}},
    ]
)  # fmt: skip
# Volume sources (jobmodel.api.pod_volumes), valid and not, every field without `omitempty` given
# (Go writes it back); none, and two (the second forbidden in upstream's order).
_DOWNWARD_FILES: list[dict[str, Any]] = [
    {"path": "name", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}, {"path": "labels", "fieldRef": {"fieldPath": "metadata.labels"}},
    {"path": "node", "fieldRef": {"apiVersion": "v1", "fieldPath": "spec.nodeName"}}, {"path": "..x", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels['a']"}},
    {"path": "cpu", "resourceFieldRef": {"containerName": "main", "resource": "limits.cpu", "divisor": "1m"}},
    {"path": "cpu", "resourceFieldRef": {"resource": "limits.cpu"}}, {"path": "", "mode": 1000},
    {"path": "/abs", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.uid"}, "resourceFieldRef": {"containerName": "main", "resource": "requests.memory", "divisor": "0"}},
]  # fmt: skip
_ITEMS = [[{"key": "k", "path": "p"}], [{"key": "k", "path": "a/../b", "mode": 511}], [{"key": "", "path": "", "mode": -1}], [{"key": "k", "path": "p"}, {"key": "k2", "path": "p"}]]
_PROJECTIONS: list[dict[str, Any]] = [
    {"secret": {"name": "s", "items": _ITEMS[0]}}, {"configMap": {"name": "c", "items": _ITEMS[0]}}, {"configMap": {"items": _ITEMS[2]}},
    {"downwardAPI": {"items": _DOWNWARD_FILES[:2]}}, {"serviceAccountToken": {"path": "token"}}, {"serviceAccountToken": {"audience": "a", "expirationSeconds": 600, "path": "t"}},
    {"serviceAccountToken": {"expirationSeconds": 10, "path": "/abs"}}, {"serviceAccountToken": {"expirationSeconds": 5000000000, "path": ""}},
    {"secret": {"name": "s"}, "configMap": {"name": "c"}}, {},
    {"clusterTrustBundle": {"signerName": "example.com/signer", "labelSelector": {"matchLabels": {"a": "b"}}, "path": "ca.pem"}},
    {"clusterTrustBundle": {"name": "example.com:signer:Bad", "path": "p"}}, {"clusterTrustBundle": {"path": ""}},
    {"podCertificate": {"signerName": "example.com/signer", "keyType": "ED25519", "credentialBundlePath": "creds.pem"}},
    {"podCertificate": {"keyType": "Bogus", "maxExpirationSeconds": 10}},
    {"podCertificate": {"signerName": "kubernetes.io/x", "keyType": "RSA3072", "maxExpirationSeconds": 90000, "keyPath": "p", "userAnnotations": {"Example.COM/Key": "v", "nodomain": "v"}}},
]  # fmt: skip
VOLUME_SOURCES_DRAWN: st.SearchStrategy[dict[str, Any]] = st.sampled_from(
    [
        {}, {"emptyDir": {}}, {"emptyDir": {"medium": "Memory", "sizeLimit": "1Gi"}}, {"emptyDir": {"sizeLimit": "-1"}},
        {"emptyDir": {}, "hostPath": {"path": "/x"}}, {"hostPath": {"path": "/x", "type": "Directory"}}, {"hostPath": {"path": "/a/../b", "type": "Bogus"}},
        {"hostPath": {"path": ""}}, {"gitRepo": {"repository": "", "directory": "../x"}}, {"gitRepo": {"repository": "https://example.com/r"}},
        {"secret": {"secretName": "s"}}, {"secret": {"secretName": "s", "defaultMode": 420, "items": _ITEMS[1]}}, {"secret": {"defaultMode": 512, "items": _ITEMS[2]}},
        {"configMap": {"name": "c", "items": _ITEMS[0]}}, {"configMap": {"defaultMode": -1}}, {"configMap": {"name": "c"}, "secret": {"secretName": "s"}},
        {"persistentVolumeClaim": {"claimName": "claim"}}, {"persistentVolumeClaim": {"claimName": "", "readOnly": True}},
        {"nfs": {"server": "nfs.example.com", "path": "/export"}}, {"nfs": {"server": "", "path": "rel"}},
        {"downwardAPI": {"items": _DOWNWARD_FILES[:2]}}, {"downwardAPI": {"defaultMode": 1000, "items": _DOWNWARD_FILES[2:]}},
        {"csi": {"driver": "csi.example.com"}}, {"csi": {"driver": ""}}, {"csi": {"driver": "Bad_Driver", "nodePublishSecretRef": {"name": "Bad_S"}}},
        {"csi": {"driver": "d" * 64, "nodePublishSecretRef": {}}},
        {"ephemeral": {"volumeClaimTemplate": {"spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}}},
        {"ephemeral": {"volumeClaimTemplate": {"metadata": {"labels": {"bad key!": "v"}}, "spec": {"accessModes": ["ReadWriteOncePod", "ReadOnlyMany", ODD_TEXT],
         "resources": {"requests": {"storage": "0"}}, "storageClassName": "Bad_SC", "volumeMode": "Weird"}}}},
        {"ephemeral": {"volumeClaimTemplate": {"spec": {"resources": {}, "volumeMode": "Block"}}}}, {"ephemeral": {}},
        {"ephemeral": {"volumeClaimTemplate": {"metadata": {"name": "x", "annotations": {"a": "b"}}, "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}},
         "dataSource": {"kind": "Snap", "name": ""}, "dataSourceRef": {"apiGroup": "Bad_Group", "kind": "", "name": "n", "namespace": "Bad_NS"}, "volumeAttributesClassName": "Bad_VAC"}}}},
        {"ephemeral": {"volumeClaimTemplate": {"spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}},
         "dataSource": {"kind": "PersistentVolumeClaim", "name": "x"}, "dataSourceRef": {"kind": "PersistentVolumeClaim", "name": "y"}}}}},
        {"image": {"reference": "busybox"}}, {"image": {"reference": "busybox:1.36", "pullPolicy": "Never"}}, {"image": {"pullPolicy": "Sometimes"}},
        {"cephfs": {"monitors": ["m"]}, "emptyDir": {}}, {"cephfs": {"monitors": ["m"]}},
        # The other in-tree sources: valid, and each check failing.
        {"gcePersistentDisk": {"pdName": "pd", "partition": 1}}, {"awsElasticBlockStore": {"volumeID": "", "partition": 256}},
        {"iscsi": {"targetPortal": "p:3260", "iqn": "iqn.2015-02.example.com:test", "lun": 0}},
        {"iscsi": {"targetPortal": "", "iqn": "eui.1234", "lun": 256, "chapAuthSession": True, "initiatorName": "bad"}},
        {"iscsi": {"targetPortal": "p", "iqn": "naa.12345678901234567890123456789012", "lun": 1, "initiatorName": "iqn.2015-02.example.com:" + "x" * 40}},
        {"fc": {"targetWWNs": ["w"], "lun": 1}}, {"fc": {"targetWWNs": ["w"], "wwids": ["i"]}}, {"fc": {}},
        {"rbd": {"monitors": ["m"], "image": "i"}}, {"rbd": {"monitors": [], "image": ""}}, {"cinder": {"volumeID": "", "secretRef": {}}},
        {"glusterfs": {"endpoints": "", "path": ""}}, {"flocker": {"datasetName": "a/b", "datasetUUID": "u"}}, {"flocker": {}},
        {"quobyte": {"registry": "h:1,[::1]:2", "volume": "v"}}, {"quobyte": {"registry": "h,[x]y:1", "volume": ""}},
        {"flexVolume": {"driver": "", "options": {"a.kubernetes.io/x": "1"}}}, {"azureFile": {"secretName": "s", "shareName": ""}},
        {"azureDisk": {"diskName": "d", "diskURI": "https://x"}}, {"azureDisk": {"diskName": "", "diskURI": "x", "kind": "Managed", "cachingMode": "Bogus"}},
        {"vsphereVolume": {"volumePath": ""}}, {"photonPersistentDisk": {"pdID": "p"}}, {"portworxVolume": {"volumeID": ""}},
        {"scaleIO": {"gateway": "g", "system": "", "secretRef": {"name": "s"}}}, {"storageos": {"volumeName": "Bad_V", "secretRef": {}}},
        # Fields of 1.37's alpha gates (dropped on create; validated as given; unknown before 1.37).
        {"emptyDir": {"mode": 0o1777}}, {"emptyDir": {"mode": 0o2000}}, {"secret": {"secretName": "s", "defaultUser": -1, "items": [{"key": "k", "path": "p", "user": 1000}]}},
        {"downwardAPI": {"defaultUser": 2**31, "items": [{"path": "p", "fieldRef": {"fieldPath": "metadata.name"}, "user": -1}]}},
        {"projected": {"defaultUser": 0, "sources": [{"serviceAccountToken": {"path": "t", "expirationSeconds": 3600, "user": -2}}]}},
    ]
)  # fmt: skip


@st.composite
def volume_source(draw: st.DrawFn) -> dict[str, Any]:
    """A volume's source: one of VOLUME_SOURCES_DRAWN, or a projected volume of a few sources."""
    if draw(st.integers(0, 5)):
        return copy.deepcopy(draw(VOLUME_SOURCES_DRAWN))
    # Each source copied on its own: one deepcopy of the list would keep a repeated draw shared.
    projected: dict[str, Any] = {"sources": [copy.deepcopy(p) for p in draw(st.lists(st.sampled_from(_PROJECTIONS), min_size=1, max_size=3))]}
    if draw(st.integers(0, 3)) == 0:
        projected["defaultMode"] = draw(st.sampled_from([0, 511, 512]))
    return {"projected": projected}


_MOUNT_OPTIONS: list[dict[str, Any]] = [
    {"readOnly": True}, {"mountPropagation": "HostToContainer"}, {"mountPropagation": "Bidirectional"}, {"mountPropagation": ODD_TEXT},
    {"readOnly": True, "recursiveReadOnly": "Enabled"}, {"recursiveReadOnly": "IfPossible"}, {"recursiveReadOnly": "Disabled"},
    {"readOnly": True, "recursiveReadOnly": "IfPossible", "mountPropagation": "HostToContainer"}, {"recursiveReadOnly": ODD_TEXT},
    {"readOnly": True, "recursiveReadOnly": "Enabled", "mountPropagation": "None"},
]  # fmt: skip


@st.composite
def volume_mounts(draw: st.DrawFn, ctr: dict[str, Any]) -> None:
    """Mount options and block devices (in place): propagation, recursive read-only, devices."""
    for mount in ctr.get("volumeMounts") or []:
        if draw(st.integers(0, 2)) == 0:
            mount.update(draw(st.sampled_from(_MOUNT_OPTIONS)))
    if draw(st.integers(0, 5)) == 0:
        ctr["volumeDevices"] = [
            {"name": draw(st.sampled_from(["data", "claim", "nope", ""])), "devicePath": draw(st.sampled_from(["/dev/xvda", "/dev/xvda", "/d", "", "/dev/../x"]))}
            for _ in range(draw(st.integers(1, 2)))
        ]


PORT_NAMES = st.sampled_from(["http", "metrics", "http", "HTTP", "a" * 16, "80", "-x", "a--b", "my_port"])


@st.composite
def container_env(draw: st.DrawFn, ctr: dict[str, Any]) -> None:
    """Extra container fields (in place): env sources, envFrom, port names."""
    if draw(st.integers(0, 3)) == 0:
        env = ctr.setdefault("env", [{"name": "A"}])
        for var in env:
            if draw(st.booleans()):
                var["valueFrom"] = copy.deepcopy(draw(VALUE_FROM))
                if draw(st.booleans()):
                    var.pop("value", None)
    if draw(st.integers(0, 4)) == 0:
        ctr["envFrom"] = [copy.deepcopy(draw(ENV_FROM)) for _ in range(draw(st.integers(1, 2)))]
    if ctr.get("ports") and draw(st.booleans()):
        for port in ctr["ports"]:
            port["name"] = draw(PORT_NAMES)


NODE_REQUIREMENTS = st.sampled_from(
    [
        {"key": "zone", "operator": "In", "values": ["a"]},
        {"key": "zone", "operator": "In", "values": []},
        {"key": "zone", "operator": "Exists", "values": ["a"]},
        {"key": "zone", "operator": "Gt", "values": ["1"]},
        {"key": "zone", "operator": "Gt", "values": ["x"]},
        {"key": "bad key!", "operator": "DoesNotExist"},
        {"key": "zone", "operator": ODD_TEXT, "values": ["a"]},
        # No label values: refused from 1.33 unless the stored template has one (v1.32 never checks).
        {"key": "zone", "operator": "In", "values": ["bad value!"]},
        {"key": "zone", "operator": "NotIn", "values": ["x" * 64]},
    ]
)
# matchFields are node field selectors: In/NotIn with one value, key metadata.name, node names.
NODE_FIELD_REQUIREMENTS = st.sampled_from(
    [
        {"key": "metadata.name", "operator": "In", "values": ["node-1"]},
        {"key": "metadata.name", "operator": "NotIn", "values": ["a", "b"]},
        {"key": "metadata.name", "operator": ODD_TEXT},
        {"key": "metadata.name", "operator": "In", "values": ["Bad_Node"]},
        {"key": "zone", "operator": "In", "values": ["a"]},
    ]
)


# validatePodDNSConfig: nameservers (sloppy IPs; leading zeros and IPv4-mapped refused from 1.36),
# searches (`_` and `.` allowed from 1.33), options, and the list limits.
DNS_NAMESERVERS = st.sampled_from(["1.2.3.4", "::1", "2001:db8::ffff", "01.2.3.4", "1.2.3", "::ffff:1.2.3.4", "00001::", "fe80::1%eth0", "x", "", "1.2.3.256", "1::2::3"])
DNS_SEARCHES = st.sampled_from(["ns1.svc.cluster.local", "example.com.", ".", "_sip._tcp.example.com", "Bad.Com", "a..b", "_", "x" * 254, "-a", "a_", "a.", "", "\u00e9" * 130])


@st.composite
def dns_config(draw: st.DrawFn) -> dict[str, Any]:
    """Lists of at least one item: Go drops an empty one on output (omitempty)."""
    config: dict[str, Any] = {}
    if draw(st.integers(0, 3)):
        config["nameservers"] = draw(st.lists(DNS_NAMESERVERS, min_size=1, max_size=4))
    if draw(st.booleans()):
        config["searches"] = draw(st.one_of(st.lists(DNS_SEARCHES, min_size=1, max_size=3), st.just(["a" * 60 + str(i) for i in range(33)]), st.just(["a" * 250] * 9)))
    if draw(st.integers(0, 2)) == 0:
        # An option without a name (Go drops an empty one on output: omitempty).
        config["options"] = [{**draw(st.sampled_from([{"name": "ndots"}, {}])), **({"value": "2"} if draw(st.booleans()) else {})}]
    return config


# validatePodSpecSecurityContext and ValidateSecurityContext: id ranges, policies, profiles,
# Windows user names, privilege escalation (privileged is refused without --allow-privileged).
IDS = st.sampled_from([0, 1000, -1, 2**31 - 1, 2**31])
PROFILES = st.sampled_from(
    [{"type": "RuntimeDefault"}, {"type": "Localhost", "localhostProfile": "p.json"}, {"type": "Localhost"}, {"type": "Localhost", "localhostProfile": "/abs"},
     {"type": "Localhost", "localhostProfile": "../up"}, {"type": "Unconfined", "localhostProfile": "p"}, {"type": ""}, {"type": ODD_TEXT},
     {"type": "Localhost", "localhostProfile": " p"}, {"type": "Localhost", "localhostProfile": ""}]
)
WINDOWS_OPTIONS = st.sampled_from(
    [{"runAsUserName": "ContainerUser"}, {"runAsUserName": ""}, {"runAsUserName": "DOMAIN\\user"}, {"runAsUserName": "a\\b\\c"}, {"runAsUserName": "..."},
     {"runAsUserName": "us:er"}, {"runAsUserName": ".dom\\user"}, {"runAsUserName": "d\\"}, {"runAsUserName": "x" * 105}, {"runAsUserName": "a\tb"},
     {"gmsaCredentialSpecName": "Bad_Name"}, {"gmsaCredentialSpec": ""}, {"gmsaCredentialSpecName": "spec", "gmsaCredentialSpec": "{}"},
     {"hostProcess": True}, {"hostProcess": False}]
)


@st.composite
def pod_security_context(draw: st.DrawFn) -> dict[str, Any]:
    sc: dict[str, Any] = {}
    for key in ("runAsUser", "runAsGroup", "fsGroup"):
        if draw(st.integers(0, 2)) == 0:
            sc[key] = draw(IDS)
    if draw(st.integers(0, 3)) == 0:
        sc["supplementalGroups"] = draw(st.lists(IDS, min_size=1, max_size=2))
    for key, values in (("fsGroupChangePolicy", ["Always", "OnRootMismatch", ODD_TEXT]), ("supplementalGroupsPolicy", ["Merge", "Strict", "", ODD_TEXT]),
                        ("seLinuxChangePolicy", ["Recursive", "MountOption", ODD_TEXT])):
        if draw(st.integers(0, 4)) == 0:
            sc[key] = draw(st.sampled_from(values))
    for key, strategy in (("seccompProfile", PROFILES), ("appArmorProfile", PROFILES), ("windowsOptions", WINDOWS_OPTIONS)):
        if draw(st.integers(0, 4)) == 0:
            sc[key] = draw(strategy)
    if draw(st.integers(0, 3)) == 0:
        names = ["net.ipv4.ip_forward", "net/ipv4/conf/eth0.1/rp_filter", "kernel.shm_rmid_forced", "fs.mqueue.msg_max", "kernel.pid_max", "Bad!", "", "a" * 254]
        sc["sysctls"] = [{"name": n, "value": "1"} for n in draw(st.lists(st.sampled_from(names), min_size=1, max_size=3))]
    return sc


@st.composite
def security_context(draw: st.DrawFn) -> dict[str, Any]:
    sc: dict[str, Any] = {}
    for key in ("runAsUser", "runAsGroup"):
        if draw(st.integers(0, 2)) == 0:
            sc[key] = draw(IDS)
    for key in ("privileged", "allowPrivilegeEscalation", "readOnlyRootFilesystem"):
        if draw(st.integers(0, 2)) == 0:
            sc[key] = draw(st.booleans())
    if draw(st.integers(0, 2)) == 0:
        sc["capabilities"] = draw(st.sampled_from([{}, {"add": ["CAP_SYS_ADMIN"]}, {"add": ["NET_ADMIN", "CAP_SYS_ADMIN"]}, {"add": ["SYS_ADMIN"]}]))
    if draw(st.integers(0, 4)) == 0:
        sc["procMount"] = draw(st.sampled_from(["Default", "Unmasked", ODD_TEXT]))
    for key, strategy in (("seccompProfile", PROFILES), ("appArmorProfile", PROFILES), ("windowsOptions", WINDOWS_OPTIONS)):
        if draw(st.integers(0, 5)) == 0:
            sc[key] = draw(strategy)
    return sc


# validateProbe, validateHandler, validateLifecycle: one handler, its details, the numbers; Go
# writes a port or sleep seconds left out as 0 and drops a zero int with omitempty, so those are
# always given and never 0 where omitted.
HANDLER_VALUES: list[dict[str, Any]] = (
    [{"exec": {"command": ["true"]}}, {"exec": {}}, {"httpGet": {"port": 8080}}, {"httpGet": {"path": "/healthz", "port": "http", "scheme": "HTTPS"}},
     {"httpGet": {"port": 0, "scheme": ODD_TEXT}}, {"httpGet": {"port": "Bad_Port", "httpHeaders": [{"name": "X-Ok", "value": "v"}, {"name": "bad header", "value": "v"}]}},
     {"httpGet": {"port": "80"}}, {"tcpSocket": {"port": 70000}}, {"tcpSocket": {"port": "a--b"}}, {"tcpSocket": {"port": "x" * 16}},
     {"grpc": {"port": 9000}}, {"grpc": {"port": -1, "service": "svc"}}, {}, {"exec": {"command": ["true"]}, "tcpSocket": {"port": 80}},
     {"httpGet": {"port": 80}, "grpc": {"port": 80}}]
)
HANDLERS = st.sampled_from(HANDLER_VALUES)
# A lifecycle handler has no gRPC action (LifecycleHandler), and may sleep.
LIFECYCLE_HANDLERS = st.sampled_from(
    [h for h in HANDLER_VALUES if "grpc" not in h]
    + [{"sleep": {"seconds": 5}}, {"sleep": {"seconds": 0}}, {"sleep": {"seconds": -1}}, {"sleep": {"seconds": 31}}, {"sleep": {"seconds": 5}, "exec": {"command": ["x"]}}]
)


@st.composite
def probe(draw: st.DrawFn) -> dict[str, Any]:
    out: dict[str, Any] = copy.deepcopy(draw(HANDLERS))
    for key in ("initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold"):
        if draw(st.integers(0, 3)) == 0:
            out[key] = draw(st.sampled_from([-1, 1, 2] if key != "initialDelaySeconds" else [-1, 5]))
    if draw(st.integers(0, 4)) == 0:
        out["terminationGracePeriodSeconds"] = draw(st.sampled_from([-1, 0, 10]))
    return out


@st.composite
def lifecycle(draw: st.DrawFn) -> dict[str, Any]:
    hooks = draw(st.sampled_from([["preStop"], ["postStart"], ["preStop", "postStart"], []]))
    return {hook: copy.deepcopy(draw(LIFECYCLE_HANDLERS)) for hook in hooks}


# ValidateHostAliases' IPs: sloppy-valid everywhere, refused by strict validation from 1.36, or never valid.
HOST_ALIAS_IPS = st.sampled_from(
    ["10.0.0.1", "2001:db8::1", "", "1.2.3", "256.1.1.1", "010.1.1.1", "::ffff:1.2.3.4", "::ffff:010.1.1.1", "00001::1", "fe80::1%eth0", "host"]
)


# Pod fields added after 1.32 (unknown to the releases before; dropped while their gate is off,
# validated when given: jobmodel.api.pod_drop, jobmodel.api.pod_recent_fields).
RECENT_POD_FIELDS: st.SearchStrategy[dict[str, Any]] = st.sampled_from(
    [{"hostnameOverride": "h"}, {"hostnameOverride": "Bad_Name", "setHostnameAsFQDN": True}, {"hostnameOverride": "h" * 65},
     {"schedulingGroup": {"podGroupName": "g"}}, {"schedulingGroup": {}}, {"schedulingGroup": {"podGroupName": "Bad_G"}},
     {"workloadRef": {"name": "w", "podGroup": "g"}}, {"workloadRef": {"name": "", "podGroup": "Bad", "podGroupReplicaKey": "k"}},
     {"evictionResponders": [{"name": "example.com/r", "priority": 1000}]}, {"evictionResponders": [{"name": "bad", "priority": 1}, {"name": "bad"}]},
     {"evictionResponders": [{"name": "x.k8s.io/r", "priority": 100001}]}, {"evictionResponders": [{"name": f"example.com/r{i}", "priority": 1000} for i in range(11)]},
     {"evictionResponders": [{"name": "example.com/r", "priority": 1000}], "schedulingGroup": {"podGroupName": "g"}}]
)  # fmt: skip
RECENT_CONTAINER_FIELDS: st.SearchStrategy[dict[str, Any]] = st.sampled_from(
    [{"lifecycle": {"stopSignal": "SIGTERM"}}, {"lifecycle": {"stopSignal": "SIGBOGUS", "preStop": {"sleep": {"seconds": 1}}}},
     {"livenessProbe": {"httpGet": {"port": 80, "protocol": "HTTP2"}}}, {"livenessProbe": {"httpGet": {"port": 80, "protocol": "HTTP3"}}},
     {"startupProbe": {"grpc": {"port": 80, "mode": "TLS"}}}, {"startupProbe": {"grpc": {"port": 80, "mode": "Bogus"}}},
     {"restartPolicy": "Never", "restartPolicyRules": [{"action": "Restart", "exitCodes": {"operator": "In", "values": [1]}}]},
     {"restartPolicy": "Never", "restartPolicyRules": [{"action": "RestartAllContainers", "exitCodes": {"operator": "NotIn", "values": [0]}}]}]
)  # fmt: skip


@st.composite
def recent_pod_fields(draw: st.DrawFn, template_spec: dict[str, Any]) -> None:
    """Some of the pod fields added after 1.32 (in place)."""
    if draw(st.booleans()):
        template_spec.update(copy.deepcopy(draw(RECENT_POD_FIELDS)))
    containers = template_spec.get("containers") or []
    if containers and draw(st.booleans()):
        containers[0].update(copy.deepcopy(draw(RECENT_CONTAINER_FIELDS)))
    mounts = containers[0].get("volumeMounts") if containers else None
    if mounts and draw(st.booleans()):
        mounts[0]["bindMountOptions"] = draw(st.sampled_from([["nosuid"], ["bogus", "nodev", "nodev"]]))


# ValidatePodSpec's hostname and subdomain (DNS-1123 labels), with setHostnameAsFQDN.
POD_NAMING: st.SearchStrategy[dict[str, Any]] = st.sampled_from(
    [{"hostname": "host"}, {"hostname": "Bad_Host"}, {"hostname": "h" * 64}, {"subdomain": "sub"}, {"subdomain": "a.b"}, {"hostname": "h", "subdomain": "s" * 64},
     {"hostname": "h", "setHostnameAsFQDN": True}, {"setHostnameAsFQDN": True, "hostname": "h" * 63, "subdomain": "s" * 63}, {"subdomain": "-s"},
     {"setHostnameAsFQDN": False}, {"hostname": "0"}, {"hostname": "\u00fc" * 32}]
)  # fmt: skip
# Other pod-spec fields ValidatePodSpec checks or the strategy keeps.
POD_MISC: st.SearchStrategy[dict[str, Any]] = st.sampled_from(
    [{"imagePullSecrets": [{"name": "s"}]}, {"imagePullSecrets": [{}, {"name": "Bad_S"}]}, {"activeDeadlineSeconds": 0}, {"activeDeadlineSeconds": 10},
     {"activeDeadlineSeconds": 2**31}, {"activeDeadlineSeconds": -1}, {"enableServiceLinks": False}, {"automountServiceAccountToken": False},
     {"priority": 5}, {"priorityClassName": "high"}, {"runtimeClassName": "Bad_RC"}, {"shareProcessNamespace": False}]
)  # fmt: skip


@st.composite
def pod_spec(draw: st.DrawFn, template_spec: dict[str, Any]) -> None:
    """Extra pod-spec fields (in place): containers, volumes, scheduling directives."""
    names = draw(st.sampled_from([["main"], ["main", "side"], ["main", "main"], ["Main"], []]))
    template_spec["containers"] = [draw(container(n)) for n in names]
    if draw(st.integers(0, 3)) == 0:
        template_spec["initContainers"] = []
        for name in draw(st.sampled_from([["init"], ["main"], ["init", "sidecar"], ["sidecar", "init"]])):
            init = draw(container(name))
            if draw(st.integers(0, 2)) == 0 or name == "sidecar":
                # Sidecars (restartPolicy Always) and the values an init container may not have.
                init["restartPolicy"] = draw(st.sampled_from(["Always", "Always", "Never", "OnFailure", ""]))
            template_spec["initContainers"].append(init)
    if draw(st.integers(0, 4)) == 0:
        template_spec["volumes"] = [
            {"name": draw(st.sampled_from(["data", "Data", "data", "claim"])), **draw(volume_source())}
            for _ in range(draw(st.integers(1, 3)))
        ]
    if draw(st.integers(0, 4)) == 0:
        template_spec["nodeSelector"] = {draw(st.sampled_from(["disk", "bad key!"])): draw(st.sampled_from(["ssd", "x" * 64]))}
    if draw(st.integers(0, 4)) == 0:
        template_spec["tolerations"] = [
            draw(
                st.sampled_from(
                    [
                        {"key": "k", "operator": "Exists", "effect": "NoSchedule"},
                        {"key": "k", "operator": "Equal", "value": "v"},
                        {"operator": "Equal", "value": "v"},
                        {"key": "k", "operator": "Exists", "value": "v"},
                        {"key": "k", "effect": ODD_TEXT},
                        {"key": "k", "operator": ODD_TEXT},
                        {"operator": ODD_TEXT, "effect": ODD_TEXT, "tolerationSeconds": 5},
                        {"key": "k", "operator": "Exists", "effect": "NoSchedule", "tolerationSeconds": 5},
                        {"key": "k", "operator": "Lt", "value": "5"},  # a comparison operator (1.35+, alpha)
                        {"key": "k", "operator": "Gt", "value": "-0"},
                    ]
                )
            )
        ]
    if draw(st.integers(0, 5)) == 0:
        template_spec["schedulingGates"] = [{"name": draw(st.sampled_from(["example.com/gate", "bad gate", ""]))}]
    if draw(st.integers(0, 5)) == 0:
        template_spec["dnsPolicy"] = draw(st.sampled_from(["ClusterFirst", "Default", "Bogus", ODD_TEXT]))
    if draw(st.integers(0, 4)) == 0:
        template_spec["dnsConfig"] = draw(st.one_of(dns_config(), st.none()))
        template_spec["dnsPolicy"] = draw(st.sampled_from(["None", "None", template_spec.get("dnsPolicy", "ClusterFirst")]))
    if draw(st.integers(0, 3)) == 0:
        template_spec["securityContext"] = draw(pod_security_context())
        template_spec.update(draw(st.sampled_from([{}, {}, {"hostPID": True, "shareProcessNamespace": True}, {"shareProcessNamespace": True}, {"hostUsers": False},
                                                  {"hostIPC": True}, {"hostNetwork": True}])))
    for ctr in template_spec["containers"][:1] + template_spec.get("initContainers", [])[:1]:
        if draw(st.integers(0, 3)) == 0:
            ctr["securityContext"] = draw(security_context())
    for ctr in template_spec["containers"][:1] + [c for c in template_spec.get("initContainers", []) if c.get("restartPolicy") == "Always" or draw(st.integers(0, 5)) == 0]:
        # Probes and lifecycle on containers and sidecars, now and then on an init container that may not have them.
        for key in ("livenessProbe", "readinessProbe", "startupProbe", "lifecycle"):
            if draw(st.integers(0, 5)) == 0:
                ctr[key] = draw(lifecycle() if key == "lifecycle" else probe())
    if draw(st.integers(0, 5)) == 0:
        template_spec.update(draw(POD_NAMING))
    if draw(st.integers(0, 6)) == 0:
        template_spec.update(copy.deepcopy(draw(POD_MISC)))
    if draw(st.integers(0, 5)) == 0:
        template_spec["terminationGracePeriodSeconds"] = draw(st.sampled_from([-1, 0, 30]))
    if draw(st.integers(0, 6)) == 0:
        template_spec["hostNetwork"] = True
        if draw(st.booleans()) and template_spec["containers"]:
            template_spec["containers"][0]["ports"] = [{"containerPort": 80, "hostPort": draw(st.sampled_from([80, 81, 70000]))}]
    if draw(st.integers(0, 5)) == 0:
        term = {"matchExpressions": [draw(NODE_REQUIREMENTS)]}
        if draw(st.integers(0, 2)) == 0:
            term["matchFields"] = [draw(NODE_FIELD_REQUIREMENTS)]
        template_spec["affinity"] = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": draw(st.sampled_from([[term], []]))}}}
    if draw(st.integers(0, 6)) == 0:
        # The deprecated serviceAccount alias (converted into serviceAccountName up to 1.36, kept
        # and compared with it from 1.37), and the other names ValidatePodSpec checks.
        template_spec.update(
            draw(
                st.sampled_from(
                    [{"serviceAccountName": "sa"}, {"serviceAccount": "sa"}, {"serviceAccount": "Bad_SA"}, {"serviceAccountName": "sa", "serviceAccount": "sa"},
                     {"serviceAccountName": "a", "serviceAccount": "b"}, {"nodeName": "node-1"}, {"nodeName": "Bad_Node"}, {"priorityClassName": "Bad_PC"},
                     {"readinessGates": [{"conditionType": "example.com/ready"}, {"conditionType": "bad type!"}]}, {"runtimeClassName": ""},
                     {"runtimeClassName": "gvisor"}, {"preemptionPolicy": "Never"}, {"preemptionPolicy": "Sometimes"}]
                )
            )
        )
    if draw(st.integers(0, 12)) == 0:
        debug: dict[str, Any] = {"name": draw(st.sampled_from(["debug", "main"])), "image": draw(st.sampled_from(["busybox", " busybox"]))}
        debug.update(
            draw(
                st.sampled_from(
                    [{}, {"targetContainerName": "main"}, {"targetContainerName": "nope"}, {"ports": [{"containerPort": 80}]}, {"resources": {}},
                     {"resources": {"limits": {}}}, {"lifecycle": {}}, {"volumeMounts": [{"name": "data", "mountPath": "/d", "subPath": "x"}]},
                     # 1.34+ (an unknown field before); decoded as a container's fields
                     {"restartPolicyRules": []}, {"resizePolicy": [{"resourceName": "cpu", "restartPolicy": "NotRequired"}], "stdin": True}]
                )
            )
        )
        template_spec["ephemeralContainers"] = [debug]
    if draw(st.integers(0, 6)) == 0:
        template_spec["hostAliases"] = [
            {"ip": draw(HOST_ALIAS_IPS), **({"hostnames": draw(st.sampled_from([["a.example"], ["Bad_Host", "ok"], [""]]))} if draw(st.booleans()) else {})}
            for _ in range(draw(st.integers(1, 2)))
        ]
    if draw(st.integers(0, 5)) == 0:
        draw(recent_pod_fields(template_spec))
    if draw(st.integers(0, 12)) == 0:
        template_spec["overhead"] = draw(resource_list(["cpu", "memory", "hugepages-2Mi", "example.com/foo", "bad name!"]))
    if draw(st.integers(0, 8)) == 0:
        # Pod-level resources (validated from 1.34, dropped before): against the containers' own.
        names = ["cpu", "memory", "hugepages-2Mi", "ephemeral-storage", "example.com/foo"]
        template_spec["resources"] = {key: draw(resource_list(names)) for key in ("limits", "requests")}
        if draw(st.integers(0, 5)) == 0:
            template_spec["resources"]["claims"] = []
    if draw(st.integers(0, 6)) == 0:
        template_spec["topologySpreadConstraints"] = draw(st.lists(topology_spread_constraint(), min_size=1, max_size=3))
    if draw(st.integers(0, 6)) == 0:
        # Pod affinity and anti-affinity, preferred node affinity (jobmodel.api.pod_affinity).
        affinity = template_spec.setdefault("affinity", {})
        key = draw(st.sampled_from(["podAffinity", "podAntiAffinity", "nodeAffinity"]))
        if key == "nodeAffinity":
            affinity.setdefault(key, {})["preferredDuringSchedulingIgnoredDuringExecution"] = [
                {"weight": draw(st.sampled_from([1, 100, 0, 101])), "preference": {"matchExpressions": [draw(NODE_REQUIREMENTS)]}}
            ]
        elif draw(st.booleans()):
            affinity[key] = {"requiredDuringSchedulingIgnoredDuringExecution": draw(st.lists(pod_affinity_term(), min_size=1, max_size=2))}
        else:
            weighted = {"weight": draw(st.sampled_from([1, 50, 0, 101])), "podAffinityTerm": draw(pod_affinity_term())}
            affinity[key] = {"preferredDuringSchedulingIgnoredDuringExecution": [weighted]}
    if draw(st.integers(0, 6)) == 0:
        # Resource claims (jobmodel.api.pod_claims): validated from 1.34, dropped before.
        template_spec["resourceClaims"] = draw(st.lists(POD_RESOURCE_CLAIMS, max_size=2))
        for ctr in template_spec["containers"][:1]:
            ctr.setdefault("resources", {})["claims"] = draw(st.lists(CONTAINER_CLAIMS, min_size=1, max_size=3))
    if draw(st.integers(0, 5)) == 0:
        # The OS-specific rules (jobmodel.api.pod_os) over the security contexts drawn above.
        template_spec["os"] = draw(st.sampled_from([{"name": "linux"}, {"name": "windows"}, {"name": "windows"}, {}, {"name": "Plan9"}]))
        if draw(st.booleans()):
            template_spec.setdefault("securityContext", {})["seLinuxOptions"] = draw(st.sampled_from([{}, {"level": "s0:c1"}]))
    if draw(st.booleans()):
        template_spec.update(STORED_POD_DEFAULTS)
        for ctr in template_spec["containers"] + template_spec.get("initContainers", []):
            for key, value in STORED_CONTAINER_DEFAULTS.items():
                ctr.setdefault(key, value)


# validateTopologySpreadConstraints (jobmodel.api.pod_topology): the numbers at their edges,
# repeated {topologyKey, whenUnsatisfiable}, node policies, and matchLabelKeys against selectors
# that name a key once, twice or not at all (the legacy and the preferred rule differ there).
SPREAD_SELECTORS = st.sampled_from(
    [None, {}, {"matchLabels": {"app": "a"}}, {"matchLabels": {"bad key!": "a"}},
     {"matchExpressions": [{"key": "app", "operator": "In", "values": ["a"]}]},
     {"matchLabels": {"app": "a"}, "matchExpressions": [{"key": "app", "operator": "Exists"}]},
     {"matchExpressions": [{"key": "app", "operator": "NotIn", "values": ["x"]}, {"key": "app", "operator": "NotIn", "values": ["bad value"]}]}]
)  # fmt: skip


@st.composite
def pod_affinity_term(draw: st.DrawFn) -> dict[str, Any]:
    term: dict[str, Any] = {"topologyKey": draw(st.sampled_from(["zone", "kubernetes.io/hostname", "", "bad key!"]))}
    selector = draw(SPREAD_SELECTORS)
    if selector is not None:
        term["labelSelector"] = selector
    if draw(st.integers(0, 3)) == 0:
        term["namespaceSelector"] = draw(st.sampled_from([{}, {"matchLabels": {"team": "a"}}, {"matchExpressions": [{"key": "team", "operator": "In", "values": ["bad value"]}]}]))
    if draw(st.integers(0, 3)) == 0:
        term["namespaces"] = draw(st.sampled_from([["default"], ["Bad_NS"], [""]]))
    for key in ("matchLabelKeys", "mismatchLabelKeys"):
        if draw(st.integers(0, 3)) == 0:
            term[key] = draw(st.lists(st.sampled_from(["app", "pod-template-hash", "bad key!"]), min_size=1, max_size=2))
    return term


@st.composite
def topology_spread_constraint(draw: st.DrawFn) -> dict[str, Any]:
    constraint: dict[str, Any] = {
        "topologyKey": draw(st.sampled_from(["zone", "zone", "kubernetes.io/hostname", ""])),
        "whenUnsatisfiable": draw(st.sampled_from(["DoNotSchedule", "ScheduleAnyway", "Bogus", ODD_TEXT])),
    }
    if draw(st.integers(0, 5)):
        constraint["maxSkew"] = draw(st.sampled_from([1, 1, 2, 0, -1]))
    if draw(st.integers(0, 3)) == 0:
        constraint["minDomains"] = draw(st.sampled_from([1, 3, 0, -1]))
    for key in ("nodeAffinityPolicy", "nodeTaintsPolicy"):
        if draw(st.integers(0, 4)) == 0:
            constraint[key] = draw(st.sampled_from(["Honor", "Ignore", ODD_TEXT]))
    selector = draw(SPREAD_SELECTORS)
    if selector is not None:
        constraint["labelSelector"] = selector
    if draw(st.integers(0, 2)) == 0:
        constraint["matchLabelKeys"] = draw(st.lists(st.sampled_from(["app", "pod-template-hash", "bad key!", "app"]), min_size=1, max_size=2))
    return constraint


POD_RESOURCE_CLAIMS = st.sampled_from(
    [{"name": "gpu", "resourceClaimTemplateName": "gpu-template"}, {"name": "gpu", "resourceClaimName": "shared"}, {"name": "net", "resourceClaimName": "n"},
     {"name": "bad/name", "resourceClaimName": "n"}, {"name": "", "resourceClaimName": "n"}, {"name": "x"},
     {"name": "y", "resourceClaimName": "n", "resourceClaimTemplateName": "Bad_T"}]
)  # fmt: skip
CONTAINER_CLAIMS = st.sampled_from([{"name": "gpu"}, {"name": "gpu", "request": "r0"}, {"name": "gpu", "request": "r1"}, {"name": "net"}, {"name": "nope"}, {"name": ""},
                                    {"name": "gpu", "request": "Bad_R"}])


# The pod-specific annotations (jobmodel.api.pod_annotations): the deprecated seccomp and
# AppArmor ones, profile names valid and not, for the containers the manifests have ("main",
# "init") and one they lack, against security-context profiles; the deletion cost; the mirror pod.
SECCOMP_ANNOTATION_VALUES = st.sampled_from(["runtime/default", "docker/default", "unconfined", "localhost/p.json", "localhost//abs", "localhost/../up", "bogus", ""])
TOLERATION_ANNOTATION_VALUES = st.sampled_from(
    ['[{"key": "k", "operator": "Exists"}]', '[{"KEY": "bad key!", "Operator": "Sometimes", "tolerationSeconds": 5}]', "null", "[]", "{}", "[1]", "[null]",
     '[{"key": 5}]', '[{"tolerationSeconds": 1.5}]', '[{"tolerationSeconds": "5"}]', '[{"operator": "Lt", "value": "5", "key": "k"}]', "tru", "[1,]",
     '{"a" 1}', "[1 2]", '["\\x"]', '[{"a": 1}', "[] x", " ", "",
     # Go's field-name folding (SimpleFold), lone surrogates (U+FFFD), strconv's range before syntax
     '[{"e\ufb00ect": "NoSchedule", "\u212aey": "k"}]', '[{"key": "\\ud800"}]', '[{"tolerationSeconds": 1234567890123456789012345}]',
     '[{"operator": "Lt", "value": "99999999999999999999x", "key": "k"}]', '[{"operator": "Gt", "value": "1_0", "key": "k"}]']
)  # fmt: skip
APPARMOR_ANNOTATION_VALUES = st.sampled_from(["runtime/default", "unconfined", "localhost/p.json", "localhost/q", "", "baz"])


@st.composite
def pod_specific_annotations(draw: st.DrawFn, template_spec: dict[str, Any]) -> dict[str, str]:
    """The annotations; sometimes profiles for them to agree or disagree with (in place)."""
    annotations: dict[str, str] = {}
    if draw(st.booleans()) and template_spec.get("containers"):
        sc = template_spec["containers"][0].setdefault("securityContext", {})
        sc[draw(st.sampled_from(["seccompProfile", "appArmorProfile"]))] = draw(PROFILES)
    if draw(st.integers(0, 3)) == 0:
        template_spec.setdefault("securityContext", {})[draw(st.sampled_from(["seccompProfile", "appArmorProfile"]))] = draw(PROFILES)
    if draw(st.booleans()):
        annotations["seccomp.security.alpha.kubernetes.io/pod"] = draw(SECCOMP_ANNOTATION_VALUES)
    for name in draw(st.lists(st.sampled_from(["main", "init", "nope"]), max_size=2, unique=True)):
        annotations["container.seccomp.security.alpha.kubernetes.io/" + name] = draw(SECCOMP_ANNOTATION_VALUES)
    for name in draw(st.lists(st.sampled_from(["main", "init", "nope"]), max_size=2, unique=True)):
        annotations["container.apparmor.security.beta.kubernetes.io/" + name] = draw(APPARMOR_ANNOTATION_VALUES)
    if draw(st.integers(0, 3)) == 0:
        annotations["controller.kubernetes.io/pod-deletion-cost"] = draw(st.sampled_from(["10", "-5", "0", "+1", "007", "2147483648", "x", "", "1_0", "\u0663", "1" * 5000]))
    if draw(st.integers(0, 6)) == 0:
        annotations["kubernetes.io/config.mirror"] = "mirror"
    if draw(st.integers(0, 3)) == 0:
        # Decoded as Go's encoding/json decodes it (jobmodel.api.go_json), then validated.
        annotations["scheduler.alpha.kubernetes.io/tolerations"] = draw(TOLERATION_ANNOTATION_VALUES)
    return annotations


@st.composite
def label_selector(draw: st.DrawFn, labels: dict[str, str]) -> dict[str, Any]:
    """A manual selector: the template's labels, another value, or set-based requirements."""
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return {"matchLabels": dict(labels)}
    if kind == 1:
        return {"matchLabels": {"app": "other"}}
    if kind == 2:
        return {}
    expressions = []
    for _ in range(draw(st.integers(1, 2))):
        op = draw(st.sampled_from(["In", "NotIn", "Exists", "DoesNotExist", "Gt", ODD_TEXT]))
        expr: dict[str, Any] = {"key": draw(st.sampled_from(["app", "bad key!", "example.com/app"])), "operator": op}
        if draw(st.booleans()):
            expr["values"] = draw(st.lists(LABEL_VALUES, max_size=2))
        expressions.append(expr)
    return {"matchExpressions": expressions}


# ValidateManagedFields: operations (the error changed in 1.37), fields type, manager, subresource
# (no empty strings given: Go's encoder drops them, which the defaulting comparison does not ignore).
MANAGED_FIELDS = st.sampled_from(
    [[{"manager": "kubectl", "operation": "Apply", "apiVersion": "batch/v1", "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {}}}],
     [{"operation": "Bogus"}, {"manager": "m"}], [{"operation": "Update", "fieldsType": "FieldsV2", "subresource": "s" * 257}],
     [{"operation": "Apply", "manager": "m" * 129}], [{"operation": "Update", "manager": "a\tb"}],
     [{"operation": "Update", "manager": "kubectl-\U0001e030"}], [{"operation": "Update", "manager": "m\u0378"}]]  # Unicode 15.0; unassigned
)  # fmt: skip


@st.composite
def job_metadata(draw: st.DrawFn, meta: dict[str, Any]) -> None:
    """Extra metadata (in place): the Job's own labels and annotations, a uid, namespace edges."""
    if draw(st.integers(0, 3)) == 0:
        meta["labels"] = draw(st.sampled_from([{"team": "a"}, {}, {"bad key!": "a"}, {"team": "x" * 64}]))
    if draw(st.integers(0, 4)) == 0:
        meta["annotations"] = draw(st.sampled_from([{"note": "a"}, {"bad key!": "a"}, {"example.com/x": ""}]))
    if draw(st.integers(0, 3)) == 0:
        meta["uid"] = "uid-1"
    if draw(st.integers(0, 8)) == 0:
        meta["namespace"] = draw(st.sampled_from(["", "Bad_NS", "kube-system"]))
        if not meta["namespace"]:
            del meta["namespace"]
    if draw(st.integers(0, 8)) == 0:
        del meta["name"]
        meta["generateName"] = draw(st.sampled_from(["job-", "Bad-"]))
    if draw(st.integers(0, 8)) == 0:
        meta["finalizers"] = draw(st.sampled_from([["example.com/f"], ["bad finalizer"], ["orphan", "foregroundDeletion"], ["x", "x"]]))
    if draw(st.integers(0, 10)) == 0:
        meta["managedFields"] = draw(MANAGED_FIELDS)
    if draw(st.integers(0, 8)) == 0:
        ref = {"apiVersion": "batch/v1", "kind": "CronJob", "name": "cron", "uid": "cron-uid"}
        meta["ownerReferences"] = draw(
            st.sampled_from([[ref], [{**ref, "controller": True}, {**ref, "uid": "u2", "controller": True}], [{**ref, "uid": ""}], [{**ref, "apiVersion": ""}], [{**ref, "apiVersion": "a/b/c"}], [{**ref, "apiVersion": "/v1", "kind": "Event"}]])
        )


SCHEDULING_POLICIES = st.sampled_from([{"basic": {}}, {"gang": {}}, {"gang": {"minCount": 2}}, {"gang": {"minCount": 0}}, {}, {"basic": {}, "gang": {"minCount": 5}}])
DISRUPTION_MODES: st.SearchStrategy[dict[str, Any]] = st.sampled_from([{"single": {}}, {"all": {}}, {}, {"single": {}, "all": {}}])


@st.composite
def job_scheduling(draw: st.DrawFn) -> dict[str, Any]:
    """A Job's spec.scheduling (1.37; an unknown field before)."""
    scheduling: dict[str, Any] = {}
    if draw(st.booleans()):
        scheduling["schedulingPolicy"] = draw(SCHEDULING_POLICIES)
    if draw(st.booleans()):
        scheduling["disruptionMode"] = draw(DISRUPTION_MODES)
    if draw(st.integers(0, 3)) == 0:
        scheduling["resourceClaims"] = [{"name": "c", "resourceClaimName": "rc"}]
    return scheduling


@st.composite
def job_manifests(draw: st.DrawFn) -> dict[str, Any]:
    job = base_job()
    spec = job["spec"]
    template_spec = spec["template"]["spec"]
    if draw(st.booleans()):
        job["metadata"]["name"] = draw(NAMES)
    draw(job_metadata(job["metadata"]))
    for key in ("parallelism", "completions", "backoffLimit", "activeDeadlineSeconds", "ttlSecondsAfterFinished"):
        if draw(st.booleans()):
            value = draw(st.one_of(SMALL, INTS) if key in ("parallelism", "completions") else SMALL)
            if value is not None:
                spec[key] = value
    if draw(st.booleans()):
        spec["completionMode"] = draw(st.sampled_from(["Indexed", "NonIndexed", "Bogus", ODD_TEXT]))
    if draw(st.booleans()):
        spec["backoffLimitPerIndex"] = draw(st.integers(-1, 3))
    if draw(st.booleans()):
        spec["maxFailedIndexes"] = draw(st.one_of(st.integers(-1, 4), st.sampled_from([10_001, 100_001])))
    if draw(st.booleans()):
        spec["suspend"] = draw(st.booleans())
    if draw(st.booleans()):
        spec["podReplacementPolicy"] = draw(st.sampled_from(["Failed", "TerminatingOrFailed", "Bogus", ODD_TEXT]))
    if draw(st.booleans()):
        spec["podFailurePolicy"] = draw(pod_failure_policy())
    if draw(st.booleans()):
        spec["successPolicy"] = draw(success_policy())
    if draw(st.integers(0, 4)) == 0:
        spec["managedBy"] = draw(st.sampled_from(["kubernetes.io/job-controller", "example.com/x", "bad", "x" * 70, "example.com/" + "\u00fc" * 26]))
    if draw(st.integers(0, 9)) == 0:
        spec["scheduling"] = draw(job_scheduling())
    if draw(st.integers(0, 12)) == 0:
        # Above the completions soft limit with a backoff limit per index (the high-completions limits).
        spec.update({"completionMode": "Indexed", "backoffLimitPerIndex": 1, "completions": draw(st.sampled_from([100_001, 2**31 - 1, 100_000]))})
        for key, values in (("parallelism", [10_000, 10_001, 1]), ("maxFailedIndexes", [10_000, 10_001, 100_001])):
            _set_or_drop(spec, key, draw(st.sampled_from([None, *values])))
    template_spec["restartPolicy"] = draw(st.sampled_from(["Never", "OnFailure", "Always", "Bogus", ODD_TEXT]))
    if draw(st.integers(0, 3)) == 0:
        template_spec["initContainers"] = [{"name": "init", "image": "busybox"}]
    if draw(st.integers(0, 2)) == 0:
        draw(pod_spec(template_spec))
    selector = draw(st.integers(0, 5))
    labels = {"app": draw(LABEL_VALUES)}
    if selector:
        spec["template"]["metadata"] = {"labels": labels if selector != 4 else {}}
    if selector == 2:
        spec["selector"] = {"matchLabels": dict(labels)}
        spec["manualSelector"] = draw(st.booleans())
    elif selector in (3, 4):
        spec["selector"] = draw(label_selector(labels))
        spec["manualSelector"] = draw(st.sampled_from([True, True, False]))
    if draw(st.integers(0, 4)) == 0:
        spec["template"].setdefault("metadata", {})["annotations"] = draw(st.one_of(st.sampled_from([{"a": "b"}, {"bad key!": "b"}]), pod_specific_annotations(template_spec)))
    if draw(st.integers(0, 15)) == 0:
        del spec["template"]["spec"]  # Go defaults and validates a zero PodSpec
    if draw(st.integers(0, 15)) == 0:
        job["status"] = draw(job_status(spec.get("completions")))  # cleared on create (PrepareForCreate)
    return job


@st.composite
def cron_job_manifests(draw: st.DrawFn) -> dict[str, Any]:
    job = draw(job_manifests())
    job["spec"].pop("selector", None)  # a CronJob's job template never carries one, mostly
    if draw(st.integers(0, 6)) == 0:
        job["spec"]["selector"] = {"matchLabels": {"app": "a"}}
    if draw(st.integers(0, 3)) == 0:
        job["spec"]["manualSelector"] = draw(st.booleans())
    else:
        job["spec"].pop("manualSelector", None)
    cron: dict[str, Any] = {
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "metadata": {"name": draw(st.sampled_from(["cron", "c" * 52, "c" * 53, "Bad", "\u00fc" * 27])), "namespace": "default"},
        "spec": {"schedule": draw(SCHEDULES), "jobTemplate": {"spec": job["spec"]}},
    }
    if draw(st.integers(0, 5)) == 0:
        draw(job_metadata(cron["metadata"]))
    if draw(st.integers(0, 12)) == 0:
        # Cleared on create (PrepareForCreate), kept from the old one on update.
        cron["status"] = draw(st.sampled_from([{"lastScheduleTime": "2024-01-01T00:00:00Z"}, {"active": [{"name": "j", "namespace": "default"}], "lastSuccessfulTime": "2024-01-01T00:00:00Z"}]))
    if draw(st.integers(0, 3)) == 0:
        cron["spec"]["jobTemplate"]["metadata"] = copy.deepcopy(draw(JOB_TEMPLATE_METADATA))
    if draw(st.booleans()):
        cron["spec"]["timeZone"] = draw(TIME_ZONES)
    for key in ("startingDeadlineSeconds", "successfulJobsHistoryLimit", "failedJobsHistoryLimit"):
        if draw(st.booleans()):
            cron["spec"][key] = draw(st.one_of(st.integers(-1, 3), st.sampled_from([-(2**31), 2**31 - 1, 2**63 - 1] if key == "startingDeadlineSeconds" else [-(2**31), 2**31 - 1])))
    if draw(st.integers(0, 15)) == 0:
        # Unset at each level: Go defaults and validates a zero JobTemplateSpec, JobSpec, PodTemplateSpec.
        level = draw(st.sampled_from([("jobTemplate",), ("jobTemplate", "spec"), ("jobTemplate", "spec", "template")]))
        parent = cron["spec"]
        for key in level[:-1]:
            parent = parent[key]
        parent.pop(level[-1], None)
    if draw(st.booleans()):
        cron["spec"]["concurrencyPolicy"] = draw(st.sampled_from(["Allow", "Forbid", "Replace", "Bogus", ODD_TEXT]))
    if draw(st.booleans()):
        cron["spec"]["suspend"] = draw(st.booleans())
    return cron


# A CronJob's jobTemplate metadata (not validated through the CronJob, defaulted as given).
JOB_TEMPLATE_METADATA: st.SearchStrategy[dict[str, Any]] = st.sampled_from(
    [{"labels": {"a": "b"}, "annotations": {"x": "y"}}, {"labels": {"bad key!": "b"}, "annotations": {"x": "y"}}, {"labels": {"a": "x" * 64}},
     {"annotations": {"bad key!": "v"}}, {"name": "Bad_Name"}, {"generateName": "x-"}, {"namespace": "other"}, {"finalizers": ["bad finalizer"]}, {}]
)  # fmt: skip
SCHEDULES_LISTED = st.sampled_from(
    ["*/5 * * * *", "@hourly", "@every 1h", "0 0 31 2 *", "61 * * * *", "TZ=UTC * * * * *", "CRON_TZ=Europe/Berlin 0 * * * *", "", "* * * *", "5-2 * * * 7",
     'a"b * * * *', "@every 1\u03bc\u00a0"]  # Go quotes the bad field (strconv.Quote) and duration (time's quote)
)
SCHEDULES_EDGES = st.sampled_from(SCHEDULE_EDGES)


@st.composite
def schedules(draw: st.DrawFn) -> str:
    """A schedule: the listed awkward ones, robfig's edges, generated fields, TZ prefixes."""
    kind = draw(st.integers(0, 5))
    if kind == 0:
        return draw(SCHEDULES_EDGES)
    if kind == 1:
        return draw(GENERATED_SCHEDULES)
    if kind == 2:
        return draw(TZ_PREFIXED_SCHEDULES)
    return draw(SCHEDULES_LISTED)


SCHEDULES = schedules()
TIME_ZONES = st.sampled_from(
    ["Europe/Berlin", "UTC", "Mars/Olympus", " Europe/Berlin", "Local", "", "America/Argentina/Buenos_Aires", "../etc", "local", "Etc/GMT+5", "Etc/GMT-14",
     "EST", "europe/berlin", "Europe/Berlin/", "America/New_York/.", "America//New_York", "a" * 15, "Asia/Calcutta", "EST5EDT", "America", "zone.tab",
     "posixrules", "-UTC", "America/../UTC", "US/Pacific", "Etc/UTC", "GMT0", "Factory", "Europe/Ber lin", "+0100", "LOCAL"]
)  # fmt: skip


def _stored(obj: dict[str, Any]) -> dict[str, Any]:
    obj["metadata"]["uid"] = "uid-1"
    obj["metadata"]["resourceVersion"] = "1"
    obj["metadata"].setdefault("name", "job")
    obj["metadata"].pop("generateName", None)
    return obj


@st.composite
def generated_selector(draw: st.DrawFn, job: dict[str, Any]) -> None:
    """The selector and template labels PrepareForCreate generates (in place), as a stored Job
    has them: sometimes without the prefixed labels (Jobs created before 1.27), or with a label
    that disagrees with the Job's name or uid."""
    meta = job["metadata"]
    spec = job["spec"]
    uid, name = meta.get("uid", "uid-1"), meta.get("name", "job")
    labels = {"controller-uid": uid, "job-name": name}
    if draw(st.integers(0, 3)):
        labels.update({"batch.kubernetes.io/controller-uid": uid, "batch.kubernetes.io/job-name": name})
    if draw(st.integers(0, 5)) == 0:
        labels[draw(st.sampled_from(sorted(labels)))] = "other"
    spec.setdefault("template", {}).setdefault("metadata", {})["labels"] = labels
    key = "batch.kubernetes.io/controller-uid" if "batch.kubernetes.io/controller-uid" in labels and draw(st.integers(0, 3)) else "controller-uid"
    spec["selector"] = {"matchLabels": {key: uid}}
    choice = draw(st.sampled_from([None, None, False, True]))
    if choice is None:
        spec.pop("manualSelector", None)
    else:
        spec["manualSelector"] = choice


AFFINITIES: st.SearchStrategy[dict[str, Any] | None] = st.sampled_from(
    [None, {}, {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]}]}}},
     {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "preference": {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["b"]}]}}]}},
     {"podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{"topologyKey": "zone", "labelSelector": {"matchLabels": {"app": "a"}}}]}},
     {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "podAffinityTerm": {"topologyKey": "zone"}}]},
      "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["n"]}]}]}}},
     {"nodeAffinity": {}}]
)  # fmt: skip


def _set_or_drop(obj: dict[str, Any], key: str, value: Any) -> None:
    if value is None:
        obj.pop(key, None)
    else:
        obj[key] = copy.deepcopy(value)


@st.composite
def job_updates(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """(old, new): a stored-looking Job and an edit of it."""
    old = _stored(draw(job_manifests()))
    if draw(st.booleans()):
        draw(generated_selector(old))
    new = copy.deepcopy(old)
    spec = new["spec"]
    for _ in range(draw(st.integers(1, 3))):
        field = draw(
            st.sampled_from(
                ["parallelism", "completions", "suspend", "backoffLimit", "activeDeadlineSeconds", "template", "managedBy", "completionMode",
                 "scheduling", "selector", "podFailurePolicy", "successPolicy", "backoffLimitPerIndex", "labels", "name", "meta",
                 "maxFailedIndexes", "podReplacementPolicy", "ttlSecondsAfterFinished", "serviceAccount", "resources", "jobScheduling",
                 "emptyStruct", "elastic", "unset", "affinity", "immutablePolicies", "manualSelector"]
            )
        )
        template = spec.setdefault("template", {})
        if field == "suspend":
            spec["suspend"] = draw(st.booleans())
        elif field == "template":
            template.setdefault("spec", {}).setdefault("containers", [{"name": "main"}])
            if template["spec"]["containers"]:
                template["spec"]["containers"][0]["image"] = "other"
            else:
                template["spec"]["restartPolicy"] = "OnFailure"
        elif field == "scheduling":
            # Mutable while a suspended Job never started (validatePodTemplateUpdate).
            target = draw(st.sampled_from(["nodeSelector", "tolerations", "labels", "annotations", "schedulingGates", "nodeSelectorOld", "priorityClassName"]))
            if target in ("labels", "annotations"):
                # An entry with an empty value is a change too (Semantic.DeepEqual on the map).
                template.setdefault("metadata", {}).setdefault(target, {})["extra"] = draw(st.sampled_from(["1", ""]))
            elif target == "nodeSelector":
                template.setdefault("spec", {})["nodeSelector"] = {"disk": draw(st.sampled_from(["ssd", ""]))}
            elif target == "nodeSelectorOld":
                # Cleared, or set where the stored template had none.
                old["spec"].setdefault("template", {}).setdefault("spec", {})["nodeSelector"] = {"disk": "hdd"}
                template.setdefault("spec", {}).pop("nodeSelector", None)
            elif target == "priorityClassName":
                template.setdefault("spec", {})["priorityClassName"] = "high"  # not a scheduling directive: immutable
            elif target == "tolerations":
                template.setdefault("spec", {})["tolerations"] = [{"key": "k", "operator": "Exists"}]
            else:
                template.setdefault("spec", {})["schedulingGates"] = [{"name": "example.com/g"}]
            if draw(st.booleans()):
                old.setdefault("status", {})["startTime"] = "2024-01-01T00:00:00Z"
            if draw(st.booleans()):
                spec["suspend"] = old["spec"]["suspend"] = draw(st.sampled_from([True, True, False]))
        elif field == "serviceAccount":
            # The account moved between the deprecated alias and serviceAccountName (the same
            # internal template up to 1.36: Convert_v1_PodSpec_To_core_PodSpec).
            before, after = draw(st.permutations(["serviceAccount", "serviceAccountName"]))
            old_pod = old["spec"].setdefault("template", {}).setdefault("spec", {})
            new_pod = template.setdefault("spec", {})
            for pod, key in ((old_pod, before), (new_pod, after)):
                pod.pop("serviceAccount", None)
                pod.pop("serviceAccountName", None)
                pod[key] = "sa"
        elif field == "resources":
            # Mutable in a suspended Job from 1.35 (validatePodResourceUpdatesOnly); a stored
            # value that is no whole number of pages allows more of them.
            containers = template.setdefault("spec", {}).setdefault("containers", [{"name": "main"}])
            if containers:
                containers[0]["resources"] = draw(resource_requirements())
            if draw(st.booleans()):
                spec["suspend"] = old["spec"]["suspend"] = True
        elif field == "emptyStruct":
            # A pointer to an empty struct is not nil (Semantic.DeepEqual); the pod's security
            # context is always there internally up to 1.36; a container's resources are a value.
            pod = template.setdefault("spec", {})
            target = draw(st.sampled_from(["affinity", "securityContext", "dnsConfig", "livenessProbe", "resources"]))
            if target in ("livenessProbe", "resources"):
                for ctr in pod.setdefault("containers", [{"name": "main"}])[:1]:
                    ctr[target] = {}
            else:
                pod[target] = {}
        elif field == "elastic":
            # Indexed completions change only in tandem with parallelism (validateCompletions).
            count = draw(st.sampled_from([1, 2, 3, 5]))
            for job in (old, new):
                job["spec"]["completionMode"] = "Indexed"
                job["spec"]["completions"] = job["spec"]["parallelism"] = count
            spec["completions"] = draw(st.sampled_from([count + 1, count - 1, 0, count]))
            spec["parallelism"] = draw(st.sampled_from([spec["completions"], spec["completions"], count, count + 2]))
            if draw(st.integers(0, 5)) == 0:
                spec.pop(draw(st.sampled_from(["completions", "parallelism"])))  # no parallelism: validateCompletions dereferences nil
        elif field == "unset":
            # An immutable field set before and cleared now, or the other way round.
            key = draw(st.sampled_from(["podFailurePolicy", "successPolicy", "backoffLimitPerIndex", "managedBy", "maxFailedIndexes", "completionMode", "selector",
                                        "completions", "podReplacementPolicy", "suspend", "template"]))  # fmt: skip
            values = {"podFailurePolicy": {"rules": []}, "successPolicy": {"rules": [{"succeededCount": 1}]}, "backoffLimitPerIndex": 1, "managedBy": "example.com/x",
                      "maxFailedIndexes": 1, "completionMode": "NonIndexed", "selector": {}, "completions": 1, "podReplacementPolicy": "Failed", "suspend": True,
                      "template": {}}  # fmt: skip
            if draw(st.booleans()):
                old["spec"][key] = copy.deepcopy(values[key])
                spec.pop(key, None)
            else:
                old["spec"].pop(key, None)
                spec[key] = copy.deepcopy(values[key])
        elif field == "affinity":
            # Node affinity is mutable while a suspended Job never started; the rest of the affinity is not.
            old_pod = old["spec"].setdefault("template", {}).setdefault("spec", {})
            _set_or_drop(old_pod, "affinity", draw(AFFINITIES))
            _set_or_drop(template.setdefault("spec", {}), "affinity", draw(AFFINITIES))
            if draw(st.integers(0, 2)):
                spec["suspend"] = old["spec"]["suspend"] = True
            if draw(st.integers(0, 3)) == 0:
                old.setdefault("status", {})["startTime"] = "2024-01-01T00:00:00Z"
        elif field == "immutablePolicies":
            # The same policy written otherwise (Semantic.DeepEqual of the internal values), or edited.
            key = draw(st.sampled_from(["podFailurePolicy", "successPolicy"]))
            policy = draw(pod_failure_policy() if key == "podFailurePolicy" else success_policy())
            old["spec"][key] = copy.deepcopy(policy)
            spec[key] = copy.deepcopy(policy)
            rules = spec[key]["rules"]
            if rules and draw(st.booleans()):
                rules[-1] = {**rules[-1], **draw(st.sampled_from([{"action": "Ignore"}, {"onPodConditions": []}, {"succeededCount": 2}, {"succeededIndexes": "0"}]))}
            elif draw(st.booleans()):
                rules.append({"action": "Count", "onExitCodes": {"operator": "In", "values": [1]}} if key == "podFailurePolicy" else {"succeededCount": 1})
        elif field == "manualSelector":
            spec["manualSelector"] = draw(st.sampled_from([True, False, None]))
            if spec["manualSelector"] is None:
                del spec["manualSelector"]
        elif field == "managedBy":
            spec["managedBy"] = "example.com/x"
        elif field == "completionMode":
            spec["completionMode"] = "Indexed"
        elif field == "selector":
            spec["selector"] = {"matchLabels": {"app": "other"}}
        elif field == "podFailurePolicy":
            spec["podFailurePolicy"] = {"rules": [{"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget", "status": "True"}]}]}
        elif field == "successPolicy":
            spec["successPolicy"] = {"rules": [{"succeededCount": 1}]}
        elif field == "backoffLimitPerIndex":
            spec["backoffLimitPerIndex"] = draw(st.integers(0, 2))
        elif field == "labels":
            new["metadata"]["labels"] = {"changed": "yes"}
        elif field == "name":
            new["metadata"]["name"] = "renamed"
        elif field == "meta":
            # ValidateObjectMetaUpdate: resourceVersion, generation, uid, deletion and finalizers.
            change = draw(st.sampled_from(["noResourceVersion", "generation", "uid", "deleting", "finalizer"]))
            if change == "noResourceVersion":
                new["metadata"].pop("resourceVersion", None)
            elif change == "generation":
                old["metadata"]["generation"] = 2
                new["metadata"]["generation"] = draw(st.sampled_from([1, -1]))  # -1: its sign, from 1.37
            elif change == "uid":
                new["metadata"]["uid"] = "uid-2"
            elif change == "deleting":
                old["metadata"]["deletionTimestamp"] = "2024-01-01T00:00:00Z"
                new["metadata"]["deletionTimestamp"] = "2024-01-01T00:00:00Z"
                new["metadata"]["finalizers"] = ["example.com/late"]
            else:
                new["metadata"]["finalizers"] = ["example.com/f"]
        elif field == "maxFailedIndexes":
            spec["maxFailedIndexes"] = draw(st.integers(0, 2))
        elif field == "podReplacementPolicy":
            spec["podReplacementPolicy"] = draw(st.sampled_from(["Failed", "TerminatingOrFailed"]))
        elif field == "ttlSecondsAfterFinished":
            spec["ttlSecondsAfterFinished"] = draw(st.integers(-1, 5))
        elif field == "jobScheduling":
            # Set, changed or cleared (1.37's declarative NoSet / NoUnset, the frozen variant).
            if draw(st.booleans()):
                old["spec"]["scheduling"] = draw(job_scheduling())
            if draw(st.integers(0, 2)) == 0:
                spec.pop("scheduling", None)
            else:
                spec["scheduling"] = draw(job_scheduling())
        else:
            spec[field] = draw(st.integers(0, 5))
    return old, new


CONDITION_TYPES = st.sampled_from(["Complete", "Failed", "SuccessCriteriaMet", "FailureTarget", "Suspended"])
# The same instant written otherwise, and 1 ns later: metav1.Time compares instants, to the nanosecond.
TIMES = st.sampled_from(["2024-01-01T00:00:00Z", "2024-01-01T00:01:00Z", "2023-12-31T23:59:00Z", "2024-01-01T01:00:00.000+01:00", "2024-01-01T00:00:00.000000001Z"])


@st.composite
def job_status(draw: st.DrawFn, completions: Any) -> dict[str, Any]:
    status: dict[str, Any] = {}
    for key in ("active", "succeeded", "failed"):
        if draw(st.booleans()):
            status[key] = draw(st.integers(-1, 3))
    for key in ("ready", "terminating"):
        if draw(st.integers(0, 2)) == 0:
            status[key] = draw(st.integers(-1, 3))
    for key in ("startTime", "completionTime"):
        if draw(st.booleans()):
            status[key] = draw(TIMES)
    conditions = []
    for ctype in draw(st.lists(CONDITION_TYPES, max_size=3, unique=True)):
        conditions.append({"type": ctype, "status": draw(st.sampled_from(["True", "True", "False"])), "lastTransitionTime": "2024-01-01T00:00:00Z"})
    if conditions:
        status["conditions"] = conditions
    if draw(st.integers(0, 3)) == 0:
        status["uncountedTerminatedPods"] = {
            "succeeded": draw(st.lists(st.sampled_from(["a", "b", ""]), max_size=2)),
            "failed": draw(st.lists(st.sampled_from(["a", "c"]), max_size=2)),
        }
    if draw(st.integers(0, 3)) == 0:
        status["completedIndexes"] = draw(INDEX_STRINGS)
    if draw(st.integers(0, 3)) == 0:
        status["failedIndexes"] = draw(st.sampled_from(["", "1", "0,2", "x"]))
    del completions
    return status


def _condition(ctype: str, status: str = "True", when: str = "2024-01-01T00:00:00Z") -> dict[str, Any]:
    return {"type": ctype, "status": status, "lastTransitionTime": when}


# A Job's end as the controller (or another one, managedBy) writes it, and half-written ends.
FINISHES: list[list[str]] = [
    ["SuccessCriteriaMet", "Complete"], ["FailureTarget", "Failed"], ["Complete"], ["Failed"], ["SuccessCriteriaMet"], ["FailureTarget"],
    ["SuccessCriteriaMet", "Complete", "FailureTarget"], ["FailureTarget", "Failed", "SuccessCriteriaMet"], ["Complete", "Failed"],
]  # fmt: skip


@st.composite
def status_edit(draw: st.DrawFn, status: dict[str, Any]) -> dict[str, Any]:
    """A few edits of a status (a copy): conditions added, removed, flipped; counters up and
    down; times set, moved, cleared; index strings; uncounted pods; a finish."""
    status = copy.deepcopy(status)
    for _ in range(draw(st.integers(1, 3))):
        edit = draw(st.sampled_from(["addCondition", "dropCondition", "flipCondition", "counter", "time", "indexes", "uncounted", "finish", "readiness"]))
        conditions = status.setdefault("conditions", [])
        if edit == "addCondition":
            ctype = draw(st.sampled_from(["Complete", "Failed", "SuccessCriteriaMet", "FailureTarget", "Suspended", "Custom"]))
            conditions.append(_condition(ctype, draw(st.sampled_from(["True", "False", "Unknown"])), draw(TIMES)))
        elif edit == "dropCondition" and conditions:
            conditions.pop(draw(st.integers(0, len(conditions) - 1)))
        elif edit == "flipCondition" and conditions:
            cond = conditions[draw(st.integers(0, len(conditions) - 1))]
            cond["status"] = {"True": "False"}.get(cond["status"], "True")
        elif edit == "counter":
            key = draw(st.sampled_from(["active", "succeeded", "failed"]))
            status[key] = max(-1, status.get(key, 0) + draw(st.sampled_from([-1, 1, 2])))
        elif edit == "time":
            key = draw(st.sampled_from(["startTime", "completionTime"]))
            _set_or_drop(status, key, draw(st.one_of(st.none(), TIMES)))
        elif edit == "indexes":
            for key in draw(st.sampled_from([["completedIndexes"], ["failedIndexes"], ["completedIndexes", "failedIndexes"]])):
                # Overlapping or not, the intervals walked in step (validateFailedIndexesNotOverlapCompleted).
                _set_or_drop(status, key, draw(st.one_of(st.none(), INDEX_STRINGS, st.sampled_from(["", "0-2", "2", "0,2", "1", "1-2", "0,x,2"]))))
        elif edit == "uncounted":
            _set_or_drop(status, "uncountedTerminatedPods", draw(st.sampled_from([None, {}, {"succeeded": ["a"]}, {"failed": ["b"], "succeeded": []}])))
        elif edit == "finish":
            when = draw(TIMES)
            conditions.extend(_condition(t, when=when) for t in draw(st.sampled_from(FINISHES)))
            status.setdefault("startTime", draw(TIMES))
            if draw(st.booleans()):
                status["completionTime"] = when
            if draw(st.booleans()):
                status["active"] = 0
        else:
            key = draw(st.sampled_from(["ready", "terminating"]))
            _set_or_drop(status, key, draw(st.one_of(st.none(), st.integers(0, 3))))
        if not conditions:
            del status["conditions"]
    return status


@st.composite
def status_spec(draw: st.DrawFn, spec: dict[str, Any]) -> None:
    """The spec fields the status rules read (in place): Indexed, completions and parallelism
    equal or not (a scale-down may lower succeeded), backoffLimitPerIndex, a successPolicy, suspend."""
    if draw(st.booleans()):
        spec["completionMode"] = "Indexed"
        spec["completions"] = draw(st.sampled_from([3, 3, 1, 0]))
        spec["parallelism"] = draw(st.sampled_from([spec["completions"], 2]))
    if draw(st.integers(0, 2)) == 0:
        _set_or_drop(spec, "backoffLimitPerIndex", draw(st.sampled_from([None, 1])))
    if draw(st.integers(0, 3)) == 0:
        _set_or_drop(spec, "successPolicy", draw(st.sampled_from([None, {"rules": [{"succeededCount": 1}]}])))
    if draw(st.integers(0, 3)) == 0:
        spec["suspend"] = draw(st.booleans())


@st.composite
def job_status_updates(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """(old, new) for the status subresource: a stored Job with a status, and a new status
    (drawn afresh, or an edit of the old one)."""
    old = _stored(draw(job_manifests()))
    if draw(st.booleans()):
        draw(status_spec(old["spec"]))
    if draw(st.booleans()):
        old["status"] = draw(job_status(old["spec"].get("completions")))
    if draw(st.integers(0, 3)) == 0:
        old["status"] = draw(status_edit(old.get("status") or {}))
    new = copy.deepcopy(old)
    if draw(st.booleans()):
        new["status"] = draw(status_edit(old.get("status") or {}))
    else:
        new["status"] = draw(job_status(old["spec"].get("completions")))
    if draw(st.integers(0, 4)) == 0:
        new["status"] = copy.deepcopy(old.get("status") or {})
        new["status"]["succeeded"] = new["status"].get("succeeded", 0) + 1
    if draw(st.integers(0, 6)) == 0:
        new["metadata"]["labels"] = {"changed": "yes"}
    return old, new


@st.composite
def cron_job_updates(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """(old, new): a stored-looking CronJob and an edit of it."""
    old = draw(cron_job_manifests())
    old["metadata"]["uid"] = "uid-1"
    old["metadata"]["resourceVersion"] = "1"
    new = copy.deepcopy(old)
    for _ in range(draw(st.integers(1, 2))):
        field = draw(
            st.sampled_from(
                ["schedule", "timeZone", "jobTemplate", "suspend", "concurrencyPolicy", "name", "tzSchedule", "limits", "templateSpec", "templateMeta"]
            )
        )
        template_spec = new["spec"].setdefault("jobTemplate", {}).setdefault("spec", {})
        if field == "schedule":
            new["spec"]["schedule"] = draw(SCHEDULES)
        elif field == "tzSchedule":
            # A stored TZ=/CRON_TZ= schedule allows one in the update, unless timeZone is set too.
            old["spec"]["schedule"] = draw(st.sampled_from(["TZ=UTC 0 * * * *", "CRON_TZ=Europe/Berlin 0 * * * *", "TZ=Mars/Olympus 0 * * * *", "TZ"]))
            new["spec"]["schedule"] = draw(st.sampled_from([old["spec"]["schedule"], "CRON_TZ=UTC */5 * * * *", "TZ=UTC 61 * * * *", "0 * * * *"]))
        elif field == "limits":
            key = draw(st.sampled_from(["startingDeadlineSeconds", "successfulJobsHistoryLimit", "failedJobsHistoryLimit"]))
            value = draw(st.one_of(st.none(), st.integers(-1, 3)))
            if value is None:
                new["spec"].pop(key, None)
            else:
                new["spec"][key] = value
        elif field == "templateSpec":
            # The job template's own rules against the old one (1.37's scheduling, ratcheting).
            change = draw(st.sampled_from(["completionMode", "podFailurePolicy", "image", "scheduling", "nodeAffinity", "selector"]))
            if change == "completionMode":
                template_spec["completionMode"] = "Indexed"
                template_spec["completions"] = draw(st.sampled_from([None, 3]))
            elif change == "podFailurePolicy":
                template_spec["podFailurePolicy"] = draw(pod_failure_policy())
            elif change == "image":
                for ctr in template_spec.setdefault("template", {}).setdefault("spec", {}).setdefault("containers", [{"name": "main"}])[:1]:
                    _set_or_drop(ctr, "image", draw(st.sampled_from(["other", None])))  # none: Go writes no empty string (omitempty)
            elif change == "scheduling":
                if draw(st.booleans()):
                    old["spec"].setdefault("jobTemplate", {}).setdefault("spec", {})["scheduling"] = draw(job_scheduling())
                template_spec["scheduling"] = draw(job_scheduling())
            elif change == "nodeAffinity":
                # No label values: refused from 1.33 unless the old template had one.
                term = {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["bad value!"]}]}
                affinity = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [term]}}}
                if draw(st.booleans()):
                    old["spec"].setdefault("jobTemplate", {}).setdefault("spec", {}).setdefault("template", {}).setdefault("spec", {})["affinity"] = copy.deepcopy(affinity)
                template_spec.setdefault("template", {}).setdefault("spec", {})["affinity"] = affinity
            else:
                template_spec["selector"] = {"matchLabels": {"app": "a"}}
        elif field == "templateMeta":
            new["spec"]["jobTemplate"]["metadata"] = copy.deepcopy(draw(JOB_TEMPLATE_METADATA))
        elif field == "timeZone":
            zone = draw(st.one_of(st.none(), TIME_ZONES))
            if zone is None:
                new["spec"].pop("timeZone", None)
            else:
                new["spec"]["timeZone"] = zone
        elif field == "jobTemplate":
            template_spec["parallelism"] = draw(st.integers(-1, 3))
        elif field == "suspend":
            new["spec"]["suspend"] = draw(st.booleans())
        elif field == "concurrencyPolicy":
            new["spec"]["concurrencyPolicy"] = draw(st.sampled_from(["Forbid", "Bogus"]))
        else:
            new["metadata"]["name"] = "c" * 60
    return old, new


# The gates the API server's Job code reads (strategy.go, defaults.go); off selects the older behaviour.
API_GATES = ("JobManagedBy", "JobSuccessPolicy", "JobBackoffLimitPerIndex", "JobPodReplacementPolicy")


@st.composite
def features(draw: st.DrawFn) -> dict[str, bool]:
    """Mostly every gate on (the model's default); sometimes a few turned off."""
    if draw(st.integers(0, 2)):
        return {}
    return {gate: False for gate in draw(st.lists(st.sampled_from(API_GATES), min_size=1, max_size=2, unique=True))}


def _case(**fields: Any) -> dict[str, Any]:
    return {"name": "generated", **{k: v for k, v in fields.items() if v is not None}, "expect": {}}


@st.composite
def validation_cases(draw: st.DrawFn) -> dict[str, Any]:
    """`validation` cases: Job and CronJob creates, updates and Job status updates."""
    kind = draw(st.sampled_from(["job-create", "job-create", "job-update", "job-status", "cron-create", "cron-update"]))
    if kind == "job-create":
        return _case(kind="Job", operation="create", object=draw(job_manifests()))
    if kind == "cron-create":
        return _case(kind="CronJob", operation="create", object=draw(cron_job_manifests()))
    if kind == "job-status":
        old, new = draw(job_status_updates())
        return _case(kind="Job", operation="update", subresource="status", object=new, oldObject=old, features=draw(features()))
    old, new = draw(job_updates() if kind == "job-update" else cron_job_updates())
    return _case(kind="Job" if kind == "job-update" else "CronJob", operation="update", object=new, oldObject=old)


@st.composite
def defaulting_cases(draw: st.DrawFn) -> dict[str, Any]:
    """`defaulting` cases: Job and CronJob creates under generated gate values."""
    if draw(st.integers(0, 3)) == 0:
        return _case(kind="CronJob", object=draw(cron_job_manifests()))
    return _case(kind="Job", object=draw(job_manifests()), features=draw(features()))


# ------------------------------------------------------------ what the API server warns of

# Values valid at some release that the API server warns of (jobmodel.api.warnings), each a
# change to a pod template {"metadata", "spec"}; drawn on an otherwise valid Job, so that the
# warnings are sent.
_DEPRECATED_LABEL_KEYS = ["beta.kubernetes.io/os", "failure-domain.beta.kubernetes.io/zone", "node-role.kubernetes.io/master", "disk"]
_WARNED_ANNOTATIONS = st.sampled_from(
    [{"scheduler.alpha.kubernetes.io/critical-pod": ""}, {"security.alpha.kubernetes.io/sysctls": "a=b"}, {"security.alpha.kubernetes.io/unsafe-sysctls": "x"},
     {"seccomp.security.alpha.kubernetes.io/pod": "runtime/default"}, {"container.seccomp.security.alpha.kubernetes.io/main": "runtime/default"},
     {"container.apparmor.security.beta.kubernetes.io/main": "runtime/default"}, {"container.apparmor.security.beta.kubernetes.io/side": "localhost/p"},
     {"container.apparmor.security.beta.kubernetes.io/main": "unconfined"}]
)  # fmt: skip
_WARNED_POD_PROFILES: st.SearchStrategy[dict[str, Any]] = st.sampled_from(
    [{}, {"appArmorProfile": {"type": "RuntimeDefault"}}, {"appArmorProfile": {"type": "Localhost", "localhostProfile": "p"}}, {"seccompProfile": {"type": "RuntimeDefault"}}]
)  # fmt: skip
_WARNED_VOLUMES: st.SearchStrategy[dict[str, Any]] = st.sampled_from(
    [{"gitRepo": {"repository": "https://example.com/r"}}, {"photonPersistentDisk": {"pdID": "p"}}, {"flocker": {"datasetName": "d"}},
     {"quobyte": {"registry": "r:1", "volume": "v"}}, {"glusterfs": {"endpoints": "e", "path": "p"}}, {"cephfs": {"monitors": ["m"]}},
     {"rbd": {"monitors": ["m"], "image": "i"}}, {"storageos": {"volumeName": "v"}},
     {"scaleIO": {"gateway": "g", "system": "s", "secretRef": {"name": "n"}}},
     {"configMap": {"name": "c", "items": [{"key": "a", "path": "x"}, {"key": "b", "path": "x/y"}]}},
     {"configMap": {"name": "c", "items": [{"key": "a", "path": "x/"}, {"key": "b", "path": "x"}]}},
     {"secret": {"secretName": "s", "items": [{"key": "a", "path": "p"}, {"key": "b", "path": "p"}]}},
     {"downwardAPI": {"items": [{"path": "d", "fieldRef": {"fieldPath": "metadata.name"}}, {"path": "d/e", "fieldRef": {"fieldPath": "metadata.uid"}}]}},
     {"projected": {"sources": [{"configMap": {"name": "m", "items": [{"key": "a", "path": "x"}]}}, {"configMap": {"name": "n"}},
                                {"serviceAccountToken": {"path": "x/t", "expirationSeconds": 3600}}]}},
     {"projected": {"sources": [{"secret": {"name": "s", "items": [{"key": "a", "path": "k"}]}}, {"downwardAPI": {"items": [{"path": "k/d", "fieldRef": {"fieldPath": "metadata.name"}}]}},
                                {"clusterTrustBundle": {"signerName": "example.com/s", "path": "k"}}]}},
     {"ephemeral": {"volumeClaimTemplate": {"spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1500m"}, "limits": {"storage": "1.5"}}}}}}]
)  # fmt: skip
_WARNED_PORTS = st.sampled_from(
    [[{"containerPort": 80, "hostIP": "10.0.0.1"}], [{"containerPort": 80, "name": "http"}], [{"containerPort": 80, "hostPort": 80}],
     [{"containerPort": 80, "hostPort": 80, "hostIP": "10.0.0.1"}], [{"containerPort": 80, "protocol": "UDP"}], [{"containerPort": 81, "name": "http"}]]
)  # fmt: skip
_WARNED_ENV = st.sampled_from(
    [[{"name": "X", "value": "1"}, {"name": "X", "value": "2"}], [{"name": "X", "value": "1"}, {"name": "X", "value": "$(X)2"}],
     [{"name": "X", "value": "1"}, {"name": "X", "value": "$(X)"}], [{"name": "X"}, {"name": "X", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}]]
)  # fmt: skip
_WARNED_IPS = st.sampled_from(["10.0.0.1", "2001:DB8::1", "2001:db8:0:0:0:0:0:1", "010.0.0.1", "::ffff:10.0.0.1", "::1.2.3.4", "2001:db8::1"])
_OWNER = {"apiVersion": "v1", "kind": "ConfigMap", "name": "owner", "uid": "u-1"}
# Owner references the create handler dedups (equal, with the same uid) or keeps (a nil pointer
# differs from false; another name).
_WARNED_OWNER_REFERENCES = st.sampled_from(
    [[_OWNER, _OWNER], [_OWNER, {**_OWNER, "controller": False}], [_OWNER, {**_OWNER, "name": "other"}],
     [{**_OWNER, "controller": True}, {**_OWNER, "controller": True}], [_OWNER, {**_OWNER, "uid": "u-2"}, _OWNER, {**_OWNER, "uid": "u-2"}]]
)  # fmt: skip
_BYTES = st.sampled_from(["4m", "1500m", "1.5", "1Mi", "100", "0.5Ki", "1e-3"])


@st.composite
def warned_of(draw: st.DrawFn, template: dict[str, Any]) -> None:
    """Pod-template values the API server warns of (in place; each drawn now and then)."""
    spec, meta = template.setdefault("spec", {}), template.setdefault("metadata", {})

    def now_and_then() -> bool:
        return draw(st.integers(0, 3)) == 0

    if now_and_then():
        spec["nodeSelector"] = {k: "v" for k in draw(st.lists(st.sampled_from(_DEPRECATED_LABEL_KEYS), min_size=1, max_size=3, unique=True))}
    if now_and_then():
        expression = {"key": draw(st.sampled_from(_DEPRECATED_LABEL_KEYS)), "operator": "In", "values": draw(st.sampled_from([["a"], ["a b", "ok"], ["x" * 64]]))}
        node: dict[str, Any] = {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [expression]}]}}
        if draw(st.booleans()):
            node = {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "preference": {"matchExpressions": [expression]}}]}
        spec.setdefault("affinity", {})["nodeAffinity"] = node
    if now_and_then():
        term: dict[str, Any] = {"topologyKey": "kubernetes.io/hostname"}
        if draw(st.booleans()):
            term["labelSelector"] = {"matchLabels": {"a": "b"}}
        kind = draw(st.sampled_from(["podAffinity", "podAntiAffinity"]))
        terms = {"requiredDuringSchedulingIgnoredDuringExecution": [term]}
        if draw(st.booleans()):
            terms = {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "podAffinityTerm": term}]}
        spec.setdefault("affinity", {})[kind] = terms
    if now_and_then():
        constraint: dict[str, Any] = {"maxSkew": 1, "topologyKey": draw(st.sampled_from(_DEPRECATED_LABEL_KEYS)), "whenUnsatisfiable": "DoNotSchedule"}
        if draw(st.booleans()):
            constraint["labelSelector"] = {"matchLabels": {"a": "b"}}
        spec["topologySpreadConstraints"] = [constraint]
    if now_and_then():
        meta["annotations"] = {k: v for a in draw(st.lists(_WARNED_ANNOTATIONS, min_size=1, max_size=3)) for k, v in a.items()}
        spec["securityContext"] = dict(draw(_WARNED_POD_PROFILES))
    if now_and_then():
        spec["volumes"] = [{"name": f"v{i}", **copy.deepcopy(v)} for i, v in enumerate(draw(st.lists(_WARNED_VOLUMES, min_size=1, max_size=3)))]
    if now_and_then():
        spec["hostAliases"] = [{"ip": draw(_WARNED_IPS), "hostnames": ["h"]} for _ in range(draw(st.integers(1, 3)))]
    if now_and_then():
        spec["dnsPolicy"] = "None"
        spec["dnsConfig"] = {"nameservers": draw(st.lists(_WARNED_IPS, min_size=1, max_size=3))}
    if now_and_then():
        spec["imagePullSecrets"] = [{"name": n} for n in draw(st.lists(st.sampled_from(["a", "a", "b", ""]), min_size=1, max_size=3))]
    if now_and_then():
        spec["overhead"] = {draw(st.sampled_from(["memory", "ephemeral-storage"])): draw(_BYTES)}
    if now_and_then():
        spec["terminationGracePeriodSeconds"] = draw(st.sampled_from([-1, 0, 30]))
    containers = spec.setdefault("containers", [{"name": "main", "image": "busybox"}])
    if now_and_then():
        containers.append({"name": "side", "image": "busybox"})
    for ctr in containers:
        if now_and_then():
            ctr["resources"] = {kind: {draw(st.sampled_from(["memory", "ephemeral-storage"])): draw(_BYTES)} for kind in ("limits", "requests") if draw(st.booleans())}
        if now_and_then():
            ctr["env"] = copy.deepcopy(draw(_WARNED_ENV))
        if now_and_then():
            ctr["ports"] = copy.deepcopy(draw(_WARNED_PORTS))


@st.composite
def warned_jobs(draw: st.DrawFn) -> dict[str, Any]:
    """A Job manifest valid but for what it may be warned of: its name, an Indexed Job beyond
    both soft limits, and its pod template's values (warned_of)."""
    job = base_job()
    if draw(st.booleans()):
        job["metadata"]["name"] = draw(st.sampled_from(["job", "job.example", "a.b.c"]))
    spec = job["spec"]
    if draw(st.integers(0, 4)) == 0:
        spec.update({"completionMode": "Indexed", "completions": draw(st.sampled_from([100_000, 100_001])), "parallelism": draw(st.sampled_from([10_000, 10_001]))})
        if "." in job["metadata"]["name"]:
            job["metadata"]["name"] = "job"  # an Indexed Job's pods' hostnames are its name's
    draw(warned_of(spec["template"]))
    if draw(st.integers(0, 4)) == 0:
        job["metadata"]["ownerReferences"] = copy.deepcopy(draw(_WARNED_OWNER_REFERENCES))
    return job


@st.composite
def warned_cron_jobs(draw: st.DrawFn) -> dict[str, Any]:
    """A CronJob manifest whose job template is a warned_jobs one."""
    job = draw(warned_jobs())
    return {
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "metadata": job["metadata"],
        "spec": {"schedule": draw(st.sampled_from(["*/5 * * * *", "@hourly"])), "jobTemplate": {"spec": job["spec"]}},
    }


# Field names no release's types have; `Name` too: the strict decoder matches names exactly.
UNKNOWN_FIELD_NAMES = ("bogus", "Name", "extra")
_UNKNOWN_FIELD_VALUES = st.sampled_from([1, "x", {"a": 1}, [1], None, True])


@st.composite
def with_unknown_fields(draw: st.DrawFn, manifest: dict[str, Any]) -> dict[str, Any]:
    """The manifest with one to three unknown fields, each in an object of a closed struct type
    (the object, its metadata and spec, the pod template and its spec, a container, ...); a null
    value too: the strict decoder names a field by its key, whatever its value."""
    out = copy.deepcopy(manifest)
    places = _struct_objects(out, schema.KINDS[out["kind"]])
    for _ in range(draw(st.integers(1, 3))):
        place, name = draw(st.sampled_from(places)), draw(st.sampled_from(UNKNOWN_FIELD_NAMES))
        place.setdefault(name, draw(_UNKNOWN_FIELD_VALUES))
    return out


def _struct_objects(value: Any, typ: Any) -> list[dict[str, Any]]:
    """The objects within `value` whose schema type is a closed struct (every field named)."""
    if isinstance(typ, dict) and isinstance(value, dict):
        found = [] if schema.OTHER in typ else [value]
        for key, item in value.items():
            field = schema.field_type(typ.get(key), None)
            if field is not None:
                found += _struct_objects(item, field)
        return found
    if isinstance(typ, tuple) and typ[0] in ("list", "map") and isinstance(value, list | dict):
        items = value.values() if isinstance(value, dict) else value
        return [obj for item in items for obj in _struct_objects(item, typ[1])]
    return []
