"""Figures no reader understood are recorded, typed by the words around them (pipeline/extract/leftover.py and the
``unread.csv`` rows of the lexicon), on sentences written for the tests. Each case asserts every claim of its
sentence, with the kind of figure as ``detail``; a case with no figure sits next to one where the same words are one."""

from __future__ import annotations

import pytest

from pipeline.extract.leftover import leftover_drafts
from pipeline.extract.subjects import DocState
from tests.claim_helpers import SYS, P, S, U, claims_for, rows

Rows = list[tuple[object, ...]]
FIG = "figure"

# fmt: off
CASES: list[tuple[str, str, Rows]] = [
    # a multiple, a share, in digits or in words
    ("这块新卡的推理吞吐量是上一代的3倍。", "t.txt", [("3倍", FIG, "", P, U, "multiple")]),
    ("新驱动让渲染速度提高了12%，功耗下降了三成。", "t.txt",
     [("12%", FIG, "", P, U, "percent"), ("三成", FIG, "", P, U, "percent")]),
    ("新架构下每个时钟的运算量翻了一倍。", "t.txt", [("翻了一倍", FIG, "", P, U, "multiple")]),
    # a multiple after 比Y: Y is the card compared with, not the figure's owner; a card named before it is
    ("RTX 4090比RTX 3090快了2x。", "t.txt", [("2x", FIG, "", P, U, "multiple")]),
    ("相比RTX 3090，RTX 4090快了2x。", "t.txt", [("2x", FIG, "nvidia_rtx_4090", P, U, "multiple")]),
    # "4 × 48GB": a factor of a product the number readers compute, no figure of its own
    ("一台4×L40S工作站的显存总量是4 × 48GB = 192GB。", "t.txt",
     [("48GB", "memory_size", "nvidia_l40s", P, S, None), ("192GB", "memory_size", "nvidia_l40s", SYS, S, None)]),
    # counts of machines, GPUs, cores; a price before or after its figure; a duration; a resolution; a length
    ("整机最多可以把16卡连在一起，由512台服务器组成一个集群。", "t.txt",
     [("16卡", FIG, "", P, U, "gpus"), ("512台", FIG, "", P, U, "machines")]),
    ("这颗处理器有64核，首发价为4999元，海外售价$599。", "t.txt",
     [("64核", FIG, "", P, U, "cpu_cores"), ("4999元", FIG, "", P, U, "price"), ("$599", FIG, "", P, U, "price")]),
    ("用RTX 4090训练这个小模型花了3天。", "t.txt", [("3天", FIG, "nvidia_rtx_4090", P, U, "duration")]),
    ("RTX 6000 Ada支持8K输出。", "t.txt", [("8K", FIG, "nvidia_rtx_6000_ada", P, U, "resolution")]),
    ("这张卡长10.5英寸，高4.4英寸。", "t.txt",
     [("10.5英寸", FIG, "", P, U, "length"), ("4.4英寸", FIG, "", P, U, "length")]),
    ("这条内存的传输速率为6400MT/s。", "t.txt", [("6400MT/s", FIG, "", P, U, "rate")]),
    ("H100的显存是80GB，售价约3万美元。", "t.txt",
     [("80GB", "memory_size", "nvidia_h100", P, S, None), ("3万美元", FIG, "nvidia_h100", P, U, "price")]),
    # a count at the end of its clause; a count of chips or nodes with no classifier; a version after its name; a
    # generation
    ("AD102芯片的SM一共是144个。", "t.txt", [("144个", FIG, "", P, U, "count")]),
    ("一个训练集群要用到4096加速器。", "t.txt", [("4096加速器", FIG, "", P, U, "count")]),
    ("这块新卡支持HDMI 2.1输出，DisplayPort 2.1b。", "t.txt",
     [("HDMI 2.1", FIG, "", P, U, "version"), ("DisplayPort 2.1b", FIG, "", P, U, "version")]),
    ("A100支持PCIe 4.0。", "t.txt", [("PCIe 4.0", "interface", "nvidia_a100", P, S, None)]),
    ("这块卡的张量单元是第五代。", "t.txt", [("第五代", FIG, "", P, U, "generation")]),
    ("PCIe: 4.0 x16", "t.md", [("PCIe: 4.0", FIG, "", P, U, "version")]),
    # a comparison with a named card that no reader took: from its comparison word to the word of its direction
    ("新卡的推理速度比A100更强大。", "t.txt", [("比A100更强", FIG, "", P, U, "comparison")]),
    ("它的显存带宽低于H100。", "t.txt", [("低于H100", FIG, "", P, U, "comparison")]),
    ("其他参数与A100基本一致。", "t.txt", [("与A100基本一致", FIG, "", P, U, "comparison")]),
    ("它的理论算力介于A100和H100之间。", "t.txt", [("介于A100和H100之间", FIG, "", P, U, "comparison")]),
    ("这张卡的性能 ~= A100。", "t.txt", [("~= A100", FIG, "", P, U, "comparison")]),
    ("H100的显存带宽高于A100。", "t.txt", [("高于A100", "ordering", "nvidia_h100", P, S, "memory_bandwidth")]),
    ("我和A100合影。", "t.txt", []),
    # a product said to be a version of another, or to replace it
    ("A800是A100的“合规版”。", "t.txt", [("是A100的“合规版", FIG, "nvidia_a800", P, U, "positioning")]),
    ("H20是替代H100的中国市场专用型号。", "t.txt",
     [("替代H100的中国市场专用型号", FIG, "nvidia_h20", P, U, "positioning")]),
    # a feature no reader knows, after a support verb, in a short clause about hardware
    ("H20支持虚拟化、多实例和加密计算。", "t.txt",
     [("支持虚拟化、多实例和加密计算", FIG, "nvidia_h20", P, U, "feature")]),
    ("RTX 3090支持NVLink。", "t.txt", [("支持NVLink", "supports", "nvidia_rtx_3090", P, S, None)]),
    ("这个软件支持Windows和Linux。", "t.txt", []),
    # a year a reader understands is its claim, not a figure; one in a sentence about hardware is recorded
    ("RTX 4090于2022年发布。", "t.txt", [("2022年", "launch_year", "nvidia_rtx_4090", P, S, None)]),
    ("2016年，Pascal架构登场。", "t.txt", [("2016年", FIG, "", P, U, "year")]),
    ("2016年，公司搬进了新办公楼。", "t.txt", []),
    # in a text about a card, a year alone is that card's; one in brackets after a name is the name's (its launch
    # year when a reader takes it so)
    ("# RTX 4090\n\n2022年。SM更多了。", "t.md", [("2022年", FIG, "nvidia_rtx_4090", P, U, "year")]),
    ("RTX 4090（2022）很流行。", "t.txt", [("2022", "launch_year", "nvidia_rtx_4090", P, S, None)]),
    # the value of a labelled line, not a list item's number
    ("- 最大线程数: 1024", "t.md", [("1024", FIG, "", P, U, "value")]),
    ("1. 第一步安装驱动", "t.md", []),
    ("| 参数 | 数值 |\n|---|---|\n| Warp Size | 32 |\n", "t.md", [("32", FIG, "", P, U, "value")]),
    # the cards a count counts are how many the figures of its sentence are of (read as such): no figure
    ("8块H100的显存合计640GB。", "t.txt", [("640GB", "memory_size", "nvidia_h100", SYS, S, None)]),
    ("4块L4组成的推理机，每块显存24GB。", "t.txt", [("24GB", "memory_size", "nvidia_l4", P, S, None)]),
    # with no figure in its sentence, how many cards is a figure of its own, of no card
    ("这台服务器配备8块GPU。", "t.txt", [("8块", FIG, "", P, U, "gpus")]),
    ("超算中心最多可将512块H100互联。", "t.txt", [("512块", FIG, "", P, U, "gpus")]),
    ("每个机柜放着4× L40S。", "t.txt", [("4×", FIG, "", P, U, "gpus")]),
    ("整机最多可以把16块连在一起。", "t.txt", [("16块", FIG, "", P, U, "count")]),
    ("DGX H100里的8块H100共享一套散热。", "t.txt", [("8块H100", "composed_of", "dgx_h100", SYS, S, "gpu")]),
    # one unit, the scope of what follows; units a clause says are not there; words that are no figures
    ("H100的1个SM里有4个Tensor Core。", "t.txt", [("4个", "tensor_cores", "nvidia_h100", "unit", S, None)]),
    ("AD102芯片被屏蔽了16个SM。", "t.txt", []),
    ("AD102芯片划分成16个小单元。", "t.txt", [("16个", FIG, "AD102", "chip", U, "count")]),
    ("一种新的散热方式让十分安静的机箱成为可能。", "t.txt", []),
]
# fmt: on


@pytest.mark.parametrize(("text", "doc_id", "expected"), CASES)
def test_unread_figures(text: str, doc_id: str, expected: Rows) -> None:
    assert rows(claims_for(text, doc_id), "detail") == expected


def test_every_unread_figure_says_why_it_was_not_judged() -> None:
    claims = [c for c in claims_for("新驱动让渲染速度提高了12%，售价4999元。") if c.attribute == FIG]
    assert [(c.text, c.check.reason.value if c.check and c.check.reason else None) for c in claims] == [
        ("12%", "unknown_attribute"), ("4999元", "unknown_attribute")]
    assert all("没有说明是哪项参数" in (c.check.explanation if c.check else "") for c in claims)


def test_an_unread_comparison_says_it_names_no_spec() -> None:
    [claim] = claims_for("新卡的推理速度比A100更强大。")
    assert claim.check is not None and "是一项比较" in claim.check.explanation


def test_a_sentence_without_numbers_costs_nothing() -> None:
    assert leftover_drafts("这是一段没有任何数字的文字。", [], DocState(), []) == []
