"""``sheepsolve explore FILE``: a local web app to step through one hand record card by card, with the
double-dummy value of every legal card live, other cards tried in a tree of variations, a variation downloaded
as a record, the mover's own view (``suggest``'s engine) and a hand played on against the engine.

- :mod:`.session`: the record's positions (lines of cards), the table at each (``show``'s data), the values
  (``solve``'s), the best line, a variation as a record;
- :mod:`.seat_view`: the player's view, the engine's card, a played hand judged (``annotate --view player``);
- :mod:`.jobs`: background work with progress, cancelled when the user moves on;
- :mod:`.app`: the Starlette app (token on every request, bounded bodies), served by uvicorn on 127.0.0.1.

The page is ``render/templates/explore.html`` with ``render/static/explore.js`` and ``explore.css``, all
served by the app itself (nothing from the network).
"""

from __future__ import annotations

import secrets
import socket
import threading
import webbrowser
from collections.abc import Callable

from .app import Settings, create_app
from .session import Explorer, ExploreError

__all__ = ["Explorer", "ExploreError", "Settings", "create_app", "serve", "HOST"]

HOST = "127.0.0.1"
"""The only address the app listens on: this machine."""


def serve(ex: Explorer, *, port: int = 0, open_browser: bool = True, settings: Settings | None = None,
          echo: Callable[[str], None] = print, token: str | None = None) -> None:
    """Serve ``ex`` on ``127.0.0.1:port`` (0: a free port) until Ctrl-C (or SIGTERM). Prints the address with
    its token, and opens it in the system's browser unless ``open_browser`` is False. Raises :class:`OSError`
    when the port cannot be had."""
    import uvicorn

    token = token or secrets.token_urlsafe(24)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((HOST, port))
    except OSError:
        sock.close()
        raise
    port = sock.getsockname()[1]
    hosts = frozenset({f"{HOST}:{port}", f"localhost:{port}"})
    app = create_app(ex, token=token, settings=settings, hosts=hosts)
    url = f"http://{HOST}:{port}/?token={token}"
    echo(f"sheepsolve explore: {ex.label}\nOpen {url}\n(Ctrl-C stops it.)")
    if open_browser:
        threading.Timer(0.3, webbrowser.open, (url,)).start()
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn stops on Ctrl-C, then raises it again: the stop asked for
        pass
    finally:
        app.app.state.jobs.close()  # type: ignore[attr-defined]
        sock.close()
