"""jobmodel/api/pod_util.py: VisitContainersWithPath's order and paths."""

from __future__ import annotations

from jobmodel.api.pod_util import visit_containers_with_path


def test_containers_are_visited_init_regular_ephemeral_with_their_paths() -> None:
    spec = {"containers": [{"name": "c"}], "ephemeralContainers": [{"name": "e"}], "initContainers": [{"name": "i0"}, {"name": "i1"}]}
    visited = [(c["name"], p) for c, p in visit_containers_with_path(spec, "spec")]
    assert visited == [
        ("i0", "spec.initContainers[0]"),
        ("i1", "spec.initContainers[1]"),
        ("c", "spec.containers[0]"),
        ("e", "spec.ephemeralContainers[0]"),
    ]
    assert list(visit_containers_with_path(None)) == []
