"""Spec tables (Markdown pipes, HTML <table>) as claims: a cell's subject is the product its row or column names
(whichever header names products), its attribute comes from the other header."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from dataclasses import replace as _replace
from typing import TYPE_CHECKING

from ..knowledge.reference import THROUGHPUT_ATTRIBUTES, Reference
from ..knowledge.systems import named_system
from ..records import Cell, Document, Mention, Qualifier, Scope, Table
from .cues import AGGREGATE, BARE_MULTIPLIER, DENSE, LEX, NOT_A_SPEC_LEFT, PER_CARD, SPARSE, cache_named, link_named
from .draft import Draft
from .numbers import _round
from .quantities import Quantity, find_quantities, parse_number
from .scope import header_unit
from .subjects import SUBJECT_KINDS, DocState, Subject, multiplier_of

if TYPE_CHECKING:
    from ..segment import Segmented

# header words -> attributes a cell under them may state, most specific first
_HEADER_CUES: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = tuple(
    (pattern, tuple(value.split("|"))) for value, pattern in LEX.groups("header_cue"))
_UNIT_FOR = {"memory_bandwidth": ("rate",), "interconnect_bandwidth": ("rate",), "memory_size": ("size",),
             "tdp": ("power",), "cuda_cores": ("count", "bare"), "stream_processors": ("count", "bare"),
             "tensor_cores": ("count", "bare"), "mig_instances": ("count", "bare"), "sm_count": ("count", "bare"),
             "compute_units": ("count", "bare"), "rt_cores": ("count", "bare"), "rops": ("count", "bare"),
             "tmus": ("count", "bare"), "launch_year": ("year", "bare"),
             "cache_size": ("size",), "memory_bus_width": ("bits", "bare"),
             **{attr: ("tput",) for attr in THROUGHPUT_ATTRIBUTES}}
_TEXT_KIND = {"architecture": "architecture", "gpu_chip": "chip", "memory_type": "memory_type"}


@dataclass(frozen=True)
class _Cards:
    """What a row or a column says a figure is the figure of: one card (``n == 1``), ``n`` cards, or a system."""

    n: int = 1
    system: str | None = None  # the system's name, as the systems table knows it
    total: bool = False  # the header says the figure is a total (总显存, 显存合计, 整机显存)
    whole: bool = False  # the header says the whole machine (整机) or names a system word (服务器, 机柜)
    each: bool = False  # the header says one card's figure (单卡显存, 每卡功耗)


_SYSTEM_WORD = LEX.regex("system_word")


def _row_cards(norm: str, cell: Cell, mention: Mention | None, ref: Reference) -> _Cards:
    """"| DGX H100 |", "| 8× RTX 4090 |", "| 8卡A100 |": the row is a system's or several cards'."""
    if mention is None:
        return _Cards()
    text = norm[cell.start:cell.end]
    system = named_system(text, ref)
    if system is not None:
        return _Cards(system[1], system[0])
    local = _replace(mention, start=mention.start - cell.start, end=mention.end - cell.start)
    return _Cards(multiplier_of(text, local))


def _column_cards(label: str) -> _Cards:
    """"8卡总显存", "显存合计", "整机功耗", "单卡显存": what the header says its figures are of."""
    count = BARE_MULTIPLIER.search(label)
    n = parse_number(count.group("n") or count.group("m")) if count else None
    return _Cards(int(n) if n and 1 < n <= 1024 else 1, None, bool(AGGREGATE.search(label)),
                  bool(_SYSTEM_WORD.search(label)), bool(PER_CARD.search(label)))


def _cell_scope(row: _Cards, column: _Cards, attrs: tuple[str, ...]) -> tuple[int, Scope, str | None, bool]:
    """(multiplier, scope, scope detail, count only) of a cell: a card's, several cards' or a system's figure. A
    figure the header does not call a total may still be each card's ("count only": the checker tries both)."""
    link = "interconnect_bandwidth" in attrs  # a card's link figure is itself a total: NVLink总带宽 900GB/s
    if column.each:
        return 1, Scope.PRODUCT, None, False
    if column.n > 1:
        return column.n, Scope.SYSTEM, row.system or str(column.n), False
    if row.system is not None:
        return row.n, Scope.SYSTEM, row.system, not column.total or link
    if row.n > 1:
        return row.n, Scope.SYSTEM, str(row.n), not column.total or link
    if column.whole:
        return 1, Scope.SYSTEM, None, False  # "整机显存" of a card's row: which system, how many cards?
    return 1, Scope.PRODUCT, None, False


