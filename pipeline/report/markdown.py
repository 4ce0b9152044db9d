"""Markdown reports: one per document (<name>.md) and the run summary (summary.md)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..lexicon.labels import doc_message
from ..records import DocumentResult, Status
from .display import Display
from .tables import (
    DOC_SEVERITY,
    STATUS_ZH,
    VERDICT_KEYS,
    VERDICT_ZH,
    ClaimView,
    DocRow,
    claim_views,
    display_for,
    report_verdict,
    run_info_items,
)

_MD_SPECIAL = re.compile(r"([\\`*\[\]<>|~])")
# "_" between two letters or digits (set_device, 显存_容量) cannot start emphasis: leave it readable.
_MD_UNDERSCORE = re.compile(r"(?<![^\W_])_|_(?![^\W_])")


_URL_ESCAPES = {ord(ch): f"%{ord(ch):02X}" for ch in "()<>"}  # what would end or break a Markdown link


_MD_LINES = re.compile(r"\s*[\r\n]+\s*")
# control characters (an ANSI escape in a file name or an article) are written as \xNN: a terminal showing the
# Markdown is never driven by them
_MD_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_MD_ANY = re.compile(r"[\\`*\[\]<>|~_\r\n\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # one the substitutions change


def _visible(m: re.Match[str]) -> str:
    return f"\\x{ord(m.group()):02x}"


def md_text(s: str | None) -> str:
    """Article text made inert in Markdown: one line, no emphasis, links, tables, raw HTML or control
    characters."""
    if not s:
        return ""
    if not _MD_ANY.search(s):  # most text has nothing to escape
        return s
    s = _MD_SPECIAL.sub(r"\\\1", _MD_LINES.sub(" ", _MD_CONTROL.sub(_visible, s)))
    return _MD_UNDERSCORE.sub(r"\\_", s)


def md_code(s: str) -> str:
    """A code span that survives backticks inside ``s`` (control characters written as \\xNN)."""
    s = re.sub(r"[\r\n]+", " ", _MD_CONTROL.sub(_visible, s))
    fence = "`" * (max((len(m) for m in re.findall(r"`+", s)), default=0) + 1)
    pad = " " if s.startswith("`") or s.endswith("`") else ""
    return f"{fence}{pad}{s}{pad}{fence}"


def md_source(v: ClaimView) -> str:
    c = v.check
    if c is None or not (c.source or c.source_title):
        return "—"
    title = md_text(c.source_title or c.source)
    if v.href:
        url = v.href.translate(_URL_ESCAPES)
        return f"[{title}]({url})"
    # Not a web link (javascript:, a file path...): shown as inert text, never as a link.
    return f"{title}（{md_text(c.source)}）" if c.source and c.source_title else title


def _counts_line(counts: Mapping[str, int]) -> str:
    return " · ".join(f"{VERDICT_ZH[k]} {counts.get(k, 0)}" for k in VERDICT_KEYS)


def _review_line(v: ClaimView) -> str | None:
    r = v.review
    if r is None:
        return None
    who = "，".join(md_text(x) for x in (r.editor, v.decided_zh) if x)
    line = f"审核：{r.label}" + (f"（{who}）" if who else "")
    line += f"：{md_text(r.note)}" if r.note else ""
    return line + (f"；更正：{md_text(r.correction)}" if r.correction else "")


def _flag_item(n: int, v: ClaimView) -> list[str]:
    code = v.claim.attribute == "code"
    lines = [f"### {n}. {_quote(v)} — {v.verdict_zh}", ""]
    where = f"第 {v.line} 行 · " if v.display.lines else ""
    lines.append(f"- 位置：{where}「{md_text(v.claim.sentence)}」")
    lines.append(f"- 属性：{md_text(v.attribute_zh)}")
    if v.subject_name:
        lines.append(f"- 对象：{md_text(v.subject_name)}")
    stated = md_code(v.claim.text) if code and not v.stated else md_text(v.stated)
    lines.append(f"- 原文：{stated or '—'}")
    expected = (md_code(v.expected) if code else md_text(v.expected)) if v.expected else "—"
    lines.append(f"- 正确值：{expected}")
    lines.append(f"- 说明：{md_text(v.explanation) or '—'}")
    lines.append(f"- 来源：{md_source(v)}")
    if v.evidence_zh:
        lines.append(f"- 依据：{md_text(v.evidence_zh)}")
    command = f"（{md_code(v.command)}）" if v.command else ""
    lines.append(f"- 编号：{md_code(v.claim.claim_id)}{command}")
    review = _review_line(v)
    if review:
        lines.append(f"- {review}")
    return [*lines, ""]


def _where(v: ClaimView) -> str:
    """"第 N 行 " before a claim, when its article's lines mean something to an editor (see ``Display.lines``)."""
    return f"第 {v.line} 行 " if v.display.lines else ""


def _quote(v: ClaimView) -> str:
    return md_code(v.claim.text) if v.claim.attribute == "code" else f"「{md_text(v.claim.text)}」"


