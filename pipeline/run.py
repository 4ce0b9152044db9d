"""The main job: a folder of articles in, reports and claims tables out, state remembered."""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import signal
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from . import __version__
from .config import Config
from .errors import UsageError
from .records import DocumentResult, Status
from .reference import Reference, load_reference

log = logging.getLogger("pipeline")

EXIT_OK, EXIT_DOC_ERRORS, EXIT_UNUSABLE, EXIT_FLAGGED = 0, 1, 2, 3


@dataclass(frozen=True)
class RunOptions:
    corpus: Path
    config: Config = field(default_factory=Config)
    fail_on: frozenset[str] = frozenset()
    state: Path | None = None  # default: <out>/state.sqlite
    use_state: bool = True
    full: bool = False
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
    flagged_new: int = 0
    exit_code: int = 0
    seconds: float = 0.0
    reference_version: str = ""
    pipeline_version: str = __version__
    out_dir: str = ""

    def line(self) -> str:
        return json.dumps({"event": "run_finished", **self.__dict__}, ensure_ascii=False, sort_keys=True)


# ---------------------------------------------------------------- per-document work (runs in workers too)

_WORKER: dict[str, Any] = {}


def _init_worker(config: Config) -> None:
    _WORKER["config"] = config
    _WORKER["ref"] = load_reference(config.reference_dir)


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise TimeoutError after ``seconds`` (main thread on POSIX only; elsewhere no limit)."""
    usable = seconds > 0 and hasattr(signal, "setitimer")
    try:
        previous = signal.signal(signal.SIGALRM, _alarm) if usable else None
    except ValueError:  # not the main thread
        usable, previous = False, None
    if usable:
        signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        if usable:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


def _alarm(signum: int, frame: object) -> None:
    raise TimeoutError


def process_one(path_and_root: tuple[str, str]) -> DocumentResult:
    """Analyse one file in a worker; never raises."""
    from .api import process_path
    from .ingest import doc_id_for

    path, root = Path(path_and_root[0]), Path(path_and_root[1])
    config: Config = _WORKER.get("config") or Config()
    ref: Reference = _WORKER.get("ref") or load_reference(config.reference_dir)
    try:
        with time_limit(config.max_seconds):
            return process_path(path, root, ref, config)
    except TimeoutError:
        msg = f"gave up after {config.max_seconds:g}s (raise the per-document limit with --max-seconds)"
    except Exception as e:
        log.exception("unexpected failure on %s", path)
        msg = f"internal error while analysing: {e!r}"
    return DocumentResult(doc_id_for(path, root), str(path), path.suffix.lstrip(".") or "txt", "", Status.ERROR,
                          msg)


def _local_map(tasks: list[tuple[str, str]], config: Config, workers: int) -> Iterator[DocumentResult]:
    if workers <= 1 or len(tasks) < 8 * workers:  # a pool costs a spaCy start-up per worker
        _init_worker(config)
        for t in tasks:
            yield process_one(t)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=workers, initializer=_init_worker, initargs=(config,)) as pool:
        yield from pool.map(process_one, tasks, chunksize=max(1, min(32, len(tasks) // (workers * 4) or 1)))


def _dask_map(tasks: list[tuple[str, str]], config: Config, scheduler: str) -> Iterator[DocumentResult]:
    from .errors import UsageError as _Usage

    try:
        from distributed import Client
    except ImportError as e:  # pragma: no cover - dask is an optional extra
        raise _Usage("--engine dask needs the dask extra: pip install 'gpu-factcheck[dask]'") from e
    try:
        client = Client(scheduler, timeout="10s")
    except (OSError, TimeoutError) as e:
        raise _Usage(f"cannot reach the Dask scheduler at {scheduler}: {e}. Check the address (tcp://HOST:8786) "
                     "and that the scheduler is running.") from e
    try:
        client.run(_init_worker, config)
        futures = client.map(process_one, tasks, pure=False)
        for fut in futures:
            yield fut.result()
    finally:
        client.close()


def check_dask(scheduler: str) -> None:
    """Fail early (before anything is written) when the scheduler is unreachable."""
    try:
        from distributed import Client
    except ImportError as e:  # pragma: no cover
        raise UsageError("--engine dask needs the dask extra: pip install 'gpu-factcheck[dask]'") from e
    try:
        Client(scheduler, timeout="5s").close()
    except (OSError, TimeoutError) as e:
        raise UsageError(f"cannot reach the Dask scheduler at {scheduler}: {e}. Check the address (tcp://HOST:8786) "
                         "and that the scheduler is running.") from e


# ---------------------------------------------------------------- the run

def validate_reference_or_fail(config: Config) -> Reference:
    from .errors import ReferenceTableError
    from .validation import validate_reference

    result = validate_reference(config.reference_dir)
    if not result.ok:
        raise ReferenceTableError("the reference tables are invalid:\n" + result.summary())
    return load_reference(config.reference_dir)


def run(opts: RunOptions, progress: Callable[[int, int, DocumentResult], None] | None = None) -> RunSummary:
    """Process a corpus and write every output; returns the summary (its exit_code follows the CLI table).

    Documents stream through: each result is saved to the state, written to the run tables and validated, and its
    report is written once its batch of claims has passed the claims suite; only one index line (counts, no claims,
    no text) is kept per document, so memory stays nearly flat on large corpora.
    """
    from .ingest import discover, doc_id_for
    from .store import Store

    t0 = time.monotonic()
    corpus = Path(opts.corpus)
    if not corpus.exists():
        raise UsageError(f"corpus folder {corpus} not found; pass a folder of .txt/.md/.html articles")
    config = opts.config
    ref = validate_reference_or_fail(config)
    if opts.engine == "dask":
        if not opts.scheduler:
            raise UsageError("--engine dask needs --scheduler ADDRESS (e.g. tcp://127.0.0.1:8786)")
        check_dask(opts.scheduler)
    files = discover(corpus)
    out = Path(config.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    summary = RunSummary(started=_now(), reference_version=ref.fingerprint[:12], out_dir=str(out))
    store = Store(opts.state or (out / "state.sqlite")) if opts.use_state else None
    lock = store.lock(opts.lock_timeout) if store else contextlib.nullcontext()
    with lock:
        _remove_stale_temp_files(out)
        run_id = store.begin_run(ref.fingerprint, __version__) if store else 0
        plan: list[tuple[str, Path, str]] = []  # (doc_id, path, process | carry | recheck)
        for f in files:
            doc_id = doc_id_for(f, corpus)
            plan.append((doc_id, f, _plan(store, f, doc_id, ref, opts.full)))
        todo = [(str(f), str(corpus)) for _d, f, action in plan if action == "process"]
        summary.documents = len(files)
        summary.carried_over = len(plan) - len(todo)
        run_key = _run_key(plan, store, ref) if store else ""
        quiet_run = store and not todo and not opts.full and not config.write_segments
        previous = _unchanged_outputs(out, run_key) if quiet_run else None
        if previous is not None:  # nothing changed since the last run: its outputs are complete and current
            store.touch_many(run_id, [(d, str(f)) for d, f, _a in plan])  # type: ignore[union-attr]
            for key in ("claims", "skipped", "errors", "verdicts"):
                setattr(summary, key, previous[key])
            summary.finished, summary.seconds = _now(), round(time.monotonic() - t0, 3)
            store.finish_run(run_id, {"documents": summary.documents, "processed": 0,  # type: ignore[union-attr]
                                      "claims": summary.claims, **summary.verdicts}, EXIT_OK)
            store.close()  # type: ignore[union-attr]
            return summary
        engine = iter(_dask_map(todo, config, opts.scheduler or "") if opts.engine == "dask"
                      else _local_map(todo, config, config.workers))
        writer = _Outputs(out, ref, config, store, corpus, run_key)
        done = 0
        with writer:
            for doc_id, f, action in plan:
                if action == "process":
                    result = next(engine)
                    if store:
                        store.save_result(run_id, result, ref.fingerprint, __version__)
                    done += 1
                    if progress:
                        progress(done, len(todo), result)
                    fresh = True
                else:
                    result = _carried(store, doc_id, ref, config, recheck=action == "recheck", path=f,
                                      corpus=corpus)
                    fresh = action == "recheck"
                writer.add(result, fresh=fresh, fail_on=opts.fail_on)
        if store:
            store.touch_many(run_id, [(d, str(f)) for d, f, action in plan if action != "process"])
            summary.deleted = len(store.mark_deleted([d for d, _f, _a in plan]))
        if config.write_segments:
            _write_segments(plan, corpus, ref, config, out)
        writer.finish_tables()
        summary.processed = len(todo)
        summary.skipped, summary.errors = writer.skipped, writer.errors
        summary.claims, summary.verdicts = writer.claims, dict(writer.verdicts)
        summary.flagged_new = writer.flagged_new
        summary.exit_code = (EXIT_DOC_ERRORS if summary.errors else EXIT_FLAGGED if summary.flagged_new
                             else EXIT_OK)
        summary.finished = _now()
        summary.seconds = round(time.monotonic() - t0, 3)
        writer.finish_index(_run_info(summary))
        if store:
            store.finish_run(run_id, {"documents": summary.documents, "processed": summary.processed,
                                      "claims": summary.claims, **summary.verdicts}, summary.exit_code)
            store.close()
    return summary


def _remove_stale_temp_files(out: Path) -> None:
    """Temp files of an earlier run that was killed mid-write (the real outputs were never replaced)."""
    for tmp in out.glob(".*.tmp"):
        with contextlib.suppress(OSError):
            tmp.unlink()


def _plan(store: Any, path: Path, doc_id: str, ref: Reference, full: bool) -> str:
    """process (new or changed), carry (unchanged), or recheck (unchanged text, new reference tables)."""
    if store is None or full:
        return "process"
    stored = store.document(doc_id)
    if stored is None or stored.deleted or stored.pipeline_version != __version__ or stored.status == "error":
        return "process"  # errors are retried: the file may have been fixed or the failure transient
    try:
        if _sha256(path) != stored.sha256:
            return "process"
    except OSError:
        return "process"
    return "carry" if stored.reference_version == ref.fingerprint else "recheck"


def _carried(store: Any, doc_id: str, ref: Reference, config: Config, *, recheck: bool, path: Path,
             corpus: Path) -> DocumentResult:
    """The stored result; with new reference tables its claims are re-checked without re-segmenting."""
    from .check import CheckContext, check_claims, note_inconsistencies

    previous: DocumentResult | None = store.load_result(doc_id)
    if previous is None:  # the state lost it: analyse the file again
        from .api import process_path

        result = process_path(path, corpus, ref, config)
        store.save_result(0, result, ref.fingerprint, __version__)
        return result
    if not recheck:
        return previous
    named = set(previous.mentions.get("product_ids", {}))
    spec = [replace(c, check=None) for c in previous.claims if c.attribute != "code"]
    code = [c for c in previous.claims if c.attribute == "code"]
    checked = note_inconsistencies(check_claims(spec, ref, CheckContext(named=named), config.tolerance))
    result = replace(previous, claims=tuple(sorted(checked + code, key=lambda c: (c.start, c.end, c.attribute))))
    store.save_result(0, result, ref.fingerprint, __version__)
    return result


class _Outputs:
    """Streams results into claims.jsonl, documents.jsonl, claimreview.jsonl and per-document reports."""

    def __init__(self, out: Path, ref: Reference, config: Config, store: Any, corpus: Path, run_key: str) -> None:
        from .atomic import AtomicJsonlWriter
        from .validation import ClaimsValidator

        self.out, self.ref, self.config, self.corpus = out, ref, config, corpus
        self.validator = ClaimsValidator()
        self.writers = [AtomicJsonlWriter(out / n) for n in ("claims.jsonl", "documents.jsonl", "claimreview.jsonl")]
        self.index_path = out / ".report-index.json"
        try:
            self.old_index: dict[str, str] = json.loads(self.index_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self.old_index = {}
        self.index: dict[str, str] = {}
        self.pending: list[DocumentResult] = []
        self.rows: list[Any] = []  # one slim index line per document
        self.verdicts: Counter[str] = Counter()
        self.claims = self.skipped = self.errors = self.flagged_new = 0
        self.decisions = store.decisions() if store else {}
        self.date = _now()[:10]
        self.claims_hash = hashlib.sha256()
        self.run_key = run_key

    def __enter__(self) -> _Outputs:
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
        r = _with_reviews(result, self.decisions)
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
            if fresh and d["verdict"] in fail_on and d["review_status"] not in ("dismissed", "corrected"):
                self.flagged_new += 1
        for obj in claimreview_objects(r, author=self.config.author, date_published=self.date):
            review_out.write(obj)
        self.claims += len(r.claims)
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
            write_document_report(r, r.text if r.text is not None else _source_text(r, self.corpus), self.out)
        self.pending = []

    @staticmethod
    def _check(problems: Any) -> None:
        if not problems.ok:
            log.error("claims table failed validation:\n%s", problems.summary())

    def finish_tables(self) -> None:
        from .atomic import atomic_write_text
        from .report import write_claims_csv

        self._check(self.validator.finish())
        digest = self.claims_hash.hexdigest()
        if self.old_index.get("_claims_sha256") != digest or not (self.out / "claims.csv").exists():
            write_claims_csv(self.out / "claims.jsonl", self.out / "claims.csv")
        self.index["_claims_sha256"] = digest
        self.index["_run"] = {"key": self.run_key, "claims": self.claims, "skipped": self.skipped,  # type: ignore[assignment]
                              "errors": self.errors, "verdicts": dict(self.verdicts)}
        atomic_write_text(self.index_path, json.dumps(self.index, ensure_ascii=False))

    def finish_index(self, run_info: dict[str, Any]) -> None:
        from .report import write_index

        write_index(self.rows, self.out, run_info=run_info)


def _run_key(plan: list[tuple[str, Path, str]], store: Any, ref: Reference) -> str:
    """What the run's outputs depend on besides the documents' content: which documents, the reference, the
    pipeline version, and the editors' decisions."""
    decisions = sorted((d.claim_id, d.status, d.editor, d.note, d.decided_at, d.text)
                       for d in store.decisions().values())
    documents = sorted(d for d, _f, _a in plan)
    key = json.dumps([documents, ref.fingerprint, __version__, decisions], ensure_ascii=False)
    return hashlib.sha256(key.encode()).hexdigest()


