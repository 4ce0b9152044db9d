"""What the review app's pages and API show, built from the state: the queue, one article, one claim."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from ..lexicon.labels import label, labels, message
from ..records import Claim, DocumentResult, Status, Verdict, claim_from_dict
from ..report.display import local_time
from ..report.html import document_context
from ..report.tables import (
    DOC_SEVERITY,
    EVIDENCE_ZH,
    REVIEW_ZH,
    VERDICT_ZH,
    ClaimView,
    claim_views,
    display_for,
    report_verdict,
    review_of,
)
from ..state.decisions import REVIEW_STATUSES, attach_reviews
from ..state.store import Store

Names = Callable[[str], str] | None


@dataclass(frozen=True)
class QueueFilters:
    """The queue's filters, as the query string gives them (empty: no filter)."""

    verdict: str = ""
    status: str = "open"
    doc_id: str = ""
    subject: str = ""
    attribute: str = ""
    assignee: str = ""
    evidence: str = ""  # what the flag rests on: vendor, database
    q: str = ""

    @classmethod
    def from_query(cls, params: Mapping[str, str]) -> QueueFilters:
        values = {f.name: params.get(f.name, "").strip() for f in fields(cls)}
        if "status" not in params:
            values["status"] = "open"  # the queue opens on the flags nobody has decided on
        if values["verdict"] not in VERDICT_ZH:
            values["verdict"] = ""
        if values["status"] not in REVIEW_STATUSES:
            values["status"] = ""
        if values["evidence"] not in EVIDENCE_ZH:
            values["evidence"] = ""
        return cls(**values)

    def link(self, **changes: str) -> str:
        """The queue's URL with some filters changed."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update(changes)
        return "/?" + urlencode(values)

    def export(self) -> str:
        """The CSV of the queue as shown: /api/claims.csv with these filters (flags only, as the queue, unless a
        verdict is asked for)."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        return "/api/claims.csv?" + urlencode({**values, "flagged": "" if self.verdict else "1"})


def _claim(row: Mapping[str, Any]) -> Claim:
    """A stored claim dict (with its review fields) as a Claim whose extra carries the review, as reports read."""
    claim = claim_from_dict(dict(row))
    if row.get("editor") and row.get("review_status") != "open":
        review = {"status": row["review_status"], "editor": row["editor"], "note": row.get("note") or "",
                  "decided_at": row.get("decided_at") or "", "correction": row.get("correction") or ""}
        claim = replace(claim, extra={**claim.extra, "review": review})
    return claim


def claim_labels(view: ClaimView) -> dict[str, Any]:
    """The Chinese words for a claim, for the API and the page's script (the decision's time in the app's zone)."""
    return {"verdict": view.verdict_zh, "review_status": view.review_zh, "attribute": view.attribute_zh,
            "subject": view.subject_name, "expected": view.expected, "explanation": view.explanation,
            "reason": view.reason_zh, "evidence": view.evidence_zh, "decided_at": view.decided_zh}


def history_items(events: list[dict[str, Any]], timezone: str = "") -> list[dict[str, Any]]:
    """History items (Event.to_api) with the statuses' Chinese labels and the time in ``timezone`` (at_zh)."""
    return [{**e, "from_zh": REVIEW_ZH.get(e["from"], e["from"]), "to_zh": REVIEW_ZH.get(e["to"], e["to"]),
             "kind_zh": label("event", e.get("kind")) or "", "at_zh": local_time(e.get("at"), timezone)}
            for e in events]


REVIEW_FIELDS = ("review_status", "assignee", "editor", "note", "decided_at", "correction", "version", "history",
                 "document_verdict")
EXTRA_FIELDS = ("reason", "scope")  # the checker's, when it wrote them


