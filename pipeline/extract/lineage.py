"""Where a product or architecture stands, as claims: its predecessor and successor (``predecessor`` /
``successor``: "H100的继任者是B200", "B200取代了H100", "相较于上一代P100，P4…"), where a die stands in its family
(``die_position``: "AD102是Ada的旗舰芯片", "RTX 4090采用完整的AD102", "RTX 4080是阉割版"), and what a package is
made of when no count word of the open vocabulary says it (``composed_of``: "B200由两颗芯片组成", "H100采用单芯片设计",
"该架构采用了4颗芯片的模块化设计"). Words are data (``facts.csv`` roles ``lineage_word``, ``position_word``,
``component_word``, ``single_die``); the counts of dies, XCDs, GCDs, IODs, NVSwitches and HBM stacks that the open
vocabulary (``figures.csv``) reads are checked against the same composition table.
"""

from __future__ import annotations

import re
from itertools import pairwise

from ..knowledge.reference import Reference
from ..knowledge.systems import named_system
from ..lexicon.scanning import Gated, GroupScan
from ..records import Mention, Scope
from . import cues
from .draft import Draft
from .quantities import parse_number
from .subjects import DocState, Subject, as_subject, is_comparative, resolve

LEX = cues.LEX
LINEAGE_ATTRIBUTES = frozenset({"predecessor", "successor", "die_position", "composed_of"})
_W = LEX.alt

_LINEAGE = GroupScan(LEX.groups("lineage_word"))
_COPULA_AFTER = re.compile(r"\s*(?:产品|型号|架构|芯片)?\s*(?:(?P<neg>不是|并非|并不是)|是|为|就是|乃是)\s*")
_COPULA_BEFORE = re.compile(r"(?P<neg>不是|并非|并不是)?\s*(?:是|为|作为|成为|就是)\s*(?:了)?\s*$")
_OF = re.compile(r"\s*(?:的)\s*$")
_REPLACED = re.compile(r"\s*(?:取代了?|替代了?|接替了?|接班)\s*")
_REPLACED_BY = re.compile(r"\s*被\s*$")
_REPLACED_BY_VERB = re.compile(r"\s*(?:所)?(?:取代|替代|接替)")
_COMPARED = re.compile(r"(?:相较于|相比于?|比起|对比|较之)\s*$")
_POSITIONS = GroupScan(LEX.groups("position_word"))
_NOT = re.compile(r"并未|未|没有|不是|并非|并不是")
_POSITION_COPULA = re.compile(r"\s*(?:是|为|属于|作为)\s*(?:[^,;。]{0,14}?的)?\s*$")
_USES = re.compile(r"(?:采用|使用|用的是|用了|基于|搭载|配备)(?:了)?\s*(?:一颗)?\s*$")
_COMPONENTS = GroupScan(LEX.groups("component_word"))
_COMPOSED_VERB = re.compile(rf"(?:{_W('composed_verb')})\s*(?:了)?\s*$")
_DESIGN_AFTER = re.compile(r"\s*(?:的)?\s*(?:模块化|多芯片|封装)?\s*(?:设计|架构|方案|结构|封装|组成|构成)")
_SINGLE = Gated(re.compile(rf"(?:{_W('single_die')})"))
_MADE_OF = re.compile(r"[^,;。]{0,12}?(?:组成|构成|组合而成|拼接而成)")
_ARCH_ANAPHOR = re.compile(r"(?:该|此|这一|这个|本|其)\s*架构")


def lineage_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference,
                   drafts: list[Draft]) -> list[Draft]:
    """Lineage, die-position and composition claims in one sentence."""
    out: list[Draft] = _replacements(text, [(m, e) for m in mentions if (e := _entity(ref, m)) is not None])
    if _LINEAGE.hits(text):
        out += _lineage(text, mentions, state, ref)
    out += _positions(text, mentions, ref)
    out += _compositions(text, mentions, state, ref, [(d.start, d.end) for d in drafts])
    out += _counted_parts(text, mentions, state, ref, [(d.start, d.end) for d in (*drafts, *out)])
    out += _counted_gpus(text, ref, [(d.start, d.end) for d in (*drafts, *out)])
    archs = [m for m in mentions if m.kind == "architecture" and not is_comparative(text, m)]
    if archs:
        found = ref.entity(archs[-1].ref)
        state.last_architecture = found.id if found is not None else None
    return out


# ---- predecessors and successors


def _entity(ref: Reference, m: Mention) -> tuple[str, str] | None:
    """(kind, id) of a product or architecture mention."""
    if m.kind == "product" and m.ref in ref.products:
        return "product", m.ref
    if m.kind == "architecture":
        found = ref.entity(m.ref)
        if found is not None and found.kind == "architecture":
            return "architecture", found.id
    return None


