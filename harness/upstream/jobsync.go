package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	batch "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/controller"
	"k8s.io/kubernetes/pkg/controller/job"
)

// jobSyncCase is the input part of a job-sync vector case.
type jobSyncCase struct {
	Now        string          `json:"now"`
	Features   json.RawMessage `json:"features"`
	Job        *batch.Job      `json:"job"`
	Pods       []*v1.Pod       `json:"pods"`
	JobKey     string          `json:"jobKey"`
	Controller struct {
		Expectations *struct {
			Add int `json:"add"`
			Del int `json:"del"`
		} `json:"expectations"`
		Backoff *struct {
			FailuresAfterLastSuccess int32   `json:"failuresAfterLastSuccess"`
			LastFailureTime          *string `json:"lastFailureTime"`
		} `json:"backoff"`
		// The finalizer removals the controller awaits (uidTrackingExpectations): jobmodel's
		// own key (docs/oracle-protocol.md).
		ExpectedFinalizerRemovals []string `json:"expectedFinalizerRemovals"`
		PodControlError           string   `json:"podControlError"`
		StatusUpdateError         string   `json:"statusUpdateError"`
		PodCreateLimit            int      `json:"podCreateLimit"`
		// finishedJobExpectations (1.34+) and the consistency store (1.36+), with the versions
		// its informers have caught up with and the version the step's writes get: jobmodel's
		// own keys too.
		FinishedJob string `json:"finishedJob"`
		Consistency *struct {
			OwnerUID string `json:"ownerUid"`
			Pods     *int64 `json:"pods"`
			Jobs     *int64 `json:"jobs"`
		} `json:"consistency"`
		Informers struct {
			Pods *int64 `json:"pods"`
			Jobs *int64 `json:"jobs"`
		} `json:"informers"`
		WriteVersion *int64 `json:"writeVersion"`
	} `json:"controller"`
}

// resourceVersion is a case's resource version (a whole number) as the API server writes it ("": none).
func resourceVersion(n *int64) string {
	if n == nil {
		return ""
	}
	return strconv.FormatInt(*n, 10)
}

// versionNumber is a resource version the controller holds as a case writes it (null: none).
func versionNumber(rv string) any {
	if rv == "" {
		return nil
	}
	if n, err := strconv.ParseInt(rv, 10, 64); err == nil {
		return n
	}
	return rv
}

// deletedJobKey is the key synced when the case's Job is gone (`job: null`) and no `jobKey` is given.
const deletedJobKey = "default/foobar"

func parseTime(field, value string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, value)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s: not an RFC 3339 time: %q", field, value)
	}
	return t, nil
}

// jobSyncInput turns a case into the overlay's request.
func jobSyncInput(raw json.RawMessage) (job.HarnessJobSyncInput, jobSyncCase, error) {
	var c jobSyncCase
	var in job.HarnessJobSyncInput
	if err := json.Unmarshal(raw, &c); err != nil {
		return in, c, fmt.Errorf("case: %v", err)
	}
	if c.Now == "" {
		return in, c, fmt.Errorf("now: required")
	}
	now, err := parseTime("now", c.Now)
	if err != nil {
		return in, c, err
	}
	in.Now = now
	in.Job = c.Job
	in.Key = c.JobKey
	if c.Job != nil {
		in.Key = c.Job.Namespace + "/" + c.Job.Name
	} else if in.Key == "" {
		in.Key = deletedJobKey
	}
	in.Pods = c.Pods
	if e := c.Controller.Expectations; e != nil {
		in.Expectations = &job.HarnessExpectations{Add: e.Add, Del: e.Del}
	}
	if b := c.Controller.Backoff; b != nil {
		in.Backoff = &job.HarnessBackoff{FailuresAfterLastSuccess: b.FailuresAfterLastSuccess}
		if b.LastFailureTime != nil {
			t, err := parseTime("controller.backoff.lastFailureTime", *b.LastFailureTime)
			if err != nil {
				return in, c, err
			}
			in.Backoff.LastFailureTime = &t
		}
	}
	in.ExpectedFinalizerRemovals = c.Controller.ExpectedFinalizerRemovals
	in.PodControlError = c.Controller.PodControlError
	in.StatusUpdateError = c.Controller.StatusUpdateError
	in.PodCreateLimit = c.Controller.PodCreateLimit
	in.FinishedJobUID = c.Controller.FinishedJob
	if r := c.Controller.Consistency; r != nil {
		in.Consistency = &job.HarnessConsistency{OwnerUID: r.OwnerUID, Pods: resourceVersion(r.Pods), Jobs: resourceVersion(r.Jobs)}
	}
	in.InformerPods = resourceVersion(c.Controller.Informers.Pods)
	in.InformerJobs = resourceVersion(c.Controller.Informers.Jobs)
	in.WriteVersion = resourceVersion(c.Controller.WriteVersion)
	return in, c, nil
}

// runJobSync answers a job-sync case with one syncJob of the upstream controller.
func runJobSync(ctx context.Context, raw json.RawMessage) (map[string]any, error) {
	in, c, err := jobSyncInput(raw)
	if err != nil {
		return nil, err
	}
	if err := applyCaseFeatures(c.Features); err != nil {
		return nil, err
	}
	res, err := job.HarnessSyncJob(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("setting up the controller: %w", err)
	}
	return jobSyncOutcome(in, res)
}

