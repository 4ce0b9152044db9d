"""The review app's HTTP surface, over a real uvicorn server: the /api/ contract, who may do what, cross-site
requests, escaping, and which files a URL can reach."""

from __future__ import annotations

import hashlib
import json
import os
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pipeline.records import CONTRACT_FIELDS, Check, Claim, DocumentResult, Status, Verdict
from pipeline.review.auth import Auth, User, load_users
from pipeline.review.server import AppConfig
from pipeline.state.decisions import REVIEW_STATUSES
from pipeline.state.store import Store
from tests.app_server import running_app
from tests.store_builders import PIPE, REF, gpu_claims, make_result

TOKENS = {"editor": "editor-token-7f3a", "viewer": "viewer-token-2b9c"}
HOSTILE = '<script>window.__pwned=1</script><img src=x onerror="alert(1)">'


def bearer(role: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {TOKENS[role]}"}


@pytest.fixture(scope="module")
def state(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("app")
    out = root / "reports"
    article = root / "hostile.md"
    text = f"# 夹带脚本{HOSTILE}\n\nH100 的显存带宽为 2TB/s。\n"
    article.write_text(text, encoding="utf-8")
    start = text.index("H100")
    claim = Claim(doc_id="hostile.md", start=start, end=start + 15, text=text[start:start + 15],
                  sentence=text[start:].strip(), sentence_index=1, subject="h100-sxm", subject_mention="H100",
                  attribute="memory_bandwidth", value=2000, unit="GB/s",
                  check=Check(Verdict.CONTRADICTED, f"参考值为 3.35 TB/s{HOSTILE}", "3350 GB/s"),
                  claim_id="0123456789abcdef", extra={"written_unit": "TB/s"})
    with Store(out / "state.sqlite") as store:
        run = store.begin_run(REF, PIPE)
        for doc_id in ("a.md", "b.md"):
            store.save_result(run, make_result(doc_id, gpu_claims(doc_id)), REF, PIPE)
        store.save_result(run, DocumentResult("hostile.md", str(article), "md",
                                              hashlib.sha256(article.read_bytes()).hexdigest(), Status.OK,
                                              title=f"夹带脚本{HOSTILE}", claims=(claim,)), REF, PIPE)
        store.finish_run(run, {"documents": 3}, 0)
    (out / "index.html").write_text("<!DOCTYPE html><title>核查汇总</title>", encoding="utf-8")
    (out / "claims.csv").write_text("claim_id\n", encoding="utf-8")
    (out / "a.md.html").write_text("<!DOCTYPE html><title>a.md</title>", encoding="utf-8")
    publish_manifest(out, ["index.html", "claims.csv", "a.md.html", "link.html"])
    (root / "secret.txt").write_text("outside the output folder", encoding="utf-8")
    (out / "link.html").symlink_to(root / "secret.txt")
    users = root / "users.csv"
    users.write_text("name,role,token_sha256\n"
                     f"王编辑,editor,{hashlib.sha256(TOKENS['editor'].encode()).hexdigest()}\n"
                     f"赵读者,viewer,{hashlib.sha256(TOKENS['viewer'].encode()).hexdigest()}\n", encoding="utf-8")
    return out / "state.sqlite"


@pytest.fixture
def fresh(state: Path, tmp_path: Path) -> Path:
    """A copy of the state per test, so decisions do not leak between tests."""
    out = tmp_path / "reports"
    out.mkdir()
    for p in state.parent.iterdir():
        if p.is_file() and not p.is_symlink() and not p.name.endswith(".lock"):
            (out / p.name).write_bytes(p.read_bytes())
            os.utime(out / p.name, ns=(p.stat().st_atime_ns, p.stat().st_mtime_ns))
    for name in ("users.csv", "secret.txt"):
        (tmp_path / name).write_bytes((state.parent.parent / name).read_bytes())
    (out / "link.html").symlink_to(tmp_path / "secret.txt")
    return out / "state.sqlite"


def publish_manifest(out: Path, names: list[str]) -> None:
    """The marker a run writes last: it lists every file the run published with its sha256 and size."""
    files = {n: [hashlib.sha256((out / n).read_bytes()).hexdigest(), (out / n).stat().st_size]
             for n in names if (out / n).is_file()}
    (out / ".report-index.json").write_text(json.dumps({"_files": files, "_run": {"key": "k"}}), encoding="utf-8")


def config(state: Path, users: bool) -> AppConfig:
    if users:
        auth = Auth(load_users(state.parent.parent / "users.csv"), User("nobody", "editor"))
        return AppConfig(state=state, out=state.parent, auth=auth)
    return AppConfig(state=state, out=state.parent, auth=Auth(None, User("本机编辑", "editor")),
                     allowed_hosts=frozenset({"127.0.0.1", "localhost", "::1"}))


@pytest.fixture
def guarded(fresh: Path) -> Iterator[httpx.Client]:
    """The app with a users file, listening on every address (not only loopback)."""
    with running_app(config(fresh, users=True), host="0.0.0.0") as base:
        port = base.rsplit(":", 1)[1]
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
            yield client


@pytest.fixture
def local(fresh: Path) -> Iterator[httpx.Client]:
    with running_app(config(fresh, users=False)) as base, httpx.Client(base_url=base, timeout=10) as client:
        yield client


def decisions(client: httpx.Client, state: Path) -> dict[str, str]:
    with Store(state) as store:
        return {k: d.status for k, d in store.decisions().items()}


# ---- who may do what ----------------------------------------------------------------------------

# fmt: off
EVERY_KIND_OF_REQUEST = [
    ("GET",  "/",                                 None),
    ("GET",  "/?status=&verdict=contradicted",    None),
    ("GET",  "/doc/a.md",                         None),
    ("GET",  "/login",                            None),
    ("GET",  "/api/claims",                       None),
    ("GET",  "/api/claims/a.md-bw",               None),
    ("GET",  "/api/documents",                    None),
    ("GET",  "/api/me",                           None),
    ("GET",  "/api/nope",                         None),
    ("POST", "/api/claims/a.md-bw/decision",      {"status": "dismissed", "note": "x"}),
    ("POST", "/api/assignments",                  {"doc_id": "a.md", "assignee": "x"}),
    ("POST", "/logout",                           None),
    ("GET",  "/out/index.html",                   None),
    ("GET",  "/static/review.js",                 None),
    ("GET",  "/favicon.ico",                      None),
]
# fmt: on


@pytest.mark.parametrize(("method", "path", "body"), EVERY_KIND_OF_REQUEST)
@pytest.mark.parametrize("auth", [{}, {"Authorization": "Bearer wrong-token"}, {"Authorization": "Basic eDp5"},
                                  {"Cookie": "gfc_session=forged"}])
def test_without_a_token_every_request_is_refused(guarded: httpx.Client, fresh: Path, method: str, path: str,
                                                  body: dict[str, Any] | None, auth: dict[str, str]) -> None:
    r = guarded.request(method, path, json=body, headers=auth)
    assert r.status_code in (401, 403), (r.status_code, r.text[:200])
    if path.startswith("/api/"):
        assert r.headers["content-type"] == "application/json" and "error" in r.json()
        assert r.headers["www-authenticate"].startswith("Bearer")
    else:
        assert "令牌" in r.text  # the login form, never the page
        assert "H100" not in r.text
    assert decisions(guarded, fresh) == {}


def test_a_viewer_reads_but_cannot_decide_or_assign(guarded: httpx.Client, fresh: Path) -> None:
    assert guarded.get("/api/claims", headers=bearer("viewer")).status_code == 200
    assert guarded.get("/api/me", headers=bearer("viewer")).json() == {"name": "赵读者", "role": "viewer"}
    r = guarded.post("/api/claims/a.md-bw/decision", json={"status": "dismissed"}, headers=bearer("viewer"))
    assert r.status_code == 403 and "只读用户" in r.json()["error"]
    r = guarded.post("/api/assignments", json={"doc_id": "a.md", "assignee": "赵读者"}, headers=bearer("viewer"))
    assert r.status_code == 403
    page = guarded.get("/doc/a.md", headers=bearer("viewer"))
    assert page.status_code == 200 and 'data-act="dismissed"' not in page.text  # no buttons for a viewer
    assert decisions(guarded, fresh) == {}
    with Store(fresh) as store:
        assert store.assignments() == {}


def test_an_editors_decision_records_their_name(guarded: httpx.Client, fresh: Path) -> None:
    r = guarded.post("/api/claims/a.md-bw/decision", json={"status": "dismissed", "note": "口径不同"},
                     headers=bearer("editor"))
    assert r.status_code == 200, r.text
    claim = r.json()
    assert (claim["claim_id"], claim["review_status"], claim["editor"], claim["note"]) == (
        "a.md-bw", "dismissed", "王编辑", "口径不同")
    assert [(h["user"], h["from"], h["to"], h["note"]) for h in claim["history"]] == [
        ("王编辑", "open", "dismissed", "口径不同")]
    assert decisions(guarded, fresh) == {"a.md-bw": "dismissed"}


def test_login_sets_a_strict_session_cookie_and_then_needs_the_csrf_token(guarded: httpx.Client,
                                                                           fresh: Path) -> None:
    wrong = guarded.post("/login", data={"token": "nope", "next": "/"})
    assert wrong.status_code == 401
    r = guarded.post("/login", data={"token": TOKENS["editor"], "next": "//evil.example/x"})
    assert r.status_code == 303 and r.headers["location"] == "/"  # never off-site
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
    session = {"Cookie": f"gfc_session={r.cookies['gfc_session']}"}
    guarded.cookies.clear()
    page = guarded.get("/doc/a.md", headers=session)
    assert page.status_code == 200
    token = re.search(r'<meta name="csrf-token" content="([^"]+)"', page.text).group(1)  # type: ignore[union-attr]
    url, body = "/api/claims/a.md-bw/decision", {"status": "accepted"}
    assert guarded.post(url, json=body, headers=session).status_code == 403
    assert guarded.post(url, json=body, headers={**session, "X-CSRF-Token": "guess"}).status_code == 403
    ok = guarded.post(url, json=body, headers={**session, "X-CSRF-Token": token})
    assert ok.status_code == 200 and ok.json()["editor"] == "王编辑"


# fmt: off
CROSS_SITE = [
    ({"Origin": "http://evil.example"},                                        "application/json", 403),
    ({"Origin": "null"},                                                       "application/json", 403),
    ({"Sec-Fetch-Site": "cross-site"},                                         "application/json", 403),
    ({"Sec-Fetch-Site": "same-site"},                                          "application/json", 403),
    ({},                                                                       "text/plain",       415),
    ({},                                                          "application/x-www-form-urlencoded", 415),
]
# fmt: on


@pytest.mark.parametrize(("headers", "content_type", "status"), CROSS_SITE)
@pytest.mark.parametrize("mode", ["users", "local"])
def test_a_cross_site_post_is_refused(fresh: Path, headers: dict[str, str], content_type: str, status: int,
                                      mode: str) -> None:
    with running_app(config(fresh, users=mode == "users")) as base, httpx.Client(base_url=base) as client:
        auth = bearer("editor") if mode == "users" else {}
        r = client.post("/api/claims/a.md-bw/decision", content=b'{"status": "dismissed"}',
                        headers={**auth, **headers, "Content-Type": content_type})
        assert r.status_code == status and "error" in r.json()
        same = client.post("/api/claims/a.md-bw/decision", json={"status": "accepted"},
                           headers={**auth, "Origin": base, "Sec-Fetch-Site": "same-origin",
                                    "X-CSRF-Token": _local_token(client) if mode == "local" else ""})
        assert same.status_code == 200, same.text
    assert decisions(client, fresh) == {"a.md-bw": "accepted"}


def _local_token(client: httpx.Client) -> str:
    page = client.get("/doc/a.md").text
    return re.search(r'<meta name="csrf-token" content="([^"]+)"', page).group(1)  # type: ignore[union-attr]


def test_local_mode_answers_only_to_its_own_host_name(local: httpx.Client) -> None:
    assert local.get("/api/me").json() == {"name": "本机编辑", "role": "editor"}
    r = local.get("/api/claims", headers={"Host": "attacker.example"})  # DNS rebinding
    assert r.status_code == 421 and "本机地址" in r.json()["error"]
    assert local.get("/", headers={"Host": "localhost"}).status_code == 200
    # a browser page of this app that leaves out the CSRF token is refused too
    r = local.post("/api/claims/a.md-bw/decision", json={"status": "dismissed"},
                   headers={"Origin": str(local.base_url).rstrip("/"), "Sec-Fetch-Site": "same-origin"})
    assert r.status_code == 403


# ---- the /api/ contract -------------------------------------------------------------------------


def test_list_claims_with_the_contract_filters(local: httpx.Client) -> None:
    every = local.get("/api/claims").json()
    assert len(every) == 11
    jsonl_fields = set(gpu_claims("a.md")[0].to_dict())  # what claims.jsonl has for a claim
    assert set(CONTRACT_FIELDS) <= jsonl_fields
    for claim in every:  # the claims.jsonl fields, the review, its version, the labels; no internal extras
        assert jsonl_fields | {"review_status", "assignee", "labels", "version"} == set(claim), set(claim) ^ (
            jsonl_fields)
    ids = lambda **params: [c["claim_id"] for c in local.get("/api/claims", params=params).json()]  # noqa: E731
    assert ids(verdict="misattributed") == ["a.md-mi", "b.md-mi"]
    assert ids(doc_id="a.md", verdict="contradicted") == ["a.md-bw", "a.md-fp"]
    assert ids(q="V100", doc_id="b.md") == ["b.md-fp"]
    assert ids(evidence="database") == ["a.md-fp", "b.md-fp"]  # what the verdict rests on
    assert {"a.md-bw", "a.md-mi", "b.md-bw", "b.md-mi"} <= set(ids(evidence="-", flagged="1"))
    assert not {"a.md-fp", "b.md-fp"} & set(ids(evidence="-", flagged="1"))
    assert ids(verdict="", status="", doc_id="", assignee="", q="") == [c["claim_id"] for c in every]
    local.post("/api/claims/b.md-mi/decision", json={"status": "dismissed", "note": "代工方"})
    assert ids(status="dismissed") == ["b.md-mi"]
    assert local.post("/api/assignments", json={"doc_id": "b.md", "assignee": "李编辑"}).status_code == 200
    assert set(ids(assignee="李编辑")) == {c["claim_id"] for c in every if c["doc_id"] == "b.md"}
    assert "b.md-mi" not in ids(assignee="-")
    assert local.get("/api/claims", params={"verdict": "wrong"}).status_code == 400
    assert local.get("/api/claims", params={"evidence": "rumour"}).status_code == 400
    labels = local.get("/api/claims/a.md-bw").json()["labels"]
    assert (labels["verdict"], labels["review_status"], labels["attribute"]) == ("矛盾", "待处理", "显存带宽")


def test_the_queue_filters_by_what_a_flag_rests_on(local: httpx.Client) -> None:
    page = local.get("/", params={"evidence": "database"}).text
    assert re.findall(r'<li data-claim-id="([^"]+)"', page) == ["a.md-fp", "b.md-fp"]
    assert '<option value="database" selected>TechPowerUp数据库</option>' in page
    page = local.get("/", params={"evidence": "vendor"}).text  # none of these flags rests on the curated tables
    assert re.findall(r'<li data-claim-id="([^"]+)"', page) == [] and 'data-role="empty"' in page
    every = re.findall(r'<li data-claim-id="([^"]+)"', local.get("/", params={"evidence": "bogus"}).text)
    assert {"a.md-fp", "b.md-fp", "a.md-bw"} <= set(every)  # an unknown value is no filter


def test_one_claim_with_its_history_and_reopening(local: httpx.Client) -> None:
    assert local.get("/api/claims/a.md-bw").json()["history"] == []
    local.post("/api/claims/a.md-bw/decision", json={"status": "corrected", "correction": "显存带宽为 3.35TB/s"})
    reopened = local.post("/api/claims/a.md-bw/decision", json={"status": "open", "note": "作者又改回去了"}).json()
    assert reopened["review_status"] == "open" and "editor" not in reopened
    assert [(h["user"], h["from"], h["to"], h["correction"]) for h in reopened["history"]] == [
        ("本机编辑", "open", "corrected", "显存带宽为 3.35TB/s"), ("本机编辑", "corrected", "open", "")]
    assert local.get("/api/claims/a.md-bw").json()["history"] == reopened["history"]


# fmt: off
# the error in Chinese (the catalogue's), and what went wrong in English for tools (detail) where a library said it
API_ERRORS = [
    ("GET",  "/api/claims/ffffffffffffffff", None,                    404, "没有编号为 ffffffffffffffff 的论断", None),
    ("POST", "/api/claims/ffffffffffffffff/decision", {"status": "dismissed", "note": "x"}, 404, "没有编号为", None),
    ("POST", "/api/claims/a.md-bw/decision", {"status": "maybe"}, 400, "审核状态无效", None),
    ("POST", "/api/claims/a.md-bw/decision", {"status": "open", "note": 5}, 400, "请求无效", "note must be"),
    ("POST", "/api/claims/a.md-bw/decision", [1, 2], 400, "请求无效", "JSON object"),
    ("POST", "/api/assignments", {"doc_id": "nope.md"}, 404, "没有这篇文档：nope.md", None),
    ("GET",  "/api/decisions",               None,                    404, "没有这个接口：/api/decisions", None),
    ("PUT",  "/api/claims/a.md-bw", {"status": "open"}, 404, "没有这个接口", None),
]
# fmt: on


@pytest.mark.parametrize(("method", "path", "body", "status", "message", "detail"), API_ERRORS)
def test_api_errors_are_json(local: httpx.Client, method: str, path: str, body: Any, status: int,
                             message: str, detail: str | None) -> None:
    r = local.request(method, path, json=body)
    assert r.status_code == status and r.headers["content-type"] == "application/json"
    assert message in r.json()["error"] and r.json()["status"] == status
    # no English for editors: only the request's own words (path, ids) and the API's status codes
    said = re.sub("|".join(map(re.escape, [path, *path.split("/"), "nope.md", *REVIEW_STATUSES])), "",
                  r.json()["error"])
    assert not re.search(r"[A-Za-z]{3,}", said), said
    assert (detail is None and "detail" not in r.json()) or (detail or "") in r.json()["detail"]


def test_a_body_that_is_not_json(local: httpx.Client) -> None:
    r = local.post("/api/claims/a.md-bw/decision", content=b"{status: dismissed",
                   headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "not JSON" in r.json()["detail"]


# ---- pages and files ----------------------------------------------------------------------------


def test_article_text_is_always_escaped(local: httpx.Client) -> None:
    for path in ("/doc/hostile.md", "/", "/?status=&q=H100"):
        page = local.get(path).text
        assert "<script>window.__pwned" not in page and "<img src=x" not in page, path
        assert "&lt;script&gt;window.__pwned=1&lt;/script&gt;" in page, path
        scripts = re.findall(r"<script\b[^>]*>", page)
        assert all(re.fullmatch(r'<script src="/static/[a-z]+\.js">', s) for s in scripts), scripts
    article = local.get("/doc/hostile.md")
    assert "3.35 TB/s" in article.text and "3.35 TB/s&lt;script&gt;" in article.text
    csp = article.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "'unsafe-inline'" not in csp.split("script-src")[1].split(";")[0]
    assert article.headers["x-content-type-options"] == "nosniff"
    assert article.headers["x-frame-options"] == "DENY"


# fmt: off
FILES = [
    ("index.html",                  200),
    ("claims.csv",                  200),
    ("state.sqlite",                404),
    ("decisions.jsonl",             404),
    (".report-index.json",          404),
    ("link.html",                   404),   # a symlink out of the folder
    ("..%2Fsecret.txt",             404),
    ("%2e%2e%2fsecret.txt",         404),
    ("..%5Csecret.txt",             404),
    ("sub%2F..%2F..%2Fsecret.txt",  404),
    ("%00index.html",               404),
]
# fmt: on


@pytest.mark.parametrize(("name", "status"), FILES)
def test_no_url_reaches_a_file_outside_the_output_folder(local: httpx.Client, name: str, status: int) -> None:
    r = local.get(f"/out/{name}")
    assert r.status_code == status, r.text[:100]
    assert "outside the output folder" not in r.text
    if status == 200:
        assert r.headers["content-security-policy"].startswith("sandbox")


@pytest.mark.parametrize("path", ["/../secret.txt", "/out/../../secret.txt", "/static/../../../etc/passwd",
                                  "/static/app.py", "/doc/../../secret.txt"])
def test_no_path_escapes(local: httpx.Client, path: str) -> None:
    r = local.get(path)
    assert r.status_code == 404 and "outside the output folder" not in r.text


# ---- issue 27: the app serves only the report files a run wrote ----------------------------------


def test_a_link_to_the_state_in_the_output_folder_is_not_served(guarded: httpx.Client, fresh: Path) -> None:
    """ln -s state.sqlite OUT/leak.html, or a hard link, or a listed report replaced by a link: 404 (point 3)."""
    out = fresh.parent
    (out / "leak.html").symlink_to(fresh)
    os.link(fresh, out / "hard.html")
    (out / "a.md.html").unlink()
    (out / "a.md.html").symlink_to(fresh)
    (out / "claims.csv").write_text("claim_id\nchanged since the run\n", encoding="utf-8")
    for name in ("leak.html", "hard.html", "a.md.html", "state.sqlite", "claims.csv"):
        r = guarded.get(f"/out/{name}", headers=bearer("viewer"))
        assert r.status_code == 404, name
        assert b"SQLite format 3" not in r.content and "changed since" not in r.text
    assert guarded.get("/out/index.html", headers=bearer("viewer")).status_code == 200


# ---- issue 27: bad requests are refused with 4xx -------------------------------------------------

# fmt: off
MALFORMED = [
    # what,                  body
    ("lone surrogate",       b'{"status": "dismissed", "note": "\\ud800"}'),
    ("reversed pair",        b'{"status": "corrected", "correction": "\\udfff\\ud800"}'),
    ("surrogate as UTF-8",   b'{"status": "dismissed", "note": "\xed\xa0\x80"}'),
    ("not UTF-8",            b'{"status": "dismissed", "note": "\xff"}'),
    ("125k brackets",        b"[" * 125_000 + b"]" * 125_000),
    ("2k brackets in note",  b'{"status": "open", "note": ' + b"[" * 2_000 + b"]" * 2_000 + b"}"),
    ("100k-digit integer",   b'{"status": 1' + b"0" * 100_000 + b"}"),
    ("100k-digit fraction",  b'{"status": "open", "note": 1.' + b"5" * 100_000 + b"}"),
    ("NaN",                  b'{"status": "open", "note": NaN}'),
]
# fmt: on


@pytest.mark.parametrize("body", [b for _, b in MALFORMED], ids=[what for what, _ in MALFORMED])
def test_a_malformed_decision_is_refused_with_400(local: httpx.Client, fresh: Path, body: bytes) -> None:
    r = local.post("/api/claims/a.md-bw/decision", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 400, r.text[:200]
    assert r.json()["status"] == 400
    assert decisions(local, fresh) == {}


@pytest.mark.parametrize("assignee", ["\\ud800", "\\udc00x"], ids=["lone", "then a letter"])
def test_a_malformed_assignment_is_refused_with_400(local: httpx.Client, fresh: Path, assignee: str) -> None:
    body = ('{"doc_id": "a.md", "assignee": "' + assignee + '"}').encode()
    r = local.post("/api/assignments", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 400, r.text[:200]
    with Store(fresh) as store:
        assert store.assignments() == {}


def _raw(base: str, request: bytes, *, timeout: float = 10.0) -> bytes:
    """Send ``request`` as it is and read what the server answers (until it closes or ``timeout`` passes)."""
    host, port = base.removeprefix("http://").rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=timeout) as sock:
        sock.sendall(request)
        chunks = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                chunk = sock.recv(65536)
            except (TimeoutError, ConnectionResetError):
                break
            if not chunk:
                break
            chunks.append(chunk)
            if b"\r\n\r\n" in b"".join(chunks):
                break
        return b"".join(chunks)


def test_a_body_announced_over_the_limit_is_refused_before_it_is_read(fresh: Path) -> None:
    with running_app(config(fresh, users=False)) as base:
        host = base.removeprefix("http://")
        answer = _raw(base, (f"POST /api/claims/a.md-bw/decision HTTP/1.1\r\nHost: {host}\r\n"
                             "Content-Type: application/json\r\nContent-Length: 500000000\r\n\r\n").encode()
                      + b'{"status": "dismissed", "note": "' + b"x" * 1000, timeout=5)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:100]


def test_a_chunked_body_over_the_limit_is_refused(local: httpx.Client, fresh: Path) -> None:
    def chunks() -> Any:
        yield b'{"status": "dismissed", "note": "'
        for _ in range(100):
            yield b"x" * 65536
        yield b'"}'

    r = local.post("/api/claims/a.md-bw/decision", content=chunks(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    assert decisions(local, fresh) == {}


# fmt: off
HOSTS = [
    # Host header,               status
    ("127.0.0.1:{port} evil",    400),
    ("127.0.0.1:{port}/x",       400),
    ("127.0.0.1:99999",          400),
    ("127.0.0.1:{port}@evil",    400),
    ("evil.example",             421),
    ("127.0.0.1:{port}",         200),
    ("localhost:{port}",         200),
    ("[::1]:{port}",             200),
]
# fmt: on


@pytest.mark.parametrize(("host", "status"), HOSTS)
def test_the_host_header_is_parsed_strictly(local: httpx.Client, host: str, status: int) -> None:
    port = str(local.base_url).rstrip("/").rsplit(":", 1)[1]
    r = local.get("/api/me", headers={"Host": host.format(port=port)})
    assert r.status_code == status, r.text[:200]


def test_wrong_tokens_are_slowed_and_then_refused_for_a_while(guarded: httpx.Client) -> None:
    """At about a thousand guesses a second a token falls; a client that keeps guessing is made to wait."""
    answers = []
    started = time.monotonic()
    for n in range(20):
        answers.append(guarded.get("/api/me", headers={"Authorization": f"Bearer guess-{n}"}).status_code)
    assert set(answers) == {401, 429} and answers[0] == 401 and answers[-1] == 429
    refused = guarded.get("/api/me", headers=bearer("editor"))  # even the right token, until the window passes
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 0
    assert time.monotonic() - started >= 1.0  # each wrong guess waits before it is answered


def test_wrong_logins_are_slowed_and_then_refused_for_a_while(guarded: httpx.Client) -> None:
    answers = [guarded.post("/login", data={"token": f"guess-{n}", "next": "/"}).status_code for n in range(20)]
    assert set(answers) == {401, 429} and answers[-1] == 429
    assert guarded.post("/login", data={"token": TOKENS["editor"], "next": "/"}).status_code == 429


@pytest.mark.parametrize(("idle", "after", "alive"), [
    (60.0, 30.0, True),               # used within the idle limit
    (3 * 3600.0, 0.0, False),         # idle for three hours
    (0.0, 13 * 3600.0, False),        # in use all along, but opened thirteen hours ago
])
def test_sessions_expire_when_idle_and_after_a_day_of_work(fresh: Path, idle: float, after: float,
                                                           alive: bool) -> None:
    now = [1000.0]
    app_config = config(fresh, users=True)
    app_config.auth.clock = lambda: now[0]  # type: ignore[misc]
    with running_app(app_config) as base, httpx.Client(base_url=base, timeout=10) as client:
        login = client.post("/login", data={"token": TOKENS["editor"], "next": "/"})
        session = {"Cookie": f"gfc_session={login.cookies['gfc_session']}"}
        client.cookies.clear()
        steps = int(after // 1800) + 1
        for _ in range(steps):  # keep the session in use every half hour for ``after`` seconds
            now[0] += after / steps
            client.get("/api/me", headers=session)
        now[0] += idle
        r = client.get("/api/me", headers=session)
    assert (r.status_code == 200) is alive, r.status_code


def _failing_commits(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Every state connection's COMMIT fails while the returned flag is set, as on a disk that just filled up."""
    import sqlite3

    import pipeline.state.store

    failing = [False]
    real_connect = sqlite3.connect

    class Connection:
        def __init__(self, conn: sqlite3.Connection) -> None:
            self._conn = conn

        def execute(self, sql: str, *args: Any) -> Any:
            if failing[0] and sql.strip().upper() == "COMMIT":
                raise sqlite3.OperationalError("database or disk is full")
            return self._conn.execute(sql, *args)

        def __getattr__(self, name: str) -> Any:
            return getattr(self._conn, name)

    def connect(*args: Any, **kwargs: Any) -> Any:
        return Connection(real_connect(*args, **kwargs))

    monkeypatch.setattr(pipeline.state.store.sqlite3, "connect", connect)
    return failing


def test_a_decision_whose_commit_fails_after_the_journal_is_a_clear_503_and_is_restored(
        fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The journal took the decision, the state could not: a JSON 503 saying so, never a 500; the next start of
    the app replays it from the journal (point 6)."""
    failing = _failing_commits(monkeypatch)
    with running_app(config(fresh, users=False)) as base, httpx.Client(base_url=base, timeout=10) as client:
        failing[0] = True
        r = client.post("/api/claims/a.md-bw/decision", json={"status": "dismissed", "note": "误报"})
        failing[0] = False
        assert r.status_code == 503, r.text[:300]
        assert "disk full" in r.json()["detail"] and "decisions.jsonl" in r.json()["detail"]
    from pipeline.review.server import ServeOptions, app_config

    app_config(ServeOptions(out=fresh.parent, state=fresh))  # the app starts again
    assert decisions(client, fresh) == {"a.md-bw": "dismissed"}


def test_the_probe_script_finds_every_malformed_request_refused_with_bounded_memory() -> None:
    """bench/probe_app.py (surrogates, depth, huge numbers, bodies over the limit, fast and slowly) passes."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run([sys.executable, str(root / "bench" / "probe_app.py"), "--quick"], capture_output=True,
                          text=True, cwd=root, timeout=300, env={**os.environ, "PYTHONPATH": str(root)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert json.loads(proc.stdout.splitlines()[-1])["probes_failed"] == 0
