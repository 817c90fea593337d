"""What a controller step does, as values: the API calls it makes (and whether each was accepted),
the events it records and when it asks to be run again. Only adapters and the simulated cluster
carry them out."""

from __future__ import annotations

from typing import TypeAlias

import attrs

from jobmodel.state import CronJobStatus, Job, JobStatus, Pod


@attrs.frozen
class CreatePod:
    """podControl.CreatePodsWithGenerateName; `pod` has no name yet, only `generate_name`."""

    pod: Pod
    index: int | None
    accepted: bool


@attrs.frozen
class DeletePod:
    """podControl.DeletePod."""

    name: str
    uid: str
    accepted: bool


@attrs.frozen
class PatchPod:
    """podControl.PatchPod: `kind` is `remove-finalizer`, `adopt` or `release`."""

    name: str
    uid: str
    kind: str
    accepted: bool


@attrs.frozen
class UpdateJobStatus:
    """The Job's /status update; `status` is what the controller sent."""

    status: JobStatus
    accepted: bool


@attrs.frozen
class RecordEvent:
    """recorder.Event on the Job."""

    type: str
    reason: str
    message: str


@attrs.frozen
class Requeue:
    """queue.AddAfter: the controller asks to see the Job again after `after_seconds`."""

    after_seconds: float


@attrs.frozen
class CreateJob:
    """jobControl.CreateJob (CronJob controller)."""

    job: Job
    accepted: bool


@attrs.frozen
class DeleteJob:
    """jobControl.DeleteJob (CronJob controller): the Job `namespace/name`."""

    namespace: str
    name: str
    accepted: bool


@attrs.frozen
class UpdateCronJobStatus:
    """cronJobControl.UpdateStatus (CronJob controller); `status` is what the controller sent."""

    status: CronJobStatus
    accepted: bool


Action: TypeAlias = CreatePod | DeletePod | PatchPod | UpdateJobStatus | RecordEvent | Requeue | CreateJob | DeleteJob | UpdateCronJobStatus
