"""The run's outputs are byte for byte what they were before the output stage moved into the workers: golden
digests of every file a run publishes, and the same bytes from one worker, a pool of two and a Dask cluster.

The analysis is fixed (``golden/run/analysis.json``: the claims the pipeline found in this corpus when the golden
files were made), so the comparison is about the output stage, not the extractor. ``UPDATE_GOLDEN=1`` remakes the
analysis and the digests (after a deliberate change of the reports' wording, say).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import pipeline.run
import pipeline.run.document
import pipeline.run.outputs
import pipeline.state.store
from pipeline.config import Config
from pipeline.knowledge.reference import Reference
from pipeline.records import Claim, Document, claim_from_dict
from pipeline.run import RunOptions, run
from pipeline.segment import get_segmenter
from pipeline.state.decisions import Decision
from pipeline.state.store import Store

GOLDEN = Path(__file__).parent / "golden" / "run"
UPDATE = bool(os.environ.get("UPDATE_GOLDEN"))
FIRST, DECIDED, NOW = "2026-11-30T06:00:00+00:00", "2026-11-30T07:00:00+00:00", "2026-11-30T08:00:00+00:00"

# fmt: off
# Articles of our own: right and wrong figures, Markdown with a table and code, HTML, Traditional script, an empty
# file and one that cannot be decoded. Version 2 edits one, deletes one, renames one and adds one.
LINES = [
    "RTX 4090配备24GB GDDR6X显存，功耗450W。",
    "RTX 4090拥有20000个CUDA核心。",                    # 16384
    "A100的显存带宽约为1555GB/s，采用Ampere架构。",
    "H100 SXM5的功耗为500W。",                          # 700W
    "T4配备16GB GDDR6显存，功耗70W。",
    "L4的显存容量为32GB。",                             # 24GB
    "V100拥有5120个CUDA核心和640个Tensor Core。",
    "MI300X配备192GB HBM3显存。",
    "A100采用Hopper架构。",                             # Ampere
    "8张A100 80GB一共提供640GB显存。",
]
CODE = "```python\nimport torch\nx = torch.randn(8, device=\"cuda\")\nprint(y)\n```\n"
TABLE = "| 型号 | 显存 | 功耗 |\n|---|---|---|\n| T4 | 16GB | 70W |\n| L4 | 24GB | 90W |\n"
# fmt: on


def _article(i: int) -> tuple[str, bytes]:
    picked = "".join(LINES[(i * k + k) % len(LINES)] for k in (1, 3, 7))
    title = f"显卡周报第{i}期"
    if i % 4 == 1:
        return f"md/a{i:02d}.md", (f"# {title}\n\n{picked}\n\n" + (TABLE + "\n" + CODE if i % 8 == 1 else "")).encode()
    if i % 4 == 2:
        html = f"<html><body><article><h1>{title}</h1><p>{picked}</p></article></body></html>"
        return f"web/a{i:02d}.html", html.encode()
    return f"a{i:02d}.txt", f"{title}\n\n{picked}\n".encode()


def corpus_v1() -> dict[str, bytes]:
    files = dict(_article(i) for i in range(18))
    files["a03.txt"] = "顯示卡週報\n\nRTX 4090配備24GB GDDR6X記憶體，功耗450W。\n".encode()  # Traditional
    files["empty.txt"] = b"  \n"
    files["broken.txt"] = b"\xff\xfe\x00\xd8"  # a UTF-16 mark, then a lone surrogate: cannot be decoded
    return files


def corpus_v2() -> dict[str, bytes]:
    files = corpus_v1()
    files["a00.txt"] = files["a00.txt"].replace(b"\n\n", "\n\nL4的功耗为72W。".encode(), 1)  # edited
    del files["a04.txt"]  # deleted
    files["renamed/a05.md"] = files.pop("md/a05.md")  # renamed: its decision follows the claim
    files["a18.txt"] = "新卡速递\n\nT4采用Turing架构，功耗为70W。\n".encode()  # new
    return files


def write_corpus(folder: Path, files: dict[str, bytes]) -> Path:
    shutil.rmtree(folder, ignore_errors=True)
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return folder


# ---------------------------------------------------------------- the fixed analysis

def _key(doc: Document) -> str:
    return f"{doc.doc_id}\x1f{doc.sha256}"


def _fixed_analysis(ref: Reference, tmp: Path) -> dict[str, Any]:
    """The analysis of every article of both versions: recorded once (UPDATE_GOLDEN=1), then read back."""
    path = GOLDEN / "analysis.json"
    if UPDATE:
        from pipeline.ingest import is_blank, read_document

        found: dict[str, Any] = {}
        for version, files in (("v1", corpus_v1()), ("v2", corpus_v2())):
            folder = write_corpus(tmp / f"analyse-{version}", files)
            for name in files:
                try:
                    doc = read_document(folder / name, folder)
                except Exception:  # the broken file never reaches the analysis
                    continue
                if not is_blank(doc):
                    claims, mentions = pipeline.run.document.analyse(doc, ref, Config())
                    found[_key(doc)] = {"claims": [{**c.extra, **c.to_dict()} for c in claims],
                                        "mentions": mentions}
        GOLDEN.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(found, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def analysis(ref: Reference, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    fixed = _fixed_analysis(ref, tmp_path_factory.mktemp("analysis"))
    get_segmenter(ref)  # forked pool workers inherit it

    def analyse(doc: Document, ref: Reference, config: Config | None = None) -> tuple[list[Claim], dict[str, Any]]:
        entry = fixed[_key(doc)]
        return [claim_from_dict(dict(c)) for c in entry["claims"]], entry["mentions"]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pipeline.run.document, "analyse", analyse)
        mp.setattr(pipeline.run.outputs, "now", lambda: NOW)
        mp.setattr(pipeline.run, "now", lambda: NOW)
        yield fixed


# ---------------------------------------------------------------- two runs, as an editor would have them

@dataclass(frozen=True)
class Published:
    files: dict[str, bytes]
    corpus: Path
    fingerprint: str


def _decisions(out: Path) -> list[Decision]:
    """An accepted, a dismissed and a corrected flag, one of them in the article that is renamed next."""
    flagged = [c for c in map(json.loads, (out / "claims.jsonl").read_text(encoding="utf-8").splitlines())
               if c["verdict"] in ("contradicted", "misattributed", "code_issue")]
    by_doc = {c["doc_id"]: c for c in flagged}
    picks = [("accepted", by_doc["a00.txt"], ""), ("dismissed", by_doc["md/a05.md"], ""),
             ("corrected", by_doc["md/a01.md"], "改为72W")]
    return [Decision(c["claim_id"], status, "编辑甲", f"{status}的说明", DECIDED, c["doc_id"], c["text"],
                     c["sentence"], c["start"], correction) for status, c, correction in picks]


def publish(root: Path, *, workers: int = 1, engine: str = "local", scheduler: str | None = None,
            full: bool = False) -> Published:
    """Run on version 1, decide three flags, then run on version 2; what the second run published."""
    shutil.rmtree(root, ignore_errors=True)
    corpus = write_corpus(root / "corpus", corpus_v1())
    out = root / "out"
    config = Config(out_dir=out, workers=workers)
    opts = RunOptions(corpus=corpus, config=config, engine=engine, scheduler=scheduler)
    with pytest.MonkeyPatch.context() as mp:  # the state's clock: first run, decisions, second run
        mp.setattr(pipeline.state.store, "utc_now", lambda: FIRST)
        run(opts)
        with Store(out / "state.sqlite") as store:
            store.import_decisions(_decisions(out))
        write_corpus(corpus, corpus_v2())
        mp.setattr(pipeline.state.store, "utc_now", lambda: NOW)
        summary = run(RunOptions(corpus=corpus, config=config, engine=engine, scheduler=scheduler, full=full))
    assert summary.processed >= 3 and summary.errors == 1
    files = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
             if p.is_file() and not p.name.startswith(("state.sqlite", ".gpu-factcheck.lock", "decisions.jsonl"))}
    from pipeline.knowledge.reference import load_reference

    return Published(files, corpus, load_reference(config.reference_dir).fingerprint)


def normalised(p: Published) -> dict[str, bytes]:
    """The files with the run's own paths and the reference tables' fingerprint taken out; the marker's hashes
    (of the fingerprint) dropped."""
    out = {}
    for name, data in p.files.items():
        data = data.replace(str(p.corpus.parent / "out").encode(), b"<out>")  # the review commands' --state
        data = data.replace(str(p.corpus).encode(), b"<corpus>")
        data = data.replace(json.dumps(str(p.corpus))[1:-1].encode(), b"<corpus>")
        data = data.replace(p.fingerprint.encode(), b"<reference>").replace(p.fingerprint[:12].encode(),
                                                                              b"<reference>")
        if name == ".report-index.json":
            marker = json.loads(data)
            marker["_run"].pop("key")
            data = json.dumps({k: marker[k] for k in ("_claims_sha256", "_run")} | {"docs": sorted(marker)},
                              ensure_ascii=False, sort_keys=True).encode()
        out[name] = data
    return out


def digests(files: dict[str, bytes]) -> dict[str, str]:
    return {name: hashlib.sha256(data).hexdigest() for name, data in sorted(files.items())}


def check_golden(name: str, p: Published) -> None:
    path = GOLDEN / f"{name}.json"
    actual = digests(normalised(p))
    if UPDATE:
        path.write_text(json.dumps(actual, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    golden = json.loads(path.read_text(encoding="utf-8"))
    differ = sorted(n for n in golden.keys() | actual.keys() if golden.get(n) != actual.get(n))
    assert not differ, f"{name}: these files differ from the golden ones: {differ}"


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every run of this module happens in the same folder (emptied first), so paths in the outputs agree."""
    return tmp_path_factory.getbasetemp() / "published"


