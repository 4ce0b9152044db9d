"""Feature support checked against the relation tables: a product's own row (product_features.csv), else its
architecture's (architecture_features.csv), else precisions.csv; an architecture by its row; a series by its
members (every one must agree). ``negated`` claims are right when the owner lacks the feature; ``removed`` ones
(取消了, 不再支持) when it lacks it and a predecessor had it. What the tables do not know is ``unverifiable``
(reason ``no_fact``). Explanations come from the catalogue's ``supports.*`` templates."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..config import Tolerance
from ..knowledge.facts import Feature, FeatureStatus, Source
from ..knowledge.reference import Reference
from ..lexicon.labels import message
from ..records import Check, Claim, Reason, Verdict
from .history import architecture_of

HAN = re.compile(r"[\u4e00-\u9fff]")


@dataclass(frozen=True)
class Verdictable:
    """What the tables say of one owner: has it (True/False/None), the row it comes from, how to name the owner."""

    has: bool | None
    row: FeatureStatus | None
    owner: str
    partial: bool = False


def check_supports(claim: Claim, ref: Reference, tol: Tolerance | None = None) -> Check:
    feature = ref.relations.feature(str(claim.value))
    subject = claim.subject or ""
    if feature is None:
        return Check(Verdict.UNVERIFIABLE, message("supports.no_fact", owner=ref.name(subject), feature=claim.value),
                     reason=Reason.NO_FACT)
    label = feature.label
    if claim.extra.get("vendor_class"):
        return _vendor_class(claim, ref, feature, label)
    if not ref.knows(subject):
        return Check(Verdict.UNVERIFIABLE, message("supports.unknown", owner=ref.name(subject), feature=label),
                     reason=Reason.NOT_IN_REFERENCE)
    found = [status_of(ref, pid, feature.name, claim.variant) for pid in ref.members(subject)]
    known = [f for f in found if f.has is not None]
    if not known or (len(known) < len(found) and subject in ref.series):
        return Check(Verdict.UNVERIFIABLE, message("supports.no_fact", owner=ref.name(subject), feature=label),
                     reason=Reason.NO_FACT)
    if len({f.has for f in known}) > 1:  # a series whose members differ: not said of each
        return Check(Verdict.UNVERIFIABLE, message("supports.members_differ", owner=ref.name(subject), feature=label),
                     reason=Reason.OWNER_UNCERTAIN)
    fact = known[0]
    if subject in ref.series:
        fact = Verdictable(fact.has, fact.row, ref.name(subject), fact.partial)
    has = bool(fact.has)
    negated = bool(claim.extra.get("negated"))
    adopted = feature.category in _ADOPTED
    words = {"owner": fact.owner, "feature": label, "stated": claim.text.strip(), "why": _why(fact),
             "has": "采用" if adopted else "支持", "hasnot": "没有采用" if adopted else "不支持"}
    row = fact.row
    source = (row.source.url, row.source.title) if row is not None else ("", "")
    expected = (words["has"] if has else words["hasnot"]) + label
    if claim.extra.get("removed") and not has:
        before = _had_before(ref, subject, feature.name)
        if before:
            return Check(Verdict.SUPPORTED, message("supports.removed_ok", before=before, **words), expected,
                         *source)
    if negated == (not has):
        key = "supports.lacks_ok" if negated else "supports.has_ok"
        return Check(Verdict.SUPPORTED, message(key, **words), expected, *source)
    key = "supports.lacks_bad" if negated else "supports.has_bad"
    return Check(Verdict.CONTRADICTED, message(key, **words), expected, *source)


# features a design adopts rather than supports (a package of several dies, a kind of memory)
_ADOPTED = frozenset({"packaging", "memory"})


def _why(fact: Verdictable) -> str:
    """The row's note when it is written for an editor (in Chinese); the English notes stay in the tables."""
    note = fact.row.note if fact.row is not None else ""
    return f"（{note}）" if HAN.search(note) else ""


