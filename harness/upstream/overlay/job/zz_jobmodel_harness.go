// This file is not part of Kubernetes. The jobmodel upstream harness adds it to
// k8s.io/kubernetes/pkg/controller/job at build time (go build -overlay), the way
// upstream's own job_controller_test.go lives inside the package, so that one
// unexported syncJob can be driven exactly as TestControllerSyncJob drives it.

package job

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"sync"
	"time"

	batch "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller"
	clocktesting "k8s.io/utils/clock/testing"
)

// HarnessBackoff is the controller's pod-recreation back-off record for the Job.
type HarnessBackoff struct {
	FailuresAfterLastSuccess int32
	LastFailureTime          *time.Time
}

// HarnessExpectations are the outstanding creations and deletions for the Job.
type HarnessExpectations struct {
	Add int
	Del int
}

// HarnessConsistency is the consistency store's record for the Job (1.36+): the owner's uid and
// the resource versions the controller wrote ("": none).
type HarnessConsistency struct {
	OwnerUID string
	Pods     string
	Jobs     string
}

// HarnessBookkeeping is the controller's in-memory state for one Job key (nil, empty: none held).
type HarnessBookkeeping struct {
	Expectations *HarnessExpectations
	Backoff      *HarnessBackoff
	// ExpectedFinalizerRemovals are the pod UIDs whose finalizer removal the controller awaits.
	ExpectedFinalizerRemovals []string
	// FinishedJobUID is a uid finishedJobExpectations holds (1.34+).
	FinishedJobUID string
	// Consistency is the consistency store's record (1.36+).
	Consistency *HarnessConsistency
}

// HarnessJobSyncInput is one job-sync request: the controller's caches and in-memory state.
type HarnessJobSyncInput struct {
	Key               string
	Job               *batch.Job // nil: not in the cache (deleted)
	Pods              []*v1.Pod
	Now               time.Time
	Bookkeeping       HarnessBookkeeping
	PodControlError   string
	StatusUpdateError string
	PodCreateLimit    int
	// InformerPods and InformerJobs are the resource versions the informers' stores have
	// caught up with ("": unknown), WriteVersion the one the API server gives the step's writes.
	InformerPods string
	InformerJobs string
	WriteVersion string
	Tunables     HarnessTunables
}

// HarnessTunables are the package variables upstream's tests override, for one step (nil:
// upstream's default).
type HarnessTunables struct {
	PodFailureBackOff         *time.Duration
	MaxPodFailureBackOff      *time.Duration
	MaxUncountedPods          *int
	MaxPodCreateDeletePerSync *int
}

// override sets the package variables the tunables give and returns what puts them back.
func (t HarnessTunables) override() (restore func()) {
	backOff, maxBackOff, uncounted, perSync := DefaultJobPodFailureBackOff, MaxJobPodFailureBackOff, MaxUncountedPods, MaxPodCreateDeletePerSync
	if t.PodFailureBackOff != nil {
		DefaultJobPodFailureBackOff = *t.PodFailureBackOff
	}
	if t.MaxPodFailureBackOff != nil {
		MaxJobPodFailureBackOff = *t.MaxPodFailureBackOff
	}
	if t.MaxUncountedPods != nil {
		MaxUncountedPods = *t.MaxUncountedPods
	}
	if t.MaxPodCreateDeletePerSync != nil {
		MaxPodCreateDeletePerSync = *t.MaxPodCreateDeletePerSync
	}
	return func() {
		DefaultJobPodFailureBackOff, MaxJobPodFailureBackOff, MaxUncountedPods, MaxPodCreateDeletePerSync = backOff, maxBackOff, uncounted, perSync
	}
}

// HarnessJobSyncResult is what one syncJob did.
type HarnessJobSyncResult struct {
	Err        error
	PodControl *controller.FakePodControl
	// SentStatuses are the statuses passed to updateStatusHandler, in order.
	SentStatuses []batch.JobStatus
	Delays       []time.Duration
	Events       []string
	// PatchedPods are the names of the pods patched, in call order.
	PatchedPods []string
	// Bookkeeping is the controller's for the Job after the step (heldBookkeeping).
	Bookkeeping HarnessBookkeeping
}

