"""Comparisons between two products (``ratio``, ``difference``, ``same_as``, ``ordering``) checked against the
reference's figures of both: the expected value is computed from the two rows and shown with its arithmetic
("3350 GB/s ÷ 2039 GB/s ≈ 1.64倍").

Tolerance: a multiple or percentage written exactly (两倍, 提升70%) within ``Tolerance.multiple`` (5%), hedged (约,
左右) within ``Tolerance.approx`` (10%), 多/以上 and 不到 one-sided; the direction always (a "higher" figure that is
lower is wrong however close). Where a product's variants differ (A100 40GB/80GB) the claim holds when some pairing
of the variants the text allows makes it hold, and is flagged only when none does. A product the reference does not
have, or a figure it lacks for either side, is ``unverifiable`` with its reason.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ..config import Tolerance
from ..knowledge.reference import THROUGHPUT_ATTRIBUTES, Reference, SpecRow
from ..lexicon.labels import attribute_label
from ..normalize import normalize_key
from ..records import Check, Claim, Qualifier, Reason, Verdict
from .compare import candidate_rows, fmt

_RATES = frozenset({"memory_bandwidth", "effective_bandwidth", "interconnect_bandwidth", *THROUGHPUT_ATTRIBUTES})
_TEXT = frozenset({"memory_type", "architecture", "gpu_chip"})

# every explanation an editor reads, in one place
MESSAGES = {
    "unknown": "参考表中没有{name}，无法核实这一比较。",
    "no_values": "参考表中没有{name}的{attr}数据，无法核实这一比较。",
    "no_pairs": "参考表中{x}与{y}的{attr}口径不同，无法直接比较。",
    "no_attribute": "文中没有说明比较的是哪项参数，无法核实。",
    "ratio_ok": "{x}的{attr}为{xv}，{y}为{yv}，{arith}，与文中“{stated}”相符。",
    "ratio_bad": "{x}的{attr}为{xv}，{y}为{yv}，{arith}，不是文中所说的“{stated}”。",
    "not_ratio_ok": "{x}的{attr}为{xv}，{y}为{yv}，{arith}，确实如文中“{stated}”所说。",
    "not_ratio_bad": "{x}的{attr}为{xv}，{y}为{yv}，{arith}，正是文中否认的倍数，文中“{stated}”不正确。",
    "difference_ok": "{x}的{attr}为{xv}，{y}为{yv}，相差{arith}，与文中“{stated}”相符。",
    "difference_bad": "{x}的{attr}为{xv}，{y}为{yv}，相差{arith}，不是文中所说的“{stated}”。",
    "same_ok": "{x}与{y}的{attr}都是{xv}，与文中“{stated}”相符。",
    "close_ok": "{x}的{attr}为{xv}，{y}为{yv}，两者相当，与文中“{stated}”相符。",
    "close_bad": "{x}的{attr}为{xv}，{y}为{yv}，相差超过一成，并不相当，文中“{stated}”不正确。",
    "different_ok": "{x}的{attr}为{xv}，{y}为{yv}，两者确实不同，与文中“{stated}”相符。",
    "same_bad": "{x}的{attr}为{xv}，{y}为{yv}，两者并不相同，文中“{stated}”不正确。",
    "not_different": "{x}与{y}的{attr}都是{xv}，两者其实相同，文中“{stated}”不正确。",
    "same_substituted": "{x}的{attr}为{xv}，文中“{stated}”把{y}的{attr}（{yv}）说成了{x}的。",
    "order_ok": "{x}的{attr}为{xv}，{y}为{yv}，与文中“{stated}”相符。",
    "order_bad": "{x}的{attr}为{xv}，{y}为{yv}，{actual}，文中“{stated}”不正确。",
}


def check_relative(claim: Claim, ref: Reference, tol: Tolerance) -> Check:
    """The verdict on a comparison between the claim's subject and ``claim.extra["target"]``."""
    owner, target, attribute = claim.subject or "", str(claim.extra.get("target") or ""), claim.detail or ""
    if not attribute or not target:
        return Check(Verdict.UNVERIFIABLE, MESSAGES["no_attribute"], reason=Reason.UNDERSPECIFIED)
    attr_zh = attribute_label(attribute)
    for pid in (owner, target):
        if pid not in ref.products:
            return Check(Verdict.UNVERIFIABLE, MESSAGES["unknown"].format(name=ref.name(pid)),
                         reason=Reason.NOT_IN_REFERENCE)
    xs = _rows(ref, claim, owner, claim.variant)
    ys = _rows(ref, claim, target, claim.extra.get("target_variant"))
    for pid, rows in ((owner, xs), (target, ys)):
        if not rows:
            return Check(Verdict.UNVERIFIABLE, MESSAGES["no_values"].format(name=ref.name(pid), attr=attr_zh),
                         reason=Reason.NO_REFERENCE_VALUE)
    pairs = _pairs(xs, ys, attribute)
    x_name, y_name = _display(ref, owner, xs), _display(ref, target, ys)
    if not pairs:
        return Check(Verdict.UNVERIFIABLE, MESSAGES["no_pairs"].format(x=x_name, y=y_name, attr=attr_zh),
                     reason=Reason.NOT_COMPARABLE)
    words = {"x": x_name, "y": y_name, "attr": attr_zh, "stated": claim.text.strip(),
             "xv": _values(r for r, _ in pairs), "yv": _values(r for _, r in pairs)}
    source = (xs[0].source_url, xs[0].source_title)
    if claim.attribute == "same_as":
        return _same(claim, pairs, tol, words, source)
    if attribute in _TEXT:
        return Check(Verdict.UNVERIFIABLE, MESSAGES["no_pairs"].format(x=x_name, y=y_name, attr=attr_zh),
                     reason=Reason.NOT_COMPARABLE)
    if claim.attribute == "ratio":
        return _ratio(claim, pairs, tol, words, source)
    if claim.attribute == "difference":
        return _difference(claim, pairs, tol, words, source)
    return _ordering(claim, pairs, words, source)


