"""Shared fixtures: the reference tables and the segmenter are loaded once per test session."""

from __future__ import annotations

import pytest

from pipeline.config import DEFAULT_REFERENCE_DIR
from pipeline.reference import Reference, load_reference
from pipeline.segment import Segmenter, get_segmenter


@pytest.fixture(scope="session")
def ref() -> Reference:
    return load_reference(DEFAULT_REFERENCE_DIR)


@pytest.fixture(scope="session")
def segmenter(ref: Reference) -> Segmenter:
    return get_segmenter(ref)
