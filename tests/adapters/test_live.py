"""jobmodel.adapters.live and live_run on the real control plane: recording, faults, errors.

The fault test checks "no event lost" against the ground truth: etcd's own history of the
namespace's Jobs and Pods (read through etcd's HTTP gateway), every revision of which must be an
event of the trace, exactly once.
"""

from __future__ import annotations

import base64
import http.client
import json
import signal
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from jobmodel.adapters.controlplane import ControlPlane
from jobmodel.adapters.live import (
    LiveCluster,
    Recorder,
    TraceWriter,
    iter_events,
    open_session,
    read_trace,
)
from jobmodel.checkers.live_trace import check_trace
from jobmodel.schedule.times import most_recent_schedule_time
from jobmodel.simulation.job import DEFAULT_START, DEFAULT_UID, simulate_default
from jobmodel.simulation.live_run import (
    SimulatedKubelet,
    compare_final,
    job_finished,
    timeline_from_trace,
)
from jobmodel.simulation.live_scenario import CaseFrame
from jobmodel.timeutil import parse_time
from tests.commands.test_live import error_lines, run_cli
from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.live
PI = str(REPO_ROOT / "specs" / "examples" / "pi.yaml")

MANIFEST: dict[str, Any] = {
    "apiVersion": "batch/v1",
    "kind": "Job",
    "metadata": {"name": "work", "namespace": "default"},
    "spec": {
        "parallelism": 2,
        "completions": 4,
        "template": {"spec": {"containers": [{"name": "c", "image": "x"}], "restartPolicy": "Never"}},
    },
}


def etcd_history(plane: ControlPlane, namespace: str, since: int) -> list[tuple[str, int, str]]:
    """(key, revision, PUT/DELETE) of every write to the namespace's Jobs and Pods since `since`."""
    out: list[tuple[str, int, str]] = []
    for prefix in (f"/registry/jobs/{namespace}/", f"/registry/pods/{namespace}/"):
        key = prefix.encode()
        end = key[:-1] + bytes([key[-1] + 1])
        body = json.dumps(
            {
                "create_request": {
                    "key": base64.b64encode(key).decode(),
                    "range_end": base64.b64encode(end).decode(),
                    "start_revision": str(since),
                }
            }
        )
        conn = http.client.HTTPConnection("127.0.0.1", plane.ports["etcd"], timeout=2)
        conn.request("POST", "/v3/watch", body, {"Content-Type": "application/json"})
        response = conn.getresponse()
        try:
            while True:
                line = response.readline()
                if not line:
                    break
                for event in json.loads(line).get("result", {}).get("events") or []:
                    kv = event["kv"]
                    out.append((base64.b64decode(kv["key"]).decode(), int(kv["mod_revision"]), event.get("type", "PUT")))
        except TimeoutError:
            pass  # the history is delivered at once; then the watch waits for news
        finally:
            conn.close()
    return sorted(out, key=lambda e: e[1])


def compact_etcd(plane: ControlPlane) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", plane.ports["etcd"], timeout=5)
    conn.request("POST", "/v3/kv/range", json.dumps({"key": base64.b64encode(b"/").decode(), "limit": 1}))
    revision = int(json.loads(conn.getresponse().read())["header"]["revision"])
    conn.request("POST", "/v3/kv/compaction", json.dumps({"revision": str(revision), "physical": True}))
    conn.getresponse().read()
    conn.close()
    return revision


def new_frame(namespace: str, created: dict[str, Any]) -> CaseFrame:
    return CaseFrame(
        "default",
        namespace,
        "work",
        DEFAULT_UID,
        parse_time(DEFAULT_START, "start"),
        datetime.now(UTC),
        real_uid=str(created["metadata"]["uid"]),
    )


