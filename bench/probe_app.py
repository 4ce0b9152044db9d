"""Probe the review app with malformed requests: every one must get a 4xx, and the app's memory must stay bounded.

    python bench/probe_app.py            # every probe, the big bodies at full size
    python bench/probe_app.py --quick    # smaller big bodies (what tests/test_webapp.py runs)

The app runs in this process (uvicorn in a thread, on a free loopback port, over a state made here with one claim),
so the resident set size of this process is the app's. Each probe sends its request over a raw socket (a body may
be sent slowly, or be larger than it says) and records the status line and how much the RSS grew; the script
prints one line per probe and exits 1 when a probe got anything but the status it expects or the RSS grew by more
than ``--max-growth-mb``. Nothing is timed: a slow sender only has to be refused.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

CLAIM_ID = "0123456789abcdef"
MB = 1024 * 1024


def rss_mb() -> float:
    """This process's resident set size (Linux: /proc; elsewhere the peak from getrusage)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (MB if sys.platform == "darwin" else 1024)


def make_state(folder: Path) -> Path:
    """A state with one flagged claim (written here, not taken from any article set)."""
    from pipeline.records import Check, Claim, DocumentResult, Status, Verdict
    from pipeline.state.store import Store

    text = "探针\n\nRTX 4090配备了32GB显存。\n"
    start = text.index("32GB")
    claim = Claim(doc_id="probe.txt", start=start, end=start + 4, text="32GB", sentence=text.strip(),
                  sentence_index=1, subject="nvidia_rtx_4090", subject_mention="RTX 4090", attribute="memory_size",
                  value=32, unit="GB", check=Check(Verdict.CONTRADICTED, "应为24 GB", "24 GB"), claim_id=CLAIM_ID)
    state = folder / "reports" / "state.sqlite"
    with Store(state) as store:
        run = store.begin_run("probe", "probe")
        store.save_result(run, DocumentResult("probe.txt", str(folder / "probe.txt"), "txt", "00" * 32, Status.OK,
                                              title="探针", text=text, claims=(claim,)), "probe", "probe")
        store.finish_run(run, {"documents": 1}, 0)
    return state


