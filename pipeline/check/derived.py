"""Computed claims checked by recomputing them: a data rate against the card's bus width and bandwidth
(``derived_bandwidth``; a per-pin rate said alone, ``memory_data_rate``), a link count against the card's NVLink
bandwidth and its generation's per-link rate (``nvlink_links``), a model's memory need from its parameters and number
format (``memory_need``) and whether it fits on the card (``fits_on_card``). Every explanation names the arithmetic
and the assumptions used.

Precision first: an over-estimate of a model's need may include overhead the text does not name, and a "does not fit"
may count overhead, so only what the weights alone decide is flagged.
"""

from __future__ import annotations

from dataclasses import replace

from ..config import Tolerance
from ..knowledge.reference import Reference, SpecRow
from ..records import Check, Claim, Qualifier, Reason, Verdict
from .compare import candidate_rows, fmt
from .history import architecture_of
from .secondary import check_secondary

_RATE_SLACK = 0.03  # a data rate as vendors round it (21 Gbps, 19.5 Gbps, 3.2 Gbps)
_GIB = 1.073741824
_CLEARLY_FITS = 0.6  # a need below 60% of the memory fits with room for KV cache and activations

MESSAGES = {
    "unknown": "参考表中没有{name}，无法核实。",
    "no_values": "参考表中没有{name}的{what}数据，无法核实。",
    "rate_ok": "按文中的{bus} bit位宽和{rate} Gbps数据速率，带宽为{bus} ÷ 8 × {rate} = {computed} GB/s；"
               "{name}的显存带宽为{expected}，与之相符{note}。",
    "rate_bad": "{name}的显存位宽为{ref_bus} bit、带宽为{ref_bw} GB/s，对应的数据速率约为{ref_rate} Gbps；文中"
                "“{stated}”不符（{bus} ÷ 8 × {rate} = {computed} GB/s）{note}。",
    "inconsistent": "；文中给出的{given} GB/s与位宽×速率不符",
    "pin_ok": "{name}的显存带宽为{bw} GB/s、位宽为{bus} bit，数据速率为{bw} × 8 ÷ {bus} ≈ {rate} Gbps，"
              "与文中“{stated}”相符。",
    "pin_bad": "{name}的显存带宽为{bw} GB/s、位宽为{bus} bit，数据速率应为{bw} × 8 ÷ {bus} ≈ {rate} Gbps，"
               "文中“{stated}”不正确。",
    "links_ok": "{name}的NVLink带宽为{bandwidth} GB/s，第{gen}代NVLink每条链路{per_link} GB/s（双向），"
                "共{links}条，与文中“{stated}”相符{note}。",
    "links_bad": "{name}的NVLink带宽为{bandwidth} GB/s，第{gen}代NVLink每条链路{per_link} GB/s（双向），"
                 "应为{links}条，不是文中所说的“{stated}”{note}。",
    "links_product": "；按文中数字{n} × {per} = {product} GB/s，与文中总带宽{total} GB/s不符",
    "no_format": "文中没有说明权重以何种精度存放（FP32每个参数4字节，FP16/BF16 2字节，INT8/FP8 1字节，"
                 "INT4 0.5字节），无法计算所需显存。",
    "need_ok": "{params} × {bytes}字节（{fmt}）= {weights}（仅权重，未计KV Cache等开销），与文中“{stated}”相符。",
    "need_low": "仅权重就需要{params} × {bytes}字节（{fmt}）= {weights}，文中“{stated}”偏少。",
    "need_more": "{params} × {bytes}字节（{fmt}）= {weights}（仅权重）；文中“{stated}”更多，"
                 "多出的部分可能是文中未说明的KV Cache、激活等开销，无法核实。",
    "need_overhead": "仅权重为{params} × {bytes}字节（{fmt}）= {weights}；"
                     "文中的数字还包含KV Cache等开销，这部分无法计算。",
    "no_need": "文中没有给出模型所需显存，也无法由参数量和精度算出，无法判断放不放得下。",
    "no_card": "文中没有说明是哪张卡或多大显存，无法判断放不放得下。",
    "fits_ok": "所需约{need} GB（{basis}），{card}的显存为{memory}，{verdict_zh}，与文中“{stated}”相符。",
    "fits_bad": "所需约{need} GB（{basis}），{card}的显存为{memory}，{verdict_zh}，文中“{stated}”不正确。",
    "fits_tight": "所需约{need} GB（{basis}），{card}的显存为{memory}：仅权重放得下，"
                  "但加上KV Cache等开销是否放得下，取决于上下文长度，无法判断。",
}


