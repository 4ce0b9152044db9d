"""Technology and concept statements (pipeline.extract.concepts, pipeline.check.concept, manufacturer checks) and the
article-level checks built on top of single claims: inconsistent values and aggregates over several cards.

Every sentence is written for these tests; none comes from the seed or dev articles. Each case asserts the complete
list of claims of its sentence (``rows`` with the claim's value). A right statement about a technology often makes no
claim at all (``[]``): such a case sits next to its control, a wrong statement about the same technology that is
flagged, so that the table fails if extraction finds nothing.
"""

from __future__ import annotations

import pytest

from pipeline.records import Claim
from tests.claim_helpers import SYS, C, P, S, claims_for, flags, rows

Rows = list[tuple[object, ...]]


def concept_claims(text: str, expected: Rows) -> list[Claim]:
    """Assert the sentence's complete claims (with values); every flag spans its own source text and cites a
    source. Returns the flagged claims for the rule's own checks."""
    claims = claims_for(text, doc_id="concepts.txt")
    assert rows(claims, "value") == expected
    for c in flags(claims):
        assert c.text == text[c.start:c.end]
        assert c.check is not None and c.check.explanation and c.check.source and c.check.source.startswith("http")
    return flags(claims)


def concept(text: str, subject: str, value: str, verdict: str = C) -> tuple[str, str, str, str, str, str]:
    return (text, "concept", subject, P, verdict, value)


# ---------------------------------------------------------------- virtualization / partitioning vs. multi-GPU

POOL = "multi_gpu_pooling"
# fmt: off
POOLING_CASES = [
    ("vGPU能把多块显卡并联成一块使用。",                 [concept("vGPU能把多块显卡并联", "vgpu", POOL)]),
    ("vGPU让多台虚拟机共享同一块物理显卡。",               []),
    ("通过vGPU技术，可以把多块显卡并联成一块来用。",        [concept("可以把多块显卡并联", "vgpu", POOL)]),
    ("SR-IOV能让多张显卡一起并行训练。",                 [concept("SR-IOV能让多张显卡一起并行", "sr_iov", POOL)]),
    ("SR-IOV让一块GPU同时服务多个虚拟机。",               []),
    ("SR-IOV让一块GPU服务多个虚拟机，还能把多块显卡并联成一块。", [concept("还能把多块显卡并联", "sr_iov", POOL)]),
    ("MxGPU技术可以把多张显卡合并成一张大卡。",            [concept("MxGPU技术可以把多张显卡合并", "mxgpu", POOL)]),
    ("MxGPU基于SR-IOV，把一块GPU分给多个虚拟机。",        []),
    ("MIG技术能够把多张卡聚合成一个大GPU。",               [concept("MIG技术能够把多张卡聚合成一个", "mig", POOL)]),
    ("MIG可以把一块A100切分成多个实例。",                []),
    # NVLink does join several GPUs: said with a pooling verb it is a supported claim, else none
    ("NVLink可以把多块GPU连成一个整体。",
     [concept("NVLink可以把多块GPU连成一个整体", "nvlink", POOL, S)]),
    ("NVLink可以让多块GPU交换数据。",                    []),
    ("NVLink能把多块显卡并联成一块使用。",                [concept("NVLink能把多块显卡并联", "nvlink", POOL, S)]),
    ("vGPU能把多块GPU连成一个整体。",                 [concept("vGPU能把多块GPU连成一个整体", "vgpu", POOL)]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), POOLING_CASES)
def test_virtualization_is_not_multi_gpu_pooling(text: str, expected: Rows) -> None:
    for c in concept_claims(text, expected):
        assert c.check is not None and "并联" in c.check.explanation


# ---------------------------------------------------------------- compute units and caches vs. memory

