from __future__ import annotations

import json
import os
import pickle
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from pipeline.errors import LockedError, UsageError
from pipeline.records import DocumentResult, Status, Verdict
from pipeline.state.schema import APPLICATION_ID
from pipeline.state.store import SCHEMA_VERSION, Store
from tests.store_builders import PIPE, REF, gpu_claims, make_claim, make_result

ROOT = Path(__file__).resolve().parents[1]


# ---- schema -------------------------------------------------------------------------------------


def test_schema_created_and_version_recorded(fresh_store: Store) -> None:
    conn = sqlite3.connect(fresh_store.path)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"documents", "runs", "claims", "decisions", "events", "assignments"} <= tables
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


# The layout of schema version 1, frozen here as it shipped.
V1_SCHEMA = """
CREATE TABLE documents (doc_id TEXT PRIMARY KEY, path TEXT NOT NULL, sha256 TEXT NOT NULL,
    first_seen TEXT NOT NULL, last_seen TEXT NOT NULL, last_processed TEXT NOT NULL, last_run INTEGER,
    reference_version TEXT NOT NULL, pipeline_version TEXT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0,
    result TEXT NOT NULL);
CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, started TEXT NOT NULL, finished TEXT,
    reference_version TEXT NOT NULL, pipeline_version TEXT NOT NULL, counts TEXT, exit_status INTEGER);
CREATE TABLE claims (doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
    claim_id TEXT NOT NULL, position INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (doc_id, claim_id));
CREATE TABLE decisions (claim_id TEXT PRIMARY KEY,
    status TEXT NOT NULL CHECK (status IN ('accepted', 'dismissed', 'corrected')),
    editor TEXT NOT NULL, note TEXT NOT NULL DEFAULT '', decided_at TEXT NOT NULL);
PRAGMA user_version = 1;
"""


def test_migrates_a_v1_database(tmp_path: Path) -> None:
    db = tmp_path / "state.sqlite"
    claim = make_claim("a.md", "c1", "H100 的显存带宽为 2TB/s", Verdict.CONTRADICTED)
    conn = sqlite3.connect(db)
    conn.executescript(V1_SCHEMA)
    with conn:
        conn.execute("INSERT INTO documents VALUES ('a.md', 'corpus/a.md', 'ff', 't', 't', 't', 1, ?, ?, 0, "
                     "?)", (REF, PIPE, '{"status": "ok", "format": "md", "mentions": {}}'))
        conn.execute("INSERT INTO claims VALUES ('a.md', 'c1', 0, ?)",
                     (json.dumps(claim.to_dict(), ensure_ascii=False),))
        conn.execute("INSERT INTO decisions VALUES ('c1', 'dismissed', '王编辑', '带宽口径不同', "
                     "'2024-05-01T08:00:00+00:00')")
    conn.close()

    with Store(db) as store:
        assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        decision = store.decisions()["c1"]
        assert (decision.doc_id, decision.text, decision.editor) == ("a.md", claim.text, "王编辑")
        assert store.review_status(claim) == "dismissed"
        assert store.load_result("a.md").claims == (claim,)  # type: ignore[union-attr]


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "state.sqlite"
    sqlite3.connect(db).execute("PRAGMA user_version = 99")
    with pytest.raises(UsageError, match=r"newer gpu-factcheck \(schema 99"):
        Store(db)


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "state.sqlite"
    db.write_text("A100 配备 80GB HBM2e 显存\n" * 100, encoding="utf-8")
    with pytest.raises(UsageError, match="not a usable gpu-factcheck state database"):
        Store(db)


def test_a_folder_as_state_path_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="cannot open the state database"):
        Store(tmp_path)


# ---- documents ----------------------------------------------------------------------------------


