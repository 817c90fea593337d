#!/usr/bin/env python3
"""Build the upstream harness into the shared build cache (harness/gocache.py):
`${XDG_CACHE_HOME:-~/.cache}/jobmodel/upstream-harness-<digest>/upstream-harness`, keyed by the
Go sources, go.mod/go.sum, this script and the Go version, so that a clean checkout with the same
pins reuses it.

Writes bin/overlay.json, which maps each file under overlay/<pkg>/ to a new file of the same
name inside the upstream package directory k8s.io/kubernetes/pkg/controller/<pkg> in the module
cache (so it compiles as part of that package, as upstream's unit tests do), then runs
`go build -overlay bin/overlay.json .` into the cache.

One binary per supported Kubernetes release (RELEASES): 1.32 builds with go.mod (v1.32.3), every
other release with its own module file releases/<pin>.mod (+ .sum, `go build -modfile`) and the
build tags jobmodel_k8s_1_33 ... jobmodel_k8s_1_<minor> (one for each release it has reached),
which choose the files written against that release's API (the controller's constructor, the
schedule parser, declarative validation).

Usage: build.py [--kube-version X.Y] [--force]   prints the binary's path; exits non-zero with
                                                 the tool's own output when go fails
       build.py --all [--force]                  builds every release, prints one path a line
       build.py --update-modfile X.Y             writes releases/<pin>.mod/.sum (go mod tidy;
                                                 needs the module proxy)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import gocache  # noqa: E402  (beside this directory; the scripts run without the virtualenv)

BIN = HERE / "bin"  # build inputs made here: the module links and the overlay files
NAME = "upstream-harness"

# Kubernetes minor -> the k8s.io/kubernetes release it builds against (staging modules at v0.<same>)
# and the `go` line of its module (the kubernetes module's own).
RELEASES = {
    "1.32": ("v1.32.3", "1.23.0"),
    "1.33": ("v1.33.13", "1.24.0"),
    "1.34": ("v1.34.4", "1.24.0"),
    "1.35": ("v1.35.4", "1.25.0"),
    "1.36": ("v1.36.3", "1.26.0"),
    "1.37": ("v1.37.2", "1.26.0"),
}
NEWEST = "1.37"
BASE_RELEASE = "1.32"  # the one go.mod itself pins

# overlay/<dir> -> the upstream package directory its files join.
OVERLAY_PACKAGES = {
    "job": "pkg/controller/job",
    "cronjob": "pkg/controller/cronjob",
    "consistency": "pkg/controller/util/consistency",
}


def modfile(release: str) -> Path | None:
    """The module file of a release other than go.mod's own (None for that one)."""
    return None if release == BASE_RELEASE else HERE / "releases" / f"{RELEASES[release][0]}.mod"


def build_tags(release: str) -> str:
    minor = int(release.split(".")[1])
    return ",".join(f"jobmodel_k8s_1_{m}" for m in range(33, minor + 1))


def sources_digest(release: str) -> str:
    """A digest of every input of the release's build: our Go sources, its module files, this
    script, the build tags and Go."""
    files = [
        p
        for p in HERE.rglob("*")
        if p.is_file()
        and p.relative_to(HERE).parts[0] not in ("bin", "releases")
        and (p.suffix in {".go", ".mod", ".sum"} or p.name == "build.py")
    ]
    mod = modfile(release)
    if mod is not None:
        files += [mod, mod.with_suffix(".sum")]
    return gocache.digest(HERE, files, [gocache.go_identity(HERE), release, build_tags(release)])


def modflags(release: str) -> list[str]:
    mod = modfile(release)
    return [] if mod is None else [f"-modfile={mod}"]


def run(cmd: list[str], env: dict[str, str] | None = None) -> str:
    return gocache.run(cmd, HERE, env)


def module_file(release: str) -> dict[str, Any]:
    return dict(json.loads(run(["go", "mod", "edit", "-json", *modflags(release)])))


def pinned_version(release: str, module: str) -> str:
    """The version the release's module file requires of a module."""
    for req in module_file(release).get("Require") or []:
        if req["Path"] == module:
            return str(req["Version"])
    raise SystemExit(f"the module file of {release} does not require {module}")


def kubernetes_link(release: str) -> Path:
    """Where the release's module file replaces k8s.io/kubernetes (a path beneath bin/)."""
    for rep in module_file(release).get("Replace") or []:
        if rep["Old"]["Path"] == "k8s.io/kubernetes":
            return HERE / str(rep["New"]["Path"])
    raise SystemExit(f"the module file of {release} does not replace k8s.io/kubernetes")


