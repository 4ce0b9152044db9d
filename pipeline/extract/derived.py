"""Figures the text computes, as drafts: a memory bandwidth from bus width and data rate (384-bit × 21Gbps), an NVLink
link count (12条NVLink链路，每条50GB/s), and what a model needs (70B模型FP16约需140GB显存) and whether that fits on
the card named (一张24GB的卡放不下).

Attributes:
- ``derived_bandwidth``: the text gives a card's bus width and per-pin data rate; the claim is the data rate (its
  span), its value the bandwidth they make (bus ÷ 8 × rate, GB/s). The bus width and a stated bandwidth are checked
  by their own claims; this one checks the rate, the figure no other claim does.
- ``nvlink_links``: how many NVLink links a card has, with the per-link rate and the total when the text gives them.
- ``memory_need``: a model's memory need (GB); value the stated need, ``detail`` the number format it is stored in;
  computed as parameters × bytes per parameter (FP32 4, FP16/BF16 2, INT8/FP8 1, INT4 0.5), weights only unless
  the text names KV cache, activations or training state.
- ``fits_on_card``: value ``fits`` or ``no_fit``, of the card (or the card size) the text names.

Where the text gives too little (no number format, no card), the claim is made and the checker says
``unverifiable`` with reason ``underspecified``.
"""

from __future__ import annotations

import re

from ..knowledge.reference import Reference
from ..lexicon.scanning import Gated, GroupScan
from ..records import Mention, Qualifier, Scope
from . import cues
from .draft import Draft
from .quantities import Quantity, find_quantities, parse_number
from .subjects import DocState, Subject, as_subject, multiplier_of, resolve

LEX = cues.LEX
DERIVED_ATTRIBUTES = frozenset({"derived_bandwidth", "nvlink_links", "memory_need", "fits_on_card"})

_CN = "零一二两三四五六七八九十百千"
# a model size: 70B, 7b, 1.8T, 700亿参数, 七十亿参数
_PARAMS = re.compile(rf"(?<![A-Za-z0-9.])(?P<n>\d+(?:\.\d+)?|[{_CN}]+)\s*"
                     r"(?:(?P<u>[BbTt])(?![A-Za-z0-9/])|(?P<cn>亿|千亿|万亿)\s*(?:个)?\s*(?:参数|参数量)?)")
_MODEL = Gated(LEX.regex("model_word"))
_BIT_RATE = Gated(re.compile(r"Gb(?:ps|/s)", re.I))
_BYTES = GroupScan(LEX.groups("bytes_per_param"))
_OVERHEAD = LEX.regex("overhead_word")
_NEED = re.compile(rf"(?:{LEX.alt('need_word')})\s*(?:的显存|显存)?\s*(?:为|是|达到?)?\s*$")
_FITS = GroupScan(LEX.groups("fits_word"))
_CARD_SIZE = re.compile(r"(?P<n>\d+(?:\.\d+)?)\s*GB?\s*(?:显存)?\s*的\s*(?:显卡|卡|GPU|显存)")
_LINKS = re.compile(r"(?P<n>\d+|[一二两三四五六七八九十]+)\s*(?:条|个|组|路)\s*(?:第[一二三四五六七八九\d]代)?\s*"
                    r"NVLink\s*(?:\d(?:\.\d)?)?\s*(?:链路|连接|通道|link[s]?)", re.I)
_PER_LINK = re.compile(r"每\s*(?:条|个|路)(?:链路|连接|通道)?\s*(?:的)?\s*(?:带宽)?\s*(?:为|是|达|有)?\s*$")
_TOTAL = re.compile(r"(?:总|合计|共|一共|总共|总计)\s*(?:带宽|互联带宽|互连带宽)?\s*(?:为|是|达|达到|约|约为)?\s*$")


def derived_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference) -> list[Draft]:
    """Computed figures in one sentence (normalised text, sentence-local mentions)."""
    rate = _BIT_RATE.search(text) is not None
    link = "nvlink" in text.lower()
    model = _MODEL.search(text) is not None
    if not (rate or link or model):
        return []  # the common sentence: nothing computed, no second pass over its numbers
    quantities = find_quantities(text)
    out = _bandwidth_drafts(text, mentions, state, quantities) if rate else []
    out += _link_drafts(text, mentions, state, quantities) if link else []
    out += _model_drafts(text, mentions, state, quantities) if model else []
    return out


