"""The API server's warnings on a Job or CronJob write: the registry strategies' WarningsOnCreate
and WarningsOnUpdate (`pkg/registry/batch/{job,cronjob}/strategy.go`), `WarningsForJobSpec`
(`pkg/api/job/warnings.go`) and the pod template's (`pkg/api/pod/warnings.go`), per release.

The API server sends them (kubectl prints each as `Warning: ...`) only for a write that passed
validation (rest.BeforeCreate, rest.BeforeUpdate), computed on the object as stored. Of the old
object an update reads only the generation: upstream passes the old template along but does not
read it.
Where upstream walks a Go map (a pod's nodeSelector) its order is random; the model walks the
keys in their written order.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Final

from jobmodel.api import field as fe
from jobmodel.api.ip import get_warnings_for_ip
from jobmodel.api.meta_validation import (
    dedup_owner_references,
    is_dns1123_label,
    is_valid_label_value,
)
from jobmodel.api.pod_annotations import (
    APPARMOR_CONTAINER_ANNOTATION_PREFIX,
    APPARMOR_UNCONFINED,
    LOCALHOST_PREFIX,
    RUNTIME_DEFAULT,
    SECCOMP_CONTAINER_ANNOTATION_PREFIX,
    SECCOMP_POD_ANNOTATION,
)
from jobmodel.api.pod_util import visit_containers_with_path
from jobmodel.api.quantity import milli_value, quantity_of, quantity_string
from jobmodel.errors import InputError
from jobmodel.util.goquote import go_quote

COMPLETIONS_SOFT_LIMIT: Final = 100_000
PARALLELISM_SOFT_LIMIT_FOR_UNLIMITED_COMPLETIONS: Final = 10_000
INDEXED_SOFT_LIMITS_MESSAGE: Final = (
    "In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, "
    "Kubernetes might not be able to track completedIndexes when a big number of indexes fail"
)

# pkg/api/node/util.go's deprecatedNodeLabels.
DEPRECATED_NODE_LABELS: Final[Mapping[str, str]] = {
    "beta.kubernetes.io/arch": 'deprecated since v1.14; use "kubernetes.io/arch" instead',
    "beta.kubernetes.io/os": 'deprecated since v1.14; use "kubernetes.io/os" instead',
    "failure-domain.beta.kubernetes.io/region": 'deprecated since v1.17; use "topology.kubernetes.io/region" instead',
    "failure-domain.beta.kubernetes.io/zone": 'deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
    "beta.kubernetes.io/instance-type": 'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
    "app.kubernetes.io/created-by": "deprecated since v1.9",
    "scheduler.alpha.kubernetes.io/preferAvoidPods": "deprecated since v1.22; use Taints and Tolerations instead",
    "node-role.kubernetes.io/master": 'use "node-role.kubernetes.io/control-plane" instead',
}

# warnings.go's deprecatedAnnotations (none of them has a prefix form).
DEPRECATED_ANNOTATIONS: Final = (
    ("scheduler.alpha.kubernetes.io/critical-pod", 'non-functional in v1.16+; use the "priorityClassName" field instead'),
    ("security.alpha.kubernetes.io/sysctls", 'non-functional in v1.11+; use the "sysctls" field instead'),
    ("security.alpha.kubernetes.io/unsafe-sysctls", 'non-functional in v1.11+; use the "sysctls" field instead'),
)

# Volume sources no longer served: (JSON member, the name the warning gives it, message).
DEPRECATED_VOLUMES: Final = (
    ("photonPersistentDisk", "photonPersistentDisk", "deprecated in v1.11, non-functional in v1.16+"),
    ("gitRepo", "gitRepo", ""),  # its message depends on the release (gitrepo_message)
    ("scaleIO", "scaleIO", "deprecated in v1.16, non-functional in v1.22+"),
    ("flocker", "flocker", "deprecated in v1.22, non-functional in v1.25+"),
    ("storageos", "storageOS", "deprecated in v1.22, non-functional in v1.25+"),
    ("quobyte", "quobyte", "deprecated in v1.22, non-functional in v1.25+"),
    ("glusterfs", "glusterfs", "deprecated in v1.25, non-functional in v1.26+"),
)
LATER_DEPRECATED_VOLUMES: Final = (  # checked after an ephemeral volume's claim template
    ("cephfs", "cephfs", "deprecated in v1.28, non-functional in v1.31+"),
    ("rbd", "rbd", "deprecated in v1.28, non-functional in v1.31+"),
)

SECCOMP_ANNOTATION_MESSAGE: Final = 'non-functional in v1.27+; use the "seccompProfile" field instead'
APPARMOR_ANNOTATION_MESSAGE: Final = 'deprecated since v1.30; use the "appArmorProfile" field instead'
NULL_SELECTOR_MESSAGE: Final = "a null labelSelector results in matching no pod"

GIT_REPO_DISABLED_RELEASE: Final = 33  # GitRepoVolumeDriver off by default (Deprecated)
PORT_NAMES_AND_IPS_RELEASE: Final = 33  # duplicate port names, GetWarningsForIP, label values
APPARMOR_MATCH_RELEASE: Final = 34  # an annotation the pod's profile matches is not warned of
PROJECTED_SOURCE_SCOPE_RELEASE: Final = 34  # each projected source's paths its own (PodCertificate)


def _has(obj: Mapping[str, Any] | None, key: str) -> bool:
    """A Go pointer, slice or map field that is set: the member present and not null."""
    return obj is not None and obj.get(key) is not None


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _list(value: Any) -> Sequence[Any]:
    return value if isinstance(value, list) else []


# ------------------------------------------------------------------------ the strategies' entries


def name_warnings(obj: Mapping[str, Any]) -> list[str]:
    """The strategies' name check: a Job's or CronJob's name becomes part of its pods' names."""
    name = str(_map(obj.get("metadata")).get("name") or "")
    msgs = is_dns1123_label(name)
    if not msgs:
        return []
    return [
        "metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; "
        f"a DNS label is recommended: [{' '.join(msgs)}]"
    ]


def warnings_on_create(kind: str, obj: Mapping[str, Any], release: int) -> list[str]:
    """The strategy's warnings on the create of a stored Job or CronJob (`kind`)."""
    if kind == "CronJob":
        return cron_job_warnings_on_create(obj, release)
    return job_warnings_on_create(obj, release)