// podWrites is the fake pod control with the names of the patched pods recorded
// (FakePodControl keeps only the patches) and, as RealPodControl does, each accepted creation
// and patch told to the controller's OnWrite (its consistency store, 1.36+) with the resource
// version the API server gives it.
type podWrites struct {
	*controller.FakePodControl
	mu           sync.Mutex
	names        []string
	onWrite      func(*v1.Pod, *metav1.OwnerReference)
	cached       map[types.NamespacedName]*v1.Pod
	writeVersion string
}

func (p *podWrites) CreatePods(ctx context.Context, namespace string, spec *v1.PodTemplateSpec, object runtime.Object, controllerRef *metav1.OwnerReference) error {
	return p.CreatePodsWithGenerateName(ctx, namespace, spec, object, controllerRef, "")
}

func (p *podWrites) CreatePodsWithGenerateName(ctx context.Context, namespace string, spec *v1.PodTemplateSpec, object runtime.Object, controllerRef *metav1.OwnerReference, generateName string) error {
	if err := p.FakePodControl.CreatePodsWithGenerateName(ctx, namespace, spec, object, controllerRef, generateName); err != nil {
		return err
	}
	if p.onWrite != nil {
		// What the callback reads of the created pod: its namespace and resource version.
		p.onWrite(&v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, ResourceVersion: p.writeVersion}}, controllerRef)
	}
	return nil
}

func (p *podWrites) PatchPod(ctx context.Context, namespace, name string, data []byte) error {
	p.mu.Lock()
	p.names = append(p.names, name)
	p.mu.Unlock()
	if err := p.FakePodControl.PatchPod(ctx, namespace, name, data); err != nil {
		return err
	}
	if p.onWrite == nil {
		return nil
	}
	// The API server's answer: the cached pod with the strategic merge patch applied.
	pod, ok := p.cached[types.NamespacedName{Namespace: namespace, Name: name}]
	if !ok {
		return nil
	}
	original, err := json.Marshal(pod)
	if err != nil {
		return err
	}
	patchedJSON, err := strategicpatch.StrategicMergePatch(original, data, v1.Pod{})
	if err != nil {
		return err
	}
	patched := &v1.Pod{}
	if err := json.Unmarshal(patchedJSON, patched); err != nil {
		return err
	}
	patched.ResourceVersion = p.writeVersion
	p.onWrite(patched, metav1.GetControllerOfNoCopy(patched))
	return nil
}

// recordingQueue records AddAfter delays instead of scheduling them: a step's
// requeues are part of its outcome, and nothing is ever dequeued here.
type recordingQueue struct {
	workqueue.TypedRateLimitingInterface[string]
	mu     sync.Mutex
	delays []time.Duration
}

func (q *recordingQueue) AddAfter(item string, d time.Duration) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.delays = append(q.delays, d)
}

