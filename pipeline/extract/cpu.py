"""Figures of a CPU die (Grace in GH200 and GB200): its cores and its memory are a CPU's, not the GPU's.

Readers take "72个核心" for CUDA cores and "480GB内存" for the card's memory. When the figure's owner is a chip the
reference lists as a CPU, or the CPU is the hardware named last before the figure in its clause ("GH200的Grace CPU
配备480GB内存": the superchip's CPU), the attribute becomes the CPU's own (``cpu_cores``, ``cpu_memory_size``...),
checked against the CPU's row (chips.csv columns ``cpu_*``).
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..knowledge.reference import Reference
from ..records import Mention
from .cues import clause_bounds
from .draft import Draft

# a GPU attribute -> the same figure of a CPU
CPU_OF = {"cuda_cores": "cpu_cores", "memory_size": "cpu_memory_size", "memory_bandwidth": "cpu_memory_bandwidth",
          "memory_type": "cpu_memory_type"}
_HARDWARE = frozenset({"product", "series", "chip", "system"})
_SUPERCHIP = re.compile(r"\s*(?:CPU\s*)?(?:Superchip|超级芯片|超級晶片|超级晶片)", re.I)


def of_a_cpu(text: str, drafts: list[Draft], mentions: list[Mention], ref: Reference) -> list[Draft]:
    """``drafts`` with the figures said of a CPU die given the CPU's attribute."""
    return [_of_a_cpu(text, d, mentions, ref) if d.attribute in CPU_OF else d for d in drafts]


def _of_a_cpu(text: str, d: Draft, mentions: list[Mention], ref: Reference) -> Draft:
    if d.subject.mention is not None and _SUPERCHIP.match(text, d.subject.mention.end):
        return d  # "Grace CPU Superchip": two CPUs, not the die's figures
    if cpu_id(ref, d.subject.ref):
        return replace(d, attribute=CPU_OF[d.attribute])
    cs, _ce = clause_bounds(text, d.start)
    named = [m for m in mentions if m.kind in _HARDWARE and cs <= m.start and m.end <= d.start]
    last = max(named, key=lambda m: m.end, default=None)
    cpu = cpu_id(ref, last.ref) if last is not None and not _SUPERCHIP.match(text, last.end) else None
    if cpu is not None and d.subject.ref in ref.products and cpu in ref.cpus_of(d.subject.ref):
        return replace(d, attribute=CPU_OF[d.attribute])  # "GH200的Grace CPU有72个核心": the superchip's CPU
    return d


def cpu_id(ref: Reference, name: str | None) -> str | None:
    """The chip id of a CPU die named ``name`` (an id, or a name a family subject carries), else None."""
    if not name or name in ref.products:
        return None  # a card (most owners): no lookup
    found = ref.entity(name)
    return found.id if found is not None and ref.is_cpu(found.id) else None