# ---- bus width × data rate ------------------------------------------------------------------------------------


def _bandwidth_drafts(text: str, mentions: list[Mention], state: DocState,
                      quantities: list[Quantity]) -> list[Draft]:
    buses = [q for q in quantities if (q.kind == "bits" and cues.has_cue(cues.BUS_CUE, text, q, right=12))
             or (q.kind == "bits" and q.written_unit.strip(" -").lower() == "bit" and 64 <= q.low <= 8192)]
    rates = [q for q in quantities if q.kind == "rate" and q.in_bits and q.written_unit.lower().startswith("gb")
             and 0.5 <= q.low * 8 <= 40]  # a per-pin rate, 0.5-40 Gbps
    if len(buses) != 1 or len(rates) != 1:
        return []
    bus, rate = buses[0], rates[0]
    if cues.NOT_THE_CARDS_RATE.search(text[:rate.start] + " " * (rate.end - rate.start) + text[rate.end:]):
        return []  # a network or storage rate, not the memory's
    if abs(bus.start - rate.start) > 40:
        return []
    owners = resolve(text, min(bus.start, rate.start), mentions, state, end=max(bus.end, rate.end))
    if len(owners) != 1:
        return []
    gbps = round(rate.low * 8, 4)
    computed = round(bus.low / 8 * gbps, 2)
    stated = next((q for q in quantities if q.kind == "rate" and not q.in_bits and q.start > max(bus.end, rate.end)),
                  None)
    extra: dict[str, object] = {"bus_width": int(bus.low), "data_rate_gbps": gbps}
    if stated is not None:
        extra["stated_bandwidth"] = stated.low
    owner = owners[0]
    return [Draft(rate.start, rate.end, owner, "derived_bandwidth", computed, "GB/s", rate.qualifier, 1,
                  "bus_width×data_rate", owner.variant, extra=extra)]


# ---- NVLink links ------------------------------------------------------------------------------------------------


def _link_drafts(text: str, mentions: list[Mention], state: DocState, quantities: list[Quantity]) -> list[Draft]:
    """"A100有12条NVLink链路，每条50GB/s，总带宽600GB/s"."""
    hit = _LINKS.search(text)
    if hit is None:
        return []
    n = parse_number(hit.group("n"))
    if n is None or not 1 <= n <= 72:
        return []
    cs, _ce = cues.clause_bounds(text, hit.start())
    if cues.negated(text[cs:hit.start()]) or cues.LEX.regex("previous_gen").search(text[cs:hit.start()]):
        return []
    owners = [s for s in resolve(text, hit.start(), mentions, state) if s.mention is None
              or s.mention.kind == "product"]
    if len(owners) != 1:
        return []
    extra: dict[str, object] = {}
    for q in quantities:
        if q.kind != "rate" or q.start < hit.end():
            continue
        if _PER_LINK.search(text[max(0, q.start - 12):q.start]) and "per_link" not in extra:
            extra["per_link"] = q.low
        elif _TOTAL.search(text[max(0, q.start - 12):q.start]) and "total" not in extra:
            extra["total"] = q.low
    i, j = text.rfind("单向", 0, len(text)), text.rfind("双向", 0, len(text))
    if i != -1 or j != -1:
        extra["direction"] = "单向" if i > j else "双向"
    return [Draft(hit.start(), hit.end(), owners[0], "nvlink_links", int(n), None, Qualifier.EXACT, 1, "NVLink",
                  owners[0].variant, extra=extra)]


# ---- model memory needs ------------------------------------------------------------------------------------------


