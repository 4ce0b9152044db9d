"""Bytes -> text: byte-order marks, UTF-8, GB18030/Big5 checked for common Chinese characters, then
charset-normalizer; binary files are refused."""

from __future__ import annotations

import re
from pathlib import Path

from charset_normalizer import from_bytes

from ..errors import InputError

# ---- reading and decoding --------------------------------------------------------------------------------

_MAGIC = (b"\x89PNG", b"\xff\xd8\xff", b"GIF87a", b"GIF89a", b"%PDF-", b"PK\x03\x04", b"\x7fELF", b"\x1f\x8b",
          b"7z\xbc\xaf", b"Rar!", b"\xd0\xcf\x11\xe0", b"RIFF", b"OggS", b"wOFF", b"\x00asm")
_BOMS = ((b"\xef\xbb\xbf", "utf-8", "utf-8-sig"), (b"\xff\xfe\x00\x00", "utf-32-le", "utf-32-le"),
         (b"\x00\x00\xfe\xff", "utf-32-be", "utf-32-be"), (b"\xff\xfe", "utf-16-le", "utf-16-le"),
         (b"\xfe\xff", "utf-16-be", "utf-16-be"))
# Frequent characters in both scripts: right decodings of Chinese text are full of them, wrong ones are not.
_COMMON = frozenset(
    "的一是不了在人有我他这這个個们們中来來上大为為和国國地到以说說时時要就出会會可也对對生能而子那得于於着著下自之年"
    "过過发發后後作里裡用道行所然家种種事成方多经經么麼去法学學如都同现現当當没沒动動面起看定分还還进進好小部其些主样"
    "樣理心本前开開但因只从從想实實意无無力它与與长長把机機第公此已工使情明性知全高间間由问問很最重并並物应應头頭体體"
    "相被利等产產或新制加比显顯卡存核宽寬带帶算训訓练練模型数數据據芯片内內频頻率功耗版架构構"
)
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f]")


def _decode(raw: bytes, path: Path) -> tuple[str, str, bool]:
    """(text, encoding, derived); derived is False only when the text is the UTF-8 file itself."""
    binary = InputError(f"{path} looks like a binary file, not an article. Remove it from the corpus or "
                        "convert it to text (.txt, .md or .html).")
    if raw.startswith(_MAGIC):
        raise binary
    for bom, codec, name in _BOMS:
        if raw.startswith(bom):
            try:
                text = raw[len(bom):].decode(codec)
            except UnicodeDecodeError as e:
                raise InputError(f"{path} starts with a {name} byte-order mark but is not valid {name}. "
                                 "Save it again as UTF-8.") from e
            if _looks_binary(text):
                raise binary
            return text, name, codec != "utf-8"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        if b"\x00" in raw:  # UTF-16 without a BOM is not supported: it is rare and hard to tell from binary
            raise binary from None
        text, name = _decode_legacy(raw, path)
        return text, name, True
    if "\x00" in text or _looks_binary(text):
        raise binary
    return text, "utf-8", False


def _looks_binary(text: str) -> bool:
    return len(text) >= 8 and len(_CONTROL.findall(text)) > 0.3 * len(text)


def _decode_legacy(raw: bytes, path: Path) -> tuple[str, str]:
    """GB18030 (a superset of GBK) or Big5 when the text reads as Chinese, else what charset-normalizer finds.

    Both are tried first because charset-normalizer mislabels short Chinese texts (GBK as cp949). Right
    decodings of a Chinese article have about half of their ideographs in _COMMON, wrong ones under 5%.
    """
    candidates: list[tuple[float, int, str, str]] = []  # (common share, ideograph count, text, codec)
    for codec in ("gb18030", "cp950"):
        try:
            text = raw.decode(codec)
        except UnicodeDecodeError:
            continue
        cjk = [c for c in text if "\u3040" <= c <= "\u9fff" or "\uf900" <= c <= "\ufaff" or c >= "\U00020000"]
        if not _CONTROL.search(text):
            candidates.append((sum(c in _COMMON for c in cjk) / max(len(cjk), 1), len(cjk), text, codec))
    best = max(candidates, key=lambda c: c[0], default=None)  # a tie keeps gb18030
    if best and (best[0] >= 0.2 or best[1] < 20):  # too few ideographs to judge: trust the decoder
        return best[2], best[3]
    match = from_bytes(raw).best()
    if match is not None and not _CONTROL.search(str(match)):
        return str(match), match.encoding
    if best:
        return best[2], best[3]
    raise InputError(f"{path} is not UTF-8, UTF-16, GB18030 or Big5 text and its encoding could not be "
                     "detected. Save it as UTF-8 and run again.")


