"""HTTP routes: the display and its live stream (public, read-only), the console API (token).

Every refusal answers JSON ``{"error": "<a sentence for people>", ...}`` with a 4xx/5xx status,
is logged, and leaves the running game untouched.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import segno
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from referee.record import record_lines
from referee.session import InputRefused
from referee.web.night_routes import night_routes
from referee.web.security import Refused, check_origin, check_token

if TYPE_CHECKING:
    from referee.daemon import Referee

log = logging.getLogger(__name__)
STATIC = Path(__file__).parent / "static"
Handler = Callable[[Request], Awaitable[Response]]


def _error(status: int, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, **extra}, status_code=status)


def build_app(referee: Referee, max_body_bytes: int = 64 * 1024) -> Starlette:
    async def read_json(request: Request) -> dict[str, Any]:
        declared = request.headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > max_body_bytes):
            raise Refused(413, f"the request body is larger than {max_body_bytes} bytes")
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > max_body_bytes:
                raise Refused(413, f"the request body is larger than {max_body_bytes} bytes")
        try:
            value = json.loads(body or b"{}")
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise Refused(400, f"the request body is not valid JSON: {exc}") from None
        if not isinstance(value, dict):
            raise Refused(400, "the request body must be a JSON object")
        return value

    def guarded(handler: Handler, console: bool = True) -> Handler:
        """Console routes need the token; all refusals become JSON errors."""

        async def wrapper(request: Request) -> Response:
            try:
                if console:
                    check_token(request, referee.token)
                else:
                    check_origin(request)
                return await handler(request)
            except Refused as exc:
                log.warning("%s %s refused (%d): %s", request.method, request.url.path, exc.status, exc)
                return _error(exc.status, str(exc))
            except InputRefused as exc:
                log.warning("%s %s refused (%d): %s", request.method, request.url.path, exc.status, exc)
                return _error(exc.status, str(exc), rule=exc.rule)

        return wrapper

    def on_this_machine(handler: Handler) -> Handler:
        """Only for a browser on the referee's own machine: the Pi's own screen (the kiosk) may
        show the console's QR code, so the first scorekeeper needs nothing but the screen;
        phones and other computers never see it."""

        async def wrapper(request: Request) -> Response:
            client = request.client.host if request.client else ""
            server = (request.scope.get("server") or ("", 0))[0]
            # Loopback, or a connection whose two ends are the same address: this very machine.
            local = client in ("127.0.0.1", "::1") or (client != "" and client == server)
            if not local or "x-forwarded-for" in request.headers:
                return _error(403, "the console's code is shown only on the referee's own screen")
            return await handler(request)

        return wrapper

    # -- pages and read-only data -----------------------------------------------------------------

    async def display(request: Request) -> Response:
        return FileResponse(STATIC / "display.html")

    async def console(request: Request) -> Response:
        return FileResponse(STATIC / "console.html")

    async def view(request: Request) -> Response:
        return Response(referee.hub.current_json(), media_type="application/json")

    async def stream(request: Request) -> Response:
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return StreamingResponse(referee.hub.stream(), media_type="text/event-stream", headers=headers)

    async def health(request: Request) -> Response:
        status = referee.status()
        return JSONResponse(status, status_code=200 if status["ok"] else 503)

    def _game_id(request: Request) -> int:
        raw = request.path_params["game_id"]
        if raw == "current":
            return referee.session.game().id
        if not raw.isdigit() or int(raw) not in referee.session.games:
            raise InputRefused(f"there is no game {raw}", status=404)
        return int(raw)

    async def record(request: Request) -> Response:
        game = referee.session.games[_game_id(request)]
        events = [e.payload for e in referee.session.journal.events(game.id)]
        body = "\n".join(record_lines(game.fold.header, events)) + "\n"
        name = f"{game.fold.header.game}-{game.id}.jsonl"
        return Response(body, media_type="application/x-ndjson",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})  # fmt: skip

    async def qr_display(request: Request) -> Response:
        url = referee.urls.get("display") or str(request.base_url)
        return Response(segno.make(url, error="m").svg_inline(scale=6, dark="#fff", light="#111", omitsize=True),
                        media_type="image/svg+xml")  # fmt: skip

    async def qr_console(request: Request) -> Response:
        url = referee.urls.get("console") or f"{request.base_url}console?token={referee.token}"
        return Response(segno.make(url, error="m").svg_inline(scale=6, dark="#fff", light="#111", omitsize=True),
                        media_type="image/svg+xml")  # fmt: skip

    # -- console actions ------------------------------------------------------------------------

    async def whoami(request: Request) -> Response:
        return JSONResponse({"ok": True, "console": referee.urls.get("console")})

    async def create_game(request: Request) -> Response:
        body = await read_json(request)
        game = referee.session.create_game(body)
        return JSONResponse({"id": game.id, "summary": game.fold.summary()}, status_code=201)

    async def select_game(request: Request) -> Response:
        referee.session.select(_game_id(request))
        return JSONResponse({"id": referee.session.current_id})

    async def post_event(request: Request) -> Response:
        game_id = _game_id(request)
        event = await read_json(request)
        if event.get("type") in ("arm", "call", "press", "release", "void", "contest"):
            raise InputRefused(
                "button events come from the buttons; use Arm to start a contest, "
                "or undo and re-enter to correct one",
                status=400,
            )
        if referee.contests.running is not None and event.get("type") == "undo":
            raise InputRefused("a contest is running; cancel it before undoing", status=409)
        step = referee.session.submit(event, game_id)
        return JSONResponse({"ok": True, "verdicts": [v.to_json() for v in step.verdicts]})

    async def arm(request: Request) -> Response:
        return JSONResponse(referee.contests.arm())

    async def cancel(request: Request) -> Response:
        body = await read_json(request)
        reason = str(body.get("reason") or "cancelled by the scorekeeper")[:200]
        referee.contests.cancel(reason)
        return JSONResponse({"ok": True})

    async def camera_preview(request: Request) -> Response:
        latest = referee.camera.latest if referee.camera else None
        if latest is None:
            raise Refused(404, "the camera has not read a roll yet")
        return Response(latest.preview_jpeg, media_type="image/jpeg", headers={"Cache-Control": "no-store"})

    async def camera_accept(request: Request) -> Response:
        if referee.camera is None:
            raise Refused(404, "no dice camera is running")
        body = await read_json(request)
        corrected = body.get("corrected")
        if corrected is not None and not isinstance(corrected, dict):
            raise Refused(400, '"corrected" must be the dice as an object, e.g. {"green": "B", ...}')
        return JSONResponse(referee.camera.accept(corrected))

    async def board_preview(request: Request) -> Response:
        cam = referee.board_camera
        if cam is None or not cam.preview_jpeg:
            raise Refused(404, "the board camera has not read the board yet")
        return Response(cam.preview_jpeg, media_type="image/jpeg", headers={"Cache-Control": "no-store"})

    async def board_choose(request: Request) -> Response:
        if referee.board_camera is None:
            raise Refused(404, "no board camera is running")
        body = await read_json(request)
        if not isinstance(body.get("move"), str):
            raise Refused(400, 'send {"move": "<one of the moves the camera offered>"}')
        return JSONResponse(referee.board_camera.choose(body["move"]))

    async def board_dismiss(request: Request) -> Response:
        if referee.board_camera is None:
            raise Refused(404, "no board camera is running")
        return JSONResponse(referee.board_camera.dismiss())

    async def known_games(request: Request) -> Response:
        return JSONResponse(referee.session.known_games())

    # -- virtual buttons (only when the GPIO is mocked) -------------------------------------------

    async def virtual_button(request: Request) -> Response:
        if referee.virtual_keys is None:
            raise Refused(404, "virtual buttons exist only when the referee runs on mocked GPIO")
        raw = request.path_params["seat"]
        if not raw.isdigit() or int(raw) not in referee.source.seats:
            raise Refused(404, f"there is no seat {raw}")
        body = await read_json(request)
        pressed = body.get("pressed")
        if not isinstance(pressed, bool):
            raise Refused(400, 'send {"pressed": true} or {"pressed": false}')
        await referee.virtual_keys.set(int(raw), pressed)
        return JSONResponse({"ok": True})

    routes = [
        Route("/", display),
        Route("/console", console),
        Route("/api/view", view),
        Route("/api/stream", stream),
        Route("/api/health", health),
        Route("/api/known-games", known_games),
        Route("/api/qr/display.svg", qr_display),
        Route("/api/qr/console.svg", guarded(qr_console)),
        Route("/api/qr/console-local.svg", on_this_machine(qr_console)),
        Route("/api/games/{game_id}/record.jsonl", guarded(record, console=False)),
        Route("/api/whoami", guarded(whoami), methods=["GET"]),
        Route("/api/games", guarded(create_game), methods=["POST"]),
        Route("/api/games/{game_id}/select", guarded(select_game), methods=["POST"]),
        Route("/api/games/{game_id}/events", guarded(post_event), methods=["POST"]),
        Route("/api/contest/arm", guarded(arm), methods=["POST"]),
        Route("/api/camera/latest.jpg", guarded(camera_preview, console=False)),
        Route("/api/camera/accept", guarded(camera_accept), methods=["POST"]),
        Route("/api/contest/cancel", guarded(cancel), methods=["POST"]),
        Route("/api/board-camera/latest.jpg", guarded(board_preview, console=False)),
        Route("/api/board-camera/choose", guarded(board_choose), methods=["POST"]),
        Route("/api/board-camera/dismiss", guarded(board_dismiss), methods=["POST"]),
        Route("/api/buttons/{seat}", guarded(virtual_button, console=False), methods=["POST"]),
        *night_routes(referee, guarded, read_json),  # game night: seating, nights, standings, help
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes)
