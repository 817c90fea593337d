"""A real cluster, through the official `kubernetes` Python client.

Three parts:
- `LiveCluster`: the calls a user, a scheduler and a kubelet make: create, update and delete
  Jobs and CronJobs; bind pods to a Node and write their status (start, ready, succeed, fail
  with an exit code or a condition such as DisruptionTarget); delete pods with or without a
  grace period. Every object goes over the wire as Kubernetes JSON, as `kubectl` would send it.
- `Recorder`: watches on Jobs, Pods, CronJobs and Events of one namespace. Each watch resumes from
  the last resourceVersion it saw after a disconnect, and re-lists on `410 Gone`, recording only
  what differs from what it already had (so nothing is recorded twice and every object ends in
  its true state). Everything observed, and every call made, is appended to a trace file as one
  JSON line the moment it arrives (`TraceWriter`): a trace is readable after `kill -9`.
- The errors: an unreachable cluster, a malformed kubeconfig, a user without permission and a
  watch that stays disconnected each become one `LiveError` line; the trace keeps what was
  recorded up to then.

Credentials never reach a trace: the kubeconfig is read by the client only, the trace header
names the server's URL, and objects are recorded without `managedFields`.
"""

from __future__ import annotations

import bisect
import json
import logging
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

import attrs

from jobmodel.adapters.manifests import parse_json, read_text
from jobmodel.errors import InputError

TRACE_FORMAT = "jobmodel-live-trace/1"
# A trace file holds one recording: appending a second would mix two clusters' resourceVersions.
EXISTING_TRACE = "exists: a trace file holds one recording (name a new file, or remove this one)"
RESOURCES = ("jobs", "pods", "cronjobs", "events")
NODE_NAME = "jobmodel-node"
WATCH_SECONDS = 60  # server-side timeout of one watch request; the watch then resumes
READ_TIMEOUT = WATCH_SECONDS + 15.0
REQUEST_TIMEOUT = (5.0, 30.0)
DEFAULT_GIVE_UP_SECONDS = 60.0
# A trace of a long run may be large; larger files are refused rather than read into memory.
MAX_TRACE_BYTES = 1024 * 1024 * 1024


class LiveError(InputError):
    """A real cluster could not be used: one line saying what and why."""

    def __init__(self, reason: str, status: int = 0) -> None:
        super().__init__("cluster", reason)
        self.status = status  # the HTTP status when the server answered (401, 403), else 0


@attrs.frozen
class Rejected(Exception):
    """The API server refused a request (4xx): its status code, message and field causes."""

    status: int
    message: str
    causes: tuple[tuple[str, str, str], ...] = ()  # (field, reason such as FieldValueInvalid, message)

    def __str__(self) -> str:
        return f"{self.status}: {self.message}"


# --- the client --------------------------------------------------------------------------------


def load_api_client(kubeconfig: Path) -> Any:
    """A `kubernetes.client.ApiClient` for the kubeconfig's current context; a missing or malformed
    file is a LiveError naming it."""
    from kubernetes import config
    from kubernetes.config.config_exception import ConfigException

    if not kubeconfig.is_file():
        raise LiveError(f"kubeconfig {kubeconfig}: no such file")
    new_client: Any = config.new_client_from_config  # untyped in the client
    # Connection failures are this module's to report (one line) and to retry (the watches):
    # no retries and no warnings from urllib3 underneath.
    logging.getLogger("urllib3.connectionpool").setLevel(logging.ERROR)
    try:
        api_client = new_client(str(kubeconfig))
        with_scheme(api_client.configuration)
        api_client.configuration.retries = 0
        api_client.rest_client = type(api_client.rest_client)(api_client.configuration)
        return api_client
    except ConfigException as err:
        raise LiveError(f"kubeconfig {kubeconfig} is not usable: {_one_line(str(err))}") from None
    except Exception as err:  # the loader raises YAML, type and key errors of its own on bad files
        raise LiveError(f"kubeconfig {kubeconfig} is malformed: {type(err).__name__}: {_one_line(str(err))}") from None


