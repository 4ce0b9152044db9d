"""The open attribute vocabulary (``figures.csv``): one row per attribute a figure can be a figure of, beyond the
attributes the dedicated extractors read (memory, bandwidth, cores, power, throughput...).

Columns: ``attribute`` (the claim's attribute), ``words`` (its cue words, ``|``-separated regular-expression
fragments matched on normalised text, so Simplified words also match Traditional text), ``kind`` (which numbers it
takes: ``count``, ``freq``, ``data_rate``, ``size``, ``length``, ``power``, ``rate``, ``tput``, ``date``, ``version``
(kept as written: 8.9); or ``term``: the words themselves are the value), ``value`` (a ``term`` row's value),
``unit`` (the claim's unit), ``scope`` (``product``, ``chip``, ``unit:SM``…, ``system``, ``link``: what the figure is
usually the figure of), ``label`` (its Chinese name in reports and explanations), ``example`` (a sentence written for
the row) and ``expect`` (what the extractor makes of it, as in the other lexicon tables). Adding an attribute is
adding a row; ``tests/test_lexicon.py`` runs every example.
"""

from __future__ import annotations

import csv
import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .scanning import with_first_chars

FIGURES = Path(__file__).resolve().parent / "figures.csv"
FIGURE_COLUMNS = ("attribute", "words", "kind", "value", "unit", "scope", "label", "example", "expect")
KINDS = frozenset({"count", "freq", "data_rate", "size", "length", "power", "rate", "tput", "date", "term", "area",
                   "version"})
SCOPES = frozenset({"product", "chip", "system", "link", "unit"})
# the quantity kinds (pipeline.extract.quantities) each figure kind takes
QUANTITY_KINDS: dict[str, frozenset[str]] = {
    "count": frozenset({"count", "bare"}), "freq": frozenset({"freq"}), "data_rate": frozenset({"rate"}),
    "size": frozenset({"size"}), "length": frozenset({"length"}), "power": frozenset({"power"}),
    "rate": frozenset({"rate"}), "tput": frozenset({"tput"}), "date": frozenset({"year"}), "term": frozenset(),
    "area": frozenset({"area"}), "version": frozenset({"bare"}),
}


class FigureTableError(ValueError):
    """figures.csv is malformed; the message names every row and what to fix."""


@dataclass(frozen=True)
class FigureRow:
    attribute: str
    words: str
    kind: str
    value: str
    unit: str
    scope: str
    label: str
    example: str
    expect: str
    line: int

    @property
    def where(self) -> str:
        return f"pipeline/lexicon/figures.csv:{self.line}"

    @property
    def scope_name(self) -> str:
        return self.scope.partition(":")[0]

    @property
    def per(self) -> str:
        """The unit a per-unit figure is of (``unit:SM`` -> ``SM``)."""
        return self.scope.partition(":")[2]

    @property
    def pattern(self) -> re.Pattern[str]:
        return _compile(self.words)


@lru_cache(maxsize=512)
def _compile(words: str) -> re.Pattern[str]:
    return with_first_chars("(?:" + words + ")", re.I)


def read_figures(path: Path = FIGURES) -> tuple[FigureRow, ...]:
    try:
        with path.open(encoding="utf-8", newline="") as f:
            reader = csv.DictReader(f)
            if tuple(reader.fieldnames or ()) != FIGURE_COLUMNS:
                raise FigureTableError(f"{path}: the header must be {','.join(FIGURE_COLUMNS)}")
            return tuple(FigureRow(**{c: str(row.get(c) or "").strip() for c in FIGURE_COLUMNS}, line=i)
                         for i, row in enumerate(reader, start=2))
    except OSError as e:
        raise FigureTableError(f"cannot read {path}: {e}") from e


def figure_problems(rows: tuple[FigureRow, ...]) -> list[str]:
    """Every rule a row breaks, as 'file:line: what to fix'."""
    from ..normalize import normalize

    out: list[str] = []
    labels: dict[str, FigureRow] = {}
    numeric: dict[str, FigureRow] = {}
    for r in rows:
        if not re.fullmatch(r"[a-z][a-z0-9_]*", r.attribute):
            out.append(f"{r.where}: attribute {r.attribute!r} must be a lower-case identifier")
        if r.kind not in KINDS:
            out.append(f"{r.where}: kind {r.kind!r} is not one of {sorted(KINDS)}")
        if r.scope_name not in SCOPES or (r.scope_name == "unit") != bool(r.per):
            out.append(f"{r.where}: scope {r.scope!r} must be one of {sorted(SCOPES - {'unit'})} or unit:UNIT")
        if (r.kind == "term") != bool(r.value):
            out.append(f"{r.where}: a term row needs a value, and only a term row has one")
        if r.kind != "term":
            if r.attribute in numeric:
                out.append(f"{r.where}: {r.attribute} has a row already ({numeric[r.attribute].where}); "
                           "one row per attribute, its words joined with |")
            numeric.setdefault(r.attribute, r)
        if not re.search(r"[\u4e00-\u9fff]", r.label):
            out.append(f"{r.where}: label must be the attribute's Chinese name")
        if r.attribute in labels and labels[r.attribute].label != r.label:
            out.append(f"{r.where}: {r.attribute} is labelled {labels[r.attribute].label!r} on "
                       f"{labels[r.attribute].where}")
        labels.setdefault(r.attribute, r)
        try:
            pattern = re.compile("(?:" + r.words + ")", re.I)
        except re.error as err:
            out.append(f"{r.where}: words {r.words!r} are not a valid pattern ({err})")
            continue
        if not r.words or pattern.fullmatch(""):
            out.append(f"{r.where}: words must not be empty or match the empty string")
        if not (r.example and r.expect):
            out.append(f"{r.where}: every row needs an example and an expect")
        elif not pattern.search(normalize(r.example)):
            out.append(f"{r.where}: none of the words occurs in the example {r.example!r}")
    return out


@lru_cache(maxsize=2)
def load_figures(path: Path = FIGURES) -> tuple[FigureRow, ...]:
    """The table, validated (a malformed row raises ``FigureTableError`` naming every problem)."""
    rows = read_figures(path)
    found = figure_problems(rows)
    if found:
        raise FigureTableError("pipeline/lexicon/figures.csv has problems:\n" + "\n".join(found))
    return rows


def figure_label(attribute: str) -> str | None:
    """The Chinese name of an attribute of the vocabulary, or None."""
    return next((r.label for r in load_figures() if r.attribute == attribute), None)


def fingerprint(path: Path = FIGURES) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
