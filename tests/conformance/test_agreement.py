"""jobmodel.conformance.agreement: the judge accepts another order only where the reference itself
gives it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from jobmodel.conformance.agreement import SAME_INPUT_ASKS, judge, reorderings


def _case() -> dict[str, Any]:
    pod = {"metadata": {"name": "p"}, "status": {"phase": "Running"}}
    return {"now": "2024-06-01T12:00:00Z", "job": {"status": {}}, "pods": [
        {**pod, "metadata": {"name": "pod-0"}}, {**pod, "metadata": {"name": "pod-1"}}
    ]}


def _outcome(deleted: str) -> dict[str, Any]:
    return {"error": False, "deletedPods": [deleted], "status": {}}


def _scripted(answers: Iterator[str]) -> Any:
    def reference(case: Mapping[str, Any]) -> dict[str, Any]:
        return _outcome(next(answers))

    return reference


def test_a_reference_that_answers_alike_in_every_order_is_the_only_answer() -> None:
    case = _case()
    asked = iter(["pod-1"] * 100)
    verdict = judge("job-sync", case, _outcome("pod-0"), _scripted(asked))
    assert not verdict.agrees and verdict.path == "order-independent: the reference gives one answer"
    # Once per reordering, and the case as given again each time.
    assert 100 - len(list(asked)) == 1 + len(list(reorderings("job-sync", case))) + SAME_INPUT_ASKS


def test_another_answer_of_the_reference_on_the_same_input_is_accepted() -> None:
    """Pods that tie in the deletion ranking go in the lister's (a Go map's) order, which the
    same input can list differently from one call to the next."""
    asked = iter(["pod-1", "pod-1", "pod-1", "pod-0"])
    verdict = judge("job-sync", _case(), _outcome("pod-0"), _scripted(asked))
    assert verdict.agrees and verdict.path == "order-dependent"
    assert list(asked) == []


def test_an_answer_the_reference_never_gives_is_refused() -> None:
    asked = iter(["pod-1", "pod-0"] * 100)
    verdict = judge("job-sync", _case(), _outcome("pod-2"), _scripted(asked))
    assert not verdict.agrees and verdict.path == "order-dependent: none of the reference's answers"


def test_many_answers_of_a_reference_are_asked_for_longer() -> None:
    """Ten pods that tie in the deletion ranking: upstream deletes them in one of dozens of
    lister orders, the candidate's (the cache's order) about one call in eight, here the 40th."""
    others = [f"pod-{i}" for i in range(3, 40)]
    asked = iter(["pod-1"] * 3 + others + ["pod-0"] + ["pod-1"] * 300)
    verdict = judge("job-sync", _case(), _outcome("pod-0"), _scripted(asked))
    assert verdict.agrees and verdict.path == "order-dependent"


def test_the_candidates_answer_among_four_at_one_call_in_eight_is_found() -> None:
    """Eight pods of which five tie for three deletions (a mutated upstream case at 1.37):
    upstream answered four ways, the candidate's way 53 calls of 400; here it first comes on
    the 60th call, after the three others, where 32 asks would have given up."""
    others = ["pod-1", "pod-2", "pod-3"]
    asked = iter(others * 20 + ["pod-0"] + others * 100)
    verdict = judge("job-sync", _case(), _outcome("pod-0"), _scripted(asked))
    assert verdict.agrees and verdict.path == "order-dependent"


def _defaulted(status: dict[str, Any], name: str | None) -> dict[str, Any]:
    meta = {"namespace": "default"} if name is None else {"namespace": "default", "name": name}
    return {"object": {"metadata": meta, "spec": {"suspend": False}, "status": status}}


def _no_second_answer(case: Mapping[str, Any]) -> dict[str, Any]:
    raise AssertionError("a defaulting case has one answer")


def test_defaulted_objects_agree_where_go_leaves_empty_values_out() -> None:
    """Go's encoder leaves out an empty omitempty string (`metadata.name: ""`) and a zero
    non-pointer omitempty field (JobStatus's counters); the model writes what it was given."""
    case = {"kind": "Job"}
    model = _defaulted({"active": 0, "failed": 0}, "")
    upstream = _defaulted({}, None)
    assert judge("defaulting", case, model, _no_second_answer, reference_outcome=upstream).agrees


def test_defaulted_objects_differ_in_a_value_on_one_side_only() -> None:
    case = {"kind": "Job"}
    for model, upstream in [
        (_defaulted({"active": 1}, None), _defaulted({}, None)),  # a counter that is not zero
        (_defaulted({}, "x"), _defaulted({}, None)),
    ]:
        assert not judge("defaulting", case, model, _no_second_answer, reference_outcome=upstream).agrees
    # A zero the reference writes (a pointer's, here a default) must be there.
    model, upstream = _defaulted({}, None), _defaulted({}, None)
    del model["object"]["spec"]["suspend"]
    assert not judge("defaulting", case, model, _no_second_answer, reference_outcome=upstream).agrees


def _cron_outcome(**extra: Any) -> dict[str, Any]:
    return {"error": False, "creations": 0, "deletions": 0, "status": {"active": []}, "events": ["UnknownTimeZone"], **extra}


def test_event_messages_are_compared_when_both_sides_report_them() -> None:
    upstream = _cron_outcome(eventMessages=['Warning UnknownTimeZone invalid timeZone: "X": unknown time zone X'])
    python_repr = _cron_outcome(eventMessages=["Warning UnknownTimeZone invalid timeZone: 'X': unknown time zone X"])
    verdict = judge("cronjob-sync", {"jobs": []}, python_repr, _no_second_answer, reference_outcome=upstream)
    assert not verdict.agrees and any("eventMessages" in d for d in verdict.differences)
    assert judge("cronjob-sync", {"jobs": []}, dict(upstream), _no_second_answer, reference_outcome=upstream).agrees


def test_an_optional_field_one_side_does_not_report_is_not_compared() -> None:
    # An implementation checked by `oracle check` need not report the messages, whichever side
    # is the reference.
    with_messages = _cron_outcome(eventMessages=["Warning UnknownTimeZone anything"])
    without = _cron_outcome()
    assert judge("cronjob-sync", {"jobs": []}, without, _no_second_answer, reference_outcome=with_messages).agrees
    assert judge("cronjob-sync", {"jobs": []}, with_messages, _no_second_answer, reference_outcome=without).agrees
    # A required field is compared all the same.
    assert not judge("cronjob-sync", {"jobs": []}, _cron_outcome(creations=1), _no_second_answer, reference_outcome=without).agrees


def test_validation_warnings_are_compared_in_any_order_when_both_sides_report_them() -> None:
    """An oracle that reports no warnings is not judged on them; one that does is, as a multiset
    (upstream walks the node selector's map in random order); errors are compared either way."""
    case: dict[str, Any] = {"kind": "Job"}
    model = {"valid": True, "errors": [], "warnings": ["a: x", "b: y"]}
    assert judge("validation", case, {"valid": True, "errors": [], "warnings": ["b: y", "a: x"]}, _no_second_answer, reference_outcome=model).agrees
    assert judge("validation", case, {"valid": True, "errors": []}, _no_second_answer, reference_outcome=model).agrees
    differing = judge("validation", case, {"valid": True, "errors": [], "warnings": ["a: x"]}, _no_second_answer, reference_outcome=model)
    assert not differing.agrees and any("warnings" in d for d in differing.differences)
    invalid = {"valid": False, "errors": [{"field": "spec", "type": "FieldValueInvalid"}]}
    assert not judge("validation", case, invalid, _no_second_answer, reference_outcome=model).agrees
