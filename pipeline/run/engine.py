"""Where documents are analysed: in this process, in a local process pool, or on a Dask cluster.

Every engine yields one ``DocumentOutput`` per ``(path, corpus, last fingerprint)`` task, in task order: the
document analysed with the run's own reference tables under the per-document time limit (a failure is an
``error`` result, never an exception), and its share of the outputs made and its reports written right there
(``document_outputs.render``), so the main process only merges. Pool workers exit when the main process dies; a
Dask worker, even one restarted mid-run, loads the tables from the copy that travels with the tasks
(``ReferenceCopy``, keyed by its fingerprint), never from its own disk. On a cluster, the corpus and ``--out`` must
be the same folders for the workers as for the client (the workers read the articles and write the reports).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import hashlib
import logging
import multiprocessing
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..config import Config
from ..errors import ReferenceTableError, UsageError
from ..knowledge.reference import Reference, load_reference
from ..records import DocumentResult, Status
from .document_outputs import DocumentOutput, Published, RunContext, render

log = logging.getLogger("pipeline")

Task = tuple[str, str, Published | None]  # (path, corpus, its reports as the last complete run published them)


# ---------------------------------------------------------------- one document, under the time limit

class _Overtime(BaseException):
    """Raised into the analysis when its time is up; a BaseException, so no ``except Exception`` swallows it."""


def process_file(task: Task, ref: Reference, config: Config, ctx: RunContext) -> DocumentOutput:
    """Analyse one file (``analyse_file``) and make its outputs (``render``), both within ``config.max_seconds``."""
    path, root = Path(task[0]), Path(task[1])
    try:
        with time_limit(config.max_seconds):
            return render(_analysed(path, root, ref, config), ref, ctx, fresh=True, old=task[2])
    except _Overtime:
        result = _with_sha(_overtime(path, root, config), path, root, config)
    return render(result, ref, ctx, fresh=True, old=task[2])


def analyse_file(task: tuple[str, str] | Task, ref: Reference, config: Config) -> DocumentResult:
    """Read and analyse one file within ``config.max_seconds``; any failure becomes an ``error`` result."""
    path, root = Path(task[0]), Path(task[1])
    try:
        with time_limit(config.max_seconds):
            return _analysed(path, root, ref, config)
    except _Overtime:
        return _with_sha(_overtime(path, root, config), path, root, config)


def _analysed(path: Path, root: Path, ref: Reference, config: Config) -> DocumentResult:
    """Read and analyse one file (no time limit of its own); a failure is an ``error`` result."""
    from .document import process_path

    try:
        result = process_path(path, root, ref, config)
    except Exception as e:
        log.exception("unexpected failure on %s", path)
        result = _failed(path, root, f"internal error while analysing: {e!r}")
    return _with_sha(result, path, root, config)


def _with_sha(result: DocumentResult, path: Path, root: Path, config: Config) -> DocumentResult:
    if result.status is Status.ERROR and not result.sha256:
        # the content's hash, so a failed document is not retried until it changes (empty when unreadable)
        result = replace(result, sha256=file_sha256(path, root, config.follow_symlinks))
    return result


def _overtime(path: Path, root: Path, config: Config) -> DocumentResult:
    return _failed(path, root, f"gave up after {config.max_seconds:g}s (raise the per-document limit with "
                               "--max-seconds)")


def _failed(path: Path, root: Path, message: str) -> DocumentResult:
    from ..ingest import doc_id_for, format_for

    return DocumentResult(doc_id_for(path, root), str(path), format_for(path).value, "", Status.ERROR, message)


def file_sha256(path: Path, root: Path | None = None, follow_symlinks: bool = False) -> str:
    """The sha256 of the file's bytes (opened as the run reads it, see ``ingest.reading``), or "" when it cannot
    be read."""
    from ..ingest import article_sha256

    return article_sha256(Path(path), Path(root) if root is not None else Path(path),
                          follow_symlinks=follow_symlinks)


def time_limit(seconds: float) -> contextlib.AbstractContextManager[None]:
    """Interrupt the block with ``_Overtime`` after ``seconds`` (no limit when ``seconds <= 0``).

    In the main thread a timer signal does it; in any other thread (a Dask worker's) the exception is raised
    into that thread. Either way it lands between two Python bytecodes, so a long call into C finishes first.
    """
    if seconds <= 0:
        return contextlib.nullcontext()
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        return _alarm_limit(seconds)
    return _thread_limit(seconds)


@contextlib.contextmanager
def _alarm_limit(seconds: float) -> Iterator[None]:
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _alarm(signum: int, frame: object) -> None:
    raise _Overtime


_set_async_exc = ctypes.pythonapi.PyThreadState_SetAsyncExc


@contextlib.contextmanager
def _thread_limit(seconds: float) -> Iterator[None]:
    thread_id = ctypes.c_ulong(threading.get_ident())
    lock = threading.Lock()
    state = {"done": False, "fired": False}

    def fire() -> None:
        with lock:
            if not state["done"]:
                state["fired"] = True
                _set_async_exc(thread_id, ctypes.py_object(_Overtime))

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        with lock:
            state["done"] = True
            timer.cancel()
            if state["fired"]:
                _set_async_exc(thread_id, None)  # withdraw it if the block ended before it was delivered


# ---------------------------------------------------------------- this process, or a local pool

_WORKER: dict[str, Any] = {}


def local_map(tasks: list[Task], ref: Reference, config: Config, workers: int,
              ctx: RunContext) -> Generator[DocumentOutput, None, None]:
    """The outputs in task order, from this process or from a pool of ``workers`` processes."""
    import gc

    if workers <= 1 or len(tasks) < 8 * workers:  # a pool costs a spaCy start-up per worker
        _settle(ref)
        try:
            for t in tasks:
                yield process_file(t, ref, config, ctx)
        finally:
            gc.unfreeze()  # a caller that runs again in this process collects as before
        return
    from concurrent.futures import ProcessPoolExecutor

    if multiprocessing.get_start_method() == "fork":  # built once here, inherited by every worker
        _settle(ref)
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_init_worker, initargs=(ref, config, ctx))
    finished = False
    try:
        yield from pool.map(_pool_task, tasks, chunksize=max(1, min(8, len(tasks) // (workers * 4) or 1)))
        finished = True
    finally:  # on a failure of the run, drop the queued documents instead of waiting for them
        pool.shutdown(wait=finished, cancel_futures=not finished)
        gc.unfreeze()


def _settle(ref: Reference) -> None:
    """Build the segmenter (spaCy, jieba's dictionary, the name automaton), then move everything alive into the
    garbage collector's permanent generation (``gc.freeze``): these objects live for the whole run, and every full
    collection would otherwise walk them again. Before a fork it also keeps the workers from copying their pages."""
    import gc

    from ..segment import get_segmenter

    get_segmenter(ref)
    gc.freeze()


def _init_worker(ref: Reference, config: Config, ctx: RunContext) -> None:
    exit_with_parent()
    _WORKER.update(ref=ref, config=config, ctx=ctx)


def _pool_task(task: Task) -> DocumentOutput:
    return process_file(task, _WORKER["ref"], _WORKER["config"], _WORKER["ctx"])


def exit_with_parent() -> None:
    """Make this (pool worker) process exit when its parent dies, kill -9 included, instead of running on."""
    parent = multiprocessing.parent_process()
    parent_pid = parent.pid if parent is not None and parent.pid else os.getppid()
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(1, int(signal.SIGKILL), 0, 0, 0) == 0:  # PR_SET_PDEATHSIG: the kernel does it
                if os.getppid() != parent_pid:  # the parent died before the request
                    os._exit(1)
                return
        except (OSError, AttributeError):
            pass
    threading.Thread(target=_watch_parent, args=(parent_pid,), daemon=True, name="watch-parent").start()


def _watch_parent(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(1.0)
    os._exit(1)


# ---------------------------------------------------------------- Dask

@dataclass(frozen=True)
class ReferenceCopy:
    """The run's reference tables as bytes, keyed by their fingerprint: they travel to the Dask workers."""

    fingerprint: str
    files: tuple[tuple[str, bytes], ...]

    @classmethod
    def of(cls, ref: Reference) -> ReferenceCopy:
        """The tables ``ref`` was loaded from; ReferenceTableError if they changed since."""
        files = tuple((p.name, p.read_bytes()) for p in sorted(Path(ref.directory).glob("*.csv")))
        copy = cls(ref.fingerprint, files)
        if copy.digest() != ref.fingerprint:
            raise ReferenceTableError(f"the reference tables in {ref.directory} changed while the run started; "
                                      "run again")
        return copy

    def digest(self) -> str:
        """The fingerprint of these bytes, computed as ``reference_fingerprint`` does for a folder."""
        h = hashlib.sha256()
        for name, data in self.files:
            h.update(f"{name}\0{len(data)}\0".encode())
            h.update(data)
        return h.hexdigest()


_COPIES: dict[str, Reference] = {}  # fingerprint -> the tables loaded from this worker's own copy


def reference_from_copy(copy: ReferenceCopy, cache: Path | None = None) -> Reference:
    """The tables of ``copy``, loaded once per process from a folder that holds exactly those bytes.

    The folder is ``reference-<fingerprint>`` in the user's cache (``default_cache_dir``), shared by every worker
    process and run with the same tables: a worker killed by its nanny leaves nothing behind, and one per
    reference version is all that accumulates. It is written to a folder of its own and renamed into place, so a
    reader never sees it half written; one whose tables are not the copy's (damaged, edited) is replaced. When the
    cache cannot be written, a temporary folder of this process's own is used and removed at exit.
    """
    if copy.fingerprint in _COPIES:
        return _COPIES[copy.fingerprint]
    if copy.digest() != copy.fingerprint:
        raise ReferenceTableError("the reference tables sent to this worker are damaged")
    if cache is None:
        from ..knowledge.validation import default_cache_dir

        cache = default_cache_dir()
    try:
        ref = _cached_copy(copy, cache / f"reference-{copy.fingerprint[:16]}")
    except OSError as e:
        log.debug("the reference cache in %s cannot be used (%s): a temporary copy instead", cache, e)
        folder = _written(copy, Path(tempfile.mkdtemp(prefix=f"gpu-factcheck-reference-{copy.fingerprint[:12]}-")))
        atexit.register(shutil.rmtree, folder, True)
        ref = load_reference(folder)
    if ref.fingerprint != copy.fingerprint:  # pragma: no cover - the bytes were checked above
        raise ReferenceTableError(f"the reference tables written to {ref.directory} do not match the run's")
    _COPIES[copy.fingerprint] = ref
    return ref


def _cached_copy(copy: ReferenceCopy, folder: Path) -> Reference:
    """The tables in ``folder`` when they are the copy's; else the copy written there first (OSError when the
    cache is not writable)."""
    with contextlib.suppress(ReferenceTableError, OSError):
        if folder.is_dir() and (ref := load_reference(folder)).fingerprint == copy.fingerprint:
            return ref
    folder.parent.mkdir(parents=True, exist_ok=True)
    staged = _written(copy, Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent)))
    try:
        if folder.exists():  # not the copy's tables: set aside, then removed
            stale = folder.with_name(f".{folder.name}-stale-{os.getpid()}-{time.time_ns()}")
            with contextlib.suppress(FileNotFoundError):
                folder.rename(stale)
                shutil.rmtree(stale, ignore_errors=True)
        staged.rename(folder)
    except OSError:
        if not folder.is_dir():  # another worker's rename won the race: its folder holds the same bytes
            raise
    finally:
        shutil.rmtree(staged, ignore_errors=True)
    return load_reference(folder)


