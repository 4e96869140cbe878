"""The web app of ``sheepsolve explore``: Starlette routes over one :class:`~.session.Explorer`, served by uvicorn.

Safety:

- every request must carry the app's token (``?token=`` in the address, as Jupyter does, or the
  ``X-Sheepsolve-Token`` header the page's script sends); without it: 403. With ``hosts`` given, a request
  naming another host (DNS rebinding) gets 403 too;
- request bodies are at most :data:`MAX_BODY` bytes (413 beyond), a line at most a deal's cards;
- the app reads only its record; a variation is built in memory and downloaded, never written on the server;
- a bad request gets a 400 with its ``error`` (the page shows it and stays as it was); a failing request gets a
  500 and the server goes on;
- the page runs only the app's own script (a Content-Security-Policy forbids inline and foreign scripts), and
  every string from the record reaches it escaped by Jinja2 or as text set by the script.

Routes (all JSON but the page, the static files and the download):

- ``GET /``: the page; ``GET /static/{explore.js,explore.css}``;
- ``POST /api/position`` ``{"line": [...]}``: the table after the line (:meth:`Explorer.table`);
- ``POST /api/jobs`` ``{"kind": ..., "line": [...], ...}``: start a background job (kinds: ``values``,
  ``chart``, ``bestline``, ``view``, ``engine``, ``judge``); ``GET /api/jobs/{id}?wait=S``: its state (waiting up
  to S seconds for its end); ``POST /api/jobs/{id}/cancel``;
- ``GET /api/variation?line=...``: the record with that play, as a TOML file to download.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..commands import ANALYSIS_ERRORS
from ..contracts import game_title
from ..render.charts import Scene
from ..render.html import render_fragment, render_page
from .jobs import Busy, Jobs
from .session import Explorer, ExploreError

__all__ = ["create_app", "page_html", "MAX_BODY", "TOKEN_HEADER", "Settings"]

MAX_BODY = 16 * 1024
"""The largest request body (bytes): a line of a full deal is well under 1 KiB."""

TOKEN_HEADER = "x-sheepsolve-token"
_STATIC = {"explore.js": "text/javascript; charset=utf-8", "explore.css": "text/css; charset=utf-8"}
_CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
_ERRORS = (ExploreError,) + ANALYSIS_ERRORS
_KINDS = ("values", "chart", "bestline", "view", "engine", "judge")


class Settings:
    """What the app was started with: the worlds, seed and inference (``auction`` or ``none``, as suggest's) of the
    player's view and the engine, the seat whose view the page starts in (None: every hand shown)."""

    def __init__(self, *, worlds: int = 100, seed: int = 0, seat: int | None = None,
                 inference: str = "auction") -> None:
        self.worlds = worlds
        self.seed = seed
        self.seat = seat
        self.inference = inference


class _Guard:
    """ASGI middleware: the token (and host) on every request, and a bounded body."""

    def __init__(self, app: Any, token: str, hosts: frozenset[str] | None) -> None:
        self.app = app
        self.token = token.encode()
        self.hosts = hosts

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            if scope["type"] == "lifespan":
                await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        given = headers.get(TOKEN_HEADER.encode(), b"")
        if not given:
            from urllib.parse import parse_qs

            given = (parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token") or [""])[0].encode()
        host = headers.get(b"host", b"").decode("latin-1")
        if not secrets.compare_digest(given, self.token) or (self.hosts is not None and host not in self.hosts):
            await _plain(send, 403, "403 Forbidden: this page needs the address sheepsolve explore printed (with "
                                    "its token)\n")
            return
        try:
            length = int(headers.get(b"content-length", b"0") or 0)
        except ValueError:
            length = MAX_BODY + 1
        if length > MAX_BODY:
            await _plain(send, 413, f"413: a request body is at most {MAX_BODY} bytes\n")
            return
        seen = 0

        async def bounded() -> dict:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > MAX_BODY:
                raise _TooLarge()
            return message

        try:
            await self.app(scope, bounded, send)
        except _TooLarge:
            await _plain(send, 413, f"413: a request body is at most {MAX_BODY} bytes\n")


class _TooLarge(Exception):
    pass


async def _plain(send: Callable, status: int, text: str) -> None:
    body = text.encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def _error(e: Exception, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": str(e)}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise ExploreError("the request is not JSON") from None
    except RecursionError:  # [[[[... within the 16 KiB bound: json's decoder recurses per level
        raise ExploreError("the request is not JSON: nested too deep") from None
    if not isinstance(data, dict):
        raise ExploreError("the request must be a JSON object")
    return data


def create_app(ex: Explorer, *, token: str, settings: Settings | None = None,
               hosts: frozenset[str] | None = None, jobs: Jobs | None = None) -> Any:
    """The ASGI app exploring ``ex``. ``token``: what every request must carry; ``hosts``: the Host headers
    accepted (None: any, for tests)."""
    settings = settings or Settings()
    jobs = jobs or Jobs(workers=2, errors=_ERRORS)

    def guarded(handler: Callable) -> Callable:
        async def endpoint(request: Request) -> Response:
            try:
                return await handler(request)
            except _ERRORS as e:
                return _error(e)
            except Busy as e:
                return _error(e, 503)
            except _TooLarge:
                raise
            except Exception as e:  # a bug: this request fails, the server goes on
                import traceback

                traceback.print_exc()
                return _error(RuntimeError(f"internal error: {type(e).__name__}: {e}"), 500)
        return endpoint

    async def page(request: Request) -> Response:
        html = await run_in_threadpool(page_html, ex, settings, token)
        return Response(html, media_type="text/html; charset=utf-8",
                        headers={"Content-Security-Policy": _CSP, "Cache-Control": "no-store",
                                 "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff"})

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in _STATIC:
            return Response("404: not found\n", status_code=404, media_type="text/plain")
        text = resources.files("sheepsolve.render").joinpath("static", name).read_text(encoding="utf-8")
        return Response(text, media_type=_STATIC[name], headers={"X-Content-Type-Options": "nosniff"})

    async def position(request: Request) -> Response:
        data = await _body(request)
        line = ex.parse_line(data.get("line", []))
        return JSONResponse(await run_in_threadpool(ex.table, line))

    async def start_job(request: Request) -> Response:
        data = await _body(request)
        kind = data.get("kind")
        if kind not in _KINDS:
            raise ExploreError(f"kind: one of {', '.join(_KINDS)}")
        line = ex.parse_line(data.get("line", []))
        await run_in_threadpool(ex.check, line)  # a bad line is refused at once
        work = _work(ex, settings, kind, line, data)
        job = jobs.start(str(data.get("lane") or kind)[:20], work)
        return JSONResponse(job.to_dict())

    async def job_state(request: Request) -> Response:
        try:
            wait = min(10.0, max(0.0, float(request.query_params.get("wait", "0"))))
        except ValueError:
            raise ExploreError("wait: a number of seconds") from None
        got = await run_in_threadpool(jobs.wait, request.path_params["job"], wait)
        if got is None:
            return _error(ExploreError("no such job"), 404)
        return JSONResponse(got)

    async def cancel_job(request: Request) -> Response:
        ok = jobs.cancel(request.path_params["job"])
        return JSONResponse({"cancelled": ok}, status_code=200 if ok else 404)

    async def variation(request: Request) -> Response:
        line = ex.parse_line(request.query_params.get("line", ""))
        text = await run_in_threadpool(ex.variation_toml, line)
        return Response(text, media_type="application/toml; charset=utf-8",
                        headers={"Content-Disposition": 'attachment; filename="variation.toml"',
                                 "X-Content-Type-Options": "nosniff"})

    routes = [
        Route("/", guarded(page)),
        Route("/static/{name}", guarded(static)),
        Route("/api/position", guarded(position), methods=["POST"]),
        Route("/api/jobs", guarded(start_job), methods=["POST"]),
        Route("/api/jobs/{job}", guarded(job_state)),
        Route("/api/jobs/{job}/cancel", guarded(cancel_job), methods=["POST"]),
        Route("/api/variation", guarded(variation)),
    ]
    app = Starlette(routes=routes)
    app.state.jobs = jobs
    return _Guard(app, token, hosts)


def _work(ex: Explorer, settings: Settings, kind: str, line: tuple, data: dict[str, Any]) -> Callable:
    """The background work of a job of ``kind`` on the position after ``line``."""
    from . import seat_view

    worlds, seed, inference = settings.worlds, settings.seed, settings.inference
    if kind == "values":
        return lambda progress: ex.values(line)
    if kind == "bestline":
        return lambda progress: {"line": [str(c) for c in line], "best": ex.best_line(line)}
    if kind == "chart":
        def chart(progress: Callable) -> dict[str, Any] | None:
            got = ex.value_chart(line)
            if got is None:
                return None
            scene: Scene = got["scene"]
            return {"values": got["values"], "svg": render_fragment("explore_chart.html", scene=scene),
                    "geometry": {"width": scene.width, "left": 62, "right": 970, "cards": len(line),
                                 "seats": ex.game.seats}}
        return chart
    if kind == "view":
        return lambda progress: seat_view.view_at(ex, line, worlds=worlds, seed=seed, progress=progress,
                                                  inference=inference)
    if kind == "engine":
        return lambda progress: seat_view.engine_card(ex, line, worlds=worlds, seed=seed, progress=progress,
                                                      inference=inference)
    seat_name = data.get("seat")
    if not isinstance(seat_name, str) or seat_name not in ex.record.players:
        raise ExploreError("seat: the name of a player of the record")
    since = data.get("since", 0)
    if isinstance(since, bool) or not isinstance(since, int) or not 0 <= since <= len(line):
        raise ExploreError("since: the number of cards played before the user took his seat")
    seat = ex.record.players.index(seat_name)
    return lambda progress: seat_view.judge_hand(ex, line, seat, since=since, worlds=worlds, seed=seed,
                                                 progress=progress, inference=inference)


def page_html(ex: Explorer, settings: Settings, token: str) -> str:
    """The page: ``render/templates/explore.html`` with the record's facts for the script (as JSON, escaped)
    and every card face of the deck drawn once."""
    rec, g = ex.record, ex.game
    data = {
        "token": token,
        "players": list(rec.players),
        "main": [str(c) for c in ex.main],
        "seats": g.seats,
        "cards": ex.max_cards,
        "complete": ex.complete,
        "two_sided": g.two_sided,
        "tout": bool(g.tout),
        "sie": bool(g.sie),
        "seat": None if settings.seat is None else rec.players[settings.seat],
        "worlds": settings.worlds,
        "seed": settings.seed,
        "label": ex.label,
    }
    return render_page("explore.html", notation=ex.style, is_trump=g.is_trump, family=g.family,
                       title=f"Explore: {game_title(g, ex.style, called=rec.called)}", subtitle=ex.label,
                       command="explore", data=data, deck=g.sort_cards(g.deck), token=token)
