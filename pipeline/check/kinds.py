"""The checks of the claim kinds that compare, compute or recount (relative, derived and historical claims), by
attribute: one registry, so ``check.check_claim`` needs one dispatch line for all of them."""

from __future__ import annotations

from collections.abc import Callable

from ..config import Tolerance
from ..extract.derived import DERIVED_ATTRIBUTES
from ..extract.history import HISTORY_ATTRIBUTES
from ..extract.labels import LABEL_ATTRIBUTES
from ..extract.lineage import LINEAGE_ATTRIBUTES
from ..extract.links import LINK_ATTRIBUTES
from ..extract.relative import RELATIVE_ATTRIBUTES
from ..extract.support import SUPPORT_ATTRIBUTES
from ..extract.terms import TERM_ATTRIBUTES
from ..extract.timely import TIME_ATTRIBUTES
from ..knowledge.reference import Reference
from ..records import Check, Claim
from .derived import check_derived
from .history import check_history
from .labels import check_label
from .lineage import COUNT_ATTRIBUTES, check_lineage
from .relative import check_relative
from .support import check_cooling, check_supports
from .terms import check_term_fact
from .timely import check_timely

CHECKS: dict[str, Callable[[Claim, Reference, Tolerance], Check | None]] = {
    **dict.fromkeys(RELATIVE_ATTRIBUTES, check_relative),
    **dict.fromkeys(HISTORY_ATTRIBUTES, check_history),
    **dict.fromkeys(DERIVED_ATTRIBUTES, check_derived),
    "memory_data_rate": check_derived,  # recomputed from the card's bandwidth and bus width
    **dict.fromkeys(SUPPORT_ATTRIBUTES, check_supports),
    **dict.fromkeys(TERM_ATTRIBUTES | LINK_ATTRIBUTES, check_term_fact),
    **dict.fromkeys(LINEAGE_ATTRIBUTES | COUNT_ATTRIBUTES, check_lineage),
    **dict.fromkeys(LABEL_ATTRIBUTES, check_label),
    **dict.fromkeys(TIME_ATTRIBUTES, check_timely),
    "cooling": check_cooling,
}
KIND_ATTRIBUTES = frozenset(CHECKS)


def check_kind(claim: Claim, ref: Reference, tol: Tolerance | None = None) -> Check | None:
    """The verdict on a relative, derived, historical or relation-table claim; None for any other attribute (or a
    claim its check leaves to the figure checks)."""
    check = CHECKS.get(claim.attribute)
    return check(claim, ref, tol or Tolerance()) if check is not None else None