def _lineage(text: str, mentions: list[Mention], state: DocState, ref: Reference) -> list[Draft]:
    out: list[Draft] = []
    named = [(m, e) for m in mentions if (e := _entity(ref, m)) is not None]
    for relation, hit in _LINEAGE.hits(text):
        cs, ce = cues.clause_bounds(text, hit.start())
        before = [(m, e) for m, e in named if cs <= m.start and m.end <= hit.start()]
        after = [(m, e) for m, e in named if hit.end() <= m.start < ce]
        # "X的继任者是Y"
        if before and _OF.match(text[before[-1][0].end:hit.start()]) and after:
            copula = _COPULA_AFTER.fullmatch(text[hit.end():after[0][0].start])
            if copula is not None:
                out.append(_lineage_draft(before[-1], after[0], relation, text, bool(copula.group("neg"))))
                continue
        # "Y是X的继任者"
        if len(before) >= 2 and _OF.match(text[before[-1][0].end:hit.start()]):
            copula = _COPULA_BEFORE.search(text[before[-2][0].end:before[-1][0].start])
            if copula is not None:
                out.append(_lineage_draft(before[-1], before[-2], relation, text, bool(copula.group("neg"))))
                continue
        # "相较于上一代Y，X…": Y is the sentence's card's predecessor
        if relation == "predecessor" and _COMPARED.search(text, max(0, hit.start() - 6), hit.start()) and after:
            y = after[0]
            xs = [(m, e) for m, e in named if m.ref != y[0].ref and e[0] == y[1][0]]
            x = xs[0] if xs else None
            if x is None:
                found = [s for s in resolve(text, y[0].end, [m for m in mentions if m is not y[0]], state)
                         if s.ref != y[1][1] and s.ref in ref.products]
                if found and y[1][0] == "product":
                    out.append(_draft(hit.start(), y[0].end, found[0], "predecessor", y[1][1]))
                continue
            out.append(_draft(hit.start(), y[0].end, as_subject(text, x[0], "sentence"), "predecessor",
                              y[1][1]))
    return out


def _replacements(text: str, named: list[tuple[Mention, tuple[str, str]]]) -> list[Draft]:
    """"B200取代了H100" / "H100被B200取代": a successor."""
    out: list[Draft] = []
    for (a, ea), (b, eb) in pairwise(named):
        if ea[0] != eb[0]:
            continue
        between = text[a.end:b.start]
        if _REPLACED.fullmatch(between):
            out.append(_lineage_draft((b, eb), (a, ea), "successor", text, False, start=a.start, end=b.end))
        elif _REPLACED_BY.fullmatch(between) and _REPLACED_BY_VERB.match(text, b.end):
            out.append(_lineage_draft((a, ea), (b, eb), "successor", text, False, start=a.start, end=b.end))
    return out


def _lineage_draft(x: tuple[Mention, tuple[str, str]], y: tuple[Mention, tuple[str, str]], relation: str, text: str,
                   negated: bool, *, start: int | None = None, end: int | None = None) -> Draft:
    """Claim that y is x's ``relation`` (successor or predecessor)."""
    (xm, _xe), (ym, ye) = x, y
    lo = start if start is not None else min(xm.start, ym.start)
    hi = end if end is not None else max(xm.end, ym.end)
    draft = _draft(lo, hi, Subject(_id(x), xm.text, xm.variant, 1, "clause", xm), relation, ye[1])
    if negated:
        draft.extra["negated"] = True
    return draft


def _id(x: tuple[Mention, tuple[str, str]]) -> str:
    return x[1][1]


def _draft(start: int, end: int, owner: Subject, attribute: str, value: str | float) -> Draft:
    scope = Scope.FAMILY if owner.mention is not None and owner.mention.kind == "architecture" else Scope.PRODUCT
    return Draft(start, end, owner, attribute, value, None, variant=owner.variant, scope=scope,
                 extra={"target": value})


# ---- die positions


