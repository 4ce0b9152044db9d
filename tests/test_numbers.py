"""Which attribute a number states and whether it is a card's spec at all (pipeline/extract/numbers.py), on sentences
written for the tests. Every case asserts the complete list of claims of its sentence (``rows``); a sentence whose
figure is no claim (``[]``) sits next to a control where the same figure, said of the card, is one."""

from __future__ import annotations

import pytest

from pipeline.records import Verdict
from tests.claim_helpers import LINK, SYS, UNIT, C, M, P, S, U, claims_for, rows

Rows = list[tuple[object, ...]]


@pytest.mark.parametrize(("text", "expected"), [
    # 2TB/s is a rounded marketing figure for 2039 GB/s; 1990 GB/s is written to the unit and is wrong
    ("A100 80GB SXM4的显存带宽约为2TB/s。", [("80GB", "memory_size", "nvidia_a100", P, S),
                                       ("约为2TB/s", "memory_bandwidth", "nvidia_a100", P, S)]),
    ("A100 80GB SXM4的显存带宽为1990GB/s。", [("80GB", "memory_size", "nvidia_a100", P, S),
                                         ("1990GB/s", "memory_bandwidth", "nvidia_a100", P, C)]),
])
def test_rounding_depends_on_written_precision(text: str, expected: Rows) -> None:
    assert rows(claims_for(text)) == expected


def test_per_pin_rate_is_not_bandwidth() -> None:
    # 21Gb/s is each pin's rate (the memory's data rate, in Gb/s: bandwidth × 8 ÷ bus width), no bandwidth claim
    assert rows(claims_for("RTX 4090的GDDR6X显存速率为21Gb/s。"), "value", "unit") == [
        ("GDDR6X", "memory_type", "nvidia_rtx_4090", P, S, "GDDR6X", None),
        ("21Gb/s", "memory_data_rate", "nvidia_rtx_4090", P, S, 21.0, "Gbps")]
    assert rows(claims_for("RTX 3090的显存速率为21Gbps。"), "value", "expected") == [
        ("21Gbps", "memory_data_rate", "nvidia_rtx_3090", P, C, 21.0, "19.5 Gbps")]


@pytest.mark.parametrize("name", ["无限缓存", " Infinity Cache", "無限快取"])
def test_infinity_cache_by_any_name(name: str) -> None:
    assert rows(claims_for(f"RX 6900 XT有16GB GDDR6显存和128MB{name}。"), "detail") == [
        ("16GB", "memory_size", "amd_rx_6900_xt", P, S, None),
        ("GDDR6", "memory_type", "amd_rx_6900_xt", P, S, None),
        ("128MB", "cache_size", "amd_rx_6900_xt", P, S, "Infinity Cache"),
    ]


@pytest.mark.parametrize(("text", "expected"), [
    ("MI300X的显存容量很大，达到192GB。", [("192GB", "memory_size", "amd_mi300x", P, S)]),
    ("MI300X的显存容量是H100的2.4倍，达到256GB。", [("是H100的2.4倍", "ratio", "amd_mi300x", P, S),
                                               ("256GB", "memory_size", "amd_mi300x", P, C)]),
])
def test_clause_of_only_a_verb_and_a_number_continues_the_memory_clause(text: str, expected: Rows) -> None:
    assert rows(claims_for(text)) == expected


# fmt: off
CONTINUATION_CASES = [
    # each sentence whose 达到… is not a card's memory (no claim) next to its control, where it is
    ("训练70B模型需要的显存很大，达到140GB。",  []),
    ("H200的显存很大，达到141GB。",           [("141GB", "memory_size", "nvidia_h200", P, S)]),
    ("A100的显存很大，训练数据达到500GB。",     []),
    ("A100的显存很大，达到80GB。",            [("80GB", "memory_size", "nvidia_a100", P, S)]),
    ("显存很大，达到140GB。",                [("140GB", "figure", "", P, U)]),
    ("H100的显存容量很大，达到80GB。",         [("80GB", "memory_size", "nvidia_h100", P, S)]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), CONTINUATION_CASES)
def test_continuation_needs_a_card_and_its_own_memory(text: str, expected: Rows) -> None:
    assert rows(claims_for(text)) == expected


