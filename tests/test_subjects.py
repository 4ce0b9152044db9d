"""Whose figure a claim is (pipeline/extract/subjects.py and the subject parts of numbers.py), on sentences written
for the tests. Every case asserts the complete list of claims of its text (``rows``): text, attribute, owner, scope
and verdict; a case that expects no claim sits next to a control where the same figure is one."""

from __future__ import annotations

import pytest

from tests.claim_helpers import SYS, C, M, P, S, U, claims_for, rows

Rows = list[tuple[object, ...]]


def test_subject_from_topic_and_pronoun() -> None:
    assert rows(claims_for("下面介绍L40S。它配备48GB显存，功耗350W。")) == [
        ("48GB", "memory_size", "nvidia_l40s", P, S), ("350W", "tdp", "nvidia_l40s", P, S)]


@pytest.mark.parametrize(("text", "expected"), [
    # the card named after 是/属于 describes the first one; the next clause is still about the first
    ("A800是面向中国市场的A100变体，NVLink带宽为400GB/s。",
     [("400GB/s", "interconnect_bandwidth", "nvidia_a800", P, S)]),
    ("L40S属于L40的升级版本，功耗350W。", [("350W", "tdp", "nvidia_l40s", P, S)]),
    # without a copula the nearest card named before the clause still wins
    ("先看V100，再看A100，显存带宽为1555GB/s。", [("1555GB/s", "memory_bandwidth", "nvidia_a100", P, S)]),
])
def test_copula_complement_is_not_the_subject(text: str, expected: Rows) -> None:
    assert rows(claims_for(text)) == expected


def test_card_released_in_the_clause_owns_its_year() -> None:
    assert rows(claims_for("英伟达在2020年发布了A100，2022年发布了H100，2021年推出了A30。")) == [
        ("英伟达在2020年发布", "manufacturer", "nvidia_a100", P, S),
        ("2020年", "launch_year", "nvidia_a100", P, S),
        ("2022年", "launch_year", "nvidia_h100", P, S),
        ("2021年", "launch_year", "nvidia_a30", P, S),
    ]


# fmt: off
PRONOUN_CASES = [
    # 它/其 is the card named last before it in its sentence, not the previous sentence's topic
    ("T4功耗70W。如果预算有限，A2是不错的选择，它的Tensor Core数量为40个。",
     [("70W", "tdp", "nvidia_t4", P, S), ("40个", "tensor_cores", "nvidia_a2", P, S)]),
    ("MI250X功耗560W。MI300X采用CDNA 3架构，其显存为192GB。",
     [("560W", "tdp", "amd_mi250x", P, S), ("CDNA 3", "architecture", "amd_mi300x", P, S),
      ("192GB", "memory_size", "amd_mi300x", P, S)]),
    # 后者 in an earlier clause still speaks for the rest of the sentence
    ("P40和P4面向推理，前者采用GP102核心；后者采用GP104核心，只有8GB显存。",
        [("面向推理", "positioning", "nvidia_tesla_p40", P, S), ("面向推理", "positioning", "nvidia_tesla_p4", P, S),
         ("GP102", "gpu_chip", "nvidia_tesla_p40", P, S), ("GP104", "gpu_chip", "nvidia_tesla_p4", P, S),
         ("8GB", "memory_size", "nvidia_tesla_p4", P, S)]),
    ("P40和P4都面向推理，前者采用GP102核心；后者采用GP104核心，只有8GB显存。",
     [("面向推理", "positioning", "nvidia_tesla_p40", P, S), ("面向推理", "positioning", "nvidia_tesla_p4", P, S),
      ("GP102", "gpu_chip", "nvidia_tesla_p40", P, S), ("GP104", "gpu_chip", "nvidia_tesla_p4", P, S),
      ("8GB", "memory_size", "nvidia_tesla_p4", P, S)]),
    # 两张卡 after one doubled card is that card, twice
    ("训练多用A100和H100。推理常见双卡L40S方案，两张卡合计96GB显存。",
     [("96GB", "memory_size", "nvidia_l40s", SYS, S)]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), PRONOUN_CASES)
def test_pronouns_within_the_sentence(text: str, expected: Rows) -> None:
    assert rows(claims_for(text)) == expected


@pytest.mark.parametrize("text", ["双卡A10的总显存为48GB。", "A10双卡的总显存为48GB。", "雙卡A10合計48GB顯存。"])
def test_dual_card_counts_two(text: str) -> None:
    assert rows(claims_for(text), "multiplier") == [("48GB", "memory_size", "nvidia_a10", SYS, S, 2)]


