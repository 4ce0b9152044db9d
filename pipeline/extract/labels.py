"""A figure's labels as claims of their own (``figure_label``): the precision written in brackets after a
throughput figure ("14.2 TFLOPS (FP16)"), its sparsity label ("624 TFLOPS（稠密）"), and a throughput written in a
bandwidth's unit ("FP16性能1 TB/s"). Value: the label (``FP16``, ``dense``, ``sparse``, the unit); ``detail``:
``precision``, ``sparsity`` or ``unit``; ``extra``: the figure (``figure``, ``figure_attribute``, ``figure_unit``).
The label is what is judged: a figure that is another precision's or the other sparsity's is labelled wrongly.
"""

from __future__ import annotations

import re

from ..knowledge.reference import THROUGHPUT_ATTRIBUTES, Reference
from ..lexicon.scanning import Gated
from ..records import Mention
from . import cues
from .draft import Draft
from .quantities import parse_number
from .subjects import DocState, Subject, resolve

LEX = cues.LEX
LABEL_ATTRIBUTES = frozenset({"figure_label"})
_FORMAT = LEX.regex("precision_name")
_PRECISION_LABEL = re.compile(rf"\s*[（(]\s*(?P<label>{_FORMAT.pattern})\s*[)）]", re.I)
_SPARSITY_LABEL = re.compile(rf"\s*[（(]\s*(?P<label>{LEX.alt('sparsity')})\s*[)）]", re.I)
# a throughput cue with a bandwidth's unit: "FP16/BF16性能1 TB/s"
_THROUGHPUT_WORD = Gated(re.compile(rf"(?:{_FORMAT.pattern})\s*(?:/\s*(?:{_FORMAT.pattern})\s*)*(?:\s*(?:Tensor)?\s*"
                                    rf"(?:性能|算力|计算能力|峰值))", re.I))
_RATE_UNIT = re.compile(r"(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>[TGP]B/s|[TGP]Bps)(?![A-Za-z])", re.I)
_BANDWIDTH_WORD = re.compile(r"带宽|bandwidth|传输|吞吐|互联|互连|NVLink|PCIe|显存|内存", re.I)


def label_drafts(text: str, mentions: list[Mention], state: DocState, ref: Reference,
                 drafts: list[Draft]) -> list[Draft]:
    """Label claims for the throughput figures of one sentence, and throughputs in a bandwidth unit."""
    out: list[Draft] = []
    for d in drafts:
        if d.attribute not in THROUGHPUT_ATTRIBUTES or not isinstance(d.value, (int, float)):
            continue
        for pattern, kind in ((_PRECISION_LABEL, "precision"), (_SPARSITY_LABEL, "sparsity")):
            hit = pattern.match(text, d.end)
            if hit is None:
                continue
            word = hit.group("label")
            value = word.upper() if kind == "precision" else (LEX.value_of("sparsity", word) or word)
            out.append(Draft(hit.start("label"), hit.end("label"), d.subject, "figure_label", value, None,
                             detail=kind, variant=d.variant, scope=d.scope, scope_detail=d.scope_detail,
                             extra={"figure": d.value, "figure_attribute": d.attribute, "figure_unit": d.unit or "",
                                    "figure_text": text[d.start:d.end]}))
    out += _unit_labels(text, mentions, state, drafts)
    return out


def _unit_labels(text: str, mentions: list[Mention], state: DocState, drafts: list[Draft]) -> list[Draft]:
    out: list[Draft] = []
    for cue in _THROUGHPUT_WORD.finditer(text):
        _cs, ce = cues.clause_bounds(text, cue.start())
        pos = cue.end()
        # the figures right after the cue, one after another ("1 TB/s 2 TB/s"): each in a bandwidth's unit
        while (figure := _RATE_UNIT.search(text, pos, ce)) is not None and figure.start() - pos <= 12:
            pos = figure.end()
            if _BANDWIDTH_WORD.search(text, cue.start(), figure.start()):
                break  # the words between say it is a bandwidth after all
            if any(d.start < figure.end() and figure.start() < d.end and d.attribute != "figure" for d in drafts):
                continue
            value = parse_number(figure.group("n"))
            if value is None:
                continue
            # the unit is wrong whoever's figure it is: the owner, if any, only names the figure
            owners = resolve(text, figure.start(), mentions, state)
            owner = Subject(owners[0].ref if owners else "", owners[0].text if owners else "", None, 1, "clause")
            out.append(Draft(figure.start(), figure.end(), owner, "figure_label", figure.group("unit"), None,
                             detail="unit", extra={"figure": value, "figure_unit": figure.group("unit"),
                                                   "figure_text": figure.group(0), "cue": cue.group(0)}))
    return out
