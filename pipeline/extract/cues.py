"""Linguistic cues: which attribute a number speaks about, and words that make a number not a spec claim.

All patterns run on normalised (width-folded, simplified) text, where Chinese full-width punctuation has become
ASCII (，-> ,  ： -> :  （ -> ( ).
"""

from __future__ import annotations

import re

from .quantities import Quantity

CLAUSE_BREAK = re.compile(r"[,;。!?，；！？\n]")

# attribute cues for a count ("5120个CUDA核心", "CUDA核心: 3584个", "Tensor Core则为432个")
COUNT_CUES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("tensor_cores", re.compile(r"Tensor\s*Core[s]?|Tensor\s*核心|张量核心", re.I)),
    ("cuda_cores", re.compile(r"CUDA\s*核心|CUDA\s*Core[s]?|CUDA\s*cores", re.I)),
    ("stream_processors", re.compile(r"串?流处理器|Stream\s*Processors?", re.I)),
    ("mig_instances", re.compile(r"(?:GPU\s*)?实例")),
    ("cores", re.compile(r"核心|核芯")),
)
# bandwidth cues, by priority: the first kind found in the clause decides
RATE_CUES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("effective_bandwidth", re.compile(r"有效带宽|等效带宽|有效")),
    ("interconnect_bandwidth", re.compile(r"NVLink|NVSwitch|互联|互连|卡间|Infinity\s*Fabric", re.I)),
    ("link_bandwidth", re.compile(r"PCI-?e|PCI-E|单向|双向|主机接口", re.I)),
    ("memory_bandwidth", re.compile(r"带宽|频宽|显存|内存|记忆体|HBM|GDDR", re.I)),
)
# peak throughput: the precision it is quoted for, and whether the figure is the structured-sparsity one
PRECISION_CUES: tuple[tuple[str | None, re.Pattern[str]], ...] = (
    ("fp64", re.compile(r"FP64|双精度|雙精度", re.I)),
    ("tf32", re.compile(r"TF32", re.I)),
    ("fp32", re.compile(r"(?<![T])FP32|单精度|單精度", re.I)),
    ("bf16", re.compile(r"BF16|bfloat16", re.I)),
    ("fp16", re.compile(r"FP16|半精度", re.I)),
    ("fp8", re.compile(r"FP8", re.I)),
    ("int8", re.compile(r"INT8", re.I)),
    (None, re.compile(r"INT4|FP4|FP6|混合精度|AI算力|稀疏矩阵", re.I)),  # no reference figure to check against
)
SPARSE = re.compile(r"稀疏|sparsity|sparse", re.I)
PIN_RATE = re.compile(r"速率|频率|针脚|引脚|颗粒|per\s*pin|每\s*pin", re.I)
MEMORY_CUE = re.compile(r"显存|内存|记忆体|容量|HBM|GDDR|VRAM|版本|规格", re.I)
CACHE_CUE = re.compile(r"(L2|L3|二级|三级)?\s*(?<!KV)(?<!KV\s)(缓存|快取|Cache)", re.I)  # not a model's KV cache
POWER_CUE = re.compile(r"功耗|TDP|TGP|TBP|功率|耗电|板卡功耗", re.I)
NOT_CARD_POWER = re.compile(r"^\s*(?:的)?\s*(?:电源|供电|PSU|电源供应|额定)")
YEAR_CUE = re.compile(r"发布|推出|上市|问世|发表|亮相|面世|年(?:推出|发布)?的(?:产品|新品|旗舰)")
BUS_CUE = re.compile(r"位宽|总线|汇流排|介面|接口宽度|bus", re.I)
# a value the sentence needs, compares or computes, rather than states as a card's spec
NOT_A_SPEC_LEFT = re.compile(r"(需要|需|准备|预留|要有|得有|占用|占据|放下|装下|塞进|相当于|多出|多了|少了|相差|差距|"
                             r"高出|增加了|减少|节省|"
                             r"每份|每个实例|等于|换算|参数量|模型|权重|批大小|batch|每颗|单颗|各自|一半|其中|魔改|改装|"
                             r"(?:每个|单个)\s*(?:GCD|芯片|die|核心芯片)|比[^,;。]{1,15}?(?:低|高|少|多|大|小)了?)"
                             r"[^,;。]{0,8}$", re.I)
