"""The cards of issue 11 and the fixes of the reference audit, asserted row by row on the tables themselves.

Each audit fix is one (product, variant, attribute, scope, value) case; each card of the issue has rows and the
core attributes its vendor publishes, or a note in its rows saying the vendor publishes none.
"""

from __future__ import annotations

import pandas as pd
import pytest

from pipeline.api import check_text
from pipeline.config import DEFAULT_REFERENCE_DIR

REF = DEFAULT_REFERENCE_DIR


def _table(name: str) -> pd.DataFrame:
    return pd.read_csv(REF / f"{name}.csv", dtype=str, keep_default_na=False)


SPECS, PRODUCTS, SERIES, VENDORS, PRECISIONS = (_table(t) for t in ("specs", "products", "series", "vendors",
                                                                        "precisions"))

# fmt: off
CARDS = (
    "nvidia_tesla_k40", "nvidia_tesla_m60", "nvidia_titan_v", "nvidia_titan_xp", "nvidia_quadro_rtx_6000",
    "nvidia_quadro_rtx_8000", "nvidia_rtx_a4000", "nvidia_rtx_a5000", "nvidia_l20", "nvidia_h20", "nvidia_b100",
    "nvidia_gh200", "nvidia_rtx_4090_d", "nvidia_rtx_4080_super", "nvidia_rtx_4070_ti", "nvidia_rtx_4070_super",
    "nvidia_rtx_4070_ti_super", "nvidia_rtx_4060", "nvidia_rtx_5080", "nvidia_rtx_5070_ti", "nvidia_rtx_5070",
    "nvidia_rtx_5060_ti", "amd_rx_7900_gre", "amd_rx_7800_xt", "amd_rx_7700_xt", "amd_rx_7600", "amd_rx_9070_xt",
    "amd_rx_9070", "amd_rx_9060_xt", "amd_mi250", "amd_mi300a", "amd_mi350x", "amd_mi355x", "intel_arc_a770",
    "intel_arc_b580", "intel_max_1550", "huawei_ascend_910b", "huawei_ascend_910c", "mthreads_mtt_s80",
    "mthreads_mtt_s4000",
    # completed: partial rows before the audit
    "nvidia_a800", "nvidia_h800", "nvidia_b200", "nvidia_gb200", "intel_gaudi_2", "intel_gaudi_3",
    "nvidia_rtx_a6000", "nvidia_rtx_6000_ada",
    # cards of articles on running AI models at home
    "nvidia_gtx_1080_ti", "nvidia_gtx_1080", "nvidia_gtx_1070", "nvidia_gtx_1060", "nvidia_gtx_1660_ti",
    "nvidia_gtx_1660_super", "nvidia_rtx_2060", "nvidia_rtx_2060_super", "nvidia_rtx_2070", "nvidia_rtx_2070_super",
    "nvidia_rtx_2080", "nvidia_rtx_2080_super", "nvidia_rtx_3060_ti", "nvidia_rtx_3070_ti", "nvidia_rtx_3050",
    "nvidia_rtx_4000_ada", "nvidia_rtx_a2000", "nvidia_a16",
)
CORE = ("architecture", "memory_size", "memory_type", "memory_bandwidth", "tdp", "launch_year")
# a core attribute a card lacks, and the words of the note that says why (in one of the card's rows)
WITHOUT = {
    "huawei_ascend_910b": (CORE[1:], "publishes no chip datasheet"),
    "huawei_ascend_910c": (CORE[1:], "publishes no chip datasheet"),
    "nvidia_gb200":       (("tdp",), "Superchip power not stored"),
    "nvidia_gh200":       ((), ""),
    "nvidia_tesla_m60":   (("memory_bandwidth",), "memory bandwidth not published by NVIDIA"),
    "intel_gaudi_2":      ((), ""),
}
# NVIDIA cards whose core count NVIDIA publishes; the others say so
CORES_UNPUBLISHED = {
    "nvidia_h20": "core counts not published", "nvidia_l20": "no CUDA-core count published",
    "nvidia_b100": "publishes no core counts", "nvidia_b200": "", "nvidia_gb200": "", "nvidia_gh200": "",
    "nvidia_h800": "",
}

