"""Pod volumes, volume mounts and volume devices as core validation checks them
(`pkg/apis/core/validation/validation.go`: ValidateVolumes, validateVolumeSource and the
validator of each source, ValidateVolumeMounts, ValidateVolumeDevices), their `core/v1` defaults
(`pkg/apis/core/v1/defaults.go`) and the fields the strategy drops (`pkg/api/pod/util.go`).

Release differences (the gates at their defaults): image volumes (ImageVolume, on from 1.35) are
dropped before 1.35 unless the old template has one, and their `reference` is required in a pod
template only from 1.37 (before, only in a pod); a mount of an image volume may not use a sub-path
in 1.32 only; a CSI driver name that is empty also fails the DNS-subdomain check up to 1.34; an
unset service-account token expiry is 0 (too short) up to 1.36, Required from 1.37; projected
cluster-trust bundles (ClusterTrustBundleProjection) and pod certificates (PodCertificateRequest)
are dropped before 1.37; the fields of 1.37's alpha gates (emptyDir's `mode`, the volumes' user
ids, the mounts' `bindMountOptions`) are dropped at every release modelled, each unless the old
template uses it, and validated from 1.37 when given (the validation of an object as given).
A projected pod certificate exists from 1.34 (unknown before, so not counted), its user
annotations are checked from 1.35. An ephemeral volume's claim names a volume attributes class
checked from 1.34 (VolumeAttributesClass on).

Volume sources are validated in upstream's order, which decides which of two sources is "more
than 1"; upstream's own path slips (`persistentDisk`, `cephFS`, `downwarAPI`, a downward-API file
named after its volume, not its index) are kept.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

import attrs

from jobmodel.api import field as fe
from jobmodel.api import meta_validation as mv
from jobmodel.api import pod_env
from jobmodel.api import pod_security as ps
from jobmodel.api.field import FieldError
from jobmodel.api.image_reference import parse_image_name
from jobmodel.api.pod_security import validate_local_descending_path
from jobmodel.api.pod_util import visit_containers_with_path
from jobmodel.api.quantity import quantity_of, quantity_string, set_defaults_resource_list
from jobmodel.util.goquote import go_quote
from jobmodel.util.gostrings import go_len, go_to_lower

if TYPE_CHECKING:
    from jobmodel.api.pod_validation import PodValidationOptions

FILE_MODE_ERROR: Final = "must be a number between 0 and 0777 (octal), both inclusive"
EMPTY_DIR_MODE_ERROR: Final = "must be a number between 0 and 01777 (octal), both inclusive"
MORE_THAN_ONE: Final = "may not specify more than 1 volume type"
DEFAULT_FILE_MODE: Final = 0o644  # SecretVolumeSourceDefaultMode and its siblings
TOKEN_DEFAULT_EXPIRATION: Final = 3600
# Upstream passes a *field.Path (fldPath.Child("dataSource")) as the bad value: json.Marshal of its
# unexported fields is {} from v1.34; %#v before prints pointer addresses, which no model can repeat.
FIELD_PATH_VALUE: Final = fe.GoStruct(())
# The `+default` tags of the in-tree sources, applied when the field is unset.
IN_TREE_DEFAULTS: Final[Mapping[str, Mapping[str, Any]]] = {
    "iscsi": {"iscsiInterface": "default"},
    "rbd": {"pool": "rbd", "user": "admin", "keyring": "/etc/ceph/keyring"},
    "azureDisk": {"cachingMode": "ReadWrite", "fsType": "ext4", "readOnly": False, "kind": "Shared"},
    "scaleIO": {"storageMode": "ThinProvisioned", "fsType": "xfs"},
}
# sets.List order (sorted), as the NotSupported messages list them.
HOST_PATH_TYPES: Final = ("", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket")
VOLUME_DOWNWARD_API_FIELD_PATHS: Final = (
    "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid",
)  # fmt: skip
MOUNT_PROPAGATIONS: Final = ("Bidirectional", "HostToContainer", "None")
RECURSIVE_READ_ONLY: Final = ("Disabled", "Enabled", "IfPossible")
ACCESS_MODES: Final = ("ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod")
VOLUME_MODES: Final = ("Block", "Filesystem")
VOLUME_ATTRIBUTES_CLASS_RELEASE: Final = 34  # VolumeAttributesClass on by default
# ObjectMeta's fields other than labels and annotations, in its order: (JSON key, Go field name
# with a lower-case first letter, as validateFieldAllowList names it).
TEMPLATE_META_FORBIDDEN: Final = (
    ("name", "name"), ("generateName", "generateName"), ("namespace", "namespace"), ("selfLink", "selfLink"), ("uid", "uID"),
    ("resourceVersion", "resourceVersion"), ("generation", "generation"), ("creationTimestamp", "creationTimestamp"),
    ("deletionTimestamp", "deletionTimestamp"), ("deletionGracePeriodSeconds", "deletionGracePeriodSeconds"),
    ("ownerReferences", "ownerReferences"), ("finalizers", "finalizers"), ("managedFields", "managedFields"),
)  # fmt: skip
IMAGE_VOLUME_RELEASE: Final = 35  # ImageVolume on by default
IMAGE_REFERENCE_REQUIRED_RELEASE: Final = 37  # AllowEmptyImageVolumeReference replaces ResourceIsPod
PROJECTION_GATES_RELEASE: Final = 37  # ClusterTrustBundleProjection, PodCertificateRequest on by default
CSI_REQUIRED_RETURNS_RELEASE: Final = 35
USER_FIELDS_RELEASE: Final = 37  # the atomic-write volumes' user fields (AtomicWriteVolumeUserFields, alpha)
POD_CERTIFICATE_RELEASE: Final = 34  # PodCertificateProjection exists (PodCertificateRequest: on from 1.37)
POD_CERTIFICATE_KEY_TYPES: Final = ("RSA3072", "RSA4096", "ECDSAP256", "ECDSAP384", "ECDSAP521", "ED25519")


@attrs.frozen
class VolumeOptions:
    """The PodValidationOptions of the volume checks that depend on the old template
    (GetValidationOptionsFromPodSpecAndMeta)."""

    allow_non_local_projected_token_path: bool = False  # hasNonLocalProjectedTokenPath
    allow_empty_image_volume_reference: bool = False  # hasEmptyImageVolumeReference (1.37+)


def volume_options(old_pod_spec: Mapping[str, Any] | None) -> VolumeOptions:
    """The volume options given the stored template's spec (None on create)."""
    if old_pod_spec is None:
        return VolumeOptions()
    volumes = old_pod_spec.get("volumes") or []
    return VolumeOptions(
        allow_non_local_projected_token_path=any(
            validate_local_non_reserved_path(str(s["serviceAccountToken"].get("path") or ""), "")
            for v in volumes
            for s in (v.get("projected") or {}).get("sources") or []
            if s.get("serviceAccountToken") is not None
        ),
        allow_empty_image_volume_reference=any(
            v.get("image") is not None and not v["image"].get("reference") for v in volumes
        ),
    )


# --- paths -------------------------------------------------------------------------------------


def validate_path_no_backsteps(target: str, path: str) -> list[FieldError]:
    """validatePathNoBacksteps: no `..` element (one error however many)."""
    if ".." in target.split("/"):
        return [fe.invalid(path, target, "must not contain '..'")]
    return []


def validate_local_non_reserved_path(target: str, path: str) -> list[FieldError]:
    """ValidateLocalNonReservedPath: a local descending path that does not start with `..`."""
    errs = validate_local_descending_path(target, path)
    if target.startswith("..") and not target.startswith("../"):
        errs.append(fe.invalid(path, target, "must not start with '..'"))
    return errs


