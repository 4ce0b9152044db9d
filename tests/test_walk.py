"""What a run reads: never its own outputs or state, no symlink out of the corpus unless asked, any file name,
other file types counted, an empty corpus refused; and the command line's checks of its own options."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.ingest import OUTPUT_MARKER, shown_name, walk

runner = CliRunner()

# fmt: off
ARTICLES = {
    "a.txt": "RTX 4090评测\n\nRTX 4090配备了32GB的GDDR6X显存。\n",   # 24GB: contradicted
    "b.md":  "# L4入门\n\nL4的显存为24GB，功耗72W。\n",
}
SECRET = "机密：这一行只在语料之外的文件里。T4配备16GB显存。\n"
# fmt: on


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def cli(*args: str | Path) -> Any:
    return runner.invoke(app, [str(a) for a in args])


def last_line(result: Any) -> dict[str, Any]:
    return json.loads(result.stderr.splitlines()[-1])


def doc_ids(out: Path) -> list[str]:
    return [json.loads(x)["doc_id"] for x in (out / "documents.jsonl").read_text(encoding="utf-8").splitlines()]


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    return write(tmp_path / "corpus", ARTICLES)


# ---------------------------------------------------------------- point 4: the run's own files are never read

def test_run_dot_three_times_reads_the_same_articles(corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`run .` writes reports/ inside the corpus; the next runs do not read them back."""
    monkeypatch.chdir(corpus)
    counts = []
    for _ in range(3):
        result = cli("run", ".", "--workers", "1", "--quiet")
        assert result.exit_code == 0, result.output
        counts.append(last_line(result)["documents"])
    assert counts == [2, 2, 2]
    assert sorted(doc_ids(corpus / "reports")) == sorted(ARTICLES)


def test_an_earlier_output_folder_and_the_state_folder_are_not_read(corpus: Path) -> None:
    first = cli("run", corpus, "--out", corpus / "r1", "--no-state", "--workers", "1", "--quiet")
    assert first.exit_code == 0, first.output
    assert (corpus / "r1" / OUTPUT_MARKER).is_file() and (corpus / "r1" / "a.txt.md").is_file()
    write(corpus, {"db/notes.txt": "H100配备80GB HBM3显存。\n"})  # beside the state: not an article of the corpus
    second = cli("run", corpus, "--out", corpus / "r2", "--state", corpus / "db" / "state.sqlite", "--workers", "1",
                 "--quiet")
    assert second.exit_code == 0, second.output
    assert sorted(doc_ids(corpus / "r2")) == sorted(ARTICLES)


def test_out_equal_to_the_corpus_is_refused_and_overwrites_nothing(corpus: Path) -> None:
    write(corpus, {"n.txt": "T4的功耗为70W。\n", "n.txt.md": "编辑的笔记，不是报告。\n"})
    before = {p.name: p.read_bytes() for p in corpus.iterdir()}
    result = cli("run", corpus, "--out", corpus, "--no-state", "--workers", "1")
    assert result.exit_code == 2, result.output
    assert "is the corpus folder itself" in result.stderr
    assert {p.name: p.read_bytes() for p in corpus.iterdir()} == before


def test_walk_passes_over_excluded_and_marked_folders(tmp_path: Path) -> None:
    root = write(tmp_path / "c", {"a.txt": "x", "out/a.txt.md": "x", "old/x.md": "x", "old/" + OUTPUT_MARKER: "{}",
                                   "keep/b.md": "x"})
    found = walk(root, exclude=[root / "out"])
    assert [p.relative_to(root).as_posix() for p in found.articles] == ["a.txt", "keep/b.md"]
    assert sorted(p.name for p in found.passed_over) == ["old", "out"]


# ---------------------------------------------------------------- point 5: symlinks that leave the corpus

@pytest.fixture
def linked(tmp_path: Path, corpus: Path) -> Path:
    outside = write(tmp_path / "outside", {"secret.txt": SECRET, "dir/more.txt": SECRET})
    os.symlink(outside / "secret.txt", corpus / "p.txt")
    os.symlink(outside / "dir", corpus / "ext")
    os.symlink(corpus / "a.txt", corpus / "same.txt")  # inside the corpus: read as before
    return corpus


