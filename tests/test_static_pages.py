"""The static reports' small gaps, in Chromium over file:// (as editors open them from disk): a sign when decisions
were made since a report was written (review-stamp.js), the way back from a document page to the index, the
index's search box, and long status text that leaves the badges alone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline.config import Config
from pipeline.records import DocumentResult, Status
from pipeline.report.html import render_index_html
from pipeline.report.paths import safe_name
from pipeline.report.tables import doc_row, sort_rows, totals
from pipeline.run import RunOptions, run
from pipeline.state.journal import STAMP, read_stamp
from pipeline.state.store import Store
from tests.browser_support import expect, sync_api

pytestmark = pytest.mark.browser

# fmt: off
ARTICLES = {
    "显存速览.md": "# 显存速览\n\nRTX 4090配备了32GB显存。\n",
    "功耗笔记.txt": "功耗笔记\n\nGTX 1650的功耗为120W。\n",
    "正确的.txt": "RTX 4090配备24GB GDDR6X显存。\n",
}
# fmt: on



@pytest.fixture
def viewport() -> dict[str, int]:
    return {"width": 1100, "height": 900}  # an index narrow enough that long status text would squeeze the badges

def _run(corpus: Path, out: Path) -> None:
    summary = run(RunOptions(corpus=corpus, config=Config(out_dir=out, workers=1)))
    assert summary.exit_code == 0, summary.line()


@pytest.fixture
def reports(tmp_path: Path) -> tuple[Path, Path]:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, text in ARTICLES.items():
        (corpus / name).write_text(text, encoding="utf-8")
    out = tmp_path / "reports"
    _run(corpus, out)
    return corpus, out


def _page(out: Path, doc_id: str) -> str:
    return (out / f"{safe_name(doc_id)}.html").as_uri()


def test_a_decision_since_the_report_was_written_shows(page: sync_api.Page, reports: tuple[Path, Path]) -> None:
    corpus, out = reports
    index, decided, other = (out / "index.html").as_uri(), _page(out, "显存速览.md"), _page(out, "功耗笔记.txt")
    for where in (index, decided, other):
        page.goto(where)
        expect(page.locator("#stale")).to_be_hidden()  # nothing decided since the run
    with Store(out / "state.sqlite") as store:
        claim = next(c for c in store.list_claims(flagged_only=True) if c["doc_id"] == "显存速览.md")
        store.decide(claim["claim_id"], "dismissed", "王编辑", "误报")
    assert "显存速览.md" in read_stamp(out)
    for where, shown in ((index, True), (decided, True), (other, False)):
        page.goto(where)
        if shown:
            expect(page.locator("#stale")).to_be_visible()
            expect(page.locator("#stale span")).to_have_text(re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d$"))
        else:
            expect(page.locator("#stale")).to_be_hidden()
    _run(corpus, out)  # the reports written again know the decision
    for where in (index, decided):
        page.goto(where)
        expect(page.locator("#stale")).to_be_hidden()


def test_without_a_stamp_no_sign_and_no_script_error(browser: sync_api.Browser, reports: tuple[Path, Path]) -> None:
    _, out = reports
    (out / STAMP).unlink()  # a copy of the reports without it: the page says nothing (and its script runs)
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((out / "index.html").as_uri())
    expect(page.locator("#stale")).to_be_hidden()
    page.locator("#search").fill("笔记")
    expect(page.locator("tbody tr:visible")).to_have_count(1)
    context.close()
    assert errors == []


def test_document_pages_link_back_to_the_index(page: sync_api.Page, reports: tuple[Path, Path]) -> None:
    _, out = reports
    page.goto(_page(out, "功耗笔记.txt"))
    page.locator('a[data-role="back"]').click()
    expect(page).to_have_url((out / "index.html").as_uri())
    expect(page.locator("h1")).to_have_text("核查汇总")


# fmt: off
SEARCHES = [
    ("",          3),
    ("速览",      1),
    ("笔记",      1),
    (".TXT",      2),  # file names too, any case
    ("显存 速览", 1),  # every word
    ("没有这篇",  0),
]
# fmt: on


@pytest.mark.parametrize(("words", "shown"), SEARCHES)
def test_the_index_search_box_filters_rows(page: sync_api.Page, reports: tuple[Path, Path], words: str,
                                          shown: int) -> None:
    _, out = reports
    page.goto((out / "index.html").as_uri())
    page.locator("#search").fill(words)
    expect(page.locator("tbody tr:visible")).to_have_count(shown)
    expect(page.locator("#shown")).to_have_text(str(shown))


@pytest.mark.parametrize("message", ["文件无法读取，" * 60, "很长的说明" * 80])
def test_long_status_text_leaves_the_badges_on_one_line(page: sync_api.Page, tmp_path: Path, message: str) -> None:
    results = [DocumentResult("坏文件.txt", "坏文件.txt", "txt", "", Status.ERROR, message),
               DocumentResult("空文件.txt", "空文件.txt", "txt", "", Status.SKIPPED, message)]
    rows = sort_rows([doc_row(r, tmp_path, linked=False) for r in results])
    (tmp_path / "index.html").write_text(render_index_html(rows, totals(rows), {}), encoding="utf-8")
    page.goto((tmp_path / "index.html").as_uri())
    for badge in page.locator("tbody .verdict").all():
        box = badge.bounding_box()
        line = badge.evaluate("el => parseFloat(getComputedStyle(el).lineHeight)")
        assert box is not None and box["height"] < 1.5 * line and box["width"] > box["height"]