def handler_warnings(request: Mapping[str, Any]) -> list[str]:
    """The create or update handler's own warning, sent before the strategy's: owner references
    it dropped as duplicates (dedupOwnerReferencesAndAddWarning)."""
    refs = _map(request.get("metadata")).get("ownerReferences")
    duplicates = dedup_owner_references(refs)[1] if isinstance(refs, list) else []
    if not duplicates:
        return []
    return [
        ".metadata.ownerReferences contains duplicate entries; API server dedups owner references in 1.20+, "
        "and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: "
        f"{', '.join(duplicates)}"
    ]


def job_warnings_on_create(job: Mapping[str, Any], release: int) -> list[str]:
    """jobStrategy.WarningsOnCreate."""
    return name_warnings(job) + warnings_for_job_spec("spec", _map(job.get("spec")), release)


def job_warnings_on_update(new: Mapping[str, Any], old: Mapping[str, Any], release: int) -> list[str]:
    """jobStrategy.WarningsOnUpdate: the spec's warnings when the generation changed."""
    if _generation(new) == _generation(old):
        return []
    return warnings_for_job_spec("spec", _map(new.get("spec")), release)


def cron_job_warnings_on_create(cron_job: Mapping[str, Any], release: int) -> list[str]:
    """cronJobStrategy.WarningsOnCreate."""
    return name_warnings(cron_job) + warnings_for_job_spec("spec.jobTemplate.spec", _job_template_spec(cron_job), release)


def cron_job_warnings_on_update(new: Mapping[str, Any], old: Mapping[str, Any], release: int) -> list[str]:
    """cronJobStrategy.WarningsOnUpdate: the job template's warnings when the generation changed,
    and a time zone in the schedule (upstream names the field `spec.spec.schedule`)."""
    warnings: list[str] = []
    if _generation(new) != _generation(old):
        warnings = warnings_for_job_spec("spec.jobTemplate.spec", _job_template_spec(new), release)
    if "TZ" in str(_map(new.get("spec")).get("schedule") or ""):
        warnings.append(
            "cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see "
            "https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details"
        )
    return warnings


