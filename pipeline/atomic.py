"""Atomic file writes: a temp file in the same folder, (fsync,) then os.replace.

A reader sees either the old file or the complete new one, never a half-written file,
and an exception mid-write leaves the old file untouched and no temp file behind.
The rename alone survives a killed process; ``durable=True`` also fsyncs the file and
its folder so that it survives a power cut (used for the run tables, not for every
per-document report, where thousands of fsyncs would dominate the run time).
"""

from __future__ import annotations

import codecs
import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import IO, Any


def _read_umask() -> int:
    # Read once at import: os.umask can only be read by setting it, which is racy in threads.
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_FILE_MODE = 0o666 & ~_read_umask()


def _open_temp(path: Path) -> tuple[int, Path]:
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    return fd, Path(name)


def fsync_dir(folder: Path) -> None:
    """Make the rename itself durable; not possible (nor needed) on every platform."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _commit(tmp: Path, path: Path, durable: bool = True) -> None:
    os.chmod(tmp, _FILE_MODE)  # mkstemp creates 0600; give the file ordinary permissions
    os.replace(tmp, path)
    if durable:
        fsync_dir(path.parent)


def _discard(tmp: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()


def atomic_write_bytes(path: Path, data: bytes, *, durable: bool = False) -> None:
    """Write ``data`` to ``path`` atomically; the folder must exist."""
    path = Path(path)
    fd, tmp = _open_temp(path)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        _commit(tmp, path, durable)
    except BaseException:
        _discard(tmp)
        raise


def atomic_write_text(path: Path, text: str, encoding: str = "utf-8", *, durable: bool = False) -> None:
    """Write ``text`` to ``path`` atomically, byte for byte (no newline translation)."""
    atomic_write_bytes(path, text.encode(encoding), durable=durable)


class AtomicJsonlWriter:
    """Write one JSON object a line; the file appears only when the ``with`` block succeeds.

    >>> with AtomicJsonlWriter(Path("claims.jsonl")) as out:  # doctest: +SKIP
    ...     out.write({"claim_id": "c1"})
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._tmp: Path | None = None
        self._fh: IO[bytes] | None = None
        self._sha = hashlib.sha256()
        self._size = 0

    def __enter__(self) -> AtomicJsonlWriter:
        fd, self._tmp = _open_temp(self.path)
        self._fh = os.fdopen(fd, "wb")
        self._sha, self._size = hashlib.sha256(), 0
        return self

    def digest(self) -> tuple[str, int]:
        """(sha256, size) of what was written."""
        return self._sha.hexdigest(), self._size

    def write(self, obj: dict[str, Any]) -> str:
        """Write one object as a line; returns the line (without its newline)."""
        line = json.dumps(obj, ensure_ascii=False)
        self.write_lines(line + "\n")
        return line

    def write_lines(self, text: str) -> None:
        """Write lines encoded elsewhere (each a JSON object ending in a newline), e.g. by a worker process."""
        if self._fh is None:
            raise RuntimeError("AtomicJsonlWriter.write() called outside its `with` block")
        data = text.encode("utf-8")
        self._fh.write(data)
        self._sha.update(data)
        self._size += len(data)

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        fh, tmp = self._fh, self._tmp
        self._fh = self._tmp = None
        if fh is None or tmp is None:
            return
        if exc_type is not None:
            with contextlib.suppress(OSError):
                fh.close()
            _discard(tmp)
            return
        try:
            fh.flush()
            os.fsync(fh.fileno())
            fh.close()
            _commit(tmp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                fh.close()
            _discard(tmp)
            raise


@contextlib.contextmanager
def atomic_open(path: Path, encoding: str = "utf-8") -> Iterator[IO[str]]:
    """A text file handle whose content replaces ``path`` only when the ``with`` block succeeds."""
    path = Path(path)
    fd, tmp = _open_temp(path)
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline="") as fh:
            yield fh
        _commit(tmp, path, durable=False)
    except BaseException:
        _discard(tmp)
        raise


class AtomicTextFile:
    """A text file written piece by piece that replaces ``path`` only when ``commit`` is called inside the
    ``with`` block; otherwise (or on an exception) it is discarded and ``path`` is left as it was."""

    def __init__(self, path: Path, encoding: str = "utf-8") -> None:
        self.path = Path(path)
        self.encoding = encoding
        self._tmp: Path | None = None
        self._fh: IO[bytes] | None = None
        self._encoder = codecs.getincrementalencoder(encoding)()
        self._sha = hashlib.sha256()
        self._size = 0
        self.committed = False

    def __enter__(self) -> AtomicTextFile:
        fd, self._tmp = _open_temp(self.path)
        self._fh = os.fdopen(fd, "wb")
        self._encoder = codecs.getincrementalencoder(self.encoding)()
        self._sha, self._size = hashlib.sha256(), 0
        return self

    def write(self, text: str) -> None:
        """Write ``text`` as it is (no newline translation)."""
        if self._fh is None:
            raise RuntimeError("AtomicTextFile.write() called outside its `with` block")
        data = self._encoder.encode(text)
        self._fh.write(data)
        self._sha.update(data)
        self._size += len(data)

    def digest(self) -> tuple[str, int]:
        """(sha256, size) of what was written so far."""
        return self._sha.hexdigest(), self._size

    def commit(self) -> None:
        """Put the file in place (no fsync: like ``atomic_open``)."""
        fh, tmp = self._fh, self._tmp
        if fh is None or tmp is None:
            raise RuntimeError("AtomicTextFile.commit() called outside its `with` block")
        self._fh = self._tmp = None
        try:
            fh.close()
            _commit(tmp, self.path, durable=False)
        except BaseException:
            _discard(tmp)
            raise
        self.committed = True

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        fh, tmp = self._fh, self._tmp
        self._fh = self._tmp = None
        if fh is not None:
            with contextlib.suppress(OSError):
                fh.close()
        if tmp is not None:
            _discard(tmp)