def _rows(ref: Reference, claim: Claim, pid: str, variant: str | None) -> list[SpecRow]:
    part = claim.extra.get("part")
    probe = replace(claim, subject=pid, attribute=claim.detail or "", variant=variant, detail=part)
    return candidate_rows(ref, probe)


def _pairs(xs: list[SpecRow], ys: list[SpecRow], attribute: str) -> list[tuple[SpecRow, SpecRow]]:
    """Rows to compare: every variant of one with every variant of the other; throughput figures only at the same
    scope (dense with dense, sparse with sparse)."""
    def scope(r: SpecRow) -> str:
        return r.scope if r.scope not in ("", "dense", "tensor") else "dense"

    pairs = [(x, y) for x in xs for y in ys]
    if attribute in THROUGHPUT_ATTRIBUTES:
        pairs = [(x, y) for x, y in pairs if scope(x) == scope(y)]
    if attribute not in _TEXT:
        pairs = [(x, y) for x, y in pairs if _number(x) is not None and _number(y) is not None]
    return pairs


def _number(r: SpecRow) -> float | None:
    try:
        return float(r.value)
    except (TypeError, ValueError):
        return None


def _display(ref: Reference, pid: str, rows: list[SpecRow]) -> str:
    variants = {r.variant for r in rows if r.variant != "base"}
    name = ref.name(pid)
    return f"{name} {next(iter(variants))}" if len(variants) == 1 else name


def _fmt(v: float) -> str:
    return fmt(round(v, 4))


def _values(rows: Iterable[SpecRow]) -> str:
    """'3350 GB/s', or '1555–2039 GB/s' over several variants."""
    seen = list(dict.fromkeys(rows))
    nums = sorted({float(r.value) for r in seen if _number(r) is not None})
    unit = next((r.unit for r in seen if r.unit), "")
    if not nums:
        return "、".join(dict.fromkeys(str(r.value) for r in seen))
    text = _fmt(nums[0]) if len(nums) == 1 else f"{_fmt(nums[0])}–{_fmt(nums[-1])}"
    return f"{text} {unit}".strip()


def _span(values: list[float], suffix: str = "") -> str:
    lo, hi = min(values), max(values)
    return f"{_fmt(lo)}{suffix}" if abs(hi - lo) < 1e-9 else f"{_fmt(lo)}–{_fmt(hi)}{suffix}"


