"""Numbers in a sentence as drafts: which spec a quantity states, of which card, for how many cards and of which
variant."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from itertools import pairwise

from ..knowledge.reference import Reference
from ..records import VARIANT_IN_NAME, Mention, Qualifier, Scope
from . import cues
from .cpu import cpu_id
from .draft import Draft
from .figures import UNKNOWN, OpenFigure, open_attribute, recorded, value_in_unit
from .quantities import Quantity, find_quantities, parse_number
from .scope import figure_scope
from .subjects import (
    NO_OWNER,
    SUBJECT_KINDS,
    UNCERTAIN_OWNERS,
    DocState,
    Subject,
    as_subject,
    family_owner,
    is_comparative,
    is_the_subject,
    multiplier_of,
    resolve,
)

_FORM_HINT = cues.LEX.regex("variant_token")
# attributes whose values are whole numbers
_WHOLE = frozenset({"cuda_cores", "tensor_cores", "stream_processors", "mig_instances", "launch_year", "sm_count",
                    "compute_units", "rt_cores", "fp64_cores", "int32_cores", "memory_bus_width"})
_RANGE_AHEAD = re.compile(r"\s*[-–~～到至]\s*\d")
_ORDINAL = re.compile(r"\s*(?:代|世代|版)")
_ENGLISH_ORDINAL = re.compile(r"(?:st|nd|rd|th)\s*(?:代|世代|版|gen)", re.I)
_SIZE_HINT = re.compile(rf"(\d{{1,3}})\s*GB?\s*{cues.LEX.alt('variant_noun')}", re.I)


def _quantity_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference) -> list[Draft]:
    out: list[Draft] = []
    quantities = find_quantities(text)
    if not quantities:
        return out
    spans = [(m.start, m.end) for m in mentions]
    # "8 × 80GB = 640GB" (an expression is written with "=")
    expression_totals = {m.end(): int(m.group("n")) for m in cues.EXPRESSION.finditer(text)} if "=" in text else {}
    unbound = cues.BARE_MULTIPLIER.search(text)
    quantities = [_bracket_precision(text, q) for q in quantities]
    labelled = _respective_precisions(text, quantities)
    quantities = [labelled.get(q.start, (None, q))[1] for q in quantities]
    quantities = _shared_unit(text, quantities, mentions)
    respectively = _respectively(text, quantities, mentions) or _pair_respectively(text, quantities, mentions, state)
    variants = _respective_variants(text, quantities, mentions)
    # kind -> the attribute last given to such a number here (and the vocabulary row that gave it)
    decided: dict[str, tuple[str, str | None, OpenFigure | None]] = {}
    cards: list[int | None] = []  # how many cards the sentence speaks of: the same for each figure, read once
    for q in quantities:
        if any(s < q.end and q.num_start < e for s, e in spans) or (_ORDINAL.match(text, q.end) and \
                text[max(0, q.start - 1):q.start] == "第") or _ENGLISH_ORDINAL.match(text, q.end):
            continue  # inside a name, or an ordinal: 第3代 is a generation, not a count
        if q.kind == "bare" and _RANGE_AHEAD.match(text, q.end):
            continue  # "2-3倍": the first half of a range of another kind
        if _variant_of(q, mentions):
            card = next(m for m in mentions if m.kind == "product" and _variant_of(q, [m]))
            if q.kind == "size" and q.qualifier is not Qualifier.RANGE:
                out.append(Draft(q.num_start, q.end, Subject(card.ref, card.text, None), "memory_size", _round(q.low),
                                 "GB", Qualifier.EXACT, 1, VARIANT_IN_NAME))
            continue
        opened = open_attribute(text, q, mentions) if q.kind == "size" and q.high < 1 else None
        if opened is not None:  # a few KB or MB a vocabulary word names (228KB共享内存): that figure, not memory
            attribute, detail = opened.row.attribute if opened.row else None, None
        else:
            attribute, detail = (labelled[q.start][0], None) if q.start in labelled else _attribute(text, q, mentions)
        if attribute is None and q.kind in decided and (_parallel_clause(text, q, mentions) or q.start in respectively):
            attribute, detail, opened = decided[q.kind]  # "L40的Tensor Core为568个，L40S则为576个"
        if attribute is None:  # the open vocabulary (figures.csv), else a hardware figure recorded as not understood
            opened = open_attribute(text, q, mentions) or recorded(text, q, mentions)
            if opened is not None:
                attribute, detail = (opened.row.attribute, None) if opened.row else (UNKNOWN, q.kind)
        if attribute is None or _not_a_spec(text, q, mentions, ref):
            continue
        if opened is None or opened.row is not None:
            decided[q.kind] = (attribute, detail, opened)
        if attribute == "link_bandwidth" or (attribute == "interconnect_bandwidth"
                                             and _said_of_a_link(text, q, mentions)):
            out.extend(_link_draft(text, q, mentions, ref))
            continue
        if _about_a_class(text, q, mentions):
            continue
        owner = (respectively.get(q.start) or _bracket_owner(text, q, mentions) or _timeline_owner(text, q, mentions)
                 or _from_value_owner(text, q, mentions, ref) or _die_owner(text, q, mentions))
        subjects = [owner] if owner else resolve(text, q.start, mentions, state, end=q.end)
        if not owner and all(s.via in UNCERTAIN_OWNERS for s in subjects):
            # a year in an architecture's section is an event's (a launch of its cards), not the family's own
            family = family_owner(text, q.start, mentions, state, section=q.kind not in ("year", "date"))
            subjects = [family] if family is not None else subjects
        if not subjects:  # a figure of no card the text names: recorded, with no owner, never checked
            subjects = [NO_OWNER]
        for subj, attr in ((s, a) for s in subjects for a in attribute.split("|")):
            if attr == "cores":
                attr = "stream_processors" if ref.vendor_of(subj.ref) == "amd" else "cuda_cores"
            multiplier, total_said = _multiplier(text, q, subj, state, expression_totals, unbound)
            value: float | int | str | list[float] = [q.low, q.high] if q.qualifier is Qualifier.RANGE else q.low
            unit = q.unit
            if q.kind == "date":
                value, unit = q.written_unit, None  # "2022-03"
            if attr == "cache_size":
                value = [v * 1000 for v in value] if isinstance(value, list) else value * 1000
                unit = "MB"
            if opened is not None and opened.row is not None:
                row = opened.row
                if row.kind == "version":
                    value = value_in_unit(row, q, text)
                elif isinstance(value, list):
                    value = [float(value_in_unit(row, q)), float(value_in_unit(row, replace(q, value=q.high)))]
                else:
                    value = value_in_unit(row, q)
                unit = row.unit or None
                if row.kind == "count" and not isinstance(value, (list, str)):
                    if not float(value).is_integer():
                        continue
                    value = int(value)
            elif attr in _WHOLE and not isinstance(value, list):
                if not float(value).is_integer():
                    continue  # "1.2 CUDA核心" is a section number: a count is a whole number
                value, unit = int(value), None
            if not cards:
                cards.append(_sentence_cards(text, mentions, state, unbound))
            scope, scope_detail = figure_scope(text, q.start, mentions, subj.mention, multiplier, cards[0])
            if subj.via == "family":  # the architecture (or die) the sentence or its section is about
                scope, scope_detail = (Scope.CHIP if ref.kind_of(_entity_id(ref, subj.ref)) == "chip"
                                       else Scope.FAMILY), subj.text
            if attr == "interconnect_bandwidth" and scope is Scope.PRODUCT and _one_direction(text, q):
                scope_detail = "per_direction"
            out.append(Draft(q.start, q.end, subj, attr, _round(value), unit, q.qualifier, multiplier, detail,
                             variants.get(q.start) or _variant_hint(text, q, subj, attr, multiplier, mentions,
                                                                    own=q.start in respectively),
                             q.in_bits, q.resolution,
                             q.written_unit, scope, scope_detail,
                             extra={**_open_extra(opened),
                                    **({"count_only": True} if multiplier > 1 and (
                                 not total_said or attr in _TOTAL_OF_ONE) else {}),
                                 **({"die_named": die} if (die := _its_die(text, q, subj, mentions)) else {})}))
    return out


def _bracket_precision(text: str, q: Quantity) -> Quantity:
    """"~312 (TF32)", "1536（FP16）": a bare number labelled with a number format is a throughput, in TFLOPS (TOPS for
    an integer format) as a unitless throughput is always written."""
    if q.kind != "bare":
        return q
    label = _BRACKET_AFTER.match(text, q.end)
    if label is None:
        return q
    named = [attr for attr, pat in cues.PRECISION_CUES if attr and pat.fullmatch(label.group(1).strip())]
    if not named:
        return q
    unit = "TOPS" if named[0].startswith("int") else "TFLOPS"
    return replace(q, kind="tput", unit=unit)


def _open_extra(opened: OpenFigure | None) -> dict[str, object]:
    """What explain shows of a figure the open vocabulary read, or recorded without understanding it."""
    if opened is None:
        return {}
    return {"open": opened.row.where, "cue": opened.cue} if opened.row else {"unknown": True}


_DIE_THEN = re.compile(r"(?:芯片|核心|晶片|die|GPU)?\s*(?:上|中|里)?\s*"
                       r"(?:有|拥有|包含|集成了?|共有|具有|内含|配备了?|总共有)\s*(?:了)?\s*$", re.I)


def _its_die(text: str, q: Quantity, subj: Subject, mentions: list[Mention]) -> str | None:
    """"A100的GA100芯片有128个SM": the card's own chip, named between the card and the figure, may be what the
    figure counts (the full die) as well as the card: the chip's id, for the checker to try both readings."""
    m = subj.mention
    if m is None or m.end > q.start:
        return None
    variant = rf"(?:{re.escape(m.variant)})?" if m.variant else ""
    link = re.match(rf"\s*{variant}\s*(?:的|所用的|采用的|使用的|搭载的)\s*", text[m.end:q.start], re.I)
    at = m.end + link.end() if link else -1
    chip = next((c for c in mentions if c.kind == "chip" and c.start == at), None)
    if chip is None or not _DIE_THEN.fullmatch(text, chip.end, q.start):
        return None
    return chip.ref