def _generation(obj: Mapping[str, Any]) -> Any:
    return _map(obj.get("metadata")).get("generation") or 0


def _job_template_spec(cron_job: Mapping[str, Any]) -> Mapping[str, Any]:
    return _map(_map(_map(cron_job.get("spec")).get("jobTemplate")).get("spec"))


def warnings_for_job_spec(path: str, spec: Mapping[str, Any], release: int) -> list[str]:
    """WarningsForJobSpec: an Indexed Job beyond both soft limits, and the pod template's."""
    warnings: list[str] = []
    if spec.get("completionMode") == "Indexed":
        completions = spec.get("completions") or 0
        parallelism = spec.get("parallelism") or 0
        if completions > COMPLETIONS_SOFT_LIMIT and parallelism > PARALLELISM_SOFT_LIMIT_FOR_UNLIMITED_COMPLETIONS:
            warnings.append(f"{path}: {INDEXED_SOFT_LIMITS_MESSAGE}")
    return warnings + warnings_for_pod_template(fe.child(path, "template"), _map(spec.get("template")), release)


# ----------------------------------------------------------------------------- the pod template


def warnings_for_pod_template(path: str, template: Mapping[str, Any], release: int, git_repo_driver: bool | None = None) -> list[str]:
    """GetWarningsForPodTemplate (warningsForPodSpecAndMeta with a field path), in upstream's
    order; `git_repo_driver`: the GitRepoVolumeDriver gate (None: its default at `release`)."""
    spec, meta = _map(template.get("spec")), _map(template.get("metadata"))
    annotations = _map(meta.get("annotations"))
    spec_path = fe.child(path, "spec")
    return [
        *_node_label_warnings(spec, spec_path, release),
        *_topology_spread_warnings(spec, spec_path),
        *(
            f"{fe.key(fe.child(path, 'metadata', 'annotations'), key)}: {message}"
            for key, message in DEPRECATED_ANNOTATIONS
            if key in annotations
        ),
        *_volume_warnings(spec, spec_path, release, git_repo_driver),
        *warnings_for_overlapping_virtual_paths(_list(spec.get("volumes")), release),
        *_duplicate_warnings(spec, spec_path),
        *_overhead_warnings(spec, spec_path),
        *_container_warnings(spec, annotations, path, release),
        *_port_warnings(spec, spec_path),
        *(_port_name_warnings(spec, spec_path) if release >= PORT_NAMES_AND_IPS_RELEASE else []),
        *_grace_period_warnings(spec, spec_path),
        *_pod_affinity_warnings(spec, spec_path),
        *(_ip_warnings(spec, spec_path, release) if release >= PORT_NAMES_AND_IPS_RELEASE else []),
    ]


def _node_label_warnings(spec: Mapping[str, Any], spec_path: str, release: int) -> Iterator[str]:
    """Deprecated node labels in the node selector and the node affinity's terms."""
    for k in _map(spec.get("nodeSelector")):
        if k in DEPRECATED_NODE_LABELS:
            yield f"{fe.key(fe.child(spec_path, 'nodeSelector'), k)}: {DEPRECATED_NODE_LABELS[k]}"
    affinity = _map(spec.get("affinity"))
    if not _has(affinity, "nodeAffinity"):
        return
    node = _map(affinity["nodeAffinity"])
    required = fe.child(spec_path, "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution")
    if _has(node, "requiredDuringSchedulingIgnoredDuringExecution"):
        terms = _list(_map(node["requiredDuringSchedulingIgnoredDuringExecution"]).get("nodeSelectorTerms"))
        for i, term in enumerate(terms):
            yield from get_warnings_for_node_selector_term(_map(term), False, fe.index(fe.child(required, "nodeSelectorTerms"), i), release)
    preferred = fe.child(spec_path, "affinity", "nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution")
    for i, term in enumerate(_list(node.get("preferredDuringSchedulingIgnoredDuringExecution"))):
        preference = _map(_map(term).get("preference"))
        yield from get_warnings_for_node_selector_term(preference, True, fe.child(fe.index(preferred, i), "preference"), release)