func jobSyncOutcome(in job.HarnessJobSyncInput, res *job.HarnessJobSyncResult) (map[string]any, error) {
	pc := res.PodControl
	accepted := 0
	var created []any
	var indexes []int
	if pc.Err == nil {
		// FakePodControl records a template for a call that fails with Err, not for one over CreateLimit.
		accepted = len(pc.Templates)
		pods, idx, err := createdPods(in.Job, pc)
		if err != nil {
			return nil, err
		}
		created, indexes = pods, idx
	}
	var status batch.JobStatus
	if n := len(res.SentStatuses); n > 0 {
		status = res.SentStatuses[n-1]
	} else if in.Job != nil {
		status = in.Job.Status
	}
	statusJSON, err := wire(status)
	if err != nil {
		return nil, err
	}
	updates := []any{}
	for _, sent := range res.SentStatuses {
		w, err := wire(sent)
		if err != nil {
			return nil, err
		}
		updates = append(updates, w)
	}
	conditions := []any{}
	if cs, ok := statusJSON.(map[string]any)["conditions"].([]any); ok {
		conditions = cs
	}
	var requeue any
	if len(res.Delays) > 0 {
		least := res.Delays[0]
		for _, d := range res.Delays[1:] {
			least = min(least, d)
		}
		requeue = least.Seconds()
		if least.Seconds() == math.Trunc(least.Seconds()) {
			requeue = int64(least.Seconds())
		}
	}
	events := []string{}
	for _, e := range res.Events {
		// FakeRecorder formats "<type> <reason> <message>".
		parts := strings.SplitN(e, " ", 3)
		if len(parts) >= 2 {
			events = append(events, parts[1])
		}
	}
	if created == nil {
		created = []any{}
	}
	if indexes == nil {
		indexes = []int{}
	}
	deleted := append([]string{}, pc.DeletePodName...)
	patched := append([]string{}, res.PatchedPods...)
	return map[string]any{
		"error":               res.Err != nil,
		"creations":           pc.CreateCallCount,
		"acceptedCreations":   accepted,
		"createdPods":         created,
		"createdIndexes":      indexes,
		"deletions":           len(pc.DeletePodName),
		"deletedPods":         deleted,
		"podPatches":          len(pc.Patches),
		"patchedPods":         patched,
		"controller":          controllerAfter(res),
		"status":              statusJSON,
		"statusUpdates":       updates,
		"conditions":          conditions,
		"requeueAfterSeconds": requeue,
		"events":              events,
	}, nil
}

// controllerAfter is the controller's bookkeeping for the Job after the step, in the shape of a
// case's `controller` (expectations, back-off record, the finalizer removals it awaits, the
// finished-Job mark and the consistency record; absent when none is held).
func controllerAfter(res *job.HarnessJobSyncResult) map[string]any {
	out := map[string]any{}
	if res.FinishedJobUID != "" {
		out["finishedJob"] = res.FinishedJobUID
	}
	if r := res.Consistency; r != nil {
		record := map[string]any{"ownerUid": r.OwnerUID}
		for key, rv := range map[string]string{"pods": r.Pods, "jobs": r.Jobs} {
			if rv != "" {
				record[key] = versionNumber(rv)
			}
		}
		out["consistency"] = record
	}
	if len(res.ExpectedFinalizerRemovals) > 0 {
		out["expectedFinalizerRemovals"] = res.ExpectedFinalizerRemovals
	}
	if e := res.Expectations; e != nil {
		out["expectations"] = map[string]any{"add": e.Add, "del": e.Del}
	}
	if b := res.Backoff; b != nil {
		var last any
		if b.LastFailureTime != nil {
			last = formatTime(*b.LastFailureTime)
		}
		out["backoff"] = map[string]any{"failuresAfterLastSuccess": b.FailuresAfterLastSuccess, "lastFailureTime": last}
	}
	return out
}

// createdPods builds the Pods the accepted creations would have created, as RealPodControl
// builds them (controller.GetPodFromTemplate, then the generateName override), ordered by
// completion index for Indexed Jobs (the creations run concurrently).
func createdPods(j *batch.Job, pc *controller.FakePodControl) ([]any, []int, error) {
	type made struct {
		pod   *v1.Pod
		index int
	}
	var all []made
	for i := range pc.Templates {
		tpl := pc.Templates[i]
		pod, err := controller.GetPodFromTemplate(&tpl, j, &pc.ControllerRefs[i])
		if err != nil {
			return nil, nil, err
		}
		if tpl.GenerateName != "" {
			pod.GenerateName = tpl.GenerateName
		}
		pod.Namespace = j.Namespace
		pod.APIVersion, pod.Kind = "v1", "Pod"
		index := -1
		if v, ok := pod.Annotations[batch.JobCompletionIndexAnnotation]; ok {
			if n, err := strconv.Atoi(v); err == nil {
				index = n
			}
		}
		all = append(all, made{pod, index})
	}
	sort.SliceStable(all, func(a, b int) bool { return all[a].index < all[b].index })
	pods := make([]any, 0, len(all))
	var indexes []int
	for _, m := range all {
		w, err := wire(m.pod)
		if err != nil {
			return nil, nil, err
		}
		pods = append(pods, w)
		if m.index >= 0 {
			indexes = append(indexes, m.index)
		}
	}
	return pods, indexes, nil
}

// wire is an object's JSON as the Go encoder writes it, with the nulls that zero-valued
// struct fields produce (e.g. creationTimestamp) dropped: absent and zero are one in the wire format.
func wire(v any) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	// json.Number keeps an int64 beyond 2^53 exact (a float64 would round it).
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return dropNulls(out), nil
}

func dropNulls(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if x == nil {
				delete(t, k)
			} else {
				t[k] = dropNulls(x)
			}
		}
	case []any:
		for i, x := range t {
			t[i] = dropNulls(x)
		}
	}
	return v
}
