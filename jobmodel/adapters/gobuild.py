"""Running the Go build scripts of `harness/` (upstream harness, control plane) from Python.

The scripts cache their outputs outside the checkout (harness/gocache.py); this module runs one,
passes its progress lines through to standard error as they come (a cold build takes many
minutes), and returns the path it prints last.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from jobmodel.errors import InputError

HARNESS_ROOT = Path(__file__).resolve().parents[2] / "harness"


def run_build_script(script: Path, what: str, option: str, on_line: Callable[[str], None] | None = None) -> Path:
    """Run `script` (a harness build.py) and return the path it prints; its progress lines
    (`jobmodel: ...`) go to `on_line`, or else to standard error.

    Raises InputError on `option` naming `what` when Go is missing or the build fails, with the
    tool's own output.
    """
    if shutil.which("go") is None:
        raise InputError(option, f"cannot build {what}: `go` is not on PATH (Go 1.23 or newer is needed)")
    proc = subprocess.Popen(
        [sys.executable, str(script)],
        cwd=script.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stderr is not None
    errors: list[str] = []
    for line in proc.stderr:
        errors.append(line)
        if line.startswith("jobmodel: "):
            if on_line is not None:
                on_line(line.rstrip("\n"))
            else:
                sys.stderr.write(line)
                sys.stderr.flush()
    out = proc.stdout.read()
    code = proc.wait()
    if code != 0:
        raise InputError(option, f"building {what} failed:\n{out}{''.join(errors)}")
    lines = out.strip().splitlines()
    if not lines:
        raise InputError(option, f"{script} printed no path:\n{''.join(errors)}")
    return Path(lines[-1])
