"""Sentences -> claims: every checkable hardware statement with its subject, attribute, value and span."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass

from ..records import BlockKind, Claim, Document, Mention, Qualifier, Sentence
from ..reference import Reference
from ..segment import Segmented
from . import cues
from .concepts import concept_drafts
from .quantities import Quantity, find_quantities, parse_number
from .subjects import (
    SUBJECT_KINDS,
    DocState,
    Subject,
    as_subject,
    is_comparative,
    multiplier_of,
    resolve,
    update_topic,
)
from .tables import table_claims

_FORM_HINT = re.compile(r"SXM\d?|PCIe|NVL(?![A-Za-z])|OAM", re.I)
_SIZE_HINT = re.compile(r"(\d{1,3})\s*GB?\s*(?:版本|版|型号|款)", re.I)


@dataclass(frozen=True)
class Draft:
    """A claim before it has an id, a sentence record or a verdict; offsets are sentence-local."""

    start: int
    end: int
    subject: Subject
    attribute: str
    value: float | int | str | list[float] | None
    unit: str | None
    qualifier: Qualifier = Qualifier.EXACT
    multiplier: int = 1
    detail: str | None = None
    variant: str | None = None
    bits: bool = False
    resolution: float = 0.0
    written_unit: str = ""


def extract_claims(doc: Document, seg: Segmented, ref: Reference) -> list[Claim]:
    """All claims of a document, in text order (prose sentences and table cells)."""
    state = DocState()
    claims: list[Claim] = []
    ordered = sorted(seg.mentions, key=lambda m: m.start)
    starts = [m.start for m in ordered]
    for sent in seg.sentences:
        text = seg.norm[sent.start:sent.end]
        lo, hi = bisect_left(starts, sent.start), bisect_left(starts, sent.end)
        mentions = [_local(m, sent.start) for m in ordered[lo:hi] if m.end <= sent.end]
        if sent.kind is BlockKind.HEADING:
            state.pending_multiplier = None
        for d in sentence_drafts(text, mentions, state, ref):
            claims.extend(_finish(doc, sent, d))
        update_topic(text, mentions, state)
        _update_pending(text, mentions, state)
    index = len(seg.sentences)
    for table in doc.tables:
        for row_sentence, drafts in table_claims(doc, seg, table, ref, state):
            sent = Sentence(index, row_sentence[0], row_sentence[1], doc.text[row_sentence[0]:row_sentence[1]],
                            BlockKind.TABLE)
            index += 1
            for d in drafts:
                claims.extend(_finish(doc, sent, d))
    claims.sort(key=lambda c: (c.start, c.end, c.attribute))
    return claims


def _local(m: Mention, by: int) -> Mention:
    return Mention(m.start - by, m.end - by, m.text, m.kind, m.ref, m.variant)


def _finish(doc: Document, sent: Sentence, d: Draft) -> Iterator[Claim]:
    start, end = sent.start + d.start, sent.start + d.end
    yield Claim(
        doc_id=doc.doc_id, start=start, end=end, text=doc.text[start:end], sentence=sent.text,
        sentence_index=sent.index, subject=d.subject.ref, subject_mention=d.subject.text,
        attribute=d.attribute, value=d.value, unit=d.unit, qualifier=d.qualifier, multiplier=d.multiplier,
        detail=d.detail, variant=d.variant,
        extra={"via": d.subject.via, "bits": d.bits, "offset_in_sentence": d.start, "resolution": d.resolution,
               **({"written_unit": d.written_unit} if d.written_unit else {}),
               **({"every_member": True} if _every_member(sent.text, d) else {})},
    )


def _every_member(text: str, d: Draft) -> bool:
    """"RX 6000系列均配备16GB显存": the claim is made of every card in the series."""
    if d.subject.mention is None or d.subject.mention.kind != "series":
        return False
    cs, _ce = cues.clause_bounds(text, d.start)
    return bool(re.search(r"均|都|全部|所有|全系|皆|一律", text[max(cs, d.subject.mention.end):d.start])
                or re.search(r"(?:所有|全部|全系)\s*$", text[cs:d.subject.mention.start]))


def _update_pending(text: str, mentions: list[Mention], state: DocState) -> None:
    """A sentence that announces a list ('把8张卡加起来:', '一台4×L40S工作站:') sets the card count for the
    totals that follow, until the next heading."""
    announces = text.rstrip().endswith(":") or cues.AGGREGATE.search(text)
    if not announces:
        return
    bound = [multiplier_of(text, m) for m in mentions if m.kind in SUBJECT_KINDS]
    n = max(bound, default=1)
    if n <= 1:
        n = _card_count(cues.BARE_MULTIPLIER.search(text)) or 1
    if n > 1:
        state.pending_multiplier = n


def _card_count(m: re.Match[str] | None) -> int | None:
    """'8张卡', '两块' -> 8, 2 (a plausible number of cards), else None."""
    n = parse_number(m.group("n") or m.group("m")) if m else None
    return int(n) if n and 1 < n <= 1024 else None


def sentence_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference) -> list[Draft]:
    """Claims in one sentence (normalised text, sentence-local mentions)."""
    drafts: list[Draft] = []
    drafts += _chip_substitution_drafts(text, mentions, state, ref)
    drafts += _quantity_drafts(text, mentions, state, ref)
    drafts += _mention_drafts(text, mentions, state, ref)
    drafts += _manufacturer_drafts(text, mentions, state, ref)
    drafts += _tensor_presence_drafts(text, mentions, state)
    drafts += concept_drafts(text, mentions, state, ref)
    drafts += _interface_drafts(text, mentions, state, ref)
    return drafts


# ---------------------------------------------------------------- numbers

def _quantity_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference) -> list[Draft]:
    out: list[Draft] = []
    spans = [(m.start, m.end) for m in mentions]
    expression_totals = {m.end(): int(m.group("n")) for m in cues.EXPRESSION.finditer(text)}
    unbound = cues.BARE_MULTIPLIER.search(text)
    quantities = find_quantities(text)
    respectively = _respectively(text, quantities, mentions)
    decided: dict[str, tuple[str, str | None]] = {}  # kind -> the attribute last given to such a number here
    for q in quantities:
        if any(s < q.end and q.num_start < e for s, e in spans):
            continue
        if _variant_of(q, mentions):
            subj = next(m for m in mentions if m.kind == "product" and _variant_of(q, [m]))
            if q.kind == "size" and q.qualifier is not Qualifier.RANGE:
                out.append(Draft(q.num_start, q.end, Subject(subj.ref, subj.text, None), "memory_size", _round(q.low),
                                 "GB", Qualifier.EXACT, 1, "型号中的版本"))
            continue
        attribute, detail = _attribute(text, q, mentions)
        if attribute is None and q.kind in decided and _parallel_clause(text, q, mentions):
            attribute, detail = decided[q.kind]  # "L40的Tensor Core为568个，L40S则为576个"
        if attribute is None or _not_a_spec(text, q):
            continue
        decided[q.kind] = (attribute, detail)
        if attribute == "link_bandwidth":
            out.extend(_link_draft(text, q, mentions, ref))
            continue
        owner = respectively.get(q.start) or _from_value_owner(text, q, mentions, ref)
        subjects = [owner] if owner else resolve(text, q.start, mentions, state)
        for subj in subjects:
            attr = attribute
            if attr == "cores":
                attr = "stream_processors" if ref.vendor_of(subj.ref) == "amd" else "cuda_cores"
            multiplier = _multiplier(text, q, subj, state, expression_totals, unbound)
            value: float | int | list[float] = [q.low, q.high] if q.qualifier is Qualifier.RANGE else q.low
            unit = q.unit
            if attr == "cache_size":
                value = [v * 1000 for v in value] if isinstance(value, list) else value * 1000
                unit = "MB"
            if attr in ("cuda_cores", "tensor_cores", "stream_processors", "mig_instances", "launch_year",
                        "memory_bus_width") and not isinstance(value, list):
                value, unit = int(value), None
            out.append(Draft(q.start, q.end, subj, attr, _round(value), unit, q.qualifier, multiplier, detail,
                             _variant_hint(text, q, subj, attr, multiplier, mentions), q.in_bits, q.resolution,
                             q.written_unit))
    return out


_PARALLEL = re.compile(r"^\s*(?:而|则|但|不过)?\s*(?:则|也|同样|更是)?\s*(?:为|是|有|达到了?|提升到|增加到|降到|减少到|"
                       r"最多(?:可)?(?:切分)?为?|只有|仅有?|仅为)?\s*$")


def _parallel_clause(text: str, q: Quantity, mentions: list[Mention]) -> bool:
    """"…，L40S则为576个", "…，而H100增加到60MB": a clause that names another card and only a verb before the
    number repeats the attribute of the clause before it."""
    cs, _ce = cues.clause_bounds(text, q.start)
    cards = [m for m in mentions if m.kind in SUBJECT_KINDS and cs <= m.start and m.end <= q.start]
    if not cards:
        return False
    between = text[cards[-1].end:q.start].replace(cards[-1].variant or "", "", 1)
    return bool(_PARALLEL.match(between))


def _respectively(text: str, quantities: list[Quantity], mentions: list[Mention]) -> dict[int, Subject]:
    """"A与B的显存分别为80GB和141GB": the values after 分别 go to the cards named before it, in order."""
    out: dict[int, Subject] = {}
    for mark in re.finditer(r"分别", text):
        _cs, ce = cues.clause_bounds(text, mark.start())
        cards: list[Mention] = []
        for m in mentions:
            if m.kind in SUBJECT_KINDS and m.start < mark.start() and not is_comparative(text, m):
                between = text[cards[-1].end:m.start].replace(cards[-1].variant or "", "", 1) if cards else ""
                if cards and not re.fullmatch(r"\s*(?:和|与|、|及|以及|跟|,|，)\s*", between):
                    cards = []
                if all(c.ref != m.ref for c in cards):
                    cards.append(m)
        values = [q for q in quantities if mark.end() <= q.start < ce and q.qualifier is not Qualifier.RANGE]
        kinds = {q.kind for q in values}
        if len(cards) >= 2 and len(values) == len(cards) and len(kinds) == 1:
            out.update({q.start: as_subject(text, m) for q, m in zip(values, cards, strict=True)})
    return out


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


def _round(value: float | int | list[float]) -> float | int | list[float]:
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
    if q.kind in ("count", "bare"):
        attr = cues.count_attribute(text, q)
        return (attr, None) if attr else (None, None)
    if q.kind == "rate":
        # a card's own name is no cue: "H100 PCIe的显存带宽" speaks of memory, not of the PCIe link
        attr, generic = cues.rate_attribute(_blank_names(text, mentions), q)
        if attr is None and not q.in_bits and _possessive_value(text, q, mentions):
            attr = "memory_bandwidth"  # "H100的3.35TB/s": a card's own rate is its memory bandwidth
        sentence_so_far = text[:cues.clause_bounds(text, q.start)[1]]
        if attr == "memory_bandwidth" and generic and cues.INFINITY_CACHE.search(sentence_so_far):
            attr = "effective_bandwidth"  # "借助无限缓存，带宽高达1664GB/s": the vendor's effective figure
        if attr == "interconnect_bandwidth":
            cs, ce = cues.clause_bounds(text, q.start)
            fabric = cues.INFINITY_FABRIC.search(text, 0, ce)
            nvlink = re.search(r"NVLink|NVSwitch", text[:ce], re.I)
            return attr, ("Infinity Fabric" if fabric and (not nvlink or fabric.start() > nvlink.start())
                          else "NVLink")
        return attr, None
    if q.kind == "size":
        noun = cues.size_noun(text, q)
        if noun == "memory":
            return "memory_size", None
        if noun == "cache" or (q.high < 1 and cues.has_cue(cues.CACHE_CUE, text, q, right=20)):
            cs, ce = cues.clause_bounds(text, q.start)
            m = cues.CACHE_CUE.search(text, cs, ce)
            named = any(mt.kind == "term" and mt.ref == "infinity_cache" and cs <= mt.start < ce for mt in mentions)
            scope = "Infinity Cache" if named or re.search(r"Infinity", text[cs:ce], re.I) else "L2"
            return "cache_size", (scope if m else None)
        cs, ce = cues.clause_bounds(text, q.start)
        if (cues.has_cue(cues.MEMORY_CUE, text, q, right=12) or _possessive_value(text, q, mentions)
                or (cues.AGGREGATE.search(text[cs:ce]) and cues.MEMORY_CUE.search(text))
                or _continues_memory_clause(text, q, cs, mentions)):
            return "memory_size", None
        return None, None
    if q.kind == "power":
        cs, ce = cues.clause_bounds(text, q.start)
        left = text[cs:q.start]
        if cues.NOT_CARD_POWER.match(text[q.end:ce]) or (cues.NOT_RATED_POWER.search(left)
                                                         and not cues.PER_CARD.search(left)):
            return None, None
        # "4080建议750W电源，4070用650W就够": after a power-supply figure, a bare wattage is one too
        if re.search(r"电源|PSU", text[:cs], re.I) and not cues.POWER_CUE.search(text[cs:ce]):
            return None, None
        # W is a power unit: a card's figure when the sentence speaks of power or the clause names the card
        named = any(m.kind in SUBJECT_KINDS and cs <= m.start < q.start for m in mentions)
        if cues.POWER_CUE.search(text, 0, ce) or named or _possessive_value(text, q, mentions):
            return "tdp", None
        return None, None
    if q.kind == "tput":
        attr = cues.precision_attribute(text, q)
        cs, ce = cues.clause_bounds(text, q.start)
        return (attr, "sparse" if attr and cues.SPARSE.search(text[cs:ce]) else None)
    if q.kind == "year":
        cs, ce = cues.clause_bounds(text, q.start)
        return ("launch_year", None) if cues.YEAR_CUE.search(text[cs:ce]) else (None, None)
    if q.kind == "bits" and cues.has_cue(cues.BUS_CUE, text, q):
        return "memory_bus_width", None
    return None, None


def _possessive_value(text: str, q: Quantity, mentions: list[Mention]) -> bool:
    """'T4的16GB', 'RTX 3090的350W': a model's own figure."""
    return any(m.kind in SUBJECT_KINDS and text[m.end:q.start].replace(m.variant or "", "").strip() == "的"
               for m in mentions)


