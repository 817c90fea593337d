"""Cron schedule arithmetic as the CronJob controller does it (robfig/cron v3.0.1 and utils.go)."""