def model_params(text: str) -> tuple[re.Match[str], float] | None:
    """The model size a sentence speaks of (70B, 700亿参数), in parameters, when the sentence is about a model."""
    for hit in _PARAMS.finditer(text):
        n = parse_number(hit.group("n"))
        if n is None or n <= 0:
            continue
        if hit.group("u"):
            near = text[max(0, hit.start() - 12):hit.end() + 12]
            if not _MODEL.pattern.search(near):
                continue
            scale = 1e9 if hit.group("u").lower() == "b" else 1e12
        else:
            scale = {"亿": 1e8, "千亿": 1e11, "万亿": 1e12}[hit.group("cn")]
            if not re.search(r"参数|模型", text[hit.end() - 3:hit.end() + 6]):
                continue
        params = n * scale
        if 1e8 <= params <= 1e13:
            return hit, params
    return None


def bytes_per_param(text: str) -> tuple[float, str] | None:
    """The number format the weights are stored in (FP16 → 2 bytes), as the sentence names it."""
    found = [(m.start(), float(value), m.group(0)) for value, m in _BYTES.hits(text)]
    if not found:
        return None
    if len({v for _s, v, _w in found}) > 1:
        return None  # "FP16和INT8": which one is not clear
    _start, value, word = min(found)
    return value, word


def _model_drafts(text: str, mentions: list[Mention], state: DocState, quantities: list[Quantity]) -> list[Draft]:
    model = model_params(text)
    if model is None:
        return []
    hit, params = model
    fmt = bytes_per_param(text)
    base: dict[str, object] = {"params": params}
    if fmt is not None:
        base["bytes_per_param"], base["format"] = fmt
    nobody = Subject("", hit.group(0).strip(), None, 1, "explicit")
    out: list[Draft] = []
    need: Quantity | None = None
    for q in quantities:
        if q.kind != "size" or q.start < hit.start() or q.unit != "GB":
            continue
        cs, _ce = cues.clause_bounds(text, q.start)
        if _NEED.search(text[max(cs, q.start - 10):q.start]):
            need = q
            break
    # KV cache, activations or training state named with the need (not in a later clause) are part of it
    _cs, upto = cues.clause_bounds(text, need.start) if need is not None else (0, len(text))
    base["overhead"] = bool(_OVERHEAD.search(text, 0, upto))
    if need is not None:
        value = [need.low, need.high] if need.qualifier is Qualifier.RANGE else need.low
        out.append(Draft(need.start, need.end, nobody, "memory_need", value, "GB", need.qualifier, 1,
                         str(base.get("format") or "") or None, extra=dict(base)))
    for word, f in _FITS.hits(text):
        if f.start() < hit.start():
            continue
        card = _fits_card(text, f.start(), mentions, state)
        if card is None:
            continue
        subject, size, cards = card
        extra = {**base, **({"card_size": size} if size else {}), **({"cards": cards} if cards > 1 else {})}
        if need is not None:
            extra["need"] = need.low if need.qualifier is not Qualifier.RANGE else need.high
        out.append(Draft(f.start(), f.end(), subject, "fits_on_card", word, None, Qualifier.EXACT, cards,
                         str(base.get("format") or "") or None, subject.variant,
                         scope=Scope.SYSTEM if cards > 1 else Scope.PRODUCT, extra=extra))
    return out


def _fits_card(text: str, pos: int, mentions: list[Mention],
               state: DocState) -> tuple[Subject, float | None, int] | None:
    """The card a fits/does-not-fit phrase is said of: one named in its clause (一张H100放不下, RTX 4090的24GB放得下),
    or a card size (24GB的卡放不下)."""
    cs, _ce = cues.clause_bounds(text, pos)
    clause = text[cs:pos]
    size = _CARD_SIZE.search(clause)
    cards = [m for m in mentions if m.kind == "product" and cs <= m.start < pos]
    count = 1
    n = re.search(r"(?P<n>\d+|[一二两三四五六七八九十])\s*(?:张|块|个)", clause)
    if n:
        count = int(parse_number(n.group("n")) or 1)
    if cards:
        m = cards[-1]
        return as_subject(text, m, "clause"), float(size.group("n")) if size else None, max(count,
                                                                                              multiplier_of(text, m))
    if size:
        return Subject("", size.group(0), None, 1, "explicit"), float(size.group("n")), count
    return None
