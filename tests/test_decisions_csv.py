from __future__ import annotations

import tempfile
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.decisions_csv import CSV_COLUMNS, export_decisions_csv, import_decisions_csv
from pipeline.errors import UsageError
from pipeline.records import Verdict
from pipeline.store import Store
from tests.store_builders import PIPE, REF, make_claim, make_result


def test_csv_export_import_round_trip(reviewed: Store, tmp_path: Path) -> None:
    reviewed.decide("a.md-bw", "dismissed", "王编辑", "=官方口径, 见 \"白皮书\"\n第二行")
    reviewed.decide("b.md-mi", "accepted", "Li Wei", "-")
    out = tmp_path / "decisions.csv"
    assert export_decisions_csv(reviewed, out) == 2

    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    frame = pd.read_csv(out, encoding="utf-8-sig", dtype=str, keep_default_na=False)
    assert tuple(frame.columns) == CSV_COLUMNS
    assert frame["status"].tolist() == ["dismissed", "accepted"]
    # a leading apostrophe, so a spreadsheet won't run them as formulas
    assert frame["note"].tolist() == ["'=官方口径, 见 \"白皮书\"\n第二行", "'-"]

    with Store(tmp_path / "other.sqlite") as other:
        assert import_decisions_csv(other, out) == 2
        assert other.decisions() == reviewed.decisions()
    assert import_decisions_csv(reviewed, out) == 2  # importing again changes nothing
    assert len(reviewed.decisions()) == 2


def test_import_fills_text_from_the_state_and_accepts_gbk(reviewed: Store, tmp_path: Path) -> None:
    path = tmp_path / "from-excel.csv"
    path.write_bytes(("claim_id,doc_id,text,status,editor,note,decided_at\r\n"
                      "a.md-fp,,,dismissed,王编辑,FP64 指的是张量核心,2024-06-01T09:30:00Z\r\n"
                      "a.md-mi,a.md,MI300X 由英伟达推出,corrected,王编辑,,2024-06-01 17:30:00+08:00\r\n"
                      ).encode("gb18030"))
    assert import_decisions_csv(reviewed, path) == 2
    fp, mi = reviewed.decisions()["a.md-fp"], reviewed.decisions()["a.md-mi"]
    assert (fp.doc_id, fp.text, fp.decided_at) == ("a.md", "V100 的 FP64 算力约 30 TFLOPS",
                                                   "2024-06-01T09:30:00+00:00")
    assert mi.decided_at == "2024-06-01T09:30:00+00:00"
    assert reviewed.open_flags("a.md") == 1


HEADER = "claim_id,doc_id,text,status,editor,note,decided_at\n"
GOOD_ROW = "a.md-bw,a.md,H100 的显存带宽为 2TB/s,dismissed,王编辑,,\n"


@pytest.mark.parametrize(("body", "message"), [
    (HEADER + GOOD_ROW + "a.md-mi,a.md,MI300X 由英伟达推出,maybe,王编辑,,\n",
     r"row 3 \(a\.md-mi\): status 'maybe' is not one of accepted, dismissed, corrected"),
    (HEADER + GOOD_ROW + GOOD_ROW + ",a.md,x,dismissed,王编辑,,\n", "row 4: claim_id is empty"),
    (HEADER + "a.md-mi,a.md,MI300X 由英伟达推出,accepted,,,\n", r"row 2 \(a\.md-mi\): editor is empty"),
    (HEADER + "a.md-mi,a.md,x,accepted,王编辑,,昨天\n", "row 2: decided_at '昨天' is not an ISO-8601 time"),
    (HEADER + "zz,,,accepted,王编辑,,\n", r"row 2 \(zz\): text is empty and the claim is not in the state"),
    ("claim_id,status,editor\n" + "a.md-bw,dismissed,王编辑\n", "lacks the column.s. doc_id, text, note"),
])
def test_bad_csv_rows_name_the_row_and_write_nothing(reviewed: Store, tmp_path: Path, body: str,
                                                     message: str) -> None:
    path = tmp_path / "decisions.csv"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(UsageError, match=message):
        import_decisions_csv(reviewed, path)
    assert reviewed.decisions() == {}


def test_import_of_a_missing_file(reviewed: Store, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="cannot read"):
        import_decisions_csv(reviewed, tmp_path / "nope.csv")


def test_export_to_a_missing_folder(reviewed: Store, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="check that its folder exists"):
        export_decisions_csv(reviewed, tmp_path / "no" / "such" / "decisions.csv")


cell_text = st.text(st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\x00")
                    | st.sampled_from(["=", "+", "-", "@", "'", "\t", "\r", "\n", ",", '"']), max_size=12)


@settings(max_examples=40, deadline=None)
@given(text=cell_text.filter(bool), note=cell_text,
       editor=cell_text.filter(lambda s: s.strip() == s and s != ""))
def test_csv_round_trips_any_text(text: str, note: str, editor: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "decisions.csv"
        with Store(Path(tmp) / "a.sqlite") as a:
            claim = make_claim("a.md", "c1", text, Verdict.CONTRADICTED)
            a.save_result(1, make_result("a.md", (claim,)), REF, PIPE)
            a.decide("c1", "dismissed", editor, note)
            export_decisions_csv(a, path)
            expected = a.decisions()
        with Store(Path(tmp) / "b.sqlite") as b:
            import_decisions_csv(b, path)
            assert b.decisions() == expected
