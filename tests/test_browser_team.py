"""Reviewing as a team in a real browser (Playwright + Debian Chromium): two editors in two browser contexts decide
the same flag (the conflict dialog, reload and override, both decisions in the history), who else has the article
open, identical flags dismissed at once and undone, a bulk decision in the queue, the queue's CSV export."""

from __future__ import annotations

import csv
import hashlib
import io
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pipeline.config import Config
from pipeline.lexicon.labels import message
from pipeline.run import RunOptions, run
from tests.browser_support import SHOTS, expect, sync_api

pytestmark = pytest.mark.browser

# Sentences written for these tests: one figure repeated three times (three identical flags), another flag beside.
ARTICLES = {
    "repeat.md": ("# 显存对比\n\nRTX 4090配备了32GB显存，带宽约1TB/s。\n\n另一段：RTX 4090配备了32GB显存。\n\n"
                  "再说一次，RTX 4090配备了32GB显存。\n\nTesla P100配备了GDDR5显存。\n"),
    "other.md": "# 另一篇\n\nTesla P100配备了GDDR5显存，拥有3584个CUDA核心。\n",
}
# a refused stale decision is logged by Chromium as a failed resource: that one is expected
EXPECTED_REFUSAL = re.compile(r"^Failed to load resource: the server responded with a status of 409 ")
TOKENS = {"王编辑": "wang-token-51c2", "李编辑": "li-token-9d07", "赵读者": "zhao-token-3e88"}
ROLES = {"王编辑": "editor", "李编辑": "editor", "赵读者": "viewer"}


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    corpus = tmp_path_factory.mktemp("team-corpus")
    for name, text in ARTICLES.items():
        (corpus / name).write_text(text, encoding="utf-8")
    out = tmp_path_factory.mktemp("team-reports")
    summary = run(RunOptions(corpus=corpus, config=Config(out_dir=out, workers=1)))
    assert summary.verdicts.get("contradicted", 0) >= 4, summary.line()
    return out


@pytest.fixture
def app(reviewed: Path, tmp_path: Path) -> Iterator[str]:
    """The app over a copy of the run (no decisions yet), with two editors and a viewer."""
    from pipeline.review.server import ServeOptions, app_config
    from tests.app_server import running_app

    out = tmp_path / "reports"
    shutil.copytree(reviewed, out)
    users = tmp_path / "users.csv"
    users.write_text("name,role,token_sha256\n" + "".join(
        f"{n},{ROLES[n]},{hashlib.sha256(t.encode()).hexdigest()}\n" for n, t in TOKENS.items()), encoding="utf-8")
    config = app_config(ServeOptions(out=out, state=out / "state.sqlite", users=users, host="0.0.0.0"))
    with running_app(config) as base:
        yield base


@pytest.fixture
def as_user(browser: sync_api.Browser, app: str) -> Iterator[Any]:
    """as_user(name) -> a page in a browser context of its own, logged in with that user's token (a session
    cookie, as an editor's browser has); fails the test on any script error or CSP violation."""
    contexts: list[sync_api.BrowserContext] = []
    errors: list[str] = []

    def open_as(name: str) -> sync_api.Page:
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN", accept_downloads=True)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(5000)
        page.goto(app + "/")  # answered 401 (the login form) until the token is given
        page.locator("#token").fill(TOKENS[name])
        page.locator("#token").press("Enter")
        page.wait_for_url(app + "/")
        page.on("pageerror", lambda e: errors.append(f"{name} pageerror: {e}"))
        page.on("console", lambda m: errors.append(f"{name} console: {m.text}")
                if m.type == "error" and not EXPECTED_REFUSAL.search(m.text) else None)
        return page

    yield open_as
    for context in contexts:
        context.close()
    assert errors == [], errors


def flag(page: sync_api.Page, text: str, nth: int = 0) -> sync_api.Locator:
    return page.locator("li.claim.flag", has=page.locator(".quote", has_text=text)).nth(nth)


def history(item: sync_api.Locator) -> sync_api.Locator:
    return item.locator('ol[data-role="history"] li')


def shot(page: sync_api.Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"team26-{name}.png"), full_page=False)


