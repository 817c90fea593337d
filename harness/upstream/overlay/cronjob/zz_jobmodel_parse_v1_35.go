//go:build jobmodel_k8s_1_35

// This file is not part of Kubernetes (see zz_jobmodel_harness.go): syncCronJob's schedule
// parse from release 1.35 on (parsers.ParseCronScheduleWithPanicRecovery).

package cronjob

import (
	"github.com/robfig/cron/v3"
	"k8s.io/kubernetes/pkg/util/parsers"
)

func harnessParseSchedule(schedule string) (cron.Schedule, error) {
	return parsers.ParseCronScheduleWithPanicRecovery(schedule)
}
