"""Technology and concept statements (pipeline.extract.concepts, pipeline.concept_check, manufacturer checks) and the
article-level checks built on top of single claims: inconsistent values and aggregates over several cards.

Every sentence is written for these tests; none comes from the seed or dev articles. Each rule has a table of cases:
``FLAG`` sentences must yield a contradicted claim about the named subject, ``OK`` sentences about the same
technologies must yield no flag at all (supported, unverifiable or no claim).
"""

from __future__ import annotations

import pytest

from pipeline.api import check_text
from pipeline.records import Claim, Verdict

FLAG, OK = "flag", "ok"


def claims_for(text: str) -> list[Claim]:
    return check_text(text, doc_id="concepts.txt")


def flags(claims: list[Claim]) -> list[Claim]:
    return [c for c in claims if c.verdict is not None and c.verdict.is_flag]


def show(claims: list[Claim]) -> list[tuple[str, str, str | None, object, str | None]]:
    return [(c.text, c.attribute, c.subject, c.value, c.verdict.value if c.verdict else None) for c in claims]


def gap(case: tuple, reason: str):  # type: ignore[type-arg,no-untyped-def]
    return pytest.param(*case, marks=pytest.mark.xfail(strict=True, reason=reason))


def assert_rule(text: str, expected: str, subject: str, attributes: set[str]) -> Claim | None:
    """FLAG: one contradicted claim with one of ``attributes`` about ``subject``, its span inside the source.
    OK: nothing flagged at all."""
    claims = claims_for(text)
    if expected == OK:
        assert not flags(claims), show(claims)
        return None
    hits = [c for c in flags(claims) if c.attribute in attributes and c.subject == subject]
    assert hits, show(claims)
    c = hits[0]
    assert c.verdict is Verdict.CONTRADICTED, c.check
    assert c.text == text[c.start:c.end]
    assert c.check is not None and c.check.explanation and c.check.source and c.check.source.startswith("http")
    return c


# ---------------------------------------------------------------- virtualization / partitioning vs. multi-GPU

CLAUSE_GAP = ("the term and the predicate are in different clauses and the second clause does not start with "
              "这/它/其/该 (concept_drafts only looks at the term's own clause or an anaphoric next one)")
