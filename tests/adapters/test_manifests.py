"""Reading manifests (jobmodel/adapters/manifests.py)."""

from __future__ import annotations

import pytest

from jobmodel.adapters.manifests import load_documents
from jobmodel.errors import InputError


def test_json_list_and_kube_list_are_expanded() -> None:
    assert len(load_documents("x", '[{"kind": "Job"}, {"kind": "CronJob"}]')) == 2
    assert len(load_documents("x", "kind: List\nitems: [{kind: Job}]\n")) == 1


def test_several_yaml_documents_and_empty_ones() -> None:
    assert [d["kind"] for d in load_documents("x", "kind: Job\n---\n---\nkind: CronJob\n")] == ["Job", "CronJob"]


def test_yaml_timestamps_stay_rfc3339_strings() -> None:
    (doc,) = load_documents("x", "t: 2024-06-01T12:00:00Z\n")
    assert doc["t"] == "2024-06-01T12:00:00Z"


def test_malformed_yaml_names_line_and_column() -> None:
    with pytest.raises(InputError, match=r"malformed YAML at line 2 column"):
        load_documents("m.yaml", "a: 1\n b: [\n")
