// kube-controller-manager: upstream's own main (cmd/kube-controller-manager/controller-manager.go)
// plus the Job controller tunables that upstream's integration tests set (test/integration/job:
// setDurationDuringTest(&jobcontroller.DefaultJobPodFailureBackOff, ...)). Each is read from an
// environment variable and left at upstream's default when the variable is unset:
//
//	JOBMODEL_POD_FAILURE_BACKOFF          DefaultJobPodFailureBackOff (a Go duration, e.g. 100ms)
//	JOBMODEL_MAX_POD_FAILURE_BACKOFF      MaxJobPodFailureBackOff (a Go duration)
//	JOBMODEL_MAX_UNCOUNTED_PODS           MaxUncountedPods
//	JOBMODEL_MAX_POD_CREATE_DELETE_PER_SYNC MaxPodCreateDeletePerSync
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
	_ "time/tzdata" // for CronJob Time Zone support

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"          // for JSON log format registration
	_ "k8s.io/component-base/metrics/prometheus/clientgo" // load all the prometheus client-go plugin
	_ "k8s.io/component-base/metrics/prometheus/version"  // for version metric registration
	"k8s.io/kubernetes/cmd/kube-controller-manager/app"
	jobcontroller "k8s.io/kubernetes/pkg/controller/job"
)

func main() {
	if err := applyJobControllerTunables(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	command := app.NewControllerManagerCommand()
	code := cli.Run(command)
	os.Exit(code)
}

func applyJobControllerTunables() error {
	durations := map[string]*time.Duration{
		"JOBMODEL_POD_FAILURE_BACKOFF":     &jobcontroller.DefaultJobPodFailureBackOff,
		"JOBMODEL_MAX_POD_FAILURE_BACKOFF": &jobcontroller.MaxJobPodFailureBackOff,
	}
	for name, target := range durations {
		if value, ok := os.LookupEnv(name); ok {
			d, err := time.ParseDuration(value)
			if err != nil || d < 0 {
				return fmt.Errorf("%s=%q: expected a non-negative Go duration such as 100ms", name, value)
			}
			*target = d
		}
	}
	counts := map[string]*int{
		"JOBMODEL_MAX_UNCOUNTED_PODS":             &jobcontroller.MaxUncountedPods,
		"JOBMODEL_MAX_POD_CREATE_DELETE_PER_SYNC": &jobcontroller.MaxPodCreateDeletePerSync,
	}
	for name, target := range counts {
		if value, ok := os.LookupEnv(name); ok {
			n, err := strconv.Atoi(value)
			if err != nil || n < 1 {
				return fmt.Errorf("%s=%q: expected a positive integer", name, value)
			}
			*target = n
		}
	}
	return nil
}
