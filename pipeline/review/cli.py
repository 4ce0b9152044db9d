"""``python -m pipeline review ...``: the thin Typer layer (``review_app``, mounted by the main CLI) over the review
workflow's library functions (``workflow.py``) and the review app (``server.py``).
"""

from __future__ import annotations

import getpass
import json
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from ..config import DEFAULT_REFERENCE_DIR
from ..errors import FactCheckError
from ..lexicon.labels import label
from ..records import Verdict
from ..report.display import in_written_unit
from ..report.tables import REVIEW_ZH, VERDICT_ZH
from ..state.decisions import ReviewStatus
from ..state.store import DEFAULT_STATE
from .workflow import (
    export_decisions,
    import_decisions,
    mark,
    open_state,
    reference_names,
    restore_decisions,
    review_claims,
)


class DecisionStatus(str, Enum):
    ACCEPTED = "accepted"
    DISMISSED = "dismissed"
    CORRECTED = "corrected"


# ---- library ------------------------------------------------------------------------------------


def claim_lines(row: dict[str, Any], names: Callable[[str], str] | None = None) -> list[str]:
    """One claim for a terminal: the id first (whole, to copy), then what it says, in lines that never truncate."""
    verdict, status = row.get("verdict"), row["review_status"]
    head = [row["claim_id"], _coded(verdict, VERDICT_ZH), _coded(status, REVIEW_ZH), row["doc_id"]]
    subject = row.get("subject")
    shown = (names(subject) if names and subject else None) or row.get("subject_mention") or ""
    what = " · ".join(x for x in (shown, label("attribute", row.get("attribute")) or "") if x)
    body = f"{what}：「{row.get('text', '')}」" if what else f"「{row.get('text', '')}」"
    if row.get("expected") not in (None, ""):
        expected = str(row["expected"])
        if row.get("attribute") != "code":
            expected = in_written_unit(expected, row.get("attribute") or "", row.get("unit"), row.get("written_unit"))
        body += f" → 正确值 {expected}"
    lines = ["  ".join(head), f"    {body}"]
    if row.get("editor"):
        lines.append(f"    {row['editor']} {row.get('decided_at', '')}" + (f"：{row['note']}" if row.get("note")
                                                                         else ""))
    return lines


def _coded(value: str | None, labels: dict[str, str]) -> str:
    if not value:
        return "—"
    return f"{value} {labels[value]}" if value in labels else value


# ---- CLI ----------------------------------------------------------------------------------------

review_app = typer.Typer(
    help="Review flagged claims: list them, accept / dismiss / correct / reopen them, export, import and restore "
         "decisions, serve the review app.",
    no_args_is_help=True,
)

StateOption = Annotated[Path, typer.Option("--state", help="The state database a run wrote.")]
EditorOption = Annotated[str, typer.Option("--editor", help="Who decided (recorded with the decision).")]
NoteOption = Annotated[str, typer.Option("--note", help="Why; shown in the history and exports.")]
ClaimArg = Annotated[str, typer.Argument(help="The claim_id, as `review list` and the reports show it.")]
ReferenceOption = Annotated[Path, typer.Option("--reference", help="Reference tables, for display names.")]


@contextmanager
def _cli_errors() -> Iterator[None]:
    """Our errors become a red message on stderr and their exit code (2; 4 when the disk refused a write);
    anything else is a bug and shows a trace."""
    try:
        yield
    except FactCheckError as exc:
        Console(stderr=True).print(f"error: {exc}", style="red", markup=False, highlight=False,
                                    soft_wrap=True)
        raise typer.Exit(exc.exit_code) from None


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
    evidence: Annotated[str | None, typer.Option(
        help="Only verdicts resting on this: vendor (the curated tables) or database (TechPowerUp).")] = None,
    all_: Annotated[bool, typer.Option("--all", help="Include supported and unverifiable claims.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object a line, for scripts.")] = False,
    reference: ReferenceOption = DEFAULT_REFERENCE_DIR,
) -> None:
    """List claims to review (flagged ones unless --all), each with its claim_id first."""
    with _cli_errors():
        rows = review_claims(state, verdict=verdict.value if verdict else None, doc_id=doc,
                             status=status.value if status else None, subject=subject, include_all=all_,
                             evidence=evidence)
    if as_json:
        for r in rows:
            typer.echo(json.dumps(r, ensure_ascii=False))
        return
    if not rows:
        _say("No claims match these filters.")
        return
    names = reference_names(reference)
    for r in rows:
        for line in claim_lines(r, names):
            _say(line)
    tally = Counter(r["review_status"] for r in rows)
    by_status = ", ".join(f"{s.value} {tally[s.value]}" for s in ReviewStatus if tally[s.value])
    _say(f"{len(rows)} claim(s): {by_status}")


