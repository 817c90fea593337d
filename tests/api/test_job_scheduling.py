"""A Job's spec.scheduling at 1.37 with WorkloadWithJob off (its default), and its absence before:
expectations from v1.37.2's pkg/api/job/util.go (DropDisabledFields),
pkg/apis/batch/validation/validation.go (validateGangMinCount, validateJobScheduling,
validateJobSchedulingUpdate), component-helpers' workloadbuilder (validate.go, mapconfig.go) and
pkg/apis/batch/v1/zz_generated.validations.go (Validate_JobSpec's scheduling field)."""

from __future__ import annotations

from typing import Any

import pytest

from jobmodel.api import job_scheduling as js
from jobmodel.api import strategy
from jobmodel.api.field import FORBIDDEN, INVALID
from jobmodel.errors import InputError
from jobmodel.features import gates_for
from tests.api.helpers import UID, cron_job, job

GATES_137 = gates_for("1.37")
GANG_3 = {"schedulingPolicy": {"gang": {"minCount": 3}}}


def pairs(errs: list[Any]) -> list[tuple[str, str]]:
    return [(e.field, e.type) for e in errs]


# ---------------------------------------------------------------------------- decoding


@pytest.mark.parametrize("release", ["1.32", "1.34", "1.36"])
def test_before_1_37_scheduling_is_an_unknown_field(release: str) -> None:
    with pytest.raises(InputError) as err:
        strategy.create_job(job(scheduling={}), UID, gates_for(release))
    assert (err.value.field, err.value.reason) == ("spec.scheduling", "unknown field")


def test_at_1_37_its_parts_are_typed() -> None:
    with pytest.raises(InputError) as err:
        strategy.create_job(job(scheduling={"schedulingPolicy": {"basic": {"x": 1}}}), UID, GATES_137)
    assert err.value.field == "spec.scheduling.schedulingPolicy.basic.x"


# ---------------------------------------------------------------------------- dropping


def test_create_drops_it_with_the_gate_off() -> None:
    stored, errs = strategy.create_job(job(scheduling=GANG_3), UID, GATES_137)
    assert errs == []
    assert "scheduling" not in stored["spec"]


def test_update_keeps_it_when_the_old_job_used_it() -> None:
    spec: dict[str, Any] = {"scheduling": GANG_3}
    js.drop_disabled_fields(spec, {"scheduling": {}}, False)
    assert spec == {"scheduling": GANG_3}
    js.drop_disabled_fields(spec, {}, False)
    assert spec == {}


def test_the_gate_on_keeps_it() -> None:
    spec = {"scheduling": GANG_3}
    js.drop_disabled_fields(spec, None, True)
    assert spec == {"scheduling": GANG_3}


def test_a_cron_jobs_job_template_drops_it_too() -> None:
    """1.37's cronJobStrategy.PrepareForCreate calls job.DropDisabledFields on the template."""
    cron = cron_job()
    cron["spec"]["jobTemplate"]["spec"]["scheduling"] = GANG_3
    stored = strategy.cron_job_prepare_for_create(cron, GATES_137)
    assert "scheduling" not in stored["spec"]["jobTemplate"]["spec"]
    old = cron_job()
    old["spec"]["jobTemplate"]["spec"]["scheduling"] = {}
    kept = strategy.cron_job_prepare_for_update(cron, old, GATES_137)
    assert kept["spec"]["jobTemplate"]["spec"]["scheduling"] == GANG_3


# ---------------------------------------------------------------------------- validation


def test_validating_it_as_given_forbids_it_after_the_hand_written_checks() -> None:
    errs = strategy.job_validate(job(scheduling=GANG_3), GATES_137)
    assert pairs(errs) == [
        ("spec.scheduling.schedulingPolicy.gang.minCount", INVALID),
        ("spec.scheduling", FORBIDDEN),
    ]
    assert str(errs[0]).endswith("Invalid value: 3: must not be greater than parallelism (1)")
    assert str(errs[1]) == "spec.scheduling: Forbidden"


@pytest.mark.parametrize(
    ("scheduling", "parallelism", "want"),
    [
        (GANG_3, 3, []),
        (GANG_3, 2, ["spec.scheduling.schedulingPolicy.gang.minCount"]),
        ({"schedulingPolicy": {"gang": {}}}, 0, []),  # minCount unset: defaulted, not checked
        ({"disruptionMode": {"all": {}}}, None, ["spec.scheduling.disruptionMode"]),  # Basic by default
        ({"schedulingPolicy": {}, "disruptionMode": {"all": {}}}, None, ["spec.scheduling.disruptionMode"]),
        ({"schedulingPolicy": {"gang": {}}, "disruptionMode": {"all": {}}}, None, []),
        ({"schedulingPolicy": {"basic": {}, "gang": {}}, "disruptionMode": {"all": {}}}, None, ["spec.scheduling.disruptionMode"]),
        ({"disruptionMode": {"single": {}, "all": {}}}, None, []),  # single is read first
    ],
)
def test_hand_written_checks(scheduling: dict[str, Any], parallelism: int | None, want: list[str]) -> None:
    spec: dict[str, Any] = {"scheduling": scheduling}
    if parallelism is not None:
        spec["parallelism"] = parallelism
    errs = js.validate_gang_min_count(spec, "spec.scheduling") + js.validate_job_scheduling(spec, "spec.scheduling")
    assert [e.field for e in errs] == want


def test_the_policy_variant_is_frozen_on_update() -> None:
    new: dict[str, Any] = {"scheduling": {"schedulingPolicy": {"basic": {}}}}
    old = {"scheduling": GANG_3}
    (err,) = js.validate_job_scheduling_update(new, old, "spec.scheduling")
    assert (err.field, err.type) == ("spec.scheduling.schedulingPolicy", INVALID)
    assert "Invalid value: null: the basic/gang policy variant is immutable" in str(err)
    assert js.validate_job_scheduling_update({"scheduling": {"schedulingPolicy": {"gang": {}}}}, old, "spec.scheduling") == []


@pytest.mark.parametrize(
    ("new", "old", "want"),
    [
        (GANG_3, GANG_3, []),  # unchanged: not revalidated
        (None, None, []),
        ({}, None, [FORBIDDEN, INVALID]),  # set: Forbidden and NoSet
        ({"schedulingPolicy": {"gang": {}}}, GANG_3, [FORBIDDEN]),
        (None, GANG_3, [INVALID]),  # cleared: NoUnset
    ],
)
def test_declarative_rules_on_update(new: Any, old: Any, want: list[str]) -> None:
    spec = {} if new is None else {"scheduling": new}
    old_spec = {} if old is None else {"scheduling": old}
    errs = js.validate_scheduling_declaratively(spec, old_spec, "spec.scheduling")
    assert [e.type for e in errs] == want


def test_a_cron_jobs_template_is_checked_at_its_path() -> None:
    cron = cron_job()
    cron["spec"]["jobTemplate"]["spec"]["scheduling"] = {"schedulingPolicy": {"gang": {"minCount": 2}}}
    errs = strategy.cron_job_validate(cron, GATES_137)
    assert pairs(errs) == [
        ("spec.jobTemplate.spec.scheduling.schedulingPolicy.gang.minCount", INVALID),
        ("spec.jobTemplate.spec.scheduling", FORBIDDEN),
    ]
