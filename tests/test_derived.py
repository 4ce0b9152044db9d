"""Computed claims (pipeline/extract/derived.py, pipeline/check/derived.py), on sentences written for the tests: each
case asserts the sentence's complete claim list with the claim's value and the expected value with its arithmetic.
True and false cases in equal measure."""

from __future__ import annotations

import pytest

from pipeline.extract.derived import bytes_per_param, model_params
from pipeline.records import Reason, Verdict
from tests.claim_helpers import claims_for, find, rows

FIELDS = ("value", "expected")
R4090, R4080 = "nvidia_rtx_4090", "nvidia_rtx_4080"
W70 = "70B参数 × 2字节 = 140 GB（仅权重）"
W7 = "7B参数 × 2字节 = 14 GB（仅权重）"

# fmt: off
DATA_RATE = [
    ("RTX 4090采用384-bit位宽、21Gbps的GDDR6X显存。",
     [("384-bit", "memory_bus_width", R4090, "product", "supported", 384, "384 bit"),
      ("21Gbps", "derived_bandwidth", R4090, "product", "supported", 1008.0, "384 bit ÷ 8 × 21 Gbps = 1008 GB/s"),
      ("GDDR6X", "memory_type", R4090, "product", "supported", "GDDR6X", "GDDR6X")]),
    # 19.5 Gbps is RTX 3090's rate: 384 ÷ 8 × 19.5 = 936, not RTX 4090's 1008 GB/s
    ("RTX 4090采用384-bit位宽、19.5Gbps的GDDR6X显存。",
     [("384-bit", "memory_bus_width", R4090, "product", "supported", 384, "384 bit"),
      ("19.5Gbps", "derived_bandwidth", R4090, "product", "contradicted", 936.0,
       "384 bit ÷ 8 × 21 Gbps = 1008 GB/s"),
      ("GDDR6X", "memory_type", R4090, "product", "supported", "GDDR6X", "GDDR6X")]),
    ("RTX 4080的显存为256-bit位宽，数据速率22.4Gbps。",
     [("256-bit", "memory_bus_width", R4080, "product", "supported", 256, "256 bit"),
      ("22.4Gbps", "derived_bandwidth", R4080, "product", "supported", 716.8,
       "256 bit ÷ 8 × 22.4 Gbps = 716.8 GB/s")]),
    ("RTX 4080的显存为256-bit位宽，数据速率21Gbps，带宽672GB/s。",
     [("256-bit", "memory_bus_width", R4080, "product", "supported", 256, "256 bit"),
      ("21Gbps", "derived_bandwidth", R4080, "product", "contradicted", 672.0,
       "256 bit ÷ 8 × 22.4 Gbps = 716.8 GB/s"),
      ("672GB/s", "memory_bandwidth", R4080, "product", "contradicted", 672, "716.8 GB/s")]),
]

LINKS = [
    ("H100 SXM5有18条NVLink链路。",
     [("18条NVLink链路", "nvlink_links", "nvidia_h100", "product", "supported", 18, "18条")]),
    ("A100有18条NVLink链路。",
     [("18条NVLink链路", "nvlink_links", "nvidia_a100", "product", "contradicted", 18, "12条")]),
]

NEED = [
    ("70B模型按FP16保存需要140GB显存。",
     [("140GB", "memory_need", "", "product", "supported", 140.0, W70)]),
    ("70B模型按FP16保存只需要70GB显存。",
     [("70GB", "memory_need", "", "product", "contradicted", 70.0, W70)]),
    # GiB: 140 GB is 130 GiB
    ("70B模型FP16权重需要130GB显存。",
     [("130GB", "memory_need", "", "product", "supported", 130.0, W70)]),
    # even with KV cache named, less than the weights alone is wrong
    ("7B模型FP16推理加上KV Cache大约需要10GB显存。",
     [("10GB", "memory_need", "", "product", "contradicted", 10.0, W7)]),
    ("70B模型4bit量化约需35GB显存。",
     [("35GB", "memory_need", "", "product", "supported", 35.0, "70B参数 × 0.5字节 = 35 GB（仅权重）")]),
    ("700亿参数的模型用INT8量化后需要35GB显存。",
     [("35GB", "memory_need", "", "product", "contradicted", 35.0, "70B参数 × 1字节 = 70 GB（仅权重）")]),
]

