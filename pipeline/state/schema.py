"""The state database's schema: migrations, and the check that a file is ours before anything is written to it.

Append a function to MIGRATIONS to change the schema; never edit one that has shipped. ``PRAGMA user_version``
holds how many have been applied; ``PRAGMA application_id`` marks the file as a gpu-factcheck state (from v3).
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Callable
from pathlib import Path

from ..errors import UsageError
from . import journal

APPLICATION_ID = 0x67666373  # "gfcs"
OUR_TABLES = frozenset({"documents", "runs", "claims", "decisions"})


def _v1_tables(conn: sqlite3.Connection) -> None:
    conn.execute("""CREATE TABLE documents (
        doc_id TEXT PRIMARY KEY, path TEXT NOT NULL, sha256 TEXT NOT NULL,
        first_seen TEXT NOT NULL, last_seen TEXT NOT NULL, last_processed TEXT NOT NULL,
        last_run INTEGER, reference_version TEXT NOT NULL, pipeline_version TEXT NOT NULL,
        deleted INTEGER NOT NULL DEFAULT 0, result TEXT NOT NULL)""")
    conn.execute("""CREATE TABLE runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT, started TEXT NOT NULL, finished TEXT,
        reference_version TEXT NOT NULL, pipeline_version TEXT NOT NULL, counts TEXT, exit_status INTEGER)""")
    conn.execute("""CREATE TABLE claims (
        doc_id TEXT NOT NULL REFERENCES documents(doc_id) ON DELETE CASCADE,
        claim_id TEXT NOT NULL, position INTEGER NOT NULL, data TEXT NOT NULL,
        PRIMARY KEY (doc_id, claim_id))""")
    conn.execute("""CREATE TABLE decisions (
        claim_id TEXT PRIMARY KEY,
        status TEXT NOT NULL CHECK (status IN ('accepted', 'dismissed', 'corrected')),
        editor TEXT NOT NULL, note TEXT NOT NULL DEFAULT '', decided_at TEXT NOT NULL)""")


def _v2_decision_snapshot(conn: sqlite3.Connection) -> None:
    """Decisions remember the claim's text and document, so a changed claim reopens."""
    conn.execute("ALTER TABLE decisions ADD COLUMN doc_id TEXT NOT NULL DEFAULT ''")
    conn.execute("ALTER TABLE decisions ADD COLUMN text TEXT NOT NULL DEFAULT ''")
    conn.execute("CREATE INDEX claims_by_claim_id ON claims (claim_id)")
    # Decisions made before v2 are taken to be about the claim as it stands now.
    rows = conn.execute("SELECT d.claim_id, c.doc_id, c.data FROM decisions d "
                        "JOIN claims c ON c.claim_id = d.claim_id").fetchall()
    for claim_id, doc_id, data in rows:
        conn.execute("UPDATE decisions SET doc_id = ?, text = ? WHERE claim_id = ?",
                     (doc_id, json.loads(data)["text"], claim_id))