def test_two_editors_decide_the_same_flag(as_user: Any, app: str) -> None:
    wang, li = as_user("王编辑"), as_user("李编辑")
    wang.goto(app + "/doc/other.md")
    li.goto(app + "/doc/other.md")
    expect(li.locator('[data-role="presence"]')).to_have_text(message("presence.others", names="王编辑"))

    # 王编辑 dismisses the flag; 李编辑's page still shows it open
    mine = flag(wang, "GDDR5")
    mine.locator('button[data-act="dismissed"]').click()
    mine.locator('input[name="note"]').fill("文中说的是另一款")
    mine.locator('input[name="note"]').press("Enter")
    expect(mine).to_have_class(re.compile(r"\br-dismissed\b"))
    theirs = flag(li, "GDDR5")
    expect(theirs).to_have_class(re.compile(r"\br-open\b"))

    # 李编辑 accepts it: refused, and the dialog says who decided what
    theirs.locator('button[data-act="accepted"]').click()
    theirs.locator('input[name="note"]').fill("确实写错了")
    theirs.locator('input[name="note"]').press("Enter")
    dialog = li.locator('dialog[data-role="conflict"]')
    expect(dialog).to_be_visible()
    expect(dialog.locator('[data-role="conflict-text"]')).to_contain_text("王编辑")
    said = dialog.locator('[data-role="conflict-steps"] li')
    expect(said).to_have_count(1)
    expect(said).to_contain_text("王编辑：待处理 → 已驳回：文中说的是另一款")
    shot(li, "conflict")

    # reload: 李编辑 now sees 王编辑's decision, and may decide on it
    dialog.locator('[data-role="conflict-reload"]').click()
    expect(dialog).to_be_hidden()
    expect(theirs).to_have_class(re.compile(r"\br-dismissed\b"))
    expect(theirs.locator('[data-role="review"]')).to_contain_text("已驳回（王编辑")
    expect(history(theirs)).to_have_count(1)
    theirs.locator('button[data-act="accepted"]').click()
    theirs.locator('input[name="note"]').fill("确实写错了")
    theirs.locator('input[name="note"]').press("Enter")
    expect(theirs).to_have_class(re.compile(r"\br-accepted\b"))

    # 王编辑's page is stale now: correcting gets the dialog, and override saves it on the current version
    mine.locator('button[data-act="corrected"]').click()
    mine.locator('input[name="correction"]').fill("Tesla P100配备了HBM2显存")
    mine.locator('input[name="correction"]').press("Enter")
    dialog = wang.locator('dialog[data-role="conflict"]')
    expect(dialog).to_be_visible()
    expect(dialog.locator('[data-role="conflict-steps"] li')).to_contain_text("李编辑：已驳回 → 已确认：确实写错了")
    dialog.locator('[data-role="conflict-override"]').click()
    expect(mine).to_have_class(re.compile(r"\br-corrected\b"))
    steps = history(mine)
    expect(steps).to_have_count(3)
    expect(steps.nth(0)).to_contain_text("王编辑：待处理 → 已驳回：文中说的是另一款")
    expect(steps.nth(1)).to_contain_text("李编辑：已驳回 → 已确认：确实写错了")
    expect(steps.nth(2)).to_contain_text("王编辑：已确认 → 已修正")

    li.reload()
    expect(history(flag(li, "GDDR5"))).to_have_count(3)
    expect(flag(li, "GDDR5")).to_have_class(re.compile(r"\br-corrected\b"))


def test_identical_flags_dismissed_at_once_then_undone(as_user: Any, app: str) -> None:
    page = as_user("王编辑")
    page.goto(app + "/doc/repeat.md")
    page.wait_for_load_state("load")
    firsts = page.locator("li.claim.flag", has=page.locator(".quote", has_text="32GB"))
    expect(firsts).to_have_count(3)
    first = firsts.nth(0)
    first.focus()
    page.keyboard.press("d")
    expect(first.locator('input[name="note"]')).to_be_focused()
    twins = first.locator('input[name="twins"]')
    expect(first.locator("label.twins")).to_have_text(message("decision.identical", count=2))
    twins.check()
    first.locator('input[name="note"]').fill("这里指的是另一版本，误报")
    first.locator('input[name="note"]').press("Enter")
    closed = page.locator('ol[data-role="closed"] li.claim')
    expect(closed).to_have_count(3)
    for i in range(3):
        expect(flag(page, "32GB", i)).to_have_class(re.compile(r"\br-dismissed\b"))
    bar = page.locator('[data-role="undo-bar"]')
    expect(bar).to_be_visible()
    expect(bar).to_contain_text(message("decision.done", count=3, status="已驳回"))
    expect(page.locator("#article mark.closed", has_text="32GB")).to_have_count(3)
    page.locator("#article").scroll_into_view_if_needed()
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "bulk")

    # undo, from the keyboard: all three open again, and the history keeps both steps
    page.locator("h1").click()
    page.keyboard.press("u")
    expect(bar).to_contain_text(message("decision.undone", count=3))
    expect(page.locator('ol[data-role="closed"] li.claim')).to_have_count(0)
    for i in range(3):
        item = flag(page, "32GB", i)
        expect(item).to_have_class(re.compile(r"\br-open\b"))
        expect(history(item)).to_have_count(2)
        expect(history(item).nth(1)).to_contain_text("已驳回 → 待处理（撤销）")
    page.reload()
    expect(history(flag(page, "32GB", 2))).to_have_count(2)
    expect(page.locator('ol[data-role="closed"] li.claim')).to_have_count(0)


