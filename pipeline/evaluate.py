"""Score claims.jsonl against a gold list, with the same figures as shared/acceptance/score.py.

A verdict other than ``supported``/``unverifiable`` is a flag. An output claim matches a gold
claim when the doc_id is the same and the spans overlap; a zero-length span [p, p) counts as
the one character at p. Each gold quote is located by its first occurrence in the source text.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import UsageError

NON_FLAG = frozenset({"supported", "unverifiable"})
LISTED_BAD_LINES = 5  # unusable claim lines quoted in the warnings; the rest are counted
NO_TEXT = "<file not found in corpus>"

Pairs = Sequence[tuple[str, str]]


@dataclass(frozen=True)
class Score:
    """The scorer's figures. ``to_dict`` has the keys of ``score.py --json``."""

    caught: int
    false_total: int
    missed: int
    false_alarms: int
    true_total: int
    confirmed: int
    stray_flags: int
    extracted_true: int
    extracted_false: int
    not_extracted_items: list[dict[str, Any]]
    claims_read: int
    claims_unusable: int
    caught_by_error_type: dict[str, tuple[int, int]]
    per_doc: dict[str, dict[str, int]]
    missed_items: list[dict[str, Any]]
    false_alarm_items: list[dict[str, Any]]
    stray_flag_items: list[dict[str, Any]]
    warnings: list[str]
    gold_located: int = 0  # not in the JSON; the report's "gold claims located: N of M"
    gold_total: int = 0

    def summary_line(self) -> str:
        return (
            f"score: caught {self.caught}/{self.false_total} false, "
            f"false_alarms {self.false_alarms}/{self.true_total}, "
            f"confirmed {self.confirmed}/{self.true_total}, stray_flags {self.stray_flags}, "
            f"extracted {self.extracted_true + self.extracted_false}/{self.true_total + self.false_total}"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "caught": self.caught,
            "false_total": self.false_total,
            "missed": self.missed,
            "false_alarms": self.false_alarms,
            "true_total": self.true_total,
            "confirmed": self.confirmed,
            "stray_flags": self.stray_flags,
            "extracted_true": self.extracted_true,
            "extracted_false": self.extracted_false,
            "not_extracted_items": self.not_extracted_items,
            "claims_read": self.claims_read,
            "claims_unusable": self.claims_unusable,
            "caught_by_error_type": {k: list(v) for k, v in self.caught_by_error_type.items()},
            "per_doc": self.per_doc,
            "missed_items": self.missed_items,
            "false_alarm_items": self.false_alarm_items,
            "stray_flag_items": self.stray_flag_items,
            "warnings": self.warnings,
            "summary": self.summary_line(),
        }


@dataclass(frozen=True)
class _OutputClaim:
    line: int  # 1-based position in the claims stream (the line of claims.jsonl)
    doc: str
    start: int
    end: int
    verdict: str
    reason: str = ""

    @property
    def flag(self) -> bool:
        return is_flag(self.verdict)

    @property
    def supported(self) -> bool:
        return self.verdict.strip().lower() == "supported"


@dataclass
class _GoldSpan:
    """A located gold claim and what matched it (filled in while matching)."""

    doc: str
    start: int
    end: int
    label: str
    record: Mapping[str, Any]
    kept: bool  # passes every --where
    flags: list[_OutputClaim] = field(default_factory=list)
    seen: list[_OutputClaim] = field(default_factory=list)  # every claim over it, whatever its verdict
    supported: bool = False


class _Texts:
    """Source texts by normalised doc_id: documents.jsonl text first, else the file as UTF-8."""

    def __init__(self, corpus_dir: Path, source_texts: Mapping[str, str] | None) -> None:
        self.corpus_dir = corpus_dir
        self._cache: dict[str, str | None] = {}
        for doc_id, text in (source_texts or {}).items():
            self._cache[norm_doc(doc_id, corpus_dir)] = text

    def get(self, doc: str) -> str | None:
        if doc not in self._cache:
            self._cache[doc] = _read_utf8(Path(os.path.join(self.corpus_dir, doc)))
        return self._cache[doc]


def _read_utf8(path: Path) -> str | None:
    try:
        with open(path, encoding="utf-8-sig", newline="") as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return None


def norm_doc(doc_id: object, corpus_dir: Path | str) -> str:
    """Normalise a doc_id to a POSIX path relative to the corpus directory."""
    d = str(doc_id).replace("\\", "/")
    if os.path.isabs(d):
        with contextlib.suppress(ValueError):  # another drive on Windows
            d = os.path.relpath(d, os.path.abspath(corpus_dir)).replace(os.sep, "/")
    d = os.path.normpath(d).replace(os.sep, "/")
    return d[2:] if d.startswith("./") else d


