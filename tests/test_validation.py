"""pipeline.knowledge.validation: the reference suite, its cache and the streaming claims validator."""

from __future__ import annotations

import copy
import csv
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pipeline.config import DEFAULT_REFERENCE_DIR
from pipeline.errors import ReferenceTableError
from pipeline.knowledge import validation
from pipeline.knowledge.validation import (
    ClaimsValidator,
    Problem,
    ValidationResult,
    ge,
    load_reference_tables,
    reference_fingerprint,
    validate_reference,
)
from pipeline.records import CONTRACT_FIELDS, Check, Claim, Qualifier, Verdict

Rows = list[dict[str, str]]
SRC = {"source_url": "https://www.nvidia.com/a100", "source_title": "NVIDIA A100 datasheet"}
AMD_SRC = {"source_url": "https://www.amd.com/rx6900xt", "source_title": "AMD Radeon RX 6900 XT"}


def _spec(product: str, attribute: str, value: str, unit: str = "", variant: str = "base", scope: str = "",
          src: dict[str, str] = SRC) -> dict[str, str]:
    return {"product_id": product, "variant": variant, "attribute": attribute, "scope": scope, "value": value,
            "unit": unit, **src, "notes": ""}


# fmt: off
TABLES: dict[str, Rows] = {
    "vendors": [
        {"vendor_id": "nvidia", "name": "NVIDIA", "aliases": "英伟达|NVIDIA", "makes_gpus": "true",
         "brands": "Tesla|GeForce", **SRC},
        {"vendor_id": "amd", "name": "AMD", "aliases": "AMD|超威", "makes_gpus": "true", "brands": "Radeon",
         **AMD_SRC},
    ],
    "products": [
        {"product_id": "nvidia_a100", "vendor": "nvidia", "family": "Data Center", "name": "NVIDIA A100",
         "architecture": "Ampere", "chip": "GA100", "launch_year": "2020", "positioning": "training",
         "aliases": "A100|A100显卡", "series": ""},
        {"product_id": "nvidia_rtx_4090", "vendor": "nvidia", "family": "GeForce RTX 40", "name": "RTX 4090",
         "architecture": "Ada Lovelace", "chip": "AD102", "launch_year": "2022", "positioning": "consumer",
         "aliases": "RTX 4090|4090", "series": "nvidia_rtx_40"},
        {"product_id": "amd_rx_6900_xt", "vendor": "amd", "family": "Radeon RX 6000", "name": "RX 6900 XT",
         "architecture": "RDNA 2", "chip": "Navi 21", "launch_year": "2020", "positioning": "consumer",
         "aliases": "RX 6900 XT|6900XT", "series": "amd_rx_6000"},
    ],
    "series": [
        {"series_id": "nvidia_rtx_40", "vendor": "nvidia", "name": "GeForce RTX 40 series",
         "aliases": "RTX 40系列|RTX40系列", "members": "nvidia_rtx_4090", **SRC},
        {"series_id": "amd_rx_6000", "vendor": "amd", "name": "Radeon RX 6000 series",
         "aliases": "RX 6000系列", "members": "amd_rx_6900_xt", **AMD_SRC},
    ],
    "specs": [
        _spec("nvidia_a100", "cuda_cores", "6912"),                                    # 0
        _spec("nvidia_a100", "tensor_cores", "432"),                                   # 1
        _spec("nvidia_a100", "memory_type", "HBM2e"),                                  # 2
        _spec("nvidia_a100", "memory_size", "80", "GB", variant="80GB SXM4"),          # 3
        _spec("nvidia_a100", "memory_size", "40", "GB", variant="40GB PCIe"),          # 4
        _spec("nvidia_a100", "memory_bandwidth", "2039", "GB/s", variant="80GB SXM4"),  # 5
        _spec("nvidia_a100", "memory_bandwidth", "1555", "GB/s", variant="40GB PCIe"),  # 6
        _spec("nvidia_a100", "tdp", "400", "W", variant="80GB SXM4"),                  # 7
        _spec("nvidia_a100", "fp16", "312", "TFLOPS", scope="dense"),                  # 8
        _spec("nvidia_a100", "int8", "1248", "TOPS", scope="sparse"),                  # 9
        _spec("nvidia_a100", "interconnect_bandwidth", "600", "GB/s", scope="NVLink"),  # 10
        _spec("nvidia_a100", "architecture", "Ampere"),                                # 11
        _spec("nvidia_a100", "launch_year", "2020"),                                   # 12
        _spec("nvidia_a100", "mig_instances", "7"),                                    # 13
        _spec("nvidia_rtx_4090", "cuda_cores", "16384"),                               # 14
        _spec("nvidia_rtx_4090", "memory_type", "GDDR6X"),                             # 15
        _spec("nvidia_rtx_4090", "memory_bandwidth", "1008", "GB/s"),                  # 16
        _spec("nvidia_rtx_4090", "memory_bus_width", "384", "bit"),                    # 17
        _spec("nvidia_rtx_4090", "cache_size", "72", "MB", scope="L2"),                # 18
        _spec("nvidia_rtx_4090", "tdp", "450", "W"),                                   # 19
        _spec("amd_rx_6900_xt", "stream_processors", "5120", src=AMD_SRC),             # 20
        _spec("amd_rx_6900_xt", "tensor_cores", "0", src=AMD_SRC),                     # 21
        _spec("amd_rx_6900_xt", "memory_type", "GDDR6", src=AMD_SRC),                  # 22
        _spec("amd_rx_6900_xt", "memory_bandwidth", "512", "GB/s", src=AMD_SRC),       # 23
        _spec("amd_rx_6900_xt", "effective_bandwidth", "1664", "GB/s", src=AMD_SRC),   # 24
        _spec("amd_rx_6900_xt", "cache_size", "128", "MB", scope="Infinity Cache", src=AMD_SRC),  # 25
        _spec("amd_rx_6900_xt", "interface", "PCIe 4.0 x16", src=AMD_SRC),             # 26
    ],
    "links": [
        {"link_id": "pcie4_x16", "name": "PCIe 4.0 x16", "aliases": "PCIe 4.0|PCIe4", "generation": "4.0",
         "lanes": "16", "per_direction": "32", "bidirectional": "64", "unit": "GB/s",
         "source_url": "https://pcisig.com/specifications", "source_title": "PCI-SIG specifications"},
    ],
    "terms": [
        {"term_id": "nvlink", "name": "NVLink", "aliases": "NVLink", "owner": "nvidia",
         "category": "interconnect", "definition_zh": "NVIDIA的GPU互连技术",
         "definition_en": "NVIDIA's GPU interconnect", **SRC},
    ],
}
# fmt: on