def _decide(state: Path, claim_id: str, status: str, editor: str, note: str, correction: str = "") -> None:
    with _cli_errors():
        d = mark(state, claim_id, status, editor, note, correction)
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
                correction: Annotated[str, typer.Option(help="The corrected text (used in ClaimReview).")] = "",
                state: StateOption = DEFAULT_STATE) -> None:
    """The article was corrected; the flag is closed."""
    _decide(state, claim_id, DecisionStatus.CORRECTED.value, editor, note, correction)


@review_app.command("reopen")
def reopen_cmd(claim_id: ClaimArg, editor: EditorOption, note: NoteOption = "",
               state: StateOption = DEFAULT_STATE) -> None:
    """Take a decision back: the flag is open again (the history keeps both steps)."""
    _decide(state, claim_id, ReviewStatus.OPEN.value, editor, note)


@review_app.command("mark")
def mark_cmd(claim_id: ClaimArg, status: Annotated[DecisionStatus, typer.Option(help="The decision.")],
             editor: EditorOption, note: NoteOption = "", state: StateOption = DEFAULT_STATE) -> None:
    """Record a decision given as --status (same as accept / dismiss / correct)."""
    _decide(state, claim_id, status.value, editor, note)


@review_app.command("history")
def history_cmd(claim_id: ClaimArg, state: StateOption = DEFAULT_STATE) -> None:
    """Every step of a claim's review: when, who, from, to, why."""
    with _cli_errors(), open_state(state) as store:
        events = store.history(claim_id.strip())
    if not events:
        _say(f"{claim_id}: no decisions yet")
    for e in events:
        _say(f"{e.at}  {e.user}  {e.from_status} -> {e.to_status}" + (f"  {e.note}" if e.note else "")
             + (f"  (moved from {e.moved_from})" if e.moved_from else "") + ("  (undo)" if e.kind == "undo" else ""))


@review_app.command("assign")
def assign_cmd(doc: Annotated[str, typer.Argument(help="The document's doc_id.")],
               to: Annotated[str, typer.Option("--to", help="The editor (empty: unassign).")],
               editor: EditorOption, state: StateOption = DEFAULT_STATE) -> None:
    """Assign a document to an editor (their "my queue" in the review app)."""
    with _cli_errors(), open_state(state) as store:
        store.assign(doc, to, editor)
    _say(f"{doc}: assigned to {to}" if to.strip() else f"{doc}: unassigned")


@review_app.command("export")
def export_cmd(path: Annotated[Path, typer.Argument(help="The CSV to write.")],
               state: StateOption = DEFAULT_STATE) -> None:
    """Write all decisions to a CSV (UTF-8 with BOM, opens in Excel)."""
    with _cli_errors():
        n = export_decisions(state, path)
    _say(f"exported {n} decision(s) to {path}")


@review_app.command("import")
def import_cmd(path: Annotated[Path, typer.Argument(help="A CSV written by `review export`, or a decisions "
                                                         "journal (decisions.jsonl) to restore from.")],
               state: StateOption = DEFAULT_STATE) -> None:
    """Apply decisions from a CSV (nothing is written if any row is bad), or restore them from a journal."""
    with _cli_errors():
        if path.suffix.lower() == ".jsonl":
            restored = restore_decisions(state, path)
            _say(f"restored {restored.events} decision step(s) and {restored.assignments} assignment(s) from "
                 f"{path} into {state} ({restored.skipped} already there or unreadable)")
            return
        n = import_decisions(state, path)
    _say(f"imported {n} decision(s) from {path}")


@review_app.command("serve")
def serve_cmd(
    out: Annotated[Path, typer.Option("--out", help="The run's output folder (reports are served from it).")
                   ] = Path("reports"),
    state: Annotated[Path | None, typer.Option("--state", help="The state database (default: OUT/state.sqlite).")
                     ] = None,
    host: Annotated[str, typer.Option(help="Address to listen on; other than loopback needs --users.")
                    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8765,
    users: Annotated[Path | None, typer.Option(
        "--users", help="CSV name,role,token_sha256 (role editor or viewer); every request then needs "
                        "Authorization: Bearer TOKEN or a login.")] = None,
    editor: Annotated[str | None, typer.Option(
        "--editor", help="Your name on decisions when there is no --users file (default: your login).")] = None,
    reference: ReferenceOption = DEFAULT_REFERENCE_DIR,
    timezone: Annotated[str, typer.Option(help="Show times in this zone, e.g. Asia/Shanghai (default: the "
                                          "machine's).")] = "",
) -> None:
    """Serve the review app: the queue, each article with its flags, decisions, history, assignments, /api/."""
    from .server import ServeOptions, serve

    with _cli_errors():
        opts = ServeOptions(out=out, state=state or out / "state.sqlite", host=host, port=port, users=users,
                            editor=editor or _login_name(), reference=reference, timezone=timezone)
        serve(opts, announce=_say)


def _login_name() -> str:
    try:
        return getpass.getuser() or "editor"
    except (OSError, KeyError):
        return "editor"


def claims_table(rows: Sequence[dict[str, Any]]) -> list[str]:
    """The lines ``review list`` prints for ``rows`` (without display names)."""
    return [line for r in rows for line in claim_lines(r)]
