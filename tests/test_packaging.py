"""Packaging: the wheel has every module and ships reference/ as package data (reference/ is the one source);
an installed package finds its own copy, a checkout reads reference/, and --reference overrides both."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from pipeline.config import DEFAULT_REFERENCE_DIR, PACKAGED_REFERENCE, default_reference_dir

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ("csv", "md")  # what setup.py copies from reference/


def test_a_checkout_reads_reference_itself() -> None:
    assert DEFAULT_REFERENCE_DIR == ROOT / "reference"


# fmt: off
LAYOUTS = [
    # files beside the package,                        the tables used
    (["pyproject.toml", "reference/specs.csv"],        "reference"),            # a source checkout
    (["reference/specs.csv"],                          "pipeline/_reference"),  # site-packages with a stray folder
    ([],                                               "pipeline/_reference"),  # an installed wheel
]
# fmt: on


@pytest.mark.parametrize(("beside", "used"), LAYOUTS)
def test_default_reference_dir(tmp_path: Path, beside: list[str], used: str) -> None:
    package = tmp_path / "pipeline"
    (package / PACKAGED_REFERENCE).mkdir(parents=True)
    for name in beside:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    assert default_reference_dir(package) == tmp_path / used


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
                          capture_output=True, text=True)
    if proc.returncode != 0 and "No matching distribution" in proc.stderr:
        pytest.skip("the build backend (setuptools) cannot be installed here")
    assert proc.returncode == 0, proc.stderr
    (built,) = out.glob("gpu_factcheck-*.whl")
    return zipfile.ZipFile(built)


@pytest.mark.slow
def test_the_wheel_ships_reference_as_it_is(wheel: zipfile.ZipFile) -> None:
    shipped = {Path(n).name: wheel.read(n) for n in wheel.namelist() if n.startswith(f"pipeline/{PACKAGED_REFERENCE}/")}
    source = {p.name: p.read_bytes() for p in (ROOT / "reference").iterdir() if p.suffix.lstrip(".") in SHIPPED}
    assert sorted(shipped) == sorted(source)
    for name, data in source.items():
        assert shipped[name] == data, f"pipeline/{PACKAGED_REFERENCE}/{name} differs from reference/{name}"


@pytest.mark.slow
def test_the_wheel_has_every_file_of_the_package(wheel: zipfile.ZipFile) -> None:
    """Modules of every subpackage, templates, data tables: automatic discovery and package data miss nothing."""
    names = set(wheel.namelist())
    sources = [p.relative_to(ROOT).as_posix() for p in (ROOT / "pipeline").rglob("*")
               if p.is_file() and "__pycache__" not in p.parts and PACKAGED_REFERENCE not in p.parts
               and p.suffix != ".pyc"]
    assert "pipeline/knowledge/validation/__init__.py" in sources
    assert sorted(set(sources) - names) == []
    assert not [n for n in names if n.startswith(("tests/", "bench/", "reference/"))]
