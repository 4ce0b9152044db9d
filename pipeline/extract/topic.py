"""What the article is about at each sentence: the topic a heading sets for its section, and how paragraphs end a
prose topic. ``subjects.update_topic`` sets the topic from a sentence; this module handles the structure around it.

A figure whose sentence names no card belongs to the topic only when the topic is unambiguous (``topic_clear``):
the heading of its section names one card, or the sentence that set the topic named it alone in the same paragraph,
or the article has named only that card so far. Otherwise the owner is a guess and the figure is not flagged.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..records import BlockKind, Mention, Scope, Sentence
from .cues import PER_CARD, SPECULATIVE, clause_bounds
from .draft import Draft
from .history import enter_section
from .subjects import SUBJECT_KINDS, DocState, Subject, as_subject, is_comparative

_ATX = re.compile(r"[ \t]*(#{1,6})[ \t]")
_BLANK_LINE = re.compile(r"\n[ \t\u3000]*\r?\n")


def heading_level(norm: str, start: int) -> int:
    """1-6 for a Markdown heading (# … ######), 2 for any other heading (HTML h-tags, a txt heading line)."""
    line_start = norm.rfind("\n", 0, start) + 1
    m = _ATX.match(norm, line_start)
    return len(m.group(1)) if m else 2


def enter_sentence(state: DocState, sent: Sentence, norm: str, prev_end: int) -> None:
    """Before a sentence is read: a new paragraph ends a prose topic's certainty unless a heading or the article's
    single card vouches for it."""
    if sent.kind is BlockKind.HEADING:
        # a heading's own figures belong to what it names, or to the section it opens within, not to the text
        # before it
        level = heading_level(norm, sent.start)
        parents = [h for h in state.headings if h[0] < level]
        if parents:
            _level, topic, clear, _speculative = parents[-1]
            _set(state, topic, clear, from_heading=True)
        else:  # no section above it: the article's one card so far, if it has been about one only
            _set(state, state.topic, state.topic_clear and _single(state), from_heading=False)
    elif sent.kind is not BlockKind.TITLE and _BLANK_LINE.search(norm, prev_end, sent.start):
        _enter_paragraph(state)


def leave_sentence(state: DocState, sent: Sentence, norm: str, mentions: list[Mention]) -> None:
    """After a sentence is read (and ``update_topic`` has run): a heading opens a section with its own topic; its
    own figures were read like any sentence's."""
    if sent.kind in (BlockKind.HEADING, BlockKind.TITLE):
        text = norm[sent.start:sent.end]
        level = 0 if sent.kind is BlockKind.TITLE else heading_level(norm, sent.start)
        _enter_heading(state, level, text, mentions)
        enter_section(state, level, text, mentions)  # the architecture a section is about, for history claims


def _owners(text: str, mentions: list[Mention]) -> list[Subject]:
    out: list[Subject] = []
    for m in mentions:
        if m.kind in SUBJECT_KINDS and not is_comparative(text, m) and all(o.ref != m.ref for o in out):
            out.append(as_subject(text, m, "heading"))
    return out


def _enter_heading(state: DocState, level: int, text: str, mentions: list[Mention]) -> None:
    owners = _owners(text, mentions)
    state.headings = [h for h in state.headings if h[0] < level]
    if owners:  # "## RTX 4090": its section is about that card; "## A100 与 H100": about both, so about neither
        # (update_topic has chosen among them: the first, or the one named as a line's flagship)
        topic: Subject | None = state.topic or owners[0]
        clear = state.topic_clear
    elif any(m.kind in ("architecture", "chip", "series") for m in mentions):
        topic, clear = None, False  # "## Hopper架构": a section about an architecture, a die or a line
    elif state.headings:  # "### 显存": a subsection of its parent's card
        _level, topic, clear, _speculative = state.headings[-1]
    else:
        topic, clear = state.topic, state.topic_clear and _single(state)
    state.headings.append((level, topic, clear, False))
    _set(state, topic, clear, from_heading=True)
    parent_speculative = any(h[3] for h in state.headings[:-1])
    state.speculative = bool(SPECULATIVE.search(text)) or parent_speculative
    state.headings[-1] = (level, topic, clear, state.speculative)


def _enter_paragraph(state: DocState) -> None:
    if state.headings and state.headings[-1][1] is not None:
        _level, topic, clear, _speculative = state.headings[-1]
        _set(state, topic, clear, from_heading=True)
    elif not state.topic_from_heading:
        state.topic_clear = state.topic_clear and _single(state)


def _single(state: DocState) -> bool:
    """The article has been about one card only (comparisons aside)."""
    return state.topic is not None and state.owners_seen <= {state.topic.ref}


def _set(state: DocState, topic: Subject | None, clear: bool, *, from_heading: bool) -> None:
    state.topic = Subject(topic.ref, topic.text, topic.variant, system=topic.system) if topic else None
    state.topic_clear = clear and topic is not None
    state.topic_from_heading = from_heading


def carried_system(text: str, d: Draft) -> Draft:
    """A figure whose owner is carried from a heading or an earlier sentence that named a system ("# DGX H100" then
    "- 显存：640GB"; "DGX H100包含8块H100。整套系统的显存为640GB") is the system's, unless its clause says one card's
    (每块GPU 80GB). It may still be each card's (the checker tries both: ``count_only``)."""
    system = d.subject.system
    if system is None or d.subject.mention is not None or d.scope not in (Scope.PRODUCT, Scope.SYSTEM) or (
            d.scope is Scope.SYSTEM and d.scope_detail and not d.scope_detail.isdigit()):
        return d
    cs, _ce = clause_bounds(text, d.start)
    if PER_CARD.search(text, cs, d.start):
        return d
    return replace(d, scope=Scope.SYSTEM, scope_detail=system, extra={**d.extra, "count_only": True})
