"""Claim extraction and checking on sentences written for the tests (none comes from the seed or dev articles): the
spec table, qualifiers, number forms, offsets, claim ids, tables and whatever belongs to no one extraction module."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.api import analyse, check_text
from pipeline.ingest import read_document
from pipeline.records import Qualifier, Verdict
from tests.claim_helpers import claims_for, find, flags

# fmt: off
SPEC_CASES = [
    # text, fragment, attribute, subject, verdict
    ("H100 SXM5拥有16896个CUDA核心。", "16896", "cuda_cores", "nvidia_h100", Verdict.SUPPORTED),
    ("H100 SXM5拥有18000个CUDA核心。", "18000", "cuda_cores", "nvidia_h100", Verdict.CONTRADICTED),
    ("这块RTX 4090配备了24GB的GDDR6X显存。", "24GB", "memory_size", "nvidia_rtx_4090", Verdict.SUPPORTED),
    ("这块RTX 4090配备了24GB的GDDR6X显存。", "GDDR6X", "memory_type", "nvidia_rtx_4090", Verdict.SUPPORTED),
    ("这块RTX 4090配备了32GB的GDDR7显存。", "32GB", "memory_size", "nvidia_rtx_4090", Verdict.CONTRADICTED),
    ("这块RTX 4090配备了32GB的GDDR7显存。", "GDDR7", "memory_type", "nvidia_rtx_4090", Verdict.CONTRADICTED),
    ("MI300X的显存带宽为5.3TB/s。", "5.3TB/s", "memory_bandwidth", "amd_mi300x", Verdict.SUPPORTED),
    ("T4的整卡功耗为70W，显存带宽为320GB/s。", "70W", "tdp", "nvidia_t4", Verdict.SUPPORTED),
    ("L40S基于Ada Lovelace架构。", "Ada Lovelace", "architecture", "nvidia_l40s", Verdict.SUPPORTED),
    ("L40S基于Hopper架构。", "Hopper", "architecture", "nvidia_l40s", Verdict.CONTRADICTED),
    ("V100采用GV100核心。", "GV100", "gpu_chip", "nvidia_tesla_v100", Verdict.SUPPORTED),
    ("RX 6900 XT拥有5120个流处理器。", "5120", "stream_processors", "amd_rx_6900_xt", Verdict.SUPPORTED),
    ("RTX 4090的L2缓存为72MB。", "72MB", "cache_size", "nvidia_rtx_4090", Verdict.SUPPORTED),
]
# fmt: on


@pytest.mark.parametrize(("text", "fragment", "attribute", "subject", "verdict"), SPEC_CASES)
def test_spec_claims(text: str, fragment: str, attribute: str, subject: str, verdict: Verdict) -> None:
    c = find(claims_for(text), fragment, attribute)
    assert c.subject == subject
    assert c.verdict is verdict, c.check
    assert c.check is not None and c.check.explanation
    if verdict is Verdict.CONTRADICTED:
        assert c.check.expected and c.check.source and c.check.source.startswith("http")


# fmt: off
QUALIFIER_CASES = [
    ("H200的显存最高可达141GB。", "141GB", Qualifier.UP_TO, Verdict.SUPPORTED),
    ("RTX 4090显存带宽高达1.5TB/s。", "1.5TB/s", Qualifier.UP_TO, Verdict.CONTRADICTED),
    ("L4的功耗约70W。", "70W", Qualifier.APPROX, Verdict.SUPPORTED),
    ("L4的功耗约40W。", "40W", Qualifier.APPROX, Verdict.CONTRADICTED),
    ("H100 SXM5拥有超过15000个CUDA核心。", "15000", Qualifier.AT_LEAST, Verdict.SUPPORTED),
    ("T4拥有超过500个Tensor Core。", "500", Qualifier.AT_LEAST, Verdict.CONTRADICTED),
    ("T4的功耗不到80W。", "80W", Qualifier.AT_MOST, Verdict.SUPPORTED),
    ("H100 SXM5的功耗低于500W。", "500W", Qualifier.AT_MOST, Verdict.CONTRADICTED),
    ("A100的显存有40GB到80GB两种。", "40GB到80GB", Qualifier.RANGE, Verdict.SUPPORTED),
    ("A100的显存有40GB或96GB两种。", "40GB或96GB", Qualifier.RANGE, Verdict.CONTRADICTED),
]
# fmt: on


@pytest.mark.parametrize(("text", "fragment", "qualifier", "verdict"), QUALIFIER_CASES)
def test_qualifiers(text: str, fragment: str, qualifier: Qualifier, verdict: Verdict) -> None:
    c = find(claims_for(text), fragment)
    assert c.qualifier is qualifier
    assert c.verdict is verdict, c.check


def test_number_forms_chinese_numeral_fullwidth_traditional() -> None:
    cs = claims_for("H100 SXM5拥有一万六千八百九十六个CUDA核心，記憶體容量８０ＧＢ，頻寬達到３．３５ＴＢ/ｓ。")
    assert find(cs, "一万", "cuda_cores").value == 16896
    size = find(cs, "８０ＧＢ", "memory_size")
    assert size.value == 80 and size.verdict is Verdict.SUPPORTED
    bw = find(cs, "３．３５", "memory_bandwidth")
    assert bw.value == 3350 and bw.verdict is Verdict.SUPPORTED


def test_bits_for_bytes_is_a_unit_slip() -> None:
    c = find(claims_for("L4的显存带宽为300Gb/s。"), "300Gb/s")
    assert c.verdict is Verdict.CONTRADICTED
    assert "Gb/s" in c.check.explanation  # type: ignore[union-attr]


def test_negated_statement_is_not_flagged() -> None:
    assert not flags(claims_for("L40S并不是HBM3显存的产品，它用的是GDDR6。"))


def test_misattribution_needs_the_other_card_in_the_article() -> None:
    named = find(claims_for("A30和A100都很常见。A30拥有6912个CUDA核心。"), "6912")
    assert named.verdict is Verdict.MISATTRIBUTED
    alone = find(claims_for("A30拥有6912个CUDA核心。"), "6912")
    assert alone.verdict is Verdict.CONTRADICTED


def test_series_claim_holds_if_a_member_fits() -> None:
    cs = claims_for("AMD的RX 6000系列显存带宽最高为512GB/s。另外RX 6000系列的显存带宽达到了2TB/s。")
    assert find(cs, "512GB/s").verdict is Verdict.SUPPORTED
    assert find(cs, "2TB/s").verdict is Verdict.CONTRADICTED


def test_flag_covers_only_the_false_part() -> None:
    c = find(claims_for("RX 6800采用Infinity Cache技术，显存带宽达到了900GB/s。"), "900GB/s")
    assert c.verdict is Verdict.CONTRADICTED
    assert c.text == "900GB/s"


def test_offsets_and_text_match_source() -> None:
    text = "\ufeff" * 0 + "RTX 4090配备24GB显存。\r\n它的功耗为450W。"
    for c in claims_for(text):
        assert text[c.start:c.end] == c.text


def test_claim_ids_stable_and_unique() -> None:
    text = "H100 SXM5拥有16896个CUDA核心和528个Tensor Core。"
    a, b = claims_for(text), claims_for("前言。\n" + text)
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
    by_text = {(c.text.strip(), c.subject): c for c in claims}
    assert by_text[("16896", "nvidia_h100")].verdict is Verdict.SUPPORTED
    assert by_text[("500 GB/s", "nvidia_l4")].verdict is Verdict.CONTRADICTED
    assert by_text[("24GB", "nvidia_l4")].verdict is Verdict.SUPPORTED
    for c in claims:
        assert doc.text[c.start:c.end] == c.text


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
    wrong = [c for c in claims if c.text.startswith("2039")]
    assert wrong and wrong[0].subject == "nvidia_a100" and wrong[0].verdict is Verdict.CONTRADICTED
    assert next(c for c in claims if c.text.startswith("3350")).verdict is Verdict.SUPPORTED


@pytest.mark.parametrize(("text", "verdict"), [("A30于二〇二一年发布。", Verdict.SUPPORTED),
                                               ("A30于二零一九年发布。", Verdict.CONTRADICTED)])
def test_year_in_chinese_digits(text: str, verdict: Verdict) -> None:
    assert find(claims_for(text), "年").verdict is verdict


@pytest.mark.parametrize(("text", "attribute", "value"), [
    ("MI50擁有3840個串流處理器。", "stream_processors", 3840),
    ("MI300X的FP8算力高达2.6 PFLOPS。", "fp8", 2600),
    ("A100的FP32算力为19500 GFLOPS。", "fp32", 19.5),
])
def test_more_unit_and_term_forms(text: str, attribute: str, value: float) -> None:
    c = find(claims_for(text), "", attribute)
    assert (c.value, c.verdict) == (value, Verdict.SUPPORTED)


TABLE_WITH_MORE_COLUMNS = """# 对比

