//go:build !jobmodel_k8s_1_36

// This file is not part of Kubernetes (see zz_jobmodel_harness.go): the controller's
// constructor as releases 1.32 to 1.35 declare it.

package job

import (
	"context"

	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	clocktesting "k8s.io/utils/clock/testing"
)

func newHarnessController(ctx context.Context, clientset *fake.Clientset, clock *clocktesting.FakeClock, factory informers.SharedInformerFactory) (*Controller, error) {
	return newControllerWithClock(ctx, factory.Core().V1().Pods(), factory.Batch().V1().Jobs(), clientset, clock)
}