FITS = [
    ("70B模型FP16权重约140GB，一张24GB的卡放不下。",
     [("放不下", "fits_on_card", "", "product", "supported", "no_fit", "需140 GB，显存24 GB")]),
    ("7B模型FP16权重约需14GB，一张RTX 4090放不下。",
     [("14GB", "memory_need", "", "product", "supported", 14.0, W7),
      ("放不下", "fits_on_card", R4090, "product", "contradicted", "no_fit", "需14 GB，显存24 GB")]),
    ("7B模型FP16约需14GB，RTX 4090放得下。",
     [("14GB", "memory_need", "", "product", "supported", 14.0, W7),
      ("放得下", "fits_on_card", R4090, "product", "supported", "fits", "需14 GB，显存24 GB")]),
    ("70B模型FP16约需140GB，一张H100放得下。",
     [("140GB", "memory_need", "", "product", "supported", 140.0, W70),
      ("放得下", "fits_on_card", "nvidia_h100", "product", "contradicted", "fits", "需140 GB，显存80 GB/94 GB")]),
    ("70B模型FP16约需140GB，两张A100 80GB放得下。",
     [("140GB", "memory_need", "", "product", "supported", 140.0, W70),
      ("80GB", "memory_size", "nvidia_a100", "product", "supported", 80, "80 GB"),
      ("放得下", "fits_on_card", "nvidia_a100", "system", "supported", "fits", "需140 GB，显存160 GB（2张合计）")]),
    ("70B模型FP16约需140GB，两张RTX 4090放得下。",
     [("140GB", "memory_need", "", "product", "supported", 140.0, W70),
      ("放得下", "fits_on_card", R4090, "system", "contradicted", "fits", "需140 GB，显存48 GB（2张合计）")]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), DATA_RATE)
def test_data_rate_and_bus_width(text: str, expected: list[tuple[object, ...]]) -> None:
    assert rows(claims_for(text), *FIELDS) == expected


@pytest.mark.parametrize(("text", "expected"), LINKS)
def test_nvlink_links(text: str, expected: list[tuple[object, ...]]) -> None:
    assert rows(claims_for(text), *FIELDS) == expected


@pytest.mark.parametrize(("text", "expected"), NEED)
def test_memory_need(text: str, expected: list[tuple[object, ...]]) -> None:
    assert rows(claims_for(text), *FIELDS) == expected


@pytest.mark.parametrize(("text", "expected"), FITS)
def test_fits_on_card(text: str, expected: list[tuple[object, ...]]) -> None:
    assert rows(claims_for(text), *FIELDS) == expected


def test_the_tables_are_balanced() -> None:
    for table, attribute in ((DATA_RATE, "derived_bandwidth"), (LINKS, "nvlink_links"), (NEED, "memory_need"),
                             (FITS, "fits_on_card")):
        verdicts = [row[4] for _text, claims in table for row in claims if row[1] == attribute]
        assert verdicts.count("supported") * 2 == len(verdicts), (attribute, verdicts)


# fmt: off
UNVERIFIABLE = [
    # no number format: parameters alone do not give bytes
    ("13B模型大约需要26GB显存。", "memory_need", Reason.UNDERSPECIFIED),
    # more than the weights: the rest may be overhead the text does not name
    ("7B模型FP16需要20GB显存。", "memory_need", Reason.UNDERSPECIFIED),
    # weights fit, but only just: with KV cache it depends on the context
    ("13B模型FP16约需26GB，一张RTX 5090放不下。", "fits_on_card", Reason.UNDERSPECIFIED),
    ("RTX 3050 Ti采用128-bit位宽、12Gbps的GDDR6显存。", "derived_bandwidth", Reason.NOT_IN_REFERENCE),
]
# fmt: on


@pytest.mark.parametrize(("text", "attribute", "reason"), UNVERIFIABLE)
def test_what_the_text_leaves_open_is_unverifiable(text: str, attribute: str, reason: Reason) -> None:
    c = next(c for c in claims_for(text) if c.attribute == attribute)
    assert (c.verdict, c.check.reason if c.check else None) == (Verdict.UNVERIFIABLE, reason)


def test_the_explanation_names_its_assumptions() -> None:
    c = find(claims_for("70B模型按FP16保存只需要70GB显存。"), "70GB", "memory_need")
    assert c.check is not None and c.check.explanation == (
        "仅权重就需要70B参数 × 2字节（FP16）= 140 GB（130.385 GiB），文中“70GB”偏少。")
    ok = find(claims_for("70B模型按FP16保存需要140GB显存。"), "140GB", "memory_need")
    assert ok.check is not None and "仅权重，未计KV Cache等开销" in ok.check.explanation


@pytest.mark.parametrize(("text", "params"), [
    ("Llama 70B的权重", 70e9), ("一个7b模型", 7e9), ("1.8T参数的大模型", 1.8e12), ("700亿参数的模型", 70e9),
    ("七十亿参数的模型", 7e9), ("8B显存", None), ("RTX 4090的24GB", None),
])
def test_model_sizes(text: str, params: float | None) -> None:
    found = model_params(text)
    assert (found[1] if found else None) == params


@pytest.mark.parametrize(("text", "per"), [
    ("按FP16保存", 2.0), ("BF16权重", 2.0), ("INT8量化", 1.0), ("4bit量化", 0.5), ("FP32训练", 4.0),
    ("FP16和INT8都试过", None), ("没有说精度", None),
])
def test_bytes_per_parameter(text: str, per: float | None) -> None:
    found = bytes_per_param(text)
    assert (found[0] if found else None) == per
