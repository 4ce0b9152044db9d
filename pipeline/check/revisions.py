"""Launch-day figures later revised (reference/revisions.csv): a figure the tables contradict that is the one the
vendor announced first is ``outdated``: still flagged, with both figures and both dates named."""

from __future__ import annotations

from dataclasses import replace

from ..config import Tolerance
from ..knowledge.reference import NUMERIC_ATTRIBUTES, Reference
from ..lexicon.labels import attribute_label, message
from ..records import Check, Claim, Qualifier, Verdict
from .compare import fmt, numeric_fits, unit_suffix


def outdated(claim: Claim, ref: Reference, tol: Tolerance) -> Check | None:
    """The outdated reading of a flagged figure, or None when it is no announced-then-revised figure."""
    if claim.attribute not in NUMERIC_ATTRIBUTES or not isinstance(claim.value, (int, float)):
        return None
    one = replace(claim, qualifier=Qualifier.EXACT if claim.qualifier is Qualifier.APPROX else claim.qualifier,
                  multiplier=1)
    for pid in ref.members(claim.subject or ""):
        for rev in ref.relations.revisions.get((pid, claim.attribute), []):
            if claim.detail in ("sparse", "dense") and rev.scope not in (claim.detail, ""):
                continue
            if claim.variant and rev.variant != "base" and rev.variant.lower() not in claim.variant.lower() and \
                    claim.variant.lower() not in rev.variant.lower():
                continue
            if not numeric_fits(one, [rev.announced], tol):
                continue
            unit = unit_suffix(claim.unit)
            words = {"name": ref.name(pid), "variant": f" {rev.variant}" if rev.variant != "base" else "",
                     "attribute": attribute_label(claim.attribute), "stated": claim.text.strip(),
                     "announced": f"{fmt(rev.announced)}{unit}", "announcedon": rev.announced_date,
                     "revised": f"{fmt(rev.revised)}{unit}", "revisedon": rev.revised_date}
            return Check(Verdict.CONTRADICTED, message("revision.outdated", **words), words["revised"],
                         rev.source.url, rev.source.title)
    return None