def check_derived(claim: Claim, ref: Reference, tol: Tolerance) -> Check:
    if claim.attribute == "derived_bandwidth":
        return _data_rate(claim, ref)
    if claim.attribute == "memory_data_rate":
        return _pin_rate(claim, ref)
    if claim.attribute == "nvlink_links":
        return _links(claim, ref)
    if claim.attribute == "memory_need":
        return _need(claim, tol)
    return _fits(claim, ref, tol)


def _rows(ref: Reference, claim: Claim, attribute: str, detail: str | None = None) -> list[SpecRow]:
    return candidate_rows(ref, replace(claim, attribute=attribute, detail=detail))


def _fmt(v: float) -> str:
    return fmt(round(float(v), 3))


# ---- bus width × data rate ------------------------------------------------------------------------------------


def _data_rate(claim: Claim, ref: Reference) -> Check:
    subject = claim.subject or ""
    name = ref.name(subject)
    if subject not in ref.products:
        return Check(Verdict.UNVERIFIABLE, MESSAGES["unknown"].format(name=name), reason=Reason.NOT_IN_REFERENCE)
    bandwidths, buses = _rows(ref, claim, "memory_bandwidth"), _rows(ref, claim, "memory_bus_width")
    if not bandwidths or not buses:
        return Check(Verdict.UNVERIFIABLE, MESSAGES["no_values"].format(name=name, what="显存位宽或带宽"),
                     reason=Reason.NO_REFERENCE_VALUE)
    pairs = [(float(b.value), float(w.value)) for b in bandwidths for w in buses
             if b.variant == w.variant or "base" in (b.variant, w.variant)]
    bus, rate = int(claim.extra.get("bus_width", 0)), float(claim.extra.get("data_rate_gbps", 0.0))
    computed = float(claim.value) if isinstance(claim.value, (int, float)) else bus / 8 * rate
    fitting = [(bw, w) for bw, w in pairs if abs(rate - bw * 8 / w) <= _RATE_SLACK * bw * 8 / w]
    given = claim.extra.get("stated_bandwidth")
    note = ""
    if isinstance(given, (int, float)) and abs(float(given) - computed) > 0.035 * computed + 1:
        note = MESSAGES["inconsistent"].format(given=_fmt(float(given)))
    bw, w = (fitting or pairs)[0]
    expected = f"{_fmt(w)} bit ÷ 8 × {_fmt(bw * 8 / w)} Gbps = {_fmt(bw)} GB/s"
    words = {"name": name, "bus": bus, "rate": _fmt(rate), "computed": _fmt(computed), "expected": f"{_fmt(bw)} GB/s",
             "ref_bus": _fmt(w), "ref_bw": _fmt(bw), "ref_rate": _fmt(bw * 8 / w), "stated": claim.text.strip(),
             "note": note}
    source = (bandwidths[0].source_url, bandwidths[0].source_title)
    if fitting:
        return Check(Verdict.SUPPORTED, MESSAGES["rate_ok"].format(**words), expected, *source)
    return Check(Verdict.CONTRADICTED, MESSAGES["rate_bad"].format(**words), expected, *source)


def _pin_rate(claim: Claim, ref: Reference) -> Check:
    """"GDDR6X显存速率为21Gb/s": the card's per-pin rate is its bandwidth × 8 ÷ its bus width."""
    subject = claim.subject or ""
    name = ref.name(subject)
    if subject not in ref.products:  # a card only the secondary database knows: its figure there
        return check_secondary(claim, ref, Tolerance()) or Check(
            Verdict.UNVERIFIABLE, MESSAGES["unknown"].format(name=name), reason=Reason.NOT_IN_REFERENCE)
    bandwidths, buses = _rows(ref, claim, "memory_bandwidth"), _rows(ref, claim, "memory_bus_width")
    pairs = [(b, float(b.value), float(w.value)) for b in bandwidths for w in buses
             if b.variant == w.variant or "base" in (b.variant, w.variant)]
    if not pairs or not isinstance(claim.value, (int, float)):
        return Check(Verdict.UNVERIFIABLE, MESSAGES["no_values"].format(name=name, what="显存位宽或带宽"),
                     reason=Reason.NO_REFERENCE_VALUE)
    stated = float(claim.value)
    fitting = [(row, bw, w) for row, bw, w in pairs if abs(stated - bw * 8 / w) <= _RATE_SLACK * bw * 8 / w]
    row, bw, w = (fitting or pairs)[0]
    words = {"name": name, "bw": _fmt(bw), "bus": _fmt(w), "rate": _fmt(bw * 8 / w), "stated": claim.text.strip()}
    expected = f"{_fmt(bw * 8 / w)} Gbps"
    if fitting:
        return Check(Verdict.SUPPORTED, MESSAGES["pin_ok"].format(**words), expected, row.source_url,
                     row.source_title)
    return Check(Verdict.CONTRADICTED, MESSAGES["pin_bad"].format(**words), expected, row.source_url,
                 row.source_title)


