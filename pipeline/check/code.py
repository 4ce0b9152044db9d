"""Findings about the Python code an article shows: syntax, undefined names (pyflakes), deprecated APIs (a sourced
table in reference/deprecated_apis.csv), and prose promises the code does not keep (multi-GPU, running on a GPU).

Each finding is a claim with ``attribute="code"`` and ``verdict="code_issue"``, spanning the offending line.
"""

from __future__ import annotations

import ast
import csv
import re
import textwrap
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..knowledge.reference import Reference
from ..normalize import normalize
from ..records import BlockKind, Check, Claim, Document, Qualifier, Verdict

PYFLAKES_URL = "https://pypi.org/project/pyflakes/"
PYFLAKES_TITLE = "pyflakes: passive checker of Python programs"
PYTHON_SYNTAX_URL = "https://docs.python.org/3/reference/grammar.html"

_MULTI_GPU_PROSE = re.compile(r"多GPU|多卡|多显卡|多块显卡|多张显卡|多张卡|多个GPU|多块GPU|数据并行|模型并行|"
                              r"分布式训练")
_GPU_PROSE = re.compile(r"(使用|用|在)\s*(?:[A-Za-z]*\s*)?(?:[A-Z]{1,2}\d{2,4}|GPU|显卡)\s*(?:GPU|显卡)?\s*"
                        r"(进行|训练|上|加速)")
_MULTI_GPU_CODE = re.compile(r"DataParallel|DistributedDataParallel|device_count|MirroredStrategy|tf\.distribute|"
                             r"cuda\(\s*1\s*\)|cuda:1|accelerate|deepspeed", re.I)
_WRAPS_MODEL = re.compile(r"DataParallel|DistributedDataParallel")
# code that builds, trains or runs a model (a script that only lists the GPUs promises nothing about where it runs)
_RUNS_A_MODEL = re.compile(r"\bmodel\b|\.fit\(|\.backward\(|optimizer|nn\.Module|keras\.", re.I)
_ON_GPU_CODE = re.compile(r"\.cuda\(|\.to\(|device\s*=|tf\.device\(|['\"]cuda|/GPU:")


@dataclass(frozen=True)
class Deprecated:
    api: str
    replacement: str
    note_zh: str
    source_url: str
    source_title: str


@lru_cache(maxsize=4)
def deprecated_apis(reference_dir: Path) -> tuple[Deprecated, ...]:
    path = reference_dir / "deprecated_apis.csv"
    if not path.exists():
        return ()
    with open(path, encoding="utf-8", newline="") as f:
        return tuple(Deprecated(r["api"], r["replacement"], r["note_zh"], r["source_url"], r["source_title"])
                     for r in csv.DictReader(f))


@dataclass(frozen=True)
class Finding:
    line: int  # 1-based line inside the code block
    kind: str
    message: str
    expected: str | None = None
    source: str | None = None
    source_title: str | None = None


