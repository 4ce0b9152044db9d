"""pipeline.check.code: findings about the Python code an article shows, alone (``check_code``) and through
``check_text`` (``code_claims``: claims with attribute ``code`` and verdict ``code_issue`` on the offending line).

The snippets and articles are written for these tests.
"""

from __future__ import annotations

import pytest

from pipeline.api import analyse, check_text, document_from_text
from pipeline.check.code import Deprecated, Finding, check_code, deprecated_apis
from pipeline.config import DEFAULT_REFERENCE_DIR
from pipeline.knowledge.reference import Reference
from pipeline.records import Claim, Format, Verdict


@pytest.fixture(scope="module")
def deprecated() -> tuple[Deprecated, ...]:
    return deprecated_apis(DEFAULT_REFERENCE_DIR)


def kinds(findings: list[Finding]) -> list[tuple[str, int]]:
    return [(f.kind, f.line) for f in findings]


def gap(case: tuple, reason: str):  # type: ignore[type-arg,no-untyped-def]
    return pytest.param(*case, marks=pytest.mark.xfail(strict=True, reason=reason))


# ---------------------------------------------------------------- check_code on one block

# fmt: off
SYNTAX_CASES = [
    # code                                                                   line
    ("import torch\nnet = torch.nn.Linear(4, 2\nprint(net)\n",                 2),
    ("for epoch in range(3)\n    print(epoch)\n",                             1),
    ("import torch\n\ndef step(model, batch:\n    return model(batch)\n",     3),
    ("x = 1\nif x > 0:\nprint(x)\n",                                          3),
]
# fmt: on


@pytest.mark.parametrize(("code", "line"), SYNTAX_CASES)
def test_syntax_error_with_line(code: str, line: int, deprecated: tuple[Deprecated, ...]) -> None:
    findings = check_code(code, deprecated=deprecated)
    assert kinds(findings) == [("syntax_error", line)]
    assert f"第{line}行" in findings[0].message
    assert findings[0].source and findings[0].source.startswith("https://docs.python.org")


# fmt: off
UNDEFINED_CASES = [
    # code                                            prelude                                expected
    ("import torch\nout = model(torch.ones(2))\n",     "",                                    [("model", 2)]),
    ("y = helper(1)\nz = y + offset\n",               "",                                    [("helper", 1),
                                                                                             ("offset", 2)]),
    ("y = helper(1)\n",                               "def helper(v):\n    return v * 2\n",  []),
    ("y = helper(1)\n",                               "import torch\nscale = 3\n",           [("helper", 1)]),
    ("import torch\nfrom torch import nn\nm = nn.Linear(2, 2)\n", "",                         []),
    ("def f(a):\n    return a + len(str(a))\n",       "",                                    []),
]
# fmt: on


@pytest.mark.parametrize(("code", "prelude", "expected"), UNDEFINED_CASES)
def test_undefined_names(code: str, prelude: str, expected: list[tuple[str, int]],
                         deprecated: tuple[Deprecated, ...]) -> None:
    findings = check_code(code, prelude=prelude, deprecated=deprecated)
    assert kinds(findings) == [(f"undefined_name:{name}", line) for name, line in expected]
    for f, (name, _line) in zip(findings, expected, strict=True):
        assert name in f.message and "NameError" in f.message


NAME_IMPORT_GAP = ("only attribute chains are matched against deprecated_apis.csv: a deprecated API imported by its "
                   "own name (from torch.cuda.amp import GradScaler; GradScaler()) is not found")