def _not_a_spec(text: str, q: Quantity) -> bool:
    cs, ce = cues.clause_bounds(text, q.start)
    left = text[cs:q.start]
    return bool(cues.NOT_A_SPEC_LEFT.search(left) or cues.NEGATION.search(text[cs:ce])
                or cues.PREVIOUS_GEN.search(left) or cues.RUNS_A_MODEL.search(text[cs:ce]))


def _multiplier(text: str, q: Quantity, subj: Subject, state: DocState, totals: dict[int, int],
                unbound: re.Match[str] | None) -> int:
    cs, ce = cues.clause_bounds(text, q.start)
    if q.start in totals or q.num_start in totals:
        return totals.get(q.start, totals.get(q.num_start, 1))
    if re.search(r"\d+\s*[×xX*]\s*$", text[cs:q.start]):
        return 1  # the per-card factor of "8 × 80GB"
    if cues.PER_CARD.search(text[cs:q.start]):
        return 1
    if subj.multiplier > 1:
        return subj.multiplier
    if cues.AGGREGATE.search(text[cs:ce]):
        n = _card_count(unbound)
        if n:
            return n
        if state.pending_multiplier:
            return state.pending_multiplier
    return 1


def _variant_hint(text: str, q: Quantity, subj: Subject, attribute: str, multiplier: int = 1,
                  mentions: list[Mention] | None = None) -> str | None:
    """Variant words for the value: the clause's own (SXM形态, 80GB版本) first, else the subject's (A100 80GB).

    A card's memory size is what a memory_size claim states, so it is no hint for that claim, unless the claim is a
    total over several cards ("四张A100 80GB…合计320GB", where 80GB is the per-card variant)."""
    cs, ce = cues.clause_bounds(text, q.start)
    sizes_are_hints = attribute != "memory_size" or multiplier > 1

    def found(span: str) -> list[str]:
        out = [m.group(0) for m in _FORM_HINT.finditer(span)]
        return out + [f"{m.group(1)}GB" for m in _SIZE_HINT.finditer(span)] if sizes_are_hints else out

    hints = found(text[cs:q.start])
    if not hints:  # "2022年推出的12GB版本": a variant the value is attributed to right after it
        after = re.match(r"[^,;。]{0,8}?的\s*([^,;。]{0,12}?(?:版本|版|型号))", text[q.end:ce])
        hints = found(after.group(1)) if after else []
    if not hints and mentions is not None and not any(m.kind in SUBJECT_KINDS and m.start < q.start
                                                      for m in mentions):
        hints = found(text[:cs])[-1:]  # "SXM5版本支持NVLink，每块GPU的NVLink带宽为900GB/s": the card is elided
    if sizes_are_hints and hints and subj.variant and not any(h.endswith("GB") for h in hints):
        # "A100 80GB SXM4的…": the model name's size narrows the form factor's variants
        hints += [f"{m.group(1)}GB" for m in re.finditer(r"(\d{1,3})\s*GB?", subj.variant, re.I)]
    if not hints and subj.variant:
        hints = [subj.variant if sizes_are_hints else re.sub(r"\d+\s*GB?", "", subj.variant, flags=re.I)]
    return " ".join(h.strip() for h in hints if h.strip()) or None


