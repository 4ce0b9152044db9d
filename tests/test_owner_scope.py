"""Whose figure it is, how sure we are, and what it is a figure of (issue: owner with evidence, scope for every
figure, abstain instead of guessing). Every case asserts the complete claim list of its text, and the reason of
each unverifiable claim. Texts are written for these tests."""

from __future__ import annotations

import pytest

from pipeline.api import check_text
from tests.claim_helpers import rows

P, U, S, C, M = "product", "unverifiable", "supported", "contradicted", "misattributed"


def claims_with_reasons(text: str, doc_id: str) -> list[tuple[object, ...]]:
    claims = check_text(text, doc_id=doc_id)
    return [(*r, c.check.reason.value if c.check and c.check.reason else None) for r, c in zip(rows(claims), claims,
                                                                                                strict=True)]


# fmt: off
OWNER_CASES = [
    # the last of two cards named in earlier clauses is a guess: no flag
    ("A100和H100都很强，显存为96GB。", "t.txt",
     [("96GB", "memory_size", "nvidia_h100", P, U, "owner_uncertain")]),
    # a heading's card owns its section
    ("## A100\n\n显存为40GB。\n\n## H100\n\n显存为96GB。", "t.md",
     [("40GB", "memory_size", "nvidia_a100", P, S, None), ("96GB", "memory_size", "nvidia_h100", P, C, None)]),
    # an article about one card: its topic holds across paragraphs
    ("A100介绍\n\nA100的显存为40GB。\n\n另一段里，显存为96GB。", "t.txt",
     [("40GB", "memory_size", "nvidia_a100", P, S, None), ("96GB", "memory_size", "nvidia_a100", P, C, None)]),
    # two cards so far, a new paragraph names none: whose is the figure? not flagged
    ("GPU对比\n\nA100的显存为40GB。H100的功耗为700W。\n\n显存为96GB。", "t.txt",
     [("40GB", "memory_size", "nvidia_a100", P, S, None), ("700W", "tdp", "nvidia_h100", P, S, None),
      ("96GB", "memory_size", "nvidia_h100", P, U, "owner_uncertain")]),
    # a compared card owns what its own clause says of it
    ("B200的显存为192GB，相比之下，H100的显存为80GB。", "t.txt",
     [("192GB", "memory_size", "nvidia_b200", P, S, None), ("80GB", "memory_size", "nvidia_h100", P, S, None)]),
    ("B200的显存带宽为8TB/s（vs H100的3.35TB/s）。", "t.txt",
     [("8TB/s", "memory_bandwidth", "nvidia_b200", P, S, None),
      ("3.35TB/s", "memory_bandwidth", "nvidia_h100", P, S, None)]),
    ("B200的显存带宽为8TB/s（vs H100的5TB/s）。", "t.txt",
     [("8TB/s", "memory_bandwidth", "nvidia_b200", P, S, None),
      ("5TB/s", "memory_bandwidth", "nvidia_h100", P, C, None)]),
    # the card in brackets right after a value owns it
    ("显存类型：HBM3（H100）、GDDR6X（RTX 4090）。", "t.txt",
     [("HBM3", "memory_type", "nvidia_h100", P, S, None), ("GDDR6X", "memory_type", "nvidia_rtx_4090", P, S, None)]),
    ("显存类型：GDDR6X（H100）。", "t.txt", [("GDDR6X", "memory_type", "nvidia_h100", P, C, None)]),
    # X的特供版 is not X: the section's card owns the figure
    ("## H800\n\nH100的中国特供版，NVLink带宽为400GB/s。", "t.md",
     [("400GB/s", "interconnect_bandwidth", "nvidia_h800", P, S, None)]),
    # a card the reference does not know owns its section's figures
    ("## MTT S3000\n\n显存为32GB。", "t.md",
     [("32GB", "memory_size", "model:mthreads:s3000", P, U, "not_in_reference")]),
    # one card of a list the figure is not said of each (no 分别, no 都): a guess
    ("RTX 4090、RTX 4080、RTX 4070发布：功耗320W。", "t.txt",
     [("320W", "tdp", "nvidia_rtx_4090", P, U, "owner_uncertain"), ("320W", "tdp", "nvidia_rtx_4080", P, S, None),
      ("320W", "tdp", "nvidia_rtx_4070", P, U, "owner_uncertain")]),
    ("A100与H100都采用HBM显存。", "t.txt",
     [("HBM", "memory_type", "nvidia_a100", P, S, None), ("HBM", "memory_type", "nvidia_h100", P, S, None)]),
    # a narrative of change: what it changed from is no claim, nor a generation the industry moved to
    ("H100的显存由HBM2e升级为HBM3。", "t.txt", [("HBM3", "memory_type", "nvidia_h100", P, S, None)]),
    ("A100发布之后，英伟达从Ampere架构升级到Hopper架构。", "t.txt", []),
    ("A100基于Hopper架构。", "t.txt", [("Hopper", "architecture", "nvidia_a100", P, C, None)]),
    # a variant named after the figure picks the row it is checked against
    ("A100的TDP为400W（PCIe版）。", "t.txt", [("400W", "tdp", "nvidia_a100", P, C, None)]),
    ("A100的TDP为400W（SXM4版）。", "t.txt", [("400W", "tdp", "nvidia_a100", P, S, None)]),
]

