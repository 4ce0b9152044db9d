"""The relation tables: what hardware has and how it is built, as typed facts with their sources.

Feature support by architecture (``architecture_features.csv``, the features listed in ``features.csv``) and by
product (``product_features.csv``), predecessors and successors (``lineage.csv``), what packages and systems are made
of (``composition.csv``), where a die stands in its family (``die_positions.csv``), what abbreviations stand for and
which terms are not each other (``term_expansions.csv``, ``term_relations.csv``), number formats
(``number_formats.csv``), statements about links and memory (``link_facts.csv``) and launch-day figures that were
later revised (``revisions.csv``). Every table is optional: a reference folder without them loads empty facts.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

from ..normalize import normalize_key

# table -> its columns (all required when the table is present); the validation suite reads this too
FACT_COLUMNS: dict[str, tuple[str, ...]] = {
    "features": ("feature", "aliases", "category", "owner", "name_zh", "source_url", "source_title"),
    "architecture_features": ("architecture_id", "feature", "status", "note", "source_url", "source_title"),
    "product_features": ("product_id", "variant", "feature", "status", "value", "note", "source_url",
                         "source_title"),
    "lineage": ("kind", "item", "successor", "line", "note", "source_url", "source_title"),
    "composition": ("whole", "variant", "component", "count", "kind", "note", "source_url", "source_title"),
    "die_positions": ("subject", "position", "relative_to", "note", "source_url", "source_title"),
    "term_expansions": ("abbreviation", "term", "expansion", "expansion_zh", "wrong_expansions", "note",
                        "source_url", "source_title"),
    "term_relations": ("term", "relation", "other", "note_zh", "source_url", "source_title"),
    "number_formats": ("format", "aliases", "bits", "sign_bits", "exponent_bits", "mantissa_bits", "max_normal",
                       "has_infinity", "has_nan", "note", "source_url", "source_title"),
    "link_facts": ("subject", "property", "value", "note_zh", "source_url", "source_title"),
    "revisions": ("product_id", "variant", "attribute", "scope", "announced", "announced_date", "revised",
                  "revised_date", "note", "source_url", "source_title"),
}
RELATION_TABLES: tuple[str, ...] = tuple(FACT_COLUMNS)

# architecture_features.status: first in the vendor's line / has it / some chips only / has not / dropped / not known
ARCHITECTURE_STATUSES = ("introduced", "supported", "partial", "absent", "removed", "unknown")
HAS = frozenset({"introduced", "supported", "partial"})
HAS_NOT = frozenset({"absent", "removed"})
PRODUCT_STATUSES = ("yes", "no", "unknown")
COMPONENT_KINDS = ("die", "compute_die", "io_die", "memory_die", "cpu_die", "memory_stack", "gpu", "cpu",
                   "switch_chip", "superchip", "tray")
DIE_KINDS = frozenset({"die", "compute_die", "io_die", "memory_die", "cpu_die"})
POSITIONS = ("flagship", "not_flagship", "full_die", "cut_down")
RELATIONS = ("differs_from",)
LINK_PROPERTIES = ("topology", "duplex", "connects", "packaging", "placement", "access_latency_ns", "slot_power_w")


@dataclass(frozen=True)
class Source:
    url: str
    title: str


@dataclass(frozen=True)
class Feature:
    name: str
    aliases: tuple[str, ...]
    category: str
    owner: str
    name_zh: str
    source: Source

    @property
    def label(self) -> str:
        """The feature as an editor reads it: its own name, or its Chinese name where the name is a description
        (2:4 sparsity, multi-die GPU) rather than a product name (NVLink, Tensor Core)."""
        words = self.name.replace("-", " ").split()
        described = any(w.islower() and w.isalpha() and len(w) >= 3 for w in words)
        return self.name_zh if described and self.name_zh else self.name


@dataclass(frozen=True)
class FeatureStatus:
    """One row of architecture_features.csv or product_features.csv."""

    subject: str
    feature: str
    status: str
    note: str
    source: Source
    variant: str = "base"
    value: str = ""

    @property
    def has(self) -> bool | None:
        """True / False, or None when the tables do not know (``unknown``)."""
        if self.status in HAS or self.status == "yes":
            return True
        if self.status in HAS_NOT or self.status == "no":
            return False
        return None


@dataclass(frozen=True)
class Succession:
    kind: str  # architecture | product
    item: str  # an id, or a name the tables do not have (Tesla M4)
    successor: str
    line: str
    note: str
    source: Source


@dataclass(frozen=True)
class Component:
    whole: str
    variant: str
    component: str
    count: int
    kind: str
    note: str
    source: Source


@dataclass(frozen=True)
class DiePosition:
    subject: str
    position: str
    relative_to: str
    note: str
    source: Source


@dataclass(frozen=True)
class Expansion:
    abbreviation: str
    term: str
    expansion: str  # "-": not an abbreviation
    expansion_zh: str
    wrong: tuple[str, ...]
    note: str
    source: Source


@dataclass(frozen=True)
class TermRelation:
    term: str
    relation: str
    other: str
    note_zh: str
    source: Source


@dataclass(frozen=True)
class NumberFormat:
    name: str
    aliases: tuple[str, ...]
    bits: int
    sign_bits: int
    exponent_bits: int
    mantissa_bits: int
    max_normal: float
    has_infinity: bool
    has_nan: bool
    note: str
    source: Source


@dataclass(frozen=True)
class LinkFact:
    subject: str
    property: str
    value: str
    note_zh: str
    source: Source


@dataclass(frozen=True)
class Revision:
    product_id: str
    variant: str
    attribute: str
    scope: str
    announced: float
    announced_date: str
    revised: float
    revised_date: str
    note: str
    source: Source


@dataclass
class Facts:
    """The relation tables, indexed for the extractors and the checks."""

    features: dict[str, Feature] = field(default_factory=dict)
    architectures: dict[tuple[str, str], FeatureStatus] = field(default_factory=dict)
    products: dict[tuple[str, str], list[FeatureStatus]] = field(default_factory=dict)
    lineage: list[Succession] = field(default_factory=list)
    components: dict[str, list[Component]] = field(default_factory=dict)
    positions: dict[str, DiePosition] = field(default_factory=dict)
    expansions: dict[str, Expansion] = field(default_factory=dict)
    relations: list[TermRelation] = field(default_factory=list)
    formats: dict[str, NumberFormat] = field(default_factory=dict)
    links: dict[tuple[str, str], LinkFact] = field(default_factory=dict)
    revisions: dict[tuple[str, str], list[Revision]] = field(default_factory=dict)
    _feature_keys: dict[str, str] = field(default_factory=dict, repr=False)

    def feature(self, name: str) -> Feature | None:
        """The feature a name or alias (as architectures.csv or an article spells it) stands for."""
        key = normalize_key(name)
        found = self._feature_keys.get(key)
        return self.features.get(found) if found else None

    def architecture_status(self, architecture_id: str, feature: str) -> FeatureStatus | None:
        return self.architectures.get((architecture_id, feature))

    def product_status(self, product_id: str, feature: str, variant: str | None = None) -> list[FeatureStatus]:
        """The product's rows for the feature: the variant's own where the text names one, else every row."""
        rows = self.products.get((product_id, feature), [])
        if variant:
            own = [r for r in rows if r.variant != "base" and normalize_key(r.variant) in normalize_key(variant)]
            if own:
                return own
            return [r for r in rows if r.variant == "base"] or rows
        return rows

    def introducers(self, feature: str) -> list[str]:
        """The architectures whose row says they introduced the feature (first in their vendor's line)."""
        return [arch for (arch, f), row in self.architectures.items() if f == feature and row.status == "introduced"]

    def successors(self, item: str, kind: str) -> list[Succession]:
        return [s for s in self.lineage if s.kind == kind and s.item == item]

    def predecessors(self, item: str, kind: str) -> list[Succession]:
        return [s for s in self.lineage if s.kind == kind and s.successor == item]

    def in_lineage(self, item: str, kind: str) -> bool:
        return any(s.kind == kind and item in (s.item, s.successor) for s in self.lineage)

    def ancestors(self, architecture_id: str) -> set[str]:
        """Every architecture before this one in its lines (predecessors of predecessors)."""
        seen: set[str] = set()
        todo = [architecture_id]
        while todo:
            for s in self.predecessors(todo.pop(), "architecture"):
                if s.item not in seen:
                    seen.add(s.item)
                    todo.append(s.item)
        return seen

    def expansion(self, abbreviation: str) -> Expansion | None:
        return self.expansions.get(normalize_key(abbreviation))

    def relation(self, a: str, b: str) -> TermRelation | None:
        """What the tables say of two terms taken for each other (either order), by abbreviation or name."""
        ka, kb = normalize_key(a), normalize_key(b)
        for r in self.relations:
            pair = {normalize_key(r.term), normalize_key(r.other)}
            if pair == {ka, kb}:
                return r
        return None

    def number_format(self, name: str) -> NumberFormat | None:
        key = normalize_key(name)
        for f in self.formats.values():
            if key in {normalize_key(n) for n in (f.name, *f.aliases)}:
                return f
        return None


def _g(row: Mapping[Hashable, object], key: str) -> str:
    return str(row.get(key, "") or "").strip()


def _list(cell: str) -> tuple[str, ...]:
    return tuple(p.strip() for p in cell.split("|") if p.strip())


def _src(row: Mapping[Hashable, object]) -> Source:
    return Source(_g(row, "source_url"), _g(row, "source_title"))


def _float(cell: str) -> float:
    try:
        return float(cell.replace(",", ""))
    except ValueError:
        return float("nan")


def _int(cell: str) -> int:
    try:
        return int(float(cell))
    except ValueError:
        return 0


def build_facts(records: Mapping[str, Sequence[Mapping[Hashable, object]]]) -> Facts:
    """Facts from the tables' rows (table name -> list of row dicts, cells as strings)."""
    facts = Facts()
    for r in records.get("features", ()):
        name = _g(r, "feature")
        facts.features[name] = Feature(name, _list(_g(r, "aliases")), _g(r, "category"), _g(r, "owner"),
                                       _g(r, "name_zh"), _src(r))
        for alias in (name, *_list(_g(r, "aliases"))):
            facts._feature_keys.setdefault(normalize_key(alias), name)
    for r in records.get("architecture_features", ()):
        row = FeatureStatus(_g(r, "architecture_id"), _g(r, "feature"), _g(r, "status"), _g(r, "note"), _src(r))
        facts.architectures[(row.subject, row.feature)] = row
    for r in records.get("product_features", ()):
        row = FeatureStatus(_g(r, "product_id"), _g(r, "feature"), _g(r, "status"), _g(r, "note"), _src(r),
                            _g(r, "variant") or "base", _g(r, "value"))
        facts.products.setdefault((row.subject, row.feature), []).append(row)
    facts.lineage = [Succession(_g(r, "kind"), _g(r, "item"), _g(r, "successor"), _g(r, "line"), _g(r, "note"),
                                _src(r)) for r in records.get("lineage", ())]
    for r in records.get("composition", ()):
        part = Component(_g(r, "whole"), _g(r, "variant") or "base", _g(r, "component"), _int(_g(r, "count")),
                         _g(r, "kind"), _g(r, "note"), _src(r))
        facts.components.setdefault(part.whole, []).append(part)
    for r in records.get("die_positions", ()):
        pos = DiePosition(_g(r, "subject"), _g(r, "position"), _g(r, "relative_to"), _g(r, "note"), _src(r))
        facts.positions[pos.subject] = pos
    for r in records.get("term_expansions", ()):
        e = Expansion(_g(r, "abbreviation"), _g(r, "term"), _g(r, "expansion"), _g(r, "expansion_zh"),
                      _list(_g(r, "wrong_expansions")), _g(r, "note"), _src(r))
        facts.expansions[normalize_key(e.abbreviation)] = e
    facts.relations = [TermRelation(_g(r, "term"), _g(r, "relation"), _g(r, "other"), _g(r, "note_zh"), _src(r))
                       for r in records.get("term_relations", ())]
    for r in records.get("number_formats", ()):
        f = NumberFormat(_g(r, "format"), _list(_g(r, "aliases")), _int(_g(r, "bits")), _int(_g(r, "sign_bits")),
                         _int(_g(r, "exponent_bits")), _int(_g(r, "mantissa_bits")), _float(_g(r, "max_normal")),
                         _g(r, "has_infinity") == "true", _g(r, "has_nan") == "true", _g(r, "note"), _src(r))
        facts.formats[f.name] = f
    for r in records.get("link_facts", ()):
        fact = LinkFact(_g(r, "subject"), _g(r, "property"), _g(r, "value"), _g(r, "note_zh"), _src(r))
        facts.links[(fact.subject, fact.property)] = fact
    for r in records.get("revisions", ()):
        rev = Revision(_g(r, "product_id"), _g(r, "variant") or "base", _g(r, "attribute"), _g(r, "scope"),
                       _float(_g(r, "announced")), _g(r, "announced_date"), _float(_g(r, "revised")),
                       _g(r, "revised_date"), _g(r, "note"), _src(r))
        facts.revisions.setdefault((rev.product_id, rev.attribute), []).append(rev)
    return facts