def test_previous_generation_and_requirements_are_not_claims() -> None:
    # 6MB is the previous generation's, 26GB a model's need: only 72MB is the card's
    cs = claims_for("RTX 4090的L2缓存从上一代的6MB增加到72MB。想跑130亿参数的模型，得准备26GB左右的显存。")
    assert rows(cs) == [("72MB", "cache_size", "nvidia_rtx_4090", P, S)]


def test_effective_bandwidth_is_its_own_attribute() -> None:
    cs = claims_for("RX 6900 XT的GDDR6显存带宽为512GB/s，借助Infinity Cache，有效带宽最高约1664GB/s。")
    assert rows(cs) == [("GDDR6", "memory_type", "amd_rx_6900_xt", P, S),
                        ("512GB/s", "memory_bandwidth", "amd_rx_6900_xt", P, S),
                        ("约1664GB/s", "effective_bandwidth", "amd_rx_6900_xt", P, S)]


@pytest.mark.parametrize(("text", "expected"), [
    ("H100 PCIe的显存带宽为2TB/s。", [("2TB/s", "memory_bandwidth", "nvidia_h100", P, S, "PCIe")]),
    # the SXM5 figure, not the PCIe card's
    ("H100 PCIe的显存带宽为3.35TB/s。", [("3.35TB/s", "memory_bandwidth", "nvidia_h100", P, C, "PCIe")]),
])
def test_variant_name_is_not_a_link_cue(text: str, expected: Rows) -> None:
    assert rows(claims_for(text), "variant") == expected


# fmt: off
PCIE_DIRECTION_CASES = [
    ("PCIe 5.0 x16的单向带宽约64GB/s，双向约128GB/s。",
     [("约64GB/s", "interconnect_bandwidth", "pcie_5_x16", LINK, S, "单向"),
      ("约128GB/s", "interconnect_bandwidth", "pcie_5_x16", LINK, S, "双向")]),
    # the vendors' round figures, written exactly: PCIe 4.0 x16 is 31.5/63 GB/s, quoted as 32/64 (and 5.0 as 64/128)
    ("PCIe 4.0 x16的双向带宽为64GB/s。",      [("64GB/s", "interconnect_bandwidth", "pcie_4_x16", LINK, S, "双向")]),
    ("PCIe 5.0 x16只有128GB/s的双向带宽。",    [("128GB/s", "interconnect_bandwidth", "pcie_5_x16", LINK, S, "双向")]),
    ("PCIe 4.0 x16的单向带宽约64GB/s。",      [("约64GB/s", "interconnect_bandwidth", "pcie_4_x16", LINK, C, "单向")]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), PCIE_DIRECTION_CASES)
def test_pcie_direction(text: str, expected: Rows) -> None:
    assert rows(claims_for(text), "scope_detail") == expected


# ---------------------------------------------------------------- peak throughput (TFLOPS / TOPS)

# fmt: off
THROUGHPUT_CASES = [
    ("A100的FP16 Tensor算力为312 TFLOPS。",    [("312 TFLOPS", "fp16", "nvidia_a100", P, S)]),
    ("A100的FP16 Tensor算力为400 TFLOPS。",    [("400 TFLOPS", "fp16", "nvidia_a100", P, C)]),
    ("A100的FP16算力为312 TFLOPS，稀疏时可达624 TFLOPS。",
     [("312 TFLOPS", "fp16", "nvidia_a100", P, S), ("可达624 TFLOPS", "fp16", "nvidia_a100", P, S)]),
    # the dense figure said to be the sparse one: the card's figure for another label
    ("A100的稀疏FP16算力为312 TFLOPS。",        [("312 TFLOPS", "fp16", "nvidia_a100", P, M)]),
    # sparse, quoted without saying so
    ("H100 SXM5的FP8算力高达3958 TFLOPS。",     [("高达3958 TFLOPS", "fp8", "nvidia_h100", P, S)]),
    ("A100的FP64 Tensor Core算力为19.5 TFLOPS。", [("19.5 TFLOPS", "fp64", "nvidia_a100", P, S)]),
    ("RTX 4090的单精度算力为82.6 TFLOPS。",      [("82.6 TFLOPS", "fp32", "nvidia_rtx_4090", P, S)]),
    ("RTX 4090的FP32算力为100 TFLOPS。",        [("100 TFLOPS", "fp32", "nvidia_rtx_4090", P, C)]),
    ("T4的INT8算力约130 TOPS。",               [("约130 TOPS", "int8", "nvidia_t4", P, S)]),
    # elided precision
    ("L4的FP32算力大约30 TFLOPS，而T4仅有8.1 TFLOPS。",
     [("大约30 TFLOPS", "fp32", "nvidia_l4", P, S), ("8.1 TFLOPS", "fp32", "nvidia_t4", P, S)]),
    ("8卡A100的FP16算力合计2496 TFLOPS。",      [("2496 TFLOPS", "fp16", "nvidia_a100", SYS, S)]),
    # the precision written after the figure: FP64 is not the FP6 (no reference figure) it starts with
    ("A100的算力是9.7 TFLOPS FP64。",           [("9.7 TFLOPS", "fp64", "nvidia_a100", P, S)]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), THROUGHPUT_CASES)
