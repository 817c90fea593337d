"""`jobmodel oracle serve|check`: the model as an oracle for other implementations
(docs/oracle-protocol.md).

`serve` answers the oracle protocol on standard input and output, so that another project's
tests can ask the model what upstream would do. `check` puts generated cases to the model and to
another implementation and writes each divergence, shrunk, as a conformance vector.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from jobmodel.adapters import protocol
from jobmodel.adapters.manifests import MAX_MANIFEST_BYTES
from jobmodel.commands.common import (
    FINDING,
    INPUT_ERROR,
    INTERNAL_ERROR,
    OK,
    check_output_path,
    gate_overrides,
)
from jobmodel.commands.conformance import check_timeout, engine_choice, make_engine
from jobmodel.commands.output import add_output_option, print_json, wants_json
from jobmodel.conformance.oracle import answer_line, model_handshake
from jobmodel.errors import InputError, printable
from jobmodel.features import NEWEST_RELEASE, parse_kube_version

if TYPE_CHECKING:
    from jobmodel.checkers.oracle_check import CheckResult, Progress


# `oracle check --examples`: at most this many generated cases.
MAX_EXAMPLES = 10_000_000


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
        "--kube-version", default=NEWEST_RELEASE, metavar="X.Y",
        help=f"the Kubernetes release to answer as, 1.32 ... 1.37 (default {NEWEST_RELEASE}); the handshake names its patch release",
    )
    serve.add_argument(
        "--feature-gates", default="", metavar="A=false,B=true",
        help="gate values that differ from the release's defaults, under each case's own `features`",
    )
    # Standard output is the protocol itself (JSON lines): json is the only format there is.
    add_output_option(serve, ("json",), "json")
    serve.set_defaults(func=run_serve)
    check = commands.add_parser(
        "check",
        help="check another implementation against the model on generated cases",
        description=(
            "Put generated cases of a suite to the model and to an implementation speaking the oracle "
            "protocol; shrink each divergence to a minimal case and write them as a conformance vector file."
        ),
    )
    check.add_argument("--engine", required=True, type=engine_choice, metavar="'cmd:PROGRAM ARGS'|upstream|model",
                       help="the implementation to check")
    check.add_argument("--suite", required=True, choices=protocol.SUITES)
    check.add_argument("--examples", type=int, default=500, metavar="N", help="generated cases to try (default 500)")
    check.add_argument("--out", type=Path, default=Path("divergences.json"), metavar="FILE",
                       help="the vector file divergences are written to (default divergences.json)")
    check.add_argument("--seed", type=int, default=None, help="the Hypothesis seed (default: a new one, printed)")
    check.add_argument(
        "--kube-version", default=None, metavar="X.Y",
        help=f"the release the cases are at, 1.32 ... 1.37 (default: the release a cmd: program's handshake names, else {NEWEST_RELEASE})",
    )
    check.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS", help="the longest wait for one answer (default 60)")
    add_output_option(check)
    check.set_defaults(func=run_check)


def run_serve(args: argparse.Namespace) -> int:
    """Answer every request line until standard input ends; a request the model fails on (a
    defect of the tool) gets an `error` answer, is said on stderr, and the exit code is then 3."""
    minor = parse_kube_version(args.kube_version)
    features = gate_overrides(args)
    out = sys.stdout
    out.write(protocol.encode(model_handshake(features, minor)) + "\n")
    out.flush()
    failures = 0
    for number, line in enumerate(request_lines(sys.stdin), 1):
        if isinstance(line, InputError):
            answer: dict[str, Any] = {"id": None, "error": str(line)}
        elif not line.strip():
            continue
        else:
            try:
                answer = answer_line(line, features, minor)
            except (Exception, RecursionError) as err:
                failures += 1
                detail = printable(f"{type(err).__name__}: {err}")[:300]
                print(f"internal error: request line {number}: {detail}", file=sys.stderr, flush=True)
                answer = {"id": None, "error": f"internal error of the model: {detail}"}
        out.write(protocol.encode(answer) + "\n")
        out.flush()
    return INTERNAL_ERROR if failures else OK


def request_lines(stream: TextIO) -> Iterator[str | InputError]:
    """The lines of the protocol's input; a line that is not UTF-8 or longer than
    MAX_MANIFEST_BYTES is an InputError in its place (the rest of such a line is skipped)."""
    buffer = getattr(stream, "buffer", None)
    if buffer is None:  # a text stream (tests)
        yield from stream
        return
    while True:
        raw = buffer.readline(MAX_MANIFEST_BYTES + 1)
        if not raw:
            return
        if len(raw) > MAX_MANIFEST_BYTES and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):
                raw = buffer.readline(MAX_MANIFEST_BYTES)
            yield InputError("request", f"a line longer than {MAX_MANIFEST_BYTES} bytes")
            continue
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError:
            yield InputError("request", "not UTF-8")


def run_check(args: argparse.Namespace) -> int:
    from jobmodel.checkers.oracle_check import check_implementation

    if not 1 <= args.examples <= MAX_EXAMPLES:
        raise InputError("--examples", f"expected 1 to {MAX_EXAMPLES}, got {args.examples}")
    check_timeout(args.timeout)
    check_output_path(args.out, "--out")
    if args.engine == "live":
        # The live engine runs job-scenario vectors (a Job's life on a control plane); every
        # generated case of these suites would be unsupported, and nothing checked.
        raise InputError("--engine", f"live runs job-scenario vectors only (jobmodel conformance --engine live), not {args.suite} cases")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    # The seed first, so an interrupted run can be replayed; with -o json it is in the document.
    print(f"oracle check {args.suite} against {args.engine}: seed {seed}", file=sys.stderr if wants_json(args) else sys.stdout, flush=True)
    engine = make_engine(args.engine, args)
    line = ProgressLine(sys.stderr, args.suite)
    try:
        release = check_release(args.kube_version, engine)
        result = check_implementation(engine, args.suite, args.examples, args.out, seed, line.show, release)
    finally:
        line.end()
        close = getattr(engine, "close", None)
        if close is not None:
            close()
    if result.aborted is not None:
        print(printable(f"error: {result.aborted}"), file=sys.stderr)
    if wants_json(args):
        print_json("OracleCheckResult", check_json(args, seed, result))
    else:
        print_check(args, result)
    if result.aborted is not None:
        return INPUT_ERROR
    if not result.divergences and result.unsupported == result.cases:
        print(f"error: {args.engine} supports none of the {result.cases} cases: nothing was checked", file=sys.stderr)
        return INPUT_ERROR
    return FINDING if result.divergences else OK


def check_release(kube_version: str | None, engine: object) -> str:
    """The release a check runs its cases at: --kube-version, else the one a protocol program's
    handshake names, else the newest."""
    if kube_version is not None:
        return f"1.{parse_kube_version(kube_version)}"
    handshake = getattr(engine, "handshake", None)
    if handshake is not None and getattr(engine, "name", "") != "upstream":
        return f"1.{parse_kube_version(handshake()['kubernetesVersion'], 'the handshake: kubernetesVersion')}"
    return NEWEST_RELEASE


def check_json(args: argparse.Namespace, seed: int, result: CheckResult) -> dict[str, Any]:
    """The check for programs (docs/output.md)."""
    written = bool(result.divergences) or result.aborted is not None
    return {
        "engine": args.engine,
        "suite": args.suite,
        "kubeVersion": result.release,
        "seed": seed,
        "cases": result.cases,
        "unsupported": result.unsupported,
        "divergences": divergences_json(result),
        "out": str(args.out) if written else None,
        "aborted": result.aborted,
    }


def divergences_json(result: CheckResult) -> list[dict[str, Any]]:
    """Each distinct divergence of a check: its signature, how it was judged, what differs."""
    return [
        {"signature": d.signature, "path": d.verdict.path, "differences": list(d.verdict.differences)}
        for d in result.divergences
    ]


def print_divergences(result: CheckResult) -> None:
    """Each divergence of a check and what differs (the first 20 differences), for people."""
    for number, divergence in enumerate(result.divergences, 1):
        print(f"divergence {number}: {divergence.signature} ({divergence.verdict.path})")
        for difference in divergence.verdict.differences[:20]:
            print(f"  {difference}")


def print_check(args: argparse.Namespace, result: CheckResult) -> None:
    """The check for people: each divergence and what differs, then the verdict line."""
    print_divergences(result)
    if result.aborted is not None:
        print(f"the check stopped after {result.cases} cases; the case that caused it is in {args.out}")
        return
    if not result.divergences:
        unsupported = f" ({result.unsupported} unsupported)" if result.unsupported else ""
        print(f"no divergence in {result.cases} cases{unsupported}")
        return
    count = len(result.divergences)
    print(f"{count} divergence{'s' if count > 1 else ''} in {result.cases} cases: minimal cases written to {args.out}")


class ProgressLine:
    """One line rewritten in place on a terminal; elsewhere a line now and then."""

    def __init__(self, stream: TextIO, suite: str, every: float = 5.0) -> None:
        self.stream = stream
        self.suite = suite
        self.tty = stream.isatty()
        self.every = 0.1 if self.tty else every
        self.last = 0.0
        self.text = ""

    def show(self, progress: Progress) -> None:
        now = time.monotonic()
        self.text = progress.line(self.suite)
        if now - self.last < self.every:
            return
        self.last = now
        self._write()

    def _write(self) -> None:
        if self.tty:
            self.stream.write("\r\x1b[K" + self.text)
        else:
            self.stream.write(self.text + "\n")
        self.stream.flush()

    def end(self) -> None:
        if self.text:
            self._write()
            if self.tty:
                self.stream.write("\n")
