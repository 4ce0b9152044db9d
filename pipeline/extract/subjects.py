"""Who a claim is about: the product named in the clause, a pronoun's antecedent, or the article's current topic.

Also the article-level state that carries from sentence to sentence: topic, the last pair of products (for 前者 /
后者 / 两者), a pending card count for lists of totals, and chip substitutions (an article that says card X uses card
Y's GPU makes later mentions of Y "as X's GPU" stand for X).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..lexicon import load_lexicon
from ..records import UNCERTAIN_OWNERS, Mention
from .cues import (
    AS_GPU,
    COMPARE_AFTER,
    COMPARE_BEFORE,
    COORD_BEFORE,
    COORDINATOR,
    MULTIPLIER_AFTER,
    MULTIPLIER_BEFORE,
    PER_CARD,
    PRONOUN,
    clause_bounds,
)
from .quantities import parse_number

LEX = load_lexicon()

SUBJECT_KINDS = frozenset({"product", "series"})
@dataclass(frozen=True)
class Subject:
    ref: str
    text: str
    variant: str | None = None
    multiplier: int = 1
    via: str = "explicit"  # how the owner was found: one of CERTAIN or UNCERTAIN below
    mention: Mention | None = None
    system: str | None = None  # "DGX H100": the system named after the card (its figures are the system's)


# a figure the text gives no owner for ("显存为24GB" in a text that names no card): recorded, never checked
NO_OWNER = Subject("", "", via="none")

# How a figure's owner was found. A flag needs one of CERTAIN: the owner is named in the figure's clause (or is the
# one card the sentence names before it), a pronoun or 分别 points at it, a table row or column names it, the topic
# is unambiguous, or the article substitutes one card's GPU for another's. UNCERTAIN owners are guesses: the checker
# says ``unverifiable`` (reason ``owner_uncertain``) instead of flagging them.
CERTAIN = frozenset({"explicit", "clause", "comparison", "pronoun", "sentence", "respectively", "table", "family",
                     "substitution", "topic", "heading"})
UNCERTAIN = UNCERTAIN_OWNERS


@dataclass
class DocState:
    """What the article has established so far."""

    topic: Subject | None = None
    pair: tuple[Subject, Subject] | None = None
    discussed: list[Subject] = field(default_factory=list)  # cards the article's sentences were about, in order
    pending_multiplier: int | None = None
    substitutions: dict[str, Subject] = field(default_factory=dict)  # Y ref -> X (the article's card)
    named: set[str] = field(default_factory=set)
    # the topic is unambiguous: the last sentence, paragraph or heading that set it named it alone, and no other
    # product has been named since (see topic.py for paragraphs and headings)
    topic_clear: bool = False
    topic_from_heading: bool = False
    # the open sections: (level, topic, topic is clear, heading speaks of forecasts or rumours)
    headings: list[tuple[int, Subject | None, bool, bool]] = field(default_factory=list)
    owners_seen: set[str] = field(default_factory=set)  # every product the article's sentences were about
    speculative: bool = False  # the section's heading says it is about forecasts or rumours (传闻规格)
    # (heading level, the architecture its section is about, or None): for history claims (history.py)
    families: list[tuple[int, str | None]] = field(default_factory=list)
    # the architecture the last sentence that named one named (该架构, 此架构: lineage.py)
    last_architecture: str | None = None
    # the date the text is written as of (YYYY or YYYY-MM): its front matter's, or its dated heading's (timely.py)
    as_of: str | None = None
    document_date: str | None = None


def is_comparative(text: str, m: Mention) -> bool:
    """A product named only as a point of comparison: 比A100, 从A100的, 与A100相同, V100的两倍, vs A100, （作为对比，
    A100为…）; or as the product another one derives from (A100的出口限制版)."""
    before = text[max(0, m.start - 4):m.start]
    after = text[m.end:m.end + 14]
    if COMPARE_BEFORE.search(before) or _DERIVED.match(after):
        return True
    if _COMPARE_CLAUSE.search(text[max(0, m.start - 10):m.start]):
        return True
    if COMPARE_AFTER.match(after) and (COORD_BEFORE.search(before) or re.match(r"^\s*的?[^,;。]{0,6}倍", after)):
        return True
    return bool(_WITH.search(before) and _SAME_AS.match(after))


_WITH = re.compile(r"(?:和|与|跟|同)\s*$")
_DERIVED = re.compile(rf"^\s*的\s*[^,;。]{{0,6}}?{LEX.alt('derived_product')}")
_COMPARE_CLAUSE = re.compile(rf"{LEX.alt('compare_clause')}[,，:：\s]*$")
_SAME_AS = re.compile(rf"^\s*{LEX.alt('same_as')}")
_COPULA = LEX.regex("copula")
_RELEASED = re.compile(rf"{LEX.alt('launch_verb')}了?\s*(?:新一代|全新的?|新款)?\s*$")


def is_complement(text: str, m: Mention, products: list[Mention]) -> bool:
    """A product that describes another one named before it in its clause (A800是…的A100变体, X属于Y系列): the
    clause is about the first one, so the values after it are not the second's."""
    cs, _ce = clause_bounds(text, m.start)
    return any(cs <= n.start and n.end <= m.start and n.ref != m.ref and _COPULA.search(text[n.end:m.start])
               for n in products)


