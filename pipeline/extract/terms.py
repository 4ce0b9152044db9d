"""What terms are, as claims: what an abbreviation stands for (``stands_for``: HCCS（Huawei Cache Coherence System）,
SM的全称是Streaming Multiprocessor, Streaming Multiprocessor（SM）), two terms said to be one (``term_identity``:
MPS以前叫Hyper-Q, HBM即高带宽内存), and a chip called a card or a product line (``chip_identity``: GF100是一个显卡
系列).

The abbreviations are the rows of ``reference/term_expansions.csv``; a Latin text is read as an expansion only when
its words' initials spell the abbreviation (so "NVLink（Pascal起）" is no expansion). The verbs are data
(``facts.csv`` roles ``expansion_verb``, ``identity_verb``, ``product_noun``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..knowledge.reference import Reference
from ..lexicon.scanning import with_first_chars
from ..records import Mention
from . import cues
from .draft import Draft
from .subjects import DocState, Subject

LEX = cues.LEX
TERM_ATTRIBUTES = frozenset({"stands_for", "term_identity", "chip_identity"})
_W = LEX.alt

_LATIN = r"[A-Za-z][A-Za-z'&/\-]*(?:[ \t]+[A-Za-z][A-Za-z'&/\-]*)+"  # two or more Latin words
_BRACKET_LATIN = re.compile(rf"^\s*[（(]\s*(?P<exp>{_LATIN})\s*(?:[,，;；][^)）]*)?[)）]")
_BRACKET_HAN = re.compile(r"^\s*[（(]\s*(?P<exp>[\u4e00-\u9fff]{2,16})\s*[)）]")
_SAID_LATIN = re.compile(rf"^\s*(?:{_W('expansion_verb')})\s*[:：]?\s*(?P<exp>{_LATIN})")
_SAID_HAN = re.compile(rf"^\s*(?:{_W('expansion_verb', 'names')})\s*[:：]?\s*(?P<exp>[\u4e00-\u9fff]{{2,16}}?)"
                       r"(?:的缩写|的简称)?\s*(?:$|[,，;；。)）])")
_LATIN_BEFORE = re.compile(rf"(?P<exp>{_LATIN})\s*$")
_OPEN_BEFORE = re.compile(r"[（(]\s*$")
_IDENTITY = re.compile(rf"^\s*(?:[（(][^()（）]{{0,24}}[)）])?\s*(?:[\u4e00-\u9fff]{{0,8}}\s*[,，]\s*)?"
                       rf"(?:(?P<neg>不是|并非|并不是)\s*(?:{_W('identity_verb')})?|(?:{_W('identity_verb')}))\s*$")
_CHIP_AS_CARD = re.compile(rf"\s*(?:{_W('identity_verb')}|表示|代表|是)\s*(?:一[款个种张块])?[^,;。]{{0,24}}?"
                           rf"(?:{_W('product_noun')})\s*(?:$|[,，;；。])")
_CHIP_NOUNS = re.compile(r"芯片|核心|die|晶片|晶粒|GPU核心|图形核心", re.I)
_STOP = frozenset({"of", "the", "and", "for", "on", "a", "an", "in", "to", "with", "designed", "based"})


@lru_cache(maxsize=4)
def _abbreviations(keys: tuple[str, ...]) -> re.Pattern[str]:
    words = sorted(keys, key=len, reverse=True)
    return with_first_chars(r"(?<![A-Za-z0-9])(?:" + "|".join(re.escape(w) for w in words) + r")(?![A-Za-z0-9])")


def _abbreviation_pattern(ref: Reference) -> re.Pattern[str] | None:
    """The abbreviations of the reference's expansions, one pattern per reference (asked once per sentence)."""
    if ref.fingerprint not in _PATTERN_OF:
        keys = tuple(e.abbreviation for e in ref.relations.expansions.values() if e.abbreviation)
        _PATTERN_OF[ref.fingerprint] = _abbreviations(keys) if keys else None
    return _PATTERN_OF[ref.fingerprint]


_PATTERN_OF: dict[str, re.Pattern[str] | None] = {}


def term_fact_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference) -> list[Draft]:
    """Expansion, identity and chip-identity claims in one sentence."""
    out: list[Draft] = []
    pattern = _abbreviation_pattern(ref)
    if pattern is not None:
        hits = list(pattern.finditer(text))
        for hit in hits:
            out += _expansion(text, hit, ref)
        said = [(d.start, d.end) for d in out]
        out += [d for d in _identities(text, [(h.start(), h.end(), h.group(0)) for h in hits],
                                       mentions, ref) if not any(s < d.end and d.start < e for s, e in said)]
    out += _chip_identities(text, mentions, ref)
    return out


