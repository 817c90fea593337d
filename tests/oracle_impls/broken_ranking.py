"""A broken implementation of the Job controller speaking the oracle protocol: the model with one
rule wrong. When it deletes active pods it deletes ready pods before not-ready ones (upstream's
controller.ActivePods ranks not-ready first). It answers as the release given as its argument
(default 1.32, where the generated cases show the wrong rule soonest)."""

from __future__ import annotations

import sys

from jobmodel.adapters.protocol import encode
from jobmodel.conformance.oracle import answer_line, model_handshake
from jobmodel.features import parse_kube_version
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
    minor = parse_kube_version(sys.argv[1] if len(sys.argv) > 1 else "1.32")
    print(encode({**model_handshake(minor=minor), "implementation": "broken-ranking"}), flush=True)
    for line in sys.stdin:
        print(encode(answer_line(line, minor=minor)), flush=True)


if __name__ == "__main__":
    main()
