"""A figure's label checked as a claim of its own: is the figure the card's figure of the stated precision, of
the stated sparsity, in a unit that measures what the text says? A figure that is another precision's (FP32's for a
label FP16, where the card's FP16 rate on its CUDA cores makes the two differ) or the other sparsity's is labelled
wrongly (``contradicted``); a label the tables cannot settle is ``unverifiable`` (``no_fact``)."""

from __future__ import annotations

from dataclasses import replace

from ..config import Tolerance
from ..knowledge.reference import Reference, SpecRow
from ..lexicon.labels import message
from ..records import Check, Claim, Qualifier, Reason, Verdict
from .compare import fmt, numeric_fits

_ZH = {"fp64": "FP64", "fp32": "FP32", "tf32": "TF32", "fp16": "FP16", "bf16": "BF16", "fp8": "FP8", "fp6": "FP6",
       "fp4": "FP4", "int8": "INT8", "int4": "INT4"}
_SPARSITY_ZH = {"sparse": "稀疏", "dense": "稠密"}


def check_label(claim: Claim, ref: Reference, tol: Tolerance | None = None) -> Check:
    tol = tol or Tolerance()
    if claim.detail == "unit":
        return _unit(claim)
    subject = claim.subject or ""
    figure = claim.extra.get("figure")
    words = {"name": ref.name(subject), "figure": str(claim.extra.get("figure_text") or figure),
             "label": _label_zh(claim), "stated": claim.text.strip()}
    if subject not in ref.products or not isinstance(figure, (int, float)):
        return Check(Verdict.UNVERIFIABLE, message("label.no_fact", **words), reason=Reason.NO_FACT)
    as_figure = replace(claim, value=float(figure), qualifier=Qualifier.EXACT, unit=claim.extra.get("figure_unit"))
    if claim.detail == "sparsity":
        return _sparsity(claim, ref, as_figure, words, tol)
    return _precision(claim, ref, as_figure, words, tol)


def _label_zh(claim: Claim) -> str:
    value = str(claim.value)
    return _SPARSITY_ZH.get(value, value)


def _fitting(claim: Claim, attribute: str, rows: list[SpecRow], tol: Tolerance) -> list[SpecRow]:
    probe = replace(claim, attribute=attribute)
    return [r for r in rows if isinstance(r.value, float) and numeric_fits(probe, [r.value], tol)]


def _precision(claim: Claim, ref: Reference, figure: Claim, words: dict[str, str], tol: Tolerance) -> Check:
    stated = str(claim.value).lower()
    pid = claim.subject or ""
    own = ref.rows(pid, stated)
    fits = _fitting(figure, stated, own, tol)
    if fits:
        return Check(Verdict.SUPPORTED, message("label.ok", **words), _shown(fits), fits[0].source_url,
                     fits[0].source_title)
    others = [(attr, rows) for attr in _ZH if attr != stated and (rows := _fitting(figure, attr, ref.rows(pid, attr),
                                                                                   tol))]
    if not others:
        return Check(Verdict.UNVERIFIABLE, message("label.no_fact", **words), reason=Reason.NO_FACT)
    attr, rows = others[0]
    words["other"] = _ZH[attr] + (f"（{_SPARSITY_ZH[rows[0].scope]}）" if rows[0].scope in _SPARSITY_ZH else "")
    if stated == "fp16" and attr == "fp32":
        # FP32's figure is FP16's too where the CUDA cores run FP16 at FP32's rate; the tables' FP16 rows are the
        # Tensor Cores'
        rate = [r for r in ref.relations.product_status(pid, "FP16 rate", claim.variant) if r.status == "yes"]
        if not rate:
            return Check(Verdict.UNVERIFIABLE, message("label.no_fact", **words), reason=Reason.NO_FACT)
        num, _, den = rate[0].value.partition(":")
        factor = float(num) / float(den)
        words.update(rate=rate[0].value, expected=f"{float(rows[0].value) * factor:.3g} TFLOPS")
        source = (rate[0].source.url, rate[0].source.title)
        if factor == 1:
            return Check(Verdict.SUPPORTED, message("label.same_rate", **words), words["expected"], *source)
        return Check(Verdict.CONTRADICTED, message("label.fp16_rate", **words), words["expected"], *source)
    if own:
        words["expected"] = _shown(own)
        return Check(Verdict.CONTRADICTED, message("label.other_precision", **words), words["expected"],
                     rows[0].source_url, rows[0].source_title)
    return Check(Verdict.UNVERIFIABLE, message("label.no_fact", **words), reason=Reason.NO_FACT)


def _sparsity(claim: Claim, ref: Reference, figure: Claim, words: dict[str, str], tol: Tolerance) -> Check:
    attribute = str(claim.extra.get("figure_attribute") or "")
    rows = ref.rows(claim.subject or "", attribute)
    stated = str(claim.value)
    same = [r for r in rows if r.scope == stated or (stated == "dense" and r.scope in ("", "tensor"))]
    other = [r for r in rows if r.scope in ("sparse", "dense") and r not in same]
    words["precision"] = _ZH.get(attribute, attribute)
    if _fitting(figure, attribute, same, tol):
        return Check(Verdict.SUPPORTED, message("label.ok", **words), _shown(same), same[0].source_url,
                     same[0].source_title)
    flipped = _fitting(figure, attribute, other, tol)
    if flipped and same:
        words.update(other=_SPARSITY_ZH.get(flipped[0].scope, flipped[0].scope), expected=_shown(same))
        return Check(Verdict.CONTRADICTED, message("label.other_sparsity", **words), words["expected"],
                     flipped[0].source_url, flipped[0].source_title)
    return Check(Verdict.UNVERIFIABLE, message("label.no_fact", **words), reason=Reason.NO_FACT)


def _shown(rows: list[SpecRow]) -> str:
    return "、".join(dict.fromkeys(f"{fmt(float(r.value))} {r.unit}".strip() for r in rows))


def _unit(claim: Claim) -> Check:
    words = {"figure": str(claim.extra.get("figure_text") or claim.text), "cue": str(claim.extra.get("cue") or ""),
             "unit": str(claim.value), "stated": claim.text.strip()}
    return Check(Verdict.CONTRADICTED, message("label.unit", **words), "TFLOPS / TOPS")
