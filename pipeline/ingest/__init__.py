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
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from ..config import ARTICLE_SUFFIXES, Config
from ..errors import InputError, UsageError
from ..records import Cell, Document, Format, Table
from .decode import _decode
from .html import Element, _parse_html
from .lines import FrontMatter, _cells, _Line, _parse_md, _parse_txt, _Parsed, front_matter, trim_span
from .reading import article_sha256, inside, open_article, read_article

__all__ = ["OUTPUT_MARKER", "Element", "FrontMatter", "HtmlLayout", "Walk", "article_sha256", "discover",
           "doc_id_for", "format_for", "front_matter", "html_layout", "is_blank", "open_article", "parse_text",
           "read_document", "row_cells", "shown_name", "trim_span", "walk"]

_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))  # zero-width: blank too
_FORMATS = {".md": Format.MD, ".markdown": Format.MD, ".html": Format.HTML, ".htm": Format.HTML}


# ---- discovery -------------------------------------------------------------------------------------------

# Written by every complete run into its output folder: a folder holding one is an output folder, never read.
OUTPUT_MARKER = ".report-index.json"


@dataclass(frozen=True)
class Walk:
    """What a walk of the corpus found: the articles to read and what it passed over, with why."""

    articles: list[Path]  # to read, sorted
    bad_names: list[Path] = field(default_factory=list)  # articles whose names are not UTF-8: per-document errors
    outside_links: list[Path] = field(default_factory=list)  # symlinks leaving the corpus, not followed
    other_files: int = 0  # files of other types (.pdf, .docx, images ...)
    passed_over: list[Path] = field(default_factory=list)  # output and state folders inside the corpus
    special: list[Path] = field(default_factory=list)  # FIFOs, sockets, devices, broken links and link loops

    @property
    def files_seen(self) -> int:
        return len(self.articles) + len(self.bad_names) + len(self.outside_links) + self.other_files + \
            len(self.special)


def walk(path: Path, *, exclude: Iterable[Path] = (), follow_symlinks: bool = False) -> Walk:
    """Every article (.txt/.md/.markdown/.html/.htm) under a folder; ``[path]`` for one file.

    Hidden folders (``.git``) are skipped, hidden files kept; each folder is walked once (no symlink loops).
    ``exclude`` names folders and files that are never read (the run's output and state), nor anything a link
    leads to inside them; a folder holding an output marker (an earlier run's ``--out``) is passed over as well.
    Symbolic links that lead outside the corpus are not followed unless ``follow_symlinks`` (as tar, find and rsync
    do not follow them by default). What is neither a file nor a folder (a FIFO, a socket, a device, a broken link
    or a link loop) is counted in ``special`` and not read.

    Raises:
        UsageError: ``path`` is neither a file nor a folder.
    """
    if path.is_file():
        return Walk([path])
    if not path.is_dir():
        raise UsageError(f"{path} is neither a file nor a folder. Give an article or a folder of articles.")
    root = os.path.realpath(path)
    skip = {os.path.realpath(p) for p in exclude}
    found: list[Path] = []
    bad: list[Path] = []
    outside: list[Path] = []
    passed: list[Path] = []
    special: list[Path] = []
    other = 0
    seen: set[tuple[int, int]] = set()

    def excluded(real: str) -> bool:
        return any(inside(real, s) for s in skip)

    for folder, dirs, files in os.walk(path, followlinks=True):
        try:
            st = os.stat(folder)
        except OSError:
            dirs[:] = []
            continue
        if (st.st_dev, st.st_ino) in seen:  # a second link to a folder already walked
            dirs[:] = []
            continue
        seen.add((st.st_dev, st.st_ino))
        here = os.path.realpath(folder)
        keep = []
        for d in dirs:
            full = Path(folder, d)
            if d.startswith("."):
                continue
            link = os.path.islink(full)
            real = os.path.realpath(full) if link else os.path.join(here, d)
            if link and not follow_symlinks and not _inside(full, root):
                outside.append(full)
            elif link and inside(here, real):  # a link to this folder or one above it: a loop
                special.append(full)
            elif real in skip or excluded(real) or (full / OUTPUT_MARKER).exists():
                passed.append(full)
            else:
                keep.append(d)
        # Real folders before symlinks, so a folder reached both ways keeps its real name.
        dirs[:] = sorted(keep, key=lambda d: (os.path.islink(Path(folder, d)), d))
        for f in files:
            full = Path(folder, f)
            article = Path(f).suffix.lower() in ARTICLE_SUFFIXES
            if not _regular(full):
                if article or os.path.islink(full):
                    special.append(full)
                else:
                    other += 1
            elif not article:
                other += 1
            elif os.path.islink(full) and not follow_symlinks and not _inside(full, root):
                outside.append(full)
            elif skip and excluded(os.path.realpath(full)):
                continue
            elif not _encodable(str(full)):
                bad.append(full)
            else:
                found.append(full)
    return Walk(sorted(found), sorted(bad), sorted(outside), other, sorted(passed), sorted(special))