_PARALLEL = re.compile(rf"^\s*(?:而|则|但|不过)?\s*(?:则|也|同样|更是)?\s*{cues.LEX.alt('parallel_verb')}?\s*$")


def _parallel_clause(text: str, q: Quantity, mentions: list[Mention]) -> bool:
    """"…，L40S则为576个", "…，而H100增加到60MB": a clause that names another card and only a verb before the
    number repeats the attribute of the clause before it."""
    cs, _ce = cues.clause_bounds(text, q.start)
    cards = [m for m in mentions if m.kind in SUBJECT_KINDS and cs <= m.start and m.end <= q.start]
    if cards:
        between = text[cards[-1].end:q.start].replace(cards[-1].variant or "", "", 1)
        return bool(_PARALLEL.match(between))
    pronoun = re.search(r"(?:前者|后者|它)([^,;。]*)$", text[cs:q.start])  # "…，后者则有16GB"
    return bool(pronoun and _PARALLEL.match(pronoun.group(1)))


def respective_cards(text: str, mentions: list[Mention]) -> Iterator[tuple[re.Match[str], int, list[Mention]]]:
    """For each 分别 in the sentence: the mark, the end of its clause and the list of cards named before it."""
    if "分别" not in text:
        return
    for mark in re.finditer(r"分别", text):
        _cs, ce = cues.clause_bounds(text, mark.start())
        yield mark, ce, _card_run(text, mentions, mark.start())


def _card_run(text: str, mentions: list[Mention], pos: int) -> list[Mention]:
    """The last list of cards named before ``pos`` (joined by 和/与/、 or a slash), once each, not those compared."""
    cards: list[Mention] = []
    for m in mentions:
        if m.kind in SUBJECT_KINDS and m.start < pos and not is_comparative(text, m):
            between = text[cards[-1].end:m.start].replace(cards[-1].variant or "", "", 1) if cards else ""
            between = _ASIDE.sub("", between, count=1)  # "RTX 4090（AD102）与RTX 4080（AD103）"
            if cards and not (cues.COORDINATOR.fullmatch(between) or between.strip() == "/"):
                cards = []
            if all(c.ref != m.ref for c in cards):
                cards.append(m)
    return cards


_BOTH_RESPECTIVELY = re.compile(rf"(?:它们|{cues.LEX.alt('pronoun', 'both')})[^,;。]{{0,12}}?分别")


