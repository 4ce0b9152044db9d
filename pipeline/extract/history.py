"""History and generations as drafts: which architecture introduced a feature (Volta引入了Tensor Core, Tensor Core最早
出现在Volta上), "first" claims (H100是首款支持FP8的GPU) and generation numbers (第四代Tensor Core, NVLink 4.0,
NVSwitch 3).

Attributes: ``introduced_by`` (value: the feature, as the architectures table's ``introduced`` column spells it),
``first`` (the same, for 首款/第一款 claims) and ``generation`` (value: the generation number; ``detail``: the
architectures column it is counted in, e.g. ``tensor_core_generation``). The owner is a product or an architecture:
the one named in the clause, else the architecture the section's heading names (# Blackwell架构), else the topic from
the owner resolution. A generation or link written as the source of a change (从NVLink 3.0升级到…, 前代的第三代Tensor
Core) is not the owner's own and is left alone. Words are data (``pipeline/lexicon/history.csv``).
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..knowledge.reference import Reference
from ..lexicon.scanning import Gated, GroupScan
from ..records import Mention, Scope
from . import cues
from .draft import Draft
from .quantities import parse_number
from .subjects import NO_OWNER, DocState, Subject, as_subject, is_comparative, resolve

LEX = cues.LEX
HISTORY_ATTRIBUTES = frozenset({"introduced_by", "first", "generation", "named_after"})
_W = LEX.alt

# 第四代, and in English ordinals 4th 代 (Arabic digits only: 新一代 is no number)
_GEN = r"(?:第\s*(?P<n>[一二三四五六七八九十\d]+)|(?<![\d.A-Za-z])(?P<m>\d{1,2})\s*(?:st|nd|rd|th))\s*代"
_GENERATION_OF = GroupScan(LEX.groups("generation_of"))
_ORDINAL_BEFORE = re.compile(rf"{_GEN}\s*$")
_ORDINAL_AFTER = re.compile(rf"^[^,;。()]{{0,14}}?\(\s*{_GEN}\s*\)")
_NOT_ITS_OWN = LEX.regex("not_its_own")
_PREVIOUS = LEX.regex("previous_gen")
# a newer version of a feature is not its introduction: "Blackwell引入了新一代Transformer Engine"
_NEWER_VERSION = re.compile(r"(?:新型|新一代|新版|新款|全新|改进|增强|升级|更新|第\s*[一二三四五六七八九十\d]+\s*代)"
                            r"(?:的)?\s*(?:版本的?)?\s*$")
# "Volta引入了Tensor Core", and the relative clause "Volta引入的Tensor Core"
_HOW_MANY = re.compile(r"\s*(?:的)?\s*(?:数量|数目|个数|规模|比例|密度)")
_INTRODUCE = re.compile(rf"(?:{_W('introduce_verb')})(?:了|的)?\s*(?:对|一套|一种|了)?\s*$")
_INTRODUCED_IN = re.compile(rf"^\s*(?P<neg>不是|并非|并不是|并没有|没有)?\s*(?:是|都是|也是)?\s*"
                            rf"(?:{_W('introduced_in')})\s*$")
_FROM_START = re.compile(r"^\s*(?:是|都是)?\s*从\s*$")
# "F最早在X架构中引入", "F首次在X上亮相": the place before the owner, the verb after it
_FIRST_AT = re.compile(rf"^\s*(?P<neg>不是|并非|并不是|并没有|没有)?\s*(?:是|也是)?\s*(?:{_W('introduced_at')})\s*$")
_AT_THEN = re.compile(r"^\s*(?:架构|GPU|系列|一代|显卡|芯片)?\s*(?:中|上|里|时|时代|之中|身上)?\s*(?:被|就|便)?\s*"
                      rf"(?:{_W('introduce_verb')}|出现|诞生|亮相|登场|问世)")
_STARTED = re.compile(r"^\s*(?:架构|GPU|系列|一代)?\s*(?:的GPU)?\s*(?:开始|推出|引入|诞生|出现|才有|起)")
_FROM_BEFORE = re.compile(r"从\s*$")
_STARTED_THEN = re.compile(r"^\s*(?:架构|GPU|系列)?\s*(?:开始|起)\s*,?\s*(?:就|才)?\s*"
                           r"(?:引入|支持|加入|有了|配备|具备)?了?\s*(?:对)?\s*$")
_FIRST = re.compile(rf"(?:{_W('first_word')})\s*(?:支持|采用|搭载|配备|集成|具备|拥有|内置|引入)了?\s*$")
_FIRST_AFTER = re.compile(r"^\s*(?:的)?\s*(?:GPU|显卡|加速卡|架构|产品|芯片|计算卡|数据中心GPU)")
_FIRST_COPULA_BEFORE = re.compile(r"(?:是|为|成为|作为)\s*(?:了)?\s*(?:全球|业界|世界上|史上|市场上)?\s*"
                                  r"(?P<vendor>NVIDIA|英伟达|AMD|英特尔|Intel|华为)?\s*(?:的|旗下)?\s*$", re.I)
_FIRST_COPULA_AFTER = re.compile(r"^\s*(?:的)?\s*(?:GPU|显卡|加速卡|架构|产品|芯片|计算卡)?\s*(?:是|为|就是|当属)\s*$")
_VENDORS = {"nvidia": "nvidia", "英伟达": "nvidia", "amd": "amd", "英特尔": "intel", "intel": "intel",
            "华为": "huawei"}
_LINK_SAID = re.compile(r"(?:支持|采用|配备|搭载|使用|通过|基于|集成|拥有|具备|内置|提供|升级为|升级到|换成|用上|\+|的)"
                        r"\s*(?:了)?\s*(?:全新的?|新一代的?)?\s*$")
_LINK_LABEL = re.compile(r"^\s*(?:[-*•>]\s*)?(?:\d+\.\s*)?$")
_LINK_KINDS = {"nvlink": "nvlink_generation", "nvswitch": "nvswitch_generation"}


def history_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference) -> list[Draft]:
    """Generation, introduction and "first" claims in one sentence (normalised text, sentence-local mentions)."""
    out = _generation_drafts(text, mentions, state, ref)
    out += _link_drafts(text, mentions, state, ref, [(d.start, d.end) for d in out])
    out += _introduction_drafts(text, mentions, state, ref)
    out += _naming_drafts(text, mentions, ref)
    return out


# ---- owners -------------------------------------------------------------------------------------------------------


def _architecture_subject(m: Mention, ref: Reference, via: str) -> Subject | None:
    found = ref.entity(m.ref)
    if found is None or found.kind != "architecture":
        return None
    return Subject(found.id, m.text, None, 1, via, m)


def _owner(text: str, start: int, mentions: list[Mention], state: DocState, ref: Reference, *,
           from_context: bool = True) -> Subject | None:
    """Who a history phrase at ``start`` is said of: the product or architecture named last before it in its clause
    (not one only compared), else in the sentence, else the section's architecture, else the topic."""
    cs, ce = cues.clause_bounds(text, start)
    named = [m for m in mentions if m.kind in ("product", "architecture") and m.end <= start
             and not is_comparative(text, m) and not _FROM_BEFORE.search(text[max(0, m.start - 3):m.start])]
    in_clause = [m for m in named if m.start >= cs]
    if not in_clause and any(m.kind in ("product", "architecture") and start < m.start < ce for m in mentions):
        return None  # a card or architecture named after it in the clause: whose it is is not clear
    pick = in_clause[-1] if in_clause else None
    if pick is None and named and len({m.ref for m in named}) == 1:
        pick = named[-1]
    if pick is not None:
        if pick.kind == "architecture":
            return _architecture_subject(pick, ref, "clause")
        return as_subject(text, pick, "clause")
    if not from_context or any(m.kind in ("product", "architecture", "series") for m in mentions):
        return None
    family = ref.entity(state.families[-1][1] or "") if state.families else None
    if family is not None and family.kind == "architecture":
        return Subject(family.id, family.name, None, 1, "heading")
    subjects = resolve(text, start, mentions, state)
    return subjects[0] if len(subjects) == 1 else None