def _initials_fit(abbreviation: str, expansion: str) -> bool:
    """The expansion's word initials spell the abbreviation's letters in order (HCCS: Huawei-designed Collective
    Communication System), one letter aside in an abbreviation of three or more (XCD: Accelerator Complex Die, SXM:
    Server PCI Express Module)."""
    letters = [ch.lower() for ch in abbreviation if ch.isalpha() and ch.isupper()] or [
        ch.lower() for ch in abbreviation if ch.isalpha()]
    initials = [w[0].lower() for w in re.split(r"[\s\-/]+", expansion) if w]
    if len(letters) < 2 or len(initials) < 2:
        return False
    found, at = 0, 0
    for ch in letters:  # in order; a letter no later initial has is skipped, not the initials after it
        nxt = next((j for j in range(at, len(initials)) if initials[j] == ch), None)
        if nxt is not None:
            found, at = found + 1, nxt + 1
    return found == len(letters) or (len(letters) >= 3 and found >= len(letters) - 1 and letters[-1] == initials[-1])


def _expansion(text: str, hit: re.Match[str], ref: Reference) -> list[Draft]:
    entry = ref.relations.expansion(hit.group(0))
    if entry is None or entry.expansion == "-":
        return []
    abbreviation = hit.group(0)
    after = text[hit.end():]
    for found, latin in ((_BRACKET_LATIN.match(after), True), (_SAID_LATIN.match(after), True),
                         (_BRACKET_HAN.match(after), False), (_SAID_HAN.match(after), False)):
        if found is None:
            continue
        said = found.group("exp").strip()
        if latin and not _initials_fit(abbreviation, said):
            continue
        end = hit.end() + found.end("exp") + (1 if after[found.end("exp"):found.end("exp") + 1] in ")）" else 0)
        return [_draft(hit.start(), min(end, len(text)), entry.term or abbreviation, abbreviation, "stands_for", said,
                       {"abbreviation": abbreviation})]
    opened = _OPEN_BEFORE.search(text, 0, hit.start())
    before = _LATIN_BEFORE.search(text, 0, opened.start()) if opened is not None else None
    if before is not None and re.match(r"\s*[)）]", text[hit.end():]):
        said = _trim_to_initials(abbreviation, before.group("exp"))
        if said:
            start = before.end("exp") - len(said)
            return [_draft(start, hit.end() + 1, entry.term or abbreviation, abbreviation, "stands_for", said,
                           {"abbreviation": abbreviation})]
    return []


def _trim_to_initials(abbreviation: str, words: str) -> str:
    """"…the GPU's Streaming Multiprocessor (SM)": the shortest tail of the words that still spells the
    abbreviation."""
    parts = words.split()
    for i in range(len(parts) - 1, -1, -1):
        tail = " ".join(parts[i:])
        if _initials_fit(abbreviation, tail):
            return tail
    return ""


def _identities(text: str, abbreviations: list[tuple[int, int, str]], mentions: list[Mention],
                ref: Reference) -> list[Draft]:
    """"A以前叫B", "A即B", "A就是B": two terms (abbreviations of the table, or terms and links the text names)."""
    spans = sorted({(s, e, t) for s, e, t in abbreviations} |
                   {(m.start, m.end, m.text) for m in mentions if m.kind in ("term", "link", "memory_type")})
    out: list[Draft] = []
    for i, (a_start, a_end, a) in enumerate(spans):
        for b_start, b_end, b in spans[i + 1:]:
            between = text[a_end:b_start]
            verb = _IDENTITY.match(between)
            if verb is None or cues.CLAUSE_BREAK.search(between.replace("，", "", 1).replace(",", "", 1)):
                continue
            extra: dict[str, object] = {"other": b, **({"negated": True} if verb.group("neg") else {})}
            out.append(_draft(a_start, b_end, _term_id(ref, a), a, "term_identity", b, extra))
            break
    return out


def _term_id(ref: Reference, name: str) -> str:
    found = ref.entity(name)
    if found is not None and found.kind in ("term", "link", "memory"):
        return found.id
    entry = ref.relations.expansion(name)
    return (entry.term or entry.abbreviation) if entry is not None else name


def _chip_identities(text: str, mentions: list[Mention], ref: Reference) -> list[Draft]:
    """"GF100表示一个显卡系列": a die named as a card or a product line."""
    out: list[Draft] = []
    for m in mentions:
        if m.kind != "chip":
            continue
        said = _CHIP_AS_CARD.match(text, m.end)
        if said is None or _CHIP_NOUNS.search(said.group(0)) or cues.negated(text[m.end:said.end()]):
            continue
        found = ref.entity(m.ref)
        chip = found.id if found is not None else m.ref
        end = said.end() - (1 if said.group(0)[-1:] in ",，;；。" else 0)
        out.append(_draft(m.start, end, chip, m.text, "chip_identity", "product", {}))
    return out


def _draft(start: int, end: int, subject: str, mention: str, attribute: str, value: str,
           extra: dict[str, object]) -> Draft:
    return Draft(start, end, Subject(subject, mention, None, 1, "clause"), attribute, value, None, extra=extra)


def expansion_words(text: str) -> set[str]:
    """The significant words of an expansion, lower case, without a plural or -ing ending (Streaming and Stream,
    Threads and Thread are one word; Multiple and Multi are not): for comparing two spellings."""
    words = [w for w in re.split(r"[^A-Za-z]+", text.lower()) if w and w not in _STOP]
    return {re.sub(r"(?:ing|s)$", "", w) if len(w) > 4 else w for w in words}
