"""The wire format's types, and the one strict decoder of JSON the model reads.

Unknown fields and wrong types are refused with an `InputError` naming the field, as the API
server's strict decoder does (`strict decoding error: unknown field "spec.foo"`); each kind of
mistake has one message. Every reader goes through here: the API server's entry points
(`jobmodel.api.strategy`), the snapshots of `jobmodel.api.wire`, and the vector and script
formats around them (`obj`, `check_known`, `member`).

The schema covers every field of Job, CronJob, ObjectMeta and the pod template's PodSpec and
Container and the volumes; the inside of fields the model does not interpret is only
checked to be of the right JSON kind. Resource quantities are parsed (a bad one is refused as
Quantity.UnmarshalJSON refuses it) and kept in their canonical form, as the API server writes
them back. A Pod's status
is an open struct: the fields the controller reads are typed, the others kept as they are.

A field that only some releases' types have (`k8s.io/api` core/v1 and batch/v1, release by
release) is written `since(first, type)` (or `since(first, type, last)`): decoded for a release
(`release=`, a minor version) whose types lack it, it is an unknown field, as the strict decoder of
that release's API server says; without a release every field is known.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, Final

from jobmodel.api import field as fe
from jobmodel.api.quantity import decode_quantity
from jobmodel.errors import InputError, describe, quote
from jobmodel.timeutil import parse_time

# A type is: "str", "int32", "int64", "bool", "object" (any JSON object), "list" (any JSON list),
# "any"; ("map", T): an object whose values are T; ("list", T): a list of T; or a dict: a struct,
# whose OTHER key, when present, types the fields it does not name (an open struct keeps them).
Type = Any

STR: Final = "str"
I32: Final = "int32"
I64: Final = "int64"
BOOL: Final = "bool"
OBJ: Final = "object"
LIST: Final = "list"
ANY: Final = "any"
TIME: Final = "time"  # metav1.Time: an RFC 3339 string
QUANTITY: Final = "quantity"  # resource.Quantity: decoded into its canonical string (jobmodel.api.quantity)
OTHER: Final = "*"
INT_OR_STRING: Final = "intOrString"  # intstr.IntOrString: an int32 or a string
_SINCE: Final = "since"


def since(first: int, typ: Type, last: int | None = None) -> Type:
    """A struct field the types of releases 1.<first> ... 1.<last> (to the newest when None) have."""
    return (_SINCE, first, last, typ)


def field_type(item: Type, release: int | None) -> Type:
    """The type of a struct field in a release: None when the release's types lack it."""
    if type(item) is tuple and item[0] == _SINCE:
        _, first, last, inner = item
        if release is not None and (release < first or (last is not None and release > last)):
            return None
        return inner
    return item


def _object(spec: Type, status: Type) -> dict[str, Type]:
    """A Kubernetes object's top level."""
    return {"apiVersion": STR, "kind": STR, "metadata": OBJECT_META, "spec": spec, "status": status}


