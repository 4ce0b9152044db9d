"""Claim extraction and checking on sentences written for the tests (none comes from the seed or dev articles)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.api import analyse, check_text
from pipeline.ingest import read_document
from pipeline.records import Claim, Qualifier, Verdict


def claims_for(text: str) -> list[Claim]:
    return check_text(text, doc_id="t.txt")


def find(claims: list[Claim], fragment: str, attribute: str | None = None) -> Claim:
    hits = [c for c in claims if fragment in c.text and (attribute is None or c.attribute == attribute)]
    assert hits, f"no claim with {fragment!r} ({attribute}) in {[(c.text, c.attribute) for c in claims]}"
    return hits[0]


def flags(claims: list[Claim]) -> list[Claim]:
    return [c for c in claims if c.verdict is not None and c.verdict.is_flag]


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


def test_rounding_depends_on_written_precision() -> None:
    # 2TB/s is a rounded marketing figure for 2039 GB/s; 1990 GB/s is written to the unit and is wrong
    assert find(claims_for("A100 80GB SXM4的显存带宽约为2TB/s。"), "2TB/s").verdict is Verdict.SUPPORTED
    assert find(claims_for("A100 80GB SXM4的显存带宽为1990GB/s。"), "1990").verdict is Verdict.CONTRADICTED


def test_bits_for_bytes_is_a_unit_slip() -> None:
    c = find(claims_for("L4的显存带宽为300Gb/s。"), "300Gb/s")
    assert c.verdict is Verdict.CONTRADICTED
    assert "Gb/s" in c.check.explanation  # type: ignore[union-attr]


def test_per_pin_rate_is_not_bandwidth() -> None:
    cs = claims_for("RTX 4090的GDDR6X显存速率为21Gb/s。")
    assert not [c for c in cs if c.attribute == "memory_bandwidth"]


def test_subject_from_topic_and_pronoun() -> None:
    cs = claims_for("下面介绍L40S。它配备48GB显存，功耗350W。")
    assert find(cs, "48GB").subject == "nvidia_l40s"
    assert find(cs, "350W").verdict is Verdict.SUPPORTED


@pytest.mark.parametrize(("text", "fragment", "subject"), [
    # the card named after 是/属于 describes the first one; the next clause is still about the first
    ("A800是面向中国市场的A100变体，NVLink带宽为400GB/s。", "400GB/s", "nvidia_a800"),
    ("L40S属于L40的升级版本，功耗350W。", "350W", "nvidia_l40s"),
    # without a copula the nearest card named before the clause still wins
    ("先看V100，再看A100，显存带宽为1555GB/s。", "1555GB/s", "nvidia_a100"),
])
def test_copula_complement_is_not_the_subject(text: str, fragment: str, subject: str) -> None:
    cs = claims_for(text)
    assert find(cs, fragment).subject == subject
    assert not flags(cs)


def test_card_released_in_the_clause_owns_its_year() -> None:
    cs = claims_for("英伟达在2020年发布了A100，2022年发布了H100，2021年推出了A30。")
    assert [(c.text, c.subject, c.verdict) for c in cs if c.attribute == "launch_year"] == [
        ("2020年", "nvidia_a100", Verdict.SUPPORTED),
        ("2022年", "nvidia_h100", Verdict.SUPPORTED),
        ("2021年", "nvidia_a30", Verdict.SUPPORTED),
    ]


@pytest.mark.parametrize("name", ["无限缓存", " Infinity Cache", "無限快取"])
def test_infinity_cache_by_any_name(name: str) -> None:
    c = find(claims_for(f"RX 6900 XT有16GB GDDR6显存和128MB{name}。"), "128MB")
    assert (c.attribute, c.verdict) == ("cache_size", Verdict.SUPPORTED)


@pytest.mark.parametrize(("text", "verdict"), [
    ("MI300X的显存容量很大，达到192GB。", Verdict.SUPPORTED),
    ("MI300X的显存容量是H100的2.4倍，达到256GB。", Verdict.CONTRADICTED),
])
def test_clause_of_only_a_verb_and_a_number_continues_the_memory_clause(text: str, verdict: Verdict) -> None:
    c = find(claims_for(text), "GB")
    assert (c.subject, c.attribute, c.verdict) == ("amd_mi300x", "memory_size", verdict)


@pytest.mark.parametrize("text", ["训练70B模型需要的显存很大，达到140GB。", "A100的显存很大，训练数据达到500GB。",
                                  "显存很大，达到140GB。"])
def test_continuation_needs_a_card_and_its_own_memory(text: str) -> None:
    assert not [c for c in claims_for(text) if c.attribute == "memory_size"]


@pytest.mark.parametrize(("text", "fragment", "subject"), [
    # 它/其 is the card named last before it in its sentence, not the previous sentence's topic
    ("T4功耗70W。如果预算有限，A2是不错的选择，它的Tensor Core数量为40个。", "40", "nvidia_a2"),
    ("MI250X功耗560W。MI300X采用CDNA 3架构，其显存为192GB。", "192GB", "amd_mi300x"),
    # 后者 in an earlier clause still speaks for the rest of the sentence
    ("P40和P4面向推理，前者采用GP102核心；后者采用GP104核心，只有8GB显存。", "8GB", "nvidia_tesla_p4"),
    # 两张卡 after one doubled card is that card, twice
    ("训练多用A100和H100。推理常见双卡L40S方案，两张卡合计96GB显存。", "96GB", "nvidia_l40s"),
])
def test_pronouns_within_the_sentence(text: str, fragment: str, subject: str) -> None:
    cs = claims_for(text)
    assert find(cs, fragment).subject == subject
    assert not flags(cs)


@pytest.mark.parametrize("text", ["双卡A10的总显存为48GB。", "A10双卡的总显存为48GB。", "雙卡A10合計48GB顯存。"])
def test_dual_card_counts_two(text: str) -> None:
    c = find(claims_for(text), "48GB")
    assert (c.multiplier, c.verdict) == (2, Verdict.SUPPORTED)


@pytest.mark.parametrize("text", [
    "昇腾910的功耗为310W。昇腾910B的功耗为400W。",
    "MI300X显存192GB。MI300A的显存为128GB。",
    "A100显存80GB。H20的显存为96GB。它的功耗为400W。",
    "RX 7900 XT显存20GB。RX 7900 GRE的显存为16GB。",
])
def test_a_card_the_reference_does_not_know_stops_the_previous_card(text: str) -> None:
    cs = claims_for(text)
    assert len(cs) == 1 and not flags(cs)  # only the first sentence's claim, about the known card


@pytest.mark.parametrize("text", [
    "RTX 4070 Ti拥有7680个CUDA核心。",
    "3060 Ti的显存为8GB。",
    "RTX 4090 D的CUDA核心为14592个。",
    "RTX 4070显存12GB。RTX 4070 Super拥有7168个CUDA核心。",
])
def test_a_suffixed_model_is_not_its_base_card(text: str) -> None:
    assert not [c for c in claims_for(text) if c.attribute == "cuda_cores" or "8GB" in c.text]


def test_a_video_codec_is_not_an_unknown_card() -> None:
    assert find(claims_for("T4支持H264和H265解码，功耗70W。"), "70W").verdict is Verdict.SUPPORTED


def test_an_unknown_card_that_is_only_compared_does_not_hide_the_subject() -> None:
    c = find(claims_for("H100相比H20，显存带宽为3.35TB/s。"), "3.35TB/s")
    assert (c.subject, c.verdict) == ("nvidia_h100", Verdict.SUPPORTED)


def test_former_and_latter() -> None:
    cs = claims_for("常被比较的是H100和A100：前者功耗700W，后者功耗400W。")
    assert find(cs, "700W").subject == "nvidia_h100"
    assert find(cs, "400W").subject == "nvidia_a100"
    assert not flags(cs)


def test_comparison_owner_and_upgrade_target() -> None:
    cs = claims_for("H200把显存容量从H100的80GB提高到141GB。")
    assert find(cs, "80GB").subject == "nvidia_h100"
    assert find(cs, "141GB").subject == "nvidia_h200"
    assert not flags(cs)


def test_previous_generation_and_requirements_are_not_claims() -> None:
    cs = claims_for("RTX 4090的L2缓存从上一代的6MB增加到72MB。想跑130亿参数的模型，得准备26GB左右的显存。")
    assert not [c for c in cs if "6MB" in c.text]
    assert not [c for c in cs if "26GB" in c.text]
    assert not flags(cs)


def test_negated_statement_is_not_flagged() -> None:
    assert not flags(claims_for("L40S并不是HBM3显存的产品，它用的是GDDR6。"))


def test_aggregate_multiplier_and_wrong_base() -> None:
    cs = claims_for("双H100 SXM5的服务器，显存合计160GB，显存带宽合计为4TB/s。")
    total = find(cs, "160GB")
    assert total.multiplier == 2 and total.verdict is Verdict.SUPPORTED
    wrong = find(cs, "4TB/s")
    assert wrong.multiplier == 2 and wrong.verdict is Verdict.CONTRADICTED
    assert "× 2" in wrong.check.explanation  # type: ignore[union-attr]


def test_times_notation_and_list_of_totals() -> None:
    cs = claims_for("一台4×L40S工作站：\n- 显存总量：4 × 48GB = 192GB；\n- GPU功耗合计：1400W。")
    assert find(cs, "192GB").multiplier == 4
    assert find(cs, "1400W").multiplier == 4
    assert not flags(cs)


def test_chip_substitution_carries_to_later_mentions() -> None:
    text = ("这款T4推理卡采用了英伟达的H100 GPU。\n"
            "H100 GPU配备80GB显存，带宽3.35TB/s。\n"
            "与H100相比，T4的功耗低得多。")
    cs = claims_for(text)
    chip = find(cs, "H100 GPU", "gpu_chip")
    assert chip.subject == "nvidia_t4" and chip.verdict is Verdict.MISATTRIBUTED
    size = find(cs, "80GB")
    assert size.subject == "nvidia_t4" and size.verdict is Verdict.MISATTRIBUTED
    assert find(cs, "3.35TB/s").subject == "nvidia_t4"


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


def test_effective_bandwidth_is_its_own_attribute() -> None:
    cs = claims_for("RX 6900 XT的GDDR6显存带宽为512GB/s，借助Infinity Cache，有效带宽最高约1664GB/s。")
    assert find(cs, "512GB/s").attribute == "memory_bandwidth"
    assert find(cs, "1664").attribute == "effective_bandwidth"
    assert not flags(cs)


def test_tesla_brand_versus_tesla_company() -> None:
    cs = claims_for("特斯拉V100是英伟达推出的计算卡。特斯拉T4由特斯拉公司设计。")
    ok = [c for c in cs if c.attribute == "manufacturer" and c.subject == "nvidia_tesla_v100"]
    assert ok and ok[0].verdict is Verdict.SUPPORTED
    wrong = [c for c in cs if c.attribute == "manufacturer" and c.subject == "nvidia_t4"]
    assert wrong and wrong[0].verdict is Verdict.CONTRADICTED


def test_technology_credited_to_a_rival() -> None:
    cs = claims_for("英特尔的NVLink让多卡互联更快。")
    c = find(cs, "NVLink", "manufacturer")
    assert c.verdict is Verdict.CONTRADICTED
    assert find(claims_for("AMD的ROCm生态正在完善。"), "ROCm", "manufacturer").verdict is Verdict.SUPPORTED


def test_tensor_core_presence() -> None:
    assert find(claims_for("P40支持Tensor Core。"), "Tensor Core").verdict is Verdict.CONTRADICTED
    assert find(claims_for("L4配备第四代Tensor Core。"), "Tensor Core").verdict is Verdict.SUPPORTED


@pytest.mark.parametrize(("text", "verdict"), [
    ("H100 PCIe的显存带宽为2TB/s。", Verdict.SUPPORTED),
    ("H100 PCIe的显存带宽为3.35TB/s。", Verdict.CONTRADICTED),  # the SXM5 figure, not the PCIe card's
])
def test_variant_name_is_not_a_link_cue(text: str, verdict: Verdict) -> None:
    c = find(claims_for(text), "TB/s")
    assert (c.attribute, c.subject, c.verdict) == ("memory_bandwidth", "nvidia_h100", verdict)


def test_pcie_direction() -> None:
    cs = claims_for("PCIe 5.0 x16的单向带宽约64GB/s，双向约128GB/s。")
    assert not flags(cs) and len([c for c in cs if c.attribute == "interconnect_bandwidth"]) == 2
    wrong = find(claims_for("PCIe 4.0 x16的单向带宽约64GB/s。"), "64GB/s")
    assert wrong.verdict is Verdict.CONTRADICTED


def test_unknown_card_is_unverifiable_not_flagged() -> None:
    cs = claims_for("某国产X9000加速卡配备96GB显存。")
    assert not flags(cs)


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


# fmt: off
INTERFACE_CASES = [
    ("L40S使用的是PCIe 4.0 x16接口。",              "PCIe 4.0 x16", Verdict.SUPPORTED),
    ("RTX 5090改用PCIe 5.0 x16。",                  "PCIe 5.0 x16", Verdict.SUPPORTED),
    ("T4采用PCIe 4.0 x16接口。",                    "PCIe 4.0 x16", Verdict.CONTRADICTED),
    # a module (SXM) lists no PCIe host link in the reference: unverifiable, never a flag
    ("H100 SXM5通过PCIe 5.0 x16连接主机。",           "PCIe 5.0 x16", Verdict.UNVERIFIABLE),
]
# fmt: on


@pytest.mark.parametrize(("text", "fragment", "verdict"), INTERFACE_CASES)
def test_host_interface(text: str, fragment: str, verdict: Verdict) -> None:
    c = find(claims_for(text), fragment, "interface")
    assert c.verdict is verdict, c.check


# ---------------------------------------------------------------- peak throughput (TFLOPS / TOPS)

THROUGHPUT_CASES = [
    # text, fragment, attribute, verdict
    ("A100的FP16 Tensor算力为312 TFLOPS。", "312", "fp16", Verdict.SUPPORTED),
    ("A100的FP16 Tensor算力为400 TFLOPS。", "400", "fp16", Verdict.CONTRADICTED),
    ("A100的FP16算力为312 TFLOPS，稀疏时可达624 TFLOPS。", "624", "fp16", Verdict.SUPPORTED),
    ("A100的稀疏FP16算力为312 TFLOPS。", "312", "fp16", Verdict.CONTRADICTED),  # the dense figure
    ("H100 SXM5的FP8算力高达3958 TFLOPS。", "3958", "fp8", Verdict.SUPPORTED),  # sparse, quoted without saying so
    ("A100的FP64 Tensor Core算力为19.5 TFLOPS。", "19.5", "fp64", Verdict.SUPPORTED),
    ("RTX 4090的单精度算力为82.6 TFLOPS。", "82.6", "fp32", Verdict.SUPPORTED),
    ("RTX 4090的FP32算力为100 TFLOPS。", "100", "fp32", Verdict.CONTRADICTED),
    ("T4的INT8算力约130 TOPS。", "130", "int8", Verdict.SUPPORTED),
    ("L4的FP32算力约30 TFLOPS，而T4只有8.1 TFLOPS。", "8.1", "fp32", Verdict.SUPPORTED),  # elided precision
    ("8卡A100的FP16算力合计2496 TFLOPS。", "2496", "fp16", Verdict.SUPPORTED),
    # FP16 on CUDA cores (1, 2 or 4 times FP32) or with FP32 accumulation: not the table's figure, not wrong
    ("RTX 3090的FP16算力为35.6 TFLOPS。", "35.6", "fp16", Verdict.UNVERIFIABLE),
    ("A100的FP16算力为78 TFLOPS。", "78", "fp16", Verdict.UNVERIFIABLE),
]


@pytest.mark.parametrize(("text", "fragment", "attribute", "verdict"), THROUGHPUT_CASES)
def test_throughput_claims(text: str, fragment: str, attribute: str, verdict: Verdict) -> None:
    c = find(claims_for(text), fragment)
    assert (c.attribute, c.verdict) == (attribute, verdict)


@pytest.mark.parametrize("text", ["A100的FP16/BF16算力为312 TFLOPS。", "A100的INT4算力为1248 TOPS。",
                                  "A100的AI算力为312 TFLOPS。", "训练GPT-3需要3.14e23 FLOPS的计算量。"])
def test_throughput_without_one_checkable_precision_is_left_alone(text: str) -> None:
    assert not [c for c in claims_for(text) if "FLOPS" in c.text or "TOPS" in c.text]


# ---------------------------------------------------------------- numbers that are not the card's figure

@pytest.mark.parametrize("text", [
    "4080建议750W电源，4070用650W就够。",
    "RTX 4090满载时整机功耗大约620W。",
    "RTX 4090的功耗墙可以拉到600W。",
    "部分非公版4090可达600W。",
    "一台DGX H100的功耗为10.2kW。",
    "2080 Ti的功耗比Titan RTX低30W。",
    "RTX 4090显存频率21Gbps。",
    "RTX 4080拥有16GB显存。结论：8G显存跑7B勉强够用。",
    "2080 Ti魔改22GB版本约3500元。",
    "MI250X每个GCD的显存带宽为1.6TB/s。",
])
def test_not_the_cards_rated_figure(text: str) -> None:
    assert not flags(claims_for(text))


@pytest.mark.parametrize(("text", "fragment"), [
    ("这台服务器里的每张H100功耗700W。", "700W"),
    ("RTX 4090的功耗 420W 左右。", "420W 左右"),
    ("RTX 6000 Ada与RTX 4090同为AD102核心，显存48GB。", "48GB"),
])
def test_card_figures_next_to_those_cues_are_still_checked(text: str, fragment: str) -> None:
    assert find(claims_for(text), fragment).verdict is Verdict.SUPPORTED


# ---------------------------------------------------------------- which bandwidth

@pytest.mark.parametrize(("text", "fragment", "attribute", "detail"), [
    # a clause that only says 带宽 (or nothing) takes the kind cued in the clause before it
    ("RTX 2080 Ti支持NVLink，带宽100GB/s。", "100GB/s", "interconnect_bandwidth", "NVLink"),
    ("A100的NVLink带宽为600GB/s，A30则为200GB/s。", "200GB/s", "interconnect_bandwidth", "NVLink"),
    ("A100采用HBM2e显存，带宽为2TB/s。", "2TB/s", "memory_bandwidth", None),
    ("P100的显存带宽为732GB/s，而V100为900GB/s。", "900GB/s", "memory_bandwidth", None),
    # AMD's links and cache
    ("MI300X通过Infinity Fabric实现卡间互联，峰值带宽为896GB/s。", "896GB/s", "interconnect_bandwidth",
     "Infinity Fabric"),
    ("借助无限缓存，RX 6900 XT的带宽高达1664GB/s。", "1664GB/s", "effective_bandwidth", None),
])
def test_bandwidth_kind(text: str, fragment: str, attribute: str, detail: str | None) -> None:
    c = find(claims_for(text), fragment)
    assert (c.attribute, c.detail, c.verdict) == (attribute, detail, Verdict.SUPPORTED)


def test_memory_bandwidth_said_of_infinity_cache_is_still_memory_bandwidth() -> None:
    c = find(claims_for("Infinity Cache让RX 6900 XT的显存带宽达到1664GB/s。"), "1664GB/s")
    assert (c.attribute, c.verdict) == ("memory_bandwidth", Verdict.CONTRADICTED)


@pytest.mark.parametrize(("text", "fragment", "attribute", "verdict"), [
    # the noun next to a size says what it is the size of, whatever its magnitude
    ("RX 6800的无限缓存容量为16GB。", "16GB", "cache_size", Verdict.CONTRADICTED),
    ("RX 6600 XT配备32MB显存和8GB无限缓存。", "32MB", "memory_size", Verdict.CONTRADICTED),
    ("RX 6600 XT配备32MB显存和8GB无限缓存。", "8GB", "cache_size", Verdict.CONTRADICTED),
    ("MI300X拥有256MB Infinity Cache和192GB HBM3。", "192GB", "memory_size", Verdict.SUPPORTED),
    ("带有大容量缓存的A100有80GB。", "80GB", "memory_size", Verdict.SUPPORTED),
])
def test_cache_or_memory_by_its_noun(text: str, fragment: str, attribute: str, verdict: Verdict) -> None:
    c = find(claims_for(text), fragment)
    assert (c.attribute, c.verdict) == (attribute, verdict)


@pytest.mark.parametrize("text", [
    "超微电脑推出的GPU服务器可搭载8块H100。",
    "美超微推出的服务器可搭载8块H100。",
    "英伟达DGX H100采用了英特尔推出的至强处理器。",
    "AMD推出的EPYC处理器可以搭配8块H100使用。",
])
def test_a_vendor_that_made_something_else_is_not_the_cards_maker(text: str) -> None:
    assert not [c for c in claims_for(text) if c.attribute == "manufacturer"]


@pytest.mark.parametrize(("text", "owners"), [
    ("H100 SXM5与H200的显存容量分别为80GB和141GB。", {"80GB": "nvidia_h100", "141GB": "nvidia_h200"}),
    ("RTX 3070、RTX 4080和RTX 4090的显存分别是8GB、16GB和24GB。",
     {"8GB": "nvidia_rtx_3070", "16GB": "nvidia_rtx_4080", "24GB": "nvidia_rtx_4090"}),
    # the value after 从 belongs to the card the sentence compares with
    ("H200相比H100，显存从80GB提升到141GB。", {"80GB": "nvidia_h100", "141GB": "nvidia_h200"}),
    ("与A100相比，H100的功耗从400W增加到700W。", {"400W": "nvidia_a100", "700W": "nvidia_h100"}),
    # no comparison: both ends are the card's own
    ("A100的显存从40GB升级到80GB。", {"40GB": "nvidia_a100", "80GB": "nvidia_a100"}),
])
def test_values_for_several_cards(text: str, owners: dict[str, str]) -> None:
    cs = claims_for(text)
    assert {f: find(cs, f).subject for f in owners} == owners
    assert not flags(cs)


def test_respectively_in_the_wrong_order_is_flagged() -> None:
    cs = claims_for("RTX 3070和RTX 4080的显存分别是16GB和8GB。")
    assert [(c.subject, c.verdict) for c in cs] == [("nvidia_rtx_3070", Verdict.CONTRADICTED),
                                                    ("nvidia_rtx_4080", Verdict.CONTRADICTED)]


@pytest.mark.parametrize(("text", "claimed"), [
    ("Tesla K80拥有4992个CUDA核心。2016年，Pascal架构登场。", False),
    ("下面介绍A100。Ampere架构带来了TF32。", False),
    ("V100，Volta架构，5120个CUDA核心。", True),
    ("下面介绍A100。它采用Ampere架构。", True),
])
def test_an_architecture_that_opens_a_sentence_without_a_card_is_its_subject(text: str, claimed: bool) -> None:
    cs = claims_for(text)
    assert bool([c for c in cs if c.attribute == "architecture"]) is claimed
    assert not flags(cs)


@pytest.mark.parametrize(("text", "verdict"), [
    ("A100 80GB SXM4的显存带宽为2039GB/s。", Verdict.SUPPORTED),
    ("A100 80GB SXM4的显存带宽为1555GB/s。", Verdict.CONTRADICTED),  # the 40GB card's figure
    ("A100 40GB PCIe的TDP为300W。", Verdict.CONTRADICTED),
])
def test_size_and_form_in_the_model_name_pick_the_variant(text: str, verdict: Verdict) -> None:
    cs = [c for c in claims_for(text) if c.attribute != "memory_size"]
    assert [c.verdict for c in cs] == [verdict]


@pytest.mark.parametrize(("text", "verdict"), [("A30于二〇二一年发布。", Verdict.SUPPORTED),
                                               ("A30于二零一九年发布。", Verdict.CONTRADICTED)])
def test_year_in_chinese_digits(text: str, verdict: Verdict) -> None:
    assert find(claims_for(text), "年").verdict is verdict


@pytest.mark.parametrize(("text", "fragment", "subject", "attribute", "verdict"), [
    # a clause naming another card and only a verb repeats the attribute of the clause before
    ("L40的Tensor Core数量为568个，L40S则为568个。", "568个。", "nvidia_l40s", "tensor_cores", Verdict.SUPPORTED),
    ("A100的L2缓存为40MB，而H100增加到60MB。", "60MB", "nvidia_h100", "cache_size", Verdict.CONTRADICTED),
    ("A30支持最多4个MIG实例，而A100最多可切分为9个。", "9个", "nvidia_a100", "mig_instances",
     Verdict.CONTRADICTED),
    ("T4的显存为16GB，A2同样为16GB。", "16GB。", "nvidia_a2", "memory_size", Verdict.SUPPORTED),
])
def test_elided_attribute_in_a_parallel_clause(text: str, fragment: str, subject: str, attribute: str,
                                               verdict: Verdict) -> None:
    c = next(c for c in claims_for(text) if c.subject == subject and fragment.rstrip("。") in c.text)
    assert (c.attribute, c.verdict) == (attribute, verdict)


def test_a_parallel_clause_needs_a_card_and_a_bare_verb() -> None:
    cs = claims_for("A100有6912个CUDA核心，H100卖3万美元。")
    assert [c.subject for c in cs] == ["nvidia_a100"]


@pytest.mark.parametrize(("text", "verdict"), [
    ("MI100采用CDNA 2架构。", Verdict.CONTRADICTED),
    ("MI100采用CDNA架构。", Verdict.SUPPORTED),
    ("MI250X采用CDNA 2架构。", Verdict.SUPPORTED),
    ("MI250X采用CDNA架构。", Verdict.SUPPORTED),  # the family name
    ("RTX 4090采用Ada架构。", Verdict.SUPPORTED),
])
def test_architecture_generations(text: str, verdict: Verdict) -> None:
    assert find(claims_for(text), "", "architecture").verdict is verdict


@pytest.mark.parametrize(("text", "attribute", "value"), [
    ("MI50擁有3840個串流處理器。", "stream_processors", 3840),
    ("MI300X的FP8算力高达2.6 PFLOPS。", "fp8", 2600),
    ("A100的FP32算力为19500 GFLOPS。", "fp32", 19.5),
])
def test_more_unit_and_term_forms(text: str, attribute: str, value: float) -> None:
    c = find(claims_for(text), "", attribute)
    assert (c.value, c.verdict) == (value, Verdict.SUPPORTED)


@pytest.mark.parametrize(("text", "verdicts"), [
    ("RX 6700 XT和RX 6900 XT都配备16GB显存。",
     {"amd_rx_6700_xt": Verdict.CONTRADICTED, "amd_rx_6900_xt": Verdict.SUPPORTED}),
    ("L40与L40S都采用AD102核心。", {"nvidia_l40": Verdict.SUPPORTED, "nvidia_l40s": Verdict.SUPPORTED}),
    ("A100和H100，显存80GB。", {"nvidia_h100": Verdict.SUPPORTED}),  # without 都 only the nearest card
])
def test_a_value_said_of_a_list_of_cards(text: str, verdicts: dict[str, Verdict]) -> None:
    assert {c.subject: c.verdict for c in claims_for(text)} == verdicts


@pytest.mark.parametrize(("text", "verdict"), [
    ("RX 6000系列显卡均配备8GB显存。", Verdict.CONTRADICTED),  # only some members have 8GB
    ("RX 6000系列显卡配备8GB显存。", Verdict.SUPPORTED),  # some member has
    ("RTX 30系列全部使用GDDR6X显存。", Verdict.CONTRADICTED),
    ("所有RX 7000系列显卡都采用RDNA 3架构。", Verdict.SUPPORTED),
])
def test_every_member_of_a_series(text: str, verdict: Verdict) -> None:
    [c] = claims_for(text)
    assert c.verdict is verdict


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
    # a variant named without the card, before the value's clause or right after the value
    ("H100 PCIe的功耗为350W。SXM5版本支持第四代NVLink，每块GPU的NVLink总带宽为900GB/s。", "900GB/s",
     Verdict.SUPPORTED),
    ("RTX 3080 10GB版本配备8704个CUDA核心。后来在2022年推出的12GB版本显存带宽提升到912GB/s。", "2022年",
     Verdict.SUPPORTED),
    ("RTX 3080 10GB版本配备8704个CUDA核心。后来在2022年推出的12GB版本显存带宽提升到912GB/s。", "912GB/s",
     Verdict.SUPPORTED),
])
def test_variant_named_without_the_card(text: str, fragment: str, verdict: Verdict) -> None:
    assert find(claims_for(text), fragment).verdict is verdict


def test_an_upgrade_between_two_cards_goes_from_the_older_to_the_newer() -> None:
    cs = claims_for("H200与H100 SXM5使用同一颗GH100芯片，容量从80GB提升到141GB，带宽从3.35TB/s提升到4.8TB/s。")
    got = {c.text: c.subject for c in cs if c.attribute in ("memory_size", "memory_bandwidth")}
    assert got == {"80GB": "nvidia_h100", "141GB": "nvidia_h200", "3.35TB/s": "nvidia_h100",
                   "4.8TB/s": "nvidia_h200"}
    assert not flags(cs)


@pytest.mark.parametrize(("text", "verdict"), [
    ("一台8卡MI300X服务器总共拥有1.5TB显存。", Verdict.SUPPORTED),  # 8 × 192 GB = 1536 GB, a binary 1.5 TB
    ("8卡MI300X服务器显存为1TB。", Verdict.CONTRADICTED),
])
def test_terabytes_may_be_binary(text: str, verdict: Verdict) -> None:
    assert find(claims_for(text), "TB").verdict is verdict


@pytest.mark.parametrize(("text", "value", "verdict"), [
    ("RTX 4060 Ti采用PCIe 4.0 x16接口。", "PCIe 4.0 x16", Verdict.CONTRADICTED),  # eight lanes
    ("RTX 4060 Ti的接口是PCIe 4.0 x8。", "PCIe 4.0 x8", Verdict.SUPPORTED),
    ("RTX 4060 Ti采用PCIe 4.0接口。", "PCIe 4.0", Verdict.SUPPORTED),
    ("T4使用PCIe 3.0 x8接口。", "PCIe 3.0 x8", Verdict.CONTRADICTED),
])
def test_interface_lanes_as_written(text: str, value: str, verdict: Verdict) -> None:
    c = find(claims_for(text), "PCIe", "interface")
    assert (c.value, c.verdict) == (value, verdict)


@pytest.mark.parametrize(("text", "verdict"), [
    ("Infinity Fabric是英伟达的互连技术。", Verdict.CONTRADICTED),
    ("ROCm是英伟达的开源软件平台。", Verdict.CONTRADICTED),
    ("CUDA是英伟达的并行计算平台。", Verdict.SUPPORTED),
    ("H100是AMD的加速卡。", Verdict.CONTRADICTED),
])
def test_x_is_the_vendors_thing(text: str, verdict: Verdict) -> None:
    [c] = [c for c in claims_for(text) if c.attribute == "manufacturer"]
    assert c.verdict is verdict


@pytest.mark.parametrize("text", [
    "在H100上，KV cache大约占60GB。",  # a model's cache, not the chip's
    "3090待机约30W。",
    "RTX 4090推理时实测功耗约380W。",  # measured, not rated
    "H100服务器的公网带宽为25Gbps。",
    "H100集群的存储读取带宽为10GB/s。",
    "用RTX 4090跑70B时，把一部分层offload到64GB内存里。",  # the host's RAM
    "A100服务器的内存带宽为204.8GB/s。",
    "H100推理时实际显存带宽只能跑到2.6TB/s。",
    "H100很贵。FP8是Hopper和Ada架构新增的数据格式。",  # architectures listed, not said of a card
])
def test_deployment_numbers_are_not_card_specs(text: str) -> None:
    assert not flags(claims_for(text))


@pytest.mark.parametrize(("text", "verdicts"), [
    ("A100和H100分别基于Ampere和Hopper架构。", [Verdict.SUPPORTED, Verdict.SUPPORTED]),
    ("A100和H100分别基于Hopper和Ampere架构。", [Verdict.CONTRADICTED, Verdict.CONTRADICTED]),
])
def test_respectively_for_named_values(text: str, verdicts: list[Verdict]) -> None:
    cs = [c for c in claims_for(text) if c.attribute == "architecture"]
    assert [c.subject for c in cs] == ["nvidia_a100", "nvidia_h100"]
    assert [c.verdict for c in cs] == verdicts


@pytest.mark.parametrize(("text", "verdict"), [("A100的FP16稠密算力为624 TFLOPS。", Verdict.CONTRADICTED),
                                               ("A100的FP16稠密算力为312 TFLOPS。", Verdict.SUPPORTED)])
def test_dense_throughput_is_the_dense_figure(text: str, verdict: Verdict) -> None:
    assert find(claims_for(text), "TFLOPS").verdict is verdict


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


@pytest.mark.parametrize("text", [
    "H100 PCIe的TDP为350W。FP64性能从不到3 TFLOPS增长到34 TFLOPS。",
    "K80和H100相隔十年。十年间，旗舰卡的显存带宽从480GB/s增长到3.35TB/s。",
    "L4很受欢迎。入门推理卡的功耗一般在70-75W之间。",
])
def test_a_class_of_cards_or_a_trend_is_not_the_previous_card(text: str) -> None:
    assert not flags(claims_for(text))


def test_each_vendor_goes_to_the_card_it_made() -> None:
    cs = [c for c in claims_for("英伟达推出的H100与AMD推出的MI300X正面竞争。") if c.attribute == "manufacturer"]
    assert {(c.subject, c.value, c.verdict) for c in cs} == {("nvidia_h100", "nvidia", Verdict.SUPPORTED),
                                                            ("amd_mi300x", "amd", Verdict.SUPPORTED)}


@pytest.mark.parametrize(("text", "fragment", "verdict"), [
    ("在基础频率下K80双精度性能为1.87 TFLOPS，开启GPU Boost后可达2.91 TFLOPS。", "1.87", Verdict.UNVERIFIABLE),
    ("在基础频率下K80双精度性能为1.87 TFLOPS，开启GPU Boost后可达2.91 TFLOPS。", "2.91", Verdict.SUPPORTED),
    ("MI300X的GPU互连带宽为896GB/s。", "896", Verdict.SUPPORTED),  # its own link, Infinity Fabric
    ("MI300X的NVLink带宽为896GB/s。", "896", Verdict.UNVERIFIABLE),  # AMD has no NVLink figure
])
def test_clock_and_link_named_or_not(text: str, fragment: str, verdict: Verdict) -> None:
    assert find(claims_for(text), fragment).verdict is verdict


@pytest.mark.parametrize(("text", "verdict"), [("A100首发版本配备40GB HBM2e显存。", Verdict.CONTRADICTED),
                                               ("A100首发版本配备40GB HBM2显存。", Verdict.SUPPORTED),
                                               ("A100配备80GB HBM2e显存。", Verdict.SUPPORTED)])
def test_size_written_with_the_memory_type_picks_the_variant(text: str, verdict: Verdict) -> None:
    assert find(claims_for(text), "HBM", "memory_type").verdict is verdict