GRAD_SCALER, AUTOCAST, VARIABLE = "torch.cuda.amp.GradScaler", "torch.cuda.amp.autocast", "torch.autograd.Variable"
# fmt: off
DEPRECATED_CASES = [
    # code                                                                        expected (api, line)
    ("import torch\nscaler = torch.cuda.amp.GradScaler()\n",                      [(GRAD_SCALER, 2)]),
    ("from torch.cuda import amp\n\nscaler = amp.GradScaler()\n",                 [(GRAD_SCALER, 3)]),
    ("import torch.cuda.amp as mp\nscaler = mp.GradScaler()\n",                   [(GRAD_SCALER, 2)]),
    ("import torch\nwith torch.cuda.amp.autocast():\n    y = torch.ones(2) * 2\n", [(AUTOCAST, 2)]),
    ("import torch\nimport torch.nn.functional as F\ny = F.sigmoid(torch.ones(2))\n",
                                                                                  [("torch.nn.functional.sigmoid", 3)]),
    ("import torch\nv = torch.autograd.Variable(torch.ones(2))\n",                [(VARIABLE, 2)]),
    ("import tensorflow as tf\nsess = tf.Session()\n",                            [("tf.Session", 2)]),
    ("from torch.cuda.amp import GradScaler\nscaler = GradScaler()\n",        [(GRAD_SCALER, 2)]),
    ("import torch\nfrom torch.autograd import Variable\nv = Variable(torch.ones(2))\n",
                                                                                  [(VARIABLE, 3)]),
    ("import torch\nscaler = torch.amp.GradScaler(\"cuda\")\n",                    []),
    ("import torch\nwith torch.autocast(\"cuda\"):\n    y = torch.sigmoid(torch.ones(2))\n",
                                                                                  []),
    ("import torch\ny = torch.tanh(torch.ones(2))\n",                             []),
]
# fmt: on


@pytest.mark.parametrize(("code", "expected"), DEPRECATED_CASES)
def test_deprecated_apis(code: str, expected: list[tuple[str, int]], deprecated: tuple[Deprecated, ...]) -> None:
    findings = check_code(code, deprecated=deprecated)
    assert kinds(findings) == [(f"deprecated_api:{api}", line) for api, line in expected]
    by_api = {d.api: d for d in deprecated}
    for f, (api, _line) in zip(findings, expected, strict=True):
        assert f.expected == by_api[api].replacement and f.source == by_api[api].source_url


COUNT_ONLY_GAP = ("'在GPU上训练之前' in the prose matches _GPU_PROSE and torch.cuda.device_count() is not an 'on GPU' "
                  "pattern, so a script that only counts the cards is said to train on the CPU")
TRAIN = "import torch\nmodel = torch.nn.Linear(10, 1)\nloss = model(torch.randn(4, 10)).sum()\nloss.backward()\n"
TRAIN_CUDA = TRAIN.replace("nn.Linear(10, 1)", "nn.Linear(10, 1).cuda()")
TRAIN_TO = TRAIN.replace("nn.Linear(10, 1)", "nn.Linear(10, 1).to('cuda')")
TRAIN_MOVED = TRAIN.replace("model = torch.nn.Linear(10, 1)", "model = torch.nn.Linear(10, 1)\nmodel = model.cuda()")
DATA_PARALLEL = "import torch\nmodel = torch.nn.DataParallel(torch.nn.Linear(10, 1)).cuda()\n"
COUNT_CARDS = "import torch\nprint(torch.cuda.device_count())\n"
MULTI, ON_GPU_MISSING = "claim_not_in_code:multi_gpu", "claim_not_in_code:on_gpu"
# fmt: off
PROMISE_CASES = [
    # prose                                        code            expected
    ("下面这段代码用多张显卡并行训练：",                TRAIN_CUDA,     [MULTI]),
    ("这个脚本演示多GPU数据并行：",                     TRAIN_TO,       [MULTI]),
    ("下面使用GPU训练一个线性模型：",                   TRAIN,          [ON_GPU_MISSING]),
    ("在A100上训练只需要几行代码：",                    TRAIN,          [ON_GPU_MISSING]),
    ("下面使用GPU训练一个线性模型：",                   TRAIN_TO,       []),
    ("下面使用GPU训练一个线性模型：",                   TRAIN_MOVED,    []),
    ("下面这段代码用多张显卡并行训练：",                DATA_PARALLEL,  []),
    ("用下面两行代码查看这台机器上有几块显卡：",          COUNT_CARDS,    []),
    ("在多卡服务器上，先确认能看到几张卡：",              COUNT_CARDS,    []),
    ("在GPU上训练之前，先用这段代码数一数有几张卡：", COUNT_CARDS,    []),
    ("这段代码在CPU上跑一个小例子：",                   TRAIN,          []),
]
# fmt: on


