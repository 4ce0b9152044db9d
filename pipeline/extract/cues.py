"""Linguistic cues: which attribute a number speaks about, and words that make a number not a spec claim.

All patterns run on normalised (width-folded, simplified) text, where Chinese full-width punctuation has become
ASCII (，-> ,  ： -> :  （ -> ( ).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..lexicon import load_lexicon
from ..lexicon.scanning import GroupScan, any_of, with_first_chars
from .quantities import Quantity

# "|" and a spaced dash separate the items of a spec line: "显存 80GB | 带宽 3TB/s", "NVLink: 1.8TB/s - 解压: 800GB/s"
# (a dash between digits is a range: "4 - 5 GB")
CLAUSE_BREAK = with_first_chars(r"[,;。!?，；！？\n|]|(?<=\D)\s[-–—]\s(?=\D)")
LEX = load_lexicon()
# the feature words (history.csv role feature_name), one scan a sentence for the support and history readers
FEATURE_WORDS = GroupScan(LEX.groups("feature_name"))
_W = LEX.alt  # a role's words as one alternation


def _re(pattern: str) -> re.Pattern[str]:
    return with_first_chars(pattern, re.I)


# attribute cues for a count ("5120个CUDA核心", "CUDA核心: 3584个", "Tensor Core则为432个"), most specific first
COUNT_CUES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(LEX.groups("count_cue"))
# counts of units, cued only right after the number: "132个SM", "96个CU", "128个RT Core"
UNIT_COUNT_CUES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(LEX.groups("unit_count_cue"))
# bandwidth cues, by priority: the first kind found in the clause decides
RATE_CUES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(LEX.groups("rate_cue"))
# peak throughput: the precision it is quoted for ("-": one without a reference figure to check against)
PRECISION_CUES: tuple[tuple[str | None, re.Pattern[str]], ...] = tuple(
    (None if v == "-" else v, p) for v, p in LEX.groups("precision_cue"))
SPARSE = LEX.regex("sparsity", "sparse")
DENSE = LEX.regex("sparsity", "dense")
PIN_RATE = LEX.regex("pin_rate")
MEMORY_CUE = LEX.regex("memory_cue")
# "L2缓存", "无限缓存": the level and the noun (not a model's KV cache)
CACHE_CUE = _re(rf"({_W('cache_level')})?\s*(?<!KV)(?<!KV\s)({_W('cache_noun')})")
POWER_CUE = LEX.regex("power_cue")
NOT_CARD_POWER = _re(rf"^\s*(?:或以上|及以上|以上|左右|起)?\s*(?:的)?\s*{_W('psu_word')}")
YEAR_CUE = LEX.regex("year_cue")
BUS_CUE = LEX.regex("bus_cue")
# a value the sentence needs, compares or computes, rather than states as a card's spec
NOT_A_SPEC_LEFT = _re(rf"({_W('not_a_spec')})[^,;。]{{0,8}}$")
# what is measured or belongs to the host, the network or storage, not to the card's spec
MEASURED = LEX.regex("measured")
NOT_THE_CARDS_RATE = LEX.regex("not_card_rate")
NOT_TRANSISTORS = LEX.regex("not_transistors")
HOST_MEMORY = LEX.regex("host_memory")
BASE_CLOCK = LEX.regex("clock", "base")  # the reference lists boost peaks
BOOST_CLOCK = LEX.regex("clock", "boost")
# a class of cards, not one card: "主流推理卡的功耗一般不超过…", "旗舰卡的带宽十年间从…增长到…"
CLASS_OF_CARDS = _re(rf"{_W('card_class')}(?:级)?{_W('card_noun')}|{_W('industry')}")
# a clause about running a model of some size ("8G显存跑7B勉强够用") states a need, not a card's figure
RUNS_A_MODEL = _re(rf"{_W('model_verb')}[^,;。]{{0,6}}?\d+(?:\.\d+)?\s*[BbMm](?![A-Za-z])")
# power that is not the card's rated figure: the whole machine, a PSU, a raised power limit, a factory-overclocked card
NOT_RATED_POWER = _re(rf"{_W('not_rated_power')}[^,;。]{{0,14}}$")
NEGATION = LEX.regex("negation")
NEGATION_AFTER = LEX.regex("negation_after")
CLASS_RANGE = LEX.regex("class_range")
SPECULATIVE = LEX.regex("speculative")
PER_CARD = LEX.regex("per_card")
AGGREGATE = LEX.regex("aggregate")
COMPARE_AFTER = _re(rf"^\s*(?:的)?[^,;。]{{0,6}}(?:{_W('compare_after')}|[\d.两二三四五六七八九十]+倍)")
COMPARE_BEFORE = _re(rf"{_W('compare_before')}\s*$")
COORD_BEFORE = _re(rf"{_W('coordinator')}\s*$")
_CARDS = _W("card_classifier")
MULTIPLIER_BEFORE = _re(
    rf"(?:(?P<dual>双(?:卡|路|显卡)?|一对|两卡一组)|(?P<n>\d+|[一二两三四五六七八九十]+)\s*{_CARDS}|(?P<x>\d+)\s*[×xX*]\s*)"
    r"\s*(?:的)?\s*$")
MULTIPLIER_AFTER = re.compile(r"^\s*(?:[×xX*]\s*(?P<n>\d+)|(?P<dual>双卡|双路))")
BARE_MULTIPLIER = with_first_chars(r"(?:(?P<n>\d+|[两二三四五六七八九十]+)\s*(?:张|块)\s*(?:卡|GPU|显卡)?|"
                                    r"(?P<m>\d+|[两二三四五六七八九十]+)\s*卡)")
EXPRESSION = re.compile(r"(?P<n>\d+)\s*[×xX*]\s*(?P<per>[\d.]+\s*[A-Za-z/]+)\s*=\s*")
PRONOUN = with_first_chars(_W("pronoun"))
TENSOR_PRESENCE = re.compile(
    r"(?P<neg>没有|不支持|不具备|无|缺少)?\s*(?:支持|具备|配备|拥有|加入|集成|带有|搭载|有|配有|内置)?"
    rf"\s*(?:第[一二三四五六七八九\d]代)?\s*(?P<tc>{LEX.alt('count_cue', 'tensor_cores')})"
    r"(?!\s*[的]?\s*(?:数|数量|为|:|\d))", re.I)
# "英特尔推出的至强处理器", "超微电脑推出的GPU服务器": the vendor made the thing named after 的, not the card
MADE_SOMETHING_ELSE = _re(rf"\s*的\s*[^,;。]{{0,8}}?{_W('not_a_gpu')}")
# the verb follows the vendor within a few characters, with no 的 between: "NVIDIA越来越大的散热器设计" is a design
RELATION_VERBS = _re(rf"^[^,;。的]{{0,10}}?({_W('maker_verb')})")
AS_GPU = _re(rf"^\s*{_W('gpu_noun')}")
USES = _re(rf"({_W('uses_verb')})[了的]?\s*(?:[^,;。]{{0,8}}的)?\s*$")
# "Turing（图灵）架构": a gloss in brackets may stand between the name and its noun
_GLOSS = r"(?:[(（][^()（）,;。]{1,10}[)）])?"
ARCH_AFTER = _re(rf"^\s*{_GLOSS}\s*{_W('arch_noun')}")
# the vendor's name may stand between the word and the name: "架构：NVIDIA Pascal", "基于AMD CDNA 3"
_VENDOR_WORD = r"(?:NVIDIA|Nvidia|英伟达|AMD|Intel|英特尔|华为|Huawei)?\s*"
ARCH_BEFORE = _re(rf"({_W('arch_verb')})\s*(?:了)?\s*{_VENDOR_WORD}$")
CHIP_AFTER = _re(rf"^\s*{_GLOSS}\s*{_W('chip_noun')}")
CHIP_BEFORE = _re(rf"({_W('chip_verb')})\s*(?:了|的|同一颗|一颗|两颗)?\s*$")
PREVIOUS_GEN = _re(rf"({_W('previous_gen')})[^,;。]{{0,4}}$")


# a turn in the clause ("虽然没有NVLink，但拥有24GB显存"): a negation before it does not reach what follows
_CONTRAST = re.compile(r"但是|但|却|不过|然而|而(?!非|不是)")


def negated(left: str) -> bool:
    """A negation governs the figure right of ``left`` (the clause up to it): 不是48GB, 没有24GB; but not 24GB而非48GB
    (the negation comes after it) nor 虽然没有NVLink但拥有24GB (a turn comes between)."""
    turns = [m.end() for m in _CONTRAST.finditer(left)]
    return bool(NEGATION.search(left, turns[-1] if turns else 0))


_MARKUP = " \t*_-•·|>#。.;；,，()（）"


def alone_in_clause(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` is all its clause holds but markup: a spec sheet's line ("250W", "- PCIe Gen4")."""
    cs, ce = clause_bounds(text, start)
    return not text[cs:start].strip(_MARKUP) and not text[end:ce].strip(_MARKUP)


