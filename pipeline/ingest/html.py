"""HTML pages: the article element's text, built node by node so that every offset is known; navigation,
scripts and footers dropped; tables and <pre><code> blocks mapped."""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterator
from typing import NamedTuple

from bs4 import BeautifulSoup, NavigableString, PageElement, Tag
from bs4.element import PreformattedString

from ..records import Block, BlockKind, Cell, Table
from .lines import CODE, HEADING, PROSE, TABLE, _attach_comments, _Parsed, _Region

# ---- HTML ------------------------------------------------------------------------------------------------

_DROP = frozenset({"script", "style", "nav", "header", "footer", "aside", "form", "noscript", "template",
                   "iframe", "svg", "head", "title"})
_BLOCK_TAGS = frozenset({"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "tr", "pre", "blockquote",
                         "table", "ul", "ol", "section", "article", "main", "dl", "dt", "dd", "figure",
                         "figcaption", "hr", "address", "details", "summary", "caption"})
_BREAKS = _BLOCK_TAGS | {"br"}
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
# The elements a report shows the article with, and the tag it shows each as (the page's own attributes dropped)
_SHOWN = {
    **{h: h for h in ("h1", "h2", "h3", "h4", "h5", "h6", "p", "li", "ul", "ol", "blockquote", "pre", "dl", "dt",
                      "dd", "hr", "br", "sub", "sup", "code", "a")},
    **dict.fromkeys(("div", "section", "article", "main", "figure", "address", "details", "header"), "div"),
    **dict.fromkeys(("figcaption", "summary", "caption"), "p"),
    "strong": "strong", "b": "strong", "em": "em", "i": "em", "kbd": "code", "samp": "code", "tt": "code",
    "s": "s", "del": "s", "strike": "s",
}
_HREF = re.compile(r"https?://[^\s\x00-\x1f]+", re.I)
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


class Element(NamedTuple):
    """An element of the page as a report shows it: ``tag`` (a tag of ``_SHOWN``'s values, or ``table``: the
    ``Table`` that starts at ``start``) over [start, end) of the article text, ``depth`` in the page's tree, and
    ``href`` for a link (http and https only). Elements are in document order (the order of their start tags)."""

    tag: str
    start: int
    end: int
    depth: int
    href: str = ""


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
        self.elements: list[Element] = []  # in start-tag order; each completed when its end tag is left
        self.open_elements: list[int] = []  # indexes into elements of the shown elements being written

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
            at = self.pos
            self.newline(boundary=False)
            self.elements.append(Element("br", at, self.pos, len(self.open_elements)))
        elif tag.name == "table":
            self.table(tag)
        elif tag.name in _BLOCK_TAGS:
            self.newline()
            if tag.name == "pre" or tag.name in _HEADINGS:
                self.pre += tag.name == "pre"
                self.heading += tag.name in _HEADINGS
                self.starts.append(self.pos)
        if tag.name in _SHOWN and tag.name != "br":
            href = tag.get("href") if tag.name == "a" else None
            link = href if isinstance(href, str) and _HREF.fullmatch(href.strip()) else ""
            self.open_elements.append(len(self.elements))
            self.elements.append(Element(_SHOWN[tag.name], self.pos, self.pos, len(self.open_elements) - 1,
                                         link.strip()))

    def leave(self, tag: Tag) -> None:
        if tag.name in _SHOWN and tag.name != "br":
            k = self.open_elements.pop()
            self.elements[k] = self.elements[k]._replace(end=self.pos)
        self.close(tag)

    def close(self, tag: Tag) -> None:
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
        head = next((tr for tr in rows if _in_head(tr)), rows[0])
        self.newline()
        caption = table.find("caption")
        depth = len(self.open_elements)
        if isinstance(caption, Tag) and caption.find_parent("table") is table:
            shown = self.cell_text(caption)
            self.elements.append(Element("p", self.pos, self.pos + len(shown), depth))
            self.write(shown + "\n", TABLE)
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
        self.elements.append(Element("table", start, end, depth))

    def cell_text(self, cell: Tag) -> str:
        pieces = [str(n) if _is_text(n) else "\n" for n, entering in _events(cell, self.drop, lambda t: True)
                  if (entering and _is_text(n)) or (isinstance(n, Tag) and n.name in _BREAKS)]
        return _BROKEN_WS.sub(" ", "".join(pieces)).strip()


def _in_head(tr: Tag) -> bool:
    """The row is in its own table's <thead> (not in a <thead> around the table)."""
    parent = tr.find_parent(["thead", "table"])
    return parent is not None and parent.name == "thead"


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
    return _Parsed(text, title or fallback_title, blocks, tuple(html.tables), tuple(html.elements))