def _fits_factor(r: float, stated: float | list[float], q: Qualifier, tol: Tolerance, rounded: bool,
                 near: bool = False) -> bool:
    """Does the actual ratio ``r`` fit the stated one? ``rounded``: a whole multiple (3倍) is a rounded figure;
    ``near``: 几乎/将近/接近 a multiple is at most that and not far below it."""
    if isinstance(stated, list):
        lo, hi = stated
        return lo * (1 - tol.multiple) <= r <= hi * (1 + tol.multiple) and (lo >= 1) == (r >= 1)
    if (stated > 1 and r <= 1) or (stated < 1 and r >= 1):
        return False  # the direction always
    if near:
        return stated * (1 - 2 * tol.approx) <= r <= stated * (1 + tol.multiple)
    if rounded and q in (Qualifier.EXACT, Qualifier.APPROX):
        return stated * (1 - tol.whole_multiple_below) <= r <= stated * (1 + tol.whole_multiple_above)
    if q is Qualifier.APPROX:
        return abs(r - stated) <= tol.approx * stated
    if q is Qualifier.AT_LEAST:
        return r >= stated * 0.99
    if q in (Qualifier.AT_MOST, Qualifier.UP_TO):
        return r <= stated * 1.01
    return abs(r - stated) <= tol.multiple * stated


def _ratio(claim: Claim, pairs: list[tuple[SpecRow, SpecRow]], tol: Tolerance, words: dict[str, str],
           source: tuple[str, str]) -> Check:
    stated = claim.value
    if not isinstance(stated, (int, float, list)):
        return Check(Verdict.UNVERIFIABLE, MESSAGES["no_attribute"], reason=Reason.UNDERSPECIFIED)
    readings: list[float | list[float]] = [float(stated) if not isinstance(stated, list) else stated]
    if claim.extra.get("plus_one"):  # "提高了2倍": 2x or 3x
        readings.append(float(stated) + 1 if not isinstance(stated, list) else [v + 1 for v in stated])
    ratios = [float(x.value) / float(y.value) for x, y in pairs if float(y.value)]
    if not ratios:
        return Check(Verdict.UNVERIFIABLE, MESSAGES["no_attribute"], reason=Reason.UNDERSPECIFIED)
    rounded = claim.extra.get("form") == "multiple" and not isinstance(stated, list) and float(stated).is_integer()
    near = bool(claim.extra.get("near"))
    fits = [any(_fits_factor(r, s, claim.qualifier, tol, rounded, near) for s in readings) for r in ratios]
    holds = not all(fits) if claim.extra.get("negated") else any(fits)
    arith = _ratio_arithmetic(pairs, ratios, claim.extra.get("form") == "percent")
    expected = arith
    words = {**words, "arith": arith}
    verdict = Verdict.SUPPORTED if holds else Verdict.CONTRADICTED
    key = ("ratio_ok" if holds else "ratio_bad") if not claim.extra.get("negated") else \
        ("not_ratio_ok" if holds else "not_ratio_bad")
    return Check(verdict, MESSAGES[key].format(**words), expected, *source)


def _ratio_arithmetic(pairs: list[tuple[SpecRow, SpecRow]], ratios: list[float], percent: bool) -> str:
    def as_text(r: float) -> str:
        if percent:
            return f"{'+' if r >= 1 else '−'}{abs(r - 1) * 100:.0f}%"
        return f"{r:.2f}".rstrip("0").rstrip(".") + "倍"

    if len(ratios) == 1:
        x, y = pairs[0]
        return f"{_fmt(float(x.value))} ÷ {_fmt(float(y.value))} ≈ {as_text(ratios[0])}"
    lo, hi = min(ratios), max(ratios)
    if hi - lo < 0.005:
        return f"约{as_text(lo)}"
    return f"视版本为{as_text(lo)}至{as_text(hi)}"


def _difference(claim: Claim, pairs: list[tuple[SpecRow, SpecRow]], tol: Tolerance, words: dict[str, str],
                source: tuple[str, str]) -> Check:
    stated = claim.value
    if not isinstance(stated, (int, float, list)):
        return Check(Verdict.UNVERIFIABLE, MESSAGES["no_attribute"], reason=Reason.UNDERSPECIFIED)
    diffs = [float(x.value) - float(y.value) for x, y in pairs]
    scale = [max(abs(float(x.value)), abs(float(y.value))) for x, y in pairs]
    rate = (claim.detail or "") in _RATES

    def fits(d: float, big: float) -> bool:
        if isinstance(stated, list):
            lo, hi = sorted(stated)
            slack = (tol.exact_rate * big) if rate else 0.0
            return lo - slack <= d <= hi + slack
        v = float(stated)
        if v and (d > 0) != (v > 0):
            return False
        slack = tol.exact_rate * big if rate else tol.exact * abs(v)
        q = claim.qualifier
        if q is Qualifier.APPROX:
            return abs(d - v) <= max(tol.approx * abs(v), slack)
        if q is Qualifier.AT_LEAST:
            return abs(d) >= abs(v) - slack
        if q in (Qualifier.AT_MOST, Qualifier.UP_TO):
            return abs(d) <= abs(v) + slack
        return abs(d - v) <= slack + 1e-9

    ok = [fits(d, b) for d, b in zip(diffs, scale, strict=True)]
    holds = not all(ok) if claim.extra.get("negated") else any(ok)
    unit = next((x.unit for x, _ in pairs if x.unit), "")
    if len(pairs) == 1:
        x, y = pairs[0]
        arith = f"{_fmt(float(x.value))} − {_fmt(float(y.value))} = {_fmt(diffs[0])}{(' ' + unit) if unit else ''}"
        arith = arith.replace("= -", "= −")
    else:
        arith = _span(diffs, f" {unit}" if unit else "")
    words = {**words, "arith": arith}
    verdict = Verdict.SUPPORTED if holds else Verdict.CONTRADICTED
    return Check(verdict, MESSAGES["difference_ok" if holds else "difference_bad"].format(**words), arith, *source)