def _unchanged_outputs(out: Path, run_key: str) -> dict[str, Any] | None:
    """The last run's summary when its outputs are in place and were made for the same run key."""
    try:
        index = json.loads((out / ".report-index.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    last = index.get("_run") if isinstance(index, dict) else None
    needed = ("claims.jsonl", "documents.jsonl", "claimreview.jsonl", "claims.csv", "index.html", "summary.md")
    if not isinstance(last, dict) or last.get("key") != run_key or not all((out / n).exists() for n in needed):
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


def _sha256(path: Path) -> str:
    import hashlib

    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _with_reviews(result: DocumentResult, decisions: dict[str, Any]) -> DocumentResult:
    if not decisions:
        return result
    claims = []
    for c in result.claims:
        d = decisions.get(c.claim_id)
        if d is not None and d.text == c.text:
            extra = {**c.extra, "review": {"status": d.status, "editor": d.editor, "note": d.note,
                                           "decided_at": d.decided_at}}
            c = replace(c, extra=extra)
        claims.append(c)
    return replace(result, claims=tuple(claims))


def _source_text(result: DocumentResult, root: Path) -> str:
    if result.text is not None:
        return result.text
    try:
        with open(result.path, encoding="utf-8-sig", newline="") as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return ""


def _write_segments(plan: list[tuple[str, Path, str]], root: Path, ref: Reference, config: Config, out: Path
                    ) -> None:
    from .atomic import AtomicJsonlWriter
    from .errors import InputError
    from .ingest import read_document
    from .segment import get_segmenter

    seg = get_segmenter(ref)
    with AtomicJsonlWriter(out / "segments.jsonl") as w:
        for doc_id, path, _action in plan:
            try:
                doc = read_document(path, root, max_bytes=config.max_bytes)
            except InputError:
                continue
            for s in seg.segment(doc, with_tokens=True, max_chars=config.window_chars).sentences:
                w.write({"doc_id": doc_id, "sentence_index": s.index, "start": s.start, "end": s.end,
                         "text": s.text, "kind": s.kind.value, "tokens": list(s.tokens)})


def _run_info(s: RunSummary) -> dict[str, Any]:
    """The run's facts for the top of index.html, labelled in Chinese for the editors."""
    zh = {"supported": "支持", "contradicted": "矛盾", "misattributed": "张冠李戴", "unverifiable": "无法核实",
          "code_issue": "代码问题"}
    return {"开始": s.started, "结束": s.finished, "文档": s.documents, "本次处理": s.processed,
            "未变沿用": s.carried_over, "跳过": s.skipped, "出错": s.errors, "声明": s.claims,
            **{zh.get(k, k): v for k, v in s.verdicts.items()},
            "参考表版本": s.reference_version, "程序版本": s.pipeline_version}


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