def test_throughput_claims(text: str, expected: Rows) -> None:
    assert rows(claims_for(text)) == expected


# fmt: off
PRECISION_LABEL_CASES = [
    # a figure given the wrong precision or sparsity is the card's figure for another one: misattributed, named
    # the label is a claim of its own: 1321 is no FP16 figure of the card, sparse or dense (it is FP8's)
    ("RTX 4090的FP16算力为1321 TFLOPS（稀疏）。", [("1321 TFLOPS", "fp16", "nvidia_rtx_4090", P, M),
                                              ("稀疏", "figure_label", "nvidia_rtx_4090", P, U)], "FP8（稀疏）"),
    ("A100的INT8稠密算力为1248 TOPS。",         [("1248 TOPS", "int8", "nvidia_a100", P, M)], "INT8（稀疏）"),
    ("A100的TF32算力为19.5 TFLOPS。",           [("19.5 TFLOPS", "tf32", "nvidia_a100", P, M)], "FP32"),
    # two precisions written together: the figure is claimed for each, wrong if either is
    ("A100的FP16/BF16算力为312 TFLOPS。",
     [("312 TFLOPS", "bf16", "nvidia_a100", P, S), ("312 TFLOPS", "fp16", "nvidia_a100", P, S)], ""),
    ("H100 SXM5的FP16/TF32稀疏算力为1979 TFLOPS。",
     [("1979 TFLOPS", "fp16", "nvidia_h100", P, S), ("1979 TFLOPS", "tf32", "nvidia_h100", P, M)], "FP16（稀疏）"),
    # the right figure with the right label stays supported
    ("RTX 4090的FP8稀疏算力为1321 TFLOPS。",      [("1321 TFLOPS", "fp8", "nvidia_rtx_4090", P, S)], ""),
    ("A30的TF32算力为82 TFLOPS。",               [("82 TFLOPS", "tf32", "nvidia_a30", P, S)], ""),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected", "named"), PRECISION_LABEL_CASES)
def test_precision_labels(text: str, expected: Rows, named: str) -> None:
    claims = claims_for(text)
    assert rows(claims) == expected
    assert all(named in c.check.explanation for c in claims if c.verdict is Verdict.MISATTRIBUTED)  # type: ignore[union-attr]


# fmt: off
OTHER_KIND_OF_FIGURE_CASES = [
    # FP16 on CUDA cores (1, 2 or 4 times FP32) or with FP32 accumulation: not the table's figure, not wrong
    ("RTX 3090的FP16算力为35.6 TFLOPS。", [("35.6 TFLOPS", "fp16", "nvidia_rtx_3090", P, U, "not_comparable")]),
    ("A100的FP16算力为78 TFLOPS。",       [("78 TFLOPS", "fp16", "nvidia_a100", P, U, "not_comparable")]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), OTHER_KIND_OF_FIGURE_CASES)
def test_throughput_of_another_kind_is_unverifiable(text: str, expected: Rows) -> None:
    assert rows(claims_for(text), "reason") == expected


# fmt: off
NO_CHECKABLE_PRECISION_CASES = [
    # an INT4 figure the reference lacks for the card, no precision (recorded as a figure of no known attribute), a
    # workload (no claim); each with its control, where one checkable precision makes the same figure a check
    ("A100的INT4算力为1248 TOPS。",        [("1248 TOPS", "int4", "nvidia_a100", P, U)]),
    ("A100的INT8算力为1248 TOPS。",        [("1248 TOPS", "int8", "nvidia_a100", P, S)]),
    ("A100的AI算力为312 TFLOPS。",         [("312 TFLOPS", "figure", "nvidia_a100", P, U)]),
    ("A100的TF32算力为312 TFLOPS。",       [("312 TFLOPS", "tf32", "nvidia_a100", P, S)]),
    ("训练GPT-3需要3.14e23 FLOPS的计算量。", []),
    ("训练GPT-3用的V100，FP16算力为125 TFLOPS。", [("125 TFLOPS", "fp16", "nvidia_tesla_v100", P, S)]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), NO_CHECKABLE_PRECISION_CASES)
def test_throughput_without_one_checkable_precision_is_left_alone(text: str, expected: Rows) -> None:
    assert rows(claims_for(text)) == expected


# ---------------------------------------------------------------- numbers that are not the card's figure

# fmt: off
NOT_RATED_CASES = [
    # each figure that is not the card's rated one (no claim) next to its control, where the same kind of figure is
    ("4080建议750W电源，4070用650W就够。",       []),  # power supplies
    ("4080的功耗为320W，4070为200W。",          [("320W", "tdp", "nvidia_rtx_4080", P, S),
                                           ("200W", "tdp", "nvidia_rtx_4070", P, S)]),
    ("RTX 4090满载时整机功耗大约620W。",          []),  # the whole computer
    ("RTX 4090的整卡功耗大约450W。",             [("大约450W", "tdp", "nvidia_rtx_4090", P, S)]),
    ("RTX 4090的功耗墙可以拉到600W。",            []),  # a raised power limit
    ("RTX 4090的功耗可以达到450W。",             [("450W", "tdp", "nvidia_rtx_4090", P, S)]),
    ("部分非公版4090可达600W。",                 []),  # partner boards
    ("公版4090可达450W。",                     [("可达450W", "tdp", "nvidia_rtx_4090", P, S)]),
    # a DGX's power is the system's (systems.csv: DGX H100 10.2 kW), not eight cards' TDP
    ("一台DGX H100的功耗为10.2kW。",           [("10.2kW", "tdp", "nvidia_h100", SYS, S)]),
    # a difference: a comparison claim, not the card's rated figure
    ("2080 Ti的功耗比Titan RTX低30W。",          [("比Titan RTX低30W", "difference", "nvidia_rtx_2080_ti", P, S)]),
    ("2080 Ti的功耗为250W。",                   [("250W", "tdp", "nvidia_rtx_2080_ti", P, S)]),
    ("RTX 4090显存频率21Gbps。",                []),  # per-pin rate
    ("RTX 4090显存带宽1008GB/s。",              [("1008GB/s", "memory_bandwidth", "nvidia_rtx_4090", P, S)]),
    ("RTX 4080拥有16GB显存。结论：8G显存跑7B勉强够用。", [("16GB", "memory_size", "nvidia_rtx_4080", P, S)]),
    # a modified card; its price is recorded, never judged
    ("2080 Ti魔改22GB版本约3500元。",            [("3500元", "figure", "nvidia_rtx_2080_ti", P, U)]),
    ("2080 Ti配备11GB显存，约3500元。",          [("11GB", "memory_size", "nvidia_rtx_2080_ti", P, S),
                                                ("3500元", "figure", "nvidia_rtx_2080_ti", P, U)]),
    # one die of a two-die card: a unit figure, never compared with the card's 3.2 TB/s
    ("MI250X每个GCD的显存带宽为1.6TB/s。",        [("1.6TB/s", "memory_bandwidth", "amd_mi250x", UNIT, U)]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), NOT_RATED_CASES)
def test_not_the_cards_rated_figure(text: str, expected: Rows) -> None:
    assert rows(claims_for(text)) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("这台服务器里的每张H100功耗700W。", [("700W", "tdp", "nvidia_h100", P, S)]),
    ("RTX 4090的功耗 420W 左右。", [("420W 左右", "tdp", "nvidia_rtx_4090", P, S)]),
    ("RTX 6000 Ada与RTX 4090同为AD102核心，显存48GB。",
     [("AD102", "gpu_chip", "nvidia_rtx_6000_ada", P, S), ("48GB", "memory_size", "nvidia_rtx_6000_ada", P, S)]),
])
def test_card_figures_next_to_those_cues_are_still_checked(text: str, expected: Rows) -> None:
    assert rows(claims_for(text)) == expected


