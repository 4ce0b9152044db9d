"""What a figure is the figure of: one card (``product``), a unit inside the chip (每个SM, 1个SM：…), a full die
(完整的GH100), several GPUs (整机, 每节点, 8卡合计), a link (每条NVLink链路, 每条通道) or a family (an architecture).

Scope comes from the words that say it (``pipeline/lexicon/scopes.csv``), never from the value: a number that
happens to equal the full die's figure is still read as the card's unless the text says 完整.
"""

from __future__ import annotations

import re

from ..records import Mention, Scope
from .cues import LEX, PER_CARD, clause_bounds

# unit names, longest first: "SMSP" is a partition, not an "SM" followed by "SP"
_UNIT = "(?:" + "|".join(sorted(LEX.words("unit_name"), key=len, reverse=True)) + ")"
# 每个SM有…, 单个CU…, 每个HBM堆栈…, "H100的一个SM有…", "1个GCD…": the figure after it is per unit (一个 not the end
# of a larger number: 十一个SM, 21个SM are counts)
# the unit may carry its architecture's or chip's name: 每个Hopper SM, 一个Ada架构的SM, 每个GH100 SM
_UNIT_OF = r"(?:[A-Za-z][\w-]{1,12}\s*(?:架构)?\s*(?:的)?\s*)?"
_PER_UNIT = re.compile(rf"(?:(?:每|单)\s*(?:个|颗|一个)?|(?<![\d.一二三四五六七八九十百千万两])(?:一|1)\s*个)"
                       rf"\s*(?:{_UNIT_OF}(?={_UNIT}(?![A-Za-z])))?({_UNIT})\s*(?:中|内|里|上)?", re.I)
# the same said after the unit: "6个MCD每个集成…", "两个GCD各有…"
_UNIT_EACH = re.compile(rf"({_UNIT})\s*(?:每(?:一)?\s*个|各自|各)", re.I)
# "1个SM：4个分区（…）", "SM内包含…", "一个SM包括…": the sentence lists what one unit holds
_UNIT_SENTENCE = re.compile(
    rf"^[\s\-*•#>]*(?:(?:1|一)\s*个\s*)?({_UNIT})\s*(?:中|内|里)?\s*(?:[:：=]|包含|包括|拥有|有|由)", re.I)
_PER_LINK = [(v, p) for v, p in LEX.groups("per_link")]
# 每个 with no noun after it, a verb or a figure next ("每个带有…", "每个16MB"; not 每个GPU, 每个SM)
_EACH_ALONE = re.compile(r"(?:每|各)\s*(?:一)?\s*个(?=\s*(?:都|均|各|带|有|集成|配|拥|包|内含|含|具|可|提供|\d))")
_COUNTED_UNIT = re.compile(rf"(?:\d+|[两二三四五六七八九十])\s*个\s*({_UNIT})", re.I)
_EACH_COUNTED = re.compile(r"(?:每|单)\s*(?:一)?\s*条(?!\s*(?:NVLink|链路|通道|lane|link))", re.I)
_LINK_NOUN = re.compile(r"链路|NVLink|link", re.I)
_LANE_NOUN = re.compile(r"通道|lane", re.I)
_FULL_CHIP = re.compile(rf"{LEX.alt('full_chip')}\s*(?:的)?\s*$", re.I)
_SYSTEM = LEX.regex("system_word")
_SYSTEM_BEFORE = re.compile(r"((?:DGX|HGX)(?:-\d)?)\s*[（(]?\s*$", re.I)
_SYSTEM_AFTER = re.compile(rf"\s*({LEX.alt('system_word')})", re.I)
# "GB200中的B200", "GB200 NVL72机柜里的B200": the card as part of another product or a system, not standalone
_INSIDE = re.compile(r"[^,，。；;:：、和与及]{0,12}?(?:中|里|内)的\s*(?:(?:每|单)\s*[块张颗个])?\s*")
_BREAKDOWN = re.compile(r"[\d.]+\s*[A-Za-z/]*\s*[(（]\s*\d+\s*[x×X*]\s*$")
_FACTOR = re.compile(r"(\d+)\s*[x×X*]\s*$")
# "X启用了Y的N个SM", "X只开放了Y的…": what the card keeps of the die, said of the die (a part of it)
_ENABLED_OF = re.compile(r"(?:启用|开启|开放|保留|激活)\s*(?:了)?\s*$")


def _unit_value(word: str) -> str | None:
    return LEX.value_of("unit_name", word.strip())


