"""Lineage, die positions and composition checked against the relation tables (lineage.csv, die_positions.csv,
composition.csv; for an architecture's dies, its ``multi-die GPU`` row of architecture_features.csv). The counts the
open vocabulary reads (``die_count``, ``chiplet_count``, ``xcd_count``, ``gcd_count``, ``iod_count``,
``ccd_count``, ``nvswitch_count``, ``hbm_stacks``) are checked here too. Explanations from the catalogue's
templates."""

from __future__ import annotations

import re
from dataclasses import replace

from ..config import Tolerance
from ..knowledge.facts import DIE_KINDS, Component
from ..knowledge.reference import Reference
from ..lexicon.labels import label, message
from ..records import Check, Claim, Qualifier, Reason, Scope, Verdict
from .scoped import system_of

# an open-vocabulary count -> (the composition kinds it counts, the component's name when it names one)
COUNTS: dict[str, tuple[frozenset[str], str]] = {
    "xcd_count": (frozenset({"compute_die"}), "XCD"), "gcd_count": (frozenset({"compute_die"}), "GCD"),
    "iod_count": (frozenset({"io_die"}), "IOD"), "ccd_count": (frozenset({"cpu_die"}), "CCD"),
    "die_count": (frozenset({"die", "compute_die"}), ""), "chiplet_count": (DIE_KINDS, ""),
    "nvswitch_count": (frozenset({"switch_chip"}), ""), "hbm_stacks": (frozenset({"memory_stack"}), ""),
}
COUNT_ATTRIBUTES = frozenset(COUNTS)
_KIND_ZH = {"die": "芯片（die）", "compute_die": "计算芯片", "io_die": "I/O芯片", "memory_die": "内存缓存芯片",
            "cpu_die": "CPU芯片", "memory_stack": "HBM堆栈", "gpu": "GPU", "cpu": "CPU", "switch_chip": "NVSwitch芯片",
            "superchip": "超级芯片", "tray": "托盘"}


def check_lineage(claim: Claim, ref: Reference, tol: Tolerance | None = None) -> Check | None:
    """The verdict; None for a count this module does not judge (one die's or unit's, left to the figure checks)."""
    if claim.attribute in COUNT_ATTRIBUTES and claim.scope not in (Scope.PRODUCT, Scope.SYSTEM):
        return None
    if claim.attribute in ("predecessor", "successor"):
        return _lineage(claim, ref)
    if claim.attribute == "die_position":
        return _position(claim, ref)
    return _composition(claim, ref)


def _lineage(claim: Claim, ref: Reference) -> Check:
    x, y = claim.subject or "", str(claim.value)
    kind = "architecture" if ref.kind_of(x) == "architecture" else "product"
    facts = ref.relations
    relation = claim.attribute
    rows = facts.successors(x, kind) if relation == "successor" else facts.predecessors(x, kind)
    others = [r.successor if relation == "successor" else r.item for r in rows]
    words = {"x": ref.name(x), "y": ref.name(y), "stated": claim.text.strip(),
             "relation": "继任者" if relation == "successor" else "前代",
             "others": "、".join(ref.name(o) for o in others)}
    if not rows:
        return Check(Verdict.UNVERIFIABLE, message("lineage.no_fact", **words), reason=Reason.NO_FACT)
    holds = y in others
    source = (rows[0].source.url, rows[0].source.title)
    negated = bool(claim.extra.get("negated"))
    if holds != negated:
        key = "lineage.not_ok" if negated else "lineage.ok"
        return Check(Verdict.SUPPORTED, message(key, **words), words["others"], *source)
    key = "lineage.not_bad" if negated else "lineage.bad"
    return Check(Verdict.CONTRADICTED, message(key, **words), words["others"], *source)


def _position(claim: Claim, ref: Reference) -> Check:
    subject = claim.subject or ""
    row = ref.relations.positions.get(subject)
    said = str(claim.value)
    words = {"name": ref.name(subject), "stated": claim.text.strip(),
             "said": label("value", f"die_position:{said}") or said}
    if row is None:
        return Check(Verdict.UNVERIFIABLE, message("position.no_fact", **words), reason=Reason.NO_FACT)
    words.update(actual=label("value", f"die_position:{row.position}") or row.position, of=row.relative_to,
                 note=f"（{row.note}）" if row.note and not row.note.isascii() else "")
    source = (row.source.url, row.source.title)
    holds = row.position == said
    negated = bool(claim.extra.get("negated"))
    expected = f"{words['actual']}（{row.relative_to}）"
    if holds != negated:
        return Check(Verdict.SUPPORTED, message("position.ok", **words), expected, *source)
    return Check(Verdict.CONTRADICTED, message("position.bad", **words), expected, *source)


