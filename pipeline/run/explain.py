"""``python -m pipeline explain``: how each claim of a text was read, and which numbers produced no claim.

For an editor asking "why was this not flagged" and for a developer growing the vocabulary: every claim with its
owner and how the owner was found, scope, attribute, value, verdict, reason and evidence, and the lexicon rows whose
words occur in the claim's clause; then every number of the prose that no claim covers, with the words around it,
and the share of numbers read (a coverage measure for any text, gold list or not).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..config import Config
from ..extract.cues import clause_bounds
from ..knowledge.reference import Reference
from ..lexicon import load_lexicon
from ..lexicon.figures import load_figures
from ..normalize import normalize
from ..records import BlockKind, Claim, Document, Format
from ..segment import get_segmenter
from .document import analyse, document_from_text

# lexicon roles worth showing beside a claim (the words that decide attribute, scope, owner and blocking)
_SHOWN_FILES = ("attributes", "scopes", "blockers", "hedges", "relations", "comparisons", "derived", "history")
_CONTEXT = 12  # characters each side of an unclaimed number


@dataclass(frozen=True)
class LexiconHit:
    where: str  # file:line
    role: str
    word: str  # the text it matched


@dataclass(frozen=True)
class ClaimView:
    claim: Claim
    owner_via: str
    rows: tuple[LexiconHit, ...]

    def to_dict(self) -> dict[str, Any]:
        c = self.claim
        return {
            "text": c.text, "start": c.start, "end": c.end, "subject": c.subject, "subject_mention": c.subject_mention,
            "owner_via": self.owner_via, "scope": c.scope.value, "scope_detail": c.scope_detail,
            "attribute": c.attribute, "value": c.value, "unit": c.unit, "detail": c.detail,
            "verdict": c.verdict.value if c.verdict else None,
            "reason": c.check.reason.value if c.check and c.check.reason else None,
            "evidence": getattr(getattr(c.check, "evidence", None), "value", None),
            "expected": c.check.expected if c.check else None,
            "explanation": c.check.explanation if c.check else None,
            "lexicon": [{"where": h.where, "role": h.role, "word": h.word} for h in self.rows],
        }


@dataclass(frozen=True)
class Unclaimed:
    start: int
    end: int
    text: str
    context: str
    block: str

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "text": self.text, "context": self.context,
                "block": self.block}


@dataclass
class Explanation:
    doc_id: str
    claims: list[ClaimView] = field(default_factory=list)
    unclaimed: list[Unclaimed] = field(default_factory=list)
    numbers: int = 0  # numbers of the prose, tables and lists (not code)

    @property
    def coverage(self) -> float:
        return 1.0 if not self.numbers else 1.0 - len(self.unclaimed) / self.numbers

    def to_dict(self) -> dict[str, Any]:
        return {"doc_id": self.doc_id, "claims": [v.to_dict() for v in self.claims],
                "unclaimed": [u.to_dict() for u in self.unclaimed], "numbers": self.numbers,
                "coverage": round(self.coverage, 4)}


def explain_text(text: str, ref: Reference, *, doc_id: str = "text.txt", fmt: Format = Format.TXT,
                 config: Config | None = None) -> Explanation:
    return explain_document(document_from_text(text, doc_id, fmt), ref, config)


def explain_document(doc: Document, ref: Reference, config: Config | None = None) -> Explanation:
    config = config or Config()
    claims, _mentions = analyse(doc, ref, config)
    out = Explanation(doc.doc_id)
    out.claims = [ClaimView(c, str(c.extra.get("via", "")), tuple(_lexicon_hits(c))) for c in claims]
    covered = [(c.start, c.end) for c in claims]
    segmenter = get_segmenter(ref)
    seg = segmenter.segment(doc, max_chars=config.window_chars)
    names = [(m.start, m.end) for m in seg.mentions]
    for b in doc.blocks:  # a table's cells are not prose: their names are found cell by cell, as the table reader does
        if b.kind is BlockKind.TABLE:
            names += [(m.start, m.end) for m in segmenter.matcher.find(seg.norm[b.start:b.end], b.start)]
    for start, end, block in _numbers(doc):
        if any(s <= start < e for s, e in names):
            continue  # the digits of a name: A100, RTX 4090
        out.numbers += 1
        if any(s < end and start < e for s, e in covered):
            continue
        lo, hi = max(0, start - _CONTEXT), min(len(doc.text), end + _CONTEXT)
        context = doc.text[lo:hi].replace("\n", " ")
        out.unclaimed.append(Unclaimed(start, end, doc.text[start:end], context, block))
    return out


_DIGITS = re.compile(r"(?<![A-Za-z\d.])\d+(?:[.,]\d+)*")


def _numbers(doc: Document) -> Iterator[tuple[int, int, str]]:
    """Every number written with digits outside code blocks."""
    skipped = [(b.start, b.end) for b in doc.blocks if b.kind in (BlockKind.CODE,)]
    for m in _DIGITS.finditer(doc.text):
        if any(s <= m.start() < e for s, e in skipped):
            continue
        yield m.start(), m.end(), _block_of(doc, m.start())


def _block_of(doc: Document, pos: int) -> str:
    for b in doc.blocks:
        if b.start <= pos < b.end:
            return b.kind.value
    return "prose"


def _lexicon_hits(c: Claim) -> Iterator[LexiconHit]:
    """The rows of the lexicon (and the open vocabulary) whose words occur in the claim's clause."""
    sentence = normalize(c.sentence)
    offset = int(c.extra.get("offset_in_sentence", 0) or 0)
    if not 0 <= offset <= len(sentence):
        return
    cs, ce = clause_bounds(sentence, offset)
    clause = sentence[cs:ce]
    seen: set[tuple[str, str]] = set()
    for e in load_lexicon().entries:
        if e.file not in _SHOWN_FILES:
            continue
        hit = _search(e.word, clause)
        if hit and (e.where, hit) not in seen:
            seen.add((e.where, hit))
            yield LexiconHit(e.where, e.role, hit)
    for r in load_figures():
        found = r.pattern.search(clause)
        if found:
            yield LexiconHit(r.where, f"figure:{r.attribute}", found.group(0))


