"""Who may do what in the review app, and protection against requests another site makes the browser send.

- No ``--users`` file (loopback only): one editor on their own machine, no login; requests must name this machine
  in their Host header (so a web page cannot reach the app through DNS rebinding).
- With ``--users``: every request carries ``Authorization: Bearer TOKEN`` (tools) or the session cookie that
  ``POST /login`` with a token sets (browsers); a ``viewer`` reads, an ``editor`` also writes.
- Every state-changing request: its Origin (when sent) must be the app's own, Sec-Fetch-Site (when sent) must be
  same-origin, a cookie session must also send its CSRF token in ``X-CSRF-Token``, and /api/ bodies are JSON.
- Guessing is slow: each wrong token or login waits before it is answered, and a client with too many wrong ones in
  a while is refused (429) for the rest of it (``Throttle``); a session ends when idle for a while and a day's work
  after it was opened; the Host header must be a host name or address and a port, nothing else (``parse_host``).
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import ipaddress
import re
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http.cookies import CookieError, SimpleCookie
from pathlib import Path
from urllib.parse import urlsplit

from ..errors import UsageError

ROLES = ("editor", "viewer")
USER_COLUMNS = ("name", "role", "token_sha256")
SESSION_COOKIE = "gfc_session"
CSRF_HEADER = "x-csrf-token"
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_SHA256 = re.compile(r"[0-9a-f]{64}")
SESSION_IDLE_SECONDS = 2 * 3600.0  # a session nobody used for this long ends
SESSION_MAX_SECONDS = 12 * 3600.0  # and every session ends this long after the login that opened it
MAX_SESSIONS = 10_000  # the oldest sessions end first beyond this many
FAILURES_ALLOWED = 10  # wrong tokens or logins a client may send ...
FAILURE_WINDOW_SECONDS = 300.0  # ... in this long, before it is refused until the window has passed
FAILURE_DELAY_SECONDS = 0.25  # each wrong one waits this long before it is answered
WRONG_TOKEN, ENDED_SESSION = "wrong-token", "ended-session"  # Identity.via of a request with no user
MAX_CLIENTS = 10_000  # clients whose failures are remembered (the oldest forgotten first)
# a host name (letters, digits, dots, hyphens) or an address in brackets, then an optional port: nothing else
_HOST = re.compile(r"(?:\[(?P<v6>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?))"
                   r"(?::(?P<port>[0-9]{1,5}))?")


def parse_host(value: str) -> str | None:
    """The host of a Host header, lowercased (an IPv6 address without its brackets), or None when the header is
    anything but ``host[:port]`` (``127.0.0.1:8765 evil``, a path, user info, a port over 65535)."""
    m = _HOST.fullmatch(value)
    if m is None or (m["port"] is not None and int(m["port"]) > 65535):
        return None
    if m["v6"] is not None:
        try:
            ipaddress.IPv6Address(m["v6"])
        except ValueError:
            return None
        return m["v6"].lower()
    return str(m["name"]).lower()


@dataclass(frozen=True)
class User:
    name: str
    role: str  # editor | viewer

    @property
    def can_write(self) -> bool:
        return self.role == "editor"


def token_sha256(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def load_users(path: Path) -> dict[str, User]:
    """token_sha256 -> User from a CSV with columns name,role,token_sha256.

    Raises:
        UsageError: unreadable file, a missing column, or a bad row (named by its row number).
    """
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the users file {path} ({exc}); it is a UTF-8 CSV "
                         "with the columns name,role,token_sha256") from exc
    reader = csv.DictReader(io.StringIO(text, newline=""))
    missing = [c for c in USER_COLUMNS if c not in (reader.fieldnames or ())]
    if missing:
        raise UsageError(f"{path} lacks the column(s) {', '.join(missing)}; the header must be "
                         f"{','.join(USER_COLUMNS)}")
    users: dict[str, User] = {}
    names: set[str] = set()
    for number, row in enumerate(reader, 2):
        name, role = (row.get("name") or "").strip(), (row.get("role") or "").strip()
        digest = (row.get("token_sha256") or "").strip().lower()
        where = f"{path.name} row {number}"
        if not name:
            raise UsageError(f"{where}: name is empty")
        if role not in ROLES:
            raise UsageError(f"{where} ({name}): role {role!r} is not one of {', '.join(ROLES)}")
        if not _SHA256.fullmatch(digest):
            raise UsageError(f"{where} ({name}): token_sha256 must be the 64 hex digits of sha256(token), e.g. "
                             "`printf %s TOKEN | sha256sum`")
        if name in names or digest in users:
            raise UsageError(f"{where} ({name}): a name or token appears twice")
        names.add(name)
        users[digest] = User(name, role)
    if not users:
        raise UsageError(f"{path} names no users; add a row name,role,token_sha256")
    return users


def is_loopback(host: str) -> bool:
    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass
class Session:
    user: User
    csrf: str
    opened: float = 0.0  # Auth.clock() at the login
    used: float = 0.0  # Auth.clock() at the last request


@dataclass
class Throttle:
    """Wrong tokens and logins per client: each is answered after ``delay`` seconds, and a client with ``allowed``
    of them within ``window`` seconds is refused until the oldest of them is that old."""

    allowed: int = FAILURES_ALLOWED
    window: float = FAILURE_WINDOW_SECONDS
    delay: float = FAILURE_DELAY_SECONDS
    clients: OrderedDict[str, deque[float]] = field(default_factory=OrderedDict)

    def wait(self, client: str, now: float) -> float:
        """Seconds until ``client`` may try again (0: it may)."""
        seen = self.clients.get(client)
        if not seen:
            return 0.0
        while seen and now - seen[0] >= self.window:
            seen.popleft()
        if not seen:
            del self.clients[client]
            return 0.0
        return self.window - (now - seen[0]) if len(seen) >= self.allowed else 0.0

    def failed(self, client: str, now: float) -> None:
        seen = self.clients.setdefault(client, deque(maxlen=self.allowed))
        seen.append(now)
        self.clients.move_to_end(client)
        while len(self.clients) > MAX_CLIENTS:
            self.clients.popitem(last=False)


@dataclass
class Auth:
    """The app's users (None: loopback, the one local user) and the browser sessions opened by logging in."""

    users: dict[str, User] | None
    local_user: User
    sessions: OrderedDict[str, Session] = field(default_factory=OrderedDict)
    local_csrf: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    idle_seconds: float = SESSION_IDLE_SECONDS
    max_seconds: float = SESSION_MAX_SECONDS
    throttle: Throttle = field(default_factory=Throttle)
    clock: Callable[[], float] = time.monotonic

    @property
    def login_required(self) -> bool:
        return self.users is not None

    def by_token(self, token: str) -> User | None:
        if self.users is None or not token:
            return None
        digest = token_sha256(token)
        for known, user in self.users.items():  # compare every digest in constant time
            if hmac.compare_digest(known, digest):
                return user
        return None

    def login(self, token: str) -> tuple[str, Session] | None:
        user = self.by_token(token)
        if user is None:
            return None
        sid = secrets.token_urlsafe(32)
        now = self.clock()
        session = Session(user, secrets.token_urlsafe(32), now, now)
        self.sessions[sid] = session
        while len(self.sessions) > MAX_SESSIONS:
            self.sessions.popitem(last=False)
        return sid, session

    def session(self, sid: str) -> Session | None:
        """The session ``sid`` while it is alive (used within ``idle_seconds``, opened within ``max_seconds``);
        using it keeps it alive. An expired one ends."""
        session = self.sessions.get(sid)
        if session is None:
            return None
        now = self.clock()
        if now - session.used > self.idle_seconds or now - session.opened > self.max_seconds:
            del self.sessions[sid]
            return None
        session.used = now
        return session

    def logout(self, sid: str) -> None:
        self.sessions.pop(sid, None)