SCOPE_CASES = [
    ("H100的每个SM有128个FP32核心。", [("128个", "cuda_cores", "nvidia_h100", "unit", S, None)]),
    ("H100的每个SM有256个FP32核心。", [("256个", "cuda_cores", "nvidia_h100", "unit", C, None)]),
    ("完整的GH100芯片有144个SM。", [("144个", "sm_count", "GH100", "chip", S, None)]),
    ("H100有144个SM。", [("144个", "sm_count", "nvidia_h100", P, C, None)]),  # the full die's figure, not the card's
    ("Gaudi 2每节点总计768GB显存。", [("768GB", "memory_size", "intel_gaudi_2", "system", U, "scope_not_product")]),
    ("GB200 NVL72的显存合计为13.5TB。", [("13.5TB", "memory_size", "nvidia_gb200", "system", S, None)]),
    ("8卡A100 80GB服务器共有640GB显存。", [("80GB", "memory_size", "nvidia_a100", P, S, None),
                                      ("640GB", "memory_size", "nvidia_a100", "system", S, None)]),
    ("PCIe 4.0 x16的单向带宽为32GB/s。", [("32GB/s", "interconnect_bandwidth", "pcie_4_x16", "link", S, None)]),
    ("PCIe 5.0 x16只有128GB/s双向带宽。", [("128GB/s", "interconnect_bandwidth", "pcie_5_x16", "link", S, None)]),
    ("PCIe 4.0 x16的单向带宽为64GB/s。", [("64GB/s", "interconnect_bandwidth", "pcie_4_x16", "link", C, None)]),
    # NVLink is quoted as the total of both directions; another generation's figure is named as such
    ("NVLink 5.0的带宽为900GB/s。", [("900GB/s", "interconnect_bandwidth", "nvlink_5", "link", M, None)]),
    ("NVLink 5.0的带宽为1.8TB/s。", [("1.8TB/s", "interconnect_bandwidth", "nvlink_5", "link", S, None)]),
    ("RTX 4090有16MB的L1缓存。", [("16MB", "cache_size", "nvidia_rtx_4090", P, U, "no_reference_value")]),
    ("Gaudi 3配备128GB（2×64GB）HBM2e显存。", [("128GB", "memory_size", "intel_gaudi_3", P, S, None),
                                          ("64GB", "memory_size", "intel_gaudi_3", "unit", U, "scope_not_product"),
                                          ("HBM2e", "memory_type", "intel_gaudi_3", P, S, None)]),
    # a sentence that only counts the cards may give each card's figure; a figure wrong both ways is still flagged
    ("机房里这台服务器插了4块H100，显存80GB。", [("80GB", "memory_size", "nvidia_h100", "system", S, None)]),
    ("机房里这台服务器插了4块H100，显存320GB。", [("320GB", "memory_size", "nvidia_h100", "system", S, None)]),
    ("机房里这台服务器插了4块H100，显存96GB。", [("96GB", "memory_size", "nvidia_h100", "system", C, None)]),
    ("机房里这台服务器插了4块H100，总显存80GB。", [("80GB", "memory_size", "nvidia_h100", "system", C, None)]),
    ("两块L40S组成的工作站，功耗350W。", [("350W", "tdp", "nvidia_l40s", "system", S, None)]),
    # a GPU's link figure is itself a total (its links, both directions): 总带宽 does not sum the cards
    ("四卡H200机器的NVLink总带宽900GB/s。", [("900GB/s", "interconnect_bandwidth", "nvidia_h200", "system", S, None)]),
    ("DGX B200里GPU之间靠NVLink互联，带宽1.8TB/s。",
     [("1.8TB/s", "interconnect_bandwidth", "nvidia_b200", "system", S, None)]),
    ("DGX B200里GPU之间靠NVLink互联，带宽1.2TB/s。",
     [("1.2TB/s", "interconnect_bandwidth", "nvidia_b200", "system", C, None)]),
    # a size that names the card's version is the card's, not the system's total
    ("这台服务器装了4块H100，总显存320GB（80GB 版本）。", [("320GB", "memory_size", "nvidia_h100", "system", S, None),
                                                 ("80GB", "memory_size", "nvidia_h100", P, S, None)]),
    # 每个GPU in a named system: the card's own figure
    ("DGX H200的每个GPU配有141GB显存。", [("141GB", "memory_size", "nvidia_h200", P, S, None)]),
    # one direction of a GPU link is half the quoted total
    ("H200的NVLink单向带宽为450GB/s。", [("450GB/s", "interconnect_bandwidth", "nvidia_h200", P, S, None)]),
    ("H200的NVLink单向带宽为900GB/s。", [("900GB/s", "interconnect_bandwidth", "nvidia_h200", P, C, None)]),
    ("B200的NVLink带宽是1.8TB/s（每个方向900GB/s）。",
     [("1.8TB/s", "interconnect_bandwidth", "nvidia_b200", P, S, None),
      ("900GB/s", "interconnect_bandwidth", "nvidia_b200", P, S, None)]),
    ("Gaudi 3的互联带宽单向为600GB/s。", [("600GB/s", "interconnect_bandwidth", "intel_gaudi_3", P, U,
                                         "scope_not_product")]),
    # 每颗芯片 of a card whose GPU is one die is the card's figure; of a package of several dies, one die's
    ("H200每颗芯片配备141GB显存。", [("141GB", "memory_size", "nvidia_h200", "unit", S, None)]),
    ("H200每颗芯片配备120GB显存。", [("120GB", "memory_size", "nvidia_h200", "unit", C, None)]),
    ("B200每颗芯片有96GB显存。", [("96GB", "memory_size", "nvidia_b200", "unit", U, "scope_not_product")]),
    # the card's own chip named before the figure: the full die's count or the card's, either fits; neither is wrong
    ("H100 SXM5的GH100芯片有144个SM。", [("GH100", "gpu_chip", "nvidia_h100", P, S, None),
                                ("144个", "sm_count", "nvidia_h100", P, S, None)]),
    ("H100 SXM5的GH100芯片有132个SM。", [("GH100", "gpu_chip", "nvidia_h100", P, S, None),
                                ("132个", "sm_count", "nvidia_h100", P, S, None)]),
    ("H100 SXM5的GH100芯片有160个SM。", [("GH100", "gpu_chip", "nvidia_h100", P, S, None),
                                ("160个", "sm_count", "nvidia_h100", P, C, None)]),
    # an ordinal is a generation, not a count
    ("A100有432个Tensor Core（第3代）。", [("432个", "tensor_cores", "nvidia_a100", P, S, None),
                                         ("Tensor Core（第3代）", "generation", "nvidia_a100", P, S, None)]),
]

