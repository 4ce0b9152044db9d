"""Claim extraction and checking on sentences written for the tests (none comes from the seed or dev articles): the
spec table, qualifiers, number forms, offsets, claim ids, tables and whatever belongs to no one extraction module.

Every case asserts the complete list of claims of its text (``rows``), so a missing or extra claim fails it."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.api import analyse, check_text
from pipeline.ingest import read_document
from tests.claim_helpers import SYS, C, M, P, S, U, claims_for, find, rows

# fmt: off
SPEC_CASES = [
    ("H100 SXM5拥有16896个CUDA核心。", [("16896个", "cuda_cores", "nvidia_h100", P, S)]),
    ("H100 SXM5拥有18000个CUDA核心。", [("18000个", "cuda_cores", "nvidia_h100", P, C)]),
    ("这块RTX 4090配备了24GB的GDDR6X显存。", [("24GB", "memory_size", "nvidia_rtx_4090", P, S),
                                        ("GDDR6X", "memory_type", "nvidia_rtx_4090", P, S)]),
    ("这块RTX 4090配备了32GB的GDDR7显存。", [("32GB", "memory_size", "nvidia_rtx_4090", P, C),
                                       ("GDDR7", "memory_type", "nvidia_rtx_4090", P, C)]),
    ("MI300X的显存带宽为5.3TB/s。", [("5.3TB/s", "memory_bandwidth", "amd_mi300x", P, S)]),
    ("T4的整卡功耗为70W，显存带宽为320GB/s。", [("70W", "tdp", "nvidia_t4", P, S),
                                        ("320GB/s", "memory_bandwidth", "nvidia_t4", P, S)]),
    ("L40S基于Ada Lovelace架构。", [("Ada Lovelace", "architecture", "nvidia_l40s", P, S)]),
    ("L40S基于Hopper架构。", [("Hopper", "architecture", "nvidia_l40s", P, C)]),
    ("V100采用GV100核心。", [("GV100", "gpu_chip", "nvidia_tesla_v100", P, S)]),
    ("RX 6900 XT拥有5120个流处理器。", [("5120个", "stream_processors", "amd_rx_6900_xt", P, S)]),
    ("RTX 4090的L2缓存为72MB。", [("72MB", "cache_size", "nvidia_rtx_4090", P, S)]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), SPEC_CASES)
def test_spec_claims(text: str, expected: list[tuple[str, ...]]) -> None:
    cs = claims_for(text)
    assert rows(cs) == expected
    for c in cs:
        assert c.check is not None and c.check.explanation
        if c.verdict is not None and c.verdict.is_flag:
            assert c.check.expected and c.check.source and c.check.source.startswith("http")


# fmt: off
QUALIFIER_CASES = [
    # text, [(text, attribute, subject, scope, verdict, qualifier)]
    ("H200的显存最高可达141GB。",           [("可达141GB", "memory_size", "nvidia_h200", P, S, "up_to")]),
    ("RTX 4090显存带宽高达1.5TB/s。",       [("高达1.5TB/s", "memory_bandwidth", "nvidia_rtx_4090", P, C, "up_to")]),
    ("L4的功耗约70W。",                    [("约70W", "tdp", "nvidia_l4", P, S, "approx")]),
    ("L4的功耗约40W。",                    [("约40W", "tdp", "nvidia_l4", P, C, "approx")]),
    ("H100 SXM5拥有超过15000个CUDA核心。",   [("超过15000个", "cuda_cores", "nvidia_h100", P, S, "at_least")]),
    ("T4拥有超过500个Tensor Core。",        [("超过500个", "tensor_cores", "nvidia_t4", P, C, "at_least")]),
    ("T4的功耗不到80W。",                  [("不到80W", "tdp", "nvidia_t4", P, S, "at_most")]),
    ("H100 SXM5的功耗低于500W。",           [("低于500W", "tdp", "nvidia_h100", P, C, "at_most")]),
    ("A100的显存有40GB到80GB两种。",        [("40GB到80GB", "memory_size", "nvidia_a100", P, S, "range")]),
    ("A100的显存有40GB或96GB两种。",        [("40GB或96GB", "memory_size", "nvidia_a100", P, C, "range")]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), QUALIFIER_CASES)
def test_qualifiers(text: str, expected: list[tuple[str, ...]]) -> None:
    assert rows(claims_for(text), "qualifier") == expected


def test_number_forms_chinese_numeral_fullwidth_traditional() -> None:
    cs = claims_for("H100 SXM5拥有一万六千八百九十六个CUDA核心，記憶體容量８０ＧＢ，頻寬達到３．３５ＴＢ/ｓ。")
    assert rows(cs, "value") == [("一万六千八百九十六个", "cuda_cores", "nvidia_h100", P, S, 16896),
                                 ("８０ＧＢ", "memory_size", "nvidia_h100", P, S, 80),
                                 ("３．３５ＴＢ/ｓ", "memory_bandwidth", "nvidia_h100", P, S, 3350)]


def test_bits_for_bytes_is_a_unit_slip() -> None:
    cs = claims_for("L4的显存带宽为300Gb/s。")
    assert rows(cs, "value") == [("300Gb/s", "memory_bandwidth", "nvidia_l4", P, C, 37.5)]
    assert "Gb/s" in cs[0].check.explanation  # type: ignore[union-attr]


# fmt: off
# a flag's explanation in full, each next to its control
EXPLANATION_CASES = [
    # a series names its members' architecture (it read "None 架构" when the owner was not one product)
    ("RX 6000系列支持Tensor Core。", [("支持Tensor Core", "tensor_cores", "amd_rx_6000", P, C,
        "Radeon RX 6000 series没有 Tensor Core（RDNA 2 架构不具备），文中“支持Tensor Core”不正确。")]),
    ("P40支持Tensor Core。", [("支持Tensor Core", "tensor_cores", "nvidia_tesla_p40", P, C,
        "NVIDIA Tesla P40没有 Tensor Core（Pascal 架构不具备），文中“支持Tensor Core”不正确。")]),
    # a range that is the effective bandwidth is written as a range (it read "[1600.0, 1700.0] GB/s")
    ("RX 6800 XT的显存带宽为1600-1700GB/s。", [("1600-1700GB/s", "memory_bandwidth", "amd_rx_6800_xt", P, C,
        "AMD Radeon RX 6800 XT的显存带宽应为512 GB/s，文中“1600-1700GB/s”不正确（1600–1700 GB/s 是厂商宣称的借助 "
        "Infinity Cache 的“有效带宽”，不是显存原始带宽）。")]),
    ("RX 6800 XT的显存带宽为1664GB/s。", [("1664GB/s", "memory_bandwidth", "amd_rx_6800_xt", P, C,
        "AMD Radeon RX 6800 XT的显存带宽应为512 GB/s，文中“1664GB/s”不正确（1664 GB/s 是厂商宣称的借助 "
        "Infinity Cache 的“有效带宽”，不是显存原始带宽）。")]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), EXPLANATION_CASES)
def test_explanation(text: str, expected: list[tuple[str, ...]]) -> None:
    assert rows(claims_for(text), "explanation") == expected


def test_negated_statement_is_not_flagged() -> None:
    # HBM3 is denied (no claim); the type it does use is checked
    assert rows(claims_for("L40S并不是HBM3显存的产品，它用的是GDDR6。")) == [
        ("GDDR6", "memory_type", "nvidia_l40s", P, S)]


@pytest.mark.parametrize(("text", "expected"), [
    # the right figure of another card the article names is misattributed; with no such card, just contradicted
    ("A30和A100都很常见。A30拥有6912个CUDA核心。", [("6912个", "cuda_cores", "nvidia_a30", P, M)]),
    ("A30拥有6912个CUDA核心。", [("6912个", "cuda_cores", "nvidia_a30", P, C)]),
])
def test_misattribution_needs_the_other_card_in_the_article(text: str, expected: list[tuple[str, ...]]) -> None:
    assert rows(claims_for(text)) == expected


def test_series_claim_holds_if_a_member_fits() -> None:
    cs = claims_for("AMD的RX 6000系列显存带宽最高为512GB/s。另外RX 6000系列的显存带宽达到了2TB/s。")
    assert rows(cs) == [("AMD", "manufacturer", "amd_rx_6000", P, S),
                        ("最高为512GB/s", "memory_bandwidth", "amd_rx_6000", P, S),
                        ("2TB/s", "memory_bandwidth", "amd_rx_6000", P, C)]


def test_flag_covers_only_the_false_part() -> None:
    assert rows(claims_for("RX 6800采用Infinity Cache技术，显存带宽达到了900GB/s。")) == [
        ("采用Infinity Cache", "supports", "amd_rx_6800", P, S), ("900GB/s", "memory_bandwidth", "amd_rx_6800", P, C)]


def test_offsets_and_text_match_source() -> None:
    text = "RTX 4090配备24GB显存。\r\n它的功耗为450W。"
    cs = claims_for(text)
    assert rows(cs) == [("24GB", "memory_size", "nvidia_rtx_4090", P, S), ("450W", "tdp", "nvidia_rtx_4090", P, S)]
    assert [text[c.start:c.end] for c in cs] == ["24GB", "450W"]


def test_claim_ids_stable_and_unique() -> None:
    text = "H100 SXM5拥有16896个CUDA核心和528个Tensor Core。"
    a, b = claims_for(text), claims_for("前言。\n" + text)
    assert rows(a) == rows(b) == [("16896个", "cuda_cores", "nvidia_h100", P, S),
                                  ("528个", "tensor_cores", "nvidia_h100", P, S)]
    assert len({c.claim_id for c in a}) == len(a)
    assert {c.claim_id for c in a} == {c.claim_id for c in b}
    # an edit after the claim, in the same sentence, keeps its id; a change of the claim's text does not
    edited = claims_for("H100 SXM5拥有16896个CUDA核心和528个Tensor Core，性能很强。")
    assert find(a, "16896").claim_id == find(edited, "16896").claim_id
    changed = claims_for("H100 SXM5拥有16890个CUDA核心和528个Tensor Core。")
    assert find(a, "16896").claim_id != find(changed, "16890").claim_id


def test_markdown_table_cells(tmp_path: Path, ref) -> None:  # type: ignore[no-untyped-def]
    md = tmp_path / "t.md"
    md.write_text(
        "# 两张卡\n\n| 型号 | CUDA核心 | 显存 | 带宽 |\n|---|---|---|---|\n"
        "| H100 SXM5 | 16896 | 80GB | 3.35 TB/s |\n| L4 | 7424 | 24GB | 500 GB/s |\n", encoding="utf-8")
    doc = read_document(md, tmp_path)
    claims, _ = analyse(doc, ref)
    assert rows(claims) == [("两张", "figure", "", P, "unverifiable"),  # the heading's count of cards, recorded
                            ("16896", "cuda_cores", "nvidia_h100", P, S),
                            ("80GB", "memory_size", "nvidia_h100", P, S),
                            ("3.35 TB/s", "memory_bandwidth", "nvidia_h100", P, S),
                            ("7424", "cuda_cores", "nvidia_l4", P, S),
                            ("24GB", "memory_size", "nvidia_l4", P, S),
                            ("500 GB/s", "memory_bandwidth", "nvidia_l4", P, C)]
    assert all(doc.text[c.start:c.end] == c.text for c in claims)


def test_html_table_column_subjects(tmp_path: Path, ref) -> None:  # type: ignore[no-untyped-def]
    page = tmp_path / "t.html"
    page.write_text(
        "<html><body><nav>首页</nav><article><h1>对比</h1><table>"
        "<tr><th>项目</th><th>A100 40GB</th><th>H100 SXM5</th></tr>"
        "<tr><td>显存带宽</td><td>2039 GB/s</td><td>3350 GB/s</td></tr>"
        "<tr><td>TDP</td><td>400 W</td><td>700 W</td></tr>"
        "</table></article></body></html>", encoding="utf-8")
    doc = read_document(page, tmp_path)
    claims, _ = analyse(doc, ref)
    # 2039 GB/s is the 80GB card's figure; the 40GB card has 1555
    assert rows(claims) == [("2039 GB/s", "memory_bandwidth", "nvidia_a100", P, C),
                            ("3350 GB/s", "memory_bandwidth", "nvidia_h100", P, S),
                            ("400 W", "tdp", "nvidia_a100", P, S),
                            ("700 W", "tdp", "nvidia_h100", P, S)]


@pytest.mark.parametrize(("text", "expected"), [
    ("A30于二〇二一年发布。", [("二〇二一年", "launch_year", "nvidia_a30", P, S, 2021)]),
    ("A30于二零一九年发布。", [("二零一九年", "launch_year", "nvidia_a30", P, C, 2019)]),
])
def test_year_in_chinese_digits(text: str, expected: list[tuple[object, ...]]) -> None:
    assert rows(claims_for(text), "value") == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("MI50擁有3840個串流處理器。", [("3840個", "stream_processors", "amd_mi50", P, S, 3840)]),
    ("MI300X的FP8算力高达2.6 PFLOPS。", [("高达2.6 PFLOPS", "fp8", "amd_mi300x", P, S, 2600)]),
    ("A100的FP32算力为19500 GFLOPS。", [("19500 GFLOPS", "fp32", "nvidia_a100", P, S, 19.5)]),
])
def test_more_unit_and_term_forms(text: str, expected: list[tuple[object, ...]]) -> None:
    assert rows(claims_for(text), "value") == expected


TABLE_WITH_MORE_COLUMNS = """# 对比

