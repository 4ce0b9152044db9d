"""Claims about a card's GPU die, checked against the chips table.

Figures of the die (H100拥有800亿个晶体管): a card's figure is its chip's, or the package's when the card holds
several dies of one kind (B200: two GB100 dies, 2 x 104 billion); articles give either.

Process-node claims ("H100采用台积电4N工艺"): the node a card's GPU is made on
(``process_node``, as the vendor names it), the nanometre figures it is named or reported as (``process_nm``: TSMC 4N
is a 5 nm-class node that articles also call 4 nm) and the foundry.

A node is right when its nanometres (or the digits of its name, N7 -> 7) are among the chip's; a foundry the text
names must be the chip's. A package of several dies (MI300X: compute dies and I/O dies on different nodes) is only
ever supported: the table may not hold every die's node.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..config import Tolerance
from ..knowledge.reference import CHIP_FIGURES, Reference, SpecRow
from ..lexicon.labels import attribute_label
from ..records import Check, Claim, Reason, Scope, Verdict
from .compare import fmt, numeric_fits, quoted

# vendors round transistor counts (NVIDIA writes "54 billion" for GA100's 54.2, "28 billion" for GA102's 28.3) and
# die areas (608 for AD102's 608.5 mm²)
_ROUNDED = 0.02

_FOUNDRY_ZH = {"TSMC": "台积电", "Samsung": "三星", "Intel": "英特尔"}


def _chips(claim: Claim, ref: Reference) -> list[str]:
    subject = claim.subject or ""
    if claim.scope is Scope.CHIP:
        found = ref.entity(subject)
        return [found.id] if found is not None and found.kind == "chip" else []
    if claim.scope is Scope.FAMILY:
        found = ref.entity(subject)
        return list(ref.chips_of_architecture(found.id)) if found is not None else []
    return [c for pid in ref.members(subject) for c in ref.chips_of(pid)]


def check_process(claim: Claim, ref: Reference) -> Check:
    name = ref.name(claim.subject or "")
    where = name if claim.scope is Scope.CHIP else f"{name}架构的GPU芯片" if claim.scope is Scope.FAMILY else \
        f"{name}的GPU芯片"
    chips = list(dict.fromkeys(_chips(claim, ref)))
    nm = {str(r.value) for c in chips for r in ref.facts(c, "process_nm")}
    nodes = [r for c in chips for r in ref.facts(c, "process_node")]
    foundries = {str(r.value) for c in chips for r in ref.facts(c, "foundry")}
    if not nm or not nodes:
        return Check(Verdict.UNVERIFIABLE, f"参考表中没有{name}的制程工艺数据，无法核实。",
                     reason=Reason.NO_REFERENCE_VALUE if ref.knows(claim.subject or "") else Reason.NOT_IN_REFERENCE)
    expected = _expected(ref, chips, nodes)
    first: SpecRow = nodes[0]
    digits = re.search(r"\d+", str(claim.value))
    node_ok = digits is not None and digits.group(0) in nm
    foundry_ok = claim.detail is None or claim.detail in foundries
    if node_ok and foundry_ok:
        return Check(Verdict.SUPPORTED, f"{where}采用{expected}，与文中所述相符。", expected,
                     first.source_url, first.source_title)
    if claim.scope is Scope.FAMILY:  # an architecture's dies may be made on more nodes than the table lists
        return Check(Verdict.UNVERIFIABLE, f"参考表收录的{name}架构芯片采用{expected}，不是文中的“{quoted(claim)}”；"
                     "该架构可能有参考表未收录的芯片，不作判断。", expected, first.source_url, first.source_title,
                     Reason.NO_REFERENCE_VALUE)
    several_dies = any(float(r.value) > 1 for c in chips for r in ref.facts(c, "die_count"))
    if several_dies:
        return Check(Verdict.UNVERIFIABLE, f"{name}由多颗die封装而成，参考表只收录了{expected}，各die的工艺可能不同，"
                     "无法核实。", expected, first.source_url, first.source_title, Reason.NOT_COMPARABLE)
    wrong = [] if foundry_ok else [f"代工厂是{'/'.join(_FOUNDRY_ZH.get(f, f) for f in sorted(foundries))}"
                                   f"而非{_FOUNDRY_ZH.get(claim.detail or '', claim.detail)}"]
    if not node_ok:
        wrong.append(f"制程不是{claim.value}")
    why = "，".join(wrong)
    return Check(Verdict.CONTRADICTED, f"{where}采用{expected}，文中“{quoted(claim)}”不正确（{why}）。",
                 expected, first.source_url, first.source_title)


def _expected(ref: Reference, chips: list[str], nodes: list[SpecRow]) -> str:
    """"台积电 4N 工艺（GH100）", one per chip."""
    parts = []
    for c in chips:
        foundry = next((str(r.value) for r in ref.facts(c, "foundry")), "")
        node = next((str(r.value) for r in nodes if r.product_id == c), "")
        said = "/".join(f"{r.value}nm" for r in ref.facts(c, "process_nm"))
        also = f"，常写作{said}" if node and "nm" not in node and said else ""  # 4N: "4nm/5nm"
        if node:
            parts.append(f"{_FOUNDRY_ZH.get(foundry, foundry)} {node} 工艺（{ref.name(c)}{also}）".strip())
    return "；".join(dict.fromkeys(parts))


def check_chip_figure(claim: Claim, ref: Reference, tol: Tolerance) -> Check:
    """A figure of the card's die (or of the chip named): the die's, or the package's for several dies of one kind."""
    name = ref.name(claim.subject or "")
    attr_zh = attribute_label(claim.attribute)
    chips = list(dict.fromkeys(_chips(claim, ref)))
    rows = [r for c in chips for r in ref.facts(c, claim.attribute)]
    if not rows or len(chips) != 1 or not isinstance(claim.value, (int, float)):
        return Check(Verdict.UNVERIFIABLE, f"参考表中没有{name}的{attr_zh}数据，无法核实。",
                     reason=Reason.NO_REFERENCE_VALUE if ref.knows(claim.subject or "") else Reason.NOT_IN_REFERENCE)
    factor = CHIP_FIGURES[claim.attribute][1] if float(claim.value) >= 1e6 else 1.0  # 800亿个, or 80 (billion)
    stated = replace(claim, value=float(claim.value) * factor, multiplier=1,
                     extra={**claim.extra, "resolution": float(claim.extra.get("resolution", 0.0)) * factor})
    dies = max((int(float(r.value)) for r in ref.facts(chips[0], "die_count")), default=1)
    per_die = float(rows[0].value)
    expected = _in_words(claim.attribute, per_die, dies)
    where = name if claim.scope is Scope.CHIP else f"{name}的GPU芯片（{ref.name(chips[0])}）"
    first = rows[0]
    rounded = replace(tol, exact=max(tol.exact, _ROUNDED))
    summed = dies > 1 and claim.attribute == "transistors"  # a package's area is not its dies' areas added up
    if numeric_fits(stated, [per_die, per_die * dies] if summed else [per_die], rounded):
        return Check(Verdict.SUPPORTED, f"{where}的{attr_zh}为{expected}，与文中所述相符。", expected,
                     first.source_url, first.source_title)
    if dies > 1 and not summed:
        return Check(Verdict.UNVERIFIABLE, f"{where}由{dies}颗die封装而成，参考表的{attr_zh}为{expected}，"
                     f"文中“{quoted(claim)}”可能是其中一颗die的数值，无法核实。", expected, first.source_url,
                     first.source_title, Reason.NOT_COMPARABLE)
    return Check(Verdict.CONTRADICTED, f"{where}的{attr_zh}应为{expected}，文中“{quoted(claim)}”不正确。", expected,
                 first.source_url, first.source_title)


