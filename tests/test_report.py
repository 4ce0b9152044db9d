"""The report stage: golden Markdown/JSON, safe HTML, file names, atomic writes, CSV, ClaimReview."""

from __future__ import annotations

import base64
import csv
import hashlib
import json
import os
import re
import shutil
import subprocess
from dataclasses import replace
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline import atomic
from pipeline.atomic import AtomicJsonlWriter, atomic_write_bytes, atomic_write_text
from pipeline.errors import UsageError
from pipeline.lexicon import labels as labels_module
from pipeline.lexicon.labels import code_label, label, value_label
from pipeline.records import RECORD_FIELDS, Check, Claim, DocumentResult, Evidence, Qualifier, Status, Verdict
from pipeline.report import (
    claimreview_objects,
    safe_name,
    write_claims_csv,
    write_document_report,
    write_run_reports,
)
from pipeline.report.claimreview import check_url_template
from pipeline.report.display import in_written_unit, is_traditional, unit_rows
from pipeline.report.html import render_document_html, render_index_html, segments
from pipeline.report.tables import SEVERITY, claim_views, doc_row, doc_rows, report_verdict, safe_href, totals

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"

ARTICLE = """星海X1评测：24GB显存够不够用？

某卡配备了24GB的HBM3显存，带宽高达1TB/s。
该卡基于Hopper架构，拥有16896个CUDA核心，由AMD设计。
据称整卡功耗在350到700W之间。

```python
import torch
torch.cuda.set_device("gpu0")
```
"""
H100 = "https://www.nvidia.com/en-us/data-center/h100/"


def make_claim(
    text: str,
    needle: str,
    claim_id: str,
    attribute: str,
    value: Any,
    unit: str | None,
    verdict: Verdict | None,
    *,
    doc_id: str = "xinghai-x1.md",
    expected: str | None = None,
    explanation: str = "",
    source: str | None = H100,
    source_title: str | None = "NVIDIA H100 Tensor Core GPU",
    qualifier: Qualifier = Qualifier.EXACT,
    review: dict[str, Any] | None = None,
    nth: int = 0,
    evidence: Evidence | None = None,
) -> Claim:
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    end = start + len(needle)
    s0 = max(text.rfind("\n", 0, start), text.rfind("。", 0, start)) + 1
    stops = [i + 1 for i in (text.find("。", end), text.find("\n", end)) if i >= 0]
    sentence = text[s0 : min(stops, default=len(text))].strip()
    check = Check(verdict, explanation, expected, source, source_title, evidence=evidence) if verdict else None
    return Claim(
        doc_id=doc_id, start=start, end=end, text=needle, sentence=sentence, sentence_index=0,
        subject="某卡", subject_mention="某卡", attribute=attribute, value=value, unit=unit,
        qualifier=qualifier, check=check, claim_id=claim_id, extra={"review": review} if review else {},
    )


def article_claims(text: str = ARTICLE, doc_id: str = "xinghai-x1.md") -> tuple[Claim, ...]:
    c = make_claim
    # fmt: off
    return (
        c(text, "24GB", "c01", "memory_size", 24, "GB", Verdict.CONTRADICTED, doc_id=doc_id, nth=1,
          expected="80 GB", explanation="参考表中该卡各版本均为80GB显存。", evidence=Evidence.VENDOR,
          review={"status": "accepted", "editor": "李编辑", "decided_at": "2024-06-01",
                  "note": "已改为80GB"}),
        c(text, "HBM3", "c02", "memory_type", "HBM3", None, Verdict.SUPPORTED, doc_id=doc_id,
          explanation="与参考表一致。", evidence=Evidence.VENDOR),
        c(text, "24GB的HBM3", "c03", "aggregate", None, None, Verdict.UNVERIFIABLE, doc_id=doc_id,
          explanation="无法确定是单卡还是多卡合计。", source=None, source_title=None),
        c(text, "高达1TB/s", "c04", "memory_bandwidth", 1, "TB/s", Verdict.CONTRADICTED, doc_id=doc_id,
          qualifier=Qualifier.UP_TO, expected="3.35 TB/s", explanation="H100 SXM5 显存带宽为3.35TB/s。"),
        c(text, "Hopper架构", "c05", "architecture", "Hopper", None, Verdict.SUPPORTED, doc_id=doc_id,
          explanation="与参考表一致。"),
        c(text, "16896个CUDA核心", "c06", "cuda_cores", 16896, None, Verdict.SUPPORTED, doc_id=doc_id,
          explanation="据TechPowerUp数据库，该卡的CUDA核心数为16896，与文中所述相符。", evidence=Evidence.DATABASE,
          source="https://www.techpowerup.com/gpu-specs/h100-sxm5-80-gb.c3900",
          source_title="TechPowerUp GPU Database: H100 SXM5 80 GB"),
        c(text, "由AMD设计", "c07", "manufacturer", "AMD", None, Verdict.MISATTRIBUTED, doc_id=doc_id,
          expected="NVIDIA", explanation="Hopper是NVIDIA的架构，不是AMD的。", source="reference/vendors.csv",
          source_title="vendors.csv",
          review={"status": "dismissed", "editor": "王主编", "decided_at": "2024-06-02",
                  "note": "原文引用有误"}),
        c(text, "350到700W", "c08", "tdp", [350, 700], "W", Verdict.UNVERIFIABLE, doc_id=doc_id,
          qualifier=Qualifier.RANGE, explanation="参考表只列出了单一功耗值。"),
        c(text, 'torch.cuda.set_device("gpu0")', "c09", "code", None, None, Verdict.CODE_ISSUE,
          doc_id=doc_id, expected="torch.cuda.set_device(0)",
          explanation="set_device 需要设备序号或 torch.device，不接受字符串 gpu0。", source=None,
          source_title=None),
    )
    # fmt: on


def article_result() -> DocumentResult:
    return DocumentResult(
        doc_id="xinghai-x1.md", path="corpus/xinghai-x1.md", format="md", sha256="ab" * 32,
        status=Status.OK, title="星海X1评测：24GB显存够不够用？", claims=article_claims(),
        mentions={"product": {"nvidia_h100": 1}, "vendor": {"amd": 1}},
    )