def is_flag(verdict: object) -> bool:
    return str(verdict).strip().lower() not in NON_FLAG


def overlaps(s1: int, e1: int, s2: int, e2: int) -> bool:
    """Half-open spans overlap; an empty span [p, p) stands for the character at p."""
    e1 = max(e1, s1 + 1)
    e2 = max(e2, s2 + 1)
    return s1 < e2 and s2 < e1


def parse_kv(items: Sequence[str]) -> list[tuple[str, str]]:
    """``["tier=core"]`` -> ``[("tier", "core")]``; the value may itself contain ``=``."""
    pairs = []
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(
                f"expected KEY=VALUE, got {item!r}; write e.g. --where tier=core or --skip attribute=code"
            )
        pairs.append((key, value))
    return pairs


def load_source_texts(documents_jsonl: Path) -> dict[str, str]:
    """doc_id -> text from the documents.jsonl lines that carry a ``text``; later lines win.

    A missing file gives ``{}``; lines that are not JSON objects are ignored.
    """
    if not documents_jsonl.is_file():
        return {}
    texts: dict[str, str] = {}
    try:
        with open(documents_jsonl, encoding="utf-8") as f:
            for line in f:
                _add_source_text(texts, line)
    except UnicodeDecodeError as e:
        raise UsageError(f"{documents_jsonl} is not UTF-8 ({e}); rewrite it as UTF-8 JSON lines") from e
    return texts


def _add_source_text(texts: dict[str, str], line: str) -> None:
    try:
        d = json.loads(line)
    except ValueError:
        return
    if isinstance(d, dict) and isinstance(d.get("text"), str) and d.get("doc_id"):
        key = str(d["doc_id"])
        texts.pop(key, None)  # re-insert so that order says which line came last
        texts[key] = d["text"]


def read_claim_lines(claims_jsonl: Path) -> list[str]:
    """The raw lines of claims.jsonl, split the way the scorer splits them."""
    try:
        with open(claims_jsonl, encoding="utf-8") as f:
            return f.read().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"cannot read claims file {claims_jsonl}: {e}") from e


