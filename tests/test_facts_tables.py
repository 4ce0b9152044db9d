"""The relation tables (reference/*.csv read by pipeline/knowledge/facts.py): their breadth, what the look-ups
answer, and each rule of pipeline/knowledge/validation/facts_rules.py passing on the real tables and failing on a
cell made to break it."""

from __future__ import annotations

import copy
import re

import pandas as pd
import pytest

from pipeline.config import DEFAULT_REFERENCE_DIR
from pipeline.knowledge.facts import ARCHITECTURE_STATUSES, FACT_COLUMNS, build_facts
from pipeline.knowledge.reference import Reference
from pipeline.knowledge.validation import load_reference_tables
from pipeline.knowledge.validation.facts_rules import FACT_CHECKS, PRODUCT_FEATURES
from pipeline.knowledge.validation.ge import _exists, _run_suite
from pipeline.knowledge.validation.reference_rules import _Tables
from pipeline.knowledge.validation.results import Problem


@pytest.fixture(scope="module")
def tables() -> dict[str, pd.DataFrame]:
    return load_reference_tables(DEFAULT_REFERENCE_DIR)


def _problems(tables: dict[str, pd.DataFrame], name: str) -> list[Problem]:
    frame = tables[name].reset_index(drop=True)
    checks = [_exists(c) for c in FACT_COLUMNS[name]] + FACT_CHECKS[name](frame, _Tables(tables))
    return _run_suite(f"{name}.csv", frame, checks)


# ---- breadth


def test_every_nvidia_and_amd_architecture_has_every_feature(ref: Reference) -> None:
    archs = [a for a in ref.items["architecture"].values() if a.fields.get("vendor") in ("nvidia", "amd")]
    assert len(archs) >= 27  # Tesla..Rubin and GCN 1.0..CDNA 4 / RDNA 4
    assert len(ref.relations.features) >= 40
    missing = [(a.item_id, f) for a in archs for f in ref.relations.features
               if ref.relations.architecture_status(a.item_id, f) is None]
    assert not missing, missing[:10]


def test_every_product_has_every_product_feature(ref: Reference) -> None:
    missing = [(p, f) for p in ref.products for f in PRODUCT_FEATURES if not ref.relations.products.get((p, f))]
    assert not missing, missing[:10]


def test_every_term_has_an_expansion_row(ref: Reference) -> None:
    covered = {e.term for e in ref.relations.expansions.values()}
    assert set(ref.terms) <= covered, sorted(set(ref.terms) - covered)


