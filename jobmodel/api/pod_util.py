"""`pkg/api/pod/util.go`'s container visitor, which pod validation, its options and the drops of
disabled fields walk every container with."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final

from jobmodel.api import field as fe

CONTAINER_KINDS: Final = ("initContainers", "containers", "ephemeralContainers")  # VisitContainers' order


def visit_containers_with_path(spec: Mapping[str, Any] | None, path: str = "") -> Iterator[tuple[Mapping[str, Any], str]]:
    """VisitContainersWithPath (AllContainers): init, regular and ephemeral containers with their paths."""
    for key in CONTAINER_KINDS:
        for i, ctr in enumerate((spec or {}).get(key) or []):
            yield ctr, fe.index(fe.child(path, key), i)