def test_save_load_round_trip(fresh_store: Store) -> None:
    claims = (
        make_claim("a.html", "c1", "A100 配备 80GB HBM2e 显存", Verdict.SUPPORTED, offset_in_sentence=6,
                   rule="memory_size/number+unit", spans=[[6, 10], [11, 16]]),
        make_claim("a.html", "c2", "显存带宽为 1.5–2 TB/s", Verdict.CONTRADICTED,
                   attribute="memory_bandwidth", value=[1.5, 2.0], unit="TB/s", expected="2.0 TB/s"),
        make_claim("a.html", "c3", "据说很快", None, subject=None, value=None, unit=None),
    )
    result = make_result("a.html", claims, text="<p>A100 配备 80GB HBM2e 显存</p> 的正文")
    fresh_store.save_result(fresh_store.begin_run(REF, PIPE), result, REF, PIPE)

    loaded = fresh_store.load_result("a.html")
    assert loaded == result
    assert loaded is not None and loaded.mentions == result.mentions and loaded.text == result.text
    assert [c.extra for c in loaded.claims] == [c.extra for c in claims]
    assert [c.to_dict() for c in loaded.claims] == [c.to_dict() for c in claims]
    assert fresh_store.load_result("missing.md") is None


def test_save_replaces_claims_and_keeps_first_seen(fresh_store: Store) -> None:
    run = fresh_store.begin_run(REF, PIPE)
    fresh_store.save_result(run, make_result("a.md", gpu_claims("a.md")), REF, PIPE)
    fresh_store.save_result(run, make_result("a.md", gpu_claims("a.md")[:2], sha256="bb" * 32), REF, PIPE)
    loaded = fresh_store.load_result("a.md")
    assert loaded is not None and [c.claim_id for c in loaded.claims] == ["a.md-ok", "a.md-bw"]
    assert loaded.sha256 == "bb" * 32
    assert sqlite3.connect(fresh_store.path).execute("SELECT COUNT(*) FROM claims").fetchone()[0] == 2


def test_text_is_absent_when_not_given(fresh_store: Store) -> None:
    fresh_store.save_result(1, make_result("a.md"), REF, PIPE)
    raw = sqlite3.connect(fresh_store.path).execute("SELECT result FROM documents").fetchone()[0]
    assert '"text"' not in raw
    assert fresh_store.load_result("a.md") == make_result("a.md")


def test_error_results_are_stored(fresh_store: Store) -> None:
    bad = DocumentResult("gbk.txt", "corpus/gbk.txt", "txt", "", Status.ERROR, "cannot decode: 不是 UTF-8")
    fresh_store.save_result(1, bad, REF, PIPE)
    assert fresh_store.load_result("gbk.txt") == bad
    assert fresh_store.document("gbk.txt").status == "error"  # type: ignore[union-attr]


@pytest.mark.parametrize("claim_ids", [("c1", ""), ("c1", "c1")])
def test_claims_need_unique_ids(fresh_store: Store, claim_ids: tuple[str, str]) -> None:
    claims = tuple(make_claim("a.md", cid, "A100 配备 80GB 显存", Verdict.SUPPORTED) for cid in claim_ids)
    with pytest.raises(ValueError, match="unique claim_id"):
        fresh_store.save_result(1, make_result("a.md", claims), REF, PIPE)
    assert fresh_store.document("a.md") is None  # nothing half-written


# fmt: off
CURRENT_CASES = [
    # (sha256,  reference, pipeline, current)
    ("aa" * 32, REF,         PIPE,    True),
    ("cc" * 32, REF,         PIPE,    False),
    ("aa" * 32, "ref-2024.07", PIPE,  False),
    ("aa" * 32, REF,         "0.2.0", False),
]
# fmt: on


@pytest.mark.parametrize(("sha", "ref", "pipe", "current"), CURRENT_CASES)
def test_is_current(fresh_store: Store, sha: str, ref: str, pipe: str, current: bool) -> None:
    fresh_store.save_result(1, make_result("a.md"), REF, PIPE)
    assert fresh_store.is_current("a.md", sha, ref, pipe) is current


def test_is_current_false_for_unknown_and_deleted(fresh_store: Store) -> None:
    assert not fresh_store.is_current("a.md", "aa" * 32, REF, PIPE)
    fresh_store.save_result(1, make_result("a.md"), REF, PIPE)
    fresh_store.mark_deleted([])
    assert not fresh_store.is_current("a.md", "aa" * 32, REF, PIPE)


