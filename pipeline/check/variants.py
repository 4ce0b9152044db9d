"""One card's figures in one article are of one version of it.

A claim that names no variant ("H100的FP32为60 TFLOPS") is supported when any version of the card has the figure.
When the article's other figures for that card, also unnamed, agree on one version and this figure is only another
version's (700W and 80GB HBM3 are the SXM5's, 60 TFLOPS only the NVL's), the article mixes versions: the figure is
``misattributed``, and the explanation names the figures that pin the version.

Only certain evidence counts: supported, exact, product-scoped figures of a certain owner, of at least two other
attributes, each saying something about the version (a figure every version shares says nothing), all agreeing.
The odd figure must be the only one: when two figures are each odd against the rest, which version is meant is not
clear and nothing is said. An article that names two of the capacities the versions are named by (A100 40GB, later
the 80GB version) speaks of several versions, and nothing is pinned; such a capacity picks a version and is never
the odd figure itself.
"""

from __future__ import annotations

from dataclasses import replace

from ..config import Tolerance
from ..knowledge.reference import NUMERIC_ATTRIBUTES, Reference
from ..lexicon.labels import attribute_label
from ..records import UNCERTAIN_OWNERS, Check, Claim, Evidence, Qualifier, Scope, Verdict
from .compare import candidate_rows, expected_text, numeric_fits, quoted, text_fits

# what a version differs in, as the reference keeps it (text attributes by their value, the rest by number)
_TEXT = frozenset({"memory_type"})


def _versions(claim: Claim, ref: Reference, tol: Tolerance) -> tuple[frozenset[str], frozenset[str]]:
    """(the versions whose figure the claim states, the versions that have a figure for the attribute)."""
    rows = candidate_rows(ref, claim)
    if claim.attribute in _TEXT:
        hit = text_fits(claim, rows)
    else:
        hit = [r for r in rows if numeric_fits(claim, [float(r.value)], tol)]
    return frozenset(r.variant for r in hit), frozenset(r.variant for r in rows)


def _evidence(claim: Claim, ref: Reference) -> bool:
    return (claim.check is not None and claim.check.verdict is Verdict.SUPPORTED and claim.variant is None
            and claim.subject in ref.products and claim.scope is Scope.PRODUCT and claim.multiplier <= 1
            and claim.qualifier is Qualifier.EXACT and claim.extra.get("via", "explicit") not in UNCERTAIN_OWNERS
            and (claim.attribute in NUMERIC_ATTRIBUTES or claim.attribute in _TEXT))


def _names_version(claim: Claim, ref: Reference) -> bool:
    """A capacity the card's versions are named by ("80GB" of the A100's "80GB SXM4")."""
    if claim.attribute != "memory_size" or not isinstance(claim.value, (int, float)):
        return False
    size = f"{claim.value:g}GB"
    return any(size in r.variant.replace(" ", "") for r in ref.rows(claim.subject or "", "memory_size"))


def pin_variants(claims: list[Claim], ref: Reference, tol: Tolerance | None = None) -> list[Claim]:
    """The claims of one document, with a figure of another version than the one the rest pin made
    ``misattributed``."""
    tol = tol or Tolerance()
    said: dict[str, list[tuple[int, frozenset[str], frozenset[str]]]] = {}
    for i, c in enumerate(claims):
        if _evidence(c, ref) and len({r.variant for r in ref.rows(c.subject or "", c.attribute)}) > 1:
            fits, having = _versions(c, ref, tol)
            if fits and fits != having:  # a figure all versions share says nothing about the version
                said.setdefault(c.subject or "", []).append((i, fits, having))
    out = list(claims)
    for group in said.values():
        if len({claims[i].value for i, _f, _h in group if _names_version(claims[i], ref)}) > 1:
            continue  # "A100 40GB…之后推出的80GB版本": the article speaks of several versions
        odd: list[tuple[int, frozenset[str], frozenset[str], list[Claim]]] = []
        for i, fits, having in group:
            if _names_version(claims[i], ref):
                continue  # "80GB" picks the A100 80GB: a choice of version, not a figure of the wrong one
            others = [(j, f) for j, f, _h in group if j != i and claims[j].attribute != claims[i].attribute]
            if len({claims[j].attribute for j, _f in others}) < 2:
                continue
            pinned = frozenset.intersection(*(f for _j, f in others)) & having
            if pinned and not pinned & fits:
                odd.append((i, pinned, fits, [claims[j] for j, _f in others]))
        if len(odd) == 1:  # two figures each odd against the rest: which version is meant is not clear
            i, pinned, fits, by = odd[0]
            out[i] = replace(claims[i], check=_mixed(claims[i], ref, pinned, fits, by))
    return out


def _mixed(claim: Claim, ref: Reference, pinned: frozenset[str], fits: frozenset[str], by: list[Claim]) -> Check:
    name = ref.name(claim.subject or "")
    attr_zh = attribute_label(claim.attribute)
    rows = [r for r in candidate_rows(ref, claim) if r.variant in pinned]
    version = "/".join(sorted(pinned))
    evidence = "、".join(dict.fromkeys(f"“{quoted(c)}”" for c in by))
    return Check(Verdict.MISATTRIBUTED,
                 f"文中{name}的其他规格（{evidence}）都是{version}版的数值，而“{quoted(claim)}”是"
                 f"{'/'.join(sorted(fits))}版的{attr_zh}；{version}版应为{expected_text(rows)}，前后版本不一致。",
                 expected_text(rows), rows[0].source_url, rows[0].source_title, evidence=Evidence.VENDOR)
