"""pipeline.segment: tokens that keep domain terms whole, sentence splitting, mentions with source offsets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pipeline.api import document_from_text
from pipeline.knowledge.reference import Reference
from pipeline.normalize import normalize
from pipeline.records import Document, Mention
from pipeline.segment import Segmented, Segmenter

_LEADING_BULLET = re.compile(r"^[•\-*]\s*")


def doc_of(text: str) -> Document:
    return document_from_text(text, "segment-test.txt")


def mention_at(text: str, seg: Segmented, surface: str) -> Mention:
    """The mention whose source span is the first occurrence of ``surface``."""
    start = text.index(surface)
    found = [m for m in seg.mentions if (m.start, m.end) == (start, start + len(surface))]
    assert len(found) == 1, (surface, seg.mentions)
    return found[0]


# fmt: off
TOKEN_CASES = [
    ("英伟达发布了新一代数据中心GPU。",         "英伟达"),
    ("这台服务器装有八块Tesla V100。",         "Tesla V100"),
    ("A100 80GB版本改用了HBM2e显存。",        "HBM2e"),
    ("RX 6800 XT的Infinity Cache容量为128MB。", "Infinity Cache"),
    ("H100 SXM5拥有16896个CUDA核心。",        "CUDA核心"),
    ("RTX 4090的显存容量为24GB。",             "RTX 4090"),
    ("MI300X和L40S都适合推理。",               "MI300X"),
]

SPLIT_CASES = [
    ("H100很快。A100也不慢！L40S呢？T4功耗低；MI300X显存大",
     ["H100很快。", "A100也不慢！", "L40S呢？", "T4功耗低；", "MI300X显存大"]),
    ("第一行介绍H100\n第二行介绍A800",
     ["第一行介绍H100", "第二行介绍A800"]),
    ("H100适合训练。\n\nT4适合推理。",
     ["H100适合训练。", "T4适合推理。"]),
    ("L40S的优点：• 显存48GB • 支持FP8",
     ["L40S的优点：", "显存48GB", "支持FP8"]),
    ("H100 SXM5的带宽为3.35TB/s。",            # a decimal point is no sentence end
     ["H100 SXM5的带宽为3.35TB/s。"]),
    ("RTX 4090 vs. RX 7900 XTX！谁更强?",
     ["RTX 4090 vs. RX 7900 XTX！", "谁更强?"]),
    ("Ａ８００上市了！Ｈ８００呢？",              # full-width punctuation split after folding
     ["Ａ８００上市了！", "Ｈ８００呢？"]),
    ("第一行讲H100\r\n第二行讲T4",
     ["第一行讲H100", "第二行讲T4"]),
    ("H100真的这么强？！MI300X也不差！！", ["H100真的这么强？！", "MI300X也不差！！"]),
    ("评测者说：“L40S很省电。”随后换上了A800。", ["评测者说：“L40S很省电。”", "随后换上了A800。"]),
]

MENTION_CASES = [
    # text                                      surface          kind        ref                 variant has
    ("数据中心里的特斯拉P4主要用于视频推理。",       "特斯拉P4",       "product",  "nvidia_tesla_p4",  None),
    ("特斯拉公司并不生产显卡。",                    "特斯拉公司",      "company",  "tesla_inc",        None),
    ("特斯拉的电动车与GPU无关。",                  "特斯拉",         "company",  "tesla_inc",        None),
    ("RX 6000系列采用RDNA 2架构。",               "RX 6000系列",    "series",   "amd_rx_6000",      None),
    ("輝達在臺灣發表了新款顯示卡。",                 "輝達",          "vendor",   "nvidia",           None),
    ("A100 80GB的显存带宽更高。",                  "A100",          "product",  "nvidia_a100",      "80GB"),
    ("H100 SXM5的TDP可达700W。",                  "H100",          "product",  "nvidia_h100",      "SXM5"),
    ("MI300X配备192GB HBM3显存。",                "MI300X",        "product",  "amd_mi300x",       None),
    ("L40S面向推理和图形工作负载。",                 "L40S",          "product",  "nvidia_l40s",      None),
    ("T4是一款低功耗推理卡。",                      "T4",            "product",  "nvidia_t4",        None),
    ("A800是A100的特供版本。",                     "A800",          "product",  "nvidia_a800",      None),
    ("这篇评测对比了RTX 4090和RTX 3090。",          "RTX 4090",      "product",  "nvidia_rtx_4090",  None),
]

# Traditional Chinese and full-width text: (text, [(source surface, kind, ref), ...] in order)
SOURCE_OFFSET_CASES = [
    ("輝達的H100記憶體頻寬為3.35TB/s，A100 80GB版本則約為2TB/s。",
     [("輝達", "vendor", "nvidia"), ("H100", "product", "nvidia_h100"), ("A100", "product", "nvidia_a100")]),
    ("ＲＴＸ　４０９０的显存为２４ＧＢ。Ｈ１００的功耗为７００Ｗ。",
     [("ＲＴＸ　４０９０", "product", "nvidia_rtx_4090"), ("Ｈ１００", "product", "nvidia_h100")]),
    ("超威的ＭＩ３００Ｘ與輝達的Ｈ１００競爭。",  # 超微 is Supermicro in mainland usage (vendors.csv)
     [("超威", "vendor", "amd"), ("ＭＩ３００Ｘ", "product", "amd_mi300x"), ("輝達", "vendor", "nvidia"),
      ("Ｈ１００", "product", "nvidia_h100")]),
]
# fmt: on

# every text above, xfail cases included (pytest.param keeps its arguments in .values)
ALL_TEXTS = [getattr(case, "values", case)[0]
             for case in (*TOKEN_CASES, *SPLIT_CASES, *MENTION_CASES, *SOURCE_OFFSET_CASES)]


def assert_consistent(doc: Document, seg: Segmented) -> None:
    """Sentences are trimmed, ordered slices of the source; mentions point at their source text."""
    assert seg.norm == normalize(doc.text)
    pos = 0
    for i, s in enumerate(seg.sentences):
        assert s.index == i
        assert pos <= s.start < s.end <= len(doc.text), s
        assert s.text == doc.text[s.start:s.end]
        assert s.text == s.text.strip()
        pos = s.end
    for m in seg.mentions:
        assert 0 <= m.start < m.end <= len(doc.text), m
        assert normalize(doc.text[m.start:m.end]) == m.text


@pytest.mark.parametrize(("text", "term"), TOKEN_CASES)
def test_domain_terms_are_single_tokens(segmenter: Segmenter, text: str, term: str) -> None:
    seg = segmenter.segment(doc_of(text), with_tokens=True)
    tokens = [t for s in seg.sentences for t in s.tokens]
    assert term in tokens


def test_no_tokens_unless_asked(segmenter: Segmenter) -> None:
    seg = segmenter.segment(doc_of(TOKEN_CASES[0][0]))
    assert seg.sentences and all(s.tokens == () for s in seg.sentences)


@pytest.mark.parametrize(("text", "expected"), SPLIT_CASES)
def test_sentence_split(segmenter: Segmenter, text: str, expected: list[str]) -> None:
    seg = segmenter.segment(doc_of(text))
    assert [_LEADING_BULLET.sub("", s.text) for s in seg.sentences] == expected


def test_every_bullet_marker_is_stripped(segmenter: Segmenter) -> None:
    seg = segmenter.segment(doc_of("L40S的优点：• 显存48GB • 支持FP8"))
    assert [s.text for s in seg.sentences] == ["L40S的优点：", "显存48GB", "支持FP8"]


@pytest.mark.parametrize("text", ALL_TEXTS)
def test_sentences_and_mentions_index_the_source(segmenter: Segmenter, text: str) -> None:
    doc = doc_of(text)
    assert_consistent(doc, segmenter.segment(doc, with_tokens=True))


@pytest.mark.parametrize(("text", "surface", "kind", "ref_id", "variant"), MENTION_CASES)
def test_mention(segmenter: Segmenter, text: str, surface: str, kind: str, ref_id: str,
                 variant: str | None) -> None:
    m = mention_at(text, segmenter.segment(doc_of(text)), surface)
    assert (m.kind, m.ref) == (kind, ref_id)
    if variant is None:
        assert m.variant is None
    else:
        assert variant in (m.variant or "")


@pytest.mark.parametrize(("text", "expected"), SOURCE_OFFSET_CASES)
def test_mentions_in_traditional_and_full_width_text(segmenter: Segmenter, text: str,
                                                     expected: list[tuple[str, str, str]]) -> None:
    seg = segmenter.segment(doc_of(text))
    wanted = {kind for _s, kind, _r in expected}
    found = [(text[m.start:m.end], m.kind, m.ref) for m in seg.mentions if m.kind in wanted]
    assert found == expected


def test_mention_refs_exist_in_the_reference(segmenter: Segmenter, ref: Reference) -> None:
    tables = {"product": ref.products, "series": ref.series, "vendor": ref.vendors, "company": ref.vendors,
              "term": ref.terms, "memory_type": ref.terms, "link": ref.links}
    seen = set()
    for text in ALL_TEXTS:
        for m in segmenter.segment(doc_of(text)).mentions:
            seen.add(m.kind)
            if m.kind in tables:
                assert m.ref in tables[m.kind], m
    assert {"product", "series", "vendor", "company", "term", "memory_type"} <= seen


# ------------------------------------------------------------------ properties

PIECES = st.sampled_from(
    ["H100", "Ｈ１００", "A100 80GB", "RTX 4090", "ＲＴＸ　４０９０", "特斯拉P4", "特斯拉公司", "輝達",
     "英伟达", "RX 6000系列", "記憶體頻寬", "显存", "为", "高达", "80GB", "３．３５ＴＢ／ｓ", "。", "！",
     "？", "；", "，", "\n", "\n\n", "• ", " ", "\u3000", "- ", "1. ", "CUDA核心", "Infinity Cache", "HBM2e"])


@settings(max_examples=60, deadline=None)
@given(pieces=st.lists(PIECES, max_size=25), max_chars=st.sampled_from([2000, 16, 7]))
@example(pieces=["H100", "。", "- ", "\n", "。", "H100"], max_chars=2000)  # a bullet followed by a line break
def test_offsets_hold_for_generated_text(segmenter: Segmenter, pieces: list[str], max_chars: int) -> None:
    doc = doc_of("".join(pieces))
    assert_consistent(doc, segmenter.segment(doc, with_tokens=True, max_chars=max_chars))


# Names written across the marks the sentence splitter reads (a line break, a closing bracket, a bullet).
MARKED = st.sampled_from(["Tesla\nV100", "RTX\n4090", "Infinity\nCache", "（H100）", "H100」", "●H100", "A100；",
                          "“RTX 4090”", "RX 6800 XT", "Tesla V100", "Radeon Pro"])


@settings(max_examples=80, deadline=None)
@given(pieces=st.lists(st.one_of(PIECES, MARKED), max_size=25), max_chars=st.sampled_from([2000, 16, 7]))
@example(pieces=["Tesla\nV100", "。", "”", "RTX 4090"], max_chars=2000)
def test_sentences_do_not_depend_on_merging_names(segmenter: Segmenter, pieces: list[str], max_chars: int) -> None:
    """Without tokens, only names holding a mark the splitter reads are merged; the sentences and mentions are
    those of a segmentation with every name merged into one token."""
    doc = doc_of("".join(pieces))
    lean = segmenter.segment(doc, max_chars=max_chars)
    full = segmenter.segment(doc, with_tokens=True, max_chars=max_chars)
    assert [(s.start, s.end, s.text, s.kind) for s in lean.sentences] == \
        [(s.start, s.end, s.text, s.kind) for s in full.sentences]
    assert lean.mentions == full.mentions


class _Names:
    """A matcher that finds one name spanning [start, end)."""

    def __init__(self, start: int, end: int) -> None:
        self.span = (start, end)

    def find(self, text: str) -> list[Mention]:
        s, e = self.span
        return [Mention(s, e, text[s:e], "product", "test_card")]


# fmt: off
GUARD_CASES = [
    # text,            the name's span   (the name holds a mark the splitter reads)
    ("甲乙。丙丁戊。",  (0, 4)),          # a sentence end
    ("甲乙\n丙丁戊。",  (0, 4)),          # a line break
    ("甲。）乙丙丁。",  (2, 5)),          # a closing bracket right after a sentence end
    ("甲乙。丙丁戊。",  (3, 5)),          # none: merged or not, the same sentences
]
# fmt: on


@pytest.mark.parametrize(("text", "span"), GUARD_CASES)
def test_names_the_splitter_reads_are_merged(segmenter: Segmenter, text: str, span: tuple[int, int]) -> None:
    from pipeline.segment import _SENTS, _TEXT, _TOKENS, MentionComponent, split_sentences

    def sentences(with_tokens: bool) -> list[tuple[int, int]]:
        doc = segmenter.nlp.make_doc(text)
        doc.user_data.update({_TEXT: text, _TOKENS: with_tokens})
        split_sentences(MentionComponent(_Names(*span))(doc))  # type: ignore[arg-type]
        return [(s, e) for _a, _b, s, e in doc.user_data[_SENTS]]

    assert sentences(False) == sentences(True)


# ------------------------------------------------------------------ jieba's dictionary, cached

WORDS = ["显存带宽测速卡", "星河X1", "流处理器阵列", "星河X1"]  # a word twice counts twice in jieba's total


def _built(words: list[str]) -> object:
    import jieba

    dt = jieba.Tokenizer()
    dt.initialize()
    for w in words:
        dt.add_word(w, freq=2_000_000)
    return dt


def test_the_cached_dictionary_is_the_one_add_word_builds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import jieba

    from pipeline.segment import load_dictionary

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    load_dictionary(WORDS, jieba.Tokenizer())  # the first time: built, then cached
    [cache] = (tmp_path / "gpu-factcheck").glob("jieba-*.dict")
    cached = jieba.Tokenizer()
    with monkeypatch.context() as mp:
        mp.setattr(jieba.Tokenizer, "initialize", lambda self, *a: pytest.fail("built instead of read"))
        load_dictionary(WORDS, cached)
    expected = _built(WORDS)
    assert (cached.FREQ, cached.total) == (expected.FREQ, expected.total)  # type: ignore[attr-defined]
    assert list(cached.cut("星河X1的流处理器阵列")) == list(expected.cut("星河X1的流处理器阵列"))  # type: ignore[attr-defined]
    load_dictionary(WORDS[:2], jieba.Tokenizer())  # other words: a cache of their own
    assert len(list((tmp_path / "gpu-factcheck").glob("jieba-*.dict"))) == 2
    assert cache.exists()


@pytest.mark.parametrize("damage", [b"", b"not a pickle", None])
def test_a_damaged_cache_is_built_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        damage: bytes | None) -> None:
    import pickle

    import jieba

    from pipeline.segment import load_dictionary

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    load_dictionary(WORDS, jieba.Tokenizer())
    [cache] = (tmp_path / "gpu-factcheck").glob("jieba-*.dict")
    # a truncated file, garbage, or frequencies that do not match the words
    cache.write_bytes(damage if damage is not None else pickle.dumps(("a\nb", b"\0" * 8, 1)))
    again = jieba.Tokenizer()
    load_dictionary(WORDS, again)
    expected = _built(WORDS)
    assert (again.FREQ, again.total) == (expected.FREQ, expected.total)  # type: ignore[attr-defined]


def test_words_join_a_dictionary_already_loaded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pipeline.segment import load_dictionary

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    dt = _built(WORDS[:1])  # another reference's words are in it already
    load_dictionary(WORDS[1:], dt)
    expected = _built(WORDS)
    assert (dt.FREQ, dt.total) == (expected.FREQ, expected.total)  # type: ignore[attr-defined]
    assert not list(tmp_path.rglob("jieba-*.dict"))  # such a dictionary is not cached


# ------------------------------------------------------------------ the splitter and the merge, against the old loops

def split_reference(doc: object, text: str) -> tuple[list[tuple[int, int, int, int]], list[int]]:
    """The splitter as a loop over every token: (sentences, is_sent_start of each token)."""
    from pipeline.segment import _BULLETS, _CLOSERS, _SENT_END

    starts: list[int] = []
    sentences: list[tuple[int, int, int, int]] = []
    ended = True
    first = text_start = last_end = 0
    for i, t in enumerate(doc):  # type: ignore[attr-defined]
        tok = text[t.idx:t.idx + len(t)]
        closer = tok[:1] in _CLOSERS
        start = i == 0 or (ended and not closer) or tok in _BULLETS
        if start and i:
            sentences.append((first, i, text_start, last_end))
        if start:
            first, text_start = i, t.idx
        starts.append(1 if start else -1)
        last_end = t.idx + len(t)
        if "\n" in tok or tok[-1:] in _SENT_END:
            ended = True
        elif not closer or not ended:
            ended = False
    if starts:
        sentences.append((first, len(starts), text_start, last_end))
    return sentences, starts


# fmt: off
SPLITTER_CASES = [
    # text,                      merged token ranges,  sentences as (start char, end char)
    ("甲乙。丙丁",                 [],                  [(0, 3), (3, 5)]),
    ("甲乙。”」丙丁",               [],                  [(0, 5), (5, 7)]),        # closers stay with the sentence
    ("”甲乙",                     [],                  [(0, 1), (1, 3)]),        # a closer first: on its own
    ("甲乙？！丙",                  [],                  [(0, 4), (4, 5)]),        # repeated end marks
    ("甲乙\n丙丁",                 [],                  [(0, 3), (3, 5)]),        # the break ends the first one
    ("甲乙• 丙丁● 戊",              [],                  [(0, 2), (2, 6), (6, 9)]),
    ("甲乙。\n\n丙",               [],                  [(0, 3), (3, 5), (5, 6)]),  # blank (trimmed later)
    ("甲）乙",                     [],                  [(0, 3)]),                # a closer after no end: nothing
    ("甲乙。丙丁。",                [(1, 3)],            [(0, 3), (3, 6)]),        # a merged 乙。 ends a sentence
    ("甲\n乙丙。",                 [(0, 3)],            [(0, 5)]),                # a break inside a merged token
    ("。甲",                       [],                  [(0, 1), (1, 2)]),
    ("",                          [],                  []),
]
# fmt: on


def _tokens_of(segmenter: Segmenter, text: str, merged: list[tuple[int, int]]) -> object:
    from spacy.util import filter_spans

    from pipeline.segment import _TEXT

    doc = segmenter.nlp.make_doc(text)
    doc.user_data[_TEXT] = text
    # expanded to whole tokens, spans apart in characters can share a token: spaCy merges no two that overlap
    spans = filter_spans([sp for s, e in merged if (sp := doc.char_span(s, e, alignment_mode="expand")) is not None])
    with doc.retokenize() as retok:
        for span in spans:
            if len(span) > 1:
                retok.merge(span)
    return doc


@pytest.mark.parametrize(("text", "merged", "expected"), SPLITTER_CASES)
def test_split_sentences(segmenter: Segmenter, text: str, merged: list[tuple[int, int]],
                         expected: list[tuple[int, int]]) -> None:
    from pipeline.segment import _SENTS, split_sentences

    doc = split_sentences(_tokens_of(segmenter, text, merged))  # type: ignore[arg-type]
    assert [(s, e) for _a, _b, s, e in doc.user_data[_SENTS]] == expected
    assert (doc.user_data[_SENTS], [1 if t.is_sent_start else -1 for t in doc]) == split_reference(doc, text)


SPLIT_TEXT = st.lists(st.sampled_from([*"。！？!?；;”’」』）)】〉》\"'•·●▪-*", "\n", " ", "  ", "\t", "\u3000",
                                       *"甲乙丙的是", "显存", "H100", "1.", "3.35"]), max_size=40).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=SPLIT_TEXT, merges=st.lists(st.tuples(st.integers(0, 80), st.integers(1, 6)), max_size=4))
@example(text="甲。 ”\n乙", merges=[(1, 3)])
def test_split_sentences_is_the_loop_over_every_token(segmenter: Segmenter, text: str,
                                                      merges: list[tuple[int, int]]) -> None:
    """The split read from the marks equals the loop over every token, also with tokens merged over marks."""
    from pipeline.segment import _SENTS, split_sentences

    spans = [(s, min(s + k, len(text))) for s, k in merges if s < len(text)]
    doc = _tokens_of(segmenter, text, [sp for i, sp in enumerate(spans)
                                       if all(sp[1] <= a or b <= sp[0] for a, b in spans[:i])])
    split_sentences(doc)  # type: ignore[arg-type]
    assert (doc.user_data[_SENTS], [1 if t.is_sent_start else -1 for t in doc]) == \
        split_reference(doc, text)  # type: ignore[attr-defined]


@settings(max_examples=200, deadline=None)
@given(text=SPLIT_TEXT, names=st.lists(st.tuples(st.integers(0, 80), st.integers(1, 8)), max_size=6))
@example(text="甲乙。丙丁戊。", names=[(0, 4), (1, 2)])
def test_marked_names_are_those_filter_spans_keeps(segmenter: Segmenter, text: str,
                                                  names: list[tuple[int, int]]) -> None:
    """The names merged without tokens: those of char_span + filter_spans (the spans spaCy would make) that are
    more than one token and hold a mark the splitter reads."""
    from spacy.util import filter_spans

    from pipeline.segment import _SPLITTER_MARKS, _marked_names

    found = [Mention(s, min(s + k, len(text)), "", "product", "x") for s, k in names
             if s < len(text) and not text[s].isspace()]
    doc = segmenter.nlp.make_doc(text)
    spans = filter_spans(sp for m in found if (sp := doc.char_span(m.start, m.end, alignment_mode="expand")))
    expected = [(sp.start, sp.end) for sp in spans
                if len(sp) > 1 and _SPLITTER_MARKS.search(text, sp.start_char, sp.end_char)]
    assert (_marked_names(doc, text, found) if found else []) == expected


@settings(max_examples=300, deadline=None)
@given(text=st.text(st.sampled_from([" ", "\n", "\t", "\u3000", "\u00a0", "\u2028", "\x1c", "甲", "a", "。"]),
                    max_size=20), bounds=st.tuples(st.integers(0, 20), st.integers(0, 20)))
def test_content_is_trim_span(text: str, bounds: tuple[int, int]) -> None:
    """The one-search trim of a sentence equals trim_span (whitespace as str.isspace reads it)."""
    from pipeline.ingest import trim_span
    from pipeline.segment import _CONTENT

    s, e = min(bounds[0], len(text)), min(max(bounds), len(text))
    found = _CONTENT.search(text, s, e)
    a, b = trim_span(text, s, e)
    assert (found.span() if found else None) == ((a, b) if a < b else None)