def test_document_record(fresh_store: Store) -> None:
    fresh_store.save_result(1, make_result("a.md"), REF, PIPE)
    doc = fresh_store.document("a.md")
    assert doc is not None
    assert (doc.doc_id, doc.path, doc.sha256, doc.reference_version, doc.pipeline_version, doc.deleted) == (
        "a.md", "corpus/a.md", "aa" * 32, REF, PIPE, False)
    assert datetime.fromisoformat(doc.last_processed).utcoffset() is not None


def test_mark_deleted_and_reappear(fresh_store: Store) -> None:
    run = fresh_store.begin_run(REF, PIPE)
    for doc_id in ("a.md", "b.md", "c.md"):
        fresh_store.save_result(run, make_result(doc_id, gpu_claims(doc_id)), REF, PIPE)
    assert fresh_store.mark_deleted(["a.md", "c.md", "new.md"]) == ["b.md"]
    assert fresh_store.mark_deleted(["a.md", "c.md"]) == []  # already deleted: not reported again
    assert fresh_store.current_doc_ids() == ["a.md", "c.md"]
    assert fresh_store.document("b.md").deleted  # type: ignore[union-attr]
    assert {c["doc_id"] for c in fresh_store.list_claims()} == {"a.md", "c.md"}

    fresh_store.touch(run, "b.md", "corpus/b.md")
    assert fresh_store.current_doc_ids() == ["a.md", "b.md", "c.md"]
    fresh_store.mark_deleted(["a.md"])
    fresh_store.save_result(run, make_result("c.md"), REF, PIPE)
    assert fresh_store.current_doc_ids() == ["a.md", "c.md"]


def test_touch_needs_a_stored_document(fresh_store: Store) -> None:
    with pytest.raises(ValueError, match="not in the state"):
        fresh_store.touch(1, "ghost.md", "corpus/ghost.md")


def test_runs(fresh_store: Store) -> None:
    assert fresh_store.last_run() is None
    first = fresh_store.begin_run(REF, PIPE)
    fresh_store.finish_run(first, {"documents": 3, "flags": 2}, 1)
    second = fresh_store.begin_run(REF, "0.2.0")
    run = fresh_store.last_run()
    assert run is not None and (run.id, run.finished, run.pipeline_version) == (second, None, "0.2.0")
    fresh_store.finish_run(second, {"documents": 3}, 0)
    run = fresh_store.last_run()
    assert run is not None and (run.counts, run.exit_status) == ({"documents": 3}, 0) and run.finished
    with pytest.raises(ValueError, match="no run"):
        fresh_store.finish_run(999, {}, 0)


# ---- review -------------------------------------------------------------------------------------


def test_decide_records_who_when_and_what(reviewed: Store) -> None:
    d = reviewed.decide("a.md-bw", "dismissed", " 王编辑 ", "官方口径为 2TB/s 以上")
    assert (d.claim_id, d.status, d.editor, d.doc_id, d.text) == (
        "a.md-bw", "dismissed", "王编辑", "a.md", "H100 的显存带宽为 2TB/s")
    assert datetime.fromisoformat(d.decided_at).utcoffset().total_seconds() == 0  # type: ignore[union-attr]
    assert reviewed.decisions() == {"a.md-bw": d}
    again = reviewed.decide("a.md-bw", "corrected", "李编辑")
    assert reviewed.decisions() == {"a.md-bw": again}


