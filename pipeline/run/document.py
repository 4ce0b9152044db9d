"""One document through the per-document stages: read, segment, extract, check; claim ids and mention counts.

``process_path`` is the task a run's workers (local or Dask) apply to each file; ``analyse`` the same for a
Document already read. The library API (``pipeline.api``) calls these too.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from ..check import CheckContext, check_claims, note_inconsistencies
from ..config import Config
from ..errors import InputError
from ..extract.claims import extract_claims
from ..knowledge.reference import Reference
from ..records import Claim, Document, DocumentResult, Format, Mention, Status, evolve

# what a spreadsheet takes for a number: 1234567890123456, 3476301760442e31 (Excel, LibreOffice, Google Sheets)
_NUMBER_LIKE = re.compile(r"[0-9]+(?:e[0-9]+)?")


def claim_id(c: Claim) -> str:
    """Stable while the claim's text and its position in its sentence stay the same (edits elsewhere in the
    article or the sentence do not change it); repeats of the same claim get -2, -3 … in document order.

    16 hex digits of the key's SHA-1, never ones a spreadsheet reads as a number (the first 16 that it cannot:
    for all but about 1 claim in 900, the first 16)."""
    offset = c.extra.get("offset_in_sentence", c.start)
    key = "\x1f".join([c.doc_id, str(offset), c.text, c.attribute, c.subject or "", str(c.value)])
    digest = hashlib.sha1(key.encode("utf-8")).hexdigest()
    return next((digest[i:i + 16] for i in range(len(digest) - 15) if not _NUMBER_LIKE.fullmatch(digest[i:i + 16])),
                "f" + digest[:15])


def _with_ids(claims: Iterable[Claim]) -> list[Claim]:
    seen: Counter[str] = Counter()
    out = []
    for c in claims:
        cid = claim_id(c)
        seen[cid] += 1
        out.append(evolve(c, claim_id=cid if seen[cid] == 1 else f"{cid}-{seen[cid]}"))
    return out


def mention_counts(seg_mentions: Iterable[Mention], ref: Reference) -> dict[str, dict[str, int]]:
    seg_mentions_list = list(seg_mentions)
    out: dict[str, Counter[str]] = {"products": Counter(), "vendors": Counter(), "technologies": Counter()}
    for m in seg_mentions_list:
        if m.kind in ("product", "series"):
            out["products"][ref.name(m.ref)] += 1
        elif m.kind in ("vendor", "company"):
            out["vendors"][ref.name(m.ref)] += 1
        elif m.kind in ("term", "memory_type", "link", "architecture"):
            out["technologies"][ref.name(m.ref) if m.kind != "architecture" else m.ref] += 1
    ids = Counter(m.ref for m in seg_mentions_list if m.kind == "product")
    return {**{k: dict(v.most_common()) for k, v in out.items()}, "product_ids": dict(ids)}


def analyse(doc: Document, ref: Reference,
            config: Config | None = None) -> tuple[list[Claim], dict[str, dict[str, int]]]:
    """Segment, extract and check one document; returns its claims and the mention counts."""
    from ..check.code import code_claims
    from ..segment import get_segmenter

    config = config or Config()
    seg = get_segmenter(ref).segment(doc, max_chars=config.window_chars)
    claims = extract_claims(doc, seg, ref)
    ctx = CheckContext(named={m.ref for m in seg.mentions if m.kind == "product"})
    checked = note_inconsistencies(check_claims(claims, ref, ctx, config.tolerance))
    checked += code_claims(doc, seg, ref)
    checked.sort(key=lambda c: (c.start, c.end, c.attribute))
    return _with_ids(checked), mention_counts(seg.mentions, ref)


def document_from_text(text: str, doc_id: str = "text.txt", fmt: Format = Format.TXT) -> Document:
    """A Document for a string, mapped (title, headings, code, tables) as ingest maps a file of that format."""
    from ..ingest import parse_text

    sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return parse_text(text, fmt, doc_id=doc_id, sha256=sha)


def process_path(path: Path, root: Path, ref: Reference, config: Config) -> DocumentResult:
    """Read and analyse one file; any failure becomes an ``error`` result, never an exception."""
    from ..ingest import doc_id_for, format_for, is_blank, read_document

    doc_id = doc_id_for(path, root)
    try:
        doc = read_document(path, root, max_bytes=config.max_bytes, follow_symlinks=config.follow_symlinks)
    except InputError as e:
        return DocumentResult(doc_id, str(path), format_for(path).value, "", Status.ERROR, str(e))
    text = doc.text if doc.text_is_derived else None
    if is_blank(doc):
        return DocumentResult(doc.doc_id, doc.path, doc.format.value, doc.sha256, Status.SKIPPED,
                              "empty or whitespace-only file", doc.title, text)
    try:
        claims, mentions = analyse(doc, ref, config)
    except RecursionError as e:  # pathological input: report it, keep the run going
        return DocumentResult(doc.doc_id, doc.path, doc.format.value, doc.sha256, Status.ERROR,
                              f"analysis failed: {e!r}", doc.title, text)
    if len(claims) > config.max_claims:  # its outputs would swamp the run's tables
        return DocumentResult(doc.doc_id, doc.path, doc.format.value, doc.sha256, Status.ERROR,
                              f"{len(claims):,} claims, over the limit of {config.max_claims:,} per document. Split "
                              "the article or raise the limit (run --max-claims).", doc.title, text)
    return DocumentResult(doc.doc_id, doc.path, doc.format.value, doc.sha256, Status.OK, "", doc.title, text,
                          tuple(claims), mentions)