def enter_section(state: DocState, level: int, text: str, mentions: list[Mention]) -> None:
    """At a heading: the architecture it names alone (# Blackwell架构) is what its section is about; a heading that
    names a card or several architectures is about no one architecture; one that names neither inherits its
    parent's."""
    parents = [f for f in state.families if f[0] < level]
    archs = {m.ref for m in mentions if m.kind == "architecture" and not is_comparative(text, m)}
    cards = [m for m in mentions if m.kind in ("product", "series")]
    if len(archs) == 1 and not cards:
        family: str | None = next(iter(archs))
    elif archs or cards:
        family = None
    else:
        family = parents[-1][1] if parents else None
    state.families = [*parents, (level, family)]


# ---- generations ------------------------------------------------------------------------------------------------


def _generation_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference) -> list[Draft]:
    """第N代Tensor Core, 第N代Transformer引擎, N个Tensor Core（第N代）."""
    out: list[Draft] = []
    if "代" not in text:
        return out  # every generation is written 第N代, before the feature or after it
    for column, hit in _GENERATION_OF.hits(text):
        before = _ORDINAL_BEFORE.search(text[:hit.start()])
        after = _ORDINAL_AFTER.match(text[hit.end():])
        if before:
            start, end, n = before.start(), hit.end(), before.group("n") or before.group("m")
        elif after:
            start, end, n = hit.start(), hit.end() + after.end(), after.group("n") or after.group("m")
        else:
            continue
        value = parse_number(n)
        if value is None or not 1 <= value <= 12 or _not_own(text, start):
            continue
        owner = _owner(text, start, mentions, state, ref)
        if owner is None and _subject_of_its_clause(text, start, end):
            continue  # "第三代NVLink单链路带宽50GB/s": the generation itself is what the clause speaks of
        owner = owner or NO_OWNER  # no owner: recorded, never judged
        if owner.via not in ("clause", "none") and _subject_of_its_clause(text, start, end):
            owner = replace(owner, via="topic_guess")  # the generation is what the clause is about: a guess
        out.append(_draft(start, end, owner, "generation", int(value), column, text, ref,
                          negated=_denied(text, start)))
    return out


