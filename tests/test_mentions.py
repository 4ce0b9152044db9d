"""pipeline.segment.mentions: the names found in normalised text, checked against straightforward readings of the
same rules (every grammar's own finditer, a per-character squeeze), on sentences written for the tests."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pipeline.records import Mention
from pipeline.segment import Segmenter
from pipeline.segment import mentions as M
from pipeline.segment.mentions import MentionMatcher


@pytest.fixture(scope="module")
def matcher(segmenter: Segmenter) -> MentionMatcher:
    return segmenter.matcher


# ------------------------------------------------------------------ straightforward readings (the old code)

def squeeze_reference(text: str) -> tuple[str, list[int]]:
    index = [i for i, ch in enumerate(text) if ch not in M._SQUEEZE]
    return "".join(text[i] for i in index).translate(M._LOWER), index


def model_hits_reference(text: str) -> list[tuple[int, int, int]]:
    """Every grammar's finditer over the whole text, leftmost, then longest, then the grammar's row."""
    return sorted(((h.start(), h.end(), i) for i, (_v, p) in enumerate(M._MODEL_NAMES) for h in p.finditer(text)),
                  key=lambda h: (h[0], h[0] - h[1], h[2]))


def find_models_reference(matcher: MentionMatcher, text: str, known: list[Mention]) -> list[Mention]:
    taken = [(m.start, m.end) for m in known if m.kind not in ("vendor", "company")]
    out = []
    for s, e, i in model_hits_reference(text):
        name = text[s:e]
        if any(a < e and s < b for a, b in taken) or M._NOT_A_PRODUCT.fullmatch(name) or M._CHIP_NOUN.match(text, e):
            continue
        v = M._VARIANT.match(text, e)
        taken.append((s, e))
        out.append(Mention(s, e, name, "product", f"model:{M._MODEL_NAMES[i][0]}:{matcher._model_key(name)}",
                           " ".join(v.group(0).replace("-", " ").split()) if v else None))
    return out


def find_known_reference(matcher: MentionMatcher, text: str) -> list[Mention]:
    if not text:
        return []
    squeezed, index = squeeze_reference(text)
    candidates = []
    for end_sq, (key, *_rest) in matcher.automaton.iter(squeezed):
        start, end = index[end_sq - len(key) + 1], index[end_sq] + 1
        if M._is_word(key[0]) and start > 0 and M._is_word(text[start - 1]):
            continue
        if M._is_word(key[-1]) and end < len(text) and M._is_word(text[end]):
            continue
        candidates.append((start, end, key))
    candidates.sort(key=lambda c: (c[0], -(c[1] - c[0]), M._PRIORITY[matcher.entries[c[2]][0].kind]))
    chosen, pos = [], 0
    for start, end, key in candidates:
        if start >= pos:
            bucket = matcher.entries[key]
            chosen.append((start, end, next((e for e in bucket if e.kind == "prefix"), bucket[0])))
            pos = end
    return list(matcher._assemble(text, chosen, 0))


# ------------------------------------------------------------------ the first characters of a grammar

def test_every_model_grammar_has_first_characters() -> None:
    """The scan for model names skips positions by them; and a grammar never matches nothing (its finditer would
    then find empty matches the scan does not look for)."""
    assert M._MODEL_FIRST is not None
    assert all(f is not None for f in M._FIRSTS)
    assert all(p.match("") is None for _v, p in M._MODEL_NAMES)


# ------------------------------------------------------------------ what the shortcuts must equal

# pieces of model names and of the text around them; ſ, K (Kelvin) and ı match letters when the case is ignored
FRAGMENTS = st.sampled_from(
    ["RTX", "GTX", "GeForce ", "Tesla", "特斯拉", "K40m", "V100", "4090", " Ti", "Super", "XT", "XTX", "Radeon ",
     "RX", "MI300X", "Instinct ", "Arc ", "B580", "A100", "H100", "80GB", " SXM5", "Ascend", "昇腾", "910B", "MTT S80",
     "TPU v5e", "MLU370", "GB203", "核心", "Quadro ", "P5000", "TITAN X", "Max 1550", "Gaudi 3", "NVIDIA", "AMD",
     "英伟达", "的", "和", "。", "，", " ", "-", "\t", "\u00a0", "\n", "x", "7", "ſ", "\u212a", "ı", "Ｈ", "\ud800"])
TEXTS = st.lists(FRAGMENTS, max_size=30).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=TEXTS)
@example(text="RTX 4090 Ti SuperRX 7900 XTX")
@example(text="Arc B580和B580")  # two grammars at overlapping places
@example(text="GeForce RTX 4090和Radeon RX 7900 XT")  # a grammar that matches again inside its own match
def test_model_hits_are_each_grammars_finditer(text: str) -> None:
    assert M._model_hits(text) == model_hits_reference(text)


@settings(max_examples=300, deadline=None)
@given(text=TEXTS)
@example(text="A-B c\u00a0D\tÉ")
def test_squeeze_is_the_per_character_squeeze(text: str) -> None:
    squeezed, index = M._squeeze(text)
    assert (squeezed, index.tolist()) == squeeze_reference(text)


@settings(max_examples=200, deadline=None)
@given(text=TEXTS)
@example(text="Tesla K40m和A100 80GB")
def test_find_is_the_straightforward_reading(matcher: MentionMatcher, text: str) -> None:
    known = list(matcher._find_known(text))
    assert known == find_known_reference(matcher, text)
    assert list(matcher._find_models(text, known)) == find_models_reference(matcher, text, known)


# ------------------------------------------------------------------ names written over one another

# fmt: off
OVERLAP_CASES = [
    # text,                               [(surface, kind, ref), ...] in order
    ("Arc B580和B580",                     [("Arc B580", "product", "intel_arc_b580"),
                                           ("B580", "product", "intel_arc_b580")]),
    ("Tesla K20X和K20X",                    [("Tesla K20X", "product", "model:nvidia:k20x"),     # by grammar: the
                                           ("K20X", "product", "model:nvidia:k20x")]),    # brand is the name's
    ("Tesla K40m配备12GB显存",              [("Tesla K40m", "product", "nvidia_tesla_k40")]),
    ("MI300X与Instinct MI300X",            [("MI300X", "product", "amd_mi300x"),
                                           ("Instinct MI300X", "product", "amd_mi300x")]),
    ("RTX 4090 Ti不存在",                   [("RTX 4090 Ti", "product", "model:nvidia:4090ti")]),  # not the RTX 4090
    ("GB203核心",                           [("GB203", "chip", "GB203")]),                  # a chip, not a model
    ("K40mK40m",                           []),                                           # no word boundary
    ("A100 80GB与H100",                     [("A100", "product", "nvidia_a100"), ("H100", "product", "nvidia_h100")]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), OVERLAP_CASES)
def test_overlapping_names(matcher: MentionMatcher, text: str, expected: list[tuple[str, str, str]]) -> None:
    assert [(m.text, m.kind, m.ref) for m in matcher.find(text)] == expected
