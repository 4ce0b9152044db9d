"""The CUDA limits of compute_capabilities.csv, found for a capability, a chip, an architecture and a card; the
expected values are the CUDA Programming Guide's (legacy guides for 1.x-7.2)."""

from __future__ import annotations

import pandas as pd
import pytest

from pipeline.config import DEFAULT_REFERENCE_DIR
from pipeline.knowledge.capabilities import capability_ids, limit_facts
from pipeline.knowledge.columns import LIMIT_ATTRIBUTES
from pipeline.knowledge.reference import Reference

TABLE = pd.read_csv(DEFAULT_REFERENCE_DIR / "compute_capabilities.csv", dtype=str, keep_default_na=False)

# fmt: off
LOOKUPS = [  # entity, attribute, per, expected {value} or {(variant, value)}
    ("cc_8_0", "max_threads_per_sm", "SM", {2048}), ("cc_8_6", "max_threads_per_sm", "SM", {1536}),
    ("cc_7_5", "max_warps_per_sm", "SM", {32}), ("cc_9_0", "shared_memory", "SM", {228}),
    ("cc_9_0", "max_shared_memory_per_block", "", {227}), ("cc_8_9", "max_blocks_per_sm", "SM", {24}),
    ("cc_1_0", "max_threads_per_block", "", {512}), ("cc_1_0", "max_warps_per_sm", "SM", {24}),
    ("cc_1_3", "registers_per_sm", "SM", {16384}), ("cc_2_0", "max_registers_per_thread", "", {63}),
    ("cc_3_7", "registers_per_sm", "SM", {131072}), ("cc_3_7", "shared_memory", "SM", {112}),
    ("cc_5_2", "shared_memory", "SM", {96}), ("cc_12_0", "cache_size", "SM", {128}),
    ("cc_3_0", "max_grid_dim_x", "", {2**31 - 1}), ("cc_2_0", "max_grid_dim_x", "", {65535}),
    # through an architecture: one row per capability it lists
    ("ampere", "max_threads_per_sm", "SM", {("8.0", 2048), ("8.6", 1536), ("8.7", 1536)}),
    ("hopper", "max_threads_per_sm", "SM", {2048}), ("ampere", "max_threads_per_sm", "", {2048, 1536}),
    ("fermi", "max_threads_per_block", "", {1024}), ("tesla_architecture", "max_threads_per_block", "", {512}),
    ("turing", "max_warps_per_sm", "SM", {32}), ("blackwell", "max_blocks_per_sm", "SM", {32, 24}),
    # through a chip, and a card's chip
    ("ga102", "max_warps_per_sm", "", {48}), ("gk210", "registers_per_sm", "SM", {131072}),
    ("nvidia_a100", "max_blocks_per_sm", "SM", {32}), ("nvidia_rtx_4090", "max_threads_per_sm", "SM", {1536}),
    ("nvidia_h100", "warp_size", "", {32}), ("nvidia_tesla_k80", "max_registers_per_block", "", {65536}),
    ("nvidia_rtx_3090", "max_shared_memory_per_block", "", {99}),
]
CAPABILITIES = [("ampere", ["cc_8_0", "cc_8_6", "cc_8_7"]), ("ga102", ["cc_8_6"]), ("nvidia_h100", ["cc_9_0"]),
                ("cc_7_0", ["cc_7_0"]), ("gcn_1", []), ("rubin", []), ("nvidia_mi300x", [])]
# fmt: on


@pytest.mark.parametrize(("entity_id", "attribute", "per", "expected"), LOOKUPS)
def test_limits_are_found(ref: Reference, entity_id: str, attribute: str, per: str, expected: set) -> None:
    rows = ref.facts(entity_id, attribute, per)
    assert rows, (entity_id, attribute, per)
    assert all("docs.nvidia.com/cuda" in r.source_url and r.source_title for r in rows)
    if all(isinstance(e, tuple) for e in expected):
        assert {(r.variant, r.value) for r in rows} == expected
    else:
        assert {r.value for r in rows} == expected


@pytest.mark.parametrize(("entity_id", "ids"), CAPABILITIES)
def test_capability_ids(ref: Reference, entity_id: str, ids: list[str]) -> None:
    assert capability_ids(ref, entity_id) == ids


def test_own_figures_come_before_the_limits(ref: Reference) -> None:
    # the Hopper SM's own shared memory (architectures.csv) and the chip's L2 are not replaced by a limit
    assert [r.product_id for r in ref.facts("hopper", "shared_memory", "SM")] == ["hopper"]
    assert {r.scope for r in ref.facts("nvidia_a100", "cache_size")} == {"L2"}
    # an L1 or shared-memory figure is asked per SM: a whole-card figure is never the SM's
    assert limit_facts(ref, "nvidia_a100", "shared_memory", "") == []
    assert ref.facts("nvidia_a100", "max_threads_per_sm", "partition") == []


def test_every_limit_column_is_a_limit() -> None:
    assert {"max_threads_per_sm", "max_warps_per_sm", "max_blocks_per_sm", "registers_per_sm", "warp_size",
            "max_threads_per_block", "max_registers_per_thread", "max_shared_memory_per_block"} <= LIMIT_ATTRIBUTES


@pytest.mark.parametrize("row", TABLE.to_dict("records"), ids=list(TABLE["capability"]))
def test_every_capability_row(ref: Reference, row: dict[str, str]) -> None:
    assert row["source_url"].startswith("https://docs.nvidia.com/cuda/") and row["source_title"]
    assert int(row["max_threads_per_sm"]) == int(row["max_warps_per_sm"]) * int(row["warp_size"])
    arch = ref.entity(row["architecture"])
    assert arch is not None and arch.kind == "architecture"
    assert row["capability"] in ref.items["architecture"][arch.id].fields["compute_capability"].split("|")
    assert ref.entity(row["capability"]) == ref.entity(row["name"])
    assert int(row["max_threads_per_block"]) <= int(row["max_threads_per_sm"])
    assert float(row["max_shared_memory_per_block_kb"]) <= float(row["shared_memory_per_sm_kb"])
