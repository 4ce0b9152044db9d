"""The HTML reports in a real browser: headless Debian Chromium driven by Playwright over file:// URLs.

One small corpus (a wrong spec next to right ones, and a hostile article) goes through the whole pipeline once;
each test then opens index.html or a document page in a fresh browser context and checks what an editor does:
filter, follow links, click or keyboard onto a highlighted claim, read the side panel.
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.config import Config
from pipeline.report.paths import safe_name
from pipeline.report.tables import DOC_SEVERITY
from pipeline.run import RunOptions, run

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} not found (apt-get install chromium; .ci/run does)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright not installed (pip install -e '.[test]')")
expect = sync_api.expect

pytestmark = pytest.mark.browser

# Playwright adds a fresh temporary --user-data-dir itself (it refuses one in args); the rest keeps Chromium
# off this machine's closed network.
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SHOT_FOR_LEAD = Path("/tmp/gpu-factcheck-report.png")
TRANSPARENT = "rgba(0, 0, 0, 0)"

SPECS = "# 显卡参数速览\n\nRTX 4090配备了32GB显存，带宽约1TB/s。\nH100 SXM5拥有16896个CUDA核心。\n"
PAYLOAD = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=1">'
HOSTILE = (
    f"# 夹带脚本的文章{PAYLOAD}\n\n"
    f"这篇文章夹带了脚本<script>window.__pwned=1</script>和图片<img src=x onerror=\"window.__pwned=1\">。\n"
    "H100 SXM5拥有16896个CUDA核心。\n"
)


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> Path:
    corpus = tmp_path_factory.mktemp("corpus")
    (corpus / "specs.md").write_text(SPECS, encoding="utf-8")
    (corpus / "hostile.md").write_text(HOSTILE, encoding="utf-8")
    out = tmp_path_factory.mktemp("reports")
    summary = run(RunOptions(corpus=corpus, config=Config(out_dir=out, workers=1), use_state=False))
    assert summary.exit_code == 0, summary.line()
    assert summary.verdicts.get("contradicted", 0) >= 1, summary.line()
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[sync_api.Browser]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: sync_api.Browser) -> Iterator[sync_api.Page]:
    """A fresh context per test; fails the test on any uncaught script error or CSP violation."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    pg.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    pg.set_default_timeout(5000)
    yield pg
    context.close()
    assert errors == [], errors


def url(reports: Path, name: str) -> str:
    return (reports / name).as_uri()


def swatch(page: sync_api.Page, verdict: str) -> str:
    """The computed colour of a verdict's legend swatch."""
    return page.locator(f".controls .swatch.s-{verdict}").evaluate("el => getComputedStyle(el).backgroundColor")


def doc_page(doc_id: str) -> str:
    """The document page's file name, as the report writer names it."""
    return f"{safe_name(doc_id)}.html"


# ---------------------------------------------------------------- index.html


def test_index_lists_documents_worst_first(page: sync_api.Page, reports: Path) -> None:
    page.goto(url(reports, "index.html"))
    rows = page.locator("tbody tr[data-verdict]")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("specs.md")
    expect(rows.nth(0)).to_have_attribute("data-verdict", "需修正")
    expect(rows.nth(1)).to_contain_text("hostile.md")
    expect(rows.nth(1)).to_have_attribute("data-verdict", "可信")
    verdicts = [rows.nth(i).get_attribute("data-verdict") for i in range(2)]
    assert [DOC_SEVERITY[v] for v in verdicts] == sorted((DOC_SEVERITY[v] for v in verdicts), reverse=True)
    expect(page.locator("#shown")).to_have_text("2")


def test_index_filters_hide_and_show_rows(page: sync_api.Page, reports: Path) -> None:
    page.goto(url(reports, "index.html"))
    specs = page.locator("tbody tr", has_text="specs.md")
    hostile = page.locator("tbody tr", has_text="hostile.md")
    trusted = page.locator('input[data-verdict-filter="可信"]')
    review = page.locator("#review-filter")

    trusted.uncheck()
    expect(hostile).to_be_hidden()
    expect(specs).to_be_visible()
    expect(page.locator("#shown")).to_have_text("1")
    trusted.check()
    expect(hostile).to_be_visible()
    expect(page.locator("#shown")).to_have_text("2")

    # fmt: off
    for option, specs_shown, hostile_shown in [
        ("open", True, False), ("flagged", True, False), ("done", False, False), ("none", False, True),
        ("all", True, True),
    ]:
        # fmt: on
        review.select_option(option)
        expect(specs).to_be_visible(visible=specs_shown)
        expect(hostile).to_be_visible(visible=hostile_shown)
        expect(page.locator("#shown")).to_have_text(str(specs_shown + hostile_shown))

    review.select_option("none")  # the two filters combine
    trusted.uncheck()
    expect(page.locator("#shown")).to_have_text("0")


def test_index_links_to_the_document_page(page: sync_api.Page, reports: Path) -> None:
    page.goto(url(reports, "index.html"))
    page.locator("tbody tr", has_text="specs.md").get_by_role("link").click()
    expect(page).to_have_url(url(reports, doc_page("specs.md")))
    expect(page.locator("h1")).to_have_text("显卡参数速览")
    expect(page.locator("#article")).to_contain_text("RTX 4090配备了32GB显存")


# ---------------------------------------------------------------- the document page


