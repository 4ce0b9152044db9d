"""The report files the review app serves under ``/out/``: only those the last complete run's manifest lists
(``report.manifest``), as regular files of the output folder opened without following a link, with the size (and,
up to ``VERIFY_BYTES``, the sha256) the manifest gives. A link, a hard link under a listed name that holds other
bytes, a file changed since the run, the state, the journal and the marker are never served.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import AsyncIterator
from pathlib import Path

from starlette.concurrency import run_in_threadpool

from ..report import manifest

VERIFY_BYTES = 8 * 1024 * 1024  # report files up to this size are checked against the manifest's sha256

_MANIFESTS: dict[str, tuple[tuple[int, int, int], dict[str, manifest.Digest]]] = {}


def published_files(out: Path) -> dict[str, manifest.Digest]:
    """The manifest of the last complete run in ``out`` (read again when the marker changes)."""
    try:
        st = os.stat(out / manifest.MARKER, follow_symlinks=False)
    except OSError:
        return {}
    key = (st.st_ino, st.st_mtime_ns, st.st_size)
    cached = _MANIFESTS.get(str(out))
    if cached is not None and cached[0] == key:
        return cached[1]
    files = manifest.published(manifest.read_marker(out))
    _MANIFESTS[str(out)] = (key, files)
    return files


def open_published(out: Path, name: str, expected: manifest.Digest) -> bytes | int | None:
    """The file's bytes (small files, checked against the manifest's sha256), its descriptor (larger ones, checked
    against its size), or None when it is not the file the run published."""
    fd = manifest.open_file(out, name)
    if fd is None:
        return None
    try:
        if os.fstat(fd).st_size != expected[1]:
            os.close(fd)
            return None
        if expected[1] > VERIFY_BYTES:
            return fd
        data = manifest.read_fd(fd, expected[1])
    except OSError:
        os.close(fd)
        return None
    os.close(fd)
    return data if hashlib.sha256(data).hexdigest() == expected[0] else None


async def stream(fd: int) -> AsyncIterator[bytes]:
    try:
        while chunk := await run_in_threadpool(os.read, fd, 1 << 20):
            yield chunk
    finally:
        os.close(fd)
