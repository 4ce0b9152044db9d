"""An article as it was published, as a list of events over its text: elements opened and closed, and runs of the
text each shown at its place, so that every character shown knows its offset and the claims' highlights stay on
the stated text (``article.render_article`` puts them in).

Markdown goes through markdown-it-py (CommonMark with pipe tables and strikethrough; raw HTML off, so an
article's markup shows as text), which gives each block its source lines (``token.map``); the inline text of each
block is found again in those lines token by token (markers, escapes and entities hidden), and where that fails the
block's lines are shown as written, never shifted. The front matter is folded away in a ``<details>``. HTML
articles are rendered from the elements ingest kept while reading the page (``ingest.html.Element``): the same
text, a fixed set of tags, none of the page's attributes but a link's http(s) address.
"""

from __future__ import annotations

import html as _html
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from ..ingest import Element, HtmlLayout, front_matter, row_cells
from ..records import Cell, Table


class Open(NamedTuple):
    tag: str
    attrs: tuple[tuple[str, str], ...] = ()


class Close(NamedTuple):
    tag: str


class Void(NamedTuple):
    """An element with no content: ``br``, ``hr``."""

    tag: str


class Text(NamedTuple):
    """text[start:end] shown at its place: as it is, or as ``shown`` (an entity, a line break)."""

    start: int
    end: int
    shown: str | None = None


class Words(NamedTuple):
    """Our own words (a label), not the article's."""

    text: str


Event = Open | Close | Void | Text | Words

FRONT_MATTER_LABEL = "文章信息"  # the folded front matter's summary
_EOL = re.compile(r"\r\n|\r|\n")
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_PUNCT = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_SAFE_HREF = re.compile(r"(?:https?://|mailto:)[^\s\x00-\x1f\"'<>]+", re.I)
_ALIGN = re.compile(r"text-align:(left|center|right)")
_INLINE_TAGS = {"strong_open": "strong", "strong_close": "strong", "em_open": "em", "em_close": "em",
                "s_open": "s", "s_close": "s"}
_BLOCK_TAGS = {"paragraph": "p", "heading": "", "bullet_list": "ul", "ordered_list": "ol", "list_item": "li",
               "blockquote": "blockquote", "table": "table", "thead": "thead", "tbody": "tbody", "tr": "tr",
               "th": "th", "td": "td"}


class _Fail(Exception):
    """The inline text cannot be found where markdown-it says it is: show the block's lines as written."""


def _lines(text: str) -> list[tuple[int, int]]:
    """(start, end) of every line, its break not included; the empty line after a final break included."""
    out, pos = [], 0
    for m in _EOL.finditer(text):
        out.append((pos, m.start()))
        pos = m.end()
    out.append((pos, len(text)))
    return out


# Block rules a text without their marks cannot start a block with, and the marks (None: never, as raw HTML is
# off). markdown-it tries every block rule at every line; a rule that can match nowhere in a text changes none of
# its tokens (as a block or as what ends a paragraph), so the parser for that text leaves it out.
_BLOCK_MARKS: tuple[tuple[str, re.Pattern[str] | None], ...] = (
    ("html_block", None),
    ("reference", re.compile(r"\[")),  # [label]: url
    ("blockquote", re.compile(">")),
    ("code", re.compile(r"\t| {4}")),  # indented code: four columns of indentation inside its container
    ("hr", re.compile(r"([-*_])[ \t]*\1[ \t]*\1")),  # ---, * * *, ___
    ("lheading", re.compile(r"[=-][ \t]*(?:$|\r)", re.M)),  # a line of = or - under a paragraph
)


def _parser(text: str | None = None) -> Any:
    """The Markdown parser (CommonMark, pipe tables, strikethrough, raw HTML off); for ``text``, without the block
    rules that cannot fire in it (the same tokens, fewer rules tried a line)."""
    skipped = frozenset() if text is None else frozenset(
        rule for rule, mark in _BLOCK_MARKS if mark is None or not mark.search(text))
    return _parser_without(skipped)


@lru_cache(maxsize=64)
def _parser_without(skipped: frozenset[str]) -> Any:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
    return md.disable(sorted(skipped)) if skipped else md


# ---- Markdown -------------------------------------------------------------------------------------------


