"""Comparisons between named products (pipeline/extract/relative.py, pipeline/check/relative.py), on sentences
written for the tests: each case asserts the sentence's complete claim list with the comparison's value, its
target and the expected value computed from both products' rows. True and false cases in equal measure."""

from __future__ import annotations

import pytest

from pipeline.records import Reason, Verdict
from tests.claim_helpers import claims_for, find, rows

FIELDS = ("value", "target", "expected")
H100, A100, RTX4090, RTX3090 = "nvidia_h100", "nvidia_a100", "nvidia_rtx_4090", "nvidia_rtx_3090"
A100_80 = ("80GB", "memory_size", A100, "product", "supported", 80, None, "80 GB")

# fmt: off
RATIO = [
    # an exact multiple within 5%, a whole multiple (rounded by writers) within 10%, 约 within 10%
    ("H100 SXM5的显存带宽是A100 80GB SXM4的1.6倍。",
     [("是A100 80GB SXM4的1.6倍", "ratio", H100, "product", "supported", 1.6, A100, "3350 ÷ 2039 ≈ 1.64倍"),
      A100_80]),
    ("H100 SXM5的显存带宽是A100 80GB SXM4的两倍。",
     [("是A100 80GB SXM4的两倍", "ratio", H100, "product", "contradicted", 2, A100, "3350 ÷ 2039 ≈ 1.64倍"),
      A100_80]),
    ("RTX 4090的显存带宽约为RTX 3090的1.1倍。",
     [("约为RTX 3090的1.1倍", "ratio", RTX4090, "product", "supported", 1.1, RTX3090, "1008 ÷ 936 ≈ 1.08倍")]),
    # 多: at least; the direction always
    ("RTX 4090的CUDA核心数是RTX 3090的两倍多。",
     [("是RTX 3090的两倍多", "ratio", RTX4090, "product", "contradicted", 2, RTX3090, "16384 ÷ 10496 ≈ 1.56倍")]),
    ("L4的功耗不到RTX 4090的一半。",
     [("不到RTX 4090的一半", "ratio", "nvidia_l4", "product", "supported", 0.5, RTX4090, "72 ÷ 450 ≈ 0.16倍")]),
    ("T4的显存只有RTX 4090的一半。",
     [("只有RTX 4090的一半", "ratio", "nvidia_t4", "product", "contradicted", 0.5, RTX4090, "16 ÷ 24 ≈ 0.67倍")]),
    # percentages and 成
    ("H200的显存带宽比H100 SXM5提升了43%。",
     [("比H100 SXM5提升了43%", "ratio", "nvidia_h200", "product", "supported", 1.43, H100, "4800 ÷ 3350 ≈ +43%")]),
    ("H200的显存带宽比H100 SXM5高出80%。",
     [("比H100 SXM5高出80%", "ratio", "nvidia_h200", "product", "contradicted", 1.8, H100, "4800 ÷ 3350 ≈ +43%")]),
    ("RTX 4080 SUPER的显存带宽比RTX 4080高出不到一成。",
     [("比RTX 4080高出不到一成", "ratio", "nvidia_rtx_4080_super", "product", "supported", 1.1, "nvidia_rtx_4080",
       "736 ÷ 716.8 ≈ +3%")]),
    # negation
    ("RTX 4090的显存带宽并不是RTX 3090的两倍。",
     [("并不是RTX 3090的两倍", "ratio", RTX4090, "product", "supported", 2, RTX3090, "1008 ÷ 936 ≈ 1.08倍")]),
    ("RTX 4090的CUDA核心数并不是RTX 3090的1.5倍。",
     [("并不是RTX 3090的1.5倍", "ratio", RTX4090, "product", "contradicted", 1.5, RTX3090,
       "16384 ÷ 10496 ≈ 1.56倍")]),
    # "提高了2倍" reads as 2x or 3x
    ("H100 SXM5的FP16算力比A100提高了2倍。",
     [("比A100提高了2倍", "ratio", H100, "product", "supported", 2, A100, "约3.17倍")]),
    ("L4的显存带宽约为T4的两倍。",
     [("约为T4的两倍", "ratio", "nvidia_l4", "product", "contradicted", 2, "nvidia_t4", "视版本为0.94倍至1倍")]),
    ("RTX 4090的显存是T4的两倍。",
     [("是T4的两倍", "ratio", RTX4090, "product", "contradicted", 2, "nvidia_t4", "24 ÷ 16 ≈ 1.5倍")]),
]

