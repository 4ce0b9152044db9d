"""Language knowledge as data: the words that cue an attribute, set a figure's scope, block a figure from being a
spec, hedge it, or relate names to each other. Code keeps the grammar around them (``pipeline.extract.cues``).

Each CSV here has the columns ``role, word, value, example, expect``:
- ``role`` names what the word does (the registry ``ROLES`` lists every role, its file and the values it allows);
- ``word`` is a regular-expression fragment, usually a literal word, matched case-insensitively on normalised text
  (Simplified, half-width); ``@role`` stands for every word of another role (with that role's values when
  ``value`` is ``@``);
- ``value`` is what the word means for its role (an attribute, a qualifier, a scope...), empty when the role has none;
- ``example`` is a sentence written for the row (never one from an article), in which ``word`` occurs;
- ``expect`` says what the extractor makes of the example: ``fragment: key=value, ...`` items separated by ``;``
  (the claim whose text contains ``fragment`` has those fields), or ``fragment: none`` (no claim's text contains it).

Within a role, rows are in priority order: where two words of one role could apply, the earlier row wins.
"""

from __future__ import annotations

import csv
import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .scanning import with_first_chars

LEXICON_DIR = Path(__file__).resolve().parent
COLUMNS = ("role", "word", "value", "example", "expect")

ATTRIBUTE_VALUES = frozenset({
    "tensor_cores", "cuda_cores", "stream_processors", "mig_instances", "cores", "effective_bandwidth",
    "interconnect_bandwidth", "link_bandwidth", "memory_bandwidth", "fp64", "tf32", "fp32", "bf16", "fp16", "fp8",
    "int8", "-", "memory_bus_width", "architecture", "gpu_chip", "memory_type", "memory_size", "tdp", "cache_size",
    "launch_year", "sm_count", "compute_units", "rt_cores", "fp64_cores", "int32_cores", "transistors", "fp4", "fp6",
    "int4",
})
QUALIFIERS = frozenset({"up_to", "approx", "at_least", "at_most"})


@dataclass(frozen=True)
class RoleSpec:
    file: str
    doc: str
    values: frozenset[str] | None = None  # None: any value, frozenset(): no value
    multi: bool = False  # value may list several, "|"-separated


_NONE: frozenset[str] = frozenset()
# what an unread figure is (the claim's detail): a multiple, a share, a count of something, a price...
_FIGURE_KINDS = frozenset({"multiple", "percent", "count", "machines", "gpus", "cpu_cores", "price", "duration",
                           "resolution", "length", "rate", "year", "value", "version", "generation",
                           "comparison", "positioning", "feature"})
