"""The figures of a sentence that no reader understood, recorded so that they are seen and counted.

After every extractor has read a sentence, each number still unread is recorded as a claim of attribute ``figure``
(never judged: the checker says it does not know which spec it is) when the words around it say what kind of figure
it is: a multiple (3倍, 2x), a share (12%, 三成), a count of something (6个…), of machines or GPUs (512台, 8卡), a
price, a duration, a resolution (8K), a length, a rate, a year in a sentence that names hardware, or the value of a
labelled line (``最大线程数: 1024``, ``| Max Threads | 1024 |``). The kinds and their words are the ``unread.csv``
rows of the lexicon. A phrase that is a figure itself (翻倍, 减半) is recorded the same way.

The owner is the one card the usual rules find; when they find several, none, or only the text's topic in a sentence
that names other hardware, the figure is recorded with no owner.
"""

from __future__ import annotations

import re

from ..lexicon.scanning import Gated, GroupScan, any_of
from ..records import UNKNOWN_FIGURE, Mention
from .cues import LEX, clause_bounds
from .draft import Draft
from .figures import LEFT_ALONE_ANY, RECORDED_KINDS
from .quantities import find_quantities
from .subjects import NO_OWNER, DocState, Subject, resolve

_CN = "零〇一二两三四五六七八九十百千万亿"
_CN_DIGITS = frozenset(_CN)
# a number as written: digits (with thousands commas and decimals), an optional magnitude word, or Han numerals
_NUMBER = re.compile(
    rf"(?<![A-Za-z\d.,_/\-])(?:\d{{1,3}}(?:,\d{{3}})+(?!\d)|\d+)(?:\.\d+)?(?:\s?(?:万亿|千亿|百亿|十亿|亿|千万|百万|万))?"
    rf"(?![\d.]*[A-Za-z]*\d)|(?<![{_CN}])[{_CN}]{{1,6}}(?![{_CN}])")
# between a number and the word of its kind: a hedge or an approximate tail ("330+个", "20多倍", "三成多")
_TAIL = re.compile(r"\s*(?:多|余|\+|＋)?\s*")
_AFTER = [(kind, re.compile(pattern.pattern, re.I)) for kind, pattern in LEX.groups("figure_after")]
_ANY_AFTER = any_of(pattern for _kind, pattern in _AFTER)
_BEFORE = [(kind, re.compile(rf"(?:{pattern.pattern})\s*$", re.I)) for kind, pattern in LEX.groups("figure_before")]
_PHRASES = GroupScan(LEX.groups("figure_phrase"))
_YEAR = re.compile(r"(?:19[89]\d|20[0-4]\d)\s*年(?:\s*(?:1[0-2]|0?[1-9])\s*月)?")
_YEAR_ALONE = re.compile(r"[\s\-*•#>]*(?:19[89]\d|20[0-4]\d)\s*年[\s。.:：,，]*")  # "2016年。": a history's date line
# "Radeon 9700（2002）": a year alone in brackets
_BRACKETED_YEAR = re.compile(r"[(（]\s*((?:19[89]\d|20[0-4]\d))\s*[)）,，、]")
# a labelled value: the clause gives a label, then a colon, a bar or an equals sign, then the number alone
_LABELLED = re.compile(r"[A-Za-z\u4e00-\u9fff)）][^:：|=]{0,40}[:：|=]\s*(?:约|~|≈)?\s*$")
_ALONE = re.compile(r"\s*(?:[|,，;；。)）]|$)")
_HARDWARE = frozenset({"product", "series", "chip", "architecture", "system"})
# the ways a subject is found that only say what the text is about, not what the figure's sentence speaks of
_ABOUT_THE_TEXT = frozenset({"topic", "topic_guess", "heading"})
_SPEC_KINDS = RECORDED_KINDS - {"count"}
_COUNTS = frozenset({"count", "gpus", "machines"})
# a count of cards or chips (8块H100, 两颗GH100, 8块GPU) is how many the figures after it are of, read as such
_COUNTED = frozenset({"product", "series", "chip"})
_OPERAND = re.compile(r"\s*\d")
_THAN = re.compile(rf"{LEX.alt('than')}\s*$")
# a clause that says its count is not the card's (屏蔽了16个SM, 上一代的10496个, 替代…)
_NOT_THERE = any_of([LEFT_ALONE_ANY, LEX.regex("negation"), LEX.regex("previous_gen")])
# the words of a comparison (comparisons.csv): 比/较/相比 Y, 高于/低于 Y, 与 Y 相同/相当, 介于 X 和 Y 之间, ≈ Y
_ORDER_BEFORE = re.compile(rf"{LEX.alt('order_word')}\s*$")
_BETWEEN = re.compile(r"介于\s*$")
_ABOUT = re.compile(r"(?:~=|≈|约等于|相当于)\s*$")
_WITH = re.compile(r"(?:与|和|跟|同)\s*$")
_WAY = re.compile(rf"(?:{LEX.alt('direction')}|之间)")
_SAME = re.compile(LEX.alt("same_word"))
_IS_OR_REPLACES = re.compile(r"(?:是|为|作为|替代|取代|对标)\s*$")
_VERSION_OF = re.compile(r"\s*的[^,，。;；]{0,12}?(?:版本|版|型号|替代品|继任者|接班人|前代|后继)")
_ANY_COMPARISON = Gated(re.compile(rf"替代|取代|对标|的[^,，。]{{0,12}}(?:版|型号)|{LEX.alt('than')}"
                                   rf"|{LEX.alt('order_word')}|{LEX.alt('same_word')}|介于|~=|≈|相当于"))
