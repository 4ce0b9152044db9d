"""Comparisons between two named products as drafts: a ratio (是Y的2倍, 比Y高出30%, 是Y的一半), a difference
(比Y多2560个CUDA核心, 比Y低100W), sameness (与Y相同, 和Y一样大, 沿用了Y的芯片) and an ordering (高于Y, 不如Y,
比Y大).

A comparison is a claim of its own, with attribute ``ratio``, ``difference``, ``same_as`` or ``ordering``; ``detail``
is what is compared (an attribute of the reference: ``memory_bandwidth``...) and ``extra["target"]`` the product it
is compared with. Its owner comes from the owner resolution (``subjects.resolve``, the target excluded), so a
comparison whose owner is a guess is never flagged. The words are data (``pipeline/lexicon/comparisons.csv``); what
stays here is the grammar around them: which side is which, the number, its hedge and a negation.

A comparison needs a product on each side. A multiple or a percentage of no attribute the sentence names ("性能是Y
的30倍", "比Y快七成") is recorded with no ``detail`` and never judged; an ordering of none ("比Y快一大截") is left
alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..knowledge.reference import Reference
from ..records import Mention, Qualifier
from . import cues
from .draft import Draft
from .quantities import Quantity, find_quantities, parse_number
from .subjects import DocState, resolve

LEX = cues.LEX
RELATIVE_ATTRIBUTES = frozenset({"ratio", "difference", "same_as", "ordering"})

_W = LEX.alt
_HEDGES_ALT = f"{LEX.alt('hedge_before')}|几乎"  # hedges, and 几乎 (near a multiple: at most it)
_NUM = r"\d+(?:\.\d+)?"
_CN = r"[一二两三四五六七八九十]+(?:点[零一二三四五六七八九]+)?"
_AMOUNT = rf"(?:{_NUM}|{_CN})"
_GAP = r"\s*"
# what may stand between the target and the relation: 的, the compared attribute, 还/更/要
_ATTR = r"(?P<attr>[^,;。:\d()]{0,14}?)"
_MULTIPLE = re.compile(
    rf"(?P<hedge>{_HEDGES_ALT})?{_GAP}(?P<lo>{_AMOUNT})(?:{_GAP}(?:-|~|到|至){_GAP}(?P<hi>{_AMOUNT}))?"
    rf"{_GAP}倍(?P<tail>多|以上|有余|左右|上下)?")
_PERCENT = re.compile(
    rf"(?P<hedge>{_HEDGES_ALT})?{_GAP}(?P<lo>{_NUM})(?:{_GAP}(?:-|~|到|至){_GAP}(?P<hi>{_NUM}))?"
    rf"{_GAP}(?:%|个百分比)(?P<tail>左右|上下|以上|多)?"
    rf"|(?P<chedge>{_HEDGES_ALT})?{_GAP}(?P<cheng>[一二两三四五六七八九]|{_NUM})成(?P<ctail>左右|以上|多)?")
_FRACTION = re.compile(rf"(?P<hedge>{_HEDGES_ALT})?{_GAP}(?P<word>{_W('fraction_word')})"
                       r"(?P<tail>多|以上|左右)?")
_NEAR = re.compile(r"几乎|将近|接近|近|差不多")
_COPULA = re.compile(rf"(?:是|为|达到?了?|相当于|有|拥有|提供了?|具备|配备了?|仅有?|只有|足有)"
                     rf"{_GAP}(?P<hedge>{_HEDGES_ALT})?{_GAP}$")
_HEDGE_THEN_COPULA = re.compile(rf"(?P<hedge>{_HEDGES_ALT}){_GAP}(?:是|为|有)?{_GAP}$")
_THAN = re.compile(rf"(?:{_W('than')}){_GAP}$", re.I)
_WITH = re.compile(r"(?:与|和|跟|同)\s*$")
_ORDER = re.compile(rf"(?P<order>{_W('order_word')}){_GAP}$")
_INHERIT = re.compile(rf"(?:{_W('inherit_verb')})了?{_GAP}(?:与)?{_GAP}$")
_DIRECTION = _W("direction")
_SAME = re.compile(rf"^{_GAP}(?:的)?{_ATTR}{_GAP}(?P<deg>基本|大致|大体|几乎|完全|大概)?{_GAP}(?P<neg>不|并不)?"
                   rf"{_GAP}(?P<same>{_W('same_word')}|(?P<differ>同))")
_AFTER_THAN = re.compile(rf"^{_GAP}(?:的)?{_ATTR}{_GAP}(?:还|更|要|都|也)?{_GAP}(?:要)?{_GAP}"
                         rf"(?P<dir>{_DIRECTION}){_GAP}(?:了|出|出了)?{_GAP}")
_AFTER_COPULA = re.compile(rf"^{_GAP}(?:的)?{_ATTR}{_GAP}(?=(?:{_HEDGES_ALT})?{_GAP}"
                           rf"(?:{_AMOUNT}{_GAP}(?:-|~|到|至)?{_GAP}(?:{_AMOUNT})?{_GAP}倍|{_W('fraction_word')}))")
_COMPARED_CLAUSE = re.compile(rf"^{_GAP}(?:的)?{_GAP}(?:相比|相较|比较|对比)(?:而言|来说|之下)?{_GAP}(?:,|$)")
_MARKER_CLAUSE = re.compile(rf"^{_GAP}(?:而言|来说|之下)?{_GAP}(?:,|$)")
_DIRECTION_WORD = re.compile(rf"(?P<dir>{_DIRECTION}){_GAP}(?:了|出|出了)?{_GAP}")
_ATTRIBUTE_WORDS = tuple(LEX.groups("compared_attribute"))
_INHERITED_WORDS = tuple(LEX.groups("inherited_attribute"))
_GENERIC = LEX.regex("generic_spec")
_COUNTS = frozenset({"cuda_cores", "cores", "tensor_cores", "rt_cores", "stream_processors", "sm_count"})
_HEDGE_BEFORE = re.compile(rf"(?P<hedge>{_HEDGES_ALT})\s*$")
# 并不是Y的两倍, 不比Y低: 不 right before the comparison denies it (the lexicon's negation words need more)
_NOT_RIGHT_BEFORE = re.compile(r"(?:并|也|都)?不\s*(?:是|为|比|较)?\s*$")
# what may follow the direction word of an ordering: the clause's end or a degree word (比Y高, 比Y高得多, 比Y大一些)
_ORDER_END = re.compile(r"\s*(?:$|[,;。!?)]|了|得|很|一些|不少|许多|一点|些|太多|更多|多了|出不少|出许多)")
_NOT_LESS = re.compile(r"(?:没有|不到|不足|未到|达不到)\s*$")
_PRODUCT = frozenset({"product"})


@dataclass(frozen=True)
class _Relation:
    kind: str  # ratio | difference | same_as | ordering
    start: int
    end: int
    target: Mention
    pos: int  # where the owner is looked for
    attribute: str | None
    part: str | None  # the link or cache the attribute is of (NVLink, L2)
    value: float | int | list[float] | str | None
    unit: str | None
    qualifier: Qualifier = Qualifier.EXACT
    negated: bool = False
    plus_one: bool = False  # "提高了2倍": 2x or 3x, as Chinese writes both
    form: str = ""  # multiple | percent | fraction | amount | words
    near: bool = False  # 几乎/将近/接近 the multiple: at most it, and not far below


def relative_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference,
                    stated: list[Draft]) -> list[Draft]:
    """Comparisons in one sentence (normalised text, sentence-local mentions); ``stated`` are the sentence's
    figures already read, which a sameness claim may restate ("10752个CUDA核心（与Y相同）")."""
    products = [m for m in mentions if m.kind in _PRODUCT]
    if not products:
        return []
    quantities = find_quantities(text)
    out: list[Draft] = []
    taken: list[tuple[int, int]] = []
    for target in products:
        rel = _relation(text, target, mentions, quantities, _prior(text, target, stated))
        if rel is None or any(s < rel.end and rel.start < e for s, e in taken):
            continue
        owners = [s for s in resolve(text, rel.pos, mentions, state, exclude=target)
                  if s.mention is None or s.mention.kind in _PRODUCT]
        owners = [s for s in owners if s.ref != target.ref or (s.variant and target.variant
                                                               and s.variant != target.variant)]
        if not owners:
            continue
        taken.append((rel.start, rel.end))
        for owner in owners:
            attribute = rel.attribute
            if attribute == "cores":
                attribute = "stream_processors" if ref.vendor_of(owner.ref) == "amd" else "cuda_cores"
            value = rel.value
            restated = _restated(stated, owner.ref, attribute, rel) if rel.kind == "same_as" else None
            if restated is not None:
                value = restated
            extra = {"target": target.ref, "target_mention": target.text, "target_variant": target.variant,
                     "negated": rel.negated, "form": rel.form, "part": rel.part, "plus_one": rel.plus_one,
                     "near": rel.near, "stated_value": restated}
            out.append(Draft(rel.start, rel.end, owner, rel.kind, value, rel.unit, rel.qualifier, 1, attribute,
                             owner.variant, extra={k: v for k, v in extra.items() if v not in (None, False, "")}))
    return out


# what a ratio right after a figure compares when no word names it: "…达到320GB/s，是Y的1.5倍"
_PRIOR_ATTRIBUTES = frozenset({"memory_bandwidth", "memory_size", "tdp", "cuda_cores", "stream_processors",
                               "sm_count", "tensor_cores", "fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8",
                               "interconnect_bandwidth", "cache_size", "boost_clock", "base_clock"})


def _prior(text: str, target: Mention, stated: list[Draft]) -> tuple[str, str | None] | None:
    """The attribute of the figure that ends the clause right before the target's, if the sentence states one there:
    the comparison that follows it compares that figure."""
    cs, _ce = cues.clause_bounds(text, target.start)
    if cs == 0:
        return None
    ps, _pe = cues.clause_bounds(text, cs - 1)
    before = [d for d in stated if ps <= d.start and d.end <= cs and d.attribute in _PRIOR_ATTRIBUTES]
    if not before or text[before[-1].end:cs - 1].strip(" 的,)）"):
        return None  # the clause must end with the figure ("达到了320GB/s，是Y的1.5倍")
    d = before[-1]
    return d.attribute, d.detail if d.attribute in ("interconnect_bandwidth", "cache_size") else None


def _restated(stated: list[Draft], owner: str, attribute: str | None, rel: _Relation) -> float | int | str | None:
    """The owner's figure the sentence states next to the sameness claim ("10752个CUDA核心（与Y相同）")."""
    near = [d for d in stated if d.subject.ref == owner and d.attribute == attribute and d.end <= rel.end + 16
            and isinstance(d.value, (int, float, str))]
    if not near:
        return None
    d = min(near, key=lambda d: abs(d.start - rel.start))
    return d.value if isinstance(d.value, (int, float, str)) else None


