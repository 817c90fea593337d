//go:build jobmodel_k8s_1_36 && !jobmodel_k8s_1_37

// This file is not part of Kubernetes (see zz_jobmodel_harness.go): the controller's
// constructor as release 1.36 declares it (Workload and PodGroup informers of scheduling/v1alpha2).

package job

import (
	"context"

	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	clocktesting "k8s.io/utils/clock/testing"
)

func newHarnessController(ctx context.Context, clientset *fake.Clientset, clock *clocktesting.FakeClock, factory informers.SharedInformerFactory) (*Controller, error) {
	return newControllerWithClock(ctx, clientset, clock, factory.Core().V1().Pods(), factory.Batch().V1().Jobs(),
		factory.Scheduling().V1alpha2().Workloads(), factory.Scheduling().V1alpha2().PodGroups())
}
