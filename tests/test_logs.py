"""What a scheduled run leaves in its log: with --quiet exactly one JSON line on stderr whatever the exit code,
the libraries' logs only with --verbose, and exit 4 (one line, no traceback) when the run itself fails."""

from __future__ import annotations

import errno
import json
import logging
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock
from typer.testing import CliRunner

import pipeline.atomic
import pipeline.run
import pipeline.run.outputs
from pipeline.cli import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]

# fmt: off
GOOD = "RTX 4090采用Ada Lovelace架构，配备24GB GDDR6X显存。\n"
WRONG = "RTX 4090配备了32GB显存。\n"              # 24GB: contradicted
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(64))     # an error document
THIRD_PARTY = "Created temporary directory for ephemeral docs site"
# fmt: on


def cli(*args: str | Path) -> Any:
    return runner.invoke(app, [str(a) for a in args])


def corpus_of(folder: Path, files: dict[str, bytes]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return folder


@pytest.fixture
def chatty_library(monkeypatch: pytest.MonkeyPatch) -> None:
    """A library that logs at INFO on its own logger during the run, as great-expectations does."""
    real = pipeline.run.validate_reference_or_fail

    def validate(config: Any) -> Any:
        lib = logging.getLogger("great_expectations.data_context.types.base")
        lib.setLevel(logging.INFO)
        lib.info(THIRD_PARTY)
        return real(config)

    monkeypatch.setattr(pipeline.run, "validate_reference_or_fail", validate)


def _disk_full(monkeypatch: pytest.MonkeyPatch, tmp: Path) -> None:
    def commit(tmp_file: Path, path: Path, durable: bool = True) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr(pipeline.atomic, "_commit", commit)


def _read_only(monkeypatch: pytest.MonkeyPatch, tmp: Path) -> None:
    # CI runs as root, where chmod does not make a folder read-only; the error is what the OS would raise
    def commit(tmp_file: Path, path: Path, durable: bool = True) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))

    monkeypatch.setattr(pipeline.atomic, "_commit", commit)


def _lock_is_a_folder(monkeypatch: pytest.MonkeyPatch, tmp: Path) -> None:
    (tmp / "out" / "state.sqlite.lock").mkdir(parents=True)


def _out_is_a_file(monkeypatch: pytest.MonkeyPatch, tmp: Path) -> None:
    (tmp / "out").write_text("not a folder", encoding="utf-8")


def _bug(monkeypatch: pytest.MonkeyPatch, tmp: Path) -> None:
    def finish_index(self: Any, run_info: Any) -> None:
        raise KeyError("a bug")

    monkeypatch.setattr(pipeline.run.outputs.Outputs, "finish_index", finish_index)


def _locked(monkeypatch: pytest.MonkeyPatch, tmp: Path) -> None:
    (tmp / "out").mkdir()
    lock = FileLock(tmp / "out" / ".gpu-factcheck.lock")
    lock.acquire(timeout=0)
    monkeypatch.setattr(sys.modules[__name__], "_held", lock, raising=False)


def _nothing(monkeypatch: pytest.MonkeyPatch, tmp: Path) -> None:
    pass


Setup = Callable[[pytest.MonkeyPatch, Path], None]
CORPORA = {"good": {"a.txt": GOOD.encode()}, "doc-error": {"a.txt": GOOD.encode(), "x.txt": PNG},
           "wrong": {"a.txt": WRONG.encode()}, "missing": {}}

# fmt: off
CASES: list[tuple[str, str, list[str], Setup, int, list[str]]] = [
    # name,          corpus,     options,                       setup,            exit, words of the error
    ("ok",           "good",      [],                            _nothing,          0, []),
    ("doc-error",    "doc-error", [],                            _nothing,          1, []),
    ("flagged",      "wrong",     ["--fail-on", "contradicted"], _nothing,          3, []),
    ("no-corpus",    "missing",   [],                            _nothing,          2, ["not found"]),
    ("bad-option",   "good",      ["--fail-on", "supported"],    _nothing,          2, ["--fail-on"]),
    ("locked",       "good",      [],                            _locked,           2, ["another run is writing"]),
    ("out-is-file",  "good",      [],                            _out_is_a_file,    2, ["is a file"]),
    ("disk-full",    "good",      [],                            _disk_full,        4, ["No space", "free some"]),
    ("read-only",    "good",      [],                            _read_only,        4, ["Read-only", "writable"]),
    ("lock-folder",  "good",      [],                            _lock_is_a_folder, 4, ["sqlite.lock", "move it"]),
    ("bug",          "good",      [],                            _bug,              4, ["internal error", "KeyError"]),
]
# fmt: on