def _subject_of_its_clause(text: str, start: int, end: int) -> bool:
    """"第四代NVLink每个GPU总带宽900GB/s": a generation that opens its clause and that the clause goes on to say
    something of is what the clause is about (the generation itself); that it is the feature of the card in context
    is only a guess. A label or list item (- 第四代Tensor Core, 第四代NVLink：…) is the section's card's."""
    cs, ce = cues.clause_bounds(text, start)
    rest = text[end:ce].strip()
    return not text[cs:start].strip(" -*•#>\t") and bool(rest) and rest[0] not in ":：+(（" and bool(
        cues.HAN.search(rest))


def _link_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference,
                 taken: list[tuple[int, int]]) -> list[Draft]:
    """A named link generation said of a card or architecture: "支持NVLink 4.0", "NVSwitch 3：…" in a Blackwell
    section, "NVLink 3.0（600GB/s）"."""
    out: list[Draft] = []
    for m in mentions:
        if m.kind != "link" or any(s < m.end and m.start < e for s, e in taken):
            continue
        item = ref.items.get("link", {}).get(m.ref)
        column = _LINK_KINDS.get(item.fields.get("kind", "")) if item is not None else None
        generation = parse_number(str(item.fields.get("generation", ""))) if item is not None else None
        if column is None or generation is None:
            continue
        cs, _ce = cues.clause_bounds(text, m.start)
        lead = text[cs:m.start]
        labelled = bool(_LINK_LABEL.match(lead)) and _is_label(text, m)
        if not (labelled or _LINK_SAID.search(lead)) or _not_own(text, m.start):
            continue
        owner = _owner(text, m.start, mentions, state, ref, from_context=labelled or not lead.strip(" -*"))
        out.append(_draft(m.start, m.end, owner or NO_OWNER, "generation", int(generation), column, text, ref,
                          negated=_denied(text, m.start)))
    return out


def _is_label(text: str, m: Mention) -> bool:
    """"NVSwitch 3：…", "NVLink 5.0 + …", a list item that is only the link's name: the link is what the line, in
    its section, says the architecture has."""
    rest = text[m.end:].lstrip()
    return not rest or rest[0] in ":+(" or rest.startswith("与")


def _not_own(text: str, start: int) -> bool:
    """A generation or link written as what came before (从…, 前代的…, 相比…, vs …) is not the owner's."""
    cs, _ce = cues.clause_bounds(text, start)
    left = text[max(cs, start - 12):start]
    return bool(_NOT_ITS_OWN.search(left) or _PREVIOUS.search(left))


def _denied(text: str, start: int) -> bool:
    """"A100用的不是第四代Tensor Core": the clause denies it."""
    cs, _ce = cues.clause_bounds(text, start)
    return cues.negated(text[cs:start])


# ---- introductions and firsts -------------------------------------------------------------------------------------


def _introduction_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference) -> list[Draft]:
    # an introduction or a "first" is only ever said of a product or an architecture the sentence names (none of
    # the three readings takes its owner from the context), so a sentence that names none, or no feature, has none
    if not any(m.kind in _OWNER_KINDS for m in mentions) or not cues.FEATURE_WORDS.hits(text):
        return []
    return _introductions(text, mentions, state, ref)


_OWNER_KINDS = frozenset({"product", "architecture"})