_SYSTEM_BEFORE = re.compile(r"(?:HGX|DGX)(?:-\d)?\s*[（(]?\s*$")


_SYSTEM_NAMED = re.compile(r"(?P<s>(?:HGX|DGX)(?:-\d)?)\s*[（(]?\s*$")


_RACK_AFTER = re.compile(r"\s*(NVL\d{2,3})(?![\dA-Za-z])")


def system_of(text: str, m: Mention) -> str | None:
    """"DGX H100", "HGX B200", "DGX-1（V100）", "GB200 NVL72": the system named after the card, as the systems
    table names it."""
    hit = _SYSTEM_NAMED.search(text, 0, m.start)
    if hit:
        return f"{hit.group('s')} {m.text}"
    rack = _RACK_AFTER.match(text, m.end)
    return f"{m.text} {rack.group(1)}" if rack else None


def multiplier_of(text: str, m: Mention) -> int:
    """双P100 / 双卡A10 / A10双卡 -> 2, 8卡A100 -> 8, 8×A100 -> 8, 八卡HGX H100 -> 8, A100×8 -> 8; else 1."""
    raw = text[max(0, m.start - 10):m.start]
    before = _SYSTEM_BEFORE.sub("", raw)
    hit = MULTIPLIER_BEFORE.search(before)
    if not hit and before != raw:  # DGX H100 / HGX H200: an eight-GPU system (DGX Station: four)
        return 4 if re.search(r"Station\s*$", text[m.end:m.end + 10]) or "Station" in raw else 8
    if hit:
        if hit.group("dual"):
            return 2
        raw = hit.group("n") or hit.group("x")
        n = parse_number(raw) if raw else None
        return int(n) if n and 1 < n <= 1024 else 1
    after = MULTIPLIER_AFTER.match(text[m.end:])
    if after and after.group("dual"):
        return 2
    if after:
        n = parse_number(after.group("n"))
        return int(n) if n and 1 < n <= 1024 else 1
    return 1


# a number (not the digits of a name: L2缓存, FP64算力) between a compared card and the figure: "比A100多2560个"
_NOT_SAID_OF = re.compile(rf"{LEX.alt('compare_after')}|{LEX.alt('compare_before')}|倍|(?<![A-Za-z\d])\d|[、和与及]",
                          re.I)


def _said_of(text: str, m: Mention, pos: int) -> bool:
    """A compared card owns what its own clause says of it: "（作为对比，A100为312 TFLOPS）", "相比之下，A100的功耗为
    400W" -- but not "与A100相同的80GB" or "比A100多2560个", where the figure is someone else's."""
    cs, _ce = clause_bounds(text, m.start)
    between = text[m.end:pos].replace(m.variant or "", "", 1)
    return cs <= m.start and len(between) <= 16 and not _NOT_SAID_OF.search(between)


_CHANGE_TO = re.compile(r"提高|提升|增加|升级|增长|扩大|降低|减少|翻倍|[到至]")


