"""Feature support as claims: what a product, a series or an architecture is said to have or to lack.

"H100支持Transformer Engine", "RTX 4090没有NVLink", "H20缺乏FP8支持", "Ada取消了SLI", "P4采用NVIDIA的Tensor Core
架构", "RTX 3090和RTX 4090都支持NVLink", "A/B仅支持PCIe" (only PCIe: no multi-GPU link). Attribute ``supports``:
value the feature as ``features.csv`` names it, ``extra`` ``negated`` (the text denies it), ``removed`` (取消了, 不再
支持: it had it before), ``only`` (the feature is denied by an "only X" phrase). The words are data: the feature
names (``history.csv`` role ``feature_name``), the verbs (``facts.csv`` roles ``support_verb``, ``lack_verb``,
``only_word``, ``only_alternative``). A feature said of a list of cards is said of each of them (a card has a
feature or not; it cannot be shared out as a figure can).
"""

from __future__ import annotations

import re

from ..knowledge.reference import Reference
from ..lexicon.scanning import GroupScan
from ..records import Mention, Scope
from . import cues
from .draft import Draft
from .subjects import DocState, Subject, as_subject, is_comparative, resolve

LEX = cues.LEX
SUPPORT_ATTRIBUTES = frozenset({"supports"})
_W = LEX.alt

_LACKS = tuple(LEX.groups("lack_verb"))
_HAS = LEX.alt("support_verb")
# what may stand between a verb and the feature: 了, 对, 专用的, NVIDIA的, 第四代, 硬件…
_BETWEEN = (r"(?:\s|了|对|对于|专用的?|专门的?|硬件的?|原生的?|全新的?|最新的?|新一代的?|新的|完整的?|"
            r"(?:NVIDIA|英伟达|AMD|英特尔|Intel)\s*的?|第\s*[一二三四五六七八九十\d]+\s*代的?)*")
_HAS_RE = re.compile(_HAS, re.I)
_VERB_BEFORE = re.compile(rf"(?:(?P<lack>{_W('lack_verb')})|(?P<has>{_HAS}))\s*{_BETWEEN}$", re.I)
# "可能支持", "理论上支持": the text does not assert it (never flagged; 据说/号称 keep the claim)
_HEDGE = re.compile(_W("support_hedge"))
_ONLY = re.compile(rf"(?:{_W('only_word')})\s*(?:{_HAS}|走|使用|通过|依靠|依赖|用)?\s*$", re.I)
_ALTERNATIVES = GroupScan(LEX.groups("only_alternative"))
# "F被取消", "F已经被移除": the verb after the feature
_PASSIVE_AFTER = re.compile(
    rf"\s*(?:技术|功能|支持|特性)?\s*(?:也|都|已经?|已)?\s*被?\s*(?:{_W('lack_verb', 'removed')})", re.I)
# "X的F架构", "X的F技术": a possessive that presupposes the feature (only before these nouns)
_POSSESSED = re.compile(r"\s*(?:架构|技术|功能|单元|引擎)")
_OF = re.compile(r"的\s*$")
# a list of cards before the verb: joined by 和/与/及/、/ or a slash
_LIST_GAP = re.compile(rf"\s*(?:/|／|{LEX.alt('list_joiner')}|{LEX.alt('coordinator')})\s*")
# claims other extractors already make on the same words
_TAKEN = frozenset({"tensor_cores", "precision", "introduced_by", "first", "generation", "interface", "memory_type"})
_OWNER_KINDS = frozenset({"product", "series", "architecture"})


def support_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference,
                   drafts: list[Draft]) -> list[Draft]:
    """Support claims in one sentence (normalised text, sentence-local mentions)."""
    out: list[Draft] = _only_drafts(text, mentions, state, ref)
    found = cues.FEATURE_WORDS.hits(text)
    if not found:
        return out
    taken = [(d.start, d.end) for d in drafts if d.attribute in _TAKEN]
    for word_value, hit in found:
        feature = ref.relations.feature(word_value)
        if feature is None:
            continue  # a history word for something the features table does not describe
        if any(s < hit.end() and hit.start() < e for s, e in taken) or any(
                d.start <= hit.start() < d.end for d in out):
            continue
        out += _said(text, hit, feature.name, mentions, state, ref)
    return out