ROLES: dict[str, RoleSpec] = {
    # attributes.csv: what a figure is a figure of
    "count_cue": RoleSpec("attributes", "a count's attribute, written after or before the number", ATTRIBUTE_VALUES),
    "unit_count_cue": RoleSpec("attributes", "a count's attribute, only when written right after the number "
                               "(128个SM; not '每个SM有4个…')", ATTRIBUTE_VALUES),
    "rate_cue": RoleSpec("attributes", "a bandwidth's kind", ATTRIBUTE_VALUES),
    "precision_cue": RoleSpec("attributes", "the precision of a TFLOPS/TOPS figure ('-': none the reference has)",
                              ATTRIBUTE_VALUES),
    "sparsity": RoleSpec("attributes", "a throughput figure with or without structured sparsity",
                         frozenset({"sparse", "dense"})),
    "pin_rate": RoleSpec("attributes", "a per-pin data rate, not a bandwidth", _NONE),
    "memory_cue": RoleSpec("attributes", "a size is the memory's", _NONE),
    "memory_noun": RoleSpec("attributes", "names the card's memory", _NONE),
    "generic_rate": RoleSpec("attributes", "says only 'bandwidth'", _NONE),
    "other_rate": RoleSpec("attributes", "in the sentence of a rate no word names: it is not the card's memory "
                           "bandwidth (a link, a transfer, a CPU's memory)", _NONE),
    "cache_level": RoleSpec("attributes", "which cache level", frozenset({"L1", "L2", "L3"})),
    "cache_noun": RoleSpec("attributes", "a cache", _NONE),
    "cache_name": RoleSpec("attributes", "a named cache", frozenset({"Infinity Cache"})),
    "link_name": RoleSpec("attributes", "a named GPU link", frozenset({"NVLink", "NVLink-C2C", "Infinity Fabric"})),
    "power_cue": RoleSpec("attributes", "a wattage is the card's power", _NONE),
    "year_cue": RoleSpec("attributes", "a year is a launch year", _NONE),
    "bus_cue": RoleSpec("attributes", "a bit count is the memory bus width", _NONE),
    "clock": RoleSpec("attributes", "which clock a throughput figure is at", frozenset({"base", "boost"})),
    "process_word": RoleSpec("attributes", "says a figure in nanometres (7nm) or a node name (4N) is a process node",
                             _NONE),
    "foundry": RoleSpec("attributes", "a foundry, before a process node", frozenset({"TSMC", "Samsung", "Intel"})),
    "process_verb": RoleSpec("attributes", "a card is made on the node that follows (needed when the card is named in "
                             "another clause)", _NONE),
    "precision_name": RoleSpec("attributes", "a number format's name, as the precisions table spells it",
                               frozenset({"FP64", "FP32", "TF32", "BF16", "FP16", "FP8", "INT8", "INT4", "FP4",
                                          "FP6"})),
    "header_cue": RoleSpec("attributes", "a table column's attributes, most specific first", None, multi=True),
    # blockers.csv: a figure that is not the card's spec
    "not_a_spec": RoleSpec("blockers", "before a figure: a need, difference or computation, not a spec", _NONE),
    "measured": RoleSpec("blockers", "a measured figure", _NONE),
    "not_card_rate": RoleSpec("blockers", "network, storage or host rates", _NONE),
    "host_memory": RoleSpec("blockers", "the host's RAM", _NONE),
    "card_class": RoleSpec("blockers", "with card_noun: a class of cards, not one card", _NONE),
    "card_noun": RoleSpec("blockers", "a card in general", _NONE),
    "industry": RoleSpec("blockers", "the industry in general", _NONE),
    "model_verb": RoleSpec("blockers", "running a model of some size", _NONE),
    "not_rated_power": RoleSpec("blockers", "a wattage that is not the card's rated power", _NONE),
    "psu_word": RoleSpec("blockers", "after a wattage: a power supply", _NONE),
    "negation": RoleSpec("blockers", "before a figure (after any turn 但/却): the clause denies it", _NONE),
    "class_range": RoleSpec("blockers", "after figures: they range over a class of cards (从4GB到24GB不等)", _NONE),
    "speculative": RoleSpec("blockers", "in the sentence before a figure, or in its section's heading: a forecast or "
                            "rumour, never flagged", _NONE),
    "negation_after": RoleSpec("blockers", "after a figure, in its clause: what came before is denied", _NONE),
    "previous_gen": RoleSpec("blockers", "the figure is the previous generation's", _NONE),
    "not_a_gpu": RoleSpec("blockers", "what a vendor made is not a GPU", _NONE),
    "not_the_card": RoleSpec("blockers", "a clause about a model's or data's memory", _NONE),
    "not_transistors": RoleSpec("blockers", "a clause where millions or billions count no transistors (a model's "
                                "parameters, money, users)", _NONE),
    # scopes.csv: what a figure is the figure of
    "per_card": RoleSpec("scopes", "a figure per card", frozenset({"product"})),
    "aggregate": RoleSpec("scopes", "a total over several cards", frozenset({"system"})),
    "unit_name": RoleSpec("scopes", "a unit inside a chip; 每个<unit>, 1个<unit>：… make a figure per unit",
                          frozenset({"SM", "CU", "partition", "TPC", "GPC", "stack", "die",
                                     "mig_instance", "Xe-core"})),
    "per_link": RoleSpec("scopes", "before a figure: it is per link or per lane", frozenset({"per_link", "per_lane"})),
    "full_chip": RoleSpec("scopes", "before a chip or card: the full die, not the product", _NONE),
    "system_word": RoleSpec("scopes", "before a figure: a whole server, node, rack or cluster", _NONE),
    "one_direction": RoleSpec("scopes", "before a card's link figure: one direction only (the tables quote the "
                              "total of both)", frozenset({"per_direction"})),
    # hedges.csv
    "hedge_before": RoleSpec("hedges", "a qualifier written before the number", QUALIFIERS),
    "hedge_after": RoleSpec("hedges", "a qualifier written after the number", QUALIFIERS),
    # relations.csv: how names relate to figures and to each other
    "compare_after": RoleSpec("relations", "after a name: it is compared", _NONE),
    "compare_before": RoleSpec("relations", "before a name: it is compared", _NONE),
    "compare_clause": RoleSpec("relations", "opens a clause whose cards are only compared (作为对比，A100为…)", _NONE),
    "anaphor_card": RoleSpec("relations", "opens a clause about a card it does not name (而新卡…, 它的继任者…)", _NONE),
    "excluded_members": RoleSpec("relations", "in a sentence about a series: some members are left out (除了…之外)",
                                 _NONE),
    "other_card": RoleSpec("relations", "with a card noun (某国产…加速卡): another, unnamed card is the subject",
                           _NONE),
    "derived_product": RoleSpec("relations", "X的<word>: another product derived from X, not X", _NONE),
    "coordinator": RoleSpec("relations", "joins a name to the one before it", _NONE),
    "list_joiner": RoleSpec("relations", "joins list items", _NONE),
    "same_as": RoleSpec("relations", "after 和/与 X: X is compared", _NONE),
    "pronoun": RoleSpec("relations", "points back at a card", frozenset({"former", "latter", "both", "it"})),
    "all_of": RoleSpec("relations", "the figure is every listed card's", _NONE),
    "every_member": RoleSpec("relations", "the figure is every member's of a series", _NONE),
    "copula": RoleSpec("relations", "X is Y", _NONE),
    "launch_verb": RoleSpec("relations", "X was launched", _NONE),
    "flagship": RoleSpec("relations", "X is the line's flagship", _NONE),
    "maker_verb": RoleSpec("relations", "a vendor made something", _NONE),
    "gpu_noun": RoleSpec("relations", "after a card's name: its GPU", _NONE),
    "uses_verb": RoleSpec("relations", "a card uses something", _NONE),
    "arch_noun": RoleSpec("relations", "after a name: an architecture", _NONE),
    "arch_verb": RoleSpec("relations", "before an architecture: the card's", _NONE),
    "product_list": RoleSpec("relations", "after an architecture's name: the cards of it are listed next", _NONE),
    "chip_noun": RoleSpec("relations", "after a name: a chip", _NONE),
    "chip_verb": RoleSpec("relations", "before a chip: the card's", _NONE),
    "interface_verb": RoleSpec("relations", "before a PCIe name: the card's host interface", _NONE),
    "owned_thing": RoleSpec("relations", "X is a vendor's <thing>", _NONE),
    "card_classifier": RoleSpec("relations", "N <classifier>: a number of cards", _NONE),
    "parallel_verb": RoleSpec("relations", "'X则为N': the verb of a clause that repeats the attribute before it",
                              _NONE),
    "continuation_verb": RoleSpec("relations", "'，达到N': the verb of a clause that continues the one before it",
                                  _NONE),
    # names.csv: product names by grammar, for cards the reference does not know (a vendor's series words, model
    # number and suffixes); value: the vendor
    "product_name": RoleSpec("names", "a product name the reference may not know", None),
    "not_a_product": RoleSpec("names", "looks like a product name but is not one (a codec...)", _NONE),
    # variants.csv
    "variant_token": RoleSpec("variants", "after a model name: which variant", _NONE),
    "model_suffix": RoleSpec("variants", "after a model name: another model", _NONE),
    "variant_noun": RoleSpec("variants", "N GB <noun>: a variant", _NONE),
    # comparisons.csv: claims that compare two named products (pipeline/extract/relative.py)
    "compared_attribute": RoleSpec("comparisons", "what two products are compared on", ATTRIBUTE_VALUES),
    "than": RoleSpec("comparisons", "before a product: the one compared with (比Y, 相较于Y)", _NONE),
    "direction": RoleSpec("comparisons", "X比Y<word>: more or less", frozenset({"up", "down"})),
    "order_word": RoleSpec("comparisons", "X<word>Y: X is above or below Y", frozenset({"up", "down"})),
    "same_word": RoleSpec("comparisons", "X与Y<word>: the same (approx: about the same)",
                          frozenset({"exact", "approx"})),
    "inherit_verb": RoleSpec("comparisons", "X<word>Y的…: X has Y's (chip, architecture…)", _NONE),
    "inherited_attribute": RoleSpec("comparisons", "沿用Y的<word>: what is inherited", ATTRIBUTE_VALUES),
    "fraction_word": RoleSpec("comparisons", "是Y的<word>: a ratio in words (value: the factor)", None),
    "generic_spec": RoleSpec("comparisons", "the clause compares something general (其他参数, 吞吐量), no one spec: "
                             "recorded, never judged",
                             _NONE),
    # history.csv: which architecture introduced what, 首款 claims, generations (pipeline/extract/history.py)
    "feature_name": RoleSpec("history", "a feature, as the architectures table's 'introduced' spells it", None),
    "generation_of": RoleSpec("history", "第N代<word>: the architectures column it is counted in",
                              frozenset({"tensor_core_generation", "rt_core_generation",
                                         "transformer_engine_generation", "nvlink_generation",
                                         "nvswitch_generation", "nvlink_c2c_generation"})),
    "introduce_verb": RoleSpec("history", "X<word>F: X introduced F", _NONE),
    "introduced_in": RoleSpec("history", "F<word>X: F first appeared in X", _NONE),
    "introduced_at": RoleSpec("history", "F<word>X…引入/出现: F first appeared in X (the verb after X)", _NONE),
    "first_word": RoleSpec("history", "<word>支持F的GPU: the first product or architecture with F", _NONE),
    "not_its_own": RoleSpec("history", "before a link or generation: not the owner's own (从NVLink 3.0…)", _NONE),
    "profession": RoleSpec("history", "以<word>命名: who an architecture is named after (value: the word "
                           "architectures.csv's named_after uses)",
                           frozenset({"physicist", "mathematician", "computer scientist", "astronomer", "statistician",
                                      "scientist"})),
    # facts.csv: what hardware has and how it is built (pipeline/extract/support.py, lineage.py, terms.py, labels.py)
    "support_verb": RoleSpec("facts", "X<word>F: X has the feature F", _NONE),
    "lack_verb": RoleSpec("facts", "X<word>F: X lacks F (removed: it had it before)", frozenset({"absent", "removed"})),
    "support_hedge": RoleSpec("facts", "before a support verb: the text does not assert it (never flagged)", _NONE),
    "only_word": RoleSpec("facts", "X<word>支持Y: only Y (the alternatives to Y are denied)", _NONE),
    "only_alternative": RoleSpec("facts", "仅支持<word>: the features an 'only' denies (the owner's vendor's one is "
                                 "the claim)", None, multi=True),
    "expansion_verb": RoleSpec("facts", "ABBR<word>EXPANSION: what an abbreviation stands for (describes: a copula, "
                               "read only before Latin words whose initials spell it)",
                               frozenset({"names", "describes"})),
    "identity_verb": RoleSpec("facts", "A<word>B: two terms said to be one (以前叫, 又称, 即)", _NONE),
    "product_noun": RoleSpec("facts", "a chip <is> a …<word>: a card or product line, not a die", _NONE),
    "link_predicate": RoleSpec("facts", "what a link or memory is said to be (value property:value of "
                               "link_facts.csv)", None),
    "latency_cue": RoleSpec("facts", "a latency (in ns: a DRAM access latency)", _NONE),
    "slot_power_word": RoleSpec("facts", "a card powered by its PCIe slot alone", _NONE),
    "lineage_word": RoleSpec("facts", "X的<word>是Y: Y comes after X (successor) or before it (predecessor)",
                             frozenset({"successor", "predecessor"})),
    "position_word": RoleSpec("facts", "where a die stands: the family's flagship, a card's full or cut-down die",
                              frozenset({"flagship", "full_die", "cut_down"})),
    "component_word": RoleSpec("facts", "N<classifier><word>: what a package holds (composition.csv's kind)",
                               frozenset({"die", "superchip", "gpu", "cpu"})),
    "composed_verb": RoleSpec("facts", "X<word>N个…: X is made of", _NONE),
    "single_die": RoleSpec("facts", "one monolithic die", _NONE),
    "newest_word": RoleSpec("facts", "X是<word>架构: the newest (judged at the article's date)", _NONE),
    "only_one_word": RoleSpec("facts", "X架构<word>: the architecture had a single product", _NONE),
    "hot_clock_phrase": RoleSpec("facts", "the shaders run at about twice the core clock (a Tesla/Fermi trait)", _NONE),
    "vendor_class": RoleSpec("facts", "a vendor's cards as a class (N卡): said of its architectures at the time",
                             frozenset({"nvidia", "amd"})),
    # derived.csv: figures the text computes (pipeline/extract/derived.py)
    "bytes_per_param": RoleSpec("derived", "a number format a model's weights are stored in (value: bytes)",
                                frozenset({"4", "2", "1", "0.5"})),
    "overhead_word": RoleSpec("derived", "a memory need beyond the weights (KV cache, activations…)", _NONE),
    "fits_word": RoleSpec("derived", "a model fits on the card, or does not", frozenset({"fits", "no_fit"})),
    "need_word": RoleSpec("derived", "before a size: what a model needs", _NONE),
    "model_word": RoleSpec("derived", "near 70B/7B: the number is a model's parameter count", _NONE),
    # unread.csv: figures no reader understood, recorded as such (pipeline/extract/leftover.py); value: their kind
    "figure_after": RoleSpec("unread", "after a number: the kind of figure it is", _FIGURE_KINDS),
    "figure_before": RoleSpec("unread", "before a number: the kind of figure it is", _FIGURE_KINDS),
    "figure_phrase": RoleSpec("unread", "words that are a figure themselves (翻倍, 减半)", _FIGURE_KINDS),
    "feature_verb": RoleSpec("unread", "before what a product supports or brings: a feature no reader knows",
                             frozenset({"feature"})),
}
FILES = tuple(dict.fromkeys(spec.file for spec in ROLES.values()))


