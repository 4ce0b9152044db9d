"""Claims about a card's GPU die: process nodes (pipeline/extract/process.py) and transistor counts (a count cue),
checked by pipeline/check/chip.py. Every case asserts the complete claim list of its text and the reason of each
unverifiable claim. Texts are written for these tests."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.test_owner_scope import claims_with_reasons

P, CHIP, F, U, S, C = "product", "chip", "family", "unverifiable", "supported", "contradicted"

# fmt: off
CASES = [
    ("H800采用台积电4N工艺。", [("台积电4N", "process_node", "nvidia_h800", P, S, None)]),
    # TSMC 4N is a 5 nm-class node that articles also call 4 nm
    ("L40S基于台积电5nm制程。", [("台积电5nm", "process_node", "nvidia_l40s", P, S, None)]),
    ("H200用的是4nm工艺。", [("4nm", "process_node", "nvidia_h200", P, S, None)]),
    ("A800采用台积电8nm工艺。", [("台积电8nm", "process_node", "nvidia_a800", P, C, None)]),
    ("RTX 3060采用台积电7nm工艺。", [("台积电7nm", "process_node", "nvidia_rtx_3060", P, C, None)]),  # Samsung 8N
    ("RTX 3080采用三星8nm工艺，拥有8704个CUDA核心。", [("三星8nm", "process_node", "nvidia_rtx_3080", P, S, None),
                                               ("8704个", "cuda_cores", "nvidia_rtx_3080", P, S, None)]),
    ("AD104核心采用4nm工艺。", [("4nm", "process_node", "AD104", CHIP, S, None)]),
    ("P40采用16nm工艺，显存24GB。", [("16nm", "process_node", "nvidia_tesla_p40", P, S, None),
                                  ("24GB", "memory_size", "nvidia_tesla_p40", P, S, None)]),
    ("RTX 4090 採用台積電 4N 製程。", [("台積電 4N", "process_node", "nvidia_rtx_4090", P, S, None)]),
    ("V100 is built on a 16 nm process.", [("16 nm", "process_node", "nvidia_tesla_v100", P, C, None)]),
    # the nodes listed before the process word are nodes too; a package of several dies is never flagged
    ("MI325X采用5nm和6nm工艺。", [("5nm", "process_node", "amd_mi325x", P, S, None),
                               ("6nm", "process_node", "amd_mi325x", P, U, "not_comparable")]),
    # 分别: each node to its card, in order; a word may qualify the process (混合工艺, 先进制程)
    ("L4和A30分别采用4N和7nm工艺。", [("4N", "process_node", "nvidia_l4", P, S, None),
                                  ("7nm", "process_node", "nvidia_a30", P, S, None)]),
    ("L4和A30分别采用7nm和4N工艺。", [("7nm", "process_node", "nvidia_l4", P, C, None),
                                  ("4N", "process_node", "nvidia_a30", P, C, None)]),
    ("MI325X采用5nm与6nm混合工艺。", [("5nm", "process_node", "amd_mi325x", P, S, None),
                                 ("6nm", "process_node", "amd_mi325x", P, U, "not_comparable")]),
    # not a node: no process word or foundry, no card, or denied
    ("这款光模块的波长是850nm。", []),
    ("N7是台积电的工艺名称。", []),
    ("A30显存24GB，不是7nm工艺。", [("24GB", "memory_size", "nvidia_a30", P, S, None)]),
    # a card named in another clause owns the node only when the node's clause says it is made on it
    ("RTX 4080发布时，台积电的3nm工艺还没有量产。", []),
    ("RTX 4080拥有459亿个晶体管，基于台积电4N工艺制造。", [("459亿个", "transistors", "nvidia_rtx_4080", P, S, None),
                                                ("台积电4N", "process_node", "nvidia_rtx_4080", P, S, None)]),
    # a foundry written after the node, as spec lines do
    ("RTX 3070：Ampere架构，8nm Samsung", [("Ampere", "architecture", "nvidia_rtx_3070", P, S, None),
                                      ("8nm Samsung", "process_node", "nvidia_rtx_3070", P, S, None)]),
    ("L40采用7nm TSMC工艺。", [("7nm TSMC", "process_node", "nvidia_l40", P, C, None)]),  # TSMC 4N
    # said of an architecture: its dies; one the table does not list may be made on another node
    ("Turing架构采用12nm工艺。", [("12nm", "process_node", "Turing", F, S, None)]),
    ("Turing架构采用三星8nm工艺。", [("三星8nm", "process_node", "Turing", F, U, "no_reference_value")]),
]

DIE_SIZES = [
    ("H100的核心面积814mm²。", [("814mm²", "die_size", "nvidia_h100", P, S, None)]),
    ("L40S的芯片面积为608 mm2。", [("608 mm2", "die_size", "nvidia_l40s", P, S, None)]),  # AD102: 608.5
    ("A30的核心面积为628平方毫米。", [("628平方毫米", "die_size", "nvidia_a30", P, C, None)]),  # GA100: 826
    # a package of several dies: one die's area is not checked against the package's
    ("RX 7900 XT的GCD面积为304平方毫米。", [("304平方毫米", "die_size", "amd_rx_7900_xt", P, U, "not_comparable")]),
    # an area with no card has no owner: recorded, never checked
    ("这块散热片的面积为1200平方毫米。", [("1200平方毫米", "die_size", "", P, U, "owner_uncertain")]),
]

TRANSISTORS = [
    ("GH100芯片集成了800亿个晶体管。", [("800亿个", "transistors", "GH100", CHIP, S, None)]),
    ("L40拥有763亿个晶体管。", [("763亿个", "transistors", "nvidia_l40", P, S, None)]),
    # vendors round: 54 billion for GA100's 54.2
    ("A30的GPU有540亿个晶体管。", [("540亿个", "transistors", "nvidia_a30", P, S, None)]),
    ("A30的GPU有640亿个晶体管。", [("640亿个", "transistors", "nvidia_a30", P, C, None)]),
    # a package of two dies: each die's count or the package's
    ("GB200里的每颗B200有2080亿个晶体管。", [("2080亿个", "transistors", "nvidia_b200", P, S, None)]),
    ("B200单颗die有1040亿个晶体管。", [("1040亿个", "transistors", "nvidia_b200", "unit", S, None)]),
    ("B200拥有1200亿个晶体管。", [("1200亿个", "transistors", "nvidia_b200", P, C, None)]),
    # the table has no count for this package: the database's (TechPowerUp: 153 billion)
    ("MI325X拥有1530亿个晶体管。", [("1530亿个", "transistors", "amd_mi325x", P, S, None)]),
    ("MI325X拥有1800亿个晶体管。", [("1800亿个", "transistors", "amd_mi325x", P, C, None)]),
]
# fmt: on


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_process_node(text: str, expected: list[tuple[object, ...]]) -> None:
    assert claims_with_reasons(text, "t.txt") == expected


@pytest.mark.parametrize(("text", "expected"), DIE_SIZES)
def test_die_size(text: str, expected: list[tuple[object, ...]]) -> None:
    assert claims_with_reasons(text, "t.txt") == expected


@pytest.mark.parametrize(("text", "expected"), TRANSISTORS)
def test_transistor_count(text: str, expected: list[tuple[object, ...]]) -> None:
    assert claims_with_reasons(text, "t.txt") == expected


FOUNDRIES = {"台积电": "TSMC", "TSMC": "TSMC", "三星": "Samsung", "Samsung": "Samsung", "": None}


@settings(max_examples=40, deadline=None)
@given(foundry=st.sampled_from(sorted(FOUNDRIES)), nm=st.integers(1, 99), space=st.sampled_from(["", " "]),
       word=st.sampled_from(["工艺", "制程", " process"]))
def test_a_written_node_is_read_whole(foundry: str, nm: int, space: str, word: str) -> None:
    """Any node written as <foundry><n>nm<process word> after a card is one claim of that node and foundry."""
    from pipeline.api import check_text

    text = f"T4采用{foundry}{space}{nm}{space}nm{word}。"
    claims = [c for c in check_text(text, doc_id="t.txt") if c.attribute == "process_node"]
    assert [(c.subject, c.value, c.detail) for c in claims] == [("nvidia_t4", f"{nm} nm", FOUNDRIES[foundry])]
    assert claims[0].text == (f"{foundry}{space}" if foundry else "") + f"{nm}{space}nm"
    assert claims[0].check is not None
    assert claims[0].check.verdict.value == (S if nm == 12 and FOUNDRIES[foundry] in (None, "TSMC") else C)
