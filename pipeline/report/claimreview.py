"""schema.org ClaimReview objects (JSON-LD) for the claims an article gets wrong, as the editors decided them.

Only contradicted and misattributed claims are published (code findings are not claims about the world); a flag an
editor dismissed is left out, and a corrected one carries the editor's correction.
"""

from __future__ import annotations

import hashlib
import string
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import quote, urlsplit

from ..errors import UsageError
from ..records import Claim, DocumentResult, Verdict
from .display import Display
from .tables import ClaimView, claim_views, display_for

# verdict -> (ratingValue, alternateName) on a 1 (false) .. 5 (true) scale
RATINGS: dict[Verdict, tuple[int, str]] = {
    Verdict.CONTRADICTED: (1, "错误"),
    Verdict.MISATTRIBUTED: (1, "张冠李戴"),
}
URL_FIELDS = frozenset({"doc_id", "claim_id"})


def claim_urn(claim: Claim) -> str:
    """A stable @id: the claim_id, or a hash of what identifies the claim when it has none."""
    if claim.claim_id:
        return f"urn:gpu-factcheck:claim:{quote(claim.claim_id, safe='')}"
    key = f"{claim.doc_id}\x1f{claim.start}\x1f{claim.end}\x1f{claim.attribute}"
    return f"urn:gpu-factcheck:claim:{hashlib.sha1(key.encode('utf-8', 'surrogatepass')).hexdigest()}"


def check_url_template(template: str) -> str:
    """``template`` if it is an http(s) URL whose only placeholders are {doc_id} and {claim_id}.

    Raises:
        UsageError: anything else, with an example of a good template.
    """
    try:
        fields = {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
        parts = urlsplit(template.replace("{", "").replace("}", ""))
    except ValueError as exc:
        raise UsageError(f"--claimreview-url {template!r} is not a URL template ({exc}); "
                         "use e.g. https://example.com/articles/{doc_id}") from exc
    if parts.scheme not in ("http", "https") or not parts.netloc or fields - URL_FIELDS:
        raise UsageError(f"--claimreview-url {template!r}: give an http(s) URL with {{doc_id}} (and optionally "
                         "{claim_id}), e.g. https://example.com/articles/{doc_id}")
    return template


def claim_url(template: str, claim: Claim) -> str:
    return template.format(doc_id=quote(claim.doc_id, safe="/"), claim_id=quote(claim.claim_id, safe=""))


def _explanation(v: ClaimView) -> str:
    c = v.check
    if c is None:
        return ""
    correction = v.review.correction if v.review and v.review.status == "corrected" else None
    text = correction or v.explanation or ""
    if not correction and v.expected:
        text += f" 正确值：{v.expected}"
    if c.source:
        text += f" 来源：{c.source}"
    return text.strip()


def claimreview_objects(
    result: DocumentResult,
    *,
    author: str,
    date_published: str,
    url_base: str | None = None,
    url_template: str | None = None,
    names: Callable[[str], str] | None = None,
    display: Display | None = None,
    views: Sequence[ClaimView] | None = None,
) -> list[dict[str, Any]]:
    """One ClaimReview per contradicted or misattributed claim an editor has not dismissed, in document order.

    Args:
        author: the organisation publishing the reviews.
        date_published: ISO date of the review.
        url_base: where articles live; the article URL is ``url_base + doc_id`` (percent-encoded).
        url_template: the review's ``url``, e.g. ``https://example.com/articles/{doc_id}`` ({claim_id} too).
        names: reference ids to display names, for explanations in the editor's words.
        display: the document's display context, when the caller has it (``display_for(result, names)``).
        views: the claims' views, when the caller has them (``claim_views(result.claims, text, display)``).
    """
    title = result.title or result.doc_id
    appearance: dict[str, Any] = {"@type": "CreativeWork", "name": title}
    if url_base:
        appearance["url"] = url_base + quote(result.doc_id, safe="/")
    out: list[dict[str, Any]] = []
    if not any(c.verdict in RATINGS for c in result.claims):
        return []
    if views is None:
        views = claim_views(result.claims, "", display or display_for(result, names))
    for v in views:
        claim = v.claim
        if claim.verdict not in RATINGS or (v.review is not None and v.review.status == "dismissed"):
            continue
        value, name = RATINGS[claim.verdict]
        review: dict[str, Any] = {
            "@context": "https://schema.org",
            "@type": "ClaimReview",
            "@id": claim_urn(claim),
            "claimReviewed": claim.sentence or claim.text,
            "reviewRating": {
                "@type": "Rating",
                "ratingValue": value,
                "bestRating": 5,
                "worstRating": 1,
                "alternateName": name,
            },
            "ratingExplanation": _explanation(v),
            "itemReviewed": {"@type": "Claim", "appearance": dict(appearance)},
            "datePublished": date_published,
            "author": {"@type": "Organization", "name": author},
        }
        if url_template:
            review["url"] = claim_url(url_template, claim)
        out.append(review)
    return out
