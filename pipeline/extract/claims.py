"""Sentences -> claims: every checkable hardware statement with its subject, attribute, value and span."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import replace

from ..knowledge.reference import CHIP_FIGURES, Reference
from ..records import BlockKind, Claim, Document, Mention, Scope, Sentence, Table
from ..segment import Segmented
from . import cues
from .concepts import concept_drafts
from .cpu import of_a_cpu
from .derived import derived_drafts
from .draft import Draft
from .figures import dedicated, term_drafts, without_open_overlaps
from .history import history_drafts
from .labels import label_drafts
from .leftover import leftover_drafts
from .lineage import lineage_drafts
from .links import link_fact_drafts
from .names import (
    _chip_substitution_drafts,
    _identity_drafts,
    _interface_drafts,
    _manufacturer_drafts,
    _mention_drafts,
    _tensor_presence_drafts,
)
from .numbers import _card_count, _quantity_drafts
from .process import process_drafts
from .quantities import find_quantities
from .relative import relative_drafts
from .subjects import SUBJECT_KINDS, DocState, multiplier_of, update_topic
from .support import support_drafts
from .tables import cell_sentences, key_value_rows, table_claims
from .terms import term_fact_drafts
from .timely import document_date, heading_date, timely_drafts
from .topic import carried_system, enter_sentence, leave_sentence


def extract_claims(doc: Document, seg: Segmented, ref: Reference) -> list[Claim]:
    """All claims of a document, in text order (prose sentences and table cells)."""
    state = DocState()
    state.as_of = state.document_date = document_date(doc)
    claims: list[Claim] = []
    ordered = sorted(seg.mentions, key=lambda m: m.start)
    starts = [m.start for m in ordered]
    prev_end = 0
    label: str | None = None  # a line that is only a label ("FP32：") for the figure on the next line
    index = len(seg.sentences)  # table rows are numbered after the prose sentences
    tables = sorted(doc.tables, key=lambda t: t.start)
    for sent in seg.sentences:
        while tables and tables[0].start < sent.start:  # a table is read where it stands, with the topic there
            index = _table(doc, seg, tables.pop(0), ref, state, claims, index)
        text = seg.norm[sent.start:sent.end]
        lo, hi = bisect_left(starts, sent.start), bisect_left(starts, sent.end)
        mentions = [_local(m, sent.start) for m in ordered[lo:hi] if m.end <= sent.end]
        enter_sentence(state, sent, seg.norm, prev_end)
        prev_end = sent.end
        if sent.kind is BlockKind.HEADING:
            state.pending_multiplier = None
            state.as_of = heading_date(text) or state.document_date  # a dated heading dates its section
        for d in _labelled_drafts(label, text, mentions, state, ref):
            claims.extend(_finish(doc, sent, d, speculative=state.speculative or _speculative(text, d)))
        label = _label_line(text) if sent.kind is not BlockKind.HEADING else None
        update_topic(text, mentions, state)
        leave_sentence(state, sent, seg.norm, mentions)
        _update_pending(text, mentions, state)
    for table in tables:
        index = _table(doc, seg, table, ref, state, claims, index)
    claims.sort(key=lambda c: (c.start, c.end, c.attribute))
    return claims


_LABEL_LINE = re.compile(r"[\s\-*•>]*([^,;。!?:|\n]{1,16}):\s*")


_FIGURE_FIRST = re.compile(r"[\s\-*•>~≈约]*\d")  # a line that starts with its figure: the label is its cue


def _label_line(text: str) -> str | None:
    """A sentence that is only a label ("FP32：", "- 显存："): what the next line's figure is a figure of."""
    hit = _LABEL_LINE.fullmatch(text)
    return hit.group(1).strip() + ":" if hit and not find_quantities(hit.group(1)) else None


def _labelled_drafts(label: str | None, text: str, mentions: list[Mention], state: DocState,
                     ref: Reference) -> list[Draft]:
    """The claims of a sentence, read after the label line before it when there is one ("FP32：" / "6.8 TFLOPS")."""
    if label is None or not _FIGURE_FIRST.match(text):
        return sentence_drafts(text, mentions, state, ref)
    shift = len(label)
    moved = [replace(m, start=m.start + shift, end=m.end + shift) for m in mentions]
    out = []
    for d in sentence_drafts(label + text, moved, state, ref):
        if d.start >= shift:
            out.append(replace(d, start=d.start - shift, end=d.end - shift))
    return out


