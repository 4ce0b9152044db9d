"""Claims about the accelerators added for articles on AI hardware: Google's Cloud TPUs (v2-v6e, per chip), the two
TITAN X cards and the bare name "TITAN X" that may mean either, the TITAN RTX's throughput and the MI250X's compute
units. Each case is a sentence written for the test and its complete claim list: a right figure supported, a wrong
one contradicted, and a name that is not the card's (a bare "v4", a "TITAN X" figure right for one of the two cards)
never flagged."""

from __future__ import annotations

import pytest
from claim_helpers import C, P, S, U, claims_for, gap, rows

from pipeline.extract.quantities import find_quantities
from pipeline.knowledge.reference import Reference

TPU_CASES = [
    # Simplified and Traditional, the sizes Google writes in GB and GiB
    ("谷歌的TPU v5e配备16GB HBM2，带宽为819GB/s。",
     [("谷歌", "manufacturer", "google_tpu_v5e", P, S), ("16GB", "memory_size", "google_tpu_v5e", P, S),
      ("HBM2", "memory_type", "google_tpu_v5e", P, S), ("819GB/s", "memory_bandwidth", "google_tpu_v5e", P, S)]),
    ("谷歌的TPU v5e每顆晶片配備16GB HBM2，頻寬為819GB/s。",
     [("谷歌", "manufacturer", "google_tpu_v5e", P, S), ("16GB", "memory_size", "google_tpu_v5e", P, S),
      ("HBM2", "memory_type", "google_tpu_v5e", P, S), ("819GB/s", "memory_bandwidth", "google_tpu_v5e", P, S)]),
    ("TPU v5e配备16 GiB HBM2。",
     [("16 GiB", "memory_size", "google_tpu_v5e", P, S), ("HBM2", "memory_type", "google_tpu_v5e", P, S)]),
    ("Cloud TPU v4配备32 GiB HBM2，带宽1200GB/s。",
     [("32 GiB", "memory_size", "google_tpu_v4", P, S), ("HBM2", "memory_type", "google_tpu_v4", P, S),
      ("1200GB/s", "memory_bandwidth", "google_tpu_v4", P, S)]),
    ("TPU v5e配备32 GiB HBM2。",
     [("32 GiB", "memory_size", "google_tpu_v5e", P, C), ("HBM2", "memory_type", "google_tpu_v5e", P, S)]),
    # the inter-chip link's 1.6 Tbps / 4.8 Tbps is not the HBM bandwidth
    ("TPU v5e的HBM带宽为1.6TB/s。",
     [("HBM", "memory_type", "google_tpu_v5e", P, S), ("1.6TB/s", "memory_bandwidth", "google_tpu_v5e", P, C)]),
    ("TPUv5p配备95GB HBM2e显存，带宽4.8TB/s。",
     [("95GB", "memory_size", "google_tpu_v5p", P, S), ("HBM2e", "memory_type", "google_tpu_v5p", P, S),
      ("4.8TB/s", "memory_bandwidth", "google_tpu_v5p", P, C)]),
    # the inter-chip interconnect's own figure is not checked against the HBM (the reference has no ICI rows)
    ("TPU v5p的ICI带宽为1200GB/s。", [("1200GB/s", "interconnect_bandwidth", "google_tpu_v5p", P, U)]),
    ("TPU v5e的ICI带宽为1.6Tbps。", [("1.6Tbps", "interconnect_bandwidth", "google_tpu_v5e", P, U)]),
    ("TPU v5e支持ICI互联，HBM带宽819GB/s。",  # the link it supports is recorded, not judged
     [("支持ICI互联", "figure", "google_tpu_v5e", P, U), ("HBM", "memory_type", "google_tpu_v5e", P, S),
      ("819GB/s", "memory_bandwidth", "google_tpu_v5e", P, S)]),
    ("TPU v5p的显存带宽为2765GB/s。", [("2765GB/s", "memory_bandwidth", "google_tpu_v5p", P, S)]),
    ("Google TPU v4的峰值算力为275 TFLOPS（BF16）。",
     [("275 TFLOPS", "bf16", "google_tpu_v4", P, S), ("BF16", "figure_label", "google_tpu_v4", P, S)]),
    ("第四代TPU的内存为32GB。", [("32GB", "memory_size", "google_tpu_v4", P, S)]),
    ("TPU v6e的BF16算力为918 TFLOPS，INT8为1836 TOPS。",
     [("918 TFLOPS", "bf16", "google_tpu_v6e", P, S), ("1836 TOPS", "int8", "google_tpu_v6e", P, S)]),
    ("TPU v6e的BF16算力为459 TFLOPS。", [("459 TFLOPS", "bf16", "google_tpu_v6e", P, C)]),
    ("Trillium的HBM容量为32GB，带宽1640GB/s。",
     [("HBM", "memory_type", "google_tpu_v6e", P, U), ("32GB", "memory_size", "google_tpu_v6e", P, S),
      ("1640GB/s", "memory_bandwidth", "google_tpu_v6e", P, S)]),
    ("TPU v3的BF16算力为123 TFLOPS，HBM带宽900GB/s。",
     [("123 TFLOPS", "bf16", "google_tpu_v3", P, S), ("HBM", "memory_type", "google_tpu_v3", P, S),
      ("900GB/s", "memory_bandwidth", "google_tpu_v3", P, S)]),
    # TPU v2's HBM generation is not in Google's pages: a type is not checked
    ("TPU v2配备16GB HBM2。",
     [("16GB", "memory_size", "google_tpu_v2", P, S), ("HBM2", "memory_type", "google_tpu_v2", P, U)]),
    ("TPU v2配备8GB HBM2。",
     [("8GB", "memory_size", "google_tpu_v2", P, C), ("HBM2", "memory_type", "google_tpu_v2", P, U)]),
    ("TPU v4是英伟达推出的芯片。", [("英伟达推出", "manufacturer", "google_tpu_v4", P, C)]),
    ("谷歌推出了TPU v5p，配备95GB HBM2e。",
     [("谷歌推出", "manufacturer", "google_tpu_v5p", P, S), ("95GB", "memory_size", "google_tpu_v5p", P, S),
      ("HBM2e", "memory_type", "google_tpu_v5p", P, S)]),
    # a bare version is not a TPU (driver versions, instance names, other products' v4): no owner, beside a control
    ("v4版本的驱动支持16GB显存。", [("16GB", "memory_size", "", P, U)]),
    ("新的v5e实例带宽为819GB/s。", [("819GB/s", "memory_bandwidth", "", P, U)]),
    ("TPU v4版本的驱动支持16GB显存。", [("16GB", "memory_size", "google_tpu_v4", P, C)]),
    # a TPU the reference does not have stays unknown, not the nearest known one
    ("TPU v4i的HBM带宽为614GB/s。",
     [("HBM", "memory_type", "model:google:v4i", P, U), ("614GB/s", "memory_bandwidth", "model:google:v4i", P, U)]),
    # "每颗芯片" reads as one die of a multi-die card; a TPU chip is the product, which the checker does not know
    gap("谷歌的TPU v5e每颗芯片配备16GB HBM2，带宽为819GB/s。",
        [("谷歌", "manufacturer", "google_tpu_v5e", P, S), ("16GB", "memory_size", "google_tpu_v5e", P, S),
         ("HBM2", "memory_type", "google_tpu_v5e", P, S),
         ("819GB/s", "memory_bandwidth", "google_tpu_v5e", P, S)],
        reason="每颗芯片 is a unit scope (one die); a TPU's per-chip figures are the product's"),
]

