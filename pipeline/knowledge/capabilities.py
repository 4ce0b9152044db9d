"""The CUDA programming limits (``compute_capabilities.csv``) of whatever has a compute capability.

A compute capability's own row holds its limits (threads, warps and blocks per SM, registers, shared memory...); a
chip has them through its ``compute_capability`` (GA102: 8.6), an architecture through the capabilities it lists
(Ampere: 8.0, 8.6, 8.7; one row per capability, variant = the capability) and a card through its chip. A limit is a
figure of the SM, the block or the thread by its name (``max_threads_per_sm``), so it is found whether it is asked
for per SM or as a whole-entity figure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Protocol

from .columns import NAMED_LIMITS, split_items

KIND = "compute_capability"


class Tables(Protocol):
    """What the look-up reads of ``reference.Reference`` (which imports this module, so it is not imported here)."""

    @property
    def items(self) -> Mapping[str, Mapping[str, Any]]: ...

    @property
    def products(self) -> Mapping[str, object]: ...

    @property
    def knowledge(self) -> Mapping[tuple[str, str, str], Sequence[Any]]: ...

    def kind_of(self, ref_id: str) -> str | None: ...

    def chips_of(self, product_id: str) -> list[str]: ...

    def chips_of_architecture(self, architecture_id: str) -> list[str]: ...


def capability_ids(ref: Tables, entity_id: str) -> list[str]:
    """The compute_capabilities.csv ids of a capability, chip, architecture or product (first seen first)."""
    table = ref.items.get(KIND, {})
    if entity_id in table:
        return [entity_id]
    if entity_id in ref.products:
        return _unique(cid for chip in ref.chips_of(entity_id) for cid in capability_ids(ref, chip))
    kind = ref.kind_of(entity_id)
    item = ref.items.get(kind or "", {}).get(entity_id)
    if item is None or kind not in ("chip", "architecture"):
        return []
    by_capability = {row.fields.get("capability", ""): cid for cid, row in table.items()}
    said = [by_capability[c] for c in split_items(item.fields.get("compute_capability")) if c in by_capability]
    if said or kind == "chip":
        return said
    return _unique(cid for chip in ref.chips_of_architecture(entity_id) for cid in capability_ids(ref, chip))


def limit_facts(ref: Tables, entity_id: str, attribute: str, per: str = "") -> list[Any]:
    """The limit ``attribute`` of ``entity_id``'s compute capabilities, one ``SpecRow`` per capability."""
    accepted = ("", "SM") if per == "SM" or (not per and attribute in NAMED_LIMITS) else (per,)
    ids = capability_ids(ref, entity_id)
    out: list[Any] = []
    for cid in ids:
        rows = next((r for p in accepted if (r := ref.knowledge.get((cid, attribute, p)))), [])
        capability = ref.items[KIND][cid].fields.get("capability", cid)
        out += [replace(r, variant=capability) if len(ids) > 1 else r for r in rows]
    return out


def _unique(ids: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(ids))
