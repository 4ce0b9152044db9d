"""Names in a sentence as drafts: memory types, architectures and chips, host interfaces, who makes a card or a
technology, and whether a card has Tensor Cores."""

from __future__ import annotations

import re

from ..knowledge.reference import Reference
from ..lexicon.scanning import Gated
from ..records import UNCERTAIN_OWNERS, Mention, Qualifier, Scope
from . import cues
from .draft import Draft
from .numbers import _variant_hint, respective_cards
from .quantities import Quantity
from .subjects import (
    NO_OWNER,
    SUBJECT_KINDS,
    DocState,
    Subject,
    as_subject,
    family_owner,
    is_comparative,
    is_the_subject,
    resolve,
)

# ---------------------------------------------------------------- names: memory types, architectures, chips

def _mention_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference) -> list[Draft]:
    out: list[Draft] = []
    memory = [m for m in mentions if m.kind == "memory_type"]
    respectively: dict[int, Subject] = {}  # "A和B分别基于Ampere和Hopper架构"
    for mark, ce, cards in respective_cards(text, mentions):
        values = [m for m in mentions if mark.end() <= m.start < ce and m.kind in ("architecture", "chip",
                                                                                   "memory_type")]
        if len(cards) >= 2 and len(values) == len(cards):
            respectively.update({v.start: as_subject(text, c) for v, c in zip(values, cards, strict=True)})
    for m in mentions:
        if m.kind not in _NAMED_KINDS:
            continue  # (a card's or a link's name is a subject, not a value: the tests below are for these three)
        cs, _ce = cues.clause_bounds(text, m.start)
        listed = _bracketed_products(text, m, mentions) or _listed_products(text, m, mentions) \
            if m.kind == "architecture" else []
        for p in listed:  # "Hopper（H100、H800）", "Ampere架构 (代表产品: A100)": each listed card's architecture
            out.append(Draft(p.start, p.end, as_subject(text, p, "clause"), "architecture", m.ref, None,
                             variant=p.variant, extra={"listed_under": m.text}))
        if listed or cues.NEGATION.search(text[cs:m.start]) or cues.PREVIOUS_GEN.search(text[cs:m.start]):
            continue
        if re.search(r"(?:从|由)\s*$", text[max(0, m.start - 3):m.start]) or _COMPARED_TYPE.search(
                text[max(0, m.start - 8):m.start]) or _changed_to(text, m, mentions, cs):
            continue  # what something changed from or to in a narrative, or one compared with (低于HBM显卡)
        if m.kind == "memory_type":
            if _generic_list(text, m, memory) or (m.ref.lower() == "hbm" and any(
                    o is not m and abs(o.start - m.end) <= 3 for o in memory)):
                continue
            attribute, value = "memory_type", ref.terms[m.ref].name
        elif m.kind == "architecture" and (cues.ARCH_AFTER.match(text[m.end:]) or cues.ARCH_BEFORE.search(
                text[cs:m.start]) or _glosses_card(text, m, mentions) or _in_spec_list(text, m, mentions)):
            attribute, value = "architecture", m.ref
        elif m.kind == "chip" and (cues.CHIP_AFTER.match(text[m.end:]) or cues.CHIP_BEFORE.search(
                text[cs:m.start]) or re.match(r"^\s*\(", text[m.start - 1:m.start] if m.start else "")
                                   or _in_spec_list(text, m, mentions)):
            if _FULL_DIE.search(text[max(cs, m.start - 6):m.start]) or is_the_subject(text, m):
                continue  # "完整版的TU104核心有…": the die itself is the subject, not a card's chip
            attribute, value = "gpu_chip", m.ref
        else:
            continue
        if m.start in respectively:
            subjects = [respectively[m.start]]
        elif attribute != "memory_type" and (_names_itself(text, m, mentions)
                                             or _generic_list(text, m, [o for o in mentions if o.kind == m.kind])):
            continue  # "Hopper和Ada架构新增的格式": architectures listed, not said of a card
        else:
            subjects = resolve(text, m.start, mentions, state, end=m.end)
        family = family_owner(text, m.start, mentions, state) if attribute == "memory_type" and all(
            s.via in UNCERTAIN_OWNERS for s in subjects) else None
        if family is not None:  # "Volta架构搭配HBM2显存": the memory of the family's cards
            out.append(Draft(m.start, m.end, family, attribute, value, None, scope=Scope.FAMILY,
                             scope_detail=family.text))
            continue
        for subj in subjects:
            out.append(Draft(m.start, m.end, subj, attribute, value, None, detail=None,
                             variant=_size_before(text, m, attribute) or _variant_hint(text, _point(m), subj,
                                                                                        attribute)))
    return out


