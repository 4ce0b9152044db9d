"""Request bodies the review app accepts: read as they stream in, within a size and a time, and JSON that is
strict enough that nothing past this point can fail on it.

A body is refused past ``MAX_BODY`` bytes (413: at once when its Content-Length says so, else as soon as that many
have arrived, so a large body never sits in memory) or when it is not all there after ``BODY_SECONDS`` (408); a
JSON body must be UTF-8, nest at most ``MAX_DEPTH`` levels, hold no number longer than ``MAX_NUMBER`` characters,
no NaN or Infinity and no lone surrogate, and be an object (400).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

import anyio
from starlette.exceptions import HTTPException
from starlette.requests import Request

MAX_BODY = 256 * 1024  # a decision is a few hundred bytes
BODY_SECONDS = 30.0  # a body still arriving after this long is refused (408)
MAX_DEPTH = 16  # JSON nesting: a decision is one object of strings
MAX_NUMBER = 40  # characters of a JSON number


async def read_body(request: Request, limit: int | None = None) -> bytes:
    """The body as it streams in: 413 once it passes ``limit`` bytes (at once when its Content-Length says so),
    408 when it is not all there after ``BODY_SECONDS``."""
    limit = MAX_BODY if limit is None else limit
    seconds = BODY_SECONDS  # read when called: bench/probe_app.py sets it low
    length = request.headers.get("content-length")
    if length is not None:
        if not length.isdigit():
            raise HTTPException(400, "Content-Length is not a number")
        if int(length) > limit:
            raise HTTPException(413, f"the body is too large (at most {limit:,} bytes)")
    chunks: list[bytes] = []
    size = 0
    try:
        with anyio.fail_after(seconds):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise HTTPException(413, f"the body is too large (at most {limit:,} bytes)")
                chunks.append(chunk)
    except TimeoutError:
        raise HTTPException(408, f"the body did not arrive within {seconds:g} seconds") from None
    return b"".join(chunks)


_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_JSON_BRACKET = re.compile(r"[\[\]{}]")


def _depth(text: str) -> int:
    """How deep the brackets of a JSON text nest (strings left out); stops counting past MAX_DEPTH."""
    depth = deepest = 0
    for m in _JSON_BRACKET.finditer(_JSON_STRING.sub('""', text)):
        depth += 1 if m.group() in "[{" else -1
        if depth > deepest:
            deepest = depth
            if deepest > MAX_DEPTH:
                break
    return deepest


def _number(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    def parsed(value: str) -> Any:
        if len(value) > MAX_NUMBER:
            raise ValueError(f"a number of more than {MAX_NUMBER} characters")
        number = parse(value)
        if isinstance(number, float) and not math.isfinite(number):
            raise ValueError("a number too large for a float")
        return number

    return parsed


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _valid_unicode(value: Any) -> bool:
    """No lone surrogate in any string (JSON's \\ud800 escapes can make one; SQLite and UTF-8 cannot hold it)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, dict):
        return all(_valid_unicode(k) and _valid_unicode(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_valid_unicode(v) for v in value)
    return True


def parse_json_body(body: bytes) -> dict[str, Any]:
    """A JSON object from a request body, or HTTPException 400 saying what is wrong with it."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HTTPException(400, f"the body is not JSON: not UTF-8 ({exc.reason} at byte {exc.start})") from exc
    if _depth(text) > MAX_DEPTH:
        raise HTTPException(400, f"the body is not a decision: it nests more than {MAX_DEPTH} levels")
    try:
        data = json.loads(text or "{}", parse_int=_number(int), parse_float=_number(float),
                          parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError
        raise HTTPException(400, f"the body is not JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise HTTPException(400, "the body must be a JSON object")
    if not _valid_unicode(data):
        raise HTTPException(400, "the body holds invalid Unicode (a lone surrogate)")
    return data
