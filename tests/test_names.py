"""Name-based claims: architectures, chips, memory types, host interfaces, makers and model names
(pipeline/extract/names.py), on sentences written for the tests."""

from __future__ import annotations

import pytest

from pipeline.records import Verdict
from tests.claim_helpers import claims_for, find, rows

U, P = "unverifiable", "product"


@pytest.mark.parametrize(("text", "expected"), [
    ("RTX 4070 Ti拥有7680个CUDA核心。", [("7680个", "cuda_cores", "nvidia_rtx_4070_ti", P, "supported")]),
    ("3060 Ti的显存为8GB。", [("8GB", "memory_size", "model:nvidia:3060ti", P, U)]),  # not in the reference
    ("RTX 4090 D的CUDA核心为14592个。", [("14592个", "cuda_cores", "nvidia_rtx_4090_d", P, "supported")]),
    ("RTX 4070显存12GB。RTX 4070 Super拥有7168个CUDA核心。",
     [("12GB", "memory_size", "nvidia_rtx_4070", P, "supported"),
      ("7168个", "cuda_cores", "nvidia_rtx_4070_super", P, "supported")]),

])
def test_a_suffixed_model_is_its_own_card_not_its_base_card(text: str, expected: list[tuple[str, ...]]) -> None:
    assert rows(claims_for(text)) == expected


def test_tesla_brand_versus_tesla_company() -> None:
    cs = claims_for("特斯拉V100是英伟达推出的计算卡。特斯拉T4由特斯拉公司设计。")
    ok = [c for c in cs if c.attribute == "manufacturer" and c.subject == "nvidia_tesla_v100"]
    assert ok and ok[0].verdict is Verdict.SUPPORTED
    wrong = [c for c in cs if c.attribute == "manufacturer" and c.subject == "nvidia_t4"]
    assert wrong and wrong[0].verdict is Verdict.CONTRADICTED


def test_technology_credited_to_a_rival() -> None:
    cs = claims_for("英特尔的NVLink让多卡互联更快。")
    c = find(cs, "NVLink", "manufacturer")
    assert c.verdict is Verdict.CONTRADICTED
    assert find(claims_for("AMD的ROCm生态正在完善。"), "ROCm", "manufacturer").verdict is Verdict.SUPPORTED


def test_tensor_core_presence() -> None:
    assert find(claims_for("P40支持Tensor Core。"), "Tensor Core").verdict is Verdict.CONTRADICTED
    assert find(claims_for("L4配备第四代Tensor Core。"), "Tensor Core").verdict is Verdict.SUPPORTED


# fmt: off
INTERFACE_CASES = [
    ("L40S使用的是PCIe 4.0 x16接口。",              "PCIe 4.0 x16", Verdict.SUPPORTED),
    ("RTX 5090改用PCIe 5.0 x16。",                  "PCIe 5.0 x16", Verdict.SUPPORTED),
    ("T4采用PCIe 4.0 x16接口。",                    "PCIe 4.0 x16", Verdict.CONTRADICTED),
    # a module (SXM) lists no PCIe host link in the reference: unverifiable, never a flag
    ("H100 SXM5通过PCIe 5.0 x16连接主机。",           "PCIe 5.0 x16", Verdict.UNVERIFIABLE),
]
# fmt: on


@pytest.mark.parametrize(("text", "fragment", "verdict"), INTERFACE_CASES)
def test_host_interface(text: str, fragment: str, verdict: Verdict) -> None:
    c = find(claims_for(text), fragment, "interface")
    assert c.verdict is verdict, c.check


@pytest.mark.parametrize("text", [
    "超微电脑推出的GPU服务器可搭载8块H100。",
    "美超微推出的服务器可搭载8块H100。",
    "英伟达DGX H100采用了英特尔推出的至强处理器。",
    "AMD推出的EPYC处理器可以搭配8块H100使用。",
])
def test_a_vendor_that_made_something_else_is_not_the_cards_maker(text: str) -> None:
    assert not [c for c in claims_for(text) if c.attribute == "manufacturer"]


@pytest.mark.parametrize(("text", "verdict"), [
    ("MI100采用CDNA 2架构。", Verdict.CONTRADICTED),
    ("MI100采用CDNA架构。", Verdict.SUPPORTED),
    ("MI250X采用CDNA 2架构。", Verdict.SUPPORTED),
    ("MI250X采用CDNA架构。", Verdict.SUPPORTED),  # the family name
    ("RTX 4090采用Ada架构。", Verdict.SUPPORTED),
])
def test_architecture_generations(text: str, verdict: Verdict) -> None:
    assert find(claims_for(text), "", "architecture").verdict is verdict


@pytest.mark.parametrize(("text", "value", "verdict"), [
    ("RTX 4060 Ti采用PCIe 4.0 x16接口。", "PCIe 4.0 x16", Verdict.CONTRADICTED),  # eight lanes
    ("RTX 4060 Ti的接口是PCIe 4.0 x8。", "PCIe 4.0 x8", Verdict.SUPPORTED),
    ("RTX 4060 Ti采用PCIe 4.0接口。", "PCIe 4.0", Verdict.SUPPORTED),
    ("T4使用PCIe 3.0 x8接口。", "PCIe 3.0 x8", Verdict.CONTRADICTED),
])
def test_interface_lanes_as_written(text: str, value: str, verdict: Verdict) -> None:
    c = find(claims_for(text), "PCIe", "interface")
    assert (c.value, c.verdict) == (value, verdict)


@pytest.mark.parametrize(("text", "verdict"), [
    ("Infinity Fabric是英伟达的互连技术。", Verdict.CONTRADICTED),
    ("ROCm是英伟达的开源软件平台。", Verdict.CONTRADICTED),
    ("CUDA是英伟达的并行计算平台。", Verdict.SUPPORTED),
    ("H100是AMD的加速卡。", Verdict.CONTRADICTED),
])
def test_x_is_the_vendors_thing(text: str, verdict: Verdict) -> None:
    [c] = [c for c in claims_for(text) if c.attribute == "manufacturer"]
    assert c.verdict is verdict


@pytest.mark.parametrize(("text", "verdict"), [("A100首发版本配备40GB HBM2e显存。", Verdict.CONTRADICTED),
                                               ("A100首发版本配备40GB HBM2显存。", Verdict.SUPPORTED),
                                               ("A100配备80GB HBM2e显存。", Verdict.SUPPORTED)])
def test_size_written_with_the_memory_type_picks_the_variant(text: str, verdict: Verdict) -> None:
    assert find(claims_for(text), "HBM", "memory_type").verdict is verdict
