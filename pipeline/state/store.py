"""SQLite state beside the pipeline: what each document produced, the runs, and editors' review decisions.

One file (``<out>/state.sqlite``), WAL mode. A run saves its documents in batches, one transaction each
(``save_prepared``): a run killed half-way keeps every batch it committed, and the documents of the batch it was
filling are simply processed again by the next run; nothing committed is ever lost, and decisions are never touched
by a save except to follow a renamed article's claims. ``Store.lock`` keeps two runs off the same state.
Decisions, their history and assignments are ``ReviewMixin``'s part (``store_review.py``), journaled beside the
state (``journal.py``); versions, bulk decisions and undo are ``TeamMixin``'s (``store_team.py``).

>>> with Store(Path("reports/state.sqlite")) as store, store.lock(timeout=10):  # doctest: +SKIP
...     run = store.begin_run("ref-2024.06", "0.1.0")
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from filelock import FileLock, Timeout

from ..errors import SQLITE_CANTOPEN, SQLITE_FULL, SQLITE_IOERR, LockedError, UsageError, sqlite_code, storage_failed
from ..records import Claim, DocumentResult, Status, claim_from_dict
from . import journal, schema
from .decisions import (
    DECISION_STATUSES,
    RAISED_STATUSES,
    REVIEW_STATUSES,
    Decision,
    ReviewStatus,
    decision_applies,
    status_of,
    utc_now,
)
from .schema import MIGRATIONS, SCHEMA_VERSION
from .store_team import TeamMixin

__all__ = [
    "DECISION_STATUSES", "DEFAULT_STATE", "MIGRATIONS", "RAISED_STATUSES", "REVIEW_STATUSES", "SCHEMA_VERSION",
    "DamagedRow", "Decision", "PreparedResult", "ReviewStatus", "Run", "Store", "StoredDocument", "decision_applies",
    "prepare_result", "status_of", "utc_now",
]

log = logging.getLogger("pipeline")

DEFAULT_STATE = Path("reports") / "state.sqlite"
BUSY_TIMEOUT_MS = 30_000  # another process mid-write: wait this long before "database is locked"
COMMIT_RETRIES = (0.05, 0.25, 1.0)  # a COMMIT the disk refused is tried again after these pauses (seconds)


class DamagedRow(ValueError):
    """A row of the state that cannot be read back (edited by hand, a bad sector): the run analyses it again."""


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
    damaged: bool = False  # its stored result cannot be read back


@dataclass(frozen=True)
class Run:
    id: int
    started: str
    finished: str | None  # None: still running, or killed
    reference_version: str
    pipeline_version: str
    counts: dict[str, int]
    exit_status: int | None


# ---- helpers ------------------------------------------------------------------------------------


def _claim_json(claim: Claim) -> str:
    # contract fields win over a stray extra key of the same name
    return json.dumps({**claim.extra, **claim.to_dict()}, ensure_ascii=False)


@dataclass(frozen=True)
class PreparedResult:
    """One document's result as the state keeps it, already serialised (made where the document is analysed)."""

    doc_id: str
    path: str
    sha256: str
    pipeline_version: str
    summary: str  # the documents.result JSON
    claims: tuple[tuple[str, str], ...]  # (claim_id, claims.data JSON), in order