def _composition(claim: Claim, ref: Reference) -> Check:
    whole = claim.subject or ""
    if claim.scope is Scope.SYSTEM:
        whole = system_of(claim, ref) or whole
    if ref.kind_of(whole) == "architecture" and claim.attribute == "composed_of":
        return _architecture_dies(claim, ref, whole)
    kinds, name = COUNTS.get(claim.attribute, (frozenset({claim.detail or "die"}), ""))
    if kinds == {"die"}:
        kinds = frozenset({"die", "compute_die"})
    parts = [p for p in ref.relations.components.get(whole, []) if p.variant == "base" or (
        claim.variant and p.variant.lower() in claim.variant.lower())]
    shown = [p for p in parts if p.kind in kinds or (p.kind in DIE_KINDS and kinds & DIE_KINDS)]
    words = {"name": ref.name(whole), "stated": claim.text.strip(), "parts": _listing(ref, shown or parts)}
    if not parts or not isinstance(claim.value, (int, float)):
        return Check(Verdict.UNVERIFIABLE, message("composition.no_fact", **words), reason=Reason.NO_FACT)
    source = (parts[0].source.url, parts[0].source.title)
    if name:
        same = [p for p in parts if p.component == name]
        if not same and any(p.kind in kinds for p in parts):
            relation = ref.relations.relation(name, next(p.component for p in parts if p.kind in kinds))
            words["note"] = f"；{relation.note_zh}" if relation is not None else ""
            words["said"] = name
            return Check(Verdict.CONTRADICTED, message("composition.wrong_part", **words), words["parts"], *source)
        counted = same
    else:
        counted = [p for p in parts if p.kind in kinds]
    if not counted and claim.attribute == "die_count" and _DIES_SAID.match(claim.sentence, _after(claim)):
        # a superchip's dies are its GPUs' (GB200: two B200 of two dies each); "两颗GPU芯片" may mean the GPUs
        counted = [replace(p, count=p.count * sum(d.count for d in dies), kind="compute_die") for p in parts
                   if p.kind == "gpu" and (dies := [d for d in ref.relations.components.get(p.component, [])
                                                    if d.variant == "base" and d.kind in kinds])]
        if counted:
            words["parts"] = "、".join(f"{p.count}个{_part_name(ref, p)}" for p in parts if p.kind == "gpu") + \
                f"（共{sum(p.count for p in counted)}个GPU die）"
    if not counted:
        return Check(Verdict.UNVERIFIABLE, message("composition.no_fact", **words), reason=Reason.NO_FACT)
    totals = {sum(p.count for p in counted)}
    if claim.attribute == "die_count" or claim.detail == "die":  # dies: the compute dies, or every die
        totals.add(sum(p.count for p in parts if p.kind in DIE_KINDS))
    value = int(claim.value)
    holds = _fits(value, totals, claim.qualifier)
    if claim.extra.get("negated"):
        holds = not holds
    if holds:
        return Check(Verdict.SUPPORTED, message("composition.ok", **words), words["parts"], *source)
    return Check(Verdict.CONTRADICTED, message("composition.bad", **words), words["parts"], *source)


_DIES_SAID = re.compile(r"\s*(?:GPU|计算)?\s*(?:die|晶粒|裸片|裸晶|小芯片)", re.I)


def _after(claim: Claim) -> int:
    return int(claim.extra.get("offset_in_sentence", 0)) + len(claim.text)


def _fits(value: int, totals: set[int], qualifier: Qualifier) -> bool:
    if qualifier is Qualifier.AT_LEAST:
        return any(t >= value for t in totals)
    if qualifier is Qualifier.AT_MOST or qualifier is Qualifier.UP_TO:
        return any(t <= value for t in totals)
    return value in totals


def _listing(ref: Reference, parts: list[Component]) -> str:
    """"8个XCD、4个IOD、8个HBM3堆栈", "8个NVIDIA H100、4个NVSwitch芯片"."""
    return "、".join(f"{p.count}个{_part_name(ref, p)}" for p in parts)


def _part_name(ref: Reference, p: Component) -> str:
    if p.kind == "memory_stack":
        return f"{p.component}堆栈"
    if ref.knows(p.component):  # a product, chip or system of the tables: by its name
        return ref.name(p.component)
    if p.component.isupper() or p.kind in ("gpu", "cpu", "superchip", "tray"):
        return p.component
    return _KIND_ZH.get(p.kind, p.kind)


def _architecture_dies(claim: Claim, ref: Reference, arch: str) -> Check:
    """"该架构采用了4颗芯片的模块化设计": an architecture's GPUs are one die unless its multi-die row says otherwise."""
    row = ref.relations.architecture_status(arch, "multi-die GPU")
    words = {"name": ref.name(arch).removesuffix("架构"), "stated": claim.text.strip()}
    if row is None or not isinstance(claim.value, (int, float)) or row.status not in ("absent", "removed"):
        return Check(Verdict.UNVERIFIABLE, message("composition.no_fact", **words, parts=""), reason=Reason.NO_FACT)
    holds = int(claim.value) == 1
    if claim.extra.get("negated"):
        holds = not holds
    source = (row.source.url, row.source.title)
    if holds:
        return Check(Verdict.SUPPORTED, message("composition.monolithic_ok", **words), "单芯片", *source)
    return Check(Verdict.CONTRADICTED, message("composition.monolithic_bad", **words), "单芯片", *source)
