//go:build jobmodel_k8s_1_36

// This file is not part of Kubernetes (see zz_jobmodel_harness.go): the consistency store of
// 1.36+ (StaleControllerConsistencyJob). The controller's own store is kept, fed from the
// request: the record it holds for the Job, and the resource versions its informers' stores
// have caught up with (Bookmark: what LastStoreSyncResourceVersion answers).

package job

import (
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
	"k8s.io/kubernetes/pkg/controller"
	consistencyutil "k8s.io/kubernetes/pkg/controller/util/consistency"
)

func jobName(key string) (types.NamespacedName, error) {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	return types.NamespacedName{Namespace: ns, Name: name}, err
}

// bookmarkInformers sets what the informers' stores have caught up with ("": unknown).
func bookmarkInformers(factory informers.SharedInformerFactory, pods, jobs string) {
	if pods != "" {
		factory.Core().V1().Pods().Informer().GetStore().Bookmark(pods)
	}
	if jobs != "" {
		factory.Batch().V1().Jobs().Informer().GetStore().Bookmark(jobs)
	}
}

// holdConsistency makes the store hold the record for the Job (nil: none). A no-op store (the
// gate off) holds nothing.
func holdConsistency(jm *Controller, key string, record *HarnessConsistency) error {
	if record == nil {
		return nil
	}
	owner, err := jobName(key)
	if err != nil {
		return err
	}
	versions := map[schema.GroupResource]string{}
	if record.Pods != "" {
		versions[podGroupResource] = record.Pods
	}
	if record.Jobs != "" {
		versions[jobGroupResource] = record.Jobs
	}
	consistencyutil.HarnessHold(jm.consistencyStore, owner, types.UID(record.OwnerUID), versions)
	return nil
}

func heldConsistency(jm *Controller, key string) *HarnessConsistency {
	owner, err := jobName(key)
	if err != nil {
		return nil
	}
	uid, versions, ok := consistencyutil.HarnessRecord(jm.consistencyStore, owner)
	if !ok {
		return nil
	}
	return &HarnessConsistency{OwnerUID: string(uid), Pods: versions[podGroupResource], Jobs: versions[jobGroupResource]}
}

// podWriteCallback is the OnWrite the controller gave its RealPodControl (nil with the gate off).
func podWriteCallback(jm *Controller) func(*v1.Pod, *metav1.OwnerReference) {
	if real, ok := jm.podControl.(controller.RealPodControl); ok {
		return real.OnWrite
	}
	return nil
}
