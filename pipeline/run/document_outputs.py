"""One document's share of the run's outputs, made where the document is analysed (this process, a pool worker or
a Dask worker): its lines of claims.jsonl, documents.jsonl, claimreview.jsonl and claims.csv, its rows for the
claims suite, its index line, what the state stores for it, and its three report files, written here unless the
last complete run published the same ones and they are still on disk as it wrote them (``Published``: their
fingerprint, and the sha256 of each file). The main process only appends these in order (``outputs.Outputs``);
each claim is turned into a record and encoded once. A document whose outputs would take more than the run's
``max_output_bytes`` is an error document instead.
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
from ..records import DocumentResult, Status, Verdict
from ..state.decisions import Decision, attach_reviews

if TYPE_CHECKING:
    from ..report.tables import DocRow


FLAG_VERDICTS = frozenset(v.value for v in Verdict if v.is_flag)


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
    follow_symlinks: bool = False  # the articles are read as the run reads them (see ingest.reading)
    max_output_bytes: int = 32 * 1024 * 1024  # a document whose outputs take more is an error document
    timezone: str = ""  # the zone the pages show times in
    review_state: str | None = ""  # the --state a pasted review command needs ("": the default; None: no state)


@dataclass(frozen=True)
class Published:
    """A document's reports as the last complete run published them: what they showed, and each file's digest."""

    fingerprint: str
    files: tuple[tuple[str, str, int], ...] = ()  # (name, sha256, size) of its .md, .html and .json


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
    flagged_new: int  # open flags of a fresh document (every run counts them)
    failing_new: int = 0  # those whose verdict is in --fail-on (exit 3)
    state: Any = None  # store.PreparedResult, when the state is to save this document
    reports: tuple[tuple[str, str, int], ...] = ()  # (name, sha256, size) of its report files, as on disk

    @property
    def result(self) -> DocumentResult:
        """The document without its claims and text (for progress reports)."""
        return self.row.result


def source_bytes(result: DocumentResult, ctx: RunContext | None = None) -> bytes | None:
    """The article's file read again as the run reads it (no link out of the corpus), when its bytes are still those
    analysed; None if it cannot be."""
    from ..errors import InputError
    from ..ingest import read_article

    root = ctx.corpus if ctx is not None else Path(result.path)
    try:
        raw = read_article(Path(result.path), root, 1 << 62, follow_symlinks=ctx.follow_symlinks if ctx else False)
    except InputError:
        return None
    if result.sha256 and hashlib.sha256(raw).hexdigest() != result.sha256:
        return None  # changed since it was analysed: the next run analyses it again
    return raw


def source_text(result: DocumentResult, ctx: RunContext | None = None) -> str:
    """The text the claims' offsets point into: the derived text, or the file read again (``source_bytes``); ""
    if it cannot be."""
    if result.text is not None:
        return result.text
    raw = source_bytes(result, ctx)
    if raw is None:
        return ""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return ""


def report_fingerprint(r: DocumentResult, ref: Reference, ctx: RunContext | None = None) -> str:
    """Changes when anything shown in a document's report changes (content, reference, reviews, version, path,
    the zone of its times and the state its commands name)."""
    reviews = sorted((c.claim_id, json.dumps(c.extra.get("review"), sort_keys=True)) for c in r.claims
                     if "review" in c.extra)
    shown = [ctx.timezone, ctx.review_state] if ctx is not None else []
    key = json.dumps([r.sha256, r.status.value, r.message, ref.fingerprint, __version__, reviews,
                      len(r.claims), r.path, *shown])
    return hashlib.sha256(key.encode()).hexdigest()


def pipeline_version(result: DocumentResult, ctx: RunContext) -> str:
    """The version a result is stored with: a failure's includes the per-document limits (raising one retries)."""
    return ctx.failure_version if result.status is Status.ERROR else __version__