_NEGATION_SPAN = re.compile(r"(?:并不是|不是|并非|并没有|没有|并不|不到|不足|不|没)\s*(?:是|为|有|比|较)?\s*$")


def _with_negation(text: str, cs: int, start: int) -> int:
    """A claim's span starts at the negation written right before it ("并不是Y的两倍", "并不比Y低")."""
    hit = _NEGATION_SPAN.search(text[cs:start])
    return cs + hit.start() if hit is not None else start


def _denied(left: str) -> bool:
    """The comparison is denied: a negation word in its clause (after any turn), or 不 right before it."""
    return cues.negated(left) or bool(_NOT_RIGHT_BEFORE.search(left))


def _after_name(text: str, m: Mention) -> int:
    """Where the text after a product name (and the variant written with it) starts."""
    if m.variant:
        v = re.match(r"\s*" + re.escape(m.variant), text[m.end:], re.I)
        if v:
            return m.end + v.end()
    return m.end


def _relation(text: str, m: Mention, mentions: list[Mention], quantities: list[Quantity],
              prior: tuple[str, str | None] | None = None) -> _Relation | None:
    cs, ce = cues.clause_bounds(text, m.start)
    before = text[cs:m.start]
    after_at = _after_name(text, m)
    after = text[after_at:ce]
    # 与Y相比，…提升了30% / 相较于Y，…
    if (_WITH.search(before) and _COMPARED_CLAUSE.match(after)) or (_THAN.search(before)
                                                                     and _MARKER_CLAUSE.match(after)):
        return _next_clause(text, m, ce, mentions, quantities)
    copula = _COPULA.search(before) or _HEDGE_THEN_COPULA.search(before)
    if copula and _AFTER_COPULA.match(after):
        return _ratio_after(text, m, cs, after_at, ce, copula, mentions, prior)
    than = _THAN.search(before)
    if than:
        hit = _AFTER_THAN.match(after)
        if hit:
            return _after_direction(text, m, cs, than.start() + cs, after_at, hit, mentions, quantities, prior)
        return None
    with_ = _WITH.search(before)
    if with_:
        same = _SAME.match(after)
        if same:
            return _sameness(text, m, cs, cs + with_.start(), after_at, same, mentions)
        return None
    order = _ORDER.search(before)
    if order:
        attribute, part = _attribute(text, cs, m.start, mentions)
        if attribute is None:
            return None
        up = LEX.value_of("order_word", order.group("order")) == "up"
        start = cs + order.start()
        negated = _denied(text[cs:start])
        start = _with_negation(text, cs, start)
        return _Relation("ordering", start, m.end, m, start, attribute, part, ">" if up else "<", None,
                         negated=negated, form="words")
    inherit = _INHERIT.search(before)
    if inherit:
        return _inherited(text, m, cs, cs + inherit.start(), after_at, ce, mentions)
    return None


