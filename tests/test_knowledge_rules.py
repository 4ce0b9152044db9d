"""The knowledge tables' rules: each rule passes on the real tables and fails on a row made to break it."""

from __future__ import annotations

import copy

import pandas as pd
import pytest

from pipeline.config import DEFAULT_REFERENCE_DIR
from pipeline.knowledge.validation import load_reference_tables, validate_tables
from pipeline.knowledge.validation.ge import _exists, _run_suite
from pipeline.knowledge.validation.knowledge_rules import KNOWLEDGE_CHECKS
from pipeline.knowledge.validation.reference_rules import _TABLE_CHECKS, OPTIONAL_COLUMNS, REQUIRED_COLUMNS, _Tables
from pipeline.knowledge.validation.results import Problem


@pytest.fixture(scope="module")
def tables() -> dict[str, pd.DataFrame]:
    return load_reference_tables(DEFAULT_REFERENCE_DIR)


def _problems(tables: dict[str, pd.DataFrame], name: str) -> list[Problem]:
    frame = tables[name].reset_index(drop=True)
    required = REQUIRED_COLUMNS.get(name) or OPTIONAL_COLUMNS[name]
    checks = [_exists(c) for c in required] + {**_TABLE_CHECKS, **KNOWLEDGE_CHECKS}[name](frame, _Tables(tables))
    return _run_suite(f"{name}.csv", frame, checks)


def _row(tables: dict[str, pd.DataFrame], name: str, key: str) -> int:
    id_column = {"chips": "chip_id", "architectures": "architecture_id", "memory": "memory_id",
                 "systems": "system_id", "links": "link_id", "compute_capabilities": "capability_id"}[name]
    return int(tables[name].index[tables[name][id_column] == key][0])


# fmt: off
# table, row id, column, bad value, the rule's message (a part of it)
BAD_CELLS = [
    ("chips", "gh100", "sms", "400", "sms must be within 1-300"),
    ("chips", "gh100", "sms", "132.5", "sms must be a whole number"),
    ("chips", "gh100", "transistors", "800", "transistors must be within 0.1-500 billion"),
    ("chips", "gh100", "transistors", "eighty", "transistors must be a number"),
    ("chips", "gh100", "die_size", "5000", "die_size must be within 20-1000 mm2"),
    ("chips", "gh100", "l2_cache_mb", "6000", "l2_cache_mb must be within 0.1-512 MB"),
    ("chips", "gh100", "cores_per_unit", "1024", "cores_per_unit must be within 1-256"),
    ("chips", "gh100", "unit", "", "unit must be one of SM, CU, Xe-core, AI Core when per-unit columns"),
    ("chips", "gh100", "unit", "SMX", "unit must be one of"),
    ("chips", "gh100", "vendor", "acme", "vendor must be a vendor_id from vendors.csv"),
    ("chips", "gh100", "architecture", "Zen 4", "architecture Zen 4 not found in architectures.csv"),
    ("chips", "gh100", "products", "nvidia_h100|nvidia_h999", "products nvidia_h999 not found in products.csv"),
    ("chips", "gh100", "aliases", "H100", "alias 'H100' also names nvidia_h100 in products.csv"),
    ("chips", "gh100", "aliases", "NVLink", "alias 'NVLink' also names nvlink in terms.csv"),
    ("architectures", "hopper", "aliases", "Hopper|Volta", "alias 'Volta' also names volta in architectures.csv"),
    ("chips", "gh100", "chip_id", "nvidia_h100", "id 'nvidia_h100' is also used in products.csv"),
    ("chips", "gh100", "chip_id", "ad102", "chip_id must be unique"),
    ("chips", "gh100", "source_url", "see the whitepaper", "source_url must be an http(s) URL"),
    ("chips", "gh100", "source_title", "", "source_title must not be empty"),
    ("chips", "ga100", "process_nm", "", "process_nm is empty"),
    ("chips", "ga100", "process_nm", "8", "states 7 nm, which process_nm lacks"),
    ("chips", "ga100", "process_nm", "7nm", "process_nm must list whole nanometre figures"),
    ("chips", "ponte_vecchio", "process_nm", "7", "process_nm is filled but process_node is empty"),
    ("architectures", "hopper", "tensor_core_generation", "4.5", "tensor_core_generation must be a whole number"),
    ("architectures", "hopper", "launch_year", "1899", "launch_year must be within 1990-2030"),
    ("architectures", "hopper", "registers_per_unit_kb", "4096", "registers_per_unit_kb must be within 16-1024"),
    ("architectures", "hopper", "vendor", "grace", "vendor must be a vendor_id"),
    ("architectures", "hopper", "aliases", "GH100", "alias 'GH100' also names gh100 in chips.csv"),
    ("memory", "hbm3", "unit", "die", "unit must be stack (HBM) or chip (GDDR)"),
    ("memory", "hbm3", "kind", "SRAM", "kind must be HBM or GDDR"),
    ("memory", "hbm3", "pin_rate_max_gbps", "640", "pin_rate_max_gbps must be within 0.1-64 Gbps"),
    ("memory", "hbm3", "aliases", "HBM3|GDDR7", "alias 'GDDR7' also names gddr7 in terms.csv"),
    ("systems", "dgx_h100", "gpu_product", "nvidia_h900", "gpu_product nvidia_h900 not found in products.csv"),
    ("systems", "dgx_h100", "gpu_count", "8.5", "gpu_count must be a whole number"),
    ("systems", "dgx_h100", "nvlink_per_gpu_gbs", "90000", "nvlink_per_gpu_gbs must be within 0.1-20000 GB/s"),
    ("systems", "dgx_h100", "aliases", "DGX A100", "alias 'DGX A100' also names dgx_a100 in systems.csv"),
    ("links", "nvlink_4", "kind", "usb", "kind must be one of pcie, nvlink"),
    ("links", "nvlink_4", "per_link_per_direction", "5000", "per_link_per_direction must be within 0.1-2000 GB/s"),
    ("links", "nvlink_4", "links_per_gpu", "eighteen", "links_per_gpu must be a number"),
    ("links", "nvlink_4", "architectures", "Hopper|Feynman", "architecture Feynman not found in architectures.csv"),
    ("links", "nvlink_4", "aliases", "NVLink 4|HBM3", "alias 'HBM3' also names hbm3 in terms.csv"),
    ("links", "pcie_4_x16", "per_lane_per_direction", "500", "per_lane_per_direction must be within 0.01-128 GB/s"),
    # issue 24: full-die make-up, SM/partition units, the CPU die, the compute capabilities
    ("chips", "gh100", "rops", "900", "rops must be within 0-512"),
    ("chips", "gh100", "tmus", "576.5", "tmus must be a whole number"),
    ("chips", "gh100", "memory_controller_width", "2048", "memory_controller_width must be within 16-1024 bit"),
    ("chips", "ga102", "sms_per_gpc", "40", "sms_per_gpc must be within 1-32"),
    ("chips", "grace", "kind", "DPU", "kind must be GPU, CPU or empty"),
    ("chips", "grace", "cpu_cores", "72.5", "cpu_cores must be a whole number"),
    ("chips", "grace", "cpu_memory_bandwidth_gbs", "fast", "cpu_memory_bandwidth_gbs must be a number"),
    ("chips", "ga100", "compute_capability", "8.5", "compute capability 8.5 not found in compute_capabilities.csv"),
    ("architectures", "ampere", "compute_capability", "8.0|8.6|8.8", "compute capability 8.8 not found"),
    ("architectures", "hopper", "warp_schedulers_per_partition", "16", "warp_schedulers_per_partition must be within"),
    ("architectures", "hopper", "shared_memory_per_unit_kb", "4096", "shared_memory_per_unit_kb must be within 8-512"),
    ("architectures", "volta", "ldst_per_partition", "0", "ldst_per_partition must be within 1-64"),
    ("compute_capabilities", "cc_8_0", "max_threads_per_sm", "4096", "is not max_warps_per_sm x warp_size"),
    ("compute_capabilities", "cc_8_0", "max_blocks_per_sm", "500", "max_blocks_per_sm must be within 1-64"),
    ("compute_capabilities", "cc_8_0", "registers_per_sm", "64K", "registers_per_sm must be a number"),
    ("compute_capabilities", "cc_8_0", "capability", "8", "capability must be major.minor"),
    ("compute_capabilities", "cc_8_0", "capability", "8.6", "capability must be unique"),
    ("compute_capabilities", "cc_8_0", "architecture", "Hopper", "Hopper does not list compute capability 8.0"),
    ("compute_capabilities", "cc_8_0", "architecture", "Zen 4", "architecture Zen 4 not found in architectures.csv"),
    ("compute_capabilities", "cc_8_0", "aliases", "8.0|H100", "alias 'H100' also names nvidia_h100 in products.csv"),
    ("compute_capabilities", "cc_8_0", "capability_id", "ga100", "id 'ga100' is also used in chips.csv"),
    ("compute_capabilities", "cc_8_0", "source_url", "the guide", "source_url must be an http(s) URL"),
]
# fmt: on


