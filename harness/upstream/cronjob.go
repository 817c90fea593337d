package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	batch "k8s.io/kubernetes/pkg/apis/batch"
	"k8s.io/kubernetes/pkg/controller/cronjob"
	cronjobregistry "k8s.io/kubernetes/pkg/registry/batch/cronjob"
)

// scheduleCase is the input part of a schedule case.
type scheduleCase struct {
	Schedule                string  `json:"schedule"`
	TimeZone                *string `json:"timeZone"`
	EarliestTime            string  `json:"earliestTime"`
	Now                     string  `json:"now"`
	StartingDeadlineSeconds *int64  `json:"startingDeadlineSeconds"`
}

func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// scheduleCronJob is a valid CronJob carrying the case's schedule fields, created at earliestTime
// and never run (so earliestTime is where the controller starts counting).
func scheduleCronJob(c scheduleCase, earliest time.Time) *batchv1.CronJob {
	return &batchv1.CronJob{
		ObjectMeta: metav1.ObjectMeta{Name: "cj", Namespace: "default", UID: "cj-uid", CreationTimestamp: metav1.NewTime(earliest)},
		Spec: batchv1.CronJobSpec{
			Schedule:                c.Schedule,
			TimeZone:                c.TimeZone,
			StartingDeadlineSeconds: c.StartingDeadlineSeconds,
			JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				RestartPolicy: corev1.RestartPolicyOnFailure,
				Containers:    []corev1.Container{{Name: "c", Image: "image"}},
			}}}},
		},
	}
}

// apiErrors are the API server's create-validation errors of a CronJob (after decode defaults).
func apiErrors(ctx context.Context, cj *batchv1.CronJob) ([]string, error) {
	external := cj.DeepCopy()
	legacyscheme.Scheme.Default(external)
	internal := &batch.CronJob{}
	if err := legacyscheme.Scheme.Convert(external, internal, nil); err != nil {
		return nil, err
	}
	var out []string
	for _, e := range cronjobregistry.Strategy.Validate(apiContext(ctx), internal) {
		out = append(out, e.Error())
	}
	return out, nil
}

// runSchedule answers a schedule case: API validation of the schedule, then the controller's
// own parse and its mostRecentScheduleTime / nextScheduleTimeDuration.
func runSchedule(ctx context.Context, raw json.RawMessage) (map[string]any, error) {
	var c scheduleCase
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("case: %v", err)
	}
	earliest, err := parseTime("earliestTime", c.EarliestTime)
	if err != nil {
		return nil, err
	}
	now, err := parseTime("now", c.Now)
	if err != nil {
		return nil, err
	}
	if _, err := setFeatures(nil); err != nil {
		return nil, err
	}
	cj := scheduleCronJob(c, earliest)
	var rejected []string
	if panicked := asAPIServer(func() { rejected, err = apiErrors(ctx, cj) }); panicked != "" {
		// The create fails with a server error: nothing is stored, nothing is computed.
		return map[string]any{"error": true, "reason": "API server: " + panicked}, nil
	}
	if err != nil {
		return nil, err
	}
	if len(rejected) > 0 {
		return map[string]any{"error": true, "reason": "API validation: " + strings.Join(rejected, "; ")}, nil
	}
	res, err := cronjob.HarnessSchedule(cj, now)
	if err != nil {
		return map[string]any{"error": true, "reason": "controller: " + err.Error()}, nil
	}
	var mostRecent any
	if res.MostRecent != nil {
		mostRecent = formatTime(*res.MostRecent)
	}
	next := res.Next.UTC().Format(time.RFC3339Nano)
	return map[string]any{
		"error":         false,
		"mostRecent":    mostRecent,
		"tooManyMissed": res.TooManyMissed,
		"next":          next,
	}, nil
}

// cronJobSyncCase is the input part of a cronjob-sync case.
type cronJobSyncCase struct {
	Now        string           `json:"now"`
	Features   json.RawMessage  `json:"features"`
	CronJob    *batchv1.CronJob `json:"cronJob"`
	Jobs       []*batchv1.Job   `json:"jobs"`
	CronJobKey string           `json:"cronJobKey"`
	Controller struct {
		APICronJob        *batchv1.CronJob `json:"apiCronJob"`
		APIJobs           *[]*batchv1.Job  `json:"apiJobs"`
		JobCreateError    string           `json:"jobCreateError"`
		JobGetError       string           `json:"jobGetError"`
		JobDeleteError    string           `json:"jobDeleteError"`
		StatusUpdateError string           `json:"statusUpdateError"`
		CronJobGetError   string           `json:"cronJobGetError"`
	} `json:"controller"`
}

