"""Files -> Document: find the articles, decode them, and map their blocks and tables.

Offsets in every Block, Cell and Table are [start, end) into ``Document.text``. For a UTF-8 .txt/.md file
the text is the file itself (a BOM not counted, line endings kept), so offsets are offsets into the file.
The non-COMMENT blocks tile the text in order. A COMMENT block is the text of one ``#`` comment (after the
``#`` and its spaces, to the end of the line) and comes right after the CODE block that holds it.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import re
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

from bs4 import BeautifulSoup, NavigableString, PageElement, Tag
from bs4.element import PreformattedString
from charset_normalizer import from_bytes

from .config import ARTICLE_SUFFIXES, Config
from .errors import InputError, UsageError
from .records import Block, BlockKind, Cell, Document, Format, Table

__all__ = ["discover", "doc_id_for", "format_for", "is_blank", "parse_text", "read_document"]

PROSE, TITLE, HEADING, CODE, COMMENT, TABLE, BOILERPLATE = (
    BlockKind.PROSE, BlockKind.TITLE, BlockKind.HEADING, BlockKind.CODE, BlockKind.COMMENT, BlockKind.TABLE,
    BlockKind.BOILERPLATE,
)
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
                         "please report this as a bug in pipeline/ingest.py.") from e


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


# ---- shared line-based mapping ---------------------------------------------------------------------------

class _Line(NamedTuple):
    start: int  # first character
    end: int  # end of the content, before the line break
    stop: int  # after the line break


class _Parsed(NamedTuple):
    text: str
    title: str | None
    blocks: tuple[Block, ...]
    tables: tuple[Table, ...]


_Label = tuple[BlockKind, int | None]  # (kind, key): consecutive lines with one label form one block
_Region = tuple[int, int, str]  # a code region: start, end, language
_EOL = re.compile(r"\r\n|\r|\n")
_PIPE = re.compile(r"(?<!\\)\|")
_TABLE_SEP = re.compile(r"\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*")
_BULLET = re.compile(r"\s*(?:[•·●▪◦‣∙]|[-*+](?=\s))")
# Code languages whose comments start with "#".
_HASH_LANGS = frozenset({"", "python", "py", "python3", "py3", "ipython", "pycon", "bash", "sh", "shell",
                         "zsh", "console", "text", "plaintext", "txt", "yaml", "yml", "toml", "r", "ruby",
                         "perl", "dockerfile", "makefile", "ini", "conf"})


def _split_lines(text: str) -> list[_Line]:
    lines, pos = [], 0
    for m in _EOL.finditer(text):
        lines.append(_Line(pos, m.start(), m.end()))
        pos = m.end()
    if pos < len(text):
        lines.append(_Line(pos, len(text), len(text)))
    return lines


def _line_blocks(lines: list[_Line], labels: list[_Label]) -> list[Block]:
    """Merge consecutive lines with one label into a block; a blank line (key None) joins the block before."""
    out: list[Block] = []
    current: _Label | None = None
    for line, label in zip(lines, labels, strict=True):
        if out and (label[1] is None or label == current):
            out[-1] = Block(out[-1].start, line.stop, out[-1].kind)
        else:
            out.append(Block(line.start, line.stop, label[0]))
            current = label
    return out


def _claim(labels: list[_Label], free: list[bool], first: int, last: int, kind: BlockKind) -> int:
    """Give lines first..last (inclusive) to one block of ``kind``; returns ``last``."""
    labels[first:last + 1] = [(kind, first)] * (last + 1 - first)
    free[first:last + 1] = [False] * (last + 1 - first)
    return last


def _paragraph(labels: list[_Label], i: int, line: str) -> _Label:
    """A prose line continues the paragraph of the line above unless it is a bullet."""
    if i and labels[i - 1][0] is PROSE and labels[i - 1][1] is not None and not _BULLET.match(line):
        return labels[i - 1]
    return PROSE, i


def _pipe_tables(text: str, lines: list[_Line], free: list[bool]) -> list[tuple[int, int, Table]]:
    """Markdown pipe tables as (first line, last line, Table); the separator row gives no cells."""
    found: list[tuple[int, int, Table]] = []
    body = [text[ln.start:ln.end] for ln in lines]
    i = 0
    while i + 1 < len(lines):
        header, sep = body[i], body[i + 1]
        if free[i] and free[i + 1] and "|" in header and "|" in sep and _TABLE_SEP.fullmatch(sep):
            j = i + 2
            while j < len(lines) and free[j] and "|" in body[j] and body[j].strip():
                j += 1
            rows = tuple(_cells(text, lines[k]) for k in range(i + 2, j))
            found.append((i, j - 1, Table(lines[i].start, lines[j - 1].end, _cells(text, lines[i]), rows)))
            i = j
        else:
            i += 1
    return found


def trim_span(text: str, s: int, e: int) -> tuple[int, int]:
    """[s, e) without its leading and trailing whitespace."""
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    return s, e


def _cells(text: str, line: _Line) -> tuple[Cell, ...]:
    bounds = [line.start - 1, *(m.start() for m in _PIPE.finditer(text, line.start, line.end)), line.end]
    cells = []
    for a, b in itertools.pairwise(bounds):
        s, e = trim_span(text, a + 1, b)
        cells.append(Cell(s, e, text[s:e]))
    row = text[line.start:line.end].strip()
    if row.startswith("|"):
        cells = cells[1:]
    if row.endswith("|") and not row.endswith("\\|") and len(row) > 1:
        cells = cells[:-1]
    return tuple(cells)


def _comment_blocks(text: str, start: int, end: int) -> list[Block]:
    """The text of each ``#`` comment (after ``#`` and the spaces) in code, skipping ``#`` inside strings."""
    out: list[Block] = []
    quote, i = "", start
    while i < end:
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if text.startswith(quote, i):
                i, quote = i + len(quote), ""
                continue
            if ch in "\r\n" and len(quote) == 1:  # an unclosed one-line string ends with its line
                quote = ""
            i += 1
        elif ch in "'\"":
            quote = ch * 3 if text.startswith(ch * 3, i) else ch
            i += len(quote)
        elif ch == "#":
            eol = _EOL.search(text, i, end)
            stop = eol.start() if eol else end
            s, e = trim_span(text, i + len(text[i:stop]) - len(text[i:stop].lstrip("#!")), stop)
            if any(c.isalnum() for c in text[s:e]):
                out.append(Block(s, e, COMMENT))
            i = stop
        else:
            i += 1
    return out