def _in_words(attribute: str, per_die: float, dies: int) -> str:
    """"800亿个" for 80 billion transistors; "每颗die 1040亿个，2颗合计2080亿个" for a package of two."""
    unit = CHIP_FIGURES[attribute][0]
    scale = 10 if attribute == "transistors" else 1  # billions in 亿
    one = f"{fmt(per_die * scale)}{unit}"
    if dies <= 1 or attribute != "transistors":
        return one
    return f"每颗die {one}，{dies}颗合计{fmt(per_die * scale * dies)}{unit}"


def check_compute_capability(claim: Claim, ref: Reference) -> Check:
    """A card's, die's or architecture's CUDA compute capability: a card has its die's (chips.csv), else its
    architecture's; "8.x" fits any 8.y."""
    written = str(claim.value)
    entity = claim.subject or ""
    facts = ref.facts(entity, "compute_capability")
    named = ref.entity(entity) if not facts and entity not in ref.products else None
    if named is not None:  # an architecture or die, by the name the text gives it
        facts, entity = ref.facts(named.id, "compute_capability"), named.id
    if not facts and entity in ref.products:
        product = ref.products[entity]
        for name in (product.chip, product.architecture):
            found = ref.entity(name) if name else None
            if found is not None and ref.facts(found.id, "compute_capability"):
                facts, entity = ref.facts(found.id, "compute_capability"), found.id
                break
    name = ref.name(claim.subject or "")
    if not facts:
        return Check(Verdict.UNVERIFIABLE, f"参考表中没有{name}的计算能力数据，无法核实。")
    values = [str(f.value) for f in facts]
    expected = "、".join(values)
    fits = any(v == written or (written.lower().endswith(".x") and v.split(".")[0] == written.split(".")[0])
               for v in values)
    first = facts[0]
    if fits:
        return Check(Verdict.SUPPORTED, f"{name}的计算能力为{expected}，与文中所述相符。", expected,
                     first.source_url, first.source_title)
    return Check(Verdict.CONTRADICTED, f"{name}的计算能力应为{expected}，文中“{quoted(claim)}”不正确。", expected,
                 first.source_url, first.source_title)


