"""Go build outputs cached outside the checkout, keyed by a digest of their pins.

A clean checkout (CI's every run) has no build outputs, but the machine keeps
`${XDG_CACHE_HOME:-~/.cache}/jobmodel/`: each build lands there in a directory named after what
it builds and a digest of everything that decides the result (sources, go.mod/go.sum, the build
script, this file, the Go version and target platform). A digest already present is reused
as is; otherwise one process builds (a file lock makes parallel builds wait for it), into a
temporary directory renamed into place only once complete, so a reader never sees half a build.
Progress goes to standard error as plain lines, so a long build is visibly alive.

Standard library only: the build scripts run before the project's virtualenv exists.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

HERE = Path(__file__).resolve()
COMPLETE = ".complete"
KEEP = 3  # cached builds kept per name (other checkouts may pin other versions)
PROGRESS_EVERY = 30.0  # seconds between "still building" lines


def cache_root() -> Path:
    """`${XDG_CACHE_HOME:-~/.cache}/jobmodel` (JOBMODEL_CACHE_DIR overrides it, e.g. for tests)."""
    override = os.environ.get("JOBMODEL_CACHE_DIR")
    if override:
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "jobmodel"


def say(message: str) -> None:
    print(f"jobmodel: {message}", file=sys.stderr, flush=True)


def run(cmd: Sequence[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    """Run a command; on failure exit with its own output."""
    proc = subprocess.run(list(cmd), cwd=cwd, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        sys.stderr.write(f"$ {' '.join(cmd)}\n{proc.stdout}{proc.stderr}")
        raise SystemExit(proc.returncode or 1)
    return proc.stdout


def go_identity(cwd: Path) -> str:
    """The Go version and target platform: a different toolchain is a different build."""
    return run(["go", "env", "GOVERSION", "GOOS", "GOARCH", "CGO_ENABLED"], cwd)


def digest(base: Path, files: Iterable[Path], extra: Iterable[str] = ()) -> str:
    """A digest of the files' paths (relative to `base`) and contents, this module, and `extra`."""
    h = hashlib.sha256()
    for path in sorted(set(files)):
        h.update(str(path.relative_to(base)).encode() + b"\0" + path.read_bytes() + b"\0")
    h.update(HERE.read_bytes())
    for item in extra:
        h.update(item.encode() + b"\0")
    return h.hexdigest()


def entry_dir(name: str, key: str) -> Path:
    return cache_root() / f"{name}-{key[:16]}"


def cached(name: str, key: str) -> Path | None:
    """The complete cached build of `name` with this digest, if there is one."""
    entry = entry_dir(name, key)
    return entry if (entry / COMPLETE).is_file() else None


def build_cached(name: str, key: str, build_into: Callable[[Path], None], *, force: bool = False) -> Path:
    """The directory holding the build of `name` with digest `key`, building it if needed.

    `build_into(tmp)` writes the outputs into the empty directory `tmp`; it is renamed into
    place when it returns. Parallel callers wait on a file lock; the first builds, the others
    find its result.
    """
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    if not force and (hit := cached(name, key)) is not None:
        return hit
    with (root / f"{name}.lock").open("w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            say(f"waiting for another process building {name} ({root / (name + '.lock')})")
            fcntl.flock(lock, fcntl.LOCK_EX)
        if not force and (hit := cached(name, key)) is not None:
            return hit
        entry = entry_dir(name, key)
        tmp = root / f".{entry.name}.tmp-{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        started = time.monotonic()
        try:
            build_into(tmp)
            (tmp / COMPLETE).write_text(key + "\n")
            if entry.exists():  # a forced rebuild replaces the old entry
                old = root / f".{entry.name}.old-{os.getpid()}"
                entry.rename(old)
                shutil.rmtree(old, ignore_errors=True)
            tmp.rename(entry)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        say(f"built {name} in {format_duration(time.monotonic() - started)}: {entry}")
        prune(name, keep=entry)
        return entry


def prune(name: str, keep: Path) -> None:
    """Remove all but the newest KEEP complete builds of `name` (and leftovers of dead builds)."""
    root = cache_root()
    entries = sorted(
        (p for p in root.glob(f"{name}-*") if (p / COMPLETE).is_file()),
        key=lambda p: p.stat().st_mtime,
        reverse=True,
    )
    for old in entries[KEEP:]:
        if old != keep:
            shutil.rmtree(old, ignore_errors=True)


def format_duration(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}m{secs:02d}s" if minutes else f"{seconds:.1f}s"


def go_build(args: Sequence[str], cwd: Path, what: str, env: dict[str, str] | None = None) -> None:
    """`go build -v ARGS`, printing a progress line every PROGRESS_EVERY seconds (packages
    compiled so far); on failure, exit with Go's own output."""
    cmd = ["go", "build", "-v", *args]
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    lines: list[str] = []
    started = time.monotonic()
    done = threading.Event()

    def report() -> None:
        while not done.wait(PROGRESS_EVERY):
            elapsed = format_duration(time.monotonic() - started)
            say(f"still building {what}: {len(lines)} packages so far ({elapsed})")

    reporter = threading.Thread(target=report, daemon=True)
    reporter.start()
    try:
        for line in proc.stdout:
            lines.append(line)
        code = proc.wait()
    finally:
        done.set()
    if code != 0:
        sys.stderr.write(f"$ {' '.join(cmd)}\n{''.join(lines[-200:])}")
        raise SystemExit(code or 1)
