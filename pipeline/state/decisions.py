"""Editors' decisions as records: the current decision on a claim, each step of its history, and the rules that
tie a decision to a claim (its text, and after a rename its text and sentence).

The ``Store`` keeps them in SQLite and the journal (``journal.py``) beside it; this module holds no I/O.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from enum import Enum
from typing import Any, TypeGuard

from ..records import Claim, DocumentResult


class ReviewStatus(str, Enum):
    OPEN = "open"  # no decision, or the claim's text changed since the decision, or reopened
    ACCEPTED = "accepted"  # the flag is right and the article is not fixed yet
    DISMISSED = "dismissed"  # the flag is wrong: never raise it again
    CORRECTED = "corrected"  # the article was fixed


DECISION_STATUSES: tuple[str, ...] = ("accepted", "dismissed", "corrected")
REVIEW_STATUSES: tuple[str, ...] = ("open", *DECISION_STATUSES)
RAISED_STATUSES = frozenset({"open", "accepted"})  # a flag in one of these still needs a change in the article
CLOSED_STATUSES = frozenset({"dismissed", "corrected"})
# What a claim id looks like (pipeline.api.claim_id): 16 hex digits, "-2", "-3" for repeats.
CLAIM_ID = re.compile(r"[0-9a-f]{16}(?:-[0-9]+)?")
SYSTEM_USER = "gpu-factcheck"  # who moves a decision to the renamed article's claim


@dataclass(frozen=True)
class Decision:
    """An editor's current decision on one claim, with the claim as the editor saw it."""

    claim_id: str
    status: str
    editor: str
    note: str
    decided_at: str
    doc_id: str
    text: str
    sentence: str = ""
    start: int = -1
    correction: str = ""


@dataclass(frozen=True)
class Event:
    """One step of a claim's history: who changed its review status from what to what, when and why.

    ``kind``: decision (an editor), import (from a CSV or another journal), moved (the article was renamed; the
    decision followed the claim from ``moved_from``)."""

    event_id: str
    claim_id: str
    doc_id: str
    at: str
    user: str
    from_status: str
    to_status: str
    note: str = ""
    correction: str = ""
    text: str = ""
    sentence: str = ""
    start: int = -1
    kind: str = "decision"
    moved_from: str = ""

    def to_api(self) -> dict[str, Any]:
        """The history item of the JSON API: {at, user, from, to, note} and a little more."""
        return {"at": self.at, "user": self.user, "from": self.from_status, "to": self.to_status,
                "note": self.note, "correction": self.correction, "kind": self.kind,
                **({"moved_from": self.moved_from} if self.moved_from else {})}

    def to_journal(self) -> dict[str, Any]:
        return {"v": 1, "type": "decision", "event_id": self.event_id, "kind": self.kind,
                "claim_id": self.claim_id, "doc_id": self.doc_id, "at": self.at, "user": self.user,
                "from": self.from_status, "to": self.to_status, "note": self.note, "correction": self.correction,
                "text": self.text, "sentence": self.sentence, "start": self.start, "moved_from": self.moved_from}

    @classmethod
    def from_journal(cls, d: Mapping[str, Any]) -> Event:
        """Raises KeyError or ValueError for a record that is not a decision event."""
        if d.get("type") != "decision":
            raise ValueError("not a decision record")
        to_status = str(d["to"])
        if to_status not in REVIEW_STATUSES:
            raise ValueError(f"unknown status {to_status!r}")
        return cls(str(d["event_id"]), str(d["claim_id"]), str(d.get("doc_id") or ""), str(d["at"]),
                   str(d.get("user") or ""), str(d.get("from") or "open"), to_status, str(d.get("note") or ""),
                   str(d.get("correction") or ""), str(d.get("text") or ""), str(d.get("sentence") or ""),
                   int(d.get("start", -1)), str(d.get("kind") or "decision"), str(d.get("moved_from") or ""))

    def decision(self) -> Decision | None:
        """The decision this step leaves in place (None: the claim is open again)."""
        if self.to_status == ReviewStatus.OPEN.value:
            return None
        return Decision(self.claim_id, self.to_status, self.user, self.note, self.at, self.doc_id, self.text,
                        self.sentence, self.start, self.correction)


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def new_event_id() -> str:
    return uuid.uuid4().hex


def decision_applies(decision: Decision | None, text: str) -> TypeGuard[Decision]:
    """A decision stays attached to its claim while the claim's text is what the editor saw."""
    return decision is not None and decision.text == text


def status_of(decision: Decision | None, text: str) -> str:
    return decision.status if decision_applies(decision, text) else ReviewStatus.OPEN.value


def review_extra(decision: Decision) -> dict[str, str]:
    """The ``claim.extra["review"]`` the reports read."""
    out = {"status": decision.status, "editor": decision.editor, "note": decision.note,
           "decided_at": decision.decided_at}
    if decision.correction:
        out["correction"] = decision.correction
    return out


def attach_reviews(result: DocumentResult, decisions: Mapping[str, Decision]) -> DocumentResult:
    """The result with each decided claim's decision in ``extra["review"]`` (while the claim's text is unchanged)."""
    if not decisions:
        return result
    claims = []
    for c in result.claims:
        d = decisions.get(c.claim_id)
        if d is not None and decision_applies(d, c.text):
            c = replace(c, extra={**c.extra, "review": review_extra(d)})
        claims.append(c)
    return replace(result, claims=tuple(claims))


def match_orphans(claims: Sequence[Claim], orphans: Iterable[Decision],
                  first_seen: Mapping[str, str] | None = None,
                  origins: Mapping[str, Iterable[str]] | None = None) -> list[tuple[Claim, Decision]]:
    """Pair claims that have no decision with decisions whose claim is gone (the article was renamed, or the
    claim's id changed while its words did not): on content first (same text and sentence), then on position
    (the same document first, then the nearest offset). Each claim and each decision is used once.

    ``first_seen`` (doc_id -> ISO time) leaves out documents the editor could already see when deciding: a claim
    they did not decide on then (an article's copy, say) does not take the decision now. ``origins`` (claim_id of
    a decision -> the claim ids it was moved from) lets a decision go back to a claim it was once on, whatever its
    document's first_seen (an article renamed and then renamed back), and before any other claim."""
    earlier = {k: set(v) for k, v in (origins or {}).items()}
    pool: dict[tuple[str, str], list[Decision]] = {}
    for d in orphans:
        if d.sentence:  # a decision made before sentences were recorded cannot be matched on content
            pool.setdefault((d.text, d.sentence), []).append(d)
    candidates: list[tuple[tuple[bool, bool, int, str, str], Claim, Decision]] = []
    for c in claims:
        for d in pool.get((c.text, c.sentence), ()):
            back = c.claim_id in earlier.get(d.claim_id, ())
            if not back and first_seen is not None and c.doc_id != d.doc_id and \
                    first_seen.get(c.doc_id, "") < d.decided_at:
                continue
            candidates.append(((not back, c.doc_id != d.doc_id, abs(d.start - c.start), c.claim_id, d.claim_id),
                               c, d))
    pairs: list[tuple[Claim, Decision]] = []
    used_claims: set[str] = set()
    used_decisions: set[str] = set()
    for _key, c, d in sorted(candidates, key=lambda t: t[0]):
        if c.claim_id in used_claims or d.claim_id in used_decisions:
            continue
        used_claims.add(c.claim_id)
        used_decisions.add(d.claim_id)
        pairs.append((c, d))
    return sorted(pairs, key=lambda p: (p[0].start, p[0].claim_id))
