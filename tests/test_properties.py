"""Properties of ingest, number parsing and extraction for any text, and for text full of GPU vocabulary."""

from __future__ import annotations

import math

import cn2an
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline import check_text
from pipeline.api import analyse, document_from_text
from pipeline.config import Config
from pipeline.errors import InputError
from pipeline.extract.quantities import find_quantities, parse_number
from pipeline.ingest import parse_text
from pipeline.knowledge.reference import Reference
from pipeline.normalize import normalize
from pipeline.records import Claim, Format, Verdict

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
VERDICTS = {v.value for v in Verdict}
FORMATS = [Format.TXT, Format.MD, Format.HTML]

# fmt: off
PRODUCTS = ["A100", "H100", "RTX 4090", "RTX4090", "MI300X", "L40S", "T4", "H800", "A800", "特斯拉P4", "Ａ１００",
            "H100 SXM", "A100 80GB", "英伟达", "NVIDIA", "AMD", "辉达"]
WORDS = ["显存", "带宽", "显存带宽", "功耗", "CUDA核心", "流处理器", "Tensor Core", "配备", "拥有", "采用", "架构",
         "HBM3", "HBM2e", "GDDR6X", "GDDR6", "NVLink", "PCIe 4.0 x16", "张", "卡", "双", "8卡", "一共", "合计",
         "每秒", "的", "为", "是", "Hopper", "Ada Lovelace", "CDNA 3", "L2缓存", "位宽", "发布于", "FP8", "INT8"]
TRADITIONAL = ["顯存", "頻寬", "記憶體", "個", "架構", "處理器", "輝達", "顯示卡", "核心數", "發佈"]
UNITS = ["GB", "GB/s", "TB/s", "Gb/s", "MB", "TB", "W", "kW", "瓦", "个", "bit", "TFLOPS", "年", "%", "倍"]
HEDGES = ["约", "大约", "高达", "最高", "超过", "不到", "至少", "左右", "以上", "以内", "多", "到", "至", "~", "或"]
PUNCT = ["。", "，", "、", "；", "：", "！", "？", "（", "）", "“", "”", "《", "》", ".", ",", ":", " ", "  ", "\n",
         "\n\n", "\r\n", "\t", "|", "| --- |", "#", "# ", "```", "```python\n", "<p>", "</p>", "<td>", "<table>",
         "<br>", "<script>", "-", "•", "1. ", "一、", "print(", ")", "import torch\n", "x = 1\n"]
CN_NUMBERS = ["一", "两", "八", "十六", "两千五百六十", "一万", "三点三五", "八十", "七百"]
# fmt: on


def _wide(s: str) -> str:
    """Full-width digits and letters, as some articles write them."""
    return "".join(chr(ord(ch) + 0xFEE0) if ch.isascii() and ch.isalnum() else ch for ch in s)


NUMBERS = st.one_of(
    st.integers(0, 100_000).map(str),
    st.integers(1_000, 10_000_000).map("{:,}".format),
    st.decimals(0, 10_000, places=2, allow_nan=False, allow_infinity=False).map(str),
    st.sampled_from(CN_NUMBERS),
    st.integers(0, 100_000).map(str).map(_wide),
)
PIECES = st.one_of(
    st.sampled_from(PRODUCTS), st.sampled_from(WORDS), st.sampled_from(TRADITIONAL), st.sampled_from(UNITS),
    st.sampled_from(HEDGES), st.sampled_from(PUNCT), NUMBERS, st.sampled_from(PRODUCTS + UNITS).map(_wide),
    st.text(max_size=3),
)
# (verb, unit, words after the unit): the shapes of spec statements, so that most examples hold claims
SHAPES = [("配备", "GB", "显存"), ("配备了", "GB", "HBM3显存"), ("的显存容量为", "GB", ""), ("的功耗为", "W", ""),
          ("的TDP是", "W", ""), ("的显存带宽为", "TB/s", ""), ("的显存带宽为", "GB/s", ""), ("拥有", "个", "CUDA核心"),
          ("拥有", "个", "流处理器"), ("的显存位宽为", "bit", ""), ("的L2缓存为", "MB", ""), ("擁有", "GB", "顯存"),
          ("的記憶體頻寬為", "GB/s", ""), ("", "GB", "显存"), ("的", "W", "功耗")]
