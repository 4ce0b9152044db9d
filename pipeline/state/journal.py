"""The decisions journal beside the state: every decision and assignment as one JSON line, appended and fsynced.

The state database is the working copy; the journal is what ``review import`` restores it from when the database
is lost, emptied or replaced. Appends are whole lines written with one ``write`` on an ``O_APPEND`` descriptor and
fsynced before the decision's transaction commits; a line torn by a crash is skipped when read (its decision was
never committed, or is written again by the next run, see ``Store.sync_journal``).
"""

from __future__ import annotations

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
    """Append ``records`` as JSON lines and fsync; returns how many.

    Raises:
        OSError: the journal cannot be written (the caller rolls its transaction back).
    """
    lines = "".join(json.dumps(dict(r), ensure_ascii=False, sort_keys=True) + "\n" for r in records)
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
    return lines.count("\n") - lines.startswith("\n")


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