def _attach_comments(text: str, blocks: list[Block], regions: list[_Region]) -> tuple[Block, ...]:
    """Put each comment of a code region right after the CODE block that holds it."""
    comments = sorted((c for s, e, lang in regions if lang.lower() in _HASH_LANGS
                       for c in _comment_blocks(text, s, e)), key=lambda c: c.start)
    out, k = [], 0
    for b in blocks:
        out.append(b)
        while k < len(comments) and comments[k].start < b.end:
            if b.kind is CODE and b.start <= comments[k].start and comments[k].end <= b.end:
                out.append(comments[k])
            k += 1
    return tuple(out)


# ---- plain text ------------------------------------------------------------------------------------------

_VIEWS = re.compile(r"/?\s*\d+\s*(?:浏览量|瀏覽量|阅读量|閱讀量|浏览|瀏覽|阅读|閱讀)")
_MORE = re.compile(r"-+\s*(?:展开阅读全文|展開閱讀全文)\s*-+")
_BYLINE = re.compile(r"(?:作者|来源|來源|编辑|編輯|发布|發布|分类|分類)\s*[：:][^｜|]*[｜|]")
_TITLE_TAG = re.compile(r"【[^】]*】")
_SECTION = re.compile(r"\s*(?:[一二三四五六七八九十百]+[、.．]|[（(][一二三四五六七八九十\d]{1,3}[）)]"
                      r"|\d{1,2}(?:[.．、)）](?!\d)|(?:\.\d{1,2})+\s)|第[一二三四五六七八九十\d]+[章节節部])")
_STRING = re.compile(r"'[^'\\\n]*(?:\\.[^'\\\n]*)*'|\"[^\"\\\n]*(?:\\.[^\"\\\n]*)*\"")
_OPEN_STRING = re.compile(r"[\"'#]")
_PY_START = re.compile(
    r"(?:async\s+)?(?:def|class|if|elif|else|for|while|with|try|except|finally)\b.*:$"
    r"|import\s+[\w.]+|from\s+[.\w]+\s+import\s|@[\w.]+|print\s*\("
    r"|(?:return|raise|yield|assert|del|pass|break|continue|await|global)\b"
    r"|[A-Za-z_][\w.]*(?:\[[^\]]*\])*(?:\s*,\s*[A-Za-z_][\w.]*)*\s*(?:[-+*/%@&|^]|//|\*\*|>>|<<)?=(?!=)"
    r"|[\w.]*[a-z_][\w.]*\("  # a call: the name has a lower-case letter, unlike a product such as A100(80GB)
    r"|[)\]}]"  # a line that closes brackets: ), ]), ).to(device)
)
_INTRO = re.compile(r"代码|代碼|示例|范例|範例|example|code|[：:]\s*$", re.IGNORECASE)


