"""Shared fixtures: the reference tables and the segmenter are loaded once per test session."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from pipeline.config import DEFAULT_REFERENCE_DIR
from pipeline.reference import Reference, load_reference
from pipeline.segment import Segmenter, get_segmenter

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
