"""The main job: a folder of articles in, reports and claims tables out, state remembered."""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from . import __version__
from .config import Config
from .errors import UsageError
from .outputs import Outputs, now, run_key, unchanged_outputs
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


def _dask_client(scheduler: str, timeout: str) -> Any:
    """A client of an existing Dask cluster; UsageError when the extra is missing or the scheduler unreachable."""
    try:
        from distributed import Client
    except ImportError as e:  # pragma: no cover - dask is an optional extra
        raise UsageError("--engine dask needs the dask extra: pip install 'gpu-factcheck[dask]'") from e
    try:
        return Client(scheduler, timeout=timeout)
    except (OSError, TimeoutError) as e:
        raise UsageError(f"cannot reach the Dask scheduler at {scheduler}: {e}. Check the address "
                         "(tcp://HOST:8786) and that the scheduler is running.") from e


def _dask_map(tasks: list[tuple[str, str]], config: Config, scheduler: str) -> Iterator[DocumentResult]:
    client = _dask_client(scheduler, "10s")
    try:
        client.run(_init_worker, config)
        for fut in client.map(process_one, tasks, pure=False):
            yield fut.result()
    finally:
        client.close()


def check_dask(scheduler: str) -> None:
    """Fail early (before anything is written) when the scheduler is unreachable."""
    _dask_client(scheduler, "5s").close()


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
    summary = RunSummary(started=now(), reference_version=ref.fingerprint[:12], out_dir=str(out))
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
        key = run_key(plan, store, ref) if store else ""
        quiet_run = store and not todo and not opts.full and not config.write_segments
        previous = unchanged_outputs(out, key) if quiet_run else None
        if previous is not None:  # nothing changed since the last run: its outputs are complete and current
            store.touch_many(run_id, [(d, str(f)) for d, f, _a in plan])  # type: ignore[union-attr]
            for key in ("claims", "skipped", "errors", "verdicts"):
                setattr(summary, key, previous[key])
            summary.finished, summary.seconds = now(), round(time.monotonic() - t0, 3)
            store.finish_run(run_id, {"documents": summary.documents, "processed": 0,  # type: ignore[union-attr]
                                      "claims": summary.claims, **summary.verdicts}, EXIT_OK)
            store.close()  # type: ignore[union-attr]
            return summary
        engine = iter(_dask_map(todo, config, opts.scheduler or "") if opts.engine == "dask"
                      else _local_map(todo, config, config.workers))
        if store:  # before any save: a renamed article's decisions follow its claims (see Store.save_result)
            summary.deleted = len(store.mark_deleted([d for d, _f, _a in plan]))
        writer = Outputs(out, ref, config, store, corpus, key)
        done = 0
        with writer:
            for doc_id, f, action in plan:
                if action == "process":
                    result = next(engine)
                    if store:
                        writer.decisions.update(store.save_result(run_id, result, ref.fingerprint, __version__))
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
        if config.write_segments:
            _write_segments(plan, corpus, ref, config, out)
        writer.finish_tables()
        summary.processed = len(todo)
        summary.skipped, summary.errors = writer.skipped, writer.errors
        summary.claims, summary.verdicts = writer.claims, dict(writer.verdicts)
        summary.flagged_new = writer.flagged_new
        summary.exit_code = (EXIT_DOC_ERRORS if summary.errors else EXIT_FLAGGED if summary.flagged_new
                             else EXIT_OK)
        summary.finished = now()
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


def _sha256(path: Path) -> str:

    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


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


