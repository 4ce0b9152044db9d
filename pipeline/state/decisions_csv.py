"""Editors' decisions out of the state and back in as CSV, for spreadsheets and for a colleague's copy of the state.

The ``Store`` keeps the decisions and their history; this module only reads and writes the CSV. An import names
every bad row (an unknown claim, a claim id a spreadsheet turned into a number, an unknown status) and writes
nothing unless all rows are good; statuses may be written as the pages show them (已驳回) or as codes (dismissed).

>>> with Store(Path("reports/state.sqlite")) as store:  # doctest: +SKIP
...     export_decisions_csv(store, Path("decisions.csv"))
"""

from __future__ import annotations

import csv
import io
import re
from datetime import datetime, timezone
from pathlib import Path

from ..atomic import atomic_write_text
from ..errors import UsageError
from ..lexicon.labels import labels
from .decisions import CLAIM_ID, REVIEW_STATUSES, Decision, utc_now
from .store import Store

CSV_COLUMNS: tuple[str, ...] = ("claim_id", "doc_id", "text", "status", "editor", "note", "decided_at",
                                "correction")
REQUIRED_COLUMNS: tuple[str, ...] = CSV_COLUMNS[:7]  # files exported before corrections were kept lack the last
MAX_REPORTED = 20  # bad rows named in one message
# 已驳回 -> dismissed ...: the names the pages show, and the codes
STATUS_NAMES: dict[str, str] = {**{zh: code for code, zh in labels("review").items()},
                                **{code: code for code in REVIEW_STATUSES}}
# what Excel makes of a long number-like id: 5.04161E+104, 1.23457E+15
_SCIENTIFIC = re.compile(r"[0-9]+(?:\.[0-9]+)?[eE][+-]?[0-9]+")


def export_decisions_csv(store: Store, path: Path) -> int:
    """Write every decision to ``path`` (UTF-8 with BOM, for spreadsheets); returns how many.

    Raises:
        UsageError: ``path`` cannot be written.
    """
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    decisions = store.decisions()
    for d in decisions.values():
        writer.writerow([_escape_cell(getattr(d, col)) for col in CSV_COLUMNS])
    try:
        atomic_write_text(Path(path), buf.getvalue(), encoding="utf-8-sig")
    except OSError as exc:
        raise UsageError(f"cannot write {path} ({exc.strerror}); check that its folder exists") from exc
    return len(decisions)


def import_decisions_csv(store: Store, path: Path) -> int:
    """Apply the decisions in a CSV written by ``export_decisions_csv`` (or edited from one); returns how many
    changed a claim's review (each change is a step of the claim's history).

    All rows are checked before any is written; errors name every bad row as a spreadsheet numbers it.

    Raises:
        UsageError: the file is missing or unreadable, a column is missing, or a row is bad.
    """
    path = Path(path)
    rows = _read_csv(path)
    decisions: list[Decision] = []
    problems: list[str] = []
    for number, row in rows:
        try:
            decisions.append(_decision(store, row, f"row {number}"))
        except UsageError as exc:
            problems.append(str(exc))
    if problems:
        shown = "; ".join(problems[:MAX_REPORTED])
        more = f"; and {len(problems) - MAX_REPORTED} more" if len(problems) > MAX_REPORTED else ""
        raise UsageError(f"{path.name}: {len(problems)} bad row(s), nothing imported: {shown}{more}")
    return store.import_decisions(decisions)


def _decision(store: Store, row: dict[str, str], where: str) -> Decision:
    cell = {k: _unescape_cell(row.get(k) or "") for k in CSV_COLUMNS}
    claim_id, status, editor = cell["claim_id"].strip(), cell["status"].strip(), cell["editor"].strip()
    if not claim_id:
        raise UsageError(f"{where}: claim_id is empty")
    current = store.claim_snapshot(claim_id)
    if current is None:
        raise UsageError(f"{where}: {_unknown(claim_id)}")
    where = f"{where} ({claim_id})"
    if status not in STATUS_NAMES:
        raise UsageError(f"{where}: status {status!r} is not one of {', '.join(STATUS_NAMES)}")
    if not editor:
        raise UsageError(f"{where}: editor is empty")
    decided_at = _parse_time(cell["decided_at"], where)
    text = cell["text"] or current["text"]
    same = text == current["text"]
    return Decision(claim_id, STATUS_NAMES[status], editor, cell["note"], decided_at, current["doc_id"], text,
                    current.get("sentence", "") if same else "", int(current.get("start", -1)) if same else -1,
                    cell["correction"].strip())


def _unknown(claim_id: str) -> str:
    number_like = claim_id.replace(".", "", 1).isdigit() and not CLAIM_ID.fullmatch(claim_id)
    if _SCIENTIFIC.fullmatch(claim_id) or number_like:
        return (f"claim_id {claim_id!r} is malformed: a spreadsheet turned it into a number; format the "
                "claim_id column as text and export again")
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.:-]*", claim_id):
        return f"claim_id {claim_id!r} is malformed (a claim id is 16 hex digits, like 0f3c9a1b2d4e5f60)"
    return f"unknown claim id {claim_id!r}: no current claim has it (see `python -m pipeline review list --all`)"


# ---- cells --------------------------------------------------------------------------------------
# Cells that a spreadsheet would run as a formula get a leading apostrophe on export; import takes
# exactly that apostrophe off again, so any text round-trips (and one Excel ate is also fine).

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "'")


def _escape_cell(value: str) -> str:
    return "'" + value if value.startswith(_FORMULA_START) else value


def _unescape_cell(value: str) -> str:
    return value[1:] if value.startswith("'") and value[1:].startswith(_FORMULA_START) else value


def _read_csv(path: Path) -> list[tuple[int, dict[str, str]]]:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read {path} ({exc.strerror}); check the path") from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:  # Excel on Chinese Windows saves "CSV (逗号分隔)" as GBK
            text = raw.decode("gb18030")
        except UnicodeDecodeError as exc:
            raise UsageError(f"{path} is neither UTF-8 nor GB18030; save it as 'CSV UTF-8'") from exc
    reader = csv.DictReader(io.StringIO(text, newline=""))
    missing = [c for c in REQUIRED_COLUMNS if c not in (reader.fieldnames or ())]
    if missing:
        raise UsageError(f"{path} lacks the column(s) {', '.join(missing)}; "
                         f"the header must be {','.join(CSV_COLUMNS)} (correction may be left out)")
    rows: list[tuple[int, dict[str, str]]] = []
    try:  # numbered as a spreadsheet shows them: the header is row 1
        for number, row in enumerate(reader, 2):
            rows.append((number, row))
    except csv.Error as exc:
        raise UsageError(f"{path} row {len(rows) + 2}: {exc}") from exc
    return rows


def _parse_time(value: str, where: str) -> str:
    """An ISO-8601 time as UTC ISO-8601 (naive times are taken as UTC); empty means now."""
    value = value.strip()
    if not value:
        return utc_now()
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise UsageError(f"{where}: decided_at {value!r} is not an ISO-8601 time "
                         "like 2024-06-01T09:30:00+00:00 (or leave it empty for now)") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return when.astimezone(timezone.utc).isoformat(timespec="seconds")