def _table(doc: Document, seg: Segmented, table: Table, ref: Reference, state: DocState, claims: list[Claim],
           index: int) -> int:
    """The claims of one table: by its card column or row, else (a label/value table) each row as a sentence about
    the topic. Returns the next sentence index."""
    first = len(claims)
    left_alone: set[tuple[int, int]] = set()
    rows = list(table_claims(doc, seg, table, ref, state, left_alone))
    for (start, end), drafts in rows:
        sent = Sentence(index, start, end, doc.text[start:end], BlockKind.TABLE)
        index += 1
        for d in drafts:
            claims.extend(_finish(doc, sent, d, speculative=state.speculative))
    if not rows:
        for start, end, text, mentions in key_value_rows(seg, table, ref):
            sent = Sentence(index, start, end, doc.text[start:end], BlockKind.TABLE)
            index += 1
            for d in sentence_drafts(text, mentions, state, ref):
                claims.extend(_finish(doc, sent, d, speculative=state.speculative or _speculative(text, d)))
            update_topic(text, mentions, state)  # "| 型号 | Tesla T4 |": the rows after it are that card's
    return _cells_as_sentences(doc, seg, table, ref, state, claims, first, index, left_alone)


def _cells_as_sentences(doc: Document, seg: Segmented, table: Table, ref: Reference, state: DocState,
                        claims: list[Claim], first: int, index: int, left_alone: set[tuple[int, int]]) -> int:
    """Each cell read as prose, "CARD的LABEL：CELL", through the same resolver as sentences: what no table rule read
    of it becomes a claim too (the cells a rule found not to be a spec excepted)."""
    from ..segment import get_segmenter

    matcher = get_segmenter(ref).matcher
    read = [(c.start, c.end) for c in claims[first:]]
    rows: dict[int, Sentence] = {}
    for cs in cell_sentences(seg, table, ref):
        if (cs.cell.start, cs.cell.end) in left_alone:
            continue
        if cs.row_start not in rows:
            rows[cs.row_start] = Sentence(index, cs.row_start, cs.row_end, doc.text[cs.row_start:cs.row_end],
                                          BlockKind.TABLE)
            index += 1
        sent = rows[cs.row_start]
        shift = cs.cell.start - cs.row_start - cs.prefix  # sentence offsets -> offsets in the row
        for d in sentence_drafts(cs.text, list(matcher.find(cs.text)), state, ref):
            if d.start < cs.prefix:
                continue  # a claim on the label or the card's name, not on the cell
            moved = replace(d, start=d.start + shift, end=d.end + shift)
            at, to = cs.row_start + moved.start, cs.row_start + moved.end
            if any(s < to and at < e for s, e in read):
                continue  # a figure of the cell a table rule read already
            claims.extend(_finish(doc, sent, moved, speculative=state.speculative or _speculative(cs.text, d)))
    return index


def _local(m: Mention, by: int) -> Mention:
    return Mention(m.start - by, m.end - by, m.text, m.kind, m.ref, m.variant)


def _speculative(text: str, d: Draft) -> bool:
    """"据传RTX 5090的功耗为800W", "预计…在500到550瓦之间": a forecast or rumour before the figure in its sentence,
    or in the claim's own words ("英伟达还将推出…")."""
    return bool(cues.SPECULATIVE.search(text, 0, d.end))


