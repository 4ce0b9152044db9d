"""Length-preserving text normalisation, so that offsets found on the normalised text are offsets into the source.

Three steps, each character for character:
- an ASCII question mark glued to a figure or a Latin word ("约?989 TFLOPS?FP8", "基于?Hopper"), as content farms
  leave a space or a symbol they could not encode, is read as a space (never in a link: "page?id=3" stays);
- NFKC where it maps one character to one character (full-width ８０ＧＢ -> 80GB, ideographic space -> space);
- OpenCC Traditional -> Simplified (記憶體 -> 记忆体, 頻寬 -> 频宽); where OpenCC's phrase conversion changes the
  length, the text falls back to character-by-character conversion.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from opencc import OpenCC

_opencc: OpenCC | None = None


def _converter() -> OpenCC:
    global _opencc
    if _opencc is None:
        import opencc

        _opencc = opencc.OpenCC("t2s")
    return _opencc


class _CharTable(dict[int, str]):
    """A ``str.translate`` table filled on first sight of each character with a one-character mapping (or the
    character itself), so that translation stays in C and never changes the length."""

    def __init__(self, convert: Callable[[str], str]) -> None:
        super().__init__()
        self.convert = convert

    def __missing__(self, code: int) -> str:
        ch = chr(code)
        out = self.convert(ch)
        value = out if len(out) == 1 else ch
        self[code] = value
        return value


_WIDTH = _CharTable(lambda ch: unicodedata.normalize("NFKC", ch))
_T2S = _CharTable(lambda ch: _converter().convert(ch))


def _has_cjk(text: str) -> bool:
    return any("\u3400" <= ch <= "\u9fff" for ch in text)


def to_simplified(text: str) -> str:
    """Traditional -> Simplified with the same length."""
    if not _has_cjk(text):
        return text
    out = _converter().convert(text)
    if len(out) == len(text):
        return out
    return text.translate(_T2S)


def fold_width(text: str) -> str:
    """Full-width ASCII and other compatibility forms -> their plain form, one character for one."""
    if text.isascii():
        return text
    return text.translate(_WIDTH)


# an ASCII "?" between a Han character, a letter or a digit and a letter or digit (or between a letter or digit and
# a Han character): not a question, which Chinese text writes "？" or ends a clause with
_LOST = re.compile(r"(?<=[\u4e00-\u9fffA-Za-z0-9%])\?(?=[A-Za-z0-9~～])|(?<=[A-Za-z0-9])\?(?=[\u4e00-\u9fff])")
_LINK = re.compile(r"(?:https?://|www\.)\S*$|[=&/]\S*$|\.[A-Za-z]{2,5}$")


def lost_marks(text: str) -> str:
    """``text`` with every lost character read as a question mark turned into a space (same length)."""
    if "?" not in text or not _has_cjk(text):
        return text  # an English text's question marks are its own
    chars = list(text)
    for m in _LOST.finditer(text):
        token_start = max(text.rfind(" ", 0, m.start()), text.rfind("\n", 0, m.start())) + 1
        if not _LINK.search(text, token_start, m.start()):
            chars[m.start()] = " "
    return "".join(chars)


def normalize(text: str) -> str:
    """The text every extractor reads: same length as ``text``, width-folded and simplified."""
    out = to_simplified(fold_width(lost_marks(text)))
    assert len(out) == len(text)
    return out


@lru_cache(maxsize=8192)
def normalize_key(text: str) -> str:
    """A look-up key: normalised, lower-case, without spaces (for aliases and fuzzy matches). Cached: the same
    names are looked up for every claim that names them."""
    return "".join(normalize(text).lower().split())
