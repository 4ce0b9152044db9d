"""The per-document pages byte for byte (golden files made before the output stage was sped up), and the article
markup against a plain reference implementation."""

from __future__ import annotations

import itertools
import os
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup, escape

from pipeline.records import Check, Claim, DocumentResult, Evidence, Status, Verdict
from pipeline.report import write_document_report
from pipeline.report.display import Display, is_traditional
from pipeline.report.html import TEMPLATES, Segment, _escape, article_markup, claim_item, environment, segments
from pipeline.report.markdown import md_text
from pipeline.report.tables import SEVERITY, ClaimView, claim_views, line_of
from pipeline.report.tables import _cell as csv_cell
from tests.test_report import (
    ARTICLE,
    CODED,
    REFERENCE_NAMES,
    article_result,
    coded_result,
    hostile_result,
    make_claim,
    other_results,
)

PAGES = Path(__file__).parent / "golden" / "pages"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
HOSTILE = '<b>&"x\'</b>'
TRADITIONAL = "輝達A100配備80GB顯示記憶體，頻寬高達每秒2TB。\n"


def hostile_page_result() -> tuple[DocumentResult, str]:
    return hostile_result(HOSTILE, {"status": "corrected", "editor": HOSTILE, "note": HOSTILE, "correction": HOSTILE})


def traditional_result() -> tuple[DocumentResult, str]:
    claim = replace(make_claim(TRADITIONAL, "每秒2TB", "t1", "memory_bandwidth", 2000, "GB/s",
                               Verdict.CONTRADICTED, doc_id="tw.md", expected="1555 GB/s",
                               explanation="NVIDIA A100的显存带宽应为1555 GB/s，文中不正确。"),
                    extra={"written_unit": "每秒TB"})
    return DocumentResult("tw.md", "corpus/tw.md", "md", "ab" * 32, Status.OK, claims=(claim,)), TRADITIONAL


def edge_result() -> tuple[DocumentResult, str]:
    """Adjacent, nested, identical, empty, reversed and out-of-range spans, and a key that is not an id."""
    text = "甲乙丙丁戊己庚辛壬癸\n子丑"
    spans = [(0, 2, Verdict.SUPPORTED), (2, 4, Verdict.CONTRADICTED), (1, 6, Verdict.UNVERIFIABLE),
             (3, 3, Verdict.SUPPORTED), (5, 4, Verdict.MISATTRIBUTED), (8, 99, Verdict.CODE_ISSUE),
             (2, 4, Verdict.CONTRADICTED), (6, 9, None)]
    claims = tuple(Claim("e.txt", s, e, text[s:e], text, 0, None, None, "memory_size", 1, "GB",
                         check=Check(v, "说明") if v else None, claim_id="c 1" if i == 6 else f"k{i}")
                   for i, (s, e, v) in enumerate(spans))
    return DocumentResult("e.txt", "corpus/e.txt", "txt", "ab" * 32, Status.OK, claims=claims), text


