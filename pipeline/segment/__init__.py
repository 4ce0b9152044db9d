"""The one place that builds the spaCy Chinese pipeline (jieba segmenter + domain dictionary) and segments documents.

The pipeline is ``spacy.blank("zh")`` with the jieba segmenter (no model download), the domain dictionary added to
jieba from the reference tables (loaded from a cache of its own, see ``load_dictionary``), a component that finds
products, vendors and terms (and, when the tokens are asked for, makes them entities merged into single tokens, so
"Tesla V100" and "Infinity Cache" stay whole), and a sentence splitter for Chinese punctuation, line breaks and
bullets. Documents are segmented on their normalised text (same length as the source), so every offset is an offset
into the source.
"""

from __future__ import annotations

import contextlib
import logging
import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..knowledge.reference import Reference, load_reference
from ..normalize import normalize
from ..records import BlockKind, Document, Format, Mention, Sentence
from .mentions import MentionMatcher

if TYPE_CHECKING:
    from spacy.tokens import Doc

ANALYSED_BLOCKS = frozenset({BlockKind.PROSE, BlockKind.TITLE, BlockKind.HEADING, BlockKind.COMMENT})
_SENT_END = frozenset("。！？!?；;")
_BLANK = re.compile(r"[^\n]")
_CONTENT = re.compile(r"\S(?:.*\S)?", re.S)  # a span without its leading and trailing whitespace (str.isspace)
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


DOMAIN_FREQ = 2_000_000  # the jieba frequency of a domain word: it wins over any split of it


def load_dictionary(words: list[str], dt: Any = None) -> None:
    """jieba's dictionary (of ``dt``, default jieba's own tokenizer) with ``words`` added, as ``add_word`` would
    leave it.

    The first time in a process it is read from a cache of exactly that dictionary (``<cache>/jieba-<key>.dict``,
    built the first time these words are used; loading it takes a fifth of building jieba's own); a corrupt or
    missing cache means building it again. Words added to a dictionary jieba already holds (another reference
    version in the same process) are added one by one, as always.
    """
    import jieba

    dt = jieba.dt if dt is None else dt
    if not dt.initialized:
        path = _dictionary_cache(words, dt)
        if path is not None and _read_dictionary(dt, path):
            return
        _initialize(dt)
        for w in words:
            dt.add_word(w, freq=DOMAIN_FREQ)
        if path is not None:
            _write_dictionary(dt, path)
        return
    for w in words:
        dt.add_word(w, freq=DOMAIN_FREQ)


def _initialize(dt: Any) -> None:
    """jieba's own initialisation, with its cache in this user's cache folder (not the /tmp/jieba.cache every user
    shares, which another user may own) and without the traceback it logs when the cache cannot be written (the
    cache only saves time)."""
    from ..knowledge.validation import default_cache_dir

    if dt.tmp_dir is None:
        with contextlib.suppress(OSError, RuntimeError):  # RuntimeError: no home folder
            folder = default_cache_dir()
            folder.mkdir(parents=True, exist_ok=True)
            dt.tmp_dir = str(folder)
    jieba_log = logging.getLogger("jieba")
    level = jieba_log.level
    jieba_log.setLevel(logging.CRITICAL)
    try:
        dt.initialize()
    finally:
        jieba_log.setLevel(level)


def _dictionary_cache(words: list[str], dt: Any) -> Path | None:
    """Where the dictionary of jieba's own words plus ``words`` is cached: keyed by jieba's version and dictionary
    file and by the words (in order: a word added twice counts twice in jieba's total)."""
    import hashlib
    import os

    import jieba

    from ..knowledge.validation import default_cache_dir

    try:
        own = dt.dictionary  # None: the dictionary shipped with jieba
        source = os.path.abspath(own if isinstance(own, str) else
                                 os.path.join(os.path.dirname(jieba.__file__), jieba.DEFAULT_DICT_NAME))
        st = os.stat(source)
    except (OSError, TypeError, AttributeError):
        return None
    key = hashlib.sha256("\0".join([_CACHE_FORMAT, getattr(jieba, "__version__", ""), source, str(st.st_size),
                                    str(st.st_mtime_ns), str(DOMAIN_FREQ), *words]).encode("utf-8", "surrogatepass"))
    return default_cache_dir() / f"jieba-{key.hexdigest()[:20]}.dict"


