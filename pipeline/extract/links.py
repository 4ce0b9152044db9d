"""How links, memory and number formats work, as claims.

``link_property`` (value ``property:value`` as ``reference/link_facts.csv`` writes it): "PCIe是一种共享总线"
(topology), "NVSwitch集成在GPU芯片上" (packaging), "GPU间互联：NVLink-C2C" (what it connects), "HBM焊在电路板上"
(placement). ``memory_latency`` (value in ns): "显存访问延迟仅12ns". ``format_property`` (``detail`` the property:
``exponent_bits``, ``mantissa_bits``, ``bits``, ``max_normal``; value the number): "FP16有5位指数", "BF16的尾数为7
位", "E4M3的最大值为448". The predicates are data (``facts.csv`` roles ``link_predicate`` and
``latency_cue``).
"""

from __future__ import annotations

import re

from ..knowledge.reference import Reference
from ..lexicon.scanning import Gated, GroupScan
from ..records import Mention, Scope
from . import cues
from .draft import Draft
from .quantities import parse_number
from .subjects import DocState, Subject, resolve

LEX = cues.LEX
LINK_ATTRIBUTES = frozenset({"link_property", "memory_latency", "format_property", "slot_powered"})
_W = LEX.alt

_PREDICATES = GroupScan(LEX.groups("link_predicate"))
# a link's or memory's kind in links.csv / terms.csv -> the subject of link_facts.csv
_LINK_SUBJECT = {"pcie": "pcie", "nvlink": "nvlink", "nvswitch": "nvswitch", "nvlink_c2c": "nvlink_c2c"}
_TERM_SUBJECT = {"pcie": "pcie", "nvlink": "nvlink", "nvswitch": "nvswitch"}
_LABEL_COLON = re.compile(r"[:：]\s*$")
_LATENCY = re.compile(rf"(?:{_W('latency_cue')})")
_SLOT_POWER = Gated(re.compile(rf"(?:{_W('slot_power_word')})", re.I))
_NANOSECONDS = re.compile(r"(?<![\d.])(?P<n>\d+(?:\.\d+)?)\s*(?:ns|纳秒)(?![A-Za-z])", re.I)
_MEMORY_WORD = Gated(re.compile(r"显存|内存|HBM|GDDR|DRAM|访存|存储器|memory", re.I))
_NOT_DRAM = re.compile(r"L1|L2|缓存|cache|共享内存|寄存器|PCIe|NVLink|网络|以太网|InfiniBand|切换|调度|启动", re.I)
_FORMATS = LEX.regex("precision_name")
_FORMAT_NAMES = Gated(re.compile(rf"(?:E[2-5]M[1-3]|{_FORMATS.pattern})(?![A-Za-z0-9])", re.I))
_PART = r"(?P<what>指数|阶码|尾数|小数|mantissa|exponent)"
_BITS_OF = re.compile(rf"(?P<n>\d{{1,2}})\s*(?:个)?(?:比特|位|bit)(?:的)?\s*{_PART}", re.I)
_OF_BITS = re.compile(rf"{_PART}(?:位|部分|字段)?\s*(?:数)?\s*(?:为|有|是|占|只有|仅)?\s*"
                      r"(?P<n>\d{1,2})\s*(?:个)?(?:比特|位|bit)", re.I)
_MAX = re.compile(r"(?:最大(?:可表示)?(?:的)?(?:正)?(?:值|数)|所能表示的最大(?:值|数))\s*"
                  r"(?:为|是|约为|约|仅为|仅|只有|达到?)?\s*(?P<v>\d[\d,]*(?:\.\d+)?)")
_WIDTH = re.compile(r"^\s*(?:是|为)?\s*(?:一种)?\s*(?P<n>\d{1,2})\s*(?:位|bit|比特)(?:的)?\s*"
                    r"(?:浮点|格式|数据|整数|精度)")


def link_fact_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference) -> list[Draft]:
    """Link, memory-latency and number-format claims in one sentence."""
    out = _link_properties(text, mentions, ref)
    out += _latencies(text, mentions, ref)
    out += _formats(text, ref)
    out += _slot_power(text, mentions, state, ref)
    return out


def _slot_power(text: str, mentions: list[Mention], state: DocState, ref: Reference) -> list[Draft]:
    """"P40采用PCIe直供电": a card powered by its PCIe slot alone (a slot gives at most 75 W)."""
    out: list[Draft] = []
    for hit in _SLOT_POWER.finditer(text):
        cs, _ce = cues.clause_bounds(text, hit.start())
        negated = cues.negated(text[cs:hit.start()])
        for owner in resolve(text, hit.start(), mentions, state):
            if owner.ref in ref.products:
                out.append(Draft(hit.start(), hit.end(), owner, "slot_powered", "yes", None, variant=owner.variant,
                                 extra={"negated": True} if negated else {}))
    return out


