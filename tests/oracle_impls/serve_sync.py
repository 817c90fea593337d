"""A Job controller speaking the oracle protocol (job-sync only) whose step is the Python function
named by argv[1] (`package.module:function`, a JobSyncInput -> JobSyncResult step): the broken
variants of tests/checkers/broken/ as external implementations."""

from __future__ import annotations

import json
import sys

from jobmodel.adapters.protocol import encode, handshake
from jobmodel.checkers.system import load_impl
from jobmodel.conformance.job_sync import model_outcome


def main(spec: str) -> None:
    sync = load_impl(spec)
    print(encode(handshake(spec, "v1.32.3", ("job-sync",))), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        print(encode({"id": request["id"], "outcome": model_outcome(request["case"], sync)}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