@pytest.mark.parametrize(("claim_id", "status", "editor", "message"), [
    ("nope", "dismissed", "王编辑", "unknown claim id 'nope'"),
    ("a.md-bw", "closed", "王编辑", "unknown review status 'closed'"),
    ("a.md-bw", "ignored", "王编辑", "use one of: open, accepted, dismissed, corrected"),
    ("a.md-bw", "accepted", "  ", "--editor NAME"),
])
def test_decide_rejects(reviewed: Store, claim_id: str, status: str, editor: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        reviewed.decide(claim_id, status, editor)
    assert reviewed.decisions() == {}


def test_cannot_decide_on_a_deleted_documents_claim(reviewed: Store) -> None:
    reviewed.mark_deleted(["b.md"])
    with pytest.raises(UsageError, match="unknown claim id"):
        reviewed.decide("a.md-bw", "dismissed", "王编辑")


def test_decision_survives_a_rerun_until_the_text_changes(reviewed: Store) -> None:
    claims = gpu_claims("a.md")
    reviewed.decide("a.md-bw", "dismissed", "王编辑")
    reviewed.save_result(2, make_result("a.md", claims, sha256="dd" * 32), REF, "0.2.0")
    loaded = reviewed.load_result("a.md")
    assert loaded is not None and reviewed.review_status(loaded.claims[1]) == "dismissed"

    edited = make_claim("a.md", "a.md-bw", "H100 的显存带宽为 3TB/s", Verdict.CONTRADICTED)
    reviewed.save_result(3, make_result("a.md", (claims[0], edited)), REF, "0.2.0")
    assert reviewed.review_status(edited) == "open"
    assert reviewed.list_claims(doc_id="a.md", flagged_only=True)[0]["review_status"] == "open"
    assert "editor" not in reviewed.list_claims(doc_id="a.md", flagged_only=True)[0]
    assert reviewed.review_status(claims[2]) == "open"  # never decided


def test_open_flags_counts_open_and_accepted_only(reviewed: Store) -> None:
    assert reviewed.open_flags("a.md") == 3  # supported and unverifiable are not flags
    reviewed.decide("a.md-bw", "dismissed", "王编辑")
    assert reviewed.open_flags("a.md") == 2
    reviewed.decide("a.md-mi", "accepted", "王编辑", "确实是 AMD 的产品")
    assert reviewed.open_flags("a.md") == 2
    reviewed.decide("a.md-fp", "corrected", "王编辑")
    assert reviewed.open_flags("a.md") == 1
    assert reviewed.open_flags("b.md") == 3


def test_list_claims_filters(reviewed: Store) -> None:
    reviewed.decide("a.md-mi", "dismissed", "王编辑", "引用的是代工方")

    def ids(**kw: Any) -> list[str]:
        return [c["claim_id"] for c in reviewed.list_claims(**kw)]

    assert len(ids()) == 10
    assert ids(flagged_only=True, doc_id="a.md") == ["a.md-bw", "a.md-mi", "a.md-fp"]
    assert ids(verdict="misattributed") == ["a.md-mi", "b.md-mi"]
    assert ids(status="dismissed") == ["a.md-mi"]
    assert ids(status="open", verdict="unverifiable") == ["a.md-tdp", "b.md-tdp"]
    assert ids(subject="H100-SXM") == ["a.md-bw", "b.md-bw"]
    row = reviewed.list_claims(status="dismissed")[0]
    assert (row["editor"], row["note"], row["review_status"], row["expected"]) == (
        "王编辑", "引用的是代工方", "dismissed", "AMD")
    with pytest.raises(UsageError, match="unknown verdict 'wrong'"):
        reviewed.list_claims(verdict="wrong")
    with pytest.raises(UsageError, match="unknown review status"):
        reviewed.list_claims(status="closed")


# ---- lock ---------------------------------------------------------------------------------------


def test_lock_contention_in_one_process(fresh_store: Store) -> None:
    with Store(fresh_store.path) as other:
        with fresh_store.lock(timeout=0):
            started = time.monotonic()
            message = r"another run holds the lock on .*state\.sqlite; .*--lock-timeout SECONDS"
            with pytest.raises(LockedError, match=message), other.lock(timeout=0.2):
                pass  # pragma: no cover
            assert time.monotonic() - started < 2
        with other.lock(timeout=0):
            assert (fresh_store.path.parent / "state.sqlite.lock").exists()


HOLD_LOCK = """
import sys, time
from pathlib import Path
from pipeline.state.store import Store
with Store(Path(sys.argv[1])) as store, store.lock(timeout=5):
    print("locked", flush=True)
    time.sleep(60)
"""


def test_lock_held_by_another_process_is_freed_when_it_dies(fresh_store: Store) -> None:
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(fresh_store.path)], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        with pytest.raises(LockedError), fresh_store.lock(timeout=0.2):
            pass  # pragma: no cover
    finally:
        holder.kill()
        holder.wait(10)
    with fresh_store.lock(timeout=5):
        pass


# ---- kill -9 mid-run ----------------------------------------------------------------------------