@pytest.mark.parametrize(("prose", "code", "expected"), PROMISE_CASES)
def test_prose_promises_the_code_must_keep(prose: str, code: str, expected: list[str],
                                           deprecated: tuple[Deprecated, ...]) -> None:
    findings = check_code(code, prose=prose, deprecated=deprecated)
    assert [f.kind for f in findings] == expected
    for f in findings:
        assert f.line == 1 and f.expected and f.source and f.source.startswith("https://pytorch.org")


def test_comment_promise_counts_like_prose(deprecated: tuple[Deprecated, ...]) -> None:
    code = "import torch\n# 在多张显卡上并行训练\nmodel = torch.nn.Linear(3, 3).cuda()\n"
    assert [f.kind for f in check_code(code, deprecated=deprecated)] == ["claim_not_in_code:multi_gpu"]


# ---------------------------------------------------------------- code_claims through check_text

def code_findings(claims: list[Claim]) -> list[Claim]:
    return [c for c in claims if c.attribute == "code"]


def line_at(text: str, pos: int) -> str:
    """The whole source line holding ``pos``, without its indentation."""
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return text[start:end if end >= 0 else len(text)].strip()


def assert_findings(text: str, claims: list[Claim], expected: list[tuple[str, str]]) -> None:
    """``expected``: (value, offending line) for each code finding, in order; each is a code_issue spanning exactly
    that line (text == source slice)."""
    found = code_findings(claims)
    assert [(c.value, c.text) for c in found] == expected, [(c.value, c.text) for c in claims]
    for c in found:
        assert c.verdict is Verdict.CODE_ISSUE
        assert c.text == text[c.start:c.end] == line_at(text, c.start)
        assert c.check is not None and c.check.explanation and c.check.source
        assert c.detail and c.detail.startswith("代码块")


TWO_BLOCKS = """两段代码拼成一个训练脚本

第一步，定义一个构造模型的函数：

import torch
from torch import nn

def build_model(width):
    return nn.Sequential(nn.Linear(width, width), nn.ReLU())

第二步，调用它并读取数据：

net = build_model(64)
for batch in loader:
    net(batch)

这样就完成了。
"""

MIXED_PRECISION = """混合精度训练的写法

先把模型放到显卡上：

import torch
net = torch.nn.Linear(32, 8).cuda()
opt = torch.optim.SGD(net.parameters(), lr=0.01)

然后创建梯度缩放器并训练一步：

scaler = torch.cuda.amp.GradScaler()
with torch.cuda.amp.autocast():
    loss = net(torch.randn(4, 32).cuda()).sum()
scaler.scale(loss).backward()
"""

BROKEN = """一个写错的例子

代码示例：

import torch
def step(model, batch:
    return model(batch)
"""

CPU_ONLY = """训练脚本

下面使用GPU训练一个线性模型：

import torch
model = torch.nn.Linear(10, 1)
x = torch.randn(32, 10)
loss = model(x).mean()
loss.backward()
"""

NO_DDP = """多卡训练

下面这段代码用多张显卡并行训练：

import torch
model = torch.nn.Linear(10, 1).cuda()
x = torch.randn(32, 10).cuda()
model(x).sum().backward()
"""

ON_GPU = """把模型放到显卡上

下面使用GPU训练一个线性模型：

import torch
model = torch.nn.Linear(10, 1).to("cuda")
x = torch.randn(32, 10, device="cuda")
loss = model(x).mean()
loss.backward()
"""

DDP = """多卡训练

下面这段代码用多张显卡并行训练：

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel
dist.init_process_group("nccl")
rank = dist.get_rank()
model = DistributedDataParallel(torch.nn.Linear(10, 1).to(rank), device_ids=[rank])
"""

COUNT = """查看GPU数量

用下面两行代码查看这台机器上有几块显卡：

import torch
print(torch.cuda.device_count())
"""

