"""The rules of the knowledge tables (chips, architectures, memory, systems, compute capabilities, and links'
standard columns).

Which fact a column holds, and in which unit, is fixed once in ``pipeline.knowledge.columns.FACT_COLUMNS``; here each
numeric column gets a number rule and a range, each list of references must name rows that exist, each entity id is
unique across the tables ``Reference.facts`` reads, and an alias may name only one thing in the whole reference.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from ..columns import FACT_COLUMNS, ID_COLUMN, KNOWLEDGE_TABLES, FactColumn, split_items
from .ge import _Check, _computed, _in_set, _matches, _records, _row_messages, _unique
from .reference_rules import NUMBER, _common_checks, _items, _Tables

if TYPE_CHECKING:
    import pandas as pd

PER_UNITS = ("SM", "CU", "Xe-core", "AI Core")
MEMORY_UNITS = ("stack", "chip")
MEMORY_KINDS = ("HBM", "GDDR")
LINK_KINDS = ("pcie", "nvlink", "nvswitch", "nvlink_c2c", "infinity_fabric", "hccs", "xe_link")
WHOLE_NUMBERS = frozenset({"gpc_count", "tpc_count", "sm_count", "compute_units", "xe_cores", "cuda_cores",
                           "stream_processors", "tensor_cores", "rt_cores", "fp64_cores", "fp32_cores",
                           "int32_cores", "memory_bus_width", "hbm_stacks", "launch_year", "die_count",
                           "partitions", "ldst_units", "sfu_units", "tensor_core_generation", "rt_core_generation",
                           "transformer_engine_generation", "nvlink_generation", "gpu_count", "cpu_count",
                           "nvswitch_count", "lanes", "links_per_gpu", "stack_height", "rops", "tmus",
                           "raster_engines", "memory_controllers", "sms_per_gpc", "tpcs_per_gpc", "sms_per_tpc",
                           "warp_schedulers", "dispatch_units", "cpu_cores", "warp_size", "max_threads_per_block",
                           "max_block_dim_x", "max_block_dim_y", "max_block_dim_z", "max_grid_dim_x",
                           "max_grid_dim_y", "max_grid_dim_z", "max_blocks_per_sm", "max_warps_per_sm",
                           "max_threads_per_sm", "registers_per_sm", "max_registers_per_block",
                           "max_registers_per_thread", "shared_memory_banks"})
# (attribute, per) -> allowed range; per "*" is any per-unit figure, "" a whole-entity figure
RANGES: dict[tuple[str, str], tuple[float, float]] = {
    ("gpc_count", ""): (1, 16), ("tpc_count", ""): (1, 200), ("sm_count", ""): (1, 300),
    ("compute_units", ""): (1, 400), ("xe_cores", ""): (1, 256), ("cuda_cores", ""): (64, 40000),
    ("stream_processors", ""): (64, 40000), ("tensor_cores", ""): (0, 2000), ("rt_cores", ""): (0, 300),
    ("fp64_cores", ""): (0, 20000), ("memory_bus_width", ""): (32, 16384), ("hbm_stacks", ""): (1, 16),
    ("transistors", ""): (0.1, 500), ("die_size", ""): (20, 1000), ("launch_year", ""): (1990, 2030),
    ("die_count", ""): (1, 16),
    ("cuda_cores", "*"): (1, 256), ("stream_processors", "*"): (1, 256), ("fp32_cores", "*"): (1, 256),
    ("int32_cores", "*"): (0, 256), ("fp64_cores", "*"): (0, 128), ("tensor_cores", "*"): (0, 32),
    ("rt_cores", "*"): (0, 4), ("partitions", "*"): (1, 8), ("register_file", "*"): (16, 1024),
    ("ldst_units", "*"): (1, 64), ("sfu_units", "*"): (1, 64),
    ("tensor_core_generation", ""): (1, 10), ("rt_core_generation", ""): (1, 10),
    ("transformer_engine_generation", ""): (1, 10), ("nvlink_generation", ""): (1, 10),
    ("pin_rate", "lane"): (0.1, 64), ("memory_bus_width", "*"): (8, 4096), ("memory_bandwidth", "*"): (1, 5000),
    ("memory_size", "*"): (0.1, 128), ("stack_height", "*"): (1, 24),
    ("gpu_count", ""): (1, 100000), ("cpu_count", ""): (0, 100000), ("memory_size", ""): (1, 10_000_000),
    ("nvswitch_count", ""): (0, 10000), ("tdp", ""): (100, 10_000_000), ("fp8", ""): (1, 10_000_000),
    ("fp4", ""): (1, 10_000_000),
    ("transfer_rate", "lane"): (0.1, 512), ("lanes", ""): (1, 64), ("lanes", "link"): (1, 32),
    ("links_per_gpu", ""): (1, 64),
    ("interconnect_bandwidth", "lane"): (0.01, 128), ("interconnect_bandwidth", "link"): (0.1, 2000),
    ("interconnect_bandwidth", "GPU"): (0.1, 20000), ("interconnect_bandwidth", ""): (0.1, 1_000_000),
    # a die's graphics and memory make-up
    ("rops", ""): (0, 512), ("tmus", ""): (0, 2000), ("raster_engines", ""): (1, 16),
    ("memory_controllers", ""): (1, 32), ("memory_bus_width", "memory_controller"): (16, 1024),
    ("sms_per_gpc", ""): (1, 32), ("tpcs_per_gpc", ""): (1, 16), ("sms_per_tpc", ""): (1, 4),
    ("tmus", "*"): (0, 64), ("shared_memory", "*"): (8, 512), ("warp_schedulers", "*"): (1, 8),
    ("dispatch_units", "*"): (1, 16),
    # a CPU die (Grace)
    ("cpu_cores", ""): (1, 1024), ("cpu_memory_size", ""): (1, 4096), ("cpu_memory_bandwidth", ""): (10, 10000),
    # the CUDA C++ Programming Guide's limits per compute capability
    ("warp_size", ""): (16, 64), ("max_threads_per_block", ""): (256, 4096), ("max_block_dim_x", ""): (64, 4096),
    ("max_block_dim_y", ""): (64, 4096), ("max_block_dim_z", ""): (1, 1024), ("max_grid_dim_x", ""): (1, 2**31 - 1),
    ("max_grid_dim_y", ""): (1, 65535), ("max_grid_dim_z", ""): (1, 65535), ("max_blocks_per_sm", "SM"): (1, 64),
    ("max_warps_per_sm", "SM"): (8, 128), ("max_threads_per_sm", "SM"): (256, 4096),
    ("registers_per_sm", "SM"): (4096, 262144), ("max_registers_per_block", ""): (4096, 262144),
    ("max_registers_per_thread", ""): (32, 1024), ("max_shared_memory_per_block", ""): (8, 512),
    ("constant_memory", ""): (8, 1024), ("local_memory_per_thread", ""): (1, 2048),
    ("shared_memory_banks", ""): (8, 64),
}
CHIP_KINDS = ("", "GPU", "CPU")
CACHE_RANGES: dict[str, tuple[float, float]] = {"L1": (8, 1024), "L2": (0.1, 512), "Infinity Cache": (1, 512)}


def _range(col: FactColumn, attribute: str, per: str) -> tuple[float, float] | None:
    if attribute == "cache_size":
        return CACHE_RANGES.get(col.scope)
    if not per:
        return RANGES.get((attribute, ""))
    return RANGES.get((attribute, per)) or RANGES.get((attribute, "*"))


def _attribute(col: FactColumn, row: Mapping[str, str]) -> str:
    if col.attribute == "@cores":
        return {"SM": "cuda_cores", "CU": "stream_processors"}.get(row.get("unit", ""), "fp32_cores")
    return col.attribute


def _number_message(table: str, row: Mapping[str, str]) -> str:
    return "; ".join(message for _column, message in _number_problems(table, row))


def _number_problems(table: str, row: Mapping[str, str]) -> list[tuple[str, str]]:
    """Every filled numeric column: a number, whole where it counts things, within its range."""
    problems: list[tuple[str, str]] = []
    for col in FACT_COLUMNS[table]:
        cell = str(row.get(col.column, "") or "").strip()
        if not cell or not col.numeric:
            continue
        if not NUMBER.fullmatch(cell):
            problems.append((col.column, f"{col.column} must be a number"))
            continue
        value = float(cell)
        attribute = _attribute(col, row)
        if attribute in WHOLE_NUMBERS and not value.is_integer():
            problems.append((col.column, f"{col.column} must be a whole number"))
            continue
        per = row.get("unit", "") if col.per == "@unit" else col.per
        bounds = _range(col, attribute, per)
        if bounds and not bounds[0] <= value <= bounds[1]:
            unit = f" {col.unit}" if col.unit and col.unit != "billion" else (" billion" if col.unit else "")
            problems.append((col.column, f"{col.column} must be within {bounds[0]:g}-{bounds[1]:g}{unit}"))
    return problems


def _unit_message(row: Mapping[str, str]) -> str:
    """A row with per-SM/CU figures says what they are per."""
    per_unit = [c.column for c in FACT_COLUMNS["chips"] if c.per == "@unit" and str(row.get(c.column, "")).strip()]
    unit = str(row.get("unit", "")).strip()
    if per_unit and unit not in PER_UNITS:
        return f"unit must be one of {', '.join(PER_UNITS)} when per-unit columns ({per_unit[0]}...) are filled"
    if unit and unit not in PER_UNITS:
        return f"unit must be one of {', '.join(PER_UNITS)} or empty"
    return ""


def _known(what: str, cell: str, known: set[str], table: str) -> str:
    missing = [i for i in _items(cell) if i not in known]
    return f"{what} {', '.join(missing)} not found in {table}" if missing else ""


def _architecture_names(ref: _Tables) -> set[str]:
    if "architectures" not in ref.all:
        return set()
    frame = ref.all["architectures"]
    return {n for _i, r in frame.iterrows() for n in (r.get("name", ""), *_items(r.get("aliases", ""))) if n}


def _references(frame: pd.DataFrame, ref: _Tables, column: str, target: str) -> _Check | None:
    """A column of `|`-separated ids (or names) that must exist in ``target``."""
    if column not in frame.columns:
        return None
    if target == "architectures":
        known = _architecture_names(ref)
        if not known:
            return None
        messages = [_known("architecture", c, known, "architectures.csv") for c in frame[column]]
    elif ref.has(target):
        known = set(ref.ids(target))
        messages = [_known(column, c, known, f"{target}.csv") for c in frame[column]]
    else:
        return None
    return _computed(frame, f"{column}_exist", messages, column)


def _table_checks(table: str) -> Callable[[pd.DataFrame, _Tables], list[_Check]]:
    def checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
        out = [*_common_checks(frame, table),
               _computed(frame, "numbers", _row_messages(frame, lambda r: _number_message(table, r)), None,
                         found=[_filled(r, table) for r in _records(frame)]),
               _computed(frame, "alias_everywhere", alias_messages(ref, table), "aliases"),
               _computed(frame, "id_everywhere", id_messages(ref, table), ID_COLUMN[table])]
        if table in ("chips", "architectures", "systems") and ref.has("vendors"):
            out.append(_in_set("vendor", ref.ids("vendors"), "vendor must be a vendor_id from vendors.csv"))
        if table in ("chips", "architectures"):
            out.append(_computed(frame, "unit", _row_messages(frame, _unit_message), "unit"))
        if table == "memory":
            out += [_in_set("unit", MEMORY_UNITS, "unit must be stack (HBM) or chip (GDDR)"),
                    _in_set("kind", MEMORY_KINDS, "kind must be HBM or GDDR")]
        if table in ("chips", "architectures") and ref.has("compute_capabilities"):
            known = set(ref.all["compute_capabilities"]["capability"])
            messages = [_known("compute capability", c, known, "compute_capabilities.csv")
                        for c in frame.get("compute_capability", [""] * len(frame))]
            out.append(_computed(frame, "capability_exists", messages, "compute_capability"))
        if table == "compute_capabilities":
            out += [_matches("capability", r"^\d{1,2}\.\d$", "capability must be major.minor, e.g. 8.6"),
                    _unique("capability"),
                    _computed(frame, "threads_are_warps", _row_messages(frame, _threads_message),
                              "max_threads_per_sm"),
                    _computed(frame, "listed_by_architecture", _row_messages(frame, lambda r: _listed(r, ref)),
                              "architecture")]
            check = _references(frame, ref, "architecture", "architectures")
            if check:
                out.append(check)
        if table == "chips":
            if "kind" in frame.columns:
                out.append(_in_set("kind", CHIP_KINDS, "kind must be GPU, CPU or empty (a GPU)"))
            out += [c for c in (_references(frame, ref, "products", "products"),
                                _references(frame, ref, "architecture", "architectures")) if c]
            if "process_nm" in frame.columns:
                out.append(_computed(frame, "process_nm", _row_messages(frame, _process_message), "process_nm"))
        if table == "systems":
            check = _references(frame, ref, "gpu_product", "products")
            if check:
                out.append(check)
            messages = _row_messages(frame, lambda r: "" if r["gpu_product"].strip() or r["notes"].strip() else
                                     "gpu_product is empty: name the product, or say in notes why not")
            out.append(_computed(frame, "gpu_named", messages, "gpu_product"))
        return out
    return checks


def _threads_message(row: Mapping[str, str]) -> str:
    """Resident threads per SM are resident warps times the warp size."""
    try:
        threads, warps, size = (float(row.get(c, "") or "nan") for c in
                                ("max_threads_per_sm", "max_warps_per_sm", "warp_size"))
    except ValueError:
        return ""
    if threads == threads and warps == warps and size == size and threads != warps * size:
        return f"max_threads_per_sm {threads:g} is not max_warps_per_sm x warp_size ({warps * size:g})"
    return ""


def _listed(row: Mapping[str, str], ref: _Tables) -> str:
    """The capability's architecture lists it in its compute_capability column (one fact, stated both ways)."""
    if "architectures" not in ref.all:
        return ""
    arch, capability = str(row.get("architecture", "")).strip(), str(row.get("capability", "")).strip()
    for record in ref.all["architectures"].to_dict("records"):
        if arch in (str(record.get("name", "")), *_items(str(record.get("aliases", "")))):
            listed = _items(str(record.get("compute_capability", "")))
            return "" if capability in listed else (
                f"architecture {arch} does not list compute capability {capability} in architectures.csv")
    return ""