OWNER_REFERENCE: Final = {
    "apiVersion": STR,
    "kind": STR,
    "name": STR,
    "uid": STR,
    "controller": BOOL,
    "blockOwnerDeletion": BOOL,
}
# metav1.ManagedFieldsEntry; fieldsV1 (FieldsV1.UnmarshalJSON) keeps any JSON value as given.
MANAGED_FIELDS_ENTRY: Final = {
    "manager": STR, "operation": STR, "apiVersion": STR, "time": TIME, "fieldsType": STR, "fieldsV1": ANY, "subresource": STR,
}  # fmt: skip
OBJECT_META: Final = {
    "name": STR, "generateName": STR, "namespace": STR, "selfLink": STR, "uid": STR, "resourceVersion": STR,
    "generation": I64, "creationTimestamp": TIME, "deletionTimestamp": TIME, "deletionGracePeriodSeconds": I64,
    "labels": ("map", STR), "annotations": ("map", STR), "ownerReferences": ("list", OWNER_REFERENCE),
    "finalizers": ("list", STR), "managedFields": ("list", MANAGED_FIELDS_ENTRY),
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
PROFILE: Final = {"type": STR, "localhostProfile": STR}  # seccomp and AppArmor
WINDOWS_OPTIONS: Final = {"gmsaCredentialSpecName": STR, "gmsaCredentialSpec": STR, "runAsUserName": STR, "hostProcess": BOOL}
SE_LINUX_OPTIONS: Final = {"user": STR, "role": STR, "type": STR, "level": STR}
SECURITY_CONTEXT: Final = {
    "capabilities": {"add": ("list", STR), "drop": ("list", STR)}, "privileged": BOOL, "seLinuxOptions": SE_LINUX_OPTIONS,
    "windowsOptions": WINDOWS_OPTIONS, "runAsUser": I64, "runAsGroup": I64, "runAsNonRoot": BOOL,
    "readOnlyRootFilesystem": BOOL, "allowPrivilegeEscalation": BOOL, "procMount": STR, "seccompProfile": PROFILE,
    "appArmorProfile": PROFILE,
}  # fmt: skip
POD_SECURITY_CONTEXT: Final = {
    "seLinuxOptions": SE_LINUX_OPTIONS, "windowsOptions": WINDOWS_OPTIONS, "runAsUser": I64, "runAsGroup": I64,
    "runAsNonRoot": BOOL, "supplementalGroups": ("list", I64), "supplementalGroupsPolicy": STR, "fsGroup": I64,
    "sysctls": ("list", {"name": STR, "value": STR}), "fsGroupChangePolicy": STR, "seccompProfile": PROFILE,
    "appArmorProfile": PROFILE, "seLinuxChangePolicy": STR,
}  # fmt: skip
HTTP_GET: Final = {
    "path": STR, "port": INT_OR_STRING, "host": STR, "scheme": STR, "httpHeaders": ("list", {"name": STR, "value": STR}),
    "protocol": since(37, STR),
}  # fmt: skip
TCP_SOCKET: Final = {"port": INT_OR_STRING, "host": STR}
EXEC: Final = {"command": ("list", STR)}
PROBE: Final = {
    "exec": EXEC, "httpGet": HTTP_GET, "tcpSocket": TCP_SOCKET, "grpc": {"port": I32, "service": STR, "mode": since(37, STR)},
    "initialDelaySeconds": I32, "timeoutSeconds": I32, "periodSeconds": I32, "successThreshold": I32, "failureThreshold": I32,
    "terminationGracePeriodSeconds": I64,
}  # fmt: skip
LIFECYCLE_HANDLER: Final = {"exec": EXEC, "httpGet": HTTP_GET, "tcpSocket": TCP_SOCKET, "sleep": {"seconds": I64}}
LIFECYCLE: Final = {"postStart": LIFECYCLE_HANDLER, "preStop": LIFECYCLE_HANDLER, "stopSignal": since(33, STR)}
_KEY_SELECTOR: Final = {"name": STR, "key": STR, "optional": BOOL}
ENV_VAR_SOURCE: Final = {
    "fieldRef": {"apiVersion": STR, "fieldPath": STR},
    "resourceFieldRef": {"containerName": STR, "resource": STR, "divisor": QUANTITY},
    "configMapKeyRef": _KEY_SELECTOR, "secretKeyRef": _KEY_SELECTOR,
    "fileKeyRef": since(34, {"volumeName": STR, "path": STR, "key": STR, "optional": BOOL}),
}  # fmt: skip
ENV_VAR: Final = {"name": STR, "value": STR, "valueFrom": ENV_VAR_SOURCE}
_ENV_FROM_REF: Final = {"name": STR, "optional": BOOL}
ENV_FROM_SOURCE: Final = {"prefix": STR, "configMapRef": _ENV_FROM_REF, "secretRef": _ENV_FROM_REF}
HOST_ALIAS: Final = {"ip": STR, "hostnames": ("list", STR)}
RESOURCE_LIST: Final = ("map", QUANTITY)
RESOURCE_REQUIREMENTS: Final = {"limits": RESOURCE_LIST, "requests": RESOURCE_LIST, "claims": ("list", {"name": STR, "request": STR})}
VOLUME_MOUNT: Final = {
    "name": STR, "readOnly": BOOL, "recursiveReadOnly": STR, "mountPath": STR, "subPath": STR,
    "mountPropagation": STR, "subPathExpr": STR, "bindMountOptions": since(37, ("list", STR)),
}  # fmt: skip
VOLUME_DEVICE: Final = {"name": STR, "devicePath": STR}
CONTAINER: Final = {
    "name": STR, "image": STR, "command": ("list", STR), "args": ("list", STR), "workingDir": STR,
    "ports": ("list", CONTAINER_PORT), "envFrom": ("list", ENV_FROM_SOURCE), "env": ("list", ENV_VAR), "resources": RESOURCE_REQUIREMENTS,
    "resizePolicy": ("list", {"resourceName": STR, "restartPolicy": STR}), "restartPolicy": STR,
    "restartPolicyRules": since(34, ("list", {"action": STR, "exitCodes": {"operator": STR, "values": ("list", I32)}})),
    "volumeMounts": ("list", VOLUME_MOUNT), "volumeDevices": ("list", VOLUME_DEVICE), "livenessProbe": PROBE, "readinessProbe": PROBE,
    "startupProbe": PROBE, "lifecycle": LIFECYCLE, "terminationMessagePath": STR, "terminationMessagePolicy": STR,
    "imagePullPolicy": STR, "securityContext": SECURITY_CONTEXT, "stdin": BOOL, "stdinOnce": BOOL, "tty": BOOL,
}  # fmt: skip
# EphemeralContainer: EphemeralContainerCommon (a Container's fields) and its target.
EPHEMERAL_CONTAINER: Final = {**CONTAINER, "targetContainerName": STR}
TOLERATION: Final = {
    "key": STR,
    "operator": STR,
    "value": STR,
    "effect": STR,
    "tolerationSeconds": I64,
}
NODE_SELECTOR_REQUIREMENT: Final = {"key": STR, "operator": STR, "values": ("list", STR)}
NODE_SELECTOR_TERM: Final = {"matchExpressions": ("list", NODE_SELECTOR_REQUIREMENT), "matchFields": ("list", NODE_SELECTOR_REQUIREMENT)}
NODE_SELECTOR: Final = {"nodeSelectorTerms": ("list", NODE_SELECTOR_TERM)}
POD_AFFINITY_TERM: Final = {
    "labelSelector": LABEL_SELECTOR, "namespaces": ("list", STR), "topologyKey": STR, "namespaceSelector": LABEL_SELECTOR,
    "matchLabelKeys": ("list", STR), "mismatchLabelKeys": ("list", STR),
}  # fmt: skip
POD_AFFINITY: Final = {
    "requiredDuringSchedulingIgnoredDuringExecution": ("list", POD_AFFINITY_TERM),
    "preferredDuringSchedulingIgnoredDuringExecution": ("list", {"weight": I32, "podAffinityTerm": POD_AFFINITY_TERM}),
}
AFFINITY: Final = {
    "nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": NODE_SELECTOR,
        "preferredDuringSchedulingIgnoredDuringExecution": ("list", {"weight": I32, "preference": NODE_SELECTOR_TERM}),
    },
    "podAffinity": POD_AFFINITY,
    "podAntiAffinity": POD_AFFINITY,
}
# core/v1 volume sources (k8s.io/api's fields, release by release: since()).
_HOST_PATH_VOLUME_SOURCE: Final = {"path": STR, "type": STR}
_EMPTY_DIR_VOLUME_SOURCE: Final = {"medium": STR, "sizeLimit": QUANTITY, "mode": since(37, I32)}
_GCE_PERSISTENT_DISK_VOLUME_SOURCE: Final = {"pdName": STR, "fsType": STR, "partition": I32, "readOnly": BOOL}
_AWS_ELASTIC_BLOCK_STORE_VOLUME_SOURCE: Final = {"volumeID": STR, "fsType": STR, "partition": I32, "readOnly": BOOL}
_GIT_REPO_VOLUME_SOURCE: Final = {"repository": STR, "revision": STR, "directory": STR}
_KEY_TO_PATH: Final = {"key": STR, "path": STR, "mode": I32, "user": since(37, I64)}
_SECRET_VOLUME_SOURCE: Final = {"secretName": STR, "items": ("list", _KEY_TO_PATH), "defaultMode": I32, "optional": BOOL, "defaultUser": since(37, I64)}
_NFS_VOLUME_SOURCE: Final = {"server": STR, "path": STR, "readOnly": BOOL}
_LOCAL_OBJECT_REFERENCE: Final = {"name": STR}
_ISCSI_VOLUME_SOURCE: Final = {"targetPortal": STR, "iqn": STR, "lun": I32, "iscsiInterface": STR, "fsType": STR, "readOnly": BOOL, "portals": ("list", STR), "chapAuthDiscovery": BOOL, "chapAuthSession": BOOL, "secretRef": _LOCAL_OBJECT_REFERENCE, "initiatorName": STR}
_GLUSTERFS_VOLUME_SOURCE: Final = {"endpoints": STR, "path": STR, "readOnly": BOOL}
_PERSISTENT_VOLUME_CLAIM_VOLUME_SOURCE: Final = {"claimName": STR, "readOnly": BOOL}
_RBD_VOLUME_SOURCE: Final = {"monitors": ("list", STR), "image": STR, "fsType": STR, "pool": STR, "user": STR, "keyring": STR, "secretRef": _LOCAL_OBJECT_REFERENCE, "readOnly": BOOL}
_FLEX_VOLUME_SOURCE: Final = {"driver": STR, "fsType": STR, "secretRef": _LOCAL_OBJECT_REFERENCE, "readOnly": BOOL, "options": ("map", STR)}
_CINDER_VOLUME_SOURCE: Final = {"volumeID": STR, "fsType": STR, "readOnly": BOOL, "secretRef": _LOCAL_OBJECT_REFERENCE}
_CEPHFS_VOLUME_SOURCE: Final = {"monitors": ("list", STR), "path": STR, "user": STR, "secretFile": STR, "secretRef": _LOCAL_OBJECT_REFERENCE, "readOnly": BOOL}
_FLOCKER_VOLUME_SOURCE: Final = {"datasetName": STR, "datasetUUID": STR}
_OBJECT_FIELD_SELECTOR: Final = {"apiVersion": STR, "fieldPath": STR}
_RESOURCE_FIELD_SELECTOR: Final = {"containerName": STR, "resource": STR, "divisor": QUANTITY}
_DOWNWARD_API_VOLUME_FILE: Final = {"path": STR, "fieldRef": _OBJECT_FIELD_SELECTOR, "resourceFieldRef": _RESOURCE_FIELD_SELECTOR, "mode": I32, "user": since(37, I64)}
_DOWNWARD_API_VOLUME_SOURCE: Final = {"items": ("list", _DOWNWARD_API_VOLUME_FILE), "defaultMode": I32, "defaultUser": since(37, I64)}
_FC_VOLUME_SOURCE: Final = {"targetWWNs": ("list", STR), "lun": I32, "fsType": STR, "readOnly": BOOL, "wwids": ("list", STR)}
_AZURE_FILE_VOLUME_SOURCE: Final = {"secretName": STR, "shareName": STR, "readOnly": BOOL}
_CONFIG_MAP_VOLUME_SOURCE: Final = {"name": STR, "items": ("list", _KEY_TO_PATH), "defaultMode": I32, "optional": BOOL, "defaultUser": since(37, I64)}
_VSPHERE_VIRTUAL_DISK_VOLUME_SOURCE: Final = {"volumePath": STR, "fsType": STR, "storagePolicyName": STR, "storagePolicyID": STR}
_QUOBYTE_VOLUME_SOURCE: Final = {"registry": STR, "volume": STR, "readOnly": BOOL, "user": STR, "group": STR, "tenant": STR}
_AZURE_DISK_VOLUME_SOURCE: Final = {"diskName": STR, "diskURI": STR, "cachingMode": STR, "fsType": STR, "readOnly": BOOL, "kind": STR}
_PHOTON_PERSISTENT_DISK_VOLUME_SOURCE: Final = {"pdID": STR, "fsType": STR}
_SECRET_PROJECTION: Final = {"name": STR, "items": ("list", _KEY_TO_PATH), "optional": BOOL}
_DOWNWARD_API_PROJECTION: Final = {"items": ("list", _DOWNWARD_API_VOLUME_FILE)}
_CONFIG_MAP_PROJECTION: Final = {"name": STR, "items": ("list", _KEY_TO_PATH), "optional": BOOL}
_SERVICE_ACCOUNT_TOKEN_PROJECTION: Final = {"audience": STR, "expirationSeconds": I64, "path": STR, "user": since(37, I64)}
_CLUSTER_TRUST_BUNDLE_PROJECTION: Final = {"name": STR, "signerName": STR, "labelSelector": LABEL_SELECTOR, "optional": BOOL, "path": STR, "user": since(37, I64)}
_POD_CERTIFICATE_PROJECTION: Final = {"signerName": STR, "keyType": STR, "maxExpirationSeconds": I32, "credentialBundlePath": STR, "keyPath": STR, "certificateChainPath": STR, "userAnnotations": since(35, ("map", STR)), "user": since(37, I64)}
_VOLUME_PROJECTION: Final = {"secret": _SECRET_PROJECTION, "downwardAPI": _DOWNWARD_API_PROJECTION, "configMap": _CONFIG_MAP_PROJECTION, "serviceAccountToken": _SERVICE_ACCOUNT_TOKEN_PROJECTION, "clusterTrustBundle": _CLUSTER_TRUST_BUNDLE_PROJECTION, "podCertificate": since(34, _POD_CERTIFICATE_PROJECTION)}
_PROJECTED_VOLUME_SOURCE: Final = {"sources": ("list", _VOLUME_PROJECTION), "defaultMode": I32, "defaultUser": since(37, I64)}
_PORTWORX_VOLUME_SOURCE: Final = {"volumeID": STR, "fsType": STR, "readOnly": BOOL}
_SCALEIO_VOLUME_SOURCE: Final = {"gateway": STR, "system": STR, "secretRef": _LOCAL_OBJECT_REFERENCE, "sslEnabled": BOOL, "protectionDomain": STR, "storagePool": STR, "storageMode": STR, "volumeName": STR, "fsType": STR, "readOnly": BOOL}
_STORAGEOS_VOLUME_SOURCE: Final = {"volumeName": STR, "volumeNamespace": STR, "fsType": STR, "readOnly": BOOL, "secretRef": _LOCAL_OBJECT_REFERENCE}
_CSI_VOLUME_SOURCE: Final = {"driver": STR, "readOnly": BOOL, "fsType": STR, "volumeAttributes": ("map", STR), "nodePublishSecretRef": _LOCAL_OBJECT_REFERENCE}
_VOLUME_RESOURCE_REQUIREMENTS: Final = {"limits": RESOURCE_LIST, "requests": RESOURCE_LIST}
_TYPED_LOCAL_OBJECT_REFERENCE: Final = {"apiGroup": STR, "kind": STR, "name": STR}
_TYPED_OBJECT_REFERENCE: Final = {"apiGroup": STR, "kind": STR, "name": STR, "namespace": STR}
_PERSISTENT_VOLUME_CLAIM_SPEC: Final = {"accessModes": ("list", STR), "selector": LABEL_SELECTOR, "resources": _VOLUME_RESOURCE_REQUIREMENTS, "volumeName": STR, "storageClassName": STR, "volumeMode": STR, "dataSource": _TYPED_LOCAL_OBJECT_REFERENCE, "dataSourceRef": _TYPED_OBJECT_REFERENCE, "volumeAttributesClassName": STR}
_PERSISTENT_VOLUME_CLAIM_TEMPLATE: Final = {"metadata": OBJECT_META, "spec": _PERSISTENT_VOLUME_CLAIM_SPEC}
_EPHEMERAL_VOLUME_SOURCE: Final = {"volumeClaimTemplate": _PERSISTENT_VOLUME_CLAIM_TEMPLATE}
_IMAGE_VOLUME_SOURCE: Final = {"reference": STR, "pullPolicy": STR}
# Keys of core/v1 VolumeSource: a volume names exactly one of them.
VOLUME_SOURCE_TYPES: Final = {
    "hostPath": _HOST_PATH_VOLUME_SOURCE,
    "emptyDir": _EMPTY_DIR_VOLUME_SOURCE,
    "gcePersistentDisk": _GCE_PERSISTENT_DISK_VOLUME_SOURCE,
    "awsElasticBlockStore": _AWS_ELASTIC_BLOCK_STORE_VOLUME_SOURCE,
    "gitRepo": _GIT_REPO_VOLUME_SOURCE,
    "secret": _SECRET_VOLUME_SOURCE,
    "nfs": _NFS_VOLUME_SOURCE,
    "iscsi": _ISCSI_VOLUME_SOURCE,
    "glusterfs": _GLUSTERFS_VOLUME_SOURCE,
    "persistentVolumeClaim": _PERSISTENT_VOLUME_CLAIM_VOLUME_SOURCE,
    "rbd": _RBD_VOLUME_SOURCE,
    "flexVolume": _FLEX_VOLUME_SOURCE,
    "cinder": _CINDER_VOLUME_SOURCE,
    "cephfs": _CEPHFS_VOLUME_SOURCE,
    "flocker": _FLOCKER_VOLUME_SOURCE,
    "downwardAPI": _DOWNWARD_API_VOLUME_SOURCE,
    "fc": _FC_VOLUME_SOURCE,
    "azureFile": _AZURE_FILE_VOLUME_SOURCE,
    "configMap": _CONFIG_MAP_VOLUME_SOURCE,
    "vsphereVolume": _VSPHERE_VIRTUAL_DISK_VOLUME_SOURCE,
    "quobyte": _QUOBYTE_VOLUME_SOURCE,
    "azureDisk": _AZURE_DISK_VOLUME_SOURCE,
    "photonPersistentDisk": _PHOTON_PERSISTENT_DISK_VOLUME_SOURCE,
    "projected": _PROJECTED_VOLUME_SOURCE,
    "portworxVolume": _PORTWORX_VOLUME_SOURCE,
    "scaleIO": _SCALEIO_VOLUME_SOURCE,
    "storageos": _STORAGEOS_VOLUME_SOURCE,
    "csi": _CSI_VOLUME_SOURCE,
    "ephemeral": _EPHEMERAL_VOLUME_SOURCE,
    "image": _IMAGE_VOLUME_SOURCE,
}
VOLUME_SOURCES: Final = frozenset(VOLUME_SOURCE_TYPES)
VOLUME: Final = {"name": STR, **VOLUME_SOURCE_TYPES}
TOPOLOGY_SPREAD_CONSTRAINT: Final = {
    "maxSkew": I32, "topologyKey": STR, "whenUnsatisfiable": STR, "labelSelector": LABEL_SELECTOR, "minDomains": I32,
    "nodeAffinityPolicy": STR, "nodeTaintsPolicy": STR, "matchLabelKeys": ("list", STR),
}  # fmt: skip
DNS_CONFIG: Final = {"nameservers": ("list", STR), "searches": ("list", STR), "options": ("list", {"name": STR, "value": STR})}
POD_SPEC: Final = {
    "volumes": ("list", VOLUME), "initContainers": ("list", CONTAINER), "containers": ("list", CONTAINER),
    "ephemeralContainers": ("list", EPHEMERAL_CONTAINER), "restartPolicy": STR, "terminationGracePeriodSeconds": I64,
    "activeDeadlineSeconds": I64, "dnsPolicy": STR, "nodeSelector": ("map", STR), "serviceAccountName": STR,
    "serviceAccount": STR, "automountServiceAccountToken": BOOL, "nodeName": STR, "hostNetwork": BOOL,
    "hostPID": BOOL, "hostIPC": BOOL, "shareProcessNamespace": BOOL, "securityContext": POD_SECURITY_CONTEXT,
    "imagePullSecrets": ("list", {"name": STR}), "hostname": STR, "subdomain": STR, "affinity": AFFINITY,
    "schedulerName": STR, "tolerations": ("list", TOLERATION), "hostAliases": ("list", HOST_ALIAS),
    "priorityClassName": STR, "priority": I32, "dnsConfig": DNS_CONFIG, "readinessGates": ("list", {"conditionType": STR}),
    "runtimeClassName": STR, "enableServiceLinks": BOOL, "preemptionPolicy": STR, "overhead": RESOURCE_LIST,
    "topologySpreadConstraints": ("list", TOPOLOGY_SPREAD_CONSTRAINT), "setHostnameAsFQDN": BOOL, "os": {"name": STR}, "hostUsers": BOOL,
    "schedulingGates": ("list", {"name": STR}), "resourceClaims": ("list", {"name": STR, "resourceClaimName": STR, "resourceClaimTemplateName": STR}), "resources": RESOURCE_REQUIREMENTS,
    "hostnameOverride": since(34, STR),
    "workloadRef": since(35, {"name": STR, "podGroup": STR, "podGroupReplicaKey": STR}, 35),
    "schedulingGroup": since(36, {"podGroupName": STR}),
    "evictionResponders": since(37, ("list", {"name": STR, "priority": I32})),
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
# batch/v1 JobSchedulingConfiguration (1.37, WorkloadWithJob) and its scheduling/v1alpha3 parts.
JOB_SCHEDULING_CONFIGURATION: Final = {
    "schedulingPolicy": {"basic": {}, "gang": {"minCount": I32}},
    "schedulingConstraints": {"topology": ("list", {"key": STR})},
    "disruptionMode": {"single": {}, "all": {}},
    "resourceClaims": ("list", {"name": STR, "resourceClaimName": STR, "resourceClaimTemplateName": STR}),
}
JOB_SPEC: Final = {
    "parallelism": I32, "completions": I32, "activeDeadlineSeconds": I64, "podFailurePolicy": POD_FAILURE_POLICY,
    "successPolicy": {"rules": ("list", {"succeededIndexes": STR, "succeededCount": I32})},
    "backoffLimit": I32, "backoffLimitPerIndex": I32, "maxFailedIndexes": I32, "selector": LABEL_SELECTOR,
    "manualSelector": BOOL, "template": POD_TEMPLATE_SPEC, "ttlSecondsAfterFinished": I32,
    "completionMode": STR, "suspend": BOOL, "podReplacementPolicy": STR, "managedBy": STR,
    "scheduling": since(37, JOB_SCHEDULING_CONFIGURATION),
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
JOB: Final = _object(JOB_SPEC, JOB_STATUS)
CRON_JOB_SPEC: Final = {
    "schedule": STR, "timeZone": STR, "startingDeadlineSeconds": I64, "concurrencyPolicy": STR, "suspend": BOOL,
    "jobTemplate": {"metadata": OBJECT_META, "spec": JOB_SPEC}, "successfulJobsHistoryLimit": I32,
    "failedJobsHistoryLimit": I32,
}  # fmt: skip
OBJECT_REFERENCE: Final = {
    "kind": STR, "namespace": STR, "name": STR, "uid": STR, "apiVersion": STR, "resourceVersion": STR,
    "fieldPath": STR,
}  # fmt: skip
CRON_JOB_STATUS: Final = {
    "active": ("list", OBJECT_REFERENCE),
    "lastScheduleTime": TIME,
    "lastSuccessfulTime": TIME,
}
CRON_JOB: Final = _object(CRON_JOB_SPEC, CRON_JOB_STATUS)

POD_CONDITION: Final = {
    "type": STR, "status": STR, "observedGeneration": I64, "lastProbeTime": TIME, "lastTransitionTime": TIME,
    "reason": STR, "message": STR,
}  # fmt: skip
CONTAINER_STATE_TERMINATED: Final = {
    "exitCode": I32, "signal": I32, "reason": STR, "message": STR, "startedAt": TIME, "finishedAt": TIME,
    "containerID": STR,
}  # fmt: skip
# The parts of a Pod's status the controllers read are typed; the rest is kept as it is.
CONTAINER_STATUS: Final = {
    "name": STR, "restartCount": I32, "state": {"terminated": CONTAINER_STATE_TERMINATED, OTHER: ANY}, OTHER: ANY,
}  # fmt: skip
POD_STATUS: Final = {
    "phase": STR, "conditions": ("list", POD_CONDITION), "startTime": TIME,
    "initContainerStatuses": ("list", CONTAINER_STATUS), "containerStatuses": ("list", CONTAINER_STATUS),
    OTHER: ANY,
}  # fmt: skip
POD: Final = _object(POD_SPEC, POD_STATUS)

KINDS: Final = {"Job": JOB, "CronJob": CRON_JOB, "Pod": POD}
API_VERSIONS: Final = {"Job": "batch/v1", "CronJob": "batch/v1", "Pod": "v1"}
_JSON_KIND: Final = {
    STR: "a string",
    TIME: "an RFC 3339 time string",
    I32: "an integer",
    I64: "an integer",
    BOOL: "a boolean",
    OBJ: "an object",
    LIST: "a list",
}


def check_object(value: Any, kind: str) -> None:
    """Raise InputError for the first unknown field or mistyped value of a `kind` object."""
    decode_object(value, kind)


def decode_object(value: Any, kind: str, path: str = "", release: int | None = None) -> dict[str, Any]:
    """The object as Go's strict decoder (of the release's types, when given) sees it: unknown
    fields and mistyped values raise InputError; a null field is dropped (absent) and a null list
    item becomes its zero value. `kind` and `apiVersion` may be left out; when given they must be
    the kind's. A mistyped value anywhere is named before an unknown field: the strict decoder
    (sigs.k8s.io/json UnmarshalStrict) reports unknown fields only when decoding succeeded."""
    decoded, unknown = _decoded_keeping_unknown(value, kind, path, release)
    if unknown:
        raise UnknownFieldsError(unknown)
    for key, want in (("kind", kind), ("apiVersion", API_VERSIONS[kind])):
        if decoded.get(key, want) != want:
            raise InputError(fe.child(path, key), f'expected "{want}", got {describe(decoded[key])}')
    return decoded


def without_unknown_fields(value: Any, kind: str, release: int | None = None) -> tuple[Any, list[str]]:
    """The object as the API server decodes it under `fieldValidation=Warn` or `Ignore`: its
    unknown fields left out, and their paths, in the document's order (the warnings `unknown
    field "PATH"` under Warn). An object without unknown fields comes back as given; otherwise
    decoded (`decode_object`), which decoding again leaves as it is. A mistyped value is still an
    InputError: the decoder fails before it looks for unknown fields."""
    decoded, unknown = _decoded_keeping_unknown(value, kind, "", release)
    return (decoded, unknown) if unknown else (value, [])


def _decoded_keeping_unknown(value: Any, kind: str, path: str, release: int | None) -> tuple[dict[str, Any], list[str]]:
    """The object decoded without its unknown fields, and their paths (mistyped values raise)."""
    if not isinstance(value, Mapping):
        raise InputError(path, f"expected an object, got {describe(value)}")
    unknown: list[InputError] = []
    decoded: dict[str, Any] = check_value(value, KINDS[kind], path, release, unknown)
    return decoded, [error.field for error in unknown]


class UnknownFieldsError(InputError):
    """One error for every unknown field of an object, as the strict decoder lists them all
    (`unknown field "spec.foo", unknown field "spec.bar"`, in the document's order): it names the
    first as its field, the others in its reason; `fields` holds them all."""

    def __init__(self, fields: list[str]) -> None:
        others = f" (also unknown: {', '.join(fields[1:])})" if len(fields) > 1 else ""
        super().__init__(fields[0], f"unknown field{others}")
        self.fields = fields


def _zero(typ: Type) -> Any:
    """Go's zero value of a list element of this type."""
    if isinstance(typ, dict) or typ == OBJ or (isinstance(typ, tuple) and typ[0] == "map"):
        return {}
    if isinstance(typ, tuple) or typ == LIST:
        return []
    return {STR: "", TIME: "", I32: 0, I64: 0, BOOL: False, QUANTITY: "0"}.get(typ)


def check_value(
    value: Any, typ: Type, path: str, release: int | None = None, unknown: list[InputError] | None = None
) -> Any:
    """Check one value against a schema type; returns the decoded value (see decode_object). An
    unknown field raises InputError, or is left out and its error added to `unknown` when given."""
    if value is None:
        return None
    if type(typ) is dict:
        out: dict[str, Any] = {}
        for k, v in obj(value, path).items():
            item = field_type(typ.get(k), release)
            if item is None:
                item = typ.get(OTHER)
                if item is None:
                    error = InputError(fe.child(path, str(k)), "unknown field")
                    if unknown is None:
                        raise error
                    unknown.append(error)
                    continue
            if v is not None:
                out[k] = check_value(v, item, f"{path}.{k}" if path else k, release, unknown)
        return out
    if type(typ) is tuple:
        container, inner = typ
        if container == "map":
            return {
                k: _zero(inner) if v is None else check_value(v, inner, fe.key(path, k), release, unknown)
                for k, v in obj(value, path).items()
            }
        if not isinstance(value, list):
            raise InputError(path, f"expected a list, got {describe(value)}")
        return [
            _zero(inner) if v is None else check_value(v, inner, fe.index(path, i), release, unknown)
            for i, v in enumerate(value)
        ]
    if typ == QUANTITY:
        return decode_quantity(value, path)
    if typ != ANY:
        _check_scalar(value, typ, path)
    return value


# The Python types of each scalar JSON kind (a bool is never an integer).
_PYTHON_TYPES: Final[dict[str, tuple[type, ...]]] = {
    STR: (str,),
    BOOL: (bool,),
    I32: (int,),
    I64: (int,),
    OBJ: (dict, Mapping),
    LIST: (list,),
}


def _check_scalar(value: Any, typ: str, path: str) -> None:
    if typ == INT_OR_STRING:
        if not isinstance(value, str | int) or isinstance(value, bool):
            raise InputError(path, f"expected an integer or a string, got {describe(value)}")
        _check_scalar(value, STR if isinstance(value, str) else I32, path)
        return
    if typ == TIME:
        parse_time(value, path)
        return
    if not isinstance(value, _PYTHON_TYPES[typ]) or (isinstance(value, bool) and typ in (I32, I64)):
        raise InputError(path, f"expected {_JSON_KIND[typ]}, got {describe(value)}")
    bits = {I32: 31, I64: 63}.get(typ)
    if bits is not None and not -(2**bits) <= value < 2**bits:
        raise InputError(path, f"the integer {quote(value)} does not fit in {typ}")


# --- the formats around the objects (vectors, scripts, traces) -----------------------------------


def obj(value: object, path: str) -> Mapping[str, Any]:
    """The value as a JSON object (null counts as empty)."""
    if value is None:
        return {}
    if not isinstance(value, (dict, Mapping)):
        raise InputError(path, f"expected an object, got {describe(value)}")
    return value


def check_known(value: Mapping[str, Any], known: Collection[str], path: str) -> None:
    """Unknown keys are errors, named with their path."""
    for key in value:
        if key not in known:
            raise InputError(fe.child(path, str(key)), "unknown field")


def member(m: Mapping[str, Any], key: str, typ: Type, path: str) -> Any:
    """`m[key]` checked against `typ` (None when absent or null)."""
    return check_value(m.get(key), typ, fe.child(path, key))
