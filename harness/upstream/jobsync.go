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
		caseBookkeeping
		PodControlError   string `json:"podControlError"`
		StatusUpdateError string `json:"statusUpdateError"`
		PodCreateLimit    int    `json:"podCreateLimit"`
		// What the consistency store (1.36+) compares its record with, and the version the
		// step's writes get: jobmodel's own keys too.
		Informers struct {
			Pods *int64 `json:"pods"`
			Jobs *int64 `json:"jobs"`
		} `json:"informers"`
		WriteVersion *int64 `json:"writeVersion"`
		// The package variables upstream's tests override (a job-scenario case's keys).
		PodFailureBackOffSeconds    *float64 `json:"podFailureBackOffSeconds"`
		MaxPodFailureBackOffSeconds *float64 `json:"maxPodFailureBackOffSeconds"`
		MaxUncountedPods            *int     `json:"maxUncountedPods"`
		MaxPodCreateDeletePerSync   *int     `json:"maxPodCreateDeletePerSync"`
	} `json:"controller"`
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
	if in.Bookkeeping, err = c.Controller.harness(); err != nil {
		return in, c, err
	}
	in.PodControlError = c.Controller.PodControlError
	in.StatusUpdateError = c.Controller.StatusUpdateError
	in.PodCreateLimit = c.Controller.PodCreateLimit
	in.InformerPods = resourceVersion(c.Controller.Informers.Pods)
	in.InformerJobs = resourceVersion(c.Controller.Informers.Jobs)
	in.WriteVersion = resourceVersion(c.Controller.WriteVersion)
	in.Tunables = job.HarnessTunables{
		PodFailureBackOff:         duration(c.Controller.PodFailureBackOffSeconds),
		MaxPodFailureBackOff:      duration(c.Controller.MaxPodFailureBackOffSeconds),
		MaxUncountedPods:          c.Controller.MaxUncountedPods,
		MaxPodCreateDeletePerSync: c.Controller.MaxPodCreateDeletePerSync,
	}
	return in, c, nil
}

// duration is a number of seconds as a Duration (nil stays nil).
func duration(seconds *float64) *time.Duration {
	if seconds == nil {
		return nil
	}
	d := time.Duration(math.Round(*seconds * float64(time.Second)))
	return &d
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
		"controller":          bookkeepingJSON(res.Bookkeeping),
		"status":              statusJSON,
		"statusUpdates":       updates,
		"conditions":          conditions,
		"requeueAfterSeconds": requeue,
		"events":              events,
	}, nil
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
