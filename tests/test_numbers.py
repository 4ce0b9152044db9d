"""Which attribute a number states and whether it is a card's spec at all (pipeline/extract/numbers.py), on sentences
written for the tests."""

from __future__ import annotations

import pytest

from pipeline.records import Verdict
from tests.claim_helpers import claims_for, find, flags


def test_rounding_depends_on_written_precision() -> None:
    # 2TB/s is a rounded marketing figure for 2039 GB/s; 1990 GB/s is written to the unit and is wrong
    assert find(claims_for("A100 80GB SXM4的显存带宽约为2TB/s。"), "2TB/s").verdict is Verdict.SUPPORTED
    assert find(claims_for("A100 80GB SXM4的显存带宽为1990GB/s。"), "1990").verdict is Verdict.CONTRADICTED


def test_per_pin_rate_is_not_bandwidth() -> None:
    cs = claims_for("RTX 4090的GDDR6X显存速率为21Gb/s。")
    assert not [c for c in cs if c.attribute == "memory_bandwidth"]


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


def test_previous_generation_and_requirements_are_not_claims() -> None:
    cs = claims_for("RTX 4090的L2缓存从上一代的6MB增加到72MB。想跑130亿参数的模型，得准备26GB左右的显存。")
    assert not [c for c in cs if "6MB" in c.text]
    assert not [c for c in cs if "26GB" in c.text]
    assert not flags(cs)


def test_effective_bandwidth_is_its_own_attribute() -> None:
    cs = claims_for("RX 6900 XT的GDDR6显存带宽为512GB/s，借助Infinity Cache，有效带宽最高约1664GB/s。")
    assert find(cs, "512GB/s").attribute == "memory_bandwidth"
    assert find(cs, "1664").attribute == "effective_bandwidth"
    assert not flags(cs)


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
    # the vendors' round figures, written exactly: PCIe 4.0 x16 is 31.5/63 GB/s, quoted as 32/64 (and 5.0 as 64/128)
    for text in ("PCIe 4.0 x16的双向带宽为64GB/s。", "PCIe 5.0 x16只有128GB/s的双向带宽。"):
        assert find(claims_for(text), "GB/s").verdict is Verdict.SUPPORTED
    wrong = find(claims_for("PCIe 4.0 x16的单向带宽约64GB/s。"), "64GB/s")
    assert wrong.verdict is Verdict.CONTRADICTED


# ---------------------------------------------------------------- peak throughput (TFLOPS / TOPS)

THROUGHPUT_CASES = [
    # text, fragment, attribute, verdict
    ("A100的FP16 Tensor算力为312 TFLOPS。", "312", "fp16", Verdict.SUPPORTED),
    ("A100的FP16 Tensor算力为400 TFLOPS。", "400", "fp16", Verdict.CONTRADICTED),
    ("A100的FP16算力为312 TFLOPS，稀疏时可达624 TFLOPS。", "624", "fp16", Verdict.SUPPORTED),
    ("A100的稀疏FP16算力为312 TFLOPS。", "312", "fp16", Verdict.MISATTRIBUTED),  # the dense figure
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
    # the precision written after the figure: FP64 is not the FP6 (no reference figure) it starts with
    ("A100的算力是9.7 TFLOPS FP64。", "9.7", "fp64", Verdict.SUPPORTED),
]


