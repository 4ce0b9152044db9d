"""Claims and document results to store, shared by the tests of the state database and of what reads it."""

from __future__ import annotations

from typing import Any

from pipeline.records import Check, Claim, DocumentResult, Evidence, Status, Verdict

REF, PIPE = "ref-2024.06", "0.1.0"


def make_claim(doc_id: str, claim_id: str, text: str, verdict: Verdict | None, *,
               attribute: str = "memory_size", value: Any = 80, unit: str | None = "GB",
               subject: str | None = "a100-80gb", expected: str | None = None, evidence: Evidence | None = None,
               **extra: Any) -> Claim:
    sentence = f"据官方资料，{text}。"
    source = ("https://www.techpowerup.com/gpu-specs/x.c1", "TechPowerUp GPU Database: X") if (
        evidence is Evidence.DATABASE) else ("https://www.nvidia.com/a100", "A100 datasheet")
    check = Check(verdict, f"参考值为 {expected}" if expected else "与参考一致", expected, *source,
                  evidence=evidence) if verdict else None
    return Claim(doc_id=doc_id, start=6, end=6 + len(text), text=text, sentence=sentence, sentence_index=0,
                 subject=subject, subject_mention=subject and subject.upper(), attribute=attribute,
                 value=value, unit=unit, check=check, claim_id=claim_id, extra=dict(extra))


def make_result(doc_id: str, claims: tuple[Claim, ...] = (), *, sha256: str = "aa" * 32,
                text: str | None = None) -> DocumentResult:
    return DocumentResult(doc_id=doc_id, path=f"corpus/{doc_id}", format="md", sha256=sha256,
                          status=Status.OK, title="A100 与 H100 显存对比", text=text, claims=claims,
                          mentions={"products": {"A100": 2}, "vendors": {"NVIDIA": 1}})


def gpu_claims(doc_id: str) -> tuple[Claim, ...]:
    """Five claims, three of them flags."""
    return (
        make_claim(doc_id, f"{doc_id}-ok", "A100 配备 80GB HBM2e 显存", Verdict.SUPPORTED),
        make_claim(doc_id, f"{doc_id}-bw", "H100 的显存带宽为 2TB/s", Verdict.CONTRADICTED,
                   attribute="memory_bandwidth", value=2, unit="TB/s", subject="h100-sxm",
                   expected="3.35 TB/s"),
        make_claim(doc_id, f"{doc_id}-mi", "MI300X 由英伟达推出", Verdict.MISATTRIBUTED, attribute="vendor",
                   value="nvidia", unit=None, subject="mi300x", expected="AMD"),
        make_claim(doc_id, f"{doc_id}-fp", "V100 的 FP64 算力约 30 TFLOPS", Verdict.CONTRADICTED,
                   attribute="fp64", value=30, unit="TFLOPS", subject="v100-sxm2", expected="7.8 TFLOPS",
                   evidence=Evidence.DATABASE),
        make_claim(doc_id, f"{doc_id}-tdp", "该卡功耗大约 300W", Verdict.UNVERIFIABLE, attribute="tdp",
                   value=300, unit="W", subject=None),
    )