# the CPU figures a vendor gives as a maximum: a board may be built with less ("up to 480 GB LPDDR5X")
_AT_MOST = frozenset({"cpu_memory_size", "cpu_memory_bandwidth"})


def check_cpu_figure(claim: Claim, ref: Reference, tol: Tolerance) -> Check:
    """A figure of a superchip's CPU die (Grace: 72 cores, up to 480 GB LPDDR5X at up to 512 GB/s), said of the
    die or of the product that holds it. The memory figures are maxima: a smaller one is a smaller configuration."""
    subject = claim.subject or ""
    found = ref.entity(subject)
    entity = subject if subject in ref.products else (found.id if found is not None else "")
    name, attr_zh = ref.name(subject), attribute_label(claim.attribute)
    rows = ref.facts(entity, claim.attribute) if entity else []
    if not rows:
        return Check(Verdict.UNVERIFIABLE, f"参考表中没有{name}的{attr_zh}数据，无法核实。",
                     reason=Reason.NO_REFERENCE_VALUE if ref.knows(subject) else Reason.NOT_IN_REFERENCE)
    first = rows[0]
    where = f"{name}的{attr_zh}"
    if not isinstance(claim.value, (int, float)):
        expected = str(first.value)
        if str(claim.value).replace(" ", "").lower() == expected.replace(" ", "").lower():
            return Check(Verdict.SUPPORTED, f"{where}为{expected}，与文中所述相符。", expected, first.source_url,
                         first.source_title)
        return Check(Verdict.CONTRADICTED, f"{where}应为{expected}，文中“{quoted(claim)}”不正确。", expected,
                     first.source_url, first.source_title)
    most = float(first.value)
    expected = f"{fmt(most)} {first.unit}".strip()
    if numeric_fits(claim, [most], tol):
        return Check(Verdict.SUPPORTED, f"{where}为{expected}，与文中所述相符。", expected, first.source_url,
                     first.source_title)
    if claim.attribute in _AT_MOST and float(claim.value) < most:
        return Check(Verdict.UNVERIFIABLE, f"{where}最高为{expected}；文中“{quoted(claim)}”较小，可能是较小的配置，"
                     "不作判断。", expected, first.source_url, first.source_title, Reason.NOT_COMPARABLE)
    limit = "最高为" if claim.attribute in _AT_MOST else "应为"
    return Check(Verdict.CONTRADICTED, f"{where}{limit}{expected}，文中“{quoted(claim)}”不正确。", expected,
                 first.source_url, first.source_title)