def score_files(
    gold_json: Path,
    corpus_dir: Path,
    claims_jsonl: Path,
    *,
    where: Pairs = (),
    skip: Pairs = (),
    documents_jsonl: Path | None = None,
) -> Score:
    """``score.py GOLD CORPUS CLAIMS``: documents.jsonl defaults to the one next to the claims."""
    if not corpus_dir.is_dir():
        raise UsageError(f"corpus directory not found: {corpus_dir}")
    try:
        gold = json.loads(gold_json.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise UsageError(f"cannot read gold file {gold_json}: {e}") from e
    if not isinstance(gold, list):
        raise UsageError(f"gold file {gold_json} must hold a JSON list of claims")
    lines = read_claim_lines(claims_jsonl)
    documents = documents_jsonl or claims_jsonl.resolve().parent / "documents.jsonl"
    return score_claims(
        gold, corpus_dir, lines, where=where, skip=skip, source_texts=load_source_texts(documents)
    )


def score_claims(
    gold: list[dict[str, Any]],
    corpus_dir: Path,
    claims: Iterable[Mapping[str, Any] | str],
    *,
    where: Pairs = (),
    skip: Pairs = (),
    source_texts: Mapping[str, str] | None = None,
) -> Score:
    """Score output claims against the gold.

    Args:
        gold: gold claims (doc_id, quote, label, error_type, ...).
        corpus_dir: where the articles named by doc_id live.
        claims: claim records, or raw claims.jsonl lines (parsed here; blank ones skipped).
            Position in the stream, from 1, is the line number in the items and warnings.
        where: count only gold claims whose ``str(field) == value``.
        skip: drop output claims whose ``str(field) == value``.
        source_texts: doc_id -> text, for documents whose offsets are not into the file (HTML).
    """
    warnings: list[str] = []
    texts = _Texts(corpus_dir, source_texts)
    spans = _locate_gold(gold, texts, where, warnings)
    by_doc: dict[str, list[_GoldSpan]] = defaultdict(list)
    for span in spans:
        by_doc[span.doc].append(span)
    read, unusable = _read_claims(claims, corpus_dir, skip, warnings)
    stray = _match(read, by_doc)
    return _tally(spans, by_doc, stray, texts, len(read), unusable, warnings, len(gold))


def _locate_gold(
    gold: list[dict[str, Any]], texts: _Texts, where: Pairs, warnings: list[str]
) -> list[_GoldSpan]:
    spans = []
    for i, g in enumerate(gold):
        doc = norm_doc(g.get("doc_id", ""), texts.corpus_dir)
        text = texts.get(doc)
        quote = g.get("quote", "")
        if text is None:
            warnings.append(f"gold #{i}: cannot read {doc}; claim skipped")
            continue
        n = text.count(quote) if quote and isinstance(quote, str) else 0
        if n == 0:
            warnings.append(f"gold #{i}: quote not found in {doc}: {quote!r}; claim skipped")
            continue
        if n > 1:
            warnings.append(f"gold #{i}: quote occurs {n} times in {doc}: {quote!r}; first used")
        start = text.index(quote)
        kept = all(str(g.get(k)) == v for k, v in where)
        label = str(g.get("label", "")).lower()
        spans.append(_GoldSpan(doc, start, start + len(quote), label, g, kept))
    return spans


def _read_claims(
    claims: Iterable[Mapping[str, Any] | str], corpus_dir: Path, skip: Pairs, warnings: list[str]
) -> tuple[list[_OutputClaim], int]:
    read: list[_OutputClaim] = []
    bad = 0
    for line_no, item in enumerate(claims, 1):
        if isinstance(item, str) and not item.strip():
            continue
        try:
            claim = _parse_claim(item, line_no, corpus_dir, skip)
        except (ValueError, KeyError, TypeError, OverflowError):
            bad += 1
            if bad <= LISTED_BAD_LINES:
                warnings.append(
                    f"claims line {line_no} unusable (needs doc_id, start, end, verdict): {_raw(item)[:120]}"
                )
            continue
        if claim is not None:
            read.append(claim)
    if bad > LISTED_BAD_LINES:
        warnings.append(f"{bad - LISTED_BAD_LINES} more unusable claims lines")
    return read, bad


def _parse_claim(
    item: Mapping[str, Any] | str, line_no: int, corpus_dir: Path, skip: Pairs
) -> _OutputClaim | None:
    """The claim, or None when a --skip drops it; raises ValueError/KeyError/TypeError if unusable."""
    c = json.loads(item) if isinstance(item, str) else item
    if not isinstance(c, Mapping):
        raise TypeError("not a JSON object")
    doc = norm_doc(c["doc_id"], corpus_dir)
    start, end, verdict = int(c["start"]), int(c["end"]), c["verdict"]
    if any(str(c.get(k)) == v for k, v in skip):
        return None
    return _OutputClaim(line_no, doc, start, end, str(verdict), str(c.get("reason") or ""))


def _raw(item: Mapping[str, Any] | str) -> str:
    return item if isinstance(item, str) else json.dumps(item, ensure_ascii=False, default=str)


def _match(claims: list[_OutputClaim], by_doc: Mapping[str, list[_GoldSpan]]) -> list[_OutputClaim]:
    """Attach each claim to the gold spans it overlaps; return the flags that overlap none."""
    stray = []
    for c in claims:
        hit = False
        for span in by_doc.get(c.doc, ()):
            if overlaps(c.start, c.end, span.start, span.end):
                hit = True
                span.seen.append(c)
                if c.flag:
                    span.flags.append(c)
                elif c.supported:
                    span.supported = True
        if c.flag and not hit:
            stray.append(c)
    return stray


def _tally(
    spans: list[_GoldSpan],
    by_doc: Mapping[str, list[_GoldSpan]],
    stray: list[_OutputClaim],
    texts: _Texts,
    claims_read: int,
    unusable: int,
    warnings: list[str],
    gold_total: int,
) -> Score:
    # --where narrows what is counted; every gold claim still kept its flags from being stray
    counted = [s for s in spans if s.kept]
    false_g = [s for s in counted if s.label == "false"]
    true_g = [s for s in counted if s.label == "true"]
    missed = [s for s in false_g if not s.flags]
    false_alarms = [s for s in true_g if s.flags]
    return Score(
        caught=len(false_g) - len(missed),
        false_total=len(false_g),
        missed=len(missed),
        false_alarms=len(false_alarms),
        true_total=len(true_g),
        confirmed=sum(1 for s in true_g if s.supported),
        stray_flags=len(stray),
        extracted_true=sum(1 for s in true_g if s.seen),
        extracted_false=sum(1 for s in false_g if s.seen),
        not_extracted_items=[_gold_view(s) for s in true_g + false_g if not s.seen],
        claims_read=claims_read,
        claims_unusable=unusable,
        caught_by_error_type=_by_error_type(false_g),
        per_doc={doc: _doc_counts(by_doc[doc], doc, stray) for doc in sorted(by_doc)},
        missed_items=[_gold_view(s) for s in missed],
        false_alarm_items=[_gold_view(s, with_flags=True) for s in false_alarms],
        stray_flag_items=[_stray_view(c, texts) for c in stray],
        warnings=warnings,
        gold_located=len(spans),
        gold_total=gold_total,
    )


def _by_error_type(false_g: list[_GoldSpan]) -> dict[str, tuple[int, int]]:
    total = Counter(str(s.record.get("error_type")) for s in false_g)
    caught = Counter(str(s.record.get("error_type")) for s in false_g if s.flags)
    return {k: (caught[k], total[k]) for k in sorted(total)}


def _doc_counts(spans: list[_GoldSpan], doc: str, stray: list[_OutputClaim]) -> dict[str, int]:
    kept = [s for s in spans if s.kept]
    false_g = [s for s in kept if s.label == "false"]
    true_g = [s for s in kept if s.label == "true"]
    return {
        "caught": sum(1 for s in false_g if s.flags),
        "false_total": len(false_g),
        "false_alarms": sum(1 for s in true_g if s.flags),
        "confirmed": sum(1 for s in true_g if s.supported),
        "true_total": len(true_g),
        "stray_flags": sum(1 for c in stray if c.doc == doc),
        "extracted": sum(1 for s in false_g + true_g if s.seen),
        "counted": len(false_g) + len(true_g),
    }


def _gold_view(span: _GoldSpan, *, with_flags: bool = False) -> dict[str, Any]:
    g = span.record
    view: dict[str, Any] = {
        "doc_id": span.doc,
        "quote": g.get("quote"),
        "start": span.start,
        "end": span.end,
        "subject": g.get("subject"),
        "attribute": g.get("attribute"),
        "stated": g.get("stated"),
        "truth": g.get("truth"),
    }
    if span.label == "false":
        view["error_type"] = g.get("error_type")
    if with_flags:
        view["flag_verdicts"] = sorted({c.verdict for c in span.flags})
    view["read_as"] = sorted({f"{c.verdict} {c.reason}" for c in span.seen})
    return view


def _stray_view(c: _OutputClaim, texts: _Texts) -> dict[str, Any]:
    text = texts.get(c.doc)
    snippet = NO_TEXT if text is None else text[max(0, c.start) : max(0, c.end)]
    return {
        "doc_id": c.doc, "start": c.start, "end": c.end, "verdict": c.verdict, "text": snippet, "line": c.line
    }


def format_report(score: Score) -> str:
    """The human-readable report of score.py, line for line (no trailing newline)."""
    out = [f"warning: {w}" for w in score.warnings]
    out.append(
        f"claims read: {score.claims_read} (unusable lines: {score.claims_unusable}); "
        f"gold claims located: {score.gold_located} of {score.gold_total}"
    )
    out += ["", "caught by error_type:"]
    out += [f"  {k:<24} {a}/{b}" for k, (a, b) in score.caught_by_error_type.items()]
    out += ["", "per document:  caught  false_alarms  confirmed  stray  extracted"]
    out += [_doc_line(doc, r) for doc, r in score.per_doc.items()]
    out += ["", "extracted (gold claims with any claim over them, whatever its verdict): "
            f"true {score.extracted_true}/{score.true_total}, false {score.extracted_false}/{score.false_total}"]
    out += ["", f"missed ({score.missed}):"]
    out += [_missed_line(v) for v in score.missed_items]
    out += ["", f"false_alarms ({score.false_alarms}):"]
    out += [_false_alarm_line(v) for v in score.false_alarm_items]
    out += ["", f"stray_flags ({score.stray_flags}):"]
    out += [_stray_line(v) for v in score.stray_flag_items]
    out += ["", score.summary_line()]
    return "\n".join(out)


def _doc_line(doc: str, r: Mapping[str, int]) -> str:
    return (
        f"  {doc:<42} {r['caught']:2d}/{r['false_total']:<2d}   {r['false_alarms']:2d}/{r['true_total']:<2d}"
        f"   {r['confirmed']:2d}/{r['true_total']:<2d}   {r['stray_flags']}   {r['extracted']}/{r['counted']}"
    )


def _missed_line(v: Mapping[str, Any]) -> str:
    return (
        f"  [{v['doc_id']}] {v['error_type']!s} | {v['subject']!s} {v['attribute']!s}: "
        f"stated {v['stated']!s}, truth {v['truth']!s} | {v['quote']!r}"
        f" | read as: {', '.join(v['read_as']) or 'no claim'}"
    )


def _false_alarm_line(v: Mapping[str, Any]) -> str:
    return (
        f"  [{v['doc_id']}] {v['subject']!s} {v['attribute']!s}: {v['stated']!s} | {v['quote']!r}"
        f" | verdicts: {', '.join(v['flag_verdicts'])}"
    )


def _stray_line(v: Mapping[str, Any]) -> str:
    return f"  [{v['doc_id']} {v['start']}:{v['end']}] {v['verdict']} | {v['text']!r}"
