"""SQLite state beside the pipeline: what each document produced, the runs, and editors' review decisions.

One file (``<out>/state.sqlite``), WAL mode, one transaction per document save, so a run killed half-way
keeps every document it finished. ``Store.lock`` keeps two runs off the same state.

>>> with Store(Path("reports/state.sqlite")) as store, store.lock(timeout=10):  # doctest: +SKIP
...     run = store.begin_run("ref-2024.06", "0.1.0")
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from enum import Enum
from pathlib import Path
from types import TracebackType
from typing import Any

from filelock import FileLock, Timeout

from .errors import LockedError, UsageError
from .records import Claim, DocumentResult, Status, Verdict, claim_from_dict

DEFAULT_STATE = Path("reports") / "state.sqlite"
BUSY_TIMEOUT_MS = 30_000  # another process mid-write: wait this long before "database is locked"


class ReviewStatus(str, Enum):
    OPEN = "open"  # no decision, or the claim's text changed since the decision
    ACCEPTED = "accepted"  # the flag is right and the article is not fixed yet
    DISMISSED = "dismissed"  # the flag is wrong: never raise it again
    CORRECTED = "corrected"  # the article was fixed


DECISION_STATUSES: tuple[str, ...] = ("accepted", "dismissed", "corrected")
RAISED_STATUSES = frozenset({"open", "accepted"})  # a flag in one of these still counts


@dataclass(frozen=True)
class Decision:
    """An editor's decision on one claim, with the claim's text and document when it was made."""

    claim_id: str
    status: str
    editor: str
    note: str
    decided_at: str
    doc_id: str
    text: str


@dataclass(frozen=True)
class StoredDocument:
    doc_id: str
    path: str
    sha256: str
    reference_version: str
    pipeline_version: str
    last_processed: str
    deleted: bool
    status: str = ""  # the stored result's status: ok | skipped | error


@dataclass(frozen=True)
class Run:
    id: int
    started: str
    finished: str | None  # None: still running, or killed
    reference_version: str
    pipeline_version: str
    counts: dict[str, int]
    exit_status: int | None


# ---- schema -------------------------------------------------------------------------------------
# Append a function to MIGRATIONS to change the schema; never edit one that has shipped.
# PRAGMA user_version holds how many have been applied.


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


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_v1_tables, _v2_decision_snapshot)
SCHEMA_VERSION: int = len(MIGRATIONS)


# ---- helpers ------------------------------------------------------------------------------------


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _claim_json(claim: Claim) -> str:
    # contract fields win over a stray extra key of the same name
    return json.dumps({**claim.extra, **claim.to_dict()}, ensure_ascii=False)


def _is_flag(claim_dict: Mapping[str, Any]) -> bool:
    verdict = claim_dict.get("verdict")
    return bool(verdict) and Verdict(verdict).is_flag


def _choice(value: str, allowed: Iterable[str], what: str) -> str:
    value = value.value if isinstance(value, Enum) else value  # a str Enum from the CLI
    allowed = tuple(allowed)
    if value not in allowed:
        raise UsageError(f"unknown {what} {value!r}; use one of: {', '.join(allowed)}")
    return value


class Store:
    """The state database. Not thread-safe: one Store per thread or process."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # isolation_level=None: we issue BEGIN IMMEDIATE ourselves, so DDL and DML share one transaction
            self._conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise UsageError(f"cannot open the state database {self.path} ({exc}); "
                             "pass --state with a writable path") from exc
        try:
            self._conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self._conn.execute("PRAGMA journal_mode = WAL")
            # WAL + NORMAL: a killed process loses nothing committed; a power cut may lose the last commits
            # (the documents are then simply processed again), never the database. One fsync per checkpoint
            # instead of one per document.
            self._conn.execute("PRAGMA synchronous = NORMAL")
            self._conn.execute("PRAGMA foreign_keys = ON")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            self._conn.close()
            raise UsageError(f"{self.path} is not a usable gpu-factcheck state database ({exc}); "
                             "move it away or pass --state with another path") from exc
        except BaseException:
            self._conn.close()
            raise

    def _migrate(self) -> None:
        with self._write() as conn:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise UsageError(f"{self.path} was written by a newer gpu-factcheck (schema {version}, "
                                 f"this one knows {SCHEMA_VERSION}); upgrade gpu-factcheck "
                                 "or pass --state with another path")
            for number, step in enumerate(MIGRATIONS[version:], version + 1):
                step(conn)
                conn.execute(f"PRAGMA user_version = {number}")

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; IMMEDIATE takes the write lock up front so it never deadlocks midway."""
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield self._conn
            self._conn.execute("COMMIT")
        except BaseException:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
            raise

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """A consistent snapshot across several SELECTs."""
        self._conn.execute("BEGIN")
        try:
            yield self._conn
        finally:
            if self._conn.in_transaction:
                self._conn.execute("COMMIT")

    @contextmanager
    def lock(self, timeout: float = 0.0) -> Iterator[None]:
        """Hold ``<db>.lock`` for a whole run; wait up to ``timeout`` seconds (negative: forever).

        Raises:
            LockedError: another process holds the lock after ``timeout`` seconds.
        """
        file_lock = FileLock(f"{self.path}.lock")
        try:
            file_lock.acquire(timeout=timeout)
        except Timeout:
            raise LockedError(f"another run holds the lock on {self.path}; "
                              "wait for it or pass --lock-timeout SECONDS") from None
        try:
            yield
        finally:
            file_lock.release()

    # ---- runs -------------------------------------------------------------------------------

    def begin_run(self, reference_version: str, pipeline_version: str) -> int:
        with self._write() as conn:
            cur = conn.execute("INSERT INTO runs (started, reference_version, pipeline_version) "
                               "VALUES (?, ?, ?)", (utc_now(), reference_version, pipeline_version))
        return int(cur.lastrowid or 0)

    def finish_run(self, run_id: int, counts: Mapping[str, int], exit_status: int) -> None:
        with self._write() as conn:
            cur = conn.execute("UPDATE runs SET finished = ?, counts = ?, exit_status = ? WHERE id = ?",
                               (utc_now(), json.dumps(dict(counts), ensure_ascii=False), exit_status, run_id))
            if cur.rowcount != 1:
                raise ValueError(f"no run with id {run_id}")

    def last_run(self) -> Run | None:
        """The most recent run, finished or not (``finished`` is None when it was killed)."""
        row = self._conn.execute("SELECT id, started, finished, reference_version, pipeline_version, counts, "
                                 "exit_status FROM runs ORDER BY id DESC LIMIT 1").fetchone()
        if row is None:
            return None
        return Run(row[0], row[1], row[2], row[3], row[4], json.loads(row[5]) if row[5] else {}, row[6])

    # ---- documents --------------------------------------------------------------------------

    def document(self, doc_id: str) -> StoredDocument | None:
        row = self._conn.execute("SELECT doc_id, path, sha256, reference_version, pipeline_version, "
                                 "last_processed, deleted, result FROM documents WHERE doc_id = ?",
                                 (doc_id,)).fetchone()
        if row is None:
            return None
        return StoredDocument(*row[:6], deleted=bool(row[6]), status=json.loads(row[7]).get("status", ""))

    def is_current(self, doc_id: str, sha256: str, reference_version: str, pipeline_version: str) -> bool:
        """True when the stored result can be reused: same bytes, same reference and pipeline, not deleted."""
        doc = self.document(doc_id)
        return (doc is not None and not doc.deleted and doc.sha256 == sha256
                and doc.reference_version == reference_version and doc.pipeline_version == pipeline_version)

    def save_result(self, run_id: int, result: DocumentResult, reference_version: str,
                    pipeline_version: str) -> None:
        """Store one document's result and replace its claims, in one transaction.

        Raises:
            ValueError: a claim has no claim_id, or two claims share one.
        """
        ids = [c.claim_id for c in result.claims]
        if not all(ids) or len(set(ids)) != len(ids):
            raise ValueError(f"{result.doc_id}: every claim needs a unique claim_id before it is stored")
        summary: dict[str, Any] = {"status": result.status.value, "message": result.message,
                                   "title": result.title, "mentions": result.mentions,
                                   "format": result.format}
        if result.text is not None:
            summary["text"] = result.text
        now = utc_now()
        with self._write() as conn:
            conn.execute(
                """INSERT INTO documents (doc_id, path, sha256, first_seen, last_seen, last_processed,
                                          last_run, reference_version, pipeline_version, deleted, result)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)
                   ON CONFLICT (doc_id) DO UPDATE SET
                     path = excluded.path, sha256 = excluded.sha256, last_seen = excluded.last_seen,
                     last_processed = excluded.last_processed, last_run = excluded.last_run,
                     reference_version = excluded.reference_version,
                     pipeline_version = excluded.pipeline_version, deleted = 0, result = excluded.result""",
                (result.doc_id, result.path, result.sha256, now, now, now, run_id, reference_version,
                 pipeline_version, json.dumps(summary, ensure_ascii=False)))
            conn.execute("DELETE FROM claims WHERE doc_id = ?", (result.doc_id,))
            conn.executemany("INSERT INTO claims (doc_id, claim_id, position, data) VALUES (?, ?, ?, ?)",
                             [(result.doc_id, c.claim_id, i, _claim_json(c))
                              for i, c in enumerate(result.claims)])

    def load_result(self, doc_id: str) -> DocumentResult | None:
        with self._read() as conn:
            row = conn.execute("SELECT path, sha256, result FROM documents WHERE doc_id = ?",
                               (doc_id,)).fetchone()
            if row is None:
                return None
            data = conn.execute("SELECT data FROM claims WHERE doc_id = ? ORDER BY position",
                                (doc_id,)).fetchall()
        summary = json.loads(row[2])
        return DocumentResult(
            doc_id=doc_id, path=row[0], format=summary["format"], sha256=row[1],
            status=Status(summary["status"]), message=summary.get("message", ""), title=summary.get("title"),
            text=summary.get("text"), claims=tuple(claim_from_dict(json.loads(d)) for (d,) in data),
            mentions=summary.get("mentions", {}),
        )

    def touch(self, run_id: int, doc_id: str, path: str) -> None:
        """Seen in this run and reused as it was: update last_seen (and undelete)."""
        with self._write() as conn:
            cur = conn.execute("UPDATE documents SET last_seen = ?, last_run = ?, path = ?, deleted = 0 "
                               "WHERE doc_id = ?", (utc_now(), run_id, path, doc_id))
            if cur.rowcount != 1:
                raise ValueError(f"touch: {doc_id} is not in the state; save its result first")

    def touch_many(self, run_id: int, seen: Iterable[tuple[str, str]]) -> None:
        """``touch`` for many (doc_id, path) pairs in one transaction."""
        now = utc_now()
        with self._write() as conn:
            conn.executemany("UPDATE documents SET last_seen = ?, last_run = ?, path = ?, deleted = 0 WHERE doc_id = ?",
                             ((now, run_id, path, doc_id) for doc_id, path in seen))

    def mark_deleted(self, present: Iterable[str]) -> list[str]:
        """Mark every stored document not in ``present`` as deleted; returns the newly deleted, sorted."""
        keep = set(present)
        with self._write() as conn:
            gone = [d for d in self.current_doc_ids() if d not in keep]
            conn.executemany("UPDATE documents SET deleted = 1 WHERE doc_id = ?", ((d,) for d in gone))
        return gone

    def current_doc_ids(self) -> list[str]:
        rows = self._conn.execute("SELECT doc_id FROM documents WHERE deleted = 0 ORDER BY doc_id")
        return [d for (d,) in rows]

    # ---- review -----------------------------------------------------------------------------

    def decide(self, claim_id: str, status: str, editor: str, note: str = "") -> Decision:
        """Record an editor's decision on a current claim (replacing an earlier one).

        Raises:
            UsageError: unknown status, empty editor, or no current claim with this id.
        """
        status = _choice(status, DECISION_STATUSES, "review status")
        claim_id, editor = claim_id.strip(), editor.strip()
        if not editor:
            raise UsageError("an editor name is required; pass --editor NAME")
        with self._write() as conn:
            rows = conn.execute("SELECT c.doc_id, c.data FROM claims c JOIN documents d USING (doc_id) "
                                "WHERE c.claim_id = ? AND d.deleted = 0", (claim_id,)).fetchall()
            if not rows:
                raise UsageError(f"unknown claim id {claim_id!r}; see the ids with "
                                 "`python -m pipeline review list --all`")
            if len(rows) > 1:
                raise UsageError(f"claim id {claim_id!r} is in {len(rows)} documents; rerun the check")
            doc_id, data = rows[0]
            decision = Decision(claim_id, status, editor, note, utc_now(), doc_id, json.loads(data)["text"])
            self._put_decision(conn, decision)
        return decision

    @staticmethod
    def _put_decision(conn: sqlite3.Connection, d: Decision) -> None:
        conn.execute("""INSERT INTO decisions (claim_id, status, editor, note, decided_at, doc_id, text)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (claim_id) DO UPDATE SET status = excluded.status,
                          editor = excluded.editor, note = excluded.note, decided_at = excluded.decided_at,
                          doc_id = excluded.doc_id, text = excluded.text""",
                     (d.claim_id, d.status, d.editor, d.note, d.decided_at, d.doc_id, d.text))

    def put_decisions(self, decisions: Iterable[Decision]) -> None:
        """Upsert decisions as they are (their editor, time and claim text included), in one transaction."""
        with self._write() as conn:
            for d in decisions:
                self._put_decision(conn, d)

    def decisions(self) -> dict[str, Decision]:
        rows = self._conn.execute("SELECT claim_id, status, editor, note, decided_at, doc_id, text "
                                  "FROM decisions ORDER BY claim_id")
        return {row[0]: Decision(*row) for row in rows}

    def _decision(self, claim_id: str) -> Decision | None:
        row = self._conn.execute("SELECT claim_id, status, editor, note, decided_at, doc_id, text "
                                 "FROM decisions WHERE claim_id = ?", (claim_id,)).fetchone()
        return Decision(*row) if row else None

    def review_status(self, claim: Claim) -> str:
        """The decision's status while the claim's text is what the editor saw, else 'open'."""
        return _status_of(self._decision(claim.claim_id), claim.text)

    def list_claims(self, *, verdict: str | None = None, doc_id: str | None = None, status: str | None = None,
                    subject: str | None = None, flagged_only: bool = False) -> list[dict[str, Any]]:
        """Claims of current documents as dicts, with "review_status" and the decision's fields when decided.

        Raises:
            UsageError: an unknown verdict or review status.
        """
        if verdict is not None:
            verdict = _choice(verdict, (v.value for v in Verdict), "verdict")
        if status is not None:
            status = _choice(status, (s.value for s in ReviewStatus), "review status")
        sql = "SELECT c.data FROM claims c JOIN documents d USING (doc_id) WHERE d.deleted = 0"
        args: tuple[str, ...] = ()
        if doc_id is not None:
            sql, args = sql + " AND c.doc_id = ?", (doc_id,)
        with self._read() as conn:
            claims = [json.loads(d) for (d,) in conn.execute(sql + " ORDER BY c.doc_id, c.position", args)]
            decided = self.decisions()
        out = []
        for c in claims:
            if (flagged_only and not _is_flag(c)) or (verdict is not None and c.get("verdict") != verdict):
                continue
            if subject is not None and (c.get("subject") or "").casefold() != subject.casefold():
                continue
            decision = decided.get(c["claim_id"])
            c["review_status"] = _status_of(decision, c["text"])
            if status is not None and c["review_status"] != status:
                continue
            if decision is not None and c["review_status"] != "open":
                c.update(editor=decision.editor, note=decision.note, decided_at=decision.decided_at)
            out.append(c)
        return out

    def open_flags(self, doc_id: str) -> int:
        """Flags of the document still standing: no decision yet, or accepted and not yet corrected."""
        return sum(1 for c in self.list_claims(doc_id=doc_id, flagged_only=True)
                   if c["review_status"] in RAISED_STATUSES)

    def current_claim(self, claim_id: str) -> tuple[str, str] | None:
        """The (doc_id, text) of the claim with this id in a current document, or None."""
        row = self._conn.execute("SELECT c.doc_id, c.data FROM claims c JOIN documents d USING (doc_id) "
                                 "WHERE c.claim_id = ? AND d.deleted = 0 LIMIT 1", (claim_id,)).fetchone()
        return (row[0], json.loads(row[1])["text"]) if row else None


def decision_applies(decision: Decision | None, text: str) -> bool:
    """A decision stays attached to its claim while the claim's text is what the editor saw."""
    return decision is not None and decision.text == text


def _status_of(decision: Decision | None, text: str) -> str:
    return decision.status if decision_applies(decision, text) else ReviewStatus.OPEN.value
