"""The review workflow as library functions over the state: list flagged claims, record decisions, move them in
and out as CSV, restore them from the journal. The ``review`` command line (``cli.py``) and the review app
(``server.py``) both use these; each takes the state path and returns records.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import FactCheckError, UsageError
from ..state.decisions import Decision
from ..state.decisions_csv import export_decisions_csv, import_decisions_csv
from ..state.store import Store
from ..state.store_review import Restored


def open_state(state: Path) -> Store:
    """The Store at ``state``, which a run must have created.

    Raises:
        UsageError: there is no file at ``state``.
    """
    state = Path(state)
    if not state.is_file():
        raise UsageError(f"no state database at {state}; run `python -m pipeline run CORPUS` first "
                         "(or pass --state PATH to the one it wrote)")
    return Store(state)


def review_claims(state: Path, *, verdict: str | None = None, doc_id: str | None = None,
                  status: str | None = None, subject: str | None = None,
                  include_all: bool = False, evidence: str | None = None) -> list[dict[str, Any]]:
    """Claims with their review status; only flagged ones unless ``include_all`` or a verdict is asked for."""
    with open_state(state) as store:
        return store.list_claims(verdict=verdict, doc_id=doc_id, status=status, subject=subject,
                                 evidence=evidence, flagged_only=not include_all and verdict is None)


def mark(state: Path, claim_id: str, status: str, editor: str, note: str = "", correction: str = "") -> Decision:
    """Record an editor's decision on one claim (``open`` reopens it)."""
    with open_state(state) as store:
        return store.decide(claim_id, status, editor, note, correction)


def export_decisions(state: Path, path: Path) -> int:
    """Write every decision to a CSV for spreadsheets; returns how many."""
    with open_state(state) as store:
        return export_decisions_csv(store, path)


def import_decisions(state: Path, path: Path) -> int:
    """Apply the decisions in a CSV; returns how many changed."""
    with open_state(state) as store:
        return import_decisions_csv(store, path)


def restore_decisions(state: Path, journal_file: Path) -> Restored:
    """Replay a decisions journal into ``state`` (created when missing: restoring after a lost state)."""
    if not Path(journal_file).is_file():
        raise UsageError(f"no decisions journal at {journal_file}; it is written beside the state "
                         "(decisions.jsonl next to state.sqlite)")
    with Store(state) as store:
        return store.restore_journal(Path(journal_file))


def reference_names(reference: Path | None) -> Callable[[str], str] | None:
    """Display names of reference ids, or None when the reference tables cannot be read."""
    if reference is None:
        return None
    from ..knowledge.reference import load_reference

    try:
        return load_reference(Path(reference)).name
    except (FactCheckError, OSError, ValueError):
        return None
