"""What terms, links, memory and number formats are (pipeline/extract/terms.py, links.py; pipeline/check/terms.py)
on sentences written for the tests: each case asserts the sentence's complete claim list (text, attribute, owner,
scope, verdict, value, reason). True and false cases in equal measure per kind; negation (不是) included."""

from __future__ import annotations

import pytest

from pipeline.extract.terms import _initials_fit, expansion_words
from tests.claim_helpers import LINK, UNIT, C, P, S, U, claims_for, rows

FIELDS = ("value", "reason")

# fmt: off
STANDS_FOR = [
    ("HCCS（Huawei Cache Coherence System）是昇腾芯片间的互连。",
     [("HCCS（Huawei Cache Coherence System）", "stands_for", "HCCS", P, S, "Huawei Cache Coherence System", "")]),
    ("HCCS（Huawei Collective Communication System）是昇腾芯片间的互连。",
     [("HCCS（Huawei Collective Communication System）", "stands_for", "HCCS", P, C,
       "Huawei Collective Communication System", "")]),
    ("XCD（Accelerator Complex Die）是MI300X的计算芯片。",
     [("XCD（Accelerator Complex Die）", "stands_for", "XCD", P, S, "Accelerator Complex Die", "")]),
    ("GCD（Graphics Core Die）是计算芯片。",
     [("GCD（Graphics Core Die）", "stands_for", "GCD", P, C, "Graphics Core Die", "")]),
    ("Streaming Multiprocessor（SM）是GPU的基本计算单元。",
     [("Streaming Multiprocessor（SM）", "stands_for", "SM", P, S, "Streaming Multiprocessor", "")]),
    ("TPC的全称是Tensor Processing Cluster。",
     [("TPC的全称是Tensor Processing Cluster", "stands_for", "TPC", P, C, "Tensor Processing Cluster", "")]),
    ("SXM是Server PCI Express Module的缩写。",
     [("SXM是Server PCI Express Module", "stands_for", "SXM", P, S, "Server PCI Express Module", "")]),
    ("GPT（General Purpose Transformer）是一类语言模型。",
     [("GPT（General Purpose Transformer）", "stands_for", "gpt", P, C, "General Purpose Transformer", "")]),
]

IDENTITY = [
    ("HBM也就是高带宽内存。", [("HBM也就是高带宽内存", "term_identity", "hbm", P, S, "高带宽内存", "")]),
    ("MPS以前叫Hyper-Q。", [("MPS以前叫Hyper-Q", "term_identity", "MPS", P, C, "Hyper-Q", "")]),
    ("HCCS不是HCCL。", [("HCCS不是HCCL", "term_identity", "HCCS", P, S, "HCCL", "")]),
    ("NVLink-C2C就是NVLink。", [("NVLink-C2C就是NVLink", "term_identity", "nvlink_c2c", P, C, "NVLink", "")]),
]

LINKS = [
    ("PCIe采用点对点的串行连接。",
     [("PCIe采用点对点", "link_property", "pcie", LINK, S, "topology:point_to_point", "")]),
    ("PCIe属于共享总线。", [("PCIe属于共享总线", "link_property", "pcie", LINK, C, "topology:shared_bus", "")]),
    ("NVSwitch是一颗独立的交换芯片。", [("NVSwitch是一颗独立的交换芯片", "link_property", "nvswitch", LINK, S,
                                   "packaging:separate_chip", "")]),
    ("NVSwitch集成在GPU芯片内部。", [("NVSwitch集成在GPU芯片内", "link_property", "nvswitch", LINK, C,
                                   "packaging:on_die", "")]),
    ("NVLink-C2C连接Grace CPU与GPU。", [("NVLink-C2C连接Grace CPU与GPU", "link_property", "nvlink_c2c", LINK, S,
                                    "connects:cpu_gpu", "")]),
    ("GPU间互联：NVLink-C2C", [("GPU间互联：NVLink-C2C", "link_property", "nvlink_c2c", LINK, C, "connects:gpu_gpu",
                            "")]),
    ("HBM与GPU封装在一起。", [("HBM与GPU封装在一起", "link_property", "hbm", LINK, S, "placement:on_package", "")]),
    ("HBM焊接在显卡的电路板上。",
     [("HBM焊接在显卡的电路板上", "link_property", "hbm", LINK, C, "placement:on_board", "")]),
    ("PCIe并不是共享总线。", [("PCIe并不是共享总线", "link_property", "pcie", LINK, S, "topology:shared_bus", "")]),
    ("PCIe不是点对点的链路。", [("PCIe不是点对点", "link_property", "pcie", LINK, C, "topology:point_to_point", "")]),
]