def header_attributes(text: str) -> tuple[str, ...]:
    for pat, attrs in _HEADER_CUES:
        if pat.search(text):
            return attrs
    return ()


def key_value_rows(seg: Segmented, table: Table, ref: Reference) -> list[tuple[int, int, str, list[Mention]]]:
    """A two-column table of labels and values that names no card in a column ("| 显存 | 80GB |", "| 前代架构 |
    Hopper（H100） |"): each row read as the sentence "label：value" (the separator between them becomes "：" in the
    analysed text, offsets unchanged), with the mentions in it. Empty for any other table."""
    from ..segment import get_segmenter

    if not table.rows or len([c for c in table.header if c.text.strip()]) != 2 or any(
            len(r) != 2 for r in table.rows if r) or _states_needs(seg.norm, table.header[1]):
        return []
    matcher = get_segmenter(ref).matcher
    out: list[tuple[int, int, str, list[Mention]]] = []
    for row in table.rows:
        if not row:
            continue
        start, end = row[0].start, row[-1].end
        text = seg.norm[start:end]
        gap = text[row[0].end - start:row[1].start - start]
        bar = gap.find("|")
        if bar >= 0:  # the cell separator reads as a colon: "前代架构：Hopper（H100、A100）"
            cut = row[0].end - start + bar
            text = text[:cut] + "：" + text[cut + 1:]
        out.append((start, end, text, list(matcher.find(text))))
    return out


