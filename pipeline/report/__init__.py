"""The report stage: per-document Markdown, HTML and JSON, and the run's index, summary and CSV."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..atomic import AtomicTextFile, atomic_write_text
from ..records import DocumentResult
from .claimreview import claimreview_objects
from .display import Display
from .html import index_html_chunks, render_document_html
from .jsonout import document_json_text
from .markdown import document_markdown, summary_markdown
from .paths import safe_name
from .tables import ClaimView, DocRow, claim_views, display_for, doc_row, doc_rows, sort_rows, totals, write_claims_csv

__all__ = [
    "claimreview_objects",
    "doc_row",
    "document_report_files",
    "safe_name",
    "write_claims_csv",
    "write_document_report",
    "write_index",
    "write_run_reports",
]


def document_report_files(result: DocumentResult, text: str, *, names: Callable[[str], str] | None = None,
                          display: Display | None = None, records: Sequence[str] | None = None,
                          views: Sequence[ClaimView] | None = None,
                          html_source: bytes | None = None) -> dict[str, str]:
    """The three report files of one document, rendered: ``{"<name>.md": ..., "<name>.html": ...,
    "<name>.json": ...}`` (arguments as for ``write_document_report``)."""
    display = display or display_for(result, names)
    stem = safe_name(result.doc_id)
    if views is None:
        views = claim_views(result.claims, text, display)  # one set for both pages
    return {f"{stem}.md": document_markdown(result, text, display, views),
            f"{stem}.html": render_document_html(result, text, display, views, html_source),
            f"{stem}.json": document_json_text(result, records)}


def write_document_report(result: DocumentResult, text: str, out_dir: Path, *,
                          names: Callable[[str], str] | None = None, display: Display | None = None,
                          records: Sequence[str] | None = None,
                          views: Sequence[ClaimView] | None = None,
                          html_source: bytes | None = None) -> dict[str, str]:
    """Write <name>.md, <name>.html and <name>.json for one document into ``out_dir``.

    ``text`` is the document text the claims' offsets point into; ``names`` gives reference ids their display
    names (``Reference.name``); ``display`` is ``display_for(result, names)`` and ``records`` the claims'
    ``to_dict`` encoded and ``views`` their ``claim_views(result.claims, text, display)``, when the caller has them;
    ``html_source`` is an HTML article's file (its page is rendered from it; without it, the text as extracted).
    Returns the file names, relative to ``out_dir``:
    ``{"md": ..., "html": ..., "json": ...}``.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    files = document_report_files(result, text, names=names, display=display, records=records, views=views,
                                  html_source=html_source)
    for name, page in files.items():
        atomic_write_text(out_dir / name, page)
    return {name.rsplit(".", 1)[1]: name for name in files}


def write_run_reports(
    results: Sequence[DocumentResult], out_dir: Path, *, run_info: Mapping[str, Any]
) -> None:
    """Write index.html and summary.md for the run (claims.csv is ``write_claims_csv``'s job).

    Document pages are linked when they exist in ``out_dir``, so write them first.
    """
    write_index(doc_rows(results, Path(out_dir)), out_dir, run_info=run_info)


def write_index(rows: Sequence[DocRow], out_dir: Path, *, run_info: Mapping[str, Any], stamp: bool = False
                ) -> None:
    """index.html and summary.md from index lines (see ``tables.doc_row``), worst first; ``stamp``: see
    ``index_html_chunks``."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = sort_rows(list(rows))
    sums = totals(rows)
    with AtomicTextFile(out_dir / "index.html") as page:  # written as it renders: one row at a time in memory
        for chunk in index_html_chunks(rows, sums, run_info, stamp=stamp):
            page.write(chunk)
        page.commit()
    atomic_write_text(out_dir / "summary.md", summary_markdown(rows, sums, run_info))
