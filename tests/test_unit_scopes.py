"""Per-unit and per-link scopes (一个SM, 每SM header, MIG实例每个, 单条链路, 每个方向, 启用了…的, 屏蔽了…) and
numbers as written (1.69万, 40960KB, 24576MB, 624/1248（稀疏）, 10 TFLOPS, 800 亿, bare PCIe on an x8 card). Every
case asserts the whole claim list of its text with the reason of each unverifiable claim. Texts are written for
these tests."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.api import check_text
from pipeline.check.compare import numeric_fits
from pipeline.config import Tolerance
from pipeline.extract.quantities import find_quantities
from pipeline.records import Claim, Qualifier
from tests.test_owner_scope import claims_with_reasons

P, U, S, C, M = "product", "unverifiable", "supported", "contradicted", "misattributed"
UNIT, LINK = "unit", "link"

# fmt: off
UNIT_CASES = [
    # 一个/1个 + a unit name is one unit: the figures after it are per unit, and the 一个 is no count of SMs
    ("H100的一个SM有128个CUDA核心。", "t.txt", [("128个", "cuda_cores", "nvidia_h100", UNIT, S, None)]),
    ("H100的一个SM有64个CUDA核心。", "t.txt", [("64个", "cuda_cores", "nvidia_h100", UNIT, C, None)]),
    ("H100的1个SM里有4个Tensor Core。", "t.txt", [("4个", "tensor_cores", "nvidia_h100", UNIT, S, None)]),
    ("H100的一个GPC有18个SM。", "t.txt", [("18个", "sm_count", "nvidia_h100", UNIT, U, "scope_not_product")]),
    ("MI250的一个GCD有64GB显存。", "t.txt", [("64GB", "memory_size", "amd_mi250", UNIT, U, "scope_not_product")]),
    # the unit may carry its architecture's name (一个Ada SM, 每个Hopper SM); CUDA in a header is not a CU
    ("RTX 4080很强。一个Ada SM有4个Tensor Core。", "t.txt",
     [("4个", "tensor_cores", "nvidia_rtx_4080", UNIT, S, None)]),
    ("RTX 4080很强。一个Ada SM有8个Tensor Core。", "t.txt",
     [("8个", "tensor_cores", "nvidia_rtx_4080", UNIT, C, None)]),
    # each figure of a pair takes the sparsity label right after it; Tensor算力 alone names no precision
    ("L40S的FP8算力为733 TFLOPS（稠密）/ 1466 TFLOPS（稀疏）。", "t.txt",
     [("733 TFLOPS", "fp8", "nvidia_l40s", P, S, None), ("稠密", "figure_label", "nvidia_l40s", P, S, None),
      ("1466 TFLOPS", "fp8", "nvidia_l40s", P, S, None), ("稀疏", "figure_label", "nvidia_l40s", P, S, None)]),
    ("L40S的FP8算力为1466 TFLOPS（稠密）。", "t.txt", [("1466 TFLOPS", "fp8", "nvidia_l40s", P, M, None),
                                                  ("稠密", "figure_label", "nvidia_l40s", P, C, None)]),
    ("T4的FP32为8.1 TFLOPS，Tensor算力65 TFLOPS。", "t.txt", [("8.1 TFLOPS", "fp32", "nvidia_t4", P, S, None),
                                                              ("65 TFLOPS", "figure", "nvidia_t4", P, U,
                                                               "unknown_attribute")]),
    ("T4的FP16 Tensor算力为65 TFLOPS。", "t.txt", [("65 TFLOPS", "fp16", "nvidia_t4", P, S, None)]),
    # 一 at the end of a larger number is a count
    ("H100 SXM5有一百三十二个SM。", "t.txt", [("一百三十二个", "sm_count", "nvidia_h100", P, S, None)]),
    ("RTX 4090有十一个SM。", "t.txt", [("十一个", "sm_count", "nvidia_rtx_4090", P, C, None)]),
    # a sentence that opens with one unit does not make a later clause about a named card per unit
    ("一个GPC包含多个TPC，H100 SXM5共有132个SM。", "t.txt", [("132个", "sm_count", "nvidia_h100", P, S, None)]),
    # a table column headed 每SM is per SM
    ("| 型号 | SM数 | 每SM CUDA核心 |\n|---|---|---|\n| H100 SXM5 | 132 | 128 |\n| A100 | 108 | 32 |\n", "t.md",
     [("132", "sm_count", "nvidia_h100", P, S, None), ("128", "cuda_cores", "nvidia_h100", UNIT, S, None),
      ("108", "sm_count", "nvidia_a100", P, S, None), ("32", "cuda_cores", "nvidia_a100", UNIT, C, None)]),
    # the SM and CU counts of cards in their own columns; a column of SM clocks is not a count
    ("| 型号 | SM数量 | CU数 |\n|---|---|---|\n| RTX 4090 | 144 | - |\n| MI300X | - | 304 |\n", "t.md",
     [("144", "sm_count", "nvidia_rtx_4090", P, C, None), ("304", "compute_units", "amd_mi300x", P, S, None)]),
    ("| 型号 | 纹理单元 | ROPs |\n|---|---|---|\n| RTX 4080 | 304 | 112 |\n| RTX 4090 | 512 | 192 |\n", "t.md",
     [("304", "tmus", "nvidia_rtx_4080", P, S, None), ("112", "rops", "nvidia_rtx_4080", P, S, None),
      ("512", "tmus", "nvidia_rtx_4090", P, S, None), ("192", "rops", "nvidia_rtx_4090", P, C, None)]),
    ("| 型号 | SM频率 |\n|---|---|\n| RTX 4090 | 2520 |\n", "t.md",
     [("2520", "figure", "nvidia_rtx_4090", P, U, "unknown_attribute")]),
    # a MIG instance is a unit, not the card
    ("A100 40GB的MIG实例每个5GB显存。", "t.txt",
     [("40GB", "memory_size", "nvidia_a100", P, S, None),
      ("5GB", "memory_size", "nvidia_a100", UNIT, U, "scope_not_product")]),
    # what a card keeps of its die is a part of the die, not the full die's count
    ("H100 SXM5启用了GH100的132个SM。", "t.txt", [("132个", "sm_count", "GH100", UNIT, U, "scope_not_product")]),
    # a masked or disabled count is not a spec
    ("RTX 4090使用的AD102被屏蔽了16个SM。", "t.txt", [("AD102", "gpu_chip", "nvidia_rtx_4090", P, S, None)]),
    ("RTX 4090的AD102上有16个SM不可用。", "t.txt", []),
]

LINK_CASES = [
    ("NVLink 3.0单条链路单向25GB/s。", "t.txt", [("25GB/s", "interconnect_bandwidth", "nvlink_3", LINK, S, None)]),
    ("第三代NVLink单链路双向带宽50GB/s。", "t.txt",
     [("50GB/s", "interconnect_bandwidth", "nvlink_3", LINK, S, None)]),
    ("NVLink 3.0每条链路每个方向25GB/s。", "t.txt",
     [("25GB/s", "interconnect_bandwidth", "nvlink_3", LINK, S, None)]),
    # one direction is 25, so 50 per direction is the bidirectional figure given as one direction
    ("NVLink 3.0每条链路每个方向50GB/s。", "t.txt",
     [("50GB/s", "interconnect_bandwidth", "nvlink_3", LINK, M, None)]),
    ("H100的单条NVLink链路带宽为50GB/s。", "t.txt",
     [("50GB/s", "interconnect_bandwidth", "nvidia_h100", LINK, U, "scope_not_product")]),
    # a bare PCIe generation runs at the lanes of the card named (RTX 4060 Ti: x8); an x16 card keeps x16
    ("RTX 4060 Ti插在PCIe 3.0主板上，带宽只有约8GB/s。", "t.txt",
     [("约8GB/s", "interconnect_bandwidth", "pcie_3_x8", LINK, S, None)]),
    ("RTX 4090插在PCIe 3.0主板上，带宽只有约8GB/s。", "t.txt",
     [("约8GB/s", "interconnect_bandwidth", "pcie_3_x16", LINK, M, None)]),
]

NUMBER_CASES = [
    # a count written with 万 is rounded at its last written digit; written in full it is exact
    ("H100 SXM5有1.69万个CUDA核心。", "t.txt", [("1.69万个", "cuda_cores", "nvidia_h100", P, S, None)]),
    ("RTX 5090有2.1万个CUDA核心。", "t.txt", [("2.1万个", "cuda_cores", "nvidia_rtx_5090", P, S, None)]),
    ("RTX 4090有1.7万个CUDA核心。", "t.txt", [("1.7万个", "cuda_cores", "nvidia_rtx_4090", P, C, None)]),
    ("RTX 4090有2万个CUDA核心。", "t.txt", [("2万个", "cuda_cores", "nvidia_rtx_4090", P, C, None)]),
    ("RTX 4090有16000个CUDA核心。", "t.txt", [("16000个", "cuda_cores", "nvidia_rtx_4090", P, C, None)]),
    ("RTX 4090有1.36万个CUDA核心。", "t.txt", [("1.36万个", "cuda_cores", "nvidia_rtx_4090", P, C, None)]),
    # KB and MB as GPU tools write them: binary
    ("A100的L2缓存为40960KB。", "t.txt", [("40960KB", "cache_size", "nvidia_a100", P, S, None)]),
    ("A100的L2缓存为50000KB。", "t.txt", [("50000KB", "cache_size", "nvidia_a100", P, C, None)]),
    ("RTX 4090的显存为24576MB。", "t.txt", [("24576MB", "memory_size", "nvidia_rtx_4090", P, S, None)]),
    ("RTX 4090的显存为16384MB。", "t.txt", [("16384MB", "memory_size", "nvidia_rtx_4090", P, C, None)]),
    # a dense and a sparse figure joined by a slash are a pair, not a range
    ("A100的INT8算力为624 TOPS/1248 TOPS（稀疏）。", "t.txt",
     [("624 TOPS", "int8", "nvidia_a100", P, S, None), ("1248 TOPS", "int8", "nvidia_a100", P, S, None),
      ("稀疏", "figure_label", "nvidia_a100", P, S, None)]),
    ("A100的INT8算力为500 TOPS/1000 TOPS（稀疏）。", "t.txt",
     [("500 TOPS", "int8", "nvidia_a100", P, C, None), ("1000 TOPS", "int8", "nvidia_a100", P, C, None),
      ("稀疏", "figure_label", "nvidia_a100", P, U, "no_fact")]),
    ("| 型号 | FP8（稠密/稀疏） |\n|---|---|\n| L4 | 242.5 / 485 TFLOPS |\n| L40S | 733 / 1000 TFLOPS |\n", "t.md",
     [("242.5", "fp8", "nvidia_l4", P, S, None), ("485 TFLOPS", "fp8", "nvidia_l4", P, S, None),
      ("733 / 1000 TFLOPS", "fp8", "nvidia_l40s", P, C, None)]),
    # one significant digit: rounded half its step (10 for 9.7); 11 is no rounding of 9.7
    ("A100的FP64算力为10 TFLOPS。", "t.txt", [("10 TFLOPS", "fp64", "nvidia_a100", P, S, None)]),
    ("A100的FP64算力为11 TFLOPS。", "t.txt", [("11 TFLOPS", "fp64", "nvidia_a100", P, C, None)]),
    # a space before 亿/万, as Traditional and Taiwan texts write it
    ("H100有800 亿个晶体管。", "t.txt", [("800 亿个", "transistors", "nvidia_h100", P, S, None)]),
]
# fmt: on


@pytest.mark.parametrize(("text", "doc_id", "expected"), UNIT_CASES + LINK_CASES + NUMBER_CASES)
def test_claims(text: str, doc_id: str, expected: list[tuple[object, ...]]) -> None:
    assert claims_with_reasons(text, doc_id) == expected


_DIGITS = st.integers(min_value=1, max_value=999)


@given(_DIGITS, st.sampled_from(["万", "亿"]))
def test_a_space_before_wan_reads_the_same_number(n: int, wan: str) -> None:
    spaced = [q.value for q in find_quantities(f"共有{n} {wan}个晶体管")]
    assert spaced == [q.value for q in find_quantities(f"共有{n}{wan}个晶体管")]
    assert spaced == [n * (1e4 if wan == "万" else 1e8)]


@given(st.integers(min_value=1, max_value=4000).map(lambda n: n / 2), st.booleans())
def test_a_slash_pair_under_sparsity_is_dense_then_sparse(dense: float, said_in_text: bool) -> None:
    text = f"{dense:g} / {dense * 2:g} TFLOPS" + ("（稀疏）" if said_in_text else "")
    found = find_quantities(text, sparsity_said=not said_in_text)
    assert [(q.low, q.sparsity, q.qualifier) for q in found] == [
        (dense, "dense", Qualifier.EXACT), (dense * 2, "sparse", Qualifier.EXACT)]


@given(st.integers(min_value=1, max_value=4000).map(lambda n: n / 2))
def test_a_slash_pair_without_sparsity_stays_a_range(low: float) -> None:
    found = find_quantities(f"{low:g} / {low * 2:g} TFLOPS")
    assert [(q.value, q.qualifier) for q in found] == [((low, low * 2), Qualifier.RANGE)]


def _count_claim(written: str) -> Claim:
    (claim,) = [c for c in check_text(f"RTX 4090有{written}个CUDA核心。") if c.attribute == "cuda_cores"]
    return claim


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=10000, max_value=99999))
def test_a_count_in_wan_fits_its_own_rounding_and_a_full_count_only_itself(true: int) -> None:
    rounded = round(true / 100) / 100  # two decimals of 万: "1.69万"
    written = f"{rounded:.2f}万"
    claim = _count_claim(written)
    assert numeric_fits(claim, [float(true)], Tolerance())
    exact = _count_claim(str(true))
    assert numeric_fits(exact, [float(true)], Tolerance())
    assert not numeric_fits(exact, [float(true + 1)], Tolerance())
    assert not numeric_fits(claim, [true * 1.06], Tolerance())
