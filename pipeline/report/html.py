"""HTML reports: the annotated article (<name>.html) and the run index (index.html).

Everything taken from an article is escaped: by Jinja2 autoescaping in the templates, and by
``marks._escape`` (markupsafe's five replacements, which autoescaping applies) in the pieces built in
Python for speed, the highlighted article and the claim items. The only other markup passed as safe
is our own script. A Content-Security-Policy that allows just that script (by hash) backs this up: even
a missed escape could not run an article's script or event handler.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from ..lexicon.labels import doc_message
from ..records import DocumentResult
from .display import Display
from .marks import Segment, _escape, segments
from .tables import (
    DOC_SEVERITY,
    EVIDENCE_ZH,
    STATUS_ZH,
    VERDICT_KEYS,
    VERDICT_ZH,
    ClaimView,
    DocRow,
    claim_views,
    display_for,
    latest_decision,
    report_verdict,
    run_info_items,
)

TEMPLATES = Path(__file__).resolve().parent / "templates"


@lru_cache(maxsize=1)
def _env() -> Environment:
    """The one Jinja2 environment of the static reports and the review app (autoescaping on)."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,  # the templates are the package's own: no stat of every template at every render
    )
    env.globals["claim_item"] = claim_item
    env.filters["doc_message"] = doc_message  # a document's status message (English, for logs) for editors
    return env


@lru_cache(maxsize=8)
def _script(name: str) -> tuple[Markup, str]:
    """Our own inline script (trusted, never article text) and its CSP hash."""
    source = (TEMPLATES / name).read_text(encoding="utf-8")
    digest = base64.b64encode(hashlib.sha256(source.encode("utf-8")).digest()).decode("ascii")
    return Markup(source), f"sha256-{digest}"


environment = _env
__all__ = ["Segment", "article_markup", "claim_item", "document_context", "environment", "render_document_html",
           "render_index_html", "segments"]


def article_markup(segs: Sequence[Segment]) -> Markup:
    """The article's text with every claim highlighted: the inside of ``<div class="article">``.

    Built here rather than in the template (a page has a run of markup per claim boundary, and Jinja's
    per-expression escaping of each was most of a page's cost); every piece of article text and every key goes
    through ``_escape``, the escaping the template's autoescaping applied, so the markup is the template's byte
    for byte (tests/test_report_pages.py compares it with a Jinja rendering)."""
    out: list[str] = []
    add = out.append
    for s in segs:
        for k in s.anchors:
            add(f'<span class="anchor" id="c-{_escape(k)}"></span>')
        o = s.owner
        if o is None:
            add(_escape(s.text))
            continue
        add(f'<mark class="v-{_escape(o.verdict)}')
        if s.under:
            add(f" u-{_escape(s.under)}")
        if o.is_closed:
            add(" closed")
        add(f'" data-owner="{_escape(o.key)}" data-claims="{_escape(" ".join(s.keys))}" tabindex="0" '
            f'title="{_escape(o.verdict_zh)}：{_escape(o.attribute_zh)}"')
        if s.mark_id:
            add(f' id="c-{_escape(s.mark_id)}"')
        add(f">{_escape(s.text)}</mark>")
    return Markup("".join(out))


def claim_item(v: ClaimView, order: int | None = None, actions: str = "") -> Markup:
    """One claim of the panel, ``<li>`` to ``</li>`` (without the newline after it). ``order``: its place in the
    review app's queue (the app's pages only); ``actions``: the app's buttons and history (markup the template
    rendered). Built here like ``article_markup`` and for the same reason; tests/test_report_pages.py compares it
    with the template it replaces (tests/data/reference_claim.html.j2)."""
    e = _escape
    claim, review, check = v.claim, v.review, v.check
    flag = v.is_flag
    verdict, key, claim_id = e(v.verdict), e(v.key), e(claim.claim_id)  # each shown twice or more
    out = [f'<li class="claim v-{verdict}']
    add = out.append
    if flag:
        add(f" flag r-{e(v.review_status)}")
    if v.is_closed:
        add(" closed")
    add(f'" id="item-{key}" data-key="{key}" data-claim-id="{claim_id}"')
    if v.evidence:
        add(f' data-evidence="{e(v.evidence)}"')
    if order is not None:
        add(f' data-order="{e(order)}"')
    add(f' tabindex="0">\n  <div class="head"><span class="badge s-{verdict}">{e(v.verdict_zh)}</span> '
        f"{e(v.attribute_zh)}")
    if v.subject_name:
        add(f" · {e(v.subject_name)}")
    if v.display.lines:
        add(f' <span class="where">第 {e(v.line)} 行</span>')
    quote = f"<code>{e(claim.text)}</code>" if claim.attribute == "code" else f"「{e(claim.text)}」"
    add(f'</div>\n  <div class="quote">{quote}</div>\n  <dl>\n')
    for term, value in (("原文", v.stated), ("正确值", v.expected), ("说明", v.explanation), ("口径", v.scope_zh),
                        ("原因", v.reason_zh), ("依据", v.evidence_zh)):
        if value:
            add(f"    <dt>{term}</dt><dd>{e(value)}</dd>\n")
    if check and (check.source or check.source_title):
        add("    <dt>来源</dt><dd>")
        if v.href:
            add(f'<a href="{e(v.href)}" rel="noopener noreferrer" target="_blank">'
                f"{e(check.source_title or v.href)}</a>")
        else:
            add(e(check.source_title or ""))
            if check.source:
                add(f' <span class="raw">{e(check.source)}</span>')
        add("</dd>\n")
    if flag:
        add(f'    <dt>审核</dt><dd class="review r-{e(v.review_status)}" data-role="review">{e(v.review_zh)}')
        if review and (review.editor or review.decided_at):
            add(f"（{e('，'.join(x for x in (review.editor, v.decided_zh) if x))}）")
        if review and review.note:
            add(f"：{e(review.note)}")
        add("</dd>\n")
        hidden = "" if review and review.correction else " hidden"
        add(f'    <dt{hidden} data-role="correction-label">更正</dt><dd{hidden} data-role="correction">'
            f"{e(review.correction) if review and review.correction else ''}</dd>\n")
    # the claim id and the command line are for whoever uses the tools: folded away
    add(f'  </dl>\n  <details class="cid"><summary>技术信息</summary>编号 <code>{claim_id}</code> '
        f'<button type="button" class="copy" data-copy="{claim_id}" title="复制编号">复制</button>\n')
    if flag and order is None and v.command:
        command = e(v.command)
        add(f'    <br>命令 <code>{command}</code> <button type="button" class="copy" data-copy="{command}" '
            'title="复制命令">复制</button>\n')
    add("  </details>\n")
    add(actions)
    add("</li>")
    return Markup("".join(out))