# (product, variant, attribute, scope, value): one row per fix of reference_errors.csv
AUDIT_FIXES = [
    # 1 L4: 58 SMs enabled, not the full AD104
    ("nvidia_l4",          "base",       "tensor_cores",     "",               "232"),
    ("nvidia_l4",          "base",       "cuda_cores",       "",               "7424"),
    ("nvidia_l4",          "base",       "sm_count",         "",               "58"),
    # 2 H100 NVL: six HBM3 stacks; the 5120-bit row is per variant now
    ("nvidia_h100",        "NVL",        "memory_bus_width", "",               "6144"),
    ("nvidia_h100",        "SXM5",       "memory_bus_width", "",               "5120"),
    ("nvidia_h100",        "PCIe",       "memory_bus_width", "",               "5120"),
    # 3 P100 12GB: 6 of 8 memory controllers, 512 KB of L2 each
    ("nvidia_tesla_p100",  "PCIe 12GB",  "cache_size",       "L2",             "3"),
    ("nvidia_tesla_p100",  "PCIe 16GB",  "cache_size",       "L2",             "4"),
    ("nvidia_tesla_p100",  "SXM2 16GB",  "cache_size",       "L2",             "4"),
    # 4 T4: NVIDIA publishes both
    ("nvidia_t4",          "base",       "memory_bandwidth", "datasheet",      "300"),
    ("nvidia_t4",          "base",       "memory_bandwidth", "product-brief",  "320"),
    # 5 MI250X: '500W | 560W Peak'
    ("amd_mi250x",         "base",       "tdp",              "typical",        "500"),
    ("amd_mi250x",         "base",       "tdp",              "peak",           "560"),
    # 6 H800
    ("nvidia_h800",        "base",       "interconnect_bandwidth", "NVLink",   "400"),
    ("nvidia_h800",        "SXM5",       "fp64",             "dense",          "1"),
    ("nvidia_h800",        "PCIe",       "fp64",             "dense",          "0.8"),
    ("nvidia_h800",        "SXM5",       "fp32",             "dense",          "67"),
    ("nvidia_h800",        "PCIe",       "fp32",             "dense",          "51"),
    ("nvidia_h800",        "base",       "memory_size",      "",               "80"),
    ("nvidia_h800",        "SXM5",       "memory_type",      "",               "HBM3"),
    ("nvidia_h800",        "SXM5",       "memory_bandwidth", "",               "3350"),
    ("nvidia_h800",        "PCIe",       "memory_type",      "",               "HBM2e"),
    ("nvidia_h800",        "PCIe",       "memory_bandwidth", "",               "2000"),
    ("nvidia_h800",        "SXM5",       "tdp",              "",               "700"),
    ("nvidia_h800",        "PCIe",       "tdp",              "",               "350"),
    # 7 A800
    ("nvidia_a800",        "40GB PCIe",  "memory_size",      "",               "40"),
    ("nvidia_a800",        "80GB PCIe",  "memory_size",      "",               "80"),
    ("nvidia_a800",        "80GB SXM4",  "memory_size",      "",               "80"),
    ("nvidia_a800",        "40GB PCIe",  "memory_bandwidth", "",               "1555"),
    ("nvidia_a800",        "80GB PCIe",  "memory_bandwidth", "",               "1935"),
    ("nvidia_a800",        "80GB SXM4",  "memory_bandwidth", "",               "2039"),
    ("nvidia_a800",        "40GB PCIe",  "tdp",              "passive",        "250"),
    ("nvidia_a800",        "80GB PCIe",  "tdp",              "",               "300"),
    ("nvidia_a800",        "80GB SXM4",  "tdp",              "",               "400"),
    ("nvidia_a800",        "base",       "fp16",             "dense",          "312"),
    ("nvidia_a800",        "base",       "interconnect_bandwidth", "NVLink",   "400"),
    # 8 Tensor Cores and L2 NVIDIA publishes
    ("nvidia_rtx_5090",    "base",       "tensor_cores",     "",               "680"),
    ("nvidia_rtx_5090",    "base",       "cache_size",       "L2",             "96"),
    ("nvidia_rtx_3090_ti", "base",       "tensor_cores",     "",               "336"),
    # 9 MI50 datasheet
    ("amd_mi50",           "base",       "memory_bandwidth", "",               "1024"),
    ("amd_mi50",           "base",       "tdp",              "",               "300"),
    # 10 variants a claim would otherwise be checked against a sibling for
    ("nvidia_tesla_v100",  "SXM3 32GB",  "tdp",              "",               "350"),
    ("nvidia_tesla_v100",  "SXM3 32GB",  "interface",        "",               "SXM3"),
    ("nvidia_rtx_3060",    "8GB",        "memory_bus_width", "",               "128"),
    ("nvidia_rtx_3060",    "8GB",        "memory_bandwidth", "",               "240"),
    ("nvidia_rtx_3060",    "12GB",       "memory_bandwidth", "",               "360"),
    ("nvidia_rtx_4070",    "GDDR6",      "memory_bandwidth", "",               "480"),
    ("nvidia_rtx_4070",    "GDDR6X",     "memory_bandwidth", "",               "504"),
    # 14 B200 and GB200
    ("nvidia_b200",        "base",       "memory_size",      "GTC 2024",       "192"),
    ("nvidia_b200",        "base",       "memory_size",      "HGX B200",       "180"),
    ("nvidia_b200",        "base",       "memory_bandwidth", "",               "8000"),
    ("nvidia_b200",        "base",       "tdp",              "",               "1000"),
    ("nvidia_gb200",       "base",       "memory_size",      "",               "384"),
    ("nvidia_gb200",       "base",       "memory_bandwidth", "",               "16000"),
    # 15 chips
    ("nvidia_a2",          "base",       "gpu_chip",         "",               "GA107"),
    ("nvidia_a10",         "base",       "gpu_chip",         "",               "GA102"),
    ("nvidia_a40",         "base",       "gpu_chip",         "",               "GA102"),
    ("nvidia_rtx_3060",    "base",       "gpu_chip",         "",               "GA106"),
    ("nvidia_rtx_5090",    "base",       "gpu_chip",         "",               "GB202"),
    # 16 variants of the added cards whose figures differ
    ("nvidia_gtx_1060",    "6GB",        "cuda_cores",       "",               "1280"),
    ("nvidia_gtx_1060",    "3GB",        "cuda_cores",       "",               "1152"),
    ("nvidia_rtx_3050",    "8GB",        "gpu_chip",         "",               "GA106"),
    ("nvidia_rtx_3050",    "6GB",        "gpu_chip",         "",               "GA107"),
    ("nvidia_rtx_3050",    "6GB",        "tdp",              "",               "70"),
    ("nvidia_rtx_3060_ti", "GDDR6",      "memory_bandwidth", "",               "448"),
    ("nvidia_rtx_3060_ti", "GDDR6X",     "memory_bandwidth", "",               "608"),
    ("nvidia_rtx_a2000",   "12GB",       "memory_size",      "",               "12"),
    ("nvidia_gtx_1660_ti", "base",       "tensor_cores",     "",               "0"),
    ("nvidia_a16",         "base",       "memory_size",      "",               "64"),
    ("nvidia_a16",         "base",       "memory_size",      "per-GPU",        "16"),
]
# rows the audit found wrong or too broad, which must be gone
REMOVED = [
    ("nvidia_h100",       "base", "memory_bus_width", ""),
    ("nvidia_tesla_p100", "base", "cache_size",       "L2"),
    ("nvidia_l4",         "base", "tensor_cores",     "", "240"),
]
# 11 precisions: (architecture, precision, supported)
PRECISION_CASES = [
    ("Blackwell", "FP4", "true"), ("Blackwell", "FP6", "true"), ("Hopper", "FP4", "false"),
    ("Ada Lovelace", "FP4", "false"), ("Ampere", "FP4", "false"), ("Turing", "INT4", "true"),
    ("Ampere", "INT4", "true"), ("Hopper", "INT4", "false"), ("Ampere", "SPARSITY", "true"),
    ("Turing", "SPARSITY", "false"), ("Volta", "SPARSITY", "false"), ("CDNA 3", "SPARSITY", "true"),
    ("CDNA 4", "FP4", "true"), ("CDNA 3", "FP4", "false"),
]
# an alias as articles write it, and the card it names
ALIASES = [
    ("H20", "nvidia_h20"), ("HGX H20", "nvidia_h20"), ("H200", "nvidia_h200"), ("4090D", "nvidia_rtx_4090_d"),
    ("RTX 4090 D", "nvidia_rtx_4090_d"), ("RTX 4090", "nvidia_rtx_4090"),
    ("RTX 4070 Ti SUPER", "nvidia_rtx_4070_ti_super"),
    ("RTX 4070 Ti", "nvidia_rtx_4070_ti"), ("RTX 4070", "nvidia_rtx_4070"), ("RTX 4060", "nvidia_rtx_4060"),
    ("RTX 4060 Ti", "nvidia_rtx_4060_ti"), ("RTX 5070 Ti", "nvidia_rtx_5070_ti"),
    ("昇腾910B", "huawei_ascend_910b"),
    ("910B", "huawei_ascend_910b"), ("昇腾910", "huawei_ascend_910"), ("昇腾910C", "huawei_ascend_910c"),
    ("MTT S4000", "mthreads_mtt_s4000"), ("S4000", "mthreads_mtt_s4000"), ("摩尔线程MTT S80", "mthreads_mtt_s80"),
    ("Max 1550", "intel_max_1550"), ("Gaudi2", "intel_gaudi_2"), ("Arc A770", "intel_arc_a770"),
    ("MI250", "amd_mi250"), ("MI250X", "amd_mi250x"), ("MI300A", "amd_mi300a"), ("MI355X", "amd_mi355x"),
    ("RX 7900 GRE", "amd_rx_7900_gre"), ("RX 9070 XT", "amd_rx_9070_xt"), ("RX 9070", "amd_rx_9070"),
    ("GH200", "nvidia_gh200"), ("B100", "nvidia_b100"), ("Quadro RTX 8000", "nvidia_quadro_rtx_8000"),
    ("TITAN V", "nvidia_titan_v"), ("K40", "nvidia_tesla_k40"), ("L20", "nvidia_l20"),
    ("GTX 1080 Ti", "nvidia_gtx_1080_ti"), ("1080Ti", "nvidia_gtx_1080_ti"), ("GTX1080", "nvidia_gtx_1080"),
    ("GTX 1070", "nvidia_gtx_1070"), ("GTX 1060", "nvidia_gtx_1060"), ("GTX 1660 Ti", "nvidia_gtx_1660_ti"),
    ("1660S", "nvidia_gtx_1660_super"), ("GTX 1660 Super", "nvidia_gtx_1660_super"), ("RTX 2060", "nvidia_rtx_2060"),
    ("RTX 2060 SUPER", "nvidia_rtx_2060_super"), ("2070S", "nvidia_rtx_2070_super"), ("RTX 2070", "nvidia_rtx_2070"),
    ("RTX 2080", "nvidia_rtx_2080"), ("RTX 2080 Ti", "nvidia_rtx_2080_ti"), ("RTX 2080 SUPER", "nvidia_rtx_2080_super"),
    ("RTX 3060 Ti", "nvidia_rtx_3060_ti"), ("RTX 3060", "nvidia_rtx_3060"), ("3070Ti", "nvidia_rtx_3070_ti"),
    ("RTX 3050", "nvidia_rtx_3050"), ("RTX 4000 Ada", "nvidia_rtx_4000_ada"), ("RTX A2000", "nvidia_rtx_a2000"),
    ("A16", "nvidia_a16"),
]
# new series and some members
SERIES_CASES = [
    ("nvidia_rtx_50", ("nvidia_rtx_5090", "nvidia_rtx_5080", "nvidia_rtx_5070_ti", "nvidia_rtx_5070",
                       "nvidia_rtx_5060_ti")),
    ("nvidia_rtx_40", ("nvidia_rtx_4090_d", "nvidia_rtx_4080_super", "nvidia_rtx_4060")),
    ("amd_rx_7000", ("amd_rx_7900_gre", "amd_rx_7800_xt", "amd_rx_7700_xt", "amd_rx_7600")),
    ("amd_rx_9000", ("amd_rx_9070_xt", "amd_rx_9070", "amd_rx_9060_xt")),
    ("amd_mi300", ("amd_mi300x", "amd_mi300a", "amd_mi325x")),
    ("amd_mi350", ("amd_mi350x", "amd_mi355x")),
    ("amd_mi200", ("amd_mi210", "amd_mi250", "amd_mi250x")),
    ("huawei_ascend_910", ("huawei_ascend_910", "huawei_ascend_910b", "huawei_ascend_910c")),
    ("intel_arc", ("intel_arc_a770", "intel_arc_b580")),
    ("nvidia_rtx_20", ("nvidia_rtx_2060", "nvidia_rtx_2060_super", "nvidia_rtx_2070", "nvidia_rtx_2070_super",
                       "nvidia_rtx_2080", "nvidia_rtx_2080_super", "nvidia_rtx_2080_ti")),
    ("nvidia_rtx_30", ("nvidia_rtx_3050", "nvidia_rtx_3060_ti", "nvidia_rtx_3070_ti")),
]
# fmt: on