def with_scheme(configuration: Any) -> None:
    """Give the client's server address a scheme if the kubeconfig's has none (server_with_scheme),
    also after the loader's hook that sets it again before every call (token auth)."""
    tls = bool(configuration.ssl_ca_cert or configuration.cert_file or not configuration.verify_ssl or getattr(configuration, "tls_server_name", None))
    configuration.host = server_with_scheme(str(configuration.host), tls=tls)
    refresh = configuration.refresh_api_key_hook
    if refresh is not None:

        def refreshed(conf: Any) -> None:
            refresh(conf)
            conf.host = server_with_scheme(str(conf.host), tls=tls)

        configuration.refresh_api_key_hook = refreshed


def server_with_scheme(server: str, *, tls: bool) -> str:
    """A kubeconfig's server address with a scheme, as client-go reads one without
    (`rest.DefaultServerURL`): https when the cluster entry configures TLS (a CA, a client
    certificate, insecure-skip-tls-verify, a server name), else http."""
    if "://" in server:
        return server
    return f"{'https' if tls else 'http'}://{server}"


def _one_line(text: str, limit: int = 300) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def server_of(api_client: Any) -> str:
    return str(api_client.configuration.host)


def api_error(err: BaseException, server: str, doing: str) -> LiveError | Rejected:
    """A client exception as one clear line (LiveError), or the server's refusal (Rejected)."""
    from kubernetes.client.exceptions import ApiException

    if isinstance(err, ApiException):
        status = int(err.status or 0)
        body: dict[str, Any] = {}
        try:
            body = json.loads(err.body) if err.body else {}
        except (ValueError, TypeError):
            body = {}
        message = str(body.get("message") or err.reason or "")
        if status == 0:
            return LiveError(f"cannot reach the cluster at {server} while trying to {doing}: {_one_line(message)}")
        if status == 401:
            return LiveError(
                f"the cluster at {server} rejected the kubeconfig's credentials (401 Unauthorized) while trying to {doing}", 401
            )
        if status == 403:
            return LiveError(f"not allowed to {doing} (403 Forbidden): {_one_line(message)}", 403)
        causes = tuple(
            (str(c.get("field", "")), str(c.get("reason", "")), str(c.get("message", "")))
            for c in (body.get("details") or {}).get("causes") or []
        )
        return Rejected(status, _one_line(message), causes)
    return LiveError(f"cannot reach the cluster at {server} while trying to {doing}: {connection_problem(err)}")


def answer_body(data: bytes | str | None, server: str, doing: str) -> dict[str, Any]:
    """A successful answer's Kubernetes object (empty for no body), or a LiveError when the server
    answered with something else (a proxy's page, a server that is no API server)."""
    if not data:
        return {}
    try:
        body = json.loads(data)
    except ValueError:
        body = None
    if not isinstance(body, dict):
        text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
        raise LiveError(f"cannot {doing}: the server at {server} answered with no Kubernetes object: {_one_line(text, 80)!r}")
    return body


WARNING_HEADER = re.compile(r'\d{3} \S+ "((?:[^"\\]|\\.)*)"')


def parse_warning_header(value: str) -> str | None:
    """The text of one `Warning` header as the API server writes it (apimachinery
    `NewWarningHeader`: `299 - "text"`, with `"` and `\\` escaped), or None for another form."""
    match = WARNING_HEADER.fullmatch(value.strip())
    return None if match is None else re.sub(r"\\(.)", r"\1", match.group(1))


def warnings_of(headers: Any) -> list[str]:
    """The warnings of a response, in the order the server sent them (http.client reads header
    bytes as ISO-8859-1; the server writes UTF-8)."""
    values = headers.getlist("Warning") if hasattr(headers, "getlist") else []
    return [text for text in (parse_warning_header(_utf8(v)) for v in values) if text is not None]


def _utf8(value: str) -> str:
    try:
        return value.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return value


