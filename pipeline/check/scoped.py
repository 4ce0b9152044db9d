"""Claims about something other than one card, checked against the knowledge tables (``Reference.facts``): a full die
(完整的GH100有144个SM), a unit inside a chip (每个SM有128个CUDA核心), an architecture (Hopper架构于2022年发布) and a
link standard (PCIe 4.0 x16 单向32GB/s, NVLink 4.0 每个GPU 900GB/s, 每条链路50GB/s).

What the tables lack is ``unverifiable`` with reason ``scope_not_product`` (a figure of that scope the reference does
not tabulate) or ``no_reference_value``; a flag is raised only against a row of the same scope.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..config import Tolerance
from ..knowledge.database import TITLE
from ..knowledge.reference import NUMERIC_ATTRIBUTES, Reference, SpecRow
from ..knowledge.secondary import architecture_cards
from ..lexicon.labels import attribute_label
from ..records import Check, Claim, Evidence, Reason, Scope, Verdict
from .compare import candidate_rows, fmt, numeric_fits, quoted

# per-unit counts under the names the chips and architectures tables use
_PER_UNIT_NAMES = {"cuda_cores": ("cuda_cores", "fp32_cores"), "stream_processors": ("stream_processors", "fp32_cores")}
# which unit words name which per-unit key of Reference.facts
_PER = {"SM": "SM", "CU": "CU", "partition": "partition", "stack": "stack", "per_link": "link", "per_lane": "lane",
        "TPC": "TPC", "GPC": "GPC", "block": "block", "warp": "warp", "thread": "thread"}
_SCOPE_ZH = {Scope.CHIP: "完整芯片", Scope.UNIT: "单元", Scope.SYSTEM: "整机或多卡", Scope.LINK: "链路",
             Scope.FAMILY: "架构"}
_UNIT_ZH = {"SM": "每个SM", "CU": "每个CU", "partition": "每个分区", "stack": "每个HBM堆栈", "die": "每个die",
            "TPC": "每个TPC", "GPC": "每个GPC", "part": "其中一部分",
            "within": "在所属产品或系统中", "per_link": "每条链路", "per_lane": "每条通道"}
_UNIFIED = re.compile(r"统一内存|统一显存|共享(?:的)?\s*\d*[.\d]*\s*[TGP]B?\s*(?:内存|显存)|共享(?:的)?(?:内存|显存)|"
                      r"CPU|LPDDR|Grace", re.I)
# the marketing figure of GPU links is the total of both directions; a figure without 单向/双向 is read as that total
_TOTAL_QUOTED = ("nvlink", "nvswitch", "infinity_fabric")


def system_of(claim: Claim, ref: Reference) -> str | None:
    """The id of the system a system-scoped claim names ("DGX H100"; "DGX A100 640GB" with its configuration)."""
    names = [f"{claim.scope_detail} {claim.variant}"] if claim.variant else []
    for name in (*names, claim.scope_detail or ""):
        found = ref.entity(name)
        if found is not None and found.kind == "system":
            return found.id
    return None


def scope_label(claim: Claim) -> str:
    """'每个SM', '完整芯片', '链路'... for the explanation."""
    if claim.scope_detail in _UNIT_ZH:
        return _UNIT_ZH[claim.scope_detail]
    return _SCOPE_ZH.get(claim.scope, claim.scope.value)


def _entity(claim: Claim, ref: Reference) -> str | None:
    """The id whose facts the claim is about: a chip, an architecture, a link, or a product (for its chip's units)."""
    subject = claim.subject or ""
    if claim.scope is Scope.SYSTEM:  # "GB200 NVL72": the system the text names, if the systems table has it
        return system_of(claim, ref)
    if subject in ref.products:
        if claim.scope is Scope.CHIP:
            chips = ref.chips_of(subject)
            return chips[0] if len(chips) == 1 else None
        return subject
    if subject in ref.links:
        return subject
    found = ref.entity(subject)
    return found.id if found is not None else None


def _rows(claim: Claim, ref: Reference, entity: str) -> list[SpecRow]:
    per = "" if claim.scope in (Scope.CHIP, Scope.FAMILY) else _PER.get(claim.scope_detail or "", "")
    if claim.scope is Scope.UNIT and not per:
        return []  # a die, a part, a TPC or GPC: not tabulated per unit
    names = _PER_UNIT_NAMES.get(claim.attribute, (claim.attribute,)) if per else (claim.attribute,)
    rows = next((r for r in (ref.facts(entity, n, per) for n in names) if r), [])
    if claim.attribute == "cache_size" and claim.detail:
        rows = [r for r in rows if r.scope.lower() == claim.detail.lower()]
    if claim.attribute == "memory_size" and not _UNIFIED.search(claim.sentence):
        rows = [r for r in rows if r.scope != "unified"]  # GPU memory, unless the text adds the CPU's
    if claim.attribute == "interconnect_bandwidth":
        rows = _directed(claim, ref, entity, rows)
    return rows


def _directed(claim: Claim, ref: Reference, entity: str, rows: list[SpecRow]) -> list[SpecRow]:
    if claim.detail == "单向":
        return [r for r in rows if r.scope == "per_direction"]
    if claim.detail == "双向":
        return [r for r in rows if r.scope == "bidirectional"]
    if entity.startswith(_TOTAL_QUOTED):
        return [r for r in rows if r.scope == "bidirectional"]
    return rows


def _value(claim: Claim, row: SpecRow) -> float | None:
    """The claim's value in the row's unit (cache sizes: KB rows against MB claims)."""
    if not isinstance(claim.value, (int, float)):
        return None
    v = float(claim.value)
    if claim.unit == "MB" and row.unit == "KB":
        return v * 1000
    return v


def _fmt(row: SpecRow) -> str:
    value = row.value if isinstance(row.value, str) else fmt(float(row.value))
    return f"{value} {row.unit}".strip()


def check_scoped(claim: Claim, ref: Reference, tol: Tolerance) -> Check:
    """The verdict on a claim whose scope is not one card."""
    entity = _entity(claim, ref)
    label = scope_label(claim)
    name = ref.name(claim.subject or "")
    if claim.scope is Scope.SYSTEM and entity:
        name, label = ref.name(entity), ""
    attr_zh = attribute_label(claim.attribute)
    rows = _rows(claim, ref, entity) if entity else []
    members = False
    if entity and not rows and claim.scope is Scope.FAMILY:  # "Fermi拥有16个SM": said of the family's dies and cards
        rows, members = _members_rows(claim, ref, entity), True
    if members and claim.attribute == "memory_type" and entity:
        return _family_memory(claim, ref, entity)
    numeric = claim.attribute in NUMERIC_ATTRIBUTES or isinstance(claim.value, (int, float, list))
    if not entity or not rows or not numeric:
        return Check(Verdict.UNVERIFIABLE, f"文中“{claim.text.strip()}”是{name}{label}的{attr_zh}，"
                     "参考表没有这一口径的数据，无法核实。", reason=Reason.SCOPE_NOT_PRODUCT)
    loose = tol if claim.scope is not Scope.LINK else Tolerance(tol.exact, max(tol.exact_rate, 0.05), tol.approx)
    as_written = replace(claim, extra={**claim.extra, "resolution": 0.0}) if claim.scope is Scope.LINK else claim
    fits = [r for r in rows if (v := _value(claim, r)) is not None
            and numeric_fits(replace(as_written, value=v), [float(r.value)], loose)]
    expected = "；".join(dict.fromkeys(_fmt(r) for r in rows))
    if members:  # each figure named by the die or card it is of
        expected = "；".join(dict.fromkeys(f"{ref.name(r.product_id)}：{_fmt(r)}" for r in rows))
    first = (fits or rows)[0]
    where = f"{name}{label}的{attr_zh}"
    if members:
        where = f"{name}{label}各芯片和产品的{attr_zh}"
    if fits:
        return Check(Verdict.SUPPORTED, f"{where}为{expected}，与文中所述相符。", expected, first.source_url,
                     first.source_title)
    if members and not _beyond_all(claim, rows):
        # a family's figure no die or card of the table has, below its largest: a cut-down part may have it
        return Check(Verdict.UNVERIFIABLE, f"{where}为{expected}，都不是文中的“{claim.text.strip()}”；"
                     "该架构可能有参考表未收录的型号，不作判断。", expected, first.source_url, first.source_title,
                     Reason.NO_REFERENCE_VALUE)
    other = _other_link(claim, ref, entity, loose) if claim.scope is Scope.LINK else None
    if other is not None:
        return Check(Verdict.MISATTRIBUTED, f"{where}应为{expected}；文中“{claim.text.strip()}”是{other}的数值。",
                     expected, first.source_url, first.source_title)
    why = _why(claim, rows, loose)
    return Check(Verdict.CONTRADICTED, f"{where}应为{expected}，文中“{claim.text.strip()}”不正确{why}。", expected,
                 first.source_url, first.source_title)


def _members_rows(claim: Claim, ref: Reference, architecture: str) -> list[SpecRow]:
    """The figures of an architecture's dies and cards: a figure said of the family is one of them (the text names
    the family for its flagship die, or for a card of it)."""
    ids = [*ref.chips_of_architecture(architecture), *_family_products(ref, architecture)]
    rows: list[SpecRow] = []
    for member in ids:
        rows += ref.facts(member, claim.attribute) if member not in ref.products else ref.rows(member, claim.attribute)
    return rows


def _family_memory(claim: Claim, ref: Reference, architecture: str) -> Check:
    """"Volta搭配GDDR6X显存": the memory of the family's cards, curated and in the secondary database; a type none of
    them has is wrong (the database's word), one of them has is right."""
    name = ref.name(architecture)
    curated = {str(r.value) for pid in _family_products(ref, architecture) for r in ref.rows(pid, "memory_type")}
    listed = {c.memory_type for c in architecture_cards(name) if c.memory_type}
    stated = str(claim.value)
    if not curated and not listed:
        return Check(Verdict.UNVERIFIABLE, f"参考表没有{name}架构各型号的显存类型，无法核实。",
                     reason=Reason.NO_REFERENCE_VALUE)
    types = sorted(curated | listed)
    expected = "、".join(types)
    fits = any(_same_memory(stated, t) for t in types)
    evidence = Evidence.VENDOR if any(_same_memory(stated, t) for t in curated) or (not fits and not listed) else \
        Evidence.DATABASE
    rows = [r for pid in _family_products(ref, architecture) for r in ref.rows(pid, "memory_type")]
    row = next((r for r in rows if _same_memory(stated, str(r.value))), rows[0] if rows else None)  # a card with it
    url, title = (row.source_url, row.source_title) if row is not None else (None, None)
    if evidence is Evidence.DATABASE:  # the database's word: its page of a card with the type (or of the family)
        cards = [c for c in architecture_cards(name) if c.url and c.memory_type]
        card = next((c for c in cards if _same_memory(stated, c.memory_type or "")), cards[0] if cards else None)
        if card is not None:
            url, title = card.url, TITLE.format(name=card.name)
    if fits:
        return Check(Verdict.SUPPORTED, f"{name}架构的产品使用{expected}显存，与文中所述相符。", expected, url, title,
                     evidence=evidence)
    return Check(Verdict.CONTRADICTED, f"{name}架构的产品使用{expected}显存（参考表与TechPowerUp数据库），"
                 f"没有使用文中所说的“{claim.text.strip()}”的。", expected, url, title, evidence=evidence)


def _same_memory(stated: str, listed: str) -> bool:
    """"HBM" is any HBM; "HBM2" also HBM2e; otherwise the same type."""
    a, b = stated.upper().replace(" ", ""), listed.upper().replace(" ", "")
    return a == b or (a == "HBM" and b.startswith("HBM")) or (a == "HBM2" and b == "HBM2E")


def _beyond_all(claim: Claim, rows: list[SpecRow]) -> bool:
    """The figure is above every die's and card's of its family: none of them has so many (or so much)."""
    values = [float(r.value) for r in rows if isinstance(r.value, (int, float)) or str(r.value).replace(".", "", 1)
              .isdigit()]
    stated = claim.value[0] if isinstance(claim.value, list) else claim.value
    return bool(values) and isinstance(stated, (int, float)) and float(stated) > max(values) * 1.02


def _family_products(ref: Reference, architecture: str) -> list[str]:
    """The products of an architecture, in table order (kept per reference: every family claim asks)."""
    if ref.fingerprint not in _PRODUCTS_BY_ARCHITECTURE:
        by: dict[str, list[str]] = {}
        for pid, p in ref.products.items():
            arch = _entity_id(ref, p.architecture)
            if arch is not None:
                by.setdefault(arch, []).append(pid)
        _PRODUCTS_BY_ARCHITECTURE[ref.fingerprint] = by
    return _PRODUCTS_BY_ARCHITECTURE[ref.fingerprint].get(architecture, [])


_PRODUCTS_BY_ARCHITECTURE: dict[str, dict[str, list[str]]] = {}


def _entity_id(ref: Reference, name: str | None) -> str | None:
    found = ref.entity(name or "")
    return found.id if found is not None else None


def _why(claim: Claim, rows: list[SpecRow], tol: Tolerance) -> str:
    """A likely cause of a wrong link figure: bits written for bytes, or the total given as one direction."""
    if not isinstance(claim.value, (int, float)):
        return ""
    as_written = replace(claim, extra={**claim.extra, "resolution": 0.0})
    if claim.extra.get("bits") and numeric_fits(replace(as_written, value=float(claim.value) * 8),
                                                 [float(r.value) for r in rows], tol):
        return "（疑似把 GB/s（字节）写成了 Gb/s（比特），两者相差 8 倍）"
    if claim.detail == "单向" and any(numeric_fits(replace(as_written, value=float(claim.value) / 2), [float(r.value)],
                                                 tol) for r in rows):
        return "（文中数值是双向合计带宽，单向只有一半）"
    return ""


def _other_link(claim: Claim, ref: Reference, entity: str, tol: Tolerance) -> str | None:
    """Another generation of the same link whose figure the stated one is (NVLink 5.0 given NVLink 4.0's 900 GB/s)."""
    family = entity.rsplit("_", 1)[0]
    per = _PER.get(claim.scope_detail or "", "")
    as_written = replace(claim, extra={**claim.extra, "resolution": 0.0})
    for other in sorted(ref.links):
        if other == entity or other.rsplit("_", 1)[0] != family:
            continue
        rows = _directed(claim, ref, other, ref.facts(other, "interconnect_bandwidth", per))
        if any(numeric_fits(as_written, [float(r.value)], tol) for r in rows):
            return ref.links[other].name
    return None


def check_one_direction(claim: Claim, ref: Reference, tol: Tolerance) -> Check:
    """A card's link figure for one direction (H100的NVLink单向带宽450GB/s). The tables quote a GPU link (NVLink,
    Infinity Fabric) as the total of both directions, so one direction is half of it; other links are not
    tabulated per direction."""
    name, written = ref.name(claim.subject or ""), quoted(claim)
    one = replace(claim, multiplier=1)
    rows = [r for r in candidate_rows(ref, one) if r.scope.lower().replace(" ", "_").startswith(_TOTAL_QUOTED)]
    if not rows or not isinstance(claim.value, (int, float, list)):
        return Check(Verdict.UNVERIFIABLE, f"文中“{written}”是{name}单向的互联带宽，参考表没有这一口径的数据，"
                     "无法核实。", reason=Reason.SCOPE_NOT_PRODUCT)
    halves = [replace(r, value=float(r.value) / 2) for r in rows]
    total = "；".join(dict.fromkeys(f"{_fmt(r)}（{r.scope}）" for r in rows))
    expected = "；".join(dict.fromkeys(_fmt(r) for r in halves))
    fits = [r for r in halves if numeric_fits(one, [float(r.value)], tol)]
    first = (fits or halves)[0]
    if fits:
        return Check(Verdict.SUPPORTED, f"{name}的互联带宽为{total}（双向合计），单向为{expected}，与文中所述相符。",
                     expected, first.source_url, first.source_title)
    both_ways = any(numeric_fits(one, [float(r.value)], tol) for r in rows)
    why = "（文中数值是双向合计带宽，单向只有一半）" if both_ways else ""
    return Check(Verdict.CONTRADICTED, f"{name}的单向互联带宽应为{expected}（双向合计{total}），文中“{written}”"
                 f"不正确{why}。", expected, first.source_url, first.source_title)
