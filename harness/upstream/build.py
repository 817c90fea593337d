#!/usr/bin/env python3
"""Build the upstream harness: bin/upstream-harness.

Writes bin/overlay.json, which maps each file under overlay/<pkg>/ to a new file of the same
name inside the upstream package directory k8s.io/kubernetes/pkg/controller/<pkg> in the module
cache (so it compiles as part of that package, as upstream's unit tests do), then runs
`go build -overlay bin/overlay.json -o bin/upstream-harness .`.

Usage: build.py [--force]. Exits non-zero with the tool's own output when go fails.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
BIN = HERE / "bin"
BINARY = BIN / "upstream-harness"
STAMP = BIN / "upstream-harness.sha256"

# overlay/<dir> -> the upstream package directory its files join.
OVERLAY_PACKAGES = {
    "job": "pkg/controller/job",
    "cronjob": "pkg/controller/cronjob",
}


def sources_digest() -> str:
    """A digest of every input of the build: our Go sources, go.mod/go.sum and the Go version."""
    h = hashlib.sha256()
    for path in sorted(HERE.rglob("*")):
        rel = path.relative_to(HERE)
        if rel.parts[0] == "bin" or not path.is_file():
            continue
        if path.suffix in {".go", ".mod", ".sum"} or path.name == "build.py":
            h.update(str(rel).encode() + b"\0" + path.read_bytes() + b"\0")
    h.update(run(["go", "version"]).encode())
    return h.hexdigest()


def run(cmd: list[str], env: dict[str, str] | None = None) -> str:
    proc = subprocess.run(cmd, cwd=HERE, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        sys.stderr.write(f"$ {' '.join(cmd)}\n{proc.stdout}{proc.stderr}")
        raise SystemExit(proc.returncode or 1)
    return proc.stdout


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
    BIN.mkdir(exist_ok=True)
    # Several test processes may ask for the harness at once: one builds, the others wait.
    with (BIN / ".build.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return build_locked(force)


def build_locked(force: bool) -> Path:
    digest = sources_digest()
    if not force and BINARY.exists() and STAMP.exists() and STAMP.read_text().strip() == digest:
        return BINARY
    overlay = write_overlay(link_kubernetes())
    env = dict(os.environ)
    env.setdefault("CGO_ENABLED", "0")
    # Built beside and renamed over: a harness process may be running the old binary.
    fresh = BIN / "upstream-harness.new"
    run(["go", "build", "-overlay", str(overlay), "-o", str(fresh), "."], env=env)
    fresh.replace(BINARY)
    STAMP.write_text(digest + "\n")
    return BINARY


if __name__ == "__main__":
    print(build(force="--force" in sys.argv[1:]))
