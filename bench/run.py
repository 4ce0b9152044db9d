"""Throughput benchmark (never run as a test).

    python bench/run.py [--docs 2000] [--workers 1] [--memory-sizes 1000,10000] [--stages]

Builds a synthetic corpus by recombining paragraphs of corpus/ with other products and numbers, then measures in
one process: bare jieba segmentation of the same text (the floor), the full pipeline with reports, and an
incremental re-run over the unchanged corpus. Prints documents/s, characters/s, the pipeline/jieba ratio, start-up
time to the first document and peak memory. ``--memory-sizes`` runs the pipeline in child processes on corpora of
those sizes and prints each one's peak RSS, to show that memory stays flat. ``--stages`` runs the pipeline once
more with a timer around each stage and prints where the time per document goes.
"""

from __future__ import annotations

import argparse
import collections
import functools
import json
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

_MODEL = re.compile(r"(?:RTX\s*)?\b[A-Z]{1,2}\d{2,4}\b")
_NUMBER = re.compile(r"(?<![A-Za-z\d.])\d{2,5}(?![\d.])")


def build_corpus(n: int, out: Path, seed: int = 7) -> int:
    """Write ``n`` articles; returns the total number of characters."""
    from pipeline.reference import load_reference

    rng = random.Random(seed)
    ref = load_reference(ROOT / "reference")
    models = [a for p in ref.products.values() for a in p.aliases if re.search(r"\d", a)]
    paragraphs = []
    for f in sorted((ROOT / "corpus").glob("*.txt")):
        paragraphs += [p for p in re.split(r"\n\s*\n", f.read_text(encoding="utf-8")) if len(p.strip()) > 20]
    out.mkdir(parents=True, exist_ok=True)
    total = 0
    for i in range(n):
        body = []
        for p in rng.sample(paragraphs, k=min(len(paragraphs), rng.randint(8, 16))):
            p = _MODEL.sub(lambda _m: rng.choice(models), p)
            p = _NUMBER.sub(lambda m: str(max(1, int(int(m.group(0)) * rng.choice((0.5, 1, 1, 1, 2))))), p)
            body.append(p)
        text = f"第{i}篇：{rng.choice(models)}评测\n\n" + "\n\n".join(body) + "\n"
        (out / f"a{i:06d}.txt").write_text(text, encoding="utf-8")
        total += len(text)
    return total


def bare_jieba(texts: list[str]) -> float:
    import jieba

    jieba.initialize()
    t = time.perf_counter()
    for text in texts:
        for _ in jieba.cut(text):
            pass
    return time.perf_counter() - t


def pipeline_run(corpus: Path, out: Path, workers: int, full: bool) -> tuple[float, float, int]:
    """(seconds, seconds to the first document, exit code) for one run of the whole job."""
    from pipeline.config import Config
    from pipeline.run import RunOptions, run

    first: list[float] = []
    t = time.perf_counter()

    def progress(i: int, total: int, _r: object) -> None:
        if not first:
            first.append(time.perf_counter() - t)

    summary = run(RunOptions(corpus=corpus, config=Config(out_dir=out, workers=workers), full=full), progress)
    return time.perf_counter() - t, (first[0] if first else 0.0), summary.exit_code


# (label, module, attribute): disjoint stages of one document's path through `run` (none calls another)
STAGES = (
    ("read and decode", "pipeline.ingest", "read_document"),
    ("segment (spaCy + jieba, mentions, sentences)", "pipeline.segment:Segmenter", "segment"),
    ("extract claims", "pipeline.api", "extract_claims"),
    ("check claims", "pipeline.api", "check_claims"),
    ("code checks (pyflakes)", "pipeline.codecheck", "code_claims"),
    ("state (SQLite)", "pipeline.store:Store", "save_result"),
    ("claims suite (great-expectations), batches", "pipeline.validation:ClaimsValidator", "add"),
    ("claims suite (great-expectations), last batch", "pipeline.validation:ClaimsValidator", "finish"),
    ("document reports (md, html, json)", "pipeline.report", "write_document_report"),
    ("claims.csv", "pipeline.report", "write_claims_csv"),
    ("index.html and summary.md", "pipeline.report", "write_index"),
)


