"""Runs with state: incremental processing, reference changes, review decisions, locking, and resuming after a kill."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.config import DEFAULT_REFERENCE_DIR, Config
from pipeline.errors import LockedError
from pipeline.run import EXIT_FLAGGED, EXIT_OK, RunOptions, run
from pipeline.state.store import Store

ARTICLES = {
    "a.txt": "RTX 4090评测\n\nRTX 4090配备了32GB的GDDR6X显存，功耗450W。\n",
    "b.txt": "H100简介\n\nH100 SXM5拥有16896个CUDA核心，显存带宽3.35TB/s。\n",
    "c.txt": "L4入门\n\nL4的显存为24GB，功耗72W。\n",
}


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    d = tmp_path / "corpus"
    d.mkdir()
    for name, text in ARTICLES.items():
        (d / name).write_text(text, encoding="utf-8")
    return d


def _run(corpus: Path, out: Path, **kw: object) -> object:
    config = kw.pop("config", None) or Config(out_dir=out, workers=1)
    return run(RunOptions(corpus=corpus, config=config, **kw))  # type: ignore[arg-type]


def _claims(out: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(x) for x in (out / "claims.jsonl").read_text(encoding="utf-8").splitlines()]


def _docs(out: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(x) for x in (out / "documents.jsonl").read_text(encoding="utf-8").splitlines()]


def test_unchanged_documents_are_carried_over_and_outputs_stay_complete(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = _run(corpus, out)
    claims_before = sorted(json.dumps(c, sort_keys=True) for c in _claims(out))
    second = _run(corpus, out)
    assert (first.processed, second.processed, second.carried_over) == (3, 0, 3)  # type: ignore[attr-defined]
    assert sorted(json.dumps(c, sort_keys=True) for c in _claims(out)) == claims_before
    assert {d["doc_id"] for d in _docs(out)} == set(ARTICLES)
    (corpus / "c.txt").write_text("L4入门\n\nL4的显存为48GB。\n", encoding="utf-8")
    third = _run(corpus, out)
    assert (third.processed, third.carried_over) == (1, 2)  # type: ignore[attr-defined]
    wrong = [c for c in _claims(out) if c["doc_id"] == "c.txt" and c["text"] == "48GB"]
    assert wrong and wrong[0]["verdict"] == "contradicted"
    full = _run(corpus, out, full=True)
    assert full.processed == 3  # type: ignore[attr-defined]


def test_deleted_document_is_marked_and_dropped(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    _run(corpus, out)
    (corpus / "b.txt").unlink()
    summary = _run(corpus, out)
    assert summary.deleted == 1  # type: ignore[attr-defined]
    assert {d["doc_id"] for d in _docs(out)} == {"a.txt", "c.txt"}
    assert all(c["doc_id"] != "b.txt" for c in _claims(out))


def test_reference_change_rechecks_without_resegmenting(corpus: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    ref = tmp_path / "reference"
    shutil.copytree(DEFAULT_REFERENCE_DIR, ref)
    out = tmp_path / "out"
    config = Config(out_dir=out, workers=1, reference_dir=ref)
    _run(corpus, out, config=config)
    before = {c["text"]: c["verdict"] for c in _claims(out) if c["doc_id"] == "a.txt"}
    assert before["32GB"] == "contradicted"
    specs = ref / "specs.csv"
    lines = specs.read_text(encoding="utf-8").splitlines(keepends=True)
    edited = [ln.replace(",memory_size,,24,GB,", ",memory_size,,32,GB,", 1) if ln.startswith("nvidia_rtx_4090,")
              else ln for ln in lines]
    assert edited != lines, "expected an RTX 4090 memory_size row to edit"
    specs.write_text("".join(edited), encoding="utf-8")

    from pipeline import segment

    def no_segmenting(*_a: object, **_k: object) -> None:
        raise AssertionError("a reference change must not re-segment unchanged documents")

    monkeypatch.setattr(segment.Segmenter, "segment", no_segmenting)
    summary = _run(corpus, out, config=config)
    assert summary.processed == 0  # type: ignore[attr-defined]
    after = {c["text"]: c["verdict"] for c in _claims(out) if c["doc_id"] == "a.txt"}
    assert after["32GB"] == "supported"


def test_decision_survives_rerun_until_the_text_changes(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    _run(corpus, out)
    flagged = next(c for c in _claims(out) if c["verdict"] == "contradicted")
    with Store(out / "state.sqlite") as store:
        store.decide(flagged["claim_id"], "dismissed", "测试编辑", "误报")
    _run(corpus, out)
    again = next(c for c in _claims(out) if c["claim_id"] == flagged["claim_id"])
    assert again["review_status"] == "dismissed"
    page = (out / "a.txt.md").read_text(encoding="utf-8")
    assert "测试编辑" in page
    (corpus / "a.txt").write_text("RTX 4090评测\n\nRTX 4090配备了36GB的GDDR6X显存，功耗450W。\n", encoding="utf-8")
    _run(corpus, out)
    assert all(c["review_status"] == "open" for c in _claims(out) if c["doc_id"] == "a.txt")


def test_fail_on_counts_only_open_flags_in_new_or_changed_documents(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    fail_on = frozenset({"contradicted"})
    assert _run(corpus, out, fail_on=fail_on).exit_code == EXIT_FLAGGED  # type: ignore[attr-defined]
    assert _run(corpus, out, fail_on=fail_on).exit_code == EXIT_OK  # type: ignore[attr-defined]
    (corpus / "a.txt").write_text("RTX 4090评测\n\n这块RTX 4090配备了40GB显存。\n", encoding="utf-8")
    assert _run(corpus, out, fail_on=fail_on).exit_code == EXIT_FLAGGED  # type: ignore[attr-defined]
    with Store(out / "state.sqlite") as store:
        for c in store.list_claims(flagged_only=True):
            store.decide(c["claim_id"], "dismissed", "编辑", "")
    (corpus / "a.txt").write_text("RTX 4090评测\n\n这块RTX 4090配备了40GB显存。\n\n", encoding="utf-8")
    assert _run(corpus, out, fail_on=fail_on).exit_code == EXIT_OK  # type: ignore[attr-defined]


def test_second_run_waits_for_the_lock_then_exits_2(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    _run(corpus, out)
    holder = Store(out / "state.sqlite")
    with holder.lock(0):
        with pytest.raises(LockedError):
            _run(corpus, out, lock_timeout=0.2)
        result = CliRunner().invoke(app, ["run", str(corpus), "--out", str(out), "--workers", "1"])
        assert result.exit_code == 2
        assert "lock" in result.output.lower()
    holder.close()


_KILLER = """
import os, signal, sys
from pathlib import Path
import pipeline.run.document, pipeline.run
from pipeline.config import Config
from pipeline.run import RunOptions, run

