"""gpu-factcheck: fact-check Chinese articles about GPU hardware against a sourced reference table."""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

__all__ = ["__version__", "check_corpus", "check_text", "claims_frame"]


def __getattr__(name: str) -> Any:
    # the library API, imported lazily so `python -m pipeline --help` stays fast
    if name in ("check_text", "check_corpus", "claims_frame"):
        from . import api

        return getattr(api, name)
    raise AttributeError(name)
