"""Feature support claims (pipeline/extract/support.py, pipeline/check/support.py) on sentences written for the
tests: each case asserts the sentence's complete claim list (text, attribute, owner, scope, verdict, value, reason)
and the expected value from the relation tables. True and false cases in equal measure; negation (不支持, 没有,
缺乏, 取消了, 未配备, 仅支持) and hedges (可能, 据传) included."""

from __future__ import annotations

import pytest

from tests.claim_helpers import FAM, C, P, S, U, claims_for, rows

FIELDS = ("value", "reason")

# fmt: off
SUPPORTS = [
    # a product's own row (product_features.csv)
    ("RTX 3090支持NVLink。", [("支持NVLink", "supports", "nvidia_rtx_3090", P, S, "NVLink", "")]),
    ("RTX 4090支持NVLink。", [("支持NVLink", "supports", "nvidia_rtx_4090", P, C, "NVLink", "")]),
    ("A30支持MIG。", [("支持MIG", "supports", "nvidia_a30", P, S, "MIG", "")]),
    ("L40S支持MIG。", [("支持MIG", "supports", "nvidia_l40s", P, C, "MIG", "")]),
    # the architecture's row when the card has none of its own
    ("H100支持Transformer Engine。", [("支持Transformer Engine", "supports", "nvidia_h100", P, S,
                                      "Transformer Engine", "")]),
    ("A100支持Transformer Engine。", [("支持Transformer Engine", "supports", "nvidia_a100", P, C,
                                      "Transformer Engine", "")]),
    ("特斯拉P4采用NVIDIA的Tensor Core架构。", [("采用NVIDIA的Tensor Core", "supports", "nvidia_tesla_p4", P, C,
                                            "Tensor Core", ""),
                                           ("NVIDIA的Tensor Core", "manufacturer", "tensor_core", P, S, "nvidia", "")]),
    ("V100配备页迁移引擎。", [("配备页迁移引擎", "supports", "nvidia_tesla_v100", P, S, "Page Migration Engine", "")]),
    # an architecture as the owner
    ("Hopper架构支持FP8。", [("支持FP8", "supports", "hopper", FAM, S, "FP8", "")]),
    ("Ampere架构支持FP8。", [("支持FP8", "supports", "ampere", FAM, C, "FP8", "")]),
    ("RDNA 3架构采用chiplet设计。", [("采用chiplet设计", "supports", "rdna_3", FAM, S, "chiplet GPU (GCD + MCD)", "")]),
    ("Hopper架构采用了MCM设计。", [("采用了MCM", "supports", "hopper", FAM, C, "multi-die GPU", "")]),
]

NEGATED = [
    ("RTX 4090没有NVLink。", [("没有NVLink", "supports", "nvidia_rtx_4090", P, S, "NVLink", "")]),
    ("A100不支持MIG。", [("不支持MIG", "supports", "nvidia_a100", P, C, "MIG", "")]),
    ("A10不支持MIG。", [("不支持MIG", "supports", "nvidia_a10", P, S, "MIG", "")]),
    ("H20缺乏FP8支持。", [("缺乏FP8", "supports", "nvidia_h20", P, C, "FP8", "")]),
    ("H20未配备专用的Transformer引擎。", [("未配备专用的Transformer引擎", "supports", "nvidia_h20", P, C,
                                       "Transformer Engine", "")]),
    ("T4不支持FP8。", [("不支持FP8", "supports", "nvidia_t4", P, S, "FP8", "")]),
    ("Ada架构不支持NVLink。", [("不支持NVLink", "supports", "ada_lovelace", FAM, S, "NVLink", "")]),
    ("Ampere架构不支持NVLink。", [("不支持NVLink", "supports", "ampere", FAM, C, "NVLink", "")]),
    # removed: it lacks it, and what came before had it
    ("RTX 4090取消了SLI。", [("取消了SLI", "supports", "nvidia_rtx_4090", P, S, "SLI", "")]),
    ("RTX 3090取消了SLI。", [("取消了SLI", "supports", "nvidia_rtx_3090", P, C, "SLI", "")]),
    # only PCIe: no multi-GPU link of the card's own vendor
    ("RTX 4080仅支持PCIe。", [("仅支持PCIe", "supports", "nvidia_rtx_4080", P, S, "NVLink", "")]),
    ("RTX 3090只支持PCIe。", [("只支持PCIe", "supports", "nvidia_rtx_3090", P, C, "NVLink", "")]),
]

