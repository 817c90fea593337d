// This file is not part of Kubernetes. The jobmodel upstream harness adds it to
// k8s.io/kubernetes/pkg/controller/cronjob at build time (go build -overlay), the way
// upstream's own unit tests live inside the package, so that the unexported schedule
// arithmetic and ControllerV2.sync can be driven as cronjob_controllerv2_test.go and
// utils_test.go drive them.

package cronjob

import (
	"context"
	"errors"
	"sync"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/record"
)

// HarnessScheduleResult is the controller's schedule arithmetic for one CronJob at one instant.
type HarnessScheduleResult struct {
	MostRecent    *time.Time
	TooManyMissed bool
	// Next is now + nextScheduleTimeDuration - nextScheduleDelta: the instant the controller
	// aims at when it asks to be woken.
	Next time.Time
}

// HarnessSchedule parses the CronJob's schedule as syncCronJob does (formatSchedule, then
// harnessParseSchedule) and runs mostRecentScheduleTime (with the starting deadline when the
// CronJob has one) and nextScheduleTimeDuration.
func HarnessSchedule(cj *batchv1.CronJob, now time.Time) (*HarnessScheduleResult, error) {
	sched, err := harnessParseSchedule(formatSchedule(cj, nil))
	if err != nil {
		return nil, err
	}
	_, mostRecent, missed, err := mostRecentScheduleTime(cj, now, sched, cj.Spec.StartingDeadlineSeconds != nil)
	if err != nil {
		return nil, err
	}
	delay := nextScheduleTimeDuration(cj, now, sched)
	return &HarnessScheduleResult{
		MostRecent:    mostRecent,
		TooManyMissed: missed == manyMissed,
		Next:          now.Add(*delay - nextScheduleDelta),
	}, nil
}

// HarnessCronJobSyncInput is one cronjob-sync request: the caches and what the API server answers.
type HarnessCronJobSyncInput struct {
	Key        string
	CronJob    *batchv1.CronJob // nil: not in the cache
	Jobs       []*batchv1.Job
	Now        time.Time
	APICronJob *batchv1.CronJob // nil: the API server returns the cached CronJob
	APIJobs    []*batchv1.Job   // nil: the API server holds the cached Jobs
	// JobCreateError: "" (creations succeed), "AlreadyExists", "NamespaceTerminating", or a message.
	JobCreateError    string
	JobGetError       string
	JobDeleteError    string // a message: every Job delete fails with it
	StatusUpdateError string // a message: the CronJob status update fails with it
	CronJobGetError   string // a message: every read of the CronJob fails with it
}

// HarnessCronJobSyncResult is what one sync did.
type HarnessCronJobSyncResult struct {
	Err          error
	RequeueAfter *time.Duration
	Created      []batchv1.Job
	Deleted      []string
	Updates      []batchv1.CronJob
	Events       []string
}

// harnessJobControl answers the controller's Job API calls from the request.
type harnessJobControl struct {
	mu        sync.Mutex
	jobs      []*batchv1.Job
	createErr error
	getErr    error
	deleteErr error
	created   []batchv1.Job
	deleted   []string
}

func (c *harnessJobControl) GetJob(namespace, name string) (*batchv1.Job, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.getErr != nil {
		return nil, c.getErr
	}
	for _, j := range c.jobs {
		if j.Namespace == namespace && j.Name == name {
			return j.DeepCopy(), nil
		}
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{Group: "batch", Resource: "jobs"}, name)
}

func (c *harnessJobControl) CreateJob(namespace string, job *batchv1.Job) (*batchv1.Job, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.createErr != nil {
		return nil, c.createErr
	}
	c.created = append(c.created, *job.DeepCopy())
	out := job.DeepCopy()
	// As fakeJobControl does: the API server gives the new Job a UID.
	out.UID = types.UID("test-uid")
	return out, nil
}

func (c *harnessJobControl) DeleteJob(namespace string, name string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.deleteErr != nil {
		return c.deleteErr
	}
	c.deleted = append(c.deleted, name)
	// As the API server: a background delete removes the Job (it carries no finalizer) at once,
	// so a later GetJob of that name in the same sync gets NotFound.
	kept := c.jobs[:0:0]
	for _, j := range c.jobs {
		if !(j.Namespace == namespace && j.Name == name) {
			kept = append(kept, j)
		}
	}
	c.jobs = kept
	return nil
}