def _positions(text: str, mentions: list[Mention], ref: Reference) -> list[Draft]:
    """"AD102是Ada的旗舰芯片" (a chip's place), "RTX 4090采用完整的AD102" / "RTX 4080是阉割版" (a card's die)."""
    out: list[Draft] = []
    for position, hit in _POSITIONS.hits(text):
        cs, _ce = cues.clause_bounds(text, hit.start())
        chips = [m for m in mentions if m.kind == "chip" and cs <= m.start]
        cards = [m for m in mentions if m.kind == "product" and m.ref in ref.products and cs <= m.start
                 and m.end <= hit.start() and not is_comparative(text, m)]
        negated = cues.negated(text[cs:hit.start()]) or bool(_NOT.search(text, cs, hit.start()))
        chip_before = [m for m in chips if m.end <= hit.start()]
        if position == "flagship" and chip_before and _POSITION_COPULA.search(text, chip_before[-1].end,
                                                                               hit.start()):
            chip = ref.entity(chip_before[-1].ref)
            if chip is not None:
                out.append(_position(chip_before[-1].start, hit.end(), chip.id, chip_before[-1], position,
                                     negated))
            continue
        if position in ("full_die", "cut_down") and cards:
            card = cards[-1]
            chip_after = next((m for m in chips if m.start >= hit.end() and m.start - hit.end() <= 4), None)
            between = text[card.end:hit.start()].replace(card.variant or "", "", 1)
            if _USES.search(between) or _POSITION_COPULA.search(between):
                end = chip_after.end if chip_after is not None else hit.end()
                out.append(_position(card.start, end, card.ref, card, position, negated))
    return out


def _position(start: int, end: int, subject: str, m: Mention, position: str, negated: bool) -> Draft:
    return Draft(start, end, Subject(subject, m.text, m.variant, 1, "clause", m), "die_position", position, None,
                 variant=m.variant, scope=Scope.CHIP if m.kind == "chip" else Scope.PRODUCT,
                 extra={"negated": True} if negated else {})


# ---- composition


def _compositions(text: str, mentions: list[Mention], state: DocState, ref: Reference,
                  taken: list[tuple[int, int]]) -> list[Draft]:
    out: list[Draft] = []
    for kind, hit in _COMPONENTS.hits(text):
        number = _count_before(text, hit.start())
        if number is None:
            continue
        n_start = number.start()
        if any(s < hit.end() and n_start < e for s, e in taken) or any(s < hit.end() and n_start < e for s, e in
                                                                      [(d.start, d.end) for d in out]):
            continue  # the open vocabulary counted it already (8个XCD)
        verb = _COMPOSED_VERB.search(text, max(0, n_start - 8), n_start)
        design = _DESIGN_AFTER.match(text, hit.end())
        if verb is not None and verb.group(0).startswith("由") and not _MADE_OF.match(text, hit.end()):
            continue  # "由N个…" needs its 组成/构成
        if verb is None and design is None:
            continue
        count = parse_number(number.group("n"))
        if count is None:
            continue
        owner = _owner(text, verb.start() if verb else n_start, mentions, state, ref)
        if owner is None:
            continue
        end = design.end() if design is not None else hit.end()
        out.append(Draft(n_start, end, owner, "composed_of", int(count), None, detail=kind,
                         variant=owner.variant, scope=_scope(ref, owner)))
    for hit in _SINGLE.finditer(text):
        if any(d.start <= hit.start() < d.end for d in out):
            continue
        owner = _owner(text, hit.start(), mentions, state, ref)
        if owner is not None:
            cs, _ce = cues.clause_bounds(text, hit.start())
            draft = Draft(hit.start(), hit.end(), owner, "composed_of", 1, None, detail="die", variant=owner.variant,
                          scope=_scope(ref, owner))
            if cues.negated(text[cs:hit.start()]):
                draft.extra["negated"] = True
            out.append(draft)
    return out


_COUNTED = re.compile(r"(?<![A-Za-z\d])(?P<n>\d+|[一二两三四五六七八九十]+)\s*(?:个|颗|块|片|枚)")


def _count_before(text: str, pos: int) -> re.Match[str] | None:
    """The count of a component word at ``pos``: the last number with a classifier shortly before it, with only
    words between ("两个称为GPM的GPU模组")."""
    last = None
    for m in _COUNTED.finditer(text, max(0, pos - 24), pos):
        last = m
    if last is None or re.search(r"[,;。\d]", text[last.end():pos]) or pos - last.end() > 10:
        return None
    return last


# a count written right before a product or chip: "8×H100", "2颗B200", "36个GB200"
_TIMES = re.compile(r"(?<![A-Za-z\d.])(?P<n>\d{1,3}|[一二两三四五六七八九十]+)\s*(?:[×xX*]|个|颗|块|片|枚|张|组)\s*"
                    r"(?:NVIDIA\s*|英伟达\s*)?$")


