"""`jobmodel oracle serve|check`: the model as an oracle for other implementations
(docs/oracle-protocol.md).

`serve` answers the oracle protocol on standard input and output, so that another project's
tests can ask the model what upstream would do. `check` puts generated cases to the model and to
another implementation and writes each divergence, shrunk, as a conformance vector.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from jobmodel.adapters import protocol
from jobmodel.conformance.oracle import answer_line, model_handshake
from jobmodel.errors import InputError
from jobmodel.features import MODEL_RELEASE, parse_gate_overrides


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "oracle",
        help="the model as an oracle for other implementations (serve the protocol, check an implementation)",
        description="The model as an oracle for other implementations of the Job and CronJob controllers (docs/oracle-protocol.md).",
    )
    commands = parser.add_subparsers(dest="oracle_command", required=True, metavar="serve|check")
    serve = commands.add_parser(
        "serve",
        help="answer the oracle protocol on standard input and output",
        description=(
            f"Write the {protocol.PROTOCOL} handshake, then answer each request line on standard input "
            "with one answer line on standard output, as the model computes it."
        ),
    )
    serve.add_argument(
        "--kube-version", default=MODEL_RELEASE, metavar="vX.Y.Z",
        help=f"the Kubernetes release to answer as (the model reproduces {MODEL_RELEASE})",
    )
    serve.add_argument(
        "--feature-gates", default="", metavar="A=false,B=true",
        help="gate values that differ from the defaults (all on), under each case's own `features`",
    )
    serve.set_defaults(func=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    if args.kube_version != MODEL_RELEASE:
        raise InputError("--kube-version", f"{args.kube_version!r}: the model answers as {MODEL_RELEASE} only")
    features = parse_gate_overrides(args.feature_gates)
    out = sys.stdout
    out.write(protocol.encode(model_handshake(features)) + "\n")
    out.flush()
    for line in sys.stdin:
        if not line.strip():
            continue
        out.write(protocol.encode(answer_line(line, features)) + "\n")
        out.flush()
    return 0
