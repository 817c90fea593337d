package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"k8s.io/apimachinery/pkg/util/version"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	_ "k8s.io/kubernetes/pkg/features" // registers the Kubernetes gates
)

// oldestEmulationVersion is the oldest emulation version a case's gates fall back to: the first
// release that has one (k8s.io/apiserver pkg/util/compatibility minimumKubeEmulationVersion).
// Upstream's tests set emulation versions with no floor (as far back as 1.32 at 1.37); the
// components accept 1.<R-3> at the oldest. jobmodel/features.py OLDEST_EMULATION_MINOR.
var oldestEmulationVersion = version.MajorMinor(1, 31)

// binaryVersion is the gates' emulation version at start (the release's own version).
var binaryVersion *version.Version

// pristine is the gate as the release registers it, before any case set a gate: each case
// starts from a copy, so that a gate it does not set has its default at the case's emulation
// version (the gate keeps every value it was once given and re-applies it at a new version).
var pristine featuregate.MutableVersionedFeatureGate

func initFeatureGates() error {
	binaryVersion = utilfeature.DefaultMutableFeatureGate.EmulationVersion()
	pristine = utilfeature.DefaultMutableFeatureGate.DeepCopy()
	_, err := setFeatures(nil)
	return err
}

// setFeatures puts a fresh copy of the release's gates in place (the code reads the gate
// through utilfeature.DefaultFeatureGate at each check) with the case's overrides. When the
// release refuses one (a gate it locked), the gates are set at the newest earlier emulation
// version, back to oldestEmulationVersion, that takes them all, as upstream's tests do
// (featuregatetesting.SetFeatureGateEmulationVersionDuringTest): the other gates then have
// their defaults at that version. It returns the emulation version used.
func setFeatures(overrides map[string]bool) (*version.Version, error) {
	known := pristine.GetAll()
	for name := range overrides {
		// The gate keeps every name it was given, so an unknown one is refused before it is set.
		if _, ok := known[featuregate.Feature(name)]; !ok {
			return nil, fmt.Errorf("features: unknown feature gate %q", name)
		}
	}
	gate := pristine.DeepCopy()
	install(gate)
	// SetFromMap records the raw values even when it refuses them, so a later change of the
	// emulation version re-applies them.
	err := gate.SetFromMap(overrides)
	if err == nil {
		return binaryVersion, nil
	}
	for v := binaryVersion.SubtractMinor(1); !v.LessThan(oldestEmulationVersion); v = v.SubtractMinor(1) {
		earlier := pristine.DeepCopy()
		_ = earlier.SetFromMap(overrides)
		if earlier.SetEmulationVersion(v) == nil {
			install(earlier)
			return v, nil
		}
	}
	return nil, fmt.Errorf("features: %w (and at every emulation version back to %s)", err, oldestEmulationVersion)
}

// install makes gate the one upstream's code reads.
func install(gate featuregate.MutableVersionedFeatureGate) {
	utilfeature.DefaultMutableFeatureGate = gate
	utilfeature.DefaultFeatureGate = gate
}

// applyCaseFeatures reads a case's `features` and applies them.
func applyCaseFeatures(raw json.RawMessage) error {
	var overrides map[string]bool
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &overrides); err != nil {
			return fmt.Errorf("features: %v", err)
		}
	}
	_, err := setFeatures(overrides)
	return err
}

// resolveFeaturesMain answers `upstream-harness --resolve-features`: for each input line
// {"features": {...}, "gates": [names]} one line {"emulationVersion": "1.34", "gates": {name:
// value}} (a gate the release does not register is left out) or {"error": "..."}. The
// differential tests compare it with the model's resolution (jobmodel/features.py).
func resolveFeaturesMain(in io.Reader, out io.Writer) error {
	type request struct {
		Features map[string]bool `json:"features"`
		Gates    []string        `json:"gates"`
	}
	type answer struct {
		EmulationVersion string          `json:"emulationVersion,omitempty"`
		Gates            map[string]bool `json:"gates,omitempty"`
		Error            string          `json:"error,omitempty"`
	}
	scanner := bufio.NewScanner(in)
	enc := json.NewEncoder(out)
	for scanner.Scan() {
		var req request
		var ans answer
		if err := json.Unmarshal(scanner.Bytes(), &req); err != nil {
			ans.Error = err.Error()
		} else if v, err := setFeatures(req.Features); err != nil {
			ans.Error = err.Error()
		} else {
			ans.EmulationVersion = v.String()
			ans.Gates = map[string]bool{}
			known := pristine.GetAll() // every gate the release registers (at a version, GetAll leaves out the PreAlpha ones)
			for _, name := range req.Gates {
				if _, ok := known[featuregate.Feature(name)]; ok {
					ans.Gates[name] = utilfeature.DefaultFeatureGate.Enabled(featuregate.Feature(name))
				}
			}
		}
		if err := enc.Encode(ans); err != nil {
			return err
		}
	}
	return scanner.Err()
}

// runResolveFeatures is main's entry for --resolve-features.
func runResolveFeatures() {
	if err := resolveFeaturesMain(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "upstream-harness:", err)
		os.Exit(2)
	}
}
