"""The HTML reports in a real browser: headless Debian Chromium driven by Playwright over file:// URLs.

One small corpus (a wrong spec next to right ones, and a hostile article) goes through the whole pipeline once;
each test then opens index.html or a document page in a fresh browser context and checks what an editor does:
filter, follow links, click or keyboard onto a highlighted claim, read the side panel.
"""

from __future__ import annotations

import contextlib
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.config import Config
from pipeline.report.paths import safe_name
from pipeline.report.tables import DOC_SEVERITY
from pipeline.run import RunOptions, run
from tests.browser_support import SHOTS, expect, sync_api

pytestmark = pytest.mark.browser

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
    expect(page.locator("header h1")).to_have_text("显卡参数速览")
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
    expect(item).to_have_class("claim v-contradicted flag r-open active")
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


# ---------------------------------------------------------------- the review app (review serve)

EDITOR = "测试编辑"
APP_ARTICLES = {
    "specs.md": SPECS,
    "p100.md": "# P100速览\n\nTesla P100配备了GDDR5显存，拥有3584个CUDA核心。\n",
}


@pytest.fixture(scope="module")
def app_state(tmp_path_factory: pytest.TempPathFactory) -> Path:
    corpus = tmp_path_factory.mktemp("app-corpus")
    for name, text in APP_ARTICLES.items():
        (corpus / name).write_text(text, encoding="utf-8")
    out = tmp_path_factory.mktemp("app-reports")
    summary = run(RunOptions(corpus=corpus, config=Config(out_dir=out, workers=1)))
    assert summary.verdicts.get("contradicted", 0) >= 2, summary.line()
    return out / "state.sqlite"


@pytest.fixture
def app(app_state: Path, tmp_path: Path) -> Iterator[str]:
    """The app over a copy of the state (each test starts with no decisions), no login, as EDITOR."""
    from pipeline.review.server import ServeOptions, app_config
    from tests.app_server import running_app

    out = tmp_path / "reports"
    shutil.copytree(app_state.parent, out)
    config = app_config(ServeOptions(out=out, state=out / "state.sqlite", editor=EDITOR))
    with running_app(config) as base:
        yield base


def flag_item(page: sync_api.Page, text: str) -> sync_api.Locator:
    return page.locator("li.claim.flag", has=page.locator(".quote", has_text=text))