// HarnessSyncJob runs one syncJob of a fresh controller set up as
// TestControllerSyncJob sets it up (fake pod control, injected status handler,
// fake clock, informer caches filled directly).
func HarnessSyncJob(ctx context.Context, in HarnessJobSyncInput) (*HarnessJobSyncResult, error) {
	logger := klog.FromContext(ctx)
	defer in.Tunables.override()()
	var clientset *fake.Clientset
	if in.Job != nil {
		// A read of the Job from the API server (adoption re-check) sees the cached Job.
		clientset = fake.NewSimpleClientset(in.Job.DeepCopy())
	} else {
		clientset = fake.NewSimpleClientset()
	}
	factory := informers.NewSharedInformerFactory(clientset, controller.NoResyncPeriodFunc())
	fakeClock := clocktesting.NewFakeClock(in.Now)
	jm, err := newHarnessController(ctx, clientset, fakeClock, factory)
	if err != nil {
		return nil, err
	}
	defer jm.broadcaster.Shutdown()
	defer jm.orphanQueue.ShutDown()
	queue := &recordingQueue{TypedRateLimitingInterface: jm.queue}
	defer queue.TypedRateLimitingInterface.ShutDown()
	jm.queue = queue
	recorder := record.NewFakeRecorder(100000)
	jm.recorder = recorder

	podControl := &controller.FakePodControl{CreateLimit: in.PodCreateLimit}
	if in.PodControlError != "" {
		podControl.Err = errors.New(in.PodControlError)
	}
	patches := &podWrites{FakePodControl: podControl, onWrite: podWriteCallback(jm), writeVersion: in.WriteVersion, cached: map[types.NamespacedName]*v1.Pod{}}
	for _, pod := range in.Pods {
		patches.cached[types.NamespacedName{Namespace: pod.Namespace, Name: pod.Name}] = pod
	}
	jm.podControl = patches
	jm.podStoreSynced = func() bool { return true }
	jm.jobStoreSynced = func() bool { return true }

	res := &HarnessJobSyncResult{PodControl: podControl}
	var statusMu sync.Mutex
	jm.updateStatusHandler = func(ctx context.Context, job *batch.Job) (*batch.Job, error) {
		statusMu.Lock()
		res.SentStatuses = append(res.SentStatuses, *job.Status.DeepCopy())
		statusMu.Unlock()
		if in.StatusUpdateError != "" {
			return job, errors.New(in.StatusUpdateError)
		}
		// The controller's own handler (it tells the consistency store of 1.36+), over the
		// reactor below.
		return jm.updateJobStatus(ctx, job)
	}
	// The API server accepts the status and gives it the request's resource version.
	clientset.PrependReactor("update", "jobs", func(action clienttesting.Action) (bool, runtime.Object, error) {
		update, ok := action.(clienttesting.UpdateAction)
		if !ok || action.GetSubresource() != "status" {
			return false, nil, nil
		}
		written := update.GetObject().(*batch.Job).DeepCopy()
		if in.WriteVersion != "" {
			written.ResourceVersion = in.WriteVersion
		}
		return true, written, nil
	})

	if err := holdBookkeeping(logger, jm, in.Key, in.Bookkeeping); err != nil {
		return nil, err
	}
	if in.Job != nil {
		if err := factory.Batch().V1().Jobs().Informer().GetIndexer().Add(in.Job); err != nil {
			return nil, err
		}
	}
	podIndexer := factory.Core().V1().Pods().Informer().GetIndexer()
	for _, pod := range in.Pods {
		if err := podIndexer.Add(pod); err != nil {
			return nil, err
		}
	}
	// After the fills: a store's Add takes the object's resource version as its own.
	bookmarkInformers(factory, in.InformerPods, in.InformerJobs)

	res.Err = jm.syncJob(ctx, in.Key)
	res.PatchedPods = patches.names
	res.Bookkeeping = heldBookkeeping(jm, in.Key, in.Job, in.Bookkeeping.FinishedJobUID)

	queue.mu.Lock()
	res.Delays = append(res.Delays, queue.delays...)
	queue.mu.Unlock()
	// Every event of the step is in the buffered channel once syncJob has returned.
	for {
		select {
		case e := <-recorder.Events:
			res.Events = append(res.Events, e)
		default:
			return res, nil
		}
	}
}

// HarnessPodEventInput is one event delivered to the controller's handlers: of a pod
// (Old nil is an add, addPod; New nil the final delete, deletePod; both an update,
// updatePod) or, with DeletedJob, of the Job's deletion (deleteJob). Jobs fill the Job
// cache the pod handlers resolve owners in.
type HarnessPodEventInput struct {
	Key         string
	Jobs        []*batch.Job
	Old         *v1.Pod
	New         *v1.Pod
	DeletedJob  *batch.Job
	Bookkeeping HarnessBookkeeping
}

