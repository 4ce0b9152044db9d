"""A figure's labels as claims of their own (pipeline/extract/labels.py, pipeline/check/labels.py), claims judged
at the article's date (pipeline/extract/timely.py, pipeline/check/timely.py) and launch-day figures later revised
(pipeline/check/revisions.py), on texts written for the tests. Each case asserts the complete claim list; true and
false cases in equal measure."""

from __future__ import annotations

import pytest

from pipeline.extract.timely import heading_date
from tests.claim_helpers import FAM, C, M, P, S, U, claims_for, rows

FIELDS = ("value", "reason")

# fmt: off
LABELS = [
    # precision: FP32's figure called FP16 where the CUDA cores run FP16 at another rate (GP104: 1:64)
    ("GTX 1080：8.9 TFLOPS (FP16)",
     [("8.9 TFLOPS", "fp16", "nvidia_gtx_1080", P, U, 8.9, "database_untrusted"),
      ("FP16", "figure_label", "nvidia_gtx_1080", P, C, "FP16", "")]),
    ("RTX 4090：82.6 TFLOPS (FP16)",  # AD102 runs FP16 at FP32's rate: the label is right
     [("82.6 TFLOPS", "fp16", "nvidia_rtx_4090", P, U, 82.6, "not_comparable"),
      ("FP16", "figure_label", "nvidia_rtx_4090", P, S, "FP16", "")]),
    ("A100：19.5 TFLOPS (TF32)",
     [("19.5 TFLOPS", "tf32", "nvidia_a100", P, M, 19.5, ""),
      ("TF32", "figure_label", "nvidia_a100", P, C, "TF32", "")]),
    ("A100：156 TFLOPS (TF32)",
     [("156 TFLOPS", "tf32", "nvidia_a100", P, S, 156, ""), ("TF32", "figure_label", "nvidia_a100", P, S, "TF32", "")]),
    # sparsity
    ("A100的FP16算力为312 TFLOPS（稠密）。",
     [("312 TFLOPS", "fp16", "nvidia_a100", P, S, 312, ""),
      ("稠密", "figure_label", "nvidia_a100", P, S, "dense", "")]),
    ("A100的FP16算力为624 TFLOPS（稠密）。",
     [("624 TFLOPS", "fp16", "nvidia_a100", P, M, 624, ""),
      ("稠密", "figure_label", "nvidia_a100", P, C, "dense", "")]),
    ("A100的FP16算力为624 TFLOPS（稀疏）。",
     [("624 TFLOPS", "fp16", "nvidia_a100", P, S, 624, ""),
      ("稀疏", "figure_label", "nvidia_a100", P, S, "sparse", "")]),
    # a throughput in a bandwidth's unit
    ("H20的FP16/BF16 性能 1 TB/s", [("1 TB/s", "figure_label", "nvidia_h20", P, C, "TB/s", "")]),
]

NEWEST = [
    ("Hopper是英伟达最新的数据中心架构。",
     [("Hopper是英伟达最新", "newest", "hopper", FAM, U, "hopper", "time_dependent")]),
    ("---\ndate: 2023-06-01\n---\n\nHopper是英伟达最新的数据中心架构。",
     [("Hopper是英伟达最新", "newest", "hopper", FAM, S, "hopper", "")]),
    ("---\ndate: 2025-06-01\n---\n\nHopper是英伟达最新的数据中心架构。",
     [("Hopper是英伟达最新", "newest", "hopper", FAM, C, "hopper", "")]),
    # a dated heading dates its section
    ("# 2023年5月的GPU笔记\n\nAmpere是英伟达最新的架构。",
     [("Ampere是英伟达最新", "newest", "ampere", FAM, C, "ampere", "")]),
    ("# 2021年5月的GPU笔记\n\nAmpere是英伟达最新的架构。",
     [("Ampere是英伟达最新", "newest", "ampere", FAM, S, "ampere", "")]),
    # the year a newer one launched: before or after the article, the table cannot say
    ("---\ndate: 2024-01-10\n---\n\nHopper是英伟达最新的数据中心架构。",
     [("Hopper是英伟达最新", "newest", "hopper", FAM, U, "hopper", "time_dependent")]),
]

ONLY_ONE = [
    ("Volta架构只有一款产品。", [("Volta架构只有一款", "only_one", "volta", FAM, C, "volta", "")]),
    ("Rubin架构只有一款产品。", [("Rubin架构只有一款", "only_one", "rubin", FAM, U, "rubin", "no_fact")]),
]

REVISED = [
    ("H100 SXM5的FP32算力为60 TFLOPS。", [("60 TFLOPS", "fp32", "nvidia_h100", P, C, 60, "")]),
    ("H100 SXM5的FP32算力为67 TFLOPS。", [("67 TFLOPS", "fp32", "nvidia_h100", P, S, 67, "")]),
]
# fmt: on


def _doc(text: str) -> str:
    return "t.md" if text.startswith(("#", "---")) else "t.txt"


@pytest.mark.parametrize(("text", "expected"), LABELS + NEWEST + ONLY_ONE + REVISED)
def test_claims(text: str, expected: list[tuple[object, ...]]) -> None:
    assert rows(claims_for(text, doc_id=_doc(text)), *FIELDS) == expected


@pytest.mark.parametrize(("table", "attribute"), [(LABELS, "figure_label"), (NEWEST, "newest"), (REVISED, "fp32")])
def test_the_tables_are_balanced(table: list[tuple[str, list[tuple[object, ...]]]], attribute: str) -> None:
    verdicts = [row[4] for _t, claims in table for row in claims if row[1] == attribute]
    assert verdicts.count(S) == verdicts.count(C), verdicts


def test_a_figure_in_its_own_unit_has_no_unit_label() -> None:
    """A unit label is only ever a wrong unit: its true twin is a throughput with no label claim at all."""
    assert [c.attribute for c in claims_for("H20的FP16/BF16 性能 148 TFLOPS")] == ["bf16", "fp16"]


def test_an_outdated_figure_names_both_figures_and_dates() -> None:
    claim = claims_for("H100 SXM5的FP32算力为60 TFLOPS。")[0]
    assert claim.check is not None and claim.check.expected == "67 TFLOPS"
    assert all(w in claim.check.explanation for w in ("60 TFLOPS", "67 TFLOPS", "2022-03", "2022-09", "已过时"))


def test_the_label_explanation_says_what_the_figure_is() -> None:
    label = next(c for c in claims_for("GTX 1080：8.9 TFLOPS (FP16)") if c.attribute == "figure_label")
    assert label.check is not None and "FP32" in label.check.explanation and "1:64" in label.check.explanation


@pytest.mark.parametrize(("heading", "date"), [
    ("## 2024年3月更新", "2024-03"), ("# 2023-05 显卡天梯", "2023-05"), ("## 截至2024年的GPU", "2024"),
    ("## RTX 4090 (2022)", None),  # a card's launch year is no date of the section
])
def test_heading_dates(heading: str, date: str | None) -> None:
    assert heading_date(heading) == date