def test_the_readme_lists_the_features_table() -> None:
    """reference/README.md writes the fixed feature list out; it is features.csv, at least 40 of them."""
    readme = (DEFAULT_REFERENCE_DIR / "README.md").read_text(encoding="utf-8")
    section = readme.split("### The feature list", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^\| `([^`]+)` \|", section, re.M)
    features = pd.read_csv(DEFAULT_REFERENCE_DIR / "features.csv", dtype=str)["feature"].tolist()
    assert listed == features and len(listed) >= 40


# ---- look-ups


def test_a_feature_is_found_by_any_of_its_names(ref: Reference) -> None:
    for name in ("structured sparsity", "2:4 sparsity", "结构化稀疏", "MCM GPU", "two-die GPU", "Mesh Shaders"):
        assert ref.relations.feature(name) is not None, name
    assert ref.relations.feature("structured sparsity").name == "2:4 sparsity"  # type: ignore[union-attr]


def test_a_product_row_by_variant(ref: Reference) -> None:
    facts = ref.relations
    assert [r.status for r in facts.product_status("nvidia_tesla_v100", "NVLink", "PCIe 32GB")] == ["no"]
    assert [r.status for r in facts.product_status("nvidia_tesla_v100", "NVLink", "SXM2 32GB")] == ["yes"]
    assert {r.status for r in facts.product_status("nvidia_tesla_v100", "NVLink")} == {"yes", "no"}


def test_lineage_lookups(ref: Reference) -> None:
    facts = ref.relations
    assert {s.successor for s in facts.successors("ampere", "architecture")} == {"hopper", "ada_lovelace"}
    assert {"pascal", "maxwell", "kepler", "fermi", "tesla_architecture"} <= facts.ancestors("volta")
    assert "cdna_3" not in facts.ancestors("rdna_4")


def test_relations_and_formats(ref: Reference) -> None:
    facts = ref.relations
    assert facts.relation("Hyper-Q", "MPS") is not None and facts.relation("MPS", "HCCL") is None
    bf16 = facts.number_format("bfloat16")
    assert bf16 is not None and (bf16.exponent_bits, bf16.mantissa_bits) == (8, 7)


def test_introducers_come_from_both_tables(ref: Reference) -> None:
    from pipeline.check.history import introducers

    assert [a.item_id for a in introducers(ref, "multi-die GPU")] == ["cdna_2", "blackwell"]
    assert [a.item_id for a in introducers(ref, "Tensor Core")] == ["volta"]


def test_an_empty_reference_has_empty_facts() -> None:
    facts = build_facts({})
    assert facts.feature("FP8") is None and facts.successors("hopper", "architecture") == []


# ---- the rules


def test_the_real_tables_pass(tables: dict[str, pd.DataFrame]) -> None:
    for name in FACT_CHECKS:
        assert _problems(tables, name) == [], name


def _where(frame: pd.DataFrame, **match: str) -> int:
    mask = pd.Series(True, index=frame.index)
    for column, value in match.items():
        mask &= frame[column] == value
    return int(frame.index[mask][0])


# fmt: off
# table, the row (by its cells), column, bad value, the rule's message (a part of it)
BAD_CELLS = [
    ("architecture_features", {"architecture_id": "volta", "feature": "Tensor Core"}, "status", "supported",
     "architectures.csv lists 'Tensor Core' in volta's introduced column"),
    ("architecture_features", {"architecture_id": "turing", "feature": "Tensor Core"}, "status", "introduced",
     "the earlier volta already had it"),
    ("architecture_features", {"architecture_id": "hopper", "feature": "FP4"}, "status", "removed",
     "no predecessor of it had 'FP4'"),
    ("architecture_features", {"architecture_id": "ampere", "feature": "FP8"}, "status", "supported",
     "precisions.csv says ampere lacks it"),
    ("architecture_features", {"architecture_id": "ampere", "feature": "FP8"}, "status", "maybe",
     "status must be one of"),
    ("architecture_features", {"architecture_id": "ampere", "feature": "FP8"}, "architecture_id", "zen_4",
     "architecture_id must exist in architectures.csv"),
    ("architecture_features", {"architecture_id": "ampere", "feature": "FP8"}, "feature", "FP7",
     "feature must be listed in features.csv"),
    ("architecture_features", {"architecture_id": "ampere", "feature": "FP8"}, "source_url", "the whitepaper",
     "source_url must be an http(s) URL"),
    ("product_features", {"product_id": "nvidia_a100", "feature": "MIG"}, "value", "4",
     "specs.csv gives nvidia_a100 7 MIG instances"),
    ("product_features", {"product_id": "nvidia_a100", "feature": "NVLink"}, "status", "no",
     "specs.csv has an NVLink bandwidth for nvidia_a100"),
    ("product_features", {"product_id": "nvidia_rtx_3090", "feature": "FP8"}, "status", "yes",
     "its architecture ampere is absent"),
    ("product_features", {"product_id": "nvidia_h100", "feature": "Transformer Engine"}, "status", "no",
     "its architecture hopper is introduced"),
    ("product_features", {"product_id": "nvidia_a100", "feature": "FP64 rate"}, "value", "half",
     "FP64 rate yes needs the ratio"),
    ("product_features", {"product_id": "nvidia_tesla_v100", "feature": "NVLink", "variant": "PCIe 16GB"}, "variant",
     "PCIe 48GB", "is not one specs.csv has"),
    ("lineage", {"item": "nvidia_a100", "successor": "nvidia_h100"}, "successor", "nvidia_tesla_v100",
     "the successor launched in 2017, before nvidia_a100 (2020)"),
    ("lineage", {"item": "ampere", "successor": "hopper"}, "successor", "zen_4",
     "successor 'zen_4' is not an architecture_id"),
    ("lineage", {"item": "nvidia_a100", "successor": "nvidia_h100"}, "successor", "H100",
     "a name the tables know: write its id"),
    ("composition", {"whole": "dgx_h100", "kind": "switch_chip"}, "count", "6",
     "systems.csv gives dgx_h100 4 (nvswitch_count)"),
    ("composition", {"whole": "amd_mi300x", "kind": "compute_die"}, "count", "9",
     "chips.csv gives aqua_vanjaram 8 die(s) per package"),
    ("composition", {"whole": "amd_mi300x", "kind": "compute_die"}, "kind", "chiplet", "kind must be one of"),
    ("composition", {"whole": "amd_mi300x", "kind": "compute_die"}, "whole", "amd_mi999x",
     "is not a product, system or chip id"),
    ("die_positions", {"subject": "nvidia_rtx_4090"}, "position", "full_die", "specs.csv enables [128.0]"),
    ("die_positions", {"subject": "nvidia_rtx_3090_ti"}, "position", "cut_down", "specs.csv enables all 84 units"),
    ("die_positions", {"subject": "ad102"}, "position", "full_die", "a chip is flagship or not_flagship"),
    ("term_expansions", {"abbreviation": "HCCS"}, "term", "hccs_link", "is not a term_id of terms.csv"),
    ("term_expansions", {"abbreviation": "HCCL"}, "abbreviation", "HCCS", "abbreviation 'HCCS' repeats row"),
    ("term_relations", {"term": "MPS"}, "other", "Hyper-X", "neither an abbreviation"),
    ("number_formats", {"format": "BF16"}, "mantissa_bits", "9", "1 + 8 + 9 bits is not 16"),
    ("link_facts", {"subject": "pcie", "property": "topology"}, "property", "colour", "property must be one of"),
    ("revisions", {"attribute": "fp32", "variant": "SXM5"}, "revised", "66", "specs.csv gives 67"),
    ("revisions", {"attribute": "fp32", "variant": "SXM5"}, "announced_date", "March 2022",
     "announced_date must be YYYY or YYYY-MM"),
]
# fmt: on


@pytest.mark.parametrize(("table", "match", "column", "value", "message"), BAD_CELLS,
                         ids=[f"{t}-{c}-{v}" for t, _m, c, v, _msg in BAD_CELLS])
def test_each_rule_fails_on_a_bad_cell(tables: dict[str, pd.DataFrame], table: str, match: dict[str, str],
                                       column: str, value: str, message: str) -> None:
    broken = copy.deepcopy(dict(tables))
    frame = broken[table].copy()
    frame.at[_where(frame, **match), column] = value
    broken[table] = frame
    found = [p for p in _problems(broken, table) if message in p.rule]
    assert found, [p.rule for p in _problems(broken, table)][:5]


def test_a_missing_row_breaks_the_breadth(tables: dict[str, pd.DataFrame]) -> None:
    broken = dict(tables)
    frame = tables["architecture_features"]
    broken["architecture_features"] = frame[~((frame["architecture_id"] == "gcn_2") & (frame["feature"] == "HBM"))]
    assert any("pairs have no row, e.g. gcn_2/HBM" in p.rule for p in _problems(broken, "architecture_features"))
    terms = tables["term_expansions"]
    broken["term_expansions"] = terms[terms["term"] != "cudnn"]
    assert any("terms without an expansion row: cudnn" in p.rule for p in _problems(broken, "term_expansions"))


def test_statuses_are_the_documented_ones(tables: dict[str, pd.DataFrame]) -> None:
    assert set(tables["architecture_features"]["status"]) <= set(ARCHITECTURE_STATUSES)