# ---------------------------------------------------------------- which bandwidth

@pytest.mark.parametrize(("text", "expected"), [
    # a clause that only says 带宽 (or nothing) takes the kind cued in the clause before it
    ("RTX 2080 Ti支持NVLink，带宽100GB/s。",
     [("支持NVLink", "supports", "nvidia_rtx_2080_ti", P, S, None),
      ("100GB/s", "interconnect_bandwidth", "nvidia_rtx_2080_ti", P, S, "NVLink")]),
    ("A100的NVLink带宽为600GB/s，A30则为200GB/s。",
     [("600GB/s", "interconnect_bandwidth", "nvidia_a100", P, S, "NVLink"),
      ("200GB/s", "interconnect_bandwidth", "nvidia_a30", P, S, "NVLink")]),
    ("A100采用HBM2e显存，带宽为2TB/s。",
     [("HBM2e", "memory_type", "nvidia_a100", P, S, None), ("2TB/s", "memory_bandwidth", "nvidia_a100", P, S, None)]),
    ("P100的显存带宽为732GB/s，而V100为900GB/s。",
     [("732GB/s", "memory_bandwidth", "nvidia_tesla_p100", P, S, None),
      ("900GB/s", "memory_bandwidth", "nvidia_tesla_v100", P, S, None)]),
    # AMD's links and cache
    ("MI300X通过Infinity Fabric实现卡间互联，峰值带宽为896GB/s。",
     [("896GB/s", "interconnect_bandwidth", "amd_mi300x", P, S, "Infinity Fabric")]),
    ("借助无限缓存，RX 6900 XT的带宽高达1664GB/s。",
     [("高达1664GB/s", "effective_bandwidth", "amd_rx_6900_xt", P, S, None)]),
    # the cache named in an earlier clause, with the memory: a figure called only 带宽 is still the effective one
    ("RX 7900 XTX配备24GB显存和96MB无限缓存，带宽高达3.5TB/s。",
     [("24GB", "memory_size", "amd_rx_7900_xtx", P, S, None),
      ("96MB", "cache_size", "amd_rx_7900_xtx", P, S, "Infinity Cache"),
      ("高达3.5TB/s", "effective_bandwidth", "amd_rx_7900_xtx", P, S, None)]),
    ("RX 6800配备16GB显存和128MB无限缓存，带宽高达3TB/s。",
     [("16GB", "memory_size", "amd_rx_6800", P, S, None),
      ("128MB", "cache_size", "amd_rx_6800", P, S, "Infinity Cache"),
      ("高达3TB/s", "effective_bandwidth", "amd_rx_6800", P, C, None)]),
    # but 显存带宽 in the number's own clause is the memory's
    ("RX 6800配备16GB显存和128MB无限缓存，显存带宽为512GB/s。",
     [("16GB", "memory_size", "amd_rx_6800", P, S, None),
      ("128MB", "cache_size", "amd_rx_6800", P, S, "Infinity Cache"),
      ("512GB/s", "memory_bandwidth", "amd_rx_6800", P, S, None)]),
])
def test_bandwidth_kind(text: str, expected: Rows) -> None:
    assert rows(claims_for(text), "detail") == expected