_CONTINUATION = re.compile(r"\s*(?:则|也|更是|已经?|均|都)?\s*"
                           r"(?:达到了?|达|高达|为|是|有|提升到|提高到|增加到|增至|扩大到|升级到)?\s*")
_NOT_THE_CARD = re.compile(r"需要|需|占用|占|模型|参数|权重|数据|样本|batch|批", re.I)


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


def _link_draft(text: str, q: Quantity, mentions: list[Mention], ref: Reference) -> list[Draft]:
    links = [m for m in mentions if m.kind == "link" and m.end <= q.start]
    if not links:
        return []
    link = links[-1]
    if not re.search(r"PCI", ref.links[link.ref].name, re.I):
        return []
    prior = text[:q.start]
    i, j = prior.rfind("单向"), prior.rfind("双向")
    direction = None if i == j == -1 else ("单向" if i > j else "双向")
    subj = Subject(link.ref, link.text, None, 1, "explicit", link)
    return [Draft(q.start, q.end, subj, "interconnect_bandwidth", _round(q.low if q.qualifier is not Qualifier.RANGE
                                                                          else [q.low, q.high]),
                  "GB/s", q.qualifier, 1, direction, None, q.in_bits, q.resolution)]


# ---------------------------------------------------------------- names: memory types, architectures, chips