# fmt: off
POOLING_CASES = [
    # text                                                  expected  subject
    ("vGPU能把多块显卡并联成一块使用。",                          FLAG,     "vgpu"),
    ("SR-IOV能让多张显卡一起并行训练。",                          FLAG,     "sr_iov"),
    ("MxGPU技术可以把多张显卡合并成一张大卡。",                     FLAG,     "mxgpu"),
    ("MIG技术能够把多张卡聚合成一个大GPU。",                        FLAG,     "mig"),
    ("通过vGPU技术，可以把多块显卡并联成一块来用。",             FLAG,     "vgpu"),
    ("SR-IOV让一块GPU服务多个虚拟机，还能把多块显卡并联成一块。",  FLAG,     "sr_iov"),
    ("MIG可以把一块A100切分成多个实例。",                         OK,       "mig"),
    ("SR-IOV让一块GPU同时服务多个虚拟机。",                        OK,       "sr_iov"),
    ("vGPU让多台虚拟机共享同一块物理显卡。",                        OK,       "vgpu"),
    ("MxGPU基于SR-IOV，把一块GPU分给多个虚拟机。",                 OK,       "mxgpu"),
    ("NVLink可以把多块GPU连成一个整体。",                          OK,       "nvlink"),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected", "subject"), POOLING_CASES)
def test_virtualization_is_not_multi_gpu_pooling(text: str, expected: str, subject: str) -> None:
    c = assert_rule(text, expected, subject, {"concept"})
    if c is not None:
        assert c.value == "multi_gpu_pooling"
        assert c.check is not None and "并联" in c.check.explanation


# ---------------------------------------------------------------- compute units and caches vs. memory

CACHE_AS_MEMORY = ("WRONG_FOR['cache'] holds only 'memory_chip': a cache said to add memory capacity or to be "
                   "memory (predicate 'memory') is not flagged")
# fmt: off
MEMORY_CASES = [
    ("RT Core主要用来存放纹理数据。",                               FLAG,  "rt_core"),
    ("光追核心负责存储纹理贴图。",                                   FLAG,  "rt_core"),
    ("张量核心相当于一块高速显存。",                                 FLAG,  "tensor_core"),
    ("CUDA核心是用来存储数据的显存单元。",                            FLAG,  "cuda_core"),
    ("Infinity Cache其实是焊在PCB上的显存颗粒。",                    FLAG,  "infinity_cache"),
    ("无限缓存是独立焊接在板卡上的内存颗粒。",                          FLAG,  "infinity_cache"),
    ("L2缓存是焊在显卡背面的独立显存芯片。",                           FLAG,  "l2_cache"),
    ("L2缓存大大扩大了显存容量。",                                FLAG,  "l2_cache"),
    ("Infinity Cache增加了显存容量。",                          FLAG,  "infinity_cache"),
    ("Infinity Cache是一种显存。",                              FLAG,  "infinity_cache"),
    ("RX 7900 XTX采用Infinity Cache。",                           OK,    "infinity_cache"),
    ("RX 6950 XT集成了128MB Infinity Cache。",                    OK,    "infinity_cache"),
    ("A100的L2缓存为40MB。",                                       OK,    "l2_cache"),
    ("L2缓存是所有SM共享的片上缓存。",                                OK,    "l2_cache"),
    ("Tensor Core专门用来做矩阵乘累加计算。",                         OK,    "tensor_core"),
    ("RT Core专门加速光线与三角形的求交计算。",                        OK,    "rt_core"),
    ("CUDA核心负责执行FP32运算。",                                   OK,    "cuda_core"),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected", "subject"), MEMORY_CASES)
def test_compute_unit_or_cache_is_not_memory(text: str, expected: str, subject: str) -> None:
    c = assert_rule(text, expected, subject, {"concept"})
    if c is not None:
        assert c.value in ("memory", "storage", "memory_chip")
        assert c.check is not None and ("计算单元" in c.check.explanation or "片上缓存" in c.check.explanation)


# ---------------------------------------------------------------- datasets and benchmarks vs. models

COPULA_GAP = "only '这种/这类/这样的…模型' after or '模型如/像…' before the term are recognised, not 'X是…模型'"
# fmt: off
MODEL_CASES = [
    ("MLPerf这种大模型训练很耗时。",                 FLAG,  "mlperf"),
    ("像COCO这样的大模型训练起来很慢。",               FLAG,  "coco"),
    ("常见的模型例如ImageNet都很吃显存。",            FLAG,  "imagenet"),
    ("ImageNet这类大模型参数量很大。",                FLAG,  "imagenet"),
    ("MLPerf是一个大模型。",                     FLAG,  "mlperf"),
    ("COCO是目前很流行的视觉大模型。",             FLAG,  "coco"),
    ("BERT这类大模型需要大量显存。",                  OK,    "bert"),
    ("像GPT-3这样的大模型需要上千张卡。",              OK,    "gpt_3"),
    ("MLPerf是衡量训练速度的基准测试。",               OK,    "mlperf"),
    ("我们用COCO数据集评估检测精度。",                 OK,    "coco"),
    ("ImageNet这类数据集很大。",                     OK,    "imagenet"),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected", "subject"), MODEL_CASES)
def test_dataset_or_benchmark_is_not_a_model(text: str, expected: str, subject: str) -> None:
    c = assert_rule(text, expected, subject, {"concept"})
    if c is not None:
        assert c.value == "model"
        assert c.check is not None and "不是模型" in c.check.explanation


# ---------------------------------------------------------------- brands and vendors

# fmt: off
BRAND_CASES = [
    ("特斯拉P40由特斯拉公司推出。",              FLAG,  "nvidia_tesla_p40"),
    ("Tesla K80是特斯拉汽车设计的加速卡。",        FLAG,  "nvidia_tesla_k80"),
    ("这款特斯拉T4由Tesla Inc.开发。",           FLAG,  "nvidia_t4"),
    ("特斯拉M40由英伟达推出。",                   OK,    "nvidia_tesla_m40"),
    ("Tesla V100是英伟达推出的计算卡。",           OK,    "nvidia_tesla_v100"),
    ("特斯拉公司的自动驾驶芯片不是GPU。",            OK,    "tesla_inc"),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected", "subject"), BRAND_CASES)
def test_tesla_brand_is_not_tesla_inc(text: str, expected: str, subject: str) -> None:
    c = assert_rule(text, expected, subject, {"manufacturer"})
    if c is not None:
        assert c.value == "tesla_inc"
        assert c.check is not None and c.check.expected == "NVIDIA" and "品牌" in c.check.explanation
    else:
        made = [c for c in claims_for(text) if c.attribute == "manufacturer"]
        assert all(c.verdict is Verdict.SUPPORTED for c in made), show(made)


RELATION_GAP = ("a technology credited to a vendor with a verb (X由VENDOR开发, X是VENDOR推出的…) yields no claim: "
                "only the possessive VENDOR的X is read for terms")
# fmt: off
VENDOR_CASES = [
    # text                                             expected  subject            stated vendor
    ("超威的NVLink互连带宽很高。",                         FLAG,  "nvlink",          "amd"),
    ("英伟达的Infinity Fabric把多块GPU连在一起。",           FLAG,  "infinity_fabric", "nvidia"),
    ("NVIDIA的ROCm软件栈日趋成熟。",                       FLAG,  "rocm",            "nvidia"),
    ("英特尔的CUDA生态很完善。",                            FLAG,  "cuda",            "intel"),
    ("华为的CUDA生态发展很快。",                            FLAG,  "cuda",            "huawei"),
    ("ROCm由英伟达开发。",                             FLAG,  "rocm",            "nvidia"),
    ("CUDA是英特尔推出的编程平台。",                     FLAG,  "cuda",            "intel"),
    ("NVIDIA的NVLink带宽很高。",                           OK,    "nvlink",          "nvidia"),
    ("AMD的ROCm是开源的。",                                OK,    "rocm",            "amd"),
    ("AMD的Infinity Fabric用于连接多块Instinct加速卡。",     OK,    "infinity_fabric", "amd"),
    ("英伟达的NVSwitch芯片让八块GPU全互连。",                 OK,    "nvswitch",        "nvidia"),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected", "subject", "vendor"), VENDOR_CASES)
def test_technology_belongs_to_its_vendor(text: str, expected: str, subject: str, vendor: str) -> None:
    c = assert_rule(text, expected, subject, {"manufacturer"})
    if c is not None:
        assert c.value == vendor
        assert c.subject_mention and c.subject_mention in c.text
    else:
        made = [c for c in claims_for(text) if c.attribute == "manufacturer" and c.subject == subject]
        assert made and all(c.verdict is Verdict.SUPPORTED for c in made), show(claims_for(text))


# ---------------------------------------------------------------- what a card is for, and what it carries

# fmt: off
POSITIONING_CASES = [
    ("T4作为数据中心里的训练卡，被大量部署。",      FLAG,  "nvidia_t4"),
    ("P4专为模型训练打造。",                     FLAG,  "nvidia_tesla_p4"),
    ("L4主要用于大模型训练。",                    FLAG,  "nvidia_l4"),
    ("A2面向深度学习训练。",                      FLAG,  "nvidia_a2"),
    ("RTX 3060是一块专业训练加速卡。",             FLAG,  "nvidia_rtx_3060"),
    ("H100定位于大规模模型训练。",                 OK,    "nvidia_h100"),
    ("T4用于在线推理服务。",                      OK,    "nvidia_t4"),
    ("A100是一款训练加速卡。",                    OK,    "nvidia_a100"),
    ("L4是一块推理卡。",                         OK,    "nvidia_l4"),
    ("MI300X面向大模型训练和推理。",               OK,    "amd_mi300x"),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected", "subject"), POSITIONING_CASES)
def test_positioning(text: str, expected: str, subject: str) -> None:
    c = assert_rule(text, expected, subject, {"positioning"})
    if c is not None:
        assert c.value == "training" and "训练" in c.text
    else:
        said = [c for c in claims_for(text) if c.attribute == "positioning"]
        assert said and all(c.subject == subject and c.verdict is Verdict.SUPPORTED for c in said), show(said)


VARIANT_GAP = ("_hardware ignores the variant the article names: A100 has PCIe and SXM4 interfaces, so a redundant "
               "power supply on 'A100 PCIe' is unverifiable instead of contradicted")
# fmt: off
HARDWARE_CASES = [
    # text                                      expected  subject        value
    ("L4配备了冗余电源，可靠性更高。",                 FLAG,  "nvidia_l4",   "redundant_psu"),
    ("A2内置TensorFlow框架，开箱即用。",             FLAG,  "nvidia_a2",   "builtin_framework"),
    ("T4内置了PyTorch框架。",                      FLAG,  "nvidia_t4",   "builtin_framework"),
    ("H100 SXM5内置了PyTorch框架。",               FLAG,  "nvidia_h100", "builtin_framework"),
    ("A100 PCIe版配有冗余电源。",                FLAG,  "nvidia_a100", "redundant_psu"),
    ("L4需要在主机上安装PyTorch框架。",               OK,    "nvidia_l4",   None),
    ("T4通过PCIe插槽供电。",                        OK,    "nvidia_t4",   None),
    ("这台服务器配有冗余电源，机箱里插了四块T4。",        OK,    "nvidia_t4",   None),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected", "subject", "value"), HARDWARE_CASES)
def test_card_hardware(text: str, expected: str, subject: str, value: str | None) -> None:
    c = assert_rule(text, expected, subject, {"concept"})
    if c is not None:
        assert c.value == value
        assert ("冗余电源" if value == "redundant_psu" else "内置") in c.text


# fmt: off
PRECISION_CASES = [
    # text                                 expected  subject               formats
    ("Tesla V100支持BF16格式。",              FLAG,  "nvidia_tesla_v100",  "BF16"),
    ("P100支持TF32运算。",                    FLAG,  "nvidia_tesla_p100",  "TF32"),
    ("MI250X支持FP8精度。",                   FLAG,  "amd_mi250x",         "FP8"),
    ("A100也支持FP8推理。",                    FLAG,  "nvidia_a100",        "FP8"),
    ("H100支持FP8。",                        OK,    "nvidia_h100",        "FP8"),
    ("A100支持TF32与BF16两种格式。",            OK,    "nvidia_a100",        "BF16|TF32"),
    ("RTX 4090支持FP8和BF16。",               OK,    "nvidia_rtx_4090",    "BF16|FP8"),
    ("MI300X支持FP8与BF16。",                 OK,    "amd_mi300x",         "BF16|FP8"),
    ("V100支持FP16混合精度训练。",              OK,    "nvidia_tesla_v100",  "FP16"),
    ("V100不支持BF16。",                      OK,    "nvidia_tesla_v100",  None),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected", "subject", "formats"), PRECISION_CASES)
def test_precision_support(text: str, expected: str, subject: str, formats: str | None) -> None:
    c = assert_rule(text, expected, subject, {"precision"})
    said = [c for c in claims_for(text) if c.attribute == "precision"]
    if formats is None:
        assert not said, show(said)
        return
    # one claim per format, so that a flag covers only the unsupported one
    assert sorted((x.subject, x.value) for x in said) == sorted((subject, f) for f in formats.split("|"))
    if c is not None:
        assert c.check is not None and c.check.expected == f"不支持{formats}"
        assert "架构" in c.check.explanation


# ---------------------------------------------------------------- a flag covers only the wrong part

LIST_GAP = ("a precision list is one claim: in 'V100支持FP16和BF16' the flagged text is 'FP16和BF16', "
            "which includes the supported FP16")
# fmt: off
SPAN_CASES = [
    # text                                                   in the flagged text  correct part left out
    ("RX 6800采用Infinity Cache技术，它是一块独立的显存颗粒。",      "显存颗粒",            "采用Infinity Cache技术"),
    ("MIG可以把一块A100切分成多个实例，它还能把多张卡合并成一张。",     "合并",               "切分成多个实例"),
    ("RT Core用于加速光线追踪，它也用来存放纹理。",                  "存放",               "加速光线追踪"),
    ("T4带有16GB显存，是一块面向训练的加速卡。",                     "训练",               "16GB"),
    ("L4的功耗为72W，内置了PyTorch框架。",                          "内置",               "72W"),
    ("V100拥有5120个CUDA核心，支持BF16。",                          "BF16",               "5120"),
    ("英伟达的CUDA生态成熟，AMD的NVLink带宽更高。",                    "AMD的NVLink",         "英伟达的CUDA"),
    ("Tesla P4由特斯拉公司推出，配备8GB显存。",                       "特斯拉公司",           "8GB"),
    ("V100支持FP16和BF16。",                                  "BF16",               "FP16"),
]
# fmt: on


@pytest.mark.parametrize(("text", "wrong", "right"), SPAN_CASES)
def test_flag_covers_only_the_wrong_part(text: str, wrong: str, right: str) -> None:
    claims = claims_for(text)
    flagged = flags(claims)
    assert len(flagged) == 1, show(claims)
    c = flagged[0]
    assert c.text == text[c.start:c.end]
    assert wrong in c.text
    assert right not in c.text, (c.text, right)
    assert c.sentence.strip() == text.strip()


# ---------------------------------------------------------------- one article, two values

# fmt: off
INCONSISTENT_CASES = [
    # article                                                                       wrong      right
    ("RTX 4090拥有16384个CUDA核心，游戏性能出色。\n\n评测部分又提到，RTX 4090拥有18432个CUDA核心。",
                                                                                    "18432个", "16384个"),
    ("A100拥有8192个CUDA核心。\n\n官方白皮书里，A100拥有6912个CUDA核心。",                   "8192个",  "6912个"),
    ("MI300X配备192GB显存。后面的表格却说MI300X配备128GB显存。",                          "128GB",   "192GB"),
]
# fmt: on


@pytest.mark.parametrize(("text", "wrong", "right"), INCONSISTENT_CASES)
def test_two_values_for_one_card_are_inconsistent(text: str, wrong: str, right: str) -> None:
    claims = claims_for(text)
    bad = [c for c in claims if c.text == wrong]
    good = [c for c in claims if c.text == right]
    assert len(bad) == 1 and len(good) == 1, show(claims)
    assert bad[0].verdict is Verdict.CONTRADICTED, bad[0].check
    assert bad[0].check is not None and "前后不一致" in bad[0].check.explanation and right in bad[0].check.explanation
    assert good[0].verdict is Verdict.SUPPORTED
    assert good[0].check is not None and "前后不一致" not in good[0].check.explanation


# fmt: off
VARIANT_CASES = [
    # article                                                      values that are both right
    ("V100配备16GB显存。\n\n另一款V100配备32GB显存。",                    ("16GB", "32GB")),
    ("A100的显存带宽为1555GB/s。升级版A100的显存带宽为2039GB/s。",         ("1555GB/s", "2039GB/s")),
    ("RTX 3080配备10GB显存，后来推出的RTX 3080配备12GB显存。",              ("10GB", "12GB")),
]
# fmt: on


@pytest.mark.parametrize(("text", "values"), VARIANT_CASES)
def test_two_values_matching_two_variants_are_both_supported(text: str, values: tuple[str, str]) -> None:
    claims = claims_for(text)
    for v in values:
        hits = [c for c in claims if c.text == v]
        assert len(hits) == 1, show(claims)
        assert hits[0].verdict is Verdict.SUPPORTED, hits[0].check
        assert hits[0].check is not None and "前后不一致" not in hits[0].check.explanation


# ---------------------------------------------------------------- aggregates over several cards

AGGREGATE_VARIANT_GAP = ("the '80GB' of 'A100 80GB' becomes its own memory_size claim and does not select the "
                         "variant for the total: the explanation offers 40 GB and 80 GB per card (160/320 GB)")
# fmt: off
AGGREGATE_CASES = [
    # article                                            total        verdict               per card named
    ("两张H100 SXM5组成的系统，显存带宽合计为4TB/s。",          "4TB/s",     Verdict.CONTRADICTED, "3350 GB/s"),
    ("两块H100 SXM5加起来共有30000个CUDA核心。",              "30000个",   Verdict.CONTRADICTED, "16896"),
    ("两张RTX 4090的显存合计为40GB。",                        "40GB",      Verdict.CONTRADICTED, "24 GB"),
    ("两张H100 SXM5的显存带宽合计为6.7TB/s。",                 "6.7TB/s",   Verdict.SUPPORTED,    None),
    ("两张RTX 4090的显存合计为48GB。",                        "48GB",      Verdict.SUPPORTED,    None),
    ("四张A100 80GB的显存总容量为400GB。",                 "400GB",     Verdict.CONTRADICTED, "80 GB × 4"),
]
# fmt: on


@pytest.mark.parametrize(("text", "total", "verdict", "per_card"), AGGREGATE_CASES)
def test_aggregate_over_cards(text: str, total: str, verdict: Verdict, per_card: str | None) -> None:
    claims = claims_for(text)
    hits = [c for c in claims if c.text == total]
    assert len(hits) == 1, show(claims)
    c = hits[0]
    assert c.multiplier > 1
    assert c.verdict is verdict, c.check
    if per_card is not None:
        assert c.check is not None and per_card in c.check.explanation, c.check.explanation
        assert "每卡" in c.check.explanation