def document_markdown(result: DocumentResult, text: str, display: Display | None = None,
                      views: Sequence[ClaimView] | None = None) -> str:
    """The editor's report for one document (``views``: the claims' views, when the caller has made them)."""
    views = claim_views(result.claims, text, display or display_for(result)) if views is None else views
    out = [f"# 核查报告：{md_text(result.title or result.doc_id)}", ""]
    out.append(f"- 文档：{md_code(result.doc_id)}")
    out.append(f"- 路径：{md_code(result.path)}")
    out.append(f"- 结论：**{report_verdict(result)}**")
    if result.status is not Status.OK:
        status = STATUS_ZH.get(result.status.value, "未检查")
        out.append(f"- 状态：{status}" + (f"：{md_text(doc_message(result.message))}" if result.message else ""))
        return "\n".join([*out, "", "本文未完成核查，没有核查结果。", ""])
    raised = [v for v in views if v.is_flag and not v.is_closed]
    closed = [v for v in views if v.is_closed]
    pending = sum(1 for v in raised if v.review is None)
    out.append(f"- 统计：{_counts_line(result.counts())}")
    out.append(f"- 共 {len(views)} 条论断，需修改 {len(raised)} 条（其中待处理 {pending} 条），已处理 {len(closed)} 条")
    out += ["", f"## 需修改（{len(raised)}）", ""]
    if not raised:
        out += ["没有需修改的地方。", ""]
    for n, v in enumerate(raised, 1):
        out += _flag_item(n, v)
    if closed:
        out += [f"## 已处理（{len(closed)}）", ""]
        for n, v in enumerate(closed, 1):
            out += _flag_item(n, v)

    supported = [v for v in views if v.verdict == "supported"]
    out += [f"## 已核实（{len(supported)}）", ""]
    if supported:
        out += ["| 行 | 原文 | 属性 | 数值 | 来源 | 依据 |", "|---:|---|---|---|---|---|"]
        for v in supported:
            quote = _quote(v).replace("|", "\\|") if v.claim.attribute == "code" else _quote(v)
            cells = [str(v.line) if v.display.lines else "—", quote, md_text(v.attribute_zh),
                     md_text(v.stated) or "—", md_source(v), md_text(v.evidence_zh) or "—"]
            out.append("| " + " | ".join(cells) + " |")
    else:
        out.append("无。")

    unsure = [v for v in views if v.verdict in ("unverifiable", "unchecked")]
    out += ["", f"## 无法核实（{len(unsure)}）", ""]
    out += [f"- {_where(v)}{_quote(v)}（{md_text(v.attribute_zh)}"
            + ("，未检查" if v.verdict == "unchecked" else "")
            + (f"，口径：{md_text(v.scope_zh)}" if v.scope_zh else "")
            + (f"，原因：{md_text(v.reason_zh)}" if v.reason_zh else "") + "）"
            + (f"：{md_text(v.explanation)}" if v.explanation else "")
            for v in unsure] or ["无。"]

    code = [v for v in views if v.claim.attribute == "code"]
    if code:
        out += ["", f"## 代码问题（{sum(1 for v in code if v.verdict == 'code_issue')}）", ""]
        for v in code:
            line = f"- {_where(v)}{md_code(v.claim.text)} — {v.verdict_zh}"
            if v.explanation:
                line += f"：{md_text(v.explanation)}"
            if v.expected:
                line += f"（正确写法：{md_code(v.expected)}）"
            out.append(line)
    return "\n".join([*out, ""])


def _doc_cell(row: DocRow) -> str:
    r = row.result
    name = md_text(r.title or r.doc_id)
    link = f"[{name}]({row.md_name})" if row.md_name else name
    return f"{link}<br>{md_code(r.doc_id)}" if r.title else link


def summary_markdown(
    rows: Sequence[DocRow], totals: Mapping[str, Any], run_info: Mapping[str, Any]
) -> str:
    """summary.md: the run at a glance, worst documents first."""
    out = ["# 核查汇总", ""]
    out += [f"- {md_text(k)}：{md_text(v)}" for k, v in run_info_items(run_info)]
    verdict_cols = " | ".join(VERDICT_ZH[k] for k in VERDICT_KEYS)
    out += ["", f"| # | 文档 | 结论 | 待处理 | 需修改 | {verdict_cols} | 状态 |",
            "|---:|---|---|---:|---:|" + "---:|" * len(VERDICT_KEYS) + "---|"]
    for n, row in enumerate(rows, 1):
        status = row.status_zh + (f"：{md_text(doc_message(row.result.message))}" if row.result.message else "")
        counts = " | ".join(str(row.counts.get(k, 0)) for k in VERDICT_KEYS)
        out.append(f"| {n} | {_doc_cell(row)} | {row.verdict} | {row.pending} | {row.open_flags} | "
                   f"{counts} | {status} |")
    status_line = " · ".join(f"{STATUS_ZH[k]} {v}" for k, v in totals["status"].items())
    verdict_line = " · ".join(f"{k} {totals['doc_verdicts'].get(k, 0)}" for k in DOC_SEVERITY)
    out += ["", "## 合计", "",
            f"- 文档：{totals['documents']} 篇（{status_line}）",
            f"- 结论：{verdict_line}",
            f"- 论断：{_counts_line(totals['claims'])}",
            f"- 需修改：{totals['open_flags']} 处，其中待处理 {totals['pending']} 处"
            f"（另有已处理 {totals['flags'] - totals['open_flags']} 处）", ""]
    return "\n".join(out)
