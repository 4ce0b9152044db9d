"""History claims checked against the architectures and links tables: which architecture introduced a feature
(``introduced_by``, from the ``introduced`` column), whether a product or architecture was the first with it
(``first``: the earliest introducing architecture by launch year, and for a product the earliest product of it), and
generation numbers (``generation``: the ``*_generation`` columns, NVSwitch from links.csv).

A product is judged by its architecture. What the tables do not record (a feature no row lists, an AMD card's Tensor
Core generation) is ``unverifiable`` with its reason.
"""

from __future__ import annotations

from ..config import Tolerance
from ..knowledge.reference import Item, Reference, split_list
from ..normalize import normalize_key
from ..records import Check, Claim, Reason, Verdict

_FEATURE_ZH = {"tensor_core_generation": "Tensor Core", "rt_core_generation": "RT Core",
               "transformer_engine_generation": "Transformer Engine", "nvlink_generation": "NVLink",
               "nvswitch_generation": "NVSwitch", "nvlink_c2c_generation": "NVLink-C2C"}
# generations counted in links.csv rather than architectures.csv: the column -> the links' kind
_LINK_GENERATIONS = {"nvswitch_generation": "nvswitch", "nvlink_c2c_generation": "nvlink_c2c"}

MESSAGES = {
    "unknown": "参考表中没有{name}，无法核实。",
    "no_architecture": "参考表中没有{name}的架构资料，无法核实。",
    "no_generation": "参考表没有记录{arch}架构的{feature}代数，无法核实。",
    "no_introducer": "参考表没有记录{feature}由哪一代架构首次引入，无法核实。",
    "generation_ok": "{owner}的{feature}是第{expected}代，与文中“{stated}”相符。",
    "generation_bad": "{owner}的{feature}是第{expected}代，不是文中所说的第{value}代。",
    "not_generation_ok": "{owner}的{feature}是第{expected}代，确实不是第{value}代。",
    "not_generation_bad": "{owner}的{feature}正是第{value}代，文中“{stated}”不正确。",
    "same_time": "参考表记录{feature}由{introducers}首次引入；{owner}是否在自己的产品线上首次引入，参考表无法判断。",
    "introduced_ok": "{feature}由{introducers}首次引入，与文中“{stated}”相符。",
    "introduced_bad": "{feature}由{introducers}首次引入，不是{owner}；文中“{stated}”不正确。",
    "not_introduced_ok": "{feature}由{introducers}首次引入，确实不是{owner}。",
    "not_introduced_bad": "{feature}正是由{owner}首次引入的，文中“{stated}”不正确。",
    "first_ok": "{feature}由{introducers}首次引入，{owner}是最早具备它的{what}，与文中“{stated}”相符。",
    "first_bad": "{feature}由{introducers}首次引入，{owner}不是最早具备它的{what}（{earliest}更早）；文中“{stated}”"
                 "不正确。",
    "named_ok": "{names}，与文中“{stated}”相符。",
    "named_bad": "{names}，{which}不是{profession}；文中“{stated}”不正确。",
    "not_named_ok": "{names}，确实不是{profession}。",
    "not_named_bad": "{names}，正是{profession}；文中“{stated}”不正确。",
    "no_name": "参考表没有记录{name}的命名由来，无法核实。",
    "not_first_ok": "{feature}由{introducers}首次引入，{owner}确实不是最早具备它的{what}。",
    "not_first_bad": "{feature}由{introducers}首次引入，{owner}正是最早具备它的{what}，文中“{stated}”不正确。",
}


def check_history(claim: Claim, ref: Reference, tol: Tolerance) -> Check:
    """The verdict on a generation, introduction, "first" or naming claim."""
    subject = claim.subject or ""
    if claim.attribute == "named_after":
        return _named_after(claim, ref)
    name = ref.name(subject)
    if not ref.knows(subject):
        return Check(Verdict.UNVERIFIABLE, MESSAGES["unknown"].format(name=name), reason=Reason.NOT_IN_REFERENCE)
    arch = architecture_of(ref, subject)
    if arch is None:
        return Check(Verdict.UNVERIFIABLE, MESSAGES["no_architecture"].format(name=name),
                     reason=Reason.NO_REFERENCE_VALUE)
    owner = name if subject == arch.item_id else f"{name}（{arch.name}架构）"
    if claim.attribute == "generation":
        return _generation(claim, ref, arch, owner)
    return _introduction(claim, ref, arch, owner, subject)


def architecture_of(ref: Reference, ref_id: str) -> Item | None:
    """The architectures-table row of an architecture id, or of a product's architecture."""
    table = ref.items.get("architecture", {})
    if ref_id in table:
        return table[ref_id]
    product = ref.products.get(ref_id)
    found = ref.entity(product.architecture) if product is not None and product.architecture else None
    return table.get(found.id) if found is not None and found.kind == "architecture" else None


