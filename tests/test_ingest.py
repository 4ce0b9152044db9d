"""pipeline.ingest: discovery, decoding, and the block and table maps of .txt, .md and .html articles."""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.errors import InputError, UsageError
from pipeline.ingest import discover, doc_id_for, is_blank, parse_text, read_document
from pipeline.records import BlockKind, Document, Format

K = BlockKind
T = TypeVar("T")


def finishes(fn: Callable[[], T], seconds: float = 30.0) -> T:
    """fn(), failing (instead of hanging the run) when it takes longer than ``seconds``."""
    box: list[T] = []
    thread = threading.Thread(target=lambda: box.append(fn()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds}s"
    return box[0]


def write(folder: Path, name: str, data: str | bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)
    return path


def read(folder: Path, name: str, data: str | bytes, **kw: int) -> Document:
    path = write(folder, name, data)
    return read_document(path, folder, **kw)


def texts(doc: Document, kind: BlockKind) -> list[str]:
    return [doc.text[b.start:b.end].strip() for b in doc.blocks if b.kind is kind]


def assert_layout(doc: Document) -> None:
    """Non-COMMENT blocks tile the text in order; comments lie in the CODE block before them; cells match."""
    pos, code = 0, None
    for b in doc.blocks:
        assert 0 <= b.start < b.end <= len(doc.text), b
        if b.kind is K.COMMENT:
            assert code is not None and code.start <= b.start and b.end <= code.end, b
        else:
            assert b.start == pos, (b, pos)
            pos, code = b.end, (b if b.kind is K.CODE else None)
    assert pos == len(doc.text)
    for table in doc.tables:
        for row in (table.header, *table.rows):
            for cell in row:
                assert table.start <= cell.start <= cell.end <= table.end
                assert doc.text[cell.start:cell.end] == cell.text == cell.text.strip()


# ---- decoding --------------------------------------------------------------------------------------------

SIMPLIFIED = "这张显卡的显存为24GB，带宽是1008GB/s。\n功耗为450W。\n"
TRADITIONAL = "這張顯示卡的記憶體為24GB，頻寬是1008GB/s。\n功耗為450W。\n"
CRLF = "显存：24GB\r\n带宽：1008GB/s\r\n"
JAPANESE = "グラフィックボードの性能はメモリ帯域で決まることが多い。新しい演算ユニットも重要である。"
RARE = "显卡型号𠀀的显存为80GB。\n"  # U+20000 exists in GB18030 but not in GBK

# fmt: off
DECODING = [
    # name, raw bytes, text, encoding, text_is_derived
    ("utf8.txt", SIMPLIFIED.encode(), SIMPLIFIED, "utf-8", False),
    ("bom.txt", b"\xef\xbb\xbf" + SIMPLIFIED.encode(), SIMPLIFIED, "utf-8-sig", False),
    ("crlf.txt", CRLF.encode(), CRLF, "utf-8", False),
    ("cr.txt", b"GPU\rA100\r", "GPU\rA100\r", "utf-8", False),
    ("gbk.txt", SIMPLIFIED.encode("gbk"), SIMPLIFIED, "gb18030", True),
    ("gb18030.txt", RARE.encode("gb18030"), RARE, "gb18030", True),
    ("big5.txt", TRADITIONAL.encode("big5"), TRADITIONAL, "cp950", True),
    ("shift-jis.txt", JAPANESE.encode("shift_jis"), JAPANESE, "cp932", True),  # also valid GB18030 bytes
    ("utf16le.txt", b"\xff\xfe" + SIMPLIFIED.encode("utf-16-le"), SIMPLIFIED, "utf-16-le", True),
    ("utf16be.md", b"\xfe\xff" + SIMPLIFIED.encode("utf-16-be"), SIMPLIFIED, "utf-16-be", True),
]
# fmt: on


@pytest.mark.parametrize(("name", "raw", "text", "encoding", "derived"), DECODING)
def test_decoding(tmp_path: Path, name: str, raw: bytes, text: str, encoding: str, derived: bool) -> None:
    doc = read(tmp_path, name, raw)
    assert (doc.text, doc.encoding, doc.text_is_derived) == (text, encoding, derived)
    assert doc.sha256 == hashlib.sha256(raw).hexdigest()
    assert_layout(doc)


def test_bom_is_not_counted(tmp_path: Path) -> None:
    doc = read(tmp_path, "bom.txt", b"\xef\xbb\xbf" + "A100显卡\n\n它的显存为80GB。\n".encode())
    assert doc.text[0] == "A"
    assert doc.blocks[0].start == 0 and doc.title == "A100显卡"
    start = doc.text.index("80GB")
    assert doc.text[start:start + 4] == "80GB"


def test_crlf_offsets_point_into_the_file(tmp_path: Path) -> None:
    raw = "标题：显卡评测\r\n\r\nH100的显存为80GB。\r\n"
    doc = read(tmp_path, "a.txt", raw)
    assert doc.text == raw
    prose = next(b for b in doc.blocks if b.kind is K.PROSE)
    assert doc.text[prose.start:prose.end] == "H100的显存为80GB。\r\n"


# fmt: off
REJECTED = [
    # name, raw bytes, words the message must contain
    ("image.txt", b"\x89PNG\r\n\x1a\n" + bytes(64), "binary"),
    ("nul.txt", b"\x00\x01\x02\x03" * 50, "binary"),
    ("utf16-no-bom.txt", SIMPLIFIED.encode("utf-16-le"), "binary"),
    ("nul-middle.md", "显卡".encode() + b"\x00\x00\x00\x07\x00", "binary"),
    ("archive.html", b"PK\x03\x04" + b"x" * 40, "binary"),
    ("animation.txt", b"GIF89a" + b"x" * 40, "binary"),
    ("bad-utf16.txt", b"\xff\xfe\x00\xd8", "byte-order mark"),
    ("noise.txt", bytes(range(128, 256)) * 3, "Save it as UTF-8"),
]
# fmt: on


@pytest.mark.parametrize(("name", "raw", "words"), REJECTED)
def test_rejected_bytes(tmp_path: Path, name: str, raw: bytes, words: str) -> None:
    with pytest.raises(InputError, match=words):
        read(tmp_path, name, raw)


def test_file_over_max_bytes(tmp_path: Path) -> None:
    path = write(tmp_path, "big.txt", "显" * 400)
    with pytest.raises(InputError, match="over the limit of 1,000 bytes"):
        read_document(path, tmp_path, max_bytes=1000)
    assert read_document(path, tmp_path, max_bytes=1200).text == "显" * 400


def test_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pipeline.ingest.reading

    path = write(tmp_path, "locked.txt", "显卡")

    def deny(path: Path, root: Path, follow_symlinks: bool) -> int:  # CI runs as root: chmod would not do
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(pipeline.ingest.reading, "_open", deny)
    with pytest.raises(InputError, match=r"cannot read .*Permission denied.*allowed to read"):
        read_document(path, tmp_path)


@pytest.mark.parametrize("make", [lambda p: p / "missing.txt", lambda p: p])
def test_missing_file_or_folder_is_an_input_error(tmp_path: Path, make) -> None:
    with pytest.raises(InputError, match="cannot read"):
        read_document(make(tmp_path), tmp_path)


# fmt: off
BLANK = [
    ("empty.txt", b"", True),
    ("spaces.txt", b"  \n\t\r\n", True),
    ("ideographic.md", "\u3000\n\u200b\n".encode(), True),
    ("bom-only.txt", b"\xef\xbb\xbf \n", True),
    ("chrome.html", b"<html><body><nav>home</nav><footer>(c)</footer></body></html>", True),
    ("text.txt", b"A100", False),
    ("page.html", "<p>显卡</p>".encode(), False),
    ("long-blank.txt", ("\u200b \n" * 100).encode(), True),  # past the first characters too
    ("late-text.md", ("\u200b\u3000\n" * 50 + "H100").encode(), False),
    ("text-then-blank.txt", ("显卡" + " " * 200).encode(), False),
]
# fmt: on


@pytest.mark.parametrize(("name", "raw", "blank"), BLANK)
def test_is_blank(tmp_path: Path, name: str, raw: bytes, blank: bool) -> None:
    doc = read(tmp_path, name, raw)
    assert is_blank(doc) is blank
    assert_layout(doc)


@pytest.mark.parametrize(("name", "fmt"), [("a.txt", Format.TXT), ("a.md", Format.MD),
                                           ("a.markdown", Format.MD), ("a.HTML", Format.HTML),
                                           ("a.htm", Format.HTML), ("a.text", Format.TXT)])
def test_format_by_suffix(tmp_path: Path, name: str, fmt: Format) -> None:
    doc = read(tmp_path, name, "显卡")
    assert doc.format is fmt
    assert doc.text_is_derived is (fmt is Format.HTML)


# ---- discovery -------------------------------------------------------------------------------------------

def test_discover_walks_the_tree(tmp_path: Path) -> None:
    names = ["a.txt", "b.md", "e.markdown", "sub/c.html", "sub/d.HTM", ".dotfile.txt", "名字 有空格.txt",
             "中文目录/文章.md", ".git/ignored.txt", "sub/.cache/ignored.md", "notes.pdf", "image.png"]
    for name in names:
        write(tmp_path, name, "显卡")
    os.symlink(tmp_path, tmp_path / "sub" / "loop")  # a loop back to the root
    os.symlink(tmp_path / "sub", tmp_path / "sub-again")  # a second way into sub/
    found = [doc_id_for(p, tmp_path) for p in finishes(lambda: discover(tmp_path))]
    assert sorted(found) == sorted(["a.txt", "b.md", "e.markdown", "sub/c.html", "sub/d.HTM", ".dotfile.txt",
                                    "名字 有空格.txt", "中文目录/文章.md"])
    assert found == [doc_id_for(p, tmp_path) for p in sorted(discover(tmp_path))]


def test_discover_one_file_and_missing_path(tmp_path: Path) -> None:
    path = write(tmp_path, "one.md", "# A100")
    assert discover(path) == [path]
    assert doc_id_for(path, path) == "one.md"
    with pytest.raises(UsageError, match="neither a file nor a folder"):
        discover(tmp_path / "nowhere")


@pytest.mark.parametrize(("path", "root", "doc_id"), [
    ("corpus/a.txt", "corpus", "a.txt"),
    ("corpus/x/y/b.md", "corpus", "x/y/b.md"),
    ("corpus/x/b.md", "corpus/x/b.md", "b.md"),
    ("elsewhere/c.txt", "corpus", "c.txt"),
])
def test_doc_id_for(path: str, root: str, doc_id: str) -> None:
    assert doc_id_for(Path(path), Path(root)) == doc_id


def test_doc_id_and_path_on_the_document(tmp_path: Path) -> None:
    path = write(tmp_path, "sub dir/文章 1.txt", "显卡")
    doc = read_document(path, tmp_path)
    assert (doc.doc_id, doc.path) == ("sub dir/文章 1.txt", str(path))


# ---- plain text ------------------------------------------------------------------------------------------

ARTICLE_TXT = """正文

【评测】RTX 4090显卡上手体验

/0 浏览量
0525

作者：小明的硬件笔记｜分类：显卡评测

RTX 4090采用AD102核心，配备24GB GDDR6X显存。
这一段的第二行仍属于同一段落。

一、核心规格

这张卡有16384个CUDA核心，显存位宽为384bit。

1.1 显存带宽是多少？

显存带宽约为1008GB/s，适合本地推理。

  • 功耗：450W
  • 接口：PCIe 4.0 x16

（二）软件支持

代码示例：

import torch

# 查看显卡名称，RTX 4090的计算能力为8.9
name = torch.cuda.get_device_name(0)
if torch.cuda.is_available():
    print(name, "#不是注释")  # 打印显卡型号

总结

RTX 4090是目前最强的消费级显卡之一。
2048
******
-- 展开阅读全文 --
"""

# fmt: off
TXT_BLOCKS = [
    (K.BOILERPLATE, ["正文", "/0 浏览量", "0525", "作者：小明的硬件笔记｜分类：显卡评测", "******",
                     "-- 展开阅读全文 --"]),
    (K.TITLE, ["【评测】RTX 4090显卡上手体验"]),
    (K.HEADING, ["一、核心规格", "1.1 显存带宽是多少？", "（二）软件支持", "总结"]),
    (K.COMMENT, ["查看显卡名称，RTX 4090的计算能力为8.9", "打印显卡型号"]),
    (K.PROSE, ["RTX 4090采用AD102核心，配备24GB GDDR6X显存。\n这一段的第二行仍属于同一段落。",
               "这张卡有16384个CUDA核心，显存位宽为384bit。", "显存带宽约为1008GB/s，适合本地推理。",
               "• 功耗：450W", "• 接口：PCIe 4.0 x16", "代码示例：",
               "RTX 4090是目前最强的消费级显卡之一。\n2048"]),
]
# fmt: on


@pytest.mark.parametrize(("kind", "expected"), TXT_BLOCKS)
def test_txt_blocks(tmp_path: Path, kind: BlockKind, expected: list[str]) -> None:
    doc = read(tmp_path, "a.txt", ARTICLE_TXT)
    assert texts(doc, kind) == expected
    assert_layout(doc)


def test_txt_title_and_code(tmp_path: Path) -> None:
    doc = read(tmp_path, "a.txt", ARTICLE_TXT)
    assert doc.title == "RTX 4090显卡上手体验"
    assert doc.text == ARTICLE_TXT and not doc.text_is_derived
    [code] = texts(doc, K.CODE)
    assert code.startswith("import torch") and code.endswith("# 打印显卡型号")


# fmt: off
CODE_CASES = [
    # text, code blocks, comments
    ("说明如下：\n\nimport torch\nx = torch.ones(3)\n", ["import torch\nx = torch.ones(3)"], []),
    ("# 示例代码：检查显存\nimport torch\n\nfree, total = torch.cuda.mem_get_info()\n\n下一段。\n",
     ["# 示例代码：检查显存\nimport torch\n\nfree, total = torch.cuda.mem_get_info()"],
     ["示例代码：检查显存"]),
    ("代码：\nprint('A100 # 不是注释')\n", ["print('A100 # 不是注释')"], []),
    ("model = nn.Sequential(\n    nn.Linear(8, 4),\n).to(device)\n# 迁移到GPU\nmodel.eval()\n",
     ["model = nn.Sequential(\n    nn.Linear(8, 4),\n).to(device)\n# 迁移到GPU\nmodel.eval()"],
     ["迁移到GPU"]),
    ('x = """文档 # 井号"""\ny = 2  #   对齐的注释  \n', ['x = """文档 # 井号"""\ny = 2  #   对齐的注释'],
     ["对齐的注释"]),
    ('doc = """第一行\n# 字符串里\n"""\nz = 3\n', ['doc = """第一行\n# 字符串里\n"""\nz = 3'], []),
    ("带宽的换算：1TB/s = 1000GB/s，这是近似值。\n", [], []),
    ("A100(80GB)\nH100(80GB)\n", [], []),
    ("显存计算\n\nx = 1\n\n完毕。\n", [], []),
    ("# 这是一个井号开头的标题\n\n正文内容在这里。\n", [], []),
]
# fmt: on


@pytest.mark.parametrize(("text", "code", "comments"), CODE_CASES)
def test_txt_code_detection(tmp_path: Path, text: str, code: list[str], comments: list[str]) -> None:
    doc = read(tmp_path, "code.txt", "标题\n\n" + text)
    assert texts(doc, K.CODE) == code
    assert texts(doc, K.COMMENT) == comments
    assert_layout(doc)


def test_txt_pipe_table(tmp_path: Path) -> None:
    doc = read(tmp_path, "t.txt", "参数表\n\n| 型号 | 显存 |\n|---|---|\n| L4 | 24GB |\n\n以上。\n")
    [table] = doc.tables
    assert [c.text for c in table.header] == ["型号", "显存"]
    assert [[c.text for c in row] for row in table.rows] == [["L4", "24GB"]]
    assert texts(doc, K.TABLE) == ["| 型号 | 显存 |\n|---|---|\n| L4 | 24GB |"]
    assert_layout(doc)


# ---- Markdown --------------------------------------------------------------------------------------------

ARTICLE_MD = """# H100与A100规格对比

> 本文对比两张数据中心显卡。

## 规格表

| 型号 | 显存 | 带宽 |
|------|:----:|-----:|
| A100 SXM4 | 80GB | 2039 GB/s |
|H100 SXM5|80GB|  3.35 TB/s |
| 空值 |  | a \\| b |

## 代码

```python
import torch
# H100的计算能力为9.0
print(torch.cuda.get_device_capability())
| 不是 | 表格 |
|---|---|
# 也不是标题
```

~~~cuda
#include <cuda_runtime.h>
~~~

- 列表项：A100有6912个CUDA核心
- 另一个列表项
"""


def test_md_title_headings_code_and_comments(tmp_path: Path) -> None:
    doc = read(tmp_path, "a.md", ARTICLE_MD)
    assert doc.text == ARTICLE_MD and doc.title == "H100与A100规格对比"
    assert texts(doc, K.HEADING) == ["# H100与A100规格对比", "## 规格表", "## 代码"]
    assert [c.split("\n")[0] for c in texts(doc, K.CODE)] == ["```python", "~~~cuda"]
    assert texts(doc, K.COMMENT) == ["H100的计算能力为9.0", "也不是标题"]  # none from the cuda block
    assert texts(doc, K.PROSE) == ["> 本文对比两张数据中心显卡。", "- 列表项：A100有6912个CUDA核心",
                                   "- 另一个列表项"]
    assert_layout(doc)


def test_md_pipe_table_spans_are_raw_slices(tmp_path: Path) -> None:
    doc = read(tmp_path, "a.md", ARTICLE_MD)
    [table] = doc.tables
    assert [c.text for c in table.header] == ["型号", "显存", "带宽"]
    assert [[c.text for c in row] for row in table.rows] == [
        ["A100 SXM4", "80GB", "2039 GB/s"], ["H100 SXM5", "80GB", "3.35 TB/s"], ["空值", "", "a \\| b"]]
    bandwidth = table.rows[0][2]
    assert ARTICLE_MD[bandwidth.start - 2:bandwidth.end] == "| 2039 GB/s"
    assert ARTICLE_MD[table.start:table.end].startswith("| 型号") and ARTICLE_MD[table.end - 1] == "|"
    assert_layout(doc)


# ---- HTML ------------------------------------------------------------------------------------------------

PAGE = """<!DOCTYPE html>
<html><head><title>站点标题 - 显卡周刊</title><style>p { color: red }</style>
<script>var tracker = "SCRIPT-MARK";</script></head>
<body>
<header><nav><a href="/">HEADER-NAV-MARK</a></nav></header>
<aside>ASIDE-MARK</aside>
<article>
<header><h1>L4推理卡  评测</h1><p>编辑部</p></header>
<p>L4的显存为24GB，  带宽为300GB/s。<!-- COMMENT-MARK -->它的功耗只有72W。</p>
<p>AT&amp;T 实验室说：<b>L4</b>适合
视频解码。</p>
<noscript>NOSCRIPT-MARK</noscript>
<form><input value="x">FORM-MARK</form>
<h2>规格表</h2>
<table>
<caption>两张卡</caption>
<thead><tr><th>型号</th><th>显存</th></tr></thead>
<tbody>
<tr><td>L4</td><td> 24GB <br>GDDR6 </td></tr>
<tr><td><a href="#">T4</a></td><td>16GB<table><tr><td>嵌套</td></tr></table></td></tr>
</tbody>
</table>
<pre><code class="language-python">import torch
# L4的计算能力为8.9
x = "#不是注释"
</code></pre>
<pre><code class="language-cpp">#include &lt;cuda.h&gt;
</code></pre>
<ul><li>第一项</li><li>第二项<br>换行</li></ul>
</article>
<footer>FOOTER-MARK</footer>
</body></html>
"""


@pytest.mark.parametrize("mark", ["SCRIPT-MARK", "HEADER-NAV-MARK", "ASIDE-MARK", "COMMENT-MARK",
                                  "NOSCRIPT-MARK", "FORM-MARK", "FOOTER-MARK", "站点标题", "color: red", "<p",
                                  "&amp;"])
def test_html_drops_chrome(tmp_path: Path, mark: str) -> None:
    assert mark not in read(tmp_path, "a.html", PAGE).text


@pytest.mark.parametrize("quote", ["L4的显存为24GB，  带宽为300GB/s。", "它的功耗只有72W。",
                                   "AT&T 实验室说：", "适合 视频解码。", "编辑部", "两张卡", "第二项\n换行"])
def test_html_text_nodes_are_verbatim(tmp_path: Path, quote: str) -> None:
    assert read(tmp_path, "a.html", PAGE).text.count(quote) == 1


def test_html_blocks_title_and_code(tmp_path: Path) -> None:
    doc = read(tmp_path, "a.html", PAGE)
    assert doc.title == "L4推理卡 评测" and doc.text_is_derived
    assert texts(doc, K.HEADING) == ["L4推理卡  评测", "规格表"]
    assert texts(doc, K.COMMENT) == ["L4的计算能力为8.9"]  # nothing from the C++ block
    assert [c.split("\n")[0] for c in texts(doc, K.CODE)] == ["import torch", "#include <cuda.h>"]
    assert texts(doc, K.PROSE)[-2:] == ["第一项", "第二项\n换行"]
    assert_layout(doc)


def test_html_table_cells(tmp_path: Path) -> None:
    doc = read(tmp_path, "a.html", PAGE)
    [table] = doc.tables
    assert [c.text for c in table.header] == ["型号", "显存"]
    assert [[c.text for c in row] for row in table.rows] == [["L4", "24GB GDDR6"], ["T4", "16GB 嵌套"]]
    assert doc.text[table.start:table.end] == "型号 | 显存\nL4 | 24GB GDDR6\nT4 | 16GB 嵌套"
    assert texts(doc, K.TABLE) == ["两张卡\n型号 | 显存\nL4 | 24GB GDDR6\nT4 | 16GB 嵌套"]
    assert_layout(doc)


# fmt: off
ROOTS = [
    # page, in text, not in text, title
    ("<body><nav>N</nav><main><p>甲</p></main><p>乙</p></body>", "甲", "乙", None),
    ("<body><p>甲</p><header>乙</header></body>", "甲", "乙", None),
    ("<html><head><title> 标题 A </title></head><body><p>甲</p></body></html>", "甲", "标题", "标题 A"),
    ("<body><h1>外面的标题</h1><article><p>甲</p></article></body>", "甲", "外面", "外面的标题"),
    ("<table><tr><td>型号</td></tr></table><p>甲</p>", "型号", "<", None),
]
# fmt: on


@pytest.mark.parametrize(("page", "present", "absent", "title"), ROOTS)
def test_html_root_and_title(tmp_path: Path, page: str, present: str, absent: str, title: str | None) -> None:
    doc = read(tmp_path, "a.html", page)
    assert present in doc.text and absent not in doc.text and doc.title == title
    assert_layout(doc)


def test_html_ten_thousand_nested_divs(tmp_path: Path) -> None:
    page = "<html><body><article>" + "<div>" * 10_000 + "深处的A100" + "</div>" * 10_000 + "</article></body>"
    doc = finishes(lambda: read(tmp_path, "deep.html", page))
    assert doc.text.strip() == "深处的A100"
    assert_layout(doc)


@pytest.mark.parametrize("page", [
    "<p>显卡<b>加粗<i>斜体</p>没有闭合",
    "<table><tr><td>A100<td>80GB<tr><td>H100",
    "</div></p>多余的结束标签<div>",
    "<<<>>> <p <a href='x>坏属性</a>",
    "<?xml version='1.0' encoding='utf-8'?><html><body><p>显存</p></body></html>",
    "<html><body><article>",
    "<!-- 只有注释 -->",
    "<table></table><table><tr></tr></table><pre></pre><h1></h1>",
    "\x0b\x0c<p>\r\n</p>",
    "<svg><text>图</text></svg><math><mi>x</mi></math>",
])
def test_html_malformed_pages_still_map(tmp_path: Path, page: str) -> None:
    doc = read(tmp_path, "bad.html", page)
    assert_layout(doc)


@pytest.mark.parametrize(("name", "fmt", "text"), [("a.txt", Format.TXT, ARTICLE_TXT),
                                                  ("a.md", Format.MD, ARTICLE_MD),
                                                  ("a.html", Format.HTML, PAGE)])
def test_parse_text_maps_a_string_like_a_file(tmp_path: Path, name: str, fmt: Format, text: str) -> None:
    from_file, from_string = read(tmp_path, name, text), parse_text(text, fmt, doc_id=name)
    assert (from_string.doc_id, from_string.path, from_string.sha256) == (name, name, from_file.sha256)
    assert (from_string.text, from_string.title, from_string.blocks, from_string.tables) == (
        from_file.text, from_file.title, from_file.blocks, from_file.tables)
    assert from_string.text_is_derived is (fmt is Format.HTML)


# ---- properties ------------------------------------------------------------------------------------------

CELL_CHARS = st.characters(whitelist_categories=("L", "N", "P", "S", "Zs"), blacklist_characters="|")
SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(text=st.text(), suffix=st.sampled_from([".txt", ".md"]))
def test_any_text_maps_onto_itself(tmp_path: Path, text: str, suffix: str) -> None:
    path = write(tmp_path, "prop" + suffix, text)
    try:
        doc = read_document(path, tmp_path)
    except InputError:
        return
    assert doc.text == text.removeprefix("\ufeff")
    assert all(0 <= b.start <= b.end <= len(doc.text) for b in doc.blocks)
    assert_layout(doc)


@SETTINGS
@given(data=st.one_of(st.text().map(str.encode), st.binary()),
       suffix=st.sampled_from([".txt", ".md", ".html"]))
def test_any_bytes_give_a_document_or_an_input_error(tmp_path: Path, data: bytes, suffix: str) -> None:
    path = write(tmp_path, "prop" + suffix, data)
    try:
        doc = read_document(path, tmp_path)
    except InputError:
        return
    assert_layout(doc)


@SETTINGS
@given(cells=st.lists(st.lists(st.text(CELL_CHARS, max_size=8), min_size=2, max_size=2), min_size=1,
                      max_size=4))
def test_any_html_table_cells_round_trip(tmp_path: Path, cells: list[list[str]]) -> None:
    rows = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in cells)
    doc = read(tmp_path, "t.html", f"<table><tr><th>A</th><th>B</th></tr>{rows}</table>")
    [table] = doc.tables
    assert [[c.text for c in row] for row in table.rows] == [[c.strip() for c in row] for row in cells]
    assert_layout(doc)