# fmt: off
ARTICLE_CASES = [
    # article          expected findings: (value, offending line)
    (TWO_BLOCKS,       [("undefined_name:loader", "for batch in loader:")]),
    (MIXED_PRECISION,  [("deprecated_api:torch.cuda.amp.GradScaler", "scaler = torch.cuda.amp.GradScaler()"),
                        ("deprecated_api:torch.cuda.amp.autocast", "with torch.cuda.amp.autocast():")]),
    (BROKEN,           [("syntax_error", "def step(model, batch:")]),
    (CPU_ONLY,         [("claim_not_in_code:on_gpu", "import torch")]),
    (NO_DDP,           [("claim_not_in_code:multi_gpu", "import torch")]),
    (ON_GPU,           []),
    (DDP,              []),
    (COUNT,            []),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), ARTICLE_CASES)
def test_code_claims_in_articles(text: str, expected: list[tuple[str, str]]) -> None:
    claims = check_text(text, doc_id="code.txt")
    assert_findings(text, claims, expected)
    assert not [c for c in claims if c.attribute != "code" and c.verdict is not None and c.verdict.is_flag]


def test_name_from_an_earlier_block_is_defined() -> None:
    found = code_findings(check_text(TWO_BLOCKS, doc_id="code.txt"))
    assert all("build_model" not in str(c.value) and str(c.value).split(":")[-1] != "nn" for c in found)
    [c] = found
    assert c.detail == "代码块2第2行"
    assert c.check is not None and "第2行" in c.check.explanation


def test_syntax_error_line_number_in_article() -> None:
    [c] = code_findings(check_text(BROKEN, doc_id="code.txt"))
    assert c.detail == "代码块1第2行"
    assert c.check is not None and "第2行" in c.check.explanation and "语法错误" in c.check.explanation


# fmt: off
COMMENT_CASES = [
    # comment line in the code                  claim text  verdict
    ("# 这台机器用的 H100 SXM5 显存只有 40GB",      "40GB",     Verdict.CONTRADICTED),
    ("# RTX 4090 有 24GB 显存",                   "24GB",     Verdict.SUPPORTED),
    ("# 注意：A100 的 CUDA 核心有 8192 个",          "8192",     Verdict.CONTRADICTED),
]
# fmt: on


@pytest.mark.parametrize(("comment", "fragment", "verdict"), COMMENT_CASES)
def test_hardware_claim_in_a_code_comment(comment: str, fragment: str, verdict: Verdict) -> None:
    text = f"显存估算\n\n代码示例：\n\nimport torch\n{comment}\nfree, total = torch.cuda.mem_get_info()\nprint(total)\n"
    claims = check_text(text, doc_id="comment.txt")
    hits = [c for c in claims if c.attribute != "code" and fragment in c.text]
    assert len(hits) == 1, [(c.text, c.attribute, c.verdict) for c in claims]
    c = hits[0]
    assert c.verdict is verdict, c.check
    assert c.text == text[c.start:c.end] and comment.find(c.text) >= 0
    assert not code_findings(claims)


# ---------------------------------------------------------------- Markdown fences

FENCE_GAP = ("Markdown CODE blocks include their fence lines (ingest tiles the text) and code_claims parses "
             "doc.text[block.start:block.end] as is, so every fenced block is a syntax error on '```python'")
OTHER_LANGUAGE_GAP = ("every CODE block is parsed as Python, whatever its fence language: a ```bash block gets a "
                      "syntax_error finding")
FENCED = """# 混合精度示例

先准备模型：

```python
import torch
net = torch.nn.Linear(8, 8).cuda()
```

再创建缩放器：

```python
scaler = torch.cuda.amp.GradScaler()
print(net)
```
"""
SHELL = """# 安装

先安装依赖：

```bash
pip install torch --index-url https://download.pytorch.org/whl/cu121
```
"""


def md_claims(text: str, ref: Reference) -> list[Claim]:
    claims, _ = analyse(document_from_text(text, "article.md", Format.MD), ref)
    return claims



def test_markdown_fenced_python_is_checked_without_its_fences(ref: Reference) -> None:
    assert_findings(FENCED, md_claims(FENCED, ref),
                    [("deprecated_api:torch.cuda.amp.GradScaler", "scaler = torch.cuda.amp.GradScaler()")])


def test_markdown_non_python_block_is_not_parsed_as_python(ref: Reference) -> None:
    assert code_findings(md_claims(SHELL, ref)) == []