_LIST_TAIL = re.compile(r"[^,;。:：!?]*(?:、|及|和|与|以及)\s*(?:最新的?|全新的?|新的)?\s*")


def verb_over_list(verb: re.Pattern[str], left: str) -> bool:
    """"支援DLSS 4、PCIe Gen 5及DisplayPort": the verb before a list of items says what it says of each; ``left`` is
    the clause up to the item."""
    hits = list(verb.finditer(left))
    return bool(hits) and bool(_LIST_TAIL.fullmatch(left, hits[-1].end()))


@lru_cache(maxsize=4096)
def clause_bounds(text: str, pos: int) -> tuple[int, int]:
    """The clause around ``pos``: between the nearest clause breaks. (Cached: the passes over a sentence ask for
    the clause of the same figure again and again.)"""
    start = 0
    for m in CLAUSE_BREAK.finditer(text, 0, pos):
        start = m.end()
    after = CLAUSE_BREAK.search(text, pos)
    return start, (after.start() if after else len(text))


_OTHER_UNIT = re.compile(r"[^,;。\d]{0,6}?(?:[PTG]?FLOPS|[PT]OPS)", re.I)


_COUNT_LABEL = re.compile(r"\s*(?:数|数量|数目|总数)?\s*(?:[:：=]|为|是|有|达|共有?|多达|高达|约)?\s*")


