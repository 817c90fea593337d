"""`jobmodel version`: the Kubernetes releases the model follows and the feature gates of each."""

from __future__ import annotations

import argparse
from typing import Any

from jobmodel.commands.output import add_output_option, print_json
from jobmodel.features import (
    GATE_TABLE,
    NEWEST_MINOR,
    NOT_MODELLED,
    RELEASE_PINS,
    SUPPORTED_MINORS,
    gate_stage,
    gate_value_when_unregistered,
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "version",
        help="list the supported Kubernetes releases and their feature gates",
        description=(
            "List the Kubernetes releases the model follows (--kube-version on every command; the newest "
            "is the default) and, per release, each Job/CronJob gate: its default, and whether it is locked "
            "(GA), not registered yet, or removed (its code always on)."
        ),
    )
    add_output_option(parser, ("table", "json"), "table")
    parser.set_defaults(func=run)


def gate_cell(name: str, minor: int) -> str:
    stage = gate_stage(name, minor)
    if stage is None:
        return "removed (on)" if gate_value_when_unregistered(name, minor) else "-"
    value = "on" if stage.default else "off"
    return f"{value} ({stage.stage}{', locked' if stage.locked else ''})"


def release_json() -> list[dict[str, Any]]:
    return [
        {
            "kubeVersion": f"1.{m}",
            "upstream": RELEASE_PINS[m],
            "default": m == NEWEST_MINOR,
            "gates": {
                name: {"default": s.default, "locked": s.locked, "stage": s.stage}
                for name in GATE_TABLE
                if (s := gate_stage(name, m)) is not None
            },
        }
        for m in SUPPORTED_MINORS
    ]


def run(args: argparse.Namespace) -> int:
    if args.output == "json":
        print_json("Releases", {"releases": release_json()})
        return 0
    print("releases (--kube-version): " + ", ".join(
        f"1.{m} ({RELEASE_PINS[m]}{', default' if m == NEWEST_MINOR else ''})" for m in SUPPORTED_MINORS
    ))
    print()
    header = ["gate", *(f"1.{m}" for m in SUPPORTED_MINORS)]
    rows = [[name, *(gate_cell(name, m) for m in SUPPORTED_MINORS)] for name in GATE_TABLE]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    print()
    print("- : not in that release (its code is not there either); removed (on): the code is always on")
    for name, why in NOT_MODELLED.items():
        print(f"{name}: not modelled ({why}); turning it on is refused")
    return 0