def table_claims(doc: Document, seg: Segmented, table: Table, ref: Reference, state: DocState,
                 left_alone: set[tuple[int, int]] | None = None) -> Iterator[tuple[tuple[int, int], list[Draft]]]:
    """Per data row: the row's span and the claims its cells make (offsets relative to the row start).
    ``left_alone`` receives the cells read and found not to be a spec (a host link's rate), for no later reader."""
    from ..segment import get_segmenter

    matcher = get_segmenter(ref).matcher
    named_by: dict[tuple[int, int], Mention | None] = {}  # the key column's cells are read twice

    def products(cell: Cell) -> Mention | None:
        """The card a cell names: a cell that is (mostly) one card's name, not a value that mentions cards."""
        if (cell.start, cell.end) not in named_by:
            named_by[cell.start, cell.end] = _named_card(cell)
        return named_by[cell.start, cell.end]

    def _named_card(cell: Cell) -> Mention | None:
        text = seg.norm[cell.start:cell.end]
        return one_card(text, [m for m in matcher.find(text, cell.start) if m.kind in SUBJECT_KINDS])

    if not table.rows or not table.header:
        return
    layout = table_layout(table, products)
    key, row_subjects, col_subjects, by_row, by_col = (layout.key, layout.row_subjects, layout.col_subjects,
                                                        layout.by_row, layout.by_col)
    if not by_row and not by_col:
        return
    header_attrs = [header_attributes(seg.norm[c.start:c.end]) for c in table.header]
    column_cards = [_column_cards(seg.norm[c.start:c.end]) for c in table.header]
    for r, row in enumerate(table.rows):
        if not row:
            continue
        row_start, row_end = row[0].start, row[-1].end
        drafts: list[Draft] = []
        row_cards = _row_cards(seg.norm, row[key], row_subjects[r], ref) if by_row and len(row) > key else _Cards()
        for j, cell in enumerate(row):
            if j == (key if by_row else 0):
                continue
            if by_row:
                subj_m, attrs = row_subjects[r], header_attrs[j] if j < len(header_attrs) else ()
                label = seg.norm[table.header[j].start:table.header[j].end] if j < len(table.header) else ""
                cards = _cell_scope(row_cards, column_cards[j] if j < len(column_cards) else _Cards(), attrs)
            else:
                subj_m = col_subjects[j - 1] if j - 1 < len(col_subjects) else None
                label = seg.norm[row[0].start:row[0].end]
                attrs = header_attributes(label)
                column = table.header[j] if j < len(table.header) else None
                cards = _cell_scope(_row_cards(seg.norm, column, subj_m, ref) if column is not None else _Cards(),
                                    _column_cards(label), attrs)
            if subj_m is None or not attrs or (by_row and j < len(table.header) and
                                               _states_needs(seg.norm, table.header[j])):
                continue
            subj = Subject(subj_m.ref, subj_m.text, subj_m.variant, 1, "table", subj_m)
            scope = _scope(attrs, label)
            if by_row and attrs == ("memory_bandwidth",) and _GENERIC_BANDWIDTH.fullmatch(label):
                link = _row_link(seg.norm, row, (j, key))
                if link == "PCIe":
                    if left_alone is not None:
                        left_alone.add((cell.start, cell.end))
                    continue  # "| A100 PCIe | PCIe 4.0 x16 | 64GB/s |": the host link's rate, not memory's
                if link is not None:  # "| H100 SXM5 | NVLink 4.0 | 900GB/s |": the link named beside it
                    attrs, scope = ("interconnect_bandwidth",), link
            drafts.extend(_cell_drafts(seg.norm, cell, subj, attrs, ref, row_start, scope, cards, header_unit(label),
                                       bool(DENSE.search(label) and SPARSE.search(label)), measured_in(label)))
        yield (row_start, row_end), drafts


# what a key cell may add to the card's name: markup, and the memory versions it comes in ("A100 40/80GB")
_KEY_NOISE = re.compile(r"[\s*_`-]|(?<![\dA-Za-z.])\d+(?:\s*/\s*\d+)*\s*GB", re.I)


def one_card(text: str, found: list[Mention]) -> Mention | None:
    """The card a cell names: a cell that is (mostly) one card's name, not a value that mentions cards."""
    if len(found) != 1:
        return None
    named = len(_KEY_NOISE.sub("", found[0].text)) + len(_KEY_NOISE.sub("", found[0].variant or ""))
    return found[0] if 2 * max(named, 1) >= len(_KEY_NOISE.sub("", text)) else None


@dataclass(frozen=True)
class Layout:
    """Which cells of a table name the cards: a key column (``by_row``) or the header (``by_col``)."""

    key: int
    row_subjects: list[Mention | None]
    col_subjects: list[Mention | None]
    by_row: bool
    by_col: bool


