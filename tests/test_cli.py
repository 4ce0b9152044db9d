"""The command line through typer's CliRunner: run, evaluate, reference validate/show, exit codes."""

from __future__ import annotations

import json
import random
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.config import DEFAULT_REFERENCE_DIR
from pipeline.report import safe_name

runner = CliRunner()

# fmt: off
# Two small articles of our own: the first is right, the second gives the RTX 4090 32GB (it has 24GB).
GOOD_NAME = "rtx4090-review.txt"
GOOD_TEXT = ("RTX 4090上手体验\n\n"
             "英伟达RTX 4090采用Ada Lovelace架构，配备24GB GDDR6X显存，整卡功耗为450W。\n")
BAD_NAME = "datacenter-roundup.md"
BAD_TEXT = ("# 显卡速览\n\n"
            "RTX 4090配备了32GB显存，在工作站里也很常见。A100拥有6912个CUDA核心。\n")
WRONG_QUOTE = "32GB"
RIGHT_QUOTE = "450W"

ARTIFACTS = ["claims.jsonl", "documents.jsonl", "index.html", "summary.md", "claims.csv"]
# fmt: on


def invoke(*args: str | Path) -> Result:
    return runner.invoke(app, [str(a) for a in args])


def write_corpus(folder: Path, extra: dict[str, bytes] | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / GOOD_NAME).write_text(GOOD_TEXT, encoding="utf-8")
    (folder / BAD_NAME).write_text(BAD_TEXT, encoding="utf-8")
    for name, data in (extra or {}).items():
        (folder / name).write_bytes(data)
    return folder


def jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@dataclass(frozen=True)
class Run:
    result: Result
    corpus: Path
    out: Path


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_corpus(tmp_path_factory.mktemp("corpus"))