@pytest.mark.parametrize("name", ["chips", "architectures", "memory", "systems", "links", "compute_capabilities"])
def test_real_knowledge_tables_pass(tables: dict[str, pd.DataFrame], name: str) -> None:
    assert [p.describe() for p in _problems(tables, name)] == []


@pytest.mark.parametrize(("name", "key", "column", "value", "rule"), BAD_CELLS)
def test_each_rule_fails_on_a_bad_cell(tables: dict[str, pd.DataFrame], name: str, key: str, column: str,
                                       value: str, rule: str) -> None:
    broken = copy.deepcopy(dict(tables))
    row = _row(broken, name, key)
    broken[name].loc[row, column] = value
    problems = [p for p in _problems(broken, name) if rule in p.rule]
    assert problems, [p.describe() for p in _problems(broken, name)]
    assert any(p.row == row or p.row is None or p.rule.endswith("unique") for p in problems)


def test_a_memory_type_may_repeat_its_terms_aliases(tables: dict[str, pd.DataFrame]) -> None:
    terms = set(tables["terms"]["term_id"])
    assert set(tables["memory"]["memory_id"]) <= terms | {"hbm4"}
    assert [p.describe() for p in _problems(tables, "memory")] == []


def test_systems_without_a_product_must_say_why(tables: dict[str, pd.DataFrame]) -> None:
    broken = copy.deepcopy(dict(tables))
    row = _row(broken, "systems", "dgx_gh200")
    broken["systems"].loc[row, "notes"] = ""
    assert any("gpu_product is empty" in p.rule and p.row == row for p in _problems(broken, "systems"))


def test_whole_reference_with_a_bad_knowledge_row_is_rejected(tables: dict[str, pd.DataFrame]) -> None:
    broken = copy.deepcopy(dict(tables))
    broken["chips"].loc[0, "sms"] = "999"
    result = validate_tables(broken)
    assert not result.ok
    assert "chips.csv row 0: sms must be within 1-300 (found 'sms=999')" in result.summary().splitlines()