TITAN_CASES = [
    # the Maxwell card is the one named GeForce GTX
    ("GeForce GTX TITAN X基于Maxwell架构，拥有3072个CUDA核心。",
     [("Maxwell", "architecture", "nvidia_gtx_titan_x", P, S), ("3072个", "cuda_cores", "nvidia_gtx_titan_x", P, S)]),
    ("GTX TITAN X配备12GB GDDR5X显存。",
     [("12GB", "memory_size", "nvidia_gtx_titan_x", P, S), ("GDDR5X", "memory_type", "nvidia_gtx_titan_x", P, C)]),
    ("GTX Titan X的显存带宽为336GB/s，功耗250W。",
     [("336GB/s", "memory_bandwidth", "nvidia_gtx_titan_x", P, S), ("250W", "tdp", "nvidia_gtx_titan_x", P, S)]),
    # the Pascal card, named with its architecture
    ("TITAN X (Pascal)拥有3584个CUDA核心，FP32算力11 TFLOPS。",
     [("3584个", "cuda_cores", "nvidia_titan_x_pascal", P, S), ("11 TFLOPS", "fp32", "nvidia_titan_x_pascal", P, S)]),
    ("TITAN X Pascal的显存带宽为480GB/s。", [("480GB/s", "memory_bandwidth", "nvidia_titan_x_pascal", P, S)]),
    ("TITAN X Pascal拥有3072个CUDA核心。", [("3072个", "cuda_cores", "nvidia_titan_x_pascal", P, C)]),
    # a bare TITAN X: a figure right for either card is supported, one that varies between them is never flagged
    ("NVIDIA TITAN X基于Pascal架构。", [("Pascal", "architecture", "nvidia_titan_x", P, S)]),
    ("Titan X拥有3584个CUDA核心，配备12GB GDDR5X显存。",
     [("3584个", "cuda_cores", "nvidia_titan_x", P, S), ("12GB", "memory_size", "nvidia_titan_x", P, S),
      ("GDDR5X", "memory_type", "nvidia_titan_x", P, S)]),
    ("Titan X拥有3072个CUDA核心，显存带宽336GB/s。",
     [("3072个", "cuda_cores", "nvidia_titan_x", P, S), ("336GB/s", "memory_bandwidth", "nvidia_titan_x", P, S)]),
    ("TITAN X於2015年發布。", [("2015年", "launch_year", "nvidia_titan_x", P, S)]),
    ("TITAN X基于Turing架构。", [("Turing", "architecture", "nvidia_titan_x", P, U)]),
    # a figure wrong for both cards is wrong whichever is meant
    ("Titan X拥有4096个CUDA核心。", [("4096个", "cuda_cores", "nvidia_titan_x", P, C)]),
    # TITAN Xp is a third card, not the Pascal TITAN X
    ("TITAN Xp拥有3840个CUDA核心。", [("3840个", "cuda_cores", "nvidia_titan_xp", P, S)]),
    ("TITAN RTX的FP32算力为16.3 TFLOPS。", [("16.3 TFLOPS", "fp32", "nvidia_titan_rtx", P, S)]),
    ("TITAN RTX的FP32算力为13 TFLOPS。", [("13 TFLOPS", "fp32", "nvidia_titan_rtx", P, C)]),
    # MI250X and MI250 differ in compute units
    ("MI250X拥有220个计算单元。", [("220个", "compute_units", "amd_mi250x", P, S)]),
    ("MI250X拥有208个计算单元。", [("208个", "compute_units", "amd_mi250x", P, C)]),
    ("MI250拥有208个计算单元。", [("208个", "compute_units", "amd_mi250", P, S)]),
]