def _validate_mode(mode: Any, path: str, most: int = 0o777, message: str = FILE_MODE_ERROR) -> list[FieldError]:
    """The file-mode range shared by the sources (0 to 0777, or 01777 for an emptyDir)."""
    if mode is not None and not 0 <= mode <= most:
        return [fe.invalid(path, mode, message)]
    return []


def validate_user_field(user: Any, path: str, release: int) -> list[FieldError]:
    """validateUserField (1.37+): a file owner's user id in 0..2^31-1 (IsValidUserID)."""
    if release < USER_FIELDS_RELEASE or user is None or 0 <= user <= ps.MAX_ID:
        return []
    return [fe.invalid(path, user, ps.ID_RANGE_ERROR)]


# --- volumes -----------------------------------------------------------------------------------


def validate_volumes(
    volumes: list[Mapping[str, Any]], path: str, opts: PodValidationOptions
) -> tuple[list[FieldError], dict[str, Mapping[str, Any]]]:
    """ValidateVolumes (in a template: no pod name, so no ephemeral-PVC name checks): DNS-label
    names, unique, each with exactly one valid source; the valid volumes by name."""
    errs: list[FieldError] = []
    valid: dict[str, Mapping[str, Any]] = {}
    for i, vol in enumerate(volumes):
        idx = fe.index(path, i)
        name_path = fe.child(idx, "name")
        name = str(vol.get("name") or "")
        el = validate_volume_source(vol, idx, name, opts)
        if not name:
            el.append(fe.required(name_path))
        else:
            el.extend(mv.validate_dns1123_label(name, name_path))
        if name in valid:
            el.append(fe.duplicate(name_path, name))
        if el:
            errs.extend(el)
        else:
            valid[name] = vol
    return errs, valid


def validate_volume_source(vol: Mapping[str, Any], path: str, name: str, opts: PodValidationOptions) -> list[FieldError]:
    """validateVolumeSource: the first source given (in upstream's order) is validated, any other
    is forbidden, none is Required."""
    errs: list[FieldError] = []
    found = False
    for key, forbidden_as, validate in SOURCE_VALIDATORS:
        source = vol.get(key)
        if source is None:
            continue
        if found:
            errs.append(fe.forbidden(fe.child(path, forbidden_as), MORE_THAN_ONE))
        else:
            found = True
            errs.extend(validate(source, path, opts))
        if key == "iscsi" and source.get("initiatorName") is not None and go_len(f"{name}:{source.get('targetPortal') or ''}") > 64:
            detail = "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified."
            errs.append(fe.invalid(fe.child(path, "name"), name, detail))
    if not found:
        errs.append(fe.required(path, "must specify a volume type"))
    return errs


def validate_empty_dir(source: Mapping[str, Any], path: str, opts: PodValidationOptions) -> list[FieldError]:
    """validateVolumeSource's emptyDir checks: a sizeLimit not negative; the mode (1.37+) up to 01777."""
    errs: list[FieldError] = []
    size_limit = source.get("sizeLimit")
    size_path = fe.child(path, "emptyDir", "sizeLimit")
    if size_limit is not None and quantity_of(size_limit, size_path).unscaled < 0:
        errs.append(fe.forbidden(size_path, "SizeLimit field must be a valid resource quantity"))
    if opts.release >= 37:
        errs.extend(_validate_mode(source.get("mode"), fe.child(path, "emptyDir", "mode"), 0o1777, EMPTY_DIR_MODE_ERROR))
    return errs


def validate_host_path_volume_source(source: Mapping[str, Any], path: str, opts: PodValidationOptions) -> list[FieldError]:
    """validateHostPathVolumeSource: a path without `..`, a supported type (validateHostPathType)."""
    host_path = str(source.get("path") or "")
    if not host_path:
        return [fe.required(fe.child(path, "path"))]
    errs = validate_path_no_backsteps(host_path, fe.child(path, "path"))
    kind = source.get("type")
    if kind is not None and kind not in HOST_PATH_TYPES:
        errs.append(fe.not_supported(fe.child(path, "type"), fe.named(kind, opts.release), HOST_PATH_TYPES))
    return errs


def validate_git_repo_volume_source(source: Mapping[str, Any], path: str) -> list[FieldError]:
    """validateGitRepoVolumeSource: a repository, a local descending directory."""
    errs = [] if source.get("repository") else [fe.required(fe.child(path, "repository"))]
    return errs + validate_local_descending_path(str(source.get("directory") or ""), fe.child(path, "directory"))


def validate_key_to_path(item: Mapping[str, Any], path: str, release: int = 37) -> list[FieldError]:
    """validateKeyToPath: key and path required, the path local and not reserved, the mode in range,
    the user (1.37+)."""
    errs: list[FieldError] = []
    if not item.get("key"):
        errs.append(fe.required(fe.child(path, "key")))
    item_path = str(item.get("path") or "")
    if not item_path:
        errs.append(fe.required(fe.child(path, "path")))
    errs.extend(validate_local_non_reserved_path(item_path, fe.child(path, "path")))
    errs.extend(_validate_mode(item.get("mode"), fe.child(path, "mode")))
    return errs + validate_user_field(item.get("user"), fe.child(path, "user"), release)


def _validate_items_source(source: Mapping[str, Any], path: str, name_key: str, release: int) -> list[FieldError]:
    """The shape of validateSecretVolumeSource and validateConfigMapVolumeSource."""
    errs = [] if source.get(name_key) else [fe.required(fe.child(path, name_key))]
    errs.extend(_validate_mode(source.get("defaultMode"), fe.child(path, "defaultMode")))
    errs.extend(validate_user_field(source.get("defaultUser"), fe.child(path, "defaultUser"), release))
    for i, item in enumerate(source.get("items") or []):
        errs.extend(validate_key_to_path(item, fe.index(fe.child(path, "items"), i), release))
    return errs


def validate_secret_volume_source(source: Mapping[str, Any], path: str, opts: PodValidationOptions) -> list[FieldError]:
    """validateSecretVolumeSource: a secretName, the default mode and user, the items."""
    return _validate_items_source(source, path, "secretName", opts.release)


def validate_config_map_volume_source(source: Mapping[str, Any], path: str, opts: PodValidationOptions) -> list[FieldError]:
    """validateConfigMapVolumeSource: a name, the default mode and user, the items."""
    return _validate_items_source(source, path, "name", opts.release)


def validate_persistent_claim_volume_source(source: Mapping[str, Any], path: str) -> list[FieldError]:
    """validatePersistentClaimVolumeSource: a claimName."""
    return [] if source.get("claimName") else [fe.required(fe.child(path, "claimName"))]


def validate_nfs_volume_source(source: Mapping[str, Any], path: str) -> list[FieldError]:
    """validateNFSVolumeSource: a server, and an absolute path (an empty one fails both checks)."""
    errs = [] if source.get("server") else [fe.required(fe.child(path, "server"))]
    nfs_path = str(source.get("path") or "")
    if not nfs_path:
        errs.append(fe.required(fe.child(path, "path")))
    if not nfs_path.startswith("/"):
        errs.append(fe.invalid(fe.child(path, "path"), nfs_path, "must be an absolute path"))
    return errs


