"""Numbers with units and hedges: 80GB, ３．３５ＴＢ/ｓ (after width folding), 五千一百二十个, 每秒900GB, 高达2TB/s,
约320GB/s, 超过400个, 不到75W, 50W到75W, 8GB或16GB.

Works on normalised text (see ``pipeline.normalize``); offsets are into the string given.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache

from ..lexicon import load_lexicon
from ..lexicon.scanning import any_of, with_first_chars
from ..records import Qualifier

_CN_DIGITS = "零〇一二两三四五六七八九十百千万亿"
_NUM = r"(?:\d{1,3}(?:,\d{3})+(?![\d])|\d+)(?:\.\d+)?"
_CN_NUM = rf"[{_CN_DIGITS}]+(?:点[{_CN_DIGITS}]+)?"
# a year is written digit by digit: 2020年, 二〇二〇年 (两千零二十年 would be a count of years)
_CN_YEAR = re.compile(r"[零〇一二三四五六七八九]{4}")

# unit alternatives; order matters (rates before sizes). A size in GiB is read as GB: memory capacities are binary
# whichever way they are written (Google's "32 GiB" HBM is the "32GB" of other pages); a GiB/s rate stays unread
_UNIT = (
    r"(?P<rate>[KMGTkmgt][Bb]\s*/\s*[sS](?:ec)?|[KMGTkmgt]bps|[KMGT]Bps|[KMGTkmgt]B(?=\s*(?:每秒|/秒)))"
    r"|(?P<tput>(?:(?:FP|INT|BF|TF)\d{1,2}\s?)?"  # "29 FP32 TFLOPS", "101.90 INT8 TOPS": the precision between
    r"(?P<tput_unit>(?:[EPTGeptg]|Exa|Peta|Tera|Giga|exa|peta|tera|giga)?\s?(?:FLOPS|FLOPs|flops|Flops)"
    r"|(?:AI\s?)?[PT]OPS|[PT]ops"
    # "12万亿次浮点运算": operations a second, counted (only with a magnitude word)
    r"|次\s*(?:的)?\s*(?:浮点|整数|张量|矩阵|AI|(?:FP|INT|BF|TF)\d{1,2})?\s*(?:运算|计算|操作)))"
    r"|(?P<freq>[MmGg][Hh][Zz])"
    r"|(?P<size>[KMGT]i?B(?![A-Za-z]|/\s*[sS])|[GT](?![A-Za-z/\d]))"
    r"|(?P<power>kW|KW|W(?![A-Za-z])|w(?![A-Za-z])|千瓦|瓦)"
    r"|(?P<bits>[- ]?bit(?![A-Za-z])|位宽|位(?![置数]))"
    r"|(?P<year>年(?!代))"
    r"|(?P<ratio>倍)"
    r"|(?P<percent>%|％)"
    r"|(?P<count>个|顆|颗)"
    r"|(?P<area>mm²|mm2(?![\d])|mm\^2|平方毫米)"
    r"|(?P<length>mm(?![A-Za-z])|毫米|cm(?![A-Za-z])|厘米)"
)
# "800亿", "1.69万", and "800 亿" as Traditional and Taiwan texts space it
# and every magnitude word: 千万, 百万, 十亿, 万亿..., million, billion
_MAGNITUDES = {"千万亿": 1e15, "百万亿": 1e14,
               "万亿": 1e12, "千亿": 1e11, "百亿": 1e10, "十亿": 1e9, "亿": 1e8, "千万": 1e7, "百万": 1e6,
               "万": 1e4, "trillion": 1e12, "billion": 1e9, "million": 1e6}
_WAN = r"千万亿|百万亿|万亿|千亿|百亿|十亿|亿|千万|百万|万|(?i:trillion|billion|million)(?![A-Za-z])"
_VALUE = rf"(?P<num>{_NUM})(?:\s?(?P<wan>{_WAN}))?|(?P<cn>{_CN_NUM})"
# not inside a model name or a version (A100, GPT-3, 4.0) but "300W-350W" is a range; the first-character
# lookahead (a digit) skips the other positions before the four lookbehinds are tried at each of them
_QUANTITY = with_first_chars(
    rf"(?<![A-Za-z0-9._])(?<![0-9]/)(?<![A-Za-z][A-Za-z]-)(?<![A-Z]\d\d-)(?<![A-Z]\d\d\d-)(?:{_VALUE})(?P<more>多|余|[+＋](?!\s*\d))?\s*(?:{_UNIT})?")
_SLASH_SIZES = re.compile(r"(?<![\d./A-Za-z])(?P<a>\d{1,3})\s*/\s*(?P<b>\d{1,3})\s*(?P<u>[GT]B)(?![A-Za-z/])")
_PER_SECOND = re.compile(rf"每秒(?:钟)?\s*(?P<num>{_NUM})\s*(?P<unit>[KMGT]B)")
# a date to the month (or the day): 2022年3月, 2022 年 11 月 30 日, 2022-03, 2024/11/13
# ("2024.11.13" only with its day: 1999.5 is a number)
_DATE = re.compile(r"(?<![\d.\-/])(?P<y>(?:199\d|20[0-3]\d))\s*(?:年\s*(?P<m>1[0-2]|0?[1-9])\s*月"
                   r"(?:\s*(?P<d>3[01]|[12]\d|0?[1-9])\s*日)?"
                   r"|[-/](?P<m2>1[0-2]|0[1-9]|[1-9])(?:[-/](?P<d2>3[01]|[12]\d|0[1-9]|[1-9]))?(?![\d.\-/A-Za-z])"
                   r"|\.(?P<m3>1[0-2]|0[1-9]|[1-9])\.(?P<d3>3[01]|[12]\d|0[1-9]|[1-9])(?![\d.\-/A-Za-z]))")
_POWER_WORD = re.compile(r"功耗|功率|TDP|TGP|供电|瓦数", re.I)
_RANGE_JOIN = re.compile(r"\s*(?:到|至|~|～|-|–|—|或|/)\s*")
_FROM = re.compile(r"从[^,，;；。]{0,12}$")

_LEX = load_lexicon()
# hedge words, in priority order: one written right before the number, one right after it
_LEFT_QUALIFIERS: tuple[tuple[re.Pattern[str], Qualifier], ...] = tuple(
    (re.compile(f"(?:{e.word})$"), Qualifier(e.value)) for e in _LEX.rows("hedge_before"))
# every hedge before a number in one pattern: most numbers have none, and one search says so
_ANY_LEFT = any_of(p for p, _q in _LEFT_QUALIFIERS)
_RIGHT_QUALIFIERS: tuple[tuple[re.Pattern[str], Qualifier], ...] = tuple(
    (re.compile(f"(?:{e.word})"), Qualifier(e.value)) for e in _LEX.rows("hedge_after"))
_ANY_RIGHT = any_of(p for p, _q in _RIGHT_QUALIFIERS)
_SCALE = {"K": 1e-6, "M": 1e-3, "G": 1.0, "T": 1000.0}
_SPARSITY = _LEX.regex("sparsity")


@dataclass(frozen=True)
class Quantity:
    """A number with its unit: ``start:end`` covers hedge + number + unit, ``value`` is normalised."""

    start: int
    end: int
    num_start: int
    value: float | tuple[float, float]
    unit: str | None  # GB, GB/s, W, MB, bit, year, date, count, TFLOPS, ratio, percent, None
    kind: str  # size, rate, power, bits, year, date, count, tput, ratio, percent, freq, area, length, bare
    qualifier: Qualifier = Qualifier.EXACT
    written_unit: str = ""
    in_bits: bool = False  # a rate written in bits (Gb/s), converted to bytes
    resolution: float = 0.0  # one step of the last written digit, in canonical units (2TB/s -> 1000 GB/s)
    scale: float = 1.0  # written unit -> canonical unit (TB/s -> GB/s: 1000)
    sparsity: str = ""  # "dense" or "sparse": one of a pair written "624/1248 TOPS（稀疏）"

    @property
    def low(self) -> float:
        return self.value[0] if isinstance(self.value, tuple) else self.value

    @property
    def high(self) -> float:
        return self.value[1] if isinstance(self.value, tuple) else self.value


def parse_number(text: str) -> float | None:
    """'16,896' -> 16896.0, '3.35' -> 3.35, '五千一百二十' -> 5120.0, '三点三五' -> 3.35; None if not a number."""
    text = text.strip()
    if not text:
        return None
    if text[0].isdigit():
        try:
            return float(text.replace(",", ""))
        except ValueError:
            return None
    if all(ch in _CN_DIGITS + "点" for ch in text):
        import cn2an

        try:
            return float(cn2an.cn2an(text, "smart"))
        except (ValueError, KeyError, IndexError, TypeError):
            return None
    return None


def resolution_of(literal: str) -> float:
    """'3.35' -> 0.01, '900' -> 100, '912' -> 1, '2' -> 1: how finely the number was written."""
    literal = literal.replace(",", "")
    if not literal or not literal[0].isdigit():
        return 1.0
    if "." in literal:
        return 10.0 ** -len(literal.split(".", 1)[1])
    zeros = len(literal) - len(literal.rstrip("0"))
    return 10.0 ** min(zeros, len(literal) - 1)


_UNIT_KINDS = frozenset({"rate", "tput", "freq", "size", "power", "bits", "year", "ratio", "percent", "count",
                         "area", "length"})


def _unit_of(m: re.Match[str]) -> tuple[str, str | None, str, float, bool]:
    """(kind, canonical unit, written unit, scale to canonical, in_bits)."""
    # the unit groups are alternatives at the end of ``_QUANTITY``: when one matched, it is the last group closed
    kind = m.lastgroup
    if kind not in _UNIT_KINDS:
        return "bare", None, "", 1.0, False
    written = m.group(kind)
    if kind == "rate":
        w = written.replace(" ", "")
        bits = w[1] == "b" or (w.lower().endswith("bps") and w[1] != "B")
        scale = _SCALE[w[0].upper()] / (8.0 if bits else 1.0)
        return "rate", "GB/s", written, scale, bits
    if kind == "size":
        return "size", "GB", written, _SCALE[written[0].upper()], False
    if kind == "power":
        return "power", "W", written, 1000.0 if written in ("kW", "KW", "千瓦") else 1.0, False
    if kind == "tput":  # in TFLOPS (TOPS for integer operations)
        w = m.group("tput_unit").upper().removeprefix("AI").lstrip()
        if w.startswith("EXA"):
            w = "E" + w[3:]
        if w.startswith("次"):  # operations a second, counted: floating-point ones in TFLOPS, others in TOPS
            return "tput", "TFLOPS" if "浮点" in w else "TOPS", written, 1e-12, False
        prefix = w[0] if w[0] in "EPTG" else ""
        return "tput", "TOPS" if w.endswith("OPS") and "FL" not in w else "TFLOPS", written, \
            {"E": 1e6, "P": 1000.0, "T": 1.0, "G": 1e-3, "": 1e-12}[prefix], False
    if kind == "freq":  # in MHz
        return "freq", "MHz", written, 1000.0 if written[0] in "Gg" else 1.0, False
    if kind == "length":  # in mm
        return "length", "mm", written, 10.0 if written in ("cm", "厘米") else 1.0, False
    canonical = {"bits": "bit", "year": "year", "count": "count", "ratio": "ratio", "percent": "percent",
                 "area": "mm2"}[kind]
    return kind, canonical, written, 1.0, False


def _qualifier(text: str, start: int, end: int) -> tuple[Qualifier, int, int]:
    left = text[max(0, start - 5):start]
    for _ in range(3):  # 高达80GB, 约为 320, 达到了约 2TB: peel particles between hedge and number
        for pattern, q in _LEFT_QUALIFIERS if _ANY_LEFT.search(left) else ():
            hit = pattern.search(left)
            if hit:
                return q, start - (len(text[max(0, start - 5):start]) - len(left)) - len(hit.group(0)), end
        if not left or left[-1] not in " 了为是到达":
            break
        left = left[:-1]
    gap = len(text[end:end + 2]) - len(text[end:end + 2].lstrip(" "))  # "420W 左右"
    right = text[end + gap:end + gap + 6]
    for pattern, q in _RIGHT_QUALIFIERS if _ANY_RIGHT.match(right) else ():
        hit = pattern.match(right)
        if hit:
            if hit.group(0) == "多" and (gap or not re.match(r"多[个颗块张]", right)):
                continue
            return q, start, end + gap + len(hit.group(0))
    return Qualifier.EXACT, start, end


def find_quantities(text: str, sparsity_said: bool = False) -> list[Quantity]:
    """Every quantity in ``text``, ranges merged, hedges attached; ``sparsity_said``: the text sits under a heading
    that speaks of sparsity (a table column 稠密/稀疏), as if it said so itself."""
    return list(_quantities(text, sparsity_said))


@lru_cache(maxsize=512)
def _quantities(text: str, sparsity_said: bool = False) -> tuple[Quantity, ...]:
    """``find_quantities``, once per text: a sentence's numbers are read by several passes (specs, comparisons,
    computed figures), and a ``Quantity`` is immutable."""
    raw: list[Quantity] = []
    for m in _PER_SECOND.finditer(text):
        value = parse_number(m.group("num"))
        if value is not None and math.isfinite(value) and value <= 1e12:
            scale = _SCALE[m.group("unit")[0]]
            raw.append(Quantity(m.start(), m.end(), m.start("num"), value * scale, "GB/s", "rate",
                                written_unit="每秒" + m.group("unit"),
                                resolution=resolution_of(m.group("num")) * scale, scale=scale))
    for m in _DATE.finditer(text) if "年" in text or "-" in text or "/" in text else ():
        month, day = m.group("m") or m.group("m2") or m.group("m3"), m.group("d") or m.group("d2") or m.group("d3")
        written = f"{m.group('y')}-{int(month):02d}" + (f"-{int(day):02d}" if day else "")
        raw.append(Quantity(m.start(), m.end(), m.start(), float(m.group("y")), "date", "date", written_unit=written))
    for m in _SLASH_SIZES.finditer(text) if "/" in text else ():  # "12/24GB": the sizes a card comes in
        a, b = float(m.group("a")), float(m.group("b"))
        scale = 1000.0 if m.group("u")[0] in "Tt" else 1.0
        if a < b:
            raw.append(Quantity(m.start(), m.end(), m.start(), (a * scale, b * scale), "GB", "size",
                                Qualifier.RANGE, m.group("u"), resolution=resolution_of(m.group("b")) * scale,
                                scale=scale))
    taken = [(q.start, q.end) for q in raw]
    for m in _QUANTITY.finditer(text):
        if any(s <= m.start() < e for s, e in taken):
            continue
        literal = m.group("num") or m.group("cn")
        if m.group("cn") and (len(literal) < 2 and not m.group("count")):
            continue
        value = parse_number(literal)
        if value is None or not math.isfinite(value) or value > 1e12:
            continue
        magnitude = _MAGNITUDES[m.group("wan").lower()] if m.group("wan") else 1.0
        if m.group("wan"):  # 1.36万 is 13600, not 13600.000000000002
            value = round(value * magnitude, 6)
        kind, unit, written, scale, bits = _unit_of(m)
        if (m.group("cn") and kind == "bare") or (written.startswith("次") and not m.group("wan")):
            continue  # a Han numeral alone is a word; "3次运算" is a count of operations, no throughput
        if written == "w" and not _POWER_WORD.search(text, max(0, m.start() - 8), min(len(text), m.end() + 6)):
            continue  # a lowercase w is watts only beside a word for power ("功耗450w"); "10w元" is 十万
        end = m.end() if kind != "bare" else m.end("wan") if m.group("wan") else m.end("num") if m.group("num") \
            else m.end("cn")
        if kind == "year" and not (1980 <= value <= 2100 and (literal.isdigit() or _CN_YEAR.fullmatch(literal))):
            continue
        resolution = resolution_of(literal if literal[0].isdigit() else f"{value:g}") * scale
        resolution *= magnitude
        if m.group("wan"):
            written = m.group("wan") + written  # "万个": a count rounded to its written digits (see compare)
        q = Quantity(m.start(), end, m.start(), value * scale, unit, kind, written_unit=written, in_bits=bits,
                     resolution=resolution, scale=scale)
        if m.group("more"):  # 200多个, 5000余个: more than the number written
            q = Quantity(q.start, q.end, q.num_start, q.value, q.unit, q.kind, Qualifier.AT_LEAST, q.written_unit,
                         q.in_bits, q.resolution, q.scale)
        raw.append(q)
    raw.sort(key=lambda q: q.start)
    said = sparsity_said or _SPARSITY.search(text) is not None
    return tuple(_merge_ranges(text, _as_pair(text, raw, said), said))


def _merge_ranges(text: str, items: list[Quantity], sparsity_said: bool = False) -> Iterator[Quantity]:
    i = 0
    while i < len(items):
        q = items[i]
        nxt = items[i + 1] if i + 1 < len(items) else None
        if nxt is not None and _is_range(text, q, nxt) and not _sparsity_pair(text, q, nxt, sparsity_said):
            kind, unit = nxt.kind, nxt.unit
            low = q.low * (1.0 if q.kind == nxt.kind else _rescale(q, nxt))
            _, s, _ = _qualifier(text, q.start, q.end)
            end = nxt.end
            if text[end:end + 2] == "之间":
                end += 2
            yield Quantity(s, end, q.start, (low, nxt.high), unit, kind, Qualifier.RANGE, nxt.written_unit,
                           nxt.in_bits, max(q.resolution * _rescale(q, nxt), nxt.resolution), nxt.scale)
            i += 2
            continue
        qual, s, e = _qualifier(text, q.start, q.end)
        if qual is Qualifier.EXACT and (q.qualifier is not Qualifier.EXACT or (s, e) == (q.start, q.end)):
            yield q  # no hedge around it (a new Quantity would have the same fields)
        elif q.kind in ("bare", "count") or qual is not Qualifier.EXACT:
            yield replace(q, start=s, end=e, qualifier=qual)
        else:
            yield q
        i += 1


def _sparsity_pair(text: str, a: Quantity, b: Quantity, said: bool) -> bool:
    """"624 TOPS/1248 TOPS（稀疏）", "稠密/稀疏: 242.5 / 485 TFLOPS": two throughputs joined by a slash, the second
    twice the first, in a text that speaks of sparsity, are a dense and a sparse figure, not a range."""
    if b.kind != "tput" or a.kind not in ("tput", "bare") or text[a.end:b.num_start].strip() != "/":
        return False
    low = a.low * _rescale(a, b)
    return said and abs(b.low - 2 * low) <= 0.01 * b.low


def _as_pair(text: str, items: list[Quantity], said: bool) -> list[Quantity]:
    """The two figures of a dense/sparse pair marked as such (a bare first one takes the second's unit)."""
    out = list(items)
    for i in range(len(out) - 1):
        a, b = out[i], out[i + 1]
        if _sparsity_pair(text, a, b, said):
            scale = _rescale(a, b)
            out[i] = Quantity(a.start, a.end, a.num_start, a.low * scale, b.unit, "tput", a.qualifier,
                              a.written_unit or b.written_unit, False, a.resolution * scale, b.scale, "dense")
            out[i + 1] = replace(b, sparsity="sparse")
    return out


def _rescale(first: Quantity, second: Quantity) -> float:
    """"8到16GB", "0.9到1.1TB/s": a first number without a unit takes the second's (1.1TB/s is 1100 GB/s, so 0.9 is
    900 GB/s, not 0.9)."""
    return second.scale if first.kind == "bare" else 1.0


def _is_range(text: str, a: Quantity, b: Quantity) -> bool:
    between = text[a.end:b.num_start]
    if not _RANGE_JOIN.fullmatch(between):
        return False
    if a.kind not in (b.kind, "bare") or b.kind in ("bare", "year", "ratio", "percent"):
        return False
    if _FROM.search(text[:a.start]):
        return False  # 从A到B is a change, not a range
    if a.low * (1.0 if a.kind == b.kind else _rescale(a, b)) > b.low:
        return False  # "16到8GB" is no range
    if between.strip() == "/" and a.low * (1.0 if a.kind == b.kind else _rescale(a, b)) * 10 < b.low:
        return False  # "26GB × 3 / 2039 GB/s": a division, not the figures of two versions
    if between.strip() == "-" and a.kind == "bare":  # "70-75W", "1.6-2TB/s", but not "RTX 3060-12GB"
        low = a.low * _rescale(a, b)
        return 0 < low < b.low <= 10 * low
    return True
