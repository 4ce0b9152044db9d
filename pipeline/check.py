"""Claim x reference -> verdict, with the expected value, a Chinese explanation an editor can paste, and the source."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from .check_scoped import check_scoped
from .check_secondary import check_secondary
from .config import Tolerance
from .normalize import normalize_key
from .records import UNCERTAIN_OWNERS, Check, Claim, Qualifier, Reason, Scope, Verdict
from .reference import ATTRIBUTE_ZH, NUMERIC_ATTRIBUTES, THROUGHPUT_ATTRIBUTES, Reference, SpecRow

# numbers that identify a card well enough to say "this is card Y's figure"
_DISTINCTIVE = frozenset({"cuda_cores", "tensor_cores", "stream_processors", "memory_bandwidth",
                          "interconnect_bandwidth", "gpu_chip"})
_RATE_ATTRIBUTES = frozenset({"memory_bandwidth", "effective_bandwidth", "interconnect_bandwidth",
                              *THROUGHPUT_ATTRIBUTES})


@dataclass
class CheckContext:
    """What the checker knows about the article: the products it names."""

    named: set[str] = field(default_factory=set)


def fmt(value: float | str | None) -> str:
    if isinstance(value, float):
        return f"{value:g}" if value < 1e6 else f"{value:.0f}"
    return str(value)


def _unit(unit: str | None) -> str:
    return f" {unit}" if unit else ""


def _stated(claim: Claim) -> str:
    return claim.text.strip()


def _variant_match(rows: list[SpecRow], hint: str | None) -> list[SpecRow]:
    """Rows of the variant the article names (SXM, 80GB, PCIe); all rows when the hint selects none."""
    if not hint:
        return rows
    tokens = [normalize_key(t) for t in re.findall(r"SXM\d?|PCIe|NVL|OAM|\d+\s*G", hint, re.I)]
    tokens = [t if not t.endswith("g") else t + "b" for t in tokens]
    if not tokens:
        return rows
    picked = [r for r in rows if r.variant == "base" or all(t in normalize_key(r.variant) for t in tokens)]
    specific = [r for r in picked if r.variant != "base"]
    if specific:
        return picked
    # hint tokens may match only some: prefer rows matching any token
    partial = [r for r in rows if any(t in normalize_key(r.variant) for t in tokens)]
    return partial or rows


def candidate_rows(ref: Reference, claim: Claim) -> list[SpecRow]:
    rows: list[SpecRow] = []
    for pid in ref.members(claim.subject or ""):
        rows += ref.rows(pid, claim.attribute)
    if claim.attribute == "interconnect_bandwidth":
        # a link named (NVLink, Infinity Fabric) is checked against that link; "互连带宽" against the card's own
        rows = [r for r in rows if not claim.detail or r.scope.lower() == claim.detail.lower()]
    elif claim.attribute == "cache_size" and claim.detail:
        rows = [r for r in rows if r.scope.lower() == claim.detail.lower()]
    elif claim.attribute in THROUGHPUT_ATTRIBUTES and claim.detail == "sparse":
        rows = [r for r in rows if r.scope == "sparse"]
    elif claim.attribute in THROUGHPUT_ATTRIBUTES and claim.detail == "base clock":
        rows = []  # the reference lists peaks at boost clock
    elif claim.attribute in THROUGHPUT_ATTRIBUTES and claim.detail == "dense":
        rows = [r for r in rows if r.scope in ("", "dense", "tensor")]
    # a throughput figure without a word on sparsity may be any of the card's published ones (dense, sparse, on
    # Tensor Cores): vendors quote all of them
    if claim.subject in ref.series:
        return rows
    return _variant_match(rows, claim.variant)


def _close(a: float, b: float, rel: float) -> bool:
    return abs(a - b) <= rel * max(abs(b), 1e-9) + 1e-9


def numeric_fits(claim: Claim, values: Sequence[float], tol: Tolerance, *, group: bool = False) -> bool:
    """Does the stated number (with its hedge) fit any of the reference values?

    Counts and sizes must match. Rates may be rounded as written: '2TB/s' fits 2039 GB/s, '912 GB/s' does not fit
    936 GB/s: the slack is one step of the last written digit, at most ``tol.exact_rate`` of the value.
    """
    q, v = claim.qualifier, claim.value
    resolution = float(claim.extra.get("resolution") or 0.0)

    binary = claim.attribute == "memory_size" and str(claim.extra.get("written_unit", "")).upper() in ("TB", "T")

    def close(a: float, b: float, rel: float | None = None) -> bool:
        if binary and _close(a * 1.024, b, 0.005):  # "1.5TB" of 8×192GB: binary terabytes (1536 GB; 1.1TB ≈ 1128)
            return True
        if rel is not None:
            return _close(a, b, rel)
        if claim.attribute in _RATE_ATTRIBUTES:
            if not resolution:
                return abs(a - b) <= tol.exact_rate * b + 0.005 * b + 1e-9
            # as written: rounded to the last written digit ("4.8TB/s" is 4750-4850) or cut there, as vendors
            # often do (3276.8 GB/s quoted as "3.2TB/s"); never more than the cap
            step = min(resolution, tol.exact_rate * b)
            return abs(a - b) <= step / 2 + 0.005 * b + 1e-9 or a - 1e-9 <= b < a + min(resolution, 0.05 * b)
        return _close(a, b, tol.exact)

    if isinstance(v, list):
        lo, hi = v
        ends = all(any(close(e, x) for x in values) for e in (lo, hi))
        inside = all(lo * (1 - tol.exact_rate) <= x <= hi * (1 + tol.exact_rate) for x in values)
        # a range over a product's variants must name real variants; over a series, its members must lie inside;
        # a narrow range around a card's one figure is a hedge ("70-75W" for a 70W card)
        return ends or (inside and (group or hi <= 1.25 * lo))
    if not isinstance(v, (int, float)):
        return False
    stated = float(v)
    if q is Qualifier.EXACT:
        return any(close(stated, x) for x in values)
    if q is Qualifier.APPROX:
        return any(close(stated, x, tol.approx) for x in values)
    if q is Qualifier.UP_TO:
        return close(stated, max(values)) or any(close(stated, x) for x in values)
    if q is Qualifier.AT_LEAST:
        return any(x >= stated for x in values)
    if q is Qualifier.AT_MOST:
        return any(x <= stated for x in values)
    return False


_SCOPE_ZH = {"": "", "dense": "", "sparse": "稀疏", "tensor": "Tensor Core"}


def expected_text(rows: Iterable[SpecRow], multiplier: int = 1) -> str:
    """'732 GB/s（16GB PCIe 版）；549 GB/s（12GB PCIe 版）', '624 TFLOPS（稀疏）', or 'HBM2' when every variant
    agrees."""
    variants: dict[str, list[str]] = {}
    scopes: dict[str, list[str]] = {}
    for r in rows:
        value = r.value * multiplier if isinstance(r.value, float) else r.value
        key = f"{fmt(value)}{_unit(r.unit)}"
        for labels, label in ((variants, r.variant if r.variant != "base" else ""),
                              (scopes, _SCOPE_ZH.get(r.scope, r.scope))):
            labels.setdefault(key, [])
            if label and label not in labels[key]:
                labels[key].append(label)
    if len(variants) == 1:
        return next(iter(variants))

    def label(key: str) -> str:
        parts = [f"{'/'.join(variants[key])} 版" if variants[key] else "", "、".join(scopes[key])]
        return "，".join(p for p in parts if p)

    return "；".join(f"{k}（{label(k)}）" if label(k) else k for k in variants)


def _text_fits(claim: Claim, rows: list[SpecRow]) -> list[SpecRow]:
    stated = normalize_key(str(claim.value))
    out = []
    for r in rows:
        have = normalize_key(str(r.value))
        if claim.attribute == "memory_type":
            ok = have == stated or (stated == "hbm" and have.startswith("hbm"))
        elif claim.attribute == "gpu_chip":
            parts = {normalize_key(p) for p in re.split(r"[|/,，(（)）\s]+|x", str(r.value)) if p}
            ok = stated == have or stated in parts or all(
                normalize_key(p) in parts or normalize_key(p) in have for p in re.split(r"[|/]", str(claim.value)))
        else:  # a family name fits its members (Ada → Ada Lovelace, CDNA → CDNA 2); CDNA 2 does not fit CDNA
            ok = have == stated or have.startswith(stated) or (stated.startswith(have)
                                                               and not stated[len(have):][:1].isdigit())
        if ok:
            out.append(r)
    return out


def _named_elsewhere(ref: Reference, claim: Claim, ctx: CheckContext, tol: Tolerance) -> tuple[str, SpecRow] | None:
    """Another product the article names whose figure the stated value is."""
    own = set(ref.members(claim.subject or ""))
    for pid in sorted(ctx.named - own):
        rows = ref.rows(pid, claim.attribute)
        if claim.attribute == "interconnect_bandwidth":
            rows = [r for r in rows if not claim.detail or r.scope.lower() == claim.detail.lower()]
        if not rows:
            continue
        if claim.attribute in NUMERIC_ATTRIBUTES:
            per_card = replace(claim, value=_per_card(claim))
            hit = [r for r in rows if numeric_fits(replace(per_card, qualifier=Qualifier.EXACT), [float(r.value)],
                                                    tol)]
        else:
            hit = _text_fits(claim, rows)
        if hit:
            return pid, hit[0]
    return None


def _per_card(claim: Claim) -> float | list[float] | str | int | None:
    v = claim.value
    if claim.multiplier <= 1:
        return v
    if isinstance(v, list):
        return [x / claim.multiplier for x in v]
    return v / claim.multiplier if isinstance(v, (int, float)) else v


def check_claim(claim: Claim, ref: Reference, ctx: CheckContext | None = None,
                tol: Tolerance | None = None) -> Check:
    """The verdict on one claim. A flag needs evidence: a certain owner and a product-scoped figure; short of that
    the claim is ``unverifiable`` with its reason (the reference's figure is still shown)."""
    return _gate(claim, ref, _check(claim, ref, ctx, tol))


def _gate(claim: Claim, ref: Reference, check: Check) -> Check:
    if check.verdict is Verdict.UNVERIFIABLE:
        if check.reason is None:
            known = ref.knows(claim.subject or "")
            return replace(check, reason=Reason.NO_REFERENCE_VALUE if known else Reason.NOT_IN_REFERENCE)
        return check
    if not check.verdict.is_flag or claim.attribute == "code":
        return check
    name = ref.name(claim.subject or "")
    if claim.extra.get("via", "explicit") in UNCERTAIN_OWNERS:
        attr_zh = ATTRIBUTE_ZH.get(claim.attribute, claim.attribute)
        return Check(Verdict.UNVERIFIABLE, f"文中没有明确说明“{_stated(claim)}”属于哪张卡；若指{name}，其{attr_zh}"
                     f"应为{check.expected or '（参考表无数据）'}。归属不明，不作判断。", check.expected, check.source,
                     check.source_title, Reason.OWNER_UNCERTAIN)
    return check


def _check(claim: Claim, ref: Reference, ctx: CheckContext | None = None, tol: Tolerance | None = None) -> Check:
    secondary = check_secondary(claim, ref)
    if secondary is not None:
        return secondary
    ctx = ctx or CheckContext()
    tol = tol or Tolerance()
    if claim.attribute == "manufacturer":
        return _check_manufacturer(claim, ref)
    if claim.attribute in ("concept", "positioning", "precision"):
        from .concept_check import check_concept

        return check_concept(claim, ref)
    if claim.subject in ref.links and claim.scope is Scope.PRODUCT:
        claim = replace(claim, scope=Scope.LINK)
    if claim.scope is Scope.SYSTEM and claim.multiplier > 1:
        system = ref.entity(claim.scope_detail or "")
        if system is not None and system.kind == "system" and ref.facts(system.id, claim.attribute):
            return check_scoped(claim, ref, tol)  # "DGX H100的显存640GB": the system's own figure
        if claim.attribute == "tdp" and not (claim.scope_detail or "").isdigit():  # a named system, not N cards
            return Check(Verdict.UNVERIFIABLE, f"文中“{_stated(claim)}”是整机功耗，不等于各卡功耗之和，"
                         "参考表没有这套系统的功耗，无法核实。", reason=Reason.SCOPE_NOT_PRODUCT)
    if claim.scope is not Scope.PRODUCT and claim.multiplier <= 1:
        return check_scoped(claim, ref, tol)
    if claim.attribute == "interface":
        return _check_interface(claim, ref)
    name = ref.name(claim.subject or "")
    attr_zh = ATTRIBUTE_ZH.get(claim.attribute, claim.attribute)
    rows = candidate_rows(ref, claim)
    if not rows:
        return Check(Verdict.UNVERIFIABLE, f"参考表中没有{name}的{attr_zh}数据，无法核实。")
    numeric = claim.attribute in NUMERIC_ATTRIBUTES
    if numeric:
        values = [float(r.value) * claim.multiplier for r in rows]
        fits = numeric_fits(claim, values, tol, group=claim.subject in ref.series)
        matched = [r for r in rows if numeric_fits(claim, [float(r.value) * claim.multiplier], tol)] or rows
    else:
        matched = _text_fits(claim, rows)
        fits = bool(matched)
        matched = matched or rows
    if fits and claim.extra.get("every_member") and claim.subject in ref.series:
        # "…系列均配备16GB": every member with a figure must fit, not just one
        missing = [pid for pid in ref.members(claim.subject) if not _member_fits(claim, [r for r in rows
                                                                                        if r.product_id == pid], tol)]
        if missing:
            fits = False
            rows = [r for r in rows if r.product_id in missing]
    expected = expected_text(rows if not fits else matched, claim.multiplier)
    first = matched[0]
    if fits:
        how = f"（{claim.multiplier}张合计）" if claim.multiplier > 1 else ""
        return Check(Verdict.SUPPORTED, f"{name}的{attr_zh}{how}为{expected}，与文中所述相符。", expected,
                     first.source_url, first.source_title)
    if claim.attribute == "tensor_cores" and claim.qualifier is Qualifier.AT_LEAST and claim.value == 1:
        return Check(Verdict.CONTRADICTED, f"{name}没有 Tensor Core（{ref.products.get(claim.subject or '') and ref.products[claim.subject].architecture} 架构不具备），文中“{_stated(claim)}”不正确。",  # noqa: E501
                     "0（无 Tensor Core）", first.source_url, first.source_title)
    other_way = _other_fp16_figure(claim, ref, rows, tol) if claim.attribute in ("fp16", "bf16") else None
    if other_way:
        return Check(Verdict.UNVERIFIABLE, other_way, expected, first.source_url, first.source_title,
                     Reason.NOT_COMPARABLE)
    label = _other_precision(claim, ref, tol) if claim.attribute in THROUGHPUT_ATTRIBUTES else None
    if label is not None:
        return Check(Verdict.MISATTRIBUTED, f"文中“{_stated(claim)}”是{name}的{label}算力，不是{attr_zh}；{name}的"
                     f"{attr_zh}应为{expected}。", expected, first.source_url, first.source_title)
    elsewhere = _named_elsewhere(ref, claim, ctx, tol) if (
        claim.attribute in _DISTINCTIVE or claim.extra.get("via") == "substitution") else None
    if elsewhere is not None:
        other, _row = elsewhere
        return Check(Verdict.MISATTRIBUTED,
                     f"文中给{name}的{attr_zh}“{_stated(claim)}”其实是{ref.name(other)}的参数；{name}应为{expected}。",
                     expected, first.source_url, first.source_title)
    return Check(Verdict.CONTRADICTED, _why_wrong(claim, ref, rows, name, attr_zh, expected, tol), expected,
                 first.source_url, first.source_title)


_PRECISION_ZH = {"fp64": "FP64", "fp32": "FP32", "tf32": "TF32", "fp16": "FP16", "bf16": "BF16", "fp8": "FP8",
                 "int8": "INT8", "fp6": "FP6", "fp4": "FP4", "int4": "INT4"}


def _other_precision(claim: Claim, ref: Reference, tol: Tolerance) -> str | None:
    """The precision and sparsity a throughput figure belongs to when it is not the stated one's: "FP16 1321
    TFLOPS（稀疏）" on an RTX 4090 is its FP8 sparse figure, "INT8稠密466 TOPS" an RTX 4070's sparse INT8. Only an
    exact match with the same card's published figure counts."""
    stated = replace(claim, qualifier=Qualifier.EXACT, multiplier=1, value=_per_card(claim))
    labels: list[str] = []
    for attr in (a for a in _PRECISION_ZH if a in NUMERIC_ATTRIBUTES):
        for pid in ref.members(claim.subject or ""):
            for r in ref.rows(pid, attr):
                if attr == claim.attribute and not _other_sparsity(claim, r):
                    continue
                if isinstance(r.value, float) and numeric_fits(replace(stated, attribute=attr), [r.value], tol):
                    sparse = "（稀疏）" if r.scope == "sparse" else "（稠密）" if r.scope == "dense" and attr == \
                        claim.attribute else ""
                    labels.append(f"{_PRECISION_ZH[attr]}{sparse}")
    return "或".join(dict.fromkeys(labels)) or None


def _other_sparsity(claim: Claim, row: SpecRow) -> bool:
    """The row is the same precision's figure with the other sparsity than the text states."""
    return (claim.detail == "dense" and row.scope == "sparse") or (claim.detail == "sparse" and row.scope in
                                                                   ("", "dense", "tensor"))


def _member_fits(claim: Claim, rows: list[SpecRow], tol: Tolerance) -> bool:
    """A series member's figures fit the claim (a member without figures is not held against it)."""
    if not rows:
        return True
    if claim.attribute in NUMERIC_ATTRIBUTES:
        return numeric_fits(claim, [float(r.value) * claim.multiplier for r in rows], tol)
    return bool(_text_fits(claim, rows))


def _other_fp16_figure(claim: Claim, ref: Reference, rows: list[SpecRow], tol: Tolerance) -> str | None:
    """FP16 has several peak figures per card and the reference keeps the Tensor Core one: on the CUDA cores it
    runs at 1, 2 or 4 times the FP32 rate, and GeForce cards quote Tensor Core FP16 with FP32 accumulation at half
    the rate (data-centre cards accumulate in FP32 at full rate). A stated figure that is one of those is not shown
    wrong by the table: say so, do not flag it."""
    members = ref.members(claim.subject or "")
    fp32 = [float(r.value) * claim.multiplier for pid in members for r in ref.rows(pid, "fp32")
            if r.scope in ("", "dense")]
    alternatives = [x * k for x in fp32 for k in (1, 2, 4)]
    if any("consumer" in ref.products[p].positioning for p in members if p in ref.products):
        alternatives += [float(r.value) * claim.multiplier / 2 for r in rows]
    stated = replace(claim, qualifier=Qualifier.EXACT)
    if claim.detail == "sparse" or not alternatives or not numeric_fits(stated, alternatives, tol):
        return None
    name = ref.name(claim.subject or "")
    return (f"参考表收录的是{name}经 Tensor Core 的 {claim.attribute.upper()} 算力（{expected_text(rows)}）；文中数值"
            f"“{_stated(claim)}”与 CUDA 核心上的 FP16 算力或 FP32 累加的 Tensor Core 算力相符，参考表未收录这种口径，"
            "无法核实。")


def _why_wrong(claim: Claim, ref: Reference, rows: list[SpecRow], name: str, attr_zh: str, expected: str,
               tol: Tolerance) -> str:
    stated = _stated(claim)
    reason = ""
    if claim.extra.get("bits") and isinstance(claim.value, (int, float)):
        as_bytes = replace(claim, value=float(claim.value) * 8)
        if numeric_fits(as_bytes, [float(r.value) * claim.multiplier for r in rows], tol):
            reason = "疑似把 GB/s（字节）写成了 Gb/s（比特），两者相差 8 倍"
    if not reason and claim.multiplier > 1 and isinstance(claim.value, (int, float)):
        per = float(claim.value) / claim.multiplier
        reason = (f"按每卡 {expected_text(rows)} × {claim.multiplier} 计算才对，文中合计相当于每卡 "
                  f"{fmt(per)}{_unit(claim.unit)}")
        expected = f"{expected}（{claim.multiplier}张合计）"
    if not reason and claim.attribute == "memory_bandwidth":
        eff = [r for pid in ref.members(claim.subject or "") for r in ref.rows(pid, "effective_bandwidth")]
        if eff and numeric_fits(replace(claim, attribute="effective_bandwidth"), [float(r.value) for r in eff], tol):
            reason = f"{fmt(claim.value)} GB/s 是厂商宣称的借助 Infinity Cache 的“有效带宽”，不是显存原始带宽"
    if not reason and claim.attribute in NUMERIC_ATTRIBUTES and claim.subject in ref.products:
        others = [r for r in ref.rows(claim.subject, claim.attribute)
                  if numeric_fits(replace(claim, qualifier=Qualifier.EXACT), [float(r.value)], tol)]
        if others:
            reason = f"{stated}是{others[0].variant}版的数值，与文中所指版本不符"
    if claim.qualifier is Qualifier.AT_LEAST:
        reason = reason or "实际数值并未超过文中所说"
    if claim.qualifier is Qualifier.AT_MOST:
        reason = reason or "实际数值并不低于文中所说"
    tail = f"（{reason}）" if reason else ""
    return f"{name}的{attr_zh}应为{expected}，文中“{stated}”不正确{tail}。"


def _check_manufacturer(claim: Claim, ref: Reference) -> Check:
    subject = claim.subject or ""
    makers = [m for m in str(claim.value).split("|") if m]
    owner = ref.vendor_of(subject)
    name = ref.name(subject)
    if owner is None or owner not in ref.vendors:
        return Check(Verdict.UNVERIFIABLE, f"参考表中没有{name}的归属信息，无法核实。")
    v = ref.vendors[owner]
    source, title = v.source_url, v.source_title
    if subject in ref.terms and ref.terms[subject].source_url:
        source, title = ref.terms[subject].source_url, ref.terms[subject].source_title
    elif subject in ref.series and ref.series[subject].source_url:
        source, title = ref.series[subject].source_url, ref.series[subject].source_title
    wrong = [m for m in makers if m != owner]
    if not wrong:
        return Check(Verdict.SUPPORTED, f"{name}由{v.name}推出，与文中所述相符。", v.name, source, title)
    names = "、".join(ref.vendors[m].name if m in ref.vendors else m for m in wrong)
    extra = ""
    companies = [ref.vendors[m] for m in wrong if m in ref.vendors and not ref.vendors[m].makes_gpus]
    if companies:
        # a product-line name that is also a company's name (Tesla): the brand is not the company
        shared = [b for b in v.brands for c in companies if any(b.lower() in a.lower() for a in c.aliases)]
        extra = (f"“{'/'.join(dict.fromkeys(shared))}”是{v.name}产品线的品牌名，与{companies[0].name}无关"
                 if shared else f"{names}并不生产GPU")
    what = "技术" if subject in ref.terms else "产品"
    tail = f"（{extra}）" if extra else ""
    return Check(Verdict.CONTRADICTED, f"{name}是{v.name}的{what}，文中归于{names}不正确{tail}。", v.name,
                 source, title)


def _pcie_generation(text: str) -> str | None:
    m = re.search(r"PCI-?e\s*(?:Gen\s*)?(\d)", text, re.I)
    return m.group(1) if m else None


def _pcie_lanes(text: str) -> int | None:
    m = re.search(r"[x×]\s*(\d{1,2})", text)
    return int(m.group(1)) if m else None


def _check_interface(claim: Claim, ref: Reference) -> Check:
    """A card's host PCIe generation, and its lanes when the text gives them; SXM/OAM modules list no PCIe row,
    so there it stays unverifiable."""
    name = ref.name(claim.subject or "")
    rows = [r for r in candidate_rows(ref, claim) if _pcie_generation(str(r.value))]
    stated = _pcie_generation(str(claim.value))
    if not rows or stated is None:
        return Check(Verdict.UNVERIFIABLE, f"参考表中没有{name}的PCIe接口数据，无法核实。")
    expected = expected_text(rows)
    lanes = _pcie_lanes(str(claim.value))
    hit = [r for r in rows if _pcie_generation(str(r.value)) == stated
           and (lanes is None or _pcie_lanes(str(r.value)) in (None, lanes))]
    if hit:
        return Check(Verdict.SUPPORTED, f"{name}的接口为{expected}，与文中所述相符。", expected, hit[0].source_url,
                     hit[0].source_title)
    return Check(Verdict.CONTRADICTED, f"{name}的接口应为{expected}，文中“{_stated(claim)}”不正确。", expected,
                 rows[0].source_url, rows[0].source_title)


def check_claims(claims: Iterable[Claim], ref: Reference, ctx: CheckContext | None = None,
                 tol: Tolerance | None = None) -> list[Claim]:
    return [replace(c, check=check_claim(c, ref, ctx, tol)) for c in claims]


def note_inconsistencies(claims: list[Claim]) -> list[Claim]:
    """One card given two different values for one attribute in one article: name the clash in the explanation of
    the value the reference contradicts (values that match two variants are both supported and left alone)."""
    groups: dict[tuple[str, str, int], list[Claim]] = {}
    for c in claims:
        if c.subject and c.attribute in NUMERIC_ATTRIBUTES and isinstance(c.value, (int, float)) and \
                c.qualifier is Qualifier.EXACT:
            groups.setdefault((c.subject, c.attribute, c.multiplier), []).append(c)
    notes: dict[int, str] = {}
    for group in groups.values():
        values = {float(c.value) for c in group}  # type: ignore[arg-type]
        if len(values) < 2:
            continue
        for c in group:
            if c.check is not None and c.check.verdict in (Verdict.CONTRADICTED, Verdict.MISATTRIBUTED):
                others = sorted({o.text.strip() for o in group if float(o.value) != float(c.value)})  # type: ignore[arg-type]
                notes[id(c)] = f"文中另一处写作“{'”“'.join(others)}”，前后不一致"
    if not notes:
        return claims
    out = []
    for c in claims:
        note = notes.get(id(c))
        if note and c.check is not None:
            text = c.check.explanation.rstrip("。") + f"；{note}。"
            c = replace(c, check=replace(c.check, explanation=text))
        out.append(c)
    return out