def _regular(path: Path) -> bool:
    """A regular file, or a link to one (False for a FIFO, a device, a broken link or a link loop)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def discover(path: Path) -> list[Path]:
    """Every article under a folder, sorted (see ``walk``); ``[path]`` for one file."""
    w = walk(path)
    return sorted([*w.articles, *w.bad_names])


def _inside(link: Path, root: str) -> bool:
    return inside(os.path.realpath(link), root)


def _encodable(name: str) -> bool:
    """False for a name with bytes that are not UTF-8 (Python keeps them as lone surrogates)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def shown_name(name: str) -> str:
    """``name`` as text that can be written anywhere: bytes that are not UTF-8 become ``\\xNN``."""
    if _encodable(name):
        return name
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def doc_id_for(path: Path, root: Path) -> str:
    """``path`` relative to ``root``, '/'-separated (see ``shown_name``); the file name when ``root`` is the file."""
    try:
        rel = path.relative_to(root)
    except ValueError:
        try:
            rel = path.absolute().relative_to(root.absolute())
        except ValueError:
            return shown_name(path.name)
    return shown_name(rel.as_posix() if rel.parts else path.name)


def format_for(path: Path) -> Format:
    return _FORMATS.get(path.suffix.lower(), Format.TXT)


def is_blank(doc: Document) -> bool:
    """True for an empty or whitespace-only document: the run marks it ``skipped``."""
    if doc.text[:64].translate(_INVISIBLE).strip():  # most articles: decided by their first characters
        return False
    return not doc.text.translate(_INVISIBLE).strip()


def read_document(path: Path, root: Path, *, max_bytes: int = Config.max_bytes,
                  follow_symlinks: bool = False) -> Document:
    """Read, decode and map one article (read once, from a descriptor that follows no link out of ``root``:
    see ``reading``).

    Raises:
        InputError: the file cannot be read, is over ``max_bytes``, is binary, cannot be decoded, or is a link
            leading out of the corpus (unless ``follow_symlinks``).
    """
    raw = read_article(path, root, max_bytes, follow_symlinks=follow_symlinks)
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


class HtmlLayout(NamedTuple):
    """An HTML article as ``read_document`` reads it (``text``, ``tables``), with the page's elements over the text
    (``html.Element``): what a report renders the article from."""

    text: str
    elements: tuple[Element, ...]
    tables: tuple[Table, ...]


def html_layout(raw: bytes, name: str = "page.html") -> HtmlLayout | None:
    """The layout of the HTML page ``raw`` (the file's bytes), or None when it cannot be read as ``read_document``
    reads it."""
    try:
        text, _, _ = _decode(raw, Path(name))
        parsed = _map(text, Format.HTML, name)
    except InputError:
        return None
    if not parsed.layout and parsed.text:  # mapped without its structure (see html._parse_html)
        return None
    return HtmlLayout(parsed.text, parsed.layout, parsed.tables)


def row_cells(text: str, start: int, end: int) -> tuple[Cell, ...]:
    """The cells of one pipe-table row, text[start:end] (without its line break), as ingest reads them."""
    return _cells(text, _Line(start, end, end))


def _map(text: str, fmt: Format, name: str) -> _Parsed:
    parse = {Format.HTML: _parse_html, Format.MD: _parse_md, Format.TXT: _parse_txt}[fmt]
    try:
        return parse(text)
    except Exception as e:  # one strange file must not stop a run of thousands
        raise InputError(f"{name}: could not map this file ({type(e).__name__}: {e}). It was skipped; "
                         "please report this as a bug in pipeline/ingest/.") from e