def _said(text: str, hit: re.Match[str], feature: str, mentions: list[Mention], state: DocState,
          ref: Reference) -> list[Draft]:
    cs, _ce = cues.clause_bounds(text, hit.start())
    left = text[cs:hit.start()]
    verb = _VERB_BEFORE.search(left)
    removed = negated = False
    if verb is not None:
        start = cs + verb.start()
        if verb.group("lack"):
            negated = True
            removed = LEX.value_of("lack_verb", verb.group("lack")) == "removed"
        elif cues.negated(left[:verb.start()]):
            negated = True
    elif cues.verb_over_list(_HAS_RE, left) and not cues.negated(left):  # "支持A、B及C": each of them
        start = hit.start()
    elif _PASSIVE_AFTER.match(text, hit.end()):
        start, negated, removed = hit.start(), True, True
    elif _OF.search(left) and _POSSESSED.match(text, hit.end()):
        start = hit.start()
    else:
        return []
    passive = _PASSIVE_AFTER.match(text, hit.end()) if removed and verb is None else None
    end = passive.end() if passive is not None else hit.end()
    owners = _owners(text, start, mentions, state, ref)
    extra: dict[str, object] = {**({"negated": True} if negated else {}), **({"removed": True} if removed else {}),
                                **({"speculative": True} if _HEDGE.search(left) else {})}
    return [_draft(min(start, hit.start()), end, o, feature, ref, dict(extra)) for o in owners]


def _owners(text: str, pos: int, mentions: list[Mention], state: DocState, ref: Reference) -> list[Subject]:
    """Who has the feature: the cards listed before the verb in its clause (each of them), else the architecture
    named there, else the owner resolution's card."""
    cs, _ce = cues.clause_bounds(text, pos)
    named = [m for m in mentions if m.kind in _OWNER_KINDS and cs <= m.start and m.end <= pos
             and not is_comparative(text, m)]
    cards = [m for m in named if m.kind in ("product", "series")]
    if cards:
        group = [cards[-1]]
        for m in reversed(cards[:-1]):
            if not _LIST_GAP.fullmatch(text[m.end:group[0].start].replace(m.variant or "", "", 1)):
                break
            group.insert(0, m)
        return [as_subject(text, m, "clause") for m in group]
    archs = [m for m in named if m.kind == "architecture"]
    if archs:
        found = ref.entity(archs[-1].ref)
        if found is not None and found.kind == "architecture":
            return [Subject(found.id, archs[-1].text, None, 1, "clause", archs[-1])]
    if any(m.kind in _OWNER_KINDS and m.start >= pos for m in mentions if cs <= m.start):
        return []  # "支持NVLink的是A100": the owner comes after the verb
    subjects = resolve(text, pos, mentions, state)
    if not subjects and state.families and state.families[-1][1]:
        family = ref.entity(state.families[-1][1] or "")
        if family is not None and family.kind == "architecture":
            return [Subject(family.id, family.name, None, 1, "heading")]
    return subjects


def _only_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference) -> list[Draft]:
    """"A和B仅支持PCIe": "only X" denies the alternatives X stands against (a multi-GPU link); the vendor's own one
    is the claim (NVLink for an NVIDIA card, Infinity Fabric Link for an AMD one)."""
    out: list[Draft] = []
    for features, hit in _ALTERNATIVES.hits(text):
        cs, _ce = cues.clause_bounds(text, hit.start())
        only = _ONLY.search(text, cs, hit.start())
        if only is None:
            continue
        for owner in _owners(text, only.start(), mentions, state, ref):
            feature = _vendor_feature(ref, owner.ref, features.split("|"))
            if feature is None:
                continue
            out.append(_draft(only.start(), hit.end(), owner, feature, ref, {"negated": True, "only": True}))
    return out


def _vendor_feature(ref: Reference, owner: str, features: list[str]) -> str | None:
    arch = ref.items.get("architecture", {}).get(owner)
    vendor = arch.fields.get("vendor", "") if arch is not None else (ref.vendor_of(owner) or "")
    for name in features:
        f = ref.relations.feature(name)
        if f is not None and f.owner == vendor:
            return f.name
    return None


def _draft(start: int, end: int, owner: Subject, feature: str, ref: Reference, extra: dict[str, object]) -> Draft:
    family = ref.kind_of(owner.ref) == "architecture"
    return Draft(start, end, owner, "supports", feature, None, variant=owner.variant,
                 scope=Scope.FAMILY if family else Scope.PRODUCT, scope_detail=ref.name(owner.ref) if family else None,
                 extra=extra)