def _ratio_after(text: str, m: Mention, cs: int, after_at: int, ce: int, copula: re.Match[str],
                 mentions: list[Mention], prior: tuple[str, str | None] | None = None) -> _Relation | None:
    """X(的带宽)是Y的2倍 / 约为Y的1.6倍 / 是Y的一半."""
    hit = _AFTER_COPULA.match(text[after_at:ce])
    if hit is None:
        return None
    at = after_at + hit.end()
    amount = _multiple_at(text, at) or _fraction_at(text, at)
    if amount is None:
        return None
    value, qualifier, end, form = amount
    start = cs + copula.start() if copula.group(0).strip() else m.start
    before = _HEDGE_BEFORE.search(text[cs:start])  # "约为Y的1.6倍"
    if before is not None:
        start = cs + before.start()
    hedge = copula.group("hedge") or (before.group("hedge") if before is not None else None)
    near = bool(_NEAR.fullmatch(hedge or "") or _NEAR.search(text[at:end]))
    if hedge and qualifier is Qualifier.EXACT:
        qualifier = _hedge(hedge)
    if _NOT_LESS.search(text[cs:m.start]):
        qualifier = Qualifier.AT_MOST  # 没有Y的两倍, 不到Y的一半
    if _two_attributes(text, cs, m, after_at, at, mentions):
        return None
    attribute, part = _attribute(text, cs, at, mentions, skip=(m.start, after_at))
    if attribute is None and prior is not None and not text[cs:start].strip():
        attribute, part = prior  # "…达到320GB/s，是Y的1.5倍"
    # no attribute named ("性能是Y的30倍"): recorded, never judged
    negated = _denied(text[cs:m.start]) and qualifier is not Qualifier.AT_MOST
    start = _with_negation(text, cs, start)
    return _Relation("ratio", start, end, m, m.start, attribute, part, value, "x", qualifier, negated, form=form,
                     near=near)


