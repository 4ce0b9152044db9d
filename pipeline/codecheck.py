"""Findings about code blocks (issue 5): filled in below."""

from __future__ import annotations

from .records import Claim, Document
from .reference import Reference


def code_claims(doc: Document, seg: object, ref: Reference) -> list[Claim]:
    return []