def link_kubernetes(release: str) -> Path:
    """Make the release's link beneath bin/ point to its k8s.io/kubernetes in the module cache.

    The module file replaces k8s.io/kubernetes by ./bin/kubernetes[-<pin>]: `go build -overlay`
    refuses to add files beneath GOMODCACHE, but accepts them beneath this path, outside it.
    """
    version = RELEASES[release][0]
    # Outside the harness module, so that its replace directive does not apply to the download.
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(
            ["go", "mod", "download", "-json", f"k8s.io/kubernetes@{version}"],
            cwd=tmp,
            capture_output=True,
            text=True,
        )
    if proc.returncode != 0:
        sys.stderr.write(
            f"$ go mod download -json k8s.io/kubernetes@{version}\n{proc.stdout}{proc.stderr}"
        )
        raise SystemExit(proc.returncode or 1)
    module_dir = Path(json.loads(proc.stdout)["Dir"])
    link = kubernetes_link(release)
    link.parent.mkdir(exist_ok=True)
    if link.is_symlink() and Path(os.readlink(link)) == module_dir:
        return link
    if link.is_symlink() or link.exists():
        link.unlink()
    link.symlink_to(module_dir, target_is_directory=True)
    return link


def write_overlay(kube_dir: Path, release: str) -> Path:
    replace: dict[str, str] = {}
    for sub, pkg in OVERLAY_PACKAGES.items():
        src_dir = HERE / "overlay" / sub
        if not (kube_dir / pkg).is_dir():
            continue  # a package the release does not have (the consistency store before 1.36)
        for src in sorted(src_dir.glob("*.go")):
            target = kube_dir / pkg / src.name
            if target.exists():
                raise SystemExit(f"overlay file {src} would replace upstream's own {target}")
            replace[str(target)] = str(src)
    path = BIN / f"overlay-{release}.json"
    path.write_text(json.dumps({"Replace": replace}, indent=1) + "\n")
    return path


def build(release: str = NEWEST, force: bool = False) -> Path:
    # `<NAME>.k8s-<release>`: a cache name of its own per release, which the prune of another
    # release (or of an older single-release checkout, `upstream-harness-*`) does not match.
    entry = gocache.build_cached(
        f"{NAME}.k8s-{release}", sources_digest(release), lambda out: build_into(out, release), force=force
    )
    return entry / NAME


def build_into(out: Path, release: str) -> None:
    gocache.say(
        f"building the upstream harness of Kubernetes {release} ({RELEASES[release][0]}) into the cache "
        "(cold on 2 cores: about 2 to 10 minutes)"
    )
    BIN.mkdir(exist_ok=True)
    overlay = write_overlay(link_kubernetes(release), release)
    env = dict(os.environ)
    env.setdefault("CGO_ENABLED", "0")
    args = [*modflags(release), "-tags", build_tags(release), "-overlay", str(overlay), "-o", str(out / NAME), "."]
    gocache.go_build(args, HERE, f"the upstream harness of Kubernetes {release}", env)


STAGING_EXTRA = ("k8s.io/cri-streaming", "k8s.io/streaming")  # staging modules newer than go.mod's


def update_modfile(release: str) -> Path:
    """Write releases/<pin>.mod and .sum from go.mod: the release's pins, then `go mod tidy`."""
    version, go_line = RELEASES[release]
    staging = "v0." + version.removeprefix("v1.")
    mod = modfile(release)
    if mod is None:
        raise SystemExit(f"{release} is go.mod's own release: edit go.mod")
    base = module_file(BASE_RELEASE)
    mod.parent.mkdir(exist_ok=True)
    link = f"./bin/kubernetes-{version}"
    lines = ["// Generated by build.py --update-modfile " + release + " from go.mod; do not edit.",
             f"module {base['Module']['Path']}", "", f"go {go_line}", "", "require ("]
    for req in base.get("Require") or []:
        if not req.get("Indirect"):
            path = req["Path"]
            pin = version if path == "k8s.io/kubernetes" else staging if path.startswith("k8s.io/") and req["Version"].startswith("v0.32") else req["Version"]
            lines.append(f"\t{path} {pin}")
    lines += [")", "", "replace ("]
    staged = sorted({str(r["Old"]["Path"]) for r in base.get("Replace") or [] if r["Old"]["Path"] != "k8s.io/kubernetes"} | set(STAGING_EXTRA))
    lines += [f"\t{path} => {path} {staging}" for path in staged]
    lines += [")", "", f"replace k8s.io/kubernetes => {link}", ""]
    mod.write_text("\n".join(lines))
    mod.with_suffix(".sum").unlink(missing_ok=True)
    link_kubernetes(release)
    env = dict(os.environ, GOFLAGS="-mod=mod")
    gocache.run(["go", "mod", "tidy", f"-modfile={mod}"], HERE, env)
    return mod


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The options (argparse: a missing value or an unknown option is one line and exit code 2)."""
    parser = argparse.ArgumentParser(prog="build.py", description="Build the upstream harness into the shared build cache.")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--kube-version", choices=list(RELEASES), default=NEWEST, help=f"the release (default {NEWEST})")
    which.add_argument("--all", action="store_true", help="build every release, one path a line")
    which.add_argument("--update-modfile", metavar="X.Y", help="write releases/<pin>.mod/.sum for the release (needs the module proxy)")
    parser.add_argument("--force", action="store_true", help="build again even when the cache holds this build")
    return parser.parse_args(argv)


def main(argv: list[str]) -> None:
    args = parse_args(argv)
    if args.update_modfile is not None:
        print(update_modfile(args.update_modfile))
    elif args.all:
        for release in RELEASES:
            print(build(release, args.force))
    else:
        print(build(args.kube_version, args.force))


if __name__ == "__main__":
    main(sys.argv[1:])
