"""Every default in one place."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
PROJECT_DIR = PACKAGE_DIR.parent
PACKAGED_REFERENCE = "_reference"  # the wheel's copy of the top-level reference/ (written by setup.py)


def default_reference_dir(package_dir: Path = PACKAGE_DIR) -> Path:
    """The checkout's ``reference/`` beside the package (the one source), else the copy shipped in the wheel."""
    checkout = package_dir.parent
    if (checkout / "pyproject.toml").is_file() and (checkout / "reference").is_dir():
        return checkout / "reference"
    return package_dir / PACKAGED_REFERENCE


DEFAULT_REFERENCE_DIR = default_reference_dir()

ARTICLE_SUFFIXES: tuple[str, ...] = (".txt", ".md", ".markdown", ".html", ".htm")


@dataclass(frozen=True)
class Tolerance:
    """Relative tolerances used when comparing a stated number with the reference."""

    exact: float = 0.0  # counts and sizes must match
    exact_rate: float = 0.035  # bandwidths, throughput: marketing rounding (2TB/s vs 2039 GB/s)
    approx: float = 0.10  # 约 / 左右 / 近
    multiple: float = 0.05  # a ratio between two products written as an exact multiple or percentage (两倍, 提升70%)
    # a whole multiple (3倍) is a rounded figure: vendors write 3x for 3.4x, rarely for 2.6x
    whole_multiple_below: float = 0.15
    whole_multiple_above: float = 0.20
    board_length_mm: float = 5.0  # a board's length: vendors and reviewers measure a few mm apart
    date_days: int = 31  # a launch date: announcement and availability are weeks apart


@dataclass(frozen=True)
class Config:
    reference_dir: Path = DEFAULT_REFERENCE_DIR
    out_dir: Path = Path("reports")
    max_bytes: int = 20 * 1024 * 1024  # larger files are reported and skipped
    max_seconds: float = 60.0  # per-document time budget: reading, analysis and its reports
    max_claims: int = 5_000  # a document with more claims is an error (its outputs would swamp the tables)
    max_output_bytes: int = 32 * 1024 * 1024  # a document whose outputs (table lines, reports) take more is an error
    follow_symlinks: bool = False  # read articles behind symbolic links that leave the corpus
    window_chars: int = 8000  # text goes to spaCy in pieces of at most this many characters, cut at line breaks
    workers: int = 1
    write_segments: bool = False
    author: str = "gpu-factcheck"
    claimreview_url: str | None = None  # e.g. https://example.com/articles/{doc_id}: each ClaimReview's url
    timezone: str = ""  # the zone the pages show times in (an IANA name, e.g. Asia/Shanghai); "" the machine's
    tolerance: Tolerance = field(default_factory=Tolerance)
