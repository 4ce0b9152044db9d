"""``python -m pipeline explain``: each claim with how it was read, then the numbers no claim covers (on a text
written for the test)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.config import Config
from pipeline.knowledge.reference import load_reference
from pipeline.run.explain import explain_text

TEXT = "显卡笔记\n\nRTX 4090拥有176个ROP单元，功耗为450W。另有一块散热片重1200克，编号7。\n"


def test_claims_and_unclaimed_numbers() -> None:
    exp = explain_text(TEXT, load_reference(Config().reference_dir))
    got = [(v.claim.text, v.claim.attribute, v.claim.subject, v.owner_via, v.claim.verdict.value if v.claim.verdict
            else None) for v in exp.claims]
    assert got == [
        ("176个", "rops", "nvidia_rtx_4090", "clause", "supported"),  # the database's (the tables have no ROPs)
        ("450W", "tdp", "nvidia_rtx_4090", "sentence", "supported"),
    ]
    rops = exp.claims[0]
    assert ("pipeline/lexicon/figures.csv:2", "figure:rops", "ROP") in {(h.where, h.role, h.word) for h in rops.rows}
    assert [(u.text, u.block) for u in exp.unclaimed] == [("1200", "prose"), ("7", "prose")]
    assert exp.numbers == 4  # 4090 is a name's digits, not a number of the text
    assert exp.coverage == 0.5


def test_a_tables_card_names_are_no_numbers_of_the_text() -> None:
    from pipeline.records import Format

    table = "| 型号 | ROPs | 重量 |\n|---|---|---|\n| RTX 4080 | 112 | 2100 |\n"
    exp = explain_text(table, load_reference(Config().reference_dir), doc_id="t.md", fmt=Format.MD)
    assert [(v.claim.text, v.claim.attribute) for v in exp.claims] == [("112", "rops"), ("2100", "figure")]
    assert (exp.numbers, exp.unclaimed) == (2, [])  # 4080 is the name's digits, in a cell as in prose


def test_the_command_prints_claims_then_unclaimed_numbers() -> None:
    result = CliRunner().invoke(app, ["explain", TEXT])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "text.txt: 2 claims; 2 of 4 numbers read (50%)"
    assert "    owner: NVIDIA GeForce RTX 4090 (nvidia_rtx_4090), found by clause; scope product" in lines
    assert "    rops = 176; supported evidence=database" in lines
    assert lines[-3:] == ["numbers with no claim (2):",
                          "  [42:46] '1200' in prose: …50W。另有一块散热片重1200克，编号7。 …",
                          "  [50:51] '7' in prose: …散热片重1200克，编号7。 …"]


def test_json_and_files(tmp_path: Path) -> None:
    article = tmp_path / "a.md"
    article.write_text("# RTX 4080\n\n- 纹理单元：304\n- 加速频率：2505MHz\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["explain", str(article), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["doc_id"] == "a.md"
    assert [(c["text"], c["attribute"], c["subject"], c["owner_via"]) for c in data["claims"]] == [
        ("304", "tmus", "nvidia_rtx_4080", "heading"), ("2505MHz", "boost_clock", "nvidia_rtx_4080", "heading")]
    assert data["unclaimed"] == [] and data["coverage"] == 1.0


def test_a_bad_format_is_a_usage_error() -> None:
    result = CliRunner().invoke(app, ["explain", TEXT, "--format", "pdf"])
    assert result.exit_code == 2
    assert "--format must be txt, md or html" in result.output
