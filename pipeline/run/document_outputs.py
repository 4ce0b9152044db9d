"""One document's share of the run's outputs, made where the document is analysed (this process, a pool worker or
a Dask worker): its lines of claims.jsonl, documents.jsonl, claimreview.jsonl and claims.csv, its rows for the
claims suite, its index line, what the state stores for it, and its three report files, written here when what
they show changed. The main process only appends these in order (``outputs.Outputs``); each claim is turned into
a record and encoded once.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import __version__
from ..knowledge.reference import Reference
from ..records import DocumentResult, Status
from ..state.decisions import Decision, attach_reviews

if TYPE_CHECKING:
    from ..report.tables import DocRow


@dataclass(frozen=True)
class RunContext:
    """What every document of a run needs besides the reference tables (sent to each worker once)."""

    out: Path
    corpus: Path
    author: str = "gpu-factcheck"
    claimreview_url: str | None = None
    date: str = ""  # the ClaimReviews' datePublished
    fail_on: frozenset[str] = frozenset()
    decisions: Mapping[str, Decision] = field(default_factory=dict)
    state: bool = True  # prepare what the state stores
    failure_version: str = ""  # the pipeline version a failed document is stored with


@dataclass(frozen=True)
class DocumentOutput:
    """Everything the run writes for one document, encoded."""

    doc_id: str
    sha256: str
    status: Status
    row: DocRow  # the index line (no claims, no text)
    fingerprint: str  # of what its report shows (see report_fingerprint)
    claims_jsonl: str  # its claims.jsonl lines, each ending in a newline
    document_jsonl: str
    claimreview_jsonl: str
    claims_csv: str  # its claims.csv rows (no header)
    checks: tuple[Any, ...]  # validation.claims_suite.ClaimRow per claim; empty when not fresh
    verdicts: tuple[tuple[str, int], ...]  # in the order they first appear (the marker keeps it); claims are checked
    reasons: tuple[tuple[str, int], ...]  # unverifiable claims by reason
    claims: int
    flagged_new: int  # open flags of a fresh document whose verdict is in --fail-on
    state: Any = None  # store.PreparedResult, when the state is to save this document

    @property
    def result(self) -> DocumentResult:
        """The document without its claims and text (for progress reports)."""
        return self.row.result


def source_text(result: DocumentResult) -> str:
    """The text the claims' offsets point into: the derived text, or the file read again ("" if it cannot be)."""
    if result.text is not None:
        return result.text
    try:
        with open(result.path, encoding="utf-8-sig", newline="") as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return ""


def report_fingerprint(r: DocumentResult, ref: Reference) -> str:
    """Changes when anything shown in a document's report changes (content, reference, reviews, version)."""
    reviews = sorted((c.claim_id, json.dumps(c.extra.get("review"), sort_keys=True)) for c in r.claims
                     if "review" in c.extra)
    key = json.dumps([r.sha256, r.status.value, r.message, ref.fingerprint, __version__, reviews,
                      len(r.claims)])
    return hashlib.sha256(key.encode()).hexdigest()


def pipeline_version(result: DocumentResult, ctx: RunContext) -> str:
    """The version a result is stored with: a failure's includes the per-document limits (raising one retries)."""
    return ctx.failure_version if result.status is Status.ERROR else __version__


def render(result: DocumentResult, ref: Reference, ctx: RunContext, *, fresh: bool,
           old_fingerprint: str | None, save: bool | None = None) -> DocumentOutput:
    """The document's outputs; its report files are written into ``ctx.out`` when ``old_fingerprint`` (the last
    complete run's) differs or they are missing. ``fresh``: analysed or re-checked in this run (its claims are
    validated and its new flags count for --fail-on). ``save``: prepare the state's row (default: fresh and the
    run keeps a state)."""
    from ..knowledge.validation.claims_suite import claim_row
    from ..report import claimreview_objects, doc_row, write_document_report
    from ..report.paths import safe_name
    from ..report.tables import claim_views, csv_rows, display_for
    from ..state.store import prepare_result

    r = attach_reviews(result, ctx.decisions)
    linked = r.status is Status.OK or bool(r.claims)
    fingerprint = report_fingerprint(r, ref)
    stale = old_fingerprint != fingerprint or not (ctx.out / f"{safe_name(r.doc_id)}.html").exists()
    text = source_text(r) if (r.claims or (linked and stale)) else ""
    display = display_for(r, ref.name) if r.claims or (linked and stale) else None
    records = []
    for c in r.claims:
        d = c.to_dict()
        d["review_status"] = c.extra["review"]["status"] if "review" in c.extra else "open"
        records.append(d)
    # each record encoded once: its claims.jsonl line, and without the review status (the last key) the claim's
    # own record, which the JSON report and the state use
    lines = [_encode(d) for d in records]
    own = [line[:line.rindex(', "review_status": ')] + "}" for line in lines]
    verdicts = Counter(d["verdict"] for d in records)
    reasons = Counter(d["reason"] for d in records if d.get("reason"))
    flagged_new = sum(1 for d in records if d["verdict"] in ctx.fail_on and d["review_status"] == "open") \
        if fresh else 0
    # an error or skipped document has no claims whose offsets need its length
    length = len(text) if r.claims else 0
    checks = tuple(claim_row(d, length) for d in records) if fresh else ()
    views = claim_views(r.claims, text, display) if display is not None else []  # for the pages and the reviews
    reviews = claimreview_objects(r, author=ctx.author, date_published=ctx.date, url_template=ctx.claimreview_url,
                                  names=ref.name, display=display, views=views)
    if linked and stale:
        write_document_report(r, text, ctx.out, names=ref.name, display=display, records=own, views=views)
    return DocumentOutput(
        doc_id=r.doc_id, sha256=r.sha256, status=r.status, row=doc_row(r, ctx.out, linked=linked),
        fingerprint=fingerprint, claims_jsonl="".join(f"{line}\n" for line in lines),
        document_jsonl=_line(r.to_dict()),
        claimreview_jsonl="".join(_line(o) for o in reviews), claims_csv=csv_rows(records, CSV_COLUMNS),
        checks=checks, verdicts=tuple(verdicts.items()), reasons=tuple(reasons.items()), claims=len(records),
        flagged_new=flagged_new,
        state=prepare_result(result, pipeline_version(result, ctx), own) if (fresh if save is None else save)
        and ctx.state else None)


# json.dumps(obj, ensure_ascii=False) without making an encoder for each call
_encode = json.JSONEncoder(ensure_ascii=False).encode


def _line(obj: Any) -> str:
    return _encode(obj) + "\n"


def _csv_columns() -> tuple[str, ...]:
    """claims.csv's columns: the contract's, then the other keys of a claims.jsonl record, in their order."""
    from ..records import CONTRACT_FIELDS, Claim

    record = Claim("", 0, 0, "", "", 0, None, None, "", None, None).to_dict()
    return (*CONTRACT_FIELDS, *(k for k in record if k not in CONTRACT_FIELDS), "review_status")


CSV_COLUMNS = _csv_columns()