# fmt: off
PRECISION_LABEL_CASES = [
    # a figure given the wrong precision or sparsity is the card's figure for another one: misattributed, named
    ("RTX 4090的FP16算力为1321 TFLOPS（稀疏）。", [("1321 TFLOPS", "fp16", "misattributed")], "FP8（稀疏）"),
    ("A100的INT8稠密算力为1248 TOPS。", [("1248 TOPS", "int8", "misattributed")], "INT8（稀疏）"),
    ("A100的TF32算力为19.5 TFLOPS。", [("19.5 TFLOPS", "tf32", "misattributed")], "FP32"),
    # two precisions written together: the figure is claimed for each, wrong if either is
    ("A100的FP16/BF16算力为312 TFLOPS。", [("312 TFLOPS", "bf16", "supported"), ("312 TFLOPS", "fp16", "supported")],
     ""),
    ("H100 SXM5的FP16/TF32稀疏算力为1979 TFLOPS。",
     [("1979 TFLOPS", "fp16", "supported"), ("1979 TFLOPS", "tf32", "misattributed")], "FP16（稀疏）"),
    # the right figure with the right label stays supported
    ("RTX 4090的FP8稀疏算力为1321 TFLOPS。", [("1321 TFLOPS", "fp8", "supported")], ""),
    ("A30的TF32算力为82 TFLOPS。", [("82 TFLOPS", "tf32", "supported")], ""),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected", "named"), PRECISION_LABEL_CASES)
def test_precision_labels(text: str, expected: list[tuple[str, str, str]], named: str) -> None:
    claims = claims_for(text)
    assert sorted((c.text, c.attribute, c.verdict.value) for c in claims if c.verdict) == sorted(expected)
    wrong = [c for c in claims if c.verdict is Verdict.MISATTRIBUTED]
    assert all(named in c.check.explanation for c in wrong)  # type: ignore[union-attr]


@pytest.mark.parametrize(("text", "fragment", "attribute", "verdict"), THROUGHPUT_CASES)
def test_throughput_claims(text: str, fragment: str, attribute: str, verdict: Verdict) -> None:
    c = find(claims_for(text), fragment)
    assert (c.attribute, c.verdict) == (attribute, verdict)


@pytest.mark.parametrize("text", ["A100的INT4算力为1248 TOPS。",
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


@pytest.mark.parametrize(("text", "verdict"), [
    ("A100 80GB SXM4的显存带宽为2039GB/s。", Verdict.SUPPORTED),
    ("A100 80GB SXM4的显存带宽为1555GB/s。", Verdict.CONTRADICTED),  # the 40GB card's figure
    ("A100 40GB PCIe的TDP为300W。", Verdict.CONTRADICTED),
])
def test_size_and_form_in_the_model_name_pick_the_variant(text: str, verdict: Verdict) -> None:
    cs = [c for c in claims_for(text) if c.attribute != "memory_size"]
    assert [c.verdict for c in cs] == [verdict]


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


@pytest.mark.parametrize(("text", "verdict"), [
    ("一台8卡MI300X服务器总共拥有1.5TB显存。", Verdict.SUPPORTED),  # 8 × 192 GB = 1536 GB, a binary 1.5 TB
    ("8卡MI300X服务器显存为1TB。", Verdict.CONTRADICTED),
])
def test_terabytes_may_be_binary(text: str, verdict: Verdict) -> None:
    assert find(claims_for(text), "TB").verdict is verdict


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


@pytest.mark.parametrize(("text", "verdict"), [("A100的FP16稠密算力为624 TFLOPS。", Verdict.MISATTRIBUTED),
                                               ("A100的FP16稠密算力为312 TFLOPS。", Verdict.SUPPORTED)])
def test_dense_throughput_is_the_dense_figure(text: str, verdict: Verdict) -> None:
    assert find(claims_for(text), "TFLOPS").verdict is verdict


@pytest.mark.parametrize(("text", "fragment", "verdict"), [
    ("在基础频率下K80双精度性能为1.87 TFLOPS，开启GPU Boost后可达2.91 TFLOPS。", "1.87", Verdict.UNVERIFIABLE),
    ("在基础频率下K80双精度性能为1.87 TFLOPS，开启GPU Boost后可达2.91 TFLOPS。", "2.91", Verdict.SUPPORTED),
    ("MI300X的GPU互连带宽为896GB/s。", "896", Verdict.SUPPORTED),  # its own link, Infinity Fabric
    ("MI300X的NVLink带宽为896GB/s。", "896", Verdict.UNVERIFIABLE),  # AMD has no NVLink figure
])
def test_clock_and_link_named_or_not(text: str, fragment: str, verdict: Verdict) -> None:
    assert find(claims_for(text), fragment).verdict is verdict
