"""The benchmark's corpus: articles generated with the statistics of real ones, and those statistics.

``corpus_stats`` measures a folder of articles the way the pipeline sees them (characters, Han characters,
numbers, code share, tables, claims and flags per document, formats, Traditional script). ``Profile.of`` turns the
figures of real folders (``../shared/dev``, ``../shared/dev_real``) into the generator's targets, and
``build_corpus`` writes articles that meet them: every sentence is a template of this file (never text of those
sets), filled with products and values from ``reference/specs.csv``, a value made wrong now and then so that a
document carries as many flags as a real one does.
"""

from __future__ import annotations

import csv
import random
import re
import statistics
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
_HAN = re.compile(r"[\u3400-\u9fff]")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
FLAGS = frozenset({"contradicted", "misattributed", "code_issue"})


# ---------------------------------------------------------------- statistics of a folder

def corpus_stats(folder: Path, claims: Iterable[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Per-document means (and shares by characters) of the articles under ``folder``.

    ``claims`` are the folder's claims.jsonl records; without them the claims are extracted here (in process)."""
    from pipeline.config import Config
    from pipeline.ingest import read_document, walk
    from pipeline.records import BlockKind
    from pipeline.report.display import is_traditional
    from pipeline.segment import ANALYSED_BLOCKS

    paths = walk(Path(folder)).articles
    if claims is None:
        from pipeline.api import analyse
        from pipeline.knowledge.reference import load_reference

        ref = load_reference(Config().reference_dir)
        found: list[dict[str, Any]] = []
        for p in paths:
            doc = read_document(p, Path(folder))
            found += [c.to_dict() for c in analyse(doc, ref)[0]]
        claims = found
    by_doc: dict[str, list[dict[str, Any]]] = {}
    for c in claims:
        by_doc.setdefault(c["doc_id"], []).append(c)
    rows = []
    for p in paths:
        doc = read_document(p, Path(folder))
        spans = Counter()
        for b in doc.blocks:
            kind = "code" if b.kind is BlockKind.CODE else "prose" if b.kind in ANALYSED_BLOCKS else "other"
            spans[kind] += b.end - b.start
        mine = by_doc.get(doc.doc_id, [])
        rows.append({"chars": len(doc.text), "han": len(_HAN.findall(doc.text)),
                     "numbers": len(_NUMBER.findall(doc.text)), "code": spans["code"], "prose": spans["prose"],
                     "tables": len(doc.tables), "claims": len(mine), "flags": sum(c["verdict"] in FLAGS for c in mine),
                     "format": doc.format.value, "traditional": is_traditional([doc.text])})
    n = len(rows) or 1
    chars = sum(r["chars"] for r in rows) or 1
    return {
        "documents": len(rows),
        "chars_per_doc": round(sum(r["chars"] for r in rows) / n),
        "chars_median": round(statistics.median(r["chars"] for r in rows)) if rows else 0,
        "han_per_doc": round(sum(r["han"] for r in rows) / n),
        "numbers_per_doc": round(sum(r["numbers"] for r in rows) / n, 1),
        "code_share": round(sum(r["code"] for r in rows) / chars, 3),
        "prose_share": round(sum(r["prose"] for r in rows) / chars, 3),
        "docs_with_code": round(sum(r["code"] > 0 for r in rows) / n, 2),
        "tables_per_doc": round(sum(r["tables"] for r in rows) / n, 2),
        "claims_per_doc": round(sum(r["claims"] for r in rows) / n, 1),
        "flags_per_doc": round(sum(r["flags"] for r in rows) / n, 2),
        "traditional_share": round(sum(r["traditional"] for r in rows) / n, 2),
        "formats": dict(sorted(Counter(r["format"] for r in rows).items())),
        "lengths": sorted(r["chars"] for r in rows),
    }


def pooled(stats: list[dict[str, Any]]) -> dict[str, Any]:
    """The statistics of several folders taken as one (means weighted by their documents)."""
    docs = sum(s["documents"] for s in stats) or 1
    out: dict[str, Any] = {"documents": docs}
    for key in ("chars_per_doc", "han_per_doc", "numbers_per_doc", "docs_with_code", "tables_per_doc",
                "claims_per_doc", "flags_per_doc", "traditional_share"):
        out[key] = round(sum(s[key] * s["documents"] for s in stats) / docs, 2)
    chars = sum(s["chars_per_doc"] * s["documents"] for s in stats) or 1
    for key in ("code_share", "prose_share"):
        out[key] = round(sum(s[key] * s["chars_per_doc"] * s["documents"] for s in stats) / chars, 3)
    formats: Counter[str] = Counter()
    for s in stats:
        formats.update(s["formats"])
    out["formats"] = dict(sorted(formats.items()))
    out["lengths"] = sorted(x for s in stats for x in s["lengths"])
    return out


# ---------------------------------------------------------------- what the generator aims at

@dataclass(frozen=True)
class Profile:
    """The generator's targets. The defaults are the pooled figures of ../shared/dev and ../shared/dev_real
    (20 articles) measured on 2026-12-01; ``Profile.of`` takes them from folders instead."""

    lengths: tuple[int, ...] = (386, 739, 903, 921, 1240, 1303, 1361, 1385, 1416, 1450, 1463, 1776, 1824, 2357,
                                2917, 3660, 4637, 6361, 7664, 10428)
    code_share: float = 0.05
    docs_with_code: float = 0.2
    tables_per_doc: float = 0.35
    claims_per_doc: float = 27.2
    flags_per_doc: float = 2.35
    traditional_share: float = 0.1
    formats: dict[str, int] = field(default_factory=lambda: {"html": 1, "md": 11, "txt": 8})

    @classmethod
    def of(cls, stats: dict[str, Any]) -> Profile:
        return cls(tuple(stats["lengths"]), stats["code_share"], stats["docs_with_code"], stats["tables_per_doc"],
                   stats["claims_per_doc"], stats["flags_per_doc"], stats["traditional_share"],
                   dict(stats["formats"]))

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


# ---------------------------------------------------------------- the sentences (written for the benchmark)

# fmt: off
CLAIMS: dict[str, tuple[str, ...]] = {
    "memory_size": ("{p}配备{v}GB显存", "{p}的显存容量为{v}GB", "这张{p}搭载了{v}GB显存", "{p}板载{v}GB的显存"),
    "memory_type": ("{p}使用{v}显存", "{p}的显存类型是{v}", "{p}搭配的是{v}显存颗粒"),
    "memory_bandwidth": ("{p}的显存带宽达到{v}GB/s", "{p}的显存带宽约为{v}GB/s", "{p}提供{v}GB/s的显存带宽"),
    "cuda_cores": ("{p}拥有{v}个CUDA核心", "{p}集成了{v}个CUDA核心", "{p}一共有{v}个CUDA核心"),
    "tensor_cores": ("{p}有{v}个Tensor Core", "{p}内置{v}个Tensor Core"),
    "tdp": ("{p}的功耗为{v}W", "{p}的TDP是{v}W", "{p}整卡功耗{v}瓦", "{p}的典型功耗在{v}W左右"),
    "architecture": ("{p}基于{v}架构", "{p}采用{v}架构设计", "{p}属于{v}架构的产品"),
    "memory_bus_width": ("{p}的显存位宽为{v}bit", "{p}采用{v}bit显存位宽"),
    "fp16": ("{p}的FP16算力为{v} TFLOPS", "{p}的半精度性能约{v} TFLOPS"),
    "fp32": ("{p}的FP32算力达到{v} TFLOPS", "{p}单精度浮点性能为{v} TFLOPS"),
    "launch_year": ("{p}于{v}年发布", "{p}是{v}年推出的"),
}
OPENERS = ("", "", "", "根据官方资料，", "从规格上看，", "值得一提的是，", "实际测试中，", "简单来说，", "另外，",
           "同时，")
FILLERS = (
    "在深度学习训练中，显存容量往往决定了能放下多大的批次",
    "很多团队在选型时会先看预算，再看软件生态是否成熟",
    "推理业务更关心延迟和每瓦性能，而不是峰值算力",
    "如果模型参数超过{n}亿，单卡通常放不下，需要做张量并行",
    "我们在实验室里用{n}张卡搭了一个小集群，跑了一周的对比测试",
    "数据加载和预处理经常成为瓶颈，显卡再快也要等输入",
    "混合精度训练可以明显缩短训练时间，同时几乎不影响收敛",
    "散热设计同样重要，机箱风道不好会导致降频",
    "对于中小企业来说，云上按小时租用可能比自购更划算",
    "驱动版本和框架版本需要匹配，否则容易出现兼容问题",
    "在批大小为{n}时，吞吐量比默认设置提升了大约{m}%",
    "这类任务对显存带宽比较敏感，内存访问模式决定了实际速度",
    "互联带宽影响多卡扩展效率，卡越多越明显",
    "从{y}年开始，越来越多的数据中心把加速卡作为标准配置",
    "编译器和算子库的优化有时比换硬件带来的提升还大",
    "工程师通常会先用小规模数据验证流程，再扩大到完整数据集",
    "训练一个中等规模的语言模型大约需要{n}天",
    "功耗和机柜供电是部署时必须提前规划的问题",
    "新一代产品在稀疏计算和低精度格式上做了不少改进",
    "对比不同平台时，要注意测试条件是否一致",
    "如果只是做图像分类的推理，入门级的卡已经够用",
    "显存不足时可以尝试梯度检查点或者减小批次",
    "性能分析工具能帮助定位内核里的热点",
    "这次测试使用的系统内存为{n}GB，存储是NVMe固态硬盘",
    "整机价格大约在{n}万元左右，具体取决于配置",
    "社区里关于这个话题的讨论很多，观点也不尽相同",
    "多租户场景下，资源隔离和调度策略同样值得关注",
    "在视频转码和渲染业务中，编码单元的数量也很关键",
    "有读者问到能否在笔记本上完成同样的实验，答案是可以，但会慢很多",
    "本文的测试脚本和数据都放在附录里，欢迎复现",
    "最后，硬件只是一方面，算法和数据质量同样重要",
    "第{n}轮迭代之后，损失曲线基本趋于平稳",
    "我们把学习率设置为{f}，并使用余弦退火策略",
    "这一代的制程工艺进步明显，能效比提升了约{m}%",
    "对于需要长时间运行的任务，稳定性比峰值性能更重要",
)
ENGLISH = (
    "The numbers below were measured with PyTorch {v} and CUDA 12.{m}, batch size {n}",
    "Note: throughput is reported in samples per second, averaged over {n} iterations",
    "See the appendix for the full configuration and the raw logs",
    "Mixed precision (AMP) was enabled for every run unless stated otherwise",
    "Results may differ with other drivers, kernels or cooling",
    "TL;DR: pick the card that fits your model in memory first, then compare speed",
    "All tests ran on Ubuntu 22.04 with driver {d} and NCCL {v}",
    "Latency was measured end to end, including data transfer to the device",
    "Update {y}: a reader pointed out a typo in the second table, fixed now",
    "The model is a ResNet-{r} trained on ImageNet with SGD and momentum 0.9",
)
BULLETS = ("**{h}**：{s}", "{s}", "`{c}`：{s}")
CODE_WORDS = ("torch.cuda", "nvidia-smi", "AMP", "NCCL", "cuDNN", "TensorRT")
HEADINGS = ("规格概览", "显存与带宽", "计算能力", "功耗与散热", "选型建议", "测试方法", "实际表现", "总结", "部署经验",
            "软件生态", "常见问题", "价格与成本")
TOPICS = ("评测", "深度解析", "选购指南", "上手体验", "性能对比", "参数一览", "训练实战", "推理部署笔记")
SNIPPETS = (
    """import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
data = TensorDataset(torch.randn(4096, 1024), torch.randint(0, 10, (4096,)))
loader = DataLoader(data, batch_size=256, shuffle=True)
model = nn.Sequential(nn.Linear(1024, 512), nn.ReLU(), nn.Linear(512, 10)).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(10):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: {loss.item():.4f}")""",
    """import torch

for i in range(torch.cuda.device_count()):
    props = torch.cuda.get_device_properties(i)
    print(i, props.name, props.total_memory // 2**30, "GiB")
    print("SMs:", props.multi_processor_count)""",
    """import time
import torch

x = torch.randn(8192, 8192, device="cuda", dtype=torch.float16)
torch.cuda.synchronize()
start = time.perf_counter()
for _ in range(20):
    y = x @ x
torch.cuda.synchronize()
seconds = (time.perf_counter() - start) / 20
print(f"{2 * 8192 ** 3 / seconds / 1e12:.1f} TFLOPS")""",
)
MISTAKES = ("print(accuracy)", "model.train(epochs)", "print(throughput / seconds)")
WRONG_TYPES = ("GDDR5", "GDDR6", "GDDR6X", "HBM2", "HBM2e", "HBM3")
# fmt: on


@dataclass(frozen=True)
class _Card:
    alias: str
    specs: dict[str, str]


def _cards(reference: Path) -> list[_Card]:
    """Products with a short alias and base figures for the attributes the templates say."""
    aliases: dict[str, str] = {}
    with open(reference / "products.csv", encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            names = [a for a in row["aliases"].split("|") if re.search(r"\d", a) and len(a) <= 12]
            if names:
                aliases[row["product_id"]] = names[0]
    specs: dict[str, dict[str, list[str]]] = {}
    with open(reference / "specs.csv", encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            if row["variant"] == "base" and not row["scope"] and row["attribute"] in CLAIMS:
                specs.setdefault(row["product_id"], {}).setdefault(row["attribute"], []).append(row["value"])
    cards = []
    for pid, alias in sorted(aliases.items()):
        single = {a: v[0] for a, v in specs.get(pid, {}).items() if len(set(v)) == 1}
        if len(single) >= 3:
            cards.append(_Card(alias, single))
    return cards


def _number(value: str) -> float | None:
    try:
        return float(value)
    except ValueError:
        return None


def _shown(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _wrong(attribute: str, value: str, rng: random.Random, archs: list[str]) -> str:
    if attribute == "memory_type":
        return rng.choice([t for t in WRONG_TYPES if t != value])
    if attribute == "architecture":
        return rng.choice([a for a in archs if a != value])
    x = _number(value) or 1.0
    if attribute == "launch_year":
        return _shown(x + rng.choice((-2, -1, 1, 2)))
    return _shown(round(x * rng.choice((0.5, 0.75, 1.5, 2.0))))


class _Writer:
    def __init__(self, profile: Profile, rng: random.Random, reference: Path) -> None:
        self.p, self.rng = profile, rng
        self.cards = _cards(reference)
        self.archs = sorted({c.specs["architecture"] for c in self.cards if "architecture" in c.specs})
        # a claim sentence (about 1.1 claims, a few not extracted) for so many characters of prose
        mean_len = sum(profile.lengths) / len(profile.lengths)
        self.claim_share = min(0.9, profile.claims_per_doc / max(1.0, mean_len / 36))
        self.wrong = 0.6 * profile.flags_per_doc / max(1.0, profile.claims_per_doc)
        self.unknown = 0.1  # claims the reference cannot check (real notes: 11 % unverifiable)
        self.mistakes = 0.5  # code blocks with a mistake (real: 3 code findings in 4 articles with code)
        self.english = 0.3  # share of filler sentences in English: real notes mix in English and markup
        self.lists = 0.3  # share of Markdown paragraphs written as bullet lists
        txt = profile.formats.get("txt", 0) / max(1, sum(profile.formats.values()))
        self.table_share = min(1.0, profile.tables_per_doc / max(0.05, 1 - txt))  # only md and html have tables

    def claim(self, cards: list[_Card]) -> str:
        card = self.rng.choice(cards)
        if self.rng.random() < self.unknown:  # a figure the reference does not keep for this card
            missing = sorted(a for a in CLAIMS if a not in card.specs and a not in _WORDS)
            if missing:
                attribute = self.rng.choice(missing)
                return self.rng.choice(CLAIMS[attribute]).format(p=card.alias, v=self.rng.choice((18, 35, 82, 121)))
        attribute = self.rng.choice(sorted(card.specs))
        value = card.specs[attribute]
        if self.rng.random() < self.wrong:
            value = _wrong(attribute, value, self.rng, self.archs)
        elif attribute in ("memory_bandwidth", "tdp") and (x := _number(value)) is not None:
            value = _shown(x)
        return self.rng.choice(CLAIMS[attribute]).format(p=card.alias, v=value)

    def filler(self) -> str:
        rng = self.rng
        if rng.random() < self.english:
            return rng.choice(ENGLISH).format(v=rng.choice(("2.1", "2.3", "1.13")), m=rng.randint(0, 4),
                                              n=rng.choice((32, 64, 128, 256)), d=rng.choice(("535.104", "550.54")),
                                              y=rng.randint(2019, 2025), r=rng.choice((18, 50, 101)))
        return rng.choice(FILLERS).format(n=rng.choice((2, 4, 8, 16, 32, 64, 70, 128, 256, 512)),
                                          m=rng.randint(5, 60), y=rng.randint(2012, 2024),
                                          f=rng.choice(("1e-4", "3e-4", "0.001")))

    def sentence(self, cards: list[_Card]) -> str:
        if self.rng.random() < self.claim_share:
            return self.rng.choice(OPENERS) + self.claim(cards) + self.rng.choice(("。", "。", "。", "！", "；"))
        text = self.filler()
        if text[:1].isascii():
            return text + ". "
        return self.rng.choice(OPENERS) + text + self.rng.choice(("。", "。", "。", "！", "；"))

    def paragraph(self, cards: list[_Card], fmt: str) -> str:
        rng = self.rng
        n = rng.randint(2, 5)
        if fmt == "md" and rng.random() < self.lists:
            items = [rng.choice(BULLETS).format(h=rng.choice(HEADINGS), s=self.sentence(cards).strip(),
                                                c=rng.choice(CODE_WORDS)) for _ in range(n)]
            return "\n".join(f"- {item}" for item in items)
        return "".join(self.sentence(cards) for _ in range(n)).strip()

    def code(self, size: int) -> str:
        """Whole snippets up to about ``size`` characters; about half the blocks with a mistake in them."""
        rng = self.rng
        blocks = [rng.choice(SNIPPETS)]
        while sum(map(len, blocks)) < size * 0.6:
            blocks.append(rng.choice(SNIPPETS))
        code = "\n\n".join(blocks)
        return code + "\n" + rng.choice(MISTAKES) if rng.random() < self.mistakes else code

    def table(self, cards: list[_Card]) -> list[list[str]]:
        columns = [a for a in ("memory_size", "memory_type", "memory_bandwidth", "tdp")
                   if all(a in c.specs for c in cards)]
        rows = [["型号", *(_HEADER[a] for a in columns)]]
        for card in cards:
            cells = [card.alias]
            for a in columns:
                v = card.specs[a]
                if self.rng.random() < self.wrong:
                    v = _wrong(a, v, self.rng, self.archs)
                cells.append(f"{_shown(x)}{_UNIT[a]}" if (x := _number(v)) is not None else v)
            rows.append(cells)
        return rows

    def article(self, i: int) -> tuple[str, str]:
        """(file name, text) of article ``i``."""
        p, rng = self.p, self.rng
        fmt = rng.choices(sorted(p.formats), weights=[p.formats[k] for k in sorted(p.formats)])[0]
        target = int(rng.choice(p.lengths) * rng.uniform(0.75, 1.1))
        cards = rng.sample(self.cards, k=min(len(self.cards), rng.randint(2, 5)))
        code_size = 0
        if rng.random() < p.docs_with_code:
            code_size = int(target * p.code_share / max(p.docs_with_code, 0.01))
        table = self.table(cards) if fmt != "txt" and rng.random() < self.table_share else None
        title = f"{cards[0].alias}{rng.choice(TOPICS)}（第{i}期）"
        sections: list[tuple[str, list[str]]] = []
        size = len(title) + code_size + (sum(len("".join(r)) + 3 * len(r) for r in table) if table else 0)
        while size < target:
            paragraphs: list[str] = []
            for _ in range(rng.randint(1, 3)):
                text = self.paragraph(cards, fmt)
                paragraphs.append(text)
                size += len(text) + 2
                if size >= target:
                    break
            sections.append((rng.choice(HEADINGS), paragraphs))
        code = self.code(code_size) if code_size else None
        traditional = rng.random() < p.traditional_share
        text = _render(fmt, title, sections, code, table)
        if traditional:
            text = _to_traditional(text, code)
        suffix = {"txt": ".txt", "md": ".md", "html": ".html"}[fmt]
        return f"a{i:06d}{suffix}", text


_WORDS = frozenset({"memory_type", "architecture"})  # their values are names, not numbers
_HEADER = {"memory_size": "显存容量", "memory_type": "显存类型", "memory_bandwidth": "显存带宽", "tdp": "功耗"}
_UNIT = {"memory_size": "GB", "memory_type": "", "memory_bandwidth": " GB/s", "tdp": "W"}


def _render(fmt: str, title: str, sections: list[tuple[str, list[str]]], code: str | None,
            table: list[list[str]] | None) -> str:
    half = max(1, len(sections) // 2)
    if fmt == "html":
        body = [f"<h1>{title}</h1>"]
        for n, (heading, paragraphs) in enumerate(sections):
            body.append(f"<h2>{heading}</h2>")
            body += [f"<p>{p}</p>" for p in paragraphs]
            if n + 1 == half and table:
                rows = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in table)
                body.append(f"<table>{rows}</table>")
            if n + 1 == half and code:
                body.append(f"<pre><code>{code}</code></pre>")
        return ("<html><head><title>" + title + "</title></head><body><nav>首页 | 评测 | 资讯</nav><article>"
                + "\n".join(body) + "</article><footer>版权所有</footer></body></html>\n")
    out = [f"# {title}" if fmt == "md" else title, ""]
    for n, (heading, paragraphs) in enumerate(sections):
        out += [f"## {heading}" if fmt == "md" else heading, ""]
        for p in paragraphs:
            out += [p, ""]
        if n + 1 == half and table and fmt == "md":
            out += ["| " + " | ".join(table[0]) + " |", "|" + "---|" * len(table[0])]
            out += ["| " + " | ".join(r) + " |" for r in table[1:]]
            out.append("")
        if n + 1 == half and code:
            out += ["```python", code, "```", ""] if fmt == "md" else ["代码示例：", "", code, ""]
    return "\n".join(out)


def _to_traditional(text: str, code: str | None) -> str:
    import opencc

    converted = opencc.OpenCC("s2tw").convert(text)
    if code:  # code stays as it was written
        converted = converted.replace(opencc.OpenCC("s2tw").convert(code), code)
    return str(converted)


def build_corpus(n: int, out: Path, seed: int = 7, profile: Profile | None = None,
                 reference: Path = ROOT / "reference") -> int:
    """Write ``n`` articles into ``out``; returns the total number of characters."""
    writer = _Writer(profile or Profile(), random.Random(seed), reference)
    out.mkdir(parents=True, exist_ok=True)
    total = 0
    for i in range(n):
        name, text = writer.article(i)
        (out / name).write_text(text, encoding="utf-8")
        total += len(text)
    return total


def real_stats(folders: Iterable[Path]) -> dict[str, dict[str, Any]]:
    """The statistics of each real folder that exists (claims extracted in this process)."""
    return {str(f): corpus_stats(f) for f in folders if Path(f).is_dir()}
