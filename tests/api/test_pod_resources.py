"""Container resources in a pod template (validateResourceRequirements and its helpers): the
expected errors are those upstream's validation.go states for each rule."""

from __future__ import annotations

from typing import Any

import pytest

from jobmodel.api.defaults import set_defaults_job
from jobmodel.api.field import ServerPanic
from jobmodel.api.pod_resources import (
    is_extended_resource_name,
    is_integer_resource_name,
    is_overcommit_allowed,
    validate_container_resource_name,
)
from jobmodel.api.pod_validation import (
    PodValidationOptions,
    pod_validation_options,
    validate_pod_template_spec,
)
from jobmodel.api.schema import decode_object
from jobmodel.api.strategy import job_prepare_for_create
from jobmodel.errors import InputError
from jobmodel.features import gates_for
from tests.api.helpers import job, pod_template

CTR = "spec.template.spec.containers[0].resources"


def _errors(resources: dict[str, Any], opts: PodValidationOptions | None = None, /, **spec: Any) -> set[tuple[str, str, str]]:
    template = pod_template()
    template["spec"]["containers"][0]["resources"] = resources
    template["spec"].update(spec)
    errs = validate_pod_template_spec(template, "spec.template", opts or PodValidationOptions())
    return {(e.field, e.type, e.detail) for e in errs}


