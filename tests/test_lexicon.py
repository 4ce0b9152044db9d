"""The lexicon tables (pipeline/lexicon/*.csv): every row is valid, and every row's example does what the row says.

Each row's ``expect`` is checked against the claims the whole pipeline extracts from the row's ``example``: the
example is a sentence written for the row, so this test runs every cue, blocker, hedge, scope and relation word
through the extractor once.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.lexicon import COLUMNS, LEXICON_DIR, Entry, LexiconError, load_lexicon, problems
from pipeline.lexicon.figures import FIGURE_COLUMNS, FigureRow, FigureTableError, figure_problems, load_figures
from pipeline.lexicon.labels import attribute_label
from pipeline.records import Claim
from tests.claim_helpers import claims_for

LEX = load_lexicon()
ROWS = [e for e in LEX.entries if e.example]


def _id(e: Entry) -> str:
    return f"{e.file}:{e.line}:{e.role}:{e.word}"


def parse_expect(expect: str) -> list[tuple[str, dict[str, str] | None]]:
    """'80GB: attribute=memory_size, verdict=supported; 24GB: none' -> [(fragment, fields or None), ...]."""
    items: list[tuple[str, dict[str, str] | None]] = []
    for item in (i.strip() for i in expect.split(";")):
        if not item:
            continue
        fragment, _, rest = item.partition(": ")
        if not rest:
            raise ValueError(f"expect item {item!r} has no 'fragment:'")
        rest = rest.strip()
        if rest == "none":
            items.append((fragment.strip(), None))
            continue
        fields = dict(kv.strip().split("=", 1) for kv in rest.split(",") if kv.strip())
        items.append((fragment.strip(), {k.strip(): v.strip() for k, v in fields.items()}))
    return items


def _field(c: Claim, key: str) -> str:
    if key == "verdict":
        return c.verdict.value if c.verdict else ""
    if key == "qualifier":
        return c.qualifier.value
    if key == "reason":
        return c.check.reason.value if c.check and c.check.reason else ""
    if key == "scope":
        return c.scope.value
    value = getattr(c, key)
    return "" if value is None else str(value)


def test_every_row_has_an_example_and_an_expectation() -> None:
    missing = [e.where for e in LEX.entries if not (e.example and e.expect)]
    assert not missing, f"{len(missing)} rows lack an example or expect: {missing[:10]}"


def test_the_tables_have_no_problems() -> None:
    assert problems(LEX.entries) == []


@pytest.mark.parametrize("entry", ROWS, ids=_id)
def test_row_example(entry: Entry) -> None:
    claims = claims_for(entry.example)
    for fragment, fields in parse_expect(entry.expect):
        assert fragment in entry.example, f"{entry.where}: {fragment!r} is not in the example"
        hits = [c for c in claims if fragment in c.text or (c.text and c.text in fragment)]
        if fields is None:
            got = [(c.text, c.attribute) for c in hits]
            assert not hits, f"{entry.where}: expected no claim on {fragment!r}, got {got}"
            continue
        assert hits, f"{entry.where}: no claim on {fragment!r} in {[(c.text, c.attribute) for c in claims]}"
        got = [{k: _field(c, k) for k in fields} for c in hits]
        assert fields in got, f"{entry.where}: {fragment!r} expected {fields}, got {got}"


# fmt: off
BAD_ROWS = [
    # (csv row, words of the expected problem)
    ("nosuchrole,显存,,,", "unknown role"),
    ("count_cue,核心,no_such_attribute,,", "is not one of"),
    ("count_cue,(核心,cuda_cores,,", "not a valid pattern"),
    ("count_cue,x?,cuda_cores,,", "matches the empty string"),
    ("negation,不是,,这张卡有16GB显存。,", "does not occur in its example"),
    ("pin_rate,速率,something,,", "is not one of"),
]
# fmt: on


@pytest.mark.parametrize(("row", "words"), BAD_ROWS)
def test_malformed_rows_are_named_with_their_fix(tmp_path: Path, row: str, words: str) -> None:
    for src in LEXICON_DIR.glob("*.csv"):
        (tmp_path / src.name).write_text(",".join(COLUMNS) + "\n", encoding="utf-8")
    role = row.split(",", 1)[0]
    from pipeline.lexicon import ROLES

    file = ROLES[role].file if role in ROLES else "attributes"
    (tmp_path / f"{file}.csv").write_text(",".join(COLUMNS) + "\n" + row + "\n", encoding="utf-8")
    with pytest.raises(LexiconError) as err:
        load_lexicon.__wrapped__(tmp_path)
    assert words in str(err.value) and f"{file}.csv:2" in str(err.value)


def test_parse_expect() -> None:
    assert parse_expect("80GB: attribute=memory_size, verdict=supported; 24GB: none") == [
        ("80GB", {"attribute": "memory_size", "verdict": "supported"}), ("24GB", None)]
    assert parse_expect("FP16:312: subject=model:nvidia:h20") == [("FP16:312", {"subject": "model:nvidia:h20"})]
    with pytest.raises(ValueError):
        parse_expect("80GB attribute=memory_size")


# ---- the open attribute vocabulary (pipeline/lexicon/figures.csv)

FIGURE_ROWS = load_figures()


@pytest.mark.parametrize("row", FIGURE_ROWS, ids=lambda r: f"figures:{r.line}:{r.attribute}")
def test_figure_row_example(row: FigureRow) -> None:
    """Each attribute's example is read as its row says: the attribute, owner and scope of the figure."""
    claims = claims_for(row.example)
    for fragment, fields in parse_expect(row.expect):
        assert fragment in row.example, f"{row.where}: {fragment!r} is not in the example"
        hits = [c for c in claims if fragment in c.text or (c.text and c.text in fragment)]
        assert fields is not None, f"{row.where}: a row's expectation names the claim its words make"
        assert hits, f"{row.where}: no claim on {fragment!r} in {[(c.text, c.attribute) for c in claims]}"
        got = [{k: _field(c, k) for k in fields} for c in hits]
        assert fields in got, f"{row.where}: {fragment!r} expected {fields}, got {got}"


