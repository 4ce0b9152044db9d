"""pipeline.lexicon.scanning: the first-character lookahead finds exactly what the plain pattern finds; a group scan
what the loop over its groups finds."""

from __future__ import annotations

import re

import pytest
from hypothesis import example as hypothesis_example
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.extract import cues
from pipeline.lexicon import ROLES, load_lexicon
from pipeline.lexicon.scanning import (
    LITERALS,
    Gated,
    GroupScan,
    any_of,
    first_class,
    required_literals,
    with_first_chars,
)

# fmt: off
FIRST_CASES = [
    # (pattern, flags, the class a match starts with; None: cannot be told)
    (r"(?<![A-Za-z0-9])(?:Tesla\s*)?[KMPV]\d{2}", re.I, "[KMPTV]"),  # an optional brand, then the model letter
    (r"(?:RTX|GTX)\s?\d{4}",                      re.I, "[GR]"),
    (r"\d{4}\s?(?:Ti|XT)",                        re.I, r"[\d]"),
    (r"(?:昇腾|升腾)\d{3}",                         re.I, "[升昇]"),
    (r"[A-C]x|Q",                                 re.I, "[A-CQ]"),
    (r"(?:a|b?)c",                                re.I, "[abc]"),     # an alternative that can be empty: what follows
    (r"x*y+",                                     re.I, "[xy]"),
    (r"(?=A)B",                                   re.I, "[B]"),       # an assertion takes no character
    (r"(?<!KV)缓存",                               0,    "[缓]"),
    (r"(?:第)?代",                                 0,    "[代第]"),
    (r"[^a]b",                                    re.I, None),        # a negated class: any character
    (r".b",                                       re.I, None),
    (r"a?",                                       re.I, None),        # can match nothing
    (r"(?:a|b?)",                                 0,    None),        # one branch can be empty
    (r"(?i:a)b",                                  re.I, None),        # a local flag: not read
    (r"(\w)\1",                                   0,    r"[\w]"),
]
# fmt: on


@pytest.mark.parametrize(("pattern", "flags", "expected"), FIRST_CASES)
def test_first_class(pattern: str, flags: int, expected: str | None) -> None:
    assert first_class(pattern, flags) == expected


WRAPPED = [
    # (pattern, flags, whether the compiled pattern has the lookahead)
    ("显存|带宽", 0, True),
    ("\\d+个", 0, True),
    (".个", 0, False),
    ("(?i)abc", 0, False),  # global flags stay at the start: left as written
    ("Tensor\\s*Core", re.I, True),
]


@pytest.mark.parametrize(("pattern", "flags", "wrapped"), WRAPPED)
def test_with_first_chars_adds_the_lookahead_only_when_known(pattern: str, flags: int, wrapped: bool) -> None:
    compiled = with_first_chars(pattern, flags)
    assert compiled.pattern.startswith("(?=[") is wrapped
    assert compiled.flags == re.compile(pattern, flags).flags


# patterns of the kinds the extractor compiles, and every word pattern of the lexicon
SAMPLE_PATTERNS = [
    "显存|带宽|Tensor\\s*Core|RT核心",
    "(?<!KV)(?:L2|二级)?缓存",
    "(?:第)?[一二三]代",
    "a[-\\]^]b|\\^x",
    "(?:支持|具备)\\s*(?:FP8|TF32)(?![A-Za-z0-9])",
]
LEXICON_PATTERNS = sorted({e.word for e in load_lexicon().entries})
ALPHABET = st.sampled_from(list("显存带宽缓KV L2二级第一三代支持具备FP8TF32tensorcoreRT核心a-]^bx,。\n0"))


@pytest.mark.parametrize("pattern", SAMPLE_PATTERNS)
@settings(max_examples=200, deadline=None)
@given(text=st.lists(ALPHABET, max_size=40).map("".join))
def test_the_lookahead_finds_the_same_matches(pattern: str, text: str) -> None:
    for flags in (0, re.I):
        plain, fast = re.compile(pattern, flags), with_first_chars(pattern, flags)
        assert [m.span() for m in fast.finditer(text)] == [m.span() for m in plain.finditer(text)]
        assert [fast.match(text, i) is None for i in range(len(text))] == \
            [plain.match(text, i) is None for i in range(len(text))]


def test_every_lexicon_word_finds_the_same_matches_in_its_example() -> None:
    """Every row's word over every row's example (a few hundred thousand searches: the real vocabulary)."""
    lexicon = load_lexicon()
    examples = [e.example for e in lexicon.entries]
    assert len(LEXICON_PATTERNS) > 300
    for pattern in LEXICON_PATTERNS:
        plain, fast = re.compile(pattern, re.I), with_first_chars(pattern, re.I)
        for example in examples:
            assert [m.span() for m in fast.finditer(example)] == [m.span() for m in plain.finditer(example)], \
                (pattern, example)