def _parse_txt(text: str) -> _Parsed:
    lines = _split_lines(text)
    body = [text[ln.start:ln.end] for ln in lines]
    labels: list[_Label] = [(PROSE, None)] * len(lines)
    free = [True] * len(lines)
    tables = _pipe_tables(text, lines, free)
    for first, last, _ in tables:
        _claim(labels, free, first, last, TABLE)
    code = _code_runs(body, free)
    for first, last in code:
        _claim(labels, free, first, last, CODE)
    title = None
    for i, line in enumerate(body):
        if not free[i] or not line.strip():
            continue
        if _is_boilerplate(body, i):
            labels[i] = (BOILERPLATE, i)
        elif title is None:
            title = _TITLE_TAG.sub("", line).strip() or line.strip()
            labels[i] = (TITLE, i)
        elif _is_heading(body, i):
            labels[i] = (HEADING, i)
        else:
            labels[i] = _paragraph(labels, i, line)
    regions = [(lines[a].start, lines[b].end, "python") for a, b in code]
    blocks = _attach_comments(text, _line_blocks(lines, labels), regions)
    return _Parsed(text, title, blocks, tuple(t for _, _, t in tables))


def _is_boilerplate(body: list[str], i: int) -> bool:
    s = body[i].strip()
    return (s == "正文" or bool(_VIEWS.fullmatch(s) or _MORE.fullmatch(s) or _BYLINE.match(s))
            or (s.isdigit() and 3 <= len(s) <= 4 and i > 0 and bool(_VIEWS.fullmatch(body[i - 1].strip())))
            or not any(c.isalnum() for c in s))


def _is_heading(body: list[str], i: int) -> bool:
    """A short numbered line (``一、``, ``1.``, ``2.3``, ``（一）``), or a short label standing alone."""
    s = body[i].strip()
    if len(s) > 40 or _BULLET.match(s):
        return False
    if _SECTION.match(s):  # a numbered heading may be a question: 1.1 什么是显卡算力？
        return not any(c in "。！!？?" for c in s.rstrip("？?"))
    alone = (i == 0 or not body[i - 1].strip()) and (i + 1 == len(body) or not body[i + 1].strip())
    return alone and len(s) <= 25 and not any(c in "。！!？?，,；;：:" for c in s)


def _py_line(line: str) -> str:
    """code | cont (indented, ASCII) | comment | blank | no."""
    s = line.strip()
    if not s:
        return "blank"
    if s.startswith("#"):
        return "comment"
    if s.startswith(('"""', "'''")):  # a long string opens or closes
        return "code"
    code = _OPEN_STRING.split(_STRING.sub("S", s), maxsplit=1)[0].rstrip()  # strings and comment dropped
    if not code or sum(ord(c) > 0x7F for c in code) > 0.1 * len(code):
        return "no"
    if _PY_START.match(code):
        return "code"
    return "cont" if line[:1] in " \t" else "no"


def _code_runs(body: list[str], free: list[bool]) -> list[tuple[int, int]]:
    """Runs of Python lines (first, last): comments and blank lines inside, at least two code lines
    or one after an introducing line such as ``代码示例：``."""
    kinds = [_py_line(s) if free[i] else "no" for i, s in enumerate(body)]
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(kinds):
        if kinds[i] not in ("code", "comment"):
            i += 1
            continue
        j, last, n_code = i, -1, 0
        while j < len(kinds) and kinds[j] != "no":
            if kinds[j] in ("code", "cont"):
                last, n_code = j, n_code + 1
            j += 1
        before = next((body[k] for k in range(i - 1, -1, -1) if body[k].strip()), "")
        intro = [before] + [body[k] for k in range(i, max(last, i)) if kinds[k] == "comment"]
        if n_code >= 2 or (n_code == 1 and any(_INTRO.search(s.strip()) for s in intro)):
            runs.append((i, last))
            i = last + 1
        else:
            i = j  # no later start inside this run can do better
    return runs


# ---- Markdown --------------------------------------------------------------------------------------------

_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)")
_MD_HEADING = re.compile(r" {0,3}(#{1,6})(?:\s+(.*?))?(?:\s+#+)?\s*$")


