"""A document's text cut at its claims' boundaries (``segments``), each run with the claims over it, and the
escaping every page applies to article text (``_escape``): shared by the plain article (``html.article_markup``)
and the rendered one (``article.render_article``)."""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Sequence
from typing import NamedTuple

from markupsafe import escape

from .tables import SEVERITY, ClaimView


class Segment(NamedTuple):
    """A run of article text; ``owner`` is the most severe claim covering it (None: plain text)."""

    text: str
    owner: ClaimView | None = None
    keys: tuple[str, ...] = ()  # every claim covering the run, owner first
    mark_id: str | None = None  # set on the owner's first run
    anchors: tuple[str, ...] = ()  # claims with no run of their own, anchored just before this one
    under: str | None = None  # most severe other verdict covering the run, drawn as an underline


def _severity(v: ClaimView) -> int:
    return -SEVERITY[v.verdict]


def segments(text: str, views: Sequence[ClaimView]) -> list[Segment]:
    """Cut ``text`` at every claim boundary so highlighted runs never overlap."""
    n = len(text)
    spans = [(max(0, min(v.claim.start, n)), max(0, min(v.claim.end, n)), v) for v in views]
    cuts = sorted({0, n, *(s for s, _, _ in spans), *(e for _, e, _ in spans)})
    pending = deque(sorted((sp for sp in spans if sp[0] < sp[1]), key=lambda sp: sp[0]))
    active: list[tuple[int, int, ClaimView]] = []
    pieces: list[tuple[int, int, list[ClaimView], tuple[str, ...]]] = []
    for a, b in itertools.pairwise(cuts):
        changed = False
        while pending and pending[0][0] <= a:
            active.append(pending.popleft())
            changed = True
        if any(sp[1] <= a for sp in active):
            active = [sp for sp in active if sp[1] > a]  # every end is a cut, so end > a means end >= b
            changed = True
        if pieces and not changed:
            pieces[-1] = (pieces[-1][0], b, pieces[-1][2], pieces[-1][3])  # the same claims go on
            continue
        # Most severe first; ties go to the claim that starts first (views are in document order).
        cover = sorted((v for _, _, v in active), key=_severity) if len(active) > 1 else [v for _, _, v in active]
        keys = tuple(v.key for v in cover)
        if pieces and pieces[-1][3] == keys:
            pieces[-1] = (pieces[-1][0], b, cover, keys)  # same claims either side of a cut
        else:
            pieces.append((a, b, cover, keys))
    owners = {cover[0].key for _, _, cover, _ in pieces if cover}
    out: list[Segment] = []
    placed: set[str] = set()
    for a, b, cover, keys in pieces:
        if not cover:
            out.append(Segment(text[a:b]))
            continue
        owner = cover[0]
        mark_id = None
        if owner.key not in placed:
            mark_id = owner.key
            placed.add(mark_id)
        # A claim that owns no run at all (wholly under a more severe one) gets an anchor here.
        anchors = tuple(k for k in keys if k not in placed and k not in owners)
        placed.update(anchors)
        under = next((v.verdict for v in cover[1:] if v.verdict != owner.verdict), None)
        out.append(Segment(text[a:b], owner, keys, mark_id, anchors, under))
    # Claims with an empty or out-of-range span still need a target for their list item.
    rest = tuple(v.key for v in views if v.key not in placed)
    if rest:
        out.append(Segment("", None, (), None, rest))
    return out


def _escape(value: object) -> str:
    """``markupsafe.escape(value)`` as a plain string: the same five replacements, without making a Markup of every
    value of a page that is joined into one anyway (anything but a plain ``str`` goes to markupsafe itself)."""
    if type(value) is not str:
        return str(escape(value))
    return (value.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;").replace("'", "&#39;")
            .replace('"', "&#34;"))
