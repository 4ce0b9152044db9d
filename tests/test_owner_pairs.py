"""Owners of figures in sentences that name several cards or variants: 相比之下 clauses, anaphora (新卡, 它的继任者),
series with exclusions, 分别 lists (asides, slashes, variants, bare numbers) and "A vs B：x vs y". Each case asserts
every claim of its text (text, attribute, owner, scope, verdict, variant, reason). The sentences are written for
these tests."""

from __future__ import annotations

import pytest
from claim_helpers import C, M, P, Row, S, U, claims_for, field, find, rows

# fmt: off
CASES: list[tuple[str, str, list[Row]]] = [
    # C1/C2: after 相比之下 / 对比之下 / 作为对比 the card the clause names keeps its figure, digits in the attribute
    # (L2缓存, FP64) or not; the heading's card never takes it
    ('A100拥有6912个CUDA核心。相比之下，H100的L2缓存为50MB。', 't.txt', [
        ('6912个', 'cuda_cores', 'nvidia_a100', P, S, None, ''),
        ('50MB', 'cache_size', 'nvidia_h100', P, S, None, ''),
    ]),
    ('RTX 4080的L2缓存为64MB。对比之下，RTX 4090的L2缓存为72MB。', 't.txt', [
        ('64MB', 'cache_size', 'nvidia_rtx_4080', P, S, None, ''),
        ('72MB', 'cache_size', 'nvidia_rtx_4090', P, S, None, ''),
    ]),
    ('A100拥有6912个CUDA核心。作为对比，H100的FP64算力为34 TFLOPS。', 't.txt', [
        ('6912个', 'cuda_cores', 'nvidia_a100', P, S, None, ''),
        ('34 TFLOPS', 'fp64', 'nvidia_h100', P, S, None, ''),
    ]),
    ('# H100\n\n相比之下，A100的FP64算力为9.7 TFLOPS。', 't.md', [
        ('9.7 TFLOPS', 'fp64', 'nvidia_a100', P, S, None, ''),
    ]),
    # the compared card's error is still caught
    ('RTX 4080的L2缓存为64MB。对比之下，RTX 4090的L2缓存为96MB。', 't.txt', [
        ('64MB', 'cache_size', 'nvidia_rtx_4080', P, S, None, ''),
        ('96MB', 'cache_size', 'nvidia_rtx_4090', P, C, None, ''),
    ]),
    # C3/C4: a clause opened by 新卡 / 新一代 / 它的继任者 after another card: whose figure it is is a guess
    ('RTX 3090的功耗为350W，而新卡提升到了450W。', 't.txt', [
        ('350W', 'tdp', 'nvidia_rtx_3090', P, S, None, ''),
        ('450W', 'tdp', 'nvidia_rtx_3090', P, U, None, 'owner_uncertain'),
    ]),
    ('A100的显存带宽为2039GB/s，而它的继任者达到3.35TB/s。', 't.txt', [
        ('2039GB/s', 'memory_bandwidth', 'nvidia_a100', P, S, None, ''),
        ('3.35TB/s', 'memory_bandwidth', 'nvidia_a100', P, U, None, 'owner_uncertain'),
    ]),
    ('# RTX 4090\n\nRTX 3090的功耗为350W，而新一代提升到了450W。', 't.md', [
        ('350W', 'tdp', 'nvidia_rtx_3090', P, S, None, ''),
        ('450W', 'tdp', 'nvidia_rtx_4090', P, S, None, ''),
    ]),
    # C9: a series bound with an exclusion is not said of every member; without one it is
    ('除了RTX 4090和RTX 4090 D之外，RTX 40系列其他显卡的显存都不超过16GB。', 't.txt', [
        ('不超过16GB', 'memory_size', 'nvidia_rtx_40', P, U, None, 'owner_uncertain'),
    ]),
    ('RTX 40系列显卡的显存都不超过24GB。', 't.txt', [
        ('不超过24GB', 'memory_size', 'nvidia_rtx_40', P, S, None, ''),
    ]),
    # C5/C6: 分别 across a bracketed aside after each name, and across names joined by a slash; errors still caught
    ('RTX 4090（AD102）与RTX 4080（AD103）的CUDA核心分别为16384个和9728个。', 't.txt', [
        ('AD102', 'gpu_chip', 'nvidia_rtx_4090', P, S, None, ''),
        ('AD103', 'gpu_chip', 'nvidia_rtx_4080', P, S, None, ''),
        ('16384个', 'cuda_cores', 'nvidia_rtx_4090', P, S, None, ''),
        ('9728个', 'cuda_cores', 'nvidia_rtx_4080', P, S, None, ''),
    ]),
    ('RTX 4090（24GB）与RTX 4080（16GB）的功耗分别为450W和320W。', 't.txt', [
        ('450W', 'tdp', 'nvidia_rtx_4090', P, S, None, ''),
        ('320W', 'tdp', 'nvidia_rtx_4080', P, S, None, ''),
    ]),
    ('H100（Hopper）与A100（Ampere）的L2缓存分别为40MB和50MB。', 't.txt', [
        ('Hopper', 'architecture', 'nvidia_h100', P, S, None, ''),
        ('Ampere', 'architecture', 'nvidia_a100', P, S, None, ''),
        ('40MB', 'cache_size', 'nvidia_h100', P, C, None, ''),
        ('50MB', 'cache_size', 'nvidia_a100', P, C, None, ''),
    ]),
    ('RTX 4090/4080的显存分别为24GB/16GB。', 't.txt', [
        ('24GB', 'memory_size', 'nvidia_rtx_4090', P, S, None, ''),
        ('16GB', 'memory_size', 'nvidia_rtx_4080', P, S, None, ''),
    ]),
    ('RTX 4090/RTX 4080的显存分别为16GB和24GB。', 't.txt', [
        ('16GB', 'memory_size', 'nvidia_rtx_4090', P, C, None, ''),
        ('24GB', 'memory_size', 'nvidia_rtx_4080', P, C, None, ''),
    ]),
    # C7/C8: 'A vs B：x vs y' pairs in order; 'x / y' under a heading naming two cards is a guess
    ('RTX 4090 vs RTX 4080：450W vs 320W', 't.txt', [
        ('450W', 'tdp', 'nvidia_rtx_4090', P, S, None, ''),
        ('320W', 'tdp', 'nvidia_rtx_4080', P, S, None, ''),
    ]),
    ('RTX 4090对比RTX 4080：320W对450W', 't.txt', [
        ('320W', 'tdp', 'nvidia_rtx_4090', P, C, None, ''),
        ('450W', 'tdp', 'nvidia_rtx_4080', P, C, None, ''),
    ]),
    ('# RTX 4090 vs RTX 4080\n\n- 功耗：450W / 320W', 't.md', [
        ('450W', 'tdp', 'nvidia_rtx_4090', P, S, None, ''),
        ('320W', 'tdp', 'nvidia_rtx_4090', P, U, None, 'owner_uncertain'),
    ]),
    # D1: with 分别, each figure takes its own variant of the one card
    ('RTX 4060 Ti 8GB和16GB的功耗分别是160W、165W。', 't.txt', [
        ('8GB', 'memory_size', 'nvidia_rtx_4060_ti', P, S, None, ''),
        ('160W', 'tdp', 'nvidia_rtx_4060_ti', P, S, '8GB', ''),
        ('165W', 'tdp', 'nvidia_rtx_4060_ti', P, S, '16GB', ''),
    ]),
    ('RTX 4060 Ti 8GB和16GB的功耗分别是165W、160W。', 't.txt', [
        ('8GB', 'memory_size', 'nvidia_rtx_4060_ti', P, S, None, ''),
        ('165W', 'tdp', 'nvidia_rtx_4060_ti', P, C, '8GB', ''),
        ('160W', 'tdp', 'nvidia_rtx_4060_ti', P, C, '16GB', ''),
    ]),
    ('RTX 3060 12GB和8GB的显存带宽分别为360GB/s和240GB/s。', 't.txt', [
        ('12GB', 'memory_size', 'nvidia_rtx_3060', P, S, None, ''),
        ('8GB', 'memory_size', 'nvidia_rtx_3060', P, S, None, ''),
        ('360GB/s', 'memory_bandwidth', 'nvidia_rtx_3060', P, S, '12GB', ''),
        ('240GB/s', 'memory_bandwidth', 'nvidia_rtx_3060', P, S, '8GB', ''),
    ]),
    ('A100 40GB SXM4和80GB SXM4的显存带宽分别为1555GB/s和2039GB/s。', 't.txt', [
        ('40GB', 'memory_size', 'nvidia_a100', P, S, None, ''),
        ('80GB', 'memory_size', 'nvidia_a100', P, S, 'SXM4', ''),
        ('1555GB/s', 'memory_bandwidth', 'nvidia_a100', P, S, '40GB SXM4', ''),
        ('2039GB/s', 'memory_bandwidth', 'nvidia_a100', P, S, '80GB SXM4', ''),
    ]),
    # a 分别 list of bare numbers takes the unit of its last figure, and the clause's other card lends no variant
    ('A100和H100 SXM5的FP64算力分别为9.7和34 TFLOPS。', 't.txt', [
        ('9.7', 'fp64', 'nvidia_a100', P, S, None, ''),
        ('34 TFLOPS', 'fp64', 'nvidia_h100', P, S, 'SXM5', ''),
    ]),
    ('RTX 4090与RTX 4080的CUDA核心分别为16384和9000个。', 't.txt', [
        ('16384', 'cuda_cores', 'nvidia_rtx_4090', P, S, None, ''),
        ('9000个', 'cuda_cores', 'nvidia_rtx_4080', P, C, None, ''),
    ]),
]

