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

// HarnessJobSyncInput is one job-sync request: the controller's caches and in-memory state.
type HarnessJobSyncInput struct {
	Key          string
	Job          *batch.Job // nil: not in the cache (deleted)
	Pods         []*v1.Pod
	Now          time.Time
	Expectations *HarnessExpectations
	Backoff      *HarnessBackoff
	// ExpectedFinalizerRemovals are the pod UIDs whose finalizer removal the controller awaits.
	ExpectedFinalizerRemovals []string
	PodControlError           string
	StatusUpdateError         string
	PodCreateLimit            int
	// FinishedJobUID is a uid finishedJobExpectations holds (1.34+; "": none).
	FinishedJobUID string
	// Consistency is the consistency store's record (1.36+); InformerPods and InformerJobs the
	// resource versions the informers' stores have caught up with ("": unknown), WriteVersion
	// the resource version the API server gives the step's writes.
	Consistency  *HarnessConsistency
	InformerPods string
	InformerJobs string
	WriteVersion string
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
	// Expectations and Backoff are the controller's bookkeeping for the Job after the step
	// (nil: none held).
	Expectations *HarnessExpectations
	Backoff      *HarnessBackoff
	// ExpectedFinalizerRemovals are the pod UIDs whose finalizer removal the controller
	// awaits after the step, sorted.
	ExpectedFinalizerRemovals []string
	// FinishedJobUID is the uid finishedJobExpectations holds after the step among the Job's
	// and the request's ("": neither); Consistency the store's record for the Job (nil: none).
	FinishedJobUID string
	Consistency    *HarnessConsistency
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

	if err := holdBookkeeping(logger, jm, in.Key, in.Expectations, in.ExpectedFinalizerRemovals); err != nil {
		return nil, err
	}
	if in.Backoff != nil {
		if err := jm.podBackoffStore.updateBackoffRecord(backoffRecord{
			key:                      in.Key,
			failuresAfterLastSuccess: in.Backoff.FailuresAfterLastSuccess,
			lastFailureTime:          in.Backoff.LastFailureTime,
		}); err != nil {
			return nil, err
		}
	}
	if in.FinishedJobUID != "" {
		holdFinishedJob(jm, types.UID(in.FinishedJobUID))
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

	if err := holdConsistency(jm, factory, in); err != nil {
		return nil, err
	}

	res.Err = jm.syncJob(ctx, in.Key)
	res.PatchedPods = patches.names
	res.Expectations, res.ExpectedFinalizerRemovals = heldBookkeeping(jm, in.Key)
	if b, ok, _ := jm.podBackoffStore.store.GetByKey(in.Key); ok {
		record := b.(*backoffRecord)
		res.Backoff = &HarnessBackoff{FailuresAfterLastSuccess: record.failuresAfterLastSuccess, LastFailureTime: record.lastFailureTime}
	}
	// One uid per Job key, as the model keeps it: the Job's own if held, else the request's.
	if in.Job != nil && finishedJobHeld(jm, in.Job.UID) {
		res.FinishedJobUID = string(in.Job.UID)
	} else if in.FinishedJobUID != "" && finishedJobHeld(jm, types.UID(in.FinishedJobUID)) {
		res.FinishedJobUID = in.FinishedJobUID
	}
	res.Consistency = heldConsistency(jm, in.Key)

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

// HarnessPodEventInput is one pod event delivered to the controller's handlers:
// Old nil is an add (addPod), New nil the final delete (deletePod), both an update
// (updatePod). Jobs fill the Job cache the handlers resolve owners in.
type HarnessPodEventInput struct {
	Key                       string
	Jobs                      []*batch.Job
	Old                       *v1.Pod
	New                       *v1.Pod
	Expectations              *HarnessExpectations
	ExpectedFinalizerRemovals []string
}

// HarnessPodEventResult is the controller's bookkeeping for the Job after the event.
type HarnessPodEventResult struct {
	Expectations              *HarnessExpectations
	ExpectedFinalizerRemovals []string
}

// HarnessPodEvent runs one of the controller's pod event handlers (addPod,
// updatePod, deletePod) on a fresh controller holding the given bookkeeping.
func HarnessPodEvent(ctx context.Context, in HarnessPodEventInput) (*HarnessPodEventResult, error) {
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
	for _, job := range in.Jobs {
		if err := factory.Batch().V1().Jobs().Informer().GetIndexer().Add(job); err != nil {
			return nil, err
		}
	}
	if err := holdBookkeeping(logger, jm, in.Key, in.Expectations, in.ExpectedFinalizerRemovals); err != nil {
		return nil, err
	}
	switch {
	case in.Old == nil && in.New == nil:
		return nil, errors.New("a pod event needs an old or a new pod")
	case in.Old == nil:
		jm.addPod(logger, in.New)
	case in.New == nil:
		jm.deletePod(logger, in.Old, true)
	default:
		jm.updatePod(logger, in.Old, in.New)
	}
	res := &HarnessPodEventResult{}
	res.Expectations, res.ExpectedFinalizerRemovals = heldBookkeeping(jm, in.Key)
	return res, nil
}

// holdBookkeeping gives the controller the expectations and awaited finalizer
// removals of a request for the Job's key.
func holdBookkeeping(logger klog.Logger, jm *Controller, key string, exp *HarnessExpectations, removals []string) error {
	if exp != nil {
		if err := jm.expectations.SetExpectations(logger, key, exp.Add, exp.Del); err != nil {
			return err
		}
	}
	if len(removals) > 0 {
		uids := make([]types.UID, 0, len(removals))
		for _, uid := range removals {
			uids = append(uids, types.UID(uid))
		}
		if err := jm.finalizerExpectations.expectFinalizersRemoved(logger, key, uids); err != nil {
			return err
		}
	}
	return nil
}

// heldBookkeeping is the controller's expectations (nil: none held) and awaited
// finalizer removals (sorted) for the Job's key.
func heldBookkeeping(jm *Controller, key string) (*HarnessExpectations, []string) {
	var held *HarnessExpectations
	if exp, ok, _ := jm.expectations.GetExpectations(key); ok {
		add, del := exp.GetExpectations()
		held = &HarnessExpectations{Add: int(add), Del: int(del)}
	}
	var removals []string
	for uid := range jm.finalizerExpectations.getExpectedUIDs(key) {
		removals = append(removals, string(uid))
	}
	sort.Strings(removals)
	return held, removals
}
