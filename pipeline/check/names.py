"""Name claims: who makes a card or a technology, and a card's host interface."""

from __future__ import annotations

import re

from ..knowledge.reference import Reference
from ..records import Check, Claim, Reason, Verdict
from .compare import candidate_rows, expected_text, quoted


def check_manufacturer(claim: Claim, ref: Reference) -> Check:
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


def check_identity(claim: Claim, ref: Reference) -> Check:
    """"X（Y）" names two cards as one: wrong when they are of different architectures (GB200 is no Grace Hopper
    Superchip); of one architecture (A800（A100）) it may be a derived card, so it is left unverified."""
    x, y = ref.products.get(claim.subject or ""), ref.products.get(str(claim.value))
    if x is None or y is None:
        return Check(Verdict.UNVERIFIABLE, "参考表中缺少其中一款产品，无法核实。", reason=Reason.NO_REFERENCE_VALUE)
    if x.architecture and y.architecture and x.architecture != y.architecture:
        return Check(Verdict.MISATTRIBUTED, f"“{quoted(claim)}”是{y.name}（{y.architecture}架构），不是{x.name}"
                     f"（{x.architecture}架构）。", x.name, None, None)
    return Check(Verdict.UNVERIFIABLE, f"{x.name}与{y.name}同属{x.architecture}架构，文中把两者并称，可能指衍生型号，"
                 "不作判断。", reason=Reason.NOT_COMPARABLE)


def check_interface(claim: Claim, ref: Reference) -> Check:
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
    return Check(Verdict.CONTRADICTED, f"{name}的接口应为{expected}，文中“{quoted(claim)}”不正确。", expected,
                 rows[0].source_url, rows[0].source_title)