FORM_CASES = [
    # "|" separates the items of a spec line: the sparsity word of one item is not the other's
    ("A100：FP32 19.5 TFLOPS | FP16 624 TFLOPS（稀疏）", "t.txt",
     [("19.5 TFLOPS", "fp32", "nvidia_a100", P, S, None), ("624 TFLOPS", "fp16", "nvidia_a100", P, S, None),
      ("稀疏", "figure_label", "nvidia_a100", P, S, None)]),
    # a throughput written with a classifier is not a count of the units named before it
    ("RTX 4070的184个张量核心提供466个张量TFLOPS。", "t.txt",
     [("184个", "tensor_cores", "nvidia_rtx_4070", P, S, None),
      ("466个", "figure", "nvidia_rtx_4070", P, U, "unknown_attribute")]),
    ("H100的显存带宽为3.35到3.9TB/s。", "t.txt", [("3.35到3.9TB/s", "memory_bandwidth", "nvidia_h100", P, S, None)]),
    ("H100的显存为~~40GB~~ 80GB。", "t.md", [("80GB", "memory_size", "nvidia_h100", P, S, None)]),
    ("H100的显存为==80GB==。", "t.md", [("80GB", "memory_size", "nvidia_h100", P, S, None)]),
    # a label/value table reads its rows as sentences about the section's card
    ("## H100\n\n| 参数 | 数值 |\n|---|---|\n| 显存 | 80GB HBM3 |\n| 功耗 | 800W |\n", "t.md",
     [("80GB", "memory_size", "nvidia_h100", P, S, None), ("HBM3", "memory_type", "nvidia_h100", P, S, None),
      ("800W", "tdp", "nvidia_h100", P, C, None)]),
    # an architecture with the cards it lists in brackets: each card's architecture
    ("前代架构：Hopper（H100、A100）", "t.txt",
     [("H100", "architecture", "nvidia_h100", P, S, None), ("A100", "architecture", "nvidia_a100", P, C, None)]),
    # or after a word that says its cards follow, the list ending the clause
    ("Pascal架构的代表产品有P40、P4等。", "t.txt",
     [("P40", "architecture", "nvidia_tesla_p40", P, S, None), ("P4", "architecture", "nvidia_tesla_p4", P, S, None)]),
    ("Turing架构包括V100和T4。", "t.txt",
     [("V100", "architecture", "nvidia_tesla_v100", P, C, None), ("T4", "architecture", "nvidia_t4", P, S, None)]),
    ("Hopper架构的显卡是A100的三倍。", "t.txt", [("三倍", "figure", "nvidia_a100", P, U, "unknown_attribute")]),
    # names in the comma list after a card's colon or bracket are its spec items; a comparison there is not
    ("RTX 3070：Turing, GA104", "t.txt", [("Turing", "architecture", "nvidia_rtx_3070", P, C, None),
                                       ("GA104", "gpu_chip", "nvidia_rtx_3070", P, S, None)]),
    ("RTX 4080（9728个CUDA核心，AD103）", "t.txt", [("9728个", "cuda_cores", "nvidia_rtx_4080", P, S, None),
                                               ("AD103", "gpu_chip", "nvidia_rtx_4080", P, S, None)]),
    # a spec list's item that is only a name, under the card's heading
    ("## L40S\n\n- Ada Lovelace架构\n- 48GB GDDR6\n", "t.md",
     [("Ada Lovelace", "architecture", "nvidia_l40s", P, S, None), ("48GB", "memory_size", "nvidia_l40s", P, S, None),
      ("GDDR6", "memory_type", "nvidia_l40s", P, S, None)]),
    # (not when the item says something of the name: no Ampere claim for the card)
    ("## L40S\n\n- Ampere架构登场于2020年\n", "t.md", [("2020年", "figure", "", P, U, "unknown_attribute")]),
    # a fence that holds a spec sheet, not code, is read as text
    ("## H100\n\n```\nH100 规格：\n显存：80GB HBM3\n功耗：700W\n```\n", "t.md",
     [("80GB", "memory_size", "nvidia_h100", P, S, None), ("HBM3", "memory_type", "nvidia_h100", P, S, None),
      ("700W", "tdp", "nvidia_h100", P, S, None)]),
    # "N1 vs N2" under a heading: which side is the heading's card? not flagged
    ("## B200\n\n显存：192GB vs 80GB\n", "t.md",
     [("192GB", "memory_size", "nvidia_b200", P, S, None),
      ("80GB", "memory_size", "nvidia_b200", P, U, "owner_uncertain")]),
]

