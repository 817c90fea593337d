#!/usr/bin/env python3
"""Build the upstream harness into the shared build cache (harness/gocache.py):
`${XDG_CACHE_HOME:-~/.cache}/jobmodel/upstream-harness-<digest>/upstream-harness`, keyed by the
Go sources, go.mod/go.sum, this script and the Go version, so that a clean checkout with the same
pins reuses it.

Writes bin/overlay.json, which maps each file under overlay/<pkg>/ to a new file of the same
name inside the upstream package directory k8s.io/kubernetes/pkg/controller/<pkg> in the module
cache (so it compiles as part of that package, as upstream's unit tests do), then runs
`go build -overlay bin/overlay.json .` into the cache.

Usage: build.py [--force]. Prints the binary's path; exits non-zero with the tool's own output
when go fails.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import gocache  # noqa: E402  (beside this directory; the scripts run without the virtualenv)

BIN = HERE / "bin"  # build inputs made here: the module link and the overlay file
NAME = "upstream-harness"

# overlay/<dir> -> the upstream package directory its files join.
OVERLAY_PACKAGES = {
    "job": "pkg/controller/job",
    "cronjob": "pkg/controller/cronjob",
}


def sources_digest() -> str:
    """A digest of every input of the build: our Go sources, go.mod/go.sum, this script and Go."""
    files = [
        p
        for p in HERE.rglob("*")
        if p.is_file()
        and p.relative_to(HERE).parts[0] != "bin"
        and (p.suffix in {".go", ".mod", ".sum"} or p.name == "build.py")
    ]
    return gocache.digest(HERE, files, [gocache.go_identity(HERE)])


def run(cmd: list[str], env: dict[str, str] | None = None) -> str:
    return gocache.run(cmd, HERE, env)


def pinned_version(module: str) -> str:
    """The version go.mod requires of a module."""
    mod = json.loads(run(["go", "mod", "edit", "-json"]))
    for req in mod.get("Require") or []:
        if req["Path"] == module:
            return str(req["Version"])
    raise SystemExit(f"go.mod does not require {module}")


def link_kubernetes() -> Path:
    """Make bin/kubernetes a link to the pinned k8s.io/kubernetes in the module cache.

    go.mod replaces k8s.io/kubernetes by ./bin/kubernetes: `go build -overlay` refuses to add
    files beneath GOMODCACHE, but accepts them beneath this path, which is outside it.
    """
    version = pinned_version("k8s.io/kubernetes")
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
    link = BIN / "kubernetes"
    if link.is_symlink() and Path(os.readlink(link)) == module_dir:
        return link
    if link.is_symlink() or link.exists():
        link.unlink()
    link.symlink_to(module_dir, target_is_directory=True)
    return link


def write_overlay(kube_dir: Path) -> Path:
    replace: dict[str, str] = {}
    for sub, pkg in OVERLAY_PACKAGES.items():
        src_dir = HERE / "overlay" / sub
        for src in sorted(src_dir.glob("*.go")):
            target = kube_dir / pkg / src.name
            if target.exists():
                raise SystemExit(f"overlay file {src} would replace upstream's own {target}")
            replace[str(target)] = str(src)
    path = BIN / "overlay.json"
    path.write_text(json.dumps({"Replace": replace}, indent=1) + "\n")
    return path


def build(force: bool = False) -> Path:
    entry = gocache.build_cached(NAME, sources_digest(), build_into, force=force)
    return entry / NAME


def build_into(out: Path) -> None:
    gocache.say("building the upstream harness into the cache (cold on 2 cores: about 10 minutes)")
    BIN.mkdir(exist_ok=True)
    overlay = write_overlay(link_kubernetes())
    env = dict(os.environ)
    env.setdefault("CGO_ENABLED", "0")
    gocache.go_build(["-overlay", str(overlay), "-o", str(out / NAME), "."], HERE, "the upstream harness", env)


if __name__ == "__main__":
    print(build(force="--force" in sys.argv[1:]))
