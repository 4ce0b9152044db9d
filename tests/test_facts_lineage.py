"""Predecessors and successors, die positions and composition (pipeline/extract/lineage.py,
pipeline/check/lineage.py) on sentences written for the tests: each case asserts the sentence's complete claim list
(text, attribute, owner, scope, verdict, value, reason). True and false cases in equal measure per kind; negation
(不是, 并未, 并非) included."""

from __future__ import annotations

import pytest

from tests.claim_helpers import CHIP, FAM, SYS, C, P, S, U, claims_for, rows

FIELDS = ("value", "reason")

# fmt: off
LINEAGE = [
    ("H100的继任者是B200。", [("H100的继任者是B200", "successor", "nvidia_h100", P, S, "nvidia_b200", "")]),
    ("H100的继任者是H800。", [("H100的继任者是H800", "successor", "nvidia_h100", P, C, "nvidia_h800", "")]),
    ("B200取代了H100。", [("B200取代了H100", "successor", "nvidia_h100", P, S, "nvidia_b200", "")]),
    ("A100取代了H100。", [("A100取代了H100", "successor", "nvidia_h100", P, C, "nvidia_a100", "")]),
    ("T4的前代产品是Tesla P4。", [("T4的前代产品是Tesla P4", "predecessor", "nvidia_t4", P, S, "nvidia_tesla_p4", "")]),
    ("T4的前代产品是Tesla P100。", [("T4的前代产品是Tesla P100", "predecessor", "nvidia_t4", P, C,
                                   "nvidia_tesla_p100", "")]),
    # "compared with the previous generation Y": Y is the sentence's card's predecessor
    ("相较于上一代M40，P40的显存翻倍。",
     [("上一代M40", "predecessor", "nvidia_tesla_p40", P, S, "nvidia_tesla_m40", ""),
      ("翻倍", "figure", "", P, U, "翻倍", "unknown_attribute")]),
    ("相较于上一代P100，P40的显存更大。", [("上一代P100", "predecessor", "nvidia_tesla_p40", P, C,
                                      "nvidia_tesla_p100", "")]),
    ("Hopper的继任者是Blackwell。", [("Hopper的继任者是Blackwell", "successor", "hopper", FAM, S, "blackwell", "")]),
    ("Ada的继任者是Hopper。", [("Ada的继任者是Hopper", "successor", "ada_lovelace", FAM, C, "hopper", "")]),
    # negation
    ("T4的继任者不是A100。", [("T4的继任者不是A100", "successor", "nvidia_t4", P, S, "nvidia_a100", "")]),
    ("T4的继任者不是L4。", [("T4的继任者不是L4", "successor", "nvidia_t4", P, C, "nvidia_l4", "")]),
]

POSITIONS = [
    ("AD102是Ada架构的旗舰芯片。", [("AD102是Ada架构的旗舰芯片", "die_position", "ad102", CHIP, S, "flagship", "")]),
    ("AD104是Ada架构的旗舰芯片。", [("AD104是Ada架构的旗舰芯片", "die_position", "ad104", CHIP, C, "flagship", "")]),
    ("RTX 4070 Ti采用完整的AD104核心。", [("RTX 4070 Ti采用完整的AD104", "die_position", "nvidia_rtx_4070_ti", P, S,
                                     "full_die", "")]),
    ("RTX 4090采用完整的AD102核心。", [("RTX 4090采用完整的AD102", "die_position", "nvidia_rtx_4090", P, C,
                                  "full_die", "")]),
    ("RTX 4080是AD103的阉割版。",
     [("RTX 4080是AD103的阉割版", "die_position", "nvidia_rtx_4080", P, S, "cut_down", "")]),
    ("RTX 4080 SUPER是AD103的阉割版。", [("RTX 4080 SUPER是AD103的阉割版", "die_position", "nvidia_rtx_4080_super", P,
                                      C, "cut_down", "")]),
    ("RTX 4090并未采用完整的AD102。", [("RTX 4090并未采用完整的AD102", "die_position", "nvidia_rtx_4090", P, S,
                                   "full_die", "")]),
    ("RTX 4080 SUPER并未采用完整的AD103。", [("RTX 4080 SUPER并未采用完整的AD103", "die_position",
                                         "nvidia_rtx_4080_super", P, C, "full_die", "")]),
]