def _subject(ref: Reference, m: Mention) -> str | None:
    if m.kind == "link":
        item = ref.items.get("link", {}).get(m.ref)
        return _LINK_SUBJECT.get(item.fields.get("kind", "")) if item is not None else None
    if m.kind == "term":
        return _TERM_SUBJECT.get(m.ref)
    if m.kind == "memory_type":
        return "hbm" if m.ref.startswith("hbm") else "gddr6" if m.ref.startswith("gddr") else None
    return None


def _link_properties(text: str, mentions: list[Mention], ref: Reference) -> list[Draft]:
    out: list[Draft] = []
    subjects = [(m, s) for m in mentions if (s := _subject(ref, m)) is not None]
    if not subjects:
        return out
    for value, hit in _PREDICATES.hits(text):
        prop = value.split(":", 1)[0]
        owner = _owner_of(text, hit, subjects)
        if owner is None:
            continue
        m, subject = owner
        if (subject, prop) not in ref.relations.links:
            continue
        cs, _ce = cues.clause_bounds(text, min(m.start, hit.start()))
        negated = cues.negated(text[cs:hit.start()]) if m.end <= hit.start() else False
        start, end = min(m.start, hit.start()), max(m.end, hit.end())
        out.append(Draft(start, end, Subject(subject, m.text, None, 1, "clause", m), "link_property", value, None,
                         detail=prop, scope=Scope.LINK, extra={"negated": True} if negated else {}))
    return out


def _owner_of(text: str, hit: re.Match[str], subjects: list[tuple[Mention, str]]) -> tuple[Mention, str] | None:
    """The link a predicate is said of: the last one named before it in its clause (PCIe是一种共享总线; 将NVSwitch
    集成到GPU上), or the one right after a label ending with a colon (GPU间互联：NVLink-C2C)."""
    cs, ce = cues.clause_bounds(text, hit.start())
    before = [(m, s) for m, s in subjects if cs <= m.start and m.end <= hit.start()]
    if before:
        return before[-1]
    after = [(m, s) for m, s in subjects if hit.end() <= m.start <= ce]
    if after and (_LABEL_COLON.search(text, hit.end(), after[0][0].start) or not text[hit.end():after[0][0].start]
                  .strip(" ：:")):
        return after[0]
    return None


def _latencies(text: str, mentions: list[Mention], ref: Reference) -> list[Draft]:
    """"显存访问延迟仅12ns（A100为28ns）": a DRAM latency in nanoseconds (a cache's or a link's is not checked)."""
    out: list[Draft] = []
    if not _MEMORY_WORD.search(text):
        return out
    for cue in _LATENCY.finditer(text):
        cs, ce = cues.clause_bounds(text, cue.start())
        end = _bracket_end(text, ce)
        if _NOT_DRAM.search(text, cs, cue.start()):
            continue
        memory = next((_subject(ref, m) for m in mentions if m.kind == "memory_type" and cs <= m.start < end), None)
        for n in _NANOSECONDS.finditer(text, cue.end(), end):
            value = parse_number(n.group("n"))
            if value is None or any(d.start <= n.start() < d.end for d in out):
                continue
            out.append(Draft(n.start(), n.end(), Subject(memory or "dram", "显存", None, 1, "clause"),
                             "memory_latency", float(value), "ns", scope=Scope.UNIT, scope_detail="DRAM"))
    return out


def _bracket_end(text: str, ce: int) -> int:
    """A clause's end, past a bracket it opens ("更低延迟（12ns vs 28ns）")."""
    opened = max(text.rfind("（", 0, ce), text.rfind("(", 0, ce))
    closed = max(text.rfind("）", 0, ce), text.rfind(")", 0, ce))
    if opened > closed:
        close = re.search(r"[)）]", text[ce:])
        return ce + close.end() if close else ce
    return ce


def _formats(text: str, ref: Reference) -> list[Draft]:
    out: list[Draft] = []
    for hit in _FORMAT_NAMES.finditer(text):
        fmt = ref.relations.number_format(hit.group(0))
        if fmt is None:
            continue
        # what follows, up to the next format named (the next clause goes on about it: 最大值为65504)
        nxt = _FORMAT_NAMES.search(text, hit.end())
        stop = nxt.start() if nxt else len(text)
        rest = text[hit.end():stop]
        for m in (*_BITS_OF.finditer(rest), *_OF_BITS.finditer(rest)):
            part = "exponent_bits" if m.group("what") in ("指数", "阶码", "exponent") else "mantissa_bits"
            out.append(_format_draft(hit, hit.end() + m.end(), fmt.name, part, float(m.group("n"))))
        peak = _MAX.search(rest)
        if peak is not None:
            value = parse_number(peak.group("v").replace(",", ""))
            if value is not None:
                out.append(_format_draft(hit, hit.end() + peak.end(), fmt.name, "max_normal", float(value)))
        width = _WIDTH.match(rest)
        if width is not None:
            out.append(_format_draft(hit, hit.end() + width.end(), fmt.name, "bits", float(width.group("n"))))
    return out


def _format_draft(hit: re.Match[str], end: int, name: str, part: str, value: float) -> Draft:
    return Draft(hit.start(), end, Subject(name, hit.group(0), None, 1, "clause"), "format_property", value, None,
                 detail=part)
