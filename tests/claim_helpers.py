"""Helpers shared by the extraction tests (test_extract, test_subjects, test_numbers, test_names): the claims of a
sentence, one claim picked by its text, and the flagged ones."""

from __future__ import annotations

from pipeline.api import check_text
from pipeline.records import Claim


def claims_for(text: str) -> list[Claim]:
    return check_text(text, doc_id="t.txt")


def find(claims: list[Claim], fragment: str, attribute: str | None = None) -> Claim:
    hits = [c for c in claims if fragment in c.text and (attribute is None or c.attribute == attribute)]
    assert hits, f"no claim with {fragment!r} ({attribute}) in {[(c.text, c.attribute) for c in claims]}"
    return hits[0]


def flags(claims: list[Claim]) -> list[Claim]:
    return [c for c in claims if c.verdict is not None and c.verdict.is_flag]


def rows(claims: list[Claim]) -> list[tuple[str, str, str | None, str, str]]:
    """(text, attribute, subject, scope, verdict) of every claim in text order: what an extraction case asserts
    in full, so a case fails when a claim is missing, extra or different."""
    return [(c.text, c.attribute, c.subject, c.scope.value, c.verdict.value if c.verdict else "") for c in claims]