// runCronJobSync answers a cronjob-sync case with one sync of the upstream ControllerV2.
func runCronJobSync(ctx context.Context, raw json.RawMessage) (map[string]any, error) {
	var c cronJobSyncCase
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("case: %v", err)
	}
	now, err := parseTime("now", c.Now)
	if err != nil {
		return nil, err
	}
	if err := applyCaseFeatures(c.Features); err != nil {
		return nil, err
	}
	in := cronjob.HarnessCronJobSyncInput{
		Key:               c.CronJobKey,
		CronJob:           c.CronJob,
		Jobs:              c.Jobs,
		Now:               now,
		APICronJob:        c.Controller.APICronJob,
		JobCreateError:    c.Controller.JobCreateError,
		JobGetError:       c.Controller.JobGetError,
		JobDeleteError:    c.Controller.JobDeleteError,
		StatusUpdateError: c.Controller.StatusUpdateError,
		CronJobGetError:   c.Controller.CronJobGetError,
	}
	if c.CronJob != nil {
		in.Key = c.CronJob.Namespace + "/" + c.CronJob.Name
	} else if in.Key == "" {
		in.Key = "default/cronjob"
	}
	if c.Controller.APIJobs != nil {
		in.APIJobs = *c.Controller.APIJobs
		if in.APIJobs == nil {
			in.APIJobs = []*batchv1.Job{}
		}
	}
	res, err := cronjob.HarnessSyncCronJob(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("setting up the controller: %w", err)
	}
	created := []any{}
	for i := range res.Created {
		j := res.Created[i]
		w, err := wire(&j)
		if err != nil {
			return nil, err
		}
		if !j.CreationTimestamp.IsZero() {
			// getJobFromTemplate2 stamps the scheduled time as the creation timestamp.
			w.(map[string]any)["scheduledTime"] = formatTime(j.CreationTimestamp.Time)
		}
		created = append(created, w)
	}
	var status batchv1.CronJobStatus
	if n := len(res.Updates); n > 0 {
		status = res.Updates[n-1].Status
	} else if c.CronJob != nil {
		status = c.CronJob.Status
	}
	active := []string{}
	for _, ref := range status.Active {
		active = append(active, ref.Name)
	}
	statusJSON := map[string]any{"active": active}
	// As metav1.Time.MarshalJSON writes them: the zero time is null, so absent.
	if status.LastScheduleTime != nil && !status.LastScheduleTime.IsZero() {
		statusJSON["lastScheduleTime"] = formatTime(status.LastScheduleTime.Time)
	}
	if status.LastSuccessfulTime != nil && !status.LastSuccessfulTime.IsZero() {
		statusJSON["lastSuccessfulTime"] = formatTime(status.LastSuccessfulTime.Time)
	}
	var requeue any
	if res.RequeueAfter != nil {
		requeue = res.RequeueAfter.Seconds()
	}
	events, warnings := []string{}, []string{}
	for _, e := range res.Events {
		parts := strings.SplitN(e, " ", 3)
		if len(parts) < 2 {
			continue
		}
		events = append(events, parts[1])
		if parts[0] == corev1.EventTypeWarning {
			warnings = append(warnings, parts[1])
		}
	}
	deleted := res.Deleted
	if deleted == nil {
		deleted = []string{}
	}
	errorMessage := ""
	if res.Err != nil {
		errorMessage = res.Err.Error()
	}
	return map[string]any{
		"error":               res.Err != nil,
		"errorMessage":        errorMessage,
		"creations":           len(res.Created),
		"jobsCreated":         created,
		"deletions":           len(deleted),
		"jobsDeleted":         deleted,
		"status":              statusJSON,
		"statusUpdated":       len(res.Updates) > 0,
		"requeueAfterSeconds": requeue,
		"warnings":            warnings,
		"events":              events,
		// Each as FakeRecorder writes it: "<type> <reason> <message>".
		"eventMessages": res.Events,
	}, nil
}