LIST_CASES: list[tuple[str, str, list[Row]]] = [
    # figures in a bracket after a list of cards go to them in order
    ('RTX 4090和RTX 4080的功耗（450W和320W）', 't.txt', [
        ('450W', 'tdp', 'nvidia_rtx_4090', P, S, None, ''),
        ('320W', 'tdp', 'nvidia_rtx_4080', P, S, None, ''),
    ]),
    ('RTX 4090和RTX 4080的功耗（320W和450W）都不低。', 't.txt', [
        ('320W', 'tdp', 'nvidia_rtx_4090', P, C, None, ''),
        ('450W', 'tdp', 'nvidia_rtx_4080', P, C, None, ''),
    ]),
    # 它们 / 两者 … 分别: the pair the article just named, in order
    ('我对比了RTX 4090和RTX 4080。它们分别有24GB和16GB显存。', 't.txt', [
        ('24GB', 'memory_size', 'nvidia_rtx_4090', P, S, None, ''),
        ('16GB', 'memory_size', 'nvidia_rtx_4080', P, S, None, ''),
    ]),
    ('我对比了RTX 4090和RTX 4080。两者的显存分别为16GB和24GB。', 't.txt', [
        ('16GB', 'memory_size', 'nvidia_rtx_4090', P, C, None, ''),
        ('24GB', 'memory_size', 'nvidia_rtx_4080', P, C, None, ''),
    ]),
    # 不同于 / 有别于 X: X is only compared, the clause's card owns the figure
    ('不同于RTX 4090，RTX 4080只有16GB显存。', 't.txt', [
        ('16GB', 'memory_size', 'nvidia_rtx_4080', P, S, None, ''),
    ]),
    ('有别于RTX 4090，RTX 4080只有24GB显存。', 't.txt', [
        ('24GB', 'memory_size', 'nvidia_rtx_4080', P, C, None, ''),
    ]),
    # a figure before the sentence names its card in a later clause: the earlier topic is only a guess
    ('RTX 4060 Ti的功耗为160W。GDDR6X的单针速率可达21Gbps，RTX 4090的带宽因此达到1008GB/s。', 't.txt', [
        ('160W', 'tdp', 'nvidia_rtx_4060_ti', P, S, None, ''),
        ('GDDR6X', 'memory_type', 'nvidia_rtx_4060_ti', P, U, None, 'owner_uncertain'),
        ('可达21Gbps', 'memory_data_rate', 'nvidia_rtx_4060_ti', P, U, None, 'owner_uncertain'),
        ('1008GB/s', 'memory_bandwidth', 'nvidia_rtx_4090', P, S, None, ''),
    ]),
    # 前者 / 后者 after 'A与B相比': the pair this sentence names (a compared card too), not an earlier pair
    ('H100的显存为80GB。A100的显存为40GB。RTX 4090与RTX 4080相比，后者功耗为320W。', 't.txt', [
        ('80GB', 'memory_size', 'nvidia_h100', P, S, None, ''),
        ('40GB', 'memory_size', 'nvidia_a100', P, S, None, ''),
        ('320W', 'tdp', 'nvidia_rtx_4080', P, S, None, ''),
    ]),
    ('H100的显存为80GB。A100的显存为40GB。RTX 4090与RTX 4080相比，前者功耗为320W。', 't.txt', [
        ('80GB', 'memory_size', 'nvidia_h100', P, S, None, ''),
        ('40GB', 'memory_size', 'nvidia_a100', P, S, None, ''),
        ('320W', 'tdp', 'nvidia_rtx_4090', P, C, None, ''),
    ]),
    # a clause about an architecture: the architecture owns it, not the topic card (control: the card's memory)
    ('A800的显存为80GB。Ampere架构于2020年推出。', 't.txt', [
        ('80GB', 'memory_size', 'nvidia_a800', P, S, None, ''),
        ('2020年', 'launch_year', 'Ampere', 'family', S, None, ''),
    ]),
    ('A800的显存为80GB。显存带宽为3000GB/s。', 't.txt', [
        ('80GB', 'memory_size', 'nvidia_a800', P, S, None, ''),
        ('3000GB/s', 'memory_bandwidth', 'nvidia_a800', P, C, None, ''),
    ]),
    # 'A vs B：' pairs each 'x vs y' in order; a chain of three values is nobody's for sure (control: the first)
    ('H100 vs A100：显存80GB vs 40GB，带宽3.35TB/s vs 2TB/s', 't.txt', [
        ('80GB', 'memory_size', 'nvidia_h100', P, S, None, ''),
        ('40GB', 'memory_size', 'nvidia_a100', P, S, None, ''),
        ('3.35TB/s', 'memory_bandwidth', 'nvidia_h100', P, S, None, ''),
        ('2TB/s', 'memory_bandwidth', 'nvidia_a100', P, S, None, ''),
    ]),
    ('H100 vs A100：显存80GB vs 40GB，带宽2TB/s vs 3.35TB/s', 't.txt', [
        ('80GB', 'memory_size', 'nvidia_h100', P, S, None, ''),
        ('40GB', 'memory_size', 'nvidia_a100', P, S, None, ''),
        ('2TB/s', 'memory_bandwidth', 'nvidia_h100', P, S, None, ''),
        ('3.35TB/s', 'memory_bandwidth', 'nvidia_a100', P, M, None, ''),
    ]),
    ('H100 vs A100：80GB vs 40GB vs 24GB', 't.txt', [
        ('80GB', 'figure', 'nvidia_a100', P, U, None, 'unknown_attribute'),
        ('40GB', 'figure', 'nvidia_h100', P, U, None, 'unknown_attribute'),
        ('24GB', 'figure', 'nvidia_h100', P, U, None, 'unknown_attribute'),
    ]),
]

