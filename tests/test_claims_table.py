"""claims.csv and claims.jsonl as an analyst loads them: the same columns in the same order with the same values
(pandas' own readers, no options), ranges as value_low / value_high, one type per value column, claim ids that no
spreadsheet reads as a number; and the run's JSON line for operators."""

from __future__ import annotations

import json
import logging
import math
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.records import RECORD_FIELDS, Claim, claim_from_dict
from pipeline.run.document import _NUMBER_LIKE, claim_id

runner = CliRunner()

# fmt: off
# Sentences written for this test: a range, words as values, a comparison with its target, numbers, a formula-like
# line, a wrong figure.
ARTICLES = {
    "range.txt": "RTX 4090的功耗在350-450W之间，采用GDDR6X显存。\n",
    "compare.md": "# 对比\n\nH100 SXM5的显存带宽是A100 80GB SXM4的两倍。RTX 4090的显存带宽不如RTX 3090。\n",
    "history.txt": "Turing架构以物理学家命名。\n\nA100拥有6912个CUDA核心，显存为40GB。\n",
    "formula.txt": "=RTX 4090配备了32GB显存。\n",
}
# fmt: on


@pytest.fixture(scope="module")
def run_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    corpus = tmp_path_factory.mktemp("corpus")
    for name, text in ARTICLES.items():
        (corpus / name).write_text(text, encoding="utf-8")
    out = tmp_path_factory.mktemp("out")
    result = runner.invoke(app, ["run", str(corpus), "--out", str(out), "--no-state", "--workers", "1", "--quiet"])
    assert result.exit_code == 0, result.output
    return out


def _cells(frame: pd.DataFrame) -> list[list[Any]]:
    """The frame's values with every missing value as None (pandas reads a missing cell as NaN or None)."""
    return [[None if (v is None or (isinstance(v, float) and math.isnan(v))) else v for v in row]
            for row in frame.itertuples(index=False)]


def test_csv_and_jsonl_read_the_same(run_out: Path) -> None:
    csv = pd.read_csv(run_out / "claims.csv")
    jsonl = pd.read_json(run_out / "claims.jsonl", lines=True)
    assert list(csv.columns) == list(jsonl.columns) == [*RECORD_FIELDS, "review_status"]
    assert len(csv) == len(jsonl) > 8
    for column in csv.columns:
        if column in ("sentence", "text"):  # a cell a spreadsheet would run as a formula gets an apostrophe
            continue
        assert _cells(csv[[column]]) == _cells(jsonl[[column]]), column
    lines = [json.loads(line) for line in (run_out / "claims.jsonl").read_text(encoding="utf-8").splitlines()]
    for name in ("sentence", "text"):
        assert [str(s).removeprefix("'") for s in csv[name]] == [d[name] for d in lines]
    assert any(str(s).startswith("'=") for s in csv["sentence"])  # the formula-like line, kept as text


def test_value_columns_have_one_type_each(run_out: Path) -> None:
    csv = pd.read_csv(run_out / "claims.csv")
    for column in ("value", "value_low", "value_high", "multiplier", "start", "end"):
        assert pd.api.types.is_numeric_dtype(csv[column]), column
    assert pd.api.types.is_string_dtype(csv["value_text"])
    rng = csv[csv.qualifier == "range"].iloc[0]
    assert (rng.value_low, rng.value_high, rng.value) == (350, 450, rng.value) and math.isnan(rng.value)
    words = dict(zip(csv.attribute, csv.value_text, strict=True))
    assert (words["memory_type"], words["named_after"], words["ordering"]) == ("GDDR6X", "physicist", "<")
    targets = dict(zip(csv.attribute, csv.target, strict=True))
    assert (targets["ratio"], targets["ordering"]) == ("nvidia_a100", "nvidia_rtx_3090")


