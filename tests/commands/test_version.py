"""`jobmodel version`."""

from __future__ import annotations

import json

import pytest

from jobmodel.cli import main
from tests.conftest import REPO_ROOT


def test_version_lists_every_release_with_its_gates(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["version", "-o", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["schema"], doc["kind"]) == ("jobmodel/v1", "Releases")
    releases = doc["releases"]
    assert [r["kubeVersion"] for r in releases] == ["1.32", "1.33", "1.34", "1.35", "1.36", "1.37"]
    assert [r["kubeVersion"] for r in releases if r["default"]] == ["1.37"]
    by = {r["kubeVersion"]: r for r in releases}
    assert by["1.32"]["upstream"] == "v1.32.3" and by["1.37"]["upstream"] == "v1.37.2"
    assert by["1.34"]["gates"]["JobManagedBy"] == {"default": True, "locked": False, "stage": "Beta"}
    assert by["1.35"]["gates"]["JobManagedBy"]["locked"] is True
    assert "JobSuccessPolicy" not in by["1.37"]["gates"]


def test_version_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["version"]) == 0
    out = capsys.readouterr().out
    assert "1.37 (v1.37.2, default)" in out
    assert "WorkloadWithJob: not modelled" in out


def test_every_model_command_takes_kube_version(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["simulate"], ["validate"], ["explore"], ["cron", "simulate"], ["conformance"], ["replay"]):
        with pytest.raises(SystemExit):
            main([*argv, "--help"])
        assert "--kube-version" in capsys.readouterr().out, argv


def test_simulate_models_the_chosen_release(capsys: pytest.CaptureFixture[str]) -> None:
    pi = str(REPO_ROOT / "specs" / "examples" / "pi.yaml")
    assert main(["simulate", pi, "-o", "json", "--kube-version", "1.34"]) == 0
    assert main(["simulate", pi, "--kube-version", "1.30"]) == 2
    assert "unsupported Kubernetes release" in capsys.readouterr().err
    assert main(["cluster", "up", "--kube-version", "1.31"]) == 2
    assert "unsupported Kubernetes release" in capsys.readouterr().err