def _process_message(row: Mapping[str, str]) -> str:
    """process_nm lists whole nanometre figures, among them every figure process_node states, and is filled
    whenever process_node is (the checker reads the node by these figures)."""
    node, said = str(row.get("process_node", "") or ""), split_items(row.get("process_nm"))
    if not node.strip():
        return "process_nm is filled but process_node is empty" if said else ""
    if not said:
        return f"process_node is {node!r} but process_nm is empty: give the nanometre figures it is called by"
    if any(not item.isdigit() for item in said):
        return f"process_nm must list whole nanometre figures separated by |, not {row.get('process_nm')!r}"
    missing = [n for n in re.findall(r"(\d+)\s*nm", node) if n not in said]
    return f"process_node {node!r} states {'/'.join(missing)} nm, which process_nm lacks" if missing else ""


def link_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    """links.csv: the standard columns (kind, per-lane, per-link, per-GPU figures) when the table has them."""
    out = [_computed(frame, "numbers", _row_messages(frame, lambda r: _number_message("links", r)), None,
                     found=[_filled(r, "links") for r in _records(frame)]),
           _computed(frame, "alias_everywhere", alias_messages(ref, "links"), "aliases"),
           _computed(frame, "id_everywhere", id_messages(ref, "links"), "link_id")]
    if "kind" in frame.columns:
        out.append(_in_set("kind", LINK_KINDS, "kind must be one of " + ", ".join(LINK_KINDS)))
    out += [c for c in (_references(frame, ref, "products", "products"),
                        _references(frame, ref, "architectures", "architectures")) if c]
    return out


