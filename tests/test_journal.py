"""Decisions are irreplaceable: the journal beside the state, the refusal of an empty or foreign state file, the
restore from the journal, and decisions that follow a claim whose id changed (a renamed article)."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from pipeline.errors import UsageError
from pipeline.records import Verdict
from pipeline.state import journal
from pipeline.state.decisions import Decision, Event, match_orphans
from pipeline.state.store import Store
from tests.store_builders import PIPE, REF, gpu_claims, make_claim, make_result


def records(path: Path) -> list[dict]:  # type: ignore[type-arg]
    return list(journal.read(path))


# ---- the journal --------------------------------------------------------------------------------


def test_journal_sits_beside_the_state(tmp_path: Path) -> None:
    assert journal.journal_path(tmp_path / "state.sqlite") == tmp_path / "decisions.jsonl"
    assert journal.journal_path(tmp_path / "night.sqlite") == tmp_path / "night.decisions.jsonl"


def test_every_decision_is_appended_and_fsynced_before_it_counts(reviewed: Store,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd))[1])
    reviewed.decide("a.md-bw", "dismissed", "王编辑", "口径不同")
    reviewed.decide("a.md-bw", "open", "李编辑", "再看看")
    reviewed.decide("a.md-mi", "corrected", "李编辑", correction="MI300X 由 AMD 推出")
    reviewed.assign("a.md", "李编辑", "王主编")
    lines = records(reviewed.journal)
    assert [(r["type"], r.get("claim_id"), r.get("from"), r.get("to"), r["user"]) for r in lines] == [
        ("decision", "a.md-bw", "open", "dismissed", "王编辑"),
        ("decision", "a.md-bw", "dismissed", "open", "李编辑"),
        ("decision", "a.md-mi", "open", "corrected", "李编辑"),
        ("assignment", None, None, None, "王主编"),
    ]
    assert lines[2]["correction"] == "MI300X 由 AMD 推出" and lines[0]["sentence"].startswith("据官方资料")
    assert len(synced) >= 4  # one fsync per change at least
    unjournaled = sqlite3.connect(reviewed.path).execute("SELECT COUNT(*) FROM events WHERE journaled = 0")
    assert unjournaled.fetchone()[0] == 0


def test_a_journal_that_cannot_be_written_records_nothing(reviewed: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    def full_disk(path: Path, recs: object) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(journal, "append", full_disk)
    with pytest.raises(UsageError, match=r"cannot write the decisions journal .* nothing was recorded"):
        reviewed.decide("a.md-bw", "dismissed", "王编辑")
    assert reviewed.decisions() == {} and reviewed.history("a.md-bw") == []


def test_a_torn_last_line_is_skipped_and_the_next_append_starts_a_new_line(tmp_path: Path) -> None:
    path = tmp_path / "decisions.jsonl"
    journal.append(path, [{"type": "decision", "n": 1}])
    with open(path, "ab") as fh:
        fh.write(b'{"type": "decision", "n": 2, "note": "\xe6\x96')  # killed mid-write
    journal.append(path, [{"type": "decision", "n": 3, "note": "第一行\u2028第二行"}])
    assert [r["n"] for r in records(path)] == [1, 3]
    assert records(path)[1]["note"] == "第一行\u2028第二行"


def test_sync_rewrites_a_lost_journal_and_journals_old_decisions(reviewed: Store) -> None:
    reviewed.decide("a.md-bw", "dismissed", "王编辑")
    reviewed.assign("b.md", "李编辑", "王主编")
    reviewed.journal.unlink()
    assert reviewed.sync_journal() == 2
    assert {r["type"] for r in records(reviewed.journal)} == {"decision", "assignment"}
    assert reviewed.sync_journal() == 0  # nothing new


def test_finish_run_brings_the_journal_up_to_date(reviewed: Store) -> None:
    conn = sqlite3.connect(reviewed.path)
    with conn:  # a decision journaled by nobody, as after an upgrade from schema 2
        conn.execute("INSERT INTO decisions (claim_id, status, editor, note, decided_at, doc_id, text) VALUES "
                     "('a.md-fp', 'accepted', '王编辑', '', '2024-05-01T00:00:00+00:00', 'a.md', "
                     "'V100 的 FP64 算力约 30 TFLOPS')")
        conn.execute("INSERT INTO events (event_id, kind, claim_id, doc_id, at, user_name, from_status, to_status) "
                     "VALUES ('e1', 'decision', 'a.md-fp', 'a.md', '2024-05-01T00:00:00+00:00', '王编辑', 'open', "
                     "'accepted')")
    conn.close()
    run = reviewed.begin_run(REF, PIPE)
    reviewed.finish_run(run, {"documents": 2}, 0)
    assert [r["event_id"] for r in records(reviewed.journal)] == ["e1"]


# ---- refusing a state that is not ours ----------------------------------------------------------


def test_an_empty_state_file_is_refused_naming_the_backup(reviewed: Store, tmp_path: Path) -> None:
    reviewed.decide("a.md-bw", "dismissed", "王编辑")
    state = reviewed.path
    reviewed.close()
    state.write_bytes(b"")
    with pytest.raises(UsageError) as err:
        Store(state)
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith(f"{state} is empty (0 bytes): refusing to start a new state")
    assert f"backed up in {state.parent / 'decisions.jsonl'} (1 decision record(s))" in message
    assert f"python -m pipeline review import {state.parent / 'decisions.jsonl'}" in message
    assert state.read_bytes() == b""  # untouched


def test_an_empty_state_without_a_journal_says_so(tmp_path: Path) -> None:
    state = tmp_path / "state.sqlite"
    state.write_bytes(b"")
    with pytest.raises(UsageError, match=r"no decisions journal found at .*decisions\.jsonl"):
        Store(state)


def test_a_foreign_database_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    state = tmp_path / "state.sqlite"
    other = sqlite3.connect(state)
    other.executescript("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); "
                        "INSERT INTO invoices VALUES (1, 9.5);")
    other.close()
    before = state.read_bytes()
    with pytest.raises(UsageError, match=r"is not a gpu-factcheck state database \(it holds invoices\): refusing"):
        Store(state)
    assert state.read_bytes() == before
    assert not Path(f"{state}-wal").exists()


def test_a_file_of_another_program_with_an_application_id_is_refused(tmp_path: Path) -> None:
    state = tmp_path / "state.sqlite"
    other = sqlite3.connect(state)
    other.execute("PRAGMA application_id = 1234")
    other.execute("CREATE TABLE documents (x)")
    other.close()
    with pytest.raises(UsageError, match="is not a gpu-factcheck state database"):
        Store(state)


# ---- restoring ----------------------------------------------------------------------------------


def test_restore_from_the_journal_rebuilds_decisions_history_and_assignments(reviewed: Store, tmp_path: Path) -> None:
    reviewed.decide("a.md-bw", "dismissed", "王编辑", "口径不同")
    reviewed.decide("a.md-bw", "accepted", "李编辑", "还是要改")
    reviewed.decide("b.md-mi", "corrected", "李编辑", correction="MI300X 由 AMD 推出")
    reviewed.decide("b.md-fp", "dismissed", "李编辑")
    reviewed.decide("b.md-fp", "open", "李编辑")
    reviewed.assign("a.md", "李编辑", "王主编")
    expected, history = reviewed.decisions(), reviewed.history("a.md-bw")
    with Store(tmp_path / "restored" / "state.sqlite") as fresh:
        restored = fresh.restore_journal(reviewed.journal)
        assert (restored.events, restored.assignments, restored.skipped) == (5, 1, 0)
        assert fresh.decisions() == expected
        assert fresh.history("a.md-bw") == history
        assert fresh.assignments() == {"a.md": "李编辑"}
        assert len(records(fresh.journal)) == 6  # a colleague's journal becomes ours too
        again = fresh.restore_journal(reviewed.journal)
        assert (again.events, again.skipped) == (0, 6)


def test_restoring_an_older_journal_keeps_newer_decisions(reviewed: Store, tmp_path: Path) -> None:
    old = tmp_path / "old.jsonl"
    event = Event("old-1", "a.md-bw", "a.md", "2020-01-01T00:00:00+00:00", "老编辑", "open", "accepted",
                  text="H100 的显存带宽为 2TB/s")
    journal.append(old, [event.to_journal()])
    reviewed.decide("a.md-bw", "dismissed", "王编辑")
    reviewed.restore_journal(old)
    assert reviewed.decisions()["a.md-bw"].status == "dismissed"
    assert [e.user for e in reviewed.history("a.md-bw")] == ["王编辑", "老编辑"]


# ---- decisions follow their claim ---------------------------------------------------------------


def decision(claim_id: str, doc_id: str, text: str, sentence: str, start: int) -> Decision:
    return Decision(claim_id, "dismissed", "王编辑", "", "2024-06-01T00:00:00+00:00", doc_id, text, sentence, start)


# fmt: off
MATCH_CASES = [
    # (claims as (claim_id, doc_id, text, sentence, start), orphans as the same, expected pairs)
    ([("n1", "new.md", "32GB", "配备了32GB显存。", 10)],
     [("o1", "old.md", "32GB", "配备了32GB显存。", 10)],                                  [("n1", "o1")]),
    ([("n1", "new.md", "32GB", "配备了32GB显存。", 10)],
     [("o1", "old.md", "32GB", "它配备了32GB显存。", 10)],                                []),  # sentence changed
    ([("n1", "new.md", "32GB", "配备了32GB显存。", 10)],
     [("o1", "old.md", "24GB", "配备了32GB显存。", 10)],                                  []),  # text changed
    ([("n1", "new.md", "32GB", "配备了32GB显存。", 10), ("n2", "new.md", "32GB", "配备了32GB显存。", 90)],
     [("o2", "old.md", "32GB", "配备了32GB显存。", 95), ("o1", "old.md", "32GB", "配备了32GB显存。", 12)],
     [("n1", "o1"), ("n2", "o2")]),                                                           # then by position
    ([("n1", "new.md", "32GB", "配备了32GB显存。", 10)],
     [("o1", "old.md", "32GB", "配备了32GB显存。", 10), ("o2", "new.md", "32GB", "配备了32GB显存。", 50)],
     [("n1", "o2")]),                                                                         # same document first
    ([("n1", "seen.md", "32GB", "配备了32GB显存。", 10)],
     [("o1", "old.md", "32GB", "配备了32GB显存。", 10)],                                  []),  # seen at the time
    ([("n1", "new.md", "32GB", "配备了32GB显存。", 10)],
     [("o1", "old.md", "32GB", "", 10)],                                                  []),  # no sentence kept
]
# fmt: on


@pytest.mark.parametrize(("claims", "orphans", "pairs"), MATCH_CASES)
def test_match_orphans_on_content_then_position(claims: list[tuple[str, str, str, str, int]],
                                                orphans: list[tuple[str, str, str, str, int]],
                                                pairs: list[tuple[str, str]]) -> None:
    built = []
    for cid, doc_id, text, sentence, start in claims:
        c = make_claim(doc_id, cid, text, Verdict.CONTRADICTED)
        built.append(c.__class__(**{**c.__dict__, "sentence": sentence, "start": start}))
    got = match_orphans(built, [decision(*o) for o in orphans], {"new.md": "2024-06-02T00:00:00+00:00"})
    assert [(c.claim_id, d.claim_id) for c, d in got] == pairs


def test_a_renamed_articles_decisions_follow_its_claims(reviewed: Store) -> None:
    reviewed.decide("a.md-bw", "dismissed", "王编辑", "口径不同")
    reviewed.decide("a.md-mi", "corrected", "李编辑", correction="MI300X 由 AMD 推出")
    reviewed.mark_deleted(["b.md"])  # a.md is gone from the corpus ...
    renamed = tuple(c.__class__(**{**c.__dict__, "doc_id": "2024/a.md", "claim_id": "new-" + c.claim_id})
                    for c in gpu_claims("a.md"))
    adopted = reviewed.save_result(2, make_result("2024/a.md", renamed), REF, PIPE)  # ... and back, renamed
    assert {k: d.status for k, d in adopted.items()} == {"new-a.md-bw": "dismissed", "new-a.md-mi": "corrected"}
    assert {k: (d.doc_id, d.status) for k, d in reviewed.decisions().items()} == {
        "new-a.md-bw": ("2024/a.md", "dismissed"), "new-a.md-mi": ("2024/a.md", "corrected")}
    steps = [(e.user, e.to_status, e.kind) for e in reviewed.history("new-a.md-bw")]
    assert steps == [("王编辑", "dismissed", "decision"), ("gpu-factcheck", "dismissed", "moved")]
    flags = {c["claim_id"]: c["review_status"] for c in reviewed.list_claims(doc_id="2024/a.md", flagged_only=True)}
    assert flags == {"new-a.md-bw": "dismissed", "new-a.md-mi": "corrected", "new-a.md-fp": "open"}
    reviewed.sync_journal()
    moved = [r for r in records(reviewed.journal) if r.get("kind") == "moved"]
    assert sorted(r["moved_from"] for r in moved) == ["a.md-bw", "a.md-mi"]


def test_a_copy_does_not_take_the_originals_decisions(reviewed: Store) -> None:
    reviewed.decide("a.md-bw", "dismissed", "王编辑")
    copy = tuple(c.__class__(**{**c.__dict__, "doc_id": "copy.md", "claim_id": "copy-" + c.claim_id})
                 for c in gpu_claims("a.md"))
    assert reviewed.save_result(2, make_result("copy.md", copy), REF, PIPE) == {}
    assert set(reviewed.decisions()) == {"a.md-bw"}


def test_the_end_of_a_run_moves_decisions_a_save_could_not(reviewed: Store) -> None:
    reviewed.decide("a.md-bw", "dismissed", "王编辑")
    renamed = tuple(c.__class__(**{**c.__dict__, "doc_id": "z.md", "claim_id": "z-" + c.claim_id})
                    for c in gpu_claims("a.md"))
    assert reviewed.save_result(2, make_result("z.md", renamed), REF, PIPE) == {}  # a.md still there
    with sqlite3.connect(reviewed.path) as conn:  # b.md says the same, but the editor saw it when deciding
        conn.execute("UPDATE documents SET first_seen = '2020-01-01T00:00:00+00:00' WHERE doc_id = 'b.md'")
    reviewed.mark_deleted(["b.md", "z.md"])
    assert reviewed.adopt_orphans() == 1
    assert reviewed.decisions()["z-a.md-bw"].status == "dismissed"
    assert "b.md-bw" not in reviewed.decisions()


def test_an_edited_sentence_does_not_take_the_decision(reviewed: Store) -> None:
    reviewed.decide("a.md-bw", "dismissed", "王编辑")
    reviewed.mark_deleted(["b.md"])
    edited = make_claim("c.md", "c-bw", "H100 的显存带宽为 2TB/s", Verdict.CONTRADICTED)
    edited = edited.__class__(**{**edited.__dict__, "sentence": "据媒体报道，H100 的显存带宽为 2TB/s。"})
    assert reviewed.save_result(2, make_result("c.md", (edited,)), REF, PIPE) == {}
    assert json.dumps(reviewed.list_claims(doc_id="c.md")[0]["review_status"]) == '"open"'


def test_decisions_from_before_the_journal_get_a_history_step_and_are_journaled(tmp_path: Path) -> None:
    from pipeline.state.schema import MIGRATIONS

    db = tmp_path / "state.sqlite"
    claim = make_claim("a.md", "c1", "H100 的显存带宽为 2TB/s", Verdict.CONTRADICTED)
    conn = sqlite3.connect(db, isolation_level=None)
    for step in MIGRATIONS[:2]:  # a state written by a version with schema 2
        step(conn)
    conn.execute("PRAGMA user_version = 2")
    conn.execute("INSERT INTO documents VALUES ('a.md', 'corpus/a.md', 'ff', 't', 't', 't', 1, ?, ?, 0, ?)",
                 (REF, PIPE, '{"status": "ok", "format": "md", "mentions": {}}'))
    conn.execute("INSERT INTO claims VALUES ('a.md', 'c1', 0, ?)", (json.dumps(claim.to_dict(), ensure_ascii=False),))
    conn.execute("INSERT INTO decisions VALUES ('c1', 'dismissed', '王编辑', '口径不同', '2024-05-01T08:00:00+00:00', "
                 "'a.md', ?)", (claim.text,))
    conn.close()
    with Store(db) as store:
        assert [(e.user, e.from_status, e.to_status, e.note) for e in store.history("c1")] == [
            ("王编辑", "open", "dismissed", "口径不同")]
        assert store.decisions()["c1"].sentence == claim.sentence  # so that a rename can be matched later
        assert not store.journal.exists()
        store.finish_run(store.begin_run(REF, PIPE), {}, 0)
        assert [(r["claim_id"], r["to"]) for r in records(store.journal)] == [("c1", "dismissed")]


def test_in_a_batch_the_first_renamed_copy_takes_the_decision_as_if_saved_alone(reviewed: Store) -> None:
    """Two renamed copies of a.md saved in one batch: the first takes its decision, as two saves in a row do."""
    from pipeline.state.store import prepare_result

    reviewed.decide("a.md-bw", "dismissed", "王编辑")
    reviewed.mark_deleted(["b.md"])
    copies = [make_result(d, tuple(c.__class__(**{**c.__dict__, "doc_id": d, "claim_id": f"{d}-{c.claim_id}"})
                                   for c in gpu_claims("a.md"))) for d in ("y.md", "x.md")]
    adopted = reviewed.save_prepared(2, [prepare_result(r, PIPE) for r in copies], REF)
    assert {k: d.doc_id for k, d in adopted.items()} == {"y.md-a.md-bw": "y.md"}
    assert set(reviewed.decisions()) == {"y.md-a.md-bw"}


# ---- issue 27: the journal is the truth for decisions ------------------------------------------------

ARTICLE = "RTX 4090评测\n\nRTX 4090配备了32GB的GDDR6X显存。\n"
_HOLD_OPEN = """
import sqlite3, sys, time

conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN")
conn.execute("SELECT COUNT(*) FROM documents").fetchone()  # a read that keeps its snapshot, as a run does mid-batch
print("holding", flush=True)
time.sleep(600)
"""
_DECIDE_AND_DIE = """
import os, signal, sys
from pipeline.state.store import Store

store = Store(sys.argv[1])
ids = sys.argv[2].split(",")
for n in range(60):
    store.decide(ids[n % len(ids)], ("dismissed", "accepted")[n % 2], "王编辑", f"第{n}次")
    print(n, flush=True)  # acknowledged: the app would have answered 200
os.kill(os.getpid(), signal.SIGKILL)  # killed as the server was, with the run that held the state open
"""


def _corpus(tmp_path: Path, files: dict[str, str]) -> Path:
    corpus = tmp_path / "corpus"
    corpus.mkdir(exist_ok=True)
    for name, text in files.items():
        (corpus / name).write_text(text, encoding="utf-8")
    return corpus


def _run(corpus: Path, out: Path) -> Any:
    from pipeline.config import Config
    from pipeline.run import RunOptions, run

    return run(RunOptions(corpus=corpus, config=Config(out_dir=out, workers=1)))


def _claims(out: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in (out / "claims.jsonl").read_text(encoding="utf-8").splitlines()]


def test_decisions_lost_with_the_wal_are_replayed_from_the_journal_by_the_next_run(tmp_path: Path) -> None:
    """60 acknowledged decisions, the processes killed, state.sqlite-wal deleted: the next run has every one of them
    again, and says how many it took from the journal (point 5)."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    corpus = _corpus(tmp_path, {f"a{i}.txt": ARTICLE.replace("32GB", f"{32 + 8 * i}GB") for i in range(3)})
    out = tmp_path / "out"
    _run(corpus, out)
    flagged = [c["claim_id"] for c in _claims(out) if c["verdict"] == "contradicted"]
    env = {**os.environ, "PYTHONPATH": str(root)}
    holder = subprocess.Popen([sys.executable, "-c", _HOLD_OPEN, str(out / "state.sqlite")], stdout=subprocess.PIPE,
                              text=True, cwd=root, env=env)  # a run holding the state open
    assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
    proc = subprocess.run([sys.executable, "-c", _DECIDE_AND_DIE, str(out / "state.sqlite"), ",".join(flagged)],
                          capture_output=True, text=True, cwd=root, env=env)
    holder.kill()
    holder.wait()
    assert proc.stdout.split() == [str(n) for n in range(60)], proc.stderr
    last = {}
    for rec in journal.read(out / "decisions.jsonl"):
        last[rec["claim_id"]] = rec["to"]
    os.unlink(out / "state.sqlite-wal")
    (out / "state.sqlite-shm").unlink(missing_ok=True)
    with Store(out / "state.sqlite") as store:
        assert store.decisions() == {}  # what was lost
    summary = _run(corpus, out)
    assert summary.exit_code == 0
    shown = {c["claim_id"]: c["review_status"] for c in _claims(out) if c["claim_id"] in last}
    assert shown == last
    assert summary.restored_from_journal == 60
    with Store(out / "state.sqlite") as store:
        assert len(store.history(flagged[0])) == 20


