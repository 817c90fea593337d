"""Running a harness build script (jobmodel/adapters/gobuild.py) without Go: tmp Python scripts
stand in for harness/*/build.py, and `shutil.which` says whether `go` is on PATH."""

from __future__ import annotations

import shutil
import textwrap
import threading
from pathlib import Path

import pytest

from jobmodel.adapters.gobuild import run_build_script
from jobmodel.errors import InputError

WHAT = "the widget"
OPTION = "widget build"


@pytest.fixture
def go_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """`go` is found (the scripts below never run it), every other name as before."""
    real_which = shutil.which

    def which(name: str, *args: object, **kwargs: object) -> str | None:
        return "/fake/bin/go" if name == "go" else real_which(name)

    monkeypatch.setattr(shutil, "which", which)  # the module gobuild looks `go` up with


def _script(tmp_path: Path, body: str, name: str = "build.py") -> Path:
    """A build script (run by gobuild with this Python) in its own directory under `tmp_path`."""
    directory = tmp_path / "harness"
    directory.mkdir(exist_ok=True)
    path = directory / name
    path.write_text("import os, sys\n" + textwrap.dedent(body))
    return path


@pytest.mark.usefixtures("go_on_path")
def test_the_last_line_printed_is_the_path_returned(tmp_path: Path) -> None:
    """The path is the last non-blank line of standard output; earlier lines are not it."""
    script = _script(tmp_path, 'print("building...")\nprint("/cache/widget/bin")\nprint()\n')
    assert run_build_script(script, WHAT, OPTION, on_line=lambda line: None) == Path("/cache/widget/bin")


@pytest.mark.usefixtures("go_on_path")
def test_the_script_runs_in_its_directory_with_the_arguments_given(tmp_path: Path) -> None:
    """`args` follow the script on its command line, and it runs in the script's own directory."""
    script = _script(tmp_path, "print(os.path.join(os.getcwd(), *sys.argv[1:]))\n")
    seen = run_build_script(script, WHAT, OPTION, on_line=lambda line: None, args=["--kube-version", "1.34"])
    assert seen == script.parent.resolve() / "--kube-version" / "1.34"


@pytest.mark.usefixtures("go_on_path")
def test_progress_lines_go_to_on_line_without_their_newline(tmp_path: Path) -> None:
    """Only standard-error lines starting `jobmodel: ` reach `on_line`, in order, newline removed."""
    script = _script(
        tmp_path,
        """\
        sys.stderr.write("jobmodel: fetching modules\\n")
        sys.stderr.write("go: downloading k8s.io/api v0.32.3\\n")
        sys.stderr.write("  jobmodel: indented, not a progress line\\n")
        sys.stderr.write("jobmodel:no space, not one either\\n")
        sys.stderr.write("jobmodel: compiling\\n")
        print("/cache/widget")
        """,
    )
    lines: list[str] = []
    assert run_build_script(script, WHAT, OPTION, on_line=lines.append) == Path("/cache/widget")
    assert lines == ["jobmodel: fetching modules", "jobmodel: compiling"]


