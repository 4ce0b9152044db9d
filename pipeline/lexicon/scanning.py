"""Faster scanning for alternations of many words.

Python's ``re`` tries every branch of an alternation at every position of the text, so a pattern of thirty words
searched over a sentence costs thirty attempts per character. When every match must begin with one of a few
characters, a lookahead for those characters in front (``(?=[TtRrH…])(?:…)``) rejects the other positions with one
set test. ``first_class`` works that class out from the pattern's parse tree (``re``'s own parser) and
``with_first_chars`` adds the lookahead; a pattern that can match the empty string, or starts with something the
class cannot say (any character, a negated class, a local flag), is compiled as written. The lookahead is
zero-width and only ever admits a superset of the positions a match can start at, so ``search``, ``match`` and
``finditer`` find exactly what the plain pattern finds.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator
from typing import Any

if sys.version_info >= (3, 11):
    from re import _parser as _sre
else:  # Python 3.10
    import sre_parse as _sre

_CATEGORIES = {_sre.CATEGORY_DIGIT: r"\d", _sre.CATEGORY_NOT_DIGIT: r"\D", _sre.CATEGORY_SPACE: r"\s",
               _sre.CATEGORY_NOT_SPACE: r"\S", _sre.CATEGORY_WORD: r"\w", _sre.CATEGORY_NOT_WORD: r"\W"}
_REPEATS = tuple(op for op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT, getattr(_sre, "POSSESSIVE_REPEAT", None)) if op)
# "(?i)…": global inline flags must stay at the very start
_GLOBAL_FLAGS = re.compile(r"\(\?[aiLmsux]+\)")


def first_class(pattern: str, flags: int = 0) -> str | None:
    """A character class (regex source, e.g. ``[GR]``) holding every character a match of ``pattern`` can start
    with; None when it cannot be told (a negated class, any character, a local flag, a match that can be empty)."""
    try:
        found = _first(_sre.parse(pattern, flags).data)
    except (re.error, RecursionError):
        return None
    if found is None or found[1] or not found[0]:
        return None
    return f"[{''.join(sorted(found[0]))}]"


def with_first_chars(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, with a first-character lookahead in front when ``first_class`` knows one."""
    klass = None if _GLOBAL_FLAGS.match(pattern) else first_class(pattern, flags)
    if klass is None:
        return re.compile(pattern, flags)
    return re.compile(f"(?={klass})(?:{pattern})", flags)


def any_of(patterns: Iterable[re.Pattern[str]]) -> re.Pattern[str]:
    """One pattern that matches where any of ``patterns`` (compiled with the same flags) matches: a gate before
    trying them one by one in priority order, which most texts fail at once."""
    patterns = list(patterns)
    flags = {p.flags for p in patterns}
    if len(flags) != 1:
        raise ValueError(f"any_of needs patterns compiled with one set of flags, got {sorted(flags)}")
    return with_first_chars("|".join(f"(?:{p.pattern})" for p in patterns), flags.pop())


def _char(code: int) -> str:
    return re.escape(chr(code))


def _first(items: Any) -> tuple[set[str], bool] | None:
    """The class items a sequence of parsed items can start with, and whether it can match nothing."""
    out: set[str] = set()
    for op, av in items:
        if op is _sre.LITERAL:
            out.add(_char(av))
            return out, False
        if op is _sre.IN:
            for kind, value in av:
                if kind is _sre.LITERAL:
                    out.add(_char(value))
                elif kind is _sre.RANGE:
                    out.add(f"{_char(value[0])}-{_char(value[1])}")
                elif kind is _sre.CATEGORY and value in _CATEGORIES:
                    out.add(_CATEGORIES[value])
                else:  # NEGATE, other categories
                    return None
            return out, False
        if op in (_sre.AT, _sre.ASSERT, _sre.ASSERT_NOT):
            continue  # takes no character: what follows starts the match
        if op is _sre.BRANCH:
            parts = [_first(alt) for alt in av[1]]
            if any(p is None for p in parts):
                return None
            out.update(*(p[0] for p in parts if p))
            if not any(p[1] for p in parts if p):
                return out, False
        elif op is _sre.SUBPATTERN and not av[1] and not av[2]:  # a group without local flags
            sub = _first(av[3])
            if sub is None:
                return None
            out.update(sub[0])
            if not sub[1]:
                return out, False
        elif op in _REPEATS:
            sub = _first(av[2])
            if sub is None:
                return None
            out.update(sub[0])
            if av[0] > 0 and not sub[1]:
                return out, False
        else:  # ANY, NOT_LITERAL, GROUPREF, local flags, ...
            return None
    return out, True


# ---- literal runs: what every match holds, for one Aho-Corasick pass in front of many patterns

def _foldable(code: int) -> bool:
    """A pattern's literal that the lower-cased text holds, lower-cased, wherever it matches, with or without
    re.IGNORECASE: an ASCII character but i and s (which re.IGNORECASE also matches with ı and ſ), or a character
    without case (Han, digits, punctuation), which matches only itself."""
    ch = chr(code)
    if ch.isascii():
        return ch.lower() not in ("i", "s")
    return ch.lower() == ch == ch.upper()