def _introductions(text: str, mentions: list[Mention], state: DocState, ref: Reference) -> list[Draft]:
    """``_introduction_drafts`` without its gates."""
    out: list[Draft] = []
    for feature, hit in cues.FEATURE_WORDS.hits(text):
        if any(d.start <= hit.start() < d.end for d in out):
            continue
        draft = (_introduced_by_owner(text, hit, feature, mentions, state, ref)
                 or _introduced_in(text, hit, feature, mentions, ref)
                 or _first(text, hit, feature, mentions, state, ref))
        if draft is not None:
            out.append(draft)
    return out


def _introduced_by_owner(text: str, hit: re.Match[str], feature: str, mentions: list[Mention], state: DocState,
                         ref: Reference) -> Draft | None:
    """X(架构)引入了F / 首次支持F / 率先采用F / 从X开始支持F."""
    cs, _ce = cues.clause_bounds(text, hit.start())
    left = text[cs:hit.start()]
    if _NEWER_VERSION.search(left) or _HOW_MANY.match(text, hit.end()):
        return None  # "增加了Tensor Core的数量": more of them, not their introduction
    verb = _INTRODUCE.search(left)
    started = None
    if verb is None:
        started = next((m for m in mentions if m.kind in ("product", "architecture") and cs <= m.start
                        and _FROM_BEFORE.search(text[max(0, m.start - 3):m.start])
                        and _STARTED_THEN.match(text[_end_of(text, m):hit.start()])), None)
        if started is None:
            return None
    negated = cues.negated(left)
    if started is not None:
        owner = (_architecture_subject(started, ref, "clause") if started.kind == "architecture"
                 else Subject(started.ref, started.text, started.variant, 1, "clause", started))
        start = max(cs, started.start - 1)
    else:
        assert verb is not None
        start = cs + verb.start()
        owner = _owner(text, start, mentions, state, ref, from_context=False)
    if owner is None:
        return None
    return _draft(start, hit.end(), owner, "introduced_by", feature, None, text, ref, negated=negated)


def _introduced_in(text: str, hit: re.Match[str], feature: str, mentions: list[Mention],
                   ref: Reference) -> Draft | None:
    """F最早出现在X上 / F是从X架构推出来的 / F始于X / F最早在X架构中引入."""
    _cs, ce = cues.clause_bounds(text, hit.start())
    after = [m for m in mentions if m.kind in ("product", "architecture") and hit.end() <= m.start < ce]
    if not after:
        return None
    m = after[0]
    between = text[hit.end():m.start]
    if not (_INTRODUCED_IN.match(between)
            or (_FROM_START.match(between) and _STARTED.match(text[_end_of(text, m):ce]))
            or (_FIRST_AT.match(between) and _AT_THEN.match(text[_end_of(text, m):ce]))):
        return None
    owner = (_architecture_subject(m, ref, "clause") if m.kind == "architecture"
             else Subject(m.ref, m.text, m.variant, 1, "clause", m))
    if owner is None:
        return None
    cs, _ = cues.clause_bounds(text, hit.start())
    negated = cues.negated(text[cs:hit.start()]) or bool(re.search(r"(?:不是|并非|并不是|没有)", between))
    return _draft(hit.start(), m.end, owner, "introduced_by", feature, None, text, ref, negated=negated)


def _first(text: str, hit: re.Match[str], feature: str, mentions: list[Mention], state: DocState,
           ref: Reference) -> Draft | None:
    """X是首款支持F的GPU / 首款支持F的GPU是X / X是NVIDIA首款采用F的显卡."""
    cs, ce = cues.clause_bounds(text, hit.start())
    first = _FIRST.search(text[cs:hit.start()])
    if first is None or not _FIRST_AFTER.match(text[hit.end():ce]):
        return None
    start = cs + first.start()
    copula = _FIRST_COPULA_BEFORE.search(text[cs:start])
    owner: Subject | None = None
    vendor = None
    if copula is not None:
        vendor = _VENDORS.get((copula.group("vendor") or "").lower())
        owner = _owner(text, cs + copula.start(), mentions, state, ref, from_context=False)
        end = _FIRST_AFTER.match(text[hit.end():ce])
        stop = hit.end() + (end.end() if end else 0)
    else:
        tail = _FIRST_AFTER.match(text[hit.end():ce])
        at = hit.end() + (tail.end() if tail else 0)
        is_then = _FIRST_COPULA_AFTER.match(text[at:ce]) or re.match(r"^\s*(?:是|为|就是|当属)\s*", text[at:ce])
        named = next((m for m in mentions if m.kind in ("product", "architecture") and m.start >= at
                      and m.start < ce), None)
        if is_then is None or named is None:
            return None
        owner = (_architecture_subject(named, ref, "clause") if named.kind == "architecture"
                 else Subject(named.ref, named.text, named.variant, 1, "clause", named))
        stop = named.end
        pre = re.search(r"(?P<vendor>NVIDIA|英伟达|AMD|英特尔|Intel|华为)\s*(?:的|旗下)?\s*$", text[cs:start], re.I)
        vendor = _VENDORS.get(pre.group("vendor").lower()) if pre else None
    if owner is None:
        return None
    negated = cues.negated(text[cs:start])
    draft = _draft(start, stop, owner, "first", feature, None, text, ref, negated=negated)
    if vendor:
        draft.extra["vendor"] = vendor
    return draft