def test_requests_within_limits_are_valid() -> None:
    resources = {"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "500m", "memory": "1Gi", "ephemeral-storage": "1G"}}
    assert _errors(resources) == set()


def test_request_above_limit() -> None:
    assert _errors({"limits": {"cpu": "1"}, "requests": {"cpu": "1.5"}}) == {
        (f"{CTR}.requests", "FieldValueInvalid", "must be less than or equal to cpu limit of 1")
    }


def test_negative_quantity() -> None:
    assert _errors({"requests": {"memory": "-1"}}) == {
        (f"{CTR}.requests[memory]", "FieldValueInvalid", "must be greater than or equal to 0")
    }


def test_extended_resources_are_whole_and_not_overcommitted() -> None:
    assert _errors({"limits": {"example.com/foo": "2"}, "requests": {"example.com/foo": "1"}}) == {
        (f"{CTR}.requests", "FieldValueInvalid", "must be equal to example.com/foo limit of 2")
    }
    assert _errors({"requests": {"example.com/foo": "1"}}) == {
        (f"{CTR}.limits", "FieldValueRequired", "Limit must be set for non overcommitable resources")
    }
    assert _errors({"limits": {"example.com/foo": "500m"}, "requests": {"example.com/foo": "500m"}}) == {
        (f"{CTR}.limits[example.com/foo]", "FieldValueInvalid", "must be an integer"),
        (f"{CTR}.requests[example.com/foo]", "FieldValueInvalid", "must be an integer"),
    }


def test_hugepages_need_cpu_or_memory_and_whole_pages() -> None:
    assert _errors({"limits": {"hugepages-2Mi": "2Mi"}, "requests": {"hugepages-2Mi": "2Mi"}}) == {
        (CTR, "FieldValueForbidden", "HugePages require cpu or memory")
    }
    assert _errors({"limits": {"hugepages-2Mi": "3Mi", "memory": "1Gi"}}) == {
        (f"{CTR}.limits[hugepages-2Mi]", "FieldValueInvalid", "3Mi is not positive integer multiple of hugepages-2Mi")
    }


def test_indivisible_hugepages_allowed_when_the_old_template_has_them() -> None:
    resources = {"limits": {"hugepages-2Mi": "3Mi", "memory": "1Gi"}}
    old = pod_template()["spec"]
    old["containers"][0]["resources"] = resources
    assert _errors(resources, pod_validation_options(37, old)) == set()
    assert _errors(resources, pod_validation_options(37, pod_template()["spec"])) != set()


@pytest.mark.parametrize(
    ("name", "details"),
    [
        ("cpu", []),
        ("hugepages-1Gi", []),
        ("kubernetes.io/bar", []),
        ("example.com/foo", []),
        ("pods", ["must be a standard resource for containers"]),
        ("gpu", ["must be a standard resource type or fully qualified", "must be a standard resource for containers"]),
        ("requests.example.com/foo", ["doesn't follow extended resource name standard"]),
    ],
)
def test_container_resource_names(name: str, details: list[str]) -> None:
    assert [e.detail for e in validate_container_resource_name(name, "p", 37)] == details


def test_resource_name_helpers() -> None:
    assert is_extended_resource_name("example.com/foo")
    assert not is_extended_resource_name("kubernetes.io/foo")
    assert not is_extended_resource_name("requests.example.com/foo")
    assert is_integer_resource_name("pods") and not is_integer_resource_name("cpu")
    assert not is_overcommit_allowed("hugepages-2Mi") and is_overcommit_allowed("memory")


def test_overhead_is_validated_as_limits() -> None:
    assert _errors({}, overhead={"example.com/foo": "500m", "cpu": "-1"}) == {
        ("spec.template.spec.overhead.limits[example.com/foo]", "FieldValueInvalid", "must be an integer"),
        ("spec.template.spec.overhead.limits[cpu]", "FieldValueInvalid", "must be greater than or equal to 0"),
    }


def test_page_size_beyond_int64_panics() -> None:
    # Value() of hugepages-100E overflows to 0: IsHugePageResourceValueDivisible divides by it.
    with pytest.raises(ServerPanic):
        _errors({"limits": {"hugepages-100E": "1", "memory": "1"}})


def test_a_bad_quantity_is_refused_when_decoded() -> None:
    manifest = job()
    manifest["spec"]["template"]["spec"]["containers"][0]["resources"] = {"limits": {"cpu": "1Gb"}}
    with pytest.raises(InputError) as err:
        decode_object(manifest, "Job")
    assert err.value.field == f"{CTR}.limits[cpu]"
    assert err.value.reason.startswith("quantities must match the regular expression")


def test_stored_quantities_are_canonical_and_in_milli_units() -> None:
    manifest = job()
    manifest["spec"]["template"]["spec"]["containers"][0]["resources"] = {"limits": {"cpu": "1.5", "memory": "1024Mi"}, "requests": {"cpu": "0.1n"}}
    stored = set_defaults_job(decode_object(manifest, "Job"))
    resources = stored["spec"]["template"]["spec"]["containers"][0]["resources"]
    assert resources == {"limits": {"cpu": "1500m", "memory": "1Gi"}, "requests": {"cpu": "1m"}}


POD = "spec.template.spec.resources"


def test_pod_level_resources_are_validated_from_1_34() -> None:
    spec = {"resources": {"limits": {"example.com/foo": "1", "cpu": "1"}}}
    assert _errors({}, pod_validation_options(33, None), **spec) == set()
    assert _errors({}, pod_validation_options(34, None), **spec) == {
        (f"{POD}.limits[example.com/foo]", "FieldValueNotSupported", 'supported values: "cpu", "hugepages-", "memory"')
    }


def test_pod_requests_cover_the_aggregate_of_the_containers() -> None:
    # Regular 1 plus the sidecar's 1 is 2; the init container runs beside the sidecar: 3 + 1 = 4.
    sidecar = {"name": "side", "image": "i", "restartPolicy": "Always", "resources": {"requests": {"cpu": "1"}}}
    init = {"name": "init", "image": "i", "resources": {"requests": {"cpu": "3"}}}
    errs = _errors({"requests": {"cpu": "1"}}, None, initContainers=[sidecar, init], resources={"requests": {"cpu": "3"}, "claims": []})
    assert {(f, d) for f, _, d in errs} >= {
        (f"{POD}.requests[cpu]", "must be greater than or equal to aggregate container requests of 4"),
        (f"{POD}.claims", "claims may not be set for Resources at pod-level"),
    }


def test_a_container_limit_above_the_pod_limit() -> None:
    assert _errors({"limits": {"memory": "2Gi"}}, None, resources={"limits": {"memory": "1Gi"}}) == {
        (f"{POD}.containers[0][memory].limits", "FieldValueInvalid", "must be less than or equal to pod limits of 1Gi")
    }


def test_pod_level_resources_dropped_before_1_34() -> None:
    manifest = job()
    manifest["spec"]["template"]["spec"]["resources"] = {"limits": {"cpu": "1"}}
    for release, kept in ((33, False), (34, True)):
        stored = job_prepare_for_create(decode_object(manifest, "Job"), gates_for(f"1.{release}"))
        assert ("resources" in stored["spec"]["template"]["spec"]) is kept