def _pair_respectively(text: str, quantities: list[Quantity], mentions: list[Mention], state: DocState
                       ) -> dict[int, Subject]:
    """"我对比了RTX 4090和RTX 4080。它们分别有24GB和16GB显存": the pair the article just named, in order."""
    hit = _BOTH_RESPECTIVELY.search(text)
    if hit is None or state.pair is None or any(m.kind in SUBJECT_KINDS and m.start < hit.end() for m in mentions):
        return {}
    _cs, ce = cues.clause_bounds(text, hit.end())
    values = [q for q in quantities if hit.end() <= q.start < ce and q.qualifier is not Qualifier.RANGE]
    if len(values) != 2 or values[0].kind != values[1].kind:
        return {}
    return {q.start: Subject(p.ref, p.text, p.variant, 1, "pronoun", p.mention)
            for q, p in zip(values, state.pair, strict=True)}


# "RTX 4090和RTX 4080的功耗（450W和320W）": a bracket holding only figures joined as the cards are
_VALUE_BRACKET = re.compile(r"[(（](?P<body>[^()（）]{1,40})[)）]")
_VALUE_JOINERS = re.compile(r"[\s和与及、/,]*")


def _bracketed_values(text: str, quantities: list[Quantity], mentions: list[Mention]) -> dict[int, Subject]:
    out: dict[int, Subject] = {}
    for b in _VALUE_BRACKET.finditer(text):
        values = [q for q in quantities if b.start("body") <= q.start and q.end <= b.end("body")]
        rest = "".join(text[x:y] for x, y in zip([b.start("body"), *(q.end for q in values)],
                                                   [*(q.start for q in values), b.end("body")], strict=True))
        cs, _ce = cues.clause_bounds(text, b.start())
        cards = [m for m in _card_run(text, mentions, b.start()) if m.start >= cs]
        if len(cards) >= 2 and len(values) == len(cards) and len({q.kind for q in values}) == 1 \
                and _VALUE_JOINERS.fullmatch(rest) and not any(
                    m.kind in SUBJECT_KINDS and cards[-1].end < m.start < b.start() for m in mentions):
            out.update({q.start: as_subject(text, m) for q, m in zip(values, cards, strict=True)})
    return out


# a bracketed aside right after a card's name: its die, memory or architecture
_ASIDE = re.compile(r"^\s*[(（][^()（）]{1,16}[)）]")
_LABEL_GAP = re.compile(r"\s*(?:、|和|与|及|以及|,|/)\s*")


def _respective_precisions(text: str, quantities: list[Quantity]) -> dict[int, tuple[str, Quantity]]:
    """"FP32、TF32、FP16、INT8精度下的算力分别为25、49、98、196 TFLOPS": the precisions listed before 分别 go to the
    figures after it in order (a list of bare numbers takes the unit of its last one). By the figure's start:
    (precision, the figure as a throughput)."""
    out: dict[int, tuple[str, Quantity]] = {}
    if "分别" not in text:
        return out
    for mark in re.finditer(r"分别", text):
        cs, ce = cues.clause_bounds(text, mark.start())
        found = sorted(((m.start(), -m.end(), attr) for attr, pat in cues.PRECISION_CUES
                        for m in pat.finditer(text, cs, mark.start())), key=lambda x: x[:2])
        # one label per place, the longest ("FP64", not the "FP6" it starts with)
        labels = [(s, -e, a) for i, (s, e, a) in enumerate(found) if i == 0 or found[i - 1][0] != s]
        run: list[tuple[int, int, str | None]] = []
        for label in labels:  # the last run of labels joined by 、/和/与
            run = [*run, label] if run and _LABEL_GAP.fullmatch(text, run[-1][1], label[0]) else [label]
        values = [q for q in quantities if mark.end() <= q.start < ce and q.qualifier is not Qualifier.RANGE]
        if len(run) < 2 or len(values) != len(run) or values[-1].kind != "tput" or any(
                q.kind not in ("tput", "bare") for q in values):
            continue
        last = values[-1]
        for (_s, _e, attr), q in zip(run, values, strict=True):
            if attr is None:
                continue
            as_tput = q if q.kind == "tput" else Quantity(
                q.start, q.end, q.num_start, q.low * last.scale, last.unit, "tput", q.qualifier, last.written_unit,
                False, q.resolution * last.scale, last.scale)
            out[q.start] = (attr, as_tput)
    return out


_SHARED_KINDS = frozenset({"size", "rate", "power", "tput", "count", "bits", "freq"})


def _shared_unit(text: str, quantities: list[Quantity], mentions: list[Mention]) -> list[Quantity]:
    """"A100和H100 SXM5的FP64算力分别为9.7和34 TFLOPS": the bare numbers of a 分别 list take the unit of its last
    figure, one figure per card named before 分别."""
    out = {q.start: q for q in quantities}
    for mark, ce, cards in respective_cards(text, mentions):
        values = [q for q in quantities if mark.end() <= q.start < ce and q.qualifier is not Qualifier.RANGE]
        if len(cards) < 2 or len(values) != len(cards) or values[-1].kind not in _SHARED_KINDS or any(
                q.kind != "bare" for q in values[:-1]):
            continue
        last = values[-1]
        for q in values[:-1]:
            out[q.start] = replace(q, value=q.low * last.scale, unit=last.unit, kind=last.kind,
                                   written_unit=last.written_unit, in_bits=last.in_bits,
                                   resolution=q.resolution * last.scale, scale=last.scale)
    return [out[q.start] for q in quantities]


def _respectively(text: str, quantities: list[Quantity], mentions: list[Mention]) -> dict[int, Subject]:
    """"A与B的显存分别为80GB和141GB": the values after 分别 go to the cards named before it, in order."""
    out: dict[int, Subject] = {}
    for mark, ce, cards in respective_cards(text, mentions):
        values = [q for q in quantities if mark.end() <= q.start < ce and q.qualifier is not Qualifier.RANGE]
        kinds = {q.kind for q in values}
        if len(cards) >= 2 and len(values) == len(cards) and len(kinds) == 1:
            out.update({q.start: as_subject(text, m) for q, m in zip(values, cards, strict=True)})
    out.update(_versus_pairs(text, quantities, mentions))
    out.update(_bracketed_values(text, quantities, mentions))
    return out