def api_claim(row: dict[str, Any], names: Names, timezone: str = "") -> dict[str, Any]:
    """One claim for the API: the claims.jsonl fields, review_status, assignee, the decision, history when
    given, and the Chinese labels."""
    claim = _claim(row)
    view = claim_views([claim], "", display_for(DocumentResult(claim.doc_id, "", "", "", Status.OK,
                                                               claims=(claim,)), names, timezone=timezone))[0]
    out = claim.to_dict()
    out.update({k: row[k] for k in (*EXTRA_FIELDS, *REVIEW_FIELDS) if k in row})
    out["labels"] = claim_labels(view)
    if "history" in out:
        out["history"] = history_items(out["history"], timezone)
    return out


def _doc_results(rows: list[dict[str, Any]], titles: Mapping[str, str | None]) -> dict[str, DocumentResult]:
    claims: dict[str, list[Claim]] = {}
    for r in rows:
        claims.setdefault(r["doc_id"], []).append(_claim(r))
    return {d: DocumentResult(d, "", "", "", Status.OK, title=titles.get(d), claims=tuple(claims.get(d, ())))
            for d in titles}


def document_rows(store: Store) -> list[dict[str, Any]]:
    """Every current document with its verdict as the pages show it, flag counts and assignee; worst first."""
    titles = store.doc_titles()
    results = _doc_results(store.list_claims(), titles)
    assigned = store.assignments()
    out: list[dict[str, Any]] = []
    for doc_id, r in results.items():
        reviews = (review_of(c) for c in r.claims if c.verdict is not None and c.verdict.is_flag)
        statuses = Counter(review.status if review else "open" for review in reviews)
        verdict = report_verdict(r)
        out.append({"doc_id": doc_id, "title": titles.get(doc_id), "verdict": verdict,
                    "severity": DOC_SEVERITY.get(verdict, 1), "flags": sum(statuses.values()),
                    "open": statuses["open"] + statuses["accepted"], "pending": statuses["open"],
                    "assignee": assigned.get(doc_id)})
    out.sort(key=lambda d: (-d["severity"], -d["open"], d["doc_id"]))
    return out


def doc_verdict(store: Store, doc_id: str) -> str:
    """The document's verdict as the pages show it, after the latest decisions."""
    titles = {doc_id: None}
    return report_verdict(_doc_results(store.list_claims(doc_id=doc_id), titles)[doc_id])


def queue(store: Store, names: Names, filters: QueueFilters, user: str = "", timezone: str = "") -> dict[str, Any]:
    """The queue page: matching claims grouped by document (worst document first), counts per status, options,
    each claim's version; and what the assignee filter means when ``user`` has nothing assigned."""
    docs = document_rows(store)
    order = {d["doc_id"]: i for i, d in enumerate(docs)}
    matching = store.list_claims(verdict=filters.verdict or None, doc_id=filters.doc_id or None,
                                 subject=filters.subject or None, attribute=filters.attribute or None,
                                 assignee=filters.assignee or None, q=filters.q or None,
                                 evidence=filters.evidence or None, flagged_only=not filters.verdict)
    counts = Counter(c["review_status"] for c in matching)
    shown = [c for c in matching if not filters.status or c["review_status"] == filters.status]
    grouped: dict[str, list[Claim]] = {}
    for row in shown:
        grouped.setdefault(row["doc_id"], []).append(_claim(row))
    by_doc = {d: claim_views(cs, "", display_for(DocumentResult(d, "", "", "", Status.OK, claims=tuple(cs)), names,
                                                 timezone=timezone))
              for d, cs in grouped.items()}
    info = {d["doc_id"]: d for d in docs}
    groups = [{**info[d], "claims": views} for d, views in sorted(by_doc.items(), key=lambda kv: order[kv[0]])]
    everything = store.list_claims(flagged_only=True)
    products = sorted({c["subject"] for c in everything if c.get("subject")})
    name_of = (lambda s: names(s)) if names else (lambda s: s)
    assignees = sorted({d["assignee"] for d in docs if d["assignee"]})
    # a card the reference does not know (model:nvidia:k20m) by the article's own words for it
    mentions = {c["subject"]: c["subject_mention"] for c in everything if c.get("subject_mention")}
    return {
        "versions": store.versions(),
        "assignee_note": _assignee_note(filters.assignee, assignees),
        "filters": filters,
        "groups": groups,
        "shown": len(shown),
        "counts": {s: counts[s] for s in REVIEW_STATUSES},
        "total": len(matching),
        "verdicts": VERDICT_ZH,
        "flag_verdicts": [v.value for v in Verdict if v.is_flag],
        "statuses": labels("review"),
        "evidences": EVIDENCE_ZH,
        "attributes": {a: label("attribute", a) or "其他" for a in sorted({c["attribute"] for c in everything})},
        "products": {p: name_of(p) if name_of(p) != p else mentions.get(p) or p for p in products},
        "documents": [(d["doc_id"], d["title"] or d["doc_id"]) for d in docs],
        "assignees": sorted({*assignees, *([filters.assignee] if filters.assignee not in ("", "-") else [])}),
    }