def connection_problem(err: BaseException) -> str:
    """The gist of a connection failure: `[Errno 111] Connection refused`, a timeout, a TLS error."""

    text = str(getattr(err, "reason", None) or err)
    errno = re.search(r"\[Errno -?\d+\] [^'\")\]]+", text)
    if errno:
        return errno.group(0).strip()
    if "timed out" in text.lower():
        return "timed out"
    if "CERTIFICATE_VERIFY_FAILED" in text:
        return "the server's certificate is not trusted by the kubeconfig's certificate authority"
    return f"{type(err).__name__}: {_one_line(text, 200)}"


def redact(obj: Mapping[str, Any]) -> dict[str, Any]:
    """The object as recorded: without managedFields (noise, and the names of the clients)."""
    out = dict(obj)
    meta = out.get("metadata")
    if isinstance(meta, Mapping) and "managedFields" in meta:
        out["metadata"] = {k: v for k, v in meta.items() if k != "managedFields"}
    return out


def now_text() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# --- the trace file ----------------------------------------------------------------------------


class TraceWriter:
    """A new trace file (never one that exists: InputError), one JSON object per line, each
    flushed at once (readable after the process is killed).

    Line kinds: the header (`format`), `event` (an object observed: `resource`, `type`,
    `rv`, `source` watch/list/relist, `object`), `action` (a call this client made), `error`,
    `note`. Each line but the header carries `seq` (its position) and `t` (seconds since start).
    """

    def __init__(self, path: Path, header: Mapping[str, Any]) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._seq = 0
        self._started = time.monotonic()
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._file: IO[str] = path.open("x", encoding="utf-8")
        except FileExistsError:
            raise InputError(str(path), EXISTING_TRACE) from None
        self._write({"format": TRACE_FORMAT, "started": now_text(), **header})

    def _write(self, line: Mapping[str, Any]) -> None:
        self._file.write(json.dumps(line, separators=(",", ":"), sort_keys=False) + "\n")
        self._file.flush()

    def append(self, kind: str, **fields: Any) -> int:
        with self._lock:
            self._seq += 1
            line = {"seq": self._seq, "t": round(time.monotonic() - self._started, 4), "kind": kind, **fields}
            if not self._file.closed:
                self._write(line)
            return self._seq

    def elapsed(self) -> float:
        return time.monotonic() - self._started

    def close(self) -> None:
        with self._lock:
            if not self._file.closed:
                self._file.close()


