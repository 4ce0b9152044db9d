"""The reference tables under reference/: loading, look-ups, and the validation entry point."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import pandas as pd

from .errors import ReferenceTableError
from .normalize import normalize_key

TABLES: tuple[str, ...] = ("vendors", "products", "series", "specs", "links", "terms")
OPTIONAL_TABLES: tuple[str, ...] = ("precisions", "deprecated_apis")

NUMERIC_ATTRIBUTES: frozenset[str] = frozenset({
    "cuda_cores", "stream_processors", "tensor_cores", "memory_size", "memory_bandwidth",
    "effective_bandwidth", "memory_bus_width", "cache_size", "tdp", "interconnect_bandwidth",
    "launch_year", "mig_instances", "fp64", "fp32", "fp16", "bf16", "tf32", "fp8", "int8", "int4",
    "sm_count", "compute_units", "rt_cores", "fp64_cores", "int32_cores",
})
TEXT_ATTRIBUTES: frozenset[str] = frozenset({"memory_type", "architecture", "gpu_chip", "interface", "manufacturer"})
# peak throughput by precision (TFLOPS, INT8 in TOPS)
THROUGHPUT_ATTRIBUTES: frozenset[str] = frozenset({"fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8"})
# what editors read for each attribute
ATTRIBUTE_ZH: dict[str, str] = {
    "memory_size": "显存容量", "memory_bandwidth": "显存带宽", "memory_type": "显存类型",
    "memory_bus_width": "显存位宽", "effective_bandwidth": "有效带宽", "cuda_cores": "CUDA核心数",
    "tensor_cores": "Tensor Core数", "stream_processors": "流处理器数", "architecture": "架构",
    "sm_count": "SM数", "compute_units": "计算单元（CU）数", "rt_cores": "RT Core数", "fp64_cores": "FP64单元数",
    "int32_cores": "INT32单元数",
    "gpu_chip": "GPU芯片", "vendor": "厂商", "manufacturer": "厂商", "tdp": "功耗",
    "interconnect_bandwidth": "互联带宽", "cache_size": "缓存容量", "launch_year": "发布年份",
    "interface": "接口", "mig_instances": "MIG实例数", "concept": "概念", "code": "代码",
    "aggregate": "多卡合计", "precision": "精度",
    "fp64": "FP64算力", "fp32": "FP32算力", "fp16": "FP16算力", "bf16": "BF16算力",
    "tf32": "TF32算力", "fp8": "FP8算力", "int8": "INT8算力",
}


# the id of a product the tables do not know, recognised by its name's grammar: "model:<vendor>:<squeezed name>"
MODEL_PREFIX = "model:"


def split_list(cell: str) -> list[str]:
    return [p.strip() for p in str(cell).split("|") if p.strip()]


@dataclass(frozen=True)
class SpecRow:
    product_id: str
    variant: str
    attribute: str
    scope: str
    value: float | str
    unit: str
    source_url: str
    source_title: str
    notes: str = ""


@dataclass(frozen=True)
class Product:
    product_id: str
    vendor: str
    family: str
    name: str
    architecture: str
    chip: str
    launch_year: str
    positioning: tuple[str, ...]
    aliases: tuple[str, ...]
    series: tuple[str, ...]


@dataclass(frozen=True)
class Vendor:
    vendor_id: str
    name: str
    aliases: tuple[str, ...]
    makes_gpus: bool
    brands: tuple[str, ...]
    source_url: str
    source_title: str


@dataclass(frozen=True)
class Series:
    series_id: str
    vendor: str
    name: str
    aliases: tuple[str, ...]
    members: tuple[str, ...]
    source_url: str
    source_title: str


@dataclass(frozen=True)
class Link:
    link_id: str
    name: str
    aliases: tuple[str, ...]
    generation: str
    per_direction: float | None
    bidirectional: float | None
    unit: str
    source_url: str
    source_title: str


@dataclass(frozen=True)
class Term:
    term_id: str
    name: str
    aliases: tuple[str, ...]
    owner: str
    category: str
    definition_zh: str
    definition_en: str
    source_url: str
    source_title: str


def _num(cell: str) -> float | None:
    try:
        return float(str(cell).replace(",", ""))
    except ValueError:
        return None


@dataclass
class Reference:
    """All reference tables, indexed for the checker."""

    directory: Path
    fingerprint: str
    vendors: dict[str, Vendor]
    products: dict[str, Product]
    series: dict[str, Series]
    links: dict[str, Link]
    terms: dict[str, Term]
    specs: dict[tuple[str, str], list[SpecRow]] = field(default_factory=dict)
    # (architecture, precision) -> (supported, source_url, source_title), from the optional precisions.csv
    precisions: dict[tuple[str, str], tuple[bool, str, str]] = field(default_factory=dict)

    def rows(self, product_id: str, attribute: str) -> list[SpecRow]:
        return self.specs.get((product_id, attribute), [])

    def name(self, ref_id: str) -> str:
        if ref_id.startswith(MODEL_PREFIX):  # a model the reference does not know: its name as matched
            return ref_id.rsplit(":", 1)[-1].upper()
        for table in (self.products, self.series, self.vendors, self.terms, self.links):
            item = table.get(ref_id)
            if item is not None:
                return item.name
        return ref_id

    def knows(self, ref_id: str) -> bool:
        """The tables have this product, series, link or term."""
        return any(ref_id in t for t in (self.products, self.series, self.links, self.terms, self.vendors))

    def vendor_of(self, ref_id: str) -> str | None:
        if ref_id.startswith(MODEL_PREFIX):
            return ref_id.split(":")[1] or None
        if ref_id in self.products:
            return self.products[ref_id].vendor
        if ref_id in self.series:
            return self.series[ref_id].vendor
        if ref_id in self.terms:
            return self.terms[ref_id].owner
        return None

    def members(self, ref_id: str) -> tuple[str, ...]:
        """A series' member products, or the product itself."""
        if ref_id in self.series:
            return tuple(m for m in self.series[ref_id].members if m in self.products)
        return (ref_id,)

    @property
    def memory_types(self) -> dict[str, str]:
        """Normalised key -> canonical memory type name, from the terms table."""
        return {normalize_key(t.name): t.name for t in self.terms.values() if t.category == "memory"}

    @property
    def architectures(self) -> dict[str, str]:
        return {normalize_key(p.architecture): p.architecture for p in self.products.values() if p.architecture}

    @property
    def chips(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for p in self.products.values():
            for chip in split_list(p.chip.replace("/", "|")):
                out[normalize_key(chip)] = chip
        return out

    def products_with_chip(self, chip: str) -> list[str]:
        key = normalize_key(chip)
        return [p.product_id for p in self.products.values()
                if key in {normalize_key(c) for c in split_list(p.chip.replace("/", "|"))}]


def fingerprint(directory: Path) -> str:
    """The reference version: a hash over every table (the same one that keys the validation cache)."""
    from .validation import reference_fingerprint

    return reference_fingerprint(directory)


def read_tables(directory: Path) -> dict[str, pd.DataFrame]:
    frames: dict[str, pd.DataFrame] = {}
    for name in TABLES:
        path = directory / f"{name}.csv"
        if not path.exists():
            raise ReferenceTableError(
                f"reference table {path} is missing; every run needs {', '.join(t + '.csv' for t in TABLES)} "
                f"in {directory} (see reference/README.md)"
            )
        try:
            frames[name] = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8")
        except (ValueError, UnicodeDecodeError) as e:
            raise ReferenceTableError(f"cannot read {path}: {e}. Save it as UTF-8 CSV with a header row.") from e
    for name in OPTIONAL_TABLES:
        path = directory / f"{name}.csv"
        if path.exists():
            frames[name] = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8")
    return frames


def _g(row: dict[str, str], key: str) -> str:
    return str(row.get(key, "") or "").strip()


def build(directory: Path, frames: dict[str, pd.DataFrame]) -> Reference:
    vendors = {
        _g(r, "vendor_id"): Vendor(
            _g(r, "vendor_id"), _g(r, "name"), tuple(split_list(_g(r, "aliases"))),
            _g(r, "makes_gpus").lower() in ("true", "1", "yes"), tuple(split_list(_g(r, "brands"))),
            _g(r, "source_url"), _g(r, "source_title"),
        )
        for r in frames["vendors"].to_dict("records")
    }
    products = {
        _g(r, "product_id"): Product(
            _g(r, "product_id"), _g(r, "vendor"), _g(r, "family"), _g(r, "name"), _g(r, "architecture"),
            _g(r, "chip"), _g(r, "launch_year"), tuple(split_list(_g(r, "positioning"))),
            tuple(split_list(_g(r, "aliases"))), tuple(split_list(_g(r, "series"))),
        )
        for r in frames["products"].to_dict("records")
    }
    series = {
        _g(r, "series_id"): Series(
            _g(r, "series_id"), _g(r, "vendor"), _g(r, "name"), tuple(split_list(_g(r, "aliases"))),
            tuple(split_list(_g(r, "members"))), _g(r, "source_url"), _g(r, "source_title"),
        )
        for r in frames["series"].to_dict("records")
    }
    # a product may name its series instead of the series naming its members
    for p in products.values():
        for sid in p.series:
            s = series.get(sid)
            if s is not None and p.product_id not in s.members:
                series[sid] = Series(s.series_id, s.vendor, s.name, s.aliases, (*s.members, p.product_id),
                                     s.source_url, s.source_title)
    links = {
        _g(r, "link_id"): Link(
            _g(r, "link_id"), _g(r, "name"), tuple(split_list(_g(r, "aliases"))), _g(r, "generation"),
            _num(_g(r, "per_direction")), _num(_g(r, "bidirectional")), _g(r, "unit") or "GB/s",
            _g(r, "source_url"), _g(r, "source_title"),
        )
        for r in frames["links"].to_dict("records")
    }
    terms = {
        _g(r, "term_id"): Term(
            _g(r, "term_id"), _g(r, "name"), tuple(split_list(_g(r, "aliases"))), _g(r, "owner"),
            _g(r, "category"), _g(r, "definition_zh"), _g(r, "definition_en"), _g(r, "source_url"),
            _g(r, "source_title"),
        )
        for r in frames["terms"].to_dict("records")
    }
    specs: dict[tuple[str, str], list[SpecRow]] = defaultdict(list)
    for r in frames["specs"].to_dict("records"):
        attribute = _g(r, "attribute")
        raw = _g(r, "value")
        value: float | str = raw
        if attribute in NUMERIC_ATTRIBUTES:
            num = _num(raw)
            if num is None:
                continue
            value = num
        specs[(_g(r, "product_id"), attribute)].append(SpecRow(
            _g(r, "product_id"), _g(r, "variant") or "base", attribute, _g(r, "scope"), value, _g(r, "unit"),
            _g(r, "source_url"), _g(r, "source_title"), _g(r, "notes"),
        ))
    # the vendor is a fact too: one row per product, sourced like the vendor table
    for p in products.values():
        v = vendors.get(p.vendor)
        if v is not None and (p.product_id, "manufacturer") not in specs:
            first = next((rows[0] for (pid, _a), rows in specs.items() if pid == p.product_id), None)
            url = first.source_url if first else v.source_url
            title = first.source_title if first else v.source_title
            specs[(p.product_id, "manufacturer")].append(
                SpecRow(p.product_id, "base", "manufacturer", "", v.vendor_id, "", url, title))
    precisions: dict[tuple[str, str], tuple[bool, str, str]] = {}
    if "precisions" in frames:
        for r in frames["precisions"].to_dict("records"):
            precisions[(_g(r, "architecture"), _g(r, "precision").upper())] = (
                _g(r, "supported").lower() == "true", _g(r, "source_url"), _g(r, "source_title"))
    return Reference(directory, fingerprint(directory), vendors, products, series, links, terms, dict(specs),
                     precisions)


@lru_cache(maxsize=4)
def _load(directory: Path, fp: str) -> Reference:
    return build(directory, read_tables(directory))


def load_reference(directory: Path) -> Reference:
    """Load (cached by content hash) the reference tables in ``directory``."""
    directory = Path(directory).resolve()
    if not directory.is_dir():
        raise ReferenceTableError(f"reference folder {directory} not found; pass --reference DIR")
    return _load(directory, fingerprint(directory))