def _possessed(text: str, m: Mention, pos: int, products: list[Mention]) -> bool:
    """"相较于RTX 4090的24GB GDDR6X显存和384位显存位宽": what follows a compared card's 的 in its clause is that
    card's, until another card is named."""
    after = m.end + (len(m.variant) + 1 if m.variant and text.startswith(m.variant, m.end + 1) else 0)
    return bool(re.match(r"\s*的", text[after:])) and COMPARE_BEFORE.search(text[max(0, m.start - 4):m.start]) is not \
        None and not any(m.end <= p.start < pos for p in products if p is not m) and not _CHANGE_TO.search(text, m.end,
                                                                                                            pos)


def owns(text: str, m: Mention, pos: int) -> bool:
    """A comparison's product owns the value right after it: 从A100的600GB/s."""
    between = text[m.end:pos]
    if m.variant:
        between = between.replace(m.variant, "", 1)
    return between.strip() in ("", "的")


def as_subject(text: str, m: Mention, via: str = "explicit") -> Subject:
    return Subject(m.ref, m.text, m.variant, multiplier_of(text, m), via, m, system_of(text, m))


_NAMED_AS = re.compile(rf"{LEX.alt('flagship')}(?:型号|产品|显卡|卡)?\s*(?:是|为|就是)\s*$")
_BOTH = frozenset(LEX.words("pronoun", "both"))


def _pronoun(word: str, state: DocState, before: list[Subject] | None = None) -> list[Subject]:
    """前者/后者/两者 point at the last two products named (in this sentence if it names two); 它/其 at the last
    product named before it in the sentence, else the topic; 两张卡 after one doubled card (双卡L40S) at that card."""
    before = before or []
    pair = tuple(before[-2:]) if len(before) >= 2 else state.pair
    if word in _BOTH and len(before) == 1 and before[0].multiplier == 2:
        return [_via(before[0], "pronoun")]
    if word in ("前者",) and pair:
        return [_via(pair[0], "pronoun")]
    if word in ("后者",) and pair:
        return [_via(pair[1], "pronoun")]
    if word in _BOTH and pair:
        return [_via(p, "pronoun") for p in pair]
    if word in ("它", "其"):
        if before:
            return [_via(before[-1], "pronoun")]
        if state.topic:
            return [_via(state.topic, "topic" if state.topic_clear else "topic_guess")]
    return []


_OTHER_CARD = re.compile(rf"(?:^|[,;。:：\s])(?:{LEX.alt('other_card')})[^,;。]{{0,12}}?(?:{LEX.alt('card_noun')})")
_VERSUS = re.compile(r"(?<![A-Za-z])(?:vs\.?|VS\.?|对比)(?![A-Za-z])")
_SLASH_AFTER = re.compile(r"\s*/\s*[\d.]")
_SLASH_BEFORE = re.compile(r"[\dA-Za-z]\s*/\s*$")
_OPEN = re.compile(r"\s*[(（]\s*")
_CLOSE = re.compile(r"[^()（）,;。]{0,12}?[)）]")


def _labelled(text: str, end: int, products: list[Mention]) -> Mention | None:
    """The product named alone in brackets right after a value: "HBM3（H100）", "700W（H100 SXM5）"."""
    opened = _OPEN.match(text, end)
    if not opened:
        return None
    m = next((p for p in products if p.start == opened.end()), None)
    return m if m is not None and _CLOSE.match(text, m.end) else None


def _via(s: Subject, via: str) -> Subject:
    return Subject(s.ref, s.text, s.variant, s.multiplier, via, s.mention, s.system)