def _end_of(text: str, m: Mention) -> int:
    if m.variant:
        v = re.match(r"\s*" + re.escape(m.variant), text[m.end:], re.I)
        if v:
            return m.end + v.end()
    return m.end


def _draft(start: int, end: int, owner: Subject, attribute: str, value: int | str, detail: str | None, text: str,
           ref: Reference, *, negated: bool = False) -> Draft:
    family = ref.kind_of(owner.ref) == "architecture"
    extra: dict[str, object] = {"negated": True} if negated else {}
    # a generation or an introduction is the architecture's: no variant of the card is meant
    return Draft(start, end, owner, attribute, value, None, detail=detail, variant=None,
                 scope=Scope.FAMILY if family else Scope.PRODUCT, scope_detail=ref.name(owner.ref) if family else None,
                 extra=extra)


# ---- names -------------------------------------------------------------------------------------------------------

_PROFESSIONS = tuple(LEX.groups("profession"))
_NAMED = Gated(re.compile(r"(?P<verb>以|取自|取名自|得名于|命名自|名字来自)\s*(?P<who>[^,;。]{0,24}?)\s*"
                          r"(?:的名字|之名|的姓氏|的姓)?\s*(?:命名|而得名|得名|$|[,;。)])"))
_MOST = re.compile(r"(?:大多|多|大都|大部分|多数|通常|一般|基本)\s*$")
# "NVIDIA的(数据中心)GPU架构": a vendor's architectures as a class
_CLASS = re.compile(r"(?P<vendor>NVIDIA|英伟达|AMD|英特尔|Intel)\s*(?:的|历代|各代)?\s*(?:数据中心|消费级)?\s*"
                    r"(?:GPU)?\s*架构(?:们)?\s*(?:都|均|一直|大多|多|通常|一般)?\s*$", re.I)


def _naming_drafts(text: str, mentions: list[Mention], ref: Reference) -> list[Draft]:
    """"X架构以某物理学家命名", "以统计学家某某命名", "某厂商的GPU架构都以某类学者命名"."""
    out: list[Draft] = []
    for hit in _NAMED.finditer(text):
        who = hit.group("who")
        profession = next((v for v, p in _PROFESSIONS if p.search(who)), None)
        if profession is None:
            continue
        word = next(p.search(who) for v, p in _PROFESSIONS if v == profession)
        assert word is not None
        cs, _ce = cues.clause_bounds(text, hit.start())
        left = text[:hit.start()]
        archs = [m for m in mentions if m.kind == "architecture" and m.end <= hit.start()]
        cards = [m for m in mentions if m.kind in ("product", "series") and cs <= m.start < hit.start()]
        most = bool(_MOST.search(left))
        group = _CLASS.search(left.rstrip(" ("))
        start, end = hit.start("who") + word.start(), hit.start("who") + word.end()
        arch = _architecture_subject(archs[-1], ref, "clause") if archs else None
        if arch is not None and not cards:
            m = archs[-1]
            owner = arch
            out.append(Draft(start, end, owner, "named_after", profession, None, detail=word.group(0),
                             scope=Scope.FAMILY, scope_detail=m.text,
                             extra={"negated": True} if cues.negated(text[cs:hit.start()]) else {}))
        elif group is not None and not cards:
            vendor = _VENDORS.get(group.group("vendor").lower(), "")
            owner = Subject(vendor, group.group("vendor"), None, 1, "clause")
            extra: dict[str, object] = {"every_architecture": True, **({"most": True} if most else {})}
            out.append(Draft(start, end, owner, "named_after", profession, None, detail=word.group(0),
                             scope=Scope.FAMILY, extra=extra))
    return out
