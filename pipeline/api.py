"""The public library API: check a text, a document, or a whole corpus.

>>> from pipeline import check_text
>>> claims = check_text("特斯拉P4配备16GB HBM2显存。", doc_id="demo.txt")
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from .check import CheckContext, check_claims, note_inconsistencies
from .config import Config
from .errors import InputError
from .extract.claims import extract_claims
from .knowledge.reference import Reference, load_reference
from .records import Claim, Document, DocumentResult, Format, Mention, Status, evolve

if TYPE_CHECKING:
    import pandas as pd


def claim_id(c: Claim) -> str:
    """Stable while the claim's text and its position in its sentence stay the same (edits elsewhere in the
    article or the sentence do not change it); repeats of the same claim get -2, -3 … in document order."""
    offset = c.extra.get("offset_in_sentence", c.start)
    key = "\x1f".join([c.doc_id, str(offset), c.text, c.attribute, c.subject or "", str(c.value)])
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:16]


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
    from .check.code import code_claims
    from .segment import get_segmenter

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
    from .ingest import parse_text

    sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return parse_text(text, fmt, doc_id=doc_id, sha256=sha)


def check_text(text: str, *, doc_id: str = "text.txt", fmt: Format | str | None = None,
               reference_dir: Path | None = None) -> list[Claim]:
    """Every claim in ``text`` with its verdict.

    ``text`` is read as ``fmt`` (``"txt"``, ``"md"`` or ``"html"``); by default the format follows ``doc_id``'s
    suffix as it does for files (``"a.md"`` is Markdown, so its tables and code blocks are mapped). For HTML the
    offsets point into the text extracted from the page, as in a run.
    """
    from .ingest import format_for

    config = Config() if reference_dir is None else Config(reference_dir=Path(reference_dir))
    ref = load_reference(config.reference_dir)
    form = Format(fmt) if fmt is not None else format_for(Path(doc_id))
    claims, _ = analyse(document_from_text(text, doc_id, form), ref, config)
    return claims


def process_path(path: Path, root: Path, ref: Reference, config: Config) -> DocumentResult:
    """Read and analyse one file; any failure becomes an ``error`` result, never an exception."""
    from .ingest import doc_id_for, format_for, is_blank, read_document

    doc_id = doc_id_for(path, root)
    try:
        doc = read_document(path, root, max_bytes=config.max_bytes)
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
    return DocumentResult(doc.doc_id, doc.path, doc.format.value, doc.sha256, Status.OK, "", doc.title, text,
                          tuple(claims), mentions)


def iter_corpus(path: Path, config: Config | None = None) -> Iterator[DocumentResult]:
    """The result for every article under ``path``, in file order (nothing written)."""
    from .ingest import discover

    config = config or Config()
    ref = load_reference(config.reference_dir)
    path = Path(path)
    for file in discover(path):
        yield process_path(file, path, ref, config)


def check_corpus(path: Path, *, reference_dir: Path | None = None) -> list[DocumentResult]:
    """Analyse every article under ``path`` (no files written)."""
    config = Config() if reference_dir is None else Config(reference_dir=Path(reference_dir))
    return list(iter_corpus(Path(path), config))


def claims_frame(results: Iterable[DocumentResult]) -> pd.DataFrame:
    """The claims of ``results`` as a DataFrame with the claims.jsonl columns."""
    import pandas as pd

    from .records import CONTRACT_FIELDS

    rows = [c.to_dict() for r in results for c in r.claims]
    return pd.DataFrame(rows, columns=[*CONTRACT_FIELDS, "detail", "variant", "scope_detail"])