@dataclass(frozen=True)
class Identity:
    """Who a request is from and how it proved it: bearer, cookie, local (no users file), or none; with no user,
    why: no token at all (none), a wrong one (``WRONG_TOKEN``), a session cookie that is no (longer a) session
    (``ENDED_SESSION``)."""

    user: User | None
    via: str
    csrf: str = ""
    session_id: str = ""


def identify(auth: Auth, headers: Mapping[str, str]) -> Identity:
    if auth.users is None:
        return Identity(auth.local_user, "local", auth.local_csrf)
    scheme, _, token = headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer":
        user = auth.by_token(token.strip())
        return Identity(user, "bearer") if user else Identity(None, WRONG_TOKEN)
    sid = cookie(headers, SESSION_COOKIE)
    session = auth.session(sid) if sid else None
    if session is not None:
        return Identity(session.user, "cookie", session.csrf, sid)
    return Identity(None, ENDED_SESSION if sid else "none")


def cookie(headers: Mapping[str, str], name: str) -> str:
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(headers.get("cookie", ""))
    except CookieError:  # a malformed Cookie header is no session
        return ""
    morsel = jar.get(name)
    return morsel.value if morsel else ""


def cross_site(method: str, headers: Mapping[str, str]) -> str | None:
    """Why a state-changing request looks sent by another site (None: it does not). The Origin's host and port
    must be the Host the request was sent to (the scheme is left out: a TLS proxy may stand in front)."""
    if method not in UNSAFE_METHODS:
        return None
    origin = headers.get("origin")
    if origin is not None and urlsplit(origin).netloc.lower() != headers.get("host", "").lower():
        return f"cross-site request refused (Origin {origin})"
    site = headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return f"cross-site request refused (Sec-Fetch-Site {site})"
    return None


def csrf_ok(identity: Identity, headers: Mapping[str, str]) -> bool:
    """A browser session proves the request came from our page by echoing its CSRF token."""
    browser = "origin" in headers or "sec-fetch-site" in headers
    if identity.via == "bearer" or (identity.via == "local" and not browser):
        return True  # a token the browser never adds by itself, or a tool on this machine
    return bool(identity.csrf) and hmac.compare_digest(headers.get(CSRF_HEADER, ""), identity.csrf)