class LexiconError(ValueError):
    """A lexicon table is malformed; the message names the file, line and the fix."""


@dataclass(frozen=True)
class Entry:
    role: str
    word: str
    value: str
    example: str
    expect: str
    file: str
    line: int
    via: str = ""  # the @role this row was expanded from

    @property
    def where(self) -> str:
        return f"pipeline/lexicon/{self.file}.csv:{self.line}"


class Lexicon:
    """Every row of every table, with look-ups by role."""

    def __init__(self, entries: list[Entry]) -> None:
        self.entries = tuple(entries)
        self._by_role: dict[str, list[Entry]] = {}
        for e in self.entries:
            self._by_role.setdefault(e.role, []).append(e)

    def rows(self, role: str) -> list[Entry]:
        if role not in ROLES:
            raise KeyError(f"unknown lexicon role {role!r}")
        return self._by_role.get(role, [])

    def words(self, role: str, value: str | None = None) -> list[str]:
        return [e.word for e in self.rows(role) if value is None or e.value == value]

    def alt(self, role: str, value: str | None = None) -> str:
        """The role's words as one non-capturing alternation, in priority order."""
        words = self.words(role, value)
        if not words:
            raise KeyError(f"lexicon role {role!r} has no words" + (f" with value {value!r}" if value else ""))
        return "(?:" + "|".join(words) + ")"

    def regex(self, role: str, value: str | None = None) -> re.Pattern[str]:
        return _compile(self.alt(role, value))

    def groups(self, role: str) -> list[tuple[str, re.Pattern[str]]]:
        """(value, pattern of its words) per value, in the order values first appear."""
        values = list(dict.fromkeys(e.value for e in self.rows(role)))
        return [(v, self.regex(role, v)) for v in values]

    def value_of(self, role: str, text: str) -> str | None:
        """The value of the first row of ``role`` whose word matches all of ``text``."""
        for e in self.rows(role):
            if _compile(e.word).fullmatch(text):
                return e.value
        return None