_VERSUS_NAMES = re.compile(r"\s*(?:vs\.?|VS\.?|Vs\.?|对比|对阵|对)\s*")
_VERSUS_VALUES = re.compile(r"\s*(?:vs\.?|VS\.?|Vs\.?|对)\s*")


def _versus_pairs(text: str, quantities: list[Quantity], mentions: list[Mention]) -> dict[int, Subject]:
    """"RTX 4090 vs RTX 4080：450W vs 320W": the figures joined as the cards are go to them in the same order."""
    out: dict[int, Subject] = {}
    cards = [m for m in mentions if m.kind in SUBJECT_KINDS]
    for a, b in pairwise(cards):
        if a.ref == b.ref or not _VERSUS_NAMES.fullmatch(text[a.end:b.start].replace(a.variant or "", "", 1)):
            continue
        later = [q for q in quantities if q.start >= b.end]
        joined = [x.kind == y.kind and bool(_VERSUS_VALUES.fullmatch(text, x.end, y.start))
                  for x, y in pairwise(later)]
        for i, (x, y) in enumerate(pairwise(later)):
            # a pair, not a chain of three ("80GB vs 40GB vs 24GB": whose is which is unclear)
            if joined[i] and not (i > 0 and joined[i - 1]) and not (i + 1 < len(joined) and joined[i + 1]):
                out[x.start], out[y.start] = as_subject(text, a), as_subject(text, b)
    return out


_VARIANT_ITEM = r"[^和与及、/的,;。()（）]{1,14}?"
_VARIANT_LIST = re.compile(
    rf"\s*(?P<items>{_VARIANT_ITEM}(?:\s*(?:和|与|及|、|/)\s*{_VARIANT_ITEM})+)\s*(?:版本|版|型号)?\s*的")
_VARIANT_JOINER = re.compile(r"\s*(?:和|与|及|、|/)\s*")


def _respective_variants(text: str, quantities: list[Quantity], mentions: list[Mention]) -> dict[int, str]:
    """"RTX 4060 Ti 8GB和16GB的功耗分别是160W、165W": one card's variants listed before 分别 go to the figures after
    it in order. By the figure's start: the variant words it is given for."""
    out: dict[int, str] = {}
    if "分别" not in text:
        return out
    for m in mentions:
        if m.kind != "product" or not m.variant:
            continue
        listed = _VARIANT_LIST.match(text, m.end)
        mark = text.find("分别", m.end)
        if listed is None or mark < 0 or mark < listed.end():
            continue
        items = _VARIANT_JOINER.split(listed.group("items").strip())
        if re.sub(r"\s", "", items[0]) != re.sub(r"\s", "", m.variant) or not all(
                _SIZE_OR_FORM.search(i) for i in items):
            continue
        _cs, ce = cues.clause_bounds(text, mark)
        values = [q for q in quantities if mark < q.start < ce and q.qualifier is not Qualifier.RANGE]
        if len(values) == len(items) and len({q.kind for q in values}) == 1:
            out.update({q.start: item.strip() for q, item in zip(values, items, strict=True)})
    return out


_SIZE_OR_FORM = re.compile(rf"\d{{1,3}}\s*GB?|{_FORM_HINT.pattern}", re.I)


def _sentence_cards(text: str, mentions: list[Mention], state: DocState, unbound: re.Match[str] | None) -> int | None:
    """How many cards the sentence speaks of: 8卡V100, 八张卡, or a count announced before (四张卡合计如下:)."""
    counts = [multiplier_of(text, m) for m in mentions if m.kind in SUBJECT_KINDS]
    return max(counts, default=1) if max(counts, default=1) > 1 else _card_count(unbound) or state.pending_multiplier


_POSSESSIVE = re.compile(r"\s*(?:系列|架构|芯片|平台|家族)?\s*的\s*")


def _entity_id(ref: Reference, name: str) -> str:
    found = ref.entity(name)
    return found.id if found is not None else name


_BRACKET_OPEN = re.compile(r"\s*\(\s*$")
# "GTX 280（2008，GT200架构）": a figure among the items of a bracket right after a name
_BRACKET_ITEMS_BEFORE = re.compile(r"\s*\(\s*[^()\d,;]{1,24}[,;、]\s*$")
_BRACKET_ITEMS_AFTER = re.compile(r"\s*(?:[,;、][^()]{1,24})?\)")


def _bracket_owner(text: str, q: Quantity, mentions: list[Mention]) -> Subject | None:
    """"Hopper (2022)", "L20(864 GB/s)", "V100(12nm)": a figure alone in brackets right after a name is that card's,
    chip's or architecture's."""
    opened = _BRACKET_OPEN.search(text, 0, q.start) or _BRACKET_ITEMS_BEFORE.search(text, 0, q.start)
    if opened is None or not _BRACKET_ITEMS_AFTER.match(text, q.end):
        return None
    m = next((m for m in mentions if m.end == opened.start() and m.kind in (*SUBJECT_KINDS, "chip", "architecture")),
             None)
    if m is None:
        return None
    if m.kind in SUBJECT_KINDS:
        return as_subject(text, m, "clause")
    cs, _ce = cues.clause_bounds(text, m.start)
    if not _ITEM_START.fullmatch(text, cs, m.start):
        return None  # "架构: Ampere (2021)", "GB200 Grace Blackwell（2025）": the name is a card's value or name part
    return Subject(m.ref, m.text, None, 1, "clause", m)


_ITEM_START = re.compile(r"[\s\-*•#>\d.、)_]*")


_TIMELINE = re.compile(r"[\s*_]*[:：]\s*")


def _timeline_owner(text: str, q: Quantity, mentions: list[Mention]) -> Subject | None:
    """"**2022-03**: H100发布": a date that opens its line as a label is the date of the card named right after it."""
    if q.kind not in ("date", "year") or not _ITEM_START.fullmatch(text, 0, q.start):
        return None
    gap = _TIMELINE.match(text, q.end)
    m = next((m for m in mentions if gap and m.start == gap.end() and m.kind in SUBJECT_KINDS), None)
    return as_subject(text, m, "clause") if m is not None else None