# fmt: off
MEMORY_CASES = [
    ("RT Core主要用来存放纹理数据。",             [concept("RT Core主要用来存放", "rt_core", "storage")]),
    ("光追核心负责存储纹理贴图。",                 [concept("光追核心负责存储", "rt_core", "storage")]),
    ("RT Core专门加速光线与三角形的求交计算。",      []),
    ("张量核心相当于一块高速显存。",               [concept("张量核心相当于一块高速显存", "tensor_core", "memory")]),
    ("Tensor Core专门用来做矩阵乘累加计算。",       []),
    ("CUDA核心是用来存储数据的显存单元。",          [concept("CUDA核心是用来存储", "cuda_core", "storage")]),
    ("CUDA核心负责执行FP32运算。",                 []),
    ("Infinity Cache其实是焊在PCB上的显存颗粒。",  [concept("Infinity Cache其实是焊在PCB上的显存颗粒", "infinity_cache",
                                                       "memory_chip")]),
    ("无限缓存是独立焊接在板卡上的内存颗粒。",        [concept("无限缓存是独立焊接", "infinity_cache", "memory_chip")]),
    ("Infinity Cache增加了显存容量。", [concept("Infinity Cache增加了显存容量", "infinity_cache", "memory")]),
    ("Infinity Cache是一种显存。",                [concept("Infinity Cache是一种显存", "infinity_cache", "memory")]),
    # not a concept claim; that the card has the cache is a support claim of its own
    ("RX 7900 XTX采用Infinity Cache。",
     [("采用Infinity Cache", "supports", "amd_rx_7900_xtx", P, S, "Infinity Cache")]),
    ("RX 6950 XT集成了128MB Infinity Cache。",    [("128MB", "cache_size", "amd_rx_6950_xt", P, S, 128)]),
    ("L2缓存是焊在显卡背面的独立显存芯片。",
     [concept("L2缓存是焊在显卡背面的独立显存芯片", "l2_cache", "memory_chip")]),
    ("L2缓存大大扩大了显存容量。",                [concept("L2缓存大大扩大了显存容量", "l2_cache", "memory")]),
    ("L2缓存是所有SM共享的片上缓存。",              []),
    ("A100的L2缓存为40MB。",                      [("40MB", "cache_size", "nvidia_a100", P, S, 40)]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), MEMORY_CASES)
def test_compute_unit_or_cache_is_not_memory(text: str, expected: Rows) -> None:
    for c in concept_claims(text, expected):
        assert c.check is not None and ("计算单元" in c.check.explanation or "片上缓存" in c.check.explanation)


# ---------------------------------------------------------------- datasets and benchmarks vs. models

# fmt: off
MODEL_CASES = [
    ("MLPerf这种大模型训练很耗时。",         [concept("MLPerf", "mlperf", "model")]),
    ("MLPerf是一个大模型。",               [concept("MLPerf", "mlperf", "model")]),
    ("MLPerf是衡量训练速度的基准测试。",      []),
    ("像COCO这样的大模型训练起来很慢。",       [concept("COCO", "coco", "model")]),
    ("像GPT-3这样的大模型需要上千张卡。",      []),  # GPT-3 is a model
    ("COCO是目前很流行的视觉大模型。",        [concept("COCO", "coco", "model")]),
    ("我们用COCO数据集评估检测精度。",         []),
    ("常见的模型例如ImageNet都很吃显存。",     [concept("模型例如ImageNet", "imagenet", "model")]),
    ("ImageNet这类大模型参数量很大。",        [concept("ImageNet", "imagenet", "model")]),
    ("BERT这类大模型需要大量显存。",           []),  # BERT is a model
    ("ImageNet这类数据集很大。",             []),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), MODEL_CASES)
def test_dataset_or_benchmark_is_not_a_model(text: str, expected: Rows) -> None:
    for c in concept_claims(text, expected):
        assert c.check is not None and "不是模型" in c.check.explanation


# ---------------------------------------------------------------- brands and vendors

# fmt: off
BRAND_CASES = [
    ("特斯拉P40由特斯拉公司推出。",        [("特斯拉公司推出", "manufacturer", "nvidia_tesla_p40", P, C, "tesla_inc")]),
    ("特斯拉公司的自动驾驶芯片不是GPU。",     []),  # the company itself, no card
    ("Tesla K80是特斯拉汽车设计的加速卡。",
     [("特斯拉汽车设计", "manufacturer", "nvidia_tesla_k80", P, C, "tesla_inc")]),
    ("这款特斯拉T4由Tesla Inc.开发。",     [("Tesla Inc.开发", "manufacturer", "nvidia_t4", P, C, "tesla_inc")]),
    ("特斯拉M40由英伟达推出。",            [("英伟达推出", "manufacturer", "nvidia_tesla_m40", P, S, "nvidia")]),
    ("Tesla V100是英伟达推出的计算卡。",     [("英伟达推出", "manufacturer", "nvidia_tesla_v100", P, S, "nvidia")]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), BRAND_CASES)
def test_tesla_brand_is_not_tesla_inc(text: str, expected: Rows) -> None:
    for c in concept_claims(text, expected):
        assert c.check is not None and c.check.expected == "NVIDIA" and "品牌" in c.check.explanation