def get_warnings_for_node_selector_term(term: Mapping[str, Any], check_label_value: bool, path: str, release: int) -> Iterator[str]:
    """GetWarningsForNodeSelectorTerm (`pkg/api/node/util.go`): deprecated keys, and from 1.33 in
    a preferred term the values that are no label values."""
    for i, expression in enumerate(_list(term.get("matchExpressions"))):
        expression = _map(expression)
        key = str(expression.get("key") or "")
        where = fe.index(fe.child(path, "matchExpressions"), i)
        if key in DEPRECATED_NODE_LABELS:
            yield f"{fe.child(where, 'key')}: {key} is {DEPRECATED_NODE_LABELS[key]}"
        if check_label_value and release >= PORT_NAMES_AND_IPS_RELEASE:
            for j, value in enumerate(_list(expression.get("values"))):
                for msg in is_valid_label_value(str(value), release):
                    yield f"{fe.index(fe.child(where, 'values'), j)}: {value} is invalid, {msg}"


def _topology_spread_warnings(spec: Mapping[str, Any], spec_path: str) -> Iterator[str]:
    for i, constraint in enumerate(_list(spec.get("topologySpreadConstraints"))):
        constraint = _map(constraint)
        where = fe.index(fe.child(spec_path, "topologySpreadConstraints"), i)
        key = str(constraint.get("topologyKey") or "")
        if key in DEPRECATED_NODE_LABELS:
            yield f"{fe.child(where, 'topologyKey')}: {key} is {DEPRECATED_NODE_LABELS[key]}"
        if not _has(constraint, "labelSelector"):
            yield f"{fe.child(where, 'labelSelector')}: {NULL_SELECTOR_MESSAGE}"


def gitrepo_message(release: int, git_repo_driver: bool | None = None) -> str:
    """The gitRepo volume's, which says when the GitRepoVolumeDriver gate is off: by default from
    1.33 (locked off from 1.36); up to 1.32 the message has no such branch."""
    if git_repo_driver is None:
        git_repo_driver = release < GIT_REPO_DISABLED_RELEASE
    if release >= GIT_REPO_DISABLED_RELEASE and not git_repo_driver:
        return "deprecated in v1.11, and disabled by default in v1.33+"
    return "deprecated in v1.11"


def _volume_warnings(spec: Mapping[str, Any], spec_path: str, release: int, git_repo_driver: bool | None) -> Iterator[str]:
    """Deprecated and removed volume plugins, and fractional storage in an ephemeral volume's claim."""
    for i, volume in enumerate(_list(spec.get("volumes"))):
        volume = _map(volume)
        where = fe.index(fe.child(spec_path, "volumes"), i)
        for member, shown, message in DEPRECATED_VOLUMES:
            if _has(volume, member):
                yield f"{fe.child(where, shown)}: {message or gitrepo_message(release, git_repo_driver)}"
        ephemeral = _map(volume.get("ephemeral"))
        if _has(volume, "ephemeral") and _has(ephemeral, "volumeClaimTemplate"):
            claim_spec = _map(_map(ephemeral["volumeClaimTemplate"]).get("spec"))
            claim_path = fe.child(where, "ephemeral", "volumeClaimTemplate", "spec")
            yield from get_warnings_for_persistent_volume_claim_spec(claim_path, claim_spec)
        for member, shown, message in LATER_DEPRECATED_VOLUMES:
            if _has(volume, member):
                yield f"{fe.child(where, shown)}: {message}"


def get_warnings_for_persistent_volume_claim_spec(path: str, claim_spec: Mapping[str, Any]) -> Iterator[str]:
    """GetWarningsForPersistentVolumeClaimSpec (`pkg/api/persistentvolumeclaim/util.go`)."""
    resources = _map(claim_spec.get("resources"))
    for kind in ("requests", "limits"):
        yield from _fractional_bytes(fe.child(path, "resources", kind), _map(resources.get(kind)), ("storage",))


def _fractional_bytes(path: str, resources: Mapping[str, Any], names: Sequence[str]) -> Iterator[str]:
    """A memory, ephemeral-storage or storage quantity that is not a whole number of bytes."""
    for name in names:
        if name not in resources:
            continue
        value = resources[name]
        try:
            quantity = quantity_of(value, fe.key(path, name))
        except InputError:  # not a quantity: decoding refuses it before any warning
            continue
        if milli_value(quantity) % 1000 != 0:
            yield f"{fe.key(path, name)}: fractional byte value {go_quote(quantity_string(quantity))} is invalid, must be an integer"