def _after_direction(text: str, m: Mention, cs: int, start: int, after_at: int, hit: re.Match[str],
                     mentions: list[Mention], quantities: list[Quantity],
                     prior: tuple[str, str | None] | None = None) -> _Relation | None:
    """X比Y(的带宽)高出30% / 多2560个CUDA核心 / 低100W / 大 (an ordering)."""
    up = LEX.value_of("direction", hit.group("dir")) == "up"
    at = after_at + hit.end()
    if _two_attributes(text, cs, m, after_at, after_at + hit.start("dir"), mentions):
        return None
    attribute, part = _attribute(text, cs, after_at + hit.start("dir"), mentions, skip=(m.start, after_at))
    if attribute is None and prior is not None and not text[cs:start].strip() and not text[
            after_at:after_at + hit.start("dir")].strip():
        attribute, part = prior  # "…带宽高达4.8TB/s，比Y快约1.4倍"
    negated = _denied(text[cs:start])
    start = _with_negation(text, cs, start)
    return _amount(text, m, start, m.start, at, up, attribute, part, negated, mentions, quantities)


def _amount(text: str, m: Mention, start: int, pos: int, at: int, up: bool, attribute: str | None,
            part: str | None, negated: bool, mentions: list[Mention], quantities: list[Quantity]) -> _Relation | None:
    """What follows a direction word: a multiple, a percentage, an amount with its unit, or nothing."""
    sign = 1 if up else -1
    multiple = _multiple_at(text, at)
    if multiple is not None:
        value, qualifier, end, form = multiple
        if not up:
            return None  # "比Y低2倍" has no clear meaning
        if value == 1:  # 多一倍, 提升了一倍: twice as much
            return _Relation("ratio", start, end, m, pos, attribute, part, 2.0, "x", qualifier, negated,
                             form=form)
        # "高出2倍", "提高了2倍": Chinese writes these for 2x and for 3x, so both readings are accepted
        return _Relation("ratio", start, end, m, pos, attribute, part, value, "x", qualifier, negated,
                         plus_one=True, form=form)
    fraction = _fraction_at(text, at)
    if fraction is not None:
        f, qualifier, end, form = fraction
        return _Relation("ratio", start, end, m, pos, attribute, part, _round(1 + sign * f), "x",
                         qualifier if up else _flip(qualifier), negated, form=form)
    percent = _percent_at(text, at)
    if percent is not None:
        lo, hi, qualifier, end = percent
        qualifier = qualifier if up else _flip(qualifier)  # 降低了30%以上: the ratio is at most 0.7
        value = [1 + sign * lo / 100, 1 + sign * hi / 100] if hi is not None else 1 + sign * lo / 100
        return _Relation("ratio", start, end, m, pos, attribute, part, _round(value), "x", qualifier, negated,
                         form="percent")
    q = next((q for q in quantities if q.start == at or q.num_start == at), None)
    if q is not None and q.kind in ("size", "rate", "power", "count", "bits", "tput", "freq"):
        unit_attribute = _unit_attribute(text, q, attribute)
        if unit_attribute is None:
            return None
        attribute = unit_attribute
        value = [sign * q.low, sign * q.high] if q.qualifier is Qualifier.RANGE else sign * q.low
        qualifier = q.qualifier if q.qualifier is not Qualifier.RANGE else Qualifier.RANGE
        unit = None if q.kind in ("count", "bits") else q.unit
        if attribute == "cache_size" and unit == "GB":
            value = [v * 1000 for v in value] if isinstance(value, list) else value * 1000
            unit = "MB"
        return _Relation("difference", start, q.end, m, pos, attribute, part, _round(value), unit, qualifier,
                         negated, form="amount")
    if attribute is None or not _ORDER_END.match(text, at):
        return None  # "比Y多2560…" unread, or a direction word inside a noun ("高带宽显存")
    return _Relation("ordering", start, at, m, pos, attribute, part, ">" if up else "<", None, negated=negated,
                     form="words")