def test_memory_bandwidth_said_of_infinity_cache_is_still_memory_bandwidth() -> None:
    assert rows(claims_for("Infinity Cache让RX 6900 XT的显存带宽达到1664GB/s。")) == [
        ("1664GB/s", "memory_bandwidth", "amd_rx_6900_xt", P, C)]


@pytest.mark.parametrize(("text", "expected"), [
    # the noun next to a size says what it is the size of, whatever its magnitude
    ("RX 6800的无限缓存容量为16GB。", [("16GB", "cache_size", "amd_rx_6800", P, C)]),
    ("RX 6600 XT配备32MB显存和8GB无限缓存。",
     [("32MB", "memory_size", "amd_rx_6600_xt", P, C), ("8GB", "cache_size", "amd_rx_6600_xt", P, C)]),
    ("MI300X拥有256MB Infinity Cache和192GB HBM3。",
     [("256MB", "cache_size", "amd_mi300x", P, S), ("192GB", "memory_size", "amd_mi300x", P, S),
      ("HBM3", "memory_type", "amd_mi300x", P, S)]),
    ("带有大容量缓存的A100有80GB。", [("80GB", "memory_size", "nvidia_a100", P, S)]),
])
def test_cache_or_memory_by_its_noun(text: str, expected: Rows) -> None:
    assert rows(claims_for(text)) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # the size in the model name is a claim of its own (the variant exists) and picks the variant
    ("A100 80GB SXM4的显存带宽为2039GB/s。", [("80GB", "memory_size", "nvidia_a100", P, S),
                                         ("2039GB/s", "memory_bandwidth", "nvidia_a100", P, S)]),
    # the 40GB card's figure
    ("A100 80GB SXM4的显存带宽为1555GB/s。", [("80GB", "memory_size", "nvidia_a100", P, S),
                                         ("1555GB/s", "memory_bandwidth", "nvidia_a100", P, C)]),
    ("A100 40GB PCIe的TDP为300W。", [("40GB", "memory_size", "nvidia_a100", P, S),
                                 ("300W", "tdp", "nvidia_a100", P, C)]),
])
def test_size_and_form_in_the_model_name_pick_the_variant(text: str, expected: Rows) -> None:
    assert rows(claims_for(text)) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # a clause naming another card and only a verb repeats the attribute of the clause before
    ("L40的Tensor Core数量为568个，L40S则为568个。",
     [("568个", "tensor_cores", "nvidia_l40", P, S), ("568个", "tensor_cores", "nvidia_l40s", P, S)]),
    ("A100的L2缓存为40MB，而H100增加到60MB。",
     [("40MB", "cache_size", "nvidia_a100", P, S), ("60MB", "cache_size", "nvidia_h100", P, C)]),
    ("A30支持最多4个MIG实例，而A100最多可切分为9个。",
     [("最多4个", "mig_instances", "nvidia_a30", P, S), ("9个", "mig_instances", "nvidia_a100", P, C)]),
    ("T4的显存为16GB，A2同样为16GB。",
     [("16GB", "memory_size", "nvidia_t4", P, S), ("16GB", "memory_size", "nvidia_a2", P, S)]),
])
def test_elided_attribute_in_a_parallel_clause(text: str, expected: Rows) -> None:
    assert rows(claims_for(text)) == expected


