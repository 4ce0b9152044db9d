"""Reviewing as a team in the state: versions, decisions checked against them, bulk decisions in one transaction,
undo as one more journaled step."""

from __future__ import annotations

import pytest

from pipeline.errors import UsageError
from pipeline.state import journal
from pipeline.state.store import Store
from pipeline.state.store_team import MAX_BATCH, NotUndoable, StaleDecision
from tests.store_builders import PIPE, REF, gpu_claims, make_result


def test_a_version_is_the_last_step_of_the_claims_history(reviewed: Store) -> None:
    assert reviewed.version("a.md-bw") == "" and reviewed.versions() == {}
    (first,) = reviewed.decide_versioned([("a.md-bw", "")], "accepted", "王编辑")
    assert reviewed.version("a.md-bw") == first.event_id
    plain = reviewed.decide("a.md-bw", "open", "李编辑")  # the command line's decision makes a step too
    assert reviewed.version("a.md-bw") == reviewed.history("a.md-bw")[-1].event_id != first.event_id
    assert plain.status == "open"
    assert reviewed.versions(["a.md-bw", "a.md-mi"]) == {"a.md-bw": reviewed.version("a.md-bw")}


# fmt: off
STEPS = [
    # what the editors do in turn: (editor, status, note, version seen: "" before any step, "last" the latest)
    # and the statuses the claim goes through: a stale step changes nothing
    ([("王编辑", "dismissed", "误报", ""), ("李编辑", "accepted", "", "")],
     ["dismissed", "dismissed"]),
    ([("王编辑", "dismissed", "误报", ""), ("李编辑", "accepted", "", "last")],
     ["dismissed", "accepted"]),
    ([("王编辑", "accepted", "", None), ("李编辑", "corrected", "", None)],
     ["accepted", "corrected"]),
]
# fmt: on


@pytest.mark.parametrize(("steps", "statuses"), STEPS)
def test_a_step_on_a_stale_version_is_refused(reviewed: Store, steps: list[tuple[str, str, str, str | None]],
                                              statuses: list[str]) -> None:
    seen = []
    for editor, status, note, version in steps:
        if version == "last":
            version = reviewed.version("a.md-bw")
        try:
            correction = "显存带宽为 3.35TB/s" if status == "corrected" else ""
            reviewed.decide_versioned([("a.md-bw", version)], status, editor, note, correction)
        except StaleDecision as stale:
            (conflict,) = stale.conflicts
            assert conflict.current == reviewed.version("a.md-bw") and conflict.since
        seen.append(reviewed.decisions()["a.md-bw"].status)
    assert seen == statuses


def test_a_bulk_decision_is_one_transaction(reviewed: Store) -> None:
    reviewed.decide_versioned([("b.md-mi", "")], "accepted", "李编辑")
    with pytest.raises(StaleDecision) as refused:
        reviewed.decide_versioned([("a.md-mi", ""), ("b.md-mi", "")], "dismissed", "王编辑", "代工方")
    assert [c.claim_id for c in refused.value.conflicts] == ["b.md-mi"]
    assert {k: d.status for k, d in reviewed.decisions().items()} == {"b.md-mi": "accepted"}
    with pytest.raises(UsageError, match="between 1 and"):
        reviewed.decide_versioned([], "accepted", "王编辑")
    with pytest.raises(UsageError, match="between 1 and"):
        reviewed.decide_versioned([("a.md-mi", None)] * (MAX_BATCH + 1), "accepted", "王编辑")
    events = reviewed.decide_versioned([("a.md-mi", ""), ("b.md-mi", reviewed.version("b.md-mi"))], "dismissed",
                                       "王编辑", "代工方")
    assert [(e.claim_id, e.from_status, e.to_status) for e in events] == [
        ("a.md-mi", "open", "dismissed"), ("b.md-mi", "accepted", "dismissed")]
    assert [r["event_id"] for r in journal.read(reviewed.journal)][-2:] == [e.event_id for e in events]


def test_undo_chains_and_a_rename_step_is_not_undone(reviewed: Store) -> None:
    (a,) = reviewed.decide_versioned([("a.md-bw", "")], "dismissed", "王编辑", "口径不同")
    (b,) = reviewed.decide_versioned([("a.md-bw", a.event_id)], "corrected", "李编辑", correction="3.35TB/s")
    (u,) = reviewed.undo([("a.md-bw", b.event_id)], "李编辑")
    assert (u.from_status, u.to_status, u.note, u.kind) == ("corrected", "dismissed", "口径不同", "undo")
    (uu,) = reviewed.undo([("a.md-bw", u.event_id)], "李编辑")  # undoing the undo puts the correction back
    assert (uu.to_status, uu.correction) == ("corrected", "3.35TB/s")
    assert len(reviewed.history("a.md-bw")) == 4
    with pytest.raises(StaleDecision):
        reviewed.undo([("a.md-bw", b.event_id)], "李编辑")
    with pytest.raises(StaleDecision):
        reviewed.undo([("a.md-mi", "")], "李编辑")  # nothing decided: nothing to undo

    # the article is renamed: the decision follows its claim with a "moved" step, which is not an editor's
    reviewed.decide("b.md-fp", "dismissed", "王编辑", "第三方数据")
    reviewed.mark_deleted(["a.md"])  # b.md is gone from the corpus ...
    renamed = tuple(c.__class__(**{**c.__dict__, "doc_id": "2024/b.md", "claim_id": "new-" + c.claim_id})
                    for c in gpu_claims("b.md"))
    reviewed.save_result(2, make_result("2024/b.md", renamed), REF, PIPE)  # ... and back, renamed
    moved = reviewed.history("new-b.md-fp")[-1]
    assert moved.kind == "moved" and reviewed.version("new-b.md-fp") == moved.event_id
    with pytest.raises(NotUndoable):
        reviewed.undo([("new-b.md-fp", moved.event_id)], "王编辑")
    assert reviewed.decisions()["new-b.md-fp"].status == "dismissed"
