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
from collections.abc import Iterable
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


class GroupScan:
    """A lexicon role's ``(value, pattern)`` groups (``Lexicon.groups``) searched over a text at once: every
    match of every group, in the groups' order and each group's matches in text order, exactly what a loop of
    ``pattern.finditer(text)`` over the groups finds. One Aho-Corasick pass over the lower-cased text finds the
    literal runs every match of a group holds (``required_literals``), and only the groups whose runs are there are
    searched (a group with no such run always is); the answer for the last text is kept, so the passes that read
    one sentence share one scan.

    The memo is one tuple replaced at once: threads that share a scan each see a whole answer (for their text or
    for another, which they recompute)."""

    def __init__(self, groups: Iterable[tuple[str, re.Pattern[str]]]) -> None:
        import ahocorasick

        self.groups = tuple(groups)
        self._always = tuple(i for i, (_v, p) in enumerate(self.groups)
                             if required_literals(p.pattern, p.flags) is None)
        owners: dict[str, list[int]] = {}
        for i, (_v, p) in enumerate(self.groups):
            for word in required_literals(p.pattern, p.flags) or ():
                owners.setdefault(word, []).append(i)
        self._automaton: Any = None
        if owners:
            self._automaton = ahocorasick.Automaton()
            for word, which in owners.items():
                self._automaton.add_word(word, tuple(which))
            self._automaton.make_automaton()
        self._memo: tuple[str | None, tuple[tuple[str, re.Match[str]], ...]] = (None, ())

    def hits(self, text: str) -> tuple[tuple[str, re.Match[str]], ...]:
        """``(value, match)`` for every match in ``text``, group by group."""
        last, found = self._memo
        if last is not text:
            found = tuple((self.groups[i][0], m) for i in self._candidates(text)
                          for m in self.groups[i][1].finditer(text))
            self._memo = (text, found)
        return found

    def _candidates(self, text: str) -> list[int]:
        """The groups that can match in ``text``, in their order."""
        which = set(self._always)
        if self._automaton is not None:
            for _end, owners in self._automaton.iter(text.lower()):
                which.update(owners)
        return sorted(which)
