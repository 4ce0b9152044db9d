"""Technology and concept statements: what a technology is said to be or do, what a card is said to be for, which
number formats it is said to support, and hardware a card is said to carry.

The patterns are linguistic (what is predicated of a term), the facts come from the reference: a term's category
(terms.csv), a card's positioning and interface (products.csv, specs.csv), precision support by architecture
(precisions.csv).
"""

from __future__ import annotations

import re

from ..knowledge.reference import Reference
from ..lexicon.scanning import Gated, with_first_chars
from ..records import Mention
from . import cues
from .draft import Draft
from .subjects import DocState, Subject, resolve

# what a sentence may predicate of a technology, by the category that predicate implies
PREDICATES: dict[str, re.Pattern[str]] = {
    # "X是一种显存", "X扩大了显存容量": the term is memory, or adds memory capacity
    "memory": re.compile(r"(?:是|作为|相当于)(?:一种|一块|一类)?[^,;。的]{0,12}(?:显存|内存|存储器)(?![的访带控颗])|"
                         r"(?:更大|扩大|增加|提升|加大)[^,;。]{0,4}(?:显存|内存)容量"),
    # "X用来存放数据": the term stores data (true of a cache, not of a compute unit)
    "storage": re.compile(r"存放|存储(?!器访问|单元|控制|层次|结构)"),
    # "焊在板上的…颗粒": a cache presented as separate memory chips
    "memory_chip": re.compile(r"焊接|颗粒|独立的?(?:显存|内存)芯片"),
    # "X让多卡协同工作", "X把几张卡合并成一张": joining several GPUs into one
    "multi_gpu_pooling": re.compile(r"多(?:显卡|卡|块显卡|张显卡|个GPU|块GPU|张卡)[^,;。]{0,6}(?:并行|并联|协同)|"
                                    r"(?:合并|并联|组合|聚合)成?[^,;。]{0,8}(?:一张|一块|一个)|把多[张块个][^,;。]{0,12}"
                                    r"(?:合并|并联|组合|(?:连|连接|拼|组)成一个整体|连为一体)"),
}
# which predicates contradict which term categories
WRONG_FOR: dict[str, frozenset[str]] = {
    "compute_unit": frozenset({"memory", "storage", "memory_chip"}),
    "cache": frozenset({"memory", "memory_chip"}),
    "virtualization": frozenset({"multi_gpu_pooling"}),
    "partitioning": frozenset({"multi_gpu_pooling"}),
}
PREDICATE_ZH = {"memory": "显存（或额外的显存容量）", "storage": "存放数据的存储器", "memory_chip": "独立的显存颗粒",
                "multi_gpu_pooling": "把多块GPU并联成一块", "model": "模型"}
_CALLED_MODEL_BEFORE = re.compile(r"模型\s*(?:如|例如|比如|包括|像|有)\s*$")
_CALLED_MODEL_AFTER = re.compile(r"^\s*(?:这种|这类|这样的|等)\s*(?:大)?模型|"
                                 # "X是(一个)…大模型" with 模型 as the head noun, not "是训练视觉模型的数据集"
                                 r"^\s*(?:是|属于)\s*(?:一个|一种|一款)?[^,;。]{0,8}?(?:大)?模型(?=\s*(?:$|[,;。!?]|之一))")
# a clause that goes on about the same term without naming a new subject
_CONTINUES = re.compile(r"^\s*(?:这|它|其|该|可以|能够|能|可|还能|还可以|并|也|就|从而|使|让|将|把)")
_POSITION = Gated(with_first_chars(r"(?:作为|是|为)(?:一款|一张|一块|一个|一种)?[^,;。]{0,10}?(?P<what>训练|推理)"
                       r"(?:平台|卡|加速卡|GPU|芯片)|"
                       r"(?:专为|专门为|面向|定位于?|主要用于|(?P<use>用于))[^,;。]{0,10}?(?P<what2>训练|推理)"
                             r"(?:\s*(?:与|和|及|、|/)\s*(?P<also>训练|推理))?"))
_REDUNDANT_PSU = Gated(re.compile(r"冗余电源"))
_BUILTIN_STACK = Gated(with_first_chars(r"内置(?:了)?[^,;。]{0,8}(?:软件栈|框架|TensorFlow|PyTorch)", re.I))
_FORMAT = cues.LEX.regex("precision_name")
_PRECISIONS = Gated(with_first_chars(rf"{_FORMAT.pattern}(?:\s*(?:、|和|及|与|/|,)\s*{_FORMAT.pattern})*", re.I))


