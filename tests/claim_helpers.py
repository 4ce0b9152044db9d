"""Helpers shared by the extraction tests (test_extract, test_subjects, test_numbers, test_names, test_concepts): the
claims of a sentence, the complete list of them as rows, one claim picked by its text, and known gaps as xfail.

An extraction case asserts ``rows(claims_for(text)) == expected``: every claim of the sentence with its text,
attribute, owner, scope and verdict, in text order, so that a missing, extra or different claim fails the case (as
spaCy's tokenizer tests assert the whole output). A case whose point is that some figure is *not* a claim expects
``[]`` only next to a control sentence, written for the test, where the same figure is one.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

import pytest

from pipeline.api import check_text
from pipeline.records import Claim

# verdicts and scopes as they appear in rows
S, C, M, U = "supported", "contradicted", "misattributed", "unverifiable"
P, CHIP, UNIT, SYS, LINK, FAM = "product", "chip", "unit", "system", "link", "family"

Row = tuple[Any, ...]


def claims_for(text: str, doc_id: str = "t.txt") -> list[Claim]:
    return check_text(text, doc_id=doc_id)


def field(c: Claim, name: str) -> Any:
    """One more field of a claim for a row: any Claim attribute (enums as their value), or the check's ``reason``,
    ``expected``, ``explanation`` or ``evidence``."""
    if name == "verdict":
        return c.verdict.value if c.verdict else ""
    if name in ("reason", "expected", "explanation", "evidence"):
        value = getattr(c.check, name, None) if c.check else None
    elif name in Claim.__dataclass_fields__:
        value = getattr(c, name)
    else:  # a field the claim record keeps in extra: a comparison's target, a computation's inputs
        value = c.extra.get(name)
    if isinstance(value, Enum):
        return value.value
    return "" if value is None and name == "reason" else value


def rows(claims: list[Claim], *fields: str) -> list[Row]:
    """(text, attribute, subject, scope, verdict, *fields) of every claim in text order: what an extraction case
    asserts in full, so a case fails when a claim is missing, extra or different."""
    return [(c.text, c.attribute, c.subject, c.scope.value, field(c, "verdict"), *(field(c, f) for f in fields))
            for c in claims]


def find(claims: list[Claim], fragment: str, attribute: str | None = None) -> Claim:
    hits = [c for c in claims if fragment in c.text and (attribute is None or c.attribute == attribute)]
    assert hits, f"no claim with {fragment!r} ({attribute}) in {[(c.text, c.attribute) for c in claims]}"
    return hits[0]


def flags(claims: list[Claim]) -> list[Claim]:
    return [c for c in claims if c.verdict is not None and c.verdict.is_flag]


def gap(*case: Any, reason: str) -> Any:
    """A case whose expected list is right and whose output is not yet: a strict xfail, so that the fix shows."""
    return pytest.param(*case, marks=pytest.mark.xfail(strict=True, reason=reason))
