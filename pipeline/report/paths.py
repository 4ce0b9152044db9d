"""File names for report files, derived from doc_ids that may come from anywhere."""

from __future__ import annotations

import hashlib
import re

MAX_CHARS = 120
MAX_BYTES = 180  # UTF-8; leaves room for ".html" under the common 255-byte limit
_HASH_CHARS = 10

# Names Windows refuses whatever follows the first dot (CON, con.txt, LPT1.md, ...).
_RESERVED = re.compile(r"^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$", re.IGNORECASE)
# Stems of the run-level files in the same folder (index.html, summary.md, ...).
_RUN_FILES = frozenset({"index", "summary", "claims", "documents"})


def _reserved(stem: str) -> bool:
    return bool(_RESERVED.match(stem)) or stem.lower() in _RUN_FILES


def _keep(ch: str) -> bool:
    # Letters and digits of any script (Chinese included), plus a few harmless marks.
    return ch.isalnum() or ch in "-_."


def _clip(stem: str, max_chars: int, max_bytes: int) -> str:
    stem = stem[:max_chars]
    while len(stem.encode("utf-8")) > max_bytes:
        stem = stem[:-1]
    return stem


def safe_name(doc_id: str) -> str:
    """A file-name stem for ``doc_id`` that stays inside the output folder.

    Letters (Chinese included), digits, ``-``, ``_`` and ``.`` are kept; anything else
    becomes ``_``; runs of dots collapse; leading/trailing dots and underscores go.
    When anything had to change, a short sha1 of the original doc_id is appended so two
    different doc_ids never end up with the same name. Names are capped in characters
    and UTF-8 bytes.
    """
    cleaned = "".join(ch if _keep(ch) else "_" for ch in doc_id)
    cleaned = re.sub(r"\.{2,}", ".", cleaned)
    cleaned = re.sub(r"_{2,}", "_", cleaned)
    cleaned = cleaned.strip("._-")
    if (
        cleaned
        and cleaned == doc_id
        and not _reserved(cleaned)
        and len(cleaned) <= MAX_CHARS
        and len(cleaned.encode("utf-8")) <= MAX_BYTES
    ):
        return cleaned
    digest = hashlib.sha1(doc_id.encode("utf-8", "surrogatepass")).hexdigest()[:_HASH_CHARS]
    room = _HASH_CHARS + 1
    stem = _clip(cleaned, MAX_CHARS - room - 4, MAX_BYTES - room - 4).rstrip("._-") or "doc"
    if _reserved(stem):
        stem = f"doc_{stem}"
    return f"{stem}-{digest}"