pipeline.run.STATE_BATCH, pipeline.run.STATE_BATCH_SECONDS = 2, 1e9  # the state commits every two documents
real, seen = pipeline.run.document.analyse, []

def analyse(doc, ref, config=None):
    seen.append(doc.doc_id)
    if len(seen) == int(sys.argv[3]):  # killed while analysing this document
        os.kill(os.getpid(), signal.SIGKILL)
    return real(doc, ref, config)

pipeline.run.document.analyse = analyse
run(RunOptions(corpus=Path(sys.argv[1]), config=Config(out_dir=Path(sys.argv[2]), workers=1)))
"""


# killed while analysing document n: the batches committed before it are kept, the rest are processed again
@pytest.mark.parametrize(("killed_at", "committed"), [(3, 2), (4, 2), (5, 4)])
def test_killed_run_loses_nothing_committed_and_the_next_run_completes(tmp_path: Path, killed_at: int,
                                                                       committed: int) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for i in range(6):
        (corpus / f"doc{i}.txt").write_text(f"第{i}篇\n\nRTX 4090配备了{24 + 8 * (i % 2)}GB显存。\n", encoding="utf-8")
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-c", _KILLER, str(corpus), str(out), str(killed_at)],
                          capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1],
                          env={**os.environ, "PYTHONPATH": "."})
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    assert not (out / "claims.jsonl").exists()  # never half-written: the temp file was not renamed into place
    with Store(out / "state.sqlite") as store:
        kept = store.current_doc_ids()
        assert kept == [f"doc{i}.txt" for i in range(committed)]
        assert all(store.load_result(d).claims for d in kept)  # each saved whole
    summary = _run(corpus, out)
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]
    assert (summary.processed, summary.carried_over) == (6 - committed, committed)  # type: ignore[attr-defined]
    claims = _claims(out)
    assert len({c["claim_id"] for c in claims}) == len(claims)
    assert {c["doc_id"] for c in claims} == {f"doc{i}.txt" for i in range(6)}


def test_unchanged_corpus_rewrites_nothing_until_a_decision_changes(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    _run(corpus, out)
    before = {p.name: p.stat().st_mtime_ns for p in out.iterdir() if p.is_file() and p.suffix != ".sqlite"}
    again = _run(corpus, out)
    assert (again.processed, again.claims) == (0, len(_claims(out)))  # type: ignore[attr-defined]
    assert {p.name: p.stat().st_mtime_ns for p in out.iterdir() if p.name in before} == before
    flagged = next(c for c in _claims(out) if c["verdict"] == "contradicted")
    with Store(out / "state.sqlite") as store:
        store.decide(flagged["claim_id"], "accepted", "编辑", "")
    _run(corpus, out)
    assert next(c for c in _claims(out) if c["claim_id"] == flagged["claim_id"])["review_status"] == "accepted"


# ---------------------------------------------------------------- two runs on one output folder (point 8)

@pytest.mark.parametrize("second_state", ["none", "other"])
def test_a_second_run_on_the_same_out_waits_for_the_first(corpus: Path, tmp_path: Path, second_state: str) -> None:
    """Two --no-state runs (or two different state files) on one --out: the second stops at the output folder's
    lock and the first, whose temp files it would have removed, finishes."""
    out = tmp_path / "out"
    refused: list[BaseException] = []

    def progress(i: int, total: int, result: object) -> None:
        if i == 1:
            temp_files = sorted(out.glob(".*.tmp"))
            assert temp_files
            options = ({"use_state": False} if second_state == "none" else {"state": tmp_path / "other.sqlite"})
            with pytest.raises(LockedError, match="another run is writing to") as caught:
                run(RunOptions(corpus=corpus, config=Config(out_dir=out, workers=1), **options))  # type: ignore[arg-type]
            refused.append(caught.value)
            assert sorted(out.glob(".*.tmp")) == temp_files

    summary = run(RunOptions(corpus=corpus, config=Config(out_dir=out, workers=1), use_state=False), progress)
    assert refused and summary.exit_code == EXIT_OK
    assert {d["doc_id"] for d in _docs(out)} == set(ARTICLES)


# ---------------------------------------------------------------- failed documents (point 14)

def test_a_failed_document_waits_for_a_change_or_retry(corpus: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import pipeline.run.document

    tries: list[str] = []
    real = pipeline.run.document.analyse

    def analyse(doc: object, ref: object, config: object = None) -> object:
        tries.append(doc.doc_id)  # type: ignore[attr-defined]
        if "崩溃" in doc.text:  # type: ignore[attr-defined]
            raise RuntimeError("the analysis broke on this article")
        return real(doc, ref, config)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline.run.document, "analyse", analyse)
    (corpus / "b.txt").write_text("H100简介\n\n崩溃的文章。\n", encoding="utf-8")
    ref = tmp_path / "reference"
    shutil.copytree(DEFAULT_REFERENCE_DIR, ref)
    out = tmp_path / "out"

    def edit_b() -> None:
        (corpus / "b.txt").write_text("H100简介\n\n又一次崩溃的文章。\n", encoding="utf-8")

    def edit_reference() -> None:
        with open(ref / "vendors.csv", "a", encoding="utf-8") as f:
            f.write("\n")

    # fmt: off
    steps: list[tuple[str, Callable[[], None], dict[str, object], bool]] = [
        # what changed,         change,         run options,               b.txt analysed again
        ("first run",           lambda: None,   {},                        True),
        ("nothing",             lambda: None,   {},                        False),
        ("nothing, again",      lambda: None,   {},                        False),
        ("--retry",             lambda: None,   {"retry": True},           True),
        ("its content",         edit_b,         {},                        True),
        ("the time limit",      lambda: None,   {"max_seconds": 30.0},     True),
        ("the reference",       edit_reference, {"max_seconds": 30.0},     True),
        ("nothing at the end",  lambda: None,   {"max_seconds": 30.0},     False),
    ]
    # fmt: on
    for what, change, options, analysed in steps:
        change()
        tries.clear()
        retry = bool(options.pop("retry", False))
        config = Config(out_dir=out, workers=1, reference_dir=ref, **options)  # type: ignore[arg-type]
        summary = run(RunOptions(corpus=corpus, config=config, retry=retry))
        assert ("b.txt" in tries) is analysed, what
        assert summary.exit_code == 1 and summary.errors == 1, what  # still an error document: exit 1 every time
        b = next(d for d in _docs(out) if d["doc_id"] == "b.txt")
        assert b["status"] == "error" and "the analysis broke" in b["message"], what
        assert {d["doc_id"] for d in _docs(out) if d["status"] == "ok"} == {"a.txt", "c.txt"}, what


# ---------------------------------------------------------------- issue 27: a damaged row, a moved corpus, decisions

# fmt: off
DAMAGE = [
    # table,        column,   the damage
    ("documents",   "result", "not json at all"),
    ("documents",   "result", '{"status": 3}'),
    ("claims",      "data",   '{"doc_id": "a.txt", "text'),
    ("claims",      "data",   '["a list"]'),
]
# fmt: on


@pytest.mark.parametrize(("table", "column", "damage"), DAMAGE)
def test_a_damaged_row_is_analysed_again(corpus: Path, tmp_path: Path, table: str, column: str,
                                         damage: str) -> None:
    """One corrupt row in documents.result or claims.data: the next run analyses that document again and says so,
    instead of failing every later run until --full (point 6)."""
    import sqlite3

    out = tmp_path / "out"
    _run(corpus, out)
    before = sorted(json.dumps(c, sort_keys=True) for c in _claims(out) if c["doc_id"] == "a.txt")
    with sqlite3.connect(out / "state.sqlite") as conn:
        key = "rowid = (SELECT MIN(rowid) FROM claims WHERE doc_id = 'a.txt')" if table == "claims" else \
            "doc_id = 'a.txt'"
        conn.execute(f"UPDATE {table} SET {column} = ? WHERE {key}", (damage,))
    for attempt in range(3):  # incremental runs: another article changes each time, a.txt is unchanged
        with open(corpus / "c.txt", "a", encoding="utf-8") as f:
            f.write("\n")
        summary = _run(corpus, out)
        assert summary.exit_code == EXIT_OK, attempt  # type: ignore[attr-defined]
        assert sorted(json.dumps(c, sort_keys=True) for c in _claims(out) if c["doc_id"] == "a.txt") == before
    assert summary.processed == 1  # type: ignore[attr-defined]  # c.txt alone: a.txt was analysed once, then kept


def test_damaged_rows_are_logged(corpus: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    import sqlite3

    out = tmp_path / "out"
    _run(corpus, out)
    before = [c for c in _claims(out) if c["doc_id"] == "b.txt"]
    with sqlite3.connect(out / "state.sqlite") as conn:
        conn.execute("UPDATE claims SET data = 'garbage' WHERE doc_id = 'b.txt'")
    (corpus / "c.txt").write_text("L4入门\n\nL4的显存为24GB。\n", encoding="utf-8")
    caplog.set_level("WARNING", logger="pipeline")
    assert _run(corpus, out).exit_code == EXIT_OK  # type: ignore[attr-defined]
    assert [c for c in _claims(out) if c["doc_id"] == "b.txt"] == before
    assert any("b.txt" in r.getMessage() and "damaged" in r.getMessage() for r in caplog.records), caplog.text


def _published(out: Path) -> dict[str, bytes]:
    import re

    facts = re.compile(r"(开始|结束|本次处理|未变沿用)：(</span>)?[^<\n]*".encode())
    return {p.name: facts.sub(rb"\1", p.read_bytes()) for p in sorted(out.iterdir())
            if p.is_file() and not p.name.startswith(("state.sqlite", ".gpu-factcheck", ".report-index", "decisions"))}


def test_after_moving_the_corpus_folder_every_output_names_the_new_place(corpus: Path, tmp_path: Path) -> None:
    """Paths in documents.jsonl and the reports come from the corpus as it is now, at once; two runs of the moved
    corpus publish the same files (point 8)."""
    out = tmp_path / "out"
    _run(corpus, out)
    moved = tmp_path / "moved" / "articles"
    moved.parent.mkdir()
    shutil.move(str(corpus), moved)
    first = _run(moved, out)
    assert first.processed == 0  # type: ignore[attr-defined]
    paths = {d["doc_id"]: d["path"] for d in _docs(out)}
    assert paths == {name: str(moved / name) for name in ARTICLES}
    assert f"`{moved / 'a.txt'}`" in (out / "a.txt.md").read_text(encoding="utf-8")
    published = _published(out)
    _run(moved, out)
    assert _published(out) == published


def test_a_run_that_moves_decisions_leaves_the_next_run_nothing_to_do(corpus: Path, tmp_path: Path) -> None:
    """A decision follows a renamed article; the run after that one finds the outputs current and rewrites nothing
    (the marker's key does not hold the decision's old claim id) (point 8)."""
    out = tmp_path / "out"
    _run(corpus, out)
    flagged = next(c for c in _claims(out) if c["verdict"] == "contradicted")
    with Store(out / "state.sqlite") as store:
        store.decide(flagged["claim_id"], "dismissed", "编辑", "误报")
    (corpus / "a.txt").rename(corpus / "renamed.txt")
    _run(corpus, out)
    assert [c["review_status"] for c in _claims(out) if c["doc_id"] == "renamed.txt"
            and c["text"] == flagged["text"]] == ["dismissed"]
    before = {p.name: p.stat().st_mtime_ns for p in out.iterdir() if p.is_file() and p.suffix != ".sqlite"
              and not p.name.startswith("state.sqlite")}
    again = _run(corpus, out)
    assert again.processed == 0  # type: ignore[attr-defined]
    after = {p.name: p.stat().st_mtime_ns for p in out.iterdir() if p.name in before}
    assert [n for n in before if after[n] != before[n]] == []
