"""The review app (``python -m pipeline review serve``): editors review flags in the browser, over the run's state.

>>> serve(ServeOptions(out=Path("reports"), state=Path("reports/state.sqlite")))  # doctest: +SKIP
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..errors import UsageError
from .app import AppConfig, create_app
from .auth import Auth, User, is_loopback, load_users

__all__ = ["AppConfig", "ServeOptions", "app_config", "create_app", "serve"]

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


@dataclass(frozen=True)
class ServeOptions:
    out: Path = Path("reports")
    state: Path = Path("reports") / "state.sqlite"
    host: str = "127.0.0.1"
    port: int = 8765
    users: Path | None = None
    editor: str = "editor"
    reference: Path | None = None
    timezone: str = ""  # the zone pages show times in (an IANA name; "" the machine's own)


def app_config(opts: ServeOptions) -> AppConfig:
    """Check the options and build the app's configuration.

    Raises:
        UsageError: a non-loopback --host without --users, a bad users file, or no state to review.
    """
    if not is_loopback(opts.host) and opts.users is None:
        raise UsageError(f"--host {opts.host} is not a loopback address: pass --users FILE "
                         "(CSV name,role,token_sha256) so that every request needs a token")
    users = load_users(opts.users) if opts.users is not None else None
    _check_zone(opts.timezone)
    from .workflow import open_state, reference_names

    with open_state(opts.state) as store:  # exists, is ours, is migrated; the journal is the truth for decisions
        restored = store.restore_journal(store.journal) if store.journal.is_file() else None
    name = opts.editor.strip() or "editor"
    hosts = None if users is not None else LOOPBACK_HOSTS | {opts.host.strip("[]").lower()}
    return AppConfig(state=Path(opts.state), out=Path(opts.out), auth=Auth(users, User(name, "editor")),
                     names=reference_names(opts.reference), allowed_hosts=frozenset(hosts) if hosts else None,
                     restored=restored.events + restored.assignments if restored else 0, timezone=opts.timezone)


def _check_zone(name: str) -> None:
    from ..report.display import time_zone

    try:
        time_zone(name)
    except ValueError as exc:
        raise UsageError(f"--timezone: {exc}") from None


def serve(opts: ServeOptions, announce: Callable[[str], None] = print) -> None:
    """Run the app with uvicorn until interrupted."""
    import uvicorn

    config = app_config(opts)
    _check_port(opts.host, opts.port)
    who = "every request needs a token" if config.auth.login_required else f"no login, decisions as {opts.editor}"
    shown = f"[{opts.host}]" if ":" in opts.host else opts.host
    if config.restored:
        announce(f"replayed {config.restored} decision(s) or assignment(s) from the journal that {opts.state} lacked")
    announce(f"review app on http://{shown}:{opts.port}/ over {opts.state} ({who}); Ctrl+C stops it")
    uvicorn.run(create_app(config), host=opts.host, port=opts.port, log_level="warning", access_log=False,
                server_header=False)


def _check_port(host: str, port: int) -> None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host.strip("[]"), port))
        except OSError as exc:
            raise UsageError(f"cannot listen on {host}:{port} ({exc.strerror}); pass --port with a free port "
                             "or --host with an address of this machine") from exc