def test_claims_are_highlighted_by_verdict(page: sync_api.Page, reports: Path) -> None:
    page.goto(url(reports, doc_page("specs.md")))
    wrong = page.locator("#article mark.v-contradicted", has_text="32GB")
    right = page.locator("#article mark.v-supported", has_text="16896")
    expect(wrong).to_have_count(1)
    expect(right).to_have_count(1)
    # The verdict colours really apply: each mark wears its legend swatch's colour, and the two differ.
    red, green = swatch(page, "contradicted"), swatch(page, "supported")
    assert TRANSPARENT not in (red, green) and red != green
    expect(wrong).to_have_css("background-color", red)
    expect(right).to_have_css("background-color", green)


def test_clicking_a_mark_shows_its_claim_in_the_panel(page: sync_api.Page, reports: Path) -> None:
    page.goto(url(reports, doc_page("specs.md")))
    wrong = page.locator("#article mark.v-contradicted", has_text="32GB")
    key = wrong.get_attribute("data-owner")
    item = page.locator(f"#item-{key}")
    wrong.click()
    expect(wrong).to_have_class("v-contradicted active")
    expect(item).to_have_class("claim v-contradicted active")
    expect(item).to_be_in_viewport()
    expect(item).to_contain_text("正确值")
    expect(item).to_contain_text("24 GB")
    expect(item).to_contain_text("RTX 4090的显存容量应为24 GB")
    expect(page.locator("li.claim.active")).to_have_count(1)

    # And the other way round: clicking a panel item marks its span in the article.
    right = page.locator("#article mark.v-supported", has_text="16896")
    page.locator(f"#item-{right.get_attribute('data-owner')}").click()
    expect(right).to_have_class("v-supported active")
    expect(wrong).not_to_have_class("v-contradicted active")


def test_keyboard_tab_and_enter_on_a_mark(page: sync_api.Page, reports: Path) -> None:
    page.goto(url(reports, doc_page("specs.md")))
    target = page.locator("#article mark.v-supported", has_text="16896")
    key = target.get_attribute("data-owner")
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.getAttribute('data-owner')") == key:
            break
    else:
        pytest.fail("Tab never reached the highlighted 16896 claim")
    expect(target).to_be_focused()
    page.keyboard.press("Enter")
    item = page.locator(f"#item-{key}")
    expect(item).to_have_class("claim v-supported active")
    expect(item).to_be_in_viewport()
    expect(item).to_contain_text("16896")
    expect(item).to_contain_text("与文中所述相符")


def test_verdict_filter_hides_marks_of_that_verdict(page: sync_api.Page, reports: Path) -> None:
    page.goto(url(reports, doc_page("specs.md")))
    wrong = page.locator("#article mark.v-contradicted", has_text="32GB")
    right = page.locator("#article mark.v-supported", has_text="16896")
    wrong_item = page.locator(f"#item-{wrong.get_attribute('data-owner')}")
    box = page.locator('input[data-filter="contradicted"]')
    red, green = swatch(page, "contradicted"), swatch(page, "supported")

    box.uncheck()
    # The article text stays; its highlight goes, it leaves the Tab order, and its panel item is hidden.
    expect(wrong).to_have_css("background-color", TRANSPARENT)
    expect(wrong).to_have_attribute("tabindex", "-1")
    expect(wrong_item).to_be_hidden()
    expect(page.locator("#article")).to_contain_text("RTX 4090配备了32GB显存")
    expect(right).to_have_css("background-color", green)

    box.check()
    expect(wrong).to_have_css("background-color", red)
    expect(wrong).to_have_attribute("tabindex", "0")
    expect(wrong_item).to_be_visible()


def test_source_link_is_https(page: sync_api.Page, reports: Path) -> None:
    page.goto(url(reports, doc_page("specs.md")))
    key = page.locator("#article mark.v-contradicted", has_text="32GB").get_attribute("data-owner")
    link = page.locator(f"#item-{key} a")
    expect(link).to_have_count(1)
    href = link.get_attribute("href") or ""
    assert href.startswith("https://"), href
    expect(link).to_have_attribute("rel", "noopener noreferrer")


# ---------------------------------------------------------------- hostile input


@pytest.mark.parametrize("name", ["index.html", doc_page("hostile.md")])
def test_hostile_article_does_not_run(page: sync_api.Page, reports: Path, name: str) -> None:
    page.goto(url(reports, name))
    page.wait_for_load_state("load")
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert "<script>window.__pwned=1</script>" in page.title() or name == "index.html"
    # Only our own script, and the article's markup shows as text (no CSP violation either: see the fixture).
    expect(page.locator("script")).to_have_count(1)
    expect(page.locator("img")).to_have_count(0)
    expect(page.get_by_text("<script>window.__pwned=1</script>").first).to_be_visible()


def test_hostile_article_body_is_text(page: sync_api.Page, reports: Path) -> None:
    page.goto(url(reports, doc_page("hostile.md")))
    article = page.locator("#article")
    expect(article).to_contain_text("这篇文章夹带了脚本<script>window.__pwned=1</script>和图片")
    expect(article).to_contain_text('<img src=x onerror="window.__pwned=1">')
    expect(page.locator("#article mark.v-supported", has_text="16896")).to_have_count(1)


# ---------------------------------------------------------------- screenshot


def test_screenshot_of_the_document_page(page: sync_api.Page, reports: Path, tmp_path: Path) -> None:
    page.goto(url(reports, doc_page("specs.md")))
    page.locator("#article mark.v-contradicted", has_text="32GB").click()
    shot = tmp_path / "specs.png"
    page.screenshot(path=str(shot), full_page=True)
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 1000
    with contextlib.suppress(OSError):  # a convenience copy for people, not part of the check
        shutil.copyfile(shot, SHOT_FOR_LEAD)
