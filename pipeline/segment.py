"""The one place that builds the spaCy Chinese pipeline (jieba segmenter + domain dictionary) and segments documents.

The pipeline is ``spacy.blank("zh")`` with the jieba segmenter (no model download), the domain dictionary added to
jieba from the reference tables, a component that marks products, vendors and terms as entities (merged into single
tokens, so "Tesla V100" and "Infinity Cache" stay whole), and a sentence splitter for Chinese punctuation, line
breaks and bullets. Documents are segmented on their normalised text (same length as the source), so every offset
is an offset into the source.
"""

from __future__ import annotations

import logging
import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from .extract.mentions import MentionMatcher
from .ingest import trim_span
from .normalize import normalize
from .records import BlockKind, Document, Format, Mention, Sentence
from .reference import Reference, load_reference

ANALYSED_BLOCKS = frozenset({BlockKind.PROSE, BlockKind.TITLE, BlockKind.HEADING, BlockKind.COMMENT})
_SENT_END = frozenset("。！？!?；;")
_BLANK = re.compile(r"[^\n]")
# marks that stay with the sentence before them: repeated end marks (？！), closing quotes and brackets
_CLOSERS = frozenset("。！？!?；;”’」』）)】〉》\"'")
_BULLET = re.compile(r"[ \t\u3000]*(?:[•·●▪◦\-*]|\d+[.、)](?!\d)|[（(]?[一二三四五六七八九十]+[、)）])[ \t\u3000]*")
# attribute words (and their Taiwan forms after conversion) that jieba should keep whole besides the reference names
_DOMAIN_WORDS = ("流处理器", "显存带宽", "内存带宽", "显存容量", "显存类型", "记忆体", "频宽", "显示卡", "晶片", "快取",
                 "有效带宽", "单向带宽", "双向带宽")


@dataclass(frozen=True)
class Segmented:
    """A segmented document: its normalised text, sentences (with tokens) and every mention."""

    norm: str
    sentences: tuple[Sentence, ...]
    mentions: tuple[Mention, ...]


def _dictionary_words(ref: Reference) -> Iterator[str]:
    yield from _DOMAIN_WORDS
    for p in ref.products.values():
        yield from p.aliases
    for s in ref.series.values():
        yield from s.aliases
    for v in ref.vendors.values():
        yield from (*v.aliases, *v.brands)
    for t in ref.terms.values():
        yield from (*t.aliases, t.name)
    yield from ref.architectures.values()
    yield from ref.chips.values()


class Segmenter:
    """spaCy zh + jieba with the domain dictionary, built once per reference version."""

    def __init__(self, ref: Reference) -> None:
        import jieba
        import spacy

        jieba.setLogLevel(logging.WARNING)
        for word in _dictionary_words(ref):
            w = normalize(word)
            if w and " " not in w:  # jieba cannot hold spaces; the entity merge keeps those whole
                jieba.add_word(w, freq=2_000_000)
        self.ref = ref
        self.matcher = MentionMatcher(ref)
        _MATCHERS[ref.fingerprint] = self.matcher
        _register_components()
        nlp = spacy.blank("zh", config={"nlp": {"tokenizer": {"segmenter": "jieba"}}})
        nlp.add_pipe("gpu_mentions", config={"key": ref.fingerprint})
        nlp.add_pipe("zh_sentences")
        self.nlp = nlp

    def _docs(self, text: str, pieces: list[tuple[int, int]]) -> Iterator[Any]:
        """The tokenised pieces, each carrying its own text (``Doc.text`` is rebuilt from the tokens on every
        access, which the components would otherwise pay for)."""
        for start, end in pieces:
            sdoc = self.nlp.make_doc(text[start:end])
            sdoc.user_data[_TEXT] = text[start:end]
            yield sdoc

    def segment(self, doc: Document, *, with_tokens: bool = False, max_chars: int = 2000) -> Segmented:
        norm = normalize(doc.text)
        regions = sorted(((b.start, b.end, b.kind) for b in doc.blocks if b.kind in ANALYSED_BLOCKS),
                         key=lambda r: r[0]) if doc.blocks else [(0, len(norm), BlockKind.PROSE)]
        if doc.format is Format.MD:  # **20000** 个, ==80GB==, 12 \* GPC: marks are not text (blanked: offsets stay);
            norm = _EMPHASIS.sub(lambda m: " " * len(m.group(0)), norm)  # ~~40GB~~ is struck out: not said at all
        masked = _mask(norm, regions)
        starts = [r[0] for r in regions]
        sentences: list[Sentence] = []
        mentions: list[Mention] = []
        pieces = list(_windows(masked, max_chars))
        for (start, _end), sdoc in zip(pieces, self.nlp.pipe(self._docs(masked, pieces), batch_size=16),
                                       strict=True):
            mentions.extend(_shift(m, start) for m in sdoc.user_data.get("mentions", ()))
            piece = sdoc.user_data[_TEXT]
            for tok_start, tok_end, sent_start, sent_end in sdoc.user_data[_SENTS]:
                s, e = trim_span(piece, sent_start, sent_end)
                if e <= s:
                    continue
                bullet = _BULLET.match(piece, s, e)
                if bullet and bullet.end() < e:
                    s, e = trim_span(piece, bullet.end(), e)  # "- \n。": what follows a bullet is trimmed too
                    if e <= s:
                        continue
                i = bisect_right(starts, start + s) - 1
                kind = regions[i][2] if i >= 0 else BlockKind.PROSE
                # tokens as written in the source (the analysis ran on the normalised text of the same length)
                tokens = tuple(doc.text[start + t.idx:start + t.idx + len(t.text)]
                               for t in sdoc[tok_start:tok_end] if not t.is_space) if with_tokens else ()
                sentences.append(Sentence(len(sentences), start + s, start + e, doc.text[start + s:start + e],
                                          kind, tokens))
        return Segmented(norm, tuple(sentences), tuple(mentions))


