"""Editors' decisions out of the state and back in as CSV, for spreadsheets and for a colleague's copy of the state.

The ``Store`` keeps the decisions; this module only reads and writes the CSV.

>>> with Store(Path("reports/state.sqlite")) as store:  # doctest: +SKIP
...     export_decisions_csv(store, Path("decisions.csv"))
"""

from __future__ import annotations

import csv
import io
from datetime import datetime, timezone
from pathlib import Path

from .atomic import atomic_write_text
from .errors import UsageError
from .store import DECISION_STATUSES, Decision, Store, utc_now

CSV_COLUMNS: tuple[str, ...] = ("claim_id", "doc_id", "text", "status", "editor", "note", "decided_at")


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
    """Upsert the decisions in a CSV written by ``export_decisions_csv`` (or edited from one).

    All rows are checked before any is written; errors name the row as a spreadsheet numbers it.

    Raises:
        UsageError: the file is missing or unreadable, a column is missing, or a row is bad.
    """
    path = Path(path)
    rows = _read_csv(path)
    decisions = []
    for number, row in rows:
        cell = {k: _unescape_cell(row.get(k) or "") for k in CSV_COLUMNS}
        where = f"{path.name} row {number}"
        claim_id, status = cell["claim_id"].strip(), cell["status"].strip()
        editor = cell["editor"].strip()
        if not claim_id:
            raise UsageError(f"{where}: claim_id is empty")
        if status not in DECISION_STATUSES:
            raise UsageError(f"{where} ({claim_id}): status {status!r} is not one of "
                             f"{', '.join(DECISION_STATUSES)}")
        if not editor:
            raise UsageError(f"{where} ({claim_id}): editor is empty")
        decided_at = _parse_time(cell["decided_at"], where)
        doc_id, text = cell["doc_id"], cell["text"]
        if not text:
            current = store.current_claim(claim_id)
            if current is None:
                raise UsageError(f"{where} ({claim_id}): text is empty and the claim is not in the "
                                 "state; fill in the claim's text")
            doc_id, text = doc_id or current[0], current[1]
        decisions.append(Decision(claim_id, status, editor, cell["note"], decided_at, doc_id, text))
    store.put_decisions(decisions)
    return len(decisions)


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
    missing = [c for c in CSV_COLUMNS if c not in (reader.fieldnames or ())]
    if missing:
        raise UsageError(f"{path} lacks the column(s) {', '.join(missing)}; "
                         f"the header must be {','.join(CSV_COLUMNS)}")
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
