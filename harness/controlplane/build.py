#!/usr/bin/env python3
"""Build the local control plane: etcd, kube-apiserver and kube-controller-manager.

The binaries land in the shared build cache (harness/gocache.py):
`${XDG_CACHE_HOME:-~/.cache}/jobmodel/controlplane-<digest>/`, keyed by go.mod, go.sum, the Go
sources here, this script and the Go version; a clean checkout with the same pins finds them
there. kube-apiserver is upstream's own main package; etcd and kube-controller-manager are the
three-line mains under cmd/ (see their comments). `-ldflags -X` stamps the release into the
binaries, so that `/version` reports it as an upstream build would.

Usage: build.py [--force]. Prints the directory holding the binaries; progress on stderr.
Exits non-zero with Go's own output when the build fails.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import gocache  # noqa: E402  (beside this directory; the scripts run without the virtualenv)

NAME = "controlplane"
BINARIES = ("etcd", "kube-apiserver", "kube-controller-manager")
PACKAGES = ("./cmd/etcd", "k8s.io/kubernetes/cmd/kube-apiserver", "./cmd/kube-controller-manager")
VERSION_PACKAGES = ("k8s.io/component-base/version", "k8s.io/client-go/pkg/version")


def sources() -> list[Path]:
    return [
        p
        for p in HERE.rglob("*")
        if p.is_file() and (p.suffix in {".go", ".mod", ".sum"} or p.name == "build.py")
    ]


def build_key() -> str:
    return gocache.digest(HERE, sources(), [gocache.go_identity(HERE)])


def pinned_version(module: str) -> str:
    mod = json.loads(gocache.run(["go", "mod", "edit", "-json"], HERE))
    for req in mod.get("Require") or []:
        if req["Path"] == module:
            return str(req["Version"])
    raise SystemExit(f"{HERE / 'go.mod'} does not require {module}")


def version_ldflags(version: str) -> str:
    """-X flags for the release, as upstream's hack/lib/version.sh sets them."""
    major, minor = version.lstrip("v").split(".")[:2]
    values = {"gitVersion": version, "gitMajor": major, "gitMinor": minor, "gitTreeState": "clean"}
    return " ".join(f"-X {pkg}.{var}={val}" for pkg in VERSION_PACKAGES for var, val in values.items())


def build_into(out: Path) -> None:
    version = pinned_version("k8s.io/kubernetes")
    gocache.say(
        f"building etcd, kube-apiserver and kube-controller-manager {version} into the cache "
        "(cold on 2 cores: 2 to 17 minutes, the most with an empty Go build cache; "
        "once built, reused by every checkout with these pins)"
    )
    env = dict(os.environ)
    env.setdefault("CGO_ENABLED", "0")
    args = ["-ldflags", version_ldflags(version), "-o", str(out) + os.sep, *PACKAGES]
    gocache.go_build(args, HERE, "the control plane", env)
    missing = [b for b in BINARIES if not (out / b).is_file()]
    if missing:
        raise SystemExit(f"go build did not produce {', '.join(missing)}")


def build(force: bool = False) -> Path:
    return gocache.build_cached(NAME, build_key(), build_into, force=force)


if __name__ == "__main__":
    print(build(force="--force" in sys.argv[1:]))
