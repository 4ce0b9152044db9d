"""The review app on a free loopback port, in a thread, for the API and browser tests."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn

from pipeline.review.server import AppConfig, create_app


@contextmanager
def running_app(config: AppConfig, host: str = "127.0.0.1") -> Iterator[str]:
    """Serve ``config`` until the block ends; yields the base URL (http://127.0.0.1:PORT)."""
    server = uvicorn.Server(uvicorn.Config(create_app(config), host=host, port=0, log_level="error",
                                           access_log=False, lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the review app did not start")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