def test_a_parallel_clause_needs_a_card_and_a_bare_verb() -> None:
    assert rows(claims_for("A100有6912个CUDA核心，H100卖3万美元。")) == [("6912个", "cuda_cores", "nvidia_a100", P, S),
                                                                  ("3万美元", "figure", "nvidia_h100", P, U)]


@pytest.mark.parametrize(("text", "expected"), [
    # a variant named without the card, before the value's clause or right after the value
    ("H100 PCIe的功耗为350W。SXM5版本支持第四代NVLink，每块GPU的NVLink总带宽为900GB/s。",
     [("350W", "tdp", "nvidia_h100", P, S, "PCIe"),
      ("第四代NVLink", "generation", "nvidia_h100", P, S, None),
      ("900GB/s", "interconnect_bandwidth", "nvidia_h100", P, S, "SXM5")]),
    ("RTX 3080 10GB版本配备8704个CUDA核心。后来在2022年推出的12GB版本显存带宽提升到912GB/s。",
     [("10GB", "memory_size", "nvidia_rtx_3080", P, S, None),
      ("8704个", "cuda_cores", "nvidia_rtx_3080", P, S, "10GB"),
      ("2022年", "launch_year", "nvidia_rtx_3080", P, S, "12GB"),
      ("912GB/s", "memory_bandwidth", "nvidia_rtx_3080", P, S, "12GB")]),
])
def test_variant_named_without_the_card(text: str, expected: Rows) -> None:
    assert rows(claims_for(text), "variant") == expected