CASES = {
    "article": lambda: (article_result(), ARTICLE, None),
    "coded": lambda: (coded_result(), CODED, lambda i: REFERENCE_NAMES.get(i, i)),
    "hostile": lambda: (*hostile_page_result(), None),
    "traditional": lambda: (*traditional_result(), None),
    "edges": lambda: (*edge_result(), None),
    "ok": lambda: (other_results()[0], "该卡采用GDDR6显存。", None),
    "skipped": lambda: (other_results()[2], "", None),
    "error": lambda: (other_results()[3], "", None),
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("ext", ["md", "html", "json"])
def test_document_pages_match_golden(case: str, ext: str, tmp_path: Path) -> None:
    result, text, names = CASES[case]()
    files = write_document_report(result, text, tmp_path, names=names)
    actual = (tmp_path / files[ext]).read_bytes()
    golden = PAGES / f"{case}.{ext}"
    if UPDATE:
        PAGES.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(actual)
    assert golden.exists(), f"missing golden file {golden}; run with UPDATE_GOLDEN=1 to create it"
    assert actual == golden.read_bytes()


# ---- the article markup -------------------------------------------------------------------------

# The template that built the article before ``article_markup`` (e436904's _article.html.j2): the reference.
REFERENCE_ARTICLE = (
    '{% for s in segments %}{% for k in s.anchors %}<span class="anchor" id="c-{{ k }}"></span>{% endfor %}'
    '{% if s.owner %}<mark class="v-{{ s.owner.verdict }}{% if s.under %} u-{{ s.under }}{% endif %}'
    '{% if s.owner.is_closed %} closed{% endif %}" data-owner="{{ s.owner.key }}" '
    'data-claims="{{ s.keys | join(\' \') }}" tabindex="0" title="{{ s.owner.verdict_zh }}：{{ s.owner.attribute_zh }}"'
    '{% if s.mark_id %} id="c-{{ s.mark_id }}"{% endif %}>{{ s.text }}</mark>{% else %}{{ s.text }}{% endif %}'
    '{% endfor %}')


def reference_article(segs: list[Segment]) -> str:
    env = Environment(autoescape=True, undefined=StrictUndefined)
    return env.from_string(REFERENCE_ARTICLE).render(segments=segs)


def spans_claims(text: str, spans: list[tuple[int, int, Verdict | None, str | None]]) -> list[Claim]:
    return [Claim("d", s, e, text[max(0, s):max(0, e)], text, 0, None, None, "memory_size", 1, "GB",
                  check=Check(v, "") if v else None, claim_id=f"k{i}",
                  extra={"review": {"status": r}} if r else {})
            for i, (s, e, v, r) in enumerate(spans)]


# fmt: off
MARKUP_CASES = [
    # (text, spans as (start, end, verdict, review status), what the markup must contain)
    ("abcdefgh", [(0, 4, Verdict.SUPPORTED, None), (4, 8, Verdict.CONTRADICTED, None)],  # adjacent
     ['id="c-k0">abcd</mark><mark class="v-contradicted"']),
    ("abcdefgh", [(0, 8, Verdict.UNVERIFIABLE, None), (2, 4, Verdict.MISATTRIBUTED, "dismissed")],  # nested
     ['<mark class="v-misattributed u-unverifiable closed" data-owner="k1" data-claims="k1 k0"']),
    ("a<b>&\"c'", [(1, 4, Verdict.CONTRADICTED, None)],  # escaping inside and outside a claim
     ['a<mark', '>&lt;b&gt;</mark>&amp;&#34;c&#39;']),
    ("甲乙丙", [(1, 2, Verdict.SUPPORTED, None), (1, 2, Verdict.CODE_ISSUE, None)],  # the same span twice
     ['data-owner="k1" data-claims="k1 k0"', 'id="c-k1">乙</mark>丙', '<span class="anchor" id="c-k0">']),
    ("甲乙丙", [(2, 1, Verdict.SUPPORTED, None), (5, 9, None, None)],  # reversed; past the end
     ['甲乙丙<span class="anchor" id="c-k0"></span><span class="anchor" id="c-k1"></span>']),
    ("", [], [""]),
]
# fmt: on


@pytest.mark.parametrize(("text", "spans", "expected"), MARKUP_CASES)
def test_article_markup(text: str, spans: list[tuple[int, int, Verdict | None, str | None]],
                        expected: list[str]) -> None:
    segs = segments(text, claim_views(spans_claims(text, spans), text))
    markup = article_markup(segs)
    assert markup == reference_article(segs)
    for piece in expected:
        assert piece in markup


ALPHABET = "ab<>&\"'甲乙\n"


@settings(max_examples=300, deadline=None)
@given(st.text(ALPHABET, max_size=12),
       st.lists(st.tuples(st.integers(-2, 14), st.integers(-2, 14), st.sampled_from([*Verdict, None]),
                          st.sampled_from([None, "open", "accepted", "dismissed", "corrected"])), max_size=8),
       st.booleans())
def test_article_markup_is_the_templates(text: str, spans: list[tuple[int, int, Verdict | None, str | None]],
                                         traditional: bool) -> None:
    views = claim_views(spans_claims(text, spans), text, Display(traditional=traditional))
    segs = segments(text, views)
    assert article_markup(segs) == reference_article(segs)


# ---- the claim items ----------------------------------------------------------------------------

REFERENCE_CLAIM = Path(__file__).parent / "data" / "reference_claim.html.j2"  # e436904's _claim.html.j2


def reference_item(v: ClaimView, **app: Any) -> str:
    env = Environment(loader=FileSystemLoader([REFERENCE_CLAIM.parent, TEMPLATES]), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    return env.get_template(REFERENCE_CLAIM.name).render(v=v, app=bool(app), **app)


def app_item(v: ClaimView, **app: Any) -> str:
    return environment().get_template("_claim.html.j2").render(v=v, app=True, **app)


words = st.text(ALPHABET, max_size=6)
maybe = st.one_of(st.none(), words)
reviews = st.one_of(st.none(), st.fixed_dictionaries(
    {"status": st.sampled_from(["open", "accepted", "dismissed", "corrected", "odd"])},
    optional={"editor": maybe, "note": maybe, "decided_at": maybe, "correction": maybe}))
sources = st.sampled_from([None, "", "https://a.example/x?q=<&>", "javascript:alert(1)", "reference/specs.csv"])


@st.composite
def claims(draw: st.DrawFn) -> Claim:
    attribute = draw(st.sampled_from(["memory_size", "memory_type", "code", "positioning", "tdp"]))
    value = draw(st.one_of(st.none(), st.integers(0, 99), words, st.just([350, 700])))
    verdict = draw(st.sampled_from([*Verdict, None]))
    check = Check(verdict, draw(words), draw(maybe), draw(sources), draw(maybe),
                  evidence=draw(st.sampled_from([None, *Evidence]))) if verdict else None
    review = draw(reviews)
    extra = {"scope": draw(st.sampled_from(["product", "system", ""])), "scope_detail": draw(maybe),
             "reason": draw(st.sampled_from([None, "no_reference", "x"]))}
    return Claim("d", 0, 2, draw(words), draw(words), 0, draw(st.sampled_from([None, "nvidia_h100", "x"])),
                 draw(maybe), attribute, value, draw(st.sampled_from([None, "GB", "W"])), check=check,
                 claim_id=draw(st.sampled_from(["c1", "c 1", "<x>"])),
                 extra={**extra, "review": review} if review else extra)


# fmt: off
ITEM_CASES = [
    # (claim, what its item must contain)
    (Claim("d", 0, 2, "a<b", "s", 0, None, "某卡", "memory_size", 24, "GB", check=Check(
        Verdict.CONTRADICTED, "说明&", "80 GB", "https://a.example/?a=1&b=2", "T\"i"), claim_id="c1",
        extra={"review": {"status": "corrected", "editor": "李", "note": "n<", "correction": "80GB"}}),
     ['<li class="claim v-contradicted flag r-corrected closed" id="item-c1"', "「a&lt;b」",
      '<a href="https://a.example/?a=1&amp;b=2"', ">T&#34;i</a>", "（李）：n&lt;</dd>",
      '<dt data-role="correction-label">更正</dt>', "review accept c1"]),
    (Claim("d", 0, 2, "x", "s", 0, None, None, "memory_type", "HBM3", None, check=Check(
        Verdict.SUPPORTED, "", None, "reference/specs.csv", None), claim_id="c2"),
     ['<dd> <span class="raw">reference/specs.csv</span></dd>']),
    # what the verdict rests on: shown, and kept on the item for the page's filter
    (Claim("d", 0, 2, "x", "s", 0, None, None, "rops", 176, None, check=Check(
        Verdict.SUPPORTED, "据TechPowerUp数据库……", "176", "https://www.techpowerup.com/gpu-specs/x.c1", "T",
        evidence=Evidence.DATABASE), claim_id="c3"),
     ['data-claim-id="c3" data-evidence="database"', "<dt>依据</dt><dd>TechPowerUp数据库</dd>"]),
]
# fmt: on


@pytest.mark.parametrize(("claim", "expected"), ITEM_CASES)
def test_claim_item(claim: Claim, expected: list[str]) -> None:
    v = claim_views([claim], "ab")[0]
    item = claim_item(v)
    assert item + "\n" == reference_item(v)
    for piece in expected:
        assert piece in item


@settings(max_examples=300, deadline=None)
@given(claims(), st.booleans(), st.booleans())
def test_claim_item_is_the_templates(claim: Claim, traditional: bool, can_write: bool) -> None:
    v = claim_views([claim], "ab\ncd", Display(traditional=traditional))[0]
    assert claim_item(v) + "\n" == reference_item(v)
    app = {"order": {v.key: 3}, "can_write": can_write, "versions": {claim.claim_id: 7},
           "twins": {claim.claim_id: ["c9", "c10"]}, "identical_label": lambda n: f"同{n}处",
           "history": {claim.claim_id: [{"at": "t", "user": "<u>", "from_zh": "a", "to_zh": "b", "kind": "moved",
                                         "kind_zh": "k", "note": "&", "correction": None}]}}
    assert app_item(v, **app) == reference_item(v, **app)


# ---- Markdown text ------------------------------------------------------------------------------


MD_SPECIAL = re.compile(r"([\\`*\[\]<>|~])")
MD_UNDERSCORE = re.compile(r"(?<![^\W_])_|_(?![^\W_])")


def reference_md_text(s: str | None) -> str:
    """e436904's md_text: the three substitutions on every string."""
    if not s:
        return ""
    s = MD_SPECIAL.sub(r"\\\1", re.sub(r"\s*[\r\n]+\s*", " ", s))
    return MD_UNDERSCORE.sub(r"\\_", s)


@pytest.mark.parametrize(("text", "expected"), [
    ("显存24GB", "显存24GB"), ("a_b _c", "a_b \\_c"), ("x<y>|z", "x\\<y\\>\\|z"), ("行一\r\n  行二", "行一 行二"),
    ("[链接](u) `码` *强* ~删~ \\", "\\[链接\\](u) \\`码\\` \\*强\\* \\~删\\~ \\\\"), ("", ""), (None, ""),
])
def test_md_text(text: str | None, expected: str) -> None:
    assert md_text(text) == expected == reference_md_text(text)


@settings(max_examples=500, deadline=None)
@given(st.text(st.sampled_from(list("ab_ 甲\\`*[]<>|~\r\n\t\u2028()#")), max_size=16))
def test_md_text_is_the_three_substitutions(text: str) -> None:
    assert md_text(text) == reference_md_text(text)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(ALPHABET + "#;x"), st.integers(), st.none(), st.text().map(Markup)))
