"""jobmodel.api.actions_json: every action as the object docs/output.md's Action table documents
(its `type` and exactly the fields listed for it)."""

from __future__ import annotations

import re
from typing import get_args

from jobmodel.actions import (
    Action,
    CreateJob,
    CreatePod,
    DeleteJob,
    DeletePod,
    PatchPod,
    RecordEvent,
    Requeue,
    UpdateCronJobStatus,
    UpdateJobStatus,
)
from jobmodel.api.actions_json import action_to_json
from jobmodel.frozen import FrozenDict
from jobmodel.state import (
    JOB_COMPLETION_INDEX_ANNOTATION,
    CronJobStatus,
    Job,
    JobStatus,
    ObjectMeta,
)
from tests.builders import make_pod
from tests.conftest import REPO_ROOT

SAMPLES: list[Action] = [
    CreatePod(make_pod("j-3", index=3), 3, True),
    DeletePod("j-0", "uid-0", False),
    PatchPod("j-0", "uid-0", "remove-finalizer", True),
    UpdateJobStatus(JobStatus(active=1), True),
    RecordEvent("Normal", "Completed", "Job completed"),
    Requeue(10.0),
    CreateJob(Job(metadata=ObjectMeta(name="cj-1", namespace="default", annotations=FrozenDict())), True),
    DeleteJob("default", "cj-0", True),
    UpdateCronJobStatus(CronJobStatus(), False),
]


def documented_fields() -> dict[str, set[str]]:
    """type -> its fields, read from the Action table of docs/output.md."""
    text = (REPO_ROOT / "docs" / "output.md").read_text()
    table = text.split("**Action**", 1)[1].split("\n\n", 2)[1]
    out: dict[str, set[str]] = {}
    for row in table.splitlines()[2:]:
        types, fields = row.strip("|").split("|")
        names = {re.sub(r" \(.*", "", f.strip()).strip("`") for f in re.sub(r"\([^)]*\)", "", fields).split(",")}
        for kind in re.findall(r"`(\w+)`", types):
            out[kind] = {n.strip().strip("`") for n in names if n.strip()} | {"type"}
    return out


def test_every_action_class_has_a_sample() -> None:
    assert {type(a) for a in SAMPLES} == set(get_args(Action))


def test_every_action_has_the_documented_type_and_fields() -> None:
    documented = documented_fields()
    assert len(documented) == len(SAMPLES)
    for action in SAMPLES:
        obj = action_to_json(action)
        assert set(obj) == documented[obj["type"]], obj


def test_a_created_pod_reads_its_index_from_the_annotation() -> None:
    assert action_to_json(CreatePod(make_pod("j-3", index=3), None, True))["index"] == 3
    assert action_to_json(CreatePod(make_pod("j-0"), None, True))["index"] is None


def test_an_index_annotation_of_other_digits_is_no_number() -> None:
    """Only ASCII digits are an index: `²` passes str.isdigit() but int() refuses it, `٣` int()
    reads as 3; both leave the action's own index."""
    for text in ("\u00b2", "\u0663", "1_0"):
        pod = make_pod("j-0", annotations={JOB_COMPLETION_INDEX_ANNOTATION: text})
        assert action_to_json(CreatePod(pod, 7, True))["index"] == 7
