"""The review app: a Starlette application over the run's state, its pages and its JSON API under /api/.

``create_app`` builds it; ``Guard`` (ASGI middleware) decides who may do what before any route runs, and adds the
security headers to every response. Each request opens its own ``Store`` (SQLite connections are not shared
between threads), so decisions from the app and from a run never corrupt each other.

Bad requests get a 4xx, never a 500 (the limits on bodies are ``bodies.py``'s); ``/out/NAME`` serves only the files
the last complete run published (``files.py``). A decision the journal took and the state could not (a full disk)
is a 503 that says so, and is replayed from the journal before the next request.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import StorageError, UsageError
from ..lexicon.labels import api_error, catalogue, http_error, labels, message
from ..report.html import TEMPLATES, environment
from ..state.decisions import Event
from ..state.store import Store
from ..state.store_team import NotUndoable, StaleDecision
from . import views
from .auth import (
    ENDED_SESSION,
    SESSION_COOKIE,
    UNSAFE_METHODS,
    WRONG_TOKEN,
    Auth,
    Identity,
    User,
    cross_site,
    csrf_ok,
    identify,
    parse_host,
)
from .bodies import parse_json_body, read_body
from .export import queue_csv
from .files import open_published, published_files, stream
from .team import (
    APP_MESSAGES,
    PRESENCE_POLL_SECONDS,
    Presence,
    check_status,
    claim_items,
    conflict_message,
    missing_text,
    version_of,
)

MAX_TEXT = 20_000  # characters of a note or a correction
APP_CSP = ("default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; "
           "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
# Report files are served sandboxed (an opaque origin: no cookie, no same-origin API call), under their own CSP.
REPORT_CSP = ("sandbox allow-scripts allow-popups allow-popups-to-escape-sandbox; default-src 'none'; "
              "style-src 'unsafe-inline'; script-src 'unsafe-inline'; base-uri 'none'; form-action 'none'")
REPORT_TYPES: dict[str, str] = {
    ".html": "text/html; charset=utf-8", ".md": "text/plain; charset=utf-8",
    ".json": "application/json", ".csv": "text/csv; charset=utf-8",
}
REPORT_JSONL = frozenset({"claims.jsonl", "documents.jsonl", "claimreview.jsonl", "segments.jsonl"})
STATIC = {"document.js": "document.js.j2", "review.js": "review.js.j2", "queue.js": "queue.js.j2",
          "team.js": "team.js.j2"}


@dataclass(frozen=True)
class AppConfig:
    state: Path
    out: Path
    auth: Auth
    names: Callable[[str], str] | None = None
    allowed_hosts: frozenset[str] | None = None  # None: any Host (a users file guards the app)
    restored: int = 0  # decisions and assignments replayed from the journal when the app started
    timezone: str = ""  # the zone pages show times in (an IANA name; "" the machine's own)


# ---- responses ----------------------------------------------------------------------------------


def json_error(status: int, message: str, **extra: Any) -> JSONResponse:
    headers = {"WWW-Authenticate": 'Bearer realm="gpu-factcheck"'} if status == 401 else None
    return JSONResponse({"error": message, "status": status, **extra}, status_code=status, headers=headers)


def render(name: str, http_status: int = 200, **context: Any) -> HTMLResponse:
    return HTMLResponse(environment().get_template(name).render(**context), status_code=http_status)


def html_error(status: int, message: str, identity: Identity | None = None) -> HTMLResponse:
    return render("app_error.html.j2", status, status=status, message=message,
                  user=identity.user if identity else None, login=identity is not None and identity.via == "cookie")


def login_page(status: int, message: str, next_path: str = "/") -> HTMLResponse:
    return render("app_login.html.j2", status, message=message, next=next_path)


def client_of(scope: Scope) -> str:
    """Who is guessing: the client's address (behind a proxy, the proxy's)."""
    client = scope.get("client")
    return str(client[0]) if client else "-"


def too_many(api: bool, wait: float) -> Response:
    headers = {"Retry-After": str(max(1, math.ceil(wait)))}
    if api:
        response: Response = json_error(429, api_error("throttled"))
    else:
        response = login_page(429, api_error("login_throttled"))
    response.headers.update(headers)
    return response


class Guard:
    """Authentication, authorization, cross-site protection and security headers, before every route."""

    def __init__(self, app: ASGIApp, config: AppConfig) -> None:
        self.app, self.config = app, config

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        path, method = scope["path"], scope["method"]
        api = path.startswith("/api/")
        send = _with_headers(send)
        auth = self.config.auth
        # a token tried: a bearer token (a login's is counted by the login route)
        tried = auth.users is not None and headers.get("authorization", "").lower().startswith("bearer")
        client = client_of(scope)
        wait = auth.throttle.wait(client, auth.clock()) if tried else 0.0
        refusal = too_many(api, wait) if wait > 0 else self._refusal(headers, path, method, api)
        if isinstance(refusal, Response):
            if tried and refusal.status_code == 401:  # a wrong token: counted, and answered after a pause
                auth.throttle.failed(client, auth.clock())
                await asyncio.sleep(auth.throttle.delay)
            await refusal(scope, receive, send)
            return
        scope.setdefault("state", {})["identity"] = refusal
        await self.app(scope, receive, send)

    def _refusal(self, headers: dict[str, str], path: str, method: str, api: bool) -> Response | Identity:
        """The response that refuses the request, or the identity it may proceed as."""
        host = parse_host(headers.get("host", ""))
        if host is None:
            text = api_error("bad_host")
            return json_error(400, text) if api else html_error(400, text)
        allowed = self.config.allowed_hosts
        if allowed is not None and host not in allowed:
            text = api_error("not_loopback")
            return json_error(421, text) if api else html_error(421, text)
        identity = identify(self.config.auth, headers)
        login_post = method == "POST" and path == "/login"
        if identity.user is None and not login_post:
            said = {WRONG_TOKEN: message("token.wrong"), ENDED_SESSION: message("session.expired")}.get(identity.via)
            if said is not None:  # a token or a session was sent, and is wrong: say so, not that none was sent
                return json_error(401, said) if api else login_page(401, said, path)
            text = api_error("token_required")
            return json_error(401, text) if api else login_page(401, api_error("login_prompt"), path)
        reason = cross_site(method, headers)
        if reason:
            return json_error(403, api_error("cross_site"), detail=reason) if api else \
                html_error(403, api_error("cross_site"), identity)
        if method in UNSAFE_METHODS and not login_post:
            # logging out is a plain form post (no script to add the token); its Origin was checked above
            if path != "/logout" and not csrf_ok(identity, headers):
                text = api_error("csrf")
                return json_error(403, text) if api else html_error(403, text, identity)
            user = identity.user
            if user is not None and not user.can_write and path != "/logout":
                return json_error(403, api_error("viewer", name=user.name))
            kind = headers.get("content-type", "").split(";")[0].strip().lower()
            if api and kind != "application/json":
                return json_error(415, api_error("json_only"))
        return identity


def _with_headers(send: Send) -> Callable[[Message], Awaitable[None]]:
    async def sender(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            present = {k.lower() for k, _ in headers}
            for key, value in ((b"content-security-policy", APP_CSP.encode()),
                               (b"x-content-type-options", b"nosniff"),
                               # same-origin, not no-referrer: with no-referrer a browser sends "Origin: null" on
                               # our own form posts, which the cross-site check must refuse
                               (b"referrer-policy", b"same-origin"),
                               (b"x-frame-options", b"DENY"), (b"cache-control", b"no-store")):
                if key not in present:
                    headers.append((key, value))
            message = {**message, "headers": headers}
        await send(message)

    return sender


# ---- helpers ------------------------------------------------------------------------------------


def _config(request: Request) -> AppConfig:
    config: AppConfig = request.app.state.config
    return config


def _identity(request: Request) -> Identity:
    identity: Identity = request.scope["state"]["identity"]
    return identity


def _user(request: Request) -> User:
    user = _identity(request).user
    assert user is not None  # Guard let no anonymous request through
    return user


async def _in_store(request: Request, work: Callable[[Store], Any]) -> Any:
    config = _config(request)
    app_state = request.app.state

    def call() -> Any:
        with Store(config.state) as store:
            if getattr(app_state, "replay", False):  # a decision the state refused is in the journal
                store.restore_journal(store.journal)
                app_state.replay = False
            return work(store)

    return await run_in_threadpool(call)


async def _json_body(request: Request) -> dict[str, Any]:
    return parse_json_body(await read_body(request))


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key, "")
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise HTTPException(400, f"{key} must be a string of at most {MAX_TEXT} characters")
    return value


def _page_context(request: Request) -> dict[str, Any]:
    identity = _identity(request)
    user = identity.user
    return {"user": user, "csrf": identity.csrf, "login": identity.via == "cookie",
            "can_write": bool(user and user.can_write),
            "review_labels": json.dumps(labels("review"), ensure_ascii=False),
            "app_messages": json.dumps({k: message_template(k) for k in APP_MESSAGES}, ensure_ascii=False)}


def message_template(key: str) -> str:
    """A catalogue message with its {placeholders} left in, for the page's script to fill."""
    return catalogue()[("message", key)]


