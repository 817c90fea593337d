"""Schedule syntax for CronJob validation: robfig/cron v3 `ParseStandard`, as `validateScheduleFormat`
calls it, through the project's parser `jobmodel.schedule.cron`."""

from __future__ import annotations

from jobmodel.api.field import ServerPanic
from jobmodel.schedule.cron import RECOVERED_PANIC, CronPanic, CronParseError, parse_standard


def schedule_error(spec: str, path: str, recover_panics: bool = False) -> str | None:
    """The error ParseStandard reports for `spec`, or None when it parses. Where robfig/cron
    panics (a `TZ=` prefix with no space after it): up to 1.34 ServerPanic, as the API server's
    request fails; from 1.35 (`recover_panics`: parsers.ParseCronScheduleWithPanicRecovery) an error."""
    try:
        parse_standard(spec)
    except CronPanic as err:
        if recover_panics:
            return RECOVERED_PANIC
        raise ServerPanic(path, "cron.ParseStandard", str(err)) from None
    except CronParseError as err:
        return str(err)
    return None