def _counted_parts(text: str, mentions: list[Mention], state: DocState, ref: Reference,
                   taken: list[tuple[int, int]]) -> list[Draft]:
    """"DGX H200（8×H200）", "GB200：2× B200 GPU + 1× Grace CPU", "GB200 NVL72包含36颗GB200": a count of a product or
    chip the tables list as a part of the system or product named before it (a part they do not list is no claim:
    "比8块A100快" compares)."""
    counted = {m.start: hit for m in mentions if m.kind in ("product", "chip")
               and (hit := _TIMES.search(text, max(0, m.start - 12), m.start)) is not None}
    out: list[Draft] = []
    for m in mentions:
        hit = counted.get(m.start)
        if hit is None or any(s < m.end and hit.start() < e for s, e in taken):
            continue
        cs, _ce = cues.clause_bounds(text, hit.start())
        whole = _whole(text, cs, hit.start(), [w for w in mentions if w.start not in counted], ref)
        if whole is None:  # "CPU：2× Grace" under "GB200：": the card the text is about
            found = [s for s in resolve(text, hit.start(), [], state) if s.ref != m.ref]
            whole = found[0] if len(found) == 1 else None
        if whole is None:
            continue
        parts = ref.relations.components.get(whole.ref, [])
        names = {m.ref.lower(), ref.name(m.ref).lower(), m.text.lower()}
        kind = next((p.kind for p in parts if p.component.lower() in names), None)
        count = parse_number(hit.group("n"))
        if kind is None or count is None:
            continue
        out.append(Draft(hit.start(), m.end, whole, "composed_of", int(count), None, detail=kind,
                         variant=whole.variant, scope=_scope(ref, whole)))
    return out


# a count of GPUs no name follows: "DGX B200可组8卡", "DGX H100配备8个GPU"
_GPUS = re.compile(r"(?<![A-Za-z\d.])(?P<n>\d{1,3}|[一二两三四五六七八九十]+)\s*(?:个|颗|块|张|路)?\s*(?:卡|GPU)"
                   r"(?![A-Za-z\d])")


def _counted_gpus(text: str, ref: Reference, taken: list[tuple[int, int]]) -> list[Draft]:
    """The GPUs a system named before the count is made of, when the count names no card."""
    out: list[Draft] = []
    for hit in _GPUS.finditer(text) if ("卡" in text or "GPU" in text) else ():
        if any(s < hit.end() and hit.start() < e for s, e in taken):
            continue
        system = named_system(text[:hit.start()], ref)
        found = ref.entity(system[0]) if system is not None else None
        count = parse_number(hit.group("n"))
        if found is None or found.kind != "system" or count is None or not any(
                p.kind == "gpu" for p in ref.relations.components.get(found.id, [])):
            continue
        whole = Subject(found.id, system[0] if system else "", None, 1, "clause")
        out.append(Draft(hit.start(), hit.end(), whole, "composed_of", int(count), None, detail="gpu",
                         scope=Scope.SYSTEM))
    return out


def _whole(text: str, cs: int, pos: int, mentions: list[Mention], ref: Reference) -> Subject | None:
    """What the count's parts make up: a system named before it in the sentence, else the last product named before it
    (not one counted itself, not one compared)."""
    system = named_system(text[cs:pos], ref) or named_system(text[:pos], ref)
    if system is not None and (found := ref.entity(system[0])) is not None:
        return Subject(found.id, system[0], None, 1, "clause")
    named = [m for m in mentions if m.kind == "product" and m.end <= pos and not is_comparative(text, m)]
    return as_subject(text, named[-1], "clause") if named else None


def _scope(ref: Reference, owner: Subject) -> Scope:
    kind = ref.kind_of(owner.ref)
    return Scope.FAMILY if kind == "architecture" else Scope.SYSTEM if kind == "system" else Scope.PRODUCT


def _owner(text: str, pos: int, mentions: list[Mention], state: DocState, ref: Reference) -> Subject | None:
    """A product, chip or architecture named before in the clause, an architecture anaphor (该架构), or the
    owner resolution's card."""
    cs, _ce = cues.clause_bounds(text, pos)
    system = named_system(text[cs:pos], ref)
    if system is not None:
        found = ref.entity(system[0])
        if found is not None:
            return Subject(found.id, system[0], None, 1, "clause")
    named = [m for m in mentions if m.kind in ("product", "architecture", "chip") and cs <= m.start and m.end <= pos
             and not is_comparative(text, m)]
    if named:
        m = named[-1]
        if m.kind == "product":
            return as_subject(text, m, "clause")
        found = ref.entity(m.ref)
        return Subject(found.id, m.text, None, 1, "clause", m) if found is not None else None
    if _ARCH_ANAPHOR.search(text, cs, pos) and state.last_architecture:
        return Subject(state.last_architecture, ref.name(state.last_architecture), None, 1, "topic")
    subjects = [s for s in resolve(text, pos, mentions, state) if s.ref in ref.products]
    return subjects[0] if len(subjects) == 1 else None