_NAMED_KINDS = frozenset({"memory_type", "architecture", "chip"})
_CARD_BRACKET = re.compile(r"\s*\(\s*$")


def _glosses_card(text: str, m: Mention, mentions: list[Mention]) -> bool:
    """"H100 (Hopper)": an architecture alone in brackets right after a card's name is the card's."""
    opened = _CARD_BRACKET.search(text, 0, m.start)
    return opened is not None and re.match(r"\s*\)", text[m.end:]) is not None and any(
        o.kind == "product" and o.end == opened.start() for o in mentions)
_BRACKET_LIST = re.compile(r"\s*(?:架构|微架构)?\s*[(（]\s*(?:(?:代表|主要|典型)?(?:产品|型号|显卡|GPU)\s*[:：]?\s*|"
                           r"如|例如|包括)?", re.I)


def _bracketed_products(text: str, m: Mention, mentions: list[Mention]) -> list[Mention]:
    """The cards listed in brackets right after an architecture's name, and nothing else in the brackets."""
    opened = _BRACKET_LIST.match(text, m.end)
    if not opened:
        return []
    close = re.compile(r"[)）]").search(text, opened.end())
    if not close:
        return []
    inside = [o for o in mentions if opened.end() <= o.start and o.end <= close.start()]
    cards = [o for o in inside if o.kind == "product"]
    rest = text[opened.end():close.start()]
    for o in sorted(inside, key=lambda o: o.start, reverse=True):
        rest = rest[:o.start - opened.end()] + rest[o.end - opened.end():]
    return cards if cards and len(cards) == len(inside) and re.fullmatch(r"[\s,，、/和与及等]*", rest) else []


_PRODUCT_LIST = re.compile(rf"\s*(?:{cues.LEX.alt('product_list')})\s*")
_LIST_GAP = re.compile(r"[\s,，、/和与及]*")
_LIST_END = re.compile(r"\s*(?:等(?:等|产品|型号|显卡|GPU)?)?\s*(?:[。，,；;.!！?？)）]|$)")


def _listed_products(text: str, m: Mention, mentions: list[Mention]) -> list[Mention]:
    """"Pascal架构的代表产品有P100、P40和P4", "Maxwell架构有M40、M60等": the cards listed after an architecture's
    name and a word that says its cards follow (``product_list``), the list ending its clause."""
    cue = _PRODUCT_LIST.match(text, m.end)
    if cue is None:
        return []
    cards: list[Mention] = []
    pos = cue.end()
    for o in sorted((o for o in mentions if o.start >= pos), key=lambda o: o.start):
        if not _LIST_GAP.fullmatch(text, pos, o.start) or o.kind != "product":
            break
        cards.append(o)
        pos = o.end
    return cards if cards and _LIST_END.match(text, pos) else []


# "低于HBM显卡", "远超传统GDDR5": a type named only to compare with
_COMPARED_TYPE = re.compile(rf"{cues.LEX.alt('compare_before')}\s*(?:传统|普通|常规|一般|现有|老式|上一代)?的?\s*$")
_FULL_DIE = re.compile(rf"{cues.LEX.alt('full_chip')}\s*(?:的)?\s*$", re.I)
_CHANGED_TO = re.compile(r"(?:升级|演进|过渡|发展|换代|迭代|转向)(?:到|为|至)?\s*$")


def _changed_to(text: str, m: Mention, mentions: list[Mention], cs: int) -> bool:
    """"从Ampere架构升级到Hopper架构": the name a change went to, after one of the same kind it came from, with no
    card in the clause -- a narrative of generations, not a card's architecture."""
    if not _CHANGED_TO.search(text, cs, m.start):
        return False
    came_from = any(o.kind == m.kind and cs <= o.start < m.start and re.search(r"(?:从|由)\s*$",
                                                                              text[max(0, o.start - 3):o.start])
                    for o in mentions)
    return came_from and not any(o.kind in SUBJECT_KINDS and cs <= o.start < m.start for o in mentions)


def _size_before(text: str, m: Mention, attribute: str) -> str | None:
    """"配备40GB HBM2e显存": the size written with a memory type picks the variant it is said of."""
    if attribute != "memory_type":
        return None
    size = re.search(r"(?<![\d.])(\d{1,3})\s*G(?:B)?\s*$", text[max(0, m.start - 8):m.start], re.I)
    return f"{size.group(1)}GB" if size else None


_SPEC_OPEN = re.compile(r"\s*(?:[:：]|[(（])")
_SPEC_ITEM = re.compile(r"[^。；;:：()（）,，、]{1,24}")


