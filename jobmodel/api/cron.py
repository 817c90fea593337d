"""Schedule syntax for CronJob validation: robfig/cron v3 `ParseStandard`, as `validateScheduleFormat`
calls it, through the project's parser `jobmodel.schedule.cron`."""

from __future__ import annotations

from jobmodel.schedule.cron import CronParseError, parse_standard


def schedule_error(spec: str) -> str | None:
    """The error ParseStandard reports for `spec`, or None when it parses."""
    try:
        parse_standard(spec)
    except CronParseError as err:
        return str(err)
    return None
