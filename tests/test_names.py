"""Name-based claims: architectures, chips, memory types, host interfaces, makers and model names
(pipeline/extract/names.py), on sentences written for the tests. Every case asserts the complete list of claims of
its sentence (``rows``)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.extract import names
from pipeline.extract.subjects import DocState, Subject
from pipeline.knowledge.reference import Reference
from pipeline.segment import Segmenter
from tests.claim_helpers import C, P, S, U, claims_for, rows


@pytest.mark.parametrize(("text", "expected"), [
    ("RTX 4070 Ti拥有7680个CUDA核心。", [("7680个", "cuda_cores", "nvidia_rtx_4070_ti", P, S)]),
    ("RTX 3050 Ti的显存为4GB。", [("4GB", "memory_size", "model:nvidia:3050ti", P, U)]),  # not in the reference
    ("RTX 4090 D的CUDA核心为14592个。", [("14592个", "cuda_cores", "nvidia_rtx_4090_d", P, S)]),
    ("RTX 4070显存12GB。RTX 4070 Super拥有7168个CUDA核心。",
     [("12GB", "memory_size", "nvidia_rtx_4070", P, S),
      ("7168个", "cuda_cores", "nvidia_rtx_4070_super", P, S)]),

])
def test_a_suffixed_model_is_its_own_card_not_its_base_card(text: str, expected: list[tuple[str, ...]]) -> None:
    assert rows(claims_for(text)) == expected


def test_tesla_brand_versus_tesla_company() -> None:
    assert rows(claims_for("特斯拉V100是英伟达推出的计算卡。特斯拉T4由特斯拉公司研发。"), "value") == [
        ("英伟达推出", "manufacturer", "nvidia_tesla_v100", P, S, "nvidia"),
        ("特斯拉公司研发", "manufacturer", "nvidia_t4", P, C, "tesla_inc"),
    ]


@pytest.mark.parametrize(("text", "expected"), [
    ("英特尔的NVLink让多卡互联更快。", [("英特尔的NVLink", "manufacturer", "nvlink", P, C, "intel")]),
    ("AMD的ROCm生态正在完善。", [("AMD的ROCm", "manufacturer", "rocm", P, S, "amd")]),
])
def test_technology_credited_to_a_rival(text: str, expected: list[tuple[str, ...]]) -> None:
    assert rows(claims_for(text), "value") == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("P40支持Tensor Core。", [("支持Tensor Core", "tensor_cores", "nvidia_tesla_p40", P, C)]),  # Pascal has none
    ("L4配备第四代Tensor Core。", [("配备第四代Tensor Core", "tensor_cores", "nvidia_l4", P, S),
                                 ("第四代Tensor Core", "generation", "nvidia_l4", P, S)]),
])
def test_tensor_core_presence(text: str, expected: list[tuple[str, ...]]) -> None:
    assert rows(claims_for(text)) == expected


# fmt: off
INTERFACE_CASES = [
    ("L40S使用的是PCIe 4.0 x16接口。",     [("PCIe 4.0 x16", "interface", "nvidia_l40s", P, S)]),
    ("RTX 5090改用PCIe 5.0 x16。",         [("PCIe 5.0 x16", "interface", "nvidia_rtx_5090", P, S)]),
    ("T4采用PCIe 4.0 x16接口。",           [("PCIe 4.0 x16", "interface", "nvidia_t4", P, C)]),
    # a module (SXM) lists no PCIe host link in the reference: unverifiable, never a flag
    ("H100 SXM5通过PCIe 5.0 x16连接主机。",  [("PCIe 5.0 x16", "interface", "nvidia_h100", P, U)]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), INTERFACE_CASES)
def test_host_interface(text: str, expected: list[tuple[str, ...]]) -> None:
    assert rows(claims_for(text)) == expected


# fmt: off
MAKER_CASES = [
    # each sentence where the vendor made something else (no claim) is followed by its control: the same vendor
    # words said of the card are a manufacturer claim
    ("超微电脑推出的GPU服务器可搭载8块H100。",        [("8块", "figure", "", P, U)]),
    ("超微电脑推出了H100。",                      [("超微电脑推出", "manufacturer", "nvidia_h100", P, C)]),
    ("美超微推出的服务器可搭载8块H100。",            [("8块", "figure", "", P, U)]),
    ("美超微推出的H100加速卡。",                   [("美超微推出", "manufacturer", "nvidia_h100", P, C)]),
    ("英伟达DGX H100采用了英特尔推出的至强处理器。",    []),
    ("H100由英特尔推出，采用了至强处理器。",          [("英特尔推出", "manufacturer", "nvidia_h100", P, C)]),
    ("AMD推出的EPYC处理器可以搭配8块H100使用。",      [("8块", "figure", "", P, U)]),
    ("AMD推出的H100加速卡，可以8块一起使用。",        [("AMD推出", "manufacturer", "nvidia_h100", P, C),
                                                  ("8块", "figure", "nvidia_h100", P, U)]),
    ("AMD推出的H100可以搭配EPYC处理器使用。",      [("AMD推出", "manufacturer", "nvidia_h100", P, C)]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), MAKER_CASES)
def test_a_vendor_that_made_something_else_is_not_the_cards_maker(text: str, expected: list[tuple[str, ...]]) -> None:
    assert rows(claims_for(text)) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("MI100采用CDNA 2架构。", [("CDNA 2", "architecture", "amd_mi100", P, C)]),
    ("MI100采用CDNA架构。", [("CDNA", "architecture", "amd_mi100", P, S)]),
    ("MI250X采用CDNA 2架构。", [("CDNA 2", "architecture", "amd_mi250x", P, S)]),
    ("MI250X采用CDNA架构。", [("CDNA", "architecture", "amd_mi250x", P, S)]),  # the family name
    ("RTX 4090采用Ada架构。", [("Ada", "architecture", "nvidia_rtx_4090", P, S)]),
])
def test_architecture_generations(text: str, expected: list[tuple[str, ...]]) -> None:
    assert rows(claims_for(text)) == expected


@pytest.mark.parametrize(("text", "expected"), [
    # the value as written: eight lanes, sixteen lanes, or the generation alone
    ("RTX 4060 Ti采用PCIe 4.0 x16接口。", [("PCIe 4.0 x16", "interface", "nvidia_rtx_4060_ti", P, C, "PCIe 4.0 x16")]),
    ("RTX 4060 Ti的接口是PCIe 4.0 x8。", [("PCIe 4.0 x8", "interface", "nvidia_rtx_4060_ti", P, S, "PCIe 4.0 x8")]),
    ("RTX 4060 Ti采用PCIe 4.0接口。", [("PCIe 4.0", "interface", "nvidia_rtx_4060_ti", P, S, "PCIe 4.0")]),
    ("T4使用PCIe 3.0 x8接口。", [("PCIe 3.0 x8", "interface", "nvidia_t4", P, C, "PCIe 3.0 x8")]),
])
def test_interface_lanes_as_written(text: str, expected: list[tuple[str, ...]]) -> None:
    assert rows(claims_for(text), "value") == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("Infinity Fabric是英伟达的互连技术。",
     [("Infinity Fabric是英伟达", "manufacturer", "infinity_fabric", P, C, "nvidia")]),
    ("ROCm是英伟达的开源软件平台。", [("ROCm是英伟达", "manufacturer", "rocm", P, C, "nvidia")]),
    ("CUDA是英伟达的并行计算平台。", [("CUDA是英伟达", "manufacturer", "cuda", P, S, "nvidia")]),
    ("H100是AMD的加速卡。", [("H100是AMD", "manufacturer", "nvidia_h100", P, C, "amd")]),
])
def test_x_is_the_vendors_thing(text: str, expected: list[tuple[str, ...]]) -> None:
    assert rows(claims_for(text), "value") == expected


@pytest.mark.parametrize(("text", "expected"), [
    # the 40GB card had HBM2, the 80GB card HBM2e
    ("A100首发版本配备40GB HBM2e显存。", [("40GB", "memory_size", "nvidia_a100", P, S),
                                   ("HBM2e", "memory_type", "nvidia_a100", P, C)]),
    ("A100首发版本配备40GB HBM2显存。", [("40GB", "memory_size", "nvidia_a100", P, S),
                                  ("HBM2", "memory_type", "nvidia_a100", P, S)]),
    ("A100配备80GB HBM2e显存。", [("80GB", "memory_size", "nvidia_a100", P, S),
                              ("HBM2e", "memory_type", "nvidia_a100", P, S)]),
])
def test_size_written_with_the_memory_type_picks_the_variant(text: str, expected: list[tuple[str, ...]]) -> None:
    assert rows(claims_for(text)) == expected


# fmt: off
IDENTITY_CASES = [
    # a card glossed in brackets by another card's name: one product, says the text
    ("首款产品：GB200（Grace Hopper Superchip）",
     [("Grace Hopper Superchip", "identity", "nvidia_gb200", P, "misattributed")]),
    # one architecture: maybe a derived card, not judged
    ("A800（A100）面向中国市场。",                [("A100", "identity", "nvidia_a800", P, U)]),
    ("首款产品：GH200（Grace Hopper Superchip）", []),  # its own name
    ("H100（80GB）的带宽为3.35TB/s。",             [("3.35TB/s", "memory_bandwidth", "nvidia_h100", P, "supported")]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), IDENTITY_CASES)
def test_a_card_glossed_by_another_cards_name(text: str, expected: list[tuple[str, ...]]) -> None:
    assert rows(claims_for(text)) == expected


# ---- the kind gate of _mention_drafts reads as the plain loop over every mention

NAME_PARTS = ["H100", "A100", "RTX 4090", "Hopper", "Ampere架构", "GH100", "AD102", "核心", "HBM3", "GDDR6X",
              "显存", "NVLink", "采用", "基于", "搭载", "配备", "从", "升级到", "不是", "前代", "（", "）", "和", "、",
              "的", "，", "。", " "]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(st.sampled_from(NAME_PARTS), max_size=12))
def test_the_kind_gate_changes_no_name_draft(parts: list[str], segmenter: Segmenter, ref: Reference,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    text = "".join(parts)
    mentions = list(segmenter.matcher.find(text))
    state = DocState(topic=Subject("nvidia_h100", "H100"), topic_clear=True)
    gated = names._mention_drafts(text, mentions, state, ref)
    with monkeypatch.context() as patched:  # every kind let through: the loop as written without the gate
        patched.setattr(names, "_NAMED_KINDS", frozenset(m.kind for m in mentions) | names._NAMED_KINDS)
        assert gated == names._mention_drafts(text, mentions, state, ref)
