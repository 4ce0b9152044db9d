"""Figures a word names only by their unit, their line or a label beside them: a byte rate no word names is the card's
memory bandwidth (unless the sentence speaks of a link, a transfer or a CPU's memory); a wattage alone on its line
under a card is the card's power; a bare number labelled with a number format is a throughput; a precision before a
word that names none ("FP8精度下AI算力") is the figure's; English ordinals of generations (4th 代); the items of a
bracket after a name; 新增 as an introduction; a memory type as the cue of a bus width; a question mark glued to a
figure (a character a page could not encode) is a space; a ratio right after a figure compares that figure; a
bracketed label after a figure; a column's unit in its header; a key cell with its card's memory versions. Texts
written for the tests."""

from __future__ import annotations

import pytest

from pipeline.normalize import normalize
from tests.claim_helpers import FAM, C, P, S, U, claims_for, rows

# fmt: off
CASES = [
    # a card's byte rate with no word for it: its memory bandwidth, right or wrong
    ("T4的数据吞吐能力为320GB/s。", "t.txt", [("320GB/s", "memory_bandwidth", "nvidia_t4", P, S)]),
    ("T4的数据吞吐能力为600GB/s。", "t.txt", [("600GB/s", "memory_bandwidth", "nvidia_t4", P, C)]),
    # a link in the sentence: not the memory's (recorded, not judged)
    ("两颗MI250X芯片之间的链接速度达到400GB/s。", "t.txt", [("400GB/s", "figure", "amd_mi250x", "system", U)]),
    # a format's name is a slip of the unit, not a bandwidth
    ("H100的FP16性能为2 TB/s。", "t.txt", [("2 TB/s", "figure_label", "nvidia_h100", P, C)]),
    # the precision before a word that names none
    ("L4在FP8精度下AI算力可达485 TFLOPS。", "t.txt", [("可达485 TFLOPS", "fp8", "nvidia_l4", P, S)]),
    # a wattage alone on its line, under the card's line
    ("T4\n\n70W\n", "t.md", [("70W", "tdp", "nvidia_t4", P, S)]),
    ("T4\n\n- 300W\n", "t.md", [("300W", "tdp", "nvidia_t4", P, C)]),
    # a bare number labelled with a format: a throughput in TFLOPS
    ("NVIDIA L4 ~121 (FP16) 24 GB GDDR6", "t.txt",
     [("~121", "fp16", "nvidia_l4", P, S), ("FP16", "figure_label", "nvidia_l4", P, S),
      ("24 GB", "memory_size", "nvidia_l4", P, S), ("GDDR6", "memory_type", "nvidia_l4", P, S)]),
    # English ordinals: a generation, not a count of cores
    ("RTX 4090配备 4th 代 Tensor 核心和 3rd 代 RT 核心。", "t.txt",
     [("4th 代 Tensor 核心", "generation", "nvidia_rtx_4090", P, S),
      ("3rd 代 RT 核心", "generation", "nvidia_rtx_4090", P, S)]),
    # the first item of a bracket after an architecture's name: its year
    ("- Turing（2018，TU102）：RT Core登场", "t.md", [("2018", "launch_year", "Turing", FAM, S)]),
    # 新增 introduces a feature; more of them is no introduction (the control above it)
    ("Pascal架构中新增了Tensor Core。", "t.txt", [("新增了Tensor Core", "introduced_by", "pascal", FAM, C)]),
    ("H100增加了Tensor Core的数量。", "t.txt", []),
    # a memory type in the clause says a bit count is the bus width
    ("H100采用HBM3与5120-bit。", "t.txt",
     [("HBM3", "memory_type", "nvidia_h100", P, S), ("5120-bit", "memory_bus_width", "nvidia_h100", P, S)]),
    ("H100采用HBM3与4096-bit。", "t.txt",
     [("HBM3", "memory_type", "nvidia_h100", P, S), ("4096-bit", "memory_bus_width", "nvidia_h100", P, C)]),
    # lost characters read as question marks
    ("H100基于?Hopper架构，显存带宽为?3.35TB/s。", "t.txt",
     [("Hopper", "architecture", "nvidia_h100", P, S), ("3.35TB/s", "memory_bandwidth", "nvidia_h100", P, S)]),
    # a ratio right after a figure compares that figure
    ("T4的数据吞吐能力为320GB/s，是V100的1.5倍。", "t.txt",
     [("320GB/s", "memory_bandwidth", "nvidia_t4", P, S), ("是V100的1.5倍", "ratio", "nvidia_t4", P, C)]),
    ("T4的数据吞吐能力为320GB/s，约为V100的三分之一。", "t.txt",
     [("320GB/s", "memory_bandwidth", "nvidia_t4", P, S), ("约为V100的三分之一", "ratio", "nvidia_t4", P, S)]),
    ("L4的显存为24GB，比T4多50%。", "t.txt",
     [("24GB", "memory_size", "nvidia_l4", P, S), ("比T4多50%", "ratio", "nvidia_l4", P, S)]),
    # a figure's own label in brackets names its format, whatever came before
    ("B200的单精度Tensor Core性能达45000 TFLOPS（FP4）。", "t.txt", [("45000 TFLOPS", "fp4", "nvidia_b200", P, C)]),
    # or among the notes of its bracket, after a comma; an accumulate precision there is not the operands'
    ("L40S的张量性能为362 TFLOPS（稠密，FP16）。", "t.txt", [("362 TFLOPS", "fp16", "nvidia_l40s", P, S)]),
    ("L40S的张量性能为362 TFLOPS（稠密，FP8）。", "t.txt", [("362 TFLOPS", "fp8", "nvidia_l40s", P, "misattributed")]),
    # a column's unit in its header gives the bare numbers under it their unit
    ("| 加速器 | 显存<br>(GB) | 类型 | 峰值带宽<br>(TBps) |\n| :--- | ---: | :--- | ---: |\n"
     "| NVIDIA L40S | 48 | GDDR6 | 0.86 |\n| NVIDIA H200 SXM | 141 | HBM3e | 3.9 |\n", "t.md",
     [("48", "memory_size", "nvidia_l40s", P, S), ("GDDR6", "memory_type", "nvidia_l40s", P, S),
      ("0.86", "memory_bandwidth", "nvidia_l40s", P, S), ("141", "memory_size", "nvidia_h200", P, S),
      ("HBM3e", "memory_type", "nvidia_h200", P, S), ("3.9", "memory_bandwidth", "nvidia_h200", P, C)]),
    # a column printed to fixed decimals: its zeros are padding (2.00 for 2039 GB/s)
    ("| 加速器 | 峰值带宽<br>(TBps) |\n| :--- | ---: |\n| NVIDIA A100 SXM | 2.00 |\n"
     "| NVIDIA H100 SXM | 3.35 |\n", "t.md",
     [("2.00", "memory_bandwidth", "nvidia_a100", P, S), ("3.35", "memory_bandwidth", "nvidia_h100", P, S)]),
    # a key cell with the memory versions of its card still names one card
    ("| 架构 | 代表型号 | 要点 |\n|---|---|---|\n| Hopper | H100 80/94GB | 第三代Tensor Core |\n"
     "| Ampere | A100 | 第三代Tensor Core |\n", "t.md",
     [("Hopper", "architecture", "nvidia_h100", P, S), ("第三代Tensor Core", "generation", "nvidia_h100", P, C),
      ("第三代Tensor Core", "tensor_cores", "nvidia_h100", P, S), ("Ampere", "architecture", "nvidia_a100", P, S),
      ("第三代Tensor Core", "generation", "nvidia_a100", P, S),
      ("第三代Tensor Core", "tensor_cores", "nvidia_a100", P, S)]),
    # a host interface alone on a spec line is the line's card's; with no card it is recorded, never judged
    ("- L4\n- PCIe 4.0 x16\n", "t.md", [("PCIe 4.0 x16", "interface", "nvidia_l4", P, S)]),
    ("支持PCIe 5.0 x16。", "t.txt", [("PCIe 5.0 x16", "interface", "", P, U)]),
    ("PCIe 5.0的带宽是PCIe 4.0的两倍。", "t.txt", [("两倍", "figure", "", P, U)]),
    # a generation as a label with no owner: recorded (controls: its card named; the clause about the generation)
    ("1. 第三代Tensor Core：支持TF32\n", "t.md", [("第三代Tensor Core", "generation", "", P, U)]),
    ("第三代Tensor Core带来了TF32。", "t.txt", []),
    ("H100采用第四代NVLink。", "t.txt", [("第四代NVLink", "generation", "nvidia_h100", P, S)]),
    # a label/value table whose model row names the card: the rows after it are that card's (介面 is 接口)
    ("| 項目 | 規格 |\n|---|---|\n| 型號 | Tesla T4 |\n| 显存 | 16GB |\n| 介面 | PCIe 3.0 x16 |\n", "t.md",
     [("16GB", "memory_size", "nvidia_t4", P, S), ("PCIe 3.0 x16", "interface", "nvidia_t4", P, S)]),
    ("| 型号 | 显存 |\n|---|---|\n| A100 | 40GB |\n| H100 | 80GB |\n", "t.md",
     [("40GB", "memory_size", "nvidia_a100", P, S), ("80GB", "memory_size", "nvidia_h100", P, S)]),
    # a card followed by 有/拥有 owns the figure
    ("训练时显存很关键;L4 有 24GB,够用。", "t.txt", [("24GB", "memory_size", "nvidia_l4", P, S)]),
    # the memory sizes a card comes in, written with a slash
    ("Tesla M40配备12/24GB GDDR5显存。", "t.txt",
     [("12/24GB", "memory_size", "nvidia_tesla_m40", P, S), ("GDDR5", "memory_type", "nvidia_tesla_m40", P, S)]),
    ("Tesla M40配备12/48GB GDDR5显存。", "t.txt",
     [("12/48GB", "memory_size", "nvidia_tesla_m40", P, C), ("GDDR5", "memory_type", "nvidia_tesla_m40", P, S)]),
    # 支援 is 支持
    ("B200支援 FP4 精度。", "t.txt", [("支援 FP4", "supports", "nvidia_b200", P, S)]),
    # a link's generation with no owner: recorded (the rate beside it is the link's)
    ("- NVLink 3.0\n", "t.md", [("NVLink 3.0", "generation", "", P, U)]),
    # a count of a product or chip the tables list as a part of what is named before it
    ("GB200包含2个Grace CPU和2个B200。", "t.txt",
     [("2个Grace", "composed_of", "nvidia_gb200", P, C), ("2个B200", "composed_of", "nvidia_gb200", P, S)]),
    ("DGX H100配备8块H100。", "t.txt", [("8块H100", "composed_of", "dgx_h100", "system", S)]),
    ("DGX H100配备4块H100。", "t.txt", [("4块H100", "composed_of", "dgx_h100", "system", C)]),
    ("H100比8块A100还快。", "t.txt", [("8块", "figure", "", P, U)]),  # how many cards: recorded, of no card
    # a count of GPUs after a system's name (control: no system named)
    ("DGX H100配备4块GPU。", "t.txt", [("4块GPU", "composed_of", "dgx_h100", "system", C)]),
    ("DGX B200服务器可组8卡。", "t.txt", [("8卡", "composed_of", "dgx_b200", "system", S)]),
    ("这台服务器配备8块GPU。", "t.txt", [("8块", "figure", "", P, U)]),
    # the whole named by the section: the card the text is about
    ("## GB200\n\nCPU：2× NVIDIA Grace\nGPU：2× B200\n", "t.md",
     [("2× NVIDIA Grace", "composed_of", "nvidia_gb200", P, C), ("2× B200", "composed_of", "nvidia_gb200", P, S)]),
    # millions or billions on a spec line count transistors, unless the clause counts something else
    ("V100 (12nm)\n21,100 million\n", "t.md",
     [("12nm", "process_node", "nvidia_tesla_v100", P, S),
      ("21,100 million", "transistors", "nvidia_tesla_v100", P, S)]),
    ("H100集群每天处理300 billion tokens。", "t.txt", []),
    # a bare number before 位宽 is the bus width
    ("RTX 3060的显存位宽为256。", "t.txt", [("256", "memory_bus_width", "nvidia_rtx_3060", P, C)]),
    # a number after a Latin word in a list item is that word's version, not a count of the cue before the list
    ("RTX 5090支援 5th 代 Tensor 核心、最新 DLSS 4 技術。", "t.txt",
     [("5th 代 Tensor 核心", "generation", "nvidia_rtx_5090", P, S), ("DLSS 4", "figure", "nvidia_rtx_5090", P, U)]),
    ("RTX 4090的Tensor Core 512", "t.txt", [("512", "tensor_cores", "nvidia_rtx_4090", P, S)]),
    # on-chip SRAM is a cache, not the card's memory
    ("Gaudi 3具有96MB SRAM片上内存，128GB HBM2e高带宽内存。", "t.txt",
     [("96MB", "cache_size", "intel_gaudi_3", P, S), ("128GB", "memory_size", "intel_gaudi_3", P, S),
      ("HBM2e", "memory_type", "intel_gaudi_3", P, S), ("高带宽内存", "memory_type", "intel_gaudi_3", P, S)]),
    # what a vendor 推出 is the card named after the verb's 的, through a word for its kind
    ("Gaudi 3的性能将与AMD推出的AI加速卡H20相当。", "t.txt", [("AMD推出", "manufacturer", "nvidia_h20", P, C)]),
    # a product the tables do not know, introduced as 最新产品X: the figure is not the topic card's (control: known)
    ("H100很强。最新产品MK2每卡只有0.9GB显存。", "t.txt", [("0.9GB", "memory_size", "", P, U)]),
    ("H100很强。最新产品H200每卡有141GB显存。", "t.txt", [("141GB", "memory_size", "nvidia_h200", P, S)]),
    # slot width from the vendor's sheet
    ("A10是一张双槽加速卡。", "t.txt", [("双槽", "slot_width", "nvidia_a10", P, C)]),
    ("T4是单槽卡。", "t.txt", [("单槽", "slot_width", "nvidia_t4", P, S)]),
    # a card named only in a link's address is not the text's card (control: the link's text names it)
    ("[白皮书](/pdf/NVIDIA-H100-Whitepaper.pdf)\n\nMaxwell架构搭配GDDR5显存。\n", "t.md",
     [("GDDR5", "memory_type", "Maxwell", FAM, S)]),
    ("[H100](https://www.nvidia.com/h100)的显存为80GB。", "t.md", [("80GB", "memory_size", "nvidia_h100", P, S)]),
    # what a card is used for is no positioning (control: what it is made for)
    ("RTX 3060用于AI推理。", "t.txt", [("用于AI推理", "positioning", "nvidia_rtx_3060", P, U)]),
    ("RTX 3060专为AI推理设计。", "t.txt", [("专为AI推理", "positioning", "nvidia_rtx_3060", P, C)]),
    # a vendor making an unnamed product says nothing of the text's card (control: the card named)
    ("MI200很强。最近几年，英特尔开始研发独立的GPU。", "t.txt", []),
    ("H100由英伟达研发。", "t.txt", [("英伟达研发", "manufacturer", "nvidia_h100", P, S)]),
    ("MI200很强。英伟达也很可能紧随AMD之后推出新品。", "t.txt", []),
    # a division is no pair of figures: each is recorded on its own
    ("理论最小耗时 = 26GB × 3 / 2039 GB/s ≈ 38ms", "t.txt",
     [("26GB", "figure", "", P, U), ("2039 GB/s", "memory_bandwidth", "", P, U)]),
    # a multiple of no spec named: recorded, never judged (control: the spec named, 快 as a direction)
    ("H100比A100快2-3倍（半精度）。", "t.txt", [("比A100快2-3倍", "ratio", "nvidia_h100", P, U)]),
    ("H100的显存带宽比A100 80GB SXM4快64%。", "t.txt",
     [("比A100 80GB SXM4快64%", "ratio", "nvidia_h100", P, S), ("80GB", "memory_size", "nvidia_a100", P, S)]),
    # the vendor's name between a label and the architecture
    ("Tesla P40的架构:NVIDIA Volta", "t.txt", [("Volta", "architecture", "nvidia_tesla_p40", P, C)]),
    # a verb before a list says what it says of each item (not under a negation)
    ("RTX 4090支持PCIe 4.0、DLSS 3和NVLink。", "t.txt",
     [("PCIe 4.0", "interface", "nvidia_rtx_4090", P, S), ("DLSS 3", "supports", "nvidia_rtx_4090", P, S),
      ("NVLink", "supports", "nvidia_rtx_4090", P, C)]),
    ("RTX 4090不支持PCIe 5.0、NVLink。", "t.txt", [("不支持PCIe 5.0", "supports", "nvidia_rtx_4090", P, S)]),
    # B200 in HGX B200 and in GB200: both published figures are right, one between is not
    ("B200的FP4算力为20 PFLOPS，FP8算力为7 PFLOPS。", "t.txt",
     [("20 PFLOPS", "fp4", "nvidia_b200", P, S), ("7 PFLOPS", "fp8", "nvidia_b200", P, C)]),
]

LOST = [
    ("约?989 TFLOPS?FP8", "约 989 TFLOPS FP8"),
    ("基于?Hopper架构", "基于 Hopper架构"),
    ("快约?1.8 倍", "快约 1.8 倍"),
    # a question stays a question; links and English text keep theirs
    ("是什么?为什么", "是什么?为什么"),
    ("H100?", "H100?"),
    ("见 https://a.example/x?id=3 页", "见 https://a.example/x?id=3 页"),
    ("打开index.php?id=5页面", "打开index.php?id=5页面"),
    ("Is it 3?5", "Is it 3?5"),
]
# fmt: on


@pytest.mark.parametrize(("text", "doc_id", "expected"), CASES)
def test_unnamed_figures(text: str, doc_id: str, expected: list[tuple[str, ...]]) -> None:
    assert rows(claims_for(text, doc_id)) == expected


@pytest.mark.parametrize(("text", "expected"), LOST)
def test_lost_characters(text: str, expected: str) -> None:
    assert normalize(text) == expected