# ---- API ----------------------------------------------------------------------------------------


def _listed(request: Request) -> Callable[[Store], list[dict[str, Any]]]:
    """The claims ``GET /api/claims`` lists for the request's filters (its CSV too)."""
    p = request.query_params
    names, zone = _config(request).names, _config(request).timezone

    def work(store: Store) -> list[dict[str, Any]]:
        rows = store.list_claims(verdict=p.get("verdict") or None, status=p.get("status") or None,
                                 doc_id=p.get("doc_id") or None, assignee=p.get("assignee") or None,
                                 q=p.get("q") or None, attribute=p.get("attribute") or None,
                                 subject=p.get("subject") or None, evidence=p.get("evidence") or None,
                                 flagged_only=p.get("flagged") in ("1", "true"))
        versions = store.versions()
        return [views.api_claim({**r, "version": versions.get(r["claim_id"], "")}, names, zone) for r in rows]

    return work


async def api_claims(request: Request) -> JSONResponse:
    """GET /api/claims?verdict=&status=&doc_id=&assignee=&q=[&attribute=&subject=&evidence=&flagged=1]"""
    return JSONResponse(await _in_store(request, _listed(request)))


async def api_claims_csv(request: Request) -> Response:
    """GET /api/claims.csv?(the filters of /api/claims): the same rows as a CSV (the queue's export)."""
    rows = await _in_store(request, _listed(request))
    return Response(queue_csv(rows), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": "attachment; filename=\"queue.csv\"; "
                                                    "filename*=UTF-8''%E5%AE%A1%E6%A0%B8%E9%98%9F%E5%88%97.csv"})


