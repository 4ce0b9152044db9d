"""The run's outputs, written as documents stream through: claims.jsonl, documents.jsonl, claimreview.jsonl and
claims.csv appended from each document's outputs (made, and its reports written, where it was analysed: see
``document_outputs``), then index.html and summary.md; and what decides that nothing needs rewriting.

They are published in an order that a crash at any point cannot make lie: first the list of every file the run
may write (``.report-pending.json``), then the data files (the three JSONL tables, the reports, claims.csv), then
index.html and summary.md, then every file no current document owns is removed, and last the marker
``.report-index.json``, which vouches that the set is complete, what it was made from, and holds the manifest: the
sha256 and size of every file published (``report.manifest``). A run killed before the marker leaves the old
marker, so the next run sees that the outputs are not its own: it rewrites every report that is not on disk as the
manifest says, and removes what the killed run wrote for documents that are gone, whatever the corpus is now.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections import Counter
from collections.abc import Iterable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .. import __version__
from ..config import Config
from ..knowledge.reference import Reference
from ..records import Status
from ..report import manifest
from ..report.paths import safe_name
from ..report.tables import csv_header
from .document_outputs import CSV_COLUMNS, DocumentOutput, Published, RunContext

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
        old = manifest.read_marker(out)
        self.old_index: dict[str, str] = {k: v for k, v in old.items() if isinstance(v, str)}
        self.old_files = manifest.published(old)  # the last complete run's manifest
        self.files: dict[str, manifest.Digest] = {}  # what this run publishes
        self.index: dict[str, object] = {}  # doc_id -> report fingerprint, and the marker's own keys
        self.rows: list[Any] = []  # one slim index line per document
        self.verdicts: Counter[str] = Counter()
        self.reasons: Counter[str] = Counter()  # why claims are unverifiable
        self.claims = self.skipped = self.errors = self.flagged_new = self.failing_new = 0
        self.decisions = store.decisions() if store else {}
        self.keeps_state = store is not None
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

    def context(self, fail_on: frozenset[str], state: bool, failure_version: str,
                review_state: str | None = "") -> RunContext:
        """What the workers need to make each document's outputs (``review_state``: see RunContext)."""
        return RunContext(self.out, self.corpus, self.config.author, self.config.claimreview_url, self.date,
                          fail_on, self.decisions, state, failure_version, self.config.follow_symlinks,
                          self.config.max_output_bytes, self.config.timezone, review_state if state else None)

    def previous(self, doc_id: str) -> Published | None:
        """The document's reports as the last complete run published them (None: it had none)."""
        fingerprint = self.old_index.get(doc_id)
        if fingerprint is None:
            return None
        stem = safe_name(doc_id)
        names = (f"{stem}.md", f"{stem}.html", f"{stem}.json")
        files = tuple((n, *self.old_files[n]) for n in names if n in self.old_files)
        return Published(fingerprint, files if len(files) == len(names) else ())

    def begin(self, doc_ids: Iterable[str], extra: Iterable[str] = ()) -> None:
        """Before anything is written: every name this run may write (see the module docstring)."""
        names = {f"{safe_name(d)}{suffix}" for d in doc_ids for suffix in (".md", ".html", ".json")}
        manifest.write_pending(self.out, names | set(RUN_TABLES) | set(extra))

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
        self.failing_new += o.failing_new
        self.claims += o.claims
        self.contents.append((o.doc_id, o.sha256))
        self.skipped += o.status is Status.SKIPPED
        self.errors += o.status is Status.ERROR
        self.index[o.doc_id] = o.fingerprint
        self.rows.append(o.row)
        for name, sha, size in o.reports:
            self.files[name] = (sha, size)

    @staticmethod
    def _check(problems: Any) -> None:
        if not problems.ok:
            log.error("claims table failed validation:\n%s", problems.summary())

    def finish_tables(self) -> None:
        """The claims suite's last batch; claims.csv (the last data file), put in place unless the file on disk
        already holds exactly these bytes."""
        self._check(self.validator.finish())
        self.index["_claims_sha256"] = self.claims_hash.hexdigest()
        if not self.csv_rows:
            self.csv.write(csv_header(CSV_COLUMNS))
        written = self.csv.digest()
        if manifest.digest(self.out, "claims.csv") != written:
            self.csv.commit()
        self.csv.__exit__(None, None, None)
        self.files["claims.csv"] = written
        for w in self.writers:
            self.files[w.path.name] = w.digest()

    def finish_index(self, run_info: dict[str, Any]) -> None:
        """index.html and summary.md, once the files they link to are in place."""
        from ..report import write_index

        if self.keeps_state:  # the pages load it: write it first (see state.journal, "the review stamp")
            from ..atomic import atomic_write_text
            from ..state.journal import STAMP, stamp_script

            atomic_write_text(self.out / STAMP, stamp_script({r.result.doc_id: r.decided_at for r in self.rows
                                                              if r.decided_at}))
            self.published(STAMP)
        write_index(self.rows, self.out, run_info=run_info, stamp=self.keeps_state)
        for name in ("index.html", "summary.md"):
            self.published(name)

    def published(self, name: str) -> None:
        """A run table written elsewhere (index.html, summary.md, segments.jsonl) goes into the manifest."""
        found = manifest.digest(self.out, name)
        if found is None:
            raise OSError(f"{name} was written but is not a regular file of {self.out}")
        self.files[name] = found

    def remove_stale_files(self) -> list[str]:
        """Remove every file the last complete run published, or an interrupted run may have written, that this
        run does not publish (the reports of documents that are gone or now without a report, a segments.jsonl
        of an earlier --segments run); returns their names. Only names listed there are touched, never a
        pattern, so an editor's own files in the output folder stay."""
        legacy = {f"{safe_name(d)}{suffix}" for d in self.old_index if d not in _MARKER_KEYS
                  for suffix in (".md", ".html", ".json")}  # a marker written before manifests
        candidates = set(self.old_files) | manifest.read_pending(self.out) | legacy
        removed = []
        for name in sorted(candidates - set(self.files)):
            if name.startswith(".") or "/" in name or name in (manifest.MARKER, manifest.PENDING):
                continue
            try:
                (self.out / name).unlink()
            except FileNotFoundError:
                continue
            removed.append(name)
        return removed

    def write_marker(self, key: str) -> None:
        """The last file of the run: the outputs are complete, were made for ``key``, and are these (the
        manifest); then nothing is pending."""
        from ..atomic import atomic_write_text

        self.index["_run"] = {"key": key, "claims": self.claims, "skipped": self.skipped,
                              "errors": self.errors, "verdicts": dict(self.verdicts), "reasons": dict(self.reasons)}
        self.index[manifest.FILES] = manifest.as_marker(self.files)
        atomic_write_text(self.index_path, json.dumps(self.index, ensure_ascii=False), durable=True)
        manifest.clear_pending(self.out)