# what an audit of unseen real pages showed: general causes of false alarms, each on a sentence written here
READING_CASES = [
    # a generation that opens its clause and is talked about is the generation's, the card in context only a guess;
    # the same generation as a list item under the card's heading is the card's
    ("# A30 笔记\n\nA30的显存为24GB。\n\n第四代NVLink每个GPU总带宽900GB/s。\n\n- 第三代Tensor Core", "t.md",
     [("24GB", "memory_size", "nvidia_a30", P, S, None),
      ("第四代NVLink", "generation", "nvidia_a30", P, U, "owner_uncertain"),
      ("900GB/s", "interconnect_bandwidth", "nvlink_4", "link", S, None),
      ("第三代Tensor Core", "generation", "nvidia_a30", P, S, None),
      ("第三代Tensor Core", "tensor_cores", "nvidia_a30", P, S, None)]),
    # 核心 alone is a count's label, not any number near the word: 826平方毫米 is the die's area
    ("A100的核心面积为826平方毫米。", "t.txt", [("826平方毫米", "die_size", "nvidia_a100", P, S, None)]),
    ("RTX 4080的GPU核心由多个GPC组成，共有9728个CUDA核心。", "t.txt",
     [("9728个", "cuda_cores", "nvidia_rtx_4080", P, S, None)]),
    # a section number is not a figure
    ("## 2.3 显存\n\nRTX 4090的显存为24GB。", "t.md", [("24GB", "memory_size", "nvidia_rtx_4090", P, S, None)]),
    # figures that range over a class of cards, a power limit, a forecast
    ("RTX 4090的显存为24GB，而市面上显卡的显存容量从2GB到48GB不等。", "t.txt",
     [("24GB", "memory_size", "nvidia_rtx_4090", P, S, None)]),
    ("RTX 4090默认功耗450W，最大可配置功耗为600W。", "t.txt", [("450W", "tdp", "nvidia_rtx_4090", P, S, None)]),
    ("据传RTX 5090的功耗为800W。", "t.txt", [("800W", "tdp", "nvidia_rtx_5090", P, U, "speculative")]),
    ("RTX 5090的功耗<600W。", "t.txt", [("<600W", "tdp", "nvidia_rtx_5090", P, S, None)]),
    # a table flattened into a line: which column a value is in is lost, so each card's is a guess
    ("型号 H200 H20 显存带宽 4.8TB/s 4TB/s", "t.txt",
     [("4.8TB/s", "memory_bandwidth", "nvidia_h200", P, S, None),
      ("4.8TB/s", "memory_bandwidth", "nvidia_h20", P, U, "owner_uncertain"),
      ("4TB/s", "memory_bandwidth", "nvidia_h200", P, U, "owner_uncertain"),
      ("4TB/s", "memory_bandwidth", "nvidia_h20", P, S, None)]),
    # the compared card owns its possessive phrase; an architecture owns its own
    ("RTX 4090采用24GB GDDR6X显存，相较于RTX 3090的24GB GDDR6X显存和936GB/s带宽。", "t.txt",
     [("24GB", "memory_size", "nvidia_rtx_4090", P, S, None), ("GDDR6X", "memory_type", "nvidia_rtx_4090", P, S, None),
      ("24GB", "memory_size", "nvidia_rtx_3090", P, S, None), ("GDDR6X", "memory_type", "nvidia_rtx_3090", P, S, None),
      ("936GB/s", "memory_bandwidth", "nvidia_rtx_3090", P, S, None)]),
    ("显存带宽从A100的2TB/s提升到Hopper架构的3.35TB/s。", "t.txt",
     [("2TB/s", "memory_bandwidth", "nvidia_a100", P, S, None),
      ("3.35TB/s", "memory_bandwidth", "Hopper", "family", S, None)]),
    # "带宽" alone takes the kind an earlier clause names
    ("H100搭载第四代NVLink，单卡带宽900GB/s，8卡系统总带宽7.2TB/s。", "t.txt",
     [("第四代NVLink", "generation", "nvidia_h100", P, S, None),
      ("900GB/s", "interconnect_bandwidth", "nvidia_h100", P, S, None),
      ("7.2TB/s", "interconnect_bandwidth", "nvidia_h100", "system", S, None)]),
    ("H100使用HBM3显存，远超传统GDDR6显存。", "t.txt", [("HBM3", "memory_type", "nvidia_h100", P, S, None)]),
    # a size in a model name the tables lack (a modded card): not an error
    ("2080 Ti 22G的价格为3000元。", "t.txt",
     [("22G", "memory_size", "nvidia_rtx_2080_ti", P, U, "no_reference_value"),
      ("3000元", "figure", "nvidia_rtx_2080_ti", P, U, "unknown_attribute")]),
    # precisions listed before 分别 go to the figures after it, in order; a list of bare numbers takes the last unit
    ("A100在FP64、FP32、FP16精度下的算力分别为9.7、19.5、312 TFLOPS。", "t.txt",
     [("9.7", "fp64", "nvidia_a100", P, S, None), ("19.5", "fp32", "nvidia_a100", P, S, None),
      ("312 TFLOPS", "fp16", "nvidia_a100", P, S, None)]),
    ("A100在FP64、FP32精度下的算力分别为19.5、9.7 TFLOPS。", "t.txt",
     [("19.5", "fp64", "nvidia_a100", P, S, None), ("9.7 TFLOPS", "fp32", "nvidia_a100", P, M, None)]),
    # a compared card, a die's own name, a power supply, a playback figure, a chip code: none is the card's spec
    ("这张16GB显存的新卡对战RTX 3070。", "t.txt", [("16GB", "memory_size", "", P, U, "owner_uncertain")]),
    ("## RTX 2080 Ti\n\n完整版的TU104核心有3072个CUDA核心。", "t.md",
     [("3072个", "cuda_cores", "TU104", "chip", S, None)]),
    ("RTX 4070 SUPER建议使用650W或以上电源供应器。", "t.txt", []),
    ("RTX 4070 SUPER播放视频时功耗约16W。", "t.txt", []),
    ("RTX 4070采用AD104-250核心。", "t.txt", [("AD104", "gpu_chip", "nvidia_rtx_4070", P, S, None)]),
    ("H200 SXM：141GB @ 4.8TB/s，NVLink 900GB/s", "t.txt",
     [("141GB", "memory_size", "nvidia_h200", P, S, None), ("4.8TB/s", "memory_bandwidth", "nvidia_h200", P, S, None),
      ("900GB/s", "interconnect_bandwidth", "nvidia_h200", P, S, None)]),
    # workload figures: a column headed by a need or a use, usable memory, an approximate capacity
    ("## RTX 3090 训练估算\n\n| 项目 | 所需显存 |\n|---|---|\n| 权重 | ~30GB |\n| 合计 | 约 90GB |", "t.md", []),
    ("| 量化 | 显存占用 | 推荐显卡 |\n|---|---|---|\n| INT4 | ~6 GB | RTX 3060 |", "t.md", []),
    ("| 显卡 | 显存 |\n|---|---|\n| RTX 3060 | 12GB |", "t.md",
     [("12GB", "memory_size", "nvidia_rtx_3060", P, S, None)]),
    ("推理时RTX 3090实际可用约21GB显存。", "t.txt", []),
    ("微调至少要6张RTX 3090（每张给出约21GB显存）。", "t.txt",
     [("约21GB", "memory_size", "nvidia_rtx_3090", P, U, "not_comparable")]),
    ("RTX 3090有约24GB显存。", "t.txt", [("约24GB", "memory_size", "nvidia_rtx_3090", P, S, None)]),
    # a unit counted, then 每个 / 各 after it; a cache named earlier keeps a later MB total; 每条 after counted links
    ("RX 7900 XTX的Navi 31有6个MCD，它们每个带有16MB缓存，合起来是96MB。", "t.txt",
     [("6个", "mcd_count", "amd_rx_7900_xtx", P, U, "no_reference_value"),
      ("16MB", "cache_size", "amd_rx_7900_xtx", "unit", U, "scope_not_product"),
      ("96MB", "cache_size", "amd_rx_7900_xtx", P, S, None)]),
    ("A100共有12条NVLink链路，每条可跑50GB/s。", "t.txt",
     [("12条NVLink链路", "nvlink_links", "nvidia_a100", P, S, None),
      ("50GB/s", "interconnect_bandwidth", "nvidia_a100", "link", U, "scope_not_product")]),
    # a spaced dash ends an item of a spec line; an item labelled with a thing no cue names takes no earlier cue
    ("H200要点 - 显存: 141GB - NVLink: 900GB/s - 解码器: 600 GB/s", "t.txt",
     [("141GB", "memory_size", "nvidia_h200", P, S, None),
      ("900GB/s", "interconnect_bandwidth", "nvidia_h200", P, S, None),
      ("600 GB/s", "figure", "nvidia_h200", P, U, "unknown_attribute")]),
    # a maker verb after 的 is a noun ("某厂越来越厚的散热器设计"), no claim about who made the card
    ("RX 7900 XT的散热器不大。\n\n对比之下，英伟达越来越厚重的散热器设计显得笨重。", "t.txt", []),
    ("RX 7900 XT的功耗是300W，改款后低了20W。", "t.txt", [("300W", "tdp", "amd_rx_7900_xt", P, C, None)]),
    # what varies across a product line is not judged for the line
    ("NVIDIA Tesla产品线的Hopper架构于2022年3月正式亮相。", "t.txt",
     [("Hopper", "architecture", "nvidia_tesla", P, U, "owner_uncertain"),
      ("2022年3月", "launch_date", "nvidia_tesla", P, U, "owner_uncertain")]),
]
# fmt: on


