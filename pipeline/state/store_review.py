"""The review half of the state: decisions, their history, assignments, and the journal they are copied to.

Every change is one write transaction that also appends the change to the journal and fsyncs it before
committing, so a decision the editor saw recorded is in two files. Decisions that a run moves to a renamed
article's claims are journaled at the end of the run (``sync_journal``).
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Any

from ..errors import UsageError, storage_failed
from ..records import Claim, Evidence, Verdict, claim_from_dict
from . import journal
from .decisions import (
    DECISION_STATUSES,
    RAISED_STATUSES,
    REVIEW_STATUSES,
    SYSTEM_USER,
    Decision,
    Event,
    match_orphans,
    new_event_id,
    status_of,
    utc_now,
)

_DECISION_COLS = "claim_id, status, editor, note, decided_at, doc_id, text, sentence, start, correction"
_EVENT_COLS = ("event_id, claim_id, doc_id, at, user_name, from_status, to_status, note, correction, text, "
               "sentence, start, kind, moved_from")
_ALIVE = ("SELECT 1 FROM claims c JOIN documents doc USING (doc_id) "
          "WHERE c.claim_id = ? AND doc.deleted = 0 LIMIT 1")
_CHUNK = 500  # SQLite's limit on bound parameters is 999 on old builds


@dataclass(frozen=True)
class Restored:
    """What ``restore_journal`` added."""

    events: int
    assignments: int
    skipped: int  # records already in the state, or not readable as a decision or assignment


def _chunks(items: Sequence[Any]) -> Iterator[Sequence[Any]]:
    for i in range(0, len(items), _CHUNK):
        yield items[i:i + _CHUNK]


def _value(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value  # a str Enum from the CLI


def _choice(value: str, allowed: Iterable[str], what: str) -> str:
    value = _value(value)
    allowed = tuple(allowed)
    if value not in allowed:
        raise UsageError(f"unknown {what} {value!r}; use one of: {', '.join(allowed)}")
    return value


def _is_flag(claim: dict[str, Any]) -> bool:
    verdict = claim.get("verdict")
    return bool(verdict) and Verdict(verdict).is_flag


class ReviewMixin:
    """Decisions, history and assignments; mixed into ``Store``, which provides the connection."""

    path: Path
    journal: Path
    _conn: sqlite3.Connection
    _appended = False  # the write under way has been appended to the journal

    def _write(self) -> AbstractContextManager[sqlite3.Connection]:  # pragma: no cover - Store's
        raise NotImplementedError

    @contextmanager
    def _journaled_write(self) -> Iterator[sqlite3.Connection]:
        """A write that is also journaled: when the state refuses it (a full or read-only disk), a StorageError
        says so in one line, and whether the journal already holds the change (then the next run or start of the
        review app applies it from there, see ``restore_journal``)."""
        self._appended = False
        try:
            with self._write() as conn:
                yield conn
        except sqlite3.Error as exc:
            kept = (f"The change is in the journal {self.journal} and is applied from it at the next run or start "
                    "of the review app." if self._appended else "Nothing was recorded.")
            failure = storage_failed(exc, f"the state database {self.path}", kept)
            if failure is None:
                raise
            raise failure from exc
        finally:
            self._appended = False

    def _read(self) -> AbstractContextManager[sqlite3.Connection]:  # pragma: no cover - Store's
        raise NotImplementedError

    # ---- reading decisions ------------------------------------------------------------------

    def decisions(self) -> dict[str, Decision]:
        rows = self._conn.execute(f"SELECT {_DECISION_COLS} FROM decisions ORDER BY claim_id")
        return {row[0]: Decision(*row) for row in rows}

    def current_decisions(self) -> list[Decision]:
        """The decisions on claims of current documents (what the outputs can show), by claim_id."""
        rows = self._conn.execute(f"SELECT {_DECISION_COLS} FROM decisions d WHERE EXISTS (SELECT 1 FROM claims c "
                                  "JOIN documents doc USING (doc_id) WHERE c.claim_id = d.claim_id AND "
                                  "doc.deleted = 0) ORDER BY claim_id")
        return [Decision(*row) for row in rows]

    def _decision(self, claim_id: str, conn: sqlite3.Connection | None = None) -> Decision | None:
        row = (conn or self._conn).execute(f"SELECT {_DECISION_COLS} FROM decisions WHERE claim_id = ?",
                                           (claim_id,)).fetchone()
        return Decision(*row) if row else None

    def review_status(self, claim: Claim) -> str:
        """The decision's status while the claim's text is what the editor saw, else 'open'."""
        return status_of(self._decision(claim.claim_id), claim.text)

    def current_claim(self, claim_id: str) -> tuple[str, str] | None:
        """The (doc_id, text) of the claim with this id in a current document, or None."""
        row = self._conn.execute("SELECT c.doc_id, c.data FROM claims c JOIN documents d USING (doc_id) "
                                 "WHERE c.claim_id = ? AND d.deleted = 0 LIMIT 1", (claim_id,)).fetchone()
        return (row[0], json.loads(row[1])["text"]) if row else None

    def claim_snapshot(self, claim_id: str) -> dict[str, Any] | None:
        """The stored claim (as claims.jsonl has it, with its extra fields) of a current document, or None."""
        row = self._conn.execute("SELECT c.data FROM claims c JOIN documents d USING (doc_id) "
                                 "WHERE c.claim_id = ? AND d.deleted = 0 LIMIT 1", (claim_id,)).fetchone()
        return dict(json.loads(row[0])) if row else None

    def _current(self, conn: sqlite3.Connection, claim_id: str) -> dict[str, Any]:
        rows = conn.execute("SELECT c.data FROM claims c JOIN documents d USING (doc_id) "
                            "WHERE c.claim_id = ? AND d.deleted = 0", (claim_id,)).fetchall()
        if not rows:
            raise UsageError(f"unknown claim id {claim_id!r}; see the ids with "
                             "`python -m pipeline review list --all`")
        if len(rows) > 1:
            raise UsageError(f"claim id {claim_id!r} is in {len(rows)} documents; rerun the check")
        return dict(json.loads(rows[0][0]))

    # ---- deciding ---------------------------------------------------------------------------

    def decide(self, claim_id: str, status: str, editor: str, note: str = "", correction: str = "") -> Decision:
        """Record a decision on a current claim (``open`` reopens it), keep it in the history and the journal.

        Returns the decision now in force (for ``open``: a Decision with status "open" that is not stored).

        Raises:
            UsageError: unknown status, empty editor, no current claim with this id, or the journal cannot be
                written (then nothing is recorded).
        """
        status = _choice(status, REVIEW_STATUSES, "review status")
        claim_id, editor = claim_id.strip(), editor.strip()
        if not editor:
            raise UsageError("an editor name is required; pass --editor NAME")
        correction = correction.strip() if status == "corrected" else ""
        with self._journaled_write() as conn:
            claim = self._current(conn, claim_id)
            before = status_of(self._decision(claim_id, conn), claim["text"])
            event = Event(new_event_id(), claim_id, claim["doc_id"], utc_now(), editor, before, status, note,
                          correction, claim["text"], claim.get("sentence", ""), int(claim.get("start", -1)))
            self._apply(conn, event)
            self._record(conn, [event], journaled=False)
            self._journal(conn, [event], [])
        return event.decision() or Decision(claim_id, "open", editor, note, event.at, event.doc_id, event.text,
                                            event.sentence, event.start)

    @staticmethod
    def _put_decision(conn: sqlite3.Connection, d: Decision) -> None:
        conn.execute(f"""INSERT INTO decisions ({_DECISION_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                         ON CONFLICT (claim_id) DO UPDATE SET status = excluded.status,
                           editor = excluded.editor, note = excluded.note, decided_at = excluded.decided_at,
                           doc_id = excluded.doc_id, text = excluded.text, sentence = excluded.sentence,
                           start = excluded.start, correction = excluded.correction""",
                     (d.claim_id, d.status, d.editor, d.note, d.decided_at, d.doc_id, d.text, d.sentence,
                      d.start, d.correction))

    def _apply(self, conn: sqlite3.Connection, event: Event) -> None:
        """Make ``event`` the claim's current decision (or reopen the claim)."""
        decision = event.decision()
        if decision is None:
            conn.execute("DELETE FROM decisions WHERE claim_id = ?", (event.claim_id,))
        else:
            self._put_decision(conn, decision)

    @staticmethod
    def _record(conn: sqlite3.Connection, events: Sequence[Event], *, journaled: bool) -> None:
        conn.executemany(f"INSERT INTO events ({_EVENT_COLS}, journaled) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         [(e.event_id, e.claim_id, e.doc_id, e.at, e.user, e.from_status, e.to_status, e.note,
                           e.correction, e.text, e.sentence, e.start, e.kind, e.moved_from, int(journaled))
                          for e in events])

    def _journal(self, conn: sqlite3.Connection, events: Sequence[Event],
                 assignments: Sequence[dict[str, Any]]) -> None:
        """Append to the journal (fsynced) inside the caller's transaction; a failure rolls the change back."""
        records = [e.to_journal() for e in events] + list(assignments)
        try:
            journal.append(self.journal, records)
        except OSError as exc:
            raise UsageError(f"cannot write the decisions journal {self.journal} ({exc.strerror}); "
                             "nothing was recorded: free disk space or fix the folder's permissions") from exc
        self._appended = bool(records)
        conn.executemany("UPDATE events SET journaled = 1 WHERE event_id = ?", [(e.event_id,) for e in events])
        conn.executemany("UPDATE assignments SET journaled = 1 WHERE event_id = ?",
                         [(a["event_id"],) for a in assignments])

    def import_decisions(self, decisions: Sequence[Decision], *, kind: str = "import") -> int:
        """Make each decision current (status ``open`` reopens), in one transaction, with a history step each;
        rows that change nothing are skipped, and so are rows older than the claim's current decision (newer
        wins, as when the journal is replayed: ``_replay``). Returns how many changed."""
        events = []
        with self._journaled_write() as conn:
            for d in decisions:
                current = self._decision(d.claim_id, conn)
                before = status_of(current, d.text)
                same = current is not None and (current.status, current.note, current.correction, current.text) \
                    == (d.status, d.note, d.correction, d.text)
                if same or (current is None and d.status == "open"):
                    continue
                if current is not None and d.decided_at < current.decided_at:  # an older decision: newer wins
                    continue
                event = Event(new_event_id(), d.claim_id, d.doc_id, d.decided_at, d.editor, before, d.status,
                              d.note, d.correction, d.text, d.sentence, d.start, kind)
                self._apply(conn, event)
                events.append(event)
            self._record(conn, events, journaled=False)
            self._journal(conn, events, [])
        return len(events)

    def put_decisions(self, decisions: Iterable[Decision]) -> None:
        """Upsert decisions as they are (their editor, time and claim text included), with history."""
        self.import_decisions(list(decisions))

    def history(self, claim_id: str) -> list[Event]:
        """Every step of the claim's review, oldest first, including those made before its article was renamed."""
        chain, todo = [], [claim_id]
        while todo:
            cid = todo.pop()
            if cid in chain:
                continue
            chain.append(cid)
            todo += [r[0] for r in self._conn.execute(
                "SELECT moved_from FROM events WHERE claim_id = ? AND kind = 'moved' AND moved_from != ''",
                (cid,))]
        marks = ", ".join("?" * len(chain))
        rows = self._conn.execute(f"SELECT {_EVENT_COLS} FROM events WHERE claim_id IN ({marks}) ORDER BY seq",
                                  chain)
        return [Event(*row) for row in rows]

    # ---- renamed articles -------------------------------------------------------------------

    def _adopt(self, conn: sqlite3.Connection, claims: Sequence[Claim]) -> dict[str, Decision]:
        """Inside save_result's transaction: undecided claims take over gone claims' decisions (see match_orphans)."""
        ids = [c.claim_id for c in claims]
        have: set[str] = set()
        for part in _chunks(ids):
            have |= {r[0] for r in conn.execute(
                f"SELECT claim_id FROM decisions WHERE claim_id IN ({', '.join('?' * len(part))})", part)}
        free = [c for c in claims if c.claim_id not in have]
        texts = sorted({c.text for c in free})
        orphans: list[Decision] = []
        for part in _chunks(texts):
            rows = conn.execute(f"SELECT {_DECISION_COLS} FROM decisions WHERE sentence != '' AND "
                                f"text IN ({', '.join('?' * len(part))})", part).fetchall()
            orphans += [Decision(*r) for r in rows if conn.execute(_ALIVE, (r[0],)).fetchone() is None]
        if not orphans:
            return {}
        return self._move(conn, match_orphans(free, orphans, self._first_seen(conn), self._origins(conn, orphans)))

    @staticmethod
    def _origins(conn: sqlite3.Connection, decisions: Sequence[Decision]) -> dict[str, set[str]]:
        """Each decision's earlier claim ids: the claims it was moved from, through every rename."""
        out: dict[str, set[str]] = {}
        for d in decisions:
            seen: set[str] = set()
            todo = [d.claim_id]
            while todo:
                cid = todo.pop()
                for (before,) in conn.execute("SELECT moved_from FROM events WHERE claim_id = ? AND kind = 'moved' "
                                              "AND moved_from != ''", (cid,)):
                    if before not in seen and before != d.claim_id:
                        seen.add(before)
                        todo.append(before)
            out[d.claim_id] = seen
        return out

    @staticmethod
    def _first_seen(conn: sqlite3.Connection) -> dict[str, str]:
        return dict(conn.execute("SELECT doc_id, first_seen FROM documents WHERE deleted = 0"))

    def adopt_orphans(self) -> int:
        """After a run: decisions whose claim is gone move to a current, undecided claim with the same text and
        sentence. Returns how many moved."""
        with self._write() as conn:
            rows = conn.execute(f"SELECT {_DECISION_COLS} FROM decisions d WHERE sentence != '' AND NOT EXISTS "
                                "(SELECT 1 FROM claims c JOIN documents doc USING (doc_id) "
                                "WHERE c.claim_id = d.claim_id AND doc.deleted = 0)").fetchall()
            if not rows:
                return 0
            orphans = [Decision(*r) for r in rows]
            texts = sorted({d.text for d in orphans})
            claims: list[Claim] = []
            for part in _chunks(texts):  # a damaged row is left out (CASE: json_extract only on valid JSON)
                claims += [claim_from_dict(json.loads(data)) for (data,) in conn.execute(
                    "SELECT c.data FROM claims c JOIN documents doc USING (doc_id) WHERE doc.deleted = 0 "
                    "AND CASE WHEN json_valid(c.data) THEN json_extract(c.data, '$.text') END "
                    f"IN ({', '.join('?' * len(part))}) "
                    "AND NOT EXISTS (SELECT 1 FROM decisions WHERE claim_id = c.claim_id)", part)]
            return len(self._move(conn, match_orphans(claims, orphans, self._first_seen(conn),
                                                      self._origins(conn, orphans))))

    def _move(self, conn: sqlite3.Connection, pairs: Sequence[tuple[Claim, Decision]]) -> dict[str, Decision]:
        moved: dict[str, Decision] = {}
        events = []
        for claim, old in pairs:
            new = replace(old, claim_id=claim.claim_id, doc_id=claim.doc_id, start=claim.start)
            conn.execute("DELETE FROM decisions WHERE claim_id = ?", (old.claim_id,))
            self._put_decision(conn, new)
            events.append(Event(new_event_id(), new.claim_id, new.doc_id, utc_now(), SYSTEM_USER, old.status,
                                old.status, "", new.correction, new.text, new.sentence, new.start, "moved",
                                old.claim_id))
            moved[new.claim_id] = new
        self._record(conn, events, journaled=False)  # journaled by sync_journal at the end of the run
        return moved

    # ---- the journal ------------------------------------------------------------------------

    def sync_journal(self) -> int:
        """Append what the journal lacks (all of it when the journal is gone); returns how many records.

        Raises:
            UsageError: the journal cannot be written.
        """
        with self._write() as conn:
            if not self.journal.exists():
                conn.execute("UPDATE events SET journaled = 0 WHERE journaled = 1")
                conn.execute("UPDATE assignments SET journaled = 0 WHERE journaled = 1")
            events = [Event(*r) for r in conn.execute(f"SELECT {_EVENT_COLS} FROM events WHERE journaled = 0 "
                                                      "ORDER BY seq")]
            assigns = [_assignment_record(*r) for r in conn.execute(
                "SELECT doc_id, assignee, assigned_by, assigned_at, event_id FROM assignments WHERE journaled = 0")]
            if events or assigns:
                self._journal(conn, events, assigns)
        return len(events) + len(assigns)

    def restore_journal(self, path: Path) -> Restored:
        """Replay a journal (this state's own, or a colleague's) into the state: events not yet known are added
        to the history, and a decision or assignment replaces the current one unless that one is newer."""
        own = self.journal.exists() and Path(path).exists() and os.path.samefile(path, self.journal)
        added: list[Event] = []
        assigned: list[dict[str, Any]] = []
        skipped = 0
        with self._journaled_write() as conn:
            for rec in journal.read(Path(path)):
                if rec.get("type") == "assignment" and self._restore_assignment(conn, rec):
                    assigned.append(rec)
                    continue
                try:
                    event = Event.from_journal(rec)
                except (KeyError, ValueError, TypeError):
                    skipped += 1
                    continue
                if conn.execute("SELECT 1 FROM events WHERE event_id = ?", (event.event_id,)).fetchone():
                    skipped += 1
                    continue
                self._replay(conn, event)
                self._record(conn, [event], journaled=own)
                added.append(event)
            if not own:
                self._journal(conn, added, assigned)
        return Restored(len(added), len(assigned), skipped)

    def _replay(self, conn: sqlite3.Connection, event: Event) -> None:
        if event.kind == "moved":
            old = self._decision(event.moved_from, conn)
            if old is not None:
                conn.execute("DELETE FROM decisions WHERE claim_id = ?", (old.claim_id,))
                self._put_decision(conn, replace(old, claim_id=event.claim_id, doc_id=event.doc_id,
                                                 start=event.start))
                return
        current = self._decision(event.claim_id, conn)
        if current is None or event.at >= current.decided_at:
            self._apply(conn, event)

    def _restore_assignment(self, conn: sqlite3.Connection, rec: dict[str, Any]) -> bool:
        try:
            doc_id, assignee, by, at, event_id = (str(rec[k]) for k in
                                                  ("doc_id", "assignee", "user", "at", "event_id"))
        except KeyError:
            return False
        row = conn.execute("SELECT assigned_at, event_id FROM assignments WHERE doc_id = ?", (doc_id,)).fetchone()
        if row is not None and (row[1] == event_id or row[0] > at):
            return False
        self._put_assignment(conn, doc_id, assignee, by, at, event_id)
        return True

    # ---- assignments ------------------------------------------------------------------------

    def assign(self, doc_id: str, assignee: str, by: str) -> dict[str, Any]:
        """Assign a current document to an editor (an empty ``assignee`` unassigns it); journaled.

        Raises:
            UsageError: no current document with this id, or the journal cannot be written.
        """
        assignee, by = assignee.strip(), by.strip()
        with self._journaled_write() as conn:
            if conn.execute("SELECT 1 FROM documents WHERE doc_id = ? AND deleted = 0", (doc_id,)).fetchone() is None:
                raise UsageError(f"unknown document {doc_id!r}; see the documents in the review queue")
            record = _assignment_record(doc_id, assignee, by, utc_now(), new_event_id())
            self._put_assignment(conn, doc_id, assignee, by, record["at"], record["event_id"])
            self._journal(conn, [], [record])
        return record

    @staticmethod
    def _put_assignment(conn: sqlite3.Connection, doc_id: str, assignee: str, by: str, at: str,
                        event_id: str) -> None:
        conn.execute("""INSERT INTO assignments (doc_id, assignee, assigned_by, assigned_at, event_id, journaled)
                        VALUES (?, ?, ?, ?, ?, 0) ON CONFLICT (doc_id) DO UPDATE SET assignee = excluded.assignee,
                          assigned_by = excluded.assigned_by, assigned_at = excluded.assigned_at,
                          event_id = excluded.event_id, journaled = 0""", (doc_id, assignee, by, at, event_id))

    def assignments(self) -> dict[str, str]:
        """doc_id -> assignee, for documents assigned to someone."""
        return dict(self._conn.execute("SELECT doc_id, assignee FROM assignments WHERE assignee != ''"))

    # ---- listing ----------------------------------------------------------------------------

    def doc_titles(self) -> dict[str, str | None]:
        """doc_id -> title of every current document."""
        rows = self._conn.execute("SELECT doc_id, json_extract(result, '$.title') FROM documents "
                                  "WHERE deleted = 0 ORDER BY doc_id")
        return dict(rows)

    def list_claims(self, *, verdict: str | None = None, doc_id: str | None = None, status: str | None = None,
                    subject: str | None = None, attribute: str | None = None, assignee: str | None = None,
                    q: str | None = None, flagged_only: bool = False, evidence: str | None = None
                    ) -> list[dict[str, Any]]:
        """Claims of current documents as dicts: the stored claim, "review_status", "assignee", and the decision's
        fields (editor, note, decided_at, correction) while it applies. ``assignee="-"``: unassigned documents;
        ``q``: a case-insensitive substring of the claim's text, sentence, document, title, subject or note;
        ``evidence``: what the verdict rests on (vendor, database; "-": nothing).

        Raises:
            UsageError: an unknown verdict, review status or evidence.
        """
        verdict = _choice(verdict, (v.value for v in Verdict), "verdict") if verdict else None
        status = _choice(status, REVIEW_STATUSES, "review status") if status else None
        evidence = _choice(evidence, (*(e.value for e in Evidence), "-"), "evidence") if evidence else None
        sql = "SELECT c.data FROM claims c JOIN documents d USING (doc_id) WHERE d.deleted = 0"
        args: tuple[str, ...] = ()
        if doc_id:
            sql, args = sql + " AND c.doc_id = ?", (doc_id,)
        with self._read() as conn:
            claims = [json.loads(d) for (d,) in conn.execute(sql + " ORDER BY c.doc_id, c.position", args)]
            decided = self.decisions()
            assigned = self.assignments()
            titles = self.doc_titles() if q else {}
        needle = q.casefold().strip() if q else ""
        out = []
        for c in claims:
            if (flagged_only and not _is_flag(c)) or (verdict is not None and c.get("verdict") != verdict):
                continue
            if subject and (c.get("subject") or "").casefold() != subject.casefold():
                continue
            if attribute and c.get("attribute") != attribute:
                continue
            if evidence is not None and (c.get("evidence") or "-") != evidence:
                continue
            c["assignee"] = assigned.get(c["doc_id"])
            if assignee and (c["assignee"] or "-") != assignee:
                continue
            decision = decided.get(c["claim_id"])
            c["review_status"] = status_of(decision, c["text"])
            if status is not None and c["review_status"] != status:
                continue
            if decision is not None and c["review_status"] != "open":
                c.update(editor=decision.editor, note=decision.note, decided_at=decision.decided_at,
                         correction=decision.correction)
            if needle and needle not in _haystack(c, titles.get(c["doc_id"])):
                continue
            out.append(c)
        return out

    def claim(self, claim_id: str) -> dict[str, Any] | None:
        """One current claim as ``list_claims`` gives it, with its "history" (Event.to_api items), or None."""
        row = self._conn.execute("SELECT c.doc_id FROM claims c JOIN documents d USING (doc_id) "
                                 "WHERE c.claim_id = ? AND d.deleted = 0 LIMIT 1", (claim_id,)).fetchone()
        if row is None:
            return None
        found = next((c for c in self.list_claims(doc_id=row[0]) if c["claim_id"] == claim_id), None)
        if found is not None:
            found["history"] = [e.to_api() for e in self.history(claim_id)]
        return found

    def open_flags(self, doc_id: str) -> int:
        """Flags of the document still standing: no decision yet, or accepted and not yet corrected."""
        return sum(1 for c in self.list_claims(doc_id=doc_id, flagged_only=True)
                   if c["review_status"] in RAISED_STATUSES)


def _haystack(c: dict[str, Any], title: str | None) -> str:
    fields = (c.get("text"), c.get("sentence"), c.get("doc_id"), title, c.get("subject"), c.get("subject_mention"),
              c.get("claim_id"), c.get("explanation"), c.get("expected"), c.get("note"), c.get("correction"))
    return "\x1f".join(str(f) for f in fields if f).casefold()


def _assignment_record(doc_id: str, assignee: str, by: str, at: str, event_id: str) -> dict[str, Any]:
    return {"v": 1, "type": "assignment", "event_id": event_id, "doc_id": doc_id, "assignee": assignee,
            "user": by, "at": at}


__all__ = ["DECISION_STATUSES", "Restored", "ReviewMixin"]
