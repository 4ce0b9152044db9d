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


class GroupScan:
    """A lexicon role's ``(value, pattern)`` groups (``Lexicon.groups``) searched over a text at once: every
    match of every group, in the groups' order and each group's matches in text order, exactly what a loop of
    ``pattern.finditer(text)`` over the groups finds. One gate (``any_of`` the groups) answers the texts that hold
    none, and the answer for the last text is kept, so the passes that read one sentence share one scan.

    The memo is one tuple replaced at once: threads that share a scan each see a whole answer (for their text or
    for another, which they recompute)."""

    def __init__(self, groups: Iterable[tuple[str, re.Pattern[str]]]) -> None:
        self.groups = tuple(groups)
        self.gate = any_of(p for _v, p in self.groups)
        self._memo: tuple[str | None, tuple[tuple[str, re.Match[str]], ...]] = (None, ())

    def hits(self, text: str) -> tuple[tuple[str, re.Match[str]], ...]:
        """``(value, match)`` for every match in ``text``, group by group."""
        last, found = self._memo
        if last is not text:
            found = tuple((v, m) for v, p in self.groups for m in p.finditer(text)) if self.gate.search(text) else ()
            self._memo = (text, found)
        return found