@lru_cache(maxsize=4096)
def _compile(pattern: str) -> re.Pattern[str]:
    return with_first_chars(pattern, re.I)


def _read(directory: Path) -> list[Entry]:
    entries: list[Entry] = []
    for name in FILES:
        path = directory / f"{name}.csv"
        try:
            with path.open(encoding="utf-8", newline="") as f:
                reader = csv.DictReader(f)
                if tuple(reader.fieldnames or ()) != COLUMNS:
                    raise LexiconError(f"{path}: the header must be {','.join(COLUMNS)}")
                for i, row in enumerate(reader, start=2):
                    role, word, value, example, expect = (str(row.get(c) or "").strip() for c in COLUMNS)
                    entries.append(Entry(role, word, value, example, expect, name, i))
        except OSError as e:
            raise LexiconError(f"cannot read lexicon table {path}: {e}") from e
    return _expand(entries)


def _expand(entries: list[Entry]) -> list[Entry]:
    """``@role`` rows stand for every word of that role."""
    out: list[Entry] = []
    for e in entries:
        if not e.word.startswith("@"):
            out.append(e)
            continue
        source = [s for s in entries if s.role == e.word[1:] and not s.word.startswith("@")]
        if not source:
            raise LexiconError(f"{e.where}: {e.word} names no role with words")
        for s in source:
            if e.value == "@" and s.value == "-":
                continue  # a precision the reference has no figure for cues no column
            out.append(Entry(e.role, s.word, s.value if e.value == "@" else e.value, e.example, e.expect, e.file,
                             e.line, e.word))
    return out