def _mention_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference) -> list[Draft]:
    out: list[Draft] = []
    memory = [m for m in mentions if m.kind == "memory_type"]
    for m in mentions:
        cs, _ce = cues.clause_bounds(text, m.start)
        if cues.NEGATION.search(text[cs:m.start]) or cues.PREVIOUS_GEN.search(text[cs:m.start]):
            continue
        if re.search(r"从\s*$", text[max(0, m.start - 3):m.start]):
            continue
        if m.kind == "memory_type":
            if _generic_list(text, m, memory) or (m.ref.lower() == "hbm" and any(
                    o is not m and abs(o.start - m.end) <= 3 for o in memory)):
                continue
            attribute, value = "memory_type", ref.terms[m.ref].name
        elif m.kind == "architecture" and (cues.ARCH_AFTER.match(text[m.end:]) or cues.ARCH_BEFORE.search(
                text[cs:m.start])):
            attribute, value = "architecture", m.ref
        elif m.kind == "chip" and (cues.CHIP_AFTER.match(text[m.end:]) or cues.CHIP_BEFORE.search(
                text[cs:m.start]) or re.match(r"^\s*\(", text[m.start - 1:m.start] if m.start else "")):
            attribute, value = "gpu_chip", m.ref
        else:
            continue
        if attribute != "memory_type" and _names_itself(text, m, mentions):
            continue
        for subj in resolve(text, m.start, mentions, state):
            out.append(Draft(m.start, m.end, subj, attribute, value, None, detail=None,
                             variant=_variant_hint(text, _point(m), subj, attribute)))
    return out