DIFFERENCE = [
    ("RTX 4090的CUDA核心比RTX 3090多5888个。",
     [("比RTX 3090多5888个", "difference", RTX4090, "product", "supported", 5888, RTX3090, "16384 − 10496 = 5888")]),
    ("RTX 4090比RTX 3090多6000个CUDA核心。",
     [("比RTX 3090多6000个", "difference", RTX4090, "product", "contradicted", 6000, RTX3090,
       "16384 − 10496 = 5888")]),
    ("H200的显存比H100 SXM5多出约60GB。",
     [("比H100 SXM5多出约60GB", "difference", "nvidia_h200", "product", "supported", 60, H100, "141 − 80 = 61 GB")]),
    # the direction always: 4090 draws 100W more, not less
    ("RTX 4090的功耗比RTX 3090低100W。",
     [("比RTX 3090低100W", "difference", RTX4090, "product", "contradicted", -100, RTX3090, "450 − 350 = 100 W")]),
    ("RTX 4080的显存比RTX 4090少8GB。",
     [("比RTX 4090少8GB", "difference", "nvidia_rtx_4080", "product", "supported", -8, RTX4090, "16 − 24 = −8 GB")]),
    ("RTX 4080的显存比RTX 4090多8GB。",
     [("比RTX 4090多8GB", "difference", "nvidia_rtx_4080", "product", "contradicted", 8, RTX4090,
       "16 − 24 = −8 GB")]),
]

SAME_AS = [
    ("RTX 4090的显存容量与RTX 3090相同。",
     [("与RTX 3090相同", "same_as", RTX4090, "product", "supported", None, RTX3090,
       "NVIDIA GeForce RTX 4090：24 GB；NVIDIA GeForce RTX 3090：24 GB")]),
    ("RTX 4080的显存容量和RTX 4090一样。",
     [("和RTX 4090一样", "same_as", "nvidia_rtx_4080", "product", "contradicted", None, RTX4090,
       "NVIDIA GeForce RTX 4080：16 GB；NVIDIA GeForce RTX 4090：24 GB")]),
    # the figure stated is the other card's: a substitution
    ("RTX 4080和RTX 4090一样拥有24GB显存。",
     [("和RTX 4090一样", "same_as", "nvidia_rtx_4080", "product", "misattributed", 24, RTX4090,
       "NVIDIA GeForce RTX 4080：16 GB；NVIDIA GeForce RTX 4090：24 GB"),
      ("24GB", "memory_size", "nvidia_rtx_4080", "product", "contradicted", 24, None, "16 GB")]),
    # the figure stated is the owner's own, and the other card's differs: the sameness is wrong, not the figure
    ("RTX 3090 Ti有10752个CUDA核心（与RTX 3090相同）。",
     [("10752个", "cuda_cores", "nvidia_rtx_3090_ti", "product", "supported", 10752, None, "10752"),
      ("与RTX 3090相同", "same_as", "nvidia_rtx_3090_ti", "product", "contradicted", 10752, RTX3090,
       "NVIDIA GeForce RTX 3090 Ti：10752；NVIDIA GeForce RTX 3090：10496")]),
    ("A800沿用了A100的GA100芯片。",
     [("沿用了A100的", "same_as", "nvidia_a800", "product", "supported", None, A100,
       "NVIDIA A800：GA100；NVIDIA A100：GA100"),
      ("GA100", "gpu_chip", A100, "product", "supported", "GA100", None, "GA100")]),
    ("T4沿用了A100的芯片。",
     [("沿用了A100的芯片", "same_as", "nvidia_t4", "product", "misattributed", None, A100,
       "NVIDIA T4：TU104；NVIDIA A100：GA100")]),
    ("RTX 3090 Ti的显存容量与RTX 3090相同。",
     [("与RTX 3090相同", "same_as", "nvidia_rtx_3090_ti", "product", "supported", None, RTX3090,
       "NVIDIA GeForce RTX 3090 Ti：24 GB；NVIDIA GeForce RTX 3090：24 GB")]),
    ("H800继承了H100的架构。",
     [("继承了H100的架构", "same_as", "nvidia_h800", "product", "supported", None, H100,
       "NVIDIA H800：Hopper；NVIDIA H100：Hopper")]),
    # approximately the same; negation
    ("L4的功耗与T4基本持平。",
     [("与T4基本持平", "same_as", "nvidia_l4", "product", "supported", None, "nvidia_t4",
       "NVIDIA L4：72 W；NVIDIA T4：70 W")]),
    ("RTX 3090的显存容量与RTX 4090不一样。",
     [("与RTX 4090不一样", "same_as", RTX3090, "product", "contradicted", None, RTX4090,
       "NVIDIA GeForce RTX 3090：24 GB；NVIDIA GeForce RTX 4090：24 GB")]),
    ("RTX 4080的显存容量与RTX 4090不同。",
     [("与RTX 4090不同", "same_as", "nvidia_rtx_4080", "product", "supported", None, RTX4090,
       "NVIDIA GeForce RTX 4080：16 GB；NVIDIA GeForce RTX 4090：24 GB")]),
    ("H100 SXM5的显存带宽与A100 80GB SXM4相当。",
     [("与A100 80GB SXM4相当", "same_as", H100, "product", "contradicted", None, A100,
       "NVIDIA H100 SXM5：3350 GB/s；NVIDIA A100 80GB SXM4：2039 GB/s"), A100_80]),
]

