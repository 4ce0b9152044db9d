"""Throughput benchmark (never run as a test).

    python bench/run.py [--docs 1000] [--rounds 3] [--workers 1,2] [--dask] [--startup 3]
                        [--memory-sizes 1000,10000] [--stages] [--readme]

Builds a corpus with the statistics of real articles (measured from ../shared/dev and ../shared/dev_real and
printed beside the generated corpus's; see bench/corpus.py), then measures in this one process, warm (a first run
pays the imports and builds the caches), in rounds that alternate the measures (3 by default; min, median and max
are reported):

- bare jieba on the raw text of each file;
- jieba on the prose the pipeline feeds it (code, tables and markup blanked, in the pipeline's windows);
- spaCy's tokenizer with jieba on that prose: the pipeline's own floor;
- the full pipeline (`run` with state, reports, claims tables, ClaimReview, validation) with each of --workers,
  and with --dask on a LocalCluster of two worker processes;
- with --bound, the full pipeline on one worker with extraction made to find no claim: what reading, segmenting,
  the reports, state and tables cost by themselves, a lower bound for any faster extractor (not a product figure).

Each measure has its wall and CPU time (workers' CPU included) and the load average when it ran; pipeline runs
also the main process's CPU per document once the first document is in (what decides how far a cluster scales).
Then, in child processes: start-up from process start to the first document (`python -m pipeline run`, median of
--startup runs, and one with no caches at all) and the peak RSS of runs over --memory-sizes documents.
``--readme`` rewrites the results table of bench/README.md from this run.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import functools
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from corpus import Profile, build_corpus, corpus_stats, pooled  # noqa: E402

README = ROOT / "bench" / "README.md"
BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"


def real_folders() -> list[Path]:
    """../shared/dev/corpus and ../shared/dev_real/corpus beside the checkout (or beside its worktree folder)."""
    for shared in (ROOT.parent / "shared", ROOT.parent.parent / "shared"):
        found = [shared / s / "corpus" for s in ("dev", "dev_real") if (shared / s / "corpus").is_dir()]
        if found:
            return found
    return []


def load() -> float:
    """The 1-minute load average (other work on the machine while a measure ran)."""
    return os.getloadavg()[0]


# ---------------------------------------------------------------- one measure

@dataclass
class Sample:
    wall: float
    cpu: float  # this process and its workers
    load: float
    main_cpu_per_doc: float | None = None  # ms, after the first document
    first_doc: float | None = None


@dataclass
class Measure:
    name: str
    docs: int
    samples: list[Sample] = field(default_factory=list)

    def rates(self) -> list[float]:
        return sorted(self.docs / s.wall for s in self.samples)

    def median(self, attr: str) -> float:
        values = [getattr(s, attr) for s in self.samples if getattr(s, attr) is not None]
        return statistics.median(values) if values else float("nan")


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


@contextlib.contextmanager
def timed(extra_cpu: Callable[[], float] = lambda: 0.0) -> Iterator[dict[str, float]]:
    got: dict[str, float] = {}
    before_load, t, c, ch, x = load(), time.perf_counter(), time.process_time(), _children_cpu(), extra_cpu()
    yield got
    got["wall"] = time.perf_counter() - t
    got["cpu"] = time.process_time() - c + _children_cpu() - ch + extra_cpu() - x
    got["load"] = max(before_load, load())


def segment_floor(pieces_or_texts: list[str], tokenize: Callable[[str], Any]) -> Sample:
    with timed() as got:
        for text in pieces_or_texts:
            tokenize(text)
    return Sample(got["wall"], got["cpu"], got["load"])


def _drain(cut: Callable[[str], Any]) -> Callable[[str], None]:
    def run(text: str) -> None:
        for _ in cut(text):
            pass
    return run


def pipeline_sample(corpus: Path, out: Path, *, workers: int, engine: str = "local", scheduler: str | None = None,
                    extra_cpu: Callable[[], float] = lambda: 0.0) -> Sample:
    """One full run (state, every output) into a new folder."""
    from pipeline.config import Config
    from pipeline.run import RunOptions, run

    shutil.rmtree(out, ignore_errors=True)
    first: list[float] = []
    t = time.perf_counter()

    def progress(i: int, total: int, _r: object) -> None:
        if not first:
            first.extend((time.perf_counter() - t, time.process_time()))

    opts = RunOptions(corpus=corpus, config=Config(out_dir=out, workers=workers), full=True, engine=engine,
                      scheduler=scheduler)
    with timed(extra_cpu) as got:
        summary = run(opts, progress)
    if summary.exit_code not in (0, 1, 3):
        raise RuntimeError(f"the pipeline run failed: {summary}")
    docs = summary.processed
    main_cpu = (time.process_time() - first[1]) / max(1, docs - 1) * 1000 if first else None
    return Sample(got["wall"], got["cpu"], got["load"], main_cpu, first[0] if first else None)


@contextlib.contextmanager
def no_claims() -> Iterator[None]:
    """Extraction finds nothing while this is open (one worker runs in this process, so the patch reaches it)."""
    import pipeline.run.document

    original = pipeline.run.document.extract_claims
    pipeline.run.document.extract_claims = lambda *_a, **_k: []
    try:
        yield
    finally:
        pipeline.run.document.extract_claims = original


def bound_sample(corpus: Path, out: Path) -> Sample:
    """One worker with no claim extracted: every other stage's cost, the floor of what a faster extractor buys."""
    with no_claims():
        return pipeline_sample(corpus, out, workers=1)


