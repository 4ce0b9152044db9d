"""pipeline.evaluate gives the same figures, items and report as shared/acceptance/score.py."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.errors import UsageError
from pipeline.evaluate import (
    Score,
    format_report,
    load_source_texts,
    overlaps,
    parse_kv,
    score_claims,
    score_files,
)

Pairs = list[tuple[str, str]]
SCORE_PY = Path(__file__).resolve().parents[2] / "shared/acceptance/score.py"

# fmt: off
TEXT_A = "\ufeffA100配备6912个CUDA核心，\r\n显存带宽为1555GB/s。V100有640个Tensor Core，640个！\r\n"
TEXT_B = "| 型号 | 显存 |\n|---|---|\n| T4 | 16GB |\n| L4 | 24GB |\nT4功耗70W，L4功耗72W。\n"
TEXT_C = "H100 SXM5的TDP为700W，NVLink带宽900GB/s。"
TEXT_D_RAW = "<html><nav>首页</nav><article><p>RX 6900 XT有128MB Infinity Cache。</p></article></html>"
TEXT_D = "RX 6900 XT有128MB Infinity Cache。"
TEXT_E = "这里没有金标准，只有一句RTX 4090有16384个CUDA核心。"
# fmt: on


def _gold(doc: str, quote: str, label: str, **extra: Any) -> dict[str, Any]:
    g = {"doc_id": doc, "quote": quote, "subject": "X", "attribute": "attr", "stated": quote,
         "truth": "t", "label": label, "error_type": extra.pop("error_type", None), "tier": "core"}
    g.update(extra)
    return g


GOLD = [
    _gold("a.txt", "6912个CUDA核心", "true"),
    _gold("a.txt", "1555GB/s", "false", error_type="wrong_bandwidth"),
    _gold("a.txt", "640个", "false", error_type="wrong_number", tier="stretch"),  # occurs twice
    _gold("./b.md", "| 16GB", "true", form="table"),
    _gold("b.md", "| 24GB", "false", error_type="wrong_number", form="table"),
    _gold("b.md", "70W", "true"),
    _gold("b.md", "72W", "True", tier="stretch"),
    _gold("sub/c.txt", "700W", "true"),
    _gold("sub\\c.txt", "900GB/s", "false", error_type="wrong_bandwidth"),
    _gold("d.html", "128MB", "true"),
    _gold("d.html", "Infinity Cache", "true"),
    _gold("missing.txt", "whatever", "true"),
    _gold("a.txt", "not in the text", "false", error_type="wrong_number"),
    _gold("a.txt", "", "true"),
]


def _claim(doc: str, start: int, end: int, verdict: Any, **extra: Any) -> str:
    return json.dumps({"doc_id": doc, "start": start, "end": end, "verdict": verdict, **extra},
                      ensure_ascii=False)


def _span(text: str, quote: str) -> tuple[int, int]:
    text = text.removeprefix("\ufeff")
    s = text.index(quote)
    return s, s + len(quote)


def _claim_lines(corpus: Path) -> list[str]:
    a, b, c, d = TEXT_A, TEXT_B, TEXT_C, TEXT_D
    s, e = _span(a, "6912")
    lines = [
        _claim("a.txt", s, e, "supported"),
        _claim("./a.txt", *_span(a, "1555"), " Contradicted "),
        _claim(str(corpus / "a.txt"), *[_span(a, "640个")[0]] * 2, "MISATTRIBUTED"),  # empty span
        _claim("a.txt", _span(a, "640个！")[0], _span(a, "640个！")[1], "contradicted"),  # second 640: stray
        "",
        "   ",
        _claim("b.md", *_span(b, "16GB"), "SUPPORTED "),
        _claim("b.md", *_span(b, "| 16GB"), "contradicted"),  # false alarm
        _claim("b.md", *[_span(b, "24GB")[1]] * 2, "contradicted"),  # empty span just after
        _claim("b.md", *[_span(b, "70W")[0] - 1] * 2, "contradicted"),  # empty span just before
        _claim("b.md", *_span(b, "72W"), None),  # a null verdict is a flag
        _claim("b.md", *_span(b, "72W"), "unverifiable"),
        _claim("sub\\c.txt", *_span(c, "900GB/s"), "code_issue", attribute="code"),  # dropped by --skip
        _claim("sub/c.txt", *_span(c, "900GB/s"), "contradicted"),
        _claim("sub/c.txt", 0, 40, "contradicted", attribute="aggregate"),  # whole sentence
        _claim("d.html", *_span(d, "128MB"), "supported"),
        _claim("d.html", 0, 3, "contradicted", attribute="code"),
        _claim("e.txt", *_span(TEXT_E, "16384"), "contradicted"),  # no gold in this doc
        _claim("nowhere.txt", 3, 7, "contradicted"),
        _claim("a.txt", -5, -1, "contradicted"),
        _claim("a.txt", "3", "9", "Contradicted"),  # numeric strings are read as numbers
        "{not json",
        json.dumps({"doc_id": "a.txt", "start": 1, "end": 2}),
        json.dumps({"doc_id": "a.txt", "start": "x", "end": 2, "verdict": "supported"}),
        json.dumps([1, 2, 3]),
        json.dumps({"doc_id": "a.txt", "start": None, "end": 2, "verdict": "supported"}),
        json.dumps({"doc_id": "a.txt", "start": 2.5, "end": 4.9, "verdict": "contradicted"}),
        "null",
        json.dumps({"start": 1, "end": 2, "verdict": "contradicted"}),
    ]
    return lines


def _write_case(root: Path, gold: list[dict[str, Any]], lines: list[str], *, documents: bool = True) -> None:
    corpus = root / "corpus"
    (corpus / "sub").mkdir(parents=True)
    (corpus / "a.txt").write_bytes(TEXT_A.encode("utf-8"))
    (corpus / "b.md").write_text(TEXT_B, encoding="utf-8", newline="")
    (corpus / "sub" / "c.txt").write_text(TEXT_C, encoding="utf-8")
    (corpus / "d.html").write_text(TEXT_D_RAW, encoding="utf-8")
    (corpus / "e.txt").write_text(TEXT_E, encoding="utf-8")
    (root / "gold.json").write_text(json.dumps(gold, ensure_ascii=False), encoding="utf-8")
    (root / "out").mkdir()
    (root / "out" / "claims.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    if documents:
        docs = [{"doc_id": "a.txt", "status": "ok"}, "not json",
                {"doc_id": "./d.html", "text": "stale text"}, {"doc_id": "d.html", "text": TEXT_D}]
        (root / "out" / "documents.jsonl").write_text(
            "\n".join(d if isinstance(d, str) else json.dumps(d, ensure_ascii=False) for d in docs) + "\n",
            encoding="utf-8")


def _run_score_py(root: Path, extra: list[str], *, want_json: bool = True) -> subprocess.CompletedProcess:
    if not SCORE_PY.is_file():
        pytest.skip(f"the acceptance scorer is not at {SCORE_PY}")
    args = [sys.executable, str(SCORE_PY), str(root / "gold.json"), str(root / "corpus"),
            str(root / "out" / "claims.jsonl"), *extra]
    if want_json:
        args.append("--json")
    done = subprocess.run(args, capture_output=True, text=True, encoding="utf-8", check=False)
    assert done.returncode == 0, done.stderr
    return done


def _ours(root: Path, where: Pairs, skip: Pairs) -> Score:
    claims = root / "out" / "claims.jsonl"
    return score_files(root / "gold.json", root / "corpus", claims, where=where, skip=skip)


def _cli_args(where: Pairs, skip: Pairs) -> list[str]:
    args = []
    for k, v in where:
        args += ["--where", f"{k}={v}"]
    for k, v in skip:
        args += ["--skip", f"{k}={v}"]
    return args


# fmt: off
FILTERS = [
    ([], []),
    ([("tier", "core")], []),
    ([("tier", "stretch")], [("attribute", "code")]),
    ([], [("attribute", "code"), ("verdict", "None")]),
    ([("tier", "core"), ("form", "table")], []),
    ([("error_type", "None")], [("attribute", "aggregate")]),
]
# fmt: on


@pytest.mark.parametrize(("where", "skip"), FILTERS)
def test_same_json_as_score_py(tmp_path: Path, where: Pairs, skip: Pairs) -> None:
    _write_case(tmp_path, GOLD, _claim_lines(tmp_path / "corpus"))
    expected = json.loads(_run_score_py(tmp_path, _cli_args(where, skip)).stdout)
    assert _ours(tmp_path, where, skip).to_dict() == expected


@pytest.mark.parametrize(("where", "skip"), FILTERS[:3])
def test_same_report_as_score_py(tmp_path: Path, where: Pairs, skip: Pairs) -> None:
    _write_case(tmp_path, GOLD, _claim_lines(tmp_path / "corpus"))
    expected = _run_score_py(tmp_path, _cli_args(where, skip), want_json=False).stdout
    assert format_report(_ours(tmp_path, where, skip)) + "\n" == expected


def test_case_exercises_every_outcome(tmp_path: Path) -> None:
    """Guard against a fixture that stops covering what the comparison relies on."""
    _write_case(tmp_path, GOLD, _claim_lines(tmp_path / "corpus"))
    score = _ours(tmp_path, [], [])
    assert score.caught and score.missed and score.false_alarms and score.confirmed and score.stray_flags
    assert score.claims_unusable > 5
    assert any("occurs 2 times" in w for w in score.warnings)
    assert any("more unusable" in w for w in score.warnings)
    assert score.per_doc["d.html"]["confirmed"] == 1  # offsets into documents.jsonl's text, the later line
    assert score.summary_line() == score.to_dict()["summary"]


def test_without_documents_jsonl_offsets_are_into_the_raw_html(tmp_path: Path) -> None:
    _write_case(tmp_path, GOLD, _claim_lines(tmp_path / "corpus"), documents=False)
    expected = json.loads(_run_score_py(tmp_path, []).stdout)
    ours = _ours(tmp_path, [], [])
    assert ours.to_dict() == expected
    assert ours.per_doc["d.html"]["confirmed"] == 0


def test_parsed_records_score_like_lines(tmp_path: Path) -> None:
    _write_case(tmp_path, GOLD, [])
    lines = _claim_lines(tmp_path / "corpus")
    records = [json.loads(line) for line in lines if line.strip() and line.startswith("{\"doc_id")]
    texts = load_source_texts(tmp_path / "out" / "documents.jsonl")
    from_lines = score_claims(GOLD, tmp_path / "corpus", lines, source_texts=texts)
    from_records = score_claims(GOLD, tmp_path / "corpus", records, source_texts=texts)
    assert from_records.summary_line() == from_lines.summary_line()


def test_load_source_texts_keeps_text_lines_only(tmp_path: Path) -> None:
    _write_case(tmp_path, GOLD, [])
    texts = load_source_texts(tmp_path / "out" / "documents.jsonl")
    assert texts == {"./d.html": "stale text", "d.html": TEXT_D}
    assert load_source_texts(tmp_path / "nope.jsonl") == {}


@pytest.mark.parametrize(("items", "pairs"), [
    ([], []),
    (["tier=core"], [("tier", "core")]),
    (["form=table", "note=a=b"], [("form", "table"), ("note", "a=b")]),
    (["attribute="], [("attribute", "")]),
])
def test_parse_kv(items: list[str], pairs: list[tuple[str, str]]) -> None:
    assert parse_kv(items) == pairs


@pytest.mark.parametrize("bad", ["tier", "=core", ""])
def test_parse_kv_rejects_with_a_hint(bad: str) -> None:
    with pytest.raises(UsageError, match="KEY=VALUE"):
        parse_kv(["tier=core", bad])


@pytest.mark.parametrize(("a", "b", "expected"), [
    ((0, 3), (3, 5), False), ((0, 4), (3, 5), True), ((3, 3), (3, 5), True), ((5, 5), (3, 5), False),
    ((2, 2), (2, 2), True), ((4, 2), (4, 5), True), ((2, 3), (0, 0), False), ((0, 1), (0, 0), True),
])
def test_overlaps(a: tuple[int, int], b: tuple[int, int], expected: bool) -> None:
    assert overlaps(*a, *b) is expected
    assert overlaps(*b, *a) is expected


def test_missing_inputs_raise_usage_error(tmp_path: Path) -> None:
    _write_case(tmp_path, GOLD, [])
    with pytest.raises(UsageError, match="corpus directory"):
        score_files(tmp_path / "gold.json", tmp_path / "nope", tmp_path / "out" / "claims.jsonl")
    with pytest.raises(UsageError, match="claims file"):
        score_files(tmp_path / "gold.json", tmp_path / "corpus", tmp_path / "nope.jsonl")
    (tmp_path / "gold.json").write_text("{}", encoding="utf-8")
    with pytest.raises(UsageError, match="JSON list"):
        score_files(tmp_path / "gold.json", tmp_path / "corpus", tmp_path / "out" / "claims.jsonl")


# ---- random spans and verdicts, compared with score.py

VERDICTS = [
    "supported", "contradicted", "misattributed", "unverifiable", "code_issue",
    " Supported", "UNVERIFIABLE ", None,
]
DOCS = ["a.txt", "b.md", "./b.md", "e.txt", "nowhere.txt"]
PLAIN = {"a.txt": TEXT_A.removeprefix("\ufeff"), "b.md": TEXT_B, "e.txt": TEXT_E}


@st.composite
def gold_lists(draw: st.DrawFn) -> list[dict[str, Any]]:
    gold = []
    for _ in range(draw(st.integers(1, 8))):
        doc = draw(st.sampled_from(["a.txt", "b.md", "e.txt"]))
        text = PLAIN[doc]
        start = draw(st.integers(0, len(text) - 2))
        end = draw(st.integers(start + 1, min(len(text), start + 6)))
        label = draw(st.sampled_from(["true", "false"]))
        gold.append(_gold(doc, text[start:end], label, error_type=draw(st.sampled_from(["a", "b"])),
                          tier=draw(st.sampled_from(["core", "stretch"]))))
    return gold


@st.composite
def claim_line_lists(draw: st.DrawFn) -> list[str]:
    lines = []
    for _ in range(draw(st.integers(0, 12))):
        start = draw(st.integers(-2, 70))
        end = start + draw(st.integers(-1, 8))
        lines.append(_claim(draw(st.sampled_from(DOCS)), start, end, draw(st.sampled_from(VERDICTS)),
                            attribute=draw(st.sampled_from(["code", "tdp"]))))
    return lines


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(gold=gold_lists(), lines=claim_line_lists(), where=st.sampled_from([[], [("tier", "core")]]),
       skip=st.sampled_from([[], [("attribute", "code")]]))
def test_random_spans_match_score_py(
    gold: list[dict[str, Any]], lines: list[str], where: Pairs, skip: Pairs
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        _write_case(root, gold, lines)
        expected = json.loads(_run_score_py(root, _cli_args(where, skip)).stdout)
        assert _ours(root, where, skip).to_dict() == expected
