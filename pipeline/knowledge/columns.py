"""The knowledge tables beside the product tables: chips, architectures, link standards, memory, systems.

Each table is wide (one row per thing, one column per figure) because that is how whitepapers and standards state
them; this module says, once, which fact each column holds (attribute, unit, scope, and the unit a per-unit figure
is of) and turns a row into the same ``SpecRow`` facts that specs.csv gives for products.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

KNOWLEDGE_TABLES: tuple[str, ...] = ("chips", "architectures", "memory", "systems")
# per: "" for whole-entity figures, else the unit a figure is of; "@unit" means the row's `unit` column (SM, CU...)
PER_VALUES: tuple[str, ...] = ("", "SM", "CU", "Xe-core", "AI Core", "partition", "TPC", "GPC", "stack", "chip",
                               "die", "link", "lane", "direction", "GPU")


@dataclass(frozen=True)
class FactColumn:
    column: str
    attribute: str
    unit: str = ""
    scope: str = ""
    per: str = ""
    numeric: bool = True
    multi: bool = False  # a `|` list: one fact per item


def _n(column: str, attribute: str, unit: str = "", scope: str = "", per: str = "") -> FactColumn:
    return FactColumn(column, attribute, unit, scope, per)


def _t(column: str, attribute: str, scope: str = "", per: str = "", multi: bool = False) -> FactColumn:
    return FactColumn(column, attribute, "", scope, per, numeric=False, multi=multi)


# the per-SM / per-CU columns chips.csv and architectures.csv share; "cores" is CUDA cores per SM or stream
# processors per CU (the attribute follows the row's unit)
_PER_UNIT: tuple[FactColumn, ...] = (
    _n("cores_per_unit", "@cores", per="@unit"),
    _n("fp32_per_unit", "fp32_cores", per="@unit"),
    _n("int32_per_unit", "int32_cores", per="@unit"),
    _n("fp64_per_unit", "fp64_cores", per="@unit"),
    _n("tensor_per_unit", "tensor_cores", per="@unit"),
    _n("rt_per_unit", "rt_cores", per="@unit"),
    _n("partitions_per_unit", "partitions", per="@unit"),
    _n("l1_per_unit_kb", "cache_size", "KB", "L1", "@unit"),
    _n("registers_per_unit_kb", "register_file", "KB", per="@unit"),
)

FACT_COLUMNS: dict[str, tuple[FactColumn, ...]] = {
    "chips": (
        _t("vendor", "manufacturer"), _t("architecture", "architecture"),
        _n("gpcs", "gpc_count"), _n("tpcs", "tpc_count"), _n("sms", "sm_count"), _n("compute_units", "compute_units"),
        _n("xe_cores", "xe_cores"),
        _n("cuda_cores", "cuda_cores"), _n("stream_processors", "stream_processors"),
        _n("tensor_cores", "tensor_cores"), _n("rt_cores", "rt_cores"), _n("fp64_cores", "fp64_cores"),
        _n("l2_cache_mb", "cache_size", "MB", "L2"), _n("infinity_cache_mb", "cache_size", "MB", "Infinity Cache"),
        _n("memory_bus_width", "memory_bus_width", "bit"), _n("hbm_stacks", "hbm_stacks"),
        _n("transistors", "transistors", "billion"), _n("die_size", "die_size", "mm2"),
        _t("process_node", "process_node"), _t("process_nm", "process_nm", multi=True),
        _t("foundry", "foundry"), _n("launch_year", "launch_year"),
        _n("dies_per_package", "die_count"), _t("compute_capability", "compute_capability"),
        *_PER_UNIT,
    ),
    "architectures": (
        _t("vendor", "manufacturer"), _n("launch_year", "launch_year"), _t("named_after", "named_after"),
        *_PER_UNIT,
        _n("ldst_per_partition", "ldst_units", per="partition"), _n("sfu_per_partition", "sfu_units", per="partition"),
        _n("tensor_core_generation", "tensor_core_generation"), _n("rt_core_generation", "rt_core_generation"),
        _n("transformer_engine_generation", "transformer_engine_generation"),
        _n("nvlink_generation", "nvlink_generation"),
        _t("compute_capability", "compute_capability", multi=True),
        _t("introduced", "introduced", multi=True),
    ),
    "memory": (
        _t("standard", "standard"), _n("year", "launch_year"),
        _n("pin_rate_min_gbps", "pin_rate", "Gbps", "min", "lane"),
        _n("pin_rate_max_gbps", "pin_rate", "Gbps", "max", "lane"),
        _n("interface_width_bits", "memory_bus_width", "bit", per="@unit"),
        _n("bandwidth_max_gbs", "memory_bandwidth", "GB/s", "max", "@unit"),
        _n("capacity_min_gb", "memory_size", "GB", "min", "@unit"),
        _n("capacity_max_gb", "memory_size", "GB", "max", "@unit"),
        _n("max_stack_height", "stack_height", "", "max", "@unit"),
    ),
    "systems": (
        _t("vendor", "manufacturer"), _t("gpu_product", "gpu"), _t("cpu", "cpu"), _n("gpu_count", "gpu_count"),
        _n("cpu_count", "cpu_count"), _n("gpu_memory_gb", "memory_size", "GB"),
        _n("unified_memory_gb", "memory_size", "GB", "unified"),
        _n("nvlink_per_gpu_gbs", "interconnect_bandwidth", "GB/s", "bidirectional", "GPU"),
        _n("nvlink_total_gbs", "interconnect_bandwidth", "GB/s", "bidirectional"),
        _n("nvswitch_count", "nvswitch_count"), _n("power_w", "tdp", "W"), _n("launch_year", "launch_year"),
        _n("fp8_tflops", "fp8", "TFLOPS", "sparse"), _n("fp4_tflops", "fp4", "TFLOPS", "sparse"),
    ),
    "links": (
        _n("transfer_rate_gts", "transfer_rate", "GT/s", per="lane"),
        _n("per_lane_per_direction", "interconnect_bandwidth", "GB/s", "per_direction", "lane"),
        _n("per_direction", "interconnect_bandwidth", "GB/s", "per_direction"),
        _n("bidirectional", "interconnect_bandwidth", "GB/s", "bidirectional"),
        _n("per_link_per_direction", "interconnect_bandwidth", "GB/s", "per_direction", "link"),
        _n("per_link_bidirectional", "interconnect_bandwidth", "GB/s", "bidirectional", "link"),
        _n("lanes", "lanes"), _n("lanes_per_link", "lanes", per="link"), _n("links_per_gpu", "links_per_gpu"),
        _n("per_gpu_per_direction", "interconnect_bandwidth", "GB/s", "per_direction", "GPU"),
        _n("per_gpu_bidirectional", "interconnect_bandwidth", "GB/s", "bidirectional", "GPU"),
        _t("generation", "generation"), _n("launch_year", "launch_year"),
        _t("architectures", "architecture", multi=True),
    ),
}
# the attribute a per-unit "cores" column holds, by the row's unit
CORES_BY_UNIT: dict[str, str] = {"SM": "cuda_cores", "CU": "stream_processors"}
ID_COLUMN: dict[str, str] = {"chips": "chip_id", "architectures": "architecture_id", "memory": "memory_id",
                             "systems": "system_id", "links": "link_id"}


@dataclass(frozen=True)
class Fact:
    attribute: str
    scope: str
    per: str
    value: float | str
    unit: str


def _number(cell: str) -> float | None:
    try:
        return float(cell.replace(",", ""))
    except ValueError:
        return None


def row_facts(table: str, row: Mapping[str, str]) -> Iterator[Fact]:
    """The facts one row of ``table`` states (empty cells state nothing; a feature list gives one fact each)."""
    unit_of_row = (row.get("unit") or "").strip()
    for col in FACT_COLUMNS[table]:
        cell = str(row.get(col.column, "") or "").strip()
        if not cell:
            continue
        per = unit_of_row if col.per == "@unit" else col.per
        if col.per == "@unit" and not per:
            continue
        attribute = col.attribute
        if attribute == "@cores":
            attribute = CORES_BY_UNIT.get(per, "fp32_cores")
        if col.multi:
            for item in split_items(cell):
                yield Fact(attribute, col.scope, per, item, col.unit)
            continue
        value: float | str = cell
        if col.numeric:
            number = _number(cell)
            if number is None:
                continue
            value = number
        yield Fact(attribute, col.scope, per, value, col.unit)


def split_items(cell: str | None) -> list[str]:
    return [p.strip() for p in str(cell or "").split("|") if p.strip()]