def _dotted(node: ast.AST) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def _aliases(tree: ast.AST) -> dict[str, str]:
    """import torch.nn.functional as F -> {'F': 'torch.nn.functional'}."""
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                out[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module:
            for a in node.names:
                out[a.asname or a.name] = f"{node.module}.{a.name}"
    return out


def _parse(code: str) -> ast.Module | None:
    try:
        return ast.parse(code)
    except SyntaxError:
        return None


def undefined_names(codes: list[str], trees: list[ast.Module | None] | None = None
                    ) -> dict[int, list[tuple[int, str]]]:
    """Per block index, (line in block, name) for each name pyflakes finds undefined.

    The blocks are checked as one program in article order (one pyflakes pass), so a name an earlier block defines
    counts as defined; blocks that do not parse are left out (they get a syntax finding instead). ``trees`` are
    the blocks already parsed (None where a block does not parse), when the caller has them.
    """
    from pyflakes import checker, messages

    parts: list[str] = []
    owners: list[tuple[int, int]] = []  # (first line of the block in the program, block index)
    line = 1
    for i, code in enumerate(codes):
        if (trees[i] if trees is not None else _parse(code)) is None:
            continue
        owners.append((line, i))
        body = code if code.endswith("\n") else code + "\n"
        parts.append(body)
        line += body.count("\n")
    out: dict[int, list[tuple[int, str]]] = {}
    if not parts:
        return out
    tree = ast.parse("".join(parts))
    firsts = [o[0] for o in owners]
    for msg in checker.Checker(tree, filename="<article>").messages:
        if isinstance(msg, messages.UndefinedName):
            k = bisect_right(firsts, msg.lineno) - 1
            first, block = owners[k]
            out.setdefault(block, []).append((msg.lineno - first + 1, str(msg.message_args[0])))
    return out


def check_code(code: str, *, prelude: str = "", prose: str = "", deprecated: tuple[Deprecated, ...] = (),
               undefined: list[tuple[int, str]] | None = None, imports: dict[str, str] | None = None,
               tree: ast.Module | None = None, own_imports: dict[str, str] | None = None) -> list[Finding]:
    """Findings for one code block (dedented), given the code before it and the prose that introduces it.

    ``undefined`` are the block's undefined names when the caller has already found them for the whole article
    (see ``undefined_names``); otherwise pyflakes runs on ``prelude`` + ``code``. ``tree`` is ``code`` parsed,
    and ``own_imports`` its ``_aliases``, when the caller has them.
    """
    findings: list[Finding] = []
    try:
        tree = tree or ast.parse(code)
    except SyntaxError as e:
        line = e.lineno or 1
        return [Finding(line, "syntax_error", f"代码第{line}行有语法错误（{e.msg}），读者复制后无法运行。", None,
                        PYTHON_SYNTAX_URL, "The Python Language Reference: Full Grammar specification")]
    if undefined is None:
        found = undefined_names([prelude, code]) if prelude.strip() else undefined_names([code])
        undefined = found.get(1 if prelude.strip() else 0, [])
    for line, missing in undefined:
        findings.append(Finding(line, f"undefined_name:{missing}",
                                f"代码第{line}行使用了未定义的名称 {missing}（前文代码中也没有定义或导入），"
                                "直接运行会报 NameError。",
                                None, PYFLAKES_URL, PYFLAKES_TITLE))
    if imports is None:
        imports = _aliases(ast.parse(prelude)) if prelude.strip() else {}
    own = own_imports if own_imports is not None else _aliases(tree) if "import" in code else {}
    aliases = {**imports, **own} if "import" in code else imports
    seen: set[tuple[int, str]] = set()
    # an API can only be used where its last name is written (or imported under another name)
    written = [d for d in deprecated if d.api.rsplit(".", 1)[-1] in code or "import" in code]
    for node in ast.walk(tree) if written else ():
        if not isinstance(node, (ast.Attribute, ast.Name)) or not isinstance(node.ctx, ast.Load):
            continue
        name = _dotted(node)
        if not name:
            continue
        head, _, rest = name.partition(".")
        full = f"{aliases.get(head, head)}.{rest}" if rest else aliases.get(head, head)
        for d in written:
            if (full == d.api or name == d.api) and (node.lineno, d.api) not in seen:
                seen.add((node.lineno, d.api))
                findings.append(Finding(node.lineno, f"deprecated_api:{d.api}",
                                        f"代码第{node.lineno}行：{d.note_zh}", d.replacement, d.source_url,
                                        d.source_title))
    findings += _promises(code, prose)
    return sorted(findings, key=lambda f: (f.line, f.kind))


def _promises(code: str, prose: str) -> list[Finding]:
    """What the text around the code says it does, against what it does."""
    comments = "\n".join(line.split("#", 1)[1] for line in code.splitlines() if "#" in line)
    said = normalize(prose + "\n" + comments)
    out: list[Finding] = []
    first = next((i for i, line in enumerate(code.splitlines(), 1) if line.strip()), 1)
    if _MULTI_GPU_PROSE.search(said) and not _MULTI_GPU_CODE.search(code):
        out.append(Finding(first, "claim_not_in_code:multi_gpu",
                           "文中说这段代码使用多GPU/多卡并行，但代码里没有 DataParallel、DistributedDataParallel "
                           "或把模型分到多张卡上的操作。", "nn.parallel.DistributedDataParallel 或 nn.DataParallel",
                           "https://pytorch.org/tutorials/intermediate/ddp_tutorial.html",
                           "Getting Started with Distributed Data Parallel (PyTorch Tutorials)"))
    trains = bool(_RUNS_A_MODEL.search(code))
    if trains and (_GPU_PROSE.search(said) or _WRAPS_MODEL.search(code)) and not _ON_GPU_CODE.search(code):
        out.append(Finding(first, "claim_not_in_code:on_gpu",
                           "文中说在GPU上训练，但代码从未把模型或数据放到GPU上（没有 .to(device) / .cuda()），"
                           "实际会在CPU上运行。", "model.to(\"cuda\") 以及把每个批次的数据 .to(\"cuda\")",
                           "https://pytorch.org/docs/stable/notes/cuda.html", "CUDA semantics (PyTorch documentation)"))
    return out


def code_claims(doc: Document, seg: object, ref: Reference) -> list[Claim]:
    """Findings for every code block of a document, as ``code_issue`` claims on the offending lines."""
    blocks = [b for b in doc.blocks if b.kind is BlockKind.CODE]
    if not blocks:
        return []
    deprecated = deprecated_apis(ref.directory)
    claims: list[Claim] = []
    imports: dict[str, str] = {}
    prev_end = 0
    codes = [_python_source(doc.text[b.start:b.end]) for b in blocks]
    trees = [_parse(code) for code in codes]
    undefined = undefined_names(codes, trees)
    for n, (block, code) in enumerate(zip(blocks, codes, strict=True)):
        if not code.strip():  # another language, or only fences
            prev_end = block.end
            continue
        prose = _preceding_prose(doc, prev_end, block.start)
        tree = trees[n]
        own = _aliases(tree) if tree is not None and "import" in code else {}  # no import statement without the word
        for f in check_code(code, prose=prose, deprecated=deprecated, undefined=undefined.get(n, []),
                            imports=imports, tree=tree, own_imports=own):
            start, end = _line_span(doc.text, block.start, f.line)
            claims.append(Claim(
                doc_id=doc.doc_id, start=start, end=end, text=doc.text[start:end], sentence=doc.text[start:end],
                sentence_index=len(getattr(seg, "sentences", ())) + n, subject=None, subject_mention=None,
                attribute="code", value=f.kind,
                unit=None, qualifier=Qualifier.EXACT, multiplier=1, detail=f"代码块{n + 1}第{f.line}行",
                check=Check(Verdict.CODE_ISSUE, f.message, f.expected, f.source, f.source_title),
                extra={"offset_in_sentence": 0},
            ))
        imports.update(own)
        prev_end = block.end
    return claims


_FENCE = re.compile(r"^\s*(```+|~~~+)\s*([\w+#.-]*)")
_PYTHON_LANGS = frozenset({"", "python", "py", "python3", "py3", "ipython", "pycon", "pytorch"})


def _python_source(raw: str) -> str:
    """A code block's Python source: Markdown fences removed (their lines kept blank, so line numbers stay),
    blocks in another language emptied; shell sessions are not Python either."""
    lines = raw.replace("\r\n", "\n").split("\n")
    fence = _FENCE.match(lines[0]) if lines else None
    if fence:
        if fence.group(2).lower() not in _PYTHON_LANGS:
            return ""
        lines[0] = ""
        for i in range(len(lines) - 1, 0, -1):  # the closing fence, possibly followed by blank lines
            if _FENCE.match(lines[i]):
                lines[i] = ""
                break
            if lines[i].strip():
                break
    body = [ln for ln in lines if ln.strip()]
    if body and all(re.match(r"\s*(\$|pip |conda |apt|sudo |nvidia-smi|cd |export |python -m |git )", ln)
                    for ln in body if not ln.lstrip().startswith("#")):
        return ""
    return textwrap.dedent("\n".join(lines))


def _preceding_prose(doc: Document, since: int, until: int) -> str:
    """The prose that introduces a code block: from the nearest heading (or the previous block) up to it."""
    heading = max((b.start for b in doc.blocks if b.kind is BlockKind.HEADING and b.start < until), default=0)
    since = max(since, heading)
    parts = [doc.text[b.start:b.end] for b in doc.blocks
             if b.kind in (BlockKind.PROSE, BlockKind.HEADING) and since <= b.start < until]
    return "\n".join(parts)[-400:]


def _line_span(text: str, block_start: int, line: int) -> tuple[int, int]:
    pos = block_start
    for _ in range(line - 1):
        nl = text.find("\n", pos)
        if nl < 0:
            break
        pos = nl + 1
    end = text.find("\n", pos)
    end = len(text) if end < 0 else end
    if end > pos and text[end - 1] == "\r":
        end -= 1
    while pos < end and text[pos] in " \t":
        pos += 1
    return pos, max(end, pos)
