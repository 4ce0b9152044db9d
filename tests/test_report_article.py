"""Articles rendered as published (report/layout.py, report/article.py): where each claim's highlight lands, in a
table of Markdown and HTML cases, and as properties over generated articles (every claim's marks show exactly the
source slice it states)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.ingest import front_matter, html_layout, parse_text
from pipeline.records import Check, Claim, DocumentResult, Format, Status, Verdict
from pipeline.report.article import layout_events, render_article
from pipeline.report.html import document_context
from pipeline.report.layout import Text, Words, markdown_layout
from pipeline.report.tables import claim_views

VOID = frozenset({"br", "hr"})


@dataclass
class Mark:
    attrs: dict[str, str | None]
    text: str
    inside: tuple[str, ...]  # the open elements around it, outermost first


@dataclass
class Rendered(HTMLParser):
    """The marks of a rendered article, the elements around each, its ids and the text it shows."""

    marks: list[Mark] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    tags: list[tuple[str, dict[str, str | None]]] = field(default_factory=list)
    shown: list[str] = field(default_factory=list)
    stack: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(convert_charrefs=True)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append((tag, a))
        if a.get("id"):
            self.ids.append(a["id"] or "")
        if tag == "mark":
            self.marks.append(Mark(a, "", tuple(self.stack)))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, (tag, self.stack)  # the markup is well nested
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        if "summary" not in self.stack:
            self.shown.append(data)
        if self.stack and self.stack[-1] == "mark":
            self.marks[-1].text += data

    def covering(self, key: str) -> list[Mark]:
        return [m for m in self.marks if key in (m.attrs.get("data-claims") or "").split()]


def claim(text: str, start: int, end: int, key: str, verdict: Verdict = Verdict.CONTRADICTED) -> Claim:
    return Claim("a.md", start, end, text[start:end], text[start:end], 0, None, None, "memory_size", 1, "GB",
                 check=Check(verdict, "说明"), claim_id=key)


def render(fmt: str, text: str, claims: list[Claim], source: bytes | None = None) -> Rendered:
    events = layout_events(fmt, text, source)
    assert events is not None
    page = Rendered()
    page.feed(str(render_article(text, events, claim_views(claims, text))))
    page.close()
    assert page.stack == []
    return page


def _at(text: str, needle: str, nth: int = 0) -> int:
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    return start


# fmt: off
# (Markdown source, the claim's text, which occurrence, what its marks show, the element the first mark is in)
MARKDOWN = [
    ("# 标题里的80GB\n", "80GB", 0, "80GB", "h2"),  # under the page's <h1>: one level down
    ("标题80GB\n===\n", "80GB", 0, "80GB", "h2"),
    ("## 标题 80GB ##\n", "80GB", 0, "80GB", "h3"),
    ("###### 六级 80GB\n", "80GB", 0, "80GB", "h6"),
    ("正文**80GB**显存\n", "80GB", 0, "80GB", "strong"),
    ("正文 __80GB__ 显存\n", "80GB", 0, "80GB", "strong"),
    ("正文__80GB__显存\n", "80GB", 0, "80GB", "p"),  # no emphasis inside a word: the underscores are text
    ("正文*80GB*显存\n", "80GB", 0, "80GB", "em"),
    ("正文~~80GB~~显存\n", "80GB", 0, "80GB", "s"),
    ("显存**80**GB\n", "80**GB", 0, "80GB", "strong"),  # across markup: the markers are not shown
    ("| 型号 | 显存 |\n|---|---|\n| A100 | 80GB |\n", "80GB", 0, "80GB", "td"),
    ("| 型号 | 80GB |\n|:-:|--:|\n| A100 | 40GB |\n", "80GB", 0, "80GB", "th"),
    ("| 型号 | 显存 |\n|---|---|\n| A100 | **80GB** |\n", "80GB", 0, "80GB", "strong"),
    ("| 型号 | 显存 |\n|---|---|\n| A\\|B | 80GB |\n", "80GB", 0, "80GB", "td"),
    ("- 列表项 80GB\n- 第二项\n", "80GB", 0, "80GB", "li"),
    ("1. 第一\n2. 第二80GB\n", "80GB", 0, "80GB", "li"),
    ("- 松散\n\n- 列表 80GB\n", "80GB", 0, "80GB", "p"),
    ("> 引用 80GB\n", "80GB", 0, "80GB", "p"),
    ("> - 引用里的列表80GB\n", "80GB", 0, "80GB", "li"),
    ("```python\nx = 80  # 80GB\n```\n", "80GB", 0, "80GB", "code"),
    ("- 项目\n\n  ```\n  显存 80GB\n  ```\n", "80GB", 0, "80GB", "code"),
    ("段落\n\n    缩进代码 80GB\n", "80GB", 0, "80GB", "code"),
    ("`80GB`\n", "80GB", 0, "80GB", "code"),
    ("A\\*B 80GB\n", "80GB", 0, "80GB", "p"),
    ("A\\*B 80GB\n", "*B 8", 0, "*B 8", "p"),  # an escape's backslash is not shown
    ("A&amp;B 80GB\n", "80GB", 0, "80GB", "p"),
    ("A&amp;B 80GB\n", "&amp;B", 0, "&B", "p"),  # an entity is shown as its character
    ("第一行\n第二行80GB\n", "80GB", 0, "80GB", "p"),
    ("第一行  \n第二行80GB\n", "80GB", 0, "80GB", "p"),
    ("第一行\\\n第二行80GB\n", "80GB", 0, "80GB", "p"),
    ("  缩进的第一行\n   缩进的第二行80GB  \n", "80GB", 0, "80GB", "p"),
    ("[链接80GB](https://example.com/a_(b) \"题\")后文80GB\n", "80GB", 1, "80GB", "p"),
    ("[链接80GB](https://example.com)\n", "80GB", 0, "80GB", "a"),
    ("<https://example.com/80GB>\n", "80GB", 0, "80GB", "a"),
    ("![图80GB](a.png) 后文\n", "80GB", 0, "80GB", "span"),
    ("---\ntitle: 标题\n---\n正文80GB\n", "80GB", 0, "80GB", "p"),
    ("---\ntitle: 标题80GB\n---\n正文\n", "80GB", 0, "80GB", "pre"),  # the front matter, folded
    ("# 标题\r\n\r\n正文80GB\r\n", "80GB", 0, "80GB", "p"),
    ("<b>80GB</b>显存\n", "80GB", 0, "80GB", "p"),  # raw HTML is text
    ("正文**80GB显存\n", "80GB", 0, "80GB", "p"),  # an unclosed marker is text
    ("a\u0000b 80GB\n", "80GB", 0, "80GB", "p"),  # markdown-it changes NUL: the line is shown as written
]
# fmt: on


@pytest.mark.parametrize(("source", "needle", "nth", "shown", "inside"), MARKDOWN)
def test_markdown_highlight_sits_on_the_stated_text(source: str, needle: str, nth: int, shown: str,
                                                    inside: str) -> None:
    start = _at(source, needle, nth)
    page = render("md", source, [claim(source, start, start + len(needle), "k1")])
    marks = page.covering("k1")
    assert "".join(m.text for m in marks) == shown
    assert marks[0].inside[-1] == inside
    assert page.ids.count("c-k1") == 1 and marks[0].attrs.get("id") == "c-k1"


# fmt: off
# (HTML page, the claim's text in the extracted text, what its marks show, the element the first mark is in)
HTML = [
    ("<p>正文<b>80GB</b>显存</p>", "80GB", "80GB", "strong"),
    ("<p>正文<i>80</i>GB</p>", "80GB", "80GB", "em"),
    ("<h2>标题 80GB</h2><p>正文</p>", "80GB", "80GB", "h3"),
    ("<ul><li>甲 80GB</li><li>乙</li></ul>", "80GB", "80GB", "li"),
    ("<table><tr><th>型号</th><th>显存</th></tr><tr><td>A100</td><td>80GB</td></tr></table>", "80GB", "80GB", "td"),
    ("<table><caption>表 80GB</caption><tr><td>甲</td></tr></table>", "80GB", "80GB", "p"),
    ("<pre><code>x = 1\ny = 80  # 80GB</code></pre>", "80GB", "80GB", "code"),
    ("<p>第一行<br>第二行80GB</p>", "80GB", "80GB", "p"),
    ("<p>跨行\n  的文字 80GB</p>", "80GB", "80GB", "p"),
    ("<p><a href=\"https://example.com\">链接80GB</a></p>", "80GB", "80GB", "a"),
    ("<p><a href=\"javascript:alert(1)\">链接80GB</a></p>", "80GB", "80GB", "span"),
    ("<div>甲 80GB</div><div>乙</div>", "80GB", "80GB", "div"),
    ("<blockquote><p>引用80GB</p></blockquote>", "80GB", "80GB", "p"),
    ("<p>A &amp; B 80GB</p>", "&", "&", "p"),
    ("<p>甲</p><p>乙80GB</p>", "甲\n乙", "甲乙", "p"),  # across two paragraphs: a mark in each
]
# fmt: on


@pytest.mark.parametrize(("page", "needle", "shown", "inside"), HTML)
def test_html_highlight_sits_on_the_stated_text(page: str, needle: str, shown: str, inside: str) -> None:
    raw = f"<html><body><article>{page}</article></body></html>".encode()
    layout = html_layout(raw)
    assert layout is not None
    start = _at(layout.text, needle)
    rendered = render("html", layout.text, [claim(layout.text, start, start + len(needle), "k1")], raw)
    marks = rendered.covering("k1")
    assert "".join(m.text for m in marks) == shown
    assert marks[0].inside[-1] == inside
    assert rendered.ids.count("c-k1") == 1
    assert all(not (a.get("href") or "").startswith("javascript") for _, a in rendered.tags)


def test_html_is_shown_as_text_when_its_source_is_not_the_one_analysed() -> None:
    raw = "<html><body><p>正文<b>80GB</b></p></body></html>".encode()
    text = "另一篇正文80GB\n"
    assert layout_events("html", text, raw) is None and layout_events("html", text, None) is None
    assert layout_events("txt", text, None) is None


def test_a_claim_on_markup_only_gets_an_anchor() -> None:
    source = "正文**粗**\n"
    page = render("md", source, [claim(source, 2, 4, "k1")])
    assert page.covering("k1") == [] and page.ids == ["c-k1"]


def test_overlapping_claims_each_show_their_text() -> None:
    source = "| 型号 | 显存 |\n|---|---|\n| A100 | 显存**80GB**带宽 |\n"
    wide, narrow = _at(source, "显存**"), _at(source, "80GB")
    claims = [claim(source, wide, wide + len("显存**80GB"), "wide", Verdict.SUPPORTED),
              claim(source, narrow, narrow + 4, "narrow", Verdict.CONTRADICTED)]
    page = render("md", source, claims)
    assert "".join(m.text for m in page.covering("wide")) == "显存80GB"
    assert "".join(m.text for m in page.covering("narrow")) == "80GB"
    assert sorted(page.ids) == ["c-narrow", "c-wide"]


def test_front_matter_title_is_the_page_title() -> None:
    source = "---\ntitle: \"测试用的标题\"\nauthor: 某人\n---\n# 正文标题\n\n正文。\n"
    doc = parse_text(source, Format.MD, doc_id="a.md")
    assert doc.title == "测试用的标题"
    result = DocumentResult("a.md", "a.md", "md", "", Status.OK, title="旧的标题")
    context = document_context(result, source)
    assert context["title"] == "测试用的标题" and context["rendered"]
    assert document_context(DocumentResult("b.md", "b.md", "md", "", Status.OK), "正文。\n")["title"] == "b.md"


# fmt: off
FRONT = [
    ("---\ntitle: 标题\n---\n正文", "标题"),
    ("---\ntitle: '单引号'\n---\n", "单引号"),
    ("---\r\ntitle: 回车换行\r\n...\r\n", "回车换行"),
    ("---\ndate: 2024-01-01\n---\n", None),
    ("---\ntitle:\n---\n", None),
    ("正文\n---\ntitle: 不是\n---\n", None),
    ("---\ntitle: 没有结束\n", None),
]
# fmt: on


@pytest.mark.parametrize(("source", "title"), FRONT)
def test_front_matter(source: str, title: str | None) -> None:
    front = front_matter(source)
    assert (front.title if front else None) == title
    if front is not None:
        assert source[:front.end].splitlines()[-1].strip() in ("---", "...")


# ---- properties ------------------------------------------------------------------------------------------

WORD = st.text(alphabet="显存带宽核心甲乙丙丁0123456789GBT", min_size=1, max_size=6)
WRAP = st.sampled_from(["{}", "**{}**", "*{}*", "`{}`", "[{}](https://example.com)", "~~{}~~"])
INLINE = st.lists(st.tuples(WRAP, WORD), min_size=1, max_size=4)
BLOCK = st.sampled_from(["para", "heading", "bullet", "quote", "table", "fence", "lines"])


@st.composite
def articles(draw: st.DrawFn) -> tuple[str, list[tuple[int, int]]]:
    """A Markdown article of generated blocks, and where each word of it is in the source."""
    parts: list[str] = []
    words: list[tuple[int, int]] = []
    pos = 0

    def put(s: str, word: bool = False) -> None:
        nonlocal pos
        if word:
            words.append((pos, pos + len(s)))
        parts.append(s)
        pos += len(s)

    def inline(pieces: list[tuple[str, str]]) -> None:
        for k, (wrap, word) in enumerate(pieces):
            before, after = wrap.split("{}")
            put((" " if k else "") + before)
            put(word, True)
            put(after)

    if draw(st.booleans()):
        put("---\ntitle: ")
        put(draw(WORD), True)
        put("\n---\n")
    for b in draw(st.lists(BLOCK, min_size=1, max_size=5)):
        if b in ("heading", "bullet", "quote"):
            put({"heading": "## ", "bullet": "- ", "quote": "> "}[b])
            inline(draw(INLINE))
        elif b == "para":
            inline(draw(INLINE))
        elif b == "lines":
            inline(draw(INLINE))
            put(draw(st.sampled_from(["\n", "  \n", "\\\n"])))
            inline(draw(INLINE))
        elif b == "table":
            n = draw(st.integers(1, 3))
            for row in range(draw(st.integers(1, 3)) + 1):
                put("| ")
                for k in range(n):
                    put(" | " if k else "")
                    inline(draw(st.lists(st.tuples(WRAP, WORD), min_size=1, max_size=2)))
                put(" |\n")
                if row == 0:
                    put("|" + "---|" * n + "\n")
        else:
            put("```\n")
            for _ in range(draw(st.integers(1, 3))):
                put(draw(WORD), True)
                put("\n")
            put("```")
        put("\n\n")
    return "".join(parts), words


@st.composite
def article_and_claims(draw: st.DrawFn) -> tuple[str, list[tuple[int, int]], list[Claim]]:
    text, words = draw(articles())
    claims = []
    for k in range(draw(st.integers(1, 6))):
        s, e = draw(st.sampled_from(words))
        a = draw(st.integers(s, e - 1))
        b = draw(st.integers(a + 1, e))
        claims.append(claim(text, a, b, f"k{k}", draw(st.sampled_from(list(Verdict)))))
    return text, words, claims


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(article_and_claims())
def test_every_claim_span_maps_to_a_highlight_of_its_source_slice(
        case: tuple[str, list[tuple[int, int]], list[Claim]]) -> None:
    text, _, claims = case
    page = render("md", text, claims)
    for c in claims:
        assert "".join(m.text for m in page.covering(c.claim_id)) == text[c.start:c.end]
        assert page.ids.count(f"c-{c.claim_id}") == 1


@settings(max_examples=150, deadline=None)
@given(articles())
def test_every_word_is_shown_once_in_order(case: tuple[str, list[tuple[int, int]]]) -> None:
    text, words = case
    front = front_matter(text)
    words = [w for w in words if front is None or w[0] >= front.end]  # the front matter is shown as written
    shown = [ev for ev in markdown_layout(text) if isinstance(ev, Text) and (front is None or ev.start >= front.end)]
    covered = "".join(text[ev.start:ev.end] for ev in shown if ev.shown is None)
    assert "".join(text[s:e] for s, e in words) == "".join(ch for ch in covered if ch not in " ")
    assert all(a.end <= b.start for a, b in itertools.pairwise(shown))  # in source order, no overlap
    assert not any(isinstance(ev, Words) and ev.text.strip() and ev.text != "文章信息" for ev in markdown_layout(text))


HTML_WRAP = st.sampled_from(["{}", "<b>{}</b>", "<em>{}</em>", "<code>{}</code>", "<a href='https://e.com'>{}</a>"])
HTML_BLOCK = st.sampled_from(["<p>{}</p>", "<h3>{}</h3>", "<ul><li>{}</li></ul>", "<blockquote>{}</blockquote>",
                              "<table><tr><td>{}</td><td>甲</td></tr></table>", "<div>{}<br>{}</div>"])


@st.composite
def pages(draw: st.DrawFn) -> bytes:
    blocks = []
    for b in draw(st.lists(HTML_BLOCK, min_size=1, max_size=5)):
        fill = [" ".join(w.format(x) for w, x in draw(st.lists(st.tuples(HTML_WRAP, WORD), min_size=1,
                                                                  max_size=3))) for _ in range(b.count("{}"))]
        blocks.append(b.format(*fill))
    return f"<html><body><article>{''.join(blocks)}</article></body></html>".encode()


@settings(max_examples=100, deadline=None)
@given(pages(), st.data())
def test_every_claim_span_of_an_html_page_maps_to_its_text(raw: bytes, data: st.DataObject) -> None:
    layout = html_layout(raw)
    assert layout is not None
    text = layout.text
    runs = [(ev.start, ev.end) for ev in layout_events("html", text, raw) or [] if isinstance(ev, Text)
            if text[ev.start:ev.end].strip()]
    claims = []
    for k in range(data.draw(st.integers(1, 5))):
        s, e = data.draw(st.sampled_from(runs))
        a = data.draw(st.integers(s, e - 1))
        b = data.draw(st.integers(a + 1, e))
        claims.append(claim(text, a, b, f"k{k}", data.draw(st.sampled_from(list(Verdict)))))
    page = render("html", text, claims, raw)
    for c in claims:
        assert "".join(m.text for m in page.covering(c.claim_id)) == text[c.start:c.end]
    # all the page's text shown, nothing else (a table's cells without the " | " between them)
    assert "".join("".join(page.shown).split()) == "".join(text.replace(" | ", "").split())


MARKDOWNISH = st.text(alphabet="显存80GB *_`[]()!#>-|:\\&;amp\n\t~=+.1<h>", max_size=120)


@settings(max_examples=300, deadline=None)
@given(MARKDOWNISH, st.data())
def test_any_markdown_renders_well_nested_with_every_claim_placed_once(text: str, data: st.DataObject) -> None:
    spans = data.draw(st.lists(st.tuples(st.integers(0, len(text)), st.integers(0, len(text))), max_size=5))
    claims = [claim(text, min(a, b), max(a, b), f"k{k}") for k, (a, b) in enumerate(spans)]
    page = render("md", text, claims)  # fails on markup that is not well nested
    assert sorted(page.ids) == sorted(f"c-{c.claim_id}" for c in claims)
    shown = [ev for ev in markdown_layout(text) if isinstance(ev, Text)]
    assert all(a.end <= b.start for a, b in itertools.pairwise(shown))
    for c in claims:  # a claim's marks show its text without the markup: its characters, in order
        marked = iter(text[c.start:c.end])
        assert all(ch in marked for ch in "".join(m.text for m in page.covering(c.claim_id))
                   if ch not in "&<>\"'")


TAGS = {"p", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "pre", "code", "strong", "em", "s", "sub",
        "sup", "a", "span", "div", "dl", "dt", "dd", "table", "thead", "tbody", "tr", "th", "td", "br", "hr", "mark",
        "details", "summary"}
ATTRS = {"class", "href", "rel", "target", "id", "data-owner", "data-claims", "tabindex", "title", "start"}
HOSTILE_HTML = ('<p onclick="x()" style="color:red" class="evil">甲<img src=x onerror="x()"><script>x()</script>'
                '<a href="javascript:x()" onmouseover="x()">乙</a><iframe src="https://e.com"></iframe>'
                '<b style="x">80GB</b></p><form action="https://e.com"><input value="丙"></form>')
HOSTILE_MD = ('# 标题<script>x()</script>\n\n<img src=x onerror="x()">正文 **80GB**\n\n'
              '[链接](javascript:x()) ![图](https://e.com/a.png) <a href="https://e.com" onclick="x()">丁</a>\n')


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_article_markup_is_ours_only(fmt: str) -> None:
    raw = HOSTILE_HTML.encode() if fmt == "html" else None
    layout = html_layout(raw) if raw else None
    text = layout.text if layout else HOSTILE_MD
    start = text.index("80GB")
    page = render(fmt, text, [claim(text, start, start + 4, "k1")], raw)
    assert {t for t, _ in page.tags} <= TAGS
    assert {a for _, attrs in page.tags for a in attrs} <= ATTRS
    assert all((attrs.get("href") or "https://").startswith("https://") for _, attrs in page.tags)
    assert [c for _, attrs in page.tags if (c := attrs.get("class")) and "evil" in c] == []
    assert "".join(m.text for m in page.covering("k1")) == "80GB"
    if fmt == "md":  # the article's markup shows as text
        assert "<script>x()</script>" in "".join(page.shown) and '<img src=x onerror="x()">' in "".join(page.shown)


# ---- the parser for a text leaves out the block rules that cannot fire in it: the same tokens as the full parser

MARKDOWN_ALPHABET = st.sampled_from([*"#>-*_=+[]():`~|\\!<&1.a显 ", "\t", "\n", "\r", "    ", "```", "---", "1. "])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.lists(MARKDOWN_ALPHABET, max_size=40).map("".join))
def test_the_parser_for_a_text_gives_the_tokens_of_the_full_parser(text: str) -> None:
    from pipeline.report.layout import _parser

    full, pruned = _parser(), _parser(text)
    assert [t.as_dict() for t in pruned.parse(text)] == [t.as_dict() for t in full.parse(text)]


@pytest.mark.parametrize(("text", "skipped"), [
    # (a text, the block rules its parser leaves out)
    ("H100 的显存为 80GB。\n", {"html_block", "reference", "blockquote", "code", "hr", "lheading"}),
    ("> 引用\n", {"html_block", "reference", "code", "hr", "lheading"}),
    ("标题\n---\n", {"html_block", "reference", "blockquote", "code"}),
    ("[1]: https://example.com\n    缩进\n", {"html_block", "blockquote", "hr", "lheading"}),
    ("标题\r===\r", {"html_block", "reference", "blockquote", "code", "hr"}),
])
def test_the_parser_for_a_text_leaves_out_the_rules_it_cannot_use(text: str, skipped: set[str]) -> None:
    from pipeline.report.layout import _parser

    active = set(_parser(text).get_active_rules()["block"])
    assert set(_parser().get_active_rules()["block"]) - active == skipped
