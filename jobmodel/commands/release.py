"""The options that choose the modelled Kubernetes release and its feature gates, shared by the commands."""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

from jobmodel.errors import InputError
from jobmodel.features import (
    NEWEST_RELEASE,
    SUPPORTED_MINORS,
    FeatureGates,
    gates_from_options,
    parse_kube_version,
)

RELEASES_TEXT = ", ".join(f"1.{m}" for m in SUPPORTED_MINORS)


def add_release_options(parser: Any, *, gates: bool = True) -> None:
    """`--kube-version X.Y` (and `--feature-gates`, checked against that release)."""
    parser.add_argument(
        "--kube-version",
        default=NEWEST_RELEASE,
        metavar="X.Y",
        help=f"the Kubernetes release to model: {RELEASES_TEXT} (default {NEWEST_RELEASE}); `jobmodel version` lists their gates",
    )
    if gates:
        parser.add_argument(
            "--feature-gates",
            default="",
            metavar="A=false,B=true",
            help="feature gates that differ from the release's defaults (a gate the release locked cannot change)",
        )


def add_control_plane_release_option(parser: Any, *, default: str = "") -> None:
    """`--kube-version` where a real control plane runs: a release it is built for (`default`:
    what the help says of the default, where it is not simply CONTROL_PLANE_RELEASE)."""
    from jobmodel.adapters.controlplane import CONTROL_PLANE_RELEASE, CONTROL_PLANE_RELEASES

    parser.add_argument(
        "--kube-version",
        default=None,
        metavar="X.Y",
        help=f"the release of the local control plane and of the model beside it ({CONTROL_PLANE_RELEASES[0]} to "
        f"{CONTROL_PLANE_RELEASES[-1]}: the releases it is built for; default {default or CONTROL_PLANE_RELEASE})",
    )


def control_plane_release(args: argparse.Namespace | None) -> str:
    """The release `--kube-version` names (the default when absent): a plane is built for every
    supported one (tests/test_controlplane_build.py), and parse_kube_version refuses the others."""
    from jobmodel.adapters.controlplane import CONTROL_PLANE_RELEASE

    wanted = getattr(args, "kube_version", None)
    if wanted is None:
        return CONTROL_PLANE_RELEASE
    return f"1.{parse_kube_version(wanted)}"


# `v1.35.4`, and the forms distributions stamp: `v1.35.4+k3s1`, `v1.35.4-gke.1200`.
SERVER_VERSION = re.compile(r"v?(\d+)\.(\d+)(?:\.\d+)?(?:[-+].*)?")


def release_of_server(git_version: str) -> str | None:
    """The release (`1.35`) a server reports in its version's gitVersion, or None if it names none."""
    match = SERVER_VERSION.fullmatch(git_version.strip())
    return None if match is None else f"{int(match[1])}.{int(match[2])}"


def release_for_cluster(wanted: str | None, git_version: str, where: str) -> tuple[str, str | None]:
    """The release whose model a cluster given by kubeconfig is compared with, and a warning when it
    is not the one the cluster reports: `--kube-version` when given, else the cluster's own (an
    error naming --kube-version when the model does not follow it or it cannot be told)."""
    running = release_of_server(git_version)
    if wanted is not None:
        release = f"1.{parse_kube_version(wanted)}"
        if running == release:
            return release, None
        runs = f"Kubernetes {running} ({git_version})" if running is not None else f"version {git_version!r}"
        return release, f"the cluster at {where} runs {runs}; it is compared with the model of {release} (--kube-version)"
    if running is None:
        raise InputError("--kube-version", f"the cluster at {where} reports version {git_version!r}, which names no release: say which release it runs")
    try:
        return f"1.{parse_kube_version(running)}", None
    except InputError:
        raise InputError(
            "--kube-version",
            f"the cluster at {where} runs Kubernetes {running} ({git_version}); the model follows {RELEASES_TEXT}: "
            "name the release to compare it with",
        ) from None


def given_cluster_release(kubeconfig: Path, wanted: str | None) -> str:
    """The release to compare the cluster of `kubeconfig` with (release_for_cluster; `wanted`:
    --kube-version), asking the cluster its version; the warning, if any, on standard error."""
    from jobmodel.adapters.live import LiveCluster
    from jobmodel.commands.progress import notice

    cluster = LiveCluster.connect(kubeconfig)
    try:
        git_version = cluster.version()
    finally:
        cluster.close()
    release, warning = release_for_cluster(wanted, git_version, cluster.server)
    if warning is not None:
        notice(f"warning: {warning}")
    return release


def gates_from_args(args: argparse.Namespace) -> FeatureGates:
    """The gates of `--kube-version` with `--feature-gates` applied."""
    return gates_from_options(args.kube_version, getattr(args, "feature_gates", ""))