def _mask(text: str, regions: list[tuple[int, int, BlockKind]]) -> str:
    """Blank out (keeping line breaks) everything outside the analysed regions, so offsets stay put."""
    parts: list[str] = []
    pos = 0
    for s, e, _k in regions:
        if s < pos:  # a comment inside a code block already unmasked
            s = pos
        if s > pos:
            parts.append(_BLANK.sub(" ", text[pos:s]))
        if e > s:
            parts.append(text[s:e])
            pos = e
    parts.append(_BLANK.sub(" ", text[pos:]))
    return "".join(parts)


_MATCHERS: dict[str, MentionMatcher] = {}
_TEXT = "gpu_factcheck.text"  # user_data keys
_SENTS = "gpu_factcheck.sentences"
_BULLETS = frozenset(("•", "●", "▪"))


class MentionComponent:
    """spaCy component: reference names become entities (label = kind, kb_id = reference id), merged to one token."""

    def __init__(self, matcher: MentionMatcher) -> None:
        self.matcher = matcher

    def __call__(self, doc):  # type: ignore[no-untyped-def]
        from spacy.util import filter_spans

        found = list(self.matcher.find(doc.user_data.get(_TEXT) or doc.text))
        doc.user_data["mentions"] = found
        spans = []
        for m in found:
            span = doc.char_span(m.start, m.end, label=m.kind, kb_id=m.ref, alignment_mode="expand")
            if span is not None:
                spans.append(span)
        spans = filter_spans(spans)
        doc.ents = spans
        with doc.retokenize() as retok:
            for span in spans:
                if len(span) > 1:
                    retok.merge(span)
        return doc


def split_sentences(doc):  # type: ignore[no-untyped-def]
    """spaCy component: a sentence starts after 。！？；(and any closing quotes or repeated marks that follow), after
    a line break, and at a bullet. The starts are set in one array (setting token.is_sent_start one by one makes
    spaCy re-check the whole document each time), from the tokens' offsets rather than Token objects, and the
    sentences are also left in ``doc.user_data`` as (first token, end token, start char, end char)."""
    import numpy
    from spacy.attrs import IDX, LENGTH, SENT_START

    text = doc.user_data.get(_TEXT) or doc.text
    values: list[int] = []
    sentences: list[tuple[int, int, int, int]] = []
    ended = True
    first = text_start = last_end = 0
    for i, (idx, length) in enumerate(doc.to_array([IDX, LENGTH]).tolist()):
        tok = text[idx:idx + length]
        closer = tok[:1] in _CLOSERS
        start = i == 0 or (ended and not closer) or tok in _BULLETS
        if start and i:
            sentences.append((first, i, text_start, last_end))
        if start:
            first, text_start = i, idx
        values.append(1 if start else -1)
        last_end = idx + length
        if "\n" in tok or tok[-1:] in _SENT_END:
            ended = True
        elif not closer or not ended:
            ended = False
    if values:
        sentences.append((first, len(values), text_start, last_end))
        doc.from_array([SENT_START], numpy.array(values, dtype="int64").astype("uint64").reshape(-1, 1))
    doc.user_data[_SENTS] = sentences
    return doc


def _register_components() -> None:
    from spacy.language import Language

    if not Language.has_factory("gpu_mentions"):
        Language.factory("gpu_mentions", default_config={"key": ""},
                         func=lambda nlp, name, key: MentionComponent(_MATCHERS[key]))
    if not Language.has_factory("zh_sentences"):
        Language.component("zh_sentences", func=split_sentences)


def _shift(m: Mention, by: int) -> Mention:
    return Mention(m.start + by, m.end + by, m.text, m.kind, m.ref, m.variant)


_EMPHASIS = re.compile(r"~~[^~\n]+~~|\*\*|__(?=\S)|(?<=\S)__|==(?=\S)|(?<=\S)==|\\(?=[*_#|\[\]()`~>=-])")
_SOFT_BREAK = re.compile(r"[。！？!?；;\n]|[,，、 ]")


def _windows(text: str, max_chars: int) -> Iterator[tuple[int, int]]:
    """The text cut into pieces of at most ``max_chars``: at a line break if there is one, else after a sentence
    mark, else after a comma or space, so that no name or number is split; a run with none of these is hard-cut."""
    pos, end = 0, len(text)
    while pos < end:
        stop = min(end, pos + max_chars)
        if stop < end:
            nl = text.rfind("\n", pos, stop)
            if nl > pos:
                stop = nl + 1
            else:
                marks = [m.end() for m in _SOFT_BREAK.finditer(text, pos + max_chars // 2, stop)]
                sentence_ends = [m for m in marks if text[m - 1] in "。！？!?；;"]
                if sentence_ends or marks:
                    stop = (sentence_ends or marks)[-1]
        yield pos, stop
        pos = stop


@lru_cache(maxsize=2)
def _segmenter(directory: Path, fp: str) -> Segmenter:
    return Segmenter(load_reference(directory))


def get_segmenter(ref: Reference) -> Segmenter:
    """The cached segmenter for this reference version."""
    return _segmenter(ref.directory, ref.fingerprint)