def _names_itself(text: str, m: Mention, mentions: list[Mention]) -> bool:
    """"2016年，Pascal架构登场": an architecture or chip that opens its clause, in a sentence naming no card, is
    what the sentence is about; it is not said of the previous card."""
    cs, _ce = cues.clause_bounds(text, m.start)
    opens = not re.sub(r"[\s\d年月日，,、:：\-—]", "", text[cs:m.start])
    return opens and not any(o.kind in SUBJECT_KINDS and o.start < m.start for o in mentions)


def _point(m: Mention) -> Quantity:
    return Quantity(m.start, m.end, m.start, 0.0, None, "bare")


def _generic_list(text: str, m: Mention, memory: list[Mention]) -> bool:
    """'HBM2、HBM2e和HBM3' or 'GDDR6/GDDR6X' lists types, it says nothing about one card."""
    for o in memory:
        if o is m:
            continue
        gap = text[min(m.end, o.end):max(m.start, o.start)]
        if len(gap) <= 3 and re.fullmatch(r"\s*(?:、|/|和|与|或|及|,)\s*", gap):
            return True
    return False


def _chip_substitution_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference) -> list[Draft]:
    """'X采用了Y GPU': card X said to use card Y's GPU."""
    out: list[Draft] = []
    for m in mentions:
        if m.kind != "product":
            continue
        after = text[m.end:].replace(m.variant or "", "", 1)
        cs, _ce = cues.clause_bounds(text, m.start)
        if not cues.AS_GPU.match(after) or not cues.USES.search(text[cs:m.start]):
            continue
        subjects = resolve(text, m.start, mentions, state, exclude=m)
        for subj in subjects:
            if subj.ref == m.ref or m.ref in ref.members(subj.ref):
                continue
            end = m.end + len(after) - len(after.lstrip()) + len(cues.AS_GPU.match(after).group(0).strip())
            chip = ref.products[m.ref].chip if m.ref in ref.products else m.ref
            out.append(Draft(m.start, end, subj, "gpu_chip", chip, None, detail=f"采用{m.text}的GPU",
                             variant=None))
            if subj.via != "substitution":
                state.substitutions[m.ref] = subj
    return out


