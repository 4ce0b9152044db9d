"""Figures of a superchip's CPU die (pipeline/extract/cpu.py, checked by pipeline/check/chip.py check_cpu_figure):
Grace's cores, memory and memory bandwidth, said of the die or of the GH200 / GB200 that holds it. Each case a
sentence written for the test and its complete claim list with the reason of each unverifiable claim."""

from __future__ import annotations

import pytest

from tests.test_owner_scope import claims_with_reasons

P, CHIP, U, S, C = "product", "chip", "unverifiable", "supported", "contradicted"

# fmt: off
CASES = [
    # the die: its cores are CPU cores, its memory the CPU's own
    ("Grace CPU拥有72个核心。", [("72个", "cpu_cores", "Grace", CHIP, S, None)]),
    ("Grace CPU拥有96个核心。", [("96个", "cpu_cores", "Grace", CHIP, C, None)]),
    ("Grace最多配备480GB LPDDR5X内存，带宽512GB/s。", [("480GB", "cpu_memory_size", "Grace", CHIP, S, None),
                                               ("512GB/s", "cpu_memory_bandwidth", "Grace", CHIP, S, None)]),
    # maxima: a smaller figure may be a smaller configuration, a larger one is wrong
    ("Grace CPU配备120GB内存。", [("120GB", "cpu_memory_size", "Grace", CHIP, U, "not_comparable")]),
    ("Grace CPU的内存带宽为2TB/s。", [("2TB/s", "cpu_memory_bandwidth", "Grace", CHIP, C, None)]),
    # the superchip's CPU: the product owns the figure, the CPU named last before it says whose it is
    ("GB200的Grace CPU有72个核心。", [("72个", "cpu_cores", "nvidia_gb200", P, S, None)]),
    ("GH200里的Grace CPU有48个核心。", [("48个", "cpu_cores", "nvidia_gh200", P, C, None)]),
    ("GH200的Grace CPU配备960GB内存。", [("960GB", "cpu_memory_size", "nvidia_gh200", P, C, None)]),
    # the superchip's GPU memory is still the GPU's
    ("GH200的Grace CPU有72个核心，显存为96GB。", [("72个", "cpu_cores", "nvidia_gh200", P, S, None),
                                          ("96GB", "memory_size", "nvidia_gh200", P, S, None)]),
    # the Grace CPU Superchip is two dies: not the die's figures
    ("Grace CPU Superchip拥有144个核心。", [("144个", "cuda_cores", "Grace", CHIP, U, "scope_not_product")]),
    # a host CPU the tables do not list: its RAM is the host's, not read
    ("RTX 4090旁边的CPU配有64GB内存。", []),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_cpu_figures(text: str, expected: list[tuple[object, ...]]) -> None:
    assert claims_with_reasons(text, "t.txt") == expected
