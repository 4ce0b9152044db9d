"""schema.org ClaimReview objects (JSON-LD) for the claims an article gets wrong."""

from __future__ import annotations

import hashlib
from typing import Any
from urllib.parse import quote

from ..records import Claim, DocumentResult, Verdict

# verdict -> (ratingValue, alternateName) on a 1 (false) .. 5 (true) scale
RATINGS: dict[Verdict, tuple[int, str]] = {
    Verdict.CONTRADICTED: (1, "错误"),
    Verdict.MISATTRIBUTED: (1, "张冠李戴"),
    Verdict.CODE_ISSUE: (2, "代码问题"),
}


def claim_urn(claim: Claim) -> str:
    """A stable @id: the claim_id, or a hash of what identifies the claim when it has none."""
    if claim.claim_id:
        return f"urn:gpu-factcheck:claim:{quote(claim.claim_id, safe='')}"
    key = f"{claim.doc_id}\x1f{claim.start}\x1f{claim.end}\x1f{claim.attribute}"
    return f"urn:gpu-factcheck:claim:{hashlib.sha1(key.encode('utf-8', 'surrogatepass')).hexdigest()}"


def _explanation(claim: Claim) -> str:
    c = claim.check
    if c is None:
        return ""
    text = c.explanation or ""
    if c.expected:
        text += f" 正确值：{c.expected}"
    if c.source:
        text += f" 来源：{c.source}"
    return text.strip()


def claimreview_objects(
    result: DocumentResult,
    *,
    author: str,
    date_published: str,
    url_base: str | None = None,
) -> list[dict[str, Any]]:
    """One ClaimReview per contradicted, misattributed or code_issue claim, in document order.

    Args:
        author: the organisation publishing the reviews.
        date_published: ISO date of the review.
        url_base: where articles live; the article URL is ``url_base + doc_id`` (percent-encoded).
    """
    title = result.title or result.doc_id
    appearance: dict[str, Any] = {"@type": "CreativeWork", "name": title}
    if url_base:
        appearance["url"] = url_base + quote(result.doc_id, safe="/")
    out: list[dict[str, Any]] = []
    for claim in sorted(result.claims, key=lambda c: (c.start, c.end)):
        if claim.verdict not in RATINGS:
            continue
        value, name = RATINGS[claim.verdict]
        out.append({
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
            "ratingExplanation": _explanation(claim),
            "itemReviewed": {"@type": "Claim", "appearance": dict(appearance)},
            "datePublished": date_published,
            "author": {"@type": "Organization", "name": author},
        })
    return out
