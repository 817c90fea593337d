"""The model's validation and defaulting (jobmodel/api) against upstream's code (harness/upstream),
on generated Job and CronJob manifests, creates and updates."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jobmodel.adapters.oracle import CaseError
from jobmodel.api import strategy
from jobmodel.api.schema import UnknownFieldsError
from jobmodel.conformance.agreement import judge
from jobmodel.conformance.defaulting import model_outcome as defaulting_outcome
from jobmodel.conformance.validation import model_outcome as validation_outcome
from jobmodel.errors import InputError
from jobmodel.features import gates_for
from jobmodel.strategies.api import (
    cron_job_manifests,
    cron_job_updates,
    features,
    job_manifests,
    job_status_updates,
    job_updates,
    warned_cron_jobs,
    warned_jobs,
)
from tests.differential.conftest import EveryRelease, ReleaseUpstream

# Job creates and defaulting get the most: each case at the six releases, the CI run takes about
# 65 s on an idle core; the long profile about 7 minutes.
EXAMPLES = 10000 if os.environ.get("HYPOTHESIS_PROFILE") == "long" else 1500


# A pointer's address as `%#v` prints it inside a bad value (up to 1.33: `(*string)(0xc000123456)`).
POINTER_ADDRESS = re.compile(r"\)\(0x[0-9a-f]+\)")
HIDDEN_VALUE = "<bad value not compared>"
# The bad values the model does not render as upstream (docs/versions.md, "Not modelled"); their
# errors' fields, types and details are compared. An immutable pod template (validatePodTemplateUpdate:
# the internal core.PodTemplateSpec or core.PodSpec, every field of which json.Marshal writes under
# its Go name; up to 1.33 `%#v` with addresses):
UNRENDERED_TEMPLATE_FIELDS = frozenset({"spec.template", "spec.template.spec"})
# A resource.Quantity up to 1.33 (`%#v`: its int64Amount as parsed from the input and the input
# text when canonical, which the model's decoder does not keep; from 1.34 its canonical string).
GO_SYNTAX_QUANTITY = "Invalid value: resource.Quantity{"


def bad_value_hidden(error: Mapping[str, Any]) -> str:
    """An error's whole message (`<field>: <Type>: <bad value>: <detail>`) with the bad value
    replaced by HIDDEN_VALUE."""
    message, detail = str(error["message"]), str(error.get("detail") or "")
    head, _, body = message.partition(": ")
    type_text, _, rest = body.partition(": ")
    tail = f": {detail}" if detail and rest.endswith(f": {detail}") else ""
    return f"{head}: {type_text}: {HIDDEN_VALUE}{tail}"


def compared_messages(upstream: Mapping[str, Any], model: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """Both sides' whole error messages (field.Error.Error()), sorted. Every character is compared
    but the bad value of an error whose upstream value holds a pointer address (`%#v` up to 1.33:
    the address changes from run to run; the model prints the 1.34 form there), is an immutable
    pod template (UNRENDERED_TEMPLATE_FIELDS) or a quantity's `%#v` (GO_SYNTAX_QUANTITY): for those
    errors (of the same field, type and detail on both sides) the bad value is hidden."""
    ups, ours = list(upstream.get("errors") or []), list(model.get("errors") or [])

    def key(e: Mapping[str, Any]) -> tuple[str, str, str]:
        return (str(e["field"]), str(e["type"]), str(e.get("detail", "")))

    hidden = {
        key(e)
        for e in ups
        if POINTER_ADDRESS.search(str(e["message"]))
        or GO_SYNTAX_QUANTITY in str(e["message"])
        or (e["field"] in UNRENDERED_TEMPLATE_FIELDS and e["type"] == "FieldValueInvalid")
    }

    def shown(e: Mapping[str, Any]) -> str:
        return bad_value_hidden(e) if key(e) in hidden else str(e["message"])

    return sorted(shown(e) for e in ups), sorted(shown(e) for e in ours)


def _check(suite: str, case: dict[str, Any], model: Callable[[dict[str, Any]], dict[str, Any]], upstream: ReleaseUpstream) -> None:
    """The model's outcome judged against upstream's; an object the model's decoder refuses (a bad
    quantity) must fail upstream's decoding too, with the same reason. Validation errors are also
    compared message by message (`compared_messages`)."""
    try:
        outcome = model(case)
    except InputError as err:
        check_decoding_refused(suite, case, err, upstream)
        return
    reference = upstream.outcome(suite, case)
    verdict = judge(suite, case, outcome, lambda c: upstream.outcome(suite, c), reference_outcome=reference)
    if not verdict.agrees:
        pytest.fail(f"{suite} differs: {list(verdict.differences)} for {json.dumps(case)}")
    if suite == "validation":
        want, got = compared_messages(reference, outcome)
        if got != want:
            only_upstream = [m for m in want if m not in got]
            only_model = [m for m in got if m not in want]
            pytest.fail(f"validation messages differ: upstream {only_upstream}, model {only_model} for {json.dumps(case)}")


def check_decoding_refused(suite: str, case: dict[str, Any], err: InputError, upstream: ReleaseUpstream) -> None:
    try:
        upstream.outcome(suite, case)
    except CaseError as refused:
        if isinstance(err, UnknownFieldsError):
            # Every unknown field, in order: upstream's paths are the model's without the case key.
            named = re.findall(r'unknown field "([^"]*)"', refused.reason)
            if named != [field.split(".", 1)[1] for field in err.fields]:
                pytest.fail(f"{suite}: the decoders name other unknown fields: model {err}, upstream {refused.reason} for {json.dumps(case)}")
        elif err.reason not in refused.reason:
            pytest.fail(f"{suite}: the decoders refuse for other reasons: model {err}, upstream {refused.reason} for {json.dumps(case)}")
        return
    pytest.fail(f"{suite}: the model refuses ({err}), upstream decodes it for {json.dumps(case)}")


def check_defaulting(upstream: ReleaseUpstream, case: dict[str, Any]) -> None:
    _check("defaulting", upstream.case(case), defaulting_outcome, upstream)


def check_validation(upstream: ReleaseUpstream, case: dict[str, Any]) -> None:
    _check("validation", upstream.case(case), validation_outcome, upstream)


@settings(max_examples=EXAMPLES)
@given(job_manifests())
def test_job_create_validation_agrees(upstreams: EveryRelease, job: dict[str, Any]) -> None:
    for upstream in upstreams:
        check_validation(upstream, {"name": "g", "kind": "Job", "operation": "create", "object": job, "expect": {}})


@settings(max_examples=EXAMPLES // 3)
@given(job_updates())
def test_job_update_validation_agrees(upstreams: EveryRelease, pair: tuple[dict[str, Any], dict[str, Any]]) -> None:
    old, new = pair
    case = {"name": "g", "kind": "Job", "operation": "update", "object": new, "oldObject": old, "expect": {}}
    for upstream in upstreams:
        check_validation(upstream, case)


@settings(max_examples=EXAMPLES // 3)
@given(job_status_updates(), features())
def test_job_status_update_validation_agrees(
    upstreams: EveryRelease, pair: tuple[dict[str, Any], dict[str, Any]], gates: dict[str, bool]
) -> None:
    old, new = pair
    case = {"name": "g", "kind": "Job", "operation": "update", "subresource": "status", "object": new, "oldObject": old, "features": gates, "expect": {}}
    for upstream in upstreams:
        check_validation(upstream, case)


@settings(max_examples=EXAMPLES // 6)
@given(cron_job_updates())
def test_cron_job_update_validation_agrees(
    upstreams: EveryRelease, pair: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    old, new = pair
    case = {"name": "g", "kind": "CronJob", "operation": "update", "object": new, "oldObject": old, "expect": {}}
    for upstream in upstreams:
        check_validation(upstream, case)


@settings(max_examples=EXAMPLES // 4)
@given(cron_job_manifests())
def test_cron_job_create_validation_agrees(upstreams: EveryRelease, cron: dict[str, Any]) -> None:
    for upstream in upstreams:
        check_validation(upstream, {"name": "g", "kind": "CronJob", "operation": "create", "object": cron, "expect": {}})


@st.composite
def warned_writes(draw: st.DrawFn) -> tuple[str, dict[str, Any], str | None, dict[str, Any]]:
    """A Job or CronJob to create, and sometimes a change to it once stored: a scale (a new
    generation: the template is warned of again), a label (the same generation: no warning), a
    new pod template (a CronJob's may change), or a schedule with a time zone in it."""
    kind = draw(st.sampled_from(["Job", "Job", "CronJob"]))
    manifest = draw(warned_jobs() if kind == "Job" else warned_cron_jobs())
    change = draw(st.sampled_from([None, None, "scale", "label", "template", "TZ"]))
    return kind, manifest, change, draw(warned_jobs())["spec"]["template"]


def check_warnings(upstream: ReleaseUpstream, kind: str, manifest: dict[str, Any], change: str | None, template: dict[str, Any]) -> None:
    """A create of `manifest`, or an update of it as stored, validated as stored (defaulted and
    prepared by the model, whose defaulting the defaulting tests compare) on both sides:
    validity, errors and every warning's text."""
    gates = gates_for(upstream.release)
    create = strategy.create_job if kind == "Job" else strategy.create_cron_job
    update = strategy.update_job if kind == "Job" else strategy.update_cron_job
    stored, _ = create(manifest, "uid-1", gates)
    if change is None:
        check_validation(upstream, {"name": "w", "kind": kind, "operation": "create", "object": stored, "expect": {}})
        return
    changed = json.loads(json.dumps(stored))
    spec = changed["spec"] if kind == "Job" else changed["spec"]["jobTemplate"]["spec"]
    if change == "scale":
        spec["parallelism"] = 2
    elif change == "label":
        changed["metadata"]["labels"] = {"x": "y"}
    elif change == "template":
        spec["template"] = {**template, "metadata": {**template.get("metadata", {}), "labels": spec["template"].get("metadata", {}).get("labels", {})}}
    elif kind == "CronJob":  # a schedule kept from before the time zone field (validation allows it then)
        stored["spec"]["schedule"] = changed["spec"]["schedule"] = "CRON_TZ=UTC 0 * * * *"
    new, _ = update(changed, stored, gates)
    check_validation(upstream, {"name": "w", "kind": kind, "operation": "update", "object": new, "oldObject": stored, "expect": {}})


@settings(max_examples=EXAMPLES // 3)
@given(warned_writes())
def test_warnings_agree(upstreams: EveryRelease, write: tuple[str, dict[str, Any], str | None, dict[str, Any]]) -> None:
    for upstream in upstreams:
        check_warnings(upstream, *write)


@settings(max_examples=EXAMPLES)
@given(job_manifests(), features())
def test_job_defaulting_agrees(upstreams: EveryRelease, job: dict[str, Any], gates: dict[str, bool]) -> None:
    case = {"name": "g", "kind": "Job", "object": job, "features": gates, "expect": {}}
    for upstream in upstreams:
        check_defaulting(upstream, case)


def stored_old(upstream: ReleaseUpstream, raw_case: dict[str, Any]) -> dict[str, Any] | None:
    """The old object of an update as upstream stores it (defaulted, with a resourceVersion), or
    None where decoding refuses it (the model and upstream then agree on the refusal)."""
    old_case = upstream.case(raw_case)
    try:
        defaulting_outcome(old_case)
    except InputError as err:
        check_decoding_refused("defaulting", old_case, err, upstream)
        return None
    old: dict[str, Any] = upstream.outcome("defaulting", old_case)["object"]
    old.update({"apiVersion": "batch/v1", "kind": raw_case["kind"]})
    old["metadata"]["resourceVersion"] = "1"
    return old


@settings(max_examples=EXAMPLES // 6)
@given(job_updates(), features())
def test_job_update_defaulting_agrees(
    upstreams: EveryRelease, pair: tuple[dict[str, Any], dict[str, Any]], gates: dict[str, bool]
) -> None:
    """PrepareForUpdate against a stored old Job: the old one as upstream stores it (defaulted),
    since the suite's adapter takes `oldObject` as given."""
    raw_old, new = pair
    for upstream in upstreams:
        old = stored_old(upstream, {"name": "g", "kind": "Job", "object": raw_old, "features": gates, "expect": {}})
        if old is not None:
            check_defaulting(upstream, {"name": "g", "kind": "Job", "object": new, "oldObject": old, "features": gates, "expect": {}})


@settings(max_examples=EXAMPLES // 6)
@given(cron_job_updates())
def test_cron_job_update_defaulting_agrees(upstreams: EveryRelease, pair: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """PrepareForUpdate of a CronJob against the old one as upstream stores it (defaulted, with a status)."""
    raw_old, new = pair
    for upstream in upstreams:
        old = stored_old(upstream, {"name": "g", "kind": "CronJob", "object": raw_old, "expect": {}})
        if old is not None:
            old["status"] = {"lastScheduleTime": "2024-01-01T00:00:00Z"}
            check_defaulting(upstream, {"name": "g", "kind": "CronJob", "object": new, "oldObject": old, "expect": {}})


@settings(max_examples=EXAMPLES // 4)
@given(cron_job_manifests())
def test_cron_job_defaulting_agrees(upstreams: EveryRelease, cron: dict[str, Any]) -> None:
    case = {"name": "g", "kind": "CronJob", "object": cron, "expect": {}}
    for upstream in upstreams:
        check_defaulting(upstream, case)


SAVED_VALIDATION = sorted((Path(__file__).resolve().parent / "vectors").glob("validation-*.json"))


def saved_validation_cases() -> list[dict[str, Any]]:
    return [dict(c) for f in SAVED_VALIDATION for c in json.loads(f.read_text())["cases"]]


def test_saved_validation_vectors_agree_in_every_message(upstream: ReleaseUpstream) -> None:
    """The saved validation vectors' cases, each at the run's release (a field the release's
    types lack is then refused by both decoders), compared with upstream's answer message by
    message: the vectors hold the inputs that reach unusual renderings."""
    cases = saved_validation_cases()
    assert len(cases) > 200
    for case in cases:
        check_validation(upstream, {k: v for k, v in case.items() if k not in ("expect", "kubeVersion")})


def test_compared_messages_hide_only_what_cannot_be_compared() -> None:
    """A pointer address (upstream's `%#v` up to 1.33) hides that error's bad value on both sides;
    any other difference in a message remains."""
    addressed = "spec.successPolicy: Invalid value: batch.SuccessPolicy{Rules:[]batch.SuccessPolicyRule{batch.SuccessPolicyRule{SucceededIndexes:(*string)(0xc0001), SucceededCount:(*int32)(nil)}}}: requires indexed completion mode"
    error = {"field": "spec.successPolicy", "type": "FieldValueInvalid", "detail": "requires indexed completion mode"}
    ours = {**error, "message": 'spec.successPolicy: Invalid value: {"Rules":[{"SucceededIndexes":"0","SucceededCount":null}]}: requires indexed completion mode'}
    want, got = compared_messages({"errors": [{**error, "message": addressed}]}, {"errors": [ours]})
    assert want == got == [f"spec.successPolicy: Invalid value: {HIDDEN_VALUE}: requires indexed completion mode"]
    port = {"field": "p", "type": "FieldValueNotSupported", "detail": 'supported values: "TCP"'}
    want, got = compared_messages(
        {"errors": [{**port, "message": 'p: Unsupported value: "\\u003c": supported values: "TCP"'}]},
        {"errors": [{**port, "message": 'p: Unsupported value: "<": supported values: "TCP"'}]},
    )
    assert want != got
