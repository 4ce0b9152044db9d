"""A hostile corpus: empty, binary, legacy-encoded, huge, pathological, unreadable and vanishing files.

Each document ends as a correct result or a clear per-document error, the run finishes with the exit code of the
README table, a normal article beside them keeps its flag, and nothing is left half-written. The corpus goes
through ``pipeline.run.run`` and through the command line.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import pipeline.ingest
import pipeline.run.document
from pipeline import check_text
from pipeline.cli import app
from pipeline.config import Config
from pipeline.knowledge.reference import Reference
from pipeline.records import Status
from pipeline.report import safe_name
from pipeline.run import RunOptions, run
from pipeline.segment import get_segmenter

runner = CliRunner()

MB = 1024 * 1024
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06\x00\x00\x00" + bytes(range(256))
NORMAL = "normal.txt"
NORMAL_TEXT = "RTX 4090配备了32GB显存。\n"  # the card has 24GB
PROSE = "这一段只谈机房里的散热、供电和机柜布线，没有提到任何具体的显卡参数。\n"
FILLER = "显卡数据中心散热供电训练推理带宽算力"  # no punctuation, no line break
BIG = "big.txt"  # 50 MB: one paragraph repeated
LOCKED = "locked.txt"  # reading it fails with EACCES (CI runs as root, so chmod would not do)
GONE = "zz-gone.txt"  # listed by discovery, gone by the time it is read
MIXED = "mixed.txt"  # a UTF-8 half and a GBK half: decoded, or a clear error

# fmt: off
# name -> bytes of every small file in the corpus folder
FILES: dict[str, bytes] = {
    NORMAL:               NORMAL_TEXT.encode(),
    "empty.txt":          b"",
    "blank.md":           " \n\t\r\n\u3000\u200b\n".encode(),
    "image.txt":          PNG,
    "gbk.txt":            "A100配备了40GB HBM2显存，功耗为400W。\n".encode("gbk"),
    "gb18030.txt":        "L40S配备48GB GDDR6显存。生僻字𠮷只有GB18030能编码。\n".encode("gb18030"),
    "utf16.txt":          "T4的功耗为70W，配备16GB GDDR6显存。\n".encode("utf-16"),  # with a BOM
    MIXED:                "H100配备80GB HBM3显存。\n".encode() + "MI300X配备192GB HBM3显存。\n".encode("gbk"),
    "broken.html":        "<html><body><p>RTX 4090配备了<b>24GB GDDR6X显存<p>未闭合的段落<div><table><tr><td>H100"
                          "<td>&nbsp;&#xZZ;<</".encode(),
    "nested.html":        ("<html><head><script>var spec = 'RTX 4090配备了48GB显存';</script></head><body>"
                           + "<div>" * 10_000 + "<p>H100配备80GB HBM3显存。</p>" + "</div>" * 10_000
                           + "<script>document.write('MI300X配备了64GB显存');</script></body></html>").encode(),
    "oneline.txt":        (FILLER * (MB // len(FILLER.encode()) + 1)).encode(),
    "with space.txt":     "T4的功耗为70W。\n".encode(),
    "中文名称.txt":        "MI300X配备192GB HBM3显存。\n".encode(),
    ".hidden.txt":        "L40S配备48GB GDDR6显存。\n".encode(),
    LOCKED:               "H100配备80GB HBM3显存。\n".encode(),
    ".drafts/secret.txt": "RTX 4090配备了99GB显存。\n".encode(),  # in a hidden folder: never read
}

# doc_id -> (status, words its message must contain); MIXED is checked on its own
STATUS: dict[str, tuple[str, tuple[str, ...]]] = {
    NORMAL:           ("ok",      ()),
    "empty.txt":      ("skipped", ("empty",)),
    "blank.md":       ("skipped", ("whitespace",)),
    "image.txt":      ("error",   ("image.txt", "binary")),
    "gbk.txt":        ("ok",      ()),
    "gb18030.txt":    ("ok",      ()),
    "utf16.txt":      ("ok",      ()),
    BIG:              ("error",   (BIG, "over the limit", "20,971,520")),
    "oneline.txt":    ("ok",      ()),
    "broken.html":    ("ok",      ()),
    "nested.html":    ("ok",      ()),
    "with space.txt": ("ok",      ()),
    "中文名称.txt":    ("ok",      ()),
    ".hidden.txt":    ("ok",      ()),
    LOCKED:           ("error",   (LOCKED, "cannot read", "Permission denied")),
    GONE:             ("error",   (GONE, "cannot read")),
}

# (doc_id, claim text, attribute, verdict): what the readable documents must still yield
CLAIMS = [
    (NORMAL,           "32GB",  "memory_size", "contradicted"),
    ("gbk.txt",        "40GB",  "memory_size", "supported"),
    ("gbk.txt",        "400W",  "tdp",         "supported"),
    ("gb18030.txt",    "48GB",  "memory_size", "supported"),
    ("utf16.txt",      "70W",   "tdp",         "supported"),
    ("utf16.txt",      "16GB",  "memory_size", "supported"),
    ("broken.html",    "24GB",  "memory_size", "supported"),
    ("nested.html",    "80GB",  "memory_size", "supported"),
    ("with space.txt", "70W",   "tdp",         "supported"),
    ("中文名称.txt",    "192GB", "memory_size", "supported"),
    (".hidden.txt",    "48GB",  "memory_size", "supported"),
]
# fmt: on


# ---------------------------------------------------------------- helpers

def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def strict_json(line: str) -> Any:
    """json.loads without Python's NaN/Infinity extension: what every other JSON reader accepts."""
    return json.loads(line, parse_constant=_no_constants)


