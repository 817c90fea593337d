package main

import (
	"strconv"

	"k8s.io/kubernetes/pkg/controller/job"
)

// caseBookkeeping is the Job controller's bookkeeping for one Job as a request's `controller`
// writes it (job-sync cases and --pod-events requests alike): expectations, back-off record,
// and jobmodel's own keys (docs/oracle-protocol.md): the awaited finalizer removals, the
// finished-Job mark (1.34+) and the consistency store's record (1.36+).
type caseBookkeeping struct {
	Expectations *struct {
		Add int `json:"add"`
		Del int `json:"del"`
	} `json:"expectations"`
	Backoff *struct {
		FailuresAfterLastSuccess int32   `json:"failuresAfterLastSuccess"`
		LastFailureTime          *string `json:"lastFailureTime"`
	} `json:"backoff"`
	ExpectedFinalizerRemovals []string `json:"expectedFinalizerRemovals"`
	FinishedJob               string   `json:"finishedJob"`
	Consistency               *struct {
		OwnerUID string `json:"ownerUid"`
		Pods     *int64 `json:"pods"`
		Jobs     *int64 `json:"jobs"`
	} `json:"consistency"`
}

// harness is the bookkeeping as the overlay holds it.
func (c caseBookkeeping) harness() (job.HarnessBookkeeping, error) {
	b := job.HarnessBookkeeping{ExpectedFinalizerRemovals: c.ExpectedFinalizerRemovals, FinishedJobUID: c.FinishedJob}
	if e := c.Expectations; e != nil {
		b.Expectations = &job.HarnessExpectations{Add: e.Add, Del: e.Del}
	}
	if r := c.Backoff; r != nil {
		b.Backoff = &job.HarnessBackoff{FailuresAfterLastSuccess: r.FailuresAfterLastSuccess}
		if r.LastFailureTime != nil {
			t, err := parseTime("controller.backoff.lastFailureTime", *r.LastFailureTime)
			if err != nil {
				return b, err
			}
			b.Backoff.LastFailureTime = &t
		}
	}
	if r := c.Consistency; r != nil {
		b.Consistency = &job.HarnessConsistency{OwnerUID: r.OwnerUID, Pods: resourceVersion(r.Pods), Jobs: resourceVersion(r.Jobs)}
	}
	return b, nil
}

// bookkeepingJSON is the bookkeeping in the shape of a request's `controller`, each part absent
// when none is held.
func bookkeepingJSON(b job.HarnessBookkeeping) map[string]any {
	out := map[string]any{}
	if len(b.ExpectedFinalizerRemovals) > 0 {
		out["expectedFinalizerRemovals"] = b.ExpectedFinalizerRemovals
	}
	if e := b.Expectations; e != nil {
		out["expectations"] = map[string]any{"add": e.Add, "del": e.Del}
	}
	if r := b.Backoff; r != nil {
		var last any
		if r.LastFailureTime != nil {
			last = formatTime(*r.LastFailureTime)
		}
		out["backoff"] = map[string]any{"failuresAfterLastSuccess": r.FailuresAfterLastSuccess, "lastFailureTime": last}
	}
	if b.FinishedJobUID != "" {
		out["finishedJob"] = b.FinishedJobUID
	}
	if r := b.Consistency; r != nil {
		record := map[string]any{"ownerUid": r.OwnerUID}
		for key, rv := range map[string]string{"pods": r.Pods, "jobs": r.Jobs} {
			if rv != "" {
				record[key] = versionNumber(rv)
			}
		}
		out["consistency"] = record
	}
	return out
}

// resourceVersion is a request's resource version (a whole number) as the API server writes it ("": none).
func resourceVersion(n *int64) string {
	if n == nil {
		return ""
	}
	return strconv.FormatInt(*n, 10)
}

// versionNumber is a resource version the controller holds as a request writes it.
func versionNumber(rv string) any {
	if n, err := strconv.ParseInt(rv, 10, 64); err == nil {
		return n
	}
	return rv
}