def _in_spec_list(text: str, m: Mention, mentions: list[Mention]) -> bool:
    """"RTX 3060：Ampere, GA106", "RTX 4070（5888个CUDA核心，AD104）": a name that is an item of the comma list
    after a card's colon or bracket, each item short and no other card between: the card's spec line."""
    cards = [o for o in mentions if o.kind == "product" and o.end <= m.start]
    if not cards:
        return False
    card = max(cards, key=lambda o: o.end)
    opened = _SPEC_OPEN.match(text, card.end)
    if opened is None:
        return False
    items = re.split(r"[,，、]", text[opened.end():m.start])
    return bool(items) and not items[-1].strip() and all(_SPEC_ITEM.fullmatch(i.strip()) for i in items[:-1])


def _names_itself(text: str, m: Mention, mentions: list[Mention]) -> bool:
    """"2016年，Pascal架构登场": an architecture or chip that opens its clause, in a sentence naming no card, is
    what the sentence is about; it is not said of the previous card."""
    cs, ce = cues.clause_bounds(text, m.start)
    opens = not re.sub(r"[\s\d年月日，,、:：\-—]", "", text[cs:m.start])
    if opens and not text[:m.start].strip() and _BARE_ITEM.fullmatch(text, m.end, ce):
        return False  # "- Hopper架构" under a card's heading: an item of its spec list, nothing said of the name
    return opens and not any(o.kind in SUBJECT_KINDS and o.start < m.start for o in mentions)


_BARE_ITEM = re.compile(r"\s*(?:架构|微架构|architecture|核心|芯片|GPU)?\s*[。.;；,，]?\s*", re.I)


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
        as_gpu = cues.AS_GPU.match(after)
        if not as_gpu or not cues.USES.search(text[cs:m.start]):
            continue
        subjects = resolve(text, m.start, mentions, state, exclude=m)
        for subj in subjects:
            if subj.ref == m.ref or m.ref in ref.members(subj.ref):
                continue
            end = m.end + len(after) - len(after.lstrip()) + len(as_gpu.group(0).strip())
            chip = ref.products[m.ref].chip if m.ref in ref.products else m.ref
            out.append(Draft(m.start, end, subj, "gpu_chip", chip, None, detail=f"采用{m.text}的GPU",
                             variant=None))
            if subj.via != "substitution":
                state.substitutions[m.ref] = subj
    return out


_INTERFACE_VERB = re.compile(cues.LEX.alt("interface_verb"))
_INTERFACE_CUE = re.compile(rf"{cues.LEX.alt('interface_verb')}\s*(?:的是)?\s*$")


def _interface_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference) -> list[Draft]:
    """'T4使用PCIe 3.0 x16接口': the host interface of a card named in the sentence."""
    out: list[Draft] = []
    for m in mentions:
        if m.kind != "link" or not re.match(r"PCI", ref.links[m.ref].name, re.I):
            continue
        cs, ce = cues.clause_bounds(text, m.start)
        lanes_after = re.match(r"\s*[x×]\s*\d{1,2}(?!\d)", text[m.end:ce])
        alone = cues.alone_in_clause(text, m.start, m.end + (lanes_after.end() if lanes_after else 0))  # "PCIe Gen4"
        if not (alone or _INTERFACE_CUE.search(text[cs:m.start]) or re.match(r"^\s*接口", text[m.end:ce])
                or cues.verb_over_list(_INTERFACE_VERB, text[cs:m.start])):
            continue
        if cues.NEGATION.search(text[cs:ce]):
            continue
        # the value as written: the generation, and the lanes when the text gives them ("PCIe 3.0 x8")
        lanes = re.match(r"\s*[x×]\s*(\d{1,2})(?!\d)", text[m.end:])
        end = m.end + (lanes.end() if lanes else 0)
        gen = re.search(r"\d(?:\.\d)?", ref.links[m.ref].name)
        written = re.search(r"[x×]\s*(\d{1,2})", text[m.start:end])
        value = f"PCIe {gen.group(0) if gen else ''}" + (f" x{written.group(1)}" if written else "")
        subjects = resolve(text, m.start, mentions, state)
        if not subjects and any(n.kind in ("architecture", "chip") for n in mentions):
            continue  # "Fermi支持PCIe 3.0": what an architecture supports (the support reader's)
        for subj in subjects or [NO_OWNER]:  # no card: recorded, never judged
            out.append(Draft(m.start, end, subj, "interface", value.strip(), None,
                             variant=_variant_hint(text, _point(m), subj, "interface")))
    return out


