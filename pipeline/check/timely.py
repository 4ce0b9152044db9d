"""Claims judged at the article's date (``extra["as_of"]``, from its front matter or a dated heading): "X是最新的
架构" (newest), "某架构只有一款产品" (only one), and a feature said of a vendor's cards as a class (its newest
architecture at that date). Without a date a "newest" claim is ``unverifiable`` (``time_dependent``). Explanations
from the catalogue's templates."""

from __future__ import annotations

from ..config import Tolerance
from ..knowledge.reference import Item, Reference
from ..lexicon.labels import message
from ..records import Check, Claim, Reason, Verdict


def _year(text: str | None) -> int | None:
    try:
        return int(str(text)[:4])
    except ValueError:
        return None


def _launched(item: Item) -> int | None:
    return _year(item.fields.get("launch_year"))


def check_timely(claim: Claim, ref: Reference, tol: Tolerance | None = None) -> Check:
    if claim.attribute == "only_one":
        return _only_one(claim, ref)
    return _newest(claim, ref)


def _newest(claim: Claim, ref: Reference) -> Check:
    subject = claim.subject or ""
    as_of = _year(str(claim.extra.get("as_of") or ""))
    words = {"name": ref.name(subject), "stated": claim.text.strip(), "date": str(claim.extra.get("as_of") or "")}
    if as_of is None:
        return Check(Verdict.UNVERIFIABLE, message("newest.undated", **words), reason=Reason.TIME_DEPENDENT)
    archs = ref.items.get("architecture", {})
    if subject in archs:
        own = archs[subject]
        vendor = own.fields.get("vendor", "")
        peers = [a for a in archs.values() if a.fields.get("vendor") == vendor]
        year = _launched(own)
    elif subject in ref.products:
        nxt = [ref.products[s.successor] for s in ref.relations.successors(subject, "product")
               if s.successor in ref.products]
        peers = []
        year = _year(ref.products[subject].launch_year)
        if not nxt:
            return Check(Verdict.UNVERIFIABLE, message("newest.no_fact", **words), reason=Reason.NO_FACT)
        return _judge(words, year, as_of, [(ref.name(p.product_id), _year(p.launch_year)) for p in nxt], None)
    else:
        return Check(Verdict.UNVERIFIABLE, message("newest.no_fact", **words), reason=Reason.NO_FACT)
    newer = [(a.name, _launched(a)) for a in peers if (_launched(a) or 0) > (year or 0)]
    return _judge(words, year, as_of, newer, own)


def _judge(words: dict[str, str], year: int | None, as_of: int, newer: list[tuple[str, int | None]],
           own: Item | None) -> Check:
    source = (own.source_url, own.source_title) if own is not None else ("", "")
    if year is None or year > as_of:
        return Check(Verdict.UNVERIFIABLE, message("newest.no_fact", **words), reason=Reason.NO_FACT)
    out_by_then = [(n, y) for n, y in newer if y is not None and y < as_of]
    if out_by_then:
        words["newer"] = "、".join(f"{n}（{y}年）" for n, y in out_by_then)
        return Check(Verdict.CONTRADICTED, message("newest.bad", **words), words["newer"], *source)
    if any(y == as_of for _n, y in newer):  # launched the year the article was written: before or after it?
        return Check(Verdict.UNVERIFIABLE, message("newest.same_year", **words), reason=Reason.TIME_DEPENDENT)
    return Check(Verdict.SUPPORTED, message("newest.ok", **words), words["name"], *source)


def _only_one(claim: Claim, ref: Reference) -> Check:
    subject = claim.subject or ""
    arch = ref.items.get("architecture", {}).get(subject)
    words = {"name": ref.name(subject), "stated": claim.text.strip()}
    if arch is None:
        return Check(Verdict.UNVERIFIABLE, message("only_one.no_fact", **words), reason=Reason.NO_FACT)
    names = {arch.name, *arch.aliases}
    products = [p for p in ref.products.values() if p.architecture in names]
    if len(products) < 2:
        return Check(Verdict.UNVERIFIABLE, message("only_one.no_fact", **words), reason=Reason.NO_FACT)
    words["products"] = "、".join(p.name for p in products[:6])
    return Check(Verdict.CONTRADICTED, message("only_one.bad", **words), words["products"], arch.source_url,
                 arch.source_title)


def vendor_now(ref: Reference, vendor: str, as_of: int) -> list[Item]:
    """The vendor's newest architectures launched before the year the text is written (same-year launches may be
    later than the text)."""
    archs = [a for a in ref.items.get("architecture", {}).values() if a.fields.get("vendor") == vendor
             and (_launched(a) or 9999) < as_of]
    if not archs:
        return []
    latest = max(_launched(a) or 0 for a in archs)
    return [a for a in archs if _launched(a) == latest]
