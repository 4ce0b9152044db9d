"""The run's outputs, written as documents stream through: claims.jsonl, documents.jsonl, claimreview.jsonl and
claims.csv appended from each document's outputs (made, and its reports written, where it was analysed: see
``document_outputs``), then index.html and summary.md; and what decides that nothing needs rewriting.

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

from .. import __version__
from ..config import Config
from ..ingest import OUTPUT_MARKER
from ..knowledge.reference import Reference
from ..records import CONTRACT_FIELDS, Status
from ..report.tables import csv_header
from .document_outputs import CSV_COLUMNS, DocumentOutput, RunContext

log = logging.getLogger("pipeline")


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Outputs:
    """Appends each document's outputs (``document_outputs.DocumentOutput``, made where it was analysed) to
    claims.jsonl, documents.jsonl, claimreview.jsonl and claims.csv, in the run's order, and hands its claims to
    the claims suite; keeps one slim index line per document."""

    def __init__(self, out: Path, ref: Reference, config: Config, store: Any, corpus: Path) -> None:
        from ..atomic import AtomicJsonlWriter, AtomicTextFile
        from ..knowledge.validation import ClaimsValidator

        self.out, self.ref, self.config, self.corpus = out, ref, config, corpus
        self.validator = ClaimsValidator()
        self.writers = [AtomicJsonlWriter(out / n) for n in ("claims.jsonl", "documents.jsonl", "claimreview.jsonl")]
        self.csv = AtomicTextFile(out / "claims.csv")  # put in place by finish_tables, after the JSONL tables
        self.csv_rows = 0
        self.index_path = out / MARKER
        try:
            old = json.loads(self.index_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            old = {}
        self.old_index: dict[str, str] = old if isinstance(old, dict) else {}
        self.index: dict[str, object] = {}  # doc_id -> report fingerprint, and the marker's own keys
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
        self.csv.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        for w in reversed(self.writers):
            w.__exit__(*exc)
        if exc[0] is not None:
            self.csv.__exit__(*exc)

    def context(self, fail_on: frozenset[str], state: bool, failure_version: str) -> RunContext:
        """What the workers need to make each document's outputs."""
        return RunContext(self.out, self.corpus, self.config.author, self.config.claimreview_url, self.date,
                          fail_on, self.decisions, state, failure_version)

    def add(self, o: DocumentOutput) -> None:
        claims_out, docs_out, review_out = self.writers
        docs_out.write_lines(o.document_jsonl)
        if o.claims_jsonl:
            claims_out.write_lines(o.claims_jsonl)
            self.claims_hash.update(o.claims_jsonl.replace("\n", "").encode())  # the lines, as one string
            if not self.csv_rows:
                self.csv.write(csv_header(CSV_COLUMNS))
            self.csv.write(o.claims_csv)
            self.csv_rows += o.claims
        if o.claimreview_jsonl:
            review_out.write_lines(o.claimreview_jsonl)
        if o.checks:
            self.validator.add_rows(o.checks)
        for verdict, n in o.verdicts:
            self.verdicts[verdict] += n
        self.reasons.update(dict(o.reasons))
        self.flagged_new += o.flagged_new
        self.claims += o.claims
        self.contents.append((o.doc_id, o.sha256))
        self.skipped += o.status is Status.SKIPPED
        self.errors += o.status is Status.ERROR
        self.index[o.doc_id] = o.fingerprint
        self.rows.append(o.row)

    @staticmethod
    def _check(problems: Any) -> None:
        if not problems.ok:
            log.error("claims table failed validation:\n%s", problems.summary())

    def finish_tables(self) -> None:
        """The claims suite's last batch; claims.csv (the last data file), put in place only when the claims
        changed."""
        self._check(self.validator.finish())
        self.index["_claims_sha256"] = digest = self.claims_hash.hexdigest()
        if not self.csv_rows:
            self.csv.write(csv_header(CONTRACT_FIELDS))
        if self.old_index.get("_claims_sha256") != digest or not (self.out / "claims.csv").exists():
            self.csv.commit()
        self.csv.__exit__(None, None, None)

    def finish_index(self, run_info: dict[str, Any]) -> None:
        """index.html and summary.md, once the files they link to are in place."""
        from ..report import write_index

        write_index(self.rows, self.out, run_info=run_info)

    def remove_stale_reports(self) -> list[str]:
        """Remove the reports of documents the last complete run had and this run has not (deleted, or now
        without a report); returns their doc_ids. Only names the marker lists are touched, never a pattern."""
        from ..report.paths import safe_name

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
        from ..atomic import atomic_write_text

        self.index["_run"] = {"key": key, "claims": self.claims, "skipped": self.skipped,
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