_COUNT_LEAD = re.compile(r"^[\s个颗的]*(?:第[一二三四五六七八九十\d]+代)?\s*")
_ANY_COUNT_AFTER = any_of(p for _a, p in (*COUNT_CUES, *UNIT_COUNT_CUES))
UNIT_NAME = _re(rf"(?:{_W('unit_name')})(?![A-Za-z])")
_ANY_COUNT_CUE = any_of(p for _a, p in COUNT_CUES)


def count_attribute(text: str, q: Quantity) -> str | None:
    """Which count a number is: cue right after it (个CUDA核心), else the nearest cue before it in its clause."""
    right = _COUNT_LEAD.sub("", text[q.end:q.end + 20])
    if q.low == q.high == 1 and UNIT_NAME.match(right):
        return None  # "H100的一个SM有…": one unit, the scope of the figures after it, not the card's count of units
    if _ANY_COUNT_AFTER.match(right):
        for attr, pat in (*COUNT_CUES, *UNIT_COUNT_CUES):
            if pat.match(right):
                return attr
    if q.kind == "count" and re.match(r"^[^,;。\d]{0,10}?(?:GPU\s*)?实例", right):
        return "mig_instances"  # "4个独立的GPU实例"
    if _OTHER_UNIT.match(right):
        return None  # "466个张量TFLOPS": a throughput written with a classifier, not a count of the cue before it
    cs, _ce = clause_bounds(text, q.start)
    left = text[cs:q.start]
    if not _ANY_COUNT_CUE.search(left):
        return None
    found = [(m.end(), attr != "cores", attr) for attr, pat in COUNT_CUES for m in pat.finditer(left)]
    if not found:
        return None
    end, _specific, attr = max(found)
    if attr == "cores" and not _COUNT_LABEL.fullmatch(left[end:]):
        return None  # 核心 alone names a count only as its label (核心数为…, 核心：…), not in 核心面积, GPU核心由…
    between = left[end:]
    if re.search(r"\d|、", between) or (q.kind == "bare" and _NAME_BEFORE.search(between)):
        return None  # another figure or list item between; "Tensor核心、DLSS 4": a version of what stands before it
    return attr


# a word of Latin letters right before a bare number that no cue follows: the number is its version (DLSS 4, CUDA 12)
_NAME_BEFORE = re.compile(r"[A-Za-z]{2,}\s?$")


_GENERIC_RATE = LEX.regex("generic_rate")
_SPECIFIC_MEMORY = LEX.regex("memory_noun")
INFINITY_CACHE = LEX.regex("cache_name", "Infinity Cache")
INFINITY_FABRIC = LEX.regex("link_name", "Infinity Fabric")
_CACHE_LEVELS = LEX.groups("cache_level")
# cards joined in a list: "A、B和C"
COORDINATOR = _re(rf"\s*{_W('list_joiner')}\s*")
HAN = re.compile(r"[\u4e00-\u9fff]")  # a Chinese character


# (asked of clauses and labels, not of whole sentences: a plain loop, not a sentence's shared scan)
_LINK_NAMES = LEX.groups("link_name")


def link_named(text: str) -> str | None:
    """The link ``text`` names last (the longest name where two start together: NVLink-C2C, not NVLink), as the
    lexicon's link_name values spell it, or None (互连带宽: the card's own link)."""
    found = [(m.start(), m.end(), name) for name, pat in _LINK_NAMES for m in pat.finditer(text)]
    return max(found)[2] if found else None


