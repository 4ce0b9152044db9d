"""Editors' decisions through whole runs: ClaimReview, --fail-on, a renamed article, a lost or emptied state."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.config import Config
from pipeline.report import safe_name
from pipeline.run import EXIT_FLAGGED, EXIT_OK, RunOptions, RunSummary, run
from pipeline.state.store import Store

# Articles written for these tests: a.txt gives the RTX 4090 32GB (it has 24GB) and a wrong bandwidth.
ARTICLES = {
    "a.txt": "RTX 4090评测\n\nRTX 4090配备了32GB的GDDR6X显存，功耗450W。\n\nRTX 4090的显存带宽为2TB/s。\n",
    "b.txt": "H100简介\n\nH100 SXM5拥有16896个CUDA核心。\n",
}


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    d = tmp_path / "corpus"
    d.mkdir()
    for name, text in ARTICLES.items():
        (d / name).write_text(text, encoding="utf-8")
    return d


def go(corpus: Path, out: Path, **kw: Any) -> RunSummary:
    config = Config(out_dir=out, workers=1, claimreview_url=kw.pop("claimreview_url", None))
    return run(RunOptions(corpus=corpus, config=config, **kw))


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def flags(out: Path, doc_id: str = "a.txt") -> dict[str, dict[str, Any]]:
    return {c["text"]: c for c in lines(out / "claims.jsonl")
            if c["doc_id"] == doc_id and c["verdict"] in ("contradicted", "misattributed")}


def test_claimreview_follows_the_editors(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    go(corpus, out)
    wrong = flags(out)
    assert {"32GB", "2TB/s"} <= set(wrong)
    assert {o["@id"].rsplit(":", 1)[1] for o in lines(out / "claimreview.jsonl")} >= {
        wrong["32GB"]["claim_id"], wrong["2TB/s"]["claim_id"]}
    with Store(out / "state.sqlite") as store:
        store.decide(wrong["32GB"]["claim_id"], "dismissed", "王编辑", "误报")
        store.decide(wrong["2TB/s"]["claim_id"], "corrected", "王编辑", correction="RTX 4090的显存带宽约为1TB/s")
    go(corpus, out, claimreview_url="https://example.com/articles/{doc_id}")
    published = {o["@id"].rsplit(":", 1)[1]: o for o in lines(out / "claimreview.jsonl")}
    assert wrong["32GB"]["claim_id"] not in published
    corrected = published[wrong["2TB/s"]["claim_id"]]
    assert corrected["ratingExplanation"].startswith("RTX 4090的显存带宽约为1TB/s")
    assert corrected["url"] == "https://example.com/articles/a.txt"
    assert all(o["reviewRating"]["alternateName"] in ("错误", "张冠李戴") for o in published.values())


def test_fail_on_does_not_alert_again_on_a_flag_an_editor_has_seen(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    fail_on = frozenset({"contradicted"})
    assert go(corpus, out, fail_on=fail_on).exit_code == EXIT_FLAGGED
    with Store(out / "state.sqlite") as store:
        for claim in flags(out).values():
            store.decide(claim["claim_id"], "accepted", "王编辑", "已通知作者")
    (corpus / "a.txt").write_text(ARTICLES["a.txt"] + "\n（本文有更新）\n", encoding="utf-8")  # an unrelated line
    assert go(corpus, out, fail_on=fail_on).exit_code == EXIT_OK
    (corpus / "a.txt").write_text(ARTICLES["a.txt"] + "\nRTX 4090的功耗为900W。\n", encoding="utf-8")
    assert go(corpus, out, fail_on=fail_on).exit_code == EXIT_FLAGGED  # a new flag still alerts


def test_decisions_survive_renaming_the_article(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    go(corpus, out)
    before = flags(out)
    with Store(out / "state.sqlite") as store:
        store.decide(before["32GB"]["claim_id"], "dismissed", "王编辑", "误报")
    (corpus / "2024").mkdir()
    shutil.move(corpus / "a.txt", corpus / "2024" / "a.txt")
    summary = go(corpus, out, fail_on=frozenset({"contradicted"}))
    after = flags(out, "2024/a.txt")
    assert after["32GB"]["claim_id"] != before["32GB"]["claim_id"]  # the doc_id is part of the claim id
    assert after["32GB"]["review_status"] == "dismissed"
    assert after["2TB/s"]["review_status"] == "open"
    assert summary.exit_code == EXIT_FLAGGED  # the undecided flag alerts as a new one; the dismissed one does not
    page = (out / f"{safe_name('2024/a.txt')}.html").read_text(encoding="utf-8")
    assert f'data-claim-id="{after["32GB"]["claim_id"]}"' in page and "已处理（<span" in page
    claimreviews = {o["@id"].rsplit(":", 1)[1] for o in lines(out / "claimreview.jsonl")}
    assert after["32GB"]["claim_id"] not in claimreviews
    with Store(out / "state.sqlite") as store:
        history = store.history(after["32GB"]["claim_id"])
    assert [(e.user, e.kind) for e in history] == [("王编辑", "decision"), ("gpu-factcheck", "moved")]
    assert any(r.get("kind") == "moved" for r in lines(out / "decisions.jsonl"))


def test_renaming_and_editing_the_sentence_reopens(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    go(corpus, out)
    with Store(out / "state.sqlite") as store:
        store.decide(flags(out)["32GB"]["claim_id"], "dismissed", "王编辑", "误报")
    (corpus / "a.txt").unlink()
    (corpus / "moved.txt").write_text(ARTICLES["a.txt"].replace("RTX 4090配备了", "这块RTX 4090配备了"),
                                      encoding="utf-8")
    go(corpus, out)
    assert flags(out, "moved.txt")["32GB"]["review_status"] == "open"


def test_a_lost_state_is_restored_from_the_journal(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    go(corpus, out)
    wrong = flags(out)
    with Store(out / "state.sqlite") as store:
        store.decide(wrong["32GB"]["claim_id"], "dismissed", "王编辑", "误报")
        store.assign("a.txt", "李编辑", "王主编")
    for p in out.glob("state.sqlite*"):
        p.unlink()
    result = CliRunner().invoke(app, ["review", "import", str(out / "decisions.jsonl"),
                                      "--state", str(out / "state.sqlite")])
    assert result.exit_code == 0, result.output
    assert go(corpus, out).exit_code == EXIT_OK
    assert flags(out)["32GB"]["review_status"] == "dismissed"
    with Store(out / "state.sqlite") as store:
        assert store.assignments() == {"a.txt": "李编辑"}
        assert [e.note for e in store.history(wrong["32GB"]["claim_id"])] == ["误报"]


def test_every_run_rewrites_a_missing_journal(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    go(corpus, out)
    with Store(out / "state.sqlite") as store:
        store.decide(flags(out)["32GB"]["claim_id"], "dismissed", "王编辑", "误报")
    (out / "decisions.jsonl").unlink()
    go(corpus, out)
    assert [r["to"] for r in lines(out / "decisions.jsonl")] == ["dismissed"]


@pytest.mark.parametrize("content", [b"", b"SQLite format 3\x00" + b"\x00" * 84 + b"not really"])
def test_run_refuses_an_emptied_or_foreign_state_in_one_line(corpus: Path, tmp_path: Path, content: bytes) -> None:
    out = tmp_path / "out"
    go(corpus, out)
    with Store(out / "state.sqlite") as store:
        store.decide(flags(out)["32GB"]["claim_id"], "dismissed", "王编辑", "误报")
    for p in out.glob("state.sqlite-*"):
        p.unlink()
    (out / "state.sqlite").write_bytes(content)
    result = CliRunner().invoke(app, ["run", str(corpus), "--out", str(out)])
    assert result.exit_code == 2
    message = [line for line in result.stderr.splitlines() if line.strip()]
    # one line for the editor, then the run's JSON line for the log
    assert len(message) == 2 and "refusing" in message[0] and json.loads(message[1])["exit_code"] == 2
    assert f"{out / 'decisions.jsonl'} (1 decision record(s))" in message[0]
    assert (out / "state.sqlite").read_bytes() == content
