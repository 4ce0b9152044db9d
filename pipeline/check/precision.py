"""Throughput figures and their labels: the FP16 figures the reference does not keep (CUDA cores, FP32 accumulate),
and a figure that is the same card's for another precision or sparsity (a precision-label error)."""

from __future__ import annotations

from dataclasses import replace

from ..config import Tolerance
from ..knowledge.reference import NUMERIC_ATTRIBUTES, Reference, SpecRow
from ..records import Claim, Qualifier
from .compare import expected_text, numeric_fits, per_card, quoted


def other_fp16_figure(claim: Claim, ref: Reference, rows: list[SpecRow], tol: Tolerance) -> str | None:
    """FP16 has several peak figures per card and the reference keeps the Tensor Core one: on the CUDA cores it
    runs at 1, 2 or 4 times the FP32 rate, and GeForce cards quote Tensor Core FP16 with FP32 accumulation at half
    the rate (data-centre cards accumulate in FP32 at full rate). A stated figure that is one of those is not shown
    wrong by the table: say so, do not flag it."""
    members = ref.members(claim.subject or "")
    fp32 = [float(r.value) * claim.multiplier for pid in members for r in ref.rows(pid, "fp32")
            if r.scope in ("", "dense")]
    alternatives = [x * k for x in fp32 for k in (1, 2, 4)]
    if any("consumer" in ref.products[p].positioning for p in members if p in ref.products):
        alternatives += [float(r.value) * claim.multiplier / 2 for r in rows]
    exact = replace(claim, qualifier=Qualifier.EXACT)
    if claim.detail == "sparse" or not alternatives or not numeric_fits(exact, alternatives, tol):
        return None
    name = ref.name(claim.subject or "")
    return (f"参考表收录的是{name}经 Tensor Core 的 {claim.attribute.upper()} 算力（{expected_text(rows)}）；文中数值"
            f"“{quoted(claim)}”与 CUDA 核心上的 FP16 算力或 FP32 累加的 Tensor Core 算力相符，参考表未收录这种口径，"
            "无法核实。")



_PRECISION_ZH = {"fp64": "FP64", "fp32": "FP32", "tf32": "TF32", "fp16": "FP16", "bf16": "BF16", "fp8": "FP8",
                 "int8": "INT8", "fp6": "FP6", "fp4": "FP4", "int4": "INT4"}


def other_precision(claim: Claim, ref: Reference, tol: Tolerance) -> str | None:
    """The precision and sparsity a throughput figure belongs to when it is not the stated one's: "FP16 1321
    TFLOPS（稀疏）" on an RTX 4090 is its FP8 sparse figure, "INT8稠密466 TOPS" an RTX 4070's sparse INT8. Only an
    exact match with the same card's published figure counts."""
    one = replace(claim, qualifier=Qualifier.EXACT, multiplier=1, value=per_card(claim))
    labels: list[str] = []
    for attr in (a for a in _PRECISION_ZH if a in NUMERIC_ATTRIBUTES):
        for pid in ref.members(claim.subject or ""):
            for r in ref.rows(pid, attr):
                if attr == claim.attribute and not _other_sparsity(claim, r):
                    continue
                if isinstance(r.value, float) and numeric_fits(replace(one, attribute=attr), [r.value], tol):
                    sparse = "（稀疏）" if r.scope == "sparse" else "（稠密）" if r.scope == "dense" and attr == \
                        claim.attribute else ""
                    labels.append(f"{_PRECISION_ZH[attr]}{sparse}")
    return "或".join(dict.fromkeys(labels)) or None


def _other_sparsity(claim: Claim, row: SpecRow) -> bool:
    """The row is the same precision's figure with the other sparsity than the text states."""
    return (claim.detail == "dense" and row.scope == "sparse") or (claim.detail == "sparse" and row.scope in
                                                                   ("", "dense", "tensor"))


