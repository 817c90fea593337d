"""The options that choose the modelled Kubernetes release and its feature gates, shared by the commands."""

from __future__ import annotations

import argparse
from typing import Any

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


def add_control_plane_release_option(parser: Any) -> None:
    """`--kube-version` where a real control plane runs: a release it is built for."""
    from jobmodel.adapters.controlplane import CONTROL_PLANE_RELEASE, CONTROL_PLANE_RELEASES

    parser.add_argument(
        "--kube-version",
        default=None,
        metavar="X.Y",
        help=f"the release of the local control plane and of the model beside it ({CONTROL_PLANE_RELEASES[0]} to "
        f"{CONTROL_PLANE_RELEASES[-1]}: the releases it is built for; default {CONTROL_PLANE_RELEASE})",
    )


def control_plane_release(args: argparse.Namespace | None) -> str:
    """The release `--kube-version` names (the default when absent): a plane is built for every
    supported one (tests/test_controlplane_build.py), and parse_kube_version refuses the others."""
    from jobmodel.adapters.controlplane import CONTROL_PLANE_RELEASE

    wanted = getattr(args, "kube_version", None)
    if wanted is None:
        return CONTROL_PLANE_RELEASE
    return f"1.{parse_kube_version(wanted)}"


def gates_from_args(args: argparse.Namespace) -> FeatureGates:
    """The gates of `--kube-version` with `--feature-gates` applied."""
    return gates_from_options(args.kube_version, getattr(args, "feature_gates", ""))