def header_unit(label: str) -> str | None:
    """The unit a table column's figures are per ("每SM CUDA核心", "单个CU流处理器"), else None."""
    found = _PER_UNIT.search(label)
    return _unit_value(found.group(1)) if found else None


def figure_scope(text: str, start: int, mentions: list[Mention], owner: Mention | None,
                 multiplier: int = 1, cards: int | None = None) -> tuple[Scope, str | None]:
    """The scope of the figure at ``start`` in sentence ``text`` whose owner (if named) is ``owner``; ``cards`` is
    how many cards the sentence speaks of, when it says."""
    cs, _ce = clause_bounds(text, start)
    left = text[cs:start]
    factor = _FACTOR.search(left)
    if factor:  # "8 × 80GB = 640GB", "256GB（8 × 32GB）": one card's figure, or a part of one card's total
        n = int(factor.group(1))
        inside = _BREAKDOWN.search(left)
        return (Scope.UNIT, "part") if inside and n != cards else (Scope.PRODUCT, None)
    per_unit = [*_PER_UNIT.finditer(left), *_UNIT_EACH.finditer(left)]
    if per_unit:
        return Scope.UNIT, _unit_value(max(per_unit, key=lambda m: m.end()).group(1))
    opening = _UNIT_SENTENCE.match(text)
    if opening and opening.end() <= start and not (opening.end() <= cs and any(
            m.kind == "product" and cs <= m.start < start for m in mentions)):
        # (a later clause that names a card speaks of the card: "一个GPC包含多个TPC，H100 SXM5共有132个SM")
        return Scope.UNIT, _unit_value(opening.group(1))
    for value, pattern in _PER_LINK:
        if pattern.search(left):
            return Scope.LINK, value
    each_unit = _EACH_ALONE.search(left)
    counted_unit = [*_COUNTED_UNIT.finditer(text, 0, cs + each_unit.start())] if each_unit else []
    if counted_unit:  # "有6个MCD，它们每个带有16MB": 每个 takes the unit counted before it
        return Scope.UNIT, _unit_value(counted_unit[-1].group(1))
    each = _EACH_COUNTED.search(left)
    if each:  # "有12条NVLink链路，每条50GB/s": 每条 takes the links or lanes counted before it
        counted = text[:cs + each.start()]
        if _LANE_NOUN.search(counted):
            return Scope.LINK, "per_lane"
        if _LINK_NOUN.search(counted):
            return Scope.LINK, "per_link"
    if owner is not None and _FULL_CHIP.search(text[max(0, owner.start - 6):owner.start]):
        return Scope.CHIP, owner.text
    if _FULL_CHIP.search(left[-6:]) and not any(cs <= m.start < start for m in mentions):
        return Scope.CHIP, None
    if owner is not None and owner.kind == "product" and any(
            m.kind == "product" and m.ref != owner.ref and m.end <= owner.start
            and _INSIDE.fullmatch(text, m.end, owner.start) for m in mentions):
        return Scope.UNIT, "within"  # its figure there (GB200中的B200功耗1200W) is not the standalone card's
    if owner is not None and owner.kind not in ("chip", "architecture") and PER_CARD.search(left):
        return Scope.PRODUCT, None  # "DGX H100的每个GPU带宽900GB/s": one card's, in the system the text names
    # "DGX H100", "HGX A100": the system named after its cards
    if owner is not None and (system := _SYSTEM_BEFORE.search(text, 0, owner.start)):
        return Scope.SYSTEM, f"{system.group(1)} {owner.text}"
    if multiplier > 1:
        return Scope.SYSTEM, str(multiplier)
    # "GB200 NVL72机柜", "A100服务器": the system the card is in, named after it (not 服务器里每张卡的…)
    if owner is not None and (named_system := _SYSTEM_AFTER.match(text, owner.end)) and not PER_CARD.search(left):
        return Scope.SYSTEM, f"{owner.text} {named_system.group(1)}".strip()
    if _SYSTEM.search(left) and not PER_CARD.search(left):
        return Scope.SYSTEM, None  # a node's, server's or rack's figure (a card's own total, K80总共24GB, is its own)
    if owner is not None and owner.kind == "chip":
        if _ENABLED_OF.search(text, cs, owner.start):  # "H100 SXM5启用了GH100的132个SM": the card's part, not the die's
            return Scope.UNIT, "part"
        return Scope.CHIP, owner.text
    if owner is not None and owner.kind == "architecture":
        return Scope.FAMILY, owner.text
    return Scope.PRODUCT, None