def validate_downward_api_volume_file(item: Mapping[str, Any], path: str, opts: PodValidationOptions) -> list[FieldError]:
    """validateDownwardAPIVolumeFile: a local path; one of a field (of the volume's fields) and a
    container resource."""
    errs: list[FieldError] = []
    file_path = str(item.get("path") or "")
    if not file_path:
        errs.append(fe.required(fe.child(path, "path")))
    errs.extend(validate_local_non_reserved_path(file_path, fe.child(path, "path")))
    field_ref, resource_ref = item.get("fieldRef"), item.get("resourceFieldRef")
    if field_ref is not None:
        errs.extend(
            pod_env.validate_object_field_selector(field_ref, fe.child(path, "fieldRef"), opts.release, VOLUME_DOWNWARD_API_FIELD_PATHS)
        )
        if resource_ref is not None:
            errs.append(fe.invalid(path, "resource", "fieldRef and resourceFieldRef can not be specified simultaneously"))
    elif resource_ref is not None:
        errs.extend(pod_env.validate_container_resource_field_selector(resource_ref, fe.child(path, "resourceFieldRef"), opts.release, volume=True))
    else:
        errs.append(fe.required(path, "one of fieldRef and resourceFieldRef is required"))
    errs.extend(_validate_mode(item.get("mode"), fe.child(path, "mode")))
    return errs + validate_user_field(item.get("user"), fe.child(path, "user"), opts.release)


def validate_downward_api_volume_source(source: Mapping[str, Any], path: str, opts: PodValidationOptions) -> list[FieldError]:
    """validateDownwardAPIVolumeSource: the default mode and user; each file (on the volume's path)."""
    errs = _validate_mode(source.get("defaultMode"), fe.child(path, "defaultMode"))
    errs.extend(validate_user_field(source.get("defaultUser"), fe.child(path, "defaultUser"), opts.release))
    for item in source.get("items") or []:
        errs.extend(validate_downward_api_volume_file(item, path, opts))
    return errs


def validate_projection_sources(source: Mapping[str, Any], path: str, opts: PodValidationOptions) -> list[FieldError]:
    """validateProjectionSources: one kind per source, paths unique across the sources."""
    errs: list[FieldError] = []
    paths: set[str] = set()

    def claim(target: str, value: Any) -> list[FieldError]:
        """A path used by one more source: "conflicting duplicate paths" when already used."""
        taken = target in paths
        paths.add(target)
        return [fe.invalid(path, value, "conflicting duplicate paths")] if taken else []

    for i, projection in enumerate(source.get("sources") or []):
        src_path = fe.index(fe.child(path, "sources"), i)
        kinds = 0
        for key in ("secret", "configMap"):
            objects = projection.get(key)
            if objects is None:
                continue
            kinds += 1
            proj_path = fe.child(src_path, key)
            name = str(objects.get("name") or "")
            if not name:
                errs.append(fe.required(fe.child(proj_path, "name")))
            for j, item in enumerate(objects.get("items") or []):
                errs.extend(validate_key_to_path(item, fe.index(fe.child(proj_path, "items"), j), opts.release))
                if item.get("path"):
                    errs.extend(claim(str(item["path"]), name))
        downward = projection.get("downwardAPI")
        if downward is not None:
            kinds += 1
            for item in downward.get("items") or []:
                errs.extend(validate_downward_api_volume_file(item, fe.child(src_path, "downwardAPI"), opts))
                if item.get("path"):
                    errs.extend(claim(str(item["path"]), str(item["path"])))
        token = projection.get("serviceAccountToken")
        if token is not None:
            kinds += 1
            errs.extend(validate_service_account_token_projection(token, fe.child(src_path, "serviceAccountToken"), path, opts))
        bundle = projection.get("clusterTrustBundle")
        if bundle is not None:
            kinds += 1
            bundle_path = str(bundle.get("path") or "")
            errs.extend(validate_cluster_trust_bundle_projection(bundle, fe.child(src_path, "clusterTrustBundle"), opts.release))
            errs.extend(claim(bundle_path, bundle_path))
        certificate = projection.get("podCertificate")
        if certificate is not None and opts.release >= POD_CERTIFICATE_RELEASE:  # unknown before: dropped on decoding
            kinds += 1
            errs.extend(validate_pod_certificate_projection(certificate, fe.child(src_path, "podCertificate"), claim, opts.release))
        if kinds > 1:
            errs.append(fe.forbidden(src_path, "may not specify more than 1 volume type per source"))
    return errs


def validate_service_account_token_projection(
    token: Mapping[str, Any], path: str, projected_path: str, opts: PodValidationOptions
) -> list[FieldError]:
    """validateProjectionSources' serviceAccountToken part: an expiry from 10 minutes to 2^32 s
    (unset: 0 up to 1.36, Required from 1.37); a local path (named on the projected volume)."""
    errs: list[FieldError] = []
    expiry = token.get("expirationSeconds")
    expiry_path = fe.child(path, "expirationSeconds")
    if expiry is None and opts.release >= 37:
        errs.append(fe.required(expiry_path))
    else:
        seconds = expiry or 0
        if seconds < 10 * 60:
            errs.append(fe.invalid(expiry_path, seconds, "may not specify a duration less than 10 minutes"))
        if seconds > 1 << 32:
            errs.append(fe.invalid(expiry_path, seconds, "may not specify a duration larger than 2^32 seconds"))
    token_path = str(token.get("path") or "")
    if not token_path:
        errs.append(fe.required(fe.child(projected_path, "path")))
    elif not opts.volumes.allow_non_local_projected_token_path:
        errs.extend(validate_local_non_reserved_path(token_path, fe.child(projected_path, "path")))
    return errs + validate_user_field(token.get("user"), fe.child(path, "user"), opts.release)


def validate_cluster_trust_bundle_projection(bundle: Mapping[str, Any], path: str, release: int) -> list[FieldError]:
    """validateProjectionSources' clusterTrustBundle part: a bundle name (of its signer's form) or
    a signer name with a label selector, not both; a local path."""
    errs: list[FieldError] = []
    name, signer = bundle.get("name"), bundle.get("signerName")
    if name is not None and signer is not None:
        errs.append(fe.invalid(path, dict(bundle), "only one of name and signerName may be used"))
    elif name is not None:
        if name == "":
            errs.append(fe.required(fe.child(path, "name"), "must be a valid object name"))
        bundle_signer = name[: name.rfind(":")].replace(":", "/") if ":" in name else ""
        errs.extend(
            fe.invalid(fe.child(path, "name"), name, f"not a valid clustertrustbundlename: {m}")
            for m in validate_cluster_trust_bundle_name(bundle_signer, name)
        )
        if bundle.get("labelSelector") is not None:
            errs.append(fe.invalid(fe.child(path, "labelSelector"), bundle["labelSelector"], "labelSelector must be unset if name is specified"))
    elif signer is not None:
        if signer == "":
            errs.append(fe.required(fe.child(path, "signerName"), "must be a valid signer name"))
        errs.extend(validate_signer_name(fe.child(path, "signerName"), signer))
        errs.extend(mv.validate_label_selector(bundle.get("labelSelector"), fe.child(path, "labelSelector"), False, release))
    else:
        errs.append(fe.required(path, "either name or signerName must be specified"))
    if not bundle.get("path"):
        errs.append(fe.required(fe.child(path, "path")))
    errs.extend(validate_user_field(bundle.get("user"), fe.child(path, "user"), release))
    return errs + validate_local_non_reserved_path(str(bundle.get("path") or ""), fe.child(path, "path"))