# ---- NVLink links ------------------------------------------------------------------------------------------------


def _links(claim: Claim, ref: Reference) -> Check:
    subject = claim.subject or ""
    name = ref.name(subject)
    if subject not in ref.products:
        return Check(Verdict.UNVERIFIABLE, MESSAGES["unknown"].format(name=name), reason=Reason.NOT_IN_REFERENCE)
    rows = _rows(ref, claim, "interconnect_bandwidth", "NVLink")
    arch = architecture_of(ref, subject)
    gen = arch.fields.get("nvlink_generation", "") if arch is not None else ""
    link = ref.items.get("link", {}).get(f"nvlink_{gen}")
    per = link.fields.get("per_link_bidirectional", "") if link is not None else ""
    if not rows or not per:
        return Check(Verdict.UNVERIFIABLE, MESSAGES["no_values"].format(name=name, what="NVLink链路"),
                     reason=Reason.NO_REFERENCE_VALUE)
    per_link = float(per)
    counts = sorted({round(float(r.value) / per_link) for r in rows})
    stated = int(claim.value) if isinstance(claim.value, (int, float)) else 0
    note = ""
    n_per, total = claim.extra.get("per_link"), claim.extra.get("total")
    if isinstance(n_per, (int, float)) and isinstance(total, (int, float)) \
            and abs(stated * float(n_per) - float(total)) > 0.05 * float(total):
        note = MESSAGES["links_product"].format(n=stated, per=_fmt(float(n_per)), product=_fmt(stated * float(n_per)),
                                                total=_fmt(float(total)))
    words = {"name": name, "bandwidth": "/".join(dict.fromkeys(_fmt(float(r.value)) for r in rows)), "gen": gen,
             "per_link": _fmt(per_link), "links": "/".join(str(c) for c in counts), "stated": claim.text.strip(),
             "note": note}
    expected = f"{'/'.join(str(c) for c in counts)}条"
    source = (link.source_url, link.source_title) if link is not None else (rows[0].source_url, rows[0].source_title)
    if stated in counts:
        return Check(Verdict.SUPPORTED, MESSAGES["links_ok"].format(**words), expected, *source)
    return Check(Verdict.CONTRADICTED, MESSAGES["links_bad"].format(**words), expected, *source)


# ---- model memory ------------------------------------------------------------------------------------------------


def _params_text(params: float) -> str:
    return f"{params / 1e12:g}T参数" if params >= 1e12 else f"{params / 1e9:g}B参数"


def _weights(claim: Claim) -> tuple[float, dict[str, str]] | None:
    params, per = claim.extra.get("params"), claim.extra.get("bytes_per_param")
    if not isinstance(params, (int, float)) or not isinstance(per, (int, float)):
        return None
    gb = float(params) * float(per) / 1e9
    return gb, {"params": _params_text(float(params)), "bytes": _fmt(float(per)), "fmt": str(claim.extra.get("format")),
                "weights": f"{_fmt(gb)} GB（{_fmt(gb / _GIB)} GiB）"}


