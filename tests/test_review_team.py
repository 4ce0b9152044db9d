"""Reviewing as a team through the API: versions and the 409 of a stale decision, bulk decisions, undo, the same
rules as the page (a dismissal needs its reason), wrong tokens said to be wrong, the queue's CSV, presence."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import httpx
import pytest

from pipeline.lexicon.labels import api_error, message
from pipeline.review.team import Presence
from pipeline.state import journal
from pipeline.state.store import Store
from tests import test_webapp
from tests.test_webapp import bearer

# the app over a copy of test_webapp's small state, per test: with a users file (guarded) or on loopback (local)
state, fresh, guarded, local = test_webapp.state, test_webapp.fresh, test_webapp.guarded, test_webapp.local


def decide(client: httpx.Client, claim_id: str, **body: Any) -> httpx.Response:
    return client.post(f"/api/claims/{claim_id}/decision", json=body)


def steps(client: httpx.Client, claim_id: str) -> list[tuple[str, str, str, str]]:
    return [(h["from"], h["to"], h["kind"], h["note"]) for h in client.get(f"/api/claims/{claim_id}").json()["history"]]


# ---- versions and conflicts ---------------------------------------------------------------------


def test_every_claim_has_a_version_that_each_decision_changes(local: httpx.Client) -> None:
    every = local.get("/api/claims").json()
    assert {c["version"] for c in every} == {""}  # nothing decided yet
    first = decide(local, "a.md-bw", status="accepted", version="").json()
    assert first["version"] and first["version"] == local.get("/api/claims/a.md-bw").json()["version"]
    second = decide(local, "a.md-bw", status="open", version=first["version"]).json()
    assert second["version"] not in ("", first["version"])


# fmt: off
SEEN = [
    # the version the second editor sends,  status
    ("none",                                 200),   # a script that does not say: not checked
    ("before",                               409),   # what the page showed before the colleague's decision
    ("current",                              200),   # they reloaded
    ("made-up",                              409),
]
# fmt: on


@pytest.mark.parametrize(("seen", "status"), SEEN)
def test_a_decision_on_a_version_decided_since_is_refused(local: httpx.Client, fresh: Path, seen: str,
                                                          status: int) -> None:
    colleague = decide(local, "a.md-bw", status="dismissed", note="口径不同", version="").json()
    version = {"none": None, "before": "", "current": colleague["version"], "made-up": "f" * 32}[seen]
    body: dict[str, Any] = {"status": "corrected", "correction": "显存带宽为 3.35TB/s"}
    if version is not None:
        body["version"] = version
    r = decide(local, "a.md-bw", **body)
    assert r.status_code == status, r.text
    with Store(fresh) as store:
        assert store.decisions()["a.md-bw"].status == ("corrected" if status == 200 else "dismissed")
    if status == 409:
        answer = r.json()
        assert answer["status"] == 409 and "本机编辑" in answer["error"] and "已驳回" in answer["error"]
        assert "口径不同" in answer["error"] and "覆盖" in answer["error"]
        (conflict,) = answer["conflicts"]
        assert (conflict["claim_id"], conflict["version"]) == ("a.md-bw", colleague["version"])
        assert [(h["user"], h["to"], h["note"]) for h in conflict["since"]] == [("本机编辑", "dismissed", "口径不同")]
        assert conflict["claim"]["review_status"] == "dismissed"
        # the colleague's time as the page shows times (local, to the minute), not the stored ISO stamp
        assert conflict["since"][0]["at_zh"] in answer["error"] and "T" not in answer["error"].split("：")[1][:20]


def test_override_is_the_decision_sent_again_on_the_current_version(local: httpx.Client) -> None:
    decide(local, "a.md-bw", status="dismissed", note="口径不同", version="")
    refused = decide(local, "a.md-bw", status="accepted", note="确有其事", version="")
    assert refused.status_code == 409
    current = refused.json()["conflicts"][0]["version"]
    again = decide(local, "a.md-bw", status="accepted", note="确有其事", version=current)
    assert again.status_code == 200 and again.json()["review_status"] == "accepted"
    assert steps(local, "a.md-bw") == [("open", "dismissed", "decision", "口径不同"),
                                       ("dismissed", "accepted", "decision", "确有其事")]


# ---- the same rules as the page -----------------------------------------------------------------

# fmt: off
RULES = [
    # body,                                                         status, message key
    ({"status": "dismissed"},                                        400, "decision.reason_required"),
    ({"status": "dismissed", "note": "   "},                         400, "decision.reason_required"),
    ({"status": "dismissed", "note": "口径不同"},                    200, None),
    ({"status": "corrected"},                                        400, "decision.correction_required"),
    ({"status": "corrected", "correction": "显存带宽为 3.35TB/s"},   200, None),
    ({"status": "accepted"},                                         200, None),
    ({"status": "open"},                                             200, None),
]
# fmt: on


@pytest.mark.parametrize("bulk", [False, True], ids=["one", "bulk"])
@pytest.mark.parametrize(("body", "status", "key"), RULES)
def test_a_dismissal_needs_a_reason_in_the_api_as_on_the_page(local: httpx.Client, fresh: Path, body: dict[str, Any],
                                                              status: int, key: str | None, bulk: bool) -> None:
    if bulk:
        r = local.post("/api/decisions", json={**body, "claims": [{"claim_id": "a.md-bw", "version": ""},
                                                                  {"claim_id": "b.md-bw", "version": ""}]})
    else:
        r = decide(local, "a.md-bw", **body)
    assert r.status_code == status, r.text
    if key is not None:
        assert r.json()["error"] == message(key)
        with Store(fresh) as store:
            assert store.decisions() == {}


# ---- tokens -------------------------------------------------------------------------------------

# fmt: off
TOKENS_SENT = [
    # headers,                                    said
    ({"Authorization": "Bearer not-the-token"},   "token.wrong"),
    ({"Authorization": "bearer editor-token"},    "token.wrong"),   # the scheme in any case; a near miss
    ({"Cookie": "gfc_session=forged"},            "session.expired"),
    ({},                                          None),     # nothing sent: a token is required
]
# fmt: on


@pytest.mark.parametrize(("headers", "said"), TOKENS_SENT)
def test_a_wrong_token_is_reported_as_wrong_not_as_missing(guarded: httpx.Client, headers: dict[str, str],
                                                           said: str | None) -> None:
    api = guarded.get("/api/claims", headers=headers)
    page = guarded.get("/doc/a.md", headers=headers)
    assert api.status_code == page.status_code == 401
    if said is None:
        assert api.json()["error"] == api_error("token_required") and api_error("login_prompt") in page.text
    else:
        assert api.json()["error"] == message(said)
        assert message(said) in page.text and "请输入你的令牌登录。" not in page.text


# ---- bulk and undo ------------------------------------------------------------------------------


def test_a_bulk_decision_is_all_or_nothing(local: httpx.Client, fresh: Path) -> None:
    decide(local, "b.md-bw", status="accepted", version="")
    items = [{"claim_id": "a.md-bw", "version": ""}, {"claim_id": "b.md-bw", "version": ""}]
    r = local.post("/api/decisions", json={"claims": items, "status": "dismissed", "note": "同一处误报"})
    assert r.status_code == 409 and [c["claim_id"] for c in r.json()["conflicts"]] == ["b.md-bw"]
    with Store(fresh) as store:
        assert {k: d.status for k, d in store.decisions().items()} == {"b.md-bw": "accepted"}
    items[1]["version"] = r.json()["conflicts"][0]["version"]
    ok = local.post("/api/decisions", json={"claims": items, "status": "dismissed", "note": "同一处误报"})
    assert ok.status_code == 200
    assert [(c["claim_id"], c["review_status"], c["note"]) for c in ok.json()["claims"]] == [
        ("a.md-bw", "dismissed", "同一处误报"), ("b.md-bw", "dismissed", "同一处误报")]
    assert all(c["document_verdict"] for c in ok.json()["claims"])


# fmt: off
BAD_BULK = [
    ({"status": "accepted"},                                          "decision.claims_list"),
    ({"status": "accepted", "claims": "a.md-bw"},                     "decision.claims_list"),
    ({"status": "accepted", "claims": [{"version": ""}]},             "decision.claims_list"),
    ({"status": "accepted", "claims": []},                            "decision.count"),
    ({"status": "accepted", "claims": [{"claim_id": "a.md-bw", "version": 3}]}, "decision.version_type"),
]
# fmt: on


@pytest.mark.parametrize(("body", "key"), BAD_BULK)
def test_a_malformed_bulk_request_is_a_400_in_chinese(local: httpx.Client, body: dict[str, Any], key: str) -> None:
    r = local.post("/api/decisions", json=body)
    assert r.status_code == 400
    assert r.json()["error"].startswith(message(key, max=1000, count=0)[:6])


def test_undo_puts_back_the_state_before_as_a_new_step(local: httpx.Client, fresh: Path) -> None:
    first = decide(local, "a.md-bw", status="dismissed", note="口径不同", version="").json()
    second = decide(local, "a.md-bw", status="accepted", note="作者确认有误", version=first["version"]).json()
    r = local.post("/api/undo", json={"claims": [{"claim_id": "a.md-bw", "version": second["version"]}]})
    assert r.status_code == 200, r.text
    (undone,) = r.json()["claims"]
    assert (undone["review_status"], undone["note"]) == ("dismissed", "口径不同")
    assert steps(local, "a.md-bw") == [("open", "dismissed", "decision", "口径不同"),
                                       ("dismissed", "accepted", "decision", "作者确认有误"),
                                       ("accepted", "dismissed", "undo", "口径不同")]
    assert undone["history"][-1]["kind_zh"] == "撤销"
    # undone once: the same undo again is stale
    again = local.post("/api/undo", json={"claims": [{"claim_id": "a.md-bw", "version": second["version"]}]})
    assert again.status_code == 409 and "不能撤销" in again.json()["error"]
    # the journal is the truth: a state restored from it has the undo
    records = [r for r in journal.read(fresh.with_name("decisions.jsonl")) if r.get("type") == "decision"]
    assert [r["kind"] for r in records] == ["decision", "decision", "undo"]
    with Store(fresh.with_name("restored.sqlite")) as restored:
        restored.restore_journal(fresh.with_name("decisions.jsonl"))
        assert [(e.to_status, e.kind) for e in restored.history("a.md-bw")][-1] == ("dismissed", "undo")
        assert restored.decisions()["a.md-bw"].note == "口径不同"


def test_undo_of_a_first_decision_reopens_and_a_colleagues_decision_blocks_it(local: httpx.Client) -> None:
    mine = decide(local, "a.md-mi", status="accepted", version="").json()
    undone = local.post("/api/undo", json={"claims": [{"claim_id": "a.md-mi", "version": mine["version"]}]}).json()
    assert undone["claims"][0]["review_status"] == "open"
    mine = decide(local, "a.md-mi", status="accepted", version=undone["claims"][0]["version"]).json()
    decide(local, "a.md-mi", status="dismissed", note="其实没错", version=mine["version"])  # a colleague
    r = local.post("/api/undo", json={"claims": [{"claim_id": "a.md-mi", "version": mine["version"]}]})
    assert r.status_code == 409 and "其实没错" in r.json()["error"]
    assert local.post("/api/undo", json={"claims": [{"claim_id": "a.md-mi"}]}).status_code == 400


# ---- export and the queue -----------------------------------------------------------------------

# fmt: off
EXPORTS = [
    {"status": "open", "flagged": "1"},
    {"verdict": "contradicted", "status": ""},
    {"doc_id": "b.md", "status": "", "flagged": "1"},
    {"q": "V100", "status": "", "flagged": "1"},
    {"evidence": "database", "status": "dismissed", "flagged": "1"},
]
# fmt: on


@pytest.mark.parametrize("params", EXPORTS)
def test_the_csv_export_is_the_api_list(local: httpx.Client, params: dict[str, str]) -> None:
    decide(local, "b.md-fp", status="dismissed", note="口径不同，误报")
    listed = local.get("/api/claims", params=params).json()
    r = local.get("/api/claims.csv", params=params)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert "attachment" in r.headers["content-disposition"] and r.content.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(r.content.decode("utf-8-sig"), newline="")))
    assert [row["claim_id"] for row in rows] == [c["claim_id"] for c in listed]
    for row, claim in zip(rows, listed, strict=True):
        assert (row["review_status"], row["text"], row["note"], row["version"]) == (
            claim["review_status"], claim["text"], claim.get("note") or "", claim["version"])
        assert (row["verdict_zh"], row["attribute_zh"]) == (claim["labels"]["verdict"], claim["labels"]["attribute"])


def test_the_queue_links_its_csv_with_its_own_filters(local: httpx.Client) -> None:
    page = local.get("/", params={"verdict": "contradicted", "q": "H100"}).text
    assert 'href="/api/claims.csv?verdict=contradicted&amp;status=open&amp;doc_id=&amp;subject=&amp;attribute=' in page
    assert "q=H100&amp;flagged=" in page


@pytest.mark.parametrize(("assigned", "note"), [(False, "queue.assignee_none"), (True, "queue.assignee_only")])
def test_my_tasks_says_what_it_shows_even_when_nothing_is_assigned(local: httpx.Client, assigned: bool,
                                                                   note: str) -> None:
    if assigned:
        local.post("/api/assignments", json={"doc_id": "a.md", "assignee": "本机编辑"})
    page = local.get("/", params={"assignee": "本机编辑", "status": "open"}).text
    assert message(note, name="本机编辑") in page
    assert '<option value="本机编辑" selected>本机编辑</option>' in page  # the filter is visible in its select


def test_a_viewer_sees_no_shortcut_hints_nor_bulk_tools(guarded: httpx.Client) -> None:
    for path in ("/doc/a.md", "/"):
        viewer = guarded.get(path, headers=bearer("viewer")).text
        editor = guarded.get(path, headers=bearer("editor")).text
        assert "<kbd>" not in viewer and 'data-role="bulk"' not in viewer and 'data-role="pick"' not in viewer
        assert "快捷键" in editor and 'data-role="bulk"' in editor and 'data-role="pick"' in editor


# ---- presence -----------------------------------------------------------------------------------


def test_presence_remembers_who_has_a_document_open_for_a_while() -> None:
    now = [0.0]
    presence = Presence(window=45.0, clock=lambda: now[0])
    assert presence.visit("a.md", "王编辑") == []
    now[0] = 10.0
    assert presence.visit("a.md", "李编辑") == ["王编辑"]
    assert presence.visit("b.md", "赵读者") == []
    now[0] = 50.0  # 王编辑 last seen 50 s ago: gone; 李编辑 40 s ago: still there
    assert presence.visit("a.md", "赵读者") == ["李编辑"]
    assert presence.visit("a.md", "李编辑") == ["赵读者"]


def test_a_document_page_says_who_else_has_it_open(guarded: httpx.Client) -> None:
    assert guarded.get("/api/presence", params={"doc_id": "a.md"}, headers=bearer("viewer")).json()["others"] == []
    page = guarded.get("/doc/a.md", headers=bearer("editor")).text
    assert message("presence.others", names="赵读者") in page
    answer = guarded.get("/api/presence", params={"doc_id": "a.md"}, headers=bearer("viewer")).json()
    assert answer["others"] == ["王编辑"] and answer["message"] == message("presence.others", names="王编辑")
