"""Schedule syntax for CronJob validation: robfig/cron v3 `ParseStandard`, as `validateScheduleFormat`
calls it, through the project's parser `jobmodel.schedule.cron`."""

from __future__ import annotations

from jobmodel.api.field import ServerPanic
from jobmodel.schedule.cron import CronPanic, CronParseError, parse_standard


def schedule_error(spec: str, path: str) -> str | None:
    """The error ParseStandard reports for `spec`, or None when it parses; ServerPanic where
    robfig/cron panics (a `TZ=` prefix with no space after it), as the API server's request does."""
    try:
        parse_standard(spec)
    except CronPanic as err:
        raise ServerPanic(path, "cron.ParseStandard", str(err)) from None
    except CronParseError as err:
        return str(err)
    return None
