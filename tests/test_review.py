from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner, Result

from pipeline.errors import UsageError
from pipeline.records import Check, Claim, DocumentResult, Status, Verdict
from pipeline.review.cli import claims_table, review_app
from pipeline.review.workflow import export_decisions, mark, open_state, review_claims
from pipeline.state.store import Store

REF, PIPE = "ref-2024.06", "0.1.0"

# fmt: off
CLAIMS = [
    # (claim_id, text,                          verdict,               subject,     attribute,     expected)
    ("c-mem",   "A100 配备 80GB HBM2e 显存",    Verdict.SUPPORTED,     "a100-80gb", "memory_size", None),
    ("c-4090",  "RTX 4090 采用 HBM3 显存[1]",   Verdict.CONTRADICTED,  "rtx-4090",  "memory_type", "GDDR6X"),
    ("c-mi300", "MI300X 由英伟达推出",          Verdict.MISATTRIBUTED, "mi300x",    "vendor",      "AMD"),
    ("c-tdp",   "该卡功耗大约 300W",            Verdict.UNVERIFIABLE,  None,        "tdp",         None),
    ("c-code",  "torch.cuda.get_device_name(0", Verdict.CODE_ISSUE,    None,        "code",        None),
]
# fmt: on


def claim(doc_id: str, claim_id: str, text: str, verdict: Verdict, subject: str | None, attribute: str,
          expected: str | None) -> Claim:
    return Claim(doc_id=doc_id, start=0, end=len(text), text=text, sentence=text + "。", sentence_index=0,
                 subject=subject, subject_mention=subject, attribute=attribute, value=None, unit=None,
                 check=Check(verdict, "示例说明", expected), claim_id=claim_id)


@pytest.fixture
def state(tmp_path: Path) -> Path:
    path = tmp_path / "reports" / "state.sqlite"
    with Store(path) as store:
        run = store.begin_run(REF, PIPE)
        claims = tuple(claim("评测/4090.md", *row) for row in CLAIMS)
        result = DocumentResult("评测/4090.md", "corpus/评测/4090.md", "md", "ab" * 32, Status.OK,
                                claims=claims)
        store.save_result(run, result, REF, PIPE)
        store.finish_run(run, {"documents": 1}, 1)
    return path


def invoke(*args: str) -> Result:
    return CliRunner().invoke(review_app, list(args), env={"COLUMNS": "250"})


def test_list_shows_flagged_claims_by_default(state: Path) -> None:
    result = invoke("list", "--state", str(state))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    heads = [line for line in lines if line.startswith("c-")]
    assert [h.split()[0] for h in heads] == ["c-4090", "c-mi300", "c-code"]  # the id first, whole
    assert heads[0] == "c-4090  contradicted 矛盾  open 待处理  评测/4090.md"
    body = lines[lines.index(heads[0]) + 1]
    assert body == "    rtx-4090 · 显存类型：「RTX 4090 采用 HBM3 显存[1]」 → 正确值 GDDR6X"  # brackets stay text
    assert "misattributed 张冠李戴" in heads[1] and "code_issue 代码问题" in heads[2]
    assert lines[-1] == "3 claim(s): open 3"


def test_list_fits_80_columns_without_cutting_anything(state: Path) -> None:
    result = CliRunner().invoke(review_app, ["list", "--state", str(state)], env={"COLUMNS": "80"})
    assert result.exit_code == 0
    for cid, text, verdict, *_ in CLAIMS:
        if verdict.is_flag:
            assert cid in result.stdout and text in result.stdout


def test_list_uses_display_names_and_chinese_attributes(state: Path) -> None:
    with Store(state) as store:
        result = store.load_result("评测/4090.md")
        assert result is not None
        moved = [replace(c, subject="nvidia_tesla_p4", attribute="positioning") if c.claim_id == "c-4090" else c
                 for c in result.claims]
        store.save_result(2, replace(result, claims=tuple(moved)), REF, PIPE)
    out = invoke("list", "--state", str(state)).stdout
    assert "NVIDIA Tesla P4 · 定位：「RTX 4090 采用 HBM3 显存[1]」" in out
    assert "nvidia_tesla_p4" not in out and "positioning" not in out