def resolve(text: str, pos: int, mentions: list[Mention], state: DocState, *,
            exclude: Mention | None = None, end: int | None = None) -> list[Subject]:
    """The subject(s) of a value at ``pos`` (ending at ``end``) in sentence ``text`` (mentions are sentence-local),
    each with how it was found (``Subject.via``)."""
    products = [m for m in mentions if m.kind in SUBJECT_KINDS and m is not exclude]
    labelled = _labelled(text, end, products) if end is not None else None
    if labelled is not None:  # "GDDR6X（RTX 4090）": the card in brackets right after the value owns it
        return [as_subject(text, labelled, "clause")]
    cs, ce = clause_bounds(text, pos)
    if _OTHER_CARD.search(text, 0, pos) and not any(m.start < pos for m in products):
        return []  # "某国产X9000加速卡配备96GB": a card the text does not name is the subject
    anaphor = _anaphor(text, cs, pos, products, state)
    if anaphor is not None:
        return anaphor
    items: list[tuple[int, object]] = [(m.end, m) for m in products if cs <= m.start and m.end <= pos]
    items += [(p.end(), p.group(0)) for p in PRONOUN.finditer(text, cs, pos)]
    passed_over = False  # a card the clause compares was passed over: what it says is not the earlier card's
    for end, item in sorted(items, key=lambda x: x[0], reverse=True):
        if isinstance(item, Mention):
            compared = is_comparative(text, item)
            if compared and not (owns(text, item, pos) or _said_of(text, item, pos) or _possessed(text, item, pos,
                                                                                                 products)):
                passed_over = passed_over or bool(_COMPARE_CLAUSE.search(text[max(0, item.start - 10):item.start]))
                continue
            if compared and item.kind == "series" and _EXCLUDED.search(text, 0, pos):
                return [as_subject(text, item, "sentence_guess")]
            group = _coordinated(text, item, products, pos)
            if len(group) == 1 and not compared and _listed(text, item, products):
                # "P40和P4面向推理": said of each card listed, as with 都; which figure is whose is a guess
                group = _coordinated(text, item, products, pos, every=True)
                return [_substituted(text, m, mentions, state, "list_guess") for m in group]
            if item.kind == "series" and _EXCLUDED.search(text, 0, pos):
                # "除了RTX 4090之外，RTX 40系列其他显卡的显存都不超过16GB": not said of every member
                return [as_subject(text, item, "sentence_guess")]
            return [_substituted(text, m, mentions, state, "comparison" if compared else "clause") for m in group]
        word = str(item)
        # "RTX 4090与RTX 4080相比，后者…": the pair this sentence names, a compared card too
        pair_word = word in ("前者", "后者") or word in _BOTH
        subj = _pronoun(word, state, _named_before(text, products, end - len(word), compared=pair_word))
        if subj:
            return subj
        if str(item) in ("前者", "后者") or str(item) in _BOTH:
            return []  # it points at a pair the article has not made clear: no card rather than a guess
    # the clause's own card after the value: 2022年发布的H100, 2022年推出了H100
    after = [m for m in products if pos <= m.start < ce and not is_comparative(text, m)
             and ("的" in text[pos:m.start] or _RELEASED.search(text[pos:m.start]))]
    if after:
        return [_substituted(text, after[0], mentions, state, "clause")]
    earlier = [m for m in products if m.end <= cs and not is_comparative(text, m)
               and not is_complement(text, m, products)]
    # a pronoun in an earlier clause, after the last card named there (…；后者采用GP104核心，只有8GB显存)
    pronoun = next((p for p in reversed(list(PRONOUN.finditer(text, 0, cs)))
                    if not earlier or p.start() >= earlier[-1].end), None)
    if pronoun is not None:
        subj = _pronoun(pronoun.group(0), state, _named_before(text, products, pronoun.start()))
        if subj:
            return subj
    if earlier:
        # the sentence's one card is its subject; with several, the last one named is only a guess
        one = len({m.ref for m in earlier}) == 1 and not passed_over
        return [_substituted(text, earlier[-1], mentions, state, "sentence" if one else "sentence_guess")]
    if state.topic is None:
        return []
    via = ("heading" if state.topic_from_heading else "topic") if state.topic_clear and not passed_over \
        else "topic_guess"
    if any(m.start >= ce and m.ref != state.topic.ref and not is_comparative(text, m) for m in products):
        via = "topic_guess"  # "GDDR6X的速率可达21Gbps，RTX 4090的带宽因此…": the sentence goes on to name its card
    if any(m.kind in ("architecture", "chip") and cs <= m.start < pos and not _OPENING.search(text, cs, m.start)
           for m in mentions):
        via = "topic_guess"  # "Ampere架构于2020年推出": the clause is about an architecture or a die, not the card
    if end is not None and (_VERSUS.search(text[max(0, pos - 6):min(len(text), end + 6)])
                            or _SLASH_AFTER.match(text, end) or _SLASH_BEFORE.search(text, 0, pos)):
        # "192GB vs 80GB", "450W / 320W" under a heading: which side is the topic's, and is it the same card?
        via = "topic_guess"
    return [Subject(state.topic.ref, state.topic.text, state.topic.variant, 1, via, system=state.topic.system)]


