"""Validate the reference tables and the run's claims table.

great_expectations stays behind this module and is imported lazily: ``import pipeline.validation``
costs nothing. Rules that GE has no built-in for are computed in pandas as a per-row message
column (empty = fine) and handed to GE as "this boolean column is True", so every problem comes
back through GE's result with the row it is about.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import ReferenceTableError
from .records import CONTRACT_FIELDS, Claim, Qualifier, Verdict

if TYPE_CHECKING:
    import pandas as pd

# ---- the rules, as data

REQUIRED_COLUMNS: dict[str, tuple[str, ...]] = {
    "vendors": ("vendor_id", "name", "aliases", "makes_gpus", "brands", "source_url", "source_title"),
    "products": ("product_id", "vendor", "family", "name", "architecture", "chip", "launch_year",
                 "positioning", "aliases", "series"),
    "series": ("series_id", "vendor", "name", "aliases", "members", "source_url", "source_title"),
    "specs": ("product_id", "variant", "attribute", "scope", "value", "unit", "source_url", "source_title",
              "notes"),
    "links": ("link_id", "name", "aliases", "generation", "lanes", "per_direction", "bidirectional", "unit",
              "source_url", "source_title"),
    "terms": ("term_id", "name", "aliases", "owner", "category", "definition_zh", "definition_en",
              "source_url", "source_title"),
}
# optional tables: validated when present
OPTIONAL_COLUMNS: dict[str, tuple[str, ...]] = {
    "precisions": ("architecture", "precision", "supported", "source_url", "source_title"),
    "deprecated_apis": ("api", "replacement", "framework", "since", "note_zh", "source_url", "source_title"),
}
PRECISIONS = ("FP64", "FP32", "TF32", "BF16", "FP16", "FP8", "INT8", "INT4")
ID_COLUMNS = {"vendors": "vendor_id", "products": "product_id", "series": "series_id", "links": "link_id",
              "terms": "term_id"}
SPEC_KEY = ("product_id", "variant", "attribute", "scope")

COUNT_ATTRIBUTES = ("cuda_cores", "stream_processors", "tensor_cores", "mig_instances")
THROUGHPUT_ATTRIBUTES = ("fp64", "fp32", "fp16", "bf16", "tf32", "fp8", "int8", "int4")
TEXT_ATTRIBUTES = ("memory_type", "interface", "architecture", "gpu_chip")
UNITS: dict[str, frozenset[str]] = {
    **{a: frozenset({""}) for a in COUNT_ATTRIBUTES},
    "memory_size": frozenset({"GB"}),
    "memory_bandwidth": frozenset({"GB/s"}),
    "effective_bandwidth": frozenset({"GB/s"}),
    "interconnect_bandwidth": frozenset({"GB/s"}),
    "cache_size": frozenset({"MB"}),
    "tdp": frozenset({"W"}),
    "memory_bus_width": frozenset({"bit"}),
    "launch_year": frozenset({""}),
    **{a: frozenset({"TFLOPS", "TOPS"}) for a in THROUGHPUT_ATTRIBUTES},
    **{a: frozenset({""}) for a in TEXT_ATTRIBUTES},
}
ATTRIBUTES = frozenset(UNITS)
NUMERIC_ATTRIBUTES = ATTRIBUTES - set(TEXT_ATTRIBUTES)
WHOLE_NUMBER_ATTRIBUTES = frozenset({*COUNT_ATTRIBUTES, "launch_year", "memory_bus_width"})
RANGES: dict[str, tuple[float, float]] = {
    **{a: (0, 30000) for a in COUNT_ATTRIBUTES},
    "tdp": (10, 1500),
    "memory_size": (1, 300),
    "launch_year": (1990, 2030),
}
# memory_bandwidth (GB/s) by the product's memory_type; "HBM" covers every HBM generation
BANDWIDTH_BY_MEMORY: dict[str, tuple[float, float]] = {
    "GDDR5": (20, 600), "GDDR5X": (200, 600), "GDDR6": (100, 1100), "GDDR6X": (400, 1900),
    "GDDR7": (500, 2000), "HBM": (200, 10000),
}
ANY_MEMORY = (20, 10000)
TERM_CATEGORIES = ("interconnect", "virtualization", "partitioning", "compute_unit", "memory", "cache",
                   "software", "architecture", "dataset", "benchmark", "model", "brand")
URL_PATTERN = r"^https?://\S+$"
NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")

CLAIM_NUMERIC_ATTRIBUTES = NUMERIC_ATTRIBUTES | {"aggregate"}
VERDICTS = tuple(v.value for v in Verdict)
QUALIFIERS = tuple(q.value for q in Qualifier)
CACHE_FILE = "reference-validation.json"


@dataclass(frozen=True)
class Problem:
    """One failed rule. ``row`` is the 0-based data row (reference: row 0 is the first line under the
    header, so CSV line ``row + 2`` when no cell spans lines; claims: the claim's position in the
    stream, from 0), or None for a table-level problem such as a missing column."""

    table: str
    row: int | None
    rule: str
    column: str | None
    found: str

    def describe(self) -> str:
        if self.row is None:
            return f"{self.table}: {self.rule}" + (f" (found {self.found})" if self.found else "")
        return f"{self.table} row {self.row}: {self.rule} (found {self.found!r})"


@dataclass(frozen=True)
class ValidationResult:
    ok: bool
    problems: tuple[Problem, ...]

    def summary(self) -> str:
        """One line per problem, e.g. ``specs.csv row 12: unit must be one of GB/s for ... (found 'GB')``."""
        if not self.problems:
            return "no problems found"
        return "\n".join(p.describe() for p in self.problems)


def _result(problems: Sequence[Problem]) -> ValidationResult:
    return ValidationResult(ok=not problems, problems=tuple(problems))


# ---- one check = one GE expectation, plus how to word a failing row


@dataclass(frozen=True)
class _Check:
    expect: str  # exists | in_set | regex | unique | compound_unique
    column: str  # what GE looks at
    rule: str  # the message; for computed checks the name of the column holding per-row messages
    label: str | None  # Problem.column
    found: str | None = None  # column whose value is reported as found (default: label)
    arg: Any = None  # value set, regex or key columns
    rule_in_column: bool = False


def _exists(column: str) -> _Check:
    return _Check("exists", column, f"missing required column {column!r}", column)


def _in_set(column: str, values: Sequence[str], rule: str) -> _Check:
    return _Check("in_set", column, rule, column, arg=sorted(values))


def _matches(column: str, regex: str, rule: str) -> _Check:
    return _Check("regex", column, rule, column, arg=regex)


def _unique(column: str) -> _Check:
    return _Check("unique", column, f"{column} must be unique", column)


def _computed(frame: pd.DataFrame, name: str, messages: Sequence[str], label: str | None,
              found: Sequence[str] | None = None) -> _Check:
    """Add a per-row message column (empty = fine) and a boolean column GE expects to be True."""
    frame[f"__msg_{name}"] = list(messages)
    frame[f"__ok_{name}"] = frame[f"__msg_{name}"] == ""
    found_column = label
    if found is not None:
        found_column = f"__found_{name}"
        frame[found_column] = list(found)
    return _Check("in_set", f"__ok_{name}", f"__msg_{name}", label, found_column, [True], rule_in_column=True)


def _row_messages(frame: pd.DataFrame, fn: Callable[[Mapping[str, str]], str]) -> list[str]:
    return [fn(row) for row in frame.to_dict("records")]


# ---- great_expectations, lazily


@functools.cache
def _batch_definition() -> Any:
    import great_expectations as gx
    from great_expectations.data_context.types.base import ProgressBarsConfig

    context = gx.get_context(mode="ephemeral")
    context.variables.progress_bars = ProgressBarsConfig(globally=False, metric_calculations=False)
    asset = context.data_sources.add_pandas("gpu_factcheck").add_dataframe_asset("table")
    return asset.add_batch_definition_whole_dataframe("whole")


def _expectation(check: _Check, index: int) -> Any:
    import great_expectations.expectations as gxe

    meta = {"check": index}
    if check.expect == "exists":
        return gxe.ExpectColumnToExist(column=check.column, meta=meta)
    if check.expect == "in_set":
        return gxe.ExpectColumnValuesToBeInSet(column=check.column, value_set=check.arg, meta=meta)
    if check.expect == "regex":
        return gxe.ExpectColumnValuesToMatchRegex(column=check.column, regex=check.arg, meta=meta)
    if check.expect == "unique":
        return gxe.ExpectColumnValuesToBeUnique(column=check.column, meta=meta)
    return gxe.ExpectCompoundColumnsToBeUnique(column_list=list(check.arg), meta=meta)


def _run_suite(table: str, frame: pd.DataFrame, checks: Sequence[_Check]) -> list[Problem]:
    """Validate ``frame`` with one GE suite; turn each unexpected row into a Problem."""
    import great_expectations as gx

    if not checks:
        return []
    suite = gx.ExpectationSuite(name=table, expectations=[_expectation(c, i) for i, c in enumerate(checks)])
    batch = _batch_definition().get_batch(batch_parameters={"dataframe": frame})
    outcome = batch.validate(suite, result_format="COMPLETE")
    problems: list[Problem] = []
    for result in outcome.results:
        if not result.success:
            check = checks[int(result.expectation_config.meta["check"])]
            problems += _problems(table, frame, check, result)
    return problems


def _problems(table: str, frame: pd.DataFrame, check: _Check, result: Any) -> list[Problem]:
    if check.expect == "exists":
        columns = ", ".join(map(str, frame.columns))
        return [Problem(table, None, check.rule, check.label, f"columns: {columns}")]
    rows = result.result.get("unexpected_index_list")
    if rows is None:  # the expectation itself failed to run
        return [Problem(table, None, f"could not check {check.column}: {_exception_message(result)}",
                        check.label, "")]
    return [_row_problem(table, frame, check, int(row)) for row in rows]


def _row_problem(table: str, frame: pd.DataFrame, check: _Check, row: int) -> Problem:
    rule = str(frame.at[row, check.rule]) if check.rule_in_column else check.rule
    if check.expect == "compound_unique":
        found = " / ".join(str(frame.at[row, c]) for c in check.arg)
    else:
        found = str(frame.at[row, check.found or check.label or check.column])
    return Problem(table, row, rule, check.label, found)


def _exception_message(result: Any) -> str:
    info = result.exception_info or {}
    infos = [info] if "exception_message" in info else list(info.values())
    return "; ".join(str(i.get("exception_message")) for i in infos if isinstance(i, dict)) or "unknown error"


# ---- loading and fingerprinting the reference


def load_reference_tables(reference_dir: Path) -> dict[str, pd.DataFrame]:
    """Every ``*.csv`` in the folder as strings (empty cells stay ``""``), by file stem.

    Raises:
        ReferenceTableError: a documented table is missing or a file cannot be parsed.
    """
    import pandas as pd

    for name in REQUIRED_COLUMNS:
        if not (reference_dir / f"{name}.csv").is_file():
            raise ReferenceTableError(
                f"reference table {reference_dir / f'{name}.csv'} is missing; reference/README.md lists the "
                f"tables ({', '.join(f'{n}.csv' for n in REQUIRED_COLUMNS)}) and their columns"
            )
    tables = {}
    for path in sorted(reference_dir.glob("*.csv")):
        try:
            tables[path.stem] = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8")
        except (ValueError, UnicodeDecodeError, pd.errors.ParserError) as e:
            raise ReferenceTableError(f"cannot read {path}: {e}; write it as UTF-8 CSV with a header") from e
    return tables


def reference_fingerprint(reference_dir: Path) -> str:
    """sha256 over the names and contents of every ``*.csv`` in the folder."""
    if not reference_dir.is_dir():
        raise ReferenceTableError(f"reference folder not found: {reference_dir}; pass --reference DIR")
    digest = hashlib.sha256()
    for path in sorted(reference_dir.glob("*.csv")):
        data = path.read_bytes()
        digest.update(f"{path.name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gpu-factcheck"


@functools.cache
def _suite_version() -> str:
    """Changes whenever the rules (this file) change, so a cached pass is not trusted across versions."""
    return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]


def _cached_pass(cache_file: Path, fingerprint: str) -> bool:
    try:
        data = json.loads(cache_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data == _cache_entry(fingerprint)


def _cache_entry(fingerprint: str) -> dict[str, str]:
    return {"fingerprint": fingerprint, "suite": _suite_version(), "result": "ok"}


def _remember_pass(cache_file: Path, fingerprint: str) -> None:
    """Best effort: an unwritable cache only means validating again next time."""
    try:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache_file.with_name(f"{cache_file.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(_cache_entry(fingerprint)), encoding="utf-8")
        os.replace(tmp, cache_file)
    except OSError:
        pass


def validate_reference(reference_dir: Path, *, cache_dir: Path | None = None) -> ValidationResult:
    """Run the reference suite, unless these exact CSV files already passed it (cached by sha256).

    Raises:
        ReferenceTableError: a table is missing or unreadable (problems with rows are returned instead).
    """
    fingerprint = reference_fingerprint(reference_dir)
    cache_file = (cache_dir or default_cache_dir()) / CACHE_FILE
    if _cached_pass(cache_file, fingerprint):
        return _result(())
    result = validate_tables(load_reference_tables(reference_dir))
    if result.ok:
        _remember_pass(cache_file, fingerprint)
    return result


# ---- the reference suite


@dataclass(frozen=True)
class _Tables:
    """The loaded tables; only those with every required column take part in cross-table rules."""

    all: Mapping[str, pd.DataFrame]

    def has(self, name: str) -> bool:
        return name in self.all and set(REQUIRED_COLUMNS[name]) <= set(self.all[name].columns)

    def ids(self, name: str) -> list[str]:
        return sorted(set(self.all[name][ID_COLUMNS[name]]))


def validate_tables(tables: Mapping[str, pd.DataFrame]) -> ValidationResult:
    """Validate loaded reference tables (as from ``load_reference_tables``)."""
    ref = _Tables(tables)
    problems: list[Problem] = []
    for name, required in REQUIRED_COLUMNS.items():
        if name not in tables:
            problems.append(Problem(f"{name}.csv", None, "table is missing", None, ""))
            continue
        frame = tables[name].reset_index(drop=True)
        checks = [_exists(c) for c in required]
        if ref.has(name):
            checks += _TABLE_CHECKS[name](frame, ref)
        found = _run_suite(f"{name}.csv", frame, checks)
        problems += sorted(found, key=lambda p: -1 if p.row is None else p.row)
    for name, required in OPTIONAL_COLUMNS.items():
        if name in tables:
            frame = tables[name].reset_index(drop=True)
            checks = [_exists(c) for c in required] + _OPTIONAL_CHECKS[name](frame, ref)
            found = _run_suite(f"{name}.csv", frame, checks)
            problems += sorted(found, key=lambda p: -1 if p.row is None else p.row)
    return _result(problems)


def _common_checks(frame: pd.DataFrame, name: str) -> list[_Check]:
    id_column = ID_COLUMNS.get(name)
    checks = []
    if id_column:
        checks += [_matches(id_column, r"\S", f"{id_column} must not be empty"), _unique(id_column)]
    if "source_url" in frame.columns:
        checks += [
            _matches("source_url", URL_PATTERN, "source_url must be an http(s) URL without spaces"),
            _matches("source_title", r"\S", "source_title must not be empty"),
        ]
    return checks


def _items(cell: str) -> list[str]:
    return [item.strip() for item in cell.split("|") if item.strip()]


def _vendor_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    return [*_common_checks(frame, "vendors"),
            _in_set("makes_gpus", ("true", "false"), "makes_gpus must be true or false")]


def _product_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    checks = [*_common_checks(frame, "products"),
              _matches("architecture", r"\S", "architecture must not be empty"),
              _computed(frame, "launch_year", _row_messages(frame, _launch_year_message), "launch_year")]
    if ref.has("vendors"):
        checks.append(_known_vendor(ref))
    if ref.has("specs"):
        specs = ref.all["specs"]
        sourced = set(specs.loc[specs["source_url"].str.strip() != "", "product_id"])
        messages = ["" if p in sourced else "product needs at least one specs.csv row with a source"
                    for p in frame["product_id"]]
        checks.append(_computed(frame, "has_specs", messages, "product_id"))
    if ref.has("series"):
        series = set(ref.ids("series"))
        messages = [_unknown("series", _items(cell), series, "series.csv") for cell in frame["series"]]
        checks.append(_computed(frame, "series_exist", messages, "series"))
    checks.append(_computed(frame, "alias", _alias_messages(ref, "products"), "aliases"))
    return checks


def _launch_year_message(row: Mapping[str, str]) -> str:
    year = row["launch_year"].strip()
    if year and not (year.isdigit() and 1990 <= int(year) <= 2030):
        return "launch_year must be a year from 1990 to 2030, or empty"
    return ""


def _unknown(what: str, items: Sequence[str], known: set[str], table: str) -> str:
    missing = [i for i in items if i not in known]
    return f"{what} {', '.join(missing)} not found in {table}" if missing else ""


def _series_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    checks = [*_common_checks(frame, "series"),
              _computed(frame, "alias", _alias_messages(ref, "series"), "aliases")]
    if ref.has("vendors"):
        checks.append(_known_vendor(ref))
    if ref.has("products"):
        products = set(ref.ids("products"))
        messages = [_unknown("members", _items(cell), products, "products.csv") for cell in frame["members"]]
        checks.append(_computed(frame, "members_exist", messages, "members"))
    return checks


def _known_vendor(ref: _Tables) -> _Check:
    return _in_set("vendor", ref.ids("vendors"), "vendor must be a vendor_id from vendors.csv")


def _alias_messages(ref: _Tables, name: str) -> list[str]:
    """Per row of ``name``: the aliases an earlier product or series row already uses (case-insensitive)."""
    owners: dict[str, tuple[str, int, str]] = {}
    messages: dict[str, list[str]] = {}
    for table in ("products", "series"):
        if not ref.has(table):
            continue
        rows = ref.all[table].reset_index(drop=True)
        messages[table] = [_claim_aliases(owners, table, i, r) for i, r in enumerate(rows.to_dict("records"))]
    return messages[name]


def _claim_aliases(
    owners: dict[str, tuple[str, int, str]], table: str, row: int, record: Mapping[str, str]
) -> str:
    owner_id = record[ID_COLUMNS[table]]
    clashes = []
    for key, alias in {a.casefold(): a for a in _items(record["aliases"])}.items():
        first = owners.setdefault(key, (table, row, owner_id))
        if (first[0], first[2]) != (table, owner_id):
            clashes.append(f"alias {alias!r} is also used by {first[0]}.csv row {first[1]} ({first[2]})")
    return "; ".join(clashes)


def _spec_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    memory = _memory_types(frame)
    checks = [
        *_common_checks(frame, "specs"),
        _in_set("attribute", sorted(ATTRIBUTES), "attribute must be one listed in reference/README.md"),
        _Check("compound_unique", SPEC_KEY[0], f"more than one row for ({', '.join(SPEC_KEY)})",
               ",".join(SPEC_KEY), arg=SPEC_KEY),
        _computed(frame, "unit", _row_messages(frame, _unit_message), "unit"),
        _computed(frame, "value", _row_messages(frame, _value_message), "value"),
        _computed(frame, "range", _row_messages(frame, lambda r: _range_message(r, memory)), "value"),
    ]
    if ref.has("products"):
        checks.append(_in_set("product_id", ref.ids("products"), "product_id must exist in products.csv"))
    return checks


def _unit_message(row: Mapping[str, str]) -> str:
    allowed = UNITS.get(row["attribute"])
    if allowed is None or row["unit"] in allowed:
        return ""
    if allowed == {""}:
        return f"unit must be empty for {row['attribute']}"
    return f"unit must be one of {'/'.join(sorted(allowed))} for {row['attribute']}"


def _number(text: str) -> float | None:
    return float(text) if NUMBER.fullmatch(text) else None


def _value_message(row: Mapping[str, str]) -> str:
    attribute, value = row["attribute"], row["value"]
    if attribute not in ATTRIBUTES:
        return ""
    if attribute not in NUMERIC_ATTRIBUTES:
        return "" if value.strip() else f"value must not be empty for {attribute}"
    number = _number(value)
    if number is None:
        return f"value must be a number for {attribute}"
    if attribute in WHOLE_NUMBER_ATTRIBUTES and not number.is_integer():
        return f"value must be a whole number for {attribute}"
    if number < 0 or (number == 0 and attribute not in COUNT_ATTRIBUTES):
        return f"value must be {'>= 0' if attribute in COUNT_ATTRIBUTES else 'positive'} for {attribute}"
    return ""


def _memory_types(specs: pd.DataFrame) -> dict[tuple[str, str], str]:
    rows = specs[specs["attribute"] == "memory_type"]
    keys = zip(rows["product_id"], rows["variant"], strict=True)
    return {key: kind.strip() for key, kind in zip(keys, rows["value"], strict=True)}


def _range_message(row: Mapping[str, str], memory: Mapping[tuple[str, str], str]) -> str:
    attribute, number = row["attribute"], _number(row["value"])
    if number is None or _value_message(row):
        return ""  # reported by the value rule
    if attribute == "memory_bandwidth":
        kind = memory.get((row["product_id"], row["variant"])) or memory.get((row["product_id"], "base"), "")
        low, high = _bandwidth_range(kind)
        where = f" for {kind} memory" if kind else " (no memory_type row for this product)"
    elif attribute in RANGES:
        (low, high), where = RANGES[attribute], ""
    else:
        return ""
    if low <= number <= high:
        return ""
    return f"{attribute} must be within {low:g}-{high:g} {row['unit']}".rstrip() + where


def _bandwidth_range(memory_type: str) -> tuple[float, float]:
    kind = memory_type.upper()
    if kind.startswith("HBM"):
        return BANDWIDTH_BY_MEMORY["HBM"]
    return BANDWIDTH_BY_MEMORY.get(kind, ANY_MEMORY)


def _link_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    return _common_checks(frame, "links")


def _term_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    return [*_common_checks(frame, "terms"),
            _in_set("category", TERM_CATEGORIES, "category must be one listed in reference/README.md")]


def _precision_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    checks = [*_common_checks(frame, "precisions"),
              _in_set("precision", PRECISIONS, "precision must be one of " + ", ".join(PRECISIONS)),
              _in_set("supported", ("true", "false"), "supported must be true or false")]
    if ref.has("products"):
        known = set(ref.all["products"]["architecture"])
        messages = _row_messages(frame, lambda r: "" if r["architecture"] in known else
                                 "architecture must be one used in products.csv")
        checks.append(_computed(frame, "precision_architecture", messages, "architecture"))
    return checks


def _deprecated_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    return [*_common_checks(frame, "deprecated_apis"),
            _matches("api", r"^[A-Za-z_][\w.]*\.[A-Za-z_]\w*$",
                     "api must be a dotted name such as torch.cuda.amp.GradScaler"),
            _matches("replacement", r"\S", "replacement must not be empty")]


_OPTIONAL_CHECKS: dict[str, Callable[[pd.DataFrame, _Tables], list[_Check]]] = {
    "precisions": _precision_checks, "deprecated_apis": _deprecated_checks,
}

_TABLE_CHECKS: dict[str, Callable[[pd.DataFrame, _Tables], list[_Check]]] = {
    "vendors": _vendor_checks, "products": _product_checks, "series": _series_checks,
    "specs": _spec_checks, "links": _link_checks, "terms": _term_checks,
}


# ---- the claims suite


class ClaimsValidator:
    """Validate the run's claims in batches as they stream out, so memory stays flat.

    A batch is checked against the document lengths known when it is validated; offsets of a
    document whose length is not known yet are only checked for 0 <= start <= end.
    """

    def __init__(self, doc_lengths: Mapping[str, int] | None = None, batch_size: int = 2000) -> None:
        self._lengths: dict[str, int] = dict(doc_lengths or {})
        self._batch_size = max(1, batch_size)
        self._batch: list[Mapping[str, Any]] = []
        self._validated = 0
        self._problems: list[Problem] = []

    def add(self, claim: Mapping[str, Any] | Claim) -> None:
        self._batch.append(claim.to_dict() if isinstance(claim, Claim) else claim)
        if len(self._batch) >= self._batch_size:
            self._flush()

    def set_doc_length(self, doc_id: str, n: int) -> None:
        self._lengths[doc_id] = n

    @property
    def pending(self) -> int:
        """Claims added but not validated yet."""
        return len(self._batch)

    def finish(self) -> ValidationResult:
        """Validate what is left; return every problem found so far."""
        self._flush()
        return _result(self._problems)

    def _flush(self) -> None:
        if not self._batch:
            return
        frame, checks = _claims_frame(self._batch, self._validated, self._lengths)
        self._problems += _run_suite("claims", frame, checks)
        self._validated += len(self._batch)
        self._batch = []


def _claims_frame(
    claims: Sequence[Mapping[str, Any]], first_row: int, lengths: Mapping[str, int]
) -> tuple[pd.DataFrame, list[_Check]]:
    import pandas as pd

    frame = pd.DataFrame(index=range(first_row, first_row + len(claims)))
    frame["verdict"] = [_as_label(c, "verdict") for c in claims]
    frame["qualifier"] = [_as_label(c, "qualifier") for c in claims]
    checks = [
        _computed(frame, "fields", [_fields_message(c) for c in claims], None,
                  found=[", ".join(f for f in CONTRACT_FIELDS if f not in c) for c in claims]),
        _in_set("verdict", VERDICTS, f"verdict must be one of {'/'.join(VERDICTS)}"),
        _in_set("qualifier", QUALIFIERS, f"qualifier must be one of {'/'.join(QUALIFIERS)}"),
        _computed(frame, "offsets", [_offsets_message(c, lengths) for c in claims], "start",
                  found=[f"start={c.get('start')!r} end={c.get('end')!r}" for c in claims]),
        _computed(frame, "value", [_claim_value_message(c) for c in claims], "value",
                  found=[repr(c.get("value")) for c in claims]),
        _computed(frame, "multiplier", [_multiplier_message(c) for c in claims], "multiplier",
                  found=[repr(c.get("multiplier")) for c in claims]),
    ]
    return frame, checks


def _as_label(claim: Mapping[str, Any], key: str) -> str | None:
    """The field as text for an in-set check; None (GE skips it) when absent: the fields rule says so."""
    if key not in claim:
        return None
    value = claim[key]
    if isinstance(value, Enum):
        value = value.value
    return value if isinstance(value, str) else json.dumps(value, default=repr)


def _fields_message(claim: Mapping[str, Any]) -> str:
    return "" if all(f in claim for f in CONTRACT_FIELDS) else "claim lacks contract fields"


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _offsets_message(claim: Mapping[str, Any], lengths: Mapping[str, int]) -> str:
    if "start" not in claim or "end" not in claim:
        return ""
    start, end = claim["start"], claim["end"]
    if not (_is_int(start) and _is_int(end)):
        return "start and end must be whole numbers"
    if not 0 <= start <= end:
        return "offsets must satisfy 0 <= start <= end"
    length = lengths.get(str(claim.get("doc_id")))
    if length is not None and end > length:
        return f"end must not pass the end of the document ({length} characters)"
    return ""


def _claim_value_message(claim: Mapping[str, Any]) -> str:
    attribute = claim.get("attribute")
    if not isinstance(attribute, str) or attribute not in CLAIM_NUMERIC_ATTRIBUTES or "value" not in claim:
        return ""
    value = claim["value"]
    if _is_number(value):
        return ""
    if claim.get("qualifier") == Qualifier.RANGE.value:
        pair = isinstance(value, (list, tuple)) and len(value) == 2 and all(map(_is_number, value))
        return "" if pair else f"value must be a number or a list of two numbers for a range of {attribute}"
    return f"value must be a number for {attribute}"


def _multiplier_message(claim: Mapping[str, Any]) -> str:
    if "multiplier" not in claim:
        return ""
    m = claim["multiplier"]
    return "" if _is_int(m) and m >= 1 else "multiplier must be a whole number >= 1"
