"""Times as editors read them (the machine's zone, or --timezone), and the review command a report shows, which
works when pasted (with --state when the state is not the default; none without a state)."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.report.display import local_time, zone_offset
from pipeline.review.views import history_items

runner = CliRunner()
ARTICLE = "RTX 4090配备了32GB显存。\n"  # one flag

# fmt: off
TIMES = [
    ("2026-12-03T07:41:32+00:00", "Asia/Shanghai",    "2026-12-03 15:41"),
    ("2026-12-03T07:41:32Z",      "Asia/Shanghai",    "2026-12-03 15:41"),
    ("2026-12-03T20:05:00+00:00", "Asia/Shanghai",    "2026-12-04 04:05"),  # the next day there
    ("2026-07-01T12:00:00+00:00", "Europe/Berlin",    "2026-07-01 14:00"),  # summer time
    ("2026-12-03T07:41:32",       "UTC",              "2026-12-03 07:41"),  # stored without a zone: UTC
    ("not a time",                "Asia/Shanghai",    "not a time"),
    ("",                          "Asia/Shanghai",    ""),
]
# fmt: on


@pytest.mark.parametrize(("iso", "zone", "shown"), TIMES)
def test_local_time(iso: str, zone: str, shown: str) -> None:
    assert local_time(iso, zone) == shown


def test_the_machines_zone_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    try:
        assert local_time("2026-12-03T07:41:32+00:00") == "2026-12-03 16:41"
        assert zone_offset() == "+09:00"
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_history_items_carry_the_local_time() -> None:
    event = {"at": "2026-12-03T07:41:32+00:00", "user": "王编辑", "from": "open", "to": "dismissed", "note": ""}
    assert history_items([event], "Asia/Shanghai")[0]["at_zh"] == "2026-12-03 15:41"


def _run(tmp_path: Path, *args: str) -> tuple[int, Path]:
    corpus = tmp_path / "corpus"
    corpus.mkdir(exist_ok=True)
    (corpus / "a.txt").write_text(ARTICLE, encoding="utf-8")
    out = tmp_path / "out"
    result = runner.invoke(app, ["run", str(corpus), "--out", str(out), "--workers", "1", "--quiet", *args])
    return result.exit_code, out


def test_an_unknown_zone_is_a_usage_error(tmp_path: Path) -> None:
    code, _ = _run(tmp_path, "--timezone", "Mars/Olympus")
    assert code == 2


def test_pages_show_times_in_the_zone_asked_for(tmp_path: Path) -> None:
    code, out = _run(tmp_path, "--timezone", "Asia/Shanghai")
    assert code == 0
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "+08:00" in index
    shown = re.findall(r"<span>开始：</span>([^<]*)<", index)
    assert shown and re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", shown[0])


def _command(page: str) -> str:
    found = re.findall(r'data-copy="(python -m pipeline review accept [^"]*)"', page)
    assert len(found) == 1
    return found[0].replace("&#39;", "'").replace("&#34;", '"').replace("&amp;", "&")


def test_the_pasted_command_decides_on_the_runs_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = tmp_path / "其他 目录" / "my state.sqlite"
    state.parent.mkdir()
    code, out = _run(tmp_path, "--state", str(state))
    assert code == 0
    command = _command((out / "a.txt.html").read_text(encoding="utf-8"))
    assert f"--state {shlex.quote(str(state.resolve()))}" in command
    monkeypatch.chdir(tmp_path / "corpus")  # pasted anywhere
    argv = shlex.split(command.replace("姓名", "王编辑"))[3:]  # after python -m pipeline
    result = runner.invoke(app, argv)
    assert result.exit_code == 0, result.output
    listed = runner.invoke(app, ["review", "list", "--state", str(state), "--json", "--status", "accepted"])
    assert [json.loads(line)["editor"] for line in listed.output.splitlines()] == ["王编辑"]


def test_no_command_without_a_state(tmp_path: Path) -> None:
    code, out = _run(tmp_path, "--no-state")
    assert code == 0
    page = (out / "a.txt.html").read_text(encoding="utf-8")
    assert "review accept" not in page and "技术信息" in page
