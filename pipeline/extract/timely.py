"""Claims whose truth depends on when they were written: "X是NVIDIA最新的架构" (``newest``), "某架构只有一款产品"
(``only_one``), and what a vendor's cards as a class do now ("N卡的流处理器频率一般是核心频率的两倍": a ``supports``
claim of the vendor's current architectures). Each carries the article's date (``extra["as_of"]``: the front
matter's ``date:``, else the date in the heading the claim is under), by which the checker judges it; without one
the checker says ``time_dependent``. Words are data (``facts.csv`` roles ``newest_word``, ``only_one_word``,
``vendor_class``, ``hot_clock_phrase``).
"""

from __future__ import annotations

import re

from ..knowledge.reference import Reference
from ..lexicon.scanning import Gated
from ..records import Document, Mention, Scope
from . import cues
from .draft import Draft
from .subjects import DocState, Subject, is_comparative

LEX = cues.LEX
TIME_ATTRIBUTES = frozenset({"newest", "only_one"})
_W = LEX.alt

_VENDOR = r"(?:NVIDIA|英伟达|AMD|英特尔|Intel)"
_NEWEST_AFTER = re.compile(rf"\s*(?:是|为|作为|成为|乃是)\s*(?:了)?\s*{_VENDOR}?\s*(?:的)?\s*(?:{_W('newest_word')})",
                           re.I)
_NEWEST_BEFORE = re.compile(rf"{_VENDOR}?\s*(?:的)?\s*(?:{_W('newest_word')})\s*(?:的)?\s*"
                            r"(?:GPU|数据中心GPU)?\s*(?:架构|旗舰|显卡|GPU)?\s*$", re.I)
_ONLY_ONE = re.compile(rf"\s*(?:架构)?\s*(?:的)?\s*(?:GPU|产品|显卡)?\s*(?:{_W('only_one_word')})")
_HOT_CLOCK = Gated(re.compile(_W("hot_clock_phrase")))
_VENDOR_CLASS = tuple(LEX.groups("vendor_class"))
_FRONT_DATE = re.compile(r"\A\s*---\s*\n(?:.*\n){0,40}?\s*date\s*:\s*[\"']?(?P<y>(?:19|20)\d{2})"
                         r"(?:[-/.](?P<m>\d{1,2}))?", re.I)
# a heading dates its section with a month (2024年3月, 2023-05) or as of a year (截至2024年); a bare year next to a
# card is its launch year
_HEADING_DATE = re.compile(r"(?P<y>(?:19|20)\d{2})\s*(?:年|[-/.])\s*(?P<m>\d{1,2})(?:\s*月|(?![\d.]))|"
                           r"(?:截至|截止|更新于|写于|as of)\s*(?P<y2>(?:19|20)\d{2})", re.I)


def document_date(doc: Document) -> str | None:
    """The article's date as YYYY or YYYY-MM: the ``date:`` of its front matter."""
    found = _FRONT_DATE.match(doc.text)
    return _as_date(found) if found else None


def heading_date(text: str) -> str | None:
    """A dated heading ("## 2024年3月更新", "# 2023-05", "截至2024年"): the date its section is written as of."""
    found = _HEADING_DATE.search(text)
    if found is None:
        return None
    return found.group("y2") if found.group("y2") else _as_date(found)


def _as_date(found: re.Match[str]) -> str:
    month = found.group("m")
    return f"{found.group('y')}-{int(month):02d}" if month and 1 <= int(month) <= 12 else found.group("y")


def timely_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference) -> list[Draft]:
    """Newest, only-one and vendor-class claims in one sentence."""
    out: list[Draft] = []
    as_of = state.as_of
    for m in mentions:
        kind = ref.kind_of(_id(ref, m))
        if kind not in ("architecture", "product") or is_comparative(text, m):
            continue
        said = _NEWEST_AFTER.match(text, m.end)
        before = _NEWEST_BEFORE.search(text, max(0, m.start - 24), m.start) if said is None else None
        if said is not None:
            out.append(_draft(m.start, said.end(), ref, m, "newest", kind, as_of))
            continue
        if before is not None:
            out.append(_draft(before.start(), m.end, ref, m, "newest", kind, as_of))
            continue
        only = _ONLY_ONE.match(text, m.end) if kind == "architecture" else None
        if only is not None:
            out.append(_draft(m.start, only.end(), ref, m, "only_one", kind, as_of))
    out += _vendor_class(text, as_of)
    return out


def _id(ref: Reference, m: Mention) -> str:
    if m.kind == "architecture":
        found = ref.entity(m.ref)
        return found.id if found is not None else m.ref
    return m.ref


def _draft(start: int, end: int, ref: Reference, m: Mention, attribute: str, kind: str, as_of: str | None) -> Draft:
    subject = _id(ref, m)
    extra: dict[str, object] = {"kind": kind, **({"as_of": as_of} if as_of else {})}
    return Draft(start, end, Subject(subject, m.text, m.variant, 1, "clause", m), attribute, subject, None,
                 scope=Scope.FAMILY if kind == "architecture" else Scope.PRODUCT, extra=extra)


def _vendor_class(text: str, as_of: str | None) -> list[Draft]:
    """"N卡的流处理器频率一般是核心频率的两倍": the shader hot clock, said of a vendor's cards as they are now."""
    out: list[Draft] = []
    for hit in _HOT_CLOCK.finditer(text):
        cs, _ce = cues.clause_bounds(text, hit.start())
        vendor = next((v for v, p in _VENDOR_CLASS if p.search(text, cs, hit.start())), None)
        if vendor is None:
            continue
        extra: dict[str, object] = {"vendor_class": True, **({"as_of": as_of} if as_of else {})}
        out.append(Draft(hit.start(), hit.end(), Subject(vendor, vendor, None, 1, "clause"), "supports",
                         "shader hot clock", None, scope=Scope.FAMILY, extra=extra))
    return out