@pytest.fixture(scope="module")
def incremental(analysis: dict[str, Any], place: Path) -> Published:
    return publish(place)


@pytest.fixture(scope="module")
def full(analysis: dict[str, Any], place: Path) -> Published:
    return publish(place, full=True)


def test_an_incremental_run_publishes_the_golden_files(incremental: Published) -> None:
    check_golden("incremental", incremental)


def test_a_full_run_publishes_the_golden_files(full: Published) -> None:
    check_golden("full", full)


def test_the_scenario_covers_what_the_output_stage_does(full: Published) -> None:
    """Decisions shown (one moved to the renamed article), a deleted article's reports gone, every format."""
    claims = [json.loads(line) for line in full.files["claims.jsonl"].decode().splitlines()]
    reviewed = {c["doc_id"]: c["review_status"] for c in claims if c["review_status"] != "open"}
    assert reviewed == {"a00.txt": "accepted", "renamed/a05.md": "dismissed", "md/a01.md": "corrected"}
    assert "a04.txt.html" not in full.files and "a18.txt.html" in full.files
    docs = [json.loads(line) for line in full.files["documents.jsonl"].decode().splitlines()]
    assert {d["status"] for d in docs} == {"ok", "skipped", "error"}
    assert {d["format"] for d in docs} == {"txt", "md", "html"}
    assert any(c["attribute"] == "code" for c in claims)


