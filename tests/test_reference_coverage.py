"""Every card in the reference can be checked: an article stating a card's own figures (taken from specs.csv) gets
``supported`` for each of them, and the same article with each figure altered gets ``contradicted``.

The articles are rendered here from the tables themselves, one per vendor family, so a card added to the reference is
covered without editing this file. Cards without memory_size / memory_bandwidth / core-count / tdp rows are skipped.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import pandas as pd
import pytest

from pipeline.api import check_text
from pipeline.config import DEFAULT_REFERENCE_DIR
from pipeline.records import Claim, Verdict

SPECS = pd.read_csv(DEFAULT_REFERENCE_DIR / "specs.csv", dtype=str, keep_default_na=False)
PRODUCTS = pd.read_csv(DEFAULT_REFERENCE_DIR / "products.csv", dtype=str, keep_default_na=False)

# fmt: off
TEMPLATES = {
    "memory_size":       "{alias}配备{value}GB显存。",
    "memory_bandwidth":  "{alias}的显存带宽为{value}GB/s。",
    "cuda_cores":        "{alias}拥有{value}个CUDA核心。",
    "stream_processors": "{alias}拥有{value}个流处理器。",
    "tdp":               "{alias}的功耗为{value}W。",
}
FAMILIES = {
    # family id:                    (title of the article, which products.csv rows belong to it)
    "nvidia_datacenter":            ("英伟达数据中心加速卡参数速览",
                                     lambda p: p.vendor == "nvidia" and p.family in ("Tesla", "Data Center")),
    "nvidia_consumer_workstation":  ("英伟达消费级与工作站显卡参数速览",
                                     lambda p: p.vendor == "nvidia" and p.family not in ("Tesla", "Data Center")),
    "amd_radeon":                   ("AMD Radeon显卡参数速览",
                                     lambda p: p.vendor == "amd" and p.family.startswith("Radeon")),
    "amd_instinct":                 ("AMD Instinct加速卡参数速览",
                                     lambda p: p.vendor == "amd" and p.family == "Instinct"),
    "huawei_ascend":                ("华为昇腾加速卡参数速览", lambda p: p.vendor == "huawei"),
    "intel":                        ("英特尔Gaudi加速卡与GPU参数速览", lambda p: p.vendor == "intel"),
    "moore_threads":                ("摩尔线程显卡参数速览", lambda p: p.vendor == "mthreads"),
}
# fmt: on


def _fmt(x: float) -> str:
    return f"{x:g}"


def _too_close(x: float, values: list[float]) -> bool:
    return any(abs(x - v) <= 0.04 * v for v in values)  # wider than the checker's rounding slack for rates


def _altered(value: float, attribute: str) -> float:
    """About value*2, moved up until it is near no card's figure for the attribute: a plain contradiction, never a
    figure the checker could take for another card's (misattributed)."""
    taken = [float(v) for v in SPECS.loc[SPECS.attribute == attribute, "value"]]
    for step in range(100):
        x = float(round(value * (2 + 0.05 * step)))
        if not _too_close(x, taken):
            return x
    raise AssertionError(f"no free altered value for {value} ({attribute})")


@dataclass(frozen=True)
class Statement:
    family: str
    product_id: str
    alias: str
    attribute: str
    value: str  # as written in the article
    altered: str


def _statements() -> tuple[list[Statement], list[tuple[str, str]]]:
    """What each family's article states, and the products left out (no such rows)."""
    out: list[Statement] = []
    skipped: list[tuple[str, str]] = []
    for family, (_title, member) in FAMILIES.items():
        for p in PRODUCTS.itertuples():
            if not member(p):
                continue
            rows = SPECS[(SPECS.product_id == p.product_id) & SPECS.attribute.isin(TEMPLATES)]
            if rows.empty:
                skipped.append((family, p.product_id))
                continue
            alias = p.aliases.split("|")[0]
            for attribute, value in dict.fromkeys(zip(rows.attribute, rows.value, strict=True)):
                v = float(value)
                out.append(Statement(family, p.product_id, alias, attribute, _fmt(v), _fmt(_altered(v, attribute))))
    return out, skipped


STATEMENTS, SKIPPED = _statements()


@cache
def _article(family: str, altered: bool) -> tuple[str, dict[Statement, tuple[int, int]], tuple[Claim, ...]]:
    """The family's article (every statement, right or altered), where each statement is, and its claims."""
    title = FAMILIES[family][0]
    text = f"{title}\n\n"
    where: dict[Statement, tuple[int, int]] = {}
    for s in (s for s in STATEMENTS if s.family == family):
        sentence = TEMPLATES[s.attribute].format(alias=s.alias, value=s.altered if altered else s.value)
        where[s] = (len(text), len(text) + len(sentence))
        text += sentence
    text += "\n"
    return text, where, tuple(check_text(text, doc_id=f"coverage/{family}.txt"))


def _claim_for(s: Statement, altered: bool) -> Claim:
    text, where, claims = _article(s.family, altered)
    start, end = where[s]
    hits = [c for c in claims if start <= c.start < end and c.attribute == s.attribute]
    assert len(hits) == 1, (
        f"{text[start:end]!r}: expected one {s.attribute} claim, got "
        f"{[(c.text, c.attribute, c.subject, c.verdict) for c in claims if start <= c.start < end]}")
    return hits[0]


def _params(statements: list[Statement]) -> list:  # type: ignore[type-arg]
    out = [pytest.param(s, id=f"{s.product_id}-{s.attribute}-{s.value}") for s in statements]
    for family, pid in SKIPPED:
        out.append(pytest.param(None, id=f"{pid}-no-rows", marks=pytest.mark.skip(
            reason=f"{pid} ({family}) has no memory_size/memory_bandwidth/cuda_cores/stream_processors rows")))
    return out


@pytest.mark.parametrize("s", _params(STATEMENTS))
def test_listed_figure_is_supported(s: Statement) -> None:
    c = _claim_for(s, altered=False)
    assert c.subject == s.product_id, (c.text, c.subject)
    assert c.verdict is Verdict.SUPPORTED, c.check
    assert c.check is not None and c.check.source and c.check.source.startswith("http")


@pytest.mark.parametrize("s", _params(STATEMENTS))
def test_altered_figure_is_contradicted(s: Statement) -> None:
    c = _claim_for(s, altered=True)
    assert c.subject == s.product_id, (c.text, c.subject)
    assert c.verdict is Verdict.CONTRADICTED, c.check
    assert c.check is not None and c.check.expected


@pytest.mark.parametrize("family", list(FAMILIES))
def test_every_family_has_checkable_cards(family: str) -> None:
    members = [p.product_id for p in PRODUCTS.itertuples() if FAMILIES[family][1](p)]
    assert members, f"no product of {family} in products.csv"
    if not any(s.family == family for s in STATEMENTS):
        pytest.skip(f"{family}: none of {members} has memory_size/memory_bandwidth/core-count rows in specs.csv")