def _next_clause(text: str, m: Mention, ce: int, mentions: list[Mention],
                 quantities: list[Quantity]) -> _Relation | None:
    """与Y相比，X的带宽提升了64% / 相较于Y，X多出8GB显存: the relation is in the clause after the marker."""
    ns, ne = cues.clause_bounds(text, ce + 1)
    if ce >= len(text) or text[ce] not in ",":
        return None
    for hit in _DIRECTION_WORD.finditer(text, ns, ne):  # the first direction word that reads as a relation
        start = hit.start("dir")
        if any(ns <= q.start < start and q.kind != "bare" for q in quantities):
            return None  # "…，H100的带宽从2TB/s提升到…": a change between figures, read as figures
        up = LEX.value_of("direction", hit.group("dir")) == "up"
        attribute, part = _attribute(text, ns, start, mentions)
        if attribute is None:
            attribute, part = _attribute(text, cues.clause_bounds(text, m.start)[0], m.start, mentions)
        rel = _amount(text, m, start, start, hit.end(), up, attribute, part, _denied(text[ns:start]), mentions,
                      quantities)
        if rel is not None:
            return rel
    return None


def _sameness(text: str, m: Mention, cs: int, start: int, after_at: int, hit: re.Match[str],
              mentions: list[Mention]) -> _Relation | None:
    """X与Y(的显存)相同 / 和Y一样大 / 与Y基本持平 / 与Y相同的XX芯片."""
    end = after_at + hit.end()
    attribute, part = _attribute(text, cs, after_at + hit.start("same"), mentions, skip=(m.start, after_at),
                                 earlier=False)
    if attribute is None:  # "用的是与Y相同的芯片XX": what is the same is named after it
        attribute, part = _named_after(text, end, mentions)
    if attribute is None:  # "和RTX 4090一样拥有24GB显存", "与A100同样配备HBM2e"
        _cs, ce = cues.clause_bounds(text, end)
        attribute, part = _attribute(text, end, ce, mentions, nearest_first=True, earlier=False)
    if attribute is None:  # "单看显存容量，X与Y相同": named in a clause before
        attribute, part = _attribute(text, cs, after_at + hit.start("same"), mentions, skip=(m.start, after_at))
    if attribute is None:
        return None
    if hit.group("differ") and not hit.group("neg"):
        return None  # "与Y同…" without 不: not a sameness word
    exact = hit.group("differ") is not None or (LEX.value_of("same_word", hit.group("same")) == "exact"
                                                 and not hit.group("deg"))
    negated = bool(hit.group("neg")) != _denied(text[cs:start])
    return _Relation("same_as", start, end, m, start, attribute, part, None, None,
                     Qualifier.EXACT if exact else Qualifier.APPROX, negated, form="words")


