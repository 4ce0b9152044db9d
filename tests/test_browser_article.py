"""Articles as published, in a real browser (headless Debian Chromium driven by Playwright, as tests/test_browser.py):
a Markdown article with front matter, headings, a pipe table, bold text and code, and an HTML article, through a
whole run; their static pages and the review app's page show them rendered, with every claim's highlight on the
text the claim states."""

from __future__ import annotations

import contextlib
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.config import Config
from pipeline.report.paths import safe_name
from pipeline.run import RunOptions, run
from tests.browser_support import SHOTS, expect, sync_api

pytestmark = pytest.mark.browser

SHOT = SHOTS / "render26.png"  # for people reading the closing note; not part of the checks

TITLE = "显卡规格测试稿"
# Sentences written for this test.
MARKDOWN = f"""---
title: "{TITLE}"
date: 2024-05-01
summary: V100拥有5120个CUDA核心
---
# 两张数据中心显卡

RTX 4090配备了**32GB显存**，带宽约1TB/s。

## 参数表

| 型号 | 说明 |
|---|---|
| H100 SXM5 | H100 SXM5拥有**16896个**CUDA核心 |
| A100 | A100采用Hopper架构 |

```python
import torch
x = torch.zeros(4, device="cuda")
```
"""
HTML = """<!DOCTYPE html><html><head><title>站点</title></head><body><nav>导航</nav><article>
<h1>推理卡简评</h1>
<p>L4的显存容量为<b>32GB</b>，功耗72W。</p>
<ul><li>T4配备16GB GDDR6显存</li></ul>
<p>详见<a href="https://example.com/h100">H100 SXM5拥有16896个CUDA核心</a>。</p>
<table><thead><tr><th>型号</th><th>说明</th></tr></thead>
<tbody><tr><td>A100</td><td>A100采用Hopper架构</td></tr></tbody></table>
<pre><code class="language-python">import torch
torch.cuda.set_device("gpu0")</code></pre>
</article></body></html>
"""
ARTICLES = {"spec.md": MARKDOWN, "card.html": HTML}


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    corpus = tmp_path_factory.mktemp("corpus")
    for name, text in ARTICLES.items():
        (corpus / name).write_text(text, encoding="utf-8")
    folder = tmp_path_factory.mktemp("reports")
    summary = run(RunOptions(corpus=corpus, config=Config(out_dir=folder, workers=1)))
    assert summary.exit_code == 0, summary.line()
    return folder


def claims_of(out: Path, doc_id: str) -> list[dict[str, object]]:
    with open(out / "claims.jsonl", encoding="utf-8") as fh:
        claims = [c for c in map(json.loads, fh) if c["doc_id"] == doc_id]
    assert claims, doc_id
    return claims


