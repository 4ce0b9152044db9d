"""The main job: a folder of articles in, reports and claims tables out, state remembered."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .. import __version__
from ..config import ARTICLE_SUFFIXES, Config
from ..errors import LockedError, RunFailed, UsageError, run_failed, storage_failed
from ..knowledge.reference import Reference, load_reference
from ..records import DocumentResult, Status
from ..report.display import local_time, zone_offset
from ..state.journal import STAMP
from .document_outputs import DocumentOutput, Published, RunContext, render
from .engine import check_dask, dask_map, file_sha256, local_map
from .outputs import Outputs, now, run_key, unchanged_outputs

log = logging.getLogger("pipeline")

EXIT_OK, EXIT_DOC_ERRORS, EXIT_UNUSABLE, EXIT_FLAGGED, EXIT_FAILED = 0, 1, 2, 3, 4
OUTPUT_LOCK = ".gpu-factcheck.lock"  # in the output folder: one run writes there at a time


@dataclass(frozen=True)
class RunOptions:
    corpus: Path
    config: Config = field(default_factory=Config)
    fail_on: frozenset[str] = frozenset()
    state: Path | None = None  # default: <out>/state.sqlite
    use_state: bool = True
    full: bool = False
    retry: bool = False  # process documents that failed before, though nothing they depend on changed
    follow_symlinks: bool = False  # read articles behind symbolic links that leave the corpus
    lock_timeout: float = 0.0
    engine: str = "local"  # local | dask
    scheduler: str | None = None


@dataclass
class RunSummary:
    started: str
    finished: str = ""
    documents: int = 0
    processed: int = 0
    carried_over: int = 0
    skipped: int = 0
    errors: int = 0
    deleted: int = 0
    claims: int = 0
    verdicts: dict[str, int] = field(default_factory=dict)
    reasons: dict[str, int] = field(default_factory=dict)  # unverifiable claims by reason
    flagged_new: int = 0  # open flags in new or changed documents (of every flag verdict)
    other_files: int = 0  # files of other types in the corpus, not read
    outside_links: int = 0  # symbolic links leaving the corpus, not followed
    special_files: int = 0  # FIFOs, sockets, devices, broken links and link loops, not read
    restored_from_journal: int = 0  # decisions and assignments the state lacked, replayed from the journal
    exit_code: int = 0
    seconds: float = 0.0
    reference_version: str = ""
    pipeline_version: str = __version__
    out_dir: str = ""

    def line(self) -> str:
        return json.dumps({"event": "run_finished", **self.__dict__}, ensure_ascii=False, sort_keys=True)


@dataclass(frozen=True)
class _Item:
    """One document of the run and what to do with it."""

    doc_id: str
    path: Path
    action: str  # process (new, changed, or failed and due again) | carry | recheck (new reference) | refuse
    sha256: str = ""  # known for carry and recheck


def validate_reference_or_fail(config: Config) -> Reference:
    from ..errors import ReferenceTableError
    from ..knowledge.validation import validate_reference

    result = validate_reference(config.reference_dir)
    if not result.ok:
        raise ReferenceTableError("the reference tables are invalid:\n" + result.summary())
    return load_reference(config.reference_dir)


def run(opts: RunOptions, progress: Callable[[int, int, DocumentResult], None] | None = None) -> RunSummary:
    """Process a corpus and write every output; returns the summary (its exit_code follows the CLI table).

    Documents stream through: each is analysed and its outputs made (its reports written) by a worker; this
    process saves them to the state in batches, appends them to the run tables and hands their claims to the
    claims suite; only one index line (counts, no claims, no text) is kept per document, so memory stays nearly
    flat on large corpora.

    Raises:
        FactCheckError: nothing was processed (bad usage, invalid reference, lock held: exit 2).
        RunFailed: the run itself failed, e.g. the disk is full (exit 4); earlier outputs are kept.
    """
    try:
        return _run(opts, progress)
    except sqlite3.Error as e:
        kept = "Every document saved before the failure is kept; the outputs of the last complete run were left " \
               "as they were."
        state = Path(opts.state) if opts.state else Path(opts.config.out_dir) / "state.sqlite"
        failure = storage_failed(e, f"the state database {state}", kept)
        if failure is not None:
            raise failure from e
        raise RunFailed(f"the state database failed: {e}. Check the disk (space, permissions) and run again; "
                        "every document saved before the failure is kept.") from e
    except OSError as e:
        raise run_failed(e) from e


def _run(opts: RunOptions, progress: Callable[[int, int, DocumentResult], None] | None) -> RunSummary:
    from ..ingest import walk

    t0 = time.monotonic()
    corpus = Path(opts.corpus)
    if not corpus.exists():
        raise UsageError(f"corpus folder {corpus} not found; pass a folder of .txt/.md/.html articles")
    config = opts.config
    if opts.follow_symlinks and not config.follow_symlinks:
        config = replace(config, follow_symlinks=True)
        opts = replace(opts, config=config)
    out = Path(config.out_dir)
    state_path = Path(opts.state) if opts.state else out / "state.sqlite"
    _check_out(corpus, out)
    walked = walk(corpus, exclude=_own_paths(corpus, out, state_path if opts.use_state else None),
                  follow_symlinks=config.follow_symlinks)
    if not walked.articles and not walked.bad_names:
        raise UsageError(_nothing_to_read(corpus, walked))
    for link in walked.outside_links:
        log.warning("not read: %s is a symbolic link that leaves the corpus (pass --follow-symlinks to read it)",
                    _shown(link, corpus))
    for folder in walked.passed_over:
        log.info("not read: %s holds the outputs or the state of a run", _shown(folder, corpus))
    for special in walked.special:
        log.info("not read: %s is not a regular file (a FIFO, socket or device, a broken link or a link loop)",
                 _shown(special, corpus))
    ref = validate_reference_or_fail(config)
    if opts.engine == "dask":
        if not opts.scheduler:
            raise UsageError("--engine dask needs --scheduler ADDRESS (e.g. tcp://127.0.0.1:8786)")
        check_dask(opts.scheduler)
    summary = RunSummary(started=now(), reference_version=ref.fingerprint[:12], out_dir=str(out),
                         other_files=walked.other_files, outside_links=len(walked.outside_links),
                         special_files=len(walked.special))
    out.mkdir(parents=True, exist_ok=True)
    with _lock_output(out, opts.lock_timeout):
        from ..state.store import Store

        store = Store(state_path) if opts.use_state else None
        try:
            with store.lock(opts.lock_timeout) if store else contextlib.nullcontext():
                _remove_stale_temp_files(out)
                if store:
                    summary.restored_from_journal = _replay_journal(store)
                _process(opts, corpus, out, ref, store, walked, summary, progress)
        finally:
            if store:
                store.close()
    summary.finished = now()
    summary.seconds = round(time.monotonic() - t0, 3)
    return summary


def _process(opts: RunOptions, corpus: Path, out: Path, ref: Reference, store: Any, walked: Any,
             summary: RunSummary, progress: Callable[[int, int, DocumentResult], None] | None) -> None:
    """Under the locks: plan, analyse, publish (data files, then index and summary, then the marker)."""
    from ..ingest import doc_id_for

    config = opts.config
    run_id = store.begin_run(ref.fingerprint, __version__) if store else 0
    plan = [_plan(store, f, doc_id_for(f, corpus), ref, opts) for f in walked.articles]
    plan += [_Item(doc_id_for(f, corpus), f, "refuse") for f in walked.bad_names]
    todo = [item for item in plan if item.action == "process"]
    summary.documents = len(plan)
    summary.carried_over = sum(item.action in ("carry", "recheck") for item in plan)
    if store and not todo and not opts.full and not config.write_segments:
        key = run_key([(i.doc_id, i.sha256) for i in plan], store.current_decisions(), ref, config,
                      _passed_over(summary), str(corpus))
        previous = unchanged_outputs(out, key)
        if previous is not None:  # nothing changed since the last run: its outputs are complete and current
            store.touch_many(run_id, [(i.doc_id, str(i.path)) for i in plan if i.action != "refuse"])
            for name in ("claims", "skipped", "errors", "verdicts", "reasons"):
                setattr(summary, name, previous.get(name, {}) if name == "reasons" else previous[name])
            summary.exit_code = EXIT_DOC_ERRORS if summary.errors else EXIT_OK
            store.finish_run(run_id, {"documents": summary.documents, "processed": 0,
                                      "claims": summary.claims, **summary.verdicts}, summary.exit_code)
            return
    if store:  # before any save: a renamed article's decisions follow its claims (see Store.save_result)
        summary.deleted = len(store.mark_deleted([i.doc_id for i in plan]))
    writer = Outputs(out, ref, config, store, corpus)
    writer.begin([i.doc_id for i in plan], [*(["segments.jsonl"] if config.write_segments else []),
                                             *([STAMP] if store else [])])
    ctx = writer.context(opts.fail_on, state=store is not None, failure_version=_failure_version(config),
                         review_state=_review_state(opts, out))
    tasks = [(str(i.path), str(corpus), writer.previous(i.doc_id)) for i in plan if i.action == "process"]
    engine = (dask_map(tasks, ref, config, opts.scheduler or "", ctx) if opts.engine == "dask"
              else local_map(tasks, ref, config, config.workers, ctx))
    merge = _Merge(writer, store, run_id, ref, ctx, progress, len(tasks))
    with contextlib.closing(engine), writer:
        for item in plan:
            old = writer.previous(item.doc_id)
            if item.action == "process":
                merge.processed(next(engine), old)
            elif item.action == "refuse":
                merge.other(render(_refused(item), ref, ctx, fresh=False, old=old))
            else:
                result = _carried(store, item, ref, config, corpus, before_save=merge.flush)
                merge.other(render(result, ref, ctx, fresh=item.action == "recheck", old=old, save=False))
        merge.flush()
    if store:
        store.touch_many(run_id, [(i.doc_id, str(i.path)) for i in plan if i.action in ("carry", "recheck")])
    if config.write_segments:
        _write_segments(plan, corpus, ref, config, out)
        writer.published("segments.jsonl")
    writer.finish_tables()
    summary.processed = len(todo)
    summary.skipped, summary.errors = writer.skipped, writer.errors
    summary.claims, summary.verdicts, summary.reasons = writer.claims, dict(writer.verdicts), dict(writer.reasons)
    summary.flagged_new = writer.flagged_new
    summary.exit_code = (EXIT_DOC_ERRORS if summary.errors else EXIT_FLAGGED if writer.failing_new
                         else EXIT_OK)
    summary.finished = now()
    writer.finish_index(_run_info(summary, config.timezone))
    for name in writer.remove_stale_files():
        log.info("removed %s (no document of the corpus has it now)", name)
    decided = store.current_decisions() if store else []
    writer.write_marker(run_key(writer.contents, decided, ref, config, _passed_over(summary), str(corpus)))
    if store:
        store.finish_run(run_id, {"documents": summary.documents, "processed": summary.processed,
                                  "claims": summary.claims, **summary.verdicts}, summary.exit_code)


# ---------------------------------------------------------------- what the run reads, and what it must not

def _passed_over(s: RunSummary) -> tuple[int, ...]:
    return s.other_files, s.outside_links, s.special_files


def _replay_journal(store: Any) -> int:
    """What the journal holds and the state lacks (a lost WAL, a commit the disk refused), replayed; how many."""
    if not store.journal.is_file():
        return 0
    restored = store.restore_journal(store.journal)
    count = int(restored.events + restored.assignments)
    if count:
        log.warning("the state lacked %d decision(s) or assignment(s) that the journal %s holds: replayed them",
                    count, store.journal)
    return count


def _check_out(corpus: Path, out: Path) -> None:
    from ..ingest import shown_name

    for what, path in (("corpus folder", corpus), ("--out", out)):
        if shown_name(str(path)) != str(path):
            raise UsageError(f"the path of the {what} {shown_name(str(path))} is not valid UTF-8 text; rename it "
                             "(names of files inside the corpus may be anything)")
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} is a file, not a folder; pass the folder the reports go to")
    if corpus.is_dir() and os.path.realpath(out) == os.path.realpath(corpus):
        raise UsageError(f"--out {out} is the corpus folder itself, where reports would overwrite articles named "
                         "like them; pass a folder of its own (a subfolder of the corpus is fine: it is never read)")


def _own_paths(corpus: Path, out: Path, state: Path | None) -> list[Path]:
    """The run's output folder, its state file and the state's folder, unless that is the corpus (or above it)."""
    paths = [out]
    if state is not None:
        paths.append(state)
        root = os.path.realpath(corpus)
        folder = os.path.realpath(state.parent)
        if not (root + os.sep).startswith(folder.rstrip(os.sep) + os.sep):
            paths.append(state.parent)
    return paths


def _nothing_to_read(corpus: Path, walked: Any) -> str:
    seen = walked.files_seen
    details = []
    if walked.other_files:
        details.append(f"{walked.other_files} of other types")
    if walked.outside_links:
        details.append(f"{len(walked.outside_links)} symbolic links leaving the corpus (--follow-symlinks reads "
                       "them)")
    what = f" ({', '.join(details)})" if details else ""
    return (f"no articles in {corpus}: {seen} file{'s' if seen != 1 else ''} seen{what}; articles end in "
            f"{', '.join(ARTICLE_SUFFIXES)}. Nothing was written.")


def _shown(path: Path, corpus: Path) -> str:
    from ..ingest import doc_id_for

    return doc_id_for(path, corpus)


@contextlib.contextmanager
def _lock_output(out: Path, timeout: float) -> Any:
    """Hold ``<out>/.gpu-factcheck.lock`` for the whole run (runs with different states share nothing else)."""
    from filelock import FileLock, Timeout

    lock = FileLock(out / OUTPUT_LOCK)
    try:
        lock.acquire(timeout=timeout)
    except Timeout:
        raise LockedError(f"another run is writing to {out}; wait for it or pass --lock-timeout SECONDS"
                          ) from None
    try:
        yield
    finally:
        lock.release()


def _remove_stale_temp_files(out: Path) -> None:
    """Temp files of an earlier run that was killed mid-write (the real outputs were never replaced)."""
    for tmp in out.glob(".*.tmp"):
        with contextlib.suppress(OSError):
            tmp.unlink()


# ---------------------------------------------------------------- what each document needs

def _failure_version(config: Config) -> str:
    """The "pipeline" a failure was met with: the version and the per-document limits (raising one retries)."""
    return (f"{__version__}+limits:{config.max_bytes}:{config.max_seconds:g}:{config.max_claims}:"
            f"{config.max_output_bytes}")


def _version_of(result: DocumentResult, config: Config) -> str:
    return _failure_version(config) if result.status is Status.ERROR else __version__


def _plan(store: Any, path: Path, doc_id: str, ref: Reference, opts: RunOptions) -> _Item:
    """process (new, changed, or failed and due again), carry (unchanged), or recheck (new reference tables).

    A document that failed is not retried (each try may cost the whole time limit) until its content, the
    reference, the pipeline or the limits change, or ``--retry``; an unreadable one (no content to compare) is.
    """
    if store is None or opts.full:
        return _Item(doc_id, path, "process")
    stored = store.document(doc_id)
    if stored is None or stored.deleted:
        return _Item(doc_id, path, "process")
    if stored.damaged:
        log.warning("the state's row for %s is damaged (it cannot be read back): analysing the article again", doc_id)
        return _Item(doc_id, path, "process")
    failed = stored.status == Status.ERROR.value
    if failed and (opts.retry or not stored.sha256):
        return _Item(doc_id, path, "process")
    if stored.pipeline_version != (_failure_version(opts.config) if failed else __version__):
        return _Item(doc_id, path, "process")
    sha = file_sha256(path, opts.corpus, opts.config.follow_symlinks)
    if not sha or sha != stored.sha256:
        return _Item(doc_id, path, "process")
    if stored.reference_version != ref.fingerprint:
        return _Item(doc_id, path, "process" if failed else "recheck", sha)
    return _Item(doc_id, path, "carry", sha)


def _refused(item: _Item) -> DocumentResult:
    """A file whose name is not UTF-8 text: reported with the name escaped, not read."""
    from ..ingest import format_for

    return DocumentResult(item.doc_id, item.doc_id, format_for(item.path).value, "", Status.ERROR,
                          f"the file name {item.doc_id} is not valid UTF-8 (the bytes that are not are shown as "
                          "\\xNN); rename the file and run again")


def _carried(store: Any, item: _Item, ref: Reference, config: Config, corpus: Path,
             before_save: Callable[[], None] = lambda: None) -> DocumentResult:
    """The stored result; with new reference tables its claims are re-checked without re-segmenting.
    ``before_save`` runs before the state is written to (the documents before this one are saved first)."""
    from ..check import CheckContext, check_claims, note_inconsistencies
    from ..state.store import DamagedRow
    from .engine import analyse_file

    try:
        previous: DocumentResult | None = store.load_result(item.doc_id)
    except DamagedRow as e:
        log.warning("%s: analysing the article again", e)
        previous = None
    if previous is None:  # the state lost it: analyse the file again
        result = analyse_file((str(item.path), str(corpus)), ref, config)
        before_save()
        store.save_result(0, result, ref.fingerprint, _version_of(result, config))
        return result
    previous = replace(previous, path=str(item.path))  # where it is now (the corpus may have moved)
    if item.action != "recheck":
        return previous
    named = set(previous.mentions.get("product_ids", {}))
    spec = [replace(c, check=None) for c in previous.claims if c.attribute != "code"]
    code = [c for c in previous.claims if c.attribute == "code"]
    checked = note_inconsistencies(check_claims(spec, ref, CheckContext(named=named), config.tolerance))
    result = replace(previous, claims=tuple(sorted(checked + code, key=lambda c: (c.start, c.end, c.attribute))))
    before_save()
    store.save_result(0, result, ref.fingerprint, __version__)
    return result


STATE_BATCH = 64  # at most so many documents saved in one transaction ...
STATE_BATCH_SECONDS = 2.0  # ... or fewer, when the batch's first document came in this long ago


class _Merge:
    """Appends the documents' outputs in the plan's order. Processed documents are saved to the state in batches
    (``Store.save_prepared``), and their outputs wait for their batch: a decision a document took over (after a
    rename) is in its outputs, and no output runs ahead of the state. A run killed before a batch is committed
    loses nothing but the work on that batch's documents: the next run processes them again."""

    def __init__(self, writer: Outputs, store: Any, run_id: int, ref: Reference, ctx: RunContext,
                 progress: Callable[[int, int, DocumentResult], None] | None, total: int) -> None:
        self.writer, self.store, self.run_id, self.ref, self.ctx = writer, store, run_id, ref, ctx
        self.progress, self.total, self.done = progress, total, 0
        self.queue: list[tuple[DocumentOutput, bool]] = []  # (outputs, processed in this run)
        self.batch: list[Any] = []
        self.since = 0.0

    def processed(self, o: DocumentOutput | DocumentResult, old: Published | None) -> None:
        if isinstance(o, DocumentResult):  # the engine could not make its outputs
            o = render(o, self.ref, self.ctx, fresh=True, old=old)
        if self.store is None:
            self._emit(o, True)
            return
        if not self.batch:
            self.since = time.monotonic()
        self.batch.append(o.state)
        self.queue.append((o, True))
        # batches grow (1, 1, 2, 4 ... STATE_BATCH documents): the first documents show at once
        if len(self.batch) >= min(STATE_BATCH, max(1, self.done)) or \
                time.monotonic() - self.since >= STATE_BATCH_SECONDS:
            self.flush()

    def other(self, o: DocumentOutput) -> None:
        if self.queue:
            self.queue.append((o, False))
        else:
            self._emit(o, False)

    def flush(self) -> None:
        """Commit the batch, then append the outputs waiting for it."""
        if self.batch:
            adopted = self.store.save_prepared(self.run_id, self.batch, self.ref.fingerprint)
            self.batch = []
            if adopted:
                self._show(adopted)
        queue, self.queue = self.queue, []
        for o, processed in queue:
            self._emit(o, processed)

    def _show(self, adopted: dict[str, Any]) -> None:
        """Outputs again, from the state, for the documents whose claims took over decisions."""
        self.writer.decisions.update(adopted)
        ctx = replace(self.ctx, decisions=self.writer.decisions)
        docs = {d.doc_id for d in adopted.values()}
        for n, (o, processed) in enumerate(self.queue):
            if o.doc_id in docs:
                result = self.store.load_result(o.doc_id)
                self.queue[n] = (render(result, self.ref, ctx, fresh=True, save=False,
                                        old=self.writer.previous(o.doc_id)), processed)

    def _emit(self, o: DocumentOutput, processed: bool) -> None:
        self.writer.add(o)
        if processed:
            self.done += 1
            if self.progress:
                self.progress(self.done, self.total, o.result)