def _inherited(text: str, m: Mention, cs: int, start: int, after_at: int, ce: int,
               mentions: list[Mention]) -> _Relation | None:
    """X沿用了Y的芯片 / 继承了Y的架构."""
    rest = re.match(r"\s*(?:的)?\s*", text[after_at:ce])
    at = after_at + (rest.end() if rest else 0)
    named, _part = _named_after(text, at, mentions)
    if named is not None:  # "沿用了A100的GA100芯片"
        return _Relation("same_as", start, at, m, start, named, None, None, None,
                         negated=cues.negated(text[cs:start]), form="inherit")
    for inherited, pattern in _INHERITED_WORDS:
        hit = pattern.match(text, at)
        if hit:
            return _Relation("same_as", start, hit.end(), m, start, inherited, None, None, None,
                             negated=cues.negated(text[cs:start]), form="inherit")
    attribute, part = _attribute(text, at, min(ce, at + 12), mentions, nearest_first=True)
    if attribute is None:
        return None
    return _Relation("same_as", start, at, m, start, attribute, part, None, None, negated=cues.negated(text[cs:start]),
                     form="inherit")


def _named_after(text: str, at: int, mentions: list[Mention]) -> tuple[str | None, str | None]:
    """"相同的<chip>芯片", "一样的<architecture>架构", "相同的<memory>显存": a chip, architecture or memory type
    named right after a sameness word is what is the same."""
    hit = re.match(r"\s*的?\s*", text[at:])
    at += hit.end() if hit else 0
    named = next((n for n in mentions if n.start == at), None)
    if named is None:
        return None, None
    return {"chip": ("gpu_chip", None), "architecture": ("architecture", None),
            "memory_type": ("memory_type", None)}.get(named.kind, (None, None))


