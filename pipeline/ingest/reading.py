"""Read what was scanned: an article is opened once, without following a link the walk did not accept, and read
from that descriptor.

A file (or one of its folders) swapped for a symbolic link between the walk and the read must not bring text from
outside the corpus into the outputs. So each article is opened one path component at a time from the corpus folder
with ``O_NOFOLLOW`` (folders with ``O_DIRECTORY`` too), the descriptor is checked to be a regular file, and the
bytes, the hash and the size limit all come from that descriptor. An article the walk reached through a link that
stays inside the corpus (``same.txt -> a.txt``) is opened at the link's target, resolved now and opened the same
way, so a link swapped in after that is still refused. ``--follow-symlinks`` reads links anywhere, as asked.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from ..errors import InputError

_CHUNK = 1 << 20
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # a FIFO swapped in does not block the open
_BINARY = getattr(os, "O_BINARY", 0)
_SAFE = bool(_NOFOLLOW) and os.open in os.supports_dir_fd


class LinkRefused(InputError):
    """The file, or a folder on its way, is now a symbolic link the walk would not have followed."""


def inside(path: str, root: str) -> bool:
    """``path`` is ``root`` or under it (both real paths)."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _open_beneath(root: str, parts: list[str]) -> int:
    """Open ``root/parts...`` one component at a time, following no link; OSError (ELOOP, ENOTDIR) at a link."""
    fd = os.open(root, os.O_RDONLY | _DIRECTORY)
    try:
        for part in parts[:-1]:
            if part in ("", ".", ".."):
                raise OSError(errno.EINVAL, "not a plain path component", part)
            nxt = os.open(part, os.O_RDONLY | _DIRECTORY | _NOFOLLOW, dir_fd=fd)
            os.close(fd)
            fd = nxt
        return os.open(parts[-1], os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _BINARY, dir_fd=fd)
    finally:
        os.close(fd)


def _relative_parts(path: str, root: str) -> list[str] | None:
    rel = os.path.relpath(path, root)
    if rel == os.curdir or rel == os.pardir or rel.startswith(os.pardir + os.sep) or os.path.isabs(rel):
        return None
    return rel.split(os.sep)


def _open(path: Path, root: Path, follow_symlinks: bool) -> int:
    if follow_symlinks or not _SAFE or not root.is_dir():
        # links anywhere are wanted, the platform cannot refuse them, or the user named the file itself
        return os.open(path, os.O_RDONLY | _NONBLOCK | _BINARY)
    if os.path.abspath(path) == os.path.abspath(root):  # the corpus folder itself: not a file (see open_article)
        return os.open(path, os.O_RDONLY | _BINARY)
    parts = _relative_parts(os.path.abspath(path), os.path.abspath(root))
    if parts is None:
        raise LinkRefused(f"cannot read {path}: it is not inside the corpus folder {root}")
    try:
        return _open_beneath(os.path.abspath(root), parts)
    except OSError as e:
        if e.errno not in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            raise
    # a link on the way: one the walk accepts (inside the corpus) is opened at its target, resolved now
    real_root, real = os.path.realpath(root), os.path.realpath(path)
    target = _relative_parts(real, real_root) if inside(real, real_root) else None
    if target is None:
        raise LinkRefused(f"cannot read {path}: it is a symbolic link (or is in a linked folder) that leads outside "
                          "the corpus (it changed after the corpus was listed, or pass --follow-symlinks)")
    try:
        return _open_beneath(real_root, target)
    except OSError as e:
        if e.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            raise LinkRefused(f"cannot read {path}: it changed into a symbolic link while it was being read") from e
        raise


@contextlib.contextmanager
def open_article(path: Path, root: Path, *, follow_symlinks: bool = False) -> Iterator[int]:
    """A descriptor of the regular file ``path`` inside the corpus ``root`` (see the module docstring).

    Raises:
        LinkRefused: a link leads outside the corpus (unless ``follow_symlinks``).
        InputError: it is not a regular file (a FIFO, a device, a folder).
        OSError: it cannot be opened (missing, not allowed).
    """
    fd = _open(Path(path), Path(root), follow_symlinks)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise InputError(f"cannot read {path}: it is not a regular file (a FIFO, a device or a folder)")
        if _NONBLOCK:
            os.set_blocking(fd, True)
        yield fd
    finally:
        os.close(fd)


def read_article(path: Path, root: Path, max_bytes: int, *, follow_symlinks: bool = False) -> bytes:
    """The bytes of one article, read from the one descriptor it was opened with.

    Raises:
        InputError: it cannot be read, is not a regular file, is a link out of the corpus, or is over ``max_bytes``.
    """
    try:
        with open_article(path, root, follow_symlinks=follow_symlinks) as fd:
            size = os.fstat(fd).st_size
            if size > max_bytes:
                raise _too_big(path, size, max_bytes)
            chunks, read = [], 0
            while True:
                chunk = os.read(fd, min(_CHUNK, max_bytes + 1 - read))
                if not chunk:
                    break
                chunks.append(chunk)
                read += len(chunk)
                if read > max_bytes:  # it grew while being read
                    raise _too_big(path, read, max_bytes)
            return b"".join(chunks)
    except InputError:
        raise
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror or e}. Check that the file exists and that "
                         "you are allowed to read it.") from e


def _too_big(path: Path, size: int, max_bytes: int) -> InputError:
    return InputError(f"{path} is {size:,} bytes, over the limit of {max_bytes:,} bytes. Split the "
                      "article into smaller files or raise the limit (run --max-mb).")


def article_sha256(path: Path, root: Path, *, follow_symlinks: bool = False) -> str:
    """The sha256 of the article's bytes, opened as ``read_article`` opens it; "" when it cannot be read."""
    h = hashlib.sha256()
    try:
        with open_article(path, root, follow_symlinks=follow_symlinks) as fd:
            while chunk := os.read(fd, _CHUNK):
                h.update(chunk)
    except (OSError, InputError):
        return ""
    return h.hexdigest()
