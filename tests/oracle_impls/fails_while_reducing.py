"""An implementation of the oracle protocol for the tests of `oracle check`'s reduction: it
answers an error (a divergence) to every job-sync case with a pod and as the model to the rest,
until the file argv[2] exists (the test creates it when the reduction starts). From then on it
answers every request `unsupported`, appending a line to that file for each (argv[1] ==
"unsupported"), or exits (argv[1] == "crash")."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from jobmodel.conformance.oracle import answer_line, model_handshake


def main(mode: str, reducing: Path) -> None:
    print(json.dumps(model_handshake(minor=32)), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        if reducing.exists():
            if mode == "crash":
                print("boom: the implementation fell over while reducing", file=sys.stderr, flush=True)
                sys.exit(3)
            with reducing.open("a") as f:
                f.write("unsupported\n")
            print(json.dumps({"id": request["id"], "unsupported": "not while reducing"}), flush=True)
        elif request["suite"] == "job-sync" and request["case"].get("pods"):
            print(json.dumps({"id": request["id"], "error": "cannot take a case with pods"}), flush=True)
        else:
            print(json.dumps(answer_line(line, minor=32)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