def test_escape_is_markupsafes(value: object) -> None:
    assert _escape(value) == str(escape(value))


# ---- claims.csv cells ---------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "expected"), [
    ("显存", "显存"), ("", ""), ("=1+1", "'=1+1"), ("-5", "-5"), ("+x", "'+x"), ("@a", "'@a"), ("\tx", "'\tx"),
    (None, None), (3, 3), (2.5, 2.5), (True, True), ([350, 700], "[350, 700]"), (["a", 1], '["a", 1]'),
    ({"k": "值"}, '{"k": "值"}'),
])
def test_csv_cell(value: object, expected: object) -> None:
    assert csv_cell(value) == expected


# ---- cutting the article at claim boundaries ----------------------------------------------------


def reference_segments(text: str, views: list[ClaimView]) -> list[tuple[Any, ...]]:
    """e436904's segments(): every active claim re-sorted at every cut."""
    n = len(text)
    spans = [(max(0, min(v.claim.start, n)), max(0, min(v.claim.end, n)), v) for v in views]
    cuts = sorted({0, n, *(s for s, _, _ in spans), *(e for _, e, _ in spans)})
    pending = sorted((sp for sp in spans if sp[0] < sp[1]), key=lambda sp: sp[0])
    active: list[tuple[int, int, ClaimView]] = []
    pieces: list[tuple[int, int, list[ClaimView]]] = []
    for a, b in itertools.pairwise(cuts):
        while pending and pending[0][0] <= a:
            active.append(pending.pop(0))
        active = [sp for sp in active if sp[1] > a]
        cover = sorted((v for _, _, v in active), key=lambda v: -SEVERITY[v.verdict])
        if pieces and [v.key for v in pieces[-1][2]] == [v.key for v in cover]:
            pieces[-1] = (pieces[-1][0], b, cover)
        else:
            pieces.append((a, b, cover))
    owners = {cover[0].key for _, _, cover in pieces if cover}
    out: list[tuple[Any, ...]] = []
    placed: set[str] = set()
    for a, b, cover in pieces:
        owner = cover[0] if cover else None
        mark_id = None
        if owner is not None and owner.key not in placed:
            mark_id = owner.key
            placed.add(mark_id)
        keys = tuple(v.key for v in cover)
        anchors = tuple(k for k in keys if k not in placed and k not in owners)
        placed.update(anchors)
        under = next((v.verdict for v in cover[1:] if owner and v.verdict != owner.verdict), None)
        out.append((text[a:b], owner, keys, mark_id, anchors, under))
    rest = tuple(v.key for v in views if v.key not in placed)
    if rest:
        out.append(("", None, (), None, rest, None))
    return out


