"""Comparing a stated value with reference rows: tolerances as written, variant choice, the expected text shown to
the editor. Shared by every checker."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from ..config import Tolerance
from ..knowledge.reference import THROUGHPUT_ATTRIBUTES, Reference, SpecRow
from ..normalize import normalize_key
from ..records import Claim, Qualifier

# figures written as rounded as the writer likes ("2TB/s", "2.5GHz"): compared at the last written digit
RATE_ATTRIBUTES = frozenset({"memory_bandwidth", "effective_bandwidth", "interconnect_bandwidth",
                              "base_clock", "boost_clock", "memory_clock", "memory_data_rate",
                              *THROUGHPUT_ATTRIBUTES})




def fmt(value: float | str | None) -> str:
    if isinstance(value, float):
        return f"{value:g}" if value < 1e6 else f"{value:.0f}"
    return str(value)


def unit_suffix(unit: str | None) -> str:
    return f" {unit}" if unit else ""


def quoted(claim: Claim) -> str:
    return claim.text.strip()


def variant_match(rows: list[SpecRow], hint: str | None) -> list[SpecRow]:
    """Rows of the variant the article names (SXM, 80GB, PCIe); all rows when the hint selects none."""
    if not hint:
        return rows
    tokens = [normalize_key(t) for t in re.findall(r"SXM\d?|PCIe|NVL|OAM|\d+\s*G", hint, re.I)]
    tokens = [t if not t.endswith("g") else t + "b" for t in tokens]
    if not tokens:
        return rows
    picked = [r for r in rows if r.variant == "base" or all(t in normalize_key(r.variant) for t in tokens)]
    specific = [r for r in picked if r.variant != "base"]
    if specific:
        return picked
    # hint tokens may match only some: prefer rows matching any token
    partial = [r for r in rows if any(t in normalize_key(r.variant) for t in tokens)]
    return partial or rows


def candidate_rows(ref: Reference, claim: Claim) -> list[SpecRow]:
    rows: list[SpecRow] = []
    for pid in ref.members(claim.subject or ""):
        rows += ref.rows(pid, claim.attribute)
    if claim.attribute == "interconnect_bandwidth":
        # a link named (NVLink, Infinity Fabric) is checked against that link; "互连带宽" against the card's own
        rows = [r for r in rows if not claim.detail or r.scope.lower() == claim.detail.lower()]
    elif claim.attribute == "cache_size" and claim.detail:
        rows = [r for r in rows if r.scope.lower() == claim.detail.lower()]
    elif claim.attribute in THROUGHPUT_ATTRIBUTES and claim.detail == "sparse":
        rows = [r for r in rows if r.scope == "sparse"]
    elif claim.attribute in THROUGHPUT_ATTRIBUTES and claim.detail == "base clock":
        rows = []  # the reference lists peaks at boost clock
    elif claim.attribute in THROUGHPUT_ATTRIBUTES and claim.detail == "dense":
        rows = [r for r in rows if r.scope in ("", "dense", "tensor")]
    # a throughput figure without a word on sparsity may be any of the card's published ones (dense, sparse, on
    # Tensor Cores): vendors quote all of them
    if claim.subject in ref.series:
        return rows
    return variant_match(rows, claim.variant)


def close_to(a: float, b: float, rel: float) -> bool:
    return abs(a - b) <= rel * max(abs(b), 1e-9) + 1e-9


def numeric_fits(claim: Claim, values: Sequence[float], tol: Tolerance, *, group: bool = False) -> bool:
    """Does the stated number (with its hedge) fit any of the reference values?

    Sizes must match (read in decimal or, as GPU tools write them, binary prefixes: 40960KB is 40 MB). Counts must
    match unless written rounded with 万/亿 ('1.69万' fits 16896, '2.1万' fits 21760, at most 5% off; '16000个' stays
    exact).
    Rates may be rounded as written: '2TB/s' fits 2039 GB/s, '912 GB/s' does not fit 936 GB/s: the slack is one step
    of the last written digit, at most ``tol.exact_rate`` of the value; a figure of one significant digit ('10
    TFLOPS', '2TB/s') may be rounded half its step, at most ``tol.exact_rate`` (10 TFLOPS fits 9.7).
    """
    q, v = claim.qualifier, claim.value
    resolution = float(claim.extra.get("resolution") or 0.0)
    written = str(claim.extra.get("written_unit", ""))
    binary = _binary_factor(claim.attribute, written)
    rounded_count = claim.attribute not in RATE_ATTRIBUTES and written[:1] in ("万", "亿") and resolution > 1

    def close(a: float, b: float, rel: float | None = None) -> bool:
        if binary and close_to(a * binary, b, 0.005):  # "1.5TB" of 8×192GB (1536 GB), "40960KB" of 40 MB
            return True
        if rel is not None:
            return close_to(a, b, rel)
        if claim.attribute in RATE_ATTRIBUTES:
            if not resolution:
                return abs(a - b) <= tol.exact_rate * b + 0.005 * b + 1e-9
            # as written: rounded to the last written digit ("4.8TB/s" is 4750-4850) or cut there, as vendors
            # often do (3276.8 GB/s quoted as "3.2TB/s"); never more than the cap
            step = min(resolution, tol.exact_rate * b)
            if _one_digit(a, resolution):
                step = min(resolution, 2 * tol.exact_rate * b)  # half of it, as for any figure, capped as the step
            return abs(a - b) <= step / 2 + 0.005 * b + 1e-9 or a - 1e-9 <= b < a + min(resolution, 0.05 * b)
        if rounded_count:  # "1.69万个": rounded or cut at the last written digit, never more than 5% off
            step = min(resolution, 0.1 * b)
            return abs(a - b) <= step / 2 + 1e-9 or a - 1e-9 <= b < a + min(resolution, 0.05 * b)
        return close_to(a, b, tol.exact)

    if isinstance(v, list):
        lo, hi = v
        ends = all(any(close(e, x) for x in values) for e in (lo, hi))
        inside = all(lo * (1 - tol.exact_rate) <= x <= hi * (1 + tol.exact_rate) for x in values)
        # a range over a product's variants must name real variants; over a series, its members must lie inside;
        # a narrow range around a card's one figure is a hedge ("70-75W" for a 70W card)
        return ends or (inside and (group or hi <= 1.25 * lo))
    if not isinstance(v, (int, float)):
        return False
    stated = float(v)
    if q is Qualifier.EXACT:
        return any(close(stated, x) for x in values)
    if q is Qualifier.APPROX:
        return any(close(stated, x, tol.approx) for x in values)
    if q is Qualifier.UP_TO:
        return close(stated, max(values)) or any(close(stated, x) for x in values)
    if q is Qualifier.AT_LEAST:
        return any(x >= stated for x in values)
    if q is Qualifier.AT_MOST:
        return any(x <= stated for x in values)
    return False




# binary prefixes as GPU tools write sizes (GPU-Z, nvidia-smi): powers of 1024 above the reference's unit
_PREFIX_POWER = {"K": 1, "M": 2, "G": 3, "T": 4}
_REFERENCE_PREFIX = {"memory_size": "G", "cache_size": "M"}


def _binary_factor(attribute: str, written: str) -> float:
    """The factor from a size as read (decimal) to its binary reading in the reference's unit: "1.5TB" of memory
    x1.024 (1536 GB), "24576MB" of memory /1.024 (24 GB), "40960KB" of cache /1.024 (40 MB); 0 when no other
    reading (GB of memory, MB of cache, anything but a size)."""
    unit = written.strip().upper()
    ref_prefix = _REFERENCE_PREFIX.get(attribute)
    if ref_prefix is None or not unit or unit[0] not in _PREFIX_POWER or unit not in (
            unit[0], unit[0] + "B"):
        return 0.0
    power = _PREFIX_POWER[unit[0]] - _PREFIX_POWER[ref_prefix]
    return 1.024 ** power if power else 0.0


def _one_digit(value: float, resolution: float) -> bool:
    """'10', '2' (TB/s), '900': one significant digit, the rest zeros up to the last written one."""
    digits = value / resolution if resolution > 0 else 0.0
    return abs(digits - round(digits)) < 1e-6 and 1 <= round(digits) <= 9


def _scope_zh(scope: str) -> str:
    """A reference row's scope as an editor reads it (labels.csv, kind spec_scope); dense is the default, unsaid."""
    from ..lexicon.labels import label

    return "" if scope in ("", "dense") else label("spec_scope", scope) or ""


def expected_text(rows: Iterable[SpecRow], multiplier: int = 1) -> str:
    """'732 GB/s（16GB PCIe 版）；549 GB/s（12GB PCIe 版）', '624 TFLOPS（稀疏）', or 'HBM2' when every variant
    agrees."""
    variants: dict[str, list[str]] = {}
    scopes: dict[str, list[str]] = {}
    for r in rows:
        value = r.value * multiplier if isinstance(r.value, float) else r.value
        key = f"{fmt(value)}{unit_suffix(r.unit)}"
        for labels, name in ((variants, r.variant if r.variant != "base" else ""),
                             (scopes, _scope_zh(r.scope))):
            labels.setdefault(key, [])
            if name and name not in labels[key]:
                labels[key].append(name)
    if len(variants) == 1:
        return next(iter(variants))

    def label(key: str) -> str:
        parts = [f"{'/'.join(variants[key])} 版" if variants[key] else "", "、".join(scopes[key])]
        return "，".join(p for p in parts if p)

    return "；".join(f"{k}（{label(k)}）" if label(k) else k for k in variants)


def text_fits(claim: Claim, rows: list[SpecRow]) -> list[SpecRow]:
    stated = normalize_key(str(claim.value))
    out = []
    for r in rows:
        have = normalize_key(str(r.value))
        if claim.attribute == "memory_type":
            ok = have == stated or (stated == "hbm" and have.startswith("hbm"))
        elif claim.attribute == "gpu_chip":
            parts = {normalize_key(p) for p in re.split(r"[|/,，(（)）\s]+|x", str(r.value)) if p}
            ok = stated == have or stated in parts or all(
                normalize_key(p) in parts or normalize_key(p) in have for p in re.split(r"[|/]", str(claim.value)))
        else:  # a family name fits its members (Ada → Ada Lovelace, CDNA → CDNA 2); CDNA 2 does not fit CDNA
            ok = have == stated or have.startswith(stated) or (stated.startswith(have)
                                                               and not stated[len(have):][:1].isdigit())
        if ok:
            out.append(r)
    return out


def per_card(claim: Claim) -> float | list[float] | str | int | None:
    v = claim.value
    if claim.multiplier <= 1:
        return v
    if isinstance(v, list):
        return [x / claim.multiplier for x in v]
    return v / claim.multiplier if isinstance(v, (int, float)) else v


# a card's count of units, where the tables give its cores and its die's cores per unit
_UNIT_OF_COUNT = {"sm_count": ("SM", ("cuda_cores",)), "compute_units": ("CU", ("stream_processors",))}


def unit_count_rows(ref: Reference, claim: Claim) -> list[SpecRow]:
    """"RX 6800 XT有72个CU" when the tables list its 4608 stream processors and Navi 21's 64 per CU: the count the
    card's cores make (one row per core figure, the arithmetic in its notes)."""
    unit_cores = _UNIT_OF_COUNT.get(claim.attribute)
    subject = claim.subject or ""
    if unit_cores is None or subject not in ref.products:
        return []
    unit, names = unit_cores
    chips = ref.chips_of(subject)
    per = [r for c in chips[:1] if len(chips) == 1 for n in names for r in ref.facts(c, n, per=unit)]
    if not per:
        return []
    each = float(per[0].value)
    out = []
    for r in (r for n in names for r in candidate_rows(ref, replace(claim, attribute=n))):
        units = float(r.value) / each
        if units.is_integer():
            out.append(SpecRow(r.product_id, r.variant, claim.attribute, r.scope, units, "", r.source_url,
                               r.source_title, f"{fmt(float(r.value))} ÷ {fmt(each)}（每个{unit}） = {fmt(units)}",
                               r.per))
    return out
