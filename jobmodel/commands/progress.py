"""Progress on long work, drawn on standard error (rich) only when it is a terminal.

Commands wrap long work in `progress(...)` and advance the task it yields; on a pipe or in a CI
log nothing is drawn, so standard output stays what the command prints. `notice` is the one
line a user sees before a long set-up (a first Go build), terminal or not.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

# JOBMODEL_PROGRESS=0 turns the display off, =1 draws it even when stderr is not a terminal.
ENV = "JOBMODEL_PROGRESS"


class Task:
    """One piece of long work: `advance` counts finished units, `note` shows what is going on."""

    def __init__(self, bar: Any = None, task_id: Any = None) -> None:
        self._bar = bar
        self._id = task_id

    def advance(self, units: float = 1) -> None:
        if self._bar is not None:
            self._bar.advance(self._id, units)

    def log(self, line: str) -> None:
        """A line of text above the bar (on standard error without one)."""
        if self._bar is not None:
            self._bar.console.print(line, markup=False, highlight=False)
        else:
            print(line, file=sys.stderr, flush=True)

    def update(self, *, completed: float | None = None, total: float | None = None, note: str | None = None) -> None:
        if self._bar is None:
            return
        fields: dict[str, Any] = {}
        if completed is not None:
            fields["completed"] = completed
        if total is not None:
            fields["total"] = total
        if note is not None:
            fields["note"] = note
        self._bar.update(self._id, **fields)


def progress_wanted(stream: TextIO | None = None) -> bool:
    setting = os.environ.get(ENV)
    if setting is not None:
        return setting not in ("", "0", "false", "no")
    target = stream if stream is not None else sys.stderr
    return bool(getattr(target, "isatty", lambda: False)())


@contextmanager
def progress(description: str, total: float | None = None, *, unit: str = "") -> Iterator[Task]:
    """A progress bar (a spinner when `total` is None) for the work inside the block; removed
    when the block ends."""
    if not progress_wanted():
        yield Task()
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    columns: list[Any] = [SpinnerColumn(), TextColumn("{task.description}")]
    if total is not None:
        columns += [BarColumn(), MofNCompleteColumn()]
    else:
        columns.append(TextColumn("{task.completed:.0f}" + (f" {unit}" if unit else "")))
    columns += [TimeElapsedColumn(), TextColumn("{task.fields[note]}")]
    console = Console(file=sys.stderr, force_terminal=True)
    with Progress(*columns, console=console, transient=True) as bar:
        yield Task(bar, bar.add_task(description, total=total, note=""))


def notice(message: str) -> None:
    """One line on standard error, e.g. before a long first set-up."""
    print(f"jobmodel: {message}", file=sys.stderr, flush=True)
