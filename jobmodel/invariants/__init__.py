"""Invariants of the Job and CronJob controllers, each stated once as a predicate on snapshots and traces."""
