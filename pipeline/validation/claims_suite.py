"""The claims suite: the run's claims table, validated in batches as it streams out."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any

from ..records import CONTRACT_FIELDS, Claim, Qualifier, Verdict
from . import ge
from .ge import _Check, _computed, _in_set
from .reference_rules import NUMERIC_ATTRIBUTES
from .results import Problem, ValidationResult, _result

if TYPE_CHECKING:
    import pandas as pd

CLAIM_NUMERIC_ATTRIBUTES = NUMERIC_ATTRIBUTES | {"aggregate"}
VERDICTS = tuple(v.value for v in Verdict)
QUALIFIERS = tuple(q.value for q in Qualifier)


# ---- the claims suite


class ClaimsValidator:
    """Validate the run's claims in batches as they stream out, so memory stays flat.

    A batch is checked against the document lengths known when it is validated; offsets of a
    document whose length is not known yet are only checked for 0 <= start <= end.
    """

    def __init__(self, doc_lengths: Mapping[str, int] | None = None, batch_size: int = 2000) -> None:
        self._lengths: dict[str, int] = dict(doc_lengths or {})
        self._batch_size = max(1, batch_size)
        self._batch: list[Mapping[str, Any]] = []
        self._validated = 0
        self._problems: list[Problem] = []

    def add(self, claim: Mapping[str, Any] | Claim) -> None:
        self._batch.append(claim.to_dict() if isinstance(claim, Claim) else claim)
        if len(self._batch) >= self._batch_size:
            self._flush()

    def set_doc_length(self, doc_id: str, n: int) -> None:
        self._lengths[doc_id] = n

    @property
    def pending(self) -> int:
        """Claims added but not validated yet."""
        return len(self._batch)

    def finish(self) -> ValidationResult:
        """Validate what is left; return every problem found so far."""
        self._flush()
        return _result(self._problems)

    def _flush(self) -> None:
        if not self._batch:
            return
        frame, checks = _claims_frame(self._batch, self._validated, self._lengths)
        self._problems += ge._run_suite("claims", frame, checks)
        self._validated += len(self._batch)
        self._batch = []


def _claims_frame(
    claims: Sequence[Mapping[str, Any]], first_row: int, lengths: Mapping[str, int]
) -> tuple[pd.DataFrame, list[_Check]]:
    import pandas as pd

    frame = pd.DataFrame(index=range(first_row, first_row + len(claims)))
    frame["verdict"] = [_as_label(c, "verdict") for c in claims]
    frame["qualifier"] = [_as_label(c, "qualifier") for c in claims]
    checks = [
        _computed(frame, "fields", [_fields_message(c) for c in claims], None,
                  found=[", ".join(f for f in CONTRACT_FIELDS if f not in c) for c in claims]),
        _in_set("verdict", VERDICTS, f"verdict must be one of {'/'.join(VERDICTS)}"),
        _in_set("qualifier", QUALIFIERS, f"qualifier must be one of {'/'.join(QUALIFIERS)}"),
        _computed(frame, "offsets", [_offsets_message(c, lengths) for c in claims], "start",
                  found=[f"start={c.get('start')!r} end={c.get('end')!r}" for c in claims]),
        _computed(frame, "value", [_claim_value_message(c) for c in claims], "value",
                  found=[repr(c.get("value")) for c in claims]),
        _computed(frame, "multiplier", [_multiplier_message(c) for c in claims], "multiplier",
                  found=[repr(c.get("multiplier")) for c in claims]),
    ]
    return frame, checks


def _as_label(claim: Mapping[str, Any], key: str) -> str | None:
    """The field as text for an in-set check; None (GE skips it) when absent: the fields rule says so."""
    if key not in claim:
        return None
    value = claim[key]
    if isinstance(value, Enum):
        value = value.value
    return value if isinstance(value, str) else json.dumps(value, default=repr)


def _fields_message(claim: Mapping[str, Any]) -> str:
    return "" if all(f in claim for f in CONTRACT_FIELDS) else "claim lacks contract fields"


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _offsets_message(claim: Mapping[str, Any], lengths: Mapping[str, int]) -> str:
    if "start" not in claim or "end" not in claim:
        return ""
    start, end = claim["start"], claim["end"]
    if not (_is_int(start) and _is_int(end)):
        return "start and end must be whole numbers"
    if not 0 <= start <= end:
        return "offsets must satisfy 0 <= start <= end"
    length = lengths.get(str(claim.get("doc_id")))
    if length is not None and end > length:
        return f"end must not pass the end of the document ({length} characters)"
    return ""


def _claim_value_message(claim: Mapping[str, Any]) -> str:
    attribute = claim.get("attribute")
    if not isinstance(attribute, str) or attribute not in CLAIM_NUMERIC_ATTRIBUTES or "value" not in claim:
        return ""
    value = claim["value"]
    if _is_number(value):
        return ""
    if claim.get("qualifier") == Qualifier.RANGE.value:
        pair = isinstance(value, (list, tuple)) and len(value) == 2 and all(map(_is_number, value))
        return "" if pair else f"value must be a number or a list of two numbers for a range of {attribute}"
    return f"value must be a number for {attribute}"


def _multiplier_message(claim: Mapping[str, Any]) -> str:
    if "multiplier" not in claim:
        return ""
    m = claim["multiplier"]
    return "" if _is_int(m) and m >= 1 else "multiplier must be a whole number >= 1"