def test_every_figure_attribute_has_a_label_and_a_claim_kind() -> None:
    assert figure_problems(FIGURE_ROWS) == []
    assert all(attribute_label(r.attribute) == r.label for r in FIGURE_ROWS)


# fmt: off
BAD_FIGURE_ROWS = [
    ("Rops,ROP,count,,,product,光栅单元数,RTX 4090有176个ROP。,176: attribute=rops", "lower-case identifier"),
    ("rops,ROP,weight,,,product,光栅单元数,RTX 4090有176个ROP。,176: attribute=rops", "kind 'weight'"),
    ("rops,ROP,count,,,unit,光栅单元数,RTX 4090有176个ROP。,176: attribute=rops", "scope 'unit'"),
    ("rops,ROP,count,,,product,ROP count,RTX 4090有176个ROP。,176: attribute=rops", "Chinese name"),
    ("rops,(ROP,count,,,product,光栅单元数,RTX 4090有176个ROP。,176: attribute=rops", "not a valid pattern"),
    ("rops,TMU,count,,,product,光栅单元数,RTX 4090有176个ROP。,176: attribute=rops", "none of the words"),
    ("cooling,被动散热,term,,,product,散热方式,L4采用被动散热。,被动散热: attribute=cooling", "term row needs a value"),
]
# fmt: on


@pytest.mark.parametrize(("row", "words"), BAD_FIGURE_ROWS)
def test_malformed_figure_rows_are_named_with_their_fix(tmp_path: Path, row: str, words: str) -> None:
    table = tmp_path / "figures.csv"
    table.write_text(",".join(FIGURE_COLUMNS) + "\n" + row + "\n", encoding="utf-8")
    with pytest.raises(FigureTableError) as err:
        load_figures.__wrapped__(table)
    assert words in str(err.value) and "figures.csv:2" in str(err.value)


def test_two_rows_for_one_numeric_attribute_are_refused(tmp_path: Path) -> None:
    row = "rops,ROP,count,,,product,光栅单元数,RTX 4090有176个ROP。,176: attribute=rops"
    table = tmp_path / "figures.csv"
    table.write_text(",".join(FIGURE_COLUMNS) + "\n" + row + "\n" + row + "\n", encoding="utf-8")
    with pytest.raises(FigureTableError, match="one row per attribute"):
        load_figures.__wrapped__(table)
