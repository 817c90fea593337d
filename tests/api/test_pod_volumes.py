"""Volumes, volume mounts and volume devices (jobmodel.api.pod_volumes) against the expectations of
upstream's tests (`pkg/apis/core/validation/validation_test.go`: TestValidateKeyToPath,
TestValidateNFSVolumeSource, TestValidateCSIVolumeSource, TestValidateVolumes,
TestValidateVolumeMounts, TestValidateMountPropagation, TestAlphaValidateVolumeDevices) and of
its code where the tests do not reach (release differences)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from jobmodel.api import field as fe
from jobmodel.api import pod_volumes as pv
from jobmodel.api.defaults import set_defaults_pod_spec
from jobmodel.api.pod_validation import PodValidationOptions, pod_validation_options

OPTS = PodValidationOptions()


def errors_of(vol: dict[str, Any], release: int = 37, old_spec: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    """(type, field) of ValidateVolumes([vol]) at path `field`, as upstream's test calls it."""
    opts = pod_validation_options(release, old_spec)
    errs, _ = pv.validate_volumes([{"name": "v", **vol}], "field", opts)
    return [(e.type, e.field) for e in errs]


# TestValidateKeyToPath: each bad item has exactly one error, of this type.
@pytest.mark.parametrize(
    ("item", "want"),
    [
        ({"key": "k", "path": "p"}, None),
        ({"key": "k", "path": "p/p/p/p"}, None),
        ({"key": "k", "path": "p/..p/p../p..p"}, None),
        ({"key": "k", "path": "p", "mode": 0o644}, None),
        ({"key": "", "path": "p"}, fe.REQUIRED),
        ({"key": "k", "path": ""}, fe.REQUIRED),
        ({"key": "k", "path": "..p"}, fe.INVALID),
        ({"key": "k", "path": "../p"}, fe.INVALID),
        ({"key": "k", "path": "p/../p"}, fe.INVALID),
        ({"key": "k", "path": "p/.."}, fe.INVALID),
        ({"key": "k", "path": "p", "mode": 0o1000}, fe.INVALID),
        ({"key": "k", "path": "p", "mode": -1}, fe.INVALID),
    ],
)
def test_validate_key_to_path(item: dict[str, Any], want: str | None) -> None:
    errs = pv.validate_key_to_path(item, "field")
    assert [e.type for e in errs] == ([] if want is None else [want])


def test_nfs_server_and_absolute_path_required() -> None:
    # TestValidateNFSVolumeSource; an empty path is also not absolute (validateNFSVolumeSource).
    assert errors_of({"nfs": {"server": "", "path": "/tmp"}}) == [(fe.REQUIRED, "field[0].nfs.server")]
    assert errors_of({"nfs": {"server": "s", "path": ""}}) == [
        (fe.REQUIRED, "field[0].nfs.path"),
        (fe.INVALID, "field[0].nfs.path"),
    ]
    assert errors_of({"nfs": {"server": "s", "path": "tmp"}}) == [(fe.INVALID, "field[0].nfs.path")]


@pytest.mark.parametrize(
    ("driver", "want"),
    [
        ("test-driver", []),
        ("io.kubernetes.storage.csi.flex", []),
        ("2io.kubernetes.storage-csi.flex", []),
        ("a", []),
        ("io_kubernetes_storage_csi_flex", [fe.INVALID]),
        ("comgooglestoragecsigcepd/", [fe.INVALID]),
        ("g" * 65, [fe.TOO_LONG]),  # a subdomain's labels have no length limit of their own
    ],
)
def test_csi_driver_name(driver: str, want: list[str]) -> None:
    # TestValidateCSIVolumeSource (its first error's type and field).
    errs = errors_of({"csi": {"driver": driver}})
    assert [t for t, _ in errs] == want
    assert all(f == "field[0].csi.driver" for _, f in errs)


def test_csi_empty_driver_is_also_checked_as_a_subdomain_up_to_1_34() -> None:
    # ValidateCSIDriverName returns after Required from 1.35.
    assert errors_of({"csi": {"driver": ""}}, release=34) == [
        (fe.REQUIRED, "field[0].csi.driver"),
        (fe.INVALID, "field[0].csi.driver"),
    ]
    assert errors_of({"csi": {"driver": ""}}, release=35) == [(fe.REQUIRED, "field[0].csi.driver")]


def test_csi_node_publish_secret_errors_are_named_on_csi_name() -> None:
    # validateCSIVolumeSource: Required on nodePublishSecretRef.name, the format on `csi.name`.
    assert errors_of({"csi": {"driver": "d", "nodePublishSecretRef": {}}}) == [
        (fe.REQUIRED, "field[0].csi.nodePublishSecretRef.name")
    ]
    assert errors_of({"csi": {"driver": "d", "nodePublishSecretRef": {"name": "Bad_S"}}}) == [
        (fe.INVALID, "field[0].csi.name")
    ]


