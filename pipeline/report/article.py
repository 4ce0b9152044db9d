"""The article as published with every claim highlighted: a layout's events (``layout``) with the claims' runs
(``marks.segments``) cut into the text it shows.

A claim's run is cut at every element boundary and wherever the source has markup the page does not show (a
``**`` inside the claim, a table's ``|``), so one claim may be several ``<mark>``s, each naming every claim it
covers (``data-claims``); the first mark the claim owns carries its ``id``. A claim with no text shown at all (in
markup only) gets an empty anchor where its text would be. Everything taken from the article goes through
``marks._escape``; tags and attributes are ours (``layout`` keeps only a fixed set, and a link's http(s) address).
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence
from typing import NamedTuple

from markupsafe import Markup

from ..ingest import HtmlLayout, html_layout
from .layout import Close, Event, Open, Text, Void, Words, html_layout_events, markdown_layout
from .marks import Segment, _escape, segments
from .tables import ClaimView

# The page's <h1> is the document's title: an article's headings go one level down (h6 stays h6).
_HEADING = {"h1": "h2", "h2": "h3", "h3": "h4", "h4": "h5", "h5": "h6", "h6": "h6"}


class _Piece(NamedTuple):
    event: int
    shown: str
    start: int
    seg: Segment | None


def layout_events(fmt: str, text: str, html_source: bytes | None = None) -> list[Event] | None:
    """The events of an article of format ``fmt`` (``md``, ``html``), or None when it is shown as plain text: a
    .txt file, or an HTML page whose source is not at hand or no longer reads as ``text``."""
    if fmt == "md":
        return markdown_layout(text)
    if fmt == "html" and html_source is not None:
        layout: HtmlLayout | None = html_layout(html_source)
        if layout is not None and layout.text == text:
            return html_layout_events(layout)
    return None


def render_article(text: str, events: Sequence[Event], views: Sequence[ClaimView]) -> Markup:
    """The inside of ``<div class="article rendered">``: the events with the claims highlighted."""
    segs = [s for s in segments(text, views) if s.text]
    starts, at = [], 0
    for s in segs:
        starts.append(at)
        at += len(s.text)
    pieces = _pieces(text, events, segs, starts)
    ids, anchors = _targets(pieces, views)
    e = _escape
    out: list[str] = []
    add = out.append
    k = 0
    for n, ev in enumerate(events):
        if isinstance(ev, Text):
            while k < len(pieces) and pieces[k].event == n:
                piece = pieces[k]
                for key in anchors.get(k, ()):
                    add(f'<span class="anchor" id="c-{e(key)}"></span>')
                add(_mark(piece, ids.get(k)))
                k += 1
        elif isinstance(ev, Open):
            attrs = "".join(f' {name}="{e(value)}"' for name, value in ev.attrs)
            if ev.tag in _HEADING:  # the article's headings under the page's one <h1>, styled by their own level
                add(f'<{_HEADING[ev.tag]} class="level-{ev.tag[1]}"{attrs}>')
            else:
                add(f"<{ev.tag}{attrs}>")
        elif isinstance(ev, Close):
            add(f"</{_HEADING.get(ev.tag, ev.tag)}>")
        elif isinstance(ev, Void):
            add(f"<{ev.tag}>")
        elif isinstance(ev, Words):
            add(e(ev.text))
    for key in anchors.get(len(pieces), ()):
        add(f'<span class="anchor" id="c-{e(key)}"></span>')
    return Markup("".join(out))


def _pieces(text: str, events: Sequence[Event], segs: list[Segment], starts: list[int]) -> list[_Piece]:
    """Every run of text shown, cut at the claims' boundaries, with the segment (the claims) it is under."""
    out: list[_Piece] = []
    for n, ev in enumerate(events):
        if not isinstance(ev, Text) or ev.end <= ev.start:
            continue
        i = max(0, bisect.bisect_right(starts, ev.start) - 1)
        if ev.shown is not None:  # shown as other characters (an entity): one piece, under the claims at its start
            seg = segs[i] if segs and starts[i] <= ev.start < starts[i] + len(segs[i].text) else None
            out.append(_Piece(n, ev.shown, ev.start, seg))
            continue
        pos = ev.start
        while pos < ev.end:
            if i < len(segs) and starts[i] + len(segs[i].text) <= pos:
                i += 1
                continue
            stop = min(ev.end, starts[i] + len(segs[i].text)) if i < len(segs) else ev.end
            out.append(_Piece(n, text[pos:stop], pos, segs[i] if i < len(segs) else None))
            pos = stop
    return out


def _targets(pieces: list[_Piece], views: Sequence[ClaimView]) -> tuple[dict[int, str], dict[int, list[str]]]:
    """Where each claim's ``id`` goes: on the first piece it owns (``ids``: piece -> key), else an anchor before the
    first piece it covers, else before the first piece after its start, else at the end (``anchors``)."""
    ids: dict[int, str] = {}
    owned: set[str] = set()
    covered: dict[str, int] = {}
    for k, p in enumerate(pieces):
        if p.seg is None or p.seg.owner is None:
            continue
        key = p.seg.owner.key
        if key not in owned:
            owned.add(key)
            ids[k] = key
        for other in p.seg.keys:
            covered.setdefault(other, k)
    anchors: dict[int, list[str]] = {}
    starts = [p.start for p in pieces]
    monotonic = all(a <= b for a, b in itertools.pairwise(starts))
    for v in views:
        if v.key in owned:
            continue
        if v.key in covered:
            at = covered[v.key]
        elif monotonic:
            at = bisect.bisect_left(starts, v.claim.start)
        else:
            at = next((k for k, s in enumerate(starts) if s >= v.claim.start), len(pieces))
        anchors.setdefault(at, []).append(v.key)
    return ids, anchors


def _mark(piece: _Piece, mark_id: str | None) -> str:
    """One piece: its text, in a <mark> when a claim covers it (as ``html.article_markup`` marks a run)."""
    e = _escape
    seg = piece.seg
    if seg is None or seg.owner is None:
        return e(piece.shown)
    o = seg.owner
    classes = f"v-{e(o.verdict)}" + (f" u-{e(seg.under)}" if seg.under else "") + (" closed" if o.is_closed else "")
    ident = f' id="c-{e(mark_id)}"' if mark_id else ""
    return (f'<mark class="{classes}" data-owner="{e(o.key)}" data-claims="{e(" ".join(seg.keys))}" tabindex="0" '
            f'title="{e(o.verdict_zh)}：{e(o.attribute_zh)}"{ident}>{e(piece.shown)}</mark>')
