"""A whole system's figure, or several cards', is not one card's: tables whose rows name a system (DGX H100) or
count cards (8× RTX 4090) and whose headers say a total (总显存, 8卡总显存, 显存合计); headings and sentences that name
a system; a system's power (not the sum of its cards' TDPs); the systems table's aliases (DGX-1 V100) and
configurations (DGX A100 640GB). Wrong figures of the same shapes are still caught. Every case asserts the complete
claim list of its text, with the reason of each unverifiable claim. Texts are written for these tests."""

from __future__ import annotations

import pytest

from tests.test_owner_scope import claims_with_reasons

P, Y, N, U, S, C = "product", "system", "unit", "unverifiable", "supported", "contradicted"


# fmt: off
SYSTEM_CASES = [
    # A1/A2: a system in the first column, totals in the headers
    ("| 系统 | 总显存 |\n"
     "|---|---|\n"
     "| DGX H100 | 640GB |\n", "t.md",
     [("640GB", "memory_size", "nvidia_h100", Y, S, None)]),
    ("| 系统 | 总显存 |\n"
     "|---|---|\n"
     "| DGX H100 | 320GB |\n", "t.md",
     [("320GB", "memory_size", "nvidia_h100", Y, C, None)]),
    ("| 系统 | GPU | 总显存 | NVLink总带宽 |\n"
     "|---|---|---|---|\n"
     "| DGX H100 | H100 SXM5 | 640GB | 7.2TB/s |\n"
     "| HGX B200 | B200 | 1440GB | 14.4TB/s |\n", "t.md",
     [("640GB", "memory_size", "nvidia_h100", Y, S, None),
      ("7.2TB/s", "interconnect_bandwidth", "nvidia_h100", Y, S, None),
      ("1440GB", "memory_size", "nvidia_b200", Y, S, None),
      ("14.4TB/s", "interconnect_bandwidth", "nvidia_b200", Y, S, None)]),
    ("| 系统 | 显存 |\n"
     "|---|---|\n"
     "| DGX A100 | 320GB |\n"
     "| HGX H100 | 80GB |\n", "t.md",
     [("320GB", "memory_size", "nvidia_a100", Y, S, None), ("80GB", "memory_size", "nvidia_h100", Y, S, None)]),
    # A3: 单卡 / 8卡总显存 columns
    ("| 型号 | 单卡显存 | 8卡总显存 |\n"
     "|---|---|---|\n"
     "| H200 | 141GB | 1128GB |\n"
     "| H100 SXM5 | 80GB | 720GB |\n", "t.md",
     [("141GB", "memory_size", "nvidia_h200", P, S, None),
      ("1128GB", "memory_size", "nvidia_h200", Y, S, None),
      ("80GB", "memory_size", "nvidia_h100", P, S, None),
      ("720GB", "memory_size", "nvidia_h100", Y, C, None)]),
    # A4: 8× in a cell, 显存合计
    ("| 方案 | 配置 | 显存合计 |\n"
     "|---|---|---|\n"
     "| 方案A | 8× RTX 4090 | 192GB |\n"
     "| 方案B | 4× RTX 4090 | 128GB |\n", "t.md",
     [("192GB", "memory_size", "nvidia_rtx_4090", Y, S, None),
      ("128GB", "memory_size", "nvidia_rtx_4090", Y, C, None)]),
    # a card's own row under 整机: which system? unverifiable
    ("| 型号 | 整机显存 |\n"
     "|---|---|\n"
     "| H100 SXM5 | 640GB |\n", "t.md",
     [("640GB", "memory_size", "nvidia_h100", Y, U, "scope_not_product")]),
    # a card's own total stays the card's
    ("| 型号 | 总显存 |\n"
     "|---|---|\n"
     "| H100 SXM5 | 80GB |\n"
     "| A100 | 96GB |\n", "t.md",
     [("80GB", "memory_size", "nvidia_h100", P, S, None), ("96GB", "memory_size", "nvidia_a100", P, C, None)]),
    # A5: a heading naming a system, bullets
    ("# DGX H100\n\n- 显存：640GB\n- 功耗：10.2kW\n", "t.md",
     [("640GB", "memory_size", "nvidia_h100", Y, S, None), ("10.2kW", "tdp", "nvidia_h100", Y, S, None)]),
    ("# DGX H100\n\n- GPU：8× H100 SXM5\n- 显存：640GB\n- 每块GPU显存：80GB\n", "t.md",
     [("8×", "figure", "", P, U, "unknown_attribute"), ("640GB", "memory_size", "nvidia_h100", Y, S, None),
      ("80GB", "memory_size", "nvidia_h100", P, S, None)]),
    ("# DGX H100\n\n- 显存：512GB\n", "t.md",
     [("512GB", "memory_size", "nvidia_h100", Y, C, None)]),
    ("### 整机参数（DGX H100）\n\n| 项目 | 数值 |\n|---|---|\n| GPU显存 | 640GB |\n", "t.md",
     [("640GB", "memory_size", "nvidia_h100", Y, S, None)]),
    # A6: a sentence naming a system, then 整套系统
    ("DGX H100包含8块H100 GPU。整套系统的GPU显存为640GB。", "t.txt",
     [("8块H100", "composed_of", "dgx_h100", Y, S, None), ("640GB", "memory_size", "nvidia_h100", Y, S, None)]),
    ("DGX H100包含8块H100 GPU。每块H100拥有80GB显存。整套系统的GPU显存为640GB。", "t.txt",
     [("8块H100", "composed_of", "dgx_h100", Y, S, None), ("80GB", "memory_size", "nvidia_h100", P, S, None),
      ("640GB", "memory_size", "nvidia_h100", Y, S, None)]),
    ("DGX H100包含8块H100 GPU。每块H100拥有80GB显存。整套系统的GPU显存为600GB。", "t.txt",
     [("8块H100", "composed_of", "dgx_h100", Y, S, None), ("80GB", "memory_size", "nvidia_h100", P, S, None),
      ("600GB", "memory_size", "nvidia_h100", Y, C, None)]),
    # with no system named, 整套系统 is some system: unverifiable
    ("这台机器有8块H100。每块H100拥有80GB显存。整套系统的GPU显存为640GB。", "t.txt",
     [("8块", "figure", "", P, U, "unknown_attribute"), ("80GB", "memory_size", "nvidia_h100", P, S, None),
      ("640GB", "memory_size", "nvidia_h100", Y, U, "scope_not_product")]),
    # under a system's heading a figure that fits neither the system nor one card is not flagged as a card's
    ("# DGX H100\n\n- CUDA核心：16896\n- CUDA核心：20000\n", "t.md",
     [("16896", "cuda_cores", "nvidia_h100", Y, S, None),
      ("20000", "cuda_cores", "nvidia_h100", Y, U, "scope_not_product")]),
    # A7: a system sentence with a GPU count
    ("DGX H100配备8块H100，功耗10.2kW。", "t.txt",
     [("8块H100", "composed_of", "dgx_h100", Y, S, None), ("10.2kW", "tdp", "nvidia_h100", Y, S, None)]),
    ("DGX-2配备16块V100，功耗10kW。", "t.txt",
     [("16块V100", "composed_of", "dgx_2", Y, S, None), ("10kW", "tdp", "nvidia_tesla_v100", Y, S, None)]),
    ("DGX H100配备8块H100，功耗7kW。", "t.txt",
     [("8块H100", "composed_of", "dgx_h100", Y, S, None), ("7kW", "tdp", "nvidia_h100", Y, C, None)]),
    ("这台服务器配备8块H100，功耗10.2kW。", "t.txt",
     [("10.2kW", "tdp", "nvidia_h100", Y, U, "scope_not_product")]),
    ("8块H100总功耗为5600W。", "t.txt",
     [("5600W", "tdp", "nvidia_h100", Y, S, None)]),
    ("8块H100总功耗为6400W。", "t.txt",
     [("6400W", "tdp", "nvidia_h100", Y, C, None)]),
    # A8: DGX-1 aliases
    ("DGX-1 V100的功耗为3500W。", "t.txt",
     [("3500W", "tdp", "nvidia_tesla_v100", Y, S, None)]),
    ("DGX-1（V100）的功耗为3500W。", "t.txt",
     [("3500W", "tdp", "nvidia_tesla_v100", Y, S, None)]),
    ("DGX-1 P100的显存为128GB。", "t.txt",
     [("128GB", "memory_size", "nvidia_tesla_p100", Y, S, None)]),
    ("DGX-1 P100的显存为256GB。", "t.txt",
     [("256GB", "memory_size", "nvidia_tesla_p100", Y, C, None)]),
    # A12: DGX A100 640GB
    ("DGX A100 640GB的总显存为640GB。", "t.txt",
     [("640GB", "memory_size", "nvidia_a100", P, U, "no_reference_value"),
      ("640GB", "memory_size", "nvidia_a100", Y, S, None)]),
    ("DGX A100的总显存为320GB。", "t.txt",
     [("320GB", "memory_size", "nvidia_a100", Y, S, None)]),
    # A13: X中的Y is Y inside X, not the standalone card
    ("GB200中的B200功耗可达1200W。", "t.txt",
     [("可达1200W", "tdp", "nvidia_b200", N, U, "scope_not_product")]),
    ("GB200 NVL72里的每块B200有186GB显存。", "t.txt",
     [("186GB", "memory_size", "nvidia_b200", N, U, "scope_not_product")]),
    ("GH200中的H100 GPU配备96GB HBM3。", "t.txt",
     [("96GB", "memory_size", "nvidia_h100", N, U, "scope_not_product"),
      ("HBM3", "memory_type", "nvidia_h100", P, S, None)]),
    ("RTX 40系列中的RTX 4090显存为24GB。", "t.txt",
     [("24GB", "memory_size", "nvidia_rtx_4090", P, S, None)]),
    ("DGX H100中的H100功耗为700W。", "t.txt",
     [("700W", "tdp", "nvidia_h100", P, S, None)]),
    # A9: 8卡 after 单卡 in a later clause
    ("A100 80GB单卡功耗400W，8卡约3.2kW。", "t.txt",
     [("80GB", "memory_size", "nvidia_a100", P, S, None),
      ("400W", "tdp", "nvidia_a100", P, S, None),
      ("约3.2kW", "tdp", "nvidia_a100", Y, S, None)]),
    ("A100 80GB单卡功耗400W，8卡约4kW。", "t.txt",
     [("80GB", "memory_size", "nvidia_a100", P, S, None),
      ("400W", "tdp", "nvidia_a100", P, S, None),
      ("约4kW", "tdp", "nvidia_a100", Y, C, None)]),
    # A10: 一对 / 两卡一组 count two cards
    ("一对H100 NVL共188GB显存。", "t.txt",
     [("188GB", "memory_size", "nvidia_h100", Y, S, None)]),
    ("两卡一组的H100 NVL共188GB显存。", "t.txt",
     [("188GB", "memory_size", "nvidia_h100", Y, S, None)]),
    ("一对H100 NVL共200GB显存。", "t.txt",
     [("200GB", "memory_size", "nvidia_h100", Y, C, None)]),
    # A11: DGX GH200's shared memory (144 TB in binary terabytes)
    ("DGX GH200共享144TB内存。", "t.txt",
     [("144TB", "memory_size", "nvidia_gh200", Y, S, None)]),
    ("DGX GH200由256颗GH200超级芯片组成，共享144TB内存。", "t.txt",
     [("256颗GH200", "composed_of", "dgx_gh200", Y, S, None), ("144TB", "memory_size", "nvidia_gh200", Y, S, None)]),
    ("DGX GH200由256颗GH200超级芯片组成，共享120TB内存。", "t.txt",
     [("256颗GH200", "composed_of", "dgx_gh200", Y, S, None), ("120TB", "memory_size", "nvidia_gh200", Y, C, None)]),
    # 共享内存 after the figure says the same
    ("DGX GH200拥有144TB共享内存。", "t.txt", [("144TB", "memory_size", "nvidia_gh200", Y, S, None)]),
    ("DGX GH200拥有100TB共享内存。", "t.txt", [("100TB", "memory_size", "nvidia_gh200", Y, C, None)]),
    # A14: a sentence about a rack: its figure, not the superchip's
    ("GB200 NVL72由36个GB200超级芯片组成，FP8算力720 PFLOPS。", "t.txt",
     [("36个GB200", "composed_of", "gb200_nvl72", Y, S, None), ("720 PFLOPS", "fp8", "nvidia_gb200", P, S, None)]),
    ("GB200 NVL72由36个GB200超级芯片组成，FP8算力600 PFLOPS。", "t.txt",
     [("36个GB200", "composed_of", "gb200_nvl72", Y, S, None),
      ("600 PFLOPS", "fp8", "nvidia_gb200", P, U, "scope_not_product")]),
    ("# GB200 NVL72\n\nGB200 NVL72由36个GB200超级芯片组成。整个机柜的FP8算力达720 PFLOPS。\n", "t.md",
     [("36个GB200", "composed_of", "gb200_nvl72", Y, S, None), ("720 PFLOPS", "fp8", "nvidia_gb200", Y, S, None)]),
    ("GB200的FP8算力为720 PFLOPS。", "t.txt",
     [("720 PFLOPS", "fp8", "nvidia_gb200", P, C, None)]),
]
# fmt: on


@pytest.mark.parametrize(("text", "doc_id", "expected"), SYSTEM_CASES)
def test_system_scope(text: str, doc_id: str, expected: list[tuple[object, ...]]) -> None:
    assert claims_with_reasons(text, doc_id) == expected
