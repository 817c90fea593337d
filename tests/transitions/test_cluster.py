"""Rules of the simulated cluster (jobmodel/transitions/cluster.py), each by name."""

from __future__ import annotations

from datetime import timedelta

import attrs

from jobmodel.features import FeatureGates
from jobmodel.state import (
    JOB_TRACKING_FINALIZER,
    BackoffRecord,
    ConsistencyRecord,
    JobControllerState,
)
from jobmodel.timeutil import parse_time
from jobmodel.transitions import cluster as cl
from tests.builders import make_pod

T0 = parse_time("2024-06-01T12:00:00Z", "t")
MANIFEST = {
    "apiVersion": "batch/v1",
    "kind": "Job",
    "metadata": {"name": "work", "namespace": "ns"},
    "spec": {
        "parallelism": 2,
        "completions": 2,
        "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "busybox"}]}},
    },
}


def new_cluster(garbage_collector: bool = False) -> cl.Cluster:
    cluster = cl.Cluster(now=T0, garbage_collector=garbage_collector)
    cluster, errors = cl.create_job(cluster, MANIFEST, "uid-1")
    assert errors == []
    return cl.settle(cluster)


def pod(cluster: cl.Cluster, name: str) -> object:
    return cluster.pod("ns", name)


def test_job_creation_defaults_and_generates_the_selector() -> None:
    cluster = new_cluster()
    job = cluster.job("ns", "work")
    assert job is not None
    assert job.spec.backoff_limit == 6
    assert job.spec.selector is not None
    assert job.spec.selector.match_labels == {"batch.kubernetes.io/controller-uid": "uid-1"}
    assert [p.name for p in cluster.pods] == ["work-0", "work-1"]
    assert all(p.metadata.creation_timestamp == T0 and p.phase == "Pending" for p in cluster.pods)


def test_invalid_job_is_rejected_and_nothing_is_created() -> None:
    bad = {**MANIFEST, "spec": {**MANIFEST["spec"], "parallelism": -1}}  # type: ignore[dict-item]
    cluster, errors = cl.create_job(cl.Cluster(now=T0), bad, "uid-1")
    assert [e.field for e in errors] == ["spec.parallelism"]
    assert cluster.jobs == ()


OWNER = {"apiVersion": "v1", "kind": "ConfigMap", "name": "owner", "uid": "owner-uid", "controller": True}


def owned_by(*refs: dict[str, object]) -> dict[str, object]:
    return {**MANIFEST, "metadata": {"name": "work", "namespace": "ns", "ownerReferences": list(refs)}}


def test_duplicate_owner_references_are_dropped_before_validation_on_create() -> None:
    # Two equal controller references would be "Only one reference can have Controller set to
    # true"; the create handler drops the second first (dedupOwnerReferencesAndAddWarning).
    cluster, errors = cl.create_job(cl.Cluster(now=T0), owned_by(OWNER, dict(OWNER)), "uid-1")
    assert errors == []
    job = cluster.job("ns", "work")
    assert job is not None and [ref.uid for ref in job.metadata.owner_references] == ["owner-uid"]


def test_owner_references_that_differ_are_kept_and_validated() -> None:
    other = {**OWNER, "name": "other"}  # the same uid, another name: not a duplicate
    _, errors = cl.create_job(cl.Cluster(now=T0), owned_by(OWNER, other), "uid-1")
    assert [e.field for e in errors] == ["metadata.ownerReferences"]


def test_duplicate_owner_references_are_dropped_before_validation_on_update() -> None:
    updated, errors = cl.update_job(new_cluster(), "ns", "work", {"metadata": {"ownerReferences": [OWNER, OWNER]}})
    assert errors == []
    job = updated.job("ns", "work")
    assert job is not None and [ref.uid for ref in job.metadata.owner_references] == ["owner-uid"]


def test_pod_with_finalizers_deleted_while_unscheduled_waits_for_its_finalizer() -> None:
    cluster = new_cluster()
    target = cluster.pod("ns", "work-0")
    assert target is not None and JOB_TRACKING_FINALIZER in target.metadata.finalizers
    cluster = cl.delete_pod(cluster, target)
    held = cluster.pod("ns", "work-0")
    assert held is not None
    assert held.metadata.deletion_timestamp == T0
    assert held.metadata.deletion_grace_period_seconds == 0
    cluster = cl.remove_pod_finalizer(cluster, held, JOB_TRACKING_FINALIZER)
    assert cluster.pod("ns", "work-0") is None


