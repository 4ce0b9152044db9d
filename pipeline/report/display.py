"""How a claim is shown to an editor: reference ids as display names, expected values in the unit the article
wrote (``units.csv``), and our explanations in Traditional characters for an article written in Traditional."""

from __future__ import annotations

import csv
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

UNITS = Path(__file__).resolve().parent / "units.csv"
_CJK = re.compile(r"[\u3400-\u9fff]")
_SAMPLE = 4000  # characters of Han script enough to tell the script apart
TRADITIONAL_SHARE = 0.05  # a Simplified text has almost no character that t2s changes; a Traditional one 15-30 %


@lru_cache(maxsize=2)
def _opencc(config: str) -> Any:
    import opencc

    return opencc.OpenCC(config)


_T2S_CHANGES: dict[str, bool] = {}  # Han character -> whether t2s changes it (at most the 27k of _CJK)


def _changes_in_simplified(ch: str) -> bool:
    changes = _T2S_CHANGES.get(ch)
    if changes is None:
        changes = _T2S_CHANGES[ch] = _opencc("t2s").convert(ch) != ch
    return changes


def is_traditional(texts: Iterable[str | None]) -> bool:
    """True when the Han characters of ``texts`` are mostly written in Traditional."""
    han = "".join(_CJK.findall("".join(t for t in texts if t)))[:_SAMPLE]
    if not han:
        return False
    distinct = set(han)
    changed = sum(1 for ch in distinct if _changes_in_simplified(ch))
    return changed >= 2 and changed / len(distinct) >= TRADITIONAL_SHARE


def to_traditional(text: str) -> str:
    return str(_opencc("s2tw").convert(text)) if text else text


# ---- units --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class UnitRow:
    canonical: str
    written: str
    factor: float  # one written unit in canonical units
    shown: str
    attribute: str  # empty: any attribute


@lru_cache(maxsize=1)
def unit_rows() -> tuple[UnitRow, ...]:
    with open(UNITS, encoding="utf-8", newline="") as fh:
        return tuple(UnitRow(r["canonical"], r["written"], float(r["factor"]), r["shown"], r["attribute"])
                     for r in csv.DictReader(fh))


def normalize_written(written: str) -> str:
    """The article's spelling of a unit in one form: 'TB/S', '每秒TB', 'TBps' -> 'TB/s'; 'Tbps' -> 'Tb/s'."""
    w = written.replace(" ", "").replace("千瓦", "kW").replace("KW", "kW").replace("FLOPs", "FLOPS")
    if w.startswith("每秒"):
        w = w[2:] + "/s"
    w = re.sub(r"/(?:sec|S|秒)$", "/s", w)
    w = re.sub(r"ps$", "/s", w) if re.fullmatch(r"[KMGT][Bb]ps", w) else w
    return w


@lru_cache(maxsize=4096)  # a run has few (attribute, unit, written unit) triples and asks for each at every claim
def unit_for(attribute: str, canonical: str | None, written: str | None) -> UnitRow | None:
    """The conversion from the canonical unit to the one the article wrote, or None when they are the same."""
    if not canonical or not written:
        return None
    w = normalize_written(written)
    if w == canonical:
        return None
    if canonical == "GB/s" and re.fullmatch(r"[KMGT]B", w):  # "2TB每秒"
        w += "/s"
    rows = [r for r in unit_rows() if r.canonical == canonical and r.written == w]
    return next((r for r in rows if r.attribute == attribute), next((r for r in rows if not r.attribute), None))


def _number(x: float) -> str:
    text = f"{x:.4g}"
    if "e" in text:
        text = f"{x:f}".rstrip("0").rstrip(".")
    return text


@lru_cache(maxsize=64)
def _figure(canonical: str) -> re.Pattern[str]:
    """A figure written in the canonical unit."""
    return re.compile(rf"(\d+(?:\.\d+)?)\s*{re.escape(canonical)}(?![A-Za-z/])")


def in_written_unit(expected: str, attribute: str, canonical: str | None, written: str | None) -> str:
    """``expected`` ('2039 GB/s；1555 GB/s') with each canonical figure in the unit the article wrote
    ('2.039 TB/s；1.555 TB/s'); figures that would read below 0.1 stay as they are."""
    if not expected:
        return expected
    row = unit_for(attribute, canonical, written)
    if row is None:
        return expected
    pattern = _figure(row.canonical)

    def convert(m: re.Match[str]) -> str:
        value = float(m.group(1)) / row.factor
        return m.group(0) if value < 0.1 else f"{_number(value)} {row.shown}"

    return pattern.sub(convert, expected)


# ---- the display context ------------------------------------------------------------------------


@dataclass(frozen=True)
class Display:
    """What a page needs to show claims in the editor's words: display names, and the article's script."""

    names: Callable[[str], str] | None = None  # reference id -> display name (Reference.name)
    traditional: bool = False
    # False for an HTML article: the claims' lines are lines of the text ingest extracted, which no editor sees
    # (the page shows the article rendered, and its source's lines are another count), so no line is given
    lines: bool = True
    timezone: str = ""  # the zone times are shown in (an IANA name; "" the machine's own)
    review_state: str | None = ""  # the --state a pasted review command needs ("" none: the default; None no state)

    def time(self, iso: str | None) -> str:
        """A stored UTC time in the page's zone."""
        return local_time(iso, self.timezone)

    def name(self, ref_id: str | None) -> str | None:
        """The display name of a product, series, vendor or term; None when the reference does not know it."""
        if not ref_id:
            return None
        if self.names is None:
            return None
        shown = self.names(ref_id)
        return shown if shown and shown != ref_id else None

    def ours(self, text: str | None) -> str:
        """Text we wrote (explanations, labels) in the article's script."""
        if not text:
            return ""
        return to_traditional(text) if self.traditional else text


# ---- times --------------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def time_zone(name: str) -> Any:
    """The zone ``name`` (an IANA name such as Asia/Shanghai); "" is the machine's own.

    Raises:
        ValueError: ``name`` is not a time zone this machine knows.
    """
    if not name:
        return None
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError(f"{name!r} is not a time zone name this machine knows (e.g. Asia/Shanghai, UTC)") from exc


def local_time(iso: str | None, zone: str = "") -> str:
    """A stored UTC time (ISO 8601) as editors read it: '2026-12-03 15:41' in ``zone`` (default: the machine's
    zone); what is not a time stays as it is."""
    if not iso:
        return ""
    from datetime import datetime, timezone

    try:
        moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return iso
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(time_zone(zone)).strftime("%Y-%m-%d %H:%M")


def zone_offset(zone: str = "") -> str:
    """The zone's offset from UTC now, as pages name it: '+08:00'."""
    from datetime import datetime

    text = datetime.now(time_zone(zone) or datetime.now().astimezone().tzinfo).strftime("%z")
    return f"{text[:3]}:{text[3:]}" if len(text) == 5 else text
