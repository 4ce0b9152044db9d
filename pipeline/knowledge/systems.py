"""The systems a text names (a table cell, a heading, a sentence), by the names and aliases of
reference/systems.csv: shared by the extractor (a table headed by a system) and the checker (a sentence naming one)."""

from __future__ import annotations

from ..normalize import normalize_key
from .reference import Reference


def named_system(text: str, ref: Reference) -> tuple[str, int] | None:
    """The system a text (a table cell, a heading) names, by the names and aliases of reference/systems.csv, the
    longest first: its name and how many GPUs it has."""
    key = normalize_key(text)
    best = next(((name, count) for k, name, count in _system_keys(ref) if k in key), None)
    return best


_SYSTEM_KEYS: dict[str, list[tuple[str, str, int]]] = {}  # reference fingerprint -> (key, name, GPUs), longest first


def _system_keys(ref: Reference) -> list[tuple[str, str, int]]:
    """Every system name and alias as ``normalize_key`` has it, longest first (computed once per reference)."""
    if ref.fingerprint not in _SYSTEM_KEYS:
        keys = [(k, item.name, int(_num(item.fields.get("gpu_count", ""))))
                for item in ref.items.get("system", {}).values()
                for name in (item.name, *item.aliases) if (k := normalize_key(name))]
        _SYSTEM_KEYS[ref.fingerprint] = sorted(keys, key=lambda e: -len(e[0]))  # stable: table order among equals
    return _SYSTEM_KEYS[ref.fingerprint]


def _num(text: str) -> float:
    try:
        return max(1.0, float(text))
    except ValueError:
        return 1.0
