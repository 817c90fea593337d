//go:build jobmodel_k8s_1_34

// This file is not part of Kubernetes (see zz_jobmodel_harness.go): finishedJobExpectations,
// the uids of Jobs whose finishing status write the cache has not shown yet (1.34+).

package job

import "k8s.io/apimachinery/pkg/types"

func holdFinishedJob(jm *Controller, uid types.UID) {
	jm.finishedJobExpectations.Store(uid, struct{}{})
}

func finishedJobHeld(jm *Controller, uid types.UID) bool {
	_, ok := jm.finishedJobExpectations.Load(uid)
	return ok
}