@pytest.fixture(scope="module")
def default_run(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Run:
    out = tmp_path_factory.mktemp("out")
    return Run(invoke("run", corpus, "--out", out, "--no-state", "--workers", "1"), corpus, out)


@pytest.fixture(scope="module")
def quiet_failing_run(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Run:
    out = tmp_path_factory.mktemp("out-quiet")
    result = invoke("run", corpus, "--out", out, "--no-state", "--workers", "1", "--quiet",
                    "--fail-on", "contradicted")
    return Run(result, corpus, out)


def test_help_lists_the_commands() -> None:
    result = invoke("--help")
    assert result.exit_code == 0, result.output
    for command in ("run", "evaluate", "reference", "review"):
        assert re.search(rf"^\W*{command}\b", result.stdout, re.MULTILINE), command


def test_run_exits_0(default_run: Run) -> None:
    assert default_run.result.exit_code == 0, default_run.result.output


@pytest.mark.parametrize("name", ARTIFACTS)
def test_run_writes_the_tables_and_reports(default_run: Run, name: str) -> None:
    path = default_run.out / name
    assert path.is_file() and path.stat().st_size > 0


@pytest.mark.parametrize("doc_id", [GOOD_NAME, BAD_NAME])
@pytest.mark.parametrize("suffix", [".md", ".html", ".json"])
def test_run_writes_a_report_per_document(default_run: Run, doc_id: str, suffix: str) -> None:
    path = default_run.out / f"{safe_name(doc_id)}{suffix}"
    assert path.is_file() and path.stat().st_size > 0


def test_claims_csv_starts_with_a_bom(default_run: Run) -> None:
    raw = (default_run.out / "claims.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    assert raw[3:].decode("utf-8").startswith("doc_id,")


def test_documents_jsonl_has_both_articles(default_run: Run) -> None:
    docs = {d["doc_id"]: d["status"] for d in jsonl(default_run.out / "documents.jsonl")}
    assert docs == {GOOD_NAME: "ok", BAD_NAME: "ok"}


def test_claim_offsets_point_into_the_articles(default_run: Run) -> None:
    claims = jsonl(default_run.out / "claims.jsonl")
    assert claims
    for c in claims:
        text = (default_run.corpus / c["doc_id"]).read_text(encoding="utf-8")
        assert text[c["start"]:c["end"]] == c["text"], c


def test_the_wrong_spec_is_contradicted_and_nothing_else(default_run: Run) -> None:
    claims = jsonl(default_run.out / "claims.jsonl")
    flagged = [(c["doc_id"], c["text"]) for c in claims if c["verdict"] == "contradicted"]
    assert flagged == [(BAD_NAME, WRONG_QUOTE)]
    wrong = next(c for c in claims if c["text"] == WRONG_QUOTE)
    assert (wrong["subject"], wrong["attribute"]) == ("nvidia_rtx_4090", "memory_size")
    assert "24" in wrong["expected"] and wrong["source"].startswith("https://")


def test_run_prints_the_summary(default_run: Run) -> None:
    assert "2 documents" in default_run.result.stdout
    assert '"event": "run_finished"' in default_run.result.stderr


def test_fail_on_contradicted_exits_3(quiet_failing_run: Run) -> None:
    assert quiet_failing_run.result.exit_code == 3, quiet_failing_run.result.output


def test_quiet_prints_exactly_one_json_line(quiet_failing_run: Run) -> None:
    assert quiet_failing_run.result.stdout == ""
    lines = quiet_failing_run.result.stderr.splitlines()
    assert len(lines) == 1, lines
    summary = json.loads(lines[0])
    assert summary["event"] == "run_finished"
    assert (summary["documents"], summary["exit_code"], summary["flagged_new"]) == (2, 3, 1)


def test_undecodable_file_exits_1_and_the_rest_is_processed(tmp_path: Path) -> None:
    junk = b"\x89PNG\r\n\x1a\n" + random.Random(20240603).randbytes(512)
    corpus = write_corpus(tmp_path / "corpus", {"x.txt": junk})
    out = tmp_path / "out"
    result = invoke("run", corpus, "--out", out, "--no-state", "--workers", "1", "--quiet")
    assert result.exit_code == 1, result.output
    docs = {d["doc_id"]: d for d in jsonl(out / "documents.jsonl")}
    assert docs["x.txt"]["status"] == "error" and docs["x.txt"]["message"]
    assert docs[GOOD_NAME]["status"] == docs[BAD_NAME]["status"] == "ok"
    assert {c["doc_id"] for c in jsonl(out / "claims.jsonl")} == {GOOD_NAME, BAD_NAME}
    assert json.loads(result.stderr)["errors"] == 1


def test_missing_corpus_exits_2_with_a_message(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder"
    result = invoke("run", missing, "--out", tmp_path / "out", "--no-state")
    assert result.exit_code == 2
    assert "no-such-folder" in result.stderr and "not found" in result.stderr
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


def test_unknown_fail_on_verdict_exits_2(tmp_path: Path, corpus: Path) -> None:
    result = invoke("run", corpus, "--out", tmp_path / "out", "--no-state", "--fail-on", "supported")
    assert result.exit_code == 2
    assert "--fail-on" in result.stderr


def test_reference_validate_passes_on_the_real_tables() -> None:
    result = invoke("reference", "validate")
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def broken_reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of reference/ whose specs.csv repeats its first data row."""
    broken = tmp_path_factory.mktemp("broken") / "reference"
    shutil.copytree(DEFAULT_REFERENCE_DIR, broken)
    specs = broken / "specs.csv"
    lines = specs.read_text(encoding="utf-8").splitlines()
    specs.write_text("\n".join([*lines, lines[1]]) + "\n", encoding="utf-8")
    return broken


def test_reference_validate_fails_on_a_duplicate_spec_row(broken_reference: Path) -> None:
    result = invoke("reference", "validate", "--reference", broken_reference)
    assert result.exit_code == 2, result.output
    assert "specs.csv" in result.stderr


def test_run_refuses_an_invalid_reference(broken_reference: Path, corpus: Path, tmp_path: Path) -> None:
    result = invoke("run", corpus, "--out", tmp_path / "out", "--no-state", "--workers", "1",
                    "--reference", broken_reference)
    assert result.exit_code == 2, result.output
    assert "specs.csv" in result.stderr
    assert not (tmp_path / "out" / "claims.jsonl").exists()


def test_reference_show_prints_specs_and_sources() -> None:
    result = invoke("reference", "show", "A100")
    assert result.exit_code == 0, result.output
    assert "6912" in result.stdout
    assert "https://" in result.stdout
    assert "no exact match" not in result.stdout


# fmt: off
SHOWN = [  # name as typed -> the first line printed, and a value the table holds
    ("GH100", "GH100 (chip gh100)", "80 billion"),
    ("Hopper", "Hopper (architecture hopper)", "Grace Hopper"),
    ("PCIe 4.0", "PCIe 4.0 x16 (link pcie_4_x16)", "31.5 GB/s"),
    ("NVLink 4", "NVLink 4.0 (link nvlink_4)", "900 GB/s"),
    ("DGX H100", "DGX H100 (system dgx_h100)", "640 GB"),
    ("GB200 NVL72", "GB200 NVL72 (system gb200_nvl72)", "130000 GB/s"),
    ("HBM3", "HBM3 (memory hbm3)", "JESD238"),
    ("H100", "NVIDIA H100 (product nvidia_h100)", "16896"),
    ("特斯拉P4", "NVIDIA Tesla P4 (product nvidia_tesla_p4)", "GP104"),
    ("Fermi", "Fermi (architecture fermi)", "1536"),  # max_threads_per_sm of compute capability 2.x
    ("GF100", "GF100 (chip gf100)", "raster_engines"),
    ("8.0", "Compute Capability 8.0 (compute_capability cc_8_0)", "max_threads_per_sm"),
    ("sm_90", "Compute Capability 9.0 (compute_capability cc_9_0)", "228 KB"),
    ("GH200", "NVIDIA GH200 Grace Hopper Superchip (product nvidia_gh200)", "cpu_cores"),
    ("Grace", "Grace (chip grace)", "LPDDR5X"),
]
# fmt: on


@pytest.mark.parametrize(("name", "first_line", "value"), SHOWN)
def test_reference_show_covers_every_table(name: str, first_line: str, value: str) -> None:
    result = invoke("reference", "show", name)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == first_line
    assert value in result.stdout


def test_reference_show_never_shows_a_neighbour() -> None:
    result = invoke("reference", "show", "H20")
    assert "NVIDIA H200 (product" not in result.stdout
    if result.exit_code == 1:  # no H20 in the tables (the cards branch adds it)
        assert result.stderr.splitlines() == ["not found: H20 (did you mean NVIDIA H200?)"]
    else:
        assert result.stdout.splitlines()[0].endswith("(product nvidia_h20)")


def test_reference_show_a_typo_exits_1_with_a_suggestion() -> None:
    result = invoke("reference", "show", "A10O")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == ["not found: A10O (did you mean NVIDIA A10?)"]


def test_reference_show_without_any_match_exits_1() -> None:
    result = invoke("reference", "show", "zzzzqqqq")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == ["not found: zzzzqqqq"]


def _gold(doc_id: str, quote: str, label: str, error_type: str | None) -> dict:
    return {"doc_id": doc_id, "quote": quote, "subject": "RTX 4090", "attribute": "spec", "stated": quote,
            "truth": "-", "label": label, "error_type": error_type, "tier": "core"}


def test_evaluate_prints_the_score_line(default_run: Run, tmp_path: Path) -> None:
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps([_gold(BAD_NAME, WRONG_QUOTE, "false", "wrong_number"),
                                _gold(GOOD_NAME, RIGHT_QUOTE, "true", None)], ensure_ascii=False),
                    encoding="utf-8")
    result = invoke("evaluate", gold, default_run.corpus, "--claims", default_run.out / "claims.jsonl")
    assert result.exit_code == 0, result.output
    score = [line for line in result.stdout.splitlines() if line.startswith("score:")]
    assert len(score) == 1, result.stdout
    assert "caught 1/1 false" in score[0] and "false_alarms 0/1" in score[0]