def test_running_pod_deleted_gracefully_stays_terminating() -> None:
    cluster = new_cluster()
    target = cluster.pod("ns", "work-0")
    assert target is not None
    scheduled = attrs.evolve(target, spec=target.spec.set("nodeName", "node-1"))
    cluster = attrs.evolve(cluster, pods=tuple(scheduled if p.name == "work-0" else p for p in cluster.pods))
    cluster = cl.set_pod_status(cluster, scheduled, {"phase": "Running"})
    running = cluster.pod("ns", "work-0")
    assert running is not None
    cluster = cl.delete_pod(cluster, running)
    terminating = cluster.pod("ns", "work-0")
    assert terminating is not None
    assert terminating.metadata.deletion_timestamp == T0 + timedelta(seconds=30)
    assert terminating.metadata.deletion_grace_period_seconds == 30
    # No kubelet confirms the deletion: the pod stays even without finalizers.
    cluster = cl.remove_pod_finalizer(cluster, terminating, JOB_TRACKING_FINALIZER)
    assert cluster.pod("ns", "work-0") is not None


def test_unscheduled_pod_without_finalizers_disappears_at_once() -> None:
    cluster = new_cluster()
    bare = make_pod("bare", node=None, finalizer=False, owner_uid="")
    bare = attrs.evolve(bare, metadata=attrs.evolve(bare.metadata, namespace="ns"))
    cluster = attrs.evolve(cluster, pods=(*cluster.pods, bare))
    cluster = cl.delete_pod(cluster, bare)
    assert cluster.pod("ns", "bare") is None


def _delete(garbage_collector: bool, policy: str) -> cl.Cluster:
    cluster = cl.delete_job(new_cluster(garbage_collector), "ns", "work", policy)
    return cl.settle(cluster)


def test_orphan_propagation_without_a_collector_keeps_the_job_marked() -> None:
    cluster = _delete(False, "Orphan")
    job = cluster.job("ns", "work")
    assert job is not None and job.metadata.deletion_timestamp == T0
    assert cl.ORPHAN_FINALIZER in job.metadata.finalizers
    assert len(cluster.pods) == 2


def test_orphan_propagation_with_a_collector_orphans_pods_and_clears_their_finalizers() -> None:
    cluster = _delete(True, "Orphan")
    assert cluster.job("ns", "work") is None
    assert len(cluster.pods) == 2
    assert all(p.metadata.owner_references == () for p in cluster.pods)
    assert all(JOB_TRACKING_FINALIZER not in p.metadata.finalizers for p in cluster.pods)


def test_background_propagation_without_a_collector_leaves_the_pods() -> None:
    cluster = _delete(False, "Background")
    assert cluster.job("ns", "work") is None
    # The controller's orphan-pod work still removes the tracking finalizers.
    assert len(cluster.pods) == 2
    assert all(JOB_TRACKING_FINALIZER not in p.metadata.finalizers for p in cluster.pods)


def _orphaned(features: FeatureGates) -> cl.Cluster:
    """The Job deleted (Background, no collector) before the controller's orphan-pod work ran."""
    cluster = cl.Cluster(now=T0, features=features)
    cluster, errors = cl.create_job(cluster, MANIFEST, "uid-1")
    assert errors == []
    cluster = cl.settle(cluster)
    return cl.delete_job(cluster, "ns", "work", "Background")


def test_orphan_finalizer_removals_are_recorded_for_the_pods_controller_from_1_36() -> None:
    # RealPodControl.PatchPod calls OnWrite, which the Job controller (1.36+) records under the
    # name and uid of the patched pod's controller reference: the gone Job's.
    cleaned = cl.orphan_pod_cleanup(_orphaned(FeatureGates.for_release(36)), write_version=7)
    assert all(JOB_TRACKING_FINALIZER not in p.metadata.finalizers for p in cleaned.pods)
    assert cleaned.controller_state("ns/work").consistency == ConsistencyRecord("uid-1", pods=7)
    # Up to 1.35 there is no consistency store.
    cleaned = cl.orphan_pod_cleanup(_orphaned(FeatureGates.for_release(35)), write_version=7)
    assert all(JOB_TRACKING_FINALIZER not in p.metadata.finalizers for p in cleaned.pods)
    assert cleaned.controller_state("ns/work").consistency is None


