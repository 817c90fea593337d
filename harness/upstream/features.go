package main

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/util/version"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	_ "k8s.io/kubernetes/pkg/features" // registers the Kubernetes gates
)

// jobGates are the gates of the Job and CronJob code paths. The model's default is every one
// of them on; a case's `features` turn some off.
var jobGates = []string{
	"CronJobsScheduledAnnotation",
	"ElasticIndexedJob",
	"JobBackoffLimitPerIndex",
	"JobManagedBy",
	"JobPodFailurePolicy",
	"JobPodReplacementPolicy",
	"JobSuccessPolicy",
	"PodIndexLabel",
}

// binaryVersion is the gates' emulation version at start (the release's own version).
var binaryVersion *version.Version

// previousVersion is the emulation version used when a case turns off a gate that the release
// locked on (GA): upstream's tests do the same (SetFeatureGateEmulationVersionDuringTest).
var previousVersion *version.Version

func initFeatureGates() error {
	binaryVersion = utilfeature.DefaultMutableFeatureGate.EmulationVersion()
	previousVersion = version.MajorMinor(binaryVersion.Major(), binaryVersion.Minor()-1)
	return setFeatures(nil)
}

// startDefaults are the gates' values at start, to put back a gate an earlier case overrode.
var startDefaults map[string]bool

// overridden are the gates outside jobGates that some case has set.
var overridden = map[string]bool{}

// setFeatures sets every Job gate on, every other gate a case has touched back to its
// default, then the case's overrides.
func setFeatures(overrides map[string]bool) error {
	gate := utilfeature.DefaultMutableFeatureGate
	if startDefaults == nil {
		startDefaults = map[string]bool{}
		for name, spec := range gate.GetAll() {
			startDefaults[string(name)] = spec.Default
		}
	}
	gates := map[string]bool{}
	for name := range overridden {
		gates[name] = startDefaults[name]
	}
	for _, name := range jobGates {
		// A release registers only the gates it still has (later ones removed some, always on).
		if _, registered := startDefaults[name]; registered {
			gates[name] = true
		}
	}
	for name, value := range overrides {
		// The gate keeps every name it was given, so an unknown one is refused before it is set.
		if _, known := startDefaults[name]; !known {
			return fmt.Errorf("features: unknown feature gate %q", name)
		}
		gates[name] = value
		overridden[name] = true
	}
	// SetFromMap records the raw values even when it refuses them, so a later change of the
	// emulation version re-applies them.
	err := gate.SetFromMap(gates)
	if err == nil {
		if !gate.EmulationVersion().EqualTo(binaryVersion) {
			// Back to the release's own version when the gates allow it.
			_ = gate.SetEmulationVersion(binaryVersion)
		}
		return nil
	}
	if gate.EmulationVersion().EqualTo(previousVersion) {
		return fmt.Errorf("features: %w", err)
	}
	if err2 := gate.SetEmulationVersion(previousVersion); err2 != nil {
		return fmt.Errorf("features: %v (and at emulation version %s: %v)", err, previousVersion, err2)
	}
	return nil
}

// caseFeatures reads a case's `features` and applies them.
func applyCaseFeatures(raw json.RawMessage) error {
	var overrides map[string]bool
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &overrides); err != nil {
			return fmt.Errorf("features: %v", err)
		}
	}
	return setFeatures(overrides)
}