def _v3_history(conn: sqlite3.Connection) -> None:
    """Every decision kept as history (and journaled), decisions that follow a renamed article, assignments."""
    conn.execute("ALTER TABLE decisions ADD COLUMN sentence TEXT NOT NULL DEFAULT ''")
    conn.execute("ALTER TABLE decisions ADD COLUMN start INTEGER NOT NULL DEFAULT -1")
    conn.execute("ALTER TABLE decisions ADD COLUMN correction TEXT NOT NULL DEFAULT ''")
    conn.execute("CREATE INDEX decisions_by_text ON decisions (text)")
    rows = conn.execute("SELECT d.claim_id, d.text, c.data FROM decisions d "
                        "JOIN claims c ON c.claim_id = d.claim_id AND c.doc_id = d.doc_id").fetchall()
    for claim_id, text, data in rows:
        claim = json.loads(data)
        if claim["text"] == text:
            conn.execute("UPDATE decisions SET sentence = ?, start = ? WHERE claim_id = ?",
                         (claim.get("sentence", ""), int(claim.get("start", -1)), claim_id))
    conn.execute("""CREATE TABLE events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,
        claim_id TEXT NOT NULL, doc_id TEXT NOT NULL, at TEXT NOT NULL, user_name TEXT NOT NULL,
        from_status TEXT NOT NULL, to_status TEXT NOT NULL
            CHECK (to_status IN ('open', 'accepted', 'dismissed', 'corrected')),
        note TEXT NOT NULL DEFAULT '', correction TEXT NOT NULL DEFAULT '', text TEXT NOT NULL DEFAULT '',
        sentence TEXT NOT NULL DEFAULT '', start INTEGER NOT NULL DEFAULT -1, moved_from TEXT NOT NULL DEFAULT '',
        journaled INTEGER NOT NULL DEFAULT 0)""")
    conn.execute("CREATE INDEX events_by_claim ON events (claim_id, seq)")
    conn.execute("CREATE INDEX events_by_moved_from ON events (moved_from) WHERE moved_from != ''")
    conn.execute("CREATE INDEX events_to_journal ON events (seq) WHERE journaled = 0")
    # Decisions made before v3 start their history with one step: from open to where they are.
    old = conn.execute("SELECT claim_id, doc_id, decided_at, editor, status, note, text, sentence, start "
                       "FROM decisions ORDER BY decided_at, claim_id").fetchall()
    conn.executemany("INSERT INTO events (event_id, kind, claim_id, doc_id, at, user_name, from_status, to_status, "
                     "note, text, sentence, start) VALUES (?, 'decision', ?, ?, ?, ?, 'open', ?, ?, ?, ?, ?)",
                     [(uuid.uuid4().hex, *row) for row in old])
    conn.execute("""CREATE TABLE assignments (
        doc_id TEXT PRIMARY KEY, assignee TEXT NOT NULL, assigned_by TEXT NOT NULL, assigned_at TEXT NOT NULL,
        event_id TEXT NOT NULL, journaled INTEGER NOT NULL DEFAULT 0)""")
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_v1_tables, _v2_decision_snapshot, _v3_history)
SCHEMA_VERSION: int = len(MIGRATIONS)


def refuse_empty(path: Path) -> None:
    """An existing 0-byte file is a lost state, not a new one: starting over would lose every decision.

    Raises:
        UsageError: ``path`` is an empty file (the message names the journal to restore from).
    """
    try:
        empty = path.is_file() and path.stat().st_size == 0
    except OSError:
        return
    if empty:
        raise UsageError(f"{path} is empty (0 bytes): refusing to start a new state over it and lose the "
                         f"editors' decisions; {_restore_hint(path)}")


def check_ours(conn: sqlite3.Connection, path: Path) -> None:
    """Refuse a database another program wrote (or a newer gpu-factcheck) before migrating anything in it.

    Raises:
        UsageError: newer schema, or not a gpu-factcheck state.
    """
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise UsageError(f"{path} was written by a newer gpu-factcheck (schema {version}, "
                         f"this one knows {SCHEMA_VERSION}); upgrade gpu-factcheck "
                         "or pass --state with another path")
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                         "AND name NOT LIKE 'sqlite_%'")}
    if app_id == APPLICATION_ID:
        return
    if app_id == 0 and ((version == 0 and not tables) or (version >= 1 and tables >= OUR_TABLES)):
        return  # a new file, or one written before v3 marked its files
    held = ", ".join(sorted(tables)[:5]) or "no tables"
    raise UsageError(f"{path} is not a gpu-factcheck state database (it holds {held}): refusing to write to "
                     f"it; pass --state with the run's state.sqlite, or {_restore_hint(path)}")


def _restore_hint(path: Path) -> str:
    backup = journal.journal_path(path)
    found = journal.summary(backup)
    if found:
        return (f"the decisions are backed up in {backup} ({found}): move {path.name} away, restore them with "
                f"`python -m pipeline review import {backup}`, then run again")
    return (f"no decisions journal found at {backup}: move {path.name} away and, if it held decisions, "
            "import your last `review export` CSV after the next run")
