"""Length-preserving text normalisation, so that offsets found on the normalised text are offsets into the source.

Two steps, each character for character:
- NFKC where it maps one character to one character (full-width ８０ＧＢ -> 80GB, ideographic space -> space);
- OpenCC Traditional -> Simplified (記憶體 -> 记忆体, 頻寬 -> 频宽); where OpenCC's phrase conversion changes the
  length, the text falls back to character-by-character conversion.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
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


def normalize(text: str) -> str:
    """The text every extractor reads: same length as ``text``, width-folded and simplified."""
    out = to_simplified(fold_width(text))
    assert len(out) == len(text)
    return out


def normalize_key(text: str) -> str:
    """A look-up key: normalised, lower-case, without spaces (for aliases and fuzzy matches)."""
    return "".join(normalize(text).lower().split())
