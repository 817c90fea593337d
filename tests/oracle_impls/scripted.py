"""An implementation of the oracle protocol that misbehaves as told (argv[1]), for the tests of
the protocol's client: `model` answers as the model does; the other modes break one rule."""

from __future__ import annotations

import json
import sys
import time

from jobmodel.conformance.oracle import answer_line, model_handshake


def main(mode: str) -> None:
    hello = model_handshake(minor=32)  # the shared vectors are 1.32 cases
    if mode == "version":
        hello["protocol"] = "jobmodel-oracle/0"
    if mode == "bad-handshake":
        hello["suites"] = "job-sync"
    if mode == "job-sync-only":
        hello["suites"] = ["job-sync"]
    print(json.dumps(hello), flush=True)
    for line in sys.stdin:
        if mode == "crash":
            print("boom: the implementation fell over", file=sys.stderr, flush=True)
            sys.exit(3)
        if mode == "hang":
            time.sleep(60)
        answer = answer_line(line, minor=32)
        if mode == "not-json":
            print("hello", flush=True)
            continue
        if mode == "wrong-id":
            answer["id"] = -1
        if mode == "malformed" and "outcome" in answer:
            answer["outcome"]["deletions"] = "three"
        if mode == "error":
            answer = {"id": answer["id"], "error": "cannot take this case"}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
