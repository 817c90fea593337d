#!/usr/bin/env python3
"""Build the local control plane: etcd, kube-apiserver and kube-controller-manager.

The binaries land in the shared build cache (harness/gocache.py):
`${XDG_CACHE_HOME:-~/.cache}/jobmodel/controlplane-<digest>/`, keyed by go.mod, go.sum, the Go
sources here, this script and the Go version; a clean checkout with the same pins finds them
there. kube-apiserver is upstream's own main package; etcd and kube-controller-manager are the
three-line mains under cmd/ (see their comments). `-ldflags -X` stamps the release into the
binaries, so that `/version` reports it as an upstream build would.

One control plane per release (`RELEASES`): 1.32 from go.mod, each later release (1.33 to 1.37) from
releases/<pin>.mod and .sum (`go build -modfile`), each cached under its own name; the sources are
shared.

Usage: build.py [--kube-version X.Y] [--force]. Prints the directory holding the binaries;
progress on stderr. Exits non-zero with Go's own output when the build fails.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import gocache  # noqa: E402  (beside this directory; the scripts run without the virtualenv)

NAME = "controlplane"
BASE_RELEASE = "1.32"


def release_of(modfile: Path) -> str:
    """`releases/v1.37.2.mod` -> "1.37"."""
    return ".".join(modfile.stem.lstrip("v").split(".")[:2])


# Kubernetes minor -> the module file its control plane builds from (None: go.mod): one
# releases/v<pin>.mod (and .sum) a release.
RELEASES: dict[str, Path | None] = {
    BASE_RELEASE: None,
    **{release_of(p): p for p in sorted((HERE / "releases").glob("v*.mod"), key=lambda p: int(release_of(p).split(".")[1]))},
}
BINARIES = ("etcd", "kube-apiserver", "kube-controller-manager")
PACKAGES = ("./cmd/etcd", "k8s.io/kubernetes/cmd/kube-apiserver", "./cmd/kube-controller-manager")
VERSION_PACKAGES = ("k8s.io/component-base/version", "k8s.io/client-go/pkg/version")


def sources(release: str) -> list[Path]:
    """The release's inputs: the Go sources and this script, and its own module files."""
    modfile = RELEASES[release]
    own = {HERE / "go.mod", HERE / "go.sum"} if modfile is None else {modfile, modfile.with_suffix(".sum")}
    return [
        p
        for p in HERE.rglob("*")
        if p.is_file() and (p.suffix == ".go" or p.name == "build.py" or p in own)
    ]


def modflags(release: str) -> list[str]:
    modfile = RELEASES[release]
    return [] if modfile is None else [f"-modfile={modfile}"]


def build_key(release: str) -> str:
    return gocache.digest(HERE, sources(release), [gocache.go_identity(HERE), release])


def pinned_version(module: str, release: str = BASE_RELEASE) -> str:
    mod = json.loads(gocache.run(["go", "mod", "edit", "-json", *modflags(release)], HERE))
    for req in mod.get("Require") or []:
        if req["Path"] == module:
            return str(req["Version"])
    raise SystemExit(f"the module file of {release} does not require {module}")


def version_ldflags(version: str) -> str:
    """-X flags for the release, as upstream's hack/lib/version.sh sets them."""
    major, minor = version.lstrip("v").split(".")[:2]
    values = {"gitVersion": version, "gitMajor": major, "gitMinor": minor, "gitTreeState": "clean"}
    return " ".join(f"-X {pkg}.{var}={val}" for pkg in VERSION_PACKAGES for var, val in values.items())


def build_into(out: Path, release: str) -> None:
    version = pinned_version("k8s.io/kubernetes", release)
    gocache.say(
        f"building etcd, kube-apiserver and kube-controller-manager {version} into the cache "
        "(cold on 2 cores: 2 to 17 minutes, the most with an empty Go build cache; "
        "once built, reused by every checkout with these pins)"
    )
    env = dict(os.environ)
    env.setdefault("CGO_ENABLED", "0")
    args = [*modflags(release), "-ldflags", version_ldflags(version), "-o", str(out) + os.sep, *PACKAGES]
    gocache.go_build(args, HERE, "the control plane", env)
    missing = [b for b in BINARIES if not (out / b).is_file()]
    if missing:
        raise SystemExit(f"go build did not produce {', '.join(missing)}")


def build(release: str = BASE_RELEASE, force: bool = False) -> Path:
    # The base release keeps the cache name it always had; another gets `<NAME>.k8s-<release>`,
    # which the prune of the base's entries (`<NAME>-*`) does not match.
    name = NAME if release == BASE_RELEASE else f"{NAME}.k8s-{release}"
    return gocache.build_cached(name, build_key(release), lambda out: build_into(out, release), force=force)


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The options (argparse: a missing value or an unknown option is one line and exit code 2)."""
    parser = argparse.ArgumentParser(prog="build.py", description="Build the local control plane into the shared build cache.")
    parser.add_argument("--kube-version", choices=list(RELEASES), default=BASE_RELEASE, help=f"the release (default {BASE_RELEASE})")
    parser.add_argument("--force", action="store_true", help="build again even when the cache holds this build")
    return parser.parse_args(argv)


def main(argv: list[str]) -> None:
    args = parse_args(argv)
    print(build(args.kube_version, force=args.force))


if __name__ == "__main__":
    main(sys.argv[1:])