def markdown_layout(text: str) -> list[Event]:
    """The events of a Markdown article (``text``: the file's text, the claims' offsets into it)."""
    lines = _lines(text)
    out: list[Event] = []
    body = text
    front = front_matter(text)
    if front is not None:
        out += [Open("details", (("class", "front-matter"),)), Open("summary"), Words(FRONT_MATTER_LABEL),
                Close("summary"), Open("pre")]
        first = next(i for i, (s, _) in enumerate(lines) if s >= front.inner[0])
        for i in range(first, len(lines)):
            s, e = lines[i]
            if s >= front.inner[1]:
                break
            if i > first:
                out.append(Words("\n"))
            out.append(Text(s, e))
        out += [Close("pre"), Close("details")]
        # the front matter's lines blanked out, so that markdown-it's line numbers are still the file's
        body = "\n" * len(_EOL.findall(text, 0, front.end)) + text[front.end:]
    _Blocks(text, lines, out).walk(_parser(body).parse(body))
    return out


class _Blocks:
    """markdown-it's block tokens -> events."""

    def __init__(self, text: str, lines: list[tuple[int, int]], out: list[Event]) -> None:
        self.text, self.lines, self.out = text, lines, out
        self.row: int | None = None  # the line of the table row being written
        self.cell = 0
        self.cells: tuple[Cell, ...] | None = None  # its cells in the source

    def line(self, i: int) -> tuple[int, int]:
        return self.lines[i] if i < len(self.lines) else (len(self.text), len(self.text))

    def walk(self, tokens: Sequence[Any]) -> None:
        out = self.out
        for t in tokens:
            kind, _, side = t.type.rpartition("_")
            if side in ("open", "close") and kind in _BLOCK_TAGS:
                if kind == "paragraph" and t.hidden:
                    continue  # a tight list's paragraph: no <p>
                tag = _BLOCK_TAGS[kind] or t.tag
                if side == "close":
                    out.append(Close(tag))
                    continue
                out.append(Open(tag, self.attrs(t)))
                if kind == "tr" and t.map:
                    self.row, self.cell, self.cells = t.map[0], 0, None
            elif t.type == "inline":
                self.inline(t)
            elif t.type in ("fence", "code_block") and t.map:
                self.code(t)
            elif t.type == "hr":
                out.append(Void("hr"))
            elif t.map:  # anything else the parser may give (html_block with raw HTML on): its lines as written
                self.raw(t.map[0], t.map[1])

    def attrs(self, t: Any) -> tuple[tuple[str, str], ...]:
        if t.type == "ordered_list_open" and t.attrs.get("start") not in (None, 1):
            return (("start", str(int(t.attrs["start"]))),)
        align = _ALIGN.search(str(t.attrs.get("style", "")))
        return (("class", f"al-{align.group(1)}"),) if align else ()

    def raw(self, first: int, stop: int) -> None:
        for i in range(first, stop):
            if i > first:
                self.out.append(Void("br"))
            self.out.append(Text(*self.line(i)))

    def code(self, t: Any) -> None:
        first = t.map[0] + (t.type == "fence")
        lang = (t.info or "").split()[0] if t.info and t.info.split() else ""
        self.out += [Open("pre"), Open("code", (("class", f"language-{lang}"),) if re.fullmatch(r"[\w+#.-]{1,40}",
                                                                                                   lang) else ())]
        for k, shown in enumerate(t.content.split("\n")[:-1]):
            s, e = self.line(first + k)
            if k:
                self.out.append(Words("\n"))
            written = self.text[s:e]
            self.out.append(Text(e - len(shown), e) if written.endswith(shown) else Text(s, e))
        self.out += [Close("code"), Close("pre")]

    def inline(self, t: Any) -> None:
        if not t.map:
            return
        if self.row is not None and self.row == t.map[0] and self.out and isinstance(self.out[-1], Open) and \
                self.out[-1].tag in ("th", "td"):
            if self.cells is None:
                self.cells = row_cells(self.text, *self.line(self.row))
            cells = self.cells
            k, self.cell = self.cell, self.cell + 1
            if k < len(cells) and cells[k].end > cells[k].start:
                self.run(t, [(cells[k].start, cells[k].end)])
            return
        spans = self.spans(t.content, t.map[0])
        if spans is None:
            self.raw(t.map[0], t.map[1])
        else:
            self.run(t, spans)

    def spans(self, content: str, first: int) -> list[tuple[int, int]] | None:
        """Where each line of a block's inline ``content`` is in the source lines from ``first`` (markdown-it cut
        the block's markers and indentation off the front of each line, and spaces off the end of the last)."""
        shown = content.split("\n")
        out = []
        for k, piece in enumerate(shown):
            if first + k >= len(self.lines):
                return None
            s, e = self.lines[first + k]
            written = self.text[s:e]
            if k + 1 < len(shown):
                at = len(written) - len(piece) if written.endswith(piece) else -1
            else:
                kept = written.rstrip()
                at = len(kept) - len(piece) if kept.endswith(piece) else written.rfind(piece)  # "# 标题 ##"
            if at < 0:
                return None
            out.append((s + at, s + at + len(piece)))
        return out

    def run(self, t: Any, spans: list[tuple[int, int]]) -> None:
        inline = _Inline(self.text, spans)
        try:
            inline.tokens(t.children or [])
        except _Fail:
            inline.out = _plain(self.text, spans)
        self.out += inline.out


