//go:build !jobmodel_k8s_1_35

// This file is not part of Kubernetes (see zz_jobmodel_harness.go): syncCronJob's schedule
// parse in releases 1.32 to 1.34 (robfig's panics are not recovered).

package cronjob

import "github.com/robfig/cron/v3"

func harnessParseSchedule(schedule string) (cron.Schedule, error) {
	return cron.ParseStandard(schedule)
}
