"""A fence with no language (or a text one) holds code only when its lines read as code: a diagram, a tool's output or
a spec sheet in a fence is read as text, so its figures become claims; source code and shell sessions stay code.
Blocks written for the tests."""

from __future__ import annotations

import pytest

from pipeline.ingest import parse_text
from pipeline.records import BlockKind, Format
from tests.claim_helpers import P, S, claims_for, rows

# fmt: off
FENCES = [
    # (the fence's content, read as code)
    ("T4\n |\n +-- 40 SM\n |\n +-- 2560 CUDA 核心", False),
    ("GPU 0: Tesla T4 15360 MiB\nGPU 1: Tesla T4 15360 MiB", False),
    ("FP32: 8.1 TFLOPS\nINT8: 130 TOPS", False),
    ("T4 规格：\n显存：16GB GDDR6\n功耗：70W", False),
    ("import torch\nx = torch.zeros(3)\nprint(x)", True),
    ("__global__ void add(float* a) {\n  a[0] = 1;\n}", True),
    ("$ nvidia-smi -L", True),
    ("pip install torch==2.3.0", True),
    ("CUDA_VISIBLE_DEVICES=0,1 python train.py", True),
    ("model = AutoModel.from_pretrained('m')", True),
]
# fmt: on


@pytest.mark.parametrize(("inner", "code"), FENCES)
def test_a_fence_is_code_only_if_its_lines_are(inner: str, code: bool) -> None:
    text = f"# 说明\n\n```\n{inner}\n```\n"
    doc = parse_text(text, Format.MD, doc_id="t.md")
    assert any(b.kind is BlockKind.CODE for b in doc.blocks) is code


def test_a_diagram_in_a_fence_is_read() -> None:
    text = "## Tesla T4\n\n```\nTU104\n |\n +-- 40 SM\n |\n +-- 2560 CUDA 核心\n```\n"
    assert rows(claims_for(text, "t.md")) == [
        ("40", "sm_count", "nvidia_t4", P, S), ("2560", "cuda_cores", "nvidia_t4", P, S)]
