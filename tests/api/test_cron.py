"""Schedule syntax as robfig/cron ParseStandard accepts it."""

from __future__ import annotations

import pytest

from jobmodel.api.cron import schedule_error
from jobmodel.api.field import ServerPanic


@pytest.mark.parametrize(
    "spec",
    [
        "* * * * *",
        "* * * * ?",
        "0 * * * *",
        "*/5 1-3 1,15 jan-mar mon-fri",
        "@hourly",
        "@every 1h30m",
        "TZ=UTC 0 * * * *",
        "5 4 * * sun",
    ],
)
def test_accepted(spec: str) -> None:
    assert schedule_error(spec, "spec.schedule") is None


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "empty spec string"),
        ("* * * *", "expected exactly 5 fields, found 4: [* * * *]"),
        ("61 * * * *", "end of range (61) above maximum (59): 61"),
        ("* * 0 * *", "beginning of range (0) below minimum (1): 0"),
        ("5-1 * * * *", "beginning of range (5) beyond end of range (1): 5-1"),
        ("*/0 * * * *", "step of range should be a positive number: */0"),
        ("1-2-3 * * * *", "too many hyphens: 1-2-3"),
        ("@fortnightly", "unrecognized descriptor: @fortnightly"),
        ("TZ=Mars/Base 0 * * * *", "provided bad location Mars/Base: unknown time zone Mars/Base"),
    ],
)
def test_refused_with_robfig_message(spec: str, message: str) -> None:
    assert schedule_error(spec, "spec.schedule") == message


@pytest.mark.parametrize("spec", ["TZ=UTC", "CRON_TZ=UTC", "TZ=", "CRON_TZ=Europe/Berlin"])
def test_a_tz_prefix_without_a_space_is_a_server_panic(spec: str) -> None:
    # robfig/cron v3.0.1 slices spec[eq+1:-1]: the API server recovers the panic (500).
    with pytest.raises(ServerPanic) as raised:
        schedule_error(spec, "spec.schedule")
    assert raised.value.field == "spec.schedule"
    assert "slice bounds out of range" in str(raised.value)