ORDERING = [
    ("H100 SXM5的显存带宽高于A100。",
     [("高于A100", "ordering", H100, "product", "supported", ">", A100,
       "NVIDIA H100 SXM5：3350 GB/s；NVIDIA A100：1555–2039 GB/s")]),
    ("RTX 4090的显存带宽不如RTX 3090。",
     [("不如RTX 3090", "ordering", RTX4090, "product", "contradicted", "<", RTX3090,
       "NVIDIA GeForce RTX 4090：1008 GB/s；NVIDIA GeForce RTX 3090：936 GB/s")]),
    ("T4的显存比RTX 4090少。",
     [("比RTX 4090少", "ordering", "nvidia_t4", "product", "supported", "<", RTX4090,
       "NVIDIA T4：16 GB；NVIDIA GeForce RTX 4090：24 GB")]),
    ("RTX 3090的CUDA核心比RTX 4090多。",
     [("比RTX 4090多", "ordering", RTX3090, "product", "contradicted", ">", RTX4090,
       "NVIDIA GeForce RTX 3090：10496；NVIDIA GeForce RTX 4090：16384")]),
    # negation: 不比Y低 is at least as high
    ("T4的显存带宽并不比L4低。",
     [("并不比L4低", "ordering", "nvidia_t4", "product", "supported", "<", "nvidia_l4",
       "NVIDIA T4：300–320 GB/s；NVIDIA L4：300 GB/s")]),
    ("RTX 3090的显存带宽并不比RTX 4090低。",
     [("并不比RTX 4090低", "ordering", RTX3090, "product", "contradicted", "<", RTX4090,
       "NVIDIA GeForce RTX 3090：936 GB/s；NVIDIA GeForce RTX 4090：1008 GB/s")]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), RATIO)
def test_ratio(text: str, expected: list[tuple[object, ...]]) -> None:
    assert rows(claims_for(text), *FIELDS) == expected


@pytest.mark.parametrize(("text", "expected"), DIFFERENCE)
def test_difference(text: str, expected: list[tuple[object, ...]]) -> None:
    assert rows(claims_for(text), *FIELDS) == expected


@pytest.mark.parametrize(("text", "expected"), SAME_AS)
def test_same_as(text: str, expected: list[tuple[object, ...]]) -> None:
    assert rows(claims_for(text), *FIELDS) == expected


@pytest.mark.parametrize(("text", "expected"), ORDERING)
def test_ordering(text: str, expected: list[tuple[object, ...]]) -> None:
    assert rows(claims_for(text), *FIELDS) == expected


def test_the_tables_are_balanced() -> None:
    for table in (RATIO, DIFFERENCE, SAME_AS, ORDERING):
        verdicts = [row[4] for _text, claims in table for row in claims if row[1] in ("ratio", "difference",
                                                                                     "same_as", "ordering")]
        assert verdicts.count("supported") == len(verdicts) - verdicts.count("supported"), verdicts


