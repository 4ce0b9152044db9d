"""The records' helpers: ``evolve`` (a cheap ``dataclasses.replace``) and a result's counts, flags and verdict."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from pipeline.records import Check, Claim, DocumentResult, Status, Verdict, evolve

S, C, M, U, X = (Verdict.SUPPORTED, Verdict.CONTRADICTED, Verdict.MISATTRIBUTED, Verdict.UNVERIFIABLE,
                 Verdict.CODE_ISSUE)


def _claim(verdict: Verdict | None = None, n: int = 0) -> Claim:
    check = Check(verdict, "说明") if verdict is not None else None
    return Claim("d.md", n, n + 4, "24GB", "某卡配备了24GB显存。", 0, "card", "某卡", "memory_size", 24, "GB",
                 check=check, extra={"via": "clause"})


# fmt: off
EVOLVE_CASES: list[dict[str, Any]] = [
    {},
    {"check": Check(S, "对")},
    {"claim_id": "abc"},
    {"claim_id": "abc", "check": Check(C, "错"), "value": 16},
    {"extra": {}},
]
# fmt: on


@pytest.mark.parametrize("changes", EVOLVE_CASES)
def test_evolve_is_replace(changes: dict[str, Any]) -> None:
    original = _claim(U)
    got, want = evolve(original, **changes), replace(original, **changes)
    assert got == want
    assert got.__dict__ == want.__dict__  # extra too (it is not compared)
    assert got is not original
    assert original == _claim(U)  # the original is left as it was


def test_evolve_refuses_unknown_fields() -> None:
    with pytest.raises(TypeError, match="verdict"):
        evolve(_claim(), verdict=S)


def test_evolve_drops_what_a_result_has_cached() -> None:
    result = DocumentResult("d.md", "d.md", "md", "", Status.OK, claims=(_claim(C),))
    assert result.flags == 1
    emptied = evolve(result, claims=())
    assert emptied.flags == 0 and emptied.counts()[C.value] == 0
    assert emptied == replace(result, claims=())


# fmt: off
TALLY_CASES: list[tuple[tuple[Verdict | None, ...], Status, dict[str, int], int, str]] = [
    ((),                  Status.OK,      {},                      0, "可信"),
    ((S, U, None),        Status.OK,      {"supported": 1, "unverifiable": 1}, 0, "可信"),
    ((C,),                Status.OK,      {"contradicted": 1},     1, "需修正"),
    ((X,),                Status.OK,      {"code_issue": 1},       1, "需修正"),
    ((C, C, S),           Status.OK,      {"contradicted": 2, "supported": 1}, 2, "需修正"),
    ((C, C, C),           Status.OK,      {"contradicted": 3},     3, "严重错误"),
    ((M,),                Status.OK,      {"misattributed": 1},    1, "严重错误"),
    ((X, X, X, U),        Status.OK,      {"code_issue": 3, "unverifiable": 1}, 3, "需修正"),
    ((C,),                Status.ERROR,   {"contradicted": 1},     1, "未检查"),
    ((),                  Status.SKIPPED, {},                      0, "未检查"),
]
# fmt: on


@pytest.mark.parametrize(("verdicts", "status", "counts", "flags", "verdict"), TALLY_CASES)
def test_counts_flags_and_verdict(verdicts: tuple[Verdict | None, ...], status: Status, counts: dict[str, int],
                                  flags: int, verdict: str) -> None:
    result = DocumentResult("d.md", "d.md", "md", "", status,
                            claims=tuple(_claim(v, n) for n, v in enumerate(verdicts)))
    assert result.counts() == {v.value: counts.get(v.value, 0) for v in Verdict}
    assert result.flags == flags
    assert result.document_verdict() == verdict
    assert result.to_dict()["counts"] == result.counts() and result.to_dict()["flags"] == flags
    result.counts()["supported"] = 99  # a caller's copy: the result's own counts stay as they are
    assert result.counts()["supported"] == counts.get("supported", 0)