def cache_named(text: str) -> str | None:
    """The cache ``text`` names: "Infinity Cache" (any of its names), "L2", or None."""
    if INFINITY_CACHE.search(text):
        return "Infinity Cache"
    return next((level for level, pattern in _CACHE_LEVELS if pattern.search(text)), None)


def _rate_cue(left: str, right: str = "") -> str | None:
    """The bandwidth kind a clause speaks of: the first kind (by priority) cued before the number, else right
    after it."""
    for attr, pat in RATE_CUES:
        if pat.search(left):
            return attr
    for attr, pat in RATE_CUES:
        if pat.match(right.lstrip("的 ")):
            return attr
    return None


_AT_SIZE = re.compile(r"\d\s*[GT]B\s*(?:HBM\w*|GDDR\w*)?\s*[@＠]\s*$", re.I)


_LABELLED = re.compile(r"^\s*[^:：\d]{1,12}[:：]\s*$")


OTHER_RATE = LEX.regex("other_rate")


def unnamed_memory_rate(text: str, q: Quantity) -> bool:
    """A rate in bytes that no word names, in a sentence about no link, cache, transfer or CPU memory
    ("P4的吞吐量达到320GB/s"): the only such figure of a card is its memory bandwidth."""
    cs, ce = clause_bounds(text, q.start)
    return not (q.in_bits or _LABELLED.match(text[cs:q.start]) or OTHER_RATE.search(text)
                or CACHE_CUE.search(text, cs, ce) or link_named(text)
                or any(pat.search(text, cs, ce) for _attr, pat in PRECISION_CUES))  # "FP16性能1 TB/s": a slip


def rate_attribute(text: str, q: Quantity) -> tuple[str | None, bool]:
    """(memory_bandwidth | effective_bandwidth | interconnect_bandwidth | link_bandwidth | None, generic).

    The kind cued in the number's clause; when the clause only says 带宽 (generic is True) or nothing, the kind
    cued in the nearest clause before it that cues one ("X支持NVLink，带宽100GB/s", "X的NVLink带宽为900GB/s，Y则为
    600GB/s"). None for a per-pin rate or no cue at all."""
    cs, ce = clause_bounds(text, q.start)
    clause = text[cs:ce]
    if q.in_bits and PIN_RATE.search(clause):
        return None, False
    if _AT_SIZE.search(text, cs, q.start):
        return "memory_bandwidth", False  # "141 GB @ 4.8 TB/s": the bandwidth of the memory just named
    attr = _rate_cue(text[cs:q.start], text[q.end:ce])
    generic = attr == "memory_bandwidth" and not _SPECIFIC_MEMORY.search(clause)
    if attr is not None and not generic:
        return attr, False
    if attr is None and _LABELLED.match(text[cs:q.start]):
        return None, False  # "解压引擎: 800 GB/s": an item labelled with something no cue names takes no earlier cue
    pos = cs
    first_generic: tuple[str | None, bool] | None = None
    while pos > 0:  # the nearest earlier clause that names a kind ("搭载NVLink，单卡带宽900GB/s，总带宽7.2TB/s")
        ps, _pe = clause_bounds(text, pos - 1)
        earlier = _rate_cue(text[ps:pos])
        if earlier is not None:
            if q.in_bits and PIN_RATE.search(text[:q.start]):
                return None, False
            specific = earlier != "memory_bandwidth" or bool(_SPECIFIC_MEMORY.search(text[ps:pos]))
            if specific:
                return earlier, first_generic is not None
            first_generic = first_generic or (earlier, generic or attr is None)
        pos = ps
    return first_generic if first_generic is not None else (attr, generic)


def says_only_bandwidth(text: str, q: Quantity) -> bool:
    """The number's own clause calls it just 带宽 (no 显存/memory word): "…96MB无限缓存，带宽高达3.5TB/s"."""
    cs, ce = clause_bounds(text, q.start)
    return _rate_cue(text[cs:q.start], text[q.end:ce]) == "memory_bandwidth" \
        and not _SPECIFIC_MEMORY.search(text, cs, ce)


_CACHE_AFTER = _re(rf"\s*(?:的)?\s*(?:{_W('cache_level')}|Infinity|无限)?\s*{_W('cache_noun')}")
_MEMORY_AFTER = _re(rf"\s*(?:的)?\s*(?:{_W('memory_noun')}|VRAM)")


# a model name between a cue and the number: the cue described something else ("带有大缓存的A100有80GB")
_CARD_BETWEEN = re.compile(r"[A-Z]{1,3}\d{2,4}[A-Z]?(?![A-Za-z0-9])")