ANY_OF = [
    # (texts, whether some pattern of the gate matches at the start)
    ("Tensor Core数量", True),
    ("显存带宽", True),
    ("光追核心", False),
    ("", False),
]


@pytest.mark.parametrize(("text", "expected"), ANY_OF)
def test_any_of_matches_where_one_of_its_patterns_does(text: str, expected: bool) -> None:
    patterns = [re.compile(r"Tensor\s*Core", re.I), re.compile("显存|带宽", re.I)]
    gate = any_of(patterns)
    assert (gate.match(text) is not None) is expected
    assert (gate.match(text) is not None) == any(p.match(text) for p in patterns)


def test_any_of_refuses_patterns_of_different_flags() -> None:
    with pytest.raises(ValueError, match="one set of flags"):
        any_of([re.compile("a", re.I), re.compile("b")])


# cue patterns given the lookahead, each against the pattern as written (searched at every start and end, as the
# extractors search clauses and the text before a figure)
CUE_ALPHABET = st.sampled_from(list("前后两二者它其这张卡块GPU显38 ×x=，,;。\n|-—a1"))


@pytest.mark.parametrize("name", ["CLAUSE_BREAK", "BARE_MULTIPLIER", "PRONOUN"])
@settings(max_examples=200, deadline=None)
@given(text=st.lists(CUE_ALPHABET, max_size=24).map("".join))
def test_cue_patterns_with_the_lookahead_find_what_the_plain_pattern_finds(name: str, text: str) -> None:
    fast = getattr(cues, name)
    assert fast.pattern.startswith("(?=[") and fast.pattern.endswith(")")
    plain = re.compile(fast.pattern.split(")(?:", 1)[1][:-1], fast.flags)
    for pos in range(len(text) + 1):
        for endpos in (pos, len(text)):
            assert [(m.span(), m.groupdict()) for m in fast.finditer(text, 0, endpos)] == \
                [(m.span(), m.groupdict()) for m in plain.finditer(text, 0, endpos)]
            found, expected = fast.search(text, pos, endpos), plain.search(text, pos, endpos)
            assert (found and found.span()) == (expected and expected.span())


# GroupScan: one gate and one scan a text for a role's groups, the same hits as the loop over the groups it replaces
GROUPS = [
    ("feature", re.compile(r"Tensor\s*Core|张量核心", re.I)),
    ("memory", re.compile("显存|HBM\\d?", re.I)),
    ("feature", re.compile("NVLink", re.I)),  # a value may come back: its groups stay in their order
]
SCAN = GroupScan(GROUPS)  # made once: its patterns join the process's one automaton
GROUP_ALPHABET = st.sampled_from(list("Tensor Core张量核心显存HBM3NVLinkvl，。a1"))


def _loop(groups: list[tuple[str, re.Pattern[str]]], text: str) -> list[tuple[str, tuple[int, int]]]:
    return [(v, m.span()) for v, p in groups for m in p.finditer(text)]


@settings(max_examples=300, deadline=None)
@given(texts=st.lists(st.lists(GROUP_ALPHABET, max_size=30).map("".join), min_size=1, max_size=4))
def test_a_group_scan_finds_what_the_loop_over_its_groups_finds(texts: list[str]) -> None:
    scan = SCAN
    for text in texts + texts[::-1]:  # a text read again after another: the memo is the last text's only
        assert [(v, m.span()) for v, m in scan.hits(text)] == _loop(GROUPS, text)


def test_a_group_scan_answers_the_same_text_from_its_memo() -> None:
    scan = GroupScan(GROUPS)
    text = "H100的Tensor Core与HBM3显存"
    first = scan.hits(text)
    assert [(v, m.group(0)) for v, m in first] == [("feature", "Tensor Core"), ("memory", "HBM3"), ("memory", "显存")]
    assert scan.hits(text) is first  # the passes of one sentence share the scan
    assert scan.hits("没有相关词") == ()


@pytest.mark.parametrize("role", sorted(r for r in ROLES if load_lexicon().rows(r)))
def test_every_role_scans_its_examples_as_its_groups_do(role: str) -> None:
    lexicon = load_lexicon()
    groups = lexicon.groups(role)
    scan = GroupScan(groups)
    for example in sorted({e.example for e in lexicon.entries}):
        assert [(v, m.span()) for v, m in scan.hits(example)] == _loop(groups, example), (role, example)