def _filters(views: Sequence[ClaimView]) -> list[dict[str, Any]]:
    present = {v.verdict for v in views}
    keys = [*VERDICT_KEYS, *(["unchecked"] if "unchecked" in present else [])]
    return [{"key": k, "label": VERDICT_ZH[k], "count": sum(1 for v in views if v.verdict == k)}
            for k in keys]


def _evidence_filters(views: Sequence[ClaimView]) -> list[dict[str, Any]]:
    """One box per kind of evidence, when some claim rests on the database (else every checked claim rests on the
    curated tables and there is nothing to tell apart)."""
    counts = {k: sum(1 for v in views if v.evidence == k) for k in EVIDENCE_ZH}
    if not counts.get("database"):
        return []
    return [{"key": k, "label": zh, "count": counts[k]} for k, zh in EVIDENCE_ZH.items()]


def document_context(result: DocumentResult, text: str, display: Display | None = None,
                     views: Sequence[ClaimView] | None = None, html_source: bytes | None = None) -> dict[str, Any]:
    """What the document templates need, for the static page and the review app alike (``views``: the claims'
    views, when the caller has made them; ``html_source``: an HTML article's file, which it is rendered from)."""
    from ..ingest import front_matter
    from .article import layout_events, render_article

    display = display or display_for(result)
    views = claim_views(result.claims, text, display) if views is None else views
    events = layout_events(result.format, text, html_source) if text else None
    front = front_matter(text) if result.format == "md" else None
    return {
        "result": result,
        "title": (front.title if front else None) or result.title or result.doc_id,
        "verdict": report_verdict(result),
        "status_zh": STATUS_ZH.get(result.status.value, "未检查"),
        "article": article_markup(segments(text, views)) if events is None else render_article(text, events, views),
        "rendered": events is not None,
        "flagged": [v for v in views if v.is_flag and not v.is_closed],
        "closed": [v for v in views if v.is_closed],
        "others": [v for v in views if not v.is_flag],
        "filters": _filters(views),
        "evidence_filters": _evidence_filters(views),
        "app": False,
    }


def render_document_html(result: DocumentResult, text: str, display: Display | None = None,
                         views: Sequence[ClaimView] | None = None, html_source: bytes | None = None) -> str:
    """The article with every claim highlighted, and a panel listing the claims."""
    script, script_hash = _script("document.js.j2")
    context = document_context(result, text, display, views, html_source)
    shown = context["flagged"] + context["closed"] + context["others"]
    return _env().get_template("document.html.j2").render(
        **context, script=script, script_hash=script_hash, stamp=(display or Display()).review_state is not None,
        decided_at=latest_decision(v.claim for v in shown))


def render_index_html(
    rows: Sequence[DocRow], totals: Mapping[str, Any], run_info: Mapping[str, Any], *, stamp: bool = False
) -> str:
    """index.html: every document, worst first, with client-side filters."""
    return "".join(index_html_chunks(rows, totals, run_info, stamp=stamp))


def index_html_chunks(
    rows: Sequence[DocRow], totals: Mapping[str, Any], run_info: Mapping[str, Any], *, stamp: bool = False
) -> Iterator[str]:
    """``render_index_html`` piece by piece, so a page of a million rows is never one string in memory.
    ``stamp``: the run keeps a state, whose review stamp (review-stamp.js) the page reads to tell whether
    decisions were made since it was written."""
    script, script_hash = _script("index.js.j2")
    return _env().get_template("index.html.j2").generate(
        stamp=stamp,
        decided_at=max((r.decided_at for r in rows), default=""),
        rows=rows,
        totals=totals,
        info=run_info_items(run_info),
        verdict_keys=VERDICT_KEYS,
        verdict_zh=VERDICT_ZH,
        evidence_zh=EVIDENCE_ZH,
        doc_verdicts=list(DOC_SEVERITY),
        status_zh=STATUS_ZH,
        href=lambda name: quote(name),
        script=script,
        script_hash=script_hash,
    )