@pytest.mark.parametrize(("text", "expected"), [
    ("昇腾910的功耗为310W。昇腾310的功耗为8W。",
     [("310W", "tdp", "huawei_ascend_910", "product", "supported"),
      ("8W", "tdp", "model:huawei:升腾310", "product", "unverifiable")]),
    ("MI300X显存192GB。MI308X的显存为192GB。",
     [("192GB", "memory_size", "amd_mi300x", "product", "supported"),
      ("192GB", "memory_size", "model:amd:mi308x", "product", "unverifiable")]),
    ("A100显存80GB。B300的显存为288GB。它的功耗为1100W。",
     [("80GB", "memory_size", "nvidia_a100", "product", "supported"),
      ("288GB", "memory_size", "model:nvidia:b300", "product", "unverifiable"),
      ("1100W", "tdp", "model:nvidia:b300", "product", "unverifiable")]),
    ("RX 7900 XT显存20GB。RX 7650 GRE的显存为8GB。",
     [("20GB", "memory_size", "amd_rx_7900_xt", "product", "supported"),
      ("8GB", "memory_size", "model:amd:rx7650gre", "product", "supported")]),
])
def test_a_card_the_reference_does_not_know_owns_its_figures(text: str, expected: list[tuple[str, ...]]) -> None:
    """A card the tables lack is still a product: its figures are its own (checked against the secondary database
    where it has the card, else unverifiable), not the previous card's."""
    assert rows(claims_for(text)) == expected


def test_a_video_codec_is_not_an_unknown_card() -> None:
    assert rows(claims_for("T4支持H264和H265解码，功耗70W。")) == [  # the codecs are a feature, recorded unjudged
        ("支持H264和H265解码", "figure", "nvidia_t4", P, U), ("70W", "tdp", "nvidia_t4", P, S)]


def test_an_unknown_card_that_is_only_compared_does_not_hide_the_subject() -> None:
    assert rows(claims_for("H100相比H20，显存带宽为3.35TB/s。")) == [
        ("3.35TB/s", "memory_bandwidth", "nvidia_h100", P, S)]


def test_former_and_latter() -> None:
    assert rows(claims_for("常被比较的是H100和A100：前者功耗700W，后者功耗400W。")) == [
        ("700W", "tdp", "nvidia_h100", P, S), ("400W", "tdp", "nvidia_a100", P, S)]


def test_comparison_owner_and_upgrade_target() -> None:
    assert rows(claims_for("H200把显存容量从H100的80GB提高到141GB。")) == [
        ("80GB", "memory_size", "nvidia_h100", P, S), ("141GB", "memory_size", "nvidia_h200", P, S)]


def test_aggregate_multiplier_and_wrong_base() -> None:
    cs = claims_for("双H100 SXM5的服务器，显存合计160GB，显存带宽合计为4TB/s。")
    assert rows(cs, "multiplier") == [("160GB", "memory_size", "nvidia_h100", SYS, S, 2),
                                      ("4TB/s", "memory_bandwidth", "nvidia_h100", SYS, C, 2)]
    assert "× 2" in cs[1].check.explanation  # type: ignore[union-attr]


def test_times_notation_and_list_of_totals() -> None:
    cs = claims_for("一台4×L40S工作站：\n- 显存总量：4 × 48GB = 192GB；\n- GPU功耗合计：1400W。")
    assert rows(cs, "multiplier") == [("48GB", "memory_size", "nvidia_l40s", P, S, 1),
                                      ("192GB", "memory_size", "nvidia_l40s", SYS, S, 4),
                                      ("1400W", "tdp", "nvidia_l40s", SYS, S, 4)]


def test_chip_substitution_carries_to_later_mentions() -> None:
    text = ("这款T4推理卡采用了英伟达的H100 GPU。\n"
            "H100 GPU配备80GB显存，带宽3.35TB/s。\n"
            "与H100相比，T4的功耗低得多。")
    assert rows(claims_for(text)) == [
        ("英伟达", "manufacturer", "nvidia_h100", P, S),
        ("H100 GPU", "gpu_chip", "nvidia_t4", P, M),
        ("80GB", "memory_size", "nvidia_t4", P, M),
        ("3.35TB/s", "memory_bandwidth", "nvidia_t4", P, M),
        ("低", "ordering", "nvidia_t4", P, S),  # the real H100 is compared: 70 W against 350-700 W
    ]


# fmt: off
UNKNOWN_CARD_CASES = [
    # a card named by no vendor's grammar owns its figure: nobody else's, so no owner, never a flag
    ("某国产X9000加速卡配备96GB显存。",                  [("96GB", "memory_size", "", P, U)]),
    ("L40S配备48GB显存。某国产X9000加速卡配备96GB显存。", [("48GB", "memory_size", "nvidia_l40s", P, S),
                                                  ("96GB", "memory_size", "", P, U)]),
    ("L40S配备48GB显存。这款加速卡配备96GB显存。",          [("48GB", "memory_size", "nvidia_l40s", P, S),
                                                  ("96GB", "memory_size", "nvidia_l40s", P, C)]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), UNKNOWN_CARD_CASES)