def test_orphan_pod_work_leaves_the_pods_the_cache_has_not_shown() -> None:
    orphaned = _orphaned(FeatureGates.for_release(37))
    names = sorted(p.name for p in orphaned.pods)
    cleaned = cl.orphan_pod_cleanup(orphaned, unseen=frozenset(names[:1]))
    assert [JOB_TRACKING_FINALIZER in p.metadata.finalizers for p in sorted(cleaned.pods, key=lambda p: p.name)] == [True, False]


def test_background_propagation_with_a_collector_deletes_the_pods() -> None:
    cluster = _delete(True, "Background")
    assert cluster.job("ns", "work") is None
    assert cluster.pods == ()


def test_foreground_propagation_without_a_collector_keeps_everything() -> None:
    cluster = _delete(False, "Foreground")
    job = cluster.job("ns", "work")
    assert job is not None and cl.FOREGROUND_FINALIZER in job.metadata.finalizers
    assert len(cluster.pods) == 2


def test_foreground_propagation_with_a_collector_removes_the_job_after_its_pods() -> None:
    cluster = _delete(True, "Foreground")
    assert cluster.pods == ()
    assert cluster.job("ns", "work") is None


def test_rejected_update_changes_nothing_and_reports_field_errors() -> None:
    cluster = new_cluster()
    updated, errors = cl.update_job(cluster, "ns", "work", {"spec": {"completions": 5}})
    assert updated == cluster
    assert any(e.field == "spec.completions" and e.type == "FieldValueInvalid" for e in errors)


def test_accepted_update_bumps_the_generation() -> None:
    cluster = new_cluster()
    updated, errors = cl.update_job(cluster, "ns", "work", {"spec": {"suspend": True}})
    assert errors == []
    job = updated.job("ns", "work")
    assert job is not None and job.spec.suspend is True and job.metadata.generation == 2


def test_restart_loses_backoff_records_and_expectations() -> None:
    cluster = new_cluster()
    cluster = cl.with_controller_state(cluster, "ns/work", JobControllerState(backoff=BackoffRecord(3, T0)))
    restarted = cl.restart_controller(cluster)
    assert restarted.controller_state("ns/work") == JobControllerState()
    assert restarted.jobs == cluster.jobs and restarted.pods == cluster.pods


def test_informers_observe_creations_so_expectations_are_satisfied() -> None:
    cluster = new_cluster()
    expectations = cluster.controller_state("ns/work").expectations
    assert expectations is not None and expectations.fulfilled()


def test_a_finalizer_removal_is_observed_for_the_controller_the_pod_leaves_too() -> None:
    # updatePod: an update that removes the finalizer and changes the controller reference (a
    # pod released by its Job) is observed for the former controller as well.
    cluster = new_cluster()
    owned = cluster.pod("ns", "work-0")
    assert owned is not None and JOB_TRACKING_FINALIZER in owned.metadata.finalizers
    state = JobControllerState(expected_finalizer_removals=frozenset({owned.uid}))
    cluster = cl.with_controller_state(cluster, "ns/work", state)
    released = attrs.evolve(owned, metadata=attrs.evolve(owned.metadata, finalizers=(), owner_references=()))
    after = cl.observe_pod_change(cluster, owned, released)
    assert after.controller_state("ns/work").expected_finalizer_removals == frozenset()
    # Keeping the finalizer, the same change observes nothing.
    kept = attrs.evolve(owned, metadata=attrs.evolve(owned.metadata, owner_references=()))
    assert cl.observe_pod_change(cluster, owned, kept).controller_state("ns/work") == state


def test_clock_moves_only_forward() -> None:
    cluster = new_cluster()
    assert cl.advance(cluster, 5).now == T0 + timedelta(seconds=5)


def test_status_writes_are_validated_by_the_api_server() -> None:
    cluster = new_cluster()
    job = cluster.job("ns", "work")
    assert job is not None
    check = cl.api_status_check(cluster.features)
    assert check(job, job.status) is None
    bad = attrs.evolve(job.status, ready=5, active=1)
    message = check(job, bad)
    assert message is not None and "cannot set more ready pods than active" in message
    # The error the controller sees is the API server's StatusError text, not kubectl's rendering.
    assert message.startswith('Job.batch "work" is invalid: status.ready: ')


def test_creation_order_reads_only_ascii_digits() -> None:
    """A name ending in `²` (a digit to str.isdigit, not to int()) sorts last instead of failing;
    `-10` comes after `-9`."""
    pods = [make_pod("job-\u00b2"), make_pod("job-10"), make_pod("job-9")]
    assert [p.name for p in sorted(pods, key=cl.creation_order)] == ["job-9", "job-10", "job-\u00b2"]
