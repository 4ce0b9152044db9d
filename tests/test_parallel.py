"""Scaling: --workers 2 (a process pool) and a Dask cluster give the same tables as one worker."""

from __future__ import annotations

import concurrent.futures
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.config import Config
from pipeline.errors import UsageError
from pipeline.reference import Reference
from pipeline.run import RunOptions, run
from pipeline.segment import get_segmenter

runner = CliRunner()
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


# ---------------------------------------------------------------- Dask (kept after the pool: no fork beside threads)

@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as c:
        yield c


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
