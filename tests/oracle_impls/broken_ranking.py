"""A broken implementation of the Job controller speaking the oracle protocol: the model with one
rule wrong. When it deletes active pods it deletes ready pods before not-ready ones (upstream's
controller.ActivePods ranks not-ready first)."""

from __future__ import annotations

import sys

from jobmodel.adapters.protocol import encode
from jobmodel.conformance.oracle import answer_line, model_handshake
from jobmodel.state import Pod
from jobmodel.transitions import indexes, pod_utils, sync_job


def ready_first(pi: Pod, pj: Pod) -> bool:
    ri, rj = pod_utils.is_pod_ready(pi), pod_utils.is_pod_ready(pj)
    if ri != rj:
        return ri
    return pod_utils.active_pods_less(pi, pj)


def main() -> None:
    sync_job.active_pods_less = ready_first  # type: ignore[attr-defined]
    indexes.active_pods_less = ready_first  # type: ignore[attr-defined]
    print(encode({**model_handshake(), "implementation": "broken-ranking"}), flush=True)
    for line in sys.stdin:
        print(encode(answer_line(line)), flush=True)


if __name__ == "__main__":
    main()