def _attribute(text: str, lo: int, hi: int, mentions: list[Mention], *, skip: tuple[int, int] | None = None,
               nearest_first: bool = False, earlier: bool = True) -> tuple[str | None, str | None]:
    """The compared attribute named in ``text[lo:hi]`` (nearest to ``hi``), else in the clauses before ``lo`` in
    the sentence ("论显存带宽，X是Y的两倍"); product names (and ``skip``) are not searched."""
    blank = list(text)
    for n in mentions:
        if n.kind in ("product", "series"):
            blank[n.start:n.end] = " " * (n.end - n.start)
    if skip is not None:
        blank[skip[0]:skip[1]] = " " * (skip[1] - skip[0])
    plain = "".join(blank)
    found = _cue(plain, lo, hi, nearest_first)
    cs, _ce = cues.clause_bounds(text, lo)
    generic = [g.start() for g in _GENERIC.finditer(plain, cs, hi)]
    if generic and (found is None or (found[0] in _COUNTS and max(generic) >= found[2])):
        return None, None  # "其余规格与Y相同", "Tensor Core的计算能力比Y高": not one spec of the table
    pos = lo
    while found is None and earlier and pos > 0:
        ps, _pe = cues.clause_bounds(text, pos - 1)
        found = _cue(plain, ps, pos, False)
        pos = ps
    if found is None:
        return None, None
    attribute, cue_text, _end = found
    part = None
    if attribute == "interconnect_bandwidth":
        part = cues.link_named(cue_text) or None
    elif attribute == "cache_size":
        part = cues.cache_named(cue_text) or "L2"
    return attribute, part


def _cue(plain: str, lo: int, hi: int, nearest_first: bool) -> tuple[str, str, int] | None:
    hits = [(m.end(), -m.start(), i, attribute, m.group(0)) for i, (attribute, pattern) in enumerate(_ATTRIBUTE_WORDS)
            for m in pattern.finditer(plain, lo, hi)]
    if not hits:
        return None
    # the cue starting first (what 沿用 names right after it), or the cue ending nearest the relation (at one end,
    # the longest, then the table's order)
    best = min(hits, key=lambda h: (-h[1], h[2])) if nearest_first else max(hits, key=lambda h: (h[0], h[1], -h[2]))
    return best[3], best[4], best[0]


def _unit_attribute(text: str, q: Quantity, named: str | None) -> str | None:
    """The attribute an amount's unit says (GB: memory, W: power, 个CUDA核心: cores); None when it disagrees with
    the attribute the sentence names."""
    by_unit: dict[str, frozenset[str]] = {
        "size": frozenset({"memory_size", "cache_size"}), "power": frozenset({"tdp"}),
        "rate": frozenset({"memory_bandwidth", "interconnect_bandwidth", "effective_bandwidth"}),
        "bits": frozenset({"memory_bus_width"}),
        "tput": frozenset({"fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8"}),
    }
    if q.kind == "count":
        counted = cues.count_attribute(text, q)
        if counted is None:
            return named if named in ("cuda_cores", "cores", "tensor_cores", "stream_processors", "sm_count",
                                      "compute_units", "rt_cores") else None
        return counted if named is None or named == counted or named == "cores" else None
    allowed = by_unit.get(q.kind)
    if allowed is None:
        return None
    if named is None:
        return {"size": "memory_size", "power": "tdp", "rate": "memory_bandwidth",
                "bits": "memory_bus_width"}.get(q.kind)
    return named if named in allowed else None