@contextmanager
def running_app(state: Path) -> Iterator[int]:
    import uvicorn

    from pipeline.review.app import AppConfig, create_app
    from pipeline.review.auth import Auth, User

    config = AppConfig(state=state, out=state.parent, auth=Auth(None, User("探针", "editor")),
                       allowed_hosts=frozenset({"127.0.0.1"}))
    server = uvicorn.Server(uvicorn.Config(create_app(config), host="127.0.0.1", port=0, log_level="critical",
                                           access_log=False, lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the review app did not start")
        time.sleep(0.02)
    try:
        yield int(server.servers[0].sockets[0].getsockname()[1])
    finally:
        server.should_exit = True
        thread.join(10)


@dataclass(frozen=True)
class Probe:
    name: str
    head: bytes  # the request line and headers, without the blank line
    body: Callable[[], Iterator[bytes]]  # what follows, piece by piece
    expect: int
    pause: float = 0.0  # between pieces: a slow sender


def send(port: int, probe: Probe, timeout: float) -> int:
    """Send the probe, stop as soon as the status line is in; its status (0: no answer)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(probe.head + b"\r\n\r\n")
        sock.setblocking(False)
        answer = b""
        deadline = time.monotonic() + timeout
        for piece in probe.body():
            answer += _recv(sock)
            if b"\r\n" in answer or time.monotonic() > deadline:
                break
            try:
                _send_all(sock, piece, deadline)
            except OSError:  # the app closed the connection on us: its answer is in
                break
            if probe.pause:
                time.sleep(probe.pause)
        sock.setblocking(True)
        sock.settimeout(max(0.1, deadline - time.monotonic()))
        while b"\r\n" not in answer:
            try:
                chunk = sock.recv(65536)
            except OSError:
                break
            if not chunk:
                break
            answer += chunk
    line = answer.split(b"\r\n", 1)[0].split()
    return int(line[1]) if len(line) > 1 and line[1].isdigit() else 0


def _recv(sock: socket.socket) -> bytes:
    try:
        return sock.recv(65536)
    except BlockingIOError:
        return b""
    except OSError:
        return b""


def _send_all(sock: socket.socket, data: bytes, deadline: float) -> None:
    view = memoryview(data)
    while view and time.monotonic() < deadline:
        try:
            sent = sock.send(view)
        except BlockingIOError:
            time.sleep(0.001)
            continue
        view = view[sent:]


def probes(port: int, big_mb: int) -> list[Probe]:
    def post(length: int | None, path: str = f"/api/claims/{CLAIM_ID}/decision") -> bytes:
        size = f"Content-Length: {length}" if length is not None else "Transfer-Encoding: chunked"
        return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                f"{size}").encode()

    def whole(data: bytes) -> Probe:
        return Probe("", post(len(data)), lambda: iter([data]), 400)

    def chunked(pieces: Iterator[bytes]) -> Iterator[bytes]:
        for piece in pieces:
            yield f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
        yield b"0\r\n\r\n"

    def stream(total: int, piece: int = 64 * 1024) -> Iterator[bytes]:
        yield b'{"status": "dismissed", "note": "'
        for _ in range(total // piece):
            yield b"x" * piece

    cases = [
        ("lone surrogate in note", whole(b'{"status": "dismissed", "note": "\\ud800"}')),
        ("lone surrogate in correction", whole(b'{"status": "corrected", "correction": "x\\udc00"}')),
        ("surrogate as UTF-8 bytes", whole(b'{"status": "dismissed", "note": "\xed\xa0\x80"}')),
        ("125k nested brackets", whole(b"[" * 125_000 + b"]" * 125_000)),
        ("100k-digit number", whole(b'{"status": 1' + b"0" * 100_000 + b"}")),
        ("NaN", whole(b'{"status": "open", "note": NaN}')),
    ]
    out = [Probe(name, p.head, p.body, p.expect) for name, p in cases]
    out.append(Probe("lone surrogate in assignee", post(len(b'{"doc_id": "probe.txt", "assignee": "\\ud800"}'),
                                                        "/api/assignments"),
                     lambda: iter([b'{"doc_id": "probe.txt", "assignee": "\\ud800"}']), 400))
    out.append(Probe(f"announced {big_mb * 2} MB", post(big_mb * 2 * MB), lambda: stream(big_mb * 2 * MB), 413))
    out.append(Probe(f"{big_mb} MB chunked, fast", post(None), lambda: chunked(stream(big_mb * MB)), 413))
    out.append(Probe("over the limit, chunked, slowly", post(None), lambda: chunked(stream(MB, 16 * 1024)), 413,
                     pause=0.02))
    start = b'{"status": "dismissed", '
    out.append(Probe("announced 300 bytes, sent slowly", post(300),
                     lambda: iter([start, *[b" "] * (300 - len(start))]), 408, pause=0.05))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller big bodies (8 MB instead of 256 MB)")
    parser.add_argument("--max-growth-mb", type=float, default=64.0, help="the RSS growth allowed per probe")
    parser.add_argument("--body-seconds", type=float, default=2.0,
                        help="the app's limit for a body to arrive (BODY_SECONDS), set low to probe it")
    args = parser.parse_args(argv)
    import pipeline.review.bodies

    pipeline.review.bodies.BODY_SECONDS = args.body_seconds
    big = 8 if args.quick else 256
    failures = 0
    with tempfile.TemporaryDirectory(prefix="gpu-factcheck-probe-") as tmp, running_app(make_state(Path(tmp))) as port:
        send(port, Probe("warm-up", f"GET /api/me HTTP/1.1\r\nHost: 127.0.0.1:{port}".encode(),
                         lambda: iter([b""]), 200), 10)
        baseline = rss_mb()
        for probe in probes(port, big):
            before = rss_mb()
            status = send(port, probe, timeout=args.body_seconds + 20)
            grown = rss_mb() - before
            ok = status == probe.expect and grown <= args.max_growth_mb
            failures += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {probe.name:<36} {status or 'no answer':>9} (expected "
                  f"{probe.expect}), RSS {grown:+.1f} MB")
        growth = rss_mb() - baseline
        from pipeline.state.store import Store

        with Store(Path(tmp) / "reports" / "state.sqlite") as store:
            decided = store.decisions()
    whole_ok = growth <= args.max_growth_mb and not decided
    failures += not whole_ok
    print(json.dumps({"probes_failed": failures, "rss_growth_mb": round(growth, 1), "decisions": len(decided)}))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