def _die_owner(text: str, q: Quantity, mentions: list[Mention]) -> Subject | None:
    """"完整的GH100芯片有144个SM", "Hopper架构的每个SM有…": a chip or architecture that is the subject of the
    figure's clause (not one a card is said to use, 采用GH100) owns it; its scope is then chip or family."""
    cs, _ce = cues.clause_bounds(text, q.start)
    owner = next((m for m in mentions if m.kind in ("chip", "architecture") and cs <= m.start
                  and _POSSESSIVE.fullmatch(text, m.end, q.start)), None)
    if owner is not None:  # "增加到Blackwell系列的8TB/s": the figure of the architecture (or die) it is said of
        return Subject(owner.ref, owner.text, None, 1, "clause", owner)
    named = [m for m in mentions if cs <= m.start and m.end <= q.start
             and m.kind in ("chip", "architecture", *SUBJECT_KINDS)]
    first = named[0] if named else None
    if first is None or first.kind in SUBJECT_KINDS or len(named) > 1 or not is_the_subject(text, first):
        return None  # no die named, a card named, or a die that is not what the clause is about
    return Subject(first.ref, first.text, None, 1, "clause", first)


def _about_a_class(text: str, q: Quantity, mentions: list[Mention]) -> bool:
    """A figure said of a class of cards (旗舰卡的…, 主流推理卡的…) or a trend over years (从不到3 TFLOPS增长到34
    TFLOPS) in a sentence that names no card: it is not the previous card's figure."""
    if any(m.kind in SUBJECT_KINDS for m in mentions):
        return False
    return bool(cues.CLASS_OF_CARDS.search(text, 0, q.start) or re.search(r"从[^。]*$", text[:q.start])
                or re.match(r"[^。]{0,12}?(?:增长|提升|增加|提高|升级|翻倍)(?:到|至)", text[q.end:]))


def _from_value_owner(text: str, q: Quantity, mentions: list[Mention], ref: Reference) -> Subject | None:
    """"H200相比H100，显存从80GB提升到141GB": the value after 从 is the compared card's. "H200与H100…从80GB提升到
    141GB", two cards and no comparison word: an upgrade goes from the older card (by launch year) to the newer."""
    cs, _ce = cues.clause_bounds(text, q.start)
    left = text[cs:q.start]
    source = bool(re.search(r"从\s*$", left))
    target = not source and bool(re.search(r"从[^,;。]*(?:提升|增加|提高|升级|扩大|增长|翻倍)?到\s*$", left))
    if not source and not target:
        return None
    before = [m for m in mentions if m.kind in SUBJECT_KINDS and m.start < q.start]
    compared = {m.ref: m for m in before if is_comparative(text, m)}
    if compared:
        return as_subject(text, next(iter(compared.values()))) if source and len(compared) == 1 else None
    cards = {m.ref: m for m in before}
    years = {r: min((float(x.value) for x in ref.rows(r, "launch_year")), default=None) for r in cards}
    if len(cards) != 2 or None in years.values() or len(set(years.values())) != 2:
        return None
    older, newer = sorted(cards, key=lambda r: years[r] or 0)
    return as_subject(text, cards[older if source else newer])