| 型号 | 位宽 | FP32算力 | 无限缓存 | L2缓存 |
|---|---|---|---|---|
| RX 6700 XT | 192bit | 13.22 TFLOPS | 3MB | 3MB |
| RTX A6000 | 384bit | 45 TFLOPS | - | 6MB |
"""


def test_table_columns_for_bus_width_throughput_and_which_cache() -> None:
    got = {(c.subject, c.attribute, c.detail): c.verdict for c in check_text(TABLE_WITH_MORE_COLUMNS, doc_id="t.md")}
    assert got[("amd_rx_6700_xt", "memory_bus_width", None)] is Verdict.SUPPORTED
    assert got[("amd_rx_6700_xt", "fp32", None)] is Verdict.SUPPORTED
    assert got[("amd_rx_6700_xt", "cache_size", "Infinity Cache")] is Verdict.CONTRADICTED  # 96MB, not 3MB
    assert got[("amd_rx_6700_xt", "cache_size", "L2")] is Verdict.SUPPORTED
    assert got[("nvidia_rtx_a6000", "fp32", None)] is Verdict.CONTRADICTED  # 38.7 TFLOPS


def test_markdown_emphasis_does_not_hide_a_claim() -> None:
    cs = check_text("RTX 4090 拥有 **16384** 个 CUDA 核心，显存 **24GB**。\n", doc_id="x.md")
    assert {c.attribute: c.verdict for c in cs} == {"cuda_cores": Verdict.SUPPORTED, "memory_size": Verdict.SUPPORTED}


@pytest.mark.parametrize(("text", "fragment", "verdict"), [
    ("H100 SXM5的GPU互连带宽为900GB/s。", "900GB/s", Verdict.SUPPORTED),  # 互连 as well as 互联
    ("DGX H100的总显存为640GB。", "640GB", Verdict.SUPPORTED),  # a DGX is eight GPUs
    ("HGX H200总显存达1.1TB。", "1.1TB", Verdict.SUPPORTED),  # 8 × 141GB, binary terabytes
    ("T4的功耗为70-75W。", "70-75W", Verdict.SUPPORTED),  # a narrow range around the one figure
    ("A2的TDP为40-70W。", "40-70W", Verdict.CONTRADICTED),
    ("MI250X的显存带宽为3.2TB/s。", "3.2TB/s", Verdict.SUPPORTED),  # 3276.8 GB/s cut at the written digit
    ("H200的显存带宽为4.7TB/s。", "4.7TB/s", Verdict.CONTRADICTED),  # 4.8 TB/s: one written digit off
    ("H200 NVL的功耗上限为350W。", "350W", Verdict.CONTRADICTED),
    ("RTX 4090的记忆体汇流排宽度为384-bit。", "384", Verdict.SUPPORTED),
    ("RTX 5090采用GB203核心，配备24GB GDDR7显存。", "24GB", Verdict.CONTRADICTED),  # a chip name is no unknown card
])
def test_news_and_review_forms(text: str, fragment: str, verdict: Verdict) -> None:
    assert find(claims_for(text), fragment).verdict is verdict


CARDS_IN_THE_SECOND_COLUMN = """# 云上价格

| 平台 | 机型 | 单卡显存 | 价格 |
|---|---|---|---|
| 平台A | 8×H100 SXM5 | 96GB HBM3 | 2.49 美元 |
| 平台B | A100 80GB | 80GB | 1.2 美元 |
"""


def test_table_whose_cards_are_not_in_the_first_column() -> None:
    got = {(c.subject, c.attribute): c.verdict for c in check_text(CARDS_IN_THE_SECOND_COLUMN, doc_id="t.md")}
    assert got == {("nvidia_h100", "memory_size"): Verdict.CONTRADICTED,
                   ("nvidia_h100", "memory_type"): Verdict.SUPPORTED,
                   ("nvidia_a100", "memory_size"): Verdict.SUPPORTED}