def _duplicate_warnings(spec: Mapping[str, Any], spec_path: str) -> Iterator[str]:
    """Duplicate host alias IPs and image pull secrets, and pull secrets without a name."""
    yield from _repeated(_list(spec.get("hostAliases")), fe.child(spec_path, "hostAliases"), "ip")
    secrets = _list(spec.get("imagePullSecrets"))
    yield from _repeated(secrets, fe.child(spec_path, "imagePullSecrets"), "name")
    for i, secret in enumerate(secrets):
        name = str(_map(secret).get("name") or "")
        if not name:
            yield f"{fe.child(fe.index(fe.child(spec_path, 'imagePullSecrets'), i), 'name')}: invalid empty name {go_quote(name)}"


def _repeated(items: Sequence[Any], path: str, member: str) -> Iterator[str]:
    """Each item whose `member` an item before it has (upstream checks lists of two or more)."""
    seen: set[str] = set()
    for i, item in enumerate(items if len(items) > 1 else ()):
        value = str(_map(item).get(member) or "")
        if value in seen:
            yield f"{fe.child(fe.index(path, i), member)}: duplicate {member} {go_quote(value)}"
        seen.add(value)


def _overhead_warnings(spec: Mapping[str, Any], spec_path: str) -> Iterator[str]:
    yield from _fractional_bytes(fe.child(spec_path, "overhead"), _map(spec.get("overhead")), ("memory", "ephemeral-storage"))


def apparmor_field_for_annotation(annotation: str) -> dict[str, Any] | None:
    """ApparmorFieldForAnnotation (`pkg/api/pod/util.go`): the profile field an annotation means."""
    if annotation == APPARMOR_UNCONFINED:
        return {"type": "Unconfined", "localhostProfile": None}
    if annotation == RUNTIME_DEFAULT:
        return {"type": "RuntimeDefault", "localhostProfile": None}
    if annotation.startswith(LOCALHOST_PREFIX) and annotation != LOCALHOST_PREFIX:
        return {"type": "Localhost", "localhostProfile": annotation.removeprefix(LOCALHOST_PREFIX)}
    return None