def _multiple_at(text: str, at: int) -> tuple[float | list[float], Qualifier, int, str] | None:
    hit = _MULTIPLE.match(text, at)
    if hit is None:
        return None
    lo = parse_number(hit.group("lo"))
    hi = parse_number(hit.group("hi")) if hit.group("hi") else None
    if lo is None or lo <= 0 or (hit.group("hi") and (hi is None or hi < lo)):
        return None
    qualifier = _hedge(hit.group("hedge")) if hit.group("hedge") else Qualifier.EXACT
    tail = hit.group("tail")
    if tail in ("多", "以上", "有余"):
        qualifier = Qualifier.AT_LEAST
    elif tail in ("左右", "上下"):
        qualifier = Qualifier.APPROX
    if hi is not None:
        return [lo, hi], Qualifier.RANGE, hit.end(), "multiple"
    return lo, qualifier, hit.end(), "multiple"


def _fraction_at(text: str, at: int) -> tuple[float, Qualifier, int, str] | None:
    hit = _FRACTION.match(text, at)
    if hit is None:
        return None
    value = LEX.value_of("fraction_word", hit.group("word"))
    factor = float(value) if value else None
    if factor is None:
        return None
    qualifier = _hedge(hit.group("hedge")) if hit.group("hedge") else Qualifier.EXACT
    if hit.group("tail") in ("多", "以上"):
        qualifier = Qualifier.AT_LEAST
    elif hit.group("tail") == "左右":
        qualifier = Qualifier.APPROX
    return factor, qualifier, hit.end(), "fraction"


def _percent_at(text: str, at: int) -> tuple[float, float | None, Qualifier, int] | None:
    hit = _PERCENT.match(text, at)
    if hit is None:
        return None
    if hit.group("cheng"):
        tenths = parse_number(hit.group("cheng"))
        if tenths is None:
            return None
        hedge, tail = hit.group("chedge"), hit.group("ctail")
        lo, hi = tenths * 10, None
    else:
        lo_v = parse_number(hit.group("lo"))
        if lo_v is None:
            return None
        lo = lo_v
        hi = parse_number(hit.group("hi")) if hit.group("hi") else None
        hedge, tail = hit.group("hedge"), hit.group("tail")
    qualifier = _hedge(hedge) if hedge else Qualifier.EXACT
    if tail in ("以上", "多"):
        qualifier = Qualifier.AT_LEAST
    elif tail in ("左右", "上下"):
        qualifier = Qualifier.APPROX
    if hi is not None:
        qualifier = Qualifier.RANGE
    return lo, hi, qualifier, hit.end()


def _flip(q: Qualifier) -> Qualifier:
    """More of a decrease is less of a ratio: 降低了30%以上 is a ratio of at most 0.7."""
    return {Qualifier.AT_LEAST: Qualifier.AT_MOST, Qualifier.AT_MOST: Qualifier.AT_LEAST}.get(q, q)


def _two_attributes(text: str, cs: int, m: Mention, after_at: int, hi: int, mentions: list[Mention]) -> bool:
    """"H100的FP8算力是A100 FP16算力的6倍": each side names its own attribute, and they differ."""
    own, _ = _attribute(text, cs, m.start, mentions, earlier=False)
    theirs, _ = _attribute(text, after_at, hi, mentions, earlier=False)
    return own is not None and theirs is not None and own != theirs


def _hedge(word: str) -> Qualifier:
    value = LEX.value_of("hedge_before", word)
    q = Qualifier(value) if value else Qualifier.EXACT
    return Qualifier.AT_LEAST if q is Qualifier.UP_TO else q


def _round(value: float | list[float]) -> float | int | list[float]:
    if isinstance(value, list):
        return [round(v, 4) for v in value]
    value = round(value, 4)
    return int(value) if value.is_integer() else value