def _parse_md(text: str) -> _Parsed:
    lines = _split_lines(text)
    body = [text[ln.start:ln.end] for ln in lines]
    labels: list[_Label] = [(PROSE, None)] * len(lines)
    free = [True] * len(lines)
    regions: list[_Region] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(body[i])
        if not m:
            i += 1
            continue
        close = re.compile(rf"\s*{re.escape(m.group(1)[0])}{{{len(m.group(1))},}}\s*")
        j = next((k for k in range(i + 1, len(lines)) if close.fullmatch(body[k])), len(lines))
        regions.append((lines[i].stop, lines[j].start if j < len(lines) else len(text), m.group(2)))
        i = _claim(labels, free, i, min(j, len(lines) - 1), CODE) + 1
    tables = _pipe_tables(text, lines, free)
    for first, last, _ in tables:
        _claim(labels, free, first, last, TABLE)
    title = None
    for i, line in enumerate(body):
        if not free[i] or not line.strip():
            continue
        if m := _MD_HEADING.match(line):
            labels[i] = (HEADING, i)
            if title is None and len(m.group(1)) == 1 and m.group(2):
                title = m.group(2).strip()
        else:
            labels[i] = _paragraph(labels, i, line)
    blocks = _attach_comments(text, _line_blocks(lines, labels), regions)
    return _Parsed(text, title, blocks, tuple(t for _, _, t in tables))


# ---- HTML ------------------------------------------------------------------------------------------------

_DROP = frozenset({"script", "style", "nav", "header", "footer", "aside", "form", "noscript", "template",
                   "iframe", "svg", "head", "title"})
_BLOCK_TAGS = frozenset({"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "tr", "pre", "blockquote",
                         "table", "ul", "ol", "section", "article", "main", "dl", "dt", "dd", "figure",
                         "figcaption", "hr", "address", "details", "summary", "caption"})
_BREAKS = _BLOCK_TAGS | {"br"}
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_Event = tuple[PageElement, bool]
_BROKEN_WS = re.compile(r"\s*[\r\n]\s*")  # whitespace holding a line break, outside <pre>


def _events(root: Tag, drop: frozenset[str], descend: Callable[[Tag], bool]) -> Iterator[_Event]:
    """(node, entering) in a depth-first walk without recursion (10,000 nested tags are fine)."""
    stack: list[_Event] = [(root, True)]
    while stack:
        node, entering = stack.pop()
        yield node, entering
        if entering and isinstance(node, Tag):
            stack.append((node, False))
            if descend(node):
                stack += [(c, True) for c in reversed(node.contents) if getattr(c, "name", None) not in drop]


def _is_text(node: PageElement) -> bool:
    return isinstance(node, NavigableString) and not isinstance(node, PreformattedString)  # no comments