def other_results() -> list[DocumentResult]:
    short = "该卡采用GDDR6显存。"
    fine = make_claim(short, "GDDR6", "k01", "memory_type", "GDDR6", None, Verdict.SUPPORTED,
                      doc_id="ok-card.txt", explanation="与参考表一致。")
    wrong = make_claim(short, "GDDR6", "w01", "memory_type", "GDDR6", None, Verdict.CONTRADICTED,
                       doc_id="one-flag.txt", expected="HBM3", explanation="该卡使用HBM3显存。")
    return [
        DocumentResult("ok-card.txt", "corpus/ok-card.txt", "txt", "cd" * 32, Status.OK, claims=(fine,)),
        DocumentResult("one-flag.txt", "corpus/one-flag.txt", "txt", "ef" * 32, Status.OK,
                       title="一处错误", claims=(wrong,)),
        DocumentResult("huge.txt", "corpus/huge.txt", "txt", "", Status.SKIPPED, "文件超过20MB，已跳过"),
        DocumentResult("broken.txt", "corpus/broken.txt", "txt", "", Status.ERROR, "无法识别文件编码"),
    ]


RUN_INFO = {"started": "2024-06-03T09:00:00", "finished": "2024-06-03T09:00:42",
            "reference_version": "ref-2024.06", "counts": {"ok": 3, "skipped": 1, "error": 1}}
SHORT_TEXT = {"ok-card.txt": "该卡采用GDDR6显存。", "one-flag.txt": "该卡采用GDDR6显存。"}