@pytest.mark.parametrize(("text", "expected"), TPU_CASES + TITAN_CASES,
                         ids=[c.values[0] if hasattr(c, "marks") else c[0] for c in TPU_CASES + TITAN_CASES])
def test_claims(text: str, expected: list[tuple[str, ...]]) -> None:
    assert rows(claims_for(text)) == expected


@pytest.mark.parametrize(("text", "value"), [("16GiB", 16.0), ("32 GiB", 32.0), ("24GiB", 24.0), ("16GB", 16.0)])
def test_binary_sizes_read_as_gb(text: str, value: float) -> None:
    (q,) = list(find_quantities(text))
    assert (q.kind, q.unit, q.value) == ("size", "GB", value)


def test_gib_rate_is_not_read() -> None:
    assert all(q.kind != "rate" for q in find_quantities("800 GiB/s"))


def test_no_tpu_alias_is_a_bare_version(ref: Reference) -> None:
    """A TPU is named with "TPU" (or its own name): "v4", "v5e" alone occur in too many other contexts."""
    tpus = [p for p in ref.products.values() if p.vendor == "google"]
    assert len(tpus) == 6
    for p in tpus:
        for alias in p.aliases:
            assert "TPU" in alias or alias in ("Trillium",), (p.product_id, alias)


def test_titan_x_series_holds_both_cards(ref: Reference) -> None:
    assert set(ref.members("nvidia_titan_x")) == {"nvidia_gtx_titan_x", "nvidia_titan_x_pascal"}
    assert {ref.products[m].architecture for m in ref.members("nvidia_titan_x")} == {"Maxwell", "Pascal"}
