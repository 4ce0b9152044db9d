"""The decisions journal beside the state: every decision and assignment as one JSON line, appended and fsynced.

The state database is the working copy; the journal is what ``review import`` restores it from when the database
is lost, emptied or replaced. Appends are whole lines written with one ``write`` on an ``O_APPEND`` descriptor and
fsynced before the decision's transaction commits; a line torn by a crash is skipped when read (its decision was
never committed, or is written again by the next run, see ``Store.sync_journal``).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from ..atomic import fsync_dir
from ..errors import UsageError


def journal_path(state: Path) -> Path:
    """``decisions.jsonl`` beside ``state.sqlite``; ``NAME.decisions.jsonl`` beside any other ``NAME.sqlite``."""
    state = Path(state)
    name = "decisions.jsonl" if state.stem == "state" else f"{state.stem}.decisions.jsonl"
    return state.with_name(name)


def append(path: Path, records: Iterable[Mapping[str, Any]]) -> int:
    """Append ``records`` as JSON lines and fsync; returns how many. The review stamp beside the journal then
    notes the decisions' times (best effort: see ``update_stamp``).

    Raises:
        OSError: the journal cannot be written (the caller rolls its transaction back).
    """
    records = [dict(r) for r in records]
    lines = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in records)
    if not lines:
        return 0
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        size = os.fstat(fd).st_size
        if size and _last_byte(path, size) != b"\n":
            lines = "\n" + lines  # a torn last line stays alone on its line
        data = lines.encode("utf-8")
        written = 0
        while written < len(data):
            written += os.write(fd, data[written:])
        os.fsync(fd)
    finally:
        os.close(fd)
    if size == 0:
        fsync_dir(path.parent)
    update_stamp(path.parent, records)
    return lines.count("\n") - lines.startswith("\n")


# ---- the review stamp ---------------------------------------------------------------------------
# review-stamp.js: when each document last had a decision, as a script the static reports of the same folder load
# (a page opened from disk cannot read the state). A page compares it with the time it was written at, and says so
# when decisions were made since. The run writes it whole beside its reports; every decision updates it.
STAMP = "review-stamp.js"
_STAMP_VAR = "window.gpuFactcheckReview = "


def stamp_script(docs: Mapping[str, str]) -> str:
    """The stamp's text: ``{"at": latest, "docs": {doc_id: latest decision of the document}}`` as a script."""
    body = {"at": max(docs.values(), default=""), "docs": dict(sorted(docs.items()))}
    return _STAMP_VAR + json.dumps(body, ensure_ascii=False, sort_keys=True).replace("</", "<\\/") + ";\n"


def read_stamp(folder: Path) -> dict[str, str]:
    """The documents' latest decision times a stamp in ``folder`` holds ({} when there is none or it is damaged)."""
    try:
        text = (Path(folder) / STAMP).read_text(encoding="utf-8")
        docs = json.loads(text[len(_STAMP_VAR):].rstrip().rstrip(";"))["docs"] if text.startswith(_STAMP_VAR) \
            else {}
    except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError):
        return {}
    return {str(k): str(v) for k, v in docs.items()} if isinstance(docs, dict) else {}


def update_stamp(folder: Path, records: Iterable[Mapping[str, Any]]) -> None:
    """Note the times of the editors' decisions among ``records`` in the stamp, if the folder has one (a run's
    output folder: the state's default place). Decisions a run moves after a renamed article are not new. Best
    effort: a stamp that cannot be written only means no sign on the pages."""
    from ..atomic import atomic_write_text

    folder = Path(folder)
    if not (folder / STAMP).is_file():
        return
    new = [(str(r["doc_id"]), str(r["at"])) for r in records
           if r.get("type") == "decision" and r.get("kind") != "moved" and r.get("doc_id") and r.get("at")]
    if not new:
        return
    docs = read_stamp(folder)
    for doc_id, at in new:
        docs[doc_id] = max(docs.get(doc_id, ""), at)
    with contextlib.suppress(OSError):
        atomic_write_text(folder / STAMP, stamp_script(docs))


def _last_byte(path: Path, size: int) -> bytes:
    with open(path, "rb") as fh:
        fh.seek(size - 1)
        return fh.read(1)


def read(path: Path) -> Iterator[dict[str, Any]]:
    """The records of a journal in order; lines that are not a JSON object (a torn write) are skipped.

    Raises:
        UsageError: the file cannot be read.
    """
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise UsageError(f"cannot read the decisions journal {path} ({exc.strerror}); check the path") from exc
    for line in text.split("\n"):  # not splitlines(): U+2028 inside a note is not a line break here
        line = line.strip()
        if not line:
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict):
            yield obj


def summary(path: Path) -> str:
    """'12 decision records' for a message; '' when there is no journal."""
    if not path.is_file():
        return ""
    try:
        n = sum(1 for r in read(path) if r.get("type") == "decision")
    except UsageError:
        return "unreadable"
    return f"{n} decision record(s)"