def test_list_as_json_lines(state: Path) -> None:
    out = invoke("list", "--state", str(state), "--json").stdout
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["claim_id"] for r in rows] == ["c-4090", "c-mi300", "c-code"]
    assert {r["review_status"] for r in rows} == {"open"} and all("assignee" in r for r in rows)


def test_list_all_and_filters(state: Path) -> None:
    everything = invoke("list", "--state", str(state), "--all")
    assert everything.exit_code == 0
    assert all(cid in everything.stdout for cid, *_ in CLAIMS)
    assert everything.stdout.splitlines()[-1] == "5 claim(s): open 5"

    supported = invoke("list", "--state", str(state), "--verdict", "supported")
    assert "c-mem" in supported.stdout and "c-4090" not in supported.stdout

    by_subject = invoke("list", "--state", str(state), "--subject", "mi300x", "--doc", "评测/4090.md")
    assert by_subject.stdout.splitlines()[-1] == "1 claim(s): open 1"

    none = invoke("list", "--state", str(state), "--doc", "other.md")
    assert none.exit_code == 0 and none.stdout == "No claims match these filters.\n"

    bad = invoke("list", "--state", str(state), "--status", "closed")
    assert bad.exit_code == 2 and "closed" in bad.output


def test_accept_dismiss_correct_and_mark(state: Path) -> None:
    dismissed = invoke("dismiss", "c-4090",  "--editor", "王编辑", "--note", "文中指的是 H100", "--state",
                       str(state))
    assert dismissed.exit_code == 0, dismissed.output
    assert dismissed.stdout.startswith("c-4090: dismissed (已驳回) by 王编辑 at 20")
    assert invoke("accept", "c-mi300", "--editor", "王编辑", "--state", str(state)).exit_code == 0
    corrected = invoke("correct", "c-code", "--editor", "李编辑", "--state", str(state))
    assert corrected.stdout.startswith("c-code: corrected (已修正) by 李编辑")
    marked = invoke("mark", "c-tdp", "--status", "accepted", "--editor", "李编辑", "--state", str(state))
    assert marked.stdout.startswith("c-tdp: accepted (已确认) by 李编辑")

    with Store(state) as store:
        assert {k: d.status for k, d in store.decisions().items()} == {
            "c-4090": "dismissed", "c-mi300": "accepted", "c-code": "corrected", "c-tdp": "accepted"}
        assert store.decisions()["c-4090"].note == "文中指的是 H100"
        assert store.open_flags("评测/4090.md") == 1

    listed = invoke("list", "--state", str(state))
    assert listed.stdout.splitlines()[-1] == "3 claim(s): accepted 1, dismissed 1, corrected 1"
    assert "dismissed 已驳回" in listed.stdout
    only_dismissed = invoke("list", "--state", str(state), "--status", "dismissed")
    assert only_dismissed.stdout.splitlines()[-1] == "1 claim(s): dismissed 1"


@pytest.mark.parametrize(("args", "message"), [
    (("dismiss", "c-nope", "--editor", "王编辑"), "error: unknown claim id 'c-nope'; see the ids with"),
    (("accept", "c-tdp", "--editor", " "), "error: an editor name is required; pass --editor NAME"),
])
def test_decision_errors_exit_2(state: Path, args: tuple[str, ...], message: str) -> None:
    result = invoke(*args, "--state", str(state))
    assert result.exit_code == 2
    assert result.stderr.startswith(message) and result.stdout == ""


@pytest.mark.parametrize("args", [
    ("dismiss", "c-tdp"),  # no --editor
    ("mark", "c-tdp", "--status", "open", "--editor", "王编辑"),  # open is not a decision
])
def test_usage_errors_exit_2(state: Path, args: tuple[str, ...]) -> None:
    assert invoke(*args, "--state", str(state)).exit_code == 2
    with Store(state) as store:
        assert store.decisions() == {}