def _plain(text: str, spans: list[tuple[int, int]]) -> list[Event]:
    out: list[Event] = []
    for k, (s, e) in enumerate(spans):
        if k:
            out.append(Words("\n"))
        out.append(Text(s, e))
    return out


class _Inline:
    """markdown-it's inline tokens found again in the source: each line of the block is a span of the text."""

    def __init__(self, text: str, spans: list[tuple[int, int]]) -> None:
        self.text, self.spans = text, spans
        self.k, self.p = 0, spans[0][0] if spans else 0
        self.out: list[Event] = []

    @property
    def end(self) -> int:
        return self.spans[self.k][1]

    def take(self, s: str) -> None:
        if not (self.p + len(s) <= self.end and self.text.startswith(s, self.p)):
            raise _Fail
        self.p += len(s)

    def skip_spaces(self) -> None:
        while self.p < self.end and self.text[self.p] in " \t":
            self.p += 1

    def next_line(self) -> None:
        self.skip_spaces()
        if self.p != self.end or self.k + 1 >= len(self.spans):
            raise _Fail
        self.k += 1
        self.p = self.spans[self.k][0]
        self.skip_spaces()

    def show(self, s: int, e: int, shown: str | None = None) -> None:
        last = self.out[-1] if self.out else None
        if shown is None and isinstance(last, Text) and last.shown is None and last.end == s:
            self.out[-1] = Text(last.start, e)
        elif e > s:
            self.out.append(Text(s, e, shown))

    def tokens(self, tokens: Sequence[Any]) -> None:
        for t in tokens:
            kind = t.type
            if kind == "text":
                self.words(t.content)
            elif kind in _INLINE_TAGS:
                self.take(t.markup)
                self.out.append(Open(_INLINE_TAGS[kind]) if kind.endswith("_open") else Close(_INLINE_TAGS[kind]))
            elif kind == "softbreak":
                self.next_line()
                self.out.append(Words("\n"))
            elif kind == "hardbreak":
                self.skip_spaces()
                if self.p + 1 == self.end and self.text[self.p] == "\\":
                    self.p += 1
                self.next_line()
                self.out.append(Void("br"))
            elif kind == "code_inline":
                self.code(t.markup)
            elif kind == "link_open":
                auto = t.markup == "autolink"
                self.take("<" if auto else "[")
                href = str(t.attrs.get("href") or "")
                self.out.append(Open("a", (("href", href), ("rel", "noopener noreferrer"), ("target", "_blank")))
                                if _SAFE_HREF.fullmatch(href) else Open("span", (("class", "link"),)))
            elif kind == "link_close":
                opened = next(e for e in reversed(self.out) if isinstance(e, Open) and e.tag in ("a", "span"))
                if t.markup == "autolink":
                    self.take(">")
                else:
                    self.take("]")
                    self.destination()
                self.out.append(Close(opened.tag))
            elif kind == "image":
                self.take("![")
                self.out.append(Open("span", (("class", "image"),)))
                self.tokens(t.children or [])
                self.take("]")
                self.destination()
                self.out.append(Close("span"))
            else:
                raise _Fail

    def words(self, content: str) -> None:
        text, j = self.text, 0
        if self.p + len(content) <= self.end and text.startswith(content, self.p):  # most text: as written
            self.show(self.p, self.p + len(content))
            self.p += len(content)
            return
        while j < len(content):
            if self.p >= self.end:
                raise _Fail
            ch, at = content[j], text[self.p]
            if at == "\\" and ch in _PUNCT and self.p + 1 < self.end and text[self.p + 1] == ch:
                self.show(self.p + 1, self.p + 2)
                self.p, j = self.p + 2, j + 1
                continue
            if at == "&" and (m := _ENTITY.match(text, self.p, self.end)):
                decoded = _html.unescape(m.group())
                if decoded != m.group() and content.startswith(decoded, j):
                    self.show(self.p, m.end(), decoded)
                    self.p, j = m.end(), j + len(decoded)
                    continue
            if at != ch:
                raise _Fail
            self.show(self.p, self.p + 1)
            self.p, j = self.p + 1, j + 1

    def code(self, fence: str) -> None:
        """`code`: the run between the fences as written (a line break in it shows as a space)."""
        self.take(fence)
        self.out.append(Open("code"))
        text = self.text
        while True:
            at = text.find(fence, self.p, self.end)
            while at >= 0 and at + len(fence) < self.end and text[at + len(fence)] == "`":
                stop = at + len(fence)
                while stop < self.end and text[stop] == "`":
                    stop += 1
                at = text.find(fence, stop, self.end)
            if at >= 0:
                self.show(self.p, at)
                self.p = at
                break
            self.show(self.p, self.end)
            self.p = self.end
            self.next_line()
            self.out.append(Words(" "))
        self.out.append(Close("code"))
        self.take(fence)

    def destination(self) -> None:
        """A link's ``(address "title")`` or ``[label]`` after its text (nothing for a shortcut reference)."""
        text = self.text
        if self.p < self.end and text[self.p] == "(":
            depth, q = 0, self.p
            while q < self.end:
                if text[q] == "\\":
                    q += 2
                    continue
                depth += {"(": 1, ")": -1}.get(text[q], 0)
                q += 1
                if depth == 0:
                    break
            if depth:
                raise _Fail
            self.p = q
        elif self.p < self.end and text[self.p] == "[":
            close = text.find("]", self.p, self.end)
            if close < 0:
                raise _Fail
            self.p = close + 1