def _identity_drafts(text: str, mentions: list[Mention]) -> list[Draft]:
    """"GB200（Grace Hopper Superchip）": a card glossed in brackets by another card's name says they are one product.
    Only a bracket that holds nothing but that name counts (not "A100（80GB）", "H800（H100的中国版）")."""
    out: list[Draft] = []
    cards = [m for m in mentions if m.kind == "product" and not m.ref.startswith("model:")]
    for x in cards:
        opened = re.compile(r"\s*[(（]\s*").match(text, x.end + len(x.variant or "") if x.variant else x.end)
        y = next((m for m in cards if opened and m.start == opened.end()), None)
        if y is None or y.ref == x.ref or not re.match(r"\s*[)）]", text[y.end:y.end + 3]):
            continue
        out.append(Draft(y.start, y.end, Subject(x.ref, x.text, x.variant, 1, "clause", x), "identity", y.ref, None))
    return out


# ---------------------------------------------------------------- who makes it

_OWNED_THING = re.compile(rf"\s*(?:公司)?的\s*[^,;。]{{0,8}}?{cues.LEX.alt('owned_thing')}")


_UNNAMED_SUBJECT = re.compile(r"\s*\S[^,;。]*?(?:是|为|乃)\s*(?:由)?\s*$")


_AFTER_THE_VENDOR = re.compile(r"\s*(?:之后|以后|之前|以前|之前的|前后)")
# after a maker verb: a thing it makes, unnamed ("研发独立的GPU", "推出了新的芯片")
_UNNAMED_MADE = re.compile(r"\s*(?:了)?\s*[^,;。\d]{0,6}?(?:GPU|显卡|芯片|产品|架构|处理器|加速卡)")
# between 推出的 and what was made: nothing, or a few words naming its kind ("推出的AI加速卡H20")
_MADE_THEN = re.compile(r"\s*的\s*(?:[^,;。\d]{0,8}?(?:加速卡|显卡|GPU|芯片|加速器|处理器|产品)\s*)?")


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
        if not rel or _AFTER_THE_VENDOR.match(text, last.end):
            continue  # "紧随AMD之后推出": the vendor dates what another makes
        # "英特尔推出的至强处理器" names what the vendor made; "CUDA是英特尔推出的编程平台" still says who made CUDA
        made = next((m for m in mentions if m.kind in ("product", "series", "term")
                     and _MADE_THEN.fullmatch(text[last.end + rel.end():m.start])), None)
        if made is None and cues.MADE_SOMETHING_ELSE.match(text, last.end + rel.end()) and not re.search(
                r"(?:是|为|乃)\s*$", text[cs:v.start]):
            continue
        if made is None and _UNNAMED_MADE.match(text, last.end + rel.end()) and not any(
                o.kind in ("term", "product", "series") and cs <= o.start < ce for o in mentions):
            continue  # "英特尔开始研发独立的GPU": the vendor's own, unnamed product, not the text's card
        if _UNNAMED_SUBJECT.match(text[cs:v.start]) and not any(
                o.kind in ("term", "product", "series") and cs <= o.start < v.start for o in mentions):
            continue  # "CANN是华为打造的…": what the vendor made is named, but not in the reference
        used.update(o.start for o in group)
        # "ROCm由英伟达开发", "CUDA是英特尔推出的…": who made a technology
        term = next((m for m in reversed(mentions) if m.kind == "term" and cs <= m.start and m.end <= v.start
                     and ref.terms[m.ref].owner in ref.vendors), None)
        start = v.start
        # "英伟达推出的H100与AMD推出的MI300X": the card right after 推出的 is what this vendor made
        if made is not None:
            subjects = [Subject(made.ref, made.text, None)]
        elif term is not None and re.fullmatch(r"\s*(?:是|由|为|乃)?\s*", text[term.end:v.start]):
            subjects, start = [Subject(term.ref, term.text, None)], term.start
        else:
            subjects = resolve(text, v.start, mentions, state)
        # "由X设计、再交给Y生产": every vendor tied to the product in the clause speaks about who makes it
        extra = [o for o in makers if o not in group and cs <= o.start < ce] if made is None else []
        names = [o.ref for o in (*group, *extra)]
        end = last.end + rel.end()
        for subj in subjects:
            out.append(Draft(start, end, subj, "manufacturer", "|".join(dict.fromkeys(names)), None))
    return out


_TENSOR_WORD = Gated(cues.LEX.regex("count_cue", "tensor_cores"))


def _tensor_presence_drafts(text: str, mentions: list[Mention], state: DocState) -> list[Draft]:
    out: list[Draft] = []
    if not _TENSOR_WORD.search(text):
        return out  # every presence phrase holds the word
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