// HarnessPodEvent runs one of the controller's pod event handlers (addPod, updatePod,
// deletePod) or its Job delete handler (deleteJob) on a fresh controller holding the given
// bookkeeping, and answers the bookkeeping it leaves.
func HarnessPodEvent(ctx context.Context, in HarnessPodEventInput) (*HarnessBookkeeping, error) {
	logger := klog.FromContext(ctx)
	clientset := fake.NewSimpleClientset()
	factory := informers.NewSharedInformerFactory(clientset, controller.NoResyncPeriodFunc())
	jm, err := newHarnessController(ctx, clientset, clocktesting.NewFakeClock(time.Unix(0, 0)), factory)
	if err != nil {
		return nil, err
	}
	defer jm.broadcaster.Shutdown()
	defer jm.orphanQueue.ShutDown()
	defer jm.queue.ShutDown()
	var cached *batch.Job
	for _, job := range in.Jobs {
		if err := factory.Batch().V1().Jobs().Informer().GetIndexer().Add(job); err != nil {
			return nil, err
		}
		if key, err := controller.KeyFunc(job); err == nil && key == in.Key {
			cached = job
		}
	}
	if err := holdBookkeeping(logger, jm, in.Key, in.Bookkeeping); err != nil {
		return nil, err
	}
	switch {
	case in.DeletedJob != nil:
		if in.Old != nil || in.New != nil {
			return nil, errors.New("a Job's deletion carries no pod")
		}
		jm.deleteJob(logger, in.DeletedJob)
		cached = in.DeletedJob
	case in.Old == nil && in.New == nil:
		return nil, errors.New("a pod event needs an old or a new pod")
	case in.Old == nil:
		jm.addPod(logger, in.New)
	case in.New == nil:
		jm.deletePod(logger, in.Old, true)
	default:
		jm.updatePod(logger, in.Old, in.New)
	}
	held := heldBookkeeping(jm, in.Key, cached, in.Bookkeeping.FinishedJobUID)
	return &held, nil
}

// holdBookkeeping gives the controller a request's bookkeeping for the Job's key.
func holdBookkeeping(logger klog.Logger, jm *Controller, key string, b HarnessBookkeeping) error {
	if exp := b.Expectations; exp != nil {
		if err := jm.expectations.SetExpectations(logger, key, exp.Add, exp.Del); err != nil {
			return err
		}
	}
	if len(b.ExpectedFinalizerRemovals) > 0 {
		uids := make([]types.UID, 0, len(b.ExpectedFinalizerRemovals))
		for _, uid := range b.ExpectedFinalizerRemovals {
			uids = append(uids, types.UID(uid))
		}
		if err := jm.finalizerExpectations.expectFinalizersRemoved(logger, key, uids); err != nil {
			return err
		}
	}
	if b.Backoff != nil {
		if err := jm.podBackoffStore.updateBackoffRecord(backoffRecord{
			key:                      key,
			failuresAfterLastSuccess: b.Backoff.FailuresAfterLastSuccess,
			lastFailureTime:          b.Backoff.LastFailureTime,
		}); err != nil {
			return err
		}
	}
	if b.FinishedJobUID != "" {
		holdFinishedJob(jm, types.UID(b.FinishedJobUID))
	}
	return holdConsistency(jm, key, b.Consistency)
}

// heldBookkeeping is the controller's bookkeeping for the Job's key: expectations (nil: none
// held), awaited finalizer removals (sorted), back-off record, consistency record and, as the
// model keeps one per key, the finished mark of the Job's uid if held (job nil: none), else
// of the request's uid.
func heldBookkeeping(jm *Controller, key string, job *batch.Job, requested string) HarnessBookkeeping {
	var held HarnessBookkeeping
	if exp, ok, _ := jm.expectations.GetExpectations(key); ok {
		add, del := exp.GetExpectations()
		held.Expectations = &HarnessExpectations{Add: int(add), Del: int(del)}
	}
	for uid := range jm.finalizerExpectations.getExpectedUIDs(key) {
		held.ExpectedFinalizerRemovals = append(held.ExpectedFinalizerRemovals, string(uid))
	}
	sort.Strings(held.ExpectedFinalizerRemovals)
	if b, ok, _ := jm.podBackoffStore.store.GetByKey(key); ok {
		record := b.(*backoffRecord)
		held.Backoff = &HarnessBackoff{FailuresAfterLastSuccess: record.failuresAfterLastSuccess, LastFailureTime: record.lastFailureTime}
	}
	if job != nil && finishedJobHeld(jm, job.UID) {
		held.FinishedJobUID = string(job.UID)
	} else if requested != "" && finishedJobHeld(jm, types.UID(requested)) {
		held.FinishedJobUID = requested
	}
	held.Consistency = heldConsistency(jm, key)
	return held
}
