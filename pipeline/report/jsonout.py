"""The machine-readable per-document report (<name>.json)."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ..records import DocumentResult


def _finite(obj: Any) -> Any:
    """NaN and infinities have no JSON spelling; write null instead."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    return obj


def document_json(result: DocumentResult) -> dict[str, Any]:
    """The documents.jsonl record plus every claim as a claims.jsonl record."""
    return _finite({**result.to_dict(), "claims": [c.to_dict() for c in result.claims]})


def _compact(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    except ValueError:  # a NaN or an infinity somewhere: null instead
        return json.dumps(_finite(value), ensure_ascii=False, allow_nan=False)


@lru_cache(maxsize=256)
def _key(name: str) -> str:
    """A field name encoded (the same few names in every report)."""
    return _compact(name)


def document_json_text(result: DocumentResult, records: Sequence[str] | None = None) -> str:
    """The report laid out for reading and diffing: one document field a line and one claim a line.

    ``records`` are the claims' ``to_dict`` already encoded (``json.dumps(..., ensure_ascii=False)``), when the
    caller has them. (``json.dumps(..., indent=2)`` would run the pure-Python encoder over every claim; this layout
    lets the C encoder do each line.)"""
    doc = result.to_dict()
    lines = [f"  {_key(k)}: {_compact(v)}" for k, v in doc.items()]
    # a record with a NaN or an infinity in it (written NaN, Infinity) is encoded again, with null there
    claims = [records[i] if records is not None and "NaN" not in records[i] and "Infinity" not in records[i]
              else _compact(c.to_dict()) for i, c in enumerate(result.claims)]
    body = ",\n".join(f"    {c}" for c in claims)
    lines.append('  "claims": [' + (f"\n{body}\n  ]" if claims else "]"))
    return "{\n" + ",\n".join(lines) + "\n}\n"
