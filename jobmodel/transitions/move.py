"""A move of an environment (the Job's or the CronJob's): what the checkers choose, apply, print
and save in traces."""

from __future__ import annotations

import attrs


@attrs.frozen
class Move:
    """One move: `kind`, the object it acts on (a pod; for the CronJob, a Job), and an argument (an edit)."""

    kind: str
    pod: str = ""
    arg: str = ""

    def __str__(self) -> str:
        parts = [self.kind, self.pod, self.arg]
        return " ".join(p for p in parts if p)

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "pod": self.pod, "arg": self.arg}