def link_table_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    """Every check of links.csv: the columns every table has, then the link standard's own."""
    return [*_common_checks(frame, "links"), *link_checks(frame, ref)]


def _filled(row: Mapping[str, str], table: str) -> str:
    """The cells the number rule complains about, as column=value."""
    return ", ".join(f"{column}={row[column]}" for column, _m in _number_problems(table, row))


# ---- one name, one thing

# tables whose names an article may use, in the order an alias is first claimed
NAMED_TABLES: tuple[tuple[str, str], ...] = (
    ("vendors", "vendor_id"), ("products", "product_id"), ("series", "series_id"), ("terms", "term_id"),
    ("links", "link_id"), ("chips", "chip_id"), ("architectures", "architecture_id"), ("memory", "memory_id"),
    ("systems", "system_id"), ("compute_capabilities", "capability_id"),
)
# a memory type is also a term (terms.csv keeps its definition): the same id may repeat its aliases
SAME_THING = {frozenset({"terms", "memory"})}


def _key(alias: str) -> str:
    return "".join(alias.casefold().split())


def _same(a: tuple[str, str], b: tuple[str, str]) -> bool:
    return a == b or (a[1] == b[1] and frozenset({a[0], b[0]}) in SAME_THING)


def alias_messages(ref: _Tables, table: str) -> list[str]:
    """Per row of ``table``: its names (name and aliases) that a row of another table already uses."""
    owners: dict[str, tuple[str, str]] = {}
    mine: list[str] = []
    for name, id_column in NAMED_TABLES:
        if name not in ref.all or id_column not in ref.all[name].columns:
            continue
        for record in ref.all[name].reset_index(drop=True).to_dict("records"):
            owner = (name, str(record[id_column]))
            names = {_key(a): a for a in (str(record.get("name", "")), *_items(str(record.get("aliases", ""))))
                     if _key(a)}
            clashes = []
            for key, alias in names.items():
                first = owners.setdefault(key, owner)
                # products and series check clashes among themselves already (reference_rules._alias_messages)
                if not _same(first, owner) and (first[0] != name or name not in ("products", "series")):
                    clashes.append(f"alias {alias!r} also names {first[1]} in {first[0]}.csv")
            if name == table:
                mine.append("; ".join(clashes))
    return mine


FACT_TABLES: tuple[tuple[str, str], ...] = (("products", "product_id"), ("series", "series_id"),
                                            ("links", "link_id"), ("chips", "chip_id"),
                                            ("architectures", "architecture_id"), ("memory", "memory_id"),
                                            ("systems", "system_id"), ("compute_capabilities", "capability_id"))


def id_messages(ref: _Tables, table: str) -> list[str]:
    """Per row: an id another fact table already uses (``Reference.facts`` takes an id alone)."""
    owners: dict[str, str] = {}
    mine: list[str] = []
    for name, id_column in FACT_TABLES:
        if name not in ref.all or id_column not in ref.all[name].columns:
            continue
        for value in ref.all[name][id_column]:
            first = owners.setdefault(str(value), name)
            if name == table:
                mine.append(f"id {value!r} is also used in {first}.csv" if first != name else "")
    return mine


KNOWLEDGE_CHECKS: dict[str, Callable[[pd.DataFrame, _Tables], list[_Check]]] = {
    "links": link_table_checks, **{name: _table_checks(name) for name in KNOWLEDGE_TABLES},
}