@pytest.mark.usefixtures("chatty_library")
@pytest.mark.parametrize(("name", "files", "options", "setup", "code", "words"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("quiet", [True, False], ids=["quiet", "plain"])
def test_every_run_ends_in_one_json_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str,
                                         files: str, options: list[str], setup: Setup, code: int,
                                         words: list[str], quiet: bool) -> None:
    corpus = corpus_of(tmp_path / "corpus", CORPORA[files]) if CORPORA[files] else tmp_path / "missing"
    setup(monkeypatch, tmp_path)
    result = cli("run", corpus, "--out", tmp_path / "out", "--workers", "1", *options,
                 *(["--quiet"] if quiet else []))
    assert result.exit_code == code, result.output
    lines = result.stderr.splitlines()
    summary = json.loads(lines[-1])
    assert (summary["event"], summary["exit_code"]) == ("run_finished", code)
    assert ("error" in summary) is (code in (2, 4))
    for word in words:
        assert word in summary["error"]
    assert THIRD_PARTY not in result.output and "Traceback" not in result.output
    if quiet:
        assert lines == [lines[-1]] and result.stdout == ""
    elif code in (2, 4):  # one line saying why, then the JSON line
        assert lines[0] == f"error: {summary['error']}" and len(lines) == 2
    if code == 4:
        assert summary["error"].count("\n") == 0


def test_verbose_shows_the_libraries_and_the_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       chatty_library: None) -> None:
    corpus = corpus_of(tmp_path / "corpus", {"a.txt": GOOD.encode()})
    _bug(monkeypatch, tmp_path)
    result = cli("run", corpus, "--out", tmp_path / "out", "--workers", "1", "--verbose")
    assert result.exit_code == 4
    assert THIRD_PARTY in result.stderr
    assert "Traceback" in result.stderr and "KeyError: 'a bug'" in result.stderr
    assert json.loads(result.stderr.splitlines()[-1])["exit_code"] == 4


def test_a_failed_run_keeps_the_last_complete_outputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    corpus = corpus_of(tmp_path / "corpus", {"a.txt": GOOD.encode()})
    out = tmp_path / "out"
    assert cli("run", corpus, "--out", out, "--workers", "1", "--quiet").exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file() and not p.name.startswith(("state", "."))}
    (corpus / "b.txt").write_bytes(WRONG.encode())
    _disk_full(monkeypatch, tmp_path)
    assert cli("run", corpus, "--out", out, "--workers", "1", "--quiet").exit_code == 4
    after = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file() and not p.name.startswith(("state", "."))}
    assert after == before
    monkeypatch.undo()
    assert cli("run", corpus, "--out", out, "--workers", "1", "--quiet").exit_code == 0
    assert "b.txt" in (out / "documents.jsonl").read_text(encoding="utf-8")


# ---------------------------------------------------------------- the README's cron line, for real

@pytest.mark.slow
def test_the_cron_log_reads_back_with_pandas(tmp_path: Path) -> None:
    """Three runs as cron starts them (`--quiet ... >> log 2>&1`) in fresh processes: one JSON line each."""
    pd = pytest.importorskip("pandas")
    corpus = corpus_of(tmp_path / "articles", {"a.txt": GOOD.encode(), "b.txt": WRONG.encode()})
    log = tmp_path / "gpu-factcheck.jsonl"
    runs = [[corpus, "--fail-on", "contradicted,misattributed"],  # a new flag: 3
            [corpus, "--fail-on", "contradicted,misattributed"],  # unchanged: 0
            [tmp_path / "gone"]]                                  # a missing folder: 2
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for args in runs:
        with open(log, "ab") as f:
            subprocess.run([sys.executable, "-m", "pipeline", "run", *map(str, args), "--out",
                            str(tmp_path / "reports"), "--quiet", "--lock-timeout", "600", "--workers", "1"],
                           stdout=f, stderr=subprocess.STDOUT, cwd=tmp_path, env=env, check=False)
    frame = pd.read_json(log, lines=True)
    assert list(frame["event"]) == ["run_finished"] * 3
    assert list(frame["exit_code"]) == [3, 0, 2]
    assert list(frame["documents"].fillna(-1)) == [2, 2, -1]
    assert "not found" in frame["error"].iloc[2]
