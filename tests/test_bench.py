"""bench/run.py keeps working as the code moves (no timing is asserted: speed is measured by the benchmark itself)."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench" / "run.py"


@pytest.fixture(scope="module")
def bench():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("bench_run", BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_run"] = module
    spec.loader.exec_module(module)
    return module


def test_synthetic_corpus_is_built(bench, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    chars = bench.build_corpus(4, tmp_path / "corpus")
    files = sorted((tmp_path / "corpus").glob("*.txt"))
    assert len(files) == 4
    assert chars == sum(len(f.read_text(encoding="utf-8")) for f in files)


def test_every_stage_is_timed_and_unpatched_afterwards(bench, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bench.build_corpus(3, tmp_path / "corpus")
    originals = []
    for _label, where, name in bench.STAGES:
        module_name, _, cls = where.partition(":")
        owner = importlib.import_module(module_name)
        owner = getattr(owner, cls) if cls else owner
        originals.append((owner, name, getattr(owner, name)))
    rows = bench.stage_times(tmp_path / "corpus", tmp_path / "out", 1)
    assert set(rows) == {label for label, _w, _n in bench.STAGES} | {
        "rest (planning, run tables, ClaimReview, progress)", "total"}
    assert rows["segment (spaCy + jieba, mentions, sentences)"] > 0  # the stage really ran under its timer
    assert rows["document reports (md, html, json)"] > 0
    for owner, name, original in originals:
        assert getattr(owner, name) is original
