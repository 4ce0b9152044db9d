"""Publishing a run: data files, then index.html and summary.md, then the marker; reports of articles that are gone
are removed; and a run killed (kill -9) at any point of publishing leaves outputs the next run repairs."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import pipeline.atomic
from pipeline.config import Config
from pipeline.knowledge.reference import Reference
from pipeline.run import RunOptions, run
from pipeline.segment import get_segmenter
from pipeline.state.store import Store

# fmt: off
# Titled articles (the title is what index.html and summary.md show); version 1 and the edit that follows it.
V1 = {
    "a.txt": "甲篇显卡评测\n\nRTX 4090配备了24GB的GDDR6X显存。\n",
    "b.txt": "乙篇数据中心\n\nH100 SXM5拥有16896个CUDA核心。\n",
    "c.txt": "丙篇入门卡\n\nL4的显存为24GB，功耗72W。\n",
}
V2 = {  # a.txt edited (now wrong), b.txt deleted, d.txt new
    "a.txt": "甲篇显卡评测\n\nRTX 4090配备了32GB的GDDR6X显存。\n",
    "c.txt": V1["c.txt"],
    "d.txt": "丁篇推理卡\n\nT4配备24GB显存，功耗70W。\n",
}
TITLES = {"a.txt": "甲篇显卡评测", "b.txt": "乙篇数据中心", "c.txt": "丙篇入门卡", "d.txt": "丁篇推理卡"}
TABLES = ("claims.jsonl", "documents.jsonl", "claimreview.jsonl", "claims.csv")
# fmt: on


def write_corpus(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for p in folder.iterdir():
        p.unlink()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def run_once(corpus: Path, out: Path) -> Any:
    return run(RunOptions(corpus=corpus, config=Config(out_dir=out, workers=1)))


def outputs(out: Path) -> dict[str, bytes]:
    """The files a reader sees (not the state, the lock or temp files), with the folder's own path (the review
    commands' --state) taken out, so the sets of two folders compare."""
    own = str(out.resolve()).encode()
    return {p.name: p.read_bytes().replace(own, b"<out>") for p in sorted(out.iterdir())
            if p.is_file() and not p.name.startswith("state.sqlite") and p.name != ".gpu-factcheck.lock"
            and p.suffix != ".tmp"}


def listed_documents(out: Path) -> dict[str, list[str]]:
    """doc_ids in documents.jsonl, and the titles index.html and summary.md show, one per row."""
    docs = [json.loads(x)["doc_id"] for x in (out / "documents.jsonl").read_text(encoding="utf-8").splitlines()]
    index = (out / "index.html").read_text(encoding="utf-8")
    summary = (out / "summary.md").read_text(encoding="utf-8")
    rows = re.findall(r'<tr data-verdict="[^"]*"[^>]*>(.*?)</tr>', index, re.S)
    return {"documents.jsonl": sorted(TITLES[d] for d in docs),
            "index.html": sorted(t for row in rows for t in TITLES.values() if t in row),
            "summary.md": sorted(t for line in summary.splitlines() if line.startswith("| ") for t in TITLES.values()
                                 if t in line)}


def assert_consistent(out: Path, corpus_files: dict[str, str]) -> None:
    listed = listed_documents(out)
    assert listed["index.html"] == listed["summary.md"] == listed["documents.jsonl"], listed
    assert listed["documents.jsonl"] == sorted(TITLES[d] for d in corpus_files)
    marker = json.loads((out / ".report-index.json").read_text(encoding="utf-8"))
    assert sorted(k for k in marker if not k.startswith("_")) == sorted(corpus_files)
    linked = re.findall(r'href="([^"#]+\.html)"', (out / "index.html").read_text(encoding="utf-8"))
    assert linked and all((out / name).is_file() for name in linked)


# ---------------------------------------------------------------- order, and reports of deleted articles

def test_data_files_then_index_and_summary_then_the_marker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    corpus = write_corpus(tmp_path / "corpus", V1)
    order: list[str] = []
    real = pipeline.atomic._commit

    def commit(tmp: Path, path: Path, durable: bool = True) -> None:
        real(tmp, path, durable)
        order.append(path.name)

    monkeypatch.setattr(pipeline.atomic, "_commit", commit)
    run_once(corpus, tmp_path / "out")
    assert order[-3:] == ["index.html", "summary.md", ".report-index.json"]
    data = order[:-3]
    assert set(TABLES) <= set(data) and {"a.txt.md", "a.txt.html", "a.txt.json"} <= set(data)
    assert order.count(".report-index.json") == 1