_INTERFACE_CUE = re.compile(r"(?:使用|采用|支持|升级到|升级为|改用|走的是|用的是|通过|透过|只能通过|基于|配备|"
                            r"接口(?:是|为))\s*(?:的是)?\s*$")


def _interface_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference) -> list[Draft]:
    """'T4使用PCIe 3.0 x16接口': the host interface of a card named in the sentence."""
    out: list[Draft] = []
    for m in mentions:
        if m.kind != "link" or not re.match(r"PCI", ref.links[m.ref].name, re.I):
            continue
        cs, ce = cues.clause_bounds(text, m.start)
        if not (_INTERFACE_CUE.search(text[cs:m.start]) or re.match(r"^\s*接口", text[m.end:ce])):
            continue
        if cues.NEGATION.search(text[cs:ce]) or not any(o.kind in SUBJECT_KINDS for o in mentions):
            continue
        # the value as written: the generation, and the lanes when the text gives them ("PCIe 3.0 x8")
        lanes = re.match(r"\s*[x×]\s*(\d{1,2})(?!\d)", text[m.end:])
        end = m.end + (lanes.end() if lanes else 0)
        gen = re.search(r"\d(?:\.\d)?", ref.links[m.ref].name)
        written = re.search(r"[x×]\s*(\d{1,2})", text[m.start:end])
        value = f"PCIe {gen.group(0) if gen else ''}" + (f" x{written.group(1)}" if written else "")
        for subj in resolve(text, m.start, mentions, state):
            out.append(Draft(m.start, end, subj, "interface", value.strip(), None,
                             variant=_variant_hint(text, _point(m), subj, "interface")))
    return out


# ---------------------------------------------------------------- who makes it

_OWNED_THING = re.compile(r"\s*(?:公司)?的\s*[^,;。]{0,8}?(?:技术|平台|软件|框架|架构|互连|互联|总线|显卡|GPU|加速卡|"
                          r"计算卡|芯片|产品|方案|标准|接口|缓存|库)")


