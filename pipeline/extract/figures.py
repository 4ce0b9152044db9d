"""The open attribute vocabulary at work: which row of ``pipeline/lexicon/figures.csv`` a figure is a figure of, when
no dedicated extractor reads it, and the figures no row explains (recorded, never dropped).

A count takes the vocabulary word written right after it (176个ROP单元, 4个Warp调度器); any figure takes the nearest
word before it in its clause that only a label, a verb or a hedge separates from it (基础频率为2235MHz, 纹理单元：
64), or one right after its unit (2520MHz的加速频率). A ``term`` row's words are the value themselves (被动散热, 双槽).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..lexicon.figures import QUANTITY_KINDS, FigureRow, load_figures
from ..lexicon.scanning import Gated, any_of
from ..records import UNKNOWN_FIGURE, Mention
from .cues import LEX, UNIT_NAME, clause_bounds, negated
from .draft import Draft
from .quantities import Quantity
from .scope import figure_scope
from .subjects import NO_OWNER, DocState, resolve

ROWS = tuple(r for r in load_figures() if r.kind != "term")
TERMS = tuple(r for r in load_figures() if r.kind == "term")
UNKNOWN = UNKNOWN_FIGURE
# quantities worth recording though no row names their attribute: the units of hardware figures
RECORDED_KINDS = frozenset({"rate", "tput", "freq", "size", "power", "bits", "area", "length", "count"})

# a clause with one of these words says what its figure is not (a need, a PSU, the whole machine, a measurement):
# the figure is understood, and left alone rather than recorded as not understood
_ALL_KINDS = ("measured", "not_a_spec")
_LEFT_ALONE: dict[str, re.Pattern[str]] = {
    kind: any_of(LEX.regex(role) for role in (*roles, *_ALL_KINDS))
    for kind, roles in (("size", ("not_the_card", "model_verb")),
                        ("power", ("not_rated_power", "psu_word")), ("rate", ("not_card_rate",)))
}
LEFT_ALONE_ANY = any_of(LEX.regex(role) for role in _ALL_KINDS)

_BY_KIND: dict[str, tuple[FigureRow, ...]] = {
    kind: tuple(r for r in ROWS if kind in QUANTITY_KINDS[r.kind])
    for kind in ("count", "bare", "freq", "rate", "size", "length", "power", "tput", "year", "area")
}
_ANY: dict[str, re.Pattern[str]] = {k: any_of(r.pattern for r in rows) for k, rows in _BY_KIND.items() if rows}
_ANY_TERM = Gated(any_of(r.pattern for r in TERMS))
# between a label and its figure: a colon, a copula or verb, a hedge ("基础频率为2235MHz", "纹理单元：64",
# "频率最高可达2505MHz")
_LABEL_GAP = re.compile(r"\s*(?:数|数量|数目|总数|的数量)?\s*(?:[:：=]|为|是|有|达|共|约|高达|多达|可达|最高|最多|最大|"
                        r"可|能|达到|提升至|提升到|在|:|传输|运行在|工作在)*\s*(?:了)?\s*(?:约|高达|多达)?\s*$")
# before a count's noun: the classifier and a few describing characters ("176个ROP单元", "8个HBM3e堆栈")
_COUNT_LEAD = re.compile(r"\s*(?:\\?\*\s*|×\s*)?(?:个|颗|条|组|块|路|套|枚)?\s*(?:的)?\s*")
# a counted noun after a classifier: a word or a Han character, not punctuation
_NOUN_AFTER = re.compile(r"[\s的]*[A-Za-z\u4e00-\u9fff]")
_UNIT_AFTER = re.compile(r"\s*(?:的)?\s*")


@dataclass(frozen=True)
class OpenFigure:
    row: FigureRow | None  # None: a recorded figure no row explains
    cue: str  # the words that said it (for explain)


def open_attribute(text: str, q: Quantity, mentions: list[Mention]) -> OpenFigure | None:
    """The vocabulary row the figure ``q`` of sentence ``text`` is a figure of, or None."""
    rows = _BY_KIND.get(q.kind, ())
    if not rows:
        return None
    cs, _ce = clause_bounds(text, q.start)
    if q.kind in ("count", "bare"):
        right = text[q.end:q.end + 24]
        lead = _COUNT_LEAD.match(right)
        at = lead.end() if lead else 0
        if q.low == q.high == 1 and UNIT_NAME.match(right, at):
            return None  # "一个GPC有18个SM": one unit, the scope of the figures after it
        if _ANY[q.kind].match(right, at):
            for r in rows:
                hit = r.pattern.match(right, at)
                if hit:
                    return OpenFigure(r, hit.group(0))
    else:
        after = _UNIT_AFTER.match(text, q.end)
        at = after.end() if after else q.end
        if _ANY[q.kind].match(text, at):
            for r in rows:
                hit = r.pattern.match(text, at)
                if hit and _takes(r, q):
                    return OpenFigure(r, hit.group(0))
    return _label_before(text[cs:q.start], tuple(r for r in rows if _takes(r, q)), q)


def _takes(row: FigureRow, q: Quantity) -> bool:
    """A data rate is written per pin, in bits (21Gbps, 19.5Gb/s): a rate in bytes is a bandwidth."""
    return row.kind != "data_rate" or q.in_bits


def _label_before(left: str, rows: tuple[FigureRow, ...], q: Quantity) -> OpenFigure | None:
    """The row whose word ends nearest before the figure, with only a label gap between (no other number)."""
    if not rows or not _ANY[q.kind].search(left):
        return None
    best: tuple[int, int, FigureRow, str] | None = None
    for i, r in enumerate(rows):
        for hit in r.pattern.finditer(left):
            key = (hit.end(), -i)
            if best is None or key > best[:2]:
                best = (hit.end(), -i, r, hit.group(0))
    if best is None:
        return None
    end, _i, row, cue = best
    gap = left[end:]
    if re.search(r"\d", gap) or not _LABEL_GAP.fullmatch(gap):
        return None
    if q.kind == "bare" and not re.search(r"[:：=为是有达]|\s", gap) and gap:
        return None
    return OpenFigure(row, cue)


def recorded(text: str, q: Quantity, mentions: list[Mention]) -> OpenFigure | None:
    """A hardware figure no word explains, recorded as such (attribute ``figure``) unless its clause or the one before
    says what it is not."""
    if q.kind == "count" and (q.low == q.high == 1 or not _NOUN_AFTER.match(text, q.end) or any(
            m.start >= q.end and not text[q.end:m.start].strip(" 的") for m in mentions)):
        return None  # "共7个。", "一个SM有…" (the unit the figures after it are per), "256颗GH200" (a card count)
    if q.kind not in RECORDED_KINDS or (q.kind == "size" and _glosses_a_card(text, q, mentions)):
        return None
    cs, ce = clause_bounds(text, q.start)
    before = clause_bounds(text, cs - 1)[0] if cs > 0 else 0  # "…需要的显存不少，达到20GB": the clause before too
    return None if _LEFT_ALONE.get(q.kind, LEFT_ALONE_ANY).search(text, before, ce) else OpenFigure(None, "")


_GLOSS_OPEN = re.compile(r"\s*[(（]?\s*$")
_GLOSS_JOIN = re.compile(r"\s*(?:和|与|或|及|、|/)\s*$")


def _glosses_a_card(text: str, q: Quantity, mentions: list[Mention]) -> bool:
    """"H100（80GB）", "RTX 4060 Ti 8GB和16GB": a memory size right after a card's name is the version it names."""
    ends = {m.end for m in mentions if m.kind == "product"}
    at = q.start
    for _ in range(4):
        gap = _GLOSS_OPEN.search(text, 0, at)
        if gap is not None and gap.start() in ends and q.low >= 1:
            return True
        join = _GLOSS_JOIN.search(text, 0, at)
        if join is None:
            return False
        before = re.search(r"\d+(?:\.\d+)?\s*[GT]B?\s*$", text[:join.start()])
        if before is None:
            return False
        at = before.start()
    return False


