"""The result types of both suites: one Problem per failed rule, gathered in a ValidationResult."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One failed rule. ``row`` is the 0-based data row (reference: row 0 is the first line under the
    header, so CSV line ``row + 2`` when no cell spans lines; claims: the claim's position in the
    stream, from 0), or None for a table-level problem such as a missing column."""

    table: str
    row: int | None
    rule: str
    column: str | None
    found: str

    def describe(self) -> str:
        if self.row is None:
            return f"{self.table}: {self.rule}" + (f" (found {self.found})" if self.found else "")
        return f"{self.table} row {self.row}: {self.rule} (found {self.found!r})"


@dataclass(frozen=True)
class ValidationResult:
    ok: bool
    problems: tuple[Problem, ...]

    def summary(self) -> str:
        """One line per problem, e.g. ``specs.csv row 12: unit must be one of GB/s for ... (found 'GB')``."""
        if not self.problems:
            return "no problems found"
        return "\n".join(p.describe() for p in self.problems)


def _result(problems: Sequence[Problem]) -> ValidationResult:
    return ValidationResult(ok=not problems, problems=tuple(problems))
