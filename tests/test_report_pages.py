"""The per-document pages byte for byte (golden files made before the output stage was sped up), and the article
markup against a plain reference implementation."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from pipeline.records import Check, Claim, DocumentResult, Status, Verdict
from pipeline.report import write_document_report
from tests.test_report import (
    ARTICLE,
    CODED,
    REFERENCE_NAMES,
    article_result,
    coded_result,
    make_claim,
    other_results,
)

PAGES = Path(__file__).parent / "golden" / "pages"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
HOSTILE = '<b>&"x\'</b>'
TRADITIONAL = "輝達A100配備80GB顯示記憶體，頻寬高達每秒2TB。\n"


def hostile_result() -> tuple[DocumentResult, str]:
    text = f"{HOSTILE}\n某卡配备了24GB的HBM3显存{HOSTILE}，带宽高达1TB/s。\n"
    doc_id = f"../{HOSTILE}.txt"
    claims = (
        make_claim(text, "24GB", "h1", "memory_size", 24, "GB", Verdict.CONTRADICTED, doc_id=doc_id,
                   expected=HOSTILE, explanation=HOSTILE, source="javascript:alert(1)", source_title=HOSTILE),
        make_claim(text, f"HBM3显存{HOSTILE}", "h2", "memory_type", HOSTILE, None, Verdict.SUPPORTED,
                   doc_id=doc_id, source=f"https://example.com/?q={HOSTILE}", source_title=HOSTILE,
                   review={"status": "corrected", "editor": HOSTILE, "note": HOSTILE, "correction": HOSTILE}),
        make_claim(text, "1TB/s", "h3", "memory_bandwidth", 1, "TB/s", Verdict.UNVERIFIABLE, doc_id=doc_id,
                   source=" JAVASCRIPT:alert(1)", source_title=None),
    )
    return DocumentResult(doc_id, HOSTILE, "txt", "", Status.OK, title=HOSTILE, claims=claims), text


def traditional_result() -> tuple[DocumentResult, str]:
    claim = replace(make_claim(TRADITIONAL, "每秒2TB", "t1", "memory_bandwidth", 2000, "GB/s",
                               Verdict.CONTRADICTED, doc_id="tw.md", expected="1555 GB/s",
                               explanation="NVIDIA A100的显存带宽应为1555 GB/s，文中不正确。"),
                    extra={"written_unit": "每秒TB"})
    return DocumentResult("tw.md", "corpus/tw.md", "md", "ab" * 32, Status.OK, claims=(claim,)), TRADITIONAL


def edge_result() -> tuple[DocumentResult, str]:
    """Adjacent, nested, identical, empty, reversed and out-of-range spans, and a key that is not an id."""
    text = "甲乙丙丁戊己庚辛壬癸\n子丑"
    spans = [(0, 2, Verdict.SUPPORTED), (2, 4, Verdict.CONTRADICTED), (1, 6, Verdict.UNVERIFIABLE),
             (3, 3, Verdict.SUPPORTED), (5, 4, Verdict.MISATTRIBUTED), (8, 99, Verdict.CODE_ISSUE),
             (2, 4, Verdict.CONTRADICTED), (6, 9, None)]
    claims = tuple(Claim("e.txt", s, e, text[s:e], text, 0, None, None, "memory_size", 1, "GB",
                         check=Check(v, "说明") if v else None, claim_id="c 1" if i == 6 else f"k{i}")
                   for i, (s, e, v) in enumerate(spans))
    return DocumentResult("e.txt", "corpus/e.txt", "txt", "ab" * 32, Status.OK, claims=claims), text


CASES = {
    "article": lambda: (article_result(), ARTICLE, None),
    "coded": lambda: (coded_result(), CODED, lambda i: REFERENCE_NAMES.get(i, i)),
    "hostile": lambda: (*hostile_result(), None),
    "traditional": lambda: (*traditional_result(), None),
    "edges": lambda: (*edge_result(), None),
    "ok": lambda: (other_results()[0], "该卡采用GDDR6显存。", None),
    "skipped": lambda: (other_results()[2], "", None),
    "error": lambda: (other_results()[3], "", None),
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("ext", ["md", "html", "json"])
def test_document_pages_match_golden(case: str, ext: str, tmp_path: Path) -> None:
    result, text, names = CASES[case]()
    files = write_document_report(result, text, tmp_path, names=names)
    actual = (tmp_path / files[ext]).read_bytes()
    golden = PAGES / f"{case}.{ext}"
    if UPDATE:
        PAGES.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(actual)
    assert golden.exists(), f"missing golden file {golden}; run with UPDATE_GOLDEN=1 to create it"
    assert actual == golden.read_bytes()