# ---------------------------------------------------------------- child processes

def start_dask(work: Path, env: dict[str, str], started: list[subprocess.Popen[bytes]]) -> str:
    """A Dask scheduler and two one-thread workers, each a process of its own (as on a real cluster, so this
    process is only the client and its CPU is the run's main-process CPU); returns the scheduler's address."""
    from distributed import Client

    sched_file = work / "dask-scheduler.json"
    sched_file.unlink(missing_ok=True)
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": env, "cwd": ROOT}
    started.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--scheduler-file",
                                     str(sched_file), "--port", "0", "--no-dashboard"], **quiet))
    for _ in range(600):
        if sched_file.exists() and sched_file.stat().st_size:
            break
        time.sleep(0.1)
    started.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file",
                                     str(sched_file), "--nworkers", "2", "--nthreads", "1", "--no-dashboard"],
                                    **quiet))
    with Client(scheduler_file=str(sched_file), timeout="60s") as client:
        client.wait_for_workers(2, timeout=120)
        return str(client.scheduler.address)


def cluster_cpu(procs: list[subprocess.Popen[bytes]]) -> float:
    """CPU seconds of the scheduler and the workers (with their nannies' children)."""
    import psutil

    total = 0.0
    for proc in procs:
        with contextlib.suppress(psutil.Error):
            p = psutil.Process(proc.pid)
            for q in (p, *p.children(recursive=True)):
                with contextlib.suppress(psutil.Error):
                    total += sum(q.cpu_times()[:2])
    return total


_FIRST_DOCUMENT = """
import sys
import pipeline.run as r
real = r.run
def run(opts, progress=None):
    def tick(i, total, result):
        if i == 1:
            print("first-document", flush=True)
        if progress:
            progress(i, total, result)
    return real(opts, tick)
r.run = run
from pipeline.cli import app
app(sys.argv[1:], prog_name="pipeline")
"""


def startup(corpus: Path, out: Path, args: list[str], env: dict[str, str]) -> float:
    """Seconds from starting `python -m pipeline run` (as a new process) to its first document."""
    shutil.rmtree(out, ignore_errors=True)
    t = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", _FIRST_DOCUMENT, "run", str(corpus), "--out", str(out), "--quiet",
                             *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    seconds = time.perf_counter() - t
    proc.wait()
    if line.strip() != "first-document":
        raise RuntimeError(f"the run printed {line!r} instead of reaching its first document")
    return seconds


# VmHWM, not ru_maxrss: on Linux a child's ru_maxrss starts at its parent's (this benchmark's) RSS at the fork
_PEAK = """
import re, resource, sys, time
from pathlib import Path
from pipeline.config import Config
from pipeline.run import RunOptions, run
t = time.perf_counter()
run(RunOptions(corpus=Path(sys.argv[1]), config=Config(out_dir=Path(sys.argv[2]), workers=1)))
seconds = time.perf_counter() - t
try:
    peak = int(re.search(r"VmHWM:\\s*(\\d+) kB", open("/proc/self/status").read()).group(1)) / 1024
except (OSError, AttributeError):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(peak, seconds)
"""


