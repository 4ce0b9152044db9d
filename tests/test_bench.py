"""bench/ keeps working as the code moves (no timing is asserted: speed is measured by the benchmark itself)."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.fixture(scope="module")
def bench() -> Any:
    sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location("bench_run", BENCH / "run.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_run"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def corpus_module(bench: Any) -> Any:
    return importlib.import_module("corpus")


def test_the_corpus_follows_its_profile(corpus_module: Any, tmp_path: Path) -> None:
    profile = corpus_module.Profile(lengths=(1500, 3000), docs_with_code=0.5, tables_per_doc=0.5,
                                    traditional_share=0.3, formats={"txt": 1, "md": 1, "html": 1})
    chars = corpus_module.build_corpus(60, tmp_path / "corpus", profile=profile)
    files = sorted((tmp_path / "corpus").iterdir())
    assert len(files) == 60
    assert chars == sum(len(f.read_text(encoding="utf-8")) for f in files)
    assert {f.suffix for f in files} == {".txt", ".md", ".html"}
    stats = corpus_module.corpus_stats(tmp_path / "corpus")
    assert 1000 < stats["chars_per_doc"] < 3500
    assert 0.2 < stats["docs_with_code"] < 0.8 and stats["tables_per_doc"] > 0.1
    assert stats["claims_per_doc"] > 5 and stats["flags_per_doc"] > 0
    assert 0 < stats["traditional_share"] < 0.7


def test_statistics_are_measured_and_pooled(corpus_module: Any, tmp_path: Path) -> None:
    folder = tmp_path / "real"
    folder.mkdir()
    (folder / "a.txt").write_text("评测\n\nRTX 4090配备24GB显存，功耗450W。\n", encoding="utf-8")
    (folder / "b.md").write_text("# 笔记\n\nT4配备32GB显存。\n\n```python\nprint(x)\n```\n", encoding="utf-8")
    stats = corpus_module.corpus_stats(folder)
    assert (stats["documents"], stats["formats"]) == (2, {"md": 1, "txt": 1})
    assert stats["claims_per_doc"] >= 1.5 and stats["flags_per_doc"] >= 1  # 32GB and the undefined name
    assert stats["docs_with_code"] == 0.5 and stats["code_share"] > 0
    both = corpus_module.pooled([stats, stats])
    assert both["documents"] == 4 and both["claims_per_doc"] == stats["claims_per_doc"]
    assert corpus_module.Profile.of(both).lengths == tuple(sorted(stats["lengths"] * 2))


def test_every_stage_is_timed_and_unpatched_afterwards(bench: Any, corpus_module: Any, tmp_path: Path) -> None:
    corpus_module.build_corpus(4, tmp_path / "corpus")
    originals = []
    for _label, where, name in bench.STAGES:
        module_name, _, cls = where.partition(":")
        owner = importlib.import_module(module_name)
        owner = getattr(owner, cls) if cls else owner
        originals.append((owner, name, getattr(owner, name)))
    rows = bench.stage_times(tmp_path / "corpus", tmp_path / "out")
    assert set(rows) == {label for label, _w, _n in bench.STAGES} | {bench.REST, "total"}
    for stage in ("segment (spaCy + jieba, mentions, sentences)", "document reports (md, html, json)",
                  "state (SQLite, batches)", "claims suite (great-expectations)", "appending to the run tables"):
        assert rows[stage] > 0, stage  # the stage really ran under its timer
    for owner, name, original in originals:
        assert getattr(owner, name) is original


def test_the_bound_run_extracts_nothing_and_restores_extraction(bench: Any, corpus_module: Any,
                                                                tmp_path: Path) -> None:
    import json

    import pipeline.run.document

    corpus_module.build_corpus(3, tmp_path / "corpus")
    original = pipeline.run.document.extract_claims
    bench.pipeline_sample(tmp_path / "corpus", tmp_path / "full", workers=1)
    bench.bound_sample(tmp_path / "corpus", tmp_path / "bound")
    assert pipeline.run.document.extract_claims is original

    def claims(out: Path) -> list[dict[str, Any]]:
        return [json.loads(line) for line in (out / "claims.jsonl").read_text(encoding="utf-8").splitlines()]

    # the same documents went through; only the code checks' findings are left (they are not extracted claims)
    assert any(c["attribute"] != "code" for c in claims(tmp_path / "full"))
    assert all(c["attribute"] == "code" for c in claims(tmp_path / "bound"))
    assert len(list((tmp_path / "bound").glob("a*.json"))) == 3  # every document still got its reports


def test_the_report_table_reads_the_samples(bench: Any) -> None:
    one = bench.Measure("one", 100, [bench.Sample(2.0, 2.0, 1.0, 5.0), bench.Sample(4.0, 3.0, 2.0, 6.0)])
    two = bench.Measure("two", 100, [bench.Sample(1.0, 2.0, 1.0, 0.5), bench.Sample(1.0, 3.5, 2.0, 0.7)])
    assert bench._ratio(two, one) == (2.0, 3.0, 4.0)  # paired by round
    lines = bench.table({"one": one, "two": two}, {"ratios": {"two / one": bench._ratio(two, one)},
                                                    "figures": {"start-up": "1.0 s"}})
    assert "| two | 100.0 / **100.0** / 100.0 | 10.00 | 2.8 | 0.60 | 1.0–2.0 |" in lines
    assert "| two / one | 2.000 / **3.000** / 4.000 |" in lines


def test_the_readme_table_is_replaced_between_its_markers(bench: Any, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(f"# Benchmarks\n\n{bench.BEGIN}\nold table\n{bench.END}\n\nReading the numbers\n",
                      encoding="utf-8")
    monkeypatch.setattr(bench, "README", readme)
    bench.write_readme(["| new | table |"])
    assert readme.read_text(encoding="utf-8") == (f"# Benchmarks\n\n{bench.BEGIN}\n| new | table |\n{bench.END}\n\n"
                                                  "Reading the numbers\n")
