"""Not a controller: a sync step that ends its process, to test that a lost worker is reported."""

from __future__ import annotations

import os
from typing import NoReturn

from jobmodel.state import JobSyncInput


def sync_job(inp: JobSyncInput) -> NoReturn:
    os._exit(3)