# what is measured or belongs to the host, the network or storage, not to the card's spec
MEASURED = re.compile(r"实测|测得|实际(?!上)|只能跑到|跑出|跑到了?")
NOT_THE_CARDS_RATE = re.compile(r"网络|公网|内网|存储|硬盘|SSD|NVMe|读取|写入|节点间|网卡|InfiniBand|以太网|RDMA|RoCE|"
                                r"上传|下载|Gbps", re.I)
HOST_MEMORY = re.compile(r"主机|服务器|系统内存|DDR\d|CPU|offload|卸载|内存条|\bRAM\b|节点|工作站", re.I)
DENSE = re.compile(r"稠密|dense|非稀疏", re.I)
BASE_CLOCK = re.compile(r"基础频率|基础时钟|基准频率|基频|base\s*clock", re.I)  # the reference lists boost peaks
BOOST_CLOCK = re.compile(r"Boost|加速频率|睿频|提升频率", re.I)
# a class of cards, not one card: "主流推理卡的功耗一般不超过…", "旗舰卡的带宽十年间从…增长到…"
CLASS_OF_CARDS = re.compile(r"(?:旗舰|入门|主流|高端|中端|低端|消费级|数据中心|推理|训练|专业|这类|此类|同级|多数|"
                            r"大多数)(?:级)?(?:显卡|卡|GPU|加速卡|产品)|行业|业界")
# a clause about running a model of some size ("8G显存跑7B勉强够用") states a need, not a card's figure
RUNS_A_MODEL = re.compile(r"(?:跑|运行|推理|训练|加载|部署|微调)[^,;。]{0,6}?\d+(?:\.\d+)?\s*[BbMm](?![A-Za-z])")
# power that is not the card's rated figure: the whole machine, a PSU, a raised power limit, a factory-overclocked card
NOT_RATED_POWER = re.compile(r"(?:整机|系统|平台|服务器|主机|DGX|HGX|功耗墙|功率墙|非公版|超频|"
                             r"待机|空载|闲置|idle|推理时|训练时|运行时|满载时|游戏时|平均|"
                             r"电源|PSU)[^,;。]{0,14}$", re.I)
NEGATION = re.compile(r"不是|并非|并不是|而非|没有|不再|不支持|不具备|无关|取代|替代|不同于|区别于|而不是")
PER_CARD = re.compile(r"每张|单卡|每卡|单张|每块|每颗|单颗|每个GPU|每片")
AGGREGATE = re.compile(r"合计|总计|共计|加起来|总数|总量|总显存|总功耗|总和|一共|整机|总带宽|总共")
COMPARE_AFTER = re.compile(r"^\s*(?:的)?[^,;。]{0,6}(?:相同|一样|相比|相当|持平|不同|类似|那样|之后|以来|同为|同样|"
                           r"[\d.两二三四五六七八九十]+倍)")
COMPARE_BEFORE = re.compile(r"(?:比|较|相比|对比|从|继|相较于|相对于|不如)\s*$")
COORD_BEFORE = re.compile(r"(?:和|与|跟|同|及)\s*$")
MULTIPLIER_BEFORE = re.compile(
    r"(?:(?P<dual>双(?:卡|路|显卡)?)|(?P<n>\d+|[一二两三四五六七八九十]+)\s*(?:张|块|卡|路|片|颗)|(?P<x>\d+)\s*[×xX*]\s*)"
    r"\s*(?:的)?\s*$")
MULTIPLIER_AFTER = re.compile(r"^\s*(?:[×xX*]\s*(?P<n>\d+)|(?P<dual>双卡|双路))")
BARE_MULTIPLIER = re.compile(r"(?:(?P<n>\d+|[两二三四五六七八九十]+)\s*(?:张|块)\s*(?:卡|GPU|显卡)?|"
                             r"(?P<m>\d+|[两二三四五六七八九十]+)\s*卡)")
EXPRESSION = re.compile(r"(?P<n>\d+)\s*[×xX*]\s*(?P<per>[\d.]+\s*[A-Za-z/]+)\s*=\s*")
PRONOUN = re.compile(r"前者|后者|两者|二者|两张卡|这两张卡|两款|这两款|两张卡都|它|其")
TENSOR_PRESENCE = re.compile(
    r"(?P<neg>没有|不支持|不具备|无|缺少)?\s*(?:支持|具备|配备|拥有|加入|集成|带有|搭载|有|配有|内置)?"
    r"\s*(?:第[一二三四五六七八九\d]代)?\s*(?P<tc>Tensor\s*Core|Tensor核心|张量核心)(?!\s*[的]?\s*(?:数|数量|为|:|\d))",
    re.I)