def stage_times(corpus: Path, out: Path, workers: int) -> dict[str, float]:
    """Milliseconds per document in each stage, and for the rest of the run, timing one full run (in this
    process, after the measured runs: one-off imports such as great-expectations are already paid)."""
    import importlib

    spent: collections.Counter[str] = collections.Counter()
    patched = []
    for label, where, name in STAGES:
        module_name, _, cls = where.partition(":")
        owner = importlib.import_module(module_name)
        owner = getattr(owner, cls) if cls else owner
        original = getattr(owner, name)

        def timed(*a: object, _f=original, _label=label, **k: object) -> object:
            t = time.perf_counter()
            try:
                return _f(*a, **k)
            finally:
                spent[_label] += time.perf_counter() - t

        patched.append((owner, name, original))
        setattr(owner, name, functools.wraps(original)(timed))
    try:
        total, _first, _code = pipeline_run(corpus, out, workers, full=True)
    finally:
        for owner, name, original in patched:
            setattr(owner, name, original)
    docs = len(list(corpus.glob("*.txt")))
    rows = {label: round(spent[label] / docs * 1000, 2) for label, _w, _n in STAGES}
    rows["rest (planning, run tables, ClaimReview, progress)"] = round((total - sum(spent.values())) / docs * 1000, 2)
    rows["total"] = round(total / docs * 1000, 2)
    return rows


def import_seconds(module: str) -> float:
    """Seconds to import ``module`` in a fresh interpreter (paid once per run that needs it)."""
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(res.stdout.strip().splitlines()[-1])


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child_peak(corpus: Path, workers: int) -> float:
    code = (
        f"import resource,sys; sys.path.insert(0, {str(ROOT)!r})\n"
        "from pathlib import Path\nfrom pipeline.config import Config\nfrom pipeline.run import RunOptions, run\n"
        "import tempfile\n"
        f"run(RunOptions(corpus=Path({str(corpus)!r}), config=Config(out_dir=Path(tempfile.mkdtemp()), "
        f"workers={workers}), use_state=False))\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(res.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docs", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--memory-sizes", default="", help="comma-separated corpus sizes for the memory check")
    ap.add_argument("--stages", action="store_true", help="also time each stage (ms per document)")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="gpu-factcheck-bench-"))
    t0 = time.perf_counter()
    import pipeline.cli  # noqa: F401  - what `python -m pipeline` imports before the first document
    chars = build_corpus(args.docs, work / "corpus")
    texts = [p.read_text(encoding="utf-8") for p in sorted((work / "corpus").glob("*.txt"))]
    _ = t0
    jieba_s = bare_jieba(texts)
    full_s, first_s, code = pipeline_run(work / "corpus", work / "reports", args.workers, full=True)
    again_s, _first, _code = pipeline_run(work / "corpus", work / "reports", args.workers, full=False)
    rows = {
        "machine": f"{sys.platform}, {__import__('os').cpu_count()} cores, Python {sys.version.split()[0]}",
        "documents": args.docs, "characters": chars, "workers": args.workers,
        "bare_jieba_docs_per_s": round(args.docs / jieba_s, 1),
        "bare_jieba_chars_per_s": round(chars / jieba_s),
        "pipeline_docs_per_s": round(args.docs / full_s, 1),
        "pipeline_chars_per_s": round(chars / full_s),
        "ratio_pipeline_to_jieba": round(jieba_s / full_s, 3),
        "startup_to_first_document_s": round(first_s, 2),
        "incremental_rerun_s": round(again_s, 2),
        "incremental_share_of_full": round(again_s / full_s, 4),
        "peak_rss_mb": round(peak_rss_mb(), 1),
        "great_expectations_import_s": round(import_seconds("great_expectations"), 2),
        "exit_code": code,
    }
    for size in [int(s) for s in args.memory_sizes.split(",") if s.strip()]:
        build_corpus(size, work / f"corpus{size}")
        rows[f"peak_rss_mb_{size}_docs"] = round(child_peak(work / f"corpus{size}", args.workers), 1)
    width = max(len(k) for k in rows)
    for k, v in rows.items():
        print(f"{k:<{width}}  {v}")
    print(json.dumps(rows, ensure_ascii=False))
    if args.stages:
        if args.workers > 1:
            print("--stages times the stages in this process: run it with --workers 1")
            return
        stages = stage_times(work / "corpus", work / "reports-stages", args.workers)
        width = max(len(k) for k in stages)
        print(f"\n{'stage':<{width}}  ms/document")
        for k, v in stages.items():
            print(f"{k:<{width}}  {v}")
        print(json.dumps(stages, ensure_ascii=False))


if __name__ == "__main__":
    main()