COMPOSITION = [
    ("B200由两颗芯片组成。", [("两颗芯片组成", "composed_of", "nvidia_b200", P, S, 2, "")]),
    ("H100由两颗芯片组成。", [("两颗芯片组成", "composed_of", "nvidia_h100", P, C, 2, "")]),
    ("H100采用单芯片设计。", [("单芯片设计", "composed_of", "nvidia_h100", P, S, 1, "")]),
    ("B200采用单芯片设计。", [("单芯片设计", "composed_of", "nvidia_b200", P, C, 1, "")]),
    ("H100并非单芯片设计。", [("单芯片设计", "composed_of", "nvidia_h100", P, C, 1, "")]),
    ("B200并非单芯片设计。", [("单芯片设计", "composed_of", "nvidia_b200", P, S, 1, "")]),
    ("GB200 NVL72由36个超级芯片组成。", [("36个超级芯片组成", "composed_of", "gb200_nvl72", SYS, S, 36, "")]),
    ("GB200 NVL72由72个超级芯片组成。", [("72个超级芯片组成", "composed_of", "gb200_nvl72", SYS, C, 72, "")]),
    # an architecture's GPUs are one die unless its multi-die row says otherwise; 该架构 points back
    ("Volta架构很成功。该架构采用了4颗芯片的模块化设计。",
     [("4颗芯片的模块化设计", "composed_of", "volta", FAM, C, 4, "")]),
    ("Volta架构很成功。该架构采用了单芯片设计。", [("单芯片设计", "composed_of", "volta", FAM, S, 1, "")]),
]

# the counts the open vocabulary (figures.csv) reads, checked against composition.csv
COUNTS = [
    ("MI300X集成了8个XCD。", [("8个", "xcd_count", "amd_mi300x", P, S, 8, "")]),
    ("MI300X集成了6个XCD。", [("6个", "xcd_count", "amd_mi300x", P, C, 6, "")]),
    ("MI250X由2个GCD组成。", [("2个", "gcd_count", "amd_mi250x", P, S, 2, "")]),
    ("MI300X整合了8个GCD。", [("8个", "gcd_count", "amd_mi300x", P, C, 8, "")]),
    # a superchip's GPU dies are its GPUs' dies (GB200: two B200 of two); "GPU芯片" may mean the GPUs: not counted
    ("GB200内含4个GPU die。", [("4个", "die_count", "nvidia_gb200", P, S, 4, "")]),
    ("GB200内含2个GPU die。", [("2个", "die_count", "nvidia_gb200", P, C, 2, "")]),
    ("DGX H100内置4个NVSwitch芯片。", [("4个", "nvswitch_count", "nvidia_h100", SYS, S, 4, "")]),
    ("DGX A100内置4个NVSwitch芯片。", [("4个", "nvswitch_count", "nvidia_a100", SYS, C, 4, "")]),
    ("B200封装了8个HBM3e堆栈。", [("8个", "hbm_stacks", "nvidia_b200", P, S, 8, ""),
                              ("HBM3e", "memory_type", "nvidia_b200", P, S, "HBM3e", "")]),
    ("H200封装了8个HBM3e堆栈。", [("8个", "hbm_stacks", "nvidia_h200", P, C, 8, ""),
                              ("HBM3e", "memory_type", "nvidia_h200", P, S, "HBM3e", "")]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), LINEAGE + POSITIONS + COMPOSITION + COUNTS)
def test_claims(text: str, expected: list[tuple[object, ...]]) -> None:
    assert rows(claims_for(text), *FIELDS) == expected


@pytest.mark.parametrize("table", [LINEAGE, POSITIONS, COMPOSITION, COUNTS], ids=["lineage", "positions",
                                                                                 "composition", "counts"])
def test_the_tables_are_balanced(table: list[tuple[str, list[tuple[object, ...]]]]) -> None:
    verdicts = [row[4] for _t, claims in table for row in claims if row[1] != "memory_type"]
    assert verdicts.count(S) == verdicts.count(C), verdicts


def test_what_the_tables_do_not_know_is_no_fact() -> None:
    """L4 has no successor in lineage.csv yet: whether it is not T4's, nothing says."""
    assert rows(claims_for("L4的继任者不是T4。"), *FIELDS) == [
        ("L4的继任者不是T4", "successor", "nvidia_l4", P, U, "nvidia_t4", "no_fact")]


@pytest.mark.parametrize(("text", "words"), [
    ("MI300X整合了8个GCD。", ["8个XCD", "GCD是MI200"]),
    ("H100由两颗芯片组成。", ["1个GH100"]),
    ("GB200内含2个GPU die。", ["2个NVIDIA B200", "共4个GPU die"]),
    ("H100的继任者是H800。", ["NVIDIA H200", "NVIDIA B200"]),
])
def test_the_explanation_names_what_the_tables_say(text: str, words: list[str]) -> None:
    claim = claims_for(text)[0]
    assert claim.check is not None and all(w in claim.check.explanation for w in words), claim.check.explanation
