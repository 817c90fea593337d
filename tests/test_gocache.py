"""harness/gocache.py: Go build outputs cached outside the checkout, keyed by a digest of their pins.

The build function here is a stand-in that writes a file (the real builds take minutes); what is
tested is the cache's own behaviour: the key, the hit, the lock, build-then-rename, pruning.
"""

from __future__ import annotations

import importlib.util
import multiprocessing
import os
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import REPO_ROOT


def load_gocache() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gocache", REPO_ROOT / "harness" / "gocache.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gocache"] = module
    spec.loader.exec_module(module)
    return module


gocache = load_gocache()


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "cache"
    monkeypatch.setenv("JOBMODEL_CACHE_DIR", str(root))
    return root


def test_cache_root_follows_xdg_cache_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("JOBMODEL_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert gocache.cache_root() == tmp_path / "xdg" / "jobmodel"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert gocache.cache_root() == Path.home() / ".cache" / "jobmodel"


def test_digest_changes_with_any_pin(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "go.mod").write_text("module x\n")
    (src / "go.sum").write_text("a v1 h1:x\n")
    files = [src / "go.mod", src / "go.sum"]
    first = gocache.digest(src, files, ["go1.23"])
    assert gocache.digest(src, files, ["go1.23"]) == first
    assert gocache.digest(src, files, ["go1.24"]) != first  # another toolchain
    (src / "go.sum").write_text("a v2 h1:y\n")
    assert gocache.digest(src, files, ["go1.23"]) != first  # another pin


def counting_build(counter: Path, seconds: float = 0.0):  # type: ignore[no-untyped-def]
    def build_into(out: Path) -> None:
        with counter.open("a") as f:
            f.write("built\n")
        time.sleep(seconds)
        (out / "tool").write_text("binary")

    return build_into


def test_second_build_is_a_hit(tmp_path: Path) -> None:
    counter = tmp_path / "count"
    first = gocache.build_cached("tool", "a" * 64, counting_build(counter))
    second = gocache.build_cached("tool", "a" * 64, counting_build(counter))
    assert first == second
    assert (first / "tool").read_text() == "binary"
    assert counter.read_text().count("built") == 1
    third = gocache.build_cached("tool", "b" * 64, counting_build(counter))  # other pins: other entry
    assert third != first and counter.read_text().count("built") == 2


def test_failed_build_leaves_nothing(cache_dir: Path) -> None:
    def broken(out: Path) -> None:
        (out / "half").write_text("half a binary")
        raise SystemExit(3)

    with pytest.raises(SystemExit):
        gocache.build_cached("tool", "c" * 64, broken)
    assert gocache.cached("tool", "c" * 64) is None
    assert [p.name for p in cache_dir.iterdir() if not p.name.endswith(".lock")] == []


def _build_in_process(cache: str, counter: str) -> str:
    os.environ["JOBMODEL_CACHE_DIR"] = cache
    module = load_gocache()
    return str(module.build_cached("tool", "d" * 64, counting_build(Path(counter), seconds=0.5)))


def test_parallel_builds_wait_for_one(cache_dir: Path, tmp_path: Path) -> None:
    counter = tmp_path / "count"
    with multiprocessing.get_context("spawn").Pool(3) as pool:
        results = pool.starmap(_build_in_process, [(str(cache_dir), str(counter))] * 3)
    assert len(set(results)) == 1
    assert counter.read_text().count("built") == 1  # the others waited on the lock and found it


def test_prune_keeps_the_newest(cache_dir: Path, tmp_path: Path) -> None:
    counter = tmp_path / "count"
    entries = []
    for i in range(gocache.KEEP + 2):
        entries.append(gocache.build_cached("tool", str(i) * 64, counting_build(counter)))
        time.sleep(0.01)
    kept = [e for e in entries if e.exists()]
    assert kept == entries[-gocache.KEEP :]


def test_go_build_failure_shows_go_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    if shutil.which("go") is None:
        pytest.skip("Go is not installed")
    (tmp_path / "go.mod").write_text("module broken\n\ngo 1.21\n")
    (tmp_path / "main.go").write_text("package main\n\nfunc main() { undefined() }\n")
    with pytest.raises(SystemExit):
        gocache.go_build(["-o", str(tmp_path / "out"), "."], tmp_path, "broken")
    assert "undefined" in capsys.readouterr().err
