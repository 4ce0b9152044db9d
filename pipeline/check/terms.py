"""Terms, links, memory and number formats checked against the relation tables: an abbreviation's expansion
(term_expansions.csv), two terms said to be one (term_relations.csv), a chip called a card, what a link or memory
is (link_facts.csv), a DRAM latency, a number format's bits and range (number_formats.csv). Explanations come from
the catalogue's templates (labels.csv kind ``message``)."""

from __future__ import annotations

import math

from ..config import Tolerance
from ..extract.terms import expansion_words
from ..knowledge.reference import Reference
from ..lexicon.labels import label, message
from ..normalize import normalize_key
from ..records import Check, Claim, Reason, Verdict


def check_term_fact(claim: Claim, ref: Reference, tol: Tolerance | None = None) -> Check:
    checks = {"stands_for": _stands_for, "term_identity": _identity, "chip_identity": _chip,
              "link_property": _link, "memory_latency": _latency, "format_property": _format,
              "slot_powered": _slot_powered}
    return checks[claim.attribute](claim, ref)


def _no_fact(text: str) -> Check:
    return Check(Verdict.UNVERIFIABLE, text, reason=Reason.NO_FACT)


def _stands_for(claim: Claim, ref: Reference) -> Check:
    abbreviation = str(claim.extra.get("abbreviation") or claim.subject_mention or "")
    entry = ref.relations.expansion(abbreviation)
    said = str(claim.value)
    if entry is None or entry.expansion == "-":
        return _no_fact(message("stands_for.no_fact", abbreviation=abbreviation))
    words = {"abbreviation": abbreviation, "expansion": entry.expansion, "zh": entry.expansion_zh,
             "stated": said, "note": f"（{entry.note}）" if entry.note and _han(entry.note) else ""}
    source = (entry.source.url, entry.source.title)
    expected = entry.expansion + (f"（{entry.expansion_zh}）" if entry.expansion_zh not in ("", "-") else "")
    if _han(said):  # a Chinese rendering: confirmed when it is the usual one, never flagged (renderings vary)
        if normalize_key(said) == normalize_key(entry.expansion_zh):
            return Check(Verdict.SUPPORTED, message("stands_for.ok", **words), expected, *source)
        return _no_fact(message("stands_for.zh_other", **words))
    stated = expansion_words(said)
    true = expansion_words(entry.expansion)
    wrong = any(stated == expansion_words(w) for w in entry.wrong)
    # a word may be shortened (Multi for Multiple): it fits a true word it begins, or that begins it
    known = [w for w in stated if any(t.startswith(w) or w.startswith(t) for t in true)]
    if not wrong and len(known) == len(stated) and len(known) >= max(1, len(true) - 1):
        return Check(Verdict.SUPPORTED, message("stands_for.ok", **words), expected, *source)
    return Check(Verdict.CONTRADICTED, message("stands_for.bad", **words), expected, *source)


