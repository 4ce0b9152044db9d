"""The public library API: check a text, a document, or a whole corpus.

>>> from pipeline import check_text
>>> claims = check_text("特斯拉P4配备16GB HBM2显存。", doc_id="demo.txt")
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from .config import Config
from .knowledge.reference import load_reference
from .records import Claim, DocumentResult, Format
from .run.document import analyse, claim_id, document_from_text, mention_counts, process_path

__all__ = ["analyse", "check_corpus", "check_text", "claim_id", "claims_frame", "document_from_text", "iter_corpus",
           "mention_counts", "process_path"]

if TYPE_CHECKING:
    import pandas as pd


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

    from .records import RECORD_FIELDS

    rows = [c.to_dict() for r in results for c in r.claims]
    return pd.DataFrame(rows, columns=list(RECORD_FIELDS))