// harnessCJControl answers reads of the CronJob and records status updates.
type harnessCJControl struct {
	cronJob   *batchv1.CronJob
	updates   []batchv1.CronJob
	updateErr error
	getErr    error
}

func (c *harnessCJControl) GetCronJob(ctx context.Context, namespace, name string) (*batchv1.CronJob, error) {
	if c.getErr != nil {
		return nil, c.getErr
	}
	if c.cronJob != nil && c.cronJob.Namespace == namespace && c.cronJob.Name == name {
		return c.cronJob.DeepCopy(), nil
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{Group: "batch", Resource: "cronjobs"}, name)
}

func (c *harnessCJControl) UpdateStatus(ctx context.Context, cj *batchv1.CronJob) (*batchv1.CronJob, error) {
	// Recorded as sent, accepted or not: what the controller asked the API server to write.
	c.updates = append(c.updates, *cj.DeepCopy())
	if c.updateErr != nil {
		return nil, c.updateErr
	}
	return cj, nil
}

func harnessCreateError(value string) error {
	switch value {
	case "":
		return nil
	case "AlreadyExists":
		return apierrors.NewAlreadyExists(schema.GroupResource{Group: "batch", Resource: "jobs"}, "")
	case "NamespaceTerminating":
		// The error the API server gives a create in a namespace being deleted (as the upstream test builds it).
		return &apierrors.StatusError{ErrStatus: metav1.Status{Details: &metav1.StatusDetails{Causes: []metav1.StatusCause{{
			Type:    corev1.NamespaceTerminatingCause,
			Message: "namespace is being terminated",
			Field:   "metadata.namespace",
		}}}}}
	}
	return errors.New(value)
}

// HarnessSyncCronJob runs one sync of a fresh ControllerV2 with the request's caches, a
// fixed clock and Job/CronJob API fakes, as the upstream tests set it up.
func HarnessSyncCronJob(ctx context.Context, in HarnessCronJobSyncInput) (*HarnessCronJobSyncResult, error) {
	clientset := fake.NewSimpleClientset()
	factory := informers.NewSharedInformerFactory(clientset, 0)
	jm, err := NewControllerV2(ctx, factory.Batch().V1().Jobs(), factory.Batch().V1().CronJobs(), clientset)
	if err != nil {
		return nil, err
	}
	defer jm.broadcaster.Shutdown()
	defer jm.queue.ShutDown()
	now := in.Now
	jm.now = func() time.Time { return now }
	recorder := record.NewFakeRecorder(100000)
	jm.recorder = recorder

	apiJobs := in.APIJobs
	if apiJobs == nil {
		apiJobs = in.Jobs
	}
	jobControl := &harnessJobControl{jobs: apiJobs, createErr: harnessCreateError(in.JobCreateError)}
	if in.JobGetError != "" {
		jobControl.getErr = errors.New(in.JobGetError)
	}
	if in.JobDeleteError != "" {
		jobControl.deleteErr = errors.New(in.JobDeleteError)
	}
	jm.jobControl = jobControl
	apiCronJob := in.APICronJob
	if apiCronJob == nil {
		apiCronJob = in.CronJob
	}
	cjControl := &harnessCJControl{cronJob: apiCronJob}
	if in.StatusUpdateError != "" {
		cjControl.updateErr = errors.New(in.StatusUpdateError)
	}
	if in.CronJobGetError != "" {
		cjControl.getErr = errors.New(in.CronJobGetError)
	}
	jm.cronJobControl = cjControl

	if in.CronJob != nil {
		if err := factory.Batch().V1().CronJobs().Informer().GetIndexer().Add(in.CronJob); err != nil {
			return nil, err
		}
	}
	jobIndexer := factory.Batch().V1().Jobs().Informer().GetIndexer()
	for _, j := range in.Jobs {
		if err := jobIndexer.Add(j); err != nil {
			return nil, err
		}
	}

	res := &HarnessCronJobSyncResult{}
	res.RequeueAfter, res.Err = jm.sync(ctx, in.Key)
	res.Created = jobControl.created
	res.Deleted = jobControl.deleted
	res.Updates = cjControl.updates
	for {
		select {
		case e := <-recorder.Events:
			res.Events = append(res.Events, e)
		default:
			return res, nil
		}
	}
}