_FEATURE_VERB = Gated(re.compile(LEX.alt("feature_verb")))
_FEATURE_LEN = 24  # a longer clause after the verb is prose, not the name of a feature
_ONE = re.compile(r"[1一](?![\d.])")
_DIGIT = re.compile(r"\d")
_CARD_NOUN = re.compile(r"\s*(?:GPU|显卡|加速卡|计算卡|卡)(?![A-Za-z])")


def leftover_drafts(text: str, mentions: list[Mention], state: DocState, drafts: list[Draft]) -> list[Draft]:
    """Claims of attribute ``figure`` for the numbers of ``text`` that no draft and no name covers."""
    if not _DIGIT.search(text) and not _has_cn_figure(text) and not _FEATURE_VERB.search(text):
        return []
    taken = [(d.start, d.end) for d in drafts] + [(m.start, m.end) for m in mentions]
    # a figure with a unit of a spec (GB, W, GB/s...) is the number readers' to read, record or leave alone
    spec = [(q.num_start, q.end) for q in find_quantities(text) if q.kind in _SPEC_KINDS]
    taken += spec
    cards = [m.start for m in mentions if m.kind in _COUNTED]
    # a year is a figure of the hardware its sentence names, or of what the text is about
    dated = state.topic is not None or any(m.kind in _HARDWARE for m in mentions) or bool(_YEAR_ALONE.fullmatch(text))
    out: list[Draft] = []
    for start, at, end, kind in _figures(text, dated, taken):
        if any(s < end and at < e for s, e in taken) or (kind in _COUNTS and (
                _ONE.match(text, start) or _NOT_THERE.search(text, *clause_bounds(text, start)))):
            continue  # one unit the figures after it are per (1个SM里…), or a count its clause says is not the card's
        of_cards = ((kind in _COUNTS or kind == "multiple") and _counts_cards(text, end, cards)) or (
            kind == "gpus" and _names_cards(text, start, mentions))
        if of_cards and drafts:
            continue  # a count of the cards (8块H100, 8× H100) that the figures of its sentence are of
        taken.append((start, end))
        # "最多256个H100互联": how many cards, a figure of its own, of whatever holds them (no card owns its count)
        owner = NO_OWNER if of_cards else _owner(text, start, end, mentions, state)
        out.append(Draft(start, end, owner, UNKNOWN_FIGURE, text[start:end], None,
                         detail="gpus" if of_cards else kind, extra={"unknown": True, "cue": kind}))
    # a comparison spans the name it compares with; one whose clause has a claim or a figure is read through it
    read = [(d.start, d.end) for d in drafts + out]
    for start, end, what in _comparisons(text, mentions):
        cs, ce = clause_bounds(text, start)
        if not any(s < max(end, ce) and cs < e for s, e in read):
            read.append((start, end))
            out.append(Draft(start, end, _owner(text, start, end, mentions, state), UNKNOWN_FIGURE, text[start:end],
                             None, detail=what, extra={"unknown": True, "cue": what}))
    for start, end in _features(text) if dated else ():  # what hardware supports, in a text about it
        cs, ce = clause_bounds(text, start)
        if not any(s < ce and cs < e for s, e in read + spec):  # a figure in it was read, or left alone
            read.append((start, end))
            out.append(Draft(start, end, _owner(text, start, end, mentions, state), UNKNOWN_FIGURE, text[start:end],
                             None, detail="feature", extra={"unknown": True, "cue": "feature"}))
    return out


