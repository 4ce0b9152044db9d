"""Files -> Document: find the articles, decode them, and map their blocks and tables.

Offsets in every Block, Cell and Table are [start, end) into ``Document.text``. For a UTF-8 .txt/.md file
the text is the file itself (a BOM not counted, line endings kept), so offsets are offsets into the file.
The non-COMMENT blocks tile the text in order. A COMMENT block is the text of one ``#`` comment (after the
``#`` and its spaces, to the end of the line) and comes right after the CODE block that holds it.

Modules: ``decode`` (bytes -> text), ``lines`` (plain text and Markdown, line by line), ``html`` (HTML pages).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from ..config import ARTICLE_SUFFIXES, Config
from ..errors import InputError, UsageError
from ..records import Document, Format
from .decode import _decode
from .html import _parse_html
from .lines import _parse_md, _parse_txt, _Parsed, trim_span

__all__ = ["discover", "doc_id_for", "format_for", "is_blank", "parse_text", "read_document", "trim_span"]

_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))  # zero-width: blank too
_FORMATS = {".md": Format.MD, ".markdown": Format.MD, ".html": Format.HTML, ".htm": Format.HTML}


# ---- discovery -------------------------------------------------------------------------------------------

def discover(path: Path) -> list[Path]:
    """Every article (.txt/.md/.markdown/.html/.htm) under a folder, sorted; ``[path]`` for one file.

    Hidden folders (``.git``) are skipped, hidden files kept; each folder is walked once (no symlink loops).

    Raises:
        UsageError: ``path`` is neither a file nor a folder.
    """
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise UsageError(f"{path} is neither a file nor a folder. Give an article or a folder of articles.")
    found: list[Path] = []
    seen: set[tuple[int, int]] = set()
    for folder, dirs, files in os.walk(path, followlinks=True):
        try:
            st = os.stat(folder)
        except OSError:
            dirs[:] = []
            continue
        if (st.st_dev, st.st_ino) in seen:  # a symlink loop or a second link to a folder already walked
            dirs[:] = []
            continue
        seen.add((st.st_dev, st.st_ino))
        # Real folders before symlinks, so a folder reached both ways keeps its real name.
        dirs[:] = sorted((d for d in dirs if not d.startswith(".")),
                         key=lambda d: (os.path.islink(Path(folder, d)), d))
        found += [Path(folder, f) for f in files if Path(f).suffix.lower() in ARTICLE_SUFFIXES]
    return sorted(p for p in found if p.is_file())


def doc_id_for(path: Path, root: Path) -> str:
    """``path`` relative to ``root``, '/'-separated; the file name when ``root`` is the file itself."""
    try:
        rel = path.relative_to(root)
    except ValueError:
        try:
            rel = path.absolute().relative_to(root.absolute())
        except ValueError:
            return path.name
    return rel.as_posix() if rel.parts else path.name


def format_for(path: Path) -> Format:
    return _FORMATS.get(path.suffix.lower(), Format.TXT)


def is_blank(doc: Document) -> bool:
    """True for an empty or whitespace-only document: the run marks it ``skipped``."""
    return not doc.text.translate(_INVISIBLE).strip()


def read_document(path: Path, root: Path, *, max_bytes: int = Config.max_bytes) -> Document:
    """Read, decode and map one article.

    Raises:
        InputError: the file cannot be read, is over ``max_bytes``, is binary, or cannot be decoded.
    """
    raw = _read_bytes(path, max_bytes)
    text, encoding, derived = _decode(raw, path)
    fmt = format_for(path)
    parsed = _map(text, fmt, str(path))
    return Document(
        doc_id=doc_id_for(path, root), path=str(path), format=fmt, text=parsed.text,
        sha256=hashlib.sha256(raw).hexdigest(), encoding=encoding, title=parsed.title, blocks=parsed.blocks,
        tables=parsed.tables, text_is_derived=derived or fmt is Format.HTML,
    )


def parse_text(text: str, fmt: Format = Format.TXT, *, doc_id: str = "text.txt",
               sha256: str = "") -> Document:
    """A Document for a string, mapped as a UTF-8 file of format ``fmt`` would be; its path is ``doc_id``."""
    parsed = _map(text, fmt, doc_id)
    sha256 = sha256 or hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return Document(doc_id, doc_id, fmt, parsed.text, sha256, "utf-8", parsed.title, parsed.blocks,
                    parsed.tables, text_is_derived=fmt is Format.HTML)


def _map(text: str, fmt: Format, name: str) -> _Parsed:
    parse = {Format.HTML: _parse_html, Format.MD: _parse_md, Format.TXT: _parse_txt}[fmt]
    try:
        return parse(text)
    except Exception as e:  # one strange file must not stop a run of thousands
        raise InputError(f"{name}: could not map this file ({type(e).__name__}: {e}). It was skipped; "
                         "please report this as a bug in pipeline/ingest/.") from e


def _read_bytes(path: Path, max_bytes: int) -> bytes:
    try:
        size = path.stat().st_size
        raw = b"" if size > max_bytes else path.read_bytes()
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror or e}. Check that the file exists and that "
                         "you are allowed to read it.") from e
    size = max(size, len(raw))
    if size > max_bytes:
        raise InputError(f"{path} is {size:,} bytes, over the limit of {max_bytes:,} bytes. Split the "
                         "article into smaller files or raise the limit (run --max-mb).")
    return raw