MEMORY_AND_FORMATS = [
    ("A100的HBM显存访问延迟约为500ns。",
     [("HBM", "memory_type", "nvidia_a100", P, S, "HBM", ""), ("500ns", "memory_latency", "hbm", UNIT, S, 500.0, "")]),
    ("RTX 4090的显存访问延迟仅为12ns。", [("12ns", "memory_latency", "dram", UNIT, C, 12.0, "")]),
    ("FP16有5位指数。", [("FP16有5位指数", "format_property", "FP16", P, S, 5.0, "")]),
    ("BF16的尾数为10位。", [("BF16的尾数为10位", "format_property", "BF16", P, C, 10.0, "")]),
    ("E4M3的最大值为448。", [("E4M3的最大值为448", "format_property", "FP8 E4M3", P, S, 448.0, "")]),
    ("E5M2的最大值为448。", [("E5M2的最大值为448", "format_property", "FP8 E5M2", P, C, 448.0, "")]),
    ("T4无需外接供电。", [("无需外接供电", "slot_powered", "nvidia_t4", P, S, "yes", "")]),
    ("Tesla P40采用PCIe直供电。", [("PCIe直供电", "slot_powered", "nvidia_tesla_p40", P, C, "yes", "")]),
    ("GA102是RTX 3090使用的芯片。", []),  # a die named as a die: no claim
    ("GA102是一个显卡系列。", [("GA102是一个显卡系列", "chip_identity", "ga102", P, C, "product", "")]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), STANDS_FOR + IDENTITY + LINKS + MEMORY_AND_FORMATS)
def test_claims(text: str, expected: list[tuple[object, ...]]) -> None:
    assert rows(claims_for(text), *FIELDS) == expected


@pytest.mark.parametrize("table", [STANDS_FOR, IDENTITY, LINKS], ids=["stands_for", "identity", "links"])
def test_the_tables_are_balanced(table: list[tuple[str, list[tuple[object, ...]]]]) -> None:
    verdicts = [row[4] for _t, claims in table for row in claims]
    assert verdicts.count(S) == verdicts.count(C), verdicts


def test_memory_and_formats_are_balanced() -> None:
    verdicts = [row[4] for _t, claims in MEMORY_AND_FORMATS for row in claims if row[1] != "memory_type"]
    assert verdicts.count(S) + 1 == verdicts.count(C), verdicts  # the chip named as a card has no true twin


@pytest.mark.parametrize(("text", "expected"), [
    ("NVLink（Pascal架构引入）", []),  # brackets that do not spell the abbreviation are no expansion
    ("SM（流多处理器）是GPU的基本单元。",  # a Chinese rendering other than the usual one: never flagged
     [("SM（流多处理器）", "stands_for", "SM", P, U, "流多处理器", "no_fact")]),
])
def test_what_is_not_an_expansion_or_not_judged(text: str, expected: list[tuple[object, ...]]) -> None:
    assert rows(claims_for(text), *FIELDS) == expected


@pytest.mark.parametrize(("abbreviation", "expansion", "fits"), [
    ("HCCS", "Huawei-designed Collective Communication System", True),
    ("XCD", "Accelerator Complex Die", True),  # one letter aside, the last one kept
    ("SXM", "Server PCI Express Module", True),
    ("NVLink", "Pascal Architecture", False),
    ("SM", "Single Module", True),
    ("GPU", "Memory", False),
])
def test_initials(abbreviation: str, expansion: str, fits: bool) -> None:
    assert _initials_fit(abbreviation, expansion) is fits


def test_expansion_words_ignore_plurals_and_small_words() -> None:
    plural = expansion_words("Single Instruction, Multiple Threads")
    assert plural == expansion_words("single instruction multiple thread")
    assert expansion_words("Chip on Wafer on Substrate") == {"chip", "wafer", "substrate"}
