"""Claims about the cards added for articles on running AI models at home (GTX 10/16, RTX 20, RTX 3060 Ti/3070 Ti/
3050, RTX 4000 Ada, RTX A2000, A16; the per-GPU figures of the two-GPU K80 and M60): each case a sentence written
for the test and its complete claim list, a right figure supported and a wrong one contradicted against the curated
rows rather than left to the secondary source."""

from __future__ import annotations

import pytest
from claim_helpers import C, P, S, claims_for, rows

CASES = [
    # Pascal: the 1080 Ti's odd 11 GB on 352 bits; the 1060's 3GB card has fewer cores than the 6GB one
    ("GTX 1080 Ti配备11GB GDDR5X显存，显存位宽352bit。",
     [("11GB", "memory_size", "nvidia_gtx_1080_ti", P, S), ("GDDR5X", "memory_type", "nvidia_gtx_1080_ti", P, S),
      ("352bit", "memory_bus_width", "nvidia_gtx_1080_ti", P, S)]),
    ("GTX 1080 Ti配备12GB GDDR6显存。",
     [("12GB", "memory_size", "nvidia_gtx_1080_ti", P, C), ("GDDR6", "memory_type", "nvidia_gtx_1080_ti", P, C)]),
    ("GTX 1060 6GB拥有1280个CUDA核心，功耗120W。",
     [("6GB", "memory_size", "nvidia_gtx_1060", P, S), ("1280个", "cuda_cores", "nvidia_gtx_1060", P, S),
      ("120W", "tdp", "nvidia_gtx_1060", P, S)]),
    ("GTX 1060 3GB拥有1280个CUDA核心。",
     [("3GB", "memory_size", "nvidia_gtx_1060", P, S), ("1280个", "cuda_cores", "nvidia_gtx_1060", P, C)]),
    ("GTX1080的FP32算力为9 TFLOPS。", [("9 TFLOPS", "fp32", "nvidia_gtx_1080", P, S)]),
    # GTX 16: Turing without Tensor Cores
    ("GTX 1660 Ti没有Tensor Core，显存带宽288GB/s。",
     [("没有Tensor Core", "tensor_cores", "nvidia_gtx_1660_ti", P, S),
      ("288GB/s", "memory_bandwidth", "nvidia_gtx_1660_ti", P, S)]),
    ("GTX 1660 SUPER的显存带宽为288GB/s。", [("288GB/s", "memory_bandwidth", "nvidia_gtx_1660_super", P, C)]),
    # RTX 20
    ("RTX 2080 SUPER拥有3072个CUDA核心和8GB GDDR6显存。",
     [("3072个", "cuda_cores", "nvidia_rtx_2080_super", P, S), ("8GB", "memory_size", "nvidia_rtx_2080_super", P, S),
      ("GDDR6", "memory_type", "nvidia_rtx_2080_super", P, S)]),
    ("RTX 2070的功耗为250W。", [("250W", "tdp", "nvidia_rtx_2070", P, C)]),
    # the reference board's and the Founders Edition's power are both NVIDIA's
    ("RTX 2080的功耗为225W。", [("225W", "tdp", "nvidia_rtx_2080", P, S)]),
    ("RTX 2070的功耗为175W。", [("175W", "tdp", "nvidia_rtx_2070", P, S)]),
    # the 2080 Ti's throughput (Turing whitepaper): reference clock and Founders Edition; a FP32 figure given as FP16
    ("RTX 2080 Ti的FP32算力为13.4 TFLOPS。", [("13.4 TFLOPS", "fp32", "nvidia_rtx_2080_ti", P, S)]),
    ("RTX 2080 Ti的FP32算力为14.2 TFLOPS。", [("14.2 TFLOPS", "fp32", "nvidia_rtx_2080_ti", P, S)]),
    ("RTX 2080 Ti的FP32算力为16.3 TFLOPS。", [("16.3 TFLOPS", "fp32", "nvidia_rtx_2080_ti", P, C)]),
    ("RTX 2080 Ti的Tensor FP16算力为107.6 TFLOPS。", [("107.6 TFLOPS", "fp16", "nvidia_rtx_2080_ti", P, S)]),
    ("RTX 2080 Ti的FP16算力为14.2 TFLOPS。", [("14.2 TFLOPS", "fp16", "nvidia_rtx_2080_ti", P, "misattributed")]),
    ("RTX 2080 Ti的INT8算力为227.7 TOPS。", [("227.7 TOPS", "int8", "nvidia_rtx_2080_ti", P, S)]),
    # the H20's CUDA-core figures (the table its other rows come from)
    ("H20的FP32算力为44 TFLOPS。", [("44 TFLOPS", "fp32", "nvidia_h20", P, S)]),
    ("H20的FP32算力为67 TFLOPS。", [("67 TFLOPS", "fp32", "nvidia_h20", P, C)]),
    ("RTX 2060配备6GB显存，带宽336GB/s。",
     [("6GB", "memory_size", "nvidia_rtx_2060", P, S), ("336GB/s", "memory_bandwidth", "nvidia_rtx_2060", P, S)]),
    ("RTX 20系列显卡最多配备11GB显存。", [("11GB", "memory_size", "nvidia_rtx_20", P, S)]),
    # RTX 30: the 3060 Ti's GDDR6X card, the 3050's 6GB card
    ("RTX 3060 Ti配备8GB GDDR6X显存，带宽608GB/s。",
     [("8GB", "memory_size", "nvidia_rtx_3060_ti", P, S), ("GDDR6X", "memory_type", "nvidia_rtx_3060_ti", P, S),
      ("608GB/s", "memory_bandwidth", "nvidia_rtx_3060_ti", P, S)]),
    ("RTX 3070 Ti的功耗为290W，配备8GB GDDR6X显存。",
     [("290W", "tdp", "nvidia_rtx_3070_ti", P, S), ("8GB", "memory_size", "nvidia_rtx_3070_ti", P, S),
      ("GDDR6X", "memory_type", "nvidia_rtx_3070_ti", P, S)]),
    ("RTX 3050 6GB的功耗为130W。",
     [("6GB", "memory_size", "nvidia_rtx_3050", P, S), ("130W", "tdp", "nvidia_rtx_3050", P, C)]),
    # workstation and data-centre cards
    ("RTX 4000 Ada配备20GB显存，功耗130W。",
     [("20GB", "memory_size", "nvidia_rtx_4000_ada", P, S), ("130W", "tdp", "nvidia_rtx_4000_ada", P, S)]),
    ("RTX 4000 Ada的显存带宽为448GB/s。", [("448GB/s", "memory_bandwidth", "nvidia_rtx_4000_ada", P, C)]),
    ("RTX A2000的显存带宽为288GB/s，功耗70W。",
     [("288GB/s", "memory_bandwidth", "nvidia_rtx_a2000", P, S), ("70W", "tdp", "nvidia_rtx_a2000", P, S)]),
    ("A16配备64GB显存，功耗250W。",
     [("64GB", "memory_size", "nvidia_a16", P, S), ("250W", "tdp", "nvidia_a16", P, S)]),
    ("NVIDIA A16的显存带宽为400GB/s。", [("400GB/s", "memory_bandwidth", "nvidia_a16", P, C)]),
    # the board's four GPUs: a per-GPU figure is NVIDIA's too
    ("A16每个GPU配备16GB显存。", [("16GB", "memory_size", "nvidia_a16", P, S)]),
    ("A16配备32GB显存。", [("32GB", "memory_size", "nvidia_a16", P, C)]),
    # the older two-GPU boards the same way: the board's figure or one GPU's, never a third
    ("Tesla K80每颗GPU拥有2496个CUDA核心和12GB显存。",
     [("2496个", "cuda_cores", "nvidia_tesla_k80", P, S), ("12GB", "memory_size", "nvidia_tesla_k80", P, S)]),
    ("Tesla K80每颗GPU拥有3072个CUDA核心和16GB显存。",
     [("3072个", "cuda_cores", "nvidia_tesla_k80", P, C), ("16GB", "memory_size", "nvidia_tesla_k80", P, C)]),
    ("K80的显存带宽为480GB/s，单颗GPU为240GB/s。",
     [("480GB/s", "memory_bandwidth", "nvidia_tesla_k80", P, S),
      ("240GB/s", "memory_bandwidth", "nvidia_tesla_k80", P, S)]),
    ("Tesla M60每个GPU有2048个CUDA核心、8GB显存。",
     [("2048个", "cuda_cores", "nvidia_tesla_m60", P, S), ("8GB", "memory_size", "nvidia_tesla_m60", P, S)]),
    ("Tesla M60配备12GB显存。", [("12GB", "memory_size", "nvidia_tesla_m60", P, C)]),
    # counts and links the red-team found missing: the A100's enabled SMs, the MI300X's CUs, NVLink-C2C by name
    ("A100 GPU启用了108个SM。", [("108个", "sm_count", "nvidia_a100", P, S)]),
    ("A100 GPU启用了128个SM。", [("128个", "sm_count", "nvidia_a100", P, C)]),
    ("MI300X共有304个计算单元。", [("304个", "compute_units", "amd_mi300x", P, S)]),
    ("RTX 3090的稀疏FP16 Tensor算力为285 TFLOPS。", [("285 TFLOPS", "fp16", "nvidia_rtx_3090", P, S)]),
    ("GH200里CPU和GPU之间的NVLink-C2C带宽为900GB/s。",
     [("900GB/s", "interconnect_bandwidth", "nvidia_gh200", P, S)]),
    ("GH200里CPU和GPU之间的NVLink-C2C带宽为1.8TB/s。",
     [("1.8TB/s", "interconnect_bandwidth", "nvidia_gh200", P, C)]),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_claims(text: str, expected: list[tuple[str, ...]]) -> None:
    assert rows(claims_for(text)) == expected
