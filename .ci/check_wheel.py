"""The wheel check: run by the virtual environment the wheel was installed in, from a temporary folder.

Usage: python .ci/check_wheel.py REPO. Checks that the package comes from site-packages (not the checkout), that
it ships reference/ unchanged, and that the main job runs on REPO/corpus with those tables; prints what it saw.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def main(repo: Path) -> int:
    import pipeline
    from pipeline.config import DEFAULT_REFERENCE_DIR
    from pipeline.knowledge.validation import reference_fingerprint

    package = Path(pipeline.__file__).resolve().parent
    problems: list[str] = []
    print(f"wheel check: pipeline imported from {package}")
    if package == repo / "pipeline" or "site-packages" not in package.parts:
        problems.append("the package was imported from the checkout, not from the installed wheel")
    shipped = sorted(p.name for p in DEFAULT_REFERENCE_DIR.iterdir())
    source = sorted(p.name for p in (repo / "reference").iterdir() if p.suffix in (".csv", ".md"))
    differ = [n for n in source if not (DEFAULT_REFERENCE_DIR / n).is_file()
              or (DEFAULT_REFERENCE_DIR / n).read_bytes() != (repo / "reference" / n).read_bytes()]
    print(f"wheel check: reference tables in {DEFAULT_REFERENCE_DIR}: {len(shipped)} files, "
          f"{len(source) - len(differ)}/{len(source)} equal to reference/")
    if DEFAULT_REFERENCE_DIR.parent != package or shipped != source or differ:
        problems.append(f"the shipped reference tables differ from reference/: {differ or shipped}")
    expected = reference_fingerprint(repo / "reference")[:12]
    cwd = Path.cwd()
    for args in ([], ["--reference", str(repo / "reference")]):
        out = cwd / f"reports{len(args)}"
        proc = subprocess.run([sys.executable, "-m", "pipeline", "run", str(repo / "corpus"), "--out", str(out),
                               "--quiet", *args], capture_output=True, text=True)
        lines = proc.stderr.splitlines()
        print(f"wheel check: run {' '.join(args) or '(default tables)'} from {cwd}: exit {proc.returncode}, "
              f"{lines[-1] if lines else 'no JSON line'}")
        summary = json.loads(lines[-1]) if lines else {}
        if proc.returncode != 0 or len(lines) != 1 or proc.stdout:
            problems.append(f"the run exited {proc.returncode} with stdout {proc.stdout!r}, stderr {proc.stderr!r}")
        elif summary.get("reference_version") != expected or not summary.get("documents"):
            problems.append(f"the run used tables {summary.get('reference_version')} (expected {expected})")
        elif not (out / "index.html").is_file():
            problems.append("the run wrote no index.html")
    for command in (["-m", "pipeline", "reference", "validate"], ["-m", "pipeline", "reference", "show", "A100"]):
        proc = subprocess.run([sys.executable, *command], capture_output=True, text=True)
        print(f"wheel check: python {' '.join(command)}: exit {proc.returncode}")
        if proc.returncode != 0:
            problems.append(f"{' '.join(command)} failed: {proc.stderr.strip()}")
    script = Path(sys.executable).with_name("gpu-factcheck")
    proc = subprocess.run([str(script), "--help"], capture_output=True, text=True)
    print(f"wheel check: {script.name} --help: exit {proc.returncode}")
    if proc.returncode != 0:
        problems.append("the gpu-factcheck script does not run")
    for problem in problems:
        print(f"wheel check FAILED: {problem}")
    print("wheel check: " + ("passed" if not problems else f"{len(problems)} problems"))
    return 1 if problems else 0


if __name__ == "__main__":
    os.environ.pop("PYTHONPATH", None)
    sys.exit(main(Path(sys.argv[1]).resolve()))