def _assignee_note(assignee: str, assigned: list[str]) -> str:
    """Says that the queue shows one editor's documents only (and why it is empty when none is theirs)."""
    if assignee in ("", "-"):
        return ""
    return message("queue.assignee_only" if assignee in assigned else "queue.assignee_none", name=assignee)


def article_text(result: DocumentResult) -> tuple[str | None, str]:
    """The text the claims' offsets point into, or None and why it cannot be shown."""
    if result.text is not None:
        return result.text, ""
    try:
        raw = Path(result.path).read_bytes()
    except OSError:
        return None, f"原文文件不在原处（{result.path}），下面只列出论断。"
    if hashlib.sha256(raw).hexdigest() != result.sha256:
        return None, "原文在上次核查之后改过，请重新运行核查；下面只列出论断。"
    try:
        return raw.decode("utf-8-sig"), ""
    except UnicodeDecodeError:
        return None, "原文无法按 UTF-8 读出，下面只列出论断。"


def html_source(result: DocumentResult) -> bytes | None:
    """An HTML article's file, which its page is rendered from, when it is still the one analysed; else None (the
    page shows the text as extracted)."""
    if result.format != "html":
        return None
    try:
        raw = Path(result.path).read_bytes()
    except OSError:
        return None
    return raw if hashlib.sha256(raw).hexdigest() == result.sha256 else None


def document_page(store: Store, names: Names, doc_id: str, timezone: str = "") -> dict[str, Any] | None:
    """The article page of a current document, or None."""
    stored = store.document(doc_id)
    if stored is None or stored.deleted:
        return None
    result = store.load_result(doc_id)
    if result is None:
        return None
    result = attach_reviews(result, store.decisions())
    # a file that was not read as an article (binary, not decodable, too large) is not shown as one
    text, problem = article_text(result) if result.status is Status.OK else ("", "")
    context = document_context(result, text or "", display_for(result, names, timezone=timezone),
                               html_source=html_source(result))
    flagged = [*context["flagged"], *context["closed"]]
    context.update(
        app=True,
        problem=problem,
        versions=store.versions(),
        twins=identical_flags(flagged),
        identical_label=lambda count: message("decision.identical", count=count),
        history={v.claim.claim_id: history_items([e.to_api() for e in store.history(v.claim.claim_id)], timezone)
                 for v in flagged},
        assignee=store.assignments().get(doc_id),
        order={v.key: i for i, v in enumerate(flagged)},
    )
    return context


def identical_flags(flagged: list[ClaimView]) -> dict[str, list[str]]:
    """claim_id -> the other flags of the article with the same text, attribute and subject (a sentence repeated,
    a figure given twice), for "apply to the identical ones"."""
    groups: dict[tuple[str, str, str], list[str]] = {}
    for v in flagged:
        groups.setdefault((v.claim.text, v.claim.attribute, v.claim.subject or ""), []).append(v.claim.claim_id)
    return {cid: [o for o in ids if o != cid] for ids in groups.values() if len(ids) > 1 for cid in ids}