| 型号 | 位宽 | FP32算力 | 无限缓存 | L2缓存 |
|---|---|---|---|---|
| RX 6700 XT | 192bit | 13.22 TFLOPS | 3MB | 3MB |
| RTX A6000 | 384bit | 45 TFLOPS | - | 6MB |
"""


def test_table_columns_for_bus_width_throughput_and_which_cache() -> None:
    assert rows(check_text(TABLE_WITH_MORE_COLUMNS, doc_id="t.md"), "detail") == [
        ("192bit", "memory_bus_width", "amd_rx_6700_xt", P, S, None),
        ("13.22 TFLOPS", "fp32", "amd_rx_6700_xt", P, S, None),
        ("3MB", "cache_size", "amd_rx_6700_xt", P, C, "Infinity Cache"),  # 96MB, not 3MB
        ("3MB", "cache_size", "amd_rx_6700_xt", P, S, "L2"),
        ("384bit", "memory_bus_width", "nvidia_rtx_a6000", P, S, None),
        ("45 TFLOPS", "fp32", "nvidia_rtx_a6000", P, C, None),  # 38.7 TFLOPS
        ("6MB", "cache_size", "nvidia_rtx_a6000", P, S, "L2"),
    ]


def test_markdown_emphasis_does_not_hide_a_claim() -> None:
    cs = check_text("RTX 4090 拥有 **16384** 个 CUDA 核心，显存 **24GB**。\n", doc_id="x.md")
    assert rows(cs, "value") == [("16384** 个", "cuda_cores", "nvidia_rtx_4090", P, S, 16384),
                                 ("24GB", "memory_size", "nvidia_rtx_4090", P, S, 24)]


# fmt: off
NEWS_AND_REVIEW_CASES = [
    # 互连 as well as 互联
    ("H100 SXM5的GPU互连带宽为900GB/s。", [("900GB/s", "interconnect_bandwidth", "nvidia_h100", P, S)]),
    # a DGX is eight GPUs; HGX H200 is 8 × 141GB, in binary terabytes
    ("DGX H100的总显存为640GB。",         [("640GB", "memory_size", "nvidia_h100", SYS, S)]),
    ("HGX H200总显存达1.1TB。",          [("1.1TB", "memory_size", "nvidia_h200", SYS, S)]),
    # a narrow range around the one figure; a range wider than the card's configurable span
    ("T4的功耗为70-75W。",               [("70-75W", "tdp", "nvidia_t4", P, S)]),
    ("A2的TDP为40-70W。",                [("40-70W", "tdp", "nvidia_a2", P, C)]),
    # 3276.8 GB/s cut at the written digit; 4.8 TB/s is one written digit off 4.7
    ("MI250X的显存带宽为3.2TB/s。",       [("3.2TB/s", "memory_bandwidth", "amd_mi250x", P, S)]),
    ("H200的显存带宽为4.7TB/s。",         [("4.7TB/s", "memory_bandwidth", "nvidia_h200", P, C)]),
    ("H200 NVL的功耗上限为350W。",        [("350W", "tdp", "nvidia_h200", P, C)]),
    ("RTX 4090的记忆体汇流排宽度为384-bit。", [("384-bit", "memory_bus_width", "nvidia_rtx_4090", P, S)]),
    # a chip name is no unknown card: the figures stay the RTX 5090's
    ("RTX 5090采用GB203核心，配备24GB GDDR7显存。", [("GB203", "gpu_chip", "nvidia_rtx_5090", P, C),
                                             ("24GB", "memory_size", "nvidia_rtx_5090", P, C),
                                             ("GDDR7", "memory_type", "nvidia_rtx_5090", P, S)]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), NEWS_AND_REVIEW_CASES)
def test_news_and_review_forms(text: str, expected: list[tuple[str, ...]]) -> None:
    assert rows(claims_for(text)) == expected


CARDS_IN_THE_SECOND_COLUMN = """# 云上价格

| 平台 | 机型 | 单卡显存 | 价格 |
|---|---|---|---|
| 平台A | 8×H100 SXM5 | 96GB HBM3 | 2.49 美元 |
| 平台B | A100 80GB | 80GB | 1.2 美元 |
"""


def test_table_whose_cards_are_not_in_the_first_column() -> None:
    assert rows(check_text(CARDS_IN_THE_SECOND_COLUMN, doc_id="t.md")) == [
        ("96GB", "memory_size", "nvidia_h100", P, C),  # 单卡: the per-card figure, not the eight cards'
        ("HBM3", "memory_type", "nvidia_h100", P, S),
        ("2.49 美元", "figure", "nvidia_h100", P, U),  # a price: recorded, never judged
        ("80GB", "memory_size", "nvidia_a100", P, S),
        ("1.2 美元", "figure", "nvidia_a100", P, U),
    ]
