"""The options that choose the modelled Kubernetes release and its feature gates, shared by the commands."""

from __future__ import annotations

import argparse
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


def add_control_plane_release_option(parser: Any) -> None:
    """`--kube-version` where a real control plane runs: only the release it is built from."""
    parser.add_argument(
        "--kube-version",
        default=None,
        metavar="X.Y",
        help="the release of the local control plane and of the model beside it (only 1.32: the control plane's build)",
    )


def check_control_plane_release(args: argparse.Namespace) -> None:
    """Refuse a release the local control plane is not built from."""
    from jobmodel.adapters.controlplane import CONTROL_PLANE_RELEASE

    wanted = getattr(args, "kube_version", None)
    if wanted is not None and f"1.{parse_kube_version(wanted)}" != CONTROL_PLANE_RELEASE:
        raise InputError(
            "--kube-version",
            f"the local control plane is built from Kubernetes {CONTROL_PLANE_RELEASE} only (harness/controlplane); "
            f"{wanted} runs in the model and the upstream harness (simulate, explore, conformance --engine upstream)",
        )


def gates_from_args(args: argparse.Namespace) -> FeatureGates:
    """The gates of `--kube-version` with `--feature-gates` applied."""
    return gates_from_options(args.kube_version, getattr(args, "feature_gates", ""))