# fmt: off
VENDOR_CASES = [
    ("超威的NVLink互连带宽很高。",                   [("超威的NVLink", "manufacturer", "nvlink", P, C, "amd")]),
    ("NVIDIA的NVLink带宽很高。",                     [("NVIDIA的NVLink", "manufacturer", "nvlink", P, S, "nvidia")]),
    ("英伟达的Infinity Fabric把多块GPU连在一起。",
     [("英伟达的Infinity Fabric", "manufacturer", "infinity_fabric", P, C, "nvidia")]),
    ("AMD的Infinity Fabric用于连接多块Instinct加速卡。",
     [("AMD的Infinity Fabric", "manufacturer", "infinity_fabric", P, S, "amd")]),
    ("NVIDIA的ROCm软件栈日趋成熟。",                  [("NVIDIA的ROCm", "manufacturer", "rocm", P, C, "nvidia")]),
    ("ROCm由英伟达开发。",                           [("ROCm由英伟达开发", "manufacturer", "rocm", P, C, "nvidia")]),
    ("AMD的ROCm是开源的。",                          [("AMD的ROCm", "manufacturer", "rocm", P, S, "amd")]),
    ("英特尔的CUDA生态很完善。",                      [("英特尔的CUDA", "manufacturer", "cuda", P, C, "intel")]),
    ("华为的CUDA生态发展很快。",                      [("华为的CUDA", "manufacturer", "cuda", P, C, "huawei")]),
    ("CUDA是英特尔推出的编程平台。",                   [("CUDA是英特尔推出", "manufacturer", "cuda", P, C, "intel")]),
    ("英伟达的NVSwitch芯片让八块GPU全互连。", [("英伟达的NVSwitch", "manufacturer", "nvswitch", P, S, "nvidia")]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), VENDOR_CASES)
def test_technology_belongs_to_its_vendor(text: str, expected: Rows) -> None:
    for c in concept_claims(text, expected):
        assert c.subject_mention and c.subject_mention in c.text


# ---------------------------------------------------------------- what a card is for, and what it carries

# fmt: off
POSITIONING_CASES = [
    ("T4作为数据中心里的训练卡，被大量部署。",
     [("作为数据中心里的训练卡", "positioning", "nvidia_t4", P, C, "training")]),
    ("T4用于在线推理服务。",                [("用于在线推理", "positioning", "nvidia_t4", P, S, "inference")]),
    ("P4专为模型训练打造。",                [("专为模型训练", "positioning", "nvidia_tesla_p4", P, C, "training")]),
    ("L4主要用于大模型训练。",               [("主要用于大模型训练", "positioning", "nvidia_l4", P, C, "training")]),
    ("L4是一块推理卡。",                   [("是一块推理卡", "positioning", "nvidia_l4", P, S, "inference")]),
    ("A2面向深度学习训练。",                [("面向深度学习训练", "positioning", "nvidia_a2", P, C, "training")]),
    ("RTX 3060是一块专业训练加速卡。", [("是一块专业训练加速卡", "positioning", "nvidia_rtx_3060", P, C, "training")]),
    ("H100定位于大规模模型训练。", [("定位于大规模模型训练", "positioning", "nvidia_h100", P, S, "training")]),
    ("A100是一款训练加速卡。",               [("是一款训练加速卡", "positioning", "nvidia_a100", P, S, "training")]),
    # 训练和推理: both are claimed; a card for either fits
    ("MI300X面向大模型训练和推理。",          [("面向大模型训练和推理", "positioning", "amd_mi300x", P, S,
                                             "training|inference")]),
    ("T4专为训练与推理优化。",
     [("专为训练与推理", "positioning", "nvidia_t4", P, S, "training|inference")]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), POSITIONING_CASES)
def test_positioning(text: str, expected: Rows) -> None:
    for c in concept_claims(text, expected):
        assert "训练" in c.text


# fmt: off
HARDWARE_CASES = [
    ("L4配备了冗余电源，可靠性更高。",           [concept("冗余电源", "nvidia_l4", "redundant_psu")]),
    # no concept claim: that the slot can power it is a claim of its own (70 W, within a slot's 75 W)
    ("T4通过PCIe插槽供电。",                  [("PCIe插槽供电", "slot_powered", "nvidia_t4", P, S, "yes")]),
    ("T4配有冗余电源。",                      [concept("冗余电源", "nvidia_t4", "redundant_psu")]),
    # the server's power supply; how many cards it holds is recorded, of no card
    ("这台服务器配有冗余电源，机箱里插了四块T4。",  [("四块", "figure", "", P, "unverifiable", "四块")]),
    ("A100 PCIe版配有冗余电源。",              [concept("冗余电源", "nvidia_a100", "redundant_psu")]),
    ("A2内置TensorFlow框架，开箱即用。",        [concept("内置TensorFlow", "nvidia_a2", "builtin_framework")]),
    ("T4内置了PyTorch框架。",                 [concept("内置了PyTorch框架", "nvidia_t4", "builtin_framework")]),
    ("H100 SXM5内置了PyTorch框架。",          [concept("内置了PyTorch框架", "nvidia_h100", "builtin_framework")]),
    ("L4需要在主机上安装PyTorch框架。",         []),
    ("L4内置了PyTorch框架。",                 [concept("内置了PyTorch框架", "nvidia_l4", "builtin_framework")]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), HARDWARE_CASES)