def peak_rss(corpus: Path, out: Path, env: dict[str, str]) -> tuple[float, float]:
    """(peak RSS in MB, seconds) of one run with state and every output, one worker, in a child process."""
    shutil.rmtree(out, ignore_errors=True)
    res = subprocess.run([sys.executable, "-c", _PEAK, str(corpus), str(out)], capture_output=True, text=True,
                         check=True, cwd=ROOT, env=env)
    mb, seconds = res.stdout.split()[-2:]
    return float(mb), float(seconds)


def import_seconds(module: str, env: dict[str, str]) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    return float(res.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------- where a document's time goes (--stages)

# (label, module, attribute): disjoint stages of a document's path through `run` with one worker
STAGES = (
    ("read and decode", "pipeline.ingest", "read_document"),
    ("segment (spaCy + jieba, mentions, sentences)", "pipeline.segment:Segmenter", "segment"),
    ("extract claims", "pipeline.run.document", "extract_claims"),
    ("check claims", "pipeline.run.document", "check_claims"),
    ("code checks (pyflakes)", "pipeline.check.code", "code_claims"),
    ("document reports (md, html, json)", "pipeline.report", "document_report_files"),
    ("ClaimReview objects", "pipeline.report", "claimreview_objects"),
    ("claims.csv rows", "pipeline.report.tables", "csv_rows"),
    ("claims suite rows", "pipeline.knowledge.validation.claims_suite", "claim_row"),
    ("state (SQLite, batches)", "pipeline.state.store:Store", "save_prepared"),
    ("claims suite (great-expectations)", "pipeline.knowledge.validation:ClaimsValidator", "_flush"),
    ("appending to the run tables", "pipeline.run.outputs:Outputs", "add"),
    ("index.html and summary.md", "pipeline.report", "write_index"),
)
REST = "rest (planning, claim records and lines, index lines, fingerprints, progress)"


def stage_times(corpus: Path, out: Path, workers: int = 1) -> dict[str, float]:
    """Milliseconds per document in each stage, and for the rest of the run, timing one full run in this process
    (after the measured runs: one-off imports are already paid)."""
    import importlib

    spent: collections.Counter[str] = collections.Counter()
    patched = []
    for label, where, name in STAGES:
        module_name, _, cls = where.partition(":")
        owner = importlib.import_module(module_name)
        owner = getattr(owner, cls) if cls else owner
        original = getattr(owner, name)

        def stage(*a: object, _f: Any = original, _label: str = label, **k: object) -> object:
            t = time.perf_counter()
            try:
                return _f(*a, **k)
            finally:
                spent[_label] += time.perf_counter() - t

        patched.append((owner, name, original))
        setattr(owner, name, functools.wraps(original)(stage))
    try:
        sample = pipeline_sample(corpus, out, workers=workers)
    finally:
        for owner, name, original in patched:
            setattr(owner, name, original)
    docs = sum(1 for p in corpus.iterdir() if p.is_file())
    rows = {label: round(spent[label] / docs * 1000, 2) for label, _w, _n in STAGES}
    rows[REST] = round((sample.wall - sum(spent.values())) / docs * 1000, 2)
    rows["total"] = round(sample.wall / docs * 1000, 2)
    return rows


# ---------------------------------------------------------------- the report

def _rate(m: Measure) -> str:
    r = m.rates()
    return f"{r[0]:.1f} / **{statistics.median(r):.1f}** / {r[-1]:.1f}"


def _ratio(a: Measure, b: Measure) -> tuple[float, float, float]:
    """a's throughput over b's, paired round by round (each round ran both under the same load)."""
    pairs = sorted(sb.wall / sa.wall for sa, sb in zip(a.samples, b.samples, strict=False))
    return pairs[0], statistics.median(pairs), pairs[-1]


def _cpu_ratio(a: Measure, b: Measure) -> tuple[float, float, float]:
    """a's throughput over b's by CPU time (what the load of other work on the machine changes least)."""
    pairs = sorted(sb.cpu / sa.cpu for sa, sb in zip(a.samples, b.samples, strict=False))
    return pairs[0], statistics.median(pairs), pairs[-1]


def _fmt_ratio(r: tuple[float, float, float]) -> str:
    return f"{r[0]:.3f} / **{r[1]:.3f}** / {r[2]:.3f}"


def table(measures: dict[str, Measure], facts: dict[str, Any]) -> list[str]:
    lines = ["| measure | docs/s (min / median / max) | ms/doc | CPU s | main CPU ms/doc | load |",
             "|---|---|---:|---:|---:|---|"]
    for m in measures.values():
        wall = m.median("wall")
        main = m.median("main_cpu_per_doc")
        loads = "–".join(f"{x:.1f}" for x in (min(s.load for s in m.samples), max(s.load for s in m.samples)))
        lines.append(f"| {m.name} | {_rate(m)} | {wall / m.docs * 1000:.2f} | {m.median('cpu'):.1f} | "
                     f"{'' if main != main else f'{main:.2f}'} | {loads} |")
    lines += ["", "| ratio (paired by round) | min / median / max |", "|---|---|"]
    for label, value in facts["ratios"].items():
        lines.append(f"| {label} | {_fmt_ratio(value)} |")
    lines += ["", "| figure | value |", "|---|---|"]
    for label, value in facts["figures"].items():
        lines.append(f"| {label} | {value} |")
    return lines


def stats_table(columns: dict[str, dict[str, Any]]) -> list[str]:
    keys = ("documents", "chars_per_doc", "han_per_doc", "numbers_per_doc", "code_share", "prose_share",
            "docs_with_code", "tables_per_doc", "claims_per_doc", "flags_per_doc", "traditional_share", "formats")
    names = list(columns)
    lines = ["| per document | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for k in keys:
        cells = []
        for n in names:
            v = columns[n].get(k, "")
            cells.append(", ".join(f"{a} {b}" for a, b in v.items()) if isinstance(v, dict) else str(v))
        lines.append(f"| {k} | " + " | ".join(cells) + " |")
    return lines


def write_readme(lines: list[str]) -> None:
    text = README.read_text(encoding="utf-8")
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    README.write_text(head + BEGIN + "\n" + "\n".join(lines) + "\n" + END + tail, encoding="utf-8")


# ---------------------------------------------------------------- main

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docs", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--workers", default="1,2", help="comma-separated worker counts for the local engine")
    ap.add_argument("--dask", action="store_true", help="also run on a Dask LocalCluster with two workers")
    ap.add_argument("--startup", type=int, default=3, help="start-up runs (child processes); 0 skips them")
    ap.add_argument("--memory-sizes", default="", help="comma-separated corpus sizes for the peak RSS check")
    ap.add_argument("--stages", action="store_true", help="also time each stage (ms per document, one worker)")
    ap.add_argument("--bound", action="store_true",
                    help="also time one worker with extraction finding no claim (the lower bound for the ratio)")
    ap.add_argument("--readme", action="store_true", help="rewrite the table in bench/README.md")
    ap.add_argument("--work", type=Path, default=None, help="folder for corpora and outputs (default: a temp folder)")
    ap.add_argument("--real", type=Path, nargs="*", default=None,
                    help="folders of real articles whose statistics the corpus copies (default: ../shared/dev/corpus "
                         "and ../shared/dev_real/corpus)")
    args = ap.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="gpu-factcheck-bench-"))
    # the pipeline's caches (reference validation, jieba's dictionary) of this benchmark alone: other checkouts on
    # the machine share ~/.cache and would make the measured runs validate again
    cache = work / "cache"
    os.environ["XDG_CACHE_HOME"] = str(cache)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    print(f"work folder {work}; load {load():.2f}", flush=True)

    real = {f"{p.parent.name}": corpus_stats(p) for p in (real_folders() if args.real is None else args.real)}
    profile = Profile.of(pooled(list(real.values()))) if real else Profile()
    corpus = work / "corpus"
    shutil.rmtree(corpus, ignore_errors=True)
    chars = build_corpus(args.docs, corpus, profile=profile)

    from pipeline.config import Config
    from pipeline.ingest import read_document, walk
    from pipeline.knowledge.reference import load_reference
    from pipeline.segment import get_segmenter, prose_pieces

    # warm: the first run imports everything (great-expectations among them) and builds the caches
    warm = pipeline_sample(corpus, work / "warm", workers=1)
    print(f"warm-up run: {args.docs / warm.wall:.1f} docs/s, first document after {warm.first_doc:.2f}s", flush=True)
    claims = [json.loads(line) for line in (work / "warm" / "claims.jsonl").read_text(encoding="utf-8").splitlines()]
    synthetic = corpus_stats(corpus, claims)
    columns = {**real, **({"dev + dev_real": pooled(list(real.values()))} if len(real) > 1 else {}),
               "benchmark corpus": synthetic}
    for line in stats_table(columns):
        print(line)

    ref = load_reference(Config().reference_dir)
    seg = get_segmenter(ref)
    import jieba

    paths = walk(corpus).articles
    texts = [p.read_text(encoding="utf-8") for p in paths]
    pieces = [piece for p in paths for piece in prose_pieces(read_document(p, corpus), Config().window_chars)]
    prose_chars = sum(len(p) - p.count(" ") - p.count("\n") for p in pieces)  # the analysed text, blanks out
    cut = _drain(jieba.cut)

    worker_counts = [int(w) for w in args.workers.split(",") if w.strip()]
    measures: dict[str, Measure] = {
        "bare": Measure("bare jieba, raw text", args.docs),
        "prose": Measure("jieba on the pipeline's prose", args.docs),
        "floor": Measure("spaCy + jieba on that prose (floor)", args.docs),
        **{f"w{w}": Measure(f"full pipeline, --workers {w}", args.docs) for w in worker_counts},
    }
    runs: dict[str, Callable[[], Sample]] = {
        "bare": lambda: segment_floor(texts, cut),
        "prose": lambda: segment_floor(pieces, cut),
        "floor": lambda: segment_floor(pieces, seg.nlp.make_doc),
        **{f"w{w}": functools.partial(pipeline_sample, corpus, work / f"out-w{w}", workers=w)
           for w in worker_counts},
    }
    if args.bound and 1 in worker_counts:
        measures["bound"] = Measure("the pipeline, --workers 1, extraction finding no claim (bound)", args.docs)
        runs["bound"] = functools.partial(bound_sample, corpus, work / "out-bound")
    cluster: list[subprocess.Popen[bytes]] = []
    if args.dask:
        scheduler = start_dask(work, env, cluster)
        pipeline_sample(corpus, work / "warm-dask", workers=1, engine="dask", scheduler=scheduler)
        measures["dask"] = Measure("full pipeline, Dask cluster (scheduler + 2 workers)", args.docs)
        runs["dask"] = functools.partial(pipeline_sample, corpus, work / "out-dask", workers=1, engine="dask",
                                         scheduler=scheduler, extra_cpu=lambda: cluster_cpu(cluster))
    order = list(runs)
    for r in range(args.rounds):
        for key in order[r % len(order):] + order[:r % len(order)]:  # each round starts one measure later
            sample = runs[key]()
            measures[key].samples.append(sample)
            print(f"round {r + 1}: {measures[key].name}: {args.docs / sample.wall:.1f} docs/s, wall "
                  f"{sample.wall:.2f}s, CPU {sample.cpu:.2f}s, load {sample.load:.2f}"
                  + (f", main CPU {sample.main_cpu_per_doc:.2f} ms/doc" if sample.main_cpu_per_doc else ""),
                  flush=True)
    for proc in reversed(cluster):  # the processes this benchmark started, by their pid
        proc.terminate()
        proc.wait(30)

    one = measures.get("w1")
    ratios: dict[str, tuple[float, float, float]] = {}
    if one:
        ratios["pipeline / floor (spaCy + jieba on the prose), --workers 1"] = _ratio(one, measures["floor"])
        ratios["pipeline / jieba on the prose, --workers 1"] = _ratio(one, measures["prose"])
        ratios["pipeline / bare jieba on the raw text, --workers 1"] = _ratio(one, measures["bare"])
        ratios["pipeline / floor, --workers 1, by CPU time"] = _cpu_ratio(one, measures["floor"])
        ratios["pipeline / bare jieba, --workers 1, by CPU time"] = _cpu_ratio(one, measures["bare"])
        for w in worker_counts:
            if w != 1:
                ratios[f"--workers {w} / --workers 1"] = _ratio(measures[f"w{w}"], one)
        if "dask" in measures:
            ratios["Dask, 2 workers / local --workers 1"] = _ratio(measures["dask"], one)
        if "bound" in measures:
            ratios["pipeline with no claim extracted / floor, --workers 1 (the best any extractor could reach)"] = \
                _ratio(measures["bound"], measures["floor"])
    figures: dict[str, Any] = {
        "documents / characters / prose characters (without blanks)": f"{args.docs:,} / {chars:,} / {prose_chars:,}",
        # what the runs read: a faster run that extracts less shows here
        "claims extracted per document (flags per document)":
            f"{synthetic['claims_per_doc']} ({synthetic['flags_per_doc']})",
        "machine": f"{sys.platform}, {os.cpu_count()} cores, Python {sys.version.split()[0]}",
    }
    if args.startup:
        small = work / "corpus-startup"
        shutil.rmtree(small, ignore_errors=True)
        build_corpus(50, small, seed=11, profile=profile)
        cold_env = {**env, "XDG_CACHE_HOME": str(work / "cache-cold")}
        shutil.rmtree(work / "cache-cold", ignore_errors=True)
        cold = startup(small, work / "out-startup", ["--no-state", "--workers", "1"], cold_env)
        for label, extra in (("--workers 1", ["--workers", "1"]), ("default --workers (all cores)", [])):
            times = sorted(startup(small, work / "out-startup", ["--no-state", *extra], env)
                           for _ in range(args.startup))
            figures[f"start-up to the first document, {label} (median of {len(times)})"] = \
                f"**{statistics.median(times):.2f} s** ({' / '.join(f'{t:.2f}' for t in times)}; load {load():.1f})"
        figures["start-up with no caches at all (first run on a machine), --workers 1"] = f"{cold:.2f} s"
        figures["`import great_expectations` in a fresh interpreter"] = \
            f"{import_seconds('great_expectations', env):.2f} s"
    sizes = [int(s) for s in args.memory_sizes.split(",") if s.strip()]
    peaks = {}
    for size in sizes:
        folder = work / f"corpus{size}"
        shutil.rmtree(folder, ignore_errors=True)
        build_corpus(size, folder, seed=size, profile=profile)
        peaks[size] = peak_rss(folder, work / f"out{size}", env)
        figures[f"peak RSS, {size:,} documents (one worker, with state)"] = \
            f"{peaks[size][0]:.1f} MB ({size / peaks[size][1]:.1f} docs/s; load {load():.1f})"
    if len(peaks) >= 2:
        lo, hi = min(peaks), max(peaks)
        figures[f"peak RSS, {hi:,} vs {lo:,} documents"] = f"{(peaks[hi][0] / peaks[lo][0] - 1) * 100:+.1f} %"
    facts = {"ratios": ratios, "figures": figures}
    lines = [f"Command: `python bench/run.py {' '.join(sys.argv[1:])}` ({time.strftime('%Y-%m-%d %H:%M')}).", "",
             *table(measures, facts), "", "Corpus statistics (means per document; shares of characters):", "",
             *stats_table(columns)]
    if args.stages:
        stages = stage_times(corpus, work / "out-stages")
        lines += ["", "| stage, --workers 1 | ms/document |", "|---|---:|",
                  *(f"| {k} | {v} |" for k, v in stages.items())]
    print("\n" + "\n".join(lines))
    print(json.dumps({"measures": {k: [s.__dict__ for s in m.samples] for k, m in measures.items()},
                      "ratios": ratios, "figures": figures, "corpus": {k: {a: b for a, b in v.items() if a != "lengths"}
                                                                       for k, v in columns.items()}},
                     ensure_ascii=False))
    if args.readme:
        write_readme(lines)


if __name__ == "__main__":
    main()