class _HtmlText:
    """Writes the article text of a page while recording its blocks, tables, title and <pre> regions."""

    def __init__(self, drop: frozenset[str]) -> None:
        self.drop = drop
        self.parts: list[str] = []
        self.pos = 0
        self.blocks: list[Block] = []
        self.open = False  # may the last block still grow?
        self.space = False  # a space is owed before the next inline text
        self.pre = self.heading = 0
        self.starts: list[int] = []  # start offsets of the open <pre> and <h1..h6> elements
        self.title: tuple[int, int] | None = None
        self.tables: list[Table] = []
        self.regions: list[_Region] = []

    def write(self, s: str, kind: BlockKind) -> None:
        if not s:
            return
        if self.open and self.blocks[-1].kind is kind:
            self.blocks[-1] = Block(self.blocks[-1].start, self.pos + len(s), kind)
        else:
            self.blocks.append(Block(self.pos, self.pos + len(s), kind))
        self.parts.append(s)
        self.pos += len(s)
        self.open = True

    def newline(self, boundary: bool = True) -> None:
        if self.pos and not self.parts[-1].endswith("\n"):
            self.write("\n", self.blocks[-1].kind)
        self.space = False
        self.open = self.open and not boundary

    def text(self, s: str) -> None:
        """Inline text goes in verbatim, except that whitespace holding a line break becomes one space."""
        if self.pre:
            self.write(s, CODE)
            return
        s = _BROKEN_WS.sub(" ", s)
        core, kind = s.strip(), HEADING if self.heading else PROSE
        if not core:
            self.space = self.space or bool(s)
            return
        if (self.space or s[0].isspace()) and self.pos and not self.parts[-1].endswith("\n"):
            self.write(" ", kind)
        self.write(core, kind)
        self.space = s[-1].isspace()

    def walk(self, root: Tag) -> None:
        for node, entering in _events(root, self.drop, lambda t: t.name != "table"):
            if isinstance(node, Tag):
                (self.enter if entering else self.leave)(node)
            elif entering and _is_text(node):
                self.text(str(node))

    def enter(self, tag: Tag) -> None:
        if tag.name == "br":
            self.newline(boundary=False)
        elif tag.name == "table":
            self.table(tag)
        elif tag.name in _BLOCK_TAGS:
            self.newline()
            if tag.name == "pre" or tag.name in _HEADINGS:
                self.pre += tag.name == "pre"
                self.heading += tag.name in _HEADINGS
                self.starts.append(self.pos)

    def leave(self, tag: Tag) -> None:
        if tag.name == "pre" or tag.name in _HEADINGS:
            start = self.starts.pop()
            if tag.name == "pre":
                self.pre -= 1
                self.regions.append((start, self.pos, _code_lang(tag)))
            else:
                self.heading -= 1
                if tag.name == "h1" and self.title is None and self.pos > start:
                    self.title = (start, self.pos)
        if tag.name in _BLOCK_TAGS and tag.name != "table":
            self.newline()

    def table(self, table: Tag) -> None:
        """One line per row, cells joined by `` | ``; the <thead> row (else the first row) is the header."""
        rows = [tr for tr in table.find_all("tr") if tr.find_parent("table") is table]
        rows = [tr for tr in rows if tr.find_all(["td", "th"], recursive=False)]
        if not rows:
            return
        head = next((tr for tr in rows if tr.find_parent(["thead", "table"]).name == "thead"), rows[0])
        self.newline()
        caption = table.find("caption")
        if isinstance(caption, Tag) and caption.find_parent("table") is table:
            self.write(self.cell_text(caption) + "\n", TABLE)
        start, end, cells = self.pos, self.pos, {}
        for tr in rows:
            row = []
            for j, td in enumerate(tr.find_all(["td", "th"], recursive=False)):
                self.write(" | " if j else "", TABLE)
                s = self.cell_text(td)
                row.append(Cell(self.pos, self.pos + len(s), s))
                self.write(s, TABLE)
            cells[id(tr)], end = tuple(row), self.pos
            self.write("\n", TABLE)
        self.newline()
        body = tuple(cells[id(tr)] for tr in rows if tr is not head)
        self.tables.append(Table(start, end, cells[id(head)], body))

    def cell_text(self, cell: Tag) -> str:
        pieces = [str(n) if _is_text(n) else "\n" for n, entering in _events(cell, self.drop, lambda t: True)
                  if (entering and _is_text(n)) or (isinstance(n, Tag) and n.name in _BREAKS)]
        return _BROKEN_WS.sub(" ", "".join(pieces)).strip()


def _code_lang(pre: Tag) -> str:
    """The language named by a ``language-x``/``lang-x`` class on <pre> or its <code>, else ''."""
    code = pre.find("code")
    for tag in (pre, code if isinstance(code, Tag) else pre):
        for name in tag.get_attribute_list("class"):
            if name and (m := re.match(r"(?:language|lang)-(.+)", name)):
                return m.group(1)
    return ""


def _parse_html(source: str) -> _Parsed:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # bs4 warns about markup that looks like a file name or XML
        soup = BeautifulSoup(source, "lxml")
    root = soup.find("article") or soup.find("main") or soup.body or soup
    fallback_title = next((" ".join(t.get_text().split()) for t in (soup.find("h1"), soup.title)
                           if isinstance(t, Tag) and t.get_text().strip()), None)
    # An <article>'s own <header> holds its title and byline; a page <header> is site chrome.
    html = _HtmlText(_DROP - {"header"} if root.name == "article" else _DROP)
    try:
        html.walk(root)
    except RecursionError:  # not expected (the walk is iterative), but never lose the article over it
        text = _BROKEN_WS.sub("\n", root.get_text("\n")).strip()
        return _Parsed(text, fallback_title, (Block(0, len(text), PROSE),) if text else (), ())
    text = "".join(html.parts)
    title = " ".join(text[slice(*html.title)].split()) if html.title else None
    blocks = _attach_comments(text, [b for b in html.blocks if b.end > b.start], html.regions)
    return _Parsed(text, title or fallback_title, blocks, tuple(html.tables))
