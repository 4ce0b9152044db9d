"""Verdicts for technology and concept claims: a term's category, a card's positioning, precision support, and
hardware a card is said to carry."""

from __future__ import annotations

from ..extract.concepts import PREDICATE_ZH, WRONG_FOR
from ..knowledge.reference import Reference
from ..records import Check, Claim, Reason, Verdict

POSITIONING_ZH = {"training": "训练", "inference": "推理", "consumer": "消费级/游戏", "workstation": "工作站",
                  "hpc": "高性能计算"}
CATEGORY_ZH = {"compute_unit": "计算单元", "cache": "片上缓存", "virtualization": "GPU虚拟化技术",
               "partitioning": "GPU分区技术", "dataset": "数据集", "benchmark": "基准测试", "model": "模型",
               "memory": "显存类型", "interconnect": "互联技术", "software": "软件"}


def _product_source(ref: Reference, product_id: str) -> tuple[str | None, str | None]:
    for (pid, _attr), rows in ref.specs.items():
        if pid == product_id and rows:
            return rows[0].source_url, rows[0].source_title
    return None, None


def check_concept(claim: Claim, ref: Reference) -> Check:
    if claim.attribute == "positioning":
        return _positioning(claim, ref)
    if claim.attribute == "precision":
        return _precision(claim, ref)
    subject = claim.subject or ""
    if subject in ref.terms:
        term = ref.terms[subject]
        kind = str(claim.value)
        said = PREDICATE_ZH.get(kind, kind)
        what = CATEGORY_ZH.get(term.category, term.category)
        wrong = kind in WRONG_FOR.get(term.category, ()) or (kind == "model" and term.category != "model")
        if wrong:
            return Check(Verdict.CONTRADICTED,
                         f"{term.name}是{what}，不是{said}：{term.definition_zh}", term.definition_zh,
                         term.source_url, term.source_title)
        return Check(Verdict.SUPPORTED, f"{term.name}：{term.definition_zh}", term.definition_zh, term.source_url,
                     term.source_title)
    if subject in ref.products:
        return _hardware(claim, ref)
    return Check(Verdict.UNVERIFIABLE, "参考表中没有这项技术的资料，无法核实。")


def _positioning(claim: Claim, ref: Reference) -> Check:
    p = ref.products.get(claim.subject or "")
    if p is None or not p.positioning:
        return Check(Verdict.UNVERIFIABLE, "参考表中没有这张卡的定位信息，无法核实。")
    source, title = _product_source(ref, p.product_id)
    expected = "、".join(POSITIONING_ZH.get(x, x) for x in p.positioning)
    said = str(claim.value).split("|")
    stated = "与".join(POSITIONING_ZH.get(x, x) for x in said)
    if any(x in p.positioning for x in said):  # "面向训练与推理": a card for either fits
        return Check(Verdict.SUPPORTED, f"{p.name}的定位包括{stated}，与文中所述相符。", expected, source, title)
    if claim.extra.get("use"):
        return Check(Verdict.UNVERIFIABLE, f"{p.name}的定位是{expected}；文中“{claim.text.strip()}”说的是它的用途，"
                     "任何显卡都可以这样用，不作判断。", expected, source, title, reason=Reason.NO_FACT)
    return Check(Verdict.CONTRADICTED,
                 f"{p.name}的定位是{expected}，不是{stated}平台，文中“{claim.text.strip()}”不正确。",
                 expected, source, title)


def _precision(claim: Claim, ref: Reference) -> Check:
    p = ref.products.get(claim.subject or "")
    if p is None:
        return Check(Verdict.UNVERIFIABLE, "参考表中没有这张卡，无法核实其支持的精度。")
    named = [x for x in str(claim.value).split("|") if x]
    known = {x: ref.precisions.get((p.architecture, x)) for x in named}
    unsupported = [x for x, v in known.items() if v is not None and not v[0]]
    checked = [v for v in known.values() if v is not None]
    if unsupported:
        v = known[unsupported[0]]
        assert v is not None
        return Check(Verdict.CONTRADICTED,
                     f"{p.name}（{p.architecture}架构）不支持{'、'.join(unsupported)}，文中“{claim.text.strip()}”不正确。",
                     f"不支持{'、'.join(unsupported)}", v[1], v[2])
    if checked:
        return Check(Verdict.SUPPORTED, f"{p.name}（{p.architecture}架构）支持文中所列的精度格式。",
                     "、".join(named), checked[0][1], checked[0][2])
    return Check(Verdict.UNVERIFIABLE, f"参考表中没有{p.architecture}架构的精度支持资料，无法核实。")


def _hardware(claim: Claim, ref: Reference) -> Check:
    p = ref.products[claim.subject or ""]
    from .compare import variant_match

    source, title = _product_source(ref, p.product_id)
    interfaces = [str(r.value) for r in variant_match(ref.rows(p.product_id, "interface"), claim.variant)]
    if claim.value == "builtin_framework":
        return Check(Verdict.CONTRADICTED,
                     f"{p.name}是一块GPU硬件，不内置TensorFlow、PyTorch等深度学习框架；框架安装在主机的软件环境中。",
                     "框架由主机安装，显卡不内置", source, title)
    if claim.value == "redundant_psu":
        if interfaces and all(i.upper().startswith("PCIE") for i in interfaces):
            return Check(Verdict.CONTRADICTED,
                         f"{p.name}是一块{interfaces[0]}插卡，由服务器插槽/电源供电，本身不带冗余电源。",
                         f"{interfaces[0]}插卡，无独立电源", source, title)
        return Check(Verdict.UNVERIFIABLE, f"参考表无法确认{p.name}的供电设计。")
    return Check(Verdict.UNVERIFIABLE, "参考表中没有相关资料，无法核实。")
