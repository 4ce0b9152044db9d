from __future__ import annotations

import tempfile
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.errors import UsageError
from pipeline.records import Verdict
from pipeline.state.decisions_csv import CSV_COLUMNS, export_decisions_csv, import_decisions_csv
from pipeline.state.store import Store
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

    with Store(tmp_path / "other.sqlite") as other:  # a colleague's copy of the state: the same claims
        for doc_id in ("a.md", "b.md"):
            other.save_result(1, reviewed.load_result(doc_id), REF, PIPE)  # type: ignore[arg-type]
        assert import_decisions_csv(other, out) == 2
        assert other.decisions() == reviewed.decisions()
        assert [(e.user, e.from_status, e.to_status, e.kind) for e in other.history("a.md-bw")] == [
            ("王编辑", "open", "dismissed", "import")]
    assert import_decisions_csv(reviewed, out) == 0  # importing again changes nothing
    assert len(reviewed.decisions()) == 2
    assert len(reviewed.history("a.md-bw")) == 1  # and adds no history


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
     r"1 bad row.*row 3 \(a\.md-mi\): status 'maybe' is not one of 待处理, 已确认, 已驳回, 已修正, open, "),
    (HEADER + GOOD_ROW + GOOD_ROW + ",a.md,x,dismissed,王编辑,,\n", "row 4: claim_id is empty"),
    (HEADER + "a.md-mi,a.md,MI300X 由英伟达推出,accepted,,,\n", r"row 2 \(a\.md-mi\): editor is empty"),
    (HEADER + "a.md-mi,a.md,x,accepted,王编辑,,昨天\n",
     r"row 2 \(a\.md-mi\): decided_at '昨天' is not an ISO-8601 time"),
    (HEADER + "zz,,,accepted,王编辑,,\n", r"row 2: unknown claim id 'zz': no current claim has it"),
    (HEADER + "5.04161E+104,a.md,x,accepted,王编辑,,\n",
     r"row 2: claim_id '5\.04161E\+104' is malformed: a spreadsheet turned it into a number"),
    (HEADER + "a.md-bw;drop,a.md,x,accepted,王编辑,,\n", r"row 2: claim_id 'a\.md-bw;drop' is malformed"),
    (HEADER + "9e8f7a6b5c4d3e2f,a.md,x,dismissed,王编辑,,\n" + GOOD_ROW + "1.23457E+15,,,已驳回,王编辑,,\n",
     r"2 bad row\(s\), nothing imported: row 2: unknown claim id '9e8f7a6b5c4d3e2f'.*; row 4: claim_id "
     r"'1\.23457E\+15' is malformed"),
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
            b.save_result(1, make_result("a.md", (claim,)), REF, PIPE)
            import_decisions_csv(b, path)
            assert b.decisions() == expected


def test_import_takes_the_chinese_status_names_and_keeps_history(reviewed: Store, tmp_path: Path) -> None:
    reviewed.decide("a.md-bw", "accepted", "王编辑", "先确认")
    path = tmp_path / "from-excel.csv"
    path.write_text(HEADER + "a.md-bw,a.md,,已驳回,李编辑,口径不同,2030-01-01T00:00:00Z\n"
                    "a.md-fp,a.md,,已修正,李编辑,,2030-01-01T00:00:00Z\n"
                    "a.md-mi,a.md,,待处理,李编辑,,2030-01-01T00:00:00Z\n", encoding="utf-8")
    assert import_decisions_csv(reviewed, path) == 2  # a.md-mi was open already: nothing to reopen
    assert {k: d.status for k, d in reviewed.decisions().items()} == {"a.md-bw": "dismissed", "a.md-fp": "corrected"}
    steps = [(e.user, e.from_status, e.to_status, e.note) for e in reviewed.history("a.md-bw")]
    assert steps == [("王编辑", "open", "accepted", "先确认"), ("李编辑", "accepted", "dismissed", "口径不同")]
    reopen = tmp_path / "reopen.csv"  # after the dismissal (newer wins, as when the journal is replayed)
    reopen.write_text(HEADER + "a.md-bw,a.md,,待处理,王编辑,再看看,2030-01-02T00:00:00Z\n", encoding="utf-8")
    assert import_decisions_csv(reviewed, reopen) == 1
    assert "a.md-bw" not in reviewed.decisions()
    assert reviewed.history("a.md-bw")[-1].to_status == "open"


def test_export_and_import_keep_the_correction(reviewed: Store, tmp_path: Path) -> None:
    reviewed.decide("a.md-bw", "corrected", "王编辑", correction="H100 的显存带宽为 3.35TB/s")
    out = tmp_path / "d.csv"
    export_decisions_csv(reviewed, out)
    frame = pd.read_csv(out, encoding="utf-8-sig", dtype=str, keep_default_na=False)
    assert frame["correction"].tolist() == ["H100 的显存带宽为 3.35TB/s"]
    reviewed.decide("a.md-bw", "open", "王编辑")
    assert import_decisions_csv(reviewed, out) == 1
    assert reviewed.decisions()["a.md-bw"].correction == "H100 的显存带宽为 3.35TB/s"