def required_literals(pattern: str, flags: int = 0) -> frozenset[str] | None:
    """Lower-case strings one of which every match of ``pattern`` holds (lower-cased): the longest run of literal
    characters the match cannot do without, or one such run of each alternative of an alternation. None when
    there is no such run (a match can be made of classes, repeats that may be empty, other flags...)."""
    try:
        found = _required(_sre.parse(pattern, flags).data)
    except (re.error, RecursionError):
        return None
    return frozenset(found) if found else None


def _required(items: Any) -> set[str] | None:
    best: set[str] | None = None

    def take(found: set[str] | None) -> None:
        nonlocal best
        if found and (best is None or min(map(len, found)) > min(map(len, best))):
            best = found

    run: list[str] = []
    for op, av in items:
        if op is _sre.LITERAL and _foldable(av):
            run.append(chr(av).lower())
            continue
        if run:
            take({"".join(run)})
            run = []
        if op is _sre.SUBPATTERN and not av[1] and not av[2]:
            take(_required(av[3]))
        elif op is _sre.BRANCH:
            parts = [_required(alt) for alt in av[1]]
            if all(parts):
                take(set().union(*parts))  # type: ignore[arg-type]
        elif op in _REPEATS and av[0] >= 1:
            take(_required(av[2]))
    if run:
        take({"".join(run)})
    return best


class _Literals:
    """The literal runs of every registered pattern (``required_literals``) in one Aho-Corasick automaton: one pass
    over a lower-cased text tells which patterns can match in it at all. The answer for the last text is kept, so
    the passes that read one sentence share one pass; the automaton is built on first use after a registration."""

    def __init__(self) -> None:
        self._runs: list[frozenset[str] | None] = []
        self._built: tuple[Any, frozenset[int]] | None = None
        self._memo: tuple[str | None, frozenset[int]] = (None, frozenset())

    def add(self, pattern: re.Pattern[str]) -> int:
        self._runs.append(required_literals(pattern.pattern, pattern.flags))
        self._built = None
        self._memo = (None, frozenset())
        return len(self._runs) - 1

    def present(self, text: str) -> frozenset[int]:
        """The registered patterns that can match somewhere in ``text``."""
        last, found = self._memo
        if last is text:
            return found
        automaton, always = self._built or self._build()
        hits = set(always)
        if automaton is not None:
            for _end, owners in automaton.iter(text.lower()):
                hits.update(owners)
        found = frozenset(hits)
        self._memo = (text, found)
        return found

    def _build(self) -> tuple[Any, frozenset[int]]:
        import ahocorasick

        owners: dict[str, list[int]] = {}
        for i, runs in enumerate(self._runs):
            for word in runs or ():
                owners.setdefault(word, []).append(i)
        automaton = None
        if owners:
            automaton = ahocorasick.Automaton()
            for word, which in owners.items():
                automaton.add_word(word, tuple(which))
            automaton.make_automaton()
        built = (automaton, frozenset(i for i, runs in enumerate(self._runs) if runs is None))
        self._built = built
        return built


LITERALS = _Literals()


class Gated:
    """A pattern a pass searches whole sentences with, answered at once (no match) for a text that holds none of
    the literal runs every match of it needs: the registered patterns share one automaton pass a sentence
    (``LITERALS``). ``search`` and ``finditer`` find exactly what the pattern finds; ``pattern`` is the pattern
    itself, for other texts (a clause, a slice): a pass over one of them would not be shared, and it would take the
    sentence's place in the memo."""

    __slots__ = ("_id", "pattern")

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self._id = LITERALS.add(pattern)

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.pattern.search(text, pos, endpos) if self._id in LITERALS.present(text) else None

    def finditer(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        return self.pattern.finditer(text, pos, endpos) if self._id in LITERALS.present(text) else iter(())


class GroupScan:
    """A lexicon role's ``(value, pattern)`` groups (``Lexicon.groups``) searched over a text at once: every
    match of every group, in the groups' order and each group's matches in text order, exactly what a loop of
    ``pattern.finditer(text)`` over the groups finds. Only the groups the shared literal automaton (``LITERALS``)
    finds possible in the text are searched; the answer for the last text is kept, so the passes that read one
    sentence share one scan.

    The memos are tuples replaced at once: threads that share a scan each see a whole answer (for their text or
    for another, which they recompute)."""

    def __init__(self, groups: Iterable[tuple[str, re.Pattern[str]]]) -> None:
        self.groups = tuple(groups)
        self._ids = tuple(LITERALS.add(p) for _v, p in self.groups)
        self._memo: tuple[str | None, tuple[tuple[str, re.Match[str]], ...]] = (None, ())

    def hits(self, text: str) -> tuple[tuple[str, re.Match[str]], ...]:
        """``(value, match)`` for every match in ``text``, group by group."""
        last, found = self._memo
        if last is not text:
            present = LITERALS.present(text)
            found = tuple((v, m) for (v, p), i in zip(self.groups, self._ids, strict=True) if i in present
                          for m in p.finditer(text))
            self._memo = (text, found)
        return found
