"""Reviewing as a team, the app's side: the rules a decision request must follow (the same for the API and the
page), what a refused stale decision tells the editor, and who else has a document open.

Presence is kept in the app's memory only: each page of a document says it is still open every
``PRESENCE_POLL_SECONDS``; a user not heard of for ``PRESENCE_SECONDS`` has left.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from starlette.exceptions import HTTPException

from ..lexicon.labels import api_error, message
from ..report.display import local_time
from ..report.tables import REVIEW_ZH
from ..state.decisions import REVIEW_STATUSES, Event
from ..state.store_team import MAX_BATCH, StaleDecision

PRESENCE_SECONDS = 45.0  # a page not heard of for this long is closed
PRESENCE_POLL_SECONDS = 15  # how often an open page says so
MAX_PRESENT_DOCS = 10_000  # documents whose visitors are remembered (the least recently visited forgotten first)
APP_MESSAGES = ("decision.reason_required", "decision.correction_required", "decision.done", "decision.undone",
                "decision.picked", "decision.failed", "decision.undo_failed", "decision.offline", "decision.not_json",
                "presence.others")  # the ones the pages' script shows


def missing_text(status: str, note: str, correction: str) -> str | None:
    """What a decision lacks (a dismissal its reason, a correction its corrected text), in the catalogue's words."""
    if status == "dismissed" and not note.strip():
        return message("decision.reason_required")
    if status == "corrected" and not correction.strip():
        return message("decision.correction_required")
    return None


def check_status(status: Any) -> str:
    if status not in REVIEW_STATUSES:
        raise HTTPException(400, api_error("bad_status", statuses="、".join(REVIEW_STATUSES)))
    return str(status)


def version_of(data: Mapping[str, Any]) -> str | None:
    """The version the editor saw (None: the request did not say, and is not checked)."""
    version = data.get("version")
    if version is not None and not isinstance(version, str):
        raise HTTPException(400, message("decision.version_type"))
    return version


def claim_items(data: Mapping[str, Any]) -> list[tuple[str, str | None]]:
    """The ``claims`` of a bulk request: [{"claim_id", "version"}, ...] as (claim_id, version) pairs."""
    items = data.get("claims")
    if not isinstance(items, list) or not all(isinstance(i, dict) and isinstance(i.get("claim_id"), str)
                                              for i in items):
        raise HTTPException(400, message("decision.claims_list"))
    if not 1 <= len(items) <= MAX_BATCH:
        raise HTTPException(400, message("decision.count", max=MAX_BATCH, count=len(items)))
    return [(i["claim_id"], version_of(i)) for i in items]


def step_text(e: Event, zone: str = "") -> str:
    """One step of a colleague's, as the conflict message says it (its time in the app's zone)."""
    return message("decision.conflict_step", user=e.user, at=local_time(e.at, zone),
                   before=REVIEW_ZH.get(e.from_status, e.from_status),
                   after=REVIEW_ZH.get(e.to_status, e.to_status), note=f"（{e.note}）" if e.note else "")


def conflict_message(stale: StaleDecision, *, undoing: bool = False, zone: str = "") -> str:
    steps = "；".join(step_text(e, zone) for c in stale.conflicts for e in c.since) or "—"
    if undoing:
        return message("decision.undo_stale", steps=steps)
    if len(stale.conflicts) == 1:
        return message("decision.conflict", steps=steps)
    return message("decision.conflicts", count=len(stale.conflicts), steps=steps)


@dataclass
class Presence:
    """doc_id -> user -> when the user's page of it was last heard of (``clock`` seconds)."""

    window: float = PRESENCE_SECONDS
    clock: Callable[[], float] = time.monotonic
    seen: OrderedDict[str, dict[str, float]] = field(default_factory=OrderedDict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def visit(self, doc_id: str, user: str) -> list[str]:
        """Record that ``user`` has ``doc_id`` open; the other users who have it open, by name."""
        now = self.clock()
        with self.lock:
            users = self.seen.setdefault(doc_id, {})
            users[user] = now
            self.seen.move_to_end(doc_id)
            while len(self.seen) > MAX_PRESENT_DOCS:
                self.seen.popitem(last=False)
            for name in [n for n, t in users.items() if now - t > self.window]:
                del users[name]
            return sorted(n for n in users if n != user)


__all__ = ["APP_MESSAGES", "PRESENCE_POLL_SECONDS", "Presence", "claim_items", "conflict_message", "missing_text",
           "version_of"]
