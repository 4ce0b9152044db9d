"""The editors' review workflow: list flagged claims, record decisions, move decisions in and out as CSV.

Library functions take the state path and return records; ``review_app`` is the thin Typer layer that the
main CLI mounts as ``python -m pipeline review ...``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .decisions_csv import export_decisions_csv, import_decisions_csv
from .errors import FactCheckError, UsageError
from .records import Verdict
from .report.tables import REVIEW_ZH, VERDICT_ZH
from .store import DEFAULT_STATE, Decision, ReviewStatus, Store


class DecisionStatus(str, Enum):
    ACCEPTED = "accepted"
    DISMISSED = "dismissed"
    CORRECTED = "corrected"


# ---- library ------------------------------------------------------------------------------------


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
                  include_all: bool = False) -> list[dict[str, Any]]:
    """Claims with their review status; only flagged ones unless ``include_all`` or a verdict is asked for."""
    with open_state(state) as store:
        return store.list_claims(verdict=verdict, doc_id=doc_id, status=status, subject=subject,
                                 flagged_only=not include_all and verdict is None)


def mark(state: Path, claim_id: str, status: str, editor: str, note: str = "") -> Decision:
    """Record an editor's decision on one claim."""
    with open_state(state) as store:
        return store.decide(claim_id, status, editor, note)


def export_decisions(state: Path, path: Path) -> int:
    """Write every decision to a CSV for spreadsheets; returns how many."""
    with open_state(state) as store:
        return export_decisions_csv(store, path)


def import_decisions(state: Path, path: Path) -> int:
    """Upsert the decisions in a CSV; returns how many."""
    with open_state(state) as store:
        return import_decisions_csv(store, path)


def _label(value: str | None, labels: dict[str, str]) -> str:
    if not value:
        return "—"
    return f"{value} {labels[value]}" if value in labels else value


def claims_table(rows: Sequence[dict[str, Any]]) -> Table:
    """One row per claim; English values next to their Chinese labels."""
    table = Table(title="声明审核 Claims to review", title_justify="left", show_lines=True)
    table.add_column("claim_id", no_wrap=True, min_width=16)  # whole, so it can be copied
    for name in ("doc_id", "verdict", "status", "subject", "attribute"):
        table.add_column(name, overflow="fold")
    table.add_column("text", overflow="fold", min_width=8, ratio=2)  # fold: CJK has no spaces to wrap at
    table.add_column("expected", overflow="fold", ratio=1)
    for r in rows:
        expected = r.get("expected")
        # Text(), not str: article text may contain [brackets] that Rich would read as markup
        table.add_row(*(Text(str(cell)) for cell in (
            r["claim_id"], r["doc_id"], _label(r.get("verdict"), VERDICT_ZH),
            _label(r["review_status"], REVIEW_ZH), r.get("subject") or "—", r.get("attribute") or "—",
            r.get("text", ""), "—" if expected in (None, "") else expected,
        )))
    return table


# ---- CLI ----------------------------------------------------------------------------------------

review_app = typer.Typer(
    help="Review flagged claims: list them, accept / dismiss / correct them, export and import decisions.",
    no_args_is_help=True,
)

StateOption = Annotated[Path, typer.Option("--state", help="The state database a run wrote.")]
EditorOption = Annotated[str, typer.Option("--editor", help="Who decided (recorded with the decision).")]
NoteOption = Annotated[str, typer.Option("--note", help="Why; shown in exports.")]
ClaimArg = Annotated[str, typer.Argument(help="The claim_id, as `review list` shows it.")]


@contextmanager
def _cli_errors() -> Iterator[None]:
    """Our errors become a red message on stderr and exit code 2; anything else is a bug and shows a trace."""
    try:
        yield
    except FactCheckError as exc:
        Console(stderr=True).print(f"error: {exc}", style="red", markup=False, highlight=False,
                                    soft_wrap=True)
        raise typer.Exit(2) from None


