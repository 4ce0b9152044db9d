"""The output folder's manifest: every file a complete run published, with its sha256 and size, kept in the marker
``.report-index.json`` (written last, see ``run.outputs``); and the list of what a run may write, written first.

With both, the outputs are a function of the corpus and not of history: a run compares what is on disk with the
manifest of the last complete run and rewrites what differs, and removes every file the last complete run or an
interrupted one published that no current document owns. The review app serves only the files the manifest lists,
as regular files of the output folder, never through a link.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..atomic import atomic_write_text
from ..ingest import OUTPUT_MARKER

MARKER = OUTPUT_MARKER  # written last: the outputs beside it are complete
PENDING = ".report-pending.json"  # written first: what the run under way may write
FILES = "_files"  # the marker's key for the manifest: {name: [sha256, size]}
_CHUNK = 1 << 20
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)

Digest = tuple[str, int]  # (sha256, size)


def open_file(folder: Path, name: str) -> int | None:
    """A read descriptor of ``folder/name`` when it is a regular file reached without following a link; else None.

    ``name`` is one plain file name (no folder part)."""
    if not name or name in (".", "..") or "/" in name or os.sep in name or "\x00" in name:
        return None
    try:
        fd = os.open(Path(folder) / name, os.O_RDONLY | _NOFOLLOW | _NONBLOCK)
    except OSError as e:
        if e.errno in (errno.ENOENT, errno.ELOOP, errno.ENOTDIR, errno.EACCES, errno.EMLINK, errno.ENXIO):
            return None
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            return None
        if _NONBLOCK:
            os.set_blocking(fd, True)
    except OSError:
        os.close(fd)
        raise
    return fd


def read_fd(fd: int, limit: int | None = None) -> bytes:
    """Everything left in ``fd`` (at most ``limit`` + 1 bytes)."""
    chunks, size = [], 0
    while limit is None or size <= limit:
        chunk = os.read(fd, _CHUNK if limit is None else min(_CHUNK, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def digest(folder: Path, name: str) -> Digest | None:
    """(sha256, size) of the regular file ``folder/name`` (never through a link), or None when there is none."""
    fd = open_file(folder, name)
    if fd is None:
        return None
    try:
        h, size = hashlib.sha256(), 0
        while chunk := os.read(fd, _CHUNK):
            h.update(chunk)
            size += len(chunk)
        return h.hexdigest(), size
    finally:
        os.close(fd)


def digest_of(data: bytes) -> Digest:
    return hashlib.sha256(data).hexdigest(), len(data)


def read_marker(out: Path) -> dict[str, Any]:
    """The marker of the last complete run (``{}`` when there is none, or it is not ours)."""
    fd = open_file(out, MARKER)
    if fd is None:
        return {}
    try:
        data = json.loads(read_fd(fd).decode("utf-8"))
    except (OSError, ValueError):
        return {}
    finally:
        os.close(fd)
    return data if isinstance(data, dict) else {}


def published(marker: Mapping[str, Any]) -> dict[str, Digest]:
    """The manifest in a marker: name -> (sha256, size); empty for a marker written before manifests."""
    files = marker.get(FILES)
    if not isinstance(files, dict):
        return {}
    out: dict[str, Digest] = {}
    for name, value in files.items():
        if isinstance(name, str) and isinstance(value, list) and len(value) == 2 and isinstance(value[0], str) \
                and isinstance(value[1], int):
            out[name] = (value[0], value[1])
    return out


def as_marker(files: Mapping[str, Digest]) -> dict[str, list[Any]]:
    return {name: [sha, size] for name, (sha, size) in sorted(files.items())}


def on_disk(out: Path, files: Mapping[str, Digest]) -> bool:
    """Every file of ``files`` is in ``out`` as it was published (same bytes, a regular file, not a link)."""
    return all(digest(out, name) == expected for name, expected in files.items())


def read_pending(out: Path) -> set[str]:
    """The names an interrupted run may have written (empty when the last run completed)."""
    fd = open_file(out, PENDING)
    if fd is None:
        return set()
    try:
        data = json.loads(read_fd(fd).decode("utf-8"))
    except (OSError, ValueError):
        return set()
    finally:
        os.close(fd)
    names = data.get("files") if isinstance(data, dict) else None
    return {n for n in names if isinstance(n, str)} if isinstance(names, list) else set()


def write_pending(out: Path, names: Iterable[str]) -> None:
    """Before a run writes anything: the names it may write, with those of any interrupted run before it."""
    every = sorted(read_pending(out) | set(names))
    atomic_write_text(out / PENDING, json.dumps({"files": every}, ensure_ascii=False), durable=True)


def clear_pending(out: Path) -> None:
    """After the marker: nothing is pending."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(out / PENDING)