def _han(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def _identity(claim: Claim, ref: Reference) -> Check:
    a, b = claim.subject_mention or claim.subject or "", str(claim.value)
    negated = bool(claim.extra.get("negated"))
    words = {"a": a, "b": b, "stated": claim.text.strip()}
    if _same(ref, claim.subject or a, a, b):
        key = "identity.same_bad" if negated else "identity.same_ok"
        return Check(Verdict.CONTRADICTED if negated else Verdict.SUPPORTED, message(key, **words), f"{a}即{b}")
    relation = ref.relations.relation(a, b) or ref.relations.relation(ref.name(claim.subject or a), b)
    if relation is None:
        return _no_fact(message("identity.no_fact", **words))
    words["note"] = relation.note_zh
    source = (relation.source.url, relation.source.title)
    expected = f"{a}与{b}不是同一事物"
    if negated:
        return Check(Verdict.SUPPORTED, message("identity.differ_ok", **words), expected, *source)
    return Check(Verdict.CONTRADICTED, message("identity.differ_bad", **words), expected, *source)


def _same(ref: Reference, subject: str, a: str, b: str) -> bool:
    """B names the same thing as A: the same entity, an alias of A's term, or A's abbreviation or expansion."""
    found_a, found_b = ref.entity(a), ref.entity(b)
    if found_a is not None and found_b is not None:
        return found_a.id == found_b.id
    names = {normalize_key(a)}
    entry = ref.relations.expansion(a)
    if entry is not None:
        names |= {normalize_key(entry.expansion), normalize_key(entry.expansion_zh)}
    term = ref.terms.get(subject)
    if term is not None:
        names |= {normalize_key(n) for n in (term.name, *term.aliases)}
    return normalize_key(b) in names


def _chip(claim: Claim, ref: Reference) -> Check:
    chip = claim.subject or ""
    if ref.kind_of(chip) != "chip" and normalize_key(ref.name(chip)) not in ref.chips:
        return _no_fact(message("chip.no_fact", chip=claim.subject_mention or chip))
    name = ref.name(chip)
    used = "、".join(ref.name(p) for p in ref.products_with_chip(name)[:4])
    products = f"，用于{used}等产品" if used else ""
    item = ref.items.get("chip", {}).get(chip)
    arch = item.fields.get("architecture", "") if item is not None else ""
    source = (item.source_url, item.source_title) if item is not None else ("", "")
    words = {"chip": name, "architecture": f"{arch.removesuffix('架构')}架构的" if arch else "", "products": products,
             "stated": claim.text.strip()}
    return Check(Verdict.CONTRADICTED, message("chip.not_a_card", **words), f"{name}是GPU芯片", *source)


def _link(claim: Claim, ref: Reference) -> Check:
    prop, _, value = str(claim.value).partition(":")
    fact = ref.relations.links.get((claim.subject or "", prop))
    name = claim.subject_mention or ref.name(claim.subject or "")
    if fact is None:
        return _no_fact(message("link.no_fact", name=name))
    holds = value in fact.value.split("|")
    negated = bool(claim.extra.get("negated"))
    said = label("value", f"link_property:{value}") or value
    words = {"name": name, "note": fact.note_zh, "stated": claim.text.strip(), "said": said}
    source = (fact.source.url, fact.source.title)
    expected = "、".join(label("value", f"link_property:{v}") or v for v in fact.value.split("|"))
    if holds != negated:
        return Check(Verdict.SUPPORTED, message("link.ok", **words), expected, *source)
    return Check(Verdict.CONTRADICTED, message("link.bad", **words), expected, *source)


def _latency(claim: Claim, ref: Reference) -> Check:
    kinds = [claim.subject] if claim.subject in ("hbm", "gddr6") else ["hbm", "gddr6"]
    ranges: list[tuple[float, float]] = []
    facts = []
    for kind in kinds:
        fact = ref.relations.links.get((kind or "", "access_latency_ns"))
        if fact is not None:
            first, _, last = fact.value.partition("-")
            ranges.append((float(first), float(last or first)))
            facts.append(fact)
    if not ranges or not isinstance(claim.value, (int, float)):
        return _no_fact(message("latency.no_fact"))
    low, high = min(r[0] for r in ranges), max(r[1] for r in ranges)
    value = float(claim.value)
    words = {"low": f"{low:g}", "high": f"{high:g}", "stated": claim.text.strip(), "note": facts[0].note_zh}
    source = (facts[0].source.url, facts[0].source.title)
    expected = f"约{low:g}–{high:g} ns"
    if low * 0.7 <= value <= high * 1.3:
        return Check(Verdict.SUPPORTED, message("latency.ok", **words), expected, *source)
    if value < low / 2 or value > high * 2:
        return Check(Verdict.CONTRADICTED, message("latency.bad", **words), expected, *source)
    return _no_fact(message("latency.near", **words))


_PARTS = {"exponent_bits": "指数位", "mantissa_bits": "尾数位", "bits": "总位数", "max_normal": "最大值"}


def _format(claim: Claim, ref: Reference) -> Check:
    fmt = ref.relations.number_format(claim.subject or "")
    part = claim.detail or ""
    if fmt is None or part not in _PARTS or not isinstance(claim.value, (int, float)):
        return _no_fact(message("format.no_fact", name=claim.subject_mention or claim.subject))
    true = float(getattr(fmt, part))
    value = float(claim.value)
    holds = math.isclose(value, true, rel_tol=0.02) if part == "max_normal" else value == true
    shown = f"{true:g}" if part == "max_normal" else f"{int(true)}位"
    words = {"format": fmt.name, "part": _PARTS[part], "true": shown, "stated": claim.text.strip()}
    source = (fmt.source.url, fmt.source.title)
    if holds:
        return Check(Verdict.SUPPORTED, message("format.ok", **words), shown, *source)
    return Check(Verdict.CONTRADICTED, message("format.bad", **words), shown, *source)


def _slot_powered(claim: Claim, ref: Reference) -> Check:
    """A card powered by the slot alone draws at most what a PCIe slot gives (link_facts.csv: 75 W)."""
    fact = ref.relations.links.get(("pcie", "slot_power_w"))
    subject = claim.subject or ""
    watts = [float(r.value) for r in ref.rows(subject, "tdp") if isinstance(r.value, float)]
    name = ref.name(subject)
    if fact is None or not watts:
        return _no_fact(message("slot.no_fact", name=name))
    limit = float(fact.value)
    words = {"name": name, "tdp": "/".join(f"{w:g}" for w in sorted(set(watts))), "limit": f"{limit:g}",
             "stated": claim.text.strip()}
    source = (fact.source.url, fact.source.title)
    negated = bool(claim.extra.get("negated"))
    if min(watts) > limit:
        verdict = Verdict.SUPPORTED if negated else Verdict.CONTRADICTED
        return Check(verdict, message("slot.over" if not negated else "slot.over_ok", **words), f"{words['tdp']} W",
                     *source)
    if max(watts) <= limit:
        verdict = Verdict.CONTRADICTED if negated else Verdict.SUPPORTED
        return Check(verdict, message("slot.within" if not negated else "slot.within_bad", **words),
                     f"{words['tdp']} W", *source)
    return _no_fact(message("slot.no_fact", name=name))
