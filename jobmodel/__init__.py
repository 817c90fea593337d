"""jobmodel: an executable, checked reference model of the Kubernetes batch/v1 Job and CronJob controllers."""

__version__ = "0.1.0"
