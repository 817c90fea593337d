//go:build jobmodel_k8s_1_36

// This file is not part of Kubernetes. The jobmodel upstream harness adds it to
// k8s.io/kubernetes/pkg/controller/util/consistency at build time (go build -overlay), so that
// a job-sync request can give the Job controller the record its consistency store holds and
// read back the record the step leaves (the store has no accessor of its own).

package consistency

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// HarnessHold makes the store hold a record for the owner: its uid and the resource versions
// written per resource (possibly none).
func HarnessHold(s ConsistencyStore, owner types.NamespacedName, ownerUID types.UID, versions map[schema.GroupResource]string) bool {
	c, ok := s.(*RealConsistencyStore)
	if !ok {
		return false
	}
	record := c.ensureWrittenRecord(owner, ownerUID)
	for resource, rv := range versions {
		record.WroteAt(resource, rv)
	}
	return true
}

// HarnessRecord is the record the store holds for the owner (ok false: none).
func HarnessRecord(s ConsistencyStore, owner types.NamespacedName) (ownerUID types.UID, versions map[schema.GroupResource]string, ok bool) {
	c, real := s.(*RealConsistencyStore)
	if !real {
		return "", nil, false
	}
	record := c.getWrittenRecord(owner)
	if record == nil {
		return "", nil, false
	}
	record.versionsLock.Lock()
	defer record.versionsLock.Unlock()
	versions = make(map[schema.GroupResource]string, len(record.versions))
	for resource, rv := range record.versions {
		versions[resource] = rv
	}
	return record.ownerUID, versions, true
}
