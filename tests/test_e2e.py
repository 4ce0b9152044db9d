"""End to end: the whole pipeline over corpus/ (and the development set), scored like the acceptance scorer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.evaluate import score_files

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SCORER = SHARED / "acceptance" / "score.py"
DEV = SHARED / "dev"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def seed_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("seed-reports")
    result = CliRunner().invoke(app, ["run", str(ROOT / "corpus"), "--out", str(out), "--no-state", "--workers", "1",
                                      "--quiet"])
    assert result.exit_code == 0, result.output
    return out


def test_seed_core_acceptance(seed_run: Path) -> None:
    gold = ROOT / "corpus" / "gold.json"
    core = score_files(gold, ROOT / "corpus", seed_run / "claims.jsonl", where=[("tier", "core")],
                       skip=[("attribute", "code")])
    assert core.caught == core.false_total > 0, core.missed_items
    assert core.confirmed >= core.true_total - 1
    everything = score_files(gold, ROOT / "corpus", seed_run / "claims.jsonl", skip=[("attribute", "code")])
    assert everything.false_alarms == 0, everything.false_alarm_items
    assert everything.stray_flags <= 2, everything.stray_flag_items


def test_evaluate_command_matches_the_acceptance_scorer(seed_run: Path) -> None:
    if not SCORER.exists():
        pytest.skip("acceptance scorer not present beside the project")
    args = [str(ROOT / "corpus" / "gold.json"), str(ROOT / "corpus")]
    ours = CliRunner().invoke(app, ["evaluate", *args, "--claims", str(seed_run / "claims.jsonl"),
                                    "--skip", "attribute=code"])
    theirs = subprocess.run([sys.executable, str(SCORER), *args, str(seed_run / "claims.jsonl"),
                             "--skip", "attribute=code"], capture_output=True, text=True, check=True)
    assert ours.exit_code == 0
    assert ours.output.strip().splitlines()[-1] == theirs.stdout.strip().splitlines()[-1]


def test_outputs_are_complete_and_consistent(seed_run: Path) -> None:
    docs = [json.loads(line) for line in (seed_run / "documents.jsonl").read_text(encoding="utf-8").splitlines()]
    claims = [json.loads(line) for line in (seed_run / "claims.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {d["doc_id"] for d in docs} == {p.name for p in (ROOT / "corpus").glob("*.txt")}
    texts = {p.name: p.read_text(encoding="utf-8-sig") for p in (ROOT / "corpus").glob("*.txt")}
    for c in claims:
        assert texts[c["doc_id"]][c["start"]:c["end"]] == c["text"]
        assert c["explanation"]
    for d in docs:
        stem = d["doc_id"]
        for ext in ("md", "html", "json"):
            assert (seed_run / f"{stem}.{ext}").exists()
    assert (seed_run / "claims.csv").read_bytes().startswith(b"\xef\xbb\xbf")
    assert (seed_run / "index.html").exists() and (seed_run / "summary.md").exists()


@pytest.mark.skipif(not (DEV / "gold.json").exists(), reason="development set not present")
def test_development_set(tmp_path: Path) -> None:
    out = tmp_path / "dev"
    result = CliRunner().invoke(app, ["run", str(DEV / "corpus"), "--out", str(out), "--no-state", "--workers", "1",
                                      "--quiet"])
    assert result.exit_code == 0, result.output
    core = score_files(DEV / "gold.json", DEV / "corpus", out / "claims.jsonl", where=[("tier", "core")],
                       skip=[("attribute", "code")])
    assert core.caught >= 0.9 * core.false_total
    everything = score_files(DEV / "gold.json", DEV / "corpus", out / "claims.jsonl", skip=[("attribute", "code")])
    assert everything.false_alarms == 0, everything.false_alarm_items