@pytest.mark.parametrize(("text", "expected"), [
    # 8 × 192 GB = 1536 GB, a binary 1.5 TB
    ("一台8卡MI300X服务器总共拥有1.5TB显存。", [("1.5TB", "memory_size", "amd_mi300x", SYS, S, 8)]),
    ("8卡MI300X服务器显存为1TB。", [("1TB", "memory_size", "amd_mi300x", SYS, C, 8)]),
])
def test_terabytes_may_be_binary(text: str, expected: Rows) -> None:
    assert rows(claims_for(text), "multiplier") == expected


# fmt: off
DEPLOYMENT_CASES = [
    # each deployment figure (no claim) next to its control, where the card's own figure of that kind is one
    ("在H100上，KV cache大约占60GB。",                 []),  # a model's cache, not the chip's
    ("H100的显存约为80GB。",                          [("约为80GB", "memory_size", "nvidia_h100", P, S)]),
    ("3090待机约30W。",                              []),  # idle
    ("3090的功耗约350W。",                            [("约350W", "tdp", "nvidia_rtx_3090", P, S)]),
    ("RTX 4090推理时实测功耗约380W。",                  []),  # measured, not rated
    ("RTX 4090的额定功耗约450W。",                      [("约450W", "tdp", "nvidia_rtx_4090", P, S)]),
    ("H100服务器的公网带宽为25Gbps。",                  []),  # the network
    ("H100的NVLink带宽为900GB/s。",                    [("900GB/s", "interconnect_bandwidth", "nvidia_h100", P, S)]),
    ("H100集群的存储读取带宽为10GB/s。",                 []),  # storage
    ("H100推理时实际显存带宽只能跑到2.6TB/s。",            []),  # achieved, not rated
    ("H100的显存带宽只有3.35TB/s。",                    [("3.35TB/s", "memory_bandwidth", "nvidia_h100", P, S)]),
    ("用RTX 4090跑70B时，把一部分层offload到64GB内存里。",  []),  # the host's RAM
    ("RTX 4090有24GB显存，跑70B时要把一部分层offload到内存里。", [("24GB", "memory_size", "nvidia_rtx_4090", P, S)]),
    ("A100服务器的内存带宽为204.8GB/s。",                []),  # the host's RAM
    ("A100的显存带宽为2039GB/s。",                    [("2039GB/s", "memory_bandwidth", "nvidia_a100", P, S)]),
    ("A100服务器里每张卡的显存带宽为2039GB/s。",         [("2039GB/s", "memory_bandwidth", "nvidia_a100", P, S)]),
    ("H100很贵。FP8是Hopper和Ada架构新增的数据格式。",        []),  # architectures listed, not said of a card
    ("H100很贵。它支持FP8数据格式。",                      [("FP8", "precision", "nvidia_h100", P, S)]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), DEPLOYMENT_CASES)
def test_deployment_numbers_are_not_card_specs(text: str, expected: Rows) -> None:
    assert rows(claims_for(text)) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # the sparse figure said to be the dense one: the card's figure for another label
    ("A100的FP16稠密算力为624 TFLOPS。", [("624 TFLOPS", "fp16", "nvidia_a100", P, M, "dense")]),
    ("A100的FP16稠密算力为312 TFLOPS。", [("312 TFLOPS", "fp16", "nvidia_a100", P, S, "dense")]),
])
def test_dense_throughput_is_the_dense_figure(text: str, expected: Rows) -> None:
    assert rows(claims_for(text), "detail") == expected


@pytest.mark.parametrize(("text", "expected"), [
    # the base-clock figure has no reference row; the boost figure is the table's
    ("在基础频率下K80双精度性能为1.87 TFLOPS，开启GPU Boost后可达2.91 TFLOPS。",
     [("1.87 TFLOPS", "fp64", "nvidia_tesla_k80", P, U), ("可达2.91 TFLOPS", "fp64", "nvidia_tesla_k80", P, S)]),
    # its own link, Infinity Fabric; AMD has no NVLink figure
    ("MI300X的GPU互连带宽为896GB/s。", [("896GB/s", "interconnect_bandwidth", "amd_mi300x", P, S)]),
    ("MI300X的NVLink带宽为896GB/s。", [("896GB/s", "interconnect_bandwidth", "amd_mi300x", P, U)]),
])
def test_clock_and_link_named_or_not(text: str, expected: Rows) -> None:
    assert rows(claims_for(text)) == expected
