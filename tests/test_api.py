"""pipeline.api: the library entry points (``check_text`` formats; ``check_corpus`` and ``claims_frame`` are
exercised end to end in test_e2e.py)."""

from __future__ import annotations

import pytest

from pipeline.api import check_text

PAGE = ("<html><head><title>评测</title><script>var spec = 'A100 80GB';</script></head>"
        "<body><p>Tesla P100配备16GB GDDR5显存。</p></body></html>")
PAGE_TEXT_START = "Tesla P100配备16GB GDDR5显存。"


def _by_text(claims: list) -> dict[str, tuple[int, str]]:  # type: ignore[type-arg]
    return {c.text: (c.start, c.check.verdict.value) for c in claims}


@pytest.mark.parametrize(("doc_id", "fmt"), [("page.html", None), ("page.txt", "html"), ("page", "html")])
def test_html_is_read_as_a_page(doc_id: str, fmt: str | None) -> None:
    found = _by_text(check_text(PAGE, doc_id=doc_id, fmt=fmt))
    # the script is not article text, and offsets point into the text extracted from the page
    assert "80GB" not in found
    assert found["GDDR5"][1] == "contradicted"
    assert found["16GB"][0] == found["GDDR5"][0] - len("16GB ")
    assert found["16GB"][0] < len(PAGE_TEXT_START) + len("评测") + 2


def test_plain_text_keeps_the_markup_as_text() -> None:
    found = _by_text(check_text(PAGE, doc_id="page.txt"))
    assert found["16GB"][0] == PAGE.index("16GB")
    assert "80GB" in found  # read as plain text, the script's words are text too


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError):
        check_text("P100配备16GB显存。", fmt="pdf")