def test_unknown_card_is_unverifiable_not_flagged(text: str, expected: Rows) -> None:
    assert rows(claims_for(text)) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("H100 SXM5与H200的显存容量分别为80GB和141GB。",
     [("80GB", "memory_size", "nvidia_h100", P, S), ("141GB", "memory_size", "nvidia_h200", P, S)]),
    ("RTX 3070、RTX 4080和RTX 4090的显存分别是8GB、16GB和24GB。",
     [("8GB", "memory_size", "nvidia_rtx_3070", P, S), ("16GB", "memory_size", "nvidia_rtx_4080", P, S),
      ("24GB", "memory_size", "nvidia_rtx_4090", P, S)]),
    # the value after 从 belongs to the card the sentence compares with
    ("H200相比H100，显存从80GB提升到141GB。",
     [("80GB", "memory_size", "nvidia_h100", P, S), ("141GB", "memory_size", "nvidia_h200", P, S)]),
    ("与A100相比，H100的功耗从400W增加到700W。",
     [("400W", "tdp", "nvidia_a100", P, S), ("700W", "tdp", "nvidia_h100", P, S)]),
    # no comparison: both ends are the card's own
    ("A100的显存从40GB升级到80GB。",
     [("40GB", "memory_size", "nvidia_a100", P, S), ("80GB", "memory_size", "nvidia_a100", P, S)]),
])
def test_values_for_several_cards(text: str, expected: Rows) -> None:
    assert rows(claims_for(text)) == expected


def test_respectively_in_the_wrong_order_is_flagged() -> None:
    assert rows(claims_for("RTX 3070和RTX 4080的显存分别是16GB和8GB。")) == [
        ("16GB", "memory_size", "nvidia_rtx_3070", P, C), ("8GB", "memory_size", "nvidia_rtx_4080", P, C)]


# fmt: off
ARCHITECTURE_OPENING_CASES = [
    # an architecture that opens a sentence is its subject: not a claim about the card of the sentence before
    ("Tesla K80拥有4992个CUDA核心。2016年，Pascal架构登场。", [("4992个", "cuda_cores", "nvidia_tesla_k80", P, S),
                                                     ("2016年", "figure", "", P, U)]),
    ("V100，Volta架构，5120个CUDA核心。",                 [("Volta", "architecture", "nvidia_tesla_v100", P, S),
                                                   ("5120个", "cuda_cores", "nvidia_tesla_v100", P, S)]),
    ("下面介绍A100。Ampere架构带来了TF32。",                []),
    ("下面介绍A100。它采用Ampere架构。",                   [("Ampere", "architecture", "nvidia_a100", P, S)]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), ARCHITECTURE_OPENING_CASES)
def test_an_architecture_that_opens_a_sentence_without_a_card_is_its_subject(text: str, expected: Rows) -> None:
    assert rows(claims_for(text)) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("RX 6700 XT和RX 6900 XT都配备16GB显存。",
     [("16GB", "memory_size", "amd_rx_6700_xt", P, C), ("16GB", "memory_size", "amd_rx_6900_xt", P, S)]),
    ("L40与L40S都采用AD102核心。",
     [("AD102", "gpu_chip", "nvidia_l40", P, S), ("AD102", "gpu_chip", "nvidia_l40s", P, S)]),
    ("A100和H100，显存80GB。", [("80GB", "memory_size", "nvidia_h100", P, S)]),  # without 都 only the nearest card
])
def test_a_value_said_of_a_list_of_cards(text: str, expected: Rows) -> None:
    assert rows(claims_for(text)) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("RX 6000系列显卡均配备8GB显存。", [("8GB", "memory_size", "amd_rx_6000", P, C)]),  # only some members have 8GB
    ("RX 6000系列显卡配备8GB显存。", [("8GB", "memory_size", "amd_rx_6000", P, S)]),  # some member has
    ("RTX 30系列全部使用GDDR6X显存。", [("GDDR6X", "memory_type", "nvidia_rtx_30", P, C)]),
    ("所有RX 7000系列显卡都采用RDNA 3架构。", [("RDNA 3", "architecture", "amd_rx_7000", P, S)]),
])
def test_every_member_of_a_series(text: str, expected: Rows) -> None:
    assert rows(claims_for(text)) == expected


