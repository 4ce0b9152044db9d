"""Reviewing as a team: every decision carries the version of the claim it was made on, several decisions are one
transaction, and the last one can be undone.

A claim's version is the id of the last step of its history (``""`` before the first). A decision made on an older
version than the claim's current one is refused as a whole (``StaleDecision``): a colleague decided since the
editor's page was opened. An undo is one more step, journaled like any other, that puts back the state before the
step it undoes; nothing is ever taken out of the history or the journal.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import UsageError
from .decisions import DECISION_STATUSES, REVIEW_STATUSES, Event, new_event_id, status_of, utc_now
from .store_review import _EVENT_COLS, ReviewMixin, _choice

UNDO_KIND = "undo"
UNDOABLE_KINDS = frozenset({"decision", "import", UNDO_KIND})  # a rename's step is not an editor's to undo
MAX_BATCH = 1000  # claims in one bulk decision


@dataclass(frozen=True)
class Conflict:
    """A claim decided since the editor saw it: the version they saw, the current one, and the steps between."""

    claim_id: str
    seen: str
    current: str
    since: tuple[Event, ...]


class StaleDecision(UsageError):
    """A decision on a version of a claim that is no longer its current one; nothing was recorded."""

    def __init__(self, conflicts: Sequence[Conflict]) -> None:
        self.conflicts = tuple(conflicts)
        super().__init__(f"{len(self.conflicts)} claim(s) were decided since they were read: "
                         + ", ".join(c.claim_id for c in self.conflicts))


class NotUndoable(UsageError):
    """The step to undo is not an editor's (a rename's); nothing was recorded."""


class TeamMixin(ReviewMixin):
    """Versions, bulk decisions and undo; mixed into ``Store`` over ``ReviewMixin``."""

    def versions(self, claim_ids: Iterable[str] | None = None,
                 conn: sqlite3.Connection | None = None) -> dict[str, str]:
        """claim_id -> the event id of its last history step, for claims that have one (all, or ``claim_ids``)."""
        db = conn or self._conn
        rows = db.execute("SELECT claim_id, event_id FROM events WHERE seq IN "
                          "(SELECT MAX(seq) FROM events GROUP BY claim_id)").fetchall()
        every = dict(rows)
        return every if claim_ids is None else {c: every[c] for c in claim_ids if c in every}

    def version(self, claim_id: str) -> str:
        return self.versions([claim_id]).get(claim_id, "")

    def _steps(self, conn: sqlite3.Connection, claim_id: str) -> list[Event]:
        rows = conn.execute(f"SELECT {_EVENT_COLS} FROM events WHERE claim_id = ? ORDER BY seq", (claim_id,))
        return [Event(*r) for r in rows]

    def _conflict(self, conn: sqlite3.Connection, claim_id: str, seen: str | None) -> Conflict | None:
        """The conflict when ``seen`` (None: not checked) is not the claim's current version."""
        if seen is None:
            return None
        steps = self._steps(conn, claim_id)
        current = steps[-1].event_id if steps else ""
        if seen == current:
            return None
        ids = [s.event_id for s in steps]
        since = steps[ids.index(seen) + 1:] if seen in ids else steps
        return Conflict(claim_id, seen, current, tuple(since))

    def decide_versioned(self, items: Sequence[tuple[str, str | None]], status: str, editor: str, note: str = "",
                         correction: str = "") -> list[Event]:
        """Record one decision on each ``(claim_id, version seen)`` in one transaction (a version of None is not
        checked: a script deciding on whatever is current); returns the steps recorded, in order.

        Raises:
            StaleDecision: a claim's version is not the one seen (then nothing is recorded).
            UsageError: unknown status, empty editor, an unknown claim, too many claims, or the journal cannot be
                written.
        """
        status = _choice(status, REVIEW_STATUSES, "review status")
        editor = editor.strip()
        if not editor:
            raise UsageError("an editor name is required; pass --editor NAME")
        if not items or len(items) > MAX_BATCH:
            raise UsageError(f"give between 1 and {MAX_BATCH} claims")
        correction = correction.strip() if status == "corrected" else ""
        with self._journaled_write() as conn:
            events = self._versioned_events(conn, items, lambda claim, before: Event(
                new_event_id(), claim["claim_id"], claim["doc_id"], utc_now(), editor, before, status, note,
                correction, claim["text"], claim.get("sentence", ""), int(claim.get("start", -1))))
            self._commit_events(conn, events)
        return events

    def undo(self, items: Sequence[tuple[str, str]], editor: str) -> list[Event]:
        """Undo the step ``version`` of each ``(claim_id, version)``, which must still be the claim's last: a new
        step (kind ``undo``, by ``editor``) puts back the status, note and correction from before it.

        Raises:
            StaleDecision: a claim was decided since that step (nothing is recorded).
            UsageError: the step is not an editor's decision, an unknown claim, or the journal cannot be written.
        """
        editor = editor.strip()
        if not editor:
            raise UsageError("an editor name is required; pass --editor NAME")
        if not items or len(items) > MAX_BATCH:
            raise UsageError(f"give between 1 and {MAX_BATCH} claims")
        with self._journaled_write() as conn:
            def step(claim: dict[str, Any], before: str) -> Event:
                steps = self._steps(conn, claim["claim_id"])
                undone = steps[-1]
                if undone.kind not in UNDOABLE_KINDS:
                    raise NotUndoable(f"the last step of claim {undone.claim_id!r} is not a decision")
                earlier = steps[-2] if len(steps) > 1 else None
                back = undone.from_status
                kept = earlier if earlier is not None and back != "open" and earlier.to_status == back else None
                return Event(new_event_id(), undone.claim_id, claim["doc_id"], utc_now(), editor, before, back,
                             kept.note if kept else "", kept.correction if kept else "", claim["text"],
                             claim.get("sentence", ""), int(claim.get("start", -1)), UNDO_KIND)

            events = self._versioned_events(conn, list(items), step, undoing=True)
            self._commit_events(conn, events)
        return events

    def _versioned_events(self, conn: sqlite3.Connection, items: Sequence[tuple[str, str | None]],
                          make: Callable[[dict[str, Any], str], Event], *, undoing: bool = False) -> list[Event]:
        """One step per claim from ``make(claim, status before)``, once every version seen is checked."""
        seen: dict[str, str | None] = {}
        for claim_id, version in items:
            seen.setdefault(claim_id.strip(), version)
        claims = {cid: self._current(conn, cid) for cid in seen}
        conflicts = [c for cid, version in seen.items()
                     if (c := self._conflict(conn, cid, "\x00" if undoing and not version else version))]
        if conflicts:
            raise StaleDecision(conflicts)
        events = []
        for cid, claim in claims.items():
            before = status_of(self._decision(cid, conn), claim["text"])
            events.append(make(claim, before))
        return events

    def _commit_events(self, conn: sqlite3.Connection, events: Sequence[Event]) -> None:
        for event in events:
            self._apply(conn, event)
        self._record(conn, events, journaled=False)
        self._journal(conn, events, [])


__all__ = ["DECISION_STATUSES", "MAX_BATCH", "UNDO_KIND", "Conflict", "NotUndoable", "StaleDecision", "TeamMixin"]
