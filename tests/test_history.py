"""History and generation claims (pipeline/extract/history.py, pipeline/check/history.py), on sentences written for
the tests: each case asserts the sentence's complete claim list with the claim's value and the expected value from
the architectures and links tables. True and false cases in equal measure."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.extract.history import _introduction_drafts, _introductions
from pipeline.extract.subjects import DocState, Subject
from pipeline.knowledge.reference import Reference, split_list
from pipeline.lexicon import load_lexicon
from pipeline.records import Reason, Verdict
from pipeline.segment import Segmenter
from tests.claim_helpers import claims_for, rows

FIELDS = ("value", "expected")
A100_TC = ("tensor_cores", "nvidia_a100", "product", "supported", 1, "432")

# fmt: off
GENERATION = [
    ("A100采用第三代Tensor Core。",
     [("第三代Tensor Core", "generation", "nvidia_a100", "product", "supported", 3, "第3代"),
      ("第三代Tensor Core", *A100_TC)]),
    ("A100采用第四代Tensor Core。",
     [("第四代Tensor Core", "generation", "nvidia_a100", "product", "contradicted", 4, "第3代"),
      ("第四代Tensor Core", *A100_TC)]),
    ("Blackwell架构带来了第二代Transformer Engine。",
     [("第二代Transformer Engine", "generation", "blackwell", "family", "supported", 2, "第2代")]),
    ("Blackwell架构带来了第三代Transformer Engine。",
     [("第三代Transformer Engine", "generation", "blackwell", "family", "contradicted", 3, "第2代")]),
    ("T4配备第三代Tensor Core。",
     [("配备第三代Tensor Core", "tensor_cores", "nvidia_t4", "product", "supported", 1, "320"),
      ("第三代Tensor Core", "generation", "nvidia_t4", "product", "contradicted", 3, "第2代")]),
    ("RTX 4090配备第四代RT Core。",
     [("第四代RT Core", "generation", "nvidia_rtx_4090", "product", "contradicted", 4, "第3代")]),
    # a link's name is its generation
    ("H100支持NVLink 4.0。",
     [("NVLink 4.0", "generation", "nvidia_h100", "product", "supported", 4, "第4代")]),
    ("H100支持NVLink 3.0。",
     [("NVLink 3.0", "generation", "nvidia_h100", "product", "contradicted", 3, "第4代")]),
    # the section's heading names the architecture the list is about
    ("# Hopper架构\n\n- 采用第四代Tensor Core\n- NVSwitch 2：交换芯片",
     [("第四代Tensor Core", "generation", "hopper", "family", "supported", 4, "第4代"),
      ("NVSwitch 2", "generation", "hopper", "family", "contradicted", 2, "第3代")]),
    ("# Ampere架构\n\n- 采用第三代Tensor Core\n- NVSwitch 2：交换芯片",
     [("第三代Tensor Core", "generation", "ampere", "family", "supported", 3, "第3代"),
      ("NVSwitch 2", "generation", "ampere", "family", "supported", 2, "第2代")]),
    # the count's generation in brackets
    ("RTX 4090有512个Tensor Core (第四代)。",
     [("512个", "tensor_cores", "nvidia_rtx_4090", "product", "supported", 512, "512"),
      ("Tensor Core (第四代)", "generation", "nvidia_rtx_4090", "product", "supported", 4, "第4代")]),
    ("RTX 4090有512个Tensor Core (第三代)。",
     [("512个", "tensor_cores", "nvidia_rtx_4090", "product", "supported", 512, "512"),
      ("Tensor Core (第三代)", "generation", "nvidia_rtx_4090", "product", "contradicted", 3, "第4代")]),
    # negation; the source of a change is not the owner's
    ("A100用的不是第四代Tensor Core。",
     [("第四代Tensor Core", "generation", "nvidia_a100", "product", "supported", 4, "第3代"),
      ("第四代Tensor Core", *A100_TC)]),
    ("H100从第三代NVLink升级到第三代NVSwitch。",
     [("第三代NVSwitch", "generation", "nvidia_h100", "product", "supported", 3, "第3代")]),
    ("H100从第三代NVLink升级到第五代NVLink。",
     [("第五代NVLink", "generation", "nvidia_h100", "product", "contradicted", 5, "第4代")]),
    ("V100用的不是第一代Tensor Core。",
     [("第一代Tensor Core", "generation", "nvidia_tesla_v100", "product", "contradicted", 1, "第1代"),
      ("第一代Tensor Core", "tensor_cores", "nvidia_tesla_v100", "product", "supported", 1, "640")]),
]

INTRODUCED = [
    ("Tensor Core最早出现在Volta架构上。",
     [("Tensor Core最早出现在Volta", "introduced_by", "volta", "family", "supported", "Tensor Core", "Volta")]),
    ("Tensor Core最早出现在Turing架构上。",
     [("Tensor Core最早出现在Turing", "introduced_by", "turing", "family", "contradicted", "Tensor Core", "Volta")]),
    ("Ampere架构首次引入了TF32。",
     [("首次引入了TF32", "introduced_by", "ampere", "family", "supported", "TF32", "Ampere、CDNA 3")]),
    # a later architecture of the same vendor cannot have introduced it
    ("Hopper架构首次引入了TF32。",
     [("首次引入了TF32", "introduced_by", "hopper", "family", "contradicted", "TF32", "Ampere、CDNA 3")]),
    ("Tensor Core是从Volta架构开始推出的。",
     [("Tensor Core是从Volta", "introduced_by", "volta", "family", "supported", "Tensor Core", "Volta")]),
    # an earlier architecture cannot have either
    ("Volta架构首次引入了TF32。",
     [("首次引入了TF32", "introduced_by", "volta", "family", "contradicted", "TF32", "Ampere、CDNA 3")]),
    # negation
    # the place before the owner, the verb after it
    ("RT Core最早在Turing架构中引入。",
     [("RT Core最早在Turing", "introduced_by", "turing", "family", "supported", "RT Core", "Turing")]),
    ("RT Core首次在Ampere架构上亮相。",
     [("RT Core首次在Ampere", "introduced_by", "ampere", "family", "contradicted", "RT Core", "Turing")]),
    ("TF32不是最早在Hopper架构中出现的。",
     [("TF32不是最早在Hopper", "introduced_by", "hopper", "family", "supported", "TF32", "Ampere、CDNA 3")]),
    ("Transformer Engine最早是在Ampere架构中推出的。",
     [("Transformer Engine最早是在Ampere", "introduced_by", "ampere", "family", "contradicted", "Transformer Engine",
       "Hopper")]),
    ("Tensor Core最早在V100发布时就有了。", []),
    ("Tensor Core不是最早出现在Turing架构上的。",
     [("Tensor Core不是最早出现在Turing", "introduced_by", "turing", "family", "supported", "Tensor Core",
       "Volta")]),
    ("RT Core并不是最早出现在Turing架构上的。",
     [("RT Core并不是最早出现在Turing", "introduced_by", "turing", "family", "contradicted", "RT Core", "Turing")]),
]

FIRST = [
    ("H100是首款支持FP8的GPU。",
     [("首款支持FP8的GPU", "first", "nvidia_h100", "product", "supported", "FP8", "Hopper"),
      ("FP8", "precision", "nvidia_h100", "product", "supported", "FP8", "FP8")]),
    # the same architecture, but launched a year after the first card with it
    ("H200是首款支持FP8的GPU。",
     [("首款支持FP8的GPU", "first", "nvidia_h200", "product", "contradicted", "FP8", "Hopper"),
      ("FP8", "precision", "nvidia_h200", "product", "supported", "FP8", "FP8")]),
    ("首款支持MIG的GPU是A100。",
     [("首款支持MIG的GPU是A100", "first", "nvidia_a100", "product", "supported", "MIG", "Ampere")]),
    ("首款支持MIG的GPU是H100。",
     [("首款支持MIG的GPU是H100", "first", "nvidia_h100", "product", "contradicted", "MIG", "Ampere")]),
    # a vendor's own first
    ("MI300X是AMD首款支持FP8的GPU。",
     [("首款支持FP8的GPU", "first", "amd_mi300x", "product", "supported", "FP8", "CDNA 3"),
      ("FP8", "precision", "amd_mi300x", "product", "supported", "FP8", "FP8")]),
    ("A100是首款支持PCIe 4.0的GPU。",
     [("首款支持PCIe 4.0的GPU", "first", "nvidia_a100", "product", "contradicted", "PCIe 4.0", "GCN 5.1"),
      ("PCIe 4.0", "interface", "nvidia_a100", "product", "supported", "PCIe 4.0", "PCIe 4.0 x16")]),
    # negation
    ("H100不是首款支持MIG的GPU。",
     [("首款支持MIG的GPU", "first", "nvidia_h100", "product", "supported", "MIG", "Ampere")]),
    ("A100不是首款支持MIG的GPU。",
     [("首款支持MIG的GPU", "first", "nvidia_a100", "product", "contradicted", "MIG", "Ampere")]),
]
NAMING = [
    ("Ampere架构以法国物理学家安培的名字命名。",
     [("物理学家", "named_after", "ampere", "family", "supported", "physicist",
       "Ampere：André-Marie Ampère（物理学家、数学家）")]),
    ("Hopper架构的名字来自一位物理学家。",
     [("物理学家", "named_after", "hopper", "family", "contradicted", "physicist",
       "Hopper：Grace Hopper（计算机科学家）")]),
    # a vendor's architectures as a class: every one of them, or most with 大多
    ("NVIDIA的GPU架构大多以科学家的名字命名。",
     [("科学家", "named_after", "nvidia", "family", "supported", "scientist",
       "Fermi：Enrico Fermi（物理学家）；Kepler：Johannes Kepler（天文学家）；"
       "Maxwell：James Clerk Maxwell（物理学家）；Pascal：Blaise Pascal（物理学家、数学家）")]),
    ("NVIDIA的GPU架构都以天文学家的名字命名。",
     [("天文学家", "named_after", "nvidia", "family", "contradicted", "astronomer",
       "Fermi：Enrico Fermi（物理学家）；Maxwell：James Clerk Maxwell（物理学家）；"
       "Pascal：Blaise Pascal（物理学家、数学家）；Volta：Alessandro Volta（物理学家）")]),
    # negation
    ("Hopper架构不是以物理学家命名的。",
     [("物理学家", "named_after", "hopper", "family", "supported", "physicist",
       "Hopper：Grace Hopper（计算机科学家）")]),
    ("Volta架构不是以物理学家命名的。",
     [("物理学家", "named_after", "volta", "family", "contradicted", "physicist",
       "Volta：Alessandro Volta（物理学家）")]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), NAMING)
def test_named_after(text: str, expected: list[tuple[object, ...]]) -> None:
    assert rows(claims_for(text), *FIELDS) == expected


def test_a_product_line_named_after_someone_is_no_architecture_claim() -> None:
    assert not [c for c in claims_for("GeForce是NVIDIA游戏显卡的品牌，名字取自一位物理学家。")
                if c.attribute == "named_after"]


@pytest.mark.parametrize(("text", "expected"), GENERATION)
def test_generation(text: str, expected: list[tuple[object, ...]]) -> None:
    doc = "t.md" if text.startswith("#") else "t.txt"
    from pipeline.api import check_text

    claims = [c for c in check_text(text, doc_id=doc) if c.attribute != "code"]
    assert rows(claims, *FIELDS) == expected


@pytest.mark.parametrize(("text", "expected"), INTRODUCED)
def test_introduced_by(text: str, expected: list[tuple[object, ...]]) -> None:
    assert rows(claims_for(text), *FIELDS) == expected


@pytest.mark.parametrize(("text", "expected"), FIRST)
def test_first(text: str, expected: list[tuple[object, ...]]) -> None:
    assert rows(claims_for(text), *FIELDS) == expected


def test_the_tables_are_balanced() -> None:
    for table, attribute in ((GENERATION, "generation"), (INTRODUCED, "introduced_by"), (FIRST, "first"),
                             (NAMING, "named_after")):
        verdicts = [row[4] for _text, claims in table for row in claims if row[1] == attribute]
        assert verdicts.count("supported") * 2 == len(verdicts), verdicts


# fmt: off
UNVERIFIABLE = [
    # Ada launched the year Hopper introduced FP8: whether Ada brought it to its own line, the table cannot say
    ("Ada Lovelace架构首次引入了FP8。", "introduced_by", Reason.NO_REFERENCE_VALUE),
    # AMD cards have no Tensor Core generation in the tables
    ("MI300X采用第四代Tensor Core。", "generation", Reason.NO_REFERENCE_VALUE),
    # a card the reference does not know
    ("RTX 3050 Ti采用第三代Tensor Core。", "generation", Reason.NOT_IN_REFERENCE),
]
# fmt: on


@pytest.mark.parametrize(("text", "attribute", "reason"), UNVERIFIABLE)
def test_what_the_tables_do_not_record_is_unverifiable(text: str, attribute: str, reason: Reason) -> None:
    c = next(c for c in claims_for(text) if c.attribute == attribute)
    assert (c.verdict, c.check.reason if c.check else None) == (Verdict.UNVERIFIABLE, reason)


@pytest.mark.parametrize("text", [
    "Blackwell引入了新一代Transformer Engine。",  # a newer version is not the feature's introduction
    "前代的第三代Tensor Core已经很强。",  # the previous generation's
    "与A100相比，H200用上的第四代NVLink更快。",  # NVLink 4 is H100's; but not A100's (no claim for it)
])
def test_not_the_owners_own(text: str) -> None:
    claims = claims_for(text)
    assert not [c for c in claims if c.attribute == "introduced_by"]
    assert all(c.subject != "nvidia_a100" for c in claims if c.attribute == "generation")
    assert not [c for c in claims if c.attribute == "generation" and "第三代" in c.text]


def test_every_feature_word_names_a_feature_the_tables_list(ref: Reference) -> None:
    """Every feature word's value is an architecture's 'introduced' entry or a feature of features.csv (what the
    history and support checks look it up by)."""
    listed = {f.lower() for a in ref.items["architecture"].values() for f in split_list(a.fields["introduced"])}
    for e in load_lexicon().rows("feature_name"):
        assert e.value.lower() in listed or ref.relations.feature(e.value) is not None, \
            f"{e.where}: {e.value!r} is no architecture's 'introduced' entry and no feature of features.csv"


# ---- the gate in front of introductions and firsts reads as the plain reading

INTRO_PARTS = ["H100", "A100", "Hopper架构", "Volta", "RTX 4090", "它", "NVIDIA", "是", "首款", "支持",
               "首次", "引入了", "率先采用", "从", "开始", "最早出现在", "上", "的GPU", "不是", "Tensor Core",
               "FP8", "MIG", "HBM3", "Transformer Engine", "NVLink", "结构化稀疏", "显存", "，", "。", " "]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(st.sampled_from(INTRO_PARTS), max_size=12))
def test_introductions_gate_changes_nothing(parts: list[str], segmenter: Segmenter, ref: Reference) -> None:
    """With or without the gates (a product or architecture named, a feature word), the same drafts, even when the
    section and the topic could name an owner."""
    text = "".join(parts)
    mentions = list(segmenter.matcher.find(text))
    for state in (DocState(), DocState(topic=Subject("nvidia_h100", "H100"), topic_clear=True,
                                       families=[(1, "hopper")])):
        assert _introduction_drafts(text, mentions, state, ref) == _introductions(text, mentions, state, ref)