def test_editor_clears_a_flag_by_keyboard_and_a_colleague_sees_it(browser: sync_api.Browser, page: sync_api.Page,
                                                                  app: str) -> None:
    page.goto(app + "/")
    expect(page.locator("h1")).to_have_text("审核队列")
    expect(page.locator('[data-role="count-open"]')).not_to_have_text("0")
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "queue.png"), full_page=True)

    # filter: only contradicted flags of one article, by the select (the form submits itself)
    page.locator('select[name="verdict"]').select_option("contradicted")
    expect(page).to_have_url(re.compile(r"verdict=contradicted"))
    page.locator('input[name="q"]').fill("32GB")
    page.locator('input[name="q"]').press("Enter")
    page.wait_for_url(re.compile(r"q=32GB"))
    page.wait_for_load_state("load")  # the queue's script is in place before keys are pressed
    rows = page.locator("ul.rows li")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("32GB")
    expect(rows.first).to_contain_text("显存容量")

    # open the article from the keyboard: j selects the first claim, Enter follows its link
    page.keyboard.press("j")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/doc/specs\.md#item-"))
    page.wait_for_load_state("load")
    item = flag_item(page, "32GB")
    expect(item).to_be_focused()
    mark = page.locator("#article mark", has_text="32GB")
    expect(mark).not_to_have_class(re.compile(r"\bclosed\b"))

    # dismiss with a note, by keyboard only; the page restyles at once, without a reload
    page.keyboard.press("d")
    expect(item.locator('input[name="note"]')).to_be_focused()
    page.keyboard.type("口径不同，误报")
    page.keyboard.press("Enter")
    expect(item).to_have_class(re.compile(r"\bclosed\b"))
    expect(item).to_have_class(re.compile(r"\br-dismissed\b"))
    expect(mark).to_have_class(re.compile(r"\bclosed\b"))
    expect(item.locator('[data-role="review"]')).to_contain_text(f"已驳回（{EDITOR}")
    expect(item.locator('[data-role="review"]')).to_contain_text("口径不同，误报")
    expect(page.locator('ol[data-role="closed"] li.claim')).to_have_count(1)
    expect(page.locator('[data-role="doc-verdict"]')).to_have_text("可信")  # its only flag was a false alarm
    assert float(item.evaluate("el => getComputedStyle(el).opacity")) < 1
    page.locator("#article").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "article.png"), full_page=False)

    # reload: the decision is in the state
    page.reload()
    item = flag_item(page, "32GB")
    expect(item).to_have_class(re.compile(r"\bclosed\b"))
    expect(page.locator('ol[data-role="closed"]')).to_contain_text("32GB")

    # a second browser context (another editor's browser) sees it, and reopens it
    other = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    try:
        second = other.new_page()
        second.set_default_timeout(5000)
        second.goto(page.url.split("#")[0])
        second.wait_for_load_state("load")
        theirs = flag_item(second, "32GB")
        expect(theirs).to_have_class(re.compile(r"\br-dismissed\b"))
        theirs.locator(".quote").click()
        second.keyboard.press("o")
        second.keyboard.type("作者说是另一个版本")
        second.keyboard.press("Enter")
        expect(theirs).to_have_class(re.compile(r"\br-open\b"))
        expect(theirs).not_to_have_class(re.compile(r"\bclosed\b"))
        steps = theirs.locator('ol[data-role="history"] li')
        expect(steps).to_have_count(2)
        expect(steps.nth(0)).to_contain_text(f"{EDITOR}：待处理 → 已驳回：口径不同，误报")
        expect(steps.nth(1)).to_contain_text(f"{EDITOR}：已驳回 → 待处理：作者说是另一个版本")
    finally:
        other.close()

    page.reload()
    steps = flag_item(page, "32GB").locator('ol[data-role="history"] li')
    expect(steps).to_have_count(2)
    expect(flag_item(page, "32GB")).to_have_class(re.compile(r"\br-open\b"))


def test_assignment_feeds_my_queue_and_correct_needs_the_corrected_text(page: sync_api.Page, app: str) -> None:
    page.goto(app + "/doc/p100.md")
    page.locator('[data-role="assign-me"]').click()
    expect(page.locator('[data-role="assignee"]')).to_have_text(EDITOR)
    page.locator('[data-role="my-queue"]').click()
    expect(page.locator("section.doc")).to_have_count(1)
    expect(page.locator("section.doc")).to_contain_text("P100速览")
    expect(page.locator("section.doc")).to_contain_text(f"负责编辑：{EDITOR}")

    page.locator("section.doc a.claim-link", has_text="GDDR5").click()
    page.wait_for_url(re.compile(r"/doc/p100\.md#item-"))
    page.wait_for_load_state("load")
    item = flag_item(page, "GDDR5")
    item.locator('button[data-act="corrected"]').click()
    item.locator('button[type="submit"]').click()
    expect(item.locator('[data-role="error"]')).to_have_text("请写下更正后的文字。")
    item.locator('input[name="correction"]').fill("Tesla P100配备了HBM2显存")
    item.locator('input[name="correction"]').press("Enter")
    expect(item).to_have_class(re.compile(r"\br-corrected\b"))
    expect(item.locator('[data-role="correction"]')).to_have_text("Tesla P100配备了HBM2显存")
    page.goto(app + "/?status=corrected")
    expect(page.locator("ul.rows li")).to_have_count(1)
    expect(page.locator("ul.rows li")).to_contain_text("已修正")