def _features(text: str) -> list[tuple[int, int]]:
    """"支持硬件级的视频编解码": a support or novelty verb and what follows it in its clause, when the clause is
    short enough to be one feature (a clause no reader took)."""
    found = []
    for m in _FEATURE_VERB.finditer(text):
        _cs, ce = clause_bounds(text, m.start())
        thing = text[m.end():ce].rstrip(" 。.!！?？")
        if thing.startswith("的"):  # "Hopper新增的数据格式": a relative clause, what follows is its head noun
            continue
        if 1 <= len(thing.strip()) <= _FEATURE_LEN and re.search(r"[A-Za-z\u4e00-\u9fff]", thing):
            found.append((m.start(), m.end() + len(thing)))
    return found


def _comparisons(text: str, mentions: list[Mention]) -> list[tuple[int, int, str]]:
    """The spans of comparisons with a named card, chip or architecture that no reader took: 比Y更强大, 低于Y,
    与Y基本一致, 介于X和Y之间, ≈ Y (from the comparison word to the word that says which way)."""
    if not _ANY_COMPARISON.search(text):
        return []
    named = sorted((m for m in mentions if m.kind in _HARDWARE), key=lambda m: m.start)
    found: list[tuple[int, int, str]] = []
    for m in named:
        cs, ce = clause_bounds(text, m.start)
        before = text[cs:m.start]
        than = _THAN.search(before) or _BETWEEN.search(before) or _ABOUT.search(before)
        order = _ORDER_BEFORE.search(before)
        version = _VERSION_OF.match(text, m.end, ce) if _IS_OR_REPLACES.search(before) else None
        if version:  # "A800是A100的合规版", "替代A100的中国市场专用型号": a product said to be a version of another
            found.append((cs + _IS_OR_REPLACES.search(before).start(), version.end(),  # type: ignore[union-attr]
                          "positioning"))
        elif order:
            found.append((cs + order.start(), m.end, "comparison"))
        elif than:
            way = _WAY.search(text, m.end, ce)
            if way or not _THAN.search(before):  # "相比RTX 3090，…": the clause after it says what is compared
                found.append((cs + than.start(), way.end() if way else m.end, "comparison"))
        elif _WITH.search(before):
            same = _SAME.search(text, m.end, ce)
            if same:
                found.append((cs + _WITH.search(before).start(), same.end(), "comparison"))  # type: ignore[union-attr]
    return found


def _counts_cards(text: str, end: int, cards: list[int]) -> bool:
    at = len(text) - len(text[end:].lstrip())
    return at in cards or _CARD_NOUN.match(text, end) is not None