def check_golden(name: str, actual: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(actual, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}; run with UPDATE_GOLDEN=1 to create it"
    assert actual == path.read_text(encoding="utf-8")


# ---- golden files -------------------------------------------------------------------------------


def test_document_reports_match_golden(tmp_path: Path) -> None:
    names = write_document_report(article_result(), ARTICLE, tmp_path)
    assert names == {"md": "xinghai-x1.md.md", "html": "xinghai-x1.md.html", "json": "xinghai-x1.md.json"}
    check_golden("document.md", (tmp_path / names["md"]).read_text(encoding="utf-8"))
    check_golden("document.json", (tmp_path / names["json"]).read_text(encoding="utf-8"))


def test_summary_matches_golden(tmp_path: Path) -> None:
    results = [*other_results(), article_result()]
    write_document_report(results[-1], ARTICLE, tmp_path)
    for r in results[:2]:
        write_document_report(r, SHORT_TEXT[r.doc_id], tmp_path)
    write_run_reports(results, tmp_path, run_info=RUN_INFO)
    check_golden("summary.md", (tmp_path / "summary.md").read_text(encoding="utf-8"))
    assert (tmp_path / "index.html").exists()
    assert not (tmp_path / "claims.csv").exists()  # no claims.jsonl, no CSV


def test_document_json_is_records_plus_claims() -> None:
    result = article_result()
    data = json.loads((GOLDEN / "document.json").read_text(encoding="utf-8"))
    expected = {**result.to_dict(), "claims": [c.to_dict() for c in result.claims]}
    assert data == json.loads(json.dumps(expected))


def test_rows_worst_first() -> None:
    rows = doc_rows([*other_results(), article_result()], Path("/nonexistent"))
    assert [r.result.doc_id for r in rows] == [
        "xinghai-x1.md", "one-flag.txt", "broken.txt", "huge.txt", "ok-card.txt"]
    article = rows[0]
    assert (article.flags, article.open_flags, article.review_state) == (4, 3, "open")
    assert totals(rows)["flags"] == 5


def test_skipped_document_markdown(tmp_path: Path) -> None:
    names = write_document_report(other_results()[2], "", tmp_path)
    md = (tmp_path / names["md"]).read_text(encoding="utf-8")
    assert "已跳过：文件超过20MB，已跳过" in md and "未检查" in md


# ---- HTML ---------------------------------------------------------------------------------------


class Page(HTMLParser):
    """Collects tags, attributes, scripts and the article's text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[str] = []
        self.article: list[str] = []
        self.marks: list[tuple[dict[str, str | None], str]] = []
        self._stack: list[str] = []
        self._in_article = 0
        self._mark: dict[str, str | None] | None = None
        self._script: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag == "script":
            self._script = []
        if tag == "div" and a.get("id") == "article":
            self._in_article = 1
        elif self._in_article and tag not in ("span", "br", "hr"):
            self._in_article += 1
        if tag == "mark":
            self._mark = a
            self.marks.append((a, ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._script is not None:
            self.scripts.append("".join(self._script))
            self._script = None
        if self._in_article and tag not in ("span",):
            self._in_article -= 1
        if tag == "mark":
            self._mark = None

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self._script.append(data)
        if self._in_article:
            self.article.append(data)
        if self._mark is not None:
            a, t = self.marks[-1]
            self.marks[-1] = (a, t + data)


def parse(html: str) -> Page:
    page = Page()
    page.feed(html)
    page.close()
    return page


def assert_inert(page: Page) -> None:
    """Only our one inline script (and, with a state, the review stamp beside the page); no event handlers; only
    http(s) links."""
    stamps = [a for tag, a in page.tags if tag == "script" and a.get("src") is not None]
    assert all(a == {"src": "review-stamp.js"} for a in stamps) and len(stamps) <= 1
    inline = [text for text in page.scripts if text]
    assert len(inline) == 1 and inline[0].lstrip().startswith("(function () {")
    assert len(page.scripts) == 1 + len(stamps)
    for tag, attrs in page.tags:
        assert not any(k.lower().startswith("on") for k in attrs), (tag, attrs)
        for k in ("href", "src", "action", "formaction"):
            if attrs.get(k) is not None:
                assert attrs[k].startswith(("http://", "https://")) or "/" not in attrs[k], attrs
                assert not attrs[k].strip().lower().startswith(("javascript:", "data:", "vbscript:"))
        assert tag not in ("img", "iframe", "object", "embed", "form", "base")
    # The CSP allows exactly our script, by hash: a browser runs nothing else.
    csp = next(a["content"] or "" for t, a in page.tags
               if t == "meta" and a.get("http-equiv") == "Content-Security-Policy")
    digest = base64.b64encode(hashlib.sha256(inline[0].encode("utf-8")).digest()).decode()
    rules = dict(r.strip().split(" ", 1) for r in csp.split(";"))
    assert rules["script-src"] == f"'sha256-{digest}'" + (" 'self'" if stamps else "")
    assert rules["default-src"] == "'none'"


@pytest.mark.parametrize("fmt", ["txt", "md"])
def test_every_claim_is_a_mark_with_its_verdict_class(fmt: str) -> None:
    result = replace(article_result(), format=fmt)
    page = parse(render_document_html(result, ARTICLE))
    shown = "".join(page.article)
    if fmt == "txt":
        assert shown == ARTICLE  # text intact, line breaks included
    else:  # rendered: the fence's lines are not shown, the code is, and every character shown is the article's
        assert "```" not in shown and 'torch.cuda.set_device("gpu0")' in shown
        assert set(shown) <= set(ARTICLE)
    for claim in result.claims:
        covering = [(a, t) for a, t in page.marks if claim.claim_id in (a["data-claims"] or "").split()]
        assert "".join(t for _, t in covering) == claim.text
        owned = [a for a, _ in covering if a["data-owner"] == claim.claim_id]
        if claim.claim_id != "c02":  # c02 (supported) lies wholly under c03 (unverifiable)
            assert owned and all(f"v-{claim.verdict.value}" in a["class"].split() for a in owned)
            assert any(a.get("id") == f"c-{claim.claim_id}" for a in owned)
        assert all(a.get("tabindex") == "0" for a, _ in covering)
    ids = [a["id"] for _, a in page.tags if a.get("id")]
    assert len(ids) == len(set(ids))
    assert {f"c-{c.claim_id}" for c in result.claims} <= set(ids)
    assert_inert(page)


def test_overlapping_spans_go_to_the_most_severe_verdict() -> None:
    page = parse(render_document_html(article_result(), ARTICLE))
    by_text = {t: a for a, t in page.marks}
    assert "v-contradicted" in by_text["24GB"]["class"]  # c01 beats c03 (unverifiable)
    assert "v-unverifiable" in by_text["的"]["class"]
    assert "v-unverifiable" in by_text["HBM3"]["class"]  # c03 beats c02 (supported)
    assert by_text["HBM3"]["data-claims"] == "c03 c02"


# fmt: off
SEGMENT_CASES = [
    # (spans as (start, end, verdict), expected [(text, owner verdict or None)])
    ([(0, 4, Verdict.SUPPORTED)], [("abcd", "supported"), ("efgh", None)]),
    ([(2, 6, Verdict.SUPPORTED), (4, 8, Verdict.CONTRADICTED)],
     [("ab", None), ("cd", "supported"), ("ef", "contradicted"), ("gh", "contradicted")]),
    ([(0, 8, Verdict.UNVERIFIABLE), (2, 4, Verdict.MISATTRIBUTED)],
     [("ab", "unverifiable"), ("cd", "misattributed"), ("efgh", "unverifiable")]),
    ([(2, 4, Verdict.SUPPORTED), (2, 4, Verdict.CODE_ISSUE)],
     [("ab", None), ("cd", "code_issue"), ("efgh", None)]),
    ([(6, 99, Verdict.SUPPORTED), (5, 3, Verdict.SUPPORTED)],  # past the end; reversed
     [("abcdef", None), ("gh", "supported"), ("", None)]),
]
# fmt: on


@pytest.mark.parametrize(("spans", "expected"), SEGMENT_CASES)
def test_segments(spans: list[tuple[int, int, Verdict]], expected: list[tuple[str, str | None]]) -> None:
    text = "abcdefgh"
    claims = [Claim("d", s, e, text[s:e], text, 0, None, None, "x", None, None,
                    check=Check(v, ""), claim_id=f"k{i}") for i, (s, e, v) in enumerate(spans)]
    segs = segments(text, claim_views(claims, text))
    assert [(s.text, s.owner.verdict if s.owner else None) for s in segs] == expected
    anchored = {k for s in segs for k in s.anchors} | {s.mark_id for s in segs if s.mark_id}
    assert anchored == {c.claim_id for c in claims}  # every claim has exactly one target


HOSTILE = [
    "<script>alert(1)</script>",
    '<img src=x onerror=alert(1)>',
    '"><svg onload=alert(1)>',
    "javascript:alert(1)",
    "</textarea></div></mark><script>alert(2)</script>",
]


def hostile_result(payload: str, review: dict[str, str] | None = None) -> tuple[DocumentResult, str]:
    """A document whose text, name, claims, sources and review all carry ``payload``."""
    text = f"{payload}\n某卡配备了24GB的HBM3显存{payload}，带宽高达1TB/s。\n"
    doc_id = f"../{payload}.txt"
    claims = (
        make_claim(text, "24GB", "h1", "memory_size", 24, "GB", Verdict.CONTRADICTED, doc_id=doc_id,
                   expected=payload, explanation=payload, source="javascript:alert(1)", source_title=payload),
        make_claim(text, f"HBM3显存{payload}", "h2", "memory_type", payload, None, Verdict.SUPPORTED,
                   doc_id=doc_id, source=f"https://example.com/?q={payload}", source_title=payload,
                   review=review or {"status": "open", "editor": payload, "note": payload}),
        make_claim(text, "1TB/s", "h3", "memory_bandwidth", 1, "TB/s", Verdict.UNVERIFIABLE, doc_id=doc_id,
                   source=" JAVASCRIPT:alert(1)", source_title=None),
    )
    return DocumentResult(doc_id, payload, "txt", "", Status.OK, title=payload, claims=claims), text


@pytest.mark.parametrize("payload", HOSTILE)
def test_hostile_article_is_escaped(payload: str) -> None:
    result, text = hostile_result(payload)
    html = render_document_html(result, text)
    page = parse(html)
    assert_inert(page)
    assert "".join(page.article) == text
    assert "<script>alert" not in html and "<img" not in html and "<svg" not in html
    assert "Content-Security-Policy" in html

    bad = DocumentResult(payload, payload, "txt", "", Status.ERROR, payload, title=payload)
    rows = doc_rows([result, bad], Path("/nonexistent"))
    index = render_index_html(rows, totals(rows), {payload: payload, "started": payload})
    assert_inert(parse(index))
    assert "<script>alert" not in index


@pytest.mark.parametrize(
    ("url", "ok"),
    [("https://a.example/x?y=1", True), ("http://a.example", True), ("javascript:alert(1)", False),
     ("JavaScript:alert(1)", False), ("data:text/html,<script>", False), ("//evil.example", False),
     ("https://a.example/\nx", False), ("ftp://a.example", False), ("reference/specs.csv", False),
     (None, False)],
)
def test_safe_href(url: str | None, ok: bool) -> None:
    assert (safe_href(url) is not None) is ok


@pytest.mark.skipif(shutil.which("node") is None, reason="node not installed")
def test_inline_scripts_parse(tmp_path: Path) -> None:
    for name in ("document.js.j2", "index.js.j2"):
        src = Path(__file__).parents[1] / "pipeline" / "report" / "templates" / name
        js = tmp_path / name.replace(".j2", "")
        js.write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
        subprocess.run(["node", "--check", str(js)], check=True)


# ---- file names ---------------------------------------------------------------------------------

NASTY_IDS = ["../../etc/passwd", "/abs/path.txt", "a/b/c.txt", ".hidden", "con", "CON.txt", "名字 有空格.txt",
             "x" * 500, "\x00bad", "..", ".", "", "a\\b\\..\\c", "index", "名" * 200, "C:\\Windows\\x"]


def assert_safe(name: str, out_dir: Path) -> None:
    assert name and "/" not in name and "\\" not in name and not name.startswith(".")
    assert ".." not in name and all(ch >= " " and ch != "\x7f" for ch in name)
    assert len(name) <= 120 and len(name.encode("utf-8")) <= 200
    target = (out_dir / f"{name}.html").resolve()
    assert target.parent == out_dir.resolve()


@pytest.mark.parametrize("doc_id", NASTY_IDS)
def test_safe_name_nasty(doc_id: str, tmp_path: Path) -> None:
    assert_safe(safe_name(doc_id), tmp_path)


def test_safe_name_keeps_ordinary_and_chinese_names() -> None:
    assert safe_name("000_8c664a032dcd9e92.txt") == "000_8c664a032dcd9e92.txt"
    assert safe_name("显卡评测.md") == "显卡评测.md"
    assert safe_name("名字 有空格.txt").startswith("名字_有空格.txt-")
    assert safe_name("con").lower() != "con" and safe_name("index") != "index"
    assert safe_name("a/b") != safe_name("a_b") and safe_name("a b") != safe_name("a_b")


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_safe_name_property(doc_id: str) -> None:
    out = Path("/tmp/out")
    name = safe_name(doc_id)
    assert_safe(name, out)
    assert safe_name(doc_id) == name


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30), st.text(max_size=30))
def test_safe_name_distinct(a: str, b: str) -> None:
    if a != b:
        assert safe_name(a) != safe_name(b)


# ---- atomic writes ------------------------------------------------------------------------------


def test_atomic_writers_leave_no_temp(tmp_path: Path) -> None:
    atomic_write_text(tmp_path / "a.txt", "显存\n")
    atomic_write_bytes(tmp_path / "b.bin", b"\x00\x01")
    with AtomicJsonlWriter(tmp_path / "c.jsonl") as out:
        out.write({"显存": 24})
        out.write({"x": [1, 2]})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.bin", "c.jsonl"]
    assert (tmp_path / "a.txt").read_text(encoding="utf-8") == "显存\n"
    lines = (tmp_path / "c.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(x) for x in lines] == [{"显存": 24}, {"x": [1, 2]}]


def test_atomic_write_failure_keeps_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "report.md"
    target.write_text("old", encoding="utf-8")

    def boom(fd: int) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(atomic.os, "fsync", boom)
    with pytest.raises(OSError, match="disk full"):
        atomic_write_text(target, "new", durable=True)
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]


def test_jsonl_writer_exception_keeps_old_file(tmp_path: Path) -> None:
    target = tmp_path / "claims.jsonl"
    target.write_text('{"old": 1}\n', encoding="utf-8")
    with pytest.raises(TypeError), AtomicJsonlWriter(target) as out:
        out.write({"a": 1})
        out.write({"b": object()})  # not JSON-serialisable: raises mid-write
    with pytest.raises(RuntimeError), AtomicJsonlWriter(target) as out:
        out.write({"a": 1})
        raise RuntimeError("crash")
    assert target.read_text(encoding="utf-8") == '{"old": 1}\n'
    assert [p.name for p in tmp_path.iterdir()] == ["claims.jsonl"]


def test_atomic_write_keeps_ordinary_permissions(tmp_path: Path) -> None:
    atomic_write_text(tmp_path / "a.txt", "x")
    assert (tmp_path / "a.txt").stat().st_mode & 0o777 == 0o666 & ~atomic._read_umask()


# ---- claims.csv ---------------------------------------------------------------------------------


def test_claims_csv(tmp_path: Path) -> None:
    claims = article_claims()
    with AtomicJsonlWriter(tmp_path / "claims.jsonl") as out:
        for c in claims:
            out.write({**c.to_dict(), "run": "r1"})
        out.write({**claims[0].to_dict(), "claim_id": "c99", "doc_id": "007", "text": "=HYPERLINK(1)"})
    write_claims_csv(tmp_path / "claims.jsonl", tmp_path / "claims.csv")
    raw = (tmp_path / "claims.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    frame = pd.read_csv(tmp_path / "claims.csv", encoding="utf-8-sig", dtype=str, keep_default_na=False)
    assert list(frame.columns) == [*RECORD_FIELDS, "run"]
    assert len(frame) == len(claims) + 1
    row = frame.set_index("claim_id").loc["c08"]
    assert (row["value"], row["value_low"], row["value_high"], row["attribute"], row["verdict"]) == \
        ("", "350", "700", "tdp", "unverifiable")
    assert frame.set_index("claim_id").loc["c01", "sentence"] == claims[0].sentence
    assert frame.set_index("claim_id").loc["c99", "doc_id"] == "007"  # stays text
    assert frame.set_index("claim_id").loc["c99", "text"] == "'=HYPERLINK(1)"  # no formula


def test_claims_csv_rejects_garbage(tmp_path: Path) -> None:
    (tmp_path / "claims.jsonl").write_text('{"a": 1}\n{not json\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"claims.jsonl:2"):
        write_claims_csv(tmp_path / "claims.jsonl", tmp_path / "claims.csv")
    assert not (tmp_path / "claims.csv").exists()


# ---- ClaimReview --------------------------------------------------------------------------------


def test_claimreview_objects() -> None:
    result = article_result()
    kw: dict[str, Any] = {"author": "某科技网", "date_published": "2024-06-03", "url_base": "https://example.com/a/"}
    first = claimreview_objects(result, **kw)
    # c07 was dismissed by an editor and c09 is a code finding: neither is published
    assert [o["@id"] for o in first] == [f"urn:gpu-factcheck:claim:{k}" for k in ("c01", "c04")]
    assert first == claimreview_objects(result, **kw)
    for o in first:
        assert o["@context"] == "https://schema.org" and o["@type"] == "ClaimReview"
        assert set(o) >= {"@id", "claimReviewed", "reviewRating", "ratingExplanation", "itemReviewed",
                          "datePublished", "author"}
        assert o["reviewRating"]["bestRating"] == 5 and o["reviewRating"]["worstRating"] == 1
        assert o["author"] == {"@type": "Organization", "name": "某科技网"}
        appearance = o["itemReviewed"]["appearance"]
        assert appearance == {"@type": "CreativeWork", "name": result.title,
                              "url": "https://example.com/a/xinghai-x1.md"}
    c01 = first[0]
    assert c01["claimReviewed"] == "某卡配备了24GB的HBM3显存，带宽高达1TB/s。"
    assert c01["reviewRating"]["ratingValue"] == 1 and c01["reviewRating"]["alternateName"] == "错误"
    assert c01["ratingExplanation"] == f"参考表中该卡各版本均为80GB显存。 正确值：80 GB 来源：{H100}"
    no_url = claimreview_objects(result, author="x", date_published="2024-06-03")
    assert "url" not in no_url[0]["itemReviewed"]["appearance"] and "url" not in no_url[0]
    json.dumps(first, ensure_ascii=False)  # plain JSON-LD


def test_claimreview_url_and_the_editors_correction() -> None:
    result = article_result()
    corrected = {"status": "corrected", "editor": "李编辑", "correction": "该卡配备了80GB的HBM3显存"}
    claims = tuple(replace(c, extra={"review": corrected}) if c.claim_id == "c01" else c for c in result.claims)
    objects = claimreview_objects(replace(result, claims=claims), author="x", date_published="2024-06-03",
                                  url_template="https://example.com/articles/{doc_id}#{claim_id}")
    assert [o["url"] for o in objects] == ["https://example.com/articles/xinghai-x1.md#c01",
                                           "https://example.com/articles/xinghai-x1.md#c04"]
    assert objects[0]["ratingExplanation"] == f"该卡配备了80GB的HBM3显存 来源：{H100}"
    misattributed = replace(claims[6], extra={})  # c07 without its dismissal is published again
    again = claimreview_objects(replace(result, claims=(misattributed,)), author="x", date_published="2024")
    assert again[0]["reviewRating"]["alternateName"] == "张冠李戴"


@pytest.mark.parametrize(("template", "ok"), [
    ("https://example.com/articles/{doc_id}", True),
    ("https://example.com/a/{doc_id}/{claim_id}", True),
    ("http://example.com/static", True),
    ("ftp://example.com/{doc_id}", False),
    ("https://example.com/{path}", False),
    ("/articles/{doc_id}", False),
    ("https://example.com/{doc_id", False),
])
def test_claimreview_url_template(template: str, ok: bool) -> None:
    if ok:
        assert check_url_template(template) == template
    else:
        with pytest.raises(UsageError, match="--claimreview-url"):
            check_url_template(template)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(-2, 12), st.integers(-2, 12), st.sampled_from(list(Verdict))),
                max_size=8))
def test_segments_property(spans: list[tuple[int, int, Verdict]]) -> None:
    text = "某卡24GB显存\n带宽"
    claims = [Claim("d", s, e, "", text, 0, None, None, "x", None, None, check=Check(v, ""), claim_id=f"k{i}")
              for i, (s, e, v) in enumerate(spans)]
    views = claim_views(claims, text)
    segs = segments(text, views)
    assert "".join(s.text for s in segs) == text
    targets = [k for s in segs for k in s.anchors] + [s.mark_id for s in segs if s.mark_id]
    assert sorted(targets) == sorted(c.claim_id for c in claims)
    pos = 0
    for seg in segs:
        covering = [v for v in views if v.claim.start <= pos and pos + len(seg.text) <= v.claim.end]
        if seg.text:
            assert {v.key for v in covering} == set(seg.keys)
            if covering:
                assert seg.owner is not None
                assert SEVERITY[seg.owner.verdict] == max(SEVERITY[v.verdict] for v in covering)
        pos += len(seg.text)


# ---- words an editor reads ----------------------------------------------------------------------

REFERENCE_NAMES = {"nvidia_tesla_p4": "NVIDIA Tesla P4", "nvidia": "NVIDIA", "tesla_inc": "Tesla, Inc."}
CODE_LIKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b(?:training|inference|tesla_inc|nvidia)\b")


def test_every_catalogue_row_is_a_label() -> None:
    rows = list(csv.DictReader(labels_module.CATALOGUE.open(encoding="utf-8", newline="")))
    assert {r["kind"] for r in rows} <= set(labels_module.KINDS)
    keys = [(r["kind"], r["key"]) for r in rows]
    assert len(keys) == len(set(keys))
    for r in rows:
        assert r["zh"].strip() and re.search(r"[\u4e00-\u9fff]", r["zh"]), r
        assert not CODE_LIKE.search(r["zh"].replace("{detail}", "")), r


@pytest.mark.parametrize(("text", "attribute", "shown"), [
    ("B200采用第五代NVLink。", "generation", "5（NVLink代数）"),
    ("L40S用的是第四代Tensor Core。", "generation", "4（Tensor Core代数）"),
    ("H200的显存带宽是H100的1.4倍。", "ratio", "1.4 x（显存带宽）"),
    ("A100的FP16稀疏算力为624 TFLOPS。", "fp16", "624 TFLOPS（稀疏）"),
    ("RTX 3090支持NVLink，带宽为112.5GB/s。", "interconnect_bandwidth", "112.5 GB/s（NVLink）"),
])
def test_a_claims_detail_is_shown_in_chinese(text: str, attribute: str, shown: str) -> None:
    """An internal key kept as a claim's detail (nvlink_generation, memory_bandwidth, sparse) is shown by its label;
    the article's own words (NVLink) as they are."""
    from pipeline.api import check_text
    from pipeline.report.tables import stated_value

    claim = next(c for c in check_text(text, doc_id="t.txt") if c.attribute == attribute)
    assert stated_value(claim) == shown


def test_the_catalogue_covers_every_code_the_pipeline_writes() -> None:
    from pipeline.check.concept import POSITIONING_ZH
    from pipeline.extract.concepts import PREDICATE_ZH
    from pipeline.knowledge.reference import ATTRIBUTE_ZH
    from pipeline.state.decisions import REVIEW_STATUSES

    assert all(label("verdict", v.value) for v in Verdict) and label("verdict", "unchecked")
    assert all(label("review", s) for s in REVIEW_STATUSES)
    assert all(label("doc_status", s.value) for s in Status)
    specs = pd.read_csv(Path(__file__).resolve().parents[1] / "reference" / "specs.csv", dtype=str)
    for attribute in {*ATTRIBUTE_ZH, *specs["attribute"], "positioning"}:
        assert label("attribute", attribute), attribute
    for value in POSITIONING_ZH:
        assert value_label("positioning", value), value
    for value in (*PREDICATE_ZH, "builtin_framework", "redundant_psu"):
        assert value_label("concept", value), value
    for reason in ("not_in_reference", "owner_uncertain", "scope_not_product", "no_reference_value",
                   "secondary_source", "not_comparable"):
        assert label("reason", reason), reason
    for scope in ("product", "chip", "unit", "system", "link", "family"):
        assert label("scope", scope), scope
    # a reference row's scope shows in the expected value (1600 GB/s（…，发布时公布的数值）): every one has a label
    for scope in set(specs["scope"].dropna()) - {"dense"}:
        assert label("spec_scope", scope), scope
    # every kind of finding the code checker writes, read from its source
    source = (Path(__file__).resolve().parents[1] / "pipeline" / "check" / "code.py").read_text(encoding="utf-8")
    kinds = set(re.findall(r'Finding\([^,]+, f?"([a-z_]+(?::[a-z_]+)?)', source))
    assert {"syntax_error", "undefined_name", "deprecated_api", "claim_not_in_code:on_gpu"} <= kinds
    for kind in kinds:
        assert code_label(kind) or code_label(f"{kind}:x"), kind


# fmt: off
CODE_LABELS = [
    ("undefined_name:train_loader",        "使用了未定义的名称 train_loader"),
    ("deprecated_api:torch.cuda.amp.autocast", "使用了已弃用的接口 torch.cuda.amp.autocast"),
    ("claim_not_in_code:on_gpu",           "文中说在GPU上运行，代码里没有"),
    ("syntax_error",                       "语法错误"),
    ("something_new:x",                    None),
    (None,                                 None),
]
# fmt: on


@pytest.mark.parametrize(("value", "expected"), CODE_LABELS)
def test_code_labels(value: str | None, expected: str | None) -> None:
    assert code_label(value) == expected


def test_every_unit_row_matches_what_the_extractor_reads() -> None:
    from pipeline.extract.quantities import find_quantities

    for row in unit_rows():
        if row.attribute:  # memory sizes in TB are binary for the checker, not for the extractor
            continue
        spelled = {"Tb/s": "Tbps", "Gb/s": "Gbps", "Mb/s": "Mbps"}.get(row.written, row.written)
        found = find_quantities(f"2{spelled}")
        assert [(q.unit, q.value) for q in found] == [(row.canonical, pytest.approx(2 * row.factor))], row


# fmt: off
WRITTEN_UNIT_CASES = [
    ("2039 GB/s",                           "memory_bandwidth", "GB/s", "TB/s",   "2.039 TB/s"),
    ("2039 GB/s",                           "memory_bandwidth", "GB/s", "每秒TB", "2.039 TB/s"),
    ("2039 GB/s",                           "memory_bandwidth", "GB/s", "TB",     "2.039 TB/s"),
    ("549 GB/s（12GB 版）；732 GB/s",        "memory_bandwidth", "GB/s", "TB/S",   "0.549 TB/s（12GB 版）；0.732 TB/s"),
    ("2039 GB/s",                           "memory_bandwidth", "GB/s", "GB/s",   "2039 GB/s"),
    ("2039 GB/s",                           "memory_bandwidth", "GB/s", None,     "2039 GB/s"),
    ("64 GB/s",                             "interconnect_bandwidth", "GB/s", "Gbps", "512 Gb/s"),
    ("989 TFLOPS",                          "fp16",             "TFLOPS", "PFLOPS", "0.989 PFLOPS"),
    ("700 W",                               "tdp",              "W",    "千瓦",   "0.7 kW"),
    ("80 GB",                               "memory_size",      "GB",   "TB",     "80 GB"),  # 0.078 TB reads worse
    ("1536 GB",                             "memory_size",      "GB",   "TB",     "1.5 TB"),
    ("HBM3",                                "memory_type",      None,   "TB/s",   "HBM3"),
]
# fmt: on


@pytest.mark.parametrize(("expected", "attribute", "unit", "written", "shown"), WRITTEN_UNIT_CASES)
def test_expected_in_the_unit_the_article_wrote(expected: str, attribute: str, unit: str | None,
                                                 written: str | None, shown: str) -> None:
    assert in_written_unit(expected, attribute, unit, written) == shown


# fmt: off
SCRIPT_CASES = [
    ("NVIDIA A100配備80GB的HBM2e記憶體，頻寬達到2TB/s，適合訓練大型模型。", True),
    ("輝達H100顯示卡採用Hopper架構。", True),
    ("NVIDIA A100配备80GB的HBM2e显存，带宽达到2TB/s，适合训练大型模型，是著名的显卡。", False),
    ("RTX 4090 with 24GB GDDR6X", False),
    ("", False),
]
# fmt: on


@pytest.mark.parametrize(("text", "traditional"), SCRIPT_CASES)
def test_the_articles_script(text: str, traditional: bool) -> None:
    assert is_traditional([text]) is traditional


def visible_text(html: str) -> str:
    """What a reader sees on the page, leaving out the claim id and `review` command boxes (ids by design)."""
    html = re.sub(r'<div class="cid">.*?</div>', "", html, flags=re.S)
    html = re.sub(r"<(script|style)\b.*?</\1>", "", html, flags=re.S)
    html = re.sub(r"<[^>]+>", " ", html)
    return unescape(html)


CODED = ("特斯拉P4是一款AI训练平台，由特斯拉推出，内置深度学习软件栈。\n"
         "```python\nwith torch.cuda.amp.autocast():\n```\n")


def coded_claims() -> tuple[Claim, ...]:
    c = make_claim
    # fmt: off
    return (
        replace(c(CODED, "AI训练平台", "p1", "positioning", "training", None, Verdict.CONTRADICTED,
                  doc_id="p4.md", expected="推理", explanation="NVIDIA Tesla P4的定位是推理。"),
                subject="nvidia_tesla_p4", subject_mention="特斯拉P4"),
        replace(c(CODED, "由特斯拉推出", "p2", "manufacturer", "tesla_inc|nvidia", None, Verdict.CONTRADICTED,
                  doc_id="p4.md", expected="NVIDIA", explanation="NVIDIA Tesla P4是NVIDIA的产品。"),
                subject="nvidia_tesla_p4", subject_mention="特斯拉P4"),
        replace(c(CODED, "内置深度学习软件栈", "p3", "concept", "builtin_framework", None, Verdict.CONTRADICTED,
                  doc_id="p4.md", expected="框架由主机安装", explanation="显卡不内置框架。"),
                subject="nvidia_tesla_p4", subject_mention="特斯拉P4"),
        replace(c(CODED, "torch.cuda.amp.autocast()", "p4", "code", "deprecated_api:torch.cuda.amp.autocast",
                  None, Verdict.CODE_ISSUE, doc_id="p4.md", expected='torch.amp.autocast("cuda")',
                  explanation="torch.cuda.amp.autocast 已弃用。"), subject=None, subject_mention=None),
        replace(c(CODED, "特斯拉P4", "p5", "memory_size", 8, "GB", Verdict.UNVERIFIABLE, doc_id="p4.md",
                  explanation="无法确定。"), subject=None, subject_mention=None,
                extra={"reason": "owner_uncertain", "scope": "system", "scope_detail": "8卡"}),
    )
    # fmt: on


def coded_result(claims: tuple[Claim, ...] | None = None) -> DocumentResult:
    return DocumentResult("p4.md", "corpus/p4.md", "md", "ab" * 32, Status.OK, title="特斯拉P4评测",
                          claims=coded_claims() if claims is None else claims)


def test_no_internal_code_on_a_chinese_page(tmp_path: Path) -> None:
    names = write_document_report(coded_result(), CODED, tmp_path, names=lambda i: REFERENCE_NAMES.get(i, i))
    html = (tmp_path / names["html"]).read_text(encoding="utf-8")
    md = (tmp_path / names["md"]).read_text(encoding="utf-8")
    for page in (visible_text(html), re.sub(r"- 编号：.*", "", md)):
        page = page.replace(CODED, "").replace("torch.cuda.amp.autocast()", "")  # the article's own words
        page = re.sub(r"https?://[^\s)]+", "", page)  # source links
        assert not CODE_LIKE.search(page.replace("p4.md", "")), CODE_LIKE.findall(page)
        assert "NVIDIA Tesla P4" in page and "定位" in page and "训练" in page
        assert "使用了已弃用的接口 torch.cuda.amp.autocast" in page
        assert "无法确定这个数值说的是哪张卡" in page  # the reason, by its label
        assert "多卡或整机（8卡）" in page  # the scope, by its label


def test_reason_is_shown_only_where_the_claim_has_one() -> None:
    page = visible_text(render_document_html(article_result(), ARTICLE))
    assert "原因" not in page
    assert "原因" in visible_text(render_document_html(coded_result(), CODED))


def test_traditional_article_gets_traditional_explanations(tmp_path: Path) -> None:
    text = "輝達A100配備80GB顯示記憶體，頻寬高達每秒2TB。\n"
    claim = replace(make_claim(text, "每秒2TB", "t1", "memory_bandwidth", 2000, "GB/s", Verdict.CONTRADICTED,
                               doc_id="tw.md", expected="1555 GB/s",
                               explanation="NVIDIA A100的显存带宽应为1555 GB/s，文中不正确。"),
                    extra={"written_unit": "每秒TB"})
    result = DocumentResult("tw.md", "corpus/tw.md", "md", "ab" * 32, Status.OK, claims=(claim,))
    names = write_document_report(result, text, tmp_path)
    for name in (names["html"], names["md"]):
        page = (tmp_path / name).read_text(encoding="utf-8")
        assert "NVIDIA A100的顯存帶寬應為1.555 TB/s，文中不正確。"  # character by character (s2tw) in page
        assert "1.555 TB/s" in page and "1555 GB/s" not in page
    simplified = replace(result, claims=(replace(claim, sentence="英伟达A100配备80GB显存，带宽高达每秒2TB。"),))
    assert "显存带宽应为1.555 TB/s" in render_document_html(simplified, text)


def test_static_page_shows_each_claim_id_with_a_review_command() -> None:
    page = parse(render_document_html(article_result(), ARTICLE))
    copies = [a["data-copy"] for t, a in page.tags if t == "button" and a.get("data-copy")]
    assert "python -m pipeline review accept c04 --editor 姓名" in copies
    assert {c.claim_id for c in article_result().claims} <= set(copies)
    assert_inert(page)


def test_decided_flags_look_different_and_leave_the_count() -> None:
    html = render_document_html(article_result(), ARTICLE)
    page = parse(html)
    items = {a["data-key"]: a["class"] for t, a in page.tags if t == "li" and a.get("data-key")}
    assert "closed" in items["c07"].split() and "closed" not in items["c01"].split()  # dismissed vs accepted
    assert "closed" in next(a["class"] for a, _ in page.marks if a["data-owner"] == "c07").split()
    assert "需修改（<span data-role=\"count-raised\">3</span>）" in html
    assert "已处理（<span data-role=\"count-closed\">1</span>）" in html


# fmt: off
VERDICT_CASES = [
    ((),                                                                     "无可核实内容"),
    ((Verdict.UNVERIFIABLE, Verdict.UNVERIFIABLE),                           "无可核实内容"),
    ((Verdict.SUPPORTED, Verdict.UNVERIFIABLE),                              "可信"),
    ((Verdict.CONTRADICTED,),                                                "需修正"),
    ((Verdict.MISATTRIBUTED,),                                               "严重错误"),
    ((Verdict.CONTRADICTED, "dismissed"),                                    "可信"),
    ((Verdict.MISATTRIBUTED, "corrected", Verdict.SUPPORTED),                "可信"),
    ((Verdict.MISATTRIBUTED, "accepted"),                                    "严重错误"),
]
# fmt: on


@pytest.mark.parametrize(("claims", "verdict"), VERDICT_CASES)
def test_document_verdict_as_the_pages_show_it(claims: tuple[Any, ...], verdict: str) -> None:
    built: list[Claim] = []
    for item in claims:
        if not isinstance(item, Verdict):
            built[-1] = replace(built[-1], extra={"review": {"status": item, "editor": "王编辑"}})
            continue
        built.append(make_claim("某卡配备了24GB显存。", "24GB", f"c{len(built)}", "memory_size", 24, "GB", item))
    result = DocumentResult("d.md", "corpus/d.md", "md", "ab" * 32, Status.OK, claims=tuple(built))
    assert report_verdict(result) == verdict
    assert doc_row(result, Path("nowhere")).verdict == verdict


@pytest.mark.parametrize("value", [80, 2.5, [16, 32], float("nan"), float("inf")])
def test_document_json_from_encoded_records_is_the_same(value: Any) -> None:
    """The JSON report built from the claims' records as a worker encoded them (once) is the one built alone;
    a NaN or an infinity is written null either way."""
    from dataclasses import replace

    from pipeline.report.jsonout import document_json_text

    result = article_result()
    result = replace(result, claims=tuple(replace(c, value=value) for c in result.claims))
    records = [json.dumps(c.to_dict(), ensure_ascii=False) for c in result.claims]
    assert document_json_text(result, records) == document_json_text(result)
    assert "NaN" not in document_json_text(result, records)


def test_atomic_text_file_replaces_only_when_committed(tmp_path: Path) -> None:
    target = tmp_path / "claims.csv"
    target.write_text("old\n", encoding="utf-8")
    with atomic.AtomicTextFile(target, encoding="utf-8") as f:
        f.write("new ")
        f.write("rows\n")
        assert target.read_text(encoding="utf-8") == "old\n"  # not before the commit
        f.commit()
    assert target.read_text(encoding="utf-8") == "new rows\n"
    with atomic.AtomicTextFile(target) as f:
        f.write("never committed\n")
    with pytest.raises(RuntimeError), atomic.AtomicTextFile(target) as f:
        f.write("half")
        raise RuntimeError("disk trouble")
    assert target.read_text(encoding="utf-8") == "new rows\n"
    assert [p.name for p in tmp_path.iterdir()] == ["claims.csv"]  # no temp file left


def test_the_pages_filter_by_what_a_verdict_rests_on() -> None:
    """The article page offers an evidence filter when some verdict rests on the database; the index marks each
    document with what its flags rest on and filters on it."""
    result = article_result()
    html = render_document_html(result, ARTICLE)
    assert re.findall(r'data-evidence-filter="(\w+)" checked> ([^<]+?) (\d+)<', html) == [
        ("vendor", "厂商资料（参考表）", "2"), ("database", "TechPowerUp数据库", "1")]
    assert 'data-claim-id="c06" data-evidence="database"' in html
    vendor_only = replace(result, claims=tuple(c for c in result.claims if c.claim_id != "c06"))
    assert "data-evidence-filter=\"" not in render_document_html(vendor_only, ARTICLE)

    rows = doc_rows([result, *other_results()], Path("/nonexistent"))
    index = render_index_html(rows, totals(rows), RUN_INFO)
    assert re.findall(r'<tr data-verdict="[^"]+" data-review="\w+" data-evidence="([\w ]*)"', index) == [
        "vendor", "", "", "", ""]
    assert '<option value="database">有依据TechPowerUp数据库的问题</option>' in index
