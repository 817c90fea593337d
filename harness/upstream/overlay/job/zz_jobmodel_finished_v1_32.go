//go:build !jobmodel_k8s_1_34

// This file is not part of Kubernetes (see zz_jobmodel_harness.go): releases 1.32 and 1.33
// have no finishedJobExpectations, so a request's finished-Job mark is not held.

package job

import "k8s.io/apimachinery/pkg/types"

func holdFinishedJob(jm *Controller, uid types.UID) {}

func finishedJobHeld(jm *Controller, uid types.UID) bool { return false }