def _write_segments(plan: list[_Item], root: Path, ref: Reference, config: Config, out: Path) -> None:
    from ..atomic import AtomicJsonlWriter
    from ..errors import InputError
    from ..ingest import read_document
    from ..segment import get_segmenter

    seg = get_segmenter(ref)
    with AtomicJsonlWriter(out / "segments.jsonl") as w:
        for item in plan:
            if item.action == "refuse":
                continue
            try:
                doc = read_document(item.path, root, max_bytes=config.max_bytes,
                                    follow_symlinks=config.follow_symlinks)
            except InputError:
                continue
            for s in seg.segment(doc, with_tokens=True, max_chars=config.window_chars).sentences:
                w.write({"doc_id": item.doc_id, "sentence_index": s.index, "start": s.start, "end": s.end,
                         "text": s.text, "kind": s.kind.value, "tokens": list(s.tokens)})


def _review_state(opts: RunOptions, out: Path) -> str:
    """The --state a `review` command pasted from a report needs: none for the default (reports/state.sqlite, as
    `review` assumes), else the state's absolute path."""
    if opts.state is None and Path(out) == Path("reports"):
        return ""
    return str((Path(opts.state) if opts.state else Path(out) / "state.sqlite").resolve())


def _run_info(s: RunSummary, zone: str = "") -> dict[str, Any]:
    """The run's facts for the top of index.html, labelled in Chinese for the editors."""
    zh = {"supported": "支持", "contradicted": "矛盾", "misattributed": "张冠李戴", "unverifiable": "无法核实",
          "code_issue": "代码问题"}
    passed_over = {"其他类型文件": s.other_files, "未跟随的外部链接": s.outside_links, "特殊文件": s.special_files}
    return {"开始": local_time(s.started, zone), "结束": local_time(s.finished, zone),
            "时区": f"{zone_offset(zone)}（与协调世界时之差）", "文档": s.documents, "本次处理": s.processed,
            "未变沿用": s.carried_over, "跳过": s.skipped, "出错": s.errors, "论断": s.claims,
            **{zh.get(k, k): v for k, v in s.verdicts.items()},
            **{k: v for k, v in passed_over.items() if v},
            "参考表版本": s.reference_version, "程序版本": s.pipeline_version}
