"""Whose figure a claim is (pipeline/extract/subjects.py and the subject parts of numbers.py), on sentences written
for the tests."""

from __future__ import annotations

import pytest

from pipeline.records import Verdict
from tests.claim_helpers import claims_for, find, flags, rows


def test_subject_from_topic_and_pronoun() -> None:
    cs = claims_for("下面介绍L40S。它配备48GB显存，功耗350W。")
    assert find(cs, "48GB").subject == "nvidia_l40s"
    assert find(cs, "350W").verdict is Verdict.SUPPORTED


@pytest.mark.parametrize(("text", "fragment", "subject"), [
    # the card named after 是/属于 describes the first one; the next clause is still about the first
    ("A800是面向中国市场的A100变体，NVLink带宽为400GB/s。", "400GB/s", "nvidia_a800"),
    ("L40S属于L40的升级版本，功耗350W。", "350W", "nvidia_l40s"),
    # without a copula the nearest card named before the clause still wins
    ("先看V100，再看A100，显存带宽为1555GB/s。", "1555GB/s", "nvidia_a100"),
])
def test_copula_complement_is_not_the_subject(text: str, fragment: str, subject: str) -> None:
    cs = claims_for(text)
    assert find(cs, fragment).subject == subject
    assert not flags(cs)


def test_card_released_in_the_clause_owns_its_year() -> None:
    cs = claims_for("英伟达在2020年发布了A100，2022年发布了H100，2021年推出了A30。")
    assert [(c.text, c.subject, c.verdict) for c in cs if c.attribute == "launch_year"] == [
        ("2020年", "nvidia_a100", Verdict.SUPPORTED),
        ("2022年", "nvidia_h100", Verdict.SUPPORTED),
        ("2021年", "nvidia_a30", Verdict.SUPPORTED),
    ]


@pytest.mark.parametrize(("text", "fragment", "subject"), [
    # 它/其 is the card named last before it in its sentence, not the previous sentence's topic
    ("T4功耗70W。如果预算有限，A2是不错的选择，它的Tensor Core数量为40个。", "40", "nvidia_a2"),
    ("MI250X功耗560W。MI300X采用CDNA 3架构，其显存为192GB。", "192GB", "amd_mi300x"),
    # 后者 in an earlier clause still speaks for the rest of the sentence
    ("P40和P4面向推理，前者采用GP102核心；后者采用GP104核心，只有8GB显存。", "8GB", "nvidia_tesla_p4"),
    # 两张卡 after one doubled card is that card, twice
    ("训练多用A100和H100。推理常见双卡L40S方案，两张卡合计96GB显存。", "96GB", "nvidia_l40s"),
])
def test_pronouns_within_the_sentence(text: str, fragment: str, subject: str) -> None:
    cs = claims_for(text)
    assert find(cs, fragment).subject == subject
    assert not flags(cs)


@pytest.mark.parametrize("text", ["双卡A10的总显存为48GB。", "A10双卡的总显存为48GB。", "雙卡A10合計48GB顯存。"])
def test_dual_card_counts_two(text: str) -> None:
    c = find(claims_for(text), "48GB")
    assert (c.multiplier, c.verdict) == (2, Verdict.SUPPORTED)


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
      ("8GB", "memory_size", "model:amd:rx7650gre", "product", "unverifiable")]),
])
def test_a_card_the_reference_does_not_know_owns_its_figures(text: str, expected: list[tuple[str, ...]]) -> None:
    """A card the tables lack is still a product: its figures are its own (unverifiable), not the previous card's."""
    assert rows(claims_for(text)) == expected


def test_a_video_codec_is_not_an_unknown_card() -> None:
    assert find(claims_for("T4支持H264和H265解码，功耗70W。"), "70W").verdict is Verdict.SUPPORTED


def test_an_unknown_card_that_is_only_compared_does_not_hide_the_subject() -> None:
    c = find(claims_for("H100相比H20，显存带宽为3.35TB/s。"), "3.35TB/s")
    assert (c.subject, c.verdict) == ("nvidia_h100", Verdict.SUPPORTED)


def test_former_and_latter() -> None:
    cs = claims_for("常被比较的是H100和A100：前者功耗700W，后者功耗400W。")
    assert find(cs, "700W").subject == "nvidia_h100"
    assert find(cs, "400W").subject == "nvidia_a100"
    assert not flags(cs)


def test_comparison_owner_and_upgrade_target() -> None:
    cs = claims_for("H200把显存容量从H100的80GB提高到141GB。")
    assert find(cs, "80GB").subject == "nvidia_h100"
    assert find(cs, "141GB").subject == "nvidia_h200"
    assert not flags(cs)