# "英特尔推出的至强处理器", "超微电脑推出的GPU服务器": the vendor made the thing named after 的, not the card
MADE_SOMETHING_ELSE = re.compile(r"\s*的\s*[^,;。]{0,8}?(?:服务器|处理器|CPU|主板|整机|工作站|交换机|网卡|DPU|"
                                 r"至强|Xeon|EPYC|霄龙|平台|机柜|一体机)", re.I)
RELATION_VERBS = re.compile(r"^[^,;。]{0,10}?(联合开发|开发|设计|研发|推出|发布|生产|制造|打造|出品)")
AS_GPU = re.compile(r"^\s*(?:GPU|芯片|核心|晶片|图形处理器)")
USES = re.compile(r"(采用|搭载|基于|配备|内置|集成)[了的]?\s*(?:[^,;。]{0,8}的)?\s*$")
ARCH_AFTER = re.compile(r"^\s*(?:架构|微架构)")
ARCH_BEFORE = re.compile(r"(基于|采用|使用|属于)\s*(?:了)?\s*$")
CHIP_AFTER = re.compile(r"^\s*(?:芯片|核心|晶片|GPU|die)", re.I)
CHIP_BEFORE = re.compile(r"(采用|基于|使用|核心为|芯片为|核心是|芯片是|搭载|集成了?|颗)\s*"
                         r"(?:了|的|同一颗|一颗|两颗)?\s*$")
PREVIOUS_GEN = re.compile(r"(上一代|前代|前一代|上代|老一代|旧款|之前)[^,;。]{0,4}$")


def clause_bounds(text: str, pos: int) -> tuple[int, int]:
    """The clause around ``pos``: between the nearest clause breaks."""
    start = 0
    for m in CLAUSE_BREAK.finditer(text, 0, pos):
        start = m.end()
    m = CLAUSE_BREAK.search(text, pos)
    return start, (m.start() if m else len(text))


def count_attribute(text: str, q: Quantity) -> str | None:
    """Which count a number is: cue right after it (个CUDA核心), else the nearest cue before it in its clause."""
    right = re.sub(r"^[\s个颗的]*(?:第[一二三四五六七八九十\d]+代)?\s*", "", text[q.end:q.end + 20])
    for attr, pat in COUNT_CUES:
        if pat.match(right):
            return attr
    if q.kind == "count" and re.match(r"^[^,;。\d]{0,10}?(?:GPU\s*)?实例", right):
        return "mig_instances"  # "4个独立的GPU实例"
    cs, _ce = clause_bounds(text, q.start)
    left = text[cs:q.start]
    found = [(m.end(), attr != "cores", attr) for attr, pat in COUNT_CUES for m in pat.finditer(left)]
    if not found:
        return None
    end, _specific, attr = max(found)
    return None if re.search(r"\d", left[end:]) else attr


_GENERIC_RATE = re.compile(r"带宽|频宽")
_SPECIFIC_MEMORY = re.compile(r"显存|内存|记忆体|HBM|GDDR", re.I)
INFINITY_CACHE = re.compile(r"Infinity\s*Cache|无限缓存|无限快取", re.I)
INFINITY_FABRIC = re.compile(r"Infinity\s*Fabric|无限架构", re.I)
_NVLINK = re.compile(r"NVLink|NVSwitch", re.I)
# cards joined in a list: "A、B和C"
COORDINATOR = re.compile(r"\s*(?:和|与|、|及|以及|跟|还有|,|，)\s*")


def link_named(text: str) -> str | None:
    """The link ``text`` names last: "NVLink", "Infinity Fabric", or None (互连带宽: the card's own link)."""
    found = [(m.start(), name) for name, pat in (("NVLink", _NVLINK), ("Infinity Fabric", INFINITY_FABRIC))
             for m in pat.finditer(text)]
    return max(found)[1] if found else None


def cache_named(text: str) -> str | None:
    """The cache ``text`` names: "Infinity Cache" (any of its names), "L2", or None."""
    return "Infinity Cache" if INFINITY_CACHE.search(text) else "L2" if re.search(r"L2|二级", text) else None


def _rate_cue(left: str, right: str = "") -> str | None:
    """The bandwidth kind a clause speaks of: the first kind (by priority) cued before the number, else right
    after it."""
    for attr, pat in RATE_CUES:
        if pat.search(left):
            return attr
    for attr, pat in RATE_CUES:
        if pat.match(right.lstrip("的 ")):
            return attr
    return None