ATTRIBUTE_CASES: list[tuple[str, str, list[Row]]] = [
    # E2: a fronted comparand's few MB take the cache the sentence names, not memory; its error is still caught
    ('与A100的40MB相比，H100的L2缓存为50MB。', 't.txt', [
        ('40MB', 'cache_size', 'nvidia_a100', P, S, None, ''),
        ('50MB', 'cache_size', 'nvidia_h100', P, S, None, ''),
    ]),
    ('与A100的50MB相比，H100的L2缓存为50MB。', 't.txt', [
        ('50MB', 'cache_size', 'nvidia_a100', P, C, None, ''),
        ('50MB', 'cache_size', 'nvidia_h100', P, S, None, ''),
    ]),
    # E3: two cache levels in one clause: each figure takes the level named right after it
    ('RX 7900 XTX配备96MB Infinity Cache和6MB L2缓存。', 't.txt', [
        ('96MB', 'cache_size', 'amd_rx_7900_xtx', P, S, None, ''),
        ('6MB', 'cache_size', 'amd_rx_7900_xtx', P, S, None, ''),
    ]),
    ('MI300X有32MB L2缓存和256MB Infinity Cache。', 't.txt', [
        ('32MB', 'cache_size', 'amd_mi300x', P, S, None, ''),
        ('256MB', 'cache_size', 'amd_mi300x', P, S, None, ''),
    ]),
    ('RX 7900 XTX配备6MB Infinity Cache和96MB L2缓存。', 't.txt', [
        ('6MB', 'cache_size', 'amd_rx_7900_xtx', P, C, None, ''),
        ('96MB', 'cache_size', 'amd_rx_7900_xtx', P, C, None, ''),
    ]),
    # E4: the accumulate precision in brackets is not the operands' (control: FP32 165.2 is wrong)
    ('RTX 4090的FP16 Tensor算力（FP32累加）为165.2 TFLOPS。', 't.txt', [
        ('165.2 TFLOPS', 'fp16', 'nvidia_rtx_4090', P, U, None, 'not_comparable'),
    ]),
    ('RTX 4090的FP32算力为165.2 TFLOPS。', 't.txt', [
        ('165.2 TFLOPS', 'fp32', 'nvidia_rtx_4090', P, C, None, ''),
    ]),
    # E1: a generic 带宽 column beside a link column is the link's (PCIe: the host link, no claim); beside a memory
    # column it stays memory bandwidth
    ('# 表\n\n| GPU | 互连 | 带宽 |\n|---|---|---|\n| H100 SXM5 | NVLink 4.0 | 900GB/s |\n'
     '| A100 SXM4 | NVLink 3.0 | 900GB/s |\n| A100 PCIe | PCIe 4.0 x16 | 64GB/s |', 't.md', [
        ('900GB/s', 'interconnect_bandwidth', 'nvidia_h100', P, S, 'SXM5', ''),
        ('900GB/s', 'interconnect_bandwidth', 'nvidia_a100', P, C, 'SXM4', ''),
    ]),
    ('# 表\n\n| GPU | 显存 | 带宽 |\n|---|---|---|\n| H100 SXM5 | HBM3 | 3.35TB/s |\n'
     '| A100 PCIe | HBM2e | 900GB/s |', 't.md', [
        ('HBM3', 'memory_type', 'nvidia_h100', P, S, 'SXM5', ''),
        ('3.35TB/s', 'memory_bandwidth', 'nvidia_h100', P, S, 'SXM5', ''),
        ('HBM2e', 'memory_type', 'nvidia_a100', P, S, 'PCIe', ''),
        ('900GB/s', 'memory_bandwidth', 'nvidia_a100', P, C, 'PCIe', ''),
    ]),
]
# fmt: on


