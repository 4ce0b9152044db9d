"""Version consistency (check_variants.pin_variants): one card's unnamed figures in one article are of one version.

Each case asserts the complete claim list of a sentence written for the test. A figure is made ``misattributed``
only when figures of two other attributes agree on a version it is not of; one other attribute, a figure every
version shares, two capacities the versions are named by, or two odd figures say nothing.
"""

from __future__ import annotations

import pytest
from claim_helpers import M, P, S, claims_for, rows

H100, A100 = "nvidia_h100", "nvidia_a100"

CASES = [
    # SXM5's capacity and power, the NVL's FP32: the odd figure is the NVL's
    ("H100的显存为80GB HBM3，功耗700W，FP32算力为60 TFLOPS。",
     [("80GB", "memory_size", H100, P, S), ("HBM3", "memory_type", H100, P, S),
      ("700W", "tdp", H100, P, S), ("60 TFLOPS", "fp32", H100, P, M)]),
    # the same article with the SXM5's FP32: one version throughout
    ("H100的显存为80GB HBM3，功耗700W，FP32算力为67 TFLOPS。",
     [("80GB", "memory_size", H100, P, S), ("HBM3", "memory_type", H100, P, S),
      ("700W", "tdp", H100, P, S), ("67 TFLOPS", "fp32", H100, P, S)]),
    # only one other attribute pins a version: too little to say the article mixes versions
    ("H100的功耗为700W，FP32算力为60 TFLOPS。",
     [("700W", "tdp", H100, P, S), ("60 TFLOPS", "fp32", H100, P, S)]),
    # the version is named: the figures are checked against the NVL's row, and they are its figures
    ("H100 NVL的显存为94GB HBM3，功耗400W，FP32算力为60 TFLOPS。",
     [("94GB", "memory_size", H100, P, S), ("HBM3", "memory_type", H100, P, S),
      ("400W", "tdp", H100, P, S), ("60 TFLOPS", "fp32", H100, P, S)]),
    # two capacities the versions are named by: the article speaks of several versions
    ("A100最初配备40GB显存，后来推出80GB版本，带宽1555GB/s，功耗400W。",
     [("40GB", "memory_size", A100, P, S), ("80GB", "memory_size", A100, P, S),
      ("1555GB/s", "memory_bandwidth", A100, P, S), ("400W", "tdp", A100, P, S)]),
    # HBM2e and 400W are of several versions, and 1.6 TB/s of the 40GB ones: no single odd figure
    ("A100配备HBM2e显存，带宽1.6TB/s，功耗400W。",
     [("HBM2e", "memory_type", A100, P, S), ("1.6TB/s", "memory_bandwidth", A100, P, S),
      ("400W", "tdp", A100, P, S)]),
    # 80GB and 400W pin the 80GB SXM4; 1555 GB/s is the 40GB versions' bandwidth
    ("A100配备80GB HBM2e显存，带宽1555GB/s，功耗400W。",
     [("80GB", "memory_size", A100, P, S), ("HBM2e", "memory_type", A100, P, S),
      ("1555GB/s", "memory_bandwidth", A100, P, M), ("400W", "tdp", A100, P, S)]),
    # the capacity itself is never the odd one: it picks the version
    ("A100的带宽为1555GB/s，功耗400W，显存80GB。",
     [("1555GB/s", "memory_bandwidth", A100, P, M), ("400W", "tdp", A100, P, S),
      ("80GB", "memory_size", A100, P, S)]),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_claims(text: str, expected: list[tuple[str, ...]]) -> None:
    assert rows(claims_for(text)) == expected


@pytest.mark.parametrize(("text", "fragment", "explanation", "expected"), [
    ("H100的显存为80GB HBM3，功耗700W，FP32算力为60 TFLOPS。", "60 TFLOPS",
     "文中NVIDIA H100的其他规格（“80GB”、“700W”）都是SXM5版的数值，而“60 TFLOPS”是NVL版的FP32算力；"
     "SXM5版应为67 TFLOPS，前后版本不一致。", "67 TFLOPS"),
    ("A100配备80GB HBM2e显存，带宽1555GB/s，功耗400W。", "1555GB/s",
     "文中NVIDIA A100的其他规格（“80GB”、“400W”）都是80GB SXM4版的数值，而“1555GB/s”是40GB PCIe/40GB SXM4版的"
     "显存带宽；80GB SXM4版应为2039 GB/s，前后版本不一致。", "2039 GB/s"),
])
def test_explanation(text: str, fragment: str, explanation: str, expected: str) -> None:
    claim = next(c for c in claims_for(text) if c.text == fragment)
    assert claim.check is not None
    assert (claim.check.explanation, claim.check.expected) == (explanation, expected)
    assert claim.check.source and claim.check.source.startswith("http")


def test_documents_apart() -> None:
    """The version is pinned per document: figures of two articles are never weighed together."""
    first = claims_for("H100的显存为80GB HBM3，功耗700W。", doc_id="a.txt")
    second = claims_for("H100的FP32算力为60 TFLOPS。", doc_id="b.txt")
    assert rows(first) + rows(second) == [
        ("80GB", "memory_size", H100, P, S), ("HBM3", "memory_type", H100, P, S), ("700W", "tdp", H100, P, S),
        ("60 TFLOPS", "fp32", H100, P, S)]
