"""Layouts the prose reader reaches too: a table cell read as "CARD的LABEL：CELL", a figure in brackets after a name,
a name glossed in brackets, magnitude words and the units real articles use. Every case asserts the whole claim list
of a text written for the test."""

from __future__ import annotations

import pytest

from tests.claim_helpers import CHIP, FAM, LINK, C, P, S, U, claims_for, rows

# fmt: off
CASES = [
    # a key-value table under the card's heading: the vocabulary's attributes, the section's card (the TMUs and the
    # clock checked against the secondary database: the curated tables have neither)
    ("## RTX 4080\n\n| 参数 | 数值 |\n|---|---|\n| 纹理单元 | 304 |\n| 加速频率 | 2505 MHz |\n| 显存 | 16GB |", "t.md",
     [("304", "tmus", "nvidia_rtx_4080", P, S), ("2505 MHz", "boost_clock", "nvidia_rtx_4080", P, S),
      ("16GB", "memory_size", "nvidia_rtx_4080", P, S)]),
    # cards as columns, labels in English, a link name in a cell, a variant in brackets after the memory type
    ("| 参数 | RTX 4090 | H100 |\n|---|---|---|\n| Architecture | Ada Lovelace | Hopper |\n"
     "| Memory Capacity | 24GB GDDR6X | 80GB HBM3 (SXM) / 94GB HBM3 (NVL) |\n| ROPs | 176 | 24 |", "t.md",
     [("Ada Lovelace", "architecture", "nvidia_rtx_4090", P, S), ("Hopper", "architecture", "nvidia_h100", P, S),
      ("24GB", "memory_size", "nvidia_rtx_4090", P, S), ("GDDR6X", "memory_type", "nvidia_rtx_4090", P, S),
      ("80GB", "memory_size", "nvidia_h100", P, S), ("HBM3", "memory_type", "nvidia_h100", P, S),
      ("94GB", "memory_size", "nvidia_h100", P, S), ("HBM3", "memory_type", "nvidia_h100", P, S),
      ("176", "rops", "nvidia_rtx_4090", P, S), ("24", "rops", "nvidia_h100", P, S)]),
    # a column of what a workload needs stays unread, cell by cell too
    ("## RTX 4090\n\n| 模型 | 所需显存 |\n|---|---|\n| 13B | 26GB |", "t.md", []),
    # the table's rule reads the column's first figure (the card's NVLink), the prose reader the rest of the cell: a
    # figure in brackets after a link is the link's, not the card's
    ("| 参数 | H100 |\n|---|---|\n| 互连 | NVLink 4.0 (900GB/s) / PCIe Gen5 (128GB/s) |", "t.md",
     [("900GB/s", "interconnect_bandwidth", "nvidia_h100", P, S),
      ("128GB/s", "interconnect_bandwidth", "pcie_5_x16", LINK, S)]),
    ("H100的互连：NVLink 4.0 (900GB/s) / PCIe Gen5 (128GB/s)。", "t.txt",
     [("900GB/s", "interconnect_bandwidth", "nvlink_4", LINK, S),
      ("128GB/s", "interconnect_bandwidth", "pcie_5_x16", LINK, S)]),
    # a year or a figure alone in brackets after a name is that name's
    ("- Hopper (2022)\n- Volta (2015)\n- Tesla V100 (2017)", "t.md",
     [("2022", "launch_year", "Hopper", FAM, S), ("2015", "launch_year", "Volta", FAM, C),
      ("2017", "launch_year", "nvidia_tesla_v100", P, S)]),
    ("L20(864 GB/s)与RTX 3090(936 GB/s)都不用HBM。", "t.txt",
     [("864 GB/s", "memory_bandwidth", "nvidia_l20", P, S), ("936 GB/s", "memory_bandwidth", "nvidia_rtx_3090", P, S),
      ("HBM", "memory_type", "nvidia_rtx_3090", P, C)]),
    # ...but not when the name is a card's value or part of its name
    ("- 架构: Ampere (2021)", "t.md", [("2021", "figure", "", P, U)]),  # the year alone is recorded
    # an architecture glossed in brackets, or alone in brackets after the card
    ("RTX 2080 Ti搭载了全新的Turing（图灵）架构。", "t.txt", [("Turing", "architecture", "nvidia_rtx_2080_ti", P, S)]),
    ("A100 (Hopper)的显存为80GB。", "t.txt",
     [("Hopper", "architecture", "nvidia_a100", P, C), ("80GB", "memory_size", "nvidia_a100", P, S)]),
    # magnitude words: 亿 ends the figure's span, million/billion as English writes them
    ("GA102集成了283亿晶体管。", "t.txt", [("283亿", "transistors", "GA102", CHIP, S)]),
    ("GA100芯片集成了54,200 million个晶体管。", "t.txt", [("54,200 million个", "transistors", "GA100", CHIP, S)]),
    # units as articles write them: TBps, Tflops, PetaFLOPS
    ("H100 SXM5的显存带宽为3.35TBps，FP64算力为34 Tflops。", "t.txt",
     [("3.35TBps", "memory_bandwidth", "nvidia_h100", P, S), ("34 Tflops", "fp64", "nvidia_h100", P, S)]),
    ("B200的FP4算力为9 PetaFLOPS。", "t.txt", [("9 PetaFLOPS", "fp4", "nvidia_b200", P, S)]),
]
# fmt: on


@pytest.mark.parametrize(("text", "doc_id", "expected"), CASES)
def test_reading(text: str, doc_id: str, expected: list[tuple[str, ...]]) -> None:
    assert rows(claims_for(text, doc_id)) == expected