@pytest.mark.parametrize(("text", "doc_id", "expected"), READING_CASES)
def test_reading(text: str, doc_id: str, expected: list[tuple[object, ...]]) -> None:
    assert claims_with_reasons(text, doc_id) == expected


@pytest.mark.parametrize(("text", "doc_id", "expected"), FORM_CASES)
def test_form(text: str, doc_id: str, expected: list[tuple[object, ...]]) -> None:
    assert claims_with_reasons(text, doc_id) == expected


@pytest.mark.parametrize(("text", "doc_id", "expected"), OWNER_CASES)
def test_owner(text: str, doc_id: str, expected: list[tuple[object, ...]]) -> None:
    assert claims_with_reasons(text, doc_id) == expected


@pytest.mark.parametrize(("text", "expected"), SCOPE_CASES)
def test_scope(text: str, expected: list[tuple[object, ...]]) -> None:
    assert claims_with_reasons(text, "t.txt") == expected


def test_a_card_listed_under_the_wrong_architecture_is_explained_as_listed() -> None:
    claim = next(c for c in check_text("Turing架构包括V100和T4。", doc_id="t.txt") if c.text == "V100")
    assert claim.check is not None
    assert claim.check.explanation == "NVIDIA Tesla V100的架构应为Volta，文中把“V100”列为Turing架构的产品，不正确。"