def test_a_page_on_another_site_cannot_decide(browser: sync_api.Browser, app: str, app_state: Path) -> None:
    """A form and a script on another origin post to the app in the editor's browser: both are refused."""
    import http.server
    import threading

    claim_id = flag_id(app, "32GB")
    target = f"{app}/api/claims/{claim_id}/decision"
    evil = (f'<form method="post" action="{target}" enctype="text/plain">'
            '<input name=\'{"status": "dismissed", "note": "\' value=\'"}\'></form>'
            f'<script>fetch("{target}", {{method: "POST", mode: "no-cors", body: \'{{"status": "accepted"}}\'}})'
            ".finally(function () { document.forms[0].submit(); });</script>")

    class Evil(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(evil.encode())

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Evil)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/")
        page.wait_for_url(f"{app}/api/**")  # the form was sent, and landed on our refusal
        assert "cross-site request refused" in page.content()
    finally:
        context.close()
        server.shutdown()
    import json
    import urllib.request

    with urllib.request.urlopen(f"{app}/api/claims/{claim_id}") as r:
        assert json.loads(r.read())["review_status"] == "open"


def flag_id(app: str, text: str) -> str:
    import json
    import urllib.parse
    import urllib.request

    with urllib.request.urlopen(f"{app}/api/claims?" + urllib.parse.urlencode({"q": text, "verdict": "contradicted"})
                                ) as r:
        return str(json.loads(r.read())[0]["claim_id"])


def test_login_in_the_browser_then_decide(browser: sync_api.Browser, app_state: Path, tmp_path: Path) -> None:
    """With a users file: the login form, a session cookie, and a decision under the editor's name."""
    import hashlib

    from pipeline.review.server import ServeOptions, app_config
    from tests.app_server import running_app

    out = tmp_path / "reports"
    shutil.copytree(app_state.parent, out)
    users = tmp_path / "users.csv"
    users.write_text("name,role,token_sha256\n"
                     f"王编辑,editor,{hashlib.sha256(b'open-sesame').hexdigest()}\n"
                     f"赵读者,viewer,{hashlib.sha256(b'just-looking').hexdigest()}\n", encoding="utf-8")
    config = app_config(ServeOptions(out=out, state=out / "state.sqlite", users=users, host="0.0.0.0"))
    with running_app(config) as base:
        context = browser.new_context(locale="zh-CN")
        try:
            page = context.new_page()
            page.set_default_timeout(5000)
            response = page.goto(base + "/doc/specs.md")
            assert response is not None and response.status == 401
            page.locator("#token").fill("wrong")
            page.locator("#token").press("Enter")
            expect(page.locator(".error")).to_have_text("令牌不对，请重试。")
            page.locator("#token").fill("open-sesame")
            page.locator("#token").press("Enter")
            expect(page).to_have_url(base + "/doc/specs.md")
            page.wait_for_load_state("load")
            expect(page.locator(".bar .who")).to_have_text("王编辑（编辑）")
            item = flag_item(page, "32GB")
            item.locator('button[data-act="accepted"]').click()
            item.locator('input[name="note"]').press("Enter")
            expect(item).to_have_class(re.compile(r"\br-accepted\b"))
            expect(item.locator('[data-role="review"]')).to_contain_text("已确认（王编辑")
            page.locator(".bar button", has_text="退出").click()
            expect(page).to_have_url(base + "/login")
            page.goto(base + "/")
            expect(page.locator("#token")).to_be_visible()  # the session is gone
        finally:
            context.close()
        viewer = browser.new_context(extra_http_headers={"Authorization": "Bearer just-looking"})
        try:
            page = viewer.new_page()
            page.goto(base + "/doc/specs.md")
            expect(page.locator(".bar .who")).to_have_text("赵读者（只读）")
            expect(page.locator('button[data-act="dismissed"]')).to_have_count(0)
        finally:
            viewer.close()