def test_card_hardware(text: str, expected: Rows) -> None:
    for c in concept_claims(text, expected):
        assert ("冗余电源" if c.value == "redundant_psu" else "内置") in c.text


def precision(text: str, subject: str, verdict: str = S) -> tuple[str, str, str, str, str, str]:
    return (text, "precision", subject, P, verdict, text)


# fmt: off
PRECISION_CASES = [
    # one claim per format, so that a flag covers only the unsupported one
    ("Tesla V100支持BF16格式。",   [precision("BF16", "nvidia_tesla_v100", C)]),
    # denied, and rightly: no precision claim; the support claim says it
    ("V100不支持BF16。",           [("不支持BF16", "supports", "nvidia_tesla_v100", P, S, "BF16")]),
    ("P100支持TF32运算。",         [precision("TF32", "nvidia_tesla_p100", C)]),
    ("MI250X支持FP8精度。",        [precision("FP8", "amd_mi250x", C)]),
    ("A100也支持FP8推理。",         [precision("FP8", "nvidia_a100", C)]),
    ("H100支持FP8。",             [precision("FP8", "nvidia_h100")]),
    ("A100支持TF32与BF16两种格式。", [precision("TF32", "nvidia_a100"), precision("BF16", "nvidia_a100")]),
    ("RTX 4090支持FP8和BF16。",    [precision("FP8", "nvidia_rtx_4090"), precision("BF16", "nvidia_rtx_4090")]),
    ("MI300X支持FP8与BF16。",      [precision("FP8", "amd_mi300x"), precision("BF16", "amd_mi300x")]),
    ("V100支持FP16混合精度训练。",   [precision("FP16", "nvidia_tesla_v100")]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), PRECISION_CASES)
def test_precision_support(text: str, expected: Rows) -> None:
    for c in concept_claims(text, expected):
        assert c.check is not None and c.check.expected == f"不支持{c.value}"
        assert "架构" in c.check.explanation


# ---------------------------------------------------------------- a flag covers only the wrong part

# fmt: off
SPAN_CASES = [
    ("RX 6800采用Infinity Cache技术，它是一块独立的显存颗粒。",
     [("采用Infinity Cache", "supports", "amd_rx_6800", P, S, "Infinity Cache"),
      concept("它是一块独立的显存颗粒", "infinity_cache", "memory_chip")]),
    ("MIG可以把一块A100切分成多个实例，它还能把多张卡合并成一张。", [concept("它还能把多张卡合并", "mig", POOL)]),
    ("RT Core用于加速光线追踪，它也用来存放纹理。",                [concept("它也用来存放", "rt_core", "storage")]),
    ("T4带有16GB显存，是一块面向训练的加速卡。",
     [("16GB", "memory_size", "nvidia_t4", P, S, 16), ("面向训练", "positioning", "nvidia_t4", P, C, "training")]),
    ("L4的功耗为72W，内置了PyTorch框架。",
     [("72W", "tdp", "nvidia_l4", P, S, 72), concept("内置了PyTorch框架", "nvidia_l4", "builtin_framework")]),
    ("V100拥有5120个CUDA核心，支持BF16。",
     [("5120个", "cuda_cores", "nvidia_tesla_v100", P, S, 5120), precision("BF16", "nvidia_tesla_v100", C)]),
    ("英伟达的CUDA生态成熟，AMD的NVLink带宽更高。",
     [("英伟达的CUDA", "manufacturer", "cuda", P, S, "nvidia"),
      ("AMD的NVLink", "manufacturer", "nvlink", P, C, "amd")]),
    ("Tesla P4由特斯拉公司推出，配备8GB显存。",
     [("特斯拉公司推出", "manufacturer", "nvidia_tesla_p4", P, C, "tesla_inc"),
      ("8GB", "memory_size", "nvidia_tesla_p4", P, S, 8)]),
    ("V100支持FP16和BF16。", [precision("FP16", "nvidia_tesla_v100"), precision("BF16", "nvidia_tesla_v100", C)]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), SPAN_CASES)
def test_flag_covers_only_the_wrong_part(text: str, expected: Rows) -> None:
    flagged = concept_claims(text, expected)
    assert len(flagged) == 1
    assert flagged[0].sentence.strip() == text.strip()