def size_noun(text: str, q: Quantity) -> str | None:
    """"cache" or "memory": what a size is the size of, by the noun right after it (32MB显存, 8GB无限缓存), else the
    nearer of the two named before it in its clause (无限缓存容量为16GB); None when neither is named."""
    if _CACHE_AFTER.match(text, q.end):
        return "cache"
    if _MEMORY_AFTER.match(text, q.end):
        return "memory"
    cs, _ce = clause_bounds(text, q.start)
    cs = max([cs, *(m.end() for m in _CARD_BETWEEN.finditer(text, cs, q.start))])  # only what follows the card
    cache = [m.end() for m in CACHE_CUE.finditer(text, cs, q.start) if m.group(2)]
    memory = [m.end() for m in _SPECIFIC_MEMORY.finditer(text, cs, q.start)]
    if not cache and not memory:
        return None
    return "cache" if max(cache, default=-1) > max(memory, default=-1) else "memory"


def precision_attribute(text: str, q: Quantity) -> str | None:
    """fp64 … int8 for a TFLOPS/TOPS figure: the precision named nearest before it in its clause, else the first
    one right after it, else (elided) the nearest one in the clauses before. None when there is none, when it is
    one without a reference figure (INT4, 混合精度). Two written together before the number ("FP16/BF16 312
    TFLOPS") give both, "fp16|bf16": the figure is claimed for each, and is wrong if either is."""
    cs, ce = clause_bounds(text, q.start)
    inside = next(((attr, m) for attr, pat in PRECISION_CUES for m in [pat.search(text, q.num_start, q.end)] if m),
                  None)
    if inside is not None:  # "29 FP32 TFLOPS": written between the number and its unit
        return inside[0]
    label = _OWN_LABEL.match(text, q.end)  # "45000 TFLOPS（FP4）": the figure's own label, whatever came before
    if label is not None and not _ACCUMULATE.match(text, label.end(1)):
        own = [attr for attr, pat in PRECISION_CUES if attr and pat.fullmatch(label.group(1))]
        if own:
            return own[0]
    bracket = _BRACKET_NOTE.match(text, q.end)  # "330 TFLOPS（密集模式，FP16）": the figure's note, commas and all
    if bracket is not None:
        noted = sorted(((m.start(), attr) for attr, pat in PRECISION_CUES if attr
                        for m in pat.finditer(text, bracket.start(1), bracket.end(1))
                        if not _ACCUMULATE.match(text, m.end())), key=lambda x: x[0])
        if noted:
            return noted[0][1]
    before = sorted(((m.start(), m.end(), attr) for attr, pat in PRECISION_CUES
                     for m in pat.finditer(text, cs, q.start)), key=lambda x: (x[0], x[1]))
    # "FP16 Tensor算力（FP32累加）": the accumulate precision is not the operands'
    before = [b for b in before if not _ACCUMULATE.match(text, b[1])] or before
    if before and before[-1][2] is None:
        # "FP16精度下AI算力达…": a word that names no precision after one that does, with no figure between
        named = [b for b in before if b[2] is not None and not re.search(r"\d", text[b[1]:before[-1][0]])]
        before = before if not named else [*before[:-1]]
    if before:
        if len(before) > 1 and re.fullmatch(r"\s*[/、和与及或]\s*", text[before[-2][1]:before[-1][0]]):
            first, second = before[-2][2], before[-1][2]
            return f"{first}|{second}" if first and second and first != second else None
        return before[-1][2]
    after = sorted(((m.start(), attr) for attr, pat in PRECISION_CUES for m in [pat.search(text, q.end, ce)] if m),
                   key=lambda x: x[0])
    if after:
        return after[0][1]
    # an elided precision: "L4的FP32算力大约30 TFLOPS，而T4仅有8.1 TFLOPS", "…，稀疏时可达624 TFLOPS"
    earlier = sorted(((m.end(), attr) for attr, pat in PRECISION_CUES for m in pat.finditer(text, 0, cs)),
                     key=lambda x: x[0])
    return earlier[-1][1] if earlier else None


_BRACKET_NOTE = re.compile(r"\s*[(（]([^()（）]{1,40})[)）]")
_OWN_LABEL = re.compile(r"\s*[(（]\s*([A-Za-z0-9]{2,6})\s*[)）,，、]")
_ACCUMULATE = re.compile(r"\s*(?:累加|累积|accumulat)", re.I)


def has_cue(pattern: re.Pattern[str], text: str, q: Quantity, *, right: int = 8) -> bool:
    cs, ce = clause_bounds(text, q.start)
    return bool(pattern.search(text[cs:q.start]) or pattern.search(text[q.end:min(ce, q.end + right)]))