# ---- HTML -----------------------------------------------------------------------------------------------


def html_layout_events(layout: HtmlLayout) -> list[Event]:
    """The events of an HTML article from the elements ingest read it into (``layout.text``: the claims' text)."""
    text = layout.text
    out: list[Event] = []
    tables = {t.start: t for t in layout.tables}
    stack: list[Element] = []
    pos = 0

    def upto(stop: int) -> None:
        nonlocal pos
        if stop <= pos:
            return
        pre = any(e.tag == "pre" for e in stack)
        out.extend(Text(s, e) for s, e in _runs(text, pos, stop, pre))
        pos = stop

    for el in layout.elements:
        while stack and stack[-1].depth >= el.depth:
            upto(stack[-1].end)
            out.append(Close(stack.pop().tag))
        upto(el.start)
        if el.tag in ("br", "hr"):
            out.append(Void(el.tag))
            pos = max(pos, el.end)
        elif el.tag == "table":
            table = tables.get(el.start)
            if table is not None:
                out += _table_events(table)
            pos = max(pos, el.end)
        else:
            attrs = (("href", el.href), ("rel", "noopener noreferrer"), ("target", "_blank")) if el.href else ()
            out.append(Open(el.tag if el.tag != "a" or el.href else "span", attrs))
            stack.append(el if el.tag != "a" or el.href else el._replace(tag="span"))
    while stack:
        upto(stack[-1].end)
        out.append(Close(stack.pop().tag))
    upto(len(text))
    return out


def _runs(text: str, start: int, stop: int, pre: bool) -> list[tuple[int, int]]:
    """The pieces of text[start:stop] shown: all of it in <pre>, else without the line breaks between blocks."""
    if pre:
        return [(start, stop)]
    out, pos = [], start
    for m in re.finditer(r"\n", text[start:stop]):
        if start + m.start() > pos:
            out.append((pos, start + m.start()))
        pos = start + m.end()
    if stop > pos:
        out.append((pos, stop))
    return out


def _table_events(table: Table) -> list[Event]:
    out: list[Event] = [Open("table")]
    rows = sorted([(table.header, True), *((r, False) for r in table.rows)],
                  key=lambda r: r[0][0].start if r[0] else 0)
    for cells, head in rows:
        out.append(Open("tr"))
        for c in cells:
            tag = "th" if head else "td"
            out += [Open(tag), Text(c.start, c.end), Close(tag)]
        out.append(Close("tr"))
    return [*out, Close("table")]
