"""pipeline.normalize: width folding and Traditional -> Simplified, one character for one."""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.normalize import fold_width, normalize, normalize_key, to_simplified

# fmt: off
NORMALIZE_CASES = [
    # full-width ASCII -> ASCII
    ("８０ＧＢ",                      "80GB"),
    ("Ｈ１００\u3000ＳＸＭ５",          "H100 SXM5"),           # ideographic space -> space
    ("３．３５ＴＢ／ｓ",                "3.35TB/s"),
    ("１６，８９６个",                  "16,896个"),
    ("功耗７００Ｗ，约５０％",           "功耗700W,约50%"),
    ("８ＧＢ～１６ＧＢ",                "8GB~16GB"),
    ("（ＰＣＩｅ）",                    "(PCIe)"),
    # Traditional -> Simplified
    ("記憶體頻寬",                      "记忆体频宽"),
    ("輝達顯示卡",                      "辉达显示卡"),
    ("於2023年發佈",                    "于2023年发布"),
    ("台積電製程",                      "台积电制程"),
    ("乾燥的機房裡",                    "干燥的机房里"),
    # both at once
    ("ＲＴＸ　４０９０顯存為２４ＧＢ",    "RTX 4090显存为24GB"),
    # already plain: unchanged
    ("NVIDIA H100 SXM5",               "NVIDIA H100 SXM5"),
    # the Chinese full stop is kept: sentences split on it
    ("英伟达的显存带宽。",               "英伟达的显存带宽。"),
    ("",                               ""),
    # NFKC would change the length: kept as written
    ("㎓",                              "㎓"),
    ("ﬁ",                              "ﬁ"),
]

KEY_CASES = [
    (" RTX ４０９０ ",    "rtx4090"),
    ("Tesla V100",       "teslav100"),
    ("輝達",             "辉达"),
    ("ＭＩ３００Ｘ",      "mi300x"),
    ("A100\u300080GB",   "a10080gb"),
]
# fmt: on

CJK_OR_WIDE = (
    st.characters(min_codepoint=0x3000, max_codepoint=0x9FFF)
    | st.characters(min_codepoint=0xF900, max_codepoint=0xFAFF)
    | st.characters(min_codepoint=0xFF00, max_codepoint=0xFFEF)
    | st.sampled_from(list("0123456789GBTW/s. \n"))
)


@pytest.mark.parametrize(("text", "expected"), NORMALIZE_CASES)
def test_normalize(text: str, expected: str) -> None:
    assert normalize(text) == expected


@pytest.mark.parametrize(("text", "expected"), NORMALIZE_CASES)
def test_steps_compose_to_normalize(text: str, expected: str) -> None:
    assert to_simplified(fold_width(text)) == expected


@pytest.mark.parametrize(("text", "expected"), KEY_CASES)
def test_normalize_key(text: str, expected: str) -> None:
    assert normalize_key(text) == expected


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_length_is_preserved(text: str) -> None:
    assert len(normalize(text)) == len(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(CJK_OR_WIDE, max_size=40).map("".join))
def test_length_is_preserved_on_cjk_and_full_width(text: str) -> None:
    assert len(normalize(text)) == len(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(CJK_OR_WIDE, max_size=40).map("".join))
def test_idempotent(text: str) -> None:
    once = normalize(text)
    assert normalize(once) == once


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=string.printable))
def test_ascii_is_unchanged(text: str) -> None:
    assert normalize(text) == text


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=string.printable, min_size=1))
def test_full_width_ascii_folds_to_ascii(text: str) -> None:
    wide = "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in text)
    assert normalize(wide) == text