def render(result: DocumentResult, ref: Reference, ctx: RunContext, *, fresh: bool,
           old: Published | None, save: bool | None = None) -> DocumentOutput:
    """The document's outputs; its report files are written into ``ctx.out`` unless ``old`` (the last complete
    run's) shows the same and they are on disk as published. ``fresh``: analysed or re-checked in this run (its
    claims are validated and its new flags count for --fail-on). ``save``: prepare the state's row (default: fresh
    and the run keeps a state)."""
    from ..knowledge.validation.claims_suite import claim_row
    from ..report import claimreview_objects, doc_row, document_report_files
    from ..report.manifest import digest
    from ..report.tables import claim_views, csv_rows, display_for
    from ..state.store import prepare_result

    r = attach_reviews(result, ctx.decisions)
    linked = r.status is Status.OK or bool(r.claims)
    fingerprint = report_fingerprint(r, ref, ctx)
    current = old is not None and old.fingerprint == fingerprint and len(old.files) == 3 and \
        all(digest(ctx.out, name) == (sha, size) for name, sha, size in old.files)
    stale = linked and not current
    text = source_text(r, ctx) if (r.claims or stale) else ""
    display = display_for(r, ref.name, timezone=ctx.timezone, review_state=ctx.review_state) \
        if r.claims or stale else None
    records = []
    for c in r.claims:
        d = c.to_dict()
        d["review_status"] = c.extra["review"]["status"] if "review" in c.extra else "open"
        records.append(d)
    # each record encoded once: its claims.jsonl line, and without the review status (the last key) the claim's
    # own record, which the JSON report and the state use
    lines, size = [], 0
    for d in records:
        lines.append(_encode(d))
        size += 2 * len(lines[-1])  # claims.jsonl and the JSON report; claims.csv and the state below
        if size > ctx.max_output_bytes:
            return _too_large(result, size, ref, ctx, fresh=fresh, old=old, save=save)
    own = [line[:line.rindex(', "review_status": ')] + "}" for line in lines]
    verdicts = Counter(d["verdict"] for d in records)
    reasons = Counter(d["reason"] for d in records if d.get("reason"))
    new_flags = [d["verdict"] for d in records if d["verdict"] in FLAG_VERDICTS and d["review_status"] == "open"] \
        if fresh else []
    # an error or skipped document has no claims whose offsets need its length
    length = len(text) if r.claims else 0
    views = claim_views(r.claims, text, display) if display is not None else []  # for the pages and the reviews
    reviews = claimreview_objects(r, author=ctx.author, date_published=ctx.date, url_template=ctx.claimreview_url,
                                  names=ref.name, display=display, views=views)
    claims_csv = csv_rows(records, CSV_COLUMNS)
    review_lines = "".join(_line(o) for o in reviews)
    size += len(claims_csv.encode()) + len(review_lines.encode())
    files: dict[str, bytes] = {}
    if stale:
        # an HTML article's page is rendered from its elements, read again from the file
        html_source = source_bytes(r, ctx) if r.format == "html" and r.status is Status.OK and text else None
        files = {name: text_.encode("utf-8") for name, text_ in document_report_files(
            r, text, names=ref.name, display=display, records=own, views=views, html_source=html_source).items()}
        size += sum(len(data) for data in files.values())
    if size > ctx.max_output_bytes:
        return _too_large(result, size, ref, ctx, fresh=fresh, old=old, save=save)
    reports: tuple[tuple[str, str, int], ...] = ()
    if stale:
        from ..atomic import atomic_write_bytes

        ctx.out.mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            atomic_write_bytes(ctx.out / name, data)
        reports = tuple((name, hashlib.sha256(data).hexdigest(), len(data)) for name, data in files.items())
    elif linked and old is not None:
        reports = old.files
    checks = tuple(claim_row(d, length) for d in records) if fresh else ()
    return DocumentOutput(
        doc_id=r.doc_id, sha256=r.sha256, status=r.status,
        row=doc_row(r, ctx.out, linked=linked),
        fingerprint=fingerprint, claims_jsonl="".join(f"{line}\n" for line in lines),
        document_jsonl=_line(r.to_dict()),
        claimreview_jsonl=review_lines, claims_csv=claims_csv,
        checks=checks, verdicts=tuple(verdicts.items()), reasons=tuple(reasons.items()), claims=len(records),
        flagged_new=len(new_flags), failing_new=sum(1 for v in new_flags if v in ctx.fail_on),
        state=prepare_result(result, pipeline_version(result, ctx), own) if (fresh if save is None else save)
        and ctx.state else None,
        reports=reports)


def _too_large(result: DocumentResult, size: int, ref: Reference, ctx: RunContext, **kw: Any) -> DocumentOutput:
    """The document as an error: its outputs would take more than the run allows one document."""
    from dataclasses import replace

    limit = ctx.max_output_bytes
    message = (f"its outputs would take more than {size / 2**20:,.1f} MB, over the limit of {limit / 2**20:g} MB per "
               "document. Split the article or raise the limit (run --max-output-mb).")
    failed = replace(result, status=Status.ERROR, message=message, claims=(), mentions={})
    return render(failed, ref, ctx, **kw)


# json.dumps(obj, ensure_ascii=False) without making an encoder for each call
_encode = json.JSONEncoder(ensure_ascii=False).encode


def _line(obj: Any) -> str:
    return _encode(obj) + "\n"


def _csv_columns() -> tuple[str, ...]:
    """claims.csv's columns: a claims.jsonl record's keys, in their order (the review status last)."""
    from ..records import RECORD_FIELDS

    return (*RECORD_FIELDS, "review_status")


CSV_COLUMNS = _csv_columns()
