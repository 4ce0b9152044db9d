"""Shared fixtures: the reference tables and the segmenter are loaded once per test session; state databases."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from pipeline.config import DEFAULT_REFERENCE_DIR
from pipeline.knowledge.reference import Reference, load_reference
from pipeline.segment import Segmenter, get_segmenter
from pipeline.state.store import Store
from tests.store_builders import PIPE, REF, gpu_claims, make_result

# CI runs the property tests on a fixed set of examples (derived from each test's name), so that a submission is
# judged on the examples it was checked with; locally they explore new ones on every run.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(scope="session")
def ref() -> Reference:
    return load_reference(DEFAULT_REFERENCE_DIR)


@pytest.fixture(scope="session")
def segmenter(ref: Reference) -> Segmenter:
    return get_segmenter(ref)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A Dask cluster in this process (one worker thread), shared by a module's Dask tests."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as c:
        yield c


@pytest.fixture
def fresh_store(tmp_path: Path) -> Iterator[Store]:
    with Store(tmp_path / "state" / "state.sqlite") as store:
        yield store


@pytest.fixture
def reviewed(fresh_store: Store) -> Store:
    run = fresh_store.begin_run(REF, PIPE)
    fresh_store.save_result(run, make_result("a.md", gpu_claims("a.md")), REF, PIPE)
    fresh_store.save_result(run, make_result("b.md", gpu_claims("b.md")), REF, PIPE)
    return fresh_store


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for a module of browser tests (skipped where it or Playwright is missing)."""
    from tests.browser_support import CHROMIUM, FLAGS, sync_api

    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield b
        b.close()


@pytest.fixture
def viewport() -> dict[str, int]:
    """The window of a browser test's page; a module may set its own."""
    return {"width": 1280, "height": 900}


@pytest.fixture
def page(browser: Any, viewport: dict[str, int]) -> Iterator[Any]:
    """A fresh context per test; fails the test on any uncaught script error or CSP violation."""
    context = browser.new_context(viewport=viewport, locale="zh-CN")
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    pg.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    pg.set_default_timeout(5000)
    yield pg
    context.close()
    assert errors == [], errors