async def api_claim(request: Request) -> JSONResponse:
    """GET /api/claims/{claim_id}: the claim with its history."""
    claim_id = request.path_params["claim_id"]
    names = _config(request).names
    found = await _in_store(request, lambda store: _with_version(store, store.claim(claim_id)))
    if found is None:
        return json_error(404, api_error("unknown_claim", cid=claim_id), claim_id=claim_id)
    return JSONResponse(views.api_claim(found, names, _config(request).timezone))


def _with_version(store: Store, claim: dict[str, Any] | None) -> dict[str, Any] | None:
    return claim and {**claim, "version": store.version(claim["claim_id"])}


async def api_decision(request: Request) -> JSONResponse:
    """POST /api/claims/{claim_id}/decision {"status", "note", "correction", "version"}: the updated claim; 409
    when ``version`` (the claim's version the editor saw) is not its current one."""
    claim_id = request.path_params["claim_id"]
    data = await _json_body(request)
    status, note, correction = _decision_fields(data)
    version = version_of(data)

    def work(store: Store) -> list[Event] | None:
        if store.claim_snapshot(claim_id) is None:
            return None
        return store.decide_versioned([(claim_id, version)], status, _user(request).name, note, correction)

    return await _decided(request, work, single=claim_id)


async def api_decisions(request: Request) -> JSONResponse:
    """POST /api/decisions {"claims": [{"claim_id", "version"}...], "status", "note", "correction"}: one decision
    on each, in one transaction; {"claims": [updated claims]}, or 409 and nothing recorded when one is stale."""
    data = await _json_body(request)
    status, note, correction = _decision_fields(data)
    items = claim_items(data)
    user = _user(request)
    return await _decided(request, lambda store: store.decide_versioned(items, status, user.name, note, correction))