_CACHE_FORMAT = "1"  # pickle of (words joined by newlines, frequencies as int64 bytes, total)


def _read_dictionary(dt: Any, path: Path) -> bool:
    import array
    import pickle

    try:
        with open(path, "rb") as f:
            keys, freqs, total = pickle.load(f)
        values = array.array("q", freqs)
        words = keys.split("\n")
        if len(words) != len(values) or not isinstance(total, int):
            return False
    except (OSError, ValueError, TypeError, EOFError, pickle.UnpicklingError):
        return False
    with dt.lock:
        dt.FREQ, dt.total, dt.initialized = dict(zip(words, values, strict=True)), total, True
    return True


def _write_dictionary(dt: Any, path: Path) -> None:
    """Best effort: a cache that cannot be written only means building the dictionary again next time."""
    import array
    import os
    import pickle

    if any("\n" in w for w in dt.FREQ):
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        with open(tmp, "wb") as f:
            pickle.dump(("\n".join(dt.FREQ), array.array("q", dt.FREQ.values()).tobytes(), dt.total), f,
                        protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except (OSError, OverflowError):
        with contextlib.suppress(OSError):
            tmp.unlink()


class Segmenter:
    """spaCy zh + jieba with the domain dictionary, built once per reference version."""

    def __init__(self, ref: Reference) -> None:
        import jieba
        import spacy

        jieba.setLogLevel(logging.WARNING)
        # jieba cannot hold spaces; the entity merge keeps those whole
        load_dictionary([w for word in _dictionary_words(ref) if (w := normalize(word)) and " " not in w])
        self.ref = ref
        self.matcher = MentionMatcher(ref)
        _MATCHERS[ref.fingerprint] = self.matcher
        _register_components()
        nlp = spacy.blank("zh", config={"nlp": {"tokenizer": {"segmenter": "jieba"}}})
        nlp.add_pipe("gpu_mentions", config={"key": ref.fingerprint})
        nlp.add_pipe("zh_sentences")
        self.nlp = nlp

    def _docs(self, text: str, pieces: list[tuple[int, int]], with_tokens: bool) -> Iterator[Any]:
        """The tokenised pieces, each carrying its own text (``Doc.text`` is rebuilt from the tokens on every
        access, which the components would otherwise pay for)."""
        for start, end in pieces:
            sdoc = self.nlp.make_doc(text[start:end])
            sdoc.user_data[_TEXT] = text[start:end]
            sdoc.user_data[_TOKENS] = with_tokens
            yield sdoc

    def segment(self, doc: Document, *, with_tokens: bool = False, max_chars: int = 2000) -> Segmented:
        norm, regions, masked = _analysed_text(doc)
        starts = [r[0] for r in regions]
        sentences: list[Sentence] = []
        mentions: list[Mention] = []
        pieces = list(_windows(masked, max_chars))
        for (start, _end), sdoc in zip(pieces, self.nlp.pipe(self._docs(masked, pieces, with_tokens), batch_size=16),
                                       strict=True):
            mentions.extend(_shift(m, start) for m in sdoc.user_data.get("mentions", ()))
            piece = sdoc.user_data[_TEXT]
            for tok_start, tok_end, sent_start, sent_end in sdoc.user_data[_SENTS]:
                # trimmed (trim_span in one search: most pieces of masked code are blank lines)
                if (content := _CONTENT.search(piece, sent_start, sent_end)) is None:
                    continue
                s, e = content.span()
                bullet = _BULLET.match(piece, s, e)
                if bullet and bullet.end() < e:
                    # "- \n。": what follows a bullet is trimmed too
                    if (content := _CONTENT.search(piece, bullet.end(), e)) is None:
                        continue
                    s, e = content.span()
                i = bisect_right(starts, start + s) - 1
                kind = regions[i][2] if i >= 0 else BlockKind.PROSE
                # tokens as written in the source (the analysis ran on the normalised text of the same length)
                tokens = tuple(doc.text[start + t.idx:start + t.idx + len(t.text)]
                               for t in sdoc[tok_start:tok_end] if not t.is_space) if with_tokens else ()
                sentences.append(Sentence(len(sentences), start + s, start + e, doc.text[start + s:start + e],
                                          kind, tokens))
        return Segmented(norm, tuple(sentences), tuple(mentions))


def _analysed_text(doc: Document) -> tuple[str, list[tuple[int, int, BlockKind]], str]:
    """The normalised text, the analysed regions (start, end, kind) and the text with everything else blanked."""
    norm = normalize(doc.text)
    regions = sorted(((b.start, b.end, b.kind) for b in doc.blocks if b.kind in ANALYSED_BLOCKS),
                     key=lambda r: r[0]) if doc.blocks else [(0, len(norm), BlockKind.PROSE)]
    if doc.format is Format.MD:  # **20000** 个, ==80GB==, 12 \* GPC: marks are not text (blanked: offsets stay);
        norm = _EMPHASIS.sub(lambda m: " " * len(m.group(0)), norm)  # ~~40GB~~ is struck out: not said at all
    return norm, regions, _mask(norm, regions)


def prose_pieces(doc: Document, max_chars: int = 2000) -> list[str]:
    """The texts ``Segmenter.segment`` hands to spaCy for ``doc`` (what the benchmark's floors segment)."""
    masked = _analysed_text(doc)[2]
    return [masked[start:end] for start, end in _windows(masked, max_chars)]


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
_TOKENS = "gpu_factcheck.tokens"  # the caller wants the tokens
_BULLETS = frozenset(("•", "●", "▪"))
# every character split_sentences decides on: a token holding none of them never starts or ends a sentence
_SPLITTER_MARKS = re.compile("[\n" + re.escape("".join(sorted(_SENT_END | _CLOSERS | _BULLETS))) + "]")


class MentionComponent:
    """spaCy component: reference names found in the text (``doc.user_data["mentions"]``, what the extractor reads).

    When the tokens are asked for (``segments.jsonl``) the names also become entities (label = kind, kb_id =
    reference id) merged to one token each, so "Tesla V100" and "Infinity Cache" stay whole. Otherwise nothing
    reads entities or tokens but the sentence splitter, and merging a name changes none of its decisions unless
    the name holds a mark it looks at (a line break, a sentence end, a closing mark, a bullet): only such names are
    merged, so the sentences are the same either way.
    """

    def __init__(self, matcher: MentionMatcher) -> None:
        self.matcher = matcher

    def __call__(self, doc: Doc) -> Doc:
        text = doc.user_data.get(_TEXT) or doc.text
        found = list(self.matcher.find(text))
        doc.user_data["mentions"] = found
        if doc.user_data.get(_TOKENS):
            from spacy.util import filter_spans

            spans = filter_spans(sp for m in found if (sp := doc.char_span(
                m.start, m.end, label=m.kind, kb_id=m.ref, alignment_mode="expand")) is not None)
            doc.ents = spans
        else:
            spans = [doc[s:e] for s, e in _marked_names(doc, text, found)] if found else []
        if spans:
            with doc.retokenize() as retok:
                for span in spans:
                    if len(span) > 1:
                        retok.merge(span)
        return doc


def _marked_names(doc: Doc, text: str, found: list[Mention]) -> list[tuple[int, int]]:
    """The token ranges of the names that hold a mark the splitter reads, among those ``filter_spans`` keeps of
    the names' ``char_span(alignment_mode="expand")``: computed on the tokens' offsets, without making a Span for
    every name."""
    import numpy
    from spacy.attrs import IDX, LENGTH

    offsets = doc.to_array([IDX, LENGTH])
    idx, ends = offsets[:, 0], offsets[:, 0] + offsets[:, 1]
    chars = numpy.array([(m.start, m.end) for m in found], dtype="int64")
    # the token holding a character (tokens and their trailing spaces tile the text), as Doc.char_span finds it
    first = numpy.searchsorted(idx, chars[:, 0], side="right") - 1
    last = numpy.searchsorted(idx, chars[:, 1] - 1, side="right") - 1
    valid = (first >= 0) & (last >= 0) & (chars[:, 0] < len(text)) & (chars[:, 1] - 1 < len(text))
    first = numpy.where(valid & (chars[:, 0] == ends[first]), first + 1, first)  # a start on a trailing space
    spans = [(s, e + 1) for s, e, ok in zip(first.tolist(), last.tolist(), valid.tolist(), strict=True) if ok]
    starts, stops = idx.tolist(), ends.tolist()

    def marked(s: int, e: int) -> bool:
        return e - s > 1 and _SPLITTER_MARKS.search(text, starts[s], stops[e - 1]) is not None

    if not any(marked(s, e) for s, e in spans):
        return []
    # spacy.util.filter_spans: the longest first, then the first; a token in one name only
    kept: list[tuple[int, int]] = []
    seen: set[int] = set()
    for s, e in sorted(spans, key=lambda se: (se[1] - se[0], -se[0]), reverse=True):
        if s not in seen and e - 1 not in seen:
            kept.append((s, e))
            seen.update(range(s, e))
    return sorted(sp for sp in kept if marked(*sp))


def split_sentences(doc: Doc) -> Doc:
    """spaCy component: a sentence starts after 。！？；(and any closing quotes or repeated marks that follow), after
    a line break, and at a bullet. Only the tokens holding one of those marks are looked at (found by a search of
    the text, mapped to tokens by their offsets): a token with none never ends a sentence and starts one only
    after a token that did. The starts are set in one array (setting token.is_sent_start one by one makes spaCy
    re-check the whole document each time), and the sentences are also left in ``doc.user_data`` as (first token,
    end token, start char, end char)."""
    import numpy
    from spacy.attrs import IDX, LENGTH, SENT_START

    text = doc.user_data.get(_TEXT) or doc.text
    n = len(doc)
    sentences: list[tuple[int, int, int, int]] = []
    doc.user_data[_SENTS] = sentences
    if not n:
        return doc
    offsets = doc.to_array([IDX, LENGTH])
    idx = offsets[:, 0]
    marks = numpy.fromiter((m.start() for m in _SPLITTER_MARKS.finditer(text)), dtype="int64")
    starts_c, ends_c = idx.tolist(), (idx + offsets[:, 1]).tolist()
    firsts: list[int] = []
    ended = True  # the text so far ends a sentence
    pending = 0  # the first token not looked at yet
    for i in numpy.unique(numpy.searchsorted(idx, marks, side="right") - 1).tolist():
        if i > pending:  # tokens without a mark: the first starts a sentence if the one before ended it
            if ended:
                firsts.append(pending)
            ended = False
        tok = text[starts_c[i]:ends_c[i]]
        closer = tok[:1] in _CLOSERS
        if i == 0 or (ended and not closer) or tok in _BULLETS:
            firsts.append(i)
        if "\n" in tok or tok[-1:] in _SENT_END:
            ended = True
        elif not closer:
            ended = False
        pending = i + 1
    if pending < n and ended:
        firsts.append(pending)
    for k, first in enumerate(firsts):
        end = firsts[k + 1] if k + 1 < len(firsts) else n
        sentences.append((first, end, starts_c[first], ends_c[end - 1]))
    values = numpy.full(n, -1, dtype="int64")
    values[firsts] = 1
    # spaCy types the array as thinc's Ints2d, a stand-in class no numpy array is declared as; it takes one
    doc.from_array([SENT_START], values.astype("uint64").reshape(-1, 1))  # type: ignore[arg-type]
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
