"""Process nodes: "H100采用台积电4N工艺", "RTX 3090基于三星8nm制程", "GA100芯片采用7nm工艺" -- the process a card's
GPU (or a chip) is made on, and the foundry when the text names one.

The node is a number of nanometres (7nm, 12 nm FFN) or a foundry's name for a node (4N, N7, 8N). A bare "7nm" is
read as a node only with a word that says so in its clause (工艺, 制程, process, a foundry's name), so a wavelength or a
feature size elsewhere in the text is not taken for one. The owner is the card named before it in the clause (the
usual owner rules) or a chip named there ("GH100采用…").
"""

from __future__ import annotations

import re

from ..knowledge.reference import Reference
from ..lexicon.scanning import Gated
from ..records import Mention, Scope
from . import cues
from .draft import Draft
from .numbers import respective_cards
from .subjects import SUBJECT_KINDS, DocState, Subject, as_subject, family_owner, resolve

_FOUNDRY = cues.LEX.alt("foundry")
_PROCESS_WORD = cues.LEX.alt("process_word")
# a node: "7nm", "7 纳米", "12nm FFN", "16 nm FinFET"; or a foundry's node name: 4N, 4NP, N7, N4P, 8N
_NODE = (r"(?:(?P<nm>\d{1,2})\s*(?:nm|纳米|奈米)(?![A-Za-z])(?:\s*(?:FinFET|FFN|EUV))?"
         r"|(?P<name>\d{1,2}NP?|N\d{1,2}[PX]?)(?![A-Za-z\d]))")
_ANY_NODE = re.sub(r"\?P<\w+>", "", _NODE)
# the process word after the node, or after the nodes listed with it ("5nm和6nm工艺")
_WORD_AFTER = rf"(?P<word>(?:\s*(?:和|与|及|、|/|或)\s*{_ANY_NODE})*\s*(?:的)?\s*[\u4e00-\u9fff]{{0,3}}{_PROCESS_WORD})"
_PHRASE = re.compile(rf"(?P<foundry>{_FOUNDRY})?\s*(?:的)?\s*(?P<node>{_NODE})(?={_WORD_AFTER})?", re.I)
# a foundry named right after the node, as spec lines write it ("8nm Samsung", "7 nm TSMC")
_FOUNDRY_AFTER = re.compile(rf"\s*(?P<foundry>{_FOUNDRY})(?![A-Za-z])", re.I)
_WORD_BEFORE = re.compile(rf"{_PROCESS_WORD}\s*(?:为|是|采用|使用|[:：])?\s*$", re.I)
# a verb that says a card is made on the node ("采用", "基于", "…制造"): needed when the card is named in another clause
_VERB = cues.LEX.regex("process_verb")
_GATE = Gated(re.compile(r"\d\s*(?:nm|纳米|奈米)|\dNP?(?![A-Za-z\d])|N\d", re.I))


def process_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference) -> list[Draft]:
    """The process-node claims of one sentence."""
    if _GATE.search(text) is None:
        return []
    out: list[Draft] = []
    phrases = list(_PHRASE.finditer(text))
    respectively = _respectively(text, mentions, phrases)
    for m in phrases:
        cs, ce = cues.clause_bounds(text, m.start())
        after = None if m.group("foundry") else _FOUNDRY_AFTER.match(text, m.end("node"))
        said = m.group("foundry") or after or m.group("word") or _WORD_BEFORE.search(text, cs, m.start()) or (
            m.group("nm") and _after_a_name(text, m.start(), mentions))
        if m.group("name") and not said:
            continue  # "N7" alone may be anything; a node name needs a foundry or a process word
        if not said or cues.NEGATION.search(text, cs, m.start()):
            continue
        node = f"{m.group('nm')} nm" if m.group("nm") else m.group("name").upper()
        named = m.group("foundry") or (after.group("foundry") if after else None)
        foundry = cues.LEX.value_of("foundry", named) if named else None
        start = m.start("foundry") if m.group("foundry") else m.start("node")
        end = after.end("foundry") if after else m.end("node")
        owners = [(respectively[m.start()], Scope.PRODUCT)] if m.start() in respectively else _owners(
            text, start, mentions, state)
        if _said_of_the_node(text, m, cs, ce):  # "H100发布时，台积电的3nm工艺还没有量产": not what H100 is made on
            owners = [(s, sc) for s, sc in owners if s.mention is not None and s.mention.start >= cs]
        for subj, scope in owners:
            out.append(Draft(start, end, subj, "process_node", node, None, detail=foundry, scope=scope))
    return out


_BRACKET = re.compile(r"\s*[(（]\s*$")


def _after_a_name(text: str, pos: int, mentions: list[Mention]) -> bool:
    """"Turing (7nm)", "V100(12nm)": nanometres alone in brackets after a card, chip or architecture name."""
    opened = _BRACKET.search(text, 0, pos)
    return opened is not None and re.match(r"\s*(?:FinFET|FFN|EUV)?\s*[)）]", text[pos:][text[pos:].find("m") + 1:]
                                           ) is not None and any(
        m.end == opened.start() and m.kind in ("product", "series", "chip", "architecture") for m in mentions)


def _said_of_the_node(text: str, m: re.Match[str], cs: int, ce: int) -> bool:
    """The node's clause says something of the node itself (a predicate follows it: "3nm工艺还没有量产") and no
    verb says a card is made on it: a card named outside the clause does not own it. A spec line (制程：4nm, "TSMC
    5nm | 6nm") has no predicate."""
    after = m.end("word") if m.group("word") else m.end()
    return len(cues.HAN.findall(text, after, ce)) >= 2 and not _VERB.search(text, cs, ce)


def _respectively(text: str, mentions: list[Mention], phrases: list[re.Match[str]]) -> dict[int, Subject]:
    """"H100和A100分别采用4N和7nm工艺": the nodes after 分别 go to the cards named before it, in order."""
    out: dict[int, Subject] = {}
    for mark, ce, cards in respective_cards(text, mentions):
        nodes = [m for m in phrases if mark.end() <= m.start() < ce]
        if len(cards) >= 2 and len(nodes) == len(cards):
            out.update({n.start(): as_subject(text, c) for n, c in zip(nodes, cards, strict=True)})
    return out


def _owners(text: str, pos: int, mentions: list[Mention], state: DocState) -> list[tuple[Subject, Scope]]:
    """The card(s) the usual rules find; else the chip named last before the node in its clause; else the
    architecture the sentence or its section is about ("Ampere架构采用7nm工艺": said of the family's dies)."""
    cs, _ce = cues.clause_bounds(text, pos)
    chips = [m for m in mentions if m.kind == "chip" and cs <= m.start and m.end <= pos]
    cards = [m for m in mentions if m.kind in SUBJECT_KINDS and cs <= m.start and m.end <= pos]
    if chips and (not cards or chips[-1].start > cards[-1].start):
        return [(as_subject(text, chips[-1], "clause"), Scope.CHIP)]
    owners = [(s, Scope.PRODUCT) for s in resolve(text, pos, mentions, state)]
    family = None if owners else family_owner(text, pos, mentions, state)
    return [(family, Scope.FAMILY)] if family is not None else owners