def _manufacturer_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference) -> list[Draft]:
    out: list[Draft] = []
    makers = [m for m in mentions if m.kind in ("vendor", "company")]
    used: set[int] = set()
    for v in makers:
        if v.start in used:
            continue
        cs, ce = cues.clause_bounds(text, v.start)
        if cues.NEGATION.search(text[cs:ce]):
            continue
        # possessive: VENDOR的TERM / VENDOR的PRODUCT
        nxt = next((m for m in mentions if m.start >= v.end and m.kind in ("term", "product", "series")), None)
        if nxt is not None and text[v.end:nxt.start].strip() == "的":
            if nxt.kind == "term":
                owner = ref.terms[nxt.ref].owner
                if owner in ref.vendors:
                    out.append(Draft(v.start, nxt.end, Subject(nxt.ref, nxt.text, None), "manufacturer",
                                     v.ref, None, detail="技术归属"))
                continue
            out.append(Draft(v.start, v.end, Subject(nxt.ref, nxt.text, None), "manufacturer", v.ref, None))
            continue
        # "Infinity Fabric是英伟达的互连技术", "H100是AMD的加速卡": X is the vendor's <kind of thing>
        owned = _OWNED_THING.match(text, v.end)
        said_of = next((m for m in reversed(mentions) if m.kind in ("term", "product", "series") and cs <= m.start
                        and m.end <= v.start), None)
        if owned and said_of is not None and re.fullmatch(r"\s*(?:是|为|乃|属于)\s*",
                                                          text[said_of.end:v.start].replace(said_of.variant or "", "")):
            if said_of.kind != "term" or ref.terms[said_of.ref].owner in ref.vendors:
                detail = "技术归属" if said_of.kind == "term" else None
                out.append(Draft(said_of.start, v.end, Subject(said_of.ref, said_of.text, None), "manufacturer",
                                 v.ref, None, detail=detail))
            continue
        # relation: (PRODUCT)由 VENDOR (和 VENDOR2) 开发/设计/推出 ...
        group = [v] + [o for o in makers if o.start > v.end and re.fullmatch(
            r"\s*(?:和|与|、|及|以及|跟)\s*", text[v.end:o.start])]
        last = group[-1]
        rel = cues.RELATION_VERBS.match(text[last.end:ce])
        if not rel:
            continue
        # "英特尔推出的至强处理器" names what the vendor made; "CUDA是英特尔推出的编程平台" still says who made CUDA
        if cues.MADE_SOMETHING_ELSE.match(text, last.end + rel.end()) and not re.search(r"(?:是|为|乃)\s*$",
                                                                                         text[cs:v.start]):
            continue
        used.update(o.start for o in group)
        # "ROCm由英伟达开发", "CUDA是英特尔推出的…": who made a technology
        term = next((m for m in reversed(mentions) if m.kind == "term" and cs <= m.start and m.end <= v.start
                     and ref.terms[m.ref].owner in ref.vendors), None)
        start = v.start
        if term is not None and re.fullmatch(r"\s*(?:是|由|为|乃)?\s*", text[term.end:v.start]):
            subjects, start = [Subject(term.ref, term.text, None)], term.start
        else:
            subjects = resolve(text, v.start, mentions, state)
        # "由X设计、再交给Y生产": every vendor tied to the product in the clause speaks about who makes it
        extra = [o for o in makers if o not in group and cs <= o.start < ce]
        names = [o.ref for o in (*group, *extra)]
        end = last.end + rel.end()
        for subj in subjects:
            out.append(Draft(start, end, subj, "manufacturer", "|".join(dict.fromkeys(names)), None))
    return out


def _tensor_presence_drafts(text: str, mentions: list[Mention], state: DocState) -> list[Draft]:
    out: list[Draft] = []
    for m in cues.TENSOR_PRESENCE.finditer(text):
        verb_span = text[m.start():m.start("tc")]
        if not verb_span.strip() or is_comparative(text, Mention(m.start(), m.end(), "", "term", "")):
            continue
        cs, _ce = cues.clause_bounds(text, m.start())
        if re.search(r"的\s*$", text[cs:m.start()]):
            continue  # "V100的Tensor Core…" talks about the units, not whether they exist
        negated = bool(m.group("neg"))
        for subj in resolve(text, m.start(), mentions, state):
            out.append(Draft(m.start(), m.end(), subj, "tensor_cores", 0 if negated else 1, None,
                             Qualifier.AT_MOST if negated else Qualifier.AT_LEAST, detail="是否具备 Tensor Core"))
    return out