@pytest.mark.usefixtures("go_on_path")
def test_without_on_line_progress_lines_go_to_standard_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With no `on_line`, the progress lines (and only they) are written to standard error as they were."""
    script = _script(
        tmp_path,
        """\
        sys.stderr.write("jobmodel: compiling\\n")
        sys.stderr.write("go: noise\\n")
        print("/cache/widget")
        """,
    )
    assert run_build_script(script, WHAT, OPTION) == Path("/cache/widget")
    captured = capsys.readouterr()
    assert captured.err == "jobmodel: compiling\n"
    assert captured.out == ""


@pytest.mark.usefixtures("go_on_path")
def test_a_failed_build_is_an_input_error_with_the_tools_output(tmp_path: Path) -> None:
    """A non-zero exit is an InputError on `option` naming `what`, then standard output, then all of standard error."""
    script = _script(
        tmp_path,
        """\
        print("partial output")
        sys.stderr.write("jobmodel: compiling\\n")
        sys.stderr.write("./main.go:3:2: undefined: widget\\n")
        sys.exit(1)
        """,
    )
    lines: list[str] = []
    with pytest.raises(InputError) as caught:
        run_build_script(script, WHAT, OPTION, on_line=lines.append)
    err = caught.value
    assert err.field == OPTION
    assert err.reason == (
        "building the widget failed:\npartial output\njobmodel: compiling\n./main.go:3:2: undefined: widget\n"
    )
    assert str(err) == f"{OPTION}: {err.reason}"
    assert lines == ["jobmodel: compiling"]  # progress was passed on before the failure


@pytest.mark.usefixtures("go_on_path")
def test_a_failed_build_that_printed_a_path_is_still_a_failure(tmp_path: Path) -> None:
    """The exit status decides: a path on standard output does not make a non-zero exit a success."""
    script = _script(tmp_path, 'print("/cache/widget")\nsys.exit(2)\n')
    with pytest.raises(InputError) as caught:
        run_build_script(script, WHAT, OPTION, on_line=lambda line: None)
    assert str(caught.value) == "widget build: building the widget failed:\n/cache/widget\n"


@pytest.mark.usefixtures("go_on_path")
def test_a_build_that_prints_no_path_is_an_input_error_naming_the_build_and_script(tmp_path: Path) -> None:
    """Exit 0 with only blank standard output: an InputError naming what was built and the script,
    showing standard error."""
    script = _script(
        tmp_path,
        """\
        print()
        print("   ")
        sys.stderr.write("jobmodel: nothing to do\\n")
        sys.stderr.write("warning: cache is read-only\\n")
        """,
    )
    with pytest.raises(InputError) as caught:
        run_build_script(script, WHAT, OPTION, on_line=lambda line: None)
    assert caught.value.field == OPTION
    assert caught.value.reason == (
        f"building the widget: {script} printed no path:\njobmodel: nothing to do\nwarning: cache is read-only\n"
    )


@pytest.mark.usefixtures("go_on_path")
def test_output_without_a_final_newline_does_not_run_into_standard_error(tmp_path: Path) -> None:
    """A failed build's standard output and standard error stay on their own lines."""
    script = _script(tmp_path, 'sys.stdout.write("half a line")\nsys.stderr.write("boom\\n")\nsys.exit(1)\n')
    with pytest.raises(InputError) as caught:
        run_build_script(script, WHAT, OPTION, on_line=lambda line: None)
    assert caught.value.reason == "building the widget failed:\nhalf a line\nboom\n"


@pytest.mark.usefixtures("go_on_path")
def test_a_script_printing_more_than_a_pipe_holds_does_not_block(tmp_path: Path) -> None:
    """Standard output larger than a pipe's buffer (64 KiB) is drained while standard error is read:
    the build finishes and its last line is the path."""
    script = _script(
        tmp_path,
        'for _ in range(3000):\n    print("x" * 80)\n'
        'sys.stderr.write("jobmodel: done\\n")\nprint("/cache/widget")\n',
    )
    found: list[Path] = []
    worker = threading.Thread(target=lambda: found.append(run_build_script(script, WHAT, OPTION, on_line=lambda line: None)), daemon=True)
    worker.start()
    worker.join(timeout=60)
    assert not worker.is_alive(), "the build blocked on a full standard output pipe"
    assert found == [Path("/cache/widget")]


@pytest.mark.usefixtures("go_on_path")
def test_a_script_that_cannot_be_started_is_an_input_error(tmp_path: Path) -> None:
    """A build script whose directory is missing: an InputError naming the build, not a traceback."""
    script = tmp_path / "gone" / "build.py"
    with pytest.raises(InputError) as caught:
        run_build_script(script, WHAT, OPTION)
    assert caught.value.field == OPTION
    assert caught.value.reason.startswith(f"cannot build the widget: cannot run {script}: ")


def test_missing_go_is_an_input_error_and_nothing_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without `go` on PATH the script is not started; the error names `option`, `what` and the Go needed."""
    asked: list[str] = []

    def which(name: str, *args: object, **kwargs: object) -> str | None:
        asked.append(name)
        return None

    monkeypatch.setattr(shutil, "which", which)  # the module gobuild looks `go` up with
    marker = tmp_path / "ran"
    script = _script(tmp_path, f"open({str(marker)!r}, 'w').close()\nprint('/cache/widget')\n")
    with pytest.raises(InputError) as caught:
        run_build_script(script, WHAT, OPTION, on_line=lambda line: None)
    assert asked == ["go"]
    assert caught.value.field == OPTION
    assert caught.value.reason == "cannot build the widget: `go` is not on PATH (Go 1.23 or newer is needed)"
    assert not marker.exists()