async def api_undo(request: Request) -> JSONResponse:
    """POST /api/undo {"claims": [{"claim_id", "version"}...]}: undo the step ``version`` of each claim (the version
    its decision answered), as a new step; 409 when a claim was decided since."""
    data = await _json_body(request)
    items = claim_items(data)
    if any(version is None for _, version in items):
        return json_error(400, message("decision.claims_list"))
    user = _user(request)
    return await _decided(request, lambda store: store.undo([(c, v or "") for c, v in items], user.name),
                          undoing=True)


def _decision_fields(data: Mapping[str, Any]) -> tuple[str, str, str]:
    """status, note and correction of a decision request, by the rules the page follows too."""
    status = check_status(data.get("status"))
    note, correction = _text(data, "note"), _text(data, "correction")
    lacking = missing_text(status, note, correction)
    if lacking is not None:
        raise HTTPException(400, lacking)
    return status, note, correction


async def _decided(request: Request, decide: Callable[[Store], list[Event] | None], *, single: str = "",
                   undoing: bool = False) -> JSONResponse:
    """Run ``decide`` and answer with the claims it changed (one claim for ``single``), or the conflict (409)."""
    names, zone = _config(request).names, _config(request).timezone

    def work(store: Store) -> dict[str, Any] | None:
        try:
            events = decide(store)
        except StaleDecision as stale:
            return {"conflict": stale, "claims": [_claim_now(store, c.claim_id, names, zone) for c in stale.conflicts]}
        except NotUndoable:
            raise HTTPException(409, message("decision.not_undoable")) from None
        if events is None:
            return None
        return {"claims": [_claim_now(store, e.claim_id, names, zone) for e in events]}

    answer = await _in_store(request, work)
    if answer is None:
        return json_error(404, api_error("unknown_claim", cid=single), claim_id=single)
    stale = answer.get("conflict")
    if isinstance(stale, StaleDecision):
        conflicts = [{"claim_id": c.claim_id, "seen": c.seen, "version": c.current,
                      "since": views.history_items([e.to_api() for e in c.since], _config(request).timezone),
                      "claim": claim}
                     for c, claim in zip(stale.conflicts, answer["claims"], strict=True)]
        return json_error(409, conflict_message(stale, undoing=undoing, zone=_config(request).timezone),
                          conflicts=conflicts)
    return JSONResponse(answer["claims"][0] if single else {"claims": answer["claims"]})


def _claim_now(store: Store, claim_id: str, names: Callable[[str], str] | None, zone: str = "") -> dict[str, Any]:
    """A claim as the API gives it, with its history, version and its document's verdict after the change."""
    claim = _with_version(store, store.claim(claim_id)) or {}
    if claim:
        claim["document_verdict"] = views.doc_verdict(store, claim["doc_id"])
    return views.api_claim(claim, names, zone) if claim else {"claim_id": claim_id}


async def api_presence(request: Request) -> JSONResponse:
    """GET /api/presence?doc_id=: the caller has the document open; who else has (``others``), by name."""
    doc_id = request.query_params.get("doc_id", "")
    others = _presence(request).visit(doc_id, _user(request).name)
    return JSONResponse({"doc_id": doc_id, "others": others, "poll_seconds": PRESENCE_POLL_SECONDS,
                         "message": message("presence.others", names="、".join(others)) if others else ""})


def _presence(request: Request) -> Presence:
    presence: Presence = request.app.state.presence
    return presence


