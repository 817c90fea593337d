"""Simulation: the simulated cluster's runs for people (a Job's life, scenario scripts, a CronJob over a time window)."""