def _search(word: str, text: str) -> str | None:
    try:
        hit = re.search(word, text, re.I)
    except re.error:
        return None
    return hit.group(0) if hit and hit.group(0).strip() else None


def explain_path(path: Path, ref: Reference, config: Config | None = None) -> Explanation:
    from ..ingest import read_document

    return explain_document(read_document(path, path.parent), ref, config)



def format_explanation(exp: Explanation, ref: Reference) -> str:
    """The explanation as lines for a terminal (no colour, no truncation)."""
    out = [f"{exp.doc_id}: {len(exp.claims)} claims; {exp.numbers - len(exp.unclaimed)} of {exp.numbers} numbers "
           f"read ({exp.coverage:.0%})", ""]
    for v in exp.claims:
        c, d = v.claim, v.to_dict()
        owner = f"{ref.name(c.subject)} ({c.subject})" if c.subject else "(no owner)"
        scope = c.scope.value + (f":{c.scope_detail}" if c.scope_detail else "")
        value = f"{c.value}{' ' + c.unit if c.unit else ''}" + (f" [{c.detail}]" if c.detail else "")
        verdict = str(d["verdict"]) + (f" ({d['reason']})" if d["reason"] else "")
        evidence = f" evidence={d['evidence']}" if d["evidence"] else ""
        out.append(f"[{c.start}:{c.end}] {c.text!r}")
        out.append(f"    owner: {owner}, found by {v.owner_via or 'its name'}; scope {scope}")
        out.append(f"    {c.attribute} = {value}; {verdict}{evidence}")
        if d["expected"]:
            out.append(f"    expected: {d['expected']}")
        if d["explanation"]:
            out.append(f"    {d['explanation']}")
        for h in v.rows:
            out.append(f"    lexicon {h.where} {h.role}: {h.word!r}")
    out += ["", f"numbers with no claim ({len(exp.unclaimed)}):"]
    out += [f"  [{u.start}:{u.end}] {u.text!r} in {u.block}: …{u.context}…" for u in exp.unclaimed]
    return "\n".join(out)