def _counted_in_clause(text: str, d: Draft) -> Draft:
    """"A100单卡功耗400W，8卡约3.2kW": a clause that counts cards before its figure (after an earlier 单卡) gives
    their total, or each card's figure (``count_only``: the checker tries both)."""
    if d.multiplier > 1 or d.scope is not Scope.PRODUCT or d.scope_detail or d.subject.multiplier > 1:
        return d
    cs, _ce = cues.clause_bounds(text, d.start)
    counted = cues.BARE_MULTIPLIER.search(text, cs, d.start)
    n = _card_count(counted)
    if not n or counted is None or cues.PER_CARD.search(text, cs, d.start) or (
            d.subject.mention is not None and cs <= d.subject.mention.start) or (
            d.subject.text and d.subject.text in text[counted.end():d.start]):
        return d  # no count, one card's figure, or the clause names its own card (that count is already read)
    return replace(d, multiplier=n, scope=Scope.SYSTEM, scope_detail=str(n), extra={**d.extra, "count_only": True})


def _finish(doc: Document, sent: Sentence, d: Draft, *, speculative: bool = False) -> Iterator[Claim]:
    d = carried_system(sent.text, _counted_in_clause(sent.text, d))
    if d.scope_detail == "within" and d.attribute in CHIP_FIGURES:  # GB200里的B200: the same die, the same count
        d = replace(d, scope=Scope.PRODUCT, scope_detail=None)
    start, end = sent.start + d.start, sent.start + d.end
    yield Claim(
        doc_id=doc.doc_id, start=start, end=end, text=doc.text[start:end], sentence=sent.text,
        sentence_index=sent.index, subject=d.subject.ref, subject_mention=d.subject.text,
        attribute=d.attribute, value=d.value, unit=d.unit, qualifier=d.qualifier, multiplier=d.multiplier,
        detail=d.detail, variant=d.variant, scope=d.scope, scope_detail=d.scope_detail,
        extra={"via": d.subject.via, "bits": d.bits, "offset_in_sentence": d.start, "resolution": d.resolution,
               **({"written_unit": d.written_unit} if d.written_unit else {}),
               **({"every_member": True} if _every_member(sent.text, d) else {}),
               **({"speculative": True} if speculative else {}), **d.extra},
    )


_EVERY = cues.LEX.regex("every_member")


def _every_member(text: str, d: Draft) -> bool:
    """"RX 6000系列均配备16GB显存": the claim is made of every card in the series."""
    if d.subject.mention is None or d.subject.mention.kind != "series":
        return False
    cs, _ce = cues.clause_bounds(text, d.start)
    return bool(_EVERY.search(text[max(cs, d.subject.mention.end):d.start])
                or re.search(r"(?:所有|全部|全系)\s*$", text[cs:d.subject.mention.start]))


def _update_pending(text: str, mentions: list[Mention], state: DocState) -> None:
    """A sentence that announces a list ('四张卡合计如下:', '一台4×L40S工作站:') sets the card count for the
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


def sentence_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference) -> list[Draft]:
    """Claims in one sentence (normalised text, sentence-local mentions)."""
    drafts: list[Draft] = []
    drafts += _chip_substitution_drafts(text, mentions, state, ref)
    drafts += _quantity_drafts(text, mentions, state, ref)
    drafts += _mention_drafts(text, mentions, state, ref)
    drafts += _identity_drafts(text, mentions)
    drafts += _manufacturer_drafts(text, mentions, state, ref)
    drafts += _tensor_presence_drafts(text, mentions, state)
    drafts += concept_drafts(text, mentions, state, ref)
    drafts += _interface_drafts(text, mentions, state, ref)
    drafts += process_drafts(text, mentions, state, ref)
    drafts += relative_drafts(text, mentions, state, ref, dedicated(drafts))
    drafts += history_drafts(text, mentions, state, ref)
    drafts += support_drafts(text, mentions, state, ref, dedicated(drafts))
    drafts += term_fact_drafts(text, mentions, state, ref)
    drafts += link_fact_drafts(text, mentions, state, ref)
    drafts += lineage_drafts(text, mentions, state, ref, dedicated(drafts))
    drafts += timely_drafts(text, mentions, state, ref)
    drafts += derived_drafts(text, mentions, state, ref)
    drafts += term_drafts(text, mentions, state)
    drafts += label_drafts(text, mentions, state, ref, dedicated(drafts))
    drafts = without_open_overlaps(of_a_cpu(text, drafts, mentions, ref))
    return drafts + leftover_drafts(text, mentions, state, drafts)