def _generation(claim: Claim, ref: Reference, arch: Item, owner: str) -> Check:
    column = claim.detail or ""
    feature = _FEATURE_ZH.get(column, column)
    expected = _generation_of(ref, arch, column)
    source = (arch.source_url, arch.source_title)
    if expected is None or not isinstance(claim.value, (int, float)):
        return Check(Verdict.UNVERIFIABLE, MESSAGES["no_generation"].format(arch=arch.name, feature=feature),
                     reason=Reason.NO_REFERENCE_VALUE)
    words = {"owner": owner, "feature": feature, "expected": expected, "value": int(claim.value),
             "stated": claim.text.strip()}
    same = expected == int(claim.value)
    if claim.extra.get("negated"):
        key = "not_generation_ok" if not same else "not_generation_bad"
        return Check(Verdict.SUPPORTED if not same else Verdict.CONTRADICTED, MESSAGES[key].format(**words),
                     f"第{expected}代", *source)
    key = "generation_ok" if same else "generation_bad"
    return Check(Verdict.SUPPORTED if same else Verdict.CONTRADICTED, MESSAGES[key].format(**words),
                 f"第{expected}代", *source)


def _generation_of(ref: Reference, arch: Item, column: str) -> int | None:
    kind = _LINK_GENERATIONS.get(column)
    if kind is not None:  # links.csv: the generation of the link of this kind whose architectures list this one
        for link in ref.items.get("link", {}).values():
            if link.fields.get("kind") == kind and arch.name in split_list(link.fields.get("architectures", "")):
                return _int(link.fields.get("generation", ""))
        return None
    return _int(arch.fields.get(column, ""))


def _int(text: str) -> int | None:
    try:
        return int(float(text))
    except ValueError:
        return None


def introducers(ref: Reference, feature: str) -> list[Item]:
    """The architectures whose ``introduced`` column lists ``feature``, or whose architecture_features.csv row says
    they introduced it (first in their vendor's line), oldest first."""
    key = normalize_key(feature)
    table = ref.items.get("architecture", {})
    found = [a for a in table.values()
             if key in {normalize_key(f) for f in split_list(a.fields.get("introduced", ""))}]
    named = ref.relations.feature(feature)
    if named is not None:
        found += [table[a] for a in ref.relations.introducers(named.name) if a in table and table[a] not in found]
    return sorted(found, key=lambda a: (_int(a.fields.get("launch_year", "")) or 9999, a.name))


def _year(arch: Item) -> str:
    return arch.fields.get("launch_year", "")


def _introduction(claim: Claim, ref: Reference, arch: Item, owner: str, subject: str) -> Check:
    feature = str(claim.value)
    found = introducers(ref, feature)
    vendor = claim.extra.get("vendor")
    if vendor:
        found = [a for a in found if a.fields.get("vendor") == vendor]
    if not found:
        return Check(Verdict.UNVERIFIABLE, MESSAGES["no_introducer"].format(feature=feature),
                     reason=Reason.NO_REFERENCE_VALUE)
    names = "、".join(f"{a.name.removesuffix('架构')}架构（{_year(a)}年）" for a in found)
    named = ref.relations.feature(feature)
    shown = named.label if named is not None else feature  # its Chinese name where the name describes it
    words = {"feature": shown, "introducers": names, "owner": owner, "stated": claim.text.strip()}
    source = (found[0].source_url, found[0].source_title)
    expected = "、".join(a.name for a in found)
    if claim.attribute == "introduced_by":
        holds = any(a.item_id == arch.item_id for a in found)
        if not holds and not _cannot_have(arch, found):
            return Check(Verdict.UNVERIFIABLE, MESSAGES["same_time"].format(**words), expected, *source,
                         reason=Reason.NO_REFERENCE_VALUE)
        if claim.extra.get("negated"):
            key = "not_introduced_ok" if not holds else "not_introduced_bad"
            return Check(Verdict.SUPPORTED if not holds else Verdict.CONTRADICTED, MESSAGES[key].format(**words),
                         expected, *source)
        key = "introduced_ok" if holds else "introduced_bad"
        return Check(Verdict.SUPPORTED if holds else Verdict.CONTRADICTED, MESSAGES[key].format(**words), expected,
                     *source)
    return _first(claim, ref, arch, subject, found, words, source)


def _cannot_have(arch: Item, found: list[Item]) -> bool:
    """The owner's architecture cannot have introduced the feature: it came before every architecture that did, or
    after one of its own vendor's that did. (One launched the same year as the introducer, or by another vendor
    after it, may have brought the feature to its own line: the table cannot say.)"""
    year = _int(_year(arch))
    if year is None:
        return False
    years = [_int(_year(a)) for a in found]
    if all(y is not None and year < y for y in years):
        return True
    return any(a.fields.get("vendor") == arch.fields.get("vendor") and y is not None and y < year
               for a, y in zip(found, years, strict=True))