@pytest.mark.parametrize("scenario", ["incremental", "full"])
def test_two_workers_publish_the_same_bytes(scenario: str, request: pytest.FixtureRequest, place: Path) -> None:
    one: Published = request.getfixturevalue(scenario)
    two = publish(place, workers=2, full=scenario == "full")
    assert two.files == one.files


def test_dask_publishes_the_same_bytes(full: Published, cluster: Any, place: Path) -> None:
    on_dask = publish(place, engine="dask", scheduler=cluster.scheduler_address, full=True)
    assert on_dask.files == full.files


def test_the_streamed_claims_csv_is_the_one_made_from_claims_jsonl(full: Published, tmp_path: Path) -> None:
    from pipeline.report import write_claims_csv

    (tmp_path / "claims.jsonl").write_bytes(full.files["claims.jsonl"])
    write_claims_csv(tmp_path / "claims.jsonl", tmp_path / "claims.csv")
    assert (tmp_path / "claims.csv").read_bytes() == full.files["claims.csv"]


def test_a_run_without_claims_writes_the_header_alone(analysis: dict[str, Any], tmp_path: Path) -> None:
    from pipeline.report import write_claims_csv

    corpus = write_corpus(tmp_path / "corpus", {"empty.txt": b" \n", "broken.txt": b"\xff\xfe\x00\xd8"})
    out = tmp_path / "out"
    run(RunOptions(corpus=corpus, config=Config(out_dir=out, workers=1), use_state=False))
    write_claims_csv(out / "claims.jsonl", tmp_path / "expected.csv")
    assert (out / "claims.csv").read_bytes() == (tmp_path / "expected.csv").read_bytes()
    assert (out / "claims.csv").read_text(encoding="utf-8-sig").count("\n") == 1


def test_a_claims_table_that_fails_the_suite_is_reported_in_the_summary_line(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The claims suite runs over the run's claims in large batches; a failure still reaches the summary."""
    from typer.testing import CliRunner

    from pipeline.cli import app
    from pipeline.records import Check, Verdict

    def analyse(doc: Document, ref: Reference, config: Config | None = None) -> tuple[list[Claim], dict[str, Any]]:
        past_the_end = Claim(doc.doc_id, 2, len(doc.text) + 5, "24GB", "句子", 0, None, None, "memory_size", 24, "GB",
                             check=Check(Verdict.SUPPORTED, "一致"), claim_id="0123456789abcdef")
        return [past_the_end], {}

    monkeypatch.setattr(pipeline.run.document, "analyse", analyse)
    corpus = write_corpus(tmp_path / "corpus", {"a.txt": "显卡\n\n配备24GB显存。\n".encode()})
    result = CliRunner().invoke(app, ["run", str(corpus), "--out", str(tmp_path / "out"), "--no-state",
                                      "--workers", "1", "--quiet"])
    line = json.loads(result.stderr.strip().splitlines()[-1])
    assert any("claims table failed validation" in w and "end must not pass the end of the document" in w
               for w in line["warnings"]), line
