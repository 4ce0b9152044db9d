"""Scaling: --workers 2 (a process pool) and a Dask cluster give the same tables as one worker."""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.config import DEFAULT_REFERENCE_DIR, Config
from pipeline.errors import UsageError
from pipeline.knowledge.reference import Reference
from pipeline.run import RunOptions, run
from pipeline.segment import get_segmenter

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]
WORKERS = 2
UNREACHABLE = "tcp://127.0.0.1:1"

# fmt: off
# Sentences of our own, right and wrong; article i takes a few of them.
SENTENCES = [
    "H100配备80GB HBM3显存，功耗为700W。",
    "RTX 4090配备了32GB显存。",                 # 24GB
    "A100拥有6912个CUDA核心。",
    "L40S的功耗为300W。",                        # 350W
    "MI300X的显存带宽为5.3TB/s。",
    "T4配备24GB显存。",                          # 16GB
    "RTX 4090采用Ada Lovelace架构。",
    "A100配备40GB HBM2显存，功耗为400W。",
    "L40S配备48GB GDDR6显存。",
    "T4采用Turing架构，功耗为70W。",
    "RTX 4090的显存位宽为384bit。",
    "8张H100共有640GB显存。",
    "MI300X配备192GB HBM3显存。",
]
# fmt: on


def article(i: int) -> tuple[str, str]:
    """(file name, content) of the i-th generated article: txt, md or html, some in a subfolder."""
    picked = [SENTENCES[(i * k + k) % len(SENTENCES)] for k in (1, 2, 5)]
    title = f"显卡速评第{i}期"
    kind = i % 3
    if kind == 0:
        return f"txt/a{i:02d}.txt", title + "\n\n" + "\n".join(picked) + "\n"
    if kind == 1:
        return f"a{i:02d}.md", f"# {title}\n\n" + "".join(picked) + "\n"
    body = "".join(f"<p>{s}</p>" for s in picked)
    return f"web/a{i:02d}.html", f"<html><body><article><h1>{title}</h1>{body}</article></body></html>"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("parallel-corpus")
    for i in range(20):
        name, text = article(i)
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def tables(out: Path) -> dict[str, bytes]:
    return {name: (out / name).read_bytes() for name in ("claims.jsonl", "documents.jsonl", "claims.csv")}


def sorted_lines(data: bytes) -> list[bytes]:
    return sorted(data.splitlines())


