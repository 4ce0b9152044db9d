"""Plain text and Markdown mapped line by line: title, headings, site boilerplate, bullets, pipe tables,
Python code runs and their comments."""

from __future__ import annotations

import itertools
import re
from typing import Any, NamedTuple

from ..records import Block, BlockKind, Cell, Table

PROSE, TITLE, HEADING, CODE, COMMENT, TABLE, BOILERPLATE = (
    BlockKind.PROSE, BlockKind.TITLE, BlockKind.HEADING, BlockKind.CODE, BlockKind.COMMENT, BlockKind.TABLE,
    BlockKind.BOILERPLATE,
)
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
    layout: tuple[Any, ...] = ()  # HTML only: the page's elements (html.Element), for the report to render


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
    if _SECTION.match(s):  # a numbered heading may be a question: "2.3 为什么要用GPU？"
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

class FrontMatter(NamedTuple):
    """A Markdown article's front matter: the block from its opening ``---`` line to its closing ``---`` or
    ``...`` line (``start``/``end``, the closing line's break included), the lines between (``inner``), and the
    ``title:`` it gives."""

    start: int
    end: int
    inner: tuple[int, int]
    title: str | None


_FRONT_OPEN = re.compile(r"---[ \t]*(?:\r\n|\r|\n)")
_FRONT_TITLE = re.compile(r"^title[ \t]*:[ \t]*(.*?)[ \t]*$", re.M)
_FRONT_LINES = 200  # a front matter is a few lines of metadata: a longer "block" is a rule and text


def front_matter(text: str) -> FrontMatter | None:
    """The YAML front matter a Markdown article opens with (its first line is ``---``), or None."""
    opening = _FRONT_OPEN.match(text)
    if opening is None:
        return None
    pos = opening.end()
    for n, line in enumerate(_split_lines(text[pos:pos + 100_000])):
        if n >= _FRONT_LINES:
            break
        if text[pos + line.start:pos + line.end].rstrip(" \t") in ("---", "..."):
            inner = (pos, pos + line.start)
            title = _FRONT_TITLE.search(text, *inner)
            shown = title.group(1).strip() if title else ""
            if len(shown) >= 2 and shown[0] == shown[-1] and shown[0] in "'\"":
                shown = shown[1:-1].strip()
            return FrontMatter(0, pos + line.stop, inner, shown or None)
    return None


_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)")
_MD_HEADING = re.compile(r" {0,3}(#{1,6})(?:\s+(.*?))?(?:\s+#+)?\s*$")


# fences that do not say they hold a programming language
_TEXT_FENCES = frozenset({"", "text", "txt", "plain", "plaintext", "markdown", "md"})
_CJK = re.compile(r"[\u4e00-\u9fff]")


# a line of source code or of a shell session: a statement end or a brace, an assignment, a call, a keyword that
# opens a statement, a prompt, a comment marker, a preprocessor line
_CODE_LINE = re.compile(
    r"[;{}]\s*$|^\s*[{}]|^\s*[\w.\[\]]+\s*(?:[+\-*/]?=)(?!=)|\w\s*\([^()]*\)\s*(?:[:;{]|$)|"
    r"^\s*(?:def|class|import|from|return|for|while|if|elif|else|try|except|with|print|const|let|var|function|"
    r"#include|#define|template|using|namespace|export|sudo|pip|conda|python|nvcc|git|cd|echo|torch\.)\b|"
    r"^\s*(?:\$|>>>|//|/\*|--\s)")


def _is_text(block: str) -> bool:
    """A fenced block that is prose, a spec sheet, a diagram or a tool's output, not code: mostly Chinese and not a
    Python program, or lines of which few read as source code or shell commands ("+-- 24 SM", "GPU 0: Tesla M60")."""
    visible = re.sub(r"\s", "", block)
    if not visible:
        return False
    lines = [ln for ln in block.splitlines() if ln.strip()]
    if sum(bool(_CODE_LINE.search(ln)) for ln in lines) >= max(1, 0.3 * len(lines)):
        return False
    if len(_CJK.findall(visible)) < 0.1 * len(visible):
        return True  # figures and words with no line of code
    try:
        compile(block, "<fence>", "exec")
    except (SyntaxError, ValueError):
        return True
    return False


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
        inner = "\n".join(body[i + 1:j])
        if m.group(2).lower() in _TEXT_FENCES and _is_text(inner):  # a spec sheet in a fence: read it as text
            _claim(labels, free, i, i, BOILERPLATE)
            if j < len(lines):
                _claim(labels, free, j, j, BOILERPLATE)
            i = j + 1
            continue
        regions.append((lines[i].stop, lines[j].start if j < len(lines) else len(text), m.group(2)))
        i = _claim(labels, free, i, min(j, len(lines) - 1), CODE) + 1
    tables = _pipe_tables(text, lines, free)
    for first, last, _ in tables:
        _claim(labels, free, first, last, TABLE)
    front = front_matter(text)
    title = front.title if front else None
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


