"""The generator of the TestControllerV2SyncCronJob rows of tests/conformance/vectors/
cronjob_sync_extra.json (tests/conformance/gen/cronjob_sync_extra.py) checked against the shared
file's conventions. test_extra_vectors runs the file through the model and upstream's own code."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.conformance.gen.cronjob_sync_extra import (
    JUST_AFTER_THE_HOUR,
    OUT,
    TABLE,
    TEST,
    ZERO_TIME,
    _minutes,
    _rfc3339_in,
    document,
    sync_case,
)

DOC = json.loads(OUT.read_text())
ROWS = {c["name"].removeprefix(f"{TEST}: "): c for c in DOC["cases"] if c["name"].startswith(f"{TEST}: ")}


def _shared_rows(conformance_dir: Path) -> dict[str, dict[str, object]]:
    cases = json.loads((conformance_dir / "cronjob_sync.json").read_text())["cases"]
    return {c["name"].removeprefix(f"{TEST}: "): c for c in cases if c["name"].startswith(f"{TEST}: ")}


def test_the_file_is_what_the_generator_writes(conformance_dir: Path) -> None:
    assert document(conformance_dir) == DOC


def test_the_table_is_upstreams_whole_table_split_between_the_files(conformance_dir: Path) -> None:
    shared = _shared_rows(conformance_dir)
    assert len(TABLE) == 74  # TestControllerV2SyncCronJob at v1.32.3
    assert set(shared).isdisjoint(ROWS)
    assert set(shared) | set(ROWS) == set(TABLE)
    assert len(ROWS) == 28


def test_the_generator_writes_every_shared_row_as_the_shared_generator_did(conformance_dir: Path) -> None:
    shared = _shared_rows(conformance_dir)
    for name, case in shared.items():
        # key order too: the extra rows are written in the shared file's layout
        assert json.dumps(sync_case(name, TABLE[name])) == json.dumps(case), name


def test_job_names_hash_minutes_as_go_divides() -> None:
    assert _minutes(JUST_AFTER_THE_HOUR) == 24394201
    assert _minutes(ZERO_TIME) == -1035593280
    assert _minutes(datetime(1969, 12, 31, 23, 59, 30, tzinfo=UTC)) == 0  # Go truncates toward zero


@pytest.mark.parametrize(
    ("zone", "want"),
    [(None, "2016-05-19T10:01:00Z"), ("UTC", "2016-05-19T10:01:00Z"), ("America/New_York", "2016-05-19T06:01:00-04:00")],
)
def test_the_scheduled_annotation_is_rfc3339_in_the_cron_jobs_zone(zone: str | None, want: str) -> None:
    assert _rfc3339_in(JUST_AFTER_THE_HOUR, zone) == want
