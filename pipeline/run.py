"""The main job: a folder of articles in, reports and claims tables out, state remembered."""

from __future__ import annotations

import contextlib
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
from .records import DocumentResult, Status, Verdict
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
    except Exception as e:  # noqa: BLE001 - one bad document must not stop the run
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
    """Process a corpus and write every output; returns the summary (its exit_code follows the CLI table)."""
    from .ingest import discover, doc_id_for
    from .report import claimreview_objects, write_claims_csv, write_document_report, write_run_reports
    from .validation import ClaimsValidator

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
    root = corpus
    out = Path(config.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    summary = RunSummary(started=_now(), reference_version=ref.fingerprint[:12], out_dir=str(out))
    store = None
    if opts.use_state:
        from .store import Store

        store = Store(opts.state or (out / "state.sqlite"))
    lock = store.lock(opts.lock_timeout) if store else contextlib.nullcontext()
    with lock:
        run_id = store.begin_run(ref.fingerprint, __version__) if store else 0
        todo: list[tuple[str, str]] = []
        carried: dict[str, DocumentResult] = {}
        order: list[str] = []
        for f in files:
            doc_id = doc_id_for(f, root)
            order.append(doc_id)
            if store and not opts.full:
                carry = _carry_over(store, f, doc_id, ref, config)
                if carry is not None:
                    carried[doc_id] = carry
                    store.touch(run_id, doc_id, str(f))
                    continue
            todo.append((str(f), str(root)))
        summary.documents = len(files)
        summary.carried_over = len(carried)
        fresh: dict[str, DocumentResult] = {}
        engine = (_dask_map(todo, config, opts.scheduler or "") if opts.engine == "dask"
                  else _local_map(todo, config, config.workers))
        for i, result in enumerate(engine, 1):
            if store:
                store.save_result(run_id, result, ref.fingerprint, __version__)
            fresh[result.doc_id] = result
            if progress:
                progress(i, len(todo), result)
        if store:
            summary.deleted = len(store.mark_deleted(order))
        results = [fresh.get(d) or carried[d] for d in order if d in fresh or d in carried]
        if store:
            results = [_with_reviews(r, store) for r in results]
        validator = ClaimsValidator()
        from .atomic import AtomicJsonlWriter

        verdicts: Counter[str] = Counter()
        date = _now()[:10]
        with AtomicJsonlWriter(out / "claims.jsonl") as claims_out, \
                AtomicJsonlWriter(out / "documents.jsonl") as docs_out, \
                AtomicJsonlWriter(out / "claimreview.jsonl") as review_out:
            for r in results:
                validator.set_doc_length(r.doc_id, len(r.text) if r.text is not None else _doc_length(r, root))
                docs_out.write(r.to_dict())
                for c in r.claims:
                    d = c.to_dict()
                    if "review" in c.extra:
                        d["review_status"] = c.extra["review"].get("status", "open")
                    validator.add(d)
                    claims_out.write(d)
                    verdicts[d["verdict"]] += 1
                for obj in claimreview_objects(r, author=config.author, date_published=date):
                    review_out.write(obj)
        problems = validator.finish()
        if not problems.ok:
            log.error("claims table failed validation:\n%s", problems.summary())
        for r in results:
            if r.status is Status.OK or r.claims:
                write_document_report(r, r.text if r.text is not None else _source_text(r, root), out)
        if config.write_segments:
            _write_segments(results, root, ref, config, out)
        write_claims_csv(out / "claims.jsonl", out / "claims.csv")
        summary.processed = len(fresh)
        summary.skipped = sum(r.status is Status.SKIPPED for r in results)
        summary.errors = sum(r.status is Status.ERROR for r in results)
        summary.claims = sum(len(r.claims) for r in results)
        summary.verdicts = dict(verdicts)
        summary.flagged_new = sum(
            1 for r in fresh.values() for c in r.claims
            if c.verdict is not None and c.verdict.value in opts.fail_on and _is_open(c, store))
        summary.exit_code = (EXIT_DOC_ERRORS if summary.errors else EXIT_FLAGGED if summary.flagged_new
                             else EXIT_OK)
        summary.finished = _now()
        summary.seconds = round(time.monotonic() - t0, 3)
        write_run_reports(results, out, run_info=_run_info(summary))
        if store:
            store.finish_run(run_id, {"documents": summary.documents, "processed": summary.processed,
                                      "claims": summary.claims, **summary.verdicts}, summary.exit_code)
            store.close()
    return summary


def _carry_over(store: Any, path: Path, doc_id: str, ref: Reference, config: Config) -> DocumentResult | None:
    """A stored result still valid for this file: same content; re-checked if only the reference changed."""
    from .check import CheckContext, check_claims

    stored = store.document(doc_id)
    if stored is None or stored.deleted or stored.pipeline_version != __version__:
        return None
    try:
        sha = _sha256(path)
    except OSError:
        return None
    if sha != stored.sha256:
        return None
    previous = store.load_result(doc_id)
    if previous is None:
        return None
    if stored.reference_version == ref.fingerprint:
        return previous
    # reference changed: re-check the stored claims without re-segmenting (code findings keep their verdict)
    named = set(previous.mentions.get("product_ids", {}))
    spec = [replace(c, check=None) for c in previous.claims if c.attribute != "code"]
    code = [c for c in previous.claims if c.attribute == "code"]
    checked = check_claims(spec, ref, CheckContext(named=named), config.tolerance)
    result = replace(previous, claims=tuple(sorted(checked + code, key=lambda c: (c.start, c.end, c.attribute))))
    store.save_result(0, result, ref.fingerprint, __version__)
    return result


def _sha256(path: Path) -> str:
    import hashlib

    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _with_reviews(result: DocumentResult, store: Any) -> DocumentResult:
    decisions = store.decisions()
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


def _is_open(claim: Any, store: Any) -> bool:
    review = claim.extra.get("review")
    return not review or review.get("status") not in ("dismissed", "corrected")


def _doc_length(result: DocumentResult, root: Path) -> int:
    return len(_source_text(result, root))


def _source_text(result: DocumentResult, root: Path) -> str:
    if result.text is not None:
        return result.text
    try:
        with open(result.path, encoding="utf-8-sig", newline="") as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return ""


def _write_segments(results: list[DocumentResult], root: Path, ref: Reference, config: Config, out: Path) -> None:
    from .atomic import AtomicJsonlWriter
    from .errors import InputError
    from .ingest import read_document
    from .segment import get_segmenter

    seg = get_segmenter(ref)
    with AtomicJsonlWriter(out / "segments.jsonl") as w:
        for r in results:
            if r.status is not Status.OK:
                continue
            try:
                doc = read_document(Path(r.path), root, max_bytes=config.max_bytes)
            except InputError:
                continue
            for s in seg.segment(doc, with_tokens=True, max_chars=config.window_chars).sentences:
                w.write({"doc_id": r.doc_id, "sentence_index": s.index, "start": s.start, "end": s.end,
                         "text": s.text, "kind": s.kind.value, "tokens": list(s.tokens)})


def _run_info(s: RunSummary) -> dict[str, Any]:
    return {"started": s.started, "finished": s.finished, "documents": s.documents, "processed": s.processed,
            "carried_over": s.carried_over, "claims": s.claims, "reference_version": s.reference_version,
            "pipeline_version": s.pipeline_version, **{f"verdict_{k}": v for k, v in s.verdicts.items()}}


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


