"""Look a card up by the name an article uses: exact alias first, then fuzzy (rapidfuzz) for near misses."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ..normalize import normalize_key
from .capabilities import KIND as CAPABILITY
from .columns import FACT_COLUMNS
from .reference import CPU_ATTRIBUTES, Entity, Product, Reference, SpecRow, load_reference


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
    """The rows ``reference show`` prints: a product's specs, a series' members, or a knowledge row's facts; for a
    card, chip or architecture also its CPU die's figures and the CUDA limits of its compute capability (variant:
    the capability)."""
    if entity.kind == "product":
        specs = [_cells(r) for (pid, _attr), rows in sorted(ref.specs.items()) if pid == entity.id for r in rows]
        cpu = [_cells(r) for a in sorted(CPU_ATTRIBUTES) for r in ref.facts(entity.id, a)]
        return specs + cpu + _limit_rows(ref, entity.id)
    if entity.kind == "series":
        s = ref.series[entity.id]
        return [("", "members", ", ".join(ref.name(m) for m in s.members), f"{s.source_title} <{s.source_url}>")]
    if entity.kind == "vendor":
        v = ref.vendors[entity.id]
        return [("", "aliases", ", ".join(v.aliases), f"{v.source_title} <{v.source_url}>")]
    if entity.kind == "term":
        t = ref.terms[entity.id]
        return [("", "definition", t.definition_zh or t.definition_en, f"{t.source_title} <{t.source_url}>")]
    own = [_cells(r) for attribute, per in ref.attributes(entity.id) for r in ref.facts(entity.id, attribute, per)]
    return own + (_limit_rows(ref, entity.id) if entity.kind in ("chip", "architecture") else [])


def _limit_rows(ref: Reference, entity_id: str) -> list[tuple[str, str, str, str]]:
    """The limits of the entity's compute capabilities it does not state itself, in compute_capabilities.csv's
    column order."""
    own = set(ref.attributes(entity_id))
    out: list[tuple[str, str, str, str]] = []
    for col in FACT_COLUMNS["compute_capabilities"]:
        if not col.numeric or (col.attribute, col.per) in own:
            continue
        for r in ref.facts(entity_id, col.attribute, col.per):
            if r.product_id in ref.items.get(CAPABILITY, {}):
                capability = ref.items[CAPABILITY][r.product_id].fields.get("capability", "")
                out.append(_cells(replace(r, variant=f"CC {capability}")))
    return out


def _cells(r: SpecRow) -> tuple[str, str, str, str]:
    value = str(r.value)
    if isinstance(r.value, float):  # whole counts in full (a grid's 2147483647), others as %g
        value = f"{r.value:.0f}" if r.value.is_integer() else f"{r.value:g}"
    scope = f" ({r.scope})" if r.scope else ""
    per = f" per {r.per}" if r.per else ""
    return (r.variant, r.attribute + scope + per, f"{value} {r.unit}".strip(), f"{r.source_title} <{r.source_url}>")