def _write(folder: Path, tables: dict[str, Rows]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, rows in tables.items():
        with open(folder / f"{name}.csv", "w", encoding="utf-8", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    return folder


def _broken(edit: Callable[[dict[str, Rows]], None]) -> dict[str, Rows]:
    tables = copy.deepcopy(TABLES)
    edit(tables)
    return tables


def _set(table: str, row: int, **values: str) -> Callable[[dict[str, Rows]], None]:
    return lambda t: t[table][row].update(values)


def _append_copy(table: str, row: int) -> Callable[[dict[str, Rows]], None]:
    return lambda t: t[table].append(dict(t[table][row]))


def _drop_product_specs(product: str) -> Callable[[dict[str, Rows]], None]:
    def edit(t: dict[str, Rows]) -> None:
        t["specs"] = [r for r in t["specs"] if r["product_id"] != product]
    return edit


def _problems(result: ValidationResult, table: str, row: int | None) -> list[Problem]:
    return [p for p in result.problems if p.table == table and p.row == row]


@pytest.fixture
def no_cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def test_hand_made_tables_pass(tmp_path: Path, no_cache: Path) -> None:
    result = validate_reference(_write(tmp_path / "ref", TABLES), cache_dir=no_cache)
    assert result.ok, result.summary()
    assert result.summary() == "no problems found"


SPECS, PRODUCTS, SERIES = "specs.csv", "products.csv", "series.csv"

# fmt: off
BROKEN = [
    # name, edit, table, row, words in the rule, found
    ("duplicate key", _append_copy("specs", 5), SPECS, 27, "more than one row", "nvidia_a100 / 80GB SXM4"),
    ("unknown unit", _set("specs", 16, unit="GB"), SPECS, 16,
     "unit must be one of GB/s for memory_bandwidth", "GB"),
    ("unit on a count", _set("specs", 0, unit="个"), SPECS, 0, "unit must be empty for cuda_cores", "个"),
    ("missing source", _set("specs", 19, source_url=""), SPECS, 19, "source_url", ""),
    ("ftp source", _set("specs", 19, source_url="ftp://x"), SPECS, 19, "source_url", "ftp://x"),
    ("missing title", _set("series", 1, source_title=" "), SERIES, 1, "source_title", " "),
    ("negative value", _set("specs", 7, value="-400"), SPECS, 7, "value must be positive for tdp", "-400"),
    ("text for a number", _set("specs", 8, value="312 TFLOPS"), SPECS, 8, "must be a number", "312 TFLOPS"),
    ("fractional count", _set("specs", 14, value="16384.5"), SPECS, 14, "whole number", "16384.5"),
    ("implausible tdp", _set("specs", 19, value="4500"), SPECS, 19, "tdp must be within 10-1500 W", "4500"),
    ("bandwidth too high for GDDR6", _set("specs", 23, value="1664"), SPECS, 23,
     "memory_bandwidth must be within 100-1100 GB/s for GDDR6 memory", "1664"),
    ("bandwidth too low for HBM", _set("specs", 6, value="155"), SPECS, 6, "200-20000 GB/s for HBM2e", "155"),
    ("launch year", _set("specs", 12, value="1989"), SPECS, 12, "1990-2030", "1989"),
    ("unknown attribute", _set("specs", 17, attribute="memory_speed"), SPECS, 17,
     "attribute must be one", "memory_speed"),
    ("unknown product", _set("specs", 20, product_id="amd_rx_6950_xt"), SPECS, 20,
     "products.csv", "amd_rx_6950_xt"),
    ("alias clash across products", _set("products", 2, aliases="RX 6900 XT|a100"), PRODUCTS, 2,
     "alias 'a100' is also used by products.csv row 0 (nvidia_a100)", "RX 6900 XT|a100"),
    ("alias clash with a series", _set("series", 1, aliases="RX 6000系列|6900xt"), SERIES, 1,
     "alias '6900xt' is also used by products.csv row 2 (amd_rx_6900_xt)", "RX 6000系列|6900xt"),
    ("no architecture", _set("products", 1, architecture=""), PRODUCTS, 1,
     "architecture must not be empty", ""),
    ("unknown vendor", _set("products", 0, vendor="nvdia"), PRODUCTS, 0, "vendors.csv", "nvdia"),
    ("product without specs", _drop_product_specs("nvidia_rtx_4090"), PRODUCTS, 1,
     "at least one specs.csv row with a source", "nvidia_rtx_4090"),
    ("duplicate product id", _append_copy("products", 0), PRODUCTS, 3, "product_id must be unique",
     "nvidia_a100"),
    ("unknown series member", _set("series", 0, members="nvidia_rtx_4090|nvidia_rtx_4080"), SERIES, 0,
     "nvidia_rtx_4080 not found in products.csv", "nvidia_rtx_4090|nvidia_rtx_4080"),
    ("makes_gpus", _set("vendors", 1, makes_gpus="yes"), "vendors.csv", 1, "true or false", "yes"),
    ("term category", _set("terms", 0, category="link"), "terms.csv", 0, "category", "link"),
]
# fmt: on


@pytest.mark.parametrize(("edit", "table", "row", "rule", "found"), [case[1:] for case in BROKEN],
                         ids=[case[0] for case in BROKEN])
def test_broken_table_is_rejected_naming_the_row(
    tmp_path: Path, no_cache: Path, edit: Callable[[dict[str, Rows]], None], table: str, row: int, rule: str,
    found: str,
) -> None:
    result = validate_reference(_write(tmp_path / "ref", _broken(edit)), cache_dir=no_cache)
    assert not result.ok
    hits = [p for p in _problems(result, table, row) if rule in p.rule]
    assert hits, result.summary()
    assert found in hits[0].found
    assert f"{table} row {row}: " in result.summary()


def test_problem_summary_line() -> None:
    problem = Problem("specs.csv", 12, "unit must be one of GB/s for memory_bandwidth", "unit", "GB")
    expected = "specs.csv row 12: unit must be one of GB/s for memory_bandwidth (found 'GB')"
    assert ValidationResult(False, (problem,)).summary() == expected


def test_missing_column_is_a_table_problem(tmp_path: Path, no_cache: Path) -> None:
    tables = copy.deepcopy(TABLES)
    for r in tables["specs"]:
        del r["unit"]
    result = validate_reference(_write(tmp_path / "ref", tables), cache_dir=no_cache)
    [problem] = _problems(result, "specs.csv", None)
    assert problem.column == "unit"
    assert "missing required column 'unit'" in result.summary()


def test_missing_table_names_the_file(tmp_path: Path, no_cache: Path) -> None:
    folder = _write(tmp_path / "ref", {k: v for k, v in TABLES.items() if k != "links"})
    with pytest.raises(ReferenceTableError, match=r"links\.csv"):
        validate_reference(folder, cache_dir=no_cache)
    with pytest.raises(ReferenceTableError, match=r"links\.csv"):
        load_reference_tables(folder)


def test_tables_load_as_strings(tmp_path: Path) -> None:
    tables = load_reference_tables(_write(tmp_path / "ref", TABLES))
    assert set(tables) == set(TABLES)
    specs = tables["specs"]
    assert specs.loc[0, "value"] == "6912"
    assert specs.loc[0, "unit"] == ""


# ---- the cache


@pytest.fixture
def suite_runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every call of the GE runner, by table."""
    calls: list[str] = []
    real = ge._run_suite

    def counting(table: str, *args: Any) -> list[Problem]:
        calls.append(table)
        return real(table, *args)

    monkeypatch.setattr(ge, "_run_suite", counting)
    return calls


def test_unchanged_reference_is_not_validated_again(tmp_path: Path, suite_runs: list[str]) -> None:
    folder, cache = _write(tmp_path / "ref", TABLES), tmp_path / "cache"
    assert validate_reference(folder, cache_dir=cache).ok
    first = len(suite_runs)
    assert first > 0
    assert validate_reference(folder, cache_dir=cache).ok
    assert len(suite_runs) == first

    changed = _broken(_set("links", 0, source_title="PCI Express Base Specification"))
    _write(folder, changed)
    assert validate_reference(folder, cache_dir=cache).ok
    assert len(suite_runs) == 2 * first


def test_failing_reference_is_not_cached(tmp_path: Path, suite_runs: list[str]) -> None:
    folder, cache = _write(tmp_path / "ref", _broken(_set("specs", 0, value="x"))), tmp_path / "cache"
    assert not validate_reference(folder, cache_dir=cache).ok
    runs = len(suite_runs)
    assert not validate_reference(folder, cache_dir=cache).ok
    assert len(suite_runs) == 2 * runs


def test_cache_dir_defaults_to_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert validate_reference(_write(tmp_path / "ref", TABLES)).ok
    assert (tmp_path / "xdg" / "gpu-factcheck" / validation.CACHE_FILE).is_file()


def test_fingerprint_follows_content(tmp_path: Path) -> None:
    folder = _write(tmp_path / "ref", TABLES)
    before = reference_fingerprint(folder)
    assert reference_fingerprint(folder) == before
    with open(folder / "links.csv", "a", encoding="utf-8") as f:
        f.write("\n")
    assert reference_fingerprint(folder) != before


# ---- the real reference


def test_real_reference_tables_pass(tmp_path: Path) -> None:
    if not (DEFAULT_REFERENCE_DIR / "specs.csv").is_file():
        pytest.skip(f"{DEFAULT_REFERENCE_DIR}/specs.csv does not exist yet (the reference is being written)")
    result = validate_reference(DEFAULT_REFERENCE_DIR, cache_dir=tmp_path)
    assert result.ok, result.summary()


# ---- claims


def _claim(**overrides: Any) -> dict[str, Any]:
    claim = Claim(
        doc_id="a.txt", start=3, end=9, text="6912个", sentence="A100有6912个CUDA核心", sentence_index=0,
        subject="nvidia_a100", subject_mention="A100", attribute="cuda_cores", value=6912, unit=None,
        check=Check(Verdict.SUPPORTED, "matches"), claim_id="a.txt#0",
    ).to_dict()
    claim.update(overrides)
    return claim


def _validate(claims: list[dict[str, Any]], lengths: dict[str, int] | None = None,
              batch_size: int = 2000) -> ValidationResult:
    validator = ClaimsValidator(lengths, batch_size=batch_size)
    for c in claims:
        validator.add(c)
    return validator.finish()


def test_good_claims_pass() -> None:
    claims = [
        _claim(),
        _claim(attribute="memory_size", value=[16, 32], qualifier=Qualifier.RANGE.value, unit="GB"),
        _claim(attribute="aggregate", value=55296.0, multiplier=8, verdict="contradicted"),
        _claim(attribute="memory_type", value="HBM2e", verdict="code_issue", start=9, end=9),
        _claim(attribute="concept", value=None, verdict="unverifiable", qualifier="approx"),
        _claim(evidence="vendor"),
        _claim(evidence="database", verdict="contradicted",
               source="https://www.techpowerup.com/gpu-specs/a100-pcie-40-gb.c3623"),
    ]
    result = _validate(claims, {"a.txt": 9})
    assert result.ok, result.summary()


def test_claim_records_are_accepted() -> None:
    validator = ClaimsValidator()
    validator.add(Claim(doc_id="a.txt", start=0, end=1, text="x", sentence="x", sentence_index=0,
                        subject=None, subject_mention=None, attribute="tdp", value=70, unit="W",
                        check=Check(Verdict.CONTRADICTED, "70W")))
    assert validator.finish().ok


# fmt: off
BAD_CLAIMS = [
    # name, claim, rule words, column, found
    ("bad verdict", _claim(verdict="wrong"), "verdict must be one of", "verdict", "wrong"),
    ("null verdict", _claim(verdict=None), "verdict must be one of", "verdict", "null"),
    ("bad qualifier", _claim(qualifier="about"), "qualifier must be one of", "qualifier", "about"),
    ("past the end", _claim(start=5, end=12), "must not pass the end of the document (10", "start", "end=12"),
    ("negative start", _claim(start=-1), "0 <= start <= end", "start", "start=-1"),
    ("start after end", _claim(start=8, end=4), "0 <= start <= end", "start", "start=8"),
    ("text offsets", _claim(start="3"), "whole numbers", "start", "start='3'"),
    ("text value", _claim(value="6912"), "value must be a number for cuda_cores", "value", "'6912'"),
    ("bool value", _claim(attribute="tdp", value=True), "value must be a number for tdp", "value", "True"),
    ("short range", _claim(value=[16], qualifier="range"), "list of two numbers", "value", "[16]"),
    ("list without range", _claim(value=[16, 32]), "value must be a number", "value", "[16, 32]"),
    ("nan value", _claim(value=float("nan")), "value must be a number", "value", "nan"),
    ("zero multiplier", _claim(multiplier=0), "multiplier", "multiplier", "0"),
    ("float multiplier", _claim(multiplier=2.0), "multiplier", "multiplier", "2.0"),
    ("missing field", {k: v for k, v in _claim().items() if k != "sentence"}, "lacks contract fields", None,
     "sentence"),
    ("bad evidence", _claim(evidence="rumour"), "evidence must be one of vendor/database", "evidence", "rumour"),
    ("evidence of nothing checked", _claim(verdict="unverifiable", evidence="vendor"), "has no evidence",
     "evidence", "verdict='unverifiable'"),
    ("database without its page", _claim(evidence="database", source="https://www.nvidia.com/a100"),
     "cites its TechPowerUp page", "evidence", "nvidia.com/a100"),
]
# fmt: on


@pytest.mark.parametrize(("claim", "rule", "column", "found"), [c[1:] for c in BAD_CLAIMS],
                         ids=[c[0] for c in BAD_CLAIMS])
def test_bad_claim_is_caught(claim: dict[str, Any], rule: str, column: str | None, found: str) -> None:
    result = _validate([_claim(), _claim(), claim], {"a.txt": 10})
    assert not result.ok
    [problem] = result.problems
    assert (problem.table, problem.row, problem.column) == ("claims", 2, column)
    assert rule in problem.rule
    assert found in problem.found


def test_several_batches_keep_stream_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    runs: list[int] = []
    real = ge._run_suite

    def counting(table: str, frame: Any, checks: Any) -> list[Problem]:
        runs.append(len(frame))
        return real(table, frame, checks)

    monkeypatch.setattr(ge, "_run_suite", counting)
    validator = ClaimsValidator(batch_size=3)
    bad_rows = {1, 4, 6}
    for i in range(7):
        if i == 6:
            validator.set_doc_length("a.txt", 8)  # rows 0-5 were validated before: no length then
        validator.add(_claim(verdict="bogus") if i in bad_rows else _claim())
    result = validator.finish()
    assert runs == [3, 3, 1]
    assert {p.row for p in result.problems if "verdict" in p.rule} == bad_rows
    assert [p.row for p in result.problems if "end must not pass" in p.rule] == [6]


def test_missing_fields_are_reported_once() -> None:
    result = _validate([{"doc_id": "a.txt", "start": 0, "end": 1}])
    [problem] = result.problems
    assert "verdict" in problem.found and "claim_id" in problem.found
    assert set(problem.found.split(", ")) == set(CONTRACT_FIELDS) - {"doc_id", "start", "end"}


# ---- cost


def test_import_does_not_load_great_expectations_pandas_or_scipy() -> None:
    heavy = "('great_expectations', 'pandas', 'scipy')"
    code = f"import sys, pipeline.knowledge.validation; print(*(m in sys.modules for m in {heavy}))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).resolve().parents[1])
    assert done.stdout.split() == ["False", "False", "False"]


def _with_optional(arch: str) -> dict[str, Rows]:
    tables = copy.deepcopy(TABLES)
    tables["precisions"] = [
        {"architecture": arch, "precision": "TF32", "supported": "true", **SRC},
        {"architecture": arch, "precision": "FP8", "supported": "false", **SRC},
    ]
    tables["deprecated_apis"] = [
        {"api": "torch.cuda.amp.GradScaler", "replacement": 'torch.amp.GradScaler("cuda")', "framework": "PyTorch",
         "since": "2.4", "note_zh": "已弃用", **SRC},
    ]
    return tables


# fmt: off
OPTIONAL_BROKEN = [
    ("precisions", 0, {"precision": "FP4X"}, "precision must be one of", "FP4X"),
    ("precisions", 1, {"supported": "maybe"}, "true or false", "maybe"),
    ("precisions", 1, {"architecture": "Vulcan"}, "architecture must be one used in products.csv", "Vulcan"),
    ("precisions", 0, {"source_url": "www.example.com"}, "source_url", "www.example.com"),
    ("deprecated_apis", 0, {"api": "GradScaler()"}, "dotted name", "GradScaler()"),
    ("deprecated_apis", 0, {"source_title": ""}, "source_title", ""),
]
# fmt: on


def test_optional_tables_pass_when_right(tmp_path: Path, no_cache: Path) -> None:
    arch = TABLES["products"][0]["architecture"]
    result = validate_reference(_write(tmp_path / "ref", _with_optional(arch)), cache_dir=no_cache)
    assert result.ok, result.summary()


@pytest.mark.parametrize(("table", "row", "edit", "rule", "found"), OPTIONAL_BROKEN)
def test_optional_tables_are_validated_when_present(tmp_path: Path, no_cache: Path, table: str, row: int,
                                                    edit: dict[str, str], rule: str, found: str) -> None:
    tables = _with_optional(TABLES["products"][0]["architecture"])
    tables[table][row].update(edit)
    result = validate_reference(_write(tmp_path / "ref", tables), cache_dir=no_cache)
    hits = [p for p in _problems(result, f"{table}.csv", row) if rule in p.rule]
    assert hits, result.summary()
    assert found in hits[0].found
