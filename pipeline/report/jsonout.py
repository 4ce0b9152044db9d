"""The machine-readable per-document report (<name>.json)."""

from __future__ import annotations

import json
import math
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


def document_json_text(result: DocumentResult) -> str:
    return json.dumps(document_json(result), ensure_ascii=False, indent=2, allow_nan=False) + "\n"