@pytest.mark.parametrize("command", [
    ("list",), ("dismiss", "c-tdp", "--editor", "王编辑"), ("export", "out.csv"), ("import", "in.csv"),
])
def test_missing_state_file_exits_2_with_a_hint(tmp_path: Path, command: tuple[str, ...]) -> None:
    missing = tmp_path / "reports" / "state.sqlite"
    result = invoke(*command, "--state", str(missing))
    assert result.exit_code == 2
    assert result.stderr == (f"error: no state database at {missing}; run `python -m pipeline run CORPUS` "
                             "first (or pass --state PATH to the one it wrote)\n")
    assert not missing.exists()


def test_export_then_import(state: Path, tmp_path: Path) -> None:
    invoke("dismiss", "c-4090",  "--editor", "王编辑", "--note", "=见评论区", "--state", str(state))
    invoke("accept", "c-mi300", "--editor", "王编辑", "--state", str(state))
    out = tmp_path / "decisions.csv"
    exported = invoke("export", str(out), "--state", str(state))
    assert exported.exit_code == 0 and exported.stdout == f"exported 2 decision(s) to {out}\n"
    assert out.read_bytes().startswith(b"\xef\xbb\xbf")
    frame = pd.read_csv(out, encoding="utf-8-sig", dtype=str, keep_default_na=False)
    assert frame[["claim_id", "status", "note"]].values.tolist() == [
        ["c-4090",  "dismissed", "'=见评论区"], ["c-mi300", "accepted", ""]]

    # a colleague's copy of the state gets the decisions
    copy = tmp_path / "copy" / "state.sqlite"
    with Store(state) as a, Store(copy) as b:
        result = a.load_result("评测/4090.md")
        assert result is not None
        b.save_result(b.begin_run(REF, PIPE), result, REF, PIPE)
        expected = a.decisions()
    imported = invoke("import", str(out), "--state", str(copy))
    assert imported.exit_code == 0 and imported.stdout == f"imported 2 decision(s) from {out}\n"
    with Store(copy) as b:
        assert b.decisions() == expected
        assert b.decisions()["c-4090"].note == "=见评论区"


def test_import_of_a_bad_row_exits_2_naming_it(state: Path, tmp_path: Path) -> None:
    bad = tmp_path / "decisions.csv"
    bad.write_text("claim_id,doc_id,text,status,editor,note,decided_at\n"
                   "c-tdp,评测/4090.md,该卡功耗大约 300W,dismissed,王编辑,,\n"
                   "c-code,评测/4090.md,x,忽略,王编辑,,\n", encoding="utf-8-sig")
    result = invoke("import", str(bad), "--state", str(state))
    assert result.exit_code == 2
    assert result.stderr.startswith("error: decisions.csv: 1 bad row(s), nothing imported: row 3 (c-code): "
                                    "status '忽略' is not one of 待处理, 已确认, 已驳回, 已修正, open, accepted")
    with Store(state) as store:
        assert store.decisions() == {}


# ---- library ------------------------------------------------------------------------------------


def test_library_functions(state: Path, tmp_path: Path) -> None:
    assert [c["claim_id"] for c in review_claims(state)] == ["c-4090",  "c-mi300", "c-code"]
    assert len(review_claims(state, include_all=True)) == 5
    decision = mark(state, "c-code", "dismissed", "王编辑", "示例代码，不必运行")
    assert review_claims(state, status="dismissed")[0]["note"] == decision.note
    assert export_decisions(state, tmp_path / "d.csv") == 1
    assert sum(1 for line in claims_table(review_claims(state)) if line.startswith("c-")) == 3
    with pytest.raises(UsageError, match="python -m pipeline run CORPUS"):
        open_state(tmp_path / "nope.sqlite")


