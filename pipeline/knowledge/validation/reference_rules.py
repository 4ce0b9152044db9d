"""The reference suite's rules: the documented columns and values, and the checks for each table."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..facts import FACT_COLUMNS
from .ge import _Check, _computed, _in_set, _matches, _records, _row_messages, _unique

if TYPE_CHECKING:
    import pandas as pd

# ---- the rules, as data

REQUIRED_COLUMNS: dict[str, tuple[str, ...]] = {
    "vendors": ("vendor_id", "name", "aliases", "makes_gpus", "brands", "source_url", "source_title"),
    "products": ("product_id", "vendor", "family", "name", "architecture", "chip", "launch_year",
                 "positioning", "aliases", "series"),
    "series": ("series_id", "vendor", "name", "aliases", "members", "source_url", "source_title"),
    "specs": ("product_id", "variant", "attribute", "scope", "value", "unit", "source_url", "source_title",
              "notes"),
    "links": ("link_id", "name", "aliases", "generation", "lanes", "per_direction", "bidirectional", "unit",
              "source_url", "source_title"),
    "terms": ("term_id", "name", "aliases", "owner", "category", "definition_zh", "definition_en",
              "source_url", "source_title"),
}
# optional tables: validated when present
OPTIONAL_COLUMNS: dict[str, tuple[str, ...]] = {
    "precisions": ("architecture", "precision", "supported", "source_url", "source_title"),
    "deprecated_apis": ("api", "replacement", "framework", "since", "note_zh", "source_url", "source_title"),
    # the knowledge tables (their rules: knowledge_rules.py)
    "chips": ("chip_id", "name", "aliases", "vendor", "architecture", "products", "source_url", "source_title",
              "notes"),
    "architectures": ("architecture_id", "name", "aliases", "vendor", "launch_year", "introduced", "source_url",
                      "source_title", "notes"),
    "memory": ("memory_id", "name", "aliases", "kind", "standard", "unit", "source_url", "source_title", "notes"),
    "systems": ("system_id", "name", "aliases", "vendor", "gpu_product", "gpu_count", "source_url", "source_title",
                "notes"),
    "compute_capabilities": ("capability_id", "name", "aliases", "capability", "architecture", "source_url",
                             "source_title", "notes"),
    # the relation tables (their rules: facts_rules.py)
    **FACT_COLUMNS,
}
# SPARSITY: 2:4 structured sparsity in the matrix units (a feature listed beside the formats)
PRECISIONS = ("FP64", "FP32", "TF32", "BF16", "FP16", "FP8", "FP6", "FP4", "INT8", "INT4", "SPARSITY")
ID_COLUMNS = {"vendors": "vendor_id", "products": "product_id", "series": "series_id", "links": "link_id",
              "terms": "term_id", "chips": "chip_id", "architectures": "architecture_id", "memory": "memory_id",
              "systems": "system_id", "compute_capabilities": "capability_id"}
SPEC_KEY = ("product_id", "variant", "attribute", "scope")

COUNT_ATTRIBUTES = ("cuda_cores", "stream_processors", "tensor_cores", "mig_instances", "sm_count", "compute_units",
                    "rt_cores", "fp64_cores", "int32_cores")
THROUGHPUT_ATTRIBUTES = ("fp64", "fp32", "fp16", "bf16", "tf32", "fp8", "fp6", "fp4", "int8", "int4")
TEXT_ATTRIBUTES = ("memory_type", "interface", "architecture", "gpu_chip")
UNITS: dict[str, frozenset[str]] = {
    **{a: frozenset({""}) for a in COUNT_ATTRIBUTES},
    "memory_size": frozenset({"GB"}),
    "memory_bandwidth": frozenset({"GB/s"}),
    "effective_bandwidth": frozenset({"GB/s"}),
    "interconnect_bandwidth": frozenset({"GB/s"}),
    "cache_size": frozenset({"MB"}),
    "tdp": frozenset({"W"}),
    "slot_width": frozenset({"slots"}),
    "memory_bus_width": frozenset({"bit"}),
    "launch_year": frozenset({""}),
    **{a: frozenset({"TFLOPS", "TOPS"}) for a in THROUGHPUT_ATTRIBUTES},
    **{a: frozenset({""}) for a in TEXT_ATTRIBUTES},
}
ATTRIBUTES = frozenset(UNITS)
NUMERIC_ATTRIBUTES = ATTRIBUTES - set(TEXT_ATTRIBUTES)
WHOLE_NUMBER_ATTRIBUTES = frozenset({*COUNT_ATTRIBUTES, "launch_year", "memory_bus_width"})
RANGES: dict[str, tuple[float, float]] = {
    **{a: (0, 30000) for a in COUNT_ATTRIBUTES},
    "tdp": (10, 1500),
    "memory_size": (1, 1000),  # a superchip (GB200: 2 GPUs) holds more than one card
    "launch_year": (1990, 2030),
}
# memory_bandwidth (GB/s) by the product's memory_type; "HBM" covers every HBM generation
BANDWIDTH_BY_MEMORY: dict[str, tuple[float, float]] = {
    "GDDR5": (20, 600), "GDDR5X": (200, 600), "GDDR6": (100, 1100), "GDDR6X": (400, 1900),
    "GDDR7": (300, 2000), "HBM": (200, 20000),
}  # GDDR7 from a 128-bit card (RTX 5060 Ti: 448 GB/s); HBM up to a superchip's two GPUs (GB200: 16 TB/s)
ANY_MEMORY = (20, 10000)
TERM_CATEGORIES = ("interconnect", "virtualization", "partitioning", "compute_unit", "memory", "cache",
                   "software", "architecture", "dataset", "benchmark", "model", "brand")
URL_PATTERN = r"^https?://\S+$"
NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")


# ---- the rules, per table


@dataclass(frozen=True)
class _Tables:
    """The loaded tables; only those with every required column take part in cross-table rules."""

    all: Mapping[str, pd.DataFrame]

    def has(self, name: str) -> bool:
        required = REQUIRED_COLUMNS.get(name) or OPTIONAL_COLUMNS.get(name, ())
        return name in self.all and set(required) <= set(self.all[name].columns)

    def ids(self, name: str) -> list[str]:
        return sorted(set(self.all[name][ID_COLUMNS[name]]))


def _common_checks(frame: pd.DataFrame, name: str) -> list[_Check]:
    id_column = ID_COLUMNS.get(name)
    checks = []
    if id_column:
        checks += [_matches(id_column, r"\S", f"{id_column} must not be empty"), _unique(id_column)]
    if "source_url" in frame.columns:
        checks += [
            _matches("source_url", URL_PATTERN, "source_url must be an http(s) URL without spaces"),
            _matches("source_title", r"\S", "source_title must not be empty"),
        ]
    return checks


def _items(cell: str) -> list[str]:
    return [item.strip() for item in cell.split("|") if item.strip()]


def _vendor_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    return [*_common_checks(frame, "vendors"),
            _in_set("makes_gpus", ("true", "false"), "makes_gpus must be true or false")]


def _product_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    checks = [*_common_checks(frame, "products"),
              _matches("architecture", r"\S", "architecture must not be empty"),
              _computed(frame, "launch_year", _row_messages(frame, _launch_year_message), "launch_year")]
    if ref.has("vendors"):
        checks.append(_known_vendor(ref))
    if ref.has("specs"):
        specs = ref.all["specs"]
        sourced = set(specs.loc[specs["source_url"].str.strip() != "", "product_id"])
        messages = ["" if p in sourced else "product needs at least one specs.csv row with a source"
                    for p in frame["product_id"]]
        checks.append(_computed(frame, "has_specs", messages, "product_id"))
    if ref.has("series"):
        series = set(ref.ids("series"))
        messages = [_unknown("series", _items(cell), series, "series.csv") for cell in frame["series"]]
        checks.append(_computed(frame, "series_exist", messages, "series"))
    checks.append(_computed(frame, "alias", _alias_messages(ref, "products"), "aliases"))
    return checks


def _launch_year_message(row: Mapping[str, str]) -> str:
    year = row["launch_year"].strip()
    if year and not (year.isdigit() and 1990 <= int(year) <= 2030):
        return "launch_year must be a year from 1990 to 2030, or empty"
    return ""


def _unknown(what: str, items: Sequence[str], known: set[str], table: str) -> str:
    missing = [i for i in items if i not in known]
    return f"{what} {', '.join(missing)} not found in {table}" if missing else ""


def _series_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    checks = [*_common_checks(frame, "series"),
              _computed(frame, "alias", _alias_messages(ref, "series"), "aliases")]
    if ref.has("vendors"):
        checks.append(_known_vendor(ref))
    if ref.has("products"):
        products = set(ref.ids("products"))
        messages = [_unknown("members", _items(cell), products, "products.csv") for cell in frame["members"]]
        checks.append(_computed(frame, "members_exist", messages, "members"))
    return checks


def _known_vendor(ref: _Tables) -> _Check:
    return _in_set("vendor", ref.ids("vendors"), "vendor must be a vendor_id from vendors.csv")


def _alias_messages(ref: _Tables, name: str) -> list[str]:
    """Per row of ``name``: the aliases an earlier product or series row already uses (case-insensitive)."""
    owners: dict[str, tuple[str, int, str]] = {}
    messages: dict[str, list[str]] = {}
    for table in ("products", "series"):
        if not ref.has(table):
            continue
        rows = ref.all[table].reset_index(drop=True)
        messages[table] = [_claim_aliases(owners, table, i, r) for i, r in enumerate(_records(rows))]
    return messages[name]


def _claim_aliases(
    owners: dict[str, tuple[str, int, str]], table: str, row: int, record: Mapping[str, str]
) -> str:
    owner_id = record[ID_COLUMNS[table]]
    clashes = []
    for key, alias in {a.casefold(): a for a in _items(record["aliases"])}.items():
        first = owners.setdefault(key, (table, row, owner_id))
        if (first[0], first[2]) != (table, owner_id):
            clashes.append(f"alias {alias!r} is also used by {first[0]}.csv row {first[1]} ({first[2]})")
    return "; ".join(clashes)


def _spec_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    memory = _memory_types(frame)
    checks = [
        *_common_checks(frame, "specs"),
        _in_set("attribute", sorted(ATTRIBUTES), "attribute must be one listed in reference/README.md"),
        _Check("compound_unique", SPEC_KEY[0], f"more than one row for ({', '.join(SPEC_KEY)})",
               ",".join(SPEC_KEY), arg=SPEC_KEY),
        _computed(frame, "unit", _row_messages(frame, _unit_message), "unit"),
        _computed(frame, "value", _row_messages(frame, _value_message), "value"),
        _computed(frame, "range", _row_messages(frame, lambda r: _range_message(r, memory)), "value"),
    ]
    if ref.has("products"):
        checks.append(_in_set("product_id", ref.ids("products"), "product_id must exist in products.csv"))
    return checks


def _unit_message(row: Mapping[str, str]) -> str:
    allowed = UNITS.get(row["attribute"])
    if allowed is None or row["unit"] in allowed:
        return ""
    if allowed == {""}:
        return f"unit must be empty for {row['attribute']}"
    return f"unit must be one of {'/'.join(sorted(allowed))} for {row['attribute']}"


def _number(text: str) -> float | None:
    return float(text) if NUMBER.fullmatch(text) else None


def _value_message(row: Mapping[str, str]) -> str:
    attribute, value = row["attribute"], row["value"]
    if attribute not in ATTRIBUTES:
        return ""
    if attribute not in NUMERIC_ATTRIBUTES:
        return "" if value.strip() else f"value must not be empty for {attribute}"
    number = _number(value)
    if number is None:
        return f"value must be a number for {attribute}"
    if attribute in WHOLE_NUMBER_ATTRIBUTES and not number.is_integer():
        return f"value must be a whole number for {attribute}"
    if number < 0 or (number == 0 and attribute not in COUNT_ATTRIBUTES):
        return f"value must be {'>= 0' if attribute in COUNT_ATTRIBUTES else 'positive'} for {attribute}"
    return ""


def _memory_types(specs: pd.DataFrame) -> dict[tuple[str, str], str]:
    rows = specs[specs["attribute"] == "memory_type"]
    keys = zip(rows["product_id"], rows["variant"], strict=True)
    return {key: kind.strip() for key, kind in zip(keys, rows["value"], strict=True)}


def _range_message(row: Mapping[str, str], memory: Mapping[tuple[str, str], str]) -> str:
    attribute, number = row["attribute"], _number(row["value"])
    if number is None or _value_message(row):
        return ""  # reported by the value rule
    if attribute == "memory_bandwidth":
        kind = memory.get((row["product_id"], row["variant"])) or memory.get((row["product_id"], "base"), "")
        low, high = _bandwidth_range(kind)
        where = f" for {kind} memory" if kind else " (no memory_type row for this product)"
    elif attribute in RANGES:
        (low, high), where = RANGES[attribute], ""
    else:
        return ""
    if low <= number <= high:
        return ""
    return f"{attribute} must be within {low:g}-{high:g} {row['unit']}".rstrip() + where


def _bandwidth_range(memory_type: str) -> tuple[float, float]:
    kind = memory_type.upper()
    if kind.startswith("HBM"):
        return BANDWIDTH_BY_MEMORY["HBM"]
    return BANDWIDTH_BY_MEMORY.get(kind, ANY_MEMORY)


def _term_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    return [*_common_checks(frame, "terms"),
            _in_set("category", TERM_CATEGORIES, "category must be one listed in reference/README.md")]


def _precision_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    checks = [*_common_checks(frame, "precisions"),
              _in_set("precision", PRECISIONS, "precision must be one of " + ", ".join(PRECISIONS)),
              _in_set("supported", ("true", "false"), "supported must be true or false")]
    if ref.has("products"):
        known = set(ref.all["products"]["architecture"])
        messages = _row_messages(frame, lambda r: "" if r["architecture"] in known else
                                 "architecture must be one used in products.csv")
        checks.append(_computed(frame, "precision_architecture", messages, "architecture"))
    return checks


def _deprecated_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    return [*_common_checks(frame, "deprecated_apis"),
            _matches("api", r"^[A-Za-z_][\w.]*\.[A-Za-z_]\w*$",
                     "api must be a dotted name such as torch.cuda.amp.GradScaler"),
            _matches("replacement", r"\S", "replacement must not be empty")]


_OPTIONAL_CHECKS: dict[str, Callable[[pd.DataFrame, _Tables], list[_Check]]] = {
    "precisions": _precision_checks, "deprecated_apis": _deprecated_checks,
}

_TABLE_CHECKS: dict[str, Callable[[pd.DataFrame, _Tables], list[_Check]]] = {
    "vendors": _vendor_checks, "products": _product_checks, "series": _series_checks,
    "specs": _spec_checks, "terms": _term_checks,
}  # links.csv's are knowledge_rules.KNOWLEDGE_CHECKS' (link_table_checks), which build on these