def concept_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference) -> list[Draft]:
    """Drafts for concept statements in one sentence."""
    out: list[Draft] = []
    for m in mentions:
        if m.kind != "term" or m.ref not in ref.terms:
            continue
        term = ref.terms[m.ref]
        cs, ce = cues.clause_bounds(text, m.start)
        if cues.NEGATION.search(text[cs:ce]):
            continue
        # the predicate: the rest of the clause, and the next clause when it refers back (这是…)
        end, span_start = ce, m.start
        nxt = text[ce + 1:] if ce < len(text) else ""
        if _CONTINUES.match(nxt):
            _ns, end = cues.clause_bounds(text, ce + 1)
            if any(o.kind in ("term", "product", "series") and ce < o.start < end for o in mentions):
                end = ce  # the next clause is about something else
        # the predicate stops where the next technology is named ("A + B + C" lists several)
        end = min([end, *(o.start for o in mentions if o.start >= m.end and o.kind == "term")])
        rest = text[m.end:end]
        for kind, pattern in PREDICATES.items():
            hit = pattern.search(rest)
            if hit and (kind in WRONG_FOR.get(term.category, ()) or _is_claim_of(kind, term.category)):
                if m.end + hit.start() > ce:  # said of it in the next clause (这是…): flag that clause only
                    span_start = ce + 1 + len(nxt) - len(nxt.lstrip())
                out.append(Draft(span_start, m.end + hit.end(), Subject(term.term_id, m.text, None), "concept",
                                 kind, None, detail=PREDICATE_ZH[kind]))
                break
        if term.category in ("dataset", "benchmark") and (
                _CALLED_MODEL_BEFORE.search(text[cs:m.start]) or _CALLED_MODEL_AFTER.match(text[m.end:ce])):
            start = text.rfind("模型", cs, m.start)
            out.append(Draft(start if start >= 0 else m.start, m.end, Subject(term.term_id, m.text, None), "concept",
                             "model", None, detail="模型"))
    out += _product_drafts(text, mentions, state, ref)
    return out


def _is_claim_of(kind: str, category: str) -> bool:
    """A predicate that fits the term's own category is a (true) claim worth confirming."""
    return (kind, category) in {("memory", "memory"), ("multi_gpu_pooling", "interconnect")}


def _product_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference) -> list[Draft]:
    out: list[Draft] = []
    for m in _POSITION.finditer(text):
        said = {m.group("what") or m.group("what2"), m.group("also")} - {None}
        value = "training|inference" if len(said) == 2 else "training" if "训练" in said else "inference"
        cs, ce = cues.clause_bounds(text, m.start())
        if cues.NEGATION.search(text[cs:ce]):
            continue
        for subj in resolve(text, m.start(), mentions, state):
            if subj.ref in ref.products:  # "面向训练与推理": both, a card positioned for either fits
                # "用于AI推理" says what the card is used for: any card may be, whatever the vendor positions it for
                out.append(Draft(m.start(), m.end(), subj, "positioning", value, None,
                                 extra={"use": True} if m.group("use") else {}))
    for pattern, value in ((_REDUNDANT_PSU, "redundant_psu"), (_BUILTIN_STACK, "builtin_framework")):
        for m in pattern.finditer(text):
            for subj in resolve(text, m.start(), mentions, state):
                if subj.ref in ref.products:
                    start = _verb_start(text, m.start())
                    out.append(Draft(start, m.end(), subj, "concept", value, None, variant=subj.variant))
    for m in _PRECISIONS.finditer(text):
        cs, _ce = cues.clause_bounds(text, m.start())
        left = text[cs:m.start()]
        if not re.search(r"支持\s*$", left) or cues.NEGATION.search(left):
            continue
        subjects = [s for s in resolve(text, m.start(), mentions, state) if s.ref in ref.products]
        for fmt_m in _FORMAT.finditer(m.group(0)):
            start = m.start() + fmt_m.start()
            for subj in subjects:  # one claim per format, so a flag covers only the unsupported one
                out.append(Draft(start, start + len(fmt_m.group(0)), subj, "precision", fmt_m.group(0).upper(), None))
    return out


def _verb_start(text: str, pos: int) -> int:
    """Start the span at the verb before the phrase (采用了…, 内置了…)."""
    m = re.search(r"(采用|配备|具有|拥有|带有|设计了?)\s*$", text[max(0, pos - 4):pos])
    return pos - len(m.group(0)) if m else pos
