"""Figures said of an architecture: its sentence opens with it (and a pronoun or nothing names another owner), or its
section's heading names it alone. A family's figure is checked against its dies and cards: one of them having it
supports it; above all of them is wrong; below the largest, a part the tables lack may have it. A family's memory
type is the types its cards use, curated and in the secondary database. Texts written for the tests."""

from __future__ import annotations

import pytest

from tests.claim_helpers import CHIP, FAM, C, P, S, U, claims_for, rows

# fmt: off
CASES = [
    # the sentence opens with the architecture; 它 points at it
    ("Fermi是2010年发布的架构，它拥有16个SM。", "t.txt",
     [("2010年", "launch_year", "Fermi", FAM, S), ("16个", "sm_count", "Fermi", FAM, S)]),
    ("Fermi是2010年发布的架构，它拥有40个SM。", "t.txt",
     [("2010年", "launch_year", "Fermi", FAM, S), ("40个", "sm_count", "Fermi", FAM, C)]),
    # below the largest die's figure: a cut-down part may have it, no judgement
    ("Ampere架构拥有28个SM。", "t.txt", [("28个", "sm_count", "Ampere", FAM, U)]),
    # a card's own figure in the family is one of its figures
    ("Ampere架构拥有108个SM。", "t.txt", [("108个", "sm_count", "Ampere", FAM, S)]),
    # the section's heading names the architecture alone; a sentence naming a card is the card's
    ("### Volta 架构\n\nVolta 拥有 300 个 SM，搭配 GDDR6X 显存。\n\nTITAN V拥有80个SM。", "t.md",
     [("300 个", "sm_count", "Volta", FAM, C), ("GDDR6X", "memory_type", "Volta", FAM, C),
      ("80个", "sm_count", "nvidia_titan_v", P, S)]),
    ("### Pascal 架构\n\n这一代搭配 GDDR5X 显存。", "t.md", [("GDDR5X", "memory_type", "Pascal", FAM, S)]),
    # a die the sentence opens with owns the figure as a full die
    ("GF100芯片拥有16个SM。", "t.txt", [("16个", "sm_count", "GF100", CHIP, S)]),
    # a year in a section about an architecture is an event's, not the family's launch
    ("### Blackwell 架构\n\n- **2025年**：平台全面发布", "t.md", [("2025年", "launch_year", "", P, U)]),
]
# fmt: on


@pytest.mark.parametrize(("text", "doc_id", "expected"), CASES)
def test_family_figures(text: str, doc_id: str, expected: list[tuple[str, ...]]) -> None:
    assert rows(claims_for(text, doc_id)) == expected


def test_a_family_figure_names_each_member() -> None:
    claim = next(c for c in claims_for("Fermi是2010年发布的架构，它拥有40个SM。") if c.attribute == "sm_count")
    assert claim.check is not None and claim.check.expected == "GF100：16；GF110：16"


@pytest.mark.parametrize(("text", "evidence", "page"), [
    ("Fermi架构使用GDDR5显存。", "database", "techpowerup.com/gpu-specs/"),  # only the database lists it
    ("Turing架构使用HBM2显存。", "database", "techpowerup.com/gpu-specs/"),  # wrong by the database's list
    ("Ada架构使用GDDR6X显存。", "vendor", "nvidia.com/en-us/geforce/"),  # a curated card has it: that card's page
])
def test_a_family_memory_verdict_cites_what_it_rests_on(text: str, evidence: str, page: str) -> None:
    claim = claims_for(text)[0]
    assert claim.check is not None and claim.check.evidence is not None
    assert (claim.check.evidence.value, page in (claim.check.source or "")) == (evidence, True), claim.check