def _written(copy: ReferenceCopy, folder: Path) -> Path:
    for name, data in copy.files:
        (folder / name).write_bytes(data)
    return folder


def _dask_task(tasks: list[Task], copy: ReferenceCopy, config: Config,
               ctx: RunContext) -> list[DocumentOutput | DocumentResult]:
    try:
        ref = reference_from_copy(copy)
    except (OSError, ReferenceTableError) as e:  # the client makes these failures' outputs, with its tables
        return [_failed(Path(t[0]), Path(t[1]), f"the Dask worker could not load the run's reference tables: {e}")
                for t in tasks]
    config = replace(config, reference_dir=Path(ref.directory))
    return [process_file(t, ref, config, ctx) for t in tasks]


def _same(value: Any) -> Any:
    return value


def dask_client(scheduler: str, timeout: str) -> Any:
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


def check_dask(scheduler: str) -> None:
    """Fail early (before anything is written) when the scheduler is unreachable."""
    dask_client(scheduler, "5s").close()


def dask_map(tasks: list[Task], ref: Reference, config: Config, scheduler: str,
             ctx: RunContext) -> Generator[DocumentOutput | DocumentResult, None, None]:
    """The outputs in task order from a Dask cluster, a few documents per Dask task (each task costs the
    scheduler about a millisecond); a bare ``DocumentResult`` for a document whose worker could not load the
    run's tables (the caller makes its outputs).

    The tables and the run's context go to the cluster once, each as the result of a task of its own: a worker
    that restarts loses them and the scheduler computes them again from the task, so no worker ever falls back to
    other tables.
    """
    client = dask_client(scheduler, "10s")
    try:
        stamp = f"{os.getpid()}-{time.time_ns()}"
        copy = client.submit(_same, ReferenceCopy.of(ref), pure=False,
                             key=f"gpu-factcheck-reference-{ref.fingerprint[:16]}-{stamp}")
        context = client.submit(_same, ctx, pure=False, key=f"gpu-factcheck-context-{stamp}")
        size = _chunk_size(len(tasks), sum(client.nthreads().values()) or 1)
        chunks = [tasks[i:i + size] for i in range(0, len(tasks), size)]
        for future in client.map(_dask_task, chunks, copy=copy, config=config, ctx=context, pure=False):
            yield from future.result()
    finally:
        client.close()


def _chunk_size(documents: int, threads: int) -> int:
    """Documents per Dask task: enough to make the scheduler's cost small, few enough that every thread gets
    several tasks (and a restarted worker redoes little)."""
    return max(1, min(16, documents // (threads * 8) or 1))
