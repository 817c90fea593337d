"""Running the Go build scripts of `harness/` (upstream harness, control plane) from Python.

The scripts cache their outputs outside the checkout (harness/gocache.py); this module runs one,
passes its progress lines through to standard error as they come (a cold build takes many
minutes), and returns the path it prints last.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from jobmodel.errors import InputError

HARNESS_ROOT = Path(__file__).resolve().parents[2] / "harness"


def run_build_script(
    script: Path,
    what: str,
    option: str,
    on_line: Callable[[str], None] | None = None,
    args: Sequence[str] = (),
) -> Path:
    """Run `script` (a harness build.py, with `args`) and return the path it prints; its progress
    lines (`jobmodel: ...`) go to `on_line`, or else to standard error.

    Raises InputError on `option` naming `what` when Go is missing or the build fails, with the
    tool's own output.
    """
    if shutil.which("go") is None:
        raise InputError(option, f"cannot build {what}: `go` is not on PATH (Go 1.23 or newer is needed)")
    try:
        proc = subprocess.Popen(
            [sys.executable, str(script), *args],
            cwd=script.parent,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    except OSError as e:
        raise InputError(option, f"cannot build {what}: cannot run {script}: {e.strerror or e}") from None
    assert proc.stdout is not None and proc.stderr is not None
    # Standard output is drained beside standard error: read after it, a script that prints more
    # than a pipe holds would block with its caller.
    out_parts: list[str] = []
    reader = threading.Thread(target=lambda: out_parts.append(proc.stdout.read() if proc.stdout else ""))
    reader.start()
    errors: list[str] = []
    for line in proc.stderr:
        errors.append(line)
        if line.startswith("jobmodel: "):
            if on_line is not None:
                on_line(line.rstrip("\n"))
            else:
                sys.stderr.write(line)
                sys.stderr.flush()
    reader.join()
    out = "".join(out_parts)
    code = proc.wait()
    if code != 0:
        raise InputError(option, f"building {what} failed:\n{_ending_line(out)}{''.join(errors)}")
    lines = out.strip().splitlines()
    if not lines:
        raise InputError(option, f"building {what}: {script} printed no path:\n{''.join(errors)}")
    return Path(lines[-1])


def _ending_line(text: str) -> str:
    """`text` ending with a newline (when not empty), so that what follows starts a line."""
    return text if not text or text.endswith("\n") else text + "\n"