@pytest.fixture(scope="module")
def app(out: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from pipeline.review.server import ServeOptions, app_config
    from tests.app_server import running_app

    copy = tmp_path_factory.mktemp("app") / "reports"
    shutil.copytree(out, copy)
    with running_app(app_config(ServeOptions(out=copy, state=copy / "state.sqlite", editor="测试编辑"))) as base:
        yield base


def highlights(page: sync_api.Page, key: str) -> str:
    """The text of every mark covering a claim, in document order."""
    return str(page.locator("#article mark").evaluate_all(
        "(marks, key) => marks.filter(m => m.dataset.claims.split(' ').includes(key))"
        ".map(m => m.textContent).join('')", key))


def assert_markdown_rendered(page: sync_api.Page, out: Path) -> None:
    article = page.locator("#article")
    expect(article.locator("h2.level-1")).to_have_text("两张数据中心显卡")  # under the page's <h1>
    expect(article.locator("h3.level-2")).to_have_text("参数表")
    expect(article.locator("table th")).to_have_text(["型号", "说明"])
    expect(article.locator("table tbody tr")).to_have_count(2)
    expect(article.locator("p strong")).to_have_text("32GB显存")
    expect(article.locator("td strong")).to_have_text("16896个")
    # the markup itself is not shown, and the front matter is folded away
    shown = article.inner_text()
    for markup in ("**", "##", "|", "```", "---"):
        assert markup not in shown, markup
    expect(article.locator("details.front-matter")).not_to_have_attribute("open", "")
    expect(article.get_by_text("date: 2024-05-01")).to_be_hidden()
    font = article.locator("pre code").evaluate("el => getComputedStyle(el).fontFamily")
    assert "mono" in font.lower(), font
    # every claim's highlight sits on the text it states
    for c in claims_of(out, "spec.md"):
        key = str(c["claim_id"])
        assert highlights(page, key) == c["text"], c
        folded = int(str(c["start"])) < MARKDOWN.index("# 两张")  # in the front matter, shown when unfolded
        expect(page.locator(f'#article [id="c-{key}"]')).to_be_visible(visible=not folded)


def test_markdown_article_is_rendered_with_its_highlights(page: sync_api.Page, out: Path) -> None:
    page.goto((out / f"{safe_name('spec.md')}.html").as_uri())
    expect(page).to_have_title(f"核查报告：{TITLE}")
    expect(page.locator("header h1")).to_have_text(TITLE)
    assert_markdown_rendered(page, out)
    wrong = page.locator("#article mark.v-contradicted", has_text="32GB")
    expect(wrong.locator("xpath=..")).to_have_js_property("tagName", "STRONG")
    expect(page.locator(f"#item-{wrong.get_attribute('data-owner')} .where")).to_have_text("第 8 行")  # the file's
    wrong.click()
    expect(wrong).to_have_class("v-contradicted active")
    page.locator("#article mark", has_text="16896个").scroll_into_view_if_needed()
    SHOT.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError):
        page.screenshot(path=str(SHOT), full_page=True)


def test_html_article_is_rendered_with_its_highlights(page: sync_api.Page, out: Path) -> None:
    page.goto((out / f"{safe_name('card.html')}.html").as_uri())
    article = page.locator("#article")
    expect(article.locator("h2.level-1")).to_have_text("推理卡简评")
    expect(page.locator("h1")).to_have_count(1)
    expect(article.locator("li")).to_have_text("T4配备16GB GDDR6显存")
    expect(article.locator("table td")).to_have_text(["A100", "A100采用Hopper架构"])
    assert "|" not in article.inner_text() and "导航" not in article.inner_text()
    expect(article.locator("pre code")).to_contain_text('torch.cuda.set_device("gpu0")')
    for c in claims_of(out, "card.html"):
        assert highlights(page, str(c["claim_id"])) == c["text"], c
    expect(article.locator("strong mark")).to_have_text("32GB")
    expect(article.locator("td mark", has_text="Hopper")).to_have_count(1)
    expect(page.locator("li.claim .where")).to_have_count(0)  # no line numbers of the extracted text
    # a highlight inside one of the article's links selects its claim and does not follow the link
    linked = article.locator("a mark", has_text="16896个")
    expect(article.locator("a")).to_have_attribute("href", "https://example.com/h100")
    linked.click()
    expect(linked).to_have_class(re.compile(r"\bactive\b"))
    expect(page).to_have_url((out / f"{safe_name('card.html')}.html").as_uri())


def test_the_review_app_shows_the_article_rendered(page: sync_api.Page, out: Path, app: str) -> None:
    page.goto(f"{app}/doc/spec.md")
    expect(page).to_have_title(f"审核：{TITLE}")
    assert_markdown_rendered(page, out)
    page.goto(f"{app}/doc/card.html")
    expect(page.locator("#article table td mark", has_text="Hopper")).to_have_count(1)
    for c in claims_of(out, "card.html"):
        assert highlights(page, str(c["claim_id"])) == c["text"], c


def test_a_claim_in_the_front_matter_unfolds_it(page: sync_api.Page, out: Path) -> None:
    page.goto((out / f"{safe_name('spec.md')}.html").as_uri())
    folded = page.locator("#article details.front-matter")
    mark = folded.locator("mark", has_text="5120个")
    expect(mark).to_be_hidden()
    page.locator(f"#item-{mark.get_attribute('data-owner')}").click()
    expect(folded).to_have_attribute("open", "")
    expect(mark).to_be_visible()
    expect(mark).to_have_class(re.compile(r"\bactive\b"))