@settings(max_examples=500, deadline=None)
@given(st.integers(0, 14),
       st.lists(st.tuples(st.integers(-2, 16), st.integers(-2, 16), st.sampled_from([*Verdict, None]),
                          st.sampled_from([None, "dismissed"])), max_size=10))
def test_segments_are_the_reference_cut(length: int, spans: list[tuple[int, int, Verdict | None, str | None]]) -> None:
    text = ("甲<乙&\n" * 4)[:length]
    views = claim_views(spans_claims(text, spans), text)
    assert [tuple(s) for s in segments(text, views)] == reference_segments(text, views)


@settings(max_examples=300, deadline=None)
@given(st.text("a\n甲", max_size=12), st.lists(st.tuples(st.integers(-3, 15), st.integers(-3, 15)), max_size=8))
def test_view_lines_are_line_of(text: str, spans: list[tuple[int, int]]) -> None:
    claims = spans_claims(text, [(s, e, Verdict.SUPPORTED, None) for s, e in spans])
    assert [v.line for v in claim_views(claims, text)] == [line_of(text, v.claim.start)
                                                             for v in claim_views(claims, text)]


@pytest.mark.parametrize(("texts", "traditional"), [
    (["輝達A100配備80GB顯示記憶體，頻寬高達每秒2TB。"], True), (["英伟达A100配备80GB显存。"], False),
    (["輝達", "顯示記憶體"], True), ([None, ""], False), (["ABC"], False),
])
def test_script_with_the_character_cache(texts: list[str | None], traditional: bool) -> None:
    assert is_traditional(texts) is traditional
    assert is_traditional(texts) is traditional  # the second time from the cache