def _equal(x: SpecRow, y: SpecRow, attribute: str, q: Qualifier, tol: Tolerance) -> bool:
    if attribute in _TEXT:
        kx, ky = normalize_key(str(x.value)), normalize_key(str(y.value))
        return kx == ky or (attribute == "gpu_chip" and bool(set(kx.split("|")) & set(ky.split("|"))))
    a, b = float(x.value), float(y.value)
    if q is Qualifier.APPROX:
        return abs(a - b) <= tol.approx * max(abs(a), abs(b))
    slack = tol.exact_rate if attribute in _RATES else tol.exact
    return abs(a - b) <= slack * max(abs(a), abs(b)) + 1e-9


def _same(claim: Claim, pairs: list[tuple[SpecRow, SpecRow]], tol: Tolerance, words: dict[str, str],
          source: tuple[str, str]) -> Check:
    attribute = claim.detail or ""
    equal = [_equal(x, y, attribute, claim.qualifier, tol) for x, y in pairs]
    negated = bool(claim.extra.get("negated"))
    holds = not all(equal) if negated else any(equal)
    expected = f"{words['x']}：{words['xv']}；{words['y']}：{words['yv']}"
    approx = claim.qualifier is Qualifier.APPROX
    if holds:
        key = "different_ok" if negated else "close_ok" if approx else "same_ok"
        return Check(Verdict.SUPPORTED, MESSAGES[key].format(**words), expected, *source)
    if negated:
        return Check(Verdict.CONTRADICTED, MESSAGES["not_different"].format(**words), expected, *source)
    if approx:
        return Check(Verdict.CONTRADICTED, MESSAGES["close_bad"].format(**words), expected, *source)
    if claim.extra.get("form") == "inherit" or _restates_target(claim, pairs, tol):
        return Check(Verdict.MISATTRIBUTED, MESSAGES["same_substituted"].format(**words), expected, *source)
    return Check(Verdict.CONTRADICTED, MESSAGES["same_bad"].format(**words), expected, *source)


def _restates_target(claim: Claim, pairs: list[tuple[SpecRow, SpecRow]], tol: Tolerance) -> bool:
    """The sentence gives the owner a figure that is the target's, not its own: a substitution."""
    stated = claim.extra.get("stated_value")
    if stated is None:
        return False
    probe = SpecRow("", "base", claim.detail or "", "", stated, "", "", "")
    own = any(_equal(probe, x, claim.detail or "", Qualifier.EXACT, tol) for x, _ in pairs)
    theirs = any(_equal(probe, y, claim.detail or "", Qualifier.EXACT, tol) for _, y in pairs)
    return theirs and not own


def _ordering(claim: Claim, pairs: list[tuple[SpecRow, SpecRow]], words: dict[str, str],
              source: tuple[str, str]) -> Check:
    up = claim.value == ">"
    ok = [(float(x.value) > float(y.value)) if up else (float(x.value) < float(y.value)) for x, y in pairs]
    holds = not all(ok) if claim.extra.get("negated") else any(ok)
    signs = {(float(x.value) > float(y.value)) - (float(x.value) < float(y.value)) for x, y in pairs}
    relation = {1: f"{words['x']}更高", -1: f"{words['x']}更低", 0: "两者相同"}
    words = {**words, "actual": "、".join(relation[s] for s in sorted(signs, reverse=True))}
    expected = f"{words['x']}：{words['xv']}；{words['y']}：{words['yv']}"
    verdict = Verdict.SUPPORTED if holds else Verdict.CONTRADICTED
    return Check(verdict, MESSAGES["order_ok" if holds else "order_bad"].format(**words), expected, *source)