def table_layout(table: Table, products: Callable[[Cell], Mention | None]) -> Layout:
    # the column that names the cards: usually the first, but "| 平台 | 机型 | 显存 |" names them in the second
    width = min(len(r) for r in table.rows if r) if any(table.rows) else 0
    named = [sum(products(r[k]) is not None for r in table.rows if len(r) > k) for k in range(min(width, 3))]
    key = max(range(len(named)), key=lambda k: (named[k], -k)) if named else 0
    row_subjects = [products(r[key]) if len(r) > key else None for r in table.rows]
    col_subjects = [products(c) for c in table.header[1:]]
    # "| 型号 | Tesla T4 |" in a two-column table of labels and values names the card the rows after it describe
    by_row = sum(s is not None for s in row_subjects) >= max(1, len(table.rows) // 2) and not (width == 2 and key)
    by_col = sum(s is not None for s in col_subjects) >= max(1, len(col_subjects) // 2)
    return Layout(key, row_subjects, col_subjects, by_row, by_col)


@dataclass(frozen=True)
class CellSentence:
    """One cell read as a sentence of prose: "CARD的LABEL：CELL" (the card the row or column names, the label of its
    column or row), so that every cue, name and scope the prose reader knows applies to tables too."""

    row_start: int
    row_end: int
    cell: Cell
    text: str  # the sentence; the cell's own text is its last ``cell.end - cell.start`` characters
    prefix: int  # where the cell's text starts in ``text``


def cell_sentences(seg: Segmented, table: Table, ref: Reference) -> Iterator[CellSentence]:
    """Every value cell of a table as a sentence: with the card of its row or column when the table names cards
    (else the reader falls back on the section's card), and the label of its column (cards in rows) or its row."""
    from ..segment import get_segmenter

    if not table.rows:
        return
    matcher = get_segmenter(ref).matcher

    def products(cell: Cell) -> Mention | None:
        text = seg.norm[cell.start:cell.end]
        return one_card(text, [m for m in matcher.find(text, cell.start) if m.kind in SUBJECT_KINDS])

    layout = table_layout(table, products) if table.header else Layout(0, [], [], False, False)
    for r, row in enumerate(table.rows):
        if not row:
            continue
        row_start, row_end = row[0].start, row[-1].end
        for j, cell in enumerate(row):
            key = layout.key if layout.by_row else 0
            if j == key or cell.end <= cell.start or (j < len(table.header) and _states_needs(seg.norm,
                                                                                               table.header[j])):
                continue  # the label, an empty cell, or a column of what a workload needs
            if layout.by_row:
                card = layout.row_subjects[r]
                label = table.header[j] if j < len(table.header) else None
            else:
                card = layout.col_subjects[j - 1] if layout.by_col and j - 1 < len(layout.col_subjects) else None
                label = row[key]
            name = seg.norm[card.start:card.end] if card is not None else ""
            head = _label_text(seg.norm[label.start:label.end]) if label is not None else ""
            prefix = (f"{name}的" if name else "") + (f"{head}:" if head else "")
            yield CellSentence(row_start, row_end, cell, prefix + seg.norm[cell.start:cell.end], len(prefix))


def _label_text(label: str) -> str:
    """A header cell as a label: markup and a trailing colon dropped ("**显存**:" -> "显存")."""
    return re.sub(r"[*_`]+", "", label).strip().rstrip(":：").strip()


_GENERIC_BANDWIDTH = re.compile(r"\s*(?:带宽|频宽|bandwidth)\s*(?:[(（][^()（）]{0,12}[)）])?\s*", re.I)
_PCIE = re.compile(r"PCI-?E", re.I)


def _row_link(norm: str, row: Sequence[Cell], skip: tuple[int, int]) -> str | None:
    """The link another cell of the row names (NVLink 4.0, PCIe 4.0 x16), not the figure's cell nor the card's name
    (``skip``): the generic 带宽 beside it is its rate."""
    for k, c in enumerate(row):
        text = norm[c.start:c.end]
        if k not in skip and (link_named(text) or _PCIE.search(text)) and not any(
                q.kind == "rate" for q in find_quantities(text)):
            return link_named(text) or "PCIe"
    return None


def _states_needs(norm: str, header: Cell) -> bool:
    """A column headed by a need or a use ("所需显存", "显存占用"): its cells are what a workload takes, not specs."""
    return bool(NOT_A_SPEC_LEFT.search(norm[header.start:header.end]))


def _scope(attrs: tuple[str, ...], label: str) -> str | None:
    """What the column is a figure of: which cache, which link, sparse or dense."""
    if "cache_size" in attrs:
        return cache_named(label)
    if "interconnect_bandwidth" in attrs:
        return link_named(label)
    if set(attrs) & THROUGHPUT_ATTRIBUTES and re.search(r"稀疏|sparse", label, re.I):
        return "sparse"
    return None


# a column's unit in brackets after its label: "显存 (GB)", "峰值带宽<br>(TBps)", "FP16（TFLOPS）"
_HEADER_MEASURE = re.compile(r"[(（]\s*([A-Za-z]{1,3}(?:/s|ps|ops|flops)?|[PTG]?FLOPS|[PT]OPS)\s*[)）]", re.I)


def measured_in(label: str) -> str | None:
    """The unit a header gives its column's bare numbers, or None."""
    found = _HEADER_MEASURE.search(label)
    if found is None:
        return None
    unit = found.group(1)
    probe = [q for q in find_quantities(f"1 {unit}") if q.kind != "bare"]
    return unit if probe else None


def _in_header_unit(text: str, q: Quantity, measure: str | None) -> Quantity:
    """A bare number under a header that gives the unit: that figure in the unit ("80" under "显存 (GB)")."""
    if q.kind != "bare" or measure is None:
        return q
    number = text[q.num_start:q.end]
    if "." in number:  # a column printed to fixed decimals ("2.00", "3.70"): its zeros are padding, not precision
        number = number.rstrip("0").rstrip(".")
    parsed = [p for p in find_quantities(f"{number} {measure}") if p.kind != "bare"]
    if len(parsed) != 1:
        return q
    return _replace(parsed[0], start=q.start, end=q.end, num_start=q.num_start)


def _cell_drafts(norm: str, cell: Cell, subj: Subject, attrs: tuple[str, ...], ref: Reference, row_start: int,
                 scope: str | None = None, cards: tuple[int, Scope, str | None, bool] = (1, Scope.PRODUCT, None, False),
                 unit_scope: str | None = None, sparsity_pair: bool = False,
                 measure: str | None = None) -> list[Draft]:
    from ..segment import get_segmenter

    text = norm[cell.start:cell.end]
    out: list[Draft] = []
    for m in get_segmenter(ref).matcher.find(text):
        attr = next((a for a in attrs if _TEXT_KIND.get(a) == m.kind), None)
        if attr is None:
            continue
        term = ref.terms[m.ref].name if m.kind == "memory_type" else m.ref
        out.append(Draft(cell.start + m.start - row_start, cell.start + m.end - row_start, subj, attr, term, None,
                         variant=subj.variant))
    numeric = [a for a in attrs if a in _UNIT_FOR]
    if not numeric:
        return out
    attr = numeric[0]
    for q in find_quantities(text, sparsity_pair):
        q = _in_header_unit(text, q, measure)
        if q.kind not in _UNIT_FOR[attr] or (q.kind == "bare" and q.low < 2):
            continue
        value: float | int | list[float] = [q.low, q.high] if q.qualifier is Qualifier.RANGE else q.low
        unit = {"rate": "GB/s", "size": "GB", "power": "W", "tput": q.unit, "bits": "bit"}.get(q.kind)
        if attr in ("cuda_cores", "stream_processors", "tensor_cores", "mig_instances", "launch_year"):
            unit = None
        if attr == "memory_bus_width":
            value, unit = (int(value) if not isinstance(value, list) else value), None
        if attr == "cache_size":
            value = [v * 1000 for v in value] if isinstance(value, list) else value * 1000
            unit = "MB"
        multiplier, figure_scope, scope_detail, count_only = cards
        out.append(Draft(cell.start + q.start - row_start, cell.start + q.end - row_start, subj, attr,
                         _round(value), unit, q.qualifier, multiplier, q.sparsity or scope,
                         subj.variant, q.in_bits, q.resolution, q.written_unit,
                         scope=Scope.UNIT if unit_scope else figure_scope,
                         scope_detail=unit_scope if unit_scope else scope_detail,
                         extra={"count_only": True} if count_only else {}))
        if q.sparsity != "dense":  # "242.5 / 485 TFLOPS" under 稠密/稀疏: both figures of the pair
            break
    return out