def test_links_leaving_the_corpus_are_skipped_and_reported(linked: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = cli("run", linked, "--out", out, "--no-state", "--workers", "1", "--quiet")
    assert result.exit_code == 0, result.output
    summary = last_line(result)
    assert summary["outside_links"] == 2
    assert sorted(doc_ids(out)) == sorted([*ARTICLES, "same.txt"])
    assert any("p.txt" in w and "--follow-symlinks" in w for w in summary["warnings"]), summary
    for name in ("index.html", "summary.md", "claims.jsonl", "documents.jsonl"):
        assert "机密" not in (out / name).read_text(encoding="utf-8"), name
    assert "未跟随的外部链接：2" in (out / "summary.md").read_text(encoding="utf-8")


def test_follow_symlinks_reads_them(linked: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = cli("run", linked, "--out", out, "--no-state", "--workers", "1", "--quiet", "--follow-symlinks")
    assert result.exit_code == 0, result.output
    assert last_line(result)["outside_links"] == 0
    assert sorted(doc_ids(out)) == sorted([*ARTICLES, "same.txt", "p.txt", "ext/more.txt"])


# ---------------------------------------------------------------- point 6: any file name

BAD = b"bad\xff\xfe name.txt"


def test_an_undecodable_file_name_is_a_per_document_error(corpus: Path, tmp_path: Path) -> None:
    with open(os.path.join(os.fsencode(corpus), BAD), "wb") as f:
        f.write("H100配备80GB HBM3显存。\n".encode())
    shown = "bad\\xff\\xfe name.txt"
    assert shown_name(os.fsdecode(BAD)) == shown
    out = tmp_path / "out"
    for _ in range(2):  # with state, and again from the state
        result = cli("run", corpus, "--out", out, "--workers", "1", "--quiet")
        assert result.exit_code == 1, result.output
        docs = {json.loads(x)["doc_id"]: json.loads(x) for x in (out / "documents.jsonl").read_text("utf-8").split("\n")
                if x}
        assert docs[shown]["status"] == "error"
        assert shown in docs[shown]["message"] and "UTF-8" in docs[shown]["message"]
        assert {d for d, doc in docs.items() if doc["status"] == "ok"} == set(ARTICLES)
        assert shown in (out / "index.html").read_text(encoding="utf-8")


# ---------------------------------------------------------------- point 10: other types counted, empty corpus

def test_other_file_types_are_counted(corpus: Path, tmp_path: Path) -> None:
    (corpus / "slides.pdf").write_bytes(b"%PDF-1.4")
    (corpus / "notes.docx").write_bytes(b"PK\x03\x04")
    result = cli("run", corpus, "--out", tmp_path / "out", "--no-state", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert "2 other files" in result.stdout
    assert last_line(result)["other_files"] == 2
    assert "其他类型文件：2" in (tmp_path / "out" / "summary.md").read_text(encoding="utf-8")


# fmt: off
EMPTY_CASES = [
    # files in the corpus,                 words of the message
    ({},                                   ["no articles in", "0 files seen"]),
    ({"a.pdf": "x", "b.docx": "x"},        ["no articles in", "2 files seen", "2 of other types"]),
]
# fmt: on


@pytest.mark.parametrize(("files", "words"), EMPTY_CASES)
@pytest.mark.parametrize("quiet", [False, True])
def test_an_empty_corpus_exits_2_with_the_count(tmp_path: Path, files: dict[str, str], words: list[str],
                                                quiet: bool) -> None:
    corpus = write(tmp_path / "corpus", files)
    corpus.mkdir(exist_ok=True)
    out = tmp_path / "out"
    result = cli("run", corpus, "--out", out, "--no-state", *(["--quiet"] if quiet else []))
    assert result.exit_code == 2, result.output
    message = last_line(result)["error"]
    for word in words:
        assert word in message
        if not quiet:
            assert word in result.stderr.splitlines()[0]
    assert not out.exists()


# ---------------------------------------------------------------- the command line checks its own options

@pytest.mark.parametrize("quiet", [False, True])
def test_negative_workers_are_refused(corpus: Path, tmp_path: Path, quiet: bool) -> None:
    result = cli("run", corpus, "--out", tmp_path / "out", "--no-state", "--workers", "-1",
                 *(["--quiet"] if quiet else []))
    assert result.exit_code == 2, result.output
    assert "--workers" in result.stderr
    if quiet:
        line = last_line(result)
        assert (line["event"], line["exit_code"]) == ("run_finished", 2) and "--workers" in line["error"]
        assert len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_a_corpus_folder_whose_name_is_not_utf8_is_refused_clearly(tmp_path: Path) -> None:
    folder = os.path.join(os.fsencode(tmp_path), b"caf\xe9")
    os.mkdir(folder)
    with open(os.path.join(folder, b"a.txt"), "wb") as f:
        f.write(ARTICLES["a.txt"].encode())
    result = cli("run", os.fsdecode(folder), "--out", tmp_path / "out", "--no-state", "--quiet")
    assert result.exit_code == 2, result.output
    assert "caf\\xe9" in last_line(result)["error"] and "not valid UTF-8" in last_line(result)["error"]


# ---------------------------------------------------------------- issue 27: what was scanned is what is read

def _state_text(out: Path) -> str:
    import sqlite3

    conn = sqlite3.connect(out / "state.sqlite")
    try:
        return "\n".join(str(row) for table in ("documents", "claims")
                         for row in conn.execute(f"SELECT * FROM {table}"))
    finally:
        conn.close()


def _everything_published(out: Path) -> str:
    return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in sorted(out.iterdir())
                     if p.is_file() and not p.name.startswith(("state.sqlite", ".gpu-factcheck")))


# fmt: off
SWAPS = [
    # what is replaced by a link after the walk, and what the link leads to
    ("a.txt",      "secret.txt"),   # a file, for a file outside the corpus
    ("sub",        "dir"),          # a folder, for a folder outside it
    ("sub/c.txt",  "secret.txt"),   # a file in a subfolder
]
# fmt: on


@pytest.mark.parametrize(("swapped", "target"), SWAPS)
@pytest.mark.parametrize("workers", [1, 2])
def test_a_file_swapped_for_a_link_between_scan_and_read_is_never_read(corpus: Path, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch,
                                                                     swapped: str, target: str, workers: int) -> None:
    import shutil

    import pipeline.ingest

    write(corpus, {"sub/c.txt": "L4入门\n\nL4的显存为24GB。\n",
                   **{f"n{i}.txt": "T4的功耗为70W。\n" for i in range(20)}})
    outside = write(tmp_path / "outside", {"secret.txt": SECRET, "dir/c.txt": SECRET})
    real_walk = pipeline.ingest.walk

    def walk_then_swap(path: Path, **kw: Any) -> Any:
        found = real_walk(path, **kw)
        victim = corpus / swapped
        if victim.is_dir():
            shutil.rmtree(victim)
        else:
            victim.unlink()
        os.symlink(outside / target, victim)
        return found

    monkeypatch.setattr(pipeline.ingest, "walk", walk_then_swap)
    out = tmp_path / "out"
    result = cli("run", corpus, "--out", out, "--workers", workers, "--quiet")
    assert result.exit_code in (0, 1), result.output
    assert "机密" not in _everything_published(out)
    assert "机密" not in _state_text(out)
    docs = {json.loads(x)["doc_id"]: json.loads(x) for x in (out / "documents.jsonl").read_text("utf-8").splitlines()}
    victims = [d for d in docs if d == swapped or d.startswith(swapped + "/")]
    assert victims and all(docs[d]["status"] == "error" and "link" in docs[d]["message"] for d in victims), docs


def test_a_link_into_the_output_folder_inside_the_corpus_is_never_read(corpus: Path, tmp_path: Path) -> None:
    """--out inside the corpus: links into it (to a report, or to the folder) are not articles (point 8)."""
    out = corpus / "reports"
    first = cli("run", corpus, "--out", out, "--workers", "1", "--quiet")
    assert first.exit_code == 0, first.output
    os.symlink(out / "a.txt.md", corpus / "copy.md")
    os.symlink(out, corpus / "view")
    second = cli("run", corpus, "--out", out, "--workers", "1", "--quiet")
    assert second.exit_code == 0, second.output
    assert sorted(doc_ids(out)) == sorted(ARTICLES)


def test_special_files_and_link_loops_are_counted(corpus: Path, tmp_path: Path) -> None:
    """A FIFO named like an article, a link to itself and a folder link back to its parent: skipped, and counted
    in the JSON line and summary.md (point 8)."""
    os.mkfifo(corpus / "pipe.txt")
    os.symlink(corpus / "self.md", corpus / "self.md")
    (corpus / "sub").mkdir()
    os.symlink(corpus / "sub", corpus / "sub" / "again")
    out = tmp_path / "out"
    result = cli("run", corpus, "--out", out, "--no-state", "--workers", "1", "--quiet")
    assert result.exit_code == 0, result.output
    line = last_line(result)
    assert line["special_files"] == 3, line
    assert sorted(doc_ids(out)) == sorted(ARTICLES)
    assert "特殊文件：3" in (out / "summary.md").read_text(encoding="utf-8")


def test_control_characters_in_a_file_name_are_escaped_in_markdown_and_logs(corpus: Path, tmp_path: Path) -> None:
    """An ANSI escape in a file name reaches neither summary.md, the document's .md nor the terminal (point 8)."""
    name = "\x1b[31mred\x1b[0m.txt"
    (corpus / name).write_text("T4的功耗为70W。\n", encoding="utf-8")
    os.symlink(tmp_path, corpus / "\x1b]0;title\x07.txt")  # leaves the corpus: a warning names it
    out = tmp_path / "out"
    result = cli("run", corpus, "--out", out, "--no-state", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr
    for page in out.glob("*.md"):
        text = page.read_text(encoding="utf-8")
        assert "\x1b" not in text and "\x07" not in text, page.name
    assert "\\x1b[31mred\\x1b[0m.txt" in (out / "summary.md").read_text(encoding="utf-8").replace("\\\\", "\\")
