"""The rules of the relation tables (pipeline/knowledge/facts.py): known ids and values, the breadth the tables
promise (every NVIDIA and AMD architecture against every feature, every product against the product features, every
term with its expansion), and no contradiction with the other tables (architectures.csv's ``introduced``, the
precisions, specs and systems tables, chips.csv's dies and SMs, the lineage's own order)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from ...normalize import normalize_key
from ..facts import (
    ARCHITECTURE_STATUSES,
    COMPONENT_KINDS,
    DIE_KINDS,
    HAS,
    HAS_NOT,
    LINK_PROPERTIES,
    POSITIONS,
    PRODUCT_STATUSES,
    RELATIONS,
)
from .ge import _Check, _computed, _in_set, _matches, _records, _row_messages
from .reference_rules import NUMBER, _common_checks, _items, _Tables

if TYPE_CHECKING:
    import pandas as pd

# the features every product is described against (they vary between products of one architecture)
PRODUCT_FEATURES = ("NVLink", "SLI", "MIG", "FP8", "FP64 rate", "FP16 rate", "ECC", "2:4 sparsity",
                    "Transformer Engine", "passive cooling")
# the vendors whose every architecture is described against every feature
BREADTH_VENDORS = ("nvidia", "amd")
# precisions.csv's precision -> the feature that says the same (for NVIDIA architectures; "*" for every vendor)
PRECISION_FEATURES = {("TF32", "*"): "TF32", ("BF16", "*"): "BF16", ("FP8", "*"): "FP8", ("FP6", "*"): "FP6",
                      ("FP4", "*"): "FP4", ("SPARSITY", "*"): "2:4 sparsity", ("INT8", "nvidia"): "INT8 Tensor Core",
                      ("INT4", "nvidia"): "INT4 Tensor Core"}
FEATURE_CATEGORIES = ("programming", "graphics", "precision", "reliability", "memory", "power", "clocks",
                      "compute", "interconnect", "partitioning", "security", "media", "packaging")
_RATE = re.compile(r"^\d+:\d+$")


def _frame(ref: _Tables, name: str) -> list[Mapping[str, str]]:
    return _records(ref.all[name]) if ref.has(name) else []


def _architectures(ref: _Tables) -> dict[str, Mapping[str, str]]:
    return {r["architecture_id"]: r for r in _frame(ref, "architectures")}


def _features(ref: _Tables) -> dict[str, Mapping[str, str]]:
    return {r["feature"]: r for r in _frame(ref, "features")}


def _feature_of(ref: _Tables) -> dict[str, str]:
    """Normalised name or alias -> feature."""
    out: dict[str, str] = {}
    for name, row in _features(ref).items():
        for alias in (name, *_items(row.get("aliases", ""))):
            out.setdefault(normalize_key(alias), name)
    return out


def _predecessors(ref: _Tables, kind: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for r in _frame(ref, "lineage"):
        if r["kind"] == kind:
            out.setdefault(r["successor"], set()).add(r["item"])
    return out


def _ancestors(arch: str, before: Mapping[str, set[str]]) -> set[str]:
    seen: set[str] = set()
    todo = [arch]
    while todo:
        for p in before.get(todo.pop(), ()):
            if p not in seen:
                seen.add(p)
                todo.append(p)
    return seen


# ---- features.csv


def _feature_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    seen: dict[str, str] = {}
    messages = []
    for r in _records(frame):
        clashes = []
        for alias in (r["feature"], *_items(r["aliases"])):
            first = seen.setdefault(normalize_key(alias), r["feature"])
            if first != r["feature"]:
                clashes.append(f"name {alias!r} also names the feature {first!r}")
        messages.append("; ".join(clashes))
    return [*_common_checks(frame, "features"), _matches("feature", r"\S", "feature must not be empty"),
            _in_set("category", FEATURE_CATEGORIES, "category must be one of " + ", ".join(FEATURE_CATEGORIES)),
            _computed(frame, "feature_names", messages, "aliases")]


# ---- architecture_features.csv


def _architecture_feature_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    checks = [*_common_checks(frame, "architecture_features"),
              _in_set("status", ARCHITECTURE_STATUSES, "status must be one of " + ", ".join(ARCHITECTURE_STATUSES)),
              _Check("compound_unique", "architecture_id", "more than one row for (architecture_id, feature)",
                     "architecture_id,feature", arg=("architecture_id", "feature"))]
    archs, features = _architectures(ref), _features(ref)
    if archs:
        checks.append(_in_set("architecture_id", sorted(archs), "architecture_id must exist in architectures.csv"))
    if features:
        checks.append(_in_set("feature", sorted(features), "feature must be listed in features.csv"))
    rows = _records(frame)
    status = {(r["architecture_id"], r["feature"]): r["status"] for r in rows}
    before = _predecessors(ref, "architecture")
    introduced = _introduced_column(ref)
    precisions = _precision_support(ref)
    messages = []
    for r in rows:
        arch, feature, st = r["architecture_id"], r["feature"], r["status"]
        found = []
        if (arch, feature) in introduced and st != "introduced":
            found.append(f"architectures.csv lists {feature!r} in {arch}'s introduced column, but the status is {st}")
        earlier = sorted(a for a in _ancestors(arch, before) if status.get((a, feature)) in HAS)
        if st == "introduced" and earlier:
            found.append(f"introduced in {arch}, but the earlier {', '.join(earlier)} already had it")
        if st == "removed" and not any(status.get((p, feature)) in HAS for p in before.get(arch, ())):
            found.append(f"removed in {arch}, but no predecessor of it had {feature!r}")
        said = precisions.get((arch, feature))
        if said is not None and st != "unknown" and (st in HAS) != said:
            found.append(f"precisions.csv says {arch} {'supports' if said else 'lacks'} it, the status is {st}")
        messages.append("; ".join(found))
    checks.append(_computed(frame, "agrees", messages, "status"))
    missing = _missing_architecture_rows(archs, features, status)
    checks.append(_computed(frame, "breadth", [missing if i == 0 else "" for i in range(len(rows))], "architecture_id"))
    return checks


def _introduced_column(ref: _Tables) -> set[tuple[str, str]]:
    """(architecture, feature) pairs architectures.csv's ``introduced`` column states, for the features named in
    features.csv (generations such as NVLink 4.0 are not features of that table)."""
    names = _feature_of(ref)
    out = set()
    for arch, row in _architectures(ref).items():
        for item in _items(row.get("introduced", "")):
            feature = names.get(normalize_key(item))
            if feature:
                out.add((arch, feature))
    return out


def _precision_support(ref: _Tables) -> dict[tuple[str, str], bool]:
    by_name = {r["name"]: (a, r.get("vendor", "")) for a, r in _architectures(ref).items()}
    out = {}
    for r in _frame(ref, "precisions"):
        arch, vendor = by_name.get(r["architecture"], ("", ""))
        feature = PRECISION_FEATURES.get((r["precision"], "*")) or PRECISION_FEATURES.get((r["precision"], vendor))
        if arch and feature:
            out[(arch, feature)] = r["supported"] == "true"
    return out


def _missing_architecture_rows(archs: Mapping[str, Mapping[str, str]], features: Mapping[str, object],
                               status: Mapping[tuple[str, str], str]) -> str:
    missing = [f"{a}/{f}" for a, row in archs.items() if row.get("vendor") in BREADTH_VENDORS for f in features
               if (a, f) not in status]
    return f"{len(missing)} (architecture, feature) pairs have no row, e.g. {', '.join(missing[:5])}" if missing else ""


# ---- product_features.csv


def _product_feature_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    checks = [*_common_checks(frame, "product_features"),
              _in_set("status", PRODUCT_STATUSES, "status must be one of " + ", ".join(PRODUCT_STATUSES)),
              _in_set("feature", PRODUCT_FEATURES, "feature must be one of " + ", ".join(PRODUCT_FEATURES)),
              _Check("compound_unique", "product_id", "more than one row for (product_id, variant, feature)",
                     "product_id,variant,feature", arg=("product_id", "variant", "feature"))]
    products = {r["product_id"]: r for r in _frame(ref, "products")}
    if products:
        checks.append(_in_set("product_id", sorted(products), "product_id must exist in products.csv"))
    specs = _frame(ref, "specs")
    variants = {(r["product_id"], r["variant"]) for r in specs}
    mig = {r["product_id"]: r["value"] for r in specs if r["attribute"] == "mig_instances"}
    nvlink = {r["product_id"] for r in specs if r["attribute"] == "interconnect_bandwidth" and r["scope"] == "NVLink"}
    arch_ids = {r["name"]: a for a, r in _architectures(ref).items()}
    arch_status = {(r["architecture_id"], r["feature"]): r["status"] for r in _frame(ref, "architecture_features")}
    rows = _records(frame)
    messages = []
    for r in rows:
        pid, feature, st, value = r["product_id"], r["feature"], r["status"], r["value"].strip()
        found = []
        if r["variant"] != "base" and (pid, r["variant"]) not in variants:
            found.append(f"variant {r['variant']!r} is not one specs.csv has for {pid}")
        if feature == "MIG" and st == "yes" and not value.isdigit():
            found.append("MIG yes needs the number of instances in value")
        if feature == "MIG" and pid in mig and r["variant"] == "base" and (st != "yes" or value != mig[pid].strip()):
            found.append(f"specs.csv gives {pid} {mig[pid]} MIG instances")
        if feature in ("FP64 rate", "FP16 rate") and st == "yes" and not _RATE.match(value):
            found.append(f"{feature} yes needs the ratio to FP32 in value (1:2, 1:64, 2:1)")
        if feature == "NVLink" and r["variant"] == "base" and pid in nvlink and st != "yes":
            found.append(f"specs.csv has an NVLink bandwidth for {pid}")
        arch = arch_ids.get(products.get(pid, {}).get("architecture", ""))
        said = arch_status.get((arch, feature)) if arch else None
        if said in HAS_NOT and st == "yes":
            found.append(f"{pid} has {feature!r} but its architecture {arch} is {said}")
        if said in ("introduced", "supported") and st == "no" and feature in ("FP8", "Transformer Engine"):
            found.append(f"{pid} lacks {feature!r} but its architecture {arch} is {said}")
        messages.append("; ".join(found))
    checks.append(_computed(frame, "agrees", messages, "status"))
    have = {(r["product_id"], r["feature"]) for r in rows if r["variant"] == "base"}
    missing = [f"{p}/{f}" for p in products for f in PRODUCT_FEATURES if (p, f) not in have]
    note = f"{len(missing)} (product, feature) pairs have no base row, e.g. {', '.join(missing[:5])}" if missing else ""
    checks.append(_computed(frame, "breadth", [note if i == 0 else "" for i in range(len(rows))], "product_id"))
    return checks


# ---- lineage.csv


def _known_names(ref: _Tables) -> set[str]:
    names: set[str] = set()
    for table in ("products", "series", "chips", "architectures", "systems", "terms", "links"):
        for r in _frame(ref, table):
            names.update(normalize_key(n) for n in (r.get("name", ""), *_items(r.get("aliases", ""))) if n)
    return names


def _lineage_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    checks = [*_common_checks(frame, "lineage"),
              _in_set("kind", ("architecture", "product"), "kind must be architecture or product")]
    archs = _architectures(ref)
    products = {r["product_id"]: r for r in _frame(ref, "products")}
    names = _known_names(ref)

    def year(kind: str, item: str) -> int | None:
        cell = (archs if kind == "architecture" else products).get(item, {}).get("launch_year", "")
        return int(cell) if str(cell).isdigit() else None

    messages = []
    for r in _records(frame):
        kind, found = r["kind"], []
        for column in ("item", "successor"):
            item = r[column]
            if kind == "architecture" and archs and item not in archs:
                found.append(f"{column} {item!r} is not an architecture_id of architectures.csv")
            if kind == "product" and item not in products and normalize_key(item) in names:
                found.append(f"{column} {item!r} is a name the tables know: write its id")
        if r["item"] == r["successor"]:
            found.append("an item cannot succeed itself")
        a, b = year(kind, r["item"]), year(kind, r["successor"])
        if a is not None and b is not None and b < a:
            found.append(f"the successor launched in {b}, before {r['item']} ({a})")
        messages.append("; ".join(found))
    checks.append(_computed(frame, "known", messages, "item"))
    return checks


# ---- composition.csv


def _chips_of(ref: _Tables) -> dict[str, list[Mapping[str, str]]]:
    """Product id -> its chips (products.csv's chip column by name or alias, and chips.csv's products list)."""
    chips = _frame(ref, "chips")
    by_name = {normalize_key(n): c for c in chips for n in (c["name"], *_items(c.get("aliases", ""))) if n}
    out: dict[str, list[Mapping[str, str]]] = {}
    for p in _frame(ref, "products"):
        found = [by_name[k] for k in (normalize_key(n) for n in _items(p["chip"].replace("/", "|"))) if k in by_name]
        found += [c for c in chips if p["product_id"] in _items(c.get("products", "")) and c not in found]
        out[p["product_id"]] = found
    return out


def _composition_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    checks = [*_common_checks(frame, "composition"),
              _in_set("kind", COMPONENT_KINDS, "kind must be one of " + ", ".join(COMPONENT_KINDS)),
              _matches("count", r"^\d+$", "count must be a whole number")]
    wholes = {r["product_id"] for r in _frame(ref, "products")} | {r["system_id"] for r in _frame(ref, "systems")} \
        | {r["chip_id"] for r in _frame(ref, "chips")}
    systems = {r["system_id"]: r for r in _frame(ref, "systems")}
    chips = _chips_of(ref)
    rows = _records(frame)
    counts: dict[tuple[str, str], int] = {}
    for r in rows:
        if r["count"].isdigit():
            key = (r["whole"], r["kind"])
            counts[key] = counts.get(key, 0) + int(r["count"])
    messages = []
    for r in rows:
        whole, kind, found = r["whole"], r["kind"], []
        if wholes and whole not in wholes:
            found.append(f"whole {whole!r} is not a product, system or chip id")
        system = systems.get(whole)
        column = {"gpu": "gpu_count", "cpu": "cpu_count", "switch_chip": "nvswitch_count"}.get(kind)
        if system is not None and column and system.get(column, "").strip() and r["count"].isdigit() and \
                int(float(system[column])) != int(r["count"]):
            found.append(f"systems.csv gives {whole} {system[column]} ({column})")
        if kind in DIE_KINDS and whole in chips and r["variant"] == "base":
            found += _die_message(whole, counts, chips[whole])
        messages.append("; ".join(found))
    checks.append(_computed(frame, "agrees", messages, "count"))
    return checks


def _die_message(whole: str, counts: Mapping[tuple[str, str], int], chips: list[Mapping[str, str]]) -> list[str]:
    """A product's dies do not exceed its chip's dies_per_package (chips.csv counts the package of the chip's
    largest product, compute dies or all dies; a product may use fewer: MI210 is one of MI250X's two GCDs)."""
    gpu_chips = [c for c in chips if c.get("kind", "") != "CPU"]
    said = gpu_chips[0].get("dies_per_package", "").strip() if len(gpu_chips) == 1 else ""
    if not NUMBER.fullmatch(said):
        return []
    expected = int(float(said))
    compute = counts.get((whole, "compute_die"), 0) + counts.get((whole, "die"), 0)
    if compute <= expected:
        return []
    return [f"chips.csv gives {gpu_chips[0]['chip_id']} {expected} die(s) per package; the rows count {compute} "
            f"compute dies"]


# ---- die_positions.csv


def _position_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    checks = [*_common_checks(frame, "die_positions"), _in_set("position", POSITIONS, "position must be one of " +
                                                                ", ".join(POSITIONS))]
    chips = {r["chip_id"]: r for r in _frame(ref, "chips")}
    products = {r["product_id"] for r in _frame(ref, "products")}
    of = _chips_of(ref)
    enabled: dict[str, set[float]] = {}
    for r in _frame(ref, "specs"):
        if r["attribute"] in ("sm_count", "compute_units") and NUMBER.fullmatch(r["value"]):
            enabled.setdefault(r["product_id"], set()).add(float(r["value"]))
    messages = []
    for r in _records(frame):
        subject, position, found = r["subject"], r["position"], []
        if subject in chips:
            if position not in ("flagship", "not_flagship"):
                found.append("a chip is flagship or not_flagship")
        elif subject in products:
            if position not in ("full_die", "cut_down"):
                found.append("a product is full_die or cut_down")
            found += _enabled_message(subject, position, enabled.get(subject, set()), of.get(subject, []))
        elif chips or products:
            found.append(f"subject {subject!r} is not a chip or product id")
        messages.append("; ".join(found))
    checks.append(_computed(frame, "agrees", messages, "position"))
    return checks


def _enabled_message(pid: str, position: str, enabled: set[float], chips: list[Mapping[str, str]]) -> list[str]:
    """full_die / cut_down agrees with specs.csv's enabled SMs (CUs) and the chip's full count."""
    if len(chips) != 1 or not enabled:
        return []
    full_cell = chips[0].get("sms", "").strip() or chips[0].get("compute_units", "").strip()
    dies = chips[0].get("dies_per_package", "").strip()
    if not NUMBER.fullmatch(full_cell):
        return []
    # a chips.csv row counts one die or the whole package (Aqua Vanjaram: one XCD; Navi 32: the GCD's CUs)
    full = {float(full_cell), float(full_cell) * (float(dies) if NUMBER.fullmatch(dies) else 1)}
    if position == "full_die" and not enabled <= full:
        said = "/".join(f"{n:g}" for n in sorted(full))
        return [f"specs.csv enables {sorted(enabled)} of {chips[0]['chip_id']}'s {said} units"]
    if position == "cut_down" and all(n >= max(full) for n in enabled):
        return [f"specs.csv enables all {max(full):g} units of {chips[0]['chip_id']}"]
    return []


# ---- terms


def _expansion_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    checks = [*_common_checks(frame, "term_expansions"), _matches("expansion", r"\S", "expansion must not be empty "
                                                                  "(write - for a name that is no abbreviation)")]
    terms = {r["term_id"] for r in _frame(ref, "terms")}
    links = {r["link_id"] for r in _frame(ref, "links")}
    rows = _records(frame)
    seen: dict[str, int] = {}
    messages = []
    for i, r in enumerate(rows):
        found = []
        if r["term"] and r["term"] not in terms | links:
            found.append(f"term {r['term']!r} is not a term_id of terms.csv or a link_id of links.csv")
        first = seen.setdefault(normalize_key(r["abbreviation"]), i)
        if first != i:
            found.append(f"abbreviation {r['abbreviation']!r} repeats row {first}")
        messages.append("; ".join(found))
    checks.append(_computed(frame, "known", messages, "term"))
    covered = {r["term"] for r in rows}
    missing = sorted(terms - covered)
    note = f"terms without an expansion row: {', '.join(missing)}" if missing else ""
    checks.append(_computed(frame, "breadth", [note if i == 0 else "" for i in range(len(rows))], "term"))
    return checks


def _relation_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    names = {normalize_key(r["abbreviation"]) for r in _frame(ref, "term_expansions")}
    for r in _frame(ref, "terms"):
        names.update(normalize_key(n) for n in (r["name"], *_items(r["aliases"])))
    messages = _row_messages(frame, lambda r: "; ".join(
        f"{c} {r[c]!r} is neither an abbreviation of term_expansions.csv nor a term" for c in ("term", "other")
        if names and normalize_key(r[c]) not in names))
    return [*_common_checks(frame, "term_relations"),
            _in_set("relation", RELATIONS, "relation must be one of " + ", ".join(RELATIONS)),
            _computed(frame, "known", messages, "term")]


# ---- number formats, links and memory, revisions


def _format_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    def message(r: Mapping[str, str]) -> str:
        cells = [r[c] for c in ("bits", "sign_bits", "exponent_bits", "mantissa_bits")]
        if not all(c.isdigit() for c in cells):
            return "bits, sign_bits, exponent_bits and mantissa_bits must be whole numbers"
        bits, sign, exponent, mantissa = map(int, cells)
        if exponent and sign + exponent + mantissa != bits:
            return f"{sign} + {exponent} + {mantissa} bits is not {bits}"
        return "" if NUMBER.fullmatch(r["max_normal"]) or re.fullmatch(r"[\d.]+e\d+", r["max_normal"]) else \
            "max_normal must be a number"
    return [*_common_checks(frame, "number_formats"),
            _in_set("has_infinity", ("true", "false"), "has_infinity must be true or false"),
            _in_set("has_nan", ("true", "false"), "has_nan must be true or false"),
            _computed(frame, "bits", _row_messages(frame, message), "bits")]


def _link_fact_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    known = {r["term_id"] for r in _frame(ref, "terms")} | {r["link_id"] for r in _frame(ref, "links")} | \
        {r["memory_id"] for r in _frame(ref, "memory")}
    messages = _row_messages(frame, lambda r: "" if not known or r["subject"] in known else
                             f"subject {r['subject']!r} is not a term, link or memory id")
    return [*_common_checks(frame, "link_facts"),
            _in_set("property", LINK_PROPERTIES, "property must be one of " + ", ".join(LINK_PROPERTIES)),
            _computed(frame, "known", messages, "subject")]


def _revision_checks(frame: pd.DataFrame, ref: _Tables) -> list[_Check]:
    specs = {(r["product_id"], r["variant"], r["attribute"], r["scope"]): r["value"] for r in _frame(ref, "specs")}

    def message(r: Mapping[str, str]) -> str:
        if not (NUMBER.fullmatch(r["announced"]) and NUMBER.fullmatch(r["revised"])):
            return "announced and revised must be numbers"
        if float(r["announced"]) == float(r["revised"]):
            return "announced and revised are the same figure"
        current = specs.get((r["product_id"], r["variant"], r["attribute"], r["scope"]))
        if specs and current is None:
            return "specs.csv has no row for this product, variant, attribute and scope"
        if current is not None and NUMBER.fullmatch(current) and float(current) != float(r["revised"]):
            return f"specs.csv gives {current}, not the revised {r['revised']}"
        return ""
    return [*_common_checks(frame, "revisions"),
            _matches("announced_date", r"^\d{4}(-\d{2})?$", "announced_date must be YYYY or YYYY-MM"),
            _matches("revised_date", r"^\d{4}(-\d{2})?$", "revised_date must be YYYY or YYYY-MM"),
            _computed(frame, "agrees", _row_messages(frame, message), "revised")]


FACT_CHECKS: dict[str, Callable[[pd.DataFrame, _Tables], list[_Check]]] = {
    "features": _feature_checks, "architecture_features": _architecture_feature_checks,
    "product_features": _product_feature_checks, "lineage": _lineage_checks, "composition": _composition_checks,
    "die_positions": _position_checks, "term_expansions": _expansion_checks, "term_relations": _relation_checks,
    "number_formats": _format_checks, "link_facts": _link_fact_checks, "revisions": _revision_checks,
}
