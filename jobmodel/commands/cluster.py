"""`jobmodel cluster build|up|down|status`: the local control plane (jobmodel.adapters.controlplane)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from jobmodel.commands.output import add_output_option, print_json, wants_json
from jobmodel.commands.progress import progress
from jobmodel.commands.release import add_control_plane_release_option, control_plane_release
from jobmodel.errors import InputError
from jobmodel.features import gates_for, parse_gate_overrides


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "cluster",
        help="build, start, stop the local control plane (etcd, kube-apiserver, kube-controller-manager)",
        description=(
            "A real control plane on 127.0.0.1, built from the Go module proxy at a release the model follows (--kube-version). "
            "`up` prints the kubeconfig path (export KUBECONFIG=$(jobmodel cluster up)); there is no scheduler "
            "and no kubelet: `jobmodel live run` plays them."
        ),
    )
    sub = parser.add_subparsers(dest="cluster_command", required=True, metavar="ACTION")
    build = sub.add_parser("build", help="build the binaries into the cache (or find them there); print their directory")
    build.add_argument("--force", action="store_true", help="rebuild even if the cache has them")
    add_control_plane_release_option(build)
    add_output_option(build)
    build.set_defaults(func=run_build)
    for name, func, text in (
        ("up", run_up, "start the control plane in the background and print the kubeconfig path"),
        ("down", run_down, "stop every process of the control plane (by PID) and remove its directory"),
        ("status", run_status, "show the processes, their health and the kubeconfig path"),
    ):
        p = sub.add_parser(name, help=text, description=text)
        p.add_argument("--dir", type=Path, default=None, help="the control plane's directory (default: one per user under $XDG_RUNTIME_DIR or /tmp)")
        if name == "up":
            p.add_argument("--feature-gates", default="", metavar="A=false,B=true", help="feature gates for kube-apiserver and kube-controller-manager")
            p.add_argument("--garbage-collector", action="store_true", help="also run the garbage collector")
        if name == "up":
            add_control_plane_release_option(p)
        add_output_option(p)
        p.set_defaults(func=func)


def _directory(args: argparse.Namespace) -> Path:
    from jobmodel.adapters.controlplane import default_directory

    return Path(args.dir) if args.dir is not None else default_directory()


def run_build(args: argparse.Namespace) -> int:
    from jobmodel.adapters.controlplane import BUILD_SCRIPT
    from jobmodel.adapters.gobuild import run_build_script

    release = control_plane_release(args)
    force = ["--force"] if args.force else []
    with progress(f"building the control plane of Kubernetes {release} (cached after the first build)") as task:
        directory = run_build_script(BUILD_SCRIPT, f"the control plane of Kubernetes {release}", "cluster build", task.log, ["--kube-version", release, *force])
    if wants_json(args):
        print_json("ClusterBuild", {"directory": str(directory)})
    else:
        print(directory)
    return 0


def run_up(args: argparse.Namespace) -> int:
    release = control_plane_release(args)
    from jobmodel.adapters.controlplane import ControllerConfig, ControlPlane, running_plane

    # The options are checked first, against the release asked for, before any directory is touched.
    gates = parse_gate_overrides(args.feature_gates, base=gates_for(release))
    config = ControllerConfig(gates, {}, args.garbage_collector)
    directory = _directory(args)
    existing = running_plane(directory)
    if existing is not None:
        if existing.release != release:
            raise InputError("--kube-version", f"a control plane of Kubernetes {existing.release} is running in {directory}: stop it with `jobmodel cluster down` first")
        if existing.config != config:
            option = "--feature-gates" if existing.config.feature_gates != config.feature_gates else "--garbage-collector"
            raise InputError(option, f"the control plane running in {directory} was started with other options: stop it with `jobmodel cluster down` first")
        print(f"already running at {existing.server}", file=sys.stderr)
        _print_up(args, existing.server, existing.kubeconfig, already_running=True)
        return 0
    if (directory / "state.json").is_file():
        ControlPlane.attach(directory).remove()  # a stale one: what is left of it goes
    plane = ControlPlane.start(config, directory=directory, detached=True, release=release)
    print(f"control plane {plane.server} is up; stop it with: jobmodel cluster down", file=sys.stderr)
    _print_up(args, plane.server, plane.kubeconfig, already_running=False)
    return 0


def _print_up(args: argparse.Namespace, server: str, kubeconfig: Path, *, already_running: bool) -> None:
    if wants_json(args):
        print_json("ClusterUp", {"server": server, "kubeconfig": str(kubeconfig), "alreadyRunning": already_running})
    else:
        print(kubeconfig)


def run_down(args: argparse.Namespace) -> int:
    from jobmodel.adapters.controlplane import ControlPlane, ControlPlaneError

    directory = _directory(args)
    if not (directory / "state.json").is_file():
        print(f"no control plane in {directory}", file=sys.stderr)
        if wants_json(args):
            print_json("ClusterDown", {"directory": str(directory), "stopped": []})
        return 0
    try:
        plane = ControlPlane.attach(directory)
    except ControlPlaneError as err:
        # Without a readable state the processes are unknown: the user stops them and removes it.
        raise ControlPlaneError(f"{err.reason}; stop what it started (etcd, kube-apiserver, kube-controller-manager) and remove {directory} by hand") from None
    plane.remove()
    print(f"stopped {', '.join(plane.components)} and removed {directory}", file=sys.stderr)
    if wants_json(args):
        print_json("ClusterDown", {"directory": str(directory), "stopped": list(plane.components)})
    return 0


def run_status(args: argparse.Namespace) -> int:
    from jobmodel.adapters.controlplane import ControlPlane

    directory = _directory(args)
    if not (directory / "state.json").is_file():
        if wants_json(args):
            print_json("ClusterStatus", {"directory": str(directory), "running": False, "components": []})
        else:
            print(f"no control plane in {directory} (start one with: jobmodel cluster up)")
        return 1
    plane = ControlPlane.attach(directory)
    health = plane.healthy()
    ok = bool(health) and all(health.values())
    alive = {name: c.alive() for name, c in plane.components.items()}
    if wants_json(args):
        components = [
            {"name": name, "pid": c.pid, "healthy": bool(health.get(name)), "alive": alive[name]}
            for name, c in plane.components.items()
        ]
        print_json(
            "ClusterStatus",
            {
                "directory": str(directory),
                "running": any(alive.values()),
                "healthy": ok,
                "server": plane.server,
                "kubeconfig": str(plane.kubeconfig),
                "kubeVersion": plane.release,
                "components": components,
            },
        )
        return 0 if ok else 1
    for name, component in plane.components.items():
        state = "healthy" if health.get(name) else ("running, not answering" if alive[name] else "stopped")
        print(f"{name:<24} pid {component.pid:<8} {state}")
    print(f"server      {plane.server}")
    print(f"release     Kubernetes {plane.release}")
    print(f"kubeconfig  {plane.kubeconfig}")
    return 0 if ok else 1