_BOTH_OR_ALL = LEX.regex("all_of")
_EXCLUDED = LEX.regex("excluded_members")
_ANAPHOR = re.compile(rf"\s*(?:而|但|不过|然而|反观)?\s*(?:这张|这款|该|它的|其)?\s*{LEX.alt('anaphor_card')}")


def _anaphor(text: str, cs: int, pos: int, products: list[Mention], state: DocState) -> list[Subject] | None:
    """"RTX 3090的功耗为350W，而新卡提升到了450W", "…，而它的继任者达到3.35TB/s": a clause about a card it does not
    name, after a sentence that named another: the figure is not the named card's, and which card it is a guess
    (the topic, if the article has another one). None when the clause does not open so."""
    hit = _ANAPHOR.match(text, cs)
    if hit is None or hit.end() > pos or any(hit.end() <= m.start < pos for m in products):
        return None
    named = [m for m in products if m.end <= cs]
    if not named:
        return None  # "新卡的功耗为450W": the article's card, as any sentence without a name
    if state.topic is not None and all(state.topic.ref != m.ref for m in named):
        return [Subject(state.topic.ref, state.topic.text, state.topic.variant, 1, "topic_guess")]
    return [as_subject(text, named[-1], "sentence_guess")]


def _coordinated(text: str, m: Mention, products: list[Mention], pos: int, *, every: bool = False) -> list[Mention]:
    """"RX 6700 XT和RX 6900 XT都配备16GB显存": every card of the list the value is said of with 都/均 (or ``every``);
    else the nearest card alone."""
    if not every and not _BOTH_OR_ALL.search(text[m.end:pos]):
        return [m]
    group = [m]
    for o in reversed([p for p in products if p.end <= m.start]):
        between = text[o.end:group[0].start].replace(o.variant or "", "", 1)
        if not (COORDINATOR.fullmatch(between) or (every and _LIST_GAP.fullmatch(between))):
            break
        if all(g.ref != o.ref for g in group):
            group.insert(0, o)
    return group


def _listed(text: str, m: Mention, products: list[Mention]) -> bool:
    """The card closes a list of cards ("RTX 4090、RTX 4080、RTX 4070发布：…", "A和B的显存为…") that says neither
    分别 nor 都/均: which one the figure is said of is a guess."""
    before = [p for p in products if p.end <= m.start]
    if before and is_comparative(text, before[-1]):
        return False  # "不同于RTX 4090，RTX 4080只有16GB": the card before is only compared
    return bool(before) and bool(_LIST_GAP.fullmatch(text[before[-1].end:m.start].replace(before[-1].variant or "",
                                                                                             "", 1)))


# between two cards of a list: a joiner, or only spaces ("参数 H200 H20 H100": a table flattened into a line)
_LIST_GAP = re.compile(rf"\s+|{COORDINATOR.pattern}")


def _named_before(text: str, products: list[Mention], pos: int, *, compared: bool = False) -> list[Subject]:
    """The products named before ``pos`` in the sentence, once each, in order (not those only compared, unless
    ``compared``)."""
    named: list[Subject] = []
    for m in products:
        if m.end <= pos and (compared or not is_comparative(text, m)) and all(n.ref != m.ref for n in named):
            named.append(as_subject(text, m))
    return named


def _substituted(text: str, m: Mention, mentions: list[Mention], state: DocState, via: str = "explicit") -> Subject:
    """Y named as X's GPU (搭载…Y GPU, Y GPU配备…) stands for X, unless the sentence names X too."""
    x = state.substitutions.get(m.ref)
    if x is not None and AS_GPU.match(text[m.end:].replace(m.variant or "", "", 1)) and not any(
            o.ref == x.ref for o in mentions):
        return Subject(x.ref, m.text, x.variant, 1, "substitution", m)
    return as_subject(text, m, via)


_SUBJECT_NAME = re.compile(r"\s*(?:架构|微架构|芯片|核心|GPU|die)?\s*"
                           r"(?:的|有|拥有|包含|集成|采用|中|内|里|每|共有|上有)", re.I)
_OPENING = re.compile(r"[^\s\d\W]", re.UNICODE)
_FULL = re.compile(rf"{LEX.alt('full_chip')}\s*(?:的)?", re.I)