LISTS = [
    # a feature said of a list of cards is said of each of them
    ("RTX 3090和RTX 4090都支持NVLink。",
     [("支持NVLink", "supports", "nvidia_rtx_3090", P, S, "NVLink", ""),
      ("支持NVLink", "supports", "nvidia_rtx_4090", P, C, "NVLink", "")]),
    ("RTX 4080/RTX 3090仅支持PCIe。",
     [("仅支持PCIe", "supports", "nvidia_rtx_4080", P, S, "NVLink", ""),
      ("仅支持PCIe", "supports", "nvidia_rtx_3090", P, C, "NVLink", "")]),
]

HEDGED = [
    # a hedge or a rumour: recorded, never flagged
    ("RTX 4090可能支持NVLink。", [("支持NVLink", "supports", "nvidia_rtx_4090", P, U, "NVLink", "speculative")]),
    ("据传RTX 4080支持NVLink。", [("支持NVLink", "supports", "nvidia_rtx_4080", P, U, "NVLink", "speculative")]),
    ("A100也许不支持MIG。", [("不支持MIG", "supports", "nvidia_a100", P, U, "MIG", "speculative")]),
    # what the tables do not know
    ("RTX 4090无ECC。", [("无ECC", "supports", "nvidia_rtx_4090", P, U, "ECC", "no_fact")]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), SUPPORTS + NEGATED + LISTS + HEDGED)
def test_support_claims(text: str, expected: list[tuple[object, ...]]) -> None:
    assert rows(claims_for(text), *FIELDS) == expected


def test_the_tables_are_balanced() -> None:
    verdicts = [row[4] for _t, claims in SUPPORTS + NEGATED + LISTS for row in claims if row[1] == "supports"]
    assert verdicts.count(S) == verdicts.count(C), verdicts


@pytest.mark.parametrize(("text", "expected", "source"), [
    ("RTX 4090支持NVLink。", "不支持NVLink", "https://www.nvidia.com/en-us/geforce/graphics-cards/40-series/rtx-4090/"),
    ("A100支持Transformer Engine。", "不支持Transformer Engine", "https://github.com/NVIDIA/TransformerEngine"),
    ("Ampere架构支持FP8。", "不支持FP8",
     "https://images.nvidia.com/aem-dam/en-zz/Solutions/data-center/nvidia-ampere-architecture-whitepaper.pdf"),
])
def test_a_flag_names_the_fact_and_its_source(text: str, expected: str, source: str) -> None:
    claim = claims_for(text)[0]
    assert claim.check is not None and claim.check.expected == expected and claim.check.source == source
    assert "不正确" in claim.check.explanation


def test_removed_names_what_had_it_before() -> None:
    claim = claims_for("RTX 4090取消了SLI。")[0]
    assert claim.check is not None and "RTX 3090" in claim.check.explanation


@pytest.mark.parametrize(("text", "verdict", "reason"), [
    ("N卡的流处理器频率一般是核心频率的两倍。", U, "time_dependent"),
    ("---\ndate: 2017-01-14\n---\n\nN卡的流处理器频率一般是核心频率的两倍。", C, ""),
    ("---\ndate: 2009-05-01\n---\n\nN卡的流处理器频率一般是核心频率的两倍。", S, ""),
])
def test_a_vendors_cards_as_a_class_are_judged_at_the_articles_date(text: str, verdict: str, reason: str) -> None:
    found = [c for c in claims_for(text, doc_id="t.md") if c.attribute == "supports"]
    assert [(c.subject, c.value, c.verdict.value if c.verdict else "", c.check.reason.value if c.check and
             c.check.reason else "") for c in found] == [("nvidia", "shader hot clock", verdict, reason)]
