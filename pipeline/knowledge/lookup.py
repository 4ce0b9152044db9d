"""Look a card up by the name an article uses: exact alias first, then fuzzy (rapidfuzz) for near misses."""

from __future__ import annotations

from pathlib import Path

from ..normalize import normalize_key
from .reference import Entity, Product, Reference, SpecRow, load_reference


def _keys(p: Product) -> list[str]:
    return [normalize_key(a) for a in (p.product_id, p.name, *p.aliases)]


def find_products(query: str, reference_dir: Path) -> tuple[Product, bool, list[str]] | None:
    """(best product, whether the match was exact, other close names) or None."""
    from rapidfuzz import fuzz, process

    ref = load_reference(reference_dir)
    key = normalize_key(query)
    prefixes = {normalize_key(a) for v in ref.vendors.values() for a in (*v.aliases, *v.brands)}
    stripped = key
    for pre in sorted(prefixes, key=len, reverse=True):
        if stripped.startswith(pre) and len(stripped) > len(pre):
            stripped = stripped[len(pre):]
            break
    for p in ref.products.values():
        if key in _keys(p) or stripped in _keys(p):
            return p, True, []
    choices = {k: p.product_id for p in ref.products.values() for k in _keys(p)}
    ranked = process.extract(stripped, list(choices), scorer=fuzz.WRatio, limit=8)
    seen: list[str] = []
    for _k, score, _i in ranked:
        pid = choices[_k]
        if score >= 60 and pid not in seen:
            seen.append(pid)
    if not seen:
        return None
    return ref.products[seen[0]], False, [ref.products[p].name for p in seen[1:4]]


def spec_rows(product_id: str, reference_dir: Path) -> list[tuple[str, str, str, str]]:
    """(variant, attribute, value with unit and scope, source title + URL) for every spec of a product."""
    ref = load_reference(reference_dir)
    return [_cells(r) for (pid, _attr), specs in sorted(ref.specs.items()) if pid == product_id for r in specs]


def entity_rows(ref: Reference, entity: Entity) -> list[tuple[str, str, str, str]]:
    """The rows ``reference show`` prints: a product's specs, a series' members, or a knowledge row's facts."""
    if entity.kind == "product":
        return [_cells(r) for (pid, _attr), specs in sorted(ref.specs.items()) if pid == entity.id for r in specs]
    if entity.kind == "series":
        s = ref.series[entity.id]
        return [("", "members", ", ".join(ref.name(m) for m in s.members), f"{s.source_title} <{s.source_url}>")]
    if entity.kind == "vendor":
        v = ref.vendors[entity.id]
        return [("", "aliases", ", ".join(v.aliases), f"{v.source_title} <{v.source_url}>")]
    if entity.kind == "term":
        t = ref.terms[entity.id]
        return [("", "definition", t.definition_zh or t.definition_en, f"{t.source_title} <{t.source_url}>")]
    return [_cells(r) for attribute, per in ref.attributes(entity.id) for r in ref.facts(entity.id, attribute, per)]


def _cells(r: SpecRow) -> tuple[str, str, str, str]:
    value = f"{r.value:g}" if isinstance(r.value, float) else str(r.value)
    scope = f" ({r.scope})" if r.scope else ""
    per = f" per {r.per}" if r.per else ""
    return (r.variant, r.attribute + scope + per, f"{value} {r.unit}".strip(), f"{r.source_title} <{r.source_url}>")
