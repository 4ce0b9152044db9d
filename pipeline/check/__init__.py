"""Claim x reference -> verdict, with the expected value, a Chinese explanation an editor can paste, and the source."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..config import Tolerance
from ..knowledge.reference import (
    CHIP_FIGURES,
    CPU_ATTRIBUTES,
    NUMERIC_ATTRIBUTES,
    THROUGHPUT_ATTRIBUTES,
    Reference,
    SpecRow,
)
from ..knowledge.systems import named_system
from ..lexicon import load_lexicon
from ..lexicon.labels import attribute_label
from ..records import (
    UNCERTAIN_OWNERS,
    UNKNOWN_FIGURE,
    VARIANT_IN_NAME,
    Check,
    Claim,
    Evidence,
    Qualifier,
    Reason,
    Scope,
    Verdict,
    evolve,
)
from .chip import check_chip_figure, check_compute_capability, check_cpu_figure, check_process
from .compare import (
    candidate_rows,
    expected_text,
    fmt,
    numeric_fits,
    per_card,
    quoted,
    text_fits,
    unit_count_rows,
    unit_suffix,
)
from .kinds import check_kind
from .names import check_identity, check_interface, check_manufacturer
from .precision import other_fp16_figure, other_precision
from .revisions import outdated
from .scoped import check_one_direction, check_scoped, system_of
from .secondary import check_database, check_secondary
from .variants import pin_variants

# a whole server, node or rack (pipeline/lexicon/scopes.csv)
_SYSTEM_WORD = load_lexicon().regex("system_word")
# numbers that identify a card well enough to say "this is card Y's figure"
# what differs between the members of a product line: said of the line (not of each member), no flag
_VARY_IN_A_LINE = frozenset({"architecture", "gpu_chip", "launch_year", "launch_date", "interface",
                             "compute_capability"})
_DISTINCTIVE = frozenset({"cuda_cores", "tensor_cores", "stream_processors", "memory_bandwidth",
                          "interconnect_bandwidth", "gpu_chip"})
@dataclass
class CheckContext:
    """What the checker knows about the article: the products it names."""

    named: set[str] = field(default_factory=set)


def _named_elsewhere(ref: Reference, claim: Claim, ctx: CheckContext, tol: Tolerance) -> tuple[str, SpecRow] | None:
    """Another product the article names whose figure the stated value is."""
    own = set(ref.members(claim.subject or ""))
    for pid in sorted(ctx.named - own):
        rows = ref.rows(pid, claim.attribute)
        if claim.attribute == "interconnect_bandwidth":
            rows = [r for r in rows if not claim.detail or r.scope.lower() == claim.detail.lower()]
        if not rows:
            continue
        if claim.attribute in NUMERIC_ATTRIBUTES:
            one = evolve(claim, value=per_card(claim))
            hit = [r for r in rows if numeric_fits(evolve(one, qualifier=Qualifier.EXACT), [float(r.value)], tol)]
        else:
            hit = text_fits(claim, rows)
        if hit:
            return pid, hit[0]
    return None


def check_claim(claim: Claim, ref: Reference, ctx: CheckContext | None = None,
                tol: Tolerance | None = None) -> Check:
    """The verdict on one claim. A flag needs evidence: a certain owner and a product-scoped figure; short of that
    the claim is ``unverifiable`` with its reason (the reference's figure is still shown)."""
    if claim.attribute == UNKNOWN_FIGURE:
        said = ("是一项比较，没有说明比的是哪项参数、差多少" if claim.detail == "comparison"
                else "没有说明是哪项参数的数值")
        return Check(Verdict.UNVERIFIABLE, f"文中“{quoted(claim)}”{said}，不作判断。", reason=Reason.UNKNOWN_ATTRIBUTE)
    if claim.extra.get("via") == "none":  # recorded with no owner (NO_OWNER): nothing to check it against
        return Check(Verdict.UNVERIFIABLE, f"文中没有说明“{quoted(claim)}”是哪张卡、哪颗芯片或哪个系统的"
                     f"{attribute_label(claim.attribute)}，不作判断。", reason=Reason.OWNER_UNCERTAIN)
    check = _check(claim, ref, ctx, tol)
    if check.verdict is Verdict.UNVERIFIABLE and check.reason in (None, Reason.NO_REFERENCE_VALUE):
        # a product figure the curated tables lack: the secondary database's, when it has a trusted one
        check = check_database(claim, ref, tol) or check
    for applies, reading in _OTHER_READINGS:  # a flag is raised only when no reading the text allows fits
        if applies(claim, check):
            check = reading(claim, ref, tol or Tolerance()) or check
    if claim.attribute == "launch_date" and (check.verdict is Verdict.UNVERIFIABLE or (
            check.verdict is Verdict.CONTRADICTED and check.evidence is Evidence.DATABASE)):
        # the database dates a card's availability; the tables keep its announcement's year ("2022年3月发布" of a
        # card announced in March and shipped in October): a month the year allows is left unchecked
        by_year = _launch_year_of(claim, ref, ctx, tol)
        if check.verdict is Verdict.UNVERIFIABLE or (by_year is not None
                                                     and by_year.verdict is Verdict.UNVERIFIABLE):
            check = by_year or check
    return _with_evidence(claim, _gate(claim, ref, check))


def _with_evidence(claim: Claim, check: Check) -> Check:
    """A verdict that is not the database's rests on the curated tables (``vendor``); nothing checked, nothing."""
    if check.evidence is None and check.verdict in _VENDOR_VERDICTS and claim.attribute != "code":
        return evolve(check, evidence=Evidence.VENDOR)
    return check


_VENDOR_VERDICTS = frozenset({Verdict.SUPPORTED, Verdict.CONTRADICTED, Verdict.MISATTRIBUTED})


def _launch_year_of(claim: Claim, ref: Reference, ctx: CheckContext | None, tol: Tolerance | None) -> Check | None:
    """A date ("2022年3月发布") where the tables keep only the year: a wrong year is wrong, a right one leaves the
    month unchecked."""
    year = str(claim.value)[:4]
    if not year.isdigit():
        return None
    by_year = _check(evolve(claim, attribute="launch_year", value=int(year), unit=None), ref, ctx, tol)
    if by_year.verdict is Verdict.CONTRADICTED:
        return evolve(by_year, explanation=by_year.explanation.replace(f"“{year}”", f"“{quoted(claim)}”"))
    if by_year.verdict is Verdict.SUPPORTED:
        said = f"{by_year.explanation.rstrip('。')}；参考表只有年份，“{quoted(claim)}”中的月份无法核实。"
        return Check(Verdict.UNVERIFIABLE, said, by_year.expected, by_year.source, by_year.source_title,
                     Reason.NO_REFERENCE_VALUE)
    return None


def _fitting(claim: Claim, rows: list[SpecRow], tol: Tolerance) -> list[SpecRow]:
    """The rows one card's (or one die's) figure as stated fits, the text's card count aside."""
    one = evolve(claim, multiplier=1)
    return [r for r in rows if numeric_fits(one, [float(r.value)], tol)]


def _each_card(claim: Claim, ref: Reference, tol: Tolerance) -> Check | None:
    """"服务器配备8块A100，显存80GB": a sentence that only counts the cards may give each card's figure. When the
    total does not fit but one card's figure does, that is the reading (supported), never a flag."""
    if claim.attribute not in NUMERIC_ATTRIBUTES or not isinstance(claim.value, (int, float, list)):
        return None
    rows = candidate_rows(ref, evolve(claim, scope=Scope.PRODUCT, scope_detail=None))
    matched = _fitting(claim, rows, tol)
    if not matched:
        return None
    name, attr_zh = ref.name(claim.subject or ""), attribute_label(claim.attribute)
    each = expected_text(matched)
    total = f"（{claim.multiplier}张合计为{expected_text(rows, claim.multiplier)}）" if claim.multiplier > 1 else ""
    return Check(Verdict.SUPPORTED, f"文中“{quoted(claim)}”是每张卡的数值：{name}的{attr_zh}为{each}，与文中所述相符"
                 f"{total}。", each,
                 matched[0].source_url, matched[0].source_title)


def _gate(claim: Claim, ref: Reference, check: Check) -> Check:
    if check.verdict is Verdict.UNVERIFIABLE:
        if check.reason is None:
            known = ref.knows(claim.subject or "")
            return evolve(check, reason=Reason.NO_REFERENCE_VALUE if known else Reason.NOT_IN_REFERENCE)
        return check
    if not check.verdict.is_flag or claim.attribute == "code":
        return check
    name = ref.name(claim.subject or "")
    if claim.subject in ref.series and claim.attribute in _VARY_IN_A_LINE and not claim.extra.get("every_member"):
        attr_zh = attribute_label(claim.attribute)
        return Check(Verdict.UNVERIFIABLE, f"“{quoted(claim)}”说的是{name}这一产品线；线内各型号的{attr_zh}各不相同，"
                     "不作判断。", check.expected, check.source, check.source_title, Reason.OWNER_UNCERTAIN)
    if claim.extra.get("speculative"):
        return Check(Verdict.UNVERIFIABLE, f"文中“{quoted(claim)}”是预计或传闻中的数值；{name}的实际规格为"
                     f"{check.expected or '（参考表无数据）'}，不作判断。", check.expected, check.source,
                     check.source_title, Reason.SPECULATIVE)
    if claim.attribute == "memory_size" and claim.qualifier is Qualifier.APPROX and claim.multiplier <= 1:
        # a card's capacity is an exact figure; "约20GB" / "~9 GB" is what a workload uses or what is left free
        return Check(Verdict.UNVERIFIABLE, f"文中“{quoted(claim)}”是约数，多指实际可用或占用的显存，而非{name}的"
                     f"显存规格（{check.expected or '参考表无数据'}），不作判断。", check.expected, check.source,
                     check.source_title, Reason.NOT_COMPARABLE)
    if claim.extra.get("via", "explicit") in UNCERTAIN_OWNERS:
        attr_zh = attribute_label(claim.attribute)
        return Check(Verdict.UNVERIFIABLE, f"文中没有明确说明“{quoted(claim)}”属于哪张卡；若指{name}，其{attr_zh}"
                     f"应为{check.expected or '（参考表无数据）'}。归属不明，不作判断。", check.expected, check.source,
                     check.source_title, Reason.OWNER_UNCERTAIN)
    return check


def _check(claim: Claim, ref: Reference, ctx: CheckContext | None = None, tol: Tolerance | None = None) -> Check:
    kind = check_kind(claim, ref, tol)  # comparisons, computations, history (pipeline/check/kinds.py)
    if kind is not None:
        return kind
    if claim.attribute in CPU_ATTRIBUTES:  # a superchip's CPU die (Grace)
        return check_cpu_figure(claim, ref, tol or Tolerance())
    secondary = check_secondary(claim, ref, tol)
    if secondary is not None:
        return secondary
    ctx = ctx or CheckContext()
    tol = tol or Tolerance()
    if claim.attribute == "manufacturer":
        return check_manufacturer(claim, ref)
    if claim.attribute == "process_node":
        return check_process(claim, ref)
    if claim.attribute in CHIP_FIGURES:
        return check_chip_figure(claim, ref, tol)
    if claim.attribute == "compute_capability":
        return check_compute_capability(claim, ref)
    if claim.attribute in ("concept", "positioning", "precision"):
        from .concept import check_concept

        return check_concept(claim, ref)
    if claim.subject in ref.links and claim.scope is Scope.PRODUCT:
        claim = evolve(claim, scope=Scope.LINK)
    if claim.scope is Scope.PRODUCT and claim.scope_detail == "per_direction" and (
            claim.multiplier <= 1 or claim.extra.get("count_only")):
        return check_one_direction(claim, ref, tol)
    if claim.scope is Scope.SYSTEM and claim.attribute == "tdp" and claim.multiplier > 1 and (
            claim.scope_detail or "").isdigit():
        # "DGX H100配备8块H100，功耗10.2kW": the power of the system the sentence names, not a sum of the cards' TDPs
        # (unless the figure is that sum: "…，8块GPU总功耗5600W")
        powered = _system_power(claim, ref, tol or Tolerance())
        if powered is not None:
            return powered
    if claim.scope is Scope.SYSTEM and claim.multiplier > 1 and (claim.scope_detail or "").isdigit():
        # "DGX GH200由256颗GH200组成，共享144TB内存": the cards counted are the system the sentence names
        named = named_system(claim.sentence, ref)
        if named is not None and named[1] == claim.multiplier:
            claim = evolve(claim, scope_detail=named[0])
    if claim.scope is Scope.SYSTEM and claim.multiplier > 1:
        system = system_of(claim, ref)
        if system is not None and ref.facts(system, claim.attribute):
            return check_scoped(claim, ref, tol)  # "DGX H100的显存640GB": the system's own figure
        if claim.attribute == "tdp" and not (claim.scope_detail or "").isdigit():  # a named system, not N cards
            return Check(Verdict.UNVERIFIABLE, f"文中“{quoted(claim)}”是整机功耗，不等于各卡功耗之和，"
                         "参考表没有这套系统的功耗，无法核实。", reason=Reason.SCOPE_NOT_PRODUCT)
    if claim.scope is Scope.UNIT and claim.scope_detail == "die" and _one_die(ref, claim.subject or ""):
        claim = evolve(claim, scope=Scope.PRODUCT, scope_detail=None)  # "H100每颗芯片…": its one die is the card's
    if claim.scope is not Scope.PRODUCT and claim.multiplier <= 1:
        return check_scoped(claim, ref, tol)
    if claim.attribute == "interface":
        return check_interface(claim, ref)
    if claim.attribute == "identity":
        return check_identity(claim, ref)
    name = ref.name(claim.subject or "")
    attr_zh = attribute_label(claim.attribute)
    rows = candidate_rows(ref, claim) or unit_count_rows(ref, claim)
    if not rows:
        return Check(Verdict.UNVERIFIABLE, f"参考表中没有{name}的{attr_zh}数据，无法核实。")
    numeric = claim.attribute in NUMERIC_ATTRIBUTES
    if numeric:
        values = [float(r.value) * claim.multiplier for r in rows]
        fits = numeric_fits(claim, values, tol, group=claim.subject in ref.series)
        matched = [r for r in rows if numeric_fits(claim, [float(r.value) * claim.multiplier], tol)] or rows
    else:
        matched = text_fits(claim, rows)
        fits = bool(matched)
        matched = matched or rows
    if fits and claim.extra.get("every_member") and claim.subject in ref.series:
        # "…系列均配备16GB": every member with a figure must fit, not just one
        missing = [pid for pid in ref.members(claim.subject) if not _member_fits(claim, [r for r in rows
                                                                                        if r.product_id == pid], tol)]
        if missing:
            fits = False
            rows = [r for r in rows if r.product_id in missing]
    expected = expected_text(rows if not fits else matched, claim.multiplier)
    first = matched[0]
    if fits:
        how = f"（{claim.multiplier}张合计）" if claim.multiplier > 1 else ""
        return Check(Verdict.SUPPORTED, f"{name}的{attr_zh}{how}为{expected}，与文中所述相符。", expected,
                     first.source_url, first.source_title)
    if claim.detail == VARIANT_IN_NAME:  # "2080 Ti 22G": a modded card or a variant the tables lack, not an error
        return Check(Verdict.UNVERIFIABLE, f"参考表没有{name}的“{quoted(claim)}”版本（已收录：{expected}），"
                     "可能是改装卡或未收录的版本，不作判断。", expected, first.source_url, first.source_title,
                     Reason.NO_REFERENCE_VALUE)
    if claim.attribute == "tensor_cores" and claim.qualifier is Qualifier.AT_LEAST and claim.value == 1:
        return Check(Verdict.CONTRADICTED, _no_tensor_cores(claim, ref, rows, name), "0（无 Tensor Core）",
                     first.source_url, first.source_title)
    other_way = other_fp16_figure(claim, ref, rows, tol) if claim.attribute in ("fp16", "bf16") else None
    if other_way:
        return Check(Verdict.UNVERIFIABLE, other_way, expected, first.source_url, first.source_title,
                     Reason.NOT_COMPARABLE)
    label = other_precision(claim, ref, tol) if claim.attribute in THROUGHPUT_ATTRIBUTES else None
    if label is not None:
        return Check(Verdict.MISATTRIBUTED, f"文中“{quoted(claim)}”是{name}的{label}算力，不是{attr_zh}；{name}的"
                     f"{attr_zh}应为{expected}。", expected, first.source_url, first.source_title)
    elsewhere = _named_elsewhere(ref, claim, ctx, tol) if (
        claim.attribute in _DISTINCTIVE or claim.extra.get("via") == "substitution") else None
    if elsewhere is not None:
        other, _row = elsewhere
        return Check(Verdict.MISATTRIBUTED,
                     f"文中给{name}的{attr_zh}“{quoted(claim)}”其实是{ref.name(other)}的参数；{name}应为{expected}。",
                     expected, first.source_url, first.source_title)
    return Check(Verdict.CONTRADICTED, _why_wrong(claim, ref, rows, name, attr_zh, expected, tol), expected,
                 first.source_url, first.source_title)


def _full_die(claim: Claim, ref: Reference, tol: Tolerance) -> Check | None:
    """"A100的GA100芯片有128个SM": the chip named between the card and the figure may be what is counted (the full
    die, of which the card enables part): when its figure fits, that is the reading (supported), never a flag."""
    found = ref.entity(str(claim.extra["die_named"]))
    if found is None or found.kind != "chip":
        return None
    chip = found.id
    rows = ref.facts(chip, claim.attribute)
    if claim.attribute not in NUMERIC_ATTRIBUTES or not rows or not isinstance(claim.value, (int, float)):
        return None
    matched = _fitting(claim, rows, tol)
    if not matched:
        return None
    attr_zh = attribute_label(claim.attribute)
    full = expected_text(matched)
    return Check(Verdict.SUPPORTED, f"文中“{quoted(claim)}”是完整{ref.name(chip)}芯片的{attr_zh}（{full}），"
                 f"与文中所述相符；{ref.name(claim.subject or '')}启用的数值见参考表。", full, matched[0].source_url,
                 matched[0].source_title)


# owners found outside the figure's own clause: the sentence's subject may be the system it names
_FROM_SENTENCE = frozenset({"sentence", "topic", "heading"})


def _system_sentence(claim: Claim, ref: Reference, tol: Tolerance) -> Check | None:
    """"GB200 NVL72由36个GB200超级芯片组成，FP8算力720 PFLOPS": a sentence about a system whose figure's clause names
    no card gives the system's figure, not that of the card or superchip it is built from."""
    named = named_system(claim.sentence, ref)
    if named is None or claim.extra.get("via", "explicit") not in _FROM_SENTENCE:
        return None
    as_system = evolve(claim, scope=Scope.SYSTEM, scope_detail=named[0], multiplier=1)
    system = system_of(as_system, ref)
    if system is None or ref.items["system"][system].fields.get("gpu_product") not in ref.members(claim.subject or ""):
        return None
    checked = check_scoped(as_system, ref, tol)
    if checked.verdict is Verdict.SUPPORTED:
        return checked
    return Check(Verdict.UNVERIFIABLE, f"文中“{quoted(claim)}”可能是{named[0]}整套系统的数值，而非"
                 f"{ref.name(claim.subject or '')}单卡的数值，不作判断。", checked.expected, checked.source,
                 checked.source_title, Reason.SCOPE_NOT_PRODUCT)


def _system_power(claim: Claim, ref: Reference, tol: Tolerance) -> Check | None:
    """A sentence that names a system (or says 服务器, 整机) and counts its cards gives the system's power."""
    named = named_system(claim.sentence, ref)
    if named is None:
        if claim.extra.get("count_only") and _SYSTEM_WORD.search(claim.sentence):
            return Check(Verdict.UNVERIFIABLE, f"文中“{quoted(claim)}”是整机功耗，不等于各卡功耗之和，无法核实。",
                         reason=Reason.SCOPE_NOT_PRODUCT)
        return None
    as_system = evolve(claim, scope_detail=named[0])
    system = system_of(as_system, ref)
    if system is None or not ref.facts(system, "tdp"):
        return Check(Verdict.UNVERIFIABLE, f"文中“{quoted(claim)}”是{named[0]}的整机功耗，不等于各卡功耗之和，"
                     "参考表没有这套系统的功耗，无法核实。", reason=Reason.SCOPE_NOT_PRODUCT)
    checked = check_scoped(as_system, ref, tol)
    summed = [float(r.value) * claim.multiplier for r in candidate_rows(ref, claim)]
    if checked.verdict.is_flag and summed and numeric_fits(claim, summed, tol):
        return None  # the cards' total after all
    return checked


# Other readings of a claim the first reading flags, in order: (when it applies, the reading; None if it does not fit)
_OTHER_READINGS: tuple[tuple[Callable[[Claim, Check], bool], Callable[[Claim, Reference, Tolerance], Check | None]],
                       ...] = (
    # the cards counted may each have the figure (also when the total reading found no row to check)
    (lambda c, k: bool(c.extra.get("count_only")) and (k.verdict.is_flag or k.reason is Reason.SCOPE_NOT_PRODUCT),
     _each_card),
    # the card's own chip named before the figure: the full die's count
    (lambda c, k: k.verdict.is_flag and bool(c.extra.get("die_named")), _full_die),
    # a sentence about a system built from the card: the system's figure
    (lambda c, k: k.verdict.is_flag and c.scope is Scope.PRODUCT, _system_sentence),
    # a launch-day figure the vendor later revised: still wrong, said with both figures and dates
    (lambda c, k: k.verdict.is_flag and c.scope is Scope.PRODUCT, outdated),
)


def _one_die(ref: Reference, subject: str) -> bool:
    """The card's GPU is one die (the chips table knows its chip, and no package of several dies)."""
    chips = [c for pid in ref.members(subject) for c in ref.chips_of(pid)]
    return bool(chips) and all(float(r.value) <= 1 for c in chips for r in ref.facts(c, "die_count"))


def _member_fits(claim: Claim, rows: list[SpecRow], tol: Tolerance) -> bool:
    """A series member's figures fit the claim (a member without figures is not held against it)."""
    if not rows:
        return True
    if claim.attribute in NUMERIC_ATTRIBUTES:
        return numeric_fits(claim, [float(r.value) * claim.multiplier for r in rows], tol)
    return bool(text_fits(claim, rows))


def _no_tensor_cores(claim: Claim, ref: Reference, rows: list[SpecRow], name: str) -> str:
    """"P40没有 Tensor Core（Pascal 架构不具备）": the architectures of the rows' cards (a series' members)."""
    archs = [a for a in dict.fromkeys(ref.products[r.product_id].architecture for r in rows
                                       if r.product_id in ref.products) if a]
    why = f"（{'/'.join(archs)} 架构不具备）" if archs else ""
    return f"{name}没有 Tensor Core{why}，文中“{quoted(claim)}”不正确。"


def _why_wrong(claim: Claim, ref: Reference, rows: list[SpecRow], name: str, attr_zh: str, expected: str,
               tol: Tolerance) -> str:
    written = quoted(claim)
    reason = ""
    if claim.extra.get("bits") and isinstance(claim.value, (int, float)):
        as_bytes = evolve(claim, value=float(claim.value) * 8)
        if numeric_fits(as_bytes, [float(r.value) * claim.multiplier for r in rows], tol):
            reason = "疑似把 GB/s（字节）写成了 Gb/s（比特），两者相差 8 倍"
    if not reason and claim.multiplier > 1 and isinstance(claim.value, (int, float)):
        per = float(claim.value) / claim.multiplier
        reason = (f"按每卡 {expected_text(rows)} × {claim.multiplier} 计算才对，文中合计相当于每卡 "
                  f"{fmt(per)}{unit_suffix(claim.unit)}")
        expected = f"{expected}（{claim.multiplier}张合计）"
    if not reason and claim.attribute == "memory_bandwidth":
        eff = [r for pid in ref.members(claim.subject or "") for r in ref.rows(pid, "effective_bandwidth")]
        if eff and numeric_fits(evolve(claim, attribute="effective_bandwidth"), [float(r.value) for r in eff], tol):
            stated = "–".join(fmt(v) for v in claim.value) if isinstance(claim.value, list) else fmt(claim.value)
            reason = f"{stated} GB/s 是厂商宣称的借助 Infinity Cache 的“有效带宽”，不是显存原始带宽"
    if not reason and claim.attribute in NUMERIC_ATTRIBUTES and claim.subject in ref.products:
        others = [r for r in ref.rows(claim.subject, claim.attribute)
                  if numeric_fits(evolve(claim, qualifier=Qualifier.EXACT), [float(r.value)], tol)]
        if others and others[0].scope and others[0].scope not in {r.scope for r in rows} \
                and others[0].variant in {r.variant for r in rows}:
            # "6MB Infinity Cache": the figure of another cache level (scope) of the same version
            reason = f"{written}是{others[0].scope}的数值，与文中所指的{claim.detail or attr_zh}不符"
        elif others:
            reason = f"{written}是{others[0].variant}版的数值，与文中所指版本不符"
    if claim.qualifier is Qualifier.AT_LEAST:
        reason = reason or "实际数值并未超过文中所说"
    if claim.qualifier is Qualifier.AT_MOST:
        reason = reason or "实际数值并不低于文中所说"
    tail = f"（{reason}）" if reason else ""
    if claim.extra.get("listed_under"):  # "Ampere架构的代表产品有V100": the card listed under an architecture
        arch = str(claim.extra["listed_under"]).removesuffix("架构")
        return f"{name}的{attr_zh}应为{expected}，文中把“{written}”列为{arch}架构的产品，不正确{tail}。"
    return f"{name}的{attr_zh}应为{expected}，文中“{written}”不正确{tail}。"


def check_claims(claims: Iterable[Claim], ref: Reference, ctx: CheckContext | None = None,
                 tol: Tolerance | None = None) -> list[Claim]:
    return pin_variants([evolve(c, check=check_claim(c, ref, ctx, tol)) for c in claims], ref, tol)


def note_inconsistencies(claims: list[Claim]) -> list[Claim]:
    """One card given two different values for one attribute in one article: name the clash in the explanation of
    the value the reference contradicts (values that match two variants are both supported and left alone)."""
    groups: dict[tuple[str, str, int], list[tuple[Claim, float]]] = {}
    for c in claims:
        if c.subject and c.attribute in NUMERIC_ATTRIBUTES and isinstance(c.value, (int, float)) and \
                c.qualifier is Qualifier.EXACT:
            groups.setdefault((c.subject, c.attribute, c.multiplier), []).append((c, float(c.value)))
    notes: dict[int, str] = {}
    for group in groups.values():
        values = {v for _c, v in group}
        if len(values) < 2:
            continue
        for c, v in group:
            if c.check is not None and c.check.verdict in (Verdict.CONTRADICTED, Verdict.MISATTRIBUTED):
                others = sorted({o.text.strip() for o, ov in group if ov != v})
                notes[id(c)] = f"文中另一处写作“{'”“'.join(others)}”，前后不一致"
    if not notes:
        return claims
    out = []
    for c in claims:
        note = notes.get(id(c))
        if note and c.check is not None:
            text = c.check.explanation.rstrip("。") + f"；{note}。"
            c = evolve(c, check=evolve(c.check, explanation=text))
        out.append(c)
    return out
