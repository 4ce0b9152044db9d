"""Build step: the wheel ships the top-level ``reference/`` tables inside the package, as ``pipeline/_reference``.

``reference/`` stays the one source (editors change it there; a source checkout reads it directly, see
``pipeline.config.default_reference_dir``); this copies it into the build, so an installed wheel has its tables.
Everything else is in pyproject.toml.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

REFERENCE = Path(__file__).resolve().parent / "reference"
SHIPPED = Path("pipeline", "_reference")


class BuildPyWithReference(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install reads reference/ where it is
            return
        target = Path(self.build_lib) / SHIPPED
        self.mkpath(str(target))
        for source in sorted(REFERENCE.iterdir()):
            if source.is_file() and source.suffix in (".csv", ".md"):
                self.copy_file(str(source), str(target / source.name))


setup(cmdclass={"build_py": BuildPyWithReference})