def _out() -> Console:
    return Console(highlight=False)


def _say(message: str) -> None:
    """One plain line: no markup, no hard wrapping (ids and paths stay whole)."""
    _out().print(message, markup=False, soft_wrap=True)


@review_app.command("list")
def list_cmd(
    state: StateOption = DEFAULT_STATE,
    verdict: Annotated[Verdict | None, typer.Option(help="Only this verdict (implies --all).")] = None,
    doc: Annotated[str | None, typer.Option("--doc", help="Only this document (its doc_id).")] = None,
    status: Annotated[ReviewStatus | None, typer.Option(help="Only this review status.")] = None,
    subject: Annotated[str | None, typer.Option(help="Only claims about this reference id.")] = None,
    all_: Annotated[bool, typer.Option("--all", help="Include supported and unverifiable claims.")] = False,
) -> None:
    """List claims to review (flagged ones unless --all)."""
    with _cli_errors():
        rows = review_claims(state, verdict=verdict.value if verdict else None, doc_id=doc,
                             status=status.value if status else None, subject=subject, include_all=all_)
    if not rows:
        _say("No claims match these filters.")
        return
    _out().print(claims_table(rows))
    tally = Counter(r["review_status"] for r in rows)
    by_status = ", ".join(f"{s.value} {tally[s.value]}" for s in ReviewStatus if tally[s.value])
    _say(f"{len(rows)} claim(s): {by_status}")


def _decide(state: Path, claim_id: str, status: str, editor: str, note: str) -> None:
    with _cli_errors():
        d = mark(state, claim_id, status, editor, note)
    _say(f"{d.claim_id}: {d.status} ({REVIEW_ZH[d.status]}) by {d.editor} at {d.decided_at}")


@review_app.command("accept")
def accept_cmd(claim_id: ClaimArg, editor: EditorOption, note: NoteOption = "",
               state: StateOption = DEFAULT_STATE) -> None:
    """The flag is right; the article still needs fixing (the flag stays raised)."""
    _decide(state, claim_id, DecisionStatus.ACCEPTED.value, editor, note)


@review_app.command("dismiss")
def dismiss_cmd(claim_id: ClaimArg, editor: EditorOption, note: NoteOption = "",
                state: StateOption = DEFAULT_STATE) -> None:
    """The flag is wrong; never raise it again while the claim's text stays the same."""
    _decide(state, claim_id, DecisionStatus.DISMISSED.value, editor, note)


@review_app.command("correct")
def correct_cmd(claim_id: ClaimArg, editor: EditorOption, note: NoteOption = "",
                state: StateOption = DEFAULT_STATE) -> None:
    """The article was corrected; the flag is closed."""
    _decide(state, claim_id, DecisionStatus.CORRECTED.value, editor, note)


@review_app.command("mark")
def mark_cmd(claim_id: ClaimArg, status: Annotated[DecisionStatus, typer.Option(help="The decision.")],
             editor: EditorOption, note: NoteOption = "", state: StateOption = DEFAULT_STATE) -> None:
    """Record a decision given as --status (same as accept / dismiss / correct)."""
    _decide(state, claim_id, status.value, editor, note)


@review_app.command("export")
def export_cmd(path: Annotated[Path, typer.Argument(help="The CSV to write.")],
               state: StateOption = DEFAULT_STATE) -> None:
    """Write all decisions to a CSV (UTF-8 with BOM, opens in Excel)."""
    with _cli_errors():
        n = export_decisions(state, path)
    _say(f"exported {n} decision(s) to {path}")


@review_app.command("import")
def import_cmd(path: Annotated[Path, typer.Argument(help="A CSV written by `review export`.")],
               state: StateOption = DEFAULT_STATE) -> None:
    """Add or update decisions from a CSV; nothing is written if any row is bad."""
    with _cli_errors():
        n = import_decisions(state, path)
    _say(f"imported {n} decision(s) from {path}")