@pytest.mark.parametrize(("text", "doc_id", "expected"), CASES + LIST_CASES)
def test_owner_of_each_figure(text: str, doc_id: str, expected: list[Row]) -> None:
    assert rows(claims_for(text, doc_id=doc_id), "variant", "reason") == expected


@pytest.mark.parametrize(("text", "doc_id", "expected"), ATTRIBUTE_CASES)
def test_attribute_of_each_figure(text: str, doc_id: str, expected: list[Row]) -> None:
    assert rows(claims_for(text, doc_id=doc_id), "variant", "reason") == expected


@pytest.mark.parametrize(("text", "fragment", "said"), [
    ("RX 7900 XTX配备6MB Infinity Cache和96MB L2缓存。", "6MB", "6MB是L2的数值，与文中所指的Infinity Cache不符"),
    ("RX 7900 XTX配备6MB Infinity Cache和96MB L2缓存。", "96MB", "96MB是Infinity Cache的数值，与文中所指的L2不符"),
    ("RTX 4060 Ti 8GB的功耗是165W。", "165W", "165W是16GB版的数值，与文中所指版本不符"),
])
def test_explanation_names_the_other_level_or_version(text: str, fragment: str, said: str) -> None:
    assert said in field(find(claims_for(text), fragment), "explanation")