def _apparmor_profile(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    profile = _map(value)
    return {"type": profile.get("type") or "", "localhostProfile": profile.get("localhostProfile")}


def _container_warnings(spec: Mapping[str, Any], annotations: Mapping[str, Any], path: str, release: int) -> Iterator[str]:
    """The pod's seccomp annotation without the field that replaced it; then, container by
    container (one visitor upstream), its seccomp and AppArmor annotations without their fields
    (from 1.34 an AppArmor annotation the pod's profile matches is not warned of), its
    fractional byte resources and its environment variables that hide another."""
    annotations_path = fe.child(path, "metadata", "annotations")
    security = _map(spec.get("securityContext"))
    if not _has(security, "seccompProfile") and SECCOMP_POD_ANNOTATION in annotations:
        yield f"{fe.key(annotations_path, SECCOMP_POD_ANNOTATION)}: {SECCOMP_ANNOTATION_MESSAGE}"
    pod_profile = _apparmor_profile(security.get("appArmorProfile"))
    for container, where in visit_containers_with_path(spec, fe.child(path, "spec")):
        name = str(container.get("name") or "")
        context = _map(container.get("securityContext"))
        key = SECCOMP_CONTAINER_ANNOTATION_PREFIX + name
        if not _has(context, "seccompProfile") and key in annotations:
            yield f"{fe.key(annotations_path, key)}: {SECCOMP_ANNOTATION_MESSAGE}"
        key = APPARMOR_CONTAINER_ANNOTATION_PREFIX + name
        if key in annotations and not _has(context, "appArmorProfile"):
            if release < APPARMOR_MATCH_RELEASE:
                warned = pod_profile is None
            else:
                warned = pod_profile is None or pod_profile != apparmor_field_for_annotation(str(annotations[key]))
            if warned:
                yield f"{fe.key(annotations_path, key)}: {APPARMOR_ANNOTATION_MESSAGE}"
        resources = _map(container.get("resources"))
        for resource in ("memory", "ephemeral-storage"):
            for kind in ("limits", "requests"):
                yield from _fractional_bytes(fe.child(where, "resources", kind), _map(resources.get(kind)), (resource,))
        yield from _hidden_env_warnings(_list(container.get("env")), fe.child(where, "env"))


def _hidden_env_warnings(env: Sequence[Any], path: str) -> Iterator[str]:
    """A variable defined again, unless the new value refers to the old one (`X=$(X)123`)."""
    if len(env) <= 1:
        return
    names: set[str] = set()
    for i, item in enumerate(env):
        item = _map(item)
        name = str(item.get("name") or "")
        if name not in names:
            names.add(name)
            continue
        ref, value = f"$({name})", str(item.get("value") or "")
        if _has(item, "valueFrom") or value == ref or ref not in value:
            yield f"{fe.index(path, i)}: hides previous definition of {go_quote(name)}, which may be dropped when using apply"


def container_port_text(port: Mapping[str, Any]) -> str:
    """`%+v` of the internal core.ContainerPort."""
    return (
        f"{{Name:{port.get('name') or ''} HostPort:{port.get('hostPort') or 0} "
        f"ContainerPort:{port.get('containerPort') or 0} Protocol:{port.get('protocol') or ''} "
        f"HostIP:{port.get('hostIP') or ''}}}"
    )


def _port_warnings(spec: Mapping[str, Any], spec_path: str) -> Iterator[str]:
    """A host IP without a host port, and ports that duplicate, overlap or ambiguously share
    another container port's number and protocol."""
    seen: dict[str, list[tuple[str, Mapping[str, Any]]]] = {}
    for container, where in visit_containers_with_path(spec, spec_path):
        for i, port in enumerate(_list(container.get("ports"))):
            port = _map(port)
            at = fe.index(fe.child(where, "ports"), i)
            host_ip, host_port = port.get("hostIP") or "", port.get("hostPort") or 0
            if host_ip and not host_port:
                yield f"{at}: hostIP set without hostPort: {container_port_text(port)}"
            k = f"{port.get('containerPort') or 0}/{port.get('protocol') or ''}"
            for other_at, other in seen.get(k, []):
                other_ip, other_port = other.get("hostIP") or "", other.get("hostPort") or 0
                if host_ip == other_ip and host_port == other_port:
                    yield f"{at}: duplicate port definition with {other_at}"
                elif not host_port or not other_port:
                    yield f"{at}: overlapping port definition with {other_at}"
                elif host_port == other_port and (not host_ip) != (not other_ip):
                    yield f"{at}: dangerously ambiguous port definition with {other_at}"
            seen.setdefault(k, []).append((at, port))


def _port_name_warnings(spec: Mapping[str, Any], spec_path: str) -> Iterator[str]:
    """From 1.33: a port name another container port already has."""
    named: dict[str, str] = {}
    for container, where in visit_containers_with_path(spec, spec_path):
        for i, port in enumerate(_list(container.get("ports"))):
            name = str(_map(port).get("name") or "")
            if not name:
                continue
            at = fe.index(fe.child(where, "ports"), i)
            if name in named:
                other = named[name]
                yield (
                    f"{at}: duplicate port name {go_quote(name)} with {other}, services and probes that "
                    f"select ports by name will use {other}"
                )
            else:
                named[name] = at


def _grace_period_warnings(spec: Mapping[str, Any], spec_path: str) -> Iterator[str]:
    grace = spec.get("terminationGracePeriodSeconds")
    if grace is not None and grace < 0:
        yield f"{fe.child(spec_path, 'terminationGracePeriodSeconds')}: must be >= 0; negative values are invalid and will be treated as 1"


def _pod_affinity_warnings(spec: Mapping[str, Any], spec_path: str) -> Iterator[str]:
    """Pod (anti-)affinity terms without a label selector, which match no pod."""
    affinity = _map(spec.get("affinity"))
    for kind in ("podAffinity", "podAntiAffinity"):
        if not _has(affinity, kind):
            continue
        terms = _map(affinity[kind])
        where = fe.child(spec_path, "affinity", kind)
        required = fe.child(where, "requiredDuringSchedulingIgnoredDuringExecution")
        for i, term in enumerate(_list(terms.get("requiredDuringSchedulingIgnoredDuringExecution"))):
            if not _has(_map(term), "labelSelector"):
                yield f"{fe.child(fe.index(required, i), 'labelSelector')}: {NULL_SELECTOR_MESSAGE}"
        preferred = fe.child(where, "preferredDuringSchedulingIgnoredDuringExecution")
        for i, term in enumerate(_list(terms.get("preferredDuringSchedulingIgnoredDuringExecution"))):
            if not _has(_map(_map(term).get("podAffinityTerm")), "labelSelector"):
                yield f"{fe.child(fe.index(preferred, i), 'podAffinityTerm', 'labelSelector')}: {NULL_SELECTOR_MESSAGE}"


def _ip_warnings(spec: Mapping[str, Any], spec_path: str, release: int) -> Iterator[str]:
    """From 1.33: DNS nameservers and host alias IPs in a deprecated or non-canonical form."""
    if _has(spec, "dnsConfig"):
        for i, server in enumerate(_list(_map(spec["dnsConfig"]).get("nameservers"))):
            yield from get_warnings_for_ip(fe.index(fe.child(spec_path, "dnsConfig", "nameservers"), i), str(server), release)
    for i, alias in enumerate(_list(spec.get("hostAliases"))):
        yield from get_warnings_for_ip(fe.child(fe.index(fe.child(spec_path, "hostAliases"), i), "ip"), str(_map(alias).get("ip") or ""), release)


# ------------------------------------------------------------------- overlapping paths in volumes


def _path_text(path: str, source: str) -> str:
    """pathAndSource.String."""
    return f"{go_quote(path)} ({source})" if source else go_quote(path)


def check_for_overlap(haystack: Sequence[tuple[str, str]], needle: tuple[str, str]) -> list[tuple[str, str]]:
    """checkForOverlap: the paths that are the needle, or a directory of it, or under it."""
    if not needle[0]:
        return []
    found = []
    for item in haystack:
        if not item[0]:
            continue
        if item == needle or (item[0] + "/").startswith(needle[0] + "/") or (needle[0] + "/").startswith(item[0] + "/"):
            found.append(item)
    return found


def check_volume_mapping_for_overlap(paths: Sequence[tuple[str, str]]) -> list[str]:
    """checkVolumeMappingForOverlap: each path against those before it (trailing `/` cut)."""
    warnings: list[str] = []
    before: list[tuple[str, str]] = []
    for path, source in paths:
        needle = (path.rstrip("/"), source)
        warnings += [f"{_path_text(*needle)} with {_path_text(*c)}" for c in check_for_overlap(before, needle)]
        before.append(needle)
    return warnings


def _item_paths(volume_source: Mapping[str, Any], source: str) -> list[tuple[str, str]]:
    return [(str(_map(item).get("path") or ""), source) for item in _list(volume_source.get("items"))]


def _projection_paths(projection: Mapping[str, Any], release: int) -> list[tuple[str, str]] | None:
    """The paths a projected volume's source writes (None: a source the switch does not name)."""
    config_map, secret, downward = (_map(projection.get(k)) for k in ("configMap", "secret", "downwardAPI"))
    if _has(projection, "configMap") and _has(config_map, "items"):
        return _item_paths(config_map, f"ConfigMap {go_quote(str(config_map.get('name') or ''))}")
    if _has(projection, "secret") and _has(secret, "items"):
        return _item_paths(secret, f"Secret {go_quote(str(secret.get('name') or ''))}")
    if _has(projection, "downwardAPI") and _has(downward, "items"):
        return _item_paths(downward, "DownwardAPI")
    if _has(projection, "serviceAccountToken"):
        return [(str(_map(projection["serviceAccountToken"]).get("path") or ""), "ServiceAccountToken")]
    if _has(projection, "clusterTrustBundle"):
        bundle = _map(projection["clusterTrustBundle"])
        name = bundle.get("name") if bundle.get("name") is not None else bundle.get("signerName")
        return [(str(bundle.get("path") or ""), f"ClusterTrustBundle {go_quote(str(name or ''))}")]
    if release >= PROJECTED_SOURCE_SCOPE_RELEASE and _has(projection, "podCertificate"):
        certificate = _map(projection["podCertificate"])
        return [
            (str(certificate.get(member)), source)
            for member, source in (
                ("certificateChainPath", "PodCertificate chain"),
                ("keyPath", "PodCertificate key"),
                ("credentialBundlePath", "PodCertificate credential bundle"),
            )
            if certificate.get(member)
        ]
    return None


def warnings_for_overlapping_virtual_paths(volumes: Sequence[Any], release: int) -> list[str]:
    """warningsForOverlappingVirtualPaths: paths of one ConfigMap, Secret, downward API or
    projected volume that are the same or one under another. Up to 1.33 a projected source the
    switch does not name takes the paths of the source before it again (its variable outlived
    the loop), which then meet themselves."""
    warnings: list[str] = []
    for volume in volumes:
        volume = _map(volume)
        name = str(volume.get("name") or "")

        def overlap(description: str, body: str, name: str = name) -> str:
            return f"volume {go_quote(name)} ({description}): overlapping paths: {body}"

        config_map, secret, downward = (_map(volume.get(k)) for k in ("configMap", "secret", "downwardAPI"))
        if _has(volume, "configMap") and _has(config_map, "items"):
            description = f"ConfigMap {go_quote(str(config_map.get('name') or ''))}"
            warnings += [overlap(description, o) for o in check_volume_mapping_for_overlap(_item_paths(config_map, ""))]
        if _has(volume, "secret") and _has(secret, "items"):
            description = f"Secret {go_quote(str(secret.get('secretName') or ''))}"
            warnings += [overlap(description, o) for o in check_volume_mapping_for_overlap(_item_paths(secret, ""))]
        if _has(volume, "downwardAPI") and _has(downward, "items"):
            warnings += [overlap("DownwardAPI", o) for o in check_volume_mapping_for_overlap(_item_paths(downward, ""))]
        if _has(volume, "projected"):
            warnings += _projected_overlaps(volume, name, release, overlap)
    return warnings


def _projected_overlaps(volume: Mapping[str, Any], name: str, release: int, overlap: Any) -> list[str]:
    warnings: list[str] = []
    everything: list[tuple[str, str]] = []
    paths: list[tuple[str, str]] = []
    for projection in _list(_map(volume["projected"]).get("sources")):
        projection = _map(projection)
        if not any(v is not None for v in projection.values()):
            warnings.append(f"volume {go_quote(name)} (Projected) has no sources provided")
            continue
        found = _projection_paths(projection, release)
        if found is not None:
            paths = found
        elif release >= PROJECTED_SOURCE_SCOPE_RELEASE:
            paths = []
        for path, source in paths:
            needle = (path.rstrip("/"), source)
            warnings += [overlap("Projected", f"{_path_text(*needle)} with {_path_text(*c)}") for c in check_for_overlap(everything, needle)]
            everything.append(needle)
    return warnings


# ------------------------------------------------------------------------ what the client gets

TRUNCATE_AT_TOTAL_RUNES: Final = 4 * 1024
TRUNCATE_ITEM_RUNES: Final = 256


def _header_text_ok(text: str) -> bool:
    """NewWarningHeader refuses a text with a control character (unicode.IsControl: C0, DEL, C1)."""
    return not any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in text)


def recorded_warnings(texts: Iterable[str], total: int = TRUNCATE_AT_TOTAL_RUNES, item: int = TRUNCATE_ITEM_RUNES) -> list[str]:
    """The warnings a request's response carries (apiserver `pkg/endpoints/filters/warning.go`
    recorder.AddWarning, the same at every release): each text once, none with a control
    character; past `total` (4,096) characters in all, every warning cut to `item` (256)
    characters, and none added once the cut ones reach `total`."""
    written, truncating = 0, False
    recorded: set[str] = set()
    ordered: list[str] = []
    headers: list[str] = []
    for text in texts:
        if not text or (written >= total and truncating) or text in recorded:
            continue
        recorded.add(text)
        ordered.append(text)
        if truncating:
            text = text[:item]
        if not _header_text_ok(text):
            continue
        if written + len(text) <= total or truncating:
            written += len(text)
            headers.append(text)
            continue
        truncating, written, headers = True, 0, []
        for earlier in ordered:
            cut = earlier[:item]
            if _header_text_ok(cut):
                written += len(cut)
                headers.append(cut)
    return headers
