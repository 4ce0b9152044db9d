"""The reference suite: loading and fingerprinting the reference tables, the pass cache keyed by their
content hash, and the per-table run of the rules in ``reference_rules``."""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from ...errors import ReferenceTableError
from . import ge
from .facts_rules import FACT_CHECKS
from .ge import _exists
from .knowledge_rules import KNOWLEDGE_CHECKS
from .reference_rules import _OPTIONAL_CHECKS, _TABLE_CHECKS, OPTIONAL_COLUMNS, REQUIRED_COLUMNS, _Tables
from .results import Problem, ValidationResult, _result

if TYPE_CHECKING:
    import pandas as pd

CACHE_FILE = "reference-validation.json"


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
    """Changes whenever the rules (the modules of this package) change, so a cached pass is not trusted
    across versions."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(f"{path.name}\0".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


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
            checks += {**_TABLE_CHECKS, **KNOWLEDGE_CHECKS}[name](frame, ref)
        found = ge._run_suite(f"{name}.csv", frame, checks)
        problems += sorted(found, key=lambda p: -1 if p.row is None else p.row)
    for name, required in OPTIONAL_COLUMNS.items():
        if name in tables:
            frame = tables[name].reset_index(drop=True)
            checks = [_exists(c) for c in required]
            if ref.has(name):
                checks += {**_OPTIONAL_CHECKS, **KNOWLEDGE_CHECKS, **FACT_CHECKS}[name](frame, ref)
            found = ge._run_suite(f"{name}.csv", frame, checks)
            problems += sorted(found, key=lambda p: -1 if p.row is None else p.row)
    return _result(problems)