def status_of(ref: Reference, subject: str, feature: str, variant: str | None = None) -> Verdictable:
    """Whether a product or architecture has the feature: the product's row, its architecture's, precisions.csv."""
    facts = ref.relations
    name = ref.name(subject)
    if subject in ref.products:
        own = facts.product_status(subject, feature, variant)
        rows = [r for r in own if r.has is not None]
        if rows and len({r.has for r in rows}) == 1:
            return Verdictable(rows[0].has, rows[0], name)
        if own:  # the card's own row says the tables do not know, or its variants differ and the text names none
            return Verdictable(None, own[0], name)
    arch = architecture_of(ref, subject)
    if arch is None:
        return Verdictable(None, None, name)
    owner = name if arch.item_id == subject else f"{name}（{arch.name}架构）"
    row = facts.architecture_status(arch.item_id, feature)
    if row is not None and row.status == "partial":
        # some chips of the architecture have it: true of the architecture, not knowable of one card
        return Verdictable(True if arch.item_id == subject else None, row, owner, partial=True)
    if row is not None and row.has is not None:
        return Verdictable(row.has, row, owner)
    said = ref.precisions.get((arch.name, feature.upper()))
    if said is not None:
        return Verdictable(said[0], FeatureStatus(arch.item_id, feature, "supported" if said[0] else "absent", "",
                                                  Source(said[1], said[2])), owner)
    return Verdictable(None, row, owner)


def _had_before(ref: Reference, subject: str, feature: str) -> str:
    """The predecessor (product, or the architecture's) that had the feature, for 取消了 claims."""
    facts = ref.relations
    kind = "product" if subject in ref.products else "architecture"
    for s in facts.predecessors(subject, kind):
        if status_of(ref, s.item, feature).has:
            return ref.name(s.item)
    arch = architecture_of(ref, subject)
    if arch is not None:
        for s in facts.predecessors(arch.item_id, "architecture"):
            if status_of(ref, s.item, feature).has:
                return f"{ref.name(s.item)}架构"
    return ""


def _vendor_class(claim: Claim, ref: Reference, feature: Feature, label: str) -> Check:
    """"N卡的流处理器频率是核心频率的两倍": the vendor's architectures at the article's date."""
    from .timely import _year, vendor_now

    vendor = claim.subject or ""
    words = {"owner": ref.name(vendor), "feature": label, "stated": claim.text.strip(),
             "date": str(claim.extra.get("as_of") or ""), "has": "支持", "hasnot": "不支持", "why": ""}
    as_of = _year(words["date"])
    if as_of is None:
        return Check(Verdict.UNVERIFIABLE, message("supports.class_undated", **words), reason=Reason.TIME_DEPENDENT)
    archs = vendor_now(ref, vendor, as_of)
    found = [status_of(ref, a.item_id, feature.name) for a in archs]
    if not found or any(f.has is None for f in found) or len({f.has for f in found}) > 1:
        return Check(Verdict.UNVERIFIABLE, message("supports.no_fact", **words), reason=Reason.NO_FACT)
    words["archs"] = "、".join(f"{a.name}（{a.fields.get('launch_year', '')}年）" for a in archs)
    removed = [r for r in ref.relations.architectures.values() if r.feature == feature.name and r.status == "removed"
               and ref.items.get("architecture", {}).get(r.subject) is not None
               and ref.items["architecture"][r.subject].fields.get("vendor") == vendor]
    if removed:
        arch = ref.items["architecture"][removed[0].subject]
        words["why"] = f"（{arch.name}架构（{arch.fields.get('launch_year', '')}年）起取消）"
    row = found[0].row
    source = (row.source.url, row.source.title) if row is not None else ("", "")
    has = bool(found[0].has)
    negated = bool(claim.extra.get("negated"))
    if has != negated:
        return Check(Verdict.SUPPORTED, message("supports.class_ok", **words), label, *source)
    return Check(Verdict.CONTRADICTED, message("supports.class_bad", **words), label, *source)


def check_cooling(claim: Claim, ref: Reference, tol: Tolerance | None = None) -> Check | None:
    """"T4采用主动散热": a board's cooling against its ``passive cooling`` row; None (the figure checks' verdict)
    where the card has no row."""
    subject = claim.subject or ""
    rows = [r for r in ref.relations.product_status(subject, "passive cooling", claim.variant) if r.has is not None]
    if subject not in ref.products or not rows or len({r.has for r in rows}) > 1:
        return None
    passive = bool(rows[0].has)
    said_passive = str(claim.value) == "passive"
    words = {"owner": ref.name(subject), "stated": claim.text.strip(), "actual": "被动散热" if passive else "主动散热"}
    source = (rows[0].source.url, rows[0].source.title)
    if passive == said_passive:
        return Check(Verdict.SUPPORTED, message("cooling.ok", **words), words["actual"], *source)
    return Check(Verdict.CONTRADICTED, message("cooling.bad", **words), words["actual"], *source)
