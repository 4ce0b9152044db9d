"""The review queue as a CSV (UTF-8 with BOM, opens in Excel): the rows ``GET /api/claims`` lists for the same
filters, in the same order, one column per field below and the Chinese labels beside the codes."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping
from typing import Any

QUEUE_COLUMNS: tuple[str, ...] = (
    "claim_id", "doc_id", "review_status", "verdict", "attribute", "subject", "text", "value", "unit", "expected",
    "explanation", "source", "evidence", "assignee", "editor", "note", "decided_at", "correction", "version",
    "start", "end", "sentence",
)
# (column, the key of the API claim's "labels" it holds)
LABEL_COLUMNS: tuple[tuple[str, str], ...] = (
    ("review_status_zh", "review_status"), ("verdict_zh", "verdict"), ("attribute_zh", "attribute"),
    ("subject_zh", "subject"),
)


def cell(value: Any) -> str:
    """A field as CSV text: nothing for null, JSON for a list (a range), the value's text otherwise."""
    if value is None:
        return ""
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def queue_csv(claims: Iterable[Mapping[str, Any]]) -> str:
    """The API's claims (``views.api_claim`` dicts) as CSV text, with a BOM."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([*QUEUE_COLUMNS, *(c for c, _ in LABEL_COLUMNS)])
    for c in claims:
        labels = c.get("labels") or {}
        writer.writerow([*(cell(c.get(k)) for k in QUEUE_COLUMNS), *(cell(labels.get(k)) for _, k in LABEL_COLUMNS)])
    return "\ufeff" + out.getvalue()
