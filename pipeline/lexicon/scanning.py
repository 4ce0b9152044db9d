"""Faster scanning for alternations of many words.

Python's ``re`` tries every branch of an alternation at every position of the text, so a pattern of thirty words
searched over a sentence costs thirty attempts per character. When every match must begin with one of a few
characters, a lookahead for those characters in front (``(?=[TtRrH…])(?:…)``) rejects the other positions with one
set test. ``with_first_chars`` works the set out from the pattern's parse tree (``re``'s own parser) and adds the
lookahead; a pattern that can match the empty string, or starts with something it cannot follow, is compiled as
written. The lookahead is zero-width and only ever admits a superset of the positions a match can start at, so
``search``, ``match`` and ``finditer`` find exactly what the plain pattern finds.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from typing import Any

if sys.version_info >= (3, 11):
    from re import _constants as _sre_constants
    from re import _parser as _sre_parse
else:  # Python 3.10
    import sre_constants as _sre_constants
    import sre_parse as _sre_parse

_C = _sre_constants
# a first-character set above this size saves too little to be worth the extra test
_MAX_CHARS = 60
# "(?i)…": global inline flags must stay at the very start
_GLOBAL_FLAGS = re.compile(r"\(\?[aiLmsux]+\)")


class _Unknown(Exception):
    """The first characters cannot be told (a class by category, a back reference, …)."""


def first_chars(pattern: str, flags: int = 0) -> frozenset[str] | None:
    """The characters a match of ``pattern`` can begin with, or None when that is not a small known set (the pattern
    can match the empty string, or begins with a character class by category such as ``\\d`` or ``.``)."""
    try:
        chars, nullable = _first(_sre_parse.parse(pattern, flags).data)
    except (_Unknown, re.error, RecursionError):
        return None
    if nullable or not chars:
        return None
    if flags & re.IGNORECASE:  # the lookahead is compiled with the same flags, but keep the set honest
        chars = chars | {c.swapcase() for c in chars}
    return frozenset(chars) if len(chars) <= _MAX_CHARS else None


def with_first_chars(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, with a first-character lookahead in front when ``first_chars`` knows one."""
    chars = None if _GLOBAL_FLAGS.match(pattern) else first_chars(pattern, flags)
    if chars is None:
        return re.compile(pattern, flags)
    klass = "".join(sorted(re.escape(c) if c not in "-]\\^" else "\\" + c for c in chars))
    return re.compile(f"(?=[{klass}])(?:{pattern})", flags)


def _first(items: Iterable[tuple[Any, Any]]) -> tuple[set[str], bool]:
    """(first characters, can be empty) of a sequence of parsed items."""
    out: set[str] = set()
    for op, av in items:
        chars, nullable = _item(op, av)
        out |= chars
        if not nullable:
            return out, False
    return out, True


def _item(op: Any, av: Any) -> tuple[set[str], bool]:
    if op is _C.LITERAL:
        return {chr(av)}, False
    if op is _C.IN:
        chars: set[str] = set()
        for sub_op, sub_av in av:
            if sub_op is _C.LITERAL:
                chars.add(chr(sub_av))
            elif sub_op is _C.RANGE and sub_av[1] - sub_av[0] < _MAX_CHARS:
                chars.update(chr(c) for c in range(sub_av[0], sub_av[1] + 1))
            else:  # NEGATE, CATEGORY, a wide range
                raise _Unknown
        return chars, False
    if op is _C.BRANCH:
        chars, nullable = set(), False
        for branch in av[1]:
            c, n = _first(branch)
            chars |= c
            nullable = nullable or n
        return chars, nullable
    if op is _C.SUBPATTERN:
        return _first(av[-1])
    if op in (_C.MAX_REPEAT, _C.MIN_REPEAT, getattr(_C, "POSSESSIVE_REPEAT", None)):
        low, _high, body = av
        chars, nullable = _first(body)
        return chars, nullable or low == 0
    if op in (_C.AT, _C.ASSERT, _C.ASSERT_NOT):  # zero-width: what follows begins the match
        return set(), True
    raise _Unknown  # ANY, CATEGORY, NOT_LITERAL, GROUPREF, ...
