"""The run's outputs, written as documents stream through: claims.jsonl, documents.jsonl, claimreview.jsonl,
per-document reports (once their claims have passed the claims suite), claims.csv, index.html and summary.md;
and what decides that nothing needs rewriting.

They are published in an order that a crash at any point cannot make lie: first the data files (the three JSONL
tables, the reports, claims.csv), then index.html and summary.md, then the reports of articles that are gone are
removed, and last the marker ``.report-index.json``, which vouches that the set is complete and what it was made
from. A run killed before the marker leaves the old marker, so the next run sees that the outputs are not its own
and writes them again.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections import Counter
from collections.abc import Iterable, Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from . import __version__
from .config import Config
from .decisions import attach_reviews
from .ingest import OUTPUT_MARKER
from .records import DocumentResult, Status
from .reference import Reference

log = logging.getLogger("pipeline")


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Outputs:
    """Streams results into claims.jsonl, documents.jsonl, claimreview.jsonl and per-document reports."""

    def __init__(self, out: Path, ref: Reference, config: Config, store: Any, corpus: Path) -> None:
        from .atomic import AtomicJsonlWriter
        from .validation import ClaimsValidator

        self.out, self.ref, self.config, self.corpus = out, ref, config, corpus
        self.validator = ClaimsValidator()
        self.writers = [AtomicJsonlWriter(out / n) for n in ("claims.jsonl", "documents.jsonl", "claimreview.jsonl")]
        self.index_path = out / MARKER
        try:
            old = json.loads(self.index_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            old = {}
        self.old_index: dict[str, str] = old if isinstance(old, dict) else {}
        self.index: dict[str, str] = {}
        self.pending: list[DocumentResult] = []
        self.rows: list[Any] = []  # one slim index line per document
        self.verdicts: Counter[str] = Counter()
        self.reasons: Counter[str] = Counter()  # why claims are unverifiable
        self.claims = self.skipped = self.errors = self.flagged_new = 0
        self.decisions = store.decisions() if store else {}
        self.date = now()[:10]
        self.claims_hash = hashlib.sha256()
        self.contents: list[tuple[str, str]] = []  # (doc_id, sha256) of every document, for the run key

    def __enter__(self) -> Outputs:
        for w in self.writers:
            w.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        for w in reversed(self.writers):
            w.__exit__(*exc)
        if exc[0] is None:
            self._flush_reports()

    def add(self, result: DocumentResult, *, fresh: bool, fail_on: frozenset[str]) -> None:
        from .report import claimreview_objects, doc_row

        claims_out, docs_out, review_out = self.writers
        r = attach_reviews(result, self.decisions)
        # an error or skipped document has no claims whose offsets need its length
        length = len(r.text) if r.text is not None else len(_source_text(r, self.corpus)) if r.claims else 0
        self.validator.set_doc_length(r.doc_id, length)
        docs_out.write(r.to_dict())
        for c in r.claims:
            d = c.to_dict()
            d["review_status"] = c.extra["review"]["status"] if "review" in c.extra else "open"
            if fresh:
                self.validator.add(d)
            self.claims_hash.update(claims_out.write(d).encode())
            self.verdicts[d["verdict"]] += 1
            if d.get("reason"):
                self.reasons[d["reason"]] += 1
            # a flag an editor has decided on (accepted, dismissed, corrected) is never alerted again
            if fresh and d["verdict"] in fail_on and d["review_status"] == "open":
                self.flagged_new += 1
        for obj in claimreview_objects(r, author=self.config.author, date_published=self.date,
                                       url_template=self.config.claimreview_url, names=self.ref.name):
            review_out.write(obj)
        self.claims += len(r.claims)
        self.contents.append((r.doc_id, r.sha256))
        self.skipped += r.status is Status.SKIPPED
        self.errors += r.status is Status.ERROR
        fp = _report_fingerprint(r, self.ref)
        self.index[r.doc_id] = fp
        stale = self.old_index.get(r.doc_id) != fp or not _has_report(r, self.out)
        if (r.status is Status.OK or r.claims) and stale:
            self.pending.append(r)
        if self.validator.pending == 0 or len(self.pending) >= 256:
            self._flush_reports()
        self.rows.append(doc_row(r, self.out, linked=bool(r.status is Status.OK or r.claims)))

    def _flush_reports(self) -> None:
        """Write the reports of documents whose claims have been validated (a batch at a time)."""
        from .report import write_document_report

        if self.validator.pending:
            self._check(self.validator.finish())
        for r in self.pending:
            write_document_report(r, r.text if r.text is not None else _source_text(r, self.corpus), self.out,
                                  names=self.ref.name)
        self.pending = []

    @staticmethod
    def _check(problems: Any) -> None:
        if not problems.ok:
            log.error("claims table failed validation:\n%s", problems.summary())

    def finish_tables(self) -> None:
        """claims.csv (the last data file), rewritten only when the claims changed."""
        from .report import write_claims_csv

        self._check(self.validator.finish())
        self.index["_claims_sha256"] = digest = self.claims_hash.hexdigest()
        if self.old_index.get("_claims_sha256") != digest or not (self.out / "claims.csv").exists():
            write_claims_csv(self.out / "claims.jsonl", self.out / "claims.csv")

    def finish_index(self, run_info: dict[str, Any]) -> None:
        """index.html and summary.md, once the files they link to are in place."""
        from .report import write_index

        write_index(self.rows, self.out, run_info=run_info)

    def remove_stale_reports(self) -> list[str]:
        """Remove the reports of documents the last complete run had and this run has not (deleted, or now
        without a report); returns their doc_ids. Only names the marker lists are touched, never a pattern."""
        from .report.paths import safe_name

        kept = {safe_name(row.result.doc_id) for row in self.rows if row.html_name}
        removed = []
        for doc_id in sorted(d for d in self.old_index if d not in _MARKER_KEYS):
            stem = safe_name(doc_id)
            if stem in kept:
                continue
            for suffix in (".md", ".html", ".json"):
                (self.out / f"{stem}{suffix}").unlink(missing_ok=True)
            removed.append(doc_id)
        return removed

    def write_marker(self, key: str) -> None:
        """The last file of the run: the outputs are complete and were made for ``key``."""
        from .atomic import atomic_write_text

        self.index["_run"] = {"key": key, "claims": self.claims, "skipped": self.skipped,  # type: ignore[assignment]
                              "errors": self.errors, "verdicts": dict(self.verdicts), "reasons": dict(self.reasons)}
        atomic_write_text(self.index_path, json.dumps(self.index, ensure_ascii=False), durable=True)


MARKER = OUTPUT_MARKER  # written last: the outputs beside it are complete (see the module docstring)
_MARKER_KEYS = frozenset({"_claims_sha256", "_run"})  # the marker's keys that are not doc_ids
RUN_TABLES = ("claims.jsonl", "documents.jsonl", "claimreview.jsonl", "claims.csv", "index.html", "summary.md")


def run_key(contents: Iterable[tuple[str, str]], decisions: Mapping[str, Any], ref: Reference, config: Config,
            passed_over: tuple[int, ...] = ()) -> str:
    """What the run's outputs are made from: each document's content (doc_id, sha256), the reference, the
    pipeline version, the editors' decisions, the ClaimReview author, and the counts of files not read."""
    decided = sorted((d.claim_id, d.status, d.editor, d.note, d.decided_at, d.text) for d in decisions.values())
    key = json.dumps([sorted(contents), ref.fingerprint, __version__, decided, config.author, list(passed_over)],
                     ensure_ascii=False)
    return hashlib.sha256(key.encode()).hexdigest()


def unchanged_outputs(out: Path, run_key: str) -> dict[str, Any] | None:
    """The last run's summary when its outputs are complete and were made for the same run key."""
    try:
        index = json.loads((out / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    last = index.get("_run") if isinstance(index, dict) else None
    if not isinstance(last, dict) or last.get("key") != run_key or not all((out / n).exists() for n in RUN_TABLES):
        return None
    return last


def _has_report(r: DocumentResult, out: Path) -> bool:
    from .report.paths import safe_name

    return (out / f"{safe_name(r.doc_id)}.html").exists()


def _report_fingerprint(r: DocumentResult, ref: Reference) -> str:
    """Changes when anything shown in a document's report changes (content, reference, reviews, version)."""
    reviews = sorted((c.claim_id, json.dumps(c.extra.get("review"), sort_keys=True)) for c in r.claims
                     if "review" in c.extra)
    key = json.dumps([r.sha256, r.status.value, r.message, ref.fingerprint, __version__, reviews,
                      len(r.claims)])
    return hashlib.sha256(key.encode()).hexdigest()


def _source_text(result: DocumentResult, root: Path) -> str:
    if result.text is not None:
        return result.text
    try:
        with open(result.path, encoding="utf-8-sig", newline="") as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return ""