def test_reopen_and_history(state: Path) -> None:
    assert invoke("dismiss", "c-4090", "--editor", "王编辑", "--note", "误报", "--state", str(state)).exit_code == 0
    reopened = invoke("reopen", "c-4090", "--editor", "李编辑", "--note", "再核对", "--state", str(state))
    assert reopened.exit_code == 0 and reopened.stdout.startswith("c-4090: open (待处理) by 李编辑")
    with Store(state) as store:
        assert "c-4090" not in store.decisions()
    lines = invoke("history", "c-4090", "--state", str(state)).stdout.splitlines()
    assert [line.split("  ")[1:] for line in lines] == [["王编辑", "open -> dismissed", "误报"],
                                                         ["李编辑", "dismissed -> open", "再核对"]]
    assert invoke("history", "c-mem", "--state", str(state)).stdout == "c-mem: no decisions yet\n"


def test_correct_keeps_the_corrected_text(state: Path) -> None:
    result = invoke("correct", "c-4090", "--editor", "王编辑", "--correction", "RTX 4090 采用 GDDR6X 显存",
                    "--state", str(state))
    assert result.exit_code == 0
    with Store(state) as store:
        assert store.decisions()["c-4090"].correction == "RTX 4090 采用 GDDR6X 显存"


def test_assign(state: Path) -> None:
    assert invoke("assign", "评测/4090.md", "--to", "李编辑", "--editor", "王主编", "--state", str(state)).stdout == (
        "评测/4090.md: assigned to 李编辑\n")
    with Store(state) as store:
        assert store.assignments() == {"评测/4090.md": "李编辑"}
        assert {c["assignee"] for c in store.list_claims(assignee="李编辑")} == {"李编辑"}
    missing = invoke("assign", "nope.md", "--to", "李编辑", "--editor", "王主编", "--state", str(state))
    assert missing.exit_code == 2 and "unknown document 'nope.md'" in missing.stderr


def test_import_restores_from_the_journal_into_a_new_state(state: Path, tmp_path: Path) -> None:
    invoke("dismiss", "c-4090", "--editor", "王编辑", "--note", "误报", "--state", str(state))
    invoke("assign", "评测/4090.md", "--to", "李编辑", "--editor", "王主编", "--state", str(state))
    journal = state.with_name("decisions.jsonl")
    fresh = tmp_path / "new" / "state.sqlite"
    result = invoke("import", str(journal), "--state", str(fresh))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"restored 1 decision step(s) and 1 assignment(s) from {journal}")
    with Store(fresh) as store:
        assert store.decisions()["c-4090"].status == "dismissed"
        assert store.assignments() == {"评测/4090.md": "李编辑"}
    again = invoke("import", str(journal), "--state", str(fresh))
    assert "restored 0 decision step(s) and 0 assignment(s)" in again.stdout


@pytest.mark.parametrize(("args", "message"), [
    (("serve", "--host", "0.0.0.0"), "error: --host 0.0.0.0 is not a loopback address: pass --users FILE"),
    (("serve", "--host", "192.168.1.20", "--port", "9"), "error: --host 192.168.1.20 is not a loopback address"),
])
def test_serve_refuses_an_open_address_without_users(state: Path, args: tuple[str, ...], message: str) -> None:
    result = invoke(*args, "--state", str(state))
    assert result.exit_code == 2
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1


@pytest.mark.parametrize(("body", "message"), [
    ("name,role\n王编辑,editor\n", "lacks the column(s) token_sha256"),
    ("name,role,token_sha256\n王编辑,admin," + "a" * 64 + "\n", "row 2 (王编辑): role 'admin' is not one of"),
    ("name,role,token_sha256\n王编辑,editor,secret\n", "row 2 (王编辑): token_sha256 must be the 64 hex digits"),
    ("name,role,token_sha256\n", "names no users"),
])
def test_serve_refuses_a_bad_users_file(state: Path, tmp_path: Path, body: str, message: str) -> None:
    users = tmp_path / "users.csv"
    users.write_text(body, encoding="utf-8")
    result = invoke("serve", "--host", "0.0.0.0", "--users", str(users), "--state", str(state))
    assert result.exit_code == 2 and message in result.stderr