def test_aggregate_multiplier_and_wrong_base() -> None:
    cs = claims_for("双H100 SXM5的服务器，显存合计160GB，显存带宽合计为4TB/s。")
    total = find(cs, "160GB")
    assert total.multiplier == 2 and total.verdict is Verdict.SUPPORTED
    wrong = find(cs, "4TB/s")
    assert wrong.multiplier == 2 and wrong.verdict is Verdict.CONTRADICTED
    assert "× 2" in wrong.check.explanation  # type: ignore[union-attr]


def test_times_notation_and_list_of_totals() -> None:
    cs = claims_for("一台4×L40S工作站：\n- 显存总量：4 × 48GB = 192GB；\n- GPU功耗合计：1400W。")
    assert find(cs, "192GB").multiplier == 4
    assert find(cs, "1400W").multiplier == 4
    assert not flags(cs)


def test_chip_substitution_carries_to_later_mentions() -> None:
    text = ("这款T4推理卡采用了英伟达的H100 GPU。\n"
            "H100 GPU配备80GB显存，带宽3.35TB/s。\n"
            "与H100相比，T4的功耗低得多。")
    cs = claims_for(text)
    chip = find(cs, "H100 GPU", "gpu_chip")
    assert chip.subject == "nvidia_t4" and chip.verdict is Verdict.MISATTRIBUTED
    size = find(cs, "80GB")
    assert size.subject == "nvidia_t4" and size.verdict is Verdict.MISATTRIBUTED
    assert find(cs, "3.35TB/s").subject == "nvidia_t4"


def test_unknown_card_is_unverifiable_not_flagged() -> None:
    cs = claims_for("某国产X9000加速卡配备96GB显存。")
    assert not flags(cs)


@pytest.mark.parametrize(("text", "owners"), [
    ("H100 SXM5与H200的显存容量分别为80GB和141GB。", {"80GB": "nvidia_h100", "141GB": "nvidia_h200"}),
    ("RTX 3070、RTX 4080和RTX 4090的显存分别是8GB、16GB和24GB。",
     {"8GB": "nvidia_rtx_3070", "16GB": "nvidia_rtx_4080", "24GB": "nvidia_rtx_4090"}),
    # the value after 从 belongs to the card the sentence compares with
    ("H200相比H100，显存从80GB提升到141GB。", {"80GB": "nvidia_h100", "141GB": "nvidia_h200"}),
    ("与A100相比，H100的功耗从400W增加到700W。", {"400W": "nvidia_a100", "700W": "nvidia_h100"}),
    # no comparison: both ends are the card's own
    ("A100的显存从40GB升级到80GB。", {"40GB": "nvidia_a100", "80GB": "nvidia_a100"}),
])
def test_values_for_several_cards(text: str, owners: dict[str, str]) -> None:
    cs = claims_for(text)
    assert {f: find(cs, f).subject for f in owners} == owners
    assert not flags(cs)


def test_respectively_in_the_wrong_order_is_flagged() -> None:
    cs = claims_for("RTX 3070和RTX 4080的显存分别是16GB和8GB。")
    assert [(c.subject, c.verdict) for c in cs] == [("nvidia_rtx_3070", Verdict.CONTRADICTED),
                                                    ("nvidia_rtx_4080", Verdict.CONTRADICTED)]


@pytest.mark.parametrize(("text", "claimed"), [
    ("Tesla K80拥有4992个CUDA核心。2016年，Pascal架构登场。", False),
    ("下面介绍A100。Ampere架构带来了TF32。", False),
    ("V100，Volta架构，5120个CUDA核心。", True),
    ("下面介绍A100。它采用Ampere架构。", True),
])
def test_an_architecture_that_opens_a_sentence_without_a_card_is_its_subject(text: str, claimed: bool) -> None:
    cs = claims_for(text)
    assert bool([c for c in cs if c.attribute == "architecture"]) is claimed
    assert not flags(cs)


@pytest.mark.parametrize(("text", "verdicts"), [
    ("RX 6700 XT和RX 6900 XT都配备16GB显存。",
     {"amd_rx_6700_xt": Verdict.CONTRADICTED, "amd_rx_6900_xt": Verdict.SUPPORTED}),
    ("L40与L40S都采用AD102核心。", {"nvidia_l40": Verdict.SUPPORTED, "nvidia_l40s": Verdict.SUPPORTED}),
    ("A100和H100，显存80GB。", {"nvidia_h100": Verdict.SUPPORTED}),  # without 都 only the nearest card
])
def test_a_value_said_of_a_list_of_cards(text: str, verdicts: dict[str, Verdict]) -> None:
    assert {c.subject: c.verdict for c in claims_for(text)} == verdicts