def wait_for(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def test_restarts_lose_no_event_and_the_job_completes_as_predicted(plane: ControlPlane, namespace: str, tmp_path: Path) -> None:
    trace = tmp_path / "trace.jsonl"
    session = open_session(plane.kubeconfig, namespace, trace, {"job": "work"})
    session.cluster.ensure_node()
    body = {**MANIFEST, "metadata": {"name": "work", "namespace": namespace}}
    created = session.cluster.create_job(namespace, body)
    session.recorder.action("user", "create the Job", created)
    frame = new_frame(namespace, created)
    kubelet = SimulatedKubelet(session, frame, (), run_seconds=2.0)
    failure: list[BaseException] = []

    def run_kubelet() -> None:
        try:
            kubelet.run(timeout=240)
        except BaseException as err:
            failure.append(err)

    thread = threading.Thread(target=run_kubelet)
    thread.start()
    key = f"{namespace}/work"

    def phases() -> list[str]:
        view = session.recorder.snapshot()
        return [p.get("status", {}).get("phase", "") for p in view.objects["pods"].values()]

    wait_for(lambda: "Running" in phases(), 60, "a running pod")
    plane.stop_component("kube-apiserver", kill=True)  # a crash, mid-run
    time.sleep(1.0)
    plane.start_component("kube-apiserver")
    wait_for(lambda: "Succeeded" in phases(), 60, "a pod to succeed")
    plane.stop_component("kube-controller-manager", kill=True)
    time.sleep(2.0)
    plane.start_component("kube-controller-manager")
    thread.join(timeout=300)
    session.recorder.stop()
    session.cluster.close()
    assert not failure, failure
    header, records = read_trace(trace)
    events = list(iter_events(records))
    job = [e for e in events if e["resource"] == "jobs"][-1]["object"]
    assert job_finished(job) and key == f"{job['metadata']['namespace']}/work"

    # Nothing recorded twice.
    seen = [(e["resource"], e["object"]["metadata"]["name"], e["rv"], e["type"]) for e in events]
    assert len(seen) == len(set(seen))
    # Nothing lost: every revision etcd holds for the namespace's Jobs and Pods is in the trace.
    first = min(int(e["rv"]) for e in events)
    recorded = {int(e["rv"]) for e in events}
    history = etcd_history(plane, namespace, first)
    assert history, "etcd's history of the namespace is empty"
    missing = [h for h in history if h[1] not in recorded]
    assert missing == []
    # The disconnection shows in the trace, and the watches came back.
    assert any(r["kind"] == "error" and "disconnected" in r["message"] for r in records)
    assert any(r["kind"] == "note" and "reconnected" in r["note"] for r in records)
    # The Job ends as the model predicts, and every status the controller wrote is one the model reaches.
    model = simulate_default(MANIFEST, (), run_seconds=2.0)
    real = timeline_from_trace(trace, new_frame(namespace, created))
    assert compare_final(model, real) == []
    result = check_trace(header, records)
    assert result.ok, [d.describe() for d in result.divergences] + [str(v) for _, v in result.violations]


def test_410_gone_relists_without_losing_or_repeating(plane: ControlPlane, namespace: str, tmp_path: Path) -> None:
    cluster = LiveCluster.connect(plane.kubeconfig)
    recorder = Recorder(cluster, namespace, tmp_path / "trace.jsonl")  # threads not started: driven by hand
    watcher = recorder.watchers["pods"]
    body = {**MANIFEST, "metadata": {"name": "work", "namespace": namespace}}
    body["spec"] = {**body["spec"], "parallelism": 3, "completions": 6}
    cluster.create_job(namespace, body)
    wait_for(lambda: len(cluster.core.list_namespaced_pod(namespace).items) == 3, 30, "three pods")
    watcher._list(relist=False)
    names = sorted(recorder.view.objects["pods"])
    assert len(names) == 3
    unchanged, modified, deleted = (n.split("/", 1)[1] for n in names)
    cluster.patch_pod_status(namespace, modified, {"phase": "Succeeded"})  # the controller replaces it
    cluster.core.patch_namespaced_pod(
        deleted, namespace, {"metadata": {"finalizers": None}}, _content_type="application/merge-patch+json"
    )
    cluster.delete_pod(namespace, deleted)
    wait_for(lambda: len(cluster.core.list_namespaced_pod(namespace).items) >= 3, 30, "a replacement pod")
    time.sleep(2.5)  # the controller's next syncs
    compact_etcd(plane)
    before = len(read_trace(recorder.trace.path)[1])
    assert watcher._watch() is True  # 410 Gone: the version it would resume from is compacted
    watcher._list(relist=True)
    recorder.trace.close()
    cluster.close()
    lines = [r for r in read_trace(recorder.trace.path)[1][before:] if r["kind"] == "event"]
    by_name = {(r["object"]["metadata"]["name"], r["type"]) for r in lines}
    assert all(r["source"] == "relist" for r in lines)
    assert (modified, "MODIFIED") in by_name
    assert (deleted, "DELETED") in by_name
    assert not any(name == unchanged for name, _ in by_name)  # already recorded: not again
    assert any(t == "ADDED" for _, t in by_name)  # the replacement
    current = set()
    for pod in LiveCluster.connect(plane.kubeconfig).core.list_namespaced_pod(namespace).items:
        assert pod.metadata is not None  # the API server always sends it
        current.add(pod.metadata.name)
    assert {n.split("/", 1)[1] for n in recorder.view.objects["pods"]} == current


def test_a_trace_survives_kill_9(plane: ControlPlane, namespace: str, tmp_path: Path) -> None:
    trace = tmp_path / "killed.jsonl"
    spec = tmp_path / "job.yaml"
    spec.write_text(json.dumps(MANIFEST))
    proc = subprocess.Popen(
        [sys.executable, "-m", "jobmodel", "live", "run", str(spec), "--kubeconfig", str(plane.kubeconfig),
         "--namespace", namespace, "--trace", str(trace), "--run-seconds", "30"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    # The watches of Jobs and Pods are separate streams: under load the Job's may lag the Pods'
    # (the API server holds a watch until its cache reaches the listed resourceVersion), so wait
    # for both before the kill, then check that nothing recorded by then was lost.
    def recorded_both() -> bool:
        text = trace.read_text() if trace.exists() else ""
        return '"kind":"event","resource":"jobs"' in text and '"Running"' in text

    try:
        wait_for(recorded_both, 60, "a Job event and a running pod in the trace")
        seen = trace.read_text()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert trace.read_text().startswith(seen[: seen.rfind("\n") + 1])
    header, records = read_trace(trace)
    assert header["namespace"] == namespace
    kinds = {(r.get("resource"), r.get("type")) for r in records if r["kind"] == "event"}
    assert ("jobs", "ADDED") in kinds and ("pods", "ADDED") in kinds


def test_credentials_never_reach_a_trace(plane: ControlPlane, namespace: str, tmp_path: Path) -> None:
    trace = tmp_path / "trace.jsonl"
    session = open_session(plane.kubeconfig, namespace, trace, {"job": "work"})
    created = session.cluster.create_job(namespace, {**MANIFEST, "metadata": {"name": "work", "namespace": namespace}})
    session.recorder.action("user", "create the Job", created)
    session.recorder.wait_quiet(1.6, 30)
    session.recorder.stop()
    session.cluster.close()
    text = trace.read_text()
    tokens = [line.split(",")[0] for line in (plane.dir / "tokens.csv").read_text().splitlines()]
    assert tokens and all(token not in text for token in tokens)
    assert "managedFields" not in text
    assert str(plane.kubeconfig) not in text


def test_a_kubeconfig_without_permission_is_one_clear_line(plane: ControlPlane, tmp_path: Path) -> None:
    proc = run_cli("live", "run", PI, "--kubeconfig", str(plane.nobody_kubeconfig), "--trace", str(tmp_path / "t.jsonl"))
    assert proc.returncode == 2
    lines = error_lines(proc)
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: cluster: not allowed to") and "403 Forbidden" in lines[0]


def test_a_watch_that_stays_disconnected_is_one_clear_line_and_keeps_the_trace(plane: ControlPlane, namespace: str, tmp_path: Path) -> None:
    trace = tmp_path / "cut.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "jobmodel", "live", "run", PI, "--kubeconfig", str(plane.kubeconfig),
         "--namespace", namespace, "--trace", str(trace), "--run-seconds", "60", "--give-up", "3"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        wait_for(lambda: trace.exists() and '"Running"' in trace.read_text(), 60, "a running pod in the trace")
        plane.stop_component("kube-apiserver")
        _, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        plane.start_component("kube-apiserver")
    assert proc.returncode == 2
    lines = [line for line in stderr.splitlines() if not line.startswith("jobmodel: ")]
    assert len(lines) == 1, stderr
    assert "lost the cluster" in lines[0] and "did not answer for 3s" in lines[0] and str(trace) in lines[0]
    _, records = read_trace(trace)
    assert any(r.get("resource") == "pods" and r["kind"] == "event" for r in records)
    assert any(r["kind"] == "error" and r.get("fatal") for r in records)


def test_a_cronjob_is_created_run_as_the_model_schedules_it_updated_and_deleted(
    plane: ControlPlane, namespace: str, tmp_path: Path
) -> None:
    from jobmodel.schedule.cron import parse_standard

    trace = tmp_path / "cron.jsonl"
    session = open_session(plane.kubeconfig, namespace, trace, {"job": ""})
    cronjob = {
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "metadata": {"name": "tick", "namespace": namespace},
        "spec": {
            "schedule": "@every 5s",
            "concurrencyPolicy": "Forbid",
            "jobTemplate": {"spec": {"template": {"spec": {"containers": [{"name": "c", "image": "x"}], "restartPolicy": "Never"}}}},
        },
    }
    created = session.cluster.create_cronjob(namespace, cronjob)
    session.recorder.action("user", "create the CronJob", created)
    key = f"{namespace}/tick"

    def scheduled(view: Any) -> bool:
        return bool(view.objects["cronjobs"].get(key, {}).get("status", {}).get("lastScheduleTime")) and bool(view.objects["jobs"])

    assert session.recorder.wait_until(scheduled, 60)
    view = session.recorder.snapshot()
    last = parse_time(view.objects["cronjobs"][key]["status"]["lastScheduleTime"], "lastScheduleTime")
    creation = parse_time(created["metadata"]["creationTimestamp"], "creationTimestamp")
    (job,) = view.objects["jobs"].values()
    # The controller runs when its queue lets it, possibly slots late on a loaded machine; the
    # model says which slot it must pick then: the most recent one at the time it created the
    # Job. Its clock was within a second of the Job's creationTimestamp (seconds, truncated).
    job_created = parse_time(job["metadata"]["creationTimestamp"], "creationTimestamp")
    schedule = parse_standard("@every 5s")
    picks = {
        most_recent_schedule_time(schedule, job_created + timedelta(seconds=s), creation).most_recent for s in (0, 1)
    }
    assert last in picks, (last, picks)
    assert last >= schedule.next(creation)
    job_name = job["metadata"]["name"]
    assert job_name == f"tick-{int(last.timestamp()) // 60}"  # getJobName: minutes since the epoch
    updated = session.cluster.patch_cronjob(namespace, "tick", {"spec": {"suspend": True}})
    session.recorder.action("user", "suspend the CronJob", updated)
    deleted = session.cluster.delete_cronjob(namespace, "tick")
    session.recorder.action("user", "delete the CronJob", deleted)
    assert session.recorder.wait_until(lambda v: key not in v.objects["cronjobs"], 30)
    session.recorder.stop()
    session.cluster.close()
    _, records = read_trace(trace)
    kinds = [r["type"] for r in records if r["kind"] == "event" and r["resource"] == "cronjobs"]
    assert kinds[0] == "ADDED" and "MODIFIED" in kinds and kinds[-1] == "DELETED"
    assert any(r["kind"] == "event" and r["resource"] == "events" and r["object"].get("reason") == "SuccessfulCreate" for r in records)


def test_a_trace_writer_never_writes_into_an_existing_file(tmp_path: Path) -> None:
    """What an earlier run recorded stays as it was (two recordings in one file would mix two
    clusters' resourceVersions); the writer of a new file numbers its lines from 1."""
    from jobmodel.errors import InputError

    earlier = tmp_path / "t.jsonl"
    earlier.write_text("recorded\n")
    with pytest.raises(InputError, match="exists: a trace file holds one recording"):
        TraceWriter(earlier, {"job": "work"})
    assert earlier.read_text() == "recorded\n"
    writer = TraceWriter(tmp_path / "new.jsonl", {"job": "work"})
    assert [writer.append("note", text="a"), writer.append("note", text="b")] == [1, 2]
    writer.close()
    header, records = read_trace(tmp_path / "new.jsonl")
    assert header["job"] == "work" and [r["seq"] for r in records] == [1, 2]


def test_a_restarted_controller_manager_is_back_once_its_job_controller_acts(plane: ControlPlane, namespace: str) -> None:
    """kube-controller-manager answers /healthz before its informers have synced; its restart
    returns only once the Job controller has acted on a probe Job (deleted afterwards), so a Job
    created at once is synced within a settle's quiet spell."""
    from jobmodel.simulation.live_scenario import SETTLE_QUIET

    plane.restart_component("kube-controller-manager")
    cluster = LiveCluster.connect(plane.kubeconfig)
    try:
        body = {**MANIFEST, "metadata": {"name": "at-once", "namespace": namespace}}
        body["spec"] = {**MANIFEST["spec"], "suspend": True}
        cluster.create_job(namespace, body)
        deadline = time.monotonic() + SETTLE_QUIET
        conditions: list[Any] = []
        while time.monotonic() < deadline and not conditions:
            conditions = ((cluster.read_job(namespace, "at-once") or {}).get("status") or {}).get("conditions") or []
            time.sleep(0.05)
        assert [c["type"] for c in conditions] == ["Suspended"]
    finally:
        cluster.close()
    probes = plane._api("GET", "/apis/batch/v1/namespaces/kube-system/jobs").get("items") or []
    assert not [j for j in probes if j["metadata"]["name"].startswith("jobmodel-ready-") and not j["metadata"].get("deletionTimestamp")]
