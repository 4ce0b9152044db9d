"""Find products, series, vendors, companies, terms, architectures, chips and links in normalised text.

Patterns come from the reference tables only: product aliases (with any vendor or brand prefix from vendors.csv),
series aliases, vendor aliases, term aliases, architecture and chip names, link aliases.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..normalize import normalize_key
from ..records import Mention
from ..reference import Reference

# written after a model name, these pick a variant: "A100 80GB", "H100 SXM5", "V100 PCIe 32GB"
_VARIANT_TOKEN = r"(?:SXM\d?|PCIe|PCI-E|NVL(?![A-Za-z])|OAM|\d{1,3}\s*G(?:B)?(?![A-Za-z/\d]))"
_VARIANT = re.compile(rf"(?:[\s\-]*{_VARIANT_TOKEN}){{1,3}}", re.IGNORECASE)

# 特斯拉 on its own (not before a model name, which the product pattern takes) is the car company
_COMPANY_FALLBACK = {"特斯拉": "tesla_inc"}


def _alias_regex(alias: str) -> str:
    """An alias as a regex: spaces optional, ASCII ends bounded so P4 does not match inside GP104."""
    parts = [re.escape(p) for p in alias.split()]
    body = r"[\s\-]*".join(parts)
    if alias[:1].isascii() and alias[:1].isalnum():
        body = r"(?<![A-Za-z0-9])" + body
    if alias[-1:].isascii() and alias[-1:].isalnum():
        body = body + r"(?![A-Za-z0-9])"
    return body


def _alternation(aliases: Iterable[str]) -> str:
    uniq = sorted({a for a in aliases if a}, key=lambda a: (-len(a), a))
    return "|".join(_alias_regex(a) for a in uniq)


@dataclass(frozen=True)
class _Entry:
    kind: str
    ref: str


class MentionMatcher:
    """One compiled pattern over every name in the reference; longest name wins at each position."""

    def __init__(self, ref: Reference) -> None:
        self.ref = ref
        self.lookup: dict[tuple[str, str], _Entry] = {}
        product_aliases: list[str] = []
        series_aliases: list[str] = []
        other: list[str] = []

        def add(group: str, alias: str, kind: str, ref_id: str, bucket: list[str]) -> None:
            key = (group, normalize_key(alias))
            if key not in self.lookup:
                self.lookup[key] = _Entry(kind, ref_id)
                bucket.append(alias)

        for p in ref.products.values():
            for a in p.aliases:
                add("product", a, "product", p.product_id, product_aliases)
        for s in ref.series.values():
            for a in (*s.aliases, s.name):
                add("series", a, "series", s.series_id, series_aliases)
        for v in ref.vendors.values():
            for a in (*v.aliases, v.name):
                add("other", a, "company" if not v.makes_gpus else "vendor", v.vendor_id, other)
        for t in ref.terms.values():
            kind = "memory_type" if t.category == "memory" else "term"
            for a in (*t.aliases, t.name):
                add("other", a, kind, t.term_id, other)
        for key, arch in ref.architectures.items():
            add("other", arch, "architecture", arch, other)
            first = arch.split()[0]
            if first != arch and len(first) >= 3:
                add("other", first, "architecture", arch, other)
            _ = key
        for chip in ref.chips.values():
            add("other", chip, "chip", chip, other)
        for link in ref.links.values():
            for a in (*link.aliases, link.name):
                add("other", a, "link", link.link_id, other)
        for alias, company in _COMPANY_FALLBACK.items():
            if company in ref.vendors:
                add("other", alias, "company", company, other)

        prefixes = sorted({a for v in ref.vendors.values() if v.makes_gpus for a in (*v.aliases, *v.brands)},
                          key=lambda a: (-len(a), a))
        prefix = rf"(?:(?:{_alternation(prefixes)})[\s\-]*){{0,2}}" if prefixes else ""
        groups = []
        if series_aliases:
            groups.append(rf"(?P<series>{prefix}(?P<series_alias>{_alternation(series_aliases)}))")
        if product_aliases:
            groups.append(rf"(?P<product>{prefix}(?P<product_alias>{_alternation(product_aliases)}))")
        if other:
            groups.append(rf"(?P<other>{_alternation(other)})")
        self.pattern = re.compile("|".join(groups) or r"(?!x)x", re.IGNORECASE)

    def find(self, text: str, offset: int = 0) -> Iterator[Mention]:
        """Mentions in ``text`` (already normalised), with offsets shifted by ``offset``."""
        for m in self.pattern.finditer(text):
            group = m.lastgroup if m.lastgroup in ("series", "product", "other") else None
            if group is None:
                group = next(g for g in ("series", "product", "other") if m.group(g))
            alias = m.group(f"{group}_alias") if group != "other" else m.group(0)
            entry = self.lookup.get((group, normalize_key(alias)))
            if entry is None:
                continue
            variant = None
            end = m.end()
            if entry.kind == "product":
                v = _VARIANT.match(text, end)
                if v:
                    variant = " ".join(v.group(0).replace("-", " ").split())
            yield Mention(offset + m.start(), offset + end, text[m.start():end], entry.kind, entry.ref, variant)
