"""The draft claim every extractor returns: what a claim says, before it has an id, a sentence or a verdict."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..records import Qualifier, Scope
from .subjects import Subject


@dataclass(frozen=True)
class Draft:
    """A claim before it has an id, a sentence record or a verdict; offsets are sentence-local."""

    start: int
    end: int
    subject: Subject
    attribute: str
    value: float | int | str | list[float] | None
    unit: str | None
    qualifier: Qualifier = Qualifier.EXACT
    multiplier: int = 1
    detail: str | None = None
    variant: str | None = None
    bits: bool = False
    resolution: float = 0.0
    written_unit: str = ""
    scope: Scope = Scope.PRODUCT
    scope_detail: str | None = None
    # more fields for the claim record (a comparison's target, a computation's inputs...): see Claim.extra
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