def test_a_moves_on_like_d_and_c_and_a_viewer_sees_no_hints(as_user: Any, app: str) -> None:
    page = as_user("王编辑")
    page.goto(app + "/doc/repeat.md")
    page.wait_for_load_state("load")
    raised = page.locator('ol[data-role="raised"] li.claim.flag')
    raised.nth(0).focus()
    page.keyboard.press("a")
    page.keyboard.press("Enter")
    expect(raised.nth(0)).to_have_class(re.compile(r"\br-accepted\b"))
    expect(raised.nth(1)).to_be_focused()
    viewer = as_user("赵读者")
    viewer.goto(app + "/doc/repeat.md")
    expect(viewer.locator(".keys")).to_have_count(0)
    expect(viewer.locator("kbd")).to_have_count(0)
    expect(viewer.locator('input[data-role="pick"]')).to_have_count(0)


def test_bulk_accept_in_the_queue_then_undo(as_user: Any, app: str) -> None:
    page = as_user("李编辑")
    page.goto(app + "/?q=32GB")
    rows = page.locator("ul.rows li")
    expect(rows).to_have_count(3)
    rows.nth(0).locator('input[data-role="pick"]').check()
    rows.nth(2).locator('input[data-role="pick"]').check()
    expect(page.locator('[data-role="picked"]')).to_have_text(message("decision.picked", count=2))
    bulk = page.locator('form[data-role="bulk"]')
    bulk.locator('button[data-bulk="dismissed"]').click()  # a dismissal needs its reason, here as in the API
    expect(bulk.locator('[data-role="bulk-error"]')).to_have_text(message("decision.reason_required"))
    bulk.locator('button[data-bulk="accepted"]').click()
    expect(rows.nth(0).locator('[data-role="row-status"]')).to_have_text("已确认")
    expect(rows.nth(1).locator('[data-role="row-status"]')).to_have_text("待处理")
    expect(rows.nth(2).locator('[data-role="row-status"]')).to_have_text("已确认")
    expect(page.locator('[data-role="undo-bar"]')).to_contain_text(message("decision.done", count=2, status="已确认"))
    expect(page.locator('[data-role="count-accepted"]')).to_have_text("2")  # the tabs count it at once
    shot(page, "queue-bulk")
    page.locator('[data-role="undo-bar"] [data-role="undo"]').click()
    expect(rows.nth(0).locator('[data-role="row-status"]')).to_have_text("待处理")
    expect(rows.nth(2).locator('[data-role="row-status"]')).to_have_text("待处理")
    expect(page.locator('[data-role="count-accepted"]')).to_have_text("0")


def test_the_csv_export_of_a_filtered_queue_is_the_api_list(as_user: Any, app: str) -> None:
    page = as_user("王编辑")
    page.goto(app + "/")
    page.locator('select[name="verdict"]').select_option("contradicted")
    page.wait_for_url(re.compile(r"verdict=contradicted"))
    page.locator('select[name="doc_id"]').select_option("repeat.md")
    page.wait_for_url(re.compile(r"doc_id=repeat\.md"))
    shown = page.locator("ul.rows li").evaluate_all("rows => rows.map(r => r.getAttribute('data-claim-id'))")
    with page.expect_download() as download:
        page.locator('[data-role="export"]').click()
    rows = list(csv.DictReader(io.StringIO(Path(download.value.path()).read_bytes().decode("utf-8-sig"), newline="")))
    listed = page.request.get(app + "/api/claims?verdict=contradicted&doc_id=repeat.md&status=open").json()
    assert [r["claim_id"] for r in rows] == [c["claim_id"] for c in listed]
    assert sorted(r["claim_id"] for r in rows) == sorted(shown) and len(rows) == 4
    assert [(r["text"], r["review_status_zh"]) for r in rows] == [(c["text"], c["labels"]["review_status"])
                                                                   for c in listed]
