"""Another implementation as a conformance engine: a program that speaks the oracle protocol
(docs/oracle-protocol.md, `jobmodel.adapters.protocol`) on its standard input and output.

`ProtocolEngine` starts the program, reads its handshake (the protocol version must match),
and sends one request line per case, waiting at most `timeout` seconds for each answer. Every
message the program writes is checked against the protocol's JSON Schema. A program that
crashes, hangs, answers out of turn or writes a malformed message is an `OracleError` naming the
program and the request (its id, suite and case name); the next request starts it afresh.
"""

from __future__ import annotations

import contextlib
import queue
import shlex
import subprocess
import tempfile
import threading
from collections.abc import Mapping, Sequence
from typing import IO, Any

from jobmodel.adapters import protocol
from jobmodel.adapters.manifests import parse_json
from jobmodel.errors import InputError, Unsupported, quote
from jobmodel.features import parse_kube_version

DEFAULT_TIMEOUT_SECONDS = 60.0
CMD_PREFIX = "cmd:"


class OracleError(InputError):
    """The implementation broke the protocol (or could not be run); the message says where."""

    def __init__(self, engine: str, reason: str) -> None:
        super().__init__(engine, reason)


class CaseError(InputError):
    """The implementation answered `{"error": ...}`: it could not run the case."""


def parse_cmd(spec: str) -> list[str]:
    """`cmd:PROGRAM ARGS...` -> the argument list (shell-quoted words, no shell)."""
    try:
        words = shlex.split(spec.removeprefix(CMD_PREFIX))
    except ValueError as err:  # an unclosed quotation
        raise InputError("--engine", f"{quote(spec)}: {err}") from None
    if not words:
        raise InputError("--engine", f"{quote(spec)}: expected cmd:PROGRAM [ARGS...]")
    return words