# fmt: off
VALUES = [
    ([350.0, 450.0], {"value": None, "value_low": 350.0, "value_high": 450.0, "value_text": None}),
    (24,             {"value": 24, "value_low": None, "value_high": None, "value_text": None}),
    ("HBM3",         {"value": None, "value_low": None, "value_high": None, "value_text": "HBM3"}),
    (None,           {"value": None, "value_low": None, "value_high": None, "value_text": None}),
]
# fmt: on


@pytest.mark.parametrize(("value", "fields"), VALUES)
def test_record_value_round_trips(value: Any, fields: dict[str, Any]) -> None:
    claim = Claim("a.txt", 0, 4, "24GB", "24GB", 0, "nvidia_rtx_4090", "RTX 4090", "memory_size", value, "GB")
    record = claim.to_dict()
    assert {k: record[k] for k in fields} == fields
    assert claim_from_dict(record).value == value
    assert claim_from_dict({**record, **fields, "value": value}).value == value  # a record written before


def test_claim_ids_are_never_number_like() -> None:
    ids = [claim_id(Claim(f"d{i}.txt", i, i + 1, "x", "x", 0, None, None, "tdp", i, "W")) for i in range(5000)]
    assert all(len(i) == 16 and not _NUMBER_LIKE.fullmatch(i) for i in ids)
    assert _NUMBER_LIKE.fullmatch("3476301760442e31") and _NUMBER_LIKE.fullmatch("1234567890123456")
    assert not _NUMBER_LIKE.fullmatch("0f3c9a1b2d4e5f60")


# ---- the run's JSON line ------------------------------------------------------------------------


def _json_line(stderr: str) -> dict[str, Any]:
    line = stderr.strip().splitlines()[-1]
    return dict(json.loads(line))


@pytest.mark.parametrize("fail_on", [[], ["--fail-on", "misattributed"], ["--fail-on", "contradicted"]])
def test_flagged_new_is_counted_on_every_run(tmp_path: Path, fail_on: list[str]) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.txt").write_text(ARTICLES["formula.txt"], encoding="utf-8")
    result = CliRunner().invoke(app, ["run", str(corpus), "--out", str(tmp_path / "out"), "--no-state",
                                      "--workers", "1", "--quiet", *fail_on])
    line = _json_line(result.stderr)
    assert line["flagged_new"] == 1
    assert result.exit_code == line["exit_code"] == (3 if "contradicted" in fail_on else 0)


@pytest.mark.parametrize("args", [["--workers", "-1"], ["--workers", "x"], ["--no-such-option"], []])
@pytest.mark.parametrize("quiet", [True, False])
def test_usage_errors_end_with_the_json_line(tmp_path: Path, args: list[str], quiet: bool) -> None:
    corpus = [] if not args else [str(tmp_path)]
    result = CliRunner().invoke(app, ["run", *corpus, *args, *(["--quiet"] if quiet else [])])
    line = _json_line(result.stderr)
    assert result.exit_code == line["exit_code"] == 2
    assert line["event"] == "run_finished" and line["error"]
    assert ("Usage:" in result.stderr) is not quiet


# ---- jieba's cache ------------------------------------------------------------------------------


def test_jieba_cache_is_the_users_and_quiet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capfd: pytest.CaptureFixture[str]) -> None:
    import jieba

    from pipeline.segment import _initialize

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    dt = jieba.Tokenizer()
    _initialize(dt)
    assert dt.initialized and (tmp_path / "cache" / "gpu-factcheck" / "jieba.cache").is_file()
    # a cache folder that cannot be written (another user's /tmp/jieba.cache): no traceback, no message
    blocked = tmp_path / "file"
    blocked.write_text("", encoding="utf-8")
    dt = jieba.Tokenizer()
    dt.tmp_dir = str(blocked)
    logging.getLogger("jieba").setLevel(logging.DEBUG)
    _initialize(dt)
    assert dt.initialized
    assert "Dump cache file failed" not in capfd.readouterr().err
