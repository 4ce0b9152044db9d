"""What the browser tests share: Debian's Chromium driven by Playwright (a module that imports this is skipped when
either is missing), the flags that keep Chromium off the machine's closed network, and where screenshots for people
reading a closing note go (``REVIEW_SHOTS``; never part of a check). The ``browser`` and ``page`` fixtures are in
``conftest.py``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} not found (apt-get install chromium; .ci/run does)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright not installed (pip install -e '.[test]')")
expect = sync_api.expect

# Playwright adds a fresh temporary --user-data-dir itself (it refuses one in args); the rest keeps Chromium
# off this machine's closed network.
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SHOTS = Path(os.environ.get("REVIEW_SHOTS", "/tmp/review-shots"))