def test_a_decision_follows_its_claim_through_renames_back_to_the_first_name(tmp_path: Path) -> None:
    """Dismissed in a.txt, renamed to b.txt (it follows), renamed back to a.txt: still dismissed (point 7)."""
    corpus = _corpus(tmp_path, {"a.txt": ARTICLE, "other.txt": "L4的显存为24GB。\n"})
    out = tmp_path / "out"
    _run(corpus, out)
    claim = next(c for c in _claims(out) if c["verdict"] == "contradicted")
    with sqlite3.connect(out / "state.sqlite") as conn:  # the articles were there a while before the editor came
        conn.execute("UPDATE documents SET first_seen = '2024-01-01T00:00:00+00:00'")
    with Store(out / "state.sqlite") as store:
        store.decide(claim["claim_id"], "dismissed", "王编辑", "误报")
    for old, new in (("a.txt", "b.txt"), ("b.txt", "a.txt"), ("a.txt", "c.txt"), ("c.txt", "a.txt")):
        (corpus / old).rename(corpus / new)
        _run(corpus, out)
        moved = [c for c in _claims(out) if c["doc_id"] == new and c["text"] == claim["text"]]
        assert [c["review_status"] for c in moved] == ["dismissed"], f"after renaming {old} to {new}"
    with Store(out / "state.sqlite") as store:
        assert [d.doc_id for d in store.decisions().values()] == ["a.txt"]
        restored = tmp_path / "restored.sqlite"
        with Store(restored) as fresh:
            fresh.restore_journal(store.journal)
            assert fresh.decisions() == store.decisions()