def validate_pod_certificate_projection(
    certificate: Mapping[str, Any], path: str, claim: Callable[[str, Any], list[FieldError]], release: int
) -> list[FieldError]:
    """validateProjectionSources' podCertificate part (1.34+): a signer name, user annotations with
    domain-prefixed keys (1.35+), the user (1.37+), a key type, a maximum expiry from an hour to
    91 days (a day for a Kubernetes signer), at least one local path, each claimed."""
    signer = str(certificate.get("signerName") or "")
    errs = validate_signer_name(fe.child(path, "signerName"), signer)
    annotations = certificate.get("userAnnotations")
    if annotations is not None and release >= 35:
        errs.extend(validate_user_annotations(annotations, fe.child(path, "userAnnotations"), release))
    errs.extend(validate_user_field(certificate.get("user"), fe.child(path, "user"), release))
    key_type = str(certificate.get("keyType") or "")
    if key_type not in POD_CERTIFICATE_KEY_TYPES:
        errs.append(fe.not_supported(fe.child(path, "keyType"), key_type, POD_CERTIFICATE_KEY_TYPES))
    expiry = certificate.get("maxExpirationSeconds")
    if expiry is not None:
        expiry_path = fe.child(path, "maxExpirationSeconds")
        if expiry < 3600:
            errs.append(fe.invalid(expiry_path, expiry, "if provided, maxExpirationSeconds must be >= 3600"))
        host = signer.split("/", 1)[0]
        most = 24 * 3600 if host == "kubernetes.io" or host.endswith(".kubernetes.io") else 91 * 24 * 3600  # IsKubernetesSignerName
        if expiry > most:
            errs.append(fe.invalid(expiry_path, expiry, f"if provided, maxExpirationSeconds must be <= {most}"))
    paths = 0
    for key in ("credentialBundlePath", "keyPath", "certificateChainPath"):
        target = str(certificate.get(key) or "")
        if target:
            paths += 1
            errs.extend(validate_local_non_reserved_path(target, fe.child(path, key)))
            errs.extend(claim(target, target))
    if paths == 0:
        errs.append(fe.required(path, "specify at least one of credentialBundlePath, keyPath, and certificateChainPath"))
    return errs


def validate_user_annotations(annotations: Mapping[str, str], path: str, release: int) -> list[FieldError]:
    """ValidateUserAnnotations: keys domain-prefixed in lower case (IsDomainPrefixedKey), the total
    size within the annotations' limit."""
    errs: list[FieldError] = []
    for key in sorted(annotations):  # upstream walks a Go map: any order
        lowered = go_to_lower(key)
        if not lowered:
            errs.append(fe.required(path))
        elif found := mv.is_qualified_name(lowered, release):
            errs.extend(fe.invalid(path, lowered, m) for m in found)
        elif len(lowered.split("/")) != 2:
            errs.append(fe.invalid(path, lowered, 'must be a domain-prefixed key (such as "acme.io/foo")'))
    if sum(go_len(k) + go_len(v) for k, v in annotations.items()) > mv.TOTAL_ANNOTATION_SIZE_LIMIT:
        errs.append(fe.too_long(path, mv.TOTAL_ANNOTATION_SIZE_LIMIT))
    return errs


def validate_cluster_trust_bundle_name(signer: str, name: str) -> list[str]:
    """ValidateClusterTrustBundleName (`pkg/apis/core/validation/names.go`): a signer's bundle is
    named `<signer with : for />:<subdomain>`, another has no `:`."""
    if not signer:
        if ":" in name:
            return ['ClusterTrustBundle without signer name must not have ":" in its name']
        return mv.name_is_dns_subdomain(name, False)
    prefix = signer.replace("/", ":") + ":"
    if not name.startswith(prefix):
        return [f"ClusterTrustBundle for signerName {signer} must be named with prefix {prefix}"]
    return mv.name_is_dns_subdomain(name[len(prefix) :], False)


def validate_signer_name(path: str, signer: str) -> list[FieldError]:
    """ValidateSignerName (`names.go`): `<domain of two or more DNS labels>/<dot-separated DNS
    subdomains>`, within the lengths of those."""
    if not signer:
        return [fe.required(path)]
    segments = signer.split("/")
    if len(segments) != 2:
        return [fe.invalid(path, signer, "must be a fully qualified domain and path of the form 'example.com/signer-name'")]
    domain, rest = segments
    errs = [fe.too_long(path, mv.DNS1123_SUBDOMAIN_MAX_LENGTH)] if go_len(domain) > mv.DNS1123_SUBDOMAIN_MAX_LENGTH else []
    labels = domain.split(".")
    for label in labels:
        if found := mv.is_dns1123_label(label):
            errs.extend(fe.invalid(path, domain, f"validating label {go_quote(label)}: {m}") for m in found)
            break
    if len(labels) < 2:
        errs.append(fe.invalid(path, domain, "should be a domain with at least two segments separated by dots"))
    for label in rest.split("."):
        if found := mv.is_dns1123_subdomain(label):
            errs.extend(fe.invalid(path, rest, f"validating label {go_quote(label)}: {m}") for m in found)
            break
    most = 2 * mv.DNS1123_SUBDOMAIN_MAX_LENGTH + mv.DNS1123_LABEL_MAX_LENGTH + 2
    if go_len(signer) > most:
        errs.append(fe.too_long(path, most))
    return errs


def validate_projected_volume_source(source: Mapping[str, Any], path: str, opts: PodValidationOptions) -> list[FieldError]:
    """validateProjectedVolumeSource: the default mode and user, then the sources."""
    errs = _validate_mode(source.get("defaultMode"), fe.child(path, "defaultMode"))
    errs.extend(validate_user_field(source.get("defaultUser"), fe.child(path, "defaultUser"), opts.release))
    return errs + validate_projection_sources(source, path, opts)


def validate_csi_driver_name(driver: str, path: str, release: int) -> list[FieldError]:
    """ValidateCSIDriverName: required (up to 1.34 an empty name also fails the format check), at
    most 63 characters, a DNS subdomain in lower case."""
    errs: list[FieldError] = []
    if not driver:
        errs.append(fe.required(path))
        if release >= CSI_REQUIRED_RETURNS_RELEASE:
            return errs
    if go_len(driver) > 63:
        errs.append(fe.too_long(path, 63))
    errs.extend(fe.invalid(path, driver, m) for m in mv.is_dns1123_subdomain(go_to_lower(driver)))
    return errs


def validate_csi_volume_source(source: Mapping[str, Any], path: str, opts: PodValidationOptions) -> list[FieldError]:
    """validateCSIVolumeSource: the driver name; a node-publish secret's name (its format error
    named on `csi.name`, as upstream does)."""
    errs = validate_csi_driver_name(str(source.get("driver") or ""), fe.child(path, "driver"), opts.release)
    secret = source.get("nodePublishSecretRef")
    if secret is not None:
        name = str(secret.get("name") or "")
        if not name:
            errs.append(fe.required(fe.child(path, "nodePublishSecretRef", "name")))
        else:
            errs.extend(fe.invalid(fe.child(path, "name"), name, m) for m in mv.name_is_dns_subdomain(name, False))
    return errs


def validate_ephemeral_volume_source(source: Mapping[str, Any], path: str, opts: PodValidationOptions) -> list[FieldError]:
    """validateEphemeralVolumeSource: a claim template (ValidatePersistentVolumeClaimTemplate:
    labels and annotations, then the claim's spec)."""
    template = source.get("volumeClaimTemplate")
    template_path = fe.child(path, "volumeClaimTemplate")
    if template is None:
        return [fe.required(template_path)]
    errs = validate_template_object_meta(template.get("metadata") or {}, fe.child(template_path, "metadata"), opts.release)
    return errs + validate_persistent_volume_claim_spec(template.get("spec") or {}, fe.child(template_path, "spec"), opts.release)


def validate_template_object_meta(meta: Mapping[str, Any], path: str, release: int) -> list[FieldError]:
    """ValidateTemplateObjectMeta: annotations and labels, no other field set
    (validateFieldAllowList, in ObjectMeta's field order, named by the Go field)."""
    errs = mv.validate_annotations(meta.get("annotations"), fe.child(path, "annotations"), release)
    errs.extend(mv.validate_labels(meta.get("labels"), fe.child(path, "labels"), release))
    return errs + [
        fe.forbidden(fe.child(path, go_name), "cannot be set")
        for key, go_name in TEMPLATE_META_FORBIDDEN
        # A Go zero value is unset; deletionGracePeriodSeconds is a pointer (0 is set), a list
        # given empty is a non-nil slice (set).
        if meta.get(key) not in (None, "", 0) or (key == "deletionGracePeriodSeconds" and meta.get(key) is not None)
    ]