def is_the_subject(text: str, m: Mention) -> bool:
    """"Hopper架构的SM有…", "AD102拥有…": an architecture or die that opens its clause and owns what follows (not
    "架构: Hopper", where it is a card's value)."""
    cs, _ce = clause_bounds(text, m.start)
    return not _OPENING.search(_FULL.sub("", text[cs:m.start])) and bool(_SUBJECT_NAME.match(text, m.end))


def update_topic(text: str, mentions: list[Mention], state: DocState) -> None:
    """After a sentence: its first non-comparative product becomes the topic; two products become the pair."""
    subjects: list[Subject] = []
    for m in mentions:
        if m.kind not in SUBJECT_KINDS or is_comparative(text, m):
            continue
        x = state.substitutions.get(m.ref)
        if x is not None and AS_GPU.match(text[m.end:]):
            continue
        if all(s.ref != m.ref for s in subjects):
            subjects.append(as_subject(text, m))
    for m in mentions:
        if m.kind == "product":
            state.named.add(m.ref)
    state.owners_seen.update(s.ref for s in subjects)
    if not subjects:
        if any(is_the_subject(text, m) for m in mentions if m.kind in ("architecture", "chip")):
            state.topic_clear = False  # the sentence is about an architecture or a die, not the topic's card
        return
    # "RTX 40系列的旗舰是RTX 4090": the card named as the series' flagship is what follows is about
    named = next((x for x in subjects[1:] if x.mention is not None
                  and _NAMED_AS.search(text[:x.mention.start])), None)
    if named is not None:
        subjects = [named, *(x for x in subjects if x is not named)]
    first, before = subjects[0], state.topic
    # "# DGX H100" then "- GPU：8× H100": counting the system's cards, the text is still about the system
    # (or one of them: "每块H100拥有80GB显存")
    its_cards = first.multiplier > 1 or (first.mention is not None and
                                         PER_CARD.search(text, max(0, first.mention.start - 4), first.mention.start))
    system = first.system or (before.system if before is not None and before.ref == first.ref and its_cards
                              else None)
    state.topic = Subject(first.ref, first.text, first.variant, system=system)
    state.topic_clear = len(subjects) == 1 or named is not None
    state.topic_from_heading = False
    if len(subjects) >= 2:
        state.pair = (subjects[0], subjects[1])
        state.discussed = [subjects[0], subjects[1]]
        return
    if all(d.ref != subjects[0].ref for d in state.discussed):
        state.discussed.append(subjects[0])
    # 前者/后者 point at the two cards discussed so far; after a third, which two is no longer clear
    state.pair = (state.discussed[0], state.discussed[1]) if len(state.discussed) == 2 else None


_OPENS = re.compile(r"[\s\-*•#>\d.、)_]*")
_ITS = re.compile(rf"(?:{LEX.alt('pronoun')}|该架构|该芯片|这一架构|此架构|这颗芯片)")


def family_owner(text: str, pos: int, mentions: list[Mention], state: DocState, *,
                 section: bool = True) -> Subject | None:
    """An architecture or die owns a figure its sentence or section says of it, when the sentence names no card:
    "Fermi是2010年发布的架构，它拥有16个SM" (the sentence opens with it and a pronoun or nothing names another
    owner), or (``section``) a figure in the section of a heading that names one architecture alone (### Fermi 架构)."""
    if any(m.kind in SUBJECT_KINDS for m in mentions):
        return None
    named = [m for m in mentions if m.kind in ("architecture", "chip") and m.end <= pos]
    opening = next((m for m in named if _OPENS.fullmatch(text, 0, m.start)), None)
    if opening is not None and len({m.ref for m in named}) == 1:
        cs, _ce = clause_bounds(text, pos)
        if cs <= opening.start or _ITS.search(text, cs, pos) or not _OPENING_WORD.match(text, cs, pos):
            return Subject(opening.ref, opening.text, None, 1, "family", opening)
    if named or not section or not state.families or not state.families[-1][1]:
        return None
    family = state.families[-1][1]
    return Subject(family, family, None, 1, "family")


# a clause that opens with its own subject (a word before the verb): not the opening name's
_OPENING_WORD = re.compile(r"\s*[\u4e00-\u9fffA-Za-z]{2,}(?:的|之)")
