"""Two engines' outcomes for one generated case compared on what upstream defines: the judge of
differential testing (the model against upstream's code) and of `jobmodel oracle check` (another
implementation against the model).

Each suite has a canonical form of its outcome: the parts upstream defines, written alike by
every engine (the pod UIDs in `uncountedTerminatedPods` as sets; deleted and patched pods as
multisets, since upstream makes those calls from one goroutine per pod; which pods a quota
refuses only by their number; API objects without the empty values Go writes).

Where upstream's result depends on the order its informer cache lists objects (a Go map's order:
which failed pod of an index waits for its replacement, which Job of a CronJob is seen first),
the reference engine itself is asked again with the objects in other orders, and with them in the
given order (a Go map's order is drawn anew on each call): when its answers differ, the candidate
agrees if it gives one of them; when they do not, the candidate must give exactly that answer
(`judge`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import attrs

from jobmodel.adapters import protocol

Outcome = Mapping[str, Any]
Reference = Callable[[Mapping[str, Any]], Outcome]

# How many more times the reference is asked the case as given when the candidate's answer is not
# among its answers for the reorderings: a Go map lists a few objects in their insertion order in
# about seven calls of eight. Objects that tie give several answers, the candidate's among them
# about one call in eight (eight pods, three deleted of five that tie: four answers, the
# candidate's 53 calls of 400): the reference is asked SAME_INPUT_ASKS times per distinct answer
# it has given, up to MAX_SAME_INPUT_ASKS. Eight per answer, 32 asks there, missed the candidate's
# answer about once in a hundred cases (a long differential run met it); 32 per answer miss it with
# a chance of 1 in 10^8.
SAME_INPUT_ASKS = 32
MAX_SAME_INPUT_ASKS = 1024


@attrs.frozen
class Verdict:
    """Whether the candidate agrees, by which path (`exact`, `order-dependent`, or the reason
    it does not), and the differences (candidate != reference) when it does not."""

    agrees: bool
    path: str
    differences: tuple[str, ...] = ()
    reference: Mapping[str, Any] = attrs.field(factory=dict)


def judge(
    suite: str,
    case: Mapping[str, Any],
    candidate: Outcome,
    reference: Reference,
    reference_outcome: Outcome | None = None,
) -> Verdict:
    """The candidate's outcome for `case` judged against the reference engine's."""
    first = reference_outcome if reference_outcome is not None else reference(case)
    canonical = _comparing(suite, candidate, first)
    want = canonical(first, case)
    got = canonical(candidate, case)
    if suite == "defaulting":
        got = without_omitted_zeros(got, want)
    if got == want:
        return Verdict(True, "exact", reference=want)
    orders = list(reorderings(suite, case))
    answers = [want] + [canonical(reference(c), c) for c in orders]
    # The lister's order is a Go map's, drawn anew on every call: the same input can list its
    # objects in another order (pods that tie in the deletion ranking then swap), so the case as
    # given is asked again before the reference's answer counts as the only one.
    distinct = {json.dumps(a, sort_keys=True) for a in answers}
    asks = 0
    while orders and got not in answers and asks < min(MAX_SAME_INPUT_ASKS, SAME_INPUT_ASKS * len(distinct)):
        answer = canonical(reference(case), case)
        answers.append(answer)
        distinct.add(json.dumps(answer, sort_keys=True))
        asks += 1
    if all(a == want for a in answers):
        path = "order-independent: the reference gives one answer" if orders else "no order to vary"
        return Verdict(False, path, tuple(differences(got, want)), want)
    if got in answers:
        return Verdict(True, "order-dependent", reference=want)
    return Verdict(False, "order-dependent: none of the reference's answers", tuple(differences(got, want)), want)


# Beside the sync suites' optional fields (every field their schema does not require), the fields
# of an outcome compared only when both sides report them.
ONLY_WHEN_BOTH_REPORT = {"validation": ("warnings",)}


def _comparing(suite: str, candidate: Outcome, reference: Outcome) -> Callable[[Outcome, Mapping[str, Any]], dict[str, Any]]:
    """The suite's canonical form, less the optional fields (a sync outcome's the protocol schema
    does not require, a validation outcome's warnings) that the candidate or the reference does
    not report: those are not compared."""
    canonical = CANONICAL[suite]
    if suite in ("job-sync", "cronjob-sync"):
        required = set(protocol.schema()["$defs"]["outcome"][suite]["required"])
        optional = {k for k in canonical({}, {}) if k not in required}
    else:
        optional = set(ONLY_WHEN_BOTH_REPORT.get(suite, ()))
    left_out = {k for k in optional if k not in candidate or k not in reference}
    if not left_out:
        return canonical

    def compared(outcome: Outcome, case: Mapping[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in canonical(outcome, case).items() if k not in left_out}

    return compared


def reorderings(suite: str, case: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """The case with the objects upstream lists from its cache in other orders (rotations and
    reversed rotations): the pods of a job-sync case, the Jobs of a cronjob-sync case."""
    key = {"job-sync": "pods", "cronjob-sync": "jobs"}.get(suite)
    if key is None:
        return
    items = list(case.get(key) or [])
    if len(items) < 2:
        return
    seen = {json.dumps(items, sort_keys=True)}
    for order in (items, items[::-1]):
        for shift in range(len(order)):
            moved = order[shift:] + order[:shift]
            text = json.dumps(moved, sort_keys=True)
            if text not in seen:
                seen.add(text)
                yield {**case, key: moved}


def differences(actual: Any, expected: Any, path: str = "") -> list[str]:
    """Where two JSON values differ, as `path: candidate ... != reference ...` lines."""
    if isinstance(actual, dict) and isinstance(expected, dict):
        return [d for k in sorted(set(actual) | set(expected)) for d in differences(actual.get(k), expected.get(k), f"{path}.{k}")]
    if isinstance(actual, list) and isinstance(expected, list) and len(actual) == len(expected):
        return [d for i, (a, e) in enumerate(zip(actual, expected, strict=True)) for d in differences(a, e, f"{path}[{i}]")]
    if actual == expected:
        return []
    return [f"{path.lstrip('.') or '(outcome)'}: candidate {json.dumps(actual, sort_keys=True)} != reference {json.dumps(expected, sort_keys=True)}"]


# --- canonical forms, one per suite ------------------------------------------------------------


def _failed_pods(case: Mapping[str, Any]) -> int:
    return sum(
        1
        for p in case.get("pods") or []
        if (p.get("status") or {}).get("phase") == "Failed" or (p.get("metadata") or {}).get("deletionTimestamp") is not None
    )


def canonical_job_sync(outcome: Outcome, case: Mapping[str, Any]) -> dict[str, Any]:
    """The parts of a job-sync outcome that upstream defines, in a form every engine writes alike."""
    status = json.loads(json.dumps(outcome.get("status") or {}))
    uncounted = status.get("uncountedTerminatedPods")
    if isinstance(uncounted, dict):
        for key in ("succeeded", "failed"):
            if key in uncounted:
                uncounted[key] = sorted(uncounted[key])
                if not uncounted[key]:
                    del uncounted[key]
    for key, zero in (("active", 0), ("succeeded", 0), ("failed", 0), ("completedIndexes", "")):
        if status.get(key) == zero:
            del status[key]
    for cond in status.get("conditions", []):
        # Which failed pod's FailJob rule upstream meets first is the lister's order.
        if cond.get("reason") == "PodFailurePolicy" and _failed_pods(case) > 1:
            cond["message"] = "<a FailJob rule's message>"
    created = []
    for pod in outcome.get("createdPods") or []:
        meta = pod.get("metadata", {})
        spec = pod.get("spec", {})
        created.append(
            {
                "generateName": meta.get("generateName"),
                "labels": meta.get("labels") or {},
                "annotations": meta.get("annotations") or {},
                "finalizers": meta.get("finalizers") or [],
                "ownerReferences": meta.get("ownerReferences") or [],
                "hostname": spec.get("hostname"),
                "env": [c["env"] for c in spec.get("containers") or [] if c.get("env")],
            }
        )
    created_indexes = outcome.get("createdIndexes")
    if (case.get("controller") or {}).get("podCreateLimit") is not None:
        # Upstream creates a batch's pods from goroutines: which of them the quota refuses is a race.
        created, created_indexes = [], None
    return {
        "error": outcome.get("error"),
        "creations": outcome.get("creations"),
        "acceptedCreations": outcome.get("acceptedCreations"),
        "createdPods": created,
        "createdIndexes": created_indexes,
        "deletions": outcome.get("deletions"),
        "deletedPods": _multiset(outcome.get("deletedPods")),
        "podPatches": outcome.get("podPatches"),
        "patchedPods": _multiset(outcome.get("patchedPods")),
        "status": status,
        "requeueAfterSeconds": _rounded(outcome.get("requeueAfterSeconds")),
        "events": outcome.get("events"),
    }


def _multiset(names: Any) -> list[str] | None:
    return None if names is None else sorted(map(str, names))


def _rounded(value: Any) -> Any:
    return None if value is None else round(float(value), 3)


def canonical_cronjob_sync(outcome: Outcome, case: Mapping[str, Any]) -> dict[str, Any]:
    """The parts of a cronjob-sync outcome every engine defines alike."""
    created = [
        {
            "name": j["metadata"].get("name"),
            "labels": j["metadata"].get("labels") or {},
            "annotations": j["metadata"].get("annotations") or {},
            "ownerReferences": j["metadata"].get("ownerReferences") or [],
            "scheduledTime": j.get("scheduledTime"),
        }
        for j in outcome.get("jobsCreated") or []
    ]
    status = dict(outcome.get("status") or {})
    if not status.get("active"):
        status.pop("active", None)
    return {
        "error": bool(outcome.get("error")),
        "creations": outcome.get("creations"),
        "jobsCreated": created,
        "jobsDeleted": outcome.get("jobsDeleted"),
        "status": status,
        "statusUpdated": outcome.get("statusUpdated"),
        "requeueAfterSeconds": _rounded(outcome.get("requeueAfterSeconds")),
        # Events of the Jobs walk come in the lister's (a Go map's) order: compared as multisets.
        "warnings": sorted(outcome.get("warnings") or []),
        "events": sorted(outcome.get("events") or []),
        # "<type> <reason> <message>", as upstream's FakeRecorder writes them (optional).
        "eventMessages": sorted(outcome.get("eventMessages") or []),
    }


def canonical_schedule(outcome: Outcome, case: Mapping[str, Any]) -> dict[str, Any]:
    """A rejected schedule computes nothing: only that it was rejected, and whether by a panic in
    create validation (the API server's 500) counts."""
    if outcome.get("error"):
        return {"error": True, "panic": "panic" in str(outcome.get("reason", ""))}
    return {k: outcome.get(k) for k in ("error", "mostRecent", "tooManyMissed", "next")}


def canonical_validation(outcome: Outcome, case: Mapping[str, Any]) -> dict[str, Any]:
    """Validity, whether the write failed with a server error, the errors as a sorted list
    (repeated errors count: kubectl prints each), and the warnings as a sorted list (upstream
    walks some maps in random order)."""
    errors = sorted([e["field"], e["type"], e.get("detail", "")] for e in outcome.get("errors") or [])
    warnings = sorted(str(w) for w in outcome.get("warnings") or [])
    return {"valid": bool(outcome.get("valid")), "serverError": "serverError" in outcome, "errors": errors, "warnings": warnings}


def canonical_defaulting(outcome: Outcome, case: Mapping[str, Any]) -> dict[str, Any]:
    """The defaulted object without its type meta (upstream converts internal objects with the
    scheme, which leaves apiVersion and kind unset) nor the empty values Go writes."""
    obj = dict(outcome.get("object") or {})
    obj.pop("apiVersion", None)
    obj.pop("kind", None)
    return {"serverError": "serverError" in outcome, "object": pruned(obj)}


def without_omitted_zeros(candidate: Any, reference: Any) -> Any:
    """The candidate without the zero values (0, false) of fields the reference lacks: Go's
    encoder leaves out a zero non-pointer `omitempty` field (an ObjectMeta's `generation`,
    JobStatus's `active`), where the model writes the value it was given. A zero the reference
    writes (a pointer's: `suspend: false`) is compared as any value."""
    if not isinstance(candidate, dict):
        return candidate
    written = reference if isinstance(reference, dict) else {}
    out = {}
    for key, value in candidate.items():
        if key not in written and isinstance(value, (int, bool)) and value == 0:
            continue
        kept = without_omitted_zeros(value, written.get(key))
        if key in written or kept != {}:  # an object left empty: Go's, pruned on the other side
            out[key] = kept
    return out


def pruned(value: Any) -> Any:
    """JSON without empty objects, lists, strings and nulls as values of a field: Go writes them
    for fields without `omitempty` (a pod-condition pattern's `status`, a CronJob's `schedule`)
    and leaves them out for the others (an empty `metadata.name`), where the model writes what
    it was given and the defaults. A default applied on one side only still shows (a value
    against none)."""
    if isinstance(value, dict):
        out = {k: pruned(v) for k, v in value.items()}
        return {k: v for k, v in out.items() if v not in ({}, [], None, "")}
    if isinstance(value, list):
        return [pruned(v) for v in value]
    return value


CANONICAL: dict[str, Callable[[Outcome, Mapping[str, Any]], dict[str, Any]]] = {
    "job-sync": canonical_job_sync,
    "cronjob-sync": canonical_cronjob_sync,
    "schedule": canonical_schedule,
    "validation": canonical_validation,
    "defaulting": canonical_defaulting,
}


# --- a divergence as a vector ------------------------------------------------------------------


def expectation(suite: str, case: Mapping[str, Any], reference: Outcome, candidate: Outcome) -> dict[str, Any]:
    """The `expect` of a vector that records the reference's outcome for `case` in FORMAT.md's
    terms, stated so that the suite's comparison fails the candidate's differing outcome (fields
    the candidate adds and the reference lacks are given as null: they must be absent)."""
    if suite == "job-sync":
        expect = {k: reference[k] for k in ("error", "creations", "acceptedCreations", "deletions", "podPatches", "events") if k in reference}
        for key in ("deletedPods", "patchedPods"):
            if reference.get(key) is not None:
                expect[key] = list(reference[key])
        expect["status"] = _with_absent(reference.get("status") or {}, candidate.get("status"))
        expect["conditions"] = [
            {k: c[k] for k in ("type", "status", "reason", "message") if k in c} for c in reference.get("conditions") or []
        ]
        expect["requeueAfterSeconds"] = reference.get("requeueAfterSeconds")
        if (case.get("controller") or {}).get("podCreateLimit") is None:
            expect["createdIndexes"] = list(reference.get("createdIndexes") or [])
            expect["createdPods"] = [_created_pod(p) for p in reference.get("createdPods") or []]
        return expect
    if suite == "cronjob-sync":
        expect = {k: reference[k] for k in ("error", "creations", "jobsDeleted", "statusUpdated", "requeueAfterSeconds", "warnings", "events") if k in reference}
        expect["jobsCreated"] = [
            {"metadata": {k: j["metadata"][k] for k in ("name", "labels", "annotations", "ownerReferences") if k in j["metadata"]}, "scheduledTime": j.get("scheduledTime")}
            for j in reference.get("jobsCreated") or []
        ]
        expect["status"] = _with_absent(reference.get("status") or {}, candidate.get("status"))
        return expect
    if suite == "schedule":
        if reference.get("error"):
            return {"error": True, "mostRecent": None}
        return {k: reference.get(k) for k in ("error", "mostRecent", "tooManyMissed", "next")}
    if suite == "validation":
        errors = [{"field": e["field"], "type": e["type"]} for e in reference.get("errors") or []]
        return {"valid": bool(reference.get("valid")), "errors": errors}
    if suite == "defaulting":
        return {"object": _with_absent(pruned(dict(reference.get("object") or {})), candidate.get("object"))}
    raise ValueError(f"no expectation for suite {suite!r}")


def _with_absent(reference: Any, candidate: Any) -> Any:
    """`reference`, with null for every key of `candidate` (recursively, in objects) it lacks."""
    if not isinstance(reference, dict) or not isinstance(candidate, dict):
        return reference
    out = {k: _with_absent(v, candidate.get(k)) for k, v in reference.items()}
    for key in candidate:
        if key not in reference and candidate[key] not in (None, {}, [], "", 0):
            out[key] = None
    return out


def _created_pod(pod: Mapping[str, Any]) -> dict[str, Any]:
    meta = pod.get("metadata") or {}
    spec = pod.get("spec") or {}
    out: dict[str, Any] = {"metadata": {k: meta[k] for k in ("generateName", "labels", "annotations", "finalizers", "ownerReferences") if k in meta}}
    if "hostname" in spec:
        out["spec"] = {"hostname": spec["hostname"]}
    return out