STATEMENT = st.tuples(
    st.sampled_from(PRODUCTS), st.sampled_from(SHAPES), st.sampled_from(["", "", *HEDGES]), NUMBERS,
    st.sampled_from(["。", "，", "\n", "；", "、", " "]),
).map(lambda t: f"{t[0]}{t[1][0]}{t[2]}{t[3]}{t[1][1]}{t[1][2]}{t[4]}")
# statements with noise between them (every example holds at least one statement), or the noise alone
GPU_TEXT = st.one_of(
    st.lists(st.tuples(STATEMENT, st.lists(PIECES, max_size=3).map("".join)).map("".join), min_size=1,
             max_size=10).map("".join),
    st.lists(PIECES, max_size=30).map("".join),
)
ANY_TEXT = st.one_of(st.text(max_size=200), GPU_TEXT)


def _finite(value: object) -> bool:
    if isinstance(value, (int, float)):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    return value is None or isinstance(value, str)


def assert_well_formed(claims: list[Claim], text: str, doc_id: str) -> None:
    for c in claims:
        assert 0 <= c.start <= c.end <= len(text), c
        assert text[c.start:c.end] == c.text, c
        assert c.doc_id == doc_id
        assert c.verdict is not None and c.verdict.value in VERDICTS, c
        assert _finite(c.value), c
        assert c.sentence_index >= 0
    ids = [c.claim_id for c in claims]
    assert all(ids) and len(set(ids)) == len(ids), ids


# ---------------------------------------------------------------- check_text

@pytest.fixture(scope="module", autouse=True)
def _warm(segmenter: object) -> None:
    """Load spaCy once, before hypothesis starts timing examples."""


@SETTINGS
@given(text=st.text())
def test_check_text_on_any_text(text: str) -> None:
    assert_well_formed(check_text(text, doc_id="any.txt"), text, "any.txt")


@SETTINGS
@given(text=GPU_TEXT)
def test_check_text_on_gpu_vocabulary(text: str) -> None:
    assert_well_formed(check_text(text, doc_id="gpu.txt"), text, "gpu.txt")


@SETTINGS
@given(text=ANY_TEXT, fmt=st.sampled_from(FORMATS))
def test_analyse_offsets_point_into_the_document_text(ref: Reference, text: str, fmt: Format) -> None:
    """For Markdown and HTML as well: offsets are into Document.text (the extracted text for HTML)."""
    doc = document_from_text(text, f"doc.{fmt.value}", fmt)
    claims, mentions = analyse(doc, ref, Config())
    assert_well_formed(claims, doc.text, doc.doc_id)
    assert all(isinstance(n, int) and n > 0 for counts in mentions.values() for n in counts.values())


# ---------------------------------------------------------------- ingest

@SETTINGS
@given(text=ANY_TEXT, fmt=st.sampled_from(FORMATS))
def test_parse_text_maps_or_raises_input_error(text: str, fmt: Format) -> None:
    try:
        doc = parse_text(text, fmt, doc_id=f"doc.{fmt.value}")
    except InputError:
        return
    if fmt is not Format.HTML:
        assert doc.text == text  # offsets are into the file itself
    n = len(doc.text)
    for b in doc.blocks:
        assert 0 <= b.start <= b.end <= n, b
    for table in doc.tables:
        assert 0 <= table.start <= table.end <= n, table
        for cell in (*table.header, *(c for row in table.rows for c in row)):
            assert doc.text[cell.start:cell.end] == cell.text, cell
    assert doc.title is None or isinstance(doc.title, str)


# ---------------------------------------------------------------- numbers and quantities

@SETTINGS
@given(text=ANY_TEXT)
def test_parse_number_returns_a_float_or_none(text: str) -> None:
    value = parse_number(text)
    assert value is None or isinstance(value, float)


@SETTINGS
@given(n=st.integers(0, 10**12), grouped=st.booleans())
def test_parse_number_reads_arabic_integers(n: int, grouped: bool) -> None:
    assert parse_number(f"{n:,}" if grouped else str(n)) == n


@SETTINGS
@given(n=st.integers(0, 10**8))
def test_parse_number_reads_chinese_numerals(n: int) -> None:
    assert parse_number(cn2an.an2cn(n)) == n


@SETTINGS
@given(text=ANY_TEXT)
def test_quantities_lie_within_the_text_and_are_finite(text: str) -> None:
    norm = normalize(text)
    for q in find_quantities(norm):
        assert 0 <= q.start <= q.num_start < q.end <= len(norm), q
        assert math.isfinite(q.low) and math.isfinite(q.high) and q.low <= q.high, q