def value_in_unit(row: FigureRow, q: Quantity, text: str = "") -> float | str:
    """The figure in the row's unit (quantities are read in GB, GB/s, W, MHz, mm); a version as written (8.9)."""
    if row.kind == "version":
        written = _VERSION.match(text, q.num_start)
        return written.group(0) if written else f"{q.low:g}"
    value = q.low
    if row.kind == "data_rate":
        return value * 8.0  # GB/s -> Gb/s (a per-pin rate is written in bits)
    if row.kind == "size" and row.unit == "KB":
        return value * 1e6
    if row.kind == "size" and row.unit == "MB":
        return value * 1e3
    return value


_VERSION = re.compile(r"\d+(?:\.(?:\d+|x))?", re.I)


def terms(text: str, mentions: list[Mention]) -> list[tuple[int, int, FigureRow]]:
    """Every term word of the sentence (not inside a name), longest first where two overlap."""
    if not _ANY_TERM.search(text):
        return []
    names = [(m.start, m.end) for m in mentions]
    found: list[tuple[int, int, FigureRow]] = []
    for r in TERMS:
        for hit in r.pattern.finditer(text):
            s, e = hit.span()
            if any(a < e and s < b for a, b in names):
                continue
            if any(a < e and s < b for a, b, _r in found):
                continue
            found.append((s, e, r))
    return sorted(found, key=lambda x: x[0])


def _term_value(value: str) -> int | float | str:
    try:
        number = float(value)
    except ValueError:
        return value
    return int(number) if number.is_integer() else number


def term_drafts(text: str, mentions: list[Mention], state: DocState) -> list[Draft]:
    """A term of the vocabulary (被动散热, 双槽, 没有视频输出接口) as a claim about the card the clause is about."""
    out: list[Draft] = []
    for start, end, row in terms(text, mentions):
        cs, _ce = clause_bounds(text, start)
        if negated(text[cs:start]):
            continue  # "并非被动散热": the clause denies it
        subjects = resolve(text, start, mentions, state, end=end) or [NO_OWNER]
        for subj in subjects:
            scope, detail = figure_scope(text, start, mentions, subj.mention)
            out.append(Draft(start, end, subj, row.attribute, _term_value(row.value), row.unit or None,
                             scope=scope, scope_detail=detail, extra={"open": row.where, "cue": text[start:end]}))
    return out


def without_open_overlaps(drafts: list[Draft]) -> list[Draft]:
    """The vocabulary's and the recorded figures give way to any dedicated extractor's claim on the same words."""
    dedicated = [(d.start, d.end) for d in drafts if not _is_open(d)]
    return [d for d in drafts if not _is_open(d) or not any(s < d.end and d.start < e for s, e in dedicated)]


def dedicated(drafts: list[Draft]) -> list[Draft]:
    """The drafts a later extractor must not read again: all but the figures recorded without an attribute, which
    give way to any reading."""
    return [d for d in drafts if "unknown" not in d.extra]


def _is_open(d: Draft) -> bool:
    return "open" in d.extra or "unknown" in d.extra