# ---------------------------------------------------------------- one article, two values

# fmt: off
INCONSISTENT_CASES = [
    # article, its claims (the wrong one first in the text or not), the right value
    ("RTX 4090拥有16384个CUDA核心，游戏性能出色。\n\n评测部分又提到，RTX 4090拥有18432个CUDA核心。",
     [("16384个", "cuda_cores", "nvidia_rtx_4090", P, S, 16384),
      ("18432个", "cuda_cores", "nvidia_rtx_4090", P, C, 18432)],
     "16384个"),
    ("A100拥有8192个CUDA核心。\n\n官方白皮书里，A100拥有6912个CUDA核心。",
     [("8192个", "cuda_cores", "nvidia_a100", P, C, 8192), ("6912个", "cuda_cores", "nvidia_a100", P, S, 6912)],
     "6912个"),
    ("MI300X配备192GB显存。后面的表格却说MI300X配备128GB显存。",
     [("192GB", "memory_size", "amd_mi300x", P, S, 192), ("128GB", "memory_size", "amd_mi300x", P, C, 128)],
     "192GB"),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected", "right"), INCONSISTENT_CASES)
def test_two_values_for_one_card_are_inconsistent(text: str, expected: Rows, right: str) -> None:
    [bad] = concept_claims(text, expected)
    [good] = [c for c in claims_for(text, doc_id="concepts.txt") if c.text == right]
    assert bad.check is not None and "前后不一致" in bad.check.explanation and right in bad.check.explanation
    assert good.check is not None and "前后不一致" not in good.check.explanation


# fmt: off
VARIANT_CASES = [
    # two values that match two variants are both right
    ("V100配备16GB显存。\n\n另一款V100配备32GB显存。",
     [("16GB", "memory_size", "nvidia_tesla_v100", P, S, 16), ("32GB", "memory_size", "nvidia_tesla_v100", P, S, 32)]),
    ("A100的显存带宽为1555GB/s。升级版A100的显存带宽为2039GB/s。",
     [("1555GB/s", "memory_bandwidth", "nvidia_a100", P, S, 1555),
      ("2039GB/s", "memory_bandwidth", "nvidia_a100", P, S, 2039)]),
    ("RTX 3080配备10GB显存，后来推出的RTX 3080配备12GB显存。",
     [("10GB", "memory_size", "nvidia_rtx_3080", P, S, 10), ("12GB", "memory_size", "nvidia_rtx_3080", P, S, 12)]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), VARIANT_CASES)
def test_two_values_matching_two_variants_are_both_supported(text: str, expected: Rows) -> None:
    concept_claims(text, expected)
    for c in claims_for(text, doc_id="concepts.txt"):
        assert c.check is not None and "前后不一致" not in c.check.explanation


# ---------------------------------------------------------------- aggregates over several cards

# fmt: off
AGGREGATE_CASES = [
    # article, its claims with the multiplier, the per-card figure the explanation names
    ("两张H100 SXM5组成的系统，显存带宽合计为4TB/s。",
     [("4TB/s", "memory_bandwidth", "nvidia_h100", SYS, C, 2)], "3350 GB/s"),
    ("两块H100 SXM5加起来共有30000个CUDA核心。", [("30000个", "cuda_cores", "nvidia_h100", SYS, C, 2)], "16896"),
    ("两张RTX 4090的显存合计为40GB。",          [("40GB", "memory_size", "nvidia_rtx_4090", SYS, C, 2)], "24 GB"),
    ("两张H100 SXM5的显存带宽合计为6.7TB/s。",   [("6.7TB/s", "memory_bandwidth", "nvidia_h100", SYS, S, 2)], None),
    ("两张RTX 4090的显存合计为48GB。",          [("48GB", "memory_size", "nvidia_rtx_4090", SYS, S, 2)], None),
    # the 80GB of the name is a claim of its own and picks the variant of the total
    ("四张A100 80GB的显存总容量为400GB。",
     [("80GB", "memory_size", "nvidia_a100", P, S, 1), ("400GB", "memory_size", "nvidia_a100", SYS, C, 4)],
     "80 GB × 4"),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected", "per_card"), AGGREGATE_CASES)
def test_aggregate_over_cards(text: str, expected: Rows, per_card: str | None) -> None:
    claims = claims_for(text, doc_id="concepts.txt")
    assert rows(claims, "multiplier") == expected
    if per_card is not None:
        [c] = flags(claims)
        assert c.check is not None and per_card in c.check.explanation, c.check.explanation
        assert "每卡" in c.check.explanation