def rate_attribute(text: str, q: Quantity) -> tuple[str | None, bool]:
    """(memory_bandwidth | effective_bandwidth | interconnect_bandwidth | link_bandwidth | None, generic).

    The kind cued in the number's clause; when the clause only says 带宽 (generic is True) or nothing, the kind
    cued in the nearest clause before it that cues one ("X支持NVLink，带宽100GB/s", "X的NVLink带宽为900GB/s，Y则为
    600GB/s"). None for a per-pin rate or no cue at all."""
    cs, ce = clause_bounds(text, q.start)
    clause = text[cs:ce]
    if q.in_bits and PIN_RATE.search(clause):
        return None, False
    attr = _rate_cue(text[cs:q.start], text[q.end:ce])
    generic = attr == "memory_bandwidth" and not _SPECIFIC_MEMORY.search(clause)
    if attr is not None and not generic:
        return attr, False
    pos = cs
    while pos > 0:
        ps, _pe = clause_bounds(text, pos - 1)
        earlier = _rate_cue(text[ps:pos])
        if earlier is not None:
            if q.in_bits and PIN_RATE.search(text[:q.start]):
                return None, False
            specific = earlier != "memory_bandwidth" or bool(_SPECIFIC_MEMORY.search(text[ps:pos]))
            return earlier, not specific and (generic or attr is None)
        pos = ps
    return attr, generic


_CACHE_AFTER = re.compile(r"\s*(?:的)?\s*(?:L2|L3|二级|三级|Infinity|无限)?\s*(?:缓存|快取|Cache)", re.I)
_MEMORY_AFTER = re.compile(r"\s*(?:的)?\s*(?:HBM|GDDR|显存|内存|记忆体|VRAM)", re.I)


# a model name between a cue and the number: the cue described something else ("带有大缓存的A100有80GB")
_CARD_BETWEEN = re.compile(r"[A-Z]{1,3}\d{2,4}[A-Z]?(?![A-Za-z0-9])")


def size_noun(text: str, q: Quantity) -> str | None:
    """"cache" or "memory": what a size is the size of, by the noun right after it (32MB显存, 8GB无限缓存), else the
    nearer of the two named before it in its clause (无限缓存容量为16GB); None when neither is named."""
    if _CACHE_AFTER.match(text, q.end):
        return "cache"
    if _MEMORY_AFTER.match(text, q.end):
        return "memory"
    cs, _ce = clause_bounds(text, q.start)
    cs = max([cs, *(m.end() for m in _CARD_BETWEEN.finditer(text, cs, q.start))])  # only what follows the card
    cache = [m.end() for m in CACHE_CUE.finditer(text, cs, q.start) if m.group(2)]
    memory = [m.end() for m in _SPECIFIC_MEMORY.finditer(text, cs, q.start)]
    if not cache and not memory:
        return None
    return "cache" if max(cache, default=-1) > max(memory, default=-1) else "memory"


def precision_attribute(text: str, q: Quantity) -> str | None:
    """fp64 … int8 for a TFLOPS/TOPS figure: the precision named nearest before it in its clause, else the first
    one right after it, else (elided) the nearest one in the clauses before. None when there is none, when it is
    one without a reference figure (INT4, 混合精度), or when two are written together before the number
    ("FP16/BF16 312 TFLOPS" is left alone)."""
    cs, ce = clause_bounds(text, q.start)
    before = sorted(((m.start(), m.end(), attr) for attr, pat in PRECISION_CUES
                     for m in pat.finditer(text, cs, q.start)), key=lambda x: (x[0], x[1]))
    if before:
        if len(before) > 1 and re.fullmatch(r"\s*[/、和与及或]\s*", text[before[-2][1]:before[-1][0]]):
            return None
        return before[-1][2]
    after = sorted(((m.start(), attr) for attr, pat in PRECISION_CUES for m in [pat.search(text, q.end, ce)] if m),
                   key=lambda x: x[0])
    if after:
        return after[0][1]
    # an elided precision: "L4的FP32算力约30 TFLOPS，而T4只有8.1 TFLOPS", "…，稀疏时可达624 TFLOPS"
    earlier = sorted(((m.end(), attr) for attr, pat in PRECISION_CUES for m in pat.finditer(text, 0, cs)),
                     key=lambda x: x[0])
    return earlier[-1][1] if earlier else None


def has_cue(pattern: re.Pattern[str], text: str, q: Quantity, *, right: int = 8) -> bool:
    cs, ce = clause_bounds(text, q.start)
    return bool(pattern.search(text[cs:q.start]) or pattern.search(text[q.end:min(ce, q.end + right)]))