def prepare_result(result: DocumentResult, pipeline_version: str,
                   records: Sequence[str] | None = None) -> PreparedResult:
    """What ``Store.save_prepared`` writes for ``result``; ``records`` are its claims' ``to_dict`` already
    encoded (``json.dumps(..., ensure_ascii=False)``), when the caller has them.

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
    if records is None:
        claims = tuple((c.claim_id, _claim_json(c)) for c in result.claims)
    else:
        claims = tuple((c.claim_id, _with_extra(c, line)) for c, line in zip(result.claims, records, strict=True))
    return PreparedResult(result.doc_id, result.path, result.sha256, pipeline_version,
                          json.dumps(summary, ensure_ascii=False), claims)


def _with_extra(claim: Claim, record: str) -> str:
    """``_claim_json(claim)`` from its encoded ``to_dict``: the extra keys first, as the merged dict has them."""
    if not claim.extra:
        return record
    if not _CONTRACT_KEYS.isdisjoint(claim.extra):  # a stray extra key the contract overrides
        return _claim_json(claim)
    return _encode(claim.extra)[:-1] + ", " + record[1:]


_encode = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps(..., ensure_ascii=False), one encoder
_CONTRACT_KEYS = frozenset(Claim("", 0, 0, "", "", 0, None, None, "", None, None).to_dict())


class Store(TeamMixin):
    """The state database. Not thread-safe: one Store per thread or process.

    Raises (on opening):
        UsageError: the path cannot be opened, is an empty file, is not a gpu-factcheck state, or was written by a
            newer version; the message says how to restore the decisions from the journal.
        StorageError: the disk is full, or the state is read-only (nothing in it was changed).
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.journal = journal.journal_path(self.path)
        schema.refuse_empty(self.path)
        created = not self.path.exists()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # isolation_level=None: we issue BEGIN IMMEDIATE ourselves, so DDL and DML share one transaction
            self._conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            failure = storage_failed(exc, f"the state database {self.path}")
            if failure is not None:
                raise failure from exc
            raise UsageError(f"cannot open the state database {self.path} ({exc}); "
                             "pass --state with a writable path") from exc
        try:
            self._conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            schema.check_ours(self._conn, self.path)  # before anything writes to the file
            self._conn.execute("PRAGMA journal_mode = WAL")
            # WAL + NORMAL: a killed process loses nothing committed; a power cut may lose the last commits
            # (the documents are then simply processed again), never the database. One fsync per checkpoint
            # instead of one per document. Decisions are fsynced to the journal as well.
            self._conn.execute("PRAGMA synchronous = NORMAL")
            self._conn.execute("PRAGMA foreign_keys = ON")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            self._conn.close()
            self._forget(created)
            failure = storage_failed(exc, f"the state database {self.path}", "Nothing in it was changed.")
            if failure is not None:
                raise failure from exc
            if sqlite_code(exc) == SQLITE_CANTOPEN:
                raise UsageError(f"cannot open the state database {self.path} ({exc}); check that it is a file in a "
                                 "folder this user can write to, or pass --state with another path") from exc
            raise UsageError(f"{self.path} is not a usable gpu-factcheck state database ({exc}); "
                             f"refusing to write to it; {schema._restore_hint(self.path)}") from exc
        except BaseException:
            self._conn.close()
            self._forget(created)
            raise

    def _forget(self, created: bool) -> None:
        """A state this Store created and could not set up (a full disk) is not left behind as an empty file, which
        every later run would refuse as a lost state."""
        if not created:
            return
        try:
            if self.path.stat().st_size == 0:
                for leftover in (self.path, Path(f"{self.path}-wal"), Path(f"{self.path}-shm")):
                    leftover.unlink(missing_ok=True)
        except OSError:
            pass

    def _migrate(self) -> None:
        if self._conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
            return  # the common case takes no write lock
        with self._write() as conn:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            schema.check_ours(conn, self.path)
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
            self._commit()
        except BaseException:
            if self._conn.in_transaction:
                with suppress(sqlite3.Error):  # the first error is the one to report
                    self._conn.execute("ROLLBACK")
            raise

    def _commit(self) -> None:
        """COMMIT, tried again a few times when the disk refuses it (it may have been a moment's shortage)."""
        for pause in (*COMMIT_RETRIES, None):
            try:
                self._conn.execute("COMMIT")
                return
            except sqlite3.OperationalError as exc:
                if pause is None or not self._conn.in_transaction or sqlite_code(exc) not in (SQLITE_FULL,
                                                                                              SQLITE_IOERR):
                    raise
                log.warning("the state database %s refused a commit (%s); trying again", self.path, exc)
                time.sleep(pause)

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
        """Record the run's end; then decisions follow renamed articles' claims and the journal catches up."""
        with self._write() as conn:
            cur = conn.execute("UPDATE runs SET finished = ?, counts = ?, exit_status = ? WHERE id = ?",
                               (utc_now(), json.dumps(dict(counts), ensure_ascii=False), exit_status, run_id))
            if cur.rowcount != 1:
                raise ValueError(f"no run with id {run_id}")
        self.adopt_orphans()
        try:
            self.sync_journal()
        except UsageError as exc:  # the run itself is done; the next decision or run retries
            log.warning("%s", exc)

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
        doc_id, path, sha256, reference_version, pipeline_version, last_processed, deleted, result = row
        try:
            status = json.loads(result).get("status", "")
            damaged = not isinstance(status, str)
        except (ValueError, TypeError, AttributeError):
            status, damaged = "", True
        return StoredDocument(doc_id, path, sha256, reference_version, pipeline_version, last_processed,
                              deleted=bool(deleted), status=status if not damaged else "", damaged=damaged)

    def is_current(self, doc_id: str, sha256: str, reference_version: str, pipeline_version: str) -> bool:
        """True when the stored result can be reused: same bytes, same reference and pipeline, not deleted."""
        doc = self.document(doc_id)
        return (doc is not None and not doc.deleted and doc.sha256 == sha256
                and doc.reference_version == reference_version and doc.pipeline_version == pipeline_version)

    def save_result(self, run_id: int, result: DocumentResult, reference_version: str,
                    pipeline_version: str) -> dict[str, Decision]:
        """Store one document's result and replace its claims, in one transaction.

        A claim with no decision of its own takes over the decision of a claim that is gone (the article was
        renamed, or deleted and rewritten) when its text and sentence are the same; returns those decisions by
        their new claim_id, so a run can show them at once.

        Raises:
            ValueError: a claim has no claim_id, or two claims share one.
        """
        return self.save_prepared(run_id, [prepare_result(result, pipeline_version)], reference_version)

    def save_prepared(self, run_id: int, results: Sequence[PreparedResult],
                      reference_version: str) -> dict[str, Decision]:
        """``save_result`` for a batch of documents, in one transaction and in order: each document takes over
        the decisions of gone claims exactly as if it had been saved alone, after the ones before it."""
        now = utc_now()
        adopted: dict[str, Decision] = {}
        with self._write() as conn:
            # no decision with a sentence: nothing can be taken over (and no save here makes one), so skip looking
            decided = conn.execute("SELECT 1 FROM decisions WHERE sentence != '' LIMIT 1").fetchone() is not None
            for p in results:
                conn.execute(
                    """INSERT INTO documents (doc_id, path, sha256, first_seen, last_seen, last_processed,
                                              last_run, reference_version, pipeline_version, deleted, result)
                       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)
                       ON CONFLICT (doc_id) DO UPDATE SET
                         path = excluded.path, sha256 = excluded.sha256, last_seen = excluded.last_seen,
                         last_processed = excluded.last_processed, last_run = excluded.last_run,
                         reference_version = excluded.reference_version,
                         pipeline_version = excluded.pipeline_version, deleted = 0, result = excluded.result""",
                    (p.doc_id, p.path, p.sha256, now, now, now, run_id, reference_version, p.pipeline_version,
                     p.summary))
                conn.execute("DELETE FROM claims WHERE doc_id = ?", (p.doc_id,))
                conn.executemany("INSERT INTO claims (doc_id, claim_id, position, data) VALUES (?, ?, ?, ?)",
                                 [(p.doc_id, cid, i, data) for i, (cid, data) in enumerate(p.claims)])
                if decided and p.claims:
                    adopted.update(self._adopt(conn, [claim_from_dict(json.loads(d)) for _, d in p.claims]))
        return adopted

    def load_result(self, doc_id: str) -> DocumentResult | None:
        """The stored result, or None.

        Raises:
            DamagedRow: its row or one of its claims cannot be read back.
        """
        with self._read() as conn:
            row = conn.execute("SELECT path, sha256, result FROM documents WHERE doc_id = ?",
                               (doc_id,)).fetchone()
            if row is None:
                return None
            data = conn.execute("SELECT data FROM claims WHERE doc_id = ? ORDER BY position",
                                (doc_id,)).fetchall()
        try:
            summary = json.loads(row[2])
            return DocumentResult(
                doc_id=doc_id, path=row[0], format=summary["format"], sha256=row[1],
                status=Status(summary["status"]), message=summary.get("message", ""), title=summary.get("title"),
                text=summary.get("text"), claims=tuple(claim_from_dict(json.loads(d)) for (d,) in data),
                mentions=summary.get("mentions", {}),
            )
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise DamagedRow(f"the state's row for {doc_id} is damaged ({type(exc).__name__}: {exc})") \
                from exc

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