def validate_persistent_volume_claim_spec(spec: Mapping[str, Any], path: str, release: int) -> list[FieldError]:
    """ValidatePersistentVolumeClaimSpec (with ValidationOptionsForPersistentVolumeClaimTemplate's
    options for a new template): access modes, selector, storage request, class, volume mode, data
    sources, the volume attributes class (1.34+)."""
    errs: list[FieldError] = []
    modes = spec.get("accessModes") or []
    if not modes:
        errs.append(fe.required(fe.child(path, "accessModes"), "at least 1 access mode is required"))
    errs.extend(mv.validate_label_selector(spec.get("selector"), fe.child(path, "selector"), False, release))
    for mode in modes:
        if mode not in ACCESS_MODES:
            errs.append(fe.not_supported(fe.child(path, "accessModes"), fe.named(mode, release), ACCESS_MODES))
    if "ReadWriteOncePod" in modes and any(m in ACCESS_MODES and m != "ReadWriteOncePod" for m in modes):
        errs.append(fe.forbidden(fe.child(path, "accessModes"), "may not use ReadWriteOncePod with other access modes"))
    storage_path = fe.key(fe.child(path, "resources"), "storage")
    storage = ((spec.get("resources") or {}).get("requests") or {}).get("storage")
    if storage is None:
        errs.append(fe.required(storage_path))
    else:
        quantity = quantity_of(storage, storage_path)
        if quantity.unscaled <= 0:
            errs.append(fe.invalid(storage_path, quantity_string(quantity), "must be greater than zero"))
    class_name = spec.get("storageClassName")
    if class_name:
        errs.extend(fe.invalid(fe.child(path, "storageClassName"), class_name, m) for m in mv.name_is_dns_subdomain(class_name, False))
    mode = spec.get("volumeMode")
    if mode is not None and mode not in VOLUME_MODES:
        errs.append(fe.not_supported(fe.child(path, "volumeMode"), fe.named(mode, release), VOLUME_MODES))
    source, ref = spec.get("dataSource"), spec.get("dataSourceRef")
    if source is not None:
        errs.extend(validate_data_source(source, fe.child(path, "dataSource")))
    if ref is not None:
        errs.extend(validate_data_source(ref, fe.child(path, "dataSourceRef")))
    if ref is not None and ref.get("namespace"):
        if source is not None:
            errs.append(fe.invalid(path, FIELD_PATH_VALUE, "may not be specified when dataSourceRef.namespace is specified"))
    elif source is not None and ref is not None and any(source.get(k) != ref.get(k) for k in ("apiGroup", "kind", "name")):
        errs.append(fe.invalid(path, FIELD_PATH_VALUE, "must match dataSourceRef"))
    class_name = spec.get("volumeAttributesClassName")
    if class_name and release >= VOLUME_ATTRIBUTES_CLASS_RELEASE:
        errs.extend(fe.invalid(fe.child(path, "volumeAttributesClassName"), class_name, m) for m in mv.name_is_dns_subdomain(class_name, False))
    return errs


