"""Resource claims (jobmodel/api/pod_claims.py); cases from upstream's
TestValidateDynamicResourceAllocation (`pkg/apis/core/validation/validation_test.go`) and the code
of validatePodResourceClaim and validateResourceClaimNames."""

from __future__ import annotations

from typing import Any

import pytest

from jobmodel.api.pod_claims import (
    drop_disabled_dynamic_resource_allocation_fields,
    validate_pod_claims,
)
from jobmodel.api.pod_validation import pod_validation_options, validate_pod_template_spec
from tests.api.helpers import pairs, pod_template

F = "field"
MY_CLAIM = {"name": "my-claim", "resourceClaimName": "external-claim"}


def _spec(claims: list[dict[str, Any]] | None = None, pod_claims: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    spec: dict[str, Any] = {"containers": [{"name": "ctr", "resources": {"claims": claims or []}}]}
    if pod_claims is not None:
        spec["resourceClaims"] = pod_claims
    return spec


def _errs(spec: dict[str, Any], release: int = 37) -> set[tuple[str, str]]:
    return pairs(validate_pod_claims(spec, F, release))


def test_valid_claims() -> None:
    template = {"name": "my-claim-template", "resourceClaimTemplateName": "t"}
    assert _errs(_spec([{"name": "my-claim-template"}], [template])) == set()
    assert _errs(_spec([{"name": "my-claim", "request": "req-0"}, {"name": "my-claim", "request": "req-1"}], [MY_CLAIM])) == set()


@pytest.mark.parametrize("name", ["../my-claim", "my/claim"])
def test_pod_claim_name_is_a_dns_label(name: str) -> None:
    assert _errs(_spec(pod_claims=[{**MY_CLAIM, "name": name}])) == {(f"{F}.resourceClaims[0].name", "FieldValueInvalid")}


def test_pod_claim_name_required_and_unique() -> None:
    assert _errs(_spec(pod_claims=[{**MY_CLAIM, "name": ""}])) == {(f"{F}.resourceClaims[0].name", "FieldValueRequired")}
    assert _errs(_spec(pod_claims=[MY_CLAIM, MY_CLAIM])) == {(f"{F}.resourceClaims[1].name", "FieldValueDuplicate")}


def test_pod_claim_source_exactly_one() -> None:
    errors = validate_pod_claims(_spec(pod_claims=[{"name": "my-claim"}]), F, 37)
    assert [str(e) for e in errors] == [
        f'{F}.resourceClaims[0]: Invalid value: {{"Name":"my-claim","ResourceClaimName":null,"ResourceClaimTemplateName":null}}: '
        "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`"
    ]
    both = {**MY_CLAIM, "resourceClaimTemplateName": ".foo_bar"}
    assert _errs(_spec([{"name": "my-claim"}], [both])) == {
        (f"{F}.resourceClaims[0]", "FieldValueInvalid"),
        (f"{F}.resourceClaims[0].resourceClaimTemplateName", "FieldValueInvalid"),
    }


def test_container_claims_name_pod_claims() -> None:
    errors = validate_pod_claims(_spec([{"name": "no-such-claim"}], [MY_CLAIM, {**MY_CLAIM, "name": "a"}]), F, 37)
    assert [str(e) for e in errors] == [
        f'{F}.containers[0].resources.claims[0]: Not found: "no-such-claim": must be one of the names in pod.spec.resourceClaims: a, my-claim'
    ]
    errors = validate_pod_claims(_spec([{"name": "my-claim"}]), F, 37)
    assert [e.detail for e in errors] == ["must be one of the names in pod.spec.resourceClaims which is empty"]
    assert _errs(_spec([{"name": ""}], [MY_CLAIM])) == {(f"{F}.containers[0].resources.claims[0]", "FieldValueRequired")}
    assert _errs(_spec([{"name": "my-claim", "request": "*$@%^"}], [MY_CLAIM])) == {(f"{F}.containers[0].resources.claims[0].request", "FieldValueInvalid")}


@pytest.mark.parametrize(
    "claims",
    [
        [{"name": "my-claim"}, {"name": "my-claim"}],
        [{"name": "my-claim"}, {"name": "my-claim", "request": "req-0"}],
        [{"name": "my-claim", "request": "req-0"}, {"name": "my-claim"}],
        [{"name": "my-claim", "request": "req-0"}, {"name": "my-claim", "request": "req-0"}],
    ],
)
def test_container_claim_duplicates(claims: list[dict[str, Any]]) -> None:
    assert _errs(_spec(claims, [MY_CLAIM])) == {(f"{F}.containers[0].resources.claims[1]", "FieldValueDuplicate")}


def test_pod_level_claims_checked_from_1_34_not_for_windows() -> None:
    spec = {**_spec(pod_claims=[MY_CLAIM]), "resources": {"claims": [{"name": "nope"}]}}
    assert _errs(spec) == {(f"{F}.resources.claims[0]", "FieldValueNotFound")}
    assert _errs(spec, 33) == set()
    assert _errs({**spec, "os": {"name": "windows"}}) == set()


def test_dropped_before_1_34_unless_in_use() -> None:
    spec = _spec([{"name": "x"}], [MY_CLAIM])
    drop_disabled_dynamic_resource_allocation_fields(spec, None, 33)
    assert spec == {"containers": [{"name": "ctr", "resources": {}}]}
    spec = _spec([{"name": "x"}], [MY_CLAIM])
    drop_disabled_dynamic_resource_allocation_fields(spec, {"resourceClaims": [MY_CLAIM]}, 32)
    assert spec == _spec([{"name": "x"}], [MY_CLAIM])
    drop_disabled_dynamic_resource_allocation_fields(spec, None, 34)
    assert spec == _spec([{"name": "x"}], [MY_CLAIM])


def test_in_a_job_template() -> None:
    template = pod_template()
    template["spec"]["resourceClaims"] = [{"name": "gpu", "resourceClaimTemplateName": "gpu-template"}]
    template["spec"]["containers"][0]["resources"] = {"claims": [{"name": "gpu"}, {"name": "cpu"}]}
    errors = validate_pod_template_spec(template, "t", pod_validation_options(37, None))
    assert pairs(errors) == {("t.spec.containers[0].resources.claims[1]", "FieldValueNotFound")}