def _rows(pid: str) -> pd.DataFrame:
    return SPECS[SPECS.product_id == pid]


@pytest.mark.parametrize("pid", CARDS)
def test_card_has_a_product_row_and_sourced_specs(pid: str) -> None:
    assert pid in set(PRODUCTS.product_id), f"{pid} missing from products.csv"
    rows = _rows(pid)
    assert len(rows) >= 1, f"{pid} has no specs.csv rows"
    assert set(rows.attribute) >= {"architecture"}, f"{pid} has no architecture row"


@pytest.mark.parametrize("pid", CARDS)
def test_card_has_its_core_attributes_or_says_why_not(pid: str) -> None:
    rows = _rows(pid)
    missing = [a for a in CORE if a not in set(rows.attribute)]
    allowed, why = WITHOUT.get(pid, ((), ""))
    assert set(missing) <= set(allowed), f"{pid} lacks {missing}"
    if missing:
        assert any(why in n for n in rows.notes), f"{pid}: no note says why {missing} are missing"


@pytest.mark.parametrize("pid", [p for p in CARDS if p.startswith("nvidia_")])
def test_nvidia_card_has_cuda_cores_or_says_why_not(pid: str) -> None:
    rows = _rows(pid)
    if "cuda_cores" in set(rows.attribute):
        return
    assert pid in CORES_UNPUBLISHED, f"{pid} lacks cuda_cores"
    why = CORES_UNPUBLISHED[pid]
    assert not why or any(why in n for n in rows.notes), f"{pid}: no note says why the core count is missing"