def validate_data_source(source: Mapping[str, Any], path: str) -> list[FieldError]:
    """validateDataSource and validateDataSourceRef (with its namespace, a DNS label): name and
    kind, a PersistentVolumeClaim in the core group, another group a DNS subdomain."""
    errs = _required(source, path, "name", "kind")
    group, kind = str(source.get("apiGroup") or ""), str(source.get("kind") or "")
    if not group and kind != "PersistentVolumeClaim":
        errs.append(fe.invalid(path, kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup"))
    if group:
        errs.extend(fe.invalid(fe.child(path, "apiGroup"), group, m) for m in mv.is_dns1123_subdomain(group))
    namespace = source.get("namespace")
    if namespace:
        errs.extend(fe.invalid(fe.child(path, "namespace"), namespace, m) for m in mv.is_dns1123_label(namespace))
    return errs


def validate_image_volume_source(source: Mapping[str, Any], path: str, opts: PodValidationOptions) -> list[FieldError]:
    """validateImageVolumeSource: a reference (in a template, only from 1.37 and unless the old
    template has an empty one), a pull policy (validatePullPolicy)."""
    from jobmodel.api.pod_validation import validate_pull_policy

    errs: list[FieldError] = []
    if (
        opts.release >= IMAGE_REFERENCE_REQUIRED_RELEASE
        and not opts.volumes.allow_empty_image_volume_reference
        and not source.get("reference")
    ):
        errs.append(fe.required(fe.child(path, "reference")))
    return errs + validate_pull_policy(str(source.get("pullPolicy") or ""), fe.child(path, "pullPolicy"), opts.release)


# --- the other in-tree sources ------------------------------------------------------------------

# Go's RE2 classes spelled out (ASCII \d and \s; `$` the end of the text): searched, not anchored
# at the start, as MatchString does.
_IQN_RE: Final = re.compile(r"iqn\.[0-9]{4}-[0-9]{2}\.([A-Za-z0-9\-.]+)(:[^,;*&$|\t\n\f\r ]+)\Z")
_EUI_RE: Final = re.compile(r"eui.[A-Za-z0-9]{16}")
_NAA_RE: Final = re.compile(r"naa.[A-Za-z0-9]{32}")
LUN_ERROR: Final = mv.inclusive_range_error(0, 255)
PD_PARTITION_ERROR: Final = mv.inclusive_range_error(1, 255)  # though 0 passes the check
AZURE_CACHING_MODES: Final = ("None", "ReadOnly", "ReadWrite")
AZURE_DISK_KINDS: Final = ("Dedicated", "Managed", "Shared")


def _required(source: Mapping[str, Any], path: str, *keys: str) -> list[FieldError]:
    """Required for each of `keys` that is empty (the in-tree sources' common check)."""
    return [fe.required(fe.child(path, k)) for k in keys if not source.get(k)]


def _iscsi_name_error(name: str) -> str:
    """The format error of an iSCSI qualified name (iqn, eui or naa), "" when valid."""
    if not name.startswith(("iqn", "eui", "naa")):
        return "must be valid format starting with iqn, eui, or naa"
    regex = {"iqn": _IQN_RE, "eui": _EUI_RE, "naa": _NAA_RE}[name[:3]]
    matched = regex.search(name) if name.startswith("iqn") else regex.fullmatch(name)
    return "" if matched else "must be valid format"


def validate_iscsi_volume_source(source: Mapping[str, Any], path: str) -> list[FieldError]:
    """validateISCSIVolumeSource: portal and IQN, the LUN in 0..255, a secret for CHAP, the
    initiator's name."""
    errs = _required(source, path, "targetPortal")
    iqn = str(source.get("iqn") or "")
    if not iqn:
        errs.append(fe.required(fe.child(path, "iqn")))
    elif detail := _iscsi_name_error(iqn):
        errs.append(fe.invalid(fe.child(path, "iqn"), iqn, detail))
    lun = source.get("lun") or 0
    if not 0 <= lun <= 255:
        errs.append(fe.invalid(fe.child(path, "lun"), lun, LUN_ERROR))
    if (source.get("chapAuthDiscovery") or source.get("chapAuthSession")) and source.get("secretRef") is None:
        errs.append(fe.required(fe.child(path, "secretRef")))
    initiator = source.get("initiatorName")
    if initiator is not None and (detail := _iscsi_name_error(str(initiator))):
        errs.append(fe.invalid(fe.child(path, "initiatorname"), initiator, detail))
    return errs


def validate_fc_volume_source(source: Mapping[str, Any], path: str, opts: PodValidationOptions) -> list[FieldError]:
    """validateFCVolumeSource: target WWNs or WWIDs (not both); with WWNs a LUN in 0..255."""
    wwns, wwids = source.get("targetWWNs") or [], source.get("wwids") or []
    errs: list[FieldError] = []
    if not wwns and not wwids:
        errs.append(fe.required(fe.child(path, "targetWWNs"), "must specify either targetWWNs or wwids, but not both"))
    if wwns and wwids:
        errs.append(fe.invalid(fe.child(path, "targetWWNs"), fe.go_slice(wwns, "[]string", opts.release), "targetWWNs and wwids can not be specified simultaneously"))
    if wwns:
        lun = source.get("lun")
        if lun is None:
            errs.append(fe.required(fe.child(path, "lun"), "lun is required if targetWWNs is specified"))
        elif not 0 <= lun <= 255:
            errs.append(fe.invalid(fe.child(path, "lun"), lun, LUN_ERROR))
    return errs


def _validate_disk(source: Mapping[str, Any], path: str, key: str) -> list[FieldError]:
    """validateGCEPersistentDiskVolumeSource and validateAWSElasticBlockStoreVolumeSource: a disk
    id, a partition in 0..255."""
    errs = _required(source, path, key)
    partition = source.get("partition") or 0
    if not 0 <= partition <= 255:
        errs.append(fe.invalid(fe.child(path, "partition"), partition, PD_PARTITION_ERROR))
    return errs


def validate_flocker_volume_source(source: Mapping[str, Any], path: str) -> list[FieldError]:
    """validateFlockerVolumeSource: one of datasetName (without `/`) and datasetUUID."""
    name, uuid = str(source.get("datasetName") or ""), source.get("datasetUUID")
    errs: list[FieldError] = []
    if not name and not uuid:
        errs.append(fe.required(path, "one of datasetName and datasetUUID is required"))
    if name and uuid:
        errs.append(fe.invalid(path, "resource", "datasetName and datasetUUID can not be specified simultaneously"))
    if "/" in name:
        errs.append(fe.invalid(fe.child(path, "datasetName"), name, "must not contain '/'"))
    return errs


def validate_quobyte_volume_source(source: Mapping[str, Any], path: str) -> list[FieldError]:
    """validateQuobyteVolumeSource: a registry of host:port pairs, a tenant of at most 64
    characters, a volume."""
    registry = str(source.get("registry") or "")
    detail = "must be a host:port pair or multiple pairs separated by commas"
    errs: list[FieldError] = []
    if not registry:
        errs.append(fe.required(fe.child(path, "registry"), detail))
    elif go_len(str(source.get("tenant") or "")) >= 65:
        errs.append(fe.required(fe.child(path, "tenant"), "must be a UUID and may not exceed a length of 64 characters"))
    else:
        errs.extend(fe.invalid(fe.child(path, "registry"), registry, detail) for pair in registry.split(",") if not is_host_port(pair))
    return errs + _required(source, path, "volume")


def is_host_port(text: str) -> bool:
    """Whether net.SplitHostPort accepts `text` (host:port, a host in brackets before the last colon)."""
    colon = text.rfind(":")
    if colon < 0:
        return False
    start, stop = 0, 0  # no bracket may come after these
    if text[0] == "[":
        end = text.find("]")
        if end < 0 or end + 1 != colon:
            return False
        start, stop = 1, end + 1
    elif ":" in text[:colon]:
        return False
    return "[" not in text[start:] and "]" not in text[stop:]


def validate_secret_ref_name(source: Mapping[str, Any], path: str) -> list[FieldError]:
    """A secretRef given must name its secret (validateCinderVolumeSource, validateStorageOSVolumeSource)."""
    ref = source.get("secretRef")
    return [fe.required(fe.child(path, "secretRef", "name"))] if ref is not None and not ref.get("name") else []


def validate_flex_volume_source(source: Mapping[str, Any], path: str) -> list[FieldError]:
    """validateFlexVolumeSource: a driver; options outside the kubernetes.io and k8s.io namespaces."""
    errs = _required(source, path, "driver")
    for key in sorted(source.get("options") or {}):  # upstream walks a Go map: any order
        namespace = key.split("/", 1)[0] if "/" in key else key
        if ("." + go_to_lower(namespace)).endswith((".kubernetes.io", ".k8s.io")):
            errs.append(fe.invalid(fe.key(fe.child(path, "options"), key), key, "kubernetes.io and k8s.io namespaces are reserved"))
    return errs


def validate_azure_disk(source: Mapping[str, Any], path: str, opts: PodValidationOptions) -> list[FieldError]:
    """validateAzureDisk: name and URI, caching mode and kind, the URI's form for the kind."""
    errs = _required(source, path, "diskName", "diskURI")
    uri, caching, kind = str(source.get("diskURI") or ""), source.get("cachingMode"), source.get("kind")
    if caching is not None and caching not in AZURE_CACHING_MODES:
        errs.append(fe.not_supported(fe.child(path, "cachingMode"), fe.named(caching, opts.release), AZURE_CACHING_MODES))
    if kind is not None and kind not in AZURE_DISK_KINDS:
        errs.append(fe.not_supported(fe.child(path, "kind"), fe.named(kind, opts.release), AZURE_DISK_KINDS))
    if kind == "Managed" and not uri.startswith("/subscriptions/"):
        managed = "/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}"
        errs.append(fe.not_supported(fe.child(path, "diskURI"), uri, (managed,)))
    if kind is not None and kind != "Managed" and not uri.startswith("https://"):
        blob = "https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"
        errs.append(fe.not_supported(fe.child(path, "diskURI"), uri, (blob,)))
    return errs


def validate_storage_os_volume_source(source: Mapping[str, Any], path: str) -> list[FieldError]:
    """validateStorageOSVolumeSource: a DNS-label volume name and namespace, a named secret."""
    name, namespace = str(source.get("volumeName") or ""), str(source.get("volumeNamespace") or "")
    errs = mv.validate_dns1123_label(name, fe.child(path, "volumeName")) if name else [fe.required(fe.child(path, "volumeName"))]
    if namespace:
        errs.extend(mv.validate_dns1123_label(namespace, fe.child(path, "volumeNamespace")))
    return errs + validate_secret_ref_name(source, path)


def _fields(*keys: str) -> Callable[[Mapping[str, Any], str], list[FieldError]]:
    """A validator that only requires `keys` (validateRBDVolumeSource, validateAzureFile, ...)."""
    return lambda source, path: _required(source, path, *keys)


Validator = Callable[[Mapping[str, Any], str, "PodValidationOptions"], list[FieldError]]


def _at(child: str, validate: Callable[[Mapping[str, Any], str], list[FieldError]]) -> Validator:
    """A source validator called on `path.child` (upstream's path, which may differ from the key)."""
    return lambda source, path, opts: validate(source, fe.child(path, child))


def _at_opts(child: str, validate: Validator) -> Validator:
    return lambda source, path, opts: validate(source, fe.child(path, child), opts)


# (key, the path of its "more than 1" error, validator) in validateVolumeSource's order.
SOURCE_VALIDATORS: Final[tuple[tuple[str, str, Validator], ...]] = (
    ("emptyDir", "emptyDir", validate_empty_dir),
    ("hostPath", "hostPath", _at_opts("hostPath", validate_host_path_volume_source)),
    ("gitRepo", "gitRepo", _at("gitRepo", validate_git_repo_volume_source)),
    ("gcePersistentDisk", "gcePersistentDisk", _at("persistentDisk", lambda s, p: _validate_disk(s, p, "pdName"))),
    ("awsElasticBlockStore", "awsElasticBlockStore", _at("awsElasticBlockStore", lambda s, p: _validate_disk(s, p, "volumeID"))),
    ("secret", "secret", _at_opts("secret", validate_secret_volume_source)),
    ("nfs", "nfs", _at("nfs", validate_nfs_volume_source)),
    ("iscsi", "iscsi", _at("iscsi", validate_iscsi_volume_source)),
    ("glusterfs", "glusterfs", _at("glusterfs", _fields("endpoints", "path"))),
    ("flocker", "flocker", _at("flocker", validate_flocker_volume_source)),
    ("persistentVolumeClaim", "persistentVolumeClaim", _at("persistentVolumeClaim", validate_persistent_claim_volume_source)),
    ("rbd", "rbd", _at("rbd", _fields("monitors", "image"))),
    ("cinder", "cinder", _at("cinder", lambda s, p: _required(s, p, "volumeID") + validate_secret_ref_name(s, p))),
    ("cephfs", "cephFS", _at("cephfs", _fields("monitors"))),
    ("quobyte", "quobyte", _at("quobyte", validate_quobyte_volume_source)),
    ("downwardAPI", "downwarAPI", _at_opts("downwardAPI", validate_downward_api_volume_source)),
    ("fc", "fc", _at_opts("fc", validate_fc_volume_source)),
    ("flexVolume", "flexVolume", _at("flexVolume", validate_flex_volume_source)),
    ("configMap", "configMap", _at_opts("configMap", validate_config_map_volume_source)),
    ("azureFile", "azureFile", _at("azureFile", _fields("secretName", "shareName"))),
    ("vsphereVolume", "vsphereVolume", _at("vsphereVolume", _fields("volumePath"))),
    ("photonPersistentDisk", "photonPersistentDisk", _at("photonPersistentDisk", _fields("pdID"))),
    ("portworxVolume", "portworxVolume", _at("portworxVolume", _fields("volumeID"))),
    ("azureDisk", "azureDisk", _at_opts("azureDisk", validate_azure_disk)),
    ("storageos", "storageos", _at("storageos", validate_storage_os_volume_source)),
    ("projected", "projected", _at_opts("projected", validate_projected_volume_source)),
    ("scaleIO", "scaleIO", _at("scaleIO", _fields("gateway", "system", "volumeName"))),
    ("csi", "csi", _at_opts("csi", validate_csi_volume_source)),
    ("ephemeral", "ephemeral", _at_opts("ephemeral", validate_ephemeral_volume_source)),
    ("image", "image", _at_opts("image", validate_image_volume_source)),
)


# --- mounts and devices ------------------------------------------------------------------------


def validate_volume_mounts(
    ctr: Mapping[str, Any], volumes: Mapping[str, Mapping[str, Any]], path: str, opts: PodValidationOptions
) -> list[FieldError]:
    """ValidateVolumeMounts: names of valid volumes, unique mount paths, neither shared with a
    volume device, descending sub-paths, the mount propagation and recursive read-only mode."""
    errs: list[FieldError] = []
    devices = {str(d.get("name") or ""): str(d.get("devicePath") or "") for d in ctr.get("volumeDevices") or []}
    mount_points: set[str] = set()
    for i, mount in enumerate(ctr.get("volumeMounts") or []):
        idx = fe.index(path, i)
        name, mount_path = str(mount.get("name") or ""), str(mount.get("mountPath") or "")
        if not name:
            errs.append(fe.required(fe.child(idx, "name")))
        if name not in volumes:
            errs.append(fe.not_found(fe.child(idx, "name"), name))
        if not mount_path:
            errs.append(fe.required(fe.child(idx, "mountPath")))
        if mount_path in mount_points:
            errs.append(fe.invalid(fe.child(idx, "mountPath"), mount_path, "must be unique"))
        mount_points.add(mount_path)
        sub_path, sub_path_expr = str(mount.get("subPath") or ""), str(mount.get("subPathExpr") or "")
        if opts.release == 32 and name in volumes and volumes[name].get("image") is not None:
            errs.extend(
                fe.invalid(fe.child(idx, key), value, "not allowed in image volume sources")
                for key, value in (("subPath", sub_path), ("subPathExpr", sub_path_expr))
                if value
            )
        if name in devices:
            errs.append(fe.invalid(fe.child(idx, "name"), name, "must not already exist in volumeDevices"))
        if mount_path in devices.values():
            errs.append(fe.invalid(fe.child(idx, "mountPath"), mount_path, "must not already exist as a path in volumeDevices"))
        # Upstream names these paths after the list, not the mount (`volumeMounts.subPath`).
        if sub_path:
            errs.extend(validate_local_descending_path(sub_path, fe.child(path, "subPath")))
        if sub_path_expr:
            if sub_path:
                errs.append(fe.invalid(fe.child(idx, "subPathExpr"), sub_path_expr, "subPathExpr and subPath are mutually exclusive"))
            errs.extend(validate_local_descending_path(sub_path_expr, fe.child(path, "subPathExpr")))
        if mount.get("mountPropagation") is not None:
            errs.extend(validate_mount_propagation(mount["mountPropagation"], ctr, fe.child(path, "mountPropagation"), opts.release))
        errs.extend(validate_mount_recursive_read_only(mount, fe.child(path, "recursiveReadOnly"), opts.release))
    return errs


def validate_mount_propagation(mode: str, ctr: Mapping[str, Any], path: str, release: int) -> list[FieldError]:
    """validateMountPropagation: a supported mode; Bidirectional only in a privileged container."""
    errs = [] if mode in MOUNT_PROPAGATIONS else [fe.not_supported(path, fe.named(mode, release), MOUNT_PROPAGATIONS)]
    if mode == "Bidirectional" and (ctr.get("securityContext") or {}).get("privileged") is not True:
        errs.append(fe.forbidden(path, "Bidirectional mount propagation is available only to privileged containers"))
    return errs


def validate_mount_recursive_read_only(mount: Mapping[str, Any], path: str, release: int) -> list[FieldError]:
    """validateMountRecursiveReadOnly: Enabled and IfPossible only on a read-only mount without
    propagation (None or unset)."""
    mode = mount.get("recursiveReadOnly")
    if mode is None or mode == "Disabled":
        return []
    if mode not in RECURSIVE_READ_ONLY:
        return [fe.not_supported(path, fe.named(mode, release), RECURSIVE_READ_ONLY)]
    errs: list[FieldError] = []
    if mount.get("readOnly") is not True:
        errs.append(fe.forbidden(path, "may only be specified when readOnly is true"))
    if mount.get("mountPropagation") not in (None, "None"):
        errs.append(fe.forbidden(path, "may only be specified when mountPropagation is None or not specified"))
    return errs


def validate_volume_devices(
    ctr: Mapping[str, Any], volumes: Mapping[str, Mapping[str, Any]], path: str
) -> list[FieldError]:
    """ValidateVolumeDevices: each device a valid PVC or ephemeral volume, unique name and path,
    the path without `..`, neither shared with a volume mount."""
    errs: list[FieldError] = []
    mounts = {str(m.get("name") or ""): str(m.get("mountPath") or "") for m in ctr.get("volumeMounts") or []}
    device_paths: set[str] = set()
    device_names: set[str] = set()
    for i, device in enumerate(ctr.get("volumeDevices") or []):
        idx = fe.index(path, i)
        name, device_path = str(device.get("name") or ""), str(device.get("devicePath") or "")
        source = volumes.get(name)
        if not name:
            errs.append(fe.required(fe.child(idx, "name")))
        if name in device_names:
            errs.append(fe.invalid(fe.child(idx, "name"), name, "must be unique"))
        if source is not None and source.get("persistentVolumeClaim") is None and source.get("ephemeral") is None:
            errs.append(
                fe.invalid(fe.child(idx, "name"), name, "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode")
            )
        if source is None:
            errs.append(fe.not_found(fe.child(idx, "name"), name))
        if not device_path:
            errs.append(fe.required(fe.child(idx, "devicePath")))
        if device_path in device_paths:
            errs.append(fe.invalid(fe.child(idx, "devicePath"), device_path, "must be unique"))
        if device_path and validate_path_no_backsteps(device_path, ""):
            errs.append(fe.invalid(fe.child(idx, "devicePath"), device_path, "can not contain backsteps ('..')"))
        else:
            device_paths.add(device_path)
        if name in mounts:
            errs.append(fe.invalid(fe.child(idx, "name"), name, "must not already exist in volumeMounts"))
        if device_path in mounts.values():
            errs.append(fe.invalid(fe.child(idx, "devicePath"), device_path, "must not already exist as a path in volumeMounts"))
        if name:
            device_names.add(name)
    return errs


# --- defaults and dropped fields ---------------------------------------------------------------


def encoded_resource_field_ref(ref: Any) -> None:
    """A ResourceFieldSelector as the stored object has it (in place): its divisor, a
    resource.Quantity struct, is written even when zero (`omitempty` leaves no struct out)."""
    if isinstance(ref, dict) and ref.get("divisor") is None:
        ref["divisor"] = "0"


def set_defaults_volume_source(volume: dict[str, Any], release: int) -> None:
    """The `core/v1` defaults inside a volume source (in place): SetDefaults_SecretVolumeSource,
    _ConfigMapVolumeSource, _DownwardAPIVolumeSource, _ProjectedVolumeSource (default mode 0644),
    _ServiceAccountTokenProjection (an hour), _ObjectFieldSelector (`v1`),
    _PersistentVolumeClaimSpec (Filesystem, the quantities rounded), SetDefaults_Volume's image
    pull policy (ImageVolume on, from 1.35: Always for `:latest`, else IfNotPresent), and the
    in-tree sources' `+default` tags (SetObjectDefaults_Job)."""
    for key in ("secret", "configMap", "downwardAPI", "projected"):
        source = volume.get(key)
        if isinstance(source, dict) and source.get("defaultMode") is None:
            source["defaultMode"] = DEFAULT_FILE_MODE
    files = list(((volume.get("downwardAPI") or {}).get("items")) or [])
    for projection in (volume.get("projected") or {}).get("sources") or []:
        files.extend((projection.get("downwardAPI") or {}).get("items") or [])
        token = projection.get("serviceAccountToken")
        if isinstance(token, dict) and token.get("expirationSeconds") is None:
            token["expirationSeconds"] = TOKEN_DEFAULT_EXPIRATION
    for item in files:
        field_ref = item.get("fieldRef")
        if isinstance(field_ref, dict) and not field_ref.get("apiVersion"):
            field_ref["apiVersion"] = "v1"
        encoded_resource_field_ref(item.get("resourceFieldRef"))
    claim = ((volume.get("ephemeral") or {}).get("volumeClaimTemplate") or {}).get("spec")
    if isinstance(claim, dict):
        claim.setdefault("volumeMode", "Filesystem")
        for key in ("limits", "requests"):
            set_defaults_resource_list((claim.get("resources") or {}).get(key))
    for key, defaults in IN_TREE_DEFAULTS.items():
        source = volume.get(key)
        if isinstance(source, dict):
            for name, value in defaults.items():
                # azureDisk's are pointers (only nil is unset), the others strings ("" is unset).
                if source.get(name) is None or (key != "azureDisk" and source[name] == ""):
                    source[name] = value
    image = volume.get("image")
    if release >= IMAGE_VOLUME_RELEASE and isinstance(image, dict) and not image.get("pullPolicy"):
        tag = parse_image_name(str(image.get("reference") or ""))
        image["pullPolicy"] = "Always" if tag == "latest" else "IfNotPresent"


def _projections(spec: Mapping[str, Any] | None, key: str) -> list[dict[str, Any]]:
    return [
        s
        for v in (spec or {}).get("volumes") or []
        for s in (v.get("projected") or {}).get("sources") or []
        if s.get(key) is not None
    ]


def drop_disabled_volume_fields(spec: dict[str, Any], old_spec: Mapping[str, Any] | None, release: int) -> None:
    """dropDisabledFields' volume part (in place), each unless the old template uses it:
    dropImageVolumes (before 1.35: the image volumes and their mounts),
    dropDisabledClusterTrustBundleProjection and dropDisabledPodCertificateProjection (before
    1.37); and the volume fields of alpha gates in 1.37: emptyDir's mode (EmptyDirVolumeMode)
    and the user ids (dropDisabledAtomicWriteVolumeUserFields)."""
    old_volumes = (old_spec or {}).get("volumes") or []
    volumes = spec.get("volumes") or []
    if release < IMAGE_VOLUME_RELEASE and not any(v.get("image") is not None for v in old_volumes):
        dropped = {v.get("name") for v in volumes if v.get("image") is not None}
        if dropped:
            _drop_volumes(spec, dropped)
    if release < PROJECTION_GATES_RELEASE:
        for key in ("clusterTrustBundle", "podCertificate"):
            if not _projections(old_spec, key):
                for projection in _projections(spec, key):
                    projection.pop(key, None)
    if release < 37 or not any((v.get("emptyDir") or {}).get("mode") is not None for v in old_volumes):
        for v in spec.get("volumes") or []:
            if isinstance(v.get("emptyDir"), dict):
                v["emptyDir"].pop("mode", None)
    if release < 37 or not any(holder.get(key) is not None for holder, key in _user_field_holders(old_spec)):
        for holder, key in _user_field_holders(spec):
            holder.pop(key, None)


def _first(holder: Mapping[str, Any], keys: tuple[str, ...]) -> tuple[str, Any]:
    """The first of `keys` set in `holder` (a Go switch over a union's pointers)."""
    return next(((k, holder[k]) for k in keys if holder.get(k) is not None), ("", None))


def _user_field_holders(spec: Mapping[str, Any] | None) -> list[tuple[dict[str, Any], str]]:
    """Where atomicWriteVolumeUserFieldsInUse looks and dropDisabledAtomicWriteVolumeUserFields
    clears: (object, key) of each volume's default user and each item's user."""
    holders: list[tuple[dict[str, Any], str]] = []

    def items(source: Mapping[str, Any]) -> None:
        holders.extend((item, "user") for item in source.get("items") or [])

    for volume in (spec or {}).get("volumes") or []:
        kind, source = _first(volume, ("secret", "configMap", "downwardAPI", "projected"))
        if source is None:
            continue
        holders.append((source, "defaultUser"))
        if kind != "projected":
            items(source)
            continue
        for projection in source.get("sources") or []:
            kind, inner = _first(projection, ("secret", "downwardAPI", "configMap", "serviceAccountToken", "clusterTrustBundle", "podCertificate"))
            if kind in ("secret", "downwardAPI", "configMap"):
                items(inner)
            elif inner is not None:
                holders.append((inner, "user"))
    return holders


def _drop_volumes(spec: dict[str, Any], names: set[Any]) -> None:
    """dropImageVolumes' removal: the image volumes, and every container's mounts of their names
    (an emptied list is dropped, as Go writes a nil slice)."""
    kept = [v for v in spec.get("volumes") or [] if v.get("image") is None]
    if kept:
        spec["volumes"] = kept
    else:
        spec.pop("volumes", None)
    for ctr, _ in visit_containers_with_path(spec, ""):
        if not isinstance(ctr, dict) or "volumeMounts" not in ctr:
            continue
        mounts = [m for m in ctr["volumeMounts"] or [] if m.get("name") not in names]
        if mounts:
            ctr["volumeMounts"] = mounts
        else:
            ctr.pop("volumeMounts")
