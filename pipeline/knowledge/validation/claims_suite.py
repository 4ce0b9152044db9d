"""The claims suite: the run's claims table, validated in large batches as it streams out."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any

from ...records import CONTRACT_FIELDS, Claim, Evidence, Qualifier, Verdict, claim_value
from . import ge
from .ge import _Check, _computed, _in_set
from .reference_rules import NUMERIC_ATTRIBUTES
from .results import Problem, ValidationResult, _result

if TYPE_CHECKING:
    import pandas as pd

CLAIM_NUMERIC_ATTRIBUTES = NUMERIC_ATTRIBUTES | {"aggregate"}
VERDICTS = tuple(v.value for v in Verdict)
QUALIFIERS = tuple(q.value for q in Qualifier)
EVIDENCE = tuple(e.value for e in Evidence)
DATABASE_PAGE = "https://www.techpowerup.com/gpu-specs/"


# ---- the claims suite

CLAIMS_BATCH = 50_000  # claims per great-expectations run: one suite and batch cost ~80 ms, whatever their size
# One claim as the suite sees it: verdict and qualifier as text, then each computed rule's message (empty: fine)
# and what was found, kept only where the rule failed (nothing reads it elsewhere).
ClaimRow = tuple[str | None, str | None, str, str, str, str, str, str, str, str, str, str]


def claim_row(claim: Mapping[str, Any] | Claim, length: int | None = None) -> ClaimRow:
    """The claims suite's row for one claim (a claims.jsonl record), checked against its document's ``length``
    when known. Cheap, and made where the claim is (a worker), so the run only hands rows to the suite."""
    c = claim.to_dict() if isinstance(claim, Claim) else claim
    fields, offsets = _fields_message(c), _offsets_message(c, length)
    value, multiplier = _claim_value_message(c), _multiplier_message(c)
    evidence = _evidence_message(c)
    return (_as_label(c, "verdict"), _as_label(c, "qualifier"),
            fields, ", ".join(f for f in CONTRACT_FIELDS if f not in c) if fields else "",
            offsets, f"start={c.get('start')!r} end={c.get('end')!r}" if offsets else "",
            value, repr(claim_value(c)) if value else "",
            multiplier, repr(c.get("multiplier")) if multiplier else "",
            evidence, f"evidence={c.get('evidence')!r} verdict={c.get('verdict')!r} source={c.get('source')!r}"
            if evidence else "")


class ClaimsValidator:
    """Validate the run's claims as they stream out, in large batches, so memory stays flat.

    A claim is checked against the length of its document known when it is added; offsets of a document whose
    length is not known then are only checked for 0 <= start <= end. ``add_rows`` takes rows made elsewhere
    (``claim_row``); only the rows are kept, never the claims.
    """

    def __init__(self, doc_lengths: Mapping[str, int] | None = None, batch_size: int = CLAIMS_BATCH) -> None:
        self._lengths: dict[str, int] = dict(doc_lengths or {})
        self._batch_size = max(1, batch_size)
        self._batch: list[ClaimRow] = []
        self._validated = 0
        self._problems: list[Problem] = []

    def add(self, claim: Mapping[str, Any] | Claim) -> None:
        c = claim.to_dict() if isinstance(claim, Claim) else claim
        self.add_rows([claim_row(c, self._lengths.get(str(c.get("doc_id"))))])

    def add_rows(self, rows: Sequence[ClaimRow]) -> None:
        self._batch.extend(rows)
        while len(self._batch) >= self._batch_size:
            self._flush(self._batch_size)

    def set_doc_length(self, doc_id: str, n: int) -> None:
        self._lengths[doc_id] = n

    @property
    def pending(self) -> int:
        """Claims added but not validated yet."""
        return len(self._batch)

    def finish(self) -> ValidationResult:
        """Validate what is left; return every problem found so far."""
        self._flush(len(self._batch))
        return _result(self._problems)

    def _flush(self, n: int) -> None:
        if not n:
            return
        rows, self._batch = self._batch[:n], self._batch[n:]
        frame, checks = _claims_frame(rows, self._validated)
        self._problems += ge._run_suite("claims", frame, checks)
        self._validated += len(rows)


def _claims_frame(rows: Sequence[ClaimRow], first_row: int) -> tuple[pd.DataFrame, list[_Check]]:
    import pandas as pd

    (verdicts, qualifiers, fields, fields_found, offsets, offsets_found, values, values_found, multipliers,
     multipliers_found, evidence, evidence_found) = (list(col) for col in zip(*rows, strict=True))
    frame = pd.DataFrame(index=range(first_row, first_row + len(rows)))
    frame["verdict"] = verdicts
    frame["qualifier"] = qualifiers
    checks = [
        _computed(frame, "fields", fields, None, found=fields_found),
        _in_set("verdict", VERDICTS, f"verdict must be one of {'/'.join(VERDICTS)}"),
        _in_set("qualifier", QUALIFIERS, f"qualifier must be one of {'/'.join(QUALIFIERS)}"),
        _computed(frame, "offsets", offsets, "start", found=offsets_found),
        _computed(frame, "value", values, "value", found=values_found),
        _computed(frame, "multiplier", multipliers, "multiplier", found=multipliers_found),
        _computed(frame, "evidence", evidence, "evidence", found=evidence_found),
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
    return "" if claim.keys() >= _CONTRACT else "claim lacks contract fields"


_CONTRACT = frozenset(CONTRACT_FIELDS)


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _offsets_message(claim: Mapping[str, Any], length: int | None) -> str:
    if "start" not in claim or "end" not in claim:
        return ""
    start, end = claim["start"], claim["end"]
    if not (_is_int(start) and _is_int(end)):
        return "start and end must be whole numbers"
    if not 0 <= start <= end:
        return "offsets must satisfy 0 <= start <= end"
    if length is not None and end > length:
        return f"end must not pass the end of the document ({length} characters)"
    return ""


def _claim_value_message(claim: Mapping[str, Any]) -> str:
    attribute = claim.get("attribute")
    if not isinstance(attribute, str) or attribute not in CLAIM_NUMERIC_ATTRIBUTES or "value" not in claim:
        return ""
    value = claim_value(claim)
    if _is_number(value):
        return ""
    if claim.get("qualifier") == Qualifier.RANGE.value:
        pair = isinstance(value, (list, tuple)) and len(value) == 2 and all(map(_is_number, value))
        return "" if pair else f"value must be a number or a list of two numbers for a range of {attribute}"
    return f"value must be a number for {attribute}"


def _evidence_message(claim: Mapping[str, Any]) -> str:
    """``evidence``: vendor, database or null; only a checked verdict rests on anything; the database's verdicts
    cite its TechPowerUp page."""
    if "evidence" not in claim:
        return ""
    evidence, verdict = claim["evidence"], claim.get("verdict")
    if evidence is None:
        return ""
    if evidence not in EVIDENCE:
        return f"evidence must be one of {'/'.join(EVIDENCE)} or null"
    if verdict in (None, Verdict.UNVERIFIABLE.value):
        return "a claim with no checked verdict (unverifiable, or not checked) has no evidence"
    if evidence == Evidence.DATABASE.value and not str(claim.get("source") or "").startswith(DATABASE_PAGE):
        return f"a verdict resting on the database cites its TechPowerUp page ({DATABASE_PAGE}...)"
    return ""


def _multiplier_message(claim: Mapping[str, Any]) -> str:
    if "multiplier" not in claim:
        return ""
    m = claim["multiplier"]
    return "" if _is_int(m) and m >= 1 else "multiplier must be a whole number >= 1"