@pytest.mark.parametrize("pid", [p for p in CARDS if p.startswith("amd_")])
def test_amd_card_has_compute_units_and_stream_processors(pid: str) -> None:
    rows = _rows(pid)
    assert {"compute_units", "stream_processors"} <= set(rows.attribute), pid


def test_every_spec_row_has_an_https_source_or_a_note_why_not() -> None:
    bad = SPECS[~SPECS.source_url.str.startswith("https://") & (SPECS.notes.str.strip() == "")]
    assert bad.empty, bad[["product_id", "variant", "attribute", "source_url"]].to_string()
    assert (SPECS.source_title.str.strip() != "").all()


@pytest.mark.parametrize(("pid", "variant", "attribute", "scope", "value"), AUDIT_FIXES)
def test_audit_fix(pid: str, variant: str, attribute: str, scope: str, value: str) -> None:
    rows = SPECS[(SPECS.product_id == pid) & (SPECS.variant == variant) & (SPECS.attribute == attribute)
                 & (SPECS.scope == scope)]
    assert len(rows) == 1, f"{pid} {variant} {attribute} {scope}: {len(rows)} rows"
    row = rows.iloc[0]
    got = row.value
    assert (float(got) == float(value)) if value.replace(".", "").isdigit() else got == value, (got, value)
    assert row.source_url.startswith("https://") and row.source_title