@pytest.mark.parametrize(("text", "verdict"), [
    ("RX 6000系列显卡均配备8GB显存。", Verdict.CONTRADICTED),  # only some members have 8GB
    ("RX 6000系列显卡配备8GB显存。", Verdict.SUPPORTED),  # some member has
    ("RTX 30系列全部使用GDDR6X显存。", Verdict.CONTRADICTED),
    ("所有RX 7000系列显卡都采用RDNA 3架构。", Verdict.SUPPORTED),
])
def test_every_member_of_a_series(text: str, verdict: Verdict) -> None:
    [c] = claims_for(text)
    assert c.verdict is verdict


def test_an_upgrade_between_two_cards_goes_from_the_older_to_the_newer() -> None:
    cs = claims_for("H200与H100 SXM5使用同一颗GH100芯片，容量从80GB提升到141GB，带宽从3.35TB/s提升到4.8TB/s。")
    got = {c.text: c.subject for c in cs if c.attribute in ("memory_size", "memory_bandwidth")}
    assert got == {"80GB": "nvidia_h100", "141GB": "nvidia_h200", "3.35TB/s": "nvidia_h100",
                   "4.8TB/s": "nvidia_h200"}
    assert not flags(cs)


@pytest.mark.parametrize(("text", "verdicts"), [
    ("A100和H100分别基于Ampere和Hopper架构。", [Verdict.SUPPORTED, Verdict.SUPPORTED]),
    ("A100和H100分别基于Hopper和Ampere架构。", [Verdict.CONTRADICTED, Verdict.CONTRADICTED]),
])
def test_respectively_for_named_values(text: str, verdicts: list[Verdict]) -> None:
    cs = [c for c in claims_for(text) if c.attribute == "architecture"]
    assert [c.subject for c in cs] == ["nvidia_a100", "nvidia_h100"]
    assert [c.verdict for c in cs] == verdicts


@pytest.mark.parametrize("text", [
    "H100 PCIe的TDP为350W。FP64性能从不到3 TFLOPS增长到34 TFLOPS。",
    "K80和H100相隔十年。十年间，旗舰卡的显存带宽从480GB/s增长到3.35TB/s。",
    "L4很受欢迎。入门推理卡的功耗一般在70-75W之间。",
])
def test_a_class_of_cards_or_a_trend_is_not_the_previous_card(text: str) -> None:
    assert not flags(claims_for(text))


def test_each_vendor_goes_to_the_card_it_made() -> None:
    cs = [c for c in claims_for("英伟达推出的H100与AMD推出的MI300X正面竞争。") if c.attribute == "manufacturer"]
    assert {(c.subject, c.value, c.verdict) for c in cs} == {("nvidia_h100", "nvidia", Verdict.SUPPORTED),
                                                            ("amd_mi300x", "amd", Verdict.SUPPORTED)}


@pytest.mark.parametrize(("text", "owners"), [
    # two cards discussed in turn make the pair 前者/后者 point at
    ("RTX 3070配备8GB显存。RTX 4080配备16GB显存。前者只有8GB显存，后者则有16GB。",
     [("nvidia_rtx_3070", Verdict.SUPPORTED), ("nvidia_rtx_4080", Verdict.SUPPORTED)]),
    # after a third card it is no longer clear which two: no claim rather than a guess
    ("RTX 3070配备8GB显存。RTX 4070配备12GB显存。RTX 4080配备16GB显存。前者只有8GB显存，后者则有16GB。", []),
])
def test_former_and_latter_across_sentences(text: str, owners: list[tuple[str, Verdict]]) -> None:
    assert [(c.subject, c.verdict) for c in claims_for(text) if "前者" in c.sentence] == owners


@pytest.mark.parametrize(("text", "verdict"), [("RTX 40系列的旗舰是RTX 4090。显存为16GB。", Verdict.CONTRADICTED),
                                               ("RTX 40系列的旗舰是RTX 4090。它的显存为24GB。", Verdict.SUPPORTED)])
def test_the_card_named_as_a_series_flagship_is_the_topic(text: str, verdict: Verdict) -> None:
    c = find(claims_for(text), "GB")
    assert (c.subject, c.verdict) == ("nvidia_rtx_4090", verdict)
