"""Command line: thin wrappers over the library; our errors become exit code 2 with their message."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from .config import DEFAULT_REFERENCE_DIR, Config
from .errors import FactCheckError

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
        from .review import review_app
    except ImportError:  # pragma: no cover - the review module ships with the package
        return
    app.add_typer(review_app, name="review", help="Record editors' decisions on flagged claims.")


@app.command()
def run(
    corpus: Annotated[Path, typer.Argument(help="Folder of .txt/.md/.html articles (or one file).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Where reports and tables are written.")] = Path("reports"),
    reference: ReferenceOpt = DEFAULT_REFERENCE_DIR,
    workers: Annotated[int, typer.Option(help="Processes to use (default: all cores).")] = 0,
    fail_on: Annotated[str, typer.Option(
        "--fail-on", help="Exit 3 when a new open claim has one of these verdicts, e.g. contradicted,misattributed.",
    )] = "",
    full: Annotated[bool, typer.Option("--full", help="Reprocess every document, not only new or changed ones.")
                    ] = False,
    state: Annotated[Path | None, typer.Option(help="SQLite state file (default: OUT/state.sqlite).")] = None,
    no_state: Annotated[bool, typer.Option("--no-state", help="Keep no state: every run starts from nothing.")
                        ] = False,
    lock_timeout: Annotated[float, typer.Option(help="Seconds to wait for another run's lock.")] = 0.0,
    segments: Annotated[bool, typer.Option("--segments", help="Also write segments.jsonl (sentences, tokens).")
                        ] = False,
    max_seconds: Annotated[float, typer.Option(help="Per-document time limit.")] = 60.0,
    max_mb: Annotated[float, typer.Option(help="Skip (as an error) files larger than this many MB.")] = 20.0,
    engine: Annotated[str, typer.Option(help="local, or dask to use a Dask cluster.")] = "local",
    scheduler: Annotated[str | None, typer.Option(help="Dask scheduler address, e.g. tcp://10.0.0.5:8786.")
                         ] = None,
    author: Annotated[str, typer.Option(help="Author named in ClaimReview exports.")] = "gpu-factcheck",
    claimreview_url: Annotated[str | None, typer.Option(
        "--claimreview-url", help="URL of each ClaimReview, e.g. https://example.com/articles/{doc_id}.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress; print only the JSON summary line.")
                     ] = False,
) -> None:
    """Check every article under CORPUS and write reports to OUT.

    Exit codes: 0 all documents ok or skipped; 1 some documents had errors; 2 nothing processed (bad usage,
    missing folder, invalid reference); 3 with --fail-on, a new open claim has a listed verdict.
    """
    from .run import RunOptions

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("pipeline").setLevel(logging.WARNING if quiet else logging.INFO)
    verdicts = frozenset(v.strip() for v in fail_on.split(",") if v.strip())
    allowed = {"contradicted", "misattributed", "code_issue"}
    if verdicts - allowed:
        raise _fail(FactCheckError(f"--fail-on takes {', '.join(sorted(allowed))} (got {', '.join(verdicts)})"))
    if engine not in ("local", "dask"):
        raise _fail(FactCheckError("--engine is local or dask"))
    if claimreview_url is not None:
        from .report.claimreview import check_url_template

        try:
            check_url_template(claimreview_url)
        except FactCheckError as e:
            raise _fail(e) from e
    config = Config(reference_dir=reference, out_dir=out, workers=workers or os.cpu_count() or 1,
                    write_segments=segments, max_seconds=max_seconds, max_bytes=int(max_mb * 1024 * 1024),
                    author=author, claimreview_url=claimreview_url)
    opts = RunOptions(corpus=corpus, config=config, fail_on=verdicts, state=state, use_state=not no_state,
                      full=full, lock_timeout=lock_timeout, engine=engine, scheduler=scheduler)
    try:
        summary = _run_with_progress(opts, quiet)
    except FactCheckError as e:
        raise _fail(e) from e
    if quiet:
        typer.echo(summary.line())
    else:
        v = summary.verdicts
        typer.echo(
            f"{summary.documents} documents ({summary.processed} processed, {summary.carried_over} unchanged, "
            f"{summary.skipped} skipped, {summary.errors} errors), {summary.claims} claims: "
            f"{v.get('contradicted', 0)} contradicted, {v.get('misattributed', 0)} misattributed, "
            f"{v.get('code_issue', 0)} code issues, {v.get('supported', 0)} supported, "
            f"{v.get('unverifiable', 0)} unverifiable -> {summary.out_dir}/index.html ({summary.seconds:.1f}s)")
        typer.echo(summary.line(), err=True)
    raise typer.Exit(summary.exit_code)


def _run_with_progress(opts, quiet: bool):  # type: ignore[no-untyped-def]
    from .run import run as run_corpus

    if quiet or not sys.stderr.isatty():
        return run_corpus(opts)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  transient=True) as bar:
        task = bar.add_task("checking", total=None)

        def tick(i: int, total: int, result) -> None:  # type: ignore[no-untyped-def]
            bar.update(task, completed=i, total=total, description=f"checking {result.doc_id[:40]}")

        return run_corpus(opts, progress=tick)


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


@reference_app.command("validate")
def reference_validate(reference: ReferenceOpt = DEFAULT_REFERENCE_DIR) -> None:
    """Run the great-expectations suite over the reference tables; exit 2 on any problem."""
    from .validation import validate_reference

    try:
        result = validate_reference(reference, cache_dir=None)
    except FactCheckError as e:
        raise _fail(e) from e
    if result.ok:
        typer.secho(f"reference tables in {reference}: all checks passed", fg=typer.colors.GREEN)
        return
    typer.secho(result.summary(), fg=typer.colors.RED, err=True)
    raise typer.Exit(2)


@reference_app.command("show")
def reference_show(
    query: Annotated[str, typer.Argument(help="A card name as an article writes it: A100, 特斯拉P4, RTX3090 ...")],
    reference: ReferenceOpt = DEFAULT_REFERENCE_DIR,
) -> None:
    """Print a card's specs with their sources (fuzzy matches for near misses)."""
    from rich.console import Console
    from rich.table import Table

    from .lookup import find_products, spec_rows

    try:
        matches = find_products(query, reference)
    except FactCheckError as e:
        raise _fail(e) from e
    console = Console()
    if not matches:
        typer.secho(f"no card matches {query!r}", fg=typer.colors.RED, err=True)
        raise typer.Exit(1)
    product, exact, others = matches
    if not exact:
        console.print(f"[yellow]no exact match for {query!r}; closest: {product.name}[/yellow]")
    table = Table(title=f"{product.name} ({product.product_id})", show_lines=False)
    for col in ("variant", "attribute", "value", "source"):
        table.add_column(col, overflow="fold")
    for row in spec_rows(product.product_id, reference):
        table.add_row(*row)
    console.print(table)
    if others:
        console.print("also close: " + ", ".join(others))


_mount_review()