@pytest.mark.parametrize("key", REMOVED)
def test_audit_removed_row(key: tuple[str, ...]) -> None:
    pid, variant, attribute, scope, *value = key
    rows = SPECS[(SPECS.product_id == pid) & (SPECS.variant == variant) & (SPECS.attribute == attribute)
                 & (SPECS.scope == scope)]
    if value:
        rows = rows[rows.value == value[0]]
    assert rows.empty, rows.to_string()


def test_a_fact_is_not_both_base_and_a_variant() -> None:
    base = SPECS[SPECS.variant == "base"].set_index(["product_id", "attribute", "scope"]).index
    variants = SPECS[SPECS.variant != "base"].set_index(["product_id", "attribute", "scope"]).index
    both = sorted(set(base) & set(variants))
    assert not both, both


@pytest.mark.parametrize(("arch", "precision", "supported"), PRECISION_CASES)
def test_precision_support(arch: str, precision: str, supported: str) -> None:
    rows = PRECISIONS[(PRECISIONS.architecture == arch) & (PRECISIONS.precision == precision)]
    assert list(rows.supported) == [supported]


def test_chaowei_is_supermicro_not_amd() -> None:
    aliases = {v.vendor_id: v.aliases.split("|") for v in VENDORS.itertuples()}
    assert "超微" not in aliases["amd"] and "超威" in aliases["amd"]
    assert "超微" in aliases["supermicro"]
    assert "mthreads" in aliases and "摩尔线程" in aliases["mthreads"]


@pytest.mark.parametrize(("series_id", "members"), SERIES_CASES)
def test_series_lists_its_members(series_id: str, members: tuple[str, ...]) -> None:
    row = SERIES[SERIES.series_id == series_id]
    assert len(row) == 1, series_id
    listed = row.iloc[0].members.split("|")
    assert set(members) <= set(listed), set(members) - set(listed)
    for pid in members:
        series = PRODUCTS.loc[PRODUCTS.product_id == pid, "series"].iloc[0].split("|")
        assert series_id in series, (pid, series)


@pytest.mark.parametrize(("alias", "pid"), ALIASES)
def test_alias_names_the_card(alias: str, pid: str) -> None:
    claims = check_text(f"{alias}配备12GB显存。")
    subjects = {c.subject for c in claims if c.attribute == "memory_size"}
    assert subjects == {pid}, [(c.text, c.subject) for c in claims]