# TestValidateVolumes, the cases of the sources modelled (field paths under `field[0]`).
@pytest.mark.parametrize(
    ("vol", "want"),
    [
        ({"emptyDir": {}}, []),
        ({"name": ""}, None),  # placeholder replaced below
        ({"hostPath": {"path": "/mnt/path", "type": ""}, "emptyDir": {}}, [(fe.FORBIDDEN, "field[0].hostPath")]),
        ({"hostPath": {"path": "/mnt/path", "type": "invalid"}}, [(fe.NOT_SUPPORTED, "field[0].hostPath.type")]),
        ({"hostPath": {"path": "/mnt/path/..", "type": ""}}, [(fe.INVALID, "field[0].hostPath.path")]),
        ({"gitRepo": {"repository": "my-repo", "directory": "../dots/bar"}}, [(fe.INVALID, "field[0].gitRepo.directory")]),
        ({"gitRepo": {"repository": "my-repo", "directory": "dots/../bar"}}, [(fe.INVALID, "field[0].gitRepo.directory")]),
        ({"gitRepo": {"repository": "my-repo", "directory": "/abstarget"}}, [(fe.INVALID, "field[0].gitRepo.directory")]),
        ({"secret": {"secretName": "my-secret", "items": [{"key": "filename"}]}}, [(fe.REQUIRED, "field[0].secret.items[0].path")]),
        ({"secret": {"secretName": "s", "items": [{"key": "k", "path": "../foo"}]}}, [(fe.INVALID, "field[0].secret.items[0].path")]),
        ({"secret": {"secretName": "s", "defaultMode": 0o1000}}, [(fe.INVALID, "field[0].secret.defaultMode")]),
        ({"secret": {"secretName": "s", "defaultMode": -1}}, [(fe.INVALID, "field[0].secret.defaultMode")]),
        ({"configMap": {"name": "c", "items": [{"key": "k", "path": "..foo"}]}}, [(fe.INVALID, "field[0].configMap.items[0].path")]),
        ({"configMap": {"name": "c", "defaultMode": 0o1000}}, [(fe.INVALID, "field[0].configMap.defaultMode")]),
        ({"downwardAPI": {"items": [{"path": "labels", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}}]}}, []),
        ({"downwardAPI": {"items": [{"path": "p", "mode": 0o1000, "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}}]}},
         [(fe.INVALID, "field[0].downwardAPI.mode")]),
        ({"downwardAPI": {"items": [{"path": "", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}}]}},
         [(fe.REQUIRED, "field[0].downwardAPI.path")]),
        ({"downwardAPI": {"items": [{"path": "/absolutepath", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}}]}},
         [(fe.INVALID, "field[0].downwardAPI.path")]),
        ({"downwardAPI": {"items": [{"path": "..badFileName", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"}}]}},
         [(fe.INVALID, "field[0].downwardAPI.path")]),
        ({"downwardAPI": {"items": [{"path": "test", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.labels"},
                                     "resourceFieldRef": {"containerName": "c", "resource": "requests.memory"}}]}},
         [(fe.INVALID, "field[0].downwardAPI")]),
        ({"downwardAPI": {"defaultMode": -1}}, [(fe.INVALID, "field[0].downwardAPI.defaultMode")]),
        ({"projected": {"sources": [{"secret": {"name": "foo"}, "configMap": {"name": "bar"}}]}}, [(fe.FORBIDDEN, "field[0].projected.sources[0]")]),
        ({"projected": {"sources": [{"secret": {"name": ""}}, {"secret": {"name": ""}, "downwardAPI": {}}]}},
         [(fe.REQUIRED, "field[0].projected.sources[0].secret.name"), (fe.REQUIRED, "field[0].projected.sources[1].secret.name"),
          (fe.FORBIDDEN, "field[0].projected.sources[1]")]),
        ({"projected": {"defaultMode": 0o1000}}, [(fe.INVALID, "field[0].projected.defaultMode")]),
        ({"image": {"reference": "quay.io/my/artifact:v1", "pullPolicy": "IfNotPresent"}}, []),
        ({"image": {"reference": "", "pullPolicy": "IfNotPresent"}}, [(fe.REQUIRED, "field[0].image.reference")]),
        ({"image": {"reference": "x", "pullPolicy": "wrong"}}, [(fe.NOT_SUPPORTED, "field[0].image.pullPolicy")]),
    ],
)  # fmt: skip
def test_validate_volumes(vol: dict[str, Any], want: list[tuple[str, str]] | None) -> None:
    if want is None:  # "zero-length name": a source given, the name Required
        errs, _ = pv.validate_volumes([{"name": "", "emptyDir": {}}], "field", OPTS)
        assert [(e.type, e.field) for e in errs] == [(fe.REQUIRED, "field[0].name")]
        return
    assert errors_of(vol) == want


def test_valid_volumes_are_returned_by_name() -> None:
    errs, valid = pv.validate_volumes(
        [{"name": "a", "emptyDir": {}}, {"name": "a", "emptyDir": {}}, {"name": "b", "secret": {}}], "field", OPTS
    )
    assert [(e.type, e.field) for e in errs] == [(fe.DUPLICATE, "field[1].name"), (fe.REQUIRED, "field[2].secret.secretName")]
    assert list(valid) == ["a"]


def test_the_second_source_in_upstream_order_is_forbidden_with_its_path_slips() -> None:
    # validateVolumeSource: emptyDir counts first whatever the JSON order; cephfs is named `cephFS`
    # and downwardAPI `downwarAPI` in the "more than 1" error.
    assert errors_of({"cephfs": {"monitors": ["m"]}, "emptyDir": {}}) == [(fe.FORBIDDEN, "field[0].cephFS")]
    assert errors_of({"downwardAPI": {}, "secret": {"secretName": "s"}}) == [(fe.FORBIDDEN, "field[0].downwarAPI")]
    assert errors_of({}) == [(fe.REQUIRED, "field[0]")]


def test_empty_dir_size_limit_and_mode() -> None:
    assert errors_of({"emptyDir": {"sizeLimit": "-1"}}) == [(fe.FORBIDDEN, "field[0].emptyDir.sizeLimit")]
    assert errors_of({"emptyDir": {"sizeLimit": "0"}}) == []
    # The mode (EmptyDirVolumeMode) is validated from 1.37, up to 01777.
    assert errors_of({"emptyDir": {"mode": 0o1777}}) == []
    assert errors_of({"emptyDir": {"mode": 0o2000}}) == [(fe.INVALID, "field[0].emptyDir.mode")]
    assert errors_of({"emptyDir": {"mode": 0o2000}}, release=36) == []


def test_service_account_token_expiry_and_path() -> None:
    # validateProjectionSources: an unset expiry is 0 up to 1.36 (too short), Required from 1.37;
    # the token's path errors are named on the projected volume, not the source.
    source = {"projected": {"sources": [{"serviceAccountToken": {"path": "token"}}]}}
    assert errors_of(source, release=36) == [(fe.INVALID, "field[0].projected.sources[0].serviceAccountToken.expirationSeconds")]
    assert errors_of(source, release=37) == [(fe.REQUIRED, "field[0].projected.sources[0].serviceAccountToken.expirationSeconds")]
    too_long = {"projected": {"sources": [{"serviceAccountToken": {"path": "/abs", "expirationSeconds": 2**32 + 1}}]}}
    assert errors_of(too_long) == [
        (fe.INVALID, "field[0].projected.sources[0].serviceAccountToken.expirationSeconds"),
        (fe.INVALID, "field[0].projected.path"),
    ]
    # An old template with a non-local token path lets the new one keep it (hasNonLocalProjectedTokenPath).
    assert errors_of(too_long, old_spec={"volumes": [{"name": "v", **too_long}]}) == [
        (fe.INVALID, "field[0].projected.sources[0].serviceAccountToken.expirationSeconds")
    ]


def test_projected_paths_are_unique_across_sources() -> None:
    vol = {"projected": {"sources": [{"secret": {"name": "s", "items": [{"key": "k", "path": "p"}]}},
                                     {"configMap": {"name": "c", "items": [{"key": "k", "path": "p"}]}}]}}  # fmt: skip
    errs, _ = pv.validate_volumes([{"name": "v", **vol}], "field", OPTS)
    assert [(e.type, e.field, e.bad_value) for e in errs] == [(fe.INVALID, "field[0].projected", "c")]


def test_image_reference_required_in_a_template_from_1_37_only() -> None:
    # validateImageVolumeSource: up to 1.36 only a pod (ResourceIsPod) needs a reference; from 1.37
    # every one does, unless the old template already has an empty one.
    vol = {"image": {"pullPolicy": "Always"}}
    assert errors_of(vol, release=36) == []
    assert errors_of(vol, release=37) == [(fe.REQUIRED, "field[0].image.reference")]
    assert errors_of(vol, release=37, old_spec={"volumes": [{"name": "old", **vol}]}) == []


def test_ephemeral_claim_template() -> None:
    assert errors_of({"ephemeral": {}}) == [(fe.REQUIRED, "field[0].ephemeral.volumeClaimTemplate")]
    spec = {"accessModes": ["ReadWriteOncePod", "ReadOnlyMany"], "resources": {"requests": {"storage": "0"}}}
    assert errors_of({"ephemeral": {"volumeClaimTemplate": {"spec": spec}}}) == [
        (fe.FORBIDDEN, "field[0].ephemeral.volumeClaimTemplate.spec.accessModes"),
        (fe.INVALID, "field[0].ephemeral.volumeClaimTemplate.spec.resources[storage]"),
    ]
    assert errors_of({"ephemeral": {"volumeClaimTemplate": {"spec": {}}}}) == [
        (fe.REQUIRED, "field[0].ephemeral.volumeClaimTemplate.spec.accessModes"),
        (fe.REQUIRED, "field[0].ephemeral.volumeClaimTemplate.spec.resources[storage]"),
    ]


VOLUMES: list[Mapping[str, Any]] = [
    {"name": "abc", "persistentVolumeClaim": {"claimName": "testclaim1"}},
    {"name": "abc-123", "persistentVolumeClaim": {"claimName": "testclaim2"}},
    {"name": "123", "hostPath": {"path": "/foo/baz", "type": ""}},
    {"name": "image-volume", "image": {"reference": "quay.io/my/artifact:v1", "pullPolicy": "IfNotPresent"}},
]


def mount_errors(ctr: dict[str, Any], release: int = 37) -> list[tuple[str, str]]:
    opts = pod_validation_options(release, None)
    errs, valid = pv.validate_volumes(VOLUMES, "vols", opts)
    assert not errs
    found = pv.validate_volume_mounts(ctr, valid, "field", opts) + pv.validate_volume_devices(ctr, valid, "devices")
    return [(e.type, e.field) for e in found]


def test_volume_mounts_valid() -> None:
    # TestValidateVolumeMounts' success case (a part), beside valid devices of other names and paths.
    mounts = [
        {"name": "abc", "mountPath": "/foo"}, {"name": "abc-123", "mountPath": "/bad", "subPath": "..baz"},
        {"name": "123", "mountPath": "/rro-disabled-2", "recursiveReadOnly": "Disabled"},
        {"name": "123", "mountPath": "/rro-ifpossible", "readOnly": True, "recursiveReadOnly": "IfPossible"},
        {"name": "123", "mountPath": "/rro-enabled-2", "readOnly": True, "recursiveReadOnly": "Enabled", "mountPropagation": "None"},
        {"name": "image-volume", "mountPath": "/image-volume-1", "subPath": "foo"},
    ]  # fmt: skip
    assert mount_errors({"volumeMounts": mounts}) == []


@pytest.mark.parametrize(
    ("mounts", "want"),
    [
        ([{"name": "", "mountPath": "/foo"}], [(fe.REQUIRED, "field[0].name"), (fe.NOT_FOUND, "field[0].name")]),
        ([{"name": "abc", "mountPath": ""}], [(fe.REQUIRED, "field[0].mountPath")]),
        ([{"name": "abc", "mountPath": "/bar", "subPath": "./.."}], [(fe.INVALID, "field.subPath")]),
        ([{"name": "abc", "mountPath": "/bar", "mountPropagation": "Bidirectional"}], [(fe.FORBIDDEN, "field.mountPropagation")]),
        ([{"name": "abc", "mountPath": "/bar", "mountPropagation": "invalid"}], [(fe.NOT_SUPPORTED, "field.mountPropagation")]),
        ([{"name": "123", "mountPath": "/rro-bad1", "recursiveReadOnly": "Enabled"}], [(fe.FORBIDDEN, "field.recursiveReadOnly")]),
        ([{"name": "123", "mountPath": "/rro-bad2", "readOnly": True, "recursiveReadOnly": "Enabled", "mountPropagation": "HostToContainer"}],
         [(fe.FORBIDDEN, "field.recursiveReadOnly")]),
        ([{"name": "123", "mountPath": "/rro-bad1", "recursiveReadOnly": "IfPossible"}], [(fe.FORBIDDEN, "field.recursiveReadOnly")]),
        ([{"name": "123", "mountPath": "/x", "recursiveReadOnly": "Sometimes"}], [(fe.NOT_SUPPORTED, "field.recursiveReadOnly")]),
        ([{"name": "image-volume", "mountPath": "/image-volume-err-1", "subPath": "/foo"}], [(fe.INVALID, "field.subPath")]),
    ],
)  # fmt: skip
def test_volume_mount_errors(mounts: list[dict[str, Any]], want: list[tuple[str, str]]) -> None:
    assert mount_errors({"volumeMounts": mounts}) == want


def test_bidirectional_propagation_needs_a_privileged_container() -> None:
    # TestValidateMountPropagation.
    mount = {"name": "abc", "mountPath": "/foo", "mountPropagation": "Bidirectional"}
    assert mount_errors({"volumeMounts": [mount], "securityContext": {"privileged": True}}) == []
    assert mount_errors({"volumeMounts": [mount], "securityContext": {"privileged": False}}) == [(fe.FORBIDDEN, "field.mountPropagation")]
    hosted = {**mount, "mountPropagation": "HostToContainer"}
    assert mount_errors({"volumeMounts": [hosted]}) == []


def test_image_volume_sub_paths_refused_in_1_32_only() -> None:
    mount = {"name": "image-volume", "mountPath": "/i", "subPath": "foo"}
    assert mount_errors({"volumeMounts": [mount]}, release=32) == [(fe.INVALID, "field[0].subPath")]
    assert mount_errors({"volumeMounts": [mount]}, release=33) == []


@pytest.mark.parametrize(
    ("devices", "want"),
    [
        ([{"name": "abc", "devicePath": "/foo"}, {"name": "abc-123", "devicePath": "/usr/share/test"}], []),
        ([{"name": "", "devicePath": "/foo"}], [(fe.REQUIRED, "devices[0].name"), (fe.NOT_FOUND, "devices[0].name")]),
        ([{"name": "abc", "devicePath": "/foo"}, {"name": "abc", "devicePath": "/foo/bar"}], [(fe.INVALID, "devices[1].name")]),
        ([{"name": "not-found", "devicePath": "/usr/share/test"}], [(fe.NOT_FOUND, "devices[0].name")]),
        ([{"name": "123", "devicePath": "/usr/share/test"}], [(fe.INVALID, "devices[0].name")]),
        ([{"name": "abc", "devicePath": ""}], [(fe.REQUIRED, "devices[0].devicePath")]),
        ([{"name": "abc", "devicePath": "/foo"}, {"name": "abc-123", "devicePath": "/foo"}], [(fe.INVALID, "devices[1].devicePath")]),
        ([{"name": "abc", "devicePath": "/baz/../"}], [(fe.INVALID, "devices[0].devicePath")]),
    ],
)  # fmt: skip
def test_volume_devices(devices: list[dict[str, Any]], want: list[tuple[str, str]]) -> None:
    # TestAlphaValidateVolumeDevices (without mounts).
    assert mount_errors({"volumeDevices": devices}) == want


def test_mounts_and_devices_may_not_share_names_or_paths() -> None:
    ctr = {"volumeMounts": [{"name": "abc", "mountPath": "/this/path/exists"}], "volumeDevices": [{"name": "abc", "devicePath": "/this/path/exists"}]}
    assert mount_errors(ctr) == [
        (fe.INVALID, "field[0].name"),
        (fe.INVALID, "field[0].mountPath"),
        (fe.INVALID, "devices[0].name"),
        (fe.INVALID, "devices[0].devicePath"),
    ]


def test_volume_source_defaults() -> None:
    # SetDefaults_SecretVolumeSource, _ConfigMapVolumeSource, _DownwardAPIVolumeSource,
    # _ProjectedVolumeSource (0644), _ServiceAccountTokenProjection (an hour), _ObjectFieldSelector,
    # _PersistentVolumeClaimSpec; the image pull policy from 1.35 (ImageVolume).
    volumes = [
        {"name": "s", "secret": {"secretName": "s"}},
        {"name": "d", "downwardAPI": {"items": [{"path": "p", "fieldRef": {"fieldPath": "metadata.name"}}]}},
        {"name": "p", "projected": {"sources": [{"serviceAccountToken": {"path": "t"}}]}},
        {"name": "e", "ephemeral": {"volumeClaimTemplate": {"spec": {}}}},
        {"name": "i", "image": {"reference": "busybox"}},
        {"name": "j", "image": {"reference": "busybox:1.36"}},
    ]
    out = set_defaults_pod_spec({"volumes": volumes}, release=35)["volumes"]
    assert out[0]["secret"]["defaultMode"] == 0o644
    assert out[1]["downwardAPI"] == {"defaultMode": 0o644, "items": [{"path": "p", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.name"}}]}
    assert out[2]["projected"] == {"defaultMode": 0o644, "sources": [{"serviceAccountToken": {"path": "t", "expirationSeconds": 3600}}]}
    assert out[3]["ephemeral"]["volumeClaimTemplate"]["spec"] == {"volumeMode": "Filesystem"}
    assert [v["image"]["pullPolicy"] for v in out[4:]] == ["Always", "IfNotPresent"]
    assert "pullPolicy" not in set_defaults_pod_spec({"volumes": volumes}, release=34)["volumes"][4]["image"]


def test_image_volumes_dropped_before_1_35_unless_in_use() -> None:
    # dropImageVolumes: the image volumes and the mounts of their names, not other volumes.
    def spec() -> dict[str, Any]:
        return {
            "volumes": [{"name": "data", "emptyDir": {}}, {"name": "img", "image": {"reference": "busybox"}}],
            "containers": [{"name": "c", "volumeMounts": [{"name": "img", "mountPath": "/i"}]}],
        }

    dropped = spec()
    pv.drop_disabled_volume_fields(dropped, None, 34)
    assert dropped == {"volumes": [{"name": "data", "emptyDir": {}}], "containers": [{"name": "c"}]}
    kept = spec()
    pv.drop_disabled_volume_fields(kept, spec(), 34)
    assert kept == spec()
    at_35 = spec()
    pv.drop_disabled_volume_fields(at_35, None, 35)
    assert at_35 == spec()


def test_gated_projections_and_empty_dir_mode_dropped() -> None:
    def spec() -> dict[str, Any]:
        return {
            "volumes": [
                {"name": "p", "projected": {"sources": [{"clusterTrustBundle": {"name": "b", "path": "p"}}]}},
                {"name": "e", "emptyDir": {"mode": 0o700}},
            ]
        }

    at_36 = spec()
    pv.drop_disabled_volume_fields(at_36, None, 36)
    assert at_36 == {"volumes": [{"name": "p", "projected": {"sources": [{}]}}, {"name": "e", "emptyDir": {}}]}
    at_37 = spec()
    pv.drop_disabled_volume_fields(at_37, None, 37)
    assert at_37["volumes"][0] == spec()["volumes"][0]
    assert at_37["volumes"][1] == {"name": "e", "emptyDir": {}}
    in_use = spec()
    pv.drop_disabled_volume_fields(in_use, spec(), 37)
    assert in_use == spec()


# TestValidateVolumes' in-tree cases, and their validators' code where the tests do not reach.
@pytest.mark.parametrize(
    ("vol", "want"),
    [
        ({"iscsi": {"targetPortal": "127.0.0.1", "iqn": "iqn.2015-02.example.com:test", "lun": 1}}, []),
        ({"iscsi": {"targetPortal": "127.0.0.1", "iqn": "eui.0123456789ABCDEF", "lun": 1}}, []),
        ({"iscsi": {"targetPortal": "127.0.0.1", "iqn": "naa.62004567BA64678D0123456789ABCDEF", "lun": 1}}, []),
        ({"iscsi": {"targetPortal": "", "iqn": "iqn.2015-02.example.com:test", "lun": 1}}, [(fe.REQUIRED, "field[0].iscsi.targetPortal")]),
        ({"iscsi": {"targetPortal": "127.0.0.1", "iqn": "", "lun": 1}}, [(fe.REQUIRED, "field[0].iscsi.iqn")]),
        ({"iscsi": {"targetPortal": "127.0.0.1", "iqn": "iqn.2015-02.example.com", "lun": 1}}, [(fe.INVALID, "field[0].iscsi.iqn")]),
        ({"iscsi": {"targetPortal": "127.0.0.1", "iqn": "eui.0123456789ABCDEFGHIJ", "lun": 1}}, [(fe.INVALID, "field[0].iscsi.iqn")]),
        ({"iscsi": {"targetPortal": "127.0.0.1", "iqn": "naa.62004567BA_4-78D.123456789ABCDEF", "lun": 1}}, [(fe.INVALID, "field[0].iscsi.iqn")]),
        ({"iscsi": {"targetPortal": "127.0.0.1", "iqn": "iqn.2015-02.example.com:test", "lun": 1, "initiatorName": "2015-02.example.com:init"}},
         [(fe.INVALID, "field[0].iscsi.initiatorname")]),
        ({"iscsi": {"targetPortal": "127.0.0.1", "iqn": "iqn.2015-02.example.com:test", "lun": 1, "chapAuthDiscovery": True}},
         [(fe.REQUIRED, "field[0].iscsi.secretRef")]),
        ({"iscsi": {"targetPortal": "127.0.0.1", "iqn": "iqn.2015-02.example.com:test", "lun": 256}}, [(fe.INVALID, "field[0].iscsi.lun")]),
        ({"gcePersistentDisk": {"pdName": "", "partition": 256}}, [(fe.REQUIRED, "field[0].persistentDisk.pdName"), (fe.INVALID, "field[0].persistentDisk.partition")]),
        ({"awsElasticBlockStore": {"volumeID": "v", "partition": -1}}, [(fe.INVALID, "field[0].awsElasticBlockStore.partition")]),
        ({"rbd": {"monitors": ["m"], "image": ""}}, [(fe.REQUIRED, "field[0].rbd.image")]),
        ({"rbd": {"monitors": [], "image": "i"}}, [(fe.REQUIRED, "field[0].rbd.monitors")]),
        ({"cinder": {"volumeID": "v", "secretRef": {}}}, [(fe.REQUIRED, "field[0].cinder.secretRef.name")]),
        ({"cephfs": {"monitors": []}}, [(fe.REQUIRED, "field[0].cephfs.monitors")]),
        ({"glusterfs": {"endpoints": "", "path": "p"}}, [(fe.REQUIRED, "field[0].glusterfs.endpoints")]),
        ({"flocker": {"datasetName": "a", "datasetUUID": "u"}}, [(fe.INVALID, "field[0].flocker")]),
        ({"flocker": {}}, [(fe.REQUIRED, "field[0].flocker")]),
        ({"flocker": {"datasetName": "a/b"}}, [(fe.INVALID, "field[0].flocker.datasetName")]),
        ({"fc": {"targetWWNs": ["some_wwn"], "lun": 1}}, []),
        ({"fc": {"wwids": ["some_wwid"]}}, []),
        ({"fc": {"targetWWNs": [], "wwids": []}}, [(fe.REQUIRED, "field[0].fc.targetWWNs")]),
        ({"fc": {"targetWWNs": ["w"], "wwids": ["i"], "lun": 1}}, [(fe.INVALID, "field[0].fc.targetWWNs")]),
        ({"fc": {"targetWWNs": ["w"]}}, [(fe.REQUIRED, "field[0].fc.lun")]),
        ({"fc": {"targetWWNs": ["w"], "lun": 256}}, [(fe.INVALID, "field[0].fc.lun")]),
        ({"flexVolume": {"driver": "kubernetes.io/blue", "options": {"myns.io/foo": "bar"}}}, []),
        ({"flexVolume": {"driver": "kubernetes.io/blue", "options": {"kubernetes.io/foo": "bar"}}}, [(fe.INVALID, "field[0].flexVolume.options[kubernetes.io/foo]")]),
        ({"flexVolume": {"driver": "kubernetes.io/blue", "options": {"Foo.K8S.io/x": "bar"}}}, [(fe.INVALID, "field[0].flexVolume.options[Foo.K8S.io/x]")]),
        ({"azureFile": {"secretName": "", "shareName": "s"}}, [(fe.REQUIRED, "field[0].azureFile.secretName")]),
        ({"azureDisk": {"diskName": "d", "diskURI": "https://blob/vhds/bar.vhd"}}, []),
        ({"azureDisk": {"diskName": "d", "diskURI": "https://x", "kind": "Managed"}}, [(fe.NOT_SUPPORTED, "field[0].azureDisk.diskURI")]),
        ({"azureDisk": {"diskName": "d", "diskURI": "/subscriptions/x", "kind": "Shared", "cachingMode": "Bogus"}},
         [(fe.NOT_SUPPORTED, "field[0].azureDisk.cachingMode"), (fe.NOT_SUPPORTED, "field[0].azureDisk.diskURI")]),
        ({"vsphereVolume": {"volumePath": ""}}, [(fe.REQUIRED, "field[0].vsphereVolume.volumePath")]),
        ({"photonPersistentDisk": {"pdID": ""}}, [(fe.REQUIRED, "field[0].photonPersistentDisk.pdID")]),
        ({"portworxVolume": {"volumeID": ""}}, [(fe.REQUIRED, "field[0].portworxVolume.volumeID")]),
        ({"scaleIO": {"gateway": "g", "system": "", "volumeName": "v", "secretRef": {"name": "s"}}}, [(fe.REQUIRED, "field[0].scaleIO.system")]),
        ({"storageos": {"volumeName": "Bad_V", "volumeNamespace": "ns", "secretRef": {}}},
         [(fe.INVALID, "field[0].storageos.volumeName"), (fe.REQUIRED, "field[0].storageos.secretRef.name")]),
        ({"quobyte": {"registry": "host:1234,[::1]:80", "volume": "v"}}, []),
        ({"quobyte": {"registry": "host", "volume": ""}}, [(fe.INVALID, "field[0].quobyte.registry"), (fe.REQUIRED, "field[0].quobyte.volume")]),
        ({"quobyte": {"registry": "", "volume": "v"}}, [(fe.REQUIRED, "field[0].quobyte.registry")]),
        ({"quobyte": {"registry": "h:1", "volume": "v", "tenant": "t" * 65}}, [(fe.REQUIRED, "field[0].quobyte.tenant")]),
        # validateQuobyteVolumeSource's len(quobyte.Tenant) >= 65 counts bytes: 40 `é` are 80.
        ({"quobyte": {"registry": "h:1", "volume": "v", "tenant": "\u00e9" * 40}}, [(fe.REQUIRED, "field[0].quobyte.tenant")]),
        ({"quobyte": {"registry": "h:1", "volume": "v", "tenant": "\u00e9" * 32}}, []),
    ],
)  # fmt: skip
def test_in_tree_sources(vol: dict[str, Any], want: list[tuple[str, str]]) -> None:
    assert errors_of(vol) == want


def test_iscsi_initiator_name_length_with_the_volume_name() -> None:
    # validateVolumeSource: `<volume name>:<targetPortal>` over 64 characters with an initiator.
    portal = "p" * 63  # "v:" and 63 characters: 65
    vol = {"iscsi": {"targetPortal": portal, "iqn": "iqn.2015-02.example.com:test", "lun": 1, "initiatorName": "iqn.2015-02.example.com:init"}}
    assert errors_of(vol) == [(fe.INVALID, "field[0].name")]
    assert errors_of({"iscsi": {**vol["iscsi"], "targetPortal": "p" * 60}}) == []
    # len(volName+":"+TargetPortal) is bytes (validation.go:619): "v:" and 40 `é` are 82.
    assert errors_of({"iscsi": {**vol["iscsi"], "targetPortal": "\u00e9" * 40}}) == [(fe.INVALID, "field[0].name")]
    assert errors_of({"iscsi": {**vol["iscsi"], "targetPortal": "\u00e9" * 31}}) == []


@pytest.mark.parametrize(
    ("text", "ok"),
    [("h:1", True), ("[::1]:80", True), (":80", True), ("h", False), ("a:b:c", False), ("[::1]", False), ("[x]y:1", False), ("h]:1", False)],
)
def test_is_host_port(text: str, ok: bool) -> None:
    # net.SplitHostPort's acceptance.
    assert pv.is_host_port(text) is ok


@pytest.mark.parametrize(
    ("bundle", "want"),
    [
        ({"name": "foo", "path": "p"}, []),
        ({"name": "example.com:signer:foo", "path": "p"}, []),
        ({"signerName": "example.com/signer", "labelSelector": {"matchLabels": {"a": "b"}}, "path": "p"}, []),
        ({"path": "p"}, [(fe.REQUIRED, "f.sources[0].clusterTrustBundle")]),
        ({"name": "", "path": "p"}, [(fe.REQUIRED, "f.sources[0].clusterTrustBundle.name"), (fe.INVALID, "f.sources[0].clusterTrustBundle.name")]),
        ({"name": "example.com:signer:Foo", "path": "p"}, [(fe.INVALID, "f.sources[0].clusterTrustBundle.name")]),
        ({"name": "foo", "labelSelector": {}, "path": "p"}, [(fe.INVALID, "f.sources[0].clusterTrustBundle.labelSelector")]),
        ({"signerName": "nodomain/x", "path": ""},
         [(fe.INVALID, "f.sources[0].clusterTrustBundle.signerName"), (fe.REQUIRED, "f.sources[0].clusterTrustBundle.path")]),
        ({"signerName": "a/b/c", "path": "p"}, [(fe.INVALID, "f.sources[0].clusterTrustBundle.signerName")]),
    ],
)  # fmt: skip
def test_cluster_trust_bundle_projection(bundle: dict[str, Any], want: list[tuple[str, str]]) -> None:
    # TestValidateProjectedVolume's clusterTrustBundle cases and validateProjectionSources.
    errs = pv.validate_projection_sources({"sources": [{"clusterTrustBundle": bundle}]}, "f", OPTS)
    assert [(e.type, e.field) for e in errs] == want


def test_signer_name_label_errors_quote_as_go() -> None:
    """ValidateSignerName's "validating label %q": strconv.Quote, not JSON."""
    errs = pv.validate_signer_name("f", "a.b/é") + pv.validate_signer_name("f", "example.com/a\x7f")
    assert [e.detail.split(":")[0] for e in errs] == ['validating label "é"', 'validating label "a\\x7f"']


def test_signer_domain_length_counts_bytes() -> None:
    """ValidateSignerName's len(segments[0]) > 253 (`names.go`) is bytes: a domain of 130 `é` and
    `.com` (264 bytes, 134 characters) is too long, besides its first label's errors (too long,
    not matching)."""
    errs = pv.validate_signer_name("f", "\u00e9" * 130 + ".com/s")
    assert [e.type for e in errs] == [fe.TOO_LONG, fe.INVALID, fe.INVALID]
    assert [e.type for e in pv.validate_signer_name("f", "\u00e9" * 120 + ".com/s")] == [fe.INVALID, fe.INVALID]


def test_in_tree_defaults() -> None:
    # SetObjectDefaults_Job's `+default` tags; azureDisk's are pointers, an empty string is kept.
    volumes = [
        {"name": "i", "iscsi": {"targetPortal": "p", "iqn": "iqn", "lun": 0}},
        {"name": "r", "rbd": {"monitors": ["m"], "image": "i", "pool": ""}},
        {"name": "a", "azureDisk": {"diskName": "d", "diskURI": "u", "fsType": ""}},
        {"name": "s", "scaleIO": {"gateway": "g", "system": "s", "secretRef": None}},
    ]
    out = set_defaults_pod_spec({"volumes": volumes})["volumes"]
    assert out[0]["iscsi"]["iscsiInterface"] == "default"
    assert {k: out[1]["rbd"][k] for k in ("pool", "user", "keyring")} == {"pool": "rbd", "user": "admin", "keyring": "/etc/ceph/keyring"}
    assert out[2]["azureDisk"] == {"diskName": "d", "diskURI": "u", "fsType": "", "cachingMode": "ReadWrite", "readOnly": False, "kind": "Shared"}
    assert (out[3]["scaleIO"]["storageMode"], out[3]["scaleIO"]["fsType"]) == ("ThinProvisioned", "xfs")


def certificate_errors(certificate: dict[str, Any], release: int = 37) -> list[tuple[str, str]]:
    errs = pv.validate_projection_sources({"sources": [{"podCertificate": certificate}]}, "f", pod_validation_options(release, None))
    return [(e.type, e.field) for e in errs]


def test_pod_certificate_projection() -> None:
    # validateProjectionSources' podCertificate part (1.34+).
    ok = {"signerName": "example.com/signer", "keyType": "ED25519", "credentialBundlePath": "creds.pem"}
    assert certificate_errors(ok) == []
    assert certificate_errors({"keyType": "Bogus", "maxExpirationSeconds": 10}) == [
        (fe.REQUIRED, "f.sources[0].podCertificate.signerName"),
        (fe.NOT_SUPPORTED, "f.sources[0].podCertificate.keyType"),
        (fe.INVALID, "f.sources[0].podCertificate.maxExpirationSeconds"),
        (fe.REQUIRED, "f.sources[0].podCertificate"),
    ]
    # A Kubernetes signer's certificates live at most a day, another's 91 days.
    assert certificate_errors({**ok, "signerName": "kubernetes.io/x", "maxExpirationSeconds": 86401}) == [
        (fe.INVALID, "f.sources[0].podCertificate.maxExpirationSeconds")
    ]
    assert certificate_errors({**ok, "maxExpirationSeconds": 86401}) == []
    # Two of its paths alike conflict, as paths of two sources do.
    assert certificate_errors({**ok, "keyPath": "creds.pem"}) == [(fe.INVALID, "f")]


def test_pod_certificate_release_differences() -> None:
    # User annotations are validated from 1.35; before 1.34 the field is unknown (not a source).
    cert = {"signerName": "example.com/signer", "keyType": "ED25519", "keyPath": "k", "userAnnotations": {"nodomain": "v"}}
    assert certificate_errors(cert, release=34) == []
    assert certificate_errors(cert, release=35) == [(fe.INVALID, "f.sources[0].podCertificate.userAnnotations")]
    both = {"sources": [{"podCertificate": cert, "secret": {"name": "s"}}]}
    assert pv.validate_projection_sources(both, "f", pod_validation_options(33, None)) == []
    assert [e.type for e in pv.validate_projection_sources(both, "f", pod_validation_options(34, None))] == [fe.FORBIDDEN]


def test_ephemeral_claim_template_metadata_and_data_sources() -> None:
    # ValidateTemplateObjectMeta (validateFieldAllowList: a Go field name, `uID`), validateDataSource,
    # validateDataSourceRef, and the dataSource / dataSourceRef consistency.
    spec = {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}
    meta = {"name": "x", "uid": "u", "generation": 0, "deletionGracePeriodSeconds": 0, "labels": {"a": "b"}}
    assert errors_of({"ephemeral": {"volumeClaimTemplate": {"metadata": meta, "spec": spec}}}) == [
        (fe.FORBIDDEN, "field[0].ephemeral.volumeClaimTemplate.metadata.name"),
        (fe.FORBIDDEN, "field[0].ephemeral.volumeClaimTemplate.metadata.uID"),
        (fe.FORBIDDEN, "field[0].ephemeral.volumeClaimTemplate.metadata.deletionGracePeriodSeconds"),
    ]
    sources = {"dataSource": {"kind": "Snap", "name": ""}, "dataSourceRef": {"apiGroup": "Bad_Group", "kind": "PersistentVolumeClaim", "name": "n", "namespace": "ns"}}
    assert errors_of({"ephemeral": {"volumeClaimTemplate": {"spec": {**spec, **sources}}}}) == [
        (fe.REQUIRED, "field[0].ephemeral.volumeClaimTemplate.spec.dataSource.name"),
        (fe.INVALID, "field[0].ephemeral.volumeClaimTemplate.spec.dataSource"),
        (fe.INVALID, "field[0].ephemeral.volumeClaimTemplate.spec.dataSourceRef.apiGroup"),
        (fe.INVALID, "field[0].ephemeral.volumeClaimTemplate.spec"),
    ]
    unmatched = {"dataSource": {"kind": "PersistentVolumeClaim", "name": "x"}, "dataSourceRef": {"apiGroup": "", "kind": "PersistentVolumeClaim", "name": "x"}}
    assert errors_of({"ephemeral": {"volumeClaimTemplate": {"spec": {**spec, **unmatched}}}}) == [(fe.INVALID, "field[0].ephemeral.volumeClaimTemplate.spec")]


def test_data_source_mismatch_prints_the_field_path_as_json_marshal_does() -> None:
    """Upstream's bad value is fldPath.Child("dataSource"), a *field.Path: json.Marshal prints its
    unexported fields as {} (the 1.37 harness: "...spec: Invalid value: {}: must match dataSourceRef")."""
    spec = {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}
    unmatched = {"dataSource": {"kind": "PersistentVolumeClaim", "name": "a"}, "dataSourceRef": {"kind": "PersistentVolumeClaim", "name": "b"}}
    vol = {"name": "v", "ephemeral": {"volumeClaimTemplate": {"spec": {**spec, **unmatched}}}}
    errs, _ = pv.validate_volumes([vol], "field", pod_validation_options(37, None))
    assert [str(e) for e in errs] == ["field[0].ephemeral.volumeClaimTemplate.spec: Invalid value: {}: must match dataSourceRef"]


def test_volume_attributes_class_checked_from_1_34() -> None:
    spec = {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}, "volumeAttributesClassName": "Bad_VAC"}
    vol = {"ephemeral": {"volumeClaimTemplate": {"spec": spec}}}
    assert errors_of(vol, release=33) == []
    assert errors_of(vol, release=34) == [(fe.INVALID, "field[0].ephemeral.volumeClaimTemplate.spec.volumeAttributesClassName")]


def test_every_volume_source_has_its_validator() -> None:
    # validateVolumeSource checks the 30 sources of core/v1 VolumeSource (the schema's).
    from jobmodel.api.schema import VOLUME_SOURCES

    keys = [key for key, _, _ in pv.SOURCE_VALIDATORS]
    assert len(keys) == len(set(keys)) == 30
    assert set(keys) == VOLUME_SOURCES


@pytest.mark.parametrize(("driver", "too_long"), [("ü" * 31 + "a", False), ("ü" * 32, True)])
def test_csi_driver_name_limit_counts_bytes(driver: str, too_long: bool) -> None:
    """ValidateCSIDriverName's 63 are Go's len, bytes: 32 `ü` are 64."""
    errs = pv.validate_csi_driver_name(driver, "csi.driver", 32)
    assert (fe.TOO_LONG in [e.type for e in errs]) is too_long