def _first(claim: Claim, ref: Reference, arch: Item, subject: str, found: list[Item], words: dict[str, str],
           source: tuple[str, str]) -> Check:
    """The first architecture with a feature is the earliest introducing one; the first product, the earliest
    product of that architecture (by launch year: products launched the same year all count as first)."""
    first_year = _int(_year(found[0]))
    earliest = [a for a in found if _int(_year(a)) == first_year]
    holds = any(a.item_id == arch.item_id for a in earliest)
    what = "架构"
    other = "、".join(a.name for a in earliest if a.item_id != arch.item_id)
    if subject in ref.products:
        what = "产品"
        archs = {a.name for a in earliest}
        years = {pid: _int(p.launch_year) for pid, p in ref.products.items() if p.architecture in archs}
        known = [y for y in years.values() if y is not None]
        own = years.get(subject)
        if holds and own is not None and known and own > min(known):
            holds = False
            other = "、".join(ref.name(pid) for pid, y in years.items() if y == min(known))
    words = {**words, "what": what, "earliest": other or "其他产品"}
    expected = "、".join(a.name for a in earliest)
    if claim.extra.get("negated"):
        key = "not_first_bad" if holds else "not_first_ok"
        return Check(Verdict.CONTRADICTED if holds else Verdict.SUPPORTED, MESSAGES[key].format(**words), expected,
                     *source)
    if holds:
        return Check(Verdict.SUPPORTED, MESSAGES["first_ok"].format(**words), expected, *source)
    return Check(Verdict.CONTRADICTED, MESSAGES["first_bad"].format(**words), expected, *source)


# what architectures.csv's named_after says, in the words an editor reads
_PROFESSION_ZH = {"physicist": "物理学家", "mathematician": "数学家", "computer scientist": "计算机科学家",
                  "astronomer": "天文学家", "statistician": "统计学家", "scientist": "科学家"}
_SCIENTISTS = ("physicist", "mathematician", "computer scientist", "astronomer", "statistician")


def _is(arch: Item, profession: str) -> bool:
    said = arch.fields.get("named_after", "").lower()
    if profession == "scientist":
        return any(p in said for p in _SCIENTISTS)
    return profession in said


def _person(arch: Item) -> str:
    """Whom the architecture is named after, in an editor's words: the person (a proper name) and the professions
    in Chinese (named_after's English description left out)."""
    said = arch.fields.get("named_after", "")
    person = said.split(",")[0].strip()
    professions = "、".join(zh for en, zh in _PROFESSION_ZH.items() if en != "scientist" and en in said.lower())
    return f"{person}（{professions or '见参考表'}）"


def _who(arch: Item) -> str:
    return f"{arch.name}架构以{_person(arch)}命名"


def _named_after(claim: Claim, ref: Reference) -> Check:
    """"X架构以物理学家命名": the architecture's named_after; for a vendor's architectures as a class, every one
    (or most, with 大多/多) of them."""
    profession = str(claim.value)
    table = ref.items.get("architecture", {})
    if claim.extra.get("every_architecture"):
        archs = [a for a in table.values() if a.fields.get("vendor") == claim.subject and a.fields.get("named_after")]
        name = ref.name(claim.subject or "")
    else:
        one = table.get(claim.subject or "")
        archs = [one] if one is not None and one.fields.get("named_after") else []
        name = one.name if one is not None else ref.name(claim.subject or "")
    if not archs:
        return Check(Verdict.UNVERIFIABLE, MESSAGES["no_name"].format(name=name), reason=Reason.NO_REFERENCE_VALUE)
    fitting = [a for a in archs if _is(a, profession)]
    holds = len(fitting) * 2 > len(archs) if claim.extra.get("most") else len(fitting) == len(archs)
    negated = bool(claim.extra.get("negated"))
    if negated:
        holds = not holds
    others = [a for a in archs if not _is(a, profession)]
    shown = (fitting if holds != negated else others)[:4]  # what makes the verdict
    words = {"names": "；".join(_who(a) for a in shown), "which": "、".join(a.name for a in others),
             "profession": _PROFESSION_ZH.get(profession, profession), "stated": claim.text.strip()}
    expected = "；".join(f"{a.name}：{_person(a)}" for a in shown)
    source = (shown[0].source_url, shown[0].source_title) if shown else ("", "")
    if negated:
        key = "not_named_ok" if holds else "not_named_bad"
        return Check(Verdict.SUPPORTED if holds else Verdict.CONTRADICTED, MESSAGES[key].format(**words), expected,
                     *source)
    if holds:
        return Check(Verdict.SUPPORTED, MESSAGES["named_ok"].format(**words), expected, *source)
    return Check(Verdict.CONTRADICTED, MESSAGES["named_bad"].format(**words), expected, *source)