def _round(value: float | int | str | list[float]) -> float | int | str | list[float]:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return [round(v, 4) for v in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return round(value, 4) if isinstance(value, float) else value


def _variant_of(q: Quantity, mentions: list[Mention]) -> bool:
    """The GB written right after a model name (A100 80GB) picks a variant."""
    for m in mentions:
        if m.kind == "product" and m.variant and q.num_start >= m.end and q.start - m.end <= len(m.variant) + 1:
            tail = re.sub(r"\s", "", m.variant).upper()
            if re.sub(r"\s", "", f"{q.low:g}G").upper() in tail:
                return True
    return False


def _attribute(text: str, q: Quantity, mentions: list[Mention]) -> tuple[str | None, str | None]:
    if q.kind == "bare" and q.low == q.high and q.low.is_integer() and 1980 <= q.low <= 2100 and _bracket_owner(
            text, q, mentions) is not None:
        return "launch_year", None  # "Hopper (2022)", "Tesla V100 (2017)"
    if q.kind in ("count", "bare"):
        attr = cues.count_attribute(text, q)
        if attr is None and q.written_unit.lower() in ("million", "billion") and 1e8 <= q.low <= 1e12:
            cs, ce = cues.clause_bounds(text, q.start)
            if not cues.NOT_TRANSISTORS.search(text, cs, ce):
                return "transistors", None  # "21,100 million" on a spec line: a chip's only such count
        return (attr, None) if attr else (None, None)
    if q.kind == "rate":
        # a card's own name is no cue: "H100 PCIe的显存带宽" speaks of memory, not of the PCIe link
        attr, generic = cues.rate_attribute(_blank_names(text, mentions), q)
        if attr == "memory_bandwidth" and q.in_bits and q.high * 8 <= _MAX_PIN_RATE:
            return None, None  # "显存运行速度15 Gbps": a per-pin data rate (the open vocabulary's), no bandwidth
        if attr is None and (cues.unnamed_memory_rate(text, q) or (
                not q.in_bits and _possessive_value(text, q, mentions))):
            attr = "memory_bandwidth"  # "H100的3.35TB/s": a card's own rate is its memory bandwidth
        sentence_so_far = text[:cues.clause_bounds(text, q.start)[1]]
        if attr == "memory_bandwidth" and (generic or cues.says_only_bandwidth(text, q)) \
                and cues.INFINITY_CACHE.search(sentence_so_far):
            attr = "effective_bandwidth"  # "借助无限缓存，带宽高达1664GB/s": the vendor's effective figure
        if attr == "interconnect_bandwidth":
            return attr, cues.link_named(sentence_so_far)
        return attr, None
    if q.kind == "size":
        noun = cues.size_noun(text, q)
        if noun == "memory":
            return "memory_size", None
        # a size under 1GB after a cache was named ("16MB缓存，总计96MB") is still the cache's
        earlier_cache = q.high < 1 and cues.CACHE_CUE.search(text, 0, q.start)
        if noun == "cache" or (q.high < 1 and cues.has_cue(cues.CACHE_CUE, text, q, right=20)) or earlier_cache:
            cs, ce = cues.clause_bounds(text, q.start)
            m = cues.CACHE_CUE.search(text, cs, ce)
            if m is None and earlier_cache:
                return "cache_size", cues.cache_named(text[:q.start])
            # "96MB Infinity Cache和6MB L2缓存": the level named right after the figure, before the next one
            nxt = re.search(r"(?<![A-Za-z\d])\d", text[q.end:ce])
            cache = cues.cache_named(text[q.end:q.end + nxt.start() if nxt else ce]) or cues.cache_named(
                text[cs:ce]) or "L2"
            return "cache_size", (cache if m else None)
        cs, ce = cues.clause_bounds(text, q.start)
        if q.high < 1 and _possessive_value(text, q, mentions) and not cues.has_cue(cues.MEMORY_CUE, text, q,
                                                                                     right=12):
            # "与A100的40MB相比，H100的L2缓存为50MB": a card's few MB are the cache the sentence names, not memory
            later = cues.CACHE_CUE.search(text, q.end)
            return ("cache_size", cues.cache_named(text[q.end:later.end()])) if later else (None, None)
        if (cues.has_cue(cues.MEMORY_CUE, text, q, right=12) or _possessive_value(text, q, mentions)
                or (cues.AGGREGATE.search(text[cs:ce]) and cues.MEMORY_CUE.search(text))
                or _continues_memory_clause(text, q, cs, mentions)):
            return "memory_size", None
        return None, None
    if q.kind == "power":
        cs, ce = cues.clause_bounds(text, q.start)
        left = text[cs:q.start]
        not_rated = cues.NOT_RATED_POWER.search(left)
        if not_rated and any(m.kind in SUBJECT_KINDS and m.start > cs + not_rated.end() + 1 for m in mentions):
            not_rated = None  # "Ada平台的RTX 4090功耗为450W": the card named after the word owns the figure
        if not_rated and re.fullmatch(r"DGX|HGX", not_rated.group(0).strip()[:3], re.I) and any(
                m.kind in SUBJECT_KINDS and cs + not_rated.start() < m.start <= cs + not_rated.end() + 1
                for m in mentions):
            not_rated = None  # "DGX H100的功耗为10.2kW": the system's power, checked against the systems table
        if cues.NOT_CARD_POWER.match(text[q.end:ce]) or (not_rated and not cues.PER_CARD.search(left)):
            return None, None
        # "4080建议750W电源，4070用650W就够": after a power-supply figure, a bare wattage is one too
        if re.search(r"电源|PSU", text[:cs], re.I) and not cues.POWER_CUE.search(text[cs:ce]):
            return None, None
        # W is a power unit: a card's figure when the sentence speaks of power or the clause names the card
        named = any(m.kind in SUBJECT_KINDS and cs <= m.start < q.start for m in mentions)
        if cues.POWER_CUE.search(text, 0, ce) or named or cues.alone_in_clause(text, q.start, q.end) \
                or _possessive_value(text, q, mentions):
            return "tdp", None
        return None, None
    if q.kind == "area":  # "核心面积814平方毫米", "die size 814mm²": a GPU article's only areas are dies
        return "die_size", None
    if q.kind == "tput":
        attr = cues.precision_attribute(text, q)
        cs, ce = cues.clause_bounds(text, q.start)
        base = [m.end() for m in cues.BASE_CLOCK.finditer(text, 0, ce)]
        boost = [m.end() for m in cues.BOOST_CLOCK.finditer(text, 0, ce)]
        scope = ("base clock" if base and max(base) > max(boost, default=-1) else "dense"
                 if cues.DENSE.search(text[cs:ce]) else "sparse" if cues.SPARSE.search(text[cs:ce]) else None)
        scope = q.sparsity or scope  # "624 TOPS/1248 TOPS（稀疏）": each of the pair its own
        label = _BRACKET_AFTER.match(text, q.end)  # "121 TFLOPS（稠密）/ 242 TFLOPS（稀疏）": the figure's own label
        if label and scope != "base clock":
            # dense first: its words hold the sparse one (不含稀疏)
            scope = "dense" if cues.DENSE.search(label.group(1)) else "sparse" if cues.SPARSE.search(
                label.group(1)) else scope
        return attr, scope if attr else None
    if q.kind == "date":  # "2022年3月发布", "发售时间：2022 年 11 月", "**2022-03**: H100发布"
        cs, ce = cues.clause_bounds(text, q.start)
        said = cues.YEAR_CUE.search(text[cs:ce]) or _bracket_owner(text, q, mentions) is not None
        return ("launch_date", None) if said else (None, None)
    if q.kind == "year":
        cs, ce = cues.clause_bounds(text, q.start)
        named = _bracket_owner(text, q, mentions) is not None and q.high == q.low
        return ("launch_year", None) if cues.YEAR_CUE.search(text[cs:ce]) or named else (None, None)
    if q.kind == "bits" and cues.has_cue(cues.BUS_CUE, text, q):
        return "memory_bus_width", None
    return None, None


_OWN_VALUE = frozenset({"的", "有", "拥有", "配备", "配有", "搭载", "具有", "具备"})


def _possessive_value(text: str, q: Quantity, mentions: list[Mention]) -> bool:
    """'T4的16GB', 'RTX 3090的350W', 'H200 SXM：141GB': a model's own figure (a colon only after the clause's one
    card: not "H100 vs A100：80GB vs 40GB")."""
    for m in mentions:
        if m.kind not in SUBJECT_KINDS:
            continue
        between = text[m.end:q.start].replace(m.variant or "", "").strip()
        if between in _OWN_VALUE or (between == "(" and q.kind in ("rate", "power")
                                     and re.match(r"\s*\)", text[q.end:])):
            return True  # "H100的3.35TB/s", "H200有141GB", "L20(864 GB/s)"
        if between == ":":
            cs, _ce = cues.clause_bounds(text, m.start)
            return not any(o.kind in SUBJECT_KINDS and cs <= o.start < m.start for o in mentions)
    return False


def _not_a_spec(text: str, q: Quantity, mentions: list[Mention], ref: Reference) -> bool:
    cs, ce = cues.clause_bounds(text, q.start)
    left = text[cs:q.start]
    clause = text[cs:ce]
    if q.kind == "rate" and cues.NOT_THE_CARDS_RATE.search(clause) and not cues.link_named(clause) and not (
            q.in_bits and _MEMORY_WORD.search(clause)):
        return True  # network, storage or host links (an NVLink network is still NVLink; 显存…15 Gbps is per pin)
    if q.kind in ("size", "rate") and "内存" in clause and not re.search(r"显存|HBM|GDDR", clause, re.I) \
            and cues.HOST_MEMORY.search(clause) and not _cpu_named(ref, mentions, cs, ce):
        return True  # the host's RAM (把部分层offload到64GB内存), unless the CPU is a die the tables know (Grace)
    if cues.NEGATION_AFTER.search(text, q.end, ce) or cues.CLASS_RANGE.search(text, q.end, ce):
        return True  # "…的48GB版本传闻无关": denied after the figure; "从4GB到24GB不等": the range of a class
    return bool(cues.NOT_A_SPEC_LEFT.search(left) or cues.negated(left) or _previous_generation(left)
                or _runs_a_model(text, q, cs, ce, mentions) or cues.MEASURED.search(left))


def _cpu_named(ref: Reference, mentions: list[Mention], cs: int, ce: int) -> bool:
    """The clause names a CPU die of the reference (Grace): its memory is a figure of that die."""
    return any(m.kind == "chip" and cs <= m.start < ce and cpu_id(ref, m.ref) for m in mentions)


def _runs_a_model(text: str, q: Quantity, cs: int, ce: int, mentions: list[Mention]) -> bool:
    """"8G显存跑7B勉强够用" states a need; "RTX 4090的24GB显存能跑7B模型" still states the card's figure."""
    if cues.RUNS_A_MODEL.search(text, cs, q.start):
        return True
    return bool(cues.RUNS_A_MODEL.search(text, q.end, ce)) and not any(
        m.kind in SUBJECT_KINDS and cs <= m.start < q.start for m in mentions)


def _previous_generation(left: str) -> bool:
    """"前代有10240个…" is the previous generation's figure; "相比前代，提升到16384个" is not."""
    hit = cues.PREVIOUS_GEN.search(left)
    return hit is not None and not _COMPARED_WITH.search(left[:hit.start()])


_MEMORY_WORD = re.compile(r"显存|GDDR|HBM|记忆体", re.I)
_MAX_PIN_RATE = 40.0  # Gb/s: no memory's per-pin rate is faster, no card's bandwidth slower
_COMPARED_WITH = re.compile(r"(?:相比|相较|比起|对比|较之?|比)\s*(?:于)?\s*$")


def _multiplier(text: str, q: Quantity, subj: Subject, state: DocState, totals: dict[int, int],
                unbound: re.Match[str] | None) -> tuple[int, bool]:
    """How many cards the figure is the total of, and whether the text says it is their total (an expression,
    合计, 总显存...) rather than only counting the cards ("8块A100，显存80GB" may give each card's figure)."""
    cs, ce = cues.clause_bounds(text, q.start)
    if q.start in totals or q.num_start in totals:
        return totals.get(q.start, totals.get(q.num_start, 1)), True
    if re.search(r"\d+\s*[×xX*]\s*$", text[cs:q.start]):
        return 1, False  # the per-card factor of "8 × 80GB"
    if cues.PER_CARD.search(text[cs:q.start]) or _VARIANT_LABEL.match(text, q.end):
        return 1, False  # 每张…, or a size that names the card's version ("（40GB 版本）")
    said = bool(cues.AGGREGATE.search(text[cs:ce]))
    if subj.multiplier > 1:
        return subj.multiplier, said
    if said:
        n = _card_count(unbound)
        if n:
            return n, True
        if state.pending_multiplier:
            return state.pending_multiplier, True
    return 1, False


_VARIANT_LABEL = re.compile(r"\s*(?:的)?\s*(?:版本|版)")
_ONE_DIRECTION = cues.LEX.regex("one_direction")
# a card's link bandwidth is itself quoted as a total (over its links, both directions): 总带宽 does not make it
# a sum over the cards the sentence counts
_TOTAL_OF_ONE = frozenset({"interconnect_bandwidth"})


def _one_direction(text: str, q: Quantity) -> bool:
    """"单向带宽450GB/s", "每个方向300GB/s": a card's link figure for one direction (said in its clause, before it)."""
    cs, _ce = cues.clause_bounds(text, q.start)
    return _ONE_DIRECTION.search(text, cs, q.start) is not None


def _variant_hint(text: str, q: Quantity, subj: Subject, attribute: str, multiplier: int = 1,
                  mentions: list[Mention] | None = None, *, own: bool = False) -> str | None:
    """Variant words for the value: the clause's own (SXM形态, 80GB版本) first, else the subject's (A100 80GB).
    ``own``: the clause names several cards (A和H100 SXM5…分别为…), so only the subject's own words count.

    A card's memory size is what a memory_size claim states, so it is no hint for that claim, unless the claim is a
    total over several cards ("四张A100 80GB…合计320GB", where 80GB is the per-card variant)."""
    cs, ce = cues.clause_bounds(text, q.start)
    sizes_are_hints = attribute != "memory_size" or multiplier > 1

    def found(span: str) -> list[str]:
        out = [m.group(0) for m in _FORM_HINT.finditer(span)]
        return out + [f"{m.group(1)}GB" for m in _SIZE_HINT.finditer(span)] if sizes_are_hints else out

    # "TDP为250W（PCIe版）", "80GB HBM3 (SXM)": the variant the value is given for
    bracket = _BRACKET_AFTER.match(text, q.end) or _TYPE_THEN_BRACKET.match(text, q.end)
    hints = found(bracket.group(1)) if bracket else []
    hints = hints or ([] if own else found(text[cs:q.start]))
    if not hints and not own:  # "2022年推出的12GB版本": a variant the value is attributed to right after it
        after = re.match(r"[^,;。]{0,8}?的\s*([^,;。]{0,12}?(?:版本|版|型号))", text[q.end:ce])
        hints = found(after.group(1)) if after else []
    if not hints and not own and mentions is not None and not any(m.kind in SUBJECT_KINDS and m.start < q.start
                                                      for m in mentions):
        hints = found(text[:cs])[-1:]  # "SXM5版本支持NVLink，每块GPU的NVLink带宽为900GB/s": the card is elided
    if sizes_are_hints and hints and subj.variant and not any(h.endswith("GB") for h in hints):
        # "A100 80GB SXM4的…": the model name's size narrows the form factor's variants
        hints += [f"{m.group(1)}GB" for m in re.finditer(r"(\d{1,3})\s*GB?", subj.variant, re.I)]
    if not hints and subj.variant:
        hints = [subj.variant if sizes_are_hints else re.sub(r"\d+\s*GB?", "", subj.variant, flags=re.I)]
    return " ".join(h.strip() for h in hints if h.strip()) or None


# a bracket right after a figure, holding its label (稀疏, PCIe版); one after its memory type ("80GB HBM3 (SXM)")
_BRACKET_AFTER = re.compile(r"\s*[(（]([^()（）]{1,16})[)）]")
_TYPE_THEN_BRACKET = re.compile(r"\s*(?:HBM|GDDR|LPDDR)\w*\s*[(（]([^()（）]{1,16})[)）]", re.I)
_CONTINUATION = re.compile(rf"\s*(?:则|也|更是|已经?|均|都)?\s*{cues.LEX.alt('continuation_verb')}?\s*")
_NOT_THE_CARD = cues.LEX.regex("not_the_card")


def _continues_memory_clause(text: str, q: Quantity, cs: int, mentions: list[Mention]) -> bool:
    """"MI300X的显存容量很大，达到192GB": a clause that is only a verb and the number continues the clause before
    it, when that clause names a card and speaks of its memory (not of what a model needs)."""
    if cs == 0 or not _CONTINUATION.fullmatch(text[cs:q.start]):
        return False
    ps, _pe = cues.clause_bounds(text, cs - 1)
    before = text[ps:cs]
    return bool(cues.MEMORY_CUE.search(before) and not cues.CACHE_CUE.search(before)
                and not _NOT_THE_CARD.search(before)
                and any(m.kind in SUBJECT_KINDS and ps <= m.start < cs for m in mentions))


def _blank_names(text: str, mentions: list[Mention]) -> str:
    """``text`` with the product and series names, and the variant written right after one (H100 PCIe), blanked
    out (same length)."""
    names = [m for m in mentions if m.kind in SUBJECT_KINDS]
    if not names:
        return text
    chars = list(text)
    for m in names:
        end = m.end
        if m.variant:
            after = re.match(r"\s*" + re.escape(m.variant), text[m.end:], re.I)
            end += after.end() if after else 0
        chars[m.start:end] = " " * (end - m.start)
    return "".join(chars)


def _said_of_a_link(text: str, q: Quantity, mentions: list[Mention]) -> bool:
    """"NVLink 5.0：900GB/s", "第四代NVLink每条链路50GB/s": a link standard is the last thing named in the figure's
    clause, with no card after it, so the figure is the link's (per GPU, or per link when the text says so)."""
    cs, _ce = cues.clause_bounds(text, q.start)
    named = [m for m in mentions if cs <= m.start and m.end <= q.start
             and m.kind in ("link", "architecture", "chip", *SUBJECT_KINDS)]
    if named and named[-1].kind == "link" and _BRACKET_OPEN.fullmatch(text, named[-1].end, q.start) and re.match(
            r"\s*\)", text[q.end:]):
        return True  # "…：NVLink 4.0 (900GB/s) / PCIe Gen5 (128GB/s)": the figure in brackets is the link's
    return bool(named) and named[-1].kind == "link" and not any(m.kind in SUBJECT_KINDS for m in named)


def _link_draft(text: str, q: Quantity, mentions: list[Mention], ref: Reference) -> list[Draft]:
    links = [m for m in mentions if m.kind == "link" and m.end <= q.start]
    if not links:
        return []
    link = links[-1]
    lanes = _card_lanes(text, link, mentions, ref)
    if lanes is not None:  # "RTX 4060 Ti插在PCIe 3.0主板上": a bare PCIe generation runs at the card's own lanes
        if lanes not in ref.links:
            return []
        link = replace(link, ref=lanes)
    prior = text[:q.start]
    one = [m.start() for m in _ONE_DIRECTION.finditer(prior)]  # 单向, 每个方向, per direction
    i, j = (one[-1] if one else -1), prior.rfind("双向")
    direction = None if i == j == -1 else ("单向" if i > j else "双向")
    after = _DIRECTION_AFTER.match(text, q.end)  # "128 GB/s双向带宽"
    if after:
        direction = after.group(1)
    scope, per = figure_scope(text, q.start, mentions, link)
    subj = Subject(link.ref, link.text, None, 1, "explicit", link)
    return [Draft(q.start, q.end, subj, "interconnect_bandwidth", _round(q.low if q.qualifier is not Qualifier.RANGE
                                                                          else [q.low, q.high]),
                  "GB/s", q.qualifier, 1, direction, None, q.in_bits, q.resolution, scope=Scope.LINK,
                  scope_detail=per if scope is Scope.LINK else direction)]


_DIRECTION_AFTER = re.compile(r"\s*(?:的)?\s*(单向|双向)")
_PCIE_BARE = re.compile(r"^pcie_(\d+)_x16$")
_LANES_WRITTEN = re.compile(r"[x×X]\s*\d+")
_CARD_LANES = re.compile(r"PCIe\s*\d(?:\.\d)?\s*[x×X]\s*(\d+)", re.I)


def _card_lanes(text: str, link: Mention, mentions: list[Mention], ref: Reference) -> str | None:
    """A PCIe generation written without its lanes (the table reads it as x16) in a sentence that names a card with
    fewer lanes: the link at the card's lanes (pcie_3_x8), which may not be tabulated; None when x16 stands."""
    bare = _PCIE_BARE.match(link.ref)
    if bare is None or _LANES_WRITTEN.search(link.text) or _LANES_WRITTEN.match(text, link.end):
        return None
    for m in mentions:
        if m.kind not in SUBJECT_KINDS or m.ref not in ref.products:
            continue
        widths = {int(w.group(1)) for r in ref.rows(m.ref, "interface") if (w := _CARD_LANES.search(str(r.value)))}
        if widths and 16 not in widths:
            return f"pcie_{bare.group(1)}_x{max(widths)}" if len(widths) == 1 else ""
    return None


def _card_count(m: re.Match[str] | None) -> int | None:
    """'8张卡', '两块' -> 8, 2 (a plausible number of cards), else None."""
    n = parse_number(m.group("n") or m.group("m")) if m else None
    return int(n) if n and 1 < n <= 1024 else None