# required_literals: lower-case runs one of which every match holds (what the group scan's automaton looks for)
LITERAL_CASES = [
    # (pattern, flags, the runs; None: no run every match needs)
    (r"Tensor\s*Core",           re.I, {"core"}),         # s is not folded (re.I matches it with ſ): ten, or, core
    (r"(?:RT|光追)\s*核心",        re.I, {"rt", "光追"}),    # an alternation: one run of each alternative
    (r"FP8|TF32",                 0,    {"fp8", "tf32"}),
    (r"a?b",                      re.I, {"b"}),            # an optional character is no run
    (r"(?:x|[0-9])y",             re.I, {"y"}),            # an alternative without a run: the run after it
    (r"[A-Z]+",                   re.I, None),
    (r"(?i:xy)z",                 0,    {"z"}),            # local flags: left alone
    (r"NVLink(?:-C2C)?",          re.I, {"nvl"}),          # i is not folded (re.I matches it with ı)
    (r"(?:HBM){2,}",              re.I, {"hbm"}),          # a repeat that must occur
    (r"(?:HBM)*",                 re.I, None),
    (r"第\s*[一二三]代",            0,    {"第"}),
    (r"Σ",                        re.I, None),             # a cased letter outside ASCII: not folded
]


@pytest.mark.parametrize(("pattern", "flags", "expected"), LITERAL_CASES)
def test_required_literals(pattern: str, flags: int, expected: set[str] | None) -> None:
    assert required_literals(pattern, flags) == (frozenset(expected) if expected is not None else None)


LITERAL_ALPHABET = st.sampled_from([*"TtEeNnSsOoRrCcKkIiſıK第代一二三 -显存核心光追", "Tensor", "CORE", "ſ", "İ"])


@pytest.mark.parametrize("pattern", [r"Tensor\s*Core", r"(?:RT|光追)\s*核心", r"第\s*[一二三]代", r"core|KERNEL",
                                     r"s[kK]i", r"NVLink|TeNsOr"])
@settings(max_examples=300, deadline=None)
@given(text=st.lists(LITERAL_ALPHABET, max_size=20).map("".join))
@hypothesis_example(text="Tenſor Core")  # re.IGNORECASE matches s with ſ, i with ı, k with K
@hypothesis_example(text="NVLınk sKi")
def test_every_match_holds_one_of_the_required_literals(pattern: str, text: str) -> None:
    for flags in (0, re.I):
        runs = required_literals(pattern, flags)
        for m in re.finditer(pattern, text, flags):
            assert runs is None or any(r in m.group(0).lower() for r in runs), (pattern, flags, m.group(0))


def test_every_lexicon_word_match_holds_one_of_its_required_literals() -> None:
    lexicon = load_lexicon()
    examples = [e.example for e in lexicon.entries]
    with_runs = 0
    for pattern in LEXICON_PATTERNS:
        runs = required_literals(pattern, re.I)
        with_runs += runs is not None
        for example in examples:
            for m in re.finditer(pattern, example, re.I):
                assert runs is None or any(r in m.group(0).lower() for r in runs), (pattern, example)
    assert with_runs > 300  # most words of the vocabulary give the automaton something to look for


# Gated: a pattern behind the shared automaton finds exactly what it finds
GATED = [r"Tensor\s*Core", r"(?:RT|光追)\s*核心", r"[A-Z]\d", r"第\s*[一二三]代|NVLink"]
# registered once (every Gated joins the one automaton of the process)
GATED_BY = {(p, flags): Gated(re.compile(p, flags)) for p in GATED for flags in (0, re.I)}


@pytest.mark.parametrize("pattern", GATED)
@settings(max_examples=200, deadline=None)
@given(text=st.lists(LITERAL_ALPHABET, max_size=20).map("".join))
@hypothesis_example(text="Tenſor Core")
def test_a_gated_pattern_finds_what_the_pattern_finds(pattern: str, text: str) -> None:
    for flags in (0, re.I):
        gated = GATED_BY[pattern, flags]
        plain = gated.pattern
        assert [m.span() for m in gated.finditer(text)] == [m.span() for m in plain.finditer(text)]
        found, expected = gated.search(text), plain.search(text)
        assert (found and found.span()) == (expected and expected.span())
        for pos in range(len(text) + 1):
            found, expected = gated.search(text, pos), plain.search(text, pos)
            assert (found and found.span()) == (expected and expected.span())


def test_the_automaton_answers_a_text_once_for_every_pattern() -> None:
    core, anything = GATED_BY[r"Tensor\s*Core", re.I], GATED_BY[r"[A-Z]\d", 0]
    text = "这段话没有那个词"
    assert core.search(text) is None and anything.search(text) is None
    present = LITERALS.present(text)
    assert LITERALS.present(text) is present  # the second pattern's question was answered by the first pass
    assert core._id not in present and anything._id in present  # no run to look for: always searched