def _need(claim: Claim, tol: Tolerance) -> Check:
    weights = _weights(claim)
    if weights is None:
        return Check(Verdict.UNVERIFIABLE, MESSAGES["no_format"], reason=Reason.UNDERSPECIFIED)
    gb, words = weights
    words = {**words, "stated": claim.text.strip()}
    expected = f"{words['params']} × {words['bytes']}字节 = {_fmt(gb)} GB（仅权重）"
    value = claim.value
    assert isinstance(value, (int, float, list)), f"a memory need is a figure in GB, not {value!r}"
    lo, hi = (min(value), max(value)) if isinstance(value, list) else (float(value), float(value))
    slack = tol.approx if claim.qualifier is Qualifier.APPROX else tol.multiple
    low_bound = gb / _GIB * (1 - slack)  # a need written in GiB is the smaller number
    if claim.qualifier is Qualifier.AT_MOST:
        low_bound = gb / _GIB * (1 - tol.multiple)
    if hi < low_bound:
        return Check(Verdict.CONTRADICTED, MESSAGES["need_low"].format(**words), expected)
    if claim.extra.get("overhead"):
        return Check(Verdict.UNVERIFIABLE, MESSAGES["need_overhead"].format(**words), expected,
                     reason=Reason.UNDERSPECIFIED)
    if lo > gb * (1 + slack) and claim.qualifier is not Qualifier.AT_LEAST:
        return Check(Verdict.UNVERIFIABLE, MESSAGES["need_more"].format(**words), expected,
                     reason=Reason.UNDERSPECIFIED)
    return Check(Verdict.SUPPORTED, MESSAGES["need_ok"].format(**words), expected)


def _fits(claim: Claim, ref: Reference, tol: Tolerance) -> Check:
    need = claim.extra.get("need")
    basis = "文中所述"
    if not isinstance(need, (int, float)):
        weights = _weights(claim)
        if weights is None:
            return Check(Verdict.UNVERIFIABLE, MESSAGES["no_need"], reason=Reason.UNDERSPECIFIED)
        need, words = weights[0], weights[1]
        basis = f"{words['params']} × {words['bytes']}字节，仅权重"
    cards = max(1, int(claim.multiplier or 1))
    size = claim.extra.get("card_size")
    subject = claim.subject or ""
    if isinstance(size, (int, float)):
        memories, card, source = [float(size)], claim.subject_mention or f"{_fmt(float(size))}GB的卡", ("", "")
    elif subject in ref.products:
        rows = _rows(ref, claim, "memory_size")
        if not rows:
            return Check(Verdict.UNVERIFIABLE, MESSAGES["no_values"].format(name=ref.name(subject), what="显存容量"),
                         reason=Reason.NO_REFERENCE_VALUE)
        memories, card, source = [float(r.value) for r in rows], ref.name(subject), (rows[0].source_url,
                                                                                     rows[0].source_title)
    elif subject:
        return Check(Verdict.UNVERIFIABLE, MESSAGES["unknown"].format(name=ref.name(subject)),
                     reason=Reason.NOT_IN_REFERENCE)
    else:
        return Check(Verdict.UNVERIFIABLE, MESSAGES["no_card"], reason=Reason.UNDERSPECIFIED)
    total = [m * cards for m in memories]
    memory = "/".join(f"{_fmt(m)} GB" for m in sorted(set(total))) + (f"（{cards}张合计）" if cards > 1 else "")
    need_f = float(need)
    fits_all = all(need_f <= m for m in total)
    fits_none = all(need_f > m for m in total)
    clearly = all(need_f <= _CLEARLY_FITS * m for m in total)
    words = {"need": _fmt(need_f), "basis": basis, "card": card, "memory": memory, "stated": claim.text.strip()}
    expected = f"需{_fmt(need_f)} GB，显存{memory}"
    if claim.value == "fits":
        if fits_none:
            return Check(Verdict.CONTRADICTED, MESSAGES["fits_bad"].format(**words, verdict_zh="放不下"), expected,
                         *source)
        if fits_all:
            return Check(Verdict.SUPPORTED, MESSAGES["fits_ok"].format(**words, verdict_zh="放得下"), expected,
                         *source)
        return Check(Verdict.UNVERIFIABLE, MESSAGES["fits_tight"].format(**words), expected, *source,
                     reason=Reason.UNDERSPECIFIED)
    if fits_none:
        return Check(Verdict.SUPPORTED, MESSAGES["fits_ok"].format(**words, verdict_zh="放不下"), expected, *source)
    if clearly:
        return Check(Verdict.CONTRADICTED, MESSAGES["fits_bad"].format(**words, verdict_zh="放得下"), expected,
                     *source)
    return Check(Verdict.UNVERIFIABLE, MESSAGES["fits_tight"].format(**words), expected, *source,
                 reason=Reason.UNDERSPECIFIED)