def jsonl(path: Path) -> list[dict[str, Any]]:
    return [strict_json(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write_files(folder: Path, files: dict[str, bytes]) -> Path:
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return folder


def write_big(path: Path, size: int, tail: str = "") -> None:
    """An article of ``size`` bytes or a little less: one paragraph repeated, then ``tail``."""
    para = PROSE.encode()
    with open(path, "wb") as f:
        f.write(para * ((size - len(tail.encode())) // len(para)))
        f.write(tail.encode())


def refuse_locked(mp: pytest.MonkeyPatch) -> None:
    """Make opening LOCKED fail as an unreadable file does (ingest opens each article once, in ingest.reading)."""
    import pipeline.ingest.reading

    real = pipeline.ingest.reading._open

    def open_(path: Path, root: Path, follow_symlinks: bool) -> int:
        if Path(path).name == LOCKED:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, root, follow_symlinks)

    mp.setattr(pipeline.ingest.reading, "_open", open_)


def cli(*args: str | Path) -> Any:
    return runner.invoke(app, [str(a) for a in args])


def summary_line(stderr: str) -> dict[str, Any]:
    return strict_json(next(line for line in reversed(stderr.splitlines()) if '"run_finished"' in line))


def source_of(doc: dict[str, Any], corpus: Path) -> str:
    """What a claim's offsets point into (README: the document's text, else the UTF-8 file without BOM)."""
    if "text" in doc:
        return doc["text"]
    with open(corpus / doc["doc_id"], encoding="utf-8-sig", newline="") as f:
        return f.read()


@dataclass(frozen=True)
class Outcome:
    exit_code: int
    summary: dict[str, Any]
    out: Path
    corpus: Path

    @property
    def docs(self) -> dict[str, dict[str, Any]]:
        return {d["doc_id"]: d for d in jsonl(self.out / "documents.jsonl")}

    @property
    def claims(self) -> list[dict[str, Any]]:
        return jsonl(self.out / "claims.jsonl")


# ---------------------------------------------------------------- the hostile corpus, run two ways

@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = write_files(tmp_path_factory.mktemp("hostile"), FILES)
    write_big(folder / BIG, 50 * MB)
    os.symlink(folder, folder / "loop")  # loop -> the corpus itself
    os.symlink(folder / "sub", folder / "sub-again")
    (folder / "sub").mkdir()
    os.symlink(folder / "sub-again", folder / "sub" / "back")  # sub/back -> sub-again -> sub
    return folder


@pytest.fixture(scope="module")
def api_run(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Outcome:
    """run(RunOptions(...)); GONE exists when the corpus is listed and is deleted after the first document."""
    out = tmp_path_factory.mktemp("api-out")
    gone = corpus / GONE
    gone.write_text("L40S配备48GB GDDR6显存。\n", encoding="utf-8")
    done: list[str] = []

    def progress(i: int, total: int, result: Any) -> None:
        done.append(result.doc_id)
        gone.unlink(missing_ok=True)

    with pytest.MonkeyPatch.context() as mp:
        refuse_locked(mp)
        summary = run(RunOptions(corpus=corpus, config=Config(out_dir=out, workers=1), use_state=False),
                      progress=progress)
    assert done[0] != GONE and not gone.exists()
    return Outcome(summary.exit_code, dict(summary.__dict__), out, corpus)


@pytest.fixture(scope="module")
def cli_run(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Outcome:
    """The command line; the walk is patched to list GONE, which does not exist."""
    out = tmp_path_factory.mktemp("cli-out")
    real_walk = pipeline.ingest.walk

    def walk(path: Path, **kw: Any) -> pipeline.ingest.Walk:
        found = real_walk(path, **kw)
        return dataclasses.replace(found, articles=sorted({*found.articles, Path(path) / GONE}))

    with pytest.MonkeyPatch.context() as mp:
        refuse_locked(mp)
        mp.setattr(pipeline.ingest, "walk", walk)
        result = cli("run", corpus, "--out", out, "--no-state", "--workers", "1", "--quiet")
    return Outcome(result.exit_code, summary_line(result.stderr), out, corpus)


@pytest.fixture(scope="module", params=["api", "cli"])
def hostile(request: pytest.FixtureRequest) -> Outcome:
    return request.getfixturevalue(f"{request.param}_run")


def test_run_finishes_with_exit_1(hostile: Outcome) -> None:
    assert hostile.exit_code == 1
    assert hostile.summary["exit_code"] == 1
    errors = sum(status == "error" for status, _ in STATUS.values())
    skipped = sum(status == "skipped" for status, _ in STATUS.values())
    assert hostile.summary["errors"] in (errors, errors + 1)  # + 1 when MIXED is an error
    assert hostile.summary["skipped"] == skipped
    assert hostile.summary["seconds"] < 180  # the 1 MB line and the 10,000 tags are bounded


def test_every_document_is_listed_once(hostile: Outcome) -> None:
    """No symlink-loop duplicates, hidden files kept, hidden folders skipped."""
    ids = [d["doc_id"] for d in jsonl(hostile.out / "documents.jsonl")]
    assert sorted(ids) == sorted([*STATUS, MIXED])


@pytest.mark.parametrize(("doc_id", "status", "words"), [(d, s, w) for d, (s, w) in STATUS.items()])
def test_document_status_and_message(hostile: Outcome, doc_id: str, status: str, words: tuple[str, ...]) -> None:
    doc = hostile.docs[doc_id]
    assert doc["status"] == status, doc["message"]
    for word in words:
        assert word in doc["message"], doc["message"]
    if status == "ok":
        assert not doc["message"]


def test_mixed_encodings_are_decoded_or_refused_clearly(hostile: Outcome) -> None:
    doc = hostile.docs[MIXED]
    if doc["status"] == "ok":
        assert "H100配备80GB" in doc["text"] and "MI300X配备192GB" in doc["text"]
    else:
        assert doc["status"] == "error"
        assert MIXED in doc["message"] and "UTF-8" in doc["message"]


@pytest.mark.parametrize(("doc_id", "text", "attribute", "verdict"), CLAIMS)
def test_readable_documents_keep_their_claims(hostile: Outcome, doc_id: str, text: str, attribute: str,
                                              verdict: str) -> None:
    found = [(c["attribute"], c["verdict"]) for c in hostile.claims if (c["doc_id"], c["text"]) == (doc_id, text)]
    assert found == [(attribute, verdict)]


def test_the_normal_article_has_exactly_its_flag(hostile: Outcome) -> None:
    flagged = [(c["doc_id"], c["text"]) for c in hostile.claims if c["verdict"] in ("contradicted", "misattributed")]
    assert flagged == [(NORMAL, "32GB")]


def test_claim_offsets_resolve(hostile: Outcome) -> None:
    docs = hostile.docs
    for c in hostile.claims:
        assert docs[c["doc_id"]]["status"] == "ok", c
        assert source_of(docs[c["doc_id"]], hostile.corpus)[c["start"]:c["end"]] == c["text"], c


@pytest.mark.parametrize("doc_id", ["gbk.txt", "gb18030.txt", "utf16.txt", "broken.html", "nested.html"])
def test_derived_text_is_in_documents_jsonl(hostile: Outcome, doc_id: str) -> None:
    assert hostile.docs[doc_id]["text"].strip()


def test_gb18030_four_byte_character_survives(hostile: Outcome) -> None:
    assert "生僻字𠮷只有GB18030能编码" in hostile.docs["gb18030.txt"]["text"]


def test_scripts_are_not_read(hostile: Outcome) -> None:
    assert "var spec" not in hostile.docs["nested.html"]["text"]
    assert [c["text"] for c in hostile.claims if c["doc_id"] == "nested.html"] == ["80GB", "HBM3"]


def test_nothing_is_half_written(hostile: Outcome) -> None:
    assert list(hostile.out.rglob("*.tmp")) == []
    for name in ("claims.jsonl", "documents.jsonl", "claimreview.jsonl"):
        for line in (hostile.out / name).read_text(encoding="utf-8").splitlines():
            assert isinstance(strict_json(line), dict)
    for name in ("claims.csv", "index.html", "summary.md"):
        assert (hostile.out / name).stat().st_size > 0


@pytest.mark.parametrize("doc_id", [d for d, (s, _) in STATUS.items() if s == "ok"])
def test_every_processed_document_has_a_report(hostile: Outcome, doc_id: str) -> None:
    for suffix in (".html", ".md", ".json"):
        assert (hostile.out / f"{safe_name(doc_id)}{suffix}").is_file()


# ---------------------------------------------------------------- exit codes (README table)

# fmt: off
EXIT_CASES = [
    # files,                     extra options,                  exit code
    ([NORMAL, "empty.txt"],      [],                             0),
    ([NORMAL, "blank.md"],       ["--fail-on", "misattributed"], 0),
    ([NORMAL, "image.txt"],      [],                             1),
    ([NORMAL],                   ["--fail-on", "contradicted"],  3),
    ([NORMAL, "image.txt"],      ["--fail-on", "contradicted"],  1),  # document errors come first
]
# fmt: on


@pytest.mark.parametrize(("names", "options", "code"), EXIT_CASES)
def test_exit_codes(tmp_path: Path, names: list[str], options: list[str], code: int) -> None:
    corpus = write_files(tmp_path / "corpus", {n: FILES[n] for n in names})
    result = cli("run", corpus, "--out", tmp_path / "out", "--no-state", "--workers", "1", "--quiet", *options)
    assert result.exit_code == code, result.output
    assert summary_line(result.stderr)["exit_code"] == code


# ---------------------------------------------------------------- size and time limits

@pytest.mark.slow
def test_a_3mb_article_is_refused_under_its_limit_and_processed_above_it(tmp_path: Path) -> None:
    """50 MB is checked for the error path above; processing it takes many minutes, so 3 MB stands in."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    write_big(corpus / "long.txt", 3 * MB, tail=NORMAL_TEXT)
    (corpus / NORMAL).write_text(NORMAL_TEXT, encoding="utf-8")

    refused = cli("run", corpus, "--out", tmp_path / "small", "--no-state", "--workers", "1", "--quiet",
                  "--max-mb", "2")
    assert refused.exit_code == 1, refused.output
    docs = {d["doc_id"]: d for d in jsonl(tmp_path / "small" / "documents.jsonl")}
    assert docs["long.txt"]["status"] == "error" and "over the limit" in docs["long.txt"]["message"]
    assert docs[NORMAL]["status"] == "ok"

    processed = cli("run", corpus, "--out", tmp_path / "big", "--no-state", "--workers", "1", "--quiet",
                    "--max-mb", "60", "--max-seconds", "600")
    assert processed.exit_code == 0, processed.output
    docs = {d["doc_id"]: d for d in jsonl(tmp_path / "big" / "documents.jsonl")}
    assert docs["long.txt"]["status"] == "ok", docs["long.txt"]["message"]
    text = (corpus / "long.txt").read_text(encoding="utf-8")
    flagged = [c for c in jsonl(tmp_path / "big" / "claims.jsonl") if c["doc_id"] == "long.txt"]
    assert [(c["text"], c["verdict"], c["start"]) for c in flagged] == [("32GB", "contradicted", text.rindex("32GB"))]


SLOW = "slow.txt"


@pytest.mark.parametrize("how", ["api", "cli"])
def test_per_document_time_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ref: Reference, how: str) -> None:
    corpus = write_files(tmp_path / "corpus", {NORMAL: FILES[NORMAL], SLOW: FILES["with space.txt"],
                                               "t4.txt": FILES["with space.txt"]})
    out = tmp_path / "out"
    real = pipeline.run.document.analyse

    def analyse(doc: Any, ref: Reference, config: Config | None = None) -> Any:
        if doc.doc_id == SLOW:
            time.sleep(60)
        return real(doc, ref, config)

    monkeypatch.setattr(pipeline.run.document, "analyse", analyse)
    get_segmenter(ref)  # loaded outside the limit, so only the patched sleep can run over it
    started = time.monotonic()
    if how == "api":
        code = run(RunOptions(corpus=corpus, config=Config(out_dir=out, workers=1, max_seconds=2),
                              use_state=False)).exit_code
    else:
        code = cli("run", corpus, "--out", out, "--no-state", "--workers", "1", "--quiet",
                   "--max-seconds", "2").exit_code
    assert time.monotonic() - started < 30
    assert code == 1
    docs = {d["doc_id"]: d for d in jsonl(out / "documents.jsonl")}
    assert docs[SLOW]["status"] == Status.ERROR.value
    assert "gave up after 2s" in docs[SLOW]["message"] and "--max-seconds" in docs[SLOW]["message"]
    assert docs[NORMAL]["status"] == docs["t4.txt"]["status"] == "ok"
    claims = jsonl(out / "claims.jsonl")
    assert [(c["doc_id"], c["verdict"]) for c in claims if c["text"] == "32GB"] == [(NORMAL, "contradicted")]
    assert [c["text"] for c in claims if c["doc_id"] == "t4.txt"] == ["70W"]


# ---------------------------------------------------------------- bugs found with this corpus

WINDOW = Config().window_chars
CLAIM = "RTX 4090配备了32GB显存"


# fmt: off
# characters of the claim before the first boundary of an unbroken line
CUTS = [0, 3, 6, 10, 12, 16, 20]  # 6: 'RTX 40|90', 12: '3|2GB', 16: '显|存' were once cut apart
# fmt: on


@pytest.mark.parametrize("cut", CUTS)
def test_a_claim_across_a_window_cut_in_one_long_line(cut: int) -> None:
    """``cut`` characters of the claim sit before the first window boundary of an unbroken line."""
    before = (FILLER * (WINDOW // len(FILLER) + 1))[:WINDOW - cut]
    text = before + CLAIM + FILLER * 3
    found = [(c.text, c.start, c.verdict.value if c.verdict else None) for c in check_text(text)]
    assert found == [("32GB", len(before) + CLAIM.index("32GB"), "contradicted")]


def test_a_huge_per_second_rate_keeps_claims_jsonl_valid(tmp_path: Path) -> None:
    corpus = write_files(tmp_path / "corpus", {"huge.txt": ("H100的显存带宽为每秒" + "9" * 400 + "GB。\n").encode()})
    run(RunOptions(corpus=corpus, config=Config(out_dir=tmp_path / "out", workers=1), use_state=False))
    for c in jsonl(tmp_path / "out" / "claims.jsonl"):
        assert c["value"] is None or isinstance(c["value"], (int, float, str, list))


# ---------------------------------------------------------------- issue 27, point 8: limits on one document's outputs

REPEATED = "T4配备16GB显存，"  # one claim each time; no line break, so every claim's sentence is the whole window


def _total_bytes(out: Path) -> int:
    return sum(p.stat().st_size for p in out.iterdir() if p.is_file())


def test_a_line_of_many_claims_does_not_write_a_hundred_times_its_size(tmp_path: Path) -> None:
    """A 30 KB line of figures once wrote about 90 MB (each claim repeats its window-long sentence in four
    tables and three reports); the document's outputs are limited, and it says which limit to raise."""
    corpus = write_files(tmp_path / "corpus", {"line.txt": (REPEATED * 1_500 + "\n").encode(),
                                               NORMAL: FILES[NORMAL]})
    out = tmp_path / "out"
    summary = run(RunOptions(corpus=corpus, config=Config(out_dir=out, workers=1), use_state=False))
    assert summary.exit_code == 1
    docs = {d["doc_id"]: d for d in jsonl(out / "documents.jsonl")}
    assert docs["line.txt"]["status"] == "error" and "--max-output-mb" in docs["line.txt"]["message"]
    assert docs[NORMAL]["status"] == "ok"
    assert _total_bytes(out) < 2 * MB


def test_a_document_with_too_many_claims_is_an_error_that_names_the_limit(tmp_path: Path) -> None:
    corpus = write_files(tmp_path / "corpus", {"many.txt": "\n".join([REPEATED] * 40).encode(), NORMAL: FILES[NORMAL]})
    out = tmp_path / "out"
    code = cli("run", corpus, "--out", out, "--no-state", "--workers", "1", "--quiet", "--max-claims", "30").exit_code
    assert code == 1
    docs = {d["doc_id"]: d for d in jsonl(out / "documents.jsonl")}
    assert docs["many.txt"]["status"] == "error" and "--max-claims" in docs["many.txt"]["message"]
    assert not [c for c in jsonl(out / "claims.jsonl") if c["doc_id"] == "many.txt"]


def test_the_time_limit_holds_for_the_whole_document_reports_included(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                      ref: Reference) -> None:
    """--max-seconds bounds a document's reports as well as its analysis (point 8)."""
    import pipeline.report.html

    corpus = write_files(tmp_path / "corpus", {NORMAL: FILES[NORMAL], SLOW: FILES["with space.txt"]})
    real = pipeline.report.html.render_document_html

    def slow_page(result: Any, *args: Any, **kwargs: Any) -> str:
        if result.doc_id == SLOW:
            time.sleep(30)
        return real(result, *args, **kwargs)

    monkeypatch.setattr(pipeline.report.html, "render_document_html", slow_page)
    monkeypatch.setattr(pipeline.report, "render_document_html", slow_page)
    get_segmenter(ref)
    started = time.monotonic()
    out = tmp_path / "out"
    summary = run(RunOptions(corpus=corpus, config=Config(out_dir=out, workers=1, max_seconds=2), use_state=False))
    assert time.monotonic() - started < 20
    assert summary.exit_code == 1
    docs = {d["doc_id"]: d for d in jsonl(out / "documents.jsonl")}
    assert docs[SLOW]["status"] == "error" and "gave up after 2s" in docs[SLOW]["message"]
    assert not (out / f"{safe_name(SLOW)}.html").exists() and not (out / f"{safe_name(SLOW)}.md").exists()
    assert docs[NORMAL]["status"] == "ok"
