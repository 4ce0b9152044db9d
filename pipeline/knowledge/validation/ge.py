"""The great_expectations adapter: checks as data, one GE suite per table, GE results as Problem rows.

great_expectations is imported lazily, inside the functions that need it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from .results import Problem

if TYPE_CHECKING:
    import pandas as pd


# ---- one check = one GE expectation, plus how to word a failing row


@dataclass(frozen=True)
class _Check:
    expect: str  # exists | in_set | regex | unique | compound_unique
    column: str  # what GE looks at
    rule: str  # the message; for computed checks the name of the column holding per-row messages
    label: str | None  # Problem.column
    found: str | None = None  # column whose value is reported as found (default: label)
    arg: Any = None  # value set, regex or key columns
    rule_in_column: bool = False


def _exists(column: str) -> _Check:
    return _Check("exists", column, f"missing required column {column!r}", column)


def _in_set(column: str, values: Sequence[str], rule: str) -> _Check:
    return _Check("in_set", column, rule, column, arg=sorted(values))


def _matches(column: str, regex: str, rule: str) -> _Check:
    return _Check("regex", column, rule, column, arg=regex)


def _unique(column: str) -> _Check:
    return _Check("unique", column, f"{column} must be unique", column)


def _computed(frame: pd.DataFrame, name: str, messages: Sequence[str], label: str | None,
              found: Sequence[str] | None = None) -> _Check:
    """Add a per-row message column (empty = fine) and a boolean column GE expects to be True."""
    frame[f"__msg_{name}"] = list(messages)
    frame[f"__ok_{name}"] = frame[f"__msg_{name}"] == ""
    found_column = label
    if found is not None:
        found_column = f"__found_{name}"
        frame[found_column] = list(found)
    return _Check("in_set", f"__ok_{name}", f"__msg_{name}", label, found_column, [True], rule_in_column=True)


def _records(frame: pd.DataFrame) -> list[Mapping[str, str]]:
    """The rows of a table read with ``dtype=str, keep_default_na=False``: its own columns hold only str (the rules
    read those, not the ``__ok_``/``__msg_`` columns the checks add)."""
    return cast("list[Mapping[str, str]]", frame.to_dict("records"))


def _row_messages(frame: pd.DataFrame, fn: Callable[[Mapping[str, str]], str]) -> list[str]:
    return [fn(row) for row in _records(frame)]


# ---- great_expectations, lazily


@functools.cache
def _batch_definition() -> Any:
    import great_expectations as gx
    from great_expectations.data_context.types.base import ProgressBarsConfig

    context = gx.get_context(mode="ephemeral")
    context.variables.progress_bars = ProgressBarsConfig(globally=False, metric_calculations=False)
    asset = context.data_sources.add_pandas("gpu_factcheck").add_dataframe_asset("table")
    return asset.add_batch_definition_whole_dataframe("whole")


def _expectation(check: _Check, index: int) -> Any:
    import great_expectations.expectations as gxe

    meta = {"check": index}
    if check.expect == "exists":
        return gxe.ExpectColumnToExist(column=check.column, meta=meta)
    if check.expect == "in_set":
        return gxe.ExpectColumnValuesToBeInSet(column=check.column, value_set=check.arg, meta=meta)
    if check.expect == "regex":
        return gxe.ExpectColumnValuesToMatchRegex(column=check.column, regex=check.arg, meta=meta)
    if check.expect == "unique":
        return gxe.ExpectColumnValuesToBeUnique(column=check.column, meta=meta)
    return gxe.ExpectCompoundColumnsToBeUnique(column_list=list(check.arg), meta=meta)


def _run_suite(table: str, frame: pd.DataFrame, checks: Sequence[_Check]) -> list[Problem]:
    """Validate ``frame`` with one GE suite; turn each unexpected row into a Problem."""
    import great_expectations as gx

    if not checks:
        return []
    suite = gx.ExpectationSuite(name=table, expectations=[_expectation(c, i) for i, c in enumerate(checks)])
    batch = _batch_definition().get_batch(batch_parameters={"dataframe": frame})
    outcome = batch.validate(suite, result_format="COMPLETE")
    problems: list[Problem] = []
    for result in outcome.results:
        if not result.success:
            check = checks[int(result.expectation_config.meta["check"])]
            problems += _problems(table, frame, check, result)
    return problems


def _problems(table: str, frame: pd.DataFrame, check: _Check, result: Any) -> list[Problem]:
    if check.expect == "exists":
        columns = ", ".join(map(str, frame.columns))
        return [Problem(table, None, check.rule, check.label, f"columns: {columns}")]
    rows = result.result.get("unexpected_index_list")
    if rows is None:  # the expectation itself failed to run
        return [Problem(table, None, f"could not check {check.column}: {_exception_message(result)}",
                        check.label, "")]
    return [_row_problem(table, frame, check, int(row)) for row in rows]


def _row_problem(table: str, frame: pd.DataFrame, check: _Check, row: int) -> Problem:
    rule = str(frame.at[row, check.rule]) if check.rule_in_column else check.rule
    if check.expect == "compound_unique":
        found = " / ".join(str(frame.at[row, c]) for c in check.arg)
    else:
        found = str(frame.at[row, check.found or check.label or check.column])
    return Problem(table, row, rule, check.label, found)


def _exception_message(result: Any) -> str:
    info = result.exception_info or {}
    infos = [info] if "exception_message" in info else list(info.values())
    return "; ".join(str(i.get("exception_message")) for i in infos if isinstance(i, dict)) or "unknown error"
