//go:build !jobmodel_k8s_1_36

// This file is not part of Kubernetes (see zz_jobmodel_harness.go): releases 1.32 to 1.35
// have no consistency store, so a request's record and informer versions are not held.

package job

import (
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
)

func holdConsistency(jm *Controller, key string, record *HarnessConsistency) error { return nil }

func bookmarkInformers(factory informers.SharedInformerFactory, pods, jobs string) {}

func heldConsistency(jm *Controller, key string) *HarnessConsistency { return nil }

func podWriteCallback(jm *Controller) func(*v1.Pod, *metav1.OwnerReference) { return nil }