async def api_documents(request: Request) -> JSONResponse:
    """GET /api/documents: every current document, worst first, with its assignee."""
    docs = await _in_store(request, views.document_rows)
    return JSONResponse([{k: v for k, v in d.items() if k != "severity"} for d in docs])


async def api_assign(request: Request) -> JSONResponse:
    """POST /api/assignments {"doc_id", "assignee"}: assign a document ("" unassigns)."""
    data = await _json_body(request)
    doc_id, assignee = _text(data, "doc_id"), _text(data, "assignee")
    user = _user(request)

    def work(store: Store) -> dict[str, Any] | None:
        doc = store.document(doc_id)
        if doc is None or doc.deleted:
            return None
        return store.assign(doc_id, assignee, user.name)

    record = await _in_store(request, work)
    if record is None:
        return json_error(404, api_error("unknown_document", doc=doc_id), doc_id=doc_id)
    return JSONResponse({k: record[k] for k in ("doc_id", "assignee", "user", "at")})


async def api_me(request: Request) -> JSONResponse:
    user = _user(request)
    return JSONResponse({"name": user.name, "role": user.role})


async def api_unknown(request: Request) -> JSONResponse:
    return json_error(404, api_error("no_api", path=request.url.path))


# ---- pages --------------------------------------------------------------------------------------


async def queue_page(request: Request) -> HTMLResponse:
    filters = views.QueueFilters.from_query(request.query_params)
    names = _config(request).names
    context = await _in_store(request, lambda store: views.queue(store, names, filters, _user(request).name,
                                                                     _config(request).timezone))
    return render("app_queue.html.j2", **context, **_page_context(request),
                  href=lambda doc_id, key="": "/doc/" + quote(doc_id) + (f"#item-{key}" if key else ""))


async def document_page(request: Request) -> HTMLResponse:
    doc_id = request.path_params["doc_id"]
    names, zone = _config(request).names, _config(request).timezone
    context = await _in_store(request, lambda store: views.document_page(store, names, doc_id, zone))
    if context is None:
        return html_error(404, api_error("no_document"), _identity(request))
    others = _presence(request).visit(doc_id, _user(request).name)
    return render("app_document.html.j2", **context, **_page_context(request),
                  presence=message("presence.others", names="、".join(others)) if others else "",
                  poll_seconds=PRESENCE_POLL_SECONDS)


async def login_form(request: Request) -> Response:
    if not _config(request).auth.login_required:
        return RedirectResponse("/", 303)
    return login_page(200, "", _safe_next(request.query_params.get("next", "/")))


async def login(request: Request) -> Response:
    auth = _config(request).auth
    if not auth.login_required:
        return RedirectResponse("/", 303)
    client = client_of(request.scope)
    wait = auth.throttle.wait(client, auth.clock())
    if wait > 0:
        return too_many(False, wait)
    body = await read_body(request)
    form = parse_qs(body.decode("utf-8", "replace"))
    token = (form.get("token") or [""])[0].strip()
    next_path = _safe_next((form.get("next") or ["/"])[0])
    opened = auth.login(token)
    if opened is None:
        auth.throttle.failed(client, auth.clock())
        await asyncio.sleep(auth.throttle.delay)
        return login_page(401, api_error("login_wrong"), next_path)
    sid, _session = opened
    response = RedirectResponse(next_path, 303)
    response.set_cookie(SESSION_COOKIE, sid, httponly=True, samesite="strict", path="/",
                        secure=request.url.scheme == "https")
    return response


