"""The knowledge tables beside the product tables: chips, architectures, link standards, memory, systems, and the
CUDA programming limits by compute capability.

Each table is wide (one row per thing, one column per figure) because that is how whitepapers and standards state
them; this module says, once, which fact each column holds (attribute, unit, scope, and the unit a per-unit figure
is of) and turns a row into the same ``SpecRow`` facts that specs.csv gives for products.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

KNOWLEDGE_TABLES: tuple[str, ...] = ("chips", "architectures", "memory", "systems", "compute_capabilities")
# per: "" for whole-entity figures, else the unit a figure is of; "@unit" means the row's `unit` column (SM, CU...)
PER_VALUES: tuple[str, ...] = ("", "SM", "CU", "Xe-core", "AI Core", "partition", "TPC", "GPC", "stack", "chip",
                               "die", "link", "lane", "direction", "GPU", "memory_controller")


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
    _n("shared_memory_per_unit_kb", "shared_memory", "KB", per="@unit"),  # the most a kernel can configure
    _n("registers_per_unit_kb", "register_file", "KB", per="@unit"),
    _n("ldst_per_unit", "ldst_units", per="@unit"), _n("sfu_per_unit", "sfu_units", per="@unit"),
    _n("tmus_per_unit", "tmus", per="@unit"),
    _n("warp_schedulers_per_unit", "warp_schedulers", per="@unit"),
    _n("dispatch_per_unit", "dispatch_units", per="@unit"),
)
# one partition (processing block) of an SM: Maxwell and later have four (GP100 two)
_PER_PARTITION: tuple[FactColumn, ...] = (
    _n("fp32_per_partition", "fp32_cores", per="partition"), _n("int32_per_partition", "int32_cores", per="partition"),
    _n("fp64_per_partition", "fp64_cores", per="partition"),
    _n("tensor_per_partition", "tensor_cores", per="partition"),
    _n("ldst_per_partition", "ldst_units", per="partition"), _n("sfu_per_partition", "sfu_units", per="partition"),
    _n("warp_schedulers_per_partition", "warp_schedulers", per="partition"),
    _n("dispatch_per_partition", "dispatch_units", per="partition"),
    _n("registers_per_partition_kb", "register_file", "KB", per="partition"),
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
        _n("rops", "rops"), _n("tmus", "tmus"), _n("raster_engines", "raster_engines"),
        _n("memory_controllers", "memory_controllers"),
        _n("memory_controller_width", "memory_bus_width", "bit", per="memory_controller"),
        _n("sms_per_gpc", "sms_per_gpc"), _n("tpcs_per_gpc", "tpcs_per_gpc"), _n("sms_per_tpc", "sms_per_tpc"),
        # a CPU die (kind CPU: Grace): its cores and the memory it drives
        _t("kind", "chip_kind"), _n("cpu_cores", "cpu_cores"), _t("cpu_core", "cpu_core"),
        _t("cpu_memory_type", "cpu_memory_type"), _n("cpu_memory_size_gb", "cpu_memory_size", "GB"),
        _n("cpu_memory_bandwidth_gbs", "cpu_memory_bandwidth", "GB/s"),
        *_PER_UNIT, *_PER_PARTITION,
    ),
    "architectures": (
        _t("vendor", "manufacturer"), _n("launch_year", "launch_year"), _t("named_after", "named_after"),
        *_PER_UNIT, *_PER_PARTITION,
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
    # the CUDA C++ Programming Guide's limits per compute capability; per-SM limits are per "SM"
    "compute_capabilities": (
        _t("capability", "compute_capability"), _t("architecture", "architecture"),
        _n("warp_size", "warp_size"), _n("max_threads_per_block", "max_threads_per_block"),
        _n("max_block_dim_x", "max_block_dim_x"), _n("max_block_dim_y", "max_block_dim_y"),
        _n("max_block_dim_z", "max_block_dim_z"), _n("max_grid_dim_x", "max_grid_dim_x"),
        _n("max_grid_dim_y", "max_grid_dim_y"), _n("max_grid_dim_z", "max_grid_dim_z"),
        _n("max_blocks_per_sm", "max_blocks_per_sm", per="SM"), _n("max_warps_per_sm", "max_warps_per_sm", per="SM"),
        _n("max_threads_per_sm", "max_threads_per_sm", per="SM"),
        _n("registers_per_sm", "registers_per_sm", per="SM"),
        _n("max_registers_per_block", "max_registers_per_block"),
        _n("max_registers_per_thread", "max_registers_per_thread"),
        _n("shared_memory_per_sm_kb", "shared_memory", "KB", per="SM"),
        _n("max_shared_memory_per_block_kb", "max_shared_memory_per_block", "KB"),
        _n("l1_per_sm_kb", "cache_size", "KB", "L1", "SM"),
        _n("constant_memory_kb", "constant_memory", "KB"),
        _n("local_memory_per_thread_kb", "local_memory_per_thread", "KB"),
        _n("shared_memory_banks", "shared_memory_banks"),
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
                             "systems": "system_id", "links": "link_id", "compute_capabilities": "capability_id"}
# the limits a compute capability sets (compute_capabilities.csv): a chip, an architecture or a card has them
# through its compute capability
LIMIT_ATTRIBUTES: frozenset[str] = frozenset(
    c.attribute for c in FACT_COLUMNS["compute_capabilities"] if c.numeric)
# the limits whose name says what they are per (max_threads_per_sm): asked for per SM or as a whole figure alike;
# shared_memory and cache_size (L1) are also the chips' and architectures' per-SM columns and are asked per SM
NAMED_LIMITS: frozenset[str] = LIMIT_ATTRIBUTES - {"shared_memory", "cache_size"}


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