def test_reports_of_deleted_articles_are_removed(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", V1)
    out = tmp_path / "out"
    run_once(corpus, out)
    (out / "notes.md").write_text("an editor's own file in the output folder\n", encoding="utf-8")
    assert {"b.txt.md", "b.txt.html", "b.txt.json"} <= set(outputs(out))
    write_corpus(corpus, V2)
    run_once(corpus, out)
    left = set(outputs(out))
    assert not {"b.txt.md", "b.txt.html", "b.txt.json"} & left
    assert {"a.txt.html", "c.txt.html", "d.txt.html", "notes.md"} <= left
    assert_consistent(out, V2)


# ---------------------------------------------------------------- kill -9 at every point of a run

@dataclass
class KillPoints:
    """Counts the points of a run where a kill is tried: before and after every file is put in place, and after
    every write to the state; kills this process (SIGKILL, as kill -9) at point ``at``: its number, or its name
    and which time it is reached (the state's batches follow the clock, so numbers may shift between runs)."""

    at: int | tuple[str, int]
    seen: int = 0
    names: list[str] | None = None
    reached: Counter[str] = field(default_factory=Counter)

    def tick(self, name: str) -> None:
        self.seen += 1
        self.reached[name] += 1
        if self.names is not None:
            self.names.append(name)
        if self.seen == self.at or self.at == (name, self.reached[name]):
            os.kill(os.getpid(), signal.SIGKILL)

    def install(self, mp: pytest.MonkeyPatch) -> None:
        real_replace = os.replace

        def replace(src: Any, dst: Any) -> None:
            self.tick(f"before {Path(dst).name}")
            real_replace(src, dst)
            self.tick(f"after {Path(dst).name}")

        mp.setattr(os, "replace", replace)
        for method in ("begin_run", "save_prepared", "touch_many", "mark_deleted", "finish_run"):
            mp.setattr(Store, method, self._after(getattr(Store, method), f"state {method}"))

    def _after(self, real: Callable[..., Any], name: str) -> Callable[..., Any]:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            value = real(*args, **kwargs)
            self.tick(name)
            return value

        return wrapped


def run_in_child(corpus: Path, out: Path, at: int | tuple[str, int], names_file: Path | None = None) -> bool:
    """Run on ``corpus`` in a forked child killed at point ``at``; True when it was killed."""
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 0
        try:
            with pytest.MonkeyPatch.context() as mp:
                points = KillPoints(at, names=[] if names_file else None)
                points.install(mp)
                run_once(corpus, out)
            if names_file:
                names_file.write_text("\n".join(points.names or []), encoding="utf-8")
        except BaseException:
            code = 1
        os._exit(code)
    deadline = time.monotonic() + 120
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise AssertionError(f"the run killed at point {at} hung")
        time.sleep(0.02)
    if os.WIFSIGNALED(status):
        assert os.WTERMSIG(status) == signal.SIGKILL
        return True
    assert os.WEXITSTATUS(status) == 0, f"the child run failed at point {at}"
    return False


@dataclass(frozen=True)
class Scene:
    corpus: Path
    before: Path  # the outputs and state of a complete run on V1
    clean: dict[str, bytes]  # what a run on V2 without a kill publishes
    points: list[str]  # the kill points of that run, in order


@pytest.fixture(scope="module")
def scene(tmp_path_factory: pytest.TempPathFactory, ref: Reference) -> Iterator[Scene]:
    get_segmenter(ref)  # loaded once, inherited by every forked run
    root = tmp_path_factory.mktemp("kill")
    corpus = write_corpus(root / "corpus", V1)
    before = root / "before"
    run_once(corpus, before)
    write_corpus(corpus, V2)
    clean_out = root / "clean"
    shutil.copytree(before, clean_out)
    names = root / "points.txt"
    assert not run_in_child(corpus, clean_out, at=0, names_file=names)
    assert_consistent(clean_out, V2)
    yield Scene(corpus, before, outputs(clean_out), names.read_text(encoding="utf-8").splitlines())


def comparable(files: dict[str, bytes]) -> dict[str, bytes]:
    """Everything but the run's times at the top of index.html and summary.md, and the marker's bookkeeping."""
    return {name: data for name, data in files.items()
            if name not in ("index.html", "summary.md", ".report-index.json")}


def kill_and_recover(scene: Scene, at: int, work: Path) -> str:
    out = work / f"out-{at}"
    shutil.copytree(scene.before, out)
    old = outputs(out)
    assert run_in_child(scene.corpus, out, at), f"point {at} was not reached"
    after_kill = outputs(out)
    outcome = ("old set" if after_kill == old else
               "new set" if comparable(after_kill) == comparable(scene.clean) else "mixed")
    summary = run_once(scene.corpus, out)  # the next run
    assert_consistent(out, V2)
    assert comparable(outputs(out)) == comparable(scene.clean), f"killed at point {at}: not repaired"
    assert not list(out.glob(".*.tmp"))
    with Store(out / "state.sqlite") as store:
        assert store.current_doc_ids() == sorted(V2)
    again = run_once(scene.corpus, out)  # and the one after writes nothing new
    assert (again.processed, again.claims) == (0, summary.claims)
    return outcome


def test_the_kill_points_cover_publishing(scene: Scene) -> None:
    publishing = [p for p in scene.points if p.startswith(("before", "after"))]
    assert publishing[-6:] == ["before index.html", "after index.html", "before summary.md", "after summary.md",
                               "before .report-index.json", "after .report-index.json"]
    assert len(scene.points) >= 25


# The windows that once lost the index for good (between the marker and index.html) and the ones around them.
KEY_WINDOWS = ["after claims.jsonl", "after claims.csv", "after index.html", "after summary.md",
               "before .report-index.json"]


@pytest.mark.parametrize("window", KEY_WINDOWS)
def test_a_kill_in_a_key_window_is_repaired(scene: Scene, tmp_path: Path, window: str) -> None:
    assert kill_and_recover(scene, scene.points.index(window) + 1, tmp_path) != "old set"


@pytest.mark.slow
def test_a_kill_at_every_point_is_repaired(scene: Scene, tmp_path: Path) -> None:
    """The windows between the marker and index.html once lost the index for good; every window is tried."""
    seen = [(point, kill_and_recover(scene, at, tmp_path)) for at, point in enumerate(scene.points, 1)]
    outcomes = Counter(outcome for _point, outcome in seen)
    print(f"\n{len(seen)} kills, one per window; before the next run: {dict(outcomes)}; all repaired by it")
    for point, outcome in seen:
        print(f"  killed {point}: {outcome}")
    assert sum(outcomes.values()) == len(scene.points)
    assert outcomes["old set"] and outcomes["mixed"]


@pytest.mark.parametrize("full_at", ["claims.csv", "index.html", "summary.md", ".report-index.json"])
def test_a_full_disk_while_publishing_is_repaired(scene: Scene, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  full_at: str) -> None:
    import errno

    from pipeline.errors import RunFailed

    out = tmp_path / "out"
    shutil.copytree(scene.before, out)
    real = pipeline.atomic._commit

    def commit(tmp: Path, path: Path, durable: bool = True) -> None:
        if path.name == full_at:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real(tmp, path, durable)

    with monkeypatch.context() as mp:
        mp.setattr(pipeline.atomic, "_commit", commit)
        with pytest.raises(RunFailed, match=r"^disk full: .*No space left on device"):  # says what it is (issue 27)
            run_once(scene.corpus, out)
    assert not list(out.glob(".*.tmp"))
    run_once(scene.corpus, out)
    assert_consistent(out, V2)
    assert comparable(outputs(out)) == comparable(scene.clean)


# ---------------------------------------------------------------- kill, change the corpus back, run

_RUN_TIMES = re.compile(r"(开始|结束|本次处理|未变沿用)：(</span>)?[^<\n]*".encode())


def without_run_facts(files: dict[str, bytes]) -> dict[str, bytes]:
    """Every published file, with the facts of the run itself (its times and how many documents it processed or
    carried over) taken out of index.html and summary.md; the marker left out (it holds the run's key)."""
    return {name: _RUN_TIMES.sub(rb"\1", data) if name in ("index.html", "summary.md") else data
            for name, data in files.items() if name != ".report-index.json"}


@dataclass(frozen=True)
class Clean:
    corpus: Path  # holds V1 after every kill_revert_and_run
    before: Path  # the outputs and state of a clean run on V1 there


def clean_run(work: Path) -> Clean:
    corpus = write_corpus(work / "corpus", V1)
    before = work / "before"
    run_once(corpus, before)
    return Clean(corpus, before)


def kill_revert_and_run(clean: Clean, at: tuple[str, int], work: Path) -> None:
    """Kill the run on V2 at point ``at``, put the corpus back to V1, run: what the clean run on V1 wrote, file by
    file; nothing the killed run wrote for V2 is left."""
    out = work / "out"
    shutil.copytree(clean.before, out)
    write_corpus(clean.corpus, V2)
    assert run_in_child(clean.corpus, out, at), f"point {at} was not reached"
    write_corpus(clean.corpus, V1)
    summary = run_once(clean.corpus, out)
    assert summary.exit_code == 0
    expected = without_run_facts(outputs(clean.before))
    got = without_run_facts(outputs(out))
    differ = sorted(n for n in expected.keys() | got.keys() if expected.get(n) != got.get(n))
    assert not differ, f"killed {at}, corpus put back: these files differ from a clean run's"
    assert_consistent(out, V1)
    shutil.rmtree(out)


@pytest.mark.parametrize("window", [*KEY_WINDOWS, "after d.txt.html", "state save_prepared"])
def test_a_kill_then_the_corpus_put_back_publishes_what_a_clean_run_does(scene: Scene, tmp_path: Path,
                                                                          window: str) -> None:
    """The edited article's reports, claims.csv and the added article's reports are those of the corpus as it is
    now, not of the killed run (issue 27, point 1)."""
    kill_revert_and_run(clean_run(tmp_path), (window, 1), tmp_path)


@pytest.mark.slow
def test_a_kill_at_every_point_then_the_corpus_put_back_is_repaired(scene: Scene, tmp_path: Path) -> None:
    clean = clean_run(tmp_path)
    for n, point in enumerate(scene.points):
        kill_revert_and_run(clean, (point, scene.points[:n + 1].count(point)), tmp_path)