async def logout(request: Request) -> Response:
    identity = _identity(request)
    _config(request).auth.logout(identity.session_id)
    response = RedirectResponse("/login", 303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


def _safe_next(value: str) -> str:
    """A local path to go back to after logging in; never another site."""
    return value if value.startswith("/") and not value.startswith("//") and "\\" not in value else "/"


async def static_file(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in STATIC:
        raise HTTPException(404, "no such file")
    return Response((TEMPLATES / STATIC[name]).read_text(encoding="utf-8"),
                    media_type="text/javascript; charset=utf-8")


async def report_file(request: Request) -> Response:
    """A report file the last complete run published in the output folder (index.html, a document's
    .html/.md/.json, the tables), as it published it; nothing else."""
    out = _config(request).out
    name = request.path_params["name"]
    suffix = Path(name).suffix.lower()
    allowed = (suffix in REPORT_TYPES and not name.startswith(".")) or name in REPORT_JSONL
    if not allowed or any(ch in name for ch in "/\\\x00") or name in (".", ".."):
        raise HTTPException(404, "no such report file")
    listed = await run_in_threadpool(published_files, out)
    if name not in listed:
        raise HTTPException(404, "no such report file")
    served = await run_in_threadpool(open_published, out, name, listed[name])
    if served is None:
        raise HTTPException(404, "no such report file")
    media = REPORT_TYPES.get(suffix, "text/plain; charset=utf-8")
    headers = {"Content-Security-Policy": REPORT_CSP}
    if isinstance(served, bytes):
        return Response(served, media_type=media, headers=headers)
    return StreamingResponse(stream(served), media_type=media,
                             headers={**headers, "Content-Length": str(listed[name][1])})


# ---- errors -------------------------------------------------------------------------------------


async def on_http_error(request: Request, exc: Exception) -> Response:
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    detail = exc.detail if isinstance(exc, HTTPException) else "internal error"
    said = str(detail) if re.search(r"[\u4e00-\u9fff]", str(detail)) else None  # ours: the catalogue's Chinese
    if request.url.path.startswith("/api/"):
        return json_error(status, said) if said else \
            json_error(status, http_error(status), detail=str(detail))
    identity = request.scope.get("state", {}).get("identity")
    return html_error(status, said or http_error(status), identity)


async def on_storage_error(request: Request, exc: Exception) -> Response:
    """The state could not be written (a full or read-only disk): 503, and the journal replayed next time."""
    request.app.state.replay = True
    if request.url.path.startswith("/api/"):
        return json_error(503, api_error("storage"), detail=str(exc))
    return html_error(503, api_error("storage"), request.scope.get("state", {}).get("identity"))


async def on_usage_error(request: Request, exc: Exception) -> Response:
    if request.url.path.startswith("/api/"):
        return json_error(400, api_error("bad_request"), detail=str(exc))
    return html_error(400, api_error("bad_request"), request.scope.get("state", {}).get("identity"))


def create_app(config: AppConfig) -> ASGIApp:
    """The app as an ASGI callable (``Guard`` around the routes)."""
    routes = [
        Route("/api/claims", api_claims, methods=["GET"]),
        Route("/api/claims.csv", api_claims_csv, methods=["GET"]),
        Route("/api/claims/{claim_id}", api_claim, methods=["GET"]),
        Route("/api/claims/{claim_id}/decision", api_decision, methods=["POST"]),
        Route("/api/decisions", api_decisions, methods=["POST"]),
        Route("/api/undo", api_undo, methods=["POST"]),
        Route("/api/presence", api_presence, methods=["GET"]),
        Route("/api/documents", api_documents, methods=["GET"]),
        Route("/api/assignments", api_assign, methods=["POST"]),
        Route("/api/me", api_me, methods=["GET"]),
        Route("/api/{rest:path}", api_unknown, methods=["GET", "POST", "PUT", "PATCH", "DELETE"]),
        Route("/", queue_page, methods=["GET"]),
        Route("/doc/{doc_id:path}", document_page, methods=["GET"]),
        Route("/login", login_form, methods=["GET"]),
        Route("/login", login, methods=["POST"]),
        Route("/logout", logout, methods=["POST"]),
        Route("/static/{name}", static_file, methods=["GET"]),
        Route("/favicon.ico", lambda request: Response(status_code=204), methods=["GET"]),
        Route("/out/{name}", report_file, methods=["GET"]),
    ]
    handlers = {HTTPException: on_http_error, UsageError: on_usage_error, StorageError: on_storage_error,
                Exception: on_http_error}
    app = Starlette(routes=routes, exception_handlers=handlers)
    app.state.config = config
    app.state.presence = Presence()
    return Guard(app, config)