def read_trace(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A trace file's header and lines; a last line cut short by a kill is ignored. Each line is
    read within the bounds of any JSON input (jobmodel.adapters.manifests)."""
    text = read_text(str(path), MAX_TRACE_BYTES)
    lines = text.splitlines()
    records: list[dict[str, Any]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            value = parse_json(f"{path}:{number}", line)
        except InputError:
            if number == len(lines):
                break  # the writer was killed mid-line
            raise
        if not isinstance(value, dict):
            raise InputError(f"{path}:{number}", "a trace line is a JSON object")
        records.append(value)
    if not records or records[0].get("format") != TRACE_FORMAT:
        raise InputError(str(path), f"not a live trace (the first line must have format {TRACE_FORMAT!r})")
    return records[0], records[1:]


# --- what the watches have seen -------------------------------------------------------------------


def rv_number(rv: object) -> int:
    """A resourceVersion as a number (etcd's revision, which orders all writes); -1 if opaque."""
    text = str(rv or "")
    return int(text) if text.isdigit() else -1


@attrs.define
class View:
    """The latest version of every object seen, by resource and key (namespace/name)."""

    objects: dict[str, dict[str, dict[str, Any]]] = attrs.field(factory=lambda: {r: {} for r in RESOURCES})
    first_seen_rv: dict[str, int] = attrs.field(factory=dict)  # pod uid -> rv when first seen
    last_change: float = 0.0
    changes: int = 0
    writes: int = 0  # the changes of Jobs and pods (not of Events)
    # namespace -> the rvs of every Job write seen there, ascending: a sync's pod creations lie
    # between two of them (it writes the Job's status once it has made them).
    job_write_rvs: dict[str, list[int]] = attrs.field(factory=dict)

    def apply(self, resource: str, event_type: str, obj: Mapping[str, Any]) -> None:
        key = object_key(obj)
        if resource == "jobs":
            meta = obj.get("metadata") or {}
            bisect.insort(self.job_write_rvs.setdefault(str(meta.get("namespace", "")), []), rv_number(meta.get("resourceVersion")))
        if event_type == "DELETED":
            self.objects[resource].pop(key, None)
        else:
            self.objects[resource][key] = dict(obj)
            uid = str((obj.get("metadata") or {}).get("uid", ""))
            if resource == "pods" and uid not in self.first_seen_rv:
                self.first_seen_rv[uid] = rv_number((obj.get("metadata") or {}).get("resourceVersion"))
        self.last_change = time.monotonic()
        self.changes += 1
        self.writes += resource != "events"

    def copy(self) -> View:
        return View(
            {r: dict(items) for r, items in self.objects.items()},
            dict(self.first_seen_rv),
            self.last_change,
            self.changes,
            self.writes,
            {namespace: list(rvs) for namespace, rvs in self.job_write_rvs.items()},
        )

    def sync_of(self, namespace: str, rv: int) -> int:
        """Which interval between the namespace's Job writes holds the write of `rv` (a pod
        creation's: pods of one interval were made by one sync)."""
        return bisect.bisect_left(self.job_write_rvs.get(namespace, []), rv)


def object_key(obj: Mapping[str, Any]) -> str:
    meta = obj.get("metadata") or {}
    return f"{meta.get('namespace', '')}/{meta.get('name', '')}"


# --- watching ------------------------------------------------------------------------------------


class Watcher(threading.Thread):
    """List, then watch one resource in one namespace, for as long as the recorder runs."""

    def __init__(self, recorder: Recorder, resource: str) -> None:
        super().__init__(name=f"watch-{resource}", daemon=True)
        self.recorder = recorder
        self.resource = resource
        self.rv = ""
        self.synced = threading.Event()
        self.down_since: float | None = None  # when the connection was lost, while it is
        self._response: Any = None

    def _connected(self) -> None:
        if self.down_since is not None:
            self.down_since = None
            self.recorder.trace.append("note", resource=self.resource, note=f"watch reconnected at resourceVersion {self.rv}")

    def run(self) -> None:
        rec = self.recorder
        need_list = True
        delay = 0.1
        while not rec.stopping.is_set():
            try:
                if need_list:
                    self._list(relist=self.synced.is_set())
                    need_list = False
                gone = self._watch()
                if gone:
                    rec.trace.append("note", resource=self.resource, note=f"410 Gone at resourceVersion {self.rv}: re-listing")
                    need_list = True
                self._connected()
                delay = 0.1
            except Exception as err:  # any failure of the connection: retry, then give up
                if rec.stopping.is_set():
                    return
                error = api_error(err, rec.server, f"watch {self.resource} in namespace {rec.namespace}")
                message = str(error.reason if isinstance(error, LiveError) else error)
                if isinstance(error, LiveError) and error.status in (401, 403):
                    rec.fail(message)
                    return
                if self.down_since is None:
                    self.down_since = time.monotonic()
                    rec.trace.append("error", resource=self.resource, message=f"watch disconnected: {message}")
                if time.monotonic() - self.down_since > rec.give_up_seconds:
                    rec.fail(
                        f"the watch on {self.resource} lost the cluster at {rec.server} and it did not answer for "
                        f"{rec.give_up_seconds:g}s ({message}); the trace keeps what was recorded: {rec.trace.path}"
                    )
                    return
                rec.stopping.wait(delay)
                delay = min(delay * 2, 2.0)

    def _list_call(self, **kwargs: Any) -> Any:
        return self.recorder.cluster.list_call(self.resource)(self.recorder.namespace, _preload_content=False, **kwargs)

    def _list(self, relist: bool) -> None:
        rec = self.recorder
        response = self._list_call(_request_timeout=REQUEST_TIMEOUT)
        body = json.loads(response.data)
        items = body.get("items") or []
        source = "relist" if relist else "list"
        with rec.lock:
            known = dict(rec.view.objects[self.resource])
            seen: set[str] = set()
            for item in items:
                item.setdefault("metadata", {})
                key = object_key(item)
                seen.add(key)
                old = known.get(key)
                if old is not None and old.get("metadata", {}).get("resourceVersion") == item["metadata"].get("resourceVersion"):
                    continue  # already recorded: never twice
                rec.observe_locked(self.resource, "ADDED" if old is None else "MODIFIED", item, source)
            for key, old in known.items():
                if key not in seen:
                    rec.observe_locked(self.resource, "DELETED", old, source)
        self.rv = str((body.get("metadata") or {}).get("resourceVersion", ""))
        self.synced.set()

    def _watch(self) -> bool:
        """Watch from self.rv until the server ends the request; True on 410 Gone."""
        from kubernetes.watch import watch

        iter_resp_lines: Any = watch.iter_resp_lines  # untyped in the client
        rec = self.recorder
        response = self._list_call(
            watch=True,
            resource_version=self.rv,
            allow_watch_bookmarks=True,
            timeout_seconds=WATCH_SECONDS,
            _request_timeout=(REQUEST_TIMEOUT[0], READ_TIMEOUT),
        )
        self._response = response
        self._connected()
        try:
            for line in iter_resp_lines(response):
                if rec.stopping.is_set():
                    return False
                event = json.loads(line)
                kind, obj = event.get("type"), event.get("object") or {}
                if kind == "ERROR":
                    if obj.get("code") == 410:
                        return True
                    raise RuntimeError(f"watch error: {obj.get('message')}")
                rv = str((obj.get("metadata") or {}).get("resourceVersion", ""))
                if kind == "BOOKMARK":
                    self.rv = rv or self.rv
                    continue
                with rec.lock:
                    rec.observe_locked(self.resource, str(kind), obj, "watch")
                self.rv = rv or self.rv
        finally:
            self._response = None
            response.release_conn()
        return False

    def interrupt(self) -> None:
        """Cut the current watch connection (the watcher then resumes, as after a network fault)."""
        response = self._response
        if response is not None:
            try:
                response.shutdown()
            except Exception:
                response.close()


class Recorder:
    """Watches of one namespace, recorded to a trace file and kept as a live `View`."""

    def __init__(
        self,
        cluster: LiveCluster,
        namespace: str,
        trace_path: Path,
        header: Mapping[str, Any] | None = None,
        *,
        give_up_seconds: float = DEFAULT_GIVE_UP_SECONDS,
    ) -> None:
        self.cluster = cluster
        self.server = cluster.server
        self.namespace = namespace
        self.give_up_seconds = give_up_seconds
        self.trace = TraceWriter(trace_path, {"server": self.server, "namespace": namespace, **(header or {})})
        self.view = View()
        self.lock = threading.Condition()
        self.stopping = threading.Event()
        self.failure: str | None = None
        self.watchers = {r: Watcher(self, r) for r in RESOURCES}

    def start(self, timeout: float = 30.0) -> Recorder:
        for watcher in self.watchers.values():
            watcher.start()
        deadline = time.monotonic() + timeout
        for watcher in self.watchers.values():
            while not watcher.synced.wait(0.1):
                self.check()
                if time.monotonic() > deadline:
                    raise LiveError(f"the watches did not start within {timeout:g}s")
        return self

    def stop(self) -> None:
        self.stopping.set()
        for watcher in self.watchers.values():
            watcher.interrupt()
        for watcher in self.watchers.values():
            if watcher.is_alive():
                watcher.join(timeout=5)
        self.trace.close()

    def __enter__(self) -> Recorder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def fail(self, message: str) -> None:
        with self.lock:
            if self.failure is None:
                self.failure = message
                self.trace.append("error", message=message, fatal=True)
            self.lock.notify_all()

    def check(self) -> None:
        """Raise the recorder's failure, if any (a watch that gave up)."""
        if self.failure is not None:
            raise LiveError(self.failure)

    def observe_locked(self, resource: str, event_type: str, obj: Mapping[str, Any], source: str) -> None:
        rv = str((obj.get("metadata") or {}).get("resourceVersion", ""))
        self.trace.append("event", resource=resource, type=event_type, rv=rv, source=source, object=redact(obj))
        self.view.apply(resource, event_type, obj)
        self.lock.notify_all()

    def action(self, actor: str, what: str, result: Mapping[str, Any] | None = None, **fields: Any) -> None:
        """Record a call this client made; its result's resourceVersion names the event it caused."""
        rv = str(((result or {}).get("metadata") or {}).get("resourceVersion", "")) if result else ""
        with self.lock:
            self.trace.append("action", actor=actor, what=what, rv=rv, **fields)

    def snapshot(self) -> View:
        with self.lock:
            return self.view.copy()

    def wait_until(self, predicate: Callable[[View], bool], timeout: float) -> bool:
        """Wait until `predicate(view)` holds; False on timeout."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while not predicate(self.view):
                self.check()
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.lock.wait(min(left, 0.2))
            return True

    def wait_quiet(self, quiet: float, timeout: float, since: float | None = None) -> bool:
        """Wait until nothing changed for `quiet` seconds (and at least `quiet` after `since`)."""
        start = time.monotonic() if since is None else since
        deadline = time.monotonic() + timeout
        with self.lock:
            while True:
                self.check()
                now = time.monotonic()
                last = max(self.view.last_change, start)
                if now - last >= quiet:
                    return True
                if now >= deadline:
                    return False
                self.lock.wait(min(quiet - (now - last), deadline - now, 0.2) + 0.001)

    def changes_after(self, count: int) -> int:
        with self.lock:
            return self.view.changes - count


# --- the calls ------------------------------------------------------------------------------------


class LiveCluster:
    """The calls a user, a scheduler and a kubelet make, as Kubernetes JSON over the client."""

    def __init__(self, api_client: Any) -> None:
        from kubernetes import client

        self.api_client = api_client
        self.server = server_of(api_client)
        self.core = client.CoreV1Api(api_client)
        self.batch = client.BatchV1Api(api_client)

    @classmethod
    def connect(cls, kubeconfig: Path) -> LiveCluster:
        return cls(load_api_client(kubeconfig))

    def close(self) -> None:
        self.api_client.close()

    def list_call(self, resource: str) -> Callable[..., Any]:
        calls: dict[str, Callable[..., Any]] = {
            "jobs": self.batch.list_namespaced_job,
            "pods": self.core.list_namespaced_pod,
            "cronjobs": self.batch.list_namespaced_cron_job,
            "events": self.core.list_namespaced_event,
        }
        return calls[resource]

    def _call(self, doing: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> dict[str, Any]:
        try:
            response = fn(*args, _preload_content=False, _request_timeout=REQUEST_TIMEOUT, **kwargs)
        except Exception as err:
            raise api_error(err, self.server, doing) from None
        return answer_body(response.data, self.server, doing)

    # checks
    def check_access(self, namespace: str) -> None:
        """Reach the server and list Jobs and Pods in the namespace, or raise a clear LiveError."""
        for doing, fn in (
            (f"list jobs in namespace {namespace}", self.batch.list_namespaced_job),
            (f"list pods in namespace {namespace}", self.core.list_namespaced_pod),
        ):
            try:
                self._call(doing, fn, namespace, limit=1)
            except Rejected as err:
                if err.status != 404:
                    raise LiveError(f"cannot {doing}: {err}") from None

    def version(self) -> str:
        from kubernetes import client

        body = self._call("read the server version", client.VersionApi(self.api_client).get_code)
        return str(body.get("gitVersion", ""))

    # namespaces, nodes
    def create_namespace(self, name: str) -> dict[str, Any]:
        return self._call(f"create namespace {name}", self.core.create_namespace, {"metadata": {"name": name}})

    def namespace_exists(self, name: str) -> bool:
        try:
            self._call(f"read namespace {name}", self.core.read_namespace, name)
        except Rejected as err:
            if err.status == 404:
                return False
            raise
        return True

    def delete_namespace(self, name: str) -> None:
        try:
            self._call(f"delete namespace {name}", self.core.delete_namespace, name)
        except Rejected as err:
            if err.status != 404:
                raise

    def wait_service_account(self, namespace: str, timeout: float = 30.0) -> None:
        """Pods can be created once the namespace's `default` ServiceAccount exists."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                self._call("read the default service account", self.core.read_namespaced_service_account, "default", namespace)
                return
            except Rejected as err:
                if err.status != 404 or time.monotonic() > deadline:
                    raise LiveError(
                        f"namespace {namespace} has no default ServiceAccount after {timeout:g}s: "
                        "is the service-account controller running?"
                    ) from None
            time.sleep(0.1)

    def ensure_node(self, name: str = NODE_NAME) -> None:
        """A Node object to bind pods to (graceful deletion needs a pod on a node)."""
        node = {
            "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name}},
            "status": {"conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady"}]},
        }
        try:
            self._call(f"create node {name}", self.core.create_node, node)
        except Rejected as err:
            if err.status != 409:
                raise

    # Jobs and CronJobs
    def create_job(self, namespace: str, manifest: Mapping[str, Any]) -> dict[str, Any]:
        return self._call("create the Job", self.batch.create_namespaced_job, namespace, dict(manifest))

    def read_job(self, namespace: str, name: str) -> dict[str, Any] | None:
        try:
            return self._call(f"read Job {name}", self.batch.read_namespaced_job, name, namespace)
        except Rejected as err:
            if err.status == 404:
                return None
            raise

    def patch_job(self, namespace: str, name: str, patch: Mapping[str, Any]) -> dict[str, Any]:
        """A JSON merge patch (RFC 7386), applied by the API server as an update."""
        return self._call(
            f"update Job {name}", self.batch.patch_namespaced_job, name, namespace, dict(patch),
            _content_type="application/merge-patch+json",
        )

    def delete_job(self, namespace: str, name: str, propagation: str) -> dict[str, Any]:
        return self._call(
            f"delete Job {name}", self.batch.delete_namespaced_job, name, namespace,
            body={"propagationPolicy": propagation},
        )

    def create_cronjob(self, namespace: str, manifest: Mapping[str, Any]) -> dict[str, Any]:
        return self._call("create the CronJob", self.batch.create_namespaced_cron_job, namespace, dict(manifest))

    def patch_cronjob(self, namespace: str, name: str, patch: Mapping[str, Any]) -> dict[str, Any]:
        return self._call(
            f"update CronJob {name}", self.batch.patch_namespaced_cron_job, name, namespace, dict(patch),
            _content_type="application/merge-patch+json",
        )

    def delete_cronjob(self, namespace: str, name: str, propagation: str = "Background") -> dict[str, Any]:
        return self._call(
            f"delete CronJob {name}", self.batch.delete_namespaced_cron_job, name, namespace,
            body={"propagationPolicy": propagation},
        )

    def create_dry_run(
        self, kind: str, namespace: str, manifest: Mapping[str, Any], field_validation: str | None = None
    ) -> tuple[dict[str, Any], list[str]]:
        """A create of a Job or CronJob the API server decodes (under `field_validation`, when
        given; the server's default is Warn), defaults, admits and validates but does not store
        (dryRun=All): the object it would store, and its warnings."""
        return self._create_as_written(kind, namespace, manifest, field_validation, dry_run=True)

    def create_job_as_written(self, namespace: str, manifest: Mapping[str, Any], field_validation: str) -> tuple[dict[str, Any], list[str]]:
        """A create of the Job as the user wrote it, its unknown fields included, decoded under
        the fieldValidation directive kubectl's --validate sends: the stored Job, and the warnings."""
        return self._create_as_written("Job", namespace, manifest, field_validation, dry_run=False)

    def _create_as_written(
        self, kind: str, namespace: str, manifest: Mapping[str, Any], field_validation: str | None, *, dry_run: bool
    ) -> tuple[dict[str, Any], list[str]]:
        doing = f"create the {kind}" + (" (dry run)" if dry_run else "")
        query = ([("dryRun", "All")] if dry_run else []) + ([] if field_validation is None else [("fieldValidation", field_validation)])
        resource = "jobs" if kind == "Job" else "cronjobs"
        try:
            response = self._post_as_given(f"/apis/batch/v1/namespaces/{namespace}/{resource}", query, manifest)
        except Exception as err:
            raise api_error(err, self.server, doing) from None
        return answer_body(response.data, self.server, doing), warnings_of(response.headers)

    def _post_as_given(self, path: str, query: list[tuple[str, str]], body: Mapping[str, Any]) -> Any:
        """A POST of `body` as given, its fields unknown to the client's models included (the
        typed methods refuse those before sending); the raw response, or the client's
        ApiException for a status other than 2xx."""
        from kubernetes.client.exceptions import ApiException

        api = self.batch.api_client
        headers = {"Accept": "application/json", "Content-Type": "application/json"}
        request = api.param_serialize(
            method="POST", resource_path=path, query_params=query, header_params=headers, body=dict(body),
            auth_settings=["BearerToken"],
        )  # fmt: skip
        response = api.call_api(*request, _request_timeout=REQUEST_TIMEOUT)
        response.read()
        if not 200 <= response.status <= 299:
            raise ApiException.from_response(http_resp=response, body=None, data=None)
        return response.response

    # pods: the scheduler's and the kubelet's calls
    def bind_pod(self, namespace: str, name: str, node: str = NODE_NAME) -> dict[str, Any]:
        binding = {
            "apiVersion": "v1",
            "kind": "Binding",
            "metadata": {"name": name, "namespace": namespace},
            "target": {"apiVersion": "v1", "kind": "Node", "name": node},
        }
        return self._call(f"bind pod {name}", self.core.create_namespaced_pod_binding, name, namespace, binding)

    def patch_pod_status(self, namespace: str, name: str, status: Mapping[str, Any]) -> dict[str, Any]:
        """A JSON merge patch of the pod's status, through pods/status (as a kubelet writes it)."""
        return self._call(
            f"update the status of pod {name}", self.core.patch_namespaced_pod_status, name, namespace,
            {"status": dict(status)}, _content_type="application/merge-patch+json",
        )

    def delete_pod(self, namespace: str, name: str, grace_seconds: int | None = None, uid: str | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {}
        if grace_seconds is not None:
            body["gracePeriodSeconds"] = grace_seconds
        if uid is not None:
            body["preconditions"] = {"uid": uid}
        return self._call(f"delete pod {name}", self.core.delete_namespaced_pod, name, namespace, body=body or None)


@attrs.frozen
class Session:
    """A cluster connection with a recorder on one namespace (see `open_session`)."""

    cluster: LiveCluster
    recorder: Recorder
    namespace: str


def open_session(
    kubeconfig: Path,
    namespace: str,
    trace_path: Path,
    header: Mapping[str, Any] | None = None,
    *,
    create_namespace: bool = True,
    give_up_seconds: float = DEFAULT_GIVE_UP_SECONDS,
) -> Session:
    """Connect, check access, make the namespace (and wait for its ServiceAccount), start recording."""
    cluster = LiveCluster.connect(kubeconfig)
    try:
        if create_namespace and not cluster.namespace_exists(namespace):
            cluster.create_namespace(namespace)
        cluster.check_access(namespace)
        cluster.wait_service_account(namespace)
        recorder = Recorder(cluster, namespace, trace_path, header, give_up_seconds=give_up_seconds).start()
    except Rejected as err:
        cluster.close()
        raise LiveError(str(err)) from None
    except BaseException:
        cluster.close()
        raise
    return Session(cluster, recorder, namespace)


def iter_events(records: Iterable[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """The `event` lines of a trace, in the order of their resourceVersions (etcd's revisions,
    which order every write of the cluster), ties and opaque versions in arrival order."""
    events = [r for r in records if r.get("kind") == "event"]
    return iter(sorted(events, key=lambda r: (rv_number(r.get("rv")), int(r.get("seq", 0)))))