def _names_cards(text: str, start: int, mentions: list[Mention]) -> bool:
    """"两卡一组的H100 NVL", "8卡A100服务器": the clause names the cards it counts."""
    cs, ce = clause_bounds(text, start)
    return any(m.kind in _COUNTED and cs <= m.start < ce for m in mentions)


def _has_cn_figure(text: str) -> bool:
    return not _CN_DIGITS.isdisjoint(text) or bool(_PHRASES.hits(text))


def _figures(text: str, dated: bool, taken: list[tuple[int, int]]) -> list[tuple[int, int, int, str]]:
    """(start, start of its number, end, kind) of every figure the words around it type, in text order (a figure
    typed by the name before it starts at the name, which may be a name of the text's own). A number inside a span
    of ``taken`` is not typed: its figure, which runs from the number on, overlaps what is read already."""
    found: list[tuple[int, int, int, str]] = []
    found += [(m.start(), m.start(), m.end(), phrase) for phrase, m in _PHRASES.hits(text)]
    if dated:
        found += [(m.start(), m.start(), m.end(), "year") for m in _YEAR.finditer(text)]
        found += [(m.start(1), m.start(1), m.end(1), "year") for m in _BRACKETED_YEAR.finditer(text)]
    for m in _NUMBER.finditer(text):
        if any(s < m.end() and m.start() < e for s, e in taken):
            continue
        typed, end = _kind(text, m)
        if typed is not None:
            found.append((_start(text, m.start(), typed), m.start(), end, typed))
    return sorted(found)


def _kind(text: str, m: re.Match[str]) -> tuple[str | None, int]:
    """The kind of the number ``m`` and where its figure ends, or (None, end) when no word types it."""
    written = m.group(0)
    han = not written[0].isdigit()
    if han and written in ("一", "十", "千", "万", "亿", "百"):
        return None, m.end()  # "一种", "十分": a word, not a figure
    tail = _TAIL.match(text, m.end())
    at = tail.end() if tail else m.end()
    if _ANY_AFTER.match(text, at):
        for kind, pattern in _AFTER:
            hit = pattern.match(text, at)
            if hit and hit.end() > at and (not han or kind in ("multiple", "percent", "count", "machines", "gpus")):
                if kind == "multiple" and _OPERAND.match(text, hit.end()):
                    return None, m.end()  # "4 × 48GB = 192GB": a product the number readers compute
                return kind, hit.end()
    if han:
        return None, m.end()
    left = text[:m.start()]
    for kind, pattern in _BEFORE:
        if pattern.search(left):
            suffix = re.match(r"[a-z](?![A-Za-z])", text[m.end():])  # "DisplayPort 2.1b"
            return kind, m.end() + (1 if suffix else 0)
    cs, _ce = clause_bounds(text, m.start())
    if _LABELLED.search(text, cs, m.start()) and _ALONE.match(text, m.end()) and not re.match(
            r"\s*(?:\d+[.、)]|[-*•])\s*$", text[cs:m.start()]):
        return "value", m.end()
    return None, m.end()


def _start(text: str, start: int, kind: str) -> int:
    """A figure typed by the word before it begins at that word ($599, HDMI 2.1)."""
    for before, pattern in _BEFORE:
        hit = pattern.search(text, 0, start) if before == kind else None
        if hit:
            return hit.start()
    return start


def _owner(text: str, start: int, end: int, mentions: list[Mention], state: DocState) -> Subject:
    """The one card the figure is said of, or no owner."""
    subjects = resolve(text, start, mentions, state, end=end)
    if len(subjects) != 1:
        return NO_OWNER
    subject = subjects[0]
    if subject.mention is not None and _THAN.search(text, 0, subject.mention.start):
        return NO_OWNER  # "比RTX 3090快了2x": the card compared with is not the figure's owner
    if subject.via in _ABOUT_THE_TEXT and any(m.kind in _HARDWARE for m in mentions):
        return NO_OWNER  # the sentence names other hardware: the figure may be theirs
    return subject
