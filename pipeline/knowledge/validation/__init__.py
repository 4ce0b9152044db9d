"""Validate the reference tables and the run's claims table.

great_expectations stays behind this package and is imported lazily: ``import pipeline.knowledge.validation``
costs nothing. Rules that GE has no built-in for are computed in pandas as a per-row message
column (empty = fine) and handed to GE as "this boolean column is True", so every problem comes
back through GE's result with the row it is about.

The modules: ``results`` (Problem, ValidationResult), ``ge`` (the great_expectations adapter: checks,
running a suite, GE results as Problem rows), ``reference_rules`` and ``reference_suite`` (the reference
tables: their rules; loading, fingerprinting, the pass cache and the run) and ``claims_suite``
(ClaimsValidator). Both suites run GE through ``ge._run_suite``, looked up on the module at call time.
"""

from __future__ import annotations

from .claims_suite import ClaimsValidator
from .reference_rules import OPTIONAL_COLUMNS, REQUIRED_COLUMNS
from .reference_suite import (
    CACHE_FILE,
    default_cache_dir,
    load_reference_tables,
    reference_fingerprint,
    validate_reference,
    validate_tables,
)
from .results import Problem, ValidationResult

__all__ = [
    "CACHE_FILE",
    "OPTIONAL_COLUMNS",
    "REQUIRED_COLUMNS",
    "ClaimsValidator",
    "Problem",
    "ValidationResult",
    "default_cache_dir",
    "load_reference_tables",
    "reference_fingerprint",
    "validate_reference",
    "validate_tables",
]