class ProtocolEngine:
    """An Engine (jobmodel.conformance.engines) backed by one program speaking the protocol."""

    def __init__(
        self,
        command: Sequence[str],
        name: str | None = None,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.command = list(command)
        self.env = None if env is None else dict(env)
        self.name = name or CMD_PREFIX + shlex.join(self.command)
        self.timeout = timeout
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._handshake: dict[str, Any] | None = None
        self._next_id = 1
        # A file, not a pipe: nobody reads stderr while requests run, and a full pipe would block.
        self._stderr: IO[str] = tempfile.TemporaryFile("w+")  # noqa: SIM115 (closed in close())

    # --- the process -------------------------------------------------------------------------

    def _error(self, reason: str) -> OracleError:
        return OracleError(self.name, reason)

    def _start(self) -> subprocess.Popen[str]:
        self._stderr.seek(0)
        self._stderr.truncate()
        try:
            proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                text=True,
                encoding="utf-8",
                bufsize=1,
                env=self.env,
            )
        except OSError as err:
            raise self._error(f"cannot start {self.command[0]}: {err}") from None
        self._lines = queue.Queue()
        threading.Thread(target=_read_lines, args=(proc.stdout, self._lines), daemon=True).start()
        self._proc = proc
        line = self._read_line("the handshake")
        message = self._decode(line, "the handshake")
        if isinstance(message, dict) and message.get("protocol") != protocol.PROTOCOL:
            self._stop()
            raise self._error(
                f"speaks protocol {message.get('protocol')!r}; this jobmodel speaks {protocol.PROTOCOL!r}"
            )
        wrong = protocol.problems(message, "handshake")
        if wrong:
            self._stop()
            raise self._error("malformed handshake: " + "; ".join(wrong))
        self._handshake = message
        return proc

    def _process(self) -> subprocess.Popen[str]:
        if self._proc is None or self._proc.poll() is not None:
            return self._start()
        return self._proc

    def _read_line(self, waiting_for: str) -> str:
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            self._stop()
            raise self._error(f"no answer within {self.timeout:g}s to {waiting_for} (the program was stopped)") from None
        if line is None:
            code = self._stop()
            raise self._error(f"exited ({code}) before answering {waiting_for}{self._stderr_tail()}")
        return line

    def _decode(self, line: str, what: str) -> Any:
        try:
            return parse_json(what, line)
        except InputError:
            self._stop()
            raise self._error(f"{what}: not a JSON line: {line[:200]!r}") from None

    def _stop(self) -> int | None:
        proc, self._proc = self._proc, None
        if proc is None:
            return None
        if proc.stdin is not None:
            with contextlib.suppress(OSError):
                proc.stdin.close()
        try:
            return proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            return proc.wait()

    def _stderr_tail(self) -> str:
        self._stderr.seek(0)
        text = self._stderr.read()[-4000:].strip()
        return f"; its standard error:\n{text}" if text else ""

    # --- requests ----------------------------------------------------------------------------

    def handshake(self) -> dict[str, Any]:
        """The program's handshake (starting it if need be)."""
        with self._lock:
            self._process()
            assert self._handshake is not None
            return self._handshake

    def answer(self, suite: str, case: Mapping[str, Any]) -> dict[str, Any]:
        """The program's checked answer to the case: `{"outcome": ...}`, `{"error": ...}` or
        `{"unsupported": ...}` (without the id)."""
        if suite not in protocol.SUITES:
            return {"unsupported": f"the oracle protocol carries the suites {', '.join(protocol.SUITES)}, not {suite!r}"}
        # The release a conformance case runs at is not part of the request: the program answers
        # as the one release its handshake names, and a case of another release is not sent.
        release = case.get("kubeVersion")
        case = {k: v for k, v in case.items() if k != "kubeVersion"}
        with self._lock:
            request_id = self._next_id
            self._next_id += 1
            message = protocol.request(request_id, suite, case)
            what = f"request {request_id} ({suite}: {case.get('name', 'unnamed case')})"
            wrong = protocol.problems(message, "request")
            if wrong:
                raise InputError(what, "; ".join(wrong))
            proc = self._process()
            assert self._handshake is not None
            claimed = self._handshake["kubernetesVersion"]
            if release is not None and not same_release(str(release), claimed):
                return {"unsupported": f"the case is a Kubernetes {release} case; {self.name} answers as {claimed} (--kube-version chooses the release cases run at)"}
            if suite not in self._handshake["suites"]:
                return {"unsupported": f"{self.name} does not answer suite {suite!r} (its handshake lists {', '.join(self._handshake['suites']) or 'none'})"}
            assert proc.stdin is not None
            try:
                proc.stdin.write(protocol.encode(message) + "\n")
                proc.stdin.flush()
            except (BrokenPipeError, OSError):
                pass  # the read below reports the exit
            line = self._read_line(what)
            reply = self._decode(line, what)
            plain = protocol.plain_reading(line)
            wrong = protocol.problems(reply, "answer", plain=plain)
            if not wrong and reply["id"] != request_id:
                wrong = [f"id: {reply['id']!r} answers another request"]
            if not wrong and "outcome" in reply:
                plain_outcome = plain.get("outcome") if isinstance(plain, dict) else None
                wrong = [f"outcome.{p}" for p in protocol.problems(reply["outcome"], f"outcome/{suite}", plain=plain_outcome)]
            if wrong:
                self._stop()
                raise self._error(f"malformed answer to {what}: " + "; ".join(wrong))
        return {k: v for k, v in reply.items() if k != "id"}

    def outcome(self, suite: str, case: Mapping[str, Any]) -> dict[str, Any]:
        """The outcome the program gives for the case, in the shape of its `expect`. An `error`
        answer raises CaseError, `unsupported` raises Unsupported."""
        reply = self.answer(suite, case)
        if "error" in reply:
            raise CaseError(f"{self.name}", str(reply["error"]))
        if "unsupported" in reply:
            raise Unsupported(str(reply["unsupported"]))
        outcome: dict[str, Any] = reply["outcome"]
        return outcome

    def close(self) -> None:
        with self._lock:
            self._stop()
            self._stderr.close()

    def __enter__(self) -> ProtocolEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def same_release(release: str, version: str) -> bool:
    """Whether a case's release (`1.37`) is the minor of a handshake's `kubernetesVersion` (`v1.37.2`)."""
    try:
        return parse_kube_version(release, "kubeVersion") == parse_kube_version(version, "kubernetesVersion")
    except InputError:
        return False


def _read_lines(stream: IO[str] | None, lines: queue.Queue[str | None]) -> None:
    """Every line the program writes, then None at its end."""
    assert stream is not None
    try:
        for line in stream:
            lines.put(line)
    except (OSError, ValueError):
        pass
    lines.put(None)