def invoke(*args: str | Path) -> Any:
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def serial(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    out = tmp_path_factory.mktemp("serial")
    result = invoke("run", corpus, "--out", out, "--no-state", "--workers", "1", "--quiet")
    assert result.exit_code == 0, result.output
    return tables(out)


class RecordingPool(concurrent.futures.ProcessPoolExecutor):
    """A ProcessPoolExecutor that remembers that it was created, and with how many workers."""

    created: ClassVar[list[int | None]] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        RecordingPool.created.append(kwargs.get("max_workers", args[0] if args else None))
        super().__init__(*args, **kwargs)


@pytest.fixture(scope="module")
def pooled(corpus: Path, tmp_path_factory: pytest.TempPathFactory, ref: Reference) -> dict[str, bytes]:
    out = tmp_path_factory.mktemp("pooled")
    get_segmenter(ref)  # forked workers inherit it instead of loading spaCy again
    RecordingPool.created.clear()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(concurrent.futures, "ProcessPoolExecutor", RecordingPool)
        result = invoke("run", corpus, "--out", out, "--no-state", "--workers", str(WORKERS), "--quiet")
    assert result.exit_code == 0, result.output
    return tables(out)


def test_corpus_is_big_enough_for_the_pool(corpus: Path) -> None:
    assert len(list(corpus.rglob("a*.*"))) >= 8 * WORKERS  # run._local_map's threshold


def test_workers_2_used_a_process_pool(pooled: dict[str, bytes]) -> None:
    assert RecordingPool.created == [WORKERS]


def test_the_corpus_has_flags(serial: dict[str, bytes]) -> None:
    claims = [json.loads(line) for line in serial["claims.jsonl"].splitlines()]
    verdicts = {c["verdict"] for c in claims}
    assert {"supported", "contradicted"} <= verdicts
    assert len({c["doc_id"] for c in claims}) == 20


@pytest.mark.parametrize("name", ["claims.jsonl", "documents.jsonl", "claims.csv"])
def test_workers_2_gives_the_same_lines(serial: dict[str, bytes], pooled: dict[str, bytes], name: str) -> None:
    assert sorted_lines(pooled[name]) == sorted_lines(serial[name])


@pytest.mark.parametrize("name", ["claims.jsonl", "documents.jsonl"])
def test_workers_2_gives_the_same_bytes(serial: dict[str, bytes], pooled: dict[str, bytes], name: str) -> None:
    assert pooled[name] == serial[name]


# ---------------------------------------------------------------- the pool dies with the main process (point 9)

_SLOW_POOL = """
import sys, time
from pathlib import Path
import pipeline.run.document
from pipeline.config import DEFAULT_REFERENCE_DIR, Config
from pipeline.run import RunOptions, run

def analyse(doc, ref, config=None):
    time.sleep(120)  # a long document: the workers are busy when the main process is killed

pipeline.run.document.analyse = analyse
run(RunOptions(corpus=Path(sys.argv[1]), config=Config(out_dir=Path(sys.argv[2]), workers=2, max_seconds=0),
               use_state=False))
"""


def _children(pid: int) -> set[int]:
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                found.add(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")  # a zombie has exited (in a container nobody may reap it)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")
def test_pool_workers_exit_when_the_main_process_is_killed(corpus: Path, tmp_path: Path) -> None:
    main = subprocess.Popen([sys.executable, "-c", _SLOW_POOL, str(corpus), str(tmp_path / "out")],
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        while len(workers) < WORKERS and time.monotonic() < deadline and main.poll() is None:
            time.sleep(0.2)
            workers = _children(main.pid)
        assert len(workers) >= WORKERS, "the pool did not start"
        time.sleep(1.0)  # the workers are in the middle of their documents
        main.send_signal(signal.SIGKILL)
        main.wait()
        deadline = time.monotonic() + 10
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [w for w in workers if _alive(w)], "pool workers outlived the main process"
    finally:
        main.kill()
        for w in _children(main.pid) | workers:
            with contextlib.suppress(OSError):
                os.kill(w, signal.SIGKILL)


# ---------------------------------------------------------------- Dask (kept after the pool: no fork beside threads)

@pytest.fixture(scope="module")
def on_dask(corpus: Path, cluster: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    out = tmp_path_factory.mktemp("dask")
    summary = run(RunOptions(corpus=corpus, config=Config(out_dir=out, workers=1), use_state=False,
                             engine="dask", scheduler=cluster.scheduler_address))
    assert summary.exit_code == 0
    assert summary.processed == 20
    return tables(out)


@pytest.mark.parametrize("name", ["claims.jsonl", "documents.jsonl"])
def test_dask_gives_the_same_tables(serial: dict[str, bytes], on_dask: dict[str, bytes], name: str) -> None:
    assert sorted_lines(on_dask[name]) == sorted_lines(serial[name])


# fmt: off
USAGE_CASES = [
    # options,                                           words in the message
    (["--engine", "dask", "--scheduler", UNREACHABLE],   ["cannot reach the Dask scheduler", UNREACHABLE]),
    (["--engine", "dask"],                               ["--scheduler"]),
    (["--engine", "spark"],                              ["--engine is local or dask"]),
]
# fmt: on


@pytest.mark.parametrize(("options", "words"), USAGE_CASES)
def test_unusable_engine_exits_2_and_writes_nothing(corpus: Path, tmp_path: Path, options: list[str],
                                                   words: list[str]) -> None:
    out = tmp_path / "reports"
    result = invoke("run", corpus, "--out", out, "--no-state", "--quiet", *options)
    assert result.exit_code == 2, result.output
    message = " ".join(result.stderr.split())
    for word in words:
        assert word in message
    assert not out.exists()


def test_unreachable_scheduler_leaves_an_earlier_run_untouched(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "reports"
    out.mkdir()
    (out / "claims.jsonl").write_text('{"doc_id": "earlier"}\n', encoding="utf-8")
    with pytest.raises(UsageError, match="cannot reach the Dask scheduler"):
        run(RunOptions(corpus=corpus, config=Config(out_dir=out), engine="dask", scheduler=UNREACHABLE))
    assert [p.name for p in out.iterdir()] == ["claims.jsonl"]
    assert (out / "claims.jsonl").read_text(encoding="utf-8") == '{"doc_id": "earlier"}\n'


def test_dask_enforces_the_time_limit(cluster: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Dask runs documents in worker threads, where no timer signal reaches: the limit is raised into the thread."""
    import pipeline.run.document

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "slow.txt").write_text("T4的功耗为70W。\n", encoding="utf-8")
    (corpus / "fine.txt").write_text(SENTENCES[1] + "\n", encoding="utf-8")
    real = pipeline.run.document.analyse

    def analyse(doc: Any, ref: Any, config: Any = None) -> Any:
        if doc.doc_id == "slow.txt":
            for _ in range(6000):  # a minute of Python work in small steps
                time.sleep(0.01)
        return real(doc, ref, config)

    monkeypatch.setattr(pipeline.run.document, "analyse", analyse)
    out = tmp_path / "out"
    started = time.monotonic()
    summary = run(RunOptions(corpus=corpus, config=Config(out_dir=out, workers=1, max_seconds=1), use_state=False,
                             engine="dask", scheduler=cluster.scheduler_address))
    assert time.monotonic() - started < 30
    docs = {d["doc_id"]: d for d in map(json.loads, (out / "documents.jsonl").read_text("utf-8").splitlines())}
    assert docs["slow.txt"]["status"] == "error" and "gave up after 1s" in docs["slow.txt"]["message"]
    assert docs["fine.txt"]["status"] == "ok"
    assert summary.exit_code == 1


def _changed_reference(folder: Path) -> Path:
    """A copy of reference/ in which the RTX 4090 has 32GB: the corpus's 32GB claim turns from contradicted to
    supported, so a worker that used the default tables would show."""
    shutil.copytree(DEFAULT_REFERENCE_DIR, folder)
    specs = folder / "specs.csv"
    text = specs.read_text(encoding="utf-8")
    edited = text.replace("nvidia_rtx_4090,base,memory_size,,24,GB,", "nvidia_rtx_4090,base,memory_size,,32,GB,")
    assert edited != text
    specs.write_text(edited, encoding="utf-8")
    return folder


@pytest.mark.slow
def test_a_restarted_dask_worker_uses_the_runs_reference(corpus: Path, tmp_path: Path) -> None:
    """A real worker process is killed (kill -9) after the third document; its nanny starts a new one, which gets
    the run's tables with the tasks. The claims are those of the local engine with the same --reference."""
    distributed = pytest.importorskip("distributed")
    reference = _changed_reference(tmp_path / "reference")
    local = tmp_path / "local"
    run(RunOptions(corpus=corpus, config=Config(out_dir=local, workers=1, reference_dir=reference), use_state=False))
    default = tmp_path / "default"
    run(RunOptions(corpus=corpus, config=Config(out_dir=default, workers=1), use_state=False))
    assert sorted_lines(tables(local)["claims.jsonl"]) != sorted_lines(tables(default)["claims.jsonl"])
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0") as c, \
            distributed.Client(c) as client:
        killed: list[int] = []

        def restart_after_three(i: int, total: int, result: Any) -> None:
            if i == 3:
                pids = list(client.run(os.getpid).values())
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])
                client.wait_for_workers(1, timeout=120)

        out = tmp_path / "dask"
        summary = run(RunOptions(corpus=corpus, config=Config(out_dir=out, workers=1, reference_dir=reference),
                                 use_state=False, engine="dask", scheduler=c.scheduler_address),
                      progress=restart_after_three)
        assert killed and list(client.run(os.getpid).values()) != killed  # a new worker process finished the run
    assert summary.exit_code == 0 and summary.processed == 20
    claims = tables(out)["claims.jsonl"]
    assert sorted_lines(claims) == sorted_lines(tables(local)["claims.jsonl"])
    verdicts = Counter(json.loads(line)["verdict"] for line in claims.splitlines())
    print(f"\ndask with a worker killed after 3 of 20 documents: {len(claims.splitlines())} claims {dict(verdicts)}, "
          "the same lines as the local engine")


@pytest.mark.parametrize("workers", [1, WORKERS])
def test_the_long_lived_objects_are_frozen_for_the_run_only(corpus: Path, ref: Reference, workers: int,
                                                            tmp_path: Path) -> None:
    """While documents are analysed, what the run built before them (spaCy, jieba, the reference) sits in the
    collector's permanent generation; when the map ends, nothing is left frozen."""
    import gc

    from pipeline.run.document_outputs import RunContext
    from pipeline.run.engine import local_map

    tasks = [(str(p), str(corpus), None) for p in sorted(corpus.rglob("a*.*"))]
    ctx = RunContext(out=tmp_path, corpus=corpus, state=False)
    outputs = local_map(tasks, ref, Config(out_dir=tmp_path), workers, ctx)
    assert gc.get_freeze_count() == 0
    first = next(outputs)
    frozen_during = gc.get_freeze_count()
    rest = list(outputs)
    assert frozen_during > 10_000
    assert gc.get_freeze_count() == 0
    assert len([first, *rest]) == len(tasks)


# ---------------------------------------------------------------- the reference copy a Dask worker loads

def _damage(folder: Path) -> None:
    (folder / "specs.csv").write_text("product_id\n", encoding="utf-8")


def _block(cache: Path) -> None:  # a file where the cache folder should be: nothing can be written under it
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text("not a folder", encoding="utf-8")


@pytest.mark.parametrize(("case", "before", "in_cache"), [
    ("an empty cache: the copy is written there",             None,                         True),
    ("the folder of an earlier worker is used as it is",      "earlier",                    True),
    ("a damaged folder is replaced by the copy",              "damaged",                    True),
    ("a cache that cannot be written: a temporary folder",    "blocked",                    False),
])
def test_a_worker_loads_the_copy_from_one_folder_per_version(ref: Reference, tmp_path: Path, case: str,
                                                             before: str | None, in_cache: bool,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from pipeline.run import engine

    copy = engine.ReferenceCopy.of(ref)
    cache = tmp_path / "cache" / "gpu-factcheck"
    folder = cache / f"reference-{ref.fingerprint[:16]}"
    monkeypatch.setattr(engine, "_COPIES", {})
    if before == "earlier":
        engine.reference_from_copy(copy, cache)
        monkeypatch.setattr(engine, "_COPIES", {})
        marker = folder / "left-by-the-earlier-worker"
        marker.write_text("", encoding="utf-8")
    elif before == "damaged":
        engine.reference_from_copy(copy, cache)
        monkeypatch.setattr(engine, "_COPIES", {})
        _damage(folder)
    elif before == "blocked":
        _block(cache)
    loaded = engine.reference_from_copy(copy, cache)
    assert loaded.fingerprint == ref.fingerprint, case
    assert (Path(loaded.directory) == folder.resolve()) is in_cache, case
    assert engine.reference_from_copy(copy, cache) is loaded  # once per process
    if before == "earlier":
        assert marker.exists()  # not written again
    if in_cache:  # nothing half written or set aside is left beside it
        assert [p.name for p in cache.iterdir()] == [folder.name]


def test_damaged_bytes_are_refused_before_anything_is_written(ref: Reference, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from pipeline.errors import ReferenceTableError
    from pipeline.run import engine

    copy = engine.ReferenceCopy.of(ref)
    (name, data), *rest = copy.files
    monkeypatch.setattr(engine, "_COPIES", {})
    with pytest.raises(ReferenceTableError, match="damaged"):
        engine.reference_from_copy(engine.ReferenceCopy(copy.fingerprint, ((name, data + b"\n"), *rest)),
                                   tmp_path / "cache")
    assert not (tmp_path / "cache").exists()