def test_an_upgrade_between_two_cards_goes_from_the_older_to_the_newer() -> None:
    cs = claims_for("H200与H100 SXM5使用同一颗GH100芯片，容量从80GB提升到141GB，带宽从3.35TB/s提升到4.8TB/s。")
    # "H200与H100 SXM5使用同一颗GH100芯片" is said of both cards
    assert rows(cs) == [("GH100", "gpu_chip", "nvidia_h200", P, S), ("GH100", "gpu_chip", "nvidia_h100", P, S),
                        ("80GB", "memory_size", "nvidia_h100", P, S),
                        ("141GB", "memory_size", "nvidia_h200", P, S),
                        ("3.35TB/s", "memory_bandwidth", "nvidia_h100", P, S),
                        ("4.8TB/s", "memory_bandwidth", "nvidia_h200", P, S)]


@pytest.mark.parametrize(("text", "expected"), [
    ("A100和H100分别基于Ampere和Hopper架构。",
     [("Ampere", "architecture", "nvidia_a100", P, S), ("Hopper", "architecture", "nvidia_h100", P, S)]),
    ("A100和H100分别基于Hopper和Ampere架构。",
     [("Hopper", "architecture", "nvidia_a100", P, C), ("Ampere", "architecture", "nvidia_h100", P, C)]),
])
def test_respectively_for_named_values(text: str, expected: Rows) -> None:
    assert rows(claims_for(text)) == expected


# fmt: off
CLASS_OR_TREND_CASES = [
    # each trend or class of cards (no claim) next to its control: the same figures said of a named card
    ("H100 PCIe的TDP为350W。FP64性能从不到3 TFLOPS增长到34 TFLOPS。", [("350W", "tdp", "nvidia_h100", P, S)]),
    ("H100 PCIe的TDP为350W。它的FP64性能为26 TFLOPS。",              [("350W", "tdp", "nvidia_h100", P, S),
                                                            ("26 TFLOPS", "fp64", "nvidia_h100", P, S)]),
    ("K80和H100相隔十年。十年间，旗舰卡的显存带宽从480GB/s增长到3.35TB/s。", []),
    ("K80的显存带宽为480GB/s，H100则为3.35TB/s。",
     [("480GB/s", "memory_bandwidth", "nvidia_tesla_k80", P, S),
      ("3.35TB/s", "memory_bandwidth", "nvidia_h100", P, S)]),
    ("L4很受欢迎。入门推理卡的功耗一般在70-75W之间。",                  []),
    ("L4很受欢迎。它的功耗一般在70-75W之间。",                        [("70-75W之间", "tdp", "nvidia_l4", P, S)]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), CLASS_OR_TREND_CASES)
def test_a_class_of_cards_or_a_trend_is_not_the_previous_card(text: str, expected: Rows) -> None:
    assert rows(claims_for(text)) == expected


def test_each_vendor_goes_to_the_card_it_made() -> None:
    assert rows(claims_for("英伟达推出的H100与AMD推出的MI300X正面竞争。"), "value") == [
        ("英伟达推出", "manufacturer", "nvidia_h100", P, S, "nvidia"),
        ("AMD推出", "manufacturer", "amd_mi300x", P, S, "amd")]


@pytest.mark.parametrize(("text", "expected"), [
    # two cards discussed in turn make the pair 前者/后者 point at
    ("RTX 3070配备8GB显存。RTX 4080配备16GB显存。前者只有8GB显存，后者则有16GB。",
     [("8GB", "memory_size", "nvidia_rtx_3070", P, S), ("16GB", "memory_size", "nvidia_rtx_4080", P, S),
      ("8GB", "memory_size", "nvidia_rtx_3070", P, S), ("16GB", "memory_size", "nvidia_rtx_4080", P, S)]),
    # after a third card it is no longer clear which two: no owner rather than a guess
    ("RTX 3070配备8GB显存。RTX 4070配备12GB显存。RTX 4080配备16GB显存。前者只有8GB显存，后者则有16GB。",
     [("8GB", "memory_size", "nvidia_rtx_3070", P, S), ("12GB", "memory_size", "nvidia_rtx_4070", P, S),
      ("16GB", "memory_size", "nvidia_rtx_4080", P, S), ("8GB", "memory_size", "", P, U),
      ("16GB", "memory_size", "", P, U)]),
])
def test_former_and_latter_across_sentences(text: str, expected: Rows) -> None:
    assert rows(claims_for(text)) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("RTX 40系列的旗舰是RTX 4090。显存为16GB。", [("16GB", "memory_size", "nvidia_rtx_4090", P, C)]),
    ("RTX 40系列的旗舰是RTX 4090。它的显存为24GB。", [("24GB", "memory_size", "nvidia_rtx_4090", P, S)]),
])
def test_the_card_named_as_a_series_flagship_is_the_topic(text: str, expected: Rows) -> None:
    assert rows(claims_for(text)) == expected