MARKER = manifest.MARKER  # written last: the outputs beside it are complete (see the module docstring)
_MARKER_KEYS = frozenset({"_claims_sha256", "_run", manifest.FILES})  # the marker's keys that are not doc_ids
RUN_TABLES = ("claims.jsonl", "documents.jsonl", "claimreview.jsonl", "claims.csv", "index.html", "summary.md")


def run_key(contents: Iterable[tuple[str, str]], decisions: Iterable[Any], ref: Reference, config: Config,
            passed_over: tuple[int, ...] = (), corpus: str = "") -> str:
    """What the run's outputs are made from: each document's content (doc_id, sha256), where the corpus is (the
    outputs show the articles' paths), the reference, the pipeline version, the editors' decisions on current
    claims (``Store.current_decisions``: a decision moved to a renamed article's claim counts once, where it is
    now), the ClaimReview author, and the counts of files not read."""
    decided = sorted((d.claim_id, d.status, d.editor, d.note, d.decided_at, d.text, d.correction)
                     for d in decisions)
    key = json.dumps([sorted(contents), ref.fingerprint, __version__, decided, config.author, list(passed_over),
                      corpus], ensure_ascii=False)
    return hashlib.sha256(key.encode()).hexdigest()


def unchanged_outputs(out: Path, run_key: str) -> dict[str, Any] | None:
    """The last run's summary when its outputs are complete, were made for the same run key, no run was
    interrupted since, and every file is on disk as its manifest says."""
    index = manifest.read_marker(out)
    last = index.get("_run")
    if not isinstance(last, dict) or last.get("key") != run_key or manifest.read_pending(out):
        return None
    files = manifest.published(index)
    if not set(RUN_TABLES) <= set(files) or not manifest.on_disk(out, files):
        return None
    return last