# fmt: off
UNVERIFIABLE = [
    # a product the reference lacks, on either side
    ("RTX 3050 Ti的显存带宽是GTX 1650的1.7倍。", Reason.NOT_IN_REFERENCE),
    ("RTX 4090的显存带宽是GTX 1650的3倍。", Reason.NOT_IN_REFERENCE),
    # the owner is a guess (two cards, then a comparison that names neither)
    ("H100和A100都很常见。显存带宽是V100的十倍。", Reason.OWNER_UNCERTAIN),
    # a figure the reference lacks for one side
    ("RX 7900 XTX的有效带宽比RTX 4090高。", Reason.NO_REFERENCE_VALUE),
    # a multiple of no spec the tables keep: recorded, never judged
    ("RTX 4090比RTX 3090快七成。", Reason.UNDERSPECIFIED),  # speed is no spec of the tables
    ("RTX 4090的Tensor Core计算能力比RTX 3090高出一倍。", Reason.UNDERSPECIFIED),  # throughput, not the count
]
# fmt: on


@pytest.mark.parametrize(("text", "reason"), UNVERIFIABLE)
def test_what_cannot_be_compared_is_unverifiable_with_its_reason(text: str, reason: Reason) -> None:
    c = next(c for c in claims_for(text) if c.attribute in ("ratio", "ordering"))
    assert (c.verdict, c.check.reason if c.check else None) == (Verdict.UNVERIFIABLE, reason)


@pytest.mark.parametrize("text", [
    "L20的显存带宽低一些，其余规格与L40S相同。",  # the rest, not the figure named before
    "显存从A100的80GB提升到H200的141GB。",  # a change from one card to the other is not a comparison claim
    "与上一代相比，显存带宽提升了70%。",  # no product on the other side
])
def test_no_comparison_without_two_products(text: str) -> None:
    assert not [c for c in claims_for(text) if c.attribute in ("ratio", "difference", "same_as", "ordering")]


def test_the_explanation_an_editor_can_paste() -> None:
    c = find(claims_for("H100 SXM5的显存带宽是A100 80GB SXM4的两倍。"), "两倍", "ratio")
    assert c.check is not None and c.check.explanation == (
        "NVIDIA H100 SXM5的显存带宽为3350 GB/s，NVIDIA A100 80GB SXM4为2039 GB/s，3350 ÷ 2039 ≈ 1.64倍，"
        "不是文中所说的“是A100 80GB SXM4的两倍”。")
    assert c.to_dict()["target"] == A100


def test_variants_the_text_leaves_open_are_all_allowed() -> None:
    # A100 40GB (1555 GB/s) or 80GB (1935/2039 GB/s): 1.7-2.3x V100; "两倍" fits one of them
    c = find(claims_for("A100的显存带宽是V100的2倍。"), "2倍", "ratio")
    assert (c.verdict, c.check.expected if c.check else None) == (Verdict.SUPPORTED, "视版本为1.73倍至2.27倍")


def test_internal_inconsistency_is_still_noted_beside_comparisons() -> None:
    cs = claims_for("RTX 4090的显存带宽为1008GB/s，是RTX 3090的1.1倍。后文又说RTX 4090的显存带宽为936GB/s。")
    wrong = find(cs, "936GB/s")  # RTX 3090's figure, which the article names
    assert wrong.verdict is Verdict.MISATTRIBUTED and wrong.check is not None
    assert "前后不一致" in wrong.check.explanation
    assert find(cs, "1.1倍", "ratio").verdict is Verdict.SUPPORTED


def test_the_readme_table_of_what_is_computed() -> None:
    """Every row of README's "What is computed" table is what the pipeline does with its example."""
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("### What is computed", 1)[1].split("\n#", 1)[0]
    table = [line for line in section.splitlines() if line.startswith("| ") and "`" in line.split("|")[3]]
    assert len(table) >= 13
    for line in table:
        _kind, example, claim, verdict, expected = (cell.strip() for cell in line.strip("|").split("|"))
        attribute = claim.split("`")[1]
        hits = [c for c in claims_for(example) if c.attribute == attribute]
        assert hits, (example, attribute)
        got = [(c.verdict.value if c.verdict else "", c.check.expected if c.check else "") for c in hits]
        assert (verdict.strip("`"), expected.split(" (")[0]) in got, (example, got)
