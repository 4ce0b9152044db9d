"""Reference.entity / Reference.facts over the knowledge tables (chips, architectures, links, memory, systems)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.config import DEFAULT_REFERENCE_DIR
from pipeline.knowledge.columns import FACT_COLUMNS, KNOWLEDGE_TABLES
from pipeline.knowledge.reference import Reference, load_reference
from pipeline.knowledge.validation.reference_rules import UNITS

# fmt: off
ENTITIES = [
    ("GH100", "chip", "gh100"), ("gh100", "chip", "gh100"), ("Navi21", "chip", "navi_21"),
    ("Hopper", "architecture", "hopper"), ("Hopper架构", "architecture", "hopper"),
    ("Ada", "architecture", "ada_lovelace"), ("CDNA3", "architecture", "cdna_3"),
    ("PCIe 4.0", "link", "pcie_4_x16"), ("PCIe 5.0 x8", "link", "pcie_5_x8"), ("PCIe 6.0", "link", "pcie_6_x16"),
    ("NVLink 4", "link", "nvlink_4"), ("第三代NVSwitch", "link", "nvswitch_3"), ("NVLink-C2C", "link", "nvlink_c2c"),
    ("HBM3", "memory", "hbm3"), ("HBM2E", "memory", "hbm2e"), ("GDDR7", "memory", "gddr7"),
    ("DGX H100", "system", "dgx_h100"), ("GB200 NVL72", "system", "gb200_nvl72"),
    ("DGX GB200", "system", "gb200_nvl72"),
    ("NVIDIA DGX H100", "system", "dgx_h100"), ("HGX H100", "system", "hgx_h100_8"),
    ("Fermi", "architecture", "fermi"), ("费米架构", "architecture", "fermi"),
    ("Tesla架构", "architecture", "tesla_architecture"), ("Tesla微架构", "architecture", "tesla_architecture"),
    ("Rubin", "architecture", "rubin"), ("GCN 1.0", "architecture", "gcn_1"), ("GCN 1.1", "architecture", "gcn_2"),
    ("GCN3", "architecture", "gcn_3"), ("Polaris架构", "architecture", "gcn_4"), ("Vega架构", "architecture", "gcn_5"),
    ("H100", "product", "nvidia_h100"), ("英伟达H100", "product", "nvidia_h100"),
    ("RTX 30系列", "series", "nvidia_rtx_30"), ("NVLink", "term", "nvlink"),
]
NOT_FOUND = ["H2O", "GH1000", "PCIe 9.0", "DGX H900", "", "   ", "Tesla", "GCN"]  # the brand is no architecture
FACTS = [  # entity, attribute, per, expected values (any order)
    ("gh100", "sm_count", "", {144}), ("gh100", "transistors", "", {80}), ("gh100", "die_size", "", {814}),
    ("gh100", "cache_size", "", {60}), ("gh100", "process_node", "", {"4N"}), ("gh100", "foundry", "", {"TSMC"}),
    ("gh100", "fp32_cores", "SM", {128}), ("gh100", "cache_size", "SM", {256}),
    ("ad104", "tensor_cores", "", {240}), ("ad104", "fp32_cores", "SM", {128}),  # from the architecture row
    ("nvidia_h100", "fp64_cores", "SM", {64}),  # a product's per-SM figures are its chip's
    ("hopper", "tensor_core_generation", "", {4}), ("volta", "tensor_cores", "SM", {8}),
    ("ampere", "fp32_cores", "SM", {64, 128}),  # GA100 and GA10x SMs differ: one row per chip
    ("ampere", "compute_capability", "", {"8.0", "8.6", "8.7"}), ("hopper", "named_after", "", None),
    ("volta", "introduced", "", {"Tensor Core", "Independent Thread Scheduling", "NVSwitch"}),
    ("pcie_4_x16", "interconnect_bandwidth", "", {31.5, 63}), ("pcie_4_x16", "interconnect_bandwidth", "lane", {1.969}),
    ("pcie_5_x16", "transfer_rate", "lane", {32}), ("nvlink_4", "interconnect_bandwidth", "link", {25, 50}),
    ("nvlink_4", "links_per_gpu", "", {18}), ("nvlink_5", "interconnect_bandwidth", "", {900, 1800}),
    ("infinity_fabric_4", "interconnect_bandwidth", "GPU", {896}),
    ("hbm3", "pin_rate", "lane", {6.4}), ("hbm3", "memory_bandwidth", "stack", {819}),
    ("gddr7", "memory_size", "chip", {2, 3}),
    ("dgx_h100", "gpu_count", "", {8}), ("dgx_h100", "memory_size", "", {640}),
    ("dgx_h100", "interconnect_bandwidth", "GPU", {900}), ("gb200_nvl72", "interconnect_bandwidth", "", {130000}),
    ("dgx_b200", "tdp", "", {14300}),
    # issue 24: full dies, SM and partition make-up, the CPU of a superchip (from the whitepapers and datasheets)
    ("gf100", "cuda_cores", "", {512}), ("gf100", "raster_engines", "", {4}), ("gf100", "rops", "", {48}),
    ("gf100", "cache_size", "", {0.75}),
    ("g80", "sm_count", "", {16}), ("g80", "rops", "", {24}), ("gt200", "cuda_cores", "", {240}),
    ("gt200", "tmus", "", {80}), ("gt200", "memory_controllers", "", {8}), ("gk104", "tmus", "", {128}),
    ("gk110", "memory_bus_width", "memory_controller", {64}), ("gh100", "memory_controllers", "", {12}),
    ("gh100", "memory_bus_width", "memory_controller", {512}), ("ga102", "rops", "", {112}),
    ("ga102", "sms_per_gpc", "", {12}), ("ad102", "tmus", "", {576}), ("ad102", "raster_engines", "", {12}),
    ("tu102", "tpcs_per_gpc", "", {6}), ("gb202", "memory_controllers", "", {16}), ("fiji", "hbm_stacks", "", {4}),
    ("tahiti", "stream_processors", "", {2048}), ("navi_10", "tmus", "", {160}),
    ("fermi", "cuda_cores", "SM", {32}), ("fermi", "warp_schedulers", "SM", {2}), ("fermi", "ldst_units", "SM", {16}),
    ("fermi", "sfu_units", "SM", {4}), ("kepler", "dispatch_units", "SM", {8}), ("kepler", "tmus", "SM", {16}),
    ("maxwell", "dispatch_units", "partition", {2}), ("maxwell", "sfu_units", "partition", {8}),
    ("volta", "fp64_cores", "partition", {8}), ("volta", "tensor_cores", "partition", {2}),
    ("turing", "ldst_units", "partition", {4}), ("hopper", "shared_memory", "SM", {228}),
    ("hopper", "fp32_cores", "partition", {32}), ("ampere", "int32_cores", "partition", {16}),
    ("pascal", "fp32_cores", "partition", {32}), ("gp100", "partitions", "SM", {2}),
    ("tesla_architecture", "cuda_cores", "SM", {8}), ("tesla_architecture", "fp64_cores", "SM", {0, 1}),
    ("nvidia_rtx_4090", "warp_schedulers", "partition", {1}), ("cdna_4", "shared_memory", "CU", {160}),
    ("grace", "cpu_cores", "", {72}), ("nvidia_gh200", "cpu_cores", "", {72}),
    ("nvidia_gb200", "cpu_memory_size", "", {480}), ("nvidia_gh200", "cpu_memory_bandwidth", "", {512}),
    ("rubin", "tensor_core_generation", "", {6}), ("rubin", "nvlink_generation", "", {6}),
]
# fmt: on


@pytest.mark.parametrize(("name", "kind", "ref_id"), ENTITIES)
def test_entity_finds_every_kind(ref: Reference, name: str, kind: str, ref_id: str) -> None:
    entity = ref.entity(name)
    assert entity is not None, name
    assert (entity.kind, entity.id) == (kind, ref_id)


@pytest.mark.parametrize("name", NOT_FOUND)
def test_entity_is_exact_never_fuzzy(ref: Reference, name: str) -> None:
    assert ref.entity(name) is None


@pytest.mark.parametrize(("entity_id", "attribute", "per", "expected"), FACTS)
def test_facts(ref: Reference, entity_id: str, attribute: str, per: str, expected: set | None) -> None:
    rows = ref.facts(entity_id, attribute, per)
    assert rows, (entity_id, attribute, per)
    assert all(r.source_url.startswith("https://") and r.source_title for r in rows)
    if expected is not None:
        assert {r.value for r in rows} == expected


def test_facts_of_an_architecture_name_the_chip_as_variant(ref: Reference) -> None:
    rows = ref.facts("ampere", "fp64_cores", "SM")
    assert {(r.variant, r.value) for r in rows} >= {("GA100", 32.0), ("GA102", 2.0)}


def test_a_superchip_cpu_is_never_its_gpu_chip(ref: Reference) -> None:
    assert ref.chips_of("nvidia_gh200") == ["gh100"] and ref.cpus_of("nvidia_gh200") == ["grace"]
    assert ref.cpus_of("nvidia_h100") == [] and ref.facts("nvidia_h100", "cpu_cores") == []
    assert ref.facts("nvidia_gh200", "memory_size")  # the GPU's HBM, as before
    assert all(r.unit == "GB" and r.value != 480 for r in ref.facts("nvidia_gh200", "memory_size"))


def test_facts_keep_whole_and_per_unit_apart(ref: Reference) -> None:
    assert ref.facts("gh100", "fp32_cores") == []
    assert ref.facts("nvidia_h100", "cuda_cores", "SM") == [r for r in ref.facts("gh100", "cuda_cores", "SM")]
    assert ref.facts("no_such_thing", "sm_count") == []


def test_existing_properties_keep_their_names_and_gain_the_tables(ref: Reference) -> None:
    for p in ref.products.values():
        if p.architecture:
            assert p.architecture in ref.architectures.values()
    assert {"GK110", "AD107", "GB203", "Navi 48"} <= set(ref.chips.values())
    assert {"Kepler", "RDNA 4", "Xe-HPG", "Blackwell Ultra"} <= set(ref.architectures.values())
    assert ref.chips_of("nvidia_h100") == ["gh100"]
    assert "nvidia_a100" in ref.products_with_chip("GA100")


def test_reference_without_the_knowledge_tables_still_loads(tmp_path: Path) -> None:
    folder = tmp_path / "reference"
    shutil.copytree(DEFAULT_REFERENCE_DIR, folder)
    for name in KNOWLEDGE_TABLES:
        (folder / f"{name}.csv").unlink()
    ref = load_reference(folder)
    assert ref.entity("H100") is not None and ref.entity("GH100") is not None  # chip named in products.csv
    assert ref.entity("DGX H100") is None
    assert ref.facts("nvidia_h100", "architecture")
    assert ref.facts("gh100", "sm_count") == []


def test_one_unit_per_attribute_across_tables() -> None:
    units: dict[tuple[str, str], set[str]] = {}
    for columns in FACT_COLUMNS.values():
        for col in columns:
            if col.numeric and not col.attribute.startswith("@"):
                units.setdefault((col.attribute, col.scope if col.attribute == "cache_size" else ""), set()).add(
                    col.unit)
    clashes = {k: v for k, v in units.items() if len(v) > 1}
    assert not clashes, clashes
    for (attribute, scope), unit in units.items():
        if attribute in UNITS and not (attribute == "cache_size" and scope == "L1"):
            assert unit <= UNITS[attribute], (attribute, unit, UNITS[attribute])


def test_every_knowledge_row_has_a_source(ref: Reference) -> None:
    for kind, items in ref.items.items():
        for item in items.values():
            assert item.source_url.startswith("https://") and item.source_title, (kind, item.item_id)