def problems(entries: tuple[Entry, ...]) -> list[str]:
    """Every rule a row breaks, as 'file:line: what to fix'."""
    out: list[str] = []
    seen: dict[tuple[str, str, str], Entry] = {}
    for e in entries:
        spec = ROLES.get(e.role)
        if spec is None:
            out.append(f"{e.where}: unknown role {e.role!r} (known roles are listed in pipeline/lexicon/__init__.py)")
            continue
        if spec.file != e.file:
            out.append(f"{e.where}: role {e.role} belongs in {spec.file}.csv")
        if not e.word:
            out.append(f"{e.where}: empty word")
            continue
        try:
            pattern = re.compile(e.word, re.I)
        except re.error as err:
            out.append(f"{e.where}: word {e.word!r} is not a valid pattern ({err})")
            continue
        if pattern.fullmatch(""):
            out.append(f"{e.where}: word {e.word!r} matches the empty string")
        values = [v for v in e.value.split("|")] if spec.multi else [e.value]
        if spec.values is not None:
            allowed = spec.values if spec.values else frozenset({""})
            bad = [v for v in values if v not in allowed and not (spec.multi and v in ATTRIBUTE_VALUES)]
            if bad:
                out.append(f"{e.where}: value {e.value!r} is not one of {sorted(allowed)} for role {e.role}")
        key = (e.role, e.word, e.value)
        if key in seen and seen[key].line != e.line:
            out.append(f"{e.where}: duplicate of {seen[key].where}")
        seen.setdefault(key, e)
        if re.escape(e.word) == e.word and _normalise(e.word) != e.word:
            out.append(f"{e.where}: word {e.word!r} never matches: text is matched after normalisation, write it as "
                       f"{_normalise(e.word)!r}")
        if e.example and not e.via and not pattern.search(_normalise(e.example)):
            out.append(f"{e.where}: word {e.word!r} does not occur in its example {e.example!r}")
    for group in _expanded(entries).values():
        if group[0].example and not any(re.search(g.word, _normalise(g.example), re.I) for g in group):
            out.append(f"{group[0].where}: none of the words of {group[0].via} occurs in its example")
    return out


def _expanded(entries: tuple[Entry, ...]) -> dict[tuple[str, int], list[Entry]]:
    groups: dict[tuple[str, int], list[Entry]] = {}
    for e in entries:
        if e.via:
            groups.setdefault((e.file, e.line), []).append(e)
    return groups


def _normalise(text: str) -> str:
    from ..normalize import normalize

    return normalize(text)


def fingerprint(directory: Path = LEXICON_DIR) -> str:
    """A hash over the tables: part of the pipeline version, so a changed word re-checks stored documents."""
    h = hashlib.sha256()
    for name in FILES:
        h.update((directory / f"{name}.csv").read_bytes())
    return h.hexdigest()


@lru_cache(maxsize=2)
def load_lexicon(directory: Path = LEXICON_DIR) -> Lexicon:
    """The lexicon, validated (a malformed row raises ``LexiconError`` naming every problem)."""
    entries = _read(directory)
    found = problems(tuple(entries))
    if found:
        raise LexiconError("the lexicon tables have problems:\n" + "\n".join(found))
    return Lexicon(entries)