def test_an_older_decision_from_a_csv_loses_to_the_current_one_in_the_state_and_in_the_journal(
        reviewed: Store, tmp_path: Path) -> None:
    """"Newer wins" holds for a CSV import as for a replay of the journal, so both give the same state (point 7)."""
    from pipeline.state.decisions_csv import import_decisions_csv

    reviewed.decide("a.md-bw", "dismissed", "王编辑", "误报")
    csv_file = tmp_path / "old.csv"
    csv_file.write_text("claim_id,doc_id,text,status,editor,note,decided_at,correction\n"
                        "a.md-bw,a.md,H100 的显存带宽为 2TB/s,accepted,老编辑,旧的决定,2020-01-01T00:00:00+00:00,\n"
                        "a.md-mi,a.md,MI300X 由英伟达推出,accepted,老编辑,,2020-01-01T00:00:00+00:00,\n",
                        encoding="utf-8")
    import_decisions_csv(reviewed, csv_file)
    in_state = {k: d.status for k, d in reviewed.decisions().items()}
    assert in_state == {"a.md-bw": "dismissed", "a.md-mi": "accepted"}
    with Store(tmp_path / "again" / "state.sqlite") as fresh:
        fresh.restore_journal(reviewed.journal)
        assert {k: d.status for k, d in fresh.decisions().items()} == in_state