KILL_MID_SAVE = """
import os, pickle, signal, sys
from pathlib import Path
from pipeline.state import store as store_mod

db, blob, kill_at = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
results = pickle.loads(blob.read_bytes())
store = store_mod.Store(db)
run = store.begin_run("ref-2024.06", "0.1.0")
real_claim_json = store_mod._claim_json
written = []

def dying_claim_json(claim):
    written.append(claim)
    if len(written) == 2:  # inside the transaction: document row upserted, old claims deleted
        os.kill(os.getpid(), signal.SIGKILL)
    return real_claim_json(claim)

for i, result in enumerate(results):
    if i == kill_at:
        store_mod._claim_json = dying_claim_json
    store.save_result(run, result, "ref-2024.06", "0.1.0")
"""


def test_kill_mid_run_loses_nothing_committed(tmp_path: Path) -> None:
    db = tmp_path / "state.sqlite"
    results = [make_result(f"doc{i}.md", gpu_claims(f"doc{i}.md"), sha256=f"{i:02d}" * 32) for i in range(6)]
    kill_at = 3
    old = make_result("doc3.md", gpu_claims("doc3.md")[:1], sha256="ee" * 32)
    with Store(db) as store:  # doc3 from an earlier run: must survive the interrupted re-save
        store.save_result(store.begin_run(REF, PIPE), old, REF, PIPE)
    blob = tmp_path / "results.pickle"
    blob.write_bytes(pickle.dumps(results))

    proc = subprocess.run([sys.executable, "-c", KILL_MID_SAVE, str(db), str(blob), str(kill_at)], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == -signal.SIGKILL, proc.stderr

    with Store(db) as store:
        assert sqlite3.connect(db).execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        for result in results[:kill_at]:
            assert store.load_result(result.doc_id) == result
        assert store.load_result("doc3.md") == old
        assert [store.load_result(r.doc_id) for r in results[kill_at + 1:]] == [None, None]
        assert store.last_run().finished is None  # type: ignore[union-attr]

        run = store.begin_run(REF, PIPE)
        for result in results[kill_at:]:
            store.save_result(run, result, REF, PIPE)
        conn = sqlite3.connect(db)
        assert conn.execute("SELECT COUNT(*) FROM claims").fetchone()[0] == 6 * 5
        assert conn.execute("SELECT COUNT(*) FROM documents").fetchone()[0] == 6
        duplicates = "SELECT claim_id FROM claims GROUP BY claim_id HAVING COUNT(*) > 1"
        assert conn.execute(duplicates).fetchall() == []
        assert [store.load_result(r.doc_id) for r in results] == results


# ---- results serialised once (in a worker), saved in batches

# fmt: off
EXTRAS = [
    # claim extra,                                    value
    ({},                                               80),
    ({"offset_in_sentence": 3, "written_unit": "TB/s"}, 2.0),
    ({"verdict": "stray", "note": "一个说明"},          [16, 32]),   # a stray key the contract overrides
    ({"offset_in_sentence": 0},                        float("nan")),
]
# fmt: on


@pytest.mark.parametrize(("extra", "value"), EXTRAS)
def test_prepared_from_encoded_records_is_what_save_result_stores(extra: dict[str, Any], value: Any) -> None:
    from dataclasses import replace

    from pipeline.state.store import prepare_result

    claims = tuple(replace(c, extra=dict(extra), value=value) for c in gpu_claims("a.md"))
    result = make_result("a.md", claims)
    records = [json.dumps(c.to_dict(), ensure_ascii=False) for c in claims]
    assert prepare_result(result, PIPE, records) == prepare_result(result, PIPE)


def test_a_batch_saves_like_one_document_at_a_time(tmp_path: Path) -> None:
    from pipeline.state.store import prepare_result

    results = [make_result(f"{n}.md", gpu_claims(f"{n}.md")) for n in ("a", "b", "c")]
    with Store(tmp_path / "one.sqlite") as one, Store(tmp_path / "batch.sqlite") as batch:
        for r in results:
            one.save_result(1, r, REF, PIPE)
        batch.save_prepared(1, [prepare_result(r, PIPE) for r in results], REF)
        for r in results:
            assert batch.load_result(r.doc_id) == one.load_result(r.doc_id) == r
        assert batch.current_doc_ids() == one.current_doc_ids() == ["a.md", "b.md", "c.md"]


# ---- issue 27, point 6: disk errors say what they are ----------------------------------------------

ARTICLE = "RTX 4090评测\n\nRTX 4090配备了32GB的GDDR6X显存。\n"


def _limited_state(monkeypatch: pytest.MonkeyPatch, pragma: str = "", read_only: bool = False) -> None:
    """Connections to a state file get ``pragma`` (a full disk: max_page_count), or are opened read-only."""
    import pipeline.state.store as store_mod

    real_connect = sqlite3.connect

    def connect(database: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        if not str(database).endswith(".sqlite"):
            return real_connect(database, *args, **kwargs)
        if read_only:
            return real_connect(f"file:{database}?mode=ro", *args, uri=True, **kwargs)
        conn = real_connect(database, *args, **kwargs)
        conn.execute(pragma)
        return conn

    monkeypatch.setattr(store_mod.sqlite3, "connect", connect)


def _cli(*args: Any) -> Any:
    from typer.testing import CliRunner

    from pipeline.cli import app

    return CliRunner().invoke(app, [str(a) for a in args])


def _error_line(result: Any) -> str:
    return json.loads(result.stderr.strip().splitlines()[-1])["error"]


@pytest.mark.parametrize("state", ["new", "existing"])
def test_a_full_disk_exits_4_saying_disk_full(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, state: str) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.txt").write_text(ARTICLE, encoding="utf-8")
    out = tmp_path / "out"
    pages = 1
    if state == "existing":
        assert _cli("run", corpus, "--out", out, "--workers", "1", "--quiet").exit_code == 0
        (corpus / "b.txt").write_text(ARTICLE * 50, encoding="utf-8")
        conn = sqlite3.connect(out / "state.sqlite")
        conn.execute("VACUUM")
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.close()
    with monkeypatch.context() as mp:
        _limited_state(mp, f"PRAGMA max_page_count = {pages}")
        result = _cli("run", corpus, "--out", out, "--workers", "1", "--quiet")
    assert result.exit_code == 4, result.output
    error = _error_line(result)
    assert error.startswith("disk full") and "move" not in error, error
    assert _cli("run", corpus, "--out", out, "--workers", "1", "--quiet").exit_code == 0  # space again: it runs


@pytest.mark.parametrize("when", ["opening", "writing"])
def test_a_read_only_state_is_one_clear_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, when: str) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.txt").write_text(ARTICLE, encoding="utf-8")
    out = tmp_path / "out"
    assert _cli("run", corpus, "--out", out, "--workers", "1", "--quiet").exit_code == 0
    if when == "opening":  # a state that must be written to as it is opened (not yet in WAL mode)
        sqlite3.connect(out / "state.sqlite").execute("PRAGMA journal_mode = DELETE").fetchall()
    _limited_state(monkeypatch, read_only=True)
    result = _cli("run", corpus, "--out", out, "--workers", "1", "--quiet", "--full")
    assert result.exit_code == 4, result.output
    error = _error_line(result)
    assert "read-only" in error and "\n" not in error and "move" not in error, error


def test_a_commit_that_fails_after_the_journal_took_the_decision_is_one_clear_line(
        reviewed: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """``review dismiss`` on a disk that fills between the journal and the commit: exit 4 and one line, never a
    traceback; the next start (here a run's ``restore_journal``) makes the state agree with the journal."""
    from tests.test_webapp import _failing_commits

    reviewed.close()
    failing = _failing_commits(monkeypatch)
    failing[0] = True
    result = _cli("review", "dismiss", "a.md-bw", "--editor", "王编辑", "--state", reviewed.path)
    failing[0] = False
    assert result.exit_code == 4, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "disk full" in result.stderr and "decisions.jsonl" in result.stderr
    with Store(reviewed.path) as store:
        assert [r["claim_id"] for r in journal_records(store.journal)] == ["a.md-bw"]
        store.restore_journal(store.journal)
        assert {k: d.status for k, d in store.decisions().items()} == {"a.md-bw": "dismissed"}


def journal_records(path: Path) -> list[dict[str, Any]]:
    from pipeline.state import journal

    return list(journal.read(path))
